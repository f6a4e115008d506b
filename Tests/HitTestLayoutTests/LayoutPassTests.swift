import HitTestKit
import HitTestReference
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// A view that logs its layout calls into a shared list.
final class LayoutLogView: View {
    final class Log { var entries: [String] = [] }
    let log: Log
    let name: String
    var onLayout: ((LayoutLogView) -> Void)?
    var onUpdateConstraints: ((LayoutLogView) -> Void)?
    var marginChanges = 0

    init(_ name: String, _ log: Log, frame: Rect = .zero) {
        self.name = name
        self.log = log
        super.init(frame: frame)
    }

    override func layoutSubviews() {
        log.entries.append("layout \(name)")
        super.layoutSubviews()
        onLayout?(self)
    }

    override func updateConstraints() {
        log.entries.append("update \(name)")
        onUpdateConstraints?(self)
        super.updateConstraints()
    }

    override func layoutMarginsDidChange() { marginChanges += 1 }
}

private func close(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

/// SEMANTICS 10, rules 1–11: the layout pass, autoresizing, sizes, margins, the safe area.
@Suite struct LayoutPassTests {
    typealias M = View.AutoresizingMask

    // MARK: Rule 1: autoresizing runs when the bounds size changes

    @Test func rule1AutoresizingRunsOnBoundsSizeChangesOnly() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 10, y: 10, width: 80, height: 80))
        child.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        parent.addSubview(child)
        parent.frame = Rect(x: 0, y: 0, width: 200, height: 150)  // through frame
        #expect(close(child.frame, Rect(x: 10, y: 10, width: 180, height: 130)))
        parent.bounds.size = Size(width: 120, height: 120)  // through bounds
        #expect(close(child.frame, Rect(x: 10, y: 10, width: 100, height: 100)))
        parent.center = Point(x: 500, y: 500)  // origin only
        parent.bounds.origin = Point(x: 30, y: 40)
        #expect(close(child.frame, Rect(x: 10, y: 10, width: 100, height: 100)))
        parent.autoresizesSubviews = false
        parent.bounds.size = Size(width: 300, height: 300)
        #expect(close(child.frame, Rect(x: 10, y: 10, width: 100, height: 100)))
    }

    @Test func rule1AutoresizingCascadesIterativelyThroughADeepChain() {
        let depth = 100_000
        let root = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var last = root
        for _ in 0..<depth {
            let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            v.autoresizingMask = [.flexibleWidth]
            last.addSubview(v)
            last = v
        }
        root.frame = Rect(x: 0, y: 0, width: 250, height: 100)
        #expect(last.frame == Rect(x: 0, y: 0, width: 250, height: 100))
        root.layoutIfNeeded()  // every view was marked: an iterative walk
        #expect(!last.needsLayout && !root.needsLayout)
    }

    // MARK: Rule 2: proportional arithmetic

    @Test func rule2FlexiblePartsShareTheChangeInProportion() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 20, y: 10, width: 30, height: 40))
        child.autoresizingMask = [.flexibleLeftMargin, .flexibleWidth, .flexibleRightMargin, .flexibleTopMargin, .flexibleHeight]
        parent.addSubview(child)
        parent.bounds.size = Size(width: 340, height: 150)
        // iOS observed 20/30 -> 68/102 for 100 -> 340 with all three flexible.
        // Vertically: top 10 and height 40 share 50 in proportion 10:40 (bottom margin fixed).
        #expect(close(child.frame, Rect(x: 68, y: 20, width: 102, height: 80)))
    }

    @Test func rule2ComputedOnTheFrameWithoutRounding() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 10, y: 0, width: 20, height: 10))
        child.autoresizingMask = [.flexibleLeftMargin, .flexibleWidth]
        parent.addSubview(child)
        parent.bounds.size = Size(width: 101, height: 100)
        // Left 10 and width 20 share 1 as 1/3 and 2/3: no pixel rounding.
        #expect(abs(child.frame.minX - (10 + 1.0 / 3)) < 1e-9)
        #expect(abs(child.frame.width - (20 + 2.0 / 3)) < 1e-9)
        #expect(child.frame.minX != child.frame.minX.rounded())
    }

    // MARK: Rule 3: flexible parts summing to zero split the change equally

    @Test func rule3ZeroSumSplitsEqually() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 0, y: 0, width: 0, height: 100))
        child.autoresizingMask = [.flexibleLeftMargin, .flexibleWidth]
        parent.addSubview(child)
        parent.bounds.size = Size(width: 160, height: 100)
        #expect(close(child.frame, Rect(x: 30, y: 0, width: 30, height: 100)))
        // Negative sum (a view past its superview's edge): equal shares too.
        let other = View(frame: Rect(x: -50, y: 0, width: 10, height: 10))
        other.autoresizingMask = [.flexibleLeftMargin, .flexibleWidth]
        parent.addSubview(other)
        parent.bounds.size = Size(width: 200, height: 100)
        #expect(close(other.frame, Rect(x: -30, y: 0, width: 30, height: 10)))
    }

    // MARK: Rule 4: no mask keeps the frame; one flexible part takes the whole change

    @Test func rule4EmptyMaskKeepsAndOnePartTakesAll() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let fixed = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        let width = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        width.autoresizingMask = [.flexibleWidth]
        let left = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        left.autoresizingMask = [.flexibleLeftMargin, .flexibleTopMargin]
        let right = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        right.autoresizingMask = [.flexibleRightMargin, .flexibleBottomMargin]
        for v in [fixed, width, left, right] { parent.addSubview(v) }
        parent.bounds.size = Size(width: 170, height: 130)
        #expect(fixed.frame == Rect(x: 10, y: 10, width: 20, height: 20))
        #expect(close(width.frame, Rect(x: 10, y: 10, width: 90, height: 20)))
        #expect(close(left.frame, Rect(x: 80, y: 40, width: 20, height: 20)))
        #expect(right.frame == Rect(x: 10, y: 10, width: 20, height: 20))
    }

    // MARK: Rule 5: marks coalesce

    @Test func rule5ManyMarksGiveOneLayout() {
        let log = LayoutLogView.Log()
        let v = LayoutLogView("v", log, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        v.layoutIfNeeded()
        #expect(log.entries == [])  // nothing pending: nothing called
        v.setNeedsLayout()
        v.setNeedsLayout()
        v.setNeedsLayout()
        #expect(log.entries == [])  // only marks
        v.layoutIfNeeded()
        v.layoutIfNeeded()
        #expect(log.entries == ["layout v"])
    }

    // MARK: Rule 6: climb, then top-down

    @Test func rule6ClimbsToTheHighestMarkedAncestorThenGoesDown() {
        let log = LayoutLogView.Log()
        let a = LayoutLogView("a", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let b = LayoutLogView("b", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let c = LayoutLogView("c", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let d = LayoutLogView("d", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let e = LayoutLogView("e", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        a.addSubview(b)
        b.addSubview(c)
        b.addSubview(d)
        d.addSubview(e)
        a.layoutIfNeeded()
        log.entries = []
        e.setNeedsLayout()
        c.setNeedsLayout()
        b.setNeedsLayout()
        // Called on the leaf: b is the highest marked ancestor; b before its subviews, in
        // subview order, depth first.
        e.layoutIfNeeded()
        #expect(log.entries == ["layout b", "layout c", "layout e"])
        #expect(!a.needsLayout && !b.needsLayout && !c.needsLayout && !e.needsLayout)
    }

    @Test func rule6AViewResizedByItsSuperviewIsLaidOutInTheSamePass() {
        let log = LayoutLogView.Log()
        let parent = LayoutLogView("parent", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = LayoutLogView("child", log, frame: Rect(x: 0, y: 0, width: 50, height: 50))
        let grandchild = View(frame: .zero)
        parent.addSubview(child)
        child.addSubview(grandchild)
        parent.onLayout = { p in child.frame = Rect(x: 0, y: 0, width: p.bounds.width / 2, height: 50) }
        child.onLayout = { c in grandchild.frame = c.bounds }
        parent.layoutIfNeeded()
        log.entries = []
        parent.bounds.size = Size(width: 300, height: 100)
        parent.layoutIfNeeded()
        #expect(log.entries == ["layout parent", "layout child"])
        #expect(grandchild.frame == Rect(x: 0, y: 0, width: 150, height: 50))
    }

    @Test func rule6DeepChainLaysOutIteratively() {
        let log = LayoutLogView.Log()
        let root = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var last = root
        for _ in 0..<100_000 {
            let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            last.addSubview(v)
            last = v
        }
        let leaf = LayoutLogView("leaf", log)
        last.addSubview(leaf)
        root.layoutIfNeeded()
        #expect(log.entries == ["layout leaf"])
        leaf.setNeedsLayout()
        root.layoutIfNeeded()
        #expect(log.entries == ["layout leaf", "layout leaf"])
    }

    // MARK: Rule 7: what marks

    @Test func rule7BoundsSizeMarksMovingDoesNotAddAndRemoveMarkTheSuperview() {
        let parent = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        parent.layoutIfNeeded()
        #expect(!parent.needsLayout)
        parent.addSubview(child)
        #expect(parent.needsLayout)
        parent.layoutIfNeeded()
        #expect(!parent.needsLayout && !child.needsLayout)
        child.center = Point(x: 50, y: 50)
        child.bounds.origin = Point(x: 5, y: 5)
        #expect(!child.needsLayout && !parent.needsLayout)
        child.frame = Rect(x: 0, y: 0, width: 20, height: 10)
        #expect(child.needsLayout && !parent.needsLayout)
        parent.layoutIfNeeded()
        child.removeFromSuperview()
        #expect(parent.needsLayout)
        // Moving a view between superviews marks both.
        let other = View(frame: .zero)
        parent.addSubview(child)
        parent.layoutIfNeeded()
        other.addSubview(child)
        #expect(parent.needsLayout && other.needsLayout)
    }

    // MARK: Rule 8: the run loop lays out before each input step and after advanceTime

    @Test func rule8InputStepsSeeTheNewLayout() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        app.addWindow(window)
        let log = LayoutLogView.Log()
        let container = LayoutLogView("container", log, frame: window.bounds)
        container.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let button = RecordingView(frame: .zero)
        button.accessibilityIdentifier = "button"
        container.addSubview(button)
        // Places the button at the bottom right corner, whatever the size.
        container.onLayout = { c in
            button.frame = Rect(x: c.bounds.width - 60, y: c.bounds.height - 60, width: 50, height: 50)
        }
        window.addSubview(container)
        app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 350, y: 800), timestamp: 0)])
        app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 350, y: 800), timestamp: 0.1)])
        #expect(button.received == ["began [1]", "ended [1]"])
        // Rotate to landscape: the next step lays out first, then hit-tests.
        window.frame = Rect(x: 0, y: 0, width: 844, height: 390)
        #expect(button.frame.minX == 330)  // not laid out yet: only marked
        app.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 800, y: 350), timestamp: 1)])
        #expect(button.frame == Rect(x: 784, y: 330, width: 50, height: 50))
        #expect(button.received.last == "began [2]")
        #expect(window.mirrorMismatches() == [])
        #expect(Reference.hitTest(window, Point(x: 800, y: 350)) === button)
        // advanceTime lays out too.
        window.frame = Rect(x: 0, y: 0, width: 390, height: 844)
        app.advanceTime(to: 2)
        #expect(button.frame == Rect(x: 330, y: 784, width: 50, height: 50))
        #expect(!window.needsLayout)
    }

    // MARK: Rule 9: sizeThatFits and sizeToFit

    final class FixedSizeView: View {
        var asked: [Size] = []
        override func sizeThatFits(_ size: Size) -> Size {
            asked.append(size)
            return Size(width: 33, height: 11)
        }
    }

    @Test func rule9SizeThatFitsAndSizeToFit() {
        let plain = View(frame: Rect(x: 5, y: 6, width: 70, height: 80))
        #expect(plain.sizeThatFits(Size(width: 1, height: 1)) == Size(width: 70, height: 80))
        plain.sizeToFit()
        #expect(plain.frame == Rect(x: 5, y: 6, width: 70, height: 80))
        let custom = FixedSizeView(frame: Rect(x: 5, y: 6, width: 70, height: 80))
        custom.sizeToFit()
        #expect(custom.asked == [Size(width: 70, height: 80)])
        #expect(custom.frame == Rect(x: 5, y: 6, width: 33, height: 11))
    }

    // MARK: Rule 10: layout margins

    @Test func rule10LayoutMarginsDefaultAndChangeCallback() {
        let log = LayoutLogView.Log()
        let v = LayoutLogView("v", log, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(v.layoutMargins == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        v.layoutIfNeeded()
        v.layoutMargins = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(v.marginChanges == 1)
        #expect(v.layoutMargins == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(v.needsLayout)
        v.layoutMargins = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)  // the same: [ours] no call
        #expect(v.marginChanges == 1)
    }

    // MARK: Rule 11: the safe area

    @Test func rule11SafeAreaInsetsComeFromTheWindow() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(window.safeAreaInsets == .zero)
        window.safeAreaInsets = EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        #expect(window.safeAreaInsets == EdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        let full = View(frame: window.bounds)
        let header = View(frame: Rect(x: 0, y: 20, width: 390, height: 100))
        let middle = View(frame: Rect(x: 0, y: 200, width: 390, height: 100))
        let footer = View(frame: Rect(x: 10, y: 800, width: 100, height: 44))
        let tiny = View(frame: Rect(x: 0, y: 0, width: 390, height: 10))  // inside the top band
        window.addSubview(full)
        for v in [header, middle, footer, tiny] { full.addSubview(v) }
        #expect(full.safeAreaInsets == EdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        #expect(header.safeAreaInsets == EdgeInsets(top: 27, left: 0, bottom: 0, right: 0))
        #expect(middle.safeAreaInsets == .zero)
        #expect(footer.safeAreaInsets == EdgeInsets(top: 0, left: 0, bottom: 34, right: 0))
        #expect(tiny.safeAreaInsets == EdgeInsets(top: 10, left: 0, bottom: 0, right: 0))  // clamped to its size
        let loose = View(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(loose.safeAreaInsets == .zero)  // in no window
        // A scrolled superview moves the view in the window: the insets follow.
        full.bounds.origin = Point(x: 0, y: 200)
        #expect(middle.safeAreaInsets == EdgeInsets(top: 47, left: 0, bottom: 0, right: 0))
        // Landscape insets on the sides.
        window.safeAreaInsets = EdgeInsets(top: 0, left: 47, bottom: 21, right: 47)
        #expect(window.needsLayout)
        #expect(footer.safeAreaInsets == EdgeInsets(top: 0, left: 37, bottom: 0, right: 0))
    }

    // MARK: Hit testing after a resize

    @Test func hitTestAfterAResizeReachesTheViewWhereLayoutPutIt() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let bar = View(frame: Rect(x: 0, y: 794, width: 390, height: 50))
        bar.autoresizingMask = [.flexibleTopMargin, .flexibleWidth]
        let button = View(frame: Rect(x: 330, y: 5, width: 50, height: 40))
        button.autoresizingMask = [.flexibleLeftMargin]
        window.addSubview(bar)
        bar.addSubview(button)
        #expect(window.hitTest(Point(x: 350, y: 810)) === button)
        window.frame = Rect(x: 0, y: 0, width: 844, height: 390)
        #expect(close(bar.frame, Rect(x: 0, y: 340, width: 844, height: 50)))
        #expect(close(button.frame, Rect(x: 784, y: 5, width: 50, height: 40)))
        #expect(window.hitTest(Point(x: 800, y: 360)) === button)
        #expect(window.hitTest(Point(x: 350, y: 360)) === bar)
        let points = (0..<200).map { Point(x: Double($0 % 20) * 45, y: Double($0 / 20) * 40) }
        let answers = window.hitTest(points)
        let expected = points.map { Reference.hitTest(window, $0) }
        #expect(zip(answers, expected).allSatisfy { $0 === $1 })
        #expect(window.mirrorMismatches() == [])
    }

    // MARK: updateConstraints

    @Test func updateConstraintsRunsSubviewsFirstBeforeLayout() {
        let log = LayoutLogView.Log()
        let a = LayoutLogView("a", log, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let b = LayoutLogView("b", log)
        let c = LayoutLogView("c", log)
        a.addSubview(b)
        b.addSubview(c)
        a.layoutIfNeeded()
        log.entries = []
        a.setNeedsUpdateConstraints()
        c.setNeedsUpdateConstraints()
        c.setNeedsUpdateConstraints()
        a.setNeedsLayout()
        a.layoutIfNeeded()
        #expect(log.entries == ["update c", "update a", "layout a"])
        log.entries = []
        b.setNeedsUpdateConstraints()
        b.updateConstraintsIfNeeded()
        b.updateConstraintsIfNeeded()
        #expect(log.entries == ["update b"])
    }
}
