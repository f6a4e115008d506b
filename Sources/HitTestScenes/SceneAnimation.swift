import HitTestKit

/// An animation a scene file defines (SCENE_FORMAT "animations"): at simulated time `at` — or,
/// with `on`, each time the control `on` sends `primaryActionTriggered` (a replayed tap on a
/// button) — the view `view` animates to the given values over `duration` seconds, as
/// `View.animate(withDuration:delay:options:animations:completion:)` would. Replays
/// (`Application.replay`, `hittest replay`) trigger it on the application's clock, so a tap
/// during the slide meets the model-versus-presentation difference every run.
///
/// ```json
/// "animations": [ { "view": "drawer", "at": 0.5, "duration": 0.3, "curve": "easeOut",
///                   "frame": [0, 0, 280, 844] },
///                 { "view": "drawer", "on": "menu-button", "duration": 0.3, "frame": [0, 0, 280, 844] } ]
/// ```
public struct SceneAnimation: Sendable, Hashable {
    /// The id of the node to animate.
    public var view: String
    /// When the animate call happens, in simulated seconds (ignored when `on` is set).
    public var at: Double
    /// The id of a control (a node of kind `button` or `control`): when set, the animation
    /// starts each time that control sends `primaryActionTriggered`, instead of at `at`.
    public var on: String?
    /// The duration in seconds.
    public var duration: Double
    /// The delay after `at`, in seconds (default 0).
    public var delay: Double = 0
    /// The curve (default easeInOut).
    public var curve: View.AnimationCurve = .easeInOut
    /// `.allowUserInteraction` (default false: the view is not hit while it animates).
    public var allowUserInteraction = false
    /// The new frame, if it changes.
    public var frame: Rect?
    /// The new centre, if it changes (applied after `frame`).
    public var center: Point?
    /// The new transform, if it changes.
    public var transform: HitTestKit.AffineTransform?
    /// The new alpha, if it changes.
    public var alpha: Double?

    /// An animation of `view` at `at` over `duration`; set the values to animate to.
    public init(view: String, at: Double, duration: Double) {
        self.view = view
        self.at = at
        self.duration = duration
    }

    /// The keys an animation object may have.
    static let keys = ["view", "at", "on", "duration", "delay", "curve", "allowUserInteraction", "frame", "center", "transform", "alpha"]

    /// The rules as data, for `SceneKeyTable` (the Python loader checks animations with them).
    static var table: SceneJSON {
        .object(["keys": .array(keys.map { .string($0) }), "curves": .array(curveNames.map { .string($0.0) })])
    }

    static let curveNames: [(String, View.AnimationCurve)] = [
        ("easeInOut", .easeInOut), ("easeIn", .easeIn), ("easeOut", .easeOut), ("linear", .linear),
    ]

    /// The animation's options.
    public var options: View.AnimationOptions {
        var o: View.AnimationOptions = [[.curveEaseInOut, .curveEaseIn, .curveEaseOut, .curveLinear][curve.rawValue]]
        if allowUserInteraction { o.insert(.allowUserInteraction) }
        return o
    }

    /// Sets the target values on `v` (inside an animation block: they animate).
    public func apply(to v: View) {
        if let frame { v.frame = frame }
        if let center { v.center = center }
        if let transform { v.transform = transform }
        if let alpha { v.alpha = alpha }
    }

    // MARK: - JSON

