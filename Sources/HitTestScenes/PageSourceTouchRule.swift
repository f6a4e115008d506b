/// How an XCUITest / Appium page source's element types map onto hit testing.
///
/// A page source is the accessibility tree that WebDriverAgent serialises from XCTest's
/// snapshot: elements come in accessibility (reading) order and carry no z-order, and
/// full-screen containers (`Other`, `Window`, a `Table` that extends under the navigation bar,
/// Safari's `CapsuleViewController` listed after the page) overlap the controls they sit
/// beside. Read as a view tree, such a container would take every touch. The rule [ours, the
/// sources being silent on z-order]:
///
/// - touch targets (`isTouchTarget`: controls, links, cells, text inputs, keys, icons, tabs,
///   menu items …) are views as usual: a touch inside one lands on it or on a target inside it;
/// - any other element that has children passes touches through (`passesTouchesThrough`): it is
///   never the hit itself, its children still are;
/// - a static text, image or activity/progress indicator without children does not take
///   touches (`interactive = false`), as `UILabel` and `UIImageView` have
///   `isUserInteractionEnabled` false by default: a touch on a cell's label lands on the cell;
/// - other childless elements (`Other` leaves, say) stay as they are.
public enum PageSourceTouchRule {
    /// The element types (without the `XCUIElementType` prefix) that receive touches.
    public static let touchTargetTypes: Set<String> = [
        "Button", "Link", "Cell", "TextField", "SecureTextField", "SearchField", "TextView",
        "Switch", "Toggle", "Slider", "Stepper", "SegmentedControl", "Picker", "PickerWheel",
        "DatePicker", "PageIndicator", "Key", "Icon", "Tab", "MenuItem", "MenuBarItem",
        "RadioButton", "CheckBox", "PopUpButton", "ComboBox", "MenuButton", "ToolbarButton",
        "DisclosureTriangle", "ColorWell", "IncrementArrow", "StatusItem", "Handle",
    ]

    /// Element types that never take touches themselves when they are leaves.
    public static let inertLeafTypes: Set<String> = ["StaticText", "Image", "ActivityIndicator", "ProgressIndicator"]

    /// `XCUIElementTypeButton` or `Button` → `Button`.
    public static func shortType(_ type: String) -> String {
        type.hasPrefix("XCUIElementType") ? String(type.dropFirst("XCUIElementType".count)) : type
    }

    /// Whether an element of this type receives touches (a control, link, cell, …).
    public static func isTouchTarget(_ type: String) -> Bool {
        touchTargetTypes.contains(shortType(type))
    }

    /// Applies the rule to one imported element.
    static func apply(to node: inout SceneNode, type: String, hasChildren: Bool) {
        let short = shortType(type)
        if touchTargetTypes.contains(short) { return }
        if hasChildren {
            node.passesTouchesThrough = true
        } else if inertLeafTypes.contains(short) {
            node.interactive = false
        }
    }
}
