import Foundation
import HitTestKit
import HitTestScenes
import HitTestSampleScenes

extension HitTestCLI {
    /// `render SCENE -o MAP.html`: one self-contained page (inline data, script and style; no
    /// network) that draws the engine's hit map on a canvas and, on hover, answers for the
    /// point under the pointer: the hit view, its ancestor path, the views under the pointer
    /// that did not get the touch and why, and `explain`'s trail.
    ///
    /// The page answers in the browser, without a server: its model script
    /// (`HTMLPageScript.model`) runs UIKit's walk over the page's data, the numbers the C walk
    /// uses (`LevelConversion`'s, written exactly, with the C index's search order), with the C
    /// walk's arithmetic, operation for operation, and writes `explain`'s trail in its words.
    /// The map's pixels are the C engine's bulk answers. The script has no DOM code, so node
    /// runs it headlessly in the tests, which hold its answers, trails and costs to the C
    /// walk's (`HitTestTrace`) on many points of many scenes.
    enum HTMLPage {
        /// The page's default raster: at most 2 pixels per point and 1.5 M pixels.
        static let defaultPixels = 1_500_000.0
        /// The deepest tree the page audits (the audit's cost grows with depth squared).
        static let maxAuditDepth = 1_000

        /// Whether a `render` command line asks for the page: `--html`, or `-o` naming an
        /// `.html` or `.htm` file.
        static func wanted(_ args: [String]) -> Bool {
            if args.contains("--html") { return true }
            guard let i = args.firstIndex(of: "-o"), i + 1 < args.count else { return false }
            let out = args[i + 1].lowercased()
            return out.hasSuffix(".html") || out.hasSuffix(".htm")
        }

        /// Options of the page that the PNG output does not take.
        static let pageOnly: Set<String> = ["--sample", "--save-scene", "--html"]

        static func run(_ args: [String], _ output: Output) throws {
            try Render.refuse(Render.pngOnly, in: args, because: "goes with the PNG output (-o MAP.png), not the page: the page draws the scene as loaded")
            let a = try Arguments(args, valued: ["-o", "--scale", "--sample", "--save-scene", "--size"], flags: ["--html", "--cost"])
            guard let out = a.options["-o"] else { throw Failure(message: "-o MAP.html is required") }
            let explicit = try a.options["--scale"].map { s -> Double in
                guard let v = Double(s), v > 0, v <= 16 else { throw Failure(message: "--scale takes a number in (0, 16]") }
                return v
            }
            let scene: SceneFile
            let window: Window
            let title: String
            if let sample = a.options["--sample"] {
                try a.expect(0, "either SCENE or --sample NAME, not both")
                guard let built = SampleScenes.make(sample) else {
                    throw Failure(message: "unknown sample scene '\(sample)'; samples: \(SampleScenes.names.joined(separator: ", "))")
                }
                window = built.root
                scene = SceneFile(view: window)
                title = sample
            } else {
                try a.expect(1, "SCENE (or --sample NAME)")
                (scene, window) = try loadScene(a.positional[0], output)
                title = display(a.positional[0])
            }
            try LayoutOption.apply(a.options["--size"], to: window)  // Layout: --size
            if let path = a.options["--save-scene"] { try write(scene.jsonData(), to: path, output) }
            let html = try page(window, scene: scene, title: title, scale: explicit, showCost: a.flags.contains("--cost"), output)
            try write(Data(html.utf8), to: out, output)
            output.err("wrote \(out == "-" ? "standard output" : out) (\(count(html.utf8.count / 1024, "KB", "KB")))")
        }

        /// The raster for the page: `explicit`, or up to 2 pixels per point within `defaultPixels`.
        static func grid(_ window: View, scale explicit: Double?, _ output: Output) throws -> Render.Grid {
            if let explicit { return try Render.Grid(window, scale: explicit, output) }
            let r = Screen.rect(window)
            let w = max(r.width, 0), h = max(r.height, 0)
            var s = 2.0
            if w * h > 0 { s = min(s, (defaultPixels / (w * h)).squareRoot()) }
            s = min(s, 16_000 / max(w, h, 1e-300))
            if s > 0, s.isFinite, let g = try? Render.Grid(window, scale: s, output) { return g }
            return try Render.Grid(window, scale: nil, output)
        }

