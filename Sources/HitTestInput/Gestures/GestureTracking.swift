import HitTestCore

/// HitTestInput's record of one recognizer (the core's `GestureRecognizer.arbiter`): what the
/// arbitration keeps about it — its touches, the state it waits to take, its deadlines, where
/// its touches last were, its place in the engine's lists. Made when the recognizer first
/// receives a touch from an application and kept for the recognizer's life. Its fields are in
/// `GestureTrackingStorage` (Storage.swift).
///
/// The engine's lists hold a recognizer with its record (`Tracked`), so a step reads the record
/// without asking the recognizer for it.
final class GestureTracking: GestureTrackingStorage, GestureArbiter {
    override init() {}

    /// Received a touch since the last reset: "tracking" in G12's sense.
    var isInSequence: Bool { !sequenceTouches.isEmpty }

    /// `recognizer.state = state`: through the engine while it has one, else by hand.
    func request(_ recognizer: GestureRecognizer, _ state: GestureRecognizer.State) {
        if let engine {
            engine.request(Tracked(recognizer, self), state)
        } else {
            recognizer.setStandalone(state)
        }
    }

    /// Disabled or removed: cancel a gesture that began, fail one in progress (G11).
    func abandon(_ recognizer: GestureRecognizer) {
        switch recognizer.state {
        case .began, .changed: recognizer.state = .cancelled
        case .possible where isInSequence || pendingState != nil: recognizer.state = .failed
        default: break
        }
    }

    /// The centroid of the touches down, in screen coordinates; where they last were when none is.
    func centroidOnScreen() -> Point {
        GestureRecognizer.centroid(activeTouches[...]) ?? lastCentroid
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

extension GestureRecognizer {
    /// The recognizer's record, made on first use (the engine makes it at the first touch).
    var trackingRecord: GestureTracking {
        if let record = tracking { return record }
        let record = GestureTracking()
        tracking = record
        return record
    }

    /// Touches received and not yet ended or cancelled, in the order they began.
    var activeTouches: [Touch] { tracking?.activeTouches ?? [] }
    /// Every touch received since the last reset.
    var sequenceTouches: [Touch] { tracking?.sequenceTouches ?? [] }
    /// The identifier of the gesture's latest touch, for the log.
    var lastTouchIdentifier: Int? { tracking?.sequenceTouches.last?.identifier }

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
        guard let record = tracking, !record.deadlines.isEmpty else { return }  // the common case
        if let application = record.engine?.application {
            for token in record.deadlines { application.cancel(token) }
        }
        record.deadlines.removeAll()
    }
}
