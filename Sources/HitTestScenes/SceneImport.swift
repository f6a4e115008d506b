import Foundation
import HitTestKit

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Imports view trees dumped from real apps into scenes.
public enum SceneImporter {
    /// A scene and what could not be read on the way.
    public struct Result: Sendable {
        /// The imported scene.
        public var scene: SceneFile
        /// One line per thing skipped or guessed: `line N: …`.
        public var warnings: [String]
    }

    /// The kinds of input `importScene` recognises.
    public enum Format: String, Sendable {
        /// UIKit's `recursiveDescription` text (`po view.recursiveDescription()`).
        case recursiveDescription
        /// XCUITest / Appium page source XML.
        case pageSource
    }

    /// The format of `text`: XML page source if it looks like XML, else `recursiveDescription`.
    public static func detectFormat(_ text: String) -> Format {
        let head = text.prefix(4096)
        return head.contains("<?xml") || head.contains("<AppiumAUT") || head.contains("<XCUIElementType")
            ? .pageSource : .recursiveDescription
    }

    /// Imports either format (detected).
    /// - Throws: `SceneError` when nothing usable is found.
    public static func importScene(_ text: String) throws(SceneError) -> Result {
        switch detectFormat(text) {
        case .recursiveDescription: return try recursiveDescription(text)
        case .pageSource: return try pageSource(text)
        }
    }

    // MARK: - recursiveDescription

    /// Imports UIKit's `recursiveDescription`: class, frame, hidden, alpha,
    /// userInteractionEnabled, transform, clipsToBounds, tag, and scroll views' contentOffset
    /// (which becomes the bounds origin); nesting by the `   | ` indentation. Layer-only lines
    /// are skipped; a description wrapped over several lines is joined; lines that cannot be
    /// read (a truncated dump's `...`) give a warning, and a view whose parent was lost is
    /// attached to the nearest ancestor that was read. A frame under a transform is UIKit's
    /// bounding box; it is turned back into the untransformed frame the scene format stores.
    public static func recursiveDescription(_ text: String) throws(SceneError) -> Result {
        var warnings: [String] = []
        var entries: [(depth: Int, line: Int, node: SceneNode)] = []
        var counters: [String: Int] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        while i < lines.count {
            let number = i + 1
            var line = lines[i]
            i += 1
            guard let open = line.firstIndex(of: "<") else {
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { warnings.append("line \(number): not a view, skipped: \(line.prefix(60))") }
                continue
            }
            // A description wrapped onto the next lines: join until the brackets balance.
            while depthOfBrackets(line) > 0, i < lines.count, !lines[i].contains("   | <") {
                line += " " + lines[i].trimmingCharacters(in: .whitespaces)
                i += 1
            }
            let prefix = line[..<open]
            let depth = prefix.filter { $0 == "|" }.count
            let body = String(line[line.index(after: open)...])
            guard let colon = body.firstIndex(of: ":") else {
                warnings.append("line \(number): no class name, skipped")
                continue
            }
            let className = String(body[..<colon]).trimmingCharacters(in: .whitespaces)
            if className.hasSuffix("Layer") || className == "CALayer" {
                continue  // a layer-only line (layer dumps, sublayers): not a view
            }
            let fields = parseFields(String(body[body.index(after: colon)...]))
            guard let frameText = fields["frame"], let frame = parseFrame(frameText) else {
                warnings.append("line \(number): \(className) has no readable frame, skipped")
                continue
            }
            counters[className, default: 0] += 1
            var node = SceneNode(id: "\(className)-\(counters[className]!)", className: fields["baseClass"].map { "\(className) (\($0))" } ?? className, frame: frame)
            if let hidden = fields["hidden"] { node.hidden = hidden == "YES" }
            if let alpha = fields["alpha"].flatMap(Double.init), alpha.isFinite { node.alpha = alpha }
            if fields["userInteractionEnabled"] == "NO" { node.interactive = false }
            if fields["clipsToBounds"] == "YES" { node.clipsToBounds = true }
            if let tag = fields["tag"].flatMap(Int.init) { node.tag = tag }
            if let t = fields["transform"].flatMap(parseTransform) {
                // The dump's frame is the transformed bounding box; recover the frame as set.
                let v = View()
                v.transform = t
                v.frame = frame
                node.transform = t
                node.frame = Rect(
                    x: v.center.x - v.bounds.width / 2, y: v.center.y - v.bounds.height / 2,
                    width: v.bounds.width, height: v.bounds.height)
            }
            if let offset = fields["contentOffset"].flatMap(parsePair) {
                node.bounds = Rect(origin: offset, size: node.frame.size)
            }
            entries.append((depth, number, node))
        }
        guard let first = entries.first else {
            throw SceneError(path: [], message: "no view found in the recursiveDescription text")
        }
        // Nest by depth with a stack of open ancestors.
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
        return Result(scene: SceneFile(root: stack[0].node), warnings: warnings)
    }

    private static func depthOfBrackets(_ s: String) -> Int {
        var d = 0
        for c in s {
            if c == "<" { d += 1 } else if c == ">" { d -= 1 }
        }
        return d
    }

