import HitTestKit
import HitTestReference
import HitTestTestSupport
import Testing

// UIKit's most copied idiom: a subclass that overrides `hitTest(_:with:)` or
// `point(inside:with:)`. Each override here has a twin written with the handler properties,
// whose answers the reference walk defines; the overriding tree must give the same answers
// through the single call, the bulk call on one thread and on two, and touch delivery.

/// The seed texts' recipes as overrides.
enum OverrideRecipe: Int, CaseIterable, Sendable {
    /// `point(inside:)` grown by 10 points on each side, without `super` (a bigger tap target).
    case grown
    /// `hitTest` that returns nil when the hit is itself (`super`, then filter): a mask.
    case passThrough
    /// `hitTest` that tries its subviews even outside its bounds, then `super` (a tab bar
    /// button sticking out of the bar).
    case subviewsOutside
    /// `hitTest` that returns itself for any point inside, without `super` (a capturing card).
    case captures
    /// A subclass that overrides nothing: it must behave as a plain view.
    case plainSubclass
}

private final class GrownView: View {
    override func point(inside point: Point, with event: Event?) -> Bool {
        bounds.inset(by: EdgeInsets(top: -10, left: -10, bottom: -10, right: -10)).contains(point)
    }
}

private final class PassThroughView: View {
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        let hit = super.hitTest(point, with: event)
        return hit === self ? nil : hit
    }
}

private final class SubviewsOutsideView: View {
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        if !isHidden, isUserInteractionEnabled, alpha >= 0.01 {
            for subview in subviews.reversed() {
                if let hit = subview.hitTest(convert(point, to: subview), with: event) { return hit }
            }
        }
        return super.hitTest(point, with: event)
    }
}

private final class CapturingView: View {
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        guard !isHidden, isUserInteractionEnabled, alpha >= 0.01 else { return nil }
        return self.point(inside: point, with: event) ? self : nil
    }
}

private final class PlainSubclass: View {}

/// A window whose override sends every touch in its bottom band to a chosen view.
private final class RoutingWindow: Window {
    var bandTarget: View?
    override func hitTest(_ point: Point, with event: Event?) -> View? {
        if let bandTarget, point.y >= bounds.height - 40 { return bandTarget }
        return super.hitTest(point, with: event)
    }
}

extension OverrideRecipe {
    /// The view with the override.
    func makeOverriding(_ frame: Rect) -> View {
        switch self {
        case .grown: GrownView(frame: frame)
        case .passThrough: PassThroughView(frame: frame)
        case .subviewsOutside: SubviewsOutsideView(frame: frame)
        case .captures: CapturingView(frame: frame)
        case .plainSubclass: PlainSubclass(frame: frame)
        }
    }

    /// A plain view with the handlers that say the same.
    func makeTwin(_ frame: Rect) -> View {
        let v = View(frame: frame)
        switch self {
        case .grown:
            v.pointInsideHandler = { view, p, _ in
                view.bounds.inset(by: EdgeInsets(top: -10, left: -10, bottom: -10, right: -10)).contains(p)
            }
        case .passThrough:
            v.hitTestHandler = { view, p, _, superHitTest in
                let hit = superHitTest(p)
                return hit === view ? nil : hit
            }
        case .subviewsOutside:
            v.hitTestHandler = { view, p, e, superHitTest in
                if !view.isHidden, view.isUserInteractionEnabled, view.alpha >= 0.01 {
                    for subview in view.subviews.reversed() {
                        if let hit = Reference.hitTest(subview, view.convert(p, to: subview), with: e) { return hit }
                    }
                }
                return superHitTest(p)
            }
        case .captures:
            v.hitTestHandler = { view, p, _, _ in
                guard !view.isHidden, view.isUserInteractionEnabled, view.alpha >= 0.01 else { return nil }
                return Reference.pointInside(view, p) ? view : nil
            }
        case .plainSubclass:
            break
        }
        return v
    }
}

@Suite struct OverridingSubclassTests {
    /// Two trees of the same shape: one with overriding subclasses, one with handler twins.
    struct Pair {
        let overriding: View
        let twin: View
        /// The views of both trees in creation order, pairwise.
        let views: [(View, View)]

        func twin(of view: View?) -> View? {
            guard let view else { return nil }
            return views.first { $0.0 === view }?.1
        }
    }

