import HitTestCore

/// What the view of a watched touch gets of one phase.
enum TouchDisposition: Sendable {
    /// Deliver it now (after any held phases, in order).
    case deliver
    /// Hold it back until the interceptor calls `TouchRouter.release(_:)` (deliver the held
    /// phases then) or `TouchRouter.cancelDelivery(_:reason:)` (never).
    case hold
}

/// The seam where gesture recognizers (and a scroll view's content-touch delay) see touches
/// before views and decide what the views get: SEMANTICS 9 G2, G3 and G6–G8.
///
/// The router calls, for each input step:
/// 1. `watch(_:)` once for each touch that began and passed UIKit's rules (SEMANTICS 8), in
///    input order: the interceptor fixes the recognizers that will see the touch for its
///    whole life (G2: the hit view's, then each ancestor's) and returns its record of them,
///    which the router keeps on the touch (`touch.route.watchers`). `nil` means none: the
///    router never asks about that touch again and delivers it exactly as it would with no
///    interceptor.
/// 2. `touchesWillBeDelivered(_:event:router:)` with the watched touches that changed (began,
///    moved, ended, cancelled; in input order) before any view receives anything of the step
///    (G3). Recognizers update here; a recognizer that recognizes calls
///    `router.cancelDelivery` for its touches (G6), one that fails calls `router.release`
///    (G7, G8). Touches the system cancels (a view left its window, a finger began again) come
///    through here too, each in a step of its own, phase `.cancelled`.
/// 3. `disposition(of:for:)` for each phase of a watched touch that is about to go to its
///    view: deliver it or hold it (`delaysTouchesBegan`, `delaysTouchesEnded`, the content
///    touch delay).
/// 4. `settle(router:)` once every delivery of the step is done, and after each
///    `advanceTime` (G5: finished recognizers reset).
///
/// `release` and `cancelDelivery` may be called at any time, from these calls or from a
/// deadline (`Application.schedule(at:_:)`): phases they free are delivered in the step being
/// delivered, or, outside one, as soon as the deadline's action returns, with an event of the
/// touches down then.
protocol TouchInterceptor: AnyObject {
    /// A touch began and will be routed to its view: the record of what watches it for its
    /// life (G2), or nil.
    func watch(_ touch: Touch) -> AnyObject?
    /// The watched touches that changed in this step, before any view sees them (G3).
    func touchesWillBeDelivered(_ touches: [Touch], event: Event, router: TouchRouter)
    /// Whether the view gets `phase` of the watched `touch` now or later.
    func disposition(of phase: Touch.Phase, for touch: Touch) -> TouchDisposition
    /// After all deliveries of an input step or a time advance (G5).
    func settle(router: TouchRouter)
}

/// The middle of the input pipeline (tracker → router → dispatcher): decides what each view
/// receives of each touch, consults the interceptor (the gesture seam), keeps held phases,
/// and hands the dispatcher the calls to make, grouped as UIKit groups them: one call per view
/// per phase, `began` first, then `moved`, `ended`, `cancelled`; touches in identifier order,
/// views in the order of their first touch.
final class TouchRouter: TouchRouterStorage {
    /// The application's delivery log.
    let recorder: DeliveryRecorder

    /// The gesture seam; nil until recognizers exist.
    var interceptor: TouchInterceptor? {
        didSet { engine = interceptor as? GestureEngine }
    }

    /// The router of the application whose log is `recorder`.
    init(recorder: DeliveryRecorder) {
        self.recorder = recorder
    }

    // MARK: - The step

    /// Asks the interceptor which of the touches that began it watches (G2).
    func watchNewTouches(_ began: [Touch]) {
        guard let interceptor else { return }
        for touch in began where touch.isDelivered && touch.view != nil {
            touch.route.watchers = interceptor.watch(touch)
        }
    }

    /// Shows the interceptor the step's changed, watched touches before any view (G3).
    func stepWillDeliver(_ changed: [Touch], event: Event) {
        if changed.count == 1, let engine {
            // One touch (most steps), the application's engine: no list, no existential.
            let touch = changed[0]
            if touch.route.isWatched && touch.phase != .stationary {
                engine.touchesWillBeDelivered(changed, event: event, router: self)
            }
            return
        }
        guard let interceptor else { return }
        if changed.count == 1 {
            // One touch (most steps): no list to build.
            let touch = changed[0]
            if touch.route.isWatched && touch.phase != .stationary {
                interceptor.touchesWillBeDelivered(changed, event: event, router: self)
            }
            return
        }
        let watched = changed.filter { $0.route.isWatched && $0.phase != .stationary }
        if !watched.isEmpty { interceptor.touchesWillBeDelivered(watched, event: event, router: self) }
    }

