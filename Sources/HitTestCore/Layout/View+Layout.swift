// The layout pass (SEMANTICS 10, rules 1–11): marks, the constraints pass, `layoutIfNeeded`,
// autoresizing, `sizeToFit`, layout margins and the safe area. The override points
// (`layoutSubviews`, `sizeThatFits`, `layoutMarginsDidChange`, `safeAreaInsets`,
// `intrinsicContentSize`, `updateConstraints`) are declared in View's class body.
//
// Nothing here recurses: marks go up with a loop that stops at the first ancestor already
// marked, and the pass goes down with an explicit stack through marked views only.

extension View {
    /// The value of `intrinsicContentSize` on an axis without an intrinsic size
    /// (`UIViewNoIntrinsicMetric`): -1.
    public static let noIntrinsicMetric: Double = -1

    // MARK: - Marks

    /// Marks the view as needing layout (`setNeedsLayout`): its `layoutSubviews()` runs once at
    /// the next `layoutIfNeeded()` or layout pass, however many times it was marked.
    /// - Complexity: O(1) amortised (the mark goes up until an ancestor already carries one).
    public func setNeedsLayout() {
        if layoutState.needsLayout { return }
        layoutState.needsLayout = true
        storedSuperview?.markSubtreeNeedsLayout()
    }

    /// Whether the view is marked for layout (`setNeedsLayout()` or a change that marks it).
    var needsLayout: Bool { layoutState.needsLayout }

    /// Records on this view and its ancestors that some descendant needs layout.
    func markSubtreeNeedsLayout() {
        var v: View? = self
        while let u = v, !u.layoutState.subtreeNeedsLayout {
            u.layoutState.subtreeNeedsLayout = true
            v = u.storedSuperview
        }
    }

    /// Records on this view and its ancestors that some descendant needs its constraints updated.
    func markSubtreeNeedsUpdateConstraints() {
        var v: View? = self
        while let u = v, !u.layoutState.subtreeNeedsUpdateConstraints {
            u.layoutState.subtreeNeedsUpdateConstraints = true
            v = u.storedSuperview
        }
    }

    /// Marks the view's constraints as needing an update (`setNeedsUpdateConstraints`): its
    /// `updateConstraints()` runs once before the next layout.
    public func setNeedsUpdateConstraints() {
        if layoutState.needsUpdateConstraints { return }
        layoutState.needsUpdateConstraints = true
        storedSuperview?.markSubtreeNeedsUpdateConstraints()
    }

    /// Runs `updateConstraints()` now on this view and every marked descendant, subviews before
    /// their superview (`updateConstraintsIfNeeded`). Nothing is called when nothing is marked.
    public func updateConstraintsIfNeeded() {
        guard layoutState.needsUpdateConstraints || layoutState.subtreeNeedsUpdateConstraints else { return }
        // Pre-order through marked views, then in reverse: every view after its subviews.
        var order: [View] = []
        var stack: [View] = [self]
        while let v = stack.popLast() {
            order.append(v)
            if v.layoutState.subtreeNeedsUpdateConstraints {
                v.layoutState.subtreeNeedsUpdateConstraints = false
                for s in v.storedSubviews
                where s.layoutState.needsUpdateConstraints || s.layoutState.subtreeNeedsUpdateConstraints {
                    stack.append(s)
                }
            }
        }
        for v in order.reversed() where v.layoutState.needsUpdateConstraints {
            v.layoutState.needsUpdateConstraints = false
            v.updateConstraints()
        }
    }

    // MARK: - The pass

    /// Lays out now what needs it (`layoutIfNeeded`): the constraints pass, then Auto Layout's
    /// solve if a constraint changed, then, from the highest ancestor that needs layout (or this
    /// view), every marked view top-down: a view's `layoutSubviews()` runs before its
    /// subviews', and a subview resized by it is laid out in the same pass. With nothing
    /// pending, nothing is called.
    /// - Complexity: O(depth) to climb, plus the marked views and their subviews.
    public func layoutIfNeeded() {
        var root: View = self
        while let s = root.storedSuperview { root = s }
        root.updateConstraintsIfNeeded()
        root.layoutState.autoLayout?.solveIfNeeded()

        var top: View = self
        var u = storedSuperview
        while let a = u {
            if a.layoutState.needsLayout { top = a }
            u = a.storedSuperview
        }
        guard top.layoutState.needsLayout || top.layoutState.subtreeNeedsLayout else { return }
        if let core = root.core {
            core.batch { top.layOutMarkedSubtree() }
        } else {
            top.layOutMarkedSubtree()
        }
    }

