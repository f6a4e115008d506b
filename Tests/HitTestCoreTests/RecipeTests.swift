import Foundation
import HitTestKit
import HitTestReference
import Testing

/// The seed texts' hit-test recipes as scenarios with exact answers. Where a property fits,
/// each is built twice, with the property and with the handler that the seed text writes, and
/// both must give the same answers through the single call, the bulk call and the reference.
@Suite struct RecipeTests {
    /// The answers of `root` at `points` through every path; all paths must agree.
    func answers(_ root: View, _ points: [Point]) -> [View?] {
        let bulk = root.hitTest(points)
        let threaded = threadedHitTest(root, points)
        return points.enumerated().map { i, p in
            let single = root.hitTest(p)
            #expect(single === Reference.hitTest(root, p), "reference differs at \(p)")
            #expect(bulk[i] === single, "bulk differs at \(p)")
            #expect(threaded[i] === single, "multi-threaded bulk differs at \(p)")
            return single
        }
    }

    /// The points repeated past the parallel threshold, through the all-cores path.
    func threadedHitTest(_ root: View, _ points: [Point]) -> [View?] {
        let repeats = 20_000 / max(points.count, 1) + 1
        let many = Array(repeating: points, count: repeats).flatMap { $0 }
        var handles = [HitTestHandle](repeating: .none, count: many.count)
        many.withUnsafeBufferPointer { p in handles.withUnsafeMutableBufferPointer { root.hitTest(p, into: $0, threads: 2) } }
        return handles.prefix(points.count).map { root.view(forHitTestHandle: $0) }
    }

    enum Variant: CaseIterable { case property, handler }

