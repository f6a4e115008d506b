@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// The deadline queue and the clock (SEMANTICS G1, API.md "Simulated time").
@Suite struct SimulatedTimeTests {
    func change(_ id: Int, _ phase: Touch.Phase, _ t: Double, x: Double = 10, y: Double = 10) -> TouchChange {
        TouchChange(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t)
    }

    /// One tracing view filling a 320 x 480 window.
    func screen(_ trace: Trace) -> (Application, TracingView) {
        let (app, _, view) = TracingScreens.one(trace)
        return (app, view)
    }

    // MARK: - The queue alone

    @Test func deadlineQueuePopsByTimeThenSequence() {
        var queue = DeadlineQueue()
        var ran: [String] = []
        let plan: [(Double, String)] = [(3, "c"), (1, "a1"), (2, "b1"), (1, "a2"), (2, "b2"), (1, "a3"), (-1, "first")]
        for (time, name) in plan { queue.schedule(at: time) { ran.append(name) } }
        #expect(queue.count == plan.count)
        let first = queue.nextTime()
        #expect(first == -1)
        let early = queue.popDue(through: -2)
        #expect(early == nil)
        var times: [Double] = []
        while let (time, action) = queue.popDue(through: 2.5) {
            times.append(time)
            action()
        }
        #expect(ran == ["first", "a1", "a2", "a3", "b1", "b2"])
        #expect(times == [-1, 1, 1, 1, 2, 2])
        let next = queue.nextTime()
        #expect(queue.count == 1 && next == 3)
    }

    /// Many deadlines, most cancelled (the heap compacts): the rest still come out in
    /// (time, sequence) order.
    @Test(arguments: [UInt64(1), 2, 3])
    func deadlineQueueSurvivesMassCancellation(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var queue = DeadlineQueue()
        var ran: [Int] = []
        var tokens: [(token: DeadlineToken, time: Double, index: Int)] = []
        for i in 0..<2000 {
            let time = Double(Int.random(in: 0..<50, using: &rng))  // many equal times
            tokens.append((queue.schedule(at: time) { ran.append(i) }, time, i))
        }
        var kept: [(time: Double, index: Int)] = []
        for entry in tokens {
            if rng.chance(0.85) {
                let once = queue.cancel(entry.token)
                let twice = queue.cancel(entry.token)  // a second cancel does nothing
                #expect(once && !twice)
            } else {
                kept.append((entry.time, entry.index))
            }
        }
        #expect(queue.count == kept.count)
        while let (_, action) = queue.popDue(through: 100) { action() }
        let expected = kept.sorted { ($0.time, $0.index) < ($1.time, $1.index) }.map(\.index)
        #expect(ran == expected, "seed \(seed)")
        #expect(queue.isEmpty)
        let afterRun = queue.cancel(tokens[0].token)
        #expect(!afterRun)
    }

    // MARK: - The application's clock

    @Test func advanceTimeRunsDeadlinesInTimeOrderAtTheirTimes() {
        let trace = Trace()
        let (app, _) = screen(trace)
        for (time, name) in [(0.3, "c"), (0.1, "a"), (0.2, "b"), (0.1, "a'"), (0.9, "late")] {
            app.schedule(at: time) { trace.lines.append("\(name)@\(app.currentTime)") }
        }
        app.advanceTime(to: 0.5)
        #expect(trace.lines == ["a@0.1", "a'@0.1", "b@0.2", "c@0.3"])
        #expect(app.currentTime == 0.5)
        #expect(app.pendingDeadlineCount == 1)
        // Earlier than now: runs nothing, the clock stays.
        app.advanceTime(to: 0.2)
        #expect(app.currentTime == 0.5 && app.pendingDeadlineCount == 1)
        app.advanceTime(to: 0.9)  // a deadline exactly at the target runs
        #expect(trace.lines.last == "late@0.9" && app.pendingDeadlineCount == 0)
    }

    /// A deadline scheduled by a deadline at the same time runs after the ones already there;
    /// one scheduled later within the advanced span runs within the same advance.
    @Test func deadlinesScheduledByDeadlines() {
        let trace = Trace()
        let (app, _) = screen(trace)
        app.schedule(at: 1) {
            trace.lines.append("x")
            app.schedule(at: 1) { trace.lines.append("x-now") }
            app.schedule(at: 0) { trace.lines.append("x-past@\(app.currentTime)") }  // the past means now
            app.schedule(at: 1.5) { trace.lines.append("x-later@\(app.currentTime)") }
            app.schedule(at: 3) { trace.lines.append("x-beyond") }
        }
        app.schedule(at: 1) { trace.lines.append("y") }
        app.advanceTime(to: 2)
        #expect(trace.lines == ["x", "y", "x-now", "x-past@1.0", "x-later@1.5"])
        #expect(app.pendingDeadlineCount == 1)
    }

    /// G1: an input step at t runs every deadline ≤ t first (one exactly at t too), then the
    /// step; later deadlines wait.
    @Test func inputStepRunsDueDeadlinesFirst() {
        let trace = Trace()
        let (app, _) = screen(trace)
        app.schedule(at: 1.5) { trace.lines.append("d1.5") }
        app.schedule(at: 1.0) { trace.lines.append("d1.0") }
        app.schedule(at: 0.5) { trace.lines.append("d0.5") }
        app.injectTouches([change(1, .began, 0)])
        app.injectTouches([change(1, .moved, 1.0)])
        #expect(trace.lines == ["began [1]", "d0.5", "d1.0", "moved [1]"])
        #expect(app.currentTime == 1.0)
        app.advanceTime(to: 2)
        app.injectTouches([change(1, .ended, 2)])
        #expect(trace.lines == ["began [1]", "d0.5", "d1.0", "moved [1]", "d1.5", "ended [1]"])
    }

