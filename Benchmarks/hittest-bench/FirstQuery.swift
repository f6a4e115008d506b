// The "first query" figures: what a bulk call costs right after a change at the tree's root
// (which drops the answer grid; the call prepares what it needs), the next two calls, and what
// an explicit prepareHitTesting() costs (everything built) and a bulk call after it. Thread CPU
// time, interleaved rounds, medians.
// Self-contained (public API only), so the same file also measures older commits.
import Foundation
import HitTestKit
import HitTestSampleScenes

/// One scene's first-query figures (milliseconds, medians).
struct FirstQueryFigures {
    var scene: String
    var points: Int
    var build = 0.0   // ms: prepareHitTesting() after a change at the root (everything built)
    var first = 0.0   // ms: the first bulk call after a change at the root (it prepares what it needs)
    var second = 0.0  // ms: the next bulk call of the same points
    var bulk = 0.0    // ms: the third bulk call
    var built = 0.0   // ms: a bulk call after prepareHitTesting() (everything built)
}

/// Measures the first-query figures of `scenes` (1 thread, thread CPU time, `reps` rounds).
func measureFirstQuery(_ scenes: [String], points count: Int, reps: Int) -> [FirstQueryFigures] {
    var all: [FirstQueryFigures] = []
    for name in scenes {
        guard let scene = SampleScenes.make(name) else { continue }
        let root = scene.root
        root.prepareHitTesting()
        let points = SampleScenes.uniformPoints(count, in: root.bounds, seed: 7)
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        var t: [[Double]] = [[], [], [], [], []]
        let frame = root.frame
        // A change at the root drops the whole answer grid: the next prepare rebuilds it.
        func change() {
            root.frame = Rect(x: frame.origin.x + 1, y: frame.origin.y, width: frame.size.width, height: frame.size.height)
            root.frame = frame
        }
        func bulk() {
            points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) } }
        }
        for _ in 0..<max(1, reps) {
            change()
            var t0 = firstQueryCPUSeconds()
            for k in 1...3 {
                bulk()
                let t1 = firstQueryCPUSeconds()
                t[k].append(t1 - t0)
                t0 = t1
            }
            change()
            t0 = firstQueryCPUSeconds()
            root.prepareHitTesting()
            let t1 = firstQueryCPUSeconds()
            bulk()
            t[0].append(t1 - t0)
            t[4].append(firstQueryCPUSeconds() - t1)
        }
        func med(_ v: [Double]) -> Double { v.sorted()[v.count / 2] * 1e3 }
        all.append(FirstQueryFigures(scene: name, points: points.count, build: med(t[0]), first: med(t[1]), second: med(t[2]), bulk: med(t[3]), built: med(t[4])))
    }
    return all
}

/// The first-query lines of the benchmark's output.
func firstQueryText(_ all: [FirstQueryFigures]) -> String {
    func f(_ v: Double) -> String { String(format: "%.2f", v) }
    var lines = [
        "| scene | points | first bulk call ms | second ms | third ms | prepareHitTesting ms (all built) | then bulk ms | first ÷ third |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for q in all {
        lines.append("| \(q.scene) | \(q.points) | \(f(q.first)) | \(f(q.second)) | \(f(q.bulk)) | \(f(q.build)) | \(f(q.built)) | \(f(q.first / max(q.bulk, 1e-9))) |")
    }
    return lines.joined(separator: "\n")
}

/// This thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
func firstQueryCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
