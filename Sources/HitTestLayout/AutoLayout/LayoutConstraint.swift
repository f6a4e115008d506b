import HitTestCore
import Foundation

/// A linear relation between two layout attributes (`NSLayoutConstraint`):
/// `firstItem.firstAttribute  relation  multiplier × secondItem.secondAttribute + constant`,
/// held at `priority`. Items are views and layout guides. Attributes are each item's frame
/// (leading = left, trailing = right: no right-to-left layout here); a guide stands for its
/// owner's bounds inset by its margins or safe-area insets.
///
/// A constraint does nothing until it is active (`isActive`, `activate(_:)`,
/// `View.addConstraint(_:)`). Changing `constant`, `priority` or the activation marks layout
/// as needed; the next `layoutIfNeeded()` or input step re-solves incrementally and applies
/// the new frames.
public final class LayoutConstraint: CustomStringConvertible {
    /// A layout attribute of an item (`NSLayoutAttribute`).
    public enum Attribute: Sendable, Hashable, CaseIterable {
        /// The left edge.
        case left
        /// The right edge.
        case right
        /// The top edge.
        case top
        /// The bottom edge.
        case bottom
        /// The leading edge: the left edge (left-to-right layout only).
        case leading
        /// The trailing edge: the right edge (left-to-right layout only).
        case trailing
        /// The width.
        case width
        /// The height.
        case height
        /// The horizontal centre.
        case centerX
        /// The vertical centre.
        case centerY
        /// No attribute: the second item of a constant-only constraint (`width == 100`).
        case notAnAttribute
    }

    /// How the two sides compare (`NSLayoutRelation`).
    public enum Relation: Int, Sendable, Hashable {
        /// first ≤ second.
        case lessThanOrEqual = -1
        /// first = second.
        case equal = 0
        /// first ≥ second.
        case greaterThanOrEqual = 1
    }

    /// An axis, for hugging and compression-resistance priorities (`NSLayoutConstraint.Axis`).
    public enum Axis: Int, Sendable, Hashable {
        /// Widths and x positions.
        case horizontal = 0
        /// Heights and y positions.
        case vertical = 1
    }

    /// What made a constraint: the user, or Auto Layout itself for a view's autoresizing mask
    /// (`translatesAutoresizingMaskIntoConstraints`) or its intrinsic content size.
    enum Kind { case user, autoresizingMask, contentSize }

    /// The item on the left side (a `View` or a `LayoutGuide`); nil once it is deallocated.
    public var firstItem: AnyObject? { first.object }
    private let first: LayoutItemReference
    /// The attribute of `firstItem`.
    public let firstAttribute: Attribute
    /// The relation between the two sides.
    public let relation: Relation
    /// The item on the right side, nil for a constant-only constraint.
    public var secondItem: AnyObject? { second.object }
    private let second: LayoutItemReference
    /// The attribute of `secondItem` (`.notAnAttribute` without one).
    public let secondAttribute: Attribute
    /// The factor on the right side.
    public let multiplier: Double
    /// A name for logs (`identifier`).
    public var identifier: String?

    /// The constant on the right side. Changing it on an active constraint re-solves
    /// incrementally at the next layout pass. It must be finite and within ±`maxConstant`
    /// (1e15, the range of layout values) [ours]: another value stops the program at the call,
    /// naming it, as UIKit raises on a bad value.
    public var constant: Double {
        didSet {
            if kind == .user { LayoutConstraint.requireConstant(constant) }  // internal ones follow frames
            if constant != oldValue { engine?.constantDidChange(self) }
        }
    }

    /// The largest |constant| (1e15): layout values (frame origins and sizes) stay within ±1e15.
    /// [ours]
    public static let maxConstant = 1e15
    /// `±1e15`, as messages write the range.
    static let rangeText = "±1e15"
    /// The largest |multiplier| (1e6). [ours]
    public static let maxMultiplier = 1e6
    /// The smallest nonzero |multiplier| (1e-6). [ours]
    public static let minMultiplier = 1e-6

    static func requireConstant(_ c: Double) {
        precondition(
            c.isFinite && abs(c) <= maxConstant,
            "LayoutConstraint.constant must be finite and within ±\(maxConstant), got \(c)")
    }

    /// How strongly the constraint holds (default `.required`). While the constraint is
    /// active it may change between optional priorities; between required and optional it
    /// stops the program, as UIKit raises.
    public var priority: LayoutPriority = .required {
        didSet {
            LayoutPriority.requireValid(priority)
            guard priority != oldValue, isActive else { return }
            precondition(
                priority.isRequired == oldValue.isRequired,
                "Mutating a priority from required to not on an installed constraint (or vice-versa) is not supported.  You passed priority \(priority) and the existing priority was \(oldValue).")
            engine?.priorityDidChange(self)
        }
    }

