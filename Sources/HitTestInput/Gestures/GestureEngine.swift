import HitTestCore

/// The arbitration between gesture recognizers and views (SEMANTICS 9 G2, G3, G5–G12): the
/// application's `TouchInterceptor`.
///
/// - `watch(_:)` fixes, when a touch begins, the recognizers that will see it (G2), walking up
///   from the hit view in a loop.
/// - `touchesWillBeDelivered` gives each recognizer its touches' phases before any view (G3),
///   deepest recognizer first.
/// - State changes go through one queue (`request`), drained in a loop: leaving `.possible`
///   checks prevention (G9), waiting (G12) and `gestureRecognizerShouldBegin` (G10);
///   recognition fails the recognizers it prevents (G9), cancels its touches in their views
///   (G6) and fails those waiting for its failure; failure releases held phases (G7, G8) and
///   lets waiting recognizers recognize. Actions run after the change is applied.
/// - `disposition` holds phases while a recognizer with `delaysTouchesBegan`/`Ended` may still
///   recognize.
/// - `settle` resets the recognizers whose touches have all ended (G5).
final class GestureEngine: GestureEngineStorage, TouchInterceptor {
    /// The application, unretained (Core/Storage.swift); the application clears it when it
    /// dies (`detach()`).
    var application: Application? {
        get { applicationReference.object }
        set { applicationReference = Unretained(newValue) }
    }

    /// The application's log is on (read without a retain: nothing runs between the loads).
    @inline(__always) private var isLogging: Bool {
        applicationReference.withObject { $0.recorder.isEnabled } ?? false
    }

    /// The touch's recognizers, fixed when it began (G2): the hit view's first.
    final class Watchers {
        var recognizers: [GestureRecognizer]
        init(_ recognizers: [GestureRecognizer]) { self.recognizers = recognizers }
    }

    typealias Work = GestureEngineWork

    override init() {}

    private var router: TouchRouter? { application?.router }

    /// The application is going: forget it, and end every gesture in progress silently (the
    /// recognizers go back to `.possible`, their `reset()` runs, they let go of their touches
    /// and of this engine). [ours]
    func detach() {
        application = nil
        for g in active {
            g.isActive = false
            g.activeTouches.removeAll()
            g.sequenceTouches.removeAll()
            g.deadlines.removeAll()
            g.pendingState = nil
            g.engine = nil
            g.storedState = .possible
            g.reset()
        }
        active.removeAll()
        waiting.removeAll()
        work.removeAll()
    }

    // MARK: - TouchInterceptor

    func watch(_ touch: Touch) -> AnyObject? {
        var list: [GestureRecognizer] = []
        var v = touch.view
        // A loop, not recursion: a 100,000-deep chain is fine.
        while let view = v {
            if !view.attachedRecognizers.isEmpty {
                for g in view.attachedRecognizers where g.isEnabled {
                    if let d = g.delegate, !d.gestureRecognizer(g, shouldReceive: touch) { continue }
                    list.append(g)
                }
            }
            v = view.storedSuperview
        }
        if list.isEmpty { return nil }
        for g in list {
            if g.storedState.isFinished, g.activeTouches.isEmpty { resetRecognizer(g) }
            g.engine = self
            g.activeTouches.append(touch)
            g.sequenceTouches.append(touch)
            activate(g)
        }
        return Watchers(list)
    }

    private static let phaseOrder: [Touch.Phase] = [.began, .moved, .ended, .cancelled]

    private static func send(_ phase: Touch.Phase, _ set: Set<Touch>, _ event: Event, to g: GestureRecognizer) {
        switch phase {
        case .began: g.touchesBegan(set, with: event)
        case .moved: g.touchesMoved(set, with: event)
        case .ended: g.touchesEnded(set, with: event)
        case .cancelled, .stationary: g.touchesCancelled(set, with: event)
        }
    }

