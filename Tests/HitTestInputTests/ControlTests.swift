@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import Testing

/// Controls (SEMANTICS 9 C1–C4, C6; C5 is in ControlGestureTests): tracking, control events
/// in UIKit's order, the 70 pt tracking rect, actions, disabled controls, the log.
@Suite struct ControlTests {
    /// A window 320 × 480 with a button at (100, 100, 80, 40) inside a container view.
    struct Screen {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let container = TracingContainer(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let button = Button(frame: Rect(x: 100, y: 100, width: 80, height: 40))
        /// Every action call: the events it was given, by action name.
        let calls = CallLog()

        init() {
            app.addWindow(window)
            window.addSubview(container)
            container.addSubview(button)
            button.accessibilityIdentifier = "button"
            container.accessibilityIdentifier = "container"
        }

        func step(_ id: Int, _ phase: Touch.Phase, _ x: Double, _ y: Double, _ t: Double) {
            app.injectTouches([TouchChange(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t)])
        }

        /// The control events logged, in order.
        var controlEvents: [String] {
            app.deliveryLog.filter { $0.kind == .controlEvent }.map { $0.detail ?? "" }
        }
    }

    final class CallLog {
        var lines: [String] = []
    }

    /// A view that records the phases its default methods forward through it.
    final class TracingContainer: View {
        var phases: [String] = []
        override func touchesBegan(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("began"); super.touchesBegan(t, with: e) }
        override func touchesMoved(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("moved"); super.touchesMoved(t, with: e) }
        override func touchesEnded(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("ended"); super.touchesEnded(t, with: e) }
        override func touchesCancelled(_ t: Set<Touch>, with e: HitTestKit.Event?) { phases.append("cancelled"); super.touchesCancelled(t, with: e) }
    }

    // MARK: - C1: a tap, the states on the way

