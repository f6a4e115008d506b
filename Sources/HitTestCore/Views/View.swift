/// A rectangular region of a view tree that takes part in hit testing (`UIView`).
///
/// A view has `bounds`, `center`, `transform` and `anchorPoint`; `frame` is derived from
/// them, as in UIKit. They and the view's other hit-testing properties (its flags, `alpha`,
/// `hitTestInsets`, `hitTestPriority`) live in the view's row of a C index (once it has one;
/// until then in the view), read and written there in O(1); `hitTest(_:with:)` answers through
/// that index, and the test suite checks every hit against a
/// plain recursive walk over these properties.
///
/// Numbers must be finite: assigning NaN or an infinity to a geometric property stops the
/// program with a message naming the property, as UIKit raises for a NaN layer position.
open class View: Responder {
    // MARK: The C index binding

    /// The C index this view has a node in, or nil for a view never attached nor queried.
    package final var core: CoreTree? {
        get { storedCore }
        set { storedCore = newValue }
    }
    /// The node handle in `core`.
    package final var node: Int32 {
        get { storedNode }
        set { storedNode = newValue }
    }
    // The stored fields behind `core`, `node`, `inputAttachment`: internal, so that the
    // whole-module optimizer sees every access and drops the exclusivity checks (see
    // Core/Storage.swift, "Fields of the public classes"); the other layers use the package
    // faces, which the optimizer inlines here.
    final var storedCore: CoreTree?
    final var storedNode: Int32 = -1
    /// The stored rows of `core`'s index, nil with it (`NodeRows`, CCore.swift).
    final var rows: NodeRows?

    /// The subviews, back to front. Edited only through `editSubviews(_:)` (see there).
    final var storedSubviews: [View] = []

    /// Runs `edit` on the subviews, taken out of the view and put back (`editTakenOut`,
    /// Core/Storage.swift). `edit` must not read this view's subviews.
    @inline(__always) final func editSubviews<R>(_ edit: (inout [View]) -> R) -> R {
        editTakenOut(self, \.storedSubviews, edit)
    }
    // The back references are `Unretained` (Core/Storage.swift), not `weak`: a weak reference
    // gives its target a side table, and every retain and release of a view, window or
    // controller then takes the runtime's slow path (measured as the replay's bottleneck). Each
    // is cleared when its target dies (`deinit` here and in `ViewController`) or detaches, so
    // none dangles.
    /// The superview; cleared by its `deinit` and by `removeFromSuperview()`.
    @Unretained package internal(set) final var storedSuperview: View? = nil
    /// The window; cleared for the subtree when it leaves the window or the window dies.
    /// (Hot paths can also test `$storedWindow` without a retain.)
    @Unretained package internal(set) final var storedWindow: Window? = nil

    /// Whether the view is in `window` (identity; nil: in none), without a retain.
    package final func isShown(in window: Window?) -> Bool {
        $storedWindow.isIdentical(to: Unretained(window))
    }

    /// Whether `view` is the superview (identity), without a retain.
    package final func hasSuperview(_ view: View) -> Bool {
        $storedSuperview.isIdentical(to: Unretained(view))
    }

    /// The application of the view's window, as a responder (HitTestInput's), or nil.
    package final var windowApplicationResponder: Responder? {
        $storedWindow.withObject { $0.applicationResponder } ?? nil
    }

    /// `test` of the application of the view's window, lent without a retain (the view and
    /// its window hold their references; nothing runs between the loads); false without one.
    package final func windowApplication(satisfies test: (Responder) -> Bool) -> Bool {
        $storedWindow.withObject { window in window.$applicationResponder.withObject(test) ?? false } ?? false
    }
    /// Set by `ViewController` on its root view, for the responder chain; cleared when the
    /// controller lets go of the view or dies.
    @Unretained final var owningController: ViewController? = nil

    // MARK: Geometry

    // What a view's C row stores (its geometry, flags, alpha, hit-test insets and priority)
    // lives in one place: the row once the view has a node, and the box `detached` until then
    // (and again after its node is freed while the view lives on). Each setter stores the one
    // attribute it sets and runs the attribute's effects, reading the old value first only when
    // an effect needs it (ViewAttribute.swift).