    /// Delivers what `window` gets of `event` (called by `Window.sendEvent(_:)`): each of its
    /// touches' pending phases, then the phase it has in this step unless it is held.
    func deliver(_ event: Event, in window: Window) {
        if event.touchList.count == 1 {
            // One touch with nothing pending or held (most steps): at most one call, made
            // directly (what the general path below decides for it, without its lists).
            let touch = event.touchList[0]
            guard touch.window === window, touch.view != nil else { return }
            if touch.route.pending.isEmpty, touch.route.held.isEmpty {
                guard touch.isDelivered, touch.phase != .stationary, !touch.route.viewHasFinished else { return }
                if touch.route.isWatched, holds(touch) {
                    touch.route.held.append(touch.phase)
                    recorder.record(.held, touch.phase, touch: touch.identifier, by: touch.view!, reason: "held by a gesture recognizer")
                    return
                }
                deliverOne(touch, touch.phase, with: event)
                return
            }
        }
        var items: [(touch: Touch, phases: [Touch.Phase])] = []
        var mine: [Touch]
        if event.touchList.count == 1 {
            // One touch: the event's own list, no copy.
            let touch = event.touchList[0]
            mine = touch.window === window && touch.view != nil ? event.touchList : []
        } else {
            mine = []
            for touch in event.touchList where touch.window === window && touch.view != nil { mine.append(touch) }
            if mine.count > 1 { mine.sort { $0.identifier < $1.identifier } }
        }
        for touch in mine {
            var phases = touch.route.pending
            touch.route.pending.removeAll()
            if touch.isDelivered, touch.phase != .stationary, !touch.route.viewHasFinished {
                if touch.route.isWatched, let interceptor,
                    interceptor.disposition(of: touch.phase, for: touch) == .hold
                {
                    touch.route.held.append(touch.phase)
                    recorder.record(.held, touch.phase, touch: touch.identifier, by: touch.view!, reason: "held by a gesture recognizer")
                } else {
                    phases += touch.route.held
                    touch.route.held.removeAll()
                    phases.append(touch.phase)
                }
            }
            if !phases.isEmpty { items.append((touch, phases)) }
        }
        Dispatcher.dispatch(plan(items), with: event, log: recorder)
    }

    /// Delivers pending phases that no window delivery took (released by a deadline, or for a
    /// touch no longer down), with an event of the touches down now.
    func flushPending(at time: Double) {
        guard !queued.isEmpty else { return }
        let touches = queued.sorted { $0.identifier < $1.identifier }
        queued.removeAll()
        var items: [(touch: Touch, phases: [Touch.Phase])] = []
        for touch in touches {
            touch.route.isQueued = false
            if !touch.route.pending.isEmpty { items.append((touch, touch.route.pending)) }
            touch.route.pending.removeAll()
        }
        guard !items.isEmpty else { return }
        let all = Set(application!.tracker.active).union(items.map(\.touch))
        let event = Event(timestamp: time, touches: all, application: application)
        Dispatcher.dispatch(plan(items), with: event, log: recorder)
    }

    /// The interceptor holds the phase `touch` has now (the engine called directly when it
    /// is the interceptor).
    private func holds(_ touch: Touch) -> Bool {
        if let engine { return engine.disposition(of: touch.phase, for: touch) == .hold }
        guard let interceptor else { return false }
        return interceptor.disposition(of: touch.phase, for: touch) == .hold
    }

    // MARK: - What the interceptor may do

    /// Delivers the phases held from `touch`'s view (a recognizer that delayed them failed:
    /// G7, G8), in order.
    func release(_ touch: Touch) {
        guard !touch.route.held.isEmpty else { return }
        enqueue(touch, touch.route.held)
        touch.route.held.removeAll()
    }

    /// Ends delivery of `touch` to its view (a recognizer recognized: G6): a view that has
    /// begun the touch gets one `touchesCancelled`; held phases are dropped; later phases are
    /// logged as ignored with `reason`.
    func cancelDelivery(_ touch: Touch, reason: String) {
        guard touch.isDelivered, let view = touch.view else { return }
        for phase in touch.route.held {
            recorder.record(.ignored, phase, touch: touch.identifier, by: view, reason: reason)
        }
        touch.route.held.removeAll()
        touch.route.pending.removeAll()
        if touch.route.viewHasBegun, !touch.route.viewHasFinished { enqueue(touch, [.cancelled]) }
        touch.isDelivered = false
        touch.ignoredBecause = reason
    }

