@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// What the replay's speed-ups reuse from step to step (the event, the one-touch sets, the
/// deadline queue's slots, the scroll view's tick action) must never show: what a handler keeps
/// stays as it was, a stale token cancels nothing, and nothing is kept alive by the reuse.
@Suite struct ReplayReuseTests {
    /// A view that keeps every event and touch set it is given.
    final class KeepingView: View {
        var kept: [(event: HitTestKit.Event?, touches: Set<Touch>, time: Double?)] = []
        override func touchesBegan(_ t: Set<Touch>, with e: HitTestKit.Event?) { kept.append((e, t, e?.timestamp)) }
        override func touchesMoved(_ t: Set<Touch>, with e: HitTestKit.Event?) { kept.append((e, t, e?.timestamp)) }
        override func touchesEnded(_ t: Set<Touch>, with e: HitTestKit.Event?) { kept.append((e, t, e?.timestamp)) }
    }

    /// A recognizer that keeps the sets it is given, with the touch identifiers they held then.
    final class KeepingRecognizer: GestureRecognizer {
        var kept: [(set: Set<Touch>, ids: [Int])] = []
        override func touchesBegan(_ t: Set<Touch>, with e: HitTestKit.Event) { kept.append((t, t.map(\.identifier))) }
        override func touchesMoved(_ t: Set<Touch>, with e: HitTestKit.Event) { kept.append((t, t.map(\.identifier))) }
        override func touchesEnded(_ t: Set<Touch>, with e: HitTestKit.Event) { kept.append((t, t.map(\.identifier))) }
    }

    @Test func eventsAndSetsAHandlerKeepsStayAsTheyWere() {
        let (app, window) = TestScenes.screen()
        let view = KeepingView(frame: window.bounds)
        window.addSubview(view)
        for (id, t) in [(1, 0.0), (2, 1.0), (3, 2.0)] {
            app.injectTouches([TouchChange(id: id, phase: .began, location: Point(x: 10, y: 10), timestamp: t)])
            app.injectTouches([TouchChange(id: id, phase: .moved, location: Point(x: 20, y: 10), timestamp: t + 0.1)])
            app.injectTouches([TouchChange(id: id, phase: .ended, location: Point(x: 20, y: 10), timestamp: t + 0.2)])
        }
        #expect(view.kept.count == 9)
        for (i, k) in view.kept.enumerated() {
            let id = i / 3 + 1
            #expect(k.touches.map(\.identifier) == [id])
            #expect(k.event?.timestamp == k.time)
            #expect(k.event?.allTouches?.map(\.identifier) == [id])
            #expect(k.event?.application === app)
        }
        // Every kept event is its own object.
        let ids = Set(view.kept.compactMap { $0.event.map(ObjectIdentifier.init) })
        #expect(ids.count == 9)
    }

    @Test func setsARecognizerKeepsStayAsTheyWere() {
        let (app, window) = TestScenes.screen()
        let g = KeepingRecognizer()
        window.addGestureRecognizer(g)
        for (id, t) in [(1, 0.0), (2, 1.0)] {
            app.injectTouches([TouchChange(id: id, phase: .began, location: Point(x: 10, y: 10), timestamp: t)])
            app.injectTouches([TouchChange(id: id, phase: .moved, location: Point(x: 20, y: 10), timestamp: t + 0.1)])
            app.injectTouches([TouchChange(id: id, phase: .ended, location: Point(x: 20, y: 10), timestamp: t + 0.2)])
        }
        #expect(g.kept.map(\.ids) == [[1], [1], [1], [2], [2], [2]])
        #expect(g.kept.allSatisfy { $0.set.map(\.identifier) == $0.ids })
    }

    /// The application keeps its last event for reuse: that must not keep the application, its
    /// touches or their views alive.
    @Test func reuseKeepsNothingAlive() {
        weak var weakApp: Application?
        weak var weakView: View?
        do {
            let (app, window) = TestScenes.screen()
            weakApp = app
            do {
                let view = View(frame: window.bounds)
                weakView = view
                window.addSubview(view)
                app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 0)])
                app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 10, y: 10), timestamp: 0.1)])
                view.removeFromSuperview()
            }
            #expect(weakView == nil)  // the ended touch (and so its view) is not held by the kept event
        }
        #expect(weakApp == nil)
    }

    @Test func aTokenWhoseSlotWasReusedCancelsNothing() {
        var queue = DeadlineQueue()
        var ran: [String] = []
        let a = queue.schedule(at: 1) { ran.append("a") }
        if let (_, action) = queue.popDue(through: 1) { action() }
        let b = queue.schedule(at: 2) { ran.append("b") }  // takes a's slot
        #expect(a.slot == b.slot && a != b)
        let stale = queue.cancel(a)
        #expect(!stale)
        #expect(queue.count == 1)
        if let (_, action) = queue.popDue(through: 2) { action() }
        #expect(ran == ["a", "b"])
        // A cancelled deadline's slot is reused; the old entry never runs.
        let c = queue.schedule(at: 3) { ran.append("c") }
        let cancelled = queue.cancel(c)
        #expect(cancelled)
        let d = queue.schedule(at: 3) { ran.append("d") }
        #expect(c.slot == d.slot)
        while let (_, action) = queue.popDue(through: 9) { action() }
        #expect(ran == ["a", "b", "d"])
        #expect(queue.isEmpty)
    }

    /// A scroll view let go of while it decelerates: its pending tick runs as a no-op, and its
    /// recognizers, kept by someone else, do nothing.
    @Test func aScrollViewReleasedMidDecelerationLeavesHarmlessLeftovers() {
        let (app, window) = TestScenes.screen()
        weak var weakScroll: ScrollView?
        var pan: PanGestureRecognizer?
        do {
            let scroll = ScrollView(frame: window.bounds)
            scroll.contentSize = Size(width: 320, height: 5000)
            window.addSubview(scroll)
            weakScroll = scroll
            pan = scroll.panGestureRecognizer
            app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 100, y: 400), timestamp: 0)])
            app.injectTouches([TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 380), timestamp: 0.01)])
            app.injectTouches([TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 340), timestamp: 0.02)])
            app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 100, y: 300), timestamp: 0.03)])
            #expect(scroll.isDecelerating)
            #expect(app.pendingDeadlineCount == 1)
            scroll.removeFromSuperview()
        }
        #expect(weakScroll == nil)
        #expect(app.pendingDeadlineCount == 1)  // the tick is still due, as with a weak reference
        app.advanceTime(to: 5)
        #expect(app.pendingDeadlineCount == 0)
        #expect(pan?.view == nil)
        pan?.runActions()  // its action finds no scroll view and does nothing
        #expect(pan?.state == .possible)
    }

    /// The scroll log's text, built byte by byte, is the interpolation's.
    @Test(arguments: [UInt64(1), 2])
    func offsetTextIsTheInterpolatedText(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var values: [Double] = [0, -0.0, 1, -1, 0.1 + 0.2, 1e-7, 123456789.125, 1e16, -1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for _ in 0..<500 { values.append(Double.random(in: -5000...5000, using: &rng)) }
        for _ in 0..<100 { values.append(Double(Int.random(in: -3000...3000, using: &rng)) / 4) }
        for x in values {
            let y = values[Int.random(in: 0..<values.count, using: &rng)]
            let p = Point(x: x, y: y)
            #expect(ScrollView.offsetText(p) == "contentOffset \(p)")
        }
    }
}
