import Foundation
import HitTestKit
@_spi(Benchmarks) import HitTestKit
import HitTestSampleScenes

// Layout benchmarks (issue 13, item 5, the Swift layer): the layout pass on `app` after a
// window resize, and Auto Layout through the Swift layer on a vertical chain of N views, each
// pinned to the previous one with 5 constraints: build + solve, and one edit re-solved. (The
// solver's C API alone is measured by the solver's own benchmark.) Times are medians of this
// thread's CPU time (robust on a shared machine). The one-edit figures are taken in
// interleaved pairs in one process: the Swift layer's current path (the solver reports the
// variables that changed; only those views' frames are written) and its previous one (every
// item's four values read back, every subview's frame written), switched by
// `AutoLayoutBenchmark.readsEveryValue`.
//
//   swift run -c release hittest-bench --layout [--quick] [--reps N]

/// Median of `reps` timings of `body` in this thread's CPU time (seconds).
private func cpuMedian(_ reps: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    for _ in 0..<reps {
        let t0 = threadCPUSeconds()
        body()
        times.append(threadCPUSeconds() - t0)
    }
    times.sort()
    return times[times.count / 2]
}

/// Medians of `reps` interleaved pairs: `body` on the current path, then on the previous one.
private func editPair(_ reps: Int, _ body: () -> Void) -> (current: Double, previous: Double) {
    var current: [Double] = [], previous: [Double] = []
    for _ in 0..<reps {
        for old in [false, true] {
            AutoLayoutBenchmark.readsEveryValue = old
            let t0 = threadCPUSeconds()
            body()
            let t = threadCPUSeconds() - t0
            if old { previous.append(t) } else { current.append(t) }
        }
    }
    AutoLayoutBenchmark.readsEveryValue = false
    current.sort()
    previous.sort()
    return (current[current.count / 2], previous[previous.count / 2])
}

/// Gives the app scene UIKit-like masks: full-width views stretch, full-height views stretch,
/// views at the bottom edge keep their distance to it.
private func addMasks(_ root: View) {
    var stack: [View] = [root]
    while let v = stack.popLast() {
        stack.append(contentsOf: v.subviews)
        guard let s = v.superview else { continue }
        var mask: View.AutoresizingMask = []
        let f = v.frame
        if f.width == s.bounds.width { mask.insert(.flexibleWidth) }
        if f.height == s.bounds.height { mask.insert(.flexibleHeight) } else if f.maxY == s.bounds.height { mask.insert(.flexibleTopMargin) }
        if f.width < s.bounds.width && f.maxX == s.bounds.width { mask.insert(.flexibleLeftMargin) }
        v.autoresizingMask = mask
    }
}

/// A container with `n` views in a vertical chain: the first pinned to the container, each next
/// one pinned to the previous with 5 constraints (leading, trailing, top = bottom + 4, height,
/// centerX).
private func chain(_ n: Int) -> (root: View, views: [View], constraints: [LayoutConstraint]) {
    let root = View(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    var views: [View] = []
    views.reserveCapacity(n)
    var constraints: [LayoutConstraint] = []
    constraints.reserveCapacity(5 * n)
    for _ in 0..<n {
        let v = View()
        v.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(v)
        if let p = views.last {
            constraints.append(v.leadingAnchor.constraint(equalTo: p.leadingAnchor))
            constraints.append(v.trailingAnchor.constraint(equalTo: p.trailingAnchor))
            constraints.append(v.topAnchor.constraint(equalTo: p.bottomAnchor, constant: 4))
            constraints.append(v.heightAnchor.constraint(equalTo: p.heightAnchor))
            constraints.append(v.centerXAnchor.constraint(equalTo: p.centerXAnchor))
        } else {
            constraints.append(v.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 16))
            constraints.append(v.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -16))
            constraints.append(v.topAnchor.constraint(equalTo: root.topAnchor, constant: 8))
            constraints.append(v.heightAnchor.constraint(equalToConstant: 44))
            constraints.append(v.widthAnchor.constraint(greaterThanOrEqualToConstant: 0))
        }
        views.append(v)
    }
    LayoutConstraint.activate(constraints)
    return (root, views, constraints)
}

