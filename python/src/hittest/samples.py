"""Random scenes and taps for examples, tests and benchmarks (deterministic from a seed)."""
from __future__ import annotations

import random
from typing import Any, Dict

import numpy as np

#: The window size of `random_scene`.
WIDTH, HEIGHT = 390.0, 844.0


def random_scene(seed: int, views: int = 300) -> Dict[str, Any]:
    """A scene (the JSON document as a dict) of about `views` views: a window with nested
    panels, cells and buttons, some rotated, scaled, scrolled, hidden or inset."""
    rng = random.Random(seed)
    count = [1]

    def q(x: float) -> float:
        return round(x * 4) / 4

    def make(w: float, h: float, depth: int) -> Dict[str, Any]:
        count[0] += 1
        fw, fh = q(rng.uniform(8, max(8.5, w * 0.6))), q(rng.uniform(8, max(8.5, h * 0.45)))
        n: Dict[str, Any] = {"id": f"s{seed}-v{count[0]}",
                             "frame": [q(rng.uniform(-10, w - fw / 2)), q(rng.uniform(-10, h - fh / 2)), fw, fh]}
        r = rng.random()
        if r < 0.1:
            n["transform"] = [0.8, 0.6, -0.6, 0.8, 0, 0]
        elif r < 0.15:
            n["transform"] = [1.25, 0, 0, 0.75, 3, -2]
        if rng.random() < 0.08:
            n["bounds"] = [0, q(rng.uniform(0, 200)), fw, fh]
        if rng.random() < 0.04:
            n["hidden"] = True
        if rng.random() < 0.06:
            n["hitTestInsets"] = [-4, -4, -4, -4]
        if rng.random() < 0.05:
            n["passesTouchesThrough"] = True
        if rng.random() < 0.05:
            n["hitTestPriority"] = 1
        if depth > 0 and count[0] < views:
            kids = [make(fw, fh, depth - 1) for _ in range(rng.randint(1, 6)) if count[0] < views]
            if kids:
                n["children"] = kids
        return n

    children = []
    while count[0] < views:
        children.append(make(WIDTH, HEIGHT, 4))
    root = {"id": "window", "frame": [0, 0, WIDTH, HEIGHT], "children": children}
    return {"format": "hittest-scene", "version": 1, "root": root}


def random_taps(partition: int, rows: int, screens: int, seed: int = 0) -> "Any":
    """A pandas DataFrame of `rows` taps (columns screen: int32, x, y: float64), the same for
    the same (partition, rows, screens, seed) on every machine: one partition of a tap table."""
    import pandas as pd

    rng = np.random.default_rng([seed, partition])
    return pd.DataFrame({
        "screen": rng.integers(0, screens, rows, dtype=np.int32),
        "x": rng.uniform(-20.0, WIDTH + 20.0, rows),
        "y": rng.uniform(-20.0, HEIGHT + 20.0, rows),
    })
