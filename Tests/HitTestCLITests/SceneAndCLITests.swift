import Foundation
import HitTestCLI
import HitTestKit
import HitTestTestSupport
import HitTestScenes
import HitTestSampleScenes
import HitTestReference
import Testing

/// Scene files, the importers on real dumps, and every `hittest` subcommand.
@Suite struct SceneAndCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func fixture(_ name: String) -> String { root.appendingPathComponent("Tests/Fixtures/\(name)").path }

    /// Runs the CLI, capturing its output.
    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var outLines: [String] = []
        private var errLines: [String] = []
        var out: String { lock.withLock { outLines.joined(separator: "\n") } }
        var err: String { lock.withLock { errLines.joined(separator: "\n") } }
        var output: HitTestCLI.Output {
            HitTestCLI.Output(out: { s in self.lock.withLock { self.outLines.append(s) } }, err: { s in self.lock.withLock { self.errLines.append(s) } })
        }
    }

    static func run(_ args: [String]) -> (Int32, Captured) {
        let c = Captured()
        return (HitTestCLI.run(args, output: c.output), c)
    }

    /// The test process's scratch directory, removed when the process exits.
    static let scratch: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hittest-tests-\(UUID())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: SceneAndCLITests.scratch) }
        return dir
    }()

    /// A path named `name` in a new directory of its own under `scratch`.
    static func temp(_ name: String) -> String {
        let dir = scratch.appendingPathComponent(UUID().uuidString)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// A small scene: a small button, a button half covered by a banner, and a dead strip.
    static let sceneJSON = """
        { "format": "hittest-scene", "version": 1,
          "root": { "id": "window", "frame": [0, 0, 200, 300], "children": [
            { "id": "panel", "frame": [0, 0, 200, 250], "children": [
              { "id": "small-button", "class": "UIButton", "frame": [10, 10, 20, 20] },
              { "id": "big-button", "class": "UIButton", "frame": [50, 100, 100, 50] },
              { "id": "label", "class": "UILabel", "frame": [10, 200, 100, 20], "interactive": false } ] },
            { "id": "banner", "frame": [0, 100, 200, 25], "alpha": 0.5 },
            { "id": "badge", "frame": [170, 10, 20, 20], "transform": [0.7071067811865476, 0.7071067811865475, -0.7071067811865475, 0.7071067811865476, 0, 0], "hitTestInsets": [-4, -4, -4, -4] } ] } }
        """

    static func writeScene() -> String {
        let path = temp("scene.json")
        try! Data(sceneJSON.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: - Scene files

    @Test func sceneFilesRoundTripAndBuildViews() throws {
        let scene = try SceneFile(json: Data(Self.sceneJSON.utf8))
        #expect(try SceneFile(json: scene.jsonData()) == scene)
        let window = scene.makeWindow()
        #expect(window.subviews.count == 3 && window.subviews[0].subviews.count == 3)
        let badge = window.subviews[2]
        #expect(badge.accessibilityIdentifier == "badge" && !badge.transform.isIdentity && badge.hitTestInsets.top == -4)
        #expect(window.hitTest(Point(x: 60, y: 110))?.accessibilityIdentifier == "banner")
        #expect(window.hitTest(Point(x: 60, y: 130))?.accessibilityIdentifier == "big-button")
        // Views -> scene gives the same tree (views do not keep class names).
        func withoutClasses(_ n: SceneNode) -> SceneNode {
            var n = n
            n.className = nil
            n.children = n.children.map(withoutClasses)
            return n
        }
        #expect(SceneFile(view: window) == SceneFile(root: withoutClasses(scene.root)))
        // The benchmark's scene survives the round trip too, answers included.
        let app = SampleScenes.app(cells: 20).root
        let saved = SceneFile(view: app)
        let again = try SceneFile(json: saved.jsonData())
        #expect(again == saved)
        let rebuilt = again.makeWindow()
        for p in SampleScenes.uniformPoints(2000, in: app.bounds, seed: 4) {
            #expect(rebuilt.hitTest(p)?.accessibilityIdentifier == app.hitTest(p)?.accessibilityIdentifier)
        }
    }

    @Test(arguments: [
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,1,1],"children":[{"id":"a","frame":[0,0,1,1],"hiden":true}]}}"#, "w/a: unknown key \"hiden\""),
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,1,1],"children":[{"id":"a","frame":[0,0,1]}]}}"#, "w/a: \"frame\" must have 4 numbers, found 3"),
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,1,1],"children":[{"id":"a","frame":[0,0,1,1],"children":[{"id":"b","frame":[0,0,1,1],"alpha":"x"}]}]}}"#, "w/a/b: \"alpha\" must be a number"),
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,1,1],"children":[{"frame":[0,0,1,1]}]}}"#, "w/children[0]: missing \"id\""),
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,1,1],"children":[{"id":"w","frame":[0,0,1,1]}]}}"#, "w/w: id \"w\" is used twice (first at w)"),
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w"}}"#, "w: missing \"frame\""),
        (#"{"format":"hittest-scene","version":2,"root":{"id":"w","frame":[0,0,1,1]}}"#, "\"version\" must be 1"),
        (#"{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,1,1]"#, "not valid JSON"),
    ])
    func sceneErrorsNameTheNodePath(json: String, message: String) {
        do {
            _ = try SceneFile(json: Data(json.utf8))
            Issue.record("loaded a bad scene")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    // MARK: - Importers

    @Test func importsARealTruncatedRecursiveDescription() throws {
        let text = try String(contentsOfFile: Self.fixture("cycript-keywindow-truncated.txt"), encoding: .utf8)
        let result = try SceneImporter.recursiveDescription(text)
        let r = result.scene.root
        #expect(r.id == "iConsoleWindow-1" && r.frame == Rect(x: 0, y: 0, width: 320, height: 480))
        #expect(result.warnings.contains { $0.hasPrefix("line 8: not a view") })
        // The view after the `...` is at depth 3, its parent (depth 2) is the UITransitionView.
        let transition = r.children[0].children[0]
        #expect(transition.className == "UITransitionView" && transition.clipsToBounds)
        let badges = transition.children.filter { $0.className?.hasPrefix("MMBadgeView") == true }
        #expect(badges.count == 2)
        #expect(badges[0].frame == Rect(x: 203, y: 1, width: 20, height: 20) && !badges[0].interactive)
        #expect(badges[1].hidden && badges[1].frame.minY == -4)
        #expect(badges[0].children[0].tag == 10032 && badges[0].children[0].hidden)
        let window = result.scene.makeWindow()
        #expect(window.hitTest(Point(x: 210, y: 5))?.accessibilityIdentifier == "UIViewControllerWrapperView-2")
    }

    @Test func importsRealPageSourceXML() throws {
        let text = try String(contentsOfFile: Self.fixture("appium-ios-form.xml"), encoding: .utf8)
        #expect(SceneImporter.detectFormat(text) == .pageSource)
        let r = try SceneImporter.pageSource(text).scene.root
        #expect(r.id == "App.dev" && r.children.count == 2)
        let window = try SceneImporter.pageSource(text).scene.makeWindow()
        // Frames become relative: the Skip button is at (303, 20) on screen inside a bar at y 20.
        let skip = try #require(window.viewWithTagPath("Skip"))
        #expect(skip.frame == Rect(x: 303, y: 0, width: 64, height: 44))
        let register = try #require(window.viewWithTagPath("Register"))
        #expect(register.isHidden && !register.isUserInteractionEnabled)
        // The status-bar window is on top: the touch at the top reaches it, not the nav bar.
        #expect(window.hitTest(Point(x: 180, y: 5))?.accessibilityIdentifier == "9:50")
        // The status-bar window is a container, not a touch target: it passes touches through (issue 10, item 6).
        #expect(window.hitTest(Point(x: 320, y: 40))?.accessibilityIdentifier == "Skip")
    }

    @Test func importerHandlesTransformsOffsetsWrappingAndLayers() throws {
        // Synthetic, in recursiveDescription's syntax: a scroll view scrolled by 100, a view
        // rotated 90° whose dumped frame is the bounding box, a description wrapped over two
        // lines and a layer-only line.
        let text = """
            <UIWindow: 0x1; frame = (0 0; 100 200); layer = <UIWindowLayer: 0x2>>
               | <UIScrollView: 0x3; frame = (0 0; 100 200); clipsToBounds = YES; layer = <CALayer: 0x4>; contentOffset: {0, 100}; contentSize: {100, 400}>
               |    | <UIView: 0x5; frame = (10 110; 40 20); transform = [0, 1, -1, 0, 0, 0];
               layer = <CALayer: 0x6>>
               |    |    | <CALayer: 0x7; position = CGPoint (0 0); bounds = CGRect (0 0; 0 0)>
               |    | <UIButton: 0x8; frame = (60 150; 30 30); alpha = 0.5; tag = 7; layer = <CALayer: 0x9>>
            """
        let result = try SceneImporter.recursiveDescription(text)
        let scroll = result.scene.root.children[0]
        #expect(scroll.bounds == Rect(x: 0, y: 100, width: 100, height: 200))
        let rotated = scroll.children[0]
        #expect(abs(rotated.frame.width - 20) < 1e-9 && abs(rotated.frame.height - 40) < 1e-9)
        #expect(rotated.children.isEmpty)  // the layer line is not a view
        let button = scroll.children[1]
        #expect(button.alpha == 0.5 && button.tag == 7)
        let window = result.scene.makeWindow()
        // Screen y 60 is content y 160, inside the button (150..180).
        #expect(window.hitTest(Point(x: 70, y: 60))?.accessibilityIdentifier == "UIButton-1")
        let rotatedView = window.subviews[0].subviews[0]
        #expect(abs(rotatedView.frame.minX - 10) < 1e-9 && abs(rotatedView.frame.width - 40) < 1e-9)
        #expect(throws: SceneError.self) { try SceneImporter.recursiveDescription("nothing here") }
        #expect(throws: SceneError.self) { try SceneImporter.pageSource("<a><b x='1'") }
    }

    // MARK: - The command-line tool

    @Test func queryWritesOneAnswerPerPoint() throws {
        let scene = Self.writeScene()
        let csv = Self.temp("points.csv")
        try "x,y\n15,15\n60,130\n60,110\n199,299\n250,10\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let out = Self.temp("out.csv")
        #expect(Self.run(["query", scene, csv, "-o", out]).0 == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "x,y,id\n15,15,small-button\n60,130,big-button\n60,110,banner\n199,299,window\n250,10,\n")
        // The same points as float64 pairs.
        let f64 = Self.temp("points.f64")
        var bytes = Data()
        for v in [15.0, 15, 60, 130] { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        try bytes.write(to: URL(fileURLWithPath: f64))
        let (status, c) = Self.run(["query", scene, f64])
        #expect(status == 0 && c.out == "x,y,id\n15,15,small-button\n60,130,big-button")
        try "1,2\nthree,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let (bad, e) = Self.run(["query", scene, csv])
        #expect(bad == 2 && e.err.contains("line 2"))
    }

    @Test func renderedMapMatchesTheHitTestPixelByPixel() throws {
        let scenePath = Self.writeScene()
        let png = Self.temp("map.png")
        #expect(Self.run(["render", scenePath, "-o", png, "--scale", "2"]).0 == 0)
        let image = try #require(RGBImage(png: try Data(contentsOf: URL(fileURLWithPath: png))))
        let window = try SceneFile(json: Data(Self.sceneJSON.utf8)).makeWindow()
        #expect(image.width == 400 && image.height > 600)
        // Colours per view, as the renderer assigns them (order of first appearance).
        var colors: [String: (UInt8, UInt8, UInt8)] = [:]
        var checked = 0
        for py in 0..<600 {
            for px in 0..<400 {
                let p = Point(x: (Double(px) + 0.5) / 2, y: (Double(py) + 0.5) / 2)
                let hit = window.hitTest(p)
                let right = px + 1 < 400 ? window.hitTest(Point(x: (Double(px) + 1.5) / 2, y: p.y)) : hit
                let below = py + 1 < 600 ? window.hitTest(Point(x: p.x, y: (Double(py) + 1.5) / 2)) : hit
                let pixel = image[px, py]
                if right !== hit || below !== hit {
                    #expect(pixel == (0, 0, 0), "outline expected at \(px),\(py)")
                } else if let hit {
                    let id = hit.accessibilityIdentifier!
                    if let c = colors[id] {
                        #expect(pixel == c, "pixel \(px),\(py) of \(id)")
                    } else {
                        #expect(!colors.values.contains { $0 == pixel }, "two views share a colour")
                        colors[id] = pixel
                    }
                } else {
                    #expect(pixel == (40, 40, 40), "nothing at \(px),\(py)")
                }
                checked += 1
            }
        }
        #expect(checked == 240_000 && colors.count == 6)
        // A legend below the map: not all white.
        #expect((600..<image.height).contains { y in (0..<image.width).contains { image[$0, y] != (255, 255, 255) } })
    }

    @Test func costMapShowsTheWalksWork() throws {
        let scenePath = Self.writeScene()
        let png = Self.temp("cost.png")
        #expect(Self.run(["render", scenePath, "--cost", "-o", png]).0 == 0)
        let image = try #require(RGBImage(png: try Data(contentsOf: URL(fileURLWithPath: png))))
        let window = try SceneFile(json: Data(Self.sceneJSON.utf8)).makeWindow()
        func cost(_ x: Int, _ y: Int) -> Int {
            let probe = Reference.Probe()
            _ = Reference.hitTest(window, Point(x: Double(x) + 0.5, y: Double(y) + 0.5), probe: probe)
            return probe.visits
        }
        // More views tested -> a different (hotter) colour; equal costs -> equal colours.
        #expect(cost(15, 15) > cost(15, 270))
        #expect(image[15, 15] != image[15, 270])
        #expect(cost(100, 60) == cost(120, 60) && image[100, 60] == image[120, 60])
    }

    @Test func auditFindsSmallOccludedAndDead() throws {
        let scenePath = Self.writeScene()
        let (status, c) = Self.run(["audit", scenePath, "--json"])
        #expect(status == 0)
        let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(c.out.utf8))
        #expect(report.controls.map(\.id) == ["small-button", "big-button"])
        let small = report.controls[0], big = report.controls[1]
        #expect(small.small && !small.occluded && small.tapArea == 400)
        #expect(big.occluded && abs(big.occludedShare - 0.5) < 0.01 && big.tapArea == 2500 && big.visibleArea == 5000)
        #expect(report.deadShare > 0.8)
        #expect(Self.run(["audit", scenePath, "--fail-on", "small"]).0 == 1)
        #expect(Self.run(["audit", scenePath, "--fail-on", "occluded,dead"]).0 == 1)
        #expect(Self.run(["audit", scenePath, "--fail-on", "bogus"]).0 == 2)
        let (textStatus, text) = Self.run(["audit", scenePath])
        #expect(textStatus == 0 && text.out.contains("big-button") && text.out.contains("occluded"))
    }

    @Test func explainGivesTheTrail() throws {
        let scenePath = Self.writeScene()
        let (status, c) = Self.run(["explain", scenePath, "60", "110"])
        #expect(status == 0)
        let lines = c.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "window at (60, 110): inside (bounds); searching 3 subviews, last first")
        #expect(lines.contains("  badge at (-11.213, 158.492): rejected: outside (bounds with hitTestInsets)"))
        #expect(lines.contains("  banner at (60, 10): inside (bounds); no subviews"))
        #expect(lines.last == "=> banner (3 views tested)")
        #expect(Self.run(["explain", scenePath, "x", "1"]).0 == 2)
    }

    @Test func importStatsAndErrors() throws {
        let out = Self.temp("imported.json")
        let (status, c) = Self.run(["import", Self.fixture("cycript-keywindow-truncated.txt"), "-o", out])
        #expect(status == 0 && c.err.contains("warning: \(Self.fixture("cycript-keywindow-truncated.txt")): line 8"), "\(c.err)")
        let scene = try SceneFile(contentsOf: URL(fileURLWithPath: out))
        #expect(scene.root.id == "iConsoleWindow-1")
        let (s2, stats) = Self.run(["stats", out])
        #expect(s2 == 0 && stats.out.contains("views: 11") && stats.out.contains("depth: 6") && stats.out.contains("hidden: 2"))
        #expect(Self.run(["stats", "/nonexistent.json"]).0 == 2)
        #expect(Self.run(["frobnicate"]).0 == 2)
        #expect(Self.run(["query", "--help"]).0 == 0)
        for command in ["query", "render", "audit", "explain", "import", "stats", "demo"] {
            let (h, text) = Self.run([command, "--help"])
            #expect(h == 0 && text.out.hasPrefix("usage: hittest \(command)"))
        }
    }

    @Test func demoRunsOnItsOwn() throws {
        let dir = Self.temp("demo")
        let (status, c) = Self.run(["demo", "--out", dir, "--points", "20000"])
        #expect(status == 0, "\(c.err)")
        #expect(c.out.contains("every sampled answer matches the reference walk"))
        for file in ["demo-map.png", "demo-audit.txt", "demo-scene.json"] {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + file))
        }
        #expect(RGBImage(png: try Data(contentsOf: URL(fileURLWithPath: dir + "/demo-map.png"))) != nil)
    }
}

extension View {
    /// The view whose accessibilityIdentifier is `id` (tests).
    func viewWithTagPath(_ id: String) -> View? {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            if v.accessibilityIdentifier == id { return v }
            stack.append(contentsOf: v.subviews)
        }
        return nil
    }
}
