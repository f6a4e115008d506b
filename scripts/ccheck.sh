#!/usr/bin/env bash
# Checks of the C core's seams (issue 17) that need their own builds:
#  0. the sources carry no planted bug (HT_PLANT_) and read no environment (getenv) anywhere
#     under CSources, checks included;
#  1. the mutation protocol against a from-scratch rebuild (CSources/CHitTest/tests/differential.c),
#     under AddressSanitizer and UndefinedBehaviorSanitizer: every answer agrees;
#  2. the same with one invalidation planted missing from fields.h's table
#     (scripts/plants/missing-invalidation.patch): the answers must disagree with the rebuild,
#     and ht_tree_validate must report the stale block; the check fails if either does not;
#     and with a change that leaves a grid the caching single queries started unmarked
#     (scripts/plants/lazy-unmarked.patch), with a cell they settle keeping its old candidate
#     list (scripts/plants/caching-relist.patch), with a cell listed again losing its list's room
#     (scripts/plants/room-lost.patch), with a change that leaves unmarked the cells
#     its node's old region alone holds (scripts/plants/edges-keep-old.patch), and with a layout
#     pass's batch of frames stored past the protocol (scripts/plants/layout-frames-unmarked.patch):
#     the answers must
#     disagree; and with a change that marks cells UNKNOWN outside the rectangle a refresh looks
#     at (scripts/plants/unknown-rect.patch): ht_tree_validate must report it;
#  3. hidden internals: every global symbol of the objects of both C targets is public (ht_) or
#     prefixed (htq_, htr_, hts_), and the shared library CHitTestShared exports exactly the
#     functions of hittest.h and hittest_solver.h.
#  4. no compiler fuses multiply-adds in either C target (clang and gcc with FMA enabled).
#  5. the bulk path's derived structures (answer-grid cells, sub-grids, unions of block-cell
#     lists, the candidate lists of UNSURE cells) against the plain walk on dense scenes, random
#     trees and views aligned to the grid's boundaries, edge points included
#     (CSources/CHitTest/tests/answers_check.c), under ASan and UBSan; then each planted bug (a
#     sub-cell off by one, a candidate missing from a union, a margin of zero, a cell's box cut
#     to the grid's domain half a cell short, the bulk loop's
#     branch-free cell lookup rounding instead of truncating, a sub-grid code naming the wrong
#     sub-grid, a compact record's threshold one ulp off: the last caught by ht_tree_validate's
#     check of every threshold; a candidate list's boxes without their margin, a candidate list
#     cut after an entry that holds only part of its cell, a lazy grid's lifted regions kept
#     past a change) must make it fail; then the lazy
#     grids' lists with a small pool, which their churn compacts (compacting in place, the
#     planted list-compact, must make it fail).
#  6. a scroll (a bounds-origin change) rebuilds none of the scrolled view's derived data and
#     keeps every answer exact (CSources/CHitTest/tests/scroll_check.c, ASan + UBSan); the planted
#     bug scripts/plants/scroll-clip.patch (the block's grid clipped by the view's region again)
#     must make it fail, through the answers alone and through ht_tree_validate.
#  7. a block patched in place after one child moved, resized or turned (prepare's patch, not a
#     rebuild) equals a fresh build and keeps every answer exact
#     (CSources/CHitTest/tests/patch_check.c, ASan + UBSan); the planted bug
#     scripts/plants/patch-cover.patch (a cell's list not continued after the moved child that
#     covered it) must make it fail, through the answers alone and through ht_tree_validate.
# Planted bugs are patches (scripts/plants/NAME.patch, unified diffs against CSources; see
# scripts/plants/README.md), applied to a copy of the sources: the shipped sources carry none. A
# patch that no longer applies fails the check, and so does a patch in scripts/plants that no
# step runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cc=$(command -v clang || command -v cc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source scripts/csources.sh
c_sources
src=("${c_hittest_src[@]}")
flags=("${c_flags[@]}" "${c_includes[@]}")
tests=CSources/CHitTest/tests
plants_run=()

