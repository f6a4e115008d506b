import Foundation
import HitTestKit

/// HitTestKit's transform, not Foundation's (both are in scope here).
typealias AffineTransform = HitTestKit.AffineTransform

/// One view of a scene file (SCENE_FORMAT.md): the view's properties as set, and its children
/// in subview order (the last is on top). `Codable` in the file's JSON form; decoding is
/// strict: unknown keys, wrong types, missing required keys and non-finite numbers are
/// `SceneError`s that name the node's path.
public struct SceneNode: Sendable, Hashable, Codable {
    /// How queries and results name the view; unique in a file.
    public var id: String
    /// What the view was (e.g. `UIButton`); kept, not interpreted.
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
    /// The subviews, back to front.
    public var children: [SceneNode] = []

    /// A node with defaults for everything but its id and frame.
    public init(id: String, className: String? = nil, frame: Rect, children: [SceneNode] = []) {
        self.id = id
        self.className = className
        self.frame = frame
        self.children = children
    }

    static let keys: Set<String> = [
        "id", "class", "frame", "bounds", "transform", "anchorPoint", "hidden", "alpha", "interactive",
        "clipsToBounds", "tag", "hitTestInsets", "passesTouchesThrough", "capturesSubviewTouches",
        "allowsSubviewHitsOutsideBounds", "hitTestPriority", "children",
    ]

