import HitTestCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The animation engine: open animation blocks (per thread), the animations they leave on
// views, presentation values, and completions on the application's deadline queue.
//
// Where "the current animation context" lives: UIKit's animation state is per process and
// used from the main thread only. Here views are not `Sendable` and belong to the thread that
// uses them, so the open blocks, `areAnimationsEnabled` and the older API's pending settings
// live in a per-thread `AnimationContext` (a pthread key; created on first use, freed with the
// thread). Nothing of it is shared between threads. A block's animations then run on the
// clock of the application of its first animated view (SEMANTICS A20), like every deadline.

/// The animatable properties (SEMANTICS A3), the core's `AnimatableAttribute`. `frame`
/// animates as `center` and `bounds`.
typealias AnimatedProperty = AnimatableAttribute

extension AnimatableAttribute {
    var name: String {
        switch self {
        case .center: "center"
        case .bounds: "bounds"
        case .transform: "transform"
        case .alpha: "alpha"
        }
    }
}

/// An animatable value as up to six doubles: center (x, y), bounds (x, y, w, h), transform
/// (a, b, c, d, tx, ty), alpha. Lane arithmetic is IEEE per lane, as scalar code would be.
typealias AnimationVector = SIMD8<Double>

extension View {
    static func vector(_ p: Point) -> AnimationVector { AnimationVector(p.x, p.y, 0, 0, 0, 0, 0, 0) }
    static func vector(_ r: Rect) -> AnimationVector {
        AnimationVector(r.minX, r.minY, r.width, r.height, 0, 0, 0, 0)
    }
    static func vector(_ t: AffineTransform) -> AnimationVector { AnimationVector(t.a, t.b, t.c, t.d, t.tx, t.ty, 0, 0) }
    static func vector(_ a: Double) -> AnimationVector { AnimationVector(a, 0, 0, 0, 0, 0, 0, 0) }

    /// The model value of `property` as a vector.
    func modelVector(_ property: AnimatedProperty) -> AnimationVector {
        switch property {
        case .center: View.vector(center)
        case .bounds: View.vector(bounds)
        case .transform: View.vector(transform)
        case .alpha: View.vector(alpha)
        }
    }
}

/// One call of an animation API (a block, a begin/commit pair, a transition): its timing, its
/// completion, and how many of its animations are still on views. Its completion runs exactly
/// once (SEMANTICS A6, A7): from its deadline with true, or with false when its last
/// animation is removed early.
final class AnimationGroup {
    weak var clock: (any SimulatedClock)?
    /// When the block was called (its clock's `currentTime` then).
    var callTime: Double = 0
    var delay: Double
    var duration: Double
    var timing: AnimationTiming
    /// How many cycles; `.infinity` for `.repeat`.
    var repeatCount: Double = 1
    var autoreverses = false
    var allowsUserInteraction = false
    var beginFromCurrentState = false
    var isKeyframes = false

    var completion: ((Bool) -> Void)?
    /// The older API's selectors as closures, and its animation id.
    var legacyID: String?
    var willStart: ((String?) -> Void)?
    var didStop: ((String?, Bool) -> Void)?

    /// The group's animations (held by their views; weak here so a view's death frees them).
    var animations: [WeakAnimation] = []
    /// Set when one of its animations was removed before its end.
    var interrupted = false
    private(set) var isDone = false
    var deadline: ClockDeadline?

    init(duration: Double, delay: Double, timing: AnimationTiming) {
        self.duration = duration
        self.delay = delay
        self.timing = timing
    }

    var beginTime: Double { callTime + delay }
    var cycle: Double { duration * (autoreverses ? 2 : 1) }
    var endTime: Double { repeatCount.isInfinite ? .infinity : beginTime + cycle * repeatCount }

    /// The curved fraction (0 = from, 1 = to) at `time`, or nil once the group has ended.
    func fraction(at time: Double) -> Double? {
        if time >= endTime { return nil }
        let local = time - beginTime
        if local <= 0 || duration <= 0 { return timing.fraction(0) }
        let position = local.truncatingRemainder(dividingBy: cycle)
        let x = autoreverses && position >= duration ? (cycle - position) / duration : position / duration
        return timing.fraction(x)
    }

    /// How many of its animations are on views now.
    var attachedCount = 0
    /// Whether any of its animations is still on a view.
    var hasAttachedAnimations: Bool { attachedCount > 0 }

