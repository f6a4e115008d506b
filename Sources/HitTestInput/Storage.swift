import HitTestCore

// The one file of HitTestInput that uses unsafe escapes (`@exclusivity(unchecked)`) or an
// unchecked conversion (`unsafeDowncast`). Every other file reaches them only through the names
// below; `scripts/escapes.sh` fails CI if one appears anywhere else in this module (the public
// classes' hot backing fields excepted, as in the core: see HitTestCore/Core/Storage.swift,
// "Left in class files"). The back references are the core's `Unretained` and the borrowed
// calls its `withBorrowed`, under the core's invariants (thread confinement, no reentrant
// access, borrowed references held by the caller); this module's share of them:
//
// - Back references are cleared before their target dies. The input layer's unretained
//   references, and who clears each:
//   - window → application (`Window.applicationReference`, the core's slot): set by
//     `Application.addWindow(_:)`, cleared by `removeWindow(_:)` and `Application.deinit`;
//   - recognizer → view (`GestureRecognizer.viewReference`): set by `addGestureRecognizer`,
//     cleared by `removeGestureRecognizer` and by the view's input record when the view dies
//     (`View.deinit` drops the record first; `ViewInput.deinit` clears it);
//   - router, tracker and engine → application: set in `Application.init`, cleared in its
//     `deinit` (the engine's by `detach()`);
//   - router → engine: the application holds its engine in a constant for its whole life;
//   - scroll view recognizers and motion ticks → scroll view: cleared by `ScrollView.deinit`.
// - The typed records. The core's slots for input are written by this module only, and only
//   through the typed views below: `View.inputAttachment` through `View.input` (always a
//   `ViewInput`), `Window.applicationReference` through `Window.application` (an
//   `Application`), `GestureRecognizer.arbiter` through `GestureRecognizer.engine` (a
//   `GestureEngine`), and an `Event`'s pipeline is set only by the initializers an
//   `Application` calls (`Event(…, pipeline: application)`, `reuse`): the unchecked downcasts
//   below cannot fail.

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
        get { applicationReference.object.map { unsafeDowncast($0, to: Application.self) } }
        set { applicationReference = Unretained(newValue) }
    }

    /// Runs `body` on the window's application without retaining it; nil without one.
    @inline(__always) func withApplication<R>(_ body: (Application) -> R) -> R? {
        applicationReference.withObject { body(unsafeDowncast($0, to: Application.self)) }
    }
}

extension GestureRecognizer {
    /// The gesture engine the recognizer reports to (the core's `arbiter`, typed).
    var engine: GestureEngine? {
        get { arbiter.map { unsafeDowncast($0, to: GestureEngine.self) } }
        set { arbiter = newValue }
    }
}

extension Event {
    /// The application whose pipeline made the event (the core's `pipeline`, typed).
    var application: Application? { pipeline.map { unsafeDowncast($0, to: Application.self) } }
}

// MARK: - Hot state of the internal classes
//
// Each internal class of the input pipeline inherits its hot mutable fields from a storage
// class here, so that the class's own file carries no escape. The fields are accessed without
// dynamic exclusivity checks (thread confinement, no reentrant access); they are internal to the
// package, never public.

/// `GestureEngine`'s working lists.
class GestureEngineStorage {
    /// The application; cleared by `Application.deinit` (`detach()`).
    @exclusivity(unchecked) final var applicationReference = Unretained<Application>(nil)
    /// Recognizers with touches, a gesture in progress or a state to reset.
    @exclusivity(unchecked) final var active: [GestureRecognizer] = []
    /// Recognizers waiting for another's failure (G12).
    @exclusivity(unchecked) final var waiting: [GestureRecognizer] = []
    @exclusivity(unchecked) final var work: [GestureEngineWork] = []
    @exclusivity(unchecked) final var draining = false
    @exclusivity(unchecked) final var stamp = 0
    /// The set a one-touch step's recognizers get, reused (see `ReusableTouchSet`).
    @exclusivity(unchecked) final var oneTouch = ReusableTouchSet()
}

/// `TouchRouter`'s links and queue.
class TouchRouterStorage {
    /// Set by the application's `init`, cleared by its `deinit` (see `Application.router`);
    /// nil (a trap on use, as a dead `unowned` one) after that.
    @exclusivity(unchecked) final var applicationReference = Unretained<Application>(nil)
    /// The application's gesture engine, unretained: the application holds its engine in a
    /// constant for its whole life, and `interceptor` holds it too while this is set.
    @exclusivity(unchecked) final var engine = Unretained<GestureEngine>(nil)
    /// Touches with `route.pending` phases, in the order they got them.
    @exclusivity(unchecked) final var queued: [Touch] = []
    /// A one-element set reused from call to call (see `ReusableTouchSet`).
    @exclusivity(unchecked) final var oneTouch = ReusableTouchSet()
}

/// `TouchTracker`'s touches.
class TouchTrackerStorage {
    /// Set by the application's `init`, cleared by its `deinit` (see `Application.tracker`).
    @exclusivity(unchecked) final var applicationReference = Unretained<Application>(nil)
    /// The touches down, in the order they began.
    @exclusivity(unchecked) final var active: [Touch] = []
    @exclusivity(unchecked) final var byIdentifier: [Int: Touch] = [:]
    @exclusivity(unchecked) final var lastTap: (location: Point, time: Double, count: Int)?
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
