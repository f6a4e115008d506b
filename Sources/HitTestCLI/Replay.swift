import Foundation
import HitTestKit
import HitTestScenes

extension HitTestCLI {
    // MARK: - replay

    /// `hittest replay SCENE SCRIPT`: builds the scene in an application whose clock also runs
    /// the scene's animations, replays the touch script and prints the delivery log, activity
    /// entries included (recognizer states, control events, actions, scroll offsets,
    /// animations). Before each beginning touch that lands where the model and the
    /// presentation disagree, a `#` line names both.
    enum Replay {
        /// The log's kinds, as `--only` takes them.
        static let kindNames = "delivered, forwarded, dropped, ignored, held, recognizer, action, controlEvent, scrolled, animation"

        static let help = """
            usage: hittest replay SCENE SCRIPT [--until T] [--only KINDS]

            Builds SCENE in an application (its root is the window; controls, buttons and scroll
            views come from the nodes' "kind"), replays the touch script SCRIPT and prints the
            delivery log, one entry a line: `time touch N phase kind view (reason)` for
            deliveries, `time [touch N] kind view: detail` for what touches made happen
            (recognizer states, control events, actions run, scroll offsets). SCRIPT is CSV, one
            touch change a line: `time,id,phase,x,y[,window]` (seconds; began, moved,
            stationary, ended, cancelled; screen coordinates, as in every command; the window
            index, when given, must exist: a scene is window 0); lines with the same time are one
            input step; `time,advance` moves the clock; lines end at LF, CRLF or CR. The script
            is read and replayed a line at a time and the log printed as it goes (memory does
            not grow with the script's length); a bad line stops the replay with its line
            number, after the log of the lines before it. Time is simulated: a deceleration or a held
            touch runs when the script's time passes it; --until T then advances the clock to
            T seconds (default: the script's last time plus 5 s, so motion after the last lift
            finishes). --only prints the entries of the named kinds (comma-separated, at least
            one: \(kindNames)).

            The scene's "animations" run on the same simulated clock, so a tap during a slide
            reaches what the model says (where the view will be), not what is seen; a line
            `# T touch N at (X, Y): hit A (model), seen B (presentation)` marks each such tap
            (left out when --only does not name animation).
            """

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["--until", "--only"], flags: [])
            try a.expect(2, "SCENE and SCRIPT")
            let kinds = try a.options["--only"].map(Self.kinds)
            let until = try a.options["--until"].map { u -> Double in
                guard let t = Double(u), t.isFinite else { throw Failure(message: "--until: '\(u)' is not a finite number") }
                return t
            }
            let (scene, window) = try loadScene(a.positional[0], output)
            let name = display(a.positional[1])
            let app = Application()
            app.addWindow(window)
            scene.installAnimations(in: window, on: app)
            let windowCount = app.windows.count
            // What the last entry added to the log, printed (filtered by --only) and let go, so
            // memory stays bounded whatever the script's length.
            func flush() throws {
                for entry in app.deliveryLog where kinds?.contains(entry.kind) ?? true { output.out(entry.description) }
                app.clearDeliveryLog()
                try output.checkWritable()
            }
            let marksDifferences = kinds?.contains(.animation) ?? true
            var last: Double?
            func play(_ entry: TouchScript.Entry) throws {
                if let t = entry.time { last = max(last ?? t, t) }
                switch entry {
                case .advanceTime(let time):
                    app.advanceTime(to: time)
                case .touches(let step):
                    guard let time = step.map(\.timestamp).max() else { break }
                    // The step's deadlines first (G1), so the comparison sees the clock at the step.
                    app.advanceTime(to: time)
                    try flush()
                    if marksDifferences {
                        for change in step where change.phase == .began {
                            let p = Screen.toRoot(change.location, window)
                            let model = window.hitTest(p)
                            let seen = window.hitTestPresentation(p)
                            if model !== seen {
                                output.out(
                                    "# \(app.currentTime) touch \(change.id) at (\(fmt(change.location.x)), \(fmt(change.location.y))): "
                                        + "hit \(model.map { shown($0) } ?? "nothing") (model), seen \(seen.map { shown($0) } ?? "nothing") (presentation)")
                            }
                        }
                    }
                    app.injectTouches(step)
                }
                try flush()
            }
            // The script, a chunk and a line at a time: each entry is played as soon as the
            // parser hands it out.
            var parser = TouchScript.Parser()
            parser.windowCount = windowCount  // an unknown window is named by its line
            var reader = TextLineReader()
            var entries: [TouchScript.Entry] = []
            func read(_ line: UnsafeRawBufferPointer, _ number: Int) throws {
                if let base = line.baseAddress, memchr(base, 0, line.count) != nil {
                    throw Failure(message: "\(name): line \(number) has a NUL byte: it is not a text file")
                }
                do {
                    try parser.read(String(decoding: line, as: UTF8.self), number: number, into: &entries)
                } catch {
                    throw Failure(message: "\(name): \(error.description.escapingControlCharacters)")
                }
                for entry in entries { try play(entry) }
                entries.removeAll(keepingCapacity: true)
            }
            var first = true
            try readChunks(a.positional[1], output) { chunk in
                if first {
                    try TextInput.check(chunk, name: name, whole: false)
                    first = false
                }
                try reader.feed(chunk, read)
            }
            try reader.finish(read)
            parser.finish(into: &entries)
            for entry in entries { try play(entry) }
            app.advanceTime(to: until ?? (last ?? 0) + 5)
            try flush()
        }

        /// `--only`'s kinds: comma-separated names of `TouchDelivery.Kind`, at least one.
        static func kinds(_ text: String) throws -> Set<TouchDelivery.Kind> {
            let all = kindNames
            var set = Set<TouchDelivery.Kind>()
            for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard !name.isEmpty else { throw Failure(message: "--only '\(text.escapingControlCharacters)': an empty kind; the kinds are \(all)") }
                guard let kind = TouchDelivery.Kind(rawValue: name) else {
                    throw Failure(message: "--only: unknown kind '\(name.escapingControlCharacters)'; the kinds are \(all)")
                }
                set.insert(kind)
            }
            return set
        }
    }
}
