"""Scene files (SCENE_FORMAT.md): JSON view trees, built into a `Tree` exactly as the Swift side
builds its views (`SceneFile.makeWindow()`), so answers are the Swift engine's bit for bit."""
from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._tree import PathLike, Tree

#: Ranges of SceneLimits (Sources/HitTestScenes/Scene.swift).
COORDINATE_LIMIT = 1e15
ANCHOR_LIMIT = 1e6
SCALE_LIMIT = 1e6

#: Every key a node may have (`SceneAttributes.all` plus `children`).
KEYS = (
    "id", "class", "anchorPoint", "frame", "bounds", "autoresizingMask", "autoresizesSubviews",
    "transform", "hidden", "alpha", "interactive", "clipsToBounds", "tag", "hitTestInsets",
    "passesTouchesThrough", "capturesSubviewTouches", "allowsSubviewHitsOutsideBounds",
    "hitTestPriority", "gestureRecognizers", "children",
) + (
    # Controls, scroll views and recognizers: they change what a touch does, not which view a
    # hit test returns; "contentOffset" is the bounds origin and is applied as such.
    "kind", "enabled", "selected", "highlighted", "contentOffset", "contentSize", "contentInset",
    "scrollEnabled", "pagingEnabled", "bounces", "alwaysBounceVertical", "alwaysBounceHorizontal",
    "decelerationRate", "delaysContentTouches", "canCancelContentTouches", "recognizers",
    # Layout keys that place nothing without constraints.
    "layoutMargins", "safeAreaInsets",
)
_BOOLS = ("hidden", "interactive", "clipsToBounds", "passesTouchesThrough", "capturesSubviewTouches",
          "allowsSubviewHitsOutsideBounds", "gestureRecognizers", "autoresizesSubviews")


class SceneError(ValueError):
    """A problem with a scene file; `path` is the node's path of ids (``window/table/cell-3``)."""

    def __init__(self, path: Sequence[str], message: str) -> None:
        self.path = list(path)
        self.message = message
        super().__init__(f"{'/'.join(self.path)}: {message}" if self.path else message)


def _numbers(node: Dict[str, Any], key: str, count: int, path: List[str], limits: Sequence[float]) -> Optional[List[float]]:
    if key not in node:
        return None
    v = node[key]
    if not isinstance(v, list) or any(isinstance(i, bool) or not isinstance(i, (int, float)) for i in v):
        raise SceneError(path, f'"{key}" must be an array of {count} numbers')
    if len(v) != count:
        raise SceneError(path, f'"{key}" must have {count} numbers, found {len(v)}')
    out = [float(i) for i in v]
    for x, limit in zip(out, limits):
        if not math.isfinite(x) or abs(x) > limit:
            raise SceneError(path, f'"{key}": {x!r} is out of range (within ±{limit:g})')
    return out


def _clamp32(v: int) -> int:
    return max(-(2 ** 31), min(2 ** 31 - 1, v))


class Scene:
    """A scene built into a C tree.

    - `tree`: the `Tree`; `root`: the window's handle; `ids`: the view id of every handle
      (``ids[h]``; handles are 0 ... n-1 in depth-first order, the window first).
    - `hit_test(xs, ys)`: handles, `hit_test_ids(xs, ys)`: view ids (``None`` for nothing), with
      points in the root's superview space (the screen), as `hittest query` takes them.
    """

    def __init__(self, tree: Tree, root: int, ids: Sequence[str]) -> None:
        self.tree = tree
        self.root = int(root)
        self.ids: List[str] = list(ids)
        # ids by handle with a None at the end: table[-1] (NULL_NODE) is None.
        self._table = np.empty(len(self.ids) + 1, dtype=object)
        self._table[: len(self.ids)] = self.ids
        self._table[-1] = None
        self._handles = {s: h for h, s in enumerate(self.ids)}

    def handle(self, view_id: str) -> int:
        """The handle of the view with this id (`KeyError` if none)."""
        return self._handles[view_id]

    def id_of(self, handle: int) -> Optional[str]:
        """The id of the view behind `handle`, ``None`` for -1."""
        return None if handle == _core.NULL_NODE else self.ids[handle]

    def hit_test(self, xs: Any, ys: Any) -> np.ndarray:
        """Handles (int32, -1 for nothing) hit by points in the root's superview space."""
        return self.tree.hit_test_screen(xs, ys, self.root)

    def ids_of(self, handles: np.ndarray) -> np.ndarray:
        """An object array of view ids (``None`` for -1) for an array of handles of this scene."""
        h = np.asarray(handles)
        if h.size and (h.max() >= len(self.ids) or h.min() < -1):
            raise ValueError("a handle that is not a view of this scene")
        return self._table[h]

    def hit_test_ids(self, xs: Any, ys: Any) -> List[Optional[str]]:
        """The id of the view hit by each point (``None`` for nothing), the points in the root's
        superview space as for ``hittest query``. xs, ys: 1-D float64 arrays (or sequences of
        floats) of the same length."""
        return self.ids_of(self.hit_test(xs, ys)).tolist()

    def save_snapshot(self, path: PathLike) -> None:
        """Writes the tree as a snapshot file at `path` and the ids beside it
        (``path + ".ids.json"``), for `load_snapshot` (and the Dask helper)."""
        self.tree.save(path)
        with open(os.fspath(path) + ".ids.json", "w", encoding="utf-8") as f:
            json.dump({"root": self.root, "ids": self.ids}, f)

    @classmethod
    def from_snapshot_bytes(cls, data: bytes, ids: Sequence[str], root: int = 0) -> "Scene":
        """A scene from snapshot bytes and its id list (what the Dask helper ships to workers)."""
        return cls(Tree.from_bytes(data), root, ids)


