import Foundation
import HitTestKit

/// Where the tests find the repository and the build's products.
public enum TestPaths {
    /// The repository's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The directories where SwiftPM put this build's products, wherever the scratch path is
    /// (`swift test --scratch-path …`): the running test executable's own directory (Linux runs
    /// `<products>/<Package>PackageTests.xctest` itself), the test bundle's directory (macOS),
    /// then the default `.build` next to the package.
    public static func productDirectories() -> [URL] {
        var dirs: [URL] = []
        if let exe = Bundle.main.executableURL { dirs.append(exe.resolvingSymlinksInPath().deletingLastPathComponent()) }
        dirs.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            dirs.append(bundle.bundleURL.deletingLastPathComponent())
        }
        dirs += [".build/debug", ".build/release"].map { root.appendingPathComponent($0) }
        return dirs
    }
}

/// Points on each edge of `marker` (corners and middles, in its bounds space, converted to
/// `window`'s), each also moved by ±1e-12 and by one ulp in x and in y.
public func edgePoints(_ marker: View, in window: View) -> [Point] {
    let b = marker.bounds
    var out: [Point] = []
    for t in [0, 0.5, 1.0] {
        let local = [
            Point(x: b.minX + t * b.width, y: b.minY), Point(x: b.minX + t * b.width, y: b.maxY),
            Point(x: b.minX, y: b.minY + t * b.height), Point(x: b.maxX, y: b.minY + t * b.height),
        ]
        for l in local {
            let p = marker.convert(l, to: window)
            out += [
                p,
                Point(x: p.x - 1e-12, y: p.y), Point(x: p.x + 1e-12, y: p.y),
                Point(x: p.x, y: p.y - 1e-12), Point(x: p.x, y: p.y + 1e-12),
                Point(x: p.x.nextDown, y: p.y), Point(x: p.x, y: p.y.nextUp),
            ]
        }
    }
    return out
}
