import Foundation
import HitTestCore
import HitTestKit
import HitTestTestSupport
import HitTestReference
import HitTestSampleScenes
import Testing

/// The bulk path's derived structures (answer-grid cells with 16-bit codes, sub-grids for the
/// cells that are not sure, unions of block-cell lists in the box walk) on random dense scenes
/// of small overlapping views, some rotated, nested, inset, passing through or capturing, with
/// priorities: single, bulk (1 and 2 threads) == the fair walk on random points and on points on
/// and within 1e-12 and one ulp of the edges of the topmost and rotated views, then again after
/// moves and rotations (the grid refreshed in place), and == the reference on a sample.
/// (The C side, with planted bugs, is CSources/CHitTest/tests/answers_check.c in scripts/ccheck.sh.)
@Suite struct KernelGridTests {
    static func scene(seed: UInt64) -> (window: View, views: [View]) {
        var rng = SplitMix64(seed: seed)
        func q(_ v: Double) -> Double { (v * 64).rounded(.down) / 64 }
        let window = View(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let map = View(frame: window.bounds)
        window.addSubview(map)
        var views = [map]
        for _ in 0..<(300 + Int(rng.unit() * 500)) {
            let w = q(8 + rng.unit() * 16), h = q(8 + rng.unit() * 16)
            let v = View(frame: Rect(x: q(rng.unit() * 390 - w / 2), y: q(rng.unit() * 844 - h / 2), width: w, height: h))
            if rng.unit() < 0.1 { v.transform = .init(rotationAngle: rng.unit() * 6.283 - 3.1416) }
            let u = rng.unit()
            if u < 0.04 { v.passesTouchesThrough = true } else if u < 0.06 { v.capturesSubviewTouches = true }
            if rng.unit() < 0.05 { v.hitTestInsets = EdgeInsets(top: q(rng.unit() * 4 - 2), left: q(rng.unit() * 4 - 2), bottom: q(rng.unit() * 4 - 2), right: q(rng.unit() * 4 - 2)) }
            if rng.unit() < 0.03 { v.hitTestPriority = Int(rng.unit() * 3) - 1 }
            window.addSubview(v)
            views.append(v)
            if rng.unit() < 0.1 {
                let c = View(frame: Rect(x: q(rng.unit() * w), y: q(rng.unit() * h), width: q(3 + rng.unit() * 8), height: q(3 + rng.unit() * 8)))
                v.addSubview(c)
                views.append(c)
            }
        }
        return (window, views)
    }

    static func points(_ window: View, _ views: [View], seed: UInt64) -> [Point] {
        var rng = SplitMix64(seed: seed)
        var out = (0..<3000).map { _ in Point(x: rng.unit() * 400 - 5, y: rng.unit() * 860 - 8) }
        let chosen = Array(views.reversed().prefix(60)) + views.filter { !$0.transform.isIdentity }
        for v in chosen { out += edgePoints(v, in: window) }
        return out
    }

    static func check(_ window: View, _ points: [Point], reference: Int, _ context: String) {
        window.prepareHitTesting()
        let bulk = window.hitTest(points)
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0, threads: 2) } }
        let fair = FairWalk(window)
        var bad = 0
        for (i, p) in points.enumerated() {
            let expected = i < reference ? Reference.hitTest(window, p) : fair.hitTest(p)
            let single = window.hitTest(p), threaded = window.view(forHitTestHandle: handles[i])
            if single !== expected || bulk[i] !== expected || threaded !== expected {
                bad += 1
                if bad <= 3 { Issue.record("\(context): point \(p): expected \(expected?.debugName ?? "nil"), single \(single?.debugName ?? "nil"), bulk \(bulk[i]?.debugName ?? "nil")") }
            }
        }
        #expect(bad == 0, "\(context): \(bad) of \(points.count) points differ")
    }

    /// A static scene asked one point at a time and never prepared: the coarse grid its single
    /// calls start is replaced by the full one once they have paid for it (the C core's rent
    /// rule, docs/c-core.md), and the answers before and after are the fair walk's (and the
    /// reference's on a sample).
    @Test func singleCallsPayForTheFullGrid() {
        let (window, views) = Self.scene(seed: 11)
        let points = Self.points(window, views, seed: 11)
        let fair = FairWalk(window)
        func cells() -> Int { window.core.map { $0.statistics(for: window).answerGridCells } ?? 0 }
        func mismatches() -> Int {
            points.enumerated().filter { i, p in window.hitTest(p) !== (i < 300 ? Reference.hitTest(window, p) : fair.hitTest(p)) }.count
        }
        #expect(mismatches() == 0, "the first calls (the coarse grid started and filling)")
        let coarse = cells()
        #expect(coarse > 0, "the single calls started a grid")
        var asked = points.count
        while cells() == coarse && asked < 5_000_000 {
            for p in points { _ = window.hitTest(p) }
            asked += points.count
        }
        #expect(cells() > coarse, "after \(asked) calls the grid is still the coarse one (\(coarse) cells)")
        #expect(mismatches() == 0, "after the full grid replaced the coarse one")
    }

    @Test("Dense random scenes: single and bulk == fair walk (and reference), before and after moves", arguments: 0..<8)
    func denseScenes(seed: Int) {
        let (window, views) = Self.scene(seed: UInt64(seed) &* 7919 &+ 3)
        let stats = window.hitTestingStatistics()
        #expect(stats.answerGridCells > 0 && stats.sureCells > 0, "the answer grid is in play")
        Self.check(window, Self.points(window, views, seed: UInt64(seed)), reference: 400, "seed \(seed)")
        var rng = SplitMix64(seed: UInt64(seed) + 100)
        for _ in 0..<25 {
            let v = views[Int(rng.unit() * Double(views.count))]
            if rng.unit() < 0.5 {
                v.center = Point(x: (rng.unit() * 390 * 64).rounded() / 64, y: (rng.unit() * 844 * 64).rounded() / 64)
            } else {
                v.transform = .init(rotationAngle: rng.unit() * 6.283)
            }
        }
        Self.check(window, Self.points(window, views, seed: UInt64(seed) + 1), reference: 400, "seed \(seed) after moves")
    }

    @Test(
        "App-like scenes: after each small change of a row, a button, a label or a separator (a change that marks only the cells near the edges of the view and its subviews), single and bulk == fair walk",
        arguments: ["table-thin", "table-rotated", "app"])
    func smallChangesOfAppScenes(name: String) throws {
        let scene = try #require(SampleScenes.make(name))
        let window = scene.root
        let views = scene.views.filter { $0 !== window }
        var rng = SplitMix64(seed: UInt64(name.utf8.count) &* 31 &+ 5)
        var base = (0..<1500).map { _ in Point(x: rng.unit() * (window.bounds.width + 10) - 5, y: rng.unit() * (window.bounds.height + 10) - 5) }
        base += Self.points(window, Array(views.prefix(40)), seed: 3).prefix(500)
        window.prepareHitTesting()
        for step in 0..<24 {
            let v = views[Int(rng.unit() * Double(views.count))]
            let before = [v] + v.subviews
            let delta = [1.0, -1.0, 0.5, -0.25][step % 4]
            switch step % 3 {
            case 0: v.center = Point(x: v.center.x + delta, y: v.center.y)
            case 1: v.center = Point(x: v.center.x, y: v.center.y + delta)
            default: v.bounds.size = Size(width: max(0, v.bounds.width + delta), height: v.bounds.height)
            }
            var points = base
            for u in before { points += edgePoints(u, in: window) }
            Self.check(window, points, reference: 200, "\(name) step \(step): \(v.debugName) changed by \(delta)")
        }
    }

    /// Bulk calls of `points` (on 1 and 2 threads, without prepareHitTesting) == the fair walk.
    static func checkBulkOnly(_ window: View, _ points: [Point], _ context: String) {
        var one = [HitTestHandle](repeating: .none, count: points.count)
        var two = one
        points.withUnsafeBufferPointer { p in one.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0, threads: 1) } }
        points.withUnsafeBufferPointer { p in two.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0, threads: 2) } }
        let fair = FairWalk(window)
        var bad = 0
        for (i, p) in points.enumerated() {
            let expected = fair.hitTest(p)
            if window.view(forHitTestHandle: one[i]) !== expected || window.view(forHitTestHandle: two[i]) !== expected {
                bad += 1
                if bad <= 3 { Issue.record("\(context): point \(p): expected \(expected?.debugName ?? "nil")") }
            }
        }
        #expect(bad == 0, "\(context): \(bad) of \(points.count) points differ")
    }

    @Test("A first large bulk call (the grid's sub-grids deferred) == fair walk; then with them built, and after moves", arguments: 0..<3)
    func deferredSubgrids(seed: Int) {
        let (window, views) = Self.scene(seed: UInt64(seed) &* 104_729 &+ 11)
        var points = Self.points(window, views, seed: UInt64(seed) + 50)
        var rng = SplitMix64(seed: UInt64(seed) + 60)
        // Enough points for the bulk call to prepare an answer grid (HT_BULK_GRID_MIN), far too
        // few to pay for its sub-grids.
        while points.count < 70_000 { points.append(Point(x: rng.unit() * 400 - 5, y: rng.unit() * 860 - 8)) }
        Self.checkBulkOnly(window, points, "seed \(seed), first bulk call")
        for _ in 0..<15 {
            let v = views[Int(rng.unit() * Double(views.count))]
            v.center = Point(x: (rng.unit() * 390 * 64).rounded() / 64, y: (rng.unit() * 844 * 64).rounded() / 64)
        }
        Self.checkBulkOnly(window, points, "seed \(seed), after moves, sub-grids still deferred")
        window.prepareHitTesting()  // builds the sub-grids
        Self.checkBulkOnly(window, points, "seed \(seed), sub-grids built")
    }

    /// A simulator's loop on a scene never prepared: single calls build the answer grid where
    /// points land (its lists made on first use and appended to one pool), and each step hides
    /// a view of one small region and shows it again, or moves it within the region, with taps
    /// on and around it before and after. Every answer == the fair walk (the reference's on a
    /// sample); the grid stays the one the single calls started (the statistics are read from
    /// the core, which does not prepare), and its memory at every step stays within twice what
    /// it was after the first quarter of the steps (the lists made again at each change do not
    /// pile up). The pool's compaction itself is reached with a tiny pool in
    /// CSources/CHitTest/tests/answers_check.c (scripts/ccheck.sh).
    @Test func churnOnTheLazyGrid() throws {
        let (window, views) = Self.scene(seed: 29)
        let region = Rect(x: 100, y: 300, width: 120, height: 160)
        // The scene's first view is its full-screen background: not one of the region's.
        let local = views.filter { $0 !== views[0] && $0.superview === window && region.contains(Point(x: $0.frame.minX, y: $0.frame.minY)) && region.contains(Point(x: $0.frame.maxX, y: $0.frame.maxY)) }
        try #require(local.count >= 10, "the region has views to churn")
        var rng = SplitMix64(seed: 31)
        func tapAround(_ v: View, _ context: String) -> Int {
            var points = edgePoints(v, in: window)
            for _ in 0..<8 { points.append(Point(x: region.minX + rng.unit() * region.width, y: region.minY + rng.unit() * region.height)) }
            let fair = FairWalk(window)
            var bad = 0
            for (i, p) in points.enumerated() {
                let expected = i == 0 ? Reference.hitTest(window, p) : fair.hitTest(p), got = window.hitTest(p)
                if got !== expected {
                    bad += 1
                    if bad <= 3 { Issue.record("\(context): point \(p): expected \(expected?.debugName ?? "nil"), got \(got?.debugName ?? "nil")") }
                }
            }
            return bad
        }
        func statistics() -> HitTestingStatistics? { window.core.map { $0.statistics(for: window) } }
        var bad = 0
        var warm = 0, peak = 0, cells = 0
        let steps = 400
        for step in 0..<steps {
            if step == 1 { cells = statistics()?.answerGridCells ?? 0 }
            if step == steps / 4 { warm = statistics()?.answerGridBytes ?? 0 }
            if step > steps / 4 { peak = max(peak, statistics()?.answerGridBytes ?? 0) }
            let v = local[Int(rng.unit() * Double(local.count))]
            bad += tapAround(v, "step \(step), before")
            if step % 4 == 0 {
                v.center = Point(x: ((region.minX + rng.unit() * region.width) * 64).rounded() / 64, y: ((region.minY + rng.unit() * region.height) * 64).rounded() / 64)
            } else {
                v.isHidden = true
                bad += tapAround(v, "step \(step), hidden")
                v.isHidden = false
            }
            bad += tapAround(v, "step \(step), after")
        }
        #expect(bad == 0, "\(bad) single answers differ from the fair walk")
        #expect(warm > 0 && cells > 0, "the single calls started an answer grid")
        #expect(statistics()?.answerGridCells == cells, "the grid the single calls started is the one in use")
        #expect(peak <= 2 * warm, "the answer grid grew from \(warm) to \(peak) bytes over \(3 * steps / 4) more steps")
    }
}