def load_snapshot(path: PathLike) -> Scene:
    """A scene saved by `Scene.save_snapshot`: the snapshot file and its ``.ids.json``."""
    with open(os.fspath(path) + ".ids.json", encoding="utf-8") as f:
        meta = json.load(f)
    return Scene(Tree.load(path), meta["root"], meta["ids"])


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            where = f' (in the node "{out["id"]}")' if isinstance(out.get("id"), str) else ""
            raise ValueError(f'key "{k}" appears twice{where}')
        out[k] = v
    return out


def parse_scene(text: Union[str, bytes]) -> Scene:
    """Builds a scene from JSON text (see `load_scene`)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8-sig")
    elif text.startswith("\ufeff"):
        text = text[1:]
    try:
        doc = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise SceneError([], "the scene nests too deeply for Python's JSON reader") from None
    except ValueError as e:
        raise SceneError([], f"not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise SceneError([], "a scene file is a JSON object")
    for k in doc:
        # "animations" (scene animations on a clock) does not change the model at load time.
        if k not in ("format", "version", "root", "animations"):
            raise SceneError([], f'unknown top-level key "{k}"')
    if doc.get("format") != "hittest-scene":
        raise SceneError([], '"format" must be "hittest-scene"')
    if doc.get("version") != 1 or isinstance(doc.get("version"), bool):
        raise SceneError([], '"version" must be 1')
    if "root" not in doc:
        raise SceneError([], 'missing "root"')
    return build_scene(doc["root"])


def load_scene(path: PathLike) -> Scene:
    """Loads a scene file (the JSON format of SCENE_FORMAT.md) into a `Scene`: the tree, the
    root (the window) and the handle -> id mapping. Checks what the Swift loader checks (types,
    unknown keys, ranges, unique ids) and raises `SceneError` naming the node path."""
    try:
        with open(os.fspath(path), "rb") as f:
            data = f.read()
    except OSError as e:
        raise SceneError([], f"cannot read {os.fspath(path)}: {e.strerror}") from None
    return parse_scene(data)


def build_scene(root: Any) -> Scene:
    """Builds the C tree of a scene's root node (a dict), iteratively (any depth)."""
    tree = Tree()
    ids: List[str] = []
    seen: Dict[str, str] = {}
    # Depth-first, parents before children; children attached in subview order.
    stack: List[Tuple[Any, int, List[str], str]] = [(root, _core.NULL_NODE, [], "root")]
    while stack:
        node, parent, parent_path, name = stack.pop()
        if not isinstance(node, dict):
            raise SceneError(parent_path + [name], "a node must be a JSON object")
        vid = node.get("id")
        if not isinstance(vid, str) or not vid:
            raise SceneError(parent_path + [name], 'missing "id"' if "id" not in node else '"id" must be a non-empty string')
        path = parent_path + [vid]
        for k in node:
            if k == "constraints":
                raise SceneError(
                    path, '"constraints" (Auto Layout): the frames come from the Swift layout pass, which this '
                    "package does not run; lay the scene out in Swift (SceneFile.makeWindow) and save it without constraints")
            if k not in KEYS:
                raise SceneError(path, f'unknown key "{k}"')
        if vid in seen:
            raise SceneError(path, f'id "{vid}" is used twice (first at {seen[vid]})')
        seen[vid] = "/".join(path)
        h = _apply(tree, node, path)
        if h != len(ids):
            raise AssertionError("handles of a fresh tree are 0, 1, 2, ...")
        ids.append(vid)
        if parent != _core.NULL_NODE:
            tree.attach(h, parent)
        children = node.get("children", [])
        if not isinstance(children, list):
            raise SceneError(path, '"children" must be an array of nodes')
        for i, child in reversed(list(enumerate(children))):
            stack.append((child, h, path, f"children[{i}]"))
    # Children are pushed in reverse, so each is attached after its earlier siblings: subview
    # order holds (attach appends on top).
    scene = Scene(tree, 0, ids)
    tree.prepare()
    return scene


