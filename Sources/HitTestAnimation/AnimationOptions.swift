import HitTestCore

extension View {
    /// Options of the block animations (`UIView.AnimationOptions`), with UIKit's bit values.
    ///
    /// The curve is a 2-bit field (bits 16–17): `curveEaseInOut` is 0, so an empty set means
    /// easeInOut, and combining two curves gives the curve of the OR of their field values, as
    /// in UIKit. The transition style is a 3-bit field (bits 20–22).
    public struct AnimationOptions: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt
        /// Options from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Lay out subviews at commit (kept; the layout pass is not animated here).
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        /// The animated views stay hit-testable while they animate (SEMANTICS A14).
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Start from the value shown now (the presentation) rather than the model's old value;
        /// earlier animations of the same property of the same view are interrupted. [ours]
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Repeat forever (SEMANTICS A9).
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Each cycle runs forward then backward (SEMANTICS A9).
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// A nested block keeps its own duration (SEMANTICS A17).
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// A nested block keeps its own curve (SEMANTICS A17).
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        /// Kept for fidelity; no effect here.
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        /// `transition(from:to:)` hides and shows the views instead of removing and adding them.
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        /// Kept for fidelity; no effect here.
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

        /// The easeInOut curve (field value 0: the default).
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        /// The easeIn curve (field value 1).
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        /// The easeOut curve (field value 2).
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        /// The linear curve (field value 3).
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        /// No transition style (field value 0).
        public static let transitionNone = AnimationOptions(rawValue: 0 << 20)
        /// Flip from the left (kept; the transition's look is not modelled).
        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        /// Flip from the right (kept; the transition's look is not modelled).
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        /// Curl up (kept; the transition's look is not modelled).
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        /// Curl down (kept; the transition's look is not modelled).
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        /// Cross dissolve (kept; the transition's look is not modelled).
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        /// Flip from the top (kept; the transition's look is not modelled).
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        /// Flip from the bottom (kept; the transition's look is not modelled).
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

        /// The curve named by the 2-bit curve field.
        public var curve: AnimationCurve {
            switch (rawValue >> 16) & 3 {
            case 0: .easeInOut
            case 1: .easeIn
            case 2: .easeOut
            default: .linear
            }
        }
    }

    /// The timing curves (`UIView.AnimationCurve`), as CAMediaTimingFunction's cubic Béziers
    /// (SEMANTICS A4).
    public enum AnimationCurve: Int, Sendable, Hashable, CaseIterable {
        /// Bézier (0.42, 0)(0.58, 1); the default.
        case easeInOut = 0
        /// Bézier (0.42, 0)(1, 1).
        case easeIn = 1
        /// Bézier (0, 0)(0.58, 1).
        case easeOut = 2
        /// f(x) = x.
        case linear = 3

        /// The curve's value at time fraction `x` (clamped to [0, 1]).
        public func value(at x: Double) -> Double { timingFunction.value(at: x) }
    }
}

/// The animatable values of a view as shown at one moment (`CALayer.presentation()`): the
/// model values plus what the running animations add (SEMANTICS A2). `frame` is derived from
/// the presented `center`, `bounds` and `transform` with the model's `anchorPoint`.
public struct Presentation: Sendable, Equatable {
    /// The presented frame.
    public var frame: Rect
    /// The presented bounds.
    public var bounds: Rect
    /// The presented centre.
    public var center: Point
    /// The presented transform.
    public var transform: AffineTransform
    /// The presented alpha.
    public var alpha: Double

    /// A presentation with the given values.
    public init(frame: Rect, bounds: Rect, center: Point, transform: AffineTransform, alpha: Double) {
        self.frame = frame
        self.bounds = bounds
        self.center = center
        self.transform = transform
        self.alpha = alpha
    }
}