    /// The list from the value of the top-level "animations" key.
    static func list(from json: SceneJSON) throws(SceneError) -> [SceneAnimation] {
        guard case .array(let items) = json else {
            throw SceneError(path: [], message: "\"animations\" must be an array of objects, found \(json.brief)")
        }
        var out: [SceneAnimation] = []
        for (i, item) in items.enumerated() {
            let here = "animations[\(i)]"
            func fail(_ m: String) -> SceneError { SceneError(path: [], message: "\(here): \(m)") }
            guard case .object(let o) = item else { throw fail("must be an object, found \(item.brief)") }
            let limit = SceneLimits.text(SceneLimits.coordinate)
            func number(_ key: String, min: Double = -SceneLimits.coordinate) throws(SceneError) -> Double? {
                guard let v = o[key] else { return nil }
                guard case .number(let d, _) = v, d >= min, d <= SceneLimits.coordinate else {
                    throw fail("\"\(key)\" must be a number from \(SceneLimits.text(min)) to \(limit), found \(v.brief)")
                }
                return d
            }
            func numbers(_ key: String, _ count: Int) throws(SceneError) -> [Double]? {
                guard let v = o[key] else { return nil }
                var ds: [Double] = []
                if case .array(let a) = v, a.count == count {
                    for case .number(let d, _) in a where abs(d) <= SceneLimits.coordinate { ds.append(d) }
                }
                guard ds.count == count else { throw fail("\"\(key)\" must be an array of \(count) numbers within ±\(limit), found \(v.brief)") }
                return ds
            }
            let known = Set(keys)
            if let bad = o.keys.sorted().first(where: { !known.contains($0) }) {
                throw fail("unknown key \"\(bad)\" (\(known.sorted().joined(separator: ", ")))")
            }
            guard case .string(let view)? = o["view"], !view.isEmpty else { throw fail("\"view\" must be the id of a node (a non-empty string)") }
            var on: String?
            if let v = o["on"] {
                guard case .string(let id) = v, !id.isEmpty else { throw fail("\"on\" must be the id of a button or control (a non-empty string)") }
                on = id
            }
            let at = try number("at")
            if (at == nil) == (on == nil) {
                throw fail("give exactly one of \"at\" (the time of the animate call) and \"on\" (the id of a button whose action starts it)")
            }
            guard let duration = try number("duration", min: 0) else { throw fail("\"duration\" (seconds, ≥ 0) is required") }
            var a = SceneAnimation(view: view, at: at ?? 0, duration: duration)
            a.on = on
            a.delay = try number("delay", min: 0) ?? 0
            if let c = o["curve"] {
                guard case .string(let name) = c, let curve = curveNames.first(where: { $0.0 == name })?.1 else {
                    throw fail("\"curve\" must be one of \(curveNames.map(\.0).joined(separator: ", ")), found \(c.brief)")
                }
                a.curve = curve
            }
            if let b = o["allowUserInteraction"] {
                guard case .bool(let flag) = b else { throw fail("\"allowUserInteraction\" must be true or false, found \(b.brief)") }
                a.allowUserInteraction = flag
            }
            if let f = try numbers("frame", 4) {
                guard f[2] >= 0, f[3] >= 0 else { throw fail("\"frame\" must have a non-negative size") }
                a.frame = Rect(sceneNumbers: f)
            }
            a.center = try numbers("center", 2).map { Point(sceneNumbers: $0) }
            if let t = try numbers("transform", 6) {
                guard t.prefix(4).allSatisfy({ abs($0) <= SceneLimits.scale }) else {
                    throw fail("\"transform\": a, b, c, d must be within ±\(SceneLimits.text(SceneLimits.scale))")
                }
                a.transform = HitTestKit.AffineTransform(sceneNumbers: t)
            }
            if let alpha = try number("alpha", min: 0) {
                guard alpha <= 1 else { throw fail("\"alpha\" must be in [0, 1]") }
                a.alpha = alpha
            }
            out.append(a)
        }
        return out
    }

    /// The JSON value of the top-level "animations" key.
    static func json(_ list: [SceneAnimation]) -> SceneJSON {
        func n(_ d: Double) -> SceneJSON { .number(d, text: SceneJSON.format(d)) }
        func ns(_ ds: [Double]) -> SceneJSON { .array(ds.map(n)) }
        return .array(list.map { a in
            var o: [String: SceneJSON] = ["view": .string(a.view), "duration": n(a.duration)]
            if let on = a.on { o["on"] = .string(on) } else { o["at"] = n(a.at) }
            if a.delay != 0 { o["delay"] = n(a.delay) }
            if a.curve != .easeInOut { o["curve"] = .string(curveNames.first { $0.1 == a.curve }!.0) }
            if a.allowUserInteraction { o["allowUserInteraction"] = .bool(true) }
            if let f = a.frame { o["frame"] = ns(f.sceneNumbers) }
            if let c = a.center { o["center"] = ns(c.sceneNumbers) }
            if let t = a.transform { o["transform"] = ns(t.sceneNumbers) }
            if let al = a.alpha { o["alpha"] = n(al) }
            return .object(o)
        })
    }
}

extension SceneAnimation: Codable {
    /// Decodes one animation (the `Codable` path of `SceneFile`).
    public init(from decoder: any Decoder) throws {
        let list = try SceneAnimation.list(from: .array([SceneJSON(from: decoder)]))
        self = list[0]
    }

    /// Encodes one animation.
    public func encode(to encoder: any Encoder) throws {
        guard case .array(let items) = SceneAnimation.json([self]) else { return }
        try items[0].encode(to: encoder)
    }
}

extension SceneFile {
    /// Schedules the scene's animations on `application`'s clock (`Application.performAnimation(at:_:)`)
    /// for the views of `window` (made by `makeWindow()`), found by their ids. Each runs as a
    /// block animation when the clock reaches its `at`.
    public func installAnimations(in window: Window, on application: Application) {
        guard !animations.isEmpty else { return }
        var byID: [String: View] = [:]
        var stack: [View] = [window]
        while let v = stack.popLast() {
            if let id = v.accessibilityIdentifier, byID[id] == nil { byID[id] = v }
            stack.append(contentsOf: v.subviews)
        }
        for a in animations {
            guard let view = byID[a.view] else { continue }
            if let on = a.on {
                // Validated at load: `on` names a button or control.
                (byID[on] as? Control)?.addAction(for: .primaryActionTriggered) { _, _ in
                    View.animate(withDuration: a.duration, delay: a.delay, options: a.options, animations: { a.apply(to: view) })
                }
                continue
            }
            application.performAnimation(at: a.at) {
                View.animate(withDuration: a.duration, delay: a.delay, options: a.options, animations: { a.apply(to: view) })
            }
        }
    }
}