    /// Decodes a node strictly (see the type's documentation).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        let where_ = decoder.codingPath.last.map { $0.intValue.map { "children[\($0)]" } ?? $0.stringValue } ?? "root"
        guard c.contains(SceneKey("id")) else { throw SceneError(path: [where_], message: "missing \"id\"") }
        guard let id = try? c.decode(String.self, forKey: SceneKey("id")), !id.isEmpty else {
            throw SceneError(path: [where_], message: "\"id\" must be a non-empty string")
        }
        self.id = id
        func fail(_ message: String) -> SceneError { SceneError(path: [id], message: message) }
        for key in c.allKeys where !Self.keys.contains(key.stringValue) {
            throw fail("unknown key \"\(key.stringValue)\"")
        }
        func numbers(_ key: String, _ count: Int) throws -> [Double]? {
            guard c.contains(SceneKey(key)) else { return nil }
            guard let v = try? c.decode([Double].self, forKey: SceneKey(key)) else {
                throw fail("\"\(key)\" must be an array of \(count) numbers")
            }
            guard v.count == count else { throw fail("\"\(key)\" must have \(count) numbers, found \(v.count)") }
            guard v.allSatisfy(\.isFinite) else { throw fail("\"\(key)\" has a number that is not finite") }
            return v
        }
        func value<T: Decodable>(_ key: String, _ type: T.Type, _ what: String) throws -> T? {
            guard c.contains(SceneKey(key)) else { return nil }
            guard let v = try? c.decode(T.self, forKey: SceneKey(key)) else { throw fail("\"\(key)\" must be \(what)") }
            return v
        }
        guard let f = try numbers("frame", 4) else { throw fail("missing \"frame\"") }
        frame = Rect(x: f[0], y: f[1], width: f[2], height: f[3])
        if let b = try numbers("bounds", 4) { bounds = Rect(x: b[0], y: b[1], width: b[2], height: b[3]) }
        if let t = try numbers("transform", 6) { transform = AffineTransform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5]) }
        if let a = try numbers("anchorPoint", 2) { anchorPoint = Point(x: a[0], y: a[1]) }
        if let i = try numbers("hitTestInsets", 4) { hitTestInsets = EdgeInsets(top: i[0], left: i[1], bottom: i[2], right: i[3]) }
        className = try value("class", String.self, "a string")
        hidden = try value("hidden", Bool.self, "true or false") ?? false
        interactive = try value("interactive", Bool.self, "true or false") ?? true
        clipsToBounds = try value("clipsToBounds", Bool.self, "true or false") ?? false
        passesTouchesThrough = try value("passesTouchesThrough", Bool.self, "true or false") ?? false
        capturesSubviewTouches = try value("capturesSubviewTouches", Bool.self, "true or false") ?? false
        allowsSubviewHitsOutsideBounds = try value("allowsSubviewHitsOutsideBounds", Bool.self, "true or false") ?? false
        tag = try value("tag", Int.self, "an integer") ?? 0
        hitTestPriority = try value("hitTestPriority", Int.self, "an integer") ?? 0
        if let a = try value("alpha", Double.self, "a number") {
            guard a.isFinite else { throw fail("\"alpha\" is not finite") }
            alpha = a
        }
        if c.contains(SceneKey("children")) {
            do {
                children = try c.decode([SceneNode].self, forKey: SceneKey("children"))
            } catch let error as SceneError {
                throw SceneError(path: [id] + error.path, message: error.message)
            } catch {
                throw fail("\"children\" must be an array of nodes")
            }
        }
    }

    /// Encodes the node, leaving out every key that has its default value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.encode(id, forKey: SceneKey("id"))
        try c.encodeIfPresent(className, forKey: SceneKey("class"))
        try c.encode([frame.minX, frame.minY, frame.width, frame.height], forKey: SceneKey("frame"))
        if let b = bounds { try c.encode([b.minX, b.minY, b.width, b.height], forKey: SceneKey("bounds")) }
        if !transform.isIdentity {
            let t = transform
            try c.encode([t.a, t.b, t.c, t.d, t.tx, t.ty], forKey: SceneKey("transform"))
        }
        if anchorPoint != Point(x: 0.5, y: 0.5) { try c.encode([anchorPoint.x, anchorPoint.y], forKey: SceneKey("anchorPoint")) }
        if hidden { try c.encode(true, forKey: SceneKey("hidden")) }
        if alpha != 1 { try c.encode(alpha, forKey: SceneKey("alpha")) }
        if !interactive { try c.encode(false, forKey: SceneKey("interactive")) }
        if clipsToBounds { try c.encode(true, forKey: SceneKey("clipsToBounds")) }
        if tag != 0 { try c.encode(tag, forKey: SceneKey("tag")) }
        if hitTestInsets != .zero {
            let i = hitTestInsets
            try c.encode([i.top, i.left, i.bottom, i.right], forKey: SceneKey("hitTestInsets"))
        }
        if passesTouchesThrough { try c.encode(true, forKey: SceneKey("passesTouchesThrough")) }
        if capturesSubviewTouches { try c.encode(true, forKey: SceneKey("capturesSubviewTouches")) }
        if allowsSubviewHitsOutsideBounds { try c.encode(true, forKey: SceneKey("allowsSubviewHitsOutsideBounds")) }
        if hitTestPriority != 0 { try c.encode(hitTestPriority, forKey: SceneKey("hitTestPriority")) }
        if !children.isEmpty { try c.encode(children, forKey: SceneKey("children")) }
    }
}

/// A scene file: `{ "format": "hittest-scene", "version": 1, "root": {…} }`. The root is the
/// window; its frame is in screen coordinates.
public struct SceneFile: Sendable, Hashable, Codable {
    /// The window and everything in it.
    public var root: SceneNode

    /// A scene with the given root.
    public init(root: SceneNode) {
        self.root = root
    }

    /// Loads a scene from JSON, checking everything (see `SceneNode`) and that ids are unique.
    /// - Throws: `SceneError` naming the node path and what is wrong; nothing is loaded.
    public init(json data: Data) throws(SceneError) {
        do {
            self = try JSONDecoder().decode(SceneFile.self, from: data)
        } catch let error as SceneError {
            throw error
        } catch let DecodingError.dataCorrupted(context) {
            throw SceneError(path: [], message: "not valid JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)")
        } catch {
            throw SceneError(path: [], message: "not a scene file: \(error)")
        }
        var seen: [String: [String]] = [:]
        var stack: [(SceneNode, [String])] = [(root, [root.id])]
        while let (node, path) = stack.popLast() {
            if let first = seen[node.id] {
                throw SceneError(path: path, message: "id \"\(node.id)\" is used twice (first at \(first.joined(separator: "/")))")
            }
            seen[node.id] = path
            stack.append(contentsOf: node.children.map { ($0, path + [$0.id]) })
        }
    }

