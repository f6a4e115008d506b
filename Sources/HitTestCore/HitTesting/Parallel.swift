import Dispatch
import Foundation

/// How many threads a bulk call uses, and how it splits `count` items among them.
enum Parallel {
    static let minimumPerThread = 8192

    /// An explicit request is honoured (up to one thread per point); the automatic choice
    /// uses all cores only when each gets enough points to outweigh starting it.
    static func threads(_ requested: Int?, count: Int) -> Int {
        if let requested { return max(1, min(requested, count)) }
        return max(1, min(cores, count / minimumPerThread))
    }

    /// Read once: on Linux, `activeProcessorCount` reads cgroup files on every call.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Runs `body(range)` over `threads` contiguous slices of `0..<count`, concurrently.
    static func forEachSlice(count: Int, threads: Int, _ body: @Sendable (Range<Int>) -> Void) {
        if threads <= 1 {
            body(0..<count)
            return
        }
        DispatchQueue.concurrentPerform(iterations: threads) { i in
            body((count * i / threads)..<(count * (i + 1) / threads))
        }
    }
}
