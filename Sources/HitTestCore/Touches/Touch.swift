/// One finger on the screen over its life (`UITouch`).
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
    /// The current phase.
    public package(set) var phase: Phase {
        @inlinable get { storedPhase }
        set { storedPhase = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedPhase: Phase
    /// When the touch last changed, in seconds.
    public package(set) var timestamp: Double {
        @inlinable get { storedTimestamp }
        set { storedTimestamp = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedTimestamp: Double
    /// The number of taps in a row at about this spot (1 for a single tap).
    public package(set) var tapCount: Int
    /// The view the touch was delivered to, fixed when it began (nil when it hit nothing).
    public package(set) var view: View? {
        @inlinable get { storedView }
        set { storedView = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedView: View?
    /// The window the touch began in (held strongly, as `UITouch` holds it).
    public package(set) var window: Window? {
        @inlinable get { storedWindow }
        set { storedWindow = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedWindow: Window?
    /// HitTestInput's record of the touch (where it is on the screen, what the pipeline decided
    /// and holds for its view), made with the touch and never replaced. The core never reads
    /// it: a constant, so the input layer reaches it without an access check (its fields are
    /// the input layer's own).
    package let input: AnyObject

    /// A touch (the input pipeline makes them, each with its record).
    package init(identifier: Int, phase: Phase, timestamp: Double, tapCount: Int, input: AnyObject) {
        self.identifier = identifier
        storedPhase = phase
        storedTimestamp = timestamp
        self.tapCount = tapCount
        self.input = input
    }

    /// Identity: a touch is equal only to itself.
    public static func == (lhs: Touch, rhs: Touch) -> Bool { lhs === rhs }

    /// Hashes the identity of the object.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// A set of touches delivered together (`UIEvent`).
public final class Event {
    /// When the event happened, in seconds.
    public private(set) var timestamp: Double {
        @inlinable get { storedTimestamp }
        set { storedTimestamp = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedTimestamp: Double
    /// Every touch on the screen: the ones that changed and the stationary ones, each once.
    @exclusivity(unchecked) private var storedTouchList: [Touch]
    /// Every touch on the screen, each once (the input pipeline reads it).
    package var touchList: [Touch] { storedTouchList }
    /// `touchList` as a set, made on first use (most events are never asked for one).
    @exclusivity(unchecked) private var touchSet: Set<Touch>?
    /// Every touch on the screen, as a set.
    package var touches: Set<Touch> {
        if let touchSet { return touchSet }
        let set = Set(storedTouchList)
        touchSet = set
        return set
    }
    /// The input pipeline (the application) that made the event: `Window.sendEvent(_:)` hands
    /// the event back to it, and the responder chain logs to its delivery log.
    /// Held strongly: an event a handler keeps keeps its application (a weak reference here
    /// would put every application retain on the runtime's slow path).
    @exclusivity(unchecked) private var storedPipeline: (any TouchPipeline)?
    /// `storedPipeline`, for the input layer.
    package var pipeline: (any TouchPipeline)? { storedPipeline }

    /// An event of `touches`.
    package init(timestamp: Double, touches: Set<Touch>, pipeline: (any TouchPipeline)?) {
        storedTimestamp = timestamp
        storedTouchList = Array(touches)
        touchSet = touches
        storedPipeline = pipeline
    }

    /// An event of `list` (no touch twice).
    package init(timestamp: Double, list: [Touch], pipeline: (any TouchPipeline)?) {
        storedTimestamp = timestamp
        storedTouchList = list
        storedPipeline = pipeline
    }

    /// Makes this event (which nothing else holds) the event of another step.
    package func reuse(timestamp: Double, list: [Touch], pipeline: any TouchPipeline) {
        storedTimestamp = timestamp
        storedTouchList = list
        touchSet = nil
        storedPipeline = pipeline
    }

    /// Lets go of the touches and the pipeline once the step is over (the event, which
    /// nothing else holds, is kept for reuse by the application: holding it back would be a
    /// cycle).
    package func forgetTouches() {
        storedTouchList = []
        touchSet = nil
        storedPipeline = nil
    }

    /// All touches of the event (`allTouches`).
    public var allTouches: Set<Touch>? { touches }

    /// The touches of the event whose view is `view` (`touchesForView:`), or nil when none.
    public func touches(for view: View) -> Set<Touch>? {
        var mine = Set<Touch>()
        for touch in storedTouchList where touch.view === view { mine.insert(touch) }
        return mine.isEmpty ? nil : mine
    }

    /// The touches of the event in `window` (`touchesForWindow:`), or nil when none.
    public func touches(for window: Window) -> Set<Touch>? {
        var mine = Set<Touch>()
        for touch in storedTouchList where touch.window === window { mine.insert(touch) }
        return mine.isEmpty ? nil : mine
    }
}
