import HitTestCore

// The one file of HitTestAnimation that uses an unchecked conversion.

extension View {
    /// The view's running animations (the core's `animationRecord`, typed).
    ///
    /// Invariant: only this module writes `animationRecord`, and only through this property,
    /// so the record is always a `ViewAnimationState`.
    var animationState: ViewAnimationState? {
        get { animationRecord.map { unsafeDowncast($0, to: ViewAnimationState.self) } }
        set { animationRecord = newValue }
    }
}
