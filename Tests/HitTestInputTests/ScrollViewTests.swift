import CHitTest
import Foundation
@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestReference
import Testing

/// A table-like screen for the scroll view tests: a 320 × 480 window, a scroll view filling it
/// with 40 cells of 50 pt (content 320 × 2000), each cell with a button at (250, 5, 60, 40).
final class ScrollRig {
    /// A view that records the phases it receives, with their times.
    final class Cell: View {
        var phases: [String] = []
        override func touchesBegan(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("began@\(e?.timestamp ?? -1)") }
        override func touchesMoved(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("moved@\(e?.timestamp ?? -1)") }
        override func touchesEnded(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("ended@\(e?.timestamp ?? -1)") }
        override func touchesCancelled(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("cancelled@\(e?.timestamp ?? -1)") }
    }

    /// Records the delegate calls.
    final class Delegate: ScrollViewDelegate {
        var calls: [String] = []
        func scrollViewDidScroll(_ s: ScrollView) { calls.append("didScroll") }
        func scrollViewWillBeginDragging(_ s: ScrollView) { calls.append("willBeginDragging") }
        func scrollViewDidEndDragging(_ s: ScrollView, willDecelerate: Bool) { calls.append("didEndDragging(\(willDecelerate))") }
        func scrollViewDidEndDecelerating(_ s: ScrollView) { calls.append("didEndDecelerating") }
        func scrollViewDidEndScrollingAnimation(_ s: ScrollView) { calls.append("didEndScrollingAnimation") }

        /// The calls with runs of didScroll folded into `didScroll×n`.
        var folded: [String] {
            var out: [String] = []
            var run = 0
            for c in calls {
                if c == "didScroll" { run += 1; continue }
                if run > 0 { out.append("didScroll×\(run)"); run = 0 }
                out.append(c)
            }
            if run > 0 { out.append("didScroll×\(run)") }
            return out
        }
    }

    let app = Application()
    let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    let scroll: ScrollView
    var cells: [Cell] = []
    var buttons: [Button] = []
    let delegate = Delegate()

    init(scroll: ScrollView = ScrollView(frame: .zero), cellCount: Int = 40) {
        self.scroll = scroll
        scroll.frame = Rect(x: 0, y: 0, width: 320, height: 480)
        scroll.contentSize = Size(width: 320, height: Double(cellCount) * 50)
        scroll.accessibilityIdentifier = "table"
        scroll.delegate = delegate
        app.addWindow(window)
        window.addSubview(scroll)
        for i in 0..<cellCount {
            let cell = Cell(frame: Rect(x: 0, y: Double(i) * 50, width: 320, height: 50))
            cell.accessibilityIdentifier = "cell-\(i)"
            let button = Button(frame: Rect(x: 250, y: 5, width: 60, height: 40))
            button.accessibilityIdentifier = "button-\(i)"
            cell.addSubview(button)
            scroll.addSubview(cell)
            cells.append(cell)
            buttons.append(button)
        }
    }

    func step(_ id: Int, _ phase: Touch.Phase, _ x: Double, _ y: Double, _ t: Double) {
        app.injectTouches([TouchChange(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t)])
    }

    /// The offsets logged (`.scrolled`), with their times.
    var scrolled: [(time: Double, offset: Double)] {
        app.deliveryLog.filter { $0.kind == .scrolled }.map { e in
            let text = e.detail ?? ""
            let inner = text.split(separator: "(")[1].split(separator: ")")[0].split(separator: ",")
            return (e.timestamp, Double(inner[1].trimmingCharacters(in: .whitespaces))!)
        }
    }

    var controlEvents: [String] {
        app.deliveryLog.filter { $0.kind == .controlEvent }.map { "\($0.responderName): \($0.detail ?? "")" }
    }
}

/// Scroll views: SEMANTICS 9 S1–S8 (S7b, S7c), each by name, with exact expectations.
@Suite struct ScrollViewTests {
    // MARK: - S1

