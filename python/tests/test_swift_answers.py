"""The package's answers equal the Swift engine's (fixtures made with `hittest query`)."""
import subprocess
import sys

import numpy as np
import pytest

import hittest
from conftest import FIXTURES, read_expected


@pytest.mark.parametrize("scene_name", ["scene", "rotated"])
def test_hit_test_ids_equal_swift_cli(scene_name):
    xs, ys, expected = read_expected(f"expected-{scene_name}.csv")
    scene = hittest.load_scene(FIXTURES / f"{scene_name}.json")
    got = scene.hit_test_ids(xs, ys)
    assert len(got) == len(expected)
    mismatches = [(i, got[i], expected[i]) for i in range(len(got)) if got[i] != expected[i]]
    assert mismatches == []
    # The fixture means something: many distinct views, misses and hits.
    assert len(set(expected)) > 20 and None in expected


def test_f64_points_equal_swift_cli():
    data = np.fromfile(FIXTURES / "points.f64", dtype="<f8").reshape(-1, 2)
    _, _, expected = read_expected("expected-rotated-f64.csv")
    scene = hittest.load_scene(FIXTURES / "rotated.json")
    assert scene.hit_test_ids(data[:, 0].copy(), data[:, 1].copy()) == expected


@pytest.mark.parametrize("scene_name,points,expected", [
    ("scene", "points.csv", "expected-scene.csv"),
    ("rotated", "points.csv", "expected-rotated.csv"),
    ("rotated", "points.f64", "expected-rotated-f64.csv"),
    # LF, CRLF and lone CR line ends, spaces and tabs kept, blank lines, no final line end.
    ("scene", "points-line-ends.csv", "expected-scene-line-ends.csv"),
])
def test_query_command_output_is_the_swift_clis_byte_for_byte(scene_name, points, expected):
    out = subprocess.run(
        [sys.executable, "-m", "hittest", "query", str(FIXTURES / f"{scene_name}.json"), str(FIXTURES / points)],
        check=True, capture_output=True)
    assert out.stdout == (FIXTURES / expected).read_bytes()


def test_snapshot_round_trip_and_layouts_give_the_same_answers(tmp_path):
    xs, ys, expected = read_expected("expected-rotated.csv")
    scene = hittest.load_scene(FIXTURES / "rotated.json")
    direct = scene.hit_test(xs, ys)
    # Snapshot file and bytes: same handles.
    path = tmp_path / "rotated.snapshot"
    scene.save_snapshot(path)
    again = hittest.load_snapshot(path)
    assert again.hit_test_ids(xs, ys) == expected
    tree = hittest.Tree.from_bytes(path.read_bytes())
    rx, ry = scene.tree.screen_to_root(xs, ys, scene.root)
    assert np.array_equal(tree.hit_test(rx, ry, root=scene.root), direct)
    # (N, 2) arrays in C and Fortran order, strided views, and one point at a time.
    xy = np.column_stack([rx, ry])
    assert xy.flags.c_contiguous
    assert np.array_equal(tree.hit_test_points(xy, root=scene.root), direct)
    assert np.array_equal(tree.hit_test_points(np.asfortranarray(xy), root=scene.root), direct)
    assert np.array_equal(tree.hit_test(xy[::-1, 0], xy[::-1, 1], root=scene.root), direct[::-1])
    assert np.array_equal(tree.hit_test(rx[::3], ry[::3], root=scene.root), direct[::3])
    ones = [tree.hit_test_one(scene.root, float(x), float(y)) for x, y in zip(rx[:500], ry[:500])]
    assert ones == direct[:500].tolist()
    assert direct.dtype == np.int32


def test_large_calls_use_the_answer_grid_with_the_same_answers():
    scene = hittest.load_scene(FIXTURES / "scene.json")
    rng = np.random.default_rng(3)
    xs = rng.uniform(-50, 450, 200_000)
    ys = rng.uniform(-50, 900, 200_000)
    bulk = scene.hit_test(xs, ys)  # >= 65,536 points: the answer grid is built first
    rx, ry = scene.tree.screen_to_root(xs, ys, scene.root)
    walk = np.array([scene.tree.hit_test_one(scene.root, float(x), float(y)) for x, y in zip(rx[:20000], ry[:20000])])
    assert np.array_equal(bulk[:20000], walk)
    scene.tree.validate()


def test_empty_input():
    scene = hittest.load_scene(FIXTURES / "scene.json")
    assert scene.hit_test_ids(np.array([]), np.array([])) == []
    assert scene.hit_test(np.empty(0), np.empty(0)).dtype == np.int32


def test_columns_and_plain_arrays_are_not_copied(monkeypatch):
    import hittest._tree as t

    scene = hittest.load_scene(FIXTURES / "scene.json")
    xy = np.random.default_rng(2).uniform(0, 400, (1000, 2))
    expected = scene.tree.hit_test(xy[:, 0].copy(), xy[:, 1].copy())

    def no_copy(*a, **k):
        raise AssertionError("copied")

    monkeypatch.setattr(t.np, "ascontiguousarray", no_copy)
    assert np.array_equal(scene.tree.hit_test_points(xy), expected)
    assert np.array_equal(scene.tree.hit_test_points(np.asfortranarray(xy)), expected)
    assert np.array_equal(scene.tree.hit_test(xy[:, 0], xy[:, 1]), expected)
