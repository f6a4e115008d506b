import HitTestCore

// Auto Layout's engine: the Swift layer that keeps the active constraints in the C solver
// (SolverCore), as the view layer keeps its views in the C index.
//
// The model (SEMANTICS 10, rules 12–20):
// - One engine per view tree, owned by the tree's root (created by the first activation).
//   Every active constraint of the tree is in it. Trees that join merge their engines; a
//   subtree that leaves takes the constraints wholly inside it and drops the ones that cross.
// - An engine *item* is a view (or a custom layout guide) with four solver variables: its
//   frame x, y, width, height in its superview's space, ignoring bounds origins (as a scroll
//   view's content: constraints place content, scrolling does not move them) and transforms
//   (as UIKit, which sets `bounds` and `center`). A view is an item while a constraint uses it.
// - A position attribute is expressed in the space of the nearest common ancestor A of the
//   constraint's items: a view's left edge there is its x plus the x of each ancestor below A;
//   A's own edges are 0 and its width. A margins or safe-area guide is its owner's rectangle
//   inset by constants, read again when they change.
// - An item with `translatesAutoresizingMaskIntoConstraints` gets four required pins holding
//   its current frame (updated incrementally when its frame changes); an item with an intrinsic
//   content size gets `size >= intrinsic` at its compression resistance and `size <= intrinsic`
//   at its hugging priority.
// - Changes (activation, constant, priority, intrinsic size, pins) go to the solver at once,
//   incrementally; the solve runs at the next layout pass (`solveIfNeeded`), marks the
//   superviews of the views whose frame changed, and their `layoutSubviews` apply the frames.

/// A view's Auto Layout state, allocated the first time it takes part.
///
/// Auto Layout reaches a view only through its record: constraints, items and guides hold the
/// record (or the view unretained), never a `weak` reference to the view, which would give
/// every constrained view a side table and slow each of its retains (HitTestLayout/Storage.swift
/// states the invariant). The record dies with its view, or lives on as an empty husk while a
/// constraint still names it (`view` nil then, as UIKit's `firstItem` once the view is gone).
final class AutoLayoutNode: AutoLayoutNodeStorage {
    /// The view whose record this is; nil once it was deinitialized (cleared by the view's
    /// `deinit`, `viewWillDeinit`).
    @Unretained private(set) var view: View?

    init(view: View) {
        self.view = view
        super.init()
    }

    /// The engine of the tree this view is the root of.
    var ownedEngine: LayoutEngine?
    /// The constraints installed on this view (`View.constraints`), in the order added.
    var installed: [LayoutConstraint] = []
    /// The active constraints with this view, or one of its guides, as an item.
    var affecting: [LayoutConstraint] = []
    /// The engine items whose frames this view's `layoutSubviews` applies (its subviews' items,
    /// each at its `hostIndex`).
    var hosted: [EngineItem] = []
    var hugging: (LayoutPriority, LayoutPriority) = (.defaultLow, .defaultLow)
    var compression: (LayoutPriority, LayoutPriority) = (.defaultHigh, .defaultHigh)
    var marginsGuide: LayoutGuide?
    var safeAreaGuide: LayoutGuide?
    var guides: [LayoutGuide] = []

    func guidesDidChange(_ view: View) {
        guard let engine = item?.engine ?? affecting.first?.engine else { return }
        for c in affecting where c.usesGuideInsets { engine.refreshConstant(c) }
    }

    func intrinsicSizeDidChange(_ view: View) {
        guard let item, let engine = item.engine else { return }
        engine.queueIntrinsic(item)
    }

    /// The view is being deinitialized: drops every unretained reference to it and what the
    /// record held for it (its engine, its lists), as if the record died with it.
    func viewWillDeinit() {
        view = nil
        // The item stays in its engine until its constraints go; its internal constraints name
        // this record, so the record lets go of it (no cycle keeps either alive).
        item?.view = nil
        item = nil
        for c in installed { c.installedOn = nil }
        installed = []
        affecting = []
        for it in hosted { it.host = nil }
        hosted = []
        pendingApply = []
        marginsGuide?.owningView = nil
        safeAreaGuide?.owningView = nil
        for g in guides { g.owningView = nil }
        ownedEngine = nil
    }

    /// Takes `it`, which leaves its engine while queued here, out of `pendingApply` (O(queue)).
    func dropPending(_ it: EngineItem) {
        if let k = pendingApply.lastIndex(of: Int32(it.index)) { pendingApply.remove(at: k) }
    }

    /// Adds `it` to the items whose frames this record's view applies.
    func host(_ it: EngineItem) {
        it.$host = $view  // the reference copied, without a retain
        it.hostIndex = hosted.count
        hosted.append(it)
    }

    /// Removes `it` from the items this view applies (O(1)).
    func unhost(_ it: EngineItem) {
        let last = hosted.removeLast()
        if last !== it {
            hosted[it.hostIndex] = last
            last.hostIndex = it.hostIndex
        }
        it.host = nil
    }
}

/// A view or custom guide in an engine: its four variables and its internal constraints.
final class EngineItem: EngineItemStorage {
    /// The view it stands in, unretained: cleared by the view's `deinit` (through its record)
    /// and when the item leaves its engine.
    @Unretained var view: View? = nil
    weak var guide: LayoutGuide?
    weak var engine: LayoutEngine?
    /// Its engine's identity while in it (nil once removed): compared instead of loading the
    /// weak `engine`, whose every read costs atomics.
    var engineID: ObjectIdentifier?
    /// Its four solver variables, for its whole life (constants: the hot loops read them).
    let x: Int64, y: Int64, w: Int64, h: Int64
    /// Active constraints using it.
    var useCount = 0
    /// The four autoresizing pins (x, y, width, height), when it translates its mask.
    var pins: [LayoutConstraint] = []
    /// Intrinsic-size constraints: width ≥, width ≤, height ≥, height ≤ (nil when absent).
    var intrinsic: [LayoutConstraint?] = [nil, nil, nil, nil]
    /// The superview whose record hosts this item (`AutoLayoutNode.hosted`), unretained:
    /// cleared when it leaves that list, which the superview's `deinit` empties.
    @Unretained var host: View? = nil

