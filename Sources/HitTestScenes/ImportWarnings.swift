/// The warnings of one import, capped so that a wrong file (a 13-million-line CSV given to
/// `import`) does not build millions of messages: the first `limit` are kept, the rest counted.
struct ImportWarnings {
    /// The most warnings kept.
    static let limit = 1000

    private(set) var kept: [String] = []
    private(set) var dropped = 0

    /// Every warning so far (`count` includes the dropped ones).
    var count: Int { kept.count + dropped }

    /// Records a warning; the message is only built when it is kept.
    mutating func append(_ message: @autoclosure () -> String) {
        if kept.count < Self.limit { kept.append(message()) } else { dropped += 1 }
    }

    /// The kept warnings, and a last line counting the others.
    var lines: [String] { dropped == 0 ? kept : kept + ["… and \(dropped) more warnings"] }
}
