import Foundation
import HitTestKit
import HitTestReference
import HitTestSampleScenes

extension Bench {
    /// Bulk hit testing over time: a 1 M-point bulk query against a
    /// presentation snapshot of `app` at a time while 100 views animate, beside the same query
    /// against the model snapshot; plus the cost of taking each snapshot. Answers of the
    /// presentation snapshot are checked against the reference's presentation walk on a sample.
    func animationBenchmark(_ options: Options) {
        guard options.scenes.contains("app") else { return }
        progress("animation: 100 views animating in app")
        let scene = SampleScenes.make("app")!
        let root = scene.root
        let app = Application()
        app.addWindow(root)
        app.advanceTime(to: 0)
        // 100 views spread over the tree (not the window), half with .allowUserInteraction.
        let candidates = Array(scene.views.dropFirst())
        let step = max(1, candidates.count / 100)
        let animated = stride(from: 0, to: candidates.count, by: step).prefix(100).map { candidates[$0] }
        for (i, v) in animated.enumerated() {
            let options: View.AnimationOptions = i % 2 == 0 ? [.curveEaseOut] : [.curveEaseOut, .allowUserInteraction]
            View.animate(withDuration: 1, delay: 0, options: options, animations: {
                v.center = Point(x: v.center.x + 60, y: v.center.y + 12)
                if i % 3 == 0 { v.alpha = 0.5 }
            })
        }
        app.advanceTime(to: 0.4)
        let animating = animated.filter(\.isAnimating).count
        let time = app.currentTime
        let points = SampleScenes.uniformPoints(options.points, in: root.bounds, seed: 7)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var handles = [HitTestHandle](repeating: .none, count: points.count)

        var modelSnapshot: HitTestSnapshot?
        let modelBuild = median(options.reps) { modelSnapshot = root.makeHitTestSnapshot() }
        var presentationSnapshot: HitTestSnapshot?
        let presentationBuild = median(options.reps) { presentationSnapshot = root.makeHitTestSnapshot(presentationAt: time) }
        guard let model = modelSnapshot, let shown = presentationSnapshot else { return }

        func bulk(_ s: HitTestSnapshot, threads: Int) -> Double {
            median(options.reps) {
                points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { s.hitTest(p, into: $0, threads: threads) } }
                sink &+= Int(handles[handles.count / 2].rawValue)
            }
        }
        let model1 = bulk(model, threads: 1)
        let modelN = bulk(model, threads: cores)
        let shown1 = bulk(shown, threads: 1)
        let shownN = bulk(shown, threads: cores)

        // Check: the presentation snapshot against the reference's presentation walk, and the
        // model left as it was (the model snapshot against the definition walk).
        let sample = points.prefix(20_000)
        let shownAnswers = shown.hitTest(Array(sample))
        let modelAnswers = model.hitTest(Array(sample))
        var badShown = 0
        var badModel = 0
        var differ = 0
        for (i, p) in sample.enumerated() {
            if root.view(forHitTestHandle: shownAnswers[i]) !== Reference.presentationHitTest(root, p, at: time) { badShown += 1 }
            if root.view(forHitTestHandle: modelAnswers[i]) !== Reference.hitTest(root, p) { badModel += 1 }
            if shownAnswers[i] != modelAnswers[i] { differ += 1 }
        }
        if badShown > 0 { failures.append("animation: \(badShown) presentation-snapshot answers differ from the reference") }
        if badModel > 0 { failures.append("animation: \(badModel) model-snapshot answers differ from the reference") }
        let n = Double(points.count)
        extras.append(
            "animation (app, \(animating) views animating, t = \(time)): \(points.count) uniform points; "
                + "model snapshot: take \(fmt(modelBuild * 1e3)) ms, bulk-1 \(fmt(n / model1 / 1e6)) M points/s, bulk-\(cores) \(fmt(n / modelN / 1e6)) M points/s; "
                + "presentation snapshot: take \(fmt(presentationBuild * 1e3)) ms, bulk-1 \(fmt(n / shown1 / 1e6)) M points/s, bulk-\(cores) \(fmt(n / shownN / 1e6)) M points/s; "
                + "\(fmt(Double(differ) / Double(sample.count) * 100))% of the points get another view than in the model")
        for v in animated { v.removeAllAnimations() }
    }
}
