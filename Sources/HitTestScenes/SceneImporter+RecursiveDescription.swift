import Foundation
import HitTestKit

/// The `recursiveDescription` reader behind `SceneImporter.recursiveDescription(_:)`.
///
/// Works on UTF-8 bytes with explicit state (no recursion, no regular expressions): a line's
/// depth is the number of `|` before its first `<`; the description that starts there is
/// scanned once, tracking nesting of `<>`, `()`, `[]`, `{}` and quoted values, so that only the
/// view's own top-level fields are read.
enum RecursiveDescriptionReader {
    /// One view line as read.
    struct Entry {
        var depth: Int
        var line: Int
        var node: SceneNode
    }

    static func read(_ text: String) throws(SceneImporter.ImportError) -> SceneImporter.Result {
        var warnings = ImportWarnings()
        var text = text
        // Cycript and debuggers that print the description as a quoted string escape its line
        // breaks: `#"<UIWindow: 0x1; …>\n   | <UIView: …>"`.
        if text.contains("\\n   | <") {
            text = text.replacingOccurrences(of: "\\n", with: "\n")
            warnings.append("the dump is a quoted string: its \\n escapes were read as line breaks")
        }
        let bytes = Array(text.utf8)
        let lines = splitLines(bytes)
        var entries: [Entry] = []
        var counters: [String: Int] = [:]
        var i = 0
        while i < lines.count {
            let number = i + 1
            let line = lines[i]
            guard let open = bytes[line].firstIndex(of: UInt8(ascii: "<")) else {
                if bytes[line].contains(where: { !isSpace($0) }) {
                    warnings.append("line \(number): not a view, skipped: \(preview(bytes[line]))")
                }
                i += 1
                continue
            }
            let depth = bytes[line.lowerBound..<open].reduce(0) { $1 == UInt8(ascii: "|") ? $0 + 1 : $0 }
            var scanner = DescriptionScanner(bytes: bytes, lines: lines, line: i, start: open + 1)
            let description = scanner.scan()
            i = scanner.line + 1
            if description.className.isEmpty {
                warnings.append("line \(number): no class name, skipped")
                continue
            }
            let fields = description.fields
            if fields["frame"] == nil, description.className.hasSuffix("Layer") {
                continue  // a layer-only line (layer dumps, sublayers): not a view
            }
            let className = SwiftClassName.readable(description.className)
            guard let frameText = fields["frame"], let frame = parseFrame(frameText) else {
                warnings.append("line \(number): \(className) has no readable frame, skipped")
                continue
            }
            if !description.closed {
                warnings.append("line \(number): \(className)'s description is not closed with '>'; read up to the end of the line")
            }
            counters[className, default: 0] += 1
            let fullName = fields["baseClass"].map { "\(className) (\($0))" } ?? className
            var node = SceneNode(id: "\(className)-\(counters[className]!)", className: fullName, frame: frame)
            if let hidden = fields["hidden"] { node.hidden = hidden == "YES" }
            if let alpha = fields["alpha"].flatMap(Double.init), alpha.isFinite { node.alpha = alpha }
            if fields["userInteractionEnabled"] == "NO" { node.interactive = false }
            if fields["clipsToBounds"] == "YES" { node.clipsToBounds = true }
            if let tag = fields["tag"].flatMap(Int.init) { node.tag = tag }
            // `gestureRecognizers = <NSArray: …>`: the view takes touches through recognizers.
            if fields["gestureRecognizers"] != nil { node.hasGestureRecognizers = true }
            if let t = fields["transform"].flatMap(parseTransform), !t.isIdentity {
                // The dump's frame is the transformed bounding box; recover the frame as set,
                // with magnitudes far inside what the geometry holds (no overflow, no trap).
                let values = [frame.minX, frame.minY, frame.width, frame.height, t.a, t.b, t.c, t.d, t.tx, t.ty]
                if values.allSatisfy({ abs($0) <= 1e12 }) {
                    let v = View()
                    v.transform = t
                    v.frame = frame
                    node.transform = t
                    node.frame = Rect(
                        x: v.center.x - v.bounds.width / 2, y: v.center.y - v.bounds.height / 2,
                        width: v.bounds.width, height: v.bounds.height)
                } else {
                    warnings.append("line \(number): \(className)'s frame or transform is beyond ±1e12; transform left out, frame kept as dumped")
                }
            }
            if let offset = fields["contentOffset"].flatMap(parsePair) {
                node.bounds = Rect(origin: offset, size: node.frame.size)
            }
            // MARK: controls, buttons, scroll views (SceneImporter+Kinds.swift)
            SceneKindRules.apply(to: &node, className: className, fields: fields)
            // MARK: Layout: `autoresize = W+H` (UIKit's letters for the autoresizing mask)
            if let text = fields["autoresize"] {
                switch SceneImporter.autoresizingMask(text) {
                case .success(let mask):
                    if !mask.isEmpty { node.attributes["autoresizingMask"] = .number(Double(mask.rawValue), text: String(mask.rawValue)) }
                case .failure(let bad):
                    warnings.append("line \(number): \(className)'s autoresize = \(text) has an unknown part \"\(bad.part)\"; mask left out")
                }
            }
            entries.append(Entry(depth: depth, line: number, node: node))
        }
        guard let first = entries.first else {
            throw SceneImporter.ImportError(
                SceneError(path: [], message: "no view found in the recursiveDescription text (\(lines.count) lines read, \(warnings.count) skipped)"),
                warnings: warnings.lines)
        }
        // Nest by depth with a stack of open ancestors (no recursion at any depth).
        var stack: [(depth: Int, node: SceneNode)] = [(first.depth, first.node)]
        func close(above depth: Int) {
            while stack.count > 1, stack[stack.count - 1].depth >= depth {
                let done = stack.removeLast().node
                stack[stack.count - 1].node.children.append(done)
            }
        }
        for entry in entries.dropFirst() {
            if entry.depth <= first.depth {
                warnings.append("line \(entry.line): \(entry.node.id) is not inside the first view; attached to it")
            } else if entry.depth > stack[stack.count - 1].depth + 1 {
                warnings.append("line \(entry.line): \(entry.node.id)'s parent is missing (truncated dump?); attached to the nearest view read")
            }
            close(above: max(entry.depth, first.depth + 1))
            stack.append((entry.depth, entry.node))
        }
        close(above: first.depth + 1)
        let scene = SceneImporter.scene(root: stack[0].node, warnings: &warnings)
        return SceneImporter.Result(scene: scene, warnings: warnings.lines)
    }

