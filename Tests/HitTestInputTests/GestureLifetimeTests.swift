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

/// A recognizer's record has one home, the core's slot (`GestureRecognizer.arbiter`, typed as
/// `tracking`): every library recognizer reads it through the one accessor (`record`), so the
/// record in the slot is the one it uses, with no copy of its own to go stale.
@Suite struct GestureRecordTests {
    /// Reads `g`'s record once (made then), puts a fresh record in the slot, and reads again.
    func readsTheSlot<G: GestureRecognizer>(_ g: G, _ record: (G) -> GestureTracking) -> Bool {
        let first = record(g)
        guard g.tracking === first else { return false }
        let fresh = GestureTracking()
        g.tracking = fresh
        return record(g) === fresh
    }

    @Test func everyLibraryRecognizerReadsItsRecordFromTheSlot() {
        #expect(readsTheSlot(TapGestureRecognizer()) { $0.record })
        #expect(readsTheSlot(LongPressGestureRecognizer()) { $0.record })
        #expect(readsTheSlot(SwipeGestureRecognizer()) { $0.record })
        #expect(readsTheSlot(PanGestureRecognizer()) { $0.record })
        #expect(readsTheSlot(PinchGestureRecognizer()) { $0.record })
        #expect(readsTheSlot(RotationGestureRecognizer()) { $0.record })
        let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(readsTheSlot(scrollView.panGestureRecognizer) { $0.record })
        #expect(readsTheSlot(scrollView.delayRecognizer) { $0.record })
    }
}
