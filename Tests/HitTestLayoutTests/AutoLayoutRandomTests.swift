import HitTestKit
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// Random constraint systems with a known unique solution: random frames first, then
/// constraints those frames satisfy (each view's four values fixed by constraints to views
/// placed before it, across superviews too), plus redundant required ones, inequalities with
/// slack and weaker optional ones that disagree.
enum RandomLayout {
    typealias A = LayoutConstraint.Attribute

    struct System {
        let window: Window
        let container: View
        /// Every constrained view, parents before children.
        let views: [View]
        /// The frames they must get.
        let frames: [ObjectIdentifier: Rect]
        var determining: [LayoutConstraint]
        var extra: [LayoutConstraint]
    }

    /// An attribute's value of `v` in the space of `space` (an ancestor), from `frames`.
    static func value(_ v: View, _ a: A, in space: View, _ frames: [ObjectIdentifier: Rect]) -> Double {
        func frame(_ u: View) -> Rect { frames[ObjectIdentifier(u)] ?? u.frame }
        let f = frame(v)
        let horizontal = a.axis == .horizontal
        if a.isDimension { return horizontal ? f.width : f.height }
        var origin = 0.0
        if v !== space {
            var u = v
            while u !== space {
                origin += horizontal ? frame(u).minX : frame(u).minY
                u = u.superview!
            }
        }
        let size = horizontal ? f.width : f.height
        return origin + a.edgeFraction! * size
    }

    static func make(seed: UInt64, count: Int) -> System {
        var rng = SeededGenerator(seed: seed)
        let window = Window(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let container = View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        window.addSubview(container)
        var views: [View] = []
        var frames: [ObjectIdentifier: Rect] = [:]
        func r(_ lo: Double, _ hi: Double) -> Double { (Double(Int.random(in: 0...10_000, using: &rng)) / 10_000) * (hi - lo) + lo }
        for i in 0..<count {
            let v = View()
            v.translatesAutoresizingMaskIntoConstraints = false
            v.accessibilityIdentifier = "v\(i)"
            // Parents before children: a random earlier view or the container.
            let parent = views.isEmpty || Bool.random(using: &rng) ? container : views[Int.random(in: 0..<views.count, using: &rng)]
            parent.addSubview(v)
            frames[ObjectIdentifier(v)] = Rect(x: r(-50, 400), y: r(-50, 400), width: r(1, 300), height: r(1, 300))
            views.append(v)
        }
        var determining: [LayoutConstraint] = []
        let horizontalEdges: [A] = [.leading, .trailing, .left, .right, .centerX]
        let verticalEdges: [A] = [.top, .bottom, .centerY]
        for (i, v) in views.enumerated() {
            // Items placed before v (or the container, pinned): any of them, in v's tree.
            let earlier: [View] = [container] + views[..<i]
            for horizontal in [true, false] {
                let dimension: A = horizontal ? .width : .height
                // Size first: a constant or a multiple of an earlier view's size (either axis).
                if Bool.random(using: &rng) {
                    determining.append(v[dim: dimension].constraint(equalToConstant: value(v, dimension, in: v, frames)))
                } else {
                    let u = earlier[Int.random(in: 0..<earlier.count, using: &rng)]
                    let ua: A = Bool.random(using: &rng) ? .width : .height
                    let m = [0.5, 1, 2, 1.5][Int.random(in: 0..<4, using: &rng)]
                    let c = value(v, dimension, in: v, frames) - m * value(u, ua, in: u, frames)
                    determining.append(v[dim: dimension].constraint(equalTo: u[dim: ua], multiplier: m, constant: c))
                }
                // Then a position against an earlier item, in their common ancestor's space.
                let u = earlier[Int.random(in: 0..<earlier.count, using: &rng)]
                let edges = horizontal ? horizontalEdges : verticalEdges
                let a = edges[Int.random(in: 0..<edges.count, using: &rng)]
                let b = edges[Int.random(in: 0..<edges.count, using: &rng)]
                let space = View.nearestCommonAncestor(v, u)!
                let useMultiplier = space === u && Int.random(in: 0..<4, using: &rng) == 0
                let m = useMultiplier ? 0.5 : 1
                let c = value(v, a, in: space, frames) - m * value(u, b, in: space, frames)
                determining.append(
                    LayoutConstraint(item: v, attribute: a, relatedBy: .equal, toItem: u, attribute: b, multiplier: m, constant: c))
            }
        }
        // Redundant required equalities and slack inequalities the frames satisfy, and weaker
        // optional ones that disagree.
        var extra: [LayoutConstraint] = []
        for _ in 0..<count {
            let v = views[Int.random(in: 0..<views.count, using: &rng)]
            let u = ([container] + views)[Int.random(in: 0...views.count, using: &rng)]
            guard u !== v else { continue }
            let horizontal = Bool.random(using: &rng)
            let edges = horizontal ? horizontalEdges + [.width] : verticalEdges + [.height]
            var a = edges[Int.random(in: 0..<edges.count, using: &rng)]
            var b = edges[Int.random(in: 0..<edges.count, using: &rng)]
            if a.isDimension != b.isDimension { a = horizontal ? .width : .height; b = a }
            let space = View.nearestCommonAncestor(v, u)!
            let c = value(v, a, in: space, frames) - value(u, b, in: space, frames)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                extra.append(LayoutConstraint(item: v, attribute: a, relatedBy: .equal, toItem: u, attribute: b, multiplier: 1, constant: c))
            case 1:
                extra.append(LayoutConstraint(item: v, attribute: a, relatedBy: .greaterThanOrEqual, toItem: u, attribute: b, multiplier: 1, constant: c - r(0, 50)))
            case 2:
                extra.append(LayoutConstraint(item: v, attribute: a, relatedBy: .lessThanOrEqual, toItem: u, attribute: b, multiplier: 1, constant: c + r(0, 50)))
            default:
                let wrong = LayoutConstraint(item: v, attribute: a, relatedBy: .equal, toItem: u, attribute: b, multiplier: 1, constant: c + r(1, 100))
                wrong.priority = LayoutPriority(Float(Int.random(in: 1...999, using: &rng)))
                extra.append(wrong)
            }
        }
        return System(window: window, container: container, views: views, frames: frames, determining: determining, extra: extra)
    }

}

