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
    /// The scene of an imported tree. A scene's root is the window, and a window is neither a
    /// scroll view nor a control, so a dump taken from one (`po tableView.recursiveDescription()`)
    /// is put, as it is, into a window of its own that takes its place on the screen [ours]:
    /// the window gets the root's frame, transform, anchor point and the flags that refuse
    /// touches; the root keeps everything else at (0, 0) in it. Every point then reaches the
    /// view it reached before (the window only where the root itself is not hit), and a drag
    /// on the table scrolls it.
    static func scene(root: SceneNode, warnings: inout ImportWarnings) -> SceneFile {
        guard let kind = root.kind else { return SceneFile(root: root) }
        var ids = Set<String>()
        var stack = [root]
        while let node = stack.popLast() {
            ids.insert(node.id)
            stack.append(contentsOf: node.children)
        }
        var id = "window"
        var n = 1
        while ids.contains(id) {
            n += 1
            id = "window-\(n)"
        }
        var window = SceneNode(id: id, frame: root.frame)
        window.transform = root.transform
        window.anchorPoint = root.anchorPoint
        window.hidden = root.hidden
        window.alpha = root.alpha
        window.interactive = root.interactive
        var view = root
        view.frame = Rect(x: 0, y: 0, width: root.frame.width, height: root.frame.height)
        view.transform = .identity
        view.anchorPoint = Point(x: 0.5, y: 0.5)
        window.children = [view]
        warnings.append(
            "the first view, \(root.id) (\(kind.rawValue)), is put into a window of its own, \"\(id)\": a scene's root is the window")
        return SceneFile(root: window)
    }
}
