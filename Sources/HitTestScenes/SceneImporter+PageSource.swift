import HitTestKit

/// The page source reader behind `SceneImporter.pageSource(_:)`: an iterative scanner for the
/// XML that XCUITest / Appium write (elements, attributes, comments, processing instructions,
/// CDATA and a DOCTYPE), then a bottom-up build of the scene with flat arrays (no recursion,
/// no tree of objects whose release would recurse). Foundation's `XMLParser` is not used: on
/// Linux (FoundationXML over libxml2) `parse()` returns `true` for a truncated document, with
/// only `parserError` set (code 5), which is how a cut-off page source used to import partly
/// with success; its depth limits also depend on the libxml2 build. This scanner checks every
/// tag itself and has no depth limit.
enum PageSourceReader {
    /// One element that has a frame.
    struct Element {
        var type: String
        var name: String?
        var frame: Rect
        var enabled: Bool
        var visible: Bool
        /// The nearest enclosing element with a frame, or -1.
        var parent: Int
        var line: Int
    }

    static func read(_ text: String) throws(SceneImporter.ImportError) -> SceneImporter.Result {
        var warnings = ImportWarnings()
        let elements: [Element]
        do {
            elements = try scan(Array(text.utf8), warnings: &warnings)
        } catch {
            throw SceneImporter.ImportError(error, warnings: warnings.lines)
        }
        return try build(elements, warnings: &warnings)
    }

    /// The scene of the elements (in document order, each after its parent): the first
    /// top-level element is the root, frames become relative to the parent, ids are the unique
    /// names or the short type and a number, and `PageSourceTouchRule` decides who takes
    /// touches. Shared by the page source and the XCUITest description readers.
    static func build(_ elements: [Element], warnings: inout ImportWarnings) throws(SceneImporter.ImportError) -> SceneImporter.Result {
        guard let rootIndex = elements.firstIndex(where: { $0.parent < 0 }) else {
            throw SceneImporter.ImportError(
                SceneError(path: [], message: "no element with x, y, width and height found"), warnings: warnings.lines)
        }
        // Elements outside the first top-level element are left out with their subtrees
        // (document order is pre-order: a parent comes before its children).
        var skipped = [Bool](repeating: false, count: elements.count)
        var children = [[Int]](repeating: [], count: elements.count)
        for (i, e) in elements.enumerated() {
            if e.parent < 0 {
                if i != rootIndex {
                    skipped[i] = true
                    warnings.append("line \(e.line): a second top-level element <\(e.type)>, skipped")
                }
            } else if skipped[e.parent] {
                skipped[i] = true
            } else {
                children[e.parent].append(i)
            }
        }
        // Ids: a name used once is the id; otherwise the short type and a number, in document order.
        var nameCounts: [String: Int] = [:]
        for (i, e) in elements.enumerated() where !skipped[i] {
            if let n = e.name { nameCounts[n, default: 0] += 1 }
        }
        var ids = [String](repeating: "", count: elements.count)
        var typeCounters: [String: Int] = [:]
        var used = Set<String>()
        for (i, e) in elements.enumerated() where !skipped[i] {
            let shortType = PageSourceTouchRule.shortType(e.type)
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
            ids[i] = id
        }
        // Bottom-up: children (later in document order) are finished before their parent.
        var nodes = [SceneNode?](repeating: nil, count: elements.count)
        for i in stride(from: elements.count - 1, through: rootIndex, by: -1) where !skipped[i] {
            let e = elements[i]
            let origin = e.parent >= 0 ? elements[e.parent].frame.origin : Point.zero
            var node = SceneNode(
                id: ids[i], className: e.type,
                frame: Rect(x: e.frame.minX - origin.x, y: e.frame.minY - origin.y, width: e.frame.width, height: e.frame.height))
            node.interactive = e.enabled
            node.hidden = !e.visible
            PageSourceTouchRule.apply(to: &node, type: e.type, hasChildren: !children[i].isEmpty)
            node.children.reserveCapacity(children[i].count)
            for c in children[i] {
                node.children.append(nodes[c]!)
                nodes[c] = nil
            }
            nodes[i] = node
        }
        let scene = SceneImporter.scene(root: nodes[rootIndex]!, warnings: &warnings)
        return SceneImporter.Result(scene: scene, warnings: warnings.lines)
    }

    // MARK: - The scanner