    /// Position in the host's `hosted`.
    var hostIndex = 0
    var pinsQueued = false
    var intrinsicQueued = false
    /// In the engine's list of items to compare at the next solve (`recheck`).
    var recheckQueued = false

    var variables: [Int64] { [x, y, w, h] }

    /// Marks the item queued for its host's apply: false when it was already.
    @inline(__always) func markApplyQueued() -> Bool {
        if applyQueued { return false }
        applyQueued = true
        return true
    }

    /// The view of the item at `slot` of `items` when it is queued for the apply of `host` (its
    /// host); nil otherwise (a free slot, or another item there). Its own function, with no call
    /// inside: the item is read where it lies, without a retain.
    @inline(__always) static func queued(
        in items: UnsafeBufferPointer<EngineItem?>, at slot: Int, by host: Unretained<View>
    ) -> Unretained<View>? {
        guard slot >= 0, slot < items.count, let it = items[slot], it.applyQueued, it.$host.isIdentical(to: host) else { return nil }
        return it.$view
    }

    /// Leaves its engine (removed, or the engine died): its view, guide and host let go of it
    /// and it of them; `removed` is what the hot paths read.
    func leaveEngine() {
        if let host {
            let node = host.autoLayoutNode
            if applyQueued { node.dropPending(self) }
            node.unhost(self)
        }
        applyQueued = false
        if let view, view.autoLayoutState?.item === self { view.autoLayoutState?.item = nil }
        view = nil
        if let guide, guide.item === self { guide.item = nil }
        engine = nil
        engineID = nil
        removed = true
    }

    init(x: Int64, y: Int64, w: Int64, h: Int64) {
        self.x = x
        self.y = y
        self.w = w
        self.h = h
        super.init()
    }
}

/// What a layout pass hands the C core to apply its subviews' solved frames at once
/// (`View.setSubviewLayoutFrames`): per view its node, frame (x, y, width, height) and position
/// in the pass's queue; `resize` receives the indices the core leaves to the views' setters.
/// Each list has room for the longest queue seen (entries past a pass's count are stale).
struct ApplyLists {
    var nodes: [Int32] = []
    var frames: [Double] = []
    var positions: [Int32] = []
    var resize: [UInt32] = []

    /// Runs `body` on the node, frame and position lists, in place.
    mutating func withUnsafeMutableBuffers<R>(
        _ body: (UnsafeMutableBufferPointer<Int32>, UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Int32>) -> R
    ) -> R {
        nodes.withUnsafeMutableBufferPointer { nodes in
            frames.withUnsafeMutableBufferPointer { frames in
                positions.withUnsafeMutableBufferPointer { positions in body(nodes, frames, positions) }
            }
        }
    }

    /// Room for `count` views.
    mutating func reserve(_ count: Int) {
        guard nodes.count < count else { return }
        nodes = [Int32](repeating: -1, count: count)
        frames = [Double](repeating: 0, count: 4 * count)
        positions = [Int32](repeating: -1, count: count)
        resize = [UInt32](repeating: 0, count: count)
    }
}

/// The solver of one view tree and the map from its constraints to the solver's.
final class LayoutEngine {
    private(set) var solver = SolverCore()
    /// The items by slot (`EngineItem.index`, theirs while in the engine; nil: a free slot).
    /// Lists that name items for later (`AutoLayoutNode.pendingApply`, the solve's scratch)
    /// hold slots, which cost no reference counting.
    private(set) var items: ContiguousArray<EngineItem?> = []
    /// Each slot's solved frame (the last solve's values of its item's variables) and whether
    /// it is still to be compared with its view at the next solve even if it agrees (a new
    /// item, or pins changed: `queueRecheck`). Columns beside `items`, so that the solve and the
    /// apply read and write them without touching an item.
    private(set) var solvedFrames: ContiguousArray<Rect> = []
    private var unapplied: ContiguousArray<Bool> = []
    /// The free slots of `items`, reused first.
    private var freeSlots: [Int] = []
    /// The items in the engine.
    private var itemCount = 0
    /// Constraints in the solver by handle (user and internal), for conflict reports.
    private var byHandle: [Int64: LayoutConstraint] = [:]
    /// Active user constraints (broken ones included).
    private(set) var userConstraints: [ObjectIdentifier: LayoutConstraint] = [:]
    private var safeAreaConstraints: [ObjectIdentifier: LayoutConstraint] = [:]
    private var pendingPins: [EngineItem] = []
    private var pendingIntrinsic: [EngineItem] = []
    /// Each solver variable's item and component, by slot: the solver reports variables.
    private var slots = SlotTable()
    /// Items to compare with their views at the next solve whatever the solver reports: new
    /// ones, and those whose pins changed (`unapplied`).
    private var recheck: [EngineItem] = []
    /// The lists a layout pass hands the C core (`applyAutoLayoutFrames`), kept between passes.
    var applyLists = ApplyLists()
    /// Scratch for a solve, taken out of the engine for its loops (locals need no exclusivity
    /// checks) and put back: the items whose values changed (by index in `items`: a list of
    /// indices holds no references, so filling it costs no reference counting) and their new
    /// frames, both with room for every item (entries past a solve's count are stale), and each
    /// item's position in those lists (by item index; -1: not changed).
    private var changedItems: ContiguousArray<Int32> = []
    private var changedFrames: [Rect] = []
    private var changedPosition: ContiguousArray<Int32> = []
    private var dirty = false
    /// After a solve that moved views, safe-area constants may have changed.
    private var recheckSafeArea = false

    /// Whether a solve would change anything.
    var isDirty: Bool {
        if dirty { return true }
        if recheckSafeArea {
            recheckSafeArea = false
            for c in safeAreaConstraints.values { refreshConstant(c) }
        }
        return dirty
    }

    var isEmpty: Bool { userConstraints.isEmpty && itemCount == 0 }

    func markDirty() { dirty = true }

    // MARK: Items

