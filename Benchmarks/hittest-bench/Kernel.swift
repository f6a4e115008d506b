// The kernel mode (`--kernel`): the bulk path's costs level by level, as ratios measured in one
// process, and the regression guard against a committed baseline of those ratios.
import Foundation
import HitTestCore
import HitTestKit
import HitTestReference
import HitTestSampleScenes

/// One scene's kernel figures (medians of interleaved rounds).
struct KernelFigures {
    var scene: String
    var views: Int
    var stream = 0.0       // ns per point
    var bulk1 = 0.0        // ns per point, one thread
    var bulkN = 0.0        // ns per point, all cores (wall clock)
    var bulk1Wall = 0.0    // ns per point, one thread, wall clock: what bulkN is compared with
    var single = 0.0       // ns per point, View.hitTest(p) returning the View, after prepareHitTesting()
    var unprepared = 0.0   // ns per point, View.hitTest(p) on a fresh copy never prepared, after its first queries
    var firstQueries = 0.0 // ns per point, the fresh copy's first `warmQueries` queries (what they build included)
    var firstQueryCount = 0 // how many first queries (fewer than warmQueries when they take over a second: deep)
    var freshQueries = 0.0 // ns per point, the fresh copy's next `freshPoints` queries, on points it has not seen, once
    var paidAfter = 0      // queries the fresh copy took (all of them, from its first) until they paid for its full answer grid; 0: not within the budget
    var paid = 0.0         // ns per point, the fresh copy's single queries once its full grid is built
    var changed = 0.0      // ms: one view moved by 1 pt, then a bulk query of `changePoints` points, 1 thread
    var unchanged = 0.0    // ms: the same bulk query with nothing changed since the last
    var walk = 0.0         // ns per walked point (the exact walk without the grid, on the points the grid leaves)
    var leftWithGrid = 0.0 // ns per point, those points with the grid on (their cell, candidate list, then the walk where it must)
    var walkTests = 0.0    // nodes tested per walked point
    var fair = 0.0         // ns per point, the fair walk
    var fairTests = 0.0    // views tested per point by the fair walk
    var sureShare = 0.0    // share of points the answer grid's cells answer
    var sureCells = 0.0    // share of cells that are sure
    var gridBytes = 0
    var indexBytes = 0
    var cores = 1
    var firstPerBulk = 0.0 // first bulk call after a change at the root ÷ a later one, 1 thread (FirstQuery.swift)

    var walkPerNode: Double { walkTests > 0 ? walk / walkTests : 0 }
    var fairPerTest: Double { fairTests > 0 ? fair / fairTests : 0 }
    /// The guarded ratios: name, value (lower is better).
    var ratios: [(String, Double)] {
        var r: [(String, Double)] = [("bulk1_per_stream", bulk1 / stream), ("single_per_stream", single / stream)]
        if walkTests > 0 { r.append(("walk_node_per_fair_test", walkPerNode / fairPerTest)) }
        if firstPerBulk > 0 { r.append(("first_query_per_bulk", firstPerBulk)) }
        if unprepared > 0 { r.append(("unprepared_per_stream", unprepared / stream)) }
        if unchanged > 0 { r.append(("change_bulk_per_bulk", changed / unchanged)) }
        return r
    }
}

/// The default scenes of the kernel mode: the app-like families (the table ones isolate one
/// feature each), the maps and the extremes.
let kernelScenes = [
    "app", "table", "table-plain", "table-alpha", "table-covers", "table-rotated", "table-thin",
    "pin-map", "dense-overlap", "random-1m", "deep",
]
/// The default scenes of `--first-query`.
let firstQueryScenes = ["app", "table", "pin-map", "dense-overlap", "random-1m", "app-large"]
/// The first single-point queries on a fresh scene, timed apart from the later ones.
let warmQueries = 4096
/// The single queries on new points that follow the first ones on the fresh copy.
let freshPoints = 100_000
/// Thread CPU seconds the fresh copy may be asked on, per scene, until its queries pay for its full grid.
let paymentBudget = 5.0
/// The points of the bulk query that follows a one-view change.
let changePoints = 100_000

