#!/usr/bin/env bash
# Throughput of `hittest query` on big points files against `wc -l` / `cat` on the same bytes
# (issue 10, item 14). Generates, deterministically, in $DIR (default /tmp/hittest-throughput):
#   points.csv       13.6 M lines "x,y" (1-3 decimals, ~185 MB)
#   points-dec.f64   13 M float64 pairs, short decimals like the CSV's (208 MB)
#   points-3x.f64    13 M float64 pairs, pixel positions of a 3x screen (k / 3: 16-17 digits)
# then runs each command RUNS times (default 3) with a warm page cache and prints wall, user
# and sys time: best and median, and the ratios. Each input is also queried to the binary
# `.i32` output (an int32 view index per point, `-o out.i32`; the view table beside it), timed
# beside `cp` of the input and `cat`; its first million answers are checked against the CSV
# output's ids through the table. The write floor: `cat` of the query's own output (in the page
# cache) into a new file on the same file system, i.e. what writing that many bytes costs
# without any work. The machine may be shared: compare the CPU
# (user+sys) ratios as well as wall clock, and mind the load average printed.
#
# usage: scripts/throughput.sh [--no-build] [--csv-only|--f64-only] [--i32-only] [--parser]
#   --i32-only: time only the .i32 output (and cat, cp, wc -l beside it)
#   --parser: only the CSV parser, in one process: PointsCSV.chunk (and CSVLines, PointsLine)
#     copied from the sources into a `swiftc -O -wmo` program, timed in CPU time on the CSV cut
#     into the CLI's 512 KB pieces, without and with the line parser (and its line extents),
#     interleaved; ns a line, medians of 5. Load on the machine does not reach these figures.
#   env: DIR, RUNS, CSV_LINES (13600000), F64_POINTS (13000000), HITTEST (a built binary),
#        BASELINE (another hittest binary, e.g. an older build: timed in the same run, its
#        output compared byte for byte, and the ratio printed)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${DIR:-/tmp/hittest-throughput}
RUNS=${RUNS:-3}
CSV_LINES=${CSV_LINES:-13600000}
F64_POINTS=${F64_POINTS:-13000000}
build=1 csv=1 f64=1 text=1 parser=0
for a in "$@"; do
    case $a in
        --parser) parser=1 ;;
        --no-build) build=0 ;;
        --csv-only) f64=0 ;;
        --f64-only) csv=0 ;;
        --i32-only) text=0 ;;
        *) echo "usage: $0 [--no-build] [--csv-only|--f64-only] [--i32-only] [--parser]" >&2; exit 2 ;;
    esac
done
mkdir -p "$DIR"

if [[ $parser == 1 ]]; then
    cc -O2 -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$DIR/gen" scripts/throughput-gen.c
    [[ -f $DIR/points.csv ]] || "$DIR/gen" csv "$CSV_LINES" "$DIR/points.csv"
    b=$DIR/parser-bench
    mkdir -p "$b/main"
    {
        echo 'import Foundation'
        echo 'struct Point { var x: Double; var y: Double }'
        echo 'enum HitTestCLI {'
        sed -n '/^    enum CSVLines {/,/^    \/\/ MARK: - render/p' Sources/HitTestCLI/Commands.swift | sed '$d'
        echo 'enum PointsCSV {'
        sed -n '/^        static let pow10: \[Double\] = (0...22).map { pow/,/^        \/\/ MARK: - Writing/p' Sources/HitTestCLI/PointsCSV.swift
        echo '}}'
    } >"$b/core.swift"
    sed '/^import HitTestKit/d' Sources/HitTestCLI/PointsLine.swift >"$b/line.swift"
    cat >"$b/main/main.swift" <<'SWIFT'
