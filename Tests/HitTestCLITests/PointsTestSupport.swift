import Foundation
import HitTestKit
import HitTestSampleScenes
import HitTestScenes

@testable import HitTestCLI

/// The moved-root scenes the points tests share (`PointsStreamRootTests`, `PointsI32Tests`): a
/// scrolled root (the one-pass path shifts each point) and a transformed root (the two-pass path,
/// `Screen.toRoot` per point), with 70,000 random quarter points around them written as a CSV
/// and a `.f64` file, and each point's expected id (the window's own hit test of the point in
/// root space). Quarter points keep every shift and scale exact, so all paths see the same
/// points.
struct MovedRootFixture {
    static let scrolled = #"""
        {"format":"hittest-scene","version":1,"root":{"id":"table","frame":[0,100,200,300],"bounds":[0,1200,200,300],"children":[
          {"id":"top","frame":[0,1200,200,50]},
          {"id":"rest","frame":[0,1250,200,250],"children":[{"id":"cell","frame":[20,1300,50,50]}]}]}}
        """#
    static let scaled = #"""
        {"format":"hittest-scene","version":1,"root":{"id":"root","frame":[0,0,200,200],"transform":[0.5,0,0,0.5,10,0],"children":[
          {"id":"left","frame":[0,0,100,200]},
          {"id":"dot","frame":[150,50,20,20]}]}}
        """#

    /// The scene file.
    let scenePath: String
    let window: Window
    let points: [Point]
    /// The id the CLI should give each point (empty: nothing hit).
    let expected: [String]
    /// The points as files: ("p.csv", path) and ("p.f64", path).
    let inputs: [(name: String, path: String)]

    init(_ json: String, seed: UInt64) throws {
        scenePath = SceneAndCLITests.temp("scene.json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: scenePath))
        let window = try SceneFile(json: Data(json.utf8)).makeWindow()
        var rng = SplitMix64(seed: seed)
        var points: [Point] = []
        for _ in 0..<70_000 { points.append(Point(x: Double(rng.next() % 1000) / 4 - 20, y: Double(rng.next() % 1800) / 4 - 20)) }
        expected = points.map { HitTestCLI.name(window.hitTest(HitTestCLI.Screen.toRoot($0, window))) }
        var csv = "x,y\n", f64 = Data()
        for p in points {
            csv += "\(p.x),\(p.y)\n"
            for v in [p.x, p.y] { withUnsafeBytes(of: v.bitPattern.littleEndian) { f64.append(contentsOf: $0) } }
        }
        var inputs: [(name: String, path: String)] = []
        for (name, data) in [("p.csv", Data(csv.utf8)), ("p.f64", f64)] {
            let path = SceneAndCLITests.temp(name)
            try data.write(to: URL(fileURLWithPath: path))
            inputs.append((name, path))
        }
        self.window = window
        self.points = points
        self.inputs = inputs
    }
}