/// The randomized tests run in the Auto Layout suite (serialized: they set the global handler).
extension AutoLayoutTests {
    typealias A = LayoutConstraint.Attribute

    /// The solver recovers the frames; no consistent redundant constraint is reported broken.
    @Test(arguments: 0..<40)
    func theSolverRecoversRandomFrames(seed: UInt64) {
        let count = [3, 10, 30, 60][Int(seed % 4)]
        let s = RandomLayout.make(seed: seed, count: count)
        var constraints = s.determining + s.extra
        var rng = SeededGenerator(seed: seed ^ 0x5eed)
        constraints.shuffle(using: &rng)
        let log = BrokenLog()
        LayoutConstraint.unsatisfiableHandler = { log.add($0, $1) }
        defer { LayoutConstraint.unsatisfiableHandler = LayoutConstraint.printingUnsatisfiableHandler }
        LayoutConstraint.activate(constraints)
        #expect(log.entries.isEmpty, "seed \(seed): consistent constraints reported broken: \(log.entries.map(\.0))")
        s.window.layoutIfNeeded()
        for v in s.views {
            let want = s.frames[ObjectIdentifier(v)]!
            #expect(near(v.frame, want, 1e-6), "seed \(seed): \(v.debugName) at \(v.frame), expected \(want)")
            #expect(!v.hasAmbiguousLayout, "seed \(seed): \(v.debugName) ambiguous")
        }
        #expect(s.window.mirrorMismatches() == [], "seed \(seed)")
    }

