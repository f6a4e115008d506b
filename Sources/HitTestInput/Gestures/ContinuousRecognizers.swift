import HitTestCore

import Foundation

/// Recognizes a drag (`UIPanGestureRecognizer`). Continuous (SEMANTICS G15): began at the move
/// that takes the centroid of its fingers `hysteresis` (10 pt) or more from where it went down,
/// with at least `minimumNumberOfTouches` fingers; changed on each later move; ended when all
/// fingers lift. A lift before it began fails it. Fingers beyond `maximumNumberOfTouches` are
/// not counted; a finger that comes down or lifts mid-drag rebases the centroid so that the
/// translation does not jump. [ours]
///
/// `translation(in:)` is measured from the touch-down centroid until `setTranslation(_:in:)`
/// rebases it. `velocity(in:)` is the last step's displacement over its time (pt/s); a step at
/// the same time as the previous one adds its displacement to the next. A lift at the last
/// move's place keeps that velocity if it comes within `restingInterval` of the last move, else
/// the velocity is zero (the finger rested). [ours]
open class PanGestureRecognizer: GestureRecognizer, RecordKeeping {
    /// The stored fields of this class, in one record, read and written in place through
    /// `panFields` (internal, and never accessed across a call that could touch it, so the
    /// optimizer drops its exclusivity checks: see HitTestInput/Storage.swift).
    struct PanFields {
        var minimumNumberOfTouches: Int = 1
        var maximumNumberOfTouches: Int = Int.max
        var hysteresis: Double = PanGestureRecognizer.defaultHysteresis
        var restingInterval: Double = PanGestureRecognizer.defaultRestingInterval
        /// Where translation is measured from (screen).
        var origin: Point?
        /// The centroid at the last step with a new time, and that time.
        var lastPoint = Point(x: 0, y: 0)
        var lastTime = 0.0
        var lastMoveTime = 0.0
        var velocityOnScreen = Point(x: 0, y: 0)
        var translationOnScreen = Point(x: 0, y: 0)
    }
    final var panFields = PanFields()

    /// The default `hysteresis`: 10 pt. [ours]
    public static let defaultHysteresis = 10.0
    /// The default `restingInterval`: 0.05 s. [ours]
    public static let defaultRestingInterval = 0.05

    /// Fingers needed to begin (default 1).
    public var minimumNumberOfTouches: Int {
        get { panFields.minimumNumberOfTouches }
        set { panFields.minimumNumberOfTouches = Setting.count(newValue, atLeast: 1, "PanGestureRecognizer.minimumNumberOfTouches") }
    }
    /// Fingers counted at most (default `Int.max`).
    public var maximumNumberOfTouches: Int {
        get { panFields.maximumNumberOfTouches }
        set { panFields.maximumNumberOfTouches = Setting.count(newValue, atLeast: 1, "PanGestureRecognizer.maximumNumberOfTouches") }
    }
    /// How far (pt, screen) the centroid must move before the pan begins.
    public var hysteresis: Double {
        get { panFields.hysteresis }
        set { panFields.hysteresis = Setting.finiteNonNegative(newValue, "distance", "PanGestureRecognizer.hysteresis") }
    }
    /// How long (s) a finger may rest before lifting and still keep its velocity.
    public var restingInterval: Double {
        get { panFields.restingInterval }
        set { panFields.restingInterval = Setting.finiteNonNegative(newValue, "time", "PanGestureRecognizer.restingInterval") }
    }


    /// The record's cache (`RecordKeeping.record` reads and fills it).
    final var knownRecord: GestureTracking?

    /// The translation of the fingers' centroid since touch-down (or the last
    /// `setTranslation`), in `view`'s coordinate system (nil: the window's).
    public func translation(in view: View?) -> Point {
        let record = self.record
        return GestureRecognizer.vector(
            currentTranslation(), in: view, base: record.centroidOnScreen(), window: record.touchWindow)
    }

    /// Sets the translation (in `view`'s coordinate system) to `translation`: later
    /// translations are measured from here.
    public func setTranslation(_ translation: Point, in view: View?) {
        let v = GestureRecognizer.screenVector(translation, from: view, window: record.touchWindow)
        let c = centroid() ?? panFields.lastPoint
        panFields.origin = Point(x: c.x - v.x, y: c.y - v.y)
        panFields.translationOnScreen = v
    }

