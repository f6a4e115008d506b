import HitTestCore

extension View {
    // MARK: - Constraints

    /// Whether Auto Layout pins the view's current frame (`translatesAutoresizingMaskIntoConstraints`,
    /// default true): four required constraints hold its origin and size as they are (its
    /// autoresizing mask moves the frame when the superview resizes, and the pins follow). Set
    /// it to false for a view that constraints place.
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { translatesMaskIntoConstraints }
        set {
            guard newValue != translatesMaskIntoConstraints else { return }
            translatesMaskIntoConstraints = newValue
            if let it = autoLayoutState?.item, let engine = it.engine {
                engine.translatesDidChange(it, self)
            }
        }
    }

    /// The constraints installed on this view, in the order added (`constraints`): those added
    /// with `addConstraint(_:)` and the active ones whose items' nearest common ancestor it is.
    public var constraints: [LayoutConstraint] { autoLayoutState?.installed ?? [] }

    /// Installs `constraint` on this view and activates it (`addConstraint:`).
    public func addConstraint(_ constraint: LayoutConstraint) {
        constraint.activate(installingOn: self)
    }

    /// Installs and activates each constraint (`addConstraints:`).
    public func addConstraints(_ constraints: [LayoutConstraint]) {
        for c in constraints { addConstraint(c) }
    }

    /// Deactivates `constraint` if it is installed on this view (`removeConstraint:`).
    public func removeConstraint(_ constraint: LayoutConstraint) {
        if constraint.installedOn === self { constraint.deactivate() }
    }

    /// Deactivates each constraint installed on this view (`removeConstraints:`).
    public func removeConstraints(_ constraints: [LayoutConstraint]) {
        for c in constraints { removeConstraint(c) }
    }

    // MARK: - Anchors

    /// The leading edge (the left edge: no right-to-left layout here).
    public var leadingAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .leading) }
    /// The trailing edge (the right edge).
    public var trailingAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .trailing) }
    /// The left edge of the frame.
    public var leftAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .left) }
    /// The right edge of the frame.
    public var rightAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .right) }
    /// The horizontal centre of the frame.
    public var centerXAnchor: XAxisAnchor { XAxisAnchor(item: self, attribute: .centerX) }
    /// The top edge of the frame.
    public var topAnchor: YAxisAnchor { YAxisAnchor(item: self, attribute: .top) }
    /// The bottom edge of the frame.
    public var bottomAnchor: YAxisAnchor { YAxisAnchor(item: self, attribute: .bottom) }
    /// The vertical centre of the frame.
    public var centerYAnchor: YAxisAnchor { YAxisAnchor(item: self, attribute: .centerY) }
    /// The frame's width.
    public var widthAnchor: DimensionAnchor { DimensionAnchor(item: self, attribute: .width) }
    /// The frame's height.
    public var heightAnchor: DimensionAnchor { DimensionAnchor(item: self, attribute: .height) }

    // MARK: - Guides

    /// The bounds inset by `layoutMargins` (`layoutMarginsGuide`); constraints to it follow
    /// margin changes.
    public var layoutMarginsGuide: LayoutGuide {
        let node = autoLayoutNode
        if let g = node.marginsGuide { return g }
        let g = LayoutGuide(kind: .margins, owner: self)
        node.marginsGuide = g
        return g
    }

    /// The bounds inset by `safeAreaInsets` (`safeAreaLayoutGuide`); constraints to it follow
    /// the window's insets and the view's place in the window.
    public var safeAreaLayoutGuide: LayoutGuide {
        let node = autoLayoutNode
        if let g = node.safeAreaGuide { return g }
        let g = LayoutGuide(kind: .safeArea, owner: self)
        node.safeAreaGuide = g
        return g
    }

    /// The custom guides added to this view (`layoutGuides`).
    public var layoutGuides: [LayoutGuide] { autoLayoutState?.guides ?? [] }

    /// Adds a custom guide (`addLayoutGuide:`): a rectangle in this view's space that
    /// constraints place, like an invisible subview. A guide of another view moves here.
    public func addLayoutGuide(_ guide: LayoutGuide) {
        precondition(guide.kind == .custom, "addLayoutGuide: the margins and safe-area guides belong to their view")
        if guide.owningView === self { return }
        guide.owningView?.removeLayoutGuide(guide)
        guide.owningView = self
        autoLayoutNode.guides.append(guide)
    }

    /// Removes a custom guide (`removeLayoutGuide:`) and deactivates the constraints using it.
    public func removeLayoutGuide(_ guide: LayoutGuide) {
        guard guide.owningView === self, let node = autoLayoutState else { return }
        for c in node.affecting where c.firstItem === guide || c.secondItem === guide { c.deactivate() }
        node.guides.removeAll { $0 === guide }
        guide.owningView = nil
    }

    // MARK: - Intrinsic size priorities

    /// How strongly the view resists growing beyond its intrinsic size on `axis`
    /// (`setContentHuggingPriority:forAxis:`); default 250.
    public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutConstraint.Axis) {
        LayoutPriority.requireValid(priority)
        let node = autoLayoutNode
        if axis == .horizontal { node.hugging.0 = priority } else { node.hugging.1 = priority }
        node.intrinsicSizeDidChange(self)
    }

    /// The content hugging priority on `axis` (`contentHuggingPriorityForAxis:`); default 250.
    public func contentHuggingPriority(for axis: LayoutConstraint.Axis) -> LayoutPriority {
        guard let node = autoLayoutState else { return .defaultLow }
        return axis == .horizontal ? node.hugging.0 : node.hugging.1
    }

    /// How strongly the view resists shrinking below its intrinsic size on `axis`
    /// (`setContentCompressionResistancePriority:forAxis:`); default 750.
    public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: LayoutConstraint.Axis) {
        LayoutPriority.requireValid(priority)
        let node = autoLayoutNode
        if axis == .horizontal { node.compression.0 = priority } else { node.compression.1 = priority }
        node.intrinsicSizeDidChange(self)
    }

    /// The compression-resistance priority on `axis`; default 750.
    public func contentCompressionResistancePriority(for axis: LayoutConstraint.Axis) -> LayoutPriority {
        guard let node = autoLayoutState else { return .defaultHigh }
        return axis == .horizontal ? node.compression.0 : node.compression.1
    }

    // MARK: - Fitting and ambiguity

    /// The smallest size to ask `systemLayoutSizeFitting(_:)` for (`UILayoutFittingCompressedSize`): zero.
    public static let layoutFittingCompressedSize = Size(width: 0, height: 0)
    /// The largest size to ask `systemLayoutSizeFitting(_:)` for (`UILayoutFittingExpandedSize`):
    /// 10,000,000 on each side. [ours: a large finite size]
    public static let layoutFittingExpandedSize = Size(width: 10_000_000, height: 10_000_000)

    /// The size the constraints give the view when its width and height are pulled toward
    /// `target` at `fittingSizeLevel` (50) (`systemLayoutSizeFittingSize:`). The view's own
    /// autoresizing size pins are left out for the measurement; nothing is laid out.
    public func systemLayoutSizeFitting(_ target: Size) -> Size {
        systemLayoutSizeFitting(target, withHorizontalFittingPriority: .fittingSizeLevel, verticalFittingPriority: .fittingSizeLevel)
    }

    /// `systemLayoutSizeFitting(_:)` with the pull on each axis at the given priority.
    public func systemLayoutSizeFitting(
        _ target: Size, withHorizontalFittingPriority horizontal: LayoutPriority, verticalFittingPriority vertical: LayoutPriority
    ) -> Size {
        View.requireFinite(target.isFinite, "systemLayoutSizeFitting target", target)
        LayoutPriority.requireValid(horizontal)
        LayoutPriority.requireValid(vertical)
        let root = treeRoot
        let hadEngine = root.autoLayoutState?.ownedEngine != nil
        let engine = root.ownedEngineCreating()
        let it = engine.item(for: self)
        engine.retain(it)
        defer {
            engine.release(it)
            if !hadEngine, engine.isEmpty { root.autoLayoutState?.ownedEngine = nil }
        }
        return engine.fittingSize(of: it, target, horizontal, vertical)
    }

    /// Whether the constraints leave some part of the view's frame undetermined
    /// (`hasAmbiguousLayout`): false for a view Auto Layout does not place.
    public var hasAmbiguousLayout: Bool {
        guard let it = autoLayoutState?.item, let engine = it.engine else { return false }
        engine.solveIfNeeded()
        return !it.variables.allSatisfy { engine.solver.isDetermined($0) }
    }
}

extension LayoutEngine {
    /// Solves with the item's size pulled toward `target` (its size pins lifted), reads the
    /// size, and puts everything back.
    func fittingSize(of it: EngineItem, _ target: Size, _ horizontal: LayoutPriority, _ vertical: LayoutPriority) -> Size {
        solveIfNeeded()
        let lifted = it.pins.count == 4 ? [it.pins[2], it.pins[3]] : []
        for c in lifted where c.solverID >= 0 {
            solver.remove(c.solverID)
        }
        var pulls: [Int64] = []
        for (variable, value, priority) in [(it.w, target.width, horizontal), (it.h, target.height, vertical)] {
            var e = LinearExpression()
            e.add(variable, 1)
            e.constant = LayoutEngine.clamped(-value)  // a pull beyond the range stops at it
            if case .ok(let id) = solver.add(e, relation: 0, priority: priority.rawValue) { pulls.append(id) }
        }
        solver.solve()
        let size = Size(width: solver.value(it.w), height: solver.value(it.h))
        for id in pulls { solver.remove(id) }
        for c in lifted where c.solverID >= 0 { readd(c) }
        markDirty()
        return size
    }
}
