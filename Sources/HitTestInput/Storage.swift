import HitTestCore

// The one file of HitTestInput that uses unsafe escapes (`@exclusivity(unchecked)`,
// `Unmanaged`, `_withUnsafeGuaranteedRef`) or an unchecked conversion (`unsafeDowncast`).
// Every other file reaches them only through the names below; `scripts/escapes.sh` fails CI if
// one appears anywhere else in this module. The public classes' hot fields (listed in
// `scripts/exclusivity.sh`) need none: they are internal and edited without an access open
// around an unseen call (`editTakenOut`, the core's), so the whole-module optimizer drops their
// checks, as in the core (Core/Storage.swift, "Fields of the public classes"). `Application`,
// a public class whose queue and deadlines are edited in place around calls on every step,
// holds its fields in one object of a storage class here (`ApplicationStorage`).
//
// The invariants that make them safe:
//
// - Thread confinement and no reentrant access, as in the core: an application and everything
//   of its pipeline are used from one thread at a time, and the `@exclusivity(unchecked)`
//   fields are read or written in one statement, or mutated in place without calling user code
//   while the mutation is open. A record of fields is used one field at a time: a statement
//   reads or writes one field, or mutates one in place (`append`, `removeAll`, an `inout`
//   argument) without calling code that touches the same record while the mutation is open; its
//   arguments are evaluated before the mutation begins.
// - Borrowed references (`withBorrowed`) are used only inside the call, while the caller holds
//   the object strongly (an element of an array it owns, a field of an object it owns) and does
//   not release it before the body returns.
// - The typed records. The core's slots for input are written by this module only, and only
//   through the typed views below: `View.inputAttachment` through `View.input` (always a
//   `ViewInput`), the window's application (`Window.applicationResponder`) through
//   `Window.application` (an `Application`), `GestureRecognizer.arbiter` through
//   `GestureRecognizer.tracking` (a `GestureTracking`); a `Touch`'s and an `Event`'s record are
//   given to their initializers by this module only (`Touch(identifier:phase:location:
//   timestamp:tapCount:)`, always a `TouchRoute`; `Event(timestamp:…)`, always an
//   `EventState`): the unchecked downcasts below cannot fail.
//
// Back references here are `unowned` (checked: a use after the target died traps instead of
// reading freed memory; no weak side table, so retains of the target stay on the fast path),
// each cleared by the target's `deinit` all the same: the router's, tracker's and engine's
// application (`Application.deinit`), the scroll view's delay recognizer's scroll view
// (`ScrollView.deinit`). The scroll view's pan recognizer and motion ticks, which read theirs on
// every pan step and tick, hold it as the core's `Unretained` (no reference count traffic;
// internal fields, so the optimizer drops their exclusivity checks: scripts/exclusivity.sh),
// cleared by the same `deinit` before the view dies. The window's application (the core's unretained slot) is cleared
// by `Application.removeWindow(_:)` and `Application.deinit`; a recognizer's view by
// `removeGestureRecognizer(_:)` and by the view's record when the view dies (`View.deinit`
// drops its record first; `ViewInput.deinit` clears it).

// MARK: - Borrowed references

/// Runs `body` on `object` without the retain and release a strong local would cost. The
/// caller must hold `object` for the whole call (see "Borrowed references" above).
@inline(__always) func withBorrowed<Object: AnyObject, R>(_ object: Object, _ body: (Object) -> R) -> R {
    Unmanaged.passUnretained(object)._withUnsafeGuaranteedRef(body)
}

// MARK: - Typed views of the core's slots

extension View {
    /// The view's input record (the core's `inputAttachment`, typed); nil until one is needed.
    var input: ViewInput? {
        get { inputAttachment.map { unsafeDowncast($0, to: ViewInput.self) } }
        set { inputAttachment = newValue }
    }
}

/// A scroll view's input record: a bounds origin change is a scroll.
///
/// Invariant: only `ScrollView.init` makes one, as the record of the scroll view being made,
/// and a record never moves to another view, so the view it hears of is always a `ScrollView`.
final class ScrollViewInput: ViewInput {
    override func boundsOriginDidChange(of view: View) {
        unsafeDowncast(view, to: ScrollView.self).didScroll()
    }
}

extension Window {
    /// The application showing this window, set by `Application.addWindow(_:)`.
    /// (Unretained: cleared by `removeWindow(_:)` and when the application dies.)
    public internal(set) var application: Application? {
        get { applicationResponder.map { unsafeDowncast($0, to: Application.self) } }
        set { setApplicationResponder(newValue) }
    }
}

extension View {
    /// The application of the view's window, or nil.
    var windowApplication: Application? {
        windowApplicationResponder.map { unsafeDowncast($0, to: Application.self) }
    }

