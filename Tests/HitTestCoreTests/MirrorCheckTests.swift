import CHitTest
import HitTestKit
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// The mirror check itself: it passes on agreeing trees and names each attribute that a write
/// behind the views' back (straight into the C rows) made disagree. Debug builds only: the
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
            Plant(name: "center", expected: "center") { t, _, c in ht_node_set_center(t, c[1], 1, 2) },
            Plant(name: "bounds", expected: "bounds") { t, _, c in ht_node_set_bounds(t, c[1], 0, 5, 40, 40) },
            Plant(name: "anchor", expected: "anchorPoint") { t, _, c in ht_node_set_anchor(t, c[1], 0, 0) },
            Plant(name: "transform", expected: "transform") { t, _, c in
                var m = ht_affine(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0)
                return ht_node_set_transform(t, c[1], &m)
            },
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

        @Test func writingThePropertyAgainRepairsTheRow() {
            let (window, _, children) = Self.scene()
            #expect(ht_node_set_alpha(window.core!.tree, children[0].node, 0) == HT_OK)
            #expect(window.mirrorMismatches().count == 1)
            children[0].alpha = children[0].alpha
            #expect(window.mirrorMismatches() == [])
        }
    #endif
}
