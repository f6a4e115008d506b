import Foundation
import HitTestKit
import HitTestScenes
import HitTestSampleScenes
import HitTestReference

extension HitTestCLI {
    /// Tap-target audit: sampled on a grid of the root's screen rectangle through the bulk hit test.
    public enum Audit {
        /// What the audit found for one reachable control.
        public struct Control: Codable, Sendable, Equatable {
            /// The view's id.
            public var id: String
            /// Its class, when the scene names one.
            public var className: String?
            /// Where a touch reaches it or one of its non-control subviews (pt²).
            public var tapArea: Double
            /// Its effective tap region (bounds with hitTestInsets) inside every clipping
            /// ancestor's region (pt²).
            public var visibleArea: Double
            /// The share of the visible area where a touch reaches something else.
            public var occludedShare: Double
            /// The size of its reachable extent: the effective tap region cut by the ancestors
            /// (pt, exact: 43.5 stays 43.5).
            public var width: Double, height: Double
            /// Extent under 44 pt in either direction.
            public var small: Bool
            /// 1% or more of its visible area covered.
            public var occluded: Bool
        }

        /// A control that no touch can reach, and why.
        public struct Unreachable: Codable, Sendable, Equatable {
            /// The view's id.
            public var id: String
            /// Its class, when the scene names one.
            public var className: String?
            /// Why: hidden, not interactive, alpha, zero or negative size, off screen, clipped
            /// away, covered entirely.
            public var reason: String
        }

        /// The whole audit.
        public struct Report: Codable, Sendable, Equatable {
            /// Reachable controls, in pre-order.
            public var controls: [Control]
            /// Controls with no reachable area.
            public var unreachable: [Unreachable]
            /// Where a touch reaches no control (pt²).
            public var deadArea: Double
            /// `deadArea` over the screen's area.
            public var deadShare: Double
            /// The sampling step (pt).
            public var step: Double
        }

        /// UIKit classes that take touches: UIControl subclasses, cells, text views.
        static let controlClasses: Set<String> = [
            "UIControl", "UIButton", "UISwitch", "UISlider", "UITextField", "UISearchTextField", "UISegmentedControl",
            "UIStepper", "UIDatePicker", "UIPageControl", "UIColorWell", "UIRefreshControl", "UITextView",
            "UITableViewCell", "UICollectionViewCell", "UICollectionViewListCell",
        ]
        /// XCUITest / Appium element types (after `XCUIElementType`) that take touches.
        static let elementTypes: Set<String> = [
            "Button", "Link", "Cell", "Switch", "Toggle", "Slider", "TextField", "SecureTextField", "SearchField",
            "SegmentedControl", "Stepper", "TextView", "Key", "MenuItem", "PickerWheel", "Tab", "DatePicker",
            "PageIndicator", "CheckBox", "RadioButton", "PopUpButton", "ColorWell", "Incrementor",
        ]
        /// Class-name endings of app subclasses of those (`CheckoutButton`, `Adyen.ListCell`).
        static let controlSuffixes = ["Button", "Control", "Switch", "Slider", "TextField", "Stepper", "Cell"]
        /// Last words of ids that name controls, for scenes without classes.
        static let controlWords: Set<String> = ["button", "control", "switch", "slider", "textfield", "field", "cell", "link", "tab", "stepper", "toggle"]

        /// The class's own name: module prefix and Swift mangling removed.
        static func simpleName(_ raw: String) -> String {
            var name = raw
            if name.hasPrefix("_Tt") {
                // _TtC5Adyen12SubmitButton, _TtCC5Adyen12SubmitButton14BackgroundView: the last identifier.
                var chars = Array(name.utf8.dropFirst(3))
                while let c = chars.first, !(0x30...0x39).contains(c) { chars.removeFirst() }
                var last = name
                while !chars.isEmpty {
                    var n = 0
                    while let c = chars.first, (0x30...0x39).contains(c) { n = n * 10 + Int(c - 0x30); chars.removeFirst() }
                    guard n > 0, n <= chars.count else { break }
                    last = String(decoding: chars.prefix(n), as: UTF8.self)
                    chars.removeFirst(n)
                }
                name = last
            }
            return name.split(separator: ".").last.map(String.init) ?? name
        }

