import CHitTest

// The funnel every stored attribute of a view changes through, by one of two entries:
// - `changeAttribute(_:old:new:store:)`, for an animatable attribute (center, bounds,
//   transform, alpha): it reads the old value only when an effect needs it, runs `store`, which
//   writes the attribute where it lives, then the effects;
// - `attributeDidChange(_:)`, for a `PlainViewAttribute` (anchorPoint, the flags, ...), after
//   the setter stored it, with no old value.
// Every attribute here lives in one place, the view's C row (or its box while it has no node:
// `View.geometry`, `View.hitAttributes`), so storing it is the setter's one write; what a change
// reaches beyond that is this file's table (`ViewAttribute.effects`), as the C core's `fields.h`
// says which derived data a stored field invalidates. A new subscriber is a column here, not a
// line in each setter.

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

        /// Animatable (SEMANTICS A1): the change is reported to the calling thread's change
        /// recorder, if an animation block is open there (`ChangeRecording`).
        package static let animation = Effects(rawValue: 1 << 0)
        /// The untransformed frame moved: Auto Layout hears of it (`frameDidChange(of:)`).
        package static let frame = Effects(rawValue: 1 << 1)
        /// A new bounds size: the view needs layout, its subviews autoresize, and Auto Layout
        /// hears of it (`boundsSizeDidChange(from:)`). Only when the size changed.
        package static let boundsSize = Effects(rawValue: 1 << 2)
        /// A new bounds origin: a scroll view scrolled; the input layer hears of it
        /// (`ViewInputAttachment.boundsOriginDidChange(of:)`). Only when the origin changed.
        package static let boundsOrigin = Effects(rawValue: 1 << 3)
    }

    /// The table: what a change of each attribute reaches.
    @inline(__always) package var effects: Effects {
        switch self {
        case .center: return [.animation, .frame]
        case .bounds: return [.animation, .boundsSize, .boundsOrigin]
        case .anchorPoint: return [.frame]
        case .transform: return [.animation]
        case .alpha: return [.animation]
        case .flags, .hitTestInsets, .hitTestPriority: return []
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

/// An attribute whose change carries no old value: its one effect (`ViewAttribute.effects`),
/// if any, is the frame's, which reads the view as it is now. The animatable attributes
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
    /// The funnel for an animatable attribute (center, bounds, transform, alpha):
    /// reads the old value (`old`) only when an effect needs it (the change recorder, when an
    /// animation block is open on this thread; the bounds' size and origin effects, for
    /// `bounds`), runs `store`, which writes `new`, then the effects.
    @inline(__always)
    final func changeAttribute(
        _ attribute: AnimatableAttribute, old: () -> AnimatableValue, new: AnimatableValue, store: () -> Void
    ) {
        let a = attribute.attribute
        let effects = a.effects
        let recorder = effects.contains(.animation) ? ChangeRecording.current : nil
        let needsOld = recorder != nil || effects.contains(.boundsSize) || effects.contains(.boundsOrigin)
        let oldValue = needsOld ? old() : nil
        store()
        runEffects(of: a, recorder: recorder, old: oldValue, new: new)
    }

    /// The funnel for an attribute whose change carries no old value (`PlainViewAttribute`):
    /// runs its effects, none of which reads one.
    @inline(__always)
    final func attributeDidChange(_ attribute: PlainViewAttribute) {
        runEffects(of: attribute.attribute, recorder: nil, old: nil, new: nil)
    }

    /// The effects of a change of `attribute`, in the table's order: `recorder` the thread's
    /// change recorder when the attribute is animatable and one is open, `old` and `new` its
    /// values when an effect needs them. Inlined into each setter with `attribute` a constant,
    /// so only that attribute's effects remain.
    @inline(__always)
    private final func runEffects(
        of attribute: ViewAttribute, recorder: (any ViewChangeRecorder)?, old: AnimatableValue?, new: AnimatableValue?
    ) {
        let effects = attribute.effects
        if effects.contains(.animation), let recorder, let animatable = attribute.animatable, let old {
            recorder.record(self, animatable, old: old)
        }
        if effects.contains(.frame) { layoutState.autoLayout?.frameDidChange(of: self) }
        if effects.contains(.boundsSize) || effects.contains(.boundsOrigin), case .rect(let oldBounds)? = old,
           case .rect(let newBounds)? = new {
            if effects.contains(.boundsSize), newBounds.size != oldBounds.size { boundsSizeDidChange(from: oldBounds.size) }
            if effects.contains(.boundsOrigin), newBounds.origin != oldBounds.origin, let input = inputAttachment {
                input.boundsOriginDidChange(of: self)
            }
        }
    }
}
