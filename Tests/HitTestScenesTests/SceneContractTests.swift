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
            .filter { $0 != "manifest.json" && $0 != "make_corpus.py" }
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

/// Imported dumps in the wrong encoding are refused saying so, never read into warnings full of
/// NUL bytes (issue 24, item 14).
@Suite struct ImportEncodingTests {
    static func dump() throws -> String {
        try String(contentsOf: SceneContractTests.repository.appendingPathComponent("Tests/Fixtures/lldb-sentry-sample-app.txt"), encoding: .utf8)
    }

    /// The text the CLI hands the importer: the file's bytes decoded leniently.
    static func lenient(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func utf16(_ s: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
        var out: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for u in s.utf16 {
            let pair = [UInt8(u >> 8), UInt8(u & 0xFF)]
            out += bigEndian ? pair : pair.reversed()
        }
        return out
    }

    @Test(arguments: [(false, true), (true, true), (false, false), (true, false)])
    func utf16DumpsAreRefused(bigEndian: Bool, bom: Bool) throws {
        let text = Self.lenient(Self.utf16(try Self.dump(), bigEndian: bigEndian, bom: bom))
        do {
            _ = try SceneImporter.importScene(text)
            Issue.record("imported a UTF-16 dump")
        } catch {
            #expect(error.error.message.hasPrefix("the file is UTF-16 ("), "\(error)")
            #expect(error.error.message.hasSuffix("a view dump must be UTF-8: convert it (e.g. iconv -f UTF-16 -t UTF-8)"))
            #expect(error.warnings.isEmpty && !error.description.contains("\0"))
        }
        #expect(throws: SceneError.self) { try SceneImporter.recursiveDescription(text) }
    }

    @Test func binaryInputIsRefusedAtItsFirstNulByte() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        do {
            _ = try SceneImporter.importScene(Self.lenient(png))
            Issue.record("imported a PNG")
        } catch {
            #expect(error.error.message == "the file holds a NUL byte at line 3, column 1: a view dump is text (is this a binary file?)")
            #expect(error.warnings.isEmpty)
        }
        #expect(throws: SceneError.self) { try SceneImporter.pageSource("<?xml version=\"1.0\"?>\0<AppiumAUT/>") }
    }

    @Test func utf8DumpsStillImport() throws {
        let dump = try Self.dump()
        let plain = try SceneImporter.importScene(dump)
        let withMark = try SceneImporter.importScene("\u{FEFF}" + dump)
        #expect(plain.scene.root.children.count > 0 && withMark.scene == plain.scene)
    }
}
