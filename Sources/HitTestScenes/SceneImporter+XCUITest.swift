import HitTestKit

/// The reader behind `SceneImporter.xcuiTestDescription(_:)`: the text XCUITest prints for an
/// element (`print(app.debugDescription)`, `po app` in a failing UI test), whose
/// `Element subtree:` section is the accessibility tree, one element a line:
///
/// ```
/// Element subtree:
///  →Window (Main), 0x281e2eae0, {{0.0, 0.0}, {375.0, 667.0}}
///     Other, 0x281e2e760, {{0.0, 0.0}, {375.0, 667.0}}
///       Button, 0x281e2fc60, {{8.0, 20.0}, {44.0, 44.0}}, identifier: 'back', label: 'Back', Disabled
/// ```
///
/// Nesting is the indentation (the `→` that marks the element asked about counts as one
/// column); the type comes first (`Window (Main)` is a `Window`), then the address, the frame
/// in screen coordinates, and fields: `identifier: '…'`, `label: '…'`, `value: …`, flags such as
/// `Disabled` and `Selected`. The elements become the same `Element`s a page source gives and
/// are built by the same code (`PageSourceReader.build`): frames made relative, ids from the
/// identifier or label, and `PageSourceTouchRule` deciding who takes touches. What XCUITest
/// leaves out stays out [ours]: hidden views (only accessible elements are listed),
/// transforms (a frame is the element's bounding box) and scroll offsets. Lines are read with
/// `TextLineReader` (LF, CRLF or CR); nothing recurses per level.
enum XCUITestDescriptionReader {
    /// Whether `head` looks like this text: an `Element subtree:` line, or two lines shaped
    /// `Type, 0x…, {{x, y}, {w, h}}`.
    static func looks(_ head: String) -> Bool {
        if head.contains("Element subtree:") { return true }
        var count = 0
        for line in TextLineReader.lines(of: head).prefix(400) where elementLine(line) != nil {
            count += 1
            if count >= 2 { return true }
        }
        return false
    }

    static func read(_ text: String) throws(SceneImporter.ImportError) -> SceneImporter.Result {
        var warnings = ImportWarnings()
        let lines = TextLineReader.lines(of: text)
        // The tree: after `Element subtree:` (else from the first element line), up to the
        // `Path to element:` / `Query chain:` sections.
        var start = 0
        if let i = lines.firstIndex(where: { $0.trimmingSpaces == "Element subtree:" }) { start = i + 1 }
        var elements: [PageSourceReader.Element] = []
        // Open ancestors: indentation and element index (-1 for one without a frame: its
        // children attach to the nearest ancestor with one).
        var open: [(indent: Int, element: Int)] = []
        for number in start..<lines.count {
            let line = lines[number]
            let trimmed = line.trimmingSpaces
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("Path to element:") || trimmed.hasPrefix("Query chain:") { break }
            if elements.isEmpty && open.isEmpty && trimmed.hasPrefix("Attributes:") { continue }
            guard let e = elementLine(line) else {
                warnings.append("line \(number + 1): not an element, skipped: \(String(trimmed.prefix(60)))")
                continue
            }
            while let last = open.last, last.indent >= e.indent { open.removeLast() }
            if open.isEmpty && !elements.isEmpty {
                warnings.append("line \(number + 1): \(e.type) is not inside the first element; skipped with what it holds")
                open.append((e.indent, -2))
                continue
            }
            if let last = open.last, last.element == -2 {
                open.append((e.indent, -2))
                continue
            }
            let parent = open.last(where: { $0.element >= 0 })?.element ?? -1
            guard let frame = e.frame else {
                let what = e.hasFrameField ? "has an unreadable frame" : "has no frame"
                warnings.append("line \(number + 1): \(e.type) \(what); its children are attached to its parent")
                open.append((e.indent, -1))
                continue
            }
            elements.append(
                PageSourceReader.Element(
                    type: "XCUIElementType" + e.type, name: e.identifier ?? e.label, frame: frame,
                    enabled: !e.flags.contains("Disabled"), visible: true, parent: parent, line: number + 1))
            open.append((e.indent, elements.count - 1))
        }
        guard !elements.isEmpty else {
            throw SceneImporter.ImportError(
                SceneError(
                    path: [],
                    message: "no element with a frame found in the XCUITest description (\(lines.count) lines read, \(warnings.count) skipped)"),
                warnings: warnings.lines)
        }
        return try PageSourceReader.build(elements, warnings: &warnings)
    }