        /// Whether a class takes touches (see `--help`): a UIControl subclass, a cell, a text
        /// view, a page-source control or link, or an app class ending in one of those words.
        /// `"Name (BaseClass)"` (an importer's `baseClass =`) counts when either does.
        public static func isControlClass(_ className: String) -> Bool {
            var names = [className]
            if let open = className.firstIndex(of: "("), className.hasSuffix(")") {
                names = [String(className[..<open]).trimmingCharacters(in: .whitespaces),
                         String(className[className.index(after: open)..<className.index(before: className.endIndex)])]
            }
            for raw in names {
                let name = simpleName(raw)
                if name.hasPrefix("XCUIElementType") { if elementTypes.contains(String(name.dropFirst(15))) { return true }; continue }
                if controlClasses.contains(name) || controlSuffixes.contains(where: { name.hasSuffix($0) }) { return true }
            }
            return false
        }

        /// For scenes without classes: the id's last word (letters only) names a control.
        public static func isControlID(_ id: String) -> Bool {
            let words = id.lowercased().split { !$0.isLetter }
            return words.last.map { controlWords.contains(String($0)) } ?? false
        }

        /// Why view `v` itself can never be the hit, or nil.
        static func neverHit(_ v: View) -> String? {
            if v.isHidden { return "hidden" }
            if !v.isUserInteractionEnabled { return "userInteractionEnabled is false" }
            if !(v.alpha >= 0.01) { return "alpha \(fmt(v.alpha)) < 0.01" }
            let b = v.bounds, i = v.hitTestInsets
            let w = b.width - i.left - i.right, h = b.height - i.top - i.bottom
            if !(w > 0 && h > 0) { return "zero or negative size (\(fmt(w))x\(fmt(h)) with hitTestInsets)" }
            return nil
        }

        /// The effective tap region of `v` (bounds with hitTestInsets) as a screen box.
        static func screenBox(_ v: View, _ window: View) -> Rect {
            let b = v.bounds, i = v.hitTestInsets
            let r = Rect(x: b.minX + i.left, y: b.minY + i.top, width: b.width - i.left - i.right, height: b.height - i.top - i.bottom)
            let inRoot = v === window ? r : v.convert(r, to: window)
            let corners = [Point(x: inRoot.minX, y: inRoot.minY), Point(x: inRoot.maxX, y: inRoot.minY),
                           Point(x: inRoot.minX, y: inRoot.maxY), Point(x: inRoot.maxX, y: inRoot.maxY)].map { Screen.fromRoot($0, window) }
            let xs = corners.map(\.x), ys = corners.map(\.y)
            return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
        }

        static func intersect(_ a: Rect, _ b: Rect) -> Rect? {
            let x0 = max(a.minX, b.minX), y0 = max(a.minY, b.minY), x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
            return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }

        /// The default sample budget; a larger screen is sampled more coarsely (said on stderr).
        static let defaultSamples = 4_000_000
        /// The most samples `--step` may ask for.
        static let maxSamples = 1 << 24

        /// The sampling step for a screen rectangle: `requested`, or 1 pt made coarser to fit.
        static func step(for r: Rect, requested: Double?) throws -> Double {
            let w = max(r.width, 0), h = max(r.height, 0)
            // Samples at step s: max(1, floor(w/s)) x max(1, floor(h/s)), also for thin screens.
            func samples(_ s: Double) -> Double { max(1, (w / s).rounded(.down)) * max(1, (h / s).rounded(.down)) }
            if let requested {
                guard samples(requested) <= Double(maxSamples) else {
                    throw Failure(message: "--step \(exact(requested)) on a \(exact(w))x\(exact(h)) pt screen needs \(String(format: "%.3g", samples(requested))) samples; the most is \(maxSamples): use a larger --step")
                }
                return requested
            }
            let budget = Double(defaultSamples)
            if samples(1) <= budget { return 1 }
            var s = max((w * h / budget).squareRoot(), w / budget, h / budget).rounded(.up)
            while samples(s) > budget { s = (s * 1.25).rounded(.up) }
            return s
        }

