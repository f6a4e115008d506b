import CHitTest
@testable import HitTestCLI
import HitTestKit
import HitTestReference
import HitTestTestSupport
import Testing

/// The trail of the C walk (`ht_tree_hit_test_trace`, `View.hitTestTrace`): UIKit's walk, step
/// by step, from the walk that answers `hitTest`. Held to the reference walk's own record of its
/// steps (`Reference.Probe`) on random trees, and to hand-written trails for each decision.
@Suite struct HitTestTraceTests {
    /// A Reference step's words, in the CLI's singular/plural.
    static func referenceWords(_ s: Reference.Step) -> String {
        s.verdict.replacingOccurrences(of: "searching 1 subviews", with: "searching 1 subview")
    }

    /// The Reference steps with a hitTestHandler's own walk ("decides", the steps of its super
    /// calls, "answered") folded into one step, as the C trail has it.
    static func foldingHandlers(_ steps: [Reference.Step]) -> [Reference.Step] {
        var out: [Reference.Step] = []
        var k = 0
        while k < steps.count {
            let s = steps[k]
            if s.verdict == "hitTestHandler decides" {
                var e = k + 1
                while !(steps[e].depth == s.depth && steps[e].verdict.hasPrefix("hitTestHandler answered")) { e += 1 }
                out.append(steps[e])
                k = e + 1
            } else {
                out.append(s)
                k += 1
            }
        }
        return out
    }

    static func same(_ a: Point, _ b: Point) -> Bool {
        (a.x == b.x || (a.x.isNaN && b.x.isNaN)) && (a.y == b.y || (a.y.isNaN && b.y.isNaN))
    }

    /// The trail for `p` equals the reference walk's record, step for step: view, depth, point
    /// (to the bit) and decision; the same answer and the same number of hitTest calls.
    static func expectTraceIsTheReferenceWalk(_ root: View, _ p: Point, _ label: String) -> Bool {
        let probe = Reference.Probe(recording: true)
        let reference = Reference.hitTest(root, p, probe: probe)
        let trace = root.hitTestTrace(p)
        let expected = foldingHandlers(probe.steps!)
        // Calls: the reference's, but those a handler's own walk made (not in the trail).
        let calls = expected.filter { !$0.verdict.hasPrefix("hit:") && !$0.verdict.hasPrefix("nil:") }.count
        let handled = expected.contains { $0.verdict.hasPrefix("hitTestHandler") }
        guard trace.hit === reference, trace.hit === root.hitTest(p), trace.viewsTested == calls,
              handled || calls == probe.visits, trace.steps.count == expected.count else {
            Issue.record("\(label) at \(p): hit \(trace.hit?.debugName ?? "nil") vs \(reference?.debugName ?? "nil"), \(trace.viewsTested) vs \(probe.visits) calls, \(trace.steps.count) vs \(expected.count) steps")
            return false
        }
        for (s, r) in zip(trace.steps, expected) {
            let words = HitTestCLI.Explain.verdict(s)
            if s.view.debugName != r.view || s.depth != r.depth || !same(s.point, r.point) || words != referenceWords(r) {
                Issue.record("\(label) at \(p): step \(s.view.debugName) depth \(s.depth) \(s.point) '\(words)' vs \(r.view) depth \(r.depth) \(r.point) '\(r.verdict)'")
                return false
            }
        }
        return true
    }

    @Test(arguments: 0..<16)
    func theTrailIsTheReferenceWalkOnRandomTrees(seed: UInt64) {
        let tree = RandomTree.make(seed: 9100 + seed, options: .init(maxViews: 200, customisations: true, handlers: seed % 4 == 3))
        for (k, v) in tree.all.enumerated() { v.accessibilityIdentifier = "v\(k)" }
        if seed % 3 == 1 { tree.root.bounds.origin = Point(x: 13.5, y: -40) }
        // The answer grid prepared, as for bulk queries: the trail still walks (and agrees).
        tree.root.prepareHitTesting()
        var bad = 0
        for p in RandomTree.points(for: tree, count: 300, seed: seed) where bad < 3 {
            if !Self.expectTraceIsTheReferenceWalk(tree.root, p, "seed \(9100 + seed)") { bad += 1 }
        }
        #expect(bad == 0)
    }

