import HitTestCore

/// HitTestInput's record of one recognizer (the core's `GestureRecognizer.arbiter`): its state,
/// settings and view, its touches, deadlines and place in the engine's lists. Made the first
/// time the input layer needs it (the recognizer is attached, a property is set, or a touch
/// arrives) and kept for the recognizer's life. Its fields are in `GestureTrackingStorage`
/// (Storage.swift).
///
/// The engine's lists hold a recognizer with its record (`Tracked`), so a step reads the record
/// without asking the recognizer for it; the library's recognizers keep theirs at hand too.
final class GestureTracking: GestureTrackingStorage, GestureArbiter {
    override init() {}

    /// Received a touch since the last reset: "tracking" in G12's sense.
    var isInSequence: Bool { !sequenceTouches.isEmpty }

    /// Attached to a view and enabled.
    var isLive: Bool { isEnabled && hasView }

    /// `recognizer.state = state`: through the engine while it has one, else by hand (legal
    /// transitions only; actions run).
    func request(_ recognizer: GestureRecognizer, _ state: GestureRecognizer.State) {
        if let engine {
            engine.request(Tracked(recognizer, self), state)
        } else {
            guard self.state.canTransition(to: state) else { return }
            self.state = state
            if state != .failed, state != .possible { recognizer.runActions() }
        }
    }

    /// The index of `recognizer` among its view's recognizers.
    func indexInView(of recognizer: GestureRecognizer) -> Int? {
        guard hasView else { return nil }
        return view?.input?.recognizers.firstIndex { $0 === recognizer }
    }

    /// Disabled or removed: cancel a gesture that began, fail one in progress (G11).
    func abandon(_ recognizer: GestureRecognizer) {
        switch state {
        case .began, .changed: request(recognizer, .cancelled)
        case .possible where isInSequence || pendingState != nil: request(recognizer, .failed)
        default: break
        }
    }

    /// The centroid of the touches down, in screen coordinates; where they last were when none is.
    func centroidOnScreen() -> Point {
        GestureRecognizer.centroid(activeTouches[...]) ?? lastCentroid
    }

    /// The recognizer's touches that are still down (not ending in this step).
    var touchesDown: [Touch] {
        activeTouches.filter { $0.phase != .ended && $0.phase != .cancelled }
    }

    /// The window of the touches: the first touch's, else the view's.
    var touchWindow: Window? {
        activeTouches.first?.window ?? view?.window
    }

    /// Forgets every deadline the recognizer scheduled that has not run.
    func cancelDeadlines() {
        guard !deadlines.isEmpty else { return }  // the common case: nothing to look up
        if let application = engine?.application {
            for token in deadlines { application.cancel(token) }
        }
        deadlines.removeAll()
    }

    /// Remembers where the touches are, for `location(in:)` once they have lifted.
    func noteLocation() {
        guard !activeTouches.isEmpty else { return }
        lastCentroid = centroidOnScreen()
    }
}

/// A recognizer with its record, as the engine's lists hold them (both strongly: a recognizer
/// in a list stays alive until it leaves it, as its record does).
struct Tracked {
    let recognizer: GestureRecognizer
    let record: GestureTracking

    init(_ recognizer: GestureRecognizer, _ record: GestureTracking) {
        self.recognizer = recognizer
        self.record = record
    }

    /// The same recognizer.
    static func === (a: Tracked, b: Tracked) -> Bool { a.record === b.record }
    /// Another recognizer.
    static func !== (a: Tracked, b: Tracked) -> Bool { a.record !== b.record }
}

/// A weak reference to a recognizer (`require(toFail:)` does not keep the other alive).
struct WeakRecognizer {
    weak var recognizer: GestureRecognizer?
    init(_ recognizer: GestureRecognizer) { self.recognizer = recognizer }
}

extension GestureRecognizer.State {
    /// 0 ..< 6, in declaration order.
    var ordinal: Int {
        switch self {
        case .possible: 0
        case .began: 1
        case .changed: 2
        case .ended: 3
        case .cancelled: 4
        case .failed: 5
        }
    }

    /// Ended, cancelled or failed: the recognizer waits for its touches to end, then resets.
    var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }
}

// MARK: - The library recognizers' record at hand

/// A library recognizer, which reads its record at every step, keeps it at hand: a field of
/// its own class is a load, where the core's slot (`arbiter`) read from this module is a call
/// (or, were it final, a load behind a dynamic exclusivity check: a stored property of another
/// module is always checked). The record never changes once made (nothing replaces the slot's
/// record), so the cache cannot go stale. The one accessor over that field is `record`; each
/// conforming class declares only the field.
protocol RecordKeeping: GestureRecognizer {
    /// `record`'s cache: nil until the first read; written by `record` only.
    var knownRecord: GestureTracking? { get set }
}

extension RecordKeeping {
    /// The recognizer's record (made on first use, as the engine would make it), kept in
    /// `knownRecord` from then on.
    @inline(__always) var record: GestureTracking {
        if let knownRecord { return knownRecord }
        let record = trackingRecord
        knownRecord = record
        return record
    }
}