    /// `key = value; key = value; …`, values possibly nested in <>, (), [] or {} and quotes.
    private static func parseFields(_ s: String) -> [String: String] {
        var fields: [String: String] = [:]
        var depth = 0
        var quote = false
        var current = ""
        func flush() {
            let part = current.trimmingCharacters(in: .whitespaces)
            current = ""
            if let eq = part.range(of: " = ") {
                fields[String(part[..<eq.lowerBound]).trimmingCharacters(in: .whitespaces)] = String(part[eq.upperBound...])
            } else if let colon = part.range(of: ": ") {  // `contentOffset: {0, 0}`
                fields[String(part[..<colon.lowerBound])] = String(part[colon.upperBound...])
            }
        }
        for c in s {
            if c == "'" { quote.toggle() }
            if !quote {
                if "<([{".contains(c) { depth += 1 }
                if ">)]}".contains(c) {
                    depth -= 1
                    if depth < 0 { break }  // the closing > of the description
                }
                if c == ";" && depth == 0 {
                    flush()
                    continue
                }
            }
            current.append(c)
        }
        flush()
        return fields
    }

    /// `(x y; w h)`.
    private static func parseFrame(_ s: String) -> Rect? {
        let cleaned = s.trimmingCharacters(in: CharacterSet(charactersIn: "() "))
        let parts = cleaned.split(separator: ";").map { $0.split(separator: " ").compactMap { Double($0) } }
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2 else { return nil }
        let v = parts[0] + parts[1]
        guard v.allSatisfy(\.isFinite) else { return nil }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// `[a, b, c, d, tx, ty]`.
    private static func parseTransform(_ s: String) -> AffineTransform? {
        let v = s.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard v.count == 6, v.allSatisfy(\.isFinite) else { return nil }
        return AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
    }

    /// `{x, y}`.
    private static func parsePair(_ s: String) -> Point? {
        let v = s.trimmingCharacters(in: CharacterSet(charactersIn: "{}> ")).split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard v.count == 2, v.allSatisfy(\.isFinite) else { return nil }
        return Point(x: v[0], y: v[1])
    }

    // MARK: - Page source XML

    /// Imports XCUITest / Appium page source: each element's type, x, y, width, height,
    /// enabled and visible. Frames are absolute on screen and become relative to the parent;
    /// `enabled="false"` becomes non-interactive, `visible="false"` hidden. The application
    /// element is the root; a wrapper such as `<AppiumAUT>` is skipped. Ids are the element's
    /// `name` when it is unique, else its type and a number.
    public static func pageSource(_ text: String) throws(SceneError) -> Result {
        let delegate = PageSourceParser()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw SceneError(path: [], message: "not valid XML at line \(parser.lineNumber): \(parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error")")
        }
        guard let root = delegate.root else {
            throw SceneError(path: [], message: "no element with x, y, width and height found")
        }
        // Unique ids: names used once keep them.
        var nameCounts: [String: Int] = [:]
        var stack = [root]
        while let e = stack.popLast() {
            if let n = e.name { nameCounts[n, default: 0] += 1 }
            stack.append(contentsOf: e.children)
        }
        var typeCounters: [String: Int] = [:]
        var used = Set<String>()
        func convert(_ e: PageSourceParser.Element, parentOrigin: Point) -> SceneNode {
            let shortType = e.type.replacingOccurrences(of: "XCUIElementType", with: "")
            var id: String
            if let n = e.name, nameCounts[n] == 1, !used.contains(n) {
                id = n
            } else {
                repeat {
                    typeCounters[shortType, default: 0] += 1
                    id = "\(shortType)-\(typeCounters[shortType]!)"
                } while used.contains(id)
            }
            used.insert(id)
            var node = SceneNode(
                id: id, className: e.type,
                frame: Rect(x: e.frame.minX - parentOrigin.x, y: e.frame.minY - parentOrigin.y, width: e.frame.width, height: e.frame.height))
            node.interactive = e.enabled
            node.hidden = !e.visible
            node.children = e.children.map { convert($0, parentOrigin: e.frame.origin) }
            return node
        }
        let scene = SceneFile(root: convert(root, parentOrigin: .zero))
        return Result(scene: scene, warnings: delegate.warnings)
    }
}

/// Builds a tree of the elements that have a frame.
private final class PageSourceParser: NSObject, XMLParserDelegate {
    final class Element {
        var type: String
        var name: String?
        var frame: Rect
        var enabled: Bool
        var visible: Bool
        var children: [Element] = []
        init(type: String, name: String?, frame: Rect, enabled: Bool, visible: Bool) {
            self.type = type
            self.name = name
            self.frame = frame
            self.enabled = enabled
            self.visible = visible
        }
    }

    var root: Element?
    var warnings: [String] = []
    private var stack: [Element?] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        let numbers = ["x", "y", "width", "height"].map { attributes[$0].flatMap(Double.init) }
        guard numbers.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            if attributes["x"] != nil || attributes["width"] != nil {
                warnings.append("line \(parser.lineNumber): <\(elementName)> has an unreadable frame, skipped with its children")
            }
            stack.append(nil)
            return
        }
        let e = Element(
            type: attributes["type"] ?? elementName, name: attributes["name"].flatMap { $0.isEmpty ? nil : $0 },
            frame: Rect(x: numbers[0]!, y: numbers[1]!, width: numbers[2]!, height: numbers[3]!),
            enabled: attributes["enabled"] != "false", visible: attributes["visible"] != "false")
        if let parent = stack.last(where: { $0 != nil }) ?? nil {
            parent.children.append(e)
        } else if root == nil {
            root = e
        } else {
            warnings.append("line \(parser.lineNumber): a second top-level element <\(elementName)>, skipped")
        }
        stack.append(e)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = stack.popLast()
    }
}
