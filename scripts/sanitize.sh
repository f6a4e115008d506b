#!/usr/bin/env bash
# Runs the test suite under a sanitizer.
#   scripts/sanitize.sh address     AddressSanitizer, the whole suite
#   scripts/sanitize.sh pipeline    AddressSanitizer, the suites whose code lends objects through
#                                   unretained references (the core's and the input layer's
#                                   Storage.swift: touch delivery, gestures, controls, scroll
#                                   views, time, replay) and reads
#                                   points files through raw pointers (CI runs this one: ~4 min)
#   scripts/sanitize.sh undefined   UndefinedBehaviorSanitizer, the whole suite
#   scripts/sanitize.sh thread      ThreadSanitizer, the concurrency tests (snapshot readers on
#                                   several threads while a writer mutates the tree, and the
#                                   multi-threaded bulk paths)
# Each build goes to its own directory, so the normal build is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:?usage: scripts/sanitize.sh address|pipeline|undefined|thread}
case "$kind" in
address)
    # The exit tests (processExitsWith) and the memory-limit test run in child processes that
    # a sanitizer's shadow memory would distort; they run in the plain suite.
    ASAN_OPTIONS=detect_leaks=0 swift test --sanitize address --scratch-path .build/sanitize-address \
        --skip "memoryExhaustion|nonFiniteGeometryStops|misuseStopsWithAClearMessage"
    ;;
pipeline)
    ASAN_OPTIONS=detect_leaks=0 swift test --sanitize address --scratch-path .build/sanitize-address \
        --filter "Replay|Gesture|Scroll|Control|Touch|SimulatedTime|Seam|Points|Lifetime|Conversion|Hierarchy" \
        --skip "memoryExhaustion|nonFiniteGeometryStops|misuseStopsWithAClearMessage"
    ;;
undefined)
    # Swift has no UBSan mode on Linux (and needs none: it traps on overflow and bounds by
    # itself); the C core is compiled with it, and clang links its runtime.
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 swift test --scratch-path .build/sanitize-undefined \
        -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined \
        -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined \
        --skip "memoryExhaustion"
    ;;
thread)
    TSAN_OPTIONS=halt_on_error=1 swift test --sanitize thread --scratch-path .build/sanitize-thread \
        --filter "ConcurrencyTests|RecipeTests"
    ;;
*) echo "unknown sanitizer '$kind' (address, pipeline, undefined, thread)" >&2; exit 2 ;;
esac
