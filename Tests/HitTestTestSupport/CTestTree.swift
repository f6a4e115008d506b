import CHitTest

/// A C index (`ht_tree`) for tests of the C API from Swift: nodes by frame, one hit test. A call
/// that does not return `HT_OK` stops the test run with the status.
public final class CTestTree {
    /// The tree, owned here.
    public var t: OpaquePointer?

    /// An empty tree.
    public init() { Self.ok(ht_tree_create(0, &t), "ht_tree_create") }
    deinit { ht_tree_destroy(t) }

    /// A new root node with the frame (x, y, w, h) and the identity transform.
    public func node(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> ht_node {
        var n: ht_node = -1
        Self.ok(ht_node_create(t, &n), "ht_node_create")
        Self.ok(ht_node_set_bounds(t, n, 0, 0, w, h), "ht_node_set_bounds")
        Self.ok(ht_node_set_center(t, n, x + w / 2, y + h / 2), "ht_node_set_center")
        return n
    }

    /// The hit test from `n` at (x, y), after preparing the tree.
    public func hit(_ n: ht_node, _ x: Double, _ y: Double) -> ht_node {
        var out: ht_node = 99
        Self.ok(ht_tree_prepare(t), "ht_tree_prepare")
        Self.ok(ht_tree_hit_test(t, n, x, y, nil, &out), "ht_tree_hit_test")
        return out
    }

    private static func ok(_ status: ht_status, _ call: String) {
        precondition(status == HT_OK, "\(call): \(String(cString: ht_status_string(status)))")
    }
}
