import HitTestCore

/// HitTestInput's record of one view (the core's `View.inputAttachment`): the view's gesture
/// recognizers and its touch-delivery rules (`UIView`'s touch properties), read by the
/// application when it assigns a new touch to a view. Made the first time a view needs one;
/// nothing here reaches the C index. The recognizers, read at every touch that begins for each
/// ancestor with a record, are in `ViewInputStorage` (Storage.swift); the two rules, read when
/// a touch begins in the view, are plain stored properties.
///
/// The view holds its record alone (nothing else keeps one past a call), and drops it first
/// in its `deinit`: the record's own `deinit` then detaches the recognizers, which refer to
/// the view unretained.
class ViewInput: ViewInputStorage, ViewInputAttachment {
    /// `isMultipleTouchEnabled`.
    final var isMultipleTouchEnabled = false
    /// `isExclusiveTouch`.
    final var isExclusiveTouch = false

    override init() {}

    deinit {
        for g in recognizers { g.view = nil }
    }

    /// A plain view's bounds origin means nothing to input (a scroll view's record overrides).
    func boundsOriginDidChange(of view: View) {}
}

extension View {
    /// The view's record, made on first use.
    var inputRecord: ViewInput {
        if let record = input { return record }
        let record = ViewInput()
        input = record
        return record
    }

    /// The recognizers attached to the view, in the order added (none: empty).
    var attachedRecognizers: [GestureRecognizer] { input?.recognizers ?? [] }

    /// Whether the view takes more than one touch at a time (`isMultipleTouchEnabled`).
    public var isMultipleTouchEnabled: Bool {
        get { input?.isMultipleTouchEnabled ?? false }
        set { inputRecord.isMultipleTouchEnabled = newValue }
    }

    /// Whether the view takes touches exclusively in its window (`isExclusiveTouch`).
    public var isExclusiveTouch: Bool {
        get { input?.isExclusiveTouch ?? false }
        set { inputRecord.isExclusiveTouch = newValue }
    }
}