    /// The view's item, created (with its pins and intrinsic-size constraints) if needed.
    func item(for view: View) -> EngineItem {
        let node = view.autoLayoutNode
        if let it = node.item {
            precondition(it.engineID == ObjectIdentifier(self), "HitTestKit: a view is an item of two layout engines")
            return it
        }
        let it = newItem()
        it.view = view
        node.item = it
        view.storedSuperview?.autoLayoutNode.host(it)
        solvedFrames[it.index] = view.layoutFrame
        if view.translatesMaskIntoConstraints { addPins(it, view) }
        updateIntrinsic(it, view)
        return it
    }

    /// A custom guide's item, created if needed.
    func item(for guide: LayoutGuide) -> EngineItem {
        if let it = guide.item {
            precondition(it.engineID == ObjectIdentifier(self), "HitTestKit: a layout guide is an item of two layout engines")
            return it
        }
        let it = newItem()
        it.guide = guide
        guide.item = it
        return it
    }

    /// An engine dies with its tree's root: its items leave it, as if removed, so that their
    /// views and guides hold no item of a dead engine (`removed` is what the hot paths read).
    deinit {
        for case let it? in items { it.leaveEngine() }
    }

    private func newItem() -> EngineItem {
        let it = EngineItem(
            x: solver.newVariable(), y: solver.newVariable(), w: solver.newVariable(), h: solver.newVariable())
        it.engine = self
        it.engineID = ObjectIdentifier(self)
        if let slot = freeSlots.popLast() {
            it.index = slot
            items[slot] = it
            solvedFrames[slot] = .zero
        } else {
            it.index = items.count
            items.append(it)
            solvedFrames.append(.zero)
            unapplied.append(true)
        }
        itemCount += 1
        slots.set(it)
        queueRecheck(it)
        return it
    }

    private func queueRecheck(_ it: EngineItem) {
        unapplied[it.index] = true
        if !it.recheckQueued {
            it.recheckQueued = true
            recheck.append(it)
        }
    }

    func retain(_ it: EngineItem) { it.useCount += 1 }

    func release(_ it: EngineItem) {
        it.useCount -= 1
        if it.useCount <= 0 { removeItem(it) }
    }

    private func removeItem(_ it: EngineItem) {
        for c in it.pins { removeInternal(c) }
        it.pins = []
        for case let c? in it.intrinsic { removeInternal(c) }
        it.intrinsic = [nil, nil, nil, nil]
        for v in it.variables {
            solver.freeVariable(v)
            slots.clear(v)
        }
        it.leaveEngine()
        items[it.index] = nil
        freeSlots.append(it.index)
        itemCount -= 1
        dirty = true
    }

    // MARK: Internal constraints

    private func addInternal(_ c: LayoutConstraint) {
        var e = LinearExpression()
        e.add(c.rawVariable, 1)
        e.constant = -c.constant
        c.engine = self
        c.active = true
        addToSolver(c, e)
    }

    /// Puts an internal constraint whose solver constraint was removed back (fitting sizes).
    func readd(_ c: LayoutConstraint) {
        byHandle[c.solverID] = nil
        c.solverID = -1
        addInternal(c)
    }

    private func removeInternal(_ c: LayoutConstraint) {
        if c.solverID >= 0 {
            solver.remove(c.solverID)
            byHandle[c.solverID] = nil
            c.solverID = -1
        }
        c.active = false
        c.engine = nil
        dirty = true
    }

    private func addPins(_ it: EngineItem, _ view: View) {
        let f = view.layoutFrame
        it.pins = [
            LayoutConstraint(internal: .autoresizingMask, item: view, attribute: .left, relation: .equal, constant: f.minX, priority: .required, variable: it.x),
            LayoutConstraint(internal: .autoresizingMask, item: view, attribute: .top, relation: .equal, constant: f.minY, priority: .required, variable: it.y),
            LayoutConstraint(internal: .autoresizingMask, item: view, attribute: .width, relation: .equal, constant: f.width, priority: .required, variable: it.w),
            LayoutConstraint(internal: .autoresizingMask, item: view, attribute: .height, relation: .equal, constant: f.height, priority: .required, variable: it.h),
        ]
        for c in it.pins { addInternal(c) }
    }

    /// The view's `translatesAutoresizingMaskIntoConstraints` changed.
    func translatesDidChange(_ it: EngineItem, _ view: View) {
        for c in it.pins { removeInternal(c) }
        it.pins = []
        if view.translatesMaskIntoConstraints { addPins(it, view) }
        queueRecheck(it)
        dirty = true
    }

    /// Brings the item's intrinsic-size constraints in line with `intrinsicContentSize` and
    /// its hugging and compression-resistance priorities.
    func updateIntrinsic(_ it: EngineItem, _ view: View) {
        let size = view.intrinsicContentSize
        let node = view.autoLayoutNode
        let specs: [(Double, LayoutConstraint.Relation, LayoutPriority, Int64, LayoutConstraint.Attribute)] = [
            (size.width, .greaterThanOrEqual, node.compression.0, it.w, .width),
            (size.width, .lessThanOrEqual, node.hugging.0, it.w, .width),
            (size.height, .greaterThanOrEqual, node.compression.1, it.h, .height),
            (size.height, .lessThanOrEqual, node.hugging.1, it.h, .height),
        ]
        for (i, (value, relation, priority, variable, attribute)) in specs.enumerated() {
            let wanted = value >= 0 && value.isFinite
            if let c = it.intrinsic[i] {
                if !wanted || c.isBroken || c.priority.isRequired != priority.isRequired {
                    removeInternal(c)
                    it.intrinsic[i] = nil
                } else {
                    if c.priority != priority { c.priority = priority }  // priorityDidChange
                    if c.constant != value { c.constant = value }  // constantDidChange
                    continue
                }
            }
            if wanted {
                let c = LayoutConstraint(internal: .contentSize, item: view, attribute: attribute, relation: relation, constant: value, priority: priority, variable: variable)
                it.intrinsic[i] = c
                addInternal(c)
            }
        }
    }

