extension View {
    /// The farthest descendant of this view (or itself) that contains `point`, in UIKit's
    /// order (`hitTest:withEvent:`); `point` is in this view's bounds space.
    ///
    /// UIKit's rules: nil if this view is hidden, has interaction disabled or alpha below 0.01,
    /// or `point(inside:with:)` is false; otherwise the subviews from last to first, each with
    /// the point converted into it, and the first non-nil answer wins; otherwise the view
    /// itself. The customisation properties and handlers change these steps as documented on
    /// each. Ancestors of the receiver are not consulted. A NaN or infinite point hits nothing.
    ///
    /// Answered by the C index (`ht_tree_hit_test`), which searches a node with many children
    /// through a grid of their boxes; the answer is always the recursive walk's.
    /// - Complexity: about O(depth of the answer) for ordinary trees.
    public func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        let core = ensureCore()
        return core.hitTest(self, point, event: event)
    }

    /// Whether `point` (in this view's bounds space) is inside the view (`pointInside:withEvent:`):
    /// the `pointInsideHandler` if there is one, else whether the bounds inset by
    /// `hitTestInsets` contain it, with half-open edges. The transform plays no part.
    public func point(inside point: Point, with event: Event? = nil) -> Bool {
        if let handler = pointInsideHandler { return handler(self, point, event) }
        return bounds.inset(by: hitTestInsets).contains(point)
    }
}
