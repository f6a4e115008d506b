import HitTestKit

/// A view that records the touch methods it receives, as lines such as `began [1]` (the
/// touches' identifiers, sorted), then by default passes them on to `next` as UIKit's default
/// implementations do.
open class RecordingView: View {
    /// What the view received, oldest first.
    public var received: [String] = []
    /// Whether the touches go on to `next` after being recorded (default true).
    public var forwards = true

    /// Records `began [ids]`, then forwards if `forwards`.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        received.append("began \(touches.map(\.identifier).sorted())")
        if forwards { super.touchesBegan(touches, with: event) }
    }
    /// Records `moved [ids]`, then forwards if `forwards`.
    open override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        received.append("moved \(touches.map(\.identifier).sorted())")
        if forwards { super.touchesMoved(touches, with: event) }
    }
    /// Records `ended [ids]`, then forwards if `forwards`.
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        received.append("ended \(touches.map(\.identifier).sorted())")
        if forwards { super.touchesEnded(touches, with: event) }
    }
    /// Records `cancelled [ids]`, then forwards if `forwards`.
    open override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) {
        received.append("cancelled \(touches.map(\.identifier).sorted())")
        if forwards { super.touchesCancelled(touches, with: event) }
    }
}

/// Small scenes that many tests start from.
public enum TestScenes {
    /// An application with one window of `width` x `height` at the origin (a 320 x 480 phone
    /// screen by default).
    public static func screen(width: Double = 320, height: Double = 480) -> (Application, Window) {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: width, height: height))
        app.addWindow(window)
        return (app, window)
    }
}
