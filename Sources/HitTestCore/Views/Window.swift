/// A root view that stands for a screen area (`UIWindow`). Its bounds space is what `nil`
/// means in `convert(_:to:)` for the views inside it; its frame is in screen coordinates.
open class Window: View {
    /// Higher levels are in front of lower ones (`UIWindow.windowLevel`); default 0.
    public var windowLevel: Double = 0 {
        didSet { inputPipeline?.windowLevelDidChange(self) }
    }

    /// The application showing this window, as a responder: the window's next responder
    /// (HitTestInput reads and writes it as `Window.application`). Unretained
    /// (Core/Storage.swift): HitTestInput clears it when the window is removed and when the
    /// application dies.
    @Unretained package internal(set) final var applicationResponder: Responder? = nil

    /// Sets `applicationResponder` (HitTestInput's `Window.application` setter). A method, not
    /// a package setter: no access to the field stays open in another module, so the optimizer
    /// drops its exclusivity checks (Core/Storage.swift, "Fields of the public classes").
    package final func setApplicationResponder(_ responder: Responder?) { applicationResponder = responder }

    /// The application showing this window, as the core sees it: its input pipeline.
    package final var inputPipeline: (any TouchPipeline)? { applicationResponder as? any TouchPipeline }

    /// The simulated clock of the application showing this window (HitTestAnimation's clock).
    package final var clock: (any SimulatedClock)? { applicationResponder as? any SimulatedClock }

    /// The root view controller (`UIWindow.rootViewController`). Setting it installs its view
    /// as the window's only content, sized to the window's bounds; the old one's view is removed.
    public var rootViewController: ViewController? {
        didSet {
            if oldValue === rootViewController { return }
            if let old = oldValue, old.isViewLoaded, old.view.superview === self {
                old.view.removeFromSuperview()
            }
            if let controller = rootViewController {
                let view = controller.view
                view.frame = bounds
                addSubview(view)
            }
        }
    }

    // MARK: - Layout: the device's safe area

    /// The window's own safe-area insets (a notch, a home indicator): set by the caller, zero
    /// by default. The views inside derive theirs from it (`View.safeAreaInsets`).
    var storedSafeAreaInsets = EdgeInsets.zero

    /// The device's safe-area insets (`UIWindow.safeAreaInsets`), set by the caller (e.g. 47
    /// at the top and 34 at the bottom for a phone in portrait); zero by default. Setting them
    /// lays the window out again at the next pass.
    public override var safeAreaInsets: EdgeInsets {
        get { storedSafeAreaInsets }
        set { setWindowSafeAreaInsets(newValue) }
    }

    /// Creates a window with the given frame (in screen coordinates).
    public override init(frame: Rect) {
        super.init(frame: frame)
        walksInC(asInstanceOf: Window.self)
        storedWindow = self
    }

    /// A window's next responder is its application (`UIWindow.nextResponder`).
    open override var next: Responder? { applicationResponder }

    /// Delivers the touches of `event` that belong to this window to their views
    /// (`UIWindow.sendEvent:`). Override to observe events; call `super` to deliver them.
    ///
    /// The window decides nothing itself: it hands the event back to the router of the
    /// application that made it, which decides what each view receives and has the calls made.
    open func sendEvent(_ event: Event) {
        event.record.deliver(event, in: self)
    }
}

/// A controller that owns a view and sits in the responder chain after it (`UIViewController`).
open class ViewController: Responder {
    private var storedView: View?

    /// Creates a controller; its view is created on first access.
    public override init() {
        super.init()
    }

    deinit {
        // The view refers to its controller unretained.
        if let storedView, storedView.owningController === self { storedView.owningController = nil }
    }

    /// The root view (`UIViewController.view`), created by `loadView()` on first access.
    public var view: View {
        get {
            if let storedView { return storedView }
            loadView()
            return storedView!
        }
        set {
            if storedView?.owningController === self { storedView?.owningController = nil }
            storedView = newValue
            newValue.owningController = self
        }
    }

    /// Whether the view has been created (`isViewLoaded`).
    public var isViewLoaded: Bool { storedView != nil }

    /// Creates the view. The default makes a plain `View()`; override to build your own and
    /// assign it to `view`.
    open func loadView() {
        view = View()
    }

    /// The controller's next responder is its view's superview (`UIViewController.nextResponder`).
    open override var next: Responder? { storedView?.superview }
}
