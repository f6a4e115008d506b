import CHitTest
import Foundation
import HitTestKit
import HitTestTestSupport
import Testing

/// The binary snapshot file: round trips keep handles and answers; damaged input is an error.
@Suite struct SnapshotFileTests {
    /// A random tree built through the C API, with its root.
    static func randomTree(seed: UInt64, nodes: Int) -> (OpaquePointer, ht_node) {
        var rng = SeededGenerator(seed: seed)
        var t: OpaquePointer?
        _ = ht_tree_create(0, &t)
        var all: [ht_node] = []
        for i in 0..<nodes {
            var n: ht_node = -1
            _ = ht_node_create(t, &n)
            _ = ht_node_set_bounds(t, n, rng.coordinate(-20...20), rng.coordinate(-20...20), rng.coordinate(0...300), rng.coordinate(0...300))
            _ = ht_node_set_center(t, n, rng.coordinate(0...390), rng.coordinate(0...844))
            if rng.chance(0.2) {
                var m = ht_affine(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: rng.coordinate(-5...5), ty: 0)
                _ = ht_node_set_transform(t, n, &m)
            }
            if rng.chance(0.1) { _ = ht_node_set_flags(t, n, UInt32(HT_FLAG_PASS_THROUGH)) }
            if rng.chance(0.1) { _ = ht_node_set_insets(t, n, -4, -4, -4, -4) }
            _ = ht_node_set_priority(t, n, Int32(Int.random(in: -1...1, using: &rng)))
            if i > 0 { _ = ht_node_attach(t, n, all[Int.random(in: 0..<all.count, using: &rng)], Int32.max) }
            all.append(n)
        }
        // Free a few so that the file has dead slots and generations.
        for _ in 0..<(nodes / 10) {
            let i = Int.random(in: 1..<all.count, using: &rng)
            _ = ht_node_free(t, all[i])
        }
        return (t!, all[0])
    }

    static func answers(_ t: OpaquePointer?, _ root: ht_node, _ points: [Double]) -> [ht_node] {
        var out = [ht_node](repeating: 0, count: points.count / 2)
        var xy = points
        #expect(ht_tree_prepare(t) == HT_OK)  // queries only read a prepared tree
        #expect(ht_tree_hit_test_points(t, root, &xy, out.count, nil, &out) == HT_OK)
        return out
    }

    @Test(arguments: 0..<20)
    func roundTripKeepsHandlesAndAnswers(seed: Int) throws {
        let (t, root) = Self.randomTree(seed: UInt64(seed), nodes: 200)
        defer { ht_tree_destroy(t) }
        var rng = SeededGenerator(seed: UInt64(seed) + 99)
        let points = (0..<1000).flatMap { _ in [rng.coordinate(-10...400), rng.coordinate(-10...860)] }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(ht_tree_save(t, &buffer, &length) == HT_OK)
        defer { ht_free(buffer) }
        var copy: OpaquePointer?
        #expect(ht_tree_load(buffer, length, &copy) == HT_OK)
        defer { ht_tree_destroy(copy) }
        #expect(Self.answers(copy, root, points) == Self.answers(t, root, points))
        #expect(ht_tree_validate(copy) == HT_OK)
        var n1: Int32 = 0, n2: Int32 = 0
        #expect(ht_tree_node_count(t, &n1) == HT_OK && ht_tree_node_count(copy, &n2) == HT_OK && n1 == n2)
        // The loaded tree is fully usable: mutate it.
        var fresh: ht_node = -1
        #expect(ht_node_create(copy, &fresh) == HT_OK)
        #expect(ht_node_attach(copy, fresh, root, 0) == HT_OK)
        // Saving the copy again gives a file that loads to the same answers.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snap-\(seed)-\(UUID()).htsnap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(ht_tree_save_file(copy, path) == HT_OK)
        var again: OpaquePointer?
        #expect(ht_tree_load_file(path, &again) == HT_OK)
        defer { ht_tree_destroy(again) }
        #expect(Self.answers(again, root, points) == Self.answers(copy, root, points))
    }

