import Foundation
import HitTestKit
import Testing

@testable import HitTestCLI
@testable import HitTestScenes

/// The whole-line CSV parser (`PointsLine`, issue 10 item 14): on every input, `PointsCSV.chunk`
/// with it gives the same points (bit for bit), the same count and the same error (line and
/// text) as the number-by-number parser alone; what it accepts is `Double(String)` of the
/// fields.
@Suite struct PointsLineTests {
    /// `chunk` of `text` with and without the line parser.
    static func both(_ text: [UInt8], header: Bool = false) -> (a: [Point], b: [Point], fa: (Int, String)?, fb: (Int, String)?) {
        let capacity = text.count / 2 + 2
        let out = UnsafeMutablePointer<Point>.allocate(capacity: 2 * capacity)
        defer { out.deallocate() }
        let (ca, fa, cb, fb) = text.withUnsafeBufferPointer { b -> (Int, (Int, String)?, Int, (Int, String)?) in
            let (ca, fa) = HitTestCLI.PointsCSV.chunk(b.baseAddress!, b.count, header: header, into: out, capacity: capacity, lines: true)
            let (cb, fb) = HitTestCLI.PointsCSV.chunk(b.baseAddress!, b.count, header: header, into: out + capacity, capacity: capacity, lines: false)
            return (ca, fa, cb, fb)
        }
        return (Array(UnsafeBufferPointer(start: out, count: ca)), Array(UnsafeBufferPointer(start: out + capacity, count: cb)), fa, fb)
    }

