import Foundation
import HitTestKit
import HitTestSampleScenes

// Layout benchmarks through the Swift layer: the layout pass on `app` after a window resize, and
// Auto Layout on a vertical chain of N views, each pinned to the previous one with 5
// constraints: build + solve, and one edit re-solved, when one view moves and when all move.
// (The solver's C API alone is measured by `--solver`, SolverBench.swift.) Times are medians of
// this thread's CPU time (robust on a shared machine).
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
        let build = cpuMedian(quick ? 1 : 3) {
            built = nil
            let c = chain(n)
            c.root.layoutIfNeeded()
            built = c
        }
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
        // view's top (all n move).
        var flip = false
        let lastTop = c.constraints[5 * (n - 1) + 2]
        let editOne = cpuMedian(max(reps, 51)) {
            flip.toggle()
            lastTop.constant = flip ? 5 : 4
            c.root.layoutIfNeeded()
        }
        let lastGap: Double = flip ? 5 : 4
        check("the one-view edits", firstTop: 8, lastGap: lastGap)
        progress("layout: one-view edit \(fmt(editOne * 1e6)) µs")
        let firstTop = c.constraints[2]
        let editAll = cpuMedian(max(reps, 21)) {
            flip.toggle()
            firstTop.constant = flip ? 9 : 8
            c.root.layoutIfNeeded()
        }
        check("the all-view edits", firstTop: flip ? 9 : 8, lastGap: lastGap)
        lines.append(
            "layout: Auto Layout chain of \(n) views (\(5 * n) constraints) through the Swift layer, CPU time: build + solve + apply \(fmt(build * 1e3)) ms; "
                + "one edit re-solved and applied: \(fmt(editOne * 1e6)) µs when one view moves, "
                + "\(fmt(editAll * 1e6)) µs when all \(n) move (\(fmt(editAll / Double(n) * 1e9)) ns per moved view; target <= 30 ns)")
        progress(lines[lines.count - 1])
    }
    return lines
}

/// `--layout`: the layout benchmarks alone, printed.
func layoutBenchOnly(_ options: Options) -> Never {
    for line in layoutBenchmarks(reps: options.reps, quick: options.quick) { emit(line) }
    finish(0)
}