    /// The application of the view's window logs deliveries (tested without a retain).
    var windowApplicationLogs: Bool {
        windowApplication { unsafeDowncast($0, to: Application.self).recorder.isEnabled }
    }
}

extension GestureRecognizer {
    /// The recognizer's record (the core's `arbiter`, typed); nil until the input layer first
    /// needs one (`trackingRecord`).
    var tracking: GestureTracking? {
        get { arbiter.map { unsafeDowncast($0, to: GestureTracking.self) } }
        set { arbiter = newValue }
    }

    /// The gesture engine of the application that delivered the recognizer's touches.
    var engine: GestureEngine? { tracking?.engine }
}

extension Touch {
    /// The touch's input record (the core's `record`, typed).
    var route: TouchRoute { unsafeDowncast(record, to: TouchRoute.self) }
}

extension Event {
    /// The event's input record (the core's `record`, typed).
    var state: EventState { unsafeDowncast(record, to: EventState.self) }
}

// MARK: - Hot state of the internal classes
//
// Each internal class of the input pipeline inherits its hot mutable fields from a storage
// class here, so that the class's own file carries no escape. The fields are accessed without
// dynamic exclusivity checks (thread confinement, no reentrant access); they are internal to the
// package, never public.

/// `ViewInput`'s recognizers.
class ViewInputStorage {
    /// The recognizers attached to the view, in the order added (`gestureRecognizers`).
    @exclusivity(unchecked) final var recognizers: [GestureRecognizer] = []
}

/// `TouchRoute`'s fields: a touch's phase, time, view, window and screen locations, and what
/// the router decided for it.
class TouchRouteStorage {
    @exclusivity(unchecked) final var phase: Touch.Phase = .began
    @exclusivity(unchecked) final var timestamp: Double = 0
    final var tapCount = 1
    @exclusivity(unchecked) final var view: View?
    @exclusivity(unchecked) final var window: Window?
    /// The location in screen coordinates.
    @exclusivity(unchecked) final var screenLocation = Point(x: 0, y: 0)
    /// The location before the last move, in screen coordinates.
    @exclusivity(unchecked) final var previousScreenLocation = Point(x: 0, y: 0)
    /// False when UIKit's rules or a recognizer keep the touch from its view.
    @exclusivity(unchecked) final var isDelivered = true
    /// Why the touch is not delivered, for the log.
    final var ignoredBecause: String?
    /// The interceptor's record for this touch (its recognizers, fixed at `.began`: SEMANTICS
    /// G2), or nil when nothing watches it. Kept here so that no step needs a lookup.
    @exclusivity(unchecked) final var watchers: AnyObject?
    /// The view has been given `touchesBegan` for this touch.
    @exclusivity(unchecked) final var viewHasBegun = false
    /// The view has been given `touchesEnded` or `touchesCancelled`: nothing more goes there.
    @exclusivity(unchecked) final var viewHasFinished = false
    /// Phases held back from the view (G7, G8, S2), oldest first.
    @exclusivity(unchecked) final var held: [Touch.Phase] = []
    /// Phases released or decided (a cancellation) and not yet delivered: they go out at the
    /// next delivery to the touch's window, or at the next flush.
    @exclusivity(unchecked) final var pending: [Touch.Phase] = []
    /// The touch is in the router's list of touches with pending phases.
    final var isQueued = false
}

/// `EventState`'s fields: an event's time, touches and application.
class EventStateStorage {
    @exclusivity(unchecked) final var timestamp: Double = 0
    /// Every touch on the screen, each once.
    @exclusivity(unchecked) final var touchList: [Touch] = []
    /// `touchList` as a set, made on first use.
    final var touchSet: Set<Touch>?
    /// The application that made the event (strong; nil once the step is over).
    @exclusivity(unchecked) final var application: Application?
}

/// `GestureTracking`'s fields: a recognizer's state, settings and view, and its part in the
/// arbitration.
class GestureTrackingStorage {
    /// The current state (`GestureRecognizer.state`).
    @exclusivity(unchecked) final var state: GestureRecognizer.State = .possible
    @exclusivity(unchecked) final var isEnabled = true
    final var cancelsTouchesInView = true
    @exclusivity(unchecked) final var delaysTouchesBegan = false
    @exclusivity(unchecked) final var delaysTouchesEnded = true
    /// The view the recognizer is attached to, `unowned`: cleared by `removeGestureRecognizer`
    /// and by the view's record when the view dies; `hasView` says whether it is set (a test
    /// without a load).
    @exclusivity(unchecked) final unowned var view: View?
    @exclusivity(unchecked) final var hasView = false
    final weak var delegate: GestureRecognizerDelegate?
    final var name: String?
    final var failureRequirements: [WeakRecognizer] = []
    /// The gesture engine of the application that delivered the recognizer's touches; nil
    /// before the first and once that application is gone. Strong: the engine outlives its
    /// application only as an empty shell (`detach()`).
    @exclusivity(unchecked) final var engine: GestureEngine?
    /// Touches received and not yet ended or cancelled, in the order they began.
    @exclusivity(unchecked) final var activeTouches: [Touch] = []
    /// Every touch received since the last reset (for G6, G9, G10).
    @exclusivity(unchecked) final var sequenceTouches: [Touch] = []
    /// The state requested while waiting for another recognizer's failure (G12).
    @exclusivity(unchecked) final var pendingState: GestureRecognizer.State?
    /// Deadlines scheduled with `schedule(at:_:)` that have not run.
    @exclusivity(unchecked) final var deadlines: [DeadlineToken] = []
    /// In the engine's list of recognizers with something going on.
    @exclusivity(unchecked) final var isActive = false
    /// Scratch for the engine: the step stamp and the touches of this step's phase.
    final var stepMark = 0
    final var stepTouches: [Touch] = []
    /// Where the touches last were (screen), for `location(in:)` after a lift.
    final var lastCentroid = Point(x: 0, y: 0)
}

