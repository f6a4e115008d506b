import Foundation
import HitTestKit
import HitTestScenes
import HitTestSampleScenes
import HitTestReference

extension HitTestCLI {
    /// Tap-target audit: sampled on a grid of the root's bounds through the bulk hit test.
    public enum Audit {
        /// What the audit found for one interactive view.
        public struct Control: Codable, Sendable, Equatable {
            /// The view's id.
            public var id: String
            /// Its class, when the scene names one.
            public var className: String?
            /// Where a touch reaches it or one of its subviews (pt²).
            public var tapArea: Double
            /// Its own visible area: inside it and all its ancestors (pt²).
            public var visibleArea: Double
            /// The share of the visible area where a touch reaches something else than the view
            /// or its subviews.
            public var occludedShare: Double
            /// Its size on screen (pt).
            public var width: Double, height: Double
            /// Under 44x44 pt.
            public var small: Bool
            /// 1% or more of its visible area covered.
            public var occluded: Bool
        }

        /// The whole audit.
        public struct Report: Codable, Sendable, Equatable {
            /// Interactive views, in pre-order.
            public var controls: [Control]
            /// Where a touch reaches no interactive view (pt²).
            public var deadArea: Double
            /// `deadArea` over the screen's area.
            public var deadShare: Double
            /// The sampling step (pt).
            public var step: Double
        }

        static let controlWords = ["button", "control", "switch", "slider", "textfield", "textview", "stepper", "cell"]

        static func namesAControl(_ name: String) -> Bool {
            // "UIViewControllerWrapperView" names a container, not a control.
            let lower = name.lowercased().replacingOccurrences(of: "viewcontroller", with: "")
            return controlWords.contains { lower.contains($0) }
        }

        /// Audits `window`. A control is a view that can receive touches whose class (from
        /// `scene`) or id names a control (button, cell, switch, text field, …); when no view
        /// of the scene is named so, the leaves are the controls.
        public static func audit(_ window: Window, scene: SceneFile?, step: Double = 1) -> Report {
            var classes: [String: String] = [:]
            if let scene {
                var stack = [scene.root]
                while let n = stack.popLast() {
                    if let c = n.className { classes[n.id] = c }
                    stack.append(contentsOf: n.children)
                }
            }
            func label(_ v: View) -> String {
                let id = v.accessibilityIdentifier ?? ""
                return (classes[id] ?? "") + " " + id
            }
            var named = false
            window.forEachView { if namesAControl(label($0)) { named = true } }
            // Controls: views that can receive touches, named as controls (or leaves).
            var controls: [View] = []
            var stack: [(View, Bool)] = [(window, true)]
            while let (v, reachable) = stack.popLast() {
                let ok = reachable && !v.isHidden && v.isUserInteractionEnabled && v.alpha >= 0.01
                if ok && v !== window, named ? namesAControl(label(v)) : v.subviews.isEmpty { controls.append(v) }
                stack.append(contentsOf: v.subviews.reversed().map { ($0, ok) })
            }
            let isControl = Set(controls.map(ObjectIdentifier.init))
            // The screen samples, once, through the bulk call.
            let b = window.bounds
            let nx = max(1, Int((b.width / step).rounded(.down))), ny = max(1, Int((b.height / step).rounded(.down)))
            var points: [Point] = []
            points.reserveCapacity(nx * ny)
            for j in 0..<ny { for i in 0..<nx { points.append(Point(x: b.minX + (Double(i) + 0.5) * step, y: b.minY + (Double(j) + 0.5) * step)) } }
            let hits = window.hitTest(points)
            var controlOf: [ObjectIdentifier: ObjectIdentifier?] = [:]
            func owner(_ v: View?) -> ObjectIdentifier? {
                guard let v else { return nil }
                if let known = controlOf[ObjectIdentifier(v)] { return known }
                var a: View? = v
                var found: ObjectIdentifier?
                while let x = a {
                    if isControl.contains(ObjectIdentifier(x)) { found = ObjectIdentifier(x); break }
                    a = x.superview
                }
                controlOf[ObjectIdentifier(v)] = found
                return found
            }
            var taps: [ObjectIdentifier: Int] = [:]
            var dead = 0
            let owners = hits.map(owner)
            for o in owners { if let o { taps[o, default: 0] += 1 } else { dead += 1 } }
            let cell = step * step
            var report: [Control] = []
            for c in controls {
                let frame = c.convert(c.bounds, to: nil)
                var visible = 0, covered = 0
                let i0 = max(0, Int(((frame.minX - b.minX) / step).rounded(.down))), i1 = min(nx - 1, Int(((frame.maxX - b.minX) / step).rounded(.up)))
                let j0 = max(0, Int(((frame.minY - b.minY) / step).rounded(.down))), j1 = min(ny - 1, Int(((frame.maxY - b.minY) / step).rounded(.up)))
                if i0 <= i1 && j0 <= j1 {
                    for j in j0...j1 {
                        for i in i0...i1 where reaches(c, points[j * nx + i], window) {
                            visible += 1
                            // Its own subviews (a button in a cell) are part of it, not a cover.
                            if !(hits[j * nx + i]?.isDescendant(of: c) ?? false) { covered += 1 }
                        }
                    }
                }
                let share = visible > 0 ? Double(covered) / Double(visible) : 0
                report.append(Control(
                    id: HitTestCLI.name(c), className: c.accessibilityIdentifier.flatMap { classes[$0] },
                    tapArea: Double(taps[ObjectIdentifier(c)] ?? 0) * cell, visibleArea: Double(visible) * cell,
                    occludedShare: share, width: frame.width, height: frame.height,
                    small: frame.width < 44 || frame.height < 44, occluded: share >= 0.01))
            }
            return Report(controls: report, deadArea: Double(dead) * cell, deadShare: Double(dead) / Double(points.count), step: step)
        }

