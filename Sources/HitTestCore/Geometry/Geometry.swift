import Foundation

/// A point in a two-dimensional coordinate space (`CGPoint`).
///
/// Components are `Double`, the width of `CGFloat` on 64-bit platforms, so edges compare
/// exactly as they do in UIKit.
public struct Point: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The x-coordinate.
    public var x: Double
    /// The y-coordinate.
    public var y: Double

    /// Creates a point with the given coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are finite (neither NaN nor infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The point transformed by `t` (`CGPointApplyAffineTransform`).
    public func applying(_ t: AffineTransform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }

    /// `(x, y)`, as UIKit's `NSStringFromCGPoint` prints it.
    public var description: String { "(\(x), \(y))" }
}

/// A width and a height (`CGSize`).
public struct Size: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size of zero width and height.
    public static let zero = Size(width: 0, height: 0)

    /// `(width, height)`.
    public var description: String { "(\(width), \(height))" }
}

/// A rectangle: an origin and a size (`CGRect`).
public struct Rect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The origin (the minimum corner for a non-negative size).
    public var origin: Point
    /// The size.
    public var size: Size

    /// Creates a rectangle from an origin and a size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its components.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The rectangle at the origin with zero size.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The null rectangle (`CGRect.null`): what `intersection` returns for disjoint rectangles.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// Whether this is the null rectangle.
    public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }
    /// Whether the width or the height is zero or negative, or the rectangle is null.
    public var isEmpty: Bool { isNull || !(size.width > 0 && size.height > 0) }

    /// The x-coordinate of the origin.
    public var minX: Double { origin.x }
    /// The y-coordinate of the origin.
    public var minY: Double { origin.y }
    /// `minX + width`.
    public var maxX: Double { origin.x + size.width }
    /// `minY + height`.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }
    /// The width.
    public var width: Double { size.width }
    /// The height.
    public var height: Double { size.height }

    /// Whether `point` lies inside, with UIKit's half-open edges: `minX <= x < maxX` and
    /// `minY <= y < maxY`. A zero or negative size contains nothing; NaN is never inside.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// The rectangle inset by `insets` (`UIEdgeInsetsInsetRect`); negative insets grow it.
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: origin.x + insets.left, y: origin.y + insets.top,
            width: size.width - insets.left - insets.right,
            height: size.height - insets.top - insets.bottom)
    }

    /// The common part of two rectangles, or `.null` when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull { return .null }
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        if x1 < x0 || y1 < y0 { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle containing both (a null rectangle is ignored).
    public func union(_ other: Rect) -> Rect {
        if isNull { return other }
        if other.isNull { return self }
        let x0 = min(minX, other.minX)
        let y0 = min(minY, other.minY)
        return Rect(
            x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The bounding box of the four corners transformed by `t` (`CGRectApplyAffineTransform`).
    public func applying(_ t: AffineTransform) -> Rect {
        Rect.boundingBox(of: corners.map { $0.applying(t) })
    }

    /// The four corners: (minX, minY), (maxX, minY), (minX, maxY), (maxX, maxY).
    package var corners: [Point] {
        [
            Point(x: minX, y: minY), Point(x: maxX, y: minY),
            Point(x: minX, y: maxY), Point(x: maxX, y: maxY),
        ]
    }

    /// The smallest axis-aligned rectangle containing `points`.
    package static func boundingBox(of points: [Point]) -> Rect {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let x0 = xs.min() ?? 0
        let y0 = ys.min() ?? 0
        return Rect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }

    /// `(x, y, width, height)`.
    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

/// Insets for each edge of a rectangle (`UIEdgeInsets`). Positive values shrink, negative grow.
public struct EdgeInsets: Sendable, Hashable, Codable {
    /// The inset at the top edge.
    public var top: Double
    /// The inset at the left edge.
    public var left: Double
    /// The inset at the bottom edge.
    public var bottom: Double
    /// The inset at the right edge.
    public var right: Double

    /// Creates insets.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// No insets.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// An affine transform in `CGAffineTransform` order:
/// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
public struct AffineTransform: Sendable, Hashable, Codable {
    /// Matrix entries.
    public var a: Double, b: Double, c: Double, d: Double
    /// Translation.
    public var tx: Double, ty: Double

    /// Creates a transform from its six components.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation.
    public init(translationX tx: Double, y ty: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale.
    public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians (positive is clockwise on screen, as in UIKit).
    public init(rotationAngle angle: Double) {
        let s = sin(angle)
        let c = cos(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// Whether all six components are finite.
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// `self` followed by `t` (`CGAffineTransformConcat(self, t)`).
    public func concatenating(_ t: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * t.a + b * t.c, b: a * t.b + b * t.d,
            c: c * t.a + d * t.c, d: c * t.b + d * t.d,
            tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }

    /// The inverse, or `nil` when the transform is singular (zero determinant, or an inverse
    /// that overflows). Uses `CGAffineTransformInvert`'s formula; the C core uses the same
    /// arithmetic, so both sides convert points to the same bits.
    public func inverted() -> AffineTransform? {
        let det = a * d - b * c
        let inv = AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
        if det == 0 || !inv.isFinite { return nil }
        return inv
    }
}

// MARK: - Finite values (the one statement of what a setter that takes these accepts)

extension Size {
    /// Both sides are finite.
    package var isFinite: Bool { width.isFinite && height.isFinite }
}

extension Rect {
    /// The origin and the size are finite.
    package var isFinite: Bool { origin.isFinite && size.isFinite }
}

extension EdgeInsets {
    /// All four insets are finite.
    package var isFinite: Bool { top.isFinite && left.isFinite && bottom.isFinite && right.isFinite }
}