func runKernel(_ options: Options) -> Bool {
    #if DEBUG
        progress("warning: a debug build; numbers are meaningless. Use: swift build -c release")
    #endif
    let cores = ProcessInfo.processInfo.activeProcessorCount
    if options.firstQueryOnly {
        let scenes = options.scenesGiven ? options.scenes : firstQueryScenes
        progress("first query: \(options.points) points, \(options.reps) rounds")
        emit(firstQueryText(measureFirstQuery(scenes, points: options.points, reps: options.reps)))
        return true
    }
    let scenes = options.scenesGiven ? options.scenes : kernelScenes
    progress("kernel mode: \(cores) cores, \(options.points) points, \(options.reps) interleaved rounds")
    var all: [KernelFigures] = []
    var firstQueryFigures: [FirstQueryFigures] = []
    var failures: [String] = []
    var sink = 0
    for name in scenes {
        progress("\(name): building")
        let scene = SampleScenes.make(name)!
        let root = scene.root
        root.prepareHitTesting()
        let fairWalk = FairWalk(root)
        let snapshot = root.makeHitTestSnapshot()
        let stats = root.hitTestingStatistics()
        var fig = KernelFigures(scene: name, views: scene.views.count)
        fig.cores = cores
        fig.gridBytes = stats.answerGridBytes
        fig.indexBytes = stats.indexBytes
        fig.sureCells = stats.answerGridCells > 0 ? Double(stats.sureCells) / Double(stats.answerGridCells) : 0
        let points = SampleScenes.uniformPoints(options.points, in: root.bounds, seed: 7)
        // The points the grid leaves to the walk (on a sample): each point alone, with the grid.
        // (At most 100,000 points or about a second: a deep chain walks a million nodes a point.)
        var probe: [Point] = []
        var unsure: [Point] = []
        let probeStart = ContinuousClock.now
        for p in points.prefix(100_000) {
            if probe.count % 256 == 0 && probeStart.duration(to: .now).seconds > 1 { break }
            probe.append(p)
            // The points the cells leave (to the candidate lists, then the walk).
            if snapshot.gridDecision(for: p) != 1 { unsure.append(p) }
        }
        fig.sureShare = 1 - Double(unsure.count) / Double(probe.count)
        let walkPoints = unsure.isEmpty ? probe : unsure
        let walkN = sampleSize(budget: 0.2, limit: walkPoints.count) { n in sink &+= snapshot.nodesTested(for: Array(walkPoints.prefix(n)), answerGrid: false) }
        let walkSet = Array(walkPoints.prefix(walkN))
        fig.walkTests = Double(snapshot.nodesTested(for: walkSet, answerGrid: false)) / Double(walkN)
        let fairN = sampleSize(budget: 0.2, limit: points.count) { n in
            for p in points.prefix(n) { sink &+= fairWalk.hitTest(p) == nil ? 0 : 1 }
        }
        var visits = 0
        for p in points.prefix(fairN) { sink &+= fairWalk.hitTest(p, visits: &visits) == nil ? 0 : 1 }
        fig.fairTests = Double(visits) / Double(fairN)
        let bulkN = sampleSize(budget: 0.5, limit: points.count) { n in
            var h = [HitTestHandle](repeating: .none, count: n)
            points.withUnsafeBufferPointer { p in h.withUnsafeMutableBufferPointer { root.hitTest(UnsafeBufferPointer(rebasing: p.prefix(n)), into: $0, threads: 1) } }
        }
        let singleN = sampleSize(budget: 0.2, limit: min(points.count, 200_000)) { n in
            for p in points.prefix(n) { sink &+= root.hitTest(p) == nil ? 0 : 1 }
        }
        // `view.hitTest(p)` as a new user calls it: on a second copy of the scene, built afresh
        // and never prepared (nothing but single calls ever reaches it); its first queries
        // (whatever they build) timed apart, then the later ones in the rounds.
        progress("\(name): a fresh copy, never prepared: the first \(warmQueries) single calls")
        var fresh: SampleScenes.Scene? = SampleScenes.make(name)!
        var freshRoot: Window? = fresh!.root
        let warmStart = threadCPUSeconds()
        for p in points.prefix(warmQueries) {
            sink &+= freshRoot!.hitTest(p) == nil ? 0 : 1
            fig.firstQueryCount += 1
            if fig.firstQueryCount % 64 == 0 && threadCPUSeconds() - warmStart > 1 { break }
        }
        fig.firstQueries = (threadCPUSeconds() - warmStart) / Double(fig.firstQueryCount) * 1e9
        // The copy's grid as its queries leave it (`hitTestingStatistics()` would prepare it):
        // its cells grow when the queries have paid for the full grid (the C core's rent rule).
        func freshGridCells() -> Int { freshRoot!.core.map { $0.statistics(for: freshRoot!).answerGridCells } ?? 0 }
        let coarseCells = freshGridCells()
        var freshAsked = fig.firstQueryCount
        func notePayment() { if fig.paidAfter == 0 && freshGridCells() > coarseCells { fig.paidAfter = freshAsked } }
        // Then, once, new points: what a stream of taps costs while the copy still learns.
        if fig.firstQueryCount == warmQueries {
            let newPoints = SampleScenes.uniformPoints(freshPoints, in: root.bounds, seed: 8)
            let start = threadCPUSeconds()
            for p in newPoints { sink &+= freshRoot!.hitTest(p) == nil ? 0 : 1 }
            fig.freshQueries = (threadCPUSeconds() - start) / Double(freshPoints) * 1e9
            freshAsked += freshPoints
            notePayment()
        }
        var h1 = [HitTestHandle](repeating: .none, count: points.count)
        var hN = h1
        var out = [Int32](repeating: 0, count: points.count)
        var times: [String: [Double]] = [:]
        // One-thread methods are timed in this thread's CPU time, which the other processes of a
        // shared machine do not inflate (they still share the caches); bulk on all cores in
        // wall time, compared with one thread in wall time too (thread CPU time leaves out the
        // time the thread waits for the core, wall time does not).
        func time(_ key: String, _ body: () -> Void) {
            if key == "bulkN" || key == "bulk1Wall" {
                let t0 = ContinuousClock.now
                body()
                times[key, default: []].append(t0.duration(to: .now).seconds)
            } else {
                let t0 = threadCPUSeconds()
                body()
                times[key, default: []].append(threadCPUSeconds() - t0)
            }
        }
        progress("\(name): \(options.reps) rounds (bulk on \(bulkN) points, single on \(singleN), walk on \(walkN), fair walk on \(fairN))")
        for _ in 0..<options.reps {
            time("stream") { points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { streamingBound(p, $0) } } }
            time("bulk1") {
                points.withUnsafeBufferPointer { p in h1.withUnsafeMutableBufferPointer { root.hitTest(UnsafeBufferPointer(rebasing: p.prefix(bulkN)), into: $0, threads: 1) } }
            }
            time("bulkN") {
                points.withUnsafeBufferPointer { p in hN.withUnsafeMutableBufferPointer { root.hitTest(UnsafeBufferPointer(rebasing: p.prefix(bulkN)), into: $0, threads: cores) } }
            }
            time("bulk1Wall") {
                points.withUnsafeBufferPointer { p in h1.withUnsafeMutableBufferPointer { root.hitTest(UnsafeBufferPointer(rebasing: p.prefix(bulkN)), into: $0, threads: 1) } }
            }
            time("single") { for p in points.prefix(singleN) { sink &+= root.hitTest(p) == nil ? 0 : 1 } }
            time("unprepared") {
                let r = freshRoot!
                for p in points.prefix(singleN) { sink &+= r.hitTest(p) == nil ? 0 : 1 }
            }
            freshAsked += singleN
            notePayment()  // outside the timed rounds
            time("walk") { sink &+= snapshot.nodesTested(for: walkSet, answerGrid: false) }
            time("leftWithGrid") { sink &+= snapshot.nodesTested(for: walkSet) }
            time("fair") { for p in points.prefix(fairN) { sink &+= fairWalk.hitTest(p) == nil ? 0 : 1 } }
        }
        func med(_ key: String, _ n: Int) -> Double {
            let t = times[key]!.sorted()
            return t[t.count / 2] / Double(n) * 1e9
        }
        fig.stream = med("stream", points.count)
        fig.bulk1 = med("bulk1", bulkN)
        fig.bulkN = med("bulkN", bulkN)
        fig.bulk1Wall = med("bulk1Wall", bulkN)
        fig.single = med("single", singleN)
        fig.unprepared = med("unprepared", singleN)
        fig.walk = med("walk", walkN)
        fig.leftWithGrid = med("leftWithGrid", walkN)
        fig.fair = med("fair", fairN)
        sink &+= Int(out[0])
        // Checks: bulk on any thread count and the single call agree with the fair walk.
        if h1.prefix(bulkN) != hN.prefix(bulkN) { failures.append("\(name): bulk answers depend on the thread count") }
        let ids = Dictionary(uniqueKeysWithValues: scene.views.enumerated().map { (ObjectIdentifier($1), $0) })
        func id(_ v: View?) -> Int { v.map { ids[ObjectIdentifier($0)] ?? -2 } ?? -1 }
        var bad = 0
        for i in 0..<min(fairN, bulkN) where id(root.view(forHitTestHandle: h1[i])) != id(fairWalk.hitTest(points[i])) { bad += 1 }
        for p in walkSet.prefix(2000) where id(root.hitTest(p)) != id(fairWalk.hitTest(p)) { bad += 1 }
        if bad > 0 { failures.append("\(name): \(bad) answers differ from the fair walk") }
        // The fresh copy's answers, by position in its own list of views (the same scene).
        let freshIds = Dictionary(uniqueKeysWithValues: fresh!.views.enumerated().map { (ObjectIdentifier($1), $0) })
        let checked = Array(points.prefix(min(fairN, singleN, 5000)) + walkSet.prefix(2000))
        /// The copy's answers on `checked` that differ from the fair walk's.
        func freshMismatches() -> Int {
            checked.filter { p in (freshRoot!.hitTest(p).map { freshIds[ObjectIdentifier($0)] ?? -2 } ?? -1) != id(fairWalk.hitTest(p)) }.count
        }
        let freshBad = freshMismatches()
        if freshBad > 0 { failures.append("\(name): \(freshBad) answers of the unprepared copy differ from the fair walk") }
        freshAsked += checked.count
        // The same copy asked on, as a static scene is, until its single queries have paid for
        // the full answer grid (the C core's rent rule, htq_promote; maybe already in the rounds
        // above: the count is then that at the end of the round it happened in); then the speed
        // from there (the median of three rounds).
        if fig.firstQueryCount == warmQueries {
            let r = freshRoot!
            let start = threadCPUSeconds()
            while fig.paidAfter == 0 && threadCPUSeconds() - start < paymentBudget {
                for p in points.prefix(singleN) { sink &+= r.hitTest(p) == nil ? 0 : 1 }
                freshAsked += singleN
                notePayment()
            }
            if fig.paidAfter > 0 {
                var rounds: [Double] = []
                for _ in 0..<3 {
                    let t0 = threadCPUSeconds()
                    for p in points.prefix(singleN) { sink &+= r.hitTest(p) == nil ? 0 : 1 }
                    rounds.append(threadCPUSeconds() - t0)
                }
                fig.paid = rounds.sorted()[1] / Double(singleN) * 1e9
                let paidBad = freshMismatches()
                if paidBad > 0 { failures.append("\(name): \(paidBad) answers of the copy with its paid-for grid differ from the fair walk") }
            }
        }
        (fresh, freshRoot) = (nil, nil)
        // One view changed, then a bulk query (not on a deep chain: 100,000 points that each
        // walk the 100,000 levels take minutes).
        if name != "deep" {
            progress("\(name): one-view change + bulk query of \(changePoints) points")
            let targets = reachedViews(scene, fairWalk, points.prefix(min(fairN, 2000)))
            if let figures = measureChange(name, root, targets: targets, rounds: max(options.reps, 11), failures: &failures) {
                (fig.changed, fig.unchanged) = figures
            }
        }
        // The first query after a change at the root: the whole build plus one bulk call (not
        // on a deep chain, whose bulk call of a million points would take minutes).
        var firsts: [FirstQueryFigures] = []
        if name != "deep" {
            progress("\(name): first query")
            firsts = measureFirstQuery([name], points: options.points, reps: options.reps)
            if let f = firsts.first { fig.firstPerBulk = f.first / f.bulk }
        }
        firstQueryFigures += firsts
        all.append(fig)
    }
    emit(kernelTable(all))
    if !firstQueryFigures.isEmpty { emit("\n" + firstQueryText(firstQueryFigures)) }
    if sink == 42 { emit("") }
    var ok = failures.isEmpty
    for f in failures { emit("FAIL: \(f)") }
    if let path = options.writeBaseline {
        write(baselineText(all), to: path)
        emit("baseline written to \(path)")
    }
    if let path = options.baseline {
        ok = compareBaseline(all, path: path) && ok
    }
    return ok
}

