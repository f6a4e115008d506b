import HitTestCore

/// One call of a touch method: `phase` of `touches`, all of whose view is `view`.
struct Delivery {
    /// The touches' view.
    let view: View
    /// Which method: began, moved, ended or cancelled.
    let phase: Touch.Phase
    /// The touches the call carries.
    var touches: Set<Touch>
}

/// The last stage of the input pipeline (tracker → router → dispatcher): it calls the touch
/// methods the router decided on, and logs each call. It decides nothing. (The phase → method
/// mapping is the core's `Responder.receive(_:_:with:)`, which the responder chain's default
/// forwarding uses too.)
enum Dispatcher {
    /// Makes the calls in order, logging each as `.delivered` before it runs.
    static func dispatch(_ deliveries: [Delivery], with event: Event, log: DeliveryRecorder?, reason: String? = nil) {
        for delivery in deliveries {
            log?.record(.delivered, delivery.phase, delivery.touches, by: delivery.view, reason: reason)
            delivery.view.receive(delivery.phase, delivery.touches, with: event)
        }
    }
}

/// Runs the responder chain's default forwarding (`Responder.touchesBegan` … passing the
/// touches to `next`) without a stack frame per level of a deep tree.
///
/// Up to `maximumDepth` nested default forwards call `next` directly, exactly as UIKit does.
/// Deeper, the forward is queued and run by the outermost default forward once the frames
/// above it have returned, and so on, `maximumDepth` levels at a time. For responders that
/// do not override the touch methods this is indistinguishable from plain recursion; an
/// override that does work after calling `super` more than `maximumDepth` levels below
/// another default forward sees that work run before, not after, the rest of the chain. [ours]
final class ChainForwarder: ChainForwarderStorage {
    /// Nested default forwards before the loop takes over.
    static let maximumDepth = 256

    private var queued: [(phase: Touch.Phase, touches: Set<Touch>, event: Event?, next: Responder)] = []

    /// Calls `next`'s touch method for `phase`, now or (too deep) from the outermost forward.
    func forward(_ phase: Touch.Phase, _ touches: Set<Touch>, with event: Event?, to next: Responder) {
        if depth >= ChainForwarder.maximumDepth {
            queued.append((phase, touches, event, next))
            return
        }
        depth += 1
        next.receive(phase, touches, with: event)
        depth -= 1
        guard depth == 0, !queued.isEmpty else { return }
        // The outermost forward: run what deeper levels handed over, in order; each may hand
        // over more.
        var i = 0
        while i < queued.count {
            let f = queued[i]
            i += 1
            depth = 1
            f.next.receive(f.phase, f.touches, with: f.event)
            depth = 0
        }
        queued.removeAll()
    }
}

/// A one-element `Set<Touch>` whose storage is reused from one step to the next: most steps
/// carry one touch, and a set allocated for each touch method call was a large share of a
/// replay's time. `take` moves the storage out (a call made while it is out, from a handler,
/// simply gets a new one), `giveBack` empties it (so it keeps no touch alive) and keeps it.
/// A handler that keeps the set it was given keeps its own copy: the next `take` then finds
/// the storage shared and allocates afresh (copy on write), so nothing it holds changes.
struct ReusableTouchSet {
    private var storage = Set<Touch>()

    /// The set `[touch]`.
    mutating func take(_ touch: Touch) -> Set<Touch> {
        kept = nil
        var set = storage
        storage = Set()
        set.removeAll(keepingCapacity: true)
        set.insert(touch)
        return set
    }

    /// Returns the storage of a set made by `take` once the call that got it is over.
    mutating func giveBack(_ set: consuming Set<Touch>) {
        set.removeAll(keepingCapacity: true)
        storage = set
    }

    // The keeping variant (the gesture engine's set, given to a touch's recognizers at every
    // step of the touch): the set `[touch]` stays made between steps while the touch is down,
    // so a touch is hashed once per touch, not once per step. The caller empties it with
    // `forget` when the touch ends or is cancelled, so it never keeps a finished touch (nor
    // its view) past that step. The set handed out is the kept storage itself, shared: a
    // handler that keeps it keeps an unchanging value, and a change here (another touch)
    // copies on write.

    /// The touch `storage` holds in the keeping variant, or nil (then it may hold nothing or a
    /// touch given by `take`). An identifier, not a reference: `storage` holds that touch, so
    /// it cannot die and its identifier cannot be reused while this is set.
    private var kept: ObjectIdentifier?

    /// The set `[touch]`, kept for the next call with the same touch.
    mutating func takeKeeping(_ touch: Touch) -> Set<Touch> {
        if kept == ObjectIdentifier(touch) { return storage }
        storage.removeAll(keepingCapacity: true)
        storage.insert(touch)
        kept = ObjectIdentifier(touch)
        return storage
    }

    /// Empties the kept set if it holds `touch` (which ended or was cancelled).
    mutating func forget(_ touch: Touch) {
        if kept == ObjectIdentifier(touch) {
            kept = nil
            storage.removeAll(keepingCapacity: true)
        }
    }
}
