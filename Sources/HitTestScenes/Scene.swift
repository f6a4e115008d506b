import Foundation
import HitTestKit

/// HitTestKit's transform, not Foundation's (both are in scope here).
typealias AffineTransform = HitTestKit.AffineTransform

/// One view of a scene file (SCENE_FORMAT.md): the view's properties as set, and its children
/// in subview order (the last is on top). Every attribute is one entry of `SceneAttributes.all`
/// (key, JSON form, default, the view property it sets): loading, saving, building views,
/// capturing views, equality and the range checks all read that table. Deep trees are safe:
/// copying, comparing, hashing and releasing a node never recurse per level.
public struct SceneNode: Sendable, Hashable, Codable {
    /// How queries and results name the view; unique in a file.
    public var id: String
    /// What the view was (e.g. `UIButton`); kept, not interpreted by hit testing (the audit reads it).
    public var className: String?
    /// The frame as set before any transform: it fixes `center` and the bounds size.
    public var frame: Rect
    /// The bounds, when its origin is not zero or its size differs from the frame's.
    public var bounds: Rect?
    /// The transform, applied about the anchor point.
    public var transform: HitTestKit.AffineTransform = .identity
    /// The anchor point in unit coordinates.
    public var anchorPoint = Point(x: 0.5, y: 0.5)
    /// `isHidden`.
    public var hidden = false
    /// `alpha`.
    public var alpha: Double = 1
    /// `isUserInteractionEnabled`.
    public var interactive = true
    /// `clipsToBounds` (kept; plays no part in hit testing).
    public var clipsToBounds = false
    /// `tag`.
    public var tag = 0
    /// `hitTestInsets`.
    public var hitTestInsets = EdgeInsets.zero
    /// `passesTouchesThrough`.
    public var passesTouchesThrough = false
    /// `capturesSubviewTouches`.
    public var capturesSubviewTouches = false
    /// `allowsSubviewHitsOutsideBounds`.
    public var allowsSubviewHitsOutsideBounds = false
    /// `hitTestPriority`.
    public var hitTestPriority = 0
    /// The dump listed gesture recognizers on the view (kept for the audit: such a view is
    /// interactive whatever its class).
    public var hasGestureRecognizers = false
    /// The values of table attributes declared without a typed property (`SceneAttribute.view`),
    /// by key; a default value is absent.
    public var attributes: [String: SceneJSON] = [:]
    /// Held in a box that releases deep subtrees without recursion.
    fileprivate var childBox = SceneChildren([])

    /// The subviews, back to front.
    public var children: [SceneNode] {
        get { childBox.items }
        set { childBox = SceneChildren(newValue) }
        _modify {
            if !isKnownUniquelyReferenced(&childBox) { childBox = SceneChildren(childBox.items) }
            yield &childBox.items
        }
    }

    /// A node with defaults for everything but its id and frame.
    public init(id: String, className: String? = nil, frame: Rect, children: [SceneNode] = []) {
        self.id = id
        self.className = className
        self.frame = frame
        self.children = children
    }

    /// Equal attributes (every entry of the table) and equal children, compared without recursion.
    public static func == (lhs: SceneNode, rhs: SceneNode) -> Bool {
        let table = SceneAttributes.all
        var stack = [(lhs, rhs)]
        while let (a, b) = stack.popLast() {
            guard a.children.count == b.children.count, table.allSatisfy({ $0.same(a, b) }) else { return false }
            stack.append(contentsOf: zip(a.children, b.children))
        }
        return true
    }

    /// Hashes the ids, frames and shape of the subtree, without recursion.
    public func hash(into hasher: inout Hasher) {
        var stack = [self]
        while let n = stack.popLast() {
            hasher.combine(n.id)
            hasher.combine(n.frame)
            hasher.combine(n.children.count)
            stack.append(contentsOf: n.children)
        }
    }

    /// Decodes a node from any `Decoder` through the attribute table (strict, as `SceneFile(json:)`).
    /// Generic decoders recurse per level; `SceneFile(json:)` does not and is what files should use.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        let name = decoder.codingPath.last.map { $0.intValue.map { "children[\($0)]" } ?? $0.stringValue } ?? "root"
        var fields: [(String, SceneJSON)] = []
        for key in c.allKeys where key.stringValue != "children" {
            guard let v = try? c.decode(SceneJSON.self, forKey: key) else {
                throw SceneError(path: [name], message: "\"\(key.stringValue)\" is not a JSON value")
            }
            fields.append((key.stringValue, v))
        }
        self = try SceneAttributes.node(from: fields, name: name)
        if c.contains(SceneKey("children")) {
            do {
                children = try c.decode([SceneNode].self, forKey: SceneKey("children"))
            } catch let error as SceneError {
                throw SceneError(path: [id] + error.path, message: error.message)
            } catch {
                throw SceneError(path: [id], message: "\"children\" must be an array of nodes")
            }
        }
    }

    /// Encodes the node through the attribute table, leaving out every default value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        for (key, v) in SceneAttributes.members(of: self) { try c.encode(v, forKey: SceneKey(key)) }
        if !children.isEmpty { try c.encode(children, forKey: SceneKey("children")) }
    }
}

