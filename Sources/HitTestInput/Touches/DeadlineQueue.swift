import HitTestCore

/// A deadline scheduled with `Application.schedule(at:_:)`, for `Application.cancel(_:)`.
struct DeadlineToken: Hashable, Sendable {
    /// The insertion sequence number: unique per queue, never reused.
    let sequence: UInt64
    /// Where the queue keeps the action (reused once the deadline ran or was cancelled; the
    /// sequence number tells the deadlines apart).
    let slot: Int32
}

/// Work waiting for simulated time (long presses, multi-tap windows, a scroll view's content
/// touch delay, deceleration ticks, held deliveries): a binary min-heap keyed by
/// (time, insertion sequence), so deadlines at equal times come out in the order they were
/// scheduled and a replay is repeatable to the bit.
///
/// The actions live in slots (an array, reused through a free list), each marked with the
/// sequence number of the deadline it holds: scheduling, running and cancelling are O(1) plus
/// the heap's O(log n), with no hashing. Cancelling forgets the action; its heap entry is
/// skipped when it surfaces (its slot is empty or holds a later deadline), and the heap is
/// compacted when skipped entries outnumber live ones.
struct DeadlineQueue {
    private struct Entry {
        var time: Double
        var sequence: UInt64
        var slot: Int32

        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    private struct Slot {
        var sequence: UInt64
        var action: (() -> Void)?
        /// The deadline was handed out by `takeDue` and its action runs: not pending (it
        /// cannot be cancelled), kept until `finishRun` frees it or `rearm` re-keys it.
        var running = false
    }

    private var heap: [Entry] = []
    private var slots: [Slot] = []
    private var freeSlots: [Int32] = []
    private var live = 0
    private var nextSequence: UInt64 = 0

    /// No deadline is pending.
    var isEmpty: Bool { live == 0 }
    /// The number of pending (not cancelled, not run) deadlines.
    var count: Int { live }

    /// The earliest pending deadline's time.
    mutating func nextTime() -> Double? {
        dropCancelledTop()
        return heap.first?.time
    }

    /// Whether `entry` is still pending (not run, not cancelled).
    private func isPending(_ entry: Entry) -> Bool {
        slots.withUnsafeBufferPointer { slots in
            let i = Int(entry.slot)
            return slots[i].sequence == entry.sequence && !slots[i].running && slots[i].action != nil
        }
    }

    /// Adds `action` at `time` (finite; the caller checks).
    @discardableResult
    mutating func schedule(at time: Double, _ action: @escaping () -> Void) -> DeadlineToken {
        let sequence = nextSequence
        nextSequence += 1
        let slot: Int32
        if let reused = freeSlots.popLast() {
            slot = reused
            slots[Int(slot)] = Slot(sequence: sequence, action: action)
        } else {
            slot = Int32(slots.count)
            slots.append(Slot(sequence: sequence, action: action))
        }
        live += 1
        heap.append(Entry(time: time, sequence: sequence, slot: slot))
        siftUp(heap.count - 1)
        return DeadlineToken(sequence: sequence, slot: slot)
    }

    /// Forgets a pending deadline. Returns false when it already ran or was cancelled.
    @discardableResult
    mutating func cancel(_ token: DeadlineToken) -> Bool {
        let i = Int(token.slot)
        guard i >= 0, i < slots.count, slots[i].sequence == token.sequence, slots[i].action != nil, !slots[i].running
        else { return false }
        free(i)
        if heap.count > 64, heap.count > 2 * live { compact() }
        return true
    }

    /// Empties slot `i` (its deadline ran or was cancelled).
    private mutating func free(_ i: Int, live counted: Bool = true) {
        slots[i].action = nil
        freeSlots.append(Int32(i))
        if counted { live -= 1 }
    }

    /// Removes and returns the earliest pending deadline if it is due at or before `time`.
    mutating func popDue(through time: Double) -> (time: Double, action: () -> Void)? {
        dropCancelledTop()
        guard let top = heap.first, top.time <= time else { return nil }
        removeTop()
        let i = Int(top.slot)
        let action = slots[i].action!
        free(i)
        return (top.time, action)
    }

    /// Removes the earliest pending deadline if it is due at or before `time` and returns it,
    /// its action left in its slot while it runs: the caller runs the action, then calls
    /// `finishRun(_:)` with the token. In between, `rearm(_:at:)` may schedule the same action
    /// again (a repeating deadline: no slot taken, no action stored). Until then the deadline
    /// counts as run: not pending, not cancellable.
    mutating func takeDue(through time: Double) -> (time: Double, token: DeadlineToken, action: () -> Void)? {
        dropCancelledTop()
        guard let top = heap.first, top.time <= time else { return nil }
        removeTop()
        let i = Int(top.slot)
        live -= 1
        let action = slots.withUnsafeMutableBufferPointer { slots -> () -> Void in
            slots[i].running = true
            return slots[i].action!
        }
        return (top.time, DeadlineToken(sequence: top.sequence, slot: top.slot), action)
    }

    /// The action of `token` (from `takeDue`) has returned: its slot is freed, unless `rearm`
    /// scheduled it again.
    mutating func finishRun(_ token: DeadlineToken) {
        let i = Int(token.slot)
        guard i < slots.count, slots[i].sequence == token.sequence, slots[i].running else { return }
        slots[i].running = false
        free(i, live: false)
    }

    /// Schedules the action of the running deadline `token` (handed out by `takeDue`, not yet
    /// finished) again at `time`, in its slot: the same as `schedule(at: time, action)` with a
    /// new sequence number taken now (so the order among deadlines is the same), without
    /// storing the action again. Returns nil (and changes nothing) when `token` is not running.
    mutating func rearm(_ token: DeadlineToken, at time: Double) -> DeadlineToken? {
        let i = Int(token.slot)
        let sequence = nextSequence
        // One access to the slots' buffer (one uniqueness check) for the test and the writes.
        let rearmed = slots.withUnsafeMutableBufferPointer { slots -> Bool in
            guard i >= 0, i < slots.count, slots[i].sequence == token.sequence, slots[i].running else { return false }
            slots[i].sequence = sequence
            slots[i].running = false
            return true
        }
        guard rearmed else { return nil }
        nextSequence += 1
        live += 1
        heap.append(Entry(time: time, sequence: sequence, slot: token.slot))
        siftUp(heap.count - 1)
        return DeadlineToken(sequence: sequence, slot: token.slot)
    }

    /// Forgets every pending deadline.
    mutating func removeAll() {
        heap.removeAll()
        slots.removeAll()
        freeSlots.removeAll()
        live = 0
    }

    // MARK: - Heap

    private mutating func dropCancelledTop() {
        while let top = heap.first, !isPending(top) { removeTop() }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func compact() {
        let slots = self.slots
        heap.removeAll { entry in
            let slot = slots[Int(entry.slot)]
            return slot.sequence != entry.sequence || slot.action == nil || slot.running
        }
        // Floyd's heap construction, bottom-up: O(n).
        var i = heap.count / 2 - 1
        while i >= 0 {
            siftDown(i)
            i -= 1
        }
    }

    // The sifts work on the heap's buffer (one uniqueness check per sift, not per write).

    private mutating func siftUp(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
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
    }

    private mutating func siftDown(_ start: Int) {
        heap.withUnsafeMutableBufferPointer { heap in
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
}
