@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// The replay's hot loops lend recognizers, touches and windows unretained (their lists hold
/// them), keep a touch's one-element set between steps, and keep back references as
/// `Unmanaged`: what a handler does to the tree in the middle of a gesture must stay safe, and
/// nothing may be kept alive by it.
@Suite struct ReplayLendingTests {
    /// Tears down its view in the middle of the gesture: every recognizer off the view, the view
    /// out of its window, while the engine is delivering the step to the view's recognizers.
    final class Wrecker: GestureRecognizer {
        var wrecked = false
        override func touchesMoved(_ t: Set<Touch>, with e: HitTestKit.Event) {
            guard !wrecked, let view else { return }
            wrecked = true
            for g in view.gestureRecognizers ?? [] { view.removeGestureRecognizer(g) }
            view.removeFromSuperview()
        }
    }

    /// Removes its view from the window when the engine resets it (from `settle`'s scan).
    final class ResetWrecker: PanGestureRecognizer {
        override func reset() {
            super.reset()
            guard let view else { return }
            view.removeGestureRecognizer(self)
            view.removeFromSuperview()
        }
    }

    /// Counts the touch methods it gets.
    final class CountingView: View {
        var calls = 0
        override func touchesBegan(_ t: Set<Touch>, with e: HitTestKit.Event?) { calls += 1 }
        override func touchesEnded(_ t: Set<Touch>, with e: HitTestKit.Event?) { calls += 1 }
    }

    private func drag(_ app: Application, id: Int, from t: Double, at p: Point) {
        app.injectTouches([TouchChange(id: id, phase: .began, location: p, timestamp: t)])
        for k in 1...4 {
            app.injectTouches([TouchChange(id: id, phase: .moved, location: Point(x: p.x, y: p.y + Double(20 * k)), timestamp: t + 0.01 * Double(k))])
        }
        app.injectTouches([TouchChange(id: id, phase: .ended, location: Point(x: p.x, y: p.y + 80), timestamp: t + 0.05)])
    }

    @Test func aRecognizerThatTearsDownItsViewMidDeliveryIsSafe() {
        let (app, window) = TestScenes.screen()
        let other = CountingView(frame: Rect(x: 0, y: 300, width: 320, height: 100))
        window.addSubview(other)
        weak var weakView: View?
        weak var weakPan: PanGestureRecognizer?
        do {
            let view = View(frame: Rect(x: 0, y: 0, width: 320, height: 200))
            window.addSubview(view)
            // The wrecker runs first; the pan and the tap after it are removed while the
            // engine walks the touch's list.
            view.addGestureRecognizer(Wrecker())
            let pan = PanGestureRecognizer()
            view.addGestureRecognizer(pan)
            view.addGestureRecognizer(TapGestureRecognizer())
            weakView = view
            weakPan = pan
        }
        drag(app, id: 1, from: 0, at: Point(x: 100, y: 50))
        #expect(weakView?.superview == nil)
        #expect(weakPan?.view == nil)
        // The application goes on: a later tap elsewhere reaches its view.
        app.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 100, y: 350), timestamp: 1)])
        app.injectTouches([TouchChange(id: 2, phase: .ended, location: Point(x: 100, y: 350), timestamp: 1.05)])
        #expect(other.calls == 2)
    }

    @Test func aResetThatRemovesItsViewIsSafe() {
        let (app, window) = TestScenes.screen()
        weak var weakView: View?
        weak var weakRecognizer: ResetWrecker?
        do {
            let view = View(frame: Rect(x: 0, y: 0, width: 320, height: 200))
            window.addSubview(view)
            let g = ResetWrecker()
            view.addGestureRecognizer(g)
            weakView = view
            weakRecognizer = g
        }
        drag(app, id: 1, from: 0, at: Point(x: 100, y: 50))
        #expect(weakView == nil)  // reset removed it; nothing else holds it (nor its touch)
        #expect(weakRecognizer == nil)
        app.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 100, y: 50), timestamp: 1)])
        app.injectTouches([TouchChange(id: 2, phase: .ended, location: Point(x: 100, y: 50), timestamp: 1.05)])
        #expect(app.tracker.isIdle)
    }

    /// The engine keeps a touch's one-element set between steps: it must let go of the touch
    /// (and so of its view) when the touch ends, in a one-touch step or in a step of several.
    @Test(arguments: [false, true])
    func theKeptTouchSetLetsGoOfItsTouch(endTogether: Bool) {
        let (app, window) = TestScenes.screen()
        weak var weakView: View?
        do {
            let view = View(frame: window.bounds)
            window.addSubview(view)
            let pan = PanGestureRecognizer()
            view.addGestureRecognizer(pan)
            weakView = view
            app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 100, y: 100), timestamp: 0)])
            app.injectTouches([TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 130), timestamp: 0.01)])
            if endTogether {
                // A second finger, then both lift in one step (the grouped path, not the
                // one-touch one, delivers the lift).
                app.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 200, y: 100), timestamp: 0.02)])
                app.injectTouches([
                    TouchChange(id: 1, phase: .ended, location: Point(x: 100, y: 130), timestamp: 0.03),
                    TouchChange(id: 2, phase: .ended, location: Point(x: 200, y: 100), timestamp: 0.03),
                ])
            } else {
                app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 100, y: 130), timestamp: 0.03)])
            }
            #expect(app.tracker.isIdle)
            view.removeGestureRecognizer(pan)
            view.removeFromSuperview()
        }
        #expect(weakView == nil)
    }

    /// An application let go of in the middle of a gesture (a finger down, a deceleration
    /// pending): it dies, and its windows and stages forget it.
    @Test func anApplicationReleasedMidGestureDies() {
        weak var weakApp: Application?
        let window: Window
        do {
            let (app, w) = TestScenes.screen()
            window = w
            weakApp = app
            let scroll = ScrollView(frame: w.bounds)
            scroll.contentSize = Size(width: 320, height: 5000)
            w.addSubview(scroll)
            app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 100, y: 400), timestamp: 0)])
            app.injectTouches([TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 360), timestamp: 0.01)])
            app.injectTouches([TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 300), timestamp: 0.02)])
            app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 100, y: 240), timestamp: 0.03)])
            #expect(scroll.isDecelerating)
            app.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 100, y: 400), timestamp: 0.5)])
        }
        #expect(weakApp == nil)
        #expect(window.application == nil)
    }
}
