#!/usr/bin/env bash
# Builds and runs a libFuzzer harness of the C core with AddressSanitizer and UBSan.
#   scripts/fuzz.sh api|snapshot [seconds]     (default 60 s; corpus in Fuzz/corpus/NAME)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz.sh api|snapshot [seconds]}
seconds=${2:-60}
case "$name" in api|snapshot) ;; *) echo "unknown harness '$name' (api, snapshot)" >&2; exit 2;; esac
mkdir -p .build/fuzz "Fuzz/corpus/$name"
clang -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -ICSources/CHitTest/include "Fuzz/fuzz_$name.c" CSources/CHitTest/*.c -lm -o ".build/fuzz/$name"
".build/fuzz/$name" -max_total_time="$seconds" -print_final_stats=1 "Fuzz/corpus/$name"