/// `GestureEngine`'s working lists.
class GestureEngineStorage {
    /// The application; cleared by `Application.deinit` (`detach()`).
    @exclusivity(unchecked) final unowned var application: Application?
    /// `application` is set (a test without a load).
    @exclusivity(unchecked) final var isAttached = false
    /// The application's router (the router holds this engine as its interceptor until the
    /// application goes; `detach()` lets go of it).
    final var router: TouchRouter?
    /// Recognizers with touches, a gesture in progress or a state to reset.
    @exclusivity(unchecked) final var active: [Tracked] = []
    /// Recognizers waiting for another's failure (G12).
    @exclusivity(unchecked) final var waiting: [Tracked] = []
    @exclusivity(unchecked) final var work: [GestureEngineWork] = []
    @exclusivity(unchecked) final var draining = false
    final var stamp = 0
    /// The set a one-touch step's recognizers get, reused (see `ReusableTouchSet`).
    @exclusivity(unchecked) final var oneTouch = ReusableTouchSet()
}

/// `TouchRouter`'s links and queue.
class TouchRouterStorage {
    /// Set by the application's `init`, cleared by its `deinit` (see `Application.router`).
    @exclusivity(unchecked) final unowned var application: Application?
    /// The interceptor when it is the application's gesture engine (called directly then).
    @exclusivity(unchecked) final var engine: GestureEngine?
    /// Touches with `route.pending` phases, in the order they got them.
    @exclusivity(unchecked) final var queued: [Touch] = []
    /// A one-element set reused from call to call (see `ReusableTouchSet`).
    @exclusivity(unchecked) final var oneTouch = ReusableTouchSet()
}

/// `TouchTracker`'s touches.
class TouchTrackerStorage {
    /// Set by the application's `init`, cleared by its `deinit` (see `Application.tracker`).
    @exclusivity(unchecked) final unowned var application: Application?
    /// The touches down, in the order they began.
    @exclusivity(unchecked) final var active: [Touch] = []
    @exclusivity(unchecked) final var byIdentifier: [Int: Touch] = [:]
    final var lastTap: (location: Point, time: Double, count: Int)?
    /// The previous step's `changed` list, emptied, for the next step to fill.
    @exclusivity(unchecked) final var spareChanged: [Touch] = []
}

/// `DeliveryRecorder`'s log.
package class DeliveryRecorderStorage {
    @exclusivity(unchecked) final var isEnabled = true
    @exclusivity(unchecked) final var entries: [TouchDelivery] = []
    /// The application's `currentTime`, kept here by the application: every entry's time.
    @exclusivity(unchecked) final var now: Double = 0
}

/// `ChainForwarder`'s depth counter.
class ChainForwarderStorage {
    @exclusivity(unchecked) final var depth = 0
}

/// `Application`'s fields: its windows, input queue, deadlines and clock. A public class cannot
/// inherit them from a storage class here, so it holds one (a constant: reading it needs no
/// check), made once per application.
final class ApplicationStorage {
    @exclusivity(unchecked) final var windows: [Window] = []
    @exclusivity(unchecked) final var queue: [Application.Input] = []
    @exclusivity(unchecked) final var queueHead = 0
    @exclusivity(unchecked) final var processing = false
    @exclusivity(unchecked) final var deadlines = DeadlineQueue()
    /// False until the first input step or time advance: the first may be at any time.
    @exclusivity(unchecked) final var clockStarted = false
    @exclusivity(unchecked) final var currentTime: Double = 0
    /// The event of the last input step, kept to be reused by the next one (an allocation per
    /// step saved) unless something else still holds it: a handler that kept its event keeps
    /// it unchanged, and the next step gets a new one.
    @exclusivity(unchecked) final var spareEvent: Event?
}
