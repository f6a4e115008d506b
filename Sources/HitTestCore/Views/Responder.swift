/// An object that can receive touches (`UIResponder`).
///
/// The default touch methods pass the touches on to `next`, as UIKit's do; at the end of the
/// chain (the application) they are dropped, which `Application` records.
open class Responder {
    /// Creates a responder.
    public init() {}

    /// `debugName`, computed once (views reset it when their tag or identifier changes).
    @exclusivity(unchecked) var cachedDebugName: String?

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

    /// A name for logs. The default is the type's name (`ViewController`, `Application`);
    /// views use their `accessibilityIdentifier`, else their type and tag (`View#0`). Override
    /// to name your own responders. The delivery log records identity separately
    /// (`TouchDelivery.responder`), so two responders with one name are still told apart.
    open var debugName: String {
        if let cachedDebugName { return cachedDebugName }
        let name = String(describing: type(of: self))
        cachedDebugName = name
        return name
    }

    /// The default touch methods pass the touches to `next` and log the hop; at the end of the
    /// chain the application logs them as dropped.
    ///
    /// Deep chains do not recurse per level: the application's `ChainForwarder` takes over
    /// below a fixed depth.
    func forward(_ phase: Touch.Phase, _ touches: Set<Touch>, _ event: Event?) {
        guard let application = event?.application ?? touches.first?.window?.application else {
            // Touches no application delivered (a direct call): nothing to log.
            if let next { Dispatcher.send(phase, touches, with: event, to: next) }
            return
        }
        guard let next else {
            application.recorder.record(.dropped, phase, touches, by: self)
            return
        }
        application.recorder.record(.forwarded, phase, touches, by: self)
        application.forwarder.forward(phase, touches, with: event, to: next)
    }
}
