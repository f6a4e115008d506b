/// Recognizes a gesture from the touches of one view and its subviews, and runs actions as it
/// changes state (`UIGestureRecognizer`).
///
/// Attach it with `View.addGestureRecognizer(_:)`. When a touch begins, the enabled
/// recognizers of its hit view and of each ancestor (the hit view's first, each view's in array
/// order) receive it for its whole life, before any view receives it (SEMANTICS 9 G2, G3). The
/// application's arbitration decides which recognizer wins a touch, what the views get
/// (`cancelsTouchesInView`, `delaysTouchesBegan`, `delaysTouchesEnded`) and when each recognizer
/// is reset.
///
/// **Custom recognizers** subclass this class, override `touchesBegan/Moved/Ended/Cancelled`
/// and `reset()`, and drive the state machine by setting `state`:
/// discrete gestures go `.possible` → `.ended` (`.recognized`) or `.failed`; continuous ones
/// `.possible` → `.began` → `.changed`* → `.ended` or `.cancelled`, or `.possible` → `.failed`.
/// A transition outside those is ignored and logged. A recognizer that may not begin yet (it
/// waits for another's failure, G12) stays `.possible` when set to `.began` or `.ended`, and
/// takes that state when the other fails.
///
/// The core declares the class (a view's open `gestureRecognizerShouldBegin(_:)` names it) and
/// its override points; the recognizer's state, settings and touches are HitTestInput's record of
/// it (`arbiter`), and the properties and methods reading them are declared there.
open class GestureRecognizer {
    /// The states of a recognizer (`UIGestureRecognizer.State`).
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// No gesture yet (the initial state, and the state after `reset()`).
        case possible
        /// A continuous gesture began.
        case began
        /// A continuous gesture changed.
        case changed
        /// The gesture ended; for a discrete gesture, it was recognized.
        case ended
        /// A continuous gesture was cancelled.
        case cancelled
        /// The gesture cannot be recognized with these touches.
        case failed

        /// A discrete gesture was recognized: the same state as `.ended`.
        public static let recognized: State = .ended

        /// The case name (`possible`, `began`, …), as the delivery log prints it.
        public var description: String {
            switch self {
            case .possible: "possible"
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .failed: "failed"
            }
        }

