import Foundation
import HitTestCLI
import HitTestReference
import HitTestScenes
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// Scene-defined animations (issue 18 item 4): the "animations" key, its errors, replays that
/// trigger them on the clock, `hittest replay` and `hittest render --at`.
@Suite struct AnimationSceneTests {
    static let drawerPath = SceneAndCLITests.root.appendingPathComponent("Examples/animation/drawer.json").path
    static let tapsPath = SceneAndCLITests.root.appendingPathComponent("Examples/animation/drawer-taps.csv").path

    static func scene(_ animations: String) -> String {
        """
        { "format": "hittest-scene", "version": 1,
          "root": { "id": "window", "frame": [0, 0, 100, 100], "children": [ { "id": "box", "frame": [0, 0, 10, 10] } ] },
          "animations": \(animations) }
        """
    }

    @Test func animationsLoadSaveAndCompare() throws {
        let file = try SceneFile(contentsOf: URL(fileURLWithPath: Self.drawerPath))
        #expect(file.animations.count == 1)
        let a = try #require(file.animations.first)
        #expect(a.view == "drawer" && a.at == 0.5 && a.duration == 0.4 && a.curve == .easeOut)
        #expect(a.frame == Rect(x: 0, y: 0, width: 280, height: 844) && a.alpha == nil && !a.allowUserInteraction)
        let again = try SceneFile(json: file.jsonData())
        #expect(again == file)
        // The Codable path too.
        let coded = try JSONDecoder().decode(SceneFile.self, from: JSONEncoder().encode(file))
        #expect(coded == file)
        // Every key.
        let full = try SceneFile(json: Data(Self.scene("""
            [ { "view": "box", "at": 1, "duration": 2, "delay": 0.5, "curve": "linear", "allowUserInteraction": true,
                "frame": [1, 2, 3, 4], "center": [5, 6], "transform": [1, 0, 0, 2, 3, 4], "alpha": 0.25 } ]
            """).utf8))
        let f = try #require(full.animations.first)
        #expect(f.delay == 0.5 && f.curve == .linear && f.allowUserInteraction && f.center == Point(x: 5, y: 6))
        #expect(f.transform == AffineTransform(a: 1, b: 0, c: 0, d: 2, tx: 3, ty: 4) && f.alpha == 0.25)
        #expect(f.options == [.curveLinear, .allowUserInteraction])
        #expect(try SceneFile(json: full.jsonData()) == full)
    }

