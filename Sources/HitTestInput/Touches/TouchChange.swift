import HitTestCore

/// One touch's change in one input step, in screen coordinates.
public struct TouchChange: Sendable, Hashable {
    /// The finger.
    public var id: Int
    /// What happened to it.
    public var phase: Touch.Phase
    /// Where it is, in screen coordinates.
    public var location: Point
    /// When, in seconds of simulated time (finite; see `Application.currentTime`).
    public var timestamp: Double
    /// For a touch that begins: the index in `Application.windows` of the only window to
    /// hit-test (nil: every window, front to back).
    public var windowIndex: Int?

    /// Creates a change.
    public init(id: Int, phase: Touch.Phase, location: Point, timestamp: Double) {
        self.id = id
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
    }

    /// Creates a change that begins in a given window.
    public init(id: Int, phase: Touch.Phase, location: Point, timestamp: Double, windowIndex: Int?) {
        self.init(id: id, phase: phase, location: location, timestamp: timestamp)
        self.windowIndex = windowIndex
    }
}
