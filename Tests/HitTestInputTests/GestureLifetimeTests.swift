@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// The back references made `unowned(unsafe)` for speed (superview, window, controller, a
/// recognizer's view, a window's application) read nil once their target is gone, as the weak
/// references they replace did: none dangles.
@Suite struct GestureLifetimeTests {
    @Test func subviewOutlivesItsSuperview() {
        var child: View?
        var grandchild: View?
        do {
            let parent = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            child = View()
            grandchild = View()
            parent.addSubview(child!)
            child!.addSubview(grandchild!)
        }
        #expect(child!.superview == nil)
        #expect(child!.next == nil)
        #expect(grandchild!.superview === child)
    }

    @Test func viewsOutliveTheirWindow() {
        var kept: View?
        var deep: View?
        do {
            let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            let middle = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
            kept = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
            deep = View()
            window.addSubview(middle)
            middle.addSubview(kept!)
            kept!.addSubview(deep!)
            #expect(deep!.window === window)
        }
        #expect(kept!.superview == nil)
        #expect(kept!.window == nil)
        #expect(deep!.window == nil)
        #expect(deep!.superview === kept)
    }

    @Test func recognizerOutlivesItsView() {
        let tap = TapGestureRecognizer()
        do {
            let view = View()
            view.addGestureRecognizer(tap)
            #expect(tap.view === view)
        }
        #expect(tap.view == nil)
        #expect(tap.debugName == "Tap")
    }

    @Test func recognizerOutlivesItsApplicationMidGesture() {
        let pan = PanGestureRecognizer()
        var window: Window?
        do {
            let (app, w) = TestScenes.screen()
            window = w
            w.addGestureRecognizer(pan)
            app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 0)])
            app.injectTouches([TouchChange(id: 1, phase: .moved, location: Point(x: 40, y: 10), timestamp: 0.1)])
            #expect(pan.state == .began)
            #expect(w.application === app)
        }
        #expect(window!.application == nil)
        #expect(pan.currentTime == nil)
        // The gesture ended with its application; the recognizer works on by hand.
        #expect(pan.state == .possible)
        #expect(pan.numberOfTouches == 0)
        pan.state = .began
        #expect(pan.state == .began)
    }

    @Test func viewOutlivesItsController() {
        let parent = View()
        var view: View?
        do {
            let controller = ViewController()
            view = controller.view
            parent.addSubview(view!)
            #expect(view!.next === controller)
        }
        #expect(view!.next === parent)
    }

    /// A long-press deadline keeps its recognizer; the application going forgets both.
    @Test func deadlineWithTheApplicationGone() {
        weak var weakPress: LongPressGestureRecognizer?
        do {
            let (app, window) = TestScenes.screen()
            let press = LongPressGestureRecognizer()
            weakPress = press
            window.addGestureRecognizer(press)
            app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 0)])
            #expect(app.pendingDeadlineCount == 1)
        }
        #expect(weakPress == nil)
    }
}

/// A library recognizer's record is the one in the core's slot (`GestureRecognizer.arbiter`,
/// typed as `tracking`): the recognizer's own cache (`RecordKeeping.record`) holds that record,
/// made on the first read by whichever side reads first.
@Suite struct GestureRecordTests {
    /// Whether `g`'s cached record and the slot's are one, read cache first or slot first.
    func oneRecord<G: GestureRecognizer & RecordKeeping>(_ make: () -> G) -> Bool {
        let cacheFirst = make()
        let a = cacheFirst.record
        let slotFirst = make()
        let b = slotFirst.trackingRecord
        return cacheFirst.tracking === a && slotFirst.record === b && cacheFirst.record === a && a !== b
    }

    @Test func everyLibraryRecognizerKeepsTheSlotsRecord() {
        #expect(oneRecord { TapGestureRecognizer() })
        #expect(oneRecord { LongPressGestureRecognizer() })
        #expect(oneRecord { SwipeGestureRecognizer() })
        #expect(oneRecord { PanGestureRecognizer() })
        #expect(oneRecord { PinchGestureRecognizer() })
        #expect(oneRecord { RotationGestureRecognizer() })
        #expect(oneRecord { ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100)).panGestureRecognizer })
        #expect(oneRecord { ScrollViewDelayGestureRecognizer() })
    }
}
