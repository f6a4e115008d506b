/// Stops the program when a value set through the API is one UIKit cannot have, with a message
/// that names the property, what it takes and the value given: `Type.property must be
/// EXPECTED, got VALUE`. UIKit raises at the call; a bad value let through would fail later,
/// elsewhere, or silently in a release build.
@inlinable @inline(__always)
package func requireValue(_ ok: Bool, _ property: @autoclosure () -> String, _ expected: @autoclosure () -> String, _ value: Any) {
    if !ok { failValue(property(), expected(), value) }
}

@usableFromInline @inline(never)
func failValue(_ property: String, _ expected: String, _ value: Any) -> Never {
    preconditionFailure("\(property) must be \(expected), got \(value)")
}

/// The rules of the numeric settings (gesture recognizers' counts, distances, times and
/// thresholds), each stated once: a setter stores what these return (a stored property's
/// observer checks the value just stored); a value outside its rule stops the program with
/// `requireValue`'s message.
package enum Setting {
    /// A count of at least `minimum` (fingers, taps).
    @inlinable
    package static func count(_ value: Int, atLeast minimum: Int, _ property: @autoclosure () -> String) -> Int {
        requireValue(value >= minimum, property(), "at least \(minimum)", value)
        return value
    }

    /// A finite amount not below 0; `what` names it in the message (a distance, a time).
    @inlinable
    package static func finiteNonNegative(
        _ value: Double, _ what: @autoclosure () -> String, _ property: @autoclosure () -> String
    ) -> Double {
        requireValue(value >= 0 && value.isFinite, property(), "a finite non-negative \(what())", value)
        return value
    }

    /// An amount not below 0, where infinity means no limit (NaN is refused).
    @inlinable
    package static func nonNegative(
        _ value: Double, _ what: @autoclosure () -> String, _ property: @autoclosure () -> String
    ) -> Double {
        requireValue(value >= 0, property(), "a non-negative \(what())", value)
        return value
    }
}
