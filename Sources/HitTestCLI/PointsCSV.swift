import Foundation
import HitTestKit


extension HitTestCLI {
    /// The CSV path of `query` at near disk speed: the input is cut into chunks of about 4 MB
    /// (after a newline) that are parsed, and later written, on all cores.
    ///
    /// Parsing: a line `x,y` of plain decimals (optional sign, digits, optional fraction,
    /// optionally CRLF) takes the fast path: all digits into one UInt64 mantissa, then
    /// `Double(mantissa) / 10^fraction digits`, which is exact (Clinger) when the mantissa is at
    /// most 2^53 and there are at most 22 fraction digits. Every other line (spaces, exponents,
    /// long mantissas, header, empty, bad) goes through `CSVLines`, the byte parser with its
    /// strtod fallback, so the accepted syntax and the error messages are unchanged.
    ///
    /// Writing: each point line is copied as it is (spaces kept; its CR and LF dropped), then
    /// `,` and the hit view's id, from a table made once per distinct handle.
    ///
    /// Lines end at LF, CRLF or a lone CR, as `TextLineReader` reads every other text input:
    /// the scanning here works on LF (and a CR just before it); a piece in which the parser
    /// meets a lone CR (`loneCR`) is parsed again from a copy with each lone CR made an LF
    /// (`normalizingLoneCRs`: the same lines, the same line numbers, the same bytes but for the
    /// terminators). Text without a lone CR costs nothing more.
    enum PointsCSV {
        /// Target chunk size.
        static let chunkBytes = 4 << 20

        /// The line `chunk` reports when a line holds a lone CR (a CR not followed by an LF): the
        /// caller parses the text again with its lone CRs made LFs (`normalizingLoneCRs`). Only
        /// the general path can meet one: the fast paths take a CR only just before an LF (or at
        /// the end of the text, where it ends the last line as `TextLineReader` ends it).
        static let loneCR = -1

        /// The offset of the first lone CR in p[0..<n], or nil.
        static func firstLoneCR(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int? {
            var from = 0
            while from < n, let q = memchr(p + from, 0x0D, n - from) {
                let k = UnsafeRawPointer(p).distance(to: UnsafeRawPointer(q))
                if k + 1 == n || p[k + 1] != 0x0A { return k }
                from = k + 2
            }
            return nil
        }

        /// p[0..<n] with every lone CR made an LF, in a new buffer (the caller deallocates it),
        /// or nil when there is none: then the text's lines are already what `TextLineReader`
        /// reads, for the parser and writer that end lines at LF.
        static func normalizingLoneCRs(_ p: UnsafePointer<UInt8>, _ n: Int) -> UnsafeMutablePointer<UInt8>? {
            guard var k = firstLoneCR(p, n) else { return nil }
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
            copy.initialize(from: p, count: n)
            while k < n {
                if copy[k] == 0x0D && (k + 1 == n || copy[k + 1] != 0x0A) { copy[k] = 0x0A }
                k += 1
            }
            return copy
        }

        /// `data` with every lone CR made an LF (the same `Data` when there is none).
        static func normalizingLoneCRs(_ data: Data) -> Data {
            data.withUnsafeBytes { raw -> Data in
                guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    let copy = normalizingLoneCRs(base, raw.count)
                else { return data }
                return Data(bytesNoCopy: copy, count: raw.count, deallocator: .custom { p, _ in p.deallocate() })
            }
        }

        /// Chunk starts and the end: each chunk but the last ends just after a newline.
        static func cuts(_ base: UnsafePointer<UInt8>, _ n: Int, piece: Int = chunkBytes) -> [Int] {
            var cuts = [0]
            var c = piece
            while c < n {
                guard let q = memchr(base + (c - 1), 0x0A, n - (c - 1)) else { break }
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(q))
                cuts.append(at + 1)
                c = at + 1 + piece
            }
            if cuts.last! != n { cuts.append(n) }
            return cuts
        }

        /// Newlines in p[0..<n], eight bytes at a time.
        static func newlines(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
            var count = 0, i = 0
            let raw = UnsafeRawPointer(p)
            let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, high: UInt64 = 0x8080_8080_8080_8080, nl: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
            while i + 8 <= n {
                let t = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ nl
                // High bit set in each byte that is not a newline.
                let nonzero = (((t & low) &+ low) | t) & high
                count += 8 - nonzero.nonzeroBitCount
                i += 8
            }
            while i < n { if p[i] == 0x0A { count += 1 }; i += 1 }
            return count
        }

