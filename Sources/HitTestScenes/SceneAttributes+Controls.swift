import HitTestKit

/// What kind of view a scene node builds: a plain `View` (no `kind` key), or one of these.
public enum SceneViewKind: String, Sendable, CaseIterable {
    /// `Control` (`UIControl` and its subclasses other than buttons).
    case control
    /// `Button` (`UIButton` and its subclasses).
    case button
    /// `ScrollView` (`UIScrollView`, `UITableView`, `UICollectionView`, `UITextView`).
    case scrollView

    /// The kind of a live view, nil for a plain view (or a window).
    static func of(_ view: View) -> SceneViewKind? {
        if view is Button { return .button }
        if view is Control { return .control }
        if view is ScrollView { return .scrollView }
        return nil
    }

    /// A new view of this kind.
    func makeView() -> View {
        switch self {
        case .control: Control(frame: .zero)
        case .button: Button(frame: .zero)
        case .scrollView: ScrollView(frame: .zero)
        }
    }

    /// The kinds that are controls.
    static let controls: Set<SceneViewKind> = [.control, .button]
}

extension SceneNode {
    /// The node's kind (`"kind"` key), nil for a plain view.
    public var kind: SceneViewKind? {
        get {
            guard case .string(let s)? = attributes["kind"] else { return nil }
            return SceneViewKind(rawValue: s)
        }
        set { attributes["kind"] = newValue.map { .string($0.rawValue) } }
    }
}

extension SceneFile {
    /// The view a node builds: its kind's class, or a plain `View`.
    static func makeView(for node: SceneNode) -> View {
        node.kind?.makeView() ?? View()
    }
}

// MARK: - Attributes of controls and scroll views

extension SceneAttribute {
    /// The kind of view (`"control"`, `"button"`, `"scrollView"`; absent: a plain view).
    static var kind: SceneAttribute {
        SceneAttribute(
            key: "kind",
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .string(let s) = v, let k = SceneViewKind(rawValue: s) else {
                    let names = SceneViewKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw SceneError(path: [], message: "\"kind\" must be one of \(names), found \(v.brief)")
                }
                n.kind = k
            },
            write: { $0.attributes["kind"] },
            apply: nil,  // the kind chooses the class: `SceneFile.makeView(for:)`
            capture: { v, n in n.kind = SceneViewKind.of(v) },
            same: { $0.attributes["kind"] == $1.attributes["kind"] },
            check: { _ in nil })
    }

    /// A property of views of some kinds, stored in `SceneNode.attributes`; on a node of
    /// another kind it is an error.
    static func kindSpecific<T: Equatable, V: View>(
        _ key: String, _ type: V.Type, kinds: Set<SceneViewKind>, default d: T, _ what: String,
        decode: @escaping (SceneJSON) -> T?, encode: @escaping (T) -> SceneJSON,
        get: @escaping (V) -> T, set: @escaping (V, T) -> Void
    ) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard let x = decode(v) else { throw SceneError(path: [], message: "\"\(key)\" must be \(what), found \(v.brief)") }
                n.attributes[key] = x == d ? nil : encode(x)
            },
            write: { $0.attributes[key] },
            apply: { n, v in
                guard let view = v as? V else { return }
                set(view, n.attributes[key].flatMap(decode) ?? d)
            },
            capture: { v, n in
                guard let view = v as? V else { return }
                let x = get(view)
                n.attributes[key] = x == d ? nil : encode(x)
            },
            same: { $0.attributes[key] == $1.attributes[key] },
            check: { n in
                guard n.attributes[key] != nil else { return nil }
                if let k = n.kind, kinds.contains(k) { return nil }
                let names = kinds.map(\.rawValue).sorted().map { "\"\($0)\"" }.joined(separator: " or ")
                return "\"\(key)\" needs \"kind\": \(names)"
            })
    }

    /// A boolean of controls or scroll views.
    static func kindFlag<V: View>(
        _ key: String, _ type: V.Type, kinds: Set<SceneViewKind>, default d: Bool, _ property: ReferenceWritableKeyPath<V, Bool>
    ) -> SceneAttribute {
        kindSpecific(
            key, type, kinds: kinds, default: d, "true or false",
            decode: { v in if case .bool(let b) = v { return b } else { return nil } },
            encode: { .bool($0) }, get: { $0[keyPath: property] }, set: { $0[keyPath: property] = $1 })
    }

    /// Numbers of a scroll view, each finite and within ±1e15.
    static func scrollNumbers<T: SceneNumbers>(_ key: String, default d: T, _ property: ReferenceWritableKeyPath<ScrollView, T>) -> SceneAttribute {
        let count = d.sceneNumbers.count
        return kindSpecific(
            key, ScrollView.self, kinds: [.scrollView], default: d, "an array of \(count) numbers within ±1e15",
            decode: { v in
                guard case .array(let items) = v, items.count == count else { return nil }
                var out: [Double] = []
                for item in items {
                    guard case .number(let x, _) = item, x.isFinite, abs(x) <= SceneLimits.coordinate else { return nil }
                    out.append(x)
                }
                return T(sceneNumbers: out)
            },
            encode: { .array($0.sceneNumbers.map { .number($0, text: "") }) },
            get: { $0[keyPath: property] }, set: { $0[keyPath: property] = $1 })
    }

    /// A scroll view's content offset: another name for the bounds origin (S1). Read into
    /// `bounds` (a file that gives both must give the same origin); saved as `bounds`.
    static var contentOffset: SceneAttribute {
        SceneAttribute(
            key: "contentOffset",
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .array(let items) = v, items.count == 2,
                    case .number(let x, _) = items[0], case .number(let y, _) = items[1], x.isFinite, y.isFinite
                else { throw SceneError(path: [], message: "\"contentOffset\" must be an array of 2 numbers, found \(v.brief)") }
                let offset = Point(x: x, y: y)
                if let b = n.bounds, b.origin != offset {
                    throw SceneError(path: [], message: "\"contentOffset\" \(offset) differs from the bounds origin \(b.origin) (they are the same thing)")
                }
                n.bounds = Rect(origin: offset, size: n.bounds?.size ?? n.frame.size)
            },
            write: { _ in nil }, apply: nil, capture: nil,
            same: { _, _ in true },
            check: { _ in nil })
    }

    /// A scroll view's deceleration rate per millisecond, in (0, 1).
    static var decelerationRate: SceneAttribute {
        kindSpecific(
            "decelerationRate", ScrollView.self, kinds: [.scrollView], default: ScrollView.DecelerationRate.normal.rawValue,
            "a number between 0 and 1 (exclusive)",
            decode: { v in
                guard case .number(let x, _) = v, x > 0, x < 1 else { return nil }
                return x
            },
            encode: { .number($0, text: "") },
            get: { $0.decelerationRate.rawValue }, set: { $0.decelerationRate = .init(rawValue: $1) })
    }
}

