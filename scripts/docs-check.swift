// Checks for scripts/docs.sh that DocC itself does not make: every public symbol written in the
// sources has a doc comment, and every top-level symbol is curated under a topic of the landing
// page (none falls into an automatic group). Prints the counts for the summary.
// Usage: swift scripts/docs-check.swift SYMBOL-GRAPH.json LANDING-PAGE.json
import Foundation

func load(_ path: String) -> [String: Any] {
    guard let data = FileManager.default.contents(atPath: path),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        FileHandle.standardError.write("docs-check: cannot read \(path)\n".data(using: .utf8)!)
        exit(2)
    }
    return object
}

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write("usage: docs-check.swift SYMBOL-GRAPH.json LANDING-PAGE.json\n".data(using: .utf8)!)
    exit(2)
}
let symbols = load(args[1])["symbols"] as? [[String: Any]] ?? []
let landing = load(args[2])

var problems: [String] = []
var topLevel: [String] = []
for symbol in symbols {
    let path = symbol["pathComponents"] as? [String] ?? []
    if path.count == 1 { topLevel.append(path[0]) }
    // Members the compiler synthesizes or the standard library supplies (hashValue, init(from:),
    // OptionSet's insert(_:)) have no location; everything written in the sources has one.
    if let location = symbol["location"] as? [String: Any], symbol["docComment"] == nil {
        let uri = (location["uri"] as? String ?? "").split(separator: "/").suffix(2).joined(separator: "/")
        let line = ((location["position"] as? [String: Any])?["line"] as? Int ?? 0) + 1
        problems.append("warning: \(uri):\(line): public symbol \(path.joined(separator: ".")) has no doc comment")
    }
}

var curated = Set<String>()
// DocC puts what no topic names into automatic sections (marked "generated": Classes, …).
for section in landing["topicSections"] as? [[String: Any]] ?? [] where section["generated"] as? Bool != true {
    for identifier in section["identifiers"] as? [String] ?? [] {
        // doc://BUNDLE/documentation/HitTestKit/Name
        let parts = identifier.split(separator: "/")
        if parts.count >= 2, parts[parts.count - 2] == "HitTestKit" { curated.insert(String(parts.last!)) }
    }
}
for name in topLevel.sorted() where !curated.contains(name) {
    problems.append("warning: HitTestKit.md: \(name) is not curated under a topic of the landing page")
}

for problem in problems { print(problem) }
print("symbols: \(symbols.count) in the symbol graph, \(topLevel.count) top-level, \(topLevel.count - topLevel.filter { !curated.contains($0) }.count) of them curated on the landing page")
exit(problems.isEmpty ? 0 : 1)
