@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// Touch scripts carry time: `time,advance` lines, replayed as `advanceTime(to:)`.
@Suite struct GestureScriptTests {
    @Test func advanceLinesParseAndRoundTrip() throws {
        let script = try TouchScript(csv: """
            time,id,phase,x,y
            0,1,began,1,1
            0.5,advance
            0.5,1,ended,1,1
            # a comment
            2, advance
            """)
        #expect(script.entries.count == 4)
        #expect(script.entries[1] == .advanceTime(0.5))
        #expect(script.entries[3] == .advanceTime(2))
        #expect(script.steps.count == 2)
        #expect(script.entries.map(\.time) == [0, 0.5, 0.5, 2])
        #expect(try TouchScript(csv: script.csv) == script)
        #expect(script.csv.contains("0.5,advance\n"))
        let built = TouchScript(steps: script.steps, advancingTo: 2)
        #expect(built.entries.last == .advanceTime(2))
    }

    @Test func badAdvanceLines() {
        #expect(throws: TouchScriptError(line: 1, message: "time 'x' is not a finite number")) {
            try TouchScript(csv: "x,advance")
        }
        #expect(throws: TouchScriptError(line: 2, message: "time 0.5 goes backwards (after 1.0)")) {
            try TouchScript(csv: "1,1,began,1,1\n0.5,advance")
        }
        #expect(throws: TouchScriptError.self) { try TouchScript(csv: "1,advance,now") }
    }

    /// A script ending in an advance lets a long press fire, and replays to the same log twice.
    @Test func replayAdvancesTheClock() throws {
        let (app, window) = TestScenes.screen()
        var fired: [Double] = []
        window.addGestureRecognizer(LongPressGestureRecognizer { g in fired.append(g.currentTime!) })
        let script = try TouchScript(csv: "0,1,began,10,10\n0.8,advance")
        let first = app.replay(script).map(\.description)
        #expect(fired == [0.5])
        #expect(app.currentTime == 0.8)
        _ = app.replay(try TouchScript(csv: "0.9,1,ended,10,10"))
        let second = app.replay(script).map(\.description)
        #expect(first == second)
    }
}
