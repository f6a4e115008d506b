import Foundation

/// A JSON value below the node level of a scene file (a number, a string, an array of numbers).
/// The nodes themselves and their `children` are never held as `SceneJSON` values: the reader
/// and writer walk them with explicit stacks, so a scene of any depth loads and saves.
public enum SceneJSON: Sendable, Hashable, Codable {
    /// A number; `text` is how the file wrote it (to tell integers and name bad values).
    case number(Double, text: String)
    /// A string.
    case string(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array.
    indirect case array([SceneJSON])
    /// An object, members in file order.
    indirect case object([String: SceneJSON])

    /// Values nested deeper than this inside one attribute are refused (no attribute needs more
    /// than one level; the limit keeps the generic value parser's recursion bounded).
    static let maxValueDepth = 32

    /// Decodes any JSON value (used by the `Codable` path only).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let d = try? c.decode(Double.self) { self = .number(d, text: SceneJSON.format(d)); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([SceneJSON].self) { self = .array(a); return }
        self = .object(try c.decode([String: SceneJSON].self))
    }

    /// Encodes the value.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let d, _): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// A number as the writer prints it: whole numbers below 1e15 without a fraction, others
    /// in Swift's shortest round-trip form (valid JSON).
    static func format(_ d: Double) -> String {
        if d == d.rounded() && abs(d) < 1e15 { return d == 0 ? "0" : String(Int64(d)) }
        return "\(d)"
    }