    func touchesWillBeDelivered(_ touches: [Touch], event: Event, router: TouchRouter) {
        if touches.count == 1 {
            // One touch (most steps): its recognizers in order, one set for all.
            let touch = touches[0]
            if let watchers = touch.route.watchers {
                let set = oneTouch.takeKeeping(touch)  // emptied by afterDelivery when the touch ends
                // `list` (a local copy of the touch's list) holds every recognizer until the loop
                // ends, so each is lent to the call unretained.
                let list = unsafeDowncast(watchers, to: Watchers.self).recognizers
                list.withUnsafeBufferPointer { buffer in
                    for k in buffer.indices {
                        withBorrowed(buffer[k]) { g in
                            if g.isLive && !g.storedState.isFinished { GestureEngine.send(touch.phase, set, event, to: g) }
                        }
                    }
                }
                withExtendedLifetime(list) {}
            }
        } else {
            deliverGrouped(touches, event: event)
        }
        afterDelivery(touches, router: router)
    }

    /// Several touches: per phase, each recognizer once with its touches of that phase.
    private func deliverGrouped(_ touches: [Touch], event: Event) {
        for phase in GestureEngine.phaseOrder {
            stamp += 1
            var order: [GestureRecognizer] = []
            for touch in touches where touch.phase == phase {
                guard let watchers = touch.route.watchers else { continue }
                for g in unsafeDowncast(watchers, to: Watchers.self).recognizers {
                    if g.stepMark != stamp {
                        g.stepMark = stamp
                        g.stepTouches.emptyKeepingCapacity()
                        order.append(g)
                    }
                    g.stepTouches.append(touch)
                }
            }
            for g in order {
                let set = Set(g.stepTouches)
                g.stepTouches.emptyKeepingCapacity()
                guard g.isLive, !g.storedState.isFinished else { continue }
                GestureEngine.send(phase, set, event, to: g)
            }
        }
    }

    private func afterDelivery(_ touches: [Touch], router: TouchRouter) {
        // Touches that ended or were cancelled leave their recognizers; where they were is kept.
        for touch in touches {
            // A move (most steps) changes nothing here: no list is loaded for it.
            let phase = touch.phase
            guard phase == .began || phase == .ended || phase == .cancelled, let watchers = touch.route.watchers else { continue }
            let list = unsafeDowncast(watchers, to: Watchers.self).recognizers
            if touch.phase == .began {
                // A touch that begins under a recognizer that has already begun is its, not
                // the view's (G6). [ours]
                if touch.isDelivered,
                    let g = list.first(where: { $0.isLive && $0.cancelsTouchesInView && ($0.storedState == .began || $0.storedState == .changed) })
                {
                    router.cancelDelivery(touch, reason: g.hasBegunText())
                }
            }
            guard touch.phase == .ended || touch.phase == .cancelled else { continue }
            oneTouch.forget(touch)
            // Fields only: the recognizers are lent unretained (`list` holds them).
            list.withUnsafeBufferPointer { buffer in
                for k in buffer.indices {
                    withBorrowed(buffer[k]) { g in
                        g.noteLocation()
                        if let i = g.activeTouches.firstIndex(where: { $0 === touch }) { g.activeTouches.remove(at: i) }
                    }
                }
            }
            withExtendedLifetime(list) {}
        }
    }

    func disposition(of phase: Touch.Phase, for touch: Touch) -> TouchDisposition {
        if phase == .cancelled { return .deliver }
        return holds(touch, phase: phase) ? .hold : .deliver
    }

