import HitTestCore

import Foundation

/// The scroll view's delegate (`UIScrollViewDelegate`). Every method has an empty default, so a
/// conformer implements only what it needs.
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed (S8): by a drag, a deceleration tick, an animation tick or a
    /// direct assignment.
    func scrollViewDidScroll(_ s: ScrollView)
    /// The pan began: dragging starts.
    func scrollViewWillBeginDragging(_ s: ScrollView)
    /// The finger lifted; `willDecelerate` says whether the view goes on moving.
    func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate: Bool)
    /// The motion after a drag stopped.
    func scrollViewDidEndDecelerating(_ s: ScrollView)
    /// An animation of `setContentOffset(_:animated:)` finished (UIKit's
    /// `scrollViewDidEndScrollingAnimation`).
    func scrollViewDidEndScrollingAnimation(_ s: ScrollView)
}

extension ScrollViewDelegate {
    /// Does nothing.
    public func scrollViewDidScroll(_ s: ScrollView) {}
    /// Does nothing.
    public func scrollViewWillBeginDragging(_ s: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate: Bool) {}
    /// Does nothing.
    public func scrollViewDidEndDecelerating(_ s: ScrollView) {}
    /// Does nothing.
    public func scrollViewDidEndScrollingAnimation(_ s: ScrollView) {}
}

/// A view whose bounds origin moves to show a larger content (`UIScrollView`).
///
/// `contentOffset` is `bounds.origin` (S1): setting either scrolls the subviews, and hit tests
/// follow at once (a scroll is a bounds change of this one view; the C index re-derives its
/// row and nothing in the subviews' rows). Each change of the offset is logged
/// (`TouchDelivery.Kind.scrolled`, `contentOffset (x, y)`) and reported to the delegate
/// (`scrollViewDidScroll`).
///
/// Motion runs on simulated time (the application's clock, SEMANTICS G1): deceleration after a
/// flick (S7) and `setContentOffset(_:animated:)` advance in ticks of 1/60 s
/// (`ScrollView.tickInterval`, S7b), scheduled on the application's deadline queue, so they run
/// as input or `advanceTime(to:)` passes them. A scroll view that is not in an application's
/// window jumps instead. [ours]
open class ScrollView: View {
    /// The stored fields of this class, in one record: read and written in place through
    /// `scrollFields`, an internal field the optimizer proves free of overlapping accesses (no
    /// exclusivity check; HitTestInput/Storage.swift, scripts/exclusivity.sh).
    struct ScrollFields {
        var contentSize: Size = .zero
        var contentInset: EdgeInsets = .zero
        var isScrollEnabled: Bool = true
        var isPagingEnabled: Bool = false
        var bounces: Bool = true
        var alwaysBounceVertical: Bool = false
        var alwaysBounceHorizontal: Bool = false
        var decelerationRate: DecelerationRate = .normal
        var delaysContentTouches: Bool = true
        var canCancelContentTouches: Bool = true
        weak var delegate: ScrollViewDelegate?
        /// A delegate was set once: until then `didScroll` skips the weak load (a weak load of
        /// nil still costs a runtime call per scroll).
        var hasHadDelegate = false
        var isDragging: Bool = false
        var isDecelerating: Bool = false
        /// The touch that caused the current change, for the log.
        var currentTouch: Int?
        /// The offset when the drag began.
        var dragStartOffset: Point = .zero
        /// The pan's translation (in this view's space) when the drag began.
        var dragStartTranslation: Point = .zero
        var motion: Motion?
        /// The application whose deadline queue runs `motion` (held while it runs).
        var motionApplication: Application?
        /// `log(lnRateOf)`, kept between ticks (`lnRateOf` NaN: not computed yet).
        var lnRate: Double = .nan
        var lnRateOf: Double = .nan
    }
    final var scrollFields = ScrollFields()

    /// The interval between two motion ticks: 1/60 s (S7b).
    public static let tickInterval: Double = 1.0 / 60.0
    /// How long `setContentOffset(_:animated: true)` takes, and the snap back after an
    /// overscroll or to a page: 0.3 s. [ours]
    public static let animationDuration: Double = 0.3
    /// Deceleration stops when the speed falls below this, in points per second (S7).
    public static let minimumDecelerationSpeed: Double = 1

