import HitTestReference
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// A scroll (a bounds-origin change of one view) leaves that view's derived block in the C index
/// as it was — its grid lies over the children's extent, not the moving region — and every
/// answer stays the reference walk's, wherever the origin goes.
@Suite struct ScrollIndexTests {
    /// A seeded generator (the seed is in every failure message).
    struct Rng {
        var state: UInt64
        mutating func unit() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / 9007199254740992.0
        }
    }

    /// A window with a bar, a table of 200 rows (each with a button, some rotated, hidden or
    /// with children of their own) and a bar below; the table's block has a grid.
    static func scene(_ rng: inout Rng) -> (window: View, table: View) {
        let window = View(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.addSubview(View(frame: Rect(x: 0, y: 0, width: 390, height: 60)))
        let table = View(frame: Rect(x: 0, y: 80, width: 390, height: 744))
        window.addSubview(table)
        window.addSubview(View(frame: Rect(x: 0, y: 800, width: 390, height: 44)))
        for i in 0..<200 {
            let row = View(frame: Rect(x: rng.unit() * 20 - 10, y: Double(i) * 44, width: 390 - rng.unit() * 40, height: 44))
            switch Int(rng.unit() * 8) {
            case 0: row.transform = AffineTransform(rotationAngle: 0.3)
            case 1: row.isHidden = true
            case 2: row.isUserInteractionEnabled = false
            default: break
            }
            row.addSubview(View(frame: Rect(x: 320, y: 7, width: 44, height: 30)))
            if rng.unit() < 0.3 { row.addSubview(View(frame: Rect(x: 10, y: 12, width: 100, height: 20))) }
            table.addSubview(row)
        }
        return (window, table)
    }

    @Test func scrollingToRandomOffsetsKeepsEveryAnswer() {
        let seed: UInt64 = 0x5C_2011
        var rng = Rng(state: seed)
        let (window, table) = Self.scene(&rng)
        let core = window.ensureCore()
        core.prepareAnswers(for: window)
        func name(_ v: View?) -> String {
            guard let v else { return "nil" }
            if v === table { return "table" }
            if let i = table.subviews.firstIndex(where: { $0 === v }) { return "row \(i)" }
            if let row = v.superview, let i = table.subviews.firstIndex(where: { $0 === row }) { return "child of row \(i)" }
            return v === window ? "window" : "a bar"
        }
        var mismatches = 0
        for step in 0..<120 {
            let origin: Point
            switch step % 4 {
            case 0: origin = Point(x: 0, y: rng.unit() * (200 * 44 - 744))
            case 1: origin = Point(x: (rng.unit() - 0.5) * 200, y: (rng.unit() - 0.2) * 200 * 44 * 1.5)
            case 2: origin = Point(x: (rng.unit() - 0.5) * 1e5, y: (rng.unit() - 0.5) * 1e6)  // far outside, negative too
            default: origin = Point(x: (rng.unit() * 60).rounded(.down) / 4 - 7.5, y: ((rng.unit() - 0.3) * 200).rounded(.down) * 44)
            }
            table.bounds.origin = origin
            if step % 3 == 0 { core.prepareAnswers(for: window) }  // a refreshed answer grid, or a stale one
            var points: [Point] = []
            for _ in 0..<300 { points.append(Point(x: rng.unit() * 430 - 20, y: rng.unit() * 900 - 28)) }
            // The table's edges and a few rows' edges, in the window's space, exactly and nearby.
            for (x, y) in [(0.0, 0.0), (390, 744), (195, 0), (0, 372), (390, 372), (195, 744)] {
                let p = table.convert(Point(x: origin.x + x, y: origin.y + y), to: window)
                for dx in [-1e-9, 0, 1e-9] { for dy in [-1e-9, 0, 1e-9] { points.append(Point(x: p.x + dx, y: p.y + dy)) } }
            }
            let first = max(0, Int((origin.y / 44).rounded(.down)))
            for row in table.subviews[min(first, 200)..<min(first + 18, 200)] {
                for corner in [Point(x: 0, y: 0), Point(x: row.bounds.width, y: row.bounds.height)] {
                    points.append(row.convert(corner, to: window))
                }
            }
            let bulk = window.hitTest(points)
            for (i, p) in points.enumerated() {
                let expected = Reference.hitTest(window, p)
                let single = window.hitTest(p)
                if single !== expected || bulk[i] !== expected {
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record("seed \(seed) step \(step) origin \(origin) point \(p): reference \(name(expected)), single \(name(single)), bulk \(name(bulk[i]))")
                    }
                }
            }
        }
        #expect(mismatches == 0, "seed \(seed): \(mismatches) points differ")
        #expect(core.validate())
        #expect(window.mirrorMismatches().isEmpty)
    }
}
