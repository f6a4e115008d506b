import HitTestSampleScenes

/// SplitMix64 (the sample scenes' generator) seeded so that a failing case names its seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var base: SplitMix64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { base = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { base.next() }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// A coordinate on a half-point grid, so that edges are exactly representable.
    public mutating func coordinate(_ range: ClosedRange<Double>) -> Double {
        (Double.random(in: range, using: &self) * 2).rounded() / 2
    }
}
