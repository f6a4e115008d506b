import HitTestCore

/// One entry of the delivery log: which responder received, passed on or lost which phase of
/// which touch — or, for the activity kinds (`recognizer`, `action`, `controlEvent`,
/// `scrolled`, `animation`), what a touch or the clock made happen.
///
/// The responder is recorded by identity (`responder`) and by the name it had then
/// (`responderName`): two windows both named `Window#0` are two different `responder`s.
///
/// An entry keeps what its `reason` says in a compact form and writes the text when it is read
/// (a scroll's offset as its two numbers): recording stays cheap with the log on, and every
/// property, `description`, equality and hashing are exactly those of the text.
public struct TouchDelivery: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// The touch method of the touch's view was called.
        case delivered
        /// A default touch method passed the touches to `next`.
        case forwarded
        /// No responder took them: they reached the end of the chain, hit no view, or the
        /// input was refused (see `reason`).
        case dropped
        /// UIKit's rules, or a gesture recognizer, kept the touch from its view (see `reason`).
        case ignored
        /// A gesture recognizer holds the phase back from the view for now; it is delivered
        /// later (logged then as `.delivered`) or never (logged as `.ignored`).
        case held
        /// A gesture recognizer changed state; `detail` is `Name from → to`, `responder` the
        /// recognizer's view.
        case recognizer
        /// An action ran (a recognizer's or a control's); `detail` names it.
        case action
        /// A control sent control events; `detail` lists them in UIKit's order.
        case controlEvent
        /// A scroll view's `contentOffset` changed; `detail` is the new offset.
        case scrolled
        /// An animation started or completed on the view; `detail` says which.
        case animation

        /// Whether the entry is about one phase of one touch (the first five kinds).
        public var isTouchDelivery: Bool {
            switch self {
            case .delivered, .forwarded, .dropped, .ignored, .held: true
            case .recognizer, .action, .controlEvent, .scrolled, .animation: false
            }
        }
    }

    /// When, in simulated time: the application's `currentTime` when the decision was made —
    /// an input step's (latest) timestamp, or the time of the deadline that released or
    /// cancelled a held delivery. Entries are in time order.
    public var timestamp: Double
    /// The touch's identifier; for the activity kinds, the touch that caused the entry when
    /// there is one, else nil.
    public var touch: Int? {
        get { hasTouch ? touchIdentifier : nil }
        set {
            hasTouch = newValue != nil
            touchIdentifier = newValue ?? 0
        }
    }
    /// `touch`'s value when `hasTouch` (an `Int?` would take 9 bytes and, with the payload's
    /// tag, make an entry 72 bytes instead of 64).
    private var touchIdentifier: Int
    /// The responder's identity: compare with `ObjectIdentifier(someView)`. It names an object
    /// only while that object lives (identifiers of freed objects are reused).
    public var responder: ObjectIdentifier
    /// The responder's `debugName` when the entry was recorded.
    public var responderName: String
    /// Why, for `.ignored`, `.held`, `.dropped` at the application, and cancellations by the
    /// system; for the activity kinds, what happened (see `Kind`).
    ///
    /// Written when read (the entry keeps a compact form of it); setting it stores the text.
    public var reason: String? {
        get {
            switch payload {
            case .none: nil
            case .text(let text): text
            case .offset(let x, let y): ScrollView.offsetText(Point(x: Double(bitPattern: x), y: Double(bitPattern: y)))
            }
        }
        set { payload = newValue.map(Payload.text) ?? .none }
    }

    /// What `reason` says, kept as values: the text is built only when `reason` is read.
    /// Values only (no references), so entries stay `Sendable`.
    enum Payload: Sendable {
        /// No reason (`reason` is nil).
        case none
        /// The text itself.
        case text(String)
        /// A scroll's new `contentOffset` (x, y), as the numbers' bit patterns: `reason` is
        /// `ScrollView.offsetText`'s `contentOffset (x, y)`. Kept bit for bit (`-0.0` stays
        /// `-0.0`; integers, so nothing can touch a NaN's bits), so the text is the one
        /// formatting them when recorded would have written.
        case offset(UInt64, UInt64)

        /// A scroll's offset.
        static func offset(_ offset: Point) -> Payload { .offset(offset.x.bitPattern, offset.y.bitPattern) }
    }

    /// `reason`'s compact form.
    var payload: Payload
    /// The phase; nil for the activity kinds.
    public var phase: Touch.Phase?
    /// What happened.
    public var kind: Kind
    /// Whether `touch` is not nil.
    private var hasTouch: Bool

    /// What an activity entry says (the same text as `reason`).
    public var detail: String? { kind.isTouchDelivery ? nil : reason }

    /// An entry.
    public init(
        timestamp: Double, touch: Int?, phase: Touch.Phase?, kind: Kind, responder: ObjectIdentifier,
        responderName: String, reason: String? = nil
    ) {
        self.init(
            timestamp: timestamp, touch: touch, phase: phase, kind: kind, responder: responder,
            responderName: responderName, payload: reason.map(Payload.text) ?? .none)
    }

    /// An entry whose reason is kept compact (`payload`), formatted when read.
    init(
        timestamp: Double, touch: Int?, phase: Touch.Phase?, kind: Kind, responder: ObjectIdentifier,
        responderName: String, payload: Payload
    ) {
        self.timestamp = timestamp
        self.hasTouch = touch != nil
        self.touchIdentifier = touch ?? 0
        self.phase = phase
        self.kind = kind
        self.responder = responder
        self.responderName = responderName
        self.payload = payload
    }

    /// Whether the two entries are equal: every property equal, `reason` compared as text (so
    /// equality is the same whether an entry keeps its reason as text or as values).
    public static func == (lhs: TouchDelivery, rhs: TouchDelivery) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.touch == rhs.touch && lhs.phase == rhs.phase
            && lhs.kind == rhs.kind && lhs.responder == rhs.responder && lhs.responderName == rhs.responderName
            && lhs.reason == rhs.reason
    }

    /// Hashes every property in declaration order, `reason` as text: the same hash as the
    /// entry built with that text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(touch)
        hasher.combine(phase)
        hasher.combine(kind)
        hasher.combine(responder)
        hasher.combine(responderName)
        hasher.combine(reason)
    }

    /// Whether the entry is about `responder` (by identity).
    public func isAbout(_ responder: Responder) -> Bool { self.responder == ObjectIdentifier(responder) }

    /// `time touch phase kind responderName (reason)`, one line. It leaves out identity, so
    /// logs of two runs over two copies of a tree print the same.
    /// Activity entries print as `time kind responderName: detail` (with `touch N` when a touch
    /// caused them).
    ///
    /// Names and reasons come from input (ids, class names, recognizer names): their control
    /// characters and backslashes are escaped (`escapingControlCharacters`), so an entry is
    /// always one line and no name can forge another entry or reach a terminal raw.
    public var description: String {
        let name = responderName.escapingControlCharacters
        if kind.isTouchDelivery, let touch, let phase {
            return "\(timestamp) touch \(touch) \(phase.rawValue) \(kind.rawValue) \(name)"
                + (reason.map { " (\($0.escapingControlCharacters))" } ?? "")
        }
        let cause = touch.map { " touch \($0)" } ?? ""
        return "\(timestamp)\(cause) \(kind.rawValue) \(name): \((reason ?? "").escapingControlCharacters)"
    }
}

