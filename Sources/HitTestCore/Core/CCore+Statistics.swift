import CHitTest

/// What a view's hit-testing index holds, for benchmarks and tuning (`View.hitTestingStatistics()`).
public struct HitTestingStatistics: Sendable, Equatable {
    /// Bytes of the whole C index of the view's tree: base rows, derived blocks and the answer grid.
    public var indexBytes: Int
    /// Bytes of the answer grid for this view (cells, palette, lookup table); 0 when it has none.
    public var answerGridBytes: Int
    /// Cells of that answer grid.
    public var answerGridCells: Int
    /// Cells whose answer is sure (points there take no walk).
    public var sureCells: Int
}

extension View {
    /// The sizes of this view's hit-testing structures, after preparing them for bulk queries
    /// from this view (`prepareHitTesting()`).
    public func hitTestingStatistics() -> HitTestingStatistics {
        let core = ensureCore()
        core.prepareAnswers(for: self)
        return core.statistics(for: self)
    }
}

extension CoreTree {
    /// The sizes of `view`'s hit-testing structures as they are now (nothing is prepared).
    package func statistics(for view: View) -> HitTestingStatistics {
        var index = 0, bytes = 0, cells = 0, sure = 0
        CoreTree.check(ht_tree_memory_usage(tree, &index), "memory usage")
        CoreTree.check(ht_tree_answer_grid_stats(tree, view.node, &bytes, &cells, &sure), "answer grid statistics")
        return HitTestingStatistics(indexBytes: index, answerGridBytes: bytes, answerGridCells: cells, sureCells: sure)
    }
}