    /// Ends the group: its animations leave their views, the log notes it, the completion
    /// runs (true only when nothing was interrupted and `finished`). At most once.
    func finish(finished: Bool) {
        guard !isDone else { return }
        isDone = true
        if let deadline, let clock { clock.cancelDeadline(deadline) }
        deadline = nil
        let ok = finished && !interrupted
        var noted = Set<ObjectIdentifier>()
        for weak in animations {
            guard let animation = weak.animation, let view = animation.view,
                noted.insert(ObjectIdentifier(view)).inserted
            else { continue }
            view.detachAnimations { $0.group === self }
            clock?.noteAnimation(about: view, "complete \(ok)")
        }
        animations = []
        let completion = self.completion
        let didStop = self.didStop
        self.completion = nil
        self.didStop = nil
        self.willStart = nil
        completion?(ok)
        didStop?(legacyID, ok)
    }

    /// `start …` text for the log.
    func startDetail(_ properties: [AnimatedProperty]) -> String {
        let names = properties.isEmpty ? "transition" : properties.map(\.name).joined(separator: ",")
        let how: String
        switch timing {
        case .curve(let c): how = "\(c)"
        case .spring(let z, let v, _): how = "spring damping \(z) velocity \(v)"
        }
        var text = "start \(names) duration \(duration) delay \(delay) \(isKeyframes ? "keyframes " : "")\(how)"
        if repeatCount.isInfinite { text += " repeat" } else if repeatCount != 1 { text += " repeatCount \(repeatCount)" }
        if autoreverses { text += " autoreverse" }
        if allowsUserInteraction { text += " allowUserInteraction" }
        return text
    }
}

/// A weak reference to an animation, for its group.
struct WeakAnimation {
    weak var animation: RunningAnimation?
}

/// One property of one view animated by one group: `from` → `to`, or a keyframe track; or,
/// with `property` nil, the marker a transition leaves on its container view.
final class RunningAnimation {
    let group: AnimationGroup
    weak var view: View?
    let property: AnimatedProperty?
    var from: AnimationVector
    var to: AnimationVector
    /// Keyframes: (relative start, relative end, value), in the order added while recording,
    /// sorted by start (stably) at commit. Empty: from → to.
    var keyframes: [(start: Double, end: Double, value: AnimationVector)] = []
    var isAttached = false

    init(group: AnimationGroup, view: View, property: AnimatedProperty?, from: AnimationVector, to: AnimationVector) {
        self.group = group
        self.view = view
        self.property = property
        self.from = from
        self.to = to
    }

    /// The value shown at curved fraction `u` (SEMANTICS A2, A18).
    func value(at u: Double) -> AnimationVector {
        if keyframes.isEmpty { return from + (to - from) * u }
        var value = from
        for frame in keyframes {
            if u >= frame.end {
                value = frame.value
            } else if u > frame.start {
                let w = (u - frame.start) / (frame.end - frame.start)
                return value + (frame.value - value) * w
            } else {
                break
            }
        }
        return value
    }

    /// Whether it changes anything.
    var changesValue: Bool {
        if keyframes.isEmpty { return from != to }
        return keyframes.contains { $0.value != from }
    }
}

/// The animations on one view (one optional reference per view; nil for a view never animated).
final class ViewAnimationState {
    var animations: [RunningAnimation] = []
}

// MARK: - The per-thread context

/// An animation block being recorded: its group, and the changes made so far, one animation
/// per view and property.
final class OpenAnimationBlock {
    let group: AnimationGroup
    let isLegacy: Bool
    /// The relative window of the `addKeyframe` running now, if any.
    var keyframeWindow: (start: Double, end: Double)?
    var records: [RunningAnimation] = []
    var index: [RecordKey: Int] = [:]

    struct RecordKey: Hashable {
        let view: ObjectIdentifier
        let property: AnimatedProperty
    }

    init(group: AnimationGroup, isLegacy: Bool) {
        self.group = group
        self.isLegacy = isLegacy
    }
}

/// The animation state of one thread (see the top of this file).
final class AnimationContext: ViewChangeRecorder {
    /// `areAnimationsEnabled`.
    var enabled = true
    /// The blocks open now, innermost last.
    var stack: [OpenAnimationBlock] = []