        /// Whether a touch at `p` (window space) is inside `view` and every ancestor.
        /// (`View.point(inside:)` per level: the same region test the walk makes.)
        static func reaches(_ view: View, _ p: Point, _ window: View) -> Bool {
            var v: View? = view
            while let x = v, x !== window {
                if !x.point(inside: x.convert(p, from: window)) { return false }
                v = x.superview
            }
            return window.point(inside: p)
        }

        static func text(_ r: Report, scene: String) -> String {
            var lines = ["audit of \(scene): \(r.controls.count) interactive views, sampled every \(fmt(r.step)) pt", ""]
            let header = ["id", "class", "tap area pt2", "visible pt2", "occluded", "size pt", "findings"]
            var rows = [header]
            for c in r.controls {
                rows.append([
                    c.id, c.className ?? "", fmt(c.tapArea), fmt(c.visibleArea), String(format: "%.1f%%", c.occludedShare * 100),
                    "\(fmt(c.width.rounded()))x\(fmt(c.height.rounded()))",
                    [c.small ? "small" : nil, c.occluded ? "occluded" : nil].compactMap { $0 }.joined(separator: ","),
                ])
            }
            let widths = header.indices.map { i in rows.map { $0[i].count }.max()! }
            for row in rows { lines.append(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")) }
            lines.append("")
            lines.append("dead zones: \(fmt(r.deadArea)) pt2 (\(String(format: "%.1f", r.deadShare * 100))% of the screen) where a touch reaches no interactive view")
            lines.append("findings: \(r.controls.filter(\.occluded).count) occluded, \(r.controls.filter(\.small).count) small, dead zones \(r.deadShare >= 0.01 ? "yes" : "no")")
            return lines.joined(separator: "\n")
        }

        static func run(_ args: [String], _ output: Output) throws -> Int32 {
            let a = try Arguments(args, valued: ["--fail-on"], flags: ["--json"])
            try a.expect(1, "SCENE")
            let failOn = Set((a.options["--fail-on"] ?? "").split(separator: ",").map(String.init))
            for f in failOn where !["occluded", "small", "dead"].contains(f) {
                throw Failure(message: "--fail-on takes occluded, small and dead, not '\(f)'")
            }
            let (scene, window) = try loadScene(a.positional[0])
            let report = audit(window, scene: scene)
            if a.flags.contains("--json") {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                output.out(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                output.out(text(report, scene: a.positional[0]))
            }
            var failed: [String] = []
            if failOn.contains("occluded"), report.controls.contains(where: \.occluded) { failed.append("occluded") }
            if failOn.contains("small"), report.controls.contains(where: \.small) { failed.append("small") }
            if failOn.contains("dead"), report.deadShare >= 0.01 { failed.append("dead") }
            if !failed.isEmpty {
                output.err("hittest audit: failing on \(failed.joined(separator: ", "))")
                return 1
            }
            return 0
        }
    }

    // MARK: - demo

    enum Demo {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["--out", "--points"], flags: [])
            try a.expect(0, "no positional arguments")
            let dir = a.options["--out"] ?? "."
            let count = try a.options["--points"].map { s -> Int in
                guard let n = Int(s), n > 0 else { throw Failure(message: "--points takes a positive whole number") }
                return n
            } ?? 1_000_000
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            output.err("building the app scene (a phone screen, a table of 200 cells scrolled by 1,200 pt)")
            let built = SampleScenes.app(cells: 200)
            let window = built.root
            let points = SampleScenes.uniformPoints(count, in: window.bounds, seed: 7)
            output.err("hit-testing \(count) points")
            window.prepareHitTesting()
            var handles = [HitTestHandle](repeating: .none, count: count)
            let t0 = ContinuousClock.now
            points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0) } }
            let bulk = t0.duration(to: .now)
            let sample = min(count, 2000)
            let t1 = ContinuousClock.now
            var mismatches = 0
            for i in 0..<sample where Reference.hitTest(window, points[i]) !== window.view(forHitTestHandle: handles[i]) { mismatches += 1 }
            let reference = t1.duration(to: .now)
            let bulkRate = Double(count) / seconds(bulk)
            let refRate = Double(sample) / seconds(reference)
            output.out("app scene: \(built.views.count) views")
            output.out(String(format: "bulk hit test: %d points in %.1f ms = %.1f M points/s (all cores)", count, seconds(bulk) * 1e3, bulkRate / 1e6))
            output.out(String(format: "reference walk: %.3f M points/s on a %d-point sample; the engine is %.0fx faster", refRate / 1e6, sample, bulkRate / refRate))
            output.out(mismatches == 0 ? "every sampled answer matches the reference walk" : "MISMATCH: \(mismatches) sampled answers differ")
            let scene = SceneFile(view: window)
            try write(scene.jsonData(), to: dir + "/demo-scene.json")
            output.err("rendering the hit map and auditing the tap targets")
            try write(Render.hitMap(window, scale: 1).image.pngData(), to: dir + "/demo-map.png")
            try write(Data(Audit.text(Audit.audit(window, scene: scene), scene: "app").utf8), to: dir + "/demo-audit.txt")
            output.out("wrote \(dir)/demo-map.png, \(dir)/demo-audit.txt and \(dir)/demo-scene.json")
            if mismatches > 0 { throw Failure(message: "the engine and the reference walk disagree", status: 1) }
        }

        static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
    }
}
