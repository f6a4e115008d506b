import Foundation
import HitTestSampleScenes
import Testing

@testable import HitTestCLI

/// The `.f64` output's number text (issue 10, item 14): `FastNumber.write` (three fraction
/// digits directly, else Schubfach's shortest digits in `ShortestDouble`, else `description`'s
/// bytes) against the text it replaces (whole numbers below 1e15 as integers, everything else
/// Swift's `description`), and the round trip through `Double(String)`.
@Suite struct ShortestDoubleTests {
    /// The text the tool wrote before: `Query.appendNumber`.
    static func reference(_ x: Double) -> String {
        var out: [UInt8] = []
        HitTestCLI.Query.appendNumber(x, &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func written(_ x: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: FastNumber.maxBytes) { buffer in
            // Filled first, so that bytes written past the text would show if they were counted.
            buffer.initialize(repeating: UInt8(ascii: "#"))
            let n = FastNumber.write(x, buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
        }
    }

    /// Numbers at the edges: powers of two (their rounding interval is lopsided) and of ten, and
    /// their neighbours; 2^52 and 2^53 +- k; the 1e-4 and 1e15 thresholds; subnormals; extremes.
    static var edges: [Double] {
        var values: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
            Double.leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .infinity, -.infinity, .nan, -.nan, .signalingNaN, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 1e23, 8.41e21,
            Double(Int64(9_007_199_254_740_993)), 4503599627370495.5, -4503599627370495.5, 123456789012345.6, 0.000123456789012345678,
        ]
        for e in -1074...1023 {
            let p = Double(sign: .plus, exponent: e, significand: 1)
            values += [p, p.nextUp, p.nextDown, -p, p * 1.5, p * 1.75]
        }
        for e in -325...308 {
            let p = Double("1e\(e)")!
            values += [p, p.nextUp, p.nextDown, -p, p * 3, p * 7.5]
        }
        for k in 0..<2_000 {
            let d = Double(k)
            values += [9007199254740992 + d, 9007199254740992 - d, 4503599627370496 - d - 0.5, 4503599627370496 + d, 1e15 + d - 1000, d / 1024]
        }
        return values
    }

    @Test func sameTextAsBeforeAndReadsBack() {
        var rng = SplitMix64(seed: 14_2026)
        var values = Self.edges
        for _ in 0..<300_000 {
            switch rng.next() % 8 {
            case 0: values.append(Double(bitPattern: rng.next()))  // any bits: nan payloads, both signs
            case 1: values.append(Double(bitPattern: rng.next() & 0x000F_FFFF_FFFF_FFFF))  // subnormals
            case 2:  // the range written directly: exponents 2^-14 ... 2^51, either sign
                let e = UInt64(1023 - 14) + rng.next() % 66
                values.append(Double(bitPattern: e << 52 | (rng.next() & 0x000F_FFFF_FFFF_FFFF) | (rng.next() & 1) << 63))
            case 3: values.append(Double(rng.next() % 2532) / 3)  // 3x screen pixels
            case 4: values.append(Double(rng.next() % 10_000_000) / FastNumber.pow10[Int(rng.next() % 8)])  // short decimals
            case 5:  // neighbours of short decimals
                let base = Double(rng.next() % 1_000_000) / 1000
                values.append(rng.next() % 2 == 0 ? base.nextUp : base.nextDown)
            case 6: values.append(Double(bitPattern: 0x0010_0000_0000_0000 + rng.next() % 0x7FE0_0000_0000_0000))  // normals
            default: values.append((rng.unit() - 0.5) * 2e-3)  // around 1e-4
            }
        }
        var bad: [String] = []
        for x in values {
            let text = Self.written(x)
            if text != Self.reference(x) { bad.append("\(x.bitPattern): \(text) vs \(Self.reference(x))") }
            if x.isFinite, let back = Double(text), back.bitPattern != x.bitPattern, !(x == 0 && back == 0) {
                bad.append("\(x.bitPattern): \(text) reads back as \(back)")
            }
            if text.contains("#") || text.utf8.count > 24 { bad.append("\(x.bitPattern): \(text)") }
        }
        #expect(bad.isEmpty, "\(bad.count) of \(values.count) wrong: \(bad.prefix(5))")
    }

    /// Schubfach's digits for every binary exponent (not only the range the tool writes with
    /// them) equal the digits and exponent of Swift's `description`: the table is right.
    @Test func shortestDigitsMatchDescriptionAtEveryExponent() {
        var rng = SplitMix64(seed: 1411)
        var bad: [String] = []
        for exponent in UInt64(1)...2046 {
            for k in 0..<12 {
                let fraction: UInt64 = k == 0 ? 0 : (k == 1 ? 1 : (k == 2 ? 0x000F_FFFF_FFFF_FFFF : rng.next() & 0x000F_FFFF_FFFF_FFFF))
                let x = Double(bitPattern: exponent << 52 | fraction)
                let (f, e) = ShortestDouble.decimal(x.bitPattern)
                let expected = Self.digits(of: x.description)
                if f != expected.0 || e != expected.1 { bad.append("\(x): \(f)e\(e) vs \(expected)") }
            }
        }
        #expect(bad.isEmpty, "\(bad.count) wrong: \(bad.prefix(5))")
    }

    /// (digits without trailing zeros, exponent) of a text like "1.25e-07" or "1250.0".
    static func digits(of text: String) -> (UInt64, Int) {
        var mantissa = Substring(text), exponent = 0
        if let at = text.firstIndex(of: "e") {
            mantissa = text[..<at]
            exponent = Int(text[text.index(after: at)...])!
        }
        var digits = "", fractionDigits = 0, seenPoint = false
        for c in mantissa {
            if c == "." { seenPoint = true; continue }
            digits.append(c)
            if seenPoint { fractionDigits += 1 }
        }
        var f = UInt64(digits)!, e = exponent - fractionDigits
        while f != 0 && f % 10 == 0 { f /= 10; e += 1 }
        return (f, e)
    }

    @Test func eightDigitsInParallelLanes() {
        var rng = SplitMix64(seed: 8)
        for v in [0, 1, 9, 10, 99, 100, 9999, 10_000, 12_345_678, 99_999_999] + (0..<20_000).map({ _ in rng.next() % 100_000_000 }) {
            let word = ShortestDouble.eightDigits(v)
            let text = withUnsafeBytes(of: word.littleEndian) { String(decoding: $0, as: UTF8.self) }
            #expect(text == String(format: "%08llu", v), "\(v)")
        }
    }

    /// g(k) is 126 bits for every k (g1 holds its top 63 bits), and equals floor(10^-k 2^-r) + 1
    /// for the small k whose power of ten fits in 64 bits.
    @Test func tableOfPowersOfTen() {
        for k in ShortestDouble.kMin...ShortestDouble.kMax {
            let g1 = ShortestDouble.g[2 * (k - ShortestDouble.kMin)], g0 = ShortestDouble.g[2 * (k - ShortestDouble.kMin) + 1]
            #expect(g1 >> 62 == 1 && g0 >> 63 == 0, "g(\(k))")
        }
        for e in 0...19 {
            // 10^e << (126 - L), plus 1: its top 63 bits and low 63 bits.
            let p = (0..<e).reduce(1 as UInt64) { r, _ in r * 10 }
            let l = 64 - p.leadingZeroBitCount
            let shift = 126 - l  // >= 62
            let g1 = ShortestDouble.g[2 * (-e - ShortestDouble.kMin)], g0 = ShortestDouble.g[2 * (-e - ShortestDouble.kMin) + 1]
            // g = p << shift + 1; g1 = g >> 63, g0 = g & (2^63 - 1).
            let expected1 = shift >= 63 ? p << UInt64(shift - 63) : p >> 1
            let expected0: UInt64 = shift >= 63 ? 1 : ((p & 1) << 62) + 1
            #expect(g1 == expected1 && g0 == expected0, "g(\(-e))")
        }
    }
}
