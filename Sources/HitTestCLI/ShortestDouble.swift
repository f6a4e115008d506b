import Foundation

/// The shortest decimal that reads back as a given double, closest to it among the shortest
/// (ties to an even last digit): Giulietti's Schubfach ("The Schubfach way to render doubles",
/// 2020), written here for `FastNumber`. Three 128-bit products per number, no loop over digits,
/// no division but by the constant 10.
///
/// `FastNumberTests` checks the text against Swift's `description` (the same choice of digits)
/// and the round trip through `Double(String)` on millions of numbers.
enum ShortestDouble {
    static let kMin = -324, kMax = 292

    /// g(k) = floor(10^-k * 2^-r) + 1 in [2^125, 2^126), r = floor(log2(10^-k)) - 125, for k in
    /// kMin...kMax, as (g >> 63, g & (2^63 - 1)) pairs; computed once with exact integers.
    static let g: [UInt64] = {
        var table = [UInt64](repeating: 0, count: 2 * (kMax - kMin + 1))
        for k in kMin...kMax {
            var value: BigUInt
            if k <= 0 {
                // 10^-k is an integer: its top 126 bits.
                let p = BigUInt.power(10, -k)
                let l = p.bitLength
                value = l >= 126 ? p.shiftedRight(l - 126) : p.shiftedLeft(126 - l)
            } else {
                // 2^(125 + L) / 10^k, L the bit length of 10^k: floor((2^N / 10) / 10 ...).
                let l = BigUInt.power(10, k).bitLength
                value = BigUInt.power(2, 125 + l)
                for _ in 0..<k { value.divide(by: 10) }
            }
            value.add(1)
            let (high, low) = value.low128
            table[2 * (k - kMin)] = high << 1 | low >> 63
            table[2 * (k - kMin) + 1] = low & (1 << 63 - 1)
        }
        return table
    }()

    @inline(__always) static func flog10pow2(_ e: Int) -> Int { (e &* 661_971_961_083) >> 41 }
    @inline(__always) static func flog10threeQuartersPow2(_ e: Int) -> Int { (e &* 661_971_961_083 &- 274_743_187_321) >> 41 }
    @inline(__always) static func flog2pow10(_ e: Int) -> Int { (e &* 913_124_641_741) >> 38 }

    /// Rounds g * cp / 2^127 to odd (the "round to odd" of the paper).
    @inline(__always) static func rop(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = g0.multipliedFullWidth(by: cp).high
        let y0 = g1 &* cp
        let y1 = g1.multipliedFullWidth(by: cp).high
        let z = (y0 >> 1) &+ x1
        let vbp = y1 &+ (z >> 63)
        return vbp | (((z & (1 << 63 - 1)) &+ (1 << 63 - 1)) >> 63)
    }

    /// For a positive normal double with these bits: (f, e) with x's shortest decimal f * 10^e,
    /// f without trailing zeros.
    @inline(__always) static func decimal(_ bits: UInt64) -> (f: UInt64, e: Int) {
        let c = (1 << 52) | (bits & (1 << 52 - 1))
        let q = Int((bits >> 52) & 0x7FF) - 1075
        let odd: UInt64 = c & 1  // the ends of the rounding interval are in it when c is even
        let cb = c << 2, cbr = cb + 2
        let cbl: UInt64, k: Int
        if c != 1 << 52 || q == -1074 {
            cbl = cb - 2
            k = flog10pow2(q)
        } else {
            // A power of two: the gap below is half the gap above.
            cbl = cb - 1
            k = flog10threeQuartersPow2(q)
        }
        let h = q + flog2pow10(-k) + 2
        let g1 = g[2 * (k - kMin)], g0 = g[2 * (k - kMin) + 1]
        let vb = rop(g1, g0, cb << h), vbl = rop(g1, g0, cbl << h), vbr = rop(g1, g0, cbr << h)
        let s = vb >> 2
        if s >= 100 {
            // One digit less: a multiple of 10 in the interval (at most one can be).
            let sp10 = s / 10 * 10, tp10 = sp10 + 10
            let upin = vbl + odd <= sp10 << 2
            let wpin = (tp10 << 2) + odd <= vbr
            if upin != wpin { return stripped(upin ? sp10 : tp10, k) }
        }
        let t = s + 1
        let uin = vbl + odd <= s << 2
        let win = (t << 2) + odd <= vbr
        if uin != win { return stripped(uin ? s : t, k) }
        // Both in: the closer, ties to even.
        let cmp = Int64(bitPattern: vb &- ((s + t) << 1))
        return stripped(cmp < 0 || (cmp == 0 && s & 1 == 0) ? s : t, k)
    }

