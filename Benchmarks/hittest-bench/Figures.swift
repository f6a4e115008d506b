// The figures file (`--figures [FILE]`, by default docs/figures.md): everything a run prints on
// standard output goes through `emit`, and at the end the run writes it into the file as one
// section named by the run's command line, with when, on which machine and from which build it
// was measured. A later run of the same command line replaces its section; the other sections
// are kept, so one file holds the latest output of every mode. Documentation quotes figures
// only by pointing at that file.
import Foundation
import Synchronization

/// The figures file's default path, relative to the current directory (the package root).
let defaultFiguresPath = "docs/figures.md"

/// The first line of every figures file: a file without it is not overwritten.
let figuresFileMarker = "<!-- hittest-bench figures: generated, do not edit by hand -->"

/// What the run has printed so far, and where it goes at the end.
struct FiguresRecord: Sendable {
    /// The figures file, or nil when the run was not asked to write one.
    var path: String?
    /// The run's arguments without `--figures` and its value: the section's name.
    var arguments: [String] = []
    /// Every line printed on standard output.
    var lines: [String] = []
    /// The load average when the run started (`/proc/loadavg`'s first three fields).
    var loadAtStart = ""
    /// When the run started.
    var started = Date()
}

let figures = Mutex(FiguresRecord())

/// Takes `--figures [FILE]` out of `arguments` (the value is optional: a missing one, or a next
/// argument that starts with `--`, means `defaultFiguresPath`) and remembers it. Returns the
/// other arguments, for the modes' own parsers. Refuses, before any measuring, a file that
/// exists and is not a figures file, and a directory that does not exist.
func takeFiguresOption(_ arguments: [String]) -> [String] {
    var rest: [String] = []
    var path: String?
    var i = 0
    while i < arguments.count {
        if arguments[i] == "--figures" {
            if i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") {
                path = arguments[i + 1]
                i += 1
            } else {
                path = defaultFiguresPath
            }
        } else {
            rest.append(arguments[i])
        }
        i += 1
    }
    if let path {
        if let existing = try? String(contentsOfFile: path, encoding: .utf8), !existing.hasPrefix(figuresFileMarker) {
            fail("--figures \(path): the file exists and was not written by hittest-bench (its first line is not \(figuresFileMarker)); refusing to overwrite it")
        }
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            fail("--figures \(path): no directory \(directory) (run from the package root, or name another file)")
        }
    }
    let load = loadAverage()
    figures.withLock {
        $0.path = path
        $0.arguments = rest
        $0.loadAtStart = load
    }
    return rest
}

/// Prints `text` on standard output and records it for the figures file.
func emit(_ text: String = "") {
    print(text)
    figures.withLock { $0.lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// Writes the figures file (when asked for) and exits with `status`.
func finish(_ status: Int32) -> Never {
    let record = figures.withLock { $0 }
    if let path = record.path {
        let section = figuresSection(record, status: status)
        let old = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        write(mergeFigures(old, key: sectionKey(record.arguments), section: section), to: path)
        FileHandle.standardError.write(Data("hittest-bench: figures written to \(path) (section `\(sectionKey(record.arguments))`)\n".utf8))
    }
    exit(status)
}

/// The section's name: the command line without `--figures`.
func sectionKey(_ arguments: [String]) -> String {
    (["hittest-bench"] + arguments).joined(separator: " ")
}

/// One run's section: the command, when, the machine, the build, then the lines it printed.
func figuresSection(_ record: FiguresRecord, status: Int32) -> String {
    let key = sectionKey(record.arguments)
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    let seconds = Date().timeIntervalSince(record.started)
    #if DEBUG
        let configuration = "debug (figures meaningless)"
    #else
        let configuration = "release"
    #endif
    var text = "<!-- section: \(key) -->\n"
    text += "## `\(key)`\n\n"
    text += "- when: \(formatter.string(from: record.started)), \(String(format: "%.1f", seconds)) s\n"
    text += "- machine: \(machineDescription()); load average \(record.loadAtStart) at the start, \(loadAverage()) at the end\n"
    text += "- build: \(configuration), \(commitDescription(excluding: record.path))\n"
    text += "- exit status: \(status)\(status == 0 ? "" : " (a check failed: see the lines below)")\n\n"
    text += "```\n"
    var lines = record.lines
    while lines.last == "" { lines.removeLast() }
    for line in lines { text += line + "\n" }
    text += "```\n"
    text += "<!-- end section -->\n"
    return text
}

/// The file with `section` in place of the section named `key` (appended when there is none),
/// every other section kept as it was, under the file's header.
func mergeFigures(_ old: String, key: String, section: String) -> String {
    var sections: [(key: String, text: String)] = []
    var current: (key: String, text: String)?
    for line in old.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("<!-- section: "), line.hasSuffix(" -->") {
            current = (String(line.dropFirst("<!-- section: ".count).dropLast(" -->".count)), "")
        }
        if current != nil { current!.text += line + "\n" }
        if line == "<!-- end section -->", let done = current {
            sections.append(done)
            current = nil
        }
    }
    if let index = sections.firstIndex(where: { $0.key == key }) {
        sections[index].text = section
    } else {
        sections.append((key, section))
    }
    var text = figuresFileMarker + "\n"
    text += "# Benchmark figures\n\n"
    text += "Generated by `hittest-bench --figures` (Benchmarks/hittest-bench): each section is the\n"
    text += "standard output of the command it names, with when, where and from which build it was\n"
    text += "measured. Running a command again with `--figures` replaces its section and keeps the\n"
    text += "others. What each figure measures: [performance.md](performance.md).\n"
    for s in sections { text += "\n" + s.text }
    return text
}

/// `/proc/loadavg`'s first three fields, or "unknown".
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// Cores, CPU model and kernel release.
func machineDescription() -> String {
    var parts = ["\(ProcessInfo.processInfo.activeProcessorCount) cores"]
    if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let model = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = model.firstIndex(of: ":")
    {
        parts.append(model[model.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    parts.append(ProcessInfo.processInfo.operatingSystemVersionString)
    return parts.joined(separator: ", ")
}

/// The commit the current directory is at, and whether tracked files other than the figures
/// file differ from it (from git).
func commitDescription(excluding figuresPath: String?) -> String {
    func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard let commit = git(["rev-parse", "--short=12", "HEAD"]) else { return "commit unknown (not a git checkout)" }
    let changed = git(["status", "--porcelain", "--untracked-files=no"] + (figuresPath.map { ["--", ":(exclude)\($0)"] } ?? []))
        .map { !$0.isEmpty } ?? false
    return "commit \(commit)" + (changed ? " with uncommitted changes to tracked files" : "")
}
