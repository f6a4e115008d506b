import Foundation
import HitTestKit

extension HitTestCLI {
    /// The CLI's coordinates, defined once: points are in the root's superview space, the
    /// screen (where the root's `frame` lies). `query`, `explain`, `render` and `audit` all
    /// convert through here.
    enum Screen {
        /// The root's rectangle on the screen (its frame: the bounding box under a transform).
        static func rect(_ root: View) -> Rect { root.frame }

        /// A point of the root's bounds space on the screen.
        static func fromRoot(_ p: Point, _ root: View) -> Point {
            let b = root.bounds, a = root.anchorPoint, c = root.center
            let dx = p.x - (b.minX + a.x * b.width), dy = p.y - (b.minY + a.y * b.height)
            let t = root.transform
            if t.isIdentity { return Point(x: c.x + dx, y: c.y + dy) }
            return Point(x: c.x + (t.a * dx + t.c * dy + t.tx), y: c.y + (t.b * dx + t.d * dy + t.ty))
        }

        /// A screen point in the root's bounds space (NaN when the root's transform is singular).
        static func toRoot(_ p: Point, _ root: View) -> Point {
            let b = root.bounds, a = root.anchorPoint, c = root.center
            let ox = b.minX + a.x * b.width, oy = b.minY + a.y * b.height
            let qx = p.x - c.x, qy = p.y - c.y
            let t = root.transform
            if t.isIdentity { return Point(x: qx + ox, y: qy + oy) }
            guard let i = t.inverted() else { return Point(x: .nan, y: .nan) }
            return Point(x: (i.a * qx + i.c * qy + i.tx) + ox, y: (i.b * qx + i.d * qy + i.ty) + oy)
        }
    }

    /// UIKit's walk (the rules of `HitTestReference`) over a flattened copy of the tree,
    /// without recursion or allocation per point: for `explain` (any depth) and `render --cost`.
    /// Scene files carry no handlers; a tree with handlers is not flattened.
    struct FlatTree {
        var views: [View] = []
        /// Children in search order (priority, then last first), as indices.
        var order: [[Int32]] = []
        var usable: [Bool] = []  // not hidden, interactive, alpha >= 0.01
        var region: [(Double, Double, Double, Double)] = []  // x0, y0, x1, y1 in bounds space
        var outside: [Bool] = []  // allowsSubviewHitsOutsideBounds
        var captures: [Bool] = []
        var passes: [Bool] = []
        /// Superview bounds space -> own bounds space: q = M (p - center) + offset.
        var m: [(Double, Double, Double, Double, Double, Double)] = []  // a, b, c, d, ox, oy (and center below)
        var center: [(Double, Double)] = []
        var identity: [Bool] = []

        /// nil when some view has a handler.
        init?(_ root: View) {
            var stack = [root]
            var index: [ObjectIdentifier: Int32] = [:]
            while let v = stack.popLast() {
                if v.pointInsideHandler != nil || v.hitTestHandler != nil { return nil }
                index[ObjectIdentifier(v)] = Int32(views.count)
                views.append(v)
                stack.append(contentsOf: v.subviews.reversed())
            }
            for v in views {
                let sorted = v.subviews.enumerated().sorted { l, r in
                    l.element.hitTestPriority != r.element.hitTestPriority
                        ? l.element.hitTestPriority > r.element.hitTestPriority : l.offset > r.offset
                }
                order.append(sorted.map { index[ObjectIdentifier($0.element)]! })
                usable.append(!v.isHidden && v.isUserInteractionEnabled && v.alpha >= 0.01)
                let b = v.bounds, i = v.hitTestInsets
                let x0 = b.minX + i.left, y0 = b.minY + i.top
                region.append((x0, y0, x0 + (b.width - i.left - i.right), y0 + (b.height - i.top - i.bottom)))
                outside.append(v.allowsSubviewHitsOutsideBounds)
                captures.append(v.capturesSubviewTouches)
                passes.append(v.passesTouchesThrough)
                let ox = b.minX + v.anchorPoint.x * b.width, oy = b.minY + v.anchorPoint.y * b.height
                center.append((v.center.x, v.center.y))
                if v.transform.isIdentity {
                    identity.append(true)
                    m.append((1, 0, 0, 1, ox, oy))
                } else if let t = v.transform.inverted() {
                    identity.append(false)
                    m.append((t.a, t.b, t.c, t.d, t.tx + ox, t.ty + oy))
                } else {
                    identity.append(false)
                    m.append((.nan, .nan, .nan, .nan, .nan, .nan))
                }
            }
        }