extension SceneAttributes {
    /// The keys of controls and scroll views, in the order views are built (after `bounds`).
    static var controlAndScrollKeys: [SceneAttribute] {
        let controls = SceneViewKind.controls
        return [
            .kind,
            .kindFlag("enabled", Control.self, kinds: controls, default: true, \.isEnabled),
            .kindFlag("selected", Control.self, kinds: controls, default: false, \.isSelected),
            .kindFlag("highlighted", Control.self, kinds: controls, default: false, \.isHighlighted),
            .contentOffset,
            .scrollNumbers("contentSize", default: Size.zero, \.contentSize),
            .scrollNumbers("contentInset", default: EdgeInsets.zero, \.contentInset),
            .kindFlag("scrollEnabled", ScrollView.self, kinds: [.scrollView], default: true, \.isScrollEnabled),
            .kindFlag("pagingEnabled", ScrollView.self, kinds: [.scrollView], default: false, \.isPagingEnabled),
            .kindFlag("bounces", ScrollView.self, kinds: [.scrollView], default: true, \.bounces),
            .kindFlag("alwaysBounceVertical", ScrollView.self, kinds: [.scrollView], default: false, \.alwaysBounceVertical),
            .kindFlag("alwaysBounceHorizontal", ScrollView.self, kinds: [.scrollView], default: false, \.alwaysBounceHorizontal),
            .decelerationRate,
            .kindFlag("delaysContentTouches", ScrollView.self, kinds: [.scrollView], default: true, \.delaysContentTouches),
            .kindFlag("canCancelContentTouches", ScrollView.self, kinds: [.scrollView], default: true, \.canCancelContentTouches),
        ]
    }
}

extension Size: SceneNumbers {
    /// `[width, height]`.
    public var sceneNumbers: [Double] { [width, height] }
    /// From `[width, height]`.
    public init(sceneNumbers v: [Double]) { self.init(width: v[0], height: v[1]) }
}
