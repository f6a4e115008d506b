import Foundation
import HitTestKit
import HitTestReference
import HitTestSampleScenes
import HitTestScenes
import HitTestTestSupport
import Testing

/// `r` grown by `d` on every side.
private func grown(_ r: Rect, _ d: Double) -> Rect {
    Rect(x: r.minX - d, y: r.minY - d, width: r.width + 2 * d, height: r.height + 2 * d)
}

/// The benchmark's fair baseline (`FairWalk`) against the definition (`Reference`).
@Suite struct FairWalkTests {
    /// Every answer and every visit count of the fair walk equal the reference's.
    static func check(_ root: View, _ points: [Point], _ context: String) {
        let fair = FairWalk(root)
        var mismatches = 0
        for p in points {
            var refVisits = 0
            var fairVisits = 0
            let expected = Reference.hitTest(root, p, with: nil, visits: &refVisits)
            let got = fair.hitTest(p, visits: &fairVisits)
            if got !== expected || refVisits != fairVisits {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record(
                        "\(context) point \(p): reference \(expected?.debugName ?? "nil") (\(refVisits) visits), fair walk \(got?.debugName ?? "nil") (\(fairVisits) visits)")
                }
            }
        }
        #expect(mismatches == 0, "\(context): \(mismatches) of \(points.count) points differ")
    }

    @Test("Plain random trees: fair walk == reference", arguments: 0..<200)
    func plainTrees(seed: Int) {
        let tree = RandomTree.make(seed: UInt64(seed) + 7_000_000)
        Self.check(tree.root, RandomTree.points(for: tree, count: 100, seed: UInt64(seed)), "seed \(seed)")
    }

    @Test("Random trees with customisations and handlers: fair walk == reference", arguments: 0..<300)
    func customisedTrees(seed: Int) {
        var options = RandomTree.Options()
        options.customisations = true
        options.handlers = true
        let tree = RandomTree.make(seed: UInt64(seed) + 8_000_000, options: options)
        Self.check(tree.root, RandomTree.points(for: tree, count: 100, seed: UInt64(seed)), "seed \(seed)")
    }

    @Test("The sample scenes: fair walk == reference")
    func sampleScenes() {
        for (name, scene) in [
            ("app", SampleScenes.app(cells: 40)),
            ("app-insets", SampleScenes.app(cells: 40, customised: .properties)),
            ("app-handlers", SampleScenes.app(cells: 40, customised: .handlers)),
            ("random", SampleScenes.random(views: 3000, seed: 4)),
            ("dense-overlap (2,000 markers)", SampleScenes.denseOverlap(markers: 2000, seed: 5)),
        ] {
            let root = scene.root
            Self.check(root, SampleScenes.uniformPoints(400, in: grown(root.bounds, 20), seed: 6), name)
        }
    }

    @Test("A 100,000-deep chain walks on this thread (no recursion) and equals the engine")
    func deepChain() {
        let scene = SampleScenes.deep(levels: 100_000)
        let fair = FairWalk(scene.root)
        #expect(fair.depth == 100_000)
        #expect(fair.count == 100_001)
        for p in SampleScenes.uniformPoints(4, in: scene.root.bounds, seed: 3) + [Point(x: 389.99, y: 843.99), Point(x: -1, y: 5)] {
            var visits = 0
            let got = fair.hitTest(p, visits: &visits)
            #expect(got === scene.root.hitTest(p), "at \(p)")
            #expect(visits >= 1)
        }
    }
}

/// The dense-overlap scene (20,000 markers on a map): its shape, its committed scene file, and
/// the engine's single and bulk calls against the reference on sampled points and on points on
/// and within 1e-12 of the edges of markers.
@Suite struct DenseSceneTests {
    /// A fresh copy of the benchmark's scene (view trees are not shared between tests).
    let scene = SampleScenes.make("dense-overlap")!
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/dense-overlap.json")

