import Foundation
import HitTestKit

// fuzz_scene.swift - libFuzzer harness for the scene-file loader and the two importers.
//
// Compiled with the HitTestScenes sources into one module, against HitTestKit built by itself. Any bytes
// must load or be refused with a SceneError, never crash; a scene that loads must build views,
// answer hit tests equal to the reference rules' basics (the index is checked against itself
// through the bulk path), and survive a save/load round trip.
//
//   scripts/fuzz.sh scene 60

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSceneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    var scenes: [SceneFile] = []
    if let scene = try? SceneFile(json: Data(bytes)) { scenes.append(scene) }
    if let imported = try? SceneImporter.recursiveDescription(text) { scenes.append(imported.scene) }
    if size < 4096, let imported = try? SceneImporter.pageSource(text) { scenes.append(imported.scene) }
    for scene in scenes.prefix(3) {
        // An importer's scene may hold numbers outside the scene format's range: refused by
        // validate() (what the CLI does) before any view is built.
        guard (try? scene.validate()) != nil else { continue }
        // Round trip.
        guard let again = try? SceneFile(json: scene.jsonData()), again == scene else { fatalError("round trip") }
        // Views, and the single and bulk paths agreeing.
        var nodes = 0
        var stack = [scene.root]
        while let n = stack.popLast() {
            nodes += 1
            stack.append(contentsOf: n.children)
        }
        guard nodes <= 2000 else { continue }
        let window = scene.makeWindow()
        let b = window.bounds
        let points = (0..<64).map { i in
            Point(x: b.minX + b.width * Double(i % 8) / 7, y: b.minY + b.height * Double(i / 8) / 7)
        }
        let bulk = window.hitTest(points)
        for (p, hit) in zip(points, bulk) where window.hitTest(p) !== hit { fatalError("bulk and single differ") }
    }
    return 0
}
