@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation
import HitTestTestSupport
import Testing

/// Randomized replays: seeded random trees with random gesture recognizers, fed random
/// multi-touch scripts with time advances; every run checks the invariants of issue 12 item 6.
/// A failure names its seed: rerun it alone with `RandomReplayTests.run(seed:)`.
///
/// To add more kinds of things to the random trees (controls, scroll views), append a
/// `Decoration` to `RandomWorld.decorations`: it gets the generator, a random view of the tree
/// and the world (to register recognizers it makes, so that their transitions are checked).
@Suite struct RandomReplayTests {
    /// One random tree with its recognizers, in an application.
    final class RandomWorld {
        let app = Application()
        let tree: RandomTree
        /// Every recognizer attached, in the order made (their names are `R0`, `R1`, …).
        var recognizers: [GestureRecognizer] = []
        /// States in which an action ran that must not have (filled by the actions).
        var badActions: [String] = []

        /// Something attached to a random view of the tree, chosen with probability
        /// proportional to `weight`.
        struct Decoration {
            var weight: Double
            var apply: (inout SeededGenerator, View, RandomWorld) -> Void
        }

        /// What random trees get: recognizers of every kind, buttons, scroll views with content.
        nonisolated(unsafe) static var decorations: [Decoration] = [
            Decoration(weight: 3) { rng, view, world in
                let tap = TapGestureRecognizer()
                tap.numberOfTapsRequired = Int.random(in: 1...2, using: &rng)
                tap.numberOfTouchesRequired = rng.chance(0.8) ? 1 : 2
                world.register(tap, on: view, &rng)
            },
            Decoration(weight: 1) { rng, view, world in
                let press = LongPressGestureRecognizer()
                press.minimumPressDuration = rng.chance(0.5) ? 0.5 : 0.2
                world.register(press, on: view, &rng)
            },
            Decoration(weight: 2) { rng, view, world in
                let pan = PanGestureRecognizer()
                pan.minimumNumberOfTouches = rng.chance(0.8) ? 1 : 2
                world.register(pan, on: view, &rng)
            },
            Decoration(weight: 1) { rng, view, world in
                let swipe = SwipeGestureRecognizer()
                swipe.direction = [.right, .left, .up, .down].randomElement(using: &rng)!
                world.register(swipe, on: view, &rng)
            },
            Decoration(weight: 1) { rng, view, world in
                world.register(rng.chance(0.5) ? PinchGestureRecognizer() : RotationGestureRecognizer(), on: view, &rng)
            },
            // A button (sometimes disabled) inside the view.
            Decoration(weight: 2) { rng, view, world in
                let button = Button(frame: world.randomFrame(in: view, &rng))
                button.isEnabled = rng.chance(0.85)
                button.accessibilityIdentifier = "B\(world.controls.count)"
                view.addSubview(button)
                world.controls.append(button)
            },
            // A scroll view with content (a view and a button) larger than itself, inside the view.
            Decoration(weight: 2) { rng, view, world in
                let frame = world.randomFrame(in: view, &rng)
                let scroll = ScrollView(frame: frame)
                scroll.accessibilityIdentifier = "S\(world.scrollViews.count)"
                scroll.contentSize = Size(
                    width: frame.size.width * Double.random(in: 0.5...3, using: &rng),
                    height: frame.size.height * Double.random(in: 0.5...4, using: &rng))
                scroll.bounces = rng.chance(0.7)
                scroll.isPagingEnabled = rng.chance(0.2)
                scroll.delaysContentTouches = rng.chance(0.7)
                scroll.canCancelContentTouches = rng.chance(0.8)
                let content = View(frame: Rect(origin: .zero, size: scroll.contentSize))
                scroll.addSubview(content)
                let button = Button(frame: world.randomFrame(in: content, &rng))
                button.accessibilityIdentifier = "B\(world.controls.count)"
                content.addSubview(button)
                world.controls.append(button)
                view.addSubview(scroll)
                world.scrollViews.append(scroll)
                scroll.panGestureRecognizer.addAction { [unowned world] g in
                    if g.state == .possible || g.state == .failed { world.badActions.append("\(g.name ?? "pan") \(g.state)") }
                }
            },
        ]

        /// Controls and scroll views the decorations made.
        var controls: [Control] = []
        var scrollViews: [ScrollView] = []

        /// A frame inside `view`'s bounds (at least 10 pt on a side).
        func randomFrame(in view: View, _ rng: inout SeededGenerator) -> Rect {
            let b = view.bounds
            let w = max(10, b.size.width * Double.random(in: 0.2...0.9, using: &rng))
            let h = max(10, b.size.height * Double.random(in: 0.2...0.9, using: &rng))
            let x = b.origin.x + Double.random(in: 0...max(0, b.size.width - w), using: &rng)
            let y = b.origin.y + Double.random(in: 0...max(0, b.size.height - h), using: &rng)
            return Rect(x: x, y: y, width: w, height: h)
        }