/// The children of a node, in a class so that a deep subtree is released without recursion.
final class SceneChildren: @unchecked Sendable {
    // @unchecked: `items` is only mutated through `SceneNode.children`'s copy-on-write accessor.
    var items: [SceneNode]

    init(_ items: [SceneNode]) { self.items = items }

    deinit {
        var pending = items
        items = []
        while var n = pending.popLast() {
            if isKnownUniquelyReferenced(&n.childBox) {
                pending.append(contentsOf: n.childBox.items)
                n.childBox.items = []
            }
        }
    }
}

/// The ranges a scene file's numbers must lie in, so that every view's frame arithmetic stays
/// finite and the tool never converts an out-of-range number. [ours]
public enum SceneLimits {
    /// |x| for frame and bounds origins and sizes, hitTestInsets and a transform's tx, ty (pt).
    public static let coordinate = 1e15
    /// |a| for an anchorPoint component (unit coordinates; UIKit's are usually 0...1).
    public static let anchor = 1e6
    /// |a|, |b|, |c|, |d| of a transform.
    public static let scale = 1e6

    /// A limit as messages print it: a power of ten from 1e6 up as `1e6`, other whole numbers
    /// in digits, anything else in Swift's shortest form (the Python loader prints the same).
    static func text(_ d: Double) -> String {
        let sign = d < 0 ? "-" : ""
        let m = abs(d)
        if m >= 1e6, m.isFinite {
            let e = Int(log10(m).rounded())
            if pow(10, Double(e)) == m { return "\(sign)1e\(e)" }
        }
        return SceneJSON.format(d)
    }
}

/// One attribute of a scene node: its key, how it reads and writes as JSON, how it sets and
/// reads a view, and its range check. `SceneAttributes.all` lists them all.
public struct SceneAttribute {
    /// The JSON key.
    public let key: String
    /// Reads the JSON value into the node (type and count errors; a message without a path).
    let read: (inout SceneNode, SceneJSON) throws(SceneError) -> Void
    /// The JSON value, nil when it has its default (left out of files).
    let write: (SceneNode) -> SceneJSON?
    /// Sets the view's property from the node (nil: not a view property).
    let apply: ((SceneNode, View) -> Void)?
    /// Sets the node's value from the view (nil: not read from views).
    let capture: ((View, inout SceneNode) -> Void)?
    /// Whether two nodes have the same value.
    let same: (SceneNode, SceneNode) -> Bool
    /// A message when the node's value is out of range.
    let check: (SceneNode) -> String?
    /// What the key holds, for the scene loader in another language: a JSON object with
    /// `"form"` (`bool`, `integer`, `numbers`, …) and that form's parameters. The Python
    /// package's key table (python/src/hittest/scene_keys.json) is `SceneKeyTable.json`, and a
    /// test keeps the two equal; the shared corpus (Tests/Fixtures/scene-contract) checks that
    /// both loaders read every form alike.
    var form: SceneJSON = .null

    /// Whether a node must have the key (`"required": true` in its form: the frame).
    var isRequired: Bool {
        if case .object(let o) = form, case .bool(true)? = o["required"] { return true }
        return false
    }

    /// The same attribute described as `form` (with its parameters).
    func described(_ form: String, _ parameters: [String: SceneJSON] = [:]) -> SceneAttribute {
        var a = self
        var o = parameters
        o["form"] = .string(form)
        a.form = .object(o)
        return a
    }
}

/// The key table: one entry per attribute, in the order views are built (anchorPoint before
/// frame, frame before bounds and transform). A new attribute is one line here (plus its stored
/// property in `SceneNode`).
public enum SceneAttributes {
    /// Every attribute of a node (not `children`).
    public static var all: [SceneAttribute] {
        [
            .id,
            .optionalString("class", \.className),
            .numbers("anchorPoint", \.anchorPoint, \View.anchorPoint, default: Point(x: 0.5, y: 0.5), limit: SceneLimits.anchor),
            .frame,
            .bounds,
            .view("autoresizingMask", \View.autoresizingMask, default: []),
            .view("autoresizesSubviews", \View.autoresizesSubviews, default: true),
            // MARK: Layout keys (SceneLayout.swift)
            .layoutMargins.described("insets"), .safeAreaInsets.described("insets"), .constraints.described("constraints"),
            .numbers("transform", \.transform, \View.transform, default: .identity, limits: [SceneLimits.scale, SceneLimits.scale, SceneLimits.scale, SceneLimits.scale, SceneLimits.coordinate, SceneLimits.coordinate]),
            .flag("hidden", \.hidden, \View.isHidden, default: false),
            .number("alpha", \.alpha, \View.alpha, default: 1),
            .flag("interactive", \.interactive, \View.isUserInteractionEnabled, default: true),
            .flag("clipsToBounds", \.clipsToBounds, \View.clipsToBounds, default: false),
            .integer("tag", \.tag, \View.tag),
            .numbers("hitTestInsets", \.hitTestInsets, \View.hitTestInsets, default: .zero, limit: SceneLimits.coordinate),
            .flag("passesTouchesThrough", \.passesTouchesThrough, \View.passesTouchesThrough, default: false),
            .flag("capturesSubviewTouches", \.capturesSubviewTouches, \View.capturesSubviewTouches, default: false),
            .flag("allowsSubviewHitsOutsideBounds", \.allowsSubviewHitsOutsideBounds, \View.allowsSubviewHitsOutsideBounds, default: false),
            .integer("hitTestPriority", \.hitTestPriority, \View.hitTestPriority),
            .fileFlag("gestureRecognizers", \.hasGestureRecognizers),
        ] + controlAndScrollKeys  // MARK: controls and scroll views (SceneAttributes+Controls.swift)
    }