    /// Pre-order through the marked views of this subtree with an explicit stack.
    private func layOutMarkedSubtree() {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            if v.layoutState.needsLayout {
                v.layoutState.needsLayout = false
                v.layoutSubviews()
            }
            if v.layoutState.subtreeNeedsLayout {
                v.layoutState.subtreeNeedsLayout = false
                for s in v.storedSubviews.reversed()
                where s.layoutState.needsLayout || s.layoutState.subtreeNeedsLayout {
                    stack.append(s)
                }
            }
        }
    }

    /// Whether a pass from this root would do anything: marks, constraints to update, or a
    /// changed constraint system.
    var hasPendingLayout: Bool {
        let s = layoutState
        return s.needsLayout || s.subtreeNeedsLayout || s.needsUpdateConstraints
            || s.subtreeNeedsUpdateConstraints || (s.autoLayout?.needsSolve ?? false)
    }

    /// The run loop's pass for a window: `layoutIfNeeded()` again while something is still
    /// pending (a `layoutSubviews` that marked an ancestor, a solve that moved a view whose
    /// superview was already laid out), at most 8 times. [ours: UIKit would run it at the next
    /// turn of the run loop]
    package func runLayoutPass() {
        var rounds = 0
        while hasPendingLayout && rounds < 8 {
            layoutIfNeeded()
            rounds += 1
        }
    }

    // MARK: - Autoresizing

    /// The bounds size changed (through `frame` or `bounds`): the view needs layout and, when
    /// `autoresizesSubviews`, its subviews resize by their masks now, then theirs, iteratively.
    func boundsSizeDidChange(from oldSize: Size) {
        setNeedsLayout()
        layoutState.autoLayout?.frameDidChange(of: self)
        guard layoutState.autoresizesSubviews, !storedSubviews.isEmpty, !layoutState.autoresizingDeferred else { return }
        var work: [(View, Size)] = [(self, oldSize)]
        while let (parent, old) = work.popLast() {
            let new = parent.bounds.size
            for child in parent.storedSubviews {
                let mask = child.layoutState.autoresizingMask
                guard !mask.isEmpty, child.layoutState.translatesAutoresizingMaskIntoConstraints else { continue }
                let f = child.frame
                let (x, w) = View.autoresize(
                    f.minX, f.width, from: old.width, to: new.width,
                    mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth), mask.contains(.flexibleRightMargin))
                let (y, h) = View.autoresize(
                    f.minY, f.height, from: old.height, to: new.height,
                    mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight), mask.contains(.flexibleBottomMargin))
                let target = Rect(x: x, y: y, width: w, height: h)
                if target == f { continue }
                let childOld = child.bounds.size
                child.layoutState.autoresizingDeferred = true
                child.frame = target
                child.layoutState.autoresizingDeferred = false
                if child.bounds.size != childOld, child.layoutState.autoresizesSubviews, !child.storedSubviews.isEmpty {
                    work.append((child, childOld))
                }
            }
        }
    }

    /// One axis of UIKit's autoresizing: the flexible parts among the margin before (`x`), the
    /// size and the margin after (`old - x - size`) share the change of the superview's size in
    /// proportion to their values; when those sum to 0 or less, equally. No rounding.
    static func autoresize(
        _ x: Double, _ size: Double, from old: Double, to new: Double,
        _ flexibleBefore: Bool, _ flexibleSize: Bool, _ flexibleAfter: Bool
    ) -> (Double, Double) {
        let delta = new - old
        let count = (flexibleBefore ? 1 : 0) + (flexibleSize ? 1 : 0) + (flexibleAfter ? 1 : 0)
        if delta == 0 || count == 0 { return (x, size) }
        if count == 1 {
            return (flexibleBefore ? x + delta : x, flexibleSize ? size + delta : size)
        }
        let after = old - x - size
        var sum = 0.0
        if flexibleBefore { sum += x }
        if flexibleSize { sum += size }
        if flexibleAfter { sum += after }
        var dx = 0.0
        var ds = 0.0
        if sum > 0 {
            if flexibleBefore { dx = delta * x / sum }
            if flexibleSize { ds = delta * size / sum }
        } else {
            let share = delta / Double(count)
            if flexibleBefore { dx = share }
            if flexibleSize { ds = share }
        }
        return (x + dx, size + ds)
    }

    // MARK: - Sizes, margins, the safe area

    /// Sets the frame's size to `sizeThatFits(bounds.size)`, keeping `frame.origin` (`sizeToFit`).
    public func sizeToFit() {
        let size = sizeThatFits(bounds.size)
        let f = frame
        frame = Rect(x: f.minX, y: f.minY, width: size.width, height: size.height)
    }

    /// The default spacing inside the view's edges (`layoutMargins`): 8 on each side. Setting a
    /// different value calls `layoutMarginsDidChange()` and marks the view for layout; the
    /// `layoutMarginsGuide` follows.
    public var layoutMargins: EdgeInsets {
        get { layoutState.layoutMargins }
        set {
            View.requireFinite(newValue.isFinite, "layoutMargins", newValue)
            guard newValue != layoutState.layoutMargins else { return }
            layoutState.layoutMargins = newValue
            layoutState.autoLayout?.layoutMarginsDidChange(of: self)
            setNeedsLayout()
            layoutMarginsDidChange()
        }
    }

    /// Per edge, how far the window's unsafe bands (its `safeAreaInsets`, in its bounds space)
    /// reach into this view's bounds converted to the window; clamped to 0...the view's size.
    func safeAreaInsetsFromWindow() -> EdgeInsets {
        guard let window = storedWindow else { return .zero }
        let insets = window.storedSafeAreaInsets
        if insets == .zero { return .zero }
        let w = window.bounds
        let r = window === self ? w : convert(bounds, to: window)
        guard r.isFinite else { return .zero }
        func clamp(_ v: Double, _ limit: Double) -> Double { max(0, min(v, max(0, limit))) }
        return EdgeInsets(
            top: clamp(w.minY + insets.top - r.minY, r.height),
            left: clamp(w.minX + insets.left - r.minX, r.width),
            bottom: clamp(r.maxY - (w.maxY - insets.bottom), r.height),
            right: clamp(r.maxX - (w.maxX - insets.right), r.width))
    }

    /// Tells Auto Layout that `intrinsicContentSize` changed (`invalidateIntrinsicContentSize`):
    /// its hugging and compression-resistance constraints take the new size at the next pass.
    public func invalidateIntrinsicContentSize() {
        layoutState.autoLayout?.intrinsicContentSizeDidChange(of: self)
    }

    // MARK: - Hierarchy

    /// `view` was just inserted into the receiver (from `oldSuperview`, if it had one): the
    /// view and both superviews need layout (as UIKit: an added view is laid out when it is
    /// first shown), the marks the view carries go up its new ancestors, and its Auto Layout
    /// state joins this tree's.
    func layoutDidInsert(_ view: View, from oldSuperview: View?) {
        oldSuperview?.setNeedsLayout()
        setNeedsLayout()
        view.setNeedsLayout()
        if view.layoutState.needsLayout || view.layoutState.subtreeNeedsLayout { markSubtreeNeedsLayout() }
        if view.layoutState.needsUpdateConstraints || view.layoutState.subtreeNeedsUpdateConstraints {
            markSubtreeNeedsUpdateConstraints()
        }
        (view.layoutState.autoLayout ?? oldSuperview?.root.layoutState.autoLayout)?
            .viewDidMove(view, into: self, from: oldSuperview)
    }

    /// The receiver was just removed from `oldSuperview`, which needs layout; constraints
    /// between the removed subtree and the rest go away, as in UIKit.
    func layoutDidRemove(from oldSuperview: View) {
        oldSuperview.setNeedsLayout()
        (layoutState.autoLayout ?? oldSuperview.root.layoutState.autoLayout)?
            .viewDidLeave(self, from: oldSuperview)
    }
}