/// `--save-index DIR`: each scene's index, prepared, as DIR/NAME.htsnap, and its root's handle
/// as DIR/NAME.root, for the C kernel driver.
func saveIndexes(_ options: Options, to dir: String) -> Bool {
    let scenes = options.scenesGiven ? options.scenes : kernelScenes
    do {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    } catch {
        progress("cannot create \(dir): \(error)")
        return false
    }
    for name in scenes {
        let root = SampleScenes.make(name)!.root
        let path = "\(dir)/\(name).htsnap"
        guard let core = root.core, core.saveIndex(to: path) else {
            progress("\(name): cannot write \(path)")
            return false
        }
        let handle = "\(core.handle(of: root).rawValue)\n"
        guard FileManager.default.createFile(atPath: "\(dir)/\(name).root", contents: Data(handle.utf8)) else {
            progress("\(name): cannot write \(dir)/\(name).root")
            return false
        }
        progress("\(name): \(path)")
    }
    return true
}

/// The distinct views other than the root that the fair walk answers at `points`: views a
/// touch reaches.
func reachedViews(_ scene: SampleScenes.Scene, _ fair: FairWalk, _ points: ArraySlice<Point>) -> [View] {
    var seen = Set<ObjectIdentifier>()
    var out: [View] = []
    for p in points {
        guard let v = fair.hitTest(p), v !== scene.root, seen.insert(ObjectIdentifier(v)).inserted else { continue }
        out.append(v)
    }
    return out
}

