import Foundation
import HitTestTestSupport
import Testing

// The layers' direction, beyond what the targets' graph enforces: the compiler keeps the core
// from importing a higher layer; this keeps its text (comments included) from naming one's
// types, so the core reads as the core alone.

@Suite struct LayeringTests {
    /// The Swift files under `Sources/<module>`.
    private func sources(of module: String) throws -> [(path: String, text: String)] {
        let dir = TestPaths.root.appendingPathComponent("Sources/\(module)")
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { ($0.path, try String(contentsOf: $0, encoding: .utf8)) }
    }

    /// The names of the types a module declares at top level.
    private func topLevelTypes(of module: String) throws -> Set<String> {
        let declaration = try Regex(
            #"(?m)^(?:(?:public|open|package|internal|fileprivate|private|final)\s+)*(?:class|struct|enum|protocol|actor)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        var names = Set<String>()
        for (_, text) in try sources(of: module) {
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { names.insert(String(name)) }
            }
        }
        return names
    }

    /// No file of HitTestCore names a type HitTestInput declares (the application, the
    /// pipeline's stages, the engine, the concrete recognizers, controls, scroll views, …).
    @Test func theCoreNamesNoTypeOfTheInputLayer() throws {
        let inputTypes = try topLevelTypes(of: "HitTestInput")
        #expect(inputTypes.contains("Application") && inputTypes.contains("GestureEngine") && inputTypes.count > 20)
        var found: [String] = []
        for (path, text) in try sources(of: "HitTestCore") {
            for name in inputTypes {
                let word = try Regex("\\b\(name)\\b")
                if text.contains(word) { found.append("\(URL(fileURLWithPath: path).lastPathComponent): \(name)") }
            }
        }
        #expect(found.isEmpty, "the core names input types: \(found.sorted())")
    }
}
