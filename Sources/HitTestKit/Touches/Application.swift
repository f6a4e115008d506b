/// The end of the responder chain and the router of input (`UIApplication`), as an ordinary
/// object: several may coexist, each with its own windows.
///
/// Input comes in through `injectTouches(_:)` (or `replay(_:)`), one step at a time, in screen
/// coordinates. Each step is queued and processed in order; a step injected while another is
/// being delivered (from a touch handler) runs after it.
public final class Application: Responder {
    private var storedWindows: [Window] = []
    private var activeTouches: [Int: Touch] = [:]
    private var queue: [[TouchChange]] = []
    private var queueHead = 0
    private var processing = false
    private var lastTap: (location: Point, time: Double, count: Int)?

    /// Whether deliveries are recorded in `deliveryLog` (default true).
    public var isLoggingDeliveries = true
    /// Every delivery decision since the log was last cleared, in order.
    public private(set) var deliveryLog: [TouchDelivery] = []

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

    /// Empties `deliveryLog`.
    public func clearDeliveryLog() { deliveryLog.removeAll(keepingCapacity: true) }

    /// Routes the touches of `event` to their windows, front to back (`sendEvent:`).
    public func sendEvent(_ event: Event) {
        for window in storedWindows.reversed() where event.touches(for: window) != nil {
            window.sendEvent(event)
        }
    }

    /// One input step: the touches that changed, in screen coordinates. A touch that begins is
    /// hit-tested (all the new touches of a step in one bulk hit test per window, front to
    /// back) and keeps that view for its life; its later phases go there even outside it.
    ///
    /// UIKit's rules apply at `.began` (SEMANTICS 8): a view that is not
    /// `isMultipleTouchEnabled` gets only the first touch of a sequence that starts in it;
    /// while an `isExclusiveTouch` view tracks a touch, no other view in the window gets new
    /// touches, and an exclusive view gets no new touch while another view tracks one. A touch
    /// whose view has left its window gets one `touchesCancelled` at the next step, and nothing
    /// more. Touches kept from their view this way are logged as `.ignored`.
    public func injectTouches(_ changes: [TouchChange]) {
        queue.append(changes)
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while queueHead < queue.count {
            let step = queue[queueHead]
            queueHead += 1
            process(step)
        }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
    }

    /// Replays a script step by step and returns what it delivered (the log entries it added).
    public func replay(_ script: TouchScript) -> ArraySlice<TouchDelivery> {
        let start = deliveryLog.count
        for step in script.steps { injectTouches(step) }
        return deliveryLog[start...]
    }

    // MARK: - Processing one step

    private func process(_ changes: [TouchChange]) {
        guard let time = changes.map(\.timestamp).max() else { return }
        cancelTouchesWhoseViewLeft(at: time)
        var changed: [Touch] = []
        var began: [(Touch, TouchChange)] = []
        for change in changes {
            if change.phase == .began {
                if let old = activeTouches[change.id] {
                    // The same finger cannot begin twice: the old touch is cancelled first.
                    finish(old, as: .cancelled, at: change.timestamp)
                }
                let touch = Touch(
                    identifier: change.id, phase: .began, location: change.location,
                    timestamp: change.timestamp, tapCount: tapCount(at: change.location, time: change.timestamp))
                activeTouches[change.id] = touch
                began.append((touch, change))
                changed.append(touch)
            } else if let touch = activeTouches[change.id] {
                touch.previousScreenLocation = touch.screenLocation
                touch.screenLocation = change.location
                touch.phase = change.phase
                touch.timestamp = change.timestamp
                changed.append(touch)
            } else {
                log(.dropped, change.phase, id: change.id, time: change.timestamp, by: "Application", reason: "no such touch")
            }
        }
        assignViews(began)
        // In input order: a touch is weighed against those already down, and those of this
        // step that came before it.
        var decided = Set<ObjectIdentifier>()
        let newTouches = Set(began.map { ObjectIdentifier($0.0) })
        for (touch, _) in began {
            applyBeganRules(touch) { other in
                !newTouches.contains(ObjectIdentifier(other)) || decided.contains(ObjectIdentifier(other))
            }
            decided.insert(ObjectIdentifier(touch))
        }
        deliver(changed, at: time)
        for touch in changed where touch.phase == .ended || touch.phase == .cancelled {
            activeTouches[touch.identifier] = nil
            if touch.phase == .ended { lastTap = (touch.screenLocation, touch.timestamp, touch.tapCount) }
        }
    }

    /// One bulk hit test per window for the touches that began, front to back.
    private func assignViews(_ began: [(Touch, TouchChange)]) {
        var pending = began
        for window in storedWindows.reversed() where !pending.isEmpty {
            let candidates = pending.filter { $0.1.windowIndex.map { storedWindows.indices.contains($0) && storedWindows[$0] === window } ?? true }
            if candidates.isEmpty { continue }
            let hits = window.hitTest(candidates.map { window.fromSuperview($0.0.screenLocation) })
            var taken = Set<ObjectIdentifier>()
            for ((touch, _), hit) in zip(candidates, hits) {
                guard let hit else { continue }
                touch.window = window
                touch.view = hit
                taken.insert(ObjectIdentifier(touch))
            }
            pending.removeAll { taken.contains(ObjectIdentifier($0.0)) }
        }
        for (touch, _) in pending {
            touch.isDelivered = false
            touch.ignoredBecause = "no view hit"
            log(.dropped, .began, id: touch.identifier, time: touch.timestamp, by: "Application", reason: "no view hit")
        }
    }

