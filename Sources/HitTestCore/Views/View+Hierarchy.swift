extension View {
    /// The superview, or nil for a root (`UIView.superview`).
    public var superview: View? { storedSuperview }

    /// The subviews, back to front: index 0 is the bottom (`UIView.subviews`).
    public var subviews: [View] { storedSubviews }

    /// The window this view is in: itself if it is a window, else its superview's window (a
    /// window inside another view stays its own and its subviews').
    /// - Complexity: O(1); kept up to date when a subtree moves between windows.
    public var window: Window? { storedWindow }

    /// Adds `view` on top of the subviews (`addSubview:`). A view under another superview is
    /// moved (its old superview is told `willRemoveSubview`); a view that is already a subview
    /// of the receiver is moved to the top, without callbacks.
    ///
    /// Adding a view to itself or to one of its descendants stops the program, as UIKit raises.
    /// - Complexity: O(1) for a view of this tree, O(subtree) for a view of another tree, plus
    ///   O(subtree) when the window changes (the callbacks visit every descendant).
    public func addSubview(_ view: View) {
        insertSubview(view, at: storedSubviews.count)
    }

    /// Inserts `view` at `index` of the subviews (`insertSubview:atIndex:`). The index clamps to
    /// the count; if `view` is already a subview of the receiver, the index applies after its
    /// removal. A negative index stops the program.
    public func insertSubview(_ view: View, at index: Int) {
        precondition(index >= 0, "insertSubview(_:at:): index \(index) is negative")
        precondition(view !== self, "Can't add self as subview")
        if view.storedSuperview === self {
            reorder(view, to: index)
            return
        }
        precondition(
            view.storedSubviews.isEmpty || !isDescendant(of: view),
            "Can't add a view to one of its own descendants (it would be its own ancestor)")
        let oldSuperview = view.storedSuperview
        let newWindow = storedWindow
        // A window stays its own window wherever it goes (`window`).
        let windowChanges = !(view is Window) && view.storedWindow !== newWindow

        oldSuperview?.willRemoveSubview(view)
        view.willMove(toSuperview: self)
        if windowChanges { view.forEachSharingWindow { $0.willMove(toWindow: newWindow) } }

        if let old = oldSuperview {
            let i = old.indexOfSubview(view)
            old.editSubviews { _ = $0.remove(at: i) }
        }
        let position = editSubviews { list in
            let position = min(index, list.count)
            list.insert(view, at: position)
            return position
        }
        view.storedSuperview = self
        if windowChanges { view.forEachSharingWindow { $0.storedWindow = newWindow } }
        mirrorAttach(view, at: position)
        layoutDidInsert(view, from: oldSuperview)

        if windowChanges { view.forEachSharingWindow { $0.didMoveToWindow() } }
        view.didMoveToSuperview()
        didAddSubview(view)
    }

    /// Inserts `view` directly above `sibling` (`insertSubview:aboveSubview:`); when `sibling`
    /// is not a subview of the receiver, `view` goes on top.
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        guard sibling.storedSuperview === self, sibling !== view else {
            addSubview(view)
            return
        }
        var index = indexOfSubview(sibling) + 1
        if view.storedSuperview === self, indexOfSubview(view) < index { index -= 1 }
        insertSubview(view, at: index)
    }

    /// Inserts `view` directly below `sibling` (`insertSubview:belowSubview:`); when `sibling`
    /// is not a subview of the receiver, `view` goes on top.
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        guard sibling.storedSuperview === self, sibling !== view else {
            addSubview(view)
            return
        }
        var index = indexOfSubview(sibling)
        if view.storedSuperview === self, indexOfSubview(view) < index { index -= 1 }
        insertSubview(view, at: index)
    }

    /// Swaps two subviews (`exchangeSubviewAtIndex:withSubviewAtIndex:`), without callbacks.
    /// An index out of range stops the program.
    public func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        precondition(
            storedSubviews.indices.contains(index1) && storedSubviews.indices.contains(index2),
            "exchangeSubview(at: \(index1), withSubviewAt: \(index2)): out of range 0..<\(storedSubviews.count)"
        )
        guard index1 != index2 else { return }
        editSubviews { $0.swapAt(index1, index2) }
        let (lo, hi) = (min(index1, index2), max(index1, index2))
        // Re-place both in the index: the higher one first, so the lower position stays valid.
        mirrorAttach(storedSubviews[hi], at: hi)
        mirrorAttach(storedSubviews[lo], at: lo)
    }

    /// Moves a direct subview to the top (`bringSubviewToFront:`); anything else is ignored.
    public func bringSubviewToFront(_ view: View) {
        guard view.storedSuperview === self else { return }
        reorder(view, to: storedSubviews.count)
    }

    /// Moves a direct subview to the bottom (`sendSubviewToBack:`); anything else is ignored.
    public func sendSubviewToBack(_ view: View) {
        guard view.storedSuperview === self else { return }
        reorder(view, to: 0)
    }

    /// Removes the view from its superview (`removeFromSuperview`), with UIKit's callbacks:
    /// the superview's `willRemoveSubview`, `willMove(toSuperview: nil)`, `willMove(toWindow:
    /// nil)`, then `didMoveToWindow()` and `didMoveToSuperview()`. Does nothing for a root.
    /// - Complexity: O(siblings), plus O(subtree) when it leaves a window.
    public func removeFromSuperview() {
        guard let old = storedSuperview else { return }
        let windowChanges = storedWindow != nil && !(self is Window)
        old.willRemoveSubview(self)
        willMove(toSuperview: nil)
        if windowChanges { forEachSharingWindow { $0.willMove(toWindow: nil) } }

        let i = old.indexOfSubview(self)
        old.editSubviews { _ = $0.remove(at: i) }
        storedSuperview = nil
        if windowChanges { forEachSharingWindow { $0.storedWindow = nil } }
        core?.detach(self)
        layoutDidRemove(from: old)

        if windowChanges { forEachSharingWindow { $0.didMoveToWindow() } }
        didMoveToSuperview()
    }

    /// Whether the receiver is `view` or one of its descendants (`isDescendantOfView:`).
    /// - Complexity: O(depth).
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.storedSuperview
        }
        return false
    }

    /// The first view with `tag`, depth-first pre-order from the receiver itself, subviews in
    /// array order (`viewWithTag:`).
    /// - Complexity: O(subtree), iterative.
    public func viewWithTag(_ tag: Int) -> View? {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            if v.tag == tag { return v }
            stack.append(contentsOf: v.storedSubviews.reversed())
        }
        return nil
    }

    // MARK: - Internals

    package func indexOfSubview(_ view: View) -> Int {
        // Searching from the top: recent additions are the ones most often moved again.
        guard let i = storedSubviews.lastIndex(where: { $0 === view }) else {
            preconditionFailure("HitTestKit: a view's superview does not list it")
        }
        return i
    }

    /// Moves an existing subview to `index` (clamped, applied after removal), no callbacks.
    private func reorder(_ view: View, to index: Int) {
        let i = indexOfSubview(view)
        let position = editSubviews { list in
            list.remove(at: i)
            let position = min(index, list.count)
            list.insert(view, at: position)
            return position
        }
        mirrorAttach(view, at: position)
    }

    /// Pre-order over the subtree, parent before children, without recursion.
    package func forEachInSubtree(_ body: (View) -> Void) {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            body(v)
            stack.append(contentsOf: v.storedSubviews.reversed())
        }
    }

    /// Pre-order over the views of the subtree whose window is the receiver's: the subtree
    /// without the windows inside it and their subtrees (a window is its own window and its
    /// subviews' wherever it is). The one rule of which views a change of window reaches.
    package func forEachSharingWindow(_ body: (View) -> Void) {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            body(v)
            for s in v.storedSubviews.reversed() where !(s is Window) { stack.append(s) }
        }
    }

    /// The C index this view's node lives in, created on first need.
    @discardableResult
    package func ensureCore() -> CoreTree {
        if let core { return core }
        let core = CoreTree()
        core.register(self)
        return core
    }

    /// Mirrors `view` becoming the subview at `position` into the C index. Views of another
    /// index are moved into this one (their whole subtree, O(subtree)); a view with no node
    /// yet gets one; a parent with no node joins the child's index.
    private func mirrorAttach(_ view: View, at position: Int) {
        if core == nil, let childCore = view.core {
            childCore.register(self)
        }
        let core = ensureCore()
        if view.core !== core {
            if view.core != nil { view.moveSubtree(to: core) } else { core.register(view) }
        }
        core.attach(view, to: self, at: position)
    }

    /// Re-creates the nodes of this subtree in `core`, links included (this view stays a root
    /// there until the caller attaches it).
    private func moveSubtree(to core: CoreTree) {
        forEachInSubtree { v in
            v.core?.unregister(v)
            core.register(v)
        }
        forEachInSubtree { v in
            for (i, child) in v.storedSubviews.enumerated() { core.attach(child, to: v, at: i) }
        }
    }
}
