import Dispatch
import Foundation

extension View {
    /// Hit-tests many points at once; each point is in this view's bounds space, and the
    /// answers are in the same order and identical to `hitTest(_:with:)` for each point.
    ///
    /// Large batches are split over all cores; the answer never depends on the thread count.
    /// Handlers are still called only on the calling thread (see `pointInsideHandler`).
    /// - Complexity: O(points x the single-point cost) / cores; calls `ht_tree_hit_test_strided`.
    public func hitTest(_ points: [Point]) -> [View?] {
        var handles = [HitTestHandle](repeating: .none, count: points.count)
        points.withUnsafeBufferPointer { buffer in
            handles.withUnsafeMutableBufferPointer { out in hitTest(buffer, into: out) }
        }
        let core = self.core!
        return handles.map { core.view(for: $0) }
    }

    /// Hit-tests `points` into `handles` without allocating: each result is the hit view's
    /// `hitTestHandle`, or `.none`. Resolve one with `view(forHitTestHandle:)`.
    /// - Parameters:
    ///   - points: the points, in this view's bounds space.
    ///   - handles: where the answers go, one per point.
    ///   - threads: how many threads to use; nil for all cores when the batch is large enough
    ///     (8,192 points per thread), 1 for the calling thread only.
    /// - Precondition: `handles.count >= points.count`.
    public func hitTest(
        _ points: UnsafeBufferPointer<Point>, into handles: UnsafeMutableBufferPointer<HitTestHandle>,
        threads: Int? = nil
    ) {
        withCoordinates(of: points, into: handles) { xy, out in
            ensureCore().bulk(
                self, StridedPoints(xs: xy, ys: xy + 1, stride: 2), count: points.count, threads: threads, into: out)
        }
    }

    /// Hit-tests the points `(xs[i], ys[i])` into `handles`, as `hitTest(_:into:threads:)`.
    /// - Precondition: `xs` and `ys` have the same count, and `handles` is at least as long.
    public func hitTest(
        xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>,
        into handles: UnsafeMutableBufferPointer<HitTestHandle>, threads: Int? = nil
    ) {
        precondition(xs.count == ys.count, "hitTest(xs:ys:into:): xs and ys differ in length")
        precondition(handles.count >= xs.count, "hitTest(xs:ys:into:): the result buffer is too small")
        guard let x = xs.baseAddress, let y = ys.baseAddress, let out = handles.baseAddress else { return }
        ensureCore().bulk(self, StridedPoints(xs: x, ys: y, stride: 1), count: xs.count, threads: threads, into: out)
    }

    /// Builds, now, what bulk hit tests from this view use: the derived index and the answer
    /// grid (`ht_tree_prepare_points`). Optional: a large bulk call builds them itself after a
    /// mutation; call this to keep that cost out of a timed or latency-sensitive call.
    public func prepareHitTesting() {
        ensureCore().prepareAnswers(for: self)
    }

    /// Runs `body`, which may change many views of this view's tree (a layout pass), as one
    /// batch: the bulk hit-testing structures are invalidated once at the end rather than at
    /// every setter (`ht_tree_begin_batch`). Answers are the same with or without it.
    public func performHitTestingBatch<R>(_ body: () throws -> R) rethrows -> R {
        try ensureCore().batch(body)
    }

    /// This view's handle in the C index: what the handle-returning bulk calls write for it.
    /// Stable while the view lives and stays in the same tree (moving it into another tree
    /// gives it a new handle).
    public var hitTestHandle: HitTestHandle { ensureCore().handle(of: self) }

    /// The view of the same tree (index) as this one with `handle`, or nil (for `.none`,
    /// `.needsHandler`, or a handle of a view that no longer exists).
    public func view(forHitTestHandle handle: HitTestHandle) -> View? {
        core?.view(for: handle)
    }

    /// An immutable copy of this view's hit-testing state that any thread may query while the
    /// tree keeps changing. Answers are handles, as of now.
    public func makeHitTestSnapshot() -> HitTestSnapshot {
        let core = ensureCore()
        return HitTestSnapshot(tree: core.clone(preparedFor: self), root: core.handle(of: self))
    }
}

/// Calls `body` with `points` as interleaved x, y doubles and the result buffer, after checking
/// that the results fit; nil for no points. (`Point` is two `Double`s, laid out as x then y.)
func withCoordinates<R>(
    of points: UnsafeBufferPointer<Point>, into handles: UnsafeMutableBufferPointer<HitTestHandle>,
    _ body: (UnsafePointer<Double>, UnsafeMutablePointer<HitTestHandle>) -> R
) -> R? {
    precondition(handles.count >= points.count, "hitTest(_:into:): the result buffer is too small")
    precondition(MemoryLayout<Point>.stride == 2 * MemoryLayout<Double>.stride, "Point is not two packed Doubles")
    guard let base = points.baseAddress, let out = handles.baseAddress else { return nil }
    return base.withMemoryRebound(to: Double.self, capacity: points.count * 2) { body($0, out) }
}