    private func applyBeganRules(_ touch: Touch, counts: (Touch) -> Bool) {
        guard let view = touch.view, let window = touch.window, touch.isDelivered else { return }
        let others = activeTouches.values.filter {
            $0 !== touch && counts($0) && $0.window === window && $0.isDelivered && $0.view != nil
                && $0.phase != .ended && $0.phase != .cancelled
        }
        var reason: String?
        if !view.isMultipleTouchEnabled, others.contains(where: { $0.view === view }) {
            reason = "isMultipleTouchEnabled is false and the view tracks a touch"
        } else if let exclusive = others.first(where: { $0.view!.isExclusiveTouch && $0.view !== view }) {
            reason = "\(exclusive.view!.debugName) is exclusive and tracks a touch"
        } else if view.isExclusiveTouch, others.contains(where: { $0.view !== view }) {
            reason = "the view is exclusive and another view tracks a touch"
        }
        if let reason {
            touch.isDelivered = false
            touch.ignoredBecause = reason
            log(.ignored, .began, id: touch.identifier, time: touch.timestamp, by: view.debugName, reason: reason)
        }
    }

    /// The event: every active touch (unchanged ones as stationary), delivered by window.
    private func deliver(_ changed: [Touch], at time: Double) {
        let changedIDs = Set(changed.map { ObjectIdentifier($0) })
        for touch in activeTouches.values where !changedIDs.contains(ObjectIdentifier(touch)) {
            touch.phase = .stationary
        }
        for touch in changed where !touch.isDelivered && touch.phase != .began {
            if let view = touch.view {
                log(.ignored, touch.phase, id: touch.identifier, time: touch.timestamp, by: view.debugName, reason: touch.ignoredBecause)
            } else {
                log(.dropped, touch.phase, id: touch.identifier, time: touch.timestamp, by: "Application", reason: touch.ignoredBecause)
            }
        }
        let all = Set(activeTouches.values).union(changed)
        sendEvent(Event(timestamp: time, touches: all))
    }

    private func cancelTouchesWhoseViewLeft(at time: Double) {
        for touch in activeTouches.values where touch.isDelivered {
            guard let view = touch.view, view.window !== touch.window else { continue }
            finish(touch, as: .cancelled, at: time, reason: "its view left the window")
        }
    }

    /// Ends `touch` now with one delivery of `phase` to its view (cancellation), and keeps its
    /// later input from being delivered.
    private func finish(_ touch: Touch, as phase: Touch.Phase, at time: Double, reason: String? = nil) {
        touch.phase = phase
        touch.timestamp = time
        if touch.isDelivered, let view = touch.view {
            log(.delivered, phase, id: touch.identifier, time: time, by: view.debugName, reason: reason)
            view.touchesCancelled([touch], with: Event(timestamp: time, touches: [touch]))
        }
        touch.isDelivered = false
        touch.ignoredBecause = reason ?? "the touch was cancelled"
        if activeTouches[touch.identifier] === touch, reason == nil { activeTouches[touch.identifier] = nil }
    }

    /// Taps within 0.35 s and 45 pt of the previous tap's end count up (`tapCount`). [ours]
    private func tapCount(at location: Point, time: Double) -> Int {
        guard let last = lastTap, time - last.time <= 0.35,
            abs(location.x - last.location.x) <= 45, abs(location.y - last.location.y) <= 45
        else { return 1 }
        return last.count + 1
    }

    // MARK: - Log

    func record(_ kind: TouchDelivery.Kind, _ phase: Touch.Phase, _ touches: Set<Touch>, by responder: Responder) {
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            log(kind, phase, id: touch.identifier, time: touch.timestamp, by: responder.debugName, reason: nil)
        }
    }

    private func log(_ kind: TouchDelivery.Kind, _ phase: Touch.Phase, id: Int, time: Double, by responder: String, reason: String?) {
        guard isLoggingDeliveries else { return }
        deliveryLog.append(TouchDelivery(timestamp: time, touch: id, phase: phase, kind: kind, responder: responder, reason: reason))
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

/// One entry of the delivery log: which responder received, passed on or lost which phase of
/// which touch.
public struct TouchDelivery: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// The window called the touch method of the touch's view.
        case delivered
        /// A default touch method passed the touches to `next`.
        case forwarded
        /// No responder took them: they reached the end of the chain, or hit no view.
        case dropped
        /// UIKit's rules kept the touch from its view (see `reason`).
        case ignored
    }

    /// When (the touch's timestamp).
    public var timestamp: Double
    /// The touch's identifier.
    public var touch: Int
    /// The phase.
    public var phase: Touch.Phase
    /// What happened.
    public var kind: Kind
    /// The responder's `debugName`.
    public var responder: String
    /// Why, for `.ignored`, `.dropped` at the window, and cancellations by the system.
    public var reason: String?

    /// `time touch phase kind responder (reason)`, one line.
    public var description: String {
        "\(timestamp) touch \(touch) \(phase.rawValue) \(kind.rawValue) \(responder)" + (reason.map { " (\($0))" } ?? "")
    }
}

extension Window {
    /// Delivers the changed touches of `event` in this window to their views, one call per view
    /// and phase, began first, then moved, ended and cancelled; stationary touches are only in
    /// `allTouches`.
    func deliver(_ event: Event) {
        let mine = event.touches.filter { $0.window === self && $0.isDelivered && $0.view != nil }
        for phase in [Touch.Phase.began, .moved, .ended, .cancelled] {
            var byView: [ObjectIdentifier: (View, Set<Touch>)] = [:]
            var order: [ObjectIdentifier] = []
            for touch in mine.sorted(by: { $0.identifier < $1.identifier }) where touch.phase == phase {
                let key = ObjectIdentifier(touch.view!)
                if byView[key] == nil { order.append(key) }
                byView[key, default: (touch.view!, [])].1.insert(touch)
            }
            for key in order {
                let (view, touches) = byView[key]!
                application?.record(.delivered, phase, touches, by: view)
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
