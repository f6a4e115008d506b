import HitTestCore

/// Screen-space helpers shared by the recognizers.
extension GestureRecognizer {
    /// Appends where `touches` are now, in identifier order.
    static func appendStarts(_ touches: Set<Touch>, to starts: inout [(touch: Touch, point: Point)]) {
        if touches.count == 1, let t = touches.first {
            starts.append((t, t.screenLocation))
            return
        }
        for t in touches.sorted(by: { $0.identifier < $1.identifier }) { starts.append((t, t.screenLocation)) }
    }

    static func distance(_ a: Point, _ b: Point) -> Double {
        let dx = a.x - b.x
        let dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The recognizer's touches that are still down (not ending in this step).
    var touchesDown: [Touch] { tracking?.touchesDown ?? [] }

    /// A vector in screen space expressed in `view`'s bounds space (nil: the window's).
    func vector(_ v: Point, in view: View?) -> Point {
        GestureRecognizer.vector(v, in: view, base: centroidOnScreen(), window: touchWindow)
    }

    /// `vector(_:in:)` from the centroid `base` of touches in `window`.
    static func vector(_ v: Point, in view: View?, base: Point, window: Window?) -> Point {
        let a = Touch.convert(base, window: window, to: view)
        let b = Touch.convert(Point(x: base.x + v.x, y: base.y + v.y), window: window, to: view)
        return Point(x: b.x - a.x, y: b.y - a.y)
    }

    /// A vector in `view`'s bounds space (nil: the window's) expressed in screen space.
    func screenVector(_ v: Point, from view: View?) -> Point {
        GestureRecognizer.screenVector(v, from: view, window: touchWindow)
    }

    /// `screenVector(_:from:)` for touches in `window`.
    static func screenVector(_ v: Point, from view: View?, window: Window?) -> Point {
        guard let window else { return v }
        func toScreen(_ p: Point) -> Point {
            let inWindow = view.map { $0.convert(p, to: window) } ?? p
            return window.toSuperview(inWindow)
        }
        let a = toScreen(Point(x: 0, y: 0))
        let b = toScreen(v)
        return Point(x: b.x - a.x, y: b.y - a.y)
    }
}

/// Recognizes taps: `numberOfTapsRequired` taps, each with `numberOfTouchesRequired` fingers
/// (`UITapGestureRecognizer`). Discrete (SEMANTICS G13): recognized at the lift of the last
/// required tap; fails if a finger moves more than `allowableMovement` from where it went
/// down, if more fingers come down than required, if a tap's fingers were fewer than required,
/// or if the next tap does not begin within `maximumTapInterval` of the last lift (a tap that
/// begins exactly then is too late).
///
/// A tap never prevents a tap that needs more taps (`canPrevent(_:)`), so a single and a
/// double tap on one view both fire on a double tap unless the single one `require(toFail:)`s
/// the double.
open class TapGestureRecognizer: GestureRecognizer, RecordKeeping {
    /// The stored fields of this class, in one record: read and written in place through
    /// `tapFields`, an internal field the optimizer proves free of overlapping accesses (no
    /// exclusivity check; HitTestInput/Storage.swift, scripts/exclusivity.sh).
    struct TapFields {
        var numberOfTapsRequired: Int = 1
        var numberOfTouchesRequired: Int = 1
        var allowableMovement: Double = TapGestureRecognizer.defaultAllowableMovement
        var maximumTapInterval: Double = TapGestureRecognizer.defaultMaximumTapInterval
        var starts: [(touch: Touch, point: Point)] = []
        var fingersDown = 0
        var fingersThisTap = 0
        var tapsDone = 0
    }
    final var tapFields = TapFields()

    /// The record's cache (`RecordKeeping.record` reads and fills it).
    final var knownRecord: GestureTracking?

    /// The default `allowableMovement`: 10 pt. [ours]
    public static let defaultAllowableMovement = 10.0
    /// The default `maximumTapInterval`: 0.35 s. [ours]
    public static let defaultMaximumTapInterval = 0.35

