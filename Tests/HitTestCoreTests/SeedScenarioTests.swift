import HitTestKit
import HitTestReference
import Testing

/// The seed texts' scenarios that need no customisation, with exact answers; each answer is
/// also checked against the reference walk and the bulk call.
@Suite struct SeedScenarioTests {
    /// `window.hitTest(p)` through every path, all agreeing.
    func hit(_ root: View, _ x: Double, _ y: Double) -> View? {
        let p = Point(x: x, y: y)
        let single = root.hitTest(p)
        #expect(single === Reference.hitTest(root, p), "reference differs at \(p)")
        #expect(root.hitTest([p])[0] === single, "bulk differs at \(p)")
        return single
    }

    /// Seed 001: A holds B and C; C holds D and E; a touch in E is found through A -> C -> E,
    /// with B tested (no) before C (yes, it is later) and E (later) before D.
    @Test func seed001WalkFindsE() {
        let a = Window(frame: Rect(x: 0, y: 0, width: 300, height: 400))
        let b = View(frame: Rect(x: 10, y: 10, width: 280, height: 100))
        let c = View(frame: Rect(x: 10, y: 150, width: 280, height: 200))
        let d = View(frame: Rect(x: 10, y: 10, width: 120, height: 80))
        let e = View(frame: Rect(x: 140, y: 10, width: 120, height: 80))
        a.addSubview(b)
        a.addSubview(c)
        c.addSubview(d)
        c.addSubview(e)
        #expect(hit(a, 200, 200) === e)
        #expect(hit(a, 50, 200) === d)
        #expect(hit(a, 50, 50) === b)
        #expect(hit(a, 150, 330) === c)
        #expect(hit(a, 5, 5) === a)
        #expect(hit(a, 305, 5) == nil)
    }

    @Test func hiddenAlphaAndInteractionExcludeTheSubtree() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let v = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let child = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        w.addSubview(v)
        v.addSubview(child)
        #expect(hit(w, 10, 10) === child)
        v.isHidden = true
        #expect(hit(w, 10, 10) === w)
        v.isHidden = false
        v.isUserInteractionEnabled = false
        #expect(hit(w, 10, 10) === w)
        v.isUserInteractionEnabled = true
        v.alpha = 0.0099
        #expect(hit(w, 10, 10) === w)
        v.alpha = 0.01  // strict "< 0.01": exactly 0.01 is hittable
        #expect(hit(w, 10, 10) === child)
        v.alpha = 0.5
        child.alpha = 0.015  // flags are per view, not multiplied
        #expect(hit(w, 10, 10) === child)
        w.isHidden = true
        #expect(hit(w, 10, 10) == nil)
        #expect(hit(v, 10, 10) === child)  // hitTest on a view ignores its ancestors
    }

    @Test func subviewsOutsideTheirSuperviewAreNotHit() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let bar = View(frame: Rect(x: 0, y: 100, width: 200, height: 50))
        let bump = View(frame: Rect(x: 80, y: -20, width: 40, height: 40))  // sticks out above
        bar.clipsToBounds = false
        w.addSubview(bar)
        bar.addSubview(bump)
        #expect(hit(w, 100, 110) === bump)
        #expect(hit(w, 100, 90) === w)  // drawn there, but outside the bar
        bar.clipsToBounds = true  // plays no part
        #expect(hit(w, 100, 110) === bump)
    }

    @Test func overlappingSiblingsLaterWinsAndEdgesAreHalfOpen() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let under = View(frame: Rect(x: 0, y: 0, width: 60, height: 60))
        let over = View(frame: Rect(x: 40, y: 40, width: 60, height: 60))
        w.addSubview(under)
        w.addSubview(over)
        #expect(hit(w, 50, 50) === over)
        #expect(hit(w, 39.5, 50) === under)
        #expect(hit(w, 40, 40) === over)  // min edge inside
        #expect(hit(w, 60, 20) === w)  // under's max edge is outside
        #expect(hit(w, 100, 50) == nil)  // the window's max edge
        w.sendSubviewToBack(over)
        #expect(hit(w, 50, 50) === under)
    }

    @Test func transformedSubviews() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let square = View(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        square.transform = AffineTransform(rotationAngle: .pi / 4)
        w.addSubview(square)
        #expect(hit(w, 100, 100) === square)
        #expect(hit(w, 55, 55) === w)  // a corner of the frame, outside the diamond
        #expect(hit(w, 100, 35) === square)  // the top tip reaches above the frame
        let scaled = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        scaled.transform = AffineTransform(scaleX: 2, y: 2)  // about the centre: covers -10..30
        w.addSubview(scaled)
        #expect(hit(w, 25, 25) === scaled)
        #expect(hit(w, 31, 5) === w)
        scaled.transform = AffineTransform(scaleX: 0, y: 1)  // singular: never hit
        #expect(hit(w, 10, 10) === w)
    }

    @Test func scrolledBoundsOrigin() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let table = View(frame: Rect(x: 0, y: 100, width: 390, height: 600))
        table.bounds.origin = Point(x: 0, y: 1200)
        w.addSubview(table)
        var cells: [View] = []
        for i in 0..<40 {
            let cell = View(frame: Rect(x: 0, y: Double(i) * 60, width: 390, height: 60))
            table.addSubview(cell)
            cells.append(cell)
        }
        // Screen y 100 is content y 1200: cell 20.
        #expect(hit(w, 10, 100) === cells[20])
        #expect(hit(w, 10, 159.5) === cells[20])
        #expect(hit(w, 10, 160) === cells[21])
        #expect(hit(w, 10, 99) === w)
        #expect(hit(w, 10, 699) === cells[29])
        #expect(w.convert(Point(x: 10, y: 100), to: cells[20]) == Point(x: 10, y: 0))
    }

    @Test func nonFinitePointsHitNothing() {
        let w = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        w.addSubview(View(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        #expect(hit(w, .nan, 10) == nil)
        #expect(hit(w, 10, .infinity) == nil)
        #expect(hit(w, -.infinity, 10) == nil)
    }
}
