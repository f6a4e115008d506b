import HitTestKit

// Layout in scene files: the `layoutMargins`, `safeAreaInsets` and `constraints` keys, and the
// compact constraint form:
//
//     "constraints": ["leading == superview.leading + 16", "top == header.bottom + 8",
//                     "width == 0.5*superview.width", "height == 44 @750",
//                     "bottom <= superview.safeArea.bottom - 8", "width == self.height"]
//
// `ATTR REL RHS [@PRIORITY]`: the first item is the node itself; ATTR is one of left, right,
// top, bottom, leading, trailing, width, height, centerX, centerY; REL is ==, <= or >=; RHS is
// a number (width and height only) or `[M*]REF.ATTR [+ C | - C]` (spaces around + and -, since
// ids may hold hyphens), where REF is `superview`, `self` or a node id, optionally followed by
// `.margins` or `.safeArea` for that view's guide. A node with constraints is placed by them
// (`translatesAutoresizingMaskIntoConstraints` false); the window lays out when built. M is a
// multiplier (0, or 1e-6 to 1e6 in magnitude), C a constant within ±1e15.
//
// Each constraint made from a scene has its scene text as `identifier`, so that a report
// (`LayoutConstraint.Issue.sceneDescription`) names it as the file does, with its node's path.

/// One constraint of a scene file, parsed.
struct SceneConstraint: Equatable {
    enum Guide: Equatable { case none, margins, safeArea }
    var attribute: LayoutConstraint.Attribute
    var relation: LayoutConstraint.Relation
    /// nil for a constant-only constraint.
    var ref: String?
    var guide: Guide = .none
    var refAttribute: LayoutConstraint.Attribute = .notAnAttribute
    var multiplier = 1.0
    var constant = 0.0
    var priority: Float = 1000
    /// The text it was read from.
    var text = ""

    static let attributes: [String: LayoutConstraint.Attribute] = [
        "left": .left, "right": .right, "top": .top, "bottom": .bottom, "leading": .leading,
        "trailing": .trailing, "width": .width, "height": .height, "centerX": .centerX, "centerY": .centerY,
    ]

