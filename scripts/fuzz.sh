#!/usr/bin/env bash
# Builds and runs a libFuzzer harness with AddressSanitizer (and UBSan for the C core).
#   scripts/fuzz.sh api|snapshot|scene|constraints|touchscript [seconds]
#       (default 60 s; corpus in Fuzz/corpus/NAME; CI runs each for a short budget)
# api and snapshot fuzz the C core (ASan + UBSan); scene fuzzes the Swift scene-file loader and
# the two importers, constraints the scene constraint parser and the layout it drives (both
# compiled against HitTestKit built as a module of its own); touchscript fuzzes the touch-script
# readers and the replay they feed (compiled with HitTestInput's sources, on HitTestCore built as
# a module of its own).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/fuzz.sh api|snapshot|scene|constraints|touchscript [seconds]"
name=${1:?$usage}
seconds=${2:-60}
case "$name" in api|snapshot|scene|constraints|touchscript) ;; *) echo "unknown harness '$name' ($usage)" >&2; exit 2;; esac
mkdir -p .build/fuzz "Fuzz/corpus/$name"
source scripts/csources.sh
c_sources
c_objects() {   # both C targets, for the Swift harnesses
    rm -rf .build/fuzz/swift-objects
    mkdir -p .build/fuzz/swift-objects
    for f in "${c_hittest_src[@]}" "${c_solver_src[@]}"; do
        clang -std=c11 -O1 -g -fsanitize=fuzzer-no-link,address "${c_includes[@]}" \
            -c "$f" -o ".build/fuzz/swift-objects/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
    done
}
# One library module of the package, instrumented for AddressSanitizer, on the modules before it.
swift_module() {
    local module=$1
    shift
    mkdir -p .build/fuzz/modules
    swiftc -O -sanitize=address -parse-as-library -module-name "$module" -package-name hittestkit \
        -emit-module -emit-module-path ".build/fuzz/modules/$module.swiftmodule" -emit-library -static \
        -I.build/fuzz/modules "${c_includes[@]}" "$@" -o ".build/fuzz/lib$module.a"
}
layers() {
    swift_module HitTestCore Sources/HitTestCore/*/*.swift
    swift_module HitTestInput $(find Sources/HitTestInput -name '*.swift')
    swift_module HitTestLayout $(find Sources/HitTestLayout -name '*.swift')
    swift_module HitTestAnimation Sources/HitTestAnimation/*.swift
    swift_module HitTestKit Sources/HitTestKit/*.swift
}
if [ "$name" = touchscript ]; then
    c_objects
    # The harness reads the input layer's internals: it is compiled into that module, on the
    # core built as a module of its own.
    swift_module HitTestCore Sources/HitTestCore/*/*.swift
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name HitTestInput -package-name hittestkit \
        -I.build/fuzz/modules "${c_includes[@]}" $(find Sources/HitTestInput -name '*.swift') Fuzz/fuzz_touchscript.swift \
        .build/fuzz/libHitTestCore.a .build/fuzz/swift-objects/*.o -lm -o .build/fuzz/touchscript
elif [ "$name" = scene ] || [ "$name" = constraints ]; then
    c_objects
    # The layers as modules of their own (HitTestScenes imports the umbrella), then the scene
    # sources and the harness in one instrumented module.
    layers
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "Fuzz$name" -package-name hittestkit \
        -I.build/fuzz/modules "${c_includes[@]}" Sources/HitTestScenes/*.swift "Fuzz/fuzz_$name.swift" \
        .build/fuzz/libHitTestKit.a .build/fuzz/libHitTestAnimation.a .build/fuzz/libHitTestLayout.a \
        .build/fuzz/libHitTestInput.a .build/fuzz/libHitTestCore.a .build/fuzz/swift-objects/*.o -lm -o ".build/fuzz/$name"
else
    clang -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        "${c_includes[@]}" "Fuzz/fuzz_$name.c" "${c_hittest_src[@]}" -lm -o ".build/fuzz/$name"
fi
# FoundationXML leaks a libxml2 error record on malformed XML (not ours): no leak checks for scene.
# The touch and constraint harnesses build views whose recognizer closures form cycles as in UIKit.
case "$name" in scene|constraints|touchscript) export ASAN_OPTIONS=detect_leaks=0;; esac
# In CI (CI=true) the corpus is read from a copy: what a short run finds stays out of the tree.
corpus="Fuzz/corpus/$name"
if [ "${CI:-}" = true ]; then
    corpus=$(mktemp -d)
    cp -R "Fuzz/corpus/$name/." "$corpus/"
fi
".build/fuzz/$name" -max_total_time="$seconds" -print_final_stats=1 "$corpus"
