import HitTestCore

/// How strongly Auto Layout holds a constraint (`UILayoutPriority`): 1000 is required; lower
/// (optional) priorities are satisfied as well as possible, higher first. Valid priorities are
/// greater than 0 and at most 1000.
public struct LayoutPriority: RawRepresentable, Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The priority, as in UIKit (a `Float`).
    public var rawValue: Float

    /// A priority with the given value.
    public init(rawValue: Float) { self.rawValue = rawValue }

    /// A priority with the given value.
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    /// 1000: the constraint must hold (`UILayoutPriorityRequired`).
    public static let required = LayoutPriority(1000)
    /// 750: a button's compression resistance (`UILayoutPriorityDefaultHigh`).
    public static let defaultHigh = LayoutPriority(750)
    /// 250: a button's content hugging (`UILayoutPriorityDefaultLow`).
    public static let defaultLow = LayoutPriority(250)
    /// 50: the pull `systemLayoutSizeFitting(_:)` puts toward its target (`UILayoutPriorityFittingSizeLevel`).
    public static let fittingSizeLevel = LayoutPriority(50)

    /// Orders by value.
    public static func < (a: LayoutPriority, b: LayoutPriority) -> Bool { a.rawValue < b.rawValue }

    /// `priority + 1` and the like, as UIKit's operators.
    public static func + (p: LayoutPriority, d: Float) -> LayoutPriority { LayoutPriority(p.rawValue + d) }

    /// `priority - 1` and the like, as UIKit's operators.
    public static func - (p: LayoutPriority, d: Float) -> LayoutPriority { LayoutPriority(p.rawValue - d) }

    /// The value, e.g. `750`.
    public var description: String {
        rawValue == rawValue.rounded() ? String(Int(rawValue)) : String(rawValue)
    }

    var isRequired: Bool { rawValue >= 1000 }

    static func requireValid(_ p: LayoutPriority) {
        precondition(
            p.rawValue > 0 && p.rawValue <= 1000,
            "LayoutPriority: a priority must be greater than 0 and at most 1000, got \(p.rawValue)")
    }
}
