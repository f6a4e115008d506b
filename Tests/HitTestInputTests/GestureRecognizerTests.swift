@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// SEMANTICS 9 G10–G17: who may begin, disabling, waiting for failure, and the built-in
/// recognizers' thresholds.
@Suite struct GestureRecognizerTests {
    // MARK: - G10 gestureRecognizerShouldBegin

    /// G10: leaving `.possible` asks the delegate, the recognizer's view and each touched
    /// view; any false fails the recognizer (no action) and the view keeps its touch.
    @Test(arguments: ["delegate", "own view", "touched view", "none"]) func g10ShouldBegin(_ who: String) {
        let rig = TraceRig()
        let tap = TapGestureRecognizer { [unowned rig] _ in rig.trace.lines.append("tap") }
        let delegate = TestDelegate()
        tap.delegate = delegate
        rig.outer.addGestureRecognizer(tap)
        var asked: [String] = []
        rig.outer.shouldBegin = { _ in
            asked.append("outer")
            return who != "own view"
        }
        rig.inner.shouldBegin = { _ in
            asked.append("inner")
            return who != "touched view"
        }
        delegate.shouldBegin = who != "delegate"
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.05, (1, .ended, 100, 100))
        if who == "none" {
            #expect(rig.take() == ["inner began [1]", "tap", "inner cancelled [1]"])
            #expect(asked == ["outer", "inner"])
        } else {
            #expect(rig.take() == ["inner began [1]", "inner ended [1]"])
            let failed = rig.app.deliveryLog.first { $0.kind == .recognizer }?.detail
            #expect(failed == "Tap#0 possible → failed (gestureRecognizerShouldBegin returned false)")
            #expect(asked == ["delegate": [], "own view": ["outer"], "touched view": ["outer", "inner"]][who])
        }
    }

    // MARK: - G11 isEnabled

    /// G11: a disabled recognizer gets no touches; disabling one that has begun cancels it (its
    /// action runs with `.cancelled`); enabling it again mid-touch gives it nothing of that touch.
    @Test func g11DisabledRecognizers() {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.inner)
        r.onMoved = { $0.state = $0.state == .possible ? .began : .changed }
        r.isEnabled = false
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .moved, 101, 100))
        rig.step(0.2, (1, .ended, 101, 100))
        #expect(rig.take() == ["inner began [1]", "inner moved [1]", "inner ended [1]"])

        r.isEnabled = true
        rig.step(1, (2, .began, 100, 100))
        rig.step(1.1, (2, .moved, 101, 100))
        #expect(rig.take() == ["R began [2]", "inner began [2]", "R moved [2]", "R action began", "inner cancelled [2]"])
        r.isEnabled = false
        #expect(r.state == .cancelled)
        #expect(rig.take() == ["R action cancelled"])
        r.isEnabled = true
        rig.step(1.2, (2, .moved, 102, 100))
        rig.step(1.3, (2, .ended, 102, 100))
        #expect(rig.take() == [])
        #expect(r.state == .possible)
    }

    /// G11: removing a recognizer that has begun cancels it; it sees nothing more.
    @Test func g11RemovedRecognizerIsCancelled() {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.inner)
        r.onMoved = { $0.state = $0.state == .possible ? .began : .changed }
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .moved, 101, 100))
        _ = rig.take()
        rig.inner.removeGestureRecognizer(r)
        #expect(r.view == nil)
        #expect(rig.inner.gestureRecognizers == nil)
        #expect(r.state == .cancelled)
        rig.step(0.2, (1, .moved, 102, 100))
        #expect(rig.take() == ["R action cancelled"])
    }

    // MARK: - G12 require(toFail:)

    /// G12: a single tap that requires a double tap's failure waits (still `.possible`, no
    /// action) and recognizes when the double tap's window closes; the held lift becomes a
    /// cancellation then.
    @Test func g12WaitsForFailureThenRecognizes() {
        let rig = GestureRig()
        var fired: [String] = []
        let single = TapGestureRecognizer { g in fired.append("single at \(g.currentTime!)") }
        let double = TapGestureRecognizer { _ in fired.append("double") }
        double.numberOfTapsRequired = 2
        single.require(toFail: double)
        rig.inner.addGestureRecognizer(single)
        rig.inner.addGestureRecognizer(double)
        rig.tap(at: 0)
        #expect(single.state == .possible)
        #expect(fired.isEmpty)
        rig.advance(1)
        #expect(fired == ["single at \(0.05 + 0.35)"])
        #expect(rig.lines(timed: true) == [
            "0.0 inner began 1", "0.05 held inner ended 1",
            "\(0.05 + 0.35) Tap#1 possible → failed", "\(0.05 + 0.35) Tap#0 possible → ended",
            "\(0.05 + 0.35) ignored inner ended 1", "\(0.05 + 0.35) action Tap#0 ended", "\(0.05 + 0.35) inner cancelled 1",
            "1.0 Tap#0 ended → possible", "1.0 Tap#1 failed → possible",
        ])
    }

    /// G12: when the required recognizer recognizes, the waiting one fails. By
    /// `require(toFail:)` or by either delegate method.
    @Test(arguments: ["require", "shouldRequireFailureOf", "shouldBeRequiredToFailBy"])
    func g12FailsWhenTheOtherRecognizes(_ how: String) {
        let rig = GestureRig()
        var fired: [String] = []
        let single = TapGestureRecognizer { _ in fired.append("single") }
        let double = TapGestureRecognizer { _ in fired.append("double") }
        double.numberOfTapsRequired = 2
        let delegate = TestDelegate()
        switch how {
        case "require": single.require(toFail: double)
        case "shouldRequireFailureOf":
            delegate.requireFailureOf = { $0 === double }
            single.delegate = delegate
        default:
            delegate.beRequiredToFailBy = { $0 === single }
            double.delegate = delegate
        }
        rig.inner.addGestureRecognizer(single)
        rig.inner.addGestureRecognizer(double)
        rig.tap(1, at: 0)
        rig.tap(2, at: 0.2)
        rig.advance(1)
        #expect(fired == ["double"])
        #expect(rig.lines(views: false) == [
            "Tap#1 possible → ended", "action Tap#1 ended", "Tap#0 possible → failed",
            "Tap#0 failed → possible", "Tap#1 ended → possible",
        ])
    }

    // MARK: - G13 tap

    /// G13: a finger moving more than `allowableMovement` (10 pt) fails a tap; exactly 10 pt
    /// does not.
    @Test(arguments: [(10.0, true), (10.5, false)]) func g13TapMovement(_ d: Double, _ recognized: Bool) {
        let rig = GestureRig()
        var fired = 0
        rig.inner.addGestureRecognizer(TapGestureRecognizer { _ in fired += 1 })
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.02, (1, .moved, 100 + d, 100))
        rig.step(0.04, (1, .ended, 100 + d, 100))
        #expect(fired == (recognized ? 1 : 0))
        #expect(rig.inner.received == (recognized ? ["began [1]", "moved [1]", "cancelled [1]"] : ["began [1]", "moved [1]", "ended [1]"]))
    }

    /// G13: more fingers than required fail it; a two-finger tap needs both fingers down
    /// together; its location is the centroid.
    @Test func g13TapFingers() {
        let rig = GestureRig()
        var fired: [Point] = []
        let one = TapGestureRecognizer()
        let two = TapGestureRecognizer { g in fired.append(g.location(in: rig.inner)) }
        two.numberOfTouchesRequired = 2
        rig.inner.addGestureRecognizer(one)
        rig.outer.addGestureRecognizer(two)
        rig.step(0, (1, .began, 100, 100), (2, .began, 120, 110))
        rig.step(0.05, (1, .ended, 100, 100), (2, .ended, 120, 110))
        #expect(fired == [Point(x: 60, y: 55)])
        #expect(rig.lines(views: false) == ["Tap#0 possible → failed", "Tap#0 possible → ended", "action Tap#0 ended", "Tap#0 failed → possible", "Tap#0 ended → possible"])
        // One finger after the other (never two down at once) is not a two-finger tap.
        rig.clear()
        rig.tap(3, at: 1)
        rig.tap(4, at: 1.1)
        rig.advance(2)
        #expect(fired.count == 1)
    }

    /// G13: the next tap must begin within 0.35 s of the last lift.
    @Test(arguments: [(0.3, true), (0.36, false)]) func g13TapInterval(_ gap: Double, _ recognized: Bool) {
        let rig = GestureRig()
        var fired = 0
        let double = TapGestureRecognizer { _ in fired += 1 }
        double.numberOfTapsRequired = 2
        rig.inner.addGestureRecognizer(double)
        rig.tap(1, at: 0)
        rig.tap(2, at: 0.05 + gap)
        rig.advance(2)
        #expect(fired == (recognized ? 1 : 0))
    }

    // MARK: - G14 long press

    /// G14: began when 0.5 s pass with the finger within 10 pt; changed on each later move
    /// (however far); ended at the lift.
    @Test func g14LongPressBeganChangedEnded() {
        let rig = GestureRig()
        var seen: [String] = []
        let press = LongPressGestureRecognizer { g in seen.append("\(g.state) \(g.currentTime!) \(g.location(in: nil))") }
        rig.inner.addGestureRecognizer(press)
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.3, (1, .moved, 108, 100))
        rig.advance(0.5)
        rig.step(0.6, (1, .moved, 200, 300))
        rig.step(0.7, (1, .ended, 200, 300))
        #expect(seen == [
            "began 0.5 (108.0, 100.0)", "changed 0.6 (200.0, 300.0)", "ended 0.7 (200.0, 300.0)",
        ])
        #expect(rig.inner.received == ["began [1]", "moved [1]", "cancelled [1]"])
    }

    /// G14: a lift or a move past `allowableMovement` before 0.5 s fails it.
    @Test(arguments: ["lift", "move"]) func g14LongPressFails(_ how: String) {
        let rig = GestureRig()
        var fired = 0
        let press = LongPressGestureRecognizer { _ in fired += 1 }
        rig.inner.addGestureRecognizer(press)
        rig.step(0, (1, .began, 100, 100))
        if how == "lift" {
            rig.step(0.4, (1, .ended, 100, 100))
        } else {
            rig.step(0.4, (1, .moved, 111, 100))
            rig.step(0.8, (1, .ended, 111, 100))
        }
        rig.advance(2)
        #expect(fired == 0)
        #expect(rig.lines(views: false).first == "LongPress#0 possible → failed")
    }

    // MARK: - G15 pan

    /// G15: began at the move that takes the centroid 10 pt from where it went down; the
    /// translation is measured from the touch-down; `setTranslation` rebases it; the velocity
    /// is the last step's displacement over its time.
    @Test func g15PanTranslationAndVelocity() {
        let rig = GestureRig()
        var seen: [String] = []
        let pan = PanGestureRecognizer { g in
            let p = g as! PanGestureRecognizer
            seen.append("\(g.state) \(p.translation(in: nil)) \(p.velocity(in: nil))")
        }
        rig.outer.addGestureRecognizer(pan)
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .moved, 106, 100))
        #expect(pan.state == .possible)
        rig.step(0.2, (1, .moved, 106, 108))
        #expect(pan.state == .began)
        pan.setTranslation(Point(x: 1, y: 1), in: nil)
        rig.step(0.25, (1, .moved, 116, 108))
        rig.step(0.26, (1, .ended, 116, 108))
        #expect(seen == [
            "began (6.0, 8.0) (0.0, 80.0)",
            "changed (11.0, 1.0) (\(10 / (0.25 - 0.2)), 0.0)",
            "ended (11.0, 1.0) (\(10 / (0.25 - 0.2)), 0.0)",
        ])
        // A lift after the finger rested: velocity zero.
        seen.removeAll()
        rig.step(1, (2, .began, 100, 100))
        rig.step(1.1, (2, .moved, 120, 100))
        rig.step(1.5, (2, .ended, 120, 100))
        #expect(seen.last == "ended (20.0, 0.0) (0.0, 0.0)")
    }

    /// G15: translation and velocity are in the asked view's coordinates (a scaled view sees
    /// them scaled).
    @Test func g15PanInAViewsCoordinates() {
        let rig = GestureRig()
        rig.inner.transform = AffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)
        let pan = PanGestureRecognizer()
        rig.outer.addGestureRecognizer(pan)
        rig.drag(at: 0, by: 20, 0, moves: 2, lift: false)
        #expect(pan.translation(in: rig.inner) == Point(x: 10, y: 0))
        #expect(pan.translation(in: rig.outer) == Point(x: 20, y: 0))
        pan.setTranslation(Point(x: 0, y: 0), in: rig.inner)
        #expect(pan.translation(in: nil) == Point(x: 0, y: 0))
    }

    /// G15: a lift before it began fails it; fewer than `minimumNumberOfTouches` fingers never
    /// begin it.
    @Test func g15PanFailsAndMinimumTouches() {
        let rig = GestureRig()
        let pan = PanGestureRecognizer()
        pan.minimumNumberOfTouches = 2
        rig.outer.addGestureRecognizer(pan)
        rig.drag(at: 0, by: 50, 0)
        #expect(rig.lines(views: false) == ["Pan#0 possible → failed", "Pan#0 failed → possible"])
        rig.clear()
        rig.step(1, (1, .began, 100, 100), (2, .began, 120, 100))
        rig.step(1.1, (1, .moved, 110, 100), (2, .moved, 130, 100))
        #expect(pan.state == .began)
        #expect(pan.numberOfTouches == 2)
        #expect(pan.location(in: nil) == Point(x: 120, y: 100))
        #expect(pan.location(ofTouch: 1, in: nil) == Point(x: 130, y: 100))
        // A finger lifting mid-drag does not make the translation jump.
        rig.step(1.2, (2, .ended, 130, 100))
        #expect(pan.translation(in: nil) == Point(x: 10, y: 0))
        rig.step(1.3, (1, .moved, 115, 100))
        #expect(pan.translation(in: nil) == Point(x: 15, y: 0))
        rig.step(1.4, (1, .ended, 115, 100))
        #expect(pan.state == .possible)
    }

    // MARK: - G16 swipe

    /// G16: decided at the lift: ≥ 50 pt along one axis, the other under half of it, within
    /// 0.5 s, in one of `direction`'s directions.
    @Test(arguments: [
        (60.0, 0.0, 0.2, true), (40.0, 0.0, 0.2, false), (60.0, 0.0, 0.6, false), (60.0, 31.0, 0.2, false),
        (-60.0, 0.0, 0.2, false), (0.0, 60.0, 0.2, true), (0.0, -60.0, 0.2, false),
    ])
    func g16Swipe(_ dx: Double, _ dy: Double, _ duration: Double, _ recognized: Bool) {
        let rig = GestureRig()
        var fired = 0
        let swipe = SwipeGestureRecognizer { _ in fired += 1 }
        swipe.direction = [.right, .down]
        rig.outer.addGestureRecognizer(swipe)
        rig.step(0, (1, .began, 100, 100))
        rig.step(duration / 2, (1, .moved, 100 + dx / 2, 100 + dy / 2))
        rig.step(duration, (1, .ended, 100 + dx, 100 + dy))
        #expect(fired == (recognized ? 1 : 0))
        #expect(rig.lines(views: false).first == (recognized ? "Swipe#0 possible → ended" : "Swipe#0 possible → failed"))
    }

    // MARK: - G17 pinch, rotation

    /// G17: scale = distance / distance when both were down; began at 5 % off 1.
    @Test func g17Pinch() {
        let rig = GestureRig()
        var seen: [String] = []
        let pinch = PinchGestureRecognizer { g in seen.append("\(g.state) \((g as! PinchGestureRecognizer).scale)") }
        rig.outer.addGestureRecognizer(pinch)
        rig.step(0, (1, .began, 100, 100), (2, .began, 200, 100))
        rig.step(0.1, (1, .moved, 98, 100))  // 102 / 100
        #expect(pinch.state == .possible)
        rig.step(0.2, (1, .moved, 94, 100))  // 106 / 100
        rig.step(0.3, (2, .moved, 244, 100))  // 150 / 100
        rig.step(0.4, (1, .ended, 94, 100))
        #expect(seen == ["began \(106.0 / 100)", "changed 1.5", "ended 1.5"])
        #expect(pinch.velocity == (1.5 - 1.06) / (0.3 - 0.2))
        rig.step(0.5, (2, .ended, 244, 100))
        #expect(pinch.scale == 1)
    }

    /// G17: rotation = the turn of the line between the fingers; began at 0.1 rad.
    @Test func g17Rotation() {
        let rig = GestureRig()
        var seen: [GestureRecognizer.State] = []
        let rotation = RotationGestureRecognizer { g in seen.append(g.state) }
        rig.outer.addGestureRecognizer(rotation)
        rig.step(0, (1, .began, 100, 100), (2, .began, 200, 100))
        rig.step(0.1, (2, .moved, 200, 105))  // atan(5/100) ≈ 0.05
        #expect(rotation.state == .possible)
        rig.step(0.2, (2, .moved, 200, 120))  // atan(0.2) ≈ 0.197
        #expect(rotation.state == .began)
        #expect(abs(rotation.rotation - 0.19739555984988078) < 1e-12)
        rig.step(0.3, (2, .moved, 100, 200))  // the line turned a quarter: π/2
        #expect(abs(rotation.rotation - Double.pi / 2) < 1e-12)
        rig.step(0.4, (1, .ended, 100, 100), (2, .ended, 100, 200))
        #expect(seen == [.began, .changed, .ended])
    }

    // MARK: - Attaching

    /// `gestureRecognizers` is nil when empty; adding to another view moves it; the setter
    /// replaces the list.
    @Test func attachingAndMoving() {
        let rig = GestureRig()
        let a = TapGestureRecognizer()
        let b = PanGestureRecognizer()
        #expect(rig.inner.gestureRecognizers == nil)
        rig.inner.addGestureRecognizer(a)
        rig.outer.addGestureRecognizer(a)
        #expect(rig.inner.gestureRecognizers == nil)
        #expect(a.view === rig.outer)
        rig.outer.gestureRecognizers = [b]
        #expect(a.view == nil)
        #expect(rig.outer.gestureRecognizers?.count == 1)
        #expect(b.debugName == "Pan#0")
    }
}
