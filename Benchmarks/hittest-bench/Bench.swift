import Foundation
import HitTestKit
import HitTestSampleScenes
import HitTestReference


let usage = """
    usage: hittest-bench [options]

    Measures hit-testing throughput on deterministic scenes, side by side: the fair walk
    (the seed algorithm written as well as plain Swift makes it: FairWalk, a snapshot of plain
    structs with stored inverse transforms and pre-sorted subviews, no allocation per point),
    the engine's single-point loop, the bulk call on one thread and on all cores, and the
    streaming bound (read two doubles, write one int32 per point). "× fair walk" is against
    the fair walk. The "definition" row is the tests' reference (HitTestReference: obvious,
    not fast; it sorts subviews on every visit and allocates), timed on a sample for scale
    only. Every answer is checked: the fair walk's and the engine's against each other on
    the fair walk's sample, and all against the definition on its sample; a mismatch fails
    the run. Build in release: swift run -c release hittest-bench

    options:
      --quick            a run of about a minute: 100,000 points, 3 repetitions, mutation
                         latency on app-large only
      --scene NAME       only this scene (repeatable; without it the plain run takes every
                         scene below, in this order, and --kernel the list given there)
      --points N         points per set (default 1,000,000)
      --reps N           repetitions per measurement; the median is reported (default 5)
      --csv FILE         also write every row as CSV
      --svg FILE         also write a chart of throughput per scene and method (log scale)
      --kernel           the kernel mode instead: per scene (by default those marked * below),
                         in interleaved rounds in one process, one table: the streaming bound,
                         bulk on 1 thread and on all cores, the single call returning the View
                         after prepareHitTesting(), view.hitTest(p) on a fresh copy of the
                         scene never prepared (after its first \(warmQueries) queries; their cost
                         apart, then that of \(freshPoints) new points, then how many queries pay for its full
                         answer grid and the speed after), the exact walk on the points the answer grid leaves (ns per
                         walked point, per node), the fair walk, the grid's share of points and
                         its memory, and one view a touch reaches moved by 1 pt then a bulk
                         query of \(changePoints) points, beside the same query unchanged (not on
                         deep); one-thread figures in thread CPU time (robust on a shared
                         machine); then the first-query table (see --first-query; not on deep).
                         Every answer is checked against the fair walk (after a change, against
                         the definition walk); a mismatch fails the run
      --write-baseline F with --kernel: write this run's ratios (bulk-1 ÷ stream, single ÷
                         stream, walk ns per node ÷ fair walk ns per view tested, first bulk
                         call after a change at the root ÷ the third, at --points; hitTest with
                         no prepare ÷ stream, change + bulk ÷ the same bulk) to F
      --baseline F       with --kernel: compare against F and exit 1 when a ratio is more
                         than 25% worse (the regression guard; Benchmarks/kernel-baseline.txt)
      --first-query      only the first-query figures (by default on
                         \(firstQueryScenes.joined(separator: ", ")))
                         after a change at the root: three bulk calls of the same points on
                         one thread (the first prepares what it needs), then
                         prepareHitTesting() (everything built) and a bulk call (thread CPU time)
      --solver           only the constraint solver (C API): build+solve and one-edit re-solve of a
                         chain, a grid and a form of 1,000, 5,000 and 10,000 views
      --layout           only the layout figures (LayoutBench.swift): a window resize of app, and an
                         Auto Layout chain of 1,000 and 10,000 views through the Swift layer (build,
                         one edit that moves one view and one that moves all), in thread CPU time
      --save-index DIR   only save each scene's index (by default the --kernel scenes) as
                         DIR/NAME.htsnap with its root's handle in DIR/NAME.root, for the C
                         kernel driver (CSources/CHitTest/tests/kernel_driver.c)
      --replay           only the gesture replay table (app; ReplayBench.swift); with
                         --replay-case N[:on|:off] only dressing N (1-3), log on or off
      --figures [FILE]   also write what the run prints into FILE (default \(defaultFiguresPath),
                         from the package root): the section named by this command line, with
                         when, the machine, its load and the build; other sections are kept
      --help             this text

    scenes (* in --kernel's default list):
    \(SampleScenes.summaries.map { (kernelScenes.contains($0.name) ? "* " : "  ") + $0.name.padding(toLength: 15, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    The full run also reports the presentation-snapshot case (100 views animating in app), the
    gesture replay (input steps/s with and without recognizers, controls and a scroll view) and
    layout (a window resize of app; an Auto Layout chain through the Swift layer).
    """

