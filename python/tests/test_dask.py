"""The Dask helper on a LocalCluster with 2 workers: >= 10 M taps over >= 20 screens, every
answer checked against the single-process call. Also measures both throughputs (written to
$HITTEST_THROUGHPUT_FILE when set, for the README; the test asserts nothing about speed)."""
import os
import time

import numpy as np
import pandas as pd
import pytest

import hittest
from hittest.dask_taps import broadcast_screens, hit_test_frame, hit_test_taps, load_bundles, read_bundles
from hittest.samples import random_scene, random_taps

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

SCREENS = 20
PARTITIONS = 20
ROWS = 500_000  # 20 x 500,000 = 10 M taps


def test_dask_local_cluster_equals_single_process(tmp_path):
    snapshots = {}
    for s in range(SCREENS):
        scene = hittest.scene.build_scene(random_scene(seed=s, views=300)["root"])
        snapshots[s] = tmp_path / f"screen-{s}.snapshot"
        scene.save_snapshot(snapshots[s])

    # Single process: the same helper on each partition, one after another, in this thread.
    scenes = load_bundles(read_bundles(snapshots))
    parts = [random_taps(i, ROWS, SCREENS) for i in range(PARTITIONS)]
    t0 = time.perf_counter()
    local = [hit_test_frame(p, scenes) for p in parts]
    single_seconds = time.perf_counter() - t0
    n = PARTITIONS * ROWS
    assert n >= 10_000_000

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as cluster, \
            distributed.Client(cluster) as client:
        taps = dd.from_map(random_taps, range(PARTITIONS), rows=ROWS, screens=SCREENS).persist()
        distributed.wait(taps)
        t0 = time.perf_counter()
        token = broadcast_screens(client, snapshots)
        client.run(lambda: None)  # the plugin's setup has run on every worker
        broadcast_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        hits = hit_test_taps(taps, token, client).persist()
        distributed.wait(hits)
        dask_seconds = time.perf_counter() - t0
        # The same through the one-call form (reads and broadcasts the snapshots itself).
        again = hit_test_taps(taps, snapshots, client).get_partition(PARTITIONS - 1).compute()
        # Every worker got the snapshots once (the plugin), and both did work.
        # (`nthreads()` asks the scheduler now; `scheduler_info()["workers"]` was seen empty with
        # both workers up, distributed 2026.8.0.)
        assert len(client.nthreads()) == 2
        assert again["view"].tolist() == local[-1]["view"].tolist()
        for i in range(PARTITIONS):
            got = hits.get_partition(i).compute()
            want = local[i]
            assert len(got) == ROWS
            assert np.array_equal(got["screen"].to_numpy(), want["screen"].to_numpy())
            assert np.array_equal(got["handle"].to_numpy(), want["handle"].to_numpy())
            assert got["handle"].dtype == np.int32
            assert got["view"].tolist() == want["view"].tolist()

    # The single-process answers are the scenes' own, per screen.
    first = parts[0]
    for s in range(SCREENS):
        mask = (first["screen"] == s).to_numpy()
        ids = scenes[s].hit_test_ids(first["x"].to_numpy()[mask], first["y"].to_numpy()[mask])
        assert local[0]["view"].to_numpy()[mask].tolist() == ids
    hit = pd.concat(local)["view"].notna().mean()
    assert 0.2 < hit < 1.0

    line = (f"{n:,} taps, {SCREENS} screens: single process {single_seconds:.2f} s "
            f"({n / single_seconds / 1e6:.1f} M taps/s); LocalCluster 2 workers x 1 thread "
            f"{dask_seconds:.2f} s ({n / dask_seconds / 1e6:.1f} M taps/s; taps already on the workers, "
            f"results kept there), after sending the snapshots to both workers in {broadcast_seconds:.2f} s")
    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    line += f" [load average {load} on {os.cpu_count()} cores]"
    print(line)
    out = os.environ.get("HITTEST_THROUGHPUT_FILE")
    if out:
        with open(out, "a") as f:
            f.write(line + "\n")


def test_example_runs_as_written():
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).parent.parent / "examples" / "dask_taps.py"
    out = subprocess.run([sys.executable, str(example), "--partitions", "3", "--rows", "20000", "--screens", "4"],
                         check=True, capture_output=True, text=True, timeout=240)
    assert "60,000 taps on 4 screens" in out.stdout
    assert "most tapped views" in out.stdout


def test_taps_on_a_screen_without_snapshot_raise():
    scene = hittest.scene.build_scene(random_scene(seed=1, views=20)["root"])
    df = pd.DataFrame({"screen": np.array([0, 3], dtype=np.int32), "x": [1.0, 2.0], "y": [1.0, 2.0]})
    with pytest.raises(KeyError, match="screen 3"):
        hit_test_frame(df, {0: scene})
