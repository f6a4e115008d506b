import HitTestCore

/// HitTestInput's record of one touch (the core's `Touch.record`): its phase, time, tap count,
/// view, window and place on the screen, and what the router has decided for the touch's view
/// and holds back from it. Made with the touch, never replaced. Its fields are in
/// `TouchRouteStorage` (Storage.swift).
final class TouchRoute: TouchRouteStorage, TouchRecord {
    /// A record for a touch that begins at `location` (screen coordinates).
    init(phase: Touch.Phase, location: Point, timestamp: Double, tapCount: Int) {
        super.init()
        self.phase = phase
        self.timestamp = timestamp
        self.tapCount = tapCount
        self.screenLocation = location
        self.previousScreenLocation = location
    }

    /// An interceptor watches the touch.
    var isWatched: Bool { watchers != nil }
}

extension Touch {
    /// A touch that begins now, with its input record.
    convenience init(identifier: Int, phase: Phase, location: Point, timestamp: Double, tapCount: Int) {
        self.init(
            identifier: identifier,
            record: TouchRoute(phase: phase, location: location, timestamp: timestamp, tapCount: tapCount))
    }

    /// The current phase.
    public internal(set) var phase: Phase {
        get { route.phase }
        set { route.phase = newValue }
    }

    /// When the touch last changed, in seconds.
    public internal(set) var timestamp: Double {
        get { route.timestamp }
        set { route.timestamp = newValue }
    }

    /// The number of taps in a row at about this spot (1 for a single tap).
    public var tapCount: Int { route.tapCount }

    /// The view the touch was delivered to, fixed when it began (nil when it hit nothing).
    public internal(set) var view: View? {
        get { route.view }
        set { route.view = newValue }
    }

    /// The window the touch began in (held strongly, as `UITouch` holds it).
    public internal(set) var window: Window? {
        get { route.window }
        set { route.window = newValue }
    }

    /// The location in screen coordinates.
    var screenLocation: Point {
        get { route.screenLocation }
        set { route.screenLocation = newValue }
    }

    /// The location before the last move, in screen coordinates.
    var previousScreenLocation: Point {
        get { route.previousScreenLocation }
        set { route.previousScreenLocation = newValue }
    }

    /// False when UIKit's rules keep the touch from its view (multiple-touch or exclusive-touch
    /// rules, or the view left the window); such a touch is logged, never delivered.
    var isDelivered: Bool {
        get { route.isDelivered }
        set { route.isDelivered = newValue }
    }

    /// Why the touch is not delivered, for the log.
    var ignoredBecause: String? {
        get { route.ignoredBecause }
        set { route.ignoredBecause = newValue }
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

    /// A screen point in `view`'s bounds space (nil: the window's).
    static func convert(_ screen: Point, window: Window?, to view: View?) -> Point {
        guard let window else { return screen }
        let inWindow = window.fromSuperview(screen)
        guard let view else { return inWindow }
        // A subview of the window (a scroll view at the top, often): the one step that
        // `View.convert` would take, without its walks.
        if view.storedSuperview === window { return view.fromSuperview(inWindow) }
        return view.convert(inWindow, from: window)
    }
}

/// HitTestInput's record of one event (the core's `Event.record`): its time, its touches and
/// the application that made it. Its fields are in `EventStateStorage` (Storage.swift).
final class EventState: EventStateStorage, EventRecord {
    init(timestamp: Double, list: [Touch], touchSet: Set<Touch>?, application: Application?) {
        super.init()
        self.timestamp = timestamp
        self.touchList = list
        self.touchSet = touchSet
        self.application = application
    }

    /// The application that made the event delivers what `window` gets of it.
    func deliver(_ event: Event, in window: Window) {
        application?.router.deliver(event, in: window)
    }

    /// The application that made the event.
    var pipeline: (any TouchPipeline)? { application }
}

extension Event {
    /// An event of `touches`.
    convenience init(timestamp: Double, touches: Set<Touch>, application: Application?) {
        self.init(
            record: EventState(timestamp: timestamp, list: Array(touches), touchSet: touches, application: application))
    }

    /// An event of `list` (no touch twice).
    convenience init(timestamp: Double, list: [Touch], application: Application?) {
        self.init(record: EventState(timestamp: timestamp, list: list, touchSet: nil, application: application))
    }

    /// When the event happened, in seconds.
    public var timestamp: Double { state.timestamp }

    /// Every touch on the screen: the ones that changed and the stationary ones, each once.
    var touchList: [Touch] { state.touchList }

    /// The application whose pipeline made the event: `Window.sendEvent(_:)` hands the event
    /// back to its router, and the responder chain logs to its delivery log. Held strongly: an
    /// event a handler keeps keeps its application (a weak reference here would put every
    /// application retain on the runtime's slow path).
    var application: Application? { state.application }

    /// Every touch on the screen, as a set (made on first use: most events are never asked).
    var touches: Set<Touch> {
        let state = self.state
        if let set = state.touchSet { return set }
        let set = Set(state.touchList)
        state.touchSet = set
        return set
    }

    /// Makes this event (which nothing else holds) the event of another step.
    func reuse(timestamp: Double, list: [Touch], application: Application) {
        let state = self.state
        state.timestamp = timestamp
        state.touchList = list
        state.touchSet = nil
        state.application = application
    }

    /// Lets go of the touches and the application once the step is over (the event, which
    /// nothing else holds, is kept for reuse by the application: holding it back would be a
    /// cycle).
    func forgetTouches() {
        let state = self.state
        state.touchList = []
        state.touchSet = nil
        state.application = nil
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
