import CHitTest

/// With its debug-only companion `CCore+Mirror.swift`, the only file that imports `CHitTest`: every
/// pointer and `withUnsafe…` call of the library is here.
///
/// A `CoreTree` owns one C index (`ht_tree`) holding any number of view trees (a forest): the
/// views added to one another share it, and a view removed from its superview keeps its node,
/// so putting it back costs O(1). Every view with a node holds the `CoreTree` strongly; the
/// tree refers to its views without retaining them (a view frees its node in `deinit`).
package final class CoreTree: CoreTreeStorage {
    /// `ht_tree *`, owned here, never escapes.
    let tree: OpaquePointer
    // The view of each slot, `views`, `handlerCount`, and `activeQueries` and `prepared`
    // (below) are in `CoreTreeStorage` (Core/Storage.swift).
    // `activeQueries`: hit tests in progress on this index (handlers run inside them). The C
    // walk holds pointers into the derived structures, so the views must not change until they end.

    // `prepared`: false after any change to the C index until `ht_tree_prepare` has run: C
    // queries refuse a changed tree (they never write), so every query path prepares first, and
    // this flag keeps that to one C call per batch of changes rather than one per query.

    /// Stops with a clear message when a handler changes the views during a hit test; every
    /// change to the C index goes through here.
    private func mutating(_ what: @autoclosure () -> String) {
        prepared = false
        precondition(
            activeQueries == 0,
            "HitTestKit: \(what()) during a hit test (from a pointInsideHandler or hitTestHandler); handlers must not change views")
    }

    /// Runs a query, counting it as in progress.
    func querying<R>(_ body: () -> R) -> R {
        activeQueries += 1
        defer { activeQueries -= 1 }
        return body()
    }

    /// How many frames layout passes have handed to the batch (`writeLayoutFrames`) and not had
    /// back to resize, for the tests that must know the batch was taken, not only that its
    /// answers are right.
    private(set) var batchedLayoutFrames = 0

    override init() {
        var t: OpaquePointer?
        Self.check(ht_tree_create(0, &t), "creating a tree")
        tree = t!
    }

    deinit { ht_tree_destroy(tree) }

    /// Statuses other than HT_OK are either exhaustion (out of memory, node limit), which a
    /// view setter cannot report, or a broken invariant of this library: both stop the
    /// program with the C library's message rather than let the index drift from the views.
    static func check(_ status: ht_status, _ what: @autoclosure () -> String) {
        if status != HT_OK {
            fatalError("HitTestKit: \(what()) failed: \(String(cString: ht_status_string(status)))")
        }
    }

    private static func slot(_ handle: Int32) -> Int { nodeSlot(handle) }

    /// The view behind a handle.
    package func view(for handle: HitTestHandle) -> View? { view(for: handle.rawValue) }

    /// The view behind a handle that a C call returned.
    package func view(for handle: Int32) -> View? {
        guard handle >= 0 else { return nil }
        let s = Self.slot(handle)
        return s < views.count ? views[s].object : nil
    }

    // MARK: - Nodes

    /// Creates the node of `view` and writes all its attributes.
    func register(_ view: View) {
        mutating("adding a view")
        var h: Int32 = 0
        Self.check(ht_node_create(tree, &h), "creating a node")
        let s = Self.slot(h)
        if s >= views.count { views.append(contentsOf: repeatElement(Unretained(nil), count: s - views.count + 1)) }
        views[s] = Unretained(view)
        // What the box held moves into the row: from here on the view reads it there.
        let (geometry, attributes) = view.takeDetachedRow()
        view.core = self
        view.rows = NodeRows(of: self)
        view.node = h
        if view.hasHandler { handlerCount += 1 }
        writeCenter(geometry.center, of: view)
        writeBounds(geometry.bounds, of: view)
        writeAnchor(geometry.anchorPoint, of: view)
        writeTransform(geometry.transform, of: view)
        writeAlpha(attributes.alpha, of: view)
        writeInsets(attributes.insets, of: view)
        writePriority(attributes.priority, of: view)
        writeFlags(attributes.flags, of: view)
    }

    /// Frees the node of `view` (its children's nodes become roots); what its row held moves
    /// back into the view's box (`View.detached`), and the view may live on or join another index.
    func unregister(_ view: View) {
        mutating("freeing a view")
        let rows = NodeRows(of: self)
        view.giveBackRow(rows.geometry(of: view.node), rows.attributes(of: view.node))
        Self.check(ht_node_free(tree, view.node), "freeing a node")
        views[Self.slot(view.node)] = Unretained(nil)
        if view.hasHandler { handlerCount -= 1 }
        view.core = nil
        view.rows = nil
        view.node = -1
    }

    func handlerAdded() { handlerCount += 1 }
    func handlerRemoved() { handlerCount -= 1 }

    func attach(_ child: View, to parent: View, at index: Int) {
        mutating("moving a view")
        Self.check(
            ht_node_attach(tree, child.node, parent.node, Int32(clamping: index)), "attaching a node")
    }

    func detach(_ view: View) {
        mutating("removing a view")
        Self.check(ht_node_detach(tree, view.node), "detaching a node")
    }

    // MARK: - Attributes (values are checked finite by the view before they get here)

    /// The geometry of `node`, which lives in its row alone (`View.geometry`).
    func geometry(of node: Int32) -> ViewGeometry { NodeRows(of: self).geometry(of: node) }

    func writeCenter(_ c: Point, of v: View) {
        mutating("setting center")
        Self.check(ht_node_set_center(tree, v.node, c.x, c.y), "setting center")
    }

    /// Writes the centers of children of `parent` that keep their size at the layout frames
    /// `frames` (x, y, width, height per node) of the first `count` of `nodes`,
    /// `ht_tree_set_layout_frames`; the indices of the nodes whose size differs go to the start
    /// of `resize` (grown to `count` if shorter), their number is returned. Nil when the C core
    /// refused the batch (a stale or invalid node, a value or center not finite): nothing was
    /// written. The nodes must be this tree's (a handle does not say which tree it is of).
    func writeLayoutFrames(
        of parent: View, count: Int, nodes: [Int32], frames: [Double], resize: inout [UInt32]
    ) -> Int? {
        precondition(nodes.count >= count && frames.count >= 4 * count, "HitTestKit: a layout batch shorter than its count")
        mutating("applying layout frames")
        var resized = 0
        if resize.count < count { resize = [UInt32](repeating: 0, count: count) }
        let status = resize.withUnsafeMutableBufferPointer { out in
            ht_tree_set_layout_frames(tree, parent.node, nodes, frames, count, out.baseAddress, &resized)
        }
        guard status == HT_OK else { return nil }
        batchedLayoutFrames &+= count - resized
        return resized
    }

    func writeBounds(_ b: Rect, of v: View) {
        mutating("setting bounds")
        Self.check(
            ht_node_set_bounds(tree, v.node, b.minX, b.minY, b.width, b.height), "setting bounds")
    }

    func writeAnchor(_ a: Point, of v: View) {
        mutating("setting anchorPoint")
        Self.check(ht_node_set_anchor(tree, v.node, a.x, a.y), "setting anchorPoint")
    }

    func writeTransform(_ t: AffineTransform, of v: View) {
        mutating("setting transform")
        var m = ht_affine(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
        Self.check(ht_node_set_transform(tree, v.node, &m), "setting transform")
    }

    func writeAlpha(_ alpha: Double, of v: View) {
        mutating("setting alpha")
        Self.check(ht_node_set_alpha(tree, v.node, alpha), "setting alpha")
    }

    func writeInsets(_ i: EdgeInsets, of v: View) {
        mutating("setting hitTestInsets")
        Self.check(ht_node_set_insets(tree, v.node, i.top, i.left, i.bottom, i.right), "setting insets")
    }

    func writePriority(_ priority: Int32, of v: View) {
        mutating("setting hitTestPriority")
        Self.check(ht_node_set_priority(tree, v.node, priority), "setting hitTestPriority")
    }

    /// Writes the view's own flags (`ViewHitAttributes.flags`) into its row, with the handler
    /// flags the index derives from the view (`askFlags(of:)`).
    func writeFlags(_ flags: ViewFlags, of v: View) {
        mutating("setting a flag")
        Self.check(ht_node_set_flags(tree, v.node, flags.rawValue | Self.askFlags(of: v)), "setting flags")
    }

    /// Rewrites the handler flags of `v`'s row after its handlers changed.
    func writeAskFlags(of v: View) {
        writeFlags(NodeRows(of: self).flags(of: v.node), of: v)
    }

    /// The two flags that send the walk back to Swift (`HT_FLAG_ASK_*`), which the index derives
    /// from the view: its handlers, or a class of your own (`View.asksSwiftForHitTesting`).
    static func askFlags(of v: View) -> UInt32 {
        var f: UInt32 = 0
        if v.pointInsideHandler != nil || v.asksSwiftForHitTesting { f |= UInt32(HT_FLAG_ASK_POINT_INSIDE) }
        if v.hitTestHandler != nil || v.asksSwiftForHitTesting { f |= UInt32(HT_FLAG_ASK_HIT_TEST) }
        return f
    }

    // MARK: - Batches

    /// Runs `body` inside a C batch (`ht_tree_begin_batch` / `ht_tree_end_batch`): the views
    /// it changes invalidate the answer grid once, at the end, instead of at every setter. For
    /// a layout pass that moves many views.
    func batch<R>(_ body: () throws -> R) rethrows -> R {
        mutating("starting a batch of changes")
        Self.check(ht_tree_begin_batch(tree), "starting a batch")
        defer { Self.check(ht_tree_end_batch(tree), "ending a batch") }
        return try body()
    }

    // MARK: - Queries

    /// Brings the derived structures up to date (a write; C queries only read, and refuse a
    /// tree changed since, so every query path calls this first). Inside a query (a handler's
    /// nested hit test) nothing can have changed, and nothing is written.
    func prepare() {
        guard !prepared, activeQueries == 0 else { return }
        Self.check(ht_tree_prepare(tree), "preparing the index")
        prepared = true
    }

    /// `prepare()` for a query already counted in `activeQueries`: the outermost query of a
    /// handler's nested ones prepares (nothing can change while handlers run).
    func prepareInsideQuery() {
        guard !prepared, activeQueries == 1 else { return }
        Self.check(ht_tree_prepare(tree), "preparing the index")
        prepared = true
    }

    /// One hit test from `view` with `point` in its bounds space.
    func hitTest(_ view: View, _ point: Point, event: Event?, asDefault: Bool = false) -> View? {
        if let quiet = quietHitTest(view, point) { return quiet.answer }
        return querying { hitTestNow(view, point, event: event, asDefault: asDefault) }
    }

    /// `plainHitTest` when no handler is in the index and no query is running (then no Swift
    /// code can run inside the hit test); nil when the general path (`hitTest`) must answer.
    func quietHitTest(_ view: View, _ point: Point) -> QuietHitTest? {
        handlerCount == 0 && activeQueries == 0 ? QuietHitTest(answer: plainHitTest(view, point)) : nil
    }

    /// One hit test with no handler in the index and no query running: no Swift code can run
    /// inside it, so it is not counted as a query, and it may write the index
    /// (`ht_tree_hit_test_caching`: the C call prepares a changed index, and starts and fills an
    /// answer grid for `view` once queries come with no change between them), as the index is
    /// this thread's alone. The answers are `ht_tree_hit_test`'s.
    private func plainHitTest(_ view: View, _ point: Point) -> View? {
        var out: Int32 = -1
        Self.check(ht_tree_hit_test_caching(tree, view.node, point.x, point.y, &out), "hit test")
        prepared = true
        return self.view(for: out)
    }

    private func hitTestNow(_ view: View, _ point: Point, event: Event?, asDefault: Bool) -> View? {
        var out: Int32 = -1
        if handlerCount == 0 {
            // The C query checks that the tree is prepared (it refuses a changed one and writes
            // nothing), so the common case costs no check here.
            var status = ht_tree_hit_test(tree, view.node, point.x, point.y, nil, &out)
            if status == HT_E_NOT_PREPARED {
                Self.check(ht_tree_prepare(tree), "preparing the index")
                prepared = true
                status = ht_tree_hit_test(tree, view.node, point.x, point.y, nil, &out)
            }
            Self.check(status, "hit test")
            return self.view(for: out)
        }
        prepareInsideQuery()
        let context = HookContext(core: self, event: event)
        return context.run { hooks in
            asDefault
                ? ht_tree_hit_test_default(tree, view.node, point.x, point.y, hooks, &out)
                : ht_tree_hit_test(tree, view.node, point.x, point.y, hooks, &out)
        } ?? self.view(for: out)
    }

    /// A hit test's answer (nil: no view) from `quietHitTest`.
    struct QuietHitTest {
        /// The view hit, or nil.
        let answer: View?
    }

    package func handle(of view: View) -> HitTestHandle { HitTestHandle(rawValue: view.node) }

    /// Writes the index to `path` (`ht_tree_save_file`), prepared, for the C kernel driver
    /// (`hittest-bench --save-index`); false when it cannot be written.
    package func saveIndex(to path: String) -> Bool {
        prepare()
        return ht_tree_save_file(tree, path) == HT_OK
    }

    /// The one bulk path: the `count` points `points[i]` from `view` into `out`.
    ///
    /// Everything the C queries read is prepared here, on the calling thread (the answer grid
    /// too, for large calls). On one thread, handlers are called in the walk; over several,
    /// the workers only read the prepared index without hooks (handler points come back as
    /// HT_PENDING_NODE) and those points are answered again on the calling thread, with hooks.
    /// Same answers either way.
    func bulk(
        _ view: View, _ points: StridedPoints, count: Int, threads: Int?,
        into out: UnsafeMutablePointer<HitTestHandle>
    ) {
        if activeQueries == 0 {
            if count >= Int(HT_BULK_GRID_MIN) { prepareAnswers(for: view, points: count) } else { prepare() }
        }
        let n = Parallel.threads(threads, count: count)
        let node = view.node
        let results = SharedResults(out)
        querying {
            if n <= 1 && handlerCount > 0 {
                let context = HookContext(core: self, event: nil)
                let foreign = context.run { hooks in points.hitTest(tree, node, 0..<count, hooks: hooks, into: results) }
                precondition(foreign == nil, "a hitTestHandler returned a view of another tree in a bulk hit test")
                return
            }
            let shared = SharedTree(tree)
            Parallel.forEachSlice(count: count, threads: n) { range in
                CoreTree.check(points.hitTest(shared.tree, node, range, hooks: nil, into: results), "bulk hit test")
            }
            guard handlerCount > 0 else { return }
            for i in 0..<count where out[i] == .needsHandler {
                let answer = hitTestNow(view, points[i], event: nil, asDefault: false)
                precondition(
                    answer == nil || answer?.core === self,
                    "a hitTestHandler returned a view of another tree in a bulk hit test")
                out[i] = HitTestHandle(rawValue: answer?.node ?? -1)
            }
        }
    }

    /// Builds the answer grid for bulk queries from `view` (`ht_tree_prepare_points`), all of
    /// it; with `points`, before a bulk query of that many points, its sub-grids only once the
    /// points announced pay for them (`ht_tree_prepare_points_for`).
    func prepareAnswers(for view: View, points: Int? = nil) {
        guard activeQueries == 0 else { return }
        if let points {
            Self.check(ht_tree_prepare_points_for(tree, view.node, max(0, points)), "preparing bulk queries")
        } else {
            Self.check(ht_tree_prepare_points(tree, view.node), "preparing bulk queries")
        }
        prepared = true
    }

    /// An independent copy of the index for `HitTestSnapshot`, prepared for bulk queries from
    /// `view` so that every later query on it only reads.
    package func clone(preparedFor view: View) -> FrozenTree {
        var copy: OpaquePointer?
        Self.check(ht_tree_clone(tree, &copy), "copying the index")
        Self.check(ht_tree_prepare_points(copy, view.node), "preparing the copy")
        return FrozenTree(copy!)
    }

    // MARK: - Presentation copies (Animation/PresentationHitTesting.swift)

    /// The values a presentation copy gives one node instead of its model row.
    package struct PresentedRow {
        package let node: Int32
        package let center: Point
        package let bounds: Rect
        package let transform: AffineTransform
        package let alpha: Double
        package let flags: ViewFlags

        package init(node: Int32, center: Point, bounds: Rect, transform: AffineTransform, alpha: Double, flags: ViewFlags) {
            self.node = node
            self.center = center
            self.bounds = bounds
            self.transform = transform
            self.alpha = alpha
            self.flags = flags
        }
    }

    /// Every view with a node in this index, in slot order.
    package func forEachView(_ body: (View) -> Void) {
        for reference in views { if let view = reference.object { body(view) } }
    }

    /// An independent copy of the index with `rows` written over their nodes, prepared for
    /// queries from `view` (with the answer grid when `bulk`).
    package func clone(preparedFor view: View, overriding rows: [PresentedRow], bulk: Bool) -> FrozenTree {
        var copy: OpaquePointer?
        Self.check(ht_tree_clone(tree, &copy), "copying the index")
        let frozen = FrozenTree(copy!)
        for r in rows {
            Self.check(ht_node_set_center(copy, r.node, r.center.x, r.center.y), "setting a presented center")
            let b = r.bounds
            Self.check(ht_node_set_bounds(copy, r.node, b.minX, b.minY, b.width, b.height), "setting presented bounds")
            let t = r.transform
            var m = ht_affine(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
            Self.check(ht_node_set_transform(copy, r.node, &m), "setting a presented transform")
            Self.check(ht_node_set_alpha(copy, r.node, r.alpha), "setting a presented alpha")
            Self.check(ht_node_set_flags(copy, r.node, r.flags.rawValue), "setting presented flags")
        }
        Self.check(bulk ? ht_tree_prepare_points(copy, view.node) : ht_tree_prepare(copy), "preparing the copy")
        return frozen
    }

    /// `convert(_:to:)` between two nodes of this index; nil when it is not finite.
    func convert(_ point: Point, from: View, to: View) -> Point? {
        var x = 0.0
        var y = 0.0
        let st = ht_tree_convert_point(tree, from.node, to.node, point.x, point.y, &x, &y)
        return st == HT_OK ? Point(x: x, y: y) : nil
    }
}

/// Points as two strided arrays of doubles: interleaved x, y (`stride` 2, `ys = xs + 1`) or
/// separate arrays (`stride` 1). The one shape every bulk call passes to C.
struct StridedPoints: @unchecked Sendable {
    let xs: UnsafePointer<Double>
    let ys: UnsafePointer<Double>
    let stride: Int

    subscript(i: Int) -> Point { Point(x: xs[i * stride], y: ys[i * stride]) }

    /// `ht_tree_hit_test_strided` over `range`, writing `out[range]`.
    func hitTest(
        _ tree: OpaquePointer, _ node: Int32, _ range: Range<Int>, hooks: UnsafePointer<ht_hooks>?,
        into out: SharedResults
    ) -> ht_status {
        let first = range.lowerBound * stride
        return out.pointer.withMemoryRebound(to: Int32.self, capacity: range.upperBound) { raw in
            ht_tree_hit_test_strided(
                tree, node, xs + first, ys + first, stride, range.count, hooks, raw + range.lowerBound)
        }
    }
}

/// The result buffer handed to worker threads. Sound because each writes a disjoint slice.
struct SharedResults: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<HitTestHandle>
    init(_ pointer: UnsafeMutablePointer<HitTestHandle>) { self.pointer = pointer }
}

/// The tree handed to worker threads. Sound because queries without hooks only read a prepared
/// tree (hittest.h's read-only contract).
private struct SharedTree: @unchecked Sendable {
    let tree: OpaquePointer
    init(_ tree: OpaquePointer) { self.tree = tree }
}

/// A prepared copy of an index that is never mutated: any thread may query it.
package final class FrozenTree: @unchecked Sendable {
    private let tree: OpaquePointer

    init(_ tree: OpaquePointer) { self.tree = tree }
    deinit { ht_tree_destroy(tree) }

    /// How the answer grid of `root` decides `point` (`ht_tree_answer_grid_decision`: 0 the
    /// walk, 1 its cell, 2 the cell's candidate list); for the benchmark.
    package func gridDecision(_ root: HitTestHandle, _ point: Point) -> Int {
        var out: Int32 = 0
        CoreTree.check(ht_tree_answer_grid_decision(tree, root.rawValue, point.x, point.y, &out), "answer grid decision")
        return Int(out)
    }

    package func hitTest(_ root: HitTestHandle, _ point: Point) -> HitTestHandle {
        var out: Int32 = -1
        CoreTree.check(ht_tree_hit_test(tree, root.rawValue, point.x, point.y, nil, &out), "hit test")
        return HitTestHandle(rawValue: out)
    }

    func bulk(
        _ root: HitTestHandle, _ points: StridedPoints, count: Int, threads: Int?,
        into out: UnsafeMutablePointer<HitTestHandle>
    ) {
        let shared = SharedTree(tree)
        let results = SharedResults(out)
        Parallel.forEachSlice(count: count, threads: Parallel.threads(threads, count: count)) { range in
            CoreTree.check(points.hitTest(shared.tree, root.rawValue, range, hooks: nil, into: results), "bulk hit test")
        }
    }

    /// Tests per point, for the benchmark.
    func countedHitTest(
        _ root: HitTestHandle, xy: UnsafePointer<Double>, count: Int, answerGrid: Bool,
        into out: UnsafeMutablePointer<HitTestHandle>
    ) -> UInt64 {
        var tests: UInt64 = 0
        out.withMemoryRebound(to: Int32.self, capacity: count) { raw in
            CoreTree.check(
                ht_tree_hit_test_points_counted(tree, root.rawValue, xy, count, answerGrid ? 1 : 0, raw, &tests),
                "counted hit test")
        }
        return tests
    }

    var memoryUsage: Int {
        var bytes = 0
        CoreTree.check(ht_tree_memory_usage(tree, &bytes), "memory usage")
        return bytes
    }
}

/// The state the C hooks need: which tree, which event, and a view answered by a handler that
/// the C side cannot name (a view of another tree), which ends the walk (any non-nil answer
/// is final in UIKit's recursion).
final class HookContext {
    let core: CoreTree
    let event: Event?
    var foreignAnswer: View?

    init(core: CoreTree, event: Event?) {
        self.core = core
        self.event = event
    }

    /// Runs `body` with hooks bound to this context. Returns the foreign answer if a handler
    /// gave one (the C result is then meaningless), else nil.
    func run(_ body: (UnsafePointer<ht_hooks>) -> ht_status) -> View? {
        let raw = unretainedContext(self)
        var hooks = ht_hooks(context: raw, point_inside: pointInsideHook, hit_test: hitTestHook)
        let status = withExtendedLifetime(self) { body(&hooks) }
        if status == HT_E_FOREIGN_ANSWER, let answer = foreignAnswer { return answer }
        CoreTree.check(status, "hit test")
        return nil
    }
}

private func pointInsideHook(
    _ raw: UnsafeMutableRawPointer?, _ node: ht_node, _ x: Double, _ y: Double
) -> Int32 {
    let context = object(fromContext: raw!, as: HookContext.self)
    guard let view = context.core.view(for: node), view.hasHandler else { return -1 }
    // Dynamic dispatch: an override, else the default (the handler, else the region).
    return view.point(inside: Point(x: x, y: y), with: context.event) ? 1 : 0
}

private func hitTestHook(
    _ raw: UnsafeMutableRawPointer?, _ node: ht_node, _ x: Double, _ y: Double,
    _ out: UnsafeMutablePointer<ht_node>?
) -> Int32 {
    let context = object(fromContext: raw!, as: HookContext.self)
    guard let view = context.core.view(for: node), view.hasHandler else { return -1 }
    let core = context.core
    // Dynamic dispatch: an override, else the default (the handler, else the C default walk
    // from this node).
    let answer = view.hitTest(Point(x: x, y: y), with: context.event)
    guard let answer else {
        out!.pointee = -1
        return 0
    }
    if answer.core === core {
        out!.pointee = answer.node
        return 0
    }
    context.foreignAnswer = answer
    return HT_HOOK_FOREIGN
}

extension CoreTree {
    /// Checks the C index's invariants (`ht_tree_validate`, derived structures included); for
    /// tests.
    func validate() -> Bool { ht_tree_validate(tree) == HT_OK }

    /// The walk alone, without the answer grid: the default hit test of `view`
    /// (`ht_tree_hit_test_default`), so `view`'s own `hitTestHandler` is not consulted. For
    /// tests that keep the walk under differential test now that the grid answers most points.
    func walkOnlyHitTest(_ view: View, _ point: Point) -> View? {
        hitTest(view, point, event: nil, asDefault: true)
    }
}

/// The flags a view sets in its C row (`ViewHitAttributes.flags`), as the index's bits
/// (`HT_FLAG_*`); the two handler flags are not among them (`CoreTree.askFlags(of:)`).
package struct ViewFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `isHidden`.
    package static let hidden = ViewFlags(rawValue: UInt32(HT_FLAG_HIDDEN))
    /// `!isUserInteractionEnabled`.
    package static let noInteraction = ViewFlags(rawValue: UInt32(HT_FLAG_NO_INTERACTION))
    /// `passesTouchesThrough`.
    package static let passesThrough = ViewFlags(rawValue: UInt32(HT_FLAG_PASS_THROUGH))
    /// `capturesSubviewTouches`.
    package static let captures = ViewFlags(rawValue: UInt32(HT_FLAG_CAPTURES))
    /// `allowsSubviewHitsOutsideBounds`.
    package static let outsideHits = ViewFlags(rawValue: UInt32(HT_FLAG_OUTSIDE_HITS))
    /// `clipsToBounds`.
    package static let clips = ViewFlags(rawValue: UInt32(HT_FLAG_CLIPS))
    /// `animationBlocksInteraction` (SEMANTICS A14): not interactive while an animation runs,
    /// apart from the model's `isUserInteractionEnabled`.
    package static let blocked = ViewFlags(rawValue: UInt32(HT_FLAG_BLOCKED))
    /// Every flag a view sets.
    package static let all: ViewFlags = [.hidden, .noInteraction, .passesThrough, .captures, .outsideHits, .clips, .blocked]
}

