import Foundation
import HitTestKit
import HitTestScenes
import HitTestReference

/// The `hittest` command-line tool, as a library so that the tests can run every subcommand.
public enum HitTestCLI {
    /// Where a run writes its text.
    public struct Output: Sendable {
        /// Standard output.
        public var out: @Sendable (String) -> Void
        /// Standard error (progress, warnings, errors).
        public var err: @Sendable (String) -> Void
        /// Standard input, for `-` as an input file.
        public var input: @Sendable () throws -> Data
        /// The process's own streams, when the output is they (`standard`): every text line and
        /// every file written to `-` goes through them, so that a failed write is found and
        /// reported the same way for every command (see `StandardStreams`).
        var streams: StandardStreams?
        /// Whether files written to `-` go straight to the process's standard output; otherwise
        /// they are passed to `out` as text, once, when complete.
        var rawStandardOutput: Bool { streams != nil }
        /// Where binary files written to `-` go when the streams are not the process's own (the
        /// `.i32` output of `query`); nil: such output is refused.
        var outBytes: (@Sendable (Data) -> Void)?

        /// Output to the process's streams (file descriptors 1 and 2; `-` reads 0).
        public static var standard: Output { streams(out: 1, err: 2, input: 0) }

        /// Output to the given file descriptors, as `standard` writes to 1 and 2 (the tests give
        /// it /dev/full).
        static func streams(out: Int32, err: Int32, input: Int32) -> Output {
            let s = StandardStreams(out: out, err: err, input: input)
            var o = Output(
                out: { s.line($0) },
                err: { s.error($0) },
                input: { try FileHandle(fileDescriptor: input, closeOnDealloc: false).readToEnd() ?? Data() })
            o.streams = s
            return o
        }

        /// Output with the given sinks; `input` is what `-` reads (empty by default).
        public init(
            out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
            input: @escaping @Sendable () throws -> Data = { Data() }
        ) {
            self.out = out
            self.err = err
            self.input = input
        }

        /// Throws "cannot write standard output" once a write to it has failed: a long run
        /// (`replay`) stops there instead of computing what nobody can read.
        func checkWritable() throws {
            if let reason = streams?.failure { throw Failure(message: "cannot write standard output: \(reason)") }
        }
    }

    /// The process's standard output and error, the one path of every command's output: text
    /// lines are buffered (a line at a time on a terminal), files written to `-` go through the
    /// same buffer, and standard output is flushed before each line of standard error so that
    /// the two keep their order when they go to the same place. A failed write to standard
    /// output (a full disk, `> /dev/full`, a closed descriptor) is remembered, never a trap:
    /// later writes are dropped and `run` ends with "cannot write standard output" and exit
    /// status 2. A failed write to standard error has nowhere to be told and is dropped. [ours]
    final class StandardStreams: @unchecked Sendable {
        let outFD: Int32
        let errFD: Int32
        /// Standard input's descriptor (`-` as an input file).
        let inFD: Int32
        private let lock = NSLock()
        private var buffer: [UInt8] = []
        private var storedFailure: String?
        /// A terminal: each line is written at once.
        private let lineBuffered: Bool
        static let bufferBytes = 1 << 16

        init(out: Int32, err: Int32, input: Int32) {
            outFD = out
            errFD = err
            inFD = input
            lineBuffered = isatty(out) != 0
            buffer.reserveCapacity(Self.bufferBytes)
        }

        /// The system's reason for the first failed write to standard output, if any.
        var failure: String? { lock.withLock { storedFailure } }

        /// A line of text to standard output.
        func line(_ text: String) {
            lock.withLock {
                guard storedFailure == nil else { return }
                buffer.append(contentsOf: text.utf8)
                buffer.append(0x0A)
                if lineBuffered || buffer.count >= Self.bufferBytes { flushLocked() }
            }
        }

        /// Bytes to standard output (a file written to `-`), after what is buffered.
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            let reason: String? = lock.withLock {
                guard storedFailure == nil else { return storedFailure }
                if bytes.count < Self.bufferBytes {
                    buffer.append(contentsOf: bytes)
                    if buffer.count >= Self.bufferBytes { flushLocked() }
                } else {
                    flushLocked()
                    if storedFailure == nil, let reason = Self.writeAll(outFD, bytes) { storedFailure = reason }
                }
                return storedFailure
            }
            if let reason { throw Failure(message: "cannot write standard output: \(reason)") }
        }

