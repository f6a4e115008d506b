#!/usr/bin/env python3
"""Merges symbol graphs into one graph of one module (for scripts/docs.sh).

Usage: merge-symbol-graphs.py MODULE OUT.json GRAPH.json...

HitTestKit is an umbrella that re-exports its layers; DocC documents one module per catalog, so
the layers' graphs (each module's own and its extension graphs, `A@B.symbols.json`) become one
graph named MODULE. Symbols keep their identifiers; relationships are kept as they are, and a
symbol that appears in several graphs (an extended type) is kept once.
"""
import json
import sys


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    module, out, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    merged = None
    seen = set()
    relations = set()
    for path in sorted(paths):
        with open(path) as f:
            graph = json.load(f)
        if merged is None:
            merged = {"metadata": graph["metadata"], "module": dict(graph["module"]), "symbols": [], "relationships": []}
            merged["module"]["name"] = module
        for symbol in graph["symbols"]:
            key = symbol["identifier"]["precise"]
            if key in seen:
                continue
            seen.add(key)
            merged["symbols"].append(symbol)
        for rel in graph["relationships"]:
            key = json.dumps(rel, sort_keys=True)
            if key in relations:
                continue
            relations.add(key)
            merged["relationships"].append(rel)
    with open(out, "w") as f:
        json.dump(merged, f)
    print(f"merged {len(paths)} graphs: {len(merged['symbols'])} symbols, {len(merged['relationships'])} relationships")


main()
