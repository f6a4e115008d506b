// hittest-bench: throughput of every hit-testing path, side by side with the fair walk (the
// seed algorithm in careful plain Swift), the tests' definition walk and the memory-streaming
// bound, on deterministic scenes. See `--help` (Bench.swift). With `--figures [FILE]` every mode
// also writes what it prints into the figures file (Figures.swift; docs/figures.md by default).
import Foundation

let arguments = takeFiguresOption(Array(CommandLine.arguments.dropFirst()))  // --figures: Figures.swift
solverBenchIfAsked(arguments)  // --solver: the constraint solver (SolverBench.swift)
// The definition walk (HitTestReference) recurses once per level: run everything on a thread
// with a large stack so that the 100,000-deep scene works. (The fair walk needs no such stack.)
let worker = Thread { [arguments] in
    let options = parse(arguments)
    if let dir = options.saveIndex { finish(saveIndexes(options, to: dir) ? 0 : 1) }  // Kernel.swift
    if options.kernel { finish(runKernel(options) ? 0 : 1) }
    if options.layoutOnly { layoutBenchOnly(options) }  // --layout (LayoutBench.swift)
    let bench = Bench()
    bench.run(options)
    bench.animationBenchmark(options)  // AnimationBench.swift
    bench.gestureReplayBenchmark(options)
    bench.extras += layoutBenchmarks(reps: options.reps, quick: options.quick)  // Layout (LayoutBench.swift)
    bench.report(options)
    finish(bench.failures.isEmpty ? 0 : 1)
}
worker.stackSize = 4 << 30
worker.start()
while true { sleep(60) }