struct Options {
    var quick = false
    var scenes: [String] = []
    var points = 1_000_000
    var reps = 5
    var csv: String?
    var svg: String?
    var kernel = false
    var scenesGiven = false
    var baseline: String?
    var writeBaseline: String?
    var firstQueryOnly = false
    var layoutOnly = false
    var replay = false
    var replayCase: String?
    var saveIndex: String?
}

func parse(_ args: [String]) -> Options {
    var o = Options()
    var i = 0
    func value() -> String {
        i += 1
        guard i < args.count else { fail("\(args[i - 1]) needs a value") }
        return args[i]
    }
    while i < args.count {
        switch args[i] {
        case "--help", "-h":
            print(usage)
            exit(0)
        case "--quick": o.quick = true
        case "--scene":
            let name = value()
            guard SampleScenes.names.contains(name) else { fail("unknown scene '\(name)'; scenes: \(SampleScenes.names.joined(separator: ", "))") }
            o.scenes.append(name)
        case "--points":
            guard let n = Int(value()), n > 0 else { fail("--points takes a positive whole number") }
            o.points = n
        case "--reps":
            guard let n = Int(value()), n > 0 else { fail("--reps takes a positive whole number") }
            o.reps = n
        case "--kernel": o.kernel = true
        case "--layout": o.layoutOnly = true
        case "--first-query": o.kernel = true; o.firstQueryOnly = true
        case "--baseline": o.baseline = value()
        case "--write-baseline": o.writeBaseline = value()
        case "--replay": o.replay = true
        case "--replay-case": o.replay = true; o.replayCase = value()
        case "--save-index": o.saveIndex = value()
        case "--csv": o.csv = value()
        case "--svg": o.svg = value()
        default: fail("unknown option '\(args[i])' (see --help)")
        }
        i += 1
    }
    if o.quick {
        if !args.contains("--points") { o.points = 100_000 }
        if !args.contains("--reps") { o.reps = 3 }
    }
    o.scenesGiven = !o.scenes.isEmpty
    if (o.baseline != nil || o.writeBaseline != nil) && !o.kernel { fail("--baseline and --write-baseline go with --kernel") }
    if o.scenes.isEmpty { o.scenes = SampleScenes.names }
    return o
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("hittest-bench: \(message)\n".utf8))
    exit(2)
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data("[\(String(format: "%7.1f", started.duration(to: .now).seconds))s] \(message)\n".utf8))
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

let started = ContinuousClock.now

/// Median of `reps` timings of `body` (seconds).
func median(_ reps: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<reps {
        let t0 = ContinuousClock.now
        body()
        times.append(t0.duration(to: .now).seconds)
    }
    times.sort()
    return times[times.count / 2]
}

/// How many points a slow method gets: enough for about `budget` seconds per repetition.
func sampleSize(budget: Double, limit: Int, _ perPoint: (Int) -> Void) -> Int {
    var n = 1
    while true {
        let t0 = ContinuousClock.now
        perPoint(n)
        let t = t0.duration(to: .now).seconds
        if t > budget / 4 || n >= limit {
            let estimate = t / Double(n)
            return max(1, min(limit, Int(budget / max(estimate, 1e-12))))
        }
        n = min(limit, n * 8)
    }
}

struct Row {
    var scene: String
    var points: String
    var method: String
    var sample: Int
    var seconds: Double
    var testsPerPoint: Double?
    var pointsPerSecond: Double { Double(sample) / seconds }
    var nsPerPoint: Double { seconds / Double(sample) * 1e9 }
    /// Nanoseconds per view tested, for the walks (definition, fair walk).
    var nsPerTest: Double? {
        guard method == "definition" || method == "fair-walk", let t = testsPerPoint, t > 0 else { return nil }
        return nsPerPoint / t
    }
}


