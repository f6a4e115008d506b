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
        /// Whether files written to `-` go straight to file descriptor 1 (the process's own
        /// streams); otherwise they are passed to `out` as text, once, when complete.
        var rawStandardOutput = false
        /// Where binary files written to `-` go when the streams are not the process's own (the
        /// `.i32` output of `query`); nil: such output is refused.
        var outBytes: (@Sendable (Data) -> Void)?

        /// Output to the process's streams.
        public static let standard: Output = {
            var o = Output(
                out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
                err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
                input: { try FileHandle.standardInput.readToEnd() ?? Data() })
            o.rawStandardOutput = true
            return o
        }()

        /// Output with the given sinks; `input` is what `-` reads (empty by default).
        public init(
            out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
            input: @escaping @Sendable () throws -> Data = { Data() }
        ) {
            self.out = out
            self.err = err
            self.input = input
        }
    }

    /// A failure with the message to print and the exit status.
    struct Failure: Error {
        var message: String
        var status: Int32 = 2
    }

    static let usage = """
        usage: hittest <command> [options]

        UIKit's hit testing over scene files (see SCENE_FORMAT in the README).

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
                [--fail-on occluded,small,dead]
          explain SCENE X Y          the decision trail for one point, in UIKit's order
          import FILE -o SCENE       from recursiveDescription text or XCUITest/Appium XML
          stats SCENE                views, depth, fan-out, transforms, memory
          replay SCENE SCRIPT        replay touches (and the scene's animations); print the log

        A scene whose constraints conflict is laid out without the ones broken, with a
        warning naming them; --strict (with any command) makes that an error (exit 2). A
        constraint that would put a frame beyond ±1e15 is always an error.

        Run `hittest <command> --help` for a command's options.
        """

    /// Runs one command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], output: Output = .standard) -> Int32 {
        guard let command = arguments.first else {
            output.err(usage)
            return 2
        }
        var args = Array(arguments.dropFirst())
        if args.contains("--help") || args.contains("-h") || command == "--help" || command == "-h" || command == "help" {
            output.out(help[command] ?? usage)
            return 0
        }
        let strict = args.contains("--strict")  // LayoutReport.swift
        args.removeAll { $0 == "--strict" }
        do {
            return try LayoutReport.$current.withValue(LayoutReport(output: output, strict: strict)) {
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
            output.err("hittest \(command): \(failure.message)")
            return failure.status
        } catch {
            output.err("hittest \(command): \(error)")
            return 1
        }
    }

    static let help: [String: String] = [
        "replay": Replay.help,
        "query": """
            usage: hittest query SCENE POINTS [-o FILE] [--progress]
                   hittest query SCENE POINTS -o FILE.i32 [--ids TABLE]
                   hittest query SCENE POINTS --ids TABLE [-o -] > FILE.i32

            Hit-tests every point of POINTS against SCENE. Points are screen coordinates (the
            root's superview space, where the root's frame lies), as in every command. POINTS
            is CSV, one `x,y` a line (a header `x,y` is allowed, LF or CRLF), or little-endian
            float64 pairs in a `.f64` file. Writes CSV `x,y,id` in input order, an empty id
            where nothing is hit, to FILE or standard output: a CSV line repeats the input's
            text, a `.f64` number is written as Swift's `description` writes it. `-` is
            standard input or output. The file is read, hit-tested and written in pieces on
            all cores; a bad line stops the run with its line number (FILE is then removed).
            Runs longer than a second print their progress on standard error when it is a
            terminal; --progress prints it (and a closing line with the time) in any case.

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
                              [--save-scene FILE]

            With -o naming an .html file (or --html), writes one self-contained page (no
            network): the hit map, drawn at any zoom; pointing at it shows the view hit there
            (id, class, frame on the screen), its ancestor path, the views under the pointer
            that did not get the touch with the rule that kept it from each, and the trail of
            `explain` (computed in the page with the walk's rules and numbers). Click pins the
            panel; a toggle (or --cost) shows the cost map; the audit's findings are listed
            beside the map and outline their view when hovered. --scale is the map's pixels per
            point (default 2, at most 1.5 M pixels). --sample NAME builds one of the benchmark's
            scenes instead of reading SCENE (app, app-insets, app-large, grid, deep,
            dense-overlap, random-1m); --save-scene also writes the scene file shown.
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
            --step). --fail-on exits with 1 when a named finding occurs: occluded (1% or more
            of a control covered), small, unreachable, dead (1% or more of the screen).
            """,
        "explain": """
            usage: hittest explain SCENE X Y

            Prints the decision trail of UIKit's walk for the screen point (X, Y): each view
            tested, the point in its coordinates, and the rule that accepted or rejected it.
            More than five siblings in a row rejected for the same reason are one line.
            """,
        "import": """
            usage: hittest import FILE -o SCENE

            Reads UIKit's recursiveDescription text or XCUITest / Appium page source XML (the
            format is detected) and writes a scene file (`-` for standard input or output).
            Lines or elements that cannot be read are skipped with a warning on standard error;
            numbers outside the scene format's range are refused, naming the view.
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
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))") }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw Failure(message: "cannot read \(path): it is a directory") }
        // Regular files: one buffer of the file's size, read into directly. Pipes: chunks.
        let regular = (st.st_mode & S_IFMT) == S_IFREG
        var data = Data(count: regular ? Int(st.st_size) : 0)
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

    /// Loads and checks a scene file (`-`: standard input) and builds its views. Out-of-range
    /// numbers are refused here, naming the node, before any view is built.
    static func loadScene(_ path: String, _ output: Output) throws -> (SceneFile, Window) {
        let data = try read(path, output)
        do {
            let scene = try SceneFile(json: data)
            return (scene, try LayoutReport.check(display(path)) { scene.makeWindow() })  // LayoutReport.swift
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "\(display(path)): \(error)")
        }
    }

    /// Writes a file (`-`: standard output). A failure is a message with the system's reason
    /// and exit status 2, as for reads.
    static func write(_ data: Data, to path: String, _ output: Output) throws {
        var w = try FileWriter(path, output)
        try w.write(data)
        try w.finish()
    }

    /// A buffered, streaming file writer; `-` is standard output.
    struct FileWriter {
        let path: String
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
                fd = 1
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
            var offset = 0
            while offset < buffer.count {
                let n = buffer.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    if fd != 1 { close(fd) }
                    throw Failure(message: "cannot write \(path == "-" ? "standard output" : path): \(reason)")
                }
                offset += n
            }
            buffer.removeAll(keepingCapacity: true)
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
            if fd != 1, close(fd) != 0 { throw Failure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
        }
    }

    /// An Int for a finite Double known to be in range; nil otherwise (never traps).
    static func int(_ x: Double) -> Int? {
        guard x.isFinite, abs(x) < 9e18 else { return nil }
        return Int(x)
    }

    static func name(_ view: View?) -> String { view?.accessibilityIdentifier ?? view?.debugName ?? "" }

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

    /// "1 view", "2 views".
    static func count(_ n: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? word : plural ?? word + "s")"
    }
}

extension View {
    /// Every view of the subtree, parent first, without recursion.
    func forEachView(_ body: (View) -> Void) {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            body(v)
            stack.append(contentsOf: v.subviews.reversed())
        }
    }
}
