import HitTestCore

// The one file of HitTestLayout that uses an unchecked conversion, and the conformance that
// plugs Auto Layout into the core's layout seam (`AutoLayoutAttachment`).
//
// Auto Layout holds views only unretained (`Unretained`, HitTestCore's storage), never `weak`:
// a weak reference gives its target a side table, and every retain and release of a
// constrained view then takes the runtime's slow path. The invariant that keeps each such
// reference nil or live: a view is referred to only from places its own record
// (`AutoLayoutNode`) lists or owns, and `View.deinit` calls the record's `viewWillDeinit()`,
// which clears them all:
// - the record's own `view` (constraints name a view through its record, `LayoutItemReference`);
// - its engine item's `view` (`item`; an item leaving its engine clears its `view` itself);
// - the `installedOn` of the constraints in `installed`;
// - the `host` of the items in `hosted` (an item's `host` is set only while it is listed there);
// - the `owningView` of its margins, safe-area and custom guides (`removeLayoutGuide` clears it).

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
