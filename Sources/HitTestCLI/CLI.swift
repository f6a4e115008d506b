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

        /// Output to the process's streams.
        public static let standard = Output(
            out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })

        /// Output with the given sinks.
        public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
            self.out = out
            self.err = err
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
          query SCENE POINTS [-o F]  hit-test a point file (CSV x,y or .f64); CSV x,y,id out
          render SCENE -o MAP.png    a PNG of which view a touch at each pixel reaches
                [--scale S] [--cost] (--cost: views UIKit's walk tests per pixel, as heat)
          audit SCENE [--json]       tap areas, occlusion, small targets and dead zones
                [--fail-on occluded,small,dead]
          explain SCENE X Y          the decision trail for one point, in UIKit's order
          import FILE -o SCENE       from recursiveDescription text or XCUITest/Appium XML
          stats SCENE                views, depth, fan-out, transforms, memory

        Run `hittest <command> --help` for a command's options.
        """

    /// Runs one command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], output: Output = .standard) -> Int32 {
        guard let command = arguments.first else {
            output.err(usage)
            return 2
        }
        let args = Array(arguments.dropFirst())
        if args.contains("--help") || args.contains("-h") || command == "--help" || command == "-h" || command == "help" {
            output.out(help[command] ?? usage)
            return 0
        }
        do {
            switch command {
            case "query": try Query.run(args, output)
            case "render": try Render.run(args, output)
            case "audit": return try Audit.run(args, output)
            case "explain": try Explain.run(args, output)
            case "import": try Import.run(args, output)
            case "stats": try Stats.run(args, output)
            case "demo": try Demo.run(args, output)
            default: throw Failure(message: "unknown command '\(command)'\n\n\(usage)")
            }
            return 0
        } catch let failure as Failure {
            output.err("hittest \(command): \(failure.message)")
            return failure.status
        } catch {
            output.err("hittest \(command): \(error)")
            return 1
        }
    }

    static let help: [String: String] = [
        "query": """
            usage: hittest query SCENE POINTS [-o FILE]

            Hit-tests every point of POINTS against SCENE (points in the root's coordinates):
            POINTS is CSV, one `x,y` a line (a header `x,y` is allowed), or little-endian
            float64 pairs in a `.f64` file. Writes CSV `x,y,id` in input order, an empty id
            where nothing is hit, to FILE or standard output.
            """,
        "render": """
            usage: hittest render SCENE -o MAP.png [--scale S] [--cost]

            Draws, for each pixel, the view a touch at its centre reaches (a colour per view,
            dark grey for nothing), with outlines where the answer changes and a legend below.
            With --cost, each pixel shows how many views UIKit's walk calls hitTest on for a
            touch there, on a heat scale given in the legend. --scale is pixels per point
            (default 1).
            """,
        "audit": """
            usage: hittest audit SCENE [--json] [--fail-on occluded,small,dead]

            For each interactive view (a view that can receive touches whose class names a
            control, or a leaf when the scene has no classes): its effective tap area (where a
            touch reaches it or its subviews), the share of its own visible area where a touch
            reaches something else (occluded), and whether it is under 44x44 pt; and the dead
            zones, where a touch reaches no interactive view. Sampled on a 1 pt grid.
            --fail-on exits with 1 when any of the named findings occurs: occluded (1% or
            more of a control covered), small, dead (1% or more of the screen).
            """,
        "explain": """
            usage: hittest explain SCENE X Y

            Prints the decision trail of UIKit's walk for the point (X, Y) in the root's
            coordinates: each view tested, the point in its coordinates, and the rule that
            accepted or rejected it.
            """,
        "import": """
            usage: hittest import FILE -o SCENE

            Reads UIKit's recursiveDescription text or XCUITest / Appium page source XML (the
            format is detected) and writes a scene file. Lines or elements that cannot be read
            are skipped with a warning on standard error.
            """,
        "stats": """
            usage: hittest stats SCENE

            Prints the number of views, the depth, the largest fan-out, transformed, hidden and
            non-interactive views, and the memory of the C index.
            """,
        "demo": """
            usage: hittest demo [--out DIR] [--points N]

            Builds the benchmark's `app` scene (a phone screen with a scrolled table of 200
            cells), bulk hit-tests a million points (N), prints throughput beside the reference
            walk, and writes DIR/demo-map.png, DIR/demo-audit.txt and DIR/demo-scene.json
            (DIR defaults to the current directory).
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

    static func loadScene(_ path: String) throws -> (SceneFile, Window) {
        do {
            let scene = try SceneFile(contentsOf: URL(fileURLWithPath: path))
            return (scene, scene.makeWindow())
        } catch {
            throw Failure(message: "\(path): \(error)")
        }
    }

    static func write(_ data: Data, to path: String) throws {
        do { try data.write(to: URL(fileURLWithPath: path)) } catch {
            throw Failure(message: "cannot write \(path): \(error.localizedDescription)", status: 1)
        }
    }

    static func name(_ view: View?) -> String { view?.accessibilityIdentifier ?? view?.debugName ?? "" }

    static func fmt(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
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
