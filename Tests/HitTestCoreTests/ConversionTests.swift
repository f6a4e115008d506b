import HitTestKit
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

@Suite struct ConversionTests {
    @Test func upDownAndNilIsTheWindow() {
        let w = Window(frame: Rect(x: 0, y: 20, width: 390, height: 800))
        let a = View(frame: Rect(x: 10, y: 10, width: 200, height: 200))
        let b = View(frame: Rect(x: 5, y: 5, width: 50, height: 50))
        w.addSubview(a)
        a.addSubview(b)
        #expect(b.convert(Point(x: 1, y: 2), to: nil) == Point(x: 16, y: 17))
        #expect(b.convert(Point(x: 1, y: 2), to: w) == Point(x: 16, y: 17))
        #expect(b.convert(Point(x: 16, y: 17), from: nil) == Point(x: 1, y: 2))
        #expect(a.convert(Point(x: 0, y: 0), to: b) == Point(x: -5, y: -5))
        a.bounds.origin = Point(x: 0, y: 100)
        #expect(b.convert(Point.zero, to: nil) == Point(x: 15, y: -85))
        let c = View(frame: Rect(x: 100, y: 0, width: 10, height: 10))
        w.addSubview(c)
        #expect(b.convert(Point.zero, to: c) == Point(x: -85, y: -85))
    }

    @Test func transformsAndRects() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let v = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        v.transform = AffineTransform(scaleX: 2, y: 2)
        w.addSubview(v)
        #expect(v.convert(Point.zero, to: nil) == Point(x: 0, y: 0))
        #expect(v.convert(Point(x: 100, y: 100), to: nil) == Point(x: 200, y: 200))
        #expect(v.convert(Rect(x: 0, y: 0, width: 10, height: 10), to: nil) == Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(v.convert(Rect(x: 0, y: 0, width: 20, height: 20), from: nil) == Rect(x: 0, y: 0, width: 10, height: 10))
        v.transform = AffineTransform(scaleX: 0, y: 1)
        #expect(!v.convert(Point(x: 10, y: 10), from: nil).isFinite)  // singular
    }

    @Test func differentTreesMeetInScreenSpace() {
        let w1 = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let w2 = Window(frame: Rect(x: 100, y: 50, width: 100, height: 100))
        let a = View(frame: Rect(x: 10, y: 10, width: 10, height: 10))
        w1.addSubview(a)
        #expect(a.convert(Point.zero, to: w2) == Point(x: -90, y: -40))
        let loose = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
        #expect(loose.convert(Point(x: 1, y: 1), to: nil) == Point(x: 1, y: 1))
    }

    @Test("Swift conversion == C conversion", arguments: 0..<100)
    func matchesTheCIndex(seed: Int) throws {
        let tree = RandomTree.make(seed: UInt64(seed) + 5_000_000)
        var rng = SeededGenerator(seed: UInt64(seed))
        _ = tree.root.hitTest(.zero)  // a lone root gets its index on first use
        let core = try #require(tree.root.core)
        #expect(tree.root.mirrorMismatches() == [], "seed \(seed): the C rows differ from the views")
        for _ in 0..<20 {
            let a = tree.all.randomElement(using: &rng)!
            let b = tree.all.randomElement(using: &rng)!
            let p = Point(x: rng.coordinate(-100...400), y: rng.coordinate(-100...900))
            let swift = a.convert(p, to: b)
            let c = core.convert(p, from: a, to: b)
            if swift.isFinite {
                #expect(c == swift, "seed \(seed): \(p)")
            } else {
                #expect(c == nil)
            }
        }
    }
}
