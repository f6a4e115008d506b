import HitTestCore

// The one file of HitTestLayout that uses an unchecked conversion, and the conformance that
// plugs Auto Layout into the core's layout seam (`AutoLayoutAttachment`).

extension View {
    /// The view's Auto Layout record (the core's `layoutState.autoLayout`, typed).
    ///
    /// Invariant: only this module writes `layoutState.autoLayout`, and only through this
    /// property, so the record is always an `AutoLayoutNode`.
    var autoLayoutState: AutoLayoutNode? {
        get { layoutState.autoLayout.map { unsafeDowncast($0, to: AutoLayoutNode.self) } }
        set { layoutState.autoLayout = newValue }
    }
}

extension AutoLayoutNode: AutoLayoutAttachment {
    func frameDidChange(of view: View) { view.autoLayoutGeometryDidChange() }
    func applySolvedFrames(in view: View) { view.applyAutoLayoutFrames() }
    func solveIfNeeded() { ownedEngine?.solveIfNeeded() }
    var needsSolve: Bool { ownedEngine?.isDirty ?? false }
    func layoutMarginsDidChange(of view: View) { guidesDidChange(view) }
    func intrinsicContentSizeDidChange(of view: View) { intrinsicSizeDidChange(view) }
    func safeAreaDidChange(of window: Window) { ownedEngine?.safeAreaDidChange() }
    func viewDidMove(_ view: View, into parent: View, from oldSuperview: View?) {
        parent.autoLayoutDidInsert(view, from: oldSuperview)
    }
    func viewDidLeave(_ view: View, from oldSuperview: View) { view.autoLayoutDidRemove(from: oldSuperview) }
}