    /// A short description of the value for error messages: a number as written (its first 40
    /// characters and "…" when longer), a string's first 40 Unicode scalars in quotes, as they are
    /// (`SceneError.description` escapes control characters, once), `true`, `false`, `null`,
    /// "an array", "an object". The Python loader (python/src/hittest/_scene_json.py) writes the
    /// same.
    var brief: String {
        switch self {
        case .number(_, let text): return text.count > 40 ? "\(text.prefix(40))…" : text
        case .string(let s):
            var head = String.UnicodeScalarView()
            head.append(contentsOf: s.unicodeScalars.prefix(40))
            return "\"\(String(head))\""
        case .bool(let b): return "\(b)"
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// MARK: - Reader

/// A JSON reader over bytes for the scene format: iterative over nodes, errors with line and
/// column.
struct SceneJSONReader {
    let bytes: [UInt8]
    var i = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    /// "line L, column C" of byte offset `at`.
    func position(_ at: Int) -> String {
        var line = 1, column = 1
        for k in 0..<min(at, bytes.count) {
            if bytes[k] == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return "line \(line), column \(column)"
    }

    /// A JSON syntax error at byte offset `at` (default: the current one), with what the file
    /// holds there: its next 12 bytes up to a line break, as they are (`SceneError.description`
    /// escapes them: a binary file's bytes never reach the terminal raw).
    func syntax(_ message: String, at: Int? = nil) -> SceneError {
        let at = at ?? i
        let found: String
        if at >= bytes.count {
            found = "the end of the file"
        } else {
            // The first non-empty line of the next 12 bytes (a line ends at LF or CR).
            let next = bytes[at..<min(bytes.count, at + 12)]
            let line = next.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }).first ?? []
            found = "'\(String(decoding: line, as: UTF8.self))'"
        }
        return SceneError(path: [], message: "not valid JSON: \(position(at)): \(message), found \(found)")
    }

    /// The message for text in UTF-16 or UTF-32, judged by its first bytes: a byte order mark,
    /// or a NUL byte beside an ASCII character (`{\0"\0` or `\0{\0"`); nil for other text.
    /// Scene files and imported dumps (`SceneImporter.importScene`) use it; `kind` names what
    /// must be UTF-8.
    static func wideEncoding(_ b: [UInt8], kind: String = "a scene file") -> String? {
        let n = b.count
        func wide(_ name: String, _ why: String) -> String {
            "the file is \(name) (\(why)); \(kind) must be UTF-8: convert it (e.g. iconv -f \(name) -t UTF-8)"
        }
        if n >= 4, (b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) || (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF) {
            return wide("UTF-32", "it starts with a UTF-32 byte order mark")
        }
        if n >= 2, (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) {
            return wide("UTF-16", "it starts with a UTF-16 byte order mark")
        }
        if n >= 2, (b[0] == 0) != (b[1] == 0) {
            let other = b[0] == 0 ? b[1] : b[0]
            if other == 0x09 || other == 0x0A || other == 0x0D || (0x20...0x7E).contains(other) {
                return wide("UTF-16", "\(b[0] == 0 ? "big" : "little")-endian: NUL bytes between the characters")
            }
        }
        return nil
    }

    /// Refuses a file that is not UTF-8 text before any JSON is read, without echoing its bytes:
    /// UTF-16 or UTF-32 (a byte order mark, or NUL bytes between ASCII characters, as Windows
    /// editors and PowerShell's `>` write), then the first byte that is not valid UTF-8 (a binary
    /// file, or Latin-1 text), by line and column. A UTF-8 byte order mark is allowed.
    func checkEncoding() throws(SceneError) {
        let b = bytes
        let n = b.count
        if let wide = Self.wideEncoding(b) { throw SceneError(path: [], message: wide) }
        var k = 0
        while k < n {
            let c = b[k]
            if c < 0x80 { k += 1; continue }
            // Unicode's table of well-formed UTF-8 byte sequences (no overlong forms, no
            // surrogates, nothing above U+10FFFF).
            var length = 0
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: length = 0
            }
            var ok = length > 0 && k + length <= n
            if ok {
                ok = (low...high).contains(b[k + 1])
                var j = 2
                while ok && j < length {
                    ok = (0x80...0xBF).contains(b[k + j])
                    j += 1
                }
            }
            guard ok else {
                let hex = String(c, radix: 16, uppercase: true)
                throw SceneError(
                    path: [], message: "not UTF-8 text: \(position(k)): the byte 0x\(hex.count < 2 ? "0" + hex : hex) is not valid UTF-8 (a scene file is UTF-8 JSON; is this a binary file?)")
            }
            k += length
        }
    }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    /// The next non-space byte, not consumed.
    mutating func peek() -> UInt8? {
        skipSpace()
        return i < bytes.count ? bytes[i] : nil
    }

    mutating func expect(_ c: Character, _ what: String) throws(SceneError) {
        guard peek() == c.asciiValue else { throw syntax("expected \(what)") }
        i += 1
    }

    /// Consumes `c` if it is next.
    mutating func take(_ c: Character) -> Bool {
        if peek() == c.asciiValue { i += 1; return true }
        return false
    }

    mutating func string() throws(SceneError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw syntax("expected a string") }
        let start = i
        i += 1
        var plainStart = i
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw syntax("unterminated string", at: start) }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[plainStart..<i])
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c < 0x20 { throw syntax("control character in a string") }
            if c == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[plainStart..<i])
                guard i + 1 < bytes.count else { throw syntax("unterminated string", at: start) }
                let e = bytes[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw syntax("bad surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw syntax("bad escape", at: i - 2)
                }
                plainStart = i
                continue
            }
            i += 1
        }
    }

    /// The four hex digits of a `\\u` escape (exactly four: no sign).
    mutating func hex4() throws(SceneError) -> UInt32 {
        guard i + 4 <= bytes.count, bytes[i..<(i + 4)].allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
            let v = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16)
        else {
            throw syntax("bad Unicode escape")
        }
        i += 4
        return v
    }

    mutating func number() throws(SceneError) -> SceneJSON {
        skipSpace()
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digits() > 0 else { i = start; throw syntax("expected a value") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw syntax("expected digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw syntax("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        // Out-of-range literals (1e309) become ±infinity here; the attribute names them.
        return .number(Double(text) ?? .nan, text: text)
    }

    mutating func literal(_ word: String, _ value: SceneJSON) throws(SceneError) -> SceneJSON {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw syntax("expected a value") }
        i += w.count
        return value
    }

    /// Any value, nesting at most `SceneJSON.maxValueDepth` (recursion bounded by that).
    mutating func value(depth: Int = 0) throws(SceneError) -> SceneJSON {
        guard depth < SceneJSON.maxValueDepth else { throw syntax("values nested too deeply") }
        switch peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "["):
            i += 1
            var items: [SceneJSON] = []
            if take("]") { return .array(items) }
            repeat { items.append(try value(depth: depth + 1)) } while take(",")
            try expect("]", "',' or ']'")
            return .array(items)
        case UInt8(ascii: "{"):
            i += 1
            var members: [String: SceneJSON] = [:]
            if take("}") { return .object(members) }
            repeat {
                _ = peek()
                let at = i
                let k = try string()
                guard members[k] == nil else { throw syntax("key \"\(k)\" appears twice", at: at) }
                try expect(":", "':'")
                members[k] = try value(depth: depth + 1)
            } while take(",")
            try expect("}", "',' or '}'")
            return .object(members)
        default:
            return try number()
        }
    }

    mutating func end() throws(SceneError) {
        skipSpace()
        guard i == bytes.count else { throw syntax("expected the end of the file") }
    }

    /// One node object and everything below it, iteratively. Node errors (a bad attribute) are
    /// reported after the node's object is read, with the path of ids from this node down.
    mutating func node(_ attributes: [SceneAttribute]) throws(SceneError) -> SceneNode {
        guard peek() == UInt8(ascii: "{") else { throw SceneError(path: [], message: "\"root\" must be a node object") }
        i += 1
        var stack = [Frame(name: "root")]
        var finished: SceneNode?
        // States: reading members of the top frame (after '{' or ','), or after a child in a
        // `children` array.
        var inChildren = false
        var opened = true  // just after '{' (an empty object is allowed to close at once)
        while finished == nil {
            if inChildren {
                // After a child node: ',' and the next one, or ']'.
                if take(",") {
                    guard peek() == UInt8(ascii: "{") else {
                        let at = i
                        let v = try value()
                        stack[stack.count - 1].childError = stack[stack.count - 1].childError
                            ?? SceneError(path: [], message: "\"children\" must be an array of nodes, found \(v.brief) at \(position(at))")
                        continue
                    }
                    i += 1
                    stack[stack.count - 1].started += 1
                    stack.append(Frame(name: "children[\(stack[stack.count - 1].started - 1)]"))
                    inChildren = false
                    opened = true
                    continue
                }
                try expect("]", "',' or ']'")
                inChildren = false
                opened = false
                continue
            }
            if opened {
                opened = false
                if take("}") {
                    try close(&stack, &finished, &inChildren, attributes)
                    continue
                }
            } else {
                if take(",") {
                    // a member follows
                } else {
                    try expect("}", "',' or '}'")
                    try close(&stack, &finished, &inChildren, attributes)
                    continue
                }
            }
            let key = try string()
            try expect(":", "':'")
            if key == "children" && !stack[stack.count - 1].sawChildren && peek() == UInt8(ascii: "[") {
                stack[stack.count - 1].sawChildren = true
                i += 1
                if take("]") { continue }
                guard peek() == UInt8(ascii: "{") else {
                    let at = i
                    let v = try value()
                    stack[stack.count - 1].childError = SceneError(
                        path: [], message: "\"children\" must be an array of nodes, found \(v.brief) at \(position(at))")
                    inChildren = true
                    continue
                }
                i += 1
                stack[stack.count - 1].started = 1
                stack.append(Frame(name: "children[0]"))
                opened = true
                continue
            }
            let v = try value()
            stack[stack.count - 1].fields.append((key, v))
        }
        return finished!
    }

    /// Closes the top frame: builds its node, hands it (or its error) to the parent.
    private mutating func close(
        _ stack: inout [Frame], _ finished: inout SceneNode?, _ inChildren: inout Bool, _ attributes: [SceneAttribute]
    ) throws(SceneError) {
        let frame = stack.removeLast()
        let result: Result<SceneNode, SceneError>
        do throws(SceneError) {
            var node = try SceneAttributes.node(from: frame.fields, name: frame.name, table: attributes)
            if frame.sawChildren || !frame.children.isEmpty { node.children = frame.children }
            if let e = frame.childError {
                result = .failure(SceneError(path: [node.id] + e.path, message: e.message))
            } else {
                result = .success(node)
            }
        } catch {
            result = .failure(error)
        }
        if stack.isEmpty {
            finished = try result.get()
            return
        }
        switch result {
        case .success(let node):
            if stack[stack.count - 1].childError == nil { stack[stack.count - 1].children.append(node) }
        case .failure(let e):
            stack[stack.count - 1].childError = stack[stack.count - 1].childError ?? e
        }
        inChildren = true
    }

    /// A node whose object is being read.
    struct Frame {
        var name: String
        var fields: [(String, SceneJSON)] = []
        var children: [SceneNode] = []
        var sawChildren = false
        var started = 0
        var childError: SceneError?
    }
}

