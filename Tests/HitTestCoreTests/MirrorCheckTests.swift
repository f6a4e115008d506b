import CHitTest
import HitTestKit
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// The mirror check itself: it passes on agreeing trees and names each mirrored attribute that a
/// write behind the views' back (straight into the C rows) made disagree; geometry, which lives
/// in the rows alone, has nothing to disagree with. Debug builds only: the
/// check is compiled out of release builds.
@Suite struct MirrorCheckTests {
    #if DEBUG
        /// A window with a parent holding three children, every node registered.
        static func scene() -> (Window, View, [View]) {
            let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
            let parent = View(frame: Rect(x: 10, y: 20, width: 300, height: 400))
            window.addSubview(parent)
            let children = (0..<3).map { i in View(frame: Rect(x: Double(i) * 50, y: 0, width: 40, height: 40)) }
            for c in children { parent.addSubview(c) }
            return (window, parent, children)
        }

        /// One planted disagreement: what to write into C, and the words the report must hold.
        struct Plant: Sendable, CustomTestStringConvertible {
            let name: String
            let expected: String
            let write: @Sendable (OpaquePointer, _ parent: Int32, _ children: [Int32]) -> ht_status
            var testDescription: String { name }
        }

        static let plants: [Plant] = [
            Plant(name: "alpha", expected: "alpha") { t, _, c in ht_node_set_alpha(t, c[1], 0.009) },
            Plant(name: "insets", expected: "hitTestInsets") { t, _, c in ht_node_set_insets(t, c[1], -1, 0, 0, 0) },
            Plant(name: "priority", expected: "hitTestPriority") { t, _, c in ht_node_set_priority(t, c[1], 1) },
            Plant(name: "hidden", expected: "isHidden") { t, _, c in ht_node_set_flags(t, c[1], UInt32(HT_FLAG_HIDDEN)) },
            Plant(name: "interaction", expected: "!isUserInteractionEnabled") { t, _, c in
                ht_node_set_flags(t, c[1], UInt32(HT_FLAG_NO_INTERACTION))
            },
            Plant(name: "captures", expected: "capturesSubviewTouches") { t, _, c in
                ht_node_set_flags(t, c[1], UInt32(HT_FLAG_CAPTURES))
            },
            Plant(name: "handler flag", expected: "hitTestHandler") { t, _, c in
                ht_node_set_flags(t, c[1], UInt32(HT_FLAG_ASK_HIT_TEST))
            },
            Plant(name: "parent link", expected: "parent is node") { t, _, c in ht_node_attach(t, c[0], c[2], 0) },
            Plant(name: "detached child", expected: "children") { t, _, c in ht_node_detach(t, c[0]) },
            Plant(name: "child order", expected: "subview 0") { t, p, c in ht_node_attach(t, c[2], p, 0) },
        ]

        @Test func agreeingTreesPass() {
            let (window, parent, children) = Self.scene()
            children[0].transform = AffineTransform(scaleX: 0, y: 1)
            children[1].hitTestInsets = EdgeInsets(top: -4, left: -4, bottom: -4, right: -4)
            children[2].hitTestPriority = Int.max  // stored clamped in C; the check knows
            parent.alpha = 0.01
            parent.passesTouchesThrough = true
            parent.pointInsideHandler = { _, _, _ in true }
            children[2].removeFromSuperview()
            #expect(window.mirrorMismatches() == [])
            #expect(children[2].mirrorMismatches() == [])
            #expect(View().mirrorMismatches() == [])  // no node: nothing to compare
        }

        @Test(arguments: plants)
        func aWriteBehindTheViewsBackIsNamed(_ plant: Plant) {
            let (window, parent, children) = Self.scene()
            let core = window.core!
            #expect(plant.write(core.tree, parent.node, children.map(\.node)) == HT_OK)
            let problems = window.mirrorMismatches()
            #expect(
                problems.contains { $0.contains(plant.expected) },
                "\(plant.name): expected a report naming \(plant.expected), got \(problems)")
        }

        /// Geometry is not mirrored: it has one copy, the row, so a write into the row is the
        /// view's new geometry (nothing to disagree with), and it moves with the view between
        /// the row and the view when the node is made and freed.
        @Test func geometryHasOneCopy() {
            let (window, _, children) = Self.scene()
            let tree = window.core!.tree
            var m = ht_affine(a: 2, b: 0, c: 0, d: 1, tx: 0.5, ty: 0)
            #expect(ht_node_set_center(tree, children[1].node, 1, 2) == HT_OK)
            #expect(ht_node_set_bounds(tree, children[1].node, 0, 5, 30, 20) == HT_OK)
            #expect(ht_node_set_anchor(tree, children[1].node, 0, 1) == HT_OK)
            #expect(ht_node_set_transform(tree, children[1].node, &m) == HT_OK)
            let expected = ViewGeometry(
                center: Point(x: 1, y: 2), bounds: Rect(x: 0, y: 5, width: 30, height: 20),
                anchorPoint: Point(x: 0, y: 1), transform: AffineTransform(a: 2, b: 0, c: 0, d: 1, tx: 0.5, ty: 0))
            #expect(children[1].geometry == expected)
            #expect(children[1].center == expected.center && children[1].bounds == expected.bounds)
            #expect(children[1].anchorPoint == expected.anchorPoint && children[1].transform == expected.transform)
            #expect(window.mirrorMismatches() == [])

            // The other way round: the setters write each field of the row, in its place
            // (the reference walk reads the same rows, so only this pins the writers).
            let view = children[0]
            view.bounds = Rect(x: 11, y: 12, width: 13, height: 14)
            view.center = Point(x: 15, y: 16)
            view.anchorPoint = Point(x: 0.25, y: 0.75)
            view.transform = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
            var g = ht_node_geometry()
            #expect(ht_node_get_geometry(tree, view.node, &g) == HT_OK)
            #expect([g.center_x, g.center_y] == [15, 16])
            #expect([g.bounds_x, g.bounds_y, g.bounds_w, g.bounds_h] == [11, 12, 13, 14])
            #expect([g.anchor_x, g.anchor_y] == [0.25, 0.75])
            let t = g.transform
            #expect([t.a, t.b, t.c, t.d, t.tx, t.ty] == [1, 2, 3, 4, 5, 6])

            // Into another index (its node is freed and made anew): the geometry goes along.
            let other = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            other.ensureCore()
            other.addSubview(children[1])
            #expect(children[1].core === other.core && children[1].core !== window.core)
            #expect(children[1].geometry == expected)
            #expect(other.mirrorMismatches() == [])

            // A view without a node keeps it itself, and hands it to the row it joins.
            let loose = View(frame: Rect(x: 3, y: 4, width: 6, height: 8))
            loose.anchorPoint = Point(x: 0, y: 0)
            loose.center = Point(x: 7, y: 9)
            #expect(loose.core == nil)
            let before = loose.geometry
            window.addSubview(loose)
            #expect(loose.core === window.core && loose.geometry == before)
            #expect(loose.frame == Rect(x: 7, y: 9, width: 6, height: 8))
        }

        @Test func writingThePropertyAgainRepairsTheRow() {
            let (window, _, children) = Self.scene()
            #expect(ht_node_set_alpha(window.core!.tree, children[0].node, 0) == HT_OK)
            #expect(window.mirrorMismatches().count == 1)
            children[0].alpha = children[0].alpha
            #expect(window.mirrorMismatches() == [])
        }
    #endif
}