        /// Whether the first line is the header (trimmed, it starts with `x` or `X`).
        static func hasHeader(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
            var i = 0
            while i < n && p[i] != 0x0A && CSVLines.space(p[i]) { i += 1 }
            return i < n && p[i] != 0x0A && (p[i] | 0x20) == UInt8(ascii: "x")
        }

        /// Per-chunk results; each task writes only its own elements.
        final class Chunks: @unchecked Sendable {
            let base: UnsafePointer<UInt8>
            let cuts: [Int]
            var bound: [Int]
            var lines: [Int]
            let counts: UnsafeMutableBufferPointer<Int>
            /// Newlines per chunk.
            let newlineCounts: UnsafeMutableBufferPointer<Int>
            let failures: UnsafeMutableBufferPointer<(Int, String)?>
            var points: UnsafeMutablePointer<Point>?

            init(_ base: UnsafePointer<UInt8>, _ cuts: [Int]) {
                self.base = base
                self.cuts = cuts
                let n = max(cuts.count - 1, 0)
                bound = [Int](repeating: 0, count: n)
                lines = [Int](repeating: 0, count: n)
                counts = .allocate(capacity: n)
                counts.initialize(repeating: 0)
                newlineCounts = .allocate(capacity: n)
                newlineCounts.initialize(repeating: 0)
                failures = .allocate(capacity: n)
                failures.initialize(repeating: nil)
            }

            deinit {
                counts.deallocate()
                newlineCounts.deallocate()
                failures.deinitialize().deallocate()
            }
        }

