import Foundation
import HitTestKit
import HitTestReference
import HitTestSampleScenes
import HitTestTestSupport
import Testing

/// The benchmark's scene families (issue 26: the table families, each isolating one feature,
/// the dressed table, the pin map): each holds what its documentation says, and every
/// hit-testing path equals the reference walk on it: the single call on a fresh scene never
/// prepared, a first bulk call, then after `prepareHitTesting()` the single call, the bulk
/// call on one and two threads, a snapshot's single and bulk calls; on sampled points and on
/// points on and within 1e-12 and one ulp of the edges of the views that carry each feature
/// (the reference's answers on a spread sample, where the fair walk must agree, answers and
/// visits; the fair walk's elsewhere); again after one view of each feature changes (the
/// benchmark's one-view change, and the feature flipped across its threshold); and a first
/// large bulk call (it builds the answer grid itself) against the fair walk. Smaller
/// instances of the benchmark's generators: 40 cells (the table, scrolled by 1,200 pt, shows
/// cells 20-31), 2,000 pins.
@Suite struct SceneFamilyTests {
    /// `r` grown by `d` on every side.
    static func grown(_ r: Rect, _ d: Double) -> Rect {
        Rect(x: r.minX - d, y: r.minY - d, width: r.width + 2 * d, height: r.height + 2 * d)
    }

    /// The views by id.
    static func byId(_ scene: SampleScenes.Scene) -> [String: View] {
        Dictionary(scene.views.compactMap { v in v.accessibilityIdentifier.map { ($0, v) } }, uniquingKeysWith: { a, _ in a })
    }

    /// A family's small instance and the views whose edges are tested (those of cells 19, 20, 25
    /// and 31, around and on the table's visible edges, and the screen-level views; for the
    /// map, its 40 topmost pins on screen and the controls).
    static func instance(_ name: String) -> (scene: SampleScenes.Scene, edges: [View]) {
        if name == "pin-map" {
            let scene = SampleScenes.pinMap(pins: 2000, seed: 2027)
            let root = scene.root
            let onScreen = scene.views.filter { $0.accessibilityIdentifier?.hasPrefix("pin-") == true }
                .filter { root.bounds.contains($0.superview!.convert($0.center, to: root)) }
            return (scene, Array(onScreen.reversed().prefix(40)) + scene.views.suffix(2))
        }
        let scene = SampleScenes.table(SampleScenes.TableFamily(rawValue: name)!, cells: 40)
        let cells = Set([19, 20, 25, 31].map { "cell-\($0)" })
        let edges = scene.views.filter { v in
            var top: View? = v
            while let t = top, t.superview !== scene.root, t.superview != nil {
                if let id = t.accessibilityIdentifier, cells.contains(id) { return true }
                top = t.superview
            }
            // Screen-level views (navigation and tab bars, overlays, covers) and their children.
            return v.superview === scene.root || v.superview?.superview === scene.root && v.superview?.accessibilityIdentifier != "table"
        }
        return (scene, edges)
    }

    static let families = SampleScenes.TableFamily.allCases.map(\.rawValue) + ["pin-map"]

    /// The points: uniform over the screen grown by 20 pt, and the edge points of `edges`.
    static func points(_ root: View, _ edges: [View], seed: UInt64) -> [Point] {
        var points = SampleScenes.uniformPoints(400, in: grown(root.bounds, 20), seed: seed)
        for v in edges { points += edgePoints(v, in: root) }
        return points
    }

