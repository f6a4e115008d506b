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

    private func logText(_ i: Int, _ make: () -> String) -> String {
        if logTexts.isEmpty { logTexts = Array(repeating: nil, count: 44) }
        if let text = logTexts[i] { return text }
        let text = make()
        logTexts[i] = text
        return text
    }
}