    /// The velocity of the centroid (pt/s) in `view`'s coordinate system (nil: the window's).
    public func velocity(in view: View?) -> Point {
        let record = self.record
        return GestureRecognizer.vector(
            panFields.velocityOnScreen, in: view, base: record.centroidOnScreen(), window: record.touchWindow)
    }

    private func counted() -> ArraySlice<Touch> {
        let down = record.touchesDown
        return down.prefix(maximumNumberOfTouches)
    }

    /// The number of fingers counted (down, at most `maximumNumberOfTouches`).
    private func countedCount() -> Int {
        var n = 0
        // Through the buffer, unretained: the touches are read, not kept (the list holds them).
        let maximum = maximumNumberOfTouches
        record.activeTouches.withUnsafeBufferPointer { touches in
            for k in touches.indices {
                let counts = withBorrowed(touches[k]) { $0.phase != .ended && $0.phase != .cancelled }
                guard counts else { continue }
                n += 1
                if n == maximum { break }
            }
        }
        return n
    }

    /// The centroid of the counted fingers, without building a list.
    private func centroid() -> Point? {
        var x = 0.0
        var y = 0.0
        var n = 0
        // Through the buffer, unretained: the touches are read, not kept (the list holds them).
        let maximum = maximumNumberOfTouches
        record.activeTouches.withUnsafeBufferPointer { touches in
            for k in touches.indices {
                let counted = withBorrowed(touches[k]) { t -> Bool in
                    guard t.phase != .ended && t.phase != .cancelled else { return false }
                    x += t.screenLocation.x
                    y += t.screenLocation.y
                    return true
                }
                guard counted else { continue }
                n += 1
                if n == maximum { break }
            }
        }
        return n == 0 ? nil : Point(x: x / Double(n), y: y / Double(n))
    }

    private func currentTranslation() -> Point {
        guard let origin = panFields.origin, let c = centroid() else { return panFields.translationOnScreen }
        return Point(x: c.x - origin.x, y: c.y - origin.y)
    }

    /// The first fingers set the origin; later ones rebase it.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard let c = centroid() else { return }
        if panFields.origin == nil {
            panFields.origin = c
            panFields.lastPoint = c
            panFields.lastTime = event.timestamp
            panFields.lastMoveTime = event.timestamp
            return
        }
        let old = counted().filter { !touches.contains($0) }
        rebase(from: GestureRecognizer.centroid(old[...]) ?? c, to: c)
    }

    /// Past the hysteresis: began; then changed.
    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let origin = panFields.origin, let c = centroid() else { return }
        track(c, at: event.timestamp)
        panFields.translationOnScreen = Point(x: c.x - origin.x, y: c.y - origin.y)
        switch record.state {
        case .possible:
            if countedCount() >= minimumNumberOfTouches,
                GestureRecognizer.distance(c, origin) >= hysteresis
            {
                record.request(self, .began)
            }
        case .began, .changed:
            record.request(self, .changed)
        default: break
        }
    }

    /// The last lift ends the pan (or fails it before it began); an earlier one rebases.
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        if let c = centroid() {
            // Fingers remain: the centroid jumps to theirs; keep the translation continuous.
            let all = record.activeTouches.prefix(maximumNumberOfTouches)
            rebase(from: GestureRecognizer.centroid(all) ?? c, to: c)
            return
        }
        // The lift: a last displacement counts as a step; a rest zeroes the velocity.
        if let origin = panFields.origin, let c = GestureRecognizer.centroid(record.activeTouches.prefix(maximumNumberOfTouches)) {
            if c != panFields.lastPoint {
                track(c, at: event.timestamp)
                panFields.translationOnScreen = Point(x: c.x - origin.x, y: c.y - origin.y)
            } else if event.timestamp - panFields.lastMoveTime > restingInterval {
                panFields.velocityOnScreen = Point(x: 0, y: 0)
            }
        }
        switch record.state {
        case .possible: record.request(self, .failed)
        case .began, .changed: record.request(self, .ended)
        default: break
        }
    }

    private func track(_ c: Point, at time: Double) {
        let dt = time - panFields.lastTime
        guard dt > 0 else { return }
        panFields.velocityOnScreen = Point(x: (c.x - panFields.lastPoint.x) / dt, y: (c.y - panFields.lastPoint.y) / dt)
        panFields.lastPoint = c
        panFields.lastTime = time
        panFields.lastMoveTime = time
    }

    private func rebase(from old: Point, to new: Point) {
        guard let o = panFields.origin else { return }
        panFields.origin = Point(x: o.x + new.x - old.x, y: o.y + new.y - old.y)
        panFields.lastPoint = Point(x: panFields.lastPoint.x + new.x - old.x, y: panFields.lastPoint.y + new.y - old.y)
    }

    /// Clears the drag: translation and velocity back to zero.
    open override func reset() {
        super.reset()
        panFields.origin = nil
        panFields.velocityOnScreen = Point(x: 0, y: 0)
        panFields.translationOnScreen = Point(x: 0, y: 0)
    }
}

