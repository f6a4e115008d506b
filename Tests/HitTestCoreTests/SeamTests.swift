import CHitTest
import Foundation
@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import HitTestReference
import Testing

/// The seams of issue 17: the typed handle, batches, read-only queries, the foreign-answer
/// status, and the stored-field table that drives defaults and records.
@Suite struct SeamTests {
    // MARK: - HitTestHandle

    @Test func handlesAreFourBytesWithNamedSentinels() {
        #expect(MemoryLayout<HitTestHandle>.size == 4)
        #expect(MemoryLayout<HitTestHandle>.stride == 4)
        #expect(HitTestHandle.none.rawValue == HT_NULL_NODE)
        #expect(HitTestHandle.needsHandler.rawValue == HT_PENDING_NODE)
        #expect(HitTestSnapshot.needsHandler == .needsHandler)
        #expect(!HitTestHandle.none.isView && !HitTestHandle.needsHandler.isView)
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        root.addSubview(child)
        #expect(root.hitTestHandle != child.hitTestHandle)
        #expect(Set([root.hitTestHandle, child.hitTestHandle, root.hitTestHandle]).count == 2)
        #expect(root.view(forHitTestHandle: HitTestHandle(rawValue: child.hitTestHandle.rawValue)) === child)
        #expect(root.view(forHitTestHandle: .none) == nil)
        #expect(root.view(forHitTestHandle: .needsHandler) == nil)
    }

