import HitTestCore

/// A view that turns touches into control events and runs actions for them (`UIControl`).
///
/// Tracking follows UIKit (SEMANTICS 9 C1–C6): at `touchesBegan` the control sends
/// `touchDown` (with `touchDownRepeat` when the touch's `tapCount` is above 1) and becomes
/// tracking and highlighted; each move sends `touchDragInside` or `touchDragOutside`, plus
/// `touchDragEnter` / `touchDragExit` when the finger crosses the tracking rect (the bounds
/// grown by `Control.trackingMargin`, 70 pt, on each side); the lift sends `touchUpInside` or
/// `touchUpOutside`; a cancellation sends `touchCancel`. Tracking and highlighting end with the
/// touch. A control tracks one touch at a time (the first one it is given).
///
/// Subclasses refine tracking by overriding `beginTracking`, `continueTracking` (return false
/// to stop tracking the touch), `endTracking` and `cancelTracking`, as in UIKit.
///
/// A control does not pass its touches up the responder chain while enabled. A disabled
/// control (`isEnabled` false) sends no events, does not track, and behaves like a plain view:
/// it is still hit (hit testing does not look at `isEnabled`) and its touch methods forward to
/// `next` (C4; [ours] for what happens to the touch).
///
/// Every control event sent is logged (`TouchDelivery.Kind.controlEvent`, the event names in
/// UIKit's order joined by `|`), and so is every action run (`.action`, `action N (events)`,
/// N counting the control's actions from 1 in registration order).
open class Control: View {
    /// Control events (`UIControl.Event`), with UIKit's raw values.
    public struct Event: OptionSet, Sendable, Hashable, CustomStringConvertible {
        /// The raw bits (UIKit's values).
        public let rawValue: UInt32
        /// An event set from raw bits.
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A touch went down in the control.
        public static let touchDown = Event(rawValue: 1 << 0)
        /// A repeated touch went down in the control (`tapCount` > 1).
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        /// The finger moved within the tracking rect.
        public static let touchDragInside = Event(rawValue: 1 << 2)
        /// The finger moved outside the tracking rect.
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        /// The finger moved from outside the tracking rect to inside it.
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        /// The finger moved from inside the tracking rect to outside it.
        public static let touchDragExit = Event(rawValue: 1 << 5)
        /// The finger lifted inside the tracking rect.
        public static let touchUpInside = Event(rawValue: 1 << 6)
        /// The finger lifted outside the tracking rect.
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        /// The touch was cancelled.
        public static let touchCancel = Event(rawValue: 1 << 8)
        /// The control's value changed (sent by subclasses).
        public static let valueChanged = Event(rawValue: 1 << 12)
        /// The control's primary action (a button: with `touchUpInside`).
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        /// Every touch event.
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        /// Every event.
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)

        /// The named events, in UIKit's order (the order of their bits).
        public static let named: [(Event, String)] = [
            (.touchDown, "touchDown"), (.touchDownRepeat, "touchDownRepeat"),
            (.touchDragInside, "touchDragInside"), (.touchDragOutside, "touchDragOutside"),
            (.touchDragEnter, "touchDragEnter"), (.touchDragExit, "touchDragExit"),
            (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"),
            (.touchCancel, "touchCancel"), (.valueChanged, "valueChanged"),
            (.primaryActionTriggered, "primaryActionTriggered"),
        ]

        /// The names of the events in the set, in UIKit's order, joined by `|`; bits without a
        /// name print as hexadecimal.
        public var description: String {
            var names: [String] = []
            var rest = rawValue
            for (event, name) in Event.named where contains(event) {
                names.append(name)
                rest &= ~event.rawValue
            }
            if rest != 0 { names.append("0x" + String(rest, radix: 16)) }
            return names.isEmpty ? "[]" : names.joined(separator: "|")
        }
    }

    /// How far the tracking rect reaches beyond the bounds on each side, in points (C2: 70 pt,
    /// as iOS; sources give 70–100, Chameleon uses 0). A touch is "inside" while it is in
    /// `bounds` grown by this much.
    public static let trackingMargin: Double = 70

    private struct Registration {
        let events: Event
        let action: (Control, Event) -> Void
    }

    private var registrations: [Registration] = []
    /// The touch being tracked (or followed while not tracking), by identity.
    private var trackedTouch: ObjectIdentifier?

