"""Hit-testing a partitioned table of taps on Dask, one snapshot file per screen.

    from dask.distributed import Client
    import dask.dataframe as dd
    from hittest.dask_taps import hit_test_taps

    client = Client("tcp://scheduler:8786")            # or LocalCluster()
    taps = dd.read_parquet("s3://bucket/taps/")         # columns: screen, x, y
    snapshots = {7: "screens/7.snapshot", 8: "screens/8.snapshot"}   # Scene.save_snapshot files
    hits = hit_test_taps(taps, snapshots, client)       # + columns handle (int32), view (id or None)

The snapshot files are read once, on the client, and sent once to every worker (a worker
plugin, so workers that join later get them too); each worker loads each tree once, builds its
answer grid, and maps partitions with the numpy call (the GIL released, so a worker's threads
run in parallel). Points are in each screen's root superview space (the CLI's coordinates).
"""
from __future__ import annotations

import hashlib
import os
import threading
from typing import Any, Dict, Hashable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .scene import Scene
from ._tree import PathLike

#: What travels to workers for one screen: snapshot bytes, ids by handle, root handle.
ScreenBundle = Tuple[bytes, Sequence[str], int]


def read_bundles(snapshots: Mapping[Hashable, PathLike]) -> Dict[Hashable, ScreenBundle]:
    """Reads snapshot files (with their ``.ids.json``, from `Scene.save_snapshot`) into bundles."""
    import json

    out: Dict[Hashable, ScreenBundle] = {}
    for key, path in snapshots.items():
        with open(os.fspath(path), "rb") as f:
            data = f.read()
        with open(os.fspath(path) + ".ids.json", encoding="utf-8") as f:
            meta = json.load(f)
        out[key] = (data, list(meta["ids"]), int(meta["root"]))
    return out


def load_bundles(bundles: Mapping[Hashable, ScreenBundle]) -> Dict[Hashable, Scene]:
    """Loads bundles into prepared scenes (answer grids built: ready for concurrent queries)."""
    scenes: Dict[Hashable, Scene] = {}
    for key, (data, ids, root) in bundles.items():
        scene = Scene.from_snapshot_bytes(data, ids, root)
        scene.tree.prepare_points(scene.root)
        scenes[key] = scene
    return scenes


def hit_test_arrays(scenes: Mapping[Hashable, Scene], screen: np.ndarray, xs: np.ndarray,
                    ys: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Handles (int32) and view ids (object array, None for nothing) of taps on several screens:
    the taps are grouped by screen and each group hit-tested with one numpy call."""
    n = screen.shape[0]
    handles = np.full(n, -1, dtype=np.int32)
    views = np.empty(n, dtype=object)
    if n == 0:
        return handles, views
    order = np.argsort(screen, kind="stable")
    sorted_screens = screen[order]
    cuts = np.flatnonzero(sorted_screens[1:] != sorted_screens[:-1]) + 1
    starts = np.concatenate(([0], cuts))
    ends = np.concatenate((cuts, [n]))
    for s, e in zip(starts, ends):
        key = sorted_screens[s].item()
        scene = scenes.get(key)
        if scene is None:
            raise KeyError(f"taps on screen {key!r}, which has no snapshot")
        idx = order[s:e]
        h = scene.hit_test(xs[idx], ys[idx])
        handles[idx] = h
        views[idx] = scene.ids_of(h)
    return handles, views


def hit_test_frame(df: Any, scenes: Mapping[Hashable, Scene], screen: str = "screen", x: str = "x",
                   y: str = "y") -> Any:
    """One pandas DataFrame of taps -> the same with columns ``handle`` (int32) and ``view``
    (the hit view's id, None for nothing). The single-process call; Dask maps it per partition."""
    import pandas as pd

    handles, views = hit_test_arrays(
        scenes, df[screen].to_numpy(), df[x].to_numpy(dtype=np.float64), df[y].to_numpy(dtype=np.float64))
    out = df.copy(deep=False)
    out["handle"] = pd.Series(handles, index=df.index, dtype=np.int32)
    out["view"] = pd.Series(views, index=df.index, dtype=object)
    return out


# ---- Dask ------------------------------------------------------------------------------------

_lock = threading.Lock()
_cache: Dict[str, Dict[Hashable, Scene]] = {}


try:  # the plugin base class, when distributed is installed (it is only needed with Dask)
    from distributed import WorkerPlugin as _PluginBase
except ImportError:  # pragma: no cover
    _PluginBase = object  # type: ignore[misc,assignment]


class ScreensPlugin(_PluginBase):  # type: ignore[misc,valid-type]
    """A worker plugin carrying the screens' bundles: loaded once per worker, in `setup`."""

    def __init__(self, token: str, bundles: Mapping[Hashable, ScreenBundle]) -> None:
        self.token = token
        self.bundles = dict(bundles)
        self.name = f"hittest-screens-{token}"

    def setup(self, worker: Any = None) -> None:
        scenes = load_bundles(self.bundles)
        with _lock:
            _cache[self.token] = scenes

    def teardown(self, worker: Any = None) -> None:
        with _lock:
            _cache.pop(self.token, None)


def _scenes(token: str) -> Dict[Hashable, Scene]:
    with _lock:
        scenes = _cache.get(token)
    if scenes is None:
        raise RuntimeError(
            "this worker has not received the snapshots (hit_test_taps registers them on every "
            "worker of its client; compute the result with that client)")
    return scenes


def _partition(df: Any, token: str, screen: str, x: str, y: str) -> Any:
    return hit_test_frame(df, _scenes(token), screen, x, y)


def broadcast_screens(client: Any, snapshots: Mapping[Hashable, PathLike]) -> str:
    """Sends the snapshot files to every worker of `client` once (and to workers that join
    later); returns the token that names them. `hit_test_taps` calls it."""
    bundles = read_bundles(snapshots)
    digest = hashlib.sha256()
    for key in sorted(bundles, key=repr):
        data, ids, root = bundles[key]
        digest.update(repr((key, root, len(data))).encode())
        digest.update(data)
        digest.update("\0".join(ids).encode())
    token = digest.hexdigest()[:16]
    plugin = ScreensPlugin(token, bundles)
    register = getattr(client, "register_plugin", None) or client.register_worker_plugin
    register(plugin, name=plugin.name)
    return token


def hit_test_taps(taps: Any, snapshots: Union[Mapping[Hashable, PathLike], str], client: Optional[Any] = None, *,
                  screen: str = "screen", x: str = "x", y: str = "y") -> Any:
    """A Dask DataFrame of taps (columns `screen`, `x`, `y`) -> the same with ``handle``
    (int32) and ``view`` (object: the hit view's id, None for nothing) per tap, lazily.

    - snapshots: screen id -> snapshot file written by `Scene.save_snapshot` (its
      ``.ids.json`` beside it). Read here, broadcast once to every worker of `client`. Or the
      token `broadcast_screens` returned, to map several tables over screens sent once.
    - client: a `distributed.Client` (default: the current one).
    - Raises (when computed): KeyError for a tap on a screen without a snapshot.
    """
    import pandas as pd

    if client is None:
        from distributed import default_client

        client = default_client()
    token = snapshots if isinstance(snapshots, str) else broadcast_screens(client, snapshots)
    meta = taps._meta.copy()
    meta["handle"] = pd.Series([], dtype=np.int32)
    meta["view"] = pd.Series([], dtype=object)
    return taps.map_partitions(_partition, token, screen, x, y, meta=meta)