    /// A random tree of `count` views (frames on a half-point grid, some transforms, bounds
    /// origins and flags), each view of a random recipe or plain, built twice.
    func randomPair(seed: UInt64, count: Int) -> Pair {
        var rng = SeededGenerator(seed: seed)
        let rootFrame = Rect(x: 0, y: 0, width: 400, height: 400)
        let rootO = View(frame: rootFrame)
        let rootT = View(frame: rootFrame)
        var views: [(View, View)] = [(rootO, rootT)]
        for _ in 1..<count {
            let parent = views[Int.random(in: 0..<views.count, using: &rng)]
            let frame = Rect(
                x: rng.coordinate(-40...300), y: rng.coordinate(-40...300),
                width: rng.coordinate(0...160), height: rng.coordinate(0...160))
            let o: View
            let t: View
            if rng.chance(0.5), let recipe = OverrideRecipe(rawValue: Int.random(in: 0..<OverrideRecipe.allCases.count, using: &rng)) {
                o = recipe.makeOverriding(frame)
                t = recipe.makeTwin(frame)
            } else {
                o = View(frame: frame)
                t = View(frame: frame)
            }
            if rng.chance(0.15) {
                let origin = Point(x: rng.coordinate(-30...30), y: rng.coordinate(-30...30))
                o.bounds.origin = origin
                t.bounds.origin = origin
            }
            if rng.chance(0.15) {
                let transform = AffineTransform(rotationAngle: Double.random(in: -1...1, using: &rng))
                o.transform = transform
                t.transform = transform
            }
            let hidden = rng.chance(0.05)
            let interactive = !rng.chance(0.05)
            let alpha = rng.chance(0.05) ? 0.005 : 1
            for v in [o, t] {
                v.isHidden = hidden
                v.isUserInteractionEnabled = interactive
                v.alpha = alpha
            }
            parent.0.addSubview(o)
            parent.1.addSubview(t)
            views.append((o, t))
        }
        return Pair(overriding: rootO, twin: rootT, views: views)
    }

    /// Points over the root and its margins, on the grid and off it.
    func points(seed: UInt64, count: Int) -> [Point] {
        var rng = SeededGenerator(seed: seed ^ 0xABCD)
        return (0..<count).map { i in
            i % 2 == 0
                ? Point(x: rng.coordinate(-60...460), y: rng.coordinate(-60...460))
                : Point(x: Double.random(in: -60...460, using: &rng), y: Double.random(in: -60...460, using: &rng))
        }
    }

