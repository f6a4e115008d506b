import HitTestKit

/// Random view trees for differential tests: frames, bounds origins, rotations, scales
/// (singular ones too), hidden / alpha / interaction flags at and around their thresholds,
/// and optionally the customisation properties and handlers.
public struct RandomTree {
    /// The window at the top.
    public var root: View
    /// Every view made, root first (tests append the views they add).
    public var all: [View]

    /// A tree of these views (the root first in `all`).
    public init(root: View, all: [View]) {
        self.root = root
        self.all = all
    }

    /// How big and how varied a tree is.
    public struct Options {
        /// At most this many views (the count is random from 1).
        public var maxViews = 120
        /// At most this many levels below the root.
        public var maxDepth = 50
        /// At most this many subviews per view.
        public var maxFanOut = 30
        /// Random hit-test insets, pass-through, captures, outside hits and priorities.
        public var customisations = false
        /// Random `pointInsideHandler`s and `hitTestHandler`s (needs `customisations`).
        public var handlers = false

        /// Options with the given limits; the defaults give plain UIKit trees of up to 120 views.
        public init(
            maxViews: Int = 120, maxDepth: Int = 50, maxFanOut: Int = 30, customisations: Bool = false,
            handlers: Bool = false
        ) {
            self.maxViews = maxViews
            self.maxDepth = maxDepth
            self.maxFanOut = maxFanOut
            self.customisations = customisations
            self.handlers = handlers
        }
    }

    /// A random tree for `seed`.
    public static func make(seed: UInt64, options: Options = Options()) -> RandomTree {
        var rng = SeededGenerator(seed: seed)
        let root = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        var all: [View] = [root]
        let target = Int.random(in: 1...options.maxViews, using: &rng)
        // Grow by attaching each new view under a random existing one; a bias to the newest
        // views makes deep chains, a bias to a few views makes wide fan-outs.
        var depth: [ObjectIdentifier: Int] = [ObjectIdentifier(root): 0]
        while all.count < target {
            let parent: View
            if rng.chance(0.3) {
                parent = all[all.count - 1]
            } else {
                parent = all[Int.random(in: 0..<all.count, using: &rng)]
            }
            let d = depth[ObjectIdentifier(parent)]!
            if d >= options.maxDepth || parent.subviews.count >= options.maxFanOut { continue }
            let v = randomView(&rng, in: parent.bounds, options: options)
            parent.addSubview(v)
            depth[ObjectIdentifier(v)] = d + 1
            all.append(v)
        }
        return RandomTree(root: root, all: all)
    }

    /// A random view placed in or near `area`, randomised as `randomise` does.
    public static func randomView(_ rng: inout SeededGenerator, in area: Rect, options: Options) -> View {
        let w = rng.coordinate(0...max(area.width, 1) * 0.8)
        let h = rng.coordinate(0...max(area.height, 1) * 0.8)
        let x = area.minX + rng.coordinate(-0.1 * area.width...area.width)
        let y = area.minY + rng.coordinate(-0.1 * area.height...area.height)
        let v = View(frame: Rect(x: x, y: y, width: w, height: h))
        randomise(v, &rng, options: options)
        return v
    }

