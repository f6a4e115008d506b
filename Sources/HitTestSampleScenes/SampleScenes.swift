import Foundation
import HitTestKit

/// The benchmark's deterministic scenes, shared with the tests and the command-line tool.
public enum SampleScenes {
    /// A built scene: its root (a window) and every view in it.
    public struct Scene {
        /// The window.
        public let root: Window
        /// Every view, root first.
        public let views: [View]
    }

    /// Scene names, in the benchmark's order.
    public static let names = ["app", "app-insets", "app-handlers", "app-large", "grid", "deep", "random-1m", "dense-overlap"]

    /// Builds the scene called `name` (one of `names`), or nil for an unknown name.
    public static func make(_ name: String) -> Scene? {
        switch name {
        case "app": return app(cells: 200)
        case "app-insets": return app(cells: 200, customised: .properties)
        case "app-handlers": return app(cells: 200, customised: .handlers)
        case "app-large": return app(cells: 2000)
        case "grid": return grid(buttons: 100_000)
        case "deep": return deep(levels: 100_000)
        case "random-1m": return random(views: 1_000_000, seed: 1)
        case "dense-overlap": return denseOverlap(markers: 20_000, seed: 2026)
        default: return nil
        }
    }

    /// How the `app` scene is customised.
    public enum Customisation: Sendable {
        /// As UIKit draws it: no customisation.
        case none
        /// `hitTestInsets` of -8 pt on every button and tab item, and the top overlay visible
        /// (alpha 1) with `passesTouchesThrough`.
        case properties
        /// A `pointInsideHandler` (the default region test, written as a closure) on 1% of the
        /// views, and the overlay passing touches through by a `hitTestHandler`.
        case handlers
    }

