@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// SEMANTICS 9 G1–G12: time, which recognizers see a touch and when, the state machine,
/// resets, what the views get, and the arbitration between recognizers.
@Suite struct GestureArbitrationTests {
    // MARK: - G1 time

    /// G1: an input step at t first runs the deadlines ≤ t (a long press's), then the step;
    /// `advanceTime` runs the deadlines up to its argument, each at its own time.
    @Test func g01DeadlinesRunBeforeTheStepAndOnAdvance() {
        let rig = TraceRig()
        let press = LongPressGestureRecognizer()
        press.addAction { [unowned rig] g in rig.trace.lines.append("press \(g.state) at \(rig.app.currentTime)") }
        rig.inner.addGestureRecognizer(press)
        rig.step(0, (1, .began, 100, 100))
        #expect(rig.take() == ["inner began [1]"])
        rig.step(0.6, (1, .moved, 104, 100))
        #expect(rig.take() == ["press began at 0.5", "inner cancelled [1]", "press changed at 0.6"])
        rig.step(0.7, (1, .ended, 104, 100))
        #expect(rig.take() == ["press ended at 0.7"])

        rig.step(1, (2, .began, 100, 100))
        rig.app.advanceTime(to: 1.2)
        #expect(press.state == .possible)
        rig.app.advanceTime(to: 3)
        #expect(rig.app.currentTime == 3)
        #expect(rig.take() == ["inner began [2]", "press began at 1.5", "inner cancelled [2]"])
        #expect(press.state == .began)
    }

    // MARK: - G2, G3 who sees a touch, and first

    /// G2: the enabled recognizers of the hit view and each ancestor, the hit view's first, in
    /// array order, less those whose delegate declines; fixed for the touch's life; none
    /// elsewhere. G3: they get each phase before the view.
    @Test func g02RecognizersOfTheHitViewAndAncestorsFixedAtBegan() {
        let rig = TraceRig()
        let a = rig.recognizer("A", on: rig.inner)
        _ = rig.recognizer("B", on: rig.inner)
        _ = rig.recognizer("C", on: rig.outer)
        _ = rig.recognizer("D", on: rig.side)
        let e = rig.recognizer("E", on: rig.inner)
        e.isEnabled = false
        let f = rig.recognizer("F", on: rig.outer)
        let declines = TestDelegate()
        declines.receive = { _ in false }
        f.delegate = declines
        _ = rig.recognizer("W", on: rig.window)

        rig.step(0, (1, .began, 100, 100))
        #expect(rig.take() == ["A began [1]", "B began [1]", "C began [1]", "W began [1]", "inner began [1]"])
        // Changes after the touch began do not change who sees it.
        e.isEnabled = true
        declines.receive = { _ in true }
        _ = rig.recognizer("G", on: rig.inner)
        rig.inner.removeGestureRecognizer(a)
        rig.step(0.1, (1, .moved, 101, 100))
        #expect(rig.take() == ["B moved [1]", "C moved [1]", "W moved [1]", "inner moved [1]"])
        rig.step(0.2, (1, .ended, 101, 100))
        #expect(rig.take() == ["B ended [1]", "C ended [1]", "W ended [1]", "inner ended [1]"])
        // The next touch sees the new set.
        rig.step(0.3, (2, .began, 100, 100))
        #expect(rig.take() == ["B began [2]", "E began [2]", "G began [2]", "C began [2]", "F began [2]", "W began [2]", "inner began [2]"])
    }

    /// G3: in one step, the recognizers get every phase (began, then moved) before any view.
    @Test func g03RecognizersGetTheStepBeforeAnyView() {
        let rig = TraceRig()
        _ = rig.recognizer("A", on: rig.outer)
        rig.step(0, (1, .began, 100, 100))
        _ = rig.take()
        rig.step(0.1, (1, .moved, 102, 100), (2, .began, 240, 90))
        #expect(rig.take() == ["A began [2]", "A moved [1]", "side began [2]", "inner moved [1]"])
        rig.step(0.2, (1, .ended, 102, 100), (2, .ended, 240, 90))
        #expect(rig.take() == ["A ended [1, 2]", "inner ended [1]", "side ended [2]"])
    }

    // MARK: - G4 the state machine

