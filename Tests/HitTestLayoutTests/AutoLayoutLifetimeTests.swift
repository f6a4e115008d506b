import Testing

@testable import HitTestCore
@testable import HitTestLayout

/// Auto Layout holds views unretained (HitTestLayout/Storage.swift): constraints name a view
/// through its record, items and guides hold it without a retain, and the view's `deinit`
/// clears them all. These tests check what a user sees of that: items read nil once their
/// view is gone, nothing keeps a dead tree alive, and a live tree keeps working after one of
/// its constrained views dies.
@Suite struct AutoLayoutLifetimeTests {
    /// A container with two constrained subviews (`a` pinned to the container, `b` below `a`).
    private static func tree() -> (root: View, a: View, b: View, constraints: [LayoutConstraint]) {
        let root = View(frame: Rect(x: 0, y: 0, width: 300, height: 600))
        let a = View()
        let b = View()
        for v in [a, b] {
            v.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(v)
        }
        let constraints = [
            a.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
            a.topAnchor.constraint(equalTo: root.layoutMarginsGuide.topAnchor),
            a.widthAnchor.constraint(equalToConstant: 100),
            a.heightAnchor.constraint(equalToConstant: 40),
            b.leadingAnchor.constraint(equalTo: a.leadingAnchor),
            b.topAnchor.constraint(equalTo: a.bottomAnchor, constant: 4),
            b.widthAnchor.constraint(equalTo: a.widthAnchor),
            b.heightAnchor.constraint(equalTo: a.heightAnchor),
        ]
        LayoutConstraint.activate(constraints)
        root.layoutIfNeeded()
        return (root, a, b, constraints)
    }

    @Test func aConstraintOutlivingItsViewsReadsNilItems() {
        var kept: LayoutConstraint?
        weak var weakA: View?
        do {
            let t = Self.tree()
            weakA = t.a
            #expect(t.b.frame == Rect(x: 10, y: 52, width: 100, height: 40))
            kept = t.constraints[5]
            #expect(kept?.firstItem === t.b)
            #expect(kept?.secondItem === t.a)
        }
        #expect(weakA == nil, "the tree died: nothing of Auto Layout keeps its views")
        #expect(kept?.firstItem == nil)
        #expect(kept?.secondItem == nil)
    }

    @Test func aDeadTreeLeavesNothingBehind() {
        weak var weakRoot: View?
        weak var weakB: View?
        weak var weakConstraint: LayoutConstraint?
        weak var weakGuide: LayoutGuide?
        do {
            let t = Self.tree()
            let guide = LayoutGuide()
            t.root.addLayoutGuide(guide)
            LayoutConstraint.activate([
                guide.leadingAnchor.constraint(equalTo: t.b.trailingAnchor),
                guide.topAnchor.constraint(equalTo: t.root.topAnchor),
                guide.widthAnchor.constraint(equalToConstant: 5),
                guide.heightAnchor.constraint(equalToConstant: 5),
            ])
            t.root.layoutIfNeeded()
            #expect(guide.layoutFrame == Rect(x: 110, y: 0, width: 5, height: 5))
            weakRoot = t.root
            weakB = t.b
            weakConstraint = t.constraints[0]
            weakGuide = guide
        }
        #expect(weakRoot == nil)
        #expect(weakB == nil)
        #expect(weakConstraint == nil, "an active constraint dies with its tree")
        #expect(weakGuide == nil)
    }

    @Test func aGuideOutlivingItsOwnerHasNoOwner() {
        var guide: LayoutGuide?
        var margins: LayoutGuide?
        do {
            let owner = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
            let g = LayoutGuide()
            owner.addLayoutGuide(g)
            #expect(g.owningView === owner)
            guide = g
            margins = owner.layoutMarginsGuide
            #expect(margins?.layoutFrame == Rect(x: 8, y: 8, width: 34, height: 34))
        }
        #expect(guide?.owningView == nil)
        #expect(margins?.owningView == nil)
        #expect(margins?.layoutFrame == .zero)
    }

