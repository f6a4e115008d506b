"""HitTestKit's hit testing (UIKit's `hitTest:withEvent:`) for numpy arrays of points.

    import numpy as np, hittest
    scene = hittest.load_scene("screen.json")            # a scene file (JSON)
    scene.hit_test_ids(np.array([20.0]), np.array([110.0]))   # ['cell-3']

    tree = hittest.Tree.load("screen.snapshot")          # a snapshot file of the C core
    handles = tree.hit_test(xs, ys, root=0)              # int32 handles, -1 for nothing

The engine is HitTestKit's C core, compiled into this package; bulk calls release the GIL.
`hittest.dask_taps` maps a Dask table of taps over one snapshot per screen.
"""
from ._core import HitTestError, status_string
from ._tree import NULL_NODE, Tree
from .scene import Scene, SceneError, load_scene, load_snapshot, parse_scene

__all__ = [
    "HitTestError", "NULL_NODE", "Scene", "SceneError", "Tree", "load_scene", "load_snapshot",
    "parse_scene", "status_string",
]
__version__ = "0.1.0"
