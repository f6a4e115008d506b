#!/usr/bin/env python3
"""HitTestKit from Python: a thin demo of the `hittest` package (python/ in this repository).

    python3 -m pip install ./python        # builds the C core from CSources/CHitTest
    python3 Examples/python/demo.py
"""
import numpy as np

import hittest

SCENE = """{ "format": "hittest-scene", "version": 1,
  "root": { "id": "window", "frame": [0, 0, 390, 844], "children": [
    { "id": "table", "frame": [0, 100, 390, 600], "bounds": [0, 1200, 390, 600], "children": [
      { "id": "cell", "frame": [0, 1200, 390, 44] } ] },
    { "id": "button", "frame": [20, 760, 100, 44], "hitTestInsets": [-10, -10, -10, -10] } ] } }"""

scene = hittest.parse_scene(SCENE)
xs = np.array([20.0, 20.0, 25.0, 500.0])
ys = np.array([110.0, 300.0, 755.0, 0.0])
print(scene.hit_test_ids(xs, ys))            # ['cell', 'table', 'button', None]
assert scene.hit_test_ids(xs, ys) == ["cell", "table", "button", None]

# The tree as a snapshot (what travels to Dask workers), and a million points at once.
tree = hittest.Tree.from_bytes(scene.tree.to_bytes())
rng = np.random.default_rng(0)
points = np.column_stack([rng.uniform(0, 390, 1_000_000), rng.uniform(0, 844, 1_000_000)])
handles = tree.hit_test_points(points, root=scene.root)   # int32, -1 for nothing
counts = np.bincount(handles + 1, minlength=len(scene.ids) + 1)
print({("nothing" if h < 0 else scene.ids[h]): int(c) for h, c in zip(range(-1, len(scene.ids)), counts)})

try:
    tree.hit_test(points[:, 0].astype(np.float32), points[:, 1])
except TypeError as e:
    print("TypeError:", e)
try:
    hittest.Tree.from_bytes(b"not a snapshot")
except hittest.HitTestError as e:
    print("HitTestError:", e.status_name, "-", e.message)
