import HitTestKit
import HitTestReference
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// Random mutation sequences: after every single mutation the C rows must equal the views (the
/// mirror check) and every hit-testing path must equal the reference walk.
extension DifferentialTests {
    /// Alphas at and around UIKit's 0.01 threshold.
    static let alphas: [Double] = [0, 0.005, 0.0099, 0.009_999_999, 0.01, 0.010_000_001, 0.011, 0.5, 1]

    /// One random mutation of `tree`, named for failure messages. Covers geometry (frames under
    /// transforms, bounds origins and sizes, centres, anchors, transforms including singular
    /// ones), the UIKit flags near their thresholds, every customisation, handlers, the order of
    /// subviews, reparenting, removal, and views going away while their subviews live on.
    static func mutate(_ tree: inout RandomTree, _ rng: inout SeededGenerator, _ options: RandomTree.Options) -> String {
        let v = tree.all.randomElement(using: &rng)!
        let isRoot = v === tree.root
        switch Int.random(in: 0..<22, using: &rng) {
        case 0:
            let n = RandomTree.randomView(&rng, in: v.bounds, options: options)
            v.insertSubview(n, at: Int.random(in: 0...v.subviews.count, using: &rng))
            tree.all.append(n)
            return "insert a new view"
        case 1:
            if !isRoot { v.removeFromSuperview() }
            return "removeFromSuperview"
        case 2:
            let target = tree.all.randomElement(using: &rng)!
            if !isRoot && !target.isDescendant(of: v) {
                target.insertSubview(v, at: Int.random(in: 0...target.subviews.count + 1, using: &rng))
            }
            return "reparent"
        case 3:
            guard let s = v.superview else { return "no-op" }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: s.bringSubviewToFront(v)
            case 1: s.sendSubviewToBack(v)
            case 2: s.insertSubview(v, aboveSubview: s.subviews.randomElement(using: &rng)!)
            default: s.insertSubview(v, belowSubview: s.subviews.randomElement(using: &rng)!)
            }
            return "reorder"
        case 4:
            if v.subviews.count >= 2 {
                v.exchangeSubview(
                    at: Int.random(in: 0..<v.subviews.count, using: &rng),
                    withSubviewAt: Int.random(in: 0..<v.subviews.count, using: &rng))
            }
            return "exchangeSubview"
        case 5:
            // Under whatever transform the view has: the frame setter solves for the size.
            v.frame = Rect(
                x: rng.coordinate(-50...300), y: rng.coordinate(-50...700),
                width: rng.coordinate(0...300), height: rng.coordinate(0...300))
            return "frame"
        case 6:
            v.bounds.origin = Point(x: rng.coordinate(-100...100), y: rng.coordinate(-100...100))
            return "bounds.origin"
        case 7:
            v.bounds.size = Size(width: rng.coordinate(0...300), height: rng.coordinate(0...300))
            return "bounds.size"
        case 8:
            v.center = Point(x: rng.coordinate(-50...400), y: rng.coordinate(-50...800))
            return "center"
        case 9:
            v.anchorPoint = Point(x: rng.coordinate(-0.5...1.5), y: rng.coordinate(-0.5...1.5))
            return "anchorPoint"
        case 10:
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: v.transform = .identity
            case 1: v.transform = AffineTransform(scaleX: 0, y: 0)
            case 2: v.transform = AffineTransform(a: 1, b: 2, c: 0.5, d: 1, tx: 3, ty: -3)  // det 0
            case 3: v.transform = AffineTransform(scaleX: 1e-9, y: 1)
            default: v.transform = RandomTree.randomTransform(&rng)
            }
            return "transform"
        case 11:
            v.isHidden.toggle()
            return "isHidden"
        case 12:
            v.isUserInteractionEnabled.toggle()
            return "isUserInteractionEnabled"
        case 13:
            v.alpha = alphas.randomElement(using: &rng)!
            return "alpha"
        case 14:
            v.clipsToBounds.toggle()
            return "clipsToBounds"
        case 15:
            v.hitTestInsets =
                rng.chance(0.2)
                ? .zero
                : EdgeInsets(
                    top: rng.coordinate(-30...30), left: rng.coordinate(-30...30),
                    bottom: rng.coordinate(-30...30), right: rng.coordinate(-30...30))
            return "hitTestInsets"
        case 16:
            v.hitTestPriority =
                rng.chance(0.1)
                ? [Int(Int32.max), Int(Int32.min), Int(Int32.max) - 1].randomElement(using: &rng)!
                : Int.random(in: -3...3, using: &rng)
            return "hitTestPriority"
        case 17:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: v.passesTouchesThrough.toggle()
            case 1: v.capturesSubviewTouches.toggle()
            default: v.allowsSubviewHitsOutsideBounds.toggle()
            }
            return "a customisation flag"
        case 18:
            // Not on the root: `check` runs the root's default walk, which skips its own handler.
            if isRoot { return "no-op" }
            if rng.chance(0.5) {
                v.pointInsideHandler =
                    v.pointInsideHandler == nil ? { view, p, _ in view.bounds.contains(p) && p.y >= view.bounds.midY } : nil
            } else {
                v.hitTestHandler =
                    v.hitTestHandler == nil
                    ? { view, p, _, superHitTest in
                        let hit = superHitTest(p)
                        return hit === view ? nil : hit
                    } : nil
            }
            return "a handler"
        case 19:
            // The view goes away: its node is freed, its living subviews become roots.
            if !isRoot {
                v.removeFromSuperview()
                tree.all.removeAll { $0 === v }
            }
            return "release a view"
        case 20:
            if isRoot { return "no-op" }
            RandomTree.randomise(v, &rng, options: options)
            return "randomise"
        default:
            // A new view (no node yet) taking a subtree of this tree as its subview.
            if isRoot { return "no-op" }
            let n = View(frame: Rect(x: rng.coordinate(0...100), y: rng.coordinate(0...100), width: 200, height: 200))
            n.addSubview(v)
            tree.all.append(n)
            if rng.chance(0.5) { tree.root.addSubview(n) }
            return "wrap in a new view"
        }
    }

    @Test("Random mutation sequences: mirror exact and index == reference after every step", arguments: 0..<120)
    func mutationSequences(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) + 7_000_000)
        var options = RandomTree.Options()
        options.maxViews = 40
        options.maxDepth = 12
        options.customisations = seed % 2 == 0
        options.handlers = seed % 4 == 0
        var tree = RandomTree.make(seed: UInt64(seed) + 7_000_000, options: options)
        Self.checkMirror(tree, "seed \(seed) initially")
        for step in 0..<60 {
            let what = Self.mutate(&tree, &rng, options)
            let context = "seed \(seed) step \(step) (\(what))"
            Self.checkMirror(tree, context)
            Self.check(tree, RandomTree.points(for: tree, count: 12, seed: UInt64(seed * 1000 + step)), context)
        }
    }

    @Test("Single calls alone, never prepared: the answer grid they start follows every mutation", arguments: 0..<40)
    func singleCallsAlone(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed) + 9_000_000)
        var options = RandomTree.Options()
        options.maxViews = 60
        options.maxDepth = 10
        options.customisations = seed % 2 == 0
        var tree = RandomTree.make(seed: UInt64(seed) + 9_000_000, options: options)
        var started = 0, plain = 0
        for step in 0..<30 {
            let what = step == 0 ? "none" : Self.mutate(&tree, &rng, options)
            // More points than the calls it takes to start a grid (64 with no change between).
            var mismatches = 0
            for p in RandomTree.points(for: tree, count: 150, seed: UInt64(seed * 1000 + step)) {
                let expected = Reference.hitTest(tree.root, p)
                let single = tree.root.hitTest(p)
                if single !== expected {
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record("seed \(seed) step \(step) (\(what)) point \(p): reference \(describe(expected, in: tree)), single \(describe(single, in: tree))")
                    }
                }
            }
            // Read without preparing anything: a grid the single calls started (its cells may all
            // be left to the walk: rotated views over everything).
            let core = tree.root.ensureCore()
            let stats = core.statistics(for: tree.root)
            if stats.answerGridCells > 0 { started += 1 }
            if core.handlerCount == 0 { plain += 1 }
        }
        // Single calls take the caching C query only while no view has a handler.
        #expect(started > 0 || plain < 3, "seed \(seed): the single calls never started an answer grid in \(plain) steps without handlers")
    }
}
