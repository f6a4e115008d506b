import Foundation
import HitTestKit

/// Imports view trees dumped from real apps into scenes.
///
/// Three formats are read: UIKit's `recursiveDescription` text (with or without the `: 0x…`
/// addresses, so swift-snapshot-testing's `.recursiveDescription` files work as they are),
/// XCUITest / Appium page source XML, and the element description XCUITest prints
/// (`print(app.debugDescription)`). Android dumps (UI Automator XML, `dumpsys activity top`)
/// are recognised and refused with a clear message. The readers are iterative: a dump as deep
/// as the library accepts never recurses per level.
public enum SceneImporter {
    /// A scene and what could not be read on the way.
    public struct Result: Sendable {
        /// The imported scene.
        public var scene: SceneFile
        /// One line per thing skipped or guessed: `line N: …`.
        public var warnings: [String]
    }

    /// An import that failed: what stopped it, and the per-line warnings collected before,
    /// which usually explain it (every line skipped, say).
    public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the input as a whole.
        public var error: SceneError
        /// The warnings collected before the import stopped (`line N: …`).
        public var warnings: [String]

        /// An import error with its warnings.
        public init(_ error: SceneError, warnings: [String] = []) {
            self.error = error
            self.warnings = warnings
        }

        /// The message (without the warnings; print those one per line first).
        public var description: String { error.description }
    }

    /// The kinds of input `detectFormat` recognises.
    public enum Format: String, Sendable {
        /// UIKit's `recursiveDescription` text (`po view.recursiveDescription()`).
        case recursiveDescription
        /// XCUITest / Appium page source XML.
        case pageSource
        /// The text XCUITest prints for an element (`print(app.debugDescription)`): its
        /// `Element subtree:` section.
        case xcuiTestDescription
        /// An Android UI Automator XML dump (`<hierarchy><node bounds="[x1,y1][x2,y2]" …>`):
        /// recognised only to be refused.
        case androidUIAutomator
        /// Android's `adb shell dumpsys activity top` text: recognised only to be refused.
        case androidDumpsys
    }

    /// The format of `text`, from its first 64 KiB: Android UI Automator XML, Android
    /// `dumpsys activity top` text, XCUITest / Appium page source XML (`<?xml`, `<AppiumAUT`,
    /// `<XCUIElementType`), XCUITest's element description (`Element subtree:`, or lines shaped
    /// `Button, 0x…, {{x, y}, {w, h}}`), else `recursiveDescription`.
    public static func detectFormat(_ text: String) -> Format {
        let head = String(decoding: text.utf8.prefix(65536), as: UTF8.self)
        if head.contains("<hierarchy") && (head.contains("<node") || head.contains("bounds=\"[")) {
            return .androidUIAutomator
        }
        if head.contains("<node ") && head.contains("bounds=\"[") && head.contains("resource-id=") {
            return .androidUIAutomator
        }
        if head.contains("<?xml") || head.contains("<AppiumAUT") || head.contains("<XCUIElementType") {
            return .pageSource
        }
        if looksLikeDumpsys(head) { return .androidDumpsys }
        if XCUITestDescriptionReader.looks(head) { return .xcuiTestDescription }
        return .recursiveDescription
    }

    /// `dumpsys activity top`: a `TASK … id=` / `ACTIVITY … pid=` header, or view lines such as
    /// `android.widget.FrameLayout{8b0e0c1 V.E...... ........ 0,0-1080,2280}`.
    static func looksLikeDumpsys(_ head: String) -> Bool {
        if head.contains("TASK ") && head.contains("ACTIVITY ") && head.contains("pid=") { return true }
        if head.contains("View Hierarchy:") && head.contains("DecorView") { return true }
        // A view line: `Name{hex flags flags l,t-r,b` with Android's visibility flags.
        var count = 0
        for line in TextLineReader.lines(of: head).prefix(400) {
            guard let brace = line.firstIndex(of: "{") else { continue }
            let rest = line[line.index(after: brace)...]
            let words = rest.split(separator: " ", maxSplits: 4)
            if words.count >= 3, words[0].allSatisfy(\.isHexDigit),
                let flags = words[1].first, "VIG".contains(flags), words[1].count == 9
            {
                count += 1
                if count >= 2 { return true }
            }
        }
        return false
    }

    /// What is wrong with the text as text, if anything: UTF-16 or UTF-32 (its NUL bytes would
    /// reach every warning), or a NUL byte anywhere (a binary file), named by line and column.
    /// The text may come from bytes decoded leniently, where a UTF-16 byte order mark became
    /// two U+FFFD: those are looked through.
    static func encodingProblem(_ text: String) -> String? {
        var head = Array(text.utf8.prefix(16))
        for mark: [UInt8] in [[0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD], [0xEF, 0xBB, 0xBF]] where head.starts(with: mark) {
            head.removeFirst(mark.count)
            break
        }
        if let wide = SceneJSONReader.wideEncoding(head, kind: "a view dump") { return wide }
        let utf8 = text.utf8
        guard let nul = utf8.firstIndex(of: 0) else { return nil }
        // Lines end at LF, CRLF or a lone CR, as `TextLineReader` reads them.
        var line = 1, column = 1, afterCR = false
        for b in utf8[..<nul] {
            if b == 0x0D || (b == 0x0A && !afterCR) { line += 1 }
            column = b == 0x0D || b == 0x0A ? 1 : column + 1
            afterCR = b == 0x0D
        }
        return "the file holds a NUL byte at line \(line), column \(column): a view dump is text (is this a binary file?)"
    }

    /// The message for Android input.
    static let androidMessage =
        "Android UI Automator dumps are not supported: HitTestKit models UIKit's hit testing; export an iOS view tree (recursiveDescription) or an XCUITest / Appium page source instead"

    /// Imports any recognised format (see `detectFormat`).
    /// - Throws: `ImportError` when nothing usable is found, when the input is Android's, or
    ///   when a page source is not well-formed (truncated, say); it carries the warnings.
    public static func importScene(_ text: String) throws(ImportError) -> Result {
        if let problem = encodingProblem(text) { throw ImportError(SceneError(path: [], message: problem)) }
        switch detectFormat(text) {
        case .recursiveDescription: return try RecursiveDescriptionReader.read(text)
        case .pageSource: return try PageSourceReader.read(text)
        case .xcuiTestDescription: return try XCUITestDescriptionReader.read(text)
        case .androidUIAutomator:
            throw ImportError(SceneError(path: [], message: androidMessage))
        case .androidDumpsys:
            throw ImportError(SceneError(path: [], message: androidMessage + " (this is `dumpsys activity top` output)"))
        }
    }

    /// Imports UIKit's `recursiveDescription`: class, frame, hidden, alpha,
    /// userInteractionEnabled, transform, clipsToBounds, tag, baseClass, and scroll views'
    /// contentOffset (which becomes the bounds origin); nesting by the `|` indentation.
    ///
    /// Read as they come from lldb, Cycript or swift-snapshot-testing: with or without
    /// addresses (`<UIView: 0x7f…; …>` or `<UIView; …>`), module-qualified and mangled Swift
    /// class names (`_TtCC5Adyen12SubmitButton14BackgroundView` becomes
    /// `Adyen.SubmitButton.BackgroundView`), values holding `;`, `<…>`, `{…}`, quotes, a
    /// whole second view description (its fields are not the view's), texts with apostrophes
    /// (`text = 'What's new'`) or line breaks, descriptions wrapped over several lines, and
    /// LF, CRLF or CR line endings. Layer-only lines are skipped; other lines that cannot be
    /// read (a truncated dump's `...`) give a warning, and a view whose parent was lost is
    /// attached to the nearest ancestor that was read. A frame under a transform is UIKit's
    /// bounding box; it is turned back into the untransformed frame the scene format stores.
    /// - Throws: `SceneError` when no view is found (`importScene` also gives the warnings).
    public static func recursiveDescription(_ text: String) throws(SceneError) -> Result {
        if let problem = encodingProblem(text) { throw SceneError(path: [], message: problem) }
        do { return try RecursiveDescriptionReader.read(text) } catch { throw error.error }
    }

    /// Imports XCUITest / Appium page source: each element's type, x, y, width, height,
    /// enabled and visible. Frames are absolute on screen and become relative to the parent;
    /// `enabled="false"` becomes non-interactive, `visible="false"` hidden. The application
    /// element is the root; a wrapper such as `<AppiumAUT>` is skipped. Ids are the element's
    /// `name` when it is unique, else its type and a number.
    ///
    /// A page source is an accessibility tree in reading order, not a view tree in z-order, so
    /// touch targets are marked by type (see `PageSourceTouchRule`): containers that are not
    /// touch targets pass touches through to what they hold, and static texts and images
    /// do not take touches (as `UILabel` and `UIImageView` do not by default).
    ///
    /// The XML is read by an iterative scanner (any depth); it must be well-formed: a
    /// truncated or mismatched document is an error, never a partial scene.
    /// - Throws: `SceneError` (`importScene` also gives the warnings).
    public static func pageSource(_ text: String) throws(SceneError) -> Result {
        if let problem = encodingProblem(text) { throw SceneError(path: [], message: problem) }
        do { return try PageSourceReader.read(text) } catch { throw error.error }
    }

    /// Imports the text XCUITest prints for an element (`print(app.debugDescription)`, `po app`
    /// in a UI test): the `Element subtree:` section, one element a line, nested by
    /// indentation: each element's type, frame (absolute on screen, made relative to the
    /// parent), identifier or label (the id when unique, else its type and a number) and the
    /// `Disabled` flag (not interactive). Touch targets are marked by type as for a page source
    /// (`PageSourceTouchRule`): the elements are those of an accessibility tree, in reading
    /// order. XCUITest lists neither hidden views nor transforms nor scroll offsets, so neither
    /// does the scene [ours]. A line that is not an element gives a warning and is skipped; a
    /// text with no element with a frame is an error.
    /// - Throws: `SceneError` (`importScene` also gives the warnings).
    public static func xcuiTestDescription(_ text: String) throws(SceneError) -> Result {
        if let problem = encodingProblem(text) { throw SceneError(path: [], message: problem) }
        do { return try XCUITestDescriptionReader.read(text) } catch { throw error.error }
    }
}