    /// One line of the tree, read.
    struct Line {
        var indent: Int
        var type: String
        var frame: Rect?
        /// A `{{…` field was there (whether it could be read or not).
        var hasFrameField = false
        var identifier: String?
        var label: String?
        var flags: Set<String>
    }

    /// The line read as an element: `Type, 0x…, {{x, y}, {w, h}}, fields…`, or nil when it is
    /// not one (no address after the type). A frame that is not four finite numbers within
    /// ±1e300 is nil.
    static func elementLine(_ line: Substring) -> Line? {
        var indent = 0
        var rest = line[...]
        while let c = rest.first, c == " " || c == "\t" || c == "→" || c == "↳" {
            indent += 1
            rest = rest.dropFirst()
        }
        let fields = split(rest)
        guard fields.count >= 2, fields[1].hasPrefix("0x"), !fields[0].isEmpty else { return nil }
        var type = fields[0]
        if let paren = type.firstIndex(of: " ") { type = type[..<paren] }  // `Window (Main)`
        guard type.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        var out = Line(indent: indent, type: String(type), frame: nil, hasFrameField: false, identifier: nil, label: nil, flags: [])
        for field in fields.dropFirst(2) {
            if field.hasPrefix("{{") {
                if !out.hasFrameField { out.frame = frame(field) }
                out.hasFrameField = true
            } else if let v = quoted(field, "identifier: ") {
                out.identifier = v.isEmpty ? nil : v
            } else if let v = quoted(field, "label: ") {
                out.label = v.isEmpty ? nil : v
            } else if !field.contains(":") {
                out.flags.insert(String(field))
            }
        }
        return out
    }

    /// The fields of a line: split at `, ` outside braces and quoted values. A value quoted
    /// with `'` ends at a `'` followed by `, ` or the end of the line, so an apostrophe inside
    /// (`label: 'What's new'`) stays in it.
    static func split(_ s: Substring) -> [Substring] {
        var fields: [Substring] = []
        var depth = 0
        var quoted = false
        var fieldStart = s.startIndex
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            let next = s.index(after: i)
            if quoted {
                if c == "'" && (next == s.endIndex || s[next...].hasPrefix(", ")) { quoted = false }
            } else if c == "'" && s[fieldStart..<i].hasSuffix(": ") {
                quoted = true
            } else if c == "{" {
                depth += 1
            } else if c == "}" {
                depth = max(0, depth - 1)
            } else if c == "," && depth == 0 && next < s.endIndex && s[next] == " " {
                fields.append(s[fieldStart..<i])
                fieldStart = s.index(after: next)
                i = fieldStart
                continue
            }
            i = next
        }
        fields.append(s[fieldStart..<s.endIndex])
        return fields
    }

    /// `{{x, y}, {w, h}}` as a rect, if it is whole and its four numbers are finite and within
    /// ±1e300 (so that frames made relative to the parent stay finite).
    static func frame(_ field: Substring) -> Rect? {
        guard field.hasSuffix("}}") else { return nil }  // a line cut short inside its frame
        let numbers = field.split(whereSeparator: { "{}, ".contains($0) }).map { Double(String($0)) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 != nil && $0!.isFinite && abs($0!) <= 1e300 }) else { return nil }
        return Rect(x: numbers[0]!, y: numbers[1]!, width: numbers[2]!, height: numbers[3]!)
    }

    /// The value of `key'…'`, without the quotes.
    static func quoted(_ field: Substring, _ key: String) -> String? {
        guard field.hasPrefix(key + "'"), field.hasSuffix("'"), field.count >= key.count + 2 else { return nil }
        return String(field.dropFirst(key.count + 1).dropLast())
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
