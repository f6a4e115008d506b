import HitTestCore

/// The end of the responder chain and the router of input (`UIApplication`), as an ordinary
/// object: several may coexist, each with its own windows, clock and delivery log.
///
/// Input comes in through `injectTouches(_:)` (or `replay(_:)`) and `advanceTime(to:)`, one
/// step at a time, in screen coordinates. Each is queued and processed in order; one made
/// while another is being processed (from a touch handler or a deadline) runs after it.
///
/// A step goes through a pipeline: the `TouchTracker` (touches down, hit-tested and fixed at
/// `.began`, UIKit's began rules), the `TouchRouter` (what each view receives; the seam where
/// gesture recognizers will look first and hold or cancel delivery) and the `Dispatcher` (the
/// touch method calls). Time is simulated (`currentTime`): deadlines wait in a queue and run
/// when input or `advanceTime(to:)` passes them.
public final class Application: Responder {
    /// The application's mutable fields, held in one object (`ApplicationStorage`,
    /// HitTestInput/Storage.swift) and read and written in place there.
    let stored = ApplicationStorage()

    enum Input {
        case touches([TouchChange])
        case advance(Double)
    }


    package let recorder: DeliveryRecorder
    let forwarder = ChainForwarder()
    // The pipeline's stages are constants (a lazy property cost a test and a retain at every
    // access, several times per step). Each holds the log strongly (it holds nothing back) and
    // refers back to the application `unowned` (Storage.swift): set here in `init`, cleared in
    // `deinit`; the application is the only owner that hands them work, so the reference is
    // set exactly while the application lives.
    let tracker: TouchTracker
    let router: TouchRouter

    /// Creates an application with no windows, at time 0.
    public override init() {
        let recorder = DeliveryRecorder()
        self.recorder = recorder
        tracker = TouchTracker(recorder: recorder)
        router = TouchRouter(recorder: recorder)
        gestureEngine = GestureEngine(recorder: recorder)
        super.init()
        tracker.application = self
        router.application = self
        gestureEngine.application = self
        gestureEngine.isAttached = true
        gestureEngine.router = router
        router.interceptor = gestureEngine
    }

    deinit {
        // Windows, the stages and the engine refer to the application without holding it.
        for window in stored.windows where window.applicationResponder === self { window.application = nil }
        gestureEngine.detach()
        router.interceptor = nil
        tracker.application = nil
        router.application = nil
    }

    // MARK: - Gesture recognizers (Gestures/GestureEngine.swift)

    /// The arbitration between recognizers and views: the router's interceptor.
    let gestureEngine: GestureEngine

    // MARK: - Windows

    /// The windows, back to front: by `windowLevel`, then in the order they were shown.
    public var windows: [Window] { stored.windows }

    /// Shows `window` in front of the other windows of its level. A window shown by another
    /// application leaves it (a window belongs to one application at a time).
    public func addWindow(_ window: Window) {
        if let other = window.application, other !== self { other.removeWindow(window) }
        removeWindow(window)
        window.application = self
        let index = stored.windows.lastIndex { $0.windowLevel <= window.windowLevel }.map { $0 + 1 } ?? 0
        stored.windows.insert(window, at: index)
    }

    /// Stops showing `window`.
    public func removeWindow(_ window: Window) {
        guard let i = stored.windows.firstIndex(where: { $0 === window }) else { return }
        stored.windows.remove(at: i)
        window.application = nil
    }

    // MARK: - The log

    /// Whether deliveries are recorded in `deliveryLog` (default true).
    public var isLoggingDeliveries: Bool {
        get { recorder.isEnabled }
        set { recorder.isEnabled = newValue }
    }

    /// Every delivery decision since the log was last cleared, in order.
    public var deliveryLog: [TouchDelivery] { recorder.entries }

    /// Empties `deliveryLog`.
    public func clearDeliveryLog() { recorder.entries.removeAll(keepingCapacity: true) }

    // MARK: - Input

    /// Routes the touches of `event` to their windows, front to back (`sendEvent:`); each
    /// window's `sendEvent(_:)` hands them to the router.
    public func sendEvent(_ event: Event) {
        // The windows are lent unretained: the local copy of the list holds them all.
        let windows = stored.windows
        windows.withUnsafeBufferPointer { buffer in
            for k in buffer.indices.reversed() {
                withBorrowed(buffer[k]) { window in
                    if event.touchList.contains(where: { $0.window === window }) { window.sendEvent(event) }
                }
            }
        }
        withExtendedLifetime(windows) {}
    }

