import HitTestCore

/// The first stage of the input pipeline (tracker → router → dispatcher): the touches that are
/// down and the state fixed for each when it begins.
///
/// It turns each step's `TouchChange`s into `Touch` updates, hit-tests the touches that begin
/// (all the new touches of a step in one bulk hit test per window, front to back), applies
/// UIKit's rules at `.began` (SEMANTICS 8.3, 8.4: multiple and exclusive touch), counts taps,
/// and asks the router to cancel touches the system ends (a view left its window, a finger
/// began again). It calls no touch method itself.
final class TouchTracker: TouchTrackerStorage {
    /// The application's delivery log.
    let recorder: DeliveryRecorder

    /// What one step changed.
    struct Step {
        /// The touches that changed, in input order (a finger that began again: the new touch).
        var changed: [Touch] = []
        /// The touches that began, in input order.
        var began: [Touch] = []
        /// For each of `began`: the index of the only window it may begin in.
        var confinedTo: [Int?] = []
    }

    /// The tracker of the application whose log is `recorder`.
    init(recorder: DeliveryRecorder) {
        self.recorder = recorder
    }

    /// No touch is down.
    var isIdle: Bool { active.isEmpty }

    /// Forgets the last tap, so the next touch has `tapCount` 1.
    func forgetTaps() { lastTap = nil }

    /// Applies one step's changes at `time`: new touches (hit-tested, with UIKit's began rules
    /// applied), moved, ended and cancelled ones. Changes for a finger that is not down are
    /// logged as dropped.
    func apply(_ changes: [TouchChange], at time: Double) -> Step {
        cancelTouchesWhoseViewLeft(at: time)
        var step = Step()
        // The list of the last step, if it was given back (`recycle`): no allocation.
        swap(&step.changed, &spareChanged)
        step.changed.emptyKeepingCapacity()
        for change in changes {
            if change.phase == .began {
                if let old = touch(withID: change.id) {
                    // The same finger cannot begin twice: the old touch is cancelled first.
                    application!.router.cancelBySystem(old, at: change.timestamp, reason: nil)
                    remove(old)
                }
                let touch = Touch(
                    identifier: change.id, phase: .began, location: change.location,
                    timestamp: change.timestamp, tapCount: tapCount(at: change.location, time: change.timestamp))
                byIdentifier[change.id] = touch
                active.append(touch)
                step.began.append(touch)
                step.confinedTo.append(change.windowIndex)
                step.changed.append(touch)
            } else if let touch = touch(withID: change.id) {
                touch.previousScreenLocation = touch.screenLocation
                touch.screenLocation = change.location
                touch.phase = change.phase
                touch.timestamp = change.timestamp
                step.changed.append(touch)
            } else {
                recorder.record(
                    .dropped, change.phase, touch: change.id, by: application!, reason: "no such touch")
            }
        }
        if step.began.isEmpty { return step }  // moves and lifts (most steps): no rules to apply
        assignViews(step)
        if step.began.count == 1 {
            // One new touch (most steps): it is weighed against every other touch down.
            applyBeganRules(step.began[0])
            return step
        }
        // In input order: a touch is weighed against those already down, and those of this
        // step that came before it, through a table of what they track (linear in the number
        // of touches, however many come down together).
        var tracked = TrackedTouches()
        let newTouches = Set(step.began.map { ObjectIdentifier($0) })
        for touch in active where !newTouches.contains(ObjectIdentifier(touch)) { tracked.add(touch) }
        for touch in step.began {
            applyBeganRules(touch, tracked: tracked)
            tracked.add(touch)
        }
        return step
    }

    /// What the touches that count for UIKit's began rules track, per window: how many touches
    /// each view has, and the exclusive views among them in the order of their first touch.
    /// A touch counts while it is delivered, has a view, and has not ended or been cancelled.
    private struct TrackedTouches {
        struct Key: Hashable {
            let window: ObjectIdentifier
            let view: ObjectIdentifier
        }
        /// Touches per (window, view).
        var perView: [Key: Int] = [:]
        /// Touches per window.
        var perWindow: [ObjectIdentifier: Int] = [:]
        /// Per window, each exclusive view with a touch, in the order of its first touch.
        var exclusive: [ObjectIdentifier: [View]] = [:]

        static func counts(_ touch: Touch) -> Bool {
            touch.isDelivered && touch.view != nil && touch.window != nil && touch.phase != .ended && touch.phase != .cancelled
        }

        mutating func add(_ touch: Touch) {
            guard Self.counts(touch), let view = touch.view, let window = touch.window else { return }
            let w = ObjectIdentifier(window)
            let key = Key(window: w, view: ObjectIdentifier(view))
            let before = perView[key, default: 0]
            perView[key] = before + 1
            perWindow[w, default: 0] += 1
            if before == 0, view.isExclusiveTouch { exclusive[w, default: []].append(view) }
        }

        func count(_ view: View, in window: Window) -> Int {
            perView[Key(window: ObjectIdentifier(window), view: ObjectIdentifier(view))] ?? 0
        }
    }


    /// Takes back a step's `changed` list once the step is over (it is reused, emptied, so it
    /// keeps no touch alive).
    func recycle(_ changed: inout [Touch]) {
        changed.emptyKeepingCapacity()
        swap(&changed, &spareChanged)
    }

    /// Marks the touches down that did not change as stationary.
    func markStationary(except changed: [Touch]) {
        guard !active.isEmpty else { return }
        if active.count <= 8 {
            // A few fingers: a scan beats building a set.
            for touch in active where !changed.contains(where: { $0 === touch }) { touch.phase = .stationary }
            return
        }
        let changedIDs = Set(changed.map { ObjectIdentifier($0) })
        for touch in active where !changedIDs.contains(ObjectIdentifier(touch)) {
            touch.phase = .stationary
        }
    }