    /// This thread's context, created on first use.
    /// (The thread-local slot is `AnimationContextSlot`, Storage.swift.)
    static var current: AnimationContext {
        if let context = AnimationContextSlot.context { return context }
        let context = AnimationContext()
        AnimationContextSlot.install(context)
        return context
    }

    /// Opens a block; the first one installs this context as the thread's change recorder,
    /// so that the core's setters report to it.
    func push(_ block: OpenAnimationBlock) {
        stack.append(block)
        if stack.count == 1 { ChangeRecording.install(self) }
    }

    /// Closes the innermost block; the last one removes the thread's change recorder.
    func pop() -> OpenAnimationBlock? {
        let block = stack.popLast()
        if stack.isEmpty { ChangeRecording.install(nil) }
        return block
    }

    /// The core's report of a change made inside an open block (the seam's entry point).
    func record(_ view: View, _ attribute: AnimatableAttribute, old: AnimatableValue) {
        let vector: AnimationVector
        switch old {
        case .point(let p): vector = View.vector(p)
        case .rect(let r): vector = View.vector(r)
        case .transform(let t): vector = View.vector(t)
        case .scalar(let a): vector = View.vector(a)
        }
        record(view, attribute, vector: vector)
    }

    /// A change of `property` of `view` (whose old model value was `old`) inside the innermost
    /// open block.
    func record(_ view: View, _ property: AnimatedProperty, vector old: AnimationVector) {
        guard enabled, let block = stack.last else { return }
        // SEMANTICS A20: a view with no clock does not animate.
        guard let clock = view.window?.clock else { return }
        let group = block.group
        if group.clock == nil {
            group.clock = clock
            group.callTime = clock.currentTime
        }
        let new = view.modelVector(property)
        let key = OpenAnimationBlock.RecordKey(view: ObjectIdentifier(view), property: property)
        if let i = block.index[key] {
            let animation = block.records[i]
            animation.to = new
            if group.isKeyframes {
                let window = block.keyframeWindow ?? (0, 1)
                if let last = animation.keyframes.last, last.start == window.start, last.end == window.end {
                    animation.keyframes[animation.keyframes.count - 1].value = new
                } else {
                    animation.keyframes.append((window.start, window.end, new))
                }
            }
            return
        }
        let now = group.clock?.currentTime ?? clock.currentTime
        let from = group.beginFromCurrentState ? view.presentedVector(property, model: old, at: now) : old
        let animation = RunningAnimation(group: group, view: view, property: property, from: from, to: new)
        if group.isKeyframes {
            let window = block.keyframeWindow ?? (0, 1)
            animation.keyframes = [(window.start, window.end, new)]
        }
        block.index[key] = block.records.count
        block.records.append(animation)
    }
}


// MARK: - Views: animations, presentation, interaction

extension View {
    /// Adds animations to this view (their group's settings are final).
    func attachAnimations(_ animations: [RunningAnimation]) {
        guard !animations.isEmpty else { return }
        let wasBlocked = isInteractionBlockedByAnimation
        let state = animationState ?? ViewAnimationState()
        animationState = state
        for animation in animations {
            animation.isAttached = true
            animation.group.attachedCount += 1
            state.animations.append(animation)
        }
        if isInteractionBlockedByAnimation != wasBlocked { setAnimationBlocksInteraction(!wasBlocked) }
    }

    /// Removes the animations matching `predicate`; returns them.
    @discardableResult
    func detachAnimations(where predicate: (RunningAnimation) -> Bool) -> [RunningAnimation] {
        guard let state = animationState, !state.animations.isEmpty else { return [] }
        let wasBlocked = isInteractionBlockedByAnimation
        var removed: [RunningAnimation] = []
        state.animations.removeAll { a in
            guard predicate(a) else { return false }
            a.isAttached = false
            a.group.attachedCount -= 1
            removed.append(a)
            return true
        }
        if state.animations.isEmpty { animationState = nil }
        if isInteractionBlockedByAnimation != wasBlocked { setAnimationBlocksInteraction(!wasBlocked) }
        return removed
    }

    /// Removes animations early: their groups are interrupted, and each group left with no
    /// animation completes with false now (SEMANTICS A7).
    func interruptAnimations(where predicate: (RunningAnimation) -> Bool) {
        let removed = detachAnimations(where: predicate)
        var groups: [AnimationGroup] = []
        var seen = Set<ObjectIdentifier>()
        for a in removed where seen.insert(ObjectIdentifier(a.group)).inserted { groups.append(a.group) }
        for group in groups {
            group.interrupted = true
            if !group.hasAttachedAnimations { group.finish(finished: false) }
        }
    }

