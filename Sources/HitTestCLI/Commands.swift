import Foundation
import HitTestKit
import HitTestScenes
import HitTestReference

extension HitTestCLI {
    // MARK: - query

    enum Query {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["-o", "--size", "--ids"], flags: ["--progress"])
            try a.expect(2, "SCENE and POINTS")
            let target = try Target(a, output)
            let (_, window) = try loadScene(a.positional[0], output)
            try LayoutOption.apply(a.options["--size"], to: window)  // Layout: --size
            let progress = Progress(output, asked: a.flags.contains("--progress"))
            let binary = a.positional[1].hasSuffix(".f64")
            // The answers' form: indexes into the view table, or (nil) CSV lines with ids.
            var answers: AnswerFormat?
            var tableText: [UInt8] = []
            if target.tablePath != nil {
                let table = ViewTable(window: window)
                tableText = try table.text()
                answers = .i32(table)
            }
            // Screen -> root coordinates, converted piece by piece on the workers.
            let screen = LevelConversion(window)
            if window.transform.isIdentity {
                // One pass: parse, hit-test and write piece by piece (PointsStream).
                let input = try InputBytes(a.positional[1], output)
                if binary, input.count % 16 != 0 {
                    throw Failure(message: "\(display(a.positional[1])): \(input.count) bytes is not a whole number of x,y float64 pairs")
                }
                if !binary { try TextInput.check(input.buffer, name: display(a.positional[1]), whole: false) }
                let t0 = ContinuousClock.now
                var w = try target.open(table: tableText)
                let count: Int
                do {
                    count = binary
                        ? try PointsStream.binary(input.buffer, window: window, screen: screen, answers: answers, to: &w, progress: progress)
                        : try PointsStream.csv(
                            input.buffer, name: display(a.positional[1]), window: window, screen: screen, answers: answers, to: &w, progress: progress)
                    try w.finish()
                } catch {
                    w.discard()
                    target.removeTable()
                    throw error
                }
                progress.done("\(count) points: read, hit-tested and wrote in \(ms(t0, .now))")
                return
            }
            var data = try read(a.positional[1], output)
            if !binary { try TextInput.check(data.prefix(TextInput.prefixBytes), name: display(a.positional[1])) }
            let t0 = ContinuousClock.now
            var counts: [Int] = []
            var points: [Point]
            if binary {
                points = try parsePoints(data, binary: true, name: display(a.positional[1]), progress: progress)
            } else {
                // The text as parsed: lone CRs made LFs (`PointsCSV.loneCR`), for the writer.
                (points, counts, data) = try PointsCSV.parse(data, name: display(a.positional[1]))
            }
            let parsed = ContinuousClock.now
            for k in points.indices { points[k] = Screen.toRoot(points[k], window) }
            var handles = [HitTestHandle](repeating: .none, count: points.count)
            window.prepareHitTesting()
            points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0) } }
            // The output repeats the input's screen points.
            points = try parsePoints(data, binary: binary, name: "", progress: nil)
            let tested = ContinuousClock.now
            var w = try target.open(table: tableText)
            do {
                if case .i32(let table)? = answers {
                    try writeIndexes(handles, table, to: &w)
                } else if binary {
                    try PointsCSV.writeBinary(points: points, handles: handles, window: window, to: &w, progress: progress)
                } else {
                    try PointsCSV.write(data, counts: counts, handles: handles, window: window, to: &w, progress: progress)
                }
                try w.finish()
            } catch {
                w.discard()
                target.removeTable()
                throw error
            }
            progress.done(
                "\(points.count) points: read \(ms(t0, parsed)), hit-tested \(ms(parsed, tested)), wrote \(ms(tested, .now))")
        }

        /// Where `query` writes: `-o FILE` (default `-`), and for the `.i32` output (an `-o`
        /// name ending in `.i32`, or `--ids` given) the view table's file: `--ids FILE`, else
        /// FILE + `.ids`. Refused before anything is read: `--ids` beside a CSV output, `.i32`
        /// on standard output without `--ids`, both on `-`, the same file twice, binary output
        /// to a terminal. [ours]
        struct Target {
            let outputPath: String
            /// The view table's file; nil for the CSV output.
            let tablePath: String?
            let output: Output

            init(_ a: Arguments, _ output: Output) throws {
                self.output = output
                outputPath = a.options["-o"] ?? "-"
                let ids = a.options["--ids"]
                let i32 = outputPath.hasSuffix(".i32") || (ids != nil && outputPath == "-")
                guard i32 else {
                    if ids != nil {
                        throw Failure(message: "--ids goes with the .i32 output (-o FILE.i32, or -o - for standard output); \(outputPath) is a CSV output")
                    }
                    tablePath = nil
                    return
                }
                if outputPath == "-" {
                    guard let ids else {
                        throw Failure(message: "the .i32 output on standard output needs --ids FILE for its view table")
                    }
                    guard ids != "-" else { throw Failure(message: "-o - and --ids -: the .i32 output and its view table cannot both go to standard output") }
                    if output.rawStandardOutput {
                        guard isatty(output.streams!.outFD) == 0 else {
                            throw Failure(message: "standard output is a terminal: not writing binary .i32 output there; redirect it (> FILE.i32) or use -o FILE.i32")
                        }
                    } else if output.outBytes == nil {
                        throw Failure(message: "binary output to standard output needs the process's own standard output")
                    }
                    tablePath = ids
                } else {
                    tablePath = ids ?? outputPath + ".ids"
                    if tablePath == outputPath { throw Failure(message: "--ids \(outputPath): the view table needs a file of its own") }
                }
            }

            /// Opens the output and, for the `.i32` output, writes the view table first (a
            /// failure there removes the output).
            func open(table: [UInt8]) throws -> FileWriter {
                var w = try FileWriter(outputPath, output)
                guard let tablePath else { return w }
                w.binary = true
                do {
                    var t = try FileWriter(tablePath, output)
                    do {
                        try t.write(table)
                        try t.finish()
                    } catch {
                        t.discard()
                        throw error
                    }
                } catch {
                    w.discard()
                    throw error
                }
                return w
            }

            /// After a failure: the view table's file goes with the output (a regular file only).
            func removeTable() {
                guard let tablePath, tablePath != "-" else { return }
                var st = stat()
                if stat(tablePath, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG { unlink(tablePath) }
            }
        }

        /// The `.i32` answers of the two-pass path: indexes into `table`, 64 Ki at a time.
        static func writeIndexes(_ handles: [HitTestHandle], _ table: ViewTable, to w: inout FileWriter) throws {
            let per = 1 << 16
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4 * per, alignment: 4)
            defer { buffer.deallocate() }
            try handles.withUnsafeBufferPointer { h in
                var start = 0
                while start < h.count {
                    let n = min(per, h.count - start)
                    table.write(h.baseAddress! + start, n, into: buffer)
                    try w.write(UnsafeRawBufferPointer(start: buffer, count: 4 * n))
                    start += n
                }
            }
        }

        static func ms(_ a: ContinuousClock.Instant, _ b: ContinuousClock.Instant) -> String {
            String(format: "%.0f ms", Demo.seconds(a.duration(to: b)) * 1e3)
        }

        /// CSV (`x,y` per line, optional header `x,y`, LF or CRLF) or little-endian float64
        /// pairs (`.f64`). CSV: `PointsCSV.parse` (chunks on all cores, exact fast path).
        static func parsePoints(_ data: Data, binary: Bool, name: String, progress: Progress?) throws -> [Point] {
            if binary {
                guard data.count % 16 == 0 else { throw Failure(message: "\(name): \(data.count) bytes is not a whole number of x,y float64 pairs") }
                let n = data.count / 16
                var points = [Point](repeating: Point(x: 0, y: 0), count: n)
                points.withUnsafeMutableBytes { dst in data.withUnsafeBytes { src in dst.copyMemory(from: src) } }
                if UInt16(littleEndian: 1) != 1 {
                    for k in 0..<n {
                        points[k] = Point(x: Double(bitPattern: UInt64(littleEndian: points[k].x.bitPattern)), y: Double(bitPattern: UInt64(littleEndian: points[k].y.bitPattern)))
                    }
                }
                return points
            }
            return try PointsCSV.parse(data, name: name).points
        }

        /// A number as `fmt` prints it, appended as bytes (whole numbers without a String).
        @inline(__always) static func appendNumber(_ x: Double, _ out: inout [UInt8]) {
            guard x == x.rounded(), abs(x) < 1e15 else {
                out.append(contentsOf: x.description.utf8)
                return
            }
            var v = Int64(x)
            if v < 0 { out.append(UInt8(ascii: "-")); v = -v }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var n = 0
            withUnsafeMutableBytes(of: &digits) { d in
                repeat { d[n] = UInt8(v % 10) + 0x30; v /= 10; n += 1 } while v > 0
                while n > 0 { n -= 1; out.append(d[n]) }
            }
        }
    }

    /// Progress on standard error for long runs: a line at most every 2 s, only after 1 s, and
    /// a closing line; only when standard error is a terminal (the process's own) or when asked
    /// (`--progress`, which also prints the closing line of short runs).
    final class Progress {
        let output: Output
        let start = ContinuousClock.now
        var last = ContinuousClock.now
        var spoke = false
        let enabled: Bool
        let asked: Bool

        init(_ output: Output, asked: Bool = false) {
            self.output = output
            self.asked = asked
            enabled = asked || (output.streams.map { isatty($0.errFD) != 0 } ?? false)
        }

        func report(_ text: @autoclosure () -> String) {
            guard enabled else { return }
            let now = ContinuousClock.now
            guard start.duration(to: now) > .seconds(1), last.duration(to: now) > .seconds(2) || !spoke else { return }
            last = now
            spoke = true
            output.err(text())
        }

        /// The closing line, when the run was long enough to report progress.
        func done(_ text: String) {
            if asked || (enabled && (spoke || start.duration(to: .now) > .seconds(1))) { output.err(text) }
        }
    }

    /// The CSV points format, byte by byte.
    enum CSVLines {
        @inline(__always) static func space(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D }

        /// The line that starts at `i` in `p[0..<n]`: its text without surrounding spaces (and
        /// a CR) as `s..<e`, and where the next line starts.
        @inline(__always) static func line(
            _ p: UnsafePointer<UInt8>, from i: Int, count n: Int
        ) -> (s: Int, e: Int, next: Int) {
            var e = n
            if let q = memchr(p + i, 0x0A, n - i) { e = UnsafeRawPointer(p).distance(to: UnsafeRawPointer(q)) }
            let next = e + 1
            var s = i
            while s < e && space(p[s]) { s += 1 }
            while e > s && space(p[e - 1]) { e -= 1 }
            return (s, e, next)
        }

        /// Where the text of the line that starts at `i` ends: before its LF (`next` - 1, as
        /// `line` gives it) and a CR just before the LF; at `n` for a last line without one.
        @inline(__always) static func textEnd(_ p: UnsafePointer<UInt8>, from i: Int, next: Int, count n: Int) -> Int {
            var end = min(next - 1, n)
            if end > i && p[end - 1] == 0x0D { end -= 1 }
            return end
        }

        static let pow10: [Double] = (0...22).map { pow(10, Double($0)) }

        /// A number in b[s..<e]: the exact fast path for up to 15 digits and small exponents,
        /// strtod otherwise. nil when it is not a number.
        @inline(__always) static func number(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Double? {
            var i = s
            guard i < e else { return nil }
            var negative = false
            if b[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if b[i] == UInt8(ascii: "+") { i += 1 }
            var mantissa: UInt64 = 0, digits = 0, scale = 0, any = false
            while i < e, b[i] &- 0x30 < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(b[i] &- 0x30); if mantissa > 0 { digits += 1 } } else { scale += 1 }
                i += 1; any = true
            }
            if i < e, b[i] == UInt8(ascii: ".") {
                i += 1
                while i < e, b[i] &- 0x30 < 10 {
                    if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(b[i] &- 0x30); if mantissa > 0 { digits += 1 }; scale -= 1 }
                    i += 1; any = true
                }
            }
            if i == e, any, digits <= 15, scale >= -22, scale <= 0 {
                let v = Double(mantissa) / pow10[-scale]
                return negative ? -v : v
            }
            // Exponents, long mantissas, inf/nan words: the C library.
            var text = [CChar](repeating: 0, count: e - s + 1)
            for k in s..<e { text[k - s] = CChar(bitPattern: b[k]) }
            var end: UnsafeMutablePointer<CChar>?
            let v = text.withUnsafeMutableBufferPointer { p -> Double? in
                let v = strtod(p.baseAddress!, &end)
                return end == p.baseAddress! + (e - s) ? v : nil
            }
            return v
        }

        /// `x,y` in b[s..<e].
        @inline(__always) static func pair(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> (Double, Double)? {
            var comma = s
            while comma < e && b[comma] != UInt8(ascii: ",") { comma += 1 }
            guard comma < e else { return nil }
            var xe = comma
            while xe > s && space(b[xe - 1]) { xe -= 1 }
            var ys = comma + 1
            while ys < e && space(b[ys]) { ys += 1 }
            guard let x = number(b, s, xe), let y = number(b, ys, e) else { return nil }
            return (x, y)
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
            /// The legend's views and their pixels, in its order: largest first, equal areas in
            /// order of first appearance.
            public var legend: [(View, Int)]
        }

        static let nothing: (UInt8, UInt8, UInt8) = (40, 40, 40)
        static let outline: (UInt8, UInt8, UInt8) = (0, 0, 0)

        static func run(_ args: [String], _ output: Output) throws {
            if HTMLPage.wanted(args) { return try HTMLPage.run(args, output) }  // -o MAP.html / --html: the page
            try refuse(HTMLPage.pageOnly, in: args, because: "goes with the page output (-o MAP.html or --html), not the PNG")
            let a = try Arguments(args, valued: ["-o", "--scale", "--at", "--size"], flags: ["--cost", "--presentation"])
            try a.expect(1, "SCENE")
            guard let out = a.options["-o"] else { throw Failure(message: "-o MAP.png is required") }
            let explicit = try a.options["--scale"].map { s -> Double in
                guard let v = Double(s), v > 0, v <= 16 else { throw Failure(message: "--scale takes a number in (0, 16]") }
                return v
            }
            let (scene, window) = try loadScene(a.positional[0], output)
            try LayoutOption.apply(a.options["--size"], to: window)  // Layout: --size
            let grid = try Grid(window, scale: explicit, output)
            // Animation: --at T runs the scene's animations on a clock up to T (the model map
            // then), --presentation draws what is seen at T instead.
            var hits: [View?]?
            if let at = a.options["--at"] {
                guard let t = Double(at), t.isFinite else { throw Failure(message: "--at takes a finite time in seconds") }
                let app = Application()
                app.addWindow(window)
                scene.installAnimations(in: window, on: app)
                app.advanceTime(to: t)
                if a.flags.contains("--presentation") {
                    let handles = window.makeHitTestSnapshot(presentationAt: app.currentTime).hitTest(grid.rootPoints(window))
                    hits = handles.map { window.view(forHitTestHandle: $0) }
                }
            } else if a.flags.contains("--presentation") {
                throw Failure(message: "--presentation needs --at T")
            }
            let image = a.flags.contains("--cost")
                ? try costMap(window, grid, progress: Progress(output))
                : hitMap(window, grid, hits: hits).image
            try write(image.pngData(), to: out, output)
            output.err("wrote \(out == "-" ? "standard output" : out) (\(image.width)x\(image.height))")
        }

        /// Options of the PNG output that the page does not take.
        static let pngOnly: Set<String> = ["--at", "--presentation"]

        /// Refuses an option of the other output of `render`, saying which output takes it.
        static func refuse(_ options: Set<String>, in args: [String], because reason: String) throws {
            if let a = args.first(where: options.contains) { throw Failure(message: "\(a) \(reason)") }
        }

        /// The pixels of a map: the root's rectangle on the screen at `scale` pixels per point.
        struct Grid {
            /// The largest map: 16.7 M pixels, 16,384 a side.
            static let maxPixels = 1 << 24, maxSide = 16_384
            var width: Int, height: Int, scale: Double, origin: Point

            /// Without `scale`, 1 pixel per point or less, to fit; with it, refuses a map over
            /// the limit (never crops).
            init(_ window: View, scale explicit: Double?, _ output: Output) throws {
                let r = Screen.rect(window)
                origin = r.origin
                let pw = max(r.width, 0), ph = max(r.height, 0)
                func fits(_ s: Double) -> Bool {
                    let w = (pw * s).rounded(), h = (ph * s).rounded()
                    return w <= Double(Self.maxSide) && h <= Double(Self.maxSide) && max(w, 1) * max(h, 1) <= Double(Self.maxPixels)
                }
                var s = explicit ?? 1
                if !fits(s) {
                    let largest = min(Double(Self.maxSide) / max(pw, 1e-300), Double(Self.maxSide) / max(ph, 1e-300), (Double(Self.maxPixels) / max(pw * ph, 1e-300)).squareRoot()) * 0.999
                    if let explicit {
                        throw Failure(message: "at --scale \(fmt(explicit)) the \(fmt(pw))x\(fmt(ph)) pt scene needs a \(fmt((pw * explicit).rounded()))x\(fmt((ph * explicit).rounded())) pixel map; the largest is \(Self.maxSide) a side and \(Self.maxPixels) pixels: use --scale \(String(format: "%.3g", largest)) or less")
                    }
                    s = largest
                    output.err("the scene is \(fmt(pw))x\(fmt(ph)) pt: drawing at --scale \(String(format: "%.3g", s)) to fit \(Self.maxPixels) pixels")
                }
                scale = s
                width = max(1, int((pw * s).rounded()) ?? 1)
                height = max(1, int((ph * s).rounded()) ?? 1)
            }

            /// The centre of pixel (px, py) on the screen.
            func screen(_ px: Int, _ py: Int) -> Point {
                Point(x: origin.x + (Double(px) + 0.5) / scale, y: origin.y + (Double(py) + 0.5) / scale)
            }

            /// Every pixel centre in the root's bounds space, row by row.
            func rootPoints(_ window: View) -> [Point] {
                var points: [Point] = []
                points.reserveCapacity(width * height)
                for py in 0..<height { for px in 0..<width { points.append(Screen.toRoot(screen(px, py), window)) } }
                return points
            }
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

        static func hitMap(_ window: View, _ grid: Grid, hits given: [View?]? = nil) -> Map {
            let (w, h) = (grid.width, grid.height)
            let hits = given ?? window.hitTest(grid.rootPoints(window))
            var colors: [ObjectIdentifier: (UInt8, UInt8, UInt8)] = [:]
            // Per view, in order of first appearance (row by row): the view and its pixels.
            var order: [ObjectIdentifier: Int] = [:]
            var counts: [(View, Int)] = []
            for hit in hits {
                guard let hit else { continue }
                let key = ObjectIdentifier(hit)
                if let k = order[key] {
                    counts[k].1 += 1
                } else {
                    order[key] = counts.count
                    colors[key] = color(counts.count)
                    counts.append((hit, 1))
                }
            }
            // Largest first; equal areas in order of first appearance (the colours' order), so
            // the same scene gives the same image, byte for byte.
            let legend = counts.enumerated().sorted { $0.element.1 != $1.element.1 ? $0.element.1 > $1.element.1 : $0.offset < $1.offset }.map(\.element)
            let shown = min(legend.count, 40)
            let rowHeight = 14
            let lines = legend.prefix(shown).map { "\(name($0.0)) (\($0.1))" }
            // Wide enough for the longest legend line (ids are not cut), up to 4096 pixels.
            let textWidth = lines.map { 20 + TinyFont.width($0, scale: 2) + 4 }.max() ?? 0
            var image = RGBImage(width: min(max(w, 200, textWidth), max(w, 4096)), height: h + 8 + rowHeight * (shown + 2))
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
            for ((view, _), line) in zip(legend.prefix(shown), lines) {
                let c = colors[ObjectIdentifier(view)]!
                for dy in 0..<10 { for dx in 0..<10 { image[4 + dx, y + dy] = c } }
                TinyFont.draw(TinyFont.fit(line, width: image.width - 24, scale: 2), at: 20, y, scale: 2, color: (0, 0, 0), into: &image)
                y += rowHeight
            }
            for dy in 0..<10 { for dx in 0..<10 { image[4 + dx, y + dy] = nothing } }
            TinyFont.draw(legend.count > shown ? "NOTHING; +\(legend.count - shown) MORE VIEWS" : "NOTHING", at: 20, y, scale: 2, color: (0, 0, 0), into: &image)
            return Map(image: image, mapHeight: h, colors: colors, legend: legend.map { ($0.0, $0.1) })
        }

        /// Heat colour for t in [0, 1]: dark blue, red, yellow, white.
        static func heat(_ t: Double) -> (UInt8, UInt8, UInt8) {
            let stops: [(Double, Double, Double)] = [(20, 20, 80), (200, 30, 40), (250, 210, 40), (255, 255, 255)]
            let x = max(0, min(1, t)) * Double(stops.count - 1)
            let i = min(Int(x), stops.count - 2), f = x - Double(i)
            let a = stops[i], b = stops[i + 1]
            return (UInt8(a.0 + (b.0 - a.0) * f), UInt8(a.1 + (b.1 - a.1) * f), UInt8(a.2 + (b.2 - a.2) * f))
        }

        /// The cost map: per pixel, how many views UIKit's walk calls hitTest on (the C walk's
        /// trail, `hitTestCosts`).
        static func costMap(_ window: View, _ grid: Grid, progress: Progress) throws -> RGBImage {
            let (w, h) = (grid.width, grid.height)
            var costs = [Int32](repeating: 0, count: w * h)
            for py in 0..<h {
                let row = (0..<w).map { px in Screen.toRoot(grid.screen(px, py), window) }
                for (px, c) in window.hitTestCosts(row).enumerated() { costs[py * w + px] = Int32(clamping: c) }
                if py & 63 == 0 { progress.report("cost map: \(py * 100 / h)% of \(w * h) pixels") }
            }
            let maxCost = max(1, Int(costs.max() ?? 1))
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
        /// At most three decimals, trailing zeros dropped: enough to see an edge. Magnitudes
        /// of 1e15 and more (where three decimals say nothing) in the shortest form that reads
        /// back as the same number (`1e+308`, not 309 digits).
        static func short(_ x: Double) -> String {
            guard x.isFinite, abs(x) < 1e15 else { return "\(x)" }
            var s = String(format: "%.3f", x)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s == "-0" ? "0" : s
        }

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["--size"], flags: [])
            try a.expect(3, "SCENE X Y")
            guard let x = Double(a.positional[1]), let y = Double(a.positional[2]) else {
                throw Failure(message: "X and Y must be numbers")
            }
            let (_, window) = try loadScene(a.positional[0], output)
            try LayoutOption.apply(a.options["--size"], to: window)  // Layout: --size
            let p = Screen.toRoot(Point(x: x, y: y), window)
            let trace = window.hitTestTrace(p)
            for line in lines(trace) { output.out(line) }
            if window.hitTest(p) !== trace.hit {
                throw Failure.internal("the trace and the hit test disagree at (\(x), \(y))")
            }
        }

        /// The command's text: the trail (`summarise`) and the closing line.
        static func lines(_ trace: HitTestTrace) -> [String] {
            summarise(trace.steps) + ["=> \(trace.hit.map { shown($0) } ?? "nothing") (\(count(trace.viewsTested, "view")) tested)"]
        }

        /// What a step of the trail decided, in words.
        static func verdict(_ s: HitTestTrace.Step) -> String {
            let v = s.view
            let how = s.askedPointInsideHandler
                ? "pointInsideHandler says" : "bounds\(v.hitTestInsets == .zero ? "" : " with hitTestInsets")"
            switch s.decision {
            case .hidden, .userInteractionDisabled, .transparent: return rejection(s.decision, v)
            // A singular transform puts the point at NaN, outside everything: the same words.
            case .outside, .singularTransform: return "rejected: outside (\(how))"
            case .searchesSubviews(let n):
                return (s.isInside ? "inside (\(how))" : "outside, but allowsSubviewHitsOutsideBounds")
                    + (n == 0 ? "; no subviews" : "; searching \(count(n, "subview")), last first")
            case .capturesSubviewTouches: return s.isInside ? "inside; capturesSubviewTouches: subviews not searched" : "outside"
            case .hitTestHandler: return "hitTestHandler answered \(s.handlerAnswer.map { shown($0) } ?? "nil")"
            case .hit: return "hit: no subview took the point"
            case .passesTouchesThrough: return "nil: passesTouchesThrough"
            case .noSubviewTookThePoint: return "nil: no subview took the point"
            }
        }

        /// The words for a view rejected before its region test (hidden, not interactive,
        /// transparent); the page writes them into its data.
        static func rejection(_ d: HitTestTrace.Decision, _ v: View) -> String {
            switch d {
            case .hidden: return "rejected: hidden"
            case .userInteractionDisabled:
                return v.isUserInteractionEnabled ? "rejected: animating without allowUserInteraction" : "rejected: userInteractionEnabled is false"
            default: return "rejected: alpha \(v.alpha) < 0.01"
            }
        }

        /// The trail, a line per step; a run of more than 5 siblings rejected for the same
        /// reason becomes one line ("177 views: rejected: outside (bounds)", first and last named).
        static func summarise(_ steps: [HitTestTrace.Step]) -> [String] {
            // Indentation stops growing at 32 levels; deeper lines say their depth.
            func indent(_ depth: Int) -> String {
                String(repeating: "  ", count: min(depth, 32)) + (depth > 32 ? "[depth \(depth)] " : "")
            }
            let verdicts = steps.map(verdict)
            var lines: [String] = []
            var k = 0
            while k < steps.count {
                var e = k + 1
                if verdicts[k].hasPrefix("rejected") {
                    while e < steps.count, steps[e].depth == steps[k].depth, verdicts[e] == verdicts[k] { e += 1 }
                }
                if e - k > 5 {
                    lines.append(indent(steps[k].depth)
                        + "\(count(e - k, "view")) (\(shown(steps[k].view)) ... \(shown(steps[e - 1].view))): \(verdicts[k])")
                } else {
                    for j in k..<e {
                        let s = steps[j]
                        lines.append(indent(s.depth) + "\(shown(s.view)) at (\(short(s.point.x)), \(short(s.point.y))): \(verdicts[j])")
                    }
                }
                k = e
            }
            return lines
        }
    }

    // MARK: - import

    enum Import {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["-o"], flags: [])
            try a.expect(1, "FILE")
            guard let out = a.options["-o"] else { throw Failure(message: "-o SCENE is required") }
            let data = try read(a.positional[0], output)
            let source = display(a.positional[0])
            try TextInput.check(data, name: source)
            let text = String(decoding: data, as: UTF8.self)
            // Warnings name the file, and what they quote from it is escaped.
            func warn(_ warning: String) { output.err("warning: \(source.escapingControlCharacters): \(warning.escapingControlCharacters)") }
            let result: SceneImporter.Result
            do { result = try SceneImporter.importScene(text) } catch {
                // The per-line warnings are what explains a failed import: print them first.
                for warning in error.warnings { warn(warning) }
                throw Failure(message: "\(source): \(shown(error))")
            }
            for warning in result.warnings { warn(warning) }
            do { try result.scene.validate() } catch {
                throw Failure(message: "\(source): \(shown(error))")
            }
            try write(result.scene.jsonData(), to: out, output)
            var count = 0
            var stack = [result.scene.root]
            while let n = stack.popLast() {
                count += 1
                stack.append(contentsOf: n.children)
            }
            output.err("imported \(HitTestCLI.count(count, "view")) (\(SceneImporter.detectFormat(text).rawValue)) into \(out == "-" ? "standard output" : out)")
        }
    }

    // MARK: - stats

    enum Stats {
        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: [], flags: [])
            try a.expect(1, "SCENE")
            let (_, window) = try loadScene(a.positional[0], output)
            var views = 0, depth = 0, fanOut = 0, transformed = 0, hidden = 0, inert = 0
            var never: [(String, String)] = []
            var stack: [(View, Int)] = [(window, 0)]
            while let (v, d) = stack.popLast() {
                views += 1
                depth = max(depth, d)
                fanOut = max(fanOut, v.subviews.count)
                if !v.transform.isIdentity { transformed += 1 }
                if v.isHidden { hidden += 1 }
                if !v.isUserInteractionEnabled || v.alpha < 0.01 { inert += 1 }
                if !v.isHidden && v.isUserInteractionEnabled, let reason = Audit.neverHit(v) { never.append((shown(v), reason)) }
                stack.append(contentsOf: v.subviews.map { ($0, d + 1) })
            }
            let snapshot = window.makeHitTestSnapshot()
            output.out("views: \(views)")
            output.out("depth: \(depth)")
            output.out("largest fan-out: \(fanOut)")
            output.out("transformed: \(transformed)")
            output.out("hidden: \(hidden)")
            output.out("not interactive or alpha < 0.01: \(inert)")
            output.out("can never be hit (alpha < 0.01, zero or negative size): \(never.count)")
            for (id, reason) in never.prefix(20) { output.out("  \(id): \(reason)") }
            if never.count > 20 { output.out("  ... and \(never.count - 20) more") }
            output.out("C index: \(snapshot.indexBytes) bytes (\(snapshot.indexBytes / max(views, 1)) per view, answer grid included)")
        }
    }
}
