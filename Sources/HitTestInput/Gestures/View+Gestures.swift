import HitTestCore

// MARK: - Attaching recognizers to views

extension View {
    /// The recognizers attached to the view, in the order added; nil when there are none
    /// (`UIView.gestureRecognizers`). Setting it removes the old ones and adds these.
    public var gestureRecognizers: [GestureRecognizer]? {
        get {
            guard let recognizers = input?.recognizers, !recognizers.isEmpty else { return nil }
            return recognizers
        }
        set {
            for g in attachedRecognizers { removeGestureRecognizer(g) }
            for g in newValue ?? [] { addGestureRecognizer(g) }
        }
    }

    /// Attaches `g` (detaching it from another view first). It sees the touches that begin in
    /// this view and its subviews from the next touch on.
    public func addGestureRecognizer(_ g: GestureRecognizer) {
        if let old = g.view {
            if old === self { return }
            old.removeGestureRecognizer(g)
        }
        inputRecord.recognizers.append(g)
        g.view = self
    }

    /// The recognizers' default names hold their index: renumber after a change.
    private func recognizersChanged() {
        for g in attachedRecognizers { g.cachedDebugName = nil }
    }

    /// Detaches `g`: a gesture it has begun is cancelled, one in progress fails (G11); it
    /// receives nothing more.
    public func removeGestureRecognizer(_ g: GestureRecognizer) {
        guard let record = input, let i = record.recognizers.firstIndex(where: { $0 === g }) else { return }
        g.abandon()
        record.recognizers.remove(at: i)
        g.view = nil
        recognizersChanged()
    }
}

// MARK: - The delivery log's texts

extension GestureRecognizer {
    /// `Name from → to`.
    func transitionText(_ from: State, _ to: State) -> String {
        logText(from.ordinal * 6 + to.ordinal) { "\(debugName) \(from) → \(to)" }
    }

    /// `Name state`, for an action entry.
    func actionText(_ state: State) -> String {
        logText(36 + state.ordinal) { "\(debugName) \(state)" }
    }

    /// `Name recognized`: why its touches no longer reach their views (G6).
    func recognizedText() -> String {
        logText(42) { "\(debugName) recognized" }
    }

    /// `Name has begun`: why a touch that begins under it does not reach its view.
    func hasBegunText() -> String {
        logText(43) { "\(debugName) has begun" }
    }
}

// MARK: - Where the recognizer's touches are

extension GestureRecognizer {
    /// The centroid of the recognizer's touches in `view`'s bounds space (nil: the window's).
    /// With no touch down, where they last were.
    public func location(in view: View?) -> Point {
        Touch.convert(centroidOnScreen(), window: touchWindow, to: view)
    }

    /// The location of the recognizer's touch at `index` (0 ..< `numberOfTouches`, in the order
    /// they began) in `view`'s bounds space.
    /// - Precondition: `index` is in range (as UIKit raises for one out of range).
    public func location(ofTouch index: Int, in view: View?) -> Point {
        let touches = activeTouches
        precondition(
            touches.indices.contains(index),
            "GestureRecognizer.location(ofTouch:in:): index \(index) out of range (numberOfTouches is \(touches.count))")
        return touches[index].location(in: view)
    }

    /// The window of the touches: the first touch's, else the view's.
    var touchWindow: Window? { tracking?.activeTouches.first?.window ?? view?.window }

    /// The centroid of the touches down in screen coordinates; where they last were when none
    /// is (the origin before the first touch).
    func centroidOnScreen() -> Point {
        tracking?.centroidOnScreen() ?? Point(x: 0, y: 0)
    }

    /// The centroid of `touches` in screen coordinates; nil for none.
    static func centroid(_ touches: ArraySlice<Touch>) -> Point? {
        guard !touches.isEmpty else { return nil }
        var x = 0.0
        var y = 0.0
        // Unretained: the slice holds the touches, which are only read.
        touches.withUnsafeBufferPointer { buffer in
            for k in buffer.indices {
                let p = withBorrowed(buffer[k]) { $0.screenLocation }
                x += p.x
                y += p.y
            }
        }
        let n = Double(touches.count)
        return Point(x: x / n, y: y / n)
    }
}
