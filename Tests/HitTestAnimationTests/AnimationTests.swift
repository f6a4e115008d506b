import Foundation
import HitTestReference
import HitTestTestSupport
import Testing

@testable import HitTestKit
@testable import HitTestCore
@testable import HitTestInput
@testable import HitTestLayout
@testable import HitTestAnimation

/// SEMANTICS section 11 (A1–A20), one named test per rule, with exact values.
@Suite struct AnimationTests {
    /// An application with a 400 x 800 window, a `back` view filling it and a `box` at
    /// (0, 0, 100, 100) in front, the clock started at 0.
    struct Scene {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 800))
        let back = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 800))
        let box = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))

        init() {
            app.addWindow(window)
            window.addSubview(back)
            window.addSubview(box)
            back.accessibilityIdentifier = "back"
            box.accessibilityIdentifier = "box"
            app.advanceTime(to: 0)
        }
    }

    /// An independent solve of a CSS/CA cubic Bézier: bisection on x(s) to 1e-15, then y(s),
    /// each from the Bernstein form (not the engine's Horner form).
    static func bisectBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        func bern(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let r = 1 - s
            return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
        }
        var lo = 0.0
        var hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if bern(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return bern(y1, y2, (lo + hi) / 2)
    }

    static let controlPoints: [(View.AnimationCurve, Double, Double, Double, Double)] = [
        (.easeInOut, 0.42, 0, 0.58, 1), (.easeIn, 0.42, 0, 1, 1), (.easeOut, 0, 0, 0.58, 1),
    ]

    // MARK: - A1–A3

    @Test func a1ModelValuesChangeAtOnce() {
        let s = Scene()
        var insideFrame: Rect?
        View.animate(withDuration: 1) {
            s.box.frame = Rect(x: 200, y: 300, width: 50, height: 60)
            insideFrame = s.box.frame
        }
        #expect(insideFrame == Rect(x: 200, y: 300, width: 50, height: 60))
        #expect(s.box.frame == Rect(x: 200, y: 300, width: 50, height: 60))
        #expect(s.box.center == Point(x: 225, y: 330))
        #expect(s.box.isAnimating)
        // The C index has the model: the point at the new place is the box's… (blocked, A14),
        // so the back view; the old place is no longer the box either.
        #expect(s.window.hitTest(Point(x: 10, y: 10)) === s.back)
        #expect(s.box.mirrorMismatches().isEmpty)
    }

    @Test func a2PresentationInterpolatesAndFrameDerives() {
        let s = Scene()
        View.animate(withDuration: 2, delay: 0, options: .curveLinear, animations: {
            s.box.frame = Rect(x: 100, y: 200, width: 300, height: 100)
            s.box.alpha = 0.5
        })
        s.app.advanceTime(to: 0.5)  // x = 0.25
        let p = s.box.presentation
        #expect(p.center == Point(x: 50 + (250 - 50) * 0.25, y: 50 + (250 - 50) * 0.25))
        #expect(p.bounds == Rect(x: 0, y: 0, width: 100 + (300 - 100) * 0.25, height: 100))
        #expect(p.alpha == 1 + (0.5 - 1) * 0.25)
        #expect(p.frame == Rect(x: 100 - 0.5 * 150, y: 100 - 50, width: 150, height: 100))
        #expect(p.transform == .identity)
        // Transforms component-wise.
        View.animate(withDuration: 2, delay: 0, options: .curveLinear, animations: {
            s.back.transform = AffineTransform(scaleX: 3, y: 5).concatenating(AffineTransform(translationX: 8, y: -4))
        })
        s.app.advanceTime(to: 1.5)  // back: x = 0.5
        #expect(s.back.presentation.transform == AffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: -2))
        s.app.advanceTime(to: 10)
        // Outside animations the presentation is the model.
        #expect(s.box.presentation == Presentation(frame: s.box.frame, bounds: s.box.bounds, center: s.box.center, transform: s.box.transform, alpha: s.box.alpha))
        #expect(!s.box.isAnimating && !s.back.isAnimating)
    }

    @Test func a3OnlyGeometryAndAlphaAnimate() {
        let s = Scene()
        var finished: [Bool] = []
        View.animate(withDuration: 1, animations: {
            s.box.isHidden = true
            s.box.isUserInteractionEnabled = false
            s.box.tag = 7
        }, completion: { finished.append($0) })
        #expect(s.box.isHidden && !s.box.isUserInteractionEnabled)
        #expect(!s.box.isAnimating)
        #expect(finished == [true])  // nothing animated: A13
    }

    // MARK: - A4 curves

    @Test func a4CurvesMatchAnIndependentBezierSolveTo1e9() {
        for (curve, x1, y1, x2, y2) in Self.controlPoints {
            var worst = 0.0
            for i in 0...1000 {
                let x = Double(i) / 1000
                worst = max(worst, abs(curve.value(at: x) - Self.bisectBezier(x1, y1, x2, y2, x)))
            }
            #expect(worst < 1e-9, "\(curve): worst difference \(worst)")
        }
        #expect(View.AnimationCurve.linear.value(at: 0.3) == 0.3)
        #expect(View.AnimationCurve.easeInOut.value(at: 0) == 0 && View.AnimationCurve.easeInOut.value(at: 1) == 1)
        #expect(abs(View.AnimationCurve.easeInOut.value(at: 0.5) - 0.5) < 1e-15)
        // The 2-bit field: [] is easeInOut; easeIn | easeOut is field 3, linear.
        #expect(View.AnimationOptions([]).curve == .easeInOut)
        #expect(View.AnimationOptions([.curveEaseIn, .curveEaseOut]).curve == .linear)
        #expect(View.AnimationOptions([.curveEaseOut, .repeat]).curve == .easeOut)
    }

    @Test(arguments: [View.AnimationCurve.easeInOut, .easeIn, .easeOut, .linear])
    func a4PresentationFollowsTheCurve(curve: View.AnimationCurve) {
        let s = Scene()
        let options: View.AnimationOptions = [.curveEaseInOut, .curveEaseIn, .curveEaseOut, .curveLinear][curve.rawValue]
        View.animate(withDuration: 4, delay: 0, options: options, animations: { s.box.center.x = 450 })
        s.app.advanceTime(to: 1)  // x = 0.25
        let expected: Double
        if let cp = Self.controlPoints.first(where: { $0.0 == curve }) {
            expected = Self.bisectBezier(cp.1, cp.2, cp.3, cp.4, 0.25)
        } else {
            expected = 0.25
        }
        #expect(abs(s.box.presentation.center.x - (50 + 400 * expected)) < 400 * 1e-9)
        // The default form is easeInOut.
        let t = Scene()
        View.animate(withDuration: 4) { t.box.center.x = 450 }
        t.app.advanceTime(to: 1)
        #expect(abs(t.box.presentation.center.x - (50 + 400 * Self.bisectBezier(0.42, 0, 0.58, 1, 0.25))) < 400 * 1e-9)
    }

    // MARK: - A5–A9

    @Test func a5DelayShowsTheOldValue() {
        let s = Scene()
        View.animate(withDuration: 1, delay: 2, options: .curveLinear, animations: { s.box.alpha = 0 })
        #expect(s.box.alpha == 0)
        s.app.advanceTime(to: 1.5)
        #expect(s.box.presentation.alpha == 1)
        s.app.advanceTime(to: 2.5)
        #expect(s.box.presentation.alpha == 0.5)
        // A negative delay counts as none. [ours]
        View.animate(withDuration: 1, delay: -5, options: .curveLinear, animations: { s.back.alpha = 0 })
        s.app.advanceTime(to: 3)
        #expect(s.back.presentation.alpha == 0.5)
    }

    @Test func a6CompletionOnceAtTheEndBeforeTheStep() {
        let s = Scene()
        var calls: [(Bool, Double, Int)] = []
        View.animate(withDuration: 1, delay: 0.5, options: [], animations: { s.box.center.y = 300 }, completion: {
            calls.append(($0, s.app.currentTime, s.back.received.count))
        })
        s.app.advanceTime(to: 1.4)
        #expect(calls.isEmpty)
        // An input step at 2: the completion (due 1.5) runs first, at 1.5, before delivery.
        s.app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 300, y: 700), timestamp: 2)])
        #expect(calls.count == 1)
        #expect(calls.first?.0 == true && calls.first?.1 == 1.5 && calls.first?.2 == 0)
        #expect(s.back.received == ["began [1]"])
        s.app.advanceTime(to: 10)
        s.box.removeAllAnimations()
        #expect(calls.count == 1)
    }

    @Test func a7RemoveAllAnimationsJumpsToTheModelAndCompletesFalse() {
        let s = Scene()
        var calls: [Bool] = []
        View.animate(withDuration: 1, animations: { s.box.center.x = 300 }, completion: { calls.append($0) })
        s.app.advanceTime(to: 0.5)
        #expect(s.box.presentation.center.x != 300)
        s.box.removeAllAnimations()
        #expect(calls == [false])
        #expect(s.box.presentation.center.x == 300 && !s.box.isAnimating)
        s.app.advanceTime(to: 5)
        #expect(calls == [false])
        // A block with animations left on another view completes only when its last goes (false).
        var two: [Bool] = []
        View.animate(withDuration: 1, animations: { s.box.alpha = 0.5; s.back.alpha = 0.5 }, completion: { two.append($0) })
        s.box.removeAllAnimations()
        #expect(two.isEmpty && s.back.isAnimating)
        s.back.removeAllAnimations()
        #expect(two == [false])
        // Interrupted earlier, the block's end still reports false.
        var three: [Bool] = []
        View.animate(withDuration: 1, animations: { s.box.alpha = 1; s.back.alpha = 1 }, completion: { three.append($0) })
        s.box.removeAllAnimations()
        s.app.advanceTime(to: 7)
        #expect(three == [false])
    }

    @Test func a8ASecondAnimationDoesNotCancelTheFirst() {
        let s = Scene()
        var first: [Bool] = []
        var second: [Bool] = []
        View.animate(withDuration: 1, animations: { s.box.center.x = 300 }, completion: { first.append($0) })
        s.app.advanceTime(to: 0.5)
        View.animate(withDuration: 1, animations: { s.box.center.x = 0 }, completion: { second.append($0) })
        #expect(first.isEmpty && s.box.isAnimating)
        s.app.advanceTime(to: 1)
        #expect(first == [true] && second.isEmpty)
        s.app.advanceTime(to: 1.5)
        #expect(second == [true] && !s.box.isAnimating && s.box.presentation.center.x == 0)
    }

    @Test func a9RepeatAndAutoreverse() {
        let s = Scene()
        var calls: [Bool] = []
        View.animate(withDuration: 1, delay: 0, options: [.repeat, .curveLinear], animations: { s.box.alpha = 0 }, completion: { calls.append($0) })
        s.app.advanceTime(to: 100.25)
        #expect(calls.isEmpty && s.box.isAnimating)
        #expect(s.box.presentation.alpha == 0.75)
        s.box.removeAllAnimations()
        #expect(calls == [false])

        let t = Scene()
        var ends: [(Bool, Double)] = []
        View.animate(withDuration: 1, delay: 0, options: [.autoreverse, .curveLinear], animations: { t.box.center.x = 150 }, completion: {
            ends.append(($0, t.app.currentTime))
        })
        t.app.advanceTime(to: 0.5)
        #expect(t.box.presentation.center.x == 100)
        t.app.advanceTime(to: 1.75)  // backward: x = 0.25
        #expect(t.box.presentation.center.x == 75)
        #expect(ends.isEmpty)
        t.app.advanceTime(to: 2.5)
        #expect(ends.count == 1 && ends[0].0 && ends[0].1 == 2)
        #expect(t.box.presentation.center.x == 150 && !t.box.isAnimating)

        // Repeat + autoreverse: cycle 2 s, forever.
        let u = Scene()
        View.animate(withDuration: 1, delay: 0, options: [.repeat, .autoreverse, .curveLinear], animations: { u.box.center.x = 150 })
        u.app.advanceTime(to: 41.5)
        #expect(u.box.presentation.center.x == 100)
        u.app.advanceTime(to: 42.75)
        #expect(u.box.presentation.center.x == 125)
        u.box.removeAllAnimations()
    }

    // MARK: - A10 springs

    /// A10's formula, written out independently.
    static func springFraction(z: Double, v0: Double, d: Double, t: Double) -> Double {
        if t >= d { return 1 }
        let zc = Swift.min(Swift.max(z, 0.01), 1)
        let w0 = Foundation.log(1000.0) / (zc * d)
        if zc < 1 {
            let wd = w0 * Foundation.sqrt(1 - zc * zc)
            return 1 - Foundation.exp(-zc * w0 * t) * (Foundation.cos(wd * t) + (zc * w0 - v0) / wd * Foundation.sin(wd * t))
        }
        return 1 - Foundation.exp(-w0 * t) * (1 + (w0 - v0) * t)
    }

    @Test(arguments: [(0.3, 0.0), (0.5, 2.0), (1.0, 0.0), (1.0, 3.0), (2.0, 0.0), (0.001, 1.0)])
    func a10SpringClosedForm(z: Double, v0: Double) {
        let s = Scene()
        View.animate(withDuration: 2, delay: 0, usingSpringWithDamping: z, initialSpringVelocity: v0, options: [], animations: {
            s.box.center.x = 150
        }, completion: nil)
        for t in [0.1, 0.3, 0.7, 1.2, 1.9] {
            s.app.advanceTime(to: t)
            let expected = 50 + 100 * Self.springFraction(z: z, v0: v0, d: 2, t: t)
            #expect(abs(s.box.presentation.center.x - expected) < 1e-9, "z \(z) v0 \(v0) t \(t)")
        }
        s.app.advanceTime(to: 2)
        #expect(s.box.presentation.center.x == 150 && !s.box.isAnimating)
    }

    @Test func a10SpringOvershootsAndStartsWithTheVelocity() {
        let spring = SpringTiming(damping: 0.2, velocity: 4, duration: 1)
        var peak = 0.0
        for i in 1..<1000 { peak = max(peak, spring.fraction(atTime: Double(i) / 1000)) }
        #expect(peak > 1)
        let h = 1e-7
        #expect(abs(spring.fraction(atTime: h) / h - 4) < 1e-4)  // s′(0) = −v0
    }

    // MARK: - A11–A13

    @Test func a11PerformWithoutAnimation() {
        let s = Scene()
        var enabledInside = true
        View.animate(withDuration: 1) {
            View.performWithoutAnimation {
                s.box.center.x = 300
                enabledInside = View.areAnimationsEnabled
            }
            s.back.alpha = 0.5
        }
        #expect(!enabledInside && View.areAnimationsEnabled)
        #expect(!s.box.isAnimating && s.box.presentation.center.x == 300)
        #expect(s.back.isAnimating)
    }

    @Test func a12AnimationsDisabled() {
        let s = Scene()
        var calls: [Bool] = []
        View.setAnimationsEnabled(false)
        defer { View.setAnimationsEnabled(true) }
        #expect(!View.areAnimationsEnabled)
        View.animate(withDuration: 1, animations: { s.box.center.x = 300 }, completion: { calls.append($0) })
        #expect(calls == [true] && !s.box.isAnimating && s.box.presentation.center.x == 300)
    }

    @Test func a13NoAnimationCompletesAtOnce() {
        let s = Scene()
        var calls: [String] = []
        View.animate(withDuration: 0, animations: { s.box.center.x = 300 }, completion: { calls.append("zero \($0)") })
        View.animate(withDuration: -1, animations: { s.box.center.x = 200 }, completion: { calls.append("negative \($0)") })
        View.animate(withDuration: 1, animations: { s.box.center.x = 200 }, completion: { calls.append("unchanged \($0)") })
        View.animate(withDuration: 1, animations: {}, completion: { calls.append("empty \($0)") })
        #expect(calls == ["zero true", "negative true", "unchanged true", "empty true"])
        #expect(!s.box.isAnimating && s.app.pendingDeadlineCount == 0)
    }

    // MARK: - A14–A16

    @Test func a14AnimatingViewsAreNotHitUnlessAllowed() {
        let s = Scene()
        let child = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        s.box.addSubview(child)
        View.animate(withDuration: 1, delay: 0.5, options: [], animations: { s.box.alpha = 0.9 })
        // From the call (the delay included): the box and its subviews give way to the back.
        #expect(s.box.isUserInteractionEnabled)
        #expect(s.box.isInteractionBlockedByAnimation)
        #expect(s.window.hitTest(Point(x: 15, y: 15)) === s.back)
        #expect(s.window.hitTest(Point(x: 50, y: 50)) === s.back)
        #expect(s.box.hitTest(Point(x: 50, y: 50)) == nil)
        #expect(Reference.hitTest(s.window, Point(x: 15, y: 15)) === s.back)
        #expect(s.window.hitTest([Point(x: 15, y: 15), Point(x: 50, y: 50)]).allSatisfy { $0 === s.back })
        #expect(s.window.mirrorMismatches().isEmpty)
        // A touch goes to what is behind.
        s.app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 50, y: 50), timestamp: 1)])
        #expect(s.back.received == ["began [1]"] && s.box.received.isEmpty)
        s.app.injectTouches([TouchChange(id: 1, phase: .ended, location: Point(x: 50, y: 50), timestamp: 1.2)])
        // After the end: hit again, the C flag restored.
        s.app.advanceTime(to: 1.5)
        #expect(!s.box.isAnimating && !s.box.isInteractionBlockedByAnimation)
        #expect(s.window.hitTest(Point(x: 15, y: 15)) === child)
        #expect(s.window.mirrorMismatches().isEmpty)
        // With .allowUserInteraction nothing changes.
        View.animate(withDuration: 1, delay: 0, options: .allowUserInteraction, animations: { s.box.alpha = 0.8 })
        #expect(s.box.isAnimating && !s.box.isInteractionBlockedByAnimation)
        #expect(s.window.hitTest(Point(x: 50, y: 50)) === s.box)
        // Siblings and the superview are unaffected; a model flag set false stays false after.
        View.animate(withDuration: 1) { s.box.center.y = 60 }
        s.box.isUserInteractionEnabled = false
        #expect(s.window.hitTest(Point(x: 300, y: 300)) === s.back)
        s.app.advanceTime(to: 5)
        #expect(s.window.hitTest(Point(x: 50, y: 50)) === s.back)
        #expect(s.window.mirrorMismatches().isEmpty)
    }

    @Test func a15HitTestUsesTheModelPresentationWhatIsSeen() {
        let s = Scene()
        View.animate(withDuration: 1, delay: 0, options: [.allowUserInteraction, .curveLinear], animations: {
            s.box.center.x = 250  // frame 200…300
        })
        s.app.advanceTime(to: 0.5)  // shown at 100…200
        #expect(s.window.hitTest(Point(x: 150, y: 50)) === s.back)  // the model is at 200…300
        #expect(s.window.hitTest(Point(x: 250, y: 50)) === s.box)
        #expect(s.window.hitTestPresentation(Point(x: 150, y: 50)) === s.box)
        #expect(s.window.hitTestPresentation(Point(x: 250, y: 50)) === s.back)
        // A touch where the box is seen reaches the back.
        s.app.injectTouches([TouchChange(id: 1, phase: .began, location: Point(x: 150, y: 50), timestamp: 0.5)])
        #expect(s.back.received == ["began [1]"] && s.box.received.isEmpty)
    }

    @Test func a16IsAnimatingFromTheCallToTheEnd() {
        let s = Scene()
        #expect(!s.box.isAnimating)
        View.animate(withDuration: 1, delay: 1, options: [], animations: { s.box.center.x = 10 })
        #expect(s.box.isAnimating && !s.back.isAnimating)
        s.app.advanceTime(to: 1.999)
        #expect(s.box.isAnimating)
        s.app.advanceTime(to: 2)
        #expect(!s.box.isAnimating)
    }

    // MARK: - A17–A20

    @Test func a17NestedBlocksInherit() {
        let s = Scene()
        var inner: [(Bool, Double)] = []
        var overridden: [(Bool, Double)] = []
        View.animate(withDuration: 4, delay: 0, options: .curveLinear, animations: {
            View.animate(withDuration: 1, delay: 0, options: .curveEaseIn, animations: { s.box.center.x = 450 }, completion: {
                inner.append(($0, s.app.currentTime))
            })
            View.animate(withDuration: 1, delay: 0, options: [.curveEaseIn, .overrideInheritedDuration, .overrideInheritedCurve], animations: {
                s.back.alpha = 0
            }, completion: { overridden.append(($0, s.app.currentTime)) })
        })
        s.app.advanceTime(to: 0.5)
        #expect(s.box.presentation.center.x == 50 + 400 * 0.125)  // linear over 4 s
        #expect(abs(s.back.presentation.alpha - (1 - Self.bisectBezier(0.42, 0, 1, 1, 0.5))) < 1e-9)  // easeIn over 1 s
        s.app.advanceTime(to: 10)
        #expect(inner.map(\.1) == [4] && overridden.map(\.1) == [1])
        // Only the duration overridden: the curve is still inherited.
        View.animate(withDuration: 4, delay: 0, options: .curveLinear, animations: {
            View.animate(withDuration: 2, delay: 0, options: [.curveEaseIn, .overrideInheritedDuration], animations: { s.box.center.x = 50 })
        })
        s.app.advanceTime(to: 11)
        #expect(s.box.presentation.center.x == 450 - 400 * 0.5)
    }

    @Test func a18KeyframesLinearBetweenValues() {
        let s = Scene()
        var done: [(Bool, Double)] = []
        View.animateKeyframes(withDuration: 4, delay: 0, options: .curveLinear, animations: {
            View.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.25) { s.box.center.x = 150 }
            View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { s.box.center.x = 350 }
            View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { s.box.alpha = 0 }
        }, completion: { done.append(($0, s.app.currentTime)) })
        #expect(s.box.center.x == 350 && s.box.alpha == 0)
        s.app.advanceTime(to: 0.5)
        #expect(s.box.presentation.center.x == 50)  // before its first keyframe: the old value
        #expect(s.box.presentation.alpha == 0.75)
        s.app.advanceTime(to: 1.5)
        #expect(s.box.presentation.center.x == 100)
        s.app.advanceTime(to: 3)
        #expect(s.box.presentation.center.x == 250 && s.box.presentation.alpha == 0)
        s.app.advanceTime(to: 4)
        #expect(done.count == 1 && done[0].0 && done[0].1 == 4 && !s.box.isAnimating)
    }

    @Test func a18bTransitions() {
        let s = Scene()
        let replacement = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var done: [(Bool, Double)] = []
        View.transition(from: s.box, to: replacement, duration: 1, options: .transitionCrossDissolve, completion: {
            done.append(($0, s.app.currentTime))
        })
        #expect(s.box.superview == nil && replacement.superview === s.window)
        #expect(s.window.subviews.last === replacement)
        #expect(s.window.isAnimating)
        // The container animates without .allowUserInteraction: nothing in it is hit (A14).
        #expect(s.window.hitTest(Point(x: 50, y: 50)) == nil)
        s.app.advanceTime(to: 1)
        #expect(done.count == 1 && done[0].0 && done[0].1 == 1)
        #expect(s.window.hitTest(Point(x: 50, y: 50)) === replacement)

        // showHideTransitionViews: hide and show instead.
        let shown = View(frame: .zero)
        shown.isHidden = true
        s.window.addSubview(shown)
        View.transition(from: replacement, to: shown, duration: 1, options: [.showHideTransitionViews, .allowUserInteraction], completion: nil)
        #expect(replacement.isHidden && !shown.isHidden && replacement.superview === s.window)
        #expect(s.window.hitTest(Point(x: 50, y: 50)) === s.back)

        // transition(with:): the changes at once, the completion at the end.
        var with: [(Bool, Double)] = []
        View.transition(with: s.back, duration: 2, options: .transitionFlipFromLeft, animations: { s.back.alpha = 0.5 }, completion: {
            with.append(($0, s.app.currentTime))
        })
        #expect(s.back.alpha == 0.5 && s.back.presentation.alpha == 0.5 && s.back.isAnimating)
        s.app.advanceTime(to: 3)
        #expect(with.count == 1 && with[0].0 && with[0].1 == 3)
    }

    @Test func a19BeginCommit() {
        let s = Scene()
        var events: [String] = []
        View.beginAnimations("slide", context: nil)
        View.setAnimationWillStart { events.append("start \($0 ?? "nil") at \(s.app.currentTime)") }
        View.setAnimationDidStop { events.append("stop \($0 ?? "nil") \($1) at \(s.app.currentTime)") }
        s.box.center.x = 450
        View.commitAnimations()
        #expect(events == ["start slide at 0.0"])
        s.app.advanceTime(to: 0.1)  // defaults: 0.2 s, easeInOut
        #expect(abs(s.box.presentation.center.x - (50 + 400 * Self.bisectBezier(0.42, 0, 0.58, 1, 0.5))) < 1e-9)
        s.app.advanceTime(to: 0.2)
        #expect(events == ["start slide at 0.0", "stop slide true at 0.2"])

        // The setters, and an interruption.
        events = []
        View.beginAnimations(nil)
        View.setAnimationDuration(2)
        View.setAnimationDelay(1)
        View.setAnimationCurve(.linear)
        View.setAnimationRepeatCount(2)
        View.setAnimationRepeatAutoreverses(true)
        View.setAnimationWillStart { events.append("start \($0 ?? "nil") at \(s.app.currentTime)") }
        View.setAnimationDidStop { events.append("stop \($0 ?? "nil") \($1) at \(s.app.currentTime)") }
        s.box.center.x = 50
        View.commitAnimations()
        #expect(events.isEmpty)
        s.app.advanceTime(to: 2.2)  // 1 s into the first forward run
        #expect(events == ["start nil at 1.2"])
        #expect(abs(s.box.presentation.center.x - 250) < 1e-9)
        s.app.advanceTime(to: 7.2)  // 1.2 + 2 × (2 + 2) = 9.2: still running
        #expect(s.box.isAnimating)
        s.box.removeAllAnimations()
        #expect(events == ["start nil at 1.2", "stop nil false at 7.2"])
        // commitAnimations without a begin does nothing.
        View.commitAnimations()
    }

    @Test func a20NoClockNoAnimation() {
        let lone = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var calls: [Bool] = []
        View.animate(withDuration: 1, animations: { lone.center.x = 100 }, completion: { calls.append($0) })
        #expect(calls == [true] && !lone.isAnimating && lone.presentation.center.x == 100)
        // A window with no application: no clock either.
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let v = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(v)
        View.animate(withDuration: 1, animations: { v.alpha = 0 }, completion: { calls.append($0) })
        #expect(calls == [true, true] && !v.isAnimating)
        // Mixed: the clock of the first animated view with one.
        let s = Scene()
        View.animate(withDuration: 1, animations: { lone.center.x = 5; s.box.center.x = 5 }, completion: { calls.append($0) })
        #expect(calls == [true, true] && s.box.isAnimating && !lone.isAnimating)
        s.app.advanceTime(to: 1)
        #expect(calls == [true, true, true])
    }

    // MARK: - Beyond the rules

    @Test func beginFromCurrentStateStartsFromWhatIsShown() {
        let s = Scene()
        var first: [Bool] = []
        View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { s.box.center.x = 150 }, completion: { first.append($0) })
        s.app.advanceTime(to: 0.5)  // shown at 100
        View.animate(withDuration: 1, delay: 0, options: [.curveLinear, .beginFromCurrentState], animations: { s.box.center.x = 300 })
        #expect(first == [false])  // interrupted [ours]
        #expect(s.box.presentation.center.x == 100)
        s.app.advanceTime(to: 1)
        #expect(s.box.presentation.center.x == 200)
    }

    @Test func theLogRecordsStartsAndCompletions() {
        let s = Scene()
        View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { s.box.frame.origin.x = 10 })
        s.app.advanceTime(to: 2)
        let lines = s.app.deliveryLog.filter { $0.kind == .animation }.map(\.description)
        #expect(lines == [
            "0.0 animation box: start center duration 1.0 delay 0.0 linear",
            "1.0 animation box: complete true",
        ])
    }

    @Test func frameAnimatesCenterAndBounds() {
        let s = Scene()
        View.animate(withDuration: 1, delay: 0, options: .curveLinear, animations: { s.box.frame = Rect(x: 0, y: 0, width: 300, height: 100) })
        s.app.advanceTime(to: 0.5)
        #expect(s.box.presentation.frame == Rect(x: 0, y: 0, width: 200, height: 100))
        s.app.advanceTime(to: 1)
    }

    @Test func presentationSnapshotMatchesTheReferenceAndLeavesTheModel() {
        let s = Scene()
        s.box.addSubview(View(frame: Rect(x: 20, y: 20, width: 30, height: 30)))
        View.animate(withDuration: 2, delay: 0, options: [.curveLinear, .allowUserInteraction], animations: {
            s.box.center = Point(x: 250, y: 450)
            s.box.transform = AffineTransform(scaleX: 2, y: 2)
        })
        s.app.advanceTime(to: 0.5)
        let before = s.window.hitTest(Point(x: 250, y: 450))
        for time in [0.5, 1.0, 1.5, 2.5] {
            let snapshot = s.window.makeHitTestSnapshot(presentationAt: time)
            var points: [Point] = []
            for y in stride(from: 0.0, to: 800, by: 7.5) { for x in stride(from: 0.0, to: 400, by: 7.5) { points.append(Point(x: x, y: y)) } }
            let handles = snapshot.hitTest(points)
            for (p, h) in zip(points, handles) {
                let expected = Reference.presentationHitTest(s.window, p, at: time)
                #expect(s.window.view(forHitTestHandle: h) === expected, "t \(time) \(p)")
            }
        }
        #expect(s.window.hitTest(Point(x: 250, y: 450)) === before)
        #expect(s.window.mirrorMismatches().isEmpty)
    }

    @Test func aHundredThousandDeepChainAnimates() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 1000, height: 1000))
        app.addWindow(window)
        app.advanceTime(to: 0)
        var last: View = window
        for i in 0..<100_000 {
            let v = View(frame: Rect(x: i % 2 == 0 ? 0.5 : -0.5, y: 0, width: 999 - Double(i) * 0.001, height: 999))
            last.addSubview(v)
            last = v
        }
        let leaf = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        last.addSubview(leaf)
        View.animate(withDuration: 1, delay: 0, options: [.curveLinear, .allowUserInteraction], animations: { leaf.center.x = 105 })
        app.advanceTime(to: 0.5)
        // The leaf is at 100…110 in the model and seen at 50…60.
        let q = last.convert(Point(x: 55, y: 5), to: window)
        let r = last.convert(Point(x: 105, y: 5), to: window)
        #expect(window.hitTest(q) === last && window.hitTest(r) === leaf)
        #expect(window.hitTestPresentation(q) === leaf && window.hitTestPresentation(r) === last)
        #expect(window.makeHitTestSnapshot(presentationAt: 0.5).hitTest([q, r]) == [leaf.hitTestHandle, last.hitTestHandle])
        #expect(window.makeHitTestSnapshot(presentationAt: 1).hitTest([q, r]) == [last.hitTestHandle, leaf.hitTestHandle])
        #expect(window.mirrorMismatches().isEmpty)
    }

    /// The README's example, value for value.
    @Test func theReadmeExample() {
        let app = Application()
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        app.addWindow(window)
        let content = View(frame: window.bounds)
        let drawer = View(frame: Rect(x: -280, y: 0, width: 280, height: 844))
        window.addSubview(content)
        window.addSubview(drawer)
        var slid: [Bool] = []
        View.animate(withDuration: 0.4, delay: 0, options: .curveEaseOut, animations: {
            drawer.frame = Rect(x: 0, y: 0, width: 280, height: 844)
        }, completion: { slid.append($0) })
        app.advanceTime(to: 0.1)
        #expect(drawer.frame == Rect(x: 0, y: 0, width: 280, height: 844))
        let shown = drawer.presentation.frame
        #expect(abs(shown.minX - (-280 + 280 * Self.bisectBezier(0, 0, 0.58, 1, 0.25))) < 1e-9)
        #expect(String(format: "%.2f", shown.minX) == "-174.12" && shown.width == 280)
        #expect(drawer.isAnimating)
        let p = Point(x: 100, y: 300)
        #expect(window.hitTest(p) === content)
        #expect(window.hitTestPresentation(p) === drawer)
        app.advanceTime(to: 0.4)
        #expect(slid == [true] && window.hitTest(p) === drawer)
    }
}
