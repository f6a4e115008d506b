@testable import HitTestKit
import HitTestTestSupport
import Testing

/// A small screen for gesture tests: a window (320 x 480) with `outer` (0,0 300x400) holding
/// `inner` (50,50 100x100); both record their touch methods. `lines()` renders the delivery
/// log compactly: `inner began 1` (delivered), `held inner ended 1`, `ignored inner moved 1`,
/// the recognizer entries' detail (`Tap#0 possible → ended`) and `action Tap#0 ended`, each
/// prefixed by its time when `timed`.
final class GestureRig {
    let app: Application
    let window: Window
    let outer: RecordingView
    let inner: RecordingView

    init() {
        let (app, window) = TestScenes.screen()
        self.app = app
        self.window = window
        outer = RecordingView(frame: Rect(x: 0, y: 0, width: 300, height: 400))
        outer.accessibilityIdentifier = "outer"
        outer.isMultipleTouchEnabled = true
        inner = RecordingView(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        inner.accessibilityIdentifier = "inner"
        inner.isMultipleTouchEnabled = true
        window.addSubview(outer)
        outer.addSubview(inner)
    }

    /// One input step of changes `(id, phase, x, y)` at `t`.
    func step(_ t: Double, _ changes: (Int, Touch.Phase, Double, Double)...) {
        app.injectTouches(changes.map { TouchChange(id: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3), timestamp: t) })
    }

    /// A one-finger tap (down at `t`, up at `t + 0.05`) at (x, y).
    func tap(_ id: Int = 1, at t: Double, _ x: Double = 100, _ y: Double = 100) {
        step(t, (id, .began, x, y))
        step(t + 0.05, (id, .ended, x, y))
    }

    /// A one-finger drag from (x0, y0) by (dx, dy) in `n` moves, 0.01 s apart, lifted at the end.
    func drag(_ id: Int = 1, at t: Double, from x0: Double = 100, _ y0: Double = 100, by dx: Double, _ dy: Double, moves n: Int = 5, lift: Bool = true) {
        step(t, (id, .began, x0, y0))
        for k in 1...n {
            let f = Double(k) / Double(n)
            step(t + 0.01 * Double(k), (id, .moved, x0 + dx * f, y0 + dy * f))
        }
        if lift { step(t + 0.01 * Double(n + 1), (id, .ended, x0 + dx, y0 + dy)) }
    }

    func advance(_ t: Double) { app.advanceTime(to: t) }

    /// The log, compact (see the type's comment).
    func lines(timed: Bool = false, views: Bool = true) -> [String] {
        var out: [String] = []
        for e in app.deliveryLog {
            var line: String
            switch e.kind {
            case .delivered:
                guard views else { continue }
                line = "\(e.responderName) \(e.phase!.rawValue) \(e.touch!)"
            case .held, .ignored:
                guard views else { continue }
                line = "\(e.kind.rawValue) \(e.responderName) \(e.phase!.rawValue) \(e.touch!)"
            case .recognizer: line = e.detail!
            case .action: line = "action " + e.detail!
            default: continue
            }
            if timed { line = "\(e.timestamp) " + line }
            out.append(line)
        }
        return out
    }

    func clear() { app.clearDeliveryLog() }
}

/// A delegate whose answers the test sets.
final class TestDelegate: GestureRecognizerDelegate {
    var shouldBegin = true
    var receive: (Touch) -> Bool = { _ in true }
    var simultaneous = false
    var requireFailureOf: (GestureRecognizer) -> Bool = { _ in false }
    var beRequiredToFailBy: (GestureRecognizer) -> Bool = { _ in false }

    func gestureRecognizerShouldBegin(_ g: GestureRecognizer) -> Bool { shouldBegin }
    func gestureRecognizer(_ g: GestureRecognizer, shouldReceive touch: Touch) -> Bool { receive(touch) }
    func gestureRecognizer(_ g: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool { simultaneous }
    func gestureRecognizer(_ g: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool { requireFailureOf(other) }
    func gestureRecognizer(_ g: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { beRequiredToFailBy(other) }
}