        /// Whether a recognizer may go from `self` to `next` (SEMANTICS G4). `changed` may
        /// repeat; `possible` is reached only by a reset.
        public func canTransition(to next: State) -> Bool {
            switch (self, next) {
            case (.possible, .began), (.possible, .ended), (.possible, .failed): true
            case (.began, .changed), (.began, .ended), (.began, .cancelled): true
            case (.changed, .changed), (.changed, .ended), (.changed, .cancelled): true
            default: false
            }
        }
    }

    /// Creates a recognizer, with `action` as its first action if given.
    public init(action: ((GestureRecognizer) -> Void)? = nil) {
        if let action { actions = [action] }
    }

    // MARK: - What the core keeps

    /// The actions, in the order added (`addAction(_:)`).
    final var actions: [(GestureRecognizer) -> Void] = []

    /// HitTestInput's record of the recognizer (its state, settings, view, touches and place in
    /// the arbitration between recognizers), made the first time the input layer needs it; nil
    /// for a recognizer it never saw.
    package var arbiter: (any GestureArbiter)? {
        get { storedArbiter }
        set { storedArbiter = newValue }
    }
    /// `arbiter`'s storage (internal, so that the optimizer sees every access; see
    /// Core/Storage.swift, "Fields of the public classes").
    final var storedArbiter: (any GestureArbiter)?

    /// Adds an action: it runs, with the recognizer, each time the state becomes `.began`,
    /// `.changed`, `.ended` or `.cancelled` (never on `.failed`), in the order added.
    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) {
        editTakenOut(self, \.actions) { $0.append(action) }
    }

    /// The number of actions (the log numbers them).
    package final var actionCount: Int { actions.count }

    /// Runs the actions in order, with the recognizer (an action added by an action runs too).
    package final func runActions() {
        var i = 0
        while i < actions.count {
            actions[i](self)
            i += 1
        }
    }

    // MARK: - The log's name

    /// The name the delivery log uses: `name`, else the type's name without
    /// `GestureRecognizer` and the index in its view's recognizers (`Tap#0`, `Pan#1`).
    open var debugName: String {
        if let cachedDebugName { return cachedDebugName }
        let computed = computeDebugName()
        cachedDebugName = computed
        return computed
    }

    /// `debugName`, kept until the name, the view or its list of recognizers changes.
    package final var cachedDebugName: String? {
        didSet { if cachedDebugName == nil, !logTexts.isEmpty { logTexts = [] } }
    }

    /// The delivery log's texts for this recognizer (`Name from → to`, `Name state`), built
    /// once each by HitTestInput; emptied when `debugName` changes.
    final var logTexts: [String?] = []

    /// The delivery log's text number `i` for this recognizer, made by `make` the first time.
    package final func logText(_ i: Int, _ make: () -> String) -> String {
        if logTexts.isEmpty { logTexts = Array(repeating: nil, count: 44) }
        if let text = logTexts[i] { return text }
        let text = make()
        editTakenOut(self, \.logTexts) { $0[i] = text }
        return text
    }

    private func computeDebugName() -> String {
        if let name = arbiter?.name { return name }
        var type = String(describing: Swift.type(of: self))
        if type.hasSuffix("GestureRecognizer"), type.count > "GestureRecognizer".count {
            type.removeLast("GestureRecognizer".count)
        }
        let index = arbiter?.indexInView(of: self) ?? -1
        return index >= 0 ? "\(type)#\(index)" : type
    }

    // MARK: - Override points

    /// Touches began (G3: before any view gets them). The default does nothing.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event) {}
    /// Touches moved. The default does nothing.
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) {}
    /// Touches ended. The default does nothing.
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) {}
    /// Touches were cancelled. The default fails a possible recognizer and cancels one that
    /// has begun.
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        // A recognizer that received touches has its record (the input layer made it then).
        guard let arbiter else { return }
        switch arbiter.state {
        case .possible: arbiter.request(self, .failed)
        case .began, .changed: arbiter.request(self, .cancelled)
        default: break
        }
    }

    /// Called when the recognizer goes back to `.possible` after a gesture (G5); override to
    /// clear your own state and call `super`. The default does nothing.
    open func reset() {}

    /// Whether this recognizer, recognizing, may make `other` fail (G9). Default true.
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
    /// Whether `other`, recognizing, may make this recognizer fail (G9). Default true.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
}

/// What a recognizer's delegate may decide (`UIGestureRecognizerDelegate`). Every method has a
/// default (in an extension): implement only what you need.
public protocol GestureRecognizerDelegate: AnyObject {
    /// Whether `g` may leave `.possible` (G10). Default true.
    func gestureRecognizerShouldBegin(_ g: GestureRecognizer) -> Bool
    /// Whether `g` receives `touch` (asked once, when the touch begins: G2). Default true.
    func gestureRecognizer(_ g: GestureRecognizer, shouldReceive touch: Touch) -> Bool
    /// Whether `g` and `other` may both recognize (G9). Default false.
    func gestureRecognizer(_ g: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool
    /// Whether `g` waits for `other` to fail (G12). Default false.
    func gestureRecognizer(_ g: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// Whether `other` waits for `g` to fail (G12). Default false.
    func gestureRecognizer(_ g: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
    /// Default: true.
    public func gestureRecognizerShouldBegin(_ g: GestureRecognizer) -> Bool { true }
    /// Default: true.
    public func gestureRecognizer(_ g: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
    /// Default: false.
    public func gestureRecognizer(_ g: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        false
    }
    /// Default: false.
    public func gestureRecognizer(_ g: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }
    /// Default: false.
    public func gestureRecognizer(_ g: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}
