"""Scene files (SCENE_FORMAT.md): JSON view trees, built into a `Tree` exactly as the Swift side
builds its views (`SceneFile.makeWindow()`), so answers are the Swift engine's bit for bit.

One scene contract: this loader accepts and refuses the same files as the Swift loader
(`SceneFile(json:)`, Sources/HitTestScenes), with the same node path and message, checked on a
shared corpus (Tests/Fixtures/scene-contract). Its key table is not a copy typed here: it is
`scene_keys.json`, generated from the Swift table (`SceneAttributes.all`, the recognizer and
animation rules) and kept equal to it by a Swift test. The one difference: a scene with Auto
Layout constraints is refused (this package does not run the layout pass that places its views).
"""
from __future__ import annotations

import json
import math
import operator
import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._scene_json import BadChild, Number, RawNode, Reader, SceneError, brief, fast_members, format_number, limit_text, swift_double
from ._tree import PathLike, Tree

__all__ = ["Scene", "SceneError", "load_scene", "load_snapshot", "parse_scene", "build_scene", "scenes_in", "KEY_TABLE"]

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "scene_keys.json"), encoding="utf-8") as _f:
    #: The scene format's key table (generated from the Swift side's; see the module's doc).
    KEY_TABLE: Dict[str, Any] = json.load(_f)

#: Ranges of SceneLimits (Sources/HitTestScenes/Scene.swift).
COORDINATE_LIMIT: float = KEY_TABLE["limits"]["coordinate"]
ANCHOR_LIMIT: float = KEY_TABLE["limits"]["anchor"]
SCALE_LIMIT: float = KEY_TABLE["limits"]["scale"]

#: Every key a node may have, in the order the Swift loader reads them (not `children`).
KEYS: Tuple[str, ...] = tuple(k["key"] for k in KEY_TABLE["nodeKeys"])

_AUTO_LAYOUT = ('"constraints" (Auto Layout): the frames come from the Swift layout pass, which this '
                "package does not run; lay the scene out in Swift (SceneFile.makeWindow) and save it without constraints")


class _Fail(Exception):
    """A message without a path (the node's path is added where the node is known)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _int_text(v: Any, bits: int, signed: bool) -> Optional[int]:
    """Swift's `Int(text)` / `UInt(text)` of a number's text: an optional minus sign and digits
    (no fraction, no exponent) within the type's range; None otherwise."""
    if not isinstance(v, Number):
        return None
    t = v.text
    digits = t[1:] if t.startswith("-") else t
    if not (digits.isascii() and digits.isdigit()):
        return None
    significant = digits.lstrip("0") or "0"
    if len(significant) > 40:  # far beyond 64 bits (and int() of 5,000 digits would raise)
        return None
    i = -int(significant) if t.startswith("-") else int(significant)
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2 ** bits - 1)
    return i if low <= i <= high else None


# -- Reading each form: (spec, key, value, the node's values so far) -> the value to keep, or
# _ABSENT to keep nothing (a default); raises _Fail. Messages are the Swift loader's.

_ABSENT = object()


def _read_numbers(key: str, v: Any, count: int) -> List[float]:
    if not isinstance(v, list):
        raise _Fail(f'"{key}" must be an array of {count} numbers, found {brief(v)}')
    out = []
    for item in v:
        if not isinstance(item, Number):
            raise _Fail(f'"{key}" must be an array of {count} numbers, found {brief(item)} in it')
        if not math.isfinite(item.value):
            raise _Fail(f'"{key}": {brief(item)} is out of range (the largest number a scene file can hold is '
                        "about 1.8e308; coordinates must be within ±1e15)")
        out.append(item.value)
    if len(out) != count:
        raise _Fail(f'"{key}" must have {count} numbers, found {len(out)}')
    return out


