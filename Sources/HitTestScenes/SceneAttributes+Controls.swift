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
            check: { _ in nil }
        ).described("kind", ["values": .array(SceneViewKind.allCases.map { .string($0.rawValue) })])
    }

    /// A property of views of some kinds, stored in `SceneNode.attributes`; on a node of
    /// another kind it is an error (a default value is not stored, so it is no error anywhere).
    /// `form` and `parameters` describe the value for `SceneAttribute.form` (the kinds, the
    /// default and `what` are added).
    static func kindSpecific<T: Equatable, V: View>(
        _ key: String, _ type: V.Type, kinds: Set<SceneViewKind>, default d: T, _ what: String,
        form: String, _ parameters: [String: SceneJSON] = [:],
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
            }
        ).described(
            form,
            parameters.merging(
                ["kinds": .array(kinds.map(\.rawValue).sorted().map { .string($0) }), "what": .string(what), "default": encode(d)],
                uniquingKeysWith: { $1 }))
    }

    /// A boolean of controls or scroll views.
    static func kindFlag<V: View>(
        _ key: String, _ type: V.Type, kinds: Set<SceneViewKind>, default d: Bool, _ property: ReferenceWritableKeyPath<V, Bool>
    ) -> SceneAttribute {
        kindSpecific(
            key, type, kinds: kinds, default: d, "true or false", form: "bool",
            decode: { v in if case .bool(let b) = v { return b } else { return nil } },
            encode: { .bool($0) }, get: { $0[keyPath: property] }, set: { $0[keyPath: property] = $1 })
    }

    /// Numbers of a scroll view, each finite and within ±1e15.
    static func scrollNumbers<T: SceneNumbers>(_ key: String, default d: T, _ property: ReferenceWritableKeyPath<ScrollView, T>) -> SceneAttribute {
        let count = d.sceneNumbers.count
        return kindSpecific(
            key, ScrollView.self, kinds: [.scrollView], default: d,
            "an array of \(count) numbers within ±\(SceneLimits.text(SceneLimits.coordinate))",
            form: "kindNumbers", ["count": .number(Double(count), text: ""), "limit": .number(SceneLimits.coordinate, text: "")],
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
                    case .number(let x, _) = items[0], case .number(let y, _) = items[1],
                    abs(x) <= SceneLimits.coordinate, abs(y) <= SceneLimits.coordinate
                else {
                    throw SceneError(
                        path: [], message: "\"contentOffset\" must be an array of 2 numbers within ±\(SceneLimits.text(SceneLimits.coordinate)), found \(v.brief)")
                }
                let offset = Point(x: x, y: y)
                if let b = n.bounds, b.origin != offset {
                    let shown = { (p: Point) in "[\(SceneJSON.format(p.x)), \(SceneJSON.format(p.y))]" }
                    throw SceneError(
                        path: [], message: "\"contentOffset\" \(shown(offset)) differs from the bounds origin \(shown(b.origin)) (they are the same thing)")
                }
                n.bounds = Rect(origin: offset, size: n.bounds?.size ?? n.frame.size)
            },
            write: { _ in nil }, apply: nil, capture: nil,
            same: { _, _ in true },
            check: { _ in nil }
        ).described("contentOffset")
    }

    /// A scroll view's deceleration rate per millisecond, in (0, `DecelerationRate.slowest`]
    /// (`DecelerationRate.isValid`: the rule of the setter).
    static var decelerationRate: SceneAttribute {
        let slowest = ScrollView.DecelerationRate.slowest.rawValue
        return kindSpecific(
            "decelerationRate", ScrollView.self, kinds: [.scrollView], default: ScrollView.DecelerationRate.normal.rawValue,
            "a number in (0, \(slowest)]", form: "rate", ["max": .number(slowest, text: "")],
            decode: { v in
                guard case .number(let x, _) = v, ScrollView.DecelerationRate(rawValue: x).isValid else { return nil }
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
            .recognizers,
        ]
    }
}

extension Size: SceneNumbers {
    /// `[width, height]`.
    public var sceneNumbers: [Double] { [width, height] }
    /// From `[width, height]`.
    public init(sceneNumbers v: [Double]) { self.init(width: v[0], height: v[1]) }
}

// MARK: - Gesture recognizers

