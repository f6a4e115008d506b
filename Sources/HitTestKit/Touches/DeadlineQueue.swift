/// A deadline scheduled with `Application.schedule(at:_:)`, for `Application.cancel(_:)`.
struct DeadlineToken: Hashable, Sendable {
    /// The insertion sequence number: unique per queue, never reused.
    let sequence: UInt64
}

/// Work waiting for simulated time (long presses, multi-tap windows, a scroll view's content
/// touch delay, deceleration ticks, held deliveries): a binary min-heap keyed by
/// (time, insertion sequence), so deadlines at equal times come out in the order they were
/// scheduled and a replay is repeatable to the bit.
///
/// Cancelling is O(1): the action is forgotten and its heap entry skipped when it surfaces;
/// the heap is compacted when skipped entries outnumber live ones.
struct DeadlineQueue {
    private struct Entry {
        var time: Double
        var sequence: UInt64

        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    private var heap: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextSequence: UInt64 = 0

    /// No deadline is pending.
    var isEmpty: Bool { actions.isEmpty }
    /// The number of pending (not cancelled, not run) deadlines.
    var count: Int { actions.count }

    /// The earliest pending deadline's time.
    mutating func nextTime() -> Double? {
        dropCancelledTop()
        return heap.first?.time
    }

    /// Adds `action` at `time` (finite; the caller checks).
    @discardableResult
    mutating func schedule(at time: Double, _ action: @escaping () -> Void) -> DeadlineToken {
        let entry = Entry(time: time, sequence: nextSequence)
        nextSequence += 1
        actions[entry.sequence] = action
        heap.append(entry)
        siftUp(heap.count - 1)
        return DeadlineToken(sequence: entry.sequence)
    }

    /// Forgets a pending deadline. Returns false when it already ran or was cancelled.
    @discardableResult
    mutating func cancel(_ token: DeadlineToken) -> Bool {
        guard actions.removeValue(forKey: token.sequence) != nil else { return false }
        if heap.count > 64, heap.count > 2 * actions.count { compact() }
        return true
    }

    /// Removes and returns the earliest pending deadline if it is due at or before `time`.
    mutating func popDue(through time: Double) -> (time: Double, action: () -> Void)? {
        dropCancelledTop()
        guard let top = heap.first, top.time <= time else { return nil }
        removeTop()
        return (top.time, actions.removeValue(forKey: top.sequence)!)
    }

    /// Forgets every pending deadline.
    mutating func removeAll() {
        heap.removeAll()
        actions.removeAll()
    }

    // MARK: - Heap

    private mutating func dropCancelledTop() {
        while let top = heap.first, actions[top.sequence] == nil { removeTop() }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func compact() {
        heap.removeAll { actions[$0.sequence] == nil }
        // Floyd's heap construction, bottom-up: O(n).
        var i = heap.count / 2 - 1
        while i >= 0 {
            siftDown(i)
            i -= 1
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let entry = heap[parent]
        let n = heap.count
        while true {
            var child = 2 * parent + 1
            if child >= n { break }
            if child + 1 < n, heap[child + 1].precedes(heap[child]) { child += 1 }
            guard heap[child].precedes(entry) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}
