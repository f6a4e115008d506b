import Foundation
import HitTestTestSupport
import Testing

/// `hittest-bench --figures FILE`: every mode writes what it prints into one generated file, a
/// section per command line, with when, where and from which build; a rerun replaces its own
/// section and keeps the others; a file it did not write is never overwritten. Runs the
/// benchmark's cheapest mode (the solver on tiny systems), as built by `swift build`.
@Suite(.serialized) struct BenchFiguresTests {
    static func bench() throws -> URL {
        try #require(
            TestPaths.productDirectories()
                .map { $0.appendingPathComponent("hittest-bench") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "hittest-bench was not built (swift build builds it)")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try bench()
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    static func sections(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("<!-- section: ") }.map(String.init)
    }

    @Test func aRunWritesItsSectionAndKeepsTheOthers() throws {
        let file = SceneAndCLITests.temp("figures.md")
        let first = ["--solver", "--sizes", "20", "--reps", "1"]
        let r1 = try Self.run(first + ["--figures", file])
        #expect(r1.status == 0, "\(r1.err)")
        let text1 = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text1.hasPrefix("<!-- hittest-bench figures: generated, do not edit by hand -->\n"))
        #expect(Self.sections(text1) == ["<!-- section: hittest-bench --solver --sizes 20 --reps 1 -->"])
        #expect(text1.contains("## `hittest-bench --solver --sizes 20 --reps 1`"))
        for field in ["- when: ", "- machine: ", "cores", "load average", "- build: ", "- exit status: 0"] {
            #expect(text1.contains(field), "\(field)")
        }
        // Every line the run printed is in its section, in order.
        let printed = r1.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        #expect(!printed.isEmpty && printed.allSatisfy { text1.contains("\n\($0)\n") })
        #expect(text1.contains(printed.joined(separator: "\n")))

        // Another command line: a second section, the first kept as it was.
        let r2 = try Self.run(["--solver", "--sizes", "30", "--reps", "1", "--figures", file])
        #expect(r2.status == 0, "\(r2.err)")
        let text2 = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.sections(text2) == [
            "<!-- section: hittest-bench --solver --sizes 20 --reps 1 -->",
            "<!-- section: hittest-bench --solver --sizes 30 --reps 1 -->",
        ])
        let firstSection = try #require(text1.range(of: "<!-- section: "))
        #expect(text2.contains(text1[firstSection.lowerBound...]))

        // The first command again: its section replaced in place, not added.
        let r3 = try Self.run(first + ["--figures", file])
        #expect(r3.status == 0, "\(r3.err)")
        let text3 = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.sections(text3) == Self.sections(text2))
        #expect(text3.components(separatedBy: "<!-- end section -->").count == 3)
    }

    @Test func aFileItDidNotWriteIsRefused() throws {
        let file = SceneAndCLITests.temp("notes.md")
        try "# my notes\n".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try Self.run(["--solver", "--sizes", "20", "--reps", "1", "--figures", file])
        #expect(r.status == 2)
        #expect(r.err.contains("--figures \(file)") && r.err.contains("refusing to overwrite"), "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "# my notes\n")

        let missing = "/nonexistent-\(UUID())/figures.md"
        let m = try Self.run(["--solver", "--sizes", "20", "--reps", "1", "--figures", missing])
        #expect(m.status == 2 && m.err.contains("no directory"), "\(m.err)")
    }

    @Test func withoutAValueItNamesTheDefaultFile() throws {
        // `--figures` followed by another option takes the default path; run where docs/ does
        // not exist, so that the run is refused before measuring and nothing is written.
        let dir = URL(fileURLWithPath: SceneAndCLITests.temp("empty")).deletingLastPathComponent()
        let process = Process()
        process.executableURL = try Self.bench()
        process.arguments = ["--figures", "--solver", "--sizes", "20"]
        process.currentDirectoryURL = dir
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let e = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(e.contains("--figures docs/figures.md: no directory docs"), "\(e)")
    }
}
