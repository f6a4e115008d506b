/// Where a view is: the four stored attributes `frame` derives from. A view with a node keeps
/// them in its C row alone and reads them from there by slot (`View.geometry`); a view without one
/// keeps them in its box (`View.detached`) until it gets one (`CoreTree.register`), and gets them
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

/// What a view's C row stores besides its geometry: the view's own flags (`ViewFlags`; never
/// the two handler flags, which the index derives from the view: `CoreTree.askFlags(of:)`),
/// alpha and the hit-test insets and priority. Each lives where the geometry does (`View.geometry`): the row,
/// or the view's box while it has no node.
package struct ViewHitAttributes: Sendable, Equatable {
    /// The flags the view sets; UIKit's defaults: none.
    package var flags: ViewFlags = []
    /// `View.alpha`.
    package var alpha: Double = 1
    /// `View.hitTestInsets`.
    package var insets = EdgeInsets.zero
    /// `View.hitTestPriority`, as the C index keeps it (32 bits).
    package var priority: Int32 = 0

    /// UIKit's defaults (a new view's).
    package init() {}
}

/// The box of what a view's row would hold, while the view has no node (`View.detached`).
final class DetachedRow {
    /// The geometry.
    var geometry: ViewGeometry
    /// The flags, alpha, insets and priority.
    var attributes: ViewHitAttributes

    init(_ geometry: ViewGeometry, _ attributes: ViewHitAttributes = ViewHitAttributes()) {
        self.geometry = geometry
        self.attributes = attributes
    }
}