    /// A 390x844 phone screen: a navigation bar with 3 buttons; a table scrolled by 1,200 pt
    /// (bounds origin) of `cells` rows 60 pt tall, each with a content view, an icon (20% with a
    /// 45°-rotated badge), two non-interactive labels, a 44x30 button (10% hidden) and a
    /// separator; a tab bar of 5 items; a full-screen overlay with alpha 0 on top.
    public static func app(cells: Int, customised: Customisation = .none, seed: UInt64 = 42) -> Scene {
        var buttons: [View] = []
        var rng = SplitMix64(seed: seed)
        var views: [View] = []
        func make(_ parent: View, _ id: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> View {
            let v = View(frame: Rect(x: x, y: y, width: w, height: h))
            v.accessibilityIdentifier = id
            parent.addSubview(v)
            views.append(v)
            return v
        }
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.accessibilityIdentifier = "window"
        views.append(window)
        let nav = make(window, "nav-bar", 0, 0, 390, 88)
        for i in 0..<3 { buttons.append(make(nav, "nav-button-\(i + 1)", [8, 173, 338][i], 44, 44, 44)) }
        let table = make(window, "table", 0, 88, 390, 673)
        table.bounds.origin = Point(x: 0, y: 1200)
        for i in 0..<cells {
            let cell = make(table, "cell-\(i)", 0, Double(i) * 60, 390, 60)
            let content = make(cell, "cell-\(i)-content", 0, 0, 390, 60)
            let icon = make(content, "cell-\(i)-icon", 16, 8, 44, 44)
            if rng.unit() < 0.2 {
                let badge = make(icon, "cell-\(i)-badge", 30, -6, 18, 18)
                badge.transform = AffineTransform(rotationAngle: .pi / 4)
            }
            make(content, "cell-\(i)-title", 72, 8, 220, 22).isUserInteractionEnabled = false
            make(content, "cell-\(i)-subtitle", 72, 32, 220, 18).isUserInteractionEnabled = false
            let button = make(content, "cell-\(i)-button", 330, 15, 44, 30)
            if rng.unit() < 0.1 { button.isHidden = true }
            buttons.append(button)
            _ = make(content, "cell-\(i)-separator", 72, 59, 318, 1)
        }
        let tabs = make(window, "tab-bar", 0, 761, 390, 83)
        for i in 0..<5 { buttons.append(make(tabs, "tab-button-\(i + 1)", Double(i) * 78, 0, 78, 49)) }
        let overlay = make(window, "overlay", 0, 0, 390, 844)
        switch customised {
        case .none:
            overlay.alpha = 0
        case .properties:
            for b in buttons { b.hitTestInsets = EdgeInsets(top: -8, left: -8, bottom: -8, right: -8) }
            overlay.passesTouchesThrough = true
        case .handlers:
            for (i, v) in views.enumerated() where i % 100 == 50 {
                v.pointInsideHandler = { view, p, _ in view.bounds.contains(p) }
            }
            overlay.hitTestHandler = { view, p, _, superHitTest in
                let hit = superHitTest(p)
                return hit === view ? nil : hit
            }
        }
        return Scene(root: window, views: views)
    }

    /// `buttons` sibling 40x40 buttons on a 44 pt pitch in a canvas scrolled into the middle.
    public static func grid(buttons: Int) -> Scene {
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let canvas = View(frame: window.bounds)
        let columns = Int(Double(buttons).squareRoot().rounded(.up))
        let rows = (buttons + columns - 1) / columns
        canvas.bounds.origin = Point(x: Double(columns) * 22 - 195, y: Double(rows) * 22 - 422)
        window.addSubview(canvas)
        var views: [View] = [window, canvas]
        views.reserveCapacity(buttons + 2)
        for i in 0..<buttons {
            let b = View(frame: Rect(x: Double(i % columns) * 44, y: Double(i / columns) * 44, width: 40, height: 40))
            canvas.addSubview(b)
            views.append(b)
        }
        return Scene(root: window, views: views)
    }

    /// A chain of `levels` views, each inside the last (offsets alternate so that a point stays
    /// inside every level).
    public static func deep(levels: Int) -> Scene {
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        var views: [View] = [window]
        views.reserveCapacity(levels + 1)
        var last: View = window
        for i in 0..<levels {
            let shrink = Double(i) * 0.001
            let v = View(frame: Rect(x: i % 2 == 0 ? 0.5 : -0.5, y: 0, width: 390 - shrink, height: 844 - shrink))
            last.addSubview(v)
            views.append(v)
            last = v
        }
        return Scene(root: window, views: views)
    }

    /// `views` views with random fan-out (0 to 8 children, breadth first), frames inside their
    /// parents, 10% rotated or scaled, a few hidden or non-interactive.
    public static func random(views count: Int, seed: UInt64) -> Scene {
        var rng = SplitMix64(seed: seed)
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        var views: [View] = [window]
        views.reserveCapacity(count)
        var next = 0
        while views.count < count {
            let parent = views[next % views.count]
            next += 1
            let kids = Int(rng.unit() * 9)
            let b = parent.bounds
            for _ in 0..<kids where views.count < count {
                let w = max(2, b.width * (0.2 + 0.6 * rng.unit()))
                let h = max(2, b.height * (0.2 + 0.6 * rng.unit()))
                let x = b.minX + (b.width - w) * rng.unit()
                let y = b.minY + (b.height - h) * rng.unit()
                let v = View(frame: Rect(x: x.rounded(), y: y.rounded(), width: w.rounded(), height: h.rounded()))
                let roll = rng.unit()
                if roll < 0.05 {
                    v.transform = AffineTransform(rotationAngle: (rng.unit() - 0.5) * 1.2)
                } else if roll < 0.1 {
                    v.transform = AffineTransform(scaleX: 0.6 + rng.unit(), y: 0.6 + rng.unit())
                }
                if rng.unit() < 0.03 { v.isHidden = true }
                if rng.unit() < 0.03 { v.isUserInteractionEnabled = false }
                parent.addSubview(v)
                views.append(v)
            }
        }
        return Scene(root: window, views: views)
    }

    /// A 390x844 map with `markers` markers on it (the last on top): widths and heights each
    /// uniform in 12-22 pt, centres uniform over the map (so about `markers` x 289 / 329,160
    /// markers lie under a point: 17.6 for 20,000), 3% rotated by an angle in [-π, π).
    /// Coordinates are multiples of 1/64 pt. Ids `map` and `marker-N`.
    public static func denseOverlap(markers count: Int, seed: UInt64) -> Scene {
        var rng = SplitMix64(seed: seed)
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.accessibilityIdentifier = "window"
        let map = View(frame: window.bounds)
        map.accessibilityIdentifier = "map"
        window.addSubview(map)
        var views: [View] = [window, map]
        views.reserveCapacity(count + 2)
        func q(_ x: Double) -> Double { (x * 64).rounded() / 64 }
        for i in 0..<count {
            let w = q(12 + 10 * rng.unit())
            let h = q(12 + 10 * rng.unit())
            let cx = q(rng.unit() * 390)
            let cy = q(rng.unit() * 844)
            let marker = View(frame: Rect(x: cx - w / 2, y: cy - h / 2, width: w, height: h))
            marker.accessibilityIdentifier = "marker-\(i)"
            if rng.unit() < 0.03 { marker.transform = AffineTransform(rotationAngle: (rng.unit() - 0.5) * 2 * .pi) }
            map.addSubview(marker)
            views.append(marker)
        }
        return Scene(root: window, views: views)
    }

    /// `count` points uniform over `rect`.
    public static func uniformPoints(_ count: Int, in rect: Rect, seed: UInt64) -> [Point] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            Point(x: rect.minX + rng.unit() * rect.width, y: rect.minY + rng.unit() * rect.height)
        }
    }

    /// `count` points around `spots` touch spots (Gaussian, 12 pt spread) inside `rect`.
    public static func clusteredPoints(_ count: Int, in rect: Rect, spots: Int, seed: UInt64) -> [Point] {
        var rng = SplitMix64(seed: seed)
        let centres = (0..<spots).map { _ in
            Point(x: rect.minX + rng.unit() * rect.width, y: rect.minY + rng.unit() * rect.height)
        }
        return (0..<count).map { _ in
            let c = centres[Int(rng.unit() * Double(spots))]
            // Box-Muller.
            let r = (-2 * log(max(rng.unit(), 1e-300))).squareRoot() * 12
            let a = 2 * Double.pi * rng.unit()
            return Point(x: c.x + r * cos(a), y: c.y + r * sin(a))
        }
    }
}

/// SplitMix64, for deterministic scenes and points.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
