import HitTestKit
import HitTestTestSupport
import Testing

/// The shared test support behaves as the tests rely on: random trees are reproducible from
/// their seed, and the recording views record and forward.
@Suite struct TestSupportTests {
    /// The shape and attributes of a tree, for comparing two builds.
    static func fingerprint(_ tree: RandomTree) -> [String] {
        tree.all.map { v in
            let parent = v.superview.map { p in tree.all.firstIndex { $0 === p } ?? -1 } ?? -1
            return "\(parent) \(v.frame) \(v.bounds.origin) \(v.transform) \(v.alpha) \(v.isHidden) \(v.tag) \(v.hitTestInsets) \(v.hitTestPriority)"
        }
    }

    @Test func randomTreesAreReproducible() {
        var options = RandomTree.Options()
        options.customisations = true
        let a = RandomTree.make(seed: 42, options: options)
        let b = RandomTree.make(seed: 42, options: options)
        let c = RandomTree.make(seed: 43, options: options)
        #expect(Self.fingerprint(a) == Self.fingerprint(b))
        #expect(Self.fingerprint(a) != Self.fingerprint(c))
        #expect(RandomTree.points(for: a, count: 50, seed: 7) == RandomTree.points(for: b, count: 50, seed: 7))
    }

    @Test func recordingViewsRecordAndForward() {
        let (app, window) = TestScenes.screen()
        let outer = HitTestTestSupport.RecordingView(frame: window.bounds)
        let inner = HitTestTestSupport.RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        outer.forwards = false
        window.addSubview(outer)
        outer.addSubview(inner)
        app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 0)])
        app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 10, y: 10), timestamp: 0.1)])
        #expect(inner.received == ["began [1]", "ended [1]"])
        #expect(outer.received == inner.received)
        #expect(window.bounds.size == Size(width: 320, height: 480) && window.application === app)
    }
}
