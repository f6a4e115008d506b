import Foundation
import HitTestKit
import Testing

@testable import HitTestCLI
@testable import HitTestScenes

/// Issue 24 on the Auto Layout side: layout values beyond the range (item 3), the solver's
/// cost on inactive inequalities through the Swift layer (item 10), bad constants and
/// multipliers (item 13), scene constraint messages (item 14) and conflicts in scenes (item 15).
/// Issues are collected with `LayoutConstraint.collectingIssues` (task-local): these tests do
/// not touch the global handler, and run in parallel with the others.
@Suite struct SolverHostileInputTests {
    /// A window with `n` views: view i is 10 high, at the window's top left, and
    /// `width == 1e6 * view(i+1).width`; the last is `width == 1e15`.
    static func multiplierChain(_ n: Int) -> (Window, [View], [LayoutConstraint]) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        var views: [View] = []
        for i in 0..<n {
            let v = View()
            v.accessibilityIdentifier = "v\(i)"
            v.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(v)
            views.append(v)
        }
        var cs: [LayoutConstraint] = []
        for (i, v) in views.enumerated() {
            cs += [
                v.leadingAnchor.constraint(equalTo: window.leadingAnchor), v.topAnchor.constraint(equalTo: window.topAnchor),
                v.heightAnchor.constraint(equalToConstant: 10),
                i + 1 < n ? v.widthAnchor.constraint(equalTo: views[i + 1].widthAnchor, multiplier: 1e6) : v.widthAnchor.constraint(equalToConstant: 1e15),
            ]
        }
        return (window, views, cs)
    }

    static func inRange(_ r: Rect) -> Bool {
        [r.minX, r.minY, r.width, r.height].allSatisfy { $0.isFinite && abs($0) <= 1e15 }
    }

    // MARK: - Item 3: values beyond the range are a reported break, never a trap or a frame

    @Test(arguments: [3, 49, 50])
    func multiplierChainsBreakAConstraintInsteadOfOverflowing(n: Int) {
        let (window, views, cs) = Self.multiplierChain(n)
        let (_, issues) = LayoutConstraint.collectingIssues {
            LayoutConstraint.activate(cs)
            window.layoutIfNeeded()
        }
        #expect(!issues.isEmpty)
        #expect(issues.allSatisfy { $0.isOutOfRange && !$0.isConstantChange })
        for issue in issues {
            #expect(issue.constraint.isActive)  // broken, still active, not enforced
            #expect(views.contains { $0 === issue.outOfRangeItem })
            #expect(issue.outOfRangeValue == "width")
            let message = LayoutConstraint.unsatisfiableMessage(broken: issue.constraint, conflicting: issue.conflicting)
            #expect(message.contains("Layout values stay within ±1e15"), "\(message)")
        }
        for v in views { #expect(Self.inRange(v.frame), "\(v.accessibilityIdentifier!): \(v.frame)") }
        // Added in order, the last constraint (width == 1e15) is the one that would overflow.
        #expect(issues.first?.constraint === cs[cs.count - 1])
        #expect(views.allSatisfy { $0.frame.width == 0 && $0.frame.height == 10 })
    }

    @Test func aConstantChangeBeyondTheRangeIsRefusedAndTheFramesStay() {
        let (window, views, cs) = Self.multiplierChain(3)
        let last = cs[cs.count - 1]
        last.constant = 100
        let (_, first) = LayoutConstraint.collectingIssues {
            LayoutConstraint.activate(cs)
            window.layoutIfNeeded()
        }
        #expect(first.isEmpty)
        #expect(views[0].frame.width == 1e14 && views[2].frame.width == 100)
        let (_, issues) = LayoutConstraint.collectingIssues {
            last.constant = 1e4  // v0 would be 1e16 wide
            window.layoutIfNeeded()
        }
        #expect(issues.count == 1)
        #expect(issues.first?.isConstantChange == true && issues.first?.isOutOfRange == true)
        #expect(issues.first?.constraint === last)
        #expect(issues.first?.outOfRangeItem === views[0])
        #expect(views[0].frame.width == 1e14 && views[2].frame.width == 100)  // the last valid frames
        let (_, back) = LayoutConstraint.collectingIssues {
            last.constant = 50
            window.layoutIfNeeded()
        }
        #expect(back.isEmpty && views[0].frame.width == 5e13)
    }

    @Test func anOptionalPullYieldsToTheRange() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let a = View(), b = View()
        for v in [a, b] {
            v.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(v)
        }
        let pull = a.widthAnchor.constraint(equalToConstant: 1e15)
        pull.priority = .defaultHigh
        let (_, issues) = LayoutConstraint.collectingIssues {
            LayoutConstraint.activate([
                pull, b.widthAnchor.constraint(equalTo: a.widthAnchor, multiplier: 10),
                a.heightAnchor.constraint(equalToConstant: 1), b.heightAnchor.constraint(equalToConstant: 1),
            ] + [a, b].flatMap { [$0.leadingAnchor.constraint(equalTo: window.leadingAnchor), $0.topAnchor.constraint(equalTo: window.topAnchor)] })
            window.layoutIfNeeded()
        }
        #expect(issues.isEmpty)
        #expect(b.frame.width == 1e15 && a.frame.width == 1e14)
    }

    @Test func aTranslatingViewFarBeyondTheRangeIsReportedNotTrapped() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let pinned = View(frame: Rect(x: 0, y: 0, width: 1e300, height: 10))  // its mask's pins
        let follower = View()
        follower.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(pinned)
        window.addSubview(follower)
        let (_, issues) = LayoutConstraint.collectingIssues {
            LayoutConstraint.activate([
                follower.widthAnchor.constraint(equalTo: pinned.widthAnchor), follower.heightAnchor.constraint(equalToConstant: 5),
                follower.leadingAnchor.constraint(equalTo: window.leadingAnchor), follower.topAnchor.constraint(equalTo: window.topAnchor),
            ])
            window.layoutIfNeeded()
        }
        #expect(issues.contains { $0.isOutOfRange && $0.outOfRangeItem === pinned })
        #expect(Self.inRange(follower.frame))
    }

    // MARK: - Item 10: an inactive inequality per view costs O(1) through the Swift layer

    /// A chain of `n` views (leading, trailing, top = previous bottom + 8, height, width: five
    /// constraints each) plus `top >= window.top` on each, built, laid out, then edited.
    static func chainWithInequalities(_ n: Int) -> (Window, [View], LayoutConstraint) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        var previous: View?
        var views: [View] = []
        var edit: LayoutConstraint?
        var cs: [LayoutConstraint] = []
        for i in 0..<n {
            let v = View()
            v.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(v)
            views.append(v)
            let top = v.topAnchor.constraint(equalTo: previous?.bottomAnchor ?? window.topAnchor, constant: 8)
            if i == n / 2 { edit = top }
            cs += [
                v.leadingAnchor.constraint(equalTo: window.leadingAnchor), v.trailingAnchor.constraint(equalTo: window.trailingAnchor),
                top, v.heightAnchor.constraint(equalToConstant: 44),
                previous.map { v.widthAnchor.constraint(equalTo: $0.widthAnchor) } ?? v.widthAnchor.constraint(equalToConstant: 320),
                v.topAnchor.constraint(greaterThanOrEqualTo: window.topAnchor),
            ]
            previous = v
        }
        LayoutConstraint.activate(cs)
        window.layoutIfNeeded()
        return (window, views, edit!)
    }

    @Test func aChainWithAnInequalityPerViewIsLinear() {
        let n = 3000
        let clock = ContinuousClock()
        var made: (Window, [View], LayoutConstraint)?
        let build = clock.measure { made = Self.chainWithInequalities(n) }
        let (window, views, edit) = made!
        #expect(views[n - 1].frame == Rect(x: 0, y: 8 + 52 * Double(n - 1), width: 320, height: 44))
        let edits = clock.measure {
            for k in 0..<20 {
                edit.constant = 8 + Double(k % 2)
                window.layoutIfNeeded()
            }
        }
        #expect(views[n - 1].frame.minY == 8 + 52 * Double(n - 1) + 1)
        // Quadratic before (2,000 views took 82 s, an edit 7 ms at 1,000): linear now. Bounds
        // that a debug build on a loaded machine meets with room; the benchmark has the figures.
        #expect(build < .seconds(20), "build \(build)")
        #expect(edits < .seconds(10), "20 edits \(edits)")
        #expect(!views[0].hasAmbiguousLayout && !views[n - 1].hasAmbiguousLayout)
    }

    // MARK: - Item 13: bad constants and multipliers stop at the call, naming the value

    @Test func badConstantsAndMultipliersStopAtTheCall() async {
        await #expect(processExitsWith: .failure) {
            _ = View().widthAnchor.constraint(equalToConstant: 1e308)
        }
        await #expect(processExitsWith: .failure) {
            _ = View().leadingAnchor.constraint(equalTo: View().leadingAnchor, constant: -1e16)
        }
        await #expect(processExitsWith: .failure) {
            let c = View().widthAnchor.constraint(equalToConstant: 10)
            c.constant = 1e308
        }
        await #expect(processExitsWith: .failure) {
            _ = View().widthAnchor.constraint(equalTo: View().widthAnchor, multiplier: 1e7)
        }
        await #expect(processExitsWith: .failure) {
            _ = View().widthAnchor.constraint(equalTo: View().widthAnchor, multiplier: 1e-7)
        }
        // At the limits: accepted.
        let c = View().widthAnchor.constraint(equalTo: View().widthAnchor, multiplier: 1e-6, constant: -1e15)
        c.constant = 1e15
        _ = View().widthAnchor.constraint(equalTo: View().widthAnchor, multiplier: -1e6)
        _ = View().widthAnchor.constraint(equalTo: View().widthAnchor, multiplier: 0)
    }

    // MARK: - Scenes: items 3, 14 and 15 through the tool

    static func file(_ json: String, _ name: String) -> String {
        let path = SceneAndCLITests.temp(name)
        try! Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func scene(_ children: [(String, [String])]) -> String {
        let kids = children.map { id, cs in
            #"{"id":"\#(id)","frame":[0,0,0,0],"constraints":[\#(cs.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        }
        return #"{"format":"hittest-scene","version":1,"root":{"id":"window","frame":[0,0,320,480],"children":[\#(kids.joined(separator: ","))]}}"#
    }

    static func run(_ args: [String]) -> (Int32, SceneAndCLITests.Captured) {
        let c = SceneAndCLITests.Captured()
        return (HitTestCLI.run(args, output: c.output), c)
    }

    @Test func conflictingSceneConstraintsAreNamedAsTheFileWritesThem() {
        let path = Self.file(
            Self.scene([("box", ["leading == superview.leading", "top == superview.top", "height == 10", "width == 100", "width == 200"])]),
            "conflict.json")
        let (status, c) = Self.run(["stats", path])
        #expect(status == 0)
        let expected = #"window/box: "width == 200" conflicts with window/box: "width == 100"; not enforced"#
        #expect(c.err.contains("warning: \(path): \(expected) (--strict makes this an error)"), "\(c.err)")
        #expect(!c.err.contains("0x") && !c.err.contains("symbolic breakpoint"), "\(c.err)")
        let (again, c2) = Self.run(["stats", path])
        #expect(again == 0 && c2.err == c.err)  // deterministic
        for args in [["stats", path, "--strict"], ["explain", path, "1", "1", "--strict"]] {
            let (strict, c3) = Self.run(args)
            #expect(strict == 2, "\(args)")
            #expect(c3.err.contains("\(path): \(expected)"), "\(c3.err)")
        }
    }

    @Test func aResizeThatBreaksAConstraintIsReportedToo() {
        let path = Self.file(
            Self.scene([("box", ["leading == superview.leading", "trailing == superview.trailing", "top == superview.top", "height == 10", "width == 320"])]),
            "resize.json")
        let (status, c) = Self.run(["stats", path])
        #expect(status == 0 && c.err.isEmpty, "\(c.err)")
        let (resized, c2) = Self.run(["explain", path, "1", "1", "--size", "400x480"])
        #expect(resized == 0)
        #expect(c2.err.contains("warning: --size 400x480: window"), "\(c2.err)")
        let (strict, c3) = Self.run(["explain", path, "1", "1", "--size", "400x480", "--strict"])
        #expect(strict == 2, "\(c3.err)")
    }

    @Test(arguments: [3, 50])
    func sceneLayoutBeyondTheRangeIsAnErrorInEveryCommand(n: Int) {
        let views = (0..<n).map { i in
            ("v\(i)", ["leading == superview.leading", "top == superview.top", "height == 10", i + 1 < n ? "width == 1e6*v\(i + 1).width" : "width == 1e15"])
        }
        let path = Self.file(Self.scene(views), "chain\(n).json")
        let points = Self.file("1,1\n", "chain-points.csv")
        for args in [["stats", path], ["query", path, points], ["render", path, "-o", SceneAndCLITests.temp("chain.png")], ["audit", path],
                     ["explain", path, "1", "1"]] {
            let (status, c) = Self.run(args)
            #expect(status == 2, "\(args[0])")
            let expected = #"\#(path): window/v\#(n - 2): "width == 1e6*v\#(n - 1).width" would put the width of window/v\#(n - 2) beyond ±1e15 (with window/v\#(n - 1): "width == 1e15"); not enforced"#
            #expect(c.err.contains(expected), "\(c.err)")
        }
    }

    @Test func constraintNumbersOutOfRangeSayTheLimit() throws {
        func load(_ constraint: String) -> String {
            let json = Self.scene([("a", [constraint]), ("b", [])])
            do {
                _ = try SceneFile(json: Data(json.utf8))
                return "loaded"
            } catch { return "\(error)" }
        }
        #expect(load("width == 1e7*b.width").contains("the multiplier before * must be 0 or within 1e-6 to 1e6 in magnitude, found 1e7"))
        #expect(load("width == 1e-7*b.width").contains("found 1e-7"))
        #expect(load("width == x*b.width").contains("expected a number before *, found \"x\""))
        #expect(load("width == b.width + 1e308").contains("the constant after \"+\" must be within ±1e15, found 1e308"))
        #expect(load("width == b.width - 2e15").contains("the constant after \"-\" must be within ±1e15, found 2e15"))
        #expect(load("width == b.width + ten").contains("expected a number after \"+\", found \"ten\""))
        #expect(load("width == 1e16").contains("the constant must be a number within ±1e15, found 1e16"))
        #expect(load("width == 1e6*b.width - 1e15") == "loaded")
        #expect(load("width == 1e-6*b.width + 1e15") == "loaded")
    }
}