extension Window {
    func setWindowSafeAreaInsets(_ insets: EdgeInsets) {
        View.requireFinite(insets.isFinite, "safeAreaInsets", insets)
        guard insets != storedSafeAreaInsets else { return }
        storedSafeAreaInsets = insets
        setNeedsLayout()
        layoutState.autoLayout?.safeAreaDidChange(of: self)
    }
}

// MARK: - Solved frames (the seam Auto Layout's solve and apply read views through)

/// Which layout pass must apply a view's new solved frame (`Unretained.solvedFrameTarget`).
package enum SolvedFrameTarget {
    /// None: there is no view, it translates its autoresizing mask (its frame is its own), or
    /// it has that frame already.
    case none
    /// The pass of the superview given as the last one.
    case lastHost
    /// The pass of this view, its superview.
    case host(View)
}

extension View {
    /// Whether `host`'s layout pass applies the receiver's solved frame: it is a subview of
    /// `host` that does not translate its autoresizing mask. The one rule both the batch
    /// (`nodeApplied(by:)`) and the setter path of Auto Layout's apply ask.
    package final func takesSolvedFrame(from host: View) -> Bool {
        hasSuperview(host) && !translatesMaskIntoConstraints
    }
}

extension Unretained where Object == View {
    /// Where the view's new solved frame `frame` is applied (`SolvedFrameTarget`); `last` is
    /// the superview of the previous view asked about (siblings come in runs), compared by
    /// identity. Neither is retained: one call per solved view.
    package func solvedFrameTarget(_ frame: Rect, after last: Unretained<View>) -> SolvedFrameTarget {
        withObject { view -> SolvedFrameTarget in
            if view.translatesMaskIntoConstraints || frame == view.layoutFrame { return .none }
            if !last.isNil, view.$storedSuperview.isIdentical(to: last) { return .lastHost }
            guard let host = view.storedSuperview else { return .none }
            return .host(host)
        } ?? .none
    }

    /// The view's node when `host`'s layout pass applies its solved frame
    /// (`View.takesSolvedFrame(from:)`); nil otherwise. Read without retaining it.
    package func nodeApplied(by host: View) -> Int32? {
        withObject { view in view.takesSolvedFrame(from: host) ? view.node : nil } ?? nil
    }
}