    func queueIntrinsic(_ it: EngineItem) {
        if !it.intrinsicQueued {
            it.intrinsicQueued = true
            pendingIntrinsic.append(it)
        }
        dirty = true
    }

    /// A translating item's frame changed outside the engine: its pins follow at the next solve.
    func queuePins(_ it: EngineItem) {
        if !it.pinsQueued {
            it.pinsQueued = true
            pendingPins.append(it)
        }
        dirty = true
    }

    func safeAreaDidChange() {
        if !safeAreaConstraints.isEmpty { dirty = true }
        for c in safeAreaConstraints.values { refreshConstant(c) }
    }

    // MARK: User constraints

    /// Adds an active constraint whose items share `space` as nearest common ancestor.
    func add(_ c: LayoutConstraint, space: View) {
        c.engine = self
        userConstraints[ObjectIdentifier(c)] = c
        var used: [EngineItem] = []
        let e = expression(of: c, in: space, items: &used)
        c.usedItems = used
        if c.usesSafeArea { safeAreaConstraints[ObjectIdentifier(c)] = c }
        c.isBroken = false
        let full = withConstant(e, c)
        addToSolver(c, full)
    }

    /// Adds `c`'s row `e` to the solver: its handle on success; on a conflict among required
    /// constraints, or with the layout range, broken and reported with the constraints it
    /// conflicts with (rule 18). A row the solver would refuse (a constant beyond its contract:
    /// a frame or inset far beyond the range) is out of range: an optional one pulls toward the
    /// edge of the contract, a required one is broken. [ours]
    private func addToSolver(_ c: LayoutConstraint, _ e: LinearExpression) {
        var e = e
        if !c.priority.isRequired { e.constant = LayoutEngine.clamped(e.constant) }
        dirty = true
        guard SolverCore.accepts(e) else {
            c.solverID = -1
            c.isBroken = true
            LayoutConstraint.report(issue(c, [], range: e.vars.first, constantChange: false))
            return
        }
        switch solver.add(e, relation: Int32(c.relation.rawValue), priority: c.priority.rawValue) {
        case .ok(let id):
            c.solverID = id
            c.solverConstant = e.constant
            byHandle[id] = c
        case .unsatisfiable(let ids, let range):
            c.solverID = -1
            c.isBroken = true
            LayoutConstraint.report(issue(c, ids, range: range, constantChange: false))
        }
    }

    /// A constant within the solver's contract (for optional rows, which may pull toward it).
    static func clamped(_ k: Double) -> Double { min(max(k, -SolverCore.maxConstant), SolverCore.maxConstant) }

    /// The issue of `c`: the constraints of `ids` (c left out) and, for a conflict with the
    /// range, the item and frame value of variable `range`.
    private func issue(_ c: LayoutConstraint, _ ids: [Int64], range: Int64?, constantChange: Bool) -> LayoutConstraint.Issue {
        var item: AnyObject?
        var attribute: LayoutConstraint.Attribute?
        if let v = range {
            if let (index, component) = slots.find(v), let it = items[index] {
                item = it.view ?? it.guide
                attribute = [LayoutConstraint.Attribute.left, .top, .width, .height][component]
            }
        }
        return LayoutConstraint.Issue(
            constraint: c, conflicting: ids.compactMap { byHandle[$0] }.filter { $0 !== c }, isOutOfRange: range != nil,
            outOfRangeItem: item, outOfRangeAttribute: attribute, isConstantChange: constantChange)
    }

    /// Removes an active constraint (deactivation, or before it moves to another engine).
    func remove(_ c: LayoutConstraint) {
        if c.solverID >= 0 {
            solver.remove(c.solverID)
            byHandle[c.solverID] = nil
            c.solverID = -1
        }
        userConstraints[ObjectIdentifier(c)] = nil
        safeAreaConstraints[ObjectIdentifier(c)] = nil
        let used = c.usedItems
        c.usedItems = []
        for it in used { release(it) }
        c.engine = nil
        c.isBroken = false
        dirty = true
    }

    private func withConstant(_ e: LinearExpression, _ c: LayoutConstraint) -> LinearExpression {
        var e = e
        e.constant -= c.constant
        return e
    }

    func constantDidChange(_ c: LayoutConstraint) {
        guard c.solverID >= 0 else { return }
        let total: Double
        if c.kind == .user {
            guard let space = c.space else { return }
            var scratch: [EngineItem] = []
            total = expression(of: c, in: space, items: &scratch, retaining: false).constant - c.constant
        } else {
            total = -c.constant
        }
        setConstant(c, total)
    }

    /// Recomputes the constant of a constraint that reads guide insets.
    func refreshConstant(_ c: LayoutConstraint) {
        constantDidChange(c)
    }

    private func setConstant(_ c: LayoutConstraint, _ total: Double) {
        let total = c.priority.isRequired ? total : LayoutEngine.clamped(total)
        if c.solverConstant == total { return }
        dirty = true
        guard abs(total) <= SolverCore.maxConstant else {
            // Beyond the solver's contract: out of range; the old constant stays. [ours]
            let v = c.kind == .user ? expressionVariable(c) : c.rawVariable
            LayoutConstraint.report(issue(c, [], range: v, constantChange: true))
            return
        }
        switch solver.setConstant(c.solverID, total) {
        case .ok:
            c.solverConstant = total
        case .unsatisfiable(let ids, let range):
            // The solver keeps the old constant: the change is what breaks. [ours]
            LayoutConstraint.report(issue(c, ids, range: range, constantChange: true))
        }
    }

    /// A variable of `c`'s expression (its first item's), for a report.
    private func expressionVariable(_ c: LayoutConstraint) -> Int64? {
        guard let first = c.usedItems.first else { return nil }
        return c.firstAttribute.axis == .horizontal ? (c.firstAttribute.isDimension ? first.w : first.x) : (c.firstAttribute.isDimension ? first.h : first.y)
    }

    func priorityDidChange(_ c: LayoutConstraint) {
        guard c.solverID >= 0 else { return }
        solver.setPriority(c.solverID, c.priority.rawValue)
        dirty = true
    }