/// The `"recognizers"` key: the view's gesture recognizers, each an object with `"type"`
/// (`tap`, `longPress`, `pan`, `swipe`, `pinch`, `rotation`) and, optionally, UIKit's property
/// names: `name`, `enabled`, `cancelsTouchesInView`, `delaysTouchesBegan`, `delaysTouchesEnded`
/// for every type, and per type `numberOfTapsRequired`, `numberOfTouchesRequired`,
/// `allowableMovement`, `maximumTapInterval` (tap); `minimumPressDuration`, `allowableMovement`,
/// `numberOfTapsRequired`, `numberOfTouchesRequired` (longPress); `minimumNumberOfTouches`,
/// `maximumNumberOfTouches`, `hysteresis` (pan); `direction` (an array of `right`, `left`,
/// `up`, `down`), `numberOfTouchesRequired`, `minimumDistance`, `maximumDuration` (swipe);
/// `scaleThreshold` (pinch); `rotationThreshold` (rotation). Absent values are the defaults.
/// Values UIKit cannot have are refused, naming the property and the range: counts of taps and
/// touches are integers from 1 (a long press's `numberOfTapsRequired` from 0) to 1,000,000
/// [ours: the cap], distances, durations and thresholds numbers from 0 to 1e15. A tap that
/// needs 0 taps would hold its touch forever; UIKit has none.
/// A scroll view's own pan and content-touch delay are not listed (the scroll view makes them).
enum SceneRecognizers {
    /// The keys every type takes.
    static var common: [(String, ReferenceWritableKeyPath<GestureRecognizer, Bool>)] {
        [
            ("enabled", \.isEnabled), ("cancelsTouchesInView", \.cancelsTouchesInView),
            ("delaysTouchesBegan", \.delaysTouchesBegan), ("delaysTouchesEnded", \.delaysTouchesEnded),
        ]
    }

    /// One type-specific key: an integer or a number within `range` (`direction` is the
    /// swipe's array of names and has no range).
    struct Key: Sendable {
        var name: String
        var isInteger: Bool
        var range: ClosedRange<Double>

        /// A count (of taps or touches) from `minimum` to the cap.
        static func count(_ name: String, from minimum: Double = 1) -> Key { Key(name: name, isInteger: true, range: minimum...maximumCount) }
        /// A distance, duration or threshold: 0 ... 1e15.
        static func amount(_ name: String) -> Key { Key(name: name, isInteger: false, range: 0...SceneLimits.coordinate) }
    }

    /// The largest count of taps or touches a scene file can ask for. [ours]
    static let maximumCount: Double = 1_000_000

    /// The type-specific keys of each type.
    static let specific: [String: [Key]] = [
        "tap": [.count("numberOfTapsRequired"), .count("numberOfTouchesRequired"), .amount("allowableMovement"), .amount("maximumTapInterval")],
        "longPress": [.amount("minimumPressDuration"), .amount("allowableMovement"), .count("numberOfTapsRequired", from: 0), .count("numberOfTouchesRequired")],
        "pan": [.count("minimumNumberOfTouches"), .count("maximumNumberOfTouches"), .amount("hysteresis")],
        "swipe": [Key(name: "direction", isInteger: false, range: 0...0), .count("numberOfTouchesRequired"), .amount("minimumDistance"), .amount("maximumDuration")],
        "pinch": [.amount("scaleThreshold")],
        "rotation": [.amount("rotationThreshold")],
    ]

    static let directions: [(String, SwipeGestureRecognizer.Direction)] = [("right", .right), ("left", .left), ("up", .up), ("down", .down)]

    /// Checks one recognizer object; a message when it is wrong. Members are checked in the
    /// order of their keys (sorted), so the first problem named is the same every run (and in
    /// the Python loader).
    static func problem(_ v: SceneJSON) -> String? {
        guard case .object(let members) = v else { return "each recognizer must be an object, found \(v.brief)" }
        guard case .string(let type)? = members["type"], let keys = specific[type] else {
            let found = members["type"].map { ", found \($0.brief)" } ?? " (it has none)"
            return "a recognizer's \"type\" must be one of \(specific.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))\(found)"
        }
        for key in members.keys.sorted() where key != "type" {
            let value = members[key]!
            if key == "name" {
                guard case .string = value else { return "recognizer \"name\" must be a string, found \(value.brief)" }
                continue
            }
            if common.contains(where: { $0.0 == key }) {
                guard case .bool = value else { return "recognizer \"\(key)\" must be true or false, found \(value.brief)" }
                continue
            }
            guard let spec = keys.first(where: { $0.name == key }) else { return "unknown key \"\(key)\" for a \(type) recognizer" }
            if key == "direction" {
                guard case .array(let items) = value, !items.isEmpty,
                    items.allSatisfy({ if case .string(let s) = $0 { directions.contains { $0.0 == s } } else { false } })
                else { return "swipe \"direction\" must be a non-empty array of \"right\", \"left\", \"up\", \"down\", found \(value.brief)" }
                continue
            }
            let low = SceneLimits.text(spec.range.lowerBound), high = SceneLimits.text(spec.range.upperBound)
            if spec.isInteger {
                guard case .number(let x, let text) = value, Int(text) != nil, spec.range.contains(x) else {
                    return "recognizer \"\(key)\" must be an integer from \(low) to \(Int(spec.range.upperBound)), found \(value.brief)"
                }
            } else {
                guard case .number(let x, _) = value, spec.range.contains(x) else {
                    return "recognizer \"\(key)\" must be a number from \(low) to \(high), found \(value.brief)"
                }
            }
        }
        return nil
    }