    /// A node from its members (not `children`), strictly: the id first, then unknown keys,
    /// then each attribute's type. `name` names the node when it has no id.
    static func node(from fields: [(String, SceneJSON)], name: String, table: [SceneAttribute] = all) throws(SceneError) -> SceneNode {
        var node = SceneNode(id: "", frame: .zero)
        guard let idValue = fields.first(where: { $0.0 == "id" })?.1 else { throw SceneError(path: [name], message: "missing \"id\"") }
        guard case .string(let id) = idValue, !id.isEmpty else { throw SceneError(path: [name], message: "\"id\" must be a non-empty string") }
        node.id = id
        var seen = Set<String>()
        for (key, value) in fields {
            if key == "children" {
                // The reader takes the first array itself; a second one, or anything else, lands here.
                if case .array = value { throw SceneError(path: [id], message: "key \"children\" appears twice") }
                throw SceneError(path: [id], message: "\"children\" must be an array of nodes, found \(value.brief)")
            }
            guard table.contains(where: { $0.key == key }) else { throw SceneError(path: [id], message: "unknown key \"\(key)\"") }
            guard seen.insert(key).inserted else { throw SceneError(path: [id], message: "key \"\(key)\" appears twice") }
        }
        for attribute in table {
            guard let (_, v) = fields.first(where: { $0.0 == attribute.key }) else {
                if attribute.isRequired { throw SceneError(path: [id], message: "missing \"\(attribute.key)\"") }
                continue
            }
            do { try attribute.read(&node, v) } catch { throw SceneError(path: [id], message: error.message) }
        }
        return node
    }

    /// The node's members with non-default values, in table order.
    static func members(of node: SceneNode, table: [SceneAttribute] = all) -> [(String, SceneJSON)] {
        table.compactMap { a in a.write(node).map { (a.key, $0) } }
    }

    /// The first out-of-range value of the node, if any.
    static func rangeProblem(_ node: SceneNode, table: [SceneAttribute] = all) -> String? {
        for a in table { if let m = a.check(node) { return m } }
        return nil
    }
}

/// Reading JSON values for the table's entries.
private func fail(_ message: String) -> SceneError { SceneError(path: [], message: message) }

/// The `numbers` form's parameters: each number's limit, what the range message calls them.
private func numbersForm(_ limits: [Double], _ what: String, required: Bool = false) -> [String: SceneJSON] {
    var o: [String: SceneJSON] = ["limits": .array(limits.map { .number($0, text: "") }), "what": .string(what)]
    if required { o["required"] = .bool(true) }
    return o
}

private func readNumbers(_ v: SceneJSON, _ key: String, _ count: Int) throws(SceneError) -> [Double] {
    guard case .array(let items) = v else { throw fail("\"\(key)\" must be an array of \(count) numbers, found \(v.brief)") }
    var out: [Double] = []
    for item in items {
        guard case .number(let d, _) = item else {
            throw fail("\"\(key)\" must be an array of \(count) numbers, found \(item.brief) in it")
        }
        guard d.isFinite else { throw fail("\"\(key)\": \(item.brief) is out of range (the largest number a scene file can hold is about 1.8e308; coordinates must be within ±1e15)") }
        out.append(d)
    }
    guard out.count == count else { throw fail("\"\(key)\" must have \(count) numbers, found \(out.count)") }
    return out
}

private func outOfRange(_ key: String, _ values: [Double], _ limits: [Double], _ what: String) -> String? {
    for (v, limit) in zip(values, limits) where !(abs(v) <= limit) {
        return "\"\(key)\": \(v) is out of range: \(what) must be within ±\(SceneLimits.text(limit)) (see the scene format's limits)"
    }
    return nil
}

