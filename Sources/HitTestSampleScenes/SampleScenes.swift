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

    /// Every scene, in the benchmark's order: its name and what it holds (the benchmark's `--help`).
    public static let summaries: [(name: String, summary: String)] = [
        ("app", "a phone screen: navigation bar, a 200-cell table scrolled by 1,200 pt, tab bar, alpha-0 overlay"),
        ("app-insets", "app with hitTestInsets on every button and a pass-through overlay"),
        ("app-handlers", "app with a pointInsideHandler on 1% of the views and a hitTestHandler on the overlay"),
        ("app-large", "app with 2,000 cells"),
        ("table", "the app-like dressed table: app with 0.5 pt separators (overlay, badges, hidden buttons, labels)"),
        ("table-plain", "the bare table: app's skeleton without overlay, badges, hidden views or separators"),
        ("table-alpha", "table-plain under overlays and highlights of alpha 0, just below 0.01 and exactly 0.01"),
        ("table-covers", "table-plain with hidden and non-interactive views over each cell and over the screen"),
        ("table-rotated", "table-plain with rotated badges and tags overhanging every icon and button"),
        ("table-thin", "table-plain with 0.5 pt separators and dividers and 1/3 pt hairlines"),
        ("grid", "100,000 sibling 40 pt buttons on a 44 pt pitch in a scrolled canvas"),
        ("deep", "a chain of 100,000 nested views"),
        ("random-1m", "a random tree of 1,000,000 views, 10% rotated or scaled"),
        ("dense-overlap", "20,000 markers of 12-22 pt on a 390 x 844 map, about 17.6 under a point"),
        ("pin-map", "20,000 pins on a map scaled by 1.25 and scrolled; about 3,200 on screen, 3.5 under a point"),
    ]

    /// Scene names, in the benchmark's order.
    public static let names = summaries.map(\.name)

    /// Builds the scene called `name` (one of `names`), or nil for an unknown name.
    public static func make(_ name: String) -> Scene? {
        if let family = TableFamily(rawValue: name) { return table(family) }
        switch name {
        case "app": return app(cells: 200)
        case "app-insets": return app(cells: 200, customised: .properties)
        case "app-handlers": return app(cells: 200, customised: .handlers)
        case "app-large": return app(cells: 2000)
        case "grid": return grid(buttons: 100_000)
        case "deep": return deep(levels: 100_000)
        case "random-1m": return random(views: 1_000_000, seed: 1)
        case "dense-overlap": return denseOverlap(markers: 20_000, seed: 2026)
        case "pin-map": return pinMap(pins: 20_000, seed: 2027)
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
        table(cells: cells, dressing: .app, customised: customised, seed: seed)
    }

    /// The table families: the `app` screen's skeleton (a navigation bar with 3 buttons, a table
    /// of 60 pt cells scrolled by 1,200 pt through its bounds origin, a tab bar of 5 items), bare
    /// or dressed with one feature, so that a figure can be traced to its cause, or with all of
    /// them (`dressed`, the app-like screen). Each cell is a cell view, a content view, a 44x44
    /// icon, a title and a subtitle label and a 44x30 button, plus what the family adds.
    public enum TableFamily: String, CaseIterable, Sendable {
        /// `table`: the app-like dressed table: a full-screen alpha-0 overlay on top, a
        /// 45°-rotated badge overhanging the icon on 20% of cells, 10% of the buttons hidden,
        /// non-interactive labels, 0.5 pt separators (the `app` screen with thinner separators).
        case dressed = "table"
        /// `table-plain`: the skeleton alone: no overlay, no badge, nothing hidden, interactive
        /// labels, no separator. The control the other families are read against.
        case plain = "table-plain"
        /// `table-alpha`: the skeleton under overlays whose alpha sits on both sides of UIKit's
        /// 0.01 cut-off: a full-screen overlay with alpha 0 (and an opaque spinner inside it), a
        /// full-screen scrim with alpha just below 0.01 (`0.01.nextDown`: never hit), a toast
        /// with alpha exactly 0.01 (hit); over every cell a highlight view with alpha 0, but
        /// alpha 0.01 on every 7th cell (hit) and just below 0.01 on another 7th (not hit).
        case alpha = "table-alpha"
        /// `table-covers`: hidden and non-interactive views over the content: non-interactive
        /// labels, 10% of the buttons hidden, over each cell's content a hidden editing view
        /// (with a button inside) and over each cell a non-interactive selection view (with an
        /// interactive grip inside, never hit); over the screen a hidden sheet (with a button)
        /// and a non-interactive full-screen dimming view.
        case covers = "table-covers"
        /// `table-rotated`: rotated children overhanging their parents: a badge overhanging the
        /// top-right corner of every icon, rotated by 45° on even cells and by a random angle on
        /// odd ones; a tag rotated by 30° overhanging every button's left edge; 10% of the icons
        /// allow hits outside their bounds (`allowsSubviewHitsOutsideBounds`), so that their
        /// badge's overhang is hit there.
        case rotated = "table-rotated"
        /// `table-thin`: thin separators: a 0.5 pt separator at the foot of each cell, a 1/3 pt
        /// hairline at its head (not a binary fraction), a 0.5 pt vertical divider between the
        /// labels and the button, and 0.5 pt hairlines under the navigation bar and over the tab bar.
        case thin = "table-thin"
    }

    /// A table family (`TableFamily`) of `cells` cells (the benchmark's scenes have 200).
    public static func table(_ family: TableFamily, cells: Int = 200, seed: UInt64 = 42) -> Scene {
        let dressing: TableDressing
        switch family {
        case .dressed: dressing = .dressed
        case .plain: dressing = TableDressing()
        case .alpha: dressing = TableDressing(alphaThresholds: true)
        case .covers: dressing = TableDressing(hiddenButtons: 0.1, interactiveLabels: false, covers: true)
        case .rotated: dressing = TableDressing(badges: 1, badgeAngles: true, overhangs: true)
        case .thin: dressing = TableDressing(separator: (59.5, 0.5), hairlines: true)
        }
        return table(cells: cells, dressing: dressing, customised: .none, seed: seed)
    }

    /// What a table scene is dressed with: one generator for `app` and the table families.
    struct TableDressing {
        /// The share of cells whose icon carries a badge overhanging its top-right corner.
        var badges = 0.0
        /// Badges on odd cells at a random angle (else every badge at 45°).
        var badgeAngles = false
        /// A rotated tag overhanging each button's left edge, and 10% of the icons allowing hits
        /// outside their bounds.
        var overhangs = false
        /// The share of buttons hidden.
        var hiddenButtons = 0.0
        /// Whether the labels take touches.
        var interactiveLabels = true
        /// Hidden and non-interactive covers over each cell and over the screen.
        var covers = false
        /// Each cell's separator: its y and height (from x 72 to the cell's right edge), or nil.
        var separator: (y: Double, height: Double)? = nil
        /// 1/3 pt and 0.5 pt hairlines and dividers.
        var hairlines = false
        /// A full-screen overlay with alpha 0 on top (`app`).
        var overlay = false
        /// Overlays and highlights with alpha 0 and on both sides of 0.01.
        var alphaThresholds = false

        /// The `app` screen.
        static let app = TableDressing(
            badges: 0.2, hiddenButtons: 0.1, interactiveLabels: false, separator: (59, 1), overlay: true)
        /// The `table` family: `app` with 0.5 pt separators.
        static let dressed = TableDressing(
            badges: 0.2, hiddenButtons: 0.1, interactiveLabels: false, separator: (59.5, 0.5), overlay: true)
    }

    /// Builds a table screen (see `TableFamily`). Every cell draws two random numbers (badge,
    /// hidden button) whatever the dressing, so that the dressings share one sequence; the
    /// features that need more draw them only when on.
    static func table(cells: Int, dressing d: TableDressing, customised: Customisation, seed: UInt64) -> Scene {
        var buttons: [View] = []
        var rng = SplitMix64(seed: seed)
        var views: [View] = []
        @discardableResult
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
        if d.hairlines { make(nav, "nav-hairline", 0, 87.5, 390, 0.5) }
        let table = make(window, "table", 0, 88, 390, 673)
        table.bounds.origin = Point(x: 0, y: 1200)
        for i in 0..<cells {
            let cell = make(table, "cell-\(i)", 0, Double(i) * 60, 390, 60)
            let content = make(cell, "cell-\(i)-content", 0, 0, 390, 60)
            let icon = make(content, "cell-\(i)-icon", 16, 8, 44, 44)
            if rng.unit() < d.badges {
                let badge = make(icon, "cell-\(i)-badge", 30, -6, 18, 18)
                let angle = d.badgeAngles && i % 2 == 1 ? (rng.unit() - 0.5) * 2 * .pi : .pi / 4
                badge.transform = AffineTransform(rotationAngle: angle)
            }
            if d.overhangs && rng.unit() < 0.1 { icon.allowsSubviewHitsOutsideBounds = true }
            let title = make(content, "cell-\(i)-title", 72, 8, 220, 22)
            let subtitle = make(content, "cell-\(i)-subtitle", 72, 32, 220, 18)
            if !d.interactiveLabels {
                title.isUserInteractionEnabled = false
                subtitle.isUserInteractionEnabled = false
            }
            let button = make(content, "cell-\(i)-button", 330, 15, 44, 30)
            if rng.unit() < d.hiddenButtons { button.isHidden = true }
            buttons.append(button)
            if d.overhangs {
                make(button, "cell-\(i)-tag", -8, 4, 14, 22).transform = AffineTransform(rotationAngle: .pi / 6)
            }
            if let s = d.separator { make(content, "cell-\(i)-separator", 72, s.y, 318, s.height) }
            if d.hairlines {
                make(content, "cell-\(i)-hairline", 0, 0, 390, 1.0 / 3)
                make(content, "cell-\(i)-divider", 318, 8, 0.5, 44)
            }
            if d.covers {
                let edit = make(content, "cell-\(i)-edit", 0, 0, 390, 60)
                edit.isHidden = true
                make(edit, "cell-\(i)-delete", 330, 15, 44, 30)
                let selection = make(cell, "cell-\(i)-selection", 0, 0, 390, 60)
                selection.isUserInteractionEnabled = false
                make(selection, "cell-\(i)-grip", 350, 15, 30, 30)
            }
            if d.alphaThresholds {
                let highlight = make(cell, "cell-\(i)-highlight", 0, 0, 390, 60)
                highlight.alpha = i % 7 == 3 ? 0.01 : i % 7 == 5 ? 0.01.nextDown : 0
            }
        }
        let tabs = make(window, "tab-bar", 0, 761, 390, 83)
        for i in 0..<5 { buttons.append(make(tabs, "tab-button-\(i + 1)", Double(i) * 78, 0, 78, 49)) }
        if d.hairlines { make(tabs, "tab-hairline", 0, 0, 390, 0.5) }
        if d.covers {
            let sheet = make(window, "sheet", 0, 0, 390, 844)
            sheet.isHidden = true
            make(sheet, "sheet-button", 16, 760, 358, 50)
            make(window, "dim", 0, 0, 390, 844).isUserInteractionEnabled = false
        }
        if d.alphaThresholds {
            let overlay = make(window, "overlay", 0, 0, 390, 844)
            overlay.alpha = 0
            make(overlay, "spinner", 175, 402, 40, 40)
            make(window, "scrim", 0, 0, 390, 844).alpha = 0.01.nextDown
            make(window, "toast", 16, 700, 358, 44).alpha = 0.01
        }
        guard d.overlay else { return Scene(root: window, views: views) }
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

    /// A map screen: a 390x844 map view whose bounds origin is scrolled to (195, 422) and
    /// whose transform scales it by 1.25 about its centre, holding `pins` pins (the last on
    /// top) spread uniformly over a 780x1688 world (twice the screen each way); a search bar
    /// and a locate button over the map. The screen shows the world's [234, 546] x
    /// [506.4, 1181.6], about 16% of it: for 20,000 pins about 3,200 on screen and 3.5 under
    /// a point. A pin is 10-16 pt wide and 14-22 pt tall (before the scale), its tip at a
    /// uniform point; coordinates are multiples of 1/64 pt (in the map's space; the scale's
    /// inverse, 0.8, is not a binary fraction). Ids `map` and `pin-N`.
    public static func pinMap(pins count: Int, seed: UInt64) -> Scene {
        var rng = SplitMix64(seed: seed)
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.accessibilityIdentifier = "window"
        let map = View(frame: window.bounds)
        map.accessibilityIdentifier = "map"
        map.bounds.origin = Point(x: 195, y: 422)
        map.transform = AffineTransform(scaleX: 1.25, y: 1.25)
        window.addSubview(map)
        var views: [View] = [window, map]
        views.reserveCapacity(count + 4)
        func q(_ x: Double) -> Double { (x * 64).rounded() / 64 }
        for i in 0..<count {
            let w = q(10 + 6 * rng.unit())
            let h = q(14 + 8 * rng.unit())
            let tipX = q(rng.unit() * 780)
            let tipY = q(rng.unit() * 1688)
            let pin = View(frame: Rect(x: tipX - w / 2, y: tipY - h, width: w, height: h))
            pin.accessibilityIdentifier = "pin-\(i)"
            map.addSubview(pin)
            views.append(pin)
        }
        for (id, frame) in [("search-bar", Rect(x: 16, y: 54, width: 358, height: 44)), ("locate-button", Rect(x: 330, y: 770, width: 44, height: 44))] {
            let v = View(frame: frame)
            v.accessibilityIdentifier = id
            window.addSubview(v)
            views.append(v)
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