    /// Parses the compact form; the message says what is wrong.
    static func parse(_ text: String) -> Result<SceneConstraint, SceneError> {
        func fail(_ why: String) -> Result<SceneConstraint, SceneError> {
            .failure(SceneError(path: [], message: "\"constraints\": \"\(text)\": \(why)"))
        }
        var body = Substring(text)
        var priority: Float = 1000
        if let at = body.lastIndex(of: "@") {
            let p = body[body.index(after: at)...].trimmingCharacters(in: .whitespaces)
            guard let value = Float(p), value > 0, value <= 1000 else { return fail("the priority after @ must be a number in (0, 1000]") }
            priority = value
            body = body[..<at]
        }
        var found: (Range<Substring.Index>, LayoutConstraint.Relation)?
        for (op, rel) in [("==", LayoutConstraint.Relation.equal), ("<=", .lessThanOrEqual), (">=", .greaterThanOrEqual)] {
            if let r = body.range(of: op), found.map({ r.lowerBound < $0.0.lowerBound }) ?? true { found = (r, rel) }
        }
        guard let (range, relation) = found else { return fail("expected ==, <= or >=") }
        let left = body[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        var right = body[range.upperBound...].trimmingCharacters(in: .whitespaces)
        guard let attribute = attributes[left] else {
            return fail("unknown attribute \"\(left)\" (left, right, top, bottom, leading, trailing, width, height, centerX, centerY)")
        }
        var c = SceneConstraint(attribute: attribute, relation: relation)
        c.priority = priority
        c.text = text
        if let number = Double(right) {
            guard number.isFinite, abs(number) <= SceneLimits.coordinate else {
                return fail("the constant must be a number within ±\(limit(SceneLimits.coordinate)), found \(right)")
            }
            guard attribute == .width || attribute == .height else {
                return fail("only width and height can equal a constant; a position needs an item (superview.\(left))")
            }
            c.constant = number
            return .success(c)
        }
        for (sep, sign) in [(" + ", 1.0), (" - ", -1.0)] {
            if let r = right.range(of: sep, options: .backwards) {
                let tail = right[r.upperBound...].trimmingCharacters(in: .whitespaces)
                let op = sep.trimmingCharacters(in: .whitespaces)
                guard let k = Double(tail) else { return fail("expected a number after \"\(op)\", found \"\(tail)\"") }
                guard k.isFinite, abs(k) <= SceneLimits.coordinate else {
                    return fail("the constant after \"\(op)\" must be within ±\(limit(SceneLimits.coordinate)), found \(tail)")
                }
                c.constant = sign * k
                right = String(right[..<r.lowerBound])
                break
            }
        }
        if let star = right.firstIndex(of: "*") {
            let head = right[..<star].trimmingCharacters(in: .whitespaces)
            guard let m = Double(head) else { return fail("expected a number before *, found \"\(head)\"") }
            guard m.isFinite, m == 0 || (abs(m) <= LayoutConstraint.maxMultiplier && abs(m) >= LayoutConstraint.minMultiplier) else {
                return fail(
                    "the multiplier before * must be 0 or within \(limit(LayoutConstraint.minMultiplier)) to \(limit(LayoutConstraint.maxMultiplier)) in magnitude, found \(head)")
            }
            c.multiplier = m
            right = right[right.index(after: star)...].trimmingCharacters(in: .whitespaces)
        }
        var parts = right.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let refAttribute = attributes[parts.removeLast()] else {
            return fail("expected ITEM.ATTRIBUTE on the right (superview.leading, header.bottom, …) or a number")
        }
        if parts.count >= 2, parts.last == "margins" || parts.last == "safeArea" {
            c.guide = parts.removeLast() == "margins" ? .margins : .safeArea
        }
        let ref = parts.joined(separator: ".")
        guard !ref.isEmpty else { return fail("missing the item before .\(refAttribute)") }
        let dimension = { (a: LayoutConstraint.Attribute) in a == .width || a == .height }
        let vertical: Set<LayoutConstraint.Attribute> = [.top, .bottom, .centerY, .height]
        if dimension(attribute) != dimension(refAttribute) || (!dimension(attribute) && vertical.contains(attribute) != vertical.contains(refAttribute)) {
            return fail("\(attribute) cannot be related to \(refAttribute) (a position pairs with a position of its axis, a size with a size)")
        }
        if !dimension(attribute) && c.multiplier == 0 { return fail("a position cannot have a multiplier of 0") }
        c.ref = ref
        c.refAttribute = refAttribute
        return .success(c)
    }
}

/// `1e6`, `1e-6`, `1e15`: a power of ten as the messages write it.
private func limit(_ x: Double) -> String {
    for e in -30...30 where Double("1e\(e)") == x { return "1e\(e)" }
    return "\(x)"
}

/// Scene-file support for layout: the keys and the constraints pass of `makeWindow()`.
enum SceneLayout {
    /// The constraints of a node, parsed (the file's strings were checked when read).
    static func constraints(of node: SceneNode) -> [SceneConstraint] {
        guard case .array(let items)? = node.attributes["constraints"] else { return [] }
        return items.compactMap { item in
            guard case .string(let s) = item, case .success(let c) = SceneConstraint.parse(s) else { return nil }
            return c
        }
    }

    /// Every constraint's item names a node of the scene (`superview` not on the root).
    static func validateReferences(_ root: SceneNode) throws(SceneError) {
        guard hasConstraints(root) else { return }
        var ids = Set<String>()
        var stack = [root]
        while let n = stack.popLast() {
            ids.insert(n.id)
            stack.append(contentsOf: n.children)
        }
        var walk: [(SceneNode, Bool)] = [(root, true)]
        while let (n, isRoot) = walk.popLast() {
            for c in constraints(of: n) {
                guard let ref = c.ref else { continue }
                if ref == "superview" && isRoot {
                    throw SceneError(path: [n.id], message: "\"constraints\": the root has no superview")
                }
                if ref != "superview" && ref != "self" && !ids.contains(ref) {
                    throw SceneError(path: [n.id], message: "\"constraints\": no node has the id \"\(ref)\"")
                }
            }
            walk.append(contentsOf: n.children.map { ($0, false) })
        }
    }

    /// Whether any node has constraints (a walk without allocation per node beyond the stack).
    static func hasConstraints(_ root: SceneNode) -> Bool {
        var stack = [root]
        while let n = stack.popLast() {
            if n.attributes["constraints"] != nil { return true }
            stack.append(contentsOf: n.children)
        }
        return false
    }

