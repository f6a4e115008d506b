/// A view's hit-test handlers (the seed texts' recipes that replace a test with a closure; see
/// API.md "Hit-test customisation"), stored inline in `View.hitTestPolicy`. The customisations
/// the C kernels read (insets, priority, the pass-through, capture and outside-hits flags) live
/// in the view's C row (`View.hitAttributes`), as its flags and alpha do; the index keeps of the
/// handlers only whether there are any (`CoreTree.askFlags(of:)`).
struct HitTestPolicy {
    var pointInsideHandler: ((View, Point, Event?) -> Bool)?
    var hitTestHandler: ((View, Point, Event?, (Point) -> View?) -> View?)?
}

extension View {
    // MARK: Hit-test customisation (run inside the C kernels)

    /// Grows (negative values) or shrinks the region `point(inside:with:)` accepts: the bounds
    /// inset by these. Subviews are searched only inside that region.
    public var hitTestInsets: EdgeInsets {
        get { hitAttribute(NodeRows.insets(of:), \.insets) }
        set {
            View.requireFinite(
                [newValue.top, newValue.left, newValue.bottom, newValue.right].allSatisfy(\.isFinite),
                "hitTestInsets", newValue)
            storeHitAttribute(newValue, CoreTree.writeInsets, \.insets)
            attributeDidChange(.hitTestInsets)
        }
    }

    /// The view itself is never the hit; its subviews still are (an overlay whose hitTest
    /// returns nil when the hit is itself).
    public var passesTouchesThrough: Bool {
        get { hasFlag(.passesThrough) }
        set { setFlag(.passesThrough, newValue) }
    }

    /// A hit anywhere inside returns the view itself; subviews are not searched.
    public var capturesSubviewTouches: Bool {
        get { hasFlag(.captures) }
        set { setFlag(.captures, newValue) }
    }

    /// Subviews are searched even where the point is outside this view's region (a tab bar
    /// button sticking out of the bar).
    public var allowsSubviewHitsOutsideBounds: Bool {
        get { hasFlag(.outsideHits) }
        set { setFlag(.outsideHits, newValue) }
    }

    /// Among siblings, higher priority is searched first; equal priorities, later subview first.
    ///
    /// Stored clamped to `Int32`'s range (the C index keeps 32 bits), so reading it back gives
    /// what every hit-testing path uses: `Int.max` reads back as `Int(Int32.max)`.
    public var hitTestPriority: Int {
        get { Int(hitAttribute(NodeRows.priority(of:), \.priority)) }
        set {
            storeHitAttribute(Int32(clamping: newValue), CoreTree.writePriority, \.priority)
            attributeDidChange(.hitTestPriority)
        }
    }

    /// Replaces the default region test of `point(inside:with:)`. Called with the point in
    /// this view's bounds space, on the thread that asked for the hit test, never concurrently.
    public var pointInsideHandler: ((View, Point, Event?) -> Bool)? {
        get { hitTestPolicy.pointInsideHandler }
        set {
            let had = hasHandler
            hitTestPolicy.pointInsideHandler = newValue
            handlerChanged(had: had)
        }
    }

    /// Replaces the view's hit test (an override of `hitTest:withEvent:`). The last argument
    /// runs the default hit test of this view (UIKit's `super` call) for a point in its space.
    /// Called wherever the superview searches its subviews (whatever this view's flags), on the
    /// thread that asked for the hit test, never concurrently.
    public var hitTestHandler: ((View, Point, Event?, (Point) -> View?) -> View?)? {
        get { hitTestPolicy.hitTestHandler }
        set {
            let had = hasHandler
            hitTestPolicy.hitTestHandler = newValue
            handlerChanged(had: had)
        }
    }

    /// Whether the C walk asks this view through Swift (a handler, or a class of your own).
    package var hasHandler: Bool {
        asksSwiftForHitTesting || hitTestPolicy.pointInsideHandler != nil || hitTestPolicy.hitTestHandler != nil
    }

    private func handlerChanged(had: Bool) {
        guard let core else { return }
        if had && !hasHandler { core.handlerRemoved() }
        if !had && hasHandler { core.handlerAdded() }
        core.writeAskFlags(of: self)
    }
}