    // MARK: Engine bookkeeping

    let kind: Kind
    /// Whether the constraint is active (installed).
    var active = false
    /// The view it is listed on (`View.constraints`), unretained: set only while it is in that
    /// view's record (`installed`), which the view's `deinit` clears.
    @Unretained var installedOn: View? = nil
    /// The engine holding it while active.
    weak var engine: LayoutEngine?
    /// Its handle in the solver, -1 when not in it (inactive or broken).
    var solverID: Int64 = -1
    /// True when it was refused as unsatisfiable: active but not enforced.
    var isBroken = false
    /// The engine items its expression uses (retained in the engine while active).
    var usedItems: [EngineItem] = []
    /// Whether its expression reads a guide's insets (margins or safe area).
    var usesGuideInsets = false
    var usesSafeArea = false
    /// The constant the solver holds for it (the expression's constant minus `constant`).
    var solverConstant = 0.0
    /// For an internal constraint on one variable: that variable.
    var rawVariable: Int64 = -1

    /// Creates a constraint `item.attribute relation multiplier × toItem.attribute + constant`
    /// (`constraintWithItem:attribute:relatedBy:toItem:attribute:multiplier:constant:`),
    /// inactive, at the required priority. Items are views or layout guides.
    ///
    /// Stops the program for what UIKit refuses: a position attribute with no second item, or
    /// paired with a dimension or with the other axis; `.notAnAttribute` as the first
    /// attribute; a non-finite multiplier or constant. Also [ours], naming the value: a
    /// constant beyond ±`maxConstant`, a multiplier beyond ±`maxMultiplier` or, unless 0, below
    /// `minMultiplier` in magnitude (the solver's numeric range).
    public init(
        item: AnyObject, attribute: Attribute, relatedBy: Relation, toItem: AnyObject?,
        attribute toAttribute: Attribute, multiplier: Double, constant: Double
    ) {
        precondition(item is View || item is LayoutGuide, "LayoutConstraint: items must be views or layout guides, got \(type(of: item))")
        if let toItem {
            precondition(toItem is View || toItem is LayoutGuide, "LayoutConstraint: items must be views or layout guides, got \(type(of: toItem))")
        }
        precondition(attribute != .notAnAttribute, "LayoutConstraint: the first attribute cannot be notAnAttribute")
        precondition(
            multiplier.isFinite && (multiplier == 0 || (abs(multiplier) >= LayoutConstraint.minMultiplier && abs(multiplier) <= LayoutConstraint.maxMultiplier)),
            "LayoutConstraint.multiplier must be 0 or within \(LayoutConstraint.minMultiplier)...\(LayoutConstraint.maxMultiplier) in magnitude, got \(multiplier)")
        LayoutConstraint.requireConstant(constant)
        let hasSecond = toItem != nil && toAttribute != .notAnAttribute
        if !hasSecond {
            precondition(
                attribute.isDimension,
                "LayoutConstraint: a constraint cannot be made between \(attribute) and a constant: only width and height can equal a constant")
        } else if attribute.isDimension || toAttribute.isDimension {
            precondition(
                attribute.isDimension && toAttribute.isDimension,
                "LayoutConstraint: invalid pairing of layout attributes \(attribute) and \(toAttribute): a dimension pairs only with a dimension")
        } else {
            precondition(
                attribute.axis == toAttribute.axis,
                "LayoutConstraint: invalid pairing of layout attributes \(attribute) and \(toAttribute): a location pairs only with a location of the same axis")
            precondition(multiplier != 0, "LayoutConstraint: a multiplier of 0 with a location attribute creates an illegal constraint")
        }
        first = LayoutItemReference(item)
        firstAttribute = attribute
        self.relation = relatedBy
        second = LayoutItemReference(hasSecond ? toItem : nil)
        secondAttribute = hasSecond ? toAttribute : .notAnAttribute
        self.multiplier = hasSecond ? multiplier : 0
        self.constant = constant
        kind = .user
    }

    /// An internal constraint on one variable (`variable relation constant`), for autoresizing
    /// pins and intrinsic content sizes.
    init(internal kind: Kind, item: AnyObject, attribute: Attribute, relation: Relation, constant: Double, priority: LayoutPriority, variable: Int64) {
        self.kind = kind
        first = LayoutItemReference(item)
        firstAttribute = attribute
        self.relation = relation
        second = LayoutItemReference(nil)
        secondAttribute = .notAnAttribute
        multiplier = 0
        self.constant = constant
        self.priority = priority
        rawVariable = variable
    }

    /// Whether the constraint takes part in layout (`isActive`). Activating installs it on the
    /// items' nearest common ancestor (`View.constraints`); the items must be in one view tree.
    public var isActive: Bool {
        get { active }
        set {
            if newValue { activate(installingOn: nil) } else { deactivate() }
        }
    }