    // MARK: Expressions

    /// `first − multiplier × second` in the space of `space`, retaining the items it uses.
    func expression(of c: LayoutConstraint, in space: View, items used: inout [EngineItem], retaining: Bool = true) -> LinearExpression {
        var e = LinearExpression()
        c.usesGuideInsets = false
        c.usesSafeArea = false
        if let first = c.firstItem { term(first, c.firstAttribute, 1, space, &e, &used, c, retaining) }
        if let second = c.secondItem { term(second, c.secondAttribute, -c.multiplier, space, &e, &used, c, retaining) }
        return e
    }

    private func use(_ it: EngineItem, _ used: inout [EngineItem], _ retaining: Bool) {
        if retaining {
            retain(it)
            used.append(it)
        }
    }

    /// Adds `k × item.attribute` (in `space`) to `e`.
    private func term(
        _ object: AnyObject, _ attribute: LayoutConstraint.Attribute, _ k: Double, _ space: View,
        _ e: inout LinearExpression, _ used: inout [EngineItem], _ c: LayoutConstraint, _ retaining: Bool
    ) {
        let horizontal = attribute.axis == .horizontal
        if let view = object as? View {
            if let fraction = attribute.edgeFraction {
                if view !== space { addOrigin(of: view, below: space, horizontal, k, &e, &used, retaining) }
                if fraction != 0 {
                    let it = item(for: view)
                    use(it, &used, retaining)
                    e.add(horizontal ? it.w : it.h, k * fraction)
                }
            } else {
                let it = item(for: view)
                use(it, &used, retaining)
                e.add(horizontal ? it.w : it.h, k)
            }
            return
        }
        guard let guide = object as? LayoutGuide, let owner = guide.owningView else {
            preconditionFailure("LayoutConstraint: a layout guide in a constraint must belong to a view (View.addLayoutGuide)")
        }
        if guide.kind == .custom {
            let git = item(for: guide)
            use(git, &used, retaining)
            if let fraction = attribute.edgeFraction {
                if owner !== space { addOrigin(of: owner, below: space, horizontal, k, &e, &used, retaining) }
                e.add(horizontal ? git.x : git.y, k)
                if fraction != 0 { e.add(horizontal ? git.w : git.h, k * fraction) }
            } else {
                e.add(horizontal ? git.w : git.h, k)
            }
            return
        }
        c.usesGuideInsets = true
        if guide.kind == .safeArea { c.usesSafeArea = true }
        let insets = guide.insets
        let near = horizontal ? insets.left : insets.top
        let far = horizontal ? insets.right : insets.bottom
        let oit = item(for: owner)
        use(oit, &used, retaining)
        let size = horizontal ? oit.w : oit.h
        if let fraction = attribute.edgeFraction {
            if owner !== space { addOrigin(of: owner, below: space, horizontal, k, &e, &used, retaining) }
            // near + fraction × (size − near − far)
            e.add(size, k * fraction)
            e.constant += k * (near + fraction * (-near - far))
        } else {
            e.add(size, k)
            e.constant -= k * (near + far)
        }
    }

    /// `k ×` the position of `view`'s frame origin in `space` (an ancestor): its x (or y) plus
    /// each ancestor's below `space`.
    private func addOrigin(
        of view: View, below space: View, _ horizontal: Bool, _ k: Double,
        _ e: inout LinearExpression, _ used: inout [EngineItem], _ retaining: Bool
    ) {
        var u = view
        while u !== space {
            let it = item(for: u)
            use(it, &used, retaining)
            e.add(horizontal ? it.x : it.y, k)
            guard let s = u.storedSuperview else {
                preconditionFailure("HitTestKit: a constraint's space is not an ancestor of its item")
            }
            u = s
        }
    }

    // MARK: Solving