    /// One input step: the touches that changed, in screen coordinates. A touch that begins is
    /// hit-tested (all the new touches of a step in one bulk hit test per window, front to
    /// back) and keeps that view for its life; its later phases go there even outside it.
    ///
    /// UIKit's rules apply at `.began` (SEMANTICS 8): a view that is not
    /// `isMultipleTouchEnabled` gets only the first touch of a sequence that starts in it;
    /// while an `isExclusiveTouch` view tracks a touch, no other view in the window gets new
    /// touches, and an exclusive view gets no new touch while another view tracks one. A touch
    /// whose view has left its window gets one `touchesCancelled` at the next step, and nothing
    /// more. Touches kept from their view this way are logged as `.ignored`.
    ///
    /// Time (SEMANTICS G1): the step happens at its latest timestamp t. First every deadline
    /// at or before t runs, in time order; then the step; then any deadline that became due at
    /// t during it. A step with a timestamp earlier than `currentTime` is refused: nothing of
    /// it is processed, each of its changes is logged as `.dropped` with the reason, and
    /// `refusedStepCount` counts it. [ours]
    ///
    /// - Precondition: every timestamp is finite (NaN or an infinity stops the program with a
    ///   message naming the touch: there is no right time to give it). [ours]
    public func injectTouches(_ changes: [TouchChange]) {
        for change in changes {
            precondition(
                change.timestamp.isFinite,
                "Application.injectTouches: touch \(change.id) has timestamp \(change.timestamp); timestamps must be finite")
        }
        enqueue(.touches(changes))
    }

    /// Replays a script entry by entry (input steps and clock advances) and returns what it
    /// delivered (the log entries it added).
    ///
    /// A script that starts before `currentTime` on an idle application (no touch down, no
    /// deadline pending) starts a new timeline: the clock restarts at the script's first
    /// time and the tap count history is forgotten, so replaying one script twice gives the
    /// same log twice. On a busy application such steps are refused like any late input.
    /// [ours]
    public func replay(_ script: TouchScript) -> ArraySlice<TouchDelivery> {
        let start = recorder.entries.count
        if !stored.processing, stored.clockStarted, tracker.isIdle, stored.deadlines.isEmpty,
            let first = script.entries.lazy.compactMap(\.time).first, first < currentTime
        {
            stored.clockStarted = false
            currentTime = 0
            tracker.forgetTaps()
        }
        for entry in script.entries {
            switch entry {
            case .touches(let step): injectTouches(step)
            case .advanceTime(let time): advanceTime(to: time)
            }
        }
        return recorder.entries[start...]
    }

    // MARK: - Simulated time

    /// The simulated time in seconds: the latest timestamp seen (input) or advanced to
    /// (`advanceTime(to:)`); while a deadline runs, its time. Never the wall clock. 0 before
    /// the first input, which may be at any time.
    public private(set) var currentTime: Double {
        get { stored.currentTime }
        set {
            stored.currentTime = newValue
            recorder.now = stored.currentTime
        }
    }

    /// How many input steps were refused because they were earlier than `currentTime`.
    public private(set) var refusedStepCount = 0

    /// Moves the clock to `timestamp`, running every deadline at or before it in time order
    /// (equal times in the order they were scheduled), each with `currentTime` at its time.
    /// A time at or before `currentTime` runs only what is already due and leaves the clock
    /// where it is: time never goes back. [ours]
    ///
    /// - Precondition: `timestamp` is finite (an infinite advance would never end). [ours]
    public func advanceTime(to timestamp: Double) {
        precondition(timestamp.isFinite, "Application.advanceTime(to:): \(timestamp) is not a finite time")
        enqueue(.advance(timestamp))
    }

    /// Runs `action` when the clock reaches `time`: before the first input step at or after
    /// it, or within `advanceTime(to:)`. A time before `currentTime` means now: it runs at
    /// `currentTime`, after what is already due. Deadlines at equal times run in the order
    /// they were scheduled. [ours]
    ///
    /// - Precondition: `time` is finite.
    @discardableResult
    func schedule(at time: Double, _ action: @escaping () -> Void) -> DeadlineToken {
        precondition(time.isFinite, "Application.schedule(at:): \(time) is not a finite time")
        return stored.deadlines.schedule(at: stored.clockStarted ? max(time, currentTime) : time, action)
    }

    /// Schedules the deadline whose action is running now (`token`) again at `time`, with the
    /// same action: the same as `schedule(at: time, sameAction)` (a new sequence number, so the
    /// same order), without storing the action again. Nil when `token` is not running now.
    func rescheduleRunning(_ token: DeadlineToken, at time: Double) -> DeadlineToken? {
        precondition(time.isFinite, "Application.schedule(at:): \(time) is not a finite time")
        return stored.deadlines.rearm(token, at: stored.clockStarted ? max(time, currentTime) : time)
    }