    func settle(router: TouchRouter) {
        guard !active.isEmpty else { return }
        // Compacts in place. A `reset()` may append (a custom one that sets a state): appended
        // entries are visited too, and `kept` never passes `i`.
        var kept = 0
        var i = 0
        while i < active.count {
            // Borrowed while only its fields are read (`active` holds it); held strongly
            // across a reset, which runs arbitrary code.
            let index = i
            i += 1
            func isDone(_ g: GestureRecognizer) -> Bool {
                g.storedState == .possible && g.activeTouches.isEmpty && !g.isInSequence && g.pendingState == nil
            }
            if withBorrowed(active[index], { $0.activeTouches.isEmpty && $0.storedState.isFinished }) {
                let g = active[index]
                resetRecognizer(g)
                if isDone(g) {
                    g.isActive = false
                } else {
                    if kept != index { active[kept] = g }
                    kept += 1
                }
            } else if withBorrowed(active[index], isDone) {
                withBorrowed(active[index]) { $0.isActive = false }
            } else {
                if kept != index { active[kept] = active[index] }  // in place already: no write
                kept += 1
            }
        }
        active.removeLast(active.count - kept)
    }

    // MARK: - Holding (G7, G8)

    /// Whether a recognizer on `touch` that may still recognize holds `phase` from the view.
    private func holds(_ touch: Touch, phase: Touch.Phase) -> Bool {
        guard let watchers = touch.route.watchers else { return false }
        // Fields only: the recognizers are read unretained (the local list holds them).
        let list = unsafeDowncast(watchers, to: Watchers.self).recognizers
        let held = list.withUnsafeBufferPointer { buffer -> Bool in
            for k in buffer.indices {
                let holds = withBorrowed(buffer[k]) { g -> Bool in
                    guard g.isLive && g.storedState == .possible else { return false }
                    // A recognizer that was reset (G5) after its own touches ended is possible
                    // again but no longer follows this touch: it holds nothing of it.
                    guard g.sequenceTouches.contains(where: { $0 === touch }) else { return false }
                    return g.delaysTouchesBegan || (g.delaysTouchesEnded && phase == .ended)
                }
                if holds { return true }
            }
            return false
        }
        withExtendedLifetime(list) {}
        return held
    }

    /// Releases the held phases of `g`'s touches that nothing holds any more.
    private func releaseTouches(of g: GestureRecognizer) {
        guard let router else { return }
        for touch in g.sequenceTouches where !touch.route.held.isEmpty && touch.isDelivered {
            if !holds(touch, phase: touch.route.held.contains(.ended) ? .ended : .moved) {
                router.release(touch)
            }
        }
    }

    // MARK: - State changes

    /// Queues a state change of `g` and, unless one is being processed, processes the queue.
    func request(_ g: GestureRecognizer, _ state: GestureRecognizer.State) {
        if draining {
            work.append(.set(g, state))
            return
        }
        // Nothing queued: process it now, then whatever it queued.
        draining = true
        process(g, to: state)
        draining = false
        if !work.isEmpty { drain() }
    }

    private func drain() {
        guard !draining else { return }
        draining = true
        defer { draining = false }
        var i = 0
        while i < work.count {
            let item = work[i]
            i += 1
            switch item {
            case .set(let g, let state): process(g, to: state)
            case .retry(let g): retry(g)
            }
        }
        work.emptyKeepingCapacity()
    }

    private func process(_ g: GestureRecognizer, to new: GestureRecognizer.State) {
        let from = g.storedState
        if from == new && new != .changed { return }
        guard from.canTransition(to: new) else {
            note(g, "\(g.debugName) \(from) → \(new) ignored: not a legal transition")
            return
        }
        if from == .possible && (new == .began || new == .ended) {
            guard g.isLive else { return }
            if let blocker = preventer(of: g) {
                g.pendingState = nil
                apply(g, .failed, because: "prevented by \(blocker.debugName)")
                return
            }
            if mustWait(g) != nil {
                if g.pendingState == nil { waiting.append(g) }
                g.pendingState = new
                activate(g)
                return
            }
            if !shouldBegin(g) {
                apply(g, .failed, because: "gestureRecognizerShouldBegin returned false")
                return
            }
        }
        apply(g, new, because: nil)
    }