        /// A delegate answering at random but always the same for the same pair.
        final class Delegate: GestureRecognizerDelegate {
            let salt: UInt64
            init(salt: UInt64) { self.salt = salt }
            private func coin(_ a: GestureRecognizer, _ b: GestureRecognizer, _ k: UInt64) -> Bool {
                // Deterministic across processes (no `hashValue`).
                let ua = (a.name ?? "").utf8.reduce(UInt64(7)) { $0 &* 31 &+ UInt64($1) }
                let ub = (b.name ?? "").utf8.reduce(UInt64(11)) { $0 &* 37 &+ UInt64($1) }
                let x = ua &+ ub &* 0x100_0000_01B3 &+ salt &* k
                return (x &* 0x9E37_79B9_7F4A_7C15) >> 62 == 0
            }
            func gestureRecognizer(_ g: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
                coin(g, other, 1)
            }
        }

        var delegates: [Delegate] = []

        init(seed: UInt64) {
            var rng = SeededGenerator(seed: seed)
            tree = RandomTree.make(seed: seed, options: .init(maxViews: 30, maxDepth: 8, maxFanOut: 6))
            let window = tree.root as! Window
            app.addWindow(window)
            for v in tree.all { v.isMultipleTouchEnabled = rng.chance(0.5) }
            let total = RandomWorld.decorations.reduce(0) { $0 + $1.weight }
            let count = Int.random(in: 0...12, using: &rng)
            for _ in 0..<count {
                let view = tree.all.randomElement(using: &rng)!
                var pick = Double.random(in: 0..<total, using: &rng)
                for d in RandomWorld.decorations {
                    if pick < d.weight {
                        d.apply(&rng, view, self)
                        break
                    }
                    pick -= d.weight
                }
            }
            // A few failure requirements.
            if recognizers.count >= 2 {
                for _ in 0..<Int.random(in: 0...2, using: &rng) {
                    let a = recognizers.randomElement(using: &rng)!
                    let b = recognizers.randomElement(using: &rng)!
                    a.require(toFail: b)
                }
            }
        }

        /// Attaches `g` with random flags and an action that checks the state it runs in.
        func register(_ g: GestureRecognizer, on view: View, _ rng: inout SeededGenerator) {
            g.name = "R\(recognizers.count)"
            g.cancelsTouchesInView = rng.chance(0.8)
            g.delaysTouchesBegan = rng.chance(0.2)
            g.delaysTouchesEnded = rng.chance(0.8)
            if rng.chance(0.2) {
                let d = Delegate(salt: rng.next())
                delegates.append(d)
                g.delegate = d
            }
            g.addAction { [unowned self] g in
                if g.state == .possible || g.state == .failed { self.badActions.append("\(g.name!) \(g.state)") }
            }
            view.addGestureRecognizer(g)
            recognizers.append(g)
        }
    }