    @Test(arguments: 0..<10)
    func damagedFilesAreErrors(seed: Int) {
        let (t, _) = Self.randomTree(seed: UInt64(seed) + 500, nodes: 60)
        defer { ht_tree_destroy(t) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        #expect(ht_tree_save(t, &buffer, &length) == HT_OK)
        defer { ht_free(buffer) }
        let good = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        var rng = SeededGenerator(seed: UInt64(seed))
        func load(_ bytes: [UInt8]) -> ht_status {
            var out: OpaquePointer?
            let st = bytes.withUnsafeBytes { ht_tree_load($0.baseAddress, bytes.count, &out) }
            if st == HT_OK { ht_tree_destroy(out) }
            return st
        }
        #expect(load(good) == HT_OK)
        // Every truncation, a sample of single-bit flips, and garbage.
        for cut in stride(from: 0, to: good.count, by: max(1, good.count / 200)) {
            #expect(load(Array(good.prefix(cut))) == HT_E_CORRUPT, "truncated at \(cut)")
        }
        for _ in 0..<200 {
            var bad = good
            let i = Int.random(in: 0..<bad.count, using: &rng)
            bad[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            #expect(load(bad) == HT_E_CORRUPT, "bit flipped at byte \(i)")
        }
        #expect(load((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }) == HT_E_CORRUPT)
        #expect(load(good + [0]) == HT_E_CORRUPT)
    }

    /// A hostile file with a valid checksum: links forming a cycle must still be refused.
    @Test func cyclicLinksWithAValidChecksumAreRefused() {
        var t: OpaquePointer?
        _ = ht_tree_create(0, &t)
        defer { ht_tree_destroy(t) }
        var a: ht_node = -1, b: ht_node = -1
        _ = ht_node_create(t, &a)
        _ = ht_node_create(t, &b)
        _ = ht_node_attach(t, b, a, 0)
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        _ = ht_tree_save(t, &buffer, &length)
        defer { ht_free(buffer) }
        var bytes = Array(UnsafeRawBufferPointer(start: buffer, count: length))
        // Record of slot 0 (a): parent = 1 (b); first = last = 1; prev = next = -1; nkids 1.
        // Make b also a's child and a b's child: a <-> b.
        func put(_ record: Int, _ field: Int, _ value: Int32) {
            let at = 32 + record * 188 + 4 + 4 * field
            withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { bytes[at + i] = byte } }
        }
        put(0, 0, 1)  // a.parent = b
        put(1, 1, 0)  // b.first = a
        put(1, 2, 0)  // b.last = a
        put(1, 5, 1)  // b.nkids = 1
        // Re-seal the checksum (FNV-1a 64 of the records).
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes[32...] {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        withUnsafeBytes(of: h.littleEndian) { for (i, byte) in $0.enumerated() { bytes[24 + i] = byte } }
        var out: OpaquePointer?
        #expect(bytes.withUnsafeBytes { ht_tree_load($0.baseAddress, bytes.count, &out) } == HT_E_CORRUPT)
    }

    /// Inputs the fuzzers found, kept as regressions: each must be refused.
    @Test func fuzzerRegressionsAreRefused() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let dir = root.appendingPathComponent("Fuzz/regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("snapshot-") }
        #expect(!files.isEmpty)
        for file in files {
            var out: OpaquePointer?
            #expect(ht_tree_load_file(dir.appendingPathComponent(file).path, &out) == HT_E_CORRUPT, "\(file)")
        }
    }

    @Test func missingFilesAreIOErrors() {
        var out: OpaquePointer?
        #expect(ht_tree_load_file("/nonexistent/dir/x.htsnap", &out) == HT_E_IO)
        // A directory opens but cannot be read (it used to report a size no allocation met:
        // "no memory").
        #expect(ht_tree_load_file(FileManager.default.temporaryDirectory.path, &out) == HT_E_IO)
        var t: OpaquePointer?
        _ = ht_tree_create(0, &t)
        defer { ht_tree_destroy(t) }
        #expect(ht_tree_save_file(t, "/nonexistent/dir/x.htsnap") == HT_E_IO)
    }

    /// The plain-C example program, built as its own target, prints what it should.
    @Test func cExampleProgramRuns() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = try #require(
            TestPaths.productDirectories()
                .map { $0.appendingPathComponent("hittest-c-example") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "hittest-c-example was not built")
        let process = Process()
        process.executableURL = binary
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let expected = try String(contentsOf: root.appendingPathComponent("Examples/c-example/expected-output.txt"), encoding: .utf8)
        #expect(output == expected)
    }
}
