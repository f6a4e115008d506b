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
        var v = self
        while let s = v.storedSuperview {
            d += 1
            v = s
        }
        return d
    }

    static func convert(_ point: Point, from a: View, to b: View) -> Point {
        if a === b { return point }
        // Equalise depths, then climb together to the common ancestor (nil: different roots).
        var ua: View? = a
        var ub: View? = b
        var da = a.depth
        var db = b.depth
        while da > db {
            ua = ua?.storedSuperview
            da -= 1
        }
        while db > da {
            ub = ub?.storedSuperview
            db -= 1
        }
        while ua !== ub {
            ua = ua?.storedSuperview
            ub = ub?.storedSuperview
        }
        let ancestor = ua
        var p = point
        var v: View? = a
        while let current = v, current !== ancestor {
            p = current.toSuperview(p)
            v = current.storedSuperview
        }
        var path: [View] = []
        v = b
        while let current = v, current !== ancestor {
            path.append(current)
            v = current.storedSuperview
        }
        for step in path.reversed() { p = step.fromSuperview(p) }
        return p
    }
}