# planted NAME TEST BINARY [CFLAGS...]: builds CHitTest with scripts/plants/NAME.patch applied
# (to a copy of CSources) and the copy's tests/TEST.c into BINARY.
planted() {
    local name=$1 test=$2 bin=$3
    shift 3
    local patch="scripts/plants/$name.patch" dir="$out/plant-$name"
    if [ ! -f "$patch" ]; then
        echo "FAIL: no planted bug $patch" >&2
        exit 1
    fi
    rm -rf "$dir" && mkdir -p "$dir" && cp -R CSources "$dir/"
    if ! (cd "$dir" && git apply --whitespace=nowarn "$OLDPWD/$patch") >"$dir/apply.log" 2>&1; then
        echo "FAIL: the planted bug $patch no longer applies to CSources:" >&2
        sed 's/^/    /' "$dir/apply.log" >&2
        echo "(make the bug again by hand in the sources, then write the patch anew: see scripts/plants/README.md)" >&2
        exit 1
    fi
    "$cc" "${c_flags[@]}" -I"$dir/CSources/CHitTest/include" "$@" "$dir"/CSources/CHitTest/*.c \
        "$dir/CSources/CHitTest/tests/$test.c" -lm -o "$bin" 2> >(grep -v "Cannot export local symbol" >&2)
    plants_run+=("$name")
}

echo "== 0. no planted bugs and no environment reads in CSources"
if grep -rnE 'HT_PLANT_|getenv' CSources >&2; then
    echo "FAIL: CSources must carry no planted bug (they are scripts/plants/*.patch) and read no environment (above)" >&2
    exit 1
fi
echo "none"

echo "== 1. differential against a rebuild (ASan, UBSan)"
"$cc" "${flags[@]}" -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    "${src[@]}" "$tests/differential.c" -lm -o "$out/differential" 2> >(grep -v "Cannot export local symbol" >&2)
ASAN_OPTIONS=detect_leaks=1 "$out/differential" 16 100

echo "== 2. a planted missing invalidation is caught (scripts/plants/missing-invalidation.patch)"
planted missing-invalidation differential "$out/planted" -O2
if "$out/planted" 60 150 answers-only; then
    echo "FAIL: the differential check did not notice the planted missing invalidation" >&2
    exit 1
fi
echo "(the differential check noticed it, as it must)"
if "$out/planted" 60 150; then
    echo "FAIL: ht_tree_validate did not notice the planted missing invalidation" >&2
    exit 1
fi
echo "(ht_tree_validate noticed it, as it must)"
# Bugs of the caching single query's grid: a started grid left unmarked by a change, a settled
# cell keeping its old candidate list; a change's edges (answers.c) that keep cells only the
# old region holds; a layout pass's batch of frames that bypasses the protocol; and a cell
# listed again that loses its list's room.
for plant in lazy-unmarked caching-relist edges-keep-old layout-frames-unmarked room-lost; do
    planted "$plant" differential "$out/planted_$plant" -O2
    if "$out/planted_$plant" 60 150 answers-only; then
        echo "FAIL: the differential check did not notice the planted $plant" >&2
        exit 1
    fi
    echo "(the differential check noticed the planted $plant, as it must)"
done
# A change that marks cells UNKNOWN outside the rectangle a refresh looks at: the answers stay
# exact (such a cell walks), so only ht_tree_validate can notice.
planted unknown-rect differential "$out/planted_unknown-rect" -O2
if "$out/planted_unknown-rect" 60 150; then
    echo "FAIL: ht_tree_validate did not notice the planted unknown-rect" >&2
    exit 1
fi
echo "(ht_tree_validate noticed the planted unknown-rect, as it must)"

echo "== 3. hidden internals"
mkdir -p "$out/objects"
for f in "${c_hittest_src[@]}" "${c_solver_src[@]}"; do
    "$cc" "${flags[@]}" -O2 -fPIC -c "$f" -o "$out/objects/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
done
bad=$(nm --defined-only -g "$out"/objects/*.o | awk 'NF == 3 {print $3}' | grep -vE '^(ht_|htq_|htr_|hts_)' || true)
if [ -n "$bad" ]; then
    echo "FAIL: global symbols without a prefix:" $bad >&2
    exit 1
fi
api=$(cat CSources/CHitTest/include/hittest.h CSources/CLayoutSolver/include/hittest_solver.h | grep -oE '^HT_API [^(]*\b(ht_[a-z_]+)\(' | grep -oE 'ht_[a-z_]+\($' | tr -d '(' | sort)
swift build --product CHitTestShared >/dev/null
lib="$(swift build --show-bin-path)/libCHitTestShared.so"
# Every defined dynamic symbol but the linker's own section markers.
exported=$(nm -D --defined-only "$lib" | awk 'NF == 3 {print $3}' | grep -vxE '__bss_start|_edata|_end' | sort)
if [ "$exported" != "$api" ]; then
    echo "FAIL: $lib exports other than hittest.h:" >&2
    diff <(echo "$api") <(echo "$exported") >&2 || true
    exit 1
fi
echo "libCHitTestShared.so exports exactly the $(echo "$api" | wc -l) functions of hittest.h and hittest_solver.h"
echo "== 4. no fused multiply-adds (answers must match the Swift reference bit for bit)"
# Clang honours `#pragma STDC FP_CONTRACT OFF`; GCC ignores it and fuses by default in GNU modes
# on targets with FMA, so internal.h and geom.h give GCC its own pragma. Check both compilers.
for c in "$cc" $(command -v gcc || true); do
    for f in "${c_hittest_src[@]}" "${c_solver_src[@]}"; do
        if "$c" -std=gnu11 -O2 -march=haswell "${c_includes[@]}" -S "$f" -o - 2>/dev/null | grep -q vfmadd; then
            echo "FAIL: $c fuses multiply-adds in $f" >&2
            exit 1
        fi
    done
done
echo "no fused multiply-adds (clang and gcc, -march=haswell)"

echo "== 5. answer grid, sub-grids and unions against the plain walk"
"$cc" "${flags[@]}" -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    "${src[@]}" "$tests/answers_check.c" -lm -o "$out/answers_check" 2> >(grep -v "Cannot export local symbol" >&2)
ASAN_OPTIONS=detect_leaks=1 "$out/answers_check" 6
# The lazy grids' lists with a small pool (LIST_APPEND_MIN=8): the churn compacts the pool and
# starts the lists over, which the shipped size reaches only in long runs; compacting in place
# (list-compact) must be noticed there.
"$cc" "${flags[@]}" -DLIST_APPEND_MIN=8 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
    "${src[@]}" "$tests/answers_check.c" -lm -o "$out/answers_check_small" 2> >(grep -v "Cannot export local symbol" >&2)
ASAN_OPTIONS=detect_leaks=1 "$out/answers_check_small" 3 10000
planted list-compact answers_check "$out/planted_list-compact" -O2 -DLIST_APPEND_MIN=8
if "$out/planted_list-compact" 3 10000 >/dev/null 2>&1; then
    echo "FAIL: answers_check did not notice the planted list-compact" >&2
    exit 1
fi
echo "(answers_check noticed the planted list-compact, as it must)"
for plant in sub-off-by-one union-missing zero-margin tile-short subgrid-stale domain-cut lookup-round sub-code threshold-ulp list-margin list-cut memo-stale; do
    planted "$plant" answers_check "$out/planted_$plant" -O2
    if "$out/planted_$plant" 6 >/dev/null 2>&1; then
        echo "FAIL: answers_check did not notice the planted $plant" >&2
        exit 1
    fi
    echo "(answers_check noticed the planted $plant, as it must)"
done
# sanitized_and_planted TEST RUNS PLANT: the check TEST under ASan and UBSan (RUNS steps), then
# with scripts/plants/PLANT.patch applied, which it must notice through the answers alone and
# through ht_tree_validate.
sanitized_and_planted() {
    local test=$1 runs=$2 plant=$3
    "$cc" "${flags[@]}" -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
        "${src[@]}" "$tests/$test.c" -lm -o "$out/$test" 2> >(grep -v "Cannot export local symbol" >&2)
    ASAN_OPTIONS=detect_leaks=1 "$out/$test" "$runs"
    planted "$plant" "$test" "$out/planted_$plant" -O2
    for mode in answers-only ""; do
        if "$out/planted_$plant" 400 $mode >/dev/null 2>&1; then
            echo "FAIL: $test did not notice the planted $plant${mode:+ ($mode)}" >&2
            exit 1
        fi
    done
    echo "($test noticed the planted $plant, through the answers and through validation, as it must)"
}

echo "== 6. a scroll rebuilds no block of the scrolled view; answers stay exact"
sanitized_and_planted scroll_check 150 scroll-clip

echo "== 7. a block patched after one child changed equals a fresh build; answers stay exact"
sanitized_and_planted patch_check 300 patch-cover

echo "== every planted bug in scripts/plants ran"
for patch in scripts/plants/*.patch; do
    name=$(basename "$patch" .patch)
    case " ${plants_run[*]} " in
    *" $name "*) ;;
    *) echo "FAIL: $patch is run by no step of scripts/ccheck.sh" >&2; exit 1 ;;
    esac
done
echo "${#plants_run[@]} planted bugs, each noticed: ${plants_run[*]}"
echo "ccheck: ok"
