import Foundation
import HitTestKit
import HitTestSampleScenes
import HitTestScenes
import HitTestTestSupport
import Testing

@testable import HitTestCLI

/// The `hittest` tool on hostile input, round 2 (issue 24: items 1, 6, 9, 11, 14, 16, 17, 18):
/// line ends, the one output path, streamed replays, exit statuses, escaped names.
@Suite struct CLIHostileInput2Tests {
    typealias T = SceneAndCLITests
    typealias H = CLIHostileInputTests

    static let examples = T.root.appendingPathComponent("Examples/replay")
    static var tableScene: String { examples.appendingPathComponent("table.json").path }
    static var dragThenTap: String { examples.appendingPathComponent("drag-then-tap.csv").path }
    static func expectedLog() throws -> String {
        try String(contentsOf: examples.appendingPathComponent("expected-log.txt"), encoding: .utf8)
    }

    static func file(_ bytes: [UInt8], _ name: String) -> String {
        let path = T.temp(name)
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: - 1: one line reader

    /// The README's replay script with CRLF, lone CR and mixed line ends gives the committed log.
    @Test(arguments: ["\r\n", "\r", "mixed"])
    func replayReadsEveryLineEnd(_ end: String) throws {
        let lines = try String(contentsOf: URL(fileURLWithPath: Self.dragThenTap), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        var text = ""
        for (k, line) in lines.enumerated() { text += line + (end == "mixed" ? ["\n", "\r\n", "\r"][k % 3] : end) }
        let script = H.file(text, "script.csv")
        let (status, c) = H.run(["replay", Self.tableScene, script])
        #expect(status == 0, "\(c.err)")
        #expect(c.out + "\n" == (try Self.expectedLog()))
        // Standard input too.
        let (s2, c2) = H.run(["replay", Self.tableScene, "-"], input: Data(text.utf8))
        #expect(s2 == 0 && c2.out == c.out)
    }

    /// The script is read in 1 MB chunks: a CRLF cut by a chunk's end is one line end, so the
    /// line numbers are `TextLineReader`'s.
    @Test func replayLineNumbersHoldAcrossChunks() throws {
        var text = "time,id,phase,x,y\n"
        while text.utf8.count < (1 << 20) - 40 { text += "# padding padding padding padding\r\n" }
        // A comment line that ends with its CR as the chunk's last byte and its LF as the next's first.
        text += "#" + String(repeating: "p", count: (1 << 20) - 2 - text.utf8.count) + "\r\n"
        let bytes = Array(text.utf8)
        #expect(bytes[(1 << 20) - 1] == 0x0D && bytes[1 << 20] == 0x0A)
        text += "0,1,began,100,300\r\n0.1,1,ended,100,300\r\nbad line\r\n"
        let expectedLine = TextLineReader.lines(of: text).count
        let (status, c) = H.run(["replay", Self.tableScene, H.file(text, "long.csv")])
        #expect(status == 2)
        #expect(c.err.contains("line \(expectedLine): expected 5 or 6 fields"), "\(c.err)")
        // What came before the bad line was replayed and printed.
        #expect(c.out.hasPrefix("0.0 touch 1 began"), "\(c.out.prefix(200))")
    }

    /// The points parser's own byte scanning splits lines exactly as `TextLineReader`: LF, CRLF
    /// and lone CR, blank lines, spaces, the header, a missing last line end; the same points,
    /// the same output lines (each input line as it is), the same line number for a bad line.
    @Test func pointsParserSplitsLinesAsTheLineReaderDoes() throws {
        let plain = H.file(H.scene(#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"a","frame":[0,0,50,50]}]}"#), "plain.json")
        let moved = H.file(H.scene(#"{"id":"w","frame":[0,0,100,100],"transform":[2,0,0,2,0,0],"children":[{"id":"a","frame":[0,0,50,50]}]}"#), "moved.json")
        var rng = SeededGenerator(seed: 24)
        let texts = ["12,34", " 5.5 , 6 ", "", "  ", "\t7,8", "1e1,3", "60,61", "99.75,0.25 ", "-3,4", "10,\t90"]
        let ends = ["\n", "\r\n", "\r", "\r\r\n", "\n\r"]
        for round in 0..<120 {
            var text = round % 3 == 0 ? "x,y" + ends[Int(rng.next() % 5)] : ""
            for _ in 0..<Int(rng.next() % 12) { text += texts[Int(rng.next() % UInt64(texts.count))] + ends[Int(rng.next() % 5)] }
            if rng.next() % 2 == 0 { text += texts[Int(rng.next() % UInt64(texts.count))] }  // no last line end
            try Self.checkSplitting(text, scenes: [plain, moved])
        }
        // Big enough for several pieces, with lone CRs only; a bad line near the end.
        var big = "x,y\r"
        for i in 0..<150_000 { big += "\(i % 100),\(i % 97)\r" }
        try Self.checkSplitting(big, scenes: [plain])
        try Self.checkSplitting(big + "oops\r1,1\r", scenes: [plain])
    }

    static func checkSplitting(_ text: String, scenes: [String]) throws {
        // The rule, written with the one line reader and the parser's own line syntax.
        var expected: [(Point, String)] = []
        var bad: Int?
        for (k, line) in TextLineReader.lines(of: text).enumerated() where bad == nil {
            let bytes = Array(line.utf8)
            if bytes.isEmpty { continue }
            let (point, blank): ((Double, Double)?, Bool) = bytes.withUnsafeBufferPointer { b in
                let (s, e, _) = HitTestCLI.CSVLines.line(b.baseAddress!, from: 0, count: b.count)
                if s >= e || (k == 0 && (b[s] | 0x20) == UInt8(ascii: "x")) { return (nil, true) }
                return (HitTestCLI.CSVLines.pair(b, s, e), false)
            }
            if blank { continue }
            guard let (x, y) = point else { bad = k + 1; break }
            expected.append((Point(x: x, y: y), String(line)))
        }
        let path = H.file(text, "points.csv")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if let bad {
            #expect(throws: (any Error).self) { try HitTestCLI.Query.parsePoints(data, binary: false, name: "p", progress: nil) }
            for scene in scenes {
                let (status, c) = H.run(["query", scene, path])
                #expect(status == 2 && c.err.contains("line \(bad): expected x,y"), "\(c.err) \(text.debugDescription.prefix(300))")
            }
            return
        }
        let parsed = try HitTestCLI.Query.parsePoints(data, binary: false, name: "p", progress: nil)
        #expect(parsed == expected.map(\.0), "\(text.debugDescription.prefix(300))")
        for scene in scenes {
            let window = try SceneFile(json: Data(contentsOf: URL(fileURLWithPath: scene))).makeWindow()
            let lines = expected.map { "\($0.1),\(HitTestCLI.name(window.hitTest(HitTestCLI.Screen.toRoot($0.0, window))))" }
            let (status, c) = H.run(["query", scene, path])
            #expect(status == 0, "\(c.err)")
            #expect(c.out == (["x,y,id"] + lines).joined(separator: "\n"), "\(text.debugDescription.prefix(300))")
        }
    }

    // MARK: - 6: audit --step

    @Test func auditAreasNeverExceedTheScreen() throws {
        let screenArea = 320.0 * 480
        for step in ["1000", "1e300", "480", "321"] {
            let (status, c) = H.run(["audit", Self.tableScene, "--step", step, "--json"])
            #expect(status == 0, "\(c.err)")
            let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(c.out.utf8))
            #expect(report.deadArea <= screenArea && report.deadArea.isFinite, "--step \(step): \(report.deadArea)")
            for control in report.controls { #expect(control.tapArea <= screenArea && control.visibleArea <= screenArea, "\(control)") }
            #expect(c.err.contains("coarser than the 320x480 pt screen"), "\(c.err)")
        }
        // A flat screen: the dead zone is at most its area (1e7 x 1e-300), not 1e300 times it.
        let (status, c) = H.run(["audit", Self.tableScene, "--size", "1e7x1e-300", "--json"])
        #expect(status == 0, "\(c.err)")
        let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(c.out.utf8))
        #expect(report.deadArea <= 1e7 * 1e-300 * (1 + 1e-12), "\(report.deadArea)")
        // A step finer than the screen is unchanged: 1 pt samples stand for 1 pt².
        let (s1, c1) = H.run(["audit", Self.tableScene, "--json"])
        let fine = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(c1.out.utf8))
        #expect(s1 == 0 && fine.step == 1 && !c1.err.contains("coarser"))
        #expect(fine.controls.allSatisfy { $0.tapArea == $0.tapArea.rounded() })
    }

    // MARK: - 9: one output path

    /// Every command, writing to /dev/full: "cannot write standard output", exit 2, never a trap.
    @Test(arguments: [
        ["stats", "@scene"], ["explain", "@scene", "100", "100"], ["audit", "@scene"], ["audit", "@scene", "--json"],
        ["replay", "@scene", "@script"], ["query", "@scene", "@points"], ["query", "@scene", "@points", "--ids", "@table"],
        ["import", "@dump", "-o", "-"], ["render", "@scene", "-o", "-"], ["render", "@scene", "--html", "-o", "-"],
        ["stats", "--help"], ["demo", "--points", "1000", "--out", "@dir"],
    ])
    func aFailedWriteToStandardOutputIsAnError(_ template: [String]) throws {
        let dump = H.file("<UIWindow: 0x1; frame = (0 0; 100 200)>\n   | <UIView: 0x3; frame = (0 0; 10 10)>\n", "dump.txt")
        let points = H.file(String(repeating: "100,100\n", count: 20_000), "p.csv")
        let values = ["@scene": Self.tableScene, "@script": Self.dragThenTap, "@points": points, "@table": T.temp("t.ids"),
                      "@dump": dump, "@dir": T.temp("demo")]
        let args = template.map { values[$0] ?? $0 }
        let full = open("/dev/full", O_WRONLY)
        let errPath = T.temp("err.txt")
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let null = open("/dev/null", O_RDONLY)
        try #require(full >= 0 && errFD >= 0 && null >= 0)
        let status = HitTestCLI.run(args, output: .streams(out: full, err: errFD, input: null))
        close(full)
        close(errFD)
        close(null)
        let err = try String(contentsOf: URL(fileURLWithPath: errPath), encoding: .utf8)
        #expect(status == 2, "\(args): \(err)")
        let message = "hittest \(args[0]): cannot write standard output: No space left on device"
        #expect(err.components(separatedBy: message).count == 2, "\(err)")
    }

    /// A replay whose output cannot be written stops there, not at the end of the script.
    @Test func aReplayStopsAtTheFirstFailedWrite() throws {
        var text = "time,id,phase,x,y\n"
        for k in 0..<20_000 { text += "\(k),1,began,100,300\n\(k).5,1,ended,100,300\n" }
        text += "99999,oops\n"
        let script = H.file(text, "long.csv")
        let full = open("/dev/full", O_WRONLY)
        let errPath = T.temp("err.txt")
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(full); close(errFD) }
        let status = HitTestCLI.run(["replay", Self.tableScene, script], output: .streams(out: full, err: errFD, input: full))
        let err = try String(contentsOf: URL(fileURLWithPath: errPath), encoding: .utf8)
        // The bad last line is never reached.
        #expect(status == 2 && err.contains("cannot write standard output") && !err.contains("oops"), "\(err)")
    }

    /// The tool itself with its standard output closed (`>&-`): exit 2 and the message.
    @Test func aClosedStandardOutputIsAnError() throws {
        let binary = try #require(
            TestPaths.productDirectories().map { $0.appendingPathComponent("hittest") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }, "the hittest tool was not built")
        let errPath = T.temp("err.txt")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, 1)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = [binary.path, "stats", Self.tableScene]
        var cargs = argv.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, binary.path, &actions, nil, &cargs, environ) == 0)
        var wstatus: Int32 = 0
        waitpid(pid, &wstatus, 0)
        let err = try String(contentsOf: URL(fileURLWithPath: errPath), encoding: .utf8)
        // Exited (not killed by a signal) with status 2.
        #expect(wstatus & 0x7F == 0 && (wstatus >> 8) & 0xFF == 2, "\(wstatus): \(err)")
        #expect(err.contains("hittest stats: cannot write standard output: Bad file descriptor"), "\(err)")
    }

    // MARK: - 11: the replay streams

    /// The log of each step is printed as soon as the script shows the step complete, before
    /// the rest of the script is read (here: before it is written).
    @Test func replayPrintsAsItReads() throws {
        let fifo = T.temp("script.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = WatchedOutput()
        let seenEarly = Flag()
        let writer = Thread {
            let h = FileHandle(forWritingAtPath: fifo)!
            h.write(Data("time,id,phase,x,y\n0.00,1,began,100,300\n0.05,1,moved,100,280\n0.10,1,moved,100,220\n".utf8))
            // The step at 0.05 is complete once the line at 0.10 is read: its log must come now.
            seenEarly.value = out.wait(timeout: 10) { $0.contains { $0.hasPrefix("0.05 ") } }
            h.write(Data("0.15,1,moved,100,160\n0.50,1,ended,100,160\n".utf8))
            try? h.close()
        }
        writer.start()
        let status = HitTestCLI.run(["replay", Self.tableScene, fifo], output: out.output)
        #expect(status == 0)
        #expect(seenEarly.value)
        #expect(out.lines.contains("0.15 touch 1 scrolled table: contentOffset (0.0, 120.0)"))
    }

    /// The replayed log is byte for byte the committed one, whatever `--only` keeps.
    @Test func streamedReplayKeepsTheCommittedLog() throws {
        let expected = try Self.expectedLog().split(separator: "\n").map(String.init)
        let (status, c) = H.run(["replay", Self.tableScene, Self.dragThenTap, "--only", "scrolled,controlEvent"])
        #expect(status == 0)
        #expect(c.out == expected.filter { $0.contains(" scrolled ") || $0.contains(" controlEvent ") }.joined(separator: "\n"))
    }

    // MARK: - 14: messages

    @Test func renderSaysWhichOutputTakesAnOption() throws {
        let (s1, c1) = H.run(["render", Self.tableScene, "-o", T.temp("x.html"), "--at", "0.6"])
        #expect(s1 == 2 && c1.err.contains("--at goes with the PNG output (-o MAP.png)"), "\(c1.err)")
        let (s2, c2) = H.run(["render", "--sample", "app", "-o", T.temp("z.png")])
        #expect(s2 == 2 && c2.err.contains("--sample goes with the page output (-o MAP.html or --html)"), "\(c2.err)")
        let (s3, c3) = H.run(["render", Self.tableScene, "-o", T.temp("x.html"), "--presentation"])
        #expect(s3 == 2 && c3.err.contains("--presentation goes with the PNG output"), "\(c3.err)")
        // The page takes --size, as its help says.
        let (s4, c4) = H.run(["render", Self.tableScene, "-o", T.temp("x.html"), "--size", "480x320"])
        #expect(s4 == 0, "\(c4.err)")
    }

    @Test func auditStepMessagesShowTheNumberGiven() throws {
        let (status, c) = H.run(["audit", Self.tableScene, "--step", "1e-9"])
        #expect(status == 2 && c.err.contains("--step 1e-09 on a 320x480 pt screen"), "\(c.err)")
        #expect(!c.err.contains("--step 0 "))
    }

    @Test func importWarningsNameTheFile() throws {
        let dump = H.file("<UIWindow: 0x1; frame = (0 0; 100 200)>\nnot a view\n", "named-dump.txt")
        let (status, c) = H.run(["import", dump, "-o", T.temp("out.json")])
        #expect(status == 0, "\(c.err)")
        #expect(c.err.contains("warning: \(dump): line 2: not a view"), "\(c.err)")
    }

    /// UTF-16 (with or without a byte order mark), UTF-32 and binary text inputs are refused
    /// with a message that says so; no NUL byte or raw control byte reaches the terminal.
    @Test func utf16AndBinaryInputsAreRefused() throws {
        func utf16(_ s: String, bom: Bool, big: Bool = false) -> [UInt8] {
            var out: [UInt8] = bom ? (big ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
            for u in s.utf16 { out += big ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)] }
            return out
        }
        let dump = "<UIWindow: 0x1; frame = (0 0; 100 200)>\n"
        let sceneText = H.scene(#"{"id":"w","frame":[0,0,100,100]}"#)
        var binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x1B, 0x5B, 0x32, 0x4A, 0x00, 0x07]
        binary += (0..<200).map { UInt8(($0 * 37) % 256) }
        let cases: [([String], String)] = [
            (["import", Self.file(utf16(dump, bom: true), "u.txt"), "-o", T.temp("o.json")], "is UTF-16 text"),
            (["import", Self.file(utf16(dump, bom: false), "u.txt"), "-o", T.temp("o.json")], "looks like UTF-16 text"),
            (["import", Self.file(utf16(dump, bom: true, big: true), "u.txt"), "-o", T.temp("o.json")], "is UTF-16 text"),
            (["stats", Self.file(utf16(sceneText, bom: false), "u.json")], "looks like UTF-16 text"),
            (["stats", Self.file([0xFF, 0xFE, 0, 0] + Array(sceneText.utf8), "u32.json")], "is UTF-32 text"),
            (["query", Self.tableScene, Self.file(utf16("x,y\n1,2\n", bom: true), "u.csv")], "is UTF-16 text"),
            (["query", Self.tableScene, Self.file(utf16("1,2\n", bom: false), "u.csv")], "looks like UTF-16 text"),
            (["replay", Self.tableScene, Self.file(utf16("0,1,began,1,1\n", bom: true), "u.csv")], "is UTF-16 text"),
            // Lines end at its CRLF and LF: the NUL is on line 3.
            (["stats", Self.file(binary, "b.json")], "line 3 has a NUL byte: it is not a text file"),
            (["import", Self.file(binary, "b.txt"), "-o", T.temp("o.json")], "line 3 has a NUL byte: it is not a text file"),
            (["replay", Self.tableScene, Self.file(binary, "b.csv")], "line 3 has a NUL byte: it is not a text file"),
        ]
        for (args, message) in cases {
            let (status, c) = H.run(args)
            #expect(status == 2, "\(args)")
            #expect(c.err.contains(message), "\(args): \(c.err)")
            #expect(!c.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(args): \(c.err.debugDescription)")
        }
        // Binary bytes without a NUL: whatever is quoted back is escaped.
        let noNUL = binary.filter { $0 != 0 }
        for args in [["stats", Self.file(noNUL, "b.json")], ["import", Self.file(noNUL, "b.txt"), "-o", T.temp("o.json")],
                     ["query", Self.tableScene, Self.file(noNUL, "b.csv")], ["replay", Self.tableScene, Self.file(noNUL, "b.csv")]] {
            let (status, c) = H.run(args)
            #expect(status == 2, "\(args)")
            #expect(!c.err.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }, "\(args): \(c.err.debugDescription)")
        }
    }

    // MARK: - 16: exit statuses

    @Test func oneExitStatusTable() throws {
        // Every command's --help ends with the table; docs/cli.md carries the same table.
        for command in ["query", "render", "audit", "explain", "import", "stats", "demo", "replay"] {
            let (status, c) = H.run([command, "--help"])
            #expect(status == 0 && c.out.hasSuffix(HitTestCLI.exitStatusTable), "\(command)")
        }
        let (_, usage) = H.run(["--help"])
        #expect(usage.out.contains(HitTestCLI.exitStatusTable))
        let readme = try String(contentsOf: T.root.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        // (Indented there as a list item's block.)
        func unindented(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.drop { $0 == " " } }.joined(separator: "\n")
        }
        #expect(unindented(readme).contains(unindented(HitTestCLI.exitStatusTable)))
        // An input that gives no scene is bad input: 2, as for a missing file.
        let (s1, c1) = H.run(["import", H.file("hello\n", "hello.txt"), "-o", T.temp("o.json")])
        #expect(s1 == 2 && c1.err.contains("no view found"), "\(c1.err)")
        #expect(H.run(["import", "/nonexistent/dump.txt", "-o", T.temp("o.json")]).0 == 2)
        // --only with no kind, or an empty one, is an error.
        for only in ["", ",", "scrolled,", " , delivered"] {
            let (s, c) = H.run(["replay", Self.tableScene, Self.dragThenTap, "--only", only])
            #expect(s == 2 && c.err.contains("an empty kind"), "'\(only)': \(c.err)")
            #expect(c.out.isEmpty)
        }
        // A window that does not exist is an error naming its line, not a silent "no view hit".
        let script = H.file("time,id,phase,x,y,window\n0,1,began,100,100,0\n0.1,1,moved,100,100,3\n0.2,1,ended,100,100,0\n", "w.csv")
        let (s2, c2) = H.run(["replay", Self.tableScene, script])
        #expect(s2 == 2 && c2.err.contains("w.csv: line 3: window 3 does not exist (one window, index 0)"), "\(c2.err)")
        let ok = H.file("time,id,phase,x,y,window\n0,1,began,100,100,0\n0.1,1,ended,100,100,0\n", "w0.csv")
        #expect(H.run(["replay", Self.tableScene, ok]).0 == 0)
        // Findings: 1.
        #expect(H.run(["audit", Self.tableScene, "--fail-on", "unreachable"]).0 == 1)
    }

    // MARK: - 17: names from input are escaped

    static let forged = "evil\n0.1 touch 1 controlEvent FAKE: touchUpInside"

    @Test func namesFromInputAreEscapedInTextOutputs() throws {
        let forgedJSON = #"evil\n0.1 touch 1 controlEvent FAKE: touchUpInside"#
        let scene = H.file(H.scene(#"""
            {"id":"w","frame":[0,0,200,200],"children":[
              {"id":"\#(forgedJSON)","class":"UIButton","frame":[0,0,100,100]},
              {"id":"esc\u001b[2J","class":"My\u001b]0;title\u0007Button","frame":[100,100,100,100]},
              {"id":"zero\u0000size\u009b","frame":[150,0,0,10]},
              {"id":"back\\slash","class":"UIButton","frame":[0,150,50,50],"hidden":true}]}
            """#), "evil.json")
        func clean(_ text: String, _ what: String) {
            #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || ($0.value >= 0x7F && $0.value < 0xA0) },
                    "\(what): \(text.debugDescription)")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("0.1 touch 1 controlEvent FAKE") }, "\(what)")
        }
        let (s1, explain) = H.run(["explain", scene, "50", "50"])
        #expect(s1 == 0)
        clean(explain.out, "explain")
        #expect(explain.out.contains(#"=> evil\n0.1 touch 1 controlEvent FAKE: touchUpInside ("#), "\(explain.out)")
        let (_, explain2) = H.run(["explain", scene, "150", "150"])
        clean(explain2.out, "explain")
        #expect(explain2.out.contains(#"=> esc\u{1B}[2J ("#), "\(explain2.out)")
        let (s2, audit) = H.run(["audit", scene])
        #expect(s2 == 0)
        clean(audit.out, "audit")
        #expect(audit.out.contains(#"evil\n0.1 touch 1"#) && audit.out.contains(#"My\u{1B}]0;title\u{7}Button"#), "\(audit.out)")
        #expect(audit.out.contains(#"back\\slash (UIButton): hidden"#), "\(audit.out)")
        // The JSON report keeps the names as they are (JSON escapes them itself).
        let (_, json) = H.run(["audit", scene, "--json"])
        let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(json.out.utf8))
        #expect(report.controls.contains { $0.id == Self.forged })
        let (s3, stats) = H.run(["stats", scene])
        #expect(s3 == 0)
        clean(stats.out, "stats")
        #expect(stats.out.contains(#"  zero\u{0}size\u{9B}: zero or negative size"#), "\(stats.out)")
        // Import: warnings and the audit of what it made.
        let dump = H.file("garbage \u{1B}[2J\u{7}\n<UIWindow: 0x1; frame = (0 0; 100 200)>\n   | <Evil\u{1B}\u{7}Button: 0x2; frame = (0 0; 50 50)>\n", "evil.txt")
        let out = T.temp("imported.json")
        let (s4, imported) = H.run(["import", dump, "-o", out])
        #expect(s4 == 0, "\(imported.err)")
        clean(imported.err, "import")
        #expect(imported.err.contains(#"garbage \u{1B}[2J\u{7}"#), "\(imported.err)")
        let (_, audit2) = H.run(["audit", out])
        clean(audit2.out, "audit of the import")
        #expect(audit2.out.contains(#"Evil\u{1B}\u{7}Button"#), "\(audit2.out)")
        // A script's bad field is quoted escaped.
        let script = H.file("time,id,phase,x,y\n0,1,be\u{1B}[2Jgan,1,1\n", "evil.csv")
        let (s5, replay) = H.run(["replay", scene, script])
        #expect(s5 == 2 && replay.err.contains(#"unknown phase 'be\u{1B}[2Jgan'"#), "\(replay.err)")
        clean(replay.err, "replay")
    }

    /// A refused scene's error quotes the file's ids, keys and values with control characters
    /// and backslashes escaped once: `\u{1B}`, not `\\u{1B}` (the error's description escapes,
    /// the tool prints it as it is).
    @Test func sceneErrorsQuoteTheFileEscapedOnce() {
        let cases: [(json: String, expected: String)] = [
            // A key, under an id with a newline and a backslash (the path).
            (#"{"id":"w","frame":[0,0,10,10],"children":[{"id":"a\nb\\c","frame":[0,0,1,1],"k\u001b[2J":1}]}"#,
             #"w/a\nb\\c: unknown key "k\u{1B}[2J""#),
            // A value, through the reader's brief.
            (#"{"id":"w","frame":[0,0,10,10],"kind":"\u001b]0;x\u0007"}"#,
             #"found "\u{1B}]0;x\u{7}""#),
        ]
        for c in cases {
            let scene = H.file(H.scene(c.json), "refused.json")
            let (status, run) = H.run(["stats", scene])
            #expect(status == 2, "\(run.err)")
            #expect(run.err.contains(c.expected), "\(run.err.debugDescription)")
            #expect(!run.err.contains(#"\\u{"#), "escaped twice: \(run.err.debugDescription)")
            #expect(!run.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(run.err.debugDescription)")
        }
        // A JSON syntax error quotes the bytes found, escaped once too.
        let broken = H.file("{\"format\": \u{1B}[31m\"hittest-scene\"}", "broken.json")
        let (status, run) = H.run(["stats", broken])
        #expect(status == 2)
        #expect(run.err.contains(#"found '\u{1B}[31m"hittes'"#), "\(run.err.debugDescription)")
    }

    // MARK: - 18: reproducible outputs

    /// Views of equal area appear in the legend in a fixed order (first appearance), so the
    /// PNG is the same bytes on every run.
    @Test func renderIsReproducible() throws {
        let cells = (0..<12).map { #"{"id":"cell-\#($0)","frame":[\#(($0 % 4) * 25),\#(($0 / 4) * 25),25,25]}"# }.joined(separator: ",")
        let scene = H.file(H.scene(#"{"id":"w","frame":[0,0,100,100],"children":["# + cells + "]}"), "equal.json")
        var images: [Data] = []
        for k in 0..<4 {
            let png = T.temp("r\(k).png")
            #expect(H.run(["render", scene, "-o", png]).0 == 0)
            images.append(try Data(contentsOf: URL(fileURLWithPath: png)))
        }
        #expect(Set(images).count == 1)
        let window = try SceneFile(json: Data(contentsOf: URL(fileURLWithPath: scene))).makeWindow()
        let map = HitTestCLI.Render.hitMap(window, try HitTestCLI.Render.Grid(window, scale: 1, T.Captured().output))
        // The window's strip (2,500 px) first; then the cells of 625 px each, in rows of 25 px:
        // cell-0...cell-3 appear first, then the next row's.
        #expect(map.legend.map { HitTestCLI.name($0.0) } == ["w"] + (0..<12).map { "cell-\($0)" })
    }

    @Test func csvOutputRepeatsTheLineAsItIs() throws {
        let points = H.file(" 10,20\n\t30 , 40 \r\n50,60\r", "spaces.csv")
        let expected = "x,y,id\n 10,20,cell-0\n\t30 , 40 ,cell-0\n50,60,cell-1"
        let (s1, c1) = H.run(["query", Self.tableScene, points])
        #expect(s1 == 0 && c1.out == expected, "\(c1.out.debugDescription)")
        // The two-pass path (a transformed root) writes the same lines.
        let moved = H.file(H.scene(#"{"id":"w","frame":[0,0,100,100],"transform":[2,0,0,2,0,0]}"#), "moved.json")
        let (s2, c2) = H.run(["query", moved, points])
        #expect(s2 == 0 && c2.out == "x,y,id\n 10,20,w\n\t30 , 40 ,w\n50,60,w", "\(c2.out.debugDescription)")
    }

    @Test func explainPrintsHugeNumbersShort() throws {
        let (status, c) = H.run(["explain", Self.tableScene, "1e308", "-1e308"])
        #expect(status == 0)
        #expect(c.out.hasPrefix("window at (1e+308, -1e+308): rejected"), "\(c.out)")
        #expect(c.out.split(separator: "\n").allSatisfy { $0.count < 120 })
        #expect(HitTestCLI.Explain.short(123.4567) == "123.457" && HitTestCLI.Explain.short(-1e300) == "-1e+300")
        #expect(HitTestCLI.Explain.short(999_999_999_999_999) == "999999999999999")
    }
}

/// A CLI output whose lines can be waited for.
final class WatchedOutput: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: [String] = []
    var lines: [String] { condition.withLock { stored } }
    var output: HitTestCLI.Output {
        HitTestCLI.Output(out: { [self] s in
            condition.withLock {
                stored.append(contentsOf: s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
                condition.broadcast()
            }
        }, err: { _ in })
    }

    /// Waits until `ready` holds for the lines (true) or `timeout` seconds pass (false).
    func wait(timeout: Double, _ ready: ([String]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !ready(stored) {
            if !condition.wait(until: deadline) { return ready(stored) }
        }
        return true
    }
}

/// A Bool shared between threads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
