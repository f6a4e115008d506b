import HitTestCore

/// Recorded or generated input for `Application.replay(_:)`: input steps of touch changes and
/// clock advances, in order.
///
/// The text form is CSV, one touch change a line: `time,id,phase,x,y[,window]` — time in
/// seconds, the finger's integer id, a phase (`began`, `moved`, `stationary`, `ended`,
/// `cancelled`), the location in screen coordinates, and optionally the index of the window a
/// beginning touch is confined to. A line `time,advance` moves the clock to `time` with no input
/// (`Application.advanceTime(to:)`: a long press fires, a double-tap window closes, a scroll
/// view decelerates); a script usually ends with one. An optional header line starts with
/// `time`. Blank lines and lines starting with `#` are skipped. Consecutive touch lines with the
/// same time form one step. Times never go backwards.
public struct TouchScript: Sendable, Hashable {
    /// One entry of a script.
    public enum Entry: Sendable, Hashable {
        /// One input step (`Application.injectTouches(_:)`).
        case touches([TouchChange])
        /// A clock advance with no input (`Application.advanceTime(to:)`).
        case advanceTime(Double)

        /// The entry's (earliest) time.
        public var time: Double? {
            switch self {
            case .touches(let changes): changes.map(\.timestamp).min()
            case .advanceTime(let t): t
            }
        }
    }

    /// The input steps and clock advances, in order.
    public var entries: [Entry]

    /// The input steps, in order (clock advances left out). Setting it replaces the whole
    /// script with these steps.
    public var steps: [[TouchChange]] {
        get {
            entries.compactMap {
                if case .touches(let changes) = $0 { return changes }
                return nil
            }
        }
        set { entries = newValue.map { .touches($0) } }
    }

    /// A script of the given steps, then, if `advancingTo` is given, a clock advance to it.
    public init(steps: [[TouchChange]], advancingTo end: Double? = nil) {
        entries = steps.map { .touches($0) }
        if let end { entries.append(.advanceTime(end)) }
    }

    /// A script of the given entries.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses the CSV form. Lines end at LF, CRLF or a lone CR (`TextLineReader`).
    /// - Throws: `TouchScriptError` naming the line and what is wrong with it.
    public init(csv text: String) throws(TouchScriptError) {
        var parser = Parser()
        var entries: [Entry] = []
        for (index, line) in TextLineReader.lines(of: text).enumerated() {
            try parser.read(line, number: index + 1, into: &entries)
        }
        parser.finish(into: &entries)
        self.entries = entries
    }

    /// Reads the CSV form a line at a time, for scripts too long to hold: each entry is handed
    /// out as soon as the line after it shows it is complete (a step ends at the first line
    /// with another time, or at a clock advance), and `finish(into:)` hands out the last.
    /// `TouchScript(csv:)` is this parser over every line of a text.
    public struct Parser: Sendable {
        private var step: [TouchChange] = []
        private var lastTime: Double?
        /// The number of windows the script is played on, when known: a change naming a window
        /// index at or beyond it is refused at its line. nil (the default): any index is read.
        public var windowCount: Int?

        /// A parser at the start of a script.
        public init() {}

        /// Reads line `number` (1-based, without its terminator) and appends to `entries` the
        /// entries it completes.
        /// - Throws: `TouchScriptError` naming the line and what is wrong with it.
        public mutating func read(
            _ raw: some StringProtocol, number: Int, into entries: inout [Entry]
        ) throws(TouchScriptError) {
            let line = raw.trimmingCharacters(in: " \t")
            if line.isEmpty || line.hasPrefix("#") || (number == 1 && line.hasPrefix("time")) { return }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: " \t")
            }
            if fields.count == 2 && fields[1] == "advance" {
                let time = try Self.time(fields[0], line: number)
                try checkOrder(time, line: number)
                flush(into: &entries)
                entries.append(.advanceTime(time))
                lastTime = time
                return
            }
            guard fields.count == 5 || fields.count == 6 else {
                throw TouchScriptError(
                    line: number,
                    message: "expected 5 or 6 fields (time,id,phase,x,y[,window]) or 'time,advance', found \(fields.count)")
            }
            let time = try Self.time(fields[0], line: number)
            guard let id = Int(fields[1]) else {
                throw TouchScriptError(line: number, message: "touch id '\(fields[1])' is not an integer")
            }
            guard let phase = Touch.Phase(rawValue: fields[2]) else {
                throw TouchScriptError(
                    line: number, message: "unknown phase '\(fields[2])' (began, moved, stationary, ended, cancelled)")
            }
            guard let x = Double(fields[3]), let y = Double(fields[4]), x.isFinite, y.isFinite else {
                throw TouchScriptError(line: number, message: "location '\(fields[3]),\(fields[4])' is not two finite numbers")
            }
            var window: Int?
            if fields.count == 6, !fields[5].isEmpty {
                guard let w = Int(fields[5]), w >= 0 else {
                    throw TouchScriptError(line: number, message: "window '\(fields[5])' is not a window index")
                }
                if let windowCount, w >= windowCount {
                    throw TouchScriptError(
                        line: number,
                        message: "window \(w) does not exist (\(windowCount == 1 ? "one window, index 0" : "\(windowCount) windows, indexes 0 to \(windowCount - 1)"))")
                }
                window = w
            }
            try checkOrder(time, line: number)
            if !step.isEmpty, lastTime != time { flush(into: &entries) }
            step.append(TouchChange(id: id, phase: phase, location: Point(x: x, y: y), timestamp: time, windowIndex: window))
            lastTime = time
        }

        /// Ends the script: appends the step still open, if any.
        public mutating func finish(into entries: inout [Entry]) {
            flush(into: &entries)
        }

        private mutating func flush(into entries: inout [Entry]) {
            guard !step.isEmpty else { return }
            entries.append(.touches(step))
            step = []
        }

        private static func time(_ field: String, line: Int) throws(TouchScriptError) -> Double {
            guard let time = Double(field), time.isFinite else {
                throw TouchScriptError(line: line, message: "time '\(field)' is not a finite number")
            }
            return time
        }

        private func checkOrder(_ time: Double, line: Int) throws(TouchScriptError) {
            if let lastTime, time < lastTime {
                throw TouchScriptError(line: line, message: "time \(time) goes backwards (after \(lastTime))")
            }
        }
    }

    /// The CSV form (with a header line).
    public var csv: String {
        var out = "time,id,phase,x,y,window\n"
        for entry in entries {
            switch entry {
            case .touches(let step):
                for c in step {
                    out += "\(c.timestamp),\(c.id),\(c.phase.rawValue),\(c.location.x),\(c.location.y),\(c.windowIndex.map(String.init) ?? "")\n"
                }
            case .advanceTime(let t):
                out += "\(t),advance\n"
            }
        }
        return out
    }
}

/// A line of a touch script that could not be read.
public struct TouchScriptError: Error, Hashable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// An error at a 1-based line.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`.
    public var description: String { "line \(line): \(message)" }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
