import Foundation
@testable import HitTestScenes
import Testing

/// One scene contract for both loaders: the Swift loader (`SceneFile(json:)`) and the Python
/// package's (python/src/hittest/scene.py) accept and refuse the same files, with the same node
/// path and message. The corpus is Tests/Fixtures/scene-contract: `manifest.json` lists every
/// file (the repository's scene fixtures and one file per error case) with its outcome, and
/// python/tests/test_scene_contract.py runs the same manifest. The Python loader's key table
/// is generated from the Swift one, and checked here.
@Suite struct SceneContractTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let corpus = repository.appendingPathComponent("Tests/Fixtures/scene-contract")

    /// One entry of the manifest.
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        /// nil: accepted; else the error's path ("" for the file) and message.
        var error: (path: String, message: String)?
        var testDescription: String { file }
    }

    static func cases() throws -> [Case] {
        let data = try Data(contentsOf: corpus.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(manifest["cases"] as? [[String: Any]])
        return try list.map { entry in
            let file = try #require(entry["file"] as? String)
            if entry["accepted"] as? Bool == true { return Case(file: file) }
            let path = try #require(entry["path"] as? String, "\(file): no path")
            let message = try #require(entry["message"] as? String, "\(file): no message")
            return Case(file: file, error: (path, message))
        }
    }

    @Test("Every file of the corpus loads or fails as the manifest says", arguments: try cases())
    func corpusCase(_ c: Case) throws {
        let url = Self.corpus.appendingPathComponent(c.file)
        let data = try Data(contentsOf: url)
        do {
            let scene = try SceneFile(json: data)
            #expect(c.error == nil, "\(c.file): accepted, expected \(c.error.map { "\($0.path): \($0.message)" } ?? "")")
            // An accepted file builds its views (what a loaded scene promises).
            _ = scene.makeWindow()
        } catch {
            guard let expected = c.error else {
                Issue.record("\(c.file): refused: \(error)")
                return
            }
            #expect(error.path.joined(separator: "/") == expected.path, "\(c.file): \(error)")
            #expect(error.message == expected.message, "\(c.file): \(error)")
        }
    }

    @Test("Every file in the corpus folder is in the manifest, and every scene fixture of the repository")
    func manifestIsComplete() throws {
        let listed = Set(try Self.cases().map(\.file))
        let here = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
            .filter { $0 != "manifest.json" && $0 != "README.md" }
        for name in here { #expect(listed.contains(name), "\(name) is not in manifest.json") }
        for fixture in try Self.repositoryScenes() {
            #expect(listed.contains("../../../" + fixture), "\(fixture) (a scene file of the repository) is not in manifest.json")
        }
    }

    /// The scene files committed elsewhere in the repository: `.json` files that say
    /// `"format": "hittest-scene"` under Examples, Tests/Fixtures and python/tests/fixtures.
    static func repositoryScenes() throws -> [String] {
        var out: [String] = []
        for folder in ["Examples", "Tests/Fixtures", "python/tests/fixtures"] {
            let base = repository.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let name as String in walk where name.hasSuffix(".json") && !name.hasPrefix("scene-contract/") {
                let text = try String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)
                if text.contains("\"hittest-scene\"") { out.append("\(folder)/\(name)") }
            }
        }
        return out.sorted()
    }

    @Test("The Python loader's key table is the Swift table (SceneKeyTable), as generated")
    func pythonKeyTableIsGenerated() throws {
        let url = Self.repository.appendingPathComponent(SceneKeyTable.path)
        let text = SceneKeyTable.json
        if ProcessInfo.processInfo.environment["HITTEST_WRITE_FIXTURES"] == "1" {
            try Data(text.utf8).write(to: url)
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == text, "\(SceneKeyTable.path) is stale: rerun with HITTEST_WRITE_FIXTURES=1")
        // Every key of the Swift table is described, in the table's order.
        let keys = SceneAttributes.all.map(\.key)
        guard case .object(let table) = SceneKeyTable.value, case .array(let nodeKeys)? = table["nodeKeys"] else {
            Issue.record("no nodeKeys")
            return
        }
        var described: [String] = []
        for entry in nodeKeys {
            guard case .object(let o) = entry, case .string(let key)? = o["key"], case .string(let form)? = o["form"] else {
                Issue.record("bad entry \(entry)")
                continue
            }
            #expect(form != "undescribed", "\(key) has no form: describe it (SceneAttribute.described)")
            described.append(key)
        }
        #expect(described == keys)
    }
}