/// A value a `SceneAttribute.view` entry can hold: its JSON form both ways.
public protocol SceneValue: Equatable {
    /// From the file's value; nil when it has the wrong type.
    init?(sceneJSON: SceneJSON)
    /// The file's value.
    var sceneJSON: SceneJSON { get }
    /// What the file must hold, for messages ("true or false").
    static var sceneDescription: String { get }
}

extension Bool: SceneValue {
    /// From `true` or `false`.
    public init?(sceneJSON: SceneJSON) {
        guard case .bool(let b) = sceneJSON else { return nil }
        self = b
    }
    /// `true` or `false`.
    public var sceneJSON: SceneJSON { .bool(self) }
    /// "true or false".
    public static var sceneDescription: String { "true or false" }
}

extension Int: SceneValue {
    /// From an integer.
    public init?(sceneJSON: SceneJSON) {
        guard case .number(_, let text) = sceneJSON, let i = Int(text) else { return nil }
        self = i
    }
    /// The integer.
    public var sceneJSON: SceneJSON { .number(Double(self), text: String(self)) }
    /// "an integer".
    public static var sceneDescription: String { "an integer" }
}

extension Double: SceneValue {
    /// From a finite number.
    public init?(sceneJSON: SceneJSON) {
        guard case .number(let d, _) = sceneJSON, d.isFinite, abs(d) <= SceneLimits.coordinate else { return nil }
        self = d
    }
    /// The number.
    public var sceneJSON: SceneJSON { .number(self, text: "") }
    /// "a number within ±1e15".
    public static var sceneDescription: String { "a number within ±1e15" }
}

/// Values that are written as fixed-length arrays of numbers.
public protocol SceneNumbers: Equatable {
    /// The numbers, in file order.
    var sceneNumbers: [Double] { get }
    /// From exactly as many numbers as `sceneNumbers` has.
    init(sceneNumbers v: [Double])
}

extension Point: SceneNumbers {
    /// `[x, y]`.
    public var sceneNumbers: [Double] { [x, y] }
    /// From `[x, y]`.
    public init(sceneNumbers v: [Double]) { self.init(x: v[0], y: v[1]) }
}

extension Rect: SceneNumbers {
    /// `[x, y, width, height]`.
    public var sceneNumbers: [Double] { [minX, minY, width, height] }
    /// From `[x, y, width, height]`.
    public init(sceneNumbers v: [Double]) { self.init(x: v[0], y: v[1], width: v[2], height: v[3]) }
}

extension EdgeInsets: SceneNumbers {
    /// `[top, left, bottom, right]`.
    public var sceneNumbers: [Double] { [top, left, bottom, right] }
    /// From `[top, left, bottom, right]`.
    public init(sceneNumbers v: [Double]) { self.init(top: v[0], left: v[1], bottom: v[2], right: v[3]) }
}

extension HitTestKit.AffineTransform: SceneNumbers {
    /// `[a, b, c, d, tx, ty]`.
    public var sceneNumbers: [Double] { [a, b, c, d, tx, ty] }
    /// From `[a, b, c, d, tx, ty]`.
    public init(sceneNumbers v: [Double]) { self.init(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]) }
}