    /// The view's geometry, from wherever it lives now: its C row (read by slot) or `detached`.
    package final var geometry: ViewGeometry {
        @inline(__always) get {
            if let rows { return rows.geometry(of: node) }
            return detachedRow.geometry
        }
    }

    /// The view's flags, alpha, hit-test insets and priority, from wherever they live now.
    package final var hitAttributes: ViewHitAttributes {
        if let rows { return rows.attributes(of: node) }
        return detachedRow.attributes
    }

    /// What the row of a view without a node would hold, boxed, and nil while the view has one
    /// (its row is then the one copy): a view with a node carries one pointer for it. Read and
    /// written only off the hot paths (a view with a node reads its row), so its accesses keep
    /// their exclusivity checks.
    final private(set) var detached: DetachedRow?

    /// The box of a view without a node (`detached`).
    private final var detachedRow: DetachedRow {
        guard let detached else { preconditionFailure("HitTestKit: a view with a node has no detached row") }
        return detached
    }

    /// Hands back what the view's freed row held (`CoreTree.unregister`): the box holds it from now on.
    final func giveBackRow(_ geometry: ViewGeometry, _ attributes: ViewHitAttributes) {
        detached = DetachedRow(geometry, attributes)
    }

    /// Empties the box, whose values the view's new row holds from now on (`CoreTree.register`).
    final func takeDetachedRow() -> (ViewGeometry, ViewHitAttributes) {
        let box = detachedRow
        detached = nil
        return (box.geometry, box.attributes)
    }

    // The one place that decides where an attribute of the row lives: in the row while the view
    // has a node (`rows` is non-nil exactly while `core` is: `CoreTree.register` and
    // `unregister` set and clear both, and the mirror check asserts it), else in `detached`.

    /// One attribute of the geometry: `row` reads it from the C row, `detached` names it in the box.
    @inline(__always) private final func geometryAttribute<T>(
        _ row: (NodeRows) -> (Int32) -> T, _ detached: KeyPath<ViewGeometry, T>
    ) -> T {
        if let rows { return row(rows)(node) }
        return detachedRow.geometry[keyPath: detached]
    }

    /// Stores one attribute of the geometry: `write` (a `CoreTree` writer) puts it in the C row,
    /// `detached` names it in the box.
    @inline(__always) private final func storeGeometryAttribute<T>(
        _ value: T, _ write: (CoreTree) -> (T, View) -> Void, _ detached: WritableKeyPath<ViewGeometry, T>
    ) {
        if rows != nil { write(core!)(value, self) } else { detachedRow.geometry[keyPath: detached] = value }
    }

    /// One of the flags, alpha, insets and priority: `row` reads it from the C row, `detached`
    /// names it in the box.
    @inline(__always) final func hitAttribute<T>(
        _ row: (NodeRows) -> (Int32) -> T, _ detached: KeyPath<ViewHitAttributes, T>
    ) -> T {
        if let rows { return row(rows)(node) }
        return detachedRow.attributes[keyPath: detached]
    }

    /// Stores one of the flags, alpha, insets and priority: `write` (a `CoreTree` writer) puts it
    /// in the C row, `detached` names it in the box.
    @inline(__always) final func storeHitAttribute<T>(
        _ value: T, _ write: (CoreTree) -> (T, View) -> Void, _ detached: WritableKeyPath<ViewHitAttributes, T>
    ) {
        if rows != nil { write(core!)(value, self) } else { detachedRow.attributes[keyPath: detached] = value }
    }

    /// Whether the view has set `flag`.
    @inline(__always) final func hasFlag(_ flag: ViewFlags) -> Bool {
        hitAttribute(NodeRows.flags(of:), \.flags).contains(flag)
    }

