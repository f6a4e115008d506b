import Foundation
import HitTestKit

extension HitTestCLI {
    /// The bytes of an input file: a regular file is mapped (no copy, no fresh memory to
    /// fault in), anything else (`-`, pipes, devices) is read into memory.
    ///
    /// A mapped file that another process truncates while it is read ends the process with
    /// SIGBUS, as for any tool that maps its input.
    final class InputBytes: @unchecked Sendable {
        /// The first byte (nil when empty).
        let base: UnsafePointer<UInt8>?
        /// Bytes.
        let count: Int
        private let mapped: Bool

        init(_ path: String, _ output: Output) throws {
            if path != "-" {
                let fd = open(path, O_RDONLY)
                if fd >= 0 {
                    defer { close(fd) }
                    var st = stat()
                    if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 {
                        #if os(Linux)
                            let flags = MAP_PRIVATE | MAP_POPULATE
                        #else
                            let flags = MAP_PRIVATE
                        #endif
                        if let m = mmap(nil, Int(st.st_size), PROT_READ, flags, fd, 0), m != MAP_FAILED {
                            _ = madvise(m, Int(st.st_size), MADV_SEQUENTIAL)
                            base = UnsafePointer(m.assumingMemoryBound(to: UInt8.self))
                            count = Int(st.st_size)
                            mapped = true
                            return
                        }
                    }
                }
            }
            // Not mappable: read (which also gives the error messages for missing files).
            let data = try read(path, output)
            count = data.count
            mapped = false
            if data.isEmpty {
                base = nil
            } else {
                let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: data.count)
                data.copyBytes(to: copy, count: data.count)
                base = UnsafePointer(copy)
            }
        }

        deinit {
            guard let base else { return }
            if mapped {
                munmap(UnsafeMutableRawPointer(mutating: base), count)
            } else {
                UnsafeMutablePointer(mutating: base).deallocate()
            }
        }

