extension View {
    /// Converts `point` from this view's bounds space to `view`'s (`convertPoint:toView:`).
    /// `nil` means the window's coordinates (for a view in no window, its root's).
    ///
    /// The point goes up to the nearest common ancestor with UIKit's local-to-superview step
    /// (`center + transform * (p - anchor offset)`), then down with the inverse. Views in
    /// different trees meet in their roots' superview space (the screen, for windows). Through
    /// a singular transform the result is NaN.
    /// - Complexity: O(depth), no recursion.
    public func convert(_ point: Point, to view: View?) -> Point {
        View.convert(point, from: self, to: view ?? root)
    }

    /// Converts `point` from `view`'s bounds space (nil: the window's) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        View.convert(point, from: view ?? root, to: self)
    }

    /// Converts a rectangle to `view`'s space: the bounding box of its four converted corners.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect.boundingBox(of: rect.corners.map { convert($0, to: view) })
    }

    /// Converts a rectangle from `view`'s space: the bounding box of its four converted corners.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        Rect.boundingBox(of: rect.corners.map { convert($0, from: view) })
    }

    /// The topmost ancestor (the window, for a view in one).
    var root: View {
        var v = self
        while let s = v.storedSuperview { v = s }
        return v
    }

    private var depth: Int {
        var d = 0
        var v = Unretained<View>(self)
        while let s = View.parent(of: v) {
            d += 1
            v = s
        }
        return d
    }

    /// The superview of `v`, unretained.
    @inline(__always) private static func parent(of v: Unretained<View>) -> Unretained<View>? {
        guard let s = v.withObject({ $0.$storedSuperview }), !s.isNil else { return nil }
        return s
    }

    // The walks below hold the views as `Unretained` references (Core/Storage.swift): a conversion reads the tree
    // and changes nothing, so every view it passes stays alive, and no retain or release is
    // paid per step.
    static func convert(_ point: Point, from a: View, to b: View) -> Point {
        if a === b { return point }
        typealias U = Unretained<View>
        func same(_ x: U?, _ y: U?) -> Bool { (x ?? U(nil)).isIdentical(to: y ?? U(nil)) }
        // Equalise depths, then climb together to the common ancestor (nil: different roots).
        var ua: U? = U(a)
        var ub: U? = U(b)
        var da = a.depth
        var db = b.depth
        while da > db {
            ua = ua.flatMap(parent(of:))
            da -= 1
        }
        while db > da {
            ub = ub.flatMap(parent(of:))
            db -= 1
        }
        while !same(ua, ub) {
            ua = ua.flatMap(parent(of:))
            ub = ub.flatMap(parent(of:))
        }
        let ancestor = ua
        var p = point
        var v: U? = U(a)
        while let current = v, !same(current, ancestor) {
            p = current.withObject { $0.toSuperview(p) }!
            v = parent(of: current)
        }
        // Down from the ancestor to b. A short path (the usual case) is found again from b for
        // each step rather than collected in an array: no allocation, the same steps in the
        // same order.
        var k = 0
        v = U(b)
        while let current = v, !same(current, ancestor) {
            k += 1
            v = parent(of: current)
        }
        if k <= 8 {
            var i = k - 1
            while i >= 0 {
                var step = U(b)
                for _ in 0..<i { step = parent(of: step)! }
                p = step.withObject { $0.fromSuperview(p) }!
                i -= 1
            }
            return p
        }
        var path: [U] = []
        v = U(b)
        while let current = v, !same(current, ancestor) {
            path.append(current)
            v = parent(of: current)
        }
        for step in path.reversed() { p = step.withObject { $0.fromSuperview(p) }! }
        return p
    }
}