import Foundation
let path = CommandLine.arguments[1], reps = Int(CommandLine.arguments[2])!
let fd = open(path, O_RDONLY)
var st = stat()
fstat(fd, &st)
let n = Int(st.st_size)
let p = mmap(nil, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)!.assumingMemoryBound(to: UInt8.self)
let capacity = (512 << 10) + (1 << 16)
let out = UnsafeMutablePointer<Point>.allocate(capacity: capacity)
let extents = UnsafeMutablePointer<HitTestCLI.PointsCSV.LineExtent>.allocate(capacity: capacity)
func cpu() -> Double { var r = rusage(); getrusage(RUSAGE_SELF.rawValue, &r); return Double(r.ru_utime.tv_sec) + Double(r.ru_utime.tv_usec) * 1e-6 }
var cuts = [0]
while cuts.last! + (512 << 10) < n { var k = cuts.last! + (512 << 10); while p[k - 1] != 10 { k += 1 }; cuts.append(k) }
cuts.append(n)
let modes = ["number parser (main's)", "line parser", "line parser + extents"]
var t = [[Double]](repeating: [], count: modes.count), lines = 0
for _ in 0..<5 {
    for (m, _) in modes.enumerated() {
        let t0 = cpu()
        var c = 0
        for _ in 0..<reps {
            for k in 0..<(cuts.count - 1) {
                let (count, failure) = HitTestCLI.PointsCSV.chunk(
                    p + cuts[k], cuts[k + 1] - cuts[k], header: k == 0, into: out, capacity: capacity, lines: m > 0, extents: m == 2 ? extents : nil)
                precondition(failure == nil, "\(failure!)")
                c += count
            }
        }
        t[m].append((cpu() - t0) / Double(c) * 1e9)
        lines = c / reps
    }
}
for (m, name) in modes.enumerated() {
    let s = t[m].sorted()
    print("  \(name): median \(String(format: "%.2f", s[2])) ns a line, best \(String(format: "%.2f", s[0])) (\(lines) lines x \(reps), CPU time)")
}
SWIFT
    swiftc -O -wmo "$b/core.swift" "$b/line.swift" "$b/main/main.swift" -o "$b/bench" 2>"$b/build.log" || { cat "$b/build.log"; exit 1; }
    echo "CSV parser alone, one process; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    head -n 40001 "$DIR/points.csv" >"$b/small.csv"
    echo " 40,000 lines (in the cache):"
    "$b/bench" "$b/small.csv" 200
    echo " $(basename "$DIR/points.csv"):"
    "$b/bench" "$DIR/points.csv" 1
    exit 0
fi

if [[ -z ${HITTEST:-} ]]; then
    if [[ $build == 1 ]]; then swift build -c release --product hittest >"$DIR/build.log" 2>&1 || { tail -20 "$DIR/build.log"; exit 1; }; fi
    HITTEST="$(swift build -c release --show-bin-path)/hittest"
fi
[[ -x $HITTEST ]] || { echo "no hittest binary at $HITTEST (build with: swift build -c release --product hittest)" >&2; exit 1; }

# Inputs (made once; same bytes every time).
cc -O2 -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$DIR/gen" scripts/throughput-gen.c
make_file() {  # kind count file [size]: made when missing (or of another size)
    if [[ ! -f $3 || ( -n ${4:-} && $(stat -c %s "$3") != "${4:-}" ) ]]; then "$DIR/gen" "$1" "$2" "$3"; fi
}
[[ $csv == 1 ]] && make_file csv "$CSV_LINES" "$DIR/points.csv"
[[ $f64 == 1 ]] && make_file f64dec "$F64_POINTS" "$DIR/points-dec.f64" $((F64_POINTS * 16))
[[ $f64 == 1 ]] && make_file f64px "$F64_POINTS" "$DIR/points-3x.f64" $((F64_POINTS * 16))
[[ -f $DIR/demo-scene.json ]] || "$HITTEST" demo --out "$DIR" --points 1000 >/dev/null
SCENE=$DIR/demo-scene.json

