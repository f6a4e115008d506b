import CHitTest
import HitTestKit
import HitTestTestSupport
import Testing

/// The C contract that plain-C users rely on, called directly.
@Suite struct CAPITests {
    typealias Tree = CTestTree

    @Test func basicHitAndConversion() {
        let tree = Tree()
        let root = tree.node(0, 0, 100, 100)
        let child = tree.node(10, 10, 20, 20)
        #expect(ht_node_attach(tree.t, child, root, 0) == HT_OK)
        #expect(tree.hit(root, 15, 15) == child)
        #expect(tree.hit(root, 50, 50) == root)
        #expect(tree.hit(root, 150, 50) == HT_NULL_NODE)
        #expect(tree.hit(root, .nan, 50) == HT_NULL_NODE)
        var x = 0.0, y = 0.0
        #expect(ht_tree_convert_point(tree.t, root, child, 15, 15, &x, &y) == HT_OK)
        #expect(x == 5 && y == 5)
        var xy: [Double] = [15, 15, 50, 50, -1, -1]
        var out = [ht_node](repeating: 0, count: 3)
        #expect(ht_tree_hit_test_points(tree.t, root, &xy, 3, nil, &out) == HT_OK)
        #expect(out == [child, root, HT_NULL_NODE])
        var xs: [Double] = [15, 50], ys: [Double] = [15, 50]
        #expect(ht_tree_hit_test_xy(tree.t, root, &xs, &ys, 2, nil, &out) == HT_OK)
        #expect(Array(out.prefix(2)) == [child, root])
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    @Test("The answer grid's decision per point: by the cell, by its candidate list, or the walk")
    func answerGridDecision() {
        let tree = Tree()
        let root = tree.node(0, 0, 100, 100)
        let child = tree.node(10.3, 10.3, 20.2, 20.2)
        #expect(ht_node_attach(tree.t, child, root, 0) == HT_OK)
        var decision: Int32 = -1
        // No grid yet: the walk.
        #expect(ht_tree_answer_grid_decision(tree.t, root, 50, 50, &decision) == HT_OK)
        #expect(decision == Int32(HT_GRID_WALK.rawValue))
        #expect(ht_tree_prepare_points(tree.t, root) == HT_OK)
        // Far from every edge: the cell; across the child's edge: not the cell (its list, a
        // sub-grid or the walk), and every decided point's answer is the walk's.
        #expect(ht_tree_answer_grid_decision(tree.t, root, 70, 70, &decision) == HT_OK)
        #expect(decision == Int32(HT_GRID_CELL.rawValue))
        var seen = Set<Int32>()
        for i in 0...400 {
            let x = 10.3 + Double(i) * 0.0001, y = 15.0
            #expect(ht_tree_answer_grid_decision(tree.t, root, x, y, &decision) == HT_OK)
            seen.insert(decision)
            #expect(tree.hit(root, x, y) == (x < 10.3 ? root : child))
        }
        #expect(seen.isSubset(of: [Int32(HT_GRID_WALK.rawValue), Int32(HT_GRID_CELL.rawValue), Int32(HT_GRID_LIST.rawValue)]))
        #expect(ht_tree_answer_grid_decision(tree.t, 999, 1, 1, &decision) == HT_E_BAD_NODE)
        #expect(ht_tree_answer_grid_decision(tree.t, root, 1, 1, nil) == HT_E_INVALID_ARGUMENT)
    }

    @Test func badInputGetsAStatus() {
        let tree = Tree()
        let a = tree.node(0, 0, 10, 10)
        let b = tree.node(0, 0, 10, 10)
        var out: ht_node = 0
        #expect(ht_tree_hit_test(nil, a, 0, 0, nil, &out) == HT_E_INVALID_ARGUMENT)
        #expect(ht_tree_hit_test(tree.t, 12345, 0, 0, nil, &out) == HT_E_BAD_NODE)
        #expect(ht_tree_hit_test(tree.t, -7, 0, 0, nil, &out) == HT_E_BAD_NODE)
        #expect(ht_node_set_center(tree.t, a, .nan, 0) == HT_E_NOT_FINITE)
        #expect(ht_node_set_bounds(tree.t, a, 0, 0, .infinity, 1) == HT_E_NOT_FINITE)
        #expect(ht_node_set_alpha(tree.t, a, .nan) == HT_E_NOT_FINITE)
        var bad = ht_affine(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(ht_node_set_transform(tree.t, a, &bad) == HT_E_NOT_FINITE)
        #expect(ht_node_set_transform(tree.t, a, nil) == HT_E_INVALID_ARGUMENT)
        #expect(ht_node_set_flags(tree.t, a, 0x1000) == HT_E_INVALID_ARGUMENT)
        #expect(ht_node_attach(tree.t, a, a, 0) == HT_E_CYCLE)
        #expect(ht_node_attach(tree.t, b, a, 0) == HT_OK)
        #expect(ht_node_attach(tree.t, a, b, 0) == HT_E_CYCLE)
        #expect(ht_node_attach(tree.t, a, b, -1) == HT_E_INVALID_ARGUMENT)
        #expect(ht_node_free(tree.t, b) == HT_OK)
        #expect(ht_tree_hit_test(tree.t, b, 0, 0, nil, &out) == HT_E_STALE_NODE)
        #expect(ht_node_set_center(tree.t, b, 0, 0) == HT_E_STALE_NODE)
        #expect(ht_node_free(tree.t, b) == HT_E_STALE_NODE)
        let c = tree.node(0, 0, 1, 1)  // reuses b's slot with a new generation
        #expect(c != b)
        #expect(ht_tree_hit_test(tree.t, b, 0, 0, nil, &out) == HT_E_STALE_NODE)
        var parent: ht_node = 0
        #expect(ht_node_parent(tree.t, a, &parent) == HT_OK && parent == HT_NULL_NODE)
        #expect(String(cString: ht_status_string(HT_E_CYCLE)).contains("ancestor"))
        var singular = ht_affine(a: 0, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(ht_node_set_transform(tree.t, c, &singular) == HT_OK)
        var x = 0.0, y = 0.0
        #expect(ht_tree_convert_point(tree.t, a, c, 1, 1, &x, &y) == HT_E_SINGULAR)
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    /// A layout pass's frames in one call: children that keep their size move, the others are
    /// listed for the caller, a node of another parent is left alone, and a refused call
    /// (a stale node, a value not finite) writes nothing.
    @Test func layoutFramesInOneCall() {
        let tree = Tree()
        let root = tree.node(0, 0, 100, 100)
        let a = tree.node(0, 0, 10, 10), b = tree.node(0, 0, 10, 10), c = tree.node(0, 0, 10, 10)
        let stranger = tree.node(0, 0, 10, 10)
        for n in [a, b, c] { #expect(ht_node_attach(tree.t, n, root, 0) == HT_OK) }
        #expect(ht_node_set_anchor(tree.t, b, 0, 1) == HT_OK)
        func center(_ n: ht_node) -> (Double, Double) {
            var g = ht_node_geometry()
            #expect(ht_node_get_geometry(tree.t, n, &g) == HT_OK)
            return (g.center_x, g.center_y)
        }
        var resize = [UInt32](repeating: 99, count: 4)
        var count = 99
        var nodes = [a, b, c, stranger]
        var frames: [Double] = [20, 30, 10, 10, 40, 50, 10, 10, 60, 70, 11, 10, 80, 90, 10, 10]
        #expect(ht_tree_set_layout_frames(tree.t, root, &nodes, &frames, 4, &resize, &count) == HT_OK)
        #expect(count == 1 && resize[0] == 2)  // c's width differs: the caller's
        #expect(center(a) == (25, 35))
        #expect(center(b) == (40, 60))  // anchor (0, 1): the frame's bottom-left corner
        #expect(center(c) == (5, 5))
        #expect(center(stranger) == (5, 5))
        #expect(tree.hit(root, 22, 32) == a)
        frames[0] = .nan
        #expect(ht_tree_set_layout_frames(tree.t, root, &nodes, &frames, 4, &resize, &count) == HT_E_NOT_FINITE)
        frames[0] = 0
        #expect(ht_node_free(tree.t, stranger) == HT_OK)
        #expect(ht_tree_set_layout_frames(tree.t, root, &nodes, &frames, 4, &resize, &count) == HT_E_STALE_NODE)
        #expect(center(a) == (25, 35))  // nothing written by a refused call
        #expect(ht_tree_set_layout_frames(tree.t, root, &nodes, &frames, 3, nil, &count) == HT_E_INVALID_ARGUMENT)
        #expect(ht_tree_set_layout_frames(tree.t, root, &nodes, &frames, 0, nil, &count) == HT_OK && count == 0)
        // Frames the children have already change nothing: the prepared tree stays prepared.
        var same: [Double] = [20, 30, 10, 10, 40, 50, 10, 10]
        var two = [a, b]
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        #expect(ht_tree_set_layout_frames(tree.t, root, &two, &same, 2, &resize, &count) == HT_OK && count == 0)
        var out: ht_node = 0
        #expect(ht_tree_hit_test(tree.t, root, 22, 32, nil, &out) == HT_OK && out == a)
        same[0] = 21
        #expect(ht_tree_set_layout_frames(tree.t, root, &two, &same, 2, &resize, &count) == HT_OK)
        #expect(ht_tree_hit_test(tree.t, root, 22, 32, nil, &out) == HT_E_NOT_PREPARED)
        // A center that would not be finite is refused, as ht_node_set_center refuses it.
        let huge = tree.node(0, 0, 1e308, 10)
        #expect(ht_node_attach(tree.t, huge, root, 0) == HT_OK)
        #expect(ht_node_set_anchor(tree.t, huge, 1, 0.5) == HT_OK)
        let before = center(huge)
        var hugeNode = [huge]
        var hugeFrame: [Double] = [1e308, 0, 1e308, 10]
        #expect(ht_tree_set_layout_frames(tree.t, root, &hugeNode, &hugeFrame, 1, &resize, &count) == HT_E_NOT_FINITE)
        #expect(center(huge) == before)
        // The new center comes from the frame's size (setLayoutFrame's arithmetic), which equals
        // the bounds size by == only: from a bounds width of -0, a frame of width +0 at x -0
        // gets the center x of -0 + 0.5 × +0, that is +0.
        let flat = tree.node(0, 0, 0, 10)
        #expect(ht_node_attach(tree.t, flat, root, 0) == HT_OK)
        #expect(ht_node_set_bounds(tree.t, flat, 0, 0, -0.0, 10) == HT_OK)
        var flatNode = [flat]
        var flatFrame: [Double] = [-0.0, 7, 0, 10]
        #expect(ht_tree_set_layout_frames(tree.t, root, &flatNode, &flatFrame, 1, &resize, &count) == HT_OK && count == 0)
        #expect(center(flat).0.bitPattern == (-0.0 + 0.5 * 0.0).bitPattern)
        #expect(center(flat).0.bitPattern == 0.0.bitPattern)
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    /// Found by the API fuzzer: an extreme aspect ratio overflowed the answer grid's size.
    @Test func extremeAspectRatiosAreFine() {
        let tree = Tree()
        let root = tree.node(0, 0, 1e300, 1e-10)
        let child = tree.node(0, 0, 1e299, 1e-11)
        #expect(ht_node_attach(tree.t, child, root, 0) == HT_OK)
        #expect(ht_tree_prepare_points(tree.t, root) == HT_OK)
        #expect(ht_tree_validate(tree.t) == HT_OK)
        var xy: [Double] = [1, 1e-12, 5e299, 5e-11]
        var out = [ht_node](repeating: 0, count: 2)
        #expect(ht_tree_hit_test_points(tree.t, root, &xy, 2, nil, &out) == HT_OK)
        #expect(out == [child, root])
    }

    /// A hook that tries to change the tree gets HT_E_BUSY; nested hit tests are fine.
    @Test func hooksCannotMutate() {
        let tree = Tree()
        let root = tree.node(0, 0, 100, 100)
        let asker = tree.node(0, 0, 50, 50)
        #expect(ht_node_attach(tree.t, asker, root, 0) == HT_OK)
        #expect(ht_node_set_flags(tree.t, asker, UInt32(HT_FLAG_ASK_HIT_TEST)) == HT_OK)
        final class Box { var tree: OpaquePointer?; var statuses: [ht_status] = [] }
        let box = Box()
        box.tree = tree.t
        var hooks = ht_hooks(
            context: Unmanaged.passUnretained(box).toOpaque(), point_inside: nil,
            hit_test: { ctx, node, x, y, out in
                let box = Unmanaged<Box>.fromOpaque(ctx!).takeUnretainedValue()
                box.statuses.append(ht_node_set_center(box.tree, node, 1, 1))
                var n: ht_node = 0
                box.statuses.append(ht_node_create(box.tree, &n))
                var xy = [x, y]
                var inner: ht_node = 0
                box.statuses.append(ht_tree_hit_test_points(box.tree, node, &xy, 1, nil, &inner))
                box.statuses.append(ht_tree_prepare_points(box.tree, node))
                return ht_tree_hit_test_default(box.tree, node, x, y, nil, out) == HT_OK ? 0 : -1
            })
        var out: ht_node = 0
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        #expect(ht_tree_hit_test(tree.t, root, 10, 10, &hooks, &out) == HT_OK)
        #expect(out == asker)
        #expect(box.statuses == [HT_E_BUSY, HT_E_BUSY, HT_OK, HT_E_BUSY])
        #expect(ht_node_set_center(tree.t, asker, 1, 1) == HT_OK)  // free again afterwards
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    @Test func freeingAParentMakesChildrenRoots() {
        let tree = Tree()
        let p = tree.node(0, 0, 10, 10)
        let kids = (0..<3).map { _ in tree.node(0, 0, 5, 5) }
        for k in kids { #expect(ht_node_attach(tree.t, k, p, 99) == HT_OK) }
        var n: Int32 = 0
        #expect(ht_node_child_count(tree.t, p, &n) == HT_OK && n == 3)
        var second: ht_node = 0
        #expect(ht_node_child_at(tree.t, p, 1, &second) == HT_OK && second == kids[1])
        #expect(tree.hit(p, 1, 1) == kids[2])
        #expect(ht_node_free(tree.t, p) == HT_OK)
        var parent: ht_node = 0
        for k in kids { #expect(ht_node_parent(tree.t, k, &parent) == HT_OK && parent == HT_NULL_NODE) }
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    @Test func aHundredThousandDeepChain() {
        let tree = Tree()
        let depth = 100_000
        var nodes: [ht_node] = []
        nodes.reserveCapacity(depth)
        for i in 0..<depth {
            // Offsets alternate so the point stays inside every level.
            let n = tree.node(i % 2 == 0 ? 0.5 : -0.5, 0, 1000 - Double(i) * 0.001, 1000)
            if let last = nodes.last { #expect(ht_node_attach(tree.t, n, last, 0) == HT_OK) }
            nodes.append(n)
        }
        #expect(tree.hit(nodes[0], 500, 500) == nodes[depth - 1])
        var x = 0.0, y = 0.0
        #expect(ht_tree_convert_point(tree.t, nodes[depth - 1], nodes[0], 0, 0, &x, &y) == HT_OK)
        let offsets = (1..<depth).map { $0 % 2 == 0 ? 0.5 : -0.5 }.reduce(0, +)
        #expect(x == offsets && y == 0)
        // A cycle check at depth: attaching the root under the deepest node.
        #expect(ht_node_attach(tree.t, nodes[0], nodes[depth - 1], 0) == HT_E_CYCLE)
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }
}