@inline(never)
func streamingBound(_ points: UnsafeBufferPointer<Point>, _ out: UnsafeMutableBufferPointer<Int32>) {
    points.baseAddress!.withMemoryRebound(to: Double.self, capacity: points.count * 2) { xy in
        let o = out.baseAddress!
        for i in 0..<points.count { o[i] = xy[2 * i] < xy[2 * i + 1] ? 1 : 0 }
    }
}

func name(_ v: View?, _ ids: [ObjectIdentifier: Int]) -> Int { v.map { ids[ObjectIdentifier($0)] ?? -2 } ?? -1 }

/// glibc's `malloc_usable_size` (declared in malloc.h, which the Glibc module does not export).
@_silgen_name("malloc_usable_size")
func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int

func estimateSwiftBytes(_ views: [View]) -> Double {
    let sample = views.prefix(2000)
    var total = 0
    for v in sample {
        total += mallocUsableSize(Unmanaged.passUnretained(v).toOpaque())
        if !v.subviews.isEmpty { total += 32 + 8 * v.subviews.count }
    }
    return Double(total) / Double(sample.count)
}

func subtreeOfAbout(_ target: Int, in scene: SampleScenes.Scene) -> (view: View, size: Int) {
    var best: (View, Int)?
    var sizes: [ObjectIdentifier: Int] = [:]
    for v in scene.views.reversed() {
        let size = 1 + v.subviews.reduce(0) { $0 + (sizes[ObjectIdentifier($1)] ?? 1) }
        sizes[ObjectIdentifier(v)] = size
        if v.superview != nil && v.superview !== scene.root,
            best == nil || abs(size - target) < abs(best!.1 - target)
        {
            best = (v, size)
        }
    }
    return best!
}

func unique(_ xs: [String]) -> [String] {
    var seen = Set<String>()
    return xs.filter { seen.insert($0).inserted }
}

func fmt(_ x: Double) -> String {
    if x >= 100 { return String(format: "%.0f", x) }
    if x >= 10 { return String(format: "%.1f", x) }
    return String(format: "%.2f", x)
}

func write(_ text: String, to path: String) {
    do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch { fail("cannot write \(path): \(error)") }
}


/// One run's measurements and checks.
final class Bench {
    var rows: [Row] = []
    var extras: [String] = []
    var failures: [String] = []
    var sink = 0  // results are summed into this so no work is optimised away