    private static func fail(_ line: Int, _ message: String) -> SceneError {
        SceneError(path: [], message: "not valid XML at line \(line): \(message)")
    }

    /// The elements with a frame, in document order. Checks that the document is well-formed
    /// enough to trust: every tag closed and matched, attributes quoted, nothing cut off.
    static func scan(_ b: [UInt8], warnings: inout ImportWarnings) throws(SceneError) -> [Element] {
        var elements: [Element] = []
        // Open tags: name, the element index (nil when it has no frame), the line.
        var open: [(name: ArraySlice<UInt8>, element: Int?, line: Int)] = []
        var framedParent: [Int] = []  // the innermost open element with a frame, per open tag
        var sawRoot = false
        var line = 1
        var i = 0
        let n = b.count

        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            guard pattern.count <= n else { return nil }
            var j = start
            while j + pattern.count <= n {
                if b[j] == pattern[0] {
                    var k = 1
                    while k < pattern.count, b[j + k] == pattern[k] { k += 1 }
                    if k == pattern.count { return j }
                }
                j += 1
            }
            return nil
        }
        func countLines(_ from: Int, _ to: Int) {
            var j = from
            while j < to {
                if b[j] == 0x0A { line += 1 }
                j += 1
            }
        }
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }
        func isNameByte(_ c: UInt8) -> Bool { !isSpace(c) && c != UInt8(ascii: ">") && c != UInt8(ascii: "/") && c != UInt8(ascii: "=") }
        func starts(_ s: String, at j: Int) -> Bool {
            let p = Array(s.utf8)
            return j + p.count <= n && b[j..<(j + p.count)].elementsEqual(p)
        }

        while i < n {
            guard b[i] == UInt8(ascii: "<") else {
                if b[i] == 0x0A { line += 1 }
                i += 1
                continue
            }
            let tagLine = line
            let next = i + 1 < n ? b[i + 1] : 0
            if next == UInt8(ascii: "!"), starts("<!--", at: i) {
                guard let end = find(Array("-->".utf8), from: i + 4) else { throw fail(tagLine, "a comment is not closed (truncated?)") }
                countLines(i, end + 3)
                i = end + 3
            } else if next == UInt8(ascii: "!"), starts("<![CDATA[", at: i) {
                guard let end = find(Array("]]>".utf8), from: i + 9) else { throw fail(tagLine, "a CDATA section is not closed (truncated?)") }
                countLines(i, end + 3)
                i = end + 3
            } else if next == UInt8(ascii: "?") {
                guard let end = find(Array("?>".utf8), from: i + 2) else { throw fail(tagLine, "a processing instruction is not closed (truncated?)") }
                countLines(i, end + 2)
                i = end + 2
            } else if next == UInt8(ascii: "!") {
                // A DOCTYPE, possibly with an internal subset in [ ].
                var j = i + 2
                var bracket = 0
                while j < n, !(b[j] == UInt8(ascii: ">") && bracket == 0) {
                    if b[j] == UInt8(ascii: "[") { bracket += 1 } else if b[j] == UInt8(ascii: "]") { bracket -= 1 }
                    j += 1
                }
                guard j < n else { throw fail(tagLine, "a <! declaration is not closed (truncated?)") }
                countLines(i, j + 1)
                i = j + 1
            } else if next == UInt8(ascii: "/") {
                var j = i + 2
                while j < n, isNameByte(b[j]) { j += 1 }
                let name = b[(i + 2)..<j]
                while j < n, isSpace(b[j]) { j += 1 }
                guard j < n, b[j] == UInt8(ascii: ">") else { throw fail(tagLine, "an end tag is not closed (truncated?)") }
                guard let top = open.popLast() else {
                    throw fail(tagLine, "</\(String(decoding: name, as: UTF8.self))> closes nothing")
                }
                framedParent.removeLast()
                guard top.name.elementsEqual(name) else {
                    throw fail(tagLine, "</\(String(decoding: name, as: UTF8.self))> does not match <\(String(decoding: top.name, as: UTF8.self))> opened at line \(top.line)")
                }
                countLines(i, j + 1)
                i = j + 1
            } else {
                // A start tag.
                var j = i + 1
                while j < n, isNameByte(b[j]) { j += 1 }
                let name = b[(i + 1)..<j]
                guard !name.isEmpty else {
                    throw fail(tagLine, j >= n ? "the document ends inside a tag (truncated?)" : "a '<' that starts no tag")
                }
                var attributes: [String: String] = [:]
                var selfClosing = false
                while true {
                    while j < n, isSpace(b[j]) {
                        if b[j] == 0x0A { line += 1 }
                        j += 1
                    }
                    guard j < n else { throw fail(tagLine, "the document ends inside <\(String(decoding: name, as: UTF8.self))> (truncated?)") }
                    if b[j] == UInt8(ascii: ">") {
                        j += 1
                        break
                    }
                    if b[j] == UInt8(ascii: "/") {
                        guard j + 1 < n else { throw fail(tagLine, "the document ends inside a tag (truncated?)") }
                        guard b[j + 1] == UInt8(ascii: ">") else { throw fail(line, "'/' inside a tag") }
                        selfClosing = true
                        j += 2
                        break
                    }
                    let keyStart = j
                    while j < n, isNameByte(b[j]) { j += 1 }
                    let key = String(decoding: b[keyStart..<j], as: UTF8.self)
                    while j < n, isSpace(b[j]) { j += 1 }
                    guard j < n else { throw fail(tagLine, "the document ends inside a tag (truncated?)") }
                    guard b[j] == UInt8(ascii: "="), !key.isEmpty else { throw fail(line, "attribute \"\(key)\" has no value") }
                    j += 1
                    while j < n, isSpace(b[j]) { j += 1 }
                    guard j < n, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") else {
                        throw fail(line, j < n ? "attribute \"\(key)\" is not quoted" : "the document ends inside a tag (truncated?)")
                    }
                    let quote = b[j]
                    let valueStart = j + 1
                    j = valueStart
                    while j < n, b[j] != quote {
                        if b[j] == 0x0A { line += 1 }
                        j += 1
                    }
                    guard j < n else { throw fail(tagLine, "the document ends inside attribute \"\(key)\" (truncated?)") }
                    attributes[key] = decodeEntities(b[valueStart..<j])
                    j += 1
                }
                i = j
                if open.isEmpty {
                    if sawRoot { throw fail(tagLine, "a second root element <\(String(decoding: name, as: UTF8.self))>") }
                    sawRoot = true
                }
                let parent = framedParent.last ?? -1
                var index: Int? = nil
                let numbers = ["x", "y", "width", "height"].map { attributes[$0].flatMap(Double.init) }
                // Finite and within ±1e300, so that frames made relative to the parent stay finite.
                if numbers.allSatisfy({ $0 != nil && $0!.isFinite && abs($0!) <= 1e300 }) {
                    let typeName = attributes["type"] ?? String(decoding: name, as: UTF8.self)
                    elements.append(
                        Element(
                            type: typeName, name: attributes["name"].flatMap { $0.isEmpty ? nil : $0 },
                            frame: Rect(x: numbers[0]!, y: numbers[1]!, width: numbers[2]!, height: numbers[3]!),
                            enabled: attributes["enabled"] != "false", visible: attributes["visible"] != "false",
                            parent: parent, line: tagLine))
                    index = elements.count - 1
                } else if attributes["x"] != nil || attributes["width"] != nil {
                    warnings.append("line \(tagLine): <\(String(decoding: name, as: UTF8.self))> has an unreadable frame; its children are attached to its parent")
                }
                if !selfClosing {
                    open.append((name, index, tagLine))
                    framedParent.append(index ?? parent)
                }
            }
        }
        if let top = open.last {
            throw fail(
                b.last == 0x0A ? max(1, line - 1) : line,
                "the document ends with \(open.count) element\(open.count == 1 ? "" : "s") not closed, the innermost <\(String(decoding: top.name, as: UTF8.self))> opened at line \(top.line) (truncated?)")
        }
        if !sawRoot { throw fail(line, "no element found") }
        return elements
    }

    /// The five predefined entities and character references; anything else is kept as is.
    static func decodeEntities(_ s: ArraySlice<UInt8>) -> String {
        guard s.contains(UInt8(ascii: "&")) else { return String(decoding: s, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            guard s[i] == UInt8(ascii: "&"), let semi = s[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                out.append(s[i])
                i += 1
                continue
            }
            let name = String(decoding: s[(i + 1)..<semi], as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch name {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst(1)).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                i = semi + 1
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
