"""Scene keys added for controls, scroll views and layout: the ones that do not move views are
accepted, a scroll view's contentOffset is its bounds origin, and constraints (frames the Swift
layout pass computes) are refused with a clear error rather than answered from stale frames."""
import json

import numpy as np
import pytest

import hittest


def _scene(root):
    return json.dumps({"format": "hittest-scene", "version": 1, "root": root}).encode()


def test_scroll_view_offset_moves_its_content():
    root = {
        "id": "window", "frame": [0, 0, 100, 300],
        "children": [{
            "id": "table", "kind": "scrollView", "frame": [0, 0, 100, 300], "contentOffset": [0, 200],
            "contentSize": [100, 1000], "bounces": False, "recognizers": [],
            "children": [
                {"id": "row-0", "frame": [0, 0, 100, 200]},
                {"id": "row-1", "kind": "button", "enabled": True, "frame": [0, 200, 100, 200]},
            ],
        }],
    }
    scene = hittest.parse_scene(_scene(root))
    # Scrolled by 200: the window's y = 10 is the content's y = 210, in row-1.
    assert scene.hit_test_ids(np.array([50.0]), np.array([10.0])) == ["row-1"]


def test_offset_and_bounds_must_agree():
    root = {"id": "window", "frame": [0, 0, 100, 100], "bounds": [0, 5, 100, 100], "contentOffset": [0, 6]}
    with pytest.raises(hittest.SceneError, match="contentOffset"):
        hittest.parse_scene(_scene(root))


def test_constraints_are_refused_clearly():
    root = {"id": "window", "frame": [0, 0, 100, 100], "layoutMargins": [8, 8, 8, 8],
            "children": [{"id": "a", "frame": [0, 0, 10, 10], "constraints": ["width == 50"]}]}
    with pytest.raises(hittest.SceneError, match="Auto Layout"):
        hittest.parse_scene(_scene(root))
