"""Bad input gets a clear exception, never a crash or a wrong answer."""
import os

import numpy as np
import pytest

import hittest
from conftest import FIXTURES


@pytest.fixture(scope="module")
def scene():
    return hittest.load_scene(FIXTURES / "scene.json")


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32, ">f8", object])
def test_wrong_dtype(scene, dtype):
    xs = np.zeros(4, dtype=dtype)
    ys = np.zeros(4)
    with pytest.raises(TypeError, match="float64"):
        scene.tree.hit_test(xs, ys)
    with pytest.raises(TypeError, match="float64"):
        scene.tree.hit_test(ys, xs)
    with pytest.raises(TypeError, match="float64"):
        scene.tree.hit_test_points(np.zeros((4, 2), dtype=dtype))


def test_mismatched_lengths_and_shapes(scene):
    with pytest.raises(ValueError, match="same length"):
        scene.tree.hit_test(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="same length"):
        scene.hit_test_ids(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="1-D"):
        scene.tree.hit_test(np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"\(N, 2\)"):
        scene.tree.hit_test_points(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="out"):
        scene.tree.hit_test(np.zeros(3), np.zeros(3), out=np.zeros(3, dtype=np.int64))


def test_damaged_snapshot(tmp_path, scene):
    data = scene.tree.to_bytes()
    assert hittest.Tree.from_bytes(data).node_count() == scene.tree.node_count()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    for bad in (bytes(flipped), data[: len(data) - 7], data[:10], b"", b"not a snapshot at all"):
        with pytest.raises(hittest.HitTestError) as e:
            hittest.Tree.from_bytes(bad)
        assert e.value.status == 10 and e.value.status_name == "HT_E_CORRUPT"
        assert "corrupt" in e.value.message.lower() or "truncated" in e.value.message.lower()
    path = tmp_path / "damaged.snapshot"
    path.write_bytes(bytes(flipped))
    with pytest.raises(hittest.HitTestError, match="HT_E_CORRUPT") as e:
        hittest.Tree.load(path)
    assert str(path) in str(e.value)
    with pytest.raises(hittest.HitTestError) as e:
        hittest.Tree.load(tmp_path / "missing.snapshot")
    assert e.value.status_name == "HT_E_IO"


def test_stale_and_bad_handles():
    tree = hittest.Tree()
    root = tree.create_node()
    child = tree.create_node()
    tree.set_bounds(root, 0, 0, 100, 100)
    tree.set_center(root, 50, 50)
    tree.attach(child, root)
    tree.free_node(child)
    xs = np.array([10.0])
    with pytest.raises(hittest.HitTestError) as e:
        tree.hit_test(xs, xs, root=child)
    assert e.value.status == 4 and e.value.status_name == "HT_E_STALE_NODE"
    assert e.value.message == hittest.status_string(4)
    with pytest.raises(hittest.HitTestError) as e:
        tree.hit_test(xs, xs, root=12345)
    assert e.value.status_name == "HT_E_BAD_NODE"
    with pytest.raises(hittest.HitTestError, match="HT_E_STALE_NODE"):
        tree.set_center(child, 1, 1)
    assert tree.hit_test(xs, xs, root=root).tolist() == [root]
    with pytest.raises(hittest.HitTestError, match="HT_E_NOT_FINITE"):
        tree.set_center(root, float("nan"), 0)
    with pytest.raises(hittest.HitTestError, match="HT_E_CYCLE"):
        tree.attach(root, root)
    tree.close()
    with pytest.raises(hittest.HitTestError, match="closed"):
        tree.hit_test(xs, xs)


def test_non_finite_points_hit_nothing(scene):
    xs = np.array([np.nan, np.inf, -np.inf, 100.0])
    ys = np.array([100.0, 100.0, 100.0, np.nan])
    assert scene.hit_test_ids(xs, ys) == [None, None, None, None]


@pytest.mark.parametrize("text,message", [
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,1,1], "colour": 1}}', 'w: unknown key "colour"'),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w"}}', 'w: missing "frame"'),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,1]}}', 'w: "frame" must have 4 numbers'),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,1,1], "children": [{"id": "w", "frame": [0,0,1,1]}]}}', 'w/w: id "w" is used twice'),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,1,1], "hidden": 1}}', '"hidden" must be true or false'),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,1e16,1]}}', "out of range"),
    ('{"format": "hittest-scene", "version": 2, "root": {"id": "w", "frame": [0,0,1,1]}}', '"version" must be 1'),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,NaN,1]}}', "not valid JSON"),
    ('[1, 2', "not valid JSON"),
    ('{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [0,0,1,1], "alpha": 1, "alpha": 0}}', 'key "alpha" appears twice'),
])
def test_bad_scene_files(text, message):
    with pytest.raises(hittest.SceneError, match=message.replace("(", r"\(").replace("[", r"\[")):
        hittest.parse_scene(text)


def test_missing_scene_file(tmp_path):
    with pytest.raises(hittest.SceneError, match="cannot read"):
        hittest.load_scene(tmp_path / "none.json")