    /// The recognizer rules as data, for `SceneKeyTable`: the common keys, the directions, and
    /// per type its keys with their ranges.
    static var table: SceneJSON {
        func n(_ d: Double) -> SceneJSON { .number(d, text: "") }
        var types: [String: SceneJSON] = [:]
        for (type, keys) in specific {
            types[type] = .array(keys.map { k in
                k.name == "direction"
                    ? .object(["key": .string(k.name), "form": .string("directions")])
                    : .object(["key": .string(k.name), "form": .string(k.isInteger ? "count" : "amount"), "min": n(k.range.lowerBound), "max": n(k.range.upperBound)])
            })
        }
        return .object([
            "common": .array(common.map { .string($0.0) }),
            "directions": .array(directions.map { .string($0.0) }),
            "types": .object(types),
        ])
    }

    static func number(_ members: [String: SceneJSON], _ key: String) -> Double? {
        if case .number(let x, _)? = members[key] { return x }
        return nil
    }

    /// A recognizer from a checked object.
    static func make(_ v: SceneJSON) -> GestureRecognizer? {
        guard case .object(let m) = v, case .string(let type)? = m["type"] else { return nil }
        let int = { (k: String) in number(m, k).map { Int($0) } }
        let g: GestureRecognizer
        switch type {
        case "tap":
            let t = TapGestureRecognizer()
            if let x = int("numberOfTapsRequired") { t.numberOfTapsRequired = x }
            if let x = int("numberOfTouchesRequired") { t.numberOfTouchesRequired = x }
            if let x = number(m, "allowableMovement") { t.allowableMovement = x }
            if let x = number(m, "maximumTapInterval") { t.maximumTapInterval = x }
            g = t
        case "longPress":
            let t = LongPressGestureRecognizer()
            if let x = number(m, "minimumPressDuration") { t.minimumPressDuration = x }
            if let x = number(m, "allowableMovement") { t.allowableMovement = x }
            if let x = int("numberOfTapsRequired") { t.numberOfTapsRequired = x }
            if let x = int("numberOfTouchesRequired") { t.numberOfTouchesRequired = x }
            g = t
        case "pan":
            let t = PanGestureRecognizer()
            if let x = int("minimumNumberOfTouches") { t.minimumNumberOfTouches = x }
            if let x = int("maximumNumberOfTouches") { t.maximumNumberOfTouches = x }
            if let x = number(m, "hysteresis") { t.hysteresis = x }
            g = t
        case "swipe":
            let t = SwipeGestureRecognizer()
            if case .array(let items)? = m["direction"] {
                var d: SwipeGestureRecognizer.Direction = []
                for case .string(let s) in items { if let e = directions.first(where: { $0.0 == s }) { d.insert(e.1) } }
                t.direction = d
            }
            if let x = int("numberOfTouchesRequired") { t.numberOfTouchesRequired = x }
            if let x = number(m, "minimumDistance") { t.minimumDistance = x }
            if let x = number(m, "maximumDuration") { t.maximumDuration = x }
            g = t
        case "pinch":
            let t = PinchGestureRecognizer()
            if let x = number(m, "scaleThreshold") { t.scaleThreshold = x }
            g = t
        case "rotation":
            let t = RotationGestureRecognizer()
            if let x = number(m, "rotationThreshold") { t.rotationThreshold = x }
            g = t
        default:
            return nil
        }
        if case .string(let name)? = m["name"] { g.name = name }
        for (key, path) in common { if case .bool(let b)? = m[key] { g[keyPath: path] = b } }
        return g
    }