    /// A layout pass hands the frames of the subviews that keep their size to the C core in
    /// one call (`View.setSubviewLayoutFrames`) and the others to each view's setters, as it
    /// does for every view while a change recorder listens: twin systems, one laid out under a
    /// recorder, given the same edits (constants, anchor points, transforms, a resize of their
    /// container), hold the same geometry to the bit.
    @Test(arguments: 0..<12)
    func aBatchedApplyWritesWhatTheSettersWrite(seed: UInt64) {
        let twins = [RandomLayout.make(seed: 3000 + seed, count: 30), RandomLayout.make(seed: 3000 + seed, count: 30)]
        let handler = LayoutConstraint.unsatisfiableHandler
        LayoutConstraint.unsatisfiableHandler = nil
        defer { LayoutConstraint.unsatisfiableHandler = handler }
        let recorder = WriteCounter()
        func layOut(_ twin: Int) {
            if twin == 0 { recorder.counting { twins[0].window.layoutIfNeeded() } } else { twins[1].window.layoutIfNeeded() }
        }
        for (twin, s) in twins.enumerated() {
            LayoutConstraint.activate(s.determining + s.extra)
            layOut(twin)
        }
        for step in 0..<25 {
            var rngs = [SeededGenerator(seed: 900 + seed * 31 + UInt64(step)), SeededGenerator(seed: 900 + seed * 31 + UInt64(step))]
            for (twin, s) in twins.enumerated() {
                let all = s.determining + s.extra
                switch Int.random(in: 0..<4, using: &rngs[twin]) {
                case 0:
                    let v = s.views[Int.random(in: 0..<s.views.count, using: &rngs[twin])]
                    v.anchorPoint = Point(x: Double.random(in: 0...1, using: &rngs[twin]), y: Double.random(in: 0...1, using: &rngs[twin]))
                case 1:
                    let v = s.views[Int.random(in: 0..<s.views.count, using: &rngs[twin])]
                    v.transform = AffineTransform(rotationAngle: Double.random(in: -1...1, using: &rngs[twin]))
                case 2:
                    s.container.frame.size.width = Double(Int.random(in: 900...1100, using: &rngs[twin])) + 0.3
                default:
                    for _ in 0..<3 {
                        all[Int.random(in: 0..<all.count, using: &rngs[twin])].constant += Double.random(in: -20...20, using: &rngs[twin])
                    }
                }
                layOut(twin)
            }
            for (a, b) in zip(twins[0].views, twins[1].views) {
                let bits = { (v: View) in
                    [v.center.x, v.center.y, v.bounds.minX, v.bounds.minY, v.bounds.width, v.bounds.height].map(\.bitPattern)
                }
                let same = bits(a) == bits(b)
                #expect(same, "seed \(seed) step \(step): \(a.debugName) at \(a.center) \(a.bounds) under the setters, \(b.center) \(b.bounds) batched")
            }
        }
        // Both paths were taken: the setters for the recorded twin, the batch for the other.
        #expect(recorder.moves.count > 0)
        #expect((twins[1].window.core?.batchedLayoutFrames ?? 0) > 0)
        #expect((twins[0].window.core?.batchedLayoutFrames ?? 0) == 0)
        for s in twins { #expect(s.window.mirrorMismatches() == []) }
    }

    /// Edits (constants, activation, priorities, removal of a view with constraints), each
    /// followed by a layout pass, then the same system solved from scratch in a fresh solver:
    /// the frames agree wherever the layout is determined. (The extra constraints are made
    /// optional so that no edit makes required ones conflict: which one breaks is unspecified.)
    @Test(arguments: 0..<20)
    func incrementalEditsMatchAFromScratchSolve(seed: UInt64) {
        let s = RandomLayout.make(seed: 1000 + seed, count: 25)
        var prng = SeededGenerator(seed: 5 + seed)
        for c in s.extra where c.priority.isRequired { c.priority = LayoutPriority(Float(Int.random(in: 100...999, using: &prng))) }
        LayoutConstraint.activate(s.determining + s.extra)
        // Weak fallbacks at distinct low priorities keep views determined after removals.
        var fallbacks: [LayoutConstraint] = []
        for (i, v) in s.views.enumerated() {
            for a in [A.left, .top] {
                let c = LayoutConstraint(item: v, attribute: a, relatedBy: .equal, toItem: v.superview!, attribute: a, multiplier: 1, constant: Double(i))
                c.priority = LayoutPriority(Float(1 + i % 40))
                fallbacks.append(c)
            }
            for a in [A.width, .height] {
                let c = LayoutConstraint(item: v, attribute: a, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 0, constant: Double(10 + i))
                c.priority = LayoutPriority(Float(41 + i % 40))
                fallbacks.append(c)
            }
        }
        LayoutConstraint.activate(fallbacks)
        s.window.layoutIfNeeded()
        var rng = SeededGenerator(seed: 77 + seed)
        var removed: [View] = []
        let handler = LayoutConstraint.unsatisfiableHandler
        LayoutConstraint.unsatisfiableHandler = nil
        defer { LayoutConstraint.unsatisfiableHandler = handler }
        for step in 0..<30 {
            let all = s.determining + s.extra
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1:
                let c = all[Int.random(in: 0..<all.count, using: &rng)]
                c.constant += Double(Int.random(in: -40...40, using: &rng))
            case 2:
                let c = all[Int.random(in: 0..<all.count, using: &rng)]
                if c.firstItem != nil, (c.secondItem != nil || c.secondAttribute == .notAnAttribute),
                    let a = c.firstItem as? View, a.window != nil, (c.secondItem as? View)?.window != nil || c.secondItem == nil
                {
                    c.isActive.toggle()
                }
            case 3:
                let c = s.extra[Int.random(in: 0..<s.extra.count, using: &rng)]
                if !c.priority.isRequired { c.priority = LayoutPriority(Float(Int.random(in: 1...999, using: &rng))) }
            default:
                let live = s.views.filter { $0.window != nil }
                if live.count > 3, Int.random(in: 0..<3, using: &rng) == 0 {
                    let v = live[Int.random(in: 0..<live.count, using: &rng)]
                    v.removeFromSuperview()
                    removed.append(v)
                }
            }
            s.window.layoutIfNeeded()
            let incremental = s.views.filter { $0.window != nil }.map { ($0, $0.frame, $0.hasAmbiguousLayout) }
            let engine = s.window.autoLayoutState!.ownedEngine!
            engine.rebuild()
            engine.solveIfNeeded()
            for (v, frame, ambiguous) in incremental where !ambiguous {
                guard let it = v.autoLayoutState?.item else { continue }
                let solved = engine.solvedFrame(of: it)
                #expect(near(frame, solved, 1e-6), "seed \(seed) step \(step): \(v.debugName) incremental \(frame), from scratch \(solved)")
            }
            s.window.layoutIfNeeded()
        }
        #expect(s.window.mirrorMismatches() == [])
    }
}

extension View {
    subscript(dim a: LayoutConstraint.Attribute) -> DimensionAnchor { a == .width ? widthAnchor : heightAnchor }
}
