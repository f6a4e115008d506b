/// A view's hit-test customisation: what the C kernels read beyond geometry and UIKit's flags
/// (each field is one of the seed texts' recipes; see API.md "Hit-test customisation").
///
/// Stored inline in `View.hitTestPolicy`; the public properties below read and write it and
/// write the changed field through to the C index in O(1), through the view's funnel
/// (`attributeDidChange`, Views/ViewAttribute.swift). A new field is one line here plus its
/// accessor; if the kernels read it, also its row in `ViewAttribute`, one C write
/// (`CoreTree.write…`) and one line in the mirror check (`CCore+Mirror.swift`).
struct HitTestPolicy {
    // Word-sized fields first, flags last: the view's next record packs into the tail.
    var insets = EdgeInsets.zero
    var priority = 0
    var pointInsideHandler: ((View, Point, Event?) -> Bool)?
    var hitTestHandler: ((View, Point, Event?, (Point) -> View?) -> View?)?
    var passesTouchesThrough = false
    var capturesSubviewTouches = false
    var allowsSubviewHitsOutsideBounds = false
}

extension View {
    // MARK: Hit-test customisation (run inside the C kernels)

    /// Grows (negative values) or shrinks the region `point(inside:with:)` accepts: the bounds
    /// inset by these. Subviews are searched only inside that region.
    public var hitTestInsets: EdgeInsets {
        get { hitTestPolicy.insets }
        set {
            View.requireFinite(
                [newValue.top, newValue.left, newValue.bottom, newValue.right].allSatisfy(\.isFinite),
                "hitTestInsets", newValue)
            hitTestPolicy.insets = newValue
            attributeDidChange(.hitTestInsets)
        }
    }

    /// The view itself is never the hit; its subviews still are (an overlay whose hitTest
    /// returns nil when the hit is itself).
    public var passesTouchesThrough: Bool {
        get { hitTestPolicy.passesTouchesThrough }
        set {
            hitTestPolicy.passesTouchesThrough = newValue
            attributeDidChange(.flags)
        }
    }

    /// A hit anywhere inside returns the view itself; subviews are not searched.
    public var capturesSubviewTouches: Bool {
        get { hitTestPolicy.capturesSubviewTouches }
        set {
            hitTestPolicy.capturesSubviewTouches = newValue
            attributeDidChange(.flags)
        }
    }

    /// Subviews are searched even where the point is outside this view's region (a tab bar
    /// button sticking out of the bar).
    public var allowsSubviewHitsOutsideBounds: Bool {
        get { hitTestPolicy.allowsSubviewHitsOutsideBounds }
        set {
            hitTestPolicy.allowsSubviewHitsOutsideBounds = newValue
            attributeDidChange(.flags)
        }
    }

    /// Among siblings, higher priority is searched first; equal priorities, later subview first.
    ///
    /// Stored clamped to `Int32`'s range (the C index keeps 32 bits), so reading it back gives
    /// what every hit-testing path uses: `Int.max` reads back as `Int(Int32.max)`.
    public var hitTestPriority: Int {
        get { hitTestPolicy.priority }
        set {
            hitTestPolicy.priority = Int(Int32(clamping: newValue))
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
        attributeDidChange(.flags)
    }
}