/// Shared by pinch and rotation: two fingers, a value that starts at its identity when both
/// are down, a threshold to begin, a velocity per second.
open class TwoFingerGestureRecognizer: GestureRecognizer, RecordKeeping {
    /// The stored fields of this class, in one record, read and written in place through
    /// `twoFingerFields` (internal, and never accessed across a call that could touch it, so the
    /// optimizer drops its exclusivity checks: see HitTestInput/Storage.swift).
    struct TwoFingerFields {
        var hasStarted = false
        var lastValueTime = 0.0
    }
    final var twoFingerFields = TwoFingerFields()

    /// The record's cache (`RecordKeeping.record` reads and fills it).
    final var knownRecord: GestureTracking?

    var pair: (Touch, Touch)? {
        let down = record.touchesDown
        return down.count >= 2 ? (down[0], down[1]) : nil
    }

    /// The measure of the two fingers now (distance, angle).
    func measure(_ a: Point, _ b: Point) -> Double { 0 }
    /// The first measure with both fingers down.
    func start(_ m: Double) {}
    /// Updates the value from a new measure; returns whether it passes the threshold.
    func update(_ m: Double, dt: Double) -> Bool { false }

    /// Starts measuring once two fingers are down.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard !twoFingerFields.hasStarted, let (a, b) = pair else { return }
        twoFingerFields.hasStarted = true
        twoFingerFields.lastValueTime = event.timestamp
        start(measure(a.screenLocation, b.screenLocation))
    }

    /// Past the threshold: began; then changed.
    open override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard twoFingerFields.hasStarted, let (a, b) = pair else { return }
        let dt = event.timestamp - twoFingerFields.lastValueTime
        if dt > 0 { twoFingerFields.lastValueTime = event.timestamp }
        let past = update(measure(a.screenLocation, b.screenLocation), dt: dt)
        switch record.state {
        case .possible: if past { record.request(self, .began) }
        case .began, .changed: record.request(self, .changed)
        default: break
        }
    }

    /// Fewer than two fingers: ended (failed before it began). [ours]
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard pair == nil else { return }
        switch record.state {
        case .possible: record.request(self, .failed)
        case .began, .changed: record.request(self, .ended)
        default: break
        }
    }

    /// Clears the measure.
    open override func reset() {
        super.reset()
        twoFingerFields.hasStarted = false
    }
}