        /// Writes what is buffered.
        func flush() { lock.withLock { flushLocked() } }

        /// A line of text to standard error, after standard output's buffer.
        func error(_ text: String) {
            lock.withLock {
                flushLocked()
                let bytes = Array((text + "\n").utf8)
                _ = bytes.withUnsafeBytes { Self.writeAll(errFD, $0) }
            }
        }

        private func flushLocked() {
            guard !buffer.isEmpty else { return }
            if storedFailure == nil, let reason = buffer.withUnsafeBytes({ Self.writeAll(outFD, $0) }) { storedFailure = reason }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes every byte (retrying short writes and EINTR); the system's reason on failure.
        static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                if n == 0 { return "nothing was written" }
                offset += n
            }
            return nil
        }
    }

    /// A failure with the message to print and the exit status: 2 (bad input, a bad command
    /// line, output that cannot be written) or 3 (internal error); see `exitStatusTable`.
    struct Failure: Error {
        var message: String
        var status: Int32 = 2

        /// A disagreement of hittest with itself: exit status 3.
        static func `internal`(_ message: String) -> Failure { Failure(message: "internal error: \(message)", status: 3) }
    }

    static let usage = """
        usage: hittest <command> [options]

        UIKit's hit testing over scene files (the format: docs/scene-files.md). Text inputs
        (scenes, points, scripts, dumps) are UTF-8, lines ending at LF, CRLF or CR; `-` is
        standard input or output. Names from the input (ids, classes) are printed with control
        characters escaped (`\\n`, `\\u{1B}`, `\\\\`).

        commands:
          demo                       the main job on a built-in phone screen: a million
                                     points, throughput beside the reference walk, a hit map
                                     and an audit
          query SCENE POINTS [-o F]  hit-test a point file (CSV x,y or .f64); CSV x,y,id out,
                                     or with -o F.i32 an int32 view index per point
          render SCENE -o MAP.png    a PNG of which view a touch at each pixel reaches
                [--scale S] [--cost] (--cost: views UIKit's walk tests per pixel, as heat)
                [--size WxH]         (query, render, audit, explain: resize the window and
                                     lay it out first, e.g. --size 844x390 for landscape)
          render SCENE -o MAP.html   an interactive page: point at the map, see which view
                                     a touch reaches and why (--sample NAME: a built-in scene)
          audit SCENE [--json]       tap areas, occlusion, small targets and dead zones
                [--step PT] [--fail-on occluded,small,unreachable,dead]
          explain SCENE X Y          the decision trail for one point, in UIKit's order
          import FILE -o SCENE       from recursiveDescription text, XCUITest/Appium XML or
                                     XCUITest's element description (`po app`)
          stats SCENE                views, depth, fan-out, transforms, memory
          replay SCENE SCRIPT        replay touches (and the scene's animations); print the log

        A scene whose constraints conflict is laid out without the ones broken, with a
        warning naming them; --strict (with any command) makes that an error (exit 2). A
        constraint that would put a frame beyond ±1e15 is always an error.

        Run `hittest <command> --help` for a command's options.

        \(exitStatusTable)
        """

    /// The exit statuses, the same for every command (printed by `--help`, in docs/cli.md).
    static let exitStatusTable = """
        exit status (every command):
          0  done
          1  findings: `audit --fail-on` found what it names
          2  bad input, a bad command line, or output that cannot be written (a missing or
             unreadable file, a bad scene or script line, a full disk, a closed standard output)
          3  internal error: hittest disagrees with itself (please report it)
        """

    /// Runs one command line (without the program name) and returns the exit status (see
    /// `exitStatusTable`).
    public static func run(_ arguments: [String], output: Output = .standard) -> Int32 {
        guard let command = arguments.first else {
            output.err(usage)
            output.streams?.flush()
            return 2
        }
        var args = Array(arguments.dropFirst())
        var status: Int32 = 0
        var message: String?
        if args.contains("--help") || args.contains("-h") || command == "--help" || command == "-h" || command == "help" {
            output.out(help[command].map { $0 + "\n\n" + exitStatusTable } ?? usage)
        } else {
            let strict = args.contains("--strict")  // LayoutReport.swift
            args.removeAll { $0 == "--strict" }
            do {
                status = try LayoutReport.$current.withValue(LayoutReport(output: output, strict: strict)) { () throws -> Int32 in
                switch command {
                case "query": try Query.run(args, output)
                case "render": try Render.run(args, output)
                case "audit": return try Audit.run(args, output)
                case "explain": try Explain.run(args, output)
                case "import": try Import.run(args, output)
                case "stats": try Stats.run(args, output)
                case "demo": try Demo.run(args, output)
                case "replay": try Replay.run(args, output)  // Replay.swift
                default: throw Failure(message: "unknown command '\(command)'\n\n\(usage)")
                }
                return 0
                }
            } catch let failure as Failure {
                message = failure.message
                status = failure.status
            } catch {
                message = "internal error: \(String(describing: error).escapingControlCharacters)"
                status = 3
            }
        }
        // Standard output: written out, and a failed write is the run's error (exit 2).
        output.streams?.flush()
        if let reason = output.streams?.failure {
            let unwritable = "cannot write standard output: \(reason)"
            if let message, message != unwritable { output.err("hittest \(command): \(message)") }
            message = unwritable
            if status != 3 { status = 2 }
        }
        if let message { output.err("hittest \(command): \(message)") }
        return status
    }

    static let help: [String: String] = [
        "replay": Replay.help,
        "query": """
            usage: hittest query SCENE POINTS [-o FILE] [--progress]
                   hittest query SCENE POINTS -o FILE.i32 [--ids TABLE]
                   hittest query SCENE POINTS --ids TABLE [-o -] > FILE.i32

            Hit-tests every point of POINTS against SCENE. Points are screen coordinates (the
            root's superview space, where the root's frame lies), as in every command. POINTS
            is CSV, one `x,y` a line (a header `x,y` is allowed; lines end at LF, CRLF or CR), or
            little-endian float64 pairs in a `.f64` file. Writes CSV `x,y,id` in input order, an
            empty id where nothing is hit, to FILE or standard output: a CSV line repeats the
            input's line as it is (spaces kept, without its line end), a `.f64` number is
            written as Swift's `description` writes it. A NaN or infinite coordinate (`nan`,
            `inf` in CSV) hits nothing, as in UIKit. `-` is standard input or output. The
            file is read, hit-tested and written in pieces on all cores; a bad line stops the
            run with its line number (FILE is then removed). Runs longer than a second print
            their progress on standard error when it is a terminal; --progress prints it (and
            a closing line with the time) in any case.

            With -o naming a `.i32` file, writes instead one little-endian int32 per point, in
            input order: the index of the hit view in the view table, -1 where nothing is hit
            (no header, 4 bytes a point). The view table is written beside it, FILE.i32.ids (or
            --ids TABLE): one id a line, index = line number - 1. The order is depth-first, each
            view before its subviews, subviews back to front, the root first (index 0): for a
            scene file, the order in which the ids appear in the file, which is also the order
            of the Python package's handles (`hittest.load_scene(SCENE).ids`). In numpy:
                hits = np.fromfile("out.i32", "<i4")
                ids = open("out.i32.ids", encoding="utf-8").read().splitlines()
                names = np.array(ids + [""], dtype=object)[hits]    # -1 -> ""
            `--ids TABLE` without -o (or with -o -) writes the int32s to standard output,
            which must not be a terminal. An id holding a line break is refused (use the CSV
            output). As for CSV, a bad line stops the run and removes both files.
            """,
        "render": """
            usage: hittest render SCENE -o MAP.png [--scale S] [--cost] [--size WxH] [--at T [--presentation]]

            Draws, for each pixel of the root's rectangle on the screen, the view a touch at its
            centre reaches (a colour per view, dark grey for nothing), with outlines where the
            answer changes and a legend below. With --cost, each pixel shows how many views
            UIKit's walk calls hitTest on for a touch there, on a heat scale given in the legend.
            --scale is pixels per point (default 1; a scene too large for 16.7 M pixels is
            drawn smaller, with a message; an explicit --scale that is too large is refused).
            --at T runs the scene's "animations" on a simulated clock up to T seconds and draws
            the model then (what touches reach: animating views without allowUserInteraction
            are not hit); add --presentation to draw what is seen at T instead.

            usage: hittest render (SCENE | --sample NAME) -o MAP.html [--html] [--scale S] [--cost]
                              [--size WxH] [--save-scene FILE]

            With -o naming an .html file (or --html), writes one self-contained page (no
            network): the hit map, drawn at any zoom; pointing at it shows the view hit there
            (id, class, frame on the screen), its ancestor path, the views under the pointer
            that did not get the touch with the rule that kept it from each, and the trail of
            `explain` (computed in the page with the walk's rules and numbers). Click pins the
            panel; a toggle (or --cost) shows the cost map; the audit's findings are listed
            beside the map and outline their view when hovered. --scale is the map's pixels per
            point (default 2, at most 1.5 M pixels). --sample NAME builds one of the benchmark's
            scenes instead of reading SCENE (app, app-insets, app-handlers, app-large, table,
            table-plain, table-alpha, table-covers, table-rotated, table-thin, grid, deep,
            random-1m, dense-overlap, pin-map; hittest-bench --help says what each holds);
            --save-scene also writes the scene file shown. --at and
            --presentation go with the PNG; --sample and --save-scene with the page.
            --size resizes the window first (its views follow their autoresizing masks and
            constraints, and the window lays out), e.g. --size 844x390 to rotate a phone screen.
            """,
        "audit": """
            usage: hittest audit SCENE [--json] [--step PT] [--fail-on occluded,small,unreachable,dead]

            Audits the controls. A view is a control by its class: UIControl and its subclasses
            (UIButton, UISwitch, UISlider, UITextField, UISegmentedControl, UIStepper, ...),
            table and collection view cells, UITextView; app classes whose name ends in Button,
            Control, Switch, Slider, TextField, Stepper or Cell (module prefixes and Swift
            mangling removed, `baseClass` read); page-source buttons, links, cells, fields and
            switches; and any view whose dump listed gesture recognizers. A scene without
            classes uses the last word of each id (button, cell, switch, field, link, tab, ...).
            For each reachable control: its tap area (where a touch reaches it or its
            non-control subviews), its extent (the bounds with hitTestInsets, cut by the
            ancestors: what a finger can reach), the share covered by other views (occluded),
            and whether the extent is under 44 pt (small). Controls no touch can reach (hidden,
            not interactive, alpha, zero or negative size, off screen, clipped away, covered
            entirely) are listed apart as unreachable. Dead zones: where a touch reaches no
            control. Sampled on a 1 pt grid of the screen (coarser above 4 M samples, or
            --step); where the screen is shorter than the step, one sample stands for its whole
            width or height (said on standard error), so no area exceeds the screen's. --fail-on
            exits with 1 when a named finding occurs: occluded (1% or more of a control
            covered), small, unreachable, dead (1% or more of the screen).
            """,
        "explain": """
            usage: hittest explain SCENE X Y

            Prints the decision trail of UIKit's walk for the screen point (X, Y): each view
            tested, the point in its coordinates, and the rule that accepted or rejected it.
            More than five siblings in a row rejected for the same reason are one line.
            """,
        "import": """
            usage: hittest import FILE -o SCENE

            Reads UIKit's recursiveDescription text, XCUITest / Appium page source XML or the
            element description XCUITest prints (`print(app.debugDescription)`, `po app`: its
            `Element subtree:`) (the format is detected) and writes a scene file (`-` for
            standard input or output).
            Lines or elements that cannot be read are skipped with a warning on standard error
            (`warning: FILE: line N: ...`); numbers outside the scene format's range are refused,
            naming the view. A file that gives no scene (no view found, UTF-16, binary) is an
            error (exit status 2).
            """,
        "stats": """
            usage: hittest stats SCENE

            Prints the number of views, the depth, the largest fan-out, transformed, hidden and
            non-interactive views, the views that can never be hit (alpha under 0.01, zero or
            negative size), and the memory of the C index.
            """,
        "demo": """
            usage: hittest demo [--out DIR] [--points N]

            Builds the benchmark's `app` scene (a phone screen with a scrolled table of 200
            cells), bulk hit-tests a million points (N, at most 50,000,000), prints throughput
            beside the reference walk, and writes DIR/demo-map.png, DIR/demo-audit.txt and
            DIR/demo-scene.json (DIR defaults to the current directory).
            """,
    ]

    // MARK: - Shared helpers

    /// Positional arguments and `--name value` options.
    struct Arguments {
        var positional: [String] = []
        var options: [String: String] = [:]
        var flags: Set<String> = []

        init(_ args: [String], valued: Set<String>, flags allowed: Set<String>) throws {
            var i = 0
            while i < args.count {
                let a = args[i]
                if valued.contains(a) {
                    guard i + 1 < args.count else { throw Failure(message: "\(a) needs a value") }
                    options[a] = args[i + 1]
                    i += 2
                    continue
                }
                if allowed.contains(a) {
                    flags.insert(a)
                } else if a.hasPrefix("-") && a.count > 1 && Double(a) == nil {
                    throw Failure(message: "unknown option '\(a)' (see --help)")
                } else {
                    positional.append(a)
                }
                i += 1
            }
        }

        func expect(_ count: Int, _ names: String) throws {
            guard positional.count == count else { throw Failure(message: "expected \(names) (see --help)") }
        }
    }

    /// The display name of an input path (`-` is standard input).
    static func display(_ path: String) -> String { path == "-" ? "standard input" : path }

    /// Reads a whole file; `-` is standard input; pipes and `/dev/stdin` work.
    static func read(_ path: String, _ output: Output) throws -> Data {
        if path == "-" {
            do { return try output.input() } catch { throw Failure(message: "cannot read standard input: \(error.localizedDescription)") }
        }
        let (fd, size) = try openInput(path)
        defer { close(fd) }
        // Regular files: one buffer of the file's size, read into directly. Pipes: chunks.
        let regular = size != nil
        var data = Data(count: size ?? 0)
        var filled = 0
        while true {
            if filled == data.count {
                if regular && filled > 0 { break }
                data.count += max(1 << 20, data.count / 2)
            }
            let n = data.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            filled += n
        }
        data.count = filled
        return data
    }

    /// Opens an input file (not a directory) for reading: its descriptor and, for a regular
    /// file, its size.
    static func openInput(_ path: String) throws -> (fd: Int32, size: Int?) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(message: "cannot read \(path): \(reason)")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw Failure(message: "cannot read \(path): it is a directory")
        }
        return (fd, (st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : nil)
    }

    /// Reads a file (`-`: standard input) a chunk of at most 1 MB at a time, for inputs too
    /// long to hold (`replay`'s script): `body` gets each chunk, in order. Standard input that
    /// is not the process's own (the tests') comes as one chunk.
    static func readChunks(_ path: String, _ output: Output, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let fd: Int32
        if path == "-" {
            guard let streams = output.streams else {
                let data = try read(path, output)
                try data.withUnsafeBytes { try body($0) }
                return
            }
            fd = streams.inFD
        } else {
            fd = try openInput(path).fd
        }
        defer { if path != "-" { close(fd) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = Foundation.read(fd, buffer.baseAddress!, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read \(display(path)): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Loads and checks a scene file (`-`: standard input) and builds its views. Out-of-range
    /// numbers are refused here, naming the node, before any view is built.
    static func loadScene(_ path: String, _ output: Output) throws -> (SceneFile, Window) {
        let data = try read(path, output)
        try TextInput.check(data, name: display(path))
        do {
            let scene = try SceneFile(json: data)
            return (scene, try LayoutReport.check(display(path)) { scene.makeWindow() })  // LayoutReport.swift
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "\(display(path)): \(shown(error))")
        }
    }

    /// Writes a file (`-`: standard output). A failure is a message with the system's reason
    /// and exit status 2, as for reads; a regular file is then removed.
    static func write(_ data: Data, to path: String, _ output: Output) throws {
        var w = try FileWriter(path, output)
        do {
            try w.write(data)
            try w.finish()
        } catch {
            w.discard()
            throw error
        }
    }

    /// A buffered, streaming file writer; `-` is standard output (through `StandardStreams`
    /// when it is the process's own, so a failed write there is reported as for every command).
    struct FileWriter {
        let path: String
        /// The file's descriptor; -1 for `-`.
        let fd: Int32
        let output: Output
        var buffer: [UInt8] = []
        var collected: [UInt8]?  // `-` when the output is not the process's own
        /// Bytes, not text: `-` passes them to `output.outBytes` (see `Output`).
        var binary = false

        init(_ path: String, _ output: Output) throws {
            self.path = path
            self.output = output
            if path == "-" {
                fd = -1
                if !output.rawStandardOutput { collected = [] }
            } else {
                fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                guard fd >= 0 else { throw Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
            }
            buffer.reserveCapacity(1 << 20)
        }

        mutating func write(_ data: Data) throws {
            buffer.append(contentsOf: data)
            if buffer.count >= 1 << 20 { try flush() }
        }

        mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 20 { try flush() }
        }

        mutating func write(_ bytes: [UInt8]) throws {
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 20 { try flush() }
        }

        mutating func flush() throws {
            if collected != nil {
                collected!.append(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
                return
            }
            try buffer.withUnsafeBytes { try put($0) }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Writes bytes to the file (or standard output) now, past the buffer.
        func put(_ bytes: UnsafeRawBufferPointer) throws {
            if path == "-" {
                try output.streams?.write(bytes)
                return
            }
            if let reason = StandardStreams.writeAll(fd, bytes) { throw Failure(message: "cannot write \(path): \(reason)") }
        }

        /// Flushes and closes; checks that the data reached the file.
        mutating func finish() throws {
            try flush()
            if let collected, binary {
                guard let sink = output.outBytes else { throw Failure(message: "binary output to standard output needs the process's own standard output") }
                sink(Data(collected))
                return
            }
            if let collected {
                var text = String(decoding: collected, as: UTF8.self)
                if text.hasSuffix("\n") { text.removeLast() }
                output.out(text)
                return
            }
            if path == "-" {
                output.streams?.flush()
                try output.checkWritable()
                return
            }
            if close(fd) != 0 { throw Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// An Int for a finite Double known to be in range; nil otherwise (never traps).
    static func int(_ x: Double) -> Int? {
        guard x.isFinite, abs(x) < 9e18 else { return nil }
        return Int(x)
    }

    /// A view's name: its id (`accessibilityIdentifier`), else its debug name.
    static func name(_ view: View?) -> String { view?.accessibilityIdentifier ?? view?.debugName ?? "" }

    /// A view's name for a text output (explain, audit, stats, replay): control characters
    /// escaped, so that an id cannot forge lines or reach the terminal
    /// (`escapingControlCharacters`, reversible).
    static func shown(_ view: View?) -> String { name(view).escapingControlCharacters }

    /// An error's text for the terminal, with control characters escaped once: a scene error's
    /// description is display-safe already (`SceneError.description`), any other is escaped here.
    static func shown(_ error: any Error) -> String {
        switch error {
        case let e as SceneError: return e.description
        case let e as SceneImporter.ImportError: return e.description
        default: return String(describing: error).escapingControlCharacters
        }
    }

    /// A number as the tool prints it: whole numbers without a fraction, others with at most
    /// four decimals, trailing zeros dropped (43.5 stays 43.5; the sum 20 + 34.3333 prints as
    /// 54.3333, not 54.33330000000001). Magnitudes of 1e15 and more print in Swift's form.
    static func fmt(_ x: Double) -> String {
        if x == x.rounded() && abs(x) < 1e15 { return String(Int(x)) }
        guard x.isFinite, abs(x) < 1e15 else { return String(x) }
        var s = String(format: "%.4f", x)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// A number in the shortest form that reads back as the same number, whole numbers below
    /// 1e15 without a fraction (`1000`, `2.5`, `1e-09`, `1e+300`): for values a user gave,
    /// which `fmt` could round away (`--step 1e-9` is not "--step 0"). The text of `query`'s
    /// `.f64` numbers (`FastNumber`).
    static func exact(_ x: Double) -> String {
        var bytes: [UInt8] = []
        FastNumber.append(x, &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "1 view", "2 views".
    static func count(_ n: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? word : plural ?? word + "s")"
    }
}

extension View {
    /// Whether a view of the subtree has a `pointInsideHandler` or a `hitTestHandler`.
    var hasHandlerInTree: Bool {
        var found = false
        forEachView { found = found || $0.pointInsideHandler != nil || $0.hitTestHandler != nil }
        return found
    }

    /// Every view of the subtree, parent first, without recursion.
    func forEachView(_ body: (View) -> Void) {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            body(v)
            stack.append(contentsOf: v.subviews.reversed())
        }
    }
}