    @Test func s1ContentOffsetIsBoundsOriginAndHitTestsFollowAtOnce() {
        let rig = ScrollRig()
        #expect(rig.window.hitTest(Point(x: 100, y: 10)) === rig.cells[0])
        rig.scroll.contentOffset = Point(x: 0, y: 120)
        #expect(rig.scroll.bounds.origin == Point(x: 0, y: 120))
        #expect(rig.window.hitTest(Point(x: 100, y: 10)) === rig.cells[2])           // content y 130
        #expect(rig.window.hitTest(Point(x: 260, y: 40)) === rig.buttons[3])          // content y 160: button of cell 3
        rig.scroll.bounds.origin = Point(x: 0, y: 1000)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 1000))
        #expect(rig.window.hitTest(Point(x: 100, y: 10)) === rig.cells[20])
        // Each change is logged and reported; a frame change that keeps the origin is not a scroll.
        rig.scroll.frame = Rect(x: 0, y: 0, width: 320, height: 400)
        #expect(rig.app.deliveryLog.map(\.description) == [
            "0.0 scrolled table: contentOffset (0.0, 120.0)",
            "0.0 scrolled table: contentOffset (0.0, 1000.0)",
        ])
        #expect(rig.delegate.calls == ["didScroll", "didScroll"])
    }

    /// Scrolling is a change of one view's row: the C rows of the table's subtree are untouched
    /// (read back before and after, field by field), the index validates, the mirror check
    /// agrees, and every hit equals the reference walk's.
    @Test func s1ScrollingWritesOneRowAndRebuildsNoSubtree() {
        let rig = ScrollRig(cellCount: 200)
        _ = rig.window.hitTest(Point(x: 1, y: 1))   // prepared
        func records(_ views: [View]) -> [[Double]] {
            views.map { v in
                var r = ht_node_record()
                #expect(ht_node_get_record(v.core!.tree, v.node, &r) == HT_OK)
                return [r.center_x, r.center_y, r.bounds_x, r.bounds_y, r.bounds_w, r.bounds_h, Double(r.flags), Double(r.parent)]
            }
        }
        var subtree: [View] = []
        var stack: [View] = rig.scroll.subviews
        while let v = stack.popLast() {
            subtree.append(v)
            stack.append(contentsOf: v.subviews)
        }
        #expect(subtree.count == 400)
        let before = records(subtree)
        let scrollBefore = records([rig.scroll])[0]
        for k in 1...50 {
            rig.scroll.contentOffset = Point(x: 0, y: Double(k) * 37.5)
            #expect(rig.window.hitTest(Point(x: 100, y: 240)) === rig.cells[Int((Double(k) * 37.5 + 240) / 50)])
        }
        #expect(records(subtree) == before)
        let scrollAfter = records([rig.scroll])[0]
        #expect(scrollAfter[3] == 1875 && scrollBefore[3] == 0)
        #expect(rig.window.mirrorMismatches().isEmpty)
        #expect(rig.window.core!.validate())
        var points: [Point] = []
        for y in stride(from: 0.0, to: 480, by: 7.25) {
            for x in stride(from: 0.0, to: 320, by: 13.5) { points.append(Point(x: x, y: y)) }
        }
        let bulk = rig.window.hitTest(points)
        for (p, hit) in zip(points, bulk) {
            #expect(hit === Reference.hitTest(rig.window, p))
        }
    }

    // MARK: - S2

    @Test func s2ContentTouchIsHeld150msThenAskedAndBegun() {
        final class Asking: ScrollView {
            var asked: [String] = []
            override func touchesShouldBegin(_ touches: Set<Touch>, with event: HitTestKit.Event?, in view: View) -> Bool {
                asked.append("\(view.debugName)@\(event?.timestamp ?? -1)")
                return true
            }
        }
        let scroll = Asking(frame: .zero)
        let rig = ScrollRig(scroll: scroll)
        rig.step(1, .began, 100, 25, 0)
        rig.app.advanceTime(to: 0.1)
        #expect(rig.cells[0].phases.isEmpty && scroll.asked.isEmpty)
        #expect(scroll.isTracking && !scroll.isDragging)
        rig.app.advanceTime(to: 0.2)
        #expect(scroll.asked == ["cell-0@0.15"])
        #expect(rig.cells[0].phases == ["began@0.15"])
        rig.step(1, .ended, 100, 25, 0.3)
        #expect(rig.cells[0].phases == ["began@0.15", "ended@0.3"])
        #expect(!scroll.isTracking)
    }

    @Test func s2TouchThatLiftsFirstGetsBeganAndEndedAtTheLift() {
        let rig = ScrollRig()
        rig.step(1, .began, 100, 25, 0)
        rig.step(1, .ended, 100, 25, 0.1)
        #expect(rig.cells[0].phases == ["began@0.1", "ended@0.1"])
        // The button in a cell: touchDown and touchUpInside both at the lift.
        rig.step(2, .began, 270, 75, 1)
        rig.step(2, .ended, 270, 75, 1.05)
        #expect(rig.controlEvents == ["button-1: touchDown", "button-1: touchUpInside|primaryActionTriggered"])
        #expect(rig.app.deliveryLog.filter { $0.kind == .controlEvent }.map(\.timestamp) == [1.05, 1.05])
    }

    @Test func s2TouchesShouldBeginFalseKeepsTheTouchFromTheContent() {
        final class Refusing: ScrollView {
            override func touchesShouldBegin(_ touches: Set<Touch>, with event: HitTestKit.Event?, in view: View) -> Bool {
                !(view.debugName == "cell-0")
            }
        }
        let rig = ScrollRig(scroll: Refusing(frame: .zero))
        rig.step(1, .began, 100, 25, 0)
        rig.app.advanceTime(to: 0.2)
        rig.step(1, .ended, 100, 25, 0.3)
        rig.step(2, .began, 100, 25, 1)
        rig.step(2, .ended, 100, 25, 1.05)       // asked at the lift: refused too
        #expect(rig.cells[0].phases.isEmpty)
        rig.step(3, .began, 100, 75, 2)
        rig.step(3, .ended, 100, 75, 2.05)
        #expect(rig.cells[1].phases == ["began@2.05", "ended@2.05"])
    }

    @Test func s2WithoutDelayTheContentIsAskedAndBegunAtOnce() {
        final class Asking: ScrollView {
            var asked = 0
            override func touchesShouldBegin(_ touches: Set<Touch>, with event: HitTestKit.Event?, in view: View) -> Bool {
                asked += 1
                return true
            }
        }
        let scroll = Asking(frame: .zero)
        let rig = ScrollRig(scroll: scroll)
        scroll.delaysContentTouches = false
        rig.step(1, .began, 100, 25, 0)
        #expect(scroll.asked == 1)
        #expect(rig.cells[0].phases == ["began@0.0"])
        rig.step(1, .ended, 100, 25, 0.1)
        #expect(rig.cells[0].phases == ["began@0.0", "ended@0.1"])
    }

    // MARK: - S3

    @Test func s3PanBeginningWhileTheBeganIsHeldLeavesTheContentNothing() {
        let rig = ScrollRig()
        rig.step(1, .began, 270, 325, 0)             // on button-6
        rig.step(1, .moved, 270, 305, 0.05)          // 20 pt within 150 ms: the pan begins
        rig.step(1, .moved, 270, 275, 0.1)
        rig.step(1, .ended, 270, 275, 0.4)           // rested: no deceleration
        rig.app.advanceTime(to: 1)
        #expect(rig.cells[6].phases.isEmpty)
        #expect(rig.controlEvents.isEmpty)
        #expect(rig.scrolled.map(\.offset) == [30])
        #expect(!rig.app.deliveryLog.contains { $0.kind == .delivered && ($0.isAbout(rig.cells[6]) || $0.isAbout(rig.buttons[6])) })
    }

    // MARK: - S4

    @Test func s4DragAfterTheContentBeganCancelsPlainContentAndScrolls() {
        let rig = ScrollRig()
        rig.step(1, .began, 100, 325, 0)
        rig.app.advanceTime(to: 0.2)                  // the cell has begun (0.15)
        rig.step(1, .moved, 100, 310, 0.25)          // 15 pt: the pan begins, the cell is cancelled
        rig.step(1, .moved, 100, 290, 0.3)
        rig.step(1, .ended, 100, 290, 0.6)
        #expect(rig.cells[6].phases == ["began@0.15", "cancelled@0.25"])
        #expect(rig.scrolled.map(\.offset) == [20])
    }

    @Test func s4DragOnAControlFailsThePanAndTheControlKeepsTheTouch() {
        let rig = ScrollRig()
        rig.step(1, .began, 270, 325, 0)
        rig.app.advanceTime(to: 0.2)                  // button-6: touchDown at 0.15
        rig.step(1, .moved, 270, 300, 0.25)          // the pan may not take a control's touch
        rig.step(1, .moved, 270, 280, 0.3)
        rig.step(1, .ended, 270, 280, 0.35)
        #expect(rig.scrolled.isEmpty)
        #expect(rig.controlEvents == [
            "button-6: touchDown", "button-6: touchDragInside", "button-6: touchDragInside",
            "button-6: touchUpInside|primaryActionTriggered",
        ])
        #expect(rig.app.deliveryLog.contains { $0.kind == .recognizer && $0.detail == "pan possible → failed (gestureRecognizerShouldBegin returned false)" })
    }

    @Test func s4WithoutCanCancelContentTouchesThePanFails() {
        let rig = ScrollRig()
        rig.scroll.canCancelContentTouches = false
        rig.step(1, .began, 100, 325, 0)
        rig.app.advanceTime(to: 0.2)
        rig.step(1, .moved, 100, 300, 0.25)
        rig.step(1, .ended, 100, 300, 0.3)
        #expect(rig.scrolled.isEmpty)
        #expect(rig.cells[6].phases == ["began@0.15", "moved@0.25", "ended@0.3"])
    }

    @Test func s4TouchesShouldCancelOverrideLetsThePanTakeAControl() {
        final class Table: ScrollView {
            override func touchesShouldCancel(in view: View) -> Bool { true }   // as UITableView
        }
        let rig = ScrollRig(scroll: Table(frame: .zero))
        rig.step(1, .began, 270, 325, 0)
        rig.app.advanceTime(to: 0.2)
        rig.step(1, .moved, 270, 300, 0.25)
        rig.step(1, .moved, 270, 280, 0.3)
        rig.step(1, .ended, 270, 280, 0.6)
        #expect(rig.controlEvents == ["button-6: touchDown", "button-6: touchCancel"])
        #expect(rig.scrolled.map(\.offset) == [20])
    }

    // MARK: - S5

    @Test func s5OffsetIsStartMinusTranslationFromThePansStart() {
        let rig = ScrollRig()
        rig.scroll.contentOffset = Point(x: 0, y: 100)
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 395, 0.05)    // 5 pt: still possible
        rig.step(1, .moved, 100, 385, 0.1)     // 15 pt: began here, no jump
        #expect(rig.scroll.isDragging && rig.scroll.contentOffset == Point(x: 0, y: 100))
        rig.step(1, .moved, 130, 345, 0.15)    // sideways movement does not scroll a vertical table
        rig.step(1, .moved, 100, 305, 0.2)
        #expect(rig.window.hitTest(Point(x: 100, y: 305)) === rig.cells[(180 + 305) / 50])
        rig.step(1, .ended, 100, 305, 0.5)
        #expect(rig.scrolled.map(\.offset) == [100, 140, 180])
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 180))
        #expect(!rig.scroll.isDragging && !rig.scroll.isDecelerating && !rig.scroll.isTracking)
    }

    // MARK: - S6

    @Test func s6WithoutBouncesTheOffsetStaysWithinTheInsetLimits() {
        let rig = ScrollRig()
        rig.scroll.bounces = false
        rig.scroll.contentInset = EdgeInsets(top: 10, left: 0, bottom: 30, right: 0)
        rig.step(1, .began, 100, 100, 0)
        rig.step(1, .moved, 100, 120, 0.05)    // began
        rig.step(1, .moved, 100, 200, 0.1)     // wants -80: clamped to -10
        rig.step(1, .ended, 100, 200, 0.5)
        #expect(rig.scrolled.map(\.offset) == [-10])
        rig.scroll.contentOffset = Point(x: 0, y: 1500)
        rig.step(2, .began, 100, 400, 1)
        rig.step(2, .moved, 100, 380, 1.05)
        rig.step(2, .moved, 100, 200, 1.1)     // wants 1680: clamped to 2000 + 30 − 480 = 1550
        rig.step(2, .ended, 100, 200, 1.5)
        #expect(rig.scrolled.map(\.offset) == [-10, 1500, 1550])
        #expect(rig.scroll.maximumOffset == Point(x: 0, y: 1550) && rig.scroll.minimumOffset == Point(x: 0, y: -10))
    }

    @Test func s6WithBouncesTheOvershootIsHalvedAndSnapsBack() {
        let rig = ScrollRig()
        rig.step(1, .began, 100, 100, 0)
        rig.step(1, .moved, 100, 120, 0.05)    // began
        rig.step(1, .moved, 100, 160, 0.1)     // wants -40: -20
        #expect(rig.scroll.contentOffset == Point(x: 0, y: -20))
        rig.step(1, .ended, 100, 160, 0.5)     // rested: snap back over 0.3 s in 18 ticks
        #expect(rig.scroll.isDecelerating)
        rig.app.advanceTime(to: 2)
        let after = rig.scrolled.dropFirst()
        #expect(after.count == 18)
        for (k, e) in after.enumerated() {
            let u = Double(k + 1) / 18
            #expect(abs(e.offset - (-20 + 20 * (1 - pow(1 - u, 3)))) < 1e-9)
            #expect(e.time == 0.5 + Double(k + 1) * ScrollView.tickInterval)
        }
        #expect(after.last?.offset == 0)
        #expect(!rig.scroll.isDecelerating)
        #expect(rig.delegate.folded == ["willBeginDragging", "didScroll×1", "didEndDragging(true)", "didScroll×18", "didEndDecelerating"])
    }

    @Test func s6ShortContentMovesOnlyWithAlwaysBounceVertical() {
        let rig = ScrollRig(cellCount: 2)
        rig.step(1, .began, 100, 300, 0)
        rig.step(1, .moved, 100, 280, 0.05)
        rig.step(1, .moved, 100, 240, 0.1)
        rig.step(1, .ended, 100, 240, 0.5)
        #expect(rig.scrolled.isEmpty)
        rig.scroll.alwaysBounceVertical = true
        rig.step(2, .began, 100, 300, 1)
        rig.step(2, .moved, 100, 280, 1.05)
        rig.step(2, .moved, 100, 240, 1.1)     // wants 40 with a maximum of 0: 20
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 20))
        rig.step(2, .ended, 100, 240, 1.5)
        rig.app.advanceTime(to: 3)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 0))
    }

    // MARK: - S7, S7b

    @Test func s7FlickDeceleratesByUIKitsFormulaInTicksOfASixtiethUntilBelow1PointPerSecond() {
        let rig = ScrollRig()
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.01)    // began
        rig.step(1, .moved, 100, 370, 0.02)
        rig.step(1, .ended, 100, 350, 0.03)    // the lift moves 20 pt in 0.01 s
        #expect(rig.scroll.isDecelerating && !rig.scroll.isDragging)
        rig.app.advanceTime(to: 10)
        #expect(!rig.scroll.isDecelerating)
        let entries = rig.scrolled
        #expect(entries.prefix(2).map(\.offset) == [20, 40])
        let o = entries[1].offset
        let v = -((350.0 - 370.0) / (0.03 - 0.02))      // the content moves against the finger
        let d = 0.998
        let ticks = Array(entries.dropFirst(2))
        for (k, e) in ticks.enumerated() {
            let t = Double(k + 1) * ScrollView.tickInterval
            #expect(abs(e.offset - (o + v * (pow(d, 1000 * t) - 1) / (1000 * log(d)))) < 1e-9)
            #expect(e.offset == ScrollView.deceleratedOffset(from: o, velocity: v, after: t, rate: d) || abs(e.offset - ScrollView.deceleratedOffset(from: o, velocity: v, after: t, rate: d)) < 1e-9)
            #expect(e.time == 0.03 + t)                                       // S7b
        }
        // The last tick is the first whose speed v·d^(1000 t) is below 1 pt/s.
        let n = ticks.count
        let speed = { (k: Int) in v * pow(d, 1000 * Double(k) * ScrollView.tickInterval) }
        #expect(speed(n) < 1 && speed(n - 1) >= 1)
        #expect(n == 228)
        #expect(rig.delegate.folded == ["willBeginDragging", "didScroll×2", "didEndDragging(true)", "didScroll×228", "didEndDecelerating"])
    }

    @Test func s7bOneDidScrollPerTickThatMovesTheOffsetAtExactSixtieths() {
        let rig = ScrollRig(cellCount: 12)                  // maximum offset 120: the flick hits the edge
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.01)
        rig.step(1, .ended, 100, 380, 0.02)                 // 1000 pt/s
        rig.delegate.calls.removeAll()
        let before = rig.scrolled.count
        rig.app.advanceTime(to: 0.02 + 0.5 * ScrollView.tickInterval)   // between the lift and the first tick
        #expect(rig.scrolled.count == before)
        rig.app.advanceTime(to: 5)
        let ticks = rig.scrolled.dropFirst(before)
        #expect(ticks.map(\.time) == (1...ticks.count).map { 0.02 + Double($0) * ScrollView.tickInterval })
        #expect(rig.delegate.calls == Array(repeating: "didScroll", count: ticks.count) + ["didEndDecelerating"])
        // Every tick moved the offset; the last one reached the edge and stopped the motion.
        #expect(zip(ticks.dropFirst(), ticks).allSatisfy { $0.offset > $1.offset })
        #expect(ticks.last?.offset == 120)
    }

    @Test func s7FastRateStopsSoonerAndALiftAfterARestDoesNotDecelerate() {
        let rig = ScrollRig()
        rig.scroll.decelerationRate = .fast
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.01)
        rig.step(1, .ended, 100, 370, 0.02)    // 2000 pt/s
        rig.app.advanceTime(to: 5)
        let ticks = rig.scrolled.count - 1
        // 2000 · 0.99^(1000 t) < 1 first at t = 0.76 s: tick 46 (0.7566…) is still ≥ 1.
        #expect(ticks == 46)
        #expect(abs(rig.scroll.contentOffset.y - ScrollView.deceleratedOffset(from: 20, velocity: 2000, after: 46.0 / 60, rate: 0.99)) < 1e-9)
        // A lift 0.1 s after the last move, where it was: no deceleration.
        let before = rig.scrolled.count
        rig.step(2, .began, 100, 400, 6)
        rig.step(2, .moved, 100, 380, 6.01)
        rig.step(2, .moved, 100, 360, 6.02)
        rig.step(2, .ended, 100, 360, 6.12)
        rig.app.advanceTime(to: 8)
        #expect(rig.scrolled.count == before + 1)
        #expect(rig.delegate.calls.suffix(2) == ["didScroll", "didEndDragging(false)"])
    }

    @Test func s7DecelerationStopsAtTheContentEdge() {
        let rig = ScrollRig(cellCount: 12)                   // content 600: maximum offset 120
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.01)
        rig.step(1, .ended, 100, 370, 0.02)
        rig.app.advanceTime(to: 5)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 120))
        #expect(rig.scrolled.last?.offset == 120)
        #expect(!rig.scroll.isDecelerating)
        #expect(rig.delegate.calls.last == "didEndDecelerating")
    }

    // MARK: - S7c

    @Test func s7cATouchStopsTheDecelerationAndDoesNotReachTheContent() throws {
        let rig = ScrollRig()
        let taps = TapGestureRecognizer { _ in }
        rig.cells[12].addGestureRecognizer(taps)
        for cell in rig.cells where cell !== rig.cells[12] {
            let tap = TapGestureRecognizer { _ in }
            cell.addGestureRecognizer(tap)
        }
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.01)
        rig.step(1, .ended, 100, 370, 0.02)
        rig.app.advanceTime(to: 0.5)
        #expect(rig.scroll.isDecelerating)
        let offset = rig.scroll.contentOffset
        // A point on a button, and one on a cell's body.
        let buttonY = try #require(stride(from: 1.0, to: 480, by: 1).first { rig.window.hitTest(Point(x: 270, y: $0)) is Button })
        let countBefore = rig.scrolled.count
        rig.step(2, .began, 270, buttonY, 0.5)
        #expect(!rig.scroll.isDecelerating)
        rig.step(2, .ended, 270, buttonY, 0.55)
        rig.app.advanceTime(to: 2)
        #expect(rig.scrolled.count == countBefore)
        #expect(rig.scroll.contentOffset == offset)
        #expect(rig.controlEvents.isEmpty)
        #expect(!rig.delegate.calls.contains("didEndDecelerating"))   // [ours]: an interrupted deceleration is not reported
        // Once stopped, the next tap reaches the content again.
        rig.step(3, .began, 270, buttonY, 3)
        rig.step(3, .ended, 270, buttonY, 3.05)
        #expect(rig.controlEvents.count == 2)
        // A tap on a cell's body during a deceleration: no tap recognized.
        rig.step(4, .began, 100, 400, 4)
        rig.step(4, .moved, 100, 390, 4.01)
        rig.step(4, .ended, 100, 370, 4.02)
        rig.app.advanceTime(to: 4.3)
        let recognizedBefore = rig.app.deliveryLog.filter { $0.kind == .recognizer && ($0.detail ?? "").contains("Tap#0 possible → ended") }.count
        rig.step(5, .began, 100, 200, 4.3)
        rig.step(5, .ended, 100, 200, 4.35)
        let recognizedAfter = rig.app.deliveryLog.filter { $0.kind == .recognizer && ($0.detail ?? "").contains("Tap#0 possible → ended") }.count
        #expect(recognizedAfter == recognizedBefore)
        #expect(rig.cells.allSatisfy { !$0.phases.contains { $0.hasPrefix("ended@4.35") || $0.hasPrefix("began@4.3") } })
    }

    @Test func s7cTheCatchingFingerCanDragOn() {
        let rig = ScrollRig()
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.01)
        rig.step(1, .ended, 100, 370, 0.02)
        rig.app.advanceTime(to: 0.2)
        let caught = rig.scroll.contentOffset.y
        rig.step(2, .began, 100, 300, 0.2)
        rig.step(2, .moved, 100, 280, 0.25)   // the pan begins
        rig.step(2, .moved, 100, 250, 0.3)
        rig.step(2, .ended, 100, 250, 0.7)
        #expect(abs(rig.scroll.contentOffset.y - (caught + 30)) < 1e-9)
    }

    // MARK: - S8

    @Test func s8DelegateCallsInOrderForADragAndAFlick() {
        let rig = ScrollRig()
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 390, 0.05)
        rig.step(1, .moved, 100, 360, 0.1)
        rig.step(1, .ended, 100, 360, 0.5)
        #expect(rig.delegate.folded == ["willBeginDragging", "didScroll×1", "didEndDragging(false)"])
        rig.delegate.calls.removeAll()
        rig.step(2, .began, 100, 400, 1)
        rig.step(2, .moved, 100, 390, 1.01)
        rig.step(2, .ended, 100, 380, 1.02)
        rig.app.advanceTime(to: 6)
        let folded = rig.delegate.folded
        #expect(folded.count == 5)
        #expect(Array(folded.prefix(3)) == ["willBeginDragging", "didScroll×1", "didEndDragging(true)"])
        #expect(folded.last == "didEndDecelerating")
    }

    // MARK: - setContentOffset, paging, flags [ours]

    @Test func setContentOffsetAnimatedEasesOutIn18TicksAndLandsExactly() {
        let rig = ScrollRig()
        rig.app.advanceTime(to: 1)
        rig.scroll.setContentOffset(Point(x: 0, y: 300), animated: true)
        #expect(!rig.scroll.isDecelerating)
        rig.app.advanceTime(to: 2)
        let log = rig.scrolled
        #expect(log.count == 18)
        for (k, e) in log.enumerated() {
            let u = Double(k + 1) / 18
            #expect(abs(e.offset - 300 * (1 - pow(1 - u, 3))) < 1e-9)
            #expect(e.time == 1 + Double(k + 1) * ScrollView.tickInterval)
        }
        #expect(log.last?.offset == 300)
        #expect(rig.delegate.calls.last == "didEndScrollingAnimation")
        rig.scroll.setContentOffset(Point(x: 0, y: 50), animated: false)
        #expect(rig.scrolled.count == 19 && rig.scroll.contentOffset.y == 50)
        // Outside an application's window the animation jumps.
        let lone = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        lone.setContentOffset(Point(x: 0, y: 70), animated: true)
        #expect(lone.contentOffset == Point(x: 0, y: 70))
    }

    @Test func pagingSettlesOnTheNearestPageOrTheNextOneAfterAFlick() {
        let rig = ScrollRig()
        rig.scroll.isPagingEnabled = true
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 380, 0.05)
        rig.step(1, .moved, 100, 200, 0.1)      // offset 180: nearer page 0
        rig.step(1, .ended, 100, 200, 0.5)
        rig.app.advanceTime(to: 1)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 0))
        rig.step(2, .began, 100, 400, 2)
        rig.step(2, .moved, 100, 380, 2.01)
        rig.step(2, .ended, 100, 300, 2.02)     // 8000 pt/s up: the next page
        rig.app.advanceTime(to: 3)
        #expect(rig.scroll.contentOffset == Point(x: 0, y: 480))
    }

    @Test func scrollDisabledMeansNoPan() {
        let rig = ScrollRig()
        rig.scroll.isScrollEnabled = false
        #expect(!rig.scroll.panGestureRecognizer.isEnabled)
        rig.step(1, .began, 100, 400, 0)
        rig.step(1, .moved, 100, 300, 0.2)
        rig.step(1, .ended, 100, 300, 0.3)
        #expect(rig.scrolled.isEmpty)
        #expect(rig.cells[8].phases == ["began@0.15", "moved@0.2", "ended@0.3"])
    }
}
