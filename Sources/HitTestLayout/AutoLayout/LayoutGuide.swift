import HitTestCore

/// A rectangle Auto Layout can place things against without a view (`UILayoutGuide`). Every
/// view has two: `layoutMarginsGuide` (its bounds inset by `layoutMargins`) and
/// `safeAreaLayoutGuide` (its bounds inset by `safeAreaInsets`). A guide made with `init()` and
/// added with `View.addLayoutGuide(_:)` has its own frame, set by constraints.
public final class LayoutGuide {
    enum Kind { case custom, margins, safeArea }

    let kind: Kind
    /// For a custom guide: its variables in the engine while a constraint uses it.
    var item: EngineItem?

    /// The view the guide belongs to (`owningView`); nil for a custom guide not added to a view.
    public internal(set) var owningView: View? {
        get { owner }
        set { owner = newValue }
    }
    /// Unretained: set only while the guide is in its owner's record (its margins, safe-area or
    /// custom guides), which the owner's `deinit` clears (`AutoLayoutNode.viewWillDeinit`).
    @Unretained private var owner: View? = nil

    /// A name for logs (`identifier`).
    public var identifier: String

    /// A custom guide, to be added to a view with `View.addLayoutGuide(_:)`.
    public init() {
        kind = .custom
        identifier = ""
    }

    init(kind: Kind, owner: View) {
        self.kind = kind
        self.owner = owner
        identifier = kind == .margins ? "UIViewLayoutMarginsGuide" : "UIViewSafeAreaLayoutGuide"
    }

    /// The guide's rectangle in its owning view's bounds space (`layoutFrame`): the bounds
    /// inset by the margins or the safe-area insets; for a custom guide, the frame Auto Layout
    /// solved (after layout), zero while no constraint places it.
    public var layoutFrame: Rect {
        guard let owner = owningView else { return .zero }
        switch kind {
        case .margins: return owner.bounds.inset(by: owner.layoutMargins)
        case .safeArea: return owner.bounds.inset(by: owner.safeAreaInsets)
        case .custom:
            guard let item, let engine = item.engine else { return .zero }
            engine.solveIfNeeded()
            return engine.solvedFrame(of: item)
        }
    }

    /// The insets of a margins or safe-area guide from its owner's edges.
    var insets: EdgeInsets {
        guard let owner = owningView else { return .zero }
        switch kind {
        case .margins: return owner.layoutMargins
        case .safeArea: return owner.safeAreaInsets
        case .custom: return .zero
        }
    }

    var debugName: String {
        let owner = owningView?.debugName ?? "nil"
        switch kind {
        case .margins: return "\(owner).layoutMarginsGuide"
        case .safeArea: return "\(owner).safeAreaLayoutGuide"
        case .custom: return identifier.isEmpty ? "\(owner).LayoutGuide" : "\(owner).\(identifier)"
        }
    }

    /// The leading edge (the left edge).
    public var leadingAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .leading) }
    /// The trailing edge (the right edge).
    public var trailingAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .trailing) }
    /// The left edge.
    public var leftAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .left) }
    /// The right edge.
    public var rightAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .right) }
    /// The horizontal centre.
    public var centerXAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .centerX) }
    /// The top edge.
    public var topAnchor: YAxisAnchor { YAxisAnchor(item: self, attribute: .top) }
    /// The bottom edge.
    public var bottomAnchor: YAxisAnchor { YAxisAnchor(item: self, attribute: .bottom) }
    /// The vertical centre.
    public var centerYAnchor: YAxisAnchor { YAxisAnchor(item: self, attribute: .centerY) }
    /// The width.
    public var widthAnchor: DimensionAnchor { DimensionAnchor(item: self, attribute: .width) }
    /// The height.
    public var heightAnchor: DimensionAnchor { DimensionAnchor(item: self, attribute: .height) }
}
