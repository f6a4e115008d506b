/// The scene format's key table as data, for the scene loader in another language.
///
/// The Swift loader is driven by `SceneAttributes.all` (node keys), `SceneRecognizers` and
/// `SceneAnimation`; the Python package (python/src/hittest) cannot read Swift, so it reads this
/// table from `scene_keys.json`, a file generated from it: every node key in table order with
/// its form (`bool`, `integer`, `numbers` with limits, `kind`, …), the kinds a key needs, the
/// recognizer types with each key's range, the animation keys and curves, and the limits.
/// `SceneContractTests` fails when the committed file differs from `json` (rerun it with
/// `HITTEST_WRITE_FIXTURES=1` to write it), so the two tables cannot drift apart; the shared
/// corpus (Tests/Fixtures/scene-contract) checks that both loaders read every form alike.
enum SceneKeyTable {
    /// Where the generated file lives, from the repository's root.
    static let path = "python/src/hittest/scene_keys.json"

    /// The table.
    static var value: SceneJSON {
        let nodeKeys: [SceneJSON] = SceneAttributes.all.map { a in
            guard case .object(var o) = a.form else { return .object(["key": .string(a.key), "form": .string("undescribed")]) }
            o["key"] = .string(a.key)
            return .object(o)
        }
        func n(_ d: Double) -> SceneJSON { .number(d, text: "") }
        return .object([
            "about": .string(
                "Generated from SceneAttributes.all (Sources/HitTestScenes/SceneKeyTable.swift); do not edit. "
                    + "Rewrite it with: HITTEST_WRITE_FIXTURES=1 swift test --filter SceneContract"),
            "topLevelKeys": .array(["format", "version", "root", "animations"].map { .string($0) }),
            "limits": .object(["coordinate": n(SceneLimits.coordinate), "anchor": n(SceneLimits.anchor), "scale": n(SceneLimits.scale)]),
            "maxValueDepth": n(Double(SceneJSON.maxValueDepth)),
            "nodeKeys": .array(nodeKeys),
            "recognizers": SceneRecognizers.table,
            "animations": SceneAnimation.table,
        ])
    }

    /// The file's text: sorted keys, a value on one line when it fits in 100 characters.
    static var json: String {
        var out = ""
        write(value, level: 0, into: &out)
        return out + "\n"
    }

    private static func inline(_ v: SceneJSON) -> String {
        var w = SceneJSONWriter()
        w.value(v)
        return String(decoding: w.out, as: UTF8.self)
    }

    // Recursion is bounded by the table's own depth (four levels), not by input.
    private static func write(_ v: SceneJSON, level: Int, into out: inout String) {
        let one = inline(v)
        let pad = String(repeating: "  ", count: level + 1)
        switch v {
        case .object(let o) where one.count + 2 * level > 100:
            out += "{"
            for (k, key) in o.keys.sorted().enumerated() {
                out += (k > 0 ? ",\n" : "\n") + pad + inline(.string(key)) + ": "
                write(o[key]!, level: level + 1, into: &out)
            }
            out += "\n" + String(repeating: "  ", count: level) + "}"
        case .array(let a) where one.count + 2 * level > 100:
            out += "["
            for (k, item) in a.enumerated() {
                out += (k > 0 ? ",\n" : "\n") + pad
                write(item, level: level + 1, into: &out)
            }
            out += "\n" + String(repeating: "  ", count: level) + "]"
        default:
            out += one
        }
    }
}
