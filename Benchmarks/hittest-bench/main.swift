// hittest-bench: throughput of every hit-testing path, side by side with the fair walk (the
// seed algorithm in careful plain Swift), the tests' definition walk and the memory-streaming
// bound, on deterministic scenes. See `--help` (Bench.swift).
import Foundation

// The definition walk (HitTestReference) recurses once per level: run everything on a thread
// with a large stack so that the 100,000-deep scene works. (The fair walk needs no such stack.)
solverBenchIfAsked(Array(CommandLine.arguments.dropFirst()))  // --solver: the constraint solver (SolverBench.swift)
let worker = Thread {
    let options = parse(Array(CommandLine.arguments.dropFirst()))
    if options.kernel { exit(runKernel(options) ? 0 : 1) }
    if options.layoutOnly { layoutBenchOnly(options) }  // --layout (LayoutBench.swift)
    let bench = Bench()
    bench.run(options)
    bench.animationBenchmark(options)  // AnimationBench.swift
    bench.gestureReplayBenchmark(options)
    bench.extras += layoutBenchmarks(reps: options.reps, quick: options.quick)  // Layout (LayoutBench.swift)
    bench.report(options)
    exit(bench.failures.isEmpty ? 0 : 1)
}
worker.stackSize = 4 << 30
worker.start()
while true { sleep(60) }
