import Foundation
import HitTestKit
import HitTestScenes
import Testing

/// The README's tour, run as one program in the README's order, every value it states checked;
/// and the scene file shown in docs/scene-files.md, read from the page itself.
@Suite struct ReadmeTourTests {
    typealias T = SceneAndCLITests

    @Test func theTourAsWritten() throws {
        // Hit testing.
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let table = View(frame: Rect(x: 0, y: 100, width: 390, height: 600))
        table.bounds.origin = Point(x: 0, y: 1200)
        window.addSubview(table)
        let cell = View(frame: Rect(x: 0, y: 1200, width: 390, height: 60))
        table.addSubview(cell)
        #expect(window.hitTest(Point(x: 20, y: 110)) === cell)
        cell.isHidden = true
        #expect(window.hitTest(Point(x: 20, y: 110)) === table)

        // Conversion.
        #expect(window.convert(Point(x: 20, y: 110), to: cell) == Point(x: 20, y: 10))
        #expect(cell.convert(Rect(x: 0, y: 0, width: 10, height: 10), to: nil) == Rect(x: 0, y: 100, width: 10, height: 10))

        // Bulk queries.
        let answers = window.hitTest([Point(x: 20, y: 110), Point(x: 500, y: 0)])
        #expect(answers.count == 2 && answers[0] === table && answers[1] == nil)
        let snapshot = window.makeHitTestSnapshot()
        #expect(snapshot.hitTest(Point(x: 20, y: 110)) == table.hitTestHandle)

        // Touch delivery and replay.
        let app = Application()
        app.addWindow(window)
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0.00,1,began,20,110
            0.05,1,moved,60,400
            0.10,1,ended,60,400
            """)
        let log = app.replay(script)
        #expect(log.count >= 2 && log[0].description == "0.0 touch 1 began delivered View#0", "\(log)")
        #expect(log[1].description == "0.0 touch 1 began forwarded View#0", "\(log)")

        // Gesture recognizers, controls, scroll views: they build as written.
        let double = TapGestureRecognizer { _ in }
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer { _ in }
        single.require(toFail: double)
        cell.addGestureRecognizer(double)
        cell.addGestureRecognizer(single)
        #expect(cell.gestureRecognizers?.count == 2)
        let button = Button(frame: Rect(x: 250, y: 5, width: 60, height: 40))
        button.addAction(for: .primaryActionTriggered) { _, _ in }
        let list = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.contentSize = Size(width: 320, height: 2000)
        list.setContentOffset(Point(x: 0, y: 300), animated: true)

        // Layout and autoresizing.
        let tabBar = View(frame: Rect(x: 0, y: 794, width: 390, height: 50))
        tabBar.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
        let tab = View(frame: Rect(x: 330, y: 5, width: 50, height: 40))
        tab.autoresizingMask = [.flexibleLeftMargin]
        window.addSubview(tabBar)
        tabBar.addSubview(tab)
        window.frame = Rect(x: 0, y: 0, width: 844, height: 390)
        #expect(tab.frame == Rect(x: 784, y: 5, width: 50, height: 40))

        // Auto Layout.
        let header = View()
        header.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(header)
        LayoutConstraint.activate([
            header.topAnchor.constraint(equalTo: window.safeAreaLayoutGuide.topAnchor),
            header.leadingAnchor.constraint(equalTo: window.leadingAnchor),
            header.trailingAnchor.constraint(equalTo: window.trailingAnchor),
            header.heightAnchor.constraint(equalToConstant: 44),
        ])
        window.layoutIfNeeded()
        #expect(header.frame == Rect(x: 0, y: 0, width: 844, height: 44))

        // Animation.
        let drawer = View(frame: Rect(x: -280, y: 0, width: 280, height: 390))
        window.addSubview(drawer)
        var slid: [Bool] = []
        View.animate(withDuration: 0.4, delay: 0, options: .curveEaseOut, animations: {
            drawer.frame = Rect(x: 0, y: 0, width: 280, height: 390)
        }, completion: { slid.append($0) })
        app.advanceTime(to: app.currentTime + 0.1)
        let shown = drawer.presentation.frame
        #expect(String(format: "%.2f", shown.minX) == "-174.12" && shown.minY == 0 && shown.size == Size(width: 280, height: 390))
        let p = Point(x: 100, y: 300)
        #expect(window.hitTest(p) === table)
        #expect(window.hitTestPresentation(p) === drawer)
        app.advanceTime(to: app.currentTime + 0.4)
        #expect(slid == [true])
    }

    /// The first JSON block of docs/scene-files.md is a scene file that loads and builds.
    @Test func theSceneFilePageExampleLoads() throws {
        let page = try String(contentsOf: T.root.appendingPathComponent("docs/scene-files.md"), encoding: .utf8)
        let start = try #require(page.range(of: "```json\n"), "docs/scene-files.md has no JSON example")
        let end = try #require(page.range(of: "```", range: start.upperBound..<page.endIndex))
        let scene = try SceneFile(json: Data(page[start.upperBound..<end.lowerBound].utf8))
        let window = scene.makeWindow()
        #expect(window.accessibilityIdentifier == "window" && window.subviews.count == 2)
        // The banner's insets reach 8 pt above it; the hidden badge is never hit.
        #expect(window.hitTest(Point(x: 10, y: 95))?.accessibilityIdentifier == "banner")
        #expect(window.hitTest(Point(x: 350, y: 30))?.accessibilityIdentifier == "window")
    }
}
