import HitTestCore

/// HitTestInput's record of one touch (the core's `Touch.input`): where the finger is on the
/// screen, and what the router has decided for the touch's view and holds back from it. Made
/// with the touch (`Touch(input:)`), never replaced. Its fields are in `TouchRouteStorage`
/// (Storage.swift).
final class TouchRoute: TouchRouteStorage {
    /// A record for a touch that begins at `location` (screen coordinates).
    init(location: Point) {
        super.init()
        screenLocation = location
        previousScreenLocation = location
    }

    /// An interceptor watches the touch.
    var isWatched: Bool { watchers != nil }
}

extension Touch {
    /// A touch that begins now, with its input record.
    convenience init(identifier: Int, phase: Phase, location: Point, timestamp: Double, tapCount: Int) {
        self.init(
            identifier: identifier, phase: phase, timestamp: timestamp, tapCount: tapCount,
            input: TouchRoute(location: location))
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
