"""`Tree`: a HitTestKit C tree with numpy bulk hit tests."""
from __future__ import annotations

import os
from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _core
from ._core import HitTestError

PathLike = Union[str, "os.PathLike[str]"]

#: The handle a hit test writes for a point that hits nothing.
NULL_NODE: int = _core.NULL_NODE


def _float64_vector(a: Any, name: str) -> np.ndarray:
    """`a` as a 1-D float64 array, without a copy when it already is one (any stride)."""
    arr = a if isinstance(a, np.ndarray) else np.asarray(a)
    if arr.dtype != np.float64:
        # Wrong dtypes (float32, ints, big-endian) are refused, not converted silently: a
        # conversion would copy millions of points behind the caller's back.
        raise TypeError(
            f"{name} must be a float64 array (native byte order), got dtype {arr.dtype}; "
            f"convert it with {name}.astype(numpy.float64)")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {arr.shape}")
    return arr


class Tree(_core.Tree):
    """A view tree in HitTestKit's C core (`ht_tree`): nodes are int handles.

    Load one from a snapshot file (`Tree.load`, `Tree.from_bytes`), or build one with the node
    methods (`create_node`, `attach`, `set_center`, ...; a scene file does this for you:
    `hittest.load_scene`). Queries prepare the tree themselves after a change; after that any
    number of Python threads may query it at once, and the GIL is released during the C call.
    A mutation while another thread is querying raises `HitTestError` (HT_E_BUSY).

    Errors of the C core are `HitTestError` with `.status` (the `ht_status` code),
    `.status_name` (e.g. ``"HT_E_STALE_NODE"``) and `.message` (the C description).
    """

    @classmethod
    def load(cls, path: PathLike) -> "Tree":
        """Loads a snapshot file (written by `Tree.save`, `Scene.save_snapshot` or the Swift
        side's `ht_tree_save_file`). Every byte is checked: a damaged file raises `HitTestError`
        with status HT_E_CORRUPT (or HT_E_IO when it cannot be read)."""
        return cls._load_file(os.fspath(path))

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview]) -> "Tree":
        """Loads a snapshot from memory (what `to_bytes` returns, or a snapshot file's bytes)."""
        return cls._from_bytes(data)

    def hit_test(self, xs: Any, ys: Any, root: int = 0, *, out: Optional[np.ndarray] = None) -> np.ndarray:
        """UIKit's hit test of every point (xs[i], ys[i]) from `root`, in `root`'s bounds space.

        - xs, ys: 1-D float64 arrays of the same length, any stride (not copied when both have
          the same positive stride, e.g. two columns of one (N, 2) array or two plain arrays);
          other layouts are copied once. Other dtypes raise `TypeError`.
        - root: the node to test from; 0 is the first node created, the window of a tree built
          from a scene (`Scene.root` names it).
        - out: an optional int32 array of the same length to write into.
        - Returns: an int32 array of handles, -1 (`NULL_NODE`) where nothing is hit.
        - Raises: `HitTestError` (a bad or stale root handle...), `TypeError`, `ValueError`.

        The GIL is released during the C call. Calls of 65,536 points or more build the root's
        answer grid first (once; when no other thread is querying).
        """
        x = _float64_vector(xs, "xs")
        y = _float64_vector(ys, "ys")
        if x.shape[0] != y.shape[0]:
            raise ValueError(f"xs and ys must have the same length, got {x.shape[0]} and {y.shape[0]}")
        if x.shape[0] > 1 and (x.strides[0] != y.strides[0] or x.strides[0] <= 0 or x.strides[0] % 8):
            x = np.ascontiguousarray(x)
            y = np.ascontiguousarray(y)
        if out is None:
            out = np.empty(x.shape[0], dtype=np.int32)
        elif not (isinstance(out, np.ndarray) and out.dtype == np.int32 and out.ndim == 1
                  and out.shape[0] == x.shape[0] and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError("out must be a writable, contiguous 1-D int32 array as long as xs")
        self._hit_test_strided(int(root), x, y, out)
        if out.shape[0] and out.min() == _core.PENDING_NODE:
            raise HitTestError(
                "the tree has nodes whose hit test lives in a handler (HT_FLAG_ASK_*), "
                "which Python cannot answer")
        return out

    def hit_test_points(self, xy: Any, root: int = 0) -> np.ndarray:
        """`hit_test` for an (N, 2) float64 array of x, y rows (C or Fortran order, no copy)."""
        arr = xy if isinstance(xy, np.ndarray) else np.asarray(xy)
        if arr.dtype != np.float64:
            raise TypeError(f"xy must be a float64 array, got dtype {arr.dtype}; convert it with xy.astype(numpy.float64)")
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(f"xy must have shape (N, 2), got {arr.shape}")
        return self.hit_test(arr[:, 0], arr[:, 1], root)

    def screen_to_root(self, xs: Any, ys: Any, root: int = 0) -> Tuple[np.ndarray, np.ndarray]:
        """Points of `root`'s superview space (the screen, where the root's frame lies; the
        coordinates of the `hittest` CLI) in `root`'s bounds space, computed exactly as the CLI
        does (the same arithmetic in the same order, so answers are bit-identical). Returns the
        inputs themselves when the root is at the origin, unscrolled and untransformed."""
        x = _float64_vector(xs, "xs")
        y = _float64_vector(ys, "ys")
        r = self.record(int(root))
        cx, cy = r["center"]
        bx, by, bw, bh = r["bounds"]
        ax, ay = r["anchor"]
        a, b, c, d, tx, ty = r["transform"]
        ox = bx + ax * bw
        oy = by + ay * bh
        if (a, b, c, d, tx, ty) == (1.0, 0.0, 0.0, 1.0, 0.0, 0.0):
            sx = (0.0 - cx) + ox
            sy = (0.0 - cy) + oy
            if sx == 0 and sy == 0:
                return x, y
            return x + sx, y + sy
        det = a * d - b * c
        with np.errstate(all="ignore"):
            inv = [d / det, -b / det, -c / det, a / det, (c * ty - d * tx) / det, (b * tx - a * ty) / det] if det != 0 else []
        if det == 0 or not all(np.isfinite(v) for v in inv):
            nan = np.full(x.shape[0], np.nan)
            return nan, nan.copy()
        ia, ib, ic, id_, itx, ity = inv
        qx = x - cx
        qy = y - cy
        return (ia * qx + ic * qy + itx) + ox, (ib * qx + id_ * qy + ity) + oy

    def hit_test_screen(self, xs: Any, ys: Any, root: int = 0) -> np.ndarray:
        """`hit_test` with the points in `root`'s superview space (the CLI's coordinates)."""
        x, y = self.screen_to_root(xs, ys, root)
        return self.hit_test(x, y, root)

    def __enter__(self) -> "Tree":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
