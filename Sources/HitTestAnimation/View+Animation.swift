import HitTestCore

// UIView's animation API on simulated time (API.md "Animation", SEMANTICS section 11).

extension View {
    // MARK: - Block animations

    /// Animates the changes made in `animations` (`animateWithDuration:delay:options:animations:completion:`).
    ///
    /// The model values change at once (what the getters return and hit testing uses, A1, A15);
    /// the presentation moves from the old to the new values over `duration` seconds after
    /// `delay`, on the clock of the application of the first animated view, with the curve of
    /// `options` (A2, A4, A5). Unless `.allowUserInteraction`, the animated views are not hit
    /// until the animation ends (A14). `completion` runs exactly once: with true when the clock
    /// reaches the end, with false when the animations are removed first (A6, A7); before this
    /// returns when nothing animates (A12, A13, A20).
    public static func animate(
        withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
        animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil
    ) {
        runBlock(duration: duration, delay: delay, options: options, timing: .curve(options.curve),
                 animations: animations, completion: completion)
    }

    /// `animate(withDuration:delay:options:animations:completion:)` with no delay, the default
    /// options (easeInOut) and no completion.
    public static func animate(withDuration duration: Double, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// `animate(withDuration:delay:options:animations:completion:)` with no delay and the
    /// default options (easeInOut).
    public static func animate(
        withDuration duration: Double, animations: @escaping () -> Void, completion: ((Bool) -> Void)?
    ) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// A block animation on a damped spring (SEMANTICS A10): it lasts exactly `duration`; the
    /// fraction covered at t is 1 − s(t) with s(0) = 1 and s′(0) = −`velocity` (total distances
    /// per second); `dampingRatio` is clamped to [0.01, 1] and may overshoot below 1.
    public static func animate(
        withDuration duration: Double, delay: Double, usingSpringWithDamping dampingRatio: Double,
        initialSpringVelocity velocity: Double, options: AnimationOptions,
        animations: @escaping () -> Void, completion: ((Bool) -> Void)?
    ) {
        precondition(dampingRatio.isFinite && velocity.isFinite, "View.animate: spring damping and velocity must be finite")
        runBlock(duration: duration, delay: delay, options: options,
                 timing: .spring(damping: dampingRatio, velocity: velocity, duration: duration),
                 animations: animations, completion: completion)
    }

    /// A keyframe animation (SEMANTICS A18): inside `animations`, each
    /// `addKeyframe(withRelativeStartTime:relativeDuration:animations:)` animates its changes
    /// over its part of the timeline, linearly between keyframe values; the timeline's curve is
    /// that of `options` (default easeInOut). Changes made outside any keyframe span the whole
    /// timeline. [ours]
    public static func animateKeyframes(
        withDuration duration: Double, delay: Double, options: AnimationOptions,
        animations: @escaping () -> Void, completion: ((Bool) -> Void)?
    ) {
        runBlock(duration: duration, delay: delay, options: options, timing: .curve(options.curve),
                 keyframes: true, animations: animations, completion: completion)
    }

    /// One keyframe of the enclosing `animateKeyframes` block: its changes animate over
    /// [start, start + duration] (fractions of the block's duration). Outside a keyframe
    /// block, `animations` runs and its changes belong to whatever block is open. [ours]
    public static func addKeyframe(
        withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
        animations: @escaping () -> Void
    ) {
        let context = AnimationContext.current
        guard let block = context.stack.last, block.group.isKeyframes else {
            animations()
            return
        }
        precondition(
            frameStartTime.isFinite && frameDuration.isFinite && frameDuration >= 0,
            "View.addKeyframe: start \(frameStartTime) and duration \(frameDuration) must be finite, duration ≥ 0")
        let saved = block.keyframeWindow
        block.keyframeWindow = (frameStartTime, frameStartTime + frameDuration)
        animations()
        block.keyframeWindow = saved
    }

    // MARK: - Transitions

    /// A transition of `view`'s content (SEMANTICS A18b): the changes of `animations` apply at
    /// once (nothing is interpolated); `view` animates for `duration` (so, without
    /// `.allowUserInteraction`, it is not hit meanwhile, A14) and `completion` runs at the end.
    public static func transition(
        with view: View, duration: Double, options: AnimationOptions,
        animations: (() -> Void)?, completion: ((Bool) -> Void)?
    ) {
        let context = AnimationContext.current
        let saved = context.enabled
        context.enabled = false
        animations?()
        context.enabled = saved
        runTransition(on: view, duration: duration, options: options, completion: completion)
    }

    /// Replaces `fromView` by `toView` (SEMANTICS A18b): at once in the model, `fromView`
    /// leaves its superview and `toView` takes its place (with `.showHideTransitionViews`,
    /// `fromView` is hidden and `toView` shown instead); the superview animates for
    /// `duration` and `completion` runs at the end. A `fromView` with no superview: nothing
    /// moves and the completion runs with true at once. [ours]
    public static func transition(
        from fromView: View, to toView: View, duration: Double, options: AnimationOptions,
        completion: ((Bool) -> Void)?
    ) {
        guard let container = fromView.superview else {
            completion?(true)
            return
        }
        if options.contains(.showHideTransitionViews) {
            fromView.isHidden = true
            toView.isHidden = false
        } else {
            let index = container.subviews.firstIndex { $0 === fromView } ?? container.subviews.count
            if toView !== fromView {
                fromView.removeFromSuperview()
                container.insertSubview(toView, at: min(index, container.subviews.count))
            }
        }
        runTransition(on: container, duration: duration, options: options, completion: completion)
    }

    // MARK: - Switching animations off

    /// Runs `body` with animations disabled (SEMANTICS A11): its changes are not animated, even
    /// inside an animation block; `areAnimationsEnabled` is false meanwhile.
    public static func performWithoutAnimation(_ body: () -> Void) {
        let context = AnimationContext.current
        let saved = context.enabled
        context.enabled = false
        body()
        context.enabled = saved
    }

    /// Whether changes in animation blocks animate on this thread (SEMANTICS A12). Per thread,
    /// as all animation state here (see ARCHITECTURE.md, "Animation"). [ours]
    public static var areAnimationsEnabled: Bool { AnimationContext.current.enabled }

    /// Enables or disables animations on this thread (SEMANTICS A12): while disabled, blocks
    /// still run their changes and completions (with true, before the call returns), and
    /// nothing animates.
    public static func setAnimationsEnabled(_ enabled: Bool) {
        AnimationContext.current.enabled = enabled
    }

    // MARK: - The older API (begin/commit)

    /// Opens an animation block of the older API (`beginAnimations:context:`), closed by
    /// `commitAnimations()`; defaults: duration 0.2 s, easeInOut, no delay (SEMANTICS A19).
    /// The setters below change the innermost open one. `context` is kept for fidelity.
    public static func beginAnimations(_ animationID: String?, context: UnsafeMutableRawPointer? = nil) {
        let ctx = AnimationContext.current
        let group = AnimationGroup(duration: 0.2, delay: 0, timing: .curve(.easeInOut))
        group.legacyID = animationID
        inherit(into: group, options: [], from: ctx)
        ctx.push(OpenAnimationBlock(group: group, isLegacy: true))
    }

    /// Closes the innermost `beginAnimations` block and starts its animations (SEMANTICS A19).
    /// Without an open begin/commit block it does nothing.
    public static func commitAnimations() {
        let ctx = AnimationContext.current
        guard let top = ctx.stack.last, top.isLegacy, let block = ctx.pop() else { return }
        commit(block)
    }

    private static func legacyGroup() -> AnimationGroup? {
        guard let top = AnimationContext.current.stack.last, top.isLegacy else { return nil }
        return top.group
    }

    /// The duration of the open begin/commit block, in seconds (`setAnimationDuration:`).
    public static func setAnimationDuration(_ duration: Double) {
        precondition(duration.isFinite, "View.setAnimationDuration: \(duration) is not finite")
        guard let group = legacyGroup() else { return }
        group.duration = duration
        if case .spring(let z, let v, _) = group.timing { group.timing = .spring(damping: z, velocity: v, duration: duration) }
    }

    /// The delay of the open begin/commit block (`setAnimationDelay:`); negative counts as 0.
    public static func setAnimationDelay(_ delay: Double) {
        precondition(delay.isFinite, "View.setAnimationDelay: \(delay) is not finite")
        legacyGroup()?.delay = max(0, delay)
    }

    /// The curve of the open begin/commit block (`setAnimationCurve:`).
    public static func setAnimationCurve(_ curve: AnimationCurve) {
        legacyGroup()?.timing = .curve(curve)
    }

    /// How many times the open begin/commit block's animations repeat (`setAnimationRepeatCount:`);
    /// 0 means once, fractions end part-way through a cycle, `.infinity` repeats forever.
    public static func setAnimationRepeatCount(_ repeatCount: Float) {
        precondition(!repeatCount.isNaN && repeatCount >= 0, "View.setAnimationRepeatCount: \(repeatCount) is not a count")
        legacyGroup()?.repeatCount = repeatCount == 0 ? 1 : Double(repeatCount)
    }

    /// Whether each cycle of the open begin/commit block runs forward then back
    /// (`setAnimationRepeatAutoreverses:`).
    public static func setAnimationRepeatAutoreverses(_ repeatAutoreverses: Bool) {
        legacyGroup()?.autoreverses = repeatAutoreverses
    }

    /// Whether the open begin/commit block starts from the values shown now
    /// (`setAnimationBeginsFromCurrentState:`); applies to changes made after the call.
    public static func setAnimationBeginsFromCurrentState(_ fromCurrentState: Bool) {
        legacyGroup()?.beginFromCurrentState = fromCurrentState
    }

    /// The `animationWillStart:context:` selector as a closure, given the animation id: it runs
    /// when the animations start (at commit, or when the delay has passed). [ours for the time]
    public static func setAnimationWillStart(_ handler: ((String?) -> Void)?) {
        legacyGroup()?.willStart = handler
    }

    /// The `animationDidStop:finished:context:` selector as a closure, given the animation id
    /// and the finished flag; runs when the block ends, as a completion (SEMANTICS A6, A19).
    public static func setAnimationDidStop(_ handler: ((String?, Bool) -> Void)?) {
        legacyGroup()?.didStop = handler
    }

    // MARK: - The engine's entry points

    /// Nested blocks take the enclosing block's duration and timing unless overridden (A17).
    private static func inherit(into group: AnimationGroup, options: AnimationOptions, from context: AnimationContext) {
        guard context.enabled, let outer = context.stack.last?.group else { return }
        if !options.contains(.overrideInheritedDuration) { group.duration = outer.duration }
        if !options.contains(.overrideInheritedCurve) {
            group.timing = outer.timing
            if case .spring(let z, let v, _) = outer.timing {
                group.timing = .spring(damping: z, velocity: v, duration: group.duration)
            }
        }
    }

    private static func runBlock(
        duration: Double, delay: Double, options: AnimationOptions, timing: AnimationTiming,
        keyframes: Bool = false, animations: () -> Void, completion: ((Bool) -> Void)?
    ) {
        precondition(duration.isFinite && delay.isFinite, "View.animate: duration \(duration) and delay \(delay) must be finite")
        let context = AnimationContext.current
        // A negative delay counts as none. [ours]
        let group = AnimationGroup(duration: duration, delay: max(0, delay), timing: timing)
        group.isKeyframes = keyframes
        group.completion = completion
        group.repeatCount = options.contains(.repeat) ? .infinity : 1
        group.autoreverses = options.contains(.autoreverse)
        group.allowsUserInteraction = options.contains(.allowUserInteraction)
        group.beginFromCurrentState = options.contains(.beginFromCurrentState)
        inherit(into: group, options: options, from: context)
        context.push(OpenAnimationBlock(group: group, isLegacy: false))
        animations()
        // Pop this block (and any begin/commit block left open inside it, committed first).
        while let top = context.pop() {
            commit(top)
            if top.group === group { break }
        }
    }

    /// Starts the recorded animations of a closed block, or completes it at once (A12, A13,
    /// A20).
    static func commit(_ block: OpenAnimationBlock) {
        let group = block.group
        let records = block.records.filter { $0.view != nil && $0.changesValue }
        guard let clock = group.clock, !records.isEmpty, group.duration > 0, group.cycle * group.repeatCount > 0
        else {
            group.willStart?(group.legacyID)
            group.finish(finished: true)
            return
        }
        // beginFromCurrentState: older animations of the same properties stop (interrupted). [ours]
        if group.beginFromCurrentState {
            for record in records {
                guard let view = record.view, let property = record.property else { continue }
                view.interruptAnimations { $0.property == property && $0.group !== group }
            }
        }
        var byView: [(View, [RunningAnimation])] = []
        var slot: [ObjectIdentifier: Int] = [:]
        for record in records {
            guard let view = record.view else { continue }
            if record.keyframes.count > 1 {
                record.keyframes = record.keyframes.enumerated()
                    .sorted { $0.element.start != $1.element.start ? $0.element.start < $1.element.start : $0.offset < $1.offset }
                    .map(\.element)
            }
            if let i = slot[ObjectIdentifier(view)] {
                byView[i].1.append(record)
            } else {
                slot[ObjectIdentifier(view)] = byView.count
                byView.append((view, [record]))
            }
        }
        group.animations = records.map { WeakAnimation(animation: $0) }
        for (view, animations) in byView {
            view.attachAnimations(animations)
            clock.noteAnimation(about: view, group.startDetail(animations.compactMap(\.property)))
        }
        schedule(group, on: clock)
    }

    private static func schedule(_ group: AnimationGroup, on clock: any SimulatedClock) {
        if let willStart = group.willStart {
            group.willStart = nil
            if group.delay <= 0 {
                willStart(group.legacyID)
            } else {
                let id = group.legacyID
                clock.scheduleDeadline(at: group.beginTime) { willStart(id) }
            }
        }
        let end = group.endTime
        if end.isFinite {
            group.deadline = clock.scheduleDeadline(at: end) { [group] in group.finish(finished: true) }
        }
    }

    private static func runTransition(
        on view: View, duration: Double, options: AnimationOptions, completion: ((Bool) -> Void)?
    ) {
        precondition(duration.isFinite, "View.transition: duration \(duration) is not finite")
        let context = AnimationContext.current
        let group = AnimationGroup(duration: duration, delay: 0, timing: .curve(options.curve))
        group.completion = completion
        group.allowsUserInteraction = options.contains(.allowUserInteraction)
        guard context.enabled, duration > 0, let clock = view.window?.clock else {
            group.finish(finished: true)
            return
        }
        group.clock = clock
        group.callTime = clock.currentTime
        let marker = RunningAnimation(group: group, view: view, property: nil, from: .zero, to: .zero)
        group.animations = [WeakAnimation(animation: marker)]
        view.attachAnimations([marker])
        clock.noteAnimation(about: view, group.startDetail([]))
        schedule(group, on: clock)
    }
}
