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