    /// G4: legal transitions only (an illegal one is ignored and logged); actions on began,
    /// changed, ended, cancelled, never on failed.
    @Test func g04LegalTransitionsAndActions() {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.inner)
        var moves = 0
        r.onBegan = { $0.state = .changed }  // illegal from possible
        r.onMoved = { g in
            moves += 1
            g.state = moves == 1 ? .began : .changed
        }
        r.onEnded = { $0.state = .ended }
        rig.step(0, (1, .began, 100, 100))
        #expect(r.state == .possible)
        rig.step(0.1, (1, .moved, 101, 100))
        rig.step(0.2, (1, .moved, 102, 100))
        rig.step(0.3, (1, .ended, 102, 100))
        #expect(rig.take() == [
            "R began [1]", "inner began [1]",
            "R moved [1]", "R action began", "inner cancelled [1]",
            "R moved [1]", "R action changed",
            "R ended [1]", "R action ended",
        ])
        let states = rig.app.deliveryLog.filter { $0.kind == .recognizer }.map { $0.detail! }
        #expect(states == [
            "R possible → changed ignored: not a legal transition", "R possible → began", "R began → changed",
            "R changed → ended", "R ended → possible",
        ])
        // Failing runs no action; a failed recognizer cannot be made to begin.
        r.onBegan = { g in
            g.state = .failed
            g.state = .began
        }
        rig.step(1, (2, .began, 100, 100))
        rig.step(1.1, (2, .ended, 100, 100))
        #expect(rig.take() == ["R began [2]", "inner began [2]", "inner ended [2]"])
        #expect(GestureRecognizer.State.possible.canTransition(to: .cancelled) == false)
        #expect(GestureRecognizer.State.recognized == .ended)
    }

    // MARK: - G5 reset

    /// G5: a finished recognizer whose touches have all ended is back to `.possible` (its
    /// `reset()` run once) when the step returns; one still possible with no touch down keeps
    /// its state; a failed one with a touch still down stays failed until it lifts.
    @Test func g05ResetWhenTouchesHaveEnded() {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.inner)
        r.onEnded = { $0.state = .recognized }
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .ended, 100, 100))
        #expect(r.state == .possible)
        #expect(r.resets == 1)

        // Still possible, no touch down: nothing happens.
        r.onEnded = { _ in }
        rig.step(1, (2, .began, 100, 100))
        rig.step(1.1, (2, .ended, 100, 100))
        #expect(r.state == .possible)
        #expect(r.resets == 1)

        // Fails with a touch still down: failed until the last one lifts.
        r.onEnded = { $0.state = .failed }
        rig.step(2, (3, .began, 100, 100), (4, .began, 110, 100))
        rig.step(2.1, (3, .ended, 100, 100))
        #expect(r.state == .failed)
        #expect(r.resets == 1)
        rig.step(2.2, (4, .ended, 110, 100))
        #expect(r.state == .possible)
        #expect(r.resets == 2)
    }

    // MARK: - G6 cancelsTouchesInView

    /// G6: on recognition the view gets one `touchesCancelled` for each touch it began and
    /// nothing more of it; with `cancelsTouchesInView` false it gets every phase.
    @Test(arguments: [true, false]) func g06CancelsTouchesInView(_ cancels: Bool) {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.outer)
        r.cancelsTouchesInView = cancels
        r.onMoved = { $0.state = $0.state == .possible ? .began : .changed }
        r.onEnded = { $0.state = .ended }
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .moved, 101, 100))
        rig.step(0.2, (1, .moved, 102, 100))
        rig.step(0.3, (1, .ended, 102, 100))
        if cancels {
            #expect(rig.take() == [
                "R began [1]", "inner began [1]",
                "R moved [1]", "R action began", "inner cancelled [1]",
                "R moved [1]", "R action changed",
                "R ended [1]", "R action ended",
            ])
            #expect(rig.app.deliveryLog.contains { $0.kind == .ignored && $0.phase == .moved && $0.reason == "R recognized" })
        } else {
            #expect(rig.take() == [
                "R began [1]", "inner began [1]",
                "R moved [1]", "R action began", "inner moved [1]",
                "R moved [1]", "R action changed", "inner moved [1]",
                "R ended [1]", "R action ended", "inner ended [1]",
            ])
        }
    }

    /// G6: a touch the view has not begun (held by `delaysTouchesBegan`) is dropped: the view
    /// gets nothing at all. A touch that begins while the recognizer has begun is its too.
    @Test func g06TouchesNotBegunAreDropped() {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.outer)
        r.delaysTouchesBegan = true
        r.onMoved = { $0.state = $0.state == .possible ? .began : .changed }
        r.onEnded = { g in if g.numberOfTouches == 1 { g.state = .ended } }
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .moved, 101, 100))
        rig.step(0.2, (2, .began, 240, 90))
        rig.step(0.3, (2, .ended, 240, 90))
        rig.step(0.4, (1, .ended, 101, 100))
        #expect(rig.take() == [
            "R began [1]", "R moved [1]", "R action began",
            "R began [2]", "R ended [2]", "R ended [1]", "R action ended",
        ])
    }

    // MARK: - G7 delaysTouchesBegan

    /// G7: while a recognizer with `delaysTouchesBegan` may recognize, the view gets nothing;
    /// when it fails, the held phases go out in order, then the sequence goes on.
    @Test func g07DelaysTouchesBeganUntilFailure() {
        let rig = TraceRig()
        let r = rig.recognizer("R", on: rig.outer)
        r.delaysTouchesBegan = true
        var moves = 0
        r.onMoved = { g in
            moves += 1
            if moves == 2 { g.state = .failed }
        }
        rig.step(0, (1, .began, 100, 100))
        #expect(rig.take() == ["R began [1]"])
        rig.step(0.1, (1, .moved, 101, 100))
        #expect(rig.take() == ["R moved [1]"])
        rig.step(0.2, (1, .moved, 102, 100))
        #expect(rig.take() == ["R moved [1]", "inner began [1]", "inner moved [1]", "inner moved [1]"])
        rig.step(0.3, (1, .ended, 102, 100))
        #expect(rig.take() == ["inner ended [1]"])
        let held = rig.app.deliveryLog.filter { $0.kind == .held }.map { "\($0.timestamp) \($0.phase!)" }
        #expect(held == ["0.0 began", "0.1 moved"])
    }

    // MARK: - G8 delaysTouchesEnded

    /// G8: a double-tap recognizer holds the first tap's `ended` while it may still recognize:
    /// its failure (the tap window closing, at 0.05 + 0.35) delivers it then.
    @Test func g08DelaysTouchesEndedUntilFailure() {
        let rig = GestureRig()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        rig.inner.addGestureRecognizer(double)
        rig.tap(at: 0)
        rig.advance(1)
        #expect(rig.lines(timed: true) == [
            "0.0 inner began 1", "0.05 held inner ended 1",
            "\(0.05 + 0.35) Tap#0 possible → failed", "\(0.05 + 0.35) inner ended 1", "1.0 Tap#0 failed → possible",
        ])
    }

    /// G8: recognition turns the held `ended` into `touchesCancelled`; with `delaysTouchesEnded`
    /// false the `ended` goes out at once.
    @Test(arguments: [true, false]) func g08RecognitionCancelsTheHeldEnd(_ delays: Bool) {
        let rig = GestureRig()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        double.delaysTouchesEnded = delays
        rig.inner.addGestureRecognizer(double)
        rig.tap(1, at: 0)
        rig.tap(2, at: 0.2)
        if delays {
            #expect(rig.lines(timed: true) == [
                "0.0 inner began 1", "0.05 held inner ended 1",
                "0.2 inner began 2",
                "0.25 Tap#0 possible → ended", "0.25 ignored inner ended 1", "0.25 ignored inner ended 2",
                "0.25 inner cancelled 2", "0.25 inner cancelled 1", "0.25 Tap#0 ended → possible",
            ])
        } else {
            #expect(rig.lines(timed: true) == [
                "0.0 inner began 1", "0.05 inner ended 1",
                "0.2 inner began 2",
                "0.25 Tap#0 possible → ended", "0.25 ignored inner ended 2", "0.25 inner cancelled 2",
                "0.25 Tap#0 ended → possible",
            ])
        }
        #expect(rig.inner.received.last == "cancelled [\(delays ? 1 : 2)]")
    }

    // MARK: - G9 prevention

    /// G9: two pans on one touch: the deepest recognizes and the other fails, in the same step.
    @Test func g09DeepestRecognizerWinsTheStep() {
        let rig = GestureRig()
        let innerPan = PanGestureRecognizer()
        innerPan.name = "innerPan"
        let outerPan = PanGestureRecognizer()
        outerPan.name = "outerPan"
        rig.outer.addGestureRecognizer(outerPan)
        rig.inner.addGestureRecognizer(innerPan)
        rig.drag(at: 0, by: 20, 0, moves: 2)
        #expect(rig.lines(views: false) == [
            "innerPan possible → began", "outerPan possible → failed", "innerPan began → changed",
            "innerPan changed → ended", "innerPan ended → possible", "outerPan failed → possible",
        ])
    }

    /// G9: with either delegate's `shouldRecognizeSimultaneouslyWith` true, or recognizers that
    /// cannot prevent each other (`canPrevent` false), both recognize.
    @Test(arguments: ["delegate", "canPrevent"]) func g09SimultaneousRecognition(_ how: String) {
        let rig = GestureRig()
        let innerPan: PanGestureRecognizer = how == "delegate" ? PanGestureRecognizer() : NonPreventingPan()
        innerPan.name = "innerPan"
        let outerPan: PanGestureRecognizer = how == "delegate" ? PanGestureRecognizer() : NonPreventingPan()
        outerPan.name = "outerPan"
        let delegate = TestDelegate()
        delegate.simultaneous = true
        if how == "delegate" { outerPan.delegate = delegate }
        rig.outer.addGestureRecognizer(outerPan)
        rig.inner.addGestureRecognizer(innerPan)
        rig.drag(at: 0, by: 20, 0, moves: 2)
        #expect(rig.lines(views: false) == [
            "innerPan possible → began", "outerPan possible → began",
            "innerPan began → changed", "outerPan began → changed",
            "innerPan changed → ended", "outerPan changed → ended",
            "innerPan ended → possible", "outerPan ended → possible",
        ])
    }

    final class NonPreventingPan: PanGestureRecognizer {
        override func canPrevent(_ other: GestureRecognizer) -> Bool { false }
    }

    /// G9: a single tap never prevents a double tap: on a double tap both fire (the single one
    /// at each lift).
    @Test func g09TapNeverPreventsAHigherTapCount() {
        let rig = GestureRig()
        var fired: [String] = []
        let single = TapGestureRecognizer { _ in fired.append("single") }
        let double = TapGestureRecognizer { _ in fired.append("double") }
        double.numberOfTapsRequired = 2
        rig.inner.addGestureRecognizer(single)
        rig.inner.addGestureRecognizer(double)
        rig.tap(1, at: 0)
        rig.tap(2, at: 0.2)
        #expect(fired == ["single", "single", "double"])
        #expect(rig.lines(views: false) == [
            "Tap#0 possible → ended", "action Tap#0 ended", "Tap#0 ended → possible",
            "Tap#0 possible → ended", "action Tap#0 ended", "Tap#1 possible → ended", "action Tap#1 ended",
            "Tap#1 ended → possible", "Tap#0 ended → possible",
        ])
    }

    /// G9: a recognizer that has begun (and cannot prevent the newcomer) is cancelled when
    /// another sharing its touch recognizes.
    @Test func g09BeganRecognizerIsCancelled() {
        let rig = TraceRig()
        let first = rig.recognizer("First", on: rig.outer)
        first.preventsOthers = false
        let second = rig.recognizer("Second", on: rig.inner)
        first.onMoved = { $0.state = $0.state == .possible ? .began : .changed }
        var moves = 0
        second.onMoved = { g in
            moves += 1
            if moves == 2 { g.state = .began }
        }
        rig.step(0, (1, .began, 100, 100))
        rig.step(0.1, (1, .moved, 101, 100))
        #expect(rig.take() == [
            "Second began [1]", "First began [1]", "inner began [1]",
            "Second moved [1]", "First moved [1]", "First action began", "inner cancelled [1]",
        ])
        rig.step(0.2, (1, .moved, 102, 100))
        #expect(rig.take() == ["Second moved [1]", "Second action began", "First action cancelled"])
        #expect(first.state == .cancelled)
        #expect(second.state == .began)
    }
}
