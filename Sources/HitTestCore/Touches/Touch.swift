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
        get { storedPhase }
        set { storedPhase = newValue }
    }
    @exclusivity(unchecked) package final var storedPhase: Phase
    /// When the touch last changed, in seconds.
    public package(set) var timestamp: Double {
        get { storedTimestamp }
        set { storedTimestamp = newValue }
    }
    @exclusivity(unchecked) package final var storedTimestamp: Double
    /// The number of taps in a row at about this spot (1 for a single tap).
    public package(set) var tapCount: Int
    /// The view the touch was delivered to, fixed when it began (nil when it hit nothing).
    public package(set) var view: View? {
        get { storedView }
        set { storedView = newValue }
    }
    @exclusivity(unchecked) package final var storedView: View?
    /// The window the touch began in (held strongly, as `UITouch` holds it).
    public package(set) var window: Window? {
        get { storedWindow }
        set { storedWindow = newValue }
    }
    @exclusivity(unchecked) package final var storedWindow: Window?
    /// The location in screen coordinates.
    @exclusivity(unchecked) package final var screenLocation: Point
    @exclusivity(unchecked) package final var previousScreenLocation: Point
    /// False when UIKit's rules keep the touch from its view (multiple-touch or exclusive-touch
    /// rules, or the view left the window); such a touch is logged, never delivered.
    @exclusivity(unchecked) package final var isDelivered = true
    /// Why the touch is not delivered, for the log.
    @exclusivity(unchecked) package final var ignoredBecause: String?
    /// What the input pipeline has decided and holds for this touch's view (HitTestInput's
    /// router reads and writes it; the core never does).
    @exclusivity(unchecked) package final var route = TouchRoute()

    /// A touch (the input pipeline makes them).
    package init(identifier: Int, phase: Phase, location: Point, timestamp: Double, tapCount: Int) {
        self.identifier = identifier
        storedPhase = phase
        storedTimestamp = timestamp
        self.tapCount = tapCount
        screenLocation = location
        previousScreenLocation = location
    }

    /// The location in `view`'s bounds space (`locationInView:`); nil means the touch's window.
    /// Converted at each call, so it follows the view if it moves.
    public func location(in view: View?) -> Point {
        Touch.convert(screenLocation, window: window, to: view)
    }

    /// The previous location in `view`'s bounds space (`previousLocationInView:`).
    public func previousLocation(in view: View?) -> Point {
        Touch.convert(previousScreenLocation, window: window, to: view)
    }

    package static func convert(_ screen: Point, window: Window?, to view: View?) -> Point {
        guard let window else { return screen }
        let inWindow = window.fromSuperview(screen)
        guard let view else { return inWindow }
        // A subview of the window (a scroll view at the top, often): the one step that
        // `View.convert` would take, without its walks.
        if view.storedSuperview === window { return view.fromSuperview(inWindow) }
        return view.convert(inWindow, from: window)
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
        get { storedTimestamp }
        set { storedTimestamp = newValue }
    }
    @exclusivity(unchecked) final var storedTimestamp: Double
    /// Every touch on the screen: the ones that changed and the stationary ones, each once.
    @exclusivity(unchecked) package private(set) var touchList: [Touch]
    /// `touchList` as a set, made on first use (most events are never asked for one).
    @exclusivity(unchecked) private var touchSet: Set<Touch>?
    /// Every touch on the screen, as a set.
    package var touches: Set<Touch> {
        if let touchSet { return touchSet }
        let set = Set(touchList)
        touchSet = set
        return set
    }
    /// The input pipeline (the application) that made the event: `Window.sendEvent(_:)` hands
    /// the event back to it, and the responder chain logs to its delivery log.
    /// Held strongly: an event a handler keeps keeps its application (a weak reference here
    /// would put every application retain on the runtime's slow path).
    @exclusivity(unchecked) package private(set) var pipeline: (any TouchPipeline)?

    /// An event of `touches`.
    package init(timestamp: Double, touches: Set<Touch>, pipeline: (any TouchPipeline)?) {
        storedTimestamp = timestamp
        touchList = Array(touches)
        touchSet = touches
        self.pipeline = pipeline
    }

    /// An event of `list` (no touch twice).
    package init(timestamp: Double, list: [Touch], pipeline: (any TouchPipeline)?) {
        storedTimestamp = timestamp
        touchList = list
        self.pipeline = pipeline
    }

    /// Makes this event (which nothing else holds) the event of another step.
    package func reuse(timestamp: Double, list: [Touch], pipeline: any TouchPipeline) {
        storedTimestamp = timestamp
        touchList = list
        touchSet = nil
        self.pipeline = pipeline
    }

    /// Lets go of the touches and the pipeline once the step is over (the event, which
    /// nothing else holds, is kept for reuse by the application: holding it back would be a
    /// cycle).
    package func forgetTouches() {
        touchList = []
        touchSet = nil
        pipeline = nil
    }

    /// All touches of the event (`allTouches`).
    public var allTouches: Set<Touch>? { touches }

    /// The touches of the event whose view is `view` (`touchesForView:`), or nil when none.
    public func touches(for view: View) -> Set<Touch>? {
        var mine = Set<Touch>()
        for touch in touchList where touch.view === view { mine.insert(touch) }
        return mine.isEmpty ? nil : mine
    }

    /// The touches of the event in `window` (`touchesForWindow:`), or nil when none.
    public func touches(for window: Window) -> Set<Touch>? {
        var mine = Set<Touch>()
        for touch in touchList where touch.window === window { mine.insert(touch) }
        return mine.isEmpty ? nil : mine
    }
}

/// What the input pipeline's router has decided for one touch's view, and what it holds back
/// from it: HitTestInput's per-touch record, stored inline in the touch (`Touch.route`; a public
/// final class gets no stored field from another module, and a record of its own would cost an
/// allocation per touch). Plain values: the core neither reads nor writes them.
package struct TouchRoute {
    /// The interceptor's record for this touch (its recognizers, fixed at `.began`: SEMANTICS
    /// G2), or nil when nothing watches it. Kept here so that no step needs a lookup.
    package var watchers: AnyObject?
    /// An interceptor watches the touch.
    package var isWatched: Bool { watchers != nil }
    /// The view has been given `touchesBegan` for this touch.
    package var viewHasBegun = false
    /// The view has been given `touchesEnded` or `touchesCancelled`: nothing more goes there.
    package var viewHasFinished = false
    /// Phases held back from the view (G7, G8, S2), oldest first.
    package var held: [Touch.Phase] = []
    /// Phases released or decided (a cancellation) and not yet delivered: they go out at the
    /// next delivery to the touch's window, or at the next flush.
    package var pending: [Touch.Phase] = []
    /// The touch is in the router's list of touches with pending phases.
    package var isQueued = false

    /// Nothing decided, nothing held.
    package init() {}
}
