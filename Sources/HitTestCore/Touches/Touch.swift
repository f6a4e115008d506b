/// One finger on the screen over its life (`UITouch`).
///
/// The core declares the type (the responder chain's and the recognizers' open methods name
/// it) and its identity; what a touch is beyond that (its phase, time, view, window and place
/// on the screen, and what the input pipeline decided for it) is HitTestInput's record of the
/// touch, and the properties reading it are declared there.
public final class Touch: Hashable {
    /// The phase of a touch (`UITouch.Phase`).
    public enum Phase: String, Sendable, Codable {
        /// The finger went down.
        case began
        /// The finger moved.
        case moved
        /// The finger is down and did not move.
        case stationary
        /// The finger went up.
        case ended
        /// The system cancelled the touch.
        case cancelled
    }

    /// The identifier the input gave this touch (the finger).
    public let identifier: Int

    /// HitTestInput's record of the touch, made with it and never replaced: a constant, so the
    /// input layer reaches it without an access check (its fields are the input layer's own).
    package let record: any TouchRecord

    /// A touch (the input pipeline makes them, each with its record).
    package init(identifier: Int, record: any TouchRecord) {
        self.identifier = identifier
        self.record = record
    }

    /// Identity: a touch is equal only to itself.
    public static func == (lhs: Touch, rhs: Touch) -> Bool { lhs === rhs }

    /// Hashes the identity of the object.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A set of touches delivered together (`UIEvent`).
///
/// As for `Touch`, the core declares the type; its touches, time and the application that made
/// it are HitTestInput's record of the event.
public final class Event {
    /// HitTestInput's record of the event, made with it and never replaced.
    package let record: any EventRecord

    /// An event (the input pipeline makes them, each with its record).
    package init(record: any EventRecord) {
        self.record = record
    }
}
