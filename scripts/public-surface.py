#!/usr/bin/env python3
"""The public surface of `import HitTestKit`, as one line per public symbol (kind, path, declaration).

  public-surface.py list GRAPH.json...            prints the lines of these symbol graphs
  public-surface.py check BASELINE GRAPH.json...  fails when a line of BASELINE is missing

The baseline (Tests/Fixtures/public-surface.txt) is the surface users compile against: every
spelling in it must stay reachable through `import HitTestKit` (scripts/docs.sh runs the check on
the merged graph of the layers). A new public symbol is listed and allowed; add it to the
baseline with `list` once it is meant to stay.
"""
import json
import re
import sys


def normalize(line):
    """The spelling a user writes: without the accessor block the symbol graph prints (it prints
    `{ get set }` for a computed property with an internal setter, nothing for a stored one) and
    without `weak`, which changes no call site."""
    line = re.sub(r" \{ get( set)? \}$", "", line)
    return line.replace("| weak var ", "| var ")


def lines(paths):
    out = set()
    for path in paths:
        with open(path) as f:
            graph = json.load(f)
        for s in graph["symbols"]:
            decl = "".join(fr["spelling"] for fr in s.get("declarationFragments", []))
            decl = re.sub(r"\s+", " ", decl).strip()
            # Attributes and access words vary with the layer split (open, package seams); the
            # spelling a user writes is the rest.
            decl = re.sub(r"^(@\w+(\([^)]*\))? )+", "", decl)
            out.add(normalize(f'{s["kind"]["identifier"]} {".".join(s["pathComponents"])} | {decl}'))
    return out


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        for line in sorted(lines(sys.argv[2:])):
            print(line)
        return
    if len(sys.argv) >= 4 and sys.argv[1] == "check":
        with open(sys.argv[2]) as f:
            baseline = {normalize(l.rstrip("\n")) for l in f if l.strip() and not l.startswith("#")}
        now = lines(sys.argv[3:])
        missing = sorted(baseline - now)
        added = sorted(now - baseline)
        for line in added:
            print(f"public-surface: new: {line}")
        for line in missing:
            print(f"public-surface: MISSING: {line}", file=sys.stderr)
        print(f"public surface: {len(baseline)} spellings of the baseline, {len(missing)} missing, {len(added)} new")
        sys.exit(1 if missing else 0)
    sys.stderr.write(__doc__)
    sys.exit(2)


main()
