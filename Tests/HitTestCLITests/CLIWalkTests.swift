import Foundation
@testable import HitTestCLI
import HitTestKit
import HitTestReference
import HitTestScenes
import Testing

/// Issue 25, item 5: the CLI's answers and trails come from the C walk (`HitTestTrace`) and its
/// coordinates from the library's one conversion (`LevelConversion`). The cases below are those
/// where the CLI's own walk and conversions, now gone, rounded differently from the C walk.
@Suite struct CLIWalkTests {
    typealias T = SceneAndCLITests

    /// A child scaled by 3 (tx 0.1) with a bounds origin: the old walk converted the point as
    /// `a * q + (tx + offset)`, the C walk as `(a * q + tx) + offset`; at screen x
    /// 39.74999999999999 the first gives 13.699999999999998 (outside the child's region, which
    /// starts at 13.7), the second 13.7 (inside).
    static let scaled = #"""
        {"format":"hittest-scene","version":1,"root":{"id":"window","frame":[0,0,100,100],"children":[
          {"id":"scaled","frame":[46.75,0,7.1,10],"bounds":[13.7,0,7.1,10],"transform":[3,0,0,3,0.1,0]}]}}
        """#

    @Test func explainFollowsTheCWalkWhereTheOldWalkRoundedDifferently() throws {
        let path = CLIHostileInputTests.file(Self.scaled)
        let (status, c) = T.run(["explain", path, "39.74999999999999", "5"])
        // The old walk said "rejected: outside" here and then failed: "the index and the walk disagree".
        #expect(status == 0, "\(c.err)")
        #expect(c.out == """
            window at (39.75, 5): inside (bounds); searching 1 subview, last first
              scaled at (13.7, 5): inside (bounds); no subviews
              scaled at (13.7, 5): hit: no subview took the point
            => scaled (2 views tested)
            """, "\(c.out)")
        // The page answers the same there (its walk had the old arithmetic too).
        let window = try SceneFile(json: Data(Self.scaled.utf8)).makeWindow()
        #expect(window.hitTest(Point(x: 39.74999999999999, y: 5))?.accessibilityIdentifier == "scaled")
    }

    /// A window scrolled by 0.1: the screen point 5.689893001201561e-15 is at
    /// (p - 195) + 195.1 = 0.09999999999999432 in the window, left of its region (which starts
    /// at 0.1). The old one-pass `query` added a precomputed shift, p + 0.09999999999999432 = 0.1,
    /// and answered the window where `explain` and the two-pass `query` answer nothing.
    static let scrolled = #"""
        {"format":"hittest-scene","version":1,"root":{"id":"window","frame":[0,0,390,844],"bounds":[0.1,0,390,844]}}
        """#

    @Test func queryConvertsScreenPointsAsExplainDoes() throws {
        let path = CLIHostileInputTests.file(Self.scrolled)
        let points = CLIHostileInputTests.file("5.689893001201561e-15,10\n20,10\n", "points.csv")
        let (status, c) = T.run(["query", path, points])
        #expect(status == 0, "\(c.err)")
        #expect(c.out == "x,y,id\n5.689893001201561e-15,10,\n20,10,window", "\(c.out)")
        let (_, e) = T.run(["explain", path, "5.689893001201561e-15", "10"])
        #expect(e.out == "window at (0.1, 10): rejected: outside (bounds)\n=> nothing (1 view tested)", "\(e.out)")
        // The binary input, read in pieces on the same one-pass path.
        var bytes = Data()
        for v in [5.689893001201561e-15, 10, 20, 10] { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        let f64 = T.temp("points.f64")
        try bytes.write(to: URL(fileURLWithPath: f64))
        let (s2, b) = T.run(["query", path, f64])
        #expect(s2 == 0, "\(b.err)")
        #expect(b.out == "x,y,id\n5.689893001201561e-15,10,\n20,10,window", "\(b.out)")
    }

    /// A window at the origin: the screen point -1e-300 is (p - 100) + 100 = 0 in the window,
    /// inside it. The old one-pass `query` took the point as it is there (outside: nothing),
    /// while `explain` answered the window.
    @Test func queryAndExplainAgreeOnATinyNegativePoint() throws {
        let path = CLIHostileInputTests.file(#"{"format":"hittest-scene","version":1,"root":{"id":"window","frame":[0,0,200,300]}}"#)
        let points = CLIHostileInputTests.file("-1e-300,5\n", "points.csv")
        let (status, c) = T.run(["query", path, points])
        #expect(status == 0 && c.out == "x,y,id\n-1e-300,5,window", "\(c.out)")
        #expect(T.run(["explain", path, "-1e-300", "5"]).1.out.hasSuffix("=> window (1 view tested)"))
    }

    @Test func explainTraceWordsForEveryDecision() throws {
        let json = #"""
            {"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,300,300],"children":[
              {"id":"target","frame":[0,0,300,300],"hitTestInsets":[1,1,1,1],"children":[
                {"id":"high","frame":[200,200,10,10],"hitTestPriority":1},
                {"id":"low","frame":[0,0,300,300]}]},
              {"id":"reaches","frame":[250,250,10,10],"allowsSubviewHitsOutsideBounds":true,"children":[
                {"id":"reaches-child","frame":[0,0,5,5]}]},
              {"id":"passes","frame":[0,0,300,300],"passesTouchesThrough":true},
              {"id":"singular","frame":[0,0,300,300],"transform":[0,0,0,1,0,0]},
              {"id":"inert","frame":[0,0,300,300],"interactive":false},
              {"id":"faded","frame":[0,0,300,300],"alpha":0.005},
              {"id":"hidden","frame":[0,0,300,300],"hidden":true}]}}
            """#
        let (status, c) = T.run(["explain", CLIHostileInputTests.file(json), "20", "30"])
        #expect(status == 0, "\(c.err)")
        #expect(c.out == """
            w at (20, 30): inside (bounds); searching 7 subviews, last first
              hidden at (20, 30): rejected: hidden
              faded at (20, 30): rejected: alpha 0.005 < 0.01
              inert at (20, 30): rejected: userInteractionEnabled is false
              singular at (nan, nan): rejected: outside (bounds)
              passes at (20, 30): inside (bounds); no subviews
              passes at (20, 30): nil: passesTouchesThrough
              reaches at (-230, -220): outside, but allowsSubviewHitsOutsideBounds; searching 1 subview, last first
                reaches-child at (-230, -220): rejected: outside (bounds)
              reaches at (-230, -220): nil: no subview took the point
              target at (20, 30): inside (bounds with hitTestInsets); searching 2 subviews, last first
                high at (-180, -170): rejected: outside (bounds)
                low at (20, 30): inside (bounds); no subviews
                low at (20, 30): hit: no subview took the point
            => low (11 views tested)
            """, "\(c.out)")
    }

    @Test func theCostMapCountsTheTrailsCalls() throws {
        let window = try SceneFile(json: Data(Self.scaled.utf8)).makeWindow()
        let points = stride(from: -10.0, to: 110, by: 0.5).map { Point(x: $0, y: 5) }
        let costs = window.hitTestCosts(points)
        for (p, cost) in zip(points, costs) {
            var visits = 0
            _ = Reference.hitTest(window, p, with: nil, visits: &visits)
            #expect(cost == visits && cost == window.hitTestTrace(p).viewsTested)
        }
        #expect(Set(costs) == [1, 2])
    }
}