    /// Sets or clears `flag` and runs the flags' effects.
    @inline(__always) final func setFlag(_ flag: ViewFlags, _ on: Bool) {
        let old = hitAttribute(NodeRows.flags(of:), \.flags)
        var new = old
        if on { new.insert(flag) } else { new.remove(flag) }
        guard new != old else { return }
        storeHitAttribute(new, CoreTree.writeFlags, \.flags)
        attributeDidChange(.flags)
    }

    /// The centre of the view in its superview's bounds space (`UIView.center`).
    public var center: Point {
        get { geometryAttribute(NodeRows.center(of:), \.center) }
        set {
            View.requireFinite(newValue.isFinite, "center", newValue)
            changeAttribute(.center, old: { .point(geometry.center) }, new: .point(newValue)) {
                storeGeometryAttribute(newValue, CoreTree.writeCenter, \.center)
            }
        }
    }

    /// The view's own coordinate space (`UIView.bounds`). Its origin scrolls the subviews (a
    /// scroll view's content offset); changing its size keeps `center`, so the frame grows
    /// about the anchor point.
    public var bounds: Rect {
        get { geometryAttribute(NodeRows.bounds(of:), \.bounds) }
        set {
            View.requireFinite(newValue.isFinite, "bounds", newValue)
            changeAttribute(.bounds, old: { .rect(geometry.bounds) }, new: .rect(newValue)) {
                storeGeometryAttribute(newValue, CoreTree.writeBounds, \.bounds)
            }
        }
    }

    /// The transform, applied about the anchor point (`UIView.transform`). A singular
    /// transform (scale 0) is allowed; the view and its subtree can then never be hit.
    public var transform: AffineTransform {
        get { geometryAttribute(NodeRows.transform(of:), \.transform) }
        set {
            View.requireFinite(newValue.isFinite, "transform", newValue)
            changeAttribute(.transform, old: { .transform(geometry.transform) }, new: .transform(newValue)) {
                storeGeometryAttribute(newValue, CoreTree.writeTransform, \.transform)
            }
        }
    }

    /// The anchor point in unit coordinates (`CALayer.anchorPoint`), default (0.5, 0.5).
    /// Changing it keeps `center` and so moves the frame.
    public var anchorPoint: Point {
        get { geometryAttribute(NodeRows.anchorPoint(of:), \.anchorPoint) }
        set {
            View.requireFinite(newValue.isFinite, "anchorPoint", newValue)
            storeGeometryAttribute(newValue, CoreTree.writeAnchor, \.anchorPoint)
            attributeDidChange(.anchorPoint)
        }
    }

    // MARK: Flags

    /// Hidden views and their subtrees are never hit (`UIView.isHidden`).
    public var isHidden: Bool {
        get { hasFlag(.hidden) }
        set { setFlag(.hidden, newValue) }
    }

    /// When false the view and its subtree are never hit (`isUserInteractionEnabled`).
    public var isUserInteractionEnabled: Bool {
        get { !hasFlag(.noInteraction) }
        set { setFlag(.noInteraction, !newValue) }
    }

    /// Kept for fidelity; it plays no part in hit testing, as in UIKit.
    public var clipsToBounds: Bool {
        get { hasFlag(.clips) }
        set { setFlag(.clips, newValue) }
    }

    /// Below 0.01 (strictly) the view and its subtree are never hit (`UIView.alpha`).
    public var alpha: Double {
        get { hitAttribute(NodeRows.alpha(of:), \.alpha) }
        set {
            View.requireFinite(newValue.isFinite, "alpha", newValue)
            changeAttribute(.alpha, old: { .scalar(alpha) }, new: .scalar(newValue)) {
                storeHitAttribute(newValue, CoreTree.writeAlpha, \.alpha)
            }
        }
    }

    /// An integer to find the view by (`viewWithTag(_:)`); default 0.
    public var tag = 0 { didSet { cachedDebugName = nil } }

    /// A name for tests and logs (`accessibilityIdentifier`); scene files set it to the node's id.
    public var accessibilityIdentifier: String? { didSet { cachedDebugName = nil } }

    // MARK: Per-concern records

