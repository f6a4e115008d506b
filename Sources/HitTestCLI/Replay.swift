import Foundation
import HitTestKit
import HitTestScenes

extension HitTestCLI {
    // MARK: - replay

    /// `hittest replay SCENE SCRIPT`: builds the scene in an application, replays the touch
    /// script and prints the delivery log, activity entries included (control events, actions,
    /// scroll offsets, recognizer states).
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
            """

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["--until", "--only"], flags: [])
            try a.expect(2, "SCENE and SCRIPT")
            let (_, window) = try loadScene(a.positional[0], output)
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
            for entry in app.replay(script) where kinds?.contains(entry.kind) ?? true { output.out(entry.description) }
            let before = app.deliveryLog.count
            app.advanceTime(to: until)
            for entry in app.deliveryLog[before...] where kinds?.contains(entry.kind) ?? true { output.out(entry.description) }
        }
    }
}
