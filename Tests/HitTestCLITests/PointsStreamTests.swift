import Foundation
import HitTestKit
import HitTestSampleScenes
import Testing

@testable import HitTestCLI
@testable import HitTestScenes

/// `query` in one pass (`PointsStream`, issue 10 item 14): the output is byte for byte what the
/// two-pass path (parse everything, hit-test everything, write everything) gives, over many
/// pieces, for CSV and `.f64`; errors keep their line numbers and leave no partial file;
/// answers that need a handler are found on the calling thread; progress only when asked.
@Suite struct PointsStreamTests {
    typealias T = SceneAndCLITests

    /// The two-pass output for `data` (the path the tool still takes for transformed roots):
    /// screen points converted one by one with `Screen.toRoot`, as there.
    static func twoPass(_ data: Data, binary: Bool, window: Window) throws -> Data {
        let path = T.temp("two-pass.csv")
        let output = T.Captured().output
        var w = try HitTestCLI.FileWriter(path, output)
        let progress = HitTestCLI.Progress(output)
        if binary {
            let points = try HitTestCLI.Query.parsePoints(data, binary: true, name: "p", progress: nil)
            let roots = points.map { HitTestCLI.Screen.toRoot($0, window) }
            let handles = roots.withUnsafeBufferPointer { p in
                [HitTestHandle](unsafeUninitializedCapacity: points.count) { out, n in
                    window.hitTest(p, into: out)
                    n = points.count
                }
            }
            try HitTestCLI.PointsCSV.writeBinary(points: points, handles: handles, window: window, to: &w, progress: progress)
        } else {
            let (points, counts, text) = try HitTestCLI.PointsCSV.parse(data, name: "p")
            let roots = points.map { HitTestCLI.Screen.toRoot($0, window) }
            var handles = [HitTestHandle](repeating: .none, count: points.count)
            roots.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { window.hitTest(p, into: $0) } }
            try HitTestCLI.PointsCSV.write(text, counts: counts, handles: handles, window: window, to: &w, progress: progress)
        }
        try w.finish()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// A CSV of many pieces: LF, CRLF, lone CR, blank lines, spaces and tabs around the comma, exponents,
    /// long mantissas, a header, and (`finalNewline` false) no newline at the end.
    static func csv(lines: Int, seed: UInt64, finalNewline: Bool) -> String {
        var rng = SplitMix64(seed: seed)
        var text = "x,y\r\n"
        for k in 0..<lines {
            func number() -> String {
                switch rng.next() % 10 {
                case 0: return String(Double(bitPattern: 0x3FF0_0000_0000_0000 + rng.next() % (1 << 52)) * 100)
                case 1: return "\(rng.next() % 300)e0"
                case 2: return "-\(rng.next() % 50).\(rng.next() % 1000)"
                default: return "\(rng.next() % 260).\(rng.next() % 100)"
                }
            }
            let x = number(), y = number()
            let line: String
            switch rng.next() % 12 {
            case 0: line = " \(x) ,\t\(y) "
            case 1: line = "\(x),\(y)\r"
            case 2: line = "\n\(x),\(y)"
            case 3 where k % 5 == 0: line = "\(x),\(y)\r\(y),\(x)"  // a lone CR: two lines (issue 24 item 1)
            default: line = "\(x),\(y)"
            }
            text += line + (k == lines - 1 && !finalNewline ? "" : "\n")
        }
        return text
    }

