import Foundation
@testable import HitTestCLI
import HitTestKit
import HitTestReference
import HitTestSampleScenes
import HitTestScenes
import HitTestTestSupport
import Testing

/// The interactive hit-map page (`render -o MAP.html`): its answers equal the engine's.
///
/// The page's model script runs in node (on the machine; the tests that need it are skipped
/// without it): for a grid of sample points the page's hit, trail and "under the pointer" list
/// are exported and compared with the C engine's `hitTest`, the reference walk and `explain`'s
/// text; and the page's walk at every pixel centre of its map is compared with the map's
/// pixels (the engine's bulk answers). scripts/browser-test.sh checks the page in Chromium.
@Suite struct HTMLPageTests {
    static let node: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin").split(separator: ":") {
            let p = "\(dir)/node"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }()

    /// Runs the page's model in node: for each screen point, [hit id or null, trail, under];
    /// then the number of map pixels where the page's walk and the engine's map disagree.
    static let harness = #"""
        const fs = require("fs");
        const html = fs.readFileSync(process.argv[2], "utf8");
        function between(a, b) { const i = html.indexOf(a); if (i < 0) throw new Error("no " + a); return html.slice(i + a.length, html.indexOf(b, i + a.length)); }
        const D = JSON.parse(between('<script type="application/json" id="hittest-data">', "</script>"));
        const code = between('<script id="hittest-model">', "</script>");
        const { HitTestModel } = new Function("module", code + "\nreturn module.exports;")({ exports: {} });
        const M = HitTestModel(D);
        const pts = fs.readFileSync(process.argv[3], "utf8").split("\n").filter(s => s.length);
        const answers = pts.map(s => { const [x, y] = s.split(",").map(Number); const a = M.answer(x, y); return [a.hit, a.trail, a.under, a.visits]; });
        /* the page's walk at every pixel centre against the engine's map */
        const map = D.map;
        let k = 0, bad = 0, checked = 0, first = null;
        for (let py = 0; py < map.height; py++) {
          let px = 0;
          for (let r = 0; r < map.rowRuns[py]; r++) {
            const v = map.runs[k++] - 1, len = map.runs[k++];
            for (let e = px + len; px < e; px++) {
              const p = M.toRoot(map.origin[0] + (px + 0.5) / map.scale, map.origin[1] + (py + 0.5) / map.scale);
              const h = M.walk(p[0], p[1], null).hit;
              checked++;
              if (h !== v) { bad++; if (!first) first = [px, py, v, h]; }
            }
          }
        }
        process.stdout.write(JSON.stringify({ answers, bad, checked, first }));
        """#

    struct NodeResult {
        var answers: [(hit: String?, trail: String, under: [String], visits: Int)]
        var bad: Int
        var checked: Int
    }

    /// The page for `window`, the points given to the page's model, and its answers.
    static func runPage(_ window: Window, scene: SceneFile? = nil, points: [Point], scale: Double? = nil) throws -> NodeResult {
        let html = try HitTestCLI.HTMLPage.page(
            window, scene: scene ?? SceneFile(view: window), title: "test", scale: scale, showCost: false,
            HitTestCLI.Output(out: { _ in }, err: { _ in }))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hittest-page-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html"), pts = dir.appendingPathComponent("points.txt")
        let script = dir.appendingPathComponent("harness.js")
        try Data(html.utf8).write(to: page)
        try Data(points.map { "\($0.x),\($0.y)" }.joined(separator: "\n").utf8).write(to: pts)
        try Data(harness.utf8).write(to: script)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: node!)
        p.arguments = [script.path, page.path, pts.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0, let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let answers = json["answers"] as? [[Any]] else {
            throw HarnessError(message: "node failed (\(p.terminationStatus)): \(errText)")
        }
        return NodeResult(
            answers: answers.map { ($0[0] as? String, $0[1] as? String ?? "", $0[2] as? [String] ?? [], $0[3] as? Int ?? -1) },
            bad: json["bad"] as? Int ?? -1, checked: json["checked"] as? Int ?? -1)
    }

    struct HarnessError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `explain`'s text for a screen point: the command's own lines, from the C walk's trail.
    static func explainText(_ window: Window, _ s: Point) -> (hit: View?, text: String, visits: Int) {
        let trace = window.hitTestTrace(HitTestCLI.Screen.toRoot(s, window))
        return (trace.hit, HitTestCLI.Explain.lines(trace).joined(separator: "\n"), trace.viewsTested)
    }

    /// Compares the page with the engine, the reference walk and explain at `points` (screen).
    static func expectPageEqualsEngine(_ window: Window, points: [Point], scene: SceneFile? = nil, scale: Double? = nil, label: String) throws {
        let result = try runPage(window, scene: scene, points: points, scale: scale)
        #expect(result.bad == 0, "\(label): the page's walk and the engine's map disagree at \(result.bad) of \(result.checked) pixels")
        #expect(result.checked > 0)
        var mismatches = 0
        for (k, s) in points.enumerated() {
            let p = HitTestCLI.Screen.toRoot(s, window)
            let engine = window.hitTest(p)
            let reference = Reference.hitTest(window, p)
            let (walkHit, trail, visits) = explainText(window, s)
            let page = result.answers[k]
            let ok = page.hit == engine.map { HitTestCLI.name($0) } && engine === reference && walkHit === engine && page.trail == trail
                && page.visits == visits
            if !ok {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("\(label) at \(s): page \(page.hit ?? "nothing"), engine \(engine.map { HitTestCLI.name($0) } ?? "nothing"), reference \(reference.map { HitTestCLI.name($0) } ?? "nothing"), page visits \(page.visits), trace \(visits)\npage trail:\n\(page.trail)\nexplain:\n\(trail)")
                }
            }
        }
        #expect(mismatches == 0, "\(label): \(mismatches) of \(points.count) points differ")
        // The views listed under the pointer: exactly those whose region holds the point (in the
        // walk's coordinates), other than the hit and its ancestors, each once, each with a reason.
        var listMismatches = 0
        for (k, s) in points.enumerated() where result.answers[k].under.count < 200 {
            let listed = result.answers[k].under.map { String($0[..<$0.range(of: ": ")!.lowerBound]) }
            let expected = expectedUnder(window, s)
            if Set(listed) != expected || listed.count != expected.count || result.answers[k].under.contains(where: { $0.hasSuffix(": ") }) {
                listMismatches += 1
                if listMismatches <= 3 { Issue.record("\(label) at \(s): under the pointer \(listed.sorted()), expected \(expected.sorted())") }
            }
        }
        #expect(listMismatches == 0, "\(label): \(listMismatches) of \(points.count) lists of the views under the pointer differ")
    }

    /// The views whose region (bounds with hitTestInsets) holds screen point `s`, in the walk's
    /// coordinates, other than the hit and its ancestors.
    static func expectedUnder(_ window: Window, _ s: Point) -> Set<String> {
        let p = HitTestCLI.Screen.toRoot(s, window)
        var path = Set<ObjectIdentifier>()
        var a = window.hitTest(p)
        while let v = a { path.insert(ObjectIdentifier(v)); a = v.superview }
        var out = Set<String>()
        var todo: [(View, Point)] = [(window, p)]
        while let (v, q) = todo.popLast() {
            if !path.contains(ObjectIdentifier(v)) && v.bounds.inset(by: v.hitTestInsets).contains(q) { out.insert(HitTestCLI.name(v)) }
            for c in v.subviews { todo.append((c, LevelConversion(c).fromSuperview(q))) }
        }
        return out
    }

    /// A grid of screen points over the root's screen rectangle and a margin around it, with
    /// irrational offsets, plus the given extra points.
    static func grid(_ window: View, _ nx: Int, _ ny: Int) -> [Point] {
        let r = HitTestCLI.Screen.rect(window)
        var points: [Point] = []
        for j in 0..<ny {
            for i in 0..<nx {
                points.append(Point(
                    x: r.minX - 20 + (r.width + 40) * (Double(i) + 0.5 + 0.1 * sin(Double(j))) / Double(nx),
                    y: r.minY - 20 + (r.height + 40) * (Double(j) + 0.5) / Double(ny)))
            }
        }
        return points
    }

    @Test(.enabled(if: node != nil, "node is not installed"), arguments: 0..<12)
    func randomTreesGiveTheEnginesAnswers(seed: UInt64) throws {
        let tree = RandomTree.make(seed: 7000 + seed, options: .init(maxViews: 150, customisations: true))
        // Unique ids (the page names views by id); a moved, scrolled or transformed root on some seeds.
        for (k, v) in tree.all.enumerated() { v.accessibilityIdentifier = "v\(k)" }
        let window = tree.root as! Window
        if seed % 3 == 1 { window.bounds.origin = Point(x: 13.5, y: -40) }
        if seed % 4 == 2 { window.transform = AffineTransform(rotationAngle: 0.3).concatenating(AffineTransform(scaleX: 1.5, y: 0.75)) }
        // Random points and points on view edges (in root space), on the screen.
        let rootPoints = RandomTree.points(for: tree, count: 150, seed: seed)
        let points = rootPoints.map { HitTestCLI.Screen.fromRoot($0, window) }.filter(\.isFinite) + Self.grid(window, 12, 20)
        try Self.expectPageEqualsEngine(window, points: points, scale: 0.5, label: "seed \(7000 + seed)")
    }

    @Test(.enabled(if: node != nil, "node is not installed"))
    func sampleScenesGiveTheEnginesAnswers() throws {
        for (name, scale) in [("app", 0.5), ("app-insets", 1.0)] {
            let window = SampleScenes.make(name)!.root
            // Pixel centres, pixel edges and points between the table's cells.
            var points = Self.grid(window, 20, 40)
            for y in stride(from: 80.0, through: 780, by: 29.75) { points += [Point(x: 352, y: y), Point(x: 30.5, y: y + 0.0625)] }
            try Self.expectPageEqualsEngine(window, points: points, scale: scale, label: name)
        }
    }

    @Test(.enabled(if: node != nil, "node is not installed"))
    func thePageConvertsAsTheCWalkDoes() throws {
        // Where `a * q + (tx + offset)` (the page's old arithmetic) and the C walk's
        // `(a * q + tx) + offset` fall on either side of a region's edge (CLIWalkTests.scaled),
        // and a window scrolled by 0.1 at an x that rounds onto its edge.
        let scaled = try SceneFile(json: Data(CLIWalkTests.scaled.utf8)).makeWindow()
        try Self.expectPageEqualsEngine(scaled, points: [Point(x: 39.74999999999999, y: 5)] + Self.grid(scaled, 10, 10), label: "scaled")
        let r = try Self.runPage(scaled, points: [Point(x: 39.74999999999999, y: 5)])
        #expect(r.answers[0].hit == "scaled")
        let scrolled = try SceneFile(json: Data(CLIWalkTests.scrolled.utf8)).makeWindow()
        try Self.expectPageEqualsEngine(
            scrolled, points: [Point(x: 5.689893001201561e-15, y: 10), Point(x: 390.09999999999997, y: 10)] + Self.grid(scrolled, 6, 6),
            scale: 0.25, label: "scrolled")
    }

    /// The views under the pointer that were not hit, each with the rule that kept the touch.
    static let reasonsScene = """
        { "format": "hittest-scene", "version": 1,
          "root": { "id": "window", "frame": [0, 0, 300, 400], "children": [
            { "id": "hidden-panel", "frame": [0, 0, 300, 100], "hidden": true, "children": [
              { "id": "hidden-button", "class": "UIButton", "frame": [10, 10, 100, 50] } ] },
            { "id": "card", "frame": [0, 100, 300, 100], "capturesSubviewTouches": true, "children": [
              { "id": "card-button", "class": "UIButton", "frame": [10, 10, 100, 50] } ] },
            { "id": "list", "frame": [0, 200, 300, 200], "children": [
              { "id": "row", "frame": [0, 0, 300, 100], "children": [
                { "id": "row-button", "class": "UIButton", "frame": [10, 10, 100, 50] } ] },
              { "id": "faded", "frame": [0, 0, 300, 100], "alpha": 0.005 },
              { "id": "inert", "frame": [0, 0, 300, 100], "interactive": false } ] },
            { "id": "overlay", "frame": [0, 0, 300, 400], "passesTouchesThrough": true } ] } }
        """

    @Test(.enabled(if: node != nil, "node is not installed"))
    func underThePointerSaysWhyEachViewMissedTheTouch() throws {
        let scene = try SceneFile(json: Data(Self.reasonsScene.utf8))
        let window = scene.makeWindow()
        let points = [Point(x: 20, y: 20), Point(x: 20, y: 120), Point(x: 20, y: 220)]
        let r = try Self.runPage(window, scene: scene, points: points)
        #expect(r.answers[0].hit == "window")
        #expect(r.answers[0].under == [
            "overlay: nil: passesTouchesThrough", "hidden-button: in hidden-panel, rejected: hidden", "hidden-panel: rejected: hidden",
        ])
        #expect(r.answers[1].hit == "card")
        #expect(r.answers[1].under == ["overlay: nil: passesTouchesThrough", "card-button: card captures its subviews' touches"])
        #expect(r.answers[2].hit == "row-button")
        #expect(r.answers[2].under == [
            "overlay: nil: passesTouchesThrough", "inert: rejected: userInteractionEnabled is false", "faded: rejected: alpha 0.005 < 0.01",
        ])
        // A view behind the hit: covered.
        let small = try SceneFile(json: Data(SceneAndCLITests.sceneJSON.utf8))
        let s = try Self.runPage(small.makeWindow(), scene: small, points: [Point(x: 60, y: 110)])
        #expect(s.answers[0].hit == "banner")
        #expect(s.answers[0].under == ["big-button: covered by banner", "panel: covered by banner"])
        try Self.expectPageEqualsEngine(window, points: Self.grid(window, 15, 20) + points, scene: scene, label: "reasons")
    }

    @Test(.enabled(if: node != nil, "node is not installed"))
    func aDeepChainIsAnsweredAndItsPanelIsCut() throws {
        // 1,500 levels: deeper than the page audits; the panel shows 2,000 trail lines at most.
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        window.accessibilityIdentifier = "root"
        var parent: View = window
        for k in 0..<1_500 {
            let v = View(frame: Rect(x: k % 2 == 0 ? 0.5 : -0.5, y: 0, width: 300, height: 300))
            v.accessibilityIdentifier = "level-\(k)"
            parent.addSubview(v)
            parent = v
        }
        try Self.expectPageEqualsEngine(window, points: Self.grid(window, 4, 4), scale: 0.1, label: "deep chain")
        let html = try HitTestCLI.HTMLPage.page(window, scene: nil, title: "deep", scale: 0.1, showCost: false, HitTestCLI.Output(out: { _ in }, err: { _ in }))
        #expect(html.contains("not audited: the tree is 1500 levels deep"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hittest-page-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("deep.html"), script = dir.appendingPathComponent("cut.js")
        try Data(html.utf8).write(to: page)
        try Data((Self.harness.components(separatedBy: "const pts =")[0] + """
            const full = M.answer(150, 150), cut = M.answer(150, 150, 100);
            process.stdout.write(JSON.stringify([full.trail.split("\\n"), cut.trail.split("\\n"), cut.path]));
            """).utf8).write(to: script)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.node!)
        p.arguments = [script.path, page.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let parts = try #require(try JSONSerialization.jsonObject(with: data) as? [[String]])
        let (full, cut, path) = (parts[0], parts[1], parts[2])
        #expect(full.count == 1_503)  // the root and 1,500 levels entered, the hit, the closing line
        #expect(cut.count == 102)
        #expect(Array(cut.prefix(50)) == Array(full.prefix(50)) && Array(cut.suffix(51)) == Array(full.suffix(51)))
        #expect(cut[50] == "... 1402 lines left out (hittest explain prints them all) ...")
        #expect(path.count == 101 && path[50] == "... 1401 more ...")
    }

    @Test func renderWritesOneSelfContainedPage() throws {
        let scenePath = SceneAndCLITests.writeScene()
        let out = SceneAndCLITests.temp("map.html")
        let (status, c) = SceneAndCLITests.run(["render", scenePath, "-o", out])
        #expect(status == 0, "\(c.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("id=\"hittest-data\"") && html.contains("function HitTestModel"))
        // Nothing loaded from anywhere: no external scripts, styles, fonts or images.
        for word in ["src=", "href=", "url(", "@import", "http:", "https:", "<link", "fetch("] {
            #expect(!html.contains(word), "the page contains \(word)")
        }
        // The data: one id per view, the map covering the root at 2 pixels per point.
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"hittest-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any])
        #expect((json["ids"] as? [String])?.count == 7)
        let map = try #require(json["map"] as? [String: Any])
        #expect(map["width"] as? Int == 400 && map["height"] as? Int == 600)
        let audit = try #require(json["audit"] as? [String: Any])
        #expect((audit["findings"] as? [[Any]])?.contains { ($0[2] as? String)?.hasPrefix("small-button") == true } == true)
        // --html to standard output; ids that look like markup stay data.
        let odd = SceneAndCLITests.temp("odd.json")
        try Data(#"{"format":"hittest-scene","version":1,"root":{"id":"</script><b>","frame":[0,0,10,10]}}"#.utf8).write(to: URL(fileURLWithPath: odd))
        let (s2, c2) = SceneAndCLITests.run(["render", odd, "--html", "-o", "-"])
        #expect(s2 == 0)
        #expect(c2.out.contains("\\u003c/script\\u003e\\u003cb\\u003e") && !c2.out.contains("</script><b>"))
        #expect(c2.out.contains("<title>hit map: \(odd)</title>"))
    }

    @Test func renderPageOptionsAndErrors() throws {
        let out = SceneAndCLITests.temp("sample.html"), saved = SceneAndCLITests.temp("sample.json")
        let (status, c) = SceneAndCLITests.run(["render", "--sample", "app", "-o", out, "--save-scene", saved, "--scale", "1"])
        #expect(status == 0, "\(c.err)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        #expect(html.contains("\"width\":390,\"height\":844"))
        #expect(try SceneFile(json: Data(contentsOf: URL(fileURLWithPath: saved))) == SceneFile(view: SampleScenes.make("app")!.root))
        let bad = SceneAndCLITests.run(["render", "--sample", "nope", "-o", out])
        #expect(bad.0 == 2 && bad.1.err.contains("unknown sample scene 'nope'"))
        #expect(SceneAndCLITests.run(["render", "x.json", "--sample", "app", "-o", out]).0 == 2)
        let handlers = SceneAndCLITests.run(["render", "--sample", "app-handlers", "-o", out])
        #expect(handlers.0 == 2 && handlers.1.err.contains("without handlers"))
        #expect(SceneAndCLITests.run(["render", "--help"]).1.out.contains("-o MAP.html"))
        // The PNG path is unchanged.
        let png = SceneAndCLITests.temp("map.png")
        #expect(SceneAndCLITests.run(["render", SceneAndCLITests.writeScene(), "-o", png]).0 == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }
}
