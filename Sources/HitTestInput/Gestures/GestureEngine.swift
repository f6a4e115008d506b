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
///
/// What the engine keeps about each recognizer is in the recognizer's record
/// (`GestureTracking`); its lists hold each recognizer with its record (`Tracked`).
final class GestureEngine: GestureEngineStorage, TouchInterceptor {
    /// The application's delivery log (the engine's entries go there).
    let recorder: DeliveryRecorder

    /// The application's log is on.
    @inline(__always) private var isLogging: Bool { recorder.isEnabled && isAttached }

    /// The touch's recognizers, fixed when it began (G2): the hit view's first.
    final class Watchers {
        var recognizers: [Tracked]
        init(_ recognizers: [Tracked]) { self.recognizers = recognizers }
    }

    typealias Work = GestureEngineWork

    /// The engine of the application whose log is `recorder`.
    init(recorder: DeliveryRecorder) {
        self.recorder = recorder
    }

    /// The application is going: forget it, and end every gesture in progress silently (the
    /// recognizers go back to `.possible`, their `reset()` runs, they let go of their touches
    /// and of this engine). [ours]
    func detach() {
        application = nil
        isAttached = false
        router = nil
        for t in active {
            let r = t.record
            r.isActive = false
            r.activeTouches.removeAll()
            r.sequenceTouches.removeAll()
            r.deadlines.removeAll()
            r.pendingState = nil
            r.engine = nil
            r.state = .possible
            t.recognizer.reset()
        }
        active.removeAll()
        waiting.removeAll()
        work.removeAll()
    }

    // MARK: - TouchInterceptor

