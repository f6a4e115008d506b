import Foundation
import HitTestSampleScenes
import Testing
@testable import HitTestCLI

/// The `.f64` output's number formatter (`FastNumber`) against the one it replaces
/// (`Query.appendNumber`: whole numbers as integers, others Swift's `description`).
@Suite struct FastNumberTests {
    func old(_ x: Double) -> [UInt8] {
        var out: [UInt8] = []
        HitTestCLI.Query.appendNumber(x, &out)
        return out
    }

    func new(_ x: Double) -> [UInt8] {
        var out: [UInt8] = []
        FastNumber.append(x, &out)
        return out
    }

    @Test func sameBytesAsDescription() {
        var rng = SplitMix64(seed: 1411)
        var values: [Double] = [
            0, -0.0, 1, -1, 0.5, 0.1, 0.2, 0.3, 1e-4, 0.0001, -0.0001, 9.999e-05, 0.00011, 1e-5, 1e15,
            1e15 + 0.5, 123456789012345.6, 4503599627370495.5, -4503599627370495.5, 4503599627370496,
            9007199254740991, 1e16, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .infinity, -.infinity, .nan, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 100.0 / 7, 0.015625,
        ]
        for _ in 0..<60_000 {
            let u = rng.unit()
            switch Int(rng.unit() * 7) {
            case 0:  // short decimals, like screen coordinates
                let d = Int(rng.unit() * 7)
                values.append((rng.unit() * 2000 - 1000).rounded() / FastNumber.pow10[d])
            case 1: values.append(Double(bitPattern: rng.next() % 0x7FF0_0000_0000_0000 | (rng.next() & (1 << 63))))  // any finite bits, either sign
            case 2: values.append(u * 1000)
            case 3: values.append((u - 0.5) * 1e-3)  // around the exponent threshold
            case 4: values.append(u * 9.1e15)  // up to and past 2^53
            case 5:  // neighbours of short decimals
                let base = (rng.unit() * 100_000).rounded() / 1000
                values.append(rng.unit() < 0.5 ? base.nextUp : base.nextDown)
            default: values.append(Double(Int(u * 1e6)) / 1024)  // exact binary fractions
            }
        }
        var bad: [String] = []
        for v in values where new(v) != old(v) {
            bad.append("\(v.bitPattern): \(String(decoding: new(v), as: UTF8.self)) vs \(String(decoding: old(v), as: UTF8.self))")
        }
        #expect(bad.isEmpty, "\(bad.count) differ: \(bad.prefix(5))")
    }
}
