import HitTestKit

/// The fair baseline for the benchmark and the demo: the seed algorithm (UIKit's recursive
/// `hitTest:withEvent:`, the same rules as `Reference`) written as well as plain Swift makes
/// it, as a careful user porting the seed code would write it.
///
/// A snapshot of a view tree taken once: one plain struct per view in a contiguous array (no
/// reference counting on the way down), the inverse transform and the point-inside region
/// computed once per view, each view's subviews sorted into search order once, and a frame
/// stack allocated once, so that a query allocates nothing. The walk is the recursion of the
/// seed code with its frames kept in that stack (any depth works on any thread).
///
/// Every number is computed with the same expressions, in the same order, as `Reference`, so
/// the answers are the same to the last bit (edges included). Handlers are called as the
/// reference calls them. The snapshot does not follow later changes to the tree: make a new
/// one. Not thread-safe (one frame stack); handlers may re-enter the walk only through their
/// `superHitTest` argument.
public final class FairWalk {
    /// One view: how to map a point from its superview's space, its region and its flags.
    struct Node {
        // Point from the superview's bounds space into this view's:
        // inverse(transform) * (p - center) + origin.
        var cx: Double, cy: Double, ox: Double, oy: Double
        var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
        // The point-inside region (bounds inset by hitTestInsets): x0 <= x < x1, y0 <= y < y1.
        var x0: Double, y0: Double, x1: Double, y1: Double
        // This view's subviews in search order: children[first ..< first + count].
        var first: Int32, count: Int32
        var kind: UInt8  // 0 identity transform, 1 invertible, 2 singular (the point is NaN)
        var skip: Bool  // hidden, interaction disabled or alpha < 0.01
        var passes: Bool, captures: Bool, outside: Bool
        var pointInsideHandler: Bool, hitTestHandler: Bool
    }

    /// A level of the walk in progress: the view, its point, the next subview to search.
    struct Frame {
        var node: Int32
        var next: Int32
        var inside: Bool
        var x: Double, y: Double
    }

    private let nodes: ContiguousArray<Node>
    private let children: ContiguousArray<Int32>
    private let views: ContiguousArray<View>
    private let pointInsideHandlers: [Int32: (View, Point, Event?) -> Bool]
    private let hitTestHandlers: [Int32: (View, Point, Event?, (Point) -> View?) -> View?]
    private let frames: UnsafeMutablePointer<Frame>
    /// The deepest level below the root (0 for a lone view).
    public let depth: Int

    /// The number of views in the snapshot.
    public var count: Int { nodes.count }

    /// Takes a snapshot of `root` and everything under it (iterative: any depth).
    public init(_ root: View) {
        var nodes = ContiguousArray<Node>()
        var children = ContiguousArray<Int32>()
        var views = ContiguousArray<View>()
        var pih: [Int32: (View, Point, Event?) -> Bool] = [:]
        var hth: [Int32: (View, Point, Event?, (Point) -> View?) -> View?] = [:]
        // Breadth first: a view's search-ordered subviews get consecutive slots in `children`.
        func add(_ v: View) -> Int32 {
            let i = Int32(nodes.count)
            let b = v.bounds
            let ins = v.hitTestInsets
            let x0 = b.minX + ins.left
            let y0 = b.minY + ins.top
            var n = Node(
                cx: v.center.x, cy: v.center.y,
                ox: v.bounds.minX + v.anchorPoint.x * v.bounds.width,
                oy: v.bounds.minY + v.anchorPoint.y * v.bounds.height,
                a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0,
                x0: x0, y0: y0, x1: x0 + (b.width - ins.left - ins.right), y1: y0 + (b.height - ins.top - ins.bottom),
                first: 0, count: 0, kind: 0,
                skip: v.isHidden || !v.isUserInteractionEnabled || v.alpha < 0.01,
                passes: v.passesTouchesThrough, captures: v.capturesSubviewTouches,
                outside: v.allowsSubviewHitsOutsideBounds,
                pointInsideHandler: v.pointInsideHandler != nil, hitTestHandler: v.hitTestHandler != nil)
            if !v.transform.isIdentity {
                if let t = v.transform.inverted() {
                    n.kind = 1
                    (n.a, n.b, n.c, n.d, n.tx, n.ty) = (t.a, t.b, t.c, t.d, t.tx, t.ty)
                } else {
                    n.kind = 2
                }
            }
            if let h = v.pointInsideHandler { pih[i] = h }
            if let h = v.hitTestHandler { hth[i] = h }
            nodes.append(n)
            views.append(v)
            return i
        }
        var levels: [Int32] = [0]
        _ = add(root)
        var queue = 0
        var maxLevel = 0
        while queue < nodes.count {
            let v = views[queue]
            let level = levels[queue]
            nodes[queue].first = Int32(children.count)
            nodes[queue].count = Int32(v.subviews.count)
            // Search order, decided once: higher priority first, then last subview first.
            let order = v.subviews.indices.sorted { l, r in
                let pl = v.subviews[l].hitTestPriority, pr = v.subviews[r].hitTestPriority
                return pl != pr ? pl > pr : l > r
            }
            for k in order {
                children.append(add(v.subviews[k]))
                levels.append(level + 1)
                maxLevel = max(maxLevel, Int(level) + 1)
            }
            queue += 1
        }
        self.nodes = nodes
        self.children = children
        self.views = views
        pointInsideHandlers = pih
        hitTestHandlers = hth
        depth = maxLevel
        // A walk holds at most one frame per level; a handler's superHitTest continues on the
        // frames above its caller's, so it needs no more.
        frames = .allocate(capacity: maxLevel + 2)
    }

