import CHitTest

// The mirror check: what a view's C row stores (geometry, flags, alpha, insets, priority) lives
// there alone (`View.geometry`, `View.hitAttributes`); this reads every row back
// (`ht_node_get_record`, `ht_node_child_at`) and compares with the views what the index keeps
// of them besides: the node's view, the handler flags and the links. For tests: the differential and randomized tests run it after
// every mutation. Debug builds only: in a release build the body is compiled out and the
// check reports nothing, and the library never calls it itself.

extension View {
    /// Debug builds: every disagreement between the views of this view's tree (from its
    /// topmost superview down) and their C rows, in words; empty when they agree or when the
    /// view has no node yet. Release builds: always empty (compiled out).
    ///
    /// Compared per view: that it has a node of the same index and its rows (`View.rows`) and
    /// no box, or neither, that the index maps the node back to it, the two handler flags, the
    /// parent link and the children in order; then `ht_tree_validate` on the index.
    /// - Complexity: O(views in the tree), iterative.
    func mirrorMismatches() -> [String] {
        #if DEBUG
            guard let core else { return [] }
            var top = self
            while let s = top.storedSuperview { top = s }
            var problems: [String] = []
            var stack: [View] = [top]
            while let v = stack.popLast() {
                core.compareRow(of: v, into: &problems)
                stack.append(contentsOf: v.storedSubviews)
            }
            if ht_tree_validate(core.tree) != HT_OK { problems.append("ht_tree_validate fails") }
            return problems
        #else
            return []
        #endif
    }
}

#if DEBUG
    extension CoreTree {
        /// Appends to `problems` each way the C row of `v` differs from `v`.
        fileprivate func compareRow(of v: View, into problems: inout [String]) {
            let name = "\(v.debugName) (node \(v.node))"
            if !(v.rows?.index.isIdentical(to: Unretained(v.core)) ?? (v.core == nil)) {
                problems.append("\(name): its index and its geometry rows disagree")
            }
            if (v.rows == nil) == (v.detached == nil) {
                problems.append("\(name): its stored values are in both its row and its box, or in neither")
            }
            guard v.core === self else {
                problems.append("\(name): belongs to another index than its tree's root")
                return
            }
            guard view(for: v.node) === v else {
                problems.append("\(name): the index maps the node to another view")
                return
            }
            var r = ht_node_record()
            guard ht_node_get_record(tree, v.node, &r) == HT_OK else {
                problems.append("\(name): ht_node_get_record fails")
                return
            }
            func expect(_ ok: Bool, _ what: @autoclosure () -> String) {
                if !ok { problems.append("\(name): \(what())") }
            }
            // The handler flags are the one part of the row the index derives from the view.
            let ask: [(String, UInt32, Bool)] = [
                ("pointInsideHandler or own class", UInt32(HT_FLAG_ASK_POINT_INSIDE), v.pointInsideHandler != nil || v.asksSwiftForHitTesting),
                ("hitTestHandler or own class", UInt32(HT_FLAG_ASK_HIT_TEST), v.hitTestHandler != nil || v.asksSwiftForHitTesting),
            ]
            for (flag, bit, swift) in ask {
                expect((r.flags & bit != 0) == swift, "\(flag) is \(swift) but the C flag is \(!swift)")
            }

            if let s = v.storedSuperview {
                expect(r.parent == s.node, "parent is node \(s.node) but C says \(r.parent)")
            } else {
                expect(r.parent == HT_NULL_NODE, "a root in Swift but C's parent is \(r.parent)")
            }
            let children = v.storedSubviews
            guard r.child_count == Int32(children.count) else {
                problems.append("\(name): \(children.count) subviews but C has \(r.child_count) children")
                return
            }
            for (index, child) in children.enumerated() {
                var n: ht_node = HT_NULL_NODE
                let st = ht_node_child_at(tree, v.node, Int32(index), &n)
                expect(
                    st == HT_OK && n == child.node,
                    "subview \(index) is node \(child.node) but C's child \(index) is \(n)")
            }
        }
    }
#endif
