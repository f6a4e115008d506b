/// The trail of one hit test (`View.hitTestTrace(_:with:)`): every view UIKit's walk called
/// `hitTest(_:with:)` on, in order, with the point in that view's bounds space and what was
/// decided there, and the answer.
///
/// The trail is written by the C walk that answers `hitTest(_:with:)` (`ht_tree_hit_test_trace`),
/// not by a second walk. Each view the walk tests has one step that decides it (from `hidden` to
/// `hitTestHandler`); a view whose subviews were searched, or that has none or captures them,
/// has a second step at the same depth once they all answered nil (`hit`,
/// `passesTouchesThrough` or `noSubviewTookThePoint`). Every subview of a searched view has its
/// step, in search order, also those the index never has to test (hidden ones, say): the trail
/// is UIKit's, one decision per hitTest call. A `hitTestHandler`'s own walk (its `super` call)
/// is not part of the trail: its answer is the handler step's.
///
/// ```swift
/// let trace = window.hitTestTrace(Point(x: 20, y: 300))
/// for step in trace.steps {
///     print(String(repeating: "  ", count: step.depth), step.view.debugName, step.decision)
/// }
/// print(trace.hit?.debugName ?? "nothing", trace.viewsTested)
/// ```
public struct HitTestTrace {
    /// The answer: the view `hitTest(_:with:)` returns for the same point and event.
    public let hit: View?
    /// The steps, in the order the walk took them.
    public let steps: [Step]

    /// The number of views whose hitTest was called (each view's first step): what the touch
    /// costs UIKit's walk.
    public var viewsTested: Int { steps.reduce(0) { $0 + ($1.decision.isCall ? 1 : 0) } }

    /// One step of the walk.
    public struct Step {
        /// The view decided on.
        public let view: View
        /// Levels below the view the hit test started at (0 for that view).
        public let depth: Int
        /// The point in the view's bounds space.
        public let point: Point
        /// What was decided.
        public let decision: Decision
        /// Whether the point is inside the view's touch region (its bounds inset by
        /// `hitTestInsets`, or its `pointInsideHandler`'s answer); false before the region test.
        public let isInside: Bool
        /// Whether the view's `pointInsideHandler` decided the region test.
        public let askedPointInsideHandler: Bool
        /// For `hitTestHandler`: the handler's answer (nil for none); nil otherwise.
        public let handlerAnswer: View?

        init(
            view: View, depth: Int, point: Point, decision: Decision, isInside: Bool, askedPointInsideHandler: Bool,
            handlerAnswer: View?
        ) {
            self.view = view
            self.depth = depth
            self.point = point
            self.decision = decision
            self.isInside = isInside
            self.askedPointInsideHandler = askedPointInsideHandler
            self.handlerAnswer = handlerAnswer
        }
    }

    /// What the walk decided at a step.
    public enum Decision: Hashable, Sendable {
        /// The view is hidden: nil, its subviews are not searched.
        case hidden
        /// The view's user interaction is disabled (or blocked by an animation without
        /// `.allowUserInteraction`): nil, its subviews are not searched.
        case userInteractionDisabled
        /// The view's alpha is below 0.01: nil, its subviews are not searched.
        case transparent
        /// The point is outside the view's touch region and the view does not search outside
        /// it (`allowsSubviewHitsOutsideBounds`): nil.
        case outside
        /// As `outside`, because the view's transform is singular: the point from its superview
        /// has no place in its bounds space (it is NaN). Never the first step's.
        case singularTransform
        /// The subviews are searched next, `count` of them in search order (0 for a view
        /// without subviews): the point is inside the touch region or, with
        /// `allowsSubviewHitsOutsideBounds`, outside it (`Step.isInside` says which). Their
        /// steps follow, one level deeper.
        case searchesSubviews(count: Int)
        /// The view captures its subviews' touches (`capturesSubviewTouches`): they are not
        /// searched.
        case capturesSubviewTouches
        /// The view's `hitTestHandler` answered (`Step.handlerAnswer`): that is the view's answer.
        case hitTestHandler
        /// No subview took the point and it is inside: the view is the answer (the last step).
        case hit
        /// No subview took the point; it is inside, but the view passes touches through: nil.
        case passesTouchesThrough
        /// No subview took the point and it is outside the touch region (the subviews were
        /// searched because of `allowsSubviewHitsOutsideBounds`): nil.
        case noSubviewTookThePoint

        /// Whether this is a view's first step: a call of its hitTest.
        public var isCall: Bool {
            switch self {
            case .hit, .passesTouchesThrough, .noSubviewTookThePoint: return false
            default: return true
            }
        }
    }
}

extension View {
    /// `hitTest(_:with:)` with its trail: the same walk for `point` (in this view's bounds
    /// space), every step it took and its answer (see `HitTestTrace`). Handlers are called as
    /// by `hitTest(_:with:)`.
    /// - Complexity: O(views tested): every subview of each view searched is tested (no grid
    ///   narrows the search), as in UIKit.
    public func hitTestTrace(_ point: Point, with event: Event? = nil) -> HitTestTrace {
        let (steps, hit) = ensureCore().traceSteps(self, point, event: event)
        return HitTestTrace(hit: hit, steps: steps)
    }

    /// The subviews in the order this view's hit test searches them: the last first, except
    /// that a higher `hitTestPriority` goes first (the C index's order, `ht_node_search_order`).
    package var subviewsInHitTestOrder: [View] { ensureCore().searchOrder(self) }

    /// For each of `points` (in this view's bounds space), the number of views whose hitTest
    /// the walk calls (`HitTestTrace.viewsTested`), without building the steps: a cost map.
    package func hitTestCosts(_ points: [Point]) -> [Int] { ensureCore().traceCosts(self, points) }
}
