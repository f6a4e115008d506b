import Foundation
import HitTestKit
import HitTestSampleScenes

/// The replay benchmark with gesture recognizers: the `app` scene with a tap
/// recognizer on each cell and a pan recognizer on the table, then with the table as a
/// ScrollView and a Button in each cell, fed taps, drags and flicks; input steps per second
/// with the delivery log on and off, beside the same replay with no recognizers.
extension Bench {
    /// How the scene is dressed for one measurement.
    struct GestureDressing: Sendable {
        var name: String
        var dress: @Sendable (SampleScenes.Scene) -> Void
    }

    static let gestureDressings: [GestureDressing] = [
        GestureDressing(name: "no recognizers") { _ in },
        GestureDressing(name: "tap per cell + pan on table") { scene in
            for v in scene.views {
                guard let id = v.accessibilityIdentifier else { continue }
                if id == "table" {
                    v.addGestureRecognizer(PanGestureRecognizer())
                } else if id.hasPrefix("cell-"), !id.dropFirst(5).contains("-") {
                    v.addGestureRecognizer(TapGestureRecognizer())
                }
            }
        },
        // The scroll-view scene: the table is a ScrollView (its own pan and content-touch
        // delay), each cell has a tap recognizer and a Button (over the cell's button view).
        GestureDressing(name: "table as ScrollView + Button and tap per cell") { scene in
            guard let table = scene.views.first(where: { $0.accessibilityIdentifier == "table" }),
                let window = table.superview, let index = window.subviews.firstIndex(where: { $0 === table })
            else { return }
            let scroll = ScrollView(frame: table.frame)
            scroll.accessibilityIdentifier = "table"
            scroll.contentSize = Size(width: table.bounds.size.width, height: table.subviews.map { $0.frame.maxY }.max() ?? 0)
            scroll.contentOffset = table.bounds.origin
            for cell in table.subviews { scroll.addSubview(cell) }
            table.removeFromSuperview()
            window.insertSubview(scroll, at: index)
            for v in scene.views {
                guard let id = v.accessibilityIdentifier, id.hasPrefix("cell-") else { continue }
                if !id.dropFirst(5).contains("-") {
                    v.addGestureRecognizer(TapGestureRecognizer())
                } else if id.hasSuffix("-button") {
                    let button = Button(frame: Rect(origin: .zero, size: v.bounds.size))
                    button.addAction(for: .primaryActionTriggered) { _, _ in }
                    v.addSubview(button)
                }
            }
        },
    ]

    /// A script of `touches` touches, one finger at a time: 50 % taps, 30 % drags (8 moves of
    /// 16 ms), 20 % flicks (4 fast moves); touches 0.4 s apart so that taps do not chain.
    static func gestureScript(touches: Int) -> (TouchScript, steps: Int) {
        var rng = SplitMix64(seed: 12)
        var steps: [[TouchChange]] = []
        var t = 0.0
        for id in 0..<touches {
            let p = Point(x: 20 + rng.unit() * 350, y: 100 + rng.unit() * 640)
            steps.append([TouchChange(id: id, phase: .began, location: p, timestamp: t)])
            let kind = rng.unit()
            var q = p
            if kind >= 0.5 {
                let flick = kind >= 0.8
                let moves = flick ? 4 : 8
                let dy = (flick ? 40.0 : 6.0) * (rng.unit() < 0.5 ? -1 : 1)
                for _ in 0..<moves {
                    t += 0.016
                    q = Point(x: q.x + 1, y: q.y + dy)
                    steps.append([TouchChange(id: id, phase: .moved, location: q, timestamp: t)])
                }
            }
            t += 0.016
            steps.append([TouchChange(id: id, phase: .ended, location: q, timestamp: t)])
            t += 0.4
        }
        return (TouchScript(steps: steps, advancingTo: t + 1), steps.count)
    }

