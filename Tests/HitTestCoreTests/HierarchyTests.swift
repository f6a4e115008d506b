import HitTestKit
import HitTestTestSupport
import Testing

@Suite struct HierarchyTests {
    @Test func addAppendsAndMovesBetweenSuperviews() {
        let a = View(), b = View(), c = View(), d = View()
        a.addSubview(b)
        a.addSubview(c)
        #expect(a.subviews.map(ObjectIdentifier.init) == [b, c].map(ObjectIdentifier.init))
        #expect(b.superview === a)
        d.addSubview(b)
        #expect(a.subviews.count == 1 && a.subviews[0] === c && b.superview === d)
        a.addSubview(d)
        a.addSubview(c)  // already a subview: moves to the top
        #expect(a.subviews.count == 2 && a.subviews[1] === c && a.subviews[0] === d)
    }

    @Test func insertAtClampsAndAppliesAfterRemoval() {
        let p = View()
        let v = (0..<4).map { _ in View() }
        v.forEach(p.addSubview)
        let extra = View()
        p.insertSubview(extra, at: 99)
        #expect(p.subviews.last === extra)
        p.insertSubview(v[0], at: 2)  // removed first: [v1 v2 v0 v3 extra]
        #expect(p.subviews.map(ObjectIdentifier.init) == [v[1], v[2], v[0], v[3], extra].map(ObjectIdentifier.init))
        p.insertSubview(extra, at: 0)
        #expect(p.subviews.first === extra)
    }

    @Test func insertAboveAndBelow() {
        let p = View()
        let a = View(), b = View(), c = View(), stranger = View()
        p.addSubview(a)
        p.addSubview(b)
        p.insertSubview(c, aboveSubview: a)
        #expect(p.subviews.map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        p.insertSubview(b, belowSubview: a)
        #expect(p.subviews.map(ObjectIdentifier.init) == [b, a, c].map(ObjectIdentifier.init))
        p.insertSubview(a, aboveSubview: c)
        #expect(p.subviews.map(ObjectIdentifier.init) == [b, c, a].map(ObjectIdentifier.init))
        let d = View()
        p.insertSubview(d, belowSubview: stranger)  // not a sibling: appended on top
        #expect(p.subviews.last === d)
    }

    @Test func exchangeBringSendAndIgnoredCases() {
        let p = View()
        let v = (0..<3).map { _ in View() }
        v.forEach(p.addSubview)
        p.exchangeSubview(at: 0, withSubviewAt: 2)
        #expect(p.subviews.map(ObjectIdentifier.init) == [v[2], v[1], v[0]].map(ObjectIdentifier.init))
        p.bringSubviewToFront(v[2])
        #expect(p.subviews.last === v[2])
        p.sendSubviewToBack(v[0])
        #expect(p.subviews.first === v[0])
        let other = View()
        p.bringSubviewToFront(other)
        p.sendSubviewToBack(other)
        #expect(p.subviews.count == 3 && other.superview == nil)
        other.removeFromSuperview()  // no superview: nothing happens
        #expect(other.superview == nil)
    }

    @Test func isDescendantAndViewWithTag() {
        let a = View(), b = View(), c = View(), d = View()
        a.addSubview(b)
        b.addSubview(c)
        a.addSubview(d)
        #expect(c.isDescendant(of: a) && c.isDescendant(of: c) && !a.isDescendant(of: c))
        #expect(!d.isDescendant(of: b))
        b.tag = 7
        d.tag = 7
        c.tag = 3
        #expect(a.viewWithTag(7) === b)  // pre-order, array order
        #expect(a.viewWithTag(3) === c)
        #expect(a.viewWithTag(0) === a)  // the receiver itself first
        #expect(a.viewWithTag(42) == nil)
    }

