import HitTestCore
import Foundation

/// The timing of an animation: what fraction of the way from the old to the new value it shows
/// at a given fraction of its duration (SEMANTICS A4, A10).
enum AnimationTiming: Equatable {
    /// A CAMediaTimingFunction curve: a cubic Bézier from (0, 0) to (1, 1).
    case curve(View.AnimationCurve)
    /// A damped spring (`usingSpringWithDamping:initialSpringVelocity:`) lasting `duration`.
    case spring(damping: Double, velocity: Double, duration: Double)

    /// The fraction of the distance covered at `x`, the fraction of the duration (0…1).
    func fraction(_ x: Double) -> Double {
        switch self {
        case .curve(let curve): curve.timingFunction.value(at: x)
        case .spring(let z, let v0, let d): SpringTiming(damping: z, velocity: v0, duration: d).fraction(atTime: x * d)
        }
    }
}

/// A cubic Bézier timing function with control points (x1, y1) and (x2, y2), as
/// `CAMediaTimingFunction(controlPoints:)`: `f(x)` is the curve's y where its x equals `x`.
///
/// The parameter s with `x(s) = x` is found by Newton's method from s = x, checked to 1e-15,
/// falling back to bisection (the x polynomial is monotonic for control x in [0, 1]); y(s) is
/// then evaluated directly. Exact at 0 and 1.
struct CubicBezierTiming: Equatable {
    let x1: Double, y1: Double, x2: Double, y2: Double

    /// easeInOut (0.42, 0)(0.58, 1), easeIn (0.42, 0)(1, 1), easeOut (0, 0)(0.58, 1).
    static let easeInOut = CubicBezierTiming(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    static let easeIn = CubicBezierTiming(x1: 0.42, y1: 0, x2: 1, y2: 1)
    static let easeOut = CubicBezierTiming(x1: 0, y1: 0, x2: 0.58, y2: 1)

    private static func poly(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        // 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³ in Horner form.
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return ((a * s + b) * s + c) * s
    }

    private static func slope(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
        let c = 3 * p1
        let b = 3 * (p2 - p1) - c
        let a = 1 - c - b
        return (3 * a * s + 2 * b) * s + c
    }

    /// The parameter s in [0, 1] whose curve x is `x`.
    func parameter(for x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let err = Self.poly(x1, x2, s) - x
            if abs(err) < 1e-15 { return s }
            let d = Self.slope(x1, x2, s)
            if abs(d) < 1e-12 { break }
            s -= err / d
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0
        var hi = 1.0
        s = x
        for _ in 0..<200 {
            let v = Self.poly(x1, x2, s)
            if abs(v - x) < 1e-15 { return s }
            if v < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
            if hi - lo < 1e-16 { break }
        }
        return s
    }

    /// The curve's y at time fraction `x` (clamped to [0, 1]).
    func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return Self.poly(y1, y2, parameter(for: x))
    }
}

extension View.AnimationCurve {
    /// The curve as a timing function (linear: the identity).
    var timingFunction: CubicBezierTiming? {
        switch self {
        case .easeInOut: .easeInOut
        case .easeIn: .easeIn
        case .easeOut: .easeOut
        case .linear: nil
        }
    }
}

extension Optional where Wrapped == CubicBezierTiming {
    /// Linear when nil.
    func value(at x: Double) -> Double {
        switch self {
        case .some(let f): f.value(at: x)
        case .none: x <= 0 ? 0 : (x >= 1 ? 1 : x)
        }
    }
}

/// The damped spring of SEMANTICS A10: the fraction covered at time t is 1 − s(t) with
/// s(0) = 1, s′(0) = −v0, ω0 = ln(1000)/(z·d), z clamped to [0.01, 1]; at t ≥ d, exactly 1.
struct SpringTiming {
    let damping: Double, velocity: Double, duration: Double

    /// The fraction of the distance covered at `t` seconds (may exceed 1: overshoot).
    func fraction(atTime t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        let z = min(max(damping, 0.01), 1)
        let w0 = log(1000) / (z * duration)
        let v0 = velocity
        let s: Double
        if z < 1 {
            let wd = w0 * (1 - z * z).squareRoot()
            s = exp(-z * w0 * t) * (cos(wd * t) + (z * w0 - v0) / wd * sin(wd * t))
        } else {
            s = exp(-w0 * t) * (1 + (w0 - v0) * t)
        }
        return 1 - s
    }
}
