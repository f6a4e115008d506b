import HitTestKit

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

extension HitTestCLI {
    /// A whole CSV points line `x,y` read at once, for the common case: each number an optional
    /// sign and 1...8 bytes of digits with at most one `.` (so at most 8 digits), the line
    /// (without its LF, CR allowed before it) within 23 bytes. Everything else (spaces, exponents,
    /// longer numbers, the header, blank and bad lines) is left to `PointsCSV.chunk`'s
    /// number-by-number parser, so the accepted syntax and the errors do not change.
    ///
    /// The line's newline, comma and dot are found with word-at-a-time byte masks, so the work
    /// on one line does not wait for the digits of the one before (only for its newline). Each
    /// number is `Double(mantissa) / 10^fraction digits` with mantissa < 10^8 and at most 7
    /// fraction digits: both exact in a Double, so the division rounds once, correctly
    /// (Clinger's fast path), giving the same double as every other path of the parser.
    enum PointsLine {
        /// Bytes `parse` may read from the line's start.
        static let reach = 32

        static let ones: UInt64 = 0x0101_0101_0101_0101
        static let highs: UInt64 = 0x8080_8080_8080_8080
        static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

        /// The high bit of each byte of `t` that is zero (exact for every byte).
        @inline(__always) static func zeros(_ t: UInt64) -> UInt64 { ~(((t & lows) &+ lows) | t) & highs }

        /// The high bit of each byte of `t` that is not zero (exact for every byte).
        @inline(__always) static func nonzeros(_ t: UInt64) -> UInt64 { (((t & lows) &+ lows) | t) & highs }

        /// Bits set from the first byte of `v` equal to the byte in `c` (broadcast) on (bytes
        /// above may be flagged too): its index is `trailingZeroBitCount >> 3`, 8 when none.
        @inline(__always) static func first(_ v: UInt64, _ c: UInt64) -> UInt64 {
            let t = v ^ c
            return (t &- ones) & ~t & highs
        }

        /// Parses the line that starts at p[i] (p[i..<i + reach] readable) into `out` and returns
        /// where the next line starts, or nil (nothing written) when the line is not of the
        /// common form.
        @inline(__always) static func parse(
            _ p: UnsafePointer<UInt8>, _ i: Int, _ tens: UnsafePointer<Double>, into out: UnsafeMutablePointer<Point>
        ) -> Int? {
            #if arch(x86_64)
                if let next = parse16(p, i, tens, into: out) { return next }
            #endif
            return parseWords(p, i, tens, into: out)
        }