    /// Syncs what changed outside (pins, intrinsic sizes, safe area), solves, and marks the
    /// superviews of the views whose frame changed.
    func solveIfNeeded() {
        guard isDirty || !pendingPins.isEmpty || !pendingIntrinsic.isEmpty else { return }
        while let it = pendingPins.popLast() {
            it.pinsQueued = false
            guard it.engineID == ObjectIdentifier(self), let view = it.view, it.pins.count == 4 else { continue }
            let f = view.layoutFrame
            let values = [f.minX, f.minY, f.width, f.height]
            for (c, value) in zip(it.pins, values) where c.constant != value { c.constant = value }
        }
        while let it = pendingIntrinsic.popLast() {
            it.intrinsicQueued = false
            guard it.engineID == ObjectIdentifier(self), let view = it.view else { continue }
            updateIntrinsic(it, view)
        }
        for c in safeAreaConstraints.values { refreshConstant(c) }
        solver.solve()
        dirty = false
        // The solver reports the variables whose value changed (O(changed) after an edit):
        // only their items are looked at, plus the new or re-pinned ones. The loops run on
        // locals (the scratch lists taken out of the engine).
        let (variables, values, count) = solver.changes()
        let slots = self.slots
        let items = self.items
        var changed = changedItems
        var frames = changedFrames
        var position = changedPosition
        var solvedFrames = self.solvedFrames
        var unapplied = self.unapplied
        changedItems = []
        changedFrames = []
        changedPosition = []
        self.solvedFrames = []
        self.unapplied = []
        if position.count < items.count { position.append(contentsOf: repeatElement(-1, count: items.count - position.count)) }
        // Each changed item gets a position in `changed` (with its last solved frame) the first
        // time one of its variables is reported; the variable's value goes into that frame. The
        // lists have room for every item (at most one entry each), so the loop writes through
        // buffers, with no growth or uniqueness check per value.
        let most = min(count, items.count) + recheck.count
        if changed.count < most {
            changed = ContiguousArray(repeating: -1, count: most)
            frames = [Rect](repeating: .zero, count: most)
        }
        var used = 0
        solvedFrames.withUnsafeBufferPointer { solved in
            position.withUnsafeMutableBufferPointer { position in
                changed.withUnsafeMutableBufferPointer { changed in
                    frames.withUnsafeMutableBufferPointer { frames in
                        for i in 0..<count {
                            guard let (index, component) = slots.find(variables[i]) else { continue }
                            var p = Int(position[index])
                            if p < 0 {
                                p = used
                                used += 1
                                position[index] = Int32(p)
                                changed[p] = Int32(index)
                                frames[p] = solved[index]
                            }
                            let value = values[i]
                            switch component {
                            case 0: frames[p].origin.x = value
                            case 1: frames[p].origin.y = value
                            case 2: frames[p].size.width = value
                            default: frames[p].size.height = value
                            }
                        }
                    }
                }
            }
        }
        while let it = recheck.popLast() {
            it.recheckQueued = false
            guard it.engineID == ObjectIdentifier(self) else { continue }
            let frame = solverFrame(of: it)
            let p = Int(position[it.index])
            if p >= 0 {
                frames[p] = frame
            } else {
                position[it.index] = Int32(used)
                changed[used] = Int32(it.index)
                frames[used] = frame
                used += 1
            }
        }
        var moved = false
        // Siblings come in runs: their superview is found, marked and its record looked up once
        // a run (a view of the same superview as the last is recognised without a reference).
        var lastHost = Unretained<View>(nil)
        var lastHostNode: AutoLayoutNode?
        position.withUnsafeMutableBufferPointer { position in
            for p in 0..<used { position[Int(changed[p])] = -1 }
        }
        // No reference to an item or record is held across a call the optimizer cannot see
        // into (the view's, the host's), so none is retained per view: the solution goes into
        // the columns, an item is read only for its view and its queued flag, where it lies,
        // and the slots a host queues are gathered at the front of `changed` (behind the reads)
        // and handed to its record once per run.
        var queued = 0
        var runStart = 0
        items.withUnsafeBufferPointer { items in
            solvedFrames.withUnsafeMutableBufferPointer { solved in
                unapplied.withUnsafeMutableBufferPointer { unapplied in
                    for p in 0..<used {
                        let index = Int(changed[p])
                        let frame = frames[p]
                        // The frame becomes the slot's solution; the view is asked when that is
                        // new, or not yet compared with it.
                        if frame == solved[index] && !unapplied[index] { continue }
                        solved[index] = frame
                        unapplied[index] = false
                        switch items[index]!.$view.solvedFrameTarget(frame, after: lastHost) {
                        case .none: continue
                        case .lastHost: break
                        case .host(let host):
                            lastHostNode?.pendingApply.append(contentsOf: changed[runStart..<queued])
                            runStart = queued
                            lastHost = Unretained(host)
                            lastHostNode = host.autoLayoutNode
                            host.setNeedsLayout()
                        }
                        moved = true
                        if items[index]!.markApplyQueued() {
                            changed[queued] = Int32(truncatingIfNeeded: index)
                            queued += 1
                        }
                    }
                }
            }
        }
        lastHostNode?.pendingApply.append(contentsOf: changed[runStart..<queued])
        changedItems = changed
        changedFrames = frames
        changedPosition = position
        self.solvedFrames = solvedFrames
        self.unapplied = unapplied
        if moved && !safeAreaConstraints.isEmpty { recheckSafeArea = true }
    }

    /// The solved frame of `it`, an item of this engine.
    func solvedFrame(of it: EngineItem) -> Rect {
        precondition(it.engineID == ObjectIdentifier(self), "HitTestKit: an item read from an engine it is not in")
        return solvedFrames[it.index]
    }

    /// The item's four values in the solver.
    private func solverFrame(of it: EngineItem) -> Rect {
        Rect(x: solver.value(it.x), y: solver.value(it.y), width: solver.value(it.w), height: solver.value(it.h))
    }

    /// Writes into `lists` the node and solved frame of each item of `queue` (slots) that
    /// `host`'s layout pass applies, with its position in the queue, and returns their number;
    /// the entries whose slot holds no item queued by `host` become -1.
    func fillApplyLists(_ lists: inout ApplyLists, from queue: inout [Int32], host: View) -> Int {
        var n = 0
        let me = Unretained(host)
        let items = self.items
        let solved = solvedFrames
        items.withUnsafeBufferPointer { items in
            solved.withUnsafeBufferPointer { solved in
                queue.withUnsafeMutableBufferPointer { queue in
                    lists.withUnsafeMutableBuffers { nodes, frames, positions in
                        for k in 0..<queue.count {
                            let slot = Int(queue[k])
                            guard let view = EngineItem.queued(in: items, at: slot, by: me) else {
                                queue[k] = -1
                                continue
                            }
                            guard let node = view.nodeApplied(by: host) else { continue }
                            let f = solved[slot]
                            nodes[n] = node
                            frames[4 * n] = f.minX
                            frames[4 * n + 1] = f.minY
                            frames[4 * n + 2] = f.width
                            frames[4 * n + 3] = f.height
                            positions[n] = Int32(k)
                            n += 1
                        }
                    }
                }
            }
        }
        return n
    }

    /// Removes everything from the solver and adds it all again, as a from-scratch build
    /// (for tests: an incremental result must equal it).
    func rebuild() {
        let users = Array(userConstraints.values)
        var spaces: [(LayoutConstraint, View)] = []
        for c in users {
            if let s = c.space { spaces.append((c, s)) }
            remove(c)
        }
        precondition(itemCount == 0, "HitTestKit: layout items left after removing every constraint")
        solver = SolverCore()
        slots = SlotTable()
        for (c, s) in spaces { add(c, space: s) }
    }
}

// MARK: - Activation

extension LayoutConstraint {
    /// The view whose space the constraint's positions are expressed in: its items' nearest
    /// common ancestor.
    var space: View? {
        guard let a = LayoutConstraint.anchorView(firstItem) else { return nil }
        guard let second = secondItem else { return a }
        guard let b = LayoutConstraint.anchorView(second) else { return nil }
        return View.nearestCommonAncestor(a, b)
    }

