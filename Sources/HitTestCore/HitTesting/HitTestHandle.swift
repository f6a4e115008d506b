/// A view's handle in the C index: what the allocation-free bulk hit tests and
/// `HitTestSnapshot` answer with, four bytes per point.
///
/// Resolve one with `View.view(forHitTestHandle:)` on the thread that owns the view tree. A
/// handle stays valid while its view lives and stays in the same tree (moving a view into
/// another tree gives it a new handle).
@frozen
public struct HitTestHandle: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The C index's `ht_node` value (a slot and a generation); negative for the sentinels.
    public let rawValue: Int32

    /// A handle from its raw value (as written by the C API).
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// No view: the point hits nothing (`HT_NULL_NODE`).
    public static let none = HitTestHandle(rawValue: -1)

    /// A point whose answer needs a `pointInsideHandler` or `hitTestHandler`, which a snapshot
    /// cannot run off its thread (`HT_PENDING_NODE`).
    public static let needsHandler = HitTestHandle(rawValue: -2)

    /// Whether this names a view (neither `.none` nor `.needsHandler`).
    public var isView: Bool { rawValue >= 0 }

    /// `none`, `needsHandler`, or the raw value.
    public var description: String {
        switch self {
        case .none: return "none"
        case .needsHandler: return "needsHandler"
        default: return "HitTestHandle(\(rawValue))"
        }
    }
}
