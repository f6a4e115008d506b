@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// The README's gesture examples, run as written.
@Suite struct GestureReadmeTests {
    /// A custom recognizer: an edge swipe — one finger that goes down within 20 pt of the
    /// window's left edge and moves 100 pt to the right. Discrete: possible → ended | failed.
    final class EdgeSwipeGestureRecognizer: GestureRecognizer {
        private var start: Point?

        override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
            guard numberOfTouches == 1, let touch = touches.first else {
                state = .failed  // a second finger
                return
            }
            start = touch.location(in: nil)
            if start!.x > 20 { state = .failed }
        }

        override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
            guard let start, let touch = touches.first else { return }
            let p = touch.location(in: nil)
            if p.x < start.x - 10 { state = .failed }  // went back
            else if p.x - start.x >= 100 { state = .recognized }
        }

        override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
            if state == .possible { state = .failed }  // lifted too early
        }

        override func reset() {
            super.reset()
            start = nil
        }
    }

    @Test func customRecognizer() throws {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        app.addWindow(window)
        var backs = 0
        window.addGestureRecognizer(EdgeSwipeGestureRecognizer { _ in backs += 1 })
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,5,400
            0.05,1,moved,60,400
            0.10,1,moved,120,400
            0.15,1,ended,120,400
            1.00,2,began,200,400
            1.05,2,moved,320,400
            1.10,2,ended,320,400
            """)
        let log = app.replay(script)
        #expect(backs == 1)
        let states = log.filter { $0.kind == .recognizer }.map { $0.detail! }
        #expect(states == ["EdgeSwipe#0 possible → ended", "EdgeSwipe#0 ended → possible", "EdgeSwipe#0 possible → failed", "EdgeSwipe#0 failed → possible"])
    }

    /// A list cell with a tap and a long press, the list with a pan; a tap, a long press and a
    /// drag, with a script that ends by advancing the clock.
    @Test func replayWithRecognizers() throws {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.accessibilityIdentifier = "window"
        app.addWindow(window)
        let list = View(frame: Rect(x: 0, y: 100, width: 390, height: 600))
        list.accessibilityIdentifier = "list"
        let cell = View(frame: Rect(x: 0, y: 0, width: 390, height: 60))
        cell.accessibilityIdentifier = "cell"
        window.addSubview(list)
        list.addSubview(cell)
        var seen: [String] = []
        let tap = TapGestureRecognizer { _ in seen.append("tapped") }
        let press = LongPressGestureRecognizer { g in seen.append("press \(g.state)") }
        let pan = PanGestureRecognizer { g in
            seen.append("pan \(g.state) \((g as! PanGestureRecognizer).translation(in: list))")
        }
        cell.addGestureRecognizer(tap)
        cell.addGestureRecognizer(press)
        list.addGestureRecognizer(pan)
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,100,130
            0.08,1,ended,100,130
            1.00,2,began,100,130
            1.70,2,ended,100,130
            3.00,3,began,100,130
            3.02,3,moved,100,150
            3.04,3,moved,100,190
            3.06,3,ended,100,190
            3.50,advance
            """)
        app.isLoggingDeliveries = true
        let log = app.replay(script).filter { $0.kind != .forwarded && $0.kind != .dropped }
        let lines = log.map(\.description)
        #expect(lines == GestureReadmeTests.expectedLog)
        #expect(seen == [
            "tapped", "press began", "press ended", "pan began (0.0, 20.0)", "pan changed (0.0, 60.0)", "pan ended (0.0, 60.0)",
        ])
    }

    static let expectedLog: [String] = [
        "0.0 touch 1 began delivered cell",
        "0.08 touch 1 recognizer cell: Tap#0 possible → ended",
        "0.08 touch 1 action cell: Tap#0 ended",
        "0.08 touch 1 recognizer cell: LongPress#1 possible → failed",
        "0.08 touch 1 recognizer list: Pan#0 possible → failed",
        "0.08 touch 1 ended ignored cell (Tap#0 recognized)",
        "0.08 touch 1 cancelled delivered cell",
        "0.08 touch 1 recognizer cell: Tap#0 ended → possible",
        "0.08 touch 1 recognizer cell: LongPress#1 failed → possible",
        "0.08 touch 1 recognizer list: Pan#0 failed → possible",
        "1.0 touch 2 began delivered cell",
        "1.5 touch 2 recognizer cell: LongPress#1 possible → began",
        "1.5 touch 2 action cell: LongPress#1 began",
        "1.5 touch 2 recognizer cell: Tap#0 possible → failed",
        "1.5 touch 2 recognizer list: Pan#0 possible → failed",
        "1.5 touch 2 cancelled delivered cell",
        "1.7 touch 2 recognizer cell: LongPress#1 began → ended",
        "1.7 touch 2 action cell: LongPress#1 ended",
        "1.7 touch 2 ended ignored cell (LongPress#1 recognized)",
        "1.7 touch 2 recognizer cell: Tap#0 failed → possible",
        "1.7 touch 2 recognizer cell: LongPress#1 ended → possible",
        "1.7 touch 2 recognizer list: Pan#0 failed → possible",
        "3.0 touch 3 began delivered cell",
        "3.02 touch 3 recognizer cell: Tap#0 possible → failed",
        "3.02 touch 3 recognizer cell: LongPress#1 possible → failed",
        "3.02 touch 3 recognizer list: Pan#0 possible → began",
        "3.02 touch 3 action list: Pan#0 began",
        "3.02 touch 3 moved ignored cell (Pan#0 recognized)",
        "3.02 touch 3 cancelled delivered cell",
        "3.04 touch 3 recognizer list: Pan#0 began → changed",
        "3.04 touch 3 action list: Pan#0 changed",
        "3.04 touch 3 moved ignored cell (Pan#0 recognized)",
        "3.06 touch 3 recognizer list: Pan#0 changed → ended",
        "3.06 touch 3 action list: Pan#0 ended",
        "3.06 touch 3 ended ignored cell (Pan#0 recognized)",
        "3.06 touch 3 recognizer cell: Tap#0 failed → possible",
        "3.06 touch 3 recognizer cell: LongPress#1 failed → possible",
        "3.06 touch 3 recognizer list: Pan#0 ended → possible",
    ]
}
