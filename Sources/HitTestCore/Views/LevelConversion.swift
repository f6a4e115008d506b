/// One level of UIKit's coordinate conversion, as numbers: between a view's bounds space and its
/// superview's (for a root, the screen, where its `frame` lies). The one implementation of the
/// step in Swift: `View.convert(_:to:)` climbs and descends with it, and tools that convert
/// many points (the CLI's screen points) take it once and apply it to each, on any thread. The
/// C core does the same arithmetic in the same order (`to_parent`, `to_local` in geom.h), so a
/// point converted here lands exactly where the C walk puts it.
package struct LevelConversion: Sendable {
    /// The view's `center`, in the superview's bounds space.
    package let center: Point
    /// `bounds.origin + anchorPoint * bounds.size`: the local point that sits at `center`.
    package let offset: Point
    /// The view's `transform`.
    package let transform: AffineTransform

    /// The conversion of `view`'s level, as of now.
    package init(_ view: View) { self.init(view.geometry) }

    /// The conversion of a level with geometry `g`.
    package init(_ g: ViewGeometry) {
        center = g.center
        offset = g.anchorOffset
        transform = g.transform
    }

    /// The inverse transform `fromSuperview` applies: the identity for the identity, nil when
    /// the transform is singular. Compute it once to convert many points.
    package var inverse: AffineTransform? {
        transform.isIdentity ? .identity : transform.inverted()
    }

    /// Whether `fromSuperview` returns every point as it is (up to the sign of a zero): no
    /// transform, and the center and offset both zero. (Equal center and offset are not enough:
    /// `(p - c) + c` rounds.)
    package var isNoOp: Bool {
        transform.isIdentity && center.x == 0 && center.y == 0 && offset.x == 0 && offset.y == 0
    }

    /// From the view's bounds space to its superview's: `center + transform * (p - offset)`.
    package func toSuperview(_ p: Point) -> Point {
        let dx = p.x - offset.x
        let dy = p.y - offset.y
        if transform.isIdentity { return Point(x: center.x + dx, y: center.y + dy) }
        let t = transform
        return Point(x: center.x + (t.a * dx + t.c * dy + t.tx), y: center.y + (t.b * dx + t.d * dy + t.ty))
    }

    /// From the superview's bounds space to the view's: `inverse * (p - center) + offset`;
    /// NaN when the transform is singular.
    package func fromSuperview(_ p: Point) -> Point { fromSuperview(p, inverse: inverse) }

    /// `fromSuperview(_:)` with the inverse computed once (`inverse`) for many points.
    package func fromSuperview(_ p: Point, inverse: AffineTransform?) -> Point {
        let qx = p.x - center.x
        let qy = p.y - center.y
        if transform.isIdentity { return Point(x: qx + offset.x, y: qy + offset.y) }
        guard let i = inverse else { return Point(x: .nan, y: .nan) }
        return Point(x: (i.a * qx + i.c * qy + i.tx) + offset.x, y: (i.b * qx + i.d * qy + i.ty) + offset.y)
    }
}
