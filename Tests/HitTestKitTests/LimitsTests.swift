import CHitTest
import Foundation
import HitTestKit
import HitTestSampleScenes
import HitTestReference
import Testing

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
            let kb = vm.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
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
    /// removeFromSuperview, a snapshot, and deinit.
    @Test func aMillionViews() {
        var scene: SampleScenes.Scene? = SampleScenes.random(views: 1_000_000, seed: 3)
        let root = scene!.root
        let deepest = scene!.views.last!
        deepest.tag = 4242
        let p = Point(x: 195, y: 422)
        #expect(root.hitTest(p) === Reference.hitTest(root, p))
        let points = SampleScenes.uniformPoints(20_000, in: root.bounds, seed: 1)
        let bulk = root.hitTest(points)
        for i in stride(from: 0, to: points.count, by: 97) {
            #expect(bulk[i] === Reference.hitTest(root, points[i]))
        }
        let local = deepest.convert(Point(x: 1, y: 1), to: nil)
        #expect(root.convert(local, to: deepest).x.isFinite)
        #expect(root.viewWithTag(4242) === deepest)
        let snapshot = root.makeHitTestSnapshot()
        #expect(snapshot.hitTest(points) == points.map { root.view(forHitTestHandle: snapshot.hitTest($0)).map { $0.hitTestHandle } ?? .none })
        let big = root.subviews.max { $0.subviews.count < $1.subviews.count }!
        big.removeFromSuperview()
        #expect(!big.isDescendant(of: root))
        scene = nil  // deinit of the whole tree, iteratively
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
