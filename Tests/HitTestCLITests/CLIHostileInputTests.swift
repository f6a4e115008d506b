import Foundation
import HitTestKit
import HitTestTestSupport
import HitTestReference
import HitTestSampleScenes
import Testing

@testable import HitTestCLI
@testable import HitTestScenes

/// The `hittest` tool on hostile and real input (issue 10, items 8-20) and the scene key table.
@Suite struct CLIHostileInputTests {
    typealias T = SceneAndCLITests

    static func scene(_ root: String) -> String {
        #"{"format":"hittest-scene","version":1,"root":"# + root + "}"
    }

    static func file(_ text: String, _ name: String = "scene.json") -> String {
        let path = T.temp(name)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func run(_ args: [String], input: Data = Data()) -> (Int32, T.Captured) {
        let c = T.Captured()
        let base = c.output
        let output = HitTestCLI.Output(out: base.out, err: base.err, input: { input })
        return (HitTestCLI.run(args, output: output), c)
    }

    // MARK: - 8: extreme finite numbers

    @Test(arguments: [
        (#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"a","frame":[1.79e308,0,1e300,10]}]}"#, "w/a: \"frame\""),
        (#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"a","frame":[0,0,10,10],"anchorPoint":[1.79e308,0]}]}"#, "w/a: \"anchorPoint\""),
        (#"{"id":"w","frame":[0,0,1e300,1e300]}"#, "w: \"frame\""),
        (#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"a","frame":[0,0,10,10],"transform":[1e300,0,0,1e300,0,0]}]}"#, "w/a: \"transform\""),
        (#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"a","frame":[0,0,10,10],"hitTestInsets":[-1e300,0,0,0]}]}"#, "w/a: \"hitTestInsets\""),
    ])
    func extremeNumbersAreRefusedNamingTheNode(root: String, path: String) throws {
        let scenePath = Self.file(Self.scene(root))
        let points = Self.file("1,1\n", "p.csv")
        for args in [["stats", scenePath], ["query", scenePath, points], ["render", scenePath, "-o", T.temp("m.png")],
                     ["render", scenePath, "--cost", "-o", T.temp("c.png")], ["audit", scenePath], ["explain", scenePath, "1", "1"]] {
            let (status, c) = Self.run(args)
            #expect(status == 2, "\(args[0])")
            #expect(c.err.contains(path) && c.err.contains("out of range"), "\(c.err)")
        }
        // A scene built in code (an importer's) is checked the same way before it is used.
        let loaded = try? SceneFile(json: Data(Self.scene(root).utf8))
        #expect(loaded == nil)
    }

    @Test func importRefusesOutOfRangeFramesNamingTheNode() throws {
        let dump = Self.file("""
            <UIWindow: 0x1; frame = (0 0; 100 200); layer = <UIWindowLayer: 0x2>>
               | <UIView: 0x3; frame = (1.79e308 0; 1e300 10); layer = <CALayer: 0x4>>
            """, "dump.txt")
        let (status, c) = Self.run(["import", dump, "-o", T.temp("out.json")])
        #expect(status != 0 && c.err.contains("out of range"), "\(c.err)")
        var node = SceneNode(id: "w", frame: Rect(x: 0, y: 0, width: 1e16, height: 1))
        #expect(throws: SceneError.self) { try SceneFile(root: node).validate() }
        node.frame = Rect(x: 0, y: 0, width: 1e15, height: 1)
        try SceneFile(root: node).validate()
    }

    // MARK: - 9: sizes that would need gigabytes

    /// Item 8 through the importer's transform path: the untransformed frame is recovered by
    /// geometry that must never see an out-of-range value (it traps on a non-finite bounds).
    @Test func importOfAnExtremeTransformedViewEndsWithAMessage() throws {
        let dump = Self.file("""
            <UIWindow: 0x1; frame = (0 0; 100 200)>
               | <UIView: 0x3; frame = (1.79e308 0; 1.79e308 10); transform = [0.5, 0, 0, 1, 0, 0]>
            """, "dump-transform.txt")
        let (status, c) = Self.run(["import", dump, "-o", T.temp("out-transform.json")])
        #expect(status != 0 && c.err.contains("out of range"), "\(c.err)")
    }

    /// Item 5: a failed import shows the per-line warnings that explain it.
    @Test func failedImportsShowTheirWarnings() throws {
        let dump = Self.file("""
            <UIWindow; frame = (0 0; 100 not-a-number)>
               | <UIView; frame = (oops)>
            """, "dump-bad.txt")
        let (status, c) = Self.run(["import", dump, "-o", T.temp("out-bad.json")])
        #expect(status != 0, "\(c.err)")
        #expect(c.err.contains("warning: \(dump): line 1") && c.err.contains("warning: \(dump): line 2"), "\(c.err)")
    }

    /// The first attribute added through the key table (issue 17): the autoresizing mask goes
    /// through a scene file, to the view and back.
    @Test func autoresizingMaskRoundTripsThroughTheSceneFile() throws {
        let json = Self.scene(#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"a","frame":[0,0,10,10],"autoresizingMask":18,"autoresizesSubviews":false}]}"#)
        let file = try SceneFile(json: Data(json.utf8))
        let window = file.makeWindow()
        let a = try #require(window.subviews.first)
        #expect(a.autoresizingMask == [.flexibleWidth, .flexibleHeight])
        #expect(!a.autoresizesSubviews)
        #expect(window.autoresizingMask == [] && window.autoresizesSubviews)
        let saved = SceneFile(view: window)
        #expect(saved == file)
        #expect(try SceneFile(json: saved.jsonData()) == file)
        let bad = Self.scene(#"{"id":"w","frame":[0,0,100,100],"autoresizingMask":"wide"}"#)
        #expect(throws: SceneError.self) { try SceneFile(json: Data(bad.utf8)) }
    }

    /// Views that a dump lists with gesture recognizers are read as such (the audit counts
    /// them as controls).
    @Test func dumpedGestureRecognizersAreKept() throws {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 100 200); layer = <UIWindowLayer: 0x2>>
               | <UIView: 0x3; frame = (0 0; 50 50); gestureRecognizers = <NSArray: 0x5>; layer = <CALayer: 0x4>>
               | <UIView: 0x6; frame = (50 50; 50 50); layer = <CALayer: 0x7>>
            """
        let scene = try SceneImporter.importScene(text).scene
        #expect(scene.root.children.map(\.hasGestureRecognizers) == [true, false])
    }

    @Test func hugeScreensAndPointCountsAreBounded() throws {
        let big = Self.file(Self.scene(#"{"id":"w","frame":[0,0,100000,100000],"children":[{"id":"b","class":"UIButton","frame":[0,0,50000,50000]}]}"#))
        let (status, c) = Self.run(["audit", big, "--json"])
        #expect(status == 0 && c.err.contains("sampling every"), "\(c.err)")
        let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(c.out.utf8))
        #expect(report.step > 1 && report.controls.count == 1)
        let (fine, e) = Self.run(["audit", big, "--step", "1"])
        #expect(fine == 2 && e.err.contains("--step"), "\(e.err)")
        let (demo, d) = Self.run(["demo", "--points", "2e9", "--out", T.temp("demo")])
        #expect(demo == 2 && d.err.contains("at most"), "\(d.err)")
        // A root of 1e15 pt renders (scaled down to fit) and audits without converting out of range.
        let huge = Self.file(Self.scene(#"{"id":"w","frame":[-1e15,-1e15,1e15,1e15]}"#))
        #expect(Self.run(["render", huge, "-o", T.temp("h.png")]).0 == 0)
        #expect(Self.run(["audit", huge]).0 == 0)
        // A thin screen: the step bounds the product of both counts, not just the area.
        let thin = Self.file(Self.scene(#"{"id":"w","frame":[0,0,1e15,2],"children":[{"id":"b","class":"UIButton","frame":[0,0,1e15,1]}]}"#))
        let (t, tc) = Self.run(["audit", thin, "--json"])
        #expect(t == 0, "\(tc.err)")
        let thinReport = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(tc.out.utf8))
        #expect(thinReport.step >= 1e15 / Double(HitTestCLI.Audit.defaultSamples))
    }

    // MARK: - 10: deep scenes

    static func chain(_ depth: Int) -> SceneNode {
        var node = SceneNode(id: "v\(depth - 1)", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        for i in stride(from: depth - 2, through: 0, by: -1) {
            var parent = SceneNode(id: "v\(i)", frame: Rect(x: 0, y: 0, width: 10, height: 10))
            parent.children = [node]
            node = parent
        }
        return node
    }

    @Test func deepScenesSaveLoadAndRunAtAHundredThousandLevels() throws {
        for depth in [300, 3000, 100_000] {
            let scene = SceneFile(root: Self.chain(depth))
            let data = scene.jsonData()
            #expect(data.count > depth * 20 && data.count < depth * 500, "\(data.count) bytes")
            let again = try SceneFile(json: data)
            #expect(again == scene)
            if depth == 100_000 {
                let path = T.temp("deep.json")
                try data.write(to: URL(fileURLWithPath: path))
                let (status, c) = Self.run(["stats", path])
                #expect(status == 0 && c.out.contains("depth: 99999"), "\(c.err)")
                let (s2, e) = Self.run(["explain", path, "5", "5"])
                #expect(s2 == 0 && e.out.hasSuffix("=> v99999 (100000 views tested)"))
                let window = again.makeWindow()
                #expect(SceneFile(view: window) == scene)
            }
        }
    }

    @Test func importWritesADeepDump() throws {
        var lines = ["<UIWindow: 0x1; frame = (0 0; 100 200); layer = <UIWindowLayer: 0x2>>"]
        for i in 1..<3000 { lines.append(String(repeating: "   | ", count: i) + "<UIView: 0x\(String(i + 16, radix: 16)); frame = (0 0; 10 10); layer = <CALayer: 0x4>>") }
        let dump = Self.file(lines.joined(separator: "\n") + "\n", "deep.txt")
        let out = T.temp("deep.json")
        let (status, c) = Self.run(["import", dump, "-o", out])
        #expect(status == 0, "\(c.err)")
        let size = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        #expect(size > 3000 * 20)
        let (_, stats) = Self.run(["stats", out])
        #expect(stats.out.contains("views: 3000") && stats.out.contains("depth: 2999"))
    }

    // MARK: - 13: messages, '-', pipes

    @Test func messagesNameTheProblem() throws {
        let (s1, c1) = Self.run(["stats", Self.file(Self.scene(#"{"id":"w","frame":[0,0,1e309,10]}"#))])
        #expect(s1 == 2 && c1.err.contains("w: \"frame\": 1e309 is out of range"), "\(c1.err)")
        let (s2, c2) = Self.run(["stats", Self.file("{\"format\":\"hittest-scene\",\"version\":1,\n\"root\":{\"id\":\"w\",\"frame\":[0,0,NaN,10]}}")])
        #expect(s2 == 2 && c2.err.contains("line 2, column 31"), "\(c2.err)")
        let scenePath = T.writeScene()
        let (s3, c3) = Self.run(["render", scenePath, "-o", "/nonexistent-dir/map.png"])
        #expect(s3 == 2 && c3.err.contains("cannot write /nonexistent-dir/map.png: No such file or directory"), "\(c3.err)")
        #expect(!c3.err.contains("NSCocoaErrorDomain"))
        let (s4, _) = Self.run(["stats", "/nonexistent-dir/scene.json"])
        #expect(s4 == s3)
        let (s5, c5) = Self.run(["stats", Self.file(Self.scene(#"{"id":"w","frame":[0,0,1,1],"children":[{"id":"a","frame":[0,0,1,1],"children":{"id":"b"}}]}"#))])
        #expect(s5 == 2 && c5.err.contains("w/a: \"children\" must be an array of nodes, found an object"), "\(c5.err)")
        let (s6, c6) = Self.run(["stats", Self.file(Self.scene(#"{"id":"w","frame":[0,0,1,1],"children":[{"id":"a","frame":[0,0,1,1]},{"id":"b","frame":[0,0,"x",1]}]}"#))])
        #expect(s6 == 2 && c6.err.contains("w/b: \"frame\" must be an array of 4 numbers"), "\(c6.err)")
    }

    @Test func dashIsStandardInputAndOutput() throws {
        let scene = Data(T.sceneJSON.utf8)
        let (s1, c1) = Self.run(["stats", "-"], input: scene)
        #expect(s1 == 0 && c1.out.contains("views: 7"))
        let (s2, c2) = Self.run(["query", T.writeScene(), "-", "-o", "-"], input: Data("15,15\n".utf8))
        #expect(s2 == 0 && c2.out == "x,y,id\n15,15,small-button", "\(c2.out)")
        let (s3, c3) = Self.run(["import", T.fixture("cycript-keywindow-truncated.txt"), "-o", "-"])
        #expect(s3 == 0 && (try? SceneFile(json: Data(c3.out.utf8))) != nil)
        // A named pipe (what /dev/stdin is under a shell pipe) is read to its end.
        let fifo = T.temp("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let h = FileHandle(forWritingAtPath: fifo)!
            h.write(scene)
            try? h.close()
        }
        writer.start()
        let (s4, c4) = Self.run(["stats", fifo])
        #expect(s4 == 0 && c4.out.contains("views: 7"), "\(c4.err)")
    }

    // MARK: - 14: the points parser

    @Test func pointsParserIsExactAndHandlesCRLF() throws {
        let scenePath = T.writeScene()
        let crlf = Self.file("x,y\r\n15,15\r\n60,130\r\n 60 , 110 \r\n", "crlf.csv")
        let (status, c) = Self.run(["query", scenePath, crlf])
        // Each line repeated as it is (spaces kept, CR dropped; issue 24 item 18).
        #expect(status == 0 && c.out == "x,y,id\n15,15,small-button\n60,130,big-button\n 60 , 110 ,banner", "\(c.out)")
        // A file big enough to be parsed in slices: every point kept, in order; a bad line's
        // number counts the lines of the slices before it.
        var big = "x,y\r\n"
        for i in 0..<1_000_000 { big += "\(i % 200).5,\(i / 1000)\r\n" }
        #expect(big.utf8.count >= 8 << 20)
        let bigPath = Self.file(big, "big.csv")
        let parsed = try HitTestCLI.Query.parsePoints(try Data(contentsOf: URL(fileURLWithPath: bigPath)), binary: false, name: "big", progress: nil)
        #expect(parsed.count == 1_000_000 && parsed[999_999] == Point(x: 199.5, y: 999) && parsed[1234] == Point(x: 34.5, y: 1))
        let bad = Self.file(big + "1,2\nthree,4\n", "bad.csv")
        let (badStatus, badRun) = Self.run(["query", scenePath, bad])
        #expect(badStatus == 2 && badRun.err.contains("line 1000003: expected x,y, found 'three,4'"), "\(badRun.err)")
        var rng = SystemRandomNumberGenerator()
        var texts: [String] = ["0", "-0", "1e3", "1.5E-3", "123456789012345678901234", "0.1", "-7.25", "00012.5000", "3.14159265358979323846", "4e-320", "+2"]
        for _ in 0..<2000 {
            let v = Double.random(in: -1e6...1e6, using: &rng)
            texts.append("\(v)")
            texts.append(String(format: "%.3f", v))
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeBufferPointer { HitTestCLI.CSVLines.number($0, 0, $0.count) }
            #expect(parsed == Double(text) ?? strtod(text, nil), "\(text)")
        }
        for bad in ["", "-", "1,", "x", "1e", "1.2.3", "--1"] {
            let bytes = Array(bad.utf8)
            #expect(bytes.withUnsafeBufferPointer { HitTestCLI.CSVLines.number($0, 0, $0.count) } == nil, "\(bad)")
        }
    }

    // MARK: - 15-18: the audit

    static let auditScene = scene(#"""
        {"id":"window","frame":[0,0,400,400],"children":[
          {"id":"offscreen","class":"UIButton","frame":[500,0,60,60]},
          {"id":"clip","frame":[0,0,100,100],"children":[{"id":"clipped","class":"UIButton","frame":[200,200,60,60]}]},
          {"id":"hidden-one","class":"UIButton","frame":[0,300,60,60],"hidden":true},
          {"id":"covered","class":"UIButton","frame":[300,300,60,60]},
          {"id":"inset","class":"UIButton","frame":[120,20,30,30],"hitTestInsets":[-12,-12,-12,-12]},
          {"id":"narrow","class":"UIButton","frame":[200,20,43.5,60]},
          {"id":"parent","frame":[0,150,100,100],"children":[{"id":"half","class":"UIButton","frame":[80,0,44,60]}]},
          {"id":"negative","class":"UIButton","frame":[250,150,-50,40]},
          {"id":"bright","class":"UIButton","frame":[300,150,60,60],"alpha":1.5},
          {"id":"sep","class":"_UITableViewCellSeparatorView","frame":[0,390,400,1]},
          {"id":"cover","frame":[290,290,100,100]}]}
        """#)

    @Test func auditSeparatesUnreachableControlsAndMeasuresTheTapArea() throws {
        let path = Self.file(Self.auditScene)
        let (status, c) = Self.run(["audit", path, "--json"])
        #expect(status == 0, "\(c.err)")
        let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(c.out.utf8))
        let reasons = Dictionary(uniqueKeysWithValues: report.unreachable.map { ($0.id, $0.reason) })
        #expect(reasons["offscreen"] == "off screen")
        #expect(reasons["clipped"]?.hasPrefix("clipped away") == true)
        #expect(reasons["hidden-one"] == "hidden")
        #expect(reasons["covered"] == "covered entirely (by cover)")
        #expect(reasons["negative"]?.hasPrefix("zero or negative size") == true)
        let controls = Dictionary(uniqueKeysWithValues: report.controls.map { ($0.id, $0) })
        #expect(Set(controls.keys) == ["inset", "narrow", "half", "bright"])
        #expect(controls["inset"]!.width == 54 && !controls["inset"]!.small)
        #expect(controls["narrow"]!.width == 43.5 && controls["narrow"]!.small)
        #expect(controls["half"]!.width == 20 && controls["half"]!.small && controls["half"]!.tapArea == 20 * 60)
        let (_, text) = Self.run(["audit", path])
        #expect(text.out.contains("43.5x60") && text.out.contains("4 reachable, 5 unreachable"), "\(text.out)")
        #expect(Self.run(["audit", path, "--fail-on", "unreachable"]).0 == 1)
        let (_, stats) = Self.run(["stats", path])
        #expect(stats.out.contains("can never be hit (alpha < 0.01, zero or negative size): 1") && stats.out.contains("negative: zero or negative size"))
    }

    /// Sizes print as a person reads them: exact where short (43.5), never a binary tail.
    @Test func numbersPrintShortAndExact() {
        #expect(HitTestCLI.fmt(43.5) == "43.5")
        #expect(HitTestCLI.fmt(20 + 34.3333) == "54.3333")
        #expect(HitTestCLI.fmt(-0.00001) == "0")
        #expect(HitTestCLI.fmt(390) == "390")
        #expect(HitTestCLI.fmt(1e300) == "1e+300")
    }

    @Test func interactiveIsDecidedByClass() {
        typealias A = HitTestCLI.Audit
        for yes in ["UIButton", "UISwitch", "UITableViewCell", "Adyen.ListCell", "_TtC5Adyen12SubmitButton", "XCUIElementTypeLink",
                    "XCUIElementTypeButton", "ListCell (UITableViewCell)", "CheckoutButton", "UISegmentedControl"] {
            #expect(A.isControlClass(yes), "\(yes)")
        }
        for no in ["_UITableViewCellSeparatorView", "FormButtonItemView", "UITableViewCellContentView", "UILabel",
                   "_TtCC5Adyen12SubmitButton14BackgroundView", "XCUIElementTypeOther", "UIView"] {
            #expect(!A.isControlClass(no), "\(no)")
        }
        #expect(A.isControlID("cell-3") && A.isControlID("nav-button-2") && !A.isControlID("cell-3-icon") && !A.isControlID("cell-3-separator"))
        let (_, help) = Self.run(["audit", "--help"])
        #expect(help.out.contains("class") && help.out.contains("UIControl"))
    }

    @Test func demoAuditListsScrolledAwayCellsAsUnreachable() throws {
        let scene = SceneFile(view: SampleScenes.app(cells: 200).root)
        let report = try HitTestCLI.Audit.audit(scene.makeWindow(), scene: scene)
        // 200 cells and their 200 buttons, 3 nav and 5 tab buttons; about 11 rows are on screen.
        #expect(report.controls.count + report.unreachable.count == 408)
        #expect(report.unreachable.count > 350 && report.controls.count < 50, "\(report.controls.count) reachable")
        #expect(report.unreachable.contains { $0.reason == "clipped away (outside table)" })
        #expect(!report.controls.contains { $0.id.hasSuffix("-icon") || $0.id.hasSuffix("-content") })
    }

    // MARK: - 19: one coordinate space

    static let scrolledRoot = scene(#"""
        {"id":"table","frame":[0,100,200,300],"bounds":[0,1200,200,300],"children":[
          {"id":"top","frame":[0,1200,200,50]},
          {"id":"rest","frame":[0,1250,200,250],"children":[]}]}
        """#)

    @Test func everyCommandUsesScreenCoordinates() throws {
        let path = Self.file(Self.scrolledRoot)
        let points = Self.file("10,110\n10,300\n10,50\n", "p.csv")
        let (_, q) = Self.run(["query", path, points])
        #expect(q.out == "x,y,id\n10,110,top\n10,300,rest\n10,50,", "\(q.out)")
        let (_, e) = Self.run(["explain", path, "10", "110"])
        #expect(e.out.hasPrefix("table at (10, 1210)") && e.out.hasSuffix("=> top (3 views tested)"), "\(e.out)")
        let png = T.temp("m.png")
        #expect(Self.run(["render", path, "-o", png]).0 == 0)
        let image = try #require(RGBImage(png: try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(image.width >= 200 && image[20, 5] == image[40, 30] && image[20, 5] != image[20, 200])
        let (_, a) = Self.run(["audit", path, "--json"])
        let report = try JSONDecoder().decode(HitTestCLI.Audit.Report.self, from: Data(a.out.utf8))
        #expect(report.deadArea == 0)
    }

    @Test func explainSummarisesLongRunsAndCountsWords() throws {
        let cells = (0..<40).map { #"{"id":"cell-\#($0)","frame":[0,\#($0 * 10),100,10]}"# }.joined(separator: ",")
        let path = Self.file(Self.scene(#"{"id":"w","frame":[0,0,100,1000],"children":["# + cells + "]}"))
        let (_, c) = Self.run(["explain", path, "5", "5"])
        #expect(c.out.contains("\n  39 views (cell-39 ... cell-1): rejected: outside (bounds)\n  cell-0 at (5, 5): inside (bounds); no subviews"), "\(c.out)")
        #expect(c.out.hasSuffix("=> cell-0 (41 views tested)"))
        let (_, one) = Self.run(["explain", path, "500", "5"])
        #expect(one.out.hasSuffix("=> nothing (1 view tested)"), "\(one.out)")
    }

    // MARK: - 11: large renders, the cost map

    @Test func largeRendersAreRefusedOrFittedNeverCropped() throws {
        let path = Self.file(Self.scene(#"{"id":"w","frame":[0,0,2000,2000]}"#))
        let (s1, c1) = Self.run(["render", path, "--scale", "16", "-o", T.temp("m.png")])
        #expect(s1 == 2 && c1.err.contains("use --scale"), "\(c1.err)")
        let big = Self.file(Self.scene(#"{"id":"w","frame":[0,0,20000,10000]}"#))
        let png = T.temp("b.png")
        let (s2, c2) = Self.run(["render", big, "-o", png])
        #expect(s2 == 0 && c2.err.contains("to fit"))
        let image = try #require(RGBImage(png: try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(image.width <= HitTestCLI.Render.Grid.maxSide && image.width > 4000)
    }

    @Test func costMapCountsWhatTheReferenceWalkTests() throws {
        let window = SampleScenes.app(cells: 200).root
        let points = [Point(x: 20, y: 300), Point(x: 350, y: 120), Point(x: 100, y: 800), Point(x: 5, y: 5), Point(x: 389, y: 843)]
        let costs = window.hitTestCosts(points)
        for (p, cost) in zip(points, costs) {
            let probe = Reference.Probe()
            let hit = Reference.hitTest(window, p, probe: probe)
            let trace = window.hitTestTrace(p)
            #expect(cost == probe.visits && trace.viewsTested == probe.visits && trace.hit === hit)
        }
    }

    // MARK: - 12, 20

    @Test func legendKeepsLongIdsAndDrawsQuestionMarks() throws {
        let long = String(repeating: "long-identifier-", count: 6) + "end?"
        let path = Self.file(Self.scene(#"{"id":"w","frame":[0,0,100,100],"children":[{"id":"\#(long)","frame":[0,0,100,100]}]}"#))
        let png = T.temp("m.png")
        #expect(Self.run(["render", path, "-o", png]).0 == 0)
        let image = try #require(RGBImage(png: try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(image.width >= 20 + TinyFont.width("\(long) (10000)", scale: 2))
        #expect(TinyFont.glyph("?") != TinyFont.glyph("#"))
    }

    // MARK: - issue 17 item 4: one key table

    @Test func theKeyTableDrivesEveryLayer() throws {
        let keys = SceneAttributes.all.map(\.key)
        #expect(Set(keys).count == keys.count)
        var node = SceneNode(id: "a", className: "UIButton", frame: Rect(x: 1, y: 2, width: 30, height: 40))
        node.bounds = Rect(x: 5, y: 6, width: 30, height: 40)
        node.transform = AffineTransform(a: 2, b: 0, c: 0, d: 1, tx: 3, ty: 4)
        node.anchorPoint = Point(x: 0.25, y: 0.75)
        node.hidden = true
        node.alpha = 0.5
        node.interactive = false
        node.clipsToBounds = true
        node.tag = 7
        node.hitTestInsets = EdgeInsets(top: -1, left: -2, bottom: -3, right: -4)
        node.passesTouchesThrough = true
        node.capturesSubviewTouches = true
        node.allowsSubviewHitsOutsideBounds = true
        node.hitTestPriority = 3
        node.hasGestureRecognizers = true
        node.attributes["autoresizingMask"] = .number(18, text: "18")
        node.attributes["autoresizesSubviews"] = .bool(false)
        // MARK: Layout keys: margins go through views; constraints (which reproduce the frame
        // here) and the window's safe-area insets are file-level.
        node.attributes["layoutMargins"] = .array([1, 2, 3, 4].map { .number($0, text: "") })
        node.attributes["safeAreaInsets"] = .array([5, 0, 6, 0].map { .number($0, text: "") })
        node.attributes["constraints"] = .array(["left == superview.left + 1", "top == superview.top + 2", "width == 30", "height == 40"].map { .string($0) })
        let root = SceneNode(id: "w", frame: Rect(x: 0, y: 0, width: 100, height: 100), children: [node])
        let scene = SceneFile(root: root)
        let text = String(decoding: scene.jsonData(), as: UTF8.self)
        // (Keys of controls and scroll views need a "kind": SceneKindKeyTests checks them.)
        for key in keys where !SceneAttributes.controlAndScrollKeys.contains(where: { $0.key == key }) { #expect(text.contains("\"\(key)\""), "\(key) not written") }
        #expect(try SceneFile(json: scene.jsonData()) == scene)
        // Through views: every view attribute comes back (class and gestures are file-only).
        var viewOnly = node
        viewOnly.className = nil
        viewOnly.hasGestureRecognizers = false
        viewOnly.attributes["constraints"] = nil  // Layout: not read back from views
        viewOnly.attributes["safeAreaInsets"] = nil  // Layout: a window's only
        let captured = SceneFile(view: scene.makeWindow()).root.children[0]
        #expect(captured == viewOnly)
        // The Codable path agrees with the file reader.
        #expect(try JSONDecoder().decode(SceneFile.self, from: scene.jsonData()) == scene)
    }
}

/// A new attribute is one line of the key table (`SceneAttribute.view`): shown with a table
/// that adds one, as the integrator will add `autoresizingMask`.
@Suite struct SceneKeyTableTests {
    @Test func oneLineAddsAnAttribute() throws {
        let table = SceneAttributes.all + [.view("tagCopy", \View.tag, default: 0)]
        let node = try SceneAttributes.node(from: [("id", .string("a")), ("frame", .array([0, 0, 1, 1].map { .number($0, text: "\($0)") })), ("tagCopy", .number(9, text: "9"))], name: "root", table: table)
        #expect(node.attributes["tagCopy"] == .number(9, text: "9"))
        #expect(SceneAttributes.members(of: node, table: table).contains { $0.0 == "tagCopy" })
        let view = View()
        for a in table { a.apply?(node, view) }
        #expect(view.tag == 9)
        var captured = SceneNode(id: "a", frame: .zero)
        for a in table { a.capture?(view, &captured) }
        #expect(captured.attributes["tagCopy"] == .number(9, text: "9"))
        #expect(throws: SceneError.self) {
            try SceneAttributes.node(from: [("id", .string("a")), ("frame", .array([0, 0, 1, 1].map { .number($0, text: "\($0)") })), ("tagCopy", .bool(true))], name: "root", table: table)
        }
    }
}