        /// The point in view `i`'s bounds space, from its superview's.
        @inline(__always) func convert(_ i: Int, _ x: Double, _ y: Double) -> (Double, Double) {
            let qx = x - center[i].0, qy = y - center[i].1
            let t = m[i]
            if identity[i] { return (qx + t.4, qy + t.5) }
            return (t.0 * qx + t.2 * qy + t.4, t.1 * qx + t.3 * qy + t.5)
        }

        @inline(__always) func inside(_ i: Int, _ x: Double, _ y: Double) -> Bool {
            let r = region[i]
            return x >= r.0 && x < r.2 && y >= r.1 && y < r.3
        }

        /// One decision, for `explain`.
        struct Step {
            var depth: Int
            var view: Int
            var x: Double, y: Double
            var verdict: String
        }

        struct Frame {
            var view: Int
            var x: Double, y: Double
            var inside: Bool
            var next: Int
        }

        /// Walks for a point in the root's bounds space: the hit (an index), the number of views
        /// whose hitTest was called, and the steps when `record` is given. `stack` is reused.
        func walk(_ x: Double, _ y: Double, stack: inout [Frame], record: ((Step) -> Void)? = nil) -> (hit: Int?, visits: Int) {
            stack.removeAll(keepingCapacity: true)
            var visits = 0
            // Enters view i at (x, y): pushes a frame or returns false (rejected).
            func enter(_ i: Int, _ x: Double, _ y: Double, _ depth: Int, _ stack: inout [Frame]) {
                visits += 1
                let v = views[i]
                guard usable[i] else {
                    record?(Step(depth: depth, view: i, x: x, y: y, verdict: v.isHidden ? "rejected: hidden" : !v.isUserInteractionEnabled
                        ? "rejected: userInteractionEnabled is false" : "rejected: alpha \(v.alpha) < 0.01"))
                    return
                }
                let ins = inside(i, x, y)
                let how = "bounds\(v.hitTestInsets == .zero ? "" : " with hitTestInsets")"
                if !ins && !outside[i] {
                    record?(Step(depth: depth, view: i, x: x, y: y, verdict: "rejected: outside (\(how))"))
                    return
                }
                if captures[i] {
                    record?(Step(depth: depth, view: i, x: x, y: y, verdict: ins ? "inside; capturesSubviewTouches: subviews not searched" : "outside"))
                    stack.append(Frame(view: i, x: x, y: y, inside: ins, next: order[i].count))
                } else {
                    let n = order[i].count
                    record?(Step(depth: depth, view: i, x: x, y: y, verdict: (ins ? "inside (\(how))" : "outside, but allowsSubviewHitsOutsideBounds")
                        + (n == 0 ? "; no subviews" : "; searching \(count(n, "subview")), last first")))
                    stack.append(Frame(view: i, x: x, y: y, inside: ins, next: 0))
                }
            }
            enter(0, x, y, 0, &stack)
            while let top = stack.last {
                let i = top.view
                if top.next < order[i].count {
                    stack[stack.count - 1].next += 1
                    let c = Int(order[i][top.next])
                    let (cx, cy) = convert(c, top.x, top.y)
                    enter(c, cx, cy, stack.count, &stack)
                    continue
                }
                // All subviews declined.
                stack.removeLast()
                let depth = stack.count
                if top.inside && !passes[i] {
                    record?(Step(depth: depth, view: i, x: top.x, y: top.y, verdict: "hit: no subview took the point"))
                    return (i, visits)
                }
                record?(Step(depth: depth, view: i, x: top.x, y: top.y, verdict: top.inside ? "nil: passesTouchesThrough" : "nil: no subview took the point"))
            }
            return (nil, visits)
        }
    }
}
