#!/usr/bin/env bash
# ThreadSanitizer test of the C core's read-only contract (issue 17, item 6): two threads
# bulk-query two roots of one prepared tree at once (CSources/CHitTest/tests/tsan_two_roots.c). Fails on
# any data race or any answer that differs from the single-threaded one. Under a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
cc=$(command -v clang || command -v cc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The Swift toolchain's TSan runtime carries libdispatch interceptors: link its libdispatch and
# BlocksRuntime when they are there.
extra=()
swiftlib=$(dirname "$(dirname "$(command -v "$cc")")")/lib/swift/linux
if [ -f "$swiftlib/libdispatch.so" ]; then
    extra=(-L"$swiftlib" -Wl,-rpath,"$swiftlib" -ldispatch -lBlocksRuntime)
fi
source scripts/csources.sh
c_sources
"$cc" "${c_flags[@]}" -g -O1 -fsanitize=thread -pthread \
    "${c_includes[@]}" "${c_hittest_src[@]}" CSources/CHitTest/tests/tsan_two_roots.c -lm \
    "${extra[@]}" -o "$out/tsan_two_roots"
TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$out/tsan_two_roots"
echo "tsan: ok"
