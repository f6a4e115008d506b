#!/usr/bin/env bash
# The README's C example, compiled as it is written (its statements as the body of main, with
# -std=c11 -Wall -Wextra -Wpedantic -Werror) against CHitTest and run: every call but ht_tree_destroy must
# return HT_OK, and the hits must be what its last comment states ({button, window}).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/csources.sh
c_sources
cc=$(command -v clang || command -v cc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
awk '/^```c$/ { on = 1; next } /^```/ { on = 0 } on' README.md >"$out/snippet.c"
if ! grep -q 'ht_tree_hit_test_points' "$out/snippet.c"; then
    echo "readme-c: no C example with ht_tree_hit_test_points found in README.md" >&2
    exit 1
fi
grep -q '/\* {button, window} \*/' "$out/snippet.c" || { echo "readme-c: the example no longer states {button, window}" >&2; exit 1; }
{
    echo '#include <stdio.h>'
    grep '^#include' "$out/snippet.c"
    echo '#define ht_check(call) do { ht_status s_ = (call); if (s_ != HT_OK) { fprintf(stderr, "readme-c: %s returned %d\n", #call, (int)s_); return 1; } } while (0)'
    echo 'int main(void) {'
    # Every statement that calls the API is checked; declarations and the array are kept as they are.
    grep -v '^#include' "$out/snippet.c" | sed -E '/^ht_tree_destroy/! s/^(ht_[a-z_]+\(.*\));(.*)$/ht_check(\1);\2/'
    echo 'if (hits[0] != button || hits[1] != window) { fprintf(stderr, "readme-c: hits %d %d, the README says {button, window}\n", (int)hits[0], (int)hits[1]); return 1; }'
    echo 'puts("README C example: {button, window}, as it says"); return 0; }'
} >"$out/main.c"
"$cc" "${c_flags[@]}" -O1 "${c_includes[@]}" "$out/main.c" "${c_hittest_src[@]}" -lm -lpthread -o "$out/readme-c"
"$out/readme-c"
