import HitTestKit
import Testing

/// The spellings of `Tests/Fixtures/public-surface.txt` that came with the layer split (the
/// C walk's trail, `HitTestTrace`, and `TouchScript.Parser.windowCount`), used as a user of
/// `import HitTestKit` writes them. This file imports nothing else, so it compiles only while
/// each one is reachable through the umbrella; the rest of the baseline is used the same way by
/// the suites of each layer, and `scripts/docs.sh` checks every line of it against the
/// symbol graph.
@Suite struct PublicSurfaceTests {
    /// Every decision, in an exhaustive switch: a case renamed or removed does not compile.
    func label(_ decision: HitTestTrace.Decision) -> String {
        switch decision {
        case .hidden: "hidden"
        case .userInteractionDisabled: "userInteractionDisabled"
        case .transparent: "transparent"
        case .outside: "outside"
        case .singularTransform: "singularTransform"
        case .searchesSubviews(count: let count): "searchesSubviews(\(count))"
        case .capturesSubviewTouches: "capturesSubviewTouches"
        case .hitTestHandler: "hitTestHandler"
        case .hit: "hit"
        case .passesTouchesThrough: "passesTouchesThrough"
        case .noSubviewTookThePoint: "noSubviewTookThePoint"
        }
    }

    @Test func theDecisionsAreDistinctAndOnlyTheLastStepsAreNotCalls() {
        let all: [HitTestTrace.Decision] = [
            .hidden, .userInteractionDisabled, .transparent, .outside, .singularTransform,
            .searchesSubviews(count: 0), .searchesSubviews(count: 2), .capturesSubviewTouches,
            .hitTestHandler, .hit, .passesTouchesThrough, .noSubviewTookThePoint,
        ]
        #expect(Set(all.map(label)).count == all.count)
        #expect(HitTestTrace.Decision.searchesSubviews(count: 0) != .searchesSubviews(count: 2))
        #expect(all.filter { !$0.isCall } == [.hit, .passesTouchesThrough, .noSubviewTookThePoint])
    }

    /// A trail read field by field: a hidden view in front is tested and skipped, the box
    /// behind it is searched (no subviews) and is the answer.
    @Test func aTrailAsAUserReadsIt() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let box = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        let hidden = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        hidden.isHidden = true
        window.addSubview(box)
        window.addSubview(hidden)
        let trace: HitTestTrace = window.hitTestTrace(Point(x: 15, y: 15), with: nil)
        #expect(trace.hit === box)
        let steps: [HitTestTrace.Step] = trace.steps
        #expect(steps.map { label($0.decision) } == ["searchesSubviews(2)", "hidden", "searchesSubviews(0)", "hit"])
        #expect(steps.map(\.depth) == [0, 1, 1, 1])
        #expect(steps.map { $0.view === window ? "window" : $0.view === box ? "box" : "hidden" }
            == ["window", "hidden", "box", "box"])
        #expect(steps[2].point == Point(x: 5, y: 5))
        #expect(steps[0].isInside && steps[2].isInside)
        #expect(steps.map(\.askedPointInsideHandler) == [false, false, false, false])
        #expect(steps.map { $0.handlerAnswer == nil } == [true, true, true, true])
        #expect(trace.viewsTested == 3)
    }

    /// `windowCount` refuses a change naming a window the replay does not have, at its line.
    @Test func aParserWithAWindowCountRefusesAnUnknownWindow() throws {
        var parser = TouchScript.Parser()
        #expect(parser.windowCount == nil)
        parser.windowCount = 1
        var entries: [TouchScript.Entry] = []
        try parser.read("0,1,began,10,10,0", number: 2, into: &entries)
        do {
            try parser.read("0.1,1,ended,10,10,1", number: 3, into: &entries)
            Issue.record("window 1 of 1 was read")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("window 1 does not exist"), "\(error)")
        }
    }
}