    /// Activates every constraint of `constraints` (`activateConstraints:`).
    public static func activate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.isActive = true }
    }

    /// Deactivates every constraint of `constraints` (`deactivateConstraints:`).
    public static func deactivate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.isActive = false }
    }

    // MARK: The unsatisfiable-constraints report

    /// Called when a required constraint conflicts with the required constraints in place: the
    /// constraint broken (not enforced; it stays active) and the conflicting constraints in
    /// place. The default writes UIKit's "Unable to simultaneously satisfy constraints." message
    /// to standard error; nil says nothing. Reading and setting it is thread-safe.
    ///
    /// [ours] The layout range counts as required: a constraint (or constant change) that would
    /// put a frame value beyond ±1e15 (`maxConstant`) is broken and reported the same way, with
    /// the required constraints that would force it; the views keep frames within the range
    /// (an optional constraint yields to the range instead). A change refused this way or by a
    /// conflict keeps the constraint's previous constant. `collectingIssues(_:)` reports to a
    /// caller instead, with the reason.
    public static var unsatisfiableHandler: (@Sendable (LayoutConstraint, [LayoutConstraint]) -> Void)? {
        get { handlerBox.get() }
        set { handlerBox.set(newValue) }
    }

    /// The default handler: `unsatisfiableMessage` on standard error.
    public static let printingUnsatisfiableHandler: @Sendable (LayoutConstraint, [LayoutConstraint]) -> Void = { broken, conflicting in
        FileHandle.standardError.write(Data(LayoutConstraint.unsatisfiableMessage(broken: broken, conflicting: conflicting).utf8))
    }

    /// UIKit's message for a broken constraint: the conflicting constraints with the broken one,
    /// then the one broken. For one that would leave the layout range, a line says which frame
    /// value. [ours]
    public static func unsatisfiableMessage(broken: LayoutConstraint, conflicting: [LayoutConstraint]) -> String {
        let list = (conflicting + [broken]).map { "    \"\($0)\"" }.joined(separator: ",\n")
        let range = broken.rangeNote.map { "\t\($0)\n" } ?? ""
        return """
            [LayoutConstraints] Unable to simultaneously satisfy constraints.
            \(range)\tProbably at least one of the constraints in the following list is one you don't want. 
            \tTry this: 
            \t\t(1) look at each constraint and try to figure out which you don't expect; 
            \t\t(2) find the code that added the unwanted constraint or constraints and fix it. 
            \t(Note: If you're seeing NSAutoresizingMaskLayoutConstraints that you don't understand, refer to the documentation for the UIView property translatesAutoresizingMaskIntoConstraints) 
            (
            \(list)
            )

            Will attempt to recover by breaking constraint 
            \(broken)

            Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this in the debugger.

            """
    }

    static func report(_ issue: LayoutConstraint.Issue) {
        let c = issue.constraint
        c.rangeNote = nil
        if issue.isOutOfRange {
            let what = issue.outOfRangeItem.map { "the \(issue.outOfRangeValue ?? "frame") of \(LayoutConstraint.name($0))" } ?? "a frame value"
            c.rangeNote = "Layout values stay within \(rangeText): these constraints would put \(what) beyond that range."
        }
        if let sink = IssueSink.current {
            sink.append(issue)
            return
        }
        unsatisfiableHandler?(c, issue.conflicting)
    }

    /// Runs `body` with the constraints it breaks (and the constant changes it refuses)
    /// collected instead of reported to `unsatisfiableHandler`: on this thread or task only,
    /// in the order they happened. Returns body's result and the issues. [ours]
    public static func collectingIssues<R>(_ body: () throws -> R) rethrows -> (result: R, issues: [LayoutConstraint.Issue]) {
        let sink = IssueSink()
        let result = try IssueSink.$current.withValue(sink) { try body() }
        return (result, sink.issues)
    }

    private static let handlerBox = HandlerBox(printingUnsatisfiableHandler)

    // MARK: Description

    /// `<LayoutConstraint:0x… View#1.width == 2*View#2.width + 10 @750   (active)>`, after
    /// UIKit's form; autoresizing pins read `AutoresizingMaskLayoutConstraint`, intrinsic sizes
    /// `ContentSizeLayoutConstraint`.
    public var description: String {
        let type: String
        switch kind {
        case .user: type = "LayoutConstraint"
        case .autoresizingMask: type = "AutoresizingMaskLayoutConstraint"
        case .contentSize: type = "ContentSizeLayoutConstraint"
        }
        let address = String(UInt(bitPattern: ObjectIdentifier(self).hashValue), radix: 16)
        let first = "\(LayoutConstraint.name(firstItem)).\(firstAttribute)"
        let op = relation == .equal ? "==" : relation == .lessThanOrEqual ? "<=" : ">="
        var right: String
        if let secondItem {
            let term = "\(LayoutConstraint.name(secondItem)).\(secondAttribute)"
            right = multiplier == 1 ? term : "\(LayoutConstraint.number(multiplier))*\(term)"
            if constant > 0 { right += " + \(LayoutConstraint.number(constant))" }
            if constant < 0 { right += " - \(LayoutConstraint.number(-constant))" }
        } else {
            right = LayoutConstraint.number(constant)
        }
        let p = priority.isRequired ? "" : " @\(priority)"
        return "<\(type):0x\(address) \(first) \(op) \(right)\(p)   (\(active ? "active" : "inactive"))>"
    }

    /// The range note of the last report of this constraint, for `unsatisfiableMessage`.
    var rangeNote: String?

    private static func name(_ item: AnyObject?) -> String {
        if let v = item as? View { return v.debugName }
        if let g = item as? LayoutGuide { return g.debugName }
        return "nil"
    }

    private static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}