    /// The view an item stands in: the view itself, or a guide's owner.
    static func anchorView(_ item: AnyObject?) -> View? {
        if let v = item as? View { return v }
        if let g = item as? LayoutGuide { return g.owningView }
        return nil
    }

    var anchorViews: [View] {
        var out: [View] = []
        if let a = LayoutConstraint.anchorView(firstItem) { out.append(a) }
        if let b = LayoutConstraint.anchorView(secondItem), !out.contains(where: { $0 === b }) { out.append(b) }
        return out
    }

    func activate(installingOn explicit: View?) {
        if active {
            if let explicit, installedOn !== explicit {
                installedOn?.autoLayoutState?.removeInstalled(self)
                installedOn = explicit
                explicit.autoLayoutNode.installed.append(self)
            }
            return
        }
        // The weak items are read once: each read of a weak reference costs atomics.
        let first = firstItem, second = secondItem
        precondition(first != nil, "LayoutConstraint: cannot activate a constraint whose first item was deallocated")
        precondition(
            secondAttribute == .notAnAttribute || second != nil,
            "LayoutConstraint: cannot activate a constraint whose second item was deallocated")
        if let g = first as? LayoutGuide { precondition(g.owningView != nil, "LayoutConstraint: the layout guide \(g.identifier) has not been added to a view (View.addLayoutGuide)") }
        if let g = second as? LayoutGuide { precondition(g.owningView != nil, "LayoutConstraint: the layout guide \(g.identifier) has not been added to a view (View.addLayoutGuide)") }
        let a = LayoutConstraint.anchorView(first)
        let b = second.flatMap { LayoutConstraint.anchorView($0) }
        var space: View?
        if let a { space = second == nil ? a : b.flatMap { View.nearestCommonAncestor(a, $0) } }
        guard let space else {
            preconditionFailure(
                "Unable to activate constraint with anchors \(self) because they have no common ancestor.  Does the constraint or its anchors reference items in different view hierarchies?  That's illegal.")
        }
        LayoutPriority.requireValid(priority)
        active = true
        let host = explicit ?? space
        installedOn = host
        host.autoLayoutNode.installed.append(self)
        a?.autoLayoutNode.affecting.append(self)  // anchorViews, without reading the items again
        if let b, b !== a { b.autoLayoutNode.affecting.append(self) }
        let engine = space.treeRoot.ownedEngineCreating()
        engine.add(self, space: space)
    }

    func deactivate() {
        guard active else { return }
        active = false
        installedOn?.autoLayoutState?.removeInstalled(self)
        installedOn = nil
        for v in anchorViews { v.autoLayoutState?.removeAffecting(self) }
        engine?.remove(self)
    }
}

extension AutoLayoutNode {
    func removeInstalled(_ c: LayoutConstraint) {
        if let i = installed.lastIndex(where: { $0 === c }) { installed.remove(at: i) }
    }

    func removeAffecting(_ c: LayoutConstraint) {
        if let i = affecting.lastIndex(where: { $0 === c }) { affecting.remove(at: i) }
    }

    /// Queues a subview's item for the next `applyAutoLayoutFrames`, by its slot in the engine.
    func queueApply(_ it: EngineItem) {
        if it.markApplyQueued() { pendingApply.append(Int32(truncatingIfNeeded: it.index)) }
    }
}

// MARK: - Views and the engine

extension View {
    /// The Auto Layout state, allocated on first use.
    var autoLayoutNode: AutoLayoutNode {
        if let n = autoLayoutState { return n }
        let n = AutoLayoutNode(view: self)
        autoLayoutState = n
        return n
    }

    /// The topmost ancestor (O(depth)).
    var treeRoot: View {
        var r: View = self
        while let s = r.storedSuperview { r = s }
        return r
    }

    static func nearestCommonAncestor(_ a: View, _ b: View) -> View? {
        if a === b { return a }
        // Siblings, or a view and its superview: most constraints, without walking to the root.
        let sa = a.storedSuperview
        if sa === b { return b }
        if let sa, sa === b.storedSuperview { return sa }
        if a === b.storedSuperview { return a }
        func depth(_ v: View) -> Int {
            var d = 0
            var u = v
            while let s = u.storedSuperview { d += 1; u = s }
            return d
        }
        var x = a
        var y = b
        var dx = depth(a)
        var dy = depth(b)
        while dx > dy { x = x.storedSuperview!; dx -= 1 }
        while dy > dx { y = y.storedSuperview!; dy -= 1 }
        while x !== y {
            guard let sx = x.storedSuperview, let sy = y.storedSuperview else { return nil }
            x = sx
            y = sy
        }
        return x
    }

    func ownedEngineCreating() -> LayoutEngine {
        let node = autoLayoutNode
        if let e = node.ownedEngine { return e }
        let e = LayoutEngine()
        node.ownedEngine = e
        return e
    }

    // MARK: Hooks called by the view layer

    /// `center`, the bounds size or the anchor point changed: a translating view's pins follow
    /// at the next solve; a view Auto Layout places gets its solved frame back at its
    /// superview's next `layoutSubviews` (as UIKit's, which applies the engine's frames).
    func autoLayoutGeometryDidChange(_ node: AutoLayoutNode) {
        // Flags first, with no call between loading the item and reading them: the frames an
        // apply sets come back here (queued), and then the item is not even retained.
        let pins = translatesMaskIntoConstraints
        guard let it = node.item, !it.removed, pins || !it.applyQueued else { return }
        if pins {
            it.engine?.queuePins(it)
        } else if let host = storedSuperview {
            host.autoLayoutNode.queueApply(it)
        }
    }

