import HitTestKit
import HitTestTestSupport
import Testing

@Suite struct TouchDeliveryTests {
    func change(_ id: Int, _ phase: Touch.Phase, _ x: Double, _ y: Double, _ t: Double) -> TouchChange {
        TouchChange(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t)
    }

    /// Seed 002: ViewB passes its touches on to ViewA through `next`, so ViewA also receives
    /// everything ViewB gets, every phase, and a touch that goes on outside ViewB stays there.
    @Test func seed002ViewBForwardsToViewA() {
        let (app, window) = TestScenes.screen()
        let viewA = RecordingView(frame: window.bounds)
        let viewB = RecordingView(frame: Rect(x: 0, y: 0, width: 320, height: 240))
        viewA.accessibilityIdentifier = "ViewA"
        viewB.accessibilityIdentifier = "ViewB"
        viewA.forwards = false
        window.addSubview(viewA)
        viewA.addSubview(viewB)
        app.injectTouches([change(1, .began, 100, 100, 0)])
        app.injectTouches([change(1, .moved, 100, 400, 0.1)])  // outside ViewB: still ViewB
        app.injectTouches([change(1, .ended, 100, 400, 0.2)])
        app.injectTouches([change(2, .began, 10, 10, 1)])
        app.injectTouches([change(2, .cancelled, 10, 10, 1.1)])
        let expected = ["began [1]", "moved [1]", "ended [1]", "began [2]", "cancelled [2]"]
        #expect(viewB.received == expected)
        #expect(viewA.received == expected)
        let forwards = app.deliveryLog.filter { $0.kind == .forwarded }
        #expect(forwards.map(\.responder) == Array(repeating: ObjectIdentifier(viewB), count: 5))
        #expect(forwards.map(\.responderName) == Array(repeating: "ViewB", count: 5))
    }