# --progress (the closing line with the phase times) where the binary has it.
P=()
"$HITTEST" query --help | grep -q -- --progress && P=(--progress)
echo "hittest: $HITTEST ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "machine: $(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# time_runs NAME COMMAND...: RUNS timed runs; prints one line, leaves "wall cpu" medians in $med
# and bests in $best.
TIMEFORMAT='%3R %3U %3S'
time_runs() {
    local name=$1; shift
    local t=() k out
    for ((k = 0; k < RUNS; k++)); do
        rm -f "$DIR/out.csv" "$DIR/copy" "$DIR/out.i32" "$DIR/out.i32.ids"
        out=$( { time "$@" >/dev/null 2>"$DIR/stderr"; } 2>&1 ) || { cat "$DIR/stderr" >&2; exit 1; }
        t+=("$out")
    done
    read -r best med line < <(printf '%s\n' "${t[@]}" | python3 -c '
import sys
rows = [tuple(map(float, l.split())) for l in sys.stdin if l.strip()]
walls = sorted(r[0] for r in rows); cpus = sorted(r[1] + r[2] for r in rows)
users = sorted(r[1] for r in rows); syss = sorted(r[2] for r in rows)
m = lambda v: v[len(v) // 2]
print(f"{walls[0]:.3f},{cpus[0]:.3f} {m(walls):.3f},{m(cpus):.3f} "
      f"wall best {walls[0]:.3f} median {m(walls):.3f} s | user+sys best {cpus[0]:.3f} median {m(cpus):.3f} s "
      f"(user {m(users):.3f}, sys {m(syss):.3f})")')
    printf '  %-34s %s\n' "$name" "$line"
}
ratio() {  # label a b: a / b for wall and cpu (medians, bests)
    python3 -c '
import sys
lab, a, b, ab, bb = sys.argv[1:]
aw, ac = map(float, a.split(",")); bw, bc = map(float, b.split(","))
abw, abc = map(float, ab.split(",")); bbw, bbc = map(float, bb.split(","))
r = lambda x, y: f"{x / y:.1f}x" if y > 0 else "n/a"
print(f"  ratio {lab}: wall median {r(aw, bw)} best {r(abw, bbw)} | user+sys median {r(ac, bc)} best {r(abc, bbc)}")' "$@"
}
warm() {  # read twice, then show the cached share
    cat "$1" >/dev/null; cat "$1" >/dev/null
    fincore --noheadings --output RES,SIZE "$1" 2>/dev/null | awk -v f="$(basename "$1")" '{ print "  page cache: " f " " $1 " of " $2 " resident" }' || true
}

i32_check() {  # INPUT: the first million .i32 answers, mapped through the table, equal the CSV output's ids
    local n=1000000
    "$HITTEST" query "$SCENE" "$1" -o "$DIR/out.i32"
    { "$HITTEST" query "$SCENE" "$1" 2>/dev/null || true; } | head -n $((n + 1)) | tail -n +2 >"$DIR/check.csv"
    python3 - "$DIR/out.i32" "$DIR/check.csv" <<'PY'
import array, sys
hits = array.array("i"); 
with open(sys.argv[1], "rb") as f: hits.frombytes(f.read())
if sys.byteorder != "little": hits.byteswap()
ids = open(sys.argv[1] + ".ids", encoding="utf-8").read().splitlines()
text = [l.rsplit(",", 1)[1] for l in open(sys.argv[2], encoding="utf-8").read().splitlines()]
mapped = ["" if h < 0 else ids[h] for h in hits[: len(text)]]
bad = sum(a != b for a, b in zip(mapped, text))
print(f"  .i32 check: {len(text)} answers, {bad} differ from the CSV output's ids; {len(hits)} int32s, {len(ids)} views in the table")
sys.exit(1 if bad else 0)
PY
    rm -f "$DIR/check.csv" "$DIR/out.i32" "$DIR/out.i32.ids"
}

i32_case() {  # INPUT: time the .i32 output; ratios to cp ($pm/$pb) and cat ($cm/$cb)
    time_runs "hittest query -o out.i32" "$HITTEST" query "$SCENE" "$1" -o "$DIR/out.i32" "${P[@]}"
    echo "  hittest's own line (last run): $(tail -1 "$DIR/stderr")"
    ratio ".i32 query / cat" "$med" "$cm" "$best" "$cb"
    ratio ".i32 query / cp" "$med" "$pm" "$best" "$pb"
    echo "  table: $(stat -c %s "$DIR/out.i32.ids" 2>/dev/null || echo '?') bytes"
    local m=$med b=$best
    if [[ -n ${BASELINE:-} ]]; then
        "$BASELINE" query "$SCENE" "$1" -o "$DIR/old.i32" 2>/dev/null
        if cmp -s "$DIR/out.i32" "$DIR/old.i32" && cmp -s "$DIR/out.i32.ids" "$DIR/old.i32.ids"; then
            echo "  output: the same bytes as the baseline's (.i32 and table)"
        else
            echo "  output: DIFFERS from the baseline's"
        fi
        mv "$DIR/out.i32" "$DIR/keep.i32"
        rm -f "$DIR/old.i32" "$DIR/old.i32.ids"
        time_runs "baseline query -o out.i32" "$BASELINE" query "$SCENE" "$1" -o "$DIR/out.i32"
        ratio "baseline / .i32 query" "$med" "$m" "$best" "$b"
        mv "$DIR/keep.i32" "$DIR/out.i32"
    fi
    floor ".i32" out.i32
    [[ -n ${fm:-} ]] && ratio ".i32 query / write floor" "$m" "$fm" "$b" "$fb"
    fm=
    i32_check "$1"
    med=$m best=$b
}

baseline() {  # FILE: the BASELINE binary on the same input, same output, and the ratio
    [[ -n ${BASELINE:-} ]] || return 0
    "$HITTEST" query "$SCENE" "$1" -o "$DIR/new.csv" 2>/dev/null
    "$BASELINE" query "$SCENE" "$1" -o "$DIR/old.csv" 2>/dev/null
    if cmp -s "$DIR/new.csv" "$DIR/old.csv"; then echo "  output: the same bytes as the baseline's"; else echo "  output: DIFFERS from the baseline's"; fi
    rm -f "$DIR/new.csv" "$DIR/old.csv"
    time_runs "baseline query -o out.csv" "$BASELINE" query "$SCENE" "$1" -o "$DIR/out.csv"
    ratio "baseline / query" "$med" "$qm" "$best" "$qb"
}

floor() {  # NAME OUT: the write floor, `cat` of the query's output (kept as $DIR/floor.src) into a
    # new file on the same file system; leaves its medians in $fm and bests in $fb
    mv "$DIR/$2" "$DIR/floor.src" 2>/dev/null || return 0
    echo "  output: $(stat -c %s "$DIR/floor.src") bytes"
    warm "$DIR/floor.src"
    time_runs "write floor: cat $1 output > file" sh -c 'cat "$0" >"$1"' "$DIR/floor.src" "$DIR/copy"; fb=$best fm=$med
    rm -f "$DIR/floor.src" "$DIR/copy"
}

case_file() {  # FILE csv|f64: every timing of one input, ratios within this run
    local f=$1 kind=$2
    echo
    if [[ $kind == csv ]]; then
        echo "CSV: $(basename "$f"), $(stat -c %s "$f") bytes, $(($(wc -l <"$f") - 1)) points"
    else
        echo ".f64: $(basename "$f"), $(stat -c %s "$f") bytes, $(($(stat -c %s "$f") / 16)) points"
    fi
    warm "$f"
    if [[ $kind == csv ]]; then time_runs "wc -l" wc -l "$f"; wb=$best wm=$med; fi
    time_runs "cat > /dev/null" cat "$f"; cb=$best cm=$med
    time_runs "cp (read + write the bytes)" cp "$f" "$DIR/copy"; pb=$best pm=$med
    if [[ $text == 1 ]]; then
        time_runs "hittest query -o out.csv" "$HITTEST" query "$SCENE" "$f" -o "$DIR/out.csv" "${P[@]}"
        qb=$best qm=$med
        echo "  hittest's own line (last run): $(tail -1 "$DIR/stderr")"
        floor "CSV" out.csv
        baseline "$f"
        warm "$f"
        [[ $kind == csv ]] && ratio "query / wc -l" "$qm" "$wm" "$qb" "$wb"
        ratio "query / cat" "$qm" "$cm" "$qb" "$cb"
        ratio "query / cp" "$qm" "$pm" "$qb" "$pb"
        [[ -n ${fm:-} ]] && ratio "query / write floor" "$qm" "$fm" "$qb" "$fb"
        [[ $kind == csv && -n ${fm:-} ]] && ratio "write floor / wc -l" "$fm" "$wm" "$fb" "$wb"
        fm=
    fi
    i32_case "$f"
    [[ $kind == csv ]] && ratio ".i32 query / wc -l" "$med" "$wm" "$best" "$wb"
    return 0
}

[[ $csv == 1 ]] && case_file "$DIR/points.csv" csv
if [[ $f64 == 1 ]]; then
    for f in "$DIR/points-dec.f64" "$DIR/points-3x.f64"; do case_file "$f" f64; done
fi
rm -f "$DIR/out.csv" "$DIR/copy" "$DIR/out.i32" "$DIR/out.i32.ids"
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