/// The slot of a node handle: its row in the C index (`HT_SLOT_MASK`; the rest of the handle is
/// the slot's generation).
@inline(__always) func nodeSlot(_ handle: Int32) -> Int { Int(UInt32(bitPattern: handle) & HT_SLOT_MASK) }

/// Where a view reads what its row stores (`View.rows`): the C index's stored rows
/// (`ht_tree_rows`), read by slot without a call or a retain, and the index itself, unretained,
/// which the quiet single-point hit test borrows (`View.hitTest`).
///
/// Invariant: held by a view only while it has a node in the index behind it (`CoreTree.register`
/// sets it, `unregister` clears it), and that view holds the index's `CoreTree`, so the rows'
/// struct is alive and its members non-null (a tree allocates its rows when it is created);
/// the members always point at the current rows (the C core updates them when a node's
/// creation moves them), so they are loaded at each access, never kept. `index` is the view's
/// `core` (the mirror check asserts it), so it is live while the view is.
package struct NodeRows {
    private let rows: UnsafePointer<ht_rows>
    /// The index the rows belong to, not retained: the view holding these rows holds it.
    let index: Unretained<CoreTree>

    /// The rows of `index`.
    init(of index: CoreTree) {
        rows = ht_tree_rows(index.tree)
        self.index = Unretained(index)
    }

    @inline(__always) private static func slot(_ node: Int32) -> Int { nodeSlot(node) }

    /// Element `s` of one row (non-null: see the invariant).
    @inline(__always) private func load<T>(_ row: KeyPath<ht_rows, UnsafePointer<T>?>, _ s: Int) -> T {
        rows.pointee[keyPath: row].unsafelyUnwrapped[s]
    }

    /// The centre of the live node `node`.
    @inline(__always) func center(of node: Int32) -> Point {
        let s = Self.slot(node)
        return Point(x: load(\.center_x, s), y: load(\.center_y, s))
    }

    /// The bounds of the live node `node`.
    @inline(__always) func bounds(of node: Int32) -> Rect {
        let s = Self.slot(node)
        return Rect(x: load(\.bounds_x, s), y: load(\.bounds_y, s), width: load(\.bounds_w, s), height: load(\.bounds_h, s))
    }

    /// The anchor point of the live node `node`.
    @inline(__always) func anchorPoint(of node: Int32) -> Point {
        let s = Self.slot(node)
        return Point(x: load(\.anchor_x, s), y: load(\.anchor_y, s))
    }

    /// The transform of the live node `node`.
    @inline(__always) func transform(of node: Int32) -> AffineTransform {
        let s = Self.slot(node)
        return AffineTransform(
            a: load(\.a, s), b: load(\.b, s), c: load(\.c, s), d: load(\.d, s), tx: load(\.tx, s), ty: load(\.ty, s))
    }

    /// The geometry of the live node `node`.
    @inline(__always) func geometry(of node: Int32) -> ViewGeometry {
        ViewGeometry(center: center(of: node), bounds: bounds(of: node), anchorPoint: anchorPoint(of: node), transform: transform(of: node))
    }

    /// The flags the view of the live node `node` set (`ViewHitAttributes.flags`): the row's
    /// public flags but the handler flags, which the index derives.
    @inline(__always) func flags(of node: Int32) -> ViewFlags {
        ViewFlags(rawValue: load(\.flags, Self.slot(node)) & ViewFlags.all.rawValue)
    }

    /// The alpha of the live node `node`.
    @inline(__always) func alpha(of node: Int32) -> Double { load(\.alpha, Self.slot(node)) }

    /// The hit-test insets of the live node `node`.
    @inline(__always) func insets(of node: Int32) -> EdgeInsets {
        let s = Self.slot(node)
        return EdgeInsets(top: load(\.inset_top, s), left: load(\.inset_left, s), bottom: load(\.inset_bottom, s), right: load(\.inset_right, s))
    }

    /// The hit-test priority of the live node `node`.
    @inline(__always) func priority(of node: Int32) -> Int32 { load(\.priority, Self.slot(node)) }

    /// The flags, alpha, insets and priority of the live node `node`.
    func attributes(of node: Int32) -> ViewHitAttributes {
        var a = ViewHitAttributes()
        a.flags = flags(of: node)
        a.alpha = alpha(of: node)
        a.insets = insets(of: node)
        a.priority = priority(of: node)
        return a
    }
}