extension SceneAttribute {
    /// A boolean view property.
    static func flag(_ key: String, _ node: WritableKeyPath<SceneNode, Bool>, _ view: ReferenceWritableKeyPath<View, Bool>, default d: Bool) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .bool(let b) = v else { throw fail("\"\(key)\" must be true or false, found \(v.brief)") }
                n[keyPath: node] = b
            },
            write: { $0[keyPath: node] == d ? nil : .bool($0[keyPath: node]) },
            apply: { $1[keyPath: view] = $0[keyPath: node] },
            capture: { $1[keyPath: node] = $0[keyPath: view] },
            same: { $0[keyPath: node] == $1[keyPath: node] },
            check: { _ in nil }
        ).described("bool")
    }

    /// A view property stored in `SceneNode.attributes` under its key: a new view property is
    /// this one line in `SceneAttributes.all`, e.g.
    /// `.view("autoresizingMask", \View.autoresizingMask, default: [])`.
    static func view<T: SceneValue>(_ key: String, _ view: ReferenceWritableKeyPath<View, T>, default d: T) -> SceneAttribute {
        // Bool's message is the flags' ("must be true or false, found …"); a value type of
        // another kind needs its form in the Python loader first (its import fails until then).
        stored(key, view, default: d, T.sceneDescription, decode: T.init(sceneJSON:), encode: \.sceneJSON)
            .described(T.self == Bool.self ? "bool" : "value:\(T.self)")
    }

    /// `view` for an option set (`UIViewAutoresizing`-like), written as its raw integer.
    static func view<T: OptionSet>(_ key: String, _ view: ReferenceWritableKeyPath<View, T>, default d: T) -> SceneAttribute
    where T.RawValue: FixedWidthInteger {
        stored(
            key, view, default: d, "an integer (the option set's raw value)",
            decode: { v in
                guard case .number(_, let text) = v, let raw = T.RawValue(text) else { return nil }
                return T(rawValue: raw)
            },
            encode: { .number(Double($0.rawValue), text: String($0.rawValue)) }
        ).described("rawOptions", ["bits": .number(Double(T.RawValue.bitWidth), text: ""), "signed": .bool(T.RawValue.isSigned)])
    }

    private static func stored<T: Equatable>(
        _ key: String, _ view: ReferenceWritableKeyPath<View, T>, default d: T, _ what: String,
        decode: @escaping (SceneJSON) -> T?, encode: @escaping (T) -> SceneJSON
    ) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard let x = decode(v) else { throw fail("\"\(key)\" must be \(what), found \(v.brief)") }
                n.attributes[key] = x == d ? nil : encode(x)
            },
            write: { $0.attributes[key] },
            apply: { n, v in v[keyPath: view] = n.attributes[key].flatMap(decode) ?? d },
            capture: { v, n in
                let x = v[keyPath: view]
                n.attributes[key] = x == d ? nil : encode(x)
            },
            same: { $0.attributes[key] == $1.attributes[key] },
            check: { _ in nil })
    }

    /// A boolean kept in the file only (default false).
    static func fileFlag(_ key: String, _ node: WritableKeyPath<SceneNode, Bool>) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .bool(let b) = v else { throw fail("\"\(key)\" must be true or false, found \(v.brief)") }
                n[keyPath: node] = b
            },
            write: { $0[keyPath: node] ? .bool(true) : nil },
            apply: nil, capture: nil,
            same: { $0[keyPath: node] == $1[keyPath: node] },
            check: { _ in nil }
        ).described("bool")
    }

    /// An integer view property (default 0): written without a fraction or an exponent, within
    /// `Int`'s 64 bits (`1e30` and `1.0` are refused, as is an integer of 400 digits).
    static func integer(_ key: String, _ node: WritableKeyPath<SceneNode, Int>, _ view: ReferenceWritableKeyPath<View, Int>) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .number(_, let text) = v, let i = Int(text) else {
                    throw fail("\"\(key)\" must be an integer from \(Int.min) to \(Int.max), found \(v.brief)")
                }
                n[keyPath: node] = i
            },
            write: { $0[keyPath: node] == 0 ? nil : .number(Double($0[keyPath: node]), text: String($0[keyPath: node])) },
            apply: { $1[keyPath: view] = $0[keyPath: node] },
            capture: { $1[keyPath: node] = $0[keyPath: view] },
            same: { $0[keyPath: node] == $1[keyPath: node] },
            check: { _ in nil }
        ).described("integer", ["bits": .number(Double(Int.bitWidth), text: "")])
    }

    /// A finite number view property (any finite value: UIKit accepts any alpha).
    static func number(_ key: String, _ node: WritableKeyPath<SceneNode, Double>, _ view: ReferenceWritableKeyPath<View, Double>, default d: Double) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .number(let x, _) = v else { throw fail("\"\(key)\" must be a number, found \(v.brief)") }
                guard x.isFinite else { throw fail("\"\(key)\": \(v.brief) is out of range (the largest number a scene file can hold is about 1.8e308)") }
                n[keyPath: node] = x
            },
            write: { $0[keyPath: node] == d ? nil : .number($0[keyPath: node], text: "") },
            apply: { $1[keyPath: view] = $0[keyPath: node] },
            capture: { $1[keyPath: node] = $0[keyPath: view] },
            same: { $0[keyPath: node] == $1[keyPath: node] },
            check: { $0[keyPath: node].isFinite ? nil : "\"\(key)\" is not finite" }
        ).described("number")
    }

    /// A view property written as a fixed array of numbers, each within its limit.
    static func numbers<T: SceneNumbers>(
        _ key: String, _ node: WritableKeyPath<SceneNode, T>, _ view: ReferenceWritableKeyPath<View, T>, default d: T, limits: [Double]
    ) -> SceneAttribute {
        let count = limits.count
        return SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in n[keyPath: node] = T(sceneNumbers: try readNumbers(v, key, count)) },
            write: { $0[keyPath: node] == d ? nil : .array($0[keyPath: node].sceneNumbers.map { .number($0, text: "") }) },
            apply: { $1[keyPath: view] = $0[keyPath: node] },
            capture: { $1[keyPath: node] = $0[keyPath: view] },
            same: { $0[keyPath: node] == $1[keyPath: node] },
            check: { outOfRange(key, $0[keyPath: node].sceneNumbers, limits, "each number") }
        ).described("numbers", numbersForm(limits, "each number"))
    }

    /// `numbers` with one limit for every component.
    static func numbers<T: SceneNumbers>(
        _ key: String, _ node: WritableKeyPath<SceneNode, T>, _ view: ReferenceWritableKeyPath<View, T>, default d: T, limit: Double
    ) -> SceneAttribute {
        numbers(key, node, view, default: d, limits: Array(repeating: limit, count: d.sceneNumbers.count))
    }

    /// A string kept in the file only.
    static func optionalString(_ key: String, _ node: WritableKeyPath<SceneNode, String?>) -> SceneAttribute {
        SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .string(let s) = v else { throw fail("\"\(key)\" must be a string, found \(v.brief)") }
                n[keyPath: node] = s
            },
            write: { $0[keyPath: node].map { .string($0) } },
            apply: nil, capture: nil,
            same: { $0[keyPath: node] == $1[keyPath: node] },
            check: { _ in nil }
        ).described("string")
    }

    /// The id (read by `SceneAttributes.node` itself; ids of captured views are made unique there).
    static var id: SceneAttribute {
        SceneAttribute(
        key: "id",
        read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
            guard case .string(let s) = v, !s.isEmpty else { throw fail("\"id\" must be a non-empty string") }
            n.id = s
        },
        write: { .string($0.id) },
        apply: { $1.accessibilityIdentifier = $0.id },
        capture: nil,
        same: { $0.id == $1.id },
        check: { $0.id.isEmpty ? "\"id\" must be a non-empty string" : nil }
        ).described("id")
    }

    /// The frame as set before the transform (required).
    static var frame: SceneAttribute {
        SceneAttribute(
        key: "frame",
        read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in n.frame = Rect(sceneNumbers: try readNumbers(v, "frame", 4)) },
        write: { .array($0.frame.sceneNumbers.map { .number($0, text: "") }) },
        apply: { $1.frame = $0.frame },
        capture: { v, n in
            let size = v.bounds.size
            n.frame = Rect(
                x: v.center.x - v.anchorPoint.x * size.width, y: v.center.y - v.anchorPoint.y * size.height,
                width: size.width, height: size.height)
        },
        same: { $0.frame == $1.frame },
        check: { outOfRange("frame", $0.frame.sceneNumbers, Array(repeating: SceneLimits.coordinate, count: 4), "coordinates") }
        ).described("numbers", numbersForm(Array(repeating: SceneLimits.coordinate, count: 4), "coordinates", required: true))
    }

    /// The bounds, when not `[0, 0, frame size]`.
    static var bounds: SceneAttribute {
        SceneAttribute(
        key: "bounds",
        read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in n.bounds = Rect(sceneNumbers: try readNumbers(v, "bounds", 4)) },
        write: { n in n.bounds.map { .array($0.sceneNumbers.map { .number($0, text: "") }) } },
        apply: { n, v in if let b = n.bounds { v.bounds = b } },
        capture: { v, n in n.bounds = v.bounds.origin != .zero ? v.bounds : nil },
        same: { $0.bounds == $1.bounds },
        check: { n in n.bounds.flatMap { outOfRange("bounds", $0.sceneNumbers, Array(repeating: SceneLimits.coordinate, count: 4), "coordinates") } }
        ).described("numbers", numbersForm(Array(repeating: SceneLimits.coordinate, count: 4), "coordinates"))
    }
}