    /// Every path against the expected answers at `points`: the reference walk's on a spread
    /// sample of `referencePoints` of them (where the fair walk must also visit the views the
    /// reference visits), the fair walk's elsewhere (it equals the reference's: the sample here,
    /// and `FairWalkTests`). `fresh`: the scene has never been prepared (its single calls come
    /// first, then a first bulk call, before the prepare).
    static func check(_ root: View, _ points: [Point], fresh: Bool, referencePoints: Int, _ context: String) {
        let fair = FairWalk(root)
        let every = max(1, points.count / referencePoints)
        var expected: [View?] = []
        var fairVisits = 0
        for (i, p) in points.enumerated() {
            guard i % every == 0 else {
                expected.append(fair.hitTest(p))
                continue
            }
            var n = 0, m = 0
            expected.append(Reference.hitTest(root, p, with: nil, visits: &n))
            if fair.hitTest(p, visits: &m) !== expected[i] || m != n { fairVisits += 1 }
        }
        var bad: [String] = []
        func compare(_ path: String, _ got: (Int) -> View?) {
            var count = 0
            for i in points.indices where got(i) !== expected[i] {
                count += 1
                if count <= 2 {
                    bad.append("\(path) at \(points[i]): \(got(i)?.debugName ?? "nil"), expected \(expected[i]?.debugName ?? "nil")")
                }
            }
            if count > 2 { bad.append("\(path): \(count) points in all") }
        }
        if fresh {
            let unprepared = points.map { root.hitTest($0) }
            compare("single, never prepared", { unprepared[$0] })
            let firstBulk = root.hitTest(points)
            compare("first bulk call", { firstBulk[$0] })
        }
        root.prepareHitTesting()
        let single = points.map { root.hitTest($0) }
        compare("single", { single[$0] })
        let bulk = root.hitTest(points)
        compare("bulk", { bulk[$0] })
        for threads in [1, 2] {
            var handles = [HitTestHandle](repeating: .none, count: points.count)
            points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: threads) } }
            compare("bulk on \(threads) thread(s)", { root.view(forHitTestHandle: handles[$0]) })
        }
        let snapshot = root.makeHitTestSnapshot()
        let snapshotBulk = snapshot.hitTest(points)
        compare("snapshot bulk", { root.view(forHitTestHandle: snapshotBulk[$0]) })
        compare("snapshot single", { root.view(forHitTestHandle: snapshot.hitTest(points[$0])) })
        if fairVisits > 0 { bad.append("fair walk: \(fairVisits) points answer or visit otherwise than the reference") }
        #expect(bad.isEmpty, "\(context) (\(points.count) points): \(bad.joined(separator: "; "))")
    }

    /// One change per feature of a family (what the benchmark's one-view change does, and the
    /// feature flipped across its threshold), round `k`; returns the views changed.
    static func change(_ name: String, _ ids: [String: View], _ k: Int) -> [View] {
        let cell = 20 + (k * 5) % 12
        var changed: [View] = []
        func move(_ id: String, _ dx: Double) {
            guard let v = ids[id] else { return }
            v.center = Point(x: v.center.x + dx, y: v.center.y)
            changed.append(v)
        }
        func set(_ id: String, _ body: (View) -> Void) {
            body(ids[id]!)
            changed.append(ids[id]!)
        }
        switch name {
        case "table-alpha":
            set("cell-\(cell)-highlight") { $0.alpha = k % 2 == 0 ? 0.01 : 0.01.nextDown }
            set("toast") { $0.alpha = k % 2 == 0 ? 0.01.nextDown : 0.01 }
        case "table-covers":
            set("cell-\(cell)-edit") { $0.isHidden.toggle() }
            set("dim") { $0.isUserInteractionEnabled = k % 3 == 1 }
        case "table-rotated":
            set("cell-\(cell)-badge") { $0.transform = AffineTransform(rotationAngle: Double(k) * 0.7) }
            set("cell-\(cell)-icon") { $0.allowsSubviewHitsOutsideBounds.toggle() }
            move("cell-\(cell)-tag", -1)
        case "table-thin":
            move("cell-\(cell)-divider", 0.25)
            set("cell-\(cell)-hairline") { $0.frame.size.height = k % 2 == 0 ? 0.25 : 1.0 / 3 }
        case "pin-map":
            for i in stride(from: 1999 - k, through: 0, by: -97) { move("pin-\(i)", 1.5) }
            set("map") { $0.bounds.origin.y += 0.5 }
        default:
            move("cell-\(cell)-button", 1)
            set("cell-\(cell)-button") { $0.isHidden.toggle() }
            move("overlay", 0.5)
        }
        return changed
    }

    @Test("Every path == the reference walk on each family: fresh, prepared, after changes", arguments: families)
    func everyPath(name: String) {
        let (scene, edges) = Self.instance(name)
        let root = scene.root
        let points = Self.points(root, edges, seed: 31)
        let referencePoints = name == "pin-map" ? 300 : 800  // the reference sorts the map's 2,000 pins at every visit
        Self.check(root, points, fresh: true, referencePoints: referencePoints, name)
        let ids = Self.byId(scene)
        for k in 0..<3 {
            // The changed views' edges (the map's are off screen: its topmost pins' instead).
            let changed = Self.change(name, ids, k).filter { $0.accessibilityIdentifier != "map" }
            Self.check(root, Self.points(root, changed + edges.prefix(name == "pin-map" ? 10 : 0), seed: 40 + UInt64(k)), fresh: false, referencePoints: referencePoints, "\(name) after change \(k + 1)")
        }
    }

    @Test("A first large bulk call on a fresh scene (it builds the answer grid itself) == the fair walk", arguments: families)
    func firstLargeBulk(name: String) {
        let (scene, edges) = Self.instance(name)
        let root = scene.root
        var edgeSet: [Point] = []
        for v in edges { edgeSet += edgePoints(v, in: root) }
        let points = edgeSet + SampleScenes.uniformPoints(70_000, in: root.bounds, seed: 32)
        let fair = FairWalk(root)
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 1) } }
        var bad = 0
        // The edge points and every 14th of the others.
        for (i, p) in points.enumerated() where i < edgeSet.count || i % 14 == 0 {
            guard root.view(forHitTestHandle: handles[i]) !== fair.hitTest(p) else { continue }
            bad += 1
            if bad <= 2 { Issue.record("\(name) at \(p): bulk \(root.view(forHitTestHandle: handles[i])?.debugName ?? "nil"), fair walk \(fair.hitTest(p)?.debugName ?? "nil")") }
        }
        #expect(bad == 0, "\(name): \(bad) points differ")
    }

    @Test("The table families hold what they say, at the benchmark's size")
    func tableShapes() {
        func scene(_ f: SampleScenes.TableFamily) -> SampleScenes.Scene { SampleScenes.make(f.rawValue)! }
        // table: app with 0.5 pt separators at the foot of each cell, nothing else changed.
        let app = SampleScenes.make("app")!, table = scene(.dressed)
        #expect(app.views.count == table.views.count)
        var differ = 0
        for (a, t) in zip(app.views, table.views) where a.accessibilityIdentifier != t.accessibilityIdentifier || a.frame != t.frame {
            differ += 1
            #expect(t.accessibilityIdentifier?.hasSuffix("-separator") == true && t.frame.height == 0.5 && t.frame.maxY == 60)
        }
        #expect(differ == 200)
        // table-plain: no feature at all.
        let plain = scene(.plain)
        #expect(plain.views.count == 1 + 1 + 3 + 1 + 200 * 6 + 1 + 5)
        #expect(plain.views.allSatisfy { $0.transform.isIdentity && !$0.isHidden && $0.isUserInteractionEnabled && $0.alpha == 1 })
        // table-alpha: overlays on both sides of 0.01; what a point there hits.
        let alpha = scene(.alpha)
        let a = Self.byId(alpha)
        #expect(a["overlay"]!.alpha == 0 && a["scrim"]!.alpha == 0.01.nextDown && a["toast"]!.alpha == 0.01)
        #expect(Reference.hitTest(alpha.root, Point(x: 195, y: 722)) === a["toast"])
        #expect(Reference.hitTest(alpha.root, Point(x: 195, y: 422)) === a["cell-25-subtitle"], "the alpha-0 overlay, its spinner and the scrim are skipped")
        #expect(Reference.hitTest(alpha.root, Point(x: 200, y: 88 + 4 * 60 + 10)) === a["cell-24-highlight"], "alpha exactly 0.01 is hit")
        #expect(Reference.hitTest(alpha.root, Point(x: 200, y: 88 + 6 * 60 + 10)) === a["cell-26-title"], "alpha just below 0.01 is not")
        // table-covers: no hidden or non-interactive view (nor a child of one) is ever hit, and
        // the answers are table-plain's but for the labels and the hidden buttons.
        let covers = scene(.covers)
        let c = Self.byId(covers)
        #expect(c["sheet"]!.isHidden && !c["dim"]!.isUserInteractionEnabled && c["cell-25-edit"]!.isHidden)
        let hiddenButtons = covers.views.filter { $0.isHidden && $0.accessibilityIdentifier?.hasSuffix("-button") == true }.count
        #expect((10...35).contains(hiddenButtons), "\(hiddenButtons) of 200 buttons hidden")
        let p = Self.byId(plain)
        for q in SampleScenes.uniformPoints(300, in: covers.root.bounds, seed: 33) {
            let hit = Reference.hitTest(covers.root, q)
            let id = hit?.accessibilityIdentifier ?? ""
            #expect(!["-edit", "-delete", "-selection", "-grip", "-title", "-subtitle"].contains { id.hasSuffix($0) } && !["sheet", "sheet-button", "dim"].contains(id), "\(id) hit at \(q)")
            let plainHit = Reference.hitTest(plain.root, q)?.accessibilityIdentifier ?? ""
            if plainHit.hasSuffix("-title") || plainHit.hasSuffix("-subtitle") {
                #expect(id.hasSuffix("-content"))
            } else if let b = p[plainHit], plainHit.hasSuffix("-button"), c[plainHit]!.isHidden {
                #expect(id.hasSuffix("-content"), "under hidden \(b.debugName)")
            } else {
                #expect(id == plainHit, "at \(q)")
            }
        }
        // table-rotated: a rotated badge on every icon, a tag on every button, some icons open.
        let rotated = scene(.rotated)
        let badges = rotated.views.filter { $0.accessibilityIdentifier?.hasSuffix("-badge") == true }
        #expect(badges.count == 200 && badges.allSatisfy { !$0.transform.isIdentity && $0.superview!.accessibilityIdentifier!.hasSuffix("-icon") })
        #expect(Set(badges.map(\.transform.b)).count > 90, "odd cells' badges at random angles")
        #expect(rotated.views.filter { $0.accessibilityIdentifier?.hasSuffix("-tag") == true }.count == 200)
        let open = rotated.views.filter(\.allowsSubviewHitsOutsideBounds).count
        #expect((8...35).contains(open), "\(open) icons allow hits outside their bounds")
        // table-thin: the thin views are hit at their middles.
        let thin = scene(.thin)
        let t = Self.byId(thin)
        for id in ["cell-23-separator", "cell-23-hairline", "cell-23-divider", "nav-hairline", "tab-hairline"] {
            let v = t[id]!
            let middle = v.convert(Point(x: v.bounds.midX, y: v.bounds.midY), to: thin.root)
            #expect(Reference.hitTest(thin.root, middle) === v, "\(id) at \(middle)")
        }
        #expect(t["cell-23-hairline"]!.frame.height == 1.0 / 3 && t["cell-23-separator"]!.frame.height == 0.5)
    }

    @Test("The pin map: 20,000 pins on a scaled, scrolled map; about 3,200 on screen and 3.5 under a point")
    func pinMapShape() {
        let scene = SampleScenes.make("pin-map")!
        let root = scene.root
        let ids = Self.byId(scene)
        let map = ids["map"]!
        #expect(scene.views.count == 20_004)
        #expect(map.transform == AffineTransform(scaleX: 1.25, y: 1.25) && map.bounds.origin == Point(x: 195, y: 422))
        let pins = map.subviews
        #expect(pins.count == 20_000 && pins.allSatisfy { (10...16).contains($0.bounds.width) && (14...22).contains($0.bounds.height) })
        let onScreen = pins.filter { root.bounds.contains(map.convert($0.center, to: root)) }.count
        #expect((2_900...3_500).contains(onScreen), "\(onScreen) pins on screen")
        var under = 0
        let points = SampleScenes.uniformPoints(100, in: Rect(x: 0, y: 100, width: 390, height: 650), seed: 34)
        for q in points {
            let m = Reference.fromSuperview(map, q)
            under += pins.filter { Reference.pointInside($0, Reference.fromSuperview($0, m)) }.count
        }
        let mean = Double(under) / Double(points.count)
        #expect((2.8...4.2).contains(mean), "\(mean) pins under a point on average")
        #expect(Reference.hitTest(root, Point(x: 195, y: 76)) === ids["search-bar"])
    }
}