        /// The points of a CSV file (see `Query.parsePoints`) and the points of each chunk.
        static func parse(_ data: Data, name: String) throws -> (points: [Point], counts: [Int], text: Data) {
            let parsed = try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> ([Point], [Int])? in
                guard raw.count > 0 else { return ([], []) }
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let n = raw.count
                let all = Chunks(base, cuts(base, n))
                let parts = all.cuts.count - 1
                let header = hasHeader(base, n)
                // 1. Lines per chunk: an upper bound on its points (exact for usual files).
                let count: @Sendable (Int) -> Void = { k in
                    all.newlineCounts[k] = newlines(all.base + all.cuts[k], all.cuts[k + 1] - all.cuts[k])
                }
                if parts == 1 { count(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: count) }
                var total = 0
                var lineBefore = 0
                var offsets = [Int](repeating: 0, count: parts)
                for k in 0..<parts {
                    let end = all.cuts[k + 1]
                    var b = all.newlineCounts[k] + (base[end - 1] != 0x0A ? 1 : 0)
                    if k == 0 && header { b -= 1 }
                    all.bound[k] = b
                    all.lines[k] = lineBefore
                    offsets[k] = total
                    total += b
                    lineBefore += all.newlineCounts[k]
                }
                // 2. Parse each chunk into its own region of the result, then close the gaps
                // (none unless lines were skipped).
                let offsetsCopy = offsets
                var failure: Failure?
                let points = [Point](unsafeUninitializedCapacity: max(total, 1)) { out, initialized in
                    all.points = out.baseAddress!
                    let work: @Sendable (Int) -> Void = { k in
                        let s = all.cuts[k]
                        let (c, f) = chunk(all.base + s, all.cuts[k + 1] - s, header: k == 0, into: all.points! + offsetsCopy[k], capacity: all.bound[k])
                        all.counts[k] = c
                        all.failures[k] = f
                    }
                    if parts == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: parts, execute: work) }
                    var at = 0
                    for k in 0..<parts {
                        // The first chunk with a problem: every chunk before it is plain, so
                        // its line numbers count LFs right; a lone CR: parsed again, normalized.
                        if let (line, text) = all.failures[k] {
                            failure = line == loneCR
                                ? Failure(message: "")
                                : Failure(message: "\(name): line \(all.lines[k] + line): expected x,y, found '\(text.escapingControlCharacters)'")
                            initialized = 0
                            return
                        }
                        let c = all.counts[k]
                        if c > 0 && at != offsetsCopy[k] { (out.baseAddress! + at).moveInitialize(from: out.baseAddress! + offsetsCopy[k], count: c) }
                        at += c
                    }
                    initialized = at
                }
                if let failure {
                    if failure.message.isEmpty { return nil }  // a lone CR: again, normalized
                    throw failure
                }
                return (points, Array(all.counts))
            }
            guard let (points, counts) = parsed else { return try parse(normalizingLoneCRs(data), name: name) }
            return (points, counts, data)
        }

        /// Powers of ten exact in a Double.
        static let pow10: [Double] = (0...22).map { pow(10, Double($0)) }

        /// How many of the 8 bytes in `v` (first byte lowest) are decimal digits before the
        /// first other byte: 0...8.
        @inline(__always) static func leadingDigits(_ v: UInt64) -> Int {
            let top: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, zeros: UInt64 = 0x3030_3030_3030_3030
            // Nonzero in each byte that is not 0...9 (a carry only leaves a non-digit byte,
            // towards later bytes).
            let bad = ((v & top) ^ zeros) | (((v &+ 0x0606_0606_0606_0606) & top) ^ zeros)
            return bad.trailingZeroBitCount >> 3  // 8 when bad == 0
        }

        /// The number written by the first `count` (1...8) bytes of `v`, all digits.
        @inline(__always) static func digitsValue(_ v: UInt64, _ count: Int) -> UInt64 {
            // The digits moved to the high bytes (leading zeros below), then the 8-digit SWAR
            // conversion (as in simdjson and fast_float).
            var d = (v &- 0x3030_3030_3030_3030) << UInt64(8 &* (8 &- count))
            d = (d &* 10) &+ (d >> 8)
            d = (((d & 0x0000_00FF_0000_00FF) &* 0x000F_4240_0000_0064) &+ (((d >> 16) & 0x0000_00FF_0000_00FF) &* 0x0000_2710_0000_0001)) >> 32
            return d & 0xFFFF_FFFF
        }

        /// `fast` for numbers of at most 6 digits (the usual `123.456`) with one 8-byte load;
        /// needs 9 readable bytes from i. Longer numbers: `fast`.
        @inline(__always) static func fastWide(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, _ tens: UnsafePointer<Double>) -> Double? {
            var j = i
            let negative = p[j] == UInt8(ascii: "-")
            if negative || p[j] == UInt8(ascii: "+") { j += 1 }
            let v = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: j, as: UInt64.self)
            let a = leadingDigits(v)
            let m: UInt64, fraction: Int
            if a < 8 && (v >> UInt64(8 &* a)) & 0xFF == UInt64(UInt8(ascii: ".")) {
                // Drop the point: the bytes after it move down one.
                let low: UInt64 = (1 << UInt64(8 &* a)) &- 1
                let w = (v & low) | ((v >> 8) & ~low)
                let c = leadingDigits(w)  // at most 7: the top byte is 0
                if c >= 7 { return fast(p, &i, n, tens) }  // more digits may follow
                guard c > 0 else { return nil }
                m = digitsValue(w, c)
                fraction = c - a
                j += c + 1
            } else {
                if a >= 7 { return fast(p, &i, n, tens) }
                guard a > 0 else { return nil }
                m = digitsValue(v, a)
                fraction = 0
                j += a
            }
            // At most 6 digits: mantissa and 10^fraction exact, so one rounding.
            i = j
            let x = Double(m) / tens[fraction]
            return negative ? -x : x
        }

        /// A plain decimal at p[i...] (sign, digits, optional fraction) when it is exact on the
        /// fast path; moves `i` past it. nil: not such a number (nothing consumed).
        @inline(__always) static func fast(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ n: Int, _ tens: UnsafePointer<Double>) -> Double? {
            var j = i
            guard j < n else { return nil }
            let negative = p[j] == UInt8(ascii: "-")
            if negative || p[j] == UInt8(ascii: "+") { j += 1 }
            var m: UInt64 = 0
            let start = j
            while j < n {
                let d = p[j] &- 0x30
                if d >= 10 { break }
                m = m &* 10 &+ UInt64(d)
                j += 1
            }
            var digits = j - start, fraction = 0
            if j < n && p[j] == UInt8(ascii: ".") {
                j += 1
                let f = j
                while j < n {
                    let d = p[j] &- 0x30
                    if d >= 10 { break }
                    m = m &* 10 &+ UInt64(d)
                    j += 1
                }
                fraction = j - f
                digits += fraction
            }
            // At most 19 digits: no overflow; mantissa and power of ten exact: one rounding.
            guard digits > 0, digits <= 19, m <= 1 << 53, fraction <= 22 else { return nil }
            i = j
            let v = Double(m) / tens[fraction]
            return negative ? -v : v
        }

        /// Parses one chunk; returns the points written and the first bad line (1-based in the
        /// chunk) with its text, or `loneCR` (parse the chunk again with `normalizingLoneCRs`). `lines`: try `PointsLine.parse` (a whole short line at once) on
        /// each line first; false: the number-by-number parser alone (the tests compare both).
        static func chunk(
            _ p: UnsafePointer<UInt8>, _ n: Int, header: Bool, into out: UnsafeMutablePointer<Point>, capacity: Int,
            lines: Bool = true, extents: UnsafeMutablePointer<LineExtent>? = nil
        ) -> (Int, (Int, String)?) {
            pow10.withUnsafeBufferPointer { tensBuffer in
                let tens = tensBuffer.baseAddress!
                let b = UnsafeBufferPointer(start: p, count: n)
                var i = 0, line = 0, count = 0
                // The line parser reads up to 32 bytes from a line's start (-1: not used).
                let linesEnd = lines ? n - PointsLine.reach : -1
                while i < n {
                    line += 1
                    if i <= linesEnd && count < capacity, let next = PointsLine.parse(p, i, tens, into: out + count) {
                        if let extents {
                            // The line's text: up to its LF, and a CR before it.
                            let text = next - 1 - i
                            extents[count] = LineExtent(start: UInt32(truncatingIfNeeded: i), length: UInt32(text - (p[next - 2] == 0x0D ? 1 : 0)))
                        }
                        count += 1
                        i = next
                        continue
                    }
                    var j = i
                    if let x = i + 9 < n ? fastWide(p, &j, n, tens) : fast(p, &j, n, tens), j < n, p[j] == UInt8(ascii: ",") {
                        j += 1
                        if let y = j + 9 < n ? fastWide(p, &j, n, tens) : fast(p, &j, n, tens) {
                            var next = -1
                            if j == n { next = n }
                            else if p[j] == 0x0A { next = j + 1 }
                            else if p[j] == 0x0D && (j + 1 == n || p[j + 1] == 0x0A) { next = min(j + 2, n) }
                            if next >= 0 && count < capacity {
                                (out + count).initialize(to: Point(x: x, y: y))
                                extents?[count] = LineExtent(start: UInt32(truncatingIfNeeded: i), length: UInt32(truncatingIfNeeded: j - i))
                                count += 1
                                i = next
                                continue
                            }
                        }
                    }
                    // Any other line: the general byte parser. A CR in its text is a lone CR.
                    let (s, e, next) = CSVLines.line(p, from: i, count: n)
                    let end = CSVLines.textEnd(p, from: i, next: next, count: n)
                    if end > i, memchr(p + i, 0x0D, end - i) != nil { return (count, (loneCR, "")) }
                    if s < e && !(header && line == 1 && (p[s] | 0x20) == UInt8(ascii: "x")) {
                        guard let (x, y) = CSVLines.pair(b, s, e), count < capacity else {
                            return (count, (line, String(decoding: UnsafeBufferPointer(rebasing: b[s..<min(e, s + 40)]), as: UTF8.self)))
                        }
                        (out + count).initialize(to: Point(x: x, y: y))
                        // The output repeats the line as it is (spaces kept), without its CR and LF.
                        let text = end - i
                        extents?[count] = LineExtent(start: UInt32(truncatingIfNeeded: i), length: text <= UInt32.max ? UInt32(text) : 0)
                        count += 1
                    }
                    i = next
                }
                return (count, nil)
            }
        }

        /// Where a point's line starts in its piece and, when the line is only the number
        /// characters of `x,y` (then the output repeats it as is), its length without CR and LF;
        /// 0: any other line (spaces to drop; formatted by `formatLines`).
        struct LineExtent {
            var start: UInt32
            var length: UInt32
        }

        // MARK: - Writing

        /// `formatLines` of a piece p[0..<n] (n < 2^32) from the extents of its `count` points,
        /// as `chunk` recorded them: the same bytes, without scanning the lines again.
        static func formatPoints(
            _ p: UnsafePointer<UInt8>, _ n: Int, extents: UnsafePointer<LineExtent>, handles: UnsafePointer<HitTestHandle>, count: Int,
            ids idTable: Ids, into out: UnsafeMutablePointer<UInt8>
        ) -> Int {
            idTable.bytes.withUnsafeBufferPointer { idBytes in
                let ids = idBytes.baseAddress!
                var o = 0
                for k in 0..<count {
                    let s = Int(extents[k].start), length = Int(extents[k].length)
                    if length == 0 {
                        // A line with spaces (or from the number parser's general path).
                        var e = n
                        if let q = memchr(p + s, 0x0A, n - s) { e = UnsafeRawPointer(p).distance(to: UnsafeRawPointer(q)) + 1 }
                        o += formatLines(p + s, e - s, first: false, handles: handles + k, count: 1, ids: idTable, into: out + o)
                        continue
                    }
                    if length <= 24 && s + 24 <= n {
                        let from = UnsafeRawPointer(p + s), to = UnsafeMutableRawPointer(out + o)
                        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                        if length > 16 {
                            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
                        }
                    } else {
                        memcpy(out + o, p + s, length)
                    }
                    o += length
                    out[o] = UInt8(ascii: ","); o += 1
                    let (at, idLength) = idTable.of(handles[k])
                    if idLength <= 24 {
                        let from = UnsafeRawPointer(ids + at), to = UnsafeMutableRawPointer(out + o)
                        to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                        to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
                    } else {
                        memcpy(out + o, ids + at, idLength)
                    }
                    o += idLength
                    out[o] = 0x0A; o += 1
                }
                return o
            }
        }

        /// The id bytes of every hit view, made once per distinct handle.
        struct Ids: @unchecked Sendable {
            /// Per slot: the handle, the offset and length of its id in `bytes`.
            var slots: [(Int32, Int, Int)] = []
            var others: [Int32: (Int, Int)] = [:]
            var bytes: [UInt8] = []
            var longest = 0

            init(_ handles: [HitTestHandle], _ window: Window) {
                for handle in handles where handle.isView {
                    let h = handle.rawValue
                    let slot = Int(h & 0xFF_FFFF)
                    if slot < slots.count && slots[slot].0 == h { continue }
                    if others[h] != nil { continue }
                    let text = Array(HitTestCLI.name(window.view(forHitTestHandle: handle)).utf8)
                    let entry = (bytes.count, text.count)
                    bytes += text
                    longest = max(longest, text.count)
                    if slot >= slots.count { slots += [(Int32, Int, Int)](repeating: (-1, 0, 0), count: slot + 1 - slots.count) }
                    if slots[slot].0 < 0 { slots[slot] = (h, entry.0, entry.1) } else { others[h] = entry }
                }
                // Room for the 24-byte copies of the last id.
                bytes += [UInt8](repeating: 0, count: 32)
            }

            /// The ids of every view of `window`'s tree (the window too).
            init(allViewsOf window: Window) {
                var handles: [HitTestHandle] = []
                window.forEachView { handles.append($0.hitTestHandle) }
                self.init(handles, window)
            }

            @inline(__always) func of(_ handle: HitTestHandle) -> (Int, Int) {
                let h = handle.rawValue
                if h < 0 { return (0, 0) }
                let e = slots[Int(h & 0xFF_FFFF)]
                return e.0 == h ? (e.1, e.2) : others[h] ?? (0, 0)
            }
        }

        /// Writes the `x,y,id` lines of a CSV input; `counts`: the points of each chunk, as
        /// `parse` found them.
        static func write(_ data: Data, counts: [Int], handles: [HitTestHandle], window: Window, to w: inout FileWriter, progress: Progress) throws {
            try w.write(Array("x,y,id\n".utf8))
            let ids = Ids(handles, window)
            try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                guard raw.count > 0 else { return }
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let all = Chunks(base, cuts(base, raw.count))
                let parts = all.cuts.count - 1
                guard counts.count == parts else { throw Failure(message: "internal error: the points file changed while it was read") }
                let lanes = parts == 1 ? 1 : min(parts, 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
                let perPoint = ids.longest + 2
                var sizes = [Int](repeating: 0, count: lanes)
                var handleIndex = 0
                let shared = WriteState(all, handles, ids, lanes)
                var k0 = 0
                while k0 < parts {
                    let batch = min(lanes, parts - k0)
                    // The first point of each chunk in the batch, and the space it needs.
                    for l in 0..<batch {
                        let k = k0 + l
                        shared.first[l] = handleIndex
                        handleIndex += counts[k]
                        let need = (all.cuts[k + 1] - all.cuts[k]) + counts[k] * perPoint + 64
                        if need > sizes[l] {
                            shared.buffers[l].deallocate()
                            shared.buffers[l] = .allocate(capacity: need)
                            sizes[l] = need
                        }
                    }
                    let from = k0
                    let format: @Sendable (Int) -> Void = { l in
                        shared.used[l] = formatChunk(shared, from + l, into: shared.buffers[l], first: shared.first[l])
                    }
                    if batch == 1 { format(0) } else { DispatchQueue.concurrentPerform(iterations: batch, execute: format) }
                    for l in 0..<batch {
                        try w.writeLarge(UnsafeRawBufferPointer(start: shared.buffers[l], count: shared.used[l]))
                    }
                    k0 += batch
                    progress.report("wrote \(min(handleIndex, handles.count)) of \(handles.count) points")
                }
            }
        }

        /// What the writing tasks share; each writes only its own lane.
        final class WriteState: @unchecked Sendable {
            let chunks: Chunks
            let handles: [HitTestHandle]
            let ids: Ids
            var buffers: [UnsafeMutablePointer<UInt8>]
            /// Bytes formatted per lane (written by the lane's task only).
            let used: UnsafeMutableBufferPointer<Int>
            var first: [Int]

            init(_ chunks: Chunks, _ handles: [HitTestHandle], _ ids: Ids, _ lanes: Int) {
                self.chunks = chunks
                self.handles = handles
                self.ids = ids
                buffers = (0..<lanes).map { _ in .allocate(capacity: 1) }
                used = .allocate(capacity: lanes)
                used.initialize(repeating: 0)
                first = [Int](repeating: 0, count: lanes)
            }

            deinit {
                for b in buffers { b.deallocate() }
                used.deallocate()
            }
        }

        /// The output lines of chunk k into `out`; returns the bytes written.
        static func formatChunk(_ state: WriteState, _ k: Int, into out: UnsafeMutablePointer<UInt8>, first: Int) -> Int {
            let s0 = state.chunks.cuts[k]
            return state.handles.withUnsafeBufferPointer { handles in
                // No handles (no points): a pointer that is never read.
                let h = handles.baseAddress.map { $0 + first } ?? UnsafePointer(bitPattern: MemoryLayout<HitTestHandle>.alignment)!
                return formatLines(
                    state.chunks.base + s0, state.chunks.cuts[k + 1] - s0, first: k == 0,
                    handles: h, count: max(handles.count - first, 0), ids: state.ids, into: out)
            }
        }

        /// The output lines `x,y,id` of the text p[0..<n] (a whole number of lines; `first`: it
        /// starts the file, so its first line may be the header) into `out`: each point line's
        /// text (trimmed, CR dropped, spaces around the comma dropped), then the id of
        /// `handles[i]` for its i-th point (nothing past `count`). Returns the bytes written;
        /// `out` needs room for n + points x (longest id + 2) + 64 bytes.
        static func formatLines(
            _ p: UnsafePointer<UInt8>, _ n: Int, first: Bool, handles: UnsafePointer<HitTestHandle>, count: Int, ids idTable: Ids,
            into out: UnsafeMutablePointer<UInt8>
        ) -> Int {
            idTable.bytes.withUnsafeBufferPointer { idBytes in
                let ids = idBytes.baseAddress
                var i = 0, o = 0, index = 0, line = 0
                @inline(__always) func finish() {
                    out[o] = UInt8(ascii: ","); o += 1
                    if index < count {
                        let (at, length) = idTable.of(handles[index])
                        if length <= 24 {
                            // Three words, whatever the length (the buffers have room).
                            let from = UnsafeRawPointer(ids! + at), to = UnsafeMutableRawPointer(out + o)
                            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
                        } else {
                            memcpy(out + o, ids! + at, length)
                        }
                        o += length
                    }
                    out[o] = 0x0A; o += 1
                    index += 1
                }
                while i < n {
                    line += 1
                    // A line of number characters only (no space, tab, CR): copied whole.
                    var j = i
                    // Eight bytes at a time: the first byte below "+" (0x2B) ends the span.
                    while j + 8 <= n {
                        let v = UnsafeRawPointer(p).loadUnaligned(fromByteOffset: j, as: UInt64.self)
                        let below = (v &- 0x2B2B_2B2B_2B2B_2B2B) & ~v & 0x8080_8080_8080_8080
                        if below != 0 { j += below.trailingZeroBitCount >> 3; break }
                        j += 8
                    }
                    if j + 8 > n { while j < n && p[j] >= 0x2B { j += 1 } }
                    if j > i && !(first && line == 1) {
                        var next = -1
                        if j == n { next = n }
                        else if p[j] == 0x0A { next = j + 1 }
                        else if p[j] == 0x0D && (j + 1 == n || p[j + 1] == 0x0A) { next = min(j + 2, n) }
                        if next >= 0 {
                            if j - i <= 16 && i + 16 <= n {
                                let from = UnsafeRawPointer(p + i), to = UnsafeMutableRawPointer(out + o)
                                to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                                to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
                            } else {
                                memcpy(out + o, p + i, j - i)
                            }
                            o += j - i
                            finish()
                            i = next
                            continue
                        }
                    }
                    // Otherwise a point line as `CSVLines` reads it, repeated as it is (spaces
                    // kept), without its CR and LF.
                    let (s, e, next) = CSVLines.line(p, from: i, count: n)
                    if s < e && !(first && line == 1 && (p[s] | 0x20) == UInt8(ascii: "x")) {
                        let end = CSVLines.textEnd(p, from: i, next: next, count: n)
                        memcpy(out + o, p + i, end - i); o += end - i
                        finish()
                    }
                    i = next
                }
                return o
            }
        }
    }
}