    /// Whether both parsers agree on `text`; records a failure naming `label` when not.
    @discardableResult
    static func agree(_ text: [UInt8], header: Bool = false, _ label: @autoclosure () -> String) -> Bool {
        let r = both(text, header: header)
        let same = r.a.count == r.b.count && zip(r.a, r.b).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern }
            && r.fa?.0 == r.fb?.0 && r.fa?.1 == r.fb?.1
        #expect(same, "\(label()): \(r.a.count) vs \(r.b.count) points, failures \(String(describing: r.fa)) vs \(String(describing: r.fb))")
        return same
    }

    /// Enough lines after a line for the line parser to be tried on it (it needs 32 bytes).
    static let filler = Array(String(repeating: "1,2\n", count: 10).utf8)

    /// `PointsLine.parse` on one line (padded): the point and the next line's start.
    static func line(_ text: String) -> (Point, Int)? {
        var bytes = Array(text.utf8)
        let length = bytes.count
        bytes += [UInt8](repeating: 0x0A, count: 40)
        let out = UnsafeMutablePointer<Point>.allocate(capacity: 1)
        defer { out.deallocate() }
        return bytes.withUnsafeBufferPointer { b in
            HitTestCLI.PointsCSV.pow10.withUnsafeBufferPointer { tens in
                HitTestCLI.PointsLine.parse(b.baseAddress!, 0, tens.baseAddress!, into: out).map { next in
                    #expect(next <= length + 1)
                    return (out.pointee, next)
                }
            }
        }
    }

    @Test func acceptsTheCommonFormExactly() throws {
        // Taken by the line parser (so these exercise it, not the fallback), each exact.
        for text in ["1,2", "126.46,268.03", "-0,+0", "0.5,-.25", "5.,7", "12345678,87654321", "123456.8,-9.999999", "1234567.,-.9999999",
                     "+1.000000,-0.000001", "00012.50,0", "1,2\r", "-123.456,-789.123", "999.999,0.001"] {
            let (p, next) = try #require(Self.line(text + "\n"), "\(text)")
            let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
            let x = try #require(Double(fields[0])), y = try #require(Double(fields[1]))
            #expect(p.x.bitPattern == x.bitPattern && p.y.bitPattern == y.bitPattern, "\(text): \(p)")
            #expect(next == text.utf8.count + 1, "\(text)")
        }
        // Left to the number-by-number parser: spaces, exponents, long numbers, empty fields,
        // a second comma or point, signs in the middle, other bytes, long lines, no newline
        // within reach.
        for text in ["1, 2", " 1,2", "1,2 ", "1\t,2", "1e3,2", "1,2E1", "123456789,1", "1,1.2345678", ",2", "1,", ",", "1,2,3",
                     "1..2,3", "1.2.3,4", "-,1", "1,-", "+-1,2", "1-2,3", "x,y", "1;2", "inf,1", "nan,2", "0x10,1", ".,1", "1,.",
                     "\r1,2", "1,2\r\r", "", "12345678.1,2", "1.0000000,2", "1,-9.9999999", "1," + String(repeating: "1", count: 30), "1\u{0},2"] {
            #expect(Self.line(text + "\n") == nil, "\(text.debugDescription)")
        }
    }

    /// Every line of up to 5 bytes over the bytes that matter (digits, point, comma, signs, CR,
    /// space, e), alone and followed by more lines, as the first line of a header piece and not.
    @Test func agreesOnEveryShortLine() {
        let alphabet = Array("09.,-+\r e".utf8)
        var lines: [[UInt8]] = [[]]
        var level: [[UInt8]] = [[]]
        for _ in 1...5 {
            level = level.flatMap { l in alphabet.map { l + [$0] } }
            lines += level
        }
        var bad = 0
        for l in lines {
            if !Self.agree(l + [0x0A] + Self.filler, "\(String(decoding: l, as: UTF8.self).debugDescription)") { bad += 1 }
            if l.count <= 3 && !Self.agree(l + [0x0A] + Self.filler, header: true, "header \(String(decoding: l, as: UTF8.self).debugDescription)") { bad += 1 }
            if bad > 20 { break }
        }
        #expect(lines.count > 60_000)
    }

    /// A random line: mostly the common form (with edge cases of it), sometimes longer numbers,
    /// exponents, spaces, CRLF, empty fields, garbage bytes.
    static func randomLine(_ rng: inout some RandomNumberGenerator) -> String {
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }) }
        func number() -> String {
            let sign = ["", "", "", "-", "+"].randomElement(using: &rng)!
            switch Int.random(in: 0..<12, using: &rng) {
            case 0: return sign + digits(Int.random(in: 0...12, using: &rng)) + "." + digits(Int.random(in: 0...12, using: &rng))
            case 1: return sign + digits(Int.random(in: 1...3, using: &rng)) + ["e", "E"].randomElement(using: &rng)! + ["", "-", "+"].randomElement(using: &rng)! + digits(Int.random(in: 1...3, using: &rng))
            case 2: return sign + String(repeating: "0", count: Int.random(in: 1...9, using: &rng)) + digits(Int.random(in: 0...8, using: &rng))
            case 3: return ["", ".", "-", "+", "-.", "1..2", "--1", "inf", "nan", "0x1p3", "1_0", "١"].randomElement(using: &rng)!
            default:
                let a = Int.random(in: 0...8, using: &rng)
                let f = Int.random(in: 0...(8 - a), using: &rng)
                let point = f > 0 || Bool.random(using: &rng)
                return sign + digits(a) + (point ? "." + digits(f) : "") + (a + f == 0 ? "1" : "")
            }
        }
        let garbage = Array(" \t\r,.-+0e;x\u{0}é")
        switch Int.random(in: 0..<25, using: &rng) {
        case 0: return String((0..<Int.random(in: 0...24, using: &rng)).map { _ in garbage.randomElement(using: &rng)! })
        case 1: return number()
        case 2: return number() + "," + number() + "," + number()
        case 3: return [" ", "\t", ""].randomElement(using: &rng)! + number() + [" , ", ",\t", " ,", ","].randomElement(using: &rng)! + number() + [" ", "\t", ""].randomElement(using: &rng)!
        default: return number() + "," + number()
        }
    }

    /// Fuzz: random pieces of random lines (LF, CRLF, blank lines, with and without a final
    /// newline), each parsed with and without the line parser. The good lines' points must
    /// equal and the first bad line must be the same; the pieces are also cut before the first
    /// bad line so that the lines after it are compared too.
    @Test func agreesOnRandomPieces() throws {
        var rng = SystemRandomNumberGenerator()
        var lines = 0, accepted = 0
        for round in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 1...400, using: &rng) {
                text += Self.randomLine(&rng) + ["\n", "\n", "\n", "\r\n", "\n\n", "\r\r\n"].randomElement(using: &rng)!
                lines += 1
            }
            if Bool.random(using: &rng) { text.removeLast() }
            let bytes = Array(text.utf8)
            Self.agree(bytes, header: round % 3 == 0, "round \(round)")
            // The lines after each bad one: drop lines up to it and compare again.
            var rest = bytes[...]
            for _ in 0..<50 {
                let r = Self.both(Array(rest))
                accepted += r.a.count
                guard let (line, _) = r.fa else { break }
                var skip = line
                while skip > 0, let nl = rest.firstIndex(of: 0x0A) { rest = rest[(nl + 1)...]; skip -= 1 }
                if skip > 0 { break }
                Self.agree(Array(rest), "round \(round) after a bad line")
            }
        }
        #expect(lines > 10_000 && accepted > 1_000)
    }

    /// Many common-form lines (the script's kind, plus 4-8 digit numbers and signs) in one
    /// piece, against `Double(String)` of each field.
    @Test func commonLinesEqualDoubleOfTheirText() throws {
        var rng = SystemRandomNumberGenerator()
        var text = "x,y\n", expected: [(String, String)] = []
        for _ in 0..<100_000 {
            func n() -> String {
                let a = Int.random(in: 1...5, using: &rng), f = Int.random(in: 0...min(3, 8 - a), using: &rng)
                let m = String(Int.random(in: 0..<Int(pow(10, Double(a + f))), using: &rng))
                let s = String(repeating: "0", count: max(0, a + f - m.count)) + m
                let body = f == 0 ? s : String(s.prefix(a)) + "." + String(s.suffix(f))
                return (Int.random(in: 0..<5, using: &rng) == 0 ? "-" : "") + body
            }
            let x = n(), y = n()
            expected.append((x, y))
            text += x + "," + y + (Int.random(in: 0..<4, using: &rng) == 0 ? "\r\n" : "\n")
        }
        let r = Self.both(Array(text.utf8), header: true)
        #expect(r.fa == nil && r.a.count == expected.count)
        for (k, (x, y)) in expected.enumerated() where k < r.a.count {
            #expect(r.a[k].x.bitPattern == Double(x)!.bitPattern && r.a[k].y.bitPattern == Double(y)!.bitPattern, "\(x),\(y): \(r.a[k])")
        }
        #expect(zip(r.a, r.b).allSatisfy { $0.x.bitPattern == $1.x.bitPattern && $0.y.bitPattern == $1.y.bitPattern })
    }

    /// The text output from the parser's line extents (`formatPoints`) equals the output of
    /// scanning the lines again (`formatLines`) on pieces of every kind of valid line: the
    /// common form, spaces and tabs around the numbers, CRLF, blank lines, exponents, long
    /// numbers, a header, with and without a final newline; ids of every length.
    @Test func formatFromExtentsEqualsFormatFromLines() throws {
        let window = try SceneFile(json: Data(SceneAndCLITests.sceneJSON.utf8)).makeWindow()
        var all: [HitTestHandle] = [.none]
        window.forEachView { all.append($0.hitTestHandle) }
        let ids = HitTestCLI.PointsCSV.Ids(allViewsOf: window)
        var rng = SystemRandomNumberGenerator()
        var points = 0, plain = 0
        for round in 0..<300 {
            var text = round % 2 == 0 ? "x,y\n" : ""
            for _ in 0..<Int.random(in: 1...300, using: &rng) {
                let x = String(Double(Int.random(in: -99999...99999, using: &rng)) / 100), y = String(Int.random(in: 0...999, using: &rng))
                let long = "1234567890.123456789", exp = "1.5e3"
                let body: String
                switch Int.random(in: 0..<10, using: &rng) {
                case 0: body = " \(x) , \(y)\t"
                case 1: body = "\(x),\t\(y)"
                case 2: body = "\(long),\(x)"
                case 3: body = "\(exp),\(y)"
                case 4: body = ""
                default: body = "\(x),\(y)"
                }
                text += body + (Bool.random(using: &rng) ? "\n" : "\r\n")
            }
            if Bool.random(using: &rng) { text += "7,8" }
            let bytes = Array(text.utf8)
            let capacity = bytes.count / 2 + 2
            let out = UnsafeMutablePointer<Point>.allocate(capacity: capacity)
            let extents = UnsafeMutablePointer<HitTestCLI.PointsCSV.LineExtent>.allocate(capacity: capacity)
            defer { out.deallocate(); extents.deallocate() }
            let (count, failure) = bytes.withUnsafeBufferPointer {
                HitTestCLI.PointsCSV.chunk($0.baseAddress!, $0.count, header: true, into: out, capacity: capacity, extents: extents)
            }
            try #require(failure == nil, "round \(round): \(String(describing: failure))")
            let handles = (0..<count).map { _ in all.randomElement(using: &rng)! }
            let room = bytes.count + count * (ids.longest + 2) + 64
            let (a, b) = bytes.withUnsafeBufferPointer { p in
                handles.withUnsafeBufferPointer { h in
                    let a = UnsafeMutablePointer<UInt8>.allocate(capacity: room), b = UnsafeMutablePointer<UInt8>.allocate(capacity: room)
                    defer { a.deallocate(); b.deallocate() }
                    let na = HitTestCLI.PointsCSV.formatPoints(p.baseAddress!, p.count, extents: extents, handles: h.baseAddress!, count: count, ids: ids, into: a)
                    let nb = HitTestCLI.PointsCSV.formatLines(p.baseAddress!, p.count, first: true, handles: h.baseAddress!, count: count, ids: ids, into: b)
                    return (Array(UnsafeBufferPointer(start: a, count: na)), Array(UnsafeBufferPointer(start: b, count: nb)))
                }
            }
            #expect(a == b, "round \(round): \(String(decoding: a.prefix(200), as: UTF8.self)) vs \(String(decoding: b.prefix(200), as: UTF8.self))")
            points += count
            plain += (0..<count).filter { extents[$0].length > 0 }.count
        }
        // Every point's extent is its line's text (spaces kept, issue 24 item 18), from the
        // fast paths and the general one alike: formatPoints copies what formatLines writes.
        #expect(points > 10_000 && plain == points)
    }
}