        /// The bytes as a buffer (empty when there are none).
        var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count) }
    }

    /// `query` as one pass: the input is cut into pieces that worker threads parse, hit-test
    /// (against a `HitTestSnapshot`, one thread per piece) and format into their own buffer, while
    /// the calling thread writes the buffers in input order with one `write(2)` each. The points
    /// and answers of a piece stay in the cache; no array of all points or answers is made.
    ///
    /// Points whose answer needs a handler (`HitTestHandle.needsHandler`) are resolved by the
    /// calling thread, which owns the views, before that piece is formatted.
    enum PointsStream {
        /// Input bytes that the workers read (and nobody writes) while the run lasts.
        struct SharedBytes: @unchecked Sendable {
            let raw: UnsafeRawPointer
            let count: Int
            var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: raw, count: count) }
        }

        /// Target CSV piece size (a piece ends just after a newline).
        static let csvPieceBytes = 512 << 10
        /// Points per `.f64` piece.
        static let binaryPiecePoints = 1 << 15

        /// One piece's buffers and result; owned by one worker between claim and `ready`, then
        /// by the writer until it is released.
        final class Slot {
            var points = UnsafeMutablePointer<Point>.allocate(capacity: 1)
            var pointCapacity = 1
            var handles = UnsafeMutablePointer<HitTestHandle>.allocate(capacity: 1)
            /// Where each point's line is in the piece (CSV input).
            var extents = UnsafeMutablePointer<PointsCSV.LineExtent>.allocate(capacity: 1)
            var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
            var byteCapacity = 1
            /// Points of the piece, output bytes, and whether it was formatted.
            var count = 0
            var used = 0
            var formatted = false
            /// A parse failure: the line (1-based in the piece) and its text.
            var failure: (Int, String)?
            var ready = false
            /// The piece with its lone CRs made LFs, when it has any (`PointsCSV.loneCR`): the
            /// text its extents point into.
            var normalized: UnsafeMutablePointer<UInt8>?

            /// The piece's text: `original`, or its normalized copy.
            func text(_ original: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> { normalized.map { UnsafePointer($0) } ?? original }

            func reservePoints(_ n: Int) {
                guard n > pointCapacity else { return }
                points.deallocate()
                handles.deallocate()
                extents.deallocate()
                points = .allocate(capacity: n)
                handles = .allocate(capacity: n)
                extents = .allocate(capacity: n)
                pointCapacity = n
            }

            func reserveBytes(_ n: Int) {
                guard n > byteCapacity else { return }
                bytes.deallocate()
                bytes = .allocate(capacity: n)
                byteCapacity = n
            }

            deinit {
                points.deallocate()
                handles.deallocate()
                extents.deallocate()
                bytes.deallocate()
                normalized?.deallocate()
            }
        }

        /// What the workers and the writer share. `slots[k % slots.count]` holds piece k from its
        /// claim until the writer has written it; the condition guards `next`, `written`,
        /// `stop`, `active` and each slot's `ready`.
        final class Shared: @unchecked Sendable {
            let condition = NSCondition()
            let slots: [Slot]
            let pieces: Int
            var next = 0
            var written = 0
            var stop = false
            /// Workers between claiming a piece and marking it ready.
            var active = 0

            init(slots: Int, pieces: Int) {
                self.slots = (0..<slots).map { _ in Slot() }
                self.pieces = pieces
            }
        }

        /// Runs `work(k, slot)` for every piece on worker threads and `write(k, slot)` for each
        /// piece in order on the calling thread, which also works on the next piece when no
        /// worker has taken it (so the run finishes even if no worker thread ever starts). A
        /// throwing `write` stops the workers (after their current piece) and is rethrown once
        /// they have finished.
        static func run(
            pieces: Int, work: @escaping @Sendable (Int, Slot) -> Void, write: (Int, Slot) throws -> Void
        ) throws {
            guard pieces > 0 else { return }
            let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, pieces))
            let shared = Shared(slots: 2 * workers + 2, pieces: pieces)
            for _ in 0..<workers {
                DispatchQueue.global().async {
                    let c = shared.condition
                    c.lock()
                    while true {
                        let k = shared.next
                        guard k < shared.pieces, !shared.stop else { break }
                        shared.next += 1
                        shared.active += 1
                        // The slot is free once the piece that used it before has been written.
                        while shared.written <= k - shared.slots.count && !shared.stop { c.wait() }
                        if shared.stop {
                            shared.active -= 1
                            c.broadcast()
                            break
                        }
                        let slot = shared.slots[k % shared.slots.count]
                        c.unlock()
                        work(k, slot)
                        c.lock()
                        slot.ready = true
                        shared.active -= 1
                        c.broadcast()
                    }
                    c.unlock()
                }
            }
            var failure: Error?
            let c = shared.condition
            for k in 0..<pieces {
                let slot = shared.slots[k % shared.slots.count]
                c.lock()
                if shared.next == k {
                    // No worker has taken this piece yet (they may not have started: the
                    // threads of the pool can be busy): do it here, so the run never waits on
                    // a thread that does not come. Its slot is free (k - 1 is written).
                    shared.next += 1
                    c.unlock()
                    work(k, slot)
                    c.lock()
                    slot.ready = true
                }
                while !slot.ready { c.wait() }
                c.unlock()
                do {
                    try write(k, slot)
                } catch {
                    failure = error
                }
                c.lock()
                slot.ready = false
                shared.written = k + 1
                if failure != nil { shared.stop = true }
                c.broadcast()
                c.unlock()
                if failure != nil { break }
            }
            // Workers still on a piece (after a failure) read the input: wait for them. Workers
            // that have not started find nothing left and touch nothing but `shared`.
            c.lock()
            shared.stop = true
            c.broadcast()
            while shared.active > 0 { c.wait() }
            c.unlock()
            if let failure { throw failure }
        }

        /// A piece's lines `x,y,id`, from the input text and the answers (see
        /// `PointsCSV.formatLines`), into the slot's byte buffer.
        static func format(_ p: UnsafePointer<UInt8>, _ n: Int, first: Bool, _ slot: Slot, _ ids: PointsCSV.Ids) {
            slot.reserveBytes(n + slot.count * (ids.longest + 2) + 64)
            slot.used = n <= UInt32.max
                ? PointsCSV.formatPoints(p, n, extents: slot.extents, handles: slot.handles, count: slot.count, ids: ids, into: slot.bytes)
                : PointsCSV.formatLines(p, n, first: first, handles: slot.handles, count: slot.count, ids: ids, into: slot.bytes)
            slot.formatted = true
        }

        /// `query` for a CSV input whose window has no transform: parse, hit-test and write in one
        /// pass (see `PointsStream`). `screen`: the root's conversion from the screen, applied to
        /// each point (`Screen.toRoot`'s arithmetic). Returns the number of points.
        static func csv(
            _ input: UnsafeRawBufferPointer, name: String, window: Window, screen: LevelConversion,
            answers: AnswerFormat? = nil, to w: inout FileWriter, progress: Progress
        ) throws -> Int {
            let answers = answers ?? .text(PointsCSV.Ids(allViewsOf: window))
            if case .text = answers { try w.write(Array("x,y,id\n".utf8)) }
            guard let raw = input.baseAddress, input.count > 0 else { return 0 }
            let base = raw.assumingMemoryBound(to: UInt8.self)
            let n = input.count
            let cuts = PointsCSV.cuts(base, n, piece: csvPieceBytes)
            let snapshot = window.makeHitTestSnapshot()
            let moved = !screen.isNoOp, inverse = screen.inverse
            let input = SharedBytes(raw: UnsafeRawPointer(base), count: n)
            let text: Bool
            if case .text = answers { text = true } else { text = false }
            let work: @Sendable (Int, Slot) -> Void = { k, slot in
                let s = cuts[k], len = cuts[k + 1] - s
                var p = input.raw.assumingMemoryBound(to: UInt8.self) + s
                // A point needs at least "d,d" and, but for the last line, a newline.
                slot.reservePoints(len / 4 + 2)
                slot.normalized?.deallocate()
                slot.normalized = nil
                // Line extents for the text output (pieces under 4 GB: always, but for a line that long).
                var (count, failure) = PointsCSV.chunk(
                    p, len, header: k == 0, into: slot.points, capacity: slot.pointCapacity,
                    extents: text && len <= UInt32.max ? slot.extents : nil)
                if failure?.0 == PointsCSV.loneCR, let copy = PointsCSV.normalizingLoneCRs(p, len) {
                    // Lone CRs: the piece again, its lone CRs made LFs (a lone CR never ends a piece).
                    slot.normalized = copy
                    p = UnsafePointer(copy)
                    (count, failure) = PointsCSV.chunk(
                        p, len, header: k == 0, into: slot.points, capacity: slot.pointCapacity,
                        extents: text && len <= UInt32.max ? slot.extents : nil)
                }
                slot.count = count
                slot.failure = failure
                slot.formatted = false
                guard failure == nil else { return }
                if moved {
                    for i in 0..<count { slot.points[i] = screen.fromSuperview(slot.points[i], inverse: inverse) }
                }
                snapshot.hitTest(
                    UnsafeBufferPointer(start: slot.points, count: count),
                    into: UnsafeMutableBufferPointer(start: slot.handles, count: count), threads: 1)
                // Answers that need a handler: resolved and formatted by the writer.
                if case .i32(let table) = answers { return indexes(slot, table) }  // checks as it goes
                if needsHandler(slot) { return }
                emit(p, len, first: k == 0, slot, answers)
            }
            var total = 0
            try run(pieces: cuts.count - 1, work: work) { k, slot in
                let s = cuts[k], len = cuts[k + 1] - s
                if let (line, text) = slot.failure {
                    // The lines before the piece as `TextLineReader` counts them (lone CRs too).
                    let before = TextInput.lineNumber(of: s, in: UnsafeRawBufferPointer(start: base, count: n)) - 1
                    throw Failure(message: "\(name): line \(before + line): expected x,y, found '\(text.escapingControlCharacters)'")
                }
                if !slot.formatted {
                    resolveHandlers(slot, window)
                    emit(slot.text(base + s), len, first: k == 0, slot, answers)
                }
                try w.writeLarge(UnsafeRawBufferPointer(start: slot.bytes, count: slot.used))
                total += slot.count
                progress.report("\(total) points (\(cuts[k + 1] * 100 / n)% of the input)")
            }
            return total
        }

        /// `query` for `.f64` input whose window has no transform: the points are read where they
        /// are (the mapped file), hit-tested and formatted in pieces (see `PointsStream`).
        static func binary(
            _ input: UnsafeRawBufferPointer, window: Window, screen: LevelConversion, answers: AnswerFormat? = nil,
            to w: inout FileWriter, progress: Progress
        ) throws -> Int {
            let answers = answers ?? .text(PointsCSV.Ids(allViewsOf: window))
            if case .text = answers { try w.write(Array("x,y,id\n".utf8)) }
            let total = input.count / 16
            guard total > 0, let raw = input.baseAddress else { return 0 }
            let snapshot = window.makeHitTestSnapshot()
            let moved = !screen.isNoOp, inverse = screen.inverse
            // Points in place when aligned and little-endian (always, for a mapped file on the
            // usual machines); otherwise copied per piece.
            let direct = UInt16(littleEndian: 1) == 1 && Int(bitPattern: raw) % MemoryLayout<Point>.alignment == 0 && !moved
            let shared = SharedBytes(raw: raw, count: total * 16)
            let per = binaryPiecePoints
            let pieces = (total + per - 1) / per
            let work: @Sendable (Int, Slot) -> Void = { k, slot in
                let source = shared.buffer
                let start = k * per, count = min(per, total - start)
                slot.reservePoints(count)
                slot.count = count
                slot.failure = nil
                slot.formatted = false
                let points: UnsafePointer<Point>
                if direct {
                    points = (source.baseAddress! + start * 16).assumingMemoryBound(to: Point.self)
                } else {
                    for i in 0..<count {
                        let at = (start + i) * 16
                        let x = Double(bitPattern: UInt64(littleEndian: source.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                        let y = Double(bitPattern: UInt64(littleEndian: source.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
                        slot.points[i] = screen.fromSuperview(Point(x: x, y: y), inverse: inverse)
                    }
                    points = UnsafePointer(slot.points)
                }
                snapshot.hitTest(
                    UnsafeBufferPointer(start: points, count: count),
                    into: UnsafeMutableBufferPointer(start: slot.handles, count: count), threads: 1)
                if case .i32(let table) = answers { return indexes(slot, table) }
                if needsHandler(slot) { return }
                emitBinary(source, start, slot, answers)
            }
            var done = 0
            let source = shared.buffer
            try run(pieces: pieces, work: work) { k, slot in
                if !slot.formatted {
                    let start = k * per
                    if direct { (slot.points).update(from: (source.baseAddress! + start * 16).assumingMemoryBound(to: Point.self), count: slot.count) }
                    resolveHandlers(slot, window)
                    emitBinary(source, start, slot, answers)
                }
                try w.writeLarge(UnsafeRawBufferPointer(start: slot.bytes, count: slot.used))
                done += slot.count
                progress.report("\(done) of \(total) points")
            }
            return total
        }

        /// A CSV piece's answers: its lines `x,y,id` or its indexes.
        static func emit(_ p: UnsafePointer<UInt8>, _ n: Int, first: Bool, _ slot: Slot, _ answers: AnswerFormat) {
            switch answers {
            case .text(let ids): format(p, n, first: first, slot, ids)
            case .i32(let table): indexes(slot, table)
            }
        }

        /// A `.f64` piece's answers: its lines `x,y,id` or its indexes.
        static func emitBinary(_ source: UnsafeRawBufferPointer, _ start: Int, _ slot: Slot, _ answers: AnswerFormat) {
            switch answers {
            case .text(let ids): formatBinary(source, start, slot, ids)
            case .i32(let table): indexes(slot, table)
            }
        }

        /// The piece's answers as little-endian int32 indexes into `table` (-1: no view); not
        /// `formatted` when an answer needs a handler (the writer resolves it and calls again).
        static func indexes(_ slot: Slot, _ table: ViewTable) {
            slot.reserveBytes(4 * slot.count + 4)
            slot.formatted = table.write(slot.handles, slot.count, into: UnsafeMutableRawPointer(slot.bytes))
            slot.used = 4 * slot.count
        }

        /// Whether an answer of the piece needs a handler.
        @inline(__always) static func needsHandler(_ slot: Slot) -> Bool {
            let needs = HitTestHandle.needsHandler
            for i in 0..<slot.count where slot.handles[i] == needs { return true }
            return false
        }

        /// The `.f64` lines of a piece: each number as `FastNumber` writes it (the bytes of
        /// `Query.appendNumber`), then the id.
        static func formatBinary(_ source: UnsafeRawBufferPointer, _ start: Int, _ slot: Slot, _ ids: PointsCSV.Ids) {
            slot.reserveBytes(slot.count * (2 * FastNumber.maxBytes + ids.longest + 3) + 64)
            var o = 0
            let out = slot.bytes
            ids.bytes.withUnsafeBufferPointer { idBytes in
                for i in 0..<slot.count {
                    let at = (start + i) * 16
                    let x = Double(bitPattern: UInt64(littleEndian: source.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                    let y = Double(bitPattern: UInt64(littleEndian: source.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
                    o += FastNumber.write(x, out + o)
                    out[o] = UInt8(ascii: ","); o += 1
                    o += FastNumber.write(y, out + o)
                    out[o] = UInt8(ascii: ","); o += 1
                    let (from, length) = ids.of(slot.handles[i])
                    if length > 0 { memcpy(out + o, idBytes.baseAddress! + from, length) }
                    o += length
                    out[o] = 0x0A; o += 1
                }
            }
            slot.used = o
            slot.formatted = true
        }

        /// Answers that need a handler, found with the views' own hit test on this thread.
        static func resolveHandlers(_ slot: Slot, _ window: Window) {
            for i in 0..<slot.count where slot.handles[i] == .needsHandler {
                slot.handles[i] = window.hitTest(slot.points[i])?.hitTestHandle ?? .none
            }
        }
    }
}

extension HitTestCLI.FileWriter {
    /// Gives up after a failure: a regular output file is closed and removed (it would hold
    /// the results up to the failure only); standard output keeps what was written. [ours]
    mutating func discard() {
        buffer.removeAll()
        if collected != nil {
            collected = []
            return
        }
        guard path != "-" else { return }
        var st = stat()
        let regular = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        close(fd)
        if regular { unlink(path) }
    }
}