    /// The presented value of `property` at `time` when the model value is `model`: the model
    /// plus, for each running animation of it, its value minus its target (additive, as iOS 8+;
    /// with one animation whose target is the model, exactly its value).
    func presentedVector(_ property: AnimatedProperty, model: AnimationVector, at time: Double) -> AnimationVector {
        guard let state = animationState else { return model }
        var single: AnimationVector?
        var sum = model
        var count = 0
        for a in state.animations where a.property == property {
            guard let u = a.group.fraction(at: time) else { continue }
            let v = a.value(at: u)
            count += 1
            single = a.to == model ? v : nil
            sum += v - a.to
        }
        if count == 1, let single { return single }
        return sum
    }

    /// Whether this view is animating now from a block without `.allowUserInteraction`, which
    /// makes hit testing treat it as if `isUserInteractionEnabled` were false (SEMANTICS A14).
    /// `isUserInteractionEnabled` itself keeps its value.
    public var isInteractionBlockedByAnimation: Bool {
        guard let state = animationState else { return false }
        return state.animations.contains { !$0.group.allowsUserInteraction }
    }

    /// True from an animate call that animates this view until its last animation ends or is
    /// removed (SEMANTICS A16).
    public var isAnimating: Bool { !(animationState?.animations.isEmpty ?? true) }

    /// Stops every animation of this view (`CALayer.removeAllAnimations`): the presentation
    /// jumps to the model, the view stops animating, and each block left with no animation runs
    /// its completion with false before this returns (SEMANTICS A7). Subviews keep theirs.
    public func removeAllAnimations() {
        interruptAnimations { _ in true }
    }

    /// The values shown at `time` on the clock of the view's animations (SEMANTICS A2).
    /// Animations that exist now are evaluated at `time` (a time before one started shows its
    /// old value; one after it ended shows the model); earlier history is not kept. [ours]
    public func presentation(at time: Double) -> Presentation {
        guard animationState != nil else {
            return Presentation(frame: frame, bounds: bounds, center: center, transform: transform, alpha: alpha)
        }
        let c = presentedVector(.center, model: View.vector(center), at: time)
        let b = presentedVector(.bounds, model: View.vector(bounds), at: time)
        let t = presentedVector(.transform, model: View.vector(transform), at: time)
        let a = presentedVector(.alpha, model: View.vector(alpha), at: time)
        let pc = Point(x: c[0], y: c[1])
        let pb = Rect(x: b[0], y: b[1], width: b[2], height: b[3])
        let pt = AffineTransform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5])
        return Presentation(
            frame: View.frame(center: pc, bounds: pb, transform: pt, anchorPoint: anchorPoint),
            bounds: pb, center: pc, transform: pt, alpha: a[0])
    }

    /// The values shown now (`CALayer.presentation()`): `presentation(at:)` at the current time
    /// of the application of the view's window; the model values when the view has no clock.
    public var presentation: Presentation {
        presentation(at: animationClockTime)
    }

    /// The current time of the view's clock: its window's application, else (a view that left
    /// its window while animating) the clock of its first animation, else 0.
    var animationClockTime: Double {
        window?.clock?.currentTime
            ?? animationState?.animations.lazy.compactMap { $0.group.clock?.currentTime }.first ?? 0
    }

    /// The frame from centre, bounds, transform and anchor point, with `frame`'s arithmetic.
    static func frame(center: Point, bounds: Rect, transform: AffineTransform, anchorPoint: Point) -> Rect {
        if transform.isIdentity {
            return Rect(
                x: center.x - anchorPoint.x * bounds.width, y: center.y - anchorPoint.y * bounds.height,
                width: bounds.width, height: bounds.height)
        }
        let ox = bounds.minX + anchorPoint.x * bounds.width
        let oy = bounds.minY + anchorPoint.y * bounds.height
        let t = transform
        let corners = bounds.corners.map { p -> Point in
            let dx = p.x - ox
            let dy = p.y - oy
            return Point(x: center.x + (t.a * dx + t.c * dy + t.tx), y: center.y + (t.b * dx + t.d * dy + t.ty))
        }
        return Rect.boundingBox(of: corners)
    }
}
