import Foundation
import HitTestKit

// fuzz_constraints.swift - libFuzzer harness for the scene constraint parser and the layout it
// drives.
//
// Compiled with the HitTestScenes sources into one module, against HitTestKit built by itself.
// Each input line is a constraint in the scene's compact form, given in turn to one of three
// nodes (a chain a → b → c under a window). Any text must parse or be refused with a message
// naming it; a scene that loads must validate, lay out and answer a hit test without a trap,
// whatever the numbers (a layout result out of range is an error, never a trap or a frame).
//
//   scripts/fuzz.sh constraints 60

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConstraintInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = TextLineReader.lines(of: text).prefix(24).map(String.init)
    var perNode: [[String]] = [[], [], []]
    for (k, line) in lines.enumerated() {
        switch SceneConstraint.parse(line) {
        case .success: perNode[k % 3].append(line)
        case .failure(let error): guard !error.message.isEmpty else { fatalError("an empty message") }
        }
    }
    guard let encoded = try? JSONEncoder().encode(perNode),
        let json = String(data: encoded, encoding: .utf8)
    else { return 0 }
    _ = json
    func node(_ id: String, _ k: Int, _ children: String) -> String {
        let constraints = (try? JSONEncoder().encode(perNode[k])).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
        return #"{ "id": "\#(id)", "frame": [0, 0, 10, 10], "constraints": \#(constraints), "children": [\#(children)] }"#
    }
    let scene = #"{ "format": "hittest-scene", "version": 1, "root": { "id": "window", "frame": [0, 0, 390, 844], "children": ["#
        + node("a", 0, node("b", 1, node("c", 2, ""))) + "] } }"
    guard let file = try? SceneFile(json: Data(scene.utf8)), (try? file.validate()) != nil else { return 0 }
    let window = file.makeWindow()
    window.layoutIfNeeded()
    _ = window.hitTest(Point(x: 5, y: 5))
    return 0
}