    /// Whether the control responds to touches (`isEnabled`, default true). A disabled control
    /// sends no control events and does not track (C4). Disabling it while it tracks ends the
    /// tracking without events. [ours]
    public var isEnabled = true {
        didSet {
            if !isEnabled, trackedTouch != nil {
                trackedTouch = nil
                storedTracking = false
                storedTouchInside = false
                isHighlighted = false
            }
        }
    }

    /// Whether the control is selected (`isSelected`, default false). The control never sets it
    /// itself.
    public var isSelected = false

    /// Whether the control is highlighted (`isHighlighted`): true while a tracked touch is in
    /// the tracking rect.
    public var isHighlighted = false

    private var storedTracking = false
    private var storedTouchInside = false

    /// Whether the control is tracking a touch (`isTracking`).
    public var isTracking: Bool { storedTracking }

    /// Whether the tracked touch is in the tracking rect (`isTouchInside`).
    public var isTouchInside: Bool { storedTouchInside }

    /// Creates a control with the given frame.
    public override init(frame: Rect) {
        super.init(frame: frame)
        walksInC(asInstanceOf: Control.self)
    }

    // MARK: - Actions

    /// Registers `action` for `events` (`addAction(_:for:)`). When any of them is sent, the
    /// action runs with the control and the events sent that it was registered for (the
    /// intersection). Actions run in registration order (C6).
    public func addAction(for events: Control.Event, _ action: @escaping (Control, Control.Event) -> Void) {
        registrations.append(Registration(events: events, action: action))
    }

    /// Removes every action registered for exactly `events`, or all actions when `events` is
    /// `.allEvents`. [ours: closures cannot be compared, so actions are removed by their events]
    public func removeActions(for events: Control.Event) {
        if events == .allEvents {
            registrations.removeAll()
        } else {
            registrations.removeAll { $0.events == events }
        }
    }

    /// The union of the events actions are registered for (`allControlEvents`).
    public var allControlEvents: Control.Event {
        registrations.reduce(into: []) { $0.formUnion($1.events) }
    }

    /// Sends `events` (`sendActions(for:)`): runs every action registered for any of them, in
    /// registration order, each with the intersection of `events` and its own events (C6).
    /// Logged as a control event, and each action as an action. Works on a disabled control
    /// too, as in UIKit (only touches are ignored).
    public func sendActions(for events: Control.Event) {
        send(events, touch: nil, application: window?.application)
    }

    private func send(_ events: Event, touch: Touch?, application: Application?) {
        guard !events.isEmpty else { return }
        let recorder = application?.recorder
        recorder?.note(.controlEvent, about: self, detail: events.description, touch: touch?.identifier)
        // A snapshot: an action that registers more actions does not run them in this send.
        let current = registrations
        for (index, registration) in current.enumerated() {
            let fired = registration.events.intersection(events)
            guard !fired.isEmpty else { continue }
            recorder?.note(.action, about: self, detail: "action \(index + 1) (\(fired))", touch: touch?.identifier)
            registration.action(self, fired)
        }
    }

    /// The events a lift inside the tracking rect sends: `touchUpInside` (a button adds
    /// `primaryActionTriggered`: C3).
    var touchUpInsideEvents: Event { .touchUpInside }

    // MARK: - Tracking (override points)

    /// A tracked touch began (`beginTrackingWithTouch:withEvent:`). Return false not to track
    /// it. The default returns true.
    open func beginTracking(_ touch: Touch, with event: HitTestCore.Event?) -> Bool { true }

    /// The tracked touch moved (`continueTrackingWithTouch:withEvent:`). Return false to stop
    /// tracking it (no more events for that touch). The default returns true.
    open func continueTracking(_ touch: Touch, with event: HitTestCore.Event?) -> Bool { true }

    /// The tracked touch lifted (`endTrackingWithTouch:withEvent:`), before the touch-up events
    /// are sent. The default does nothing.
    open func endTracking(_ touch: Touch?, with event: HitTestCore.Event?) {}

    /// The tracked touch was cancelled (`cancelTrackingWithEvent:`), before `touchCancel` is
    /// sent. The default does nothing.
    open func cancelTracking(with event: HitTestCore.Event?) {}

    /// Whether `touch` is in the tracking rect: the bounds grown by `trackingMargin` (C2).
    func isInTrackingRect(_ touch: Touch) -> Bool {
        let m = Control.trackingMargin
        let b = bounds
        let rect = Rect(x: b.minX - m, y: b.minY - m, width: b.width + 2 * m, height: b.height + 2 * m)
        return rect.contains(touch.location(in: self))
    }

