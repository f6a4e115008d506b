import HitTestKit
import Testing

/// Huge and deep trees through the Swift API: nothing may recurse per level.
@Suite struct DeepTreeTests {
    @Test func aHundredThousandDeepChainOfViews() {
        let depth = 100_000
        let window = Window(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        var last: View = window
        for i in 0..<depth {
            // Offsets alternate so the point stays inside every level.
            let v = View(frame: Rect(x: i % 2 == 0 ? 0.5 : -0.5, y: 0, width: 999 - Double(i) * 0.001, height: 999))
            v.tag = i + 1
            last.addSubview(v)
            last = v
        }
        #expect(last.window === window)
        #expect(window.hitTest(Point(x: 500, y: 500)) === last)
        #expect(window.hitTest([Point(x: 500, y: 500), Point(x: 0.25, y: 0.25)]).map { $0?.tag } == [depth, 0])
        let offsets = (0..<depth).map { $0 % 2 == 0 ? 0.5 : -0.5 }.reduce(0, +)
        #expect(last.convert(Point.zero, to: nil) == Point(x: offsets, y: 0))
        #expect(window.viewWithTag(depth) === last)
        #expect(last.isDescendant(of: window))
        let middle = window.viewWithTag(depth / 2)!
        middle.removeFromSuperview()
        #expect(last.window == nil)
        #expect(window.hitTest(Point(x: 500, y: 500))?.tag == depth / 2 - 1)
        // Dropping the last references releases the whole chain without recursion.
    }
}