def _apply(tree: Tree, node: Dict[str, Any], path: List[str]) -> int:
    """Creates the node of one scene node, with the geometry `View` gets from
    `SceneFile.apply`: anchorPoint, then frame (identity transform: bounds size, center =
    origin + anchor * size), then bounds, then transform, flags, alpha, insets, priority."""
    for k in _BOOLS:
        if k in node and not isinstance(node[k], bool):
            raise SceneError(path, f'"{k}" must be true or false')
    for k in ("tag", "hitTestPriority", "autoresizingMask"):
        if k in node and (isinstance(node[k], bool) or not isinstance(node[k], int)):
            raise SceneError(path, f'"{k}" must be an integer')
    if "class" in node and not isinstance(node["class"], str):
        raise SceneError(path, '"class" must be a string')
    anchor = _numbers(node, "anchorPoint", 2, path, [ANCHOR_LIMIT] * 2) or [0.5, 0.5]
    if "frame" not in node:
        raise SceneError(path, 'missing "frame"')
    fx, fy, fw, fh = _numbers(node, "frame", 4, path, [COORDINATE_LIMIT] * 4)  # type: ignore[misc]
    bounds = _numbers(node, "bounds", 4, path, [COORDINATE_LIMIT] * 4)
    offset = _numbers(node, "contentOffset", 2, path, [COORDINATE_LIMIT] * 2)
    if offset is not None:
        # A scroll view's contentOffset is its bounds origin (SEMANTICS S1).
        if bounds is not None and (bounds[0], bounds[1]) != (offset[0], offset[1]):
            raise SceneError(path, f'"contentOffset" {offset} differs from the bounds origin {bounds[:2]} (they are the same thing)')
        bounds = [offset[0], offset[1], bounds[2], bounds[3]] if bounds is not None else [offset[0], offset[1], fw, fh]
    transform = _numbers(node, "transform", 6, path, [SCALE_LIMIT] * 4 + [COORDINATE_LIMIT] * 2)
    insets = _numbers(node, "hitTestInsets", 4, path, [COORDINATE_LIMIT] * 4)
    alpha = node.get("alpha", 1.0)
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not math.isfinite(alpha):
        raise SceneError(path, '"alpha" must be a finite number')

    h = tree.create_node()
    # View.frame's setter with the identity transform (the transform is set after the frame).
    tree.set_anchor(h, anchor[0], anchor[1])
    tree.set_bounds(h, 0.0, 0.0, fw, fh)
    tree.set_center(h, fx + anchor[0] * fw, fy + anchor[1] * fh)
    if bounds is not None:
        tree.set_bounds(h, *bounds)
    if transform is not None:
        tree.set_transform(h, *transform)
    flags = 0
    if node.get("hidden", False):
        flags |= _core.FLAG_HIDDEN
    if not node.get("interactive", True):
        flags |= _core.FLAG_NO_INTERACTION
    if node.get("passesTouchesThrough", False):
        flags |= _core.FLAG_PASS_THROUGH
    if node.get("capturesSubviewTouches", False):
        flags |= _core.FLAG_CAPTURES
    if node.get("allowsSubviewHitsOutsideBounds", False):
        flags |= _core.FLAG_OUTSIDE_HITS
    if node.get("clipsToBounds", False):
        flags |= _core.FLAG_CLIPS
    tree.set_flags(h, flags)
    tree.set_alpha(h, float(alpha))
    if insets is not None:
        tree.set_insets(h, *insets)
    tree.set_priority(h, _clamp32(node.get("hitTestPriority", 0)))
    return h


def scenes_in(paths: Iterable[PathLike]) -> Dict[str, Scene]:
    """Loads several scene files, by path."""
    return {os.fspath(p): load_scene(p) for p in paths}