    func watch(_ touch: Touch) -> AnyObject? {
        var list: [Tracked] = []
        var v = touch.view
        // A loop, not recursion: a 100,000-deep chain is fine.
        while let view = v {
            if let recognizers = view.input?.recognizers, !recognizers.isEmpty {
                for g in recognizers {
                    let r = g.trackingRecord
                    guard r.isEnabled else { continue }
                    if let d = r.delegate, !d.gestureRecognizer(g, shouldReceive: touch) { continue }
                    list.append(Tracked(g, r))
                }
            }
            v = view.storedSuperview
        }
        if list.isEmpty { return nil }
        for t in list {
            let r = t.record
            if r.state.isFinished, r.activeTouches.isEmpty { resetRecognizer(t) }
            r.engine = self
            r.activeTouches.append(touch)
            r.sequenceTouches.append(touch)
            activate(t)
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
                        let live = withBorrowed(buffer[k].record) { r in r.isLive && !r.state.isFinished }
                        if live { withBorrowed(buffer[k].recognizer) { GestureEngine.send(touch.phase, set, event, to: $0) } }
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
            var order: [Tracked] = []
            for touch in touches where touch.phase == phase {
                guard let watchers = touch.route.watchers else { continue }
                for t in unsafeDowncast(watchers, to: Watchers.self).recognizers {
                    let r = t.record
                    if r.stepMark != stamp {
                        r.stepMark = stamp
                        r.stepTouches.emptyKeepingCapacity()
                        order.append(t)
                    }
                    r.stepTouches.append(touch)
                }
            }
            for t in order {
                let set = Set(t.record.stepTouches)
                t.record.stepTouches.emptyKeepingCapacity()
                guard t.record.isLive, !t.record.state.isFinished else { continue }
                GestureEngine.send(phase, set, event, to: t.recognizer)
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
                    let t = list.first(where: {
                        let r = $0.record
                        return r.isLive && r.cancelsTouchesInView && (r.state == .began || r.state == .changed)
                    })
                {
                    router.cancelDelivery(touch, reason: t.recognizer.hasBegunText())
                }
            }
            guard touch.phase == .ended || touch.phase == .cancelled else { continue }
            oneTouch.forget(touch)
            // Fields only: the records are lent unretained (`list` holds them).
            list.withUnsafeBufferPointer { buffer in
                for k in buffer.indices {
                    withBorrowed(buffer[k].record) { r in
                        r.noteLocation()
                        if let i = r.activeTouches.firstIndex(where: { $0 === touch }) { r.activeTouches.remove(at: i) }
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
            func isDone(_ r: GestureTracking) -> Bool {
                r.state == .possible && r.activeTouches.isEmpty && !r.isInSequence && r.pendingState == nil
            }
            if withBorrowed(active[index].record, { $0.activeTouches.isEmpty && $0.state.isFinished }) {
                let t = active[index]
                resetRecognizer(t)
                if isDone(t.record) {
                    t.record.isActive = false
                } else {
                    if kept != index { active[kept] = t }
                    kept += 1
                }
            } else if withBorrowed(active[index].record, isDone) {
                withBorrowed(active[index].record) { $0.isActive = false }
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
                let holds = withBorrowed(buffer[k].record) { r -> Bool in
                    guard r.isLive && r.state == .possible else { return false }
                    // A recognizer that was reset (G5) after its own touches ended is possible
                    // again but no longer follows this touch: it holds nothing of it.
                    guard r.sequenceTouches.contains(where: { $0 === touch }) else { return false }
                    return r.delaysTouchesBegan || (r.delaysTouchesEnded && phase == .ended)
                }
                if holds { return true }
            }
            return false
        }
        withExtendedLifetime(list) {}
        return held
    }

    /// Releases the held phases of `t`'s touches that nothing holds any more.
    private func releaseTouches(of t: Tracked) {
        guard let router else { return }
        for touch in t.record.sequenceTouches where !touch.route.held.isEmpty && touch.isDelivered {
            if !holds(touch, phase: touch.route.held.contains(.ended) ? .ended : .moved) {
                router.release(touch)
            }
        }
    }

    // MARK: - State changes

    /// Queues a state change of `t` and, unless one is being processed, processes the queue.
    func request(_ t: Tracked, _ state: GestureRecognizer.State) {
        if draining {
            work.append(.set(t, state))
            return
        }
        // Nothing queued: process it now, then whatever it queued.
        draining = true
        process(t, to: state)
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
            case .set(let t, let state): process(t, to: state)
            case .retry(let t): retry(t)
            }
        }
        work.emptyKeepingCapacity()
    }

    private func process(_ t: Tracked, to new: GestureRecognizer.State) {
        let g = t.recognizer
        let from = t.record.state
        if from == new && new != .changed { return }
        guard from.canTransition(to: new) else {
            note(t, "\(g.debugName) \(from) → \(new) ignored: not a legal transition")
            return
        }
        if from == .possible && (new == .began || new == .ended) {
            guard t.record.isLive else { return }
            if let blocker = preventer(of: t) {
                t.record.pendingState = nil
                apply(t, .failed, because: "prevented by \(blocker.debugName)")
                return
            }
            if mustWait(t) != nil {
                if t.record.pendingState == nil { waiting.append(t) }
                t.record.pendingState = new
                activate(t)
                return
            }
            if !shouldBegin(t) {
                apply(t, .failed, because: "gestureRecognizerShouldBegin returned false")
                return
            }
        }
        apply(t, new, because: nil)
    }

    private func retry(_ t: Tracked) {
        guard let pending = t.record.pendingState, t.record.state == .possible else { return }
        if mustWait(t) != nil { return }
        unwait(t)
        process(t, to: pending)
    }

    private func unwait(_ t: Tracked) {
        t.record.pendingState = nil
        if let i = waiting.firstIndex(where: { $0 === t }) { waiting.remove(at: i) }
    }

    private func apply(_ t: Tracked, _ new: GestureRecognizer.State, because reason: String?) {
        let g = t.recognizer
        let from = t.record.state
        if t.record.pendingState != nil { unwait(t) }
        t.record.state = new
        activate(t)
        note(t, reason.map { g.transitionText(from, new) + " (\($0))" } ?? g.transitionText(from, new))
        let recognized = from == .possible && (new == .began || new == .ended)
        if recognized {
            preventOthers(t)
            if t.record.cancelsTouchesInView, let router {
                let reason = g.recognizedText()
                for touch in t.record.sequenceTouches { router.cancelDelivery(touch, reason: reason) }
            } else {
                releaseTouches(of: t)
            }
            // Those waiting for g's failure fail (G12).
            for w in waiting where w !== t && requires(w, t) { work.append(.set(w, .failed)) }
        } else if new == .failed || new == .cancelled {
            releaseTouches(of: t)
            if new == .failed {
                for w in waiting where w !== t { work.append(.retry(w)) }
            }
        }
        if new != .failed {
            runActions(of: t)
        }
    }

    private func runActions(of t: Tracked) {
        let g = t.recognizer
        if isLogging, let responder = t.record.view ?? application as Responder? {
            let actions = g.actionCount
            let state = t.record.state
            for k in 0..<actions {
                recorder.note(
                    .action, about: responder,
                    detail: actions > 1 ? g.actionText(state) + " (action \(k))" : g.actionText(state),
                    touch: t.record.sequenceTouches.last?.identifier)
            }
        }
        g.runActions()
    }

    private func note(_ t: Tracked, _ detail: @autoclosure () -> String) {
        guard isLogging, let about = t.record.view ?? application else { return }
        recorder.note(.recognizer, about: about, detail: detail(), touch: t.record.sequenceTouches.last?.identifier)
    }

    // MARK: - Arbitration

    /// Calls `body` with every other recognizer that shares a touch with `t` in its current
    /// gesture, once each, in the order of the touches' recognizer lists, until `body` returns
    /// false. (No list is built: this runs on every recognition.)
    private func forEachOther(of t: Tracked, _ body: (Tracked) -> Bool) {
        let sequence = t.record.sequenceTouches
        if sequence.count == 1, let watchers = sequence[0].route.watchers {
            // One touch: its list holds each recognizer once. The local copy of the list holds
            // them all, so each is lent to `body` unretained.
            let list = unsafeDowncast(watchers, to: Watchers.self).recognizers
            list.withUnsafeBufferPointer { buffer in
                for k in buffer.indices {
                    let o = buffer[k]
                    if !(o === t || body(o)) { return }
                }
            }
            withExtendedLifetime(list) {}
            return
        }
        stamp += 1
        let mark = stamp
        t.record.stepMark = mark
        for touch in sequence {
            guard let watchers = touch.route.watchers else { continue }
            for o in unsafeDowncast(watchers, to: Watchers.self).recognizers where o.record.stepMark != mark {
                o.record.stepMark = mark
                if !body(o) { return }
            }
        }
    }

    private func simultaneous(_ a: Tracked, _ b: Tracked) -> Bool {
        let ag = a.recognizer
        let bg = b.recognizer
        if let d = a.record.delegate, d.gestureRecognizer(ag, shouldRecognizeSimultaneouslyWith: bg) { return true }
        if let d = b.record.delegate, d.gestureRecognizer(bg, shouldRecognizeSimultaneouslyWith: ag) { return true }
        return false
    }

    private func prevents(_ a: Tracked, _ b: Tracked) -> Bool {
        !simultaneous(a, b) && a.recognizer.canPrevent(b.recognizer) && b.recognizer.canBePrevented(by: a.recognizer)
    }

    /// A recognizer sharing a touch with `t` that has already recognized and prevents it
    /// (first come wins). [ours]
    private func preventer(of t: Tracked) -> GestureRecognizer? {
        var found: GestureRecognizer?
        forEachOther(of: t) { o in
            let r = o.record
            if r.isLive && (r.state == .began || r.state == .changed) && prevents(o, t) {
                found = o.recognizer
                return false
            }
            return true
        }
        return found
    }

    /// G9: the others sharing a touch that are possible fail, those that began are cancelled.
    private func preventOthers(_ t: Tracked) {
        forEachOther(of: t) { o in
            let r = o.record
            guard r.isLive else { return true }
            let s = r.state
            guard s == .possible || s == .began || s == .changed else { return true }
            if s == .possible && !r.isInSequence && r.pendingState == nil { return true }
            if prevents(t, o) { work.append(.set(o, s == .possible ? .failed : .cancelled)) }
            return true
        }
    }

    /// Whether `w` must wait for `o`'s failure (G12).
    private func requires(_ w: Tracked, _ o: Tracked) -> Bool {
        let wg = w.recognizer
        let og = o.recognizer
        if w.record.failureRequirements.contains(where: { $0.recognizer === og }) { return true }
        if let d = w.record.delegate, d.gestureRecognizer(wg, shouldRequireFailureOf: og) { return true }
        if let d = o.record.delegate, d.gestureRecognizer(og, shouldBeRequiredToFailBy: wg) { return true }
        return false
    }

    /// A recognizer `t` must wait for: one it requires to fail that is possible and tracking.
    private func mustWait(_ t: Tracked) -> GestureRecognizer? {
        let g = t.recognizer
        for weakRef in t.record.failureRequirements {
            if let o = weakRef.recognizer, let r = o.tracking, r.isLive, r.state == .possible, r.isInSequence { return o }
        }
        let delegate = t.record.delegate
        var found: GestureRecognizer?
        forEachOther(of: t) { o in
            let og = o.recognizer
            let r = o.record
            guard og !== g && r.isLive && r.state == .possible && r.isInSequence else { return true }
            if let d = delegate, d.gestureRecognizer(g, shouldRequireFailureOf: og) {
                found = og
                return false
            }
            if let d = r.delegate, d.gestureRecognizer(og, shouldBeRequiredToFailBy: g) {
                found = og
                return false
            }
            return true
        }
        return found
    }

    /// G10: the delegate, the recognizer's view and each touched view must agree.
    private func shouldBegin(_ t: Tracked) -> Bool {
        let g = t.recognizer
        if let d = t.record.delegate, !d.gestureRecognizerShouldBegin(g) { return false }
        guard t.record.hasView, let view = t.record.view else { return false }
        if !view.gestureRecognizerShouldBegin(g) { return false }
        let sequence = t.record.sequenceTouches
        if sequence.count == 1 {
            guard let v = sequence[0].view, v !== view else { return true }
            return v.gestureRecognizerShouldBegin(g)
        }
        var asked: [View] = [view]
        for touch in sequence {
            guard let v = touch.view, !asked.contains(where: { $0 === v }) else { continue }
            asked.append(v)
            if !v.gestureRecognizerShouldBegin(g) { return false }
        }
        return true
    }

    // MARK: - Bookkeeping

    private func activate(_ t: Tracked) {
        if !t.record.isActive {
            t.record.isActive = true
            active.append(t)
        }
    }

    /// G5: back to `.possible`, the gesture's touches and deadlines forgotten, `reset()` run.
    private func resetRecognizer(_ t: Tracked) {
        let g = t.recognizer
        let from = t.record.state
        if t.record.pendingState != nil { unwait(t) }
        t.record.cancelDeadlines()
        t.record.state = .possible
        note(t, g.transitionText(from, .possible))
        t.record.sequenceTouches.emptyKeepingCapacity()  // its buffer serves the next gesture
        g.reset()
    }
}

/// A queued state change or retry of `GestureEngine` (its `work` list, Storage.swift).
enum GestureEngineWork {
    case set(Tracked, GestureRecognizer.State)
    case retry(Tracked)
}