        /// The whole page.
        static func page(
            _ window: Window, scene: SceneFile?, title: String, scale: Double?, showCost: Bool, _ output: Output
        ) throws -> String {
            let data = try dataJSON(window, scene: scene, title: title, scale: scale, output)
            var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            html += "<title>hit map: \(escapeHTML(title))</title>\n<style>\n\(HTMLPageScript.style)\n</style>\n</head>\n<body"
            html += showCost ? " data-cost=\"1\">\n" : ">\n"
            html += HTMLPageScript.body.replacingOccurrences(of: "@TITLE@", with: escapeHTML(title))
            html += "\n<script type=\"application/json\" id=\"hittest-data\">"
            html += data
            html += "</script>\n<script id=\"hittest-model\">\n\(HTMLPageScript.model)\n</script>\n"
            html += "<script id=\"hittest-ui\">\n\(HTMLPageScript.ui)\n</script>\n</body>\n</html>\n"
            return html
        }

        static func escapeHTML(_ s: String) -> String {
            var out = ""
            for c in s.unicodeScalars {
                switch c {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                default: out.unicodeScalars.append(c)
                }
            }
            return out
        }

        /// The page's data: the flattened tree (the walk's numbers), names, screen frames, the
        /// engine's hit map as runs, and the audit's findings. Columnar JSON.
        static func dataJSON(_ window: Window, scene: SceneFile?, title: String, scale: Double?, _ output: Output) throws -> String {
            if window.hasHandlerInTree {
                throw Failure(message: "the page needs a tree without handlers (hitTest or pointInside handlers cannot be drawn as a page)")
            }
            // The views in pre-order (the root first, each view before its subviews, in order).
            var views: [View] = []
            window.forEachView { views.append($0) }
            let n = views.count
            let grid = try grid(window, scale: scale, output)
            var index: [ObjectIdentifier: Int] = [:]
            index.reserveCapacity(n)
            for (i, v) in views.enumerated() { index[ObjectIdentifier(v)] = i }
            var classes: [String: String] = [:]
            if let scene {
                var stack = [scene.root]
                while let node = stack.popLast() {
                    if let c = node.className { classes[node.id] = c }
                    stack.append(contentsOf: node.children)
                }
            }
            var j = JSONText()
            j.raw("{\"format\":\"hittest-page\",\"version\":1,\"title\":")
            j.string(title)

            // Names, classes, parents.
            var names: [String] = []
            names.reserveCapacity(n)
            for v in views { names.append(name(v)) }
            j.raw(",\"ids\":")
            j.strings(names)
            var classTable: [String] = [""]
            var classIndex: [String: Int] = ["": 0]
            var cls: [Int] = []
            cls.reserveCapacity(n)
            for v in views {
                let c = v.accessibilityIdentifier.flatMap { classes[$0] } ?? ""
                if let k = classIndex[c] { cls.append(k) } else { classIndex[c] = classTable.count; cls.append(classTable.count); classTable.append(c) }
            }
            j.raw(",\"classTable\":")
            j.strings(classTable)
            j.raw(",\"cls\":")
            j.ints(cls)

            // Children in search order: the C index's (`ht_node_search_order`).
            var childStart = [0]
            var children: [Int] = []
            var parent = [Int](repeating: -1, count: n)
            for (i, v) in views.enumerated() {
                for c in v.subviewsInHitTestOrder { let k = index[ObjectIdentifier(c)]!; children.append(k); parent[k] = i }
                childStart.append(children.count)
            }
            j.raw(",\"childStart\":")
            j.ints(childStart)
            j.raw(",\"children\":")
            j.ints(children)

            // Flags and the trail's words for views the walk rejects before their region test.
            var reasons = [""]
            var reasonIndex: [String: Int] = ["": 0]
            var flags: [Int] = []
            var unusable: [Int] = []
            flags.reserveCapacity(n)
            unusable.reserveCapacity(n)
            let conversions = views.map(LevelConversion.init)
            var regions: [(Double, Double, Double, Double)] = []
            regions.reserveCapacity(n)
            for (i, v) in views.enumerated() {
                let r = v.bounds.inset(by: v.hitTestInsets)
                regions.append((r.minX, r.minY, r.maxX, r.maxY))
                let rejection: HitTestTrace.Decision? = v.isHidden ? .hidden : !v.isUserInteractionEnabled
                    ? .userInteractionDisabled : v.alpha < 0.01 ? .transparent : nil
                var f = 0
                if rejection == nil { f |= 1 }
                if v.allowsSubviewHitsOutsideBounds { f |= 2 }
                if v.capturesSubviewTouches { f |= 4 }
                if v.passesTouchesThrough { f |= 8 }
                if conversions[i].transform.isIdentity { f |= 16 }
                if v.hitTestInsets != .zero { f |= 32 }
                flags.append(f)
                let words = rejection.map { Explain.rejection($0, v) } ?? ""
                if let k = reasonIndex[words] { unusable.append(k) } else { reasonIndex[words] = reasons.count; unusable.append(reasons.count); reasons.append(words) }
            }
            j.raw(",\"flags\":")
            j.ints(flags)
            j.raw(",\"reasons\":")
            j.strings(reasons)
            j.raw(",\"unusable\":")
            j.ints(unusable)

            // The walk's numbers, exactly: each view's conversion from its superview's space (for
            // the root, from the screen) and its touch region.
            j.raw(",\"center\":[")
            for (i, c) in conversions.enumerated() { if i > 0 { j.comma() }; j.number(c.center.x); j.comma(); j.number(c.center.y) }
            j.raw("],\"off\":[")
            for (i, c) in conversions.enumerated() { if i > 0 { j.comma() }; j.number(c.offset.x); j.comma(); j.number(c.offset.y) }
            j.raw("],\"m\":[")
            for (i, c) in conversions.enumerated() {
                if i > 0 { j.comma() }
                let t = c.inverse ?? AffineTransform(a: .nan, b: .nan, c: .nan, d: .nan, tx: .nan, ty: .nan)
                for (k, x) in [t.a, t.b, t.c, t.d, t.tx, t.ty].enumerated() { if k > 0 { j.comma() }; j.number(x) }
            }
            j.raw("],\"region\":[")
            for (i, r) in regions.enumerated() {
                if i > 0 { j.comma() }
                j.number(r.0); j.comma(); j.number(r.1); j.comma(); j.number(r.2); j.comma(); j.number(r.3)
            }
            j.raw("]")

            // Screen geometry for display: each view's bounds (frame) and a quad when rotated or
            // skewed; the box of each subtree's touch regions (to find the views under a point).
            let screen = screenGeometry(views, regions: regions, parent: parent)
            j.raw(",\"frame\":[")
            for i in 0..<n {
                if i > 0 { j.comma() }
                let f = screen.frames[i]
                j.number(f.0); j.comma(); j.number(f.1); j.comma(); j.number(f.2); j.comma(); j.number(f.3)
            }
            j.raw("],\"quads\":{")
            var firstQuad = true
            for (i, q) in screen.quads {
                if !firstQuad { j.comma() }
                firstQuad = false
                j.raw("\"\(i)\":[")
                for (k, x) in q.enumerated() { if k > 0 { j.comma() }; j.number(x) }
                j.raw("]")
            }
            j.raw("},\"subtreeBox\":[")
            for i in 0..<n {
                if i > 0 { j.comma() }
                let b = screen.subtree[i]
                j.number(b.0); j.comma(); j.number(b.1); j.comma(); j.number(b.2); j.comma(); j.number(b.3)
            }
            j.raw("]")

            // The engine's map: per row, runs of (view index + 1, or 0 for nothing; length).
            let hits = window.hitTest(grid.rootPoints(window))
            var runs: [Int] = []
            var rowRuns: [Int] = []
            rowRuns.reserveCapacity(grid.height)
            for py in 0..<grid.height {
                var px = 0, count = 0
                let row = py * grid.width
                while px < grid.width {
                    let v = hits[row + px]
                    var e = px + 1
                    while e < grid.width && hits[row + e] === v { e += 1 }
                    runs.append(v.map { index[ObjectIdentifier($0)]! + 1 } ?? 0)
                    runs.append(e - px)
                    count += 1
                    px = e
                }
                rowRuns.append(count)
            }
            j.raw(",\"map\":{\"width\":\(grid.width),\"height\":\(grid.height),\"scale\":")
            j.number(grid.scale)
            j.raw(",\"origin\":[")
            j.number(grid.origin.x); j.comma(); j.number(grid.origin.y)
            j.raw("],\"rowRuns\":")
            j.ints(rowRuns)
            j.raw(",\"runs\":")
            j.ints(runs)
            j.raw("}")

            // The audit's findings. The audit tests each sample against every ancestor of a
            // control, each conversion walking to the root: in a very deep tree it is skipped.
            var depth = 0
            var depths = [Int](repeating: 0, count: n)
            for i in 1..<max(n, 1) where parent[i] >= 0 { depths[i] = depths[parent[i]] + 1; depth = max(depth, depths[i]) }
            guard depth <= maxAuditDepth else {
                output.err("the tree is \(depth) levels deep: the page lists no audit findings (at most \(maxAuditDepth) levels)")
                j.raw(",\"audit\":{\"summary\":")
                j.string("not audited: the tree is \(depth) levels deep (the page audits trees of at most \(maxAuditDepth) levels)")
                j.raw(",\"findings\":[]}}")
                return j.text
            }
            let report = try Audit.audit(window, scene: scene)
            var byName: [String: Int] = [:]
            for (i, s) in names.enumerated() where byName[s] == nil { byName[s] = i }
            var findings: [(String, Int, String)] = []
            for c in report.controls where c.small || c.occluded {
                let size = "\(fmt(c.width))x\(fmt(c.height)) pt"
                if c.occluded { findings.append(("occluded", byName[c.id] ?? -1, "\(c.id): \(String(format: "%.1f%%", c.occludedShare * 100)) covered, \(size)")) }
                if c.small { findings.append(("small", byName[c.id] ?? -1, "\(c.id): \(size)")) }
            }
            for u in report.unreachable { findings.append(("unreachable", byName[u.id] ?? -1, "\(u.id): \(u.reason)")) }
            j.raw(",\"audit\":{\"summary\":")
            j.string("\(count(report.controls.count + report.unreachable.count, "control")): \(report.controls.count) reachable, \(report.unreachable.count) unreachable; dead zones \(String(format: "%.1f", report.deadShare * 100))% of the screen; sampled every \(fmt(report.step)) pt")
            j.raw(",\"findings\":[")
            for (k, f) in findings.enumerated() {
                if k > 0 { j.comma() }
                j.raw("[")
                j.string(f.0)
                j.raw(",\(f.1),")
                j.string(f.2)
                j.raw("]")
            }
            j.raw("]}}")
            return j.text
        }

