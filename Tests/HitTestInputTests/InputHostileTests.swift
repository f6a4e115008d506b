@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// Hostile input to the input layer (touch scripts, steps, recognizers, scroll views): every
/// case here once gave a silent wrong answer, a hang or a crash far from its cause.
@Suite struct InputHostileTests {
    // MARK: - Line endings (one line reader)

    @Test(arguments: ["\n", "\r\n", "\r"])
    func touchScriptsReadEveryLineEnding(_ end: String) throws {
        let lines = ["time,id,phase,x,y", "0,1,began,100,100", "0.1,1,ended,100,100", "1,advance"]
        let script = try TouchScript(csv: lines.joined(separator: end) + end)
        let reference = try TouchScript(csv: lines.joined(separator: "\n"))
        #expect(script == reference)
        #expect(script.entries.count == 3)
        #expect(script.steps.map(\.count) == [1, 1])
    }

    @Test func touchScriptErrorsCountCRLFLinesRight() {
        let text = "time,id,phase,x,y\r\n0,1,began,100,100\r\n\r\n0.1,1,flung,100,100\r\n"
        #expect(throws: TouchScriptError(line: 4, message: "unknown phase 'flung' (began, moved, stationary, ended, cancelled)")) {
            try TouchScript(csv: text)
        }
    }

    /// The incremental reader splits exactly as the whole-text one, whatever the chunk size
    /// (a CR at the end of one chunk and the LF at the start of the next are one terminator).
    @Test func lineReaderChunksSplitAsTheWholeText() {
        let text = "a,1\r\nb\rc\n\r\nd\r\r\ne\n\nlast"
        let whole = TextLineReader.lines(of: text).map(String.init)
        #expect(whole == ["a,1", "b", "c", "", "d", "", "e", "", "last"])
        let bytes = Array(text.utf8)
        for size in 1...bytes.count {
            var reader = TextLineReader()
            var got: [String] = []
            var numbers: [Int] = []
            let collect = { (line: UnsafeRawBufferPointer, number: Int) in
                got.append(String(decoding: line, as: UTF8.self))
                numbers.append(number)
            }
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                bytes[start..<end].withUnsafeBytes { reader.feed($0, collect) }
                start = end
            }
            reader.finish(collect)
            #expect(got == whole, "chunk size \(size)")
            #expect(numbers == Array(1...whole.count))
        }
    }

    @Test func escapingKeepsNamesOnOneLineAndReverses() {
        let id = "cell\n0.1 touch 1 controlEvent FAKE: touchUpInside\u{1B}[31m\0\\"
        let escaped = id.escapingControlCharacters
        #expect(!escaped.contains("\n") && !escaped.unicodeScalars.contains { $0.value < 0x20 })
        #expect(escaped == #"cell\n0.1 touch 1 controlEvent FAKE: touchUpInside\u{1B}[31m\u{0}\\"#)
        #expect("plain-id".escapingControlCharacters == "plain-id")
    }

    /// Item 17: an id cannot forge a log line or reach the terminal raw.
    @Test func logLinesEscapeNamesAndReasons() {
        let trace = Trace()
        let (app, _, left, _) = TracingScreens.sideBySide(trace)
        left.accessibilityIdentifier = "left\n0.1 touch 1 controlEvent FAKE: touchUpInside\u{1B}"
        app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 0)])
        let lines = app.deliveryLog.map(\.description)
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } })
        #expect(lines.first?.hasSuffix(#"left\n0.1 touch 1 controlEvent FAKE: touchUpInside\u{1B}"#) == true)
    }

    // MARK: - Two changes of one touch in one step

    /// UIKit delivers every phase in order, each hit-tested where it happened: a began and a
    /// move of one finger at one time are two steps, the began hit-tested at its own point.
    @Test func beganThenMovedInOneStepDeliversBothWhereTheyHappened() throws {
        let trace = Trace()
        let (app, _, left, right) = TracingScreens.sideBySide(trace)
        let script = try TouchScript(csv: "0,1,began,10,10\n0,1,moved,200,10\n0.1,1,ended,200,10\n")
        let log = app.replay(script).map(\.description)
        #expect(trace.lines == ["began [1]", "moved [1]", "ended [1]"])
        #expect(log == [
            "0.0 touch 1 began delivered left", "0.0 touch 1 moved delivered left", "0.1 touch 1 ended delivered left",
        ])
        _ = (left, right)
    }

    @Test func beganThenEndedInOneStepIsATap() {
        let trace = Trace()
        let (app, _, _, _) = TracingScreens.sideBySide(trace)
        let at = Point(x: 200, y: 10)
        app.injectTouches([
            TouchChange(id: 1, phase: .began, location: at, timestamp: 0),
            TouchChange(id: 2, phase: .began, location: Point(x: 10, y: 10), timestamp: 0),
            TouchChange(id: 1, phase: .ended, location: at, timestamp: 0),
        ])
        #expect(trace.lines == ["began [1]", "began [2]", "ended [1]"])
        #expect(app.deliveryLog.map(\.description) == [
            "0.0 touch 1 began delivered right", "0.0 touch 2 began delivered left", "0.0 touch 1 ended delivered right",
        ])
    }

    /// Through a tap recognizer too: the began is not lost, so the tap is recognized.
    @Test func aTapInOneStepIsRecognized() throws {
        let trace = Trace()
        let (app, _, left, _) = TracingScreens.sideBySide(trace)
        let tap = TapGestureRecognizer()
        var fired = 0
        tap.addAction { _ in fired += 1 }
        left.addGestureRecognizer(tap)
        _ = app.replay(try TouchScript(csv: "0,1,began,10,10\n0,1,ended,10,10\n1,advance\n"))
        #expect(fired == 1)
    }

    // MARK: - Many touches at once

    /// Item 12: touches down together cost linear time (a table by identity). At 100,000 a
    /// quadratic step takes minutes; this one a fraction of a second.
    @Test func aHundredThousandTouchesAtOnce() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        app.addWindow(window)
        let views = (0..<10).map { i -> View in
            let v = View(frame: Rect(x: Double(i) * 100, y: 0, width: 100, height: 1000))
            v.isMultipleTouchEnabled = i % 2 == 0
            window.addSubview(v)
            return v
        }
        let n = 100_000
        let downs = (0..<n).map { k in
            TouchChange(id: k, phase: .began, location: Point(x: Double(k % 1000) + 0.5, y: Double(k / 1000)), timestamp: 0)
        }
        app.injectTouches(downs)
        let began = app.deliveryLog.filter { $0.phase == .began }
        // Multiple-touch views take every touch; the others only their first.
        #expect(began.filter { $0.kind == .delivered }.count == n / 2 + 5)
        #expect(began.filter { $0.kind == .ignored }.count == n / 2 - 5)
        app.clearDeliveryLog()
        app.injectTouches((0..<n).map { k in TouchChange(id: k, phase: .moved, location: downs[k].location, timestamp: 0.1) })
        app.injectTouches((0..<n).map { k in TouchChange(id: k, phase: .ended, location: downs[k].location, timestamp: 0.2) })
        #expect(app.deliveryLog.filter { $0.kind == .delivered }.count == 2 * (n / 2 + 5))
        #expect(app.tracker.isIdle)
        _ = views
    }

    // MARK: - Values UIKit cannot have

    @Test func tapCountsOfZeroStop() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TapGestureRecognizer().numberOfTapsRequired = 0
        }
        await #expect(processExitsWith: .failure) {
            TapGestureRecognizer().numberOfTouchesRequired = 0
        }
        await #expect(processExitsWith: .failure) {
            LongPressGestureRecognizer().numberOfTouchesRequired = 0
        }
        await #expect(processExitsWith: .failure) {
            LongPressGestureRecognizer().minimumPressDuration = -1
        }
        await #expect(processExitsWith: .failure) {
            LongPressGestureRecognizer().minimumPressDuration = .nan
        }
    }

    @Test func theMessageNamesThePropertyAndTheValue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TapGestureRecognizer().numberOfTapsRequired = 0
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("TapGestureRecognizer.numberOfTapsRequired must be at least 1, got 0"))
    }

    @Test(arguments: [Double.nan, 1.0, -0.5, 0, 1.5, 0.99999])
    func badDecelerationRatesStopAtTheSetter(_ bad: Double) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [bits = bad.bitPattern as UInt64] in
            // (As its bits: a captured NaN would not survive the trip to the child process.)
            ScrollView(frame: .zero).decelerationRate = .init(rawValue: Double(bitPattern: bits))
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("ScrollView.decelerationRate"))
    }

    @Test func badOffsetsAndSizesStopAtTheCall() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let app = Application()
            let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            app.addWindow(window)
            let scroll = ScrollView(frame: window.bounds)
            window.addSubview(scroll)
            scroll.setContentOffset(Point(x: .nan, y: 0), animated: true)
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(text.contains("ScrollView.setContentOffset"))
        await #expect(processExitsWith: .failure) {
            ScrollView(frame: .zero).contentSize = Size(width: .infinity, height: 1)
        }
    }

    /// The slowest accepted rate still ends a flick within simulated minutes.
    @Test func theSlowestRateEndsItsDeceleration() {
        let s = ScrollRig(cellCount: 2)
        s.scroll.contentSize = Size(width: 320, height: 1e12)
        s.scroll.decelerationRate = .slowest
        s.scroll.setContentOffset(.zero, animated: false)
        // A fast flick: 400 pt in 1/60 s.
        _ = s.app.replay(
            TouchScript(steps: [
                [TouchChange(id: 1, phase: .began, location: Point(x: 100, y: 450), timestamp: 0)],
                [TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 400), timestamp: 0.02)],
                [TouchChange(id: 1, phase: .moved, location: Point(x: 100, y: 50), timestamp: 0.04)],
                [TouchChange(id: 1, phase: .ended, location: Point(x: 100, y: 50), timestamp: 0.04)],
            ]))
        s.app.isLoggingDeliveries = false
        s.app.advanceTime(to: 10 * 60)
        #expect(s.scroll.contentOffset.y > 1000)
        #expect(!s.scroll.isDecelerating)
        #expect(s.app.pendingDeadlineCount == 0)
    }
}
