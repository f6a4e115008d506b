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

        /// 0 ..< 6, in declaration order.
        package var ordinal: Int {
            switch self {
            case .possible: 0
            case .began: 1
            case .changed: 2
            case .ended: 3
            case .cancelled: 4
            case .failed: 5
            }
        }

        /// Ended, cancelled or failed: the recognizer waits for its touches to end, then resets.
        package var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }

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

    // MARK: - Public state

    /// Creates a recognizer, with `action` as its first action if given.
    public init(action: ((GestureRecognizer) -> Void)? = nil) {
        if let action { actions.append(action) }
    }

    /// Adds an action: it runs, with the recognizer, each time the state becomes `.began`,
    /// `.changed`, `.ended` or `.cancelled` (never on `.failed`), in the order added.
    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) {
        actions.append(action)
    }

    /// The current state. Subclasses (custom recognizers) set it from their touch methods or
    /// deadlines to drive the state machine; an illegal transition is ignored and logged, and
    /// leaving `.possible` goes through the arbitration (G9, G10, G12): the state read back may
    /// be `.possible` (waiting for another recognizer to fail) or `.failed` (prevented, or a
    /// `gestureRecognizerShouldBegin` said no).
    public var state: State {
        @inlinable get { currentState }
        set {
            if let arbiter {
                arbiter.request(self, newValue)
            } else {
                setStandalone(newValue)
            }
        }
    }

    /// The view the recognizer is attached to (`addGestureRecognizer(_:)`), or nil.
    /// (Unretained, not `weak`, for speed: cleared when it is removed and when the view
    /// dies, so it never dangles.)
    public package(set) var view: View? {
        get { viewReference.object }
        set {
            viewReference = Unretained(newValue)
            cachedDebugName = nil
        }
    }
    /// `view`, unretained (Core/Storage.swift): `isLive` tests it
    /// without a retain. HitTestInput sets it when it attaches the recognizer and clears it
    /// when it detaches it or the view dies (HitTestInput/Storage.swift).
    @exclusivity(unchecked) final var viewReference = Unretained<View>(nil)

    /// A disabled recognizer receives no touches; disabling one that has begun cancels it
    /// (and one that is possible in the middle of a gesture fails it) (G11). Default true.
    public var isEnabled: Bool {
        @inlinable get { storedIsEnabled }
        set {
            let oldValue = storedIsEnabled
            storedIsEnabled = newValue
            guard oldValue, !storedIsEnabled else { return }
            abandon()
        }
    }
    @exclusivity(unchecked) @usableFromInline final var storedIsEnabled: Bool = true

    /// When the recognizer recognizes, its touches are cancelled in their views (G6). Default true.
    public var cancelsTouchesInView: Bool {
        @inlinable get { storedCancelsTouchesInView }
        set { storedCancelsTouchesInView = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedCancelsTouchesInView: Bool = true
    /// While the recognizer may still recognize, its touches' phases are held from their views
    /// (G7). Default false.
    public var delaysTouchesBegan: Bool {
        @inlinable get { storedDelaysTouchesBegan }
        set { storedDelaysTouchesBegan = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedDelaysTouchesBegan: Bool = false
    /// While the recognizer may still recognize, a touch's `ended` is held from its view (G8).
    /// Default true.
    public var delaysTouchesEnded: Bool {
        @inlinable get { storedDelaysTouchesEnded }
        set { storedDelaysTouchesEnded = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final var storedDelaysTouchesEnded: Bool = true

    /// The delegate (every method optional).
    public var delegate: GestureRecognizerDelegate? {
        @inlinable get { storedDelegate }
        set { storedDelegate = newValue }
    }
    @exclusivity(unchecked) @usableFromInline final weak var storedDelegate: GestureRecognizerDelegate?

    /// A name for the delivery log; nil: the type's short name and the index in its view's
    /// recognizers (`Tap#0`).
    public var name: String? {
        get { storedName }
        set {
            storedName = newValue
            cachedDebugName = nil
        }
    }
    @exclusivity(unchecked) final var storedName: String?

    /// Makes this recognizer wait for `other` to fail before it recognizes (G12): while `other`
    /// is possible and tracking touches, recognizing leaves this one `.possible`; it recognizes
    /// when `other` fails and fails when `other` recognizes. Held weakly.
    public func require(toFail other: GestureRecognizer) {
        guard other !== self, !failureRequirements.contains(where: { $0.recognizer === other }) else { return }
        failureRequirements.append(WeakRecognizer(other))
    }

    /// The name the delivery log uses: `name`, else the type's name without
    /// `GestureRecognizer` and the index in its view's recognizers (`Tap#0`, `Pan#1`).
    open var debugName: String {
        if let cachedDebugName { return cachedDebugName }
        let computed = computeDebugName()
        cachedDebugName = computed
        return computed
    }

    /// `debugName`, kept until the name, the view or its list of recognizers changes.
    @exclusivity(unchecked) package var cachedDebugName: String? {
        didSet { if cachedDebugName == nil, !logTexts.isEmpty { logTexts.removeAll() } }
    }

    /// The delivery log's texts for this recognizer (`Name from → to`, `Name state`), built
    /// once each by HitTestInput; emptied when `debugName` changes.
    @exclusivity(unchecked) final var logTexts: [String?] = []

    /// The delivery log's text number `i` for this recognizer, made by `make` the first time.
    package final func logText(_ i: Int, _ make: () -> String) -> String {
        if logTexts.isEmpty { logTexts = Array(repeating: nil, count: 44) }
        if let text = logTexts[i] { return text }
        let text = make()
        logTexts[i] = text
        return text
    }

    private func computeDebugName() -> String {
        if let name { return name }
        var type = String(describing: Swift.type(of: self))
        if type.hasSuffix("GestureRecognizer"), type.count > "GestureRecognizer".count {
            type.removeLast("GestureRecognizer".count)
        }
        let index = view?.inputAttachment?.index(of: self) ?? -1
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
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = .cancelled
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

    // MARK: - Per-recognizer state

    @exclusivity(unchecked) @usableFromInline final var currentState: State = .possible
    /// The state, set without the arbitration (the engine's own transitions and resets).
    package final var storedState: State {
        get { currentState }
        set { currentState = newValue }
    }
    @exclusivity(unchecked) package final var actions: [(GestureRecognizer) -> Void] = []
    @exclusivity(unchecked) package final var failureRequirements: [WeakRecognizer] = []
    /// The input layer's record of the recognizer (HitTestInput's gesture tracking: its touches,
    /// deadlines and place in the arbitration), set when the recognizer first receives a touch
    /// from an application; state changes go through it. Nil for a recognizer driven by hand.
    @exclusivity(unchecked) package var arbiter: (any GestureArbiter)?

    /// Attached to a view and enabled.
    package final var isLive: Bool { isEnabled && !viewReference.isNil }
    /// The recognizer has actions.
    package final var hasActions: Bool { !actions.isEmpty }

    /// Disabled or removed: cancel a gesture that began, fail one in progress (G11).
    package final func abandon() {
        if let arbiter {
            arbiter.abandon(self)
        } else if currentState == .began || currentState == .changed {
            state = .cancelled
        }
    }

    /// A state change with no application (a recognizer driven by hand, or one whose
    /// application is gone): legal transitions only; actions run.
    package final func setStandalone(_ newValue: State) {
        guard currentState.canTransition(to: newValue) else { return }
        currentState = newValue
        if newValue != .failed, newValue != .possible { runActions() }
    }

    package final func runActions() {
        var i = 0
        while i < actions.count {
            actions[i](self)
            i += 1
        }
    }
}

/// A weak reference to a recognizer (`require(toFail:)` does not keep the other alive).
package struct WeakRecognizer {
    package weak var recognizer: GestureRecognizer?
    package init(_ recognizer: GestureRecognizer) { self.recognizer = recognizer }
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