    /// The object of a recognizer of one of the six types (exactly), non-default values only.
    static func capture(_ g: GestureRecognizer) -> SceneJSON? {
        var m: [String: SceneJSON] = [:]
        func int(_ k: String, _ x: Int, _ d: Int) { if x != d { m[k] = .number(Double(x), text: String(x)) } }
        func num(_ k: String, _ x: Double, _ d: Double) { if x != d { m[k] = .number(x, text: SceneJSON.format(x)) } }
        switch g {
        case let t as TapGestureRecognizer where type(of: g) == TapGestureRecognizer.self:
            m["type"] = .string("tap")
            int("numberOfTapsRequired", t.numberOfTapsRequired, 1)
            int("numberOfTouchesRequired", t.numberOfTouchesRequired, 1)
            num("allowableMovement", t.allowableMovement, TapGestureRecognizer.defaultAllowableMovement)
            num("maximumTapInterval", t.maximumTapInterval, TapGestureRecognizer.defaultMaximumTapInterval)
        case let t as LongPressGestureRecognizer where type(of: g) == LongPressGestureRecognizer.self:
            m["type"] = .string("longPress")
            num("minimumPressDuration", t.minimumPressDuration, 0.5)
            num("allowableMovement", t.allowableMovement, 10)
            int("numberOfTapsRequired", t.numberOfTapsRequired, 0)
            int("numberOfTouchesRequired", t.numberOfTouchesRequired, 1)
        case let t as PanGestureRecognizer where type(of: g) == PanGestureRecognizer.self:
            m["type"] = .string("pan")
            int("minimumNumberOfTouches", t.minimumNumberOfTouches, 1)
            if t.maximumNumberOfTouches != Int.max { int("maximumNumberOfTouches", t.maximumNumberOfTouches, Int.max) }
            num("hysteresis", t.hysteresis, PanGestureRecognizer.defaultHysteresis)
        case let t as SwipeGestureRecognizer where type(of: g) == SwipeGestureRecognizer.self:
            m["type"] = .string("swipe")
            if t.direction != .right {
                m["direction"] = .array(directions.filter { t.direction.contains($0.1) }.map { .string($0.0) })
            }
            int("numberOfTouchesRequired", t.numberOfTouchesRequired, 1)
            num("minimumDistance", t.minimumDistance, 50)
            num("maximumDuration", t.maximumDuration, 0.5)
        case let t as PinchGestureRecognizer where type(of: g) == PinchGestureRecognizer.self:
            m["type"] = .string("pinch")
            num("scaleThreshold", t.scaleThreshold, PinchGestureRecognizer.defaultScaleThreshold)
        case let t as RotationGestureRecognizer where type(of: g) == RotationGestureRecognizer.self:
            m["type"] = .string("rotation")
            num("rotationThreshold", t.rotationThreshold, RotationGestureRecognizer.defaultRotationThreshold)
        default:
            return nil
        }
        if let name = g.name { m["name"] = .string(name) }
        let defaults = [true, true, false, true]
        for ((key, path), d) in zip(common, defaults) where g[keyPath: path] != d { m[key] = .bool(g[keyPath: path]) }
        return .object(m)
    }
}

extension SceneAttribute {
    /// The view's gesture recognizers (`SceneRecognizers`).
    static var recognizers: SceneAttribute {
        SceneAttribute(
            key: "recognizers",
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .array(let items) = v else {
                    throw SceneError(path: [], message: "\"recognizers\" must be an array of objects, found \(v.brief)")
                }
                for item in items {
                    if let p = SceneRecognizers.problem(item) { throw SceneError(path: [], message: "\"recognizers\": \(p)") }
                }
                n.attributes["recognizers"] = items.isEmpty ? nil : v
            },
            write: { $0.attributes["recognizers"] },
            apply: { n, v in
                guard case .array(let items)? = n.attributes["recognizers"] else { return }
                for item in items { if let g = SceneRecognizers.make(item) { v.addGestureRecognizer(g) } }
            },
            capture: { v, n in
                let items = (v.gestureRecognizers ?? []).compactMap(SceneRecognizers.capture)
                n.attributes["recognizers"] = items.isEmpty ? nil : .array(items)
            },
            same: { $0.attributes["recognizers"] == $1.attributes["recognizers"] },
            check: { _ in nil }
        ).described("recognizers")
    }
}
