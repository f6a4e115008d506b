@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
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

/// One ordered list of what recognizers and views saw, shared by `TraceRecognizer`s and
/// `TraceView`s: lines such as `A began [1]`, `A → began`, `view ended [1]`.
final class GestureTrace {
    var lines: [String] = []
}

/// A custom recognizer (the README's kind): it writes each touch method into the trace and
/// does what the test's closures say; `script` maps the k-th call (0-based) to a state to set.
final class TraceRecognizer: GestureRecognizer {
    let label: String
    let trace: GestureTrace
    var onBegan: (TraceRecognizer) -> Void = { _ in }
    var onMoved: (TraceRecognizer) -> Void = { _ in }
    var onEnded: (TraceRecognizer) -> Void = { _ in }
    var resets = 0
    /// `canPrevent(_:)` answers this (default true).
    var preventsOthers = true

    init(_ label: String, trace: GestureTrace) {
        self.label = label
        self.trace = trace
        super.init()
        addAction { [unowned self] g in self.trace.lines.append("\(self.label) action \(g.state)") }
        name = label
        // A recognizer that may never decide would hold every lift; tests turn it on.
        delaysTouchesEnded = false
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        trace.lines.append("\(label) began \(touches.map(\.identifier).sorted())")
        onBegan(self)
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        trace.lines.append("\(label) moved \(touches.map(\.identifier).sorted())")
        onMoved(self)
    }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        trace.lines.append("\(label) ended \(touches.map(\.identifier).sorted())")
        onEnded(self)
    }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        trace.lines.append("\(label) cancelled \(touches.map(\.identifier).sorted())")
        super.touchesCancelled(touches, with: event)
    }
    override func canPrevent(_ other: GestureRecognizer) -> Bool { preventsOthers }
    override func reset() {
        resets += 1
        super.reset()
    }
}

/// A view that writes its touch methods into a trace (`name began [1]`) and does not forward.
final class TraceView: View {
    let label: String
    let trace: GestureTrace
    var shouldBegin: (GestureRecognizer) -> Bool = { _ in true }

    init(_ label: String, trace: GestureTrace, frame: Rect) {
        self.label = label
        self.trace = trace
        super.init(frame: frame)
        accessibilityIdentifier = label
        isMultipleTouchEnabled = true
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) { record("began", touches) }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event?) { record("moved", touches) }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) { record("ended", touches) }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { record("cancelled", touches) }
    override func gestureRecognizerShouldBegin(_ g: GestureRecognizer) -> Bool { shouldBegin(g) }

    private func record(_ phase: String, _ touches: Set<Touch>) {
        trace.lines.append("\(label) \(phase) \(touches.map(\.identifier).sorted())")
    }
}

/// A window with `outer` (0,0 300x400) holding `inner` (50,50 100x100) and, beside it, `side`
/// (200,50 80x80), all `TraceView`s on one trace.
final class TraceRig {
    let trace = GestureTrace()
    let app: Application
    let window: Window
    let outer: TraceView
    let inner: TraceView
    let side: TraceView

    init() {
        let (app, window) = TestScenes.screen()
        self.app = app
        self.window = window
        outer = TraceView("outer", trace: trace, frame: Rect(x: 0, y: 0, width: 300, height: 400))
        inner = TraceView("inner", trace: trace, frame: Rect(x: 50, y: 50, width: 100, height: 100))
        side = TraceView("side", trace: trace, frame: Rect(x: 200, y: 50, width: 80, height: 80))
        window.addSubview(outer)
        outer.addSubview(inner)
        outer.addSubview(side)
    }

    func recognizer(_ label: String, on view: View) -> TraceRecognizer {
        let g = TraceRecognizer(label, trace: trace)
        view.addGestureRecognizer(g)
        return g
    }

    func step(_ t: Double, _ changes: (Int, Touch.Phase, Double, Double)...) {
        app.injectTouches(changes.map { TouchChange(id: $0.0, phase: $0.1, location: Point(x: $0.2, y: $0.3), timestamp: t) })
    }

    /// The trace since the last call, and clears it.
    func take() -> [String] {
        defer { trace.lines.removeAll() }
        return trace.lines
    }
}
