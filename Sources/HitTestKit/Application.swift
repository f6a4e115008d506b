/// The end of the responder chain and the router of input (`UIApplication`), as an ordinary
/// object: several may coexist, each with its own windows.
public final class Application: Responder {
    private var storedWindows: [Window] = []
    private var activeTouches: [Int: Touch] = [:]

    /// Creates an application with no windows.
    public override init() {
        super.init()
    }

    /// The windows, back to front: by `windowLevel`, then in the order they were shown.
    public var windows: [Window] { storedWindows }

    /// Shows `window` in front of the other windows of its level.
    public func addWindow(_ window: Window) {
        removeWindow(window)
        window.application = self
        let index = storedWindows.lastIndex { $0.windowLevel <= window.windowLevel }.map { $0 + 1 } ?? 0
        storedWindows.insert(window, at: index)
    }

    /// Stops showing `window`.
    public func removeWindow(_ window: Window) {
        guard let i = storedWindows.firstIndex(where: { $0 === window }) else { return }
        storedWindows.remove(at: i)
        window.application = nil
    }

    func windowLevelChanged(_ window: Window) {
        addWindow(window)
    }

    /// Routes each touch of `event` to its window (`sendEvent:`).
    public func sendEvent(_ event: Event) {
        var seen: [ObjectIdentifier: Window] = [:]
        for touch in event.touches {
            if let w = touch.window { seen[ObjectIdentifier(w)] = w }
        }
        for window in storedWindows where seen[ObjectIdentifier(window)] != nil {
            window.sendEvent(event)
        }
    }

    /// The window a screen point reaches, front to back, and the view it hits there.
    func hitTest(screen point: Point) -> (Window, View)? {
        for window in storedWindows.reversed() {
            if let view = window.hitTest(window.fromSuperview(point)) { return (window, view) }
        }
        return nil
    }

    /// One input step: the touches that changed, in screen coordinates. A touch that begins is
    /// hit-tested across the windows (front to back); later phases go to the view it began in.
    public func injectTouches(_ changes: [TouchChange]) {
        guard let timestamp = changes.map(\.timestamp).max() else { return }
        var changed = Set<Touch>()
        for change in changes {
            let touch: Touch
            if change.phase == .began {
                touch = Touch(
                    identifier: change.id, phase: .began, location: change.location,
                    timestamp: change.timestamp, tapCount: 1)
                if let (window, view) = hitTest(screen: change.location) {
                    touch.window = window
                    touch.view = view
                }
                activeTouches[change.id] = touch
            } else {
                guard let existing = activeTouches[change.id] else { continue }
                touch = existing
                touch.previousScreenLocation = touch.screenLocation
                touch.screenLocation = change.location
                touch.phase = change.phase
                touch.timestamp = change.timestamp
            }
            changed.insert(touch)
            if change.phase == .ended || change.phase == .cancelled {
                activeTouches[change.id] = nil
            }
        }
        sendEvent(Event(timestamp: timestamp, touches: changed))
    }
}

/// One touch's change in one input step, in screen coordinates.
public struct TouchChange: Sendable, Hashable {
    /// The finger.
    public var id: Int
    /// What happened to it.
    public var phase: Touch.Phase
    /// Where it is, in screen coordinates.
    public var location: Point
    /// When, in seconds.
    public var timestamp: Double

    /// Creates a change.
    public init(id: Int, phase: Touch.Phase, location: Point, timestamp: Double) {
        self.id = id
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
    }
}

extension Window {
    /// Delivers the touches of `event` that belong to this window to their views, one call per
    /// view and phase (`UIWindow.sendEvent:`).
    public func deliver(_ event: Event) {
        let mine = event.touches.filter { $0.window === self }
        for phase in [Touch.Phase.began, .moved, .stationary, .ended, .cancelled] {
            var byView: [ObjectIdentifier: (View, Set<Touch>)] = [:]
            for touch in mine where touch.phase == phase {
                guard let view = touch.view else { continue }
                byView[ObjectIdentifier(view), default: (view, [])].1.insert(touch)
            }
            for (view, touches) in byView.values {
                switch phase {
                case .began: view.touchesBegan(touches, with: event)
                case .moved, .stationary: view.touchesMoved(touches, with: event)
                case .ended: view.touchesEnded(touches, with: event)
                case .cancelled: view.touchesCancelled(touches, with: event)
                }
            }
        }
    }
}
