@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import HitTestSampleScenes
import Testing

/// The input pipeline's seams: the router's interceptor (where gesture recognizers will see
/// touches first, and hold or cancel delivery: SEMANTICS G2, G3, G6–G8), the one phase →
/// method switch, responder identity in the log, and replays that repeat to the bit.
@Suite struct TouchPipelineTests {
    /// An interceptor that writes what it sees into the trace and does what the test tells it.
    final class RecordingInterceptor: TouchInterceptor {
        let trace: Trace
        var watches: (Touch) -> Bool = { _ in true }
        /// The per-touch record the router keeps (what a gesture environment would fill in).
        final class Record {
            let began: Double
            init(began: Double) { self.began = began }
        }
        /// The records the router handed back, in the order seen.
        var records: [Record] = []
        var decide: (Touch.Phase, Touch) -> TouchDisposition = { _, _ in .deliver }
        var onStep: ([Touch], TouchRouter) -> Void = { _, _ in }
        var dispositionCalls = 0
        var settleCount = 0

        init(trace: Trace) { self.trace = trace }

        func watch(_ touch: Touch) -> AnyObject? {
            trace.lines.append("watch \(touch.identifier)")
            return watches(touch) ? Record(began: touch.timestamp) : nil
        }
        func touchesWillBeDelivered(_ touches: [Touch], event: Event, router: TouchRouter) {
            trace.lines.append("gesture " + touches.map { "\($0.identifier) \($0.phase.rawValue)" }.joined(separator: ", "))
            for t in touches where t.phase == .began { records.append(t.route.watchers as! Record) }
            onStep(touches, router)
        }
        func disposition(of phase: Touch.Phase, for touch: Touch) -> TouchDisposition {
            dispositionCalls += 1
            return decide(phase, touch)
        }
        func settle(router: TouchRouter) { settleCount += 1 }
    }

    func change(_ id: Int, _ phase: Touch.Phase, _ x: Double, _ t: Double) -> TouchChange {
        TouchChange(id: id, phase: phase, location: Point(x: x, y: 10), timestamp: t)
    }

    /// Two tracing views side by side (`TracingScreens.sideBySide`) and a recording interceptor.
    func screen(_ trace: Trace) -> (Application, Window, left: TracingView, right: TracingView, RecordingInterceptor) {
        let (app, window, left, right) = TracingScreens.sideBySide(trace)
        let interceptor = RecordingInterceptor(trace: trace)
        app.router.interceptor = interceptor
        return (app, window, left, right, interceptor)
    }

