import HitTestKit
import HitTestTestSupport
import Testing

@testable import HitTestCore
@testable import HitTestInput

// The C walk walks the library's own view classes itself and asks views of any other class
// through Swift, since those may override `hitTest(_:with:)` or `point(inside:with:)`. The core
// cannot name the input layer's classes: each says so in its initializer
// (`walksInC(asInstanceOf:)`), for a view of exactly its class.

private final class PlainViewSubclass: View {}
private final class WindowSubclass: Window {}
private final class ControlSubclass: Control {}
private final class ButtonSubclass: Button {}
private final class ScrollViewSubclass: ScrollView {}

/// A button that lets touches through to what is below it (a pass-through mask over a button).
private final class PassThroughButton: Button {
    override func hitTest(_ point: Point, with event: HitTestCore.Event?) -> View? {
        let hit = super.hitTest(point, with: event)
        return hit === self ? nil : hit
    }
}

@Suite struct LibraryClassWalkTests {
    @Test func theLibrarysClassesAreWalkedInCTheirSubclassesAreAsked() {
        let frame = Rect(x: 0, y: 0, width: 100, height: 100)
        let library: [View] = [View(frame: frame), Window(frame: frame), Control(frame: frame), Button(frame: frame), ScrollView(frame: frame)]
        for view in library {
            #expect(!view.asksSwiftForHitTesting, "\(type(of: view)) is one of the library's classes")
        }
        let subclasses: [View] = [
            PlainViewSubclass(frame: frame), WindowSubclass(frame: frame), ControlSubclass(frame: frame),
            ButtonSubclass(frame: frame), ScrollViewSubclass(frame: frame), PassThroughButton(frame: frame),
        ]
        for view in subclasses {
            #expect(view.asksSwiftForHitTesting, "\(type(of: view)) may override hitTest(_:with:)")
        }
    }

    /// A `Button` subclass that overrides `hitTest(_:with:)` is asked by the single call, the
    /// bulk call and touch delivery; a plain `Button` in its place takes the point.
    @Test func aButtonSubclassOverridingHitTestIsAskedOnEveryPath() {
        for overriding in [true, false] {
            let app = Application()
            let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200))
            app.addWindow(window)
            let below = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
            below.accessibilityIdentifier = "below"
            window.addSubview(below)
            let button: Button = overriding
                ? PassThroughButton(frame: Rect(x: 50, y: 50, width: 100, height: 40))
                : Button(frame: Rect(x: 50, y: 50, width: 100, height: 40))
            window.addSubview(button)
            let p = Point(x: 100, y: 70)
            let expected: View = overriding ? below : button

            #expect(window.hitTest(p) === expected)
            #expect(window.hitTest([p, p]).allSatisfy { $0 === expected })

            app.injectTouches([TouchChange(id: 1, phase: .began, location: p, timestamp: 0)])
            app.injectTouches([TouchChange(id: 1, phase: .ended, location: p, timestamp: 0.1)])
            let delivered = app.deliveryLog.filter { $0.kind == .delivered }.map(\.responder)
            #expect(delivered == [ObjectIdentifier(expected), ObjectIdentifier(expected)], "overriding: \(overriding)")
        }
    }
}