    /// The markers whose edges are tested: the topmost ones (their edges decide answers) and
    /// rotated ones, topmost first.
    func markers(top: Int, rotated: Int) -> [View] {
        let all = scene.views[2...].reversed()
        return Array(all.prefix(top)) + Array(all.filter { !$0.transform.isIdentity }.prefix(rotated))
    }

    /// Single, bulk (one thread and two) and, when `againstReference`, the reference; else the
    /// fair walk (itself checked against the reference in `FairWalkTests`).
    func check(_ points: [Point], againstReference: Bool, _ context: String) {
        let root = scene.root
        root.prepareHitTesting()
        let bulk = root.hitTest(points)
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 2) } }
        let fair = FairWalk(root)
        var mismatches = 0
        for (i, p) in points.enumerated() {
            let expected = againstReference ? Reference.hitTest(root, p) : fair.hitTest(p)
            let single = root.hitTest(p)
            let threaded = root.view(forHitTestHandle: handles[i])
            if single !== expected || bulk[i] !== expected || threaded !== expected {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record(
                        "\(context) point \(p): expected \(expected?.debugName ?? "nil"), single \(single?.debugName ?? "nil"), bulk \(bulk[i]?.debugName ?? "nil"), threaded \(threaded?.debugName ?? "nil")")
                }
            }
        }
        #expect(mismatches == 0, "\(context): \(mismatches) of \(points.count) points differ")
    }

    @Test("The scene: 20,002 views, 12-22 pt markers, about 3% rotated, about 17 under a point")
    func shape() {
        let markers = Array(scene.views[2...])
        #expect(scene.views.count == 20_002)
        #expect(markers.allSatisfy { (12...22).contains($0.bounds.width) && (12...22).contains($0.bounds.height) })
        let rotated = markers.filter { !$0.transform.isIdentity }.count
        #expect((400...800).contains(rotated), "\(rotated) rotated")
        var under = 0
        let points = SampleScenes.uniformPoints(100, in: Rect(x: 30, y: 30, width: 330, height: 784), seed: 12)
        for p in points {
            under += markers.filter { Reference.pointInside($0, Reference.fromSuperview($0, p)) }.count
        }
        let mean = Double(under) / Double(points.count)
        #expect((15...20).contains(mean), "\(mean) markers under a point on average")
    }

    @Test("Sampled points and points on and within 1e-12 of marker edges: single and bulk == reference")
    func againstReference() {
        let root = scene.root
        var points = SampleScenes.uniformPoints(120, in: grown(root.bounds, 10), seed: 13)
        for m in markers(top: 4, rotated: 2) { points += edgePoints(m, in: root) }
        check(points, againstReference: true, "dense-overlap")
    }

    @Test("Edges of the 150 topmost and 100 rotated markers: single and bulk == fair walk")
    func manyEdges() {
        let root = scene.root
        var points = SampleScenes.uniformPoints(20_000, in: root.bounds, seed: 14)
        for m in markers(top: 150, rotated: 100) { points += edgePoints(m, in: root) }
        check(points, againstReference: false, "dense-overlap edges")
    }

    @Test("The committed scene file is this scene, and loads to the same answers")
    func sceneFile() throws {
        let data = SceneFile(view: scene.root).jsonData()
        if ProcessInfo.processInfo.environment["HITTEST_WRITE_FIXTURES"] == "1" {
            try data.write(to: Self.fixture)
        }
        let committed = try Data(contentsOf: Self.fixture)
        #expect(committed == data, "Tests/Fixtures/dense-overlap.json is stale: rerun with HITTEST_WRITE_FIXTURES=1")
        let loaded = try SceneFile(json: committed).makeWindow()
        let fairLoaded = FairWalk(loaded)
        let fair = FairWalk(scene.root)
        var differ = 0
        for p in SampleScenes.uniformPoints(3000, in: loaded.bounds, seed: 15) {
            if fairLoaded.hitTest(p)?.accessibilityIdentifier != fair.hitTest(p)?.accessibilityIdentifier { differ += 1 }
        }
        #expect(differ == 0, "\(differ) of 3000 points answer differently in the loaded scene")
    }
}