    /// Seed 001's chain: view -> superview -> controller's view -> controller -> window ->
    /// application -> dropped.
    @Test func seed001ResponderChainToDropped() {
        let (app, window) = TestScenes.screen()
        let controller = ViewController()
        window.rootViewController = controller
        controller.view.accessibilityIdentifier = "root"
        let container = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        container.accessibilityIdentifier = "container"
        let button = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        button.accessibilityIdentifier = "button"
        controller.view.addSubview(container)
        container.addSubview(button)
        app.injectTouches([change(7, .began, 20, 20, 0)])
        let log = app.deliveryLog.map { "\($0.kind.rawValue) \($0.responderName)" }
        #expect(log == [
            "delivered button", "forwarded button", "forwarded container", "forwarded root",
            "forwarded ViewController", "forwarded Window#0", "dropped Application",
        ])
    }

    @Test func touchViewIsFixedAndLocationsConvert() throws {
        let (app, window) = TestScenes.screen()
        let v = RecordingView(frame: Rect(x: 100, y: 100, width: 50, height: 50))
        window.addSubview(v)
        final class Spy: RecordingView {
            var locations: [Point] = []
            var previous: [Point] = []
            override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
                let t = touches.first!
                locations.append(t.location(in: self))
                previous.append(t.previousLocation(in: nil))
                #expect(t.view === self && t.window === superview)
                #expect(event?.allTouches?.count == 1 && event?.touches(for: self)?.count == 1)
            }
        }
        let spy = Spy(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(spy)
        app.injectTouches([change(1, .began, 10, 10, 0)])
        app.injectTouches([change(1, .moved, 300, 400, 0.1)])
        #expect(spy.locations == [Point(x: 300, y: 400)])
        #expect(spy.previous == [Point(x: 10, y: 10)])
        #expect(v.received.isEmpty)
    }

    @Test func multipleTouchAndTapCount() {
        let (app, window) = TestScenes.screen()
        let single = RecordingView(frame: Rect(x: 0, y: 0, width: 160, height: 480))
        let multi = RecordingView(frame: Rect(x: 160, y: 0, width: 160, height: 480))
        multi.isMultipleTouchEnabled = true
        single.forwards = false
        multi.forwards = false
        window.addSubview(single)
        window.addSubview(multi)
        // Two fingers down in one step on each view: one bulk hit test.
        app.injectTouches([change(1, .began, 10, 10, 0), change(2, .began, 20, 20, 0),
                           change(3, .began, 200, 10, 0), change(4, .began, 210, 20, 0)])
        #expect(single.received == ["began [1]"])
        #expect(multi.received == ["began [3, 4]"])
        #expect(app.deliveryLog.contains { $0.kind == .ignored && $0.touch == 2 })
        app.injectTouches([change(1, .ended, 10, 10, 0.05), change(2, .ended, 20, 20, 0.05),
                           change(3, .ended, 200, 10, 0.05), change(4, .ended, 210, 20, 0.05)])
        #expect(single.received == ["began [1]", "ended [1]"])
        final class TapSpy: View {
            var taps: [Int] = []
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) { taps.append(touches.first!.tapCount) }
        }
        let spy = TapSpy(frame: window.bounds)
        window.addSubview(spy)
        for i in 0..<3 {
            let t = 1.0 + Double(i) * 0.2
            app.injectTouches([change(10 + i, .began, 50, 50, t)])
            app.injectTouches([change(10 + i, .ended, 50, 50, t + 0.05)])
        }
        app.injectTouches([change(20, .began, 50, 50, 5)])
        #expect(spy.taps == [1, 2, 3, 1])
    }

    @Test func exclusiveTouch() {
        let (app, window) = TestScenes.screen()
        let exclusive = RecordingView(frame: Rect(x: 0, y: 0, width: 160, height: 480))
        let other = RecordingView(frame: Rect(x: 160, y: 0, width: 160, height: 480))
        exclusive.isExclusiveTouch = true
        exclusive.forwards = false
        other.forwards = false
        window.addSubview(exclusive)
        window.addSubview(other)
        app.injectTouches([change(1, .began, 10, 10, 0)])
        app.injectTouches([change(2, .began, 200, 10, 0.1)])  // another view: kept out
        #expect(other.received.isEmpty)
        app.injectTouches([change(1, .ended, 10, 10, 0.2), change(2, .ended, 200, 10, 0.2)])
        app.injectTouches([change(3, .began, 200, 10, 0.3)])
        app.injectTouches([change(4, .began, 10, 10, 0.4)])  // the exclusive view, while another tracks
        #expect(other.received == ["began [3]"])
        #expect(exclusive.received == ["began [1]", "ended [1]"])
    }

    /// Windows are ordered by level, then by the order shown; a touch goes to the frontmost
    /// window it hits, and a hidden window lets it through to the one behind. Both level-0
    /// windows are named `Window#0`: the log tells them apart by identity.
    @Test func windowsByLevelAndOrder() {
        let app = Application()
        let back = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let alert = Window(frame: Rect(x: 60, y: 140, width: 200, height: 200))
        alert.windowLevel = 2000
        let front = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        for w in [back, alert, front] { app.addWindow(w) }
        #expect(app.windows.map(ObjectIdentifier.init) == [back, front, alert].map(ObjectIdentifier.init))
        #expect(back.debugName == "Window#0" && front.debugName == "Window#0")
        let inAlert = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        alert.addSubview(inAlert)
        inAlert.forwards = false
        app.injectTouches([change(1, .began, 70, 150, 0)])  // alert window in front, at (10, 10)
        #expect(inAlert.received == ["began [1]"])
        func receivers(_ touch: Int) -> [ObjectIdentifier] {
            app.deliveryLog.filter { $0.touch == touch && $0.kind == .delivered }.map(\.responder)
        }
        // (50, 50) is in `back` and `front`: `front` (level 0, shown later) is in front.
        app.injectTouches([change(2, .began, 50, 50, 0.1)])
        #expect(receivers(2) == [ObjectIdentifier(front)])
        #expect(!app.deliveryLog.contains { $0.touch == 2 && $0.isAbout(back) })
        // A hidden window hits nothing: the touch reaches the window behind it.
        alert.isHidden = true
        app.injectTouches([change(3, .began, 70, 150, 0.2)])
        #expect(inAlert.received == ["began [1]"])
        #expect(receivers(3) == [ObjectIdentifier(back)])
        // Lowering a window's level moves it behind the others at once.
        app.injectTouches([change(3, .ended, 70, 150, 0.25)])
        alert.isHidden = false
        alert.windowLevel = -1
        #expect(app.windows.map(ObjectIdentifier.init) == [alert, back, front].map(ObjectIdentifier.init))
        app.injectTouches([change(4, .began, 200, 200, 0.3)])  // in `back` and `alert`: `back` is now in front
        #expect(receivers(4) == [ObjectIdentifier(back)])
        #expect(inAlert.received == ["began [1]"])
    }

    /// A window shown by a second application leaves the first: it is in one list, and the
    /// first application removing it afterwards leaves it with the second.
    @Test func aWindowBelongsToOneApplication() {
        let first = Application(), second = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        first.addWindow(window)
        second.addWindow(window)
        #expect(first.windows.isEmpty && second.windows.count == 1)
        #expect(window.application === second)
        first.removeWindow(window)
        #expect(window.application === second)
    }

    @Test func touchWhoseViewIsRemovedIsCancelledOnce() {
        let (app, window) = TestScenes.screen()
        let v = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        v.forwards = false
        window.addSubview(v)
        app.injectTouches([change(1, .began, 10, 10, 0)])
        v.removeFromSuperview()
        app.injectTouches([change(1, .moved, 20, 20, 0.1)])
        app.injectTouches([change(1, .ended, 20, 20, 0.2)])
        #expect(v.received == ["began [1]", "cancelled [1]"])
        #expect(app.deliveryLog.filter { $0.kind == .ignored }.count == 2)
    }

    @Test func replayScriptAndLog() throws {
        let (app, window) = TestScenes.screen()
        let button = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        button.accessibilityIdentifier = "button"
        button.forwards = false
        window.addSubview(button)
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,10,10
            0.05,1,moved,50,50
            0.10,1,ended,150,150
            0.20,2,began,200,200
            0.25,2,ended,200,200
            """)
        #expect(script.steps.count == 5)
        let log = app.replay(script)
        #expect(log.map(\.description) == [
            "0.0 touch 1 began delivered button", "0.05 touch 1 moved delivered button",
            "0.1 touch 1 ended delivered button", "0.2 touch 2 began delivered Window#0",
            "0.2 touch 2 began forwarded Window#0", "0.2 touch 2 began dropped Application",
            "0.25 touch 2 ended delivered Window#0", "0.25 touch 2 ended forwarded Window#0",
            "0.25 touch 2 ended dropped Application",
        ])
        #expect(try TouchScript(csv: script.csv) == script)
    }

    @Test func malformedScriptsNameTheLine() {
        #expect(throws: TouchScriptError(line: 2, message: "unknown phase 'tap' (began, moved, stationary, ended, cancelled)")) {
            try TouchScript(csv: "0,1,began,1,1\n0.1,1,tap,1,1")
        }
        #expect(throws: TouchScriptError.self) { try TouchScript(csv: "0,1,began,nan,1") }
        #expect(throws: TouchScriptError.self) { try TouchScript(csv: "1,1,began,1,1\n0.5,1,ended,1,1") }
        #expect(throws: TouchScriptError.self) { try TouchScript(csv: "0,1,began,1") }
        #expect(throws: TouchScriptError.self) { try TouchScript(csv: "0,x,began,1,1") }
    }

    @Test func inputInjectedDuringDeliveryRunsAfterIt() {
        let (app, window) = TestScenes.screen()
        final class Reentrant: View {
            weak var app: Application?
            var order: [String] = []
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
                order.append("began \(touches.first!.identifier)")
                if touches.first!.identifier == 1 {
                    app?.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 5, y: 5), timestamp: 0.5)])
                    order.append("after inject")
                }
            }
        }
        let v = Reentrant(frame: window.bounds)
        v.app = app
        v.isMultipleTouchEnabled = true
        window.addSubview(v)
        app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 1, y: 1), timestamp: 0)])
        #expect(v.order == ["began 1", "after inject", "began 2"])
    }
}

/// The README's replay example, as a new user would run it: a drag that starts on a view and
/// leaves it keeps going to that view (SEMANTICS 8.1).
@Suite struct ReadmeReplayTests {
    @Test func aDragFromTheReadmeStaysWithItsView() throws {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        app.addWindow(window)
        let table = View(frame: Rect(x: 0, y: 100, width: 390, height: 100))
        window.addSubview(table)
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,20,110
            0.05,1,moved,60,400
            0.10,1,ended,60,400
            """)
        let log = app.replay(script)
        let delivered = log.filter { $0.description.contains("delivered") }
        #expect(delivered.count == 3, "\(log)")
        #expect(delivered.allSatisfy { $0.isAbout(table) }, "\(log)")
        #expect(log.first?.description.hasPrefix("0.0 touch 1 began delivered View#0") == true, "\(log)")
        #expect(app.currentTime == 0.1)
    }
}
