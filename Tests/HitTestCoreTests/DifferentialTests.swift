import HitTestKit
import HitTestTestSupport
import HitTestReference
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// The C index against the recursive reference walk, over many random trees.
@Suite struct DifferentialTests {
    /// Checks every point through the single call and the bulk call against the reference.
    static func check(_ tree: RandomTree, _ points: [Point], _ context: String) {
        // Bulk calls this small do not build the answer grid by themselves: build it, so that
        // the bulk answers below come through it.
        tree.root.ensureCore().prepareAnswers(for: tree.root)
        let bulk = tree.root.hitTest(points)
        // The multi-threaded path: two workers on the C kernels, handler points redone on
        // this thread.
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { tree.root.hitTest(p, into: $0, threads: 2) } }
        var mismatches = 0
        let core = tree.root.ensureCore()
        for (i, p) in points.enumerated() {
            let expected = Reference.hitTest(tree.root, p)
            let single = tree.root.hitTest(p)
            let threaded = tree.root.view(forHitTestHandle: handles[i])
            // The plain walk too (the roots here have no hitTestHandler of their own).
            let walked = core.walkOnlyHitTest(tree.root, p)
            if single !== expected || bulk[i] !== expected || threaded !== expected || walked !== expected {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record(
                        "\(context) point \(p): reference \(describe(expected, in: tree)), single \(describe(single, in: tree)), bulk \(describe(bulk[i], in: tree)), threaded \(describe(threaded, in: tree)), walk \(describe(walked, in: tree))"
                    )
                }
            }
        }
        #expect(mismatches == 0, "\(context): \(mismatches) of \(points.count) points differ")
    }

    /// The mirror check (`View.mirrorMismatches`, debug builds) over every tree the views of
    /// `tree` are in: each root once, so removed and orphaned views are checked too.
    static func checkMirror(_ tree: RandomTree, _ context: String) {
        var seen = Set<ObjectIdentifier>()
        var problems: [String] = []
        for v in tree.all {
            var top = v
            while let s = top.superview { top = s }
            if seen.insert(ObjectIdentifier(top)).inserted { problems += top.mirrorMismatches() }
        }
        #expect(problems.isEmpty, "\(context): the C rows differ from the views: \(problems.prefix(5))")
    }

    @Test("Plain UIKit trees: index == reference", arguments: 0..<1000)
    func plainTrees(seed: Int) {
        let tree = RandomTree.make(seed: UInt64(seed))
        let points = RandomTree.points(for: tree, count: 120, seed: UInt64(seed))
        Self.checkMirror(tree, "seed \(seed)")
        Self.check(tree, points, "seed \(seed)")
        #expect(tree.root.core?.validate() == true)
    }

    @Test("Trees with customisations and handlers: index == reference", arguments: 0..<400)
    func customisedTrees(seed: Int) {
        var options = RandomTree.Options()
        options.customisations = true
        options.handlers = true
        let tree = RandomTree.make(seed: UInt64(seed) + 1_000_000, options: options)
        let points = RandomTree.points(for: tree, count: 120, seed: UInt64(seed))
        Self.checkMirror(tree, "seed \(seed)")
        Self.check(tree, points, "seed \(seed)")
    }

    @Test("Wide trees use the grid: index == reference", arguments: 0..<40)
    func wideTrees(seed: Int) {
        var options = RandomTree.Options()
        options.maxViews = 600
        options.maxDepth = 3
        options.maxFanOut = 400
        options.customisations = seed % 2 == 1
        let tree = RandomTree.make(seed: UInt64(seed) + 2_000_000, options: options)
        let points = RandomTree.points(for: tree, count: 400, seed: UInt64(seed))
        Self.checkMirror(tree, "seed \(seed)")
        Self.check(tree, points, "seed \(seed)")
    }

    @Test("Random mutations interleaved with queries", arguments: 0..<60)
    func mutations(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) + 3_000_000)
        var options = RandomTree.Options()
        options.maxViews = 60
        options.customisations = seed % 3 == 0
        var tree = RandomTree.make(seed: UInt64(seed) + 3_000_000, options: options)
        for step in 0..<80 {
            let v = tree.all.randomElement(using: &rng)!
            switch Int.random(in: 0..<11, using: &rng) {
            case 0:
                let n = RandomTree.randomView(&rng, in: v.bounds, options: options)
                v.addSubview(n)
                tree.all.append(n)
            case 1:
                if v !== tree.root { v.removeFromSuperview() }
            case 2:
                // Reparent under a random view that is not a descendant.
                let target = tree.all.randomElement(using: &rng)!
                if v !== tree.root && !target.isDescendant(of: v) {
                    target.insertSubview(v, at: Int.random(in: 0...target.subviews.count + 1, using: &rng))
                }
            case 3:
                if let s = v.superview { s.bringSubviewToFront(v) }
            case 4:
                if let s = v.superview { s.sendSubviewToBack(v) }
            case 5:
                if v.subviews.count >= 2 {
                    v.exchangeSubview(
                        at: Int.random(in: 0..<v.subviews.count, using: &rng),
                        withSubviewAt: Int.random(in: 0..<v.subviews.count, using: &rng))
                }
            case 6:
                v.frame = Rect(
                    x: rng.coordinate(-50...300), y: rng.coordinate(-50...700),
                    width: rng.coordinate(0...300), height: rng.coordinate(0...300))
            case 7:
                v.bounds.origin = Point(x: rng.coordinate(-100...100), y: rng.coordinate(-100...100))
            case 8:
                v.transform = rng.chance(0.3) ? .identity : RandomTree.randomTransform(&rng)
            case 9:
                RandomTree.randomise(v, &rng, options: options)
            default:
                if let s = v.superview, s.subviews.count >= 2 {
                    let sibling = s.subviews.randomElement(using: &rng)!
                    if rng.chance(0.5) {
                        s.insertSubview(v, aboveSubview: sibling)
                    } else {
                        s.insertSubview(v, belowSubview: sibling)
                    }
                }
            }
            Self.checkMirror(tree, "seed \(seed) step \(step)")
            // Queries from the root and from a random detached-or-not view.
            let points = RandomTree.points(for: tree, count: 20, seed: UInt64(seed * 100 + step))
            Self.check(tree, points, "seed \(seed) step \(step)")
            let other = tree.all.randomElement(using: &rng)!
            let local = points.prefix(5).map { tree.root.convert($0, to: other) }
            for p in local where other.hitTest(p) !== Reference.hitTest(other, p) {
                Issue.record("seed \(seed) step \(step): hit test from an inner view differs at \(p)")
            }
            #expect(tree.root.core?.validate() != false)
        }
    }

    /// Priorities beyond 32 bits are clamped where they are stored, so the reference walk (which
    /// compares `hitTestPriority` values) and the C index (32-bit rows) order siblings alike.
    @Test func prioritiesBeyondInt32AreClampedForEveryPath() {
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let below = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let above = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        root.addSubview(below)
        root.addSubview(above)
        below.hitTestPriority = Int.max
        above.hitTestPriority = Int(Int32.max) + 7
        #expect(below.hitTestPriority == Int(Int32.max))
        #expect(above.hitTestPriority == Int(Int32.max))
        let p = Point(x: 50, y: 50)
        // Equal after clamping: the later subview is searched first, on every path.
        #expect(Reference.hitTest(root, p) === above)
        #expect(root.hitTest(p) === above)
        #expect(root.hitTest([p]).first! === above)
        below.hitTestPriority = Int.min
        #expect(below.hitTestPriority == Int(Int32.min))
        #expect(root.hitTest(p) === Reference.hitTest(root, p))
    }
}