/// The handler behind a lock, so that any thread may read or set it.
private final class HandlerBox: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `lock`.
    private let lock = NSLock()
    private var value: (@Sendable (LayoutConstraint, [LayoutConstraint]) -> Void)?

    init(_ value: (@Sendable (LayoutConstraint, [LayoutConstraint]) -> Void)?) { self.value = value }

    func get() -> (@Sendable (LayoutConstraint, [LayoutConstraint]) -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set(_ v: (@Sendable (LayoutConstraint, [LayoutConstraint]) -> Void)?) {
        lock.lock()
        value = v
        lock.unlock()
    }
}

extension LayoutConstraint {
    /// A constraint Auto Layout could not enforce, and why: what `unsatisfiableHandler` is
    /// told, as a value (`collectingIssues(_:)` returns them). [ours]
    public struct Issue {
        /// The constraint not enforced: broken on activation (it stays active, not enforced),
        /// or the one whose constant change was refused (it keeps its previous constant).
        public let constraint: LayoutConstraint
        /// The required constraints in place it conflicts with (the autoresizing and
        /// content-size constraints Auto Layout makes included).
        public let conflicting: [LayoutConstraint]
        /// Whether it conflicts with the layout range: a frame value would leave ±1e15
        /// (`LayoutConstraint.maxConstant`).
        public let isOutOfRange: Bool
        /// With `isOutOfRange`: the view or layout guide whose frame value would leave the
        /// range (nil when it is gone).
        public let outOfRangeItem: AnyObject?
        /// With `isOutOfRange`: which frame value, `.left` (x), `.top` (y), `.width` or
        /// `.height`.
        public let outOfRangeAttribute: LayoutConstraint.Attribute?
        /// Whether a constant change was refused (rather than an activation).
        public let isConstantChange: Bool

        /// With `isOutOfRange`: the frame value's name, `x`, `y`, `width` or `height`.
        public var outOfRangeValue: String? {
            switch outOfRangeAttribute {
            case .left?: return "x"
            case .top?: return "y"
            case .width?: return "width"
            case .height?: return "height"
            default: return nil
            }
        }
    }
}

/// Where `collectingIssues` sends the reports made on its task or thread.
final class IssueSink: @unchecked Sendable {
    // @unchecked: `items` is read and written only under `lock`.
    @TaskLocal static var current: IssueSink?
    private let lock = NSLock()
    private var items: [LayoutConstraint.Issue] = []

    func append(_ issue: LayoutConstraint.Issue) {
        lock.lock()
        items.append(issue)
        lock.unlock()
    }

    var issues: [LayoutConstraint.Issue] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

extension LayoutConstraint.Attribute {
    var isDimension: Bool { self == .width || self == .height }
    var axis: LayoutConstraint.Axis {
        switch self {
        case .left, .right, .leading, .trailing, .width, .centerX: return .horizontal
        default: return .vertical
        }
    }
    /// 0 for the near edge, 1 for the far edge, 0.5 for the centre; nil for a dimension.
    var edgeFraction: Double? {
        switch self {
        case .left, .leading, .top: return 0
        case .right, .trailing, .bottom: return 1
        case .centerX, .centerY: return 0.5
        default: return nil
        }
    }
}

/// A constraint's item as the constraint holds it: a view through its Auto Layout record (so the
/// view gets no weak reference, whose side table would slow its every retain), anything else
/// (a layout guide) weakly. Either way `object` is nil once the item is deallocated.
struct LayoutItemReference {
    private let node: AutoLayoutNode?
    private weak var other: AnyObject?

    init(_ item: AnyObject?) {
        if let view = item as? View {
            node = view.autoLayoutNode
        } else {
            node = nil
            other = item
        }
    }

    /// The item, or nil once it was deallocated.
    var object: AnyObject? { node?.view ?? other }
}