    /// Random geometry, flags (at and around their thresholds) and, per `options`,
    /// customisations and handlers.
    public static func randomise(_ v: View, _ rng: inout SeededGenerator, options: Options) {
        if rng.chance(0.15) {
            v.bounds.origin = Point(x: rng.coordinate(-50...50), y: rng.coordinate(-200...200))
        }
        if rng.chance(0.15) { v.transform = randomTransform(&rng) }
        if rng.chance(0.05) { v.anchorPoint = Point(x: rng.coordinate(0...1), y: rng.coordinate(0...1)) }
        if rng.chance(0.06) { v.isHidden = true }
        if rng.chance(0.06) { v.isUserInteractionEnabled = false }
        if rng.chance(0.1) { v.alpha = [0, 0.005, 0.0099, 0.01, 0.0100001, 0.5].randomElement(using: &rng)! }
        v.tag = Int.random(in: 0..<20, using: &rng)
        guard options.customisations else { return }
        if rng.chance(0.1) {
            v.hitTestInsets = EdgeInsets(
                top: rng.coordinate(-20...20), left: rng.coordinate(-20...20),
                bottom: rng.coordinate(-20...20), right: rng.coordinate(-20...20))
        }
        if rng.chance(0.08) { v.passesTouchesThrough = true }
        if rng.chance(0.05) { v.capturesSubviewTouches = true }
        if rng.chance(0.08) { v.allowsSubviewHitsOutsideBounds = true }
        if rng.chance(0.1) { v.hitTestPriority = Int.random(in: -2...2, using: &rng) }
        guard options.handlers else { return }
        if rng.chance(0.03) {
            // A pointInside that refuses the left half (any deterministic rule will do).
            v.pointInsideHandler = { view, p, _ in
                view.bounds.contains(p) && p.x >= view.bounds.midX
            }
        }
        if rng.chance(0.03) {
            let mode = Int.random(in: 0..<3, using: &rng)
            v.hitTestHandler = { view, p, _, superHitTest in
                switch mode {
                case 0:
                    // The overlay recipe: never itself.
                    let hit = superHitTest(p)
                    return hit === view ? nil : hit
                case 1:
                    // The "covered button first" recipe: the first subview if it contains p.
                    if let first = view.subviews.first {
                        let q = view.convert(p, to: first)
                        if first.point(inside: q) { return first }
                    }
                    return superHitTest(p)
                default:
                    return p.y < view.bounds.midY ? superHitTest(p) : nil
                }
            }
        }
    }

    /// A random transform: rotations, scales, translations, a singular scale, a mix.
    public static func randomTransform(_ rng: inout SeededGenerator) -> AffineTransform {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return AffineTransform(rotationAngle: .pi / 4 * Double(Int.random(in: 1...7, using: &rng)))
        case 1: return AffineTransform(rotationAngle: Double.random(in: -3...3, using: &rng))
        case 2: return AffineTransform(scaleX: rng.coordinate(0.5...3), y: rng.coordinate(0.5...3))
        case 3: return AffineTransform(translationX: rng.coordinate(-30...30), y: rng.coordinate(-30...30))
        case 4: return AffineTransform(scaleX: 0, y: 1)  // singular
        default:
            return AffineTransform(rotationAngle: Double.random(in: -1...1, using: &rng))
                .concatenating(AffineTransform(scaleX: rng.coordinate(0.5...2), y: rng.coordinate(0.5...2)))
        }
    }

    /// Points over the root (and beyond it), plus points exactly on the edges and corners of
    /// random views, converted to the root's space.
    public static func points(for tree: RandomTree, count: Int, seed: UInt64) -> [Point] {
        var rng = SeededGenerator(seed: seed ^ 0xABCD)
        var points: [Point] = []
        let b = tree.root.bounds
        while points.count < count {
            if rng.chance(0.5) {
                points.append(
                    Point(
                        x: rng.coordinate(b.minX - 40...b.maxX + 40),
                        y: rng.coordinate(b.minY - 40...b.maxY + 40)))
            } else {
                let v = tree.all.randomElement(using: &rng)!
                let r = v.bounds
                let local = [
                    Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.midY),
                    Point(x: r.midX, y: r.maxY), Point(x: r.minX, y: r.midY),
                    Point(x: r.midX, y: r.minY), Point(x: r.maxX, y: r.maxY),
                    Point(x: r.midX, y: r.midY),
                ].randomElement(using: &rng)!
                let p = v.convert(local, to: tree.root)
                if p.isFinite { points.append(p) }
            }
        }
        return points
    }
}

/// A readable name for a view in failure messages.
public func describe(_ view: View?, in tree: RandomTree) -> String {
    guard let view else { return "nil" }
    return "view#\(tree.all.firstIndex { $0 === view } ?? -1)"
}
