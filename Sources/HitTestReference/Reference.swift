import HitTestKit

/// The definition every fast path is checked against: UIKit's recursive `hitTest:withEvent:`
/// from the seed texts, over the Swift view objects, with the customisation rules of API.md.
///
/// Kept obvious rather than fast. It recurses once per level, so very deep trees need a
/// thread with a large stack (the benchmark runs it on one).
public enum Reference {
    /// One decision of the walk, for `explain`: which view, the point in its bounds space, and
    /// the rule that accepted or rejected it.
    public struct Step: Sendable, Hashable {
        /// Nesting depth (0 for the view the walk started at).
        public var depth: Int
        /// The view's `debugName`.
        public var view: String
        /// The point in the view's bounds space.
        public var point: Point
        /// What was decided, in words.
        public var verdict: String
    }

    /// Collects what a walk did: how many views it called hitTest on, and, if asked, each step.
    public final class Probe {
        /// Views whose hitTest was called.
        public var visits = 0
        /// The steps, when recording.
        public var steps: [Step]?

        /// A probe; `recording` keeps every step.
        public init(recording: Bool = false) {
            steps = recording ? [] : nil
        }

        func note(_ depth: Int, _ view: View, _ point: Point, _ verdict: String) {
            steps?.append(Step(depth: depth, view: view.debugName, point: point, verdict: verdict))
        }
    }

    /// UIKit's hit test of `view` for `point` in its bounds space.
    public static func hitTest(_ view: View, _ point: Point, with event: Event? = nil) -> View? {
        hitTest(view, point, with: event, probe: nil, depth: 0)
    }

    /// The hit test, adding to `visits` the number of views whose hitTest was called.
    public static func hitTest(_ view: View, _ point: Point, with event: Event?, visits: inout Int) -> View? {
        let probe = Probe()
        defer { visits += probe.visits }
        return hitTest(view, point, with: event, probe: probe, depth: 0)
    }

    /// The hit test with every decision recorded in `probe`.
    public static func hitTest(_ view: View, _ point: Point, with event: Event? = nil, probe: Probe?) -> View? {
        hitTest(view, point, with: event, probe: probe, depth: 0)
    }

    static func hitTest(_ view: View, _ point: Point, with event: Event?, probe: Probe?, depth: Int) -> View? {
        probe?.visits += 1
        if let handler = view.hitTestHandler {
            probe?.note(depth, view, point, "hitTestHandler decides")
            let hit = handler(view, point, event) { defaultHitTest(view, $0, with: event, probe: probe, depth: depth + 1) }
            probe?.note(depth, view, point, "hitTestHandler answered \(hit?.debugName ?? "nil")")
            return hit
        }
        return defaultHitTest(view, point, with: event, probe: probe, depth: depth)
    }

    /// The hit test without the view's own `hitTestHandler` (the handler's `super` call).
    public static func defaultHitTest(_ view: View, _ point: Point, with event: Event? = nil) -> View? {
        defaultHitTest(view, point, with: event, probe: nil, depth: 0)
    }

    static func defaultHitTest(_ view: View, _ point: Point, with event: Event?, probe: Probe?, depth: Int) -> View? {
        // SEMANTICS A14: an animating view without .allowUserInteraction counts as not interactive.
        if view.isHidden || !view.isUserInteractionEnabled || view.isInteractionBlockedByAnimation || view.alpha < 0.01 {
            probe?.note(depth, view, point, view.isHidden ? "rejected: hidden" : !view.isUserInteractionEnabled
                ? "rejected: userInteractionEnabled is false"
                : view.isInteractionBlockedByAnimation ? "rejected: animating without allowUserInteraction"
                : "rejected: alpha \(view.alpha) < 0.01")
            return nil
        }
        let inside = pointInside(view, point, with: event)
        let how = view.pointInsideHandler != nil ? "pointInsideHandler says" : "bounds\(view.hitTestInsets == .zero ? "" : " with hitTestInsets")"
        if !inside && !view.allowsSubviewHitsOutsideBounds {
            probe?.note(depth, view, point, "rejected: outside (\(how))")
            return nil
        }
        if view.capturesSubviewTouches {
            probe?.note(depth, view, point, inside ? "inside; capturesSubviewTouches: subviews not searched" : "outside")
        } else {
            probe?.note(depth, view, point, (inside ? "inside (\(how))" : "outside, but allowsSubviewHitsOutsideBounds")
                + (view.subviews.isEmpty ? "; no subviews" : "; searching \(view.subviews.count) subviews, last first"))
            for subview in searchOrder(view.subviews) {
                if let hit = hitTest(subview, fromSuperview(subview, point), with: event, probe: probe, depth: depth + 1) {
                    return hit
                }
            }
        }
        if inside && !view.passesTouchesThrough {
            probe?.note(depth, view, point, "hit: no subview took the point")
            return view
        }
        probe?.note(depth, view, point, inside ? "nil: passesTouchesThrough" : "nil: no subview took the point")
        return nil
    }