    /// Every path over the overriding tree against the reference walk over the twin tree.
    func checkAllPaths(_ pair: Pair, _ points: [Point], seed: UInt64) {
        let bulk = pair.overriding.hitTest(points)
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in
            handles.withUnsafeMutableBufferPointer { pair.overriding.hitTest(p, into: $0, threads: 2) }
        }
        // A snapshot cannot call into Swift: where an override decides, it answers
        // `needsHandler`; everywhere else, the same view.
        let snapshot = pair.overriding.makeHitTestSnapshot()
        for (i, p) in points.enumerated() {
            let expected = Reference.hitTest(pair.twin, p)
            let single = pair.overriding.hitTest(p)
            let frozen = snapshot.hitTest(p)
            #expect(
                frozen == .needsHandler || pair.overriding.view(forHitTestHandle: frozen) === single,
                "snapshot, seed \(seed), point \(p)")
            #expect(pair.twin(of: single) === expected, "single call, seed \(seed), point \(p)")
            #expect(bulk[i] === single, "bulk, seed \(seed), point \(p)")
            #expect(pair.overriding.view(forHitTestHandle: handles[i]) === single, "two threads, seed \(seed), point \(p)")
        }
    }

    @Test(arguments: 0..<40)
    func randomTreesWithOverridesMatchTheReference(_ seed: Int) {
        let pair = randomPair(seed: UInt64(seed), count: 12 + seed % 30)
        checkAllPaths(pair, points(seed: UInt64(seed), count: 600), seed: UInt64(seed))
    }

    /// A point on each recipe's edges and just outside, where a wrong region shows.
    @Test(arguments: OverrideRecipe.allCases)
    func eachRecipeAtItsEdges(_ recipe: OverrideRecipe) {
        let rootO = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let rootT = View(frame: rootO.frame)
        let frame = Rect(x: 100, y: 100, width: 80, height: 60)
        let o = recipe.makeOverriding(frame)
        let t = recipe.makeTwin(frame)
        let childFrame = Rect(x: 70, y: 40, width: 40, height: 40)  // sticks out of the parent
        let oc = View(frame: childFrame)
        let tc = View(frame: childFrame)
        rootO.addSubview(o)
        rootT.addSubview(t)
        o.addSubview(oc)
        t.addSubview(tc)
        let pair = Pair(overriding: rootO, twin: rootT, views: [(rootO, rootT), (o, t), (oc, tc)])
        var pts: [Point] = []
        for x in [89.5, 90, 99.5, 100, 140, 179.5, 180, 189.5, 190, 200, 205] {
            for y in [89.5, 90, 99.5, 100, 130, 159.5, 160, 169.5, 170, 175] { pts.append(Point(x: x, y: y)) }
        }
        checkAllPaths(pair, pts, seed: 0)
        // The override decided something: a plain view would answer differently somewhere
        // (except the subclass that overrides nothing).
        let plain = View(frame: rootO.frame)
        plain.addSubview(View(frame: frame))
        plain.subviews[0].addSubview(View(frame: childFrame))
        func index(_ v: View?, in views: [View]) -> Int { views.firstIndex { $0 === v } ?? -1 }
        let plainViews = [plain, plain.subviews[0], plain.subviews[0].subviews[0]]
        let differs = pts.contains { p in
            index(rootO.hitTest(p), in: [rootO, o, oc]) != index(Reference.hitTest(plain, p), in: plainViews)
        }
        #expect(differs == (recipe != .plainSubclass))
    }

    /// Touch delivery asks the window's override, and the views' overrides below it.
    @Test func deliveryHonoursOverrides() {
        let app = Application()
        let window = RoutingWindow(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        app.addWindow(window)
        let button = RecordingView(frame: Rect(x: 20, y: 20, width: 100, height: 44))
        let mask = PassThroughView(frame: window.bounds)
        let small = GrownView(frame: Rect(x: 200, y: 200, width: 10, height: 10))
        let band = RecordingView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(button)
        window.addSubview(small)
        window.addSubview(mask)
        window.addSubview(band)
        window.bandTarget = band
        func tap(_ id: Int, _ p: Point, _ t: Double) {
            app.injectTouches([TouchChange(id: id, phase: .began, location: p, timestamp: t)])
            app.injectTouches([TouchChange(id: id, phase: .ended, location: p, timestamp: t + 0.05)])
        }
        tap(1, Point(x: 30, y: 30), 0)  // through the mask to the button
        tap(2, Point(x: 100, y: 470), 1)  // the window's band
        tap(3, Point(x: 195, y: 195), 2)  // 5 points outside the small view: its grown region
        #expect(button.received == ["began [1]", "ended [1]"])
        #expect(band.received == ["began [2]", "ended [2]"])
        let delivered = app.deliveryLog.filter { $0.kind == .delivered }.map(\.responder)
        #expect(delivered.contains(ObjectIdentifier(small)))
        #expect(!delivered.contains(ObjectIdentifier(mask)))
    }

    /// A deep chain of overriding views answers as the reference does (each is asked in turn).
    @Test func aChainOfOverridingViews() {
        let rootO = View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        let rootT = View(frame: rootO.frame)
        var views: [(View, View)] = [(rootO, rootT)]
        var (po, pt) = (rootO, rootT)
        for i in 0..<200 {
            let recipe: OverrideRecipe = i % 3 == 0 ? .passThrough : (i % 3 == 1 ? .grown : .plainSubclass)
            let frame = Rect(x: 1, y: 1, width: 990 - Double(i) * 4, height: 990 - Double(i) * 4)
            let o = recipe.makeOverriding(frame)
            let t = recipe.makeTwin(frame)
            po.addSubview(o)
            pt.addSubview(t)
            views.append((o, t))
            (po, pt) = (o, t)
        }
        let pair = Pair(overriding: rootO, twin: rootT, views: views)
        checkAllPaths(pair, points(seed: 7, count: 300), seed: 7)
    }
}