    /// Loads a scene file from disk.
    public init(contentsOf url: URL) throws(SceneError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SceneError(path: [], message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(json: data)
    }

    /// Decodes the wrapper: format, version, root.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: SceneKey.self)
        for key in c.allKeys where !["format", "version", "root"].contains(key.stringValue) {
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
    }

    /// Encodes the wrapper and the tree.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: SceneKey.self)
        try c.encode("hittest-scene", forKey: SceneKey("format"))
        try c.encode(1, forKey: SceneKey("version"))
        try c.encode(root, forKey: SceneKey("root"))
    }

    /// The JSON form, pretty-printed with sorted keys.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value is finite and every key a string: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Builds the view tree: a `Window` for the root, each view's `accessibilityIdentifier` set to
    /// its node's id. Iterative, so very deep scenes work.
    public func makeWindow() -> Window {
        let window = Window(frame: .zero)
        SceneFile.apply(root, to: window)
        var stack: [(SceneNode, View)] = [(root, window)]
        while let (node, view) = stack.popLast() {
            for child in node.children {
                let v = View()
                SceneFile.apply(child, to: v)
                view.addSubview(v)
                stack.append((child, v))
            }
        }
        return window
    }

    static func apply(_ node: SceneNode, to v: View) {
        v.accessibilityIdentifier = node.id
        v.anchorPoint = node.anchorPoint
        v.frame = node.frame
        if let b = node.bounds { v.bounds = b }
        v.transform = node.transform
        v.isHidden = node.hidden
        v.alpha = node.alpha
        v.isUserInteractionEnabled = node.interactive
        v.clipsToBounds = node.clipsToBounds
        v.tag = node.tag
        v.hitTestInsets = node.hitTestInsets
        v.passesTouchesThrough = node.passesTouchesThrough
        v.capturesSubviewTouches = node.capturesSubviewTouches
        v.allowsSubviewHitsOutsideBounds = node.allowsSubviewHitsOutsideBounds
        v.hitTestPriority = node.hitTestPriority
    }

    /// The scene of a live view tree. Ids are the views' `accessibilityIdentifier`s; views
    /// without one (or with a duplicate) get `class-N`. Handlers cannot be saved and are left out.
    public init(view root: View) {
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
            let size = v.bounds.size
            let frame = Rect(
                x: v.center.x - v.anchorPoint.x * size.width, y: v.center.y - v.anchorPoint.y * size.height,
                width: size.width, height: size.height)
            var n = SceneNode(id: id, frame: frame)
            if v.bounds.origin != .zero { n.bounds = v.bounds }
            n.transform = v.transform
            n.anchorPoint = v.anchorPoint
            n.hidden = v.isHidden
            n.alpha = v.alpha
            n.interactive = v.isUserInteractionEnabled
            n.clipsToBounds = v.clipsToBounds
            n.tag = v.tag
            n.hitTestInsets = v.hitTestInsets
            n.passesTouchesThrough = v.passesTouchesThrough
            n.capturesSubviewTouches = v.capturesSubviewTouches
            n.allowsSubviewHitsOutsideBounds = v.allowsSubviewHitsOutsideBounds
            n.hitTestPriority = v.hitTestPriority
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
        self.root = nodes[ObjectIdentifier(root)]!
    }
}

/// A problem with a scene file, naming the node by its path of ids (`window/table/cell-3`).
public struct SceneError: Error, Hashable, CustomStringConvertible {
    /// The ids from the root to the node ([] for the file itself).
    public var path: [String]
    /// What is wrong.
    public var message: String

    /// An error at a node path.
    public init(path: [String], message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path.joined(separator: "/")): \(message)" }
}

struct SceneKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