    /// Activates the scene's constraints on the built views and lays the window out.
    static func applyConstraints(_ root: SceneNode, _ window: Window) {
        guard hasConstraints(root) else { return }
        var pairs: [(SceneNode, View)] = []
        var byID: [String: View] = [:]
        var stack: [(SceneNode, View)] = [(root, window)]
        while let (n, v) = stack.popLast() {
            byID[n.id] = v
            if n.attributes["constraints"] != nil { pairs.append((n, v)) }
            for (child, view) in zip(n.children, v.subviews) { stack.append((child, view)) }
        }
        var made: [LayoutConstraint] = []
        for (n, v) in pairs {
            v.translatesAutoresizingMaskIntoConstraints = false
            for c in constraints(of: n) {
                var other: AnyObject?
                if let ref = c.ref {
                    guard let target = ref == "superview" ? v.superview : ref == "self" ? v : byID[ref] else { continue }
                    switch c.guide {
                    case .none: other = target
                    case .margins: other = target.layoutMarginsGuide
                    case .safeArea: other = target.safeAreaLayoutGuide
                    }
                }
                let constraint = LayoutConstraint(
                    item: v, attribute: c.attribute, relatedBy: c.relation, toItem: other,
                    attribute: c.refAttribute, multiplier: other == nil ? 0 : c.multiplier, constant: c.constant)
                constraint.priority = LayoutPriority(c.priority)
                constraint.identifier = c.text  // reports name it as the file does
                made.append(constraint)
            }
        }
        LayoutConstraint.activate(made)
        window.layoutIfNeeded()
    }
}

extension SceneLayout {
    /// `window/table/cell-3`: the ids (accessibility identifiers) from the root to the view.
    static func path(of view: View) -> String {
        var ids: [String] = []
        var v: View? = view
        while let u = v {
            ids.append(u.accessibilityIdentifier ?? u.debugName)
            v = u.superview
        }
        return ids.reversed().joined(separator: "/")
    }

    /// A view's path, or a guide's: its owner's and the guide (`window/a.margins`).
    static func path(of item: AnyObject) -> String {
        if let v = item as? View { return path(of: v) }
        if let g = item as? LayoutGuide {
            let owner = g.owningView.map { path(of: $0) } ?? "?"
            if g === g.owningView?.layoutMarginsGuide { return owner + ".margins" }
            if g === g.owningView?.safeAreaLayoutGuide { return owner + ".safeArea" }
            return owner + "." + g.identifier
        }
        return "\(item)"
    }

    /// A constraint as the file has it, `window/a: "width == 100"`; one Auto Layout made (a
    /// view's autoresizing mask, its intrinsic size) or made in code: its description without
    /// its address.
    static func describe(_ c: LayoutConstraint) -> String {
        let owner = c.firstItem.map { path(of: $0) } ?? "?"
        if let text = c.identifier { return "\(owner): \"\(text)\"" }
        let d = c.description.replacingOccurrences(of: #":0x[0-9a-fA-F]+ "#, with: ": ", options: .regularExpression)
        return "\(owner): \(d)"
    }
}

extension LayoutConstraint.Issue {
    /// The issue in a scene file's terms, deterministic: the constraint and those it conflicts
    /// with as the file writes them, each with its node's path (`window/a: "width == 100"`), and
    /// for a conflict with the layout range, which frame value of which node would leave it:
    ///
    ///     window/a: "width == 200" conflicts with window/a: "width == 100"; not enforced
    ///     window/b: "width == 1e15" would put the width of window/a beyond ±1e15 (with
    ///     window/a: "width == 1e6*b.width"); not enforced
    public var sceneDescription: String {
        let subject = SceneLayout.describe(constraint)
        let others = conflicting.map(SceneLayout.describe).joined(separator: ", ")
        let outcome = isConstantChange ? "the change is refused" : "not enforced"
        if isOutOfRange {
            let what = outOfRangeItem.map { "the \(outOfRangeValue ?? "frame") of \(SceneLayout.path(of: $0))" } ?? "a frame value"
            let with = others.isEmpty ? "" : " (with \(others))"
            return "\(subject) would put \(what) beyond ±\(limit(LayoutConstraint.maxConstant))\(with); \(outcome)"
        }
        return "\(subject) conflicts with \(others.isEmpty ? "the constraints in place" : others); \(outcome)"
    }
}

extension SceneAttribute {
    /// `"layoutMargins": [top, left, bottom, right]` (default 8 on each side).
    static var layoutMargins: SceneAttribute { insets("layoutMargins", \View.layoutMargins, default: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)) }

