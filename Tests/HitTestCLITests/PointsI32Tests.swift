import Foundation
import HitTestKit
import HitTestSampleScenes
import Testing

@testable import HitTestCLI
@testable import HitTestScenes

/// The `.i32` output of `query` (issue 10 item 14): one little-endian int32 per point, the hit
/// view's index in the view table written beside it (-1: no view). Point for point, the indexes
/// mapped through the table are the ids of the CSV output, for CSV and `.f64` input, over many
/// pieces, with misses, handlers, moved roots, empty input and CRLF; a bad line removes both
/// files; the table's order is the scene file's (the Python package's).
@Suite struct PointsI32Tests {
    typealias T = SceneAndCLITests

    /// The int32s of an `.i32` file.
    static func indexes(_ data: Data) -> [Int32] {
        #expect(data.count % 4 == 0)
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 4)).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self)) }
        }
    }

    /// The lines of a view table, split as Python's `splitlines()` splits them (LF only here).
    static func table(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.isEmpty || text.hasSuffix("\n"))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }

    /// The ids column of a CSV output (after the header).
    static func textIds(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
    }

    /// Runs `query` to a CSV and to an `.i32` output; checks the `.i32` output, through its
    /// table, equals the CSV's ids; returns the indexes and the table.
    static func compare(scene: String, input: String, extra: [String] = []) throws -> ([Int32], [String]) {
        let csv = T.temp("out.csv"), i32 = T.temp("out.i32")
        let (s1, c1) = T.run(["query", scene, input, "-o", csv] + extra)
        #expect(s1 == 0, "\(c1.err)")
        let (s2, c2) = T.run(["query", scene, input, "-o", i32] + extra)
        #expect(s2 == 0, "\(c2.err)")
        let hits = indexes(try Data(contentsOf: URL(fileURLWithPath: i32)))
        let ids = try table(i32 + ".ids")
        let expected = try textIds(csv)
        #expect(hits.count == expected.count)
        #expect(hits.allSatisfy { $0 >= -1 && $0 < Int32(ids.count) })
        let mapped = hits.map { $0 < 0 ? "" : ids[Int($0)] }
        expectSame(mapped, expected, input)
        return (hits, ids)
    }

    /// Two id lists equal, reported by the first difference (not the whole lists).
    static func expectSame(_ a: [String], _ b: [String], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) answers", sourceLocation: sourceLocation)
        if let k = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
            Issue.record("\(what): answer \(k) is '\(a[k])', expected '\(b[k])' (\(zip(a, b).filter { $0 != $1 }.count) differ)", sourceLocation: sourceLocation)
        }
    }

    /// The ids of a scene file in the order they appear in its text (each node's `"id"`).
    static func idsInFileOrder(_ json: String) -> [String] {
        var out: [String] = []
        var rest = Substring(json)
        while let r = rest.range(of: #""id""#) {
            rest = rest[r.upperBound...]
            let open = rest.firstIndex(of: "\"")!
            let afterOpen = rest.index(after: open)
            let close = rest[afterOpen...].firstIndex(of: "\"")!
            out.append(String(rest[afterOpen..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    @Test func csvInputOverManyPiecesEqualsTheTextOutput() throws {
        let scene = T.writeScene()
        // LF, CRLF, lone CR, blank lines, spaces, exponents, a header; points on and off the scene.
        let text = PointsStreamTests.csv(lines: 150_000, seed: 32, finalNewline: false)
        let points = TextLineReader.lines(of: text).dropFirst().filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }.count
        #expect(text.utf8.count > 3 * HitTestCLI.PointsStream.csvPieceBytes)
        let input = T.temp("points.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let (hits, ids) = try Self.compare(scene: scene, input: input)
        #expect(hits.count == points && points > 150_000)
        #expect(hits.contains(-1))
        #expect(Set(hits).count >= 5, "\(Set(hits))")
        // The table: every view, in the scene file's order (the Python package's handles).
        #expect(ids == Self.idsInFileOrder(T.sceneJSON))
        #expect(ids.first == "window")
    }

    @Test func f64InputOverManyPiecesEqualsTheTextOutput() throws {
        let scene = T.writeScene()
        var rng = SplitMix64(seed: 132)
        var data = Data()
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1e300, -1e-300]
        for k in 0..<(3 * HitTestCLI.PointsStream.binaryPiecePoints + 77) {
            for _ in 0..<2 {
                let v: Double
                switch rng.next() % 4 {
                case 0: v = specials[k % specials.count]
                case 1: v = Double(bitPattern: rng.next())
                default: v = Double(rng.next() % 2600) / 8 - 20
                }
                withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        let input = T.temp("points.f64")
        try data.write(to: URL(fileURLWithPath: input))
        let (hits, _) = try Self.compare(scene: scene, input: input)
        #expect(hits.count == data.count / 16)
        #expect(hits.contains(-1) && Set(hits).count >= 5)
        // The .i32 output is what --progress reports and -o - writes too.
        let c = T.Captured()
        var output = c.output
        let sink = Sink()
        output.outBytes = { sink.append($0) }
        let table = T.temp("t.ids")
        #expect(HitTestCLI.run(["query", scene, input, "--ids", table, "--progress"], output: output) == 0, "\(c.err)")
        #expect(Self.indexes(sink.data) == hits)
        #expect(c.err.contains("\(hits.count) points: read, hit-tested and wrote in "), "\(c.err)")
        #expect(try Self.table(table) == Self.idsInFileOrder(T.sceneJSON))
    }

    final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        var data: Data { lock.withLock { bytes } }
        func append(_ d: Data) { lock.withLock { bytes.append(d) } }
    }

    /// Empty inputs: no points, an empty `.i32` file, the table all the same; CRLF lines.
    @Test func emptyInputsAndCRLF() throws {
        let scene = T.writeScene()
        for (name, bytes) in [("e.csv", ""), ("h.csv", "x,y\r\n"), ("blank.csv", "\r\n\n"), ("e.f64", "")] {
            let input = T.temp(name), out = T.temp("o.i32")
            try Data(bytes.utf8).write(to: URL(fileURLWithPath: input))
            let (status, c) = T.run(["query", scene, input, "-o", out])
            #expect(status == 0, "\(name): \(c.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)).isEmpty, "\(name)")
            #expect(try Self.table(out + ".ids") == Self.idsInFileOrder(T.sceneJSON), "\(name)")
        }
        let input = T.temp("crlf.csv")
        try Data("x,y\r\n15,15\r\n60,130\r\n500,500\r\n60,110\r\n\r\n 180 , 20 \r\n".utf8).write(to: URL(fileURLWithPath: input))
        let (hits, ids) = try Self.compare(scene: scene, input: input)
        #expect(hits.map { $0 < 0 ? "" : ids[Int($0)] } == ["small-button", "big-button", "", "banner", "badge"])
    }

    /// A bad line (first piece, a later piece) stops the run, names the line, and removes the
    /// `.i32` file and its table (here written over older ones); so does a `.f64` of odd size.
    @Test func badLinesRemoveTheOutputAndTheTable() throws {
        let scene = T.writeScene()
        var lines = ["x,y"]
        for i in 0..<120_000 { lines.append("\(i % 200).5,\(i % 300)") }
        for (at, bad) in [(110_001, "1;2"), (3, "x,y")] {
            var copy = lines
            copy[at - 1] = bad
            let input = T.temp("bad.csv"), out = T.temp("o.i32")
            try Data(copy.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: input))
            try Data("old".utf8).write(to: URL(fileURLWithPath: out))
            try Data("old".utf8).write(to: URL(fileURLWithPath: out + ".ids"))
            let (status, c) = T.run(["query", scene, input, "-o", out])
            #expect(status == 2 && c.err.contains("bad.csv: line \(at): expected x,y, found '\(bad)'"), "\(c.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(!FileManager.default.fileExists(atPath: out + ".ids"))
        }
        let odd = T.temp("odd.f64"), out = T.temp("o.i32")
        try Data(count: 24).write(to: URL(fileURLWithPath: odd))
        let (status, c) = T.run(["query", scene, odd, "-o", out])
        #expect(status == 2 && c.err.contains("is not a whole number of x,y float64 pairs"), "\(c.err)")
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".ids"))
    }

    /// Options refused before anything is read, with a message; `--ids` puts the table elsewhere.
    @Test func optionsAndTheirErrors() throws {
        let scene = T.writeScene()
        let input = T.temp("p.csv")
        try Data("15,15\n60,130\n".utf8).write(to: URL(fileURLWithPath: input))
        let csvOut = T.temp("o.csv")
        let refused: [([String], String)] = [
            (["-o", csvOut, "--ids", T.temp("t")], "--ids goes with the .i32 output"),
            (["--ids", "-"], "cannot both go to standard output"),
            (["-o", "-", "--ids", "-"], "cannot both go to standard output"),
            (["--ids", T.temp("t")], "needs the process's own standard output"),  // no byte sink here
            (["-o", "/tmp/same.i32", "--ids", "/tmp/same.i32"], "needs a file of its own"),
        ]
        for (args, message) in refused {
            let (status, c) = T.run(["query", scene, input] + args)
            #expect(status == 2 && c.err.contains(message), "\(args): \(c.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: csvOut))
        // --ids elsewhere; the table to standard output (text) with the indexes in a file.
        let out = T.temp("o.i32"), tableFile = T.temp("views.txt")
        #expect(T.run(["query", scene, input, "-o", out, "--ids", tableFile]).0 == 0)
        #expect(!FileManager.default.fileExists(atPath: out + ".ids"))
        #expect(try Self.table(tableFile) == Self.idsInFileOrder(T.sceneJSON))
        #expect(Self.indexes(try Data(contentsOf: URL(fileURLWithPath: out))) == [2, 3])
        let (status, c) = T.run(["query", scene, input, "-o", T.temp("p.i32"), "--ids", "-"])
        #expect(status == 0 && c.out == Self.idsInFileOrder(T.sceneJSON).joined(separator: "\n"), "\(c.out)")
        #expect(T.run(["query", "--help"]).1.out.contains(".i32"))
    }

    /// An id that `splitlines()` would cut in two is refused, naming the view; nothing written.
    @Test func idsWithLineBreaksAreRefused() throws {
        let json = #"{"format":"hittest-scene","version":1,"root":{"id":"root","frame":[0,0,100,100],"children":[{"id":"two\nlines","frame":[0,0,10,10]},{"id":"sep\u2028x","frame":[20,0,10,10]}]}}"#
        let scene = T.temp("scene.json"), input = T.temp("p.csv"), out = T.temp("o.i32")
        try Data(json.utf8).write(to: URL(fileURLWithPath: scene))
        try Data("5,5\n".utf8).write(to: URL(fileURLWithPath: input))
        let (status, c) = T.run(["query", scene, input, "-o", out])
        #expect(status == 2 && c.err.contains(#"view 1 has an id with a line break ("two\u{a}lines")"#), "\(c.err)")
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".ids"))
        for s in ["a\rb", "a\u{0B}b", "a\u{85}b", "a\u{2029}b"] { #expect(s.unicodeScalars.contains(where: HitTestCLI.ViewTable.breaksLine)) }
        #expect(!"a b,c;d\t".unicodeScalars.contains(where: HitTestCLI.ViewTable.breaksLine))
    }

    /// A window built in code with a `pointInsideHandler`: the answers that need the views
    /// come from them, for CSV and `.f64` input, and equal the text output's; the table holds
    /// the tree depth-first, subviews back to front, the window first.
    @Test func answersThatNeedAHandler() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let button = View(frame: Rect(x: 100, y: 100, width: 80, height: 40))
        let cover = View(frame: Rect(x: 50, y: 50, width: 200, height: 200))
        let inner = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        window.accessibilityIdentifier = "window"
        button.accessibilityIdentifier = "button"
        cover.accessibilityIdentifier = "cover"
        inner.accessibilityIdentifier = "inner"
        window.addSubview(button)
        window.addSubview(cover)
        button.addSubview(inner)
        cover.pointInsideHandler = { view, p, _ in
            if button.point(inside: view.convert(p, to: button)) { return false }
            return view.bounds.contains(p)
        }
        let table = HitTestCLI.ViewTable(window: window)
        #expect(table.ids == ["window", "button", "inner", "cover"])
        var rng = SplitMix64(seed: 9)
        var text = "x,y\r\n", f64 = Data(), points: [Point] = []
        for _ in 0..<80_000 {
            let p = Point(x: Double(rng.next() % 3400) / 10 - 20, y: Double(rng.next() % 3400) / 10 - 20)
            points.append(p)
            text += "\(p.x),\(p.y)\r\n"
            for v in [p.x, p.y] { withUnsafeBytes(of: v.bitPattern.littleEndian) { f64.append(contentsOf: $0) } }
        }
        let expected = points.map { HitTestCLI.name(window.hitTest(HitTestCLI.Screen.toRoot($0, window))) }
        #expect(Set(expected) == ["", "window", "button", "inner", "cover"])
        for binary in [false, true] {
            let path = T.temp("out.i32")
            let output = T.Captured().output
            var w = try HitTestCLI.FileWriter(path, output)
            w.binary = true
            let bytes = binary ? [UInt8](f64) : Array(text.utf8)
            let count = try bytes.withUnsafeBytes { raw in
                binary
                    ? try HitTestCLI.PointsStream.binary(
                        raw, window: window, screen: LevelConversion(window), answers: .i32(table), to: &w, progress: HitTestCLI.Progress(output))
                    : try HitTestCLI.PointsStream.csv(
                        raw, name: "p", window: window, screen: LevelConversion(window), answers: .i32(table), to: &w, progress: HitTestCLI.Progress(output))
            }
            try w.finish()
            #expect(count == points.count)
            let hits = Self.indexes(try Data(contentsOf: URL(fileURLWithPath: path)))
            Self.expectSame(hits.map { $0 < 0 ? "" : table.ids[Int($0)] }, expected, "binary: \(binary)")
        }
    }

    /// A scrolled root (one pass, points shifted) and a transformed root (the two-pass path):
    /// screen coordinates, as the CSV output, for CSV and `.f64` input.
    @Test(arguments: [MovedRootFixture.scrolled, MovedRootFixture.scaled])
    func movedRootsAnswerInScreenCoordinates(_ json: String) throws {
        let f = try MovedRootFixture(json, seed: 21)
        for (name, input) in f.inputs {
            let (hits, ids) = try Self.compare(scene: f.scenePath, input: input)
            Self.expectSame(hits.map { $0 < 0 ? "" : ids[Int($0)] }, f.expected, name)
            #expect(ids == Self.idsInFileOrder(json))
            #expect(Set(hits).count >= 3, "\(name)")
        }
    }
}