    /// Taps needed (default 1).
    public var numberOfTapsRequired: Int {
        get { tapFields.numberOfTapsRequired }
        set { tapFields.numberOfTapsRequired = Setting.count(newValue, atLeast: 1, "TapGestureRecognizer.numberOfTapsRequired") }
    }
    /// Fingers per tap (default 1).
    public var numberOfTouchesRequired: Int {
        get { tapFields.numberOfTouchesRequired }
        set { tapFields.numberOfTouchesRequired = Setting.count(newValue, atLeast: 1, "TapGestureRecognizer.numberOfTouchesRequired") }
    }
    /// How far (pt, screen) a finger may move from where it went down before the tap fails.
    public var allowableMovement: Double {
        get { tapFields.allowableMovement }
        set { tapFields.allowableMovement = Setting.nonNegative(newValue, "distance", "TapGestureRecognizer.allowableMovement") }
    }
    /// The longest wait (s) from a lift to the next tap's touch-down.
    public var maximumTapInterval: Double {
        get { tapFields.maximumTapInterval }
        set { tapFields.maximumTapInterval = Setting.finiteNonNegative(newValue, "time", "TapGestureRecognizer.maximumTapInterval") }
    }


    /// Counts the fingers of the tap; too many fail it.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible, tapFields.tapsDone < numberOfTapsRequired else { return }
        cancelScheduledDeadlines()
        editTakenOut(self, \.tapFields.starts) { GestureRecognizer.appendStarts(touches, to: &$0) }
        tapFields.fingersDown += touches.count
        tapFields.fingersThisTap = max(tapFields.fingersThisTap, tapFields.fingersDown)
        if tapFields.fingersDown > numberOfTouchesRequired { record.request(self, .failed) }
    }

    /// A finger that moved too far fails the tap.
    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible else { return }
        if movedTooFar(touches) { record.request(self, .failed) }
    }

    /// At the lift of the tap's last finger: one more tap; recognized at the last required one,
    /// else wait `maximumTapInterval` for the next.
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible, tapFields.tapsDone < numberOfTapsRequired else { return }
        if movedTooFar(touches) {
            record.request(self, .failed)
            return
        }
        tapFields.fingersDown -= touches.count
        guard tapFields.fingersDown <= 0 else { return }
        tapFields.fingersDown = 0
        if tapFields.fingersThisTap != numberOfTouchesRequired {
            record.request(self, .failed)
            return
        }
        tapFields.tapsDone += 1
        tapFields.fingersThisTap = 0
        tapFields.starts.removeAll()
        if tapFields.tapsDone >= numberOfTapsRequired {
            record.request(self, .recognized)
        } else {
            schedule(at: event.timestamp + maximumTapInterval) { g in
                if g.state == .possible { g.state = .failed }
            }
        }
    }

    /// Clears the taps counted.
    open override func reset() {
        super.reset()
        tapFields.starts.removeAll()
        tapFields.fingersDown = 0
        tapFields.fingersThisTap = 0
        tapFields.tapsDone = 0
    }

    /// A tap never prevents a tap that requires more taps (G9).
    open override func canPrevent(_ other: GestureRecognizer) -> Bool {
        if let tap = other as? TapGestureRecognizer, tap.numberOfTapsRequired > numberOfTapsRequired { return false }
        return super.canPrevent(other)
    }

    private func movedTooFar(_ touches: Set<Touch>) -> Bool {
        for t in touches {
            if let s = tapFields.starts.first(where: { $0.touch === t }),
                GestureRecognizer.distance(s.point, t.screenLocation) > allowableMovement
            {
                return true
            }
        }
        return false
    }
}

/// Recognizes a press held still (`UILongPressGestureRecognizer`). Continuous (SEMANTICS
/// G14): began when `minimumPressDuration` passes with `numberOfTouchesRequired` fingers down
/// within `allowableMovement` of where they went down; changed on each later move (no limit
/// then); ended at the first lift. A lift or a move too far before it began fails it. With
/// `numberOfTapsRequired` n > 0, n quick taps (each lifting within the press duration, the next
/// beginning within `maximumTapInterval`) come first, and the press is the next touch. [ours
/// for the taps' timing]
open class LongPressGestureRecognizer: GestureRecognizer, RecordKeeping {
    /// The stored fields of this class, in one record: read and written in place through
    /// `pressFields`, an internal field the optimizer proves free of overlapping accesses (no
    /// exclusivity check; HitTestInput/Storage.swift, scripts/exclusivity.sh).
    struct LongPressFields {
        var minimumPressDuration: Double = 0.5
        var allowableMovement: Double = 10.0
        var numberOfTapsRequired: Int = 0
        var numberOfTouchesRequired: Int = 1
        var maximumTapInterval: Double = TapGestureRecognizer.defaultMaximumTapInterval
        var starts: [(touch: Touch, point: Point)] = []
        var fingersDown = 0
        var tapsDone = 0
    }
    final var pressFields = LongPressFields()

