import HitTestKit

/// The definition every fast path is checked against: UIKit's recursive `hitTest:withEvent:`
/// from the seed texts, over the Swift view objects, with the customisation rules of API.md.
///
/// Kept obvious rather than fast. It recurses once per level, so very deep trees need a
/// thread with a large stack (the benchmark runs it on one).
public enum Reference {
    /// UIKit's hit test of `view` for `point` in its bounds space.
    public static func hitTest(_ view: View, _ point: Point, with event: Event? = nil) -> View? {
        var visits = 0
        return hitTest(view, point, with: event, visits: &visits)
    }

    /// The hit test, adding to `visits` the number of views whose hitTest was called.
    public static func hitTest(_ view: View, _ point: Point, with event: Event?, visits: inout Int)
        -> View?
    {
        visits += 1
        if let handler = view.hitTestHandler {
            var inner = 0
            let hit = handler(view, point, event) { defaultHitTest(view, $0, with: event, visits: &inner) }
            visits += inner
            return hit
        }
        return defaultHitTest(view, point, with: event, visits: &visits)
    }

    /// The hit test without the view's own `hitTestHandler` (the handler's `super` call).
    public static func defaultHitTest(_ view: View, _ point: Point, with event: Event? = nil)
        -> View?
    {
        var visits = 0
        return defaultHitTest(view, point, with: event, visits: &visits)
    }

    static func defaultHitTest(_ view: View, _ point: Point, with event: Event?, visits: inout Int)
        -> View?
    {
        if view.isHidden || !view.isUserInteractionEnabled || view.alpha < 0.01 { return nil }
        let inside = pointInside(view, point, with: event)
        if !inside && !view.allowsSubviewHitsOutsideBounds { return nil }
        if !view.capturesSubviewTouches {
            for subview in searchOrder(view.subviews) {
                if let hit = hitTest(subview, fromSuperview(subview, point), with: event, visits: &visits) {
                    return hit
                }
            }
        }
        return inside && !view.passesTouchesThrough ? view : nil
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
}