    /// `"safeAreaInsets": [top, left, bottom, right]`: the root window's device insets.
    static var safeAreaInsets: SceneAttribute {
        SceneAttribute(
            key: "safeAreaInsets",
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                let values = try numbers(v, "safeAreaInsets")
                n.attributes["safeAreaInsets"] = values == [0, 0, 0, 0] ? nil : .array(values.map { .number($0, text: "") })
            },
            write: { $0.attributes["safeAreaInsets"] },
            apply: { n, v in
                guard let w = v as? Window, case .array(let a)? = n.attributes["safeAreaInsets"] else { return }
                let d = a.compactMap { if case .number(let x, _) = $0 { x } else { nil } }
                if d.count == 4 { w.safeAreaInsets = EdgeInsets(top: d[0], left: d[1], bottom: d[2], right: d[3]) }
            },
            capture: { v, n in
                guard let w = v as? Window, w.safeAreaInsets != .zero else { return }
                let s = w.safeAreaInsets
                n.attributes["safeAreaInsets"] = .array([s.top, s.left, s.bottom, s.right].map { .number($0, text: "") })
            },
            same: { $0.attributes["safeAreaInsets"] == $1.attributes["safeAreaInsets"] },
            check: { _ in nil })
    }

    /// `"constraints": ["leading == superview.leading + 16", …]` (the compact form above).
    static var constraints: SceneAttribute {
        SceneAttribute(
            key: "constraints",
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                guard case .array(let items) = v else { throw SceneError(path: [], message: "\"constraints\" must be an array of strings, found \(v.brief)") }
                for item in items {
                    guard case .string(let s) = item else { throw SceneError(path: [], message: "\"constraints\" must be an array of strings, found \(item.brief) in it") }
                    if case .failure(let e) = SceneConstraint.parse(s) { throw e }
                }
                n.attributes["constraints"] = items.isEmpty ? nil : v
            },
            write: { $0.attributes["constraints"] },
            apply: nil,
            capture: nil,
            same: { $0.attributes["constraints"] == $1.attributes["constraints"] },
            check: { _ in nil })
    }

    private static func numbers(_ v: SceneJSON, _ key: String) throws(SceneError) -> [Double] {
        guard case .array(let items) = v, items.count == 4 else {
            throw SceneError(path: [], message: "\"\(key)\" must be an array of 4 numbers [top, left, bottom, right], found \(v.brief)")
        }
        var out: [Double] = []
        for item in items {
            guard case .number(let d, _) = item, d.isFinite, abs(d) <= SceneLimits.coordinate else {
                throw SceneError(path: [], message: "\"\(key)\" must hold 4 numbers within ±1e15, found \(item.brief) in it")
            }
            out.append(d)
        }
        return out
    }

    private static func insets(_ key: String, _ view: ReferenceWritableKeyPath<View, EdgeInsets>, default d: EdgeInsets) -> SceneAttribute {
        func encode(_ e: EdgeInsets) -> SceneJSON { .array([e.top, e.left, e.bottom, e.right].map { .number($0, text: "") }) }
        return SceneAttribute(
            key: key,
            read: { (n: inout SceneNode, v: SceneJSON) throws(SceneError) in
                let x = try numbers(v, key)
                let e = EdgeInsets(top: x[0], left: x[1], bottom: x[2], right: x[3])
                n.attributes[key] = e == d ? nil : encode(e)
            },
            write: { $0.attributes[key] },
            apply: { n, v in
                guard case .array(let a)? = n.attributes[key] else { return }
                let x = a.compactMap { if case .number(let d, _) = $0 { d } else { nil } }
                if x.count == 4 { v[keyPath: view] = EdgeInsets(top: x[0], left: x[1], bottom: x[2], right: x[3]) }
            },
            capture: { v, n in
                let e = v[keyPath: view]
                n.attributes[key] = e == d ? nil : encode(e)
            },
            same: { $0.attributes[key] == $1.attributes[key] },
            check: { _ in nil })
    }
}
