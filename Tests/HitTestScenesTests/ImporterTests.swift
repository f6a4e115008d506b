import Foundation
import HitTestKit
import HitTestTestSupport
import HitTestScenes
import Testing

/// The importers on real public dumps (Tests/Fixtures, sources in SOURCES.md) and on every
/// variant seen in the wild (issue 10, items 1–7 and 10).
@Suite struct ImporterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    /// Every node, pre-order, with its depth (iterative).
    static func walk(_ root: SceneNode) -> [(depth: Int, node: SceneNode)] {
        var out: [(Int, SceneNode)] = []
        var stack = [(0, root)]
        while let (d, n) = stack.popLast() {
            out.append((d, n))
            stack.append(contentsOf: n.children.reversed().map { (d + 1, $0) })
        }
        return out
    }

    static func node(_ id: String, in root: SceneNode) throws -> SceneNode {
        try #require(walk(root).first { $0.node.id == id }?.node, "no node \(id)")
    }

    static func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance && abs(a.width - b.width) <= tolerance
            && abs(a.height - b.height) <= tolerance
    }

    /// Releases a deep tree level by level, so that no destructor recurses per level.
    static func dismantle(_ root: consuming SceneNode) {
        var pending = [root]
        while var n = pending.popLast() {
            pending.append(contentsOf: n.children)
            n.children = []
        }
    }

    /// Number of lines that hold a view description: `<` after the indentation, not a layer.
    static func viewLines(_ text: String) -> Int {
        text.split(whereSeparator: \.isNewline).filter { line in
            guard let open = line.firstIndex(of: "<") else { return false }
            return !line[open...].hasPrefix("<CALayer") && line.contains("frame = (")
        }.count
    }

    // MARK: - Real snapshot-testing dumps (no addresses)

    @Test func adyenBLIKFormWithTextFieldAndMangledNames() throws {
        let text = try Self.text("snapshot-adyen-blik-textfield.txt")
        #expect(!text.contains("0x"))  // swift-snapshot-testing strips addresses
        let result = try SceneImporter.recursiveDescription(text)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let r = result.scene.root
        #expect(Self.walk(r).count == Self.viewLines(text) && Self.walk(r).count == 45)
        #expect(r.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        let form = try Self.node("Adyen.FormView-1", in: r)
        #expect(form.className == "Adyen.FormView (UIScrollView)" && form.clipsToBounds)
        #expect(form.frame == Rect(x: 0, y: 0, width: 390, height: 763))
        let field = try Self.node("AdyTextField-1", in: r)
        #expect(field.className == "AdyTextField (UITextField)" && field.interactive)
        #expect(field.frame == Rect(x: 0, y: 0, width: 358, height: 23) && field.children.count == 2)
        // Mangled nested and file-private Swift classes get readable names.
        let background = try Self.node("Adyen.SubmitButton.BackgroundView-1", in: r)
        #expect(background.frame == Rect(x: 0, y: 0, width: 358, height: 50) && background.clipsToBounds && !background.interactive)
        let container = try Self.node("Adyen.FormContainerItem.FormContainerView-1", in: r)
        #expect(container.frame == Rect(x: 0, y: 8, width: 390, height: 36.3333))
        let button = try Self.node("Adyen.SubmitButton-1", in: r)
        #expect(button.className == "Adyen.SubmitButton (UIControl)" && button.frame == Rect(x: 16, y: 8, width: 358, height: 50))
        // `animations = { contents=<…>; …; }` holds `;`: the fields after it are still read.
        let spinnerImage = try #require(try Self.node("UIActivityIndicatorView-1", in: r).children.first)
        #expect(spinnerImage.frame == Rect(x: 0, y: 0, width: 20, height: 20) && !spinnerImage.interactive)
        let hint = Self.walk(r).map(\.node).filter { $0.className == "UILabel" && $0.hidden }
        #expect(hint.count == 1 && hint[0].alpha == 0 && hint[0].frame == Rect(x: 16, y: 53.3333, width: 358, height: 0))
        // A touch on the pay button: the background and the label do not take touches, the button does.
        let window = result.scene.makeWindow()
        #expect(window.hitTest(Point(x: 100, y: 47 + 121.667 + 8 + 10))?.accessibilityIdentifier == "Adyen.SubmitButton-1")
    }

    @Test func adyenIssuerListWithSearchBarAndNestedDescription() throws {
        let text = try Self.text("snapshot-adyen-issuerlist-searchbar.txt")
        let result = try SceneImporter.recursiveDescription(text)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let r = result.scene.root
        #expect(Self.walk(r).count == 48 && Self.walk(r).count == Self.viewLines(text))
        // `background = <_UITextFieldSystemBackgroundProvider: backgroundView=<…; frame = (0 0; …);
        // userInteractionEnabled = NO; …>>` is a value: its frame and flags are not the field's.
        let field = try Self.node("UISearchBarTextField-1", in: r)
        #expect(field.frame == Rect(x: 8, y: 10, width: 358, height: 34.3333) && field.interactive)
        #expect(field.children.map(\.className) == ["_UISearchBarSearchFieldBackgroundView", "UIImageView", "UISearchBarTextFieldLabel", "_UITextLayoutCanvasView"])
        #expect(try Self.node("UISearchBar-1", in: r).frame == Rect(x: 8, y: 54, width: 374, height: 54.3333))
        // `contentOffset: {0, 0}` then `dataSource: <…>` after `layer = <CALayer>`.
        let table = try Self.node("UITableView-1", in: r)
        #expect(table.frame == Rect(x: 0, y: 108.333, width: 390, height: 735.667))
        #expect(table.bounds == Rect(x: 0, y: 0, width: 390, height: 735.667) && table.clipsToBounds)
        let cells = table.children.filter { $0.className == "Adyen.ListCell (UITableViewCell)" }
        #expect(cells.map(\.frame.minY) == [96.6667, 48.3333, 0])
        #expect(try Self.node("Adyen.NetworkImageView-1", in: r).frame == Rect(x: 0, y: 11.3333, width: 40, height: 26))
        let window = result.scene.makeWindow()
        let hit = try #require(window.hitTest(Point(x: 30, y: 108.333 + 20)))
        let cell = try #require(Self.view("Adyen.ListCell-3", in: window))
        #expect(hit.isDescendant(of: cell))
        #expect(window.hitTest(Point(x: 100, y: 54 + 20))?.accessibilityIdentifier == "_UITextLayoutCanvasView-1")
    }

    @Test func scrolledTableViewFromSnapshotTesting() throws {
        let text = try Self.text("snapshot-pointfree-tableview-scrolled.txt")
        let result = try SceneImporter.recursiveDescription(text)
        // The table goes into a window of its own (the root of a scene is the window).
        #expect(result.warnings == ["the first view, UITableView-1 (scrollView), is put into a window of its own, \"window\": a scene's root is the window"])
        #expect(result.scene.root.id == "window" && result.scene.root.frame == Rect(x: 0, y: 0, width: 320, height: 568))
        let r = try #require(result.scene.root.children.first)
        #expect(Self.walk(r).count == 53 && Self.walk(r).count == Self.viewLines(text))
        #expect(r.className == "UITableView" && r.frame == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(r.bounds == Rect(x: 0, y: -20, width: 320, height: 568))  // contentOffset: {0, -20}
        let cells = r.children.filter { $0.className == "UITableViewCell" }
        #expect(cells.count == 10 && cells.map(\.frame.minY) == stride(from: 396.0, through: 0, by: -44).map { $0 })
        #expect(r.children.last?.frame == Rect(x: 6, y: 542.5, width: 308, height: 2.5) && r.children.last?.alpha == 0)
        // Screen y 30 is content y 10: cell "0"; its label does not take touches.
        let window = result.scene.makeWindow()
        #expect(window.hitTest(Point(x: 100, y: 30))?.accessibilityIdentifier == "UITableViewCellContentView-10")
        #expect(window.hitTest(Point(x: 100, y: 70))?.accessibilityIdentifier == "UITableViewCellContentView-9")
        #expect(window.hitTest(Point(x: 100, y: 10))?.accessibilityIdentifier == "UITableView-1")
        #expect(window.hitTest(Point(x: 100, y: -10))?.accessibilityIdentifier == nil)
    }

    @Test func apostropheInTextKeepsTheFieldsAfterIt() throws {
        let text = try Self.text("snapshot-pointfree-traits-apostrophe.txt")
        #expect(text.contains("text = 'What's'; userInteractionEnabled = NO"))
        let r = try SceneImporter.recursiveDescription(text).scene.root
        #expect(r.children.count == 4 && r.frame == Rect(x: 0, y: 0, width: 375, height: 812))
        #expect(r.children.allSatisfy { !$0.interactive })
        #expect(r.children[0].frame == Rect(x: 161.333, y: 44, width: 52.6667, height: 19.3333))
        #expect(r.children[3].frame == Rect(x: 184, y: 761, width: 7.33333, height: 17))
    }

    // MARK: - Real lldb dumps (with addresses)

    @Test func rotatedCoverFromLLDB() throws {
        let r = try SceneImporter.recursiveDescription(try Self.text("lldb-sentry-rotated-cover.txt")).scene.root
        #expect(r.children.count == 2 && r.children[0].frame == Rect(x: 20, y: 20, width: 40, height: 40))
        let cover = r.children[1]
        let angle = Double.pi / 8
        #expect(abs(cover.transform.a - cos(angle)) < 1e-12 && abs(cover.transform.b - sin(angle)) < 1e-12)
        // The dump's frame (-15.3281 -15.3281; 130.656 130.656) is the rotated bounding box of the 100 × 100 view.
        #expect(Self.close(cover.frame, Rect(x: 0, y: 0, width: 100, height: 100), 1e-3))
        let window = SceneFile(root: r).makeWindow()
        #expect(window.hitTest(Point(x: 30, y: 30))?.accessibilityIdentifier == "UIView-2")
        #expect(window.hitTest(Point(x: 1, y: 1))?.accessibilityIdentifier == "UIView-1")  // outside the rotated square
        #expect(window.hitTest(Point(x: 50, y: -10))?.accessibilityIdentifier == nil)
    }

    @Test func scaledViewRecoversItsFrame() throws {
        // The shape of a remote view controller's host view (iOS 6 mail sheet), scaled by 0.5
        // with UIKit's `-0` entries: the dumped frame is the scaled box.
        let text = """
            <_UISizeTrackingView: 0x1e05c030; frame = (0 0; 320 460); clipsToBounds = YES; autoresize = W+H; layer = <CALayer: 0x1e05c110>>
               | <_UIRemoteView: 0x1e05c300; frame = (0 0; 320 480); transform = [0.5, -0, 0, 0.5, -0, 0]; userInteractionEnabled = NO; layer = <CALayerHost: 0x1e05c460>>
            """
        let remote = try #require(try SceneImporter.recursiveDescription(text).scene.root.children.first)
        #expect(remote.transform == AffineTransform(a: 0.5, b: 0, c: 0, d: 0.5, tx: 0, ty: 0))
        #expect(remote.frame == Rect(x: -160, y: -240, width: 640, height: 960) && !remote.interactive)
        let window = SceneFile(root: SceneNode(id: "w", frame: Rect(x: 0, y: 0, width: 320, height: 460), children: [remote])).makeWindow()
        #expect(window.subviews[0].frame == Rect(x: 0, y: 0, width: 320, height: 480))
    }

    @Test func extremeNumbersNeverTrap() throws {
        let text = """
            <UIView; frame = (0 0; 100 100)>
               | <UIView; frame = (1.79e308 0; 1e300 10); transform = [2, 0, 0, 2, 0, 0]>
               | <UIView; frame = (0 0; 10 10); transform = [1e300, 0, 0, 1e300, 0, 0]>
               | <UIView; frame = (1e309 0; 10 10)>
               | <UIView; frame = (nan 0; 10 10)>
               | <UIView; frame = (0 0; 10 10); alpha = nan; contentOffset: {inf, 0}; transform = [1, 0, 0, 1, 1e400, 0]>
            """
        let result = try SceneImporter.recursiveDescription(text)
        let kids = result.scene.root.children
        #expect(kids.count == 3 && kids.allSatisfy { $0.transform.isIdentity })
        #expect(kids[0].frame == Rect(x: 1.79e308, y: 0, width: 1e300, height: 10))
        #expect(kids[2].alpha == 1 && kids[2].bounds == nil)
        #expect(result.warnings.count == 4, "\(result.warnings)")
    }

    @Test func sentrySampleAppFromLLDB() throws {
        let text = try Self.text("lldb-sentry-sample-app.txt")
        let result = try SceneImporter.recursiveDescription(text)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let r = result.scene.root
        #expect(Self.walk(r).count == 96 && Self.walk(r).count == Self.viewLines(text))
        #expect(r.id == "UIWindow-1" && r.frame == Rect(x: 0, y: 0, width: 375, height: 667))
        // `animations = { position=<CASpringAnimation: 0x…>; }` before `layer`: read past it.
        let sliding = try Self.node("UIView-1", in: r)
        #expect(sliding.frame == Rect(x: -112, y: 0, width: 375, height: 667) && !sliding.interactive)
        let bar = try Self.node("UINavigationBar-1", in: r)
        #expect(bar.frame == Rect(x: 0, y: 20, width: 375, height: 44) && !bar.interactive)
        #expect(try Self.node("UIToolbar-1", in: r).hidden)
        #expect(try Self.node("UITextField-1", in: r).frame == Rect(x: 8, y: 52.5, width: 343, height: 30))
        #expect(try Self.node("UIStackView-5", in: r).frame == Rect(x: 0, y: 363, width: 359, height: 222.5))
        #expect(try Self.node("_UINavigationBarLargeTitleView-1", in: r).hidden)
    }

    // MARK: - Page sources

    @Test func pageSourceLinksAndButtonsAreHittable() throws {
        let text = try Self.text("appium-ios-settings-keyboards-links.xml")
        let result = try SceneImporter.pageSource(text)
        let r = result.scene.root
        #expect(Self.walk(r).count == 93 && r.id == "Settings" && r.frame == Rect(x: 0, y: 0, width: 390, height: 844))
        let window = result.scene.makeWindow()
        // The back button sits under full-screen containers listed after it: they pass touches through.
        #expect(window.hitTest(Point(x: 40, y: 60))?.accessibilityIdentifier == "General")
        // The link: the inner link inside the text view, and the outer link beside it.
        let inner = window.hitTest(Point(x: 100, y: 540))
        #expect(inner?.accessibilityIdentifier == "Link-2")
        #expect(window.hitTest(Point(x: 300, y: 540))?.accessibilityIdentifier == "Link-1")
        // A cell's label does not take the touch: the cell does; its switch takes its own.
        #expect(window.hitTest(Point(x: 50, y: 148))?.accessibilityIdentifier == "Cell-1")
        #expect(window.hitTest(Point(x: 340, y: 370))?.accessibilityIdentifier == "Switch-1")
        let table = try Self.node("Table-1", in: r)
        #expect(table.passesTouchesThrough && table.children.count == 24 && table.children.filter { $0.className == "XCUIElementTypeCell" }.count == 17)
        let link = try Self.node("Link-1", in: r)
        #expect(!link.passesTouchesThrough && link.frame == Rect(x: 20, y: 0, width: 350, height: 33))
        #expect(try Self.node("Link-2", in: r).frame == Rect(x: 0, y: 0, width: 178, height: 17))
        // Hidden rows (visible="false") are hidden; their label frames are kept as dumped.
        #expect(try Self.node("Period shortcut", in: r).hidden)
        #expect(PageSourceTouchRule.isTouchTarget("XCUIElementTypeLink") && !PageSourceTouchRule.isTouchTarget("XCUIElementTypeOther"))
    }

    @Test func pageSourceExtremeNumbersStayFinite() throws {
        let xml = """
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" x="-1.7e308" y="0" width="10" height="10">
            <XCUIElementTypeButton type="XCUIElementTypeButton" x="1.7e308" y="0" width="1" height="1"/>
            <XCUIElementTypeButton type="XCUIElementTypeButton" x="1e309" y="0" width="1" height="1"/>
            <XCUIElementTypeButton type="XCUIElementTypeButton" x="NaN" y="0" width="1" height="1"/>
            </XCUIElementTypeApplication></AppiumAUT>
            """
        // The application's own x is beyond ±1e300: it has no frame, so there is nothing to import.
        #expect(throws: SceneError.self) { try SceneImporter.pageSource(xml) }
        let result = try SceneImporter.pageSource(xml.replacingOccurrences(of: "x=\"-1.7e308\"", with: "x=\"-1e300\""))
        let frames = Self.walk(result.scene.root).map(\.node.frame)
        #expect(frames.allSatisfy { $0.minX.isFinite && $0.width.isFinite } && frames.count == 1)
        #expect(result.warnings.count == 3)
    }

    @Test func pageSourceEntitiesCommentsAndSelfClosingTags() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE AppiumAUT>
            <!-- a comment with <tags> -->
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="A &amp; B" x="0" y="0" width="100" height="100">
              <XCUIElementTypeButton type='XCUIElementTypeButton' name="Say &quot;hi&quot; &#x263A;" label="x&#10;y" x="10" y="10" width="20" height="20"/>
              <XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="0" width="100" height="100"><![CDATA[ <not a tag> ]]></XCUIElementTypeOther>
            </XCUIElementTypeApplication></AppiumAUT>
            """
        let r = try SceneImporter.pageSource(xml).scene.root
        #expect(r.id == "A & B" && r.children.map(\.id) == ["Say \"hi\" \u{263A}", "Other-1"])
        let window = SceneFile(root: r).makeWindow()
        // The Other leaf is on top and not a container: it takes the touch.
        #expect(window.hitTest(Point(x: 15, y: 15))?.accessibilityIdentifier == "Other-1")
    }

    // MARK: - recursiveDescription variants (issue 10, items 1–3)

    @Test func addressLessDumpWithLaterColons() throws {
        let text = """
            <UIScrollView; frame = (0 0; 100 200); clipsToBounds = YES; layer = <CALayer>; contentOffset: {0, -20}; contentSize: {100, 400}>
               | <UIView; frame = (10 20; 30 40); background = <_UITextFieldSystemBackgroundProvider: textfield=<UITextField>>; layer = <CALayer>>
            """
        let result = try SceneImporter.recursiveDescription(text)
        let r = try #require(result.scene.root.children.first)  // the scroll view, in a window of its own
        #expect(r.className == "UIScrollView" && r.bounds == Rect(x: 0, y: -20, width: 100, height: 200))
        #expect(r.children.count == 1 && r.children[0].className == "UIView" && r.children[0].frame == Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(result.warnings.count == 1 && result.warnings[0].hasPrefix("the first view, UIScrollView-1 (scrollView)"))
    }

    @Test(arguments: [
        ("<Adyen.ListCell; baseClass = UITableViewCell; frame = (0 0; 390 48)>", "Adyen.ListCell (UITableViewCell)"),
        ("<Adyen.ListCell: 0x7f8; baseClass = UITableViewCell; frame = (0 0; 390 48); layer = <CALayer: 0x6>>", "Adyen.ListCell (UITableViewCell)"),
        ("<_TtCC5Adyen12SubmitButton14BackgroundView; frame = (0 0; 390 48)>", "Adyen.SubmitButton.BackgroundView"),
        ("<_TtC5Adyen8ListCell: 0x1; frame = (0 0; 390 48)>", "Adyen.ListCell"),
        ("<_TtCC5Adyen17FormContainerItemP33_6CC626EA3D8ECC5BCCC946E678B5BDA817FormContainerView; frame = (0 0; 390 48)>", "Adyen.FormContainerItem.FormContainerView"),
        ("<_TtGC7SwiftUI14_UIHostingViewVS_7AnyView_: 0x7f9; frame = (0 0; 390 48)>", "_TtGC7SwiftUI14_UIHostingViewVS_7AnyView_"),
        ("<_TtC5Adyen99Short; frame = (0 0; 390 48)>", "_TtC5Adyen99Short"),
        ("<SBHomeScreenWindow: 0x865c80000; HomeScreen-0x865c80000-5; baseClass = UIWindow; frame = (0 0; 390 48)>", "SBHomeScreenWindow (UIWindow)"),
        (
            "<SwiftUI._UIHostingView<SwiftUI.ModifiedContent<SwiftUI.AnyView, SwiftUI.RootModifier>>: 0x7f91581066f0; frame = (0 0; 390 48); autoresize = W+H; layer = <CALayer: 0x6000035073c0>>",
            "SwiftUI._UIHostingView<SwiftUI.ModifiedContent<SwiftUI.AnyView, SwiftUI.RootModifier>>"
        ),
    ])
    func classNames(line: String, expected: String) throws {
        let r = try SceneImporter.recursiveDescription(line).scene.root
        #expect(r.className == expected && r.frame == Rect(x: 0, y: 0, width: 390, height: 48))
    }

    @Test(arguments: [
        // Apostrophes inside a quoted text.
        ("text = 'What's new'; userInteractionEnabled = NO; tag = 3", false, 3),
        // `;`, `=`, `<`, `>` and a frame inside quotes.
        ("text = 'a; b = c <d> frame = (9 9; 9 9)'; userInteractionEnabled = NO; tag = 4", false, 4),
        ("placeholder = \"x; y\"; tag = 5", true, 5),
        // A nested second view description with its own frame and flags.
        ("background = <Provider: view=<Inner; frame = (9 9; 9 9); userInteractionEnabled = NO; tag = 8>>; tag = 6", true, 6),
        ("animations = { position=<CASpringAnimation: 0x6>; opacity=<CABasicAnimation: 0x7>; }; userInteractionEnabled = NO; tag = 7", false, 7),
        ("text = ''; tag = 9", true, 9),
        ("text = 'It''s'; tag = 10", true, 10),
    ])
    func valuesThatHoldSeparators(fields: String, interactive: Bool, tag: Int) throws {
        let line = "<UILabel: 0x1; frame = (1 2; 3 4); \(fields); layer = <_UILabelLayer: 0x2>>"
        let r = try SceneImporter.recursiveDescription(line).scene.root
        #expect(r.frame == Rect(x: 1, y: 2, width: 3, height: 4) && r.interactive == interactive && r.tag == tag)
    }

    @Test func textsOverSeveralLinesAndWrappedDescriptions() throws {
        let text = """
            <UIView: 0x1; frame = (0 0; 320 480); layer = <CALayer: 0x2>>
               | <UITextView: 0x3; frame = (0 132; 320 284); text = '

            Sent from my iPhone'; hidden = YES; layer = <CALayer: 0x4>>
               | <UIButton: 0x5; frame = (5 7; 60 30);
               opaque = NO; tag = 2; layer = <CALayer: 0x6>>
            """
        let result = try SceneImporter.recursiveDescription(text)
        let r = result.scene.root
        #expect(r.children.count == 2 && result.warnings.isEmpty, "\(result.warnings)")
        #expect(r.children[0].hidden && r.children[0].frame == Rect(x: 0, y: 132, width: 320, height: 284))
        #expect(r.children[1].tag == 2 && r.children[1].frame == Rect(x: 5, y: 7, width: 60, height: 30))
    }

    @Test func escapedLineBreaksOfAQuotedDump() throws {
        let text = #"cy# UIApp.keyWindow.recursiveDescription().toString()"# + "\n"
            + #""<UIWindow: 0x1; frame = (0 0; 320 480); layer = <UIWindowLayer: 0x2>>\n   | <UIView: 0x3; frame = (0 20; 320 460); layer = <CALayer: 0x4>>\n   |    | <UIButton: 0x5; frame = (10 10; 50 30); layer = <CALayer: 0x6>>""#
        let result = try SceneImporter.recursiveDescription(text)
        #expect(Self.walk(result.scene.root).count == 3)
        #expect(result.scene.root.children[0].children[0].frame == Rect(x: 10, y: 10, width: 50, height: 30))
        #expect(result.warnings.first?.hasPrefix("the dump is a quoted string") == true)
    }

    @Test func unclosedDescriptionWarnsAndKeepsTheFrame() throws {
        let text = "<UIView; frame = (0 0; 10 10)>\n   | <UIView; frame = (1 1; 5 5); layer = <CALayer\n   | <UIView; frame = (2 2; 3 3)>"
        let result = try SceneImporter.recursiveDescription(text)
        #expect(result.scene.root.children.map(\.frame) == [Rect(x: 1, y: 1, width: 5, height: 5), Rect(x: 2, y: 2, width: 3, height: 3)])
        #expect(result.warnings.count == 1 && result.warnings[0].hasPrefix("line 2:"))
    }

    @Test(arguments: ["\r\n", "\r"])
    func crlfAndCRLineEndings(_ ending: String) throws {
        for name in ["snapshot-adyen-issuerlist-searchbar.txt", "lldb-sentry-sample-app.txt", "cycript-keywindow-truncated.txt"] {
            let lf = try Self.text(name)
            let converted = lf.replacingOccurrences(of: "\n", with: ending)
            let a = try SceneImporter.recursiveDescription(lf)
            let b = try SceneImporter.recursiveDescription(converted)
            #expect(Self.walk(b.scene.root).count > 1)
            #expect(a.scene == b.scene, "\(name)")
            #expect(a.warnings == b.warnings)
        }
        let xml = try Self.text("appium-ios-settings-keyboards-links.xml")
        let a = try SceneImporter.importScene(xml)
        let b = try SceneImporter.importScene(xml.replacingOccurrences(of: "\n", with: ending))
        #expect(a.scene == b.scene)
    }

    // MARK: - Failures carry their warnings (item 5), Android (item 7), truncated XML (item 4)

    @Test func failuresCarryTheirWarnings() {
        do {
            _ = try SceneImporter.importScene("po view\n<UIView: 0x1; layer = <CALayer: 0x2>>\nsomething else\n")
            Issue.record("imported nothing as a scene")
        } catch {
            #expect(error.description.hasPrefix("no view found"))
            #expect(error.warnings == [
                "line 1: not a view, skipped: po view", "line 2: UIView has no readable frame, skipped",
                "line 3: not a view, skipped: something else",
            ])
        }
        #expect(throws: SceneError.self) { try SceneImporter.recursiveDescription("") }
    }

    @Test func warningsAreCappedForWrongFiles() throws {
        let csv = "x,y\n" + (0..<5000).map { "\($0),\($0 * 2)" }.joined(separator: "\n")
        do {
            _ = try SceneImporter.importScene(csv)
            Issue.record("imported a CSV")
        } catch {
            #expect(error.description == "no view found in the recursiveDescription text (5001 lines read, 5001 skipped)")
            #expect(error.warnings.count == 1001 && error.warnings.last == "… and 4001 more warnings")
            #expect(error.warnings[1] == "line 2: not a view, skipped: 0,0")
        }
    }

    @Test func androidDumpsAreRefusedClearly() {
        let uiautomator = """
            <?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" bounds="[0,0][1080,2280]"><node index="0" text="Wi-Fi" class="android.widget.TextView" bounds="[42,300][300,360]" /></node></hierarchy>
            """
        let dumpsys = """
            TASK com.android.settings id=12 userId=0
              ACTIVITY com.android.settings/.Settings 5b3a1 pid=4242
                View Hierarchy:
                  DecorView@8e5a0c1[Settings]
                    android.widget.LinearLayout{2f9b0e6 V.E...... ........ 0,0-1080,2280}
                      android.widget.FrameLayout{c1d2e3f V.E...... ........ 0,0-1080,2280 #1020002 android:id/content}
            """
        #expect(SceneImporter.detectFormat(uiautomator) == .androidUIAutomator)
        #expect(SceneImporter.detectFormat(dumpsys) == .androidDumpsys)
        for text in [uiautomator, dumpsys] {
            do {
                _ = try SceneImporter.importScene(text)
                Issue.record("imported an Android dump")
            } catch {
                #expect(error.description.hasPrefix("Android UI Automator dumps are not supported"))
            }
        }
        #expect(SceneImporter.detectFormat(try! Self.text("lldb-sentry-sample-app.txt")) == .recursiveDescription)
    }

    @Test func truncatedPageSourceFailsAtEveryCut() throws {
        let xml = try Self.text("appium-ios-settings-keyboards-links.xml")
        let bytes = Array(xml.utf8)
        let end = try #require(xml.range(of: "</AppiumAUT>")).lowerBound.utf16Offset(in: xml)
        var cuts = Array(stride(from: 60, to: end, by: 331))
        cuts.append(end - 1)
        for cut in cuts {
            let text = String(decoding: bytes[..<cut], as: UTF8.self)
            do {
                let r = try SceneImporter.importScene(text)
                Issue.record("a page source cut at byte \(cut) imported \(Self.walk(r.scene.root).count) views")
            } catch {
                #expect(error.description.contains("truncated"), "\(cut): \(error)")
            }
        }
        // The whole document imports.
        #expect(Self.walk(try SceneImporter.importScene(xml).scene.root).count == 93)
        for bad in ["<AppiumAUT><a x='0' y='0' width='1' height='1'></b></AppiumAUT>", "<a x=1/>", "<a x='0'></a><b/>", "</a>"] {
            #expect(throws: SceneError.self, "\(bad)") { try SceneImporter.pageSource(bad) }
        }
    }

    // MARK: - Depth (item 10)

    @Test func aHundredThousandDeepPageSource() throws {
        let depth = 100_000
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT>\n"
        xml.reserveCapacity(depth * 120)
        for i in 0..<depth {
            let type = i == depth - 1 ? "XCUIElementTypeButton" : (i == 0 ? "XCUIElementTypeApplication" : "XCUIElementTypeOther")
            xml += "<\(type) type=\"\(type)\" x=\"\(i % 2)\" y=\"0\" width=\"\(2 * depth - i)\" height=\"1000\">\n"
        }
        for i in (0..<depth).reversed() {
            xml += i == depth - 1 ? "</XCUIElementTypeButton>\n" : (i == 0 ? "</XCUIElementTypeApplication>\n" : "</XCUIElementTypeOther>\n")
        }
        xml += "</AppiumAUT>\n"
        var result = try SceneImporter.importScene(xml)
        #expect(result.warnings.isEmpty)
        // Take the tree out of the result, so that it is released level by level below.
        let root = result.scene.root
        result.scene.root = SceneNode(id: "released", frame: .zero)
        try Self.checkDeepPageSource(root, depth: depth, xml: xml)
        Self.dismantle(root)
    }

    static func checkDeepPageSource(_ root: SceneNode, depth: Int, xml: String) throws {
        let walked = Self.walk(root)
        #expect(walked.count == depth && walked.last!.depth == depth - 1)
        // Frames are made relative: every level alternates x between 0 and 1 on screen.
        #expect(walked[1].node.frame == Rect(x: 1, y: 0, width: Double(2 * depth - 1), height: 1000))
        #expect(walked[2].node.frame == Rect(x: -1, y: 0, width: Double(2 * depth - 2), height: 1000))
        let window = SceneFile(root: root).makeWindow()
        #expect(window.hitTest(Point(x: 10, y: 10))?.accessibilityIdentifier == "Button-1")
        // A truncated copy fails instead of importing part of it.
        let cut = String(xml.utf8.prefix(xml.utf8.count * 3 / 4))!
        #expect(throws: SceneImporter.ImportError.self) { try SceneImporter.importScene(cut) }
    }

    /// A `recursiveDescription` dump's indentation grows with depth (5 bytes per level), so a
    /// 100,000-deep dump would be 25 GB; 3,000 levels (the depth that crashed) is 22 MB.
    @Test func aThreeThousandDeepRecursiveDescription() throws {
        let depth = 3_000
        var text = ""
        var prefix = ""
        for i in 0..<depth {
            text += prefix + "<UIView; frame = (\(i % 2 == 0 ? 0.5 : -0.5) 0; \(10_000 - i) 1000); tag = \(i + 1); layer = <CALayer>>\n"
            if i == 0 { prefix = "   | " } else { prefix += "   | " }
        }
        var result = try SceneImporter.importScene(text)
        #expect(result.warnings.isEmpty)
        let root = result.scene.root
        result.scene.root = SceneNode(id: "released", frame: .zero)
        do {
            let walked = Self.walk(root)
            #expect(walked.count == depth && walked.last!.depth == depth - 1 && walked.last!.node.tag == depth)
            let window = SceneFile(root: root).makeWindow()
            #expect(window.hitTest(Point(x: 500, y: 500))?.tag == depth)
        }
        Self.dismantle(root)
    }

    /// Round trip of an imported dump (CRLF, 200 levels) through the scene file.
    @Test func deepImportsRoundTripThroughTheSceneFile() throws {
        let depth = 200
        var text = ""
        var prefix = ""
        for i in 0..<depth {
            text += prefix + "<UIView: 0x\(i); frame = (1 0; \(1000 - i) 1000); layer = <CALayer: 0x1>>\r\n"
            prefix += "   | "
        }
        let imported = try SceneImporter.importScene(text).scene
        let reloaded = try SceneFile(json: imported.jsonData())
        #expect(reloaded == imported && Self.walk(reloaded.root).count == depth)
    }

    @Test func aHundredThousandDeepImportRoundTripsThroughTheSceneFile() throws {
        let depth = 100_000
        var xml = "<AppiumAUT>"
        for i in 0..<depth { xml += "<XCUIElementTypeOther type=\"XCUIElementTypeOther\" x=\"\(i % 2)\" y=\"0\" width=\"10\" height=\"10\">" }
        for _ in 0..<depth { xml += "</XCUIElementTypeOther>" }
        xml += "</AppiumAUT>"
        let imported = try SceneImporter.importScene(xml).scene
        let reloaded = try SceneFile(json: imported.jsonData())
        #expect(Self.walk(reloaded.root).count == depth)
        Self.dismantle(reloaded.root)
        Self.dismantle(imported.root)
    }

    static func view(_ id: String, in root: View) -> View? {
        var stack: [View] = [root]
        while let v = stack.popLast() {
            if v.accessibilityIdentifier == id { return v }
            stack.append(contentsOf: v.subviews)
        }
        return nil
    }
}