/// Runs the layout benchmarks and returns their report lines (for `Bench.extras`).
func layoutBenchmarks(reps: Int, quick: Bool) -> [String] {
    var lines: [String] = []
    // The layout pass on `app` after a window resize (portrait <-> landscape).
    progress("layout: app resize + layout pass")
    let app = SampleScenes.make("app")!
    addMasks(app.root)
    app.root.layoutIfNeeded()
    var portrait = false
    let resize = cpuMedian(max(reps, 21)) {
        app.root.frame = portrait ? Rect(x: 0, y: 0, width: 390, height: 844) : Rect(x: 0, y: 0, width: 844, height: 390)
        portrait.toggle()
        app.root.layoutIfNeeded()
    }
    lines.append("layout: app (\(app.views.count) views, masks from their frames): window resize + autoresizing + layout pass \(fmt(resize * 1e3)) ms CPU (target <= 1 ms)")
    progress(lines[lines.count - 1])

    // Auto Layout through the Swift layer: build + solve, one-edit re-solve.
    var previousBuild: (n: Int, seconds: Double)?
    for n in quick ? [1_000] : [1_000, 10_000] {
        if let (m, seconds) = previousBuild, seconds * Double(n / m) * Double(n / m) > 120 {
            // A solver that grows quadratically would take minutes here: say so instead.
            lines.append("layout: Auto Layout chain of \(n): skipped (\(m) views took \(fmt(seconds * 1e3)) ms; quadratic growth would take about \(fmt(seconds * Double(n / m) * Double(n / m))) s)")
            continue
        }
        progress("layout: Auto Layout chain of \(n)")
        var built: (root: View, views: [View], constraints: [LayoutConstraint])?
        let builds = editPair(quick ? 1 : 3) {
            built = nil
            let c = chain(n)
            c.root.layoutIfNeeded()
            built = c
        }
        let build = builds.current
        guard let c = built else { continue }
        previousBuild = (n, build)
        progress("layout: chain of \(n) built and solved in \(fmt(build * 1e3)) ms CPU (median)")
        func check(_ what: String, firstTop: Double, lastGap: Double) {
            let expected = firstTop + Double(n - 2) * 48 + 44 + lastGap
            let last = c.views[n - 1].frame
            if abs(last.minY - expected) > 1e-6 || last.width != 358 {
                lines.append("layout: MISMATCH chain of \(n) after \(what): last view at \(last), expected y \(expected), width 358")
            }
        }
        check("the build", firstTop: 8, lastGap: 4)
        // One edit + solve + frames applied: the last view's top (one view moves) and the first
        // view's top (all n move); each on the current path and the previous one, interleaved.
        var flip = false
        let lastTop = c.constraints[5 * (n - 1) + 2]
        let editOne = editPair(max(reps, 51)) {
            flip.toggle()
            lastTop.constant = flip ? 5 : 4
            c.root.layoutIfNeeded()
        }
        let lastGap: Double = flip ? 5 : 4
        check("the one-view edits", firstTop: 8, lastGap: lastGap)
        progress("layout: one-view edit \(fmt(editOne.current * 1e6)) µs (previous path \(fmt(editOne.previous * 1e6)) µs)")
        let firstTop = c.constraints[2]
        let editAll = editPair(max(reps, 21)) {
            flip.toggle()
            firstTop.constant = flip ? 9 : 8
            c.root.layoutIfNeeded()
        }
        check("the all-view edits", firstTop: flip ? 9 : 8, lastGap: lastGap)
        lines.append(
            "layout: Auto Layout chain of \(n) views (\(5 * n) constraints) through the Swift layer, CPU time: build + solve + apply \(fmt(build * 1e3)) ms (previous path \(fmt(builds.previous * 1e3)) ms); "
                + "one edit re-solved and applied: \(fmt(editOne.current * 1e6)) µs when one view moves (previous path \(fmt(editOne.previous * 1e6)) µs, target <= 20 µs at 1,000), "
                + "\(fmt(editAll.current * 1e6)) µs when all \(n) move (previous path \(fmt(editAll.previous * 1e6)) µs)")
        progress(lines[lines.count - 1])
    }
    return lines
}

/// `--layout`: the layout benchmarks alone, printed.
func layoutBenchOnly(_ options: Options) -> Never {
    for line in layoutBenchmarks(reps: options.reps, quick: options.quick) { print(line) }
    exit(0)
}
