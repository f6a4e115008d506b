import CHitTest
import Foundation
import HitTestKit
import HitTestSampleScenes
import HitTestReference
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// Resource limits: memory exhaustion is a status that leaves the index usable, and huge trees
/// go through every public entry point without recursion.
@Suite struct LimitsTests {
    /// In a child process with a capped address space, create nodes until memory runs out: the
    /// call fails with HT_E_NO_MEMORY, and the tree still validates and answers hit tests.
    @Test func memoryExhaustionLeavesTheIndexUsable() async {
        await #expect(processExitsWith: .success) {
            var t: OpaquePointer?
            guard ht_tree_create(0, &t) == HT_OK else { exit(2) }
            var root: ht_node = -1
            _ = ht_node_create(t, &root)
            _ = ht_node_set_bounds(t, root, 0, 0, 100, 100)
            // Leave 256 MiB of address space above what the process uses now.
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let vm = status.split(separator: "\n").first { $0.hasPrefix("VmSize:") }
            // "VmSize:\t  394020 kB": the padding before the number goes when it has 8 digits
            // or more (sanitizer builds reserve terabytes), so split on any whitespace.
            let kb = vm.flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") } ?? 0
            guard kb > 0 else { exit(3) }
            var limit = rlimit(rlim_cur: rlim_t(kb * 1024 + (256 << 20)), rlim_max: rlim_t(kb * 1024 + (256 << 20)))
            guard setrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0 else { exit(4) }
            var last: ht_status = HT_OK
            var created = 0
            while last == HT_OK && created < 100_000_000 {
                var n: ht_node = -1
                last = ht_node_create(t, &n)
                if last == HT_OK {
                    created += 1
                    if created % 1000 == 0 { _ = ht_node_attach(t, n, root, Int32.max) }
                }
            }
            guard last == HT_E_NO_MEMORY, created > 1000 else { exit(5) }
            guard ht_tree_validate(t) == HT_OK else { exit(6) }
            var count: Int32 = 0
            guard ht_tree_node_count(t, &count) == HT_OK, Int(count) == created + 1 else { exit(7) }
            var hit: ht_node = 0
            var st = ht_tree_prepare(t)
            if st == HT_OK { st = ht_tree_hit_test(t, root, 50, 50, nil, &hit) }
            // Preparing may itself need memory: either an answer or a clean NO_MEMORY.
            guard st == HT_OK || st == HT_E_NO_MEMORY else { exit(8) }
            exit(0)
        }
    }

    /// A 1,000,000-view tree through convert, hitTest (single, bulk, threaded), viewWithTag,
    /// removeFromSuperview, a snapshot, and deinit: each step's answer is checked (against the
    /// reference walk, the single-point call, or arithmetic done here), and after the last
    /// reference goes the views and the C index are gone.
    @Test func aMillionViews() {
        weak var weakRoot: View?
        weak var weakDeepest: View?
        weak var weakBig: View?
        weak var weakCore: CoreTree?
        do {
            let scene = SampleScenes.random(views: 1_000_000, seed: 3)
            let root = scene.root
            let deepest = scene.views.last!
            weakRoot = root
            weakDeepest = deepest
            weakCore = root.core

            // A million views, all in one tree and one C index.
            var counted = 0
            var stack: [View] = [root]
            var depthOfDeepest = 0
            while let v = stack.popLast() {
                counted += 1
                stack.append(contentsOf: v.subviews)
            }
            var up: View? = deepest
            while let v = up?.superview { depthOfDeepest += 1; up = v }
            #expect(scene.views.count == 1_000_000 && counted == 1_000_000)
            #expect(up === root && depthOfDeepest > 3)
            var nodes: Int32 = 0
            #expect(ht_tree_node_count(root.core!.tree, &nodes) == HT_OK && nodes == 1_000_000)

            // Single, bulk and threaded hit tests agree with each other and with the reference,
            // and they reach far below the window.
            let p = Point(x: 195, y: 422)
            #expect(root.hitTest(p) === Reference.hitTest(root, p))
            let points = SampleScenes.uniformPoints(20_000, in: root.bounds, seed: 1)
            let bulk = root.hitTest(points)
            var threaded = [HitTestHandle](repeating: .none, count: points.count)
            points.withUnsafeBufferPointer { pts in
                threaded.withUnsafeMutableBufferPointer { root.hitTest(pts, into: $0, threads: 2) }
            }
            let bulkHandles = bulk.map { $0?.hitTestHandle ?? .none }
            #expect(threaded == bulkHandles)
            var wrong = 0
            for i in stride(from: 0, to: points.count, by: 41) {
                if bulk[i] !== Reference.hitTest(root, points[i]) || bulk[i] !== root.hitTest(points[i]) { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) sampled bulk answers differ from the reference")
            let distinct = Set(bulk.compactMap { $0.map(ObjectIdentifier.init) })
            func depth(_ view: View?) -> Int {
                var d = 0
                var v = view
                while let s = v?.superview { d += 1; v = s }
                return d
            }
            let deepestHit = bulk.map(depth).max() ?? 0
            #expect(distinct.count > 100 && deepestHit >= 6, "\(distinct.count) distinct views hit, the deepest \(deepestHit) levels down")

            // Conversion down a long chain: out to the window and back gives the point again,
            // and the way out is the views' own one-step conversions composed.
            let local = deepest.convert(Point(x: 1, y: 1), to: nil)
            var composed = Point(x: 1, y: 1)
            var v: View = deepest
            while let s = v.superview {
                composed = v.toSuperview(composed)
                v = s
            }
            #expect(abs(local.x - composed.x) < 1e-6 && abs(local.y - composed.y) < 1e-6)
            let back = root.convert(local, to: deepest)
            #expect(abs(back.x - 1) < 1e-6 && abs(back.y - 1) < 1e-6, "round trip gave \(back)")

            // viewWithTag walks all million views without recursion: the only 4242 is found,
            // a tag nobody has is not.
            deepest.tag = 4242
            #expect(root.viewWithTag(4242) === deepest)
            #expect(root.viewWithTag(-31_337) == nil)

            // A snapshot answers as the live tree did, and keeps doing so after the tree changes.
            let snapshot = root.makeHitTestSnapshot()
            #expect(snapshot.hitTest(points) == bulkHandles)

            // Removing the largest subtree: nothing under it is hit any more, answers still equal
            // the reference, and the snapshot is unaffected.
            let big = root.subviews.max { $0.subviews.count < $1.subviews.count }!
            weakBig = big
            let wasHit = bulk.contains { $0?.isDescendant(of: big) == true }
            big.removeFromSuperview()
            #expect(wasHit && !big.isDescendant(of: root) && !root.subviews.contains { $0 === big })
            let after = root.hitTest(points)
            #expect(!after.contains { $0?.isDescendant(of: big) == true })
            wrong = 0
            for i in stride(from: 0, to: points.count, by: 41) where after[i] !== Reference.hitTest(root, points[i]) {
                wrong += 1
            }
            #expect(wrong == 0, "\(wrong) sampled answers differ from the reference after the removal")
            #expect(snapshot.hitTest(points) == bulkHandles)
        }
        // deinit of the whole tree (iteratively: no stack overflow) frees the views and the index.
        #expect(weakRoot == nil && weakDeepest == nil && weakBig == nil)
        #expect(weakCore == nil)
    }

    /// A 100,000-deep chain through a snapshot file round trip in C (the Swift entry points
    /// are in DeepTreeTests).
    @Test func aDeepChainThroughTheSnapshotFile() {
        var t: OpaquePointer?
        _ = ht_tree_create(0, &t)
        defer { ht_tree_destroy(t) }
        var last: ht_node = -1
        var first: ht_node = -1
        for i in 0..<100_000 {
            var n: ht_node = -1
            _ = ht_node_create(t, &n)
            _ = ht_node_set_bounds(t, n, 0, 0, 1000, 1000)
            _ = ht_node_set_center(t, n, i % 2 == 0 ? 500.5 : 499.5, 500)
            if last >= 0 { _ = ht_node_attach(t, n, last, 0) } else { first = n }
            last = n
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(ht_tree_save(t, &buffer, &length) == HT_OK)
        defer { ht_free(buffer) }
        var copy: OpaquePointer?
        #expect(ht_tree_load(buffer, length, &copy) == HT_OK)
        defer { ht_tree_destroy(copy) }
        var hit: ht_node = -1
        #expect(ht_tree_prepare(copy) == HT_OK)
        #expect(ht_tree_hit_test(copy, first, 500, 500, nil, &hit) == HT_OK && hit == last)
    }
}