    @Test func snapshotsAnswerNeedsHandlerForHandlerPoints() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let panel = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let asker = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        asker.pointInsideHandler = { _, p, _ in p.x < 10 }
        root.addSubview(panel)
        panel.addSubview(asker)
        let snapshot = root.makeHitTestSnapshot()
        #expect(snapshot.hitTest(Point(x: 5, y: 5)) == .needsHandler)
        #expect(snapshot.hitTest(Point(x: 80, y: 80)) == root.hitTestHandle)
        #expect(snapshot.hitTest(Point(x: 500, y: 5)) == .none)
        // The live tree runs the handler.
        #expect(root.hitTest([Point(x: 5, y: 5), Point(x: 20, y: 5)]).map { $0 === asker } == [true, false])
    }

    // MARK: - Batches

    /// A relayout of every view inside one batch (queried inside and after it) gives the same
    /// answers as the reference walk, single and bulk, over an answer grid that was live.
    @Test(arguments: 0..<6)
    func batchedRelayoutKeepsAnswers(seed: Int) {
        let tree = RandomTree.make(seed: UInt64(3000 + seed), options: .init(maxViews: 150, customisations: true))
        let root = tree.root
        let points = RandomTree.points(for: tree, count: 1500, seed: UInt64(seed))
        root.prepareHitTesting()
        var rng = SeededGenerator(seed: UInt64(seed))
        root.performHitTestingBatch {
            for (i, v) in tree.all.enumerated() where v !== root {
                v.center.x += rng.coordinate(-30...30)
                if i % 3 == 0 { v.bounds.size.width = max(0, v.bounds.size.width + rng.coordinate(-10...10)) }
                if i % 7 == 0 { v.isHidden.toggle() }
                // Queries inside a batch are answered too (without the answer grid).
                if i % 25 == 0 {
                    let p = points[i % points.count]
                    #expect(root.hitTest(p, with: nil) === Reference.hitTest(root, p))
                }
            }
            // Nested batches end with the outermost.
            root.performHitTestingBatch { tree.all.last?.center.y += 3 }
        }
        let bulk = root.hitTest(points)
        for (i, p) in points.enumerated() {
            #expect(bulk[i] === Reference.hitTest(root, p), "bulk at \(p)")
        }
        root.prepareHitTesting()
        for p in points.prefix(300) { #expect(root.hitTest(p, with: nil) === Reference.hitTest(root, p)) }
        #expect(root.core?.validate() == true)
    }

    // MARK: - C statuses

    final class CTree {
        var t: OpaquePointer?
        init() { _ = ht_tree_create(0, &t) }
        deinit { ht_tree_destroy(t) }
        func node(_ w: Double, _ h: Double, parent: ht_node = HT_NULL_NODE) -> ht_node {
            var n: ht_node = -1
            #expect(ht_node_create(t, &n) == HT_OK)
            #expect(ht_node_set_bounds(t, n, 0, 0, w, h) == HT_OK)
            #expect(ht_node_set_center(t, n, w / 2, h / 2) == HT_OK)
            if parent != HT_NULL_NODE { #expect(ht_node_attach(t, n, parent, Int32.max) == HT_OK) }
            return n
        }
    }

    /// Queries never write: a changed tree is refused until it is prepared again, and the
    /// refusal leaves it unprepared.
    @Test func queriesOnAChangedTreeAreRefused() {
        let tree = CTree()
        let root = tree.node(100, 100)
        let child = tree.node(10, 10, parent: root)
        var out: ht_node = 99
        var xy: [Double] = [5, 5]
        #expect(ht_tree_hit_test(tree.t, root, 5, 5, nil, &out) == HT_E_NOT_PREPARED)
        #expect(ht_tree_hit_test_points(tree.t, root, &xy, 1, nil, &out) == HT_E_NOT_PREPARED)
        #expect(ht_tree_hit_test(tree.t, root, 5, 5, nil, &out) == HT_E_NOT_PREPARED)
        #expect(out == 99)
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        #expect(ht_tree_hit_test(tree.t, root, 5, 5, nil, &out) == HT_OK && out == child)
        // Writing the same value is no change; a different one is.
        #expect(ht_node_set_center(tree.t, child, 5, 5) == HT_OK)
        #expect(ht_tree_hit_test(tree.t, root, 5, 5, nil, &out) == HT_OK)
        #expect(ht_node_set_center(tree.t, child, 50, 50) == HT_OK)
        #expect(ht_tree_hit_test(tree.t, root, 5, 5, nil, &out) == HT_E_NOT_PREPARED)
        // Conversions read only the rows: they work on a changed tree.
        var x = 0.0, y = 0.0
        #expect(ht_tree_convert_point(tree.t, root, child, 50, 50, &x, &y) == HT_OK && x == 5 && y == 5)
        #expect(String(cString: ht_status_string(HT_E_NOT_PREPARED)).contains("prepare"))
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    /// A hit_test hook answering a node of another tree has its own status; other failures
    /// keep HT_E_HOOK_FAILED.
    @Test func aForeignAnswerHasItsOwnStatus() {
        let tree = CTree()
        let root = tree.node(100, 100)
        let asker = tree.node(50, 50, parent: root)
        #expect(ht_node_set_flags(tree.t, asker, UInt32(HT_FLAG_ASK_HIT_TEST)) == HT_OK)
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        final class Box { var result: Int32 = 0 }
        let box = Box()
        var hooks = ht_hooks(
            context: Unmanaged.passUnretained(box).toOpaque(), point_inside: nil,
            hit_test: { ctx, _, _, _, out in
                out!.pointee = HT_NULL_NODE
                return Unmanaged<Box>.fromOpaque(ctx!).takeUnretainedValue().result
            })
        var out: ht_node = 0
        box.result = HT_HOOK_FOREIGN
        #expect(ht_tree_hit_test(tree.t, root, 10, 10, &hooks, &out) == HT_E_FOREIGN_ANSWER)
        var xy: [Double] = [10, 10, 80, 80]
        var many = [ht_node](repeating: 0, count: 2)
        #expect(ht_tree_hit_test_points(tree.t, root, &xy, 2, &hooks, &many) == HT_E_FOREIGN_ANSWER)
        box.result = 1
        #expect(ht_tree_hit_test(tree.t, root, 10, 10, &hooks, &out) == HT_E_HOOK_FAILED)
        box.result = 0
        #expect(ht_tree_hit_test(tree.t, root, 10, 10, &hooks, &out) == HT_OK && out == root)
    }

    /// A handler answering a view of another tree: the single hit test returns that view.
    @Test func aHandlerMayAnswerAViewOfAnotherTree() {
        let other = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let elsewhere = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
        other.addSubview(elsewhere)
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let redirect = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        redirect.hitTestHandler = { _, p, _, _ in p.x < 50 && p.y < 50 ? elsewhere : nil }
        root.addSubview(redirect)
        #expect(root.hitTest(Point(x: 10, y: 10), with: nil) === elsewhere)
        #expect(root.hitTest(Point(x: 80, y: 80), with: nil) === root)
    }

    @Test func batchesAreBalancedAndRefusedInsideHooks() {
        let tree = CTree()
        let root = tree.node(100, 100)
        #expect(ht_tree_end_batch(tree.t) == HT_E_INVALID_ARGUMENT)
        #expect(ht_tree_begin_batch(tree.t) == HT_OK)
        #expect(ht_tree_begin_batch(tree.t) == HT_OK)
        #expect(ht_tree_end_batch(tree.t) == HT_OK)
        #expect(ht_tree_end_batch(tree.t) == HT_OK)
        #expect(ht_tree_end_batch(tree.t) == HT_E_INVALID_ARGUMENT)
        #expect(ht_node_set_flags(tree.t, root, UInt32(HT_FLAG_ASK_POINT_INSIDE)) == HT_OK)
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        final class Box { var tree: OpaquePointer?; var status = HT_OK }
        let box = Box()
        box.tree = tree.t
        var hooks = ht_hooks(
            context: Unmanaged.passUnretained(box).toOpaque(),
            point_inside: { ctx, _, _, _ in
                let box = Unmanaged<Box>.fromOpaque(ctx!).takeUnretainedValue()
                box.status = ht_tree_begin_batch(box.tree)
                return 1
            }, hit_test: nil)
        var out: ht_node = 0
        #expect(ht_tree_hit_test(tree.t, root, 10, 10, &hooks, &out) == HT_OK && out == root)
        #expect(box.status == HT_E_BUSY)
        #expect(ht_tree_validate(tree.t) == HT_OK)
    }

    // MARK: - The change funnel

    /// Every attribute belongs to exactly one side of the funnel: an animatable attribute
    /// (given its old value, or for the geometry `changeAttribute`, which reads it when an
    /// effect needs it), or a plain one (`attributeDidChange(_:)`, without). No plain
    /// attribute has an effect that reads the old value (the change recorder, the bounds'
    /// size and origin), so none is ever given a made-up one.
    @Test func theFunnelsEntryPointsSplitTheAttributes() {
        let animatable = AnimatableAttribute.allCases.map(\.attribute)
        let plain = PlainViewAttribute.allCases.map(\.attribute)
        #expect(Set(animatable).isDisjoint(with: plain))
        #expect(Set(animatable + plain) == Set(ViewAttribute.allCases))
        #expect(animatable.count + plain.count == ViewAttribute.allCases.count)
        let readsOld: ViewAttribute.Effects = [.animation, .boundsSize, .boundsOrigin]
        for attribute in plain {
            #expect(attribute.effects.isDisjoint(with: readsOld), "\(attribute)")
            #expect(attribute.animatable == nil, "\(attribute)")
        }
        for attribute in AnimatableAttribute.allCases {
            #expect(attribute.attribute.animatable == attribute, "\(attribute)")
        }
    }

    // MARK: - The stored-field table

    /// A new node has the table's defaults (UIKit's `View(frame: .zero)`), and every setter's
    /// value reads back through `ht_node_get_record` and survives a snapshot round trip.
    @Test func recordsFollowTheFieldTable() {
        let tree = CTree()
        var n: ht_node = -1
        #expect(ht_node_create(tree.t, &n) == HT_OK)
        var r = ht_node_record()
        #expect(ht_node_get_record(tree.t, n, &r) == HT_OK)
        #expect(r.center_x == 0 && r.bounds_w == 0 && r.anchor_x == 0.5 && r.anchor_y == 0.5)
        #expect(r.transform.a == 1 && r.transform.d == 1 && r.transform.b == 0 && r.alpha == 1)
        #expect(r.flags == 0 && r.priority == 0 && r.parent == HT_NULL_NODE && r.child_count == 0)
        var m = ht_affine(a: 2, b: 0.5, c: -0.25, d: 3, tx: 7, ty: -8)
        #expect(ht_node_set_center(tree.t, n, 1, 2) == HT_OK)
        #expect(ht_node_set_bounds(tree.t, n, 3, 4, 5, 6) == HT_OK)
        #expect(ht_node_set_anchor(tree.t, n, 0.25, 0.75) == HT_OK)
        #expect(ht_node_set_transform(tree.t, n, &m) == HT_OK)
        #expect(ht_node_set_alpha(tree.t, n, 0.5) == HT_OK)
        #expect(ht_node_set_insets(tree.t, n, 1, -2, 3, -4) == HT_OK)
        #expect(ht_node_set_flags(tree.t, n, UInt32(HT_FLAG_CLIPS | HT_FLAG_CAPTURES)) == HT_OK)
        #expect(ht_node_set_priority(tree.t, n, -3) == HT_OK)
        #expect(ht_node_get_record(tree.t, n, &r) == HT_OK)
        #expect([r.center_x, r.center_y, r.bounds_x, r.bounds_y, r.bounds_w, r.bounds_h] == [1, 2, 3, 4, 5, 6])
        #expect([r.anchor_x, r.anchor_y, r.alpha] == [0.25, 0.75, 0.5])
        #expect([r.transform.a, r.transform.b, r.transform.c, r.transform.d, r.transform.tx, r.transform.ty] == [2, 0.5, -0.25, 3, 7, -8])
        #expect([r.inset_top, r.inset_left, r.inset_bottom, r.inset_right] == [1, -2, 3, -4])
        #expect(r.flags == UInt32(HT_FLAG_CLIPS | HT_FLAG_CAPTURES) && r.priority == -3)
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(ht_tree_save(tree.t, &buffer, &length) == HT_OK)
        defer { ht_free(buffer) }
        #expect(length == 32 + 188)  // the file layout of version 1 is unchanged
        var copy: OpaquePointer?
        #expect(ht_tree_load(buffer, length, &copy) == HT_OK)
        defer { ht_tree_destroy(copy) }
        var back = ht_node_record()
        #expect(ht_node_get_record(copy, n, &back) == HT_OK)
        #expect(withUnsafeBytes(of: &back) { Array($0) } == withUnsafeBytes(of: &r) { Array($0) })
    }
}
