#!/usr/bin/env bash
# Builds and runs a libFuzzer harness of the C core with AddressSanitizer and UBSan.
#   scripts/fuzz.sh api|snapshot|scene [seconds]   (default 60 s; corpus in Fuzz/corpus/NAME)
# api and snapshot fuzz the C core (ASan + UBSan); scene fuzzes the Swift scene-file loader and
# the two importers (ASan), compiled against HitTestKit built as a module of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz.sh api|snapshot|scene [seconds]}
seconds=${2:-60}
case "$name" in api|snapshot|scene) ;; *) echo "unknown harness '$name' (api, snapshot, scene)" >&2; exit 2;; esac
mkdir -p .build/fuzz "Fuzz/corpus/$name"
if [ "$name" = scene ]; then
    mkdir -p .build/fuzz/scene-objects
    for f in CSources/CHitTest/*.c; do
        clang -std=c11 -O1 -g -fsanitize=fuzzer-no-link,address -ICSources/CHitTest/include \
            -c "$f" -o ".build/fuzz/scene-objects/$(basename "$f" .c).o"
    done
    # HitTestKit as a module of its own (HitTestScenes imports it), then the scene sources and
    # the harness in one instrumented module.
    mkdir -p .build/fuzz/modules
    swiftc -O -sanitize=address -parse-as-library -module-name HitTestKit -emit-module \
        -emit-module-path .build/fuzz/modules/HitTestKit.swiftmodule -emit-library -static \
        -ICSources/CHitTest/include Sources/HitTestKit/*/*.swift -o .build/fuzz/libHitTestKit.a
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzScene \
        -I.build/fuzz/modules -ICSources/CHitTest/include Sources/HitTestScenes/*.swift Fuzz/fuzz_scene.swift \
        .build/fuzz/libHitTestKit.a .build/fuzz/scene-objects/*.o -lm -o .build/fuzz/scene
else
    clang -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -ICSources/CHitTest/include "Fuzz/fuzz_$name.c" CSources/CHitTest/*.c -lm -o ".build/fuzz/$name"
fi
# FoundationXML leaks a libxml2 error record on malformed XML (not ours): no leak checks for scene.
[ "$name" = scene ] && export ASAN_OPTIONS=detect_leaks=0
".build/fuzz/$name" -max_total_time="$seconds" -print_final_stats=1 "Fuzz/corpus/$name"