    /// The default `layoutSubviews`: the solved frames of the subviews that use Auto Layout.
    /// - Complexity: O(the subviews whose solution moved or whose frame was set by hand since
    ///   the last call), after the tree's solve.
    func applyAutoLayoutFrames() {
        guard let node = autoLayoutState, !node.hosted.isEmpty else { return }
        // The items of one tree share its engine: solve it (it queues what moved), then apply.
        guard let engine = treeRoot.autoLayoutState?.ownedEngine else {
            node.pendingApply.removeAll()
            return
        }
        engine.solveIfNeeded()
        guard !node.pendingApply.isEmpty else { return }
        var queue = node.pendingApply
        node.pendingApply = []
        // The queue names items by slot in the engine: each entry is resolved there, and one
        // whose item has left (a slot freed, or reused by an item not queued here: not hosted
        // by this view) is dropped; the view of an item found must still take its frame from
        // this view (`nodeApplied`). The items found are unqueued at the end.
        // Every queued item stays quiet (`applyQueued`) while frames are set: its view's frame
        // effect comes back here. The frames go to the C core in one call, through lists the
        // engine keeps between passes; the views whose size changes (or all, when the core
        // cannot take the batch) through `setLayoutFrame`.
        var lists = engine.applyLists
        engine.applyLists = ApplyLists()
        lists.reserve(queue.count)
        let n = engine.fillApplyLists(&lists, from: &queue, host: self)
        if let resized = setSubviewLayoutFrames(count: n, nodes: lists.nodes, frames: lists.frames, resize: &lists.resize) {
            for r in 0..<resized { setLayoutFrame(of: engine, queue[Int(lists.positions[Int(lists.resize[r])])]) }
        } else {
            for p in 0..<n { setLayoutFrame(of: engine, queue[Int(lists.positions[p])]) }
        }
        let me = Unretained(self)
        engine.items.withUnsafeBufferPointer { items in
            for slot in queue where slot >= 0 && Int(slot) < items.count {
                if let it = items[Int(slot)], it.$host.isIdentical(to: me) { it.applyQueued = false }
            }
        }
        engine.applyLists = lists
        // The queue's buffer serves the next solve (no growth from empty at each pass).
        queue.removeAll(keepingCapacity: true)
        if node.pendingApply.isEmpty { node.pendingApply = queue }
    }

    /// Sets the solved frame of the item at `slot` of `engine`, a subview's, through the view's
    /// setters.
    private func setLayoutFrame(of engine: LayoutEngine, _ slot: Int32) {
        guard let it = engine.items[Int(slot)], it.applyQueued, !it.removed, let s = it.view, s.takesSolvedFrame(from: self) else { return }
        s.setLayoutFrame(engine.solvedFrames[Int(slot)])
    }

    /// `view` was inserted into the receiver, from `oldSuperview` or as a root.
    func autoLayoutDidInsert(_ view: View, from oldSuperview: View?) {
        var moving: [(LayoutConstraint, View)] = []
        if let old = oldSuperview {
            moving = view.detachConstraints(fromTreeOf: old)
        } else if let engine = view.autoLayoutState?.ownedEngine {
            view.autoLayoutState?.ownedEngine = nil
            for c in engine.userConstraints.values {
                if let s = c.space { moving.append((c, s)) }
                engine.remove(c)
            }
        }
        guard !moving.isEmpty else { return }
        let engine = treeRoot.ownedEngineCreating()
        for (c, s) in moving { engine.add(c, space: s) }
    }

    /// The receiver was removed from `oldSuperview`: it becomes a root.
    func autoLayoutDidRemove(from oldSuperview: View) {
        let moving = detachConstraints(fromTreeOf: oldSuperview)
        guard !moving.isEmpty else { return }
        let engine = ownedEngineCreating()
        for (c, s) in moving { engine.add(c, space: s) }
    }

    /// The receiver's subtree left the tree of `old`: constraints between it and the rest are
    /// deactivated (as UIKit); those wholly inside are taken out of the old engine and returned,
    /// with their spaces, to be added to the subtree's new engine.
    /// - Complexity: O(depth) when the old tree has no engine, else O(subtree + its constraints).
    private func detachConstraints(fromTreeOf old: View) -> [(LayoutConstraint, View)] {
        guard let engine = old.treeRoot.autoLayoutState?.ownedEngine else { return [] }
        var found: [ObjectIdentifier: LayoutConstraint] = [:]
        var inside = Set<ObjectIdentifier>()
        forEachInSubtree { v in
            inside.insert(ObjectIdentifier(v))
            guard let node = v.autoLayoutState else { return }
            for c in node.affecting where c.engine === engine { found[ObjectIdentifier(c)] = c }
        }
        var moving: [(LayoutConstraint, View)] = []
        for c in found.values {
            if c.anchorViews.allSatisfy({ inside.contains(ObjectIdentifier($0)) }), let s = c.space {
                engine.remove(c)
                moving.append((c, s))
            } else {
                c.deactivate()
            }
        }
        engine.markDirty()
        return moving
    }
}

/// Each solver variable's engine item and component, by the variable's slot (the handle's low
/// 24 bits): the item's index in `LayoutEngine.items` × 4 + the component (x 0, y 1, width 2,
/// height 3), -1 for none, and the handle itself (a freed slot is reused with another handle).
private struct SlotTable {
    private var code: ContiguousArray<Int32> = []
    private var handle: ContiguousArray<Int64> = []

    private static func slot(_ v: Int64) -> Int { Int(v & 0xFF_FFFF) }

    /// Records the four variables of `it` at its current index.
    mutating func set(_ it: EngineItem) {
        for (component, v) in it.variables.enumerated() {
            let slot = SlotTable.slot(v)
            if slot >= code.count {
                code.append(contentsOf: repeatElement(-1, count: slot + 1 - code.count))
                handle.append(contentsOf: repeatElement(-1, count: slot + 1 - handle.count))
            }
            code[slot] = Int32(it.index * 4 + component)
            handle[slot] = v
        }
    }

    /// Forgets the freed variable `v`.
    mutating func clear(_ v: Int64) {
        let slot = SlotTable.slot(v)
        code[slot] = -1
        handle[slot] = -1
    }

    /// The item index and component of `v`, or nil when it is no item's.
    @inline(__always) func find(_ v: Int64) -> (index: Int, component: Int)? {
        let slot = SlotTable.slot(v)
        guard slot < code.count, handle[slot] == v else { return nil }
        let c = Int(code[slot])
        return c < 0 ? nil : (c >> 2, c & 3)
    }
}