    @Test func aLiveTreeKeepsSolvingAfterAConstrainedViewDies() {
        var t: (root: View, a: View, b: View, constraints: [LayoutConstraint])? = Self.tree()
        let root = t!.root
        let a = t!.a
        let constraints = t!.constraints
        weak let weakB: View? = t!.b
        t!.b.removeFromSuperview()
        t = nil
        #expect(weakB == nil, "a removed view is not kept by its old tree's engine")
        #expect(constraints[5].firstItem == nil)
        constraints[0].constant = 30
        root.layoutIfNeeded()
        #expect(a.frame == Rect(x: 30, y: 8, width: 100, height: 40))
        // A new view constrained to the survivors is placed as before.
        let c = View()
        c.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(c)
        LayoutConstraint.activate([
            c.leadingAnchor.constraint(equalTo: a.trailingAnchor),
            c.topAnchor.constraint(equalTo: a.topAnchor),
            c.widthAnchor.constraint(equalToConstant: 7),
            c.heightAnchor.constraint(equalToConstant: 9),
        ])
        root.layoutIfNeeded()
        #expect(c.frame == Rect(x: 130, y: 8, width: 7, height: 9))
    }

    @Test func aSuperviewDyingBeforeItsHostedItemsLeavesThemUnhosted() {
        // The subview outlives its superview (held here), which hosted its item.
        var survivor: View?
        var kept: [LayoutConstraint] = []
        weak var weakRoot: View?
        do {
            let t = Self.tree()
            survivor = t.a
            kept = t.constraints
            weakRoot = t.root
        }
        #expect(weakRoot == nil)
        #expect(survivor?.superview == nil)
        #expect(kept[0].secondItem == nil, "the root is gone")
        // The survivor still works as a view and as the root of a new tree.
        let other = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        other.addSubview(survivor!)
        survivor!.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([
            survivor!.leadingAnchor.constraint(equalTo: other.leadingAnchor, constant: 3),
            survivor!.topAnchor.constraint(equalTo: other.topAnchor, constant: 4),
            survivor!.widthAnchor.constraint(equalToConstant: 20),
            survivor!.heightAnchor.constraint(equalToConstant: 21),
        ])
        other.layoutIfNeeded()
        #expect(survivor!.frame == Rect(x: 3, y: 4, width: 20, height: 21))
    }

    /// A superview's queue of frames to apply names its subviews' items by slot in the engine,
    /// and a freed slot is reused: an item that leaves the engine while queued leaves the queue,
    /// and the item that takes its slot gets its own frame, once.
    @Test func anItemLeavingWhileQueuedLeavesTheQueue() {
        let (root, a, b, constraints) = Self.tree()
        root.layoutIfNeeded()
        let placed = a.frame
        // Set by hand: queued for the engine's frame to be put back at the next pass.
        a.frame = Rect(x: 50, y: 60, width: 10, height: 10)
        #expect(a.frame != placed)
        #expect(root.autoLayoutState?.pendingApply.count == 1)
        // The constraints go, and every item with them: out of the queue.
        LayoutConstraint.deactivate(constraints)
        #expect(root.autoLayoutState?.pendingApply.isEmpty == true)
        // New items take the freed slots.
        LayoutConstraint.activate([
            b.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 30),
            b.topAnchor.constraint(equalTo: root.topAnchor, constant: 200),
            b.widthAnchor.constraint(equalToConstant: 80),
            b.heightAnchor.constraint(equalToConstant: 30),
        ])
        root.layoutIfNeeded()
        #expect(b.frame == Rect(x: 30, y: 200, width: 80, height: 30))
        #expect(a.frame == Rect(x: 50, y: 60, width: 10, height: 10), "no constraint places it any more (UIKit keeps its frame)")
        #expect(root.autoLayoutState?.pendingApply.isEmpty == true)
        // Set by hand again: the engine's frame comes back at the superview's next layout.
        b.frame = Rect(x: 0, y: 0, width: 1, height: 1)
        root.setNeedsLayout()
        root.layoutIfNeeded()
        #expect(b.frame == Rect(x: 30, y: 200, width: 80, height: 30))
    }
}
