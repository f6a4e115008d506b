/// A view's touch-delivery rules (`UIView`'s touch properties), read by the application when
/// it assigns a new touch to a view. Nothing here reaches the C index.
///
/// Stored inline in `View.touchState`; a new field is one line here plus its accessor.
struct TouchState {
    var isMultipleTouchEnabled = false
    var isExclusiveTouch = false
}

extension View {
    /// Whether the view takes more than one touch at a time (`isMultipleTouchEnabled`).
    public var isMultipleTouchEnabled: Bool {
        get { touchState.isMultipleTouchEnabled }
        set { touchState.isMultipleTouchEnabled = newValue }
    }

    /// Whether the view takes touches exclusively in its window (`isExclusiveTouch`).
    public var isExclusiveTouch: Bool {
        get { touchState.isExclusiveTouch }
        set { touchState.isExclusiveTouch = newValue }
    }
}
