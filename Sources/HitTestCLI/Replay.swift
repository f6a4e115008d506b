import Foundation
import HitTestKit
import HitTestScenes

extension HitTestCLI {
    /// `hittest replay SCENE SCRIPT [--until T]`: replays a touch script (TouchScript's CSV) on
    /// the scene in an application whose clock triggers the scene's animations, and prints the
    /// delivery log. Before each beginning touch that lands where the model and the
    /// presentation disagree (a view is seen elsewhere than it is hit-tested, or is animating
    /// without `allowUserInteraction`), a `#` line names both.
    enum Replay {
        static let help = """
            usage: hittest replay SCENE SCRIPT [--until T]

            Replays SCRIPT (CSV `time,id,phase,x,y[,window]` a line, screen coordinates,
            seconds) on SCENE and prints the delivery log, one entry a line. The scene's
            "animations" run on the same simulated clock, so a tap during a slide reaches what
            the model says (where the view will be), not what is seen; a line
            `# T touch N at (X, Y): hit A (model), seen B (presentation)` marks each such tap.
            --until T advances the clock to T after the last step (animation completions due by
            then are logged).
            """

        static func run(_ args: [String], _ output: Output) throws {
            let a = try Arguments(args, valued: ["--until"], flags: [])
            try a.expect(2, "SCENE SCRIPT")
            let until = try a.options["--until"].map { s -> Double in
                guard let v = Double(s), v.isFinite else { throw Failure(message: "--until takes a finite time in seconds") }
                return v
            }
            let (scene, window) = try loadScene(a.positional[0], output)
            let text = String(decoding: try read(a.positional[1], output), as: UTF8.self)
            let script: TouchScript
            do { script = try TouchScript(csv: text) } catch {
                throw Failure(message: "\(display(a.positional[1])): line \(error.line): \(error.message)")
            }
            let app = Application()
            app.addWindow(window)
            scene.installAnimations(in: window, on: app)
            var printed = 0
            func flush() {
                let log = app.deliveryLog
                for entry in log[printed...] { output.out(entry.description) }
                printed = log.count
            }
            for step in script.steps {
                guard let time = step.map(\.timestamp).max() else { continue }
                // The step's deadlines first (G1), so the comparison sees the clock at the step.
                app.advanceTime(to: time)
                flush()
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
                app.injectTouches(step)
                flush()
            }
            if let until {
                app.advanceTime(to: until)
                flush()
            }
        }
    }
}