        /// Audits `window`. Controls are decided by class (`isControlClass`), by listed gesture
        /// recognizers, or, when no node of the scene has a class, by id (`isControlID`); when
        /// nothing qualifies, the leaves.
        public static func audit(_ window: Window, scene: SceneFile?, step requested: Double? = nil) throws -> Report {
            var classes: [String: String] = [:]
            var gestures = Set<String>()
            if let scene {
                var stack = [scene.root]
                while let n = stack.popLast() {
                    if let c = n.className { classes[n.id] = c }
                    if n.hasGestureRecognizers { gestures.insert(n.id) }
                    stack.append(contentsOf: n.children)
                }
            }
            func isControl(_ v: View) -> Bool {
                let id = v.accessibilityIdentifier ?? ""
                if gestures.contains(id) { return true }
                if classes.isEmpty { return isControlID(id) }
                return classes[id].map(isControlClass) ?? false
            }
            var any = false
            window.forEachView { if $0 !== window && isControl($0) { any = true } }
            // Controls, each with what blocks it from above (hidden ancestor, ...).
            var controls: [(View, String?)] = []
            var stack: [(View, String?)] = [(window, nil)]
            while let (v, inherited) = stack.popLast() {
                var own: String?
                if v.isHidden { own = "hidden" }
                else if !v.isUserInteractionEnabled { own = "userInteractionEnabled is false" }
                else if !(v.alpha >= 0.01) { own = "alpha \(fmt(v.alpha)) < 0.01" }
                if v !== window, any ? isControl(v) : v.subviews.isEmpty { controls.append((v, inherited ?? own)) }
                let passed = inherited ?? own.map { "\($0) (\(name(v)))" }
                stack.append(contentsOf: v.subviews.reversed().map { ($0, passed) })
            }
            let isControlView = Set(controls.map { ObjectIdentifier($0.0) })
            // The screen samples, once, through the bulk call.
            let screen = Screen.rect(window)
            let step = try step(for: screen, requested: requested)
            let grid = SampleGrid(screen: screen, step: step)
            let (nx, ny) = (grid.nx, grid.ny)
            let sample = grid.sample
            var points: [Point] = []
            points.reserveCapacity(nx * ny)
            for j in 0..<ny { for i in 0..<nx { points.append(Screen.toRoot(sample(i, j), window)) } }
            var handles = [HitTestHandle](repeating: .none, count: points.count)
            window.prepareHitTesting()
            points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0) } }
            var ownerOf: [HitTestHandle: ObjectIdentifier?] = [:]
            func owner(_ h: HitTestHandle) -> ObjectIdentifier? {
                if let known = ownerOf[h] { return known }
                var a = window.view(forHitTestHandle: h)
                var found: ObjectIdentifier?
                while let x = a {
                    if isControlView.contains(ObjectIdentifier(x)) { found = ObjectIdentifier(x); break }
                    a = x.superview
                }
                ownerOf[h] = found
                return found
            }
            var taps: [ObjectIdentifier: Int] = [:]
            var dead = 0
            for h in handles { if let o = owner(h) { taps[o, default: 0] += 1 } else { dead += 1 } }
            let cell = grid.cellArea
            var report: [Control] = []
            var unreachable: [Unreachable] = []
            for (c, blocked) in controls {
                let className = c.accessibilityIdentifier.flatMap { classes[$0] }
                func drop(_ reason: String) { unreachable.append(Unreachable(id: name(c), className: className, reason: reason)) }
                if let blocked { drop(blocked); continue }
                if let reason = neverHit(c) { drop(reason); continue }
                // The extent: the region, cut by every ancestor that clips touches.
                var extent: Rect? = screenBox(c, window)
                var clipper: View?
                var a = c.superview
                while let x = a, extent != nil {
                    if !x.allowsSubviewHitsOutsideBounds {
                        let next = intersect(extent!, screenBox(x, window))
                        if next == nil { clipper = x }
                        extent = next
                    }
                    a = x.superview
                }
                guard let box = extent.flatMap({ intersect($0, screen) }) else {
                    if let clipper, clipper !== window { drop("clipped away (outside \(name(clipper)))") } else { drop("off screen") }
                    continue
                }
                var visible = 0, covered = 0
                var coverCounts: [HitTestHandle: Int] = [:]
                let i0 = max(0, int(((box.minX - screen.minX) / step).rounded(.down)) ?? 0), i1 = min(nx - 1, int(((box.maxX - screen.minX) / step).rounded(.up)) ?? nx - 1)
                let j0 = max(0, int(((box.minY - screen.minY) / step).rounded(.down)) ?? 0), j1 = min(ny - 1, int(((box.maxY - screen.minY) / step).rounded(.up)) ?? ny - 1)
                if i0 <= i1 && j0 <= j1 {
                    for j in j0...j1 {
                        for i in i0...i1 where reaches(c, points[j * nx + i], window) {
                            visible += 1
                            let h = handles[j * nx + i]
                            // Its own subviews (an icon in a button) are part of it, not a cover.
                            if !(window.view(forHitTestHandle: h)?.isDescendant(of: c) ?? false) { covered += 1; coverCounts[h, default: 0] += 1 }
                        }
                    }
                }
                let tap = taps[ObjectIdentifier(c)] ?? 0
                if tap == 0 {
                    if visible == 0 { drop("smaller than the sampling step (\(exact(step)) pt)"); continue }
                    let by = coverCounts.max { $0.value < $1.value }.map { name(window.view(forHitTestHandle: $0.key)) } ?? ""
                    drop(by.isEmpty ? "covered entirely" : "covered entirely (by \(by))")
                    continue
                }
                let share = visible > 0 ? Double(covered) / Double(visible) : 0
                report.append(Control(
                    id: name(c), className: className,
                    tapArea: Double(tap) * cell, visibleArea: Double(visible) * cell,
                    occludedShare: share, width: box.width, height: box.height,
                    small: box.width < 44 || box.height < 44, occluded: share >= 0.01))
            }
            return Report(controls: report, unreachable: unreachable, deadArea: Double(dead) * cell, deadShare: Double(dead) / Double(points.count), step: step)
        }

        /// The audit's samples: the centres of a `step` grid over the screen, row by row. An
        /// axis shorter than the step has one sample, at its middle, standing for the whole
        /// extent: a sample's cell never leaves the screen, so no area exceeds the screen's.
        struct SampleGrid {
            var screen: Rect
            var step: Double
            /// Samples across and down.
            var nx: Int, ny: Int
            /// The extent each sample stands for, across and down.
            var cellWidth: Double, cellHeight: Double

            init(screen: Rect, step: Double) {
                self.screen = screen
                self.step = step
                let w = max(screen.width, 0), h = max(screen.height, 0)
                nx = max(1, int((w / step).rounded(.down)) ?? 1)
                ny = max(1, int((h / step).rounded(.down)) ?? 1)
                cellWidth = w >= step ? step : w
                cellHeight = h >= step ? step : h
            }

            /// Whether the step is coarser than the screen across or down.
            var clamped: Bool { max(screen.width, 0) < step || max(screen.height, 0) < step }

            /// The area one sample stands for (pt²).
            var cellArea: Double { cellWidth * cellHeight }

            /// Sample (i, j) on the screen.
            func sample(_ i: Int, _ j: Int) -> Point {
                Point(x: screen.minX + (Double(i) + 0.5) * cellWidth, y: screen.minY + (Double(j) + 0.5) * cellHeight)
            }
        }

        /// Whether a touch at `p` (root space) is inside `view` and every ancestor that clips.
        static func reaches(_ view: View, _ p: Point, _ window: View) -> Bool {
            var v: View? = view
            while let x = v, x !== window {
                if !x.point(inside: x.convert(p, from: window)) && (x === view || !x.allowsSubviewHitsOutsideBounds) { return false }
                v = x.superview
            }
            return window.point(inside: p) || window.allowsSubviewHitsOutsideBounds
        }

        /// An area as `fmt` prints it, but a tiny one that `fmt` would round to 0 in full.
        static func area(_ x: Double) -> String { x != 0 && abs(x) < 0.00005 ? exact(x) : fmt(x) }

        static func text(_ r: Report, scene: String) -> String {
            var lines = [
                "audit of \(scene.escapingControlCharacters): \(count(r.controls.count + r.unreachable.count, "control")): \(r.controls.count) reachable, \(r.unreachable.count) unreachable; sampled every \(exact(r.step)) pt",
                "",
            ]
            let header = ["id", "class", "tap area pt2", "visible pt2", "occluded", "size pt", "findings"]
            var rows = [header]
            for c in r.controls {
                rows.append([
                    c.id.escapingControlCharacters, (c.className ?? "").escapingControlCharacters, area(c.tapArea), area(c.visibleArea), String(format: "%.1f%%", c.occludedShare * 100),
                    "\(fmt(c.width))x\(fmt(c.height))",
                    [c.small ? "small" : nil, c.occluded ? "occluded" : nil].compactMap { $0 }.joined(separator: ","),
                ])
            }
            let widths = header.indices.map { i in rows.map { $0[i].count }.max()! }
            for row in rows { lines.append(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")) }
            if !r.unreachable.isEmpty {
                lines.append("")
                lines.append("unreachable (no touch reaches them): \(r.unreachable.count)")
                for u in r.unreachable {
                    let line = "\(u.id)\(u.className.map { " (\($0))" } ?? ""): \(u.reason)"
                    lines.append("  " + line.escapingControlCharacters)
                }
            }
            lines.append("")
            lines.append("dead zones: \(area(r.deadArea)) pt2 (\(String(format: "%.1f", r.deadShare * 100))% of the screen) where a touch reaches no control")
            lines.append("findings: \(r.controls.filter(\.occluded).count) occluded, \(r.controls.filter(\.small).count) small, \(r.unreachable.count) unreachable, dead zones \(r.deadShare >= 0.01 ? "yes" : "no")")
            return lines.joined(separator: "\n")
        }

        static func run(_ args: [String], _ output: Output) throws -> Int32 {
            let a = try Arguments(args, valued: ["--fail-on", "--step", "--size"], flags: ["--json"])
            try a.expect(1, "SCENE")
            let failOn = Set((a.options["--fail-on"] ?? "").split(separator: ",").map(String.init))
            for f in failOn where !["occluded", "small", "dead", "unreachable"].contains(f) {
                throw Failure(message: "--fail-on takes occluded, small, unreachable and dead, not '\(f)'")
            }
            let requested = try a.options["--step"].map { s -> Double in
                guard let v = Double(s), v.isFinite, v > 0 else { throw Failure(message: "--step takes a positive number of points") }
                return v
            }
            let (scene, window) = try loadScene(a.positional[0], output)
            try LayoutOption.apply(a.options["--size"], to: window)  // Layout: --size
            let report = try audit(window, scene: scene, step: requested)
            let screen = Screen.rect(window)
            if requested == nil && report.step != 1 {
                output.err("the screen is large: sampling every \(exact(report.step)) pt (at most \(defaultSamples) samples; --step to choose)")
            }
            if SampleGrid(screen: screen, step: report.step).clamped {
                output.err("\(requested == nil ? "the step" : "--step") \(exact(report.step)) is coarser than the \(exact(max(screen.width, 0)))x\(exact(max(screen.height, 0))) pt screen: where the screen is shorter than the step, one sample stands for the whole extent")
            }
            if a.flags.contains("--json") {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                output.out(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                output.out(text(report, scene: display(a.positional[0])))
            }
            var failed: [String] = []
            if failOn.contains("occluded"), report.controls.contains(where: \.occluded) { failed.append("occluded") }
            if failOn.contains("small"), report.controls.contains(where: \.small) { failed.append("small") }
            if failOn.contains("unreachable"), !report.unreachable.isEmpty { failed.append("unreachable") }
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
                guard let n = Int(s) ?? Double(s).flatMap({ $0 == $0.rounded() ? int($0) : nil }), n > 0 else {
                    throw Failure(message: "--points takes a positive whole number")
                }
                guard n <= maxPoints else {
                    throw Failure(message: "--points \(n): at most \(maxPoints) (the points alone would need \(n / 1_000_000 * 20) MB)")
                }
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
            let t2 = ContinuousClock.now
            points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0, threads: 1) } }
            let bulk1 = t2.duration(to: .now)
            // The baseline: the seed algorithm written as well as plain Swift makes it (FairWalk:
            // plain structs, stored inverse transforms, subviews sorted once), on one thread.
            let fair = FairWalk(window)
            let sample = min(count, 100_000)
            let t1 = ContinuousClock.now
            for i in 0..<sample { _ = fair.hitTest(points[i]) }
            let reference = t1.duration(to: .now)
            // Every timed answer against the engine's, and the tests' definition on a sample.
            var mismatches = 0
            for i in 0..<sample where fair.hitTest(points[i]) !== window.view(forHitTestHandle: handles[i]) { mismatches += 1 }
            for i in 0..<min(count, 500) where Reference.hitTest(window, points[i]) !== window.view(forHitTestHandle: handles[i]) { mismatches += 1 }
            let bulkRate = Double(count) / seconds(bulk)
            let bulk1Rate = Double(count) / seconds(bulk1)
            let refRate = Double(sample) / seconds(reference)
            output.out("app scene: \(built.views.count) views")
            output.out(String(format: "bulk hit test: %d points in %.1f ms = %.1f M points/s (all cores), %.1f M points/s (1 thread)", count, seconds(bulk) * 1e3, bulkRate / 1e6, bulk1Rate / 1e6))
            output.out(String(format: "reference walk (the same algorithm in plain Swift, 1 thread): %.2f M points/s on a %d-point sample; the engine is %.0fx faster on 1 thread, %.0fx on all cores", refRate / 1e6, sample, bulk1Rate / refRate, bulkRate / refRate))
            output.out(mismatches == 0 ? "every sampled answer matches the reference walk" : "MISMATCH: \(mismatches) sampled answers differ")
            let scene = SceneFile(view: window)
            try write(scene.jsonData(), to: dir + "/demo-scene.json", output)
            output.err("rendering the hit map and auditing the tap targets")
            try write(Render.hitMap(window, try Render.Grid(window, scale: 1, output)).image.pngData(), to: dir + "/demo-map.png", output)
            try write(Data(Audit.text(try Audit.audit(window, scene: scene), scene: "app").utf8), to: dir + "/demo-audit.txt", output)
            output.out("wrote \(dir)/demo-map.png, \(dir)/demo-audit.txt and \(dir)/demo-scene.json")
            if mismatches > 0 { throw Failure.internal("the engine and the reference walk disagree") }
        }

        /// The most points a demo run allocates (20 bytes each: 1 GB).
        static let maxPoints = 50_000_000

        static func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18 }
    }
}