    /// The record's cache (`RecordKeeping.record` reads and fills it).
    final var knownRecord: GestureTracking?

    /// How long (s) the fingers must stay down (default 0.5).
    public var minimumPressDuration: Double {
        get { pressFields.minimumPressDuration }
        set { pressFields.minimumPressDuration = Setting.finiteNonNegative(newValue, "time", "LongPressGestureRecognizer.minimumPressDuration") }
    }
    /// How far (pt, screen) a finger may move before the press began (default 10).
    public var allowableMovement: Double {
        get { pressFields.allowableMovement }
        set { pressFields.allowableMovement = Setting.nonNegative(newValue, "distance", "LongPressGestureRecognizer.allowableMovement") }
    }
    /// Taps before the press (default 0).
    public var numberOfTapsRequired: Int {
        get { pressFields.numberOfTapsRequired }
        set { pressFields.numberOfTapsRequired = Setting.count(newValue, atLeast: 0, "LongPressGestureRecognizer.numberOfTapsRequired") }
    }
    /// Fingers (default 1).
    public var numberOfTouchesRequired: Int {
        get { pressFields.numberOfTouchesRequired }
        set { pressFields.numberOfTouchesRequired = Setting.count(newValue, atLeast: 1, "LongPressGestureRecognizer.numberOfTouchesRequired") }
    }
    /// The longest wait (s) between the taps before the press (default 0.35). [ours]
    public var maximumTapInterval: Double {
        get { pressFields.maximumTapInterval }
        set { pressFields.maximumTapInterval = Setting.finiteNonNegative(newValue, "time", "LongPressGestureRecognizer.maximumTapInterval") }
    }


    /// Starts the press timer once the required fingers are down.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible else { return }
        cancelScheduledDeadlines()
        editTakenOut(self, \.pressFields.starts) { GestureRecognizer.appendStarts(touches, to: &$0) }
        pressFields.fingersDown += touches.count
        if pressFields.fingersDown > numberOfTouchesRequired {
            record.request(self, .failed)
            return
        }
        if pressFields.fingersDown == numberOfTouchesRequired {
            schedule(at: event.timestamp + minimumPressDuration) { g in
                guard let lp = g as? LongPressGestureRecognizer, lp.state == .possible,
                    lp.pressFields.fingersDown == lp.numberOfTouchesRequired, lp.pressFields.tapsDone >= lp.numberOfTapsRequired
                else { return }
                lp.state = .began
            }
        }
    }

    /// Before it began: a move too far fails it. After: changed.
    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        switch record.state {
        case .possible:
            for t in touches {
                if let s = pressFields.starts.first(where: { $0.touch === t }),
                    GestureRecognizer.distance(s.point, t.screenLocation) > allowableMovement
                {
                    record.request(self, .failed)
                    return
                }
            }
        case .began, .changed:
            record.request(self, .changed)
        default: break
        }
    }

    /// The lift ends a press that began; before then it fails it (or counts a tap).
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        switch record.state {
        case .began, .changed:
            record.request(self, .ended)
        case .possible:
            pressFields.fingersDown -= touches.count
            if pressFields.tapsDone < numberOfTapsRequired {
                guard pressFields.fingersDown <= 0 else { return }
                pressFields.fingersDown = 0
                cancelScheduledDeadlines()
                pressFields.tapsDone += 1
                pressFields.starts.removeAll()
                schedule(at: event.timestamp + maximumTapInterval) { g in
                    if g.state == .possible { g.state = .failed }
                }
            } else {
                record.request(self, .failed)
            }
        default: break
        }
    }

    /// Clears the press.
    open override func reset() {
        super.reset()
        pressFields.starts.removeAll()
        pressFields.fingersDown = 0
        pressFields.tapsDone = 0
    }
}