def test_deep_scenes_load_as_in_swift_and_deep_trees_work():
    # The Swift loader reads any depth; so does this one (no recursion per level): a
    # 20,000-deep chain loads and answers, and a repeated id deep down is named by its path.
    depth = 20_000
    text = '{"format": "hittest-scene", "version": 1, "root": '
    text += "".join('{"id": "n%d", "frame": [0,0,9,9], "children": [' % k for k in range(depth))
    text += '{"id": "leaf", "frame": [0,0,1,1]}' + "]}" * depth + "}"
    scene = hittest.parse_scene(text)
    assert len(scene.ids) == depth + 1
    assert scene.hit_test_ids(np.array([0.5, 5.0, 50.0]), np.array([0.5, 5.0, 5.0])) == ["leaf", f"n{depth - 1}", None]
    with pytest.raises(hittest.SceneError) as e:
        hittest.parse_scene(text.replace('"id": "n19998"', '"id": "n5"'))
    assert e.value.path == [f"n{k}" for k in range(19998)] + ["n5"] and e.value.message == 'id "n5" is used twice (first at n0/n1/n2/n3/n4/n5)'
    # A 100,000-deep chain built through the Tree API (nothing recurses in C).
    depth = 100_000
    tree = hittest.Tree()
    parent = -1
    for _ in range(depth):
        n = tree.create_node()
        tree.set_bounds(n, 0, 0, 10, 10)
        tree.set_center(n, 5, 5)
        if parent >= 0:
            tree.attach(n, parent)
        parent = n
    assert tree.hit_test(np.array([1.0, 20.0]), np.array([1.0, 1.0])).tolist() == [parent, -1]


def test_id_of_takes_only_handles_of_the_scene(scene):
    n = len(scene.ids)
    assert scene.id_of(0) == scene.ids[0] and scene.id_of(-1) is None
    assert scene.id_of(np.int32(n - 1)) == scene.ids[-1]
    for bad in (-5, -2, n, 10 ** 9):
        # Not Python's negative indexing: -5 is no view of the scene.
        with pytest.raises(ValueError, match=f"{bad} is not a handle of this scene"):
            scene.id_of(bad)
    with pytest.raises(TypeError):
        scene.id_of(1.5)


def test_set_flags_refuses_values_beyond_32_bits():
    tree = hittest.Tree()
    n = tree.create_node()
    tree.set_flags(n, hittest._core.FLAG_HIDDEN)
    for bad in (2 ** 32 + 1, 2 ** 64, -1):
        # 2**32 + 1 used to be stored as 1 (FLAG_HIDDEN): a silent wrong answer.
        with pytest.raises(ValueError, match="flags"):
            tree.set_flags(n, bad)
        assert tree.record(n)["flags"] == hittest._core.FLAG_HIDDEN
    with pytest.raises(hittest.HitTestError, match="HT_E_INVALID_ARGUMENT"):
        tree.set_flags(n, 2 ** 31)  # 32 bits, but not HT_FLAG_* bits
    with pytest.raises(TypeError):
        tree.set_flags(n, 1.0)


def test_the_blocked_flag_stops_hits_as_no_interaction_does_and_is_stored_apart():
    tree = hittest.Tree()
    root, child = tree.create_node(), tree.create_node()
    for n in (root, child):
        tree.set_bounds(n, 0, 0, 100, 100)
        tree.set_center(n, 50, 50)
    tree.attach(child, root)
    xs = np.array([10.0])
    assert tree.hit_test(xs, xs, root=root).tolist() == [child]
    for flag in (hittest._core.FLAG_NO_INTERACTION, hittest._core.FLAG_BLOCKED):
        tree.set_flags(child, flag)
        assert tree.record(child)["flags"] == flag
        assert tree.hit_test(xs, xs, root=root).tolist() == [root]
    tree.set_flags(child, 0)
    assert tree.hit_test(xs, xs, root=root).tolist() == [child]


def test_loading_a_directory_or_a_pipe_as_a_snapshot(tmp_path):
    with pytest.raises(hittest.HitTestError) as e:
        hittest.Tree.load(tmp_path)
    # Not "no memory": the path is a directory.
    assert e.value.status_name == "HT_E_IO" and "is a directory" in str(e.value) and str(tmp_path) in str(e.value)
    with pytest.raises(hittest.HitTestError) as e:
        hittest.Tree.load(tmp_path / "missing.snapshot")
    assert e.value.status_name == "HT_E_IO" and "No such file" in str(e.value)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        with pytest.raises(hittest.HitTestError, match="not a regular file"):
            hittest.Tree.load(fifo)  # refused at once, not a wait for a writer
    with pytest.raises(hittest.SceneError, match="cannot read"):
        hittest.load_scene(tmp_path)


def test_query_command_on_a_binary_points_file_and_large_numbers(tmp_path, capsys):
    from hittest.__main__ import main

    bad = tmp_path / "points.csv"
    bad.write_bytes(b"x,y\n1,2\n\x89PNG\r\n")
    assert main(["query", str(FIXTURES / "scene.json"), str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}:3: the byte 0x89 is not UTF-8 text") and "Traceback" not in err
    # .f64 inputs are written as the Swift CLI writes them ("\(x)": 9.99e+15, not 9990000000000000.0).
    f64 = tmp_path / "points.f64"
    np.array([9.99e15, 1.0, 1e15, 0.5, np.nan, np.inf], dtype="<f8").tofile(f64)
    assert main(["query", str(FIXTURES / "scene.json"), str(f64)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["x,y,id", "9.99e+15,1,", "1000000000000000.0,0.5,", "nan,inf,"]
