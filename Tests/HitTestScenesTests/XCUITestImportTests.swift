import Foundation
import HitTestKit
import HitTestSampleScenes
import HitTestScenes
import Testing

/// The importer of XCUITest's element description (`print(app.debugDescription)`) on real
/// public text (Tests/Fixtures, sources in SOURCES.md) and on hostile input.
@Suite struct XCUITestImportTests {
    typealias T = ImporterTests

    /// The lines of the `Element subtree:` section that are elements (`Type, 0x…`), counted
    /// from the text itself.
    static func elementLines(_ text: String) -> [Substring] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        if let i = lines.firstIndex(where: { $0.contains("Element subtree:") }) { lines.removeFirst(i + 1) }
        if let end = lines.firstIndex(where: { $0.contains("Path to element:") || $0.contains("Query chain:") }) {
            lines.removeLast(lines.count - end)
        }
        return lines.filter { $0.contains(", 0x") }
    }

    @Test func aXamarinWindowFromAnAppiumIssue() throws {
        let text = try T.text("xcuitest-appium-13516-xamarin-table.txt")
        #expect(SceneImporter.detectFormat(text) == .xcuiTestDescription)
        let result = try SceneImporter.importScene(text)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let r = result.scene.root
        // Every element line is a node, in the same order.
        let lines = Self.elementLines(text)
        let nodes = T.walk(r)
        #expect(nodes.count == lines.count && lines.count > 10)
        for (line, (_, node)) in zip(lines, nodes) {
            let type = line.drop(while: { $0 == " " || $0 == "→" }).prefix(while: { $0 != "," && $0 != " " })
            #expect(node.className == "XCUIElementType\(type)", "\(line)")
        }
        #expect(r.className == "XCUIElementTypeWindow" && r.frame == Rect(x: 0, y: 0, width: 375, height: 667))
        // Ids: a unique identifier or label; "Profiles" is both the bar's identifier and the
        // title's label, so neither takes it.
        #expect(try T.node("Id_Home_15", in: r).className == "XCUIElementTypeTable")
        #expect(!nodes.contains { $0.node.id == "Profiles" })
        // Frames relative to the parent: the image at (93, 94) on screen in the cell at (0, 64).
        #expect(try T.node("Id_Home_6", in: r).frame == Rect(x: 93, y: 30, width: 80, height: 80))
        // Touches: the cell takes them (its image does not); the bar and its title do not.
        let window = result.scene.makeWindow()
        #expect(window.hitTest(Point(x: 20, y: 100))?.accessibilityIdentifier == "Cell-1")
        #expect(window.hitTest(Point(x: 133, y: 134))?.accessibilityIdentifier == "Cell-1")
        #expect(window.hitTest(Point(x: 100, y: 40)) == nil)
        #expect(try SceneFile(json: result.scene.jsonData()) == result.scene)
        // The same with CRLF and CR line ends.
        for end in ["\r\n", "\r"] {
            let other = try SceneImporter.importScene(text.replacingOccurrences(of: "\n", with: end))
            #expect(other.scene == result.scene)
        }
    }

    @Test func onlyTheElementSubtreeIsRead() throws {
        let text = try T.text("xcuitest-wda-40-uicatalog-other.txt")
        #expect(SceneImporter.detectFormat(text) == .xcuiTestDescription)
        let result = try SceneImporter.importScene(text)
        // The Path to element and Query chain sections list other elements: none is imported.
        #expect(T.walk(result.scene.root).count == 1)
        #expect(result.scene.root.className == "XCUIElementTypeOther" && result.scene.root.frame == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func labelsFlagsAndBadFrames() throws {
        let text = """
            Element subtree:
             →Window (Main), 0x1, {{0.0, 0.0}, {390.0, 844.0}}
                Button, 0x2, {{10.0, 10.0}, {44.0, 44.0}}, identifier: 'back', label: 'Back, 0x9, {{1, 2}, {3, 4}}', Disabled
                Cell, 0x3, {{0.0, 100.0}, {390.0, 44.0}}, label: 'What's new', Selected
                  Button, 0x4, {{nan, 0.0}, {20.0, 20.0}}, label: 'bad'
                    Switch, 0x5, {{300.0, 110.0}, {51.0, 31.0}}
                Button, 0x6, {{1e400, 0.0}, {20.0, 20.0}}
                Button, 0x7, {{0.0, 700.0}, {80.0, 4
            """
        let result = try SceneImporter.xcuiTestDescription(text)
        let r = result.scene.root
        let back = try T.node("back", in: r)
        #expect(back.interactive == false && back.frame == Rect(x: 10, y: 10, width: 44, height: 44))
        #expect(try T.node("What's new", in: r).frame == Rect(x: 0, y: 100, width: 390, height: 44))
        // The switch under the button with a NaN frame is attached to the cell.
        #expect(try T.node("What's new", in: r).children.map(\.className) == ["XCUIElementTypeSwitch"])
        #expect(try T.node("Switch-1", in: r).frame == Rect(x: 300, y: 10, width: 51, height: 31))
        #expect(result.warnings.count == 3, "\(result.warnings)")
        #expect(result.warnings.allSatisfy { $0.contains("unreadable frame") })
        #expect(result.warnings.map { $0.prefix(7) } == ["line 5:", "line 7:", "line 8:"])
    }

    @Test func aSecondTopLevelElementAndTextWithoutElements() throws {
        let text = """
            Element subtree:
             →Window, 0x1, {{0.0, 0.0}, {100.0, 100.0}}
                Button, 0x2, {{1.0, 1.0}, {10.0, 10.0}}
             Window, 0x3, {{0.0, 0.0}, {100.0, 100.0}}
                Button, 0x4, {{5.0, 5.0}, {10.0, 10.0}}
            Path to element:
            """
        let result = try SceneImporter.xcuiTestDescription(text)
        #expect(T.walk(result.scene.root).count == 2)
        // An application line without a frame (as XCUITest prints one): its children are the roots.
        let app = try SceneImporter.xcuiTestDescription("Element subtree:\n →Application, 0x1, pid: 4343, label: 'Demo'\n    Window (Main), 0x2, {{0.0, 0.0}, {390.0, 844.0}}\n")
        #expect(app.scene.root.className == "XCUIElementTypeWindow")
        #expect(app.warnings == ["line 2: Application has no frame; its children are attached to its parent"])
        #expect(result.warnings == ["line 4: Window is not inside the first element; skipped with what it holds"])
        #expect(throws: SceneError.self) { try SceneImporter.xcuiTestDescription("Element subtree:\nnothing here\n") }
        do {
            _ = try SceneImporter.importScene("Element subtree:\n Window, 0x1, {{nan, 0}, {1, 1}}\n")
            Issue.record("no error")
        } catch {
            #expect(error.warnings == ["line 2: Window has an unreadable frame; its children are attached to its parent"])
            #expect(error.description.contains("no element with a frame"))
            #expect(error.warnings.count == 1)
        }
    }

    /// Mangled copies of the real description (characters deleted, repeated or replaced by
    /// the ones its syntax uses): each imports to a valid scene or fails with an error; none
    /// traps.
    @Test func mangledDescriptionsImportOrFailCleanly() throws {
        let text = Array(try T.text("xcuitest-appium-13516-xamarin-table.txt"))
        let alphabet: [Character] = ["{", "}", ",", " ", "'", "\n", "\r", "→", "0", "x", "-", ".", "e", "9", ":", "\t"]
        var rng = SplitMix64(seed: 2026)
        var imported = 0
        for _ in 0..<1500 {
            var chars = text
            for _ in 0..<(1 + Int(rng.next() % 6)) {
                let i = Int(rng.next() % UInt64(chars.count))
                switch rng.next() % 3 {
                case 0: chars.remove(at: i)
                case 1: chars.insert(chars[i], at: i)
                default: chars[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                }
            }
            guard let result = try? SceneImporter.importScene(String(chars)) else { continue }
            try result.scene.validate()
            imported += 1
        }
        #expect(imported > 500)
    }

    /// Nesting is read with a stack: 3,000 levels (each two more spaces of indentation).
    @Test func aDeepTree() throws {
        var text = "Element subtree:\n"
        let depth = 3000
        for i in 0..<depth {
            text += String(repeating: " ", count: 2 * i + 1) + "Other, 0x\(i), {{0.0, 0.0}, {\(depth - i).0, 10.0}}\n"
        }
        let result = try SceneImporter.importScene(text)
        let nodes = T.walk(result.scene.root)
        #expect(nodes.count == depth && nodes.last?.depth == depth - 1)
        T.dismantle(result.scene.root)
    }
}
