import Foundation
import HitTestKit

extension HitTestCLI {
    /// What `query` writes: CSV `x,y,id` lines, or (`.i32`) one little-endian int32 per point,
    /// the index of the hit view in a `ViewTable` (-1 for no view).
    enum AnswerFormat: Sendable {
        case text(PointsCSV.Ids)
        case i32(ViewTable)
    }

    /// The views of a window's tree in a stable order: depth-first, each view before its
    /// subviews, subviews in `subviews` order (back to front), the window first, index 0. For a
    /// scene file this is the order in which the nodes' `"id"`s appear in the file, and the order
    /// of the Python package's handles (`hittest.load_scene(...).ids`). [ours]
    ///
    /// The `.i32` output of `query` holds indexes into this table; the table is written as text,
    /// one id a line (index = line number - 1).
    struct ViewTable: @unchecked Sendable {
        /// Per handle slot (`rawValue & 0xFFFFFF`): the handle there (-1: none) and its index.
        private var slotHandle: [Int32] = []
        private var slotIndex: [Int32] = []
        /// Handles whose slot is taken by another handle (not expected: one live view a slot).
        private var others: [Int32: Int32] = [:]
        /// The id of each view (`HitTestCLI.name`), by index.
        private(set) var ids: [String] = []

        /// The views of `window`'s tree, iteratively (any depth).
        init(window: Window) {
            var stack: [View] = [window]
            while let view = stack.popLast() {
                let index = Int32(ids.count)
                ids.append(HitTestCLI.name(view))
                let h = view.hitTestHandle.rawValue
                if h >= 0 {
                    let slot = Int(h & 0xFF_FFFF)
                    if slot >= slotHandle.count {
                        let grow = max(slot + 1, 2 * slotHandle.count) - slotHandle.count
                        slotHandle += [Int32](repeating: -1, count: grow)
                        slotIndex += [Int32](repeating: -1, count: grow)
                    }
                    if slotHandle[slot] < 0 {
                        slotHandle[slot] = h
                        slotIndex[slot] = index
                    } else if slotHandle[slot] != h {
                        others[h] = index
                    }
                }
                stack.append(contentsOf: view.subviews.reversed())
            }
        }

        /// The index of the view behind `handle`; -1 for no view (and for a view outside the
        /// tree, which a hit-test handler could return: its text id would be empty too).
        @inline(__always) func index(_ handle: HitTestHandle) -> Int32 {
            let h = handle.rawValue
            guard h >= 0 else { return -1 }
            let slot = Int(h & 0xFF_FFFF)
            if slot < slotHandle.count && slotHandle[slot] == h { return slotIndex[slot] }
            return others[h] ?? -1
        }

        /// `handles[0..<count]` as little-endian indexes at `out` (room for `count` int32s).
        /// Returns false when a handle is `needsHandler` (written as -1: to be resolved and
        /// written again).
        @discardableResult
        func write(_ handles: UnsafePointer<HitTestHandle>, _ count: Int, into out: UnsafeMutableRawPointer) -> Bool {
            let needsHandler = HitTestHandle.needsHandler.rawValue
            var resolved = true
            slotHandle.withUnsafeBufferPointer { sh in
                slotIndex.withUnsafeBufferPointer { si in
                    let n = sh.count
                    for i in 0..<count {
                        let h = handles[i].rawValue
                        var v: Int32 = -1
                        if h >= 0 {
                            let slot = Int(h & 0xFF_FFFF)
                            v = slot < n && sh[slot] == h ? si[slot] : (others[h] ?? -1)
                        } else if h == needsHandler {
                            resolved = false
                        }
                        out.storeBytes(of: v.littleEndian, toByteOffset: 4 * i, as: Int32.self)
                    }
                }
            }
            return resolved
        }

        /// Characters Python's `str.splitlines()` ends a line at (the table must split back into
        /// exactly its ids).
        static func breaksLine(_ s: Unicode.Scalar) -> Bool {
            switch s.value {
            case 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }

        /// The table file: one id a line, each line ended by LF. An id that holds a line break
        /// (LF, CR, or any other character `splitlines()` breaks at) is refused, naming the
        /// view, since the table could not be read back line by line. [ours]
        func text() throws -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(ids.reduce(0) { $0 + $1.utf8.count + 1 })
            for (k, id) in ids.enumerated() {
                if id.unicodeScalars.contains(where: Self.breaksLine) {
                    let shown = id.unicodeScalars.prefix(40).map { Self.breaksLine($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
                    throw Failure(message: "view \(k) has an id with a line break (\"\(shown)\"); the .i32 output's view table holds one id a line: use the CSV output")
                }
                out += id.utf8
                out.append(0x0A)
            }
            return out
        }
    }
}