    /// G2, G3: each touch is offered once at `.began`; in every step the interceptor sees the
    /// changed touches before any view does; settle follows each step and time advance.
    @Test func interceptorSeesEachStepBeforeAnyView() {
        let trace = Trace()
        let (app, _, _, _, interceptor) = screen(trace)
        app.injectTouches([change(1, .began, 10, 0), change(2, .began, 200, 0)])
        app.injectTouches([change(2, .moved, 210, 0.1)])
        app.injectTouches([change(1, .ended, 10, 0.2), change(2, .ended, 210, 0.2)])
        app.advanceTime(to: 1)
        #expect(trace.lines == [
            "watch 1", "watch 2", "gesture 1 began, 2 began", "began [1]", "began [2]",
            "gesture 2 moved", "moved [2]",
            "gesture 1 ended, 2 ended", "ended [1]", "ended [2]",
        ])
        #expect(interceptor.settleCount == 4)
        #expect(interceptor.records.map(\.began) == [0, 0])
        #expect(interceptor.dispositionCalls == 5)
    }

    /// A touch nothing watches goes exactly as with no interceptor: never asked about again.
    @Test func unwatchedTouchesAreDeliveredAsWithoutAnInterceptor() {
        func run(intercepted: Bool) -> ([String], [String]) {
            let trace = Trace()
            let (app, _, _, _, interceptor) = screen(trace)
            interceptor.watches = { _ in false }
            if !intercepted { app.router.interceptor = nil }
            app.injectTouches([change(1, .began, 10, 0), change(2, .began, 200, 0)])
            app.injectTouches([change(1, .moved, 20, 0.1)])
            app.injectTouches([change(1, .ended, 20, 0.2), change(2, .cancelled, 200, 0.2)])
            #expect(interceptor.dispositionCalls == 0)
            return (trace.lines.filter { !$0.hasPrefix("watch") }, app.deliveryLog.map(\.description))
        }
        let with = run(intercepted: true)
        let without = run(intercepted: false)
        #expect(with.0 == without.0 && with.1 == without.1)
        #expect(with.0 == ["began [1]", "began [2]", "moved [1]", "ended [1]", "cancelled [2]"])
    }

    /// G7 (a recognizer with `delaysTouchesBegan` fails): began and moves are held, logged as
    /// held, and delivered in order when a deadline releases them; the sequence goes on.
    @Test func heldPhasesAreDeliveredInOrderWhenReleased() {
        let trace = Trace()
        let (app, _, left, _, interceptor) = screen(trace)
        var holding = true
        interceptor.decide = { _, _ in holding ? .hold : .deliver }
        var touch: Touch?
        interceptor.onStep = { touches, router in
            if touch == nil {
                touch = touches.first
                app.schedule(at: 0.25) {
                    holding = false
                    router.release(touch!)
                }
            }
        }
        app.injectTouches([change(1, .began, 10, 0)])
        app.injectTouches([change(1, .moved, 20, 0.1)])
        #expect(!trace.lines.contains { $0.hasSuffix("[1]") })
        #expect(app.deliveryLog.filter { $0.kind == .held }.map(\.phase) == [.began, .moved])
        app.advanceTime(to: 0.3)
        app.injectTouches([change(1, .ended, 20, 0.4)])
        #expect(trace.lines.filter { $0.hasSuffix("[1]") } == ["began [1]", "moved [1]", "ended [1]"])
        let delivered = app.deliveryLog.filter { $0.kind == .delivered }
        #expect(delivered.map(\.phase) == [.began, .moved, .ended])
        #expect(delivered.allSatisfy { $0.isAbout(left) })
    }

    /// G6: a recognizer that recognizes after the view began the touch: the view gets one
    /// `touchesCancelled` (in that step, instead of the move), then nothing; the interceptor
    /// still sees every phase; the rest is logged as ignored with the reason.
    @Test func recognitionCancelsABegunTouchOnce() {
        let trace = Trace()
        let (app, _, left, _, interceptor) = screen(trace)
        interceptor.onStep = { touches, router in
            for t in touches where t.phase == .moved { router.cancelDelivery(t, reason: "recognized") }
        }
        app.injectTouches([change(1, .began, 10, 0)])
        app.injectTouches([change(1, .moved, 20, 0.1)])
        app.injectTouches([change(1, .moved, 30, 0.2)])
        app.injectTouches([change(1, .ended, 30, 0.3)])
        #expect(trace.lines.filter { !$0.hasPrefix("gesture") && !$0.hasPrefix("watch") } == ["began [1]", "cancelled [1]"])
        #expect(trace.lines.filter { $0.hasPrefix("gesture") } == ["gesture 1 began", "gesture 1 moved", "gesture 1 moved", "gesture 1 ended"])
        let ignored = app.deliveryLog.filter { $0.kind == .ignored }
        #expect(ignored.map(\.phase) == [.moved, .moved, .ended])
        #expect(ignored.allSatisfy { $0.reason == "recognized" && $0.isAbout(left) })
    }

    /// G7 (a recognizer with `delaysTouchesBegan` recognizes): the held began is dropped and
    /// the view never hears of the touch.
    @Test func recognitionDropsAHeldTouchEntirely() {
        let trace = Trace()
        let (app, _, _, _, interceptor) = screen(trace)
        interceptor.decide = { _, _ in .hold }
        interceptor.onStep = { touches, router in
            for t in touches where t.phase == .moved { router.cancelDelivery(t, reason: "recognized") }
        }
        app.injectTouches([change(1, .began, 10, 0)])
        app.injectTouches([change(1, .moved, 20, 0.1)])
        app.injectTouches([change(1, .ended, 20, 0.2)])
        #expect(!trace.lines.contains { $0.hasSuffix("[1]") })
        #expect(app.deliveryLog.filter { $0.kind == .delivered }.isEmpty)
        #expect(app.deliveryLog.map(\.kind) == [.held, .ignored, .ignored, .ignored])
    }

    /// G8 (`delaysTouchesEnded`): an ended held while a recognizer may still recognize is
    /// delivered when it fails, even after the finger is up, or becomes one `touchesCancelled`
    /// when it recognizes.
    @Test func heldEndedBecomesEndedOrCancelled() {
        let trace = Trace()
        let (app, _, _, _, interceptor) = screen(trace)
        interceptor.decide = { phase, _ in phase == .ended ? .hold : .deliver }
        var touches: [Int: Touch] = [:]
        interceptor.onStep = { changed, _ in for t in changed { touches[t.identifier] = t } }
        app.injectTouches([change(1, .began, 10, 0), change(2, .began, 200, 0)])
        app.injectTouches([change(1, .ended, 10, 0.1), change(2, .ended, 200, 0.1)])
        #expect(trace.lines.filter { !$0.hasPrefix("gesture") && !$0.hasPrefix("watch") } == ["began [1]", "began [2]"])
        app.schedule(at: 0.35) {
            app.router.release(touches[1]!)  // failed: the ended goes through
            app.router.cancelDelivery(touches[2]!, reason: "recognized")  // recognized: cancelled
        }
        app.advanceTime(to: 0.5)
        #expect(trace.lines.suffix(2) == ["ended [1]", "cancelled [2]"])
        // The next touch on the same finger is a new touch with a clean route.
        app.injectTouches([change(1, .began, 10, 0.6)])
        #expect(trace.lines.last == "began [1]")
    }

    /// Phases released while a step is being shown to the interceptor go out with that step,
    /// before the step's own phase of the touch.
    @Test func phasesReleasedDuringAStepGoWithIt() {
        let trace = Trace()
        let (app, _, _, _, interceptor) = screen(trace)
        var holding = true
        interceptor.decide = { _, _ in holding ? .hold : .deliver }
        interceptor.onStep = { touches, router in
            if touches.contains(where: { $0.phase == .moved }) {
                holding = false
                for t in touches { router.release(t) }
            }
        }
        app.injectTouches([change(1, .began, 10, 0), change(2, .began, 200, 0)])
        app.injectTouches([change(1, .moved, 20, 0.1), change(2, .moved, 210, 0.1)])
        #expect(trace.lines.filter { !$0.hasPrefix("gesture") && !$0.hasPrefix("watch") } == [
            "began [1]", "began [2]", "moved [1]", "moved [2]",
        ])
    }

    /// SEMANTICS 8.5 with a watcher: the interceptor sees the system's cancellation first; the
    /// view gets one `touchesCancelled`; a view that never began the touch (held) gets nothing.
    @Test func systemCancellationReachesTheInterceptorFirst() {
        let trace = Trace()
        let (app, _, left, right, interceptor) = screen(trace)
        interceptor.decide = { _, touch in touch.identifier == 2 ? .hold : .deliver }
        app.injectTouches([change(1, .began, 10, 0), change(2, .began, 200, 0)])
        left.removeFromSuperview()
        right.removeFromSuperview()
        app.injectTouches([change(1, .moved, 20, 0.1), change(2, .moved, 210, 0.1)])
        #expect(trace.lines == [
            "watch 1", "watch 2", "gesture 1 began, 2 began", "began [1]",
            "gesture 1 cancelled", "cancelled [1]", "gesture 2 cancelled",
        ])
    }

    /// A touch a recognizer has taken from its view still ends for the interceptor when the
    /// system cancels it (here: the same finger begins again), and the view hears nothing more.
    @Test func systemCancellationOfATakenTouchReachesTheInterceptor() {
        let trace = Trace()
        let (app, _, _, _, interceptor) = screen(trace)
        interceptor.onStep = { touches, router in
            for t in touches where t.phase == .moved { router.cancelDelivery(t, reason: "recognized") }
        }
        app.injectTouches([change(1, .began, 10, 0)])
        app.injectTouches([change(1, .moved, 20, 0.1)])
        app.injectTouches([change(1, .began, 30, 0.2)])
        #expect(trace.lines == [
            "watch 1", "gesture 1 began", "began [1]", "gesture 1 moved", "cancelled [1]",
            "gesture 1 cancelled", "watch 1", "gesture 1 began", "began [1]",
        ])
    }

    // MARK: - Responder names and identity

    /// `debugName` is an override point: a controller and a view name themselves, and the
    /// log shows those names (with identity beside them).
    @Test func debugNameIsAnOverride() {
        final class NamedController: ViewController {
            override var debugName: String { "Settings" }
        }
        final class NamedView: View {
            override var debugName: String { "named" }
        }
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        app.addWindow(window)
        let controller = NamedController()
        window.rootViewController = controller
        let view = NamedView(frame: window.bounds)
        controller.view.addSubview(view)
        app.injectTouches([change(1, .began, 10, 0)])
        #expect(app.deliveryLog.map(\.responderName) == ["named", "named", "View#0", "Settings", "Window#0", "Application"])
        #expect(app.deliveryLog.map(\.responder) == [view, view, controller.view, controller, window, app].map { ObjectIdentifier($0) })
        #expect(Responder().debugName == "Responder" && app.debugName == "Application")
        window.accessibilityIdentifier = "main"
        #expect(window.debugName == "main")
    }

    /// The responder chain of a view 100,000 levels deep: every level forwards, nothing
    /// recurses per level (SEMANTICS 7.2; the project's no-deep-recursion rule).
    @Test func aTouchAtTheBottomOfAHundredThousandDeepChain() {
        let depth = 100_000
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        app.addWindow(window)
        var last: View = window
        for _ in 0..<depth {
            let v = View(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
            last.addSubview(v)
            last = v
        }
        let trace = Trace()
        final class Forwarding: View {
            var trace: Trace?
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
                trace?.lines.append("before")
                super.touchesBegan(touches, with: event)
                trace?.lines.append("after")
            }
        }
        let hit = Forwarding(frame: last.bounds)
        hit.trace = trace
        last.addSubview(hit)
        app.injectTouches([change(1, .began, 10, 0)])
        let log = app.deliveryLog
        #expect(log.count == depth + 4)  // delivered, forwarded by hit, each level, the window; dropped
        #expect(log.first?.kind == .delivered && log.first?.isAbout(hit) == true)
        #expect(log.dropLast().dropFirst().allSatisfy { $0.kind == .forwarded })
        #expect(log.last?.kind == .dropped && log.last?.isAbout(app) == true)
        #expect(trace.lines == ["before", "after"])
    }

    // MARK: - Determinism

    /// A seeded multi-touch script over the `app` scene, with some views exclusive or
    /// multi-touch, and an interceptor that holds, releases and cancels on deadlines.
    func replayRun(seed: UInt64) -> (Application, TouchScript) {
        let scene = SampleScenes.app(cells: 40)
        var rng = SeededGenerator(seed: seed)
        for view in scene.views {
            if rng.chance(0.1) { view.isExclusiveTouch = true }
            if rng.chance(0.3) { view.isMultipleTouchEnabled = true }
        }
        let app = Application()
        app.addWindow(scene.root)
        final class Deferring: TouchInterceptor {
            unowned let app: Application
            var released = Set<Touch>()  // strong: no identity reused
            init(app: Application) { self.app = app }
            func watch(_ touch: Touch) -> AnyObject? { touch.identifier % 3 != 0 ? self : nil }
            func touchesWillBeDelivered(_ touches: [Touch], event: Event, router: TouchRouter) {
                for touch in touches where touch.phase == .began {
                    // Odd fingers: a "long press" takes the touch after 0.3 s. Even fingers:
                    // everything is held for 0.12 s, then released.
                    app.schedule(at: app.currentTime + (touch.identifier % 2 == 1 ? 0.3 : 0.12)) { [self] in
                        if touch.identifier % 2 == 1 {
                            router.cancelDelivery(touch, reason: "long press")
                        } else {
                            released.insert(touch)
                            router.release(touch)
                        }
                    }
                }
            }
            func disposition(of phase: Touch.Phase, for touch: Touch) -> TouchDisposition {
                touch.identifier % 2 == 0 && !released.contains(touch) ? .hold : .deliver
            }
            func settle(router: TouchRouter) {}
        }
        app.router.interceptor = Deferring(app: app)
        var steps: [[TouchChange]] = []
        var down: [Int: Point] = [:]
        var t = 0.0
        var nextID = 0
        for _ in 0..<400 {
            t += [0.016, 0.05, 0.2][Int.random(in: 0..<3, using: &rng)]
            var step: [TouchChange] = []
            if down.count < 4, rng.chance(0.4) {
                let p = Point(x: rng.coordinate(0...390), y: rng.coordinate(0...844))
                down[nextID] = p
                step.append(TouchChange(id: nextID, phase: .began, location: p, timestamp: t))
                nextID += 1
            }
            for id in down.keys.sorted() where step.allSatisfy({ $0.id != id }) {
                let p = down[id]!
                if rng.chance(0.25) {
                    step.append(TouchChange(id: id, phase: rng.chance(0.9) ? .ended : .cancelled, location: p, timestamp: t))
                    down[id] = nil
                } else if rng.chance(0.5) {
                    let q = Point(x: p.x + rng.coordinate(-20...20), y: p.y + rng.coordinate(-20...20))
                    down[id] = q
                    step.append(TouchChange(id: id, phase: .moved, location: q, timestamp: t))
                }
            }
            if !step.isEmpty { steps.append(step) }
        }
        steps.append(down.keys.sorted().map { TouchChange(id: $0, phase: .ended, location: down[$0]!, timestamp: t + 1) })
        return (app, TouchScript(steps: steps))
    }

    /// The first entry where two logs differ, with a few before it.
    func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> String? {
        guard let i = a.indices.first(where: { $0 >= b.count || a[$0] != b[$0] }) ?? (a.count < b.count ? a.count : nil) else { return nil }
        let lo = max(0, i - 3)
        return "at \(i): \(a[lo..<min(a.count, i + 2)]) vs \(b[lo..<min(b.count, i + 2)])"
    }

    /// The same script twice on one application gives the same log, entry for entry (identity
    /// and timestamps' bits included); on a second copy of the tree it prints the same.
    @Test(arguments: [UInt64(7), 8, 9])
    func sameScriptGivesTheSameLog(seed: UInt64) {
        let (app, script) = replayRun(seed: seed)
        let first = Array(app.replay(script))
        app.advanceTime(to: app.currentTime + 10)  // let every deadline run: the app is idle
        #expect(app.pendingDeadlineCount == 0)
        let second = Array(app.replay(script))
        #expect(first.count > 500, "seed \(seed)")
        #expect(Set(first.map(\.kind)) == [.delivered, .forwarded, .dropped, .ignored, .held], "seed \(seed)")
        // Report the first difference, not two thousand entries.
        #expect(firstDifference(first, second) == nil, "seed \(seed)")
        #expect(first.map(\.timestamp.bitPattern) == second.map(\.timestamp.bitPattern))
        #expect(app.refusedStepCount == 0)
        #expect(zip(first, first.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })  // in time order
        let (copy, sameScript) = replayRun(seed: seed)
        let third = copy.replay(sameScript)
        #expect(firstDifference(third.map(\.description), first.map(\.description)) == nil, "seed \(seed)")
        #expect(third.map(\.responder) != first.map(\.responder))  // other objects
    }

    /// A replay on an application with a touch still down does not restart the clock: its
    /// earlier steps are refused.
    @Test func replayOnABusyApplicationRefusesEarlierSteps() throws {
        let trace = Trace()
        let (app, _, _, _, _) = screen(trace)
        app.router.interceptor = nil
        let script = try TouchScript(csv: "0,1,began,10,10\n0.1,1,ended,10,10")
        _ = app.replay(script)
        app.injectTouches([change(5, .began, 10, 1)])
        let log = app.replay(script)
        #expect(log.allSatisfy { $0.kind == .dropped })
        #expect(app.refusedStepCount == 2)
        app.injectTouches([change(5, .ended, 10, 2)])
        #expect(app.replay(script).map(\.kind) == [.delivered, .delivered])
        #expect(app.currentTime == 0.1)
    }
}
