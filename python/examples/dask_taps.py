"""Tap analytics on Dask: which view did each tap hit?

    python examples/dask_taps.py [--workers 2] [--partitions 20] [--rows 500000] [--screens 20]
    python examples/dask_taps.py --scheduler tcp://scheduler:8786 ...   # a real cluster

Writes one random scene per screen as a snapshot file (in a temporary directory; on a real
cluster, snapshot files come from `Scene.save_snapshot` or the Swift side's `ht_tree_save_file`
with their `.ids.json`), generates the taps on the workers (partitions of a tap table: screen,
x, y), hit-tests them with `hittest.dask_taps.hit_test_taps`, and prints the most tapped views
and the throughput.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import dask.dataframe as dd
from dask.distributed import Client, LocalCluster, wait

import hittest
from hittest.dask_taps import hit_test_taps
from hittest.samples import random_scene, random_taps


def write_snapshots(directory: Path, screens: int) -> dict:
    """One snapshot file per screen; returns screen id -> path."""
    paths = {}
    for s in range(screens):
        scene = hittest.scene.build_scene(random_scene(seed=s, views=300)["root"])
        path = directory / f"screen-{s}.snapshot"
        scene.save_snapshot(path)
        paths[s] = path
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scheduler", help="address of an existing Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--partitions", type=int, default=20)
    ap.add_argument("--rows", type=int, default=500_000, help="taps per partition")
    ap.add_argument("--screens", type=int, default=20)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        snapshots = write_snapshots(Path(tmp), args.screens)
        cluster = None if args.scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        with Client(args.scheduler or cluster) as client:
            taps = dd.from_map(random_taps, range(args.partitions), rows=args.rows, screens=args.screens)
            taps = taps.persist()
            wait(taps)
            t0 = time.perf_counter()
            hits = hit_test_taps(taps, snapshots, client).persist()
            wait(hits)
            seconds = time.perf_counter() - t0
            n = args.partitions * args.rows
            print(f"{n:,} taps on {args.screens} screens: {seconds:.2f} s, {n / seconds / 1e6:.1f} M taps/s")
            top = hits.dropna(subset=["view"]).groupby(["screen", "view"]).size().nlargest(5).compute()
            print("most tapped views:\n" + top.to_string())
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