    @Test(arguments: [
        ("{}", "must be an array"),
        ("[1]", "animations[0]: must be an object"),
        ("[{\"view\": \"nobody\", \"at\": 0, \"duration\": 1}]", "no node has the id \"nobody\""),
        ("[{\"view\": \"box\", \"duration\": 1}]", "\"at\""),
        ("[{\"view\": \"box\", \"at\": 0}]", "\"duration\""),
        ("[{\"view\": \"box\", \"at\": 0, \"on\": \"box\", \"duration\": 1}]", "exactly one of \"at\""),
        ("[{\"view\": \"box\", \"on\": \"box\", \"duration\": 1}]", "is not the id of a node of kind button or control"),
        ("[{\"view\": \"box\", \"on\": 3, \"duration\": 1}]", "\"on\" must be the id"),
        ("[{\"view\": \"box\", \"at\": 0, \"duration\": -1}]", "\"duration\""),
        ("[{\"view\": \"box\", \"at\": 0, \"duration\": 1, \"curve\": \"bouncy\"}]", "\"curve\""),
        ("[{\"view\": \"box\", \"at\": 0, \"duration\": 1, \"frame\": [1, 2]}]", "\"frame\""),
        ("[{\"view\": \"box\", \"at\": 0, \"duration\": 1, \"alpha\": 2}]", "\"alpha\""),
        ("[{\"view\": \"box\", \"at\": 0, \"duration\": 1, \"speed\": 2}]", "unknown key \"speed\""),
        ("[{\"view\": \"box\", \"at\": 0, \"duration\": 1, \"transform\": [1e7, 0, 0, 1, 0, 0]}]", "\"transform\""),
    ])
    func badAnimationsAreClearErrors(json: String, message: String) {
        do {
            _ = try SceneFile(json: Data(Self.scene(json).utf8))
            Issue.record("loaded \(json)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func aReplayedTapDuringTheSlideReachesTheModel() throws {
        let file = try SceneFile(contentsOf: URL(fileURLWithPath: Self.drawerPath))
        let window = file.makeWindow()
        let app = Application()
        app.addWindow(window)
        file.installAnimations(in: window, on: app)
        let script = try TouchScript(csv: String(contentsOfFile: Self.tapsPath, encoding: .utf8))
        let log = Array(app.replay(script))
        let began = log.filter { $0.kind == .delivered && $0.phase == .began }.map(\.responderName)
        #expect(began == ["row-1", "drawer-item"])
        let animation = log.filter { $0.kind == .animation }.map(\.description)
        #expect(animation == ["0.5 animation drawer: start center duration 0.4 delay 0.0 easeOut", "0.9 animation drawer: complete true"])
        // Twice: the same log (the clock restarts, the animation is scheduled again).
        let app2 = Application()
        let window2 = file.makeWindow()
        app2.addWindow(window2)
        file.installAnimations(in: window2, on: app2)
        #expect(Array(app2.replay(script)).map(\.description) == log.map(\.description))
    }

    /// Item 4: a replayed tap on a button starts the scene's animation (its `"on"`), and a tap
    /// during the slide reaches the model, not what is seen.
    @Test func aButtonsActionStartsTheSceneAnimation() {
        let dir = SceneAndCLITests.root.appendingPathComponent("Examples/animation")
        let (status, c) = SceneAndCLITests.run([
            "replay", dir.appendingPathComponent("drawer-button.json").path,
            dir.appendingPathComponent("drawer-button-taps.csv").path, "--until", "2", "--only", "animation,controlEvent",
        ])
        #expect(status == 0, "\(c.err)")
        let lines = c.out.split(separator: "\n").map(String.init)
        #expect(lines == [
            "0.5 touch 1 controlEvent menu-button: touchDown",
            "0.55 touch 1 controlEvent menu-button: touchUpInside|primaryActionTriggered",
            "0.55 animation drawer: start center duration 0.4 delay 0.0 easeOut",
            "# 0.7 touch 2 at (100, 120): hit row-1 (model), seen drawer-item (presentation)",
            "\(0.55 + 0.4) animation drawer: complete true",
            "1.2 touch 3 controlEvent drawer-item: touchDown",
            "1.25 touch 3 controlEvent drawer-item: touchUpInside|primaryActionTriggered",
        ])
        // The file round-trips with its trigger.
        let file = try? SceneFile(contentsOf: dir.appendingPathComponent("drawer-button.json"))
        #expect(file?.animations.first?.on == "menu-button")
        if let file, let again = try? SceneFile(json: file.jsonData()) { #expect(again.animations == file.animations) }
    }

    @Test func replayCommandMarksTheDifference() {
        let (status, c) = SceneAndCLITests.run(["replay", Self.drawerPath, Self.tapsPath, "--until", "2"])
        #expect(status == 0, "\(c.err)")
        let lines = c.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "0.5 animation drawer: start center duration 0.4 delay 0.0 easeOut")
        #expect(lines.contains("# 0.6 touch 1 at (100, 120): hit row-1 (model), seen drawer (presentation)"))
        #expect(lines.contains("0.6 touch 1 began delivered row-1"))
        #expect(lines.contains("0.9 animation drawer: complete true"))
        #expect(lines.contains("1.2 touch 2 began delivered drawer-item"))
        #expect(lines.filter { $0.hasPrefix("#") }.count == 1)
        let (bad, e) = SceneAndCLITests.run(["replay", Self.drawerPath])
        #expect(bad == 2 && e.err.contains("SCENE and SCRIPT"))
        let script = SceneAndCLITests.temp("bad.csv")
        try? "0,1,began,x,1\n".write(toFile: script, atomically: true, encoding: .utf8)
        let (bad2, e2) = SceneAndCLITests.run(["replay", Self.drawerPath, script])
        #expect(bad2 == 2 && e2.err.contains("line 1"))
    }

    @Test func renderAtATimeDrawsModelOrPresentation() throws {
        let model = SceneAndCLITests.temp("model.png")
        let shown = SceneAndCLITests.temp("shown.png")
        let (s1, c1) = SceneAndCLITests.run(["render", Self.drawerPath, "--at", "0.6", "-o", model])
        let (s2, c2) = SceneAndCLITests.run(["render", Self.drawerPath, "--at", "0.6", "--presentation", "-o", shown])
        #expect(s1 == 0 && s2 == 0, "\(c1.err) \(c2.err)")
        let a = try Data(contentsOf: URL(fileURLWithPath: model))
        let b = try Data(contentsOf: URL(fileURLWithPath: shown))
        #expect(a.starts(with: [0x89, 0x50, 0x4E, 0x47]) && a != b)
        let (s3, c3) = SceneAndCLITests.run(["render", Self.drawerPath, "--presentation", "-o", shown])
        #expect(s3 == 2 && c3.err.contains("--at"))
        // What the presentation map draws: the drawer where it is seen at 0.6.
        let file = try SceneFile(contentsOf: URL(fileURLWithPath: Self.drawerPath))
        let window = file.makeWindow()
        let app = Application()
        app.addWindow(window)
        file.installAnimations(in: window, on: app)
        app.advanceTime(to: 0.6)
        let drawer = window.subviews[1]
        #expect(window.hitTestPresentation(Point(x: 100, y: 300)) === drawer)
        #expect(window.hitTest(Point(x: 100, y: 300)) === window.subviews[0])
        #expect(Reference.presentationHitTest(window, Point(x: 100, y: 300), at: 0.6) === drawer)
    }
}