    /// Forgets a pending deadline; returns false when it already ran or was cancelled.
    @discardableResult
    func cancel(_ token: DeadlineToken) -> Bool {
        stored.deadlines.cancel(token)
    }

    /// The number of deadlines waiting.
    var pendingDeadlineCount: Int { stored.deadlines.count }

    // MARK: - Processing

    private func enqueue(_ input: Input) {
        guard !stored.processing else {
            stored.queue.append(input)
            return
        }
        stored.processing = true
        defer { stored.processing = false }
        // The queue is empty here (it is drained before `processing` goes back to false): the
        // input runs at once, without a trip through the queue; what it queues runs after it.
        switch input {
        case .touches(let changes): process(changes)
        case .advance(let time): advance(to: time)
        }
        while stored.queueHead < stored.queue.count {
            let input = stored.queue[stored.queueHead]
            stored.queueHead += 1
            switch input {
            case .touches(let changes): process(changes)
            case .advance(let time): advance(to: time)
            }
        }
        stored.queue.emptyKeepingCapacity()
        stored.queueHead = 0
    }

    private func advance(to time: Double) {
        let target = stored.clockStarted ? max(time, currentTime) : time
        runDeadlines(through: target)
        currentTime = target
        stored.clockStarted = true
        settle()
        layOutWindows()  // Layout: after advanceTime (SEMANTICS 10.8)
    }

    /// One input step; a step with two changes of one touch (a began and an end, or a began
    /// and a move, at one time) is split into consecutive steps, each touch once in each, so
    /// every phase is delivered in order and a began is hit-tested where it happened.
    private func process(_ changes: [TouchChange]) {
        guard changes.count > 1, var cut = firstRepeatedTouch(in: changes[...]) else {
            processStep(changes)
            return
        }
        var start = 0
        while true {
            processStep(Array(changes[start..<cut]))
            start = cut
            guard let next = firstRepeatedTouch(in: changes[start...]) else { break }
            cut = next
        }
        processStep(Array(changes[start...]))
    }

    /// The index of the first change whose touch already changed earlier in `changes`, or nil.
    private func firstRepeatedTouch(in changes: ArraySlice<TouchChange>) -> Int? {
        if changes.count <= 8 {
            for i in changes.indices.dropFirst() where changes[..<i].contains(where: { $0.id == changes[i].id }) { return i }
            return nil
        }
        var seen = Set<Int>(minimumCapacity: changes.count)
        for i in changes.indices where !seen.insert(changes[i].id).inserted { return i }
        return nil
    }

    private func processStep(_ changes: [TouchChange]) {
        guard var time = changes.first?.timestamp else { return }
        for change in changes where change.timestamp > time { time = change.timestamp }
        if stored.clockStarted, let late = changes.first(where: { $0.timestamp < currentTime }) {
            refusedStepCount += 1
            let reason = "timestamp \(late.timestamp) is earlier than the current time \(currentTime)"
            for change in changes {
                recorder.record(.dropped, change.phase, touch: change.id, by: self, reason: reason)
            }
            return
        }
        runDeadlines(through: time)
        currentTime = time
        stored.clockStarted = true
        layOutWindowsUnretained()  // Layout: before the step is hit-tested and delivered (SEMANTICS 10.8)

        var step = tracker.apply(changes, at: time)
        router.watchNewTouches(step.began)
        tracker.markStationary(except: step.changed)
        do {
            // The touches down, and any that changed and are not (every changed touch is down
            // until `retire`, but the list must not depend on it).
            var all = tracker.active
            if step.changed.count <= 8 {
                for touch in step.changed where !all.contains(where: { $0 === touch }) { all.append(touch) }
            } else {
                let down = Set(all.map(ObjectIdentifier.init))
                all.append(contentsOf: step.changed.lazy.filter { !down.contains(ObjectIdentifier($0)) })
            }
            let event = makeEvent(timestamp: time, list: all)
            router.stepWillDeliver(step.changed, event: event)
            if recorder.isEnabled {
                for touch in step.changed where !touch.isDelivered && (touch.phase != .began || touch.route.isWatched) {
                    if let view = touch.view {
                        recorder.record(.ignored, touch.phase, touch: touch.identifier, by: view, reason: touch.ignoredBecause)
                    } else {
                        recorder.record(.dropped, touch.phase, touch: touch.identifier, by: self, reason: touch.ignoredBecause)
                    }
                }
            }
            sendEvent(event)
        }
        // The step's event is kept for the next step, emptied, unless a handler kept it too:
        // then it is the handler's, unchanged, and the next step makes a new one.
        if stored.spareEvent != nil {
            if isKnownUniquelyReferenced(&stored.spareEvent) { stored.spareEvent!.forgetTouches() } else { stored.spareEvent = nil }
        }
        router.flushPending(at: time)
        tracker.retire(step.changed)
        tracker.recycle(&step.changed)
        // What the step scheduled for now runs before it returns.
        runDeadlines(through: time)
        settle()
    }

