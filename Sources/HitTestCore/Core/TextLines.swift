/// The one line reader of every text input (touch scripts, points files, scene texts, dumps):
/// a line ends at LF, at CRLF or at a lone CR, and the last line needs no terminator.
///
/// Swift reads `"\r\n"` as one `Character`, so splitting a `String` on `"\n"` silently keeps
/// CRLF files in one piece; this reader works on bytes and treats the three terminators alike.
/// It is incremental: feed it a file in chunks of any size (a CR at the end of one chunk and
/// an LF at the start of the next are one terminator) and it hands out each whole line once.
public struct TextLineReader: Sendable {
    /// The bytes of the line not yet ended.
    private var pending: [UInt8] = []
    /// The last byte fed was a CR: an LF that comes next belongs to it.
    private var afterCR = false
    /// The number of lines handed out so far.
    public private(set) var lineCount = 0

    /// A reader at the start of a text.
    public init() {}

    /// Feeds the next bytes of the text and calls `body` with each line they complete (its
    /// bytes without the terminator) and its 1-based number, in order.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void
    ) rethrows {
        var start = 0
        var i = 0
        let n = bytes.count
        if afterCR, n > 0 {
            afterCR = false
            if bytes[0] == 0x0A {
                start = 1
                i = 1
            }
        }
        while i < n {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                try emit(UnsafeRawBufferPointer(rebasing: bytes[start..<i]), body)
                if b == 0x0D {
                    if i + 1 == n {
                        afterCR = true
                    } else if bytes[i + 1] == 0x0A {
                        i += 1
                    }
                }
                start = i + 1
            }
            i += 1
        }
        if start < n { pending.append(contentsOf: bytes[start..<n]) }
    }

    /// Ends the text: hands out its last line when it has no terminator (a text that ends with
    /// a terminator has no empty last line).
    public mutating func finish(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
        afterCR = false
        guard !pending.isEmpty else { return }
        try emit(UnsafeRawBufferPointer(start: nil, count: 0), body)
    }

    private mutating func emit(
        _ tail: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws -> Void
    ) rethrows {
        lineCount += 1
        if pending.isEmpty {
            try body(tail, lineCount)
            return
        }
        pending.append(contentsOf: tail)
        defer { pending.removeAll(keepingCapacity: true) }
        try pending.withUnsafeBytes { try body($0, lineCount) }
    }

    /// The lines of a whole text, each without its terminator (LF, CRLF or a lone CR).
    public static func lines(of text: String) -> [Substring] {
        var text = text
        let ranges = text.withUTF8 { lineRanges(in: $0) }
        let utf8 = text.utf8
        return ranges.map { r in
            let lower = utf8.index(utf8.startIndex, offsetBy: r.lowerBound)
            let upper = utf8.index(lower, offsetBy: r.count)
            return text[lower..<upper]
        }
    }

    /// The byte ranges of the lines of a whole text, each without its terminator (LF, CRLF
    /// or a lone CR); a text that ends with a terminator has no empty last line.
    public static func lineRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                ranges.append(start..<i)
                if b == 0x0D, i + 1 < n, bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < n { ranges.append(start..<n) }
        return ranges
    }
}

extension StringProtocol {
    /// The text with every control character (C0, DEL, C1) and the backslash escaped, so that
    /// it stays on one line and reaches a terminal inert: `\n`, `\r`, `\t`, `\\`, and `\u{XX}`
    /// for the others (Swift's spelling). Reversible: a tool can unescape it exactly. Every
    /// text output that carries names from input (ids, class names, recognizer names) goes
    /// through it.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) || $0 == "\\" })
        else { return String(self) }
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