    /// A random multi-touch script over a 390 x 844 screen: up to three fingers, fresh ids,
    /// moves small and large, lifts, rare cancels, pauses and clock advances; all fingers lift
    /// at the end and the clock runs on 2 s.
    static func script(seed: UInt64) -> TouchScript {
        var rng = SeededGenerator(seed: seed ^ 0x5EED_5C41_9700_0000)
        var entries: [TouchScript.Entry] = []
        var down: [(id: Int, p: Point)] = []
        var nextID = 1
        var t = 0.0
        let steps = Int.random(in: 5...60, using: &rng)
        for _ in 0..<steps {
            t += [0, 0.01, 0.016, 0.05, 0.2, 0.4].randomElement(using: &rng)!
            if rng.chance(0.1) {
                t += Double.random(in: 0...0.6, using: &rng)
                entries.append(.advanceTime(t))
                continue
            }
            var changes: [TouchChange] = []
            var used = Set<Int>()
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                let r = Double.random(in: 0..<1, using: &rng)
                if down.count < 3 && (down.isEmpty || r < 0.3) {
                    let p = Point(x: rng.coordinate(0...390), y: rng.coordinate(0...844))
                    down.append((nextID, p))
                    used.insert(nextID)
                    changes.append(TouchChange(id: nextID, phase: .began, location: p, timestamp: t))
                    nextID += 1
                } else if let i = down.indices.randomElement(using: &rng), !used.contains(down[i].id) {
                    used.insert(down[i].id)
                    if r < 0.75 {
                        let step = rng.chance(0.5) ? 4.0 : 40.0
                        let p = Point(
                            x: down[i].p.x + Double.random(in: -step...step, using: &rng),
                            y: down[i].p.y + Double.random(in: -step...step, using: &rng))
                        down[i].p = p
                        changes.append(TouchChange(id: down[i].id, phase: .moved, location: p, timestamp: t))
                    } else {
                        let phase: Touch.Phase = rng.chance(0.95) ? .ended : .cancelled
                        changes.append(TouchChange(id: down[i].id, phase: phase, location: down[i].p, timestamp: t))
                        down.remove(at: i)
                    }
                }
            }
            if !changes.isEmpty { entries.append(.touches(changes)) }
        }
        t += 0.05
        if !down.isEmpty {
            entries.append(.touches(down.map { TouchChange(id: $0.id, phase: .ended, location: $0.p, timestamp: t) }))
        }
        entries.append(.advanceTime(t + 2))
        return TouchScript(entries: entries)
    }

    /// The invariants, for one run's log; returns what is wrong (empty: nothing).
    static func violations(in log: ArraySlice<TouchDelivery>, world: RandomWorld) -> [String] {
        var problems: [String] = []
        // A touch's view: began at most once, then at most one of ended/cancelled; nothing
        // after; all to one responder.
        var phases: [Int: [Touch.Phase]] = [:]
        var receiver: [Int: ObjectIdentifier] = [:]
        for e in log where e.kind == .delivered {
            guard let id = e.touch, let phase = e.phase else { continue }
            if let r = receiver[id], r != e.responder { problems.append("touch \(id) delivered to two views") }
            receiver[id] = e.responder
            let seen = phases[id, default: []]
            if seen.last == .ended || seen.last == .cancelled {
                problems.append("touch \(id): \(phase) after \(seen.last!)")
            }
            switch phase {
            case .began where !seen.isEmpty: problems.append("touch \(id): began twice")
            case .moved, .ended, .cancelled, .stationary:
                if seen.first != .began { problems.append("touch \(id): \(phase) before began") }
            default: break
            }
            phases[id, default: []].append(phase)
        }
        // Recognizers: only legal transitions, each from the state the last one left.
        var state: [String: GestureRecognizer.State] = [:]
        let names: [String: GestureRecognizer.State] = [
            "possible": .possible, "began": .began, "changed": .changed, "ended": .ended, "cancelled": .cancelled,
            "failed": .failed,
        ]
        for e in log where e.kind == .recognizer {
            let detail = e.detail!
            if detail.contains("ignored") {
                problems.append("a built-in recognizer asked for an illegal transition: \(detail)")
                continue
            }
            let words = detail.split(separator: " ")
            guard words.count >= 4, let from = names[String(words[1])], let to = names[String(words[3])] else {
                problems.append("unreadable: \(detail)")
                continue
            }
            let name = "\(e.responderName)/\(words[0])"
            if let last = state[name], last != from { problems.append("\(name): \(from) after \(last)") }
            let legal = from.canTransition(to: to) || (to == .possible && from.isFinished)
            if !legal { problems.append("\(name): illegal \(from) → \(to)") }
            state[name] = to
        }
        for (name, s) in state where s != .possible {
            problems.append("\(name) left in \(s) with no touch down and the clock run on")
        }
        problems += world.badActions.map { "action ran in \($0)" }
        // Controls (C1): touchDown starts tracking; drags only while tracking; exactly one of
        // touchUpInside/touchUpOutside/touchCancel ends it; nothing is left tracking at the end.
        var tracking: [ObjectIdentifier: Bool] = [:]
        for e in log where e.kind == .controlEvent {
            let events = (e.detail ?? "").split(separator: "|").map(String.init)
            let name = e.responderName
            if events.contains("touchDown") {
                if tracking[e.responder] == true { problems.append("\(name): touchDown while tracking") }
                tracking[e.responder] = true
            }
            if events.contains(where: { $0.hasPrefix("touchDrag") }), tracking[e.responder] != true {
                problems.append("\(name): \(events) while not tracking")
            }
            let ends = events.filter { ["touchUpInside", "touchUpOutside", "touchCancel"].contains($0) }
            if ends.count > 1 { problems.append("\(name): two ends at once \(ends)") }
            if !ends.isEmpty {
                if tracking[e.responder] != true { problems.append("\(name): \(ends[0]) while not tracking") }
                tracking[e.responder] = false
            }
        }
        for c in world.controls where c.isTracking || c.isHighlighted {
            problems.append("\(c.debugName) still tracking or highlighted at the end")
        }
        // Scroll views (S6): at rest, the offset is within the content's limits when it does
        // not bounce, and back within them when it does.
        for s in world.scrollViews where !s.isDragging && !s.isDecelerating {
            let maxX = max(0, s.contentSize.width + s.contentInset.right - s.bounds.size.width)
            let maxY = max(0, s.contentSize.height + s.contentInset.bottom - s.bounds.size.height)
            let o = s.contentOffset
            if o.x < -s.contentInset.left - 1e-9 || o.x > maxX + 1e-9 || o.y < -s.contentInset.top - 1e-9 || o.y > maxY + 1e-9 {
                problems.append("\(s.debugName) at rest out of its limits: \(o)")
            }
        }
        return problems
    }

    /// One seed: the script replayed twice on one world and once on a second copy; returns
    /// the problems found.
    static func run(seed: UInt64) -> [String] {
        let world = RandomWorld(seed: seed)
        let script = script(seed: seed)
        let first = Array(world.app.replay(script))
        var problems = violations(in: first[...], world: world)
        // Twice on one world gives the same log when replaying leaves nothing behind: scroll
        // views keep the offset a script scrolled them to, so then only the copy below counts.
        let again = Array(world.app.replay(script))
        problems += violations(in: again[...], world: world)
        if world.scrollViews.isEmpty, first.map(\.description) != again.map(\.description) {
            problems.append("the same script gave a different log the second time")
        }
        let copy = RandomWorld(seed: seed)
        let other = Array(copy.app.replay(script))
        if first.map(\.description) != other.map(\.description) {
            problems.append("a copy of the world gave a different log")
        }
        return problems
    }

    @Test(arguments: 0..<8) func invariantsHold(_ batch: Int) {
        for seed in UInt64(batch * 50)..<UInt64(batch * 50 + 50) {
            let problems = RandomReplayTests.run(seed: seed)
            #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(5).joined(separator: "; "))")
        }
    }

    /// The generator does make recognizers fire (the invariants are not checked on empty logs).
    @Test func runsExerciseTheRecognizers() {
        var recognized = 0
        var actions = 0
        var ups = 0
        var scrolls = 0
        for seed in UInt64(0)..<50 {
            let world = RandomWorld(seed: seed)
            let log = world.app.replay(RandomReplayTests.script(seed: seed))
            recognized += log.filter { $0.kind == .recognizer && ($0.detail!.hasSuffix("→ ended") || $0.detail!.hasSuffix("→ began")) }.count
            actions += log.filter { $0.kind == .action }.count
            ups += log.filter { $0.kind == .controlEvent && $0.detail!.hasPrefix("touchUp") }.count
            scrolls += log.filter { $0.kind == .scrolled }.count
        }
        #expect(recognized > 20)
        #expect(actions > 20)
        #expect(ups > 5)
        #expect(scrolls > 5)
    }

    /// The checker itself catches what it must: a phase after `ended`, a second `began`, an
    /// illegal or discontinuous transition, a recognizer left finished.
    @Test func checkerCatchesViolations() {
        let world = RandomWorld(seed: 1)
        let v = ObjectIdentifier(world.app)
        func d(_ id: Int, _ p: Touch.Phase) -> TouchDelivery {
            TouchDelivery(timestamp: 0, touch: id, phase: p, kind: .delivered, responder: v, responderName: "v")
        }
        func r(_ detail: String) -> TouchDelivery {
            TouchDelivery(timestamp: 0, touch: nil, phase: nil, kind: .recognizer, responder: v, responderName: "v", reason: detail)
        }
        #expect(RandomReplayTests.violations(in: [d(1, .began), d(1, .ended)][...], world: world).isEmpty)
        #expect(RandomReplayTests.violations(in: [d(1, .began), d(1, .ended), d(1, .moved)][...], world: world).count == 1)
        #expect(RandomReplayTests.violations(in: [d(1, .began), d(1, .began)][...], world: world).count == 1)
        #expect(RandomReplayTests.violations(in: [d(1, .moved)][...], world: world).count == 1)
        #expect(RandomReplayTests.violations(in: [r("R0 possible → changed"), r("R0 changed → possible")][...], world: world).count == 2)
        #expect(RandomReplayTests.violations(in: [r("R0 possible → began"), r("R0 changed → ended"), r("R0 ended → possible")][...], world: world).count == 1)
        #expect(RandomReplayTests.violations(in: [r("R0 possible → failed")][...], world: world).count == 1)
        func c(_ detail: String) -> TouchDelivery {
            TouchDelivery(timestamp: 0, touch: 1, phase: nil, kind: .controlEvent, responder: v, responderName: "B0", reason: detail)
        }
        #expect(RandomReplayTests.violations(in: [c("touchDown"), c("touchDragInside"), c("touchUpInside|primaryActionTriggered")][...], world: world).isEmpty)
        #expect(RandomReplayTests.violations(in: [c("touchUpInside")][...], world: world).count == 1)
        #expect(RandomReplayTests.violations(in: [c("touchDown"), c("touchDown")][...], world: world).count == 1)
        #expect(RandomReplayTests.violations(in: [c("touchDragExit|touchDragOutside")][...], world: world).count == 1)
    }
}
