import HitTestReference
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// Random trees with animating views (SEMANTICS A14, A15): the C index (single, bulk,
/// threaded, walk) against the reference walk at several times while animations start, run,
/// are removed and end; the mirror check after each step; and presentation snapshots against
/// the reference's presentation walk.
@Suite struct AnimationDifferentialTests {
    static func animateSome(_ tree: RandomTree, _ rng: inout SeededGenerator) {
        let count = Int.random(in: 1...max(1, tree.all.count / 3), using: &rng)
        for _ in 0..<count {
            let v = tree.all.randomElement(using: &rng)!
            var options: View.AnimationOptions = [
                [], .curveLinear, .curveEaseIn, .curveEaseOut, [.repeat], [.autoreverse],
            ].randomElement(using: &rng)!
            if rng.chance(0.4) { options.insert(.allowUserInteraction) }
            let duration = [0.0, 0.25, 0.5, 1, 2].randomElement(using: &rng)!
            let delay = rng.chance(0.3) ? 0.25 : 0
            let change = Int.random(in: 0..<5, using: &rng)
            let dx = rng.coordinate(-80...80)
            let dy = rng.coordinate(-80...80)
            let transform = RandomTree.randomTransform(&rng)
            let alpha = [0.0, 0.005, 0.01, 0.5, 1].randomElement(using: &rng)!
            View.animate(withDuration: duration, delay: delay, options: options, animations: {
                switch change {
                case 0: v.center = Point(x: v.center.x + dx, y: v.center.y + dy)
                case 1: v.bounds.size = Size(width: abs(v.bounds.width + dx), height: abs(v.bounds.height + dy))
                case 2: v.transform = transform
                case 3: v.alpha = alpha
                default:
                    let f = v.frame
                    v.frame = Rect(x: f.minX + dx, y: f.minY + dy, width: f.width, height: f.height)
                }
            })
        }
    }

    static func checkPresentation(_ tree: RandomTree, _ points: [Point], at time: Double, _ context: String) {
        let snapshot = tree.root.makeHitTestSnapshot(presentationAt: time)
        let handles = snapshot.hitTest(points)
        var mismatches = 0
        for (p, h) in zip(points, handles) {
            let expected = Reference.presentationHitTest(tree.root, p, at: time)
            let got = tree.root.view(forHitTestHandle: h)
            if got !== expected {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("\(context) t \(time) \(p): reference \(describe(expected, in: tree)), snapshot \(describe(got, in: tree))")
                }
            }
        }
        #expect(mismatches == 0, "\(context): \(mismatches) presentation answers differ")
    }

    @Test("Animating views: index == reference, model and presentation", arguments: 0..<150)
    func animatingTrees(seed: Int) {
        var options = RandomTree.Options(maxViews: 80)
        options.customisations = seed % 2 == 0
        options.handlers = seed % 4 == 0
        let tree = RandomTree.make(seed: UInt64(seed) &+ 7_000, options: options)
        let app = Application()
        app.addWindow(tree.root as! Window)
        app.advanceTime(to: 0)
        var rng = SeededGenerator(seed: UInt64(seed) &* 31 &+ 5)
        let points = RandomTree.points(for: tree, count: 100, seed: UInt64(seed))
        Self.animateSome(tree, &rng)
        for (step, time) in [0.0, 0.2, 0.3, 0.6, 1.1, 2.4].enumerated() {
            app.advanceTime(to: time)
            if step == 3 {
                for _ in 0..<3 { tree.all.randomElement(using: &rng)!.removeAllAnimations() }
                Self.animateSome(tree, &rng)
            }
            DifferentialTests.checkMirror(tree, "seed \(seed) t \(time)")
            DifferentialTests.check(tree, points, "seed \(seed) t \(time)")
            Self.checkPresentation(tree, points, at: time, "seed \(seed)")
            Self.checkPresentation(tree, points, at: time + 0.15, "seed \(seed)")
        }
        for v in tree.all { v.removeAllAnimations() }
        #expect(tree.all.allSatisfy { !$0.isAnimating && !$0.isInteractionBlockedByAnimation })
        DifferentialTests.checkMirror(tree, "seed \(seed) after removal")
    }

    /// The random animations above do what the differential test needs: most trees get views
    /// blocked by an animation (A14) and views animating with `.allowUserInteraction`.
    @Test func theRandomAnimationsBlockAndAllow() {
        var blocked = 0
        var allowed = 0
        for seed in 0..<150 {
            let tree = RandomTree.make(seed: UInt64(seed) &+ 7_000, options: RandomTree.Options(maxViews: 80))
            let app = Application()
            app.addWindow(tree.root as! Window)
            app.advanceTime(to: 0)
            var rng = SeededGenerator(seed: UInt64(seed) &* 31 &+ 5)
            Self.animateSome(tree, &rng)
            if tree.all.contains(where: \.isInteractionBlockedByAnimation) { blocked += 1 }
            if tree.all.contains(where: { $0.isAnimating && !$0.isInteractionBlockedByAnimation }) { allowed += 1 }
            for v in tree.all { v.removeAllAnimations() }
        }
        #expect(blocked > 100 && allowed > 40, "blocked in \(blocked), allowed in \(allowed) of 150 trees")
    }
}