    // State for one concern lives in that concern's record, not beside the frame math: the
    // public properties (`pointInsideHandler`, `isExclusiveTouch`, `autoresizingMask`, ...) are
    // declared with their concern and read and write these. A record is a struct stored inline
    // (no allocation, O(1) access); its defaults are the attributes' defaults, so a new
    // attribute is one line in its record (see ARCHITECTURE.md, "Per-concern records").

    /// The hit-test handlers (HitTesting/HitTestPolicy.swift); the index keeps only whether
    /// there are any (`CoreTree.askFlags(of:)`).
    final var hitTestPolicy = HitTestPolicy()
    /// Layout's per-view state (Layout/LayoutState.swift); nothing here reaches the C index.
    final var layoutState = LayoutState()

    // MARK: - Input (HitTestInput)

    /// HitTestInput's record of the view (its recognizers, its touch rules, a scroll view's
    /// scroll hook); nil for a view none was ever needed for (one reference per view). Only
    /// HitTestInput reads or writes it.
    package final var inputAttachment: (any ViewInputAttachment)? {
        get { storedInputAttachment }
        set { storedInputAttachment = newValue }
    }
    /// `inputAttachment`'s storage (see `storedCore`).
    final var storedInputAttachment: (any ViewInputAttachment)?

    // MARK: - Animation (HitTestAnimation)

    /// HitTestAnimation's record of the view's running animations; nil for a view not
    /// animating (one reference per view). Only HitTestAnimation reads or writes it.
    package final var animationRecord: AnyObject?
    /// Whether a running animation keeps touches from the view (SEMANTICS A14), kept by
    /// HitTestAnimation in the row's `.blocked`, apart from the model's interaction flag.
    package final var animationBlocksInteraction: Bool { hasFlag(.blocked) }

    /// Sets or clears `animationBlocksInteraction`.
    package final func setAnimationBlocksInteraction(_ blocked: Bool) {
        setFlag(.blocked, blocked)
    }

    // MARK: - Gesture recognizers (the arbitration is HitTestInput's)

    /// Whether `gestureRecognizer` may begin (leave `.possible`) on a touch in this view or for
    /// a recognizer attached to it (SEMANTICS G10). The default returns true; controls
    /// override it so that an ancestor's single tap does not take their touches (C5).
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool { true }

    // MARK: Init

    /// Whether the C walk must ask this view through Swift: its class is not one of the
    /// library's, so it may override `hitTest(_:with:)` or `point(inside:with:)`. Fixed at
    /// creation (a view's class never changes): true unless the view is a plain `View`, or the
    /// initializer of a library class said so (`walksInC(asInstanceOf:)`).
    final private(set) var asksSwiftForHitTesting = false

    /// Creates a view with the given frame: bounds `(0, 0, width, height)`, centre in the
    /// middle of the frame (`initWithFrame:`).
    public init(frame: Rect) {
        View.requireFinite(frame.isFinite, "frame", frame)
        detached = DetachedRow(
            ViewGeometry(
                center: Point(x: frame.midX, y: frame.midY),
                bounds: Rect(x: 0, y: 0, width: frame.width, height: frame.height)))
        super.init()
        asksSwiftForHitTesting = type(of: self) != View.self
    }

    /// Called by the initializer of each of the library's view classes (`Window`, and
    /// HitTestInput's controls, buttons and scroll views) right after `super.init`: a view of
    /// exactly `libraryClass` overrides neither `hitTest(_:with:)` nor `point(inside:with:)`, so
    /// the C walk walks it itself. A view of a subclass (yours, which may override them) is
    /// still asked through Swift, as UIKit's recursion would ask it (docs/hit-testing.md,
    /// "Overriding, as in UIKit").
    package final func walksInC(asInstanceOf libraryClass: View.Type) {
        guard type(of: self) == libraryClass else { return }
        asksSwiftForHitTesting = false
        core?.writeAskFlags(of: self)
    }

    // MARK: - Hit testing (override points, as UIKit's)

