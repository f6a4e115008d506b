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
/// methods the router decided on, and logs each call. It decides nothing.
///
/// `send(_:_:with:to:)` is the one place in the library that maps a phase to a
/// `touchesBegan/Moved/Ended/Cancelled` method; the responder chain's default forwarding uses
/// it too.
enum Dispatcher {
    /// Calls the touch method of `responder` for `phase` (`stationary` goes to `touchesMoved`,
    /// which UIKit never calls for it; the router never asks).
    static func send(_ phase: Touch.Phase, _ touches: Set<Touch>, with event: Event?, to responder: Responder) {
        switch phase {
        case .began: responder.touchesBegan(touches, with: event)
        case .moved, .stationary: responder.touchesMoved(touches, with: event)
        case .ended: responder.touchesEnded(touches, with: event)
        case .cancelled: responder.touchesCancelled(touches, with: event)
        }
    }

    /// Makes the calls in order, logging each as `.delivered` before it runs.
    static func dispatch(_ deliveries: [Delivery], with event: Event, log: DeliveryRecorder?, reason: String? = nil) {
        for delivery in deliveries {
            log?.record(.delivered, delivery.phase, delivery.touches, by: delivery.view, reason: reason)
            send(delivery.phase, delivery.touches, with: event, to: delivery.view)
        }
    }
}
