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
        static let help = """
            usage: hittest replay SCENE SCRIPT [--until T] [--only KINDS]

            Builds SCENE in an application (its root is the window; controls, buttons and scroll
            views come from the nodes' "kind"), replays the touch script SCRIPT and prints the
            delivery log, one entry a line: `time touch N phase kind view (reason)` for
            deliveries, `time [touch N] kind view: detail` for what touches made happen
            (recognizer states, control events, actions run, scroll offsets). SCRIPT is CSV, one
            touch change a line: `time,id,phase,x,y[,window]` (seconds; began, moved,
            stationary, ended, cancelled; screen coordinates, as in every command); lines with
            the same time are one input step. Time is simulated: a deceleration or a held
            touch runs when the script's time passes it; --until T then advances the clock to
            T seconds (default: the script's last time plus 5 s, so motion after the last lift
            finishes). --only prints the entries of the named kinds (comma-separated:
            delivered, forwarded, dropped, ignored, held, recognizer, action, controlEvent,
            scrolled, animation).

            The scene's "animations" run on the same simulated clock, so a tap during a slide
            reaches what the model says (where the view will be), not what is seen; a line
            `# T touch N at (X, Y): hit A (model), seen B (presentation)` marks each such tap
            (left out when --only does not name animation).
            """

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["--until", "--only"], flags: [])
            try a.expect(2, "SCENE and SCRIPT")
            let (scene, window) = try loadScene(a.positional[0], output)
            let text = String(decoding: try read(a.positional[1], output), as: UTF8.self)
            let script: TouchScript
            do { script = try TouchScript(csv: text) } catch {
                throw Failure(message: "\(display(a.positional[1])): \(error)")
            }
            var kinds: Set<TouchDelivery.Kind>?
            if let only = a.options["--only"] {
                var set = Set<TouchDelivery.Kind>()
                for name in only.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                    guard let kind = TouchDelivery.Kind(rawValue: name) else {
                        throw Failure(message: "--only: unknown kind '\(name)'")
                    }
                    set.insert(kind)
                }
                kinds = set
            }
            let last = script.entries.compactMap(\.time).max() ?? 0
            var until = last + 5
            if let u = a.options["--until"] {
                guard let t = Double(u), t.isFinite else { throw Failure(message: "--until: '\(u)' is not a finite number") }
                until = t
            }
            let app = Application()
            app.addWindow(window)
            scene.installAnimations(in: window, on: app)
            var printed = 0
            func flush() {
                let log = app.deliveryLog
                for entry in log[printed...] where kinds?.contains(entry.kind) ?? true { output.out(entry.description) }
                printed = log.count
            }
            let marksDifferences = kinds?.contains(.animation) ?? true
            for entry in script.entries {
                switch entry {
                case .advanceTime(let time):
                    app.advanceTime(to: time)
                case .touches(let step):
                    guard let time = step.map(\.timestamp).max() else { continue }
                    // The step's deadlines first (G1), so the comparison sees the clock at the step.
                    app.advanceTime(to: time)
                    flush()
                    if marksDifferences {
                        for change in step where change.phase == .began {
                            let p = Screen.toRoot(change.location, window)
                            let model = window.hitTest(p)
                            let seen = window.hitTestPresentation(p)
                            if model !== seen {
                                output.out(
                                    "# \(app.currentTime) touch \(change.id) at (\(fmt(change.location.x)), \(fmt(change.location.y))): "
                                        + "hit \(model.map { name($0) } ?? "nothing") (model), seen \(seen.map { name($0) } ?? "nothing") (presentation)")
                            }
                        }
                    }
                    app.injectTouches(step)
                }
                flush()
            }
            app.advanceTime(to: until)
            flush()
        }
    }
}