    // MARK: - Recognizers (C5)

    /// A single-finger single-tap recognizer that is not attached to this control cannot begin
    /// on a touch in it, so the control's own action runs (C5; [ours] for the mechanism). One
    /// attached to the control itself may begin, and then cancels the control's touch (G6).
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        if let tap = gestureRecognizer as? TapGestureRecognizer, tap.view !== self,
            tap.numberOfTapsRequired == 1, tap.numberOfTouchesRequired == 1
        {
            return false
        }
        return super.gestureRecognizerShouldBegin(gestureRecognizer)
    }

    // MARK: - Touches

    private func tracked(in touches: Set<Touch>) -> Touch? {
        guard let trackedTouch else { return nil }
        return touches.first { ObjectIdentifier($0) == trackedTouch }
    }

    private func application(_ event: HitTestCore.Event?, _ touch: Touch) -> Application? {
        event?.application ?? touch.window?.application
    }

    /// Starts tracking the first touch: `touchDown` (and `touchDownRepeat`) when
    /// `beginTracking` agrees; highlighted. Disabled: forwards to `next`.
    open override func touchesBegan(_ touches: Set<Touch>, with event: HitTestCore.Event?) {
        guard isEnabled else { return super.touchesBegan(touches, with: event) }
        guard trackedTouch == nil, let touch = touches.min(by: { $0.identifier < $1.identifier }) else { return }
        trackedTouch = ObjectIdentifier(touch)
        storedTouchInside = true
        storedTracking = beginTracking(touch, with: event)
        isHighlighted = true
        if storedTracking {
            var events: Event = .touchDown
            if touch.tapCount > 1 { events.insert(.touchDownRepeat) }
            send(events, touch: touch, application: application(event, touch))
        }
    }

    /// Follows the tracked touch: drag inside/outside, enter/exit; highlighted while inside.
    open override func touchesMoved(_ touches: Set<Touch>, with event: HitTestCore.Event?) {
        guard isEnabled else { return super.touchesMoved(touches, with: event) }
        guard let touch = tracked(in: touches) else { return }
        let wasInside = storedTouchInside
        storedTouchInside = isInTrackingRect(touch)
        if storedTracking {
            storedTracking = continueTracking(touch, with: event)
            if storedTracking {
                var events: Event = storedTouchInside ? .touchDragInside : .touchDragOutside
                if !wasInside && storedTouchInside { events.insert(.touchDragEnter) }
                if wasInside && !storedTouchInside { events.insert(.touchDragExit) }
                send(events, touch: touch, application: application(event, touch))
            }
        }
        isHighlighted = storedTouchInside
    }

    /// The tracked touch lifted: `endTracking`, then touch up inside or outside; tracking and
    /// highlighting end after the actions ran (Chameleon's order).
    open override func touchesEnded(_ touches: Set<Touch>, with event: HitTestCore.Event?) {
        guard isEnabled else { return super.touchesEnded(touches, with: event) }
        guard let touch = tracked(in: touches) else { return }
        storedTouchInside = isInTrackingRect(touch)
        if storedTracking {
            endTracking(touch, with: event)
            send(storedTouchInside ? touchUpInsideEvents : .touchUpOutside, touch: touch, application: application(event, touch))
        }
        finish()
    }

    /// The tracked touch was cancelled: `cancelTracking`, then `touchCancel`.
    open override func touchesCancelled(_ touches: Set<Touch>, with event: HitTestCore.Event?) {
        guard isEnabled else { return super.touchesCancelled(touches, with: event) }
        guard let touch = tracked(in: touches) else { return }
        if storedTracking {
            cancelTracking(with: event)
            send(.touchCancel, touch: touch, application: application(event, touch))
        }
        finish()
    }

    private func finish() {
        trackedTouch = nil
        storedTracking = false
        storedTouchInside = false
        isHighlighted = false
    }
}

/// A control that sends its primary action when tapped (`UIButton`): `touchUpInside` comes with
/// `primaryActionTriggered` (C3).
open class Button: Control {
    /// Creates a button with the given frame.
    public override init(frame: Rect) {
        super.init(frame: frame)
        walksInC(asInstanceOf: Button.self)
    }

    override var touchUpInsideEvents: Control.Event { [.touchUpInside, .primaryActionTriggered] }
}
