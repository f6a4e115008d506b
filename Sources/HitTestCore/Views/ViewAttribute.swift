import CHitTest

// The funnel every stored attribute of a view changes through. A setter stores the new value,
// then calls `attributeDidChange(_:old:)` (an animatable attribute, with its old value) or
// `attributeDidChange(_:)` (a `PlainViewAttribute`, with none); what the change reaches is this file's table
// (`ViewAttribute.effects`), as the C core's `fields.h` says which derived data a stored field
// invalidates. A new subscriber is a column here, not a line in each setter.

/// A stored attribute of a view that something beyond the view hears of when it changes.
package enum ViewAttribute: Sendable, CaseIterable {
    case center, bounds, anchorPoint, transform, alpha
    /// Any of the flags the C rows hold (hidden, interaction, clips, the hit-test policy's
    /// flags, the flags that send the walk back to Swift).
    case flags
    case hitTestInsets, hitTestPriority

    /// What a change reaches, in the order the funnel runs it.
    package struct Effects: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The view's C row is written (`CoreTree.write(_:of:)`).
        package static let row = Effects(rawValue: 1 << 0)
        /// Animatable (SEMANTICS A1): the change is reported to the calling thread's change
        /// recorder, if an animation block is open there (`ChangeRecording`).
        package static let animation = Effects(rawValue: 1 << 1)
        /// The untransformed frame moved: Auto Layout hears of it (`frameDidChange(of:)`).
        package static let frame = Effects(rawValue: 1 << 2)
        /// A new bounds size: the view needs layout, its subviews autoresize, and Auto Layout
        /// hears of it (`boundsSizeDidChange(from:)`). Only when the size changed.
        package static let boundsSize = Effects(rawValue: 1 << 3)
        /// A new bounds origin: a scroll view scrolled; the input layer hears of it
        /// (`ViewInputAttachment.boundsOriginDidChange(of:)`). Only when the origin changed.
        package static let boundsOrigin = Effects(rawValue: 1 << 4)
    }

    /// The table: what a change of each attribute reaches.
    @inline(__always) package var effects: Effects {
        switch self {
        case .center: return [.row, .animation, .frame]
        case .bounds: return [.row, .animation, .boundsSize, .boundsOrigin]
        case .anchorPoint: return [.row, .frame]
        case .transform: return [.row, .animation]
        case .alpha: return [.row, .animation]
        case .flags, .hitTestInsets, .hitTestPriority: return [.row]
        }
    }

    /// The attribute as the change recorder knows it, for those with `.animation`.
    @inline(__always) var animatable: AnimatableAttribute? {
        switch self {
        case .center: return .center
        case .bounds: return .bounds
        case .transform: return .transform
        case .alpha: return .alpha
        case .anchorPoint, .flags, .hitTestInsets, .hitTestPriority: return nil
        }
    }
}

/// An attribute whose change carries no old value: its effects (`ViewAttribute.effects`) are
/// only the row and the frame, which read the view as it is now. The animatable attributes
/// (`AnimatableAttribute`) are the others: their change carries the old value, which the change
/// recorder and the bounds' effects read. Every `ViewAttribute` is one or the other, so a
/// setter cannot call the funnel without an old value that something would need.
package enum PlainViewAttribute: Sendable, CaseIterable {
    case anchorPoint, flags, hitTestInsets, hitTestPriority

    /// The attribute in the funnel's table.
    @inline(__always) package var attribute: ViewAttribute {
        switch self {
        case .anchorPoint: return .anchorPoint
        case .flags: return .flags
        case .hitTestInsets: return .hitTestInsets
        case .hitTestPriority: return .hitTestPriority
        }
    }
}

extension AnimatableAttribute {
    /// The attribute in the funnel's table.
    @inline(__always) package var attribute: ViewAttribute {
        switch self {
        case .center: return .center
        case .bounds: return .bounds
        case .transform: return .transform
        case .alpha: return .alpha
        }
    }
}

extension View {
    /// The funnel for an animatable attribute: `attribute` was just stored, and was `old`
    /// before. Runs the attribute's effects (`ViewAttribute.effects`) in order. `old` is
    /// evaluated only when an animation block is open on this thread or the bounds changed.
    @inline(__always)
    final func attributeDidChange(_ attribute: AnimatableAttribute, old: @autoclosure () -> AnimatableValue) {
        runEffects(of: attribute.attribute, old: old)
    }

    /// The funnel for an attribute whose change carries no old value (`PlainViewAttribute`):
    /// runs its effects, none of which reads one.
    @inline(__always)
    final func attributeDidChange(_ attribute: PlainViewAttribute) {
        runEffects(of: attribute.attribute, old: { nil })
    }

    /// The effects of a change of `attribute`, in the table's order. `old` gives the old value
    /// (nil for a plain attribute, whose effects never ask for it); inlined into each setter
    /// with `attribute` a constant, so only that attribute's effects remain.
    @inline(__always)
    private final func runEffects(of attribute: ViewAttribute, old: () -> AnimatableValue?) {
        let effects = attribute.effects
        if effects.contains(.row) { core?.write(attribute, of: self) }
        if effects.contains(.animation), let recorder = ChangeRecording.current, let animatable = attribute.animatable,
           let old = old() {
            recorder.record(self, animatable, old: old)
        }
        if effects.contains(.frame) { layoutState.autoLayout?.frameDidChange(of: self) }
        if effects.contains(.boundsSize) || effects.contains(.boundsOrigin), case .rect(let oldBounds)? = old() {
            if effects.contains(.boundsSize), storedBounds.size != oldBounds.size { boundsSizeDidChange(from: oldBounds.size) }
            if effects.contains(.boundsOrigin), storedBounds.origin != oldBounds.origin, let input = inputAttachment {
                input.boundsOriginDidChange(of: self)
            }
        }
    }
}

extension CoreTree {
    /// Writes `attribute` of `view` into its C row (values are checked finite by the view
    /// before they get here).
    @inline(__always)
    func write(_ attribute: ViewAttribute, of view: View) {
        switch attribute {
        case .center: writeCenter(view)
        case .bounds: writeBounds(view)
        case .anchorPoint: writeAnchor(view)
        case .transform: writeTransform(view)
        case .alpha: writeAlpha(view)
        case .flags: writeFlags(view)
        case .hitTestInsets: writeInsets(view)
        case .hitTestPriority: writePriority(view)
        }
    }

    /// Every attribute of `view` into its row (a view joining the index).
    func writeAll(_ view: View) {
        for attribute in ViewAttribute.allCases { write(attribute, of: view) }
    }
}