extension HitTestCLI.FileWriter {
    /// Writes a large block: straight to the file (after what is buffered), no copy.
    mutating func writeLarge(_ bytes: UnsafeRawBufferPointer) throws {
        if collected != nil || bytes.count < 1 << 16 {
            try write(bytes)
            return
        }
        try flush()
        try put(bytes)
    }
}

extension HitTestCLI.PointsCSV {
    /// Lines being formatted by several tasks at once; each task uses only its own lane.
    final class Lanes: @unchecked Sendable {
        let lines: UnsafeMutableBufferPointer<[UInt8]>
        let points: [Point]
        let handles: [HitTestHandle]
        let ids: Ids

        init(_ count: Int, _ points: [Point], _ handles: [HitTestHandle], _ ids: Ids) {
            lines = .allocate(capacity: count)
            lines.initialize(repeating: [])
            self.points = points
            self.handles = handles
            self.ids = ids
        }

        deinit { lines.deinitialize().deallocate() }
    }

    /// Writes the `x,y,id` lines of `.f64` input: the numbers formatted as before
    /// (`Query.appendNumber`'s bytes, by `FastNumber`), 64 Ki points per task, on all cores.
    static func writeBinary(points: [Point], handles: [HitTestHandle], window: Window, to w: inout HitTestCLI.FileWriter, progress: HitTestCLI.Progress) throws {
        try w.write(Array("x,y,id\n".utf8))
        let per = 1 << 16
        let parts = (points.count + per - 1) / per
        guard parts > 0 else { return }
        let lanes = min(parts, 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        let state = Lanes(lanes, points, handles, Ids(handles, window))
        var k0 = 0
        while k0 < parts {
            let batch = min(lanes, parts - k0)
            let from = k0
            let format: @Sendable (Int) -> Void = { l in
                // Taken out of the lane (unique, so its capacity is reused, not copied).
                var out: [UInt8] = []
                swap(&out, &state.lines[l])
                out.removeAll(keepingCapacity: true)
                let start = (from + l) * per, end = min(start + per, state.points.count)
                state.ids.bytes.withUnsafeBufferPointer { idBytes in
                    for k in start..<end {
                        FastNumber.append(state.points[k].x, &out)
                        out.append(UInt8(ascii: ","))
                        FastNumber.append(state.points[k].y, &out)
                        out.append(UInt8(ascii: ","))
                        if k < state.handles.count {
                            let (at, count) = state.ids.of(state.handles[k])
                            if count > 0 { out.append(contentsOf: UnsafeBufferPointer(rebasing: idBytes[at..<(at + count)])) }
                        }
                        out.append(0x0A)
                    }
                }
                state.lines[l] = out
            }
            if batch == 1 { format(0) } else { DispatchQueue.concurrentPerform(iterations: batch, execute: format) }
            for l in 0..<batch {
                try state.lines[l].withUnsafeBytes { try w.writeLarge($0) }
            }
            k0 += batch
            progress.report("wrote \(min(k0 * per, points.count)) of \(points.count) points")
        }
    }
}

/// `Query.appendNumber`'s text without making a String, byte for byte the same: whole numbers
/// below 1e15 as integers; other numbers as Swift's `description` writes them. A non-integral x
/// with 1e-4 <= |x| < 2^52 (Swift writes these without an exponent) is written directly: with up
/// to three fraction digits when such a text is exact, else from its shortest round-trip digits
/// (`ShortestDouble`, Schubfach); everything else (exponents, inf, nan) takes `description`'s
/// bytes through `Double.write(to:)`.
enum FastNumber {
    /// Powers of ten exact in a Double (used by the tests).
    static let pow10: [Double] = (0...22).map { (0..<$0).reduce(1.0) { r, _ in r * 10 } }