    @Test func misuseStopsWithAClearMessage() async {
        await #expect(processExitsWith: .failure) {
            let v = View()
            v.addSubview(v)
        }
        await #expect(processExitsWith: .failure) {
            let a = View(), b = View(), c = View()
            a.addSubview(b)
            b.addSubview(c)
            c.addSubview(a)
        }
        await #expect(processExitsWith: .failure) {
            View().insertSubview(View(), at: -1)
        }
        await #expect(processExitsWith: .failure) {
            let p = View()
            p.addSubview(View())
            p.exchangeSubview(at: 0, withSubviewAt: 1)
        }
    }

    @Test func addAndRemoveCallbackOrder() {
        let log = LoggingView.Log()
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let parent = LoggingView("parent", log: log)
        let child = LoggingView("child", log: log)
        let grandchild = LoggingView("grandchild", log: log)
        child.addSubview(grandchild)
        log.lines = []
        parent.addSubview(child)  // no window involved
        #expect(log.lines == ["child.willMoveToSuperview(parent)", "child.didMoveToSuperview", "parent.didAddSubview(child)"])
        log.lines = []
        window.addSubview(parent)
        #expect(log.lines == [
            "parent.willMoveToSuperview(window)",
            "parent.willMoveToWindow(window)", "child.willMoveToWindow(window)", "grandchild.willMoveToWindow(window)",
            "parent.didMoveToWindow", "child.didMoveToWindow", "grandchild.didMoveToWindow",
            "parent.didMoveToSuperview",
        ])
        #expect(grandchild.window === window)
        log.lines = []
        child.removeFromSuperview()
        #expect(log.lines == [
            "parent.willRemoveSubview(child)", "child.willMoveToSuperview(nil)",
            "child.willMoveToWindow(nil)", "grandchild.willMoveToWindow(nil)",
            "child.didMoveToWindow", "grandchild.didMoveToWindow", "child.didMoveToSuperview",
        ])
        #expect(grandchild.window == nil)
    }

    @Test func moveCallbackOrderAndReordersAreSilent() {
        let log = LoggingView.Log()
        let a = LoggingView("a", log: log)
        let b = LoggingView("b", log: log)
        let v = LoggingView("v", log: log)
        let w = LoggingView("w", log: log)
        a.addSubview(v)
        a.addSubview(w)
        log.lines = []
        b.addSubview(v)  // same (nil) window: no window callbacks, one willMove, no nil between
        #expect(log.lines == ["a.willRemoveSubview(v)", "v.willMoveToSuperview(b)", "v.didMoveToSuperview", "b.didAddSubview(v)"])
        log.lines = []
        b.addSubview(w)
        b.addSubview(v)  // already there: to the top, silently
        b.bringSubviewToFront(w)
        b.sendSubviewToBack(w)
        b.exchangeSubview(at: 0, withSubviewAt: 1)
        b.insertSubview(w, at: 0)
        #expect(log.lines == ["a.willRemoveSubview(w)", "w.willMoveToSuperview(b)", "w.didMoveToSuperview", "b.didAddSubview(w)"])
    }

    @Test func windowCallbacksOnlyWhenTheWindowChanges() {
        let log = LoggingView.Log()
        let window = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let a = LoggingView("a", log: log)
        let b = LoggingView("b", log: log)
        let v = LoggingView("v", log: log)
        window.addSubview(a)
        window.addSubview(b)
        a.addSubview(v)
        log.lines = []
        b.addSubview(v)  // both in the same window
        #expect(!log.lines.contains { $0.contains("Window") })
        let other = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        log.lines = []
        other.addSubview(v)
        #expect(log.lines == [
            "b.willRemoveSubview(v)", "v.willMoveToSuperview(window)", "v.willMoveToWindow(window)",
            "v.didMoveToWindow", "v.didMoveToSuperview",
        ])
        #expect(v.window === other)
    }

    /// A window placed inside another view stays its own window and its subviews' (`UIWindow`'s
    /// `window` is itself): moving it in or out changes no view's window, sends no window
    /// callbacks, and a window above it dying leaves it no reference to the dead window.
    @Test func aWindowInsideAnotherViewStaysItsOwnWindow() {
        let log = LoggingView.Log()
        var outer: Window? = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let host = LoggingView("host", log: log)
        outer!.addSubview(host)
        let inner = Window(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let content = LoggingView("content", log: log)
        inner.addSubview(content)
        log.lines = []
        host.addSubview(inner)
        #expect(inner.window === inner && content.window === inner)
        #expect(!log.lines.contains { $0.contains("Window") }, "\(log.lines)")
        inner.removeFromSuperview()
        #expect(inner.window === inner && content.window === inner)
        // A plain subtree holding the inner window moves between windows; the inner window's
        // part keeps its window.
        let wrapper = LoggingView("wrapper", log: log)
        wrapper.addSubview(inner)
        log.lines = []
        host.addSubview(wrapper)
        #expect(wrapper.window === outer && inner.window === inner && content.window === inner)
        #expect(log.lines.filter { $0.contains("Window") } == ["wrapper.willMoveToWindow(window)", "wrapper.didMoveToWindow"])
        log.lines = []
        wrapper.removeFromSuperview()
        #expect(wrapper.window == nil && inner.window === inner && content.window === inner)
        #expect(log.lines.filter { $0.contains("Window") } == ["wrapper.willMoveToWindow(nil)", "wrapper.didMoveToWindow"])
        // The outer window dies holding the inner one: nothing keeps a reference to it.
        host.addSubview(wrapper)
        outer = nil
        #expect(host.window == nil && wrapper.window == nil)
        #expect(inner.window === inner && content.window === inner)
        // A window inside a dying window dies with it; a subview that outlives both is in no
        // window.
        var dying: Window? = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let survivor = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        do {
            let nested = Window(frame: Rect(x: 0, y: 0, width: 50, height: 50))
            nested.addSubview(survivor)
            dying!.addSubview(nested)
            #expect(survivor.window === nested)
        }
        dying = nil
        #expect(survivor.window == nil && survivor.superview == nil)
    }

    @Test func responderChainFollowsUIKit() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        app.addWindow(window)
        let controller = ViewController()
        window.rootViewController = controller
        let button = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        controller.view.addSubview(button)
        #expect(controller.view.frame == window.bounds)
        #expect(button.next === controller.view)
        #expect(controller.view.next === controller)
        #expect(controller.next === window)
        #expect(window.next === app)
        #expect(app.next == nil)
    }
}
