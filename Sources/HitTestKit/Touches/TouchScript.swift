/// Recorded or generated input for `Application.replay(_:)`: input steps of touch changes.
///
/// The text form is CSV, one touch change a line: `time,id,phase,x,y[,window]` — time in
/// seconds, the finger's integer id, a phase (`began`, `moved`, `stationary`, `ended`,
/// `cancelled`), the location in screen coordinates, and optionally the index of the window a
/// beginning touch is confined to. An optional header line starts with `time`. Blank lines and
/// lines starting with `#` are skipped. Consecutive lines with the same time form one step.
public struct TouchScript: Sendable, Hashable {
    /// The input steps, in order.
    public var steps: [[TouchChange]]

    /// A script of the given steps.
    public init(steps: [[TouchChange]]) {
        self.steps = steps
    }

    /// Parses the CSV form.
    /// - Throws: `TouchScriptError` naming the line and what is wrong with it.
    public init(csv text: String) throws(TouchScriptError) {
        var steps: [[TouchChange]] = []
        var lastTime: Double?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: " \t\r")
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") || (number == 1 && line.hasPrefix("time")) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: " \t")
            }
            guard fields.count == 5 || fields.count == 6 else {
                throw TouchScriptError(line: number, message: "expected 5 or 6 fields (time,id,phase,x,y[,window]), found \(fields.count)")
            }
            guard let time = Double(fields[0]), time.isFinite else {
                throw TouchScriptError(line: number, message: "time '\(fields[0])' is not a finite number")
            }
            guard let id = Int(fields[1]) else {
                throw TouchScriptError(line: number, message: "touch id '\(fields[1])' is not an integer")
            }
            guard let phase = Touch.Phase(rawValue: fields[2]) else {
                throw TouchScriptError(line: number, message: "unknown phase '\(fields[2])' (began, moved, stationary, ended, cancelled)")
            }
            guard let x = Double(fields[3]), let y = Double(fields[4]), x.isFinite, y.isFinite else {
                throw TouchScriptError(line: number, message: "location '\(fields[3]),\(fields[4])' is not two finite numbers")
            }
            var window: Int?
            if fields.count == 6, !fields[5].isEmpty {
                guard let w = Int(fields[5]), w >= 0 else {
                    throw TouchScriptError(line: number, message: "window '\(fields[5])' is not a window index")
                }
                window = w
            }
            if let lastTime, time < lastTime {
                throw TouchScriptError(line: number, message: "time \(time) goes backwards (after \(lastTime))")
            }
            let change = TouchChange(id: id, phase: phase, location: Point(x: x, y: y), timestamp: time, windowIndex: window)
            if lastTime == time { steps[steps.count - 1].append(change) } else { steps.append([change]) }
            lastTime = time
        }
        self.steps = steps
    }

    /// The CSV form (with a header line).
    public var csv: String {
        var out = "time,id,phase,x,y,window\n"
        for step in steps {
            for c in step {
                out += "\(c.timestamp),\(c.id),\(c.phase.rawValue),\(c.location.x),\(c.location.y),\(c.windowIndex.map(String.init) ?? "")\n"
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

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        self[...].trimmingCharacters(in: set)
    }
}