        /// Each view's bounds on the screen (bounding box), its quad when its mapping to the
        /// screen is not axis-aligned, and the screen box of its subtree's touch regions
        /// (bounds with hitTestInsets), padded by a little so rounding never excludes a view.
        static func screenGeometry(_ views: [View], regions: [(Double, Double, Double, Double)], parent: [Int]) -> (
            frames: [(Double, Double, Double, Double)], quads: [(Int, [Double])], subtree: [(Double, Double, Double, Double)]
        ) {
            let n = views.count
            // Own bounds space -> screen: (a, b, c, d, tx, ty); composed top-down (pre-order).
            var toScreen = [(Double, Double, Double, Double, Double, Double)](repeating: (1, 0, 0, 1, 0, 0), count: n)
            var frames = [(Double, Double, Double, Double)](repeating: (0, 0, 0, 0), count: n)
            var subtree = [(Double, Double, Double, Double)](repeating: (.infinity, .infinity, -.infinity, -.infinity), count: n)
            var quads: [(Int, [Double])] = []
            func corners(_ t: (Double, Double, Double, Double, Double, Double), _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Double] {
                var out: [Double] = []
                for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] { out.append(t.0 * x + t.2 * y + t.4); out.append(t.1 * x + t.3 * y + t.5) }
                return out
            }
            func box(_ q: [Double]) -> (Double, Double, Double, Double) {
                let xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]]
                return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
            }
            for i in 0..<n {
                let v = views[i]
                let b = v.bounds, a = v.anchorPoint, c = v.center, t = v.transform
                let ox = b.minX + a.x * b.width, oy = b.minY + a.y * b.height
                // p -> center + T (p - o)
                let own = (t.a, t.b, t.c, t.d, c.x - (t.a * ox + t.c * oy) + t.tx, c.y - (t.b * ox + t.d * oy) + t.ty)
                if parent[i] < 0 {
                    toScreen[i] = own
                } else {
                    let p = toScreen[parent[i]]
                    toScreen[i] = (p.0 * own.0 + p.2 * own.1, p.1 * own.0 + p.3 * own.1,
                                   p.0 * own.2 + p.2 * own.3, p.1 * own.2 + p.3 * own.3,
                                   p.0 * own.4 + p.2 * own.5 + p.4, p.1 * own.4 + p.3 * own.5 + p.5)
                }
                let m = toScreen[i]
                let q = corners(m, b.minX, b.minY, b.maxX, b.maxY)
                let fb = box(q)
                frames[i] = (fb.0, fb.1, fb.2 - fb.0, fb.3 - fb.1)
                if m.1 != 0 || m.2 != 0 { quads.append((i, q)) }
                let r = regions[i]
                if r.2 > r.0 && r.3 > r.1 {
                    let rb = box(corners(m, r.0, r.1, r.2, r.3))
                    let pad = 1e-9 * max(1, abs(rb.0), abs(rb.1), abs(rb.2), abs(rb.3))
                    subtree[i] = (rb.0 - pad, rb.1 - pad, rb.2 + pad, rb.3 + pad)
                }
            }
            // Subtree boxes: children after parents in pre-order, so fold from the end.
            for i in stride(from: n - 1, to: 0, by: -1) {
                let p = parent[i], s = subtree[i]
                guard p >= 0, s.0 <= s.2 else { continue }
                let u = subtree[p]
                subtree[p] = (min(u.0, s.0), min(u.1, s.1), max(u.2, s.2), max(u.3, s.3))
            }
            // A view with nothing to touch: an empty box (written as 0, 0, -1, -1).
            for i in 0..<n where !(subtree[i].0 <= subtree[i].2 && subtree[i].0.isFinite && subtree[i].2.isFinite) {
                subtree[i] = subtree[i].0.isFinite || subtree[i].2.isFinite ? (-.infinity, -.infinity, .infinity, .infinity) : (0, 0, -1, -1)
            }
            return (frames, quads, subtree)
        }
    }

    /// A compact JSON writer: numbers exact (the shortest text that reads back as the same
    /// double; non-finite numbers as the strings "nan", "inf", "-inf"), strings escaped so that
    /// the text is safe inside an HTML `<script>` element.
    struct JSONText {
        var bytes: [UInt8] = []
        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }
        mutating func comma() { bytes.append(UInt8(ascii: ",")) }

        mutating func number(_ x: Double) {
            if x.isNaN { raw("\"nan\""); return }
            if x.isInfinite { raw(x > 0 ? "\"inf\"" : "\"-inf\""); return }
            if x == 0 { raw(x.sign == .minus ? "-0" : "0"); return }
            if x == x.rounded() && abs(x) < 1e15 { Query.appendNumber(x, &bytes); return }
            raw(x.description)
        }

        mutating func ints(_ a: [Int]) {
            bytes.append(UInt8(ascii: "["))
            for (k, v) in a.enumerated() {
                if k > 0 { comma() }
                Query.appendNumber(Double(v), &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }

        mutating func strings(_ a: [String]) {
            bytes.append(UInt8(ascii: "["))
            for (k, s) in a.enumerated() {
                if k > 0 { comma() }
                string(s)
            }
            bytes.append(UInt8(ascii: "]"))
        }

        mutating func string(_ s: String) {
            bytes.append(UInt8(ascii: "\""))
            for u in s.unicodeScalars {
                switch u {
                case "\"": raw("\\\"")
                case "\\": raw("\\\\")
                case "\n": raw("\\n")
                case "\r": raw("\\r")
                case "\t": raw("\\t")
                case "<", ">", "&", "\u{2028}", "\u{2029}": raw(String(format: "\\u%04x", u.value))
                default:
                    if u.value < 0x20 { raw(String(format: "\\u%04x", u.value)) } else { bytes.append(contentsOf: String(u).utf8) }
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
