import HitTestKit
import HitTestScenes

extension HitTestCLI {
    /// What a command reports about the layout of its scene: constraints that conflict (a
    /// warning on standard error; an error with `--strict`) and constraints that would put a
    /// frame value beyond ±1e15 (always an error). Both name each constraint as the scene file
    /// writes it, with its node's path, in a deterministic order (`LayoutConstraint.Issue.sceneDescription`);
    /// UIKit's console message is not printed. Exit status 2 for an error. [ours]
    struct LayoutReport: Sendable {
        var output: Output
        /// `--strict`: a conflict is an error too.
        var strict: Bool

        /// The report of the command being run (set by `HitTestCLI.run`).
        @TaskLocal static var current: LayoutReport?

        /// Runs `body` (building a scene's window, or laying it out again), then reports the
        /// layout issues it had for the scene `file`.
        static func check<R>(_ file: String, _ body: () throws -> R) throws -> R {
            let (result, issues) = try LayoutConstraint.collectingIssues(body)
            guard !issues.isEmpty else { return result }
            let report = current ?? LayoutReport(output: .standard, strict: false)
            let errors = issues.filter { $0.isOutOfRange || report.strict }
            // Ids and scene text come from the file: control characters are escaped.
            for issue in issues where !(issue.isOutOfRange || report.strict) {
                report.output.err("warning: \(file): \(issue.sceneDescription) (--strict makes this an error)".escapingControlCharacters)
            }
            if !errors.isEmpty {
                throw Failure(message: errors.map { "\(file): \($0.sceneDescription)".escapingControlCharacters }.joined(separator: "\n"))
            }
            return result
        }
    }
}
