import HitTestKit

/// A view that records its hierarchy callbacks into a shared log, as lines such as
/// `a.didAddSubview(b)`, naming views by their `name` (other views as `window` or `view`).
public final class LoggingView: View {
    /// The name the log lines use.
    public let name: String
    /// The log this view appends to.
    public let log: Log

    /// A shared, ordered list of callback lines.
    public final class Log {
        /// The lines, oldest first.
        public var lines: [String] = []

        /// An empty log.
        public init() {}
    }

    /// A zero-frame view called `name` that logs into `log`.
    public init(_ name: String, log: Log) {
        self.name = name
        self.log = log
        super.init(frame: .zero)
    }

    private func label(_ v: View?) -> String {
        guard let v else { return "nil" }
        return (v as? LoggingView)?.name ?? (v is Window ? "window" : "view")
    }

    /// Logs `name.didAddSubview(subview)`.
    public override func didAddSubview(_ subview: View) { log.lines.append("\(name).didAddSubview(\(label(subview)))") }
    /// Logs `name.willRemoveSubview(subview)`.
    public override func willRemoveSubview(_ subview: View) { log.lines.append("\(name).willRemoveSubview(\(label(subview)))") }
    /// Logs `name.willMoveToSuperview(newSuperview)`.
    public override func willMove(toSuperview newSuperview: View?) { log.lines.append("\(name).willMoveToSuperview(\(label(newSuperview)))") }
    /// Logs `name.didMoveToSuperview`.
    public override func didMoveToSuperview() { log.lines.append("\(name).didMoveToSuperview") }
    /// Logs `name.willMoveToWindow(newWindow)`.
    public override func willMove(toWindow newWindow: Window?) { log.lines.append("\(name).willMoveToWindow(\(label(newWindow)))") }
    /// Logs `name.didMoveToWindow`.
    public override func didMoveToWindow() { log.lines.append("\(name).didMoveToWindow") }
}