    /// One view of each kind under a window, searched last first: the trail names each decision.
    static func kinds() -> (Window, [String: View]) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        window.accessibilityIdentifier = "window"
        var v: [String: View] = ["window": window]
        func add(_ name: String, _ frame: Rect, to parent: View? = nil, _ set: (View) -> Void = { _ in }) {
            let view = View(frame: frame)
            view.accessibilityIdentifier = name
            set(view)
            (parent ?? window).addSubview(view)
            v[name] = view
        }
        let all = Rect(x: 0, y: 0, width: 300, height: 300)
        add("target", all)
        add("high", Rect(x: 200, y: 200, width: 10, height: 10), to: v["target"]) { $0.hitTestPriority = 1 }
        add("low", all, to: v["target"])
        add("capturesOutside", Rect(x: 250, y: 250, width: 10, height: 10)) {
            $0.capturesSubviewTouches = true
            $0.allowsSubviewHitsOutsideBounds = true
        }
        add("reaches", Rect(x: 250, y: 250, width: 10, height: 10)) { $0.allowsSubviewHitsOutsideBounds = true }
        add("reachesChild", Rect(x: 0, y: 0, width: 5, height: 5), to: v["reaches"])
        add("passes", all) { $0.passesTouchesThrough = true }
        add("outside", Rect(x: 200, y: 200, width: 10, height: 10))
        add("singular", all) { $0.transform = AffineTransform(scaleX: 0, y: 1) }
        add("inert", all) { $0.isUserInteractionEnabled = false }
        add("faded", all) { $0.alpha = 0.005 }
        add("hidden", all) { $0.isHidden = true }
        return (window, v)
    }

    @Test func eachDecisionHasItsStep() {
        let (window, v) = Self.kinds()
        let trace = window.hitTestTrace(Point(x: 20, y: 30))
        typealias D = HitTestTrace.Decision
        let expected: [(String, Int, D, Bool)] = [
            ("window", 0, .searchesSubviews(count: 9), true),
            ("hidden", 1, .hidden, false),
            ("faded", 1, .transparent, false),
            ("inert", 1, .userInteractionDisabled, false),
            ("singular", 1, .singularTransform, false),
            ("outside", 1, .outside, false),
            ("passes", 1, .searchesSubviews(count: 0), true),
            ("passes", 1, .passesTouchesThrough, true),
            ("reaches", 1, .searchesSubviews(count: 1), false),
            ("reachesChild", 2, .outside, false),
            ("reaches", 1, .noSubviewTookThePoint, false),
            ("capturesOutside", 1, .capturesSubviewTouches, false),
            ("capturesOutside", 1, .noSubviewTookThePoint, false),
            ("target", 1, .searchesSubviews(count: 2), true),
            ("high", 2, .outside, false),  // the higher priority first, though added first
            ("low", 2, .searchesSubviews(count: 0), true),
            ("low", 2, .hit, true),
        ]
        #expect(trace.steps.map { "\($0.view.debugName) \($0.depth) \($0.decision) \($0.isInside)" }
            == expected.map { "\($0.0) \($0.1) \($0.2) \($0.3)" })
        #expect(trace.hit === v["low"] && trace.viewsTested == 13)
        // Points in each view's space: the singular view's is NaN, the others the conversion's.
        for s in trace.steps where s.view !== window {
            let p = window.convert(Point(x: 20, y: 30), to: s.view)
            #expect(Self.same(s.point, s.decision == .singularTransform ? Point(x: .nan, y: .nan) : p), "\(s.view.debugName)")
        }
        // A view that captures, the point inside: its step, then the hit.
        v["capturesOutside"]!.frame = Rect(x: 0, y: 0, width: 300, height: 300)
        let captured = window.hitTestTrace(Point(x: 20, y: 30))
        #expect(captured.steps.suffix(2).map { "\($0.view.debugName) \($0.decision) \($0.isInside)" }
            == ["capturesOutside capturesSubviewTouches true", "capturesOutside hit true"])
        #expect(captured.hit === v["capturesOutside"] && captured.viewsTested == 10)
        // Nothing at all: the root itself outside.
        let miss = window.hitTestTrace(Point(x: -1, y: 30))
        #expect(miss.hit == nil && miss.steps.map(\.decision) == [.outside] && miss.viewsTested == 1)
    }

    @Test func handlersHaveTheirSteps() {
        let (window, v) = Self.kinds()
        let other = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        v["target"]!.hitTestHandler = { view, p, _, superHitTest in superHitTest(p) === view ? nil : superHitTest(p) }
        v["passes"]!.pointInsideHandler = { _, p, _ in p.x > 100 }
        let trace = window.hitTestTrace(Point(x: 20, y: 30))
        let passes = trace.steps.filter { $0.view === v["passes"] }
        #expect(passes.count == 1 && passes[0].decision == .outside && passes[0].askedPointInsideHandler)
        let handler = trace.steps.last!
        #expect(handler.view === v["target"] && handler.decision == .hitTestHandler && handler.handlerAnswer === v["low"])
        #expect(trace.hit === v["low"] && trace.hit === window.hitTest(Point(x: 20, y: 30)))
        #expect(HitTestCLI.Explain.verdict(passes[0]) == "rejected: outside (pointInsideHandler says)")
        #expect(HitTestCLI.Explain.verdict(handler) == "hitTestHandler answered low")
        // A handler that answers a view of another tree: the answer, and the handler's step last.
        v["target"]!.hitTestHandler = { _, _, _, _ in other }
        let foreign = window.hitTestTrace(Point(x: 20, y: 30))
        #expect(foreign.hit === other && foreign.steps.last!.handlerAnswer === other && foreign.steps.last!.decision == .hitTestHandler)
        // A handler that answers nil: the walk goes on to the views below.
        v["target"]!.hitTestHandler = { _, _, _, _ in nil }
        let none = window.hitTestTrace(Point(x: 20, y: 30))
        #expect(none.hit === window && none.steps.last!.decision == .hit && none.steps.last!.view === window)
        #expect(none.steps.contains { $0.decision == .hitTestHandler && $0.handlerAnswer == nil })
    }

    @Test func aViewBlockedByAnAnimationIsRejectedAsUIKitDoes() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let moving = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        moving.accessibilityIdentifier = "moving"
        moving.addSubview(View(frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        app.addWindow(window)
        window.addSubview(moving)
        app.advanceTime(to: 0)
        View.animate(withDuration: 1, animations: { moving.alpha = 0.5 })
        let p = Point(x: 50, y: 50)
        let probe = Reference.Probe(recording: true)
        _ = Reference.hitTest(window, p, probe: probe)
        let trace = window.hitTestTrace(p)
        #expect(trace.steps.map(\.decision) == [.searchesSubviews(count: 1), .userInteractionDisabled, .hit])
        #expect(HitTestCLI.Explain.verdict(trace.steps[1]) == "rejected: animating without allowUserInteraction")
        #expect(window.hitTestCosts([p]) == [probe.visits] && probe.visits == 2)
    }

    @Test func aChainOf100000LevelsIsTracedWithoutRecursion() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var parent: View = window
        for _ in 0..<100_000 {
            let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            parent.addSubview(v)
            parent = v
        }
        let trace = window.hitTestTrace(Point(x: 50, y: 50))
        #expect(trace.hit === parent && trace.steps.count == 100_002 && trace.viewsTested == 100_001)
        #expect(trace.steps.last!.depth == 100_000 && trace.steps.last!.decision == .hit)
    }

    // MARK: - The C API

    @Test func theCTraceContract() {
        let tree = CTestTree()
        let root = tree.node(0, 0, 100, 100)
        let a = tree.node(0, 0, 50, 50), b = tree.node(0, 0, 100, 100)
        #expect(ht_node_attach(tree.t, a, root, 0) == HT_OK && ht_node_attach(tree.t, b, root, 1) == HT_OK)
        #expect(ht_node_set_flags(tree.t, b, UInt32(HT_FLAG_HIDDEN)) == HT_OK)
        var count = 0, out: ht_node = 99
        var steps = [ht_trace_step](repeating: ht_trace_step(), count: 8)
        // Not prepared: refused, nothing written.
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, &steps, 8, &count, &out) == HT_E_NOT_PREPARED && count == 0 && out == 99)
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, &steps, 8, &count, &out) == HT_OK)
        #expect(count == 4 && out == a)
        #expect(steps.prefix(4).map(\.node) == [root, b, a, a] && steps.prefix(4).map(\.depth) == [0, 1, 1, 1])
        #expect(steps.prefix(4).map { UInt32($0.decision) }
            == [HT_TRACE_SEARCH, HT_TRACE_HIDDEN, HT_TRACE_SEARCH, HT_TRACE_HIT].map(\.rawValue))
        #expect(steps[0].children == 2 && steps[0].flags == HT_TRACE_INSIDE && steps[2].children == 0)
        #expect(steps[3].answer == a && steps[3].flags == HT_TRACE_INSIDE && steps[1].answer == HT_NULL_NODE)
        #expect(steps[2].x == 10 && steps[2].y == 10)
        // Too small: the size needed, nothing else; a capacity of 0 measures.
        var small: ht_node = 77
        var needed = 0
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, &steps, 2, &needed, &small) == HT_E_BUFFER_TOO_SMALL)
        #expect(needed == count && small == 77)
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, nil, 0, &needed, &small) == HT_E_BUFFER_TOO_SMALL && needed == count)
        // Bad arguments and handles.
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, nil, 4, &needed, &small) == HT_E_INVALID_ARGUMENT)
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, &steps, 8, nil, &small) == HT_E_INVALID_ARGUMENT)
        #expect(ht_tree_hit_test_trace(tree.t, root, 10, 10, nil, &steps, 8, &needed, nil) == HT_E_INVALID_ARGUMENT)
        #expect(ht_tree_hit_test_trace(tree.t, 12345, 10, 10, nil, &steps, 8, &needed, &small) == HT_E_BAD_NODE)
        #expect(ht_tree_hit_test_trace(nil, root, 10, 10, nil, &steps, 8, &needed, &small) == HT_E_INVALID_ARGUMENT)
        // A NaN point: the root is tested, outside (never "singular": its own transform is not
        // on the point's way).
        #expect(ht_node_set_transform(tree.t, root, [ht_affine(a: 0, b: 0, c: 0, d: 1, tx: 0, ty: 0)]) == HT_OK)
        #expect(ht_tree_prepare(tree.t) == HT_OK)
        #expect(ht_tree_hit_test_trace(tree.t, root, .nan, 10, nil, &steps, 8, &count, &out) == HT_OK)
        #expect(count == 1 && out == HT_NULL_NODE && UInt32(steps[0].decision) == HT_TRACE_OUTSIDE.rawValue)
    }

    @Test func theCSearchOrder() {
        let tree = CTestTree()
        let root = tree.node(0, 0, 100, 100)
        let kids = (0..<4).map { _ in tree.node(0, 0, 10, 10) }
        for k in kids { #expect(ht_node_attach(tree.t, k, root, 99) == HT_OK) }
        var out = [ht_node](repeating: 0, count: 4)
        var count = 0
        #expect(ht_node_search_order(tree.t, root, &out, 4, &count) == HT_OK && count == 4)
        #expect(out == kids.reversed())
        #expect(ht_node_set_priority(tree.t, kids[1], 2) == HT_OK && ht_node_set_priority(tree.t, kids[3], -1) == HT_OK)
        #expect(ht_node_search_order(tree.t, root, &out, 4, &count) == HT_OK)
        #expect(out == [kids[1], kids[2], kids[0], kids[3]])
        var needed = 0
        out = [0, 0, 0, 0]
        #expect(ht_node_search_order(tree.t, root, &out, 3, &needed) == HT_E_BUFFER_TOO_SMALL && needed == 4 && out == [0, 0, 0, 0])
        #expect(ht_node_search_order(tree.t, kids[0], nil, 0, &needed) == HT_OK && needed == 0)
        #expect(ht_node_search_order(tree.t, root, nil, 4, &needed) == HT_E_INVALID_ARGUMENT)
        #expect(ht_node_search_order(tree.t, root, &out, 4, nil) == HT_E_INVALID_ARGUMENT)
        #expect(String(cString: ht_status_string(HT_E_BUFFER_TOO_SMALL)).contains("buffer"))
        // The Swift view of it.
        let window = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let views = (0..<3).map { _ in View(frame: .zero) }
        for v in views { window.addSubview(v) }
        views[0].hitTestPriority = 1
        #expect(window.subviewsInHitTestOrder.map { ObjectIdentifier($0) } == [views[0], views[2], views[1]].map { ObjectIdentifier($0) })
    }
}
