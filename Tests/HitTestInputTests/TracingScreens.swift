@testable import HitTestKit
import HitTestTestSupport

// What the input tests that follow the order of calls share: a trace, a view that writes its
// touch methods into it, and the screens built from such views.

/// A shared list the deadlines and views append to, to see the order things happen in.
final class Trace {
    var lines: [String] = []
}

/// A view that writes each touch method it receives into a trace, as `began [1, 2]` (the
/// touches' identifiers, sorted).
final class TracingView: View {
    var trace: Trace?
    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) { note("began", touches) }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event?) { note("moved", touches) }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) { note("ended", touches) }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { note("cancelled", touches) }
    private func note(_ phase: String, _ touches: Set<Touch>) {
        trace?.lines.append("\(phase) \(touches.map(\.identifier).sorted())")
    }
}

/// Screens of tracing views on a 320 x 480 window (`TestScenes.screen()`), every view
/// multi-touch and writing into `trace`.
enum TracingScreens {
    /// One tracing view filling the window.
    static func one(_ trace: Trace) -> (Application, Window, TracingView) {
        let (app, window) = TestScenes.screen()
        let view = TracingView(frame: window.bounds)
        view.trace = trace
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        return (app, window, view)
    }

    /// Two tracing views side by side, named for the log: x < 160 is `left`, else `right`.
    static func sideBySide(_ trace: Trace) -> (Application, Window, left: TracingView, right: TracingView) {
        let (app, window) = TestScenes.screen()
        let left = TracingView(frame: Rect(x: 0, y: 0, width: 160, height: 480))
        let right = TracingView(frame: Rect(x: 160, y: 0, width: 160, height: 480))
        for (view, name) in [(left, "left"), (right, "right")] {
            view.trace = trace
            view.accessibilityIdentifier = name
            view.isMultipleTouchEnabled = true
            window.addSubview(view)
        }
        return (app, window, left, right)
    }
}