    /// Lets go of the touches that ended or were cancelled in this step.
    func retire(_ changed: [Touch]) {
        var removed = 0
        for touch in changed where touch.phase == .ended || touch.phase == .cancelled {
            if self.touch(withID: touch.identifier) === touch {
                if changed.count <= 8 {
                    remove(touch)
                } else {
                    // Many at once: out of the table now, out of `active` in one pass below.
                    byIdentifier[touch.identifier] = nil
                    removed += 1
                }
            }
            if touch.phase == .ended { lastTap = (touch.screenLocation, touch.timestamp, touch.tapCount) }
        }
        if removed > 0 { active.removeAll { byIdentifier[$0.identifier] !== $0 } }
    }

    /// The touch down with identifier `id`: `byIdentifier[id]`, found by a scan of `active` when
    /// few fingers are down (no hashing per step; `active` holds exactly the touches of
    /// `byIdentifier`, one per identifier).
    @inline(__always) private func touch(withID id: Int) -> Touch? {
        if active.count <= 8 {
            for touch in active where touch.identifier == id { return touch }
            return nil
        }
        return byIdentifier[id]
    }

    private func remove(_ touch: Touch) {
        byIdentifier[touch.identifier] = nil
        if let i = active.firstIndex(where: { $0 === touch }) { active.remove(at: i) }
    }

    /// One bulk hit test per window for the touches that began, front to back.
    private func assignViews(_ step: Step) {
        guard !step.began.isEmpty else { return }
        let windows = application!.windows
        if step.began.count == 1 {
            // One new touch (most steps): what the loop below does for it, without its lists.
            let touch = step.began[0]
            let confined = step.confinedTo[0]
            for window in windows.reversed() {
                if let index = confined, !(windows.indices.contains(index) && windows[index] === window) { continue }
                if let hit = window.hitTest(window.fromSuperview(touch.screenLocation)) {
                    touch.window = window
                    touch.view = hit
                    return
                }
            }
            touch.isDelivered = false
            touch.ignoredBecause = "no view hit"
            recorder.record(
                .dropped, .began, touch: touch.identifier, by: application!, reason: "no view hit")
            return
        }
        var pending = Array(zip(step.began, step.confinedTo))
        for window in windows.reversed() where !pending.isEmpty {
            let candidates = pending.filter { _, confined in
                guard let index = confined else { return true }
                return windows.indices.contains(index) && windows[index] === window
            }
            if candidates.isEmpty { continue }
            // One touch (most steps): the single-point query, which gives the bulk one's answer.
            let hits =
                candidates.count == 1
                ? [window.hitTest(window.fromSuperview(candidates[0].0.screenLocation))]
                : window.hitTest(candidates.map { window.fromSuperview($0.0.screenLocation) })
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
            recorder.record(
                .dropped, .began, touch: touch.identifier, by: application!, reason: "no view hit")
        }
    }

    /// UIKit's rules at `.began` (SEMANTICS 8.3, 8.4) for a touch weighed against every other
    /// touch down (one new touch in the step).
    private func applyBeganRules(_ touch: Touch) {
        guard touch.view != nil, let window = touch.window, touch.isDelivered else { return }
        var tracked = TrackedTouches()
        for other in active where other !== touch && other.window === window { tracked.add(other) }
        applyBeganRules(touch, tracked: tracked)
    }

    /// UIKit's rules at `.began` for a touch weighed against the touches in `tracked`: a view
    /// that is not `isMultipleTouchEnabled` takes no second touch; while an exclusive view
    /// tracks a touch no other view of the window takes one; an exclusive view takes none while
    /// another view tracks one.
    private func applyBeganRules(_ touch: Touch, tracked: TrackedTouches) {
        guard let view = touch.view, let window = touch.window, touch.isDelivered else { return }
        let w = ObjectIdentifier(window)
        let own = tracked.count(view, in: window)
        var reason: String?
        if !view.isMultipleTouchEnabled, own > 0 {
            reason = "isMultipleTouchEnabled is false and the view tracks a touch"
        } else if let exclusive = tracked.exclusive[w]?.first(where: { $0 !== view }) {
            reason = "\(exclusive.debugName) is exclusive and tracks a touch"
        } else if view.isExclusiveTouch, tracked.perWindow[w, default: 0] > own {
            reason = "the view is exclusive and another view tracks a touch"
        }
        if let reason {
            touch.isDelivered = false
            touch.ignoredBecause = reason
            recorder.record(.ignored, .began, touch: touch.identifier, by: view, reason: reason)
        }
    }

    private func cancelTouchesWhoseViewLeft(at time: Double) {
        let list = active  // a copy: a cancellation changes `active`
        for k in list.indices {
            // The test reads fields only (the list holds the touch, the touch its view and
            // window): unretained. A touch to cancel is held strongly for the call.
            let left = withBorrowed(list[k]) { touch -> Bool in
                guard touch.isDelivered || touch.route.isWatched, let view = touch.view else { return false }
                return !view.isShown(in: touch.window)
            }
            if left { application!.router.cancelBySystem(list[k], at: time, reason: "its view left the window") }
        }
    }

    /// Taps within 0.35 s and 45 pt of the previous tap's end count up (`tapCount`). [ours]
    private func tapCount(at location: Point, time: Double) -> Int {
        guard let last = lastTap, time - last.time <= 0.35,
            abs(location.x - last.location.x) <= 45, abs(location.y - last.location.y) <= 45
        else { return 1 }
        return last.count + 1
    }
}
