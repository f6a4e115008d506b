import CHitTest

/// The C calls behind `View.hitTestTrace(_:with:)` and the search order (hittest.h's
/// `ht_tree_hit_test_trace` and `ht_node_search_order`).
extension CoreTree {
    /// One traced hit test from `view` for `point` (its bounds space), its steps written to
    /// `buffer` (grown as needed; reuse it across calls): the number of steps and the answer
    /// (which a handler may take from another tree).
    func trace(_ view: View, _ point: Point, event: Event?, into buffer: inout [ht_trace_step]) -> (count: Int, hit: View?) {
        querying {
            var out: Int32 = -1
            var count = 0
            // A trail longer than the buffer: the call says how long; the buffer grows and the
            // walk runs again (handlers, if any, are called again: UIKit may call hitTest more
            // than once per touch too).
            func call(_ hooks: UnsafePointer<ht_hooks>?) -> ht_status {
                var status: ht_status
                repeat {
                    status = buffer.withUnsafeMutableBufferPointer { b in
                        ht_tree_hit_test_trace(tree, view.node, point.x, point.y, hooks, b.baseAddress, b.count, &count, &out)
                    }
                    if status == HT_E_BUFFER_TOO_SMALL {
                        buffer = [ht_trace_step](repeating: ht_trace_step(), count: max(count, 2 * buffer.count))
                    }
                } while status == HT_E_BUFFER_TOO_SMALL
                return status
            }
            prepareInsideQuery()
            if handlerCount == 0 {
                CoreTree.check(call(nil), "traced hit test")
                return (count, self.view(for: out))
            }
            let context = HookContext(core: self, event: event)
            let foreign = context.run { hooks in call(hooks) }
            return (count, foreign ?? self.view(for: out))
        }
    }

    /// The steps of one traced hit test, as `HitTestTrace` gives them, and the answer.
    func traceSteps(_ view: View, _ point: Point, event: Event?) -> (steps: [HitTestTrace.Step], hit: View?) {
        var buffer = [ht_trace_step](repeating: ht_trace_step(), count: 64)
        let (count, hit) = trace(view, point, event: event, into: &buffer)
        let foreign = hit.flatMap { $0.core === self ? nil : $0 }
        return (buffer.prefix(count).map { HitTestTrace.Step($0, self, foreign: foreign) }, hit)
    }

    /// The views tested for each point (`HitTestTrace.viewsTested`), the steps not built.
    func traceCosts(_ view: View, _ points: [Point]) -> [Int] {
        var buffer = [ht_trace_step](repeating: ht_trace_step(), count: 256)
        return points.map { p in
            let count = trace(view, p, event: nil, into: &buffer).count
            return buffer.prefix(count).reduce(0) { $0 + (HitTestTrace.Decision.isCall($1) ? 1 : 0) }
        }
    }

    /// The subviews of `view` in the order its hit test searches them (`ht_node_search_order`).
    func searchOrder(_ view: View) -> [View] {
        var count = 0
        var handles = [Int32](repeating: -1, count: view.subviews.count)
        let status = handles.withUnsafeMutableBufferPointer { b in
            ht_node_search_order(tree, view.node, b.baseAddress, b.count, &count)
        }
        CoreTree.check(status, "search order")
        return handles.prefix(count).map { self.view(for: $0)! }
    }
}

extension HitTestTrace.Decision {
    /// The decision of a C step.
    init(_ step: ht_trace_step) {
        switch ht_trace_decision(rawValue: numericCast(step.decision)) {
        case HT_TRACE_HIDDEN: self = .hidden
        case HT_TRACE_NO_INTERACTION: self = .userInteractionDisabled
        case HT_TRACE_TRANSPARENT: self = .transparent
        case HT_TRACE_OUTSIDE: self = .outside
        case HT_TRACE_SINGULAR: self = .singularTransform
        case HT_TRACE_SEARCH: self = .searchesSubviews(count: Int(step.children))
        case HT_TRACE_CAPTURE: self = .capturesSubviewTouches
        case HT_TRACE_HOOK: self = .hitTestHandler
        case HT_TRACE_HIT: self = .hit
        case HT_TRACE_PASS_THROUGH: self = .passesTouchesThrough
        case HT_TRACE_NIL: self = .noSubviewTookThePoint
        default: preconditionFailure("HitTestKit: unknown trace decision \(step.decision)")
        }
    }

    /// Whether a C step's decision is a node's first: a hitTest call (UIKit's cost).
    static func isCall(_ step: ht_trace_step) -> Bool {
        step.decision <= Int32(HT_TRACE_HOOK.rawValue)
    }
}

extension HitTestTrace.Step {
    /// The step of a C step, its views resolved in `core`; `foreign` answers a handler step
    /// whose answer is in another tree.
    /// (The C step's `answer` is set on other steps too, a hit's to its view: only a handler
    /// step's is the handler's answer.)
    init(_ step: ht_trace_step, _ core: CoreTree, foreign: View?) {
        let decision = HitTestTrace.Decision(step)
        let handlerAnswer: View? =
            decision != .hitTestHandler ? nil
            : step.answer >= 0 ? core.view(for: step.answer)
            : step.answer == HitTestHandle.needsHandler.rawValue ? foreign : nil
        self.init(
            view: core.view(for: step.node)!, depth: Int(step.depth), point: Point(x: step.x, y: step.y),
            decision: decision,
            isInside: step.flags & HT_TRACE_INSIDE != 0, askedPointInsideHandler: step.flags & HT_TRACE_ASKED != 0,
            handlerAnswer: handlerAnswer)
    }
}
