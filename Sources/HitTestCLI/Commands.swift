import Foundation
import HitTestKit
import HitTestScenes
import HitTestReference

extension HitTestCLI {
    // MARK: - query

    enum Query {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["-o"], flags: [])
            try a.expect(2, "SCENE and POINTS")
            let (_, window) = try loadScene(a.positional[0])
            let points = try readPoints(a.positional[1])
            let t0 = ContinuousClock.now
            let hits = window.hitTest(points)
            if points.count > 1_000_000 { output.err("hit-tested \(points.count) points in \(t0.duration(to: .now))") }
            var text = "x,y,id\n"
            text.reserveCapacity(points.count * 16)
            for (p, hit) in zip(points, hits) { text += "\(fmt(p.x)),\(fmt(p.y)),\(name(hit))\n" }
            if let o = a.options["-o"] { try write(Data(text.utf8), to: o) } else { output.out(String(text.dropLast())) }
        }

        /// CSV (`x,y` per line, optional header) or little-endian float64 pairs (`.f64`).
        static func readPoints(_ path: String) throws -> [Point] {
            guard let data = FileManager.default.contents(atPath: path) else { throw Failure(message: "cannot read \(path)") }
            if path.hasSuffix(".f64") {
                guard data.count % 16 == 0 else { throw Failure(message: "\(path): \(data.count) bytes is not a whole number of x,y float64 pairs") }
                return data.withUnsafeBytes { raw in
                    (0..<(data.count / 16)).map { i in
                        Point(
                            x: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 16, as: UInt64.self))),
                            y: Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 16 + 8, as: UInt64.self))))
                    }
                }
            }
            var points: [Point] = []
            for (i, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let s = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if s.isEmpty || (i == 0 && s.lowercased().hasPrefix("x")) { continue }
                let parts = s.split(separator: ",")
                guard parts.count == 2, let x = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                    let y = Double(parts[1].trimmingCharacters(in: .whitespaces))
                else { throw Failure(message: "\(path): line \(i + 1): expected x,y, found '\(s.prefix(40))'") }
                points.append(Point(x: x, y: y))
            }
            return points
        }
    }

    // MARK: - render

    enum Render {
        /// The hit map of `window` at `scale` pixels per point, and the colour of each view.
        public struct Map {
            /// The image: the map, then the legend below it.
            public var image: RGBImage
            /// Rows of the map (the legend is below).
            public var mapHeight: Int
            /// The colour of each view's pixels.
            public var colors: [ObjectIdentifier: (UInt8, UInt8, UInt8)]
        }

        static let nothing: (UInt8, UInt8, UInt8) = (40, 40, 40)
        static let outline: (UInt8, UInt8, UInt8) = (0, 0, 0)

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["-o", "--scale"], flags: ["--cost"])
            try a.expect(1, "SCENE")
            guard let out = a.options["-o"] else { throw Failure(message: "-o MAP.png is required") }
            let scale = try a.options["--scale"].map { s -> Double in
                guard let v = Double(s), v > 0, v <= 16 else { throw Failure(message: "--scale takes a number in (0, 16]") }
                return v
            } ?? 1
            let (_, window) = try loadScene(a.positional[0])
            let image = a.flags.contains("--cost")
                ? costMap(window, scale: scale, progress: output.err)
                : hitMap(window, scale: scale).image
            try write(image.pngData(), to: out)
            output.err("wrote \(out) (\(image.width)x\(image.height))")
        }

        /// The centre of pixel (px, py) in the root's coordinates.
        static func point(_ px: Int, _ py: Int, _ window: View, _ scale: Double) -> Point {
            Point(x: window.bounds.minX + (Double(px) + 0.5) / scale, y: window.bounds.minY + (Double(py) + 0.5) / scale)
        }

        static func pixelGrid(_ window: View, _ scale: Double) -> (Int, Int, [Point]) {
            let w = max(1, min(8192, Int((window.bounds.width * scale).rounded())))
            let h = max(1, min(8192, Int((window.bounds.height * scale).rounded())))
            var points: [Point] = []
            points.reserveCapacity(w * h)
            for py in 0..<h { for px in 0..<w { points.append(point(px, py, window, scale)) } }
            return (w, h, points)
        }

        /// A colour per view: golden-ratio hues by first appearance, so neighbours differ.
        static func color(_ index: Int) -> (UInt8, UInt8, UInt8) {
            let h = (Double(index) * 0.618_033_988_75).truncatingRemainder(dividingBy: 1)
            let s = 0.55, v = 0.95
            let i = Int(h * 6), f = h * 6 - Double(i)
            let p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s)
            let (r, g, b): (Double, Double, Double) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i % 6]
            return (UInt8(r * 255), UInt8(g * 255), UInt8(b * 255))
        }

        static func hitMap(_ window: View, scale: Double) -> Map {
            let (w, h, points) = pixelGrid(window, scale)
            let hits = window.hitTest(points)
            var colors: [ObjectIdentifier: (UInt8, UInt8, UInt8)] = [:]
            var counts: [ObjectIdentifier: (View, Int)] = [:]
            for hit in hits {
                guard let hit else { continue }
                let key = ObjectIdentifier(hit)
                if colors[key] == nil { colors[key] = color(colors.count) }
                counts[key, default: (hit, 0)].1 += 1
            }
            let legend = counts.values.sorted { $0.1 > $1.1 }
            let shown = min(legend.count, 40)
            let rowHeight = 14
            var image = RGBImage(width: max(w, 200), height: h + 8 + rowHeight * (shown + 2))
            for i in 0..<(image.width * image.height) { image.pixels[i * 3] = 255; image.pixels[i * 3 + 1] = 255; image.pixels[i * 3 + 2] = 255 }
            for py in 0..<h {
                for px in 0..<w {
                    let hit = hits[py * w + px]
                    let right = px + 1 < w ? hits[py * w + px + 1] : hit
                    let below = py + 1 < h ? hits[(py + 1) * w + px] : hit
                    if right !== hit || below !== hit {
                        image[px, py] = outline
                    } else {
                        image[px, py] = hit.map { colors[ObjectIdentifier($0)]! } ?? nothing
                    }
                }
            }
            var y = h + 8
            TinyFont.draw("VIEW  (PIXELS)", at: 4, y, scale: 2, color: (0, 0, 0), into: &image)
            y += rowHeight
            for (view, n) in legend.prefix(shown) {
                let c = colors[ObjectIdentifier(view)]!
                for dy in 0..<10 { for dx in 0..<10 { image[4 + dx, y + dy] = c } }
                TinyFont.draw("\(name(view)) (\(n))", at: 20, y, scale: 2, color: (0, 0, 0), into: &image)
                y += rowHeight
            }
            for dy in 0..<10 { for dx in 0..<10 { image[4 + dx, y + dy] = nothing } }
            TinyFont.draw(legend.count > shown ? "NOTHING; +\(legend.count - shown) MORE VIEWS" : "NOTHING", at: 20, y, scale: 2, color: (0, 0, 0), into: &image)
            return Map(image: image, mapHeight: h, colors: colors)
        }

        /// Heat colour for t in [0, 1]: dark blue, red, yellow, white.
        static func heat(_ t: Double) -> (UInt8, UInt8, UInt8) {
            let stops: [(Double, Double, Double)] = [(20, 20, 80), (200, 30, 40), (250, 210, 40), (255, 255, 255)]
            let x = max(0, min(1, t)) * Double(stops.count - 1)
            let i = min(Int(x), stops.count - 2), f = x - Double(i)
            let a = stops[i], b = stops[i + 1]
            return (UInt8(a.0 + (b.0 - a.0) * f), UInt8(a.1 + (b.1 - a.1) * f), UInt8(a.2 + (b.2 - a.2) * f))
        }

        static func costMap(_ window: View, scale: Double, progress: (String) -> Void) -> RGBImage {
            let (w, h, points) = pixelGrid(window, scale)
            var costs = [Int](repeating: 0, count: points.count)
            let start = ContinuousClock.now
            var last = start
            for (i, p) in points.enumerated() {
                let probe = Reference.Probe()
                _ = Reference.hitTest(window, p, probe: probe)
                costs[i] = probe.visits
                if i % 4096 == 0, last.duration(to: .now) > .seconds(1) {
                    last = .now
                    progress("cost map: \(i * 100 / points.count)% of \(points.count) pixels")
                }
            }
            let maxCost = max(1, costs.max() ?? 1)
            var image = RGBImage(width: max(w, 220), height: h + 60)
            for i in 0..<(image.width * image.height) { image.pixels[i * 3] = 255; image.pixels[i * 3 + 1] = 255; image.pixels[i * 3 + 2] = 255 }
            for py in 0..<h { for px in 0..<w { image[px, py] = heat(Double(costs[py * w + px]) / Double(maxCost)) } }
            let barW = min(image.width - 8, 200)
            for x in 0..<barW { for y in 0..<12 { image[4 + x, h + 8 + y] = heat(Double(x) / Double(barW - 1)) } }
            TinyFont.draw("0", at: 4, h + 24, scale: 2, color: (0, 0, 0), into: &image)
            TinyFont.draw("\(maxCost)", at: 4 + barW - 8 * "\(maxCost)".count, h + 24, scale: 2, color: (0, 0, 0), into: &image)
            TinyFont.draw("VIEWS TESTED PER TOUCH", at: 4, h + 40, scale: 2, color: (0, 0, 0), into: &image)
            return image
        }
    }

    // MARK: - explain

    enum Explain {
        /// At most three decimals, trailing zeros dropped: enough to see an edge.
        static func short(_ x: Double) -> String {
            guard x.isFinite else { return "\(x)" }
            var s = String(format: "%.3f", x)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s == "-0" ? "0" : s
        }

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: [], flags: [])
            try a.expect(3, "SCENE X Y")
            guard let x = Double(a.positional[1]), let y = Double(a.positional[2]) else {
                throw Failure(message: "X and Y must be numbers")
            }
            let (_, window) = try loadScene(a.positional[0])
            let probe = Reference.Probe(recording: true)
            let hit = Reference.hitTest(window, Point(x: x, y: y), probe: probe)
            for step in probe.steps ?? [] {
                output.out(String(repeating: "  ", count: step.depth) + "\(step.view) at (\(short(step.point.x)), \(short(step.point.y))): \(step.verdict)")
            }
            output.out("=> \(hit.map(name) ?? "nothing") (\(probe.visits) views tested)")
            precondition(window.hitTest(Point(x: x, y: y)) === hit, "the index and the reference walk disagree")
        }
    }

    // MARK: - import

    enum Import {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["-o"], flags: [])
            try a.expect(1, "FILE")
            guard let out = a.options["-o"] else { throw Failure(message: "-o SCENE is required") }
            guard let data = FileManager.default.contents(atPath: a.positional[0]) else {
                throw Failure(message: "cannot read \(a.positional[0])")
            }
            let text = String(decoding: data, as: UTF8.self)
            let result: SceneImporter.Result
            do { result = try SceneImporter.importScene(text) } catch {
                throw Failure(message: "\(a.positional[0]): \(error)", status: 1)
            }
            for warning in result.warnings { output.err("warning: \(warning)") }
            try write(result.scene.jsonData(), to: out)
            var count = 0
            var stack = [result.scene.root]
            while let n = stack.popLast() {
                count += 1
                stack.append(contentsOf: n.children)
            }
            output.err("imported \(count) views (\(SceneImporter.detectFormat(text).rawValue)) into \(out)")
        }
    }

    // MARK: - stats

    enum Stats {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: [], flags: [])
            try a.expect(1, "SCENE")
            let (_, window) = try loadScene(a.positional[0])
            var views = 0, depth = 0, fanOut = 0, transformed = 0, hidden = 0, inert = 0
            var stack: [(View, Int)] = [(window, 0)]
            while let (v, d) = stack.popLast() {
                views += 1
                depth = max(depth, d)
                fanOut = max(fanOut, v.subviews.count)
                if !v.transform.isIdentity { transformed += 1 }
                if v.isHidden { hidden += 1 }
                if !v.isUserInteractionEnabled || v.alpha < 0.01 { inert += 1 }
                stack.append(contentsOf: v.subviews.map { ($0, d + 1) })
            }
            let snapshot = window.makeHitTestSnapshot()
            output.out("views: \(views)")
            output.out("depth: \(depth)")
            output.out("largest fan-out: \(fanOut)")
            output.out("transformed: \(transformed)")
            output.out("hidden: \(hidden)")
            output.out("not interactive or alpha < 0.01: \(inert)")
            output.out("C index: \(snapshot.indexBytes) bytes (\(snapshot.indexBytes / max(views, 1)) per view, answer grid included)")
        }
    }
}