    /// `layOutWindows()` (each window's layout pass, back to front), the windows lent
    /// unretained: the local copy of the list holds them all, whatever a layout does to
    /// `storedWindows`.
    private func layOutWindowsUnretained() {
        let windows = stored.windows
        windows.withUnsafeBufferPointer { buffer in
            for k in buffer.indices {
                withBorrowed(buffer[k]) { $0.runLayoutPass() }
            }
        }
        withExtendedLifetime(windows) {}
    }


    private func makeEvent(timestamp: Double, list: [Touch]) -> Event {
        if stored.spareEvent != nil, isKnownUniquelyReferenced(&stored.spareEvent) {
            let event = stored.spareEvent!
            event.reuse(timestamp: timestamp, list: list, application: self)
            return event
        }
        let event = Event(timestamp: timestamp, list: list, application: self)
        stored.spareEvent = event
        return event
    }

    private func runDeadlines(through time: Double) {
        // The router once (a lazy property's getter per deadline cost a test and a retain).
        let router = self.router
        while let (due, token, action) = stored.deadlines.takeDue(through: time) {
            if !stored.clockStarted || due > currentTime {
                currentTime = due
                stored.clockStarted = true
            }
            action()
            stored.deadlines.finishRun(token)
            router.flushPending(at: currentTime)
        }
    }

    private func settle() {
        let router = self.router
        if router.interceptor === gestureEngine {
            // The usual interceptor: called directly (no existential copied per step).
            gestureEngine.settle(router: router)
        } else {
            guard let interceptor = router.interceptor else { return }
            interceptor.settle(router: router)
        }
        router.flushPending(at: currentTime)
    }
}

// MARK: - The core's input seams

extension Application: TouchPipeline {
    /// The responder chain's default forwarding from `responder`: logged as `.forwarded` and
    /// passed to `next` (without a stack frame per level of a deep chain: `ChainForwarder`), or
    /// logged as `.dropped` at the end of the chain.
    package func forward(_ phase: Touch.Phase, _ touches: Set<Touch>, with event: Event?, from responder: Responder) {
        guard let next = responder.next else {
            recorder.record(.dropped, phase, touches, by: responder)
            return
        }
        recorder.record(.forwarded, phase, touches, by: responder)
        forwarder.forward(phase, touches, with: event, to: next)
    }

    /// A window's level changed: it moves in front of the other windows of its new level.
    package func windowLevelDidChange(_ window: Window) {
        addWindow(window)
    }

    /// `schedule(at:_:)`, for the core's clock seam.
    package func scheduleDeadline(at time: Double, _ action: @escaping () -> Void) -> ClockDeadline {
        let token = schedule(at: time, action)
        return ClockDeadline(sequence: token.sequence, slot: token.slot)
    }

    /// `cancel(_:)`, for the core's clock seam.
    package func cancelDeadline(_ deadline: ClockDeadline) -> Bool {
        cancel(DeadlineToken(sequence: deadline.sequence, slot: deadline.slot))
    }

    /// An `.animation` entry about `view` (HitTestAnimation's starts and completions).
    package func noteAnimation(about view: View, _ detail: @autoclosure () -> String) {
        recorder.note(.animation, about: view, detail: detail())
    }
}

// MARK: - Layout (the core's layout pass, run by the clock)

extension Application {
    /// The run loop's layout pass: every window lays out what needs it, back to front.
    func layOutWindows() {
        for window in windows { window.runLayoutPass() }
    }
}

// MARK: - Scripted animations

extension Application {
    /// Runs `body` when the clock reaches `time`, on this application's deadline queue: for
    /// scripted animations (a scene's "at time t animate view X") that replays trigger at the
    /// same simulated time every run. A time before `currentTime` means now.
    ///
    /// - Precondition: `time` is finite.
    public func performAnimation(at time: Double, _ body: @escaping () -> Void) {
        schedule(at: time, body)
    }
}