/// Where the pipeline writes `Application.deliveryLog`. A class so that the tracker, the
/// router, the dispatcher and the responder chain's forwarding share one.
/// (Its fields, `isEnabled`, `entries` and `now`, are in `DeliveryRecorderStorage`,
/// Core/Storage.swift.)
package final class DeliveryRecorder: DeliveryRecorderStorage {

    /// One entry per touch, in touch identifier order.
    /// (The test of `isEnabled` inline, the recording out of line: with the log off a call
    /// costs the test alone, whatever the compiler decides about the rest.)
    @inline(__always)
    func record(_ kind: TouchDelivery.Kind, _ phase: Touch.Phase, _ touches: Set<Touch>, by responder: Responder, reason: String? = nil) {
        guard isEnabled else { return }
        recordEach(kind, phase, touches, by: responder, reason: reason)
    }

    @inline(never)
    private func recordEach(_ kind: TouchDelivery.Kind, _ phase: Touch.Phase, _ touches: Set<Touch>, by responder: Responder, reason: String?) {
        if touches.count == 1, let touch = touches.first {
            record(kind, phase, touch: touch.identifier, by: responder, reason: reason)
            return
        }
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            record(kind, phase, touch: touch.identifier, by: responder, reason: reason)
        }
    }

    /// An activity entry (`kind` is one of the activity kinds): `detail` says what happened to or
    /// by `responder`; `touch` is the touch that caused it, if any.
    /// The detail is built only when the log is on.
    package func note(_ kind: TouchDelivery.Kind, about responder: Responder, detail: @autoclosure () -> String, touch: Int? = nil) {
        guard isEnabled else { return }
        note(kind, about: responder, payload: .text(detail()), touch: touch)
    }

    /// An activity entry whose detail is kept compact (formatted when read).
    func note(_ kind: TouchDelivery.Kind, about responder: Responder, payload: TouchDelivery.Payload, touch: Int? = nil) {
        guard isEnabled else { return }
        entries.append(
            TouchDelivery(
                timestamp: now, touch: touch, phase: nil, kind: kind, responder: ObjectIdentifier(responder),
                responderName: responder.debugName, payload: payload))
    }

    func record(_ kind: TouchDelivery.Kind, _ phase: Touch.Phase, touch id: Int, by responder: Responder, reason: String?) {
        guard isEnabled else { return }
        entries.append(
            TouchDelivery(
                timestamp: now, touch: id, phase: phase, kind: kind, responder: ObjectIdentifier(responder),
                responderName: responder.debugName, reason: reason))
    }
}
