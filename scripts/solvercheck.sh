#!/usr/bin/env bash
# The constraint solver's checks (hittest_solver.h): the named cases, randomized systems built
# from frames chosen first, and randomized edits compared with a from-scratch solve
# (CSources/CLayoutSolver/tests/solver_tests.c), under AddressSanitizer and UndefinedBehaviorSanitizer; then
# the same warning-free under gcc.
#   scripts/solvercheck.sh [SEED [ROUNDS]]      (defaults: 1 300)
set -euo pipefail
cd "$(dirname "$0")/.."
cc=$(command -v clang || command -v cc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
seed=${1:-1}
rounds=${2:-300}
source scripts/csources.sh
c_sources
flags=("${c_flags[@]}" "${c_includes[@]}")
src=("${c_solver_src[@]}" "${c_hittest_src[@]}")
echo "== solver tests (ASan, UBSan), seeds $seed..$((seed + rounds - 1))"
"$cc" "${flags[@]}" -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    "${src[@]}" CSources/CLayoutSolver/tests/solver_tests.c -lm -o "$out/solver_tests" \
    2> >(grep -v "Cannot export local symbol" >&2)
ASAN_OPTIONS=detect_leaks=1 "$out/solver_tests" "$seed" "$rounds"
if command -v gcc >/dev/null; then
    echo "== gcc: -std=c11 -Wall -Wextra -Wpedantic -Werror"
    gcc "${flags[@]}" -O2 "${src[@]}" CSources/CLayoutSolver/tests/solver_tests.c -lm -o "$out/solver_tests_gcc"
    "$out/solver_tests_gcc" "$seed" 20 >/dev/null
fi
echo "solvercheck: ok"
