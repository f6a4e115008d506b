import HitTestCore

// The one file of HitTestLayout that uses unsafe escapes (`@exclusivity(unchecked)`) or an
// unchecked conversion (`unsafeDowncast`), and the conformance that plugs Auto Layout into the
// core's layout seam (`AutoLayoutAttachment`). `scripts/escapes.sh` fails CI if one appears
// anywhere else in this module.
//
// The engine's internal classes (`EngineItem`, `AutoLayoutNode`) keep their hot fields free
// of dynamic exclusivity checks by the core's rule (HitTestCore/Core/Storage.swift): each is
// internal, so the whole-module optimizer sees every access, and none is edited in place around
// a call it cannot see into. `scripts/exclusivity.sh` lists those fields and checks the
// optimized SIL. The core's invariants hold here too: a view tree and its engine are used from
// one thread at a time.
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
        get { autoLayoutRecord.map { unsafeDowncast($0, to: AutoLayoutNode.self) } }
        set { autoLayoutRecord = newValue }
    }
}

extension AutoLayoutNode: AutoLayoutAttachment {
    func frameDidChange(of view: View) { view.autoLayoutGeometryDidChange(self) }
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

// MARK: - Hot state of the internal classes

/// `EngineItem`'s fields read at every solve and apply.
class EngineItemStorage {
    /// Slot in `engine.items`, the item's for as long as it is in the engine.
    @exclusivity(unchecked) final var index = 0
    /// In its host's `pendingApply` (or being applied: the frame setters stay quiet).
    @exclusivity(unchecked) final var applyQueued = false
    /// Removed from its engine (a strong flag: cheaper to read than the weak `engine`).
    @exclusivity(unchecked) final var removed = false
}

/// `AutoLayoutNode`'s fields read at every solve and apply.
class AutoLayoutNodeStorage {
    /// The view as an engine item, while a constraint uses it.
    @exclusivity(unchecked) final var item: EngineItem?
    /// The subviews' items whose frame `layoutSubviews` must apply, by slot in their engine
    /// (`EngineItem.index`): their solution moved, or their frame was set by hand since (the
    /// default `layoutSubviews` puts the engine's back).
    @exclusivity(unchecked) final var pendingApply: [Int32] = []
}