    /// Appends the text of `x` (see `write`).
    @inline(__always) static func append(_ x: Double, _ out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxBytes) { buffer in
            let n = write(x, buffer.baseAddress!)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    /// Room `write` needs: its text is at most 24 bytes ("-2.2250738585072014e-308"), and up
    /// to 7 bytes after the text may be overwritten.
    static let maxBytes = 32

    /// Writes the text of `x` at `out` (room for `maxBytes`: up to 7 bytes after the text may be
    /// overwritten); returns its length.
    @inline(__always) static func write(_ x: Double, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        let a = abs(x)
        // Whole: below 2^52 when the integer part is the number (no libm call).
        let small = a < 4503599627370496
        let whole = small ? Double(Int64(a)) == a : a.isFinite
        if whole && a < 1e15 {
            return ShortestDouble.write(x < 0, UInt64(a), fraction: 0, out)
        }
        // Not whole (whole numbers from 1e15 on are written with an exponent).
        guard a >= 0.0001, small, !whole else { return description(x, out) }
        // Up to three fraction digits (screen coordinates): the fewest d for which
        // m = round(|x| * 10^d) gives m / 10^d == |x| (one correctly rounded division of exact
        // doubles), when neither m - 1 nor m + 1 does too (then m is the only, so the closest,
        // d-digit text). Faster than the general digits for such numbers.
        var p = 10.0  // 10^d, exact
        for d in 1...3 {
            let ap = a * p
            guard ap < 4503599627370496 else { break }
            let m = (ap + 4503599627370496) - 4503599627370496  // ap rounded to nearest, ties to even
            if m / p == a {
                if (m - 1) / p == a || (m + 1) / p == a { break }
                return ShortestDouble.write(x < 0, UInt64(m), fraction: d, out)
            }
            p *= 10
        }
        return ShortestDouble.writePlain(x, out)
    }

    /// `x.description`'s bytes at `out`, without making a String: finite numbers through
    /// `Double.write(to:)`, which hands its digits to the stream as ASCII bytes (the same text as
    /// `description`, checked by `FastNumberTests`).
    @inline(never) static func description(_ x: Double, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        var sink = Sink(out: out)
        if x.isFinite {
            x.write(to: &sink)
        } else {
            sink.write(x.description)
        }
        return sink.count
    }

    /// A text stream into a fixed buffer of `maxBytes`.
    struct Sink: TextOutputStream {
        let out: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func write(_ string: String) {
            for byte in string.utf8 where count < FastNumber.maxBytes {
                out[count] = byte
                count += 1
            }
        }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            let n = min(buffer.count, FastNumber.maxBytes - count)
            if n > 0 { memcpy(out + count, buffer.baseAddress!, n) }
            count += n
        }
    }
}