/// Recognizes a pinch (`UIPinchGestureRecognizer`). Continuous (SEMANTICS G17): `scale` is the
/// fingers' distance over their distance when both were down; began when it differs from 1 by
/// `scaleThreshold` (5 %); changed on later moves; ended when fewer than two fingers remain.
/// [ours for the threshold and the end]
open class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    /// The stored fields of this class, in one record, read and written in place through
    /// `pinchFields` (internal, and never accessed across a call that could touch it, so the
    /// optimizer drops its exclusivity checks: see HitTestInput/Storage.swift).
    struct PinchFields {
        var baseDistance = 0.0
        var currentDistance = 0.0
        var scale = 1.0
    }
    final var pinchFields = PinchFields()

    /// The default `scaleThreshold`: 0.05. [ours]
    public static let defaultScaleThreshold = 0.05
    /// How far from 1 the scale must get to begin.
    public var scaleThreshold = PinchGestureRecognizer.defaultScaleThreshold {
        didSet { _ = Setting.finiteNonNegative(scaleThreshold, "number", "PinchGestureRecognizer.scaleThreshold") }
    }


    /// The scale (1 when the fingers came down). Setting it rebases: later scales multiply
    /// from the value set (set it to 1 to get increments).
    public var scale: Double {
        get { pinchFields.scale }
        set {
            pinchFields.scale = newValue
            if newValue > 0, pinchFields.currentDistance > 0 { pinchFields.baseDistance = pinchFields.currentDistance / newValue }
        }
    }

    /// The scale's change per second at the last step.
    public private(set) var velocity = 0.0

    override func measure(_ a: Point, _ b: Point) -> Double { GestureRecognizer.distance(a, b) }

    override func start(_ m: Double) {
        pinchFields.baseDistance = m
        pinchFields.currentDistance = m
        pinchFields.scale = 1
    }

    override func update(_ m: Double, dt: Double) -> Bool {
        pinchFields.currentDistance = m
        guard pinchFields.baseDistance > 0 else { return false }
        let s = m / pinchFields.baseDistance
        if dt > 0 { velocity = (s - pinchFields.scale) / dt }
        pinchFields.scale = s
        return abs(s - 1) >= scaleThreshold
    }

    /// Scale back to 1, velocity 0.
    open override func reset() {
        super.reset()
        pinchFields.scale = 1
        velocity = 0
        pinchFields.baseDistance = 0
        pinchFields.currentDistance = 0
    }
}

/// Recognizes a two-finger rotation (`UIRotationGestureRecognizer`). Continuous (SEMANTICS
/// G17): `rotation` (radians) is the turn of the line between the fingers since both were
/// down (tracked continuously, so it may pass ±π); began when it reaches `rotationThreshold`
/// (0.1 rad); changed on later moves; ended when fewer than two fingers remain. [ours for the
/// threshold and the end]
open class RotationGestureRecognizer: TwoFingerGestureRecognizer {
    /// The stored fields of this class, in one record, read and written in place through
    /// `rotationFields` (internal, and never accessed across a call that could touch it, so the
    /// optimizer drops its exclusivity checks: see HitTestInput/Storage.swift).
    struct RotationFields {
        var lastAngle = 0.0
        var rotation = 0.0
    }
    final var rotationFields = RotationFields()

    /// The default `rotationThreshold`: 0.1 rad. [ours]
    public static let defaultRotationThreshold = 0.1
    /// How far (radians) the fingers must turn to begin.
    public var rotationThreshold = RotationGestureRecognizer.defaultRotationThreshold {
        didSet { _ = Setting.finiteNonNegative(rotationThreshold, "angle", "RotationGestureRecognizer.rotationThreshold") }
    }


    /// The rotation in radians. Setting it rebases: later turns add to the value set.
    public var rotation: Double {
        get { rotationFields.rotation }
        set { rotationFields.rotation = newValue }
    }

    /// The rotation's change per second (rad/s) at the last step.
    public private(set) var velocity = 0.0

    override func measure(_ a: Point, _ b: Point) -> Double { atan2(b.y - a.y, b.x - a.x) }

    override func start(_ m: Double) {
        rotationFields.lastAngle = m
        rotationFields.rotation = 0
    }

    override func update(_ m: Double, dt: Double) -> Bool {
        var delta = m - rotationFields.lastAngle
        while delta > Double.pi { delta -= 2 * Double.pi }
        while delta <= -Double.pi { delta += 2 * Double.pi }
        rotationFields.lastAngle = m
        rotationFields.rotation += delta
        if dt > 0 { velocity = delta / dt }
        return abs(rotationFields.rotation) >= rotationThreshold
    }

    /// Rotation back to 0, velocity 0.
    open override func reset() {
        super.reset()
        rotationFields.rotation = 0
        velocity = 0
    }
}
