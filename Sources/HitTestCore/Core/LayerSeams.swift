// The seams the higher layers plug into. The core never imports them: HitTestLayout and
// HitTestAnimation register what they keep per view (an attachment in the view) or per thread
// (the change recorder), and the core calls them at the points below. Each seam is `package`:
// visible to the package's targets, not to users.

/// Auto Layout's per-view record, seen from the core. HitTestLayout sets
/// `View.layoutState.autoLayout` the first time a view takes part in Auto Layout; the core
/// calls these at the moments UIKit's engine hears of (frame changes, the layout cycle,
/// hierarchy changes, margins, the safe area, the intrinsic size).
package protocol AutoLayoutAttachment: AnyObject {
    /// The view's frame moved outside the engine (center, anchor point or bounds size).
    func frameDidChange(of view: View)
    /// The default `layoutSubviews()` of `view`: the solved frames of its subviews.
    func applySolvedFrames(in view: View)
    /// On a tree's root: solves the tree's engine if its constraints changed.
    func solveIfNeeded()
    /// On a tree's root: the engine's constraints changed since the last solve.
    var needsSolve: Bool { get }
    /// `layoutMargins` changed.
    func layoutMarginsDidChange(of view: View)
    /// `invalidateIntrinsicContentSize()` was called.
    func intrinsicContentSizeDidChange(of view: View)
    /// The window's safe-area insets changed (on the window's record).
    func safeAreaDidChange(of window: Window)
    /// `view` was inserted into `parent` (from `oldSuperview`); called on the record of the
    /// view, else on the record of the old tree's root.
    func viewDidMove(_ view: View, into parent: View, from oldSuperview: View?)
    /// `view` was removed from `oldSuperview`; called on the record of the view, else on the
    /// record of the old tree's root.
    func viewDidLeave(_ view: View, from oldSuperview: View)
}

/// The four animatable attributes the core's setters report (SEMANTICS A1).
package enum AnimatableAttribute: Int, Sendable, CaseIterable {
    case center, bounds, transform, alpha
}

/// A value an animatable attribute had before a change.
package enum AnimatableValue: Sendable {
    case point(Point)
    case rect(Rect)
    case transform(AffineTransform)
    case scalar(Double)
}

/// What HitTestAnimation installs on a thread while an animation block is open there: every
/// change of an animatable attribute made on that thread is reported to it.
package protocol ViewChangeRecorder: AnyObject {
    /// `attribute` of `view` changed from `old` (the new value is in the view).
    func record(_ view: View, _ attribute: AnimatableAttribute, old: AnimatableValue)
}

/// The thread's change recorder: one thread-local slot, read by every animatable setter (one
/// `pthread_getspecific` when no block is open).
package enum ChangeRecording {
    /// The recorder of the calling thread, or nil.
    @inline(__always) package static var current: (any ViewChangeRecorder)? { ThreadSlot.recorder }

    /// Installs (or, with nil, removes) the calling thread's recorder.
    package static func install(_ recorder: (any ViewChangeRecorder)?) {
        ThreadSlot.set(recorder)
    }
}