/// A simulator's step: one of `targets` (a view a touch reaches) moved by 1 pt, then a bulk
/// query of `changePoints` uniform points on one thread; beside the same query with nothing
/// changed since the last (in alternating order). Thread CPU time, medians of `rounds` rounds,
/// in ms; nil without targets. Then one more change: its answers equal the next unchanged
/// query's, and the reference walk's on a sample (else a failure).
func measureChange(_ name: String, _ root: Window, targets: [View], rounds: Int, failures: inout [String]) -> (changed: Double, unchanged: Double)? {
    guard !targets.isEmpty else { return nil }
    var rng = SplitMix64(seed: 99)
    let points = SampleScenes.uniformPoints(changePoints, in: root.bounds, seed: 21)
    var handles = [HitTestHandle](repeating: .none, count: points.count)
    func bulk() {
        points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) } }
    }
    func change() {
        let v = targets[Int(rng.unit() * Double(targets.count))]
        v.center = Point(x: v.center.x + (rng.unit() < 0.5 ? 1 : -1), y: v.center.y)
    }
    root.prepareHitTesting()
    bulk()
    var changed: [Double] = []
    var unchanged: [Double] = []
    for r in 0..<rounds {
        for step in r % 2 == 0 ? [true, false] : [false, true] {
            let t0 = threadCPUSeconds()
            if step { change() }
            bulk()
            let t = threadCPUSeconds() - t0
            if step { changed.append(t) } else { unchanged.append(t) }
        }
    }
    change()
    bulk()
    let afterChange = handles
    bulk()
    var bad = afterChange == handles ? 0 : 1
    for i in stride(from: 0, to: points.count, by: max(1, points.count / 200)) where root.view(forHitTestHandle: handles[i]) !== Reference.hitTest(root, points[i]) {
        bad += 1
    }
    if bad > 0 { failures.append("\(name): \(bad) bulk answers after a one-view change differ from the reference walk (or from the next query)") }
    func med(_ v: [Double]) -> Double { v.sorted()[v.count / 2] * 1e3 }
    return (med(changed), med(unchanged))
}