    /// This thread's CPU time in seconds: steps per CPU second is what one core does, whatever
    /// else the machine runs.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Runs every dressing with the log on and off and reports input steps per second.
    ///
    /// An input step is one step of the script: one `injectTouches` call (a touch's began, one
    /// move, its lift), what a fuzzer feeds. The deadlines the clock passes on the way (a
    /// scroll view's deceleration ticks, the content-touch delay, the final `advanceTime`) run
    /// inside those calls and are not counted as steps: they are work per step.
    func gestureReplayBenchmark(_ options: Options) {
        guard options.scenes.contains("app") else { return }
        let touches = options.quick ? 20_000 : 100_000
        progress("gesture replay: \(touches) touches over app")
        let (script, steps) = Bench.gestureScript(touches: touches)
        // --replay-case N[:on|:off]: one dressing (1-based), one log setting.
        var only: Int?
        var logSettings = [true, false]
        if let c = options.replayCase {
            let parts = c.split(separator: ":")
            guard let n = Int(parts[0]), Bench.gestureDressings.indices.contains(n - 1), parts.count <= 2 else {
                fail("--replay-case takes N[:on|:off], N in 1...\(Bench.gestureDressings.count)")
            }
            only = n - 1
            if parts.count == 2 {
                switch parts[1] {
                case "on": logSettings = [true]
                case "off": logSettings = [false]
                default: fail("--replay-case takes N[:on|:off]")
                }
            }
        }
        var cells: [String] = []
        for (n, dressing) in Bench.gestureDressings.enumerated() where only == nil || only == n {
            // A fresh scene and application for every run (outside the timing): a replay
            // leaves state behind (a scrolled table, a deceleration still running), and a
            // second replay of the same script on it would start in the past and be refused.
            func fresh(logging: Bool) -> Application {
                let scene = SampleScenes.app(cells: 200)
                dressing.dress(scene)
                let app = Application()
                app.addWindow(scene.root)
                app.isLoggingDeliveries = logging
                return app
            }
            var figures: [String] = []
            for logging in logSettings {
                var cpu: [Double] = []
                var wall: [Double] = []
                for _ in 0..<max(1, options.reps) {
                    let app = fresh(logging: logging)
                    let w0 = DispatchTime.now().uptimeNanoseconds
                    let c0 = Bench.threadCPUSeconds()
                    sink &+= app.replay(script).count
                    cpu.append(Bench.threadCPUSeconds() - c0)
                    wall.append(Double(DispatchTime.now().uptimeNanoseconds - w0) * 1e-9)
                    sink &+= app.deliveryLog.count
                }
                let cpuSeconds = cpu.sorted()[cpu.count / 2]
                let seconds = wall.sorted()[wall.count / 2]
                figures.append(
                    "\(fmt(Double(steps) / cpuSeconds / 1e6)) M steps/s log \(logging ? "on" : "off") "
                        + "(CPU time; \(fmt(Double(steps) / seconds / 1e6)) wall; CPU \(fmt(cpuSeconds * 1e3)) ms)")
            }
            // What the replay did (one more run with the log on): a fast figure must not come
            // from touches that reach nothing. (HITTEST_REPLAY_CHECK=0 skips it, for counting
            // instructions of the measured runs alone.)
            if ProcessInfo.processInfo.environment["HITTEST_REPLAY_CHECK"] == "0" {
                cells.append("\(dressing.name): " + figures.joined(separator: ", "))
                continue
            }
            let log = fresh(logging: true).replay(script)
            let kinds: [TouchDelivery.Kind] = [.delivered, .recognizer, .action, .controlEvent, .scrolled]
            let counts = kinds.map { k in "\(log.lazy.filter { $0.kind == k }.count) \(k.rawValue)" }
            figures.append("log of one run: " + counts.joined(separator: ", "))
            // HITTEST_REPLAY_LOG=FILE: append that run's whole log to FILE (to compare the
            // logs of two builds: a speed-up must not change a single entry).
            if let path = ProcessInfo.processInfo.environment["HITTEST_REPLAY_LOG"] {
                var text = "# \(dressing.name)\n"
                for entry in log { text += "\(entry)\n" }
                if let h = FileHandle(forWritingAtPath: path) {
                    h.seekToEndOfFile()
                    h.write(Data(text.utf8))
                    h.closeFile()
                } else {
                    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
                }
            }
            cells.append("\(dressing.name): " + figures.joined(separator: ", "))
        }
        extras.append("gesture replay (app, \(touches) taps/drags/flicks, \(steps) input steps): " + cells.joined(separator: "; "))
    }

    /// `--replay`: only the gesture replay table, printed; then exits.
    func replayOnly(_ options: Options) -> Never {
        var options = options
        if !options.scenes.contains("app") { options.scenes.append("app") }
        gestureReplayBenchmark(options)
        emit("hittest-bench --replay — median of \(options.reps) runs, each on a fresh application")
        for var line in extras {
            for d in Bench.gestureDressings { line = line.replacingOccurrences(of: "; \(d.name): ", with: "\n  \(d.name): ") }
            emit(line.replacingOccurrences(of: "input steps): ", with: "input steps):\n  "))
        }
        finish(0)
    }
}