    /// Seed 001: a mask over a button whose hitTest returns nil when the hit is the mask itself,
    /// so touches go through it to whatever is below.
    @Test(arguments: Variant.allCases)
    func maskLetsTouchesThrough(_ variant: Variant) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let button = View(frame: Rect(x: 50, y: 50, width: 100, height: 40))
        let mask = View(frame: window.bounds)
        let maskChild = View(frame: Rect(x: 200, y: 200, width: 50, height: 50))
        window.addSubview(button)
        window.addSubview(mask)
        mask.addSubview(maskChild)
        switch variant {
        case .property: mask.passesTouchesThrough = true
        case .handler:
            mask.hitTestHandler = { view, p, _, superHitTest in
                let hit = superHitTest(p)
                return hit === view ? nil : hit
            }
        }
        let got = answers(window, [Point(x: 60, y: 60), Point(x: 10, y: 10), Point(x: 210, y: 210)])
        #expect(got[0] === button)
        #expect(got[1] === window)
        #expect(got[2] === maskChild)  // the mask's own subviews still take touches
    }

    /// Seed 001: a tab bar whose centre button sticks out above the bar and still takes
    /// touches there.
    @Test(arguments: Variant.allCases)
    func tabBarCentreButtonOutsideTheBar(_ variant: Variant) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let bar = View(frame: Rect(x: 0, y: 761, width: 390, height: 83))
        let centre = View(frame: Rect(x: 165, y: -30, width: 60, height: 60))
        let item = View(frame: Rect(x: 0, y: 0, width: 78, height: 49))
        window.addSubview(bar)
        bar.addSubview(item)
        bar.addSubview(centre)
        switch variant {
        case .property: bar.allowsSubviewHitsOutsideBounds = true
        case .handler:
            bar.hitTestHandler = { view, p, _, superHitTest in
                if !view.isHidden {
                    let q = view.convert(p, to: centre)
                    if centre.point(inside: q) { return centre }
                }
                return superHitTest(p)
            }
        }
        let got = answers(window, [
            Point(x: 195, y: 740), Point(x: 195, y: 770), Point(x: 20, y: 770), Point(x: 300, y: 800),
            Point(x: 20, y: 740), Point(x: 195, y: 720),
        ])
        #expect(got[0] === centre)  // above the bar
        #expect(got[1] === centre)
        #expect(got[2] === item)
        #expect(got[3] === bar)
        #expect(got[4] === window)
        #expect(got[5] === window)  // above the button too
    }

    /// Seed 002: ViewB covers ButtonA; ViewA returns ButtonA first wherever ButtonA contains the
    /// point. The property: ButtonA is searched before its covering sibling.
    @Test(arguments: Variant.allCases)
    func viewAReturnsCoveredButtonA(_ variant: Variant) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let viewA = View(frame: window.bounds)
        let buttonA = View(frame: Rect(x: 20, y: 20, width: 100, height: 44))
        let viewB = View(frame: Rect(x: 0, y: 0, width: 320, height: 240))
        let buttonB = View(frame: Rect(x: 160, y: 100, width: 100, height: 44))
        window.addSubview(viewA)
        viewA.addSubview(buttonA)
        viewA.addSubview(viewB)
        viewB.addSubview(buttonB)
        switch variant {
        case .property: buttonA.hitTestPriority = 1
        case .handler:
            viewA.hitTestHandler = { view, p, _, superHitTest in
                let q = view.convert(p, to: buttonA)
                if buttonA.point(inside: q) { return buttonA }
                return superHitTest(p)
            }
        }
        let got = answers(window, [Point(x: 30, y: 30), Point(x: 170, y: 110), Point(x: 300, y: 200), Point(x: 300, y: 400)])
        #expect(got[0] === buttonA)
        #expect(got[1] === buttonB)
        #expect(got[2] === viewB)
        #expect(got[3] === viewA)
    }

    /// Seed 003, question 1: a control whose subviews must never receive touches.
    @Test(arguments: Variant.allCases)
    func controlKeepsTouchesFromItsSubviews(_ variant: Variant) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let control = View(frame: Rect(x: 20, y: 20, width: 160, height: 60))
        let icon = View(frame: Rect(x: 10, y: 10, width: 40, height: 40))
        let label = View(frame: Rect(x: 60, y: 10, width: 90, height: 40))
        window.addSubview(control)
        control.addSubview(icon)
        control.addSubview(label)
        switch variant {
        case .property: control.capturesSubviewTouches = true
        case .handler:
            control.hitTestHandler = { view, p, _, superHitTest in
                superHitTest(p) == nil ? nil : view
            }
        }
        let got = answers(window, [Point(x: 35, y: 35), Point(x: 100, y: 40), Point(x: 175, y: 75), Point(x: 100, y: 150)])
        #expect(got[0] === control && got[1] === control && got[2] === control)
        #expect(got[3] === window)
    }

    enum CoverVariant: CaseIterable { case property, hitTestHandler, pointInsideHandler }

    /// Seed 003, question 2 (by hitTest) and seed 004 (by pointInside): a view lying over a
    /// button lets the button take the touches that fall on it; elsewhere the cover takes them.
    @Test(arguments: CoverVariant.allCases)
    func coverLetsTheButtonBelowTakeTouches(_ variant: CoverVariant) {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let button = View(frame: Rect(x: 100, y: 100, width: 80, height: 40))
        let cover = View(frame: Rect(x: 50, y: 50, width: 200, height: 200))
        window.addSubview(button)
        window.addSubview(cover)
        switch variant {
        case .property: button.hitTestPriority = 1
        case .hitTestHandler:
            cover.hitTestHandler = { view, p, _, superHitTest in
                let q = view.convert(p, to: button)
                if button.point(inside: q) { return button }
                return superHitTest(p)
            }
        case .pointInsideHandler:
            cover.pointInsideHandler = { view, p, _ in
                let q = view.convert(p, to: button)
                if button.point(inside: q) { return false }
                return view.bounds.contains(p)
            }
        }
        let got = answers(window, [Point(x: 110, y: 110), Point(x: 179.5, y: 139.5), Point(x: 60, y: 60), Point(x: 10, y: 10), Point(x: 180, y: 120)])
        #expect(got[0] === button && got[1] === button)
        #expect(got[2] === cover)
        #expect(got[3] === window)
        #expect(got[4] === cover)  // the button's max edge is outside it
    }

    /// Seed 000: TestView1's pointInside refuses the points that fall inside its subviews'
    /// frames, so those touches reach the view underneath (not the subview, which is never
    /// searched); elsewhere TestView1 takes them. Only a handler can say this.
    @Test func testView1PassesTouchesOnItsSubviewsToTheViewBelow() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let background = View(frame: window.bounds)  // the white view that takes touches
        let v1 = View(frame: Rect(x: 50, y: 50, width: 200, height: 200))
        let v2 = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        window.addSubview(background)
        background.addSubview(v1)
        v1.addSubview(v2)
        v1.pointInsideHandler = { view, p, _ in
            let frame = Rect(x: 0, y: 0, width: view.frame.width, height: view.frame.height)
            let value = frame.contains(p)
            for subview in view.subviews where subview.frame.contains(p) { return false }
            return value
        }
        let got = answers(window, [Point(x: 60, y: 60), Point(x: 200, y: 200), Point(x: 10, y: 10)])
        #expect(got[0] === background)  // on v2: v1 refuses, so v2 is never reached
        #expect(got[1] === v1)
        #expect(got[2] === background)
    }

    @Test func hitTestInsetsGrowATapTarget() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let small = View(frame: Rect(x: 100, y: 100, width: 20, height: 20))
        let child = View(frame: Rect(x: -8, y: 0, width: 5, height: 5))
        window.addSubview(small)
        small.addSubview(child)
        #expect(answers(window, [Point(x: 95, y: 105)])[0] === window)
        small.hitTestInsets = EdgeInsets(top: -12, left: -12, bottom: -12, right: -12)
        let got = answers(window, [Point(x: 95, y: 105), Point(x: 89, y: 105), Point(x: 94, y: 102), Point(x: 131.5, y: 131.5), Point(x: 132, y: 110)])
        #expect(got[0] === small)
        #expect(got[1] === small)
        #expect(got[2] === child)  // the grown region lets the point reach a subview outside the bounds
        #expect(got[3] === small)
        #expect(got[4] === window)
        #expect(small.point(inside: Point(x: -12, y: -12)) && !small.point(inside: Point(x: 32, y: 0)))
    }

    @Test func handlersThatChangeViewsStop() async {
        await #expect(processExitsWith: .failure) {
            let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            let v = View(frame: window.bounds)
            window.addSubview(v)
            v.pointInsideHandler = { view, _, _ in
                view.frame.origin.x += 1  // not allowed during a hit test
                return true
            }
            _ = window.hitTest(Point(x: 10, y: 10))
        }
    }

    @Test func handlersRunOnTheCallingThreadOnly() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let v = View(frame: window.bounds)
        window.addSubview(v)
        final class Calls: @unchecked Sendable { var threads = Set<String>() }
        let calls = Calls()
        v.pointInsideHandler = { view, p, _ in
            calls.threads.insert("\(pthread_self())")
            return p.x < 50
        }
        let points = (0..<50_000).map { Point(x: Double($0 % 100), y: 10) }
        let hits = window.hitTest(points)
        #expect(calls.threads.count == 1)
        #expect(hits[10] === v && hits[60] === window)
    }
}
