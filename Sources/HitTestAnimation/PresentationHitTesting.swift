import HitTestCore

// Hit testing what the user sees (SEMANTICS A15): the presentation values at a time, in a
// copy of the C index, so the model and its index are never disturbed.

extension View {
    /// A frozen copy of this view's tree as shown at `time` on its application's clock: every
    /// animating view has its presentation `center`, `bounds`, `transform` and `alpha` at
    /// `time`. It answers what the user sees under a finger: A14 (animating views give way to
    /// what is behind) is not applied, so a sliding drawer is found where it is drawn even
    /// though touch delivery would not give it the touch. [ours] Hit-test handlers are not
    /// consulted (views with one are tested with the default rules), so no answer is
    /// `needsHandler`. Queried like any snapshot, from any
    /// thread, while the views go on changing; answers are the views' `hitTestHandle`s.
    ///
    /// Animations that exist now are evaluated at `time`; earlier history is not kept, so a
    /// past `time` shows the current animations' old values. [ours]
    /// - Complexity: O(views in the index) to copy, plus the answer grid for bulk queries.
    public func makeHitTestSnapshot(presentationAt time: Double) -> HitTestSnapshot {
        precondition(time.isFinite, "View.makeHitTestSnapshot(presentationAt:): \(time) is not finite")
        let core = ensureCore()
        return HitTestSnapshot(tree: presentationCopy(core, at: time, bulk: true), root: core.handle(of: self))
    }

    /// What the user sees (SEMANTICS A15): the hit test from this view over presentation values
    /// at the current time of its application's clock (`point` in this view's presented bounds
    /// space): the view drawn under the finger that would take it. The model flags apply
    /// (hidden, `isUserInteractionEnabled`, alpha as presented); A14's animation rule does
    /// not, as the user cannot see it [ours]; hit-test handlers are not consulted.
    public func hitTestPresentation(_ point: Point, with event: Event? = nil) -> View? {
        let core = ensureCore()
        let time = animationClockTime
        let frozen = presentationCopy(core, at: time, bulk: false)
        return core.view(for: frozen.hitTest(core.handle(of: self), point))
    }

    /// The index copied with presentation rows for animating views and handler-free flags.
    private func presentationCopy(_ core: CoreTree, at time: Double, bulk: Bool) -> FrozenTree {
        var rows: [CoreTree.PresentedRow] = []
        core.forEachView { v in
            guard v.animationState != nil || v.hasHandler else { return }
            let p = v.presentation(at: time)
            rows.append(
                CoreTree.PresentedRow(
                    node: v.node, center: p.center, bounds: p.bounds, transform: p.transform, alpha: p.alpha,
                    flags: v.hitAttributes.flags.subtracting(.blocked)))
        }
        return core.clone(preparedFor: self, overriding: rows, bulk: bulk)
    }
}
