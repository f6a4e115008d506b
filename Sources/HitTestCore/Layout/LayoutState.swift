/// A view's layout state: what the layout pass (autoresizing, `layoutSubviews`, Auto Layout)
/// reads and keeps per view. Nothing here reaches the C index: layout changes hit testing only
/// through the frames it sets, which write through as any frame change does.
///
/// Stored inline in `View.layoutState`. Each field's default is the attribute's default, so a
/// new stored layout attribute is one line here (plus its public accessor below); `View.init`,
/// `deinit`, the C index and the mirror check do not change.
package struct LayoutState {
    package var autoresizingMask: View.AutoresizingMask = []
    package var autoresizesSubviews = true
    /// Marked by `setNeedsLayout()`: `layoutSubviews()` runs at the next pass.
    package var needsLayout = false
    /// Some descendant needs layout: the pass goes down only through views with a mark.
    package var subtreeNeedsLayout = false
    /// Marked by `setNeedsUpdateConstraints()`: `updateConstraints()` runs at the next pass.
    package var needsUpdateConstraints = false
    /// Some descendant needs its constraints updated.
    package var subtreeNeedsUpdateConstraints = false
    /// Set while the superview's autoresizing loop resizes this view: its own subviews are
    /// resized by that loop (iteratively), not from inside the frame setter.
    package var autoresizingDeferred = false
    /// `translatesAutoresizingMaskIntoConstraints` (default true).
    package var translatesAutoresizingMaskIntoConstraints = true
    /// `layoutMargins` (8 on each side).
    package var layoutMargins = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    /// Auto Layout's per-view state, allocated when the view first takes part (constraints,
    /// guides, priorities); nil for the views that never do, so they pay one reference.
    package var autoLayout: (any AutoLayoutAttachment)?
}

extension View {
    // The layout record's fields the layers above read on hot paths, as accessors compiled in
    // this module: a stored property read from another module gets a dynamic exclusivity check
    // whatever its declaration says, and `layoutState` is checked only here (View.swift).

    /// `layoutState.autoLayout`: Auto Layout's record of the view (HitTestLayout types it).
    package final var autoLayoutRecord: (any AutoLayoutAttachment)? {
        get { layoutState.autoLayout }
        set { layoutState.autoLayout = newValue }
    }

    /// `layoutState.translatesAutoresizingMaskIntoConstraints`.
    package final var translatesMaskIntoConstraints: Bool {
        get { layoutState.translatesAutoresizingMaskIntoConstraints }
        set { layoutState.translatesAutoresizingMaskIntoConstraints = newValue }
    }

    /// How a view resizes when its superview's bounds change (`UIView.AutoresizingMask`,
    /// `UIViewAutoresizing`); the raw values are UIKit's.
    public struct AutoresizingMask: OptionSet, Sendable, Hashable, Codable {
        /// The bits, as in UIKit.
        public let rawValue: UInt

        /// A mask with the given bits (`UIViewAutoresizing` values).
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// The left margin stretches (`flexibleLeftMargin`).
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        /// The width stretches (`flexibleWidth`).
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        /// The right margin stretches (`flexibleRightMargin`).
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        /// The top margin stretches (`flexibleTopMargin`).
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        /// The height stretches (`flexibleHeight`).
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        /// The bottom margin stretches (`flexibleBottomMargin`).
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    /// How the view resizes when its superview's bounds size changes
    /// (`UIView.autoresizingMask`); default `[]` (a fixed frame), as in UIKit. Stored only:
    /// it plays no part in hit testing.
    public var autoresizingMask: AutoresizingMask {
        get { layoutState.autoresizingMask }
        set { layoutState.autoresizingMask = newValue }
    }

    /// Whether the view resizes its subviews by their `autoresizingMask` when its bounds size
    /// changes (`UIView.autoresizesSubviews`); default true, as in UIKit. Stored only: it plays
    /// no part in hit testing.
    public var autoresizesSubviews: Bool {
        get { layoutState.autoresizesSubviews }
        set { layoutState.autoresizesSubviews = newValue }
    }
}