    deinit { frames.deallocate() }

    /// UIKit's hit test of the snapshot's root for `point` in its bounds space (what
    /// `Reference.hitTest(root, point, with: event)` answers).
    public func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        var visits = 0
        return walk(0, point.x, point.y, handler: true, base: 0, event, &visits)
    }

    /// The hit test, adding to `visits` the number of views whose hitTest was called (the
    /// reference's count).
    public func hitTest(_ point: Point, with event: Event? = nil, visits: inout Int) -> View? {
        walk(0, point.x, point.y, handler: true, base: 0, event, &visits)
    }

    /// The walk from view `start` at (x, y), its frames from `base` up. `handler`: whether the
    /// start view's `hitTestHandler` decides (false for its `superHitTest` call).
    private func walk(_ start: Int32, _ x: Double, _ y: Double, handler: Bool, base: Int, _ event: Event?, _ visits: inout Int) -> View? {
        var top = base
        var n = start
        var px = x, py = y
        var useHandler = handler
        while true {
            // Enter view n at (px, py): either it answers (a hit ends the whole walk), or it
            // yields nil, or its subviews are to be searched.
            enter: do {
                visits &+= 1
                let node = nodes[Int(n)]
                if useHandler && node.hitTestHandler {
                    let view = views[Int(n)]
                    let frameTop = top
                    let current = n
                    let hit = hitTestHandlers[n]!(view, Point(x: px, y: py), event) { q in
                        // The reference counts the view once for its handler and its super call.
                        var inner = -1
                        let hit = self.walk(current, q.x, q.y, handler: false, base: frameTop, event, &inner)
                        visits &+= inner
                        return hit
                    }
                    if let hit { return hit }
                    break enter
                }
                if node.skip { break enter }
                let inside =
                    node.pointInsideHandler
                    ? pointInsideHandlers[n]!(views[Int(n)], Point(x: px, y: py), event)
                    : px >= node.x0 && px < node.x1 && py >= node.y0 && py < node.y1
                if !inside && !node.outside { break enter }
                if node.captures || node.count == 0 {
                    if inside && !node.passes { return views[Int(n)] }
                    break enter
                }
                frames[top] = Frame(node: n, next: 0, inside: inside, x: px, y: py)
                top += 1
            }
            // View n yielded nil (or was pushed): go on with the next subview to search.
            next: while true {
                if top == base { return nil }
                let f = frames[top - 1]
                let parent = nodes[Int(f.node)]
                if f.next < parent.count {
                    frames[top - 1].next = f.next + 1
                    n = children[Int(parent.first + f.next)]
                    let c = nodes[Int(n)]
                    let qx = f.x - c.cx
                    let qy = f.y - c.cy
                    switch c.kind {
                    case 0:
                        px = qx + c.ox
                        py = qy + c.oy
                    case 1:
                        px = (c.a * qx + c.c * qy + c.tx) + c.ox
                        py = (c.b * qx + c.d * qy + c.ty) + c.oy
                    default:
                        px = .nan
                        py = .nan
                    }
                    useHandler = true
                    break next
                }
                // Every subview yielded nil: the view itself, if inside.
                if f.inside && !parent.passes { return views[Int(f.node)] }
                top -= 1
            }
        }
    }
}
