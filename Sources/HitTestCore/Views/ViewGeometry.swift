/// Where a view is: the four stored attributes `frame` derives from. A view with a node keeps
/// them in its C row alone and reads them from there by slot (`View.geometry`); a view without one
/// keeps them in `View.detachedGeometry` until it gets one (`CoreTree.register`), and gets them
/// back when its node is freed (`CoreTree.unregister`). Never both: there is one copy.
package struct ViewGeometry: Sendable, Equatable {
    /// `View.center`.
    package var center: Point
    /// `View.bounds`.
    package var bounds: Rect
    /// `View.anchorPoint`.
    package var anchorPoint: Point
    /// `View.transform`.
    package var transform: AffineTransform

    /// The geometry of `View(frame:)`'s defaults but for the centre and bounds.
    package init(center: Point, bounds: Rect, anchorPoint: Point = Point(x: 0.5, y: 0.5), transform: AffineTransform = .identity) {
        self.center = center
        self.bounds = bounds
        self.anchorPoint = anchorPoint
        self.transform = transform
    }

    /// The untransformed frame (`View.layoutFrame`): `center − anchorPoint × size`, and the
    /// bounds size.
    package var layoutFrame: Rect {
        Rect(
            x: center.x - anchorPoint.x * bounds.width, y: center.y - anchorPoint.y * bounds.height,
            width: bounds.width, height: bounds.height)
    }

    /// `bounds.origin + anchorPoint * bounds.size`: the local point that sits at `center`.
    package var anchorOffset: Point {
        Point(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }
}

/// The box of a view's geometry while the view has no node (`View.detached`).
final class DetachedGeometry {
    /// The geometry.
    var geometry: ViewGeometry

    init(_ geometry: ViewGeometry) { self.geometry = geometry }
}