// MARK: - The recognizer's public state (kept in its record)

extension GestureRecognizer {
    /// The recognizer's record, made on first use (the core's slot, read through a call: the
    /// library's recognizers read theirs through `RecordKeeping.record`).
    var trackingRecord: GestureTracking {
        if let record = tracking { return record }
        let record = GestureTracking()
        tracking = record
        return record
    }

    /// The current state. Subclasses (custom recognizers) set it from their touch methods or
    /// deadlines to drive the state machine; an illegal transition is ignored and logged, and
    /// leaving `.possible` goes through the arbitration (G9, G10, G12): the state read back may
    /// be `.possible` (waiting for another recognizer to fail) or `.failed` (prevented, or a
    /// `gestureRecognizerShouldBegin` said no).
    public var state: State {
        get { tracking?.state ?? .possible }
        set { trackingRecord.request(self, newValue) }
    }

    /// The view the recognizer is attached to (`addGestureRecognizer(_:)`), or nil.
    /// (`unowned`, not `weak`, for speed: cleared when it is removed and when the view dies.)
    public internal(set) var view: View? {
        get {
            guard let record = tracking, record.hasView else { return nil }
            return record.view
        }
        set {
            let record = trackingRecord
            record.view = newValue
            record.hasView = newValue != nil
            cachedDebugName = nil
        }
    }

    /// A disabled recognizer receives no touches; disabling one that has begun cancels it
    /// (and one that is possible in the middle of a gesture fails it) (G11). Default true.
    public var isEnabled: Bool {
        get { tracking?.isEnabled ?? true }
        set {
            let record = trackingRecord
            let oldValue = record.isEnabled
            record.isEnabled = newValue
            guard oldValue, !newValue else { return }
            record.abandon(self)
        }
    }

    /// When the recognizer recognizes, its touches are cancelled in their views (G6). Default true.
    public var cancelsTouchesInView: Bool {
        get { tracking?.cancelsTouchesInView ?? true }
        set { trackingRecord.cancelsTouchesInView = newValue }
    }

    /// While the recognizer may still recognize, its touches' phases are held from their views
    /// (G7). Default false.
    public var delaysTouchesBegan: Bool {
        get { tracking?.delaysTouchesBegan ?? false }
        set { trackingRecord.delaysTouchesBegan = newValue }
    }

    /// While the recognizer may still recognize, a touch's `ended` is held from its view (G8).
    /// Default true.
    public var delaysTouchesEnded: Bool {
        get { tracking?.delaysTouchesEnded ?? true }
        set { trackingRecord.delaysTouchesEnded = newValue }
    }

    /// The delegate (every method optional).
    public var delegate: GestureRecognizerDelegate? {
        get { tracking?.delegate }
        set { trackingRecord.delegate = newValue }
    }

    /// A name for the delivery log; nil: the type's short name and the index in its view's
    /// recognizers (`Tap#0`).
    public var name: String? {
        get { tracking?.name }
        set {
            trackingRecord.name = newValue
            cachedDebugName = nil
        }
    }

    /// Makes this recognizer wait for `other` to fail before it recognizes (G12): while `other`
    /// is possible and tracking touches, recognizing leaves this one `.possible`; it recognizes
    /// when `other` fails and fails when `other` recognizes. Held weakly.
    public func require(toFail other: GestureRecognizer) {
        let record = trackingRecord
        guard other !== self, !record.failureRequirements.contains(where: { $0.recognizer === other }) else { return }
        record.failureRequirements.append(WeakRecognizer(other))
    }

    /// Disabled or removed: cancel a gesture that began, fail one in progress (G11).
    func abandon() {
        tracking?.abandon(self)
    }

    /// Touches received and not yet ended or cancelled, in the order they began.
    var activeTouches: [Touch] { tracking?.activeTouches ?? [] }
    /// Every touch received since the last reset.
    var sequenceTouches: [Touch] { tracking?.sequenceTouches ?? [] }

    /// The number of touches the recognizer is tracking (down, or ending in this step).
    public var numberOfTouches: Int { tracking?.activeTouches.count ?? 0 }

    // MARK: - Helpers for subclasses

    /// The simulated time now (`Application.currentTime`), or nil for a recognizer that never
    /// received a touch from an application.
    public var currentTime: Double? { tracking?.engine?.application?.currentTime }

    /// Runs `body` when the simulated clock reaches `time` (a deadline of the application that
    /// delivered the recognizer's touches), unless the recognizer is reset first. Custom
    /// recognizers use it for timeouts. Does nothing for a recognizer without an application.
    public func schedule(at time: Double, _ body: @escaping (GestureRecognizer) -> Void) {
        guard let record = tracking, let application = record.engine?.application else { return }
        // The recognizer is kept until the deadline runs or is cancelled (at the latest by
        // its reset, or when the application goes).
        let token = application.schedule(at: time) { body(self) }
        record.deadlines.append(token)
    }

    /// Forgets every deadline scheduled with `schedule(at:_:)` that has not run.
    public func cancelScheduledDeadlines() {
        tracking?.cancelDeadlines()
    }
}