    /// The farthest descendant of this view (or itself) that contains `point`, in UIKit's
    /// order (`hitTest:withEvent:`); `point` is in this view's bounds space.
    ///
    /// UIKit's rules: nil if this view is hidden, has interaction disabled or alpha below 0.01,
    /// or `point(inside:with:)` is false; otherwise the subviews from last to first, each asked
    /// with `hitTest(_:with:)` and the point converted into it, and the first non-nil answer
    /// wins; otherwise the view itself. The customisation properties and handlers change these
    /// steps as documented on each. Ancestors of the receiver are not consulted. A NaN or
    /// infinite point hits nothing.
    ///
    /// Override it as in UIKit (call `super` for the default); single calls, touch delivery and
    /// bulk queries all honour the override. The default is answered by the C index
    /// (`ht_tree_hit_test`), which asks views of your own classes through their methods and
    /// walks the library's views itself; the answer is always the recursive walk's.
    /// - Complexity: about O(depth of the answer) for ordinary trees.
    open func hitTest(_ point: Point, with event: Event? = nil) -> View? {
        // No handler in the index and no query running: the C call alone, on the index
        // borrowed from the rows (no user code runs inside it to release it).
        if let quiet = rows?.index.withObject({ $0.quietHitTest(self, point) }) ?? nil { return quiet.answer }
        let core = ensureCore()
        // Without handlers in the index (the count includes this view's), none to look up.
        if core.handlerCount > 0, let handler = hitTestPolicy.hitTestHandler {
            return handler(self, point, event) { p in core.hitTest(self, p, event: event, asDefault: true) }
        }
        return core.hitTest(self, point, event: event, asDefault: true)
    }

    /// Whether `point` (in this view's bounds space) is inside the view (`pointInsideWithEvent:`):
    /// the `pointInsideHandler` if there is one, else whether the bounds inset by
    /// `hitTestInsets` contain it, with half-open edges. The transform plays no part.
    ///
    /// Override it as in UIKit; every hit-testing path honours the override.
    open func point(inside point: Point, with event: Event? = nil) -> Bool {
        if let handler = hitTestPolicy.pointInsideHandler { return handler(self, point, event) }
        return bounds.inset(by: hitTestInsets).contains(point)
    }

    /// Creates a view with a zero frame.
    public convenience override init() {
        self.init(frame: .zero)
    }

    deinit {
        // The input record goes first: its recognizers refer to this view unretained and lose
        // it now, before any subview's deinit runs (HitTestInput/Storage.swift).
        inputAttachment = nil
        // Auto Layout refers to the view without retaining it (HitTestLayout/Storage.swift).
        layoutState.autoLayout?.viewWillDeinit()
        // A dying window is taken from the views whose window it is first (some may outlive
        // it): they are in no window now.
        if self is Window { leaveWindowOfSubviews() }
        // Release deep subtrees iteratively: a 100,000-deep chain must not recurse in deinit.
        var pending = storedSubviews
        storedSubviews = []
        while var v = pending.popLast() {
            // Every view here is a subview of a view being destroyed.
            v.storedSuperview = nil
            if isKnownUniquelyReferenced(&v) {
                // A window inside dies here too, while its subviews still know it.
                if v is Window { v.leaveWindowOfSubviews() }
                pending.append(contentsOf: v.storedSubviews)
                v.storedSubviews = []
            }
        }
        core?.unregister(self)
    }

    /// Clears the window of every view whose window is this one (a window that is dying).
    private final func leaveWindowOfSubviews() {
        for s in storedSubviews where !(s is Window) { s.forEachSharingWindow { $0.storedWindow = nil } }
    }

    // MARK: - Callbacks (override points; the defaults do nothing)

    /// Called after a subview was added (`didAddSubview:`).
    open func didAddSubview(_ subview: View) {}
    /// Called before a subview is removed or moved to another superview (`willRemoveSubview:`).
    open func willRemoveSubview(_ subview: View) {}
    /// Called before the superview changes (`willMoveToSuperview:`).
    open func willMove(toSuperview newSuperview: View?) {}
    /// Called after the superview changed (`didMoveToSuperview`).
    open func didMoveToSuperview() {}
    /// Called before the window changes, on the view and each descendant, parent first.
    open func willMove(toWindow newWindow: Window?) {}
    /// Called after the window changed, on the view and each descendant, parent first.
    open func didMoveToWindow() {}

