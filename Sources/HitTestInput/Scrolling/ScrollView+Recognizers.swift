import HitTestCore

/// The scroll view's pan: it drags the content (S5) and, through the scroll view's
/// `gestureRecognizerShouldBegin`, gives way to content that keeps its touches (S4).
final class ScrollViewPanGestureRecognizer: PanGestureRecognizer {
    /// The scroll view that owns it. Unretained (`Unretained`, the core's back reference), not
    /// `weak` (a weak reference would put every retain and release of the scroll view on the
    /// runtime's slow path): the scroll view clears it in its `deinit`, so a recognizer kept
    /// after its scroll view is gone does nothing.
    @Unretained var scrollView: ScrollView? = nil

    /// Created by (and attached to) its scroll view, which owns it and sets `scrollView`.
    init() {
        super.init()
        name = "pan"
        // A pan still possible at a lift fails there, before the view gets the lift, so holding
        // ended phases adds nothing; and a pan reset after a lift must not hold another
        // recognizer's held lift. [ours]
        delaysTouchesEnded = false
        // The action captures nothing: a recognizer runs its actions with itself.
        addAction { g in
            let pan = unsafeDowncast(g, to: ScrollViewPanGestureRecognizer.self)
            guard let scrollView = pan.scrollView else { return }
            scrollView.handlePan(pan)
        }
    }
}

/// The content-touch delay (S2, S3) and the catch of a moving scroll view (S7c), as UIKit's
/// `UIScrollViewDelayedTouchesBeganGestureRecognizer` does it: a recognizer on the scroll view
/// that holds the content's began (`delaysTouchesBegan`) for `ScrollView.contentTouchDelay`,
/// then asks `touchesShouldBegin(_:with:in:)` and fails, which delivers what it held. A touch
/// that lifts first is asked about at the lift. A touch that lands while the view decelerates
/// or animates stops it and is kept from the content: the recognizer recognizes (its touches
/// are cancelled in their views, G6) and so makes the content's other recognizers fail (G9),
/// but never the pan, so the finger can drag on.
final class ScrollViewDelayGestureRecognizer: GestureRecognizer, RecordKeeping {
    /// The record's cache (`RecordKeeping.record` reads and fills it).
    final var knownRecord: GestureTracking?

    /// The scroll view that owns it (it may outlive a scroll view a user let go of: the scroll
    /// view clears this in its `deinit`; `unowned`, not `weak`: no side table on the view).
    unowned var owner: ScrollView?

    /// Created by (and attached to) its scroll view, which sets `owner` and
    /// `delaysTouchesBegan`.
    init() {
        super.init()
        name = "contentTouchDelay"
        delaysTouchesEnded = false  // it decides at the lift itself (see the pan's note)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard let scrollView = owner else { return }
        if scrollView.isMoving {
            // S7c: a touch stops the motion and does not reach the content.
            scrollView.stopMotion()
            record.request(self, .recognized)
            return
        }
        guard record.state == .possible else { return }
        if !delaysTouchesBegan {
            // No delay: asked at once, before the content gets anything (S2).
            askShouldBegin(touches, event: event)
            record.request(self, .failed)
            return
        }
        if record.deadlines.isEmpty, let now = currentTime {
            // `schedule` keeps the recognizer until the deadline runs or is cancelled.
            schedule(at: now + ScrollView.contentTouchDelay) { g in
                unsafeDowncast(g, to: ScrollViewDelayGestureRecognizer.self).delayPassed()
            }
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible else { return }
        // A lift before the delay passed: began and ended at the lift, if the content may have it.
        askShouldBegin(Set(record.sequenceTouches), event: event)
        record.request(self, .failed)
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        if record.state == .possible { record.request(self, .failed) }
    }

    /// The delay passed with the fingers down: ask, then deliver what was held.
    private func delayPassed() {
        guard record.state == .possible else { return }
        let touches = Set(record.touchesDown)
        let event = Event(timestamp: currentTime ?? 0, touches: touches, application: engine?.application)
        askShouldBegin(touches, event: event)
        record.request(self, .failed)
    }

    /// `touchesShouldBegin(_:with:in:)` per content view; a refused touch is kept from its view.
    private func askShouldBegin(_ touches: Set<Touch>, event: Event) {
        guard let scrollView = owner, let router = engine?.application?.router else { return }
        var byView: [(View, Set<Touch>)] = []
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            guard touch.isDelivered, !touch.route.viewHasBegun, let view = touch.view else { continue }
            if let i = byView.firstIndex(where: { $0.0 === view }) {
                byView[i].1.insert(touch)
            } else {
                byView.append((view, [touch]))
            }
        }
        for (view, set) in byView where !scrollView.touchesShouldBegin(set, with: event, in: view) {
            for touch in set { router.cancelDelivery(touch, reason: "touchesShouldBegin returned false") }
        }
    }

    /// Recognizing (S7c) never makes the pan fail.
    override func canPrevent(_ other: GestureRecognizer) -> Bool {
        other !== owner?.panGestureRecognizer
    }

    /// Nothing makes it fail but its own rules: the pan beginning while it holds a began
    /// drops that began (S3) through the pan's own cancellation.
    override func canBePrevented(by other: GestureRecognizer) -> Bool { true }
}

extension ScrollView {
    /// How long a touch on the content is held before the content gets it: 150 ms (S2).
    public static let contentTouchDelay: Double = 0.15

    /// Adds the delay recognizer, then the pan (UIKit's order).
    func installScrollRecognizers() {
        addGestureRecognizer(delayRecognizer)
        addGestureRecognizer(scrollPan)
    }

    /// The pan's state changes drive the drag.
    func handlePan(_ pan: ScrollViewPanGestureRecognizer) {
        let touch = pan.record.sequenceTouches.last?.identifier
        switch pan.record.state {
        case .began:
            scrollFields.currentTouch = touch
            beginDragging(translation: pan.translation(in: self), touch: touch)
            scrollFields.currentTouch = nil
        case .changed:
            drag(translation: pan.translation(in: self), touch: touch)
        case .ended:
            // The lift's own displacement first, then the end of the drag.
            drag(translation: pan.translation(in: self), touch: touch)
            scrollFields.currentTouch = touch
            endDragging(velocity: pan.velocity(in: self), touch: touch)
            scrollFields.currentTouch = nil
        case .cancelled:
            cancelDragging(touch: touch)
        default:
            break
        }
    }

    /// S4: the pan may begin on a touch the content has begun only if the content may lose it
    /// (`canCancelContentTouches` and `touchesShouldCancel(in:)`); otherwise it fails and the
    /// content keeps the touch.
    func panMayBegin() -> Bool {
        for touch in panGestureRecognizer.sequenceTouches {
            guard touch.isDelivered, touch.route.viewHasBegun, !touch.route.viewHasFinished,
                let view = touch.view, view !== self
            else { continue }
            if !canCancelContentTouches || !touchesShouldCancel(in: view) { return false }
        }
        return true
    }
}