    // MARK: - Lines

    /// Line ranges, without their terminators: LF, CRLF and lone CR all end a line (the one
    /// line reader, `TextLineReader`).
    static func splitLines(_ b: [UInt8]) -> [Range<Int>] {
        b.withUnsafeBufferPointer { TextLineReader.lineRanges(in: $0) }
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    static func preview(_ s: ArraySlice<UInt8>) -> String {
        let text = String(decoding: s, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    // MARK: - Values

    /// `(x y; w h)`.
    static func parseFrame(_ s: String) -> Rect? {
        let cleaned = s.trimmingCharacters(in: CharacterSet(charactersIn: "() "))
        let parts = cleaned.split(separator: ";").map { $0.split(separator: " ").compactMap { Double($0) } }
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2 else { return nil }
        let v = parts[0] + parts[1]
        guard v.allSatisfy(\.isFinite) else { return nil }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// `[a, b, c, d, tx, ty]`.
    static func parseTransform(_ s: String) -> AffineTransform? {
        let v = s.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard v.count == 6, v.allSatisfy(\.isFinite) else { return nil }
        return AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
    }

    /// `{x, y}`.
    static func parsePair(_ s: String) -> Point? {
        let v = s.trimmingCharacters(in: CharacterSet(charactersIn: "{} ")).split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard v.count == 2, v.allSatisfy(\.isFinite) else { return nil }
        return Point(x: v[0], y: v[1])
    }
}

/// Scans one `<Class: 0x…; key = value; …>` description from just after its `<`, over as many
/// lines as it is wrapped on.
struct DescriptionScanner {
    /// What a description holds.
    struct Description {
        var className = ""
        /// The view's own top-level fields (the first of each key).
        var fields: [String: String] = [:]
        /// Whether the closing `>` was found.
        var closed = false
    }

    let bytes: [UInt8]
    let lines: [Range<Int>]
    /// The line being read; after `scan()`, the last line the description used.
    var line: Int
    var position: Int

    /// The most lines one description may be wrapped over.
    static let maxExtraLines = 200

    init(bytes: [UInt8], lines: [Range<Int>], line: Int, start: Int) {
        self.bytes = bytes
        self.lines = lines
        self.line = line
        self.position = start
    }

    /// Whether `range` starts like a view line: indentation and `|`s, then `<`.
    func startsAView(_ range: Range<Int>) -> Bool {
        for c in bytes[range] {
            if c == 0x20 || c == 0x09 || c == UInt8(ascii: "|") { continue }
            return c == UInt8(ascii: "<")
        }
        return false
    }

    mutating func scan() -> Description {
        var result = Description()
        var inClassName = true
        var depth = 0
        var quoted = false
        var quote = UInt8(ascii: "'")
        var part: [UInt8] = []
        var extraLines = 0

        func flush() {
            defer { part.removeAll(keepingCapacity: true) }
            if let (key, value) = Self.keyValue(part), result.fields[key] == nil {
                result.fields[key] = value
            }
        }
        func endClassName() {
            inClassName = false
            result.className = String(decoding: part, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            part.removeAll(keepingCapacity: true)
        }

        while true {
            let end = lines[line].upperBound
            while position < end {
                let c = bytes[position]
                position += 1
                if quoted {
                    part.append(c)
                    if c == quote {
                        // A quote closes before `;`, `>` or the end of the line: `'What's new'` keeps its apostrophe.
                        let next = position < end ? bytes[position] : 0
                        if next == 0 || next == UInt8(ascii: ";") || next == UInt8(ascii: ">") { quoted = false }
                    }
                    continue
                }
                switch c {
                case UInt8(ascii: "'") where !inClassName && depth == 0 && Self.lastNonSpace(part) == UInt8(ascii: "="),
                    UInt8(ascii: "\"") where !inClassName && depth == 0 && Self.lastNonSpace(part) == UInt8(ascii: "="):
                    quoted = true
                    quote = c
                    part.append(c)
                case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    part.append(c)
                case UInt8(ascii: ">") where depth == 0:
                    if inClassName { endClassName() } else { flush() }
                    result.closed = true
                    return result
                case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth = max(0, depth - 1)
                    part.append(c)
                case UInt8(ascii: ";") where depth == 0:
                    if inClassName { endClassName() } else { flush() }
                case UInt8(ascii: ":") where depth == 0 && inClassName:
                    endClassName()  // `Class: 0x…`: the address follows
                case 0x20 where depth == 0 && inClassName, 0x09 where depth == 0 && inClassName:
                    if !part.isEmpty { endClassName() }
                default:
                    part.append(c)
                }
            }
            // The end of a line with the description still open: go on with the next line when
            // the description is wrapped (not when a new view line starts).
            let next = line + 1
            guard next < lines.count, extraLines < Self.maxExtraLines, quoted || !startsAView(lines[next]) else { break }
            line = next
            position = lines[next].lowerBound
            extraLines += 1
            part.append(quoted ? 0x0A : 0x20)
        }
        if inClassName { endClassName() } else { flush() }
        return result
    }

    static func lastNonSpace(_ part: [UInt8]) -> UInt8? {
        part.last { $0 != 0x20 && $0 != 0x09 }
    }

    /// `key = value`, `key=value` or `key: value`, with an identifier as key.
    static func keyValue(_ part: [UInt8]) -> (String, String)? {
        guard let sep = part.firstIndex(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") }) else { return nil }
        let key = String(decoding: part[..<sep], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard let first = key.utf8.first, isIdentifierStart(first), key.utf8.allSatisfy(isIdentifier) else { return nil }
        let value = String(decoding: part[(sep + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return (key, value)
    }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
    }

    static func isIdentifier(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: ".")
    }
}

// MARK: - Layout: autoresizing masks in dumps

extension SceneImporter {
    /// An unknown part of an `autoresize = …` value.
    struct UnknownMaskPart: Error { var part: String }

    /// UIKit's `autoresize = LM+W+RM+TM+H+BM` (any subset, `+`-separated; `none` or empty for
    /// no bits) as an autoresizing mask.
    static func autoresizingMask(_ text: String) -> Swift.Result<View.AutoresizingMask, UnknownMaskPart> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "none" { return .success([]) }
        var mask: View.AutoresizingMask = []
        for part in trimmed.split(separator: "+", omittingEmptySubsequences: false) {
            switch part.trimmingCharacters(in: .whitespaces) {
            case "LM": mask.insert(.flexibleLeftMargin)
            case "W": mask.insert(.flexibleWidth)
            case "RM": mask.insert(.flexibleRightMargin)
            case "TM": mask.insert(.flexibleTopMargin)
            case "H": mask.insert(.flexibleHeight)
            case "BM": mask.insert(.flexibleBottomMargin)
            default: return .failure(UnknownMaskPart(part: String(part)))
            }
        }
        return .success(mask)
    }
}