    func run(_ options: Options) {
        #if DEBUG
            progress("warning: a debug build; numbers are meaningless. Use: swift run -c release hittest-bench")
        #endif
        let cores = ProcessInfo.processInfo.activeProcessorCount
        if options.replay { replayOnly(options) }  // --replay: ReplayBench.swift; exits
        progress("\(cores) cores, \(options.points) points per set, median of \(options.reps)")
        if options.scenes.contains("app") { replayBenchmark(touches: options.quick ? 20_000 : 100_000, reps: options.reps) }
        for sceneName in options.scenes {
            progress("\(sceneName): building")
            let t0 = ContinuousClock.now
            let scene = SampleScenes.make(sceneName)!
            let buildSeconds = t0.duration(to: .now).seconds
            let root = scene.root
            let t1 = ContinuousClock.now
            _ = root.hitTest(Point(x: 1, y: 1))  // prepares the derived index
            let prepareSeconds = t1.duration(to: .now).seconds
            let t2 = ContinuousClock.now
            root.prepareHitTesting()
            let gridSeconds = t2.duration(to: .now).seconds
            let snapshot = root.makeHitTestSnapshot()
            let t3 = ContinuousClock.now
            let fair = FairWalk(root)
            let fairSeconds = t3.duration(to: .now).seconds
            let ids = Dictionary(uniqueKeysWithValues: scene.views.enumerated().map { (ObjectIdentifier($1), $0) })
            let swiftBytes = estimateSwiftBytes(scene.views)
            extras.append(
                "\(sceneName): \(scene.views.count) views; build \(fmt(buildSeconds * 1e3)) ms (Swift objects + C sync), "
                    + "index prepare \(fmt(prepareSeconds * 1e3)) ms, answer grid \(fmt(gridSeconds * 1e3)) ms, fair-walk snapshot \(fmt(fairSeconds * 1e3)) ms; C index \(fmt(Double(snapshot.indexBytes) / Double(scene.views.count))) B/view, "
                    + "Swift object ~\(fmt(swiftBytes)) B/view")
            let area = root.bounds
            let sets: [(String, [Point])] = [
                ("uniform", SampleScenes.uniformPoints(options.points, in: area, seed: 7)),
                ("clustered", SampleScenes.clusteredPoints(options.points, in: area, spots: 20, seed: 8)),
            ]
            for (setName, points) in sets {
                progress("\(sceneName)/\(setName): definition walk (HitTestReference)")
                let budget = options.quick ? 0.15 : 0.5
                let refN = sampleSize(budget: budget, limit: points.count) { n in
                    for p in points.prefix(n) { sink &+= Reference.hitTest(root, p) == nil ? 0 : 1 }
                }
                var expected = [Int](repeating: 0, count: refN)
                var visits = 0
                for (i, p) in points.prefix(refN).enumerated() {
                    expected[i] = name(Reference.hitTest(root, p, with: nil, visits: &visits), ids)
                }
                let refTime = median(options.reps) {
                    for p in points.prefix(refN) { sink &+= Reference.hitTest(root, p) == nil ? 0 : 1 }
                }
                rows.append(Row(scene: sceneName, points: setName, method: "definition", sample: refN, seconds: refTime, testsPerPoint: Double(visits) / Double(refN)))

                progress("\(sceneName)/\(setName): fair walk")
                let fairN = sampleSize(budget: budget, limit: points.count) { n in
                    for p in points.prefix(n) { sink &+= fair.hitTest(p) == nil ? 0 : 1 }
                }
                var fairAnswers = [Int](repeating: 0, count: fairN)
                var fairVisits = 0
                for (i, p) in points.prefix(fairN).enumerated() {
                    fairAnswers[i] = name(fair.hitTest(p, visits: &fairVisits), ids)
                }
                if fairAnswers.prefix(refN) != expected.prefix(fairN) {
                    let bad = zip(fairAnswers, expected).filter { $0 != $1 }.count
                    failures.append("\(sceneName)/\(setName): \(bad) fair-walk answers differ from the definition")
                }
                let fairTime = median(options.reps) {
                    for p in points.prefix(fairN) { sink &+= fair.hitTest(p) == nil ? 0 : 1 }
                }
                rows.append(Row(scene: sceneName, points: setName, method: "fair-walk", sample: fairN, seconds: fairTime, testsPerPoint: Double(fairVisits) / Double(fairN)))

                progress("\(sceneName)/\(setName): single-point loop")
                let singleN = sampleSize(budget: budget, limit: points.count) { n in
                    for p in points.prefix(n) { sink &+= Int(root.hitTest(p)?.tag ?? 0) }
                }
                var singleAnswers: [Int] = []
                for p in points.prefix(min(singleN, fairN)) { singleAnswers.append(name(root.hitTest(p), ids)) }
                if singleAnswers.prefix(fairN) != fairAnswers.prefix(singleAnswers.count) {
                    failures.append("\(sceneName)/\(setName): single-point answers differ from the fair walk")
                }
                let singleTime = median(options.reps) {
                    for p in points.prefix(singleN) { sink &+= root.hitTest(p) == nil ? 0 : 1 }
                }
                let testN = min(points.count, 100_000, max(singleN, 1000))
                // Single calls answer from the answer grid too, once a bulk call or
                // prepareHitTesting() has built it (as here), so both paths test the same nodes.
                let tests = snapshot.nodesTested(for: Array(points.prefix(testN)))
                rows.append(Row(scene: sceneName, points: setName, method: "single", sample: singleN, seconds: singleTime, testsPerPoint: Double(tests) / Double(testN)))

                var handles1 = [HitTestHandle](repeating: .none, count: points.count)
                var handlesN = [HitTestHandle](repeating: .none, count: points.count)
                // Deep trees make even the bulk call slow per point: it gets a sample too.
                let bulkN = sampleSize(budget: budget * 4, limit: points.count) { n in
                    points.withUnsafeBufferPointer { p in
                        handles1.withUnsafeMutableBufferPointer {
                            root.hitTest(UnsafeBufferPointer(rebasing: p.prefix(n)), into: $0, threads: 1)
                        }
                    }
                }
                for (label, threads) in [("bulk-1", 1), ("bulk-\(cores)", cores)] {
                    progress("\(sceneName)/\(setName): \(label) on \(bulkN) points")
                    let time = median(options.reps) {
                        points.withUnsafeBufferPointer { all in
                            let p = UnsafeBufferPointer(rebasing: all.prefix(bulkN))
                            if threads == 1 {
                                handles1.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) }
                            } else {
                                handlesN.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: threads) }
                            }
                        }
                    }
                    rows.append(Row(scene: sceneName, points: setName, method: label, sample: bulkN, seconds: time, testsPerPoint: Double(tests) / Double(testN)))
                }
                if handles1.prefix(bulkN) != handlesN.prefix(bulkN) { failures.append("\(sceneName)/\(setName): bulk answers depend on the thread count") }
                let bulkNames = handles1.prefix(min(fairN, bulkN)).map { name(root.view(forHitTestHandle: $0), ids) }
                if bulkNames != Array(fairAnswers.prefix(bulkNames.count)) {
                    let bad = zip(bulkNames, fairAnswers).filter { $0 != $1 }.count
                    failures.append("\(sceneName)/\(setName): \(bad) bulk answers differ from the fair walk")
                }
                sink &+= handles1.reduce(0) { $0 &+ Int($1.rawValue) }

                progress("\(sceneName)/\(setName): streaming bound")
                var out = [Int32](repeating: 0, count: points.count)
                let streamTime = median(options.reps) {
                    points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { streamingBound(p, $0) } }
                }
                sink &+= Int(out[out.count / 2])
                rows.append(Row(scene: sceneName, points: setName, method: "stream", sample: points.count, seconds: streamTime))
            }
            if sceneName == "app-large" || (sceneName == "random-1m" && !options.quick) {
                progress("\(sceneName): mutation latency")
                extras.append(contentsOf: mutationLatency(sceneName, scene, reps: options.quick ? 21 : 51, bulkPoints: options.points))
            }
        }
    }


    /// Replays 100,000 touches (taps and drags) over the app scene through an Application,
    /// beside a loop of one single-point hit test per touch.
    func replayBenchmark(touches: Int, reps: Int) {
        progress("replay: \(touches) touches over app")
        let scene = SampleScenes.app(cells: 200)
        let app = Application()
        app.addWindow(scene.root)
        var rng = SplitMix64(seed: 5)
        var steps: [[TouchChange]] = []
        var t = 0.0
        var starts: [Point] = []
        for id in 0..<touches {
            let p = Point(x: rng.unit() * 390, y: rng.unit() * 844)
            starts.append(p)
            steps.append([TouchChange(id: id, phase: .began, location: p, timestamp: t)])
            if rng.unit() < 0.3 {  // a drag: five moves
                for k in 1...5 {
                    t += 0.016
                    steps.append([TouchChange(id: id, phase: .moved, location: Point(x: p.x + Double(k) * 4, y: p.y + Double(k) * 9), timestamp: t)])
                }
            }
            t += 0.05
            steps.append([TouchChange(id: id, phase: .ended, location: p, timestamp: t)])
            t += 0.5  // apart enough to keep tap counts at 1
        }
        let script = TouchScript(steps: steps)
        let replayTime = median(reps) {
            app.clearDeliveryLog()
            sink &+= app.replay(script).count
        }
        let hitTime = median(reps) {
            for p in starts { sink &+= scene.root.hitTest(p) == nil ? 0 : 1 }
        }
        extras.append(
            "replay (app): \(touches) touches in \(steps.count) input steps: \(fmt(Double(touches) / replayTime / 1e3)) k touches/s delivered "
                + "(\(fmt(replayTime / Double(touches) * 1e6)) µs per touch, log on), beside \(fmt(Double(touches) / hitTime / 1e6)) M touches/s "
                + "for one single-point hit test per touch")
    }

    /// Median latency of a mutation followed by one query, for each kind of mutation.
    func mutationLatency(_ sceneName: String, _ scene: SampleScenes.Scene, reps: Int, bulkPoints: Int) -> [String] {
        let root = scene.root
        var rng = SplitMix64(seed: 99)
        let leaves = scene.views.filter { $0.subviews.isEmpty && $0.superview != nil }
        func query() {
            let p = Point(x: rng.unit() * 390, y: rng.unit() * 844)
            let hit = root.hitTest(p)
            if hit !== Reference.hitTest(root, p) { failures.append("\(sceneName): answer after a mutation differs from the reference at \(p)") }
        }
        func time(_ label: String, _ mutate: () -> Void) -> String {
            var samples: [Double] = []
            for _ in 0..<reps {
                let t0 = ContinuousClock.now
                mutate()
                let p = Point(x: rng.unit() * 390, y: rng.unit() * 844)
                sink &+= root.hitTest(p) == nil ? 0 : 1
                samples.append(t0.duration(to: .now).seconds)
                query()
            }
            samples.sort()
            return "\(sceneName): \(label) + query: median \(fmt(samples[samples.count / 2] * 1e6)) µs"
        }
        var lines: [String] = []
        lines.append(time("leaf frame change") {
            let v = leaves[Int(rng.unit() * Double(leaves.count))]
            var f = v.frame
            f.origin.x += rng.unit() < 0.5 ? 1 : -1
            v.frame = f
        })
        // A simulator's frame: one leaf moves, then a large batch of points (the answer grid
        // refreshes only the cells the leaf can reach).
        let batch = SampleScenes.uniformPoints(bulkPoints, in: root.bounds, seed: 21)
        var handles = [HitTestHandle](repeating: .none, count: batch.count)
        root.prepareHitTesting()
        var frames: [Double] = []
        for _ in 0..<min(reps, 21) {
            let v = leaves[Int(rng.unit() * Double(leaves.count))]
            let t0 = ContinuousClock.now
            v.frame.origin.x += rng.unit() < 0.5 ? 1 : -1
            batch.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) } }
            frames.append(t0.duration(to: .now).seconds)
            sink &+= Int(handles[0].rawValue)
        }
        frames.sort()
        for i in stride(from: 0, to: batch.count, by: max(1, batch.count / 200)) where root.view(forHitTestHandle: handles[i]) !== Reference.hitTest(root, batch[i]) {
            failures.append("\(sceneName): bulk answer after a mutation differs from the reference at \(batch[i])")
        }
        lines.append("\(sceneName): leaf frame change + bulk query of \(batch.count) points (1 thread): median \(fmt(frames[frames.count / 2] * 1e3)) ms")
        // A layout pass: every view moves (by 1 point, back and forth), then the same bulk query.
        // Unbatched, every setter invalidates the answer grid's cells it can reach, at once; in a
        // batch (`performHitTestingBatch`), the grid is invalidated once at the end.
        let movable = scene.views.filter { $0.superview != nil }
        func relayout(batched: Bool) -> (pass: Double, total: Double) {
            var passes: [Double] = []
            var totals: [Double] = []
            for r in 0..<min(reps, 11) {
                root.prepareHitTesting()
                let dx: Double = r % 2 == 0 ? 1 : -1
                let t0 = ContinuousClock.now
                if batched {
                    root.performHitTestingBatch { for v in movable { v.frame.origin.x += dx } }
                } else {
                    for v in movable { v.frame.origin.x += dx }
                }
                let t1 = ContinuousClock.now
                batch.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) } }
                passes.append(t0.duration(to: t1).seconds)
                totals.append(t0.duration(to: .now).seconds)
                sink &+= Int(handles[0].rawValue)
            }
            passes.sort()
            totals.sort()
            return (passes[passes.count / 2], totals[totals.count / 2])
        }
        for batched in [false, true] {
            let (pass, total) = relayout(batched: batched)
            lines.append(
                "\(sceneName): relayout everything (\(movable.count) views\(batched ? ", batched" : "")): median \(fmt(pass * 1e3)) ms; + bulk query of \(batch.count) points: \(fmt(total * 1e3)) ms")
        }
        for i in stride(from: 0, to: batch.count, by: max(1, batch.count / 200)) where root.view(forHitTestHandle: handles[i]) !== Reference.hitTest(root, batch[i]) {
            failures.append("\(sceneName): bulk answer after a relayout differs from the reference at \(batch[i])")
        }
        var added: [View] = []
        lines.append(time("leaf addSubview") {
            let parent = leaves[Int(rng.unit() * Double(leaves.count))]
            let v = View(frame: Rect(x: 1, y: 1, width: 10, height: 10))
            parent.addSubview(v)
            added.append(v)
        })
        lines.append(time("leaf removeFromSuperview") {
            (added.popLast() ?? leaves[Int(rng.unit() * Double(leaves.count))]).removeFromSuperview()
        })
        // A subtree of about 1,000 views, moved between two parents. Scenes without one (the
        // app scenes: a cell is 8 views) get a panel of 1,000 views in the first subview.
        var subtree = subtreeOfAbout(1000, in: scene)
        if subtree.size < 900 {
            let panel = View(frame: Rect(x: 10, y: 10, width: 300, height: 300))
            for i in 0..<999 {
                panel.addSubview(View(frame: Rect(x: Double(i % 30) * 10, y: Double(i / 30) * 9, width: 9, height: 8)))
            }
            scene.views[2].addSubview(panel)
            subtree = (panel, 1000)
        }
        let homes = [subtree.view.superview!, scene.views[1]]
        var turn = 0
        lines.append(time("moving a \(subtree.size)-view subtree") {
            turn += 1
            let target = homes[turn % 2]
            target.addSubview(subtree.view)
        })
        return lines
    }


    func report(_ options: Options) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        emit("hittest-bench — \(cores) cores, \(options.points) points per set, median of \(options.reps) repetitions")
        emit("")
        let header = ["scene", "points", "method", "sample", "Mpoints/s", "ns/point", "× fair walk", "÷ stream", "tests/point", "ns/test"]
        var table: [[String]] = [header]
        for r in rows {
            table.append([
                r.scene, r.points, r.method, "\(r.sample)", fmt(r.pointsPerSecond / 1e6), fmt(r.nsPerPoint),
                timesFairWalk(r).map(fmt) ?? "",
                timesStream(r).map(fmt) ?? "",
                r.testsPerPoint.map(fmt) ?? "",
                r.nsPerTest.map(fmt) ?? "",
            ])
        }
        let widths = header.indices.map { c in table.map { $0[c].count }.max()! }
        for (i, line) in table.enumerated() {
            emit("| " + line.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |")
            if i == 0 { emit("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|") }
        }
        emit("")
        for scene in Set(rows.map(\.scene)).sorted() {
            for set in ["uniform", "clustered"] {
                let one = rows.first { $0.scene == scene && $0.points == set && $0.method == "bulk-1" }
                let all = rows.first { $0.scene == scene && $0.points == set && $0.method == "bulk-\(cores)" }
                if let one, let all { emit("\(scene)/\(set): bulk on \(cores) cores = \(fmt(all.pointsPerSecond / one.pointsPerSecond))× bulk on 1") }
            }
        }
        emit("")
        for scene in unique(rows.map(\.scene)) {
            for set in ["uniform", "clustered"] {
                guard let fair = rows.first(where: { $0.scene == scene && $0.points == set && $0.method == "fair-walk" }),
                    let one = rows.first(where: { $0.scene == scene && $0.points == set && $0.method == "bulk-1" })
                else { continue }
                let single = rows.first { $0.scene == scene && $0.points == set && $0.method == "single" }
                emit(
                    "\(scene)/\(set): fair walk \(fmt(fair.nsPerPoint)) ns/point, \(fair.testsPerPoint.map(fmt) ?? "?") views tested per point, "
                        + "\(fair.nsPerTest.map(fmt) ?? "?") ns per view tested; bulk-1 \(fmt(one.nsPerPoint)) ns/point = \(timesFairWalk(one).map(fmt) ?? "?")× the fair walk, "
                        + "\(timesStream(one).map(fmt) ?? "?")÷ stream"
                        + (single.map { "; single \(fmt($0.nsPerPoint)) ns/point = \(timesFairWalk($0).map(fmt) ?? "?")× the fair walk" } ?? ""))
            }
        }
        emit("")
        for line in extras { emit(line) }
        emit("")
        if let csv = options.csv {
            var text = "scene,points,method,sample,points_per_second,ns_per_point,times_fair_walk,per_stream,tests_per_point,ns_per_test\n"
            for r in rows {
                text += "\(r.scene),\(r.points),\(r.method),\(r.sample),\(r.pointsPerSecond),\(r.nsPerPoint),"
                    + "\(timesFairWalk(r).map { "\($0)" } ?? ""),\(timesStream(r).map { "\($0)" } ?? ""),"
                    + "\(r.testsPerPoint.map { "\($0)" } ?? ""),\(r.nsPerTest.map { "\($0)" } ?? "")\n"
            }
            write(text, to: csv)
        }
        if let svg = options.svg { write(chart(), to: svg) }
        if failures.isEmpty {
            emit("All answers matched: engine == fair walk == definition walk. (checksum \(sink & 0xFFFF))")
        } else {
            for f in failures { emit("MISMATCH: \(f)") }
        }
    }


    /// How many times the fair walk's throughput a row has (same scene and points).
    func timesFairWalk(_ r: Row) -> Double? {
        rows.first { $0.scene == r.scene && $0.points == r.points && $0.method == "fair-walk" }.map { r.pointsPerSecond / $0.pointsPerSecond }
    }

    /// A row's time per point over the streaming bound's (same scene and points).
    func timesStream(_ r: Row) -> Double? {
        rows.first { $0.scene == r.scene && $0.points == r.points && $0.method == "stream" }.map { r.nsPerPoint / $0.nsPerPoint }
    }

    /// Grouped bars: for each scene and point set, one bar per method, log-scale points/s
    /// (the legend gives each bar's ratio to the fair walk in its tooltip).
    func chart() -> String {
        let methods = unique(rows.map(\.method))
        let groups = unique(rows.map { "\($0.scene)/\($0.points)" })
        let colors = ["#888888", "#e07b39", "#3b7dd8", "#1f4e9c", "#2ca02c", "#9467bd"]
        let barW = 12.0, gap = 18.0, left = 70.0, top = 40.0, height = 300.0
        let groupW = Double(methods.count) * barW + gap
        let width = left + Double(groups.count) * groupW + 20
        let lo = 3.0, hi = 11.0  // 1e3 .. 1e11 points/s
        func y(_ v: Double) -> Double { top + height - (log10(max(v, 1e3)) - lo) / (hi - lo) * height }
        var s = "<svg xmlns='http://www.w3.org/2000/svg' width='\(Int(width))' height='\(Int(top + height + 150))' font-family='sans-serif' font-size='11'>\n"
        s += "<text x='\(left)' y='20' font-size='14'>hittest-bench: points per second (log scale); definition = the tests' slow reference, fair-walk = the baseline</text>\n"
        for e in Int(lo)...Int(hi) {
            let yy = y(pow(10, Double(e)))
            s += "<line x1='\(left)' x2='\(width - 10)' y1='\(yy)' y2='\(yy)' stroke='#ddd'/><text x='\(left - 8)' y='\(yy + 4)' text-anchor='end'>1e\(e)</text>\n"
        }
        for (g, group) in groups.enumerated() {
            let x0 = left + Double(g) * groupW + gap / 2
            for (m, method) in methods.enumerated() {
                guard let r = rows.first(where: { "\($0.scene)/\($0.points)" == group && $0.method == method }) else { continue }
                let yy = y(r.pointsPerSecond)
                s += "<rect x='\(x0 + Double(m) * barW)' y='\(yy)' width='\(barW - 1)' height='\(top + height - yy)' fill='\(colors[m % colors.count])'><title>\(group) \(method): \(fmt(r.pointsPerSecond / 1e6)) M/s, \(timesFairWalk(r).map(fmt) ?? "?")× the fair walk</title></rect>\n"
            }
            s += "<text transform='translate(\(x0 + 6),\(top + height + 10)) rotate(40)'>\(group)</text>\n"
        }
        for (m, method) in methods.enumerated() {
            let yy = top + height + 110 + Double(m / 3) * 16
            let xx = left + Double(m % 3) * 150
            s += "<rect x='\(xx)' y='\(yy - 9)' width='10' height='10' fill='\(colors[m % colors.count])'/><text x='\(xx + 14)' y='\(yy)'>\(method)</text>\n"
        }
        return s + "</svg>\n"
    }


}