    // MARK: - Cancellation by the system

    /// The system cancels `touch` at `time` (its view left the window, or its finger began
    /// again): the interceptor sees the cancellation, then a view that has begun the touch gets
    /// one `touchesCancelled` at once, in an event of that touch alone; nothing more is
    /// delivered for it (SEMANTICS 8.5).
    func cancelBySystem(_ touch: Touch, at time: Double, reason: String?) {
        touch.phase = .cancelled
        touch.timestamp = time
        let wasDelivered = touch.isDelivered
        // A touch no window has routed yet (its window's `sendEvent` kept it back) still gets
        // its cancellation, as before there was an interceptor.
        let begun = touch.route.viewHasBegun || !touch.route.isWatched
        let event = Event(timestamp: time, touches: [touch], application: application)
        if touch.route.isWatched {
            // Recognizers see the end of every touch they watch, delivered to the view or not.
            stepWillDeliver([touch], event: event)
            touch.route.watchers = nil
        }
        // Whatever the interceptor released or cancelled is replaced by this one call.
        touch.route.held.removeAll()
        touch.route.pending.removeAll()
        if wasDelivered, let view = touch.view, begun, !touch.route.viewHasFinished {
            touch.route.viewHasFinished = true
            Dispatcher.dispatch(
                [Delivery(view: view, phase: .cancelled, touches: [touch])], with: event, log: recorder, reason: reason)
        }
        touch.isDelivered = false
        touch.ignoredBecause = reason ?? "the touch was cancelled"
    }

    // MARK: - Planning


    /// One phase of one touch to its view: what `plan` and `Dispatcher.dispatch` do for a single
    /// item with a single phase, without building their lists.
    private func deliverOne(_ touch: Touch, _ phase: Touch.Phase, with event: Event) {
        guard let view = touch.view, !touch.route.viewHasFinished else { return }
        if phase == .began { touch.route.viewHasBegun = true }
        if phase == .ended || phase == .cancelled { touch.route.viewHasFinished = true }
        recorder.record(.delivered, phase, touch: touch.identifier, by: view, reason: nil)
        let set = oneTouch.take(touch)
        view.receive(phase, set, with: event)
        oneTouch.giveBack(consume set)
    }

    private func enqueue(_ touch: Touch, _ phases: [Touch.Phase]) {
        touch.route.pending += phases
        if !touch.route.isQueued {
            touch.route.isQueued = true
            queued.append(touch)
        }
    }

    /// The calls for `items` (in touch identifier order): round k carries each touch's k-th
    /// phase, so a touch's phases reach its view in order; within a round, one call per view
    /// and phase, `began`, `moved`, `ended`, `cancelled`. Marks what each view has begun and
    /// finished.
    private func plan(_ items: [(touch: Touch, phases: [Touch.Phase])]) -> [Delivery] {
        if items.count == 1, items[0].phases.count == 1 {
            // One phase of one touch (most steps): one call, no grouping.
            let touch = items[0].touch
            let phase = items[0].phases[0]
            guard phase != .stationary, let view = touch.view, !touch.route.viewHasFinished else { return [] }
            if phase == .began { touch.route.viewHasBegun = true }
            if phase == .ended || phase == .cancelled { touch.route.viewHasFinished = true }
            var one = Set<Touch>(minimumCapacity: 1)
            one.insert(touch)
            return [Delivery(view: view, phase: phase, touches: one)]
        }
        var out: [Delivery] = []
        let rounds = items.reduce(0) { max($0, $1.phases.count) }
        for round in 0..<rounds {
            for phase in [Touch.Phase.began, .moved, .ended, .cancelled] {
                var slot: [ObjectIdentifier: Int] = [:]
                for (touch, phases) in items where round < phases.count && phases[round] == phase {
                    guard let view = touch.view, !touch.route.viewHasFinished else { continue }
                    if phase == .began { touch.route.viewHasBegun = true }
                    if phase == .ended || phase == .cancelled { touch.route.viewHasFinished = true }
                    let key = ObjectIdentifier(view)
                    if let i = slot[key] {
                        out[i].touches.insert(touch)
                    } else {
                        slot[key] = out.count
                        out.append(Delivery(view: view, phase: phase, touches: [touch]))
                    }
                }
            }
        }
        return out
    }
}
