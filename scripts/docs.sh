#!/usr/bin/env bash
# Builds the DocC site of HitTestKit into .build/docs with the toolchain alone, and fails on any
# DocC warning (broken symbol links, unresolved topics), on a public symbol without a doc comment,
# on a top-level symbol not curated under a topic of the landing page, and on a C API article
# (CAPI.md) that differs from the headers' comments (scripts/capi-doc.py --check, first). The
# hosting base path is $DOCS_BASE_PATH (default HitTestKit). Reuses the ordinary debug build: the
# module is built as `swift build --target HitTestKit` builds it, and its symbol graph is
# extracted from the built .swiftmodule, so a later `swift build` or `swift test` does not
# recompile anything for it.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build/docs
graphs=.build/docs-symbol-graphs
catalog=Sources/HitTestKit/HitTestKit.docc
start=$(date +%s)

tool() {   # a tool of the active Swift toolchain (there is no xcrun on Linux)
    local dir
    dir=$(dirname "$(command -v swift)")
    if [ -x "$dir/$1" ]; then echo "$dir/$1"; else command -v "$1"; fi
}
docc=$(tool docc) || { echo "docs.sh: docc not found next to swift" >&2; exit 2; }
extract=$(tool swift-symbolgraph-extract) || { echo "docs.sh: swift-symbolgraph-extract not found" >&2; exit 2; }

echo "== the C API article against the headers' comments (scripts/capi-doc.py --check)"
python3 scripts/capi-doc.py --check || { echo "docs.sh: the C API article is out of date" >&2; exit 1; }
cfunctions=$(sed -n 's/^HT_API [^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' CSources/CHitTest/include/hittest.h CSources/CLayoutSolver/include/hittest_solver.h | wc -l)

echo "== swift build --target HitTestKit (and the layers it re-exports)"
swift build --target HitTestKit >/dev/null
bin=$(swift build --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
triple=$(swift -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)

echo "== symbol graph ($triple)"
# HitTestKit re-exports its layers (HitTestCore, HitTestInput, HitTestLayout, HitTestAnimation), whose public
# names users reach through `import HitTestKit`: their graphs (extension graphs included) are
# merged into one graph of module HitTestKit, documented as one module.
rm -rf "$graphs" "$graphs-layers" && mkdir -p "$graphs" "$graphs-layers"
for layer in HitTestCore HitTestInput HitTestLayout HitTestAnimation; do
    "$extract" -module-name "$layer" -target "$triple" -minimum-access-level public \
        -I "$modules" -I CSources/CHitTest/include -I CSources/CLayoutSolver/include -output-dir "$graphs-layers"
done
python3 scripts/merge-symbol-graphs.py HitTestKit "$graphs/HitTestKit.symbols.json" "$graphs-layers"/*.symbols.json

echo "== every public spelling of the baseline reachable through import HitTestKit (scripts/public-surface.py)"
python3 scripts/public-surface.py check Tests/Fixtures/public-surface.txt "$graphs/HitTestKit.symbols.json" | grep -v '^public-surface: new:' || {
    echo "docs.sh: a public spelling of Tests/Fixtures/public-surface.txt is gone" >&2
    exit 1
}

echo "== docc convert"
rm -rf "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$docc" convert "$catalog" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name HitTestKit --fallback-bundle-identifier org.hittestkit.HitTestKit \
    --output-path "$out" \
    --hosting-base-path "${DOCS_BASE_PATH:-HitTestKit}" \
    --warnings-as-errors >"$log" 2>&1 || status=$?
cat "$log"
if [ "$status" -ne 0 ] || grep -Eq '(^|[^a-z])(warning|error):' "$log"; then
    echo "docs.sh: DocC reported problems (above); the site is not usable" >&2
    exit 1
fi

echo "== doc comments and curation (scripts/docs-check.swift)"
summary=$(swift scripts/docs-check.swift "$graphs/HitTestKit.symbols.json" "$out/data/documentation/hittestkit.json") || {
    echo "$summary"
    echo "docs.sh: undocumented or uncurated symbols (above)" >&2
    exit 1
}

pages=$(find "$out/data/documentation" -name '*.json' | wc -l)
articles=$(find "$catalog" -name '*.md' | wc -l)
symbols=$(find "$out/data/documentation/hittestkit" -mindepth 1 -name '*.json' | wc -l)
symbols=$((symbols - articles + 1))
base=${DOCS_BASE_PATH:-HitTestKit}
echo "$summary; C API: $cfunctions functions, one section each"
echo "docs: $pages pages ($articles articles, $symbols symbol pages) in $out, base path /${base#/}, $(( $(date +%s) - start )) s"