        #if arch(x86_64)
            /// `parse` for a line of at most 15 bytes before its LF, with 16-byte SSE2 compares:
            /// one mask of the line's newlines, commas, points, signs and digits each, checked
            /// with integer bit operations; then each number's digits as in `parseWords`.
            @inline(__always) static func parse16(
                _ p: UnsafePointer<UInt8>, _ i: Int, _ tens: UnsafePointer<Double>, into out: UnsafeMutablePointer<Point>
            ) -> Int? {
                let v = _mm_loadu_si128(UnsafeRawPointer(p + i).assumingMemoryBound(to: __m128i.self))
                @inline(__always) func mask(_ c: UInt8) -> UInt32 {
                    UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(CChar(bitPattern: c)))))
                }
                let newlines = mask(0x0A)
                let e = newlines.trailingZeroBitCount  // 32 when none
                guard e >= 3, e < 16 else { return nil }
                let commas = mask(UInt8(ascii: ",")), points = mask(UInt8(ascii: "."))
                let signs = mask(UInt8(ascii: "-")) | mask(UInt8(ascii: "+"))
                let d = _mm_sub_epi8(v, _mm_set1_epi8(0x30))
                let digits = UInt32(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d)))
                // The text: before the LF and a CR just before it.
                let end = e - (p[i + e - 1] == 0x0D ? 1 : 0)
                let text: UInt32 = (1 << UInt32(end)) &- 1
                let c = commas.trailingZeroBitCount  // 32 when none
                guard c < end else { return nil }
                let xs = Int(signs & 1), ys = c + 1 + Int((signs >> UInt32(c + 1)) & 1)
                let xBits: UInt32 = (1 << UInt32(c)) &- 1, yBits = text & ~((2 << UInt32(c)) &- 1)
                // Every byte a digit, but the comma, points and a sign at the start of a number.
                let allowed = digits | (1 << UInt32(c)) | points | (signs & (1 | 2 << UInt32(c)))
                let px = points & xBits, py = points & yBits
                guard text & ~allowed == 0, px & (px &- 1) == 0, py & (py &- 1) == 0 else { return nil }
                let kx = c - xs, ky = end - ys
                guard kx >= 1, kx <= 8, ky >= 1, ky <= 8 else { return nil }
                let ax = ((px >> UInt32(xs)) | 0x100).trailingZeroBitCount  // 8: no point
                let ay = ((py >> UInt32(ys)) | 0x100).trailingZeroBitCount
                let nx = kx - (px != 0 ? 1 : 0), ny = ky - (py != 0 ? 1 : 0)
                guard nx >= 1, ny >= 1 else { return nil }
                let raw = UnsafeRawPointer(p + i)
                var x = value(raw.loadUnaligned(fromByteOffset: xs, as: UInt64.self), nx, ax, tens)
                var y = value(raw.loadUnaligned(fromByteOffset: ys, as: UInt64.self), ny, ay, tens)
                if p[i] == UInt8(ascii: "-") { x = -x }
                if p[i + c + 1] == UInt8(ascii: "-") { y = -y }
                out.initialize(to: Point(x: x, y: y))
                return i + e + 1
            }
        #endif

        /// The number of the digits in the first bytes of `v`: `digits` (1...8) digits with a
        /// point at byte `at` (8: none) among them.
        @inline(__always) static func value(_ v: UInt64, _ digits: Int, _ at: Int, _ tens: UnsafePointer<Double>) -> Double {
            let low: UInt64 = at >= 8 ? ~0 : (1 &<< UInt64(8 &* at)) &- 1
            let w = (v & low) | ((v >> 8) & ~low)
            let m = PointsCSV.digitsValue(w, digits)
            // Digits after the point: the bytes from it on, but the point.
            return Double(m) / tens[at >= 8 ? 0 : digits - at]
        }

        /// `parse` with 8-byte word masks (any architecture; lines within 23 bytes).
        @inline(__always) static func parseWords(
            _ p: UnsafePointer<UInt8>, _ i: Int, _ tens: UnsafePointer<Double>, into out: UnsafeMutablePointer<Point>
        ) -> Int? {
            let raw = UnsafeRawPointer(p + i)
            let w0 = raw.loadUnaligned(as: UInt64.self)
            let w1 = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            // The newline within 24 bytes.
            let nl: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
            let n0 = first(w0, nl), n1 = first(w1, nl)
            let e: Int
            if n0 != 0 {
                e = n0.trailingZeroBitCount >> 3
            } else if n1 != 0 {
                e = 8 + n1.trailingZeroBitCount >> 3
            } else {
                let n2 = first(raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), nl)
                guard n2 != 0 else { return nil }
                e = 16 + n2.trailingZeroBitCount >> 3
            }
            // The first comma within 16 bytes, before the newline.
            let cm: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
            let c0 = first(w0, cm), c1 = first(w1, cm)
            let comma = c0 != 0 ? c0.trailingZeroBitCount >> 3 : 8 + c1.trailingZeroBitCount >> 3
            guard (c0 | c1) != 0, comma < e else { return nil }
            // A CR just before the LF ends the line too.
            let end = e - (p[i + e - 1] == 0x0D ? 1 : 0)
            guard let x = number(raw, comma, tens), let y = number(raw + (comma + 1), end - comma - 1, tens) else { return nil }
            out.initialize(to: Point(x: x, y: y))
            return i + e + 1
        }

        /// The number written by the `length` bytes at q (q[0..<9] readable): an optional sign,
        /// then 1...8 bytes of digits with at most one `.` and at least one digit; nil otherwise.
        @inline(__always) static func number(_ q: UnsafeRawPointer, _ length: Int, _ tens: UnsafePointer<Double>) -> Double? {
            let sign = q.load(as: UInt8.self)
            let negative = sign == UInt8(ascii: "-")
            let a = negative || sign == UInt8(ascii: "+") ? 1 : 0
            let k = length - a
            guard k >= 1, k <= 8 else { return nil }
            let v = q.loadUnaligned(fromByteOffset: a, as: UInt64.self)
            // The high bit of each of the k bytes.
            let keep = highs >> UInt64(64 - 8 * k)
            let dots = zeros(v ^ 0x2E2E_2E2E_2E2E_2E2E) & keep
            // Nonzero in each byte that is not 0...9: high nibble not 3, or low nibble above 9
            // (no carry leaves a byte: 0x0F + 0x06 < 0x100).
            let y = ((v & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030) | (((v & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010)
            // Every byte a digit but at most one, which is the point.
            guard nonzeros(y) & keep == dots, dots & (dots &- 1) == 0 else { return nil }
            let digits = k - (dots != 0 ? 1 : 0)
            guard digits >= 1 else { return nil }
            // Drop the point: the bytes after it move down one (nothing moves without one).
            let at = dots.trailingZeroBitCount >> 3  // 8 when there is none
            let low: UInt64 = (UInt64(1) << UInt64(8 * at)) &- 1
            let w = (v & low) | ((v >> 8) & ~low)
            let m = PointsCSV.digitsValue(w, digits)
            let fraction = dots != 0 ? k - 1 - at : 0
            let x = Double(m) / tens[fraction]
            return negative ? -x : x
        }
    }
}
