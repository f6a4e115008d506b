import Foundation
import HitTestKit
import Testing

@testable import HitTestCLI
@testable import HitTestScenes

/// The fast CSV points path of `query` (issue 10, item 14): every number exactly as
/// `Double(String)` reads it, on every path (8-byte, scalar, strtod) and across chunks; bad lines
/// named by their line number; the output lines as the input wrote them.
@Suite struct PointsParsingTests {
    typealias T = SceneAndCLITests

    /// A random number text: signs, leading zeros, 0...25 fraction digits, exponents, -0.
    static func randomNumber(_ rng: inout some RandomNumberGenerator) -> String {
        let digits = Array("0123456789")
        func run(_ n: Int) -> String { String((0..<n).map { _ in digits[Int.random(in: 0..<10, using: &rng)] }) }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return ["-0", "0", "+0", "-0.0", "0.000", "1.", ".5", "-.25", "+7", "00012.5000"].randomElement(using: &rng)!
        case 1: return "\(Double.random(in: -1e6...1e6, using: &rng))"
        case 2: return run(Int.random(in: 1...25, using: &rng)) + "." + run(Int.random(in: 0...25, using: &rng))
        case 3: return run(Int.random(in: 1...4, using: &rng)) + "e" + (Bool.random(using: &rng) ? "-" : "") + run(Int.random(in: 1...2, using: &rng))
        default:
            // The usual: up to 5 integer digits, 0...9 fraction digits, sometimes negative.
            let sign = Int.random(in: 0..<8, using: &rng) == 0 ? "-" : (Int.random(in: 0..<30, using: &rng) == 0 ? "+" : "")
            let f = Int.random(in: 0...9, using: &rng)
            return sign + run(Int.random(in: 1...5, using: &rng)) + (f == 0 && Bool.random(using: &rng) ? "" : "." + run(f))
        }
    }

    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

    @Test func everyNumberIsExactlyDoubleOfItsText() throws {
        var rng = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "9007199254740993", "9007199254740992.5", "0.1", "0.3", "123.456", "78.9", "1234567.8",
                     "12345678", "123.4567", "4503599627370497.5", "1e22", "1e23", "2.2250738585072014e-308", "4e-320",
                     "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"]
        for _ in 0..<20_000 { texts.append(Self.randomNumber(&rng)) }
        for text in texts {
            let expected = try #require(Double(text), "\(text)")
            // At the end of the buffer (the scalar paths) and followed by more lines (the 8-byte
            // path), through the line parser.
            for tail in ["", "\r\n" + String(repeating: "1,2\n", count: 10)] {
                let line = Array((text + "," + text + tail).utf8)
                let out = UnsafeMutablePointer<Point>.allocate(capacity: 11)
                defer { out.deallocate() }
                let (count, failure) = line.withUnsafeBufferPointer {
                    HitTestCLI.PointsCSV.chunk($0.baseAddress!, $0.count, header: false, into: out, capacity: 11)
                }
                #expect(failure == nil && count == (tail.isEmpty ? 1 : 11), "\(text)")
                if count >= 1 { #expect(Self.same(out[0].x, expected) && Self.same(out[0].y, expected), "\(text): \(out[0])") }
            }
        }
    }

    /// A CSV of many chunks with every kind of line; the points must equal the texts read one
    /// by one with `Double(String)`, in order.
    @Test func chunkedFileMatchesDoubleOfEveryText() throws {
        var rng = SystemRandomNumberGenerator()
        var text = "x,y\r\n"
        var expected: [(String, String)] = []
        while text.utf8.count < 9 << 20 {
            let x = Self.randomNumber(&rng), y = Self.randomNumber(&rng)
            expected.append((x, y))
            let sep = [",", ",", ",", " , ", ",\t", " ,"].randomElement(using: &rng)!
            let lead = Int.random(in: 0..<20, using: &rng) == 0 ? "  " : ""
            let end = ["\n", "\n", "\r\n", " \n", "\n\n"].randomElement(using: &rng)!
            text += lead + x + sep + y + end
        }
        text += "1.5,-2"  // no final newline
        expected.append(("1.5", "-2"))
        let points = try HitTestCLI.Query.parsePoints(Data(text.utf8), binary: false, name: "many", progress: nil)
        try #require(points.count == expected.count)
        for (k, (x, y)) in expected.enumerated() {
            #expect(Self.same(points[k].x, Double(x)!) && Self.same(points[k].y, Double(y)!), "point \(k): \(x),\(y) read as \(points[k])")
        }
    }

    @Test func badLinesAreNamedByLineNumberInEveryChunk() throws {
        var lines = ["x,y"]
        for i in 0..<600_000 { lines.append("\(i % 390).25,\(i % 844).5") }
        for bad in [2, 17, 300_001, 599_999, 600_001] {
            var copy = lines
            copy[bad - 1] = "12.5;7"
            let data = Data(copy.joined(separator: "\n").utf8)
            #expect(data.count > HitTestCLI.PointsCSV.chunkBytes)  // two chunks or more
            #expect(throws: HitTestCLI.Failure.self) {
                try HitTestCLI.Query.parsePoints(data, binary: false, name: "f.csv", progress: nil)
            }
            do {
                _ = try HitTestCLI.Query.parsePoints(data, binary: false, name: "f.csv", progress: nil)
            } catch let failure as HitTestCLI.Failure {
                #expect(failure.message == "f.csv: line \(bad): expected x,y, found '12.5;7'", "\(failure.message)")
            }
        }
        for bad in ["1,2,3", "1,", ",2", "1 2", "1e,2", "--1,2", "1.2.3,4", "nan1,2", "0x,1", "1,2 3"] {
            let data = Data("x,y\n1,2\r\n\(bad)\n3,4".utf8)
            do {
                _ = try HitTestCLI.Query.parsePoints(data, binary: false, name: "f", progress: nil)
                Issue.record("accepted \(bad)")
            } catch let failure as HitTestCLI.Failure {
                #expect(failure.message.hasPrefix("f: line 3: expected x,y"), "\(failure.message)")
            }
        }
        // Empty input and a header only: no points.
        #expect(try HitTestCLI.Query.parsePoints(Data(), binary: false, name: "e", progress: nil).isEmpty)
        #expect(try HitTestCLI.Query.parsePoints(Data("x,y\r\n\r\n".utf8), binary: false, name: "e", progress: nil).isEmpty)
    }

    /// `query` output over several chunks: each line's text as written (spaces kept, its CR and
    /// LF dropped), then the id of the view the bulk hit test finds.
    @Test func queryOutputRepeatsTheInputTextWithTheHitView() throws {
        let scenePath = T.writeScene()
        let window = try SceneFile(json: Data(T.sceneJSON.utf8)).makeWindow()
        var rng = SystemRandomNumberGenerator()
        var text = "x,y\n"
        var rows: [(String, String)] = []
        var lines: [String] = []
        while text.utf8.count < 9 << 20 {
            let x = String(format: "%.\(Int.random(in: 0...4, using: &rng))f", Double.random(in: -10...210, using: &rng))
            let y = String(format: "%.\(Int.random(in: 0...4, using: &rng))f", Double.random(in: -10...210, using: &rng))
            rows.append((x, y))
            let (line, end) = [(x + "," + y, "\n"), (x + "," + y, "\r\n"), (" " + x + " , " + y + "\t", "\n"), (x + ",  " + y, "\n\n")].randomElement(using: &rng)!
            lines.append(line)
            text += line + end
        }
        let input = T.temp("points.csv"), output = T.temp("out.csv")
        try Data(text.utf8).write(to: URL(fileURLWithPath: input))
        let c = T.Captured()
        #expect(HitTestCLI.run(["query", scenePath, input, "-o", output], output: c.output) == 0, "\(c.err)")
        let views = window.hitTest(rows.map { Point(x: Double($0.0)!, y: Double($0.1)!) })
        var expected = "x,y,id\n"
        for k in rows.indices { expected += "\(lines[k]),\(HitTestCLI.name(views[k]))\n" }
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.utf8.count == expected.utf8.count)
        #expect(written == expected)
    }
}