    /// `pointInside:withEvent:`: the handler, or the bounds inset by `hitTestInsets`.
    public static func pointInside(_ view: View, _ point: Point, with event: Event? = nil) -> Bool {
        if let handler = view.pointInsideHandler { return handler(view, point, event) }
        let b = view.bounds
        let i = view.hitTestInsets
        let x0 = b.minX + i.left
        let y0 = b.minY + i.top
        let x1 = x0 + (b.width - i.left - i.right)
        let y1 = y0 + (b.height - i.top - i.bottom)
        return point.x >= x0 && point.x < x1 && point.y >= y0 && point.y < y1
    }

    /// Subviews last to first; a higher `hitTestPriority` goes before a lower one.
    public static func searchOrder(_ subviews: [View]) -> [View] {
        let indexed = Array(subviews.enumerated())
        return indexed.sorted { l, r in
            l.element.hitTestPriority != r.element.hitTestPriority
                ? l.element.hitTestPriority > r.element.hitTestPriority : l.offset > r.offset
        }.map(\.element)
    }

    /// A point of the superview's bounds space in `view`'s:
    /// `inverse(transform) * (p - center) + bounds.origin + anchorPoint * bounds.size`.
    public static func fromSuperview(_ view: View, _ p: Point) -> Point {
        let qx = p.x - view.center.x
        let qy = p.y - view.center.y
        let ox = view.bounds.minX + view.anchorPoint.x * view.bounds.width
        let oy = view.bounds.minY + view.anchorPoint.y * view.bounds.height
        if view.transform.isIdentity { return Point(x: qx + ox, y: qy + oy) }
        guard let t = view.transform.inverted() else { return Point(x: .nan, y: .nan) }
        return Point(x: (t.a * qx + t.c * qy + t.tx) + ox, y: (t.b * qx + t.d * qy + t.ty) + oy)
    }

    // MARK: - Presentation (SEMANTICS A15; Animation/)

    /// The hit test over presentation values at `time` (`View.presentation(at:)`): the same
    /// rules with the presented `center`, `bounds`, `transform` and `alpha`, without A14's
    /// animation rule (what is seen) and without handlers (the default region and search).
    /// What `hitTestPresentation` and `makeHitTestSnapshot(presentationAt:)` must answer.
    public static func presentationHitTest(_ view: View, _ point: Point, at time: Double) -> View? {
        let p = view.presentation(at: time)
        if view.isHidden || !view.isUserInteractionEnabled || p.alpha < 0.01 {
            return nil
        }
        let i = view.hitTestInsets
        let x0 = p.bounds.minX + i.left
        let y0 = p.bounds.minY + i.top
        let x1 = x0 + (p.bounds.width - i.left - i.right)
        let y1 = y0 + (p.bounds.height - i.top - i.bottom)
        let inside = point.x >= x0 && point.x < x1 && point.y >= y0 && point.y < y1
        if !inside && !view.allowsSubviewHitsOutsideBounds { return nil }
        if !view.capturesSubviewTouches {
            for subview in searchOrder(view.subviews) {
                let s = subview.presentation(at: time)
                let qx = point.x - s.center.x
                let qy = point.y - s.center.y
                let ox = s.bounds.minX + subview.anchorPoint.x * s.bounds.width
                let oy = s.bounds.minY + subview.anchorPoint.y * s.bounds.height
                let q: Point
                if s.transform.isIdentity {
                    q = Point(x: qx + ox, y: qy + oy)
                } else if let t = s.transform.inverted() {
                    q = Point(x: (t.a * qx + t.c * qy + t.tx) + ox, y: (t.b * qx + t.d * qy + t.ty) + oy)
                } else {
                    q = Point(x: .nan, y: .nan)
                }
                if let hit = presentationHitTest(subview, q, at: time) { return hit }
            }
        }
        return inside && !view.passesTouchesThrough ? view : nil
    }
}
