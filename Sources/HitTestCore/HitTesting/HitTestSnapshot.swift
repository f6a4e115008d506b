/// A frozen copy of a view tree's hit-testing index, safe to query from any thread.
///
/// Made by `View.makeHitTestSnapshot()`; later changes to the views do not reach it. Answers are
/// `hitTestHandle`s of the views as they were (`.none`: nothing); map them back to views with
/// `View.view(forHitTestHandle:)` on the thread that owns the tree. Handlers cannot run off
/// their thread, so a point whose answer needs one yields `HitTestHandle.needsHandler`.
public final class HitTestSnapshot: Sendable {
    /// The result for a point whose answer depends on a `pointInsideHandler` or `hitTestHandler`.
    public static let needsHandler = HitTestHandle.needsHandler

    private let tree: FrozenTree
    private let root: HitTestHandle

    package init(tree: FrozenTree, root: HitTestHandle) {
        self.tree = tree
        self.root = root
    }

    /// The handle of the view hit at `point` (in the snapshot root's bounds space), or `.none`.
    public func hitTest(_ point: Point) -> HitTestHandle {
        tree.hitTest(root, point)
    }

    /// Hit-tests `points` into `handles`, over `threads` threads (nil: all cores).
    public func hitTest(
        _ points: UnsafeBufferPointer<Point>, into handles: UnsafeMutableBufferPointer<HitTestHandle>,
        threads: Int? = nil
    ) {
        withCoordinates(of: points, into: handles) { xy, out in
            tree.bulk(root, StridedPoints(xs: xy, ys: xy + 1, stride: 2), count: points.count, threads: threads, into: out)
        }
    }

    /// Bytes held by the snapshot's C index (base rows at capacity, derived blocks and grids).
    public var indexBytes: Int { tree.memoryUsage }

    /// How many nodes the C walk tests for `points` in total (each node whose flags and region
    /// it checks), on the calling thread: the traversal cost that grids and culling save. With
    /// `answerGrid`, points the answer grid decides count nothing (the bulk path's cost);
    /// without, every point is walked (the single-point path's cost).
    public func nodesTested(for points: [Point], answerGrid: Bool = true) -> Int {
        var out = [HitTestHandle](repeating: .none, count: points.count)
        return points.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { handles in
                withCoordinates(of: p, into: handles) { xy, o in
                    Int(tree.countedHitTest(root, xy: xy, count: points.count, answerGrid: answerGrid, into: o))
                } ?? 0
            }
        }
    }

    /// How the answer grid decides `point` (0 the walk, 1 its cell, 2 the cell's candidate
    /// list); for the benchmark.
    package func gridDecision(for point: Point) -> Int { tree.gridDecision(root, point) }

    /// Hit-tests `points`, returning handles.
    public func hitTest(_ points: [Point]) -> [HitTestHandle] {
        var out = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { p in out.withUnsafeMutableBufferPointer { hitTest(p, into: $0) } }
        return out
    }
}

