/// An object that can receive touches (`UIResponder`).
///
/// The default touch methods pass the touches on to `next`, as UIKit's do; at the end of the
/// chain (the application) they are dropped, which the application's delivery log records.
open class Responder {
    /// Creates a responder.
    public init() {}

    /// `debugName`, computed once (views reset it when their tag or identifier changes).
    var cachedDebugName: String?

    /// The next responder in the chain (`UIResponder.next`), or `nil` at its end.
    open var next: Responder? { nil }

    /// Touches began in this responder. The default forwards them to `next`.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        forward(.began, touches, event)
    }

    /// Touches moved. The default forwards them to `next`.
    open func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        forward(.moved, touches, event)
    }

    /// Touches ended. The default forwards them to `next`.
    open func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        forward(.ended, touches, event)
    }

    /// Touches were cancelled. The default forwards them to `next`.
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event?) {
        forward(.cancelled, touches, event)
    }

    /// A name for logs. The default is the type's name (`ViewController`);
    /// views use their `accessibilityIdentifier`, else their type and tag (`View#0`). Override
    /// to name your own responders. The delivery log records identity separately (each
    /// entry's `responder`), so two responders with one name are still told apart.
    open var debugName: String {
        if let cachedDebugName { return cachedDebugName }
        let name = String(describing: type(of: self))
        cachedDebugName = name
        return name
    }

    /// The default touch methods pass the touches to `next`; touches an application delivered
    /// go through its input pipeline, which logs the hop (or the drop at the end of the chain)
    /// and keeps deep chains from recursing per level.
    func forward(_ phase: Touch.Phase, _ touches: Set<Touch>, _ event: Event?) {
        guard let pipeline = event?.record.pipeline ?? touches.first?.record.window?.inputPipeline else {
            // Touches no application delivered (a direct call): nothing to log.
            next?.receive(phase, touches, with: event)
            return
        }
        pipeline.forward(phase, touches, with: event, from: self)
    }

    /// Calls the touch method for `phase` (`stationary` goes to `touchesMoved`, which UIKit
    /// never calls for it). The one place in the library that maps a phase to a
    /// `touchesBegan/Moved/Ended/Cancelled` method: the input pipeline's dispatcher and the
    /// default forwarding both call it.
    package final func receive(_ phase: Touch.Phase, _ touches: Set<Touch>, with event: Event?) {
        switch phase {
        case .began: touchesBegan(touches, with: event)
        case .moved, .stationary: touchesMoved(touches, with: event)
        case .ended: touchesEnded(touches, with: event)
        case .cancelled: touchesCancelled(touches, with: event)
        }
    }
}