    private func retry(_ g: GestureRecognizer) {
        guard let pending = g.pendingState, g.storedState == .possible else { return }
        if mustWait(g) != nil { return }
        unwait(g)
        process(g, to: pending)
    }

    private func unwait(_ g: GestureRecognizer) {
        g.pendingState = nil
        if let i = waiting.firstIndex(where: { $0 === g }) { waiting.remove(at: i) }
    }

    private func apply(_ g: GestureRecognizer, _ new: GestureRecognizer.State, because reason: String?) {
        let from = g.storedState
        if g.pendingState != nil { unwait(g) }
        g.storedState = new
        activate(g)
        note(g, reason.map { g.transitionText(from, new) + " (\($0))" } ?? g.transitionText(from, new))
        let recognized = from == .possible && (new == .began || new == .ended)
        if recognized {
            preventOthers(g)
            if g.cancelsTouchesInView, let router {
                let reason = g.recognizedText()
                for touch in g.sequenceTouches { router.cancelDelivery(touch, reason: reason) }
            } else {
                releaseTouches(of: g)
            }
            // Those waiting for g's failure fail (G12).
            for w in waiting where w !== g && requires(w, g) { work.append(.set(w, .failed)) }
        } else if new == .failed || new == .cancelled {
            releaseTouches(of: g)
            if new == .failed {
                for w in waiting where w !== g { work.append(.retry(w)) }
            }
        }
        if new != .failed {
            runActions(of: g)
        }
    }

    private func runActions(of g: GestureRecognizer) {
        guard !g.actions.isEmpty else { return }
        if isLogging, let application, let responder = g.view ?? application as Responder? {
            let multiple = g.actions.count > 1
            for k in g.actions.indices {
                application.recorder.note(
                    .action, about: responder, detail: multiple ? g.actionText(g.storedState) + " (action \(k))" : g.actionText(g.storedState),
                    touch: g.sequenceTouches.last?.identifier)
            }
        }
        g.runActions()
    }

    private func note(_ g: GestureRecognizer, _ detail: @autoclosure () -> String) {
        guard isLogging, let application else { return }
        application.recorder.note(
            .recognizer, about: g.view ?? application, detail: detail(), touch: g.sequenceTouches.last?.identifier)
    }

    // MARK: - Arbitration

    /// Calls `body` with every other recognizer that shares a touch with `g` in its current
    /// gesture, once each, in the order of the touches' recognizer lists, until `body` returns
    /// false. (No list is built: this runs on every recognition.)
    private func forEachOther(of g: GestureRecognizer, _ body: (GestureRecognizer) -> Bool) {
        if g.sequenceTouches.count == 1, let watchers = g.sequenceTouches[0].route.watchers {
            // One touch: its list holds each recognizer once. The local copy of the list holds
            // them all, so each is lent to `body` unretained.
            let list = unsafeDowncast(watchers, to: Watchers.self).recognizers
            list.withUnsafeBufferPointer { buffer in
                for k in buffer.indices {
                    let more = withBorrowed(buffer[k]) { o in o === g || body(o) }
                    if !more { return }
                }
            }
            withExtendedLifetime(list) {}
            return
        }
        stamp += 1
        let mark = stamp
        g.stepMark = mark
        for touch in g.sequenceTouches {
            guard let watchers = touch.route.watchers else { continue }
            for o in unsafeDowncast(watchers, to: Watchers.self).recognizers where o.stepMark != mark {
                o.stepMark = mark
                if !body(o) { return }
            }
        }
    }