    @Test func c1TapSendsTouchDownThenTouchUpInsideAndTracksMeanwhile() {
        let s = Screen()
        var states: [String] = []
        s.button.addAction(for: .allEvents) { control, events in
            states.append("\(events) tracking=\(control.isTracking) highlighted=\(control.isHighlighted) inside=\(control.isTouchInside)")
        }
        s.step(1, .began, 120, 110, 0)
        #expect(s.button.isTracking && s.button.isHighlighted && s.button.isTouchInside)
        s.step(1, .ended, 120, 110, 0.1)
        #expect(!s.button.isTracking && !s.button.isHighlighted && !s.button.isTouchInside)
        #expect(states == [
            "touchDown tracking=true highlighted=true inside=true",
            "touchUpInside|primaryActionTriggered tracking=true highlighted=true inside=true",
        ])
        #expect(s.controlEvents == ["touchDown", "touchUpInside|primaryActionTriggered"])
        // The control keeps its touches: nothing reaches the container.
        #expect(s.container.phases.isEmpty)
    }

    @Test func c1DragOutAndBackSendsExitAndEnterInUIKitOrder() {
        let s = Screen()
        // Button bounds (0,0,80,40) in its own space; the tracking rect is (-70,-70,220,180),
        // i.e. screen x in [30, 250), y in [30, 210).
        s.step(1, .began, 120, 110, 0)
        s.step(1, .moved, 130, 115, 0.1)      // inside
        s.step(1, .moved, 249, 209, 0.2)      // still inside (half-open edge)
        s.step(1, .moved, 250, 120, 0.3)      // outside: exit
        #expect(!s.button.isHighlighted && !s.button.isTouchInside && s.button.isTracking)
        s.step(1, .moved, 260, 120, 0.4)      // outside
        s.step(1, .moved, 240, 120, 0.5)      // inside again: enter
        #expect(s.button.isHighlighted && s.button.isTouchInside)
        s.step(1, .moved, 20, 120, 0.6)       // outside: exit
        s.step(1, .ended, 20, 120, 0.7)       // up outside
        #expect(s.controlEvents == [
            "touchDown",
            "touchDragInside", "touchDragInside",
            "touchDragOutside|touchDragExit", "touchDragOutside",
            "touchDragInside|touchDragEnter",
            "touchDragOutside|touchDragExit",
            "touchUpOutside",
        ])
    }

    @Test func c1CancelSendsTouchCancelAndEndsTracking() {
        let s = Screen()
        s.step(1, .began, 120, 110, 0)
        s.step(1, .cancelled, 120, 110, 0.1)
        #expect(s.controlEvents == ["touchDown", "touchCancel"])
        #expect(!s.button.isTracking && !s.button.isHighlighted && !s.button.isTouchInside)
    }

    @Test func c1SecondTapOfADoubleTapAddsTouchDownRepeat() {
        let s = Screen()
        s.step(1, .began, 120, 110, 0)
        s.step(1, .ended, 120, 110, 0.05)
        s.step(2, .began, 121, 111, 0.2)
        s.step(2, .ended, 121, 111, 0.25)
        #expect(s.controlEvents == [
            "touchDown", "touchUpInside|primaryActionTriggered",
            "touchDown|touchDownRepeat", "touchUpInside|primaryActionTriggered",
        ])
    }

    @Test func c1PlainControlSendsTouchUpInsideWithoutPrimaryAction() {
        let s = Screen()
        let control = Control(frame: Rect(x: 0, y: 300, width: 50, height: 50))
        s.container.addSubview(control)
        s.step(1, .began, 10, 310, 0)
        s.step(1, .ended, 10, 310, 0.1)
        #expect(s.controlEvents == ["touchDown", "touchUpInside"])
    }

    /// The override points run in UIKit's order; `continueTracking` returning false stops the
    /// events of that touch (Chameleon).
    @Test func c1TrackingOverridesRunInOrderAndCanStopTracking() {
        final class Tracked: Control {
            var calls: [String] = []
            var moves = 0
            override func beginTracking(_ touch: Touch, with event: HitTestKit.Event?) -> Bool { calls.append("begin"); return true }
            override func continueTracking(_ touch: Touch, with event: HitTestKit.Event?) -> Bool {
                moves += 1
                calls.append("continue")
                return moves < 2
            }
            override func endTracking(_ touch: Touch?, with event: HitTestKit.Event?) { calls.append("end") }
            override func cancelTracking(with event: HitTestKit.Event?) { calls.append("cancel") }
        }
        let s = Screen()
        let c = Tracked(frame: Rect(x: 0, y: 300, width: 50, height: 50))
        s.container.addSubview(c)
        c.addAction(for: .allEvents) { _, e in c.calls.append("\(e)") }
        s.step(1, .began, 10, 310, 0)
        s.step(1, .moved, 12, 310, 0.1)
        s.step(1, .moved, 14, 310, 0.2)   // continueTracking says no: tracking stops here
        #expect(!c.isTracking && c.isHighlighted)
        s.step(1, .moved, 16, 310, 0.3)
        s.step(1, .ended, 16, 310, 0.4)
        #expect(c.calls == ["begin", "touchDown", "continue", "touchDragInside", "continue"])

        let d = Tracked(frame: Rect(x: 100, y: 300, width: 50, height: 50))
        s.container.addSubview(d)
        s.step(2, .began, 110, 310, 1)
        s.step(2, .ended, 110, 310, 1.1)
        s.step(3, .began, 110, 310, 2)
        s.step(3, .cancelled, 110, 310, 2.1)
        #expect(d.calls == ["begin", "end", "begin", "cancel"])
    }

    // MARK: - C2: the tracking rect

    @Test func c2TrackingRectIsBoundsGrownBy70Points() {
        #expect(Control.trackingMargin == 70)
        let s = Screen()
        // A lift 69.5 pt below the button is inside; 70 pt below is outside (half-open).
        s.step(1, .began, 120, 110, 0)
        s.step(1, .ended, 120, 140 + 69.5, 0.1)
        s.step(2, .began, 120, 110, 1)
        s.step(2, .ended, 120, 140 + 70, 1.1)
        s.step(3, .began, 120, 110, 2)
        s.step(3, .ended, 100 - 70, 100 - 70, 2.1)     // top-left corner of the grown rect: inside
        s.step(4, .began, 120, 110, 3)
        s.step(4, .ended, 100 - 70.001, 110, 3.1)      // just left of it: outside
        #expect(s.controlEvents == [
            "touchDown", "touchUpInside|primaryActionTriggered",
            "touchDown", "touchUpOutside",
            "touchDown", "touchUpInside|primaryActionTriggered",
            "touchDown", "touchUpOutside",
        ])
    }

    @Test func c2TrackingRectFollowsAScaledControl() {
        let s = Screen()
        s.button.transform = AffineTransform(scaleX: 2, y: 2)   // 160 × 80 on screen around (140, 120)
        // 70 pt in the button's space is 140 pt on screen: the rect spans screen x [-80, 360).
        s.step(1, .began, 140, 120, 0)
        s.step(1, .ended, 140 + 80 + 139, 120, 0.1)
        s.step(2, .began, 140, 120, 1)
        s.step(2, .ended, 140 + 80 + 141, 120, 1.1)
        #expect(s.controlEvents == ["touchDown", "touchUpInside|primaryActionTriggered", "touchDown", "touchUpOutside"])
    }

    // MARK: - C3: primary action

    @Test func c3ButtonSendsPrimaryActionTriggeredWithTouchUpInsideOnly() {
        let s = Screen()
        s.button.addAction(for: .primaryActionTriggered) { _, e in s.calls.lines.append("primary \(e)") }
        s.button.addAction(for: .touchUpInside) { _, e in s.calls.lines.append("up \(e)") }
        s.step(1, .began, 120, 110, 0)
        s.step(1, .ended, 120, 110, 0.1)
        s.step(2, .began, 120, 110, 1)
        s.step(2, .ended, 300, 400, 1.1)     // up outside: no primary action
        #expect(s.calls.lines == ["primary primaryActionTriggered", "up touchUpInside"])
    }

    // MARK: - C4: disabled controls

    @Test func c4DisabledControlSendsNothingAndPassesTouchesOn() {
        let s = Screen()
        s.button.addAction(for: .allEvents) { _, e in s.calls.lines.append("\(e)") }
        s.button.isEnabled = false
        s.step(1, .began, 120, 110, 0)
        // Still hit [ours]: the touch's view is the button.
        #expect(s.app.deliveryLog.contains { $0.kind == .delivered && $0.isAbout(s.button) && $0.phase == .began })
        #expect(!s.button.isTracking && !s.button.isHighlighted)
        s.step(1, .moved, 130, 110, 0.1)
        s.step(1, .ended, 130, 110, 0.2)
        #expect(s.calls.lines.isEmpty && s.controlEvents.isEmpty)
        // Its touch methods forward to the next responder, as a plain view's [ours].
        #expect(s.container.phases == ["began", "moved", "ended"])
    }

    @Test func c4DisablingWhileTrackingEndsTrackingSilently() {
        let s = Screen()
        s.step(1, .began, 120, 110, 0)
        s.button.isEnabled = false
        #expect(!s.button.isTracking && !s.button.isHighlighted)
        s.step(1, .ended, 120, 110, 0.1)
        #expect(s.controlEvents == ["touchDown"])
        s.button.isEnabled = true
        s.step(2, .began, 120, 110, 1)
        s.step(2, .ended, 120, 110, 1.1)
        #expect(s.controlEvents == ["touchDown", "touchDown", "touchUpInside|primaryActionTriggered"])
    }

    // MARK: - C6: sendActions

    @Test func c6SendActionsRunsMatchingActionsInRegistrationOrderWithTheIntersection() {
        let s = Screen()
        let c = s.button
        c.addAction(for: .valueChanged) { _, e in s.calls.lines.append("a \(e)") }
        c.addAction(for: [.touchDown, .valueChanged]) { _, e in s.calls.lines.append("b \(e)") }
        c.addAction(for: .touchUpInside) { _, e in s.calls.lines.append("c \(e)") }
        c.addAction(for: .allEvents) { _, e in s.calls.lines.append("d \(e)") }
        c.sendActions(for: [.valueChanged, .touchDown])
        #expect(s.calls.lines == ["a valueChanged", "b touchDown|valueChanged", "d touchDown|valueChanged"])
        s.calls.lines.removeAll()
        c.sendActions(for: .touchCancel)
        #expect(s.calls.lines == ["d touchCancel"])
        #expect(c.allControlEvents == .allEvents)
        // The log: one control-event entry per send, then one action entry per action run.
        let log = s.app.deliveryLog.map(\.description)
        #expect(log == [
            "0.0 controlEvent button: touchDown|valueChanged",
            "0.0 action button: action 1 (valueChanged)",
            "0.0 action button: action 2 (touchDown|valueChanged)",
            "0.0 action button: action 4 (touchDown|valueChanged)",
            "0.0 controlEvent button: touchCancel",
            "0.0 action button: action 4 (touchCancel)",
        ])
    }

    @Test func c6ActionsRegisteredDuringASendRunFromTheNextSend() {
        let s = Screen()
        s.button.addAction(for: .valueChanged) { control, _ in
            s.calls.lines.append("first")
            control.addAction(for: .valueChanged) { _, _ in s.calls.lines.append("added") }
        }
        s.button.sendActions(for: .valueChanged)
        #expect(s.calls.lines == ["first"])
        s.button.sendActions(for: .valueChanged)
        #expect(s.calls.lines == ["first", "first", "added"])
        s.button.removeActions(for: .valueChanged)
        s.button.sendActions(for: .valueChanged)
        #expect(s.calls.lines.count == 3)
    }

    @Test func eventDescriptionsListNamesInUIKitOrder() {
        #expect(Control.Event([.touchUpInside, .touchDown]).description == "touchDown|touchUpInside")
        #expect(Control.Event.allTouchEvents.description.hasPrefix("touchDown|touchDownRepeat|"))
        #expect(Control.Event(rawValue: 1 << 20).description == "0x100000")
        #expect(Control.Event().description == "[]")
    }

    // MARK: - The log of a tap

    @Test func tapOnButtonLogsDeliveriesControlEventsAndActions() {
        let s = Screen()
        s.button.addAction(for: .primaryActionTriggered) { _, _ in }
        s.step(7, .began, 120, 110, 0)
        s.step(7, .ended, 120, 110, 0.1)
        #expect(s.app.deliveryLog.map(\.description) == [
            "0.0 touch 7 began delivered button",
            "0.0 touch 7 controlEvent button: touchDown",
            "0.1 touch 7 ended delivered button",
            "0.1 touch 7 controlEvent button: touchUpInside|primaryActionTriggered",
            "0.1 touch 7 action button: action 1 (primaryActionTriggered)",
        ])
    }

    @Test func controlTracksOnlyItsFirstTouch() {
        let s = Screen()
        s.button.isMultipleTouchEnabled = true
        s.app.injectTouches([
            TouchChange(id: 1, phase: .began, location: Point(x: 110, y: 110), timestamp: 0),
            TouchChange(id: 2, phase: .began, location: Point(x: 150, y: 110), timestamp: 0),
        ])
        s.step(2, .ended, 150, 110, 0.1)
        #expect(s.button.isTracking)
        s.step(1, .ended, 110, 110, 0.2)
        #expect(s.controlEvents == ["touchDown", "touchUpInside|primaryActionTriggered"])
    }
}
