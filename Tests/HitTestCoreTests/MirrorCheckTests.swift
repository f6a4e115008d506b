import CHitTest
import HitTestKit
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// The mirror check itself: it passes on agreeing trees and names each part of the index derived
/// from the views (links, handler flags) that a write behind the views' back (straight into the
/// C rows) made disagree; what a view stores in its row (geometry, flags, alpha, insets,
/// priority) lives there alone and has nothing to disagree with. Debug builds only: the check is
/// compiled out of release builds.
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
            Plant(name: "handler flag", expected: "hitTestHandler") { t, _, c in
                ht_node_set_flags(t, c[1], UInt32(HT_FLAG_ASK_HIT_TEST))
            },
            Plant(name: "point-inside flag", expected: "pointInsideHandler") { t, _, c in
                ht_node_set_flags(t, c[1], UInt32(HT_FLAG_ASK_POINT_INSIDE | HT_FLAG_HIDDEN))
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

        /// What a view stores in its row is not mirrored: it has one copy, the row, so a write
        /// into the row is the view's new value (nothing to disagree with), and it moves with the
        /// view between the row and the view when the node is made and freed.
        @Test func theRowIsTheOneCopy() {
            let (window, _, children) = Self.scene()
            let tree = window.core!.tree
            let node = children[1].node
            var m = ht_affine(a: 2, b: 0, c: 0, d: 1, tx: 0.5, ty: 0)
            #expect(ht_node_set_center(tree, node, 1, 2) == HT_OK)
            #expect(ht_node_set_bounds(tree, node, 0, 5, 30, 20) == HT_OK)
            #expect(ht_node_set_anchor(tree, node, 0, 1) == HT_OK)
            #expect(ht_node_set_transform(tree, node, &m) == HT_OK)
            #expect(ht_node_set_alpha(tree, node, 0.5) == HT_OK)
            #expect(ht_node_set_insets(tree, node, -1, -2, -3, -4) == HT_OK)
            #expect(ht_node_set_priority(tree, node, 7) == HT_OK)
            let flags = UInt32(HT_FLAG_HIDDEN | HT_FLAG_CLIPS | HT_FLAG_CAPTURES | HT_FLAG_BLOCKED)
            #expect(ht_node_set_flags(tree, node, flags) == HT_OK)
            let expected = ViewGeometry(
                center: Point(x: 1, y: 2), bounds: Rect(x: 0, y: 5, width: 30, height: 20),
                anchorPoint: Point(x: 0, y: 1), transform: AffineTransform(a: 2, b: 0, c: 0, d: 1, tx: 0.5, ty: 0))
            var attributes = ViewHitAttributes()
            attributes.flags = [.hidden, .clips, .captures, .blocked]
            attributes.alpha = 0.5
            attributes.insets = EdgeInsets(top: -1, left: -2, bottom: -3, right: -4)
            attributes.priority = 7
            let v = children[1]
            #expect(v.geometry == expected && v.hitAttributes == attributes)
            #expect(v.center == expected.center && v.bounds == expected.bounds)
            #expect(v.anchorPoint == expected.anchorPoint && v.transform == expected.transform)
            #expect(v.isHidden && v.isUserInteractionEnabled && v.clipsToBounds && v.capturesSubviewTouches)
            #expect(!v.passesTouchesThrough && !v.allowsSubviewHitsOutsideBounds && v.animationBlocksInteraction)
            #expect(v.alpha == 0.5 && v.hitTestInsets == attributes.insets && v.hitTestPriority == 7)
            #expect(window.mirrorMismatches() == [])

            // The other way round: the setters write each field of the row, in its place
            // (the reference walk reads the same rows, so only this pins the writers).
            let view = children[0]
            view.bounds = Rect(x: 11, y: 12, width: 13, height: 14)
            view.center = Point(x: 15, y: 16)
            view.anchorPoint = Point(x: 0.25, y: 0.75)
            view.transform = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
            view.alpha = 0.25
            view.hitTestInsets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
            view.hitTestPriority = Int.max
            var g = ht_node_geometry()
            #expect(ht_node_get_geometry(tree, view.node, &g) == HT_OK)
            #expect([g.center_x, g.center_y] == [15, 16])
            #expect([g.bounds_x, g.bounds_y, g.bounds_w, g.bounds_h] == [11, 12, 13, 14])
            #expect([g.anchor_x, g.anchor_y] == [0.25, 0.75])
            let t = g.transform
            #expect([t.a, t.b, t.c, t.d, t.tx, t.ty] == [1, 2, 3, 4, 5, 6])
            var r = ht_node_record()
            #expect(ht_node_get_record(tree, view.node, &r) == HT_OK)
            #expect(r.alpha == 0.25 && r.priority == Int32.max)
            #expect([r.inset_top, r.inset_left, r.inset_bottom, r.inset_right] == [1, 2, 3, 4])
            // Each flag setter sets its own bit and no other.
            let setters: [(UInt32, (View) -> Void)] = [
                (UInt32(HT_FLAG_HIDDEN), { $0.isHidden = true }),
                (UInt32(HT_FLAG_NO_INTERACTION), { $0.isUserInteractionEnabled = false }),
                (UInt32(HT_FLAG_CLIPS), { $0.clipsToBounds = true }),
                (UInt32(HT_FLAG_PASS_THROUGH), { $0.passesTouchesThrough = true }),
                (UInt32(HT_FLAG_CAPTURES), { $0.capturesSubviewTouches = true }),
                (UInt32(HT_FLAG_OUTSIDE_HITS), { $0.allowsSubviewHitsOutsideBounds = true }),
                (UInt32(HT_FLAG_BLOCKED), { $0.setAnimationBlocksInteraction(true) }),
            ]
            for (bit, set) in setters {
                let fresh = View(frame: Rect(x: 0, y: 0, width: 5, height: 5))
                window.addSubview(fresh)
                set(fresh)
                #expect(ht_node_get_record(tree, fresh.node, &r) == HT_OK)
                #expect(r.flags == bit, "flag \(bit): the row holds \(r.flags)")
            }

            // Into another index (its node is freed and made anew): the values go along.
            let other = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            other.ensureCore()
            other.addSubview(children[1])
            #expect(children[1].core === other.core && children[1].core !== window.core)
            #expect(children[1].geometry == expected && children[1].hitAttributes == attributes)
            #expect(other.mirrorMismatches() == [])

            // A view without a node keeps them itself, and hands them to the row it joins.
            let loose = View(frame: Rect(x: 3, y: 4, width: 6, height: 8))
            loose.anchorPoint = Point(x: 0, y: 0)
            loose.center = Point(x: 7, y: 9)
            loose.isUserInteractionEnabled = false
            loose.passesTouchesThrough = true
            loose.alpha = 0.75
            loose.hitTestPriority = -3
            #expect(loose.core == nil)
            let before = (loose.geometry, loose.hitAttributes)
            #expect(before.1.flags == [.noInteraction, .passesThrough])
            window.addSubview(loose)
            #expect(loose.core === window.core && loose.geometry == before.0 && loose.hitAttributes == before.1)
            #expect(loose.frame == Rect(x: 7, y: 9, width: 6, height: 8))
            #expect(ht_node_get_record(tree, loose.node, &r) == HT_OK)
            #expect(r.flags == UInt32(HT_FLAG_NO_INTERACTION | HT_FLAG_PASS_THROUGH) && r.alpha == 0.75 && r.priority == -3)
        }

        @Test func settingTheHandlerAgainRepairsTheRow() {
            let (window, _, children) = Self.scene()
            children[0].pointInsideHandler = { _, _, _ in true }
            #expect(ht_node_set_flags(window.core!.tree, children[0].node, 0) == HT_OK)
            #expect(window.mirrorMismatches().count == 1)
            children[0].pointInsideHandler = children[0].pointInsideHandler
            #expect(window.mirrorMismatches() == [])
        }
    #endif
}