    /// What a step schedules for its own time (or the past) runs before `injectTouches`
    /// returns; later deadlines wait for input or `advanceTime`.
    @Test func deadlinesScheduledDuringAStep() {
        let trace = Trace()
        let (app, view) = screen(trace)
        final class Scheduler: View {
            weak var app: Application?
            var trace: Trace?
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
                guard let app, let trace else { return }
                trace.lines.append("began")
                app.schedule(at: app.currentTime) { trace.lines.append("now") }
                app.schedule(at: app.currentTime - 1) { trace.lines.append("past") }
                app.schedule(at: app.currentTime + 0.5) { trace.lines.append("later@\(app.currentTime)") }
            }
        }
        let scheduler = Scheduler(frame: view.bounds)
        scheduler.app = app
        scheduler.trace = trace
        view.addSubview(scheduler)
        app.injectTouches([change(1, .began, 2)])
        #expect(trace.lines == ["began", "now", "past"])
        #expect(app.pendingDeadlineCount == 1)
        app.injectTouches([change(1, .ended, 2.75)])
        // (The scheduler forwards `ended` to the tracing view behind it.)
        #expect(trace.lines == ["began", "now", "past", "later@2.5", "ended [1]"])
    }

    @Test func cancelledDeadlinesNeverRun() {
        let trace = Trace()
        let (app, _) = screen(trace)
        let a = app.schedule(at: 1) { trace.lines.append("a") }
        let b = app.schedule(at: 1) { trace.lines.append("b") }
        var c: DeadlineToken?
        app.schedule(at: 0.5) {
            trace.lines.append("canceller")
            #expect(app.cancel(c!))  // a deadline can cancel another
        }
        c = app.schedule(at: 2) { trace.lines.append("c") }
        #expect(app.cancel(b))
        #expect(!app.cancel(b))
        #expect(app.pendingDeadlineCount == 3)
        app.injectTouches([change(1, .began, 1)])
        app.advanceTime(to: 3)
        #expect(trace.lines == ["canceller", "a", "began [1]"])
        #expect(!app.cancel(a))  // already ran
        #expect(app.pendingDeadlineCount == 0)
    }

    /// [ours] A step earlier than `currentTime` is refused whole and logged; a step at the
    /// current time is not earlier and goes through.
    @Test func earlierStepIsRefusedAndLogged() {
        let trace = Trace()
        let (app, _) = screen(trace)
        app.injectTouches([change(1, .began, 1)])
        app.injectTouches([change(1, .ended, 0.5), change(2, .began, 1.5)])
        #expect(trace.lines == ["began [1]"])
        #expect(app.refusedStepCount == 1)
        #expect(app.currentTime == 1)
        let refused = app.deliveryLog.suffix(2)
        #expect(refused.allSatisfy { $0.kind == .dropped && $0.isAbout(app) })
        #expect(refused.map(\.touch) == [1, 2])
        #expect(refused.first?.reason == "timestamp 0.5 is earlier than the current time 1.0")
        app.injectTouches([change(1, .ended, 1)])  // equal is fine: touch 1 is still down
        #expect(trace.lines == ["began [1]", "ended [1]"])
        app.advanceTime(to: 4)
        app.injectTouches([change(3, .began, 3.9)])
        #expect(app.refusedStepCount == 2 && trace.lines.count == 2)
    }

    /// [ours] The first input may be at any time (negative too); `currentTime` is 0 before it.
    @Test func firstInputSetsTheClock() {
        let trace = Trace()
        let (app, _) = screen(trace)
        #expect(app.currentTime == 0)
        app.injectTouches([change(1, .began, -5)])
        #expect(app.currentTime == -5 && app.refusedStepCount == 0)
        let (other, _) = screen(trace)
        other.advanceTime(to: 100)
        #expect(other.currentTime == 100)
        other.injectTouches([change(1, .began, 99)])
        #expect(other.refusedStepCount == 1)
    }

    /// [ours] NaN and infinite times stop the program with a message: there is no right
    /// answer to give them.
    @Test func nonFiniteTimesStop() async {
        await #expect(processExitsWith: .failure) {
            Application().injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 1, y: 1), timestamp: .nan)])
        }
        await #expect(processExitsWith: .failure) {
            Application().injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 1, y: 1), timestamp: .infinity)])
        }
        await #expect(processExitsWith: .failure) {
            Application().advanceTime(to: .nan)
        }
        await #expect(processExitsWith: .failure) {
            Application().advanceTime(to: -.infinity)
        }
        await #expect(processExitsWith: .failure) {
            Application().schedule(at: .nan) {}
        }
    }

    /// `advanceTime` from a touch handler is queued like input and runs after the step.
    @Test func advanceTimeDuringDeliveryRunsAfterIt() {
        let trace = Trace()
        let (app, view) = screen(trace)
        final class Advancer: View {
            weak var app: Application?
            var trace: Trace?
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
                app?.advanceTime(to: 5)
                trace?.lines.append("after advance, time \(app!.currentTime)")
            }
        }
        let advancer = Advancer(frame: view.bounds)
        advancer.app = app
        advancer.trace = trace
        view.addSubview(advancer)
        app.schedule(at: 3) { trace.lines.append("d3") }
        app.injectTouches([change(1, .began, 1)])
        #expect(trace.lines == ["after advance, time 1.0", "d3"])
        #expect(app.currentTime == 5)
    }
}