    /// How fast a flick slows down (`UIScrollView.DecelerationRate`): the fraction of the
    /// velocity kept per millisecond.
    public struct DecelerationRate: Sendable, Hashable {
        /// The fraction of the velocity kept per millisecond, in (0, 1).
        public var rawValue: Double
        /// A rate from its raw value.
        public init(rawValue: Double) { self.rawValue = rawValue }
        /// 0.998 per ms, UIKit's default.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// 0.99 per ms.
        public static let fast = DecelerationRate(rawValue: 0.99)
        /// 0.9999 per ms, the slowest rate a scroll view takes: a flick of 10⁷ pt/s at it
        /// slows below `minimumDecelerationSpeed` within three simulated minutes, where a rate
        /// nearer 1 would keep a replay ticking for simulated hours. [ours]
        public static let slowest = DecelerationRate(rawValue: 0.9999)

        /// Whether a scroll view takes the rate: in (0, `slowest`].
        public var isValid: Bool { rawValue > 0 && rawValue <= DecelerationRate.slowest.rawValue }
    }

    /// The content offset: the point of the content shown at the view's top-left corner. It is
    /// `bounds.origin` (S1).
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            // A get and a set, not `bounds.origin = …`: the core's `modify` accessor, called from
            // another module, allocates its frame.
            var b = bounds
            b.origin = newValue
            bounds = b
        }
    }

    /// The size of the content (`contentSize`), default zero.
    /// - Precondition: finite.
    public var contentSize: Size {
        get { scrollFields.contentSize }
        set {
            requireValue(newValue.isFinite, "ScrollView.contentSize", "finite", newValue)
            scrollFields.contentSize = newValue
        }
    }

    /// Extra room around the content (`contentInset`), default zero.
    /// - Precondition: finite.
    public var contentInset: EdgeInsets {
        get { scrollFields.contentInset }
        set {
            requireValue(newValue.isFinite, "ScrollView.contentInset", "finite", newValue)
            scrollFields.contentInset = newValue
        }
    }

    /// The insets the offset limits use: `contentInset` (there are no safe areas here). [ours]
    public var adjustedContentInset: EdgeInsets { contentInset }

    /// Whether a drag scrolls (`isScrollEnabled`, default true): false disables the pan.
    public var isScrollEnabled: Bool {
        get { scrollFields.isScrollEnabled }
        set {
            scrollFields.isScrollEnabled = newValue
            scrollEnabledDidChange()
        }
    }

    /// Whether a drag ends on a multiple of the bounds size (`isPagingEnabled`, default false):
    /// at the lift the view moves to the nearest page, or to the next page in the direction of
    /// a flick faster than `pagingFlickSpeed`. [ours for the rule]
    public var isPagingEnabled: Bool {
        get { scrollFields.isPagingEnabled }
        set { scrollFields.isPagingEnabled = newValue }
    }

    /// The speed above which a flick turns the page, in points per second. [ours]
    public static let pagingFlickSpeed: Double = 300

    /// Whether a drag may pull the content past its edges (`bounces`, default true); the
    /// overshoot is half the finger's movement past the edge (S6, [ours] for the half).
    public var bounces: Bool {
        get { scrollFields.bounces }
        set { scrollFields.bounces = newValue }
    }

    /// Whether a vertical drag moves the content even when it is not taller than the view
    /// (`alwaysBounceVertical`, default false; needs `bounces`).
    public var alwaysBounceVertical: Bool {
        get { scrollFields.alwaysBounceVertical }
        set { scrollFields.alwaysBounceVertical = newValue }
    }

    /// Whether a horizontal drag moves the content even when it is not wider than the view
    /// (`alwaysBounceHorizontal`, default false; needs `bounces`).
    public var alwaysBounceHorizontal: Bool {
        get { scrollFields.alwaysBounceHorizontal }
        set { scrollFields.alwaysBounceHorizontal = newValue }
    }

    /// How fast a flick slows down (`decelerationRate`, default `.normal`).
    /// - Precondition: the rate `isValid`: in (0, `DecelerationRate.slowest`] (0.9999). [ours]
    public var decelerationRate: DecelerationRate {
        get { scrollFields.decelerationRate }
        set {
            requireValue(
                newValue.isValid, "ScrollView.decelerationRate", "in (0, \(DecelerationRate.slowest.rawValue)]", newValue.rawValue)
            scrollFields.decelerationRate = newValue
        }
    }

    /// Whether touches on the content are held for 150 ms before the content gets them
    /// (`delaysContentTouches`, default true; S2).
    public var delaysContentTouches: Bool {
        get { scrollFields.delaysContentTouches }
        set {
            scrollFields.delaysContentTouches = newValue
            delayRecognizer.delaysTouchesBegan = scrollFields.delaysContentTouches
        }
    }

    /// Whether a drag may take a touch the content has begun (`canCancelContentTouches`,
    /// default true; S4).
    public var canCancelContentTouches: Bool {
        get { scrollFields.canCancelContentTouches }
        set { scrollFields.canCancelContentTouches = newValue }
    }

    /// The delegate, held weakly.
    public var delegate: ScrollViewDelegate? {
        get { scrollFields.delegate }
        set {
            scrollFields.delegate = newValue
            if scrollFields.delegate != nil { scrollFields.hasHadDelegate = true }
        }
    }


    /// Whether a finger is on the view's content (`isTracking`): from touch down to lift,
    /// dragging or not.
    public var isTracking: Bool { delayRecognizer.numberOfTouches > 0 || isDragging }

    /// The pan that drags the content (`panGestureRecognizer`): a `PanGestureRecognizer`
    /// attached to this view, enabled while `isScrollEnabled`. Its actions may be added to.
    public var panGestureRecognizer: PanGestureRecognizer { scrollPan }

    /// `panGestureRecognizer` (a constant: no access check, no lazy test).
    let scrollPan = ScrollViewPanGestureRecognizer()

    /// The content-touch delay and the catch of a moving view (S2, S3, S7c).
    let delayRecognizer = ScrollViewDelayGestureRecognizer()

    /// Whether the user is dragging the content (`isDragging`): from the pan's start to the
    /// lift.
    public private(set) var isDragging: Bool {
        get { scrollFields.isDragging }
        set { scrollFields.isDragging = newValue }
    }

    /// Whether the content is moving after a drag (`isDecelerating`): deceleration, or the
    /// snap back after an overscroll or to a page.
    public private(set) var isDecelerating: Bool {
        get { scrollFields.isDecelerating }
        set { scrollFields.isDecelerating = newValue }
    }


    /// Creates a scroll view with the given frame, offset zero.
    public override init(frame: Rect) {
        let target = TickTarget()
        tickTarget = target
        tickAction = {
            guard let view = target.view else { return }
            withExtendedLifetime(view) { view.tickMotion() }
        }
        super.init(frame: frame)
        walksInC(asInstanceOf: ScrollView.self)
        // First, before a recognizer is added: the record that hears of scrolls.
        input = ScrollViewInput()
        target.view = self
        scrollPan.scrollView = self
        delayRecognizer.owner = self
        delayRecognizer.delaysTouchesBegan = delaysContentTouches
        installScrollRecognizers()
    }

    deinit {
        // The recognizers and the motion's ticks refer to this view unretained: they lose
        // it now.
        scrollPan.scrollView = nil
        delayRecognizer.owner = nil
        tickTarget.view = nil
    }

    // MARK: - Touch filtering (S2, S4)

    /// Whether `view` (the content under a touch) should get the touches' began
    /// (`touchesShouldBegin(_:with:in:)`): asked when the content-touch delay passes, at once
    /// without the delay, or at a lift before the delay passed. The default returns true.
    open func touchesShouldBegin(_ touches: Set<Touch>, with event: HitTestCore.Event?, in view: View) -> Bool {
        true
    }

    /// Whether a drag that starts after `view` began a touch may cancel it there
    /// (`touchesShouldCancel(in:)`). The default: `!(view is Control)` (S4).
    open func touchesShouldCancel(in view: View) -> Bool {
        !(view is Control)
    }

    // MARK: - Offsets and limits

    /// The smallest offset: `-inset.left`, `-inset.top`.
    var minimumOffset: Point {
        let inset = adjustedContentInset
        return Point(x: 0 - inset.left, y: 0 - inset.top)  // 0 − 0 is +0, never −0
    }

    /// The largest offset: content size + insets − bounds size, and never below the smallest
    /// (S6).
    var maximumOffset: Point { maximumOffset(forBoundsSize: bounds.size) }

    /// `maximumOffset` for bounds of size `size`.
    func maximumOffset(forBoundsSize size: Size) -> Point {
        let inset = adjustedContentInset
        let low = minimumOffset
        return Point(
            x: max(low.x, contentSize.width + inset.right - size.width),
            y: max(low.y, contentSize.height + inset.bottom - size.height))
    }

    /// The offset pulled back within the limits.
    func clamped(_ p: Point) -> Point {
        let low = minimumOffset
        let high = maximumOffset
        return Point(x: min(max(p.x, low.x), high.x), y: min(max(p.y, low.y), high.y))
    }

    /// Whether a drag moves the content along x: it is wider than the view (insets included),
    /// or `alwaysBounceHorizontal` with `bounces`. [iOS]
    var scrollsHorizontally: Bool {
        let inset = adjustedContentInset
        return contentSize.width + inset.left + inset.right > bounds.width || (bounces && alwaysBounceHorizontal)
    }

    /// Whether a drag moves the content along y (see `scrollsHorizontally`).
    var scrollsVertically: Bool {
        let inset = adjustedContentInset
        return contentSize.height + inset.top + inset.bottom > bounds.height || (bounces && alwaysBounceVertical)
    }

    /// Where a drag puts the offset for the unconstrained offset `raw` (S5, S6): each axis that
    /// scrolls is clamped, or with `bounces` pulled past the edge by half the overshoot; an axis
    /// that does not scroll keeps `start`.
    func dragOffset(_ raw: Point, start: Point) -> Point {
        let low = minimumOffset
        let high = maximumOffset
        func axis(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
            if v < lo { return bounces ? lo - (lo - v) / 2 : lo }
            if v > hi { return bounces ? hi + (v - hi) / 2 : hi }
            return v
        }
        return Point(
            x: scrollsHorizontally ? axis(raw.x, low.x, high.x) : start.x,
            y: scrollsVertically ? axis(raw.y, low.y, high.y) : start.y)
    }

    /// A change of the bounds origin is a scroll (logged, `scrollViewDidScroll`): called by the
    /// view's input record (`ScrollViewInput`) after every bounds change that moved the origin.
    func didScroll() {
        // The cheap tests first: with the log off (or no application) nothing is retained and
        // no text is built; the delegate's weak reference is loaded only when one was set.
        if let recorder = loggingRecorder { noteScroll(recorder) }
        if scrollFields.hasHadDelegate { delegate?.scrollViewDidScroll(self) }
    }

    /// This view's window's application's recorder when it logs (with the log off, the test
    /// costs no retain).
    @inline(__always) private var loggingRecorder: DeliveryRecorder? {
        guard windowApplicationLogs else { return nil }
        return windowApplication?.recorder
    }

    /// The log entry of a scroll (out of line: the log is off in the fast case).
    @inline(never)
    private func noteScroll(_ recorder: DeliveryRecorder) {
        // The offset's text (`offsetText`) is written when the entry is read.
        recorder.note(.scrolled, about: self, payload: .offset(contentOffset), touch: scrollFields.currentTouch)
    }

    /// `contentOffset (x, y)`: the same text as `"contentOffset \(offset)"` (the numbers'
    /// `description`s, which is what interpolation writes), built in one string (the log's
    /// commonest entry during a deceleration).
    static func offsetText(_ offset: Point) -> String {
        var x = offset.x.description
        var y = offset.y.description
        let head: StaticString = "contentOffset ("
        return x.withUTF8 { xs in
            y.withUTF8 { ys in
                let h = head.utf8CodeUnitCount
                // Copied in blocks (a byte loop over the pieces cost more than the numbers'
                // formatting).
                return String(unsafeUninitializedCapacity: h + xs.count + 2 + ys.count + 1) { out in
                    guard let base = out.baseAddress else { return 0 }
                    base.update(from: head.utf8Start, count: h)
                    var i = h
                    if let p = xs.baseAddress { (base + i).update(from: p, count: xs.count) }
                    i += xs.count
                    base[i] = UInt8(ascii: ",")
                    base[i + 1] = UInt8(ascii: " ")
                    i += 2
                    if let p = ys.baseAddress { (base + i).update(from: p, count: ys.count) }
                    i += ys.count
                    base[i] = UInt8(ascii: ")")
                    return i + 1
                }
            }
        }
    }

    // MARK: - Dragging (driven by the pan recognizer)


    /// The drag begins with the pan's translation at `translation` (this view's space): stops
    /// any motion, tells the delegate (S8). The content follows the finger from here on, so it
    /// does not jump by the pan's 10 pt threshold. [ours]
    func beginDragging(translation: Point, touch: Int?) {
        stopMotion()
        isDragging = true
        scrollFields.dragStartOffset = contentOffset
        scrollFields.dragStartTranslation = translation
        delegate?.scrollViewWillBeginDragging(self)
    }

    /// The pan's translation is now `translation` (this view's space, measured now, so the
    /// bounds origin cancels out): the offset is the offset at the drag's start minus the
    /// translation since then (S5), clamped or bounced (S6).
    func drag(translation: Point, touch: Int?) {
        guard isDragging else { return }
        scrollFields.currentTouch = touch
        defer { scrollFields.currentTouch = nil }
        let raw = Point(
            x: scrollFields.dragStartOffset.x - (translation.x - scrollFields.dragStartTranslation.x),
            y: scrollFields.dragStartOffset.y - (translation.y - scrollFields.dragStartTranslation.y))
        contentOffset = dragOffset(raw, start: scrollFields.dragStartOffset)
    }

    /// The fingers lifted with `velocity` (the fingers' velocity in points per second, this
    /// view's space; the content's offset moves the other way): the drag ends, and the view
    /// decelerates (S7), snaps back from an overscroll or moves to a page. Tells the delegate
    /// (S8).
    func endDragging(velocity: Point, touch: Int?) {
        guard isDragging else { return }
        isDragging = false
        var v = Point(x: 0 - velocity.x, y: 0 - velocity.y)
        if !scrollsHorizontally { v.x = 0 }
        if !scrollsVertically { v.y = 0 }
        let willDecelerate: Bool
        if isPagingEnabled {
            let target = pageTarget(velocity: v)
            willDecelerate = target != contentOffset
            delegate?.scrollViewDidEndDragging(self, willDecelerate: willDecelerate)
            if willDecelerate { startAnimation(to: target, kind: .settle) }
        } else if clamped(contentOffset) != contentOffset {
            willDecelerate = true
            delegate?.scrollViewDidEndDragging(self, willDecelerate: true)
            startAnimation(to: clamped(contentOffset), kind: .settle)
        } else {
            let speedX = abs(v.x) >= ScrollView.minimumDecelerationSpeed
            let speedY = abs(v.y) >= ScrollView.minimumDecelerationSpeed
            willDecelerate = (speedX || speedY) && window?.application != nil
            delegate?.scrollViewDidEndDragging(self, willDecelerate: willDecelerate)
            if willDecelerate { startDeceleration(velocity: v) }
        }
    }

    /// The drag was cancelled (the pan cancelled): it ends where it is, snapping back into the
    /// limits if it overscrolled. [ours]
    func cancelDragging(touch: Int?) {
        guard isDragging else { return }
        isDragging = false
        let settled = clamped(contentOffset)
        delegate?.scrollViewDidEndDragging(self, willDecelerate: settled != contentOffset)
        if settled != contentOffset { startAnimation(to: settled, kind: .settle) }
    }

    /// The page a drag ending with velocity `v` settles on: the nearest page, or with a flick
    /// faster than `pagingFlickSpeed` the next one in its direction; within the limits.
    func pageTarget(velocity v: Point) -> Point {
        func axis(_ offset: Double, _ v: Double, _ size: Double, _ lo: Double, _ hi: Double, _ scrolls: Bool) -> Double {
            guard scrolls, size > 0 else { return min(max(offset, lo), hi) }
            let position = offset / size
            let page: Double
            if v > ScrollView.pagingFlickSpeed {
                page = position.rounded(.up)
            } else if v < -ScrollView.pagingFlickSpeed {
                page = position.rounded(.down)
            } else {
                page = position.rounded()
            }
            return min(max(page * size, lo), hi)
        }
        let lo = minimumOffset
        let hi = maximumOffset
        return Point(
            x: axis(contentOffset.x, v.x, bounds.width, lo.x, hi.x, scrollsHorizontally),
            y: axis(contentOffset.y, v.y, bounds.height, lo.y, hi.y, scrollsVertically))
    }

    // MARK: - Motion on simulated time (S7, S7b)

    enum MotionKind {
        /// A flick's deceleration.
        case decelerate
        /// The snap back after an overscroll, or to a page: reported as deceleration.
        case settle
        /// `setContentOffset(_:animated: true)`.
        case animate
    }

    /// Plain values only (no reference: copying one costs no retain); the application whose
    /// clock runs it is `motionApplication`.
    struct Motion {
        var kind: MotionKind
        var token: DeadlineToken
        var startTime: Double
        var startOffset: Point
        /// Deceleration: the velocity at the start (pt/s); animation: the target.
        var velocity: Point
        var target: Point
        /// The next tick's number (1 is the first tick after the start).
        var tick: Int
        /// Deceleration: the axes that still move.
        var movingX: Bool
        var movingY: Bool
    }


    /// What a motion tick's deadline refers to: the view, unretained (`Unretained`, the core's
    /// back reference; a weak reference would put every retain and release of the view on the
    /// runtime's slow path) and cleared by its `deinit`, so a tick still pending then runs as a
    /// no-op.
    private final class TickTarget {
        @Unretained var view: ScrollView? = nil
    }

    private let tickTarget: TickTarget


    /// The deadline action of every motion tick: one closure for the view's life (no
    /// allocation per tick). While it runs it holds the view.
    private let tickAction: () -> Void

    /// Moves the offset to `p` (`setContentOffset(_:animated:)`). Without animation it is set at
    /// once; with animation it moves there in ticks of 1/60 s over `animationDuration` (0.3 s)
    /// along the ease-out curve `1 − (1 − u)³`, the last tick landing exactly on `p`, then
    /// `scrollViewDidEndScrollingAnimation`. [ours for the curve and the duration] Either way a
    /// running deceleration or animation stops. Outside an application's window the animation
    /// jumps.
    ///
    /// - Precondition: `p` is finite.
    public func setContentOffset(_ p: Point, animated: Bool) {
        requireValue(p.isFinite, "ScrollView.setContentOffset(_:animated:): the offset", "finite", p)
        stopMotion()
        if animated, window?.application != nil, p != contentOffset {
            startAnimation(to: p, kind: .animate)
        } else {
            contentOffset = p
        }
    }

    /// The offset of a deceleration from `o` with velocity `v` (pt/s) after `t` seconds, for
    /// rate `d` per millisecond (S7): `o + v · (d^(1000 t) − 1) / (1000 · ln d)`.
    public static func deceleratedOffset(from o: Double, velocity v: Double, after t: Double, rate d: Double) -> Double {
        o + v * (pow(d, 1000 * t) - 1) / (1000 * log(d))
    }

    private func startDeceleration(velocity v: Point) {
        guard let application = window?.application else { return }
        isDecelerating = true
        let start = application.currentTime
        let token = application.schedule(at: start + ScrollView.tickInterval, tickAction)
        scrollFields.motionApplication = application
        scrollFields.motion = Motion(
            kind: .decelerate, token: token, startTime: start, startOffset: contentOffset,
            velocity: v, target: contentOffset, tick: 1,
            movingX: abs(v.x) >= ScrollView.minimumDecelerationSpeed, movingY: abs(v.y) >= ScrollView.minimumDecelerationSpeed)
    }

    private func startAnimation(to target: Point, kind: MotionKind) {
        guard let application = window?.application else {
            contentOffset = target
            return
        }
        if kind == .settle { isDecelerating = true }
        let start = application.currentTime
        let token = application.schedule(at: start + ScrollView.tickInterval, tickAction)
        scrollFields.motionApplication = application
        scrollFields.motion = Motion(
            kind: kind, token: token, startTime: start, startOffset: contentOffset,
            velocity: .zero, target: target, tick: 1, movingX: true, movingY: true)
    }

    /// One tick: the offset at the tick's time; the next tick, or the end.
    private func tickMotion() {
        guard var m = scrollFields.motion else { return }
        let t = Double(m.tick) * ScrollView.tickInterval
        var done: Bool
        switch m.kind {
        case .decelerate:
            let d = decelerationRate.rawValue
            // The bounds once (a call into the core each time they are read).
            let bounds = self.bounds
            let low = minimumOffset
            let high = maximumOffset(forBoundsSize: bounds.size)
            var next = bounds.origin
            // d^(1000 t) and ln d once per tick (the same values `deceleratedOffset` computes).
            let decay = pow(d, 1000 * t)
            // ln d only when the rate changed since the last tick (the same value each time).
            if d != scrollFields.lnRateOf {
                scrollFields.lnRate = log(d)
                scrollFields.lnRateOf = d
            }
            let lnD = scrollFields.lnRate
            func axis(_ o: Double, _ v: Double, _ lo: Double, _ hi: Double, _ moving: inout Bool, _ value: inout Double) {
                guard moving else { return }
                // = ScrollView.deceleratedOffset(from: o, velocity: v, after: t, rate: d)
                let raw = o + v * (decay - 1) / (1000 * lnD)
                value = min(max(raw, lo), hi)
                // Stop at an edge, or when the speed v · d^(1000 t) falls below the minimum.
                if value != raw || abs(v) * decay < ScrollView.minimumDecelerationSpeed { moving = false }
            }
            axis(m.startOffset.x, m.velocity.x, low.x, high.x, &m.movingX, &next.x)
            axis(m.startOffset.y, m.velocity.y, low.y, high.y, &m.movingY, &next.y)
            done = !m.movingX && !m.movingY
            m.tick += 1
            scrollFields.motion = m
            contentOffset = next
        case .settle, .animate:
            let steps = max(1, Int((ScrollView.animationDuration / ScrollView.tickInterval).rounded()))
            let u = Double(m.tick) / Double(steps)
            let e = 1 - pow(1 - u, 3)
            let next = m.tick >= steps
                ? m.target
                : Point(
                    x: m.startOffset.x + (m.target.x - m.startOffset.x) * e,
                    y: m.startOffset.y + (m.target.y - m.startOffset.y) * e)
            done = m.tick >= steps
            m.tick += 1
            scrollFields.motion = m
            contentOffset = next
        }
        // The offset change may have stopped or replaced the motion (a delegate call).
        guard scrollFields.motion?.token == m.token, let application = scrollFields.motionApplication else { return }
        if done {
            finishMotion()
        } else {
            let current = m  // the motion as stored above (the same token: unchanged since)
            let due = current.startTime + Double(current.tick) * ScrollView.tickInterval
            // The tick running now is this motion's: it is re-keyed in place (the same order
            // as a new deadline; no slot taken, no closure stored).
            scrollFields.motion!.token = application.rescheduleRunning(current.token, at: due) ?? application.schedule(at: due, tickAction)
        }
    }

    /// The motion ran to its end: the flags and the delegate.
    private func finishMotion() {
        guard let m = scrollFields.motion else { return }
        scrollFields.motion = nil
        scrollFields.motionApplication = nil
        switch m.kind {
        case .decelerate, .settle:
            isDecelerating = false
            delegate?.scrollViewDidEndDecelerating(self)
        case .animate:
            delegate?.scrollViewDidEndScrollingAnimation(self)
        }
    }

    /// Stops any motion where it is, without delegate calls (a touch or a new offset
    /// interrupted it). [ours: UIKit does not report an interrupted deceleration as ended]
    func stopMotion() {
        guard let m = scrollFields.motion else { return }
        scrollFields.motionApplication?.cancel(m.token)
        scrollFields.motion = nil
        scrollFields.motionApplication = nil
        isDecelerating = false
    }

    /// Whether a deceleration or an animation is running.
    var isMoving: Bool { scrollFields.motion != nil }

    // MARK: - Recognizers (ScrollView+Recognizers.swift)

    private func scrollEnabledDidChange() {
        panGestureRecognizer.isEnabled = isScrollEnabled
    }

    /// The pan begins only where the content may lose its touch (S4); other recognizers as
    /// `View`'s.
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        if gestureRecognizer === panGestureRecognizer { return panMayBegin() }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }
}