func kernelTable(_ all: [KernelFigures]) -> String {
    var lines = [
        "| scene | views | stream ns | bulk-1 ns | ÷ stream | bulk-N ns | N-core speedup | single ns (prepared) | hitTest ns, no prepare | its first \(warmQueries) ns/query | then \(freshPoints / 1000)k new points ns/query | queries until its full grid | then ns/query | grid answers | walk ns/walked pt | those pts with grid ns | nodes/walked pt | walk ns/node | fair ns/test | walk node ÷ fair test | fair walk ns | bulk-1 × fair | grid KiB | sure cells | 1-view change + bulk \(changePoints / 1000)k ms | same bulk, unchanged ms | change ÷ same |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for f in all {
        let change = f.unchanged > 0 ? "\(fmt(f.changed)) | \(fmt(f.unchanged)) | \(fmt(f.changed / f.unchanged))" : "– | – | –"
        lines.append(
            "| \(f.scene) | \(f.views) | \(fmt(f.stream)) | \(fmt(f.bulk1)) | \(fmt(f.bulk1 / f.stream)) | \(fmt(f.bulkN)) | \(fmt(f.bulk1Wall / f.bulkN)) | \(fmt(f.single)) | "
                + "\(fmt(f.unprepared)) | \(fmt(f.firstQueries))\(f.firstQueryCount < warmQueries ? " (\(f.firstQueryCount))" : "") | \(f.freshQueries > 0 ? fmt(f.freshQueries) : "–") | "
                + "\(f.paidAfter > 0 ? "\(f.paidAfter)" : "–") | \(f.paidAfter > 0 ? fmt(f.paid) : "–") | "
                + "\(fmt(f.sureShare * 100))% | \(fmt(f.walk)) | \(fmt(f.leftWithGrid)) | \(fmt(f.walkTests)) | \(fmt(f.walkPerNode)) | \(fmt(f.fairPerTest)) | \(fmt(f.walkPerNode / f.fairPerTest)) | "
                + "\(fmt(f.fair)) | \(fmt(f.fair / f.bulk1)) | \(fmt(Double(f.gridBytes) / 1024)) | \(fmt(f.sureCells * 100))% | \(change) |")
    }
    lines.append("")
    lines.append(
        "One thread in thread CPU time unless said. hitTest ns, no prepare: view.hitTest(p) on a second copy of the scene, built afresh and never prepared, "
            + "after its first \(warmQueries) queries, in rounds over the same points as single (their mean beside it, what they build included; in brackets how many when they took over a second; "
            + "then \(freshPoints) new uniform points once, on which it still fills its answer grid: a cell's first point computes the cell). "
            + "queries until its full grid: the same copy asked on over the same points, as a static scene is, until its single queries have paid for the full answer grid (the C core's rent rule), counted from its first query (at the end of the round it happened in; – when not within \(fmt(paymentBudget)) s more); then ns/query: from there on. "
            + "grid answers: the share of points the grid's cells decide. walk ns/walked pt: the exact walk alone on the points the cells leave (a sample); "
            + "those pts with grid: the same points through the bulk path (their cell, then the cell's candidate list, then the walk where the list cannot say). "
            + "1-view change: a view a touch reaches moved by 1 pt, then \(changePoints) uniform points in one bulk call, beside the same call with nothing changed "
            + "(medians of interleaved rounds; none on deep, whose 100,000-deep chain each point walks).")
    return lines.joined(separator: "\n")
}

