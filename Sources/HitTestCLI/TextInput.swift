import Foundation
import HitTestKit

extension HitTestCLI {
    /// The rules every text input of the tool follows (scene files, touch scripts, points files,
    /// dumps to import): UTF-8, lines ending at LF, CRLF or a lone CR (`TextLineReader`, or, in
    /// the points parser's fast path, the same rule byte by byte: `PointsCSV.normalizingLoneCRs`).
    ///
    /// UTF-16 or UTF-32 text (with a byte order mark, or without one: NUL bytes between the
    /// characters) and binary files (a NUL byte) are refused with a message that says so,
    /// instead of being read as text whose NUL bytes would reach the terminal. [ours]
    enum TextInput {
        /// How much of the start of a file `check` looks at when it is not given the whole.
        static let prefixBytes = 1 << 16

        /// Refuses `bytes` (a whole text, or its first bytes when `whole` is false) when it is
        /// not UTF-8 text; `name` is the input as messages name it.
        static func check(_ bytes: UnsafeRawBufferPointer, name: String, whole: Bool = true) throws {
            let n = bytes.count
            guard n > 0, let base = bytes.baseAddress else { return }
            func starts(_ bom: [UInt8]) -> Bool { n >= bom.count && bom.indices.allSatisfy { bytes[$0] == bom[$0] } }
            let convert = "hittest reads UTF-8 text: convert it first (iconv -f UTF-16 -t UTF-8)"
            if starts([0xFF, 0xFE, 0, 0]) || starts([0, 0, 0xFE, 0xFF]) {
                throw Failure(message: "\(name) is UTF-32 text (it starts with a UTF-32 byte order mark); hittest reads UTF-8 text: convert it first (iconv -f UTF-32 -t UTF-8)")
            }
            if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) {
                throw Failure(message: "\(name) is UTF-16 text (it starts with a UTF-16 byte order mark); \(convert)")
            }
            let scanned = whole ? n : min(n, prefixBytes)
            guard let nul = memchr(base, 0, scanned) else { return }
            let at = base.distance(to: UnsafeRawPointer(nul))
            // UTF-16 without a byte order mark: ASCII characters with a NUL beside each.
            let sample = min(scanned, 64)
            var even = 0, odd = 0
            for k in 0..<sample where bytes[k] == 0 { if k % 2 == 0 { even += 1 } else { odd += 1 } }
            let pairs = sample / 2
            if pairs >= 2, max(even, odd) * 4 >= pairs * 3, min(even, odd) * 8 <= pairs {
                throw Failure(message: "\(name) looks like UTF-16 text (NUL bytes between its characters); \(convert)")
            }
            throw Failure(message: "\(name): line \(lineNumber(of: at, in: bytes)) has a NUL byte: it is not a text file")
        }

        /// The 1-based number of the line (as `TextLineReader` counts them) that holds byte `offset`.
        static func lineNumber(of offset: Int, in bytes: UnsafeRawBufferPointer) -> Int {
            var reader = TextLineReader()
            reader.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<offset])) { _, _ in }
            return reader.lineCount + 1
        }

        /// `check` of a whole `Data`.
        static func check(_ data: Data, name: String) throws {
            try data.withUnsafeBytes { try check($0, name: name) }
        }
    }
}
