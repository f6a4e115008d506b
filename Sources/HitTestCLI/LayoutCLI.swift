import HitTestKit

extension HitTestCLI {
    /// `--size WxH` for `render`, `audit`, `query` and `explain`: the window takes that size
    /// (its origin kept), its views resize by their autoresizing masks and constraints, and the
    /// window lays out before anything is hit-tested.
    enum LayoutOption {
        /// Parses `844x390` (also `844X390`, `844*390`): two finite numbers, each in (0, 1e7].
        static func parse(_ text: String) throws -> Size {
            let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "*" }).map(String.init)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
                w.isFinite, h.isFinite, w > 0, h > 0, w <= 1e7, h <= 1e7
            else { throw Failure(message: "--size takes WIDTHxHEIGHT in points, e.g. 844x390 (each in (0, 1e7]), not '\(text)'") }
            return Size(width: w, height: h)
        }

        /// Resizes the window when `--size` was given, then lays it out.
        static func apply(_ text: String?, to window: Window) throws {
            guard let text else { return }
            let size = try parse(text)
            try LayoutReport.check("--size \(text)") {  // LayoutReport.swift
                let f = window.frame
                window.frame = Rect(x: f.minX, y: f.minY, width: size.width, height: size.height)
                window.layoutIfNeeded()
            }
        }
    }
}