func baselineText(_ all: [KernelFigures]) -> String {
    var text = "# hittest-bench --kernel baseline: scene, ratio, value (lower is better); --baseline fails past +25%\n"
    for f in all { for (k, v) in f.ratios { text += "\(f.scene) \(k) \(String(format: "%.4g", v))\n" } }
    return text
}

/// Compares the ratios against the baseline file; prints each and returns false when one is
/// more than 25% worse.
func compareBaseline(_ all: [KernelFigures], path: String) -> Bool {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read baseline \(path)") }
    var base: [String: Double] = [:]
    for (n, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") && !line.isEmpty {
        let parts = line.split(separator: " ")
        guard parts.count == 3, let v = Double(parts[2]), v > 0 else { fail("\(path): line \(n + 1): expected 'scene ratio value', found '\(line)'") }
        base["\(parts[0]) \(parts[1])"] = v
    }
    var ok = true
    var compared = 0
    for f in all {
        for (k, v) in f.ratios {
            guard let b = base["\(f.scene) \(k)"] else { continue }
            compared += 1
            let change = v / b - 1
            let worse = change > 0.25
            if worse { ok = false }
            emit("\(worse ? "WORSE" : "ok   ") \(f.scene) \(k): \(String(format: "%.3g", v)) against \(String(format: "%.3g", b)) (\(change >= 0 ? "+" : "")\(String(format: "%.0f", change * 100))%)")
        }
    }
    if compared == 0 { emit("no ratio of this run is in \(path)"); return false }
    emit(ok ? "regression guard: every ratio within 25% of \(path)" : "regression guard: FAILED (a ratio is more than 25% worse than \(path))")
    return ok
}

/// This thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
