// The seams the higher layers plug into. The core never imports them: HitTestInput,
// HitTestLayout and HitTestAnimation register what they keep per view (an attachment in the
// view), per window (its application), per touch, event or recognizer (a reference the input
// layer sets) or per thread (the change recorder), and the core calls them at the points below.
// Each seam is `package`: visible to the package's targets, not to users.

/// Auto Layout's per-view record, seen from the core. HitTestLayout sets
/// `View.layoutState.autoLayout` the first time a view takes part in Auto Layout; the core
/// calls these at the moments UIKit's engine hears of (frame changes, the layout cycle,
/// hierarchy changes, margins, the safe area, the intrinsic size).
package protocol AutoLayoutAttachment: AnyObject {
    /// The view's frame moved outside the engine (center, anchor point or bounds size).
    func frameDidChange(of view: View)
    /// The default `layoutSubviews()` of `view`: the solved frames of its subviews.
    func applySolvedFrames(in view: View)
    /// On a tree's root: solves the tree's engine if its constraints changed.
    func solveIfNeeded()
    /// On a tree's root: the engine's constraints changed since the last solve.
    var needsSolve: Bool { get }
    /// `layoutMargins` changed.
    func layoutMarginsDidChange(of view: View)
    /// `invalidateIntrinsicContentSize()` was called.
    func intrinsicContentSizeDidChange(of view: View)
    /// The window's safe-area insets changed (on the window's record).
    func safeAreaDidChange(of window: Window)
    /// `view` was inserted into `parent` (from `oldSuperview`); called on the record of the
    /// view, else on the record of the old tree's root.
    func viewDidMove(_ view: View, into parent: View, from oldSuperview: View?)
    /// `view` was removed from `oldSuperview`; called on the record of the view, else on the
    /// record of the old tree's root.
    func viewDidLeave(_ view: View, from oldSuperview: View)
    /// The view of this record is being deinitialized: every reference Auto Layout holds to it
    /// without retaining it must be cleared now (the record itself may live on, held by
    /// constraints that name the view).
    func viewWillDeinit()
}

/// The four animatable attributes the core's setters report (SEMANTICS A1).
package enum AnimatableAttribute: Int, Sendable, CaseIterable {
    case center, bounds, transform, alpha
}

/// A value an animatable attribute had before a change.
package enum AnimatableValue: Sendable {
    case point(Point)
    case rect(Rect)
    case transform(AffineTransform)
    case scalar(Double)
}

/// What HitTestAnimation installs on a thread while an animation block is open there: every
/// change of an animatable attribute made on that thread is reported to it.
package protocol ViewChangeRecorder: AnyObject {
    /// `attribute` of `view` changed from `old` (the new value is in the view).
    func record(_ view: View, _ attribute: AnimatableAttribute, old: AnimatableValue)
}

/// The thread's change recorder: one thread-local slot, read by every animatable setter (one
/// `pthread_getspecific` when no block is open).
package enum ChangeRecording {
    /// The recorder of the calling thread, or nil.
    @inline(__always) package static var current: (any ViewChangeRecorder)? { ThreadSlot.recorder }

    /// Installs (or, with nil, removes) the calling thread's recorder.
    package static func install(_ recorder: (any ViewChangeRecorder)?) {
        ThreadSlot.set(recorder)
    }
}

// MARK: - Input (HitTestInput)

/// A deadline on an application's simulated clock (`SimulatedClock.scheduleDeadline(at:_:)`),
/// for `SimulatedClock.cancelDeadline(_:)`: the clock's own token, carried as it is.
package struct ClockDeadline: Hashable, Sendable {
    /// The clock's insertion sequence number: unique per clock, never reused.
    package let sequence: UInt64
    /// Where the clock keeps the action.
    package let slot: Int32

    /// A deadline (made by the clock that keeps it).
    package init(sequence: UInt64, slot: Int32) {
        self.sequence = sequence
        self.slot = slot
    }
}

/// The simulated clock of an application, seen from the core and the layers beside input:
/// HitTestInput's application keeps it; HitTestAnimation's animations run on it.
package protocol SimulatedClock: AnyObject {
    /// The simulated time now, in seconds.
    var currentTime: Double { get }
    /// Runs `action` when the clock reaches `time` (finite); a time before `currentTime`
    /// means now.
    @discardableResult func scheduleDeadline(at time: Double, _ action: @escaping () -> Void) -> ClockDeadline
    /// Forgets a pending deadline; false when it already ran or was cancelled.
    @discardableResult func cancelDeadline(_ deadline: ClockDeadline) -> Bool
    /// Logs an animation entry about `view` in the delivery log (the detail is built only
    /// when the log is on).
    func noteAnimation(about view: View, _ detail: @autoclosure () -> String)
}

/// The application that delivers an event, or that a window is shown in, seen from the core:
/// where the default touch methods hand touches back to the input pipeline. HitTestInput's
/// application conforms.
package protocol TouchPipeline: SimulatedClock {
    /// `Responder`'s default touch methods: passes `touches` from `responder` to its `next`
    /// (logged), or logs them as dropped at the end of the chain.
    func forward(_ phase: Touch.Phase, _ touches: Set<Touch>, with event: Event?, from responder: Responder)
    /// `window.windowLevel` changed: the application puts its windows back in order.
    func windowLevelDidChange(_ window: Window)
}

/// HitTestInput's record of a touch (`Touch.record`), seen from the core.
package protocol TouchRecord: AnyObject {
    /// The window the touch began in (the responder chain's default forwarding finds the
    /// application through it when no event is given).
    var window: Window? { get }
}

/// HitTestInput's record of an event (`Event.record`), seen from the core: it knows the
/// application that made the event while the event is being delivered.
package protocol EventRecord: AnyObject {
    /// `Window.sendEvent(_:)`'s default: the application that made the event delivers what
    /// `window` gets of it (nothing once the step is over).
    func deliver(_ event: Event, in window: Window)
    /// The application that made the event, while the event is being delivered: the
    /// responder chain's default forwarding goes through it.
    var pipeline: (any TouchPipeline)? { get }
}

/// HitTestInput's record of a recognizer (`GestureRecognizer.arbiter`): its state, settings,
/// view and touches, and its place in the arbitration between recognizers. The core's override
/// points reach the recognizer's state and name through it.
package protocol GestureArbiter: AnyObject {
    /// The recognizer's state.
    var state: GestureRecognizer.State { get }
    /// `recognizer.state = state`, through the arbitration (SEMANTICS G9, G10, G12).
    func request(_ recognizer: GestureRecognizer, _ state: GestureRecognizer.State)
    /// The recognizer's `name`, if one was given.
    var name: String? { get }
    /// The index of `recognizer` among its view's recognizers; nil when it is in no view.
    func indexInView(of recognizer: GestureRecognizer) -> Int?
}

/// HitTestInput's per-view record (the view's recognizers and touch rules), seen from the
/// core: HitTestInput sets `View.inputAttachment` the first time a view needs one; the core
/// calls this.
package protocol ViewInputAttachment: AnyObject {
    /// The view's bounds origin changed (a scroll view scrolled).
    func boundsOriginDidChange(of view: View)
}