    private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        if let d = a.delegate, d.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) { return true }
        if let d = b.delegate, d.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) { return true }
        return false
    }

    private func prevents(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        !simultaneous(a, b) && a.canPrevent(b) && b.canBePrevented(by: a)
    }

    /// A recognizer sharing a touch with `g` that has already recognized and prevents it
    /// (first come wins). [ours]
    private func preventer(of g: GestureRecognizer) -> GestureRecognizer? {
        var found: GestureRecognizer?
        forEachOther(of: g) { o in
            if o.isLive && (o.storedState == .began || o.storedState == .changed) && prevents(o, g) {
                found = o
                return false
            }
            return true
        }
        return found
    }

    /// G9: the others sharing a touch that are possible fail, those that began are cancelled.
    private func preventOthers(_ g: GestureRecognizer) {
        forEachOther(of: g) { o in
            guard o.isLive else { return true }
            let s = o.storedState
            guard s == .possible || s == .began || s == .changed else { return true }
            if s == .possible && !o.isInSequence && o.pendingState == nil { return true }
            if prevents(g, o) { work.append(.set(o, s == .possible ? .failed : .cancelled)) }
            return true
        }
    }

    /// Whether `w` must wait for `o`'s failure (G12).
    private func requires(_ w: GestureRecognizer, _ o: GestureRecognizer) -> Bool {
        if w.failureRequirements.contains(where: { $0.recognizer === o }) { return true }
        if let d = w.delegate, d.gestureRecognizer(w, shouldRequireFailureOf: o) { return true }
        if let d = o.delegate, d.gestureRecognizer(o, shouldBeRequiredToFailBy: w) { return true }
        return false
    }

    /// A recognizer `g` must wait for: one it requires to fail that is possible and tracking.
    private func mustWait(_ g: GestureRecognizer) -> GestureRecognizer? {
        for weakRef in g.failureRequirements {
            if let o = weakRef.recognizer, o.isLive, o.storedState == .possible, o.isInSequence { return o }
        }
        let delegated = g.delegate != nil
        var found: GestureRecognizer?
        forEachOther(of: g) { o in
            guard o !== g && o.isLive && o.storedState == .possible && o.isInSequence else { return true }
            if delegated, let d = g.delegate, d.gestureRecognizer(g, shouldRequireFailureOf: o) {
                found = o
                return false
            }
            if let d = o.delegate, d.gestureRecognizer(o, shouldBeRequiredToFailBy: g) {
                found = o
                return false
            }
            return true
        }
        return found
    }

    /// G10: the delegate, the recognizer's view and each touched view must agree.
    private func shouldBegin(_ g: GestureRecognizer) -> Bool {
        if let d = g.delegate, !d.gestureRecognizerShouldBegin(g) { return false }
        guard let view = g.view else { return false }
        if !view.gestureRecognizerShouldBegin(g) { return false }
        if g.sequenceTouches.count == 1 {
            guard let v = g.sequenceTouches[0].view, v !== view else { return true }
            return v.gestureRecognizerShouldBegin(g)
        }
        var asked: [View] = [view]
        for touch in g.sequenceTouches {
            guard let v = touch.view, !asked.contains(where: { $0 === v }) else { continue }
            asked.append(v)
            if !v.gestureRecognizerShouldBegin(g) { return false }
        }
        return true
    }

    // MARK: - Bookkeeping

    private func activate(_ g: GestureRecognizer) {
        if !g.isActive {
            g.isActive = true
            active.append(g)
        }
    }

    /// G5: back to `.possible`, the gesture's touches and deadlines forgotten, `reset()` run.
    private func resetRecognizer(_ g: GestureRecognizer) {
        let from = g.storedState
        if g.pendingState != nil { unwait(g) }
        g.cancelScheduledDeadlines()
        g.storedState = .possible
        note(g, g.transitionText(from, .possible))
        g.sequenceTouches.emptyKeepingCapacity()  // its buffer serves the next gesture
        g.reset()
    }
}

/// A queued state change or retry of `GestureEngine` (its `work` list, Core/Storage.swift).
enum GestureEngineWork {
    case set(GestureRecognizer, GestureRecognizer.State)
    case retry(GestureRecognizer)
}

extension GestureEngine: GestureArbiter {
    /// The application's clock, while the application lives.
    var clock: (any SimulatedClock)? { application }
}