    // MARK: - Layout (override points; the machinery is in Layout/ and AutoLayout/)

    /// Lays out the subviews (`layoutSubviews`), called by the layout pass when the view was
    /// marked (`setNeedsLayout()`, a bounds size change, a subview added or removed, Auto
    /// Layout). The default applies Auto Layout's solved frames to the subviews that use it
    /// (`translatesAutoresizingMaskIntoConstraints == false`); override to place subviews
    /// yourself, calling `super` to keep Auto Layout's frames.
    open func layoutSubviews() { layoutState.autoLayout?.applySolvedFrames(in: self) }

    /// The size that best fits `size` (`sizeThatFits:`); the default returns the current
    /// bounds size. `sizeToFit()` uses it.
    open func sizeThatFits(_ size: Size) -> Size { bounds.size }

    /// Called after `layoutMargins` changed (`layoutMarginsDidChange`); the default does nothing.
    open func layoutMarginsDidChange() {}

    /// The insets of the window's safe area that reach into this view's bounds
    /// (`safeAreaInsets`): per edge, how far the window's unsafe band overlaps the view, never
    /// negative and never more than the view's size; zero for a view in no window.
    open var safeAreaInsets: EdgeInsets { safeAreaInsetsFromWindow() }

    /// The size the view's content needs (`intrinsicContentSize`); `View.noIntrinsicMetric` on
    /// an axis without one. The default has none on both axes. Auto Layout turns it into
    /// hugging and compression-resistance constraints; call `invalidateIntrinsicContentSize()`
    /// when it changes.
    open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric) }

    /// Updates the view's constraints (`updateConstraints`), called by the constraints pass
    /// before layout for a view marked with `setNeedsUpdateConstraints()`, subviews before
    /// their superview. The default does nothing; overrides call `super` last, as in UIKit.
    open func updateConstraints() {}

    package static func requireFinite(_ ok: Bool, _ name: String, _ value: Any) {
        requireValue(ok, "View.\(name)", "finite", value)
    }

    /// The view's next responder: its view controller when it is that controller's root view,
    /// else its superview (`UIView.nextResponder`).
    open override var next: Responder? {
        if let owningController { return owningController }
        return storedSuperview
    }

    /// `accessibilityIdentifier`, else the type and the tag (`View#0`).
    open override var debugName: String {
        if let cachedDebugName { return cachedDebugName }
        let name = accessibilityIdentifier ?? "\(type(of: self))#\(tag)"
        cachedDebugName = name
        return name
    }

    // MARK: Frame

    /// The view's rectangle in its superview's space (`UIView.frame`). With the identity
    /// transform: `center - anchorPoint * bounds.size` and the bounds size. Otherwise the
    /// bounding box of the transformed bounds. Setting it sets `center` and `bounds.size`
    /// (keeping `bounds.origin`); under a transform, the size is chosen so that the transformed
    /// box equals the frame (for transforms that can), so that reading it back gives what was set.
    public var frame: Rect {
        get {
            let g = geometry
            if g.transform.isIdentity {
                return Rect(
                    x: g.center.x - g.anchorPoint.x * g.bounds.width,
                    y: g.center.y - g.anchorPoint.y * g.bounds.height,
                    width: g.bounds.width, height: g.bounds.height)
            }
            let level = LevelConversion(g)
            return Rect.boundingBox(of: g.bounds.corners.map { level.toSuperview($0) })
        }
        set {
            View.requireFinite(newValue.isFinite, "frame", newValue)
            let g = geometry
            let anchorPoint = g.anchorPoint
            if g.transform.isIdentity {
                bounds.size = newValue.size
                center = Point(
                    x: newValue.minX + anchorPoint.x * newValue.width,
                    y: newValue.minY + anchorPoint.y * newValue.height)
                return
            }
            let size = View.untransformedSize(for: newValue.size, g.transform, current: g.bounds.size)
            bounds.size = size
            // Where the box's corner lands relative to the centre, for the new size.
            let t = g.transform
            let xs = [-anchorPoint.x * size.width, (1 - anchorPoint.x) * size.width]
            let ys = [-anchorPoint.y * size.height, (1 - anchorPoint.y) * size.height]
            var minX = Double.infinity
            var minY = Double.infinity
            for dx in xs {
                for dy in ys {
                    minX = min(minX, t.a * dx + t.c * dy + t.tx)
                    minY = min(minY, t.b * dx + t.d * dy + t.ty)
                }
            }
            center = Point(x: newValue.minX - minX, y: newValue.minY - minY)
        }
    }

    /// The frame as Auto Layout sees it (UIKit's engine works on it): untransformed,
    /// `center − anchorPoint × size` and the bounds size. Read from the row in place.
    package final var layoutFrame: Rect { geometry.layoutFrame }

    /// Sets the untransformed frame (`layoutFrame`: bounds size and centre), as UIKit's engine
    /// does, through the setters (the funnel: the row, the change recorder, the layout marks).
    package final func setLayoutFrame(_ r: Rect) {
        let g = geometry
        if g.layoutFrame == r { return }
        let a = g.anchorPoint
        if g.bounds.size != r.size { bounds.size = r.size }
        center = Point(x: r.minX + a.x * r.width, y: r.minY + a.y * r.height)
    }

    /// Sets the untransformed frames of subviews at once: the first `count` of `nodes` are the
    /// `node`s of subviews of the receiver (so of its index), `frames` their frames (x, y,
    /// width, height each). The subviews that keep their size get the center `setLayoutFrame`
    /// would give them, written by the C core in one call (their one effect beyond the row,
    /// Auto Layout's `frameDidChange`, is the caller's to make quiet); the others are left to the
    /// caller: their indices are the first entries of `resize` (grown to `count` if shorter),
    /// their number the result. Nil, with nothing written, when a change recorder is open on
    /// this thread (an animation block records each change), the receiver has no node, or the
    /// core refuses the batch (a stale node, a value or center not finite): the caller sets
    /// every frame.
    package final func setSubviewLayoutFrames(
        count: Int, nodes: [Int32], frames: [Double], resize: inout [UInt32]
    ) -> Int? {
        guard ChangeRecording.current == nil, rows != nil, let core else { return nil }
        return core.writeLayoutFrames(of: self, count: count, nodes: nodes, frames: frames, resize: &resize)
    }

    /// The bounds size whose box under `t` has size `box`: solves
    /// `|a| w + |c| h = W`, `|b| w + |d| h = H`. When that has no non-negative solution (a 45°
    /// rotation, say), scales the current size uniformly to the frame's width instead.
    static func untransformedSize(for box: Size, _ t: AffineTransform, current: Size) -> Size {
        let a = abs(t.a)
        let b = abs(t.b)
        let c = abs(t.c)
        let d = abs(t.d)
        let det = a * d - b * c
        if det != 0 {
            let w = (d * box.width - c * box.height) / det
            let h = (a * box.height - b * box.width) / det
            if w >= 0 && h >= 0 && w.isFinite && h.isFinite { return Size(width: w, height: h) }
        }
        let currentWidth = a * current.width + c * current.height
        if currentWidth > 0 {
            let s = box.width / currentWidth
            return Size(width: current.width * s, height: current.height * s)
        }
        let unit = a + c
        let side = unit > 0 ? box.width / unit : 0
        return Size(width: side, height: side)
    }

    // MARK: One step of conversion (the C core does the same arithmetic in the same order)


    /// From this view's bounds space to its superview's (`LevelConversion`).
    package final func toSuperview(_ p: Point) -> Point { LevelConversion(self).toSuperview(p) }

    /// From the superview's bounds space to this view's; NaN when the transform is singular
    /// (`LevelConversion`).
    package final func fromSuperview(_ p: Point) -> Point { LevelConversion(self).fromSuperview(p) }
}
