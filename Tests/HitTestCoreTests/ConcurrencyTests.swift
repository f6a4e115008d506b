import Dispatch
import HitTestKit
import HitTestSampleScenes
import HitTestReference
import Testing

/// Snapshots read on several threads while the tree is mutated, and the multi-threaded bulk
/// paths; run under ThreadSanitizer by `scripts/sanitize.sh thread`.
@Suite struct ConcurrencyTests {
    @Test func snapshotReadersWhileAWriterMutates() {
        let scene = SampleScenes.app(cells: 200)
        let root = scene.root
        let points = SampleScenes.uniformPoints(70_000, in: root.bounds, seed: 11)
        let snapshot = root.makeHitTestSnapshot()
        let expected = snapshot.hitTest(points)  // frozen: must never change
        // The snapshot's answers are the live tree's answers at the time it was taken.
        #expect(expected == root.hitTest(points).map { $0?.hitTestHandle ?? .none })
        let group = DispatchGroup()
        final class Flag: @unchecked Sendable {
            private let lock = DispatchSemaphore(value: 1)
            private var value = false
            func set() { lock.wait(); value = true; lock.signal() }
            var isSet: Bool { lock.wait(); defer { lock.signal() }; return value }
        }
        let mismatch = Flag()
        for reader in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                for round in 0..<4 {
                    let answers = snapshot.hitTest(points)
                    if answers != expected { mismatch.set() }
                    let i = (reader * 7919 + round * 104_729) % points.count
                    if snapshot.hitTest(points[i]) != expected[i] { mismatch.set() }
                }
                group.leave()
            }
        }
        // The writer: the live tree keeps changing meanwhile.
        var rng = SplitMix64(seed: 3)
        for step in 0..<300 {
            let v = scene.views[1 + Int(rng.unit() * Double(scene.views.count - 1))]
            switch step % 3 {
            case 0: v.frame.origin.x += 1
            case 1: v.isHidden.toggle()
            default: v.superview?.bringSubviewToFront(v)
            }
            _ = root.hitTest(Point(x: rng.unit() * 390, y: rng.unit() * 844))
        }
        group.wait()
        #expect(!mismatch.isSet)
    }

    @Test func bulkAnswersDoNotDependOnTheThreadCount() {
        let scene = SampleScenes.random(views: 20_000, seed: 9)
        let root = scene.root
        let points = SampleScenes.clusteredPoints(100_000, in: root.bounds, spots: 20, seed: 2)
        var one = [HitTestHandle](repeating: .none, count: points.count)
        var many = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in
            one.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) }
            many.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 4) }
        }
        #expect(one == many)
        for i in stride(from: 0, to: points.count, by: 101) {
            #expect(root.view(forHitTestHandle: one[i]) === Reference.hitTest(root, points[i]))
        }
    }
}