    @Test(arguments: [true, false]) func csvOutputEqualsTheTwoPassPath(finalNewline: Bool) throws {
        let scene = T.writeScene()
        let window = try SceneFile(json: Data(T.sceneJSON.utf8)).makeWindow()
        let text = Self.csv(lines: 150_000, seed: finalNewline ? 1 : 2, finalNewline: finalNewline)
        #expect(text.utf8.count > 3 * HitTestCLI.PointsStream.csvPieceBytes)
        let input = T.temp("points.csv"), output = T.temp("out.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let c = T.Captured()
        #expect(HitTestCLI.run(["query", scene, input, "-o", output], output: c.output) == 0, "\(c.err)")
        let streamed = try Data(contentsOf: URL(fileURLWithPath: output))
        let expected = try Self.twoPass(Data(text.utf8), binary: false, window: window)
        #expect(streamed.count == expected.count)
        #expect(streamed == expected)
        // Standard output (not the process's own: collected, then passed on once).
        let (status, out) = T.run(["query", scene, input, "-o", "-"])
        #expect(status == 0 && out.out + "\n" == String(decoding: expected, as: UTF8.self))
    }

    @Test func binaryOutputEqualsTheTwoPassPath() throws {
        let scene = T.writeScene()
        let window = try SceneFile(json: Data(T.sceneJSON.utf8)).makeWindow()
        var rng = SplitMix64(seed: 64)
        var data = Data()
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e15, 1e-5]
        let count = 3 * HitTestCLI.PointsStream.binaryPiecePoints + 123
        for k in 0..<count {
            for _ in 0..<2 {
                let v: Double
                switch rng.next() % 5 {
                case 0: v = Double(rng.next() % 700) / 3 - 10
                case 1: v = Double(rng.next() % 250_000) / 1000
                case 2: v = specials[k % specials.count]
                case 3: v = Double(bitPattern: rng.next())
                default: v = rng.unit() * 220 - 10
                }
                withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        let input = T.temp("points.f64"), output = T.temp("out.csv")
        try data.write(to: URL(fileURLWithPath: input))
        let c = T.Captured()
        #expect(HitTestCLI.run(["query", scene, input, "-o", output], output: c.output) == 0, "\(c.err)")
        let streamed = try Data(contentsOf: URL(fileURLWithPath: output))
        let expected = try Self.twoPass(data, binary: true, window: window)
        #expect(streamed.count == expected.count)
        #expect(streamed == expected)
        // Not whole pairs: refused, nothing written.
        try data.dropLast(8).write(to: URL(fileURLWithPath: input))
        let bad = T.temp("bad.csv")
        let (status, e) = T.run(["query", scene, input, "-o", bad])
        #expect(status == 2 && e.err.contains("is not a whole number of x,y float64 pairs"), "\(e.err)")
        #expect(!FileManager.default.fileExists(atPath: bad))
    }

    /// A bad line in a later piece: its line number counts every line before it; the output
    /// file (already partly written) is removed; a bad line in the first piece too.
    @Test func badLinesStopTheRunWithTheirLineNumber() throws {
        let scene = T.writeScene()
        var lines = ["x,y"]
        for i in 0..<120_000 { lines.append("\(i % 200).25,\(i % 300)") }
        for (at, badText) in [(100_001, "1;2"), (2, "one,2"), (120_000, "1,2,3")] {
            var copy = lines
            copy[at - 1] = badText
            let input = T.temp("bad.csv"), output = T.temp("out.csv")
            try Data(copy.joined(separator: "\r\n").utf8).write(to: URL(fileURLWithPath: input))
            let (status, c) = T.run(["query", scene, input, "-o", output])
            #expect(status == 2 && c.err.contains("bad.csv: line \(at): expected x,y, found '\(badText)'"), "\(c.err)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    /// A view with a `pointInsideHandler` (possible in code, not in scene files): the snapshot
    /// cannot run it, so those points are answered by the views on the calling thread.
    @Test func answersThatNeedAHandlerComeFromTheViews() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let button = View(frame: Rect(x: 100, y: 100, width: 80, height: 40))
        let cover = View(frame: Rect(x: 50, y: 50, width: 200, height: 200))
        window.accessibilityIdentifier = "window"
        button.accessibilityIdentifier = "button"
        cover.accessibilityIdentifier = "cover"
        window.addSubview(button)
        window.addSubview(cover)
        cover.pointInsideHandler = { view, p, _ in
            if button.point(inside: view.convert(p, to: button)) { return false }
            return view.bounds.contains(p)
        }
        var rng = SplitMix64(seed: 5)
        var text = "x,y\n"
        var points: [Point] = []
        for _ in 0..<100_000 {
            let p = Point(x: Double(rng.next() % 3200) / 10, y: Double(rng.next() % 3200) / 10)
            points.append(p)
            text += "\(p.x),\(p.y)\n"
        }
        let path = T.temp("out.csv")
        let output = T.Captured().output
        var w = try HitTestCLI.FileWriter(path, output)
        let bytes = Array(text.utf8)
        let count = try bytes.withUnsafeBytes {
            try HitTestCLI.PointsStream.csv($0, name: "p", window: window, screen: LevelConversion(window), to: &w, progress: HitTestCLI.Progress(output))
        }
        try w.finish()
        #expect(count == points.count)
        var expected = "x,y,id\n"
        for p in points { expected += "\(p.x),\(p.y),\(HitTestCLI.name(window.hitTest(HitTestCLI.Screen.toRoot(p, window))))\n" }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == expected)
        #expect(written.contains(",button\n") && written.contains(",cover\n"))
    }

    /// The progress line and the closing line: only with --progress (standard error here is
    /// not a terminal).
    @Test func progressOnlyWhenAsked() throws {
        let scene = T.writeScene()
        let input = T.temp("p.csv")
        try Data("x,y\n15,15\n60,130\n".utf8).write(to: URL(fileURLWithPath: input))
        let (s1, quiet) = T.run(["query", scene, input, "-o", T.temp("o.csv")])
        #expect(s1 == 0 && quiet.err.isEmpty, "\(quiet.err)")
        let (s2, asked) = T.run(["query", scene, input, "-o", T.temp("o.csv"), "--progress"])
        #expect(s2 == 0 && asked.err.hasPrefix("2 points: read, hit-tested and wrote in "), "\(asked.err)")
        #expect(T.run(["query", "--help"]).1.out.contains("--progress"))
    }
}

/// The piece scheduler on its own: every piece worked once and written in order; a failing
/// write stops the run and is rethrown, with no worker left on a piece.
@Suite struct PointsStreamSchedulerTests {
    @Test func piecesAreWrittenInOrderAndFailuresStopTheRun() throws {
        for pieces in [1, 2, 7, 1000] {
            var order: [Int] = []
            try HitTestCLI.PointsStream.run(pieces: pieces, work: { k, slot in
                slot.count = k
                slot.used = k * 3
            }) { k, slot in
                #expect(slot.count == k && slot.used == k * 3)
                order.append(k)
            }
            #expect(order == Array(0..<pieces))
        }
        struct Stop: Error {}
        var written = 0
        #expect(throws: Stop.self) {
            try HitTestCLI.PointsStream.run(pieces: 500, work: { k, slot in slot.count = k }) { k, _ in
                if k == 37 { throw Stop() }
                written += 1
            }
        }
        #expect(written == 37)
    }
}

/// Roots that are moved: a scrolled root (one pass, each point shifted) and a transformed root
/// (the two-pass path, `Screen.toRoot` per point) both answer in screen coordinates, for CSV and
/// `.f64` input.
@Suite struct PointsStreamRootTests {
    typealias T = SceneAndCLITests

    @Test(arguments: [MovedRootFixture.scrolled, MovedRootFixture.scaled]) func answersAreInScreenCoordinates(_ json: String) throws {
        let f = try MovedRootFixture(json, seed: 17)
        for (name, input) in f.inputs {
            let output = T.temp("out.csv")
            let (status, c) = T.run(["query", f.scenePath, input, "-o", output])
            #expect(status == 0, "\(c.err)")
            let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
            #expect(lines.count == f.points.count)
            let ids = lines.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
            #expect(ids == f.expected, "\(name)")
            #expect(Set(ids).count >= 3, "\(name): \(Set(ids))")
        }
    }
}
