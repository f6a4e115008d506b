import Foundation
import HitTestKit

/// Which imported classes become controls, buttons and scroll views, and what their dumps say
/// about them (`contentOffset`, `contentSize`, `adjustedContentInset`, `enabled`, …).
enum SceneKindRules {
    /// UIButton and UIKit's own subclasses of it.
    static let buttonClasses: Set<String> = ["UIButton", "UINavigationButton", "UIRoundedRectButton", "UISystemButton"]
    /// UIControl and UIKit's subclasses of it that are not buttons.
    static let controlClasses: Set<String> = [
        "UIControl", "UISwitch", "UISlider", "UITextField", "UISearchTextField", "UISegmentedControl", "UIStepper",
        "UIDatePicker", "UIPageControl", "UIColorWell", "UIRefreshControl", "_UIButtonBarButton",
    ]
    /// UIScrollView and UIKit's subclasses of it.
    static let scrollClasses: Set<String> = [
        "UIScrollView", "UITableView", "UICollectionView", "UITextView", "UIWebScrollView", "WKScrollView",
        "_UIQueuingScrollView", "UITableViewWrapperView",
    ]
    /// Tables bounce vertically even when their rows do not fill them (UIKit's default). [iOS]
    static let alwaysBounceVerticalClasses: Set<String> = ["UITableView"]

    /// The class's own name: module prefix removed (`Adyen.FormView` → `FormView`).
    static func simpleName(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    /// The kind of an imported class. The dump's `baseClass` decides when it names a UIKit
    /// class; otherwise the class itself, by UIKit's names, then by its name's ending
    /// (`…Button` → button; `…Control`, `…Switch`, `…Slider`, `…TextField`, `…Stepper` → control;
    /// `…ScrollView`, `…TableView`, `…CollectionView` → scroll view). [ours for the endings]
    static func kind(className: String, baseClass: String?) -> SceneViewKind? {
        for raw in [baseClass, className].compactMap({ $0 }) {
            let name = simpleName(raw)
            if buttonClasses.contains(name) { return .button }
            if controlClasses.contains(name) { return .control }
            if scrollClasses.contains(name) { return .scrollView }
        }
        let name = simpleName(className)
        if name.hasSuffix("Button") && !name.hasSuffix("BarButton") { return .button }
        if ["Control", "Switch", "Slider", "TextField", "Stepper"].contains(where: { name.hasSuffix($0) }) { return .control }
        if ["ScrollView", "TableView", "CollectionView"].contains(where: { name.hasSuffix($0) }) { return .scrollView }
        return nil
    }

    /// Sets the node's kind and the fields its dump gives: a scroll view's `contentSize` and
    /// `adjustedContentInset` (as `contentInset`: there are no safe areas here), `scrollEnabled`,
    /// `bounces`, `pagingEnabled`; a control's `enabled`, `selected`, `highlighted` (`= NO` /
    /// `= YES`). The `contentOffset` is already the bounds origin.
    static func apply(to node: inout SceneNode, className: String, fields: [String: String]) {
        guard let kind = kind(className: className, baseClass: fields["baseClass"]) else { return }
        node.kind = kind
        func flag(_ key: String) -> Bool? {
            switch fields[key] {
            case "YES", "1", "true": true
            case "NO", "0", "false": false
            default: nil
            }
        }
        func set(_ key: String, _ value: Bool?, default d: Bool) {
            if let value, value != d { node.attributes[key] = .bool(value) }
        }
        switch kind {
        case .button, .control:
            set("enabled", flag("enabled"), default: true)
            set("selected", flag("selected"), default: false)
            set("highlighted", flag("highlighted"), default: false)
        case .scrollView:
            if let size = fields["contentSize"].flatMap(RecursiveDescriptionReader.parsePair), size.x >= 0, size.y >= 0,
                max(size.x, size.y) <= SceneLimits.coordinate
            {
                node.attributes["contentSize"] = .array([.number(size.x, text: ""), .number(size.y, text: "")])
            }
            if let inset = (fields["adjustedContentInset"] ?? fields["contentInset"]).flatMap(parseInsets),
                inset != .zero
            {
                node.attributes["contentInset"] = .array(inset.sceneNumbers.map { .number($0, text: "") })
            }
            set("scrollEnabled", flag("scrollEnabled"), default: true)
            set("bounces", flag("bounces"), default: true)
            set("pagingEnabled", flag("pagingEnabled"), default: false)
            let names = [className, fields["baseClass"]].compactMap { $0 }.map(simpleName)
            if names.contains(where: alwaysBounceVerticalClasses.contains) || simpleName(className).hasSuffix("TableView") {
                node.attributes["alwaysBounceVertical"] = .bool(true)
            }
        }
    }

    /// `{top, left, bottom, right}`.
    static func parseInsets(_ s: String) -> EdgeInsets? {
        let v = s.trimmingCharacters(in: CharacterSet(charactersIn: "{} ")).split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard v.count == 4, v.allSatisfy({ $0.isFinite && abs($0) <= SceneLimits.coordinate }) else { return nil }
        return EdgeInsets(top: v[0], left: v[1], bottom: v[2], right: v[3])
    }
}

extension SceneImporter {
    /// The scene of an imported tree: its root put into a window of its own when it is a scroll
    /// view or a control (`SceneFile.windowed(_:)`), which a warning then says.
    static func scene(root: SceneNode, warnings: inout ImportWarnings) -> SceneFile {
        let (scene, window) = SceneFile.windowed(root)
        if let window, let kind = root.kind {
            warnings.append(
                "the first view, \(root.id) (\(kind.rawValue)), is put into a window of its own, \"\(window)\": a scene's root is the window")
        }
        return scene
    }
}
