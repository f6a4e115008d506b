@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import Testing

/// C5: a control beats an ancestor's single-finger single tap; a recognizer on the control
/// itself wins and cancels the control's touch. And the README's scenario: a drag scrolls a
/// table, then a tap reaches the cell and its button now under the finger.
@Suite struct ControlGestureTests {
    struct Screen {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let container = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let button = Button(frame: Rect(x: 100, y: 100, width: 80, height: 40))
        var lines: [String] = []

        init() {
            app.addWindow(window)
            window.addSubview(container)
            container.addSubview(button)
            container.accessibilityIdentifier = "container"
            button.accessibilityIdentifier = "button"
        }

        func tap(_ id: Int, _ x: Double, _ y: Double, _ t: Double) {
            app.injectTouches([TouchChange(id: id, phase: .began, location: Point(x: x, y: y), timestamp: t)])
            app.injectTouches([TouchChange(id: id, phase: .ended, location: Point(x: x, y: y), timestamp: t + 0.05)])
        }

        var activity: [String] {
            app.deliveryLog.filter { !$0.kind.isTouchDelivery }.map { "\($0.kind.rawValue) \($0.responderName): \($0.detail ?? "")" }
        }
    }

    final class Counter {
        var n: [String] = []
    }

    @Test func c5AncestorSingleTapCannotBeginOnAControlSoTheActionRuns() {
        let s = Screen()
        let c = Counter()
        let tap = TapGestureRecognizer { _ in c.n.append("tap") }
        s.container.addGestureRecognizer(tap)
        s.button.addAction(for: .primaryActionTriggered) { _, _ in c.n.append("button") }
        s.tap(1, 120, 110, 0)
        #expect(c.n == ["button"])
        #expect(s.activity == [
            "controlEvent button: touchDown",
            "recognizer container: Tap#0 possible → failed (gestureRecognizerShouldBegin returned false)",
            "controlEvent button: touchUpInside|primaryActionTriggered",
            "action button: action 1 (primaryActionTriggered)",
            "recognizer container: Tap#0 failed → possible",
        ])
        // Outside the button the tap fires.
        s.tap(2, 20, 400, 1)
        #expect(c.n == ["button", "tap"])
    }

    @Test func c5OnlySingleFingerSingleTapsAreRefused() {
        let s = Screen()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        #expect(!s.button.gestureRecognizerShouldBegin(TapGestureRecognizer()))
        #expect(s.button.gestureRecognizerShouldBegin(double))
        #expect(s.button.gestureRecognizerShouldBegin(PanGestureRecognizer()))
        let twoFingers = TapGestureRecognizer()
        twoFingers.numberOfTouchesRequired = 2
        #expect(s.button.gestureRecognizerShouldBegin(twoFingers))
        // An ancestor's double tap does begin on a button: the second touch is cancelled there.
        let c = Counter()
        double.addAction { _ in c.n.append("double") }
        s.container.addGestureRecognizer(double)
        s.tap(1, 120, 110, 0)
        s.tap(2, 121, 111, 0.2)
        #expect(c.n == ["double"])
        // The first lift is held while the double tap may still recognize (G8), so the button
        // still tracks the first touch when the second comes down (it tracks one at a time);
        // the double tap's recognition cancels the first touch there.
        #expect(s.activity.filter { $0.hasPrefix("controlEvent") } == [
            "controlEvent button: touchDown", "controlEvent button: touchCancel",
        ])
    }

    /// G8 with two recognizers on one touch: a swipe fails and is reset at the lift while a
    /// double tap keeps the lift held; when the double tap fails, nothing holds the lift any
    /// more (the reset swipe no longer watches that touch), so the button gets its
    /// `touchUpInside` then.
    @Test func g8AResetRecognizerNoLongerHoldsALiftSoTheButtonFiresWhenTheDoubleTapFails() {
        let s = Screen()
        let c = Counter()
        let double = TapGestureRecognizer { _ in c.n.append("double") }
        double.numberOfTapsRequired = 2
        s.container.addGestureRecognizer(double)
        s.container.addGestureRecognizer(SwipeGestureRecognizer())
        s.button.addAction(for: .primaryActionTriggered) { _, _ in c.n.append("button") }
        s.tap(1, 120, 110, 0)
        #expect(c.n.isEmpty)  // the lift is held while the double tap may still recognize
        s.app.advanceTime(to: 1)
        #expect(c.n == ["button"])
        let ups = s.app.deliveryLog.filter { $0.kind == .controlEvent && ($0.detail ?? "").hasPrefix("touchUpInside") }
        #expect(ups.count == 1)
        #expect(ups.first.map { $0.timestamp > 0.05 && $0.timestamp <= 1 } == true)
    }

    @Test func c5ATapOnTheControlItselfWinsAndCancelsTheControlsTouch() {
        let s = Screen()
        let c = Counter()
        let tap = TapGestureRecognizer { _ in c.n.append("tap") }
        s.button.addGestureRecognizer(tap)
        s.button.addAction(for: .allTouchEvents) { _, e in c.n.append("\(e)") }
        s.tap(1, 120, 110, 0)
        #expect(c.n == ["touchDown", "tap", "touchCancel"])
        #expect(!s.button.isTracking && !s.button.isHighlighted)
    }

    // MARK: - The README scenario

    /// A table (a scroll view of 40 cells of 50 pt, each with a button and a tap recognizer):
    /// a drag scrolls it by 120 pt; the next tap lands on the cell and the button that are
    /// under the finger now. The whole log is checked.
    @Test func readmeDragScrollsTheTableThenATapReachesTheCellAndItsButton() throws {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        window.accessibilityIdentifier = "window"
        let table = ScrollView(frame: window.bounds)
        table.accessibilityIdentifier = "table"
        table.contentSize = Size(width: 320, height: 2000)
        window.addSubview(table)
        let c = Counter()
        for i in 0..<40 {
            let cell = View(frame: Rect(x: 0, y: Double(i) * 50, width: 320, height: 50))
            cell.accessibilityIdentifier = "cell-\(i)"
            cell.addGestureRecognizer(TapGestureRecognizer { _ in c.n.append("tap cell-\(i)") })
            let button = Button(frame: Rect(x: 250, y: 5, width: 60, height: 40))
            button.accessibilityIdentifier = "button-\(i)"
            button.addAction(for: .primaryActionTriggered) { _, _ in c.n.append("button-\(i)") }
            cell.addSubview(button)
            table.addSubview(cell)
        }
        app.addWindow(window)
        #expect(window.hitTest(Point(x: 100, y: 230)) === table.subviews[4])
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,100,300
            0.05,1,moved,100,280
            0.10,1,moved,100,220
            0.15,1,moved,100,160
            0.50,1,ended,100,160
            1.00,2,began,100,230
            1.05,2,ended,100,230
            2.00,3,began,270,250
            2.05,3,ended,270,250
            """)
        let log = app.replay(script).map(\.description)
        #expect(table.contentOffset == Point(x: 0, y: 120))
        #expect(window.hitTest(Point(x: 100, y: 230)) === table.subviews[7])
        #expect(c.n == ["tap cell-7", "button-7"])
        #expect(log == [
            "0.0 touch 1 began held cell-6 (held by a gesture recognizer)",
            "0.05 touch 1 recognizer cell-6: Tap#0 possible → failed",
            "0.05 touch 1 recognizer table: pan possible → began",
            "0.05 touch 1 began ignored cell-6 (pan recognized)",
            "0.05 touch 1 action table: pan began",
            "0.05 touch 1 recognizer table: contentTouchDelay possible → failed",
            "0.05 touch 1 moved ignored cell-6 (pan recognized)",
            "0.1 touch 1 recognizer table: pan began → changed",
            "0.1 touch 1 action table: pan changed",
            "0.1 touch 1 scrolled table: contentOffset (0.0, 60.0)",
            "0.1 touch 1 moved ignored cell-6 (pan recognized)",
            "0.15 touch 1 recognizer table: pan changed → changed",
            "0.15 touch 1 action table: pan changed",
            "0.15 touch 1 scrolled table: contentOffset (0.0, 120.0)",
            "0.15 touch 1 moved ignored cell-6 (pan recognized)",
            "0.5 touch 1 recognizer table: pan changed → ended",
            "0.5 touch 1 action table: pan ended",
            "0.5 touch 1 ended ignored cell-6 (pan recognized)",
            "0.5 touch 1 recognizer cell-6: Tap#0 failed → possible",
            "0.5 touch 1 recognizer table: contentTouchDelay failed → possible",
            "0.5 touch 1 recognizer table: pan ended → possible",
            "1.0 touch 2 began held cell-7 (held by a gesture recognizer)",
            "1.05 touch 2 recognizer cell-7: Tap#0 possible → ended",
            "1.05 touch 2 began ignored cell-7 (Tap#0 recognized)",
            "1.05 touch 2 action cell-7: Tap#0 ended",
            "1.05 touch 2 recognizer table: contentTouchDelay possible → failed",
            "1.05 touch 2 recognizer table: pan possible → failed",
            "1.05 touch 2 ended ignored cell-7 (Tap#0 recognized)",
            "1.05 touch 2 recognizer cell-7: Tap#0 ended → possible",
            "1.05 touch 2 recognizer table: contentTouchDelay failed → possible",
            "1.05 touch 2 recognizer table: pan failed → possible",
            "2.0 touch 3 began held button-7 (held by a gesture recognizer)",
            "2.05 touch 3 recognizer cell-7: Tap#0 possible → failed (gestureRecognizerShouldBegin returned false)",
            "2.05 touch 3 recognizer table: contentTouchDelay possible → failed",
            "2.05 touch 3 recognizer table: pan possible → failed",
            "2.05 touch 3 began delivered button-7",
            "2.05 touch 3 controlEvent button-7: touchDown",
            "2.05 touch 3 ended delivered button-7",
            "2.05 touch 3 controlEvent button-7: touchUpInside|primaryActionTriggered",
            "2.05 touch 3 action button-7: action 1 (primaryActionTriggered)",
            "2.05 touch 3 recognizer cell-7: Tap#0 failed → possible",
            "2.05 touch 3 recognizer table: contentTouchDelay failed → possible",
            "2.05 touch 3 recognizer table: pan failed → possible",
        ])
    }
}
