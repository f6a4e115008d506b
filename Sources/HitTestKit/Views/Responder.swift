/// An object that can receive touches (`UIResponder`).
///
/// The default touch methods pass the touches on to `next`, as UIKit's do; at the end of the
/// chain (the application) they are dropped, which `Application` records.
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

    /// A name for logs: the view's `accessibilityIdentifier`, else the type and, for views, the tag.
    public var debugName: String {
        if let cachedDebugName { return cachedDebugName }
        let name: String
        if let view = self as? View {
            name = view.accessibilityIdentifier ?? "\(type(of: self))#\(view.tag)"
        } else {
            name = "\(type(of: self))"
        }
        cachedDebugName = name
        return name
    }

    /// The default touch methods pass the touches to `next` and log the hop; at the end of the
    /// chain the application logs them as dropped.
    func forward(_ phase: Touch.Phase, _ touches: Set<Touch>, _ event: Event?) {
        let application = touches.first?.window?.application
        guard let next else {
            application?.record(.dropped, phase, touches, by: self)
            return
        }
        application?.record(.forwarded, phase, touches, by: self)
        switch phase {
        case .began: next.touchesBegan(touches, with: event)
        case .moved, .stationary: next.touchesMoved(touches, with: event)
        case .ended: next.touchesEnded(touches, with: event)
        case .cancelled: next.touchesCancelled(touches, with: event)
        }
    }
}