/// Recognizes a swipe (`UISwipeGestureRecognizer`). Discrete (SEMANTICS G16), decided at the
/// lift of the last finger: the fingers' mean displacement is at least `minimumDistance`
/// along one axis with the other axis under half of it, within `maximumDuration` of the first
/// touch-down, with `numberOfTouchesRequired` fingers, in one of `direction`'s directions →
/// recognized; else failed. Directions are in screen coordinates. [ours for the numbers]
open class SwipeGestureRecognizer: GestureRecognizer, RecordKeeping {
    /// The stored fields of this class, in one record: read and written in place through
    /// `swipeFields`, an internal field the optimizer proves free of overlapping accesses (no
    /// exclusivity check; HitTestInput/Storage.swift, scripts/exclusivity.sh).
    struct SwipeFields {
        var direction: Direction = .right
        var numberOfTouchesRequired: Int = 1
        var minimumDistance: Double = 50.0
        var maximumDuration: Double = 0.5
        var starts: [(touch: Touch, point: Point)] = []
        var startTime = 0.0
        var fingersDown = 0
        var fingersMax = 0
    }
    final var swipeFields = SwipeFields()

    /// The record's cache (`RecordKeeping.record` reads and fills it).
    final var knownRecord: GestureTracking?

    /// Swipe directions (`UISwipeGestureRecognizer.Direction`).
    public struct Direction: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt
        /// Creates a set from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Towards +x.
        public static let right = Direction(rawValue: 1 << 0)
        /// Towards −x.
        public static let left = Direction(rawValue: 1 << 1)
        /// Towards −y.
        public static let up = Direction(rawValue: 1 << 2)
        /// Towards +y.
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// The directions recognized (default `.right`).
    public var direction: Direction {
        get { swipeFields.direction }
        set { swipeFields.direction = newValue }
    }
    /// Fingers (default 1).
    public var numberOfTouchesRequired: Int {
        get { swipeFields.numberOfTouchesRequired }
        set { swipeFields.numberOfTouchesRequired = Setting.count(newValue, atLeast: 1, "SwipeGestureRecognizer.numberOfTouchesRequired") }
    }
    /// The shortest displacement (pt) along the swipe's axis (default 50). [ours]
    public var minimumDistance: Double {
        get { swipeFields.minimumDistance }
        set { swipeFields.minimumDistance = Setting.finiteNonNegative(newValue, "distance", "SwipeGestureRecognizer.minimumDistance") }
    }
    /// The longest time (s) from touch-down to lift (default 0.5). [ours]
    public var maximumDuration: Double {
        get { swipeFields.maximumDuration }
        set { swipeFields.maximumDuration = Setting.nonNegative(newValue, "time", "SwipeGestureRecognizer.maximumDuration") }
    }


    /// Notes where and when the fingers went down.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible else { return }
        if swipeFields.starts.isEmpty { swipeFields.startTime = event.timestamp }
        editTakenOut(self, \.swipeFields.starts) { GestureRecognizer.appendStarts(touches, to: &$0) }
        swipeFields.fingersDown += touches.count
        swipeFields.fingersMax = max(swipeFields.fingersMax, swipeFields.fingersDown)
        if swipeFields.fingersDown > numberOfTouchesRequired { record.request(self, .failed) }
    }

    /// Decides at the last lift.
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard record.state == .possible else { return }
        swipeFields.fingersDown -= touches.count
        guard swipeFields.fingersDown <= 0 else { return }
        record.request(self, recognizedDirection(at: event.timestamp) != nil ? .recognized : .failed)
    }

    private func recognizedDirection(at time: Double) -> Direction? {
        guard swipeFields.fingersMax == numberOfTouchesRequired, time - swipeFields.startTime <= maximumDuration, !swipeFields.starts.isEmpty else { return nil }
        var dx = 0.0
        var dy = 0.0
        for s in swipeFields.starts {
            dx += s.touch.screenLocation.x - s.point.x
            dy += s.touch.screenLocation.y - s.point.y
        }
        dx /= Double(swipeFields.starts.count)
        dy /= Double(swipeFields.starts.count)
        let found: Direction
        if abs(dx) >= minimumDistance, abs(dy) < abs(dx) / 2 {
            found = dx > 0 ? .right : .left
        } else if abs(dy) >= minimumDistance, abs(dx) < abs(dy) / 2 {
            found = dy > 0 ? .down : .up
        } else {
            return nil
        }
        return direction.contains(found) ? found : nil
    }

    /// Clears the swipe.
    open override func reset() {
        super.reset()
        swipeFields.starts.removeAll()
        swipeFields.fingersDown = 0
        swipeFields.fingersMax = 0
    }
}