def _read_id(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not isinstance(v, str) or not v:
        raise _Fail('"id" must be a non-empty string')
    return v


def _read_string(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not isinstance(v, str):
        raise _Fail(f'"{key}" must be a string, found {brief(v)}')
    return v


def _read_numbers_form(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    return _read_numbers(key, v, len(spec["limits"]))


def _read_bool(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not isinstance(v, bool):
        raise _Fail(f'"{key}" must be true or false, found {brief(v)}')
    return _kept(spec, v, v)


def _kept(spec: Dict[str, Any], value: Any, as_json: Any) -> Any:
    """A kind-specific value equal to its default is not kept (so it is no error on any kind)."""
    if "default" in spec and _same(spec["default"], as_json):
        return _ABSENT
    return value


def _same(default: Any, v: Any) -> bool:
    if isinstance(default, list):
        return isinstance(v, list) and len(v) == len(default) and all(_same(d, x) for d, x in zip(default, v))
    if isinstance(default, bool) or isinstance(v, bool):
        return default is v
    if isinstance(v, Number):
        v = v.value
    return isinstance(v, (int, float)) and float(v) == float(default)


def _read_number(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not isinstance(v, Number):
        raise _Fail(f'"{key}" must be a number, found {brief(v)}')
    if not math.isfinite(v.value):
        raise _Fail(f'"{key}": {brief(v)} is out of range (the largest number a scene file can hold is about 1.8e308)')
    return v.value


def _read_integer(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    bits = int(spec["bits"])
    i = _int_text(v, bits, True)
    if i is None:
        raise _Fail(f'"{key}" must be an integer from {-(2 ** (bits - 1))} to {2 ** (bits - 1) - 1}, found {brief(v)}')
    return i


def _read_raw_options(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    i = _int_text(v, int(spec["bits"]), bool(spec["signed"]))
    if i is None:
        raise _Fail(f'"{key}" must be an integer (the option set\'s raw value), found {brief(v)}')
    return i


def _read_kind(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not isinstance(v, str) or v not in spec["values"]:
        names = ", ".join(f'"{k}"' for k in spec["values"])
        raise _Fail(f'"kind" must be one of {names}, found {brief(v)}')
    return v


def _read_kind_numbers(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    count, limit = int(spec["count"]), spec["limit"]
    if not (isinstance(v, list) and len(v) == count
            and all(isinstance(x, Number) and abs(x.value) <= limit for x in v)):
        raise _Fail(f'"{key}" must be {spec["what"]}, found {brief(v)}')
    return _kept(spec, [x.value for x in v], v)


def _read_rate(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not (isinstance(v, Number) and 0 < v.value <= spec["max"]):
        raise _Fail(f'"{key}" must be {spec["what"]}, found {brief(v)}')
    return _kept(spec, v.value, v)


def _read_content_offset(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not (isinstance(v, list) and len(v) == 2
            and all(isinstance(x, Number) and abs(x.value) <= COORDINATE_LIMIT for x in v)):
        raise _Fail(f'"contentOffset" must be an array of 2 numbers within ±{limit_text(COORDINATE_LIMIT)}, found {brief(v)}')
    x, y = v[0].value, v[1].value
    bounds = values.get("bounds")
    if bounds is not None and (bounds[0], bounds[1]) != (x, y):
        raise _Fail(f'"contentOffset" [{format_number(x)}, {format_number(y)}] differs from the bounds origin '
                    f"[{format_number(bounds[0])}, {format_number(bounds[1])}] (they are the same thing)")
    frame = values["frame"]
    values["bounds"] = [x, y, bounds[2], bounds[3]] if bounds is not None else [x, y, frame[2], frame[3]]
    return _ABSENT


def _read_insets(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    # SceneLayout.swift's layoutMargins and safeAreaInsets.
    if not isinstance(v, list) or len(v) != 4:
        raise _Fail(f'"{key}" must be an array of 4 numbers [top, left, bottom, right], found {brief(v)}')
    for item in v:
        if not (isinstance(item, Number) and abs(item.value) <= COORDINATE_LIMIT):
            raise _Fail(f'"{key}" must hold 4 numbers within ±1e15, found {brief(item)} in it')
    return [x.value for x in v]


def _read_constraints(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    # The strings are Swift's to parse (SceneLayout.swift); this package refuses the scene later.
    if not isinstance(v, list):
        raise _Fail(f'"constraints" must be an array of strings, found {brief(v)}')
    for item in v:
        if not isinstance(item, str):
            raise _Fail(f'"constraints" must be an array of strings, found {brief(item)} in it')
    return v if v else _ABSENT


def _recognizer_problem(v: Any) -> Optional[str]:
    """`SceneRecognizers.problem`: what is wrong with one recognizer object, if anything."""
    rules = KEY_TABLE["recognizers"]
    types = rules["types"]
    if not isinstance(v, dict):
        return f"each recognizer must be an object, found {brief(v)}"
    kind = v.get("type")
    if not isinstance(kind, str) or kind not in types:
        found = f", found {brief(kind)}" if "type" in v else " (it has none)"
        names = ", ".join(f'"{t}"' for t in sorted(types))
        return f'a recognizer\'s "type" must be one of {names}{found}'
    keys = {k["key"]: k for k in types[kind]}
    for key in sorted(v):
        if key == "type":
            continue
        value = v[key]
        if key == "name":
            if not isinstance(value, str):
                return f'recognizer "name" must be a string, found {brief(value)}'
            continue
        if key in rules["common"]:
            if not isinstance(value, bool):
                return f'recognizer "{key}" must be true or false, found {brief(value)}'
            continue
        spec = keys.get(key)
        if spec is None:
            return f'unknown key "{key}" for a {kind} recognizer'
        if spec["form"] == "directions":
            names = rules["directions"]
            if not (isinstance(value, list) and value and all(isinstance(d, str) and d in names for d in value)):
                shown = ", ".join(f'"{d}"' for d in names)
                return f'swipe "direction" must be a non-empty array of {shown}, found {brief(value)}'
            continue
        low, high = spec["min"], spec["max"]
        if spec["form"] == "count":
            if not (_int_text(value, 64, True) is not None and low <= value.value <= high):
                return (f'recognizer "{key}" must be an integer from {limit_text(low)} to {int(high)}, '
                        f"found {brief(value)}")
        elif not (isinstance(value, Number) and low <= value.value <= high):
            return f'recognizer "{key}" must be a number from {limit_text(low)} to {limit_text(high)}, found {brief(value)}'
    return None


def _read_recognizers(spec: Dict[str, Any], key: str, v: Any, values: Dict[str, Any]) -> Any:
    if not isinstance(v, list):
        raise _Fail(f'"recognizers" must be an array of objects, found {brief(v)}')
    for item in v:
        p = _recognizer_problem(item)
        if p is not None:
            raise _Fail(f'"recognizers": {p}')
    return v if v else _ABSENT


_READERS: Dict[str, Callable[[Dict[str, Any], str, Any, Dict[str, Any]], Any]] = {
    "id": _read_id, "string": _read_string, "numbers": _read_numbers_form, "bool": _read_bool,
    "number": _read_number, "integer": _read_integer, "rawOptions": _read_raw_options, "kind": _read_kind,
    "kindNumbers": _read_kind_numbers, "rate": _read_rate, "contentOffset": _read_content_offset,
    "insets": _read_insets, "constraints": _read_constraints, "recognizers": _read_recognizers,
}

_unknown_forms = sorted({k["form"] for k in KEY_TABLE["nodeKeys"]} - set(_READERS))
if _unknown_forms:
    # A key the Swift side added with a form this loader does not know yet: fail loudly at
    # import (the package's tests run at once) rather than accept such files unchecked.
    raise ImportError(f"hittest: scene_keys.json has forms this loader cannot read: {_unknown_forms}")


def _range_problem(spec: Dict[str, Any], key: str, values: Dict[str, Any]) -> Optional[str]:
    """The `check` of the Swift table's entry: out-of-range numbers, a key on the wrong kind."""
    form = spec["form"]
    if form == "numbers" and key in values:
        for x, limit in zip(values[key], spec["limits"]):
            if not abs(x) <= limit:
                return (f'"{key}": {swift_double(x)} is out of range: {spec["what"]} must be within ±{limit_text(limit)} '
                        "(see the scene format's limits)")
    if "kinds" in spec and key in values:
        if values.get("kind") not in spec["kinds"]:
            names = " or ".join(f'"{k}"' for k in spec["kinds"])
            return f'"{key}" needs "kind": {names}'
    return None


class _Node:
    """A node that read without errors: its id, values by key, children, path index."""

    __slots__ = ("id", "values", "children", "index")

    def __init__(self, vid: str, values: Dict[str, Any]) -> None:
        self.id = vid
        self.values = values
        self.children: List["_Node"] = []
        self.index = -1


def _read_node(raw: RawNode) -> _Node:
    """`SceneAttributes.node(from:)`: the id, then unknown and repeated keys, then each key in
    table order. Raises `SceneError` with the path ``[id]`` (or ``[name]`` without an id)."""
    fields = raw.fields
    id_value: Any = _ABSENT
    for k, v in fields:
        if k == "id":
            id_value = v
            break
    if id_value is _ABSENT:
        raise SceneError([raw.name], 'missing "id"')
    if not isinstance(id_value, str) or not id_value:
        raise SceneError([raw.name], '"id" must be a non-empty string')
    vid = id_value
    seen = set()
    for key, value in fields:
        if key == "children":
            if isinstance(value, list):
                raise SceneError([vid], 'key "children" appears twice')
            raise SceneError([vid], f'"children" must be an array of nodes, found {brief(value)}')
        if key not in _SPECS:
            raise SceneError([vid], f'unknown key "{key}"')
        if key in seen:
            raise SceneError([vid], f'key "{key}" appears twice')
        seen.add(key)
    # Each key in table order; a missing required key ("frame") where the table has it.
    items = sorted((_ORDER[k], k, v) for k, v in fields)
    stop = next((i for i, key in _REQUIRED if key not in seen), None)
    values: Dict[str, Any] = {}
    for index, key, v in items:
        if stop is not None and index > stop:
            break
        spec = _SPECS[key]
        try:
            kept = _READERS[spec["form"]](spec, key, v, values)
        except _Fail as e:
            raise SceneError([vid], e.message) from None
        if kept is not _ABSENT:
            values[key] = kept
    if stop is not None:
        raise SceneError([vid], f'missing "{_TABLE_KEYS[stop]}"')
    return _Node(vid, values)


_SPECS: Dict[str, Dict[str, Any]] = {k["key"]: k for k in KEY_TABLE["nodeKeys"]}
_TABLE_KEYS: List[str] = [k["key"] for k in KEY_TABLE["nodeKeys"]]
_ORDER: Dict[str, int] = {k: i for i, k in enumerate(_TABLE_KEYS)}
_REQUIRED: List[Tuple[int, str]] = [(i, k["key"]) for i, k in enumerate(KEY_TABLE["nodeKeys"]) if k.get("required")]
#: The keys with a range or kind check, in table order.
_CHECKED: List[Dict[str, Any]] = [k for k in KEY_TABLE["nodeKeys"] if k["form"] == "numbers" or "kinds" in k]


def _read_tree(raw_root: RawNode) -> _Node:
    """Every node read, parents before children (the order the Swift reader's errors come in:
    a node's own problem before its children's, the first child's before the next one's).
    Iterative: any depth."""
    root = _read_node(raw_root)
    # (raw node, node, index of the next child); the path of ids is the stack's.
    stack: List[List[Any]] = [[raw_root, root, 0]]
    while stack:
        top = stack[-1]
        raw, node, k = top
        if k == len(raw.children):
            stack.pop()
            continue
        top[2] = k + 1
        child = raw.children[k]
        if isinstance(child, BadChild):
            raise SceneError([e[1].id for e in stack], child.message)
        try:
            n = _read_node(child)
        except SceneError as e:
            raise SceneError([e2[1].id for e2 in stack] + e.path, e.message) from None
        node.children.append(n)
        stack.append([child, n, 0])
    return root


def _animations(v: Any) -> List[Dict[str, Any]]:
    """`SceneAnimation.list`: the checked animations of the top-level "animations" key."""
    if not isinstance(v, list):
        raise SceneError([], f'"animations" must be an array of objects, found {brief(v)}')
    rules = KEY_TABLE["animations"]
    known = sorted(rules["keys"])
    limit = COORDINATE_LIMIT
    out = []
    for i, o in enumerate(v):
        def fail(m: str) -> SceneError:
            return SceneError([], f"animations[{i}]: {m}")

        if not isinstance(o, dict):
            raise fail(f"must be an object, found {brief(o)}")

        def number(key: str, low: float = -limit) -> Optional[float]:
            if key not in o:
                return None
            x = o[key]
            if not (isinstance(x, Number) and low <= x.value <= limit):
                raise fail(f'"{key}" must be a number from {limit_text(low)} to {limit_text(limit)}, found {brief(x)}')
            return x.value

        def numbers(key: str, count: int) -> Optional[List[float]]:
            if key not in o:
                return None
            x = o[key]
            if not (isinstance(x, list) and len(x) == count
                    and all(isinstance(e, Number) and abs(e.value) <= limit for e in x)):
                raise fail(f'"{key}" must be an array of {count} numbers within ±{limit_text(limit)}, found {brief(x)}')
            return [e.value for e in x]

        bad = next((k for k in sorted(o) if k not in known), None)
        if bad is not None:
            raise fail(f'unknown key "{bad}" ({", ".join(known)})')
        view = o.get("view")
        if not isinstance(view, str) or not view:
            raise fail('"view" must be the id of a node (a non-empty string)')
        on = None
        if "on" in o:
            on = o["on"]
            if not isinstance(on, str) or not on:
                raise fail('"on" must be the id of a button or control (a non-empty string)')
        at = number("at")
        if (at is None) == (on is None):
            raise fail('give exactly one of "at" (the time of the animate call) and "on" (the id of a button whose '
                       "action starts it)")
        if number("duration", 0) is None:
            raise fail('"duration" (seconds, ≥ 0) is required')
        number("delay", 0)
        if "curve" in o:
            c = o["curve"]
            if not isinstance(c, str) or c not in rules["curves"]:
                raise fail(f'"curve" must be one of {", ".join(rules["curves"])}, found {brief(c)}')
        if "allowUserInteraction" in o and not isinstance(o["allowUserInteraction"], bool):
            raise fail(f'"allowUserInteraction" must be true or false, found {brief(o["allowUserInteraction"])}')
        f = numbers("frame", 4)
        if f is not None and (f[2] < 0 or f[3] < 0):
            raise fail('"frame" must have a non-negative size')
        numbers("center", 2)
        t = numbers("transform", 6)
        if t is not None and not all(abs(x) <= SCALE_LIMIT for x in t[:4]):
            raise fail(f'"transform": a, b, c, d must be within ±{limit_text(SCALE_LIMIT)}')
        alpha = number("alpha", 0)
        if alpha is not None and alpha > 1:
            raise fail('"alpha" must be in [0, 1]')
        out.append({"view": view, "on": on})
    return out


def _validate(root: _Node, animations: List[Dict[str, Any]]) -> List[_Node]:
    """`SceneFile.validate()`: ranges and kinds, unique ids (depth first), the animations' ids,
    then (instead of the constraints' references) the refusal of Auto Layout. Returns the nodes
    in depth-first order."""
    order: List[_Node] = []
    parents: List[int] = []

    def path(i: int) -> List[str]:
        p = []
        while i >= 0:
            p.append(order[i].id)
            i = parents[i]
        return p[::-1]

    seen: Dict[str, int] = {}
    controls = set()
    stack: List[Tuple[_Node, int]] = [(root, -1)]
    while stack:
        node, parent = stack.pop()
        node.index = len(order)
        order.append(node)
        parents.append(parent)
        values = node.values
        for spec in _CHECKED:
            if spec["key"] in values:
                problem = _range_problem(spec, spec["key"], values)
                if problem is not None:
                    raise SceneError(path(node.index), problem)
        if node.id in seen:
            raise SceneError(path(node.index), f'id "{node.id}" is used twice (first at {"/".join(path(seen[node.id]))})')
        seen[node.id] = node.index
        if parent < 0 and "kind" in values:
            kind = values["kind"]
            raise SceneError(path(node.index), f'the root is the window and cannot have "kind": "{kind}"; put the {kind} into the root as a child')
        if node.values.get("kind") in ("button", "control"):
            controls.add(node.id)
        for child in reversed(node.children):
            stack.append((child, node.index))
    for i, a in enumerate(animations):
        if a["view"] not in seen:
            raise SceneError([], f'animations[{i}]: no node has the id "{a["view"]}"')
    for i, a in enumerate(animations):
        if a["on"] is not None and a["on"] not in controls:
            raise SceneError([], f'animations[{i}]: "on": "{a["on"]}" is not the id of a node of kind button or control')
    for node in order:
        if "constraints" in node.values:
            raise SceneError(path(node.index), _AUTO_LAYOUT)
    return order


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
        """The id of the view behind `handle`, ``None`` for -1 (`NULL_NODE`). Any other handle
        that is not one of this scene's (0 ... n-1) raises `ValueError` (not Python's negative
        indexing: ``id_of(-5)`` is no view)."""
        h = operator.index(handle)
        if h == _core.NULL_NODE:
            return None
        if not 0 <= h < len(self.ids):
            raise ValueError(f"{h} is not a handle of this scene (0 ... {len(self.ids) - 1}, or -1 for nothing)")
        return self.ids[h]

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



def parse_scene(text: Union[str, bytes, bytearray, memoryview]) -> Scene:
    """Builds a scene from the bytes (or text) of a scene file (see `load_scene`)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    r = Reader(data)
    r.check_encoding()
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    top = _TopLevel()
    fast = fast_members(data, start)
    if fast is not None:
        for key, value in fast:
            top.member(key, lambda kind, v=value: v)
        return top.finish()
    # The exact reader, member by member as the Swift loader reads them: a member's problem is
    # raised before a syntax error further on.
    r.i = start
    r.expect("{", "a JSON object (a scene file starts with '{')")
    seen = set()
    if not r.take("}"):
        while True:
            key = r.string()
            if key in seen:
                raise SceneError([], f'key "{key}" appears twice')
            seen.add(key)
            r.expect(":", "':'")
            top.member(key, lambda kind: r.node() if kind == "node" else r.value())
            if not r.take(","):
                break
        r.expect("}", "',' or '}'")
    r.end()
    return top.finish()


class _TopLevel:
    """The top-level members of a scene file, checked as they come (`SceneFile(json:)`)."""

    def __init__(self) -> None:
        self.format: Any = None
        self.version: Any = None
        self.root: Optional[_Node] = None
        self.animations: List[Dict[str, Any]] = []

    def member(self, key: str, value: Callable[[str], Any]) -> None:
        """One member; `value(kind)` reads its value ("node" for the root, "value" otherwise)."""
        if key == "format":
            self.format = value("value")
        elif key == "version":
            self.version = value("value")
        elif key == "root":
            self.root = _read_tree(value("node"))
        elif key == "animations":
            self.animations = _animations(value("value"))
        else:
            raise SceneError([], f'unknown top-level key "{key}"')

    def finish(self) -> Scene:
        if self.format != "hittest-scene":
            raise SceneError([], '"format" must be "hittest-scene"')
        if not (isinstance(self.version, Number) and self.version.text == "1"):
            raise SceneError([], '"version" must be 1')
        if self.root is None:
            raise SceneError([], 'missing "root"')
        return _build(_validate(self.root, self.animations))


def load_scene(path: PathLike) -> Scene:
    """Loads a scene file (the JSON format of SCENE_FORMAT.md) into a `Scene`: the tree, the
    root (the window) and the handle -> id mapping. Accepts and refuses what the Swift loader
    does (types, unknown keys, ranges, unique ids, recognizers, animations, the encoding),
    raising `SceneError` with the node path and the Swift loader's message; a scene with Auto
    Layout constraints is refused (this package does not run the layout pass)."""
    p = os.fspath(path)
    try:
        with open(p, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SceneError([], f"cannot read {p}: {e.strerror}") from None
    return parse_scene(data)


def build_scene(root: Any) -> Scene:
    """Builds the scene of a root node given as Python data (a dict, as `json.load` gives),
    through the same checks as a file."""
    try:
        text = json.dumps({"format": "hittest-scene", "version": 1, "root": root}, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise SceneError([], f"the root is not JSON data: {e}") from None
    return parse_scene(text)


def _build(order: List[_Node]) -> Scene:
    """The C tree of checked nodes (depth first, parents before children, so handles are
    0 ... n-1 in that order, the window first); each child attached after its earlier siblings."""
    tree = Tree(len(order))
    for node in order:
        h = _apply(tree, node.values)
        if h != node.index:
            raise AssertionError("handles of a fresh tree are 0, 1, 2, ...")
    parents = [-1] * len(order)
    for node in order:
        for child in node.children:
            parents[child.index] = node.index
    for node in order:
        if parents[node.index] >= 0:
            tree.attach(node.index, parents[node.index])
    scene = Scene(tree, 0, [n.id for n in order])
    tree.prepare()
    return scene


def _apply(tree: Tree, values: Dict[str, Any]) -> int:
    """Creates the node of one checked scene node, with the geometry `View` gets from
    `SceneFile.apply`: anchorPoint, then frame (identity transform: bounds size, center =
    origin + anchor * size), then bounds, then transform, flags, alpha, insets, priority."""
    anchor = values.get("anchorPoint", [0.5, 0.5])
    fx, fy, fw, fh = values["frame"]
    h = tree.create_node()
    # View.frame's setter with the identity transform (the transform is set after the frame).
    tree.set_anchor(h, anchor[0], anchor[1])
    tree.set_bounds(h, 0.0, 0.0, fw, fh)
    tree.set_center(h, fx + anchor[0] * fw, fy + anchor[1] * fh)
    if "bounds" in values:
        tree.set_bounds(h, *values["bounds"])
    if "transform" in values:
        tree.set_transform(h, *values["transform"])
    flags = 0
    if values.get("hidden", False):
        flags |= _core.FLAG_HIDDEN
    if not values.get("interactive", True):
        flags |= _core.FLAG_NO_INTERACTION
    if values.get("passesTouchesThrough", False):
        flags |= _core.FLAG_PASS_THROUGH
    if values.get("capturesSubviewTouches", False):
        flags |= _core.FLAG_CAPTURES
    if values.get("allowsSubviewHitsOutsideBounds", False):
        flags |= _core.FLAG_OUTSIDE_HITS
    if values.get("clipsToBounds", False):
        flags |= _core.FLAG_CLIPS
    tree.set_flags(h, flags)
    tree.set_alpha(h, float(values.get("alpha", 1.0)))
    if "hitTestInsets" in values:
        tree.set_insets(h, *values["hitTestInsets"])
    # Int32(clamping:), as the Swift side's C mirror.
    tree.set_priority(h, max(-(2 ** 31), min(2 ** 31 - 1, values.get("hitTestPriority", 0))))
    return h


def scenes_in(paths: Iterable[PathLike]) -> Dict[str, Scene]:
    """Loads several scene files, by path."""
    return {os.fspath(p): load_scene(p) for p in paths}
