import Foundation
import HitTestKit
import HitTestReference
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// A view with a settable intrinsic content size (a label, say).
final class IntrinsicView: View {
    var intrinsic = Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
    override var intrinsicContentSize: Size { intrinsic }
}

/// Collects unsatisfiable reports (the handler is global: tests that break constraints
/// serialise through this lock and restore the default).
final class BrokenLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [(String, [String])] = []
    func add(_ c: LayoutConstraint, _ others: [LayoutConstraint]) {
        lock.lock()
        items.append((c.description, others.map(\.description)))
        lock.unlock()
    }
    var entries: [(String, [String])] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

func near(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-6) -> Bool {
    abs(a.minX - b.minX) <= tolerance && abs(a.minY - b.minY) <= tolerance
        && abs(a.width - b.width) <= tolerance && abs(a.height - b.height) <= tolerance
}

func constrained(_ frame: Rect = .zero) -> View {
    let v = View(frame: frame)
    v.translatesAutoresizingMaskIntoConstraints = false
    return v
}

/// SEMANTICS 10, rules 12–20: Auto Layout.
@Suite(.serialized) struct AutoLayoutTests {
    // MARK: Rule 12: a1 REL m × a2 + c over frames; leading = left; guides

    @Test func rule12ConstraintsRelateFrameAttributes() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 800))
        let a = constrained()
        let b = constrained()
        window.addSubview(a)
        window.addSubview(b)
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 20),
            a.topAnchor.constraint(equalTo: window.topAnchor, constant: 30),
            a.widthAnchor.constraint(equalTo: window.widthAnchor, multiplier: 0.5),
            a.heightAnchor.constraint(equalToConstant: 40),
            b.leftAnchor.constraint(equalTo: a.rightAnchor, constant: 10),
            b.trailingAnchor.constraint(equalTo: window.trailingAnchor, constant: -20),
            b.centerYAnchor.constraint(equalTo: a.centerYAnchor),
            b.heightAnchor.constraint(equalTo: a.heightAnchor, multiplier: 2, constant: 4),
        ])
        window.layoutIfNeeded()
        #expect(near(a.frame, Rect(x: 20, y: 30, width: 200, height: 40)))
        #expect(near(b.frame, Rect(x: 230, y: 8, width: 150, height: 84)))
        // The generic initializer: a.centerX == 0.5 × window.centerX + 0 (in the window's space).
        let c = constrained()
        window.addSubview(c)
        window.addConstraints([
            LayoutConstraint(item: c, attribute: .centerX, relatedBy: .equal, toItem: window, attribute: .centerX, multiplier: 0.5, constant: 0),
            LayoutConstraint(item: c, attribute: .top, relatedBy: .equal, toItem: window, attribute: .top, multiplier: 1, constant: 0),
            LayoutConstraint(item: c, attribute: .width, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: 10),
            LayoutConstraint(item: c, attribute: .height, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: 10),
        ])
        window.layoutIfNeeded()
        #expect(near(c.frame, Rect(x: 95, y: 0, width: 10, height: 10)))
        #expect(window.constraints.count == 11)  // a.height == 40 is installed on a itself
    }

    @Test func rule12CrossHierarchyConstraintsUseTheCommonAncestorsSpace() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 800))
        let left = View(frame: Rect(x: 100, y: 50, width: 100, height: 100))
        let right = View(frame: Rect(x: 10, y: 300, width: 300, height: 300))
        window.addSubview(left)
        window.addSubview(right)
        let a = constrained()
        let b = constrained()
        left.addSubview(a)
        right.addSubview(b)
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: left.leadingAnchor, constant: 5),
            a.topAnchor.constraint(equalTo: left.topAnchor, constant: 5),
            a.widthAnchor.constraint(equalToConstant: 20),
            a.heightAnchor.constraint(equalToConstant: 20),
            // b lines up with a on the screen, though they are in different superviews.
            b.leadingAnchor.constraint(equalTo: a.leadingAnchor),
            b.topAnchor.constraint(equalTo: a.bottomAnchor, constant: 300),
            b.widthAnchor.constraint(equalTo: a.widthAnchor),
            b.heightAnchor.constraint(equalTo: a.heightAnchor),
        ])
        window.layoutIfNeeded()
        #expect(near(a.frame, Rect(x: 5, y: 5, width: 20, height: 20)))
        #expect(near(b.frame, Rect(x: 95, y: 75, width: 20, height: 20)))
        #expect(near(b.convert(b.bounds, to: window), Rect(x: 105, y: 375, width: 20, height: 20)))
        // Installed on the nearest common ancestor.
        #expect(window.constraints.count == 4 && a.constraints.count == 2)
    }

    @Test func rule12GuidesUseMarginsAndTheSafeArea() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.safeAreaInsets = EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        let root = View(frame: window.bounds)
        window.addSubview(root)
        root.layoutMargins = EdgeInsets(top: 10, left: 16, bottom: 10, right: 16)
        let header = constrained()
        let body = constrained()
        root.addSubview(header)
        root.addSubview(body)
        LayoutConstraint.activate([
            header.topAnchor.constraint(equalTo: root.safeAreaLayoutGuide.topAnchor),
            header.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
            header.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
            header.heightAnchor.constraint(equalToConstant: 44),
            body.topAnchor.constraint(equalTo: header.bottomAnchor),
            body.bottomAnchor.constraint(equalTo: root.safeAreaLayoutGuide.bottomAnchor),
            body.centerXAnchor.constraint(equalTo: root.layoutMarginsGuide.centerXAnchor),
            body.widthAnchor.constraint(equalTo: root.layoutMarginsGuide.widthAnchor, constant: -20),
        ])
        window.layoutIfNeeded()
        #expect(near(header.frame, Rect(x: 16, y: 47, width: 358, height: 44)))
        #expect(near(body.frame, Rect(x: 26, y: 91, width: 338, height: 719)))
        #expect(root.layoutMarginsGuide.layoutFrame == Rect(x: 16, y: 10, width: 358, height: 824))
        // Margins change: the guide's constraints follow at the next pass.
        root.layoutMargins = EdgeInsets(top: 10, left: 20, bottom: 10, right: 20)
        window.layoutIfNeeded()
        #expect(near(header.frame, Rect(x: 20, y: 47, width: 350, height: 44)))
        // The device's insets change (landscape): the safe-area guide follows.
        window.safeAreaInsets = EdgeInsets(top: 0, left: 47, bottom: 21, right: 47)
        window.layoutIfNeeded()
        #expect(near(header.frame, Rect(x: 20, y: 0, width: 350, height: 44)))
        #expect(near(body.frame, Rect(x: 30, y: 44, width: 330, height: 779)))
    }

    @Test func rule12CustomGuidesAreSolvedLikeViews() {
        let container = View(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        let spacer = LayoutGuide()
        container.addLayoutGuide(spacer)
        let a = constrained()
        let b = constrained()
        container.addSubview(a)
        container.addSubview(b)
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            a.widthAnchor.constraint(equalToConstant: 50),
            spacer.leadingAnchor.constraint(equalTo: a.trailingAnchor),
            spacer.trailingAnchor.constraint(equalTo: b.leadingAnchor),
            b.trailingAnchor.constraint(equalTo: container.trailingAnchor),
            b.widthAnchor.constraint(equalToConstant: 70),
            spacer.topAnchor.constraint(equalTo: container.topAnchor),
            spacer.heightAnchor.constraint(equalToConstant: 1),
            a.topAnchor.constraint(equalTo: container.topAnchor), a.heightAnchor.constraint(equalToConstant: 10),
            b.topAnchor.constraint(equalTo: container.topAnchor), b.heightAnchor.constraint(equalToConstant: 10),
        ])
        container.layoutIfNeeded()
        #expect(near(spacer.layoutFrame, Rect(x: 50, y: 0, width: 180, height: 1)))
        #expect(near(b.frame, Rect(x: 230, y: 0, width: 70, height: 10)))
        #expect(container.layoutGuides.count == 1 && spacer.owningView === container)
    }

    // MARK: Rule 13: translatesAutoresizingMaskIntoConstraints pins the frame

    @Test func rule13TranslatingViewsArePinnedToTheirFrames() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let anchor = View(frame: Rect(x: 30, y: 40, width: 100, height: 50))  // translates (default)
        anchor.autoresizingMask = [.flexibleWidth]
        let follower = constrained()
        window.addSubview(anchor)
        window.addSubview(follower)
        #expect(anchor.translatesAutoresizingMaskIntoConstraints)
        LayoutConstraint.activate([
            follower.leadingAnchor.constraint(equalTo: anchor.trailingAnchor, constant: 10),
            follower.topAnchor.constraint(equalTo: anchor.topAnchor),
            follower.widthAnchor.constraint(equalTo: anchor.widthAnchor),
            follower.heightAnchor.constraint(equalTo: anchor.heightAnchor),
        ])
        window.layoutIfNeeded()
        #expect(anchor.frame == Rect(x: 30, y: 40, width: 100, height: 50))
        #expect(near(follower.frame, Rect(x: 140, y: 40, width: 100, height: 50)))
        // Moving the pinned view moves the follower at the next pass.
        anchor.frame = Rect(x: 0, y: 0, width: 60, height: 20)
        window.layoutIfNeeded()
        #expect(near(follower.frame, Rect(x: 70, y: 0, width: 60, height: 20)))
        // Its mask resizes it with the window; the pins and the follower follow.
        window.frame = Rect(x: 0, y: 0, width: 500, height: 400)
        #expect(anchor.frame == Rect(x: 0, y: 0, width: 160, height: 20))
        window.layoutIfNeeded()
        #expect(near(follower.frame, Rect(x: 170, y: 0, width: 160, height: 20)))
        // A constraint that would move a pinned view cannot: it breaks.
        let log = BrokenLog()
        LayoutConstraint.unsatisfiableHandler = { log.add($0, $1) }
        defer { LayoutConstraint.unsatisfiableHandler = LayoutConstraint.printingUnsatisfiableHandler }
        let c = anchor.widthAnchor.constraint(equalToConstant: 10)
        c.isActive = true
        window.layoutIfNeeded()
        #expect(anchor.frame.width == 160)
        #expect(log.entries.count == 1)
        #expect(log.entries.first?.1.contains { $0.contains("AutoresizingMaskLayoutConstraint") } == true)
    }

    // MARK: Rule 14: priorities

    @Test func rule14RequiredFirstThenOptionalByPriority() {
        let container = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let v = constrained()
        container.addSubview(v)
        let weak = v.widthAnchor.constraint(equalToConstant: 200)
        weak.priority = .defaultLow
        let strong = v.widthAnchor.constraint(equalToConstant: 100)
        strong.priority = .defaultHigh
        let cap = v.widthAnchor.constraint(lessThanOrEqualToConstant: 80)
        LayoutConstraint.activate([
            weak, strong,
            v.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            v.topAnchor.constraint(equalTo: container.topAnchor),
            v.heightAnchor.constraint(equalToConstant: 10),
        ])
        container.layoutIfNeeded()
        #expect(near(v.frame, Rect(x: 0, y: 0, width: 100, height: 10)))
        cap.isActive = true  // required beats both
        container.layoutIfNeeded()
        #expect(near(v.frame, Rect(x: 0, y: 0, width: 80, height: 10)))
        cap.isActive = false
        strong.priority = LayoutPriority(200)  // now below the other optional one
        container.layoutIfNeeded()
        #expect(near(v.frame, Rect(x: 0, y: 0, width: 200, height: 10)))
        #expect(!v.hasAmbiguousLayout)
    }

    // MARK: Rule 15: intrinsic content size, hugging and compression resistance

    @Test func rule15IntrinsicSizeHuggingAndCompression() {
        let container = View(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        let label = IntrinsicView()
        label.translatesAutoresizingMaskIntoConstraints = false
        label.intrinsic = Size(width: 50, height: 20)
        let field = IntrinsicView()
        field.translatesAutoresizingMaskIntoConstraints = false
        field.intrinsic = Size(width: 100, height: 20)
        container.addSubview(label)
        container.addSubview(field)
        LayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            field.leadingAnchor.constraint(equalTo: label.trailingAnchor, constant: 10),
            field.trailingAnchor.constraint(equalTo: container.trailingAnchor),
            label.topAnchor.constraint(equalTo: container.topAnchor),
            field.topAnchor.constraint(equalTo: container.topAnchor),
        ])
        // Equal hugging would leave the extra width ambiguous: the label hugs harder.
        label.setContentHuggingPriority(LayoutPriority(251), for: .horizontal)
        container.layoutIfNeeded()
        #expect(near(label.frame, Rect(x: 0, y: 0, width: 50, height: 20)))
        #expect(near(field.frame, Rect(x: 60, y: 0, width: 240, height: 20)))
        // Too narrow: the lower compression resistance gives way first.
        container.bounds.size = Size(width: 100, height: 100)
        field.setContentCompressionResistancePriority(LayoutPriority(749), for: .horizontal)
        container.layoutIfNeeded()
        #expect(near(label.frame, Rect(x: 0, y: 0, width: 50, height: 20)))
        #expect(near(field.frame, Rect(x: 60, y: 0, width: 40, height: 20)))
        // A new intrinsic size counts at the next pass, not before.
        label.intrinsic = Size(width: 30, height: 25)
        label.invalidateIntrinsicContentSize()
        #expect(label.frame.width == 50)
        container.layoutIfNeeded()
        #expect(near(label.frame, Rect(x: 0, y: 0, width: 30, height: 25)))
        #expect(near(field.frame, Rect(x: 40, y: 0, width: 60, height: 20)))
        #expect(label.contentHuggingPriority(for: .horizontal) == LayoutPriority(251))
        #expect(label.contentHuggingPriority(for: .vertical) == .defaultLow)
        #expect(field.contentCompressionResistancePriority(for: .vertical) == .defaultHigh)
    }

    // MARK: Rule 16: changes mark layout; the next pass applies them

    @Test func rule16ChangesApplyAtTheNextPass() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let v = constrained()
        window.addSubview(v)
        let left = v.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10)
        let width = v.widthAnchor.constraint(equalToConstant: 50)
        width.priority = .defaultHigh
        LayoutConstraint.activate([left, width, v.topAnchor.constraint(equalTo: window.topAnchor), v.heightAnchor.constraint(equalToConstant: 20)])
        window.layoutIfNeeded()
        #expect(near(v.frame, Rect(x: 10, y: 0, width: 50, height: 20)))
        left.constant = 40
        #expect(v.frame.minX == 10)  // marked, not applied
        #expect(window.hasPendingLayout)
        window.layoutIfNeeded()
        #expect(near(v.frame, Rect(x: 40, y: 0, width: 50, height: 20)))
        let narrow = v.widthAnchor.constraint(equalToConstant: 30)
        narrow.priority = LayoutPriority(760)
        narrow.isActive = true
        window.layoutIfNeeded()
        #expect(v.frame.width == 30)
        narrow.priority = LayoutPriority(740)
        window.layoutIfNeeded()
        #expect(v.frame.width == 50)
        narrow.isActive = false
        width.isActive = false
        let wide = v.widthAnchor.constraint(equalToConstant: 70)
        wide.isActive = true
        // An input step lays out first.
        let app = Application()
        app.addWindow(window)
        left.constant = 0
        app.advanceTime(to: 1)
        #expect(near(v.frame, Rect(x: 0, y: 0, width: 70, height: 20)))
    }

    /// Counts the center writes reported on its thread, per view: the channel an animation
    /// block hears (a layout pass applies a frame through `center`). While it is installed
    /// every frame goes through the view's setters (`View.setSubviewLayoutFrames`).
    final class WriteCounter: ViewChangeRecorder {
        var moves: [ObjectIdentifier: Int] = [:]
        func record(_ view: View, _ attribute: AnimatableAttribute, old: AnimatableValue) {
            if attribute == .center { moves[ObjectIdentifier(view), default: 0] += 1 }
        }
        func moves(of v: View) -> Int { moves[ObjectIdentifier(v)] ?? 0 }
        /// `body` with the counter installed on this thread.
        func counting(_ body: () -> Void) {
            ChangeRecording.install(self)
            defer { ChangeRecording.install(nil) }
            body()
        }
    }

    @Test func rule16AnEditMovesOnlyWhatItMovesAndHandSetFramesComeBack() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 600))
        var views: [View] = []
        var tops: [LayoutConstraint] = []
        var constraints: [LayoutConstraint] = []
        for i in 0..<20 {
            let v = View()
            v.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(v)
            let top = i == 0 ? v.topAnchor.constraint(equalTo: window.topAnchor, constant: 8)
                : v.topAnchor.constraint(equalTo: views[i - 1].bottomAnchor, constant: 4)
            tops.append(top)
            constraints += [top, v.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 16),
                            v.trailingAnchor.constraint(equalTo: window.trailingAnchor, constant: -16),
                            v.heightAnchor.constraint(equalToConstant: 20)]
            views.append(v)
        }
        LayoutConstraint.activate(constraints)
        window.layoutIfNeeded()
        func expectChain(_ first: Double, _ gapAfter: [Int: Double] = [:]) {
            var y = first
            for (i, v) in views.enumerated() {
                if i > 0 { y += 20 + (gapAfter[i] ?? 4) }
                #expect(v.frame == Rect(x: 16, y: y, width: 268, height: 20), "view \(i)")
            }
        }
        expectChain(8)
        // One edit: the views below it move, the ones above are not written.
        tops[15].constant = 10
        let edit = WriteCounter()
        edit.counting { window.layoutIfNeeded() }
        expectChain(8, [15: 10])
        #expect(views[..<15].allSatisfy { edit.moves(of: $0) == 0 })
        #expect(views[15...].allSatisfy { edit.moves(of: $0) == 1 })
        // The same edit back, with no one listening: the frames go to the C core in one call.
        tops[15].constant = 4
        window.layoutIfNeeded()
        expectChain(8)
        tops[15].constant = 10
        window.layoutIfNeeded()
        expectChain(8, [15: 10])
        // A frame set by hand is put back by the superview's next layout pass, alone.
        views[5].frame = Rect(x: 0, y: 0, width: 10, height: 10)
        window.setNeedsLayout()
        let handSet = WriteCounter()
        handSet.counting { window.layoutIfNeeded() }
        expectChain(8, [15: 10])
        #expect(views.enumerated().allSatisfy { $0.offset == 5 || handSet.moves(of: $0.element) == 0 })
        #expect(handSet.moves(of: views[5]) == 1)
        views[6].frame = Rect(x: 0, y: 0, width: 10, height: 10)
        window.setNeedsLayout()
        window.layoutIfNeeded()
        expectChain(8, [15: 10])
        // So is a frame moved by its anchor point.
        views[7].anchorPoint = Point(x: 0, y: 0)
        #expect(views[7].frame.minX != 16)
        window.setNeedsLayout()
        window.layoutIfNeeded()
        expectChain(8, [15: 10])
        // The first edit moves all of them; a rebuilt solver gives the same frames.
        tops[0].constant = 0
        window.layoutIfNeeded()
        expectChain(0, [15: 10])
        let engine = try! #require(window.autoLayoutState?.ownedEngine)
        engine.rebuild()
        engine.markDirty()
        window.setNeedsLayout()
        window.layoutIfNeeded()
        expectChain(0, [15: 10])
    }

    // MARK: Rule 17: systemLayoutSizeFitting

    @Test func rule17FittingSizePullsTowardTheTargetAtFittingLevel() {
        let cell = View(frame: Rect(x: 0, y: 0, width: 320, height: 44))
        let label = IntrinsicView()
        label.translatesAutoresizingMaskIntoConstraints = false
        label.intrinsic = Size(width: 120, height: 21)
        cell.addSubview(label)
        LayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: cell.leadingAnchor, constant: 16),
            label.trailingAnchor.constraint(equalTo: cell.trailingAnchor, constant: -16),
            label.topAnchor.constraint(equalTo: cell.topAnchor, constant: 11),
            label.bottomAnchor.constraint(equalTo: cell.bottomAnchor, constant: -11),
        ])
        #expect(cell.systemLayoutSizeFitting(View.layoutFittingCompressedSize) == Size(width: 152, height: 43))
        #expect(cell.systemLayoutSizeFitting(View.layoutFittingExpandedSize) == Size(width: 152, height: 43))
        // A target between: hugging (250) beats the pull (50).
        #expect(cell.systemLayoutSizeFitting(Size(width: 400, height: 10)) == Size(width: 152, height: 43))
        // A required horizontal pull wins over hugging.
        let fixedWidth = cell.systemLayoutSizeFitting(Size(width: 400, height: 0), withHorizontalFittingPriority: .required, verticalFittingPriority: .fittingSizeLevel)
        #expect(fixedWidth == Size(width: 400, height: 43))
        // Nothing moved: the cell keeps its frame; layout is as before.
        cell.layoutIfNeeded()
        #expect(cell.frame == Rect(x: 0, y: 0, width: 320, height: 44))
        #expect(near(label.frame, Rect(x: 16, y: 11, width: 288, height: 22)))
        // A plain view with no constraints: pulled to the target.
        let plain = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(plain.systemLayoutSizeFitting(Size(width: 33, height: 44)) == Size(width: 33, height: 44))
    }

    // MARK: Rule 18: unsatisfiable required constraints

    @Test func rule18ConflictsBreakOneAndReportTheSet() {
        let log = BrokenLog()
        LayoutConstraint.unsatisfiableHandler = { log.add($0, $1) }
        defer { LayoutConstraint.unsatisfiableHandler = LayoutConstraint.printingUnsatisfiableHandler }
        let container = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let v = constrained()
        v.accessibilityIdentifier = "box"
        container.addSubview(v)
        let a = v.widthAnchor.constraint(equalToConstant: 100)
        let b = v.widthAnchor.constraint(equalToConstant: 200)
        LayoutConstraint.activate([
            a, v.leadingAnchor.constraint(equalTo: container.leadingAnchor), v.topAnchor.constraint(equalTo: container.topAnchor),
            v.heightAnchor.constraint(equalToConstant: 10),
        ])
        b.isActive = true
        container.layoutIfNeeded()
        #expect(log.entries.count == 1)
        #expect(log.entries.first?.0 == b.description)
        #expect(log.entries.first?.1 == [a.description])
        #expect(b.isActive)  // broken, still active, not enforced
        #expect(near(v.frame, Rect(x: 0, y: 0, width: 100, height: 10)))  // layout goes on
        let message = LayoutConstraint.unsatisfiableMessage(broken: b, conflicting: [a])
        #expect(message.hasPrefix("[LayoutConstraints] Unable to simultaneously satisfy constraints."))
        #expect(message.contains("Will attempt to recover by breaking constraint \n\(b)"))
        #expect(b.description.contains("box.width == 200"))
        // Removing the conflict and re-activating enforces it.
        a.isActive = false
        b.isActive = false
        b.isActive = true
        container.layoutIfNeeded()
        #expect(v.frame.width == 200)
    }

    @Test func rule18TheHandlerIsSafeToSetFromManyThreads() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<100 {
                        let h = LayoutConstraint.unsatisfiableHandler
                        LayoutConstraint.unsatisfiableHandler = h
                    }
                }
            }
        }
        #expect(LayoutConstraint.unsatisfiableHandler != nil)
    }

    // MARK: Rule 19: ambiguity

    @Test func rule19AmbiguousLayoutIsReportedNotPickedSilently() {
        let container = View(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let v = constrained()
        container.addSubview(v)
        #expect(!v.hasAmbiguousLayout)  // not placed by Auto Layout
        LayoutConstraint.activate([v.leadingAnchor.constraint(equalTo: container.leadingAnchor), v.widthAnchor.constraint(equalToConstant: 40)])
        #expect(v.hasAmbiguousLayout)  // y and height free
        LayoutConstraint.activate([v.topAnchor.constraint(equalTo: container.topAnchor, constant: 5)])
        #expect(v.hasAmbiguousLayout)
        let high = v.heightAnchor.constraint(greaterThanOrEqualToConstant: 10)
        high.isActive = true
        #expect(v.hasAmbiguousLayout)  // height >= 10 alone leaves it free
        let pull = v.heightAnchor.constraint(equalToConstant: 30)
        pull.priority = .defaultLow
        pull.isActive = true
        #expect(!v.hasAmbiguousLayout)
        container.layoutIfNeeded()
        #expect(near(v.frame, Rect(x: 0, y: 5, width: 40, height: 30)))
    }

    // MARK: Rule 20: no rounding

    @Test func rule20NoPixelRounding() {
        let container = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let v = constrained()
        container.addSubview(v)
        LayoutConstraint.activate([
            v.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 0.3),
            v.widthAnchor.constraint(equalTo: container.widthAnchor, multiplier: 1.0 / 3),
            v.topAnchor.constraint(equalTo: container.topAnchor), v.heightAnchor.constraint(equalToConstant: 1),
        ])
        container.layoutIfNeeded()
        #expect(abs(v.frame.minX - 0.3) < 1e-9)
        #expect(abs(v.frame.width - 100.0 / 3) < 1e-9)
    }

    // MARK: Hierarchy changes

    @Test func removingAViewDropsTheConstraintsThatCrossAndKeepsTheOnesInside() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let card = constrained()
        let inner = constrained()
        window.addSubview(card)
        card.addSubview(inner)
        let outer = [
            card.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10),
            card.topAnchor.constraint(equalTo: window.topAnchor, constant: 10),
            card.widthAnchor.constraint(equalToConstant: 100), card.heightAnchor.constraint(equalToConstant: 100),
        ]
        let inside = [
            inner.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 5),
            inner.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -5),
            inner.topAnchor.constraint(equalTo: card.topAnchor, constant: 5), inner.heightAnchor.constraint(equalToConstant: 10),
        ]
        LayoutConstraint.activate(outer + inside)
        window.layoutIfNeeded()
        #expect(near(inner.frame, Rect(x: 5, y: 5, width: 90, height: 10)))
        card.removeFromSuperview()
        #expect(!outer[0].isActive && !outer[1].isActive)  // they crossed: removed, as UIKit
        #expect(outer[2].isActive && outer[3].isActive && inside.allSatisfy { $0.isActive })
        #expect(window.constraints.isEmpty && card.constraints.count == 5 && inner.constraints.count == 1)
        // The card's own tree keeps laying out with what is inside.
        LayoutConstraint.deactivate([outer[2], outer[3]])
        card.translatesAutoresizingMaskIntoConstraints = true
        card.frame = Rect(x: 0, y: 0, width: 200, height: 50)
        card.layoutIfNeeded()
        #expect(near(inner.frame, Rect(x: 5, y: 5, width: 190, height: 10)))
        // Back into a window: its constraints join that tree's engine.
        let other = Window(frame: Rect(x: 0, y: 0, width: 500, height: 500))
        other.addSubview(card)
        card.frame = Rect(x: 0, y: 0, width: 300, height: 50)
        other.layoutIfNeeded()
        #expect(near(inner.frame, Rect(x: 5, y: 5, width: 290, height: 10)))
    }

    @Test func aDeepTreeUsesNoRecursion() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var last: View = window
        for _ in 0..<100_000 {
            let v = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
            last.addSubview(v)
            last = v
        }
        let leaf = constrained()
        last.addSubview(leaf)
        LayoutConstraint.activate([
            leaf.leadingAnchor.constraint(equalTo: last.leadingAnchor, constant: 1),
            leaf.topAnchor.constraint(equalTo: last.topAnchor, constant: 2),
            leaf.widthAnchor.constraint(equalTo: last.widthAnchor, multiplier: 0.5),
            leaf.heightAnchor.constraint(equalToConstant: 3),
        ])
        window.layoutIfNeeded()
        #expect(leaf.frame == Rect(x: 1, y: 2, width: 50, height: 3))
        // Remove the whole chain: its constraints go with it, none cross.
        let top = window.subviews[0]
        top.removeFromSuperview()
        #expect(leaf.constraints.count == 1 && last.constraints.count == 3)
        last.frame = Rect(x: 0, y: 0, width: 40, height: 100)
        top.layoutIfNeeded()
        #expect(leaf.frame == Rect(x: 1, y: 2, width: 20, height: 3))
    }

    // MARK: Rotation and hit testing

    /// A screen built with anchors, rotated to landscape, hit-tested.
    @Test func aScreenBuiltWithAnchorsRotatesAndIsHitWhereLayoutPutIt() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        window.safeAreaInsets = EdgeInsets(top: 47, left: 0, bottom: 34, right: 0)
        app.addWindow(window)
        let controller = ViewController()
        window.rootViewController = controller
        let root = controller.view
        root.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let header = constrained()
        let button = RecordingView()
        button.translatesAutoresizingMaskIntoConstraints = false
        button.accessibilityIdentifier = "button"
        root.addSubview(header)
        root.addSubview(button)
        LayoutConstraint.activate([
            header.topAnchor.constraint(equalTo: root.safeAreaLayoutGuide.topAnchor),
            header.leadingAnchor.constraint(equalTo: root.safeAreaLayoutGuide.leadingAnchor),
            header.trailingAnchor.constraint(equalTo: root.safeAreaLayoutGuide.trailingAnchor),
            header.heightAnchor.constraint(equalToConstant: 44),
            button.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
            button.bottomAnchor.constraint(equalTo: root.safeAreaLayoutGuide.bottomAnchor, constant: -8),
            button.widthAnchor.constraint(equalToConstant: 120),
            button.heightAnchor.constraint(equalToConstant: 44),
        ])
        app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 300, y: 780), timestamp: 0)])
        app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 300, y: 780), timestamp: 0.1)])
        #expect(near(button.frame, Rect(x: 262, y: 758, width: 120, height: 44)))
        #expect(button.received == ["began [1]", "ended [1]"])
        // Landscape: the window turns 844 x 390, with the notch on the left.
        window.frame = Rect(x: 0, y: 0, width: 844, height: 390)
        window.safeAreaInsets = EdgeInsets(top: 0, left: 47, bottom: 21, right: 47)
        app.injectTouches([TouchChange(id: 2, phase: .began, location: Point(x: 800, y: 340), timestamp: 1)])
        #expect(near(button.frame, Rect(x: 716, y: 317, width: 120, height: 44)))
        #expect(near(header.frame, Rect(x: 47, y: 0, width: 750, height: 44)))
        #expect(button.received.last == "began [2]")
        #expect(window.hitTest(Point(x: 800, y: 340)) === button)
        #expect(Reference.hitTest(window, Point(x: 800, y: 340)) === button)
        #expect(window.mirrorMismatches() == [])
    }
}