// MARK: - Writer

/// Writes scene JSON iteratively: two-space indentation that stops growing at 16 levels (so a
/// 100,000-deep chain stays linear in size), keys in the attribute table's order, `children`
/// last.
struct SceneJSONWriter {
    var out: [UInt8] = []
    static let maxIndent = 16

    mutating func text(_ s: String) { out.append(contentsOf: s.utf8) }

    mutating func indent(_ level: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: 2 * min(level, Self.maxIndent)))
    }

    mutating func string(_ s: String) {
        out.append(0x22)
        for u in s.unicodeScalars {
            switch u {
            case "\"": text("\\\"")
            case "\\": text("\\\\")
            case "\n": text("\\n")
            case "\r": text("\\r")
            case "\t": text("\\t")
            default:
                if u.value < 0x20 {
                    text(String(format: "\\u%04x", u.value))
                } else {
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                }
            }
        }
        out.append(0x22)
    }

    mutating func value(_ v: SceneJSON) {
        switch v {
        case .number(let d, _): text(SceneJSON.format(d))
        case .string(let s): string(s)
        case .bool(let b): text(b ? "true" : "false")
        case .null: text("null")
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (k, x) in a.enumerated() {
                if k > 0 { text(", ") }
                value(x)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (k, key) in o.keys.sorted().enumerated() {
                if k > 0 { text(", ") }
                string(key)
                text(": ")
                value(o[key]!)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The whole file.
    mutating func file(_ scene: SceneFile, _ attributes: [SceneAttribute]) {
        text("{")
        indent(1); text("\"format\": \"hittest-scene\",")
        indent(1); text("\"version\": 1,")
        indent(1); text("\"root\": ")
        // (node, level, next child index)
        var stack: [(SceneNode, Int, Int)] = [(scene.root, 1, -1)]
        while !stack.isEmpty {
            let (node, level, next) = stack[stack.count - 1]
            if next == -1 {
                text("{")
                var first = true
                for (key, v) in SceneAttributes.members(of: node, table: attributes) {
                    if !first { text(",") }
                    first = false
                    indent(level + 1)
                    string(key)
                    text(": ")
                    value(v)
                }
                if node.children.isEmpty {
                    indent(level); text("}")
                    stack.removeLast()
                    continue
                }
                if !first { text(",") }
                indent(level + 1)
                text("\"children\": [")
                stack[stack.count - 1].2 = 0
                continue
            }
            if next < node.children.count {
                if next > 0 { text(",") }
                indent(level + 2)
                stack[stack.count - 1].2 = next + 1
                stack.append((node.children[next], level + 2, -1))
                continue
            }
            indent(level + 1); text("]")
            indent(level); text("}")
            stack.removeLast()
        }
        if !scene.animations.isEmpty {  // Animation: the top-level "animations" key
            text(",")
            indent(1); text("\"animations\": ")
            value(SceneAnimation.json(scene.animations))
        }
        text("\n}\n")
    }
}
