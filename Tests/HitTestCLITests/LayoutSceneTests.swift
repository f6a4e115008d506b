import Foundation
import HitTestCLI
import HitTestKit
import HitTestReference
import HitTestScenes
import Testing

/// Layout in scene files and the tool: masks from dumps, the layout keys, `--size`.
@Suite struct LayoutSceneTests {
    typealias T = SceneAndCLITests

    static let constrainedScene = """
        { "format": "hittest-scene", "version": 1,
          "root": { "id": "window", "frame": [0, 0, 390, 844], "safeAreaInsets": [47, 0, 34, 0], "children": [
            { "id": "screen", "frame": [0, 0, 390, 844], "autoresizingMask": 18, "layoutMargins": [8, 16, 8, 16], "children": [
              { "id": "header", "frame": [0, 0, 0, 0], "constraints": [
                "top == superview.safeArea.top", "leading == superview.leading", "trailing == superview.trailing", "height == 44"] },
              { "id": "button", "class": "UIButton", "frame": [0, 0, 0, 0], "constraints": [
                "trailing == superview.margins.trailing", "bottom == superview.safeArea.bottom - 8",
                "width == 120", "height == 0.5*header.height + 22 @999"] } ] } ] } }
        """

    @Test func theRecursiveDescriptionImporterReadsAutoresizeMasks() throws {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 320 480); autoresize = W+H; layer = <UIWindowLayer: 0x2>>
               | <UIView: 0x3; frame = (0 430; 320 50); autoresize = W+TM; layer = <CALayer: 0x4>>
               |    | <UIButton: 0x5; frame = (260 5; 50 40); opaque = NO; autoresize = LM+RM+TM+BM; layer = <CALayer: 0x6>>
               |    | <UIView: 0x7; frame = (0 0; 10 10); autoresize = W+Q; layer = <CALayer: 0x8>>
            """
        let result = try SceneImporter.recursiveDescription(text)
        let (scene, warnings) = (result.scene, result.warnings)
        let bar = scene.root.children[0]
        #expect(scene.root.attributes["autoresizingMask"] == .number(18, text: "18"))
        #expect(bar.attributes["autoresizingMask"] == .number(10, text: "10"))
        #expect(bar.children[0].attributes["autoresizingMask"] == .number(45, text: "45"))
        #expect(bar.children[1].attributes["autoresizingMask"] == nil)
        #expect(warnings.contains { $0.contains("autoresize = W+Q") && $0.contains("\"Q\"") })
        // The imported screen resizes with its masks and is hit where they put it.
        let window = scene.makeWindow()
        let button = window.subviews[0].subviews[0]
        #expect(window.hitTest(Point(x: 280, y: 450)) === button)
        window.frame = Rect(x: 0, y: 0, width: 480, height: 320)
        #expect(window.subviews[0].frame == Rect(x: 0, y: 270, width: 480, height: 50))
        #expect(abs(button.frame.minX - 260 * 430.0 / 270) < 1e-9)  // LM and RM share 160 as 260:10
        #expect(window.hitTest(Point(x: button.frame.midX, y: 290)) === button)
    }

    @Test func theCycriptFixtureResizes() throws {
        let scene = try SceneImporter.recursiveDescription(String(contentsOfFile: T.fixture("cycript-keywindow-truncated.txt"), encoding: .utf8)).scene
        let window = scene.makeWindow()
        window.frame = Rect(x: 0, y: 0, width: 480, height: 320)
        // Every W+H view of the chain follows the window.
        var v: View? = window.subviews.first
        var resized = 0
        while let u = v, u.autoresizingMask == [.flexibleWidth, .flexibleHeight] {
            #expect(u.frame.size == Size(width: 480, height: 320))
            resized += 1
            v = u.subviews.first
        }
        #expect(resized >= 4)
    }

    @Test func layoutKeysRoundTripAndPlaceViews() throws {
        let scene = try SceneFile(json: Data(Self.constrainedScene.utf8))
        #expect(try SceneFile(json: scene.jsonData()) == scene)
        let window = scene.makeWindow()
        #expect(window.safeAreaInsets == EdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        let screen = window.subviews[0]
        #expect(screen.layoutMargins == EdgeInsets(top: 8, left: 16, bottom: 8, right: 16))
        let header = screen.subviews[0]
        let button = screen.subviews[1]
        #expect(!header.translatesAutoresizingMaskIntoConstraints)
        #expect(header.frame == Rect(x: 0, y: 47, width: 390, height: 44))
        #expect(button.frame == Rect(x: 254, y: 758, width: 120, height: 44))
        // Rotated: the mask resizes the screen, the constraints place the rest.
        window.frame = Rect(x: 0, y: 0, width: 844, height: 390)
        window.safeAreaInsets = EdgeInsets(top: 0, left: 47, bottom: 21, right: 47)
        window.layoutIfNeeded()
        #expect(button.frame == Rect(x: 708, y: 317, width: 120, height: 44))
        #expect(window.hitTest(Point(x: 750, y: 330)) === button)
        // Captured back: margins and insets are kept (constraints are not read from views).
        let captured = SceneFile(view: window)
        #expect(captured.root.attributes["safeAreaInsets"] != nil)
        #expect(captured.root.children[0].attributes["layoutMargins"] != nil)
    }

    @Test func badLayoutKeysAreClearErrors() {
        func load(_ node: String) -> String {
            let json = """
                { "format": "hittest-scene", "version": 1, "root": { "id": "w", "frame": [0, 0, 10, 10], "children": [ \(node) ] } }
                """
            do {
                _ = try SceneFile(json: Data(json.utf8))
                return "loaded"
            } catch { return "\(error)" }
        }
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": ["width = 3"] }"#).contains("expected ==, <= or >="))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": ["top == 3"] }"#).contains("only width and height"))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": ["top == nobody.top"] }"#).contains("no node has the id \"nobody\""))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": ["top == superview.width"] }"#).contains("cannot be related"))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": ["width == 3 @0"] }"#).contains("priority"))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": [3] }"#).contains("array of strings"))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "layoutMargins": [1, 2] }"#).contains("4 numbers"))
        #expect(load(#"{ "id": "a", "frame": [0,0,1,1], "constraints": ["leading == superview.leading + 4", "width == 2*self.height - 1"] }"#) == "loaded")
    }

    @Test func theToolResizesWithSize() throws {
        let path = T.temp("layout.json")
        try Data(Self.constrainedScene.utf8).write(to: URL(fileURLWithPath: path))
        let points = T.temp("points.csv")
        try Data("x,y\n750,330\n300,780\n".utf8).write(to: URL(fileURLWithPath: points))
        let (status, portrait) = T.run(["query", path, points])
        #expect(status == 0)
        #expect(portrait.out.contains("300,780,button"))
        let (status2, landscape) = T.run(["query", path, points, "--size", "844x390"])
        #expect(status2 == 0)
        #expect(landscape.out.contains("750,330,button"))
        let png = T.temp("map.png")
        let (status3, rendered) = T.run(["render", path, "-o", png, "--size", "844x390"])
        #expect(status3 == 0)
        #expect(rendered.err.contains("(844x"))  // the legend adds height below
        let (status4, bad) = T.run(["audit", path, "--size", "844"])
        #expect(status4 == 2 && bad.err.contains("--size takes WIDTHxHEIGHT"))
    }
}
