/// Readable names for the Objective-C runtime names of Swift classes, as `recursiveDescription`
/// prints them for classes nested in another type or private to a file.
enum SwiftClassName {
    /// `_TtCC5Adyen12SubmitButton14BackgroundView` → `Adyen.SubmitButton.BackgroundView`;
    /// `_TtC5Adyen8ListCell` → `Adyen.ListCell`; a private type's discriminator
    /// (`P33_6CC6…17FormContainerView`) is dropped. Anything else (generic `_TtG…` names,
    /// names that are not mangled) comes back unchanged.
    static func readable(_ name: String) -> String {
        guard name.hasPrefix("_Tt") else { return name }
        let s = Array(name.utf8.dropFirst(3))
        var i = 0
        // One kind letter per level of nesting: C class, V struct, O enum.
        var levels = 0
        while i < s.count, s[i] == UInt8(ascii: "C") || s[i] == UInt8(ascii: "V") || s[i] == UInt8(ascii: "O") {
            levels += 1
            i += 1
        }
        guard levels > 0 else { return name }
        var parts: [String] = []
        // The module: `s` is Swift, else a length-prefixed identifier.
        if i < s.count, s[i] == UInt8(ascii: "s") {
            parts.append("Swift")
            i += 1
        } else if let module = identifier(s, &i) {
            parts.append(module)
        } else {
            return name
        }
        for _ in 0..<levels {
            if i < s.count, s[i] == UInt8(ascii: "P") {
                i += 1
                guard identifier(s, &i) != nil else { return name }  // the private discriminator
            }
            guard let part = identifier(s, &i) else { return name }
            parts.append(part)
        }
        guard i == s.count else { return name }
        return parts.joined(separator: ".")
    }

    /// `<decimal length><that many bytes>`.
    private static func identifier(_ s: [UInt8], _ i: inout Int) -> String? {
        var length = 0
        var digits = 0
        while i < s.count, s[i] >= 0x30, s[i] <= 0x39, digits < 6 {
            length = length * 10 + Int(s[i] - 0x30)
            digits += 1
            i += 1
        }
        guard digits > 0, length > 0, i + length <= s.count else { return nil }
        defer { i += length }
        return String(decoding: s[i..<(i + length)], as: UTF8.self)
    }
}