/// A scene file: `{ "format": "hittest-scene", "version": 1, "root": {…} }`. The root is the
/// window; its frame is in screen coordinates.
public struct SceneFile: Sendable, Hashable, Codable {
    /// The window and everything in it.
    public var root: SceneNode

    // MARK: - Animations (SceneAnimation.swift)

    /// Animations the scene triggers on the application's clock (top-level "animations").
    public var animations: [SceneAnimation] = []

    /// A scene with the given root.
    public init(root: SceneNode) {
        self.root = root
    }

    /// Loads a scene from JSON, checking everything (types, the ranges of `SceneLimits`, unique
    /// ids). Iterative: any depth loads.
    /// - Throws: `SceneError` naming the node path and what is wrong (or the line and column of
    ///   a JSON syntax error); nothing is loaded.
    public init(json data: Data) throws(SceneError) {
        var r = SceneJSONReader(data)
        try r.checkEncoding()
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { r.i = 3 }
        try r.expect("{", "a JSON object (a scene file starts with '{')")
        var format: SceneJSON?, version: SceneJSON?, root: SceneNode?
        var animations: [SceneAnimation] = []
        let table = SceneAttributes.all
        var seen = Set<String>()
        if !r.take("}") {
            repeat {
                let key = try r.string()
                guard seen.insert(key).inserted else { throw SceneError(path: [], message: "key \"\(key)\" appears twice") }
                try r.expect(":", "':'")
                switch key {
                case "format": format = try r.value()
                case "version": version = try r.value()
                case "root": root = try r.node(table)
                case "animations": animations = try SceneAnimation.list(from: r.value())  // Animation
                default: throw SceneError(path: [], message: "unknown top-level key \"\(key)\"")
                }
            } while r.take(",")
            try r.expect("}", "',' or '}'")
        }
        try r.end()
        guard case .string("hittest-scene") = format else { throw SceneError(path: [], message: "\"format\" must be \"hittest-scene\"") }
        guard case .number(_, "1") = version else { throw SceneError(path: [], message: "\"version\" must be 1") }
        guard let root else { throw SceneError(path: [], message: "missing \"root\"") }
        self.root = root
        self.animations = animations
        try validate()
    }