    @inline(__always) static func stripped(_ f: UInt64, _ e: Int) -> (f: UInt64, e: Int) {
        // Trailing zeros: eight at a time, then at most 4 + 2 + 1.
        var f = f, e = e
        guard f != 0 else { return (0, e) }
        while f % 100_000_000 == 0 { f /= 100_000_000; e += 8 }
        if f % 10_000 == 0 { f /= 10_000; e += 4 }
        if f % 100 == 0 { f /= 100; e += 2 }
        if f % 10 == 0 { f /= 10; e += 1 }
        return (f, e)
    }

    /// The 8 ASCII digits of v < 10^8 (zero-padded), first digit in the lowest byte: the
    /// digits are split in parallel (4 + 4, then 2 + 2, then 1 + 1) in lanes of one word.
    @inline(__always) static func eightDigits(_ v: UInt64) -> UInt64 {
        let x = (v / 10_000) | ((v % 10_000) << 32)  // lanes of 32 bits: n < 10^4
        let hundreds = ((x &* 5243) >> 19) & 0x0000_007F_0000_007F  // n / 100 in each lane
        let y = hundreds | ((x &- hundreds &* 100) << 16)  // lanes of 16 bits: n < 100
        let tens = ((y &* 103) >> 10) & 0x000F_000F_000F_000F  // n / 10 in each lane
        return (tens | ((y &- tens &* 10) << 8)) &+ 0x3030_3030_3030_3030
    }

    /// Writes the digits of m (at most 17) at `out`, a "." before the last `fraction` of them
    /// (with "0." and zeros first when the number is below 1), a "-" first when `negative`;
    /// returns the length (at most 24; up to 7 bytes after it may be overwritten).
    @inline(__always) static func write(_ negative: Bool, _ m: UInt64, fraction: Int, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        // m as 24 zero-padded digits in three words, and a spare word for the 8-byte copies.
        var words: (UInt64, UInt64, UInt64, UInt64) = (
            eightDigits(m / 10_000_000_000_000_000), eightDigits((m / 100_000_000) % 100_000_000), eightDigits(m % 100_000_000), 0
        )
        return withUnsafeMutableBytes(of: &words) { raw in
            let text = UnsafeRawPointer(raw.baseAddress!)
            // Leading zeros: the first byte that is not "0".
            var lead = 0
            while lead < 24 {
                let z = text.loadUnaligned(fromByteOffset: lead, as: UInt64.self) ^ 0x3030_3030_3030_3030
                if z != 0 { lead += z.trailingZeroBitCount >> 3; break }
                lead += 8
            }
            lead = min(lead, 23)  // m == 0: one "0"
            let count = 24 - lead
            var o = 0
            if negative { out[0] = UInt8(ascii: "-"); o = 1 }
            @inline(__always) func copy(_ from: Int, _ n: Int) {
                var k = 0
                while k < n {
                    UnsafeMutableRawPointer(out + o + k).storeBytes(of: text.loadUnaligned(fromByteOffset: from + k, as: UInt64.self), as: UInt64.self)
                    k += 8
                }
                o += n
            }
            let point = count - fraction  // digits before the point
            if fraction == 0 {
                copy(lead, count)
            } else if point <= 0 {
                // "0.", zeros, the digits.
                UnsafeMutableRawPointer(out + o).storeBytes(of: 0x3030_3030_3030_2E30, as: UInt64.self)  // "0.000000"
                o += 2 - point
                copy(lead, count)
            } else {
                copy(lead, point)
                out[o] = UInt8(ascii: ".")
                o += 1
                copy(lead + point, fraction)
            }
            return o
        }
    }

