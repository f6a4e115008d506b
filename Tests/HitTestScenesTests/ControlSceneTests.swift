import Foundation
@testable import HitTestCLI
@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
@testable import HitTestScenes
import HitTestTestSupport
import Testing

/// Scene keys for controls, buttons, scroll views and gesture recognizers; the importer's
/// kinds on real dumps; `hittest replay`.
@Suite struct ControlSceneTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static let sceneText = #"""
        {"format": "hittest-scene", "version": 1, "root": {"id": "window", "frame": [0, 0, 320, 480], "children": [
          {"id": "table", "kind": "scrollView", "frame": [0, 0, 320, 480], "contentOffset": [0, 40],
           "contentSize": [320, 2000], "contentInset": [10, 0, 20, 0], "bounces": false, "alwaysBounceHorizontal": true,
           "pagingEnabled": true, "decelerationRate": 0.99, "delaysContentTouches": false, "canCancelContentTouches": false,
           "scrollEnabled": true, "alwaysBounceVertical": true,
           "children": [
             {"id": "cell-0", "frame": [0, 0, 320, 50],
              "recognizers": [{"type": "tap", "numberOfTapsRequired": 2, "name": "double"},
                              {"type": "swipe", "direction": ["left", "up"], "cancelsTouchesInView": false},
                              {"type": "longPress", "minimumPressDuration": 0.8},
                              {"type": "pan", "maximumNumberOfTouches": 2},
                              {"type": "pinch"}, {"type": "rotation", "rotationThreshold": 0.2}],
              "children": [
                {"id": "button-0", "kind": "button", "frame": [250, 5, 60, 40], "selected": true},
                {"id": "switch-0", "kind": "control", "frame": [10, 5, 60, 40], "enabled": false, "highlighted": true}]}]}]}}
        """#

    @Test func keysBuildTheRightViewsAndRoundTrip() throws {
        let scene = try SceneFile(json: Data(Self.sceneText.utf8))
        let window = scene.makeWindow()
        let table = try #require(window.subviews[0] as? ScrollView)
        #expect(table.contentOffset == Point(x: 0, y: 40) && table.bounds.origin == Point(x: 0, y: 40))
        #expect(table.contentSize == Size(width: 320, height: 2000))
        #expect(table.contentInset == EdgeInsets(top: 10, left: 0, bottom: 20, right: 0))
        #expect(!table.bounces && table.alwaysBounceHorizontal && table.alwaysBounceVertical && table.isPagingEnabled)
        #expect(table.decelerationRate.rawValue == 0.99 && !table.delaysContentTouches && !table.canCancelContentTouches)
        let cell = table.subviews[0]
        let recognizers = try #require(cell.gestureRecognizers)
        #expect(recognizers.count == 6)
        let double = try #require(recognizers[0] as? TapGestureRecognizer)
        #expect(double.numberOfTapsRequired == 2 && double.name == "double")
        let swipe = try #require(recognizers[1] as? SwipeGestureRecognizer)
        #expect(swipe.direction == [.left, .up] && !swipe.cancelsTouchesInView)
        #expect((recognizers[2] as? LongPressGestureRecognizer)?.minimumPressDuration == 0.8)
        #expect((recognizers[3] as? PanGestureRecognizer)?.maximumNumberOfTouches == 2)
        #expect(recognizers[4] is PinchGestureRecognizer)
        #expect((recognizers[5] as? RotationGestureRecognizer)?.rotationThreshold == 0.2)
        let button = try #require(cell.subviews[0] as? Button)
        #expect(button.isSelected && button.isEnabled)
        let control = try #require(cell.subviews[1] as? Control)
        #expect(!(control is Button) && !control.isEnabled && control.isHighlighted)
        // Saved from the views and loaded again: the same scene (contentOffset saved as bounds).
        let captured = SceneFile(view: window)
        let again = try SceneFile(json: captured.jsonData())
        #expect(again == captured)
        #expect(again.root.children[0].bounds == Rect(x: 0, y: 40, width: 320, height: 480))
        #expect(again.root.children[0].kind == .scrollView)
        #expect(again.root.children[0].attributes["recognizers"] == nil)   // the scroll view's own are not saved
        #expect(again.root.children[0].children[0].attributes["recognizers"] == scene.root.children[0].children[0].attributes["recognizers"])
        #expect(again.root.children[0].children[0].children.map(\.kind) == [.button, .control])
        #expect(again == scene)
    }

    @Test func wrongKeysAreClearErrors() {
        func error(_ node: String) -> String {
            let text = #"{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0, 0, 10, 10], "children": [\#(node)]}}"#
            do {
                _ = try SceneFile(json: Data(text.utf8))
                return "loaded"
            } catch { return error.description }
        }
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "kind": "slider"}"#) == #"w/a: "kind" must be one of "control", "button", "scrollView", found "slider""#)
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "contentSize": [1, 2]}"#) == #"w/a: "contentSize" needs "kind": "scrollView""#)
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "enabled": false}"#) == #"w/a: "enabled" needs "kind": "button" or "control""#)
        #expect(error(#"{"id": "a", "kind": "scrollView", "frame": [0, 0, 1, 1], "contentSize": [1]}"#).hasPrefix(#"w/a: "contentSize" must be an array of 2 numbers"#))
        #expect(error(#"{"id": "a", "kind": "scrollView", "frame": [0, 0, 1, 1], "decelerationRate": 1}"#).hasPrefix(#"w/a: "decelerationRate" must be a number in (0, 0.9999]"#))
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "bounds": [0, 5, 1, 1], "contentOffset": [0, 6]}"#).contains("differs from the bounds origin"))
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "recognizers": [{"type": "drag"}]}"#).contains(#"a recognizer's "type" must be one of"#))
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "recognizers": [{"type": "tap", "direction": ["up"]}]}"#) == #"w/a: "recognizers": unknown key "direction" for a tap recognizer"#)
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "recognizers": [{"type": "tap", "numberOfTapsRequired": 1.5}]}"#).contains("must be an integer"))
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "recognizers": [{"type": "swipe", "direction": ["sideways"]}]}"#).contains("swipe \"direction\""))
        #expect(error(#"{"id": "a", "frame": [0, 0, 1, 1], "kind": "button", "enabled": false}"#) == "loaded")
    }

    // MARK: - The importer on real dumps

    func imported(_ name: String) throws -> SceneFile {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
        return try SceneImporter.importScene(text).scene
    }

    func nodes(_ scene: SceneFile) -> [SceneNode] {
        var out: [SceneNode] = []
        var stack = [scene.root]
        while let n = stack.popLast() {
            out.append(n)
            stack.append(contentsOf: n.children.reversed())
        }
        return out
    }

    @Test func importerMapsButtonsControlsAndScrollViewsOfRealDumps() throws {
        // The Sentry sample app (lldb): its UIButtons become buttons.
        let sentry = try imported("lldb-sentry-sample-app.txt")
        let buttons = nodes(sentry).filter { $0.kind == .button }
        #expect(buttons.count == nodes(sentry).filter { $0.className == "UIButton" }.count && buttons.count > 10)
        #expect(nodes(sentry).filter { $0.kind == .control }.map(\.className).contains("UITextField"))
        // Adyen's BLIK form: a UIScrollView subclass and a UIControl subclass, by baseClass.
        let blik = try imported("snapshot-adyen-blik-textfield.txt")
        let form = try #require(nodes(blik).first { $0.className == "Adyen.FormView (UIScrollView)" })
        #expect(form.kind == .scrollView)
        #expect(form.attributes["contentSize"] == .array([.number(390, text: ""), .number(203.66666666666666, text: "")]))
        let submit = try #require(nodes(blik).first { $0.className == "Adyen.SubmitButton (UIControl)" })
        #expect(submit.kind == .control)
        // swift-snapshot-testing's scrolled table: offset, size, adjusted inset, bouncing.
        let table = try #require(nodes(try imported("snapshot-pointfree-tableview-scrolled.txt")).first { $0.className == "UITableView" })
        #expect(table.kind == .scrollView && table.bounds?.origin == Point(x: 0, y: -20))
        #expect(table.attributes["contentSize"] == .array([.number(320, text: ""), .number(440, text: "")]))
        #expect(table.attributes["contentInset"] == .array([.number(20, text: ""), .number(0, text: ""), .number(0, text: ""), .number(0, text: "")]))
        #expect(table.attributes["alwaysBounceVertical"] == .bool(true))
        // Everything imported saves and loads.
        for scene in [sentry, blik] { #expect(try SceneFile(json: scene.jsonData()) == scene) }
    }

    @Test func kindRulesByClassName() {
        #expect(SceneKindRules.kind(className: "UIButton", baseClass: nil) == .button)
        #expect(SceneKindRules.kind(className: "App.CheckoutButton", baseClass: nil) == .button)
        #expect(SceneKindRules.kind(className: "Adyen.SubmitButton", baseClass: "UIControl") == .control)
        #expect(SceneKindRules.kind(className: "AAUIButton", baseClass: "UIButton") == .button)
        #expect(SceneKindRules.kind(className: "UISwitch", baseClass: nil) == .control)
        #expect(SceneKindRules.kind(className: "xxTableView", baseClass: "UITableView") == .scrollView)
        #expect(SceneKindRules.kind(className: "UICollectionView", baseClass: nil) == .scrollView)
        #expect(SceneKindRules.kind(className: "MyFeedCollectionView", baseClass: nil) == .scrollView)
        #expect(SceneKindRules.kind(className: "UITableViewCell", baseClass: nil) == nil)
        #expect(SceneKindRules.kind(className: "UIButtonLabel", baseClass: nil) == nil)
        #expect(SceneKindRules.kind(className: "_UIScrollViewScrollIndicator", baseClass: nil) == nil)
        #expect(SceneKindRules.kind(className: "_UIButtonBarButton", baseClass: nil) == .control)
    }

    /// A dump taken from a table (`po tableView.recursiveDescription()`): the root of a scene is
    /// the window, so the table goes into a window of its own [ours]. Every point reaches what
    /// it reached with the table as the root (its kind dropped), the window only where nothing
    /// else is hit, and a drag scrolls the table.
    @Test func aDumpOfATableIsPutIntoAWindowAndScrolls() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("snapshot-pointfree-tableview-scrolled.txt"), encoding: .utf8)
        let result = try SceneImporter.importScene(text)
        let scene = result.scene
        #expect(scene.root.id == "window" && scene.root.kind == nil && scene.root.children.count == 1)
        #expect(result.warnings.contains { $0.contains("UITableView-1 (scrollView)") && $0.contains("\"window\"") })
        let table = scene.root.children[0]
        #expect(table.id == "UITableView-1" && table.kind == .scrollView)
        #expect(table.frame == Rect(x: 0, y: 0, width: scene.root.frame.width, height: scene.root.frame.height))
        #expect(try SceneFile(json: scene.jsonData()) == scene)  // a valid scene: it saves and loads
        // The table as the root, as before: the window's frame, the table's kind dropped.
        var unwrappedRoot = table
        unwrappedRoot.frame = scene.root.frame
        unwrappedRoot.kind = nil
        for key in ["contentSize", "contentInset", "alwaysBounceVertical"] { unwrappedRoot.attributes[key] = nil }
        let unwrapped = SceneFile(root: unwrappedRoot).makeWindow()
        let wrapped = scene.makeWindow()
        var compared = 0
        for y in stride(from: -10.0, through: 580, by: 3.5) {
            for x in stride(from: -10.0, through: 330, by: 7.25) {
                let p = Point(x: x, y: y)
                // A window's hitTest takes points in its bounds: the table's, when it was the root.
                let origin = unwrappedRoot.frame.origin, content = (table.bounds ?? table.frame).origin
                let before = unwrapped.hitTest(Point(x: x - origin.x + content.x, y: y - origin.y + content.y))?.accessibilityIdentifier
                let after = wrapped.hitTest(p)?.accessibilityIdentifier
                #expect(before == after, "at \(p)")
                compared += 1
            }
        }
        #expect(compared > 5000)
        // A drag up by 100 pt scrolls the table (it was dropped with the table as the root).
        let app = Application()
        app.addWindow(wrapped)
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,100,300
            0.02,1,moved,100,280
            0.04,1,moved,100,240
            0.06,1,moved,100,200
            0.08,1,ended,100,200
            """)
        let log = app.replay(script)
        #expect(log.contains { $0.kind == .scrolled && $0.responderName == "UITableView-1" })
    }

    /// A live scroll view saved on its own: the scene puts it into a window (a file whose root had
    /// the kind would be refused on loading), and loading it gives the scroll view back.
    @Test func aScrollViewSavedAsTheRootLoadsAsAScrollViewInAWindow() throws {
        let list = ScrollView(frame: Rect(x: 0, y: 20, width: 320, height: 460))
        list.accessibilityIdentifier = "list"
        list.contentSize = Size(width: 320, height: 2000)
        list.contentOffset = Point(x: 0, y: 120)
        let row = View(frame: Rect(x: 0, y: 150, width: 320, height: 44))
        row.accessibilityIdentifier = "row"
        list.addSubview(row)
        let scene = SceneFile(view: list)
        #expect(scene.root.id == "window" && scene.root.frame == list.frame && scene.root.children.map(\.id) == ["list"])
        let loaded = try SceneFile(json: scene.jsonData())
        #expect(loaded == scene)
        let window = loaded.makeWindow()
        let view = try #require(window.subviews.first as? ScrollView)
        #expect(view.contentSize == list.contentSize && view.contentOffset == list.contentOffset)
        // Screen (10, 20 + 40) is the list's content y 160: the row.
        #expect(window.hitTest(Point(x: 10, y: 40))?.accessibilityIdentifier == "row")
    }

    /// A real screen replayed: Adyen's issuer list (a UITableView, which bounces vertically
    /// though its three rows fit) follows a drag by half (S6), snaps back to its dumped offset,
    /// and then a tap reaches the cell's stack view under the finger, at the lift (S2).
    @Test func importedIssuerListBouncesUnderADragThenATapReachesTheCell() throws {
        let scene = try imported("snapshot-adyen-issuerlist-searchbar.txt")
        let window = scene.makeWindow()
        let app = Application()
        app.addWindow(window)
        var views: [View] = []
        var stack: [View] = [window]
        while let v = stack.popLast() {
            views.append(v)
            stack.append(contentsOf: v.subviews)
        }
        let table = try #require(views.first { $0 is ScrollView } as? ScrollView)
        #expect(table.debugName == "UITableView-1" && table.alwaysBounceVertical)
        #expect(table.contentSize == Size(width: 390, height: 165.0000006357829))
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,200,300
            0.05,1,moved,200,320
            0.10,1,moved,200,380
            0.50,1,ended,200,380
            1.00,2,began,100,128
            1.05,2,ended,100,128
            """)
        let log = app.replay(script)
        let offsets = log.filter { $0.kind == .scrolled && $0.timestamp <= 0.5 }.map { $0.detail ?? "" }
        #expect(offsets == ["contentOffset (0.0, -30.0)"])
        #expect(table.contentOffset == Point(x: 0, y: 0))
        let delivered = log.filter { $0.kind == .delivered }.map { "\($0.timestamp) \($0.phase!.rawValue) \($0.responderName)" }
        #expect(delivered == ["1.05 began UIStackView-4", "1.05 ended UIStackView-4"])
    }

    // MARK: - hittest replay

    @Test func replayPrintsTheLogOfAScrollAndATap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenePath = dir.appendingPathComponent("scene.json").path
        try Data(#"""
            {"format": "hittest-scene", "version": 1, "root": {"id": "window", "frame": [0, 0, 320, 480], "children": [
              {"id": "table", "kind": "scrollView", "frame": [0, 0, 320, 480], "contentSize": [320, 2000], "children": [
                {"id": "cell-3", "frame": [0, 150, 320, 50], "children": [{"id": "button-3", "kind": "button", "frame": [250, 5, 60, 40]}]}]}]}}
            """#.utf8).write(to: URL(fileURLWithPath: scenePath))
        let scriptPath = dir.appendingPathComponent("script.csv").path
        try Data("""
            time,id,phase,x,y
            0.00,1,began,100,400
            0.05,1,moved,100,380
            0.10,1,moved,100,300
            0.50,1,ended,100,300
            1.00,2,began,270,95
            1.05,2,ended,270,95
            """.utf8).write(to: URL(fileURLWithPath: scriptPath))
        let out = OutputBox()
        let status = HitTestCLI.run(["replay", scenePath, scriptPath, "--only", "scrolled,delivered,controlEvent"], output: out.output)
        #expect(status == 0)
        #expect(out.lines == [
            "0.1 touch 1 scrolled table: contentOffset (0.0, 80.0)",
            "1.05 touch 2 began delivered button-3",
            "1.05 touch 2 controlEvent button-3: touchDown",
            "1.05 touch 2 ended delivered button-3",
            "1.05 touch 2 controlEvent button-3: touchUpInside|primaryActionTriggered",
        ])
        let help = OutputBox()
        #expect(HitTestCLI.run(["replay", "--help"], output: help.output) == 0)
        #expect(help.lines.first?.hasPrefix("usage: hittest replay SCENE SCRIPT") == true)
        let bad = OutputBox()
        try Data("time,id,phase,x,y\n0,1,begun,1,1\n".utf8).write(to: URL(fileURLWithPath: scriptPath))
        #expect(HitTestCLI.run(["replay", scenePath, scriptPath], output: bad.output) == 2)
        #expect(bad.errors.first?.contains("line 2") == true)
        #expect(HitTestCLI.run(["replay", scenePath, scriptPath, "--only", "nonsense"], output: bad.output) == 2)
    }
}

extension ControlSceneTests {
    /// The README's replay example (`Examples/replay`): the scene file and the script give the
    /// log committed beside them, line for line.
    @Test func readmeReplayExamplePrintsItsCommittedLog() throws {
        let dir = Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/replay")
        let expected = try String(contentsOf: dir.appendingPathComponent("expected-log.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let out = OutputBox()
        let status = HitTestCLI.run(
            ["replay", dir.appendingPathComponent("table.json").path, dir.appendingPathComponent("drag-then-tap.csv").path],
            output: out.output)
        #expect(status == 0)
        #expect(out.lines == expected)
        #expect(expected.contains("0.15 touch 1 scrolled table: contentOffset (0.0, 120.0)"))
        #expect(expected.contains("2.05 touch 3 controlEvent button-7: touchUpInside|primaryActionTriggered"))
    }
}

/// Collects what a CLI run prints.
final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storedLines: [String] = []
    private var storedErrors: [String] = []
    var lines: [String] { lock.withLock { storedLines } }
    var errors: [String] { lock.withLock { storedErrors } }
    var output: HitTestCLI.Output {
        HitTestCLI.Output(
            out: { [self] s in lock.withLock { storedLines.append(contentsOf: s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)) } },
            err: { [self] s in lock.withLock { storedErrors.append(s) } },
            input: { Data() })
    }
}