    /// Loads a scene file from disk.
    public init(contentsOf url: URL) throws(SceneError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SceneError(path: [], message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(json: data)
    }

    /// Checks what loading checks, for a scene built in code (an importer's): every number
    /// within `SceneLimits`, ids non-empty and unique. `makeWindow()` needs a valid scene.
    /// - Throws: `SceneError` naming the node path.
    public func validate() throws(SceneError) {
        let table = SceneAttributes.all
        // Each visited node's id and parent index: paths are rebuilt only for an error.
        var ids: [String] = []
        var parents: [Int] = []
        func path(_ i: Int) -> [String] {
            var p: [String] = []
            var k = i
            while k >= 0 { p.append(ids[k]); k = parents[k] }
            return p.reversed()
        }
        var seen: [String: Int] = [:]
        var stack: [(SceneNode, Int)] = [(root, -1)]
        var controlIDs = Set<String>()
        while let (node, parent) = stack.popLast() {
            let index = ids.count
            ids.append(node.id)
            parents.append(parent)
            if let problem = SceneAttributes.rangeProblem(node, table: table) { throw SceneError(path: path(index), message: problem) }
            if let first = seen[node.id] {
                throw SceneError(path: path(index), message: "id \"\(node.id)\" is used twice (first at \(path(first).joined(separator: "/")))")
            }
            seen[node.id] = index
            if parent < 0, let kind = node.kind {
                throw SceneError(path: path(index), message: SceneFile.rootKindMessage(kind))
            }
            if node.kind == .button || node.kind == .control { controlIDs.insert(node.id) }
            for child in node.children.reversed() { stack.append((child, index)) }
        }
        for (i, a) in animations.enumerated() where seen[a.view] == nil {
            throw SceneError(path: [], message: "animations[\(i)]: no node has the id \"\(a.view)\"")
        }
        for (i, a) in animations.enumerated() {
            if let on = a.on, !controlIDs.contains(on) {
                throw SceneError(
                    path: [], message: "animations[\(i)]: \"on\": \"\(on)\" is not the id of a node of kind button or control")
            }
        }
        do {
            try SceneLayout.validateReferences(root)  // Layout: constraints name nodes of the scene
        } catch {
            // The ids are unique by now: name the node by its whole path, as every other error does.
            if let last = error.path.last, let index = seen[last] {
                throw SceneError(path: path(index), message: error.message)
            }
            throw error
        }
    }

    /// The root is the window, which cannot be a scroll view, a control or a button [ours].
    static func rootKindMessage(_ kind: SceneViewKind) -> String {
        "the root is the window and cannot have \"kind\": \"\(kind.rawValue)\"; put the \(kind.rawValue) into the root as a child"
    }

    /// Decodes the wrapper: format, version, root (generic decoders; see `SceneNode.init(from:)`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        for key in c.allKeys where !["format", "version", "root", "animations"].contains(key.stringValue) {
            throw SceneError(path: [], message: "unknown top-level key \"\(key.stringValue)\"")
        }
        guard (try? c.decode(String.self, forKey: SceneKey("format"))) == "hittest-scene" else {
            throw SceneError(path: [], message: "\"format\" must be \"hittest-scene\"")
        }
        guard (try? c.decode(Int.self, forKey: SceneKey("version"))) == 1 else {
            throw SceneError(path: [], message: "\"version\" must be 1")
        }
        guard c.contains(SceneKey("root")) else { throw SceneError(path: [], message: "missing \"root\"") }
        root = try c.decode(SceneNode.self, forKey: SceneKey("root"))
        animations = try c.decodeIfPresent([SceneAnimation].self, forKey: SceneKey("animations")) ?? []
    }

    /// Encodes the wrapper and the tree.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.encode("hittest-scene", forKey: SceneKey("format"))
        try c.encode(1, forKey: SceneKey("version"))
        try c.encode(root, forKey: SceneKey("root"))
        if !animations.isEmpty { try c.encode(animations, forKey: SceneKey("animations")) }
    }

    /// The JSON form: two-space indentation (capped at 16 levels, so any depth stays linear in
    /// size), `id` first, `children` last. Written without recursion: any depth saves.
    public func jsonData() -> Data {
        var w = SceneJSONWriter()
        w.file(self, SceneAttributes.all)
        return Data(w.out)
    }

    /// Builds the view tree: a `Window` for the root, each view's `accessibilityIdentifier` set to
    /// its node's id. Iterative, so very deep scenes work. The scene must be valid (`validate()`;
    /// a loaded file is): out-of-range numbers stop the program in the view setters.
    public func makeWindow() -> Window {
        let table = SceneAttributes.all
        let window = Window(frame: .zero)
        SceneFile.apply(root, to: window, table)
        var stack: [(SceneNode, View)] = [(root, window)]
        while let (node, view) = stack.popLast() {
            for child in node.children {
                let v = SceneFile.makeView(for: child)  // controls, scroll views: their `kind`
                SceneFile.apply(child, to: v, table)
                view.addSubview(v)
                stack.append((child, v))
            }
        }
        SceneLayout.applyConstraints(root, window)  // Layout: the scene's constraints, then layout
        return window
    }

    static func apply(_ node: SceneNode, to v: View, _ table: [SceneAttribute]) {
        for a in table { a.apply?(node, v) }
    }

    /// The scene of a live view tree. Ids are the views' `accessibilityIdentifier`s; views
    /// without one (or with a duplicate) get `class-N`. Handlers cannot be saved and are left out.
    /// A root that is a scroll view, a control or a button is saved inside a window of its own,
    /// `window` (a scene's root is the window), as an import puts it.
    public init(view root: View) {
        let table = SceneAttributes.all
        var used = Set<String>()
        var counters: [String: Int] = [:]
        func node(_ v: View) -> SceneNode {
            let type = "\(type(of: v))"
            var id = v.accessibilityIdentifier ?? ""
            if id.isEmpty || used.contains(id) {
                repeat {
                    counters[type, default: 0] += 1
                    id = "\(type.lowercased())-\(counters[type]!)"
                } while used.contains(id)
            }
            used.insert(id)
            var n = SceneNode(id: id, frame: .zero)
            for a in table { a.capture?(v, &n) }
            return n
        }
        // Pre-order with an explicit stack; children are filled in on the way back up.
        var nodes: [ObjectIdentifier: SceneNode] = [:]
        var order: [View] = []
        var stack = [root]
        while let v = stack.popLast() {
            order.append(v)
            nodes[ObjectIdentifier(v)] = node(v)
            stack.append(contentsOf: v.subviews.reversed())
        }
        for v in order.reversed() {
            var n = nodes[ObjectIdentifier(v)]!
            n.children = v.subviews.map { nodes.removeValue(forKey: ObjectIdentifier($0))! }
            nodes[ObjectIdentifier(v)] = n
        }
        self = SceneFile.windowed(nodes[ObjectIdentifier(root)]!).scene
    }

    /// The scene of a tree whose root may be a scroll view, a control or a button: a scene's root
    /// is the window, which is none of these, so such a root is put, as it is, into a window of
    /// its own that takes its place on the screen [ours]. The window gets the root's frame,
    /// transform, anchor point and the flags that refuse touches (hidden, alpha,
    /// interactive); the root keeps everything else, at (0, 0) in it. Every point then reaches
    /// the view it reached with the root as the window (the window only where the root itself
    /// is not hit), and a drag on a scroll view scrolls it. `window` is the id of the window
    /// made (`window`, else `window-2`, … unused in the tree), nil when the root is used as it is.
    static func windowed(_ root: SceneNode) -> (scene: SceneFile, window: String?) {
        guard root.kind != nil else { return (SceneFile(root: root), nil) }
        var ids = Set<String>()
        var stack = [root]
        while let node = stack.popLast() {
            ids.insert(node.id)
            stack.append(contentsOf: node.children)
        }
        var id = "window"
        var n = 1
        while ids.contains(id) {
            n += 1
            id = "window-\(n)"
        }
        var window = SceneNode(id: id, frame: root.frame)
        window.transform = root.transform
        window.anchorPoint = root.anchorPoint
        window.hidden = root.hidden
        window.alpha = root.alpha
        window.interactive = root.interactive
        var view = root
        view.frame = Rect(x: 0, y: 0, width: root.frame.width, height: root.frame.height)
        view.transform = .identity
        view.anchorPoint = Point(x: 0.5, y: 0.5)
        window.children = [view]
        return (SceneFile(root: window), id)
    }
}

/// A problem with a scene file, naming the node by its path of ids (`window/table/cell-3`).
public struct SceneError: Error, Hashable, CustomStringConvertible {
    /// The ids from the root to the node ([] for the file itself).
    public var path: [String]
    /// What is wrong; what it quotes from the file (ids, keys, values) is as the file has it.
    public var message: String

    /// An error at a node path.
    public init(path: [String], message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, display-safe: the ids of the path and what the message quotes from the
    /// file are as the file has them, so this escapes control characters and backslashes once
    /// (`escapingControlCharacters`: `\n`, `\u{1B}`, `\\`). Print it as it is.
    public var description: String {
        (path.isEmpty ? message : "\(path.joined(separator: "/")): \(message)").escapingControlCharacters
    }
}

struct SceneKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