    /// Writes a non-integral x with 1e-4 <= |x| < 2^52 as Swift's `description` does (no
    /// exponent: "-0.000123", "345.3333333333333"); returns the length (at most 24; up to 7
    /// bytes after it may be overwritten).
    @inline(__always) static func writePlain(_ x: Double, _ out: UnsafeMutablePointer<UInt8>) -> Int {
        let (f, e) = decimal(x.magnitude.bitPattern)
        // e < 0 (x is not whole); at most 17 digits and x >= 1e-4, so "0." and 4 zeros at most.
        return write(x < 0, f, fraction: -e, out)
    }
}

/// Just enough unsigned big-integer arithmetic to build `ShortestDouble.g`: 32-bit limbs,
/// least significant first.
struct BigUInt {
    var limbs: [UInt32]

    static func power(_ base: UInt32, _ exponent: Int) -> BigUInt {
        var r = BigUInt(limbs: [1])
        for _ in 0..<exponent { r.multiply(by: base) }
        return r
    }

    mutating func multiply(by m: UInt32) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let p = UInt64(limbs[i]) * UInt64(m) + carry
            limbs[i] = UInt32(truncatingIfNeeded: p)
            carry = p >> 32
        }
        if carry > 0 { limbs.append(UInt32(carry)) }
    }

    mutating func divide(by d: UInt32) {
        var rest: UInt64 = 0
        for i in limbs.indices.reversed() {
            let cur = rest << 32 | UInt64(limbs[i])
            limbs[i] = UInt32(cur / UInt64(d))
            rest = cur % UInt64(d)
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
    }

    mutating func add(_ a: UInt32) {
        var carry = UInt64(a)
        var i = 0
        while carry > 0 {
            if i == limbs.count { limbs.append(0) }
            let s = UInt64(limbs[i]) + carry
            limbs[i] = UInt32(truncatingIfNeeded: s)
            carry = s >> 32
            i += 1
        }
    }

    var bitLength: Int {
        guard let top = limbs.last, top != 0 else { return 0 }
        return 32 * (limbs.count - 1) + (32 - top.leadingZeroBitCount)
    }

    func shiftedLeft(_ s: Int) -> BigUInt {
        var r = BigUInt(limbs: [UInt32](repeating: 0, count: s / 32) + limbs + [0])
        let bits = s % 32
        if bits > 0 {
            for i in (0..<r.limbs.count).reversed() {
                let low = i > 0 ? r.limbs[i - 1] >> (32 - bits) : 0
                r.limbs[i] = r.limbs[i] << bits | low
            }
        }
        while r.limbs.count > 1 && r.limbs.last == 0 { r.limbs.removeLast() }
        return r
    }

    func shiftedRight(_ s: Int) -> BigUInt {
        let whole = s / 32, bits = s % 32
        guard whole < limbs.count else { return BigUInt(limbs: [0]) }
        var r = Array(limbs[whole...])
        if bits > 0 {
            for i in r.indices {
                let high = i + 1 < r.count ? r[i + 1] << (32 - bits) : 0
                r[i] = r[i] >> bits | high
            }
        }
        while r.count > 1 && r.last == 0 { r.removeLast() }
        return BigUInt(limbs: r)
    }

    /// The low 128 bits as (high 64, low 64).
    var low128: (UInt64, UInt64) {
        func limb(_ i: Int) -> UInt64 { i < limbs.count ? UInt64(limbs[i]) : 0 }
        return (limb(3) << 32 | limb(2), limb(1) << 32 | limb(0))
    }
}
