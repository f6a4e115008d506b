"""One scene contract for both loaders: every file of Tests/Fixtures/scene-contract (and every
scene file of the repository) is accepted or refused by `hittest.load_scene` exactly as
manifest.json says, which is what the Swift loader does (Tests/HitTestScenesTests/
SceneContractTests.swift runs the same manifest): the same node path, the same message."""
import json
from pathlib import Path

import pytest

import hittest
from hittest._scene_json import escape_controls
from hittest.scene import KEY_TABLE, KEYS

REPOSITORY = Path(__file__).resolve().parents[2]
CORPUS = REPOSITORY / "Tests" / "Fixtures" / "scene-contract"
MANIFEST = CORPUS / "manifest.json"


def _cases():
    if not MANIFEST.is_file():  # a copy of python/ without the repository around it
        return []
    return json.loads(MANIFEST.read_text(encoding="utf-8"))["cases"]


CASES = _cases()


def test_the_corpus_is_there():
    assert MANIFEST.is_file(), f"the shared corpus is missing: {MANIFEST}"
    assert len(CASES) > 100


@pytest.mark.parametrize("case", CASES, ids=[c["file"].split("/")[-1] for c in CASES])
def test_corpus_case(case):
    path = CORPUS / case["file"]
    expected = case.get("python", case)
    if expected.get("accepted"):
        scene = hittest.load_scene(path)
        assert scene.ids and scene.tree.node_count() == len(scene.ids)
        return
    with pytest.raises(hittest.SceneError) as e:
        hittest.load_scene(path)
    assert "/".join(e.value.path) == expected["path"], str(e.value)
    assert e.value.message == expected["message"], str(e.value)
    # What is printed escapes control characters once (the Swift loader's description does the same).
    shown = f'{expected["path"]}: {expected["message"]}' if expected["path"] else expected["message"]
    assert str(e.value) == escape_controls(shown)


def test_errors_quote_the_file_escaped_once():
    # The message and the path hold the file's text as it is; str() escapes it once.
    doc = ('{"format":"hittest-scene","version":1,"root":{"id":"w","frame":[0,0,10,10],'
           '"children":[{"id":"a\\nb\\\\c","frame":[0,0,1,1],"k\\u001b[2J":1}]}}')
    with pytest.raises(hittest.SceneError) as e:
        hittest.parse_scene(doc)
    assert e.value.path == ["w", "a\nb\\c"]
    assert e.value.message == 'unknown key "k\x1b[2J"'
    assert str(e.value) == 'w/a\\nb\\\\c: unknown key "k\\u{1B}[2J"'


def test_the_key_table_is_the_generated_one():
    # The keys come from scene_keys.json (generated from the Swift table), not from a list here.
    assert KEYS == tuple(k["key"] for k in KEY_TABLE["nodeKeys"])
    assert KEYS[:4] == ("id", "class", "anchorPoint", "frame")
    assert {"recognizers", "kind", "contentOffset", "decelerationRate", "constraints"} <= set(KEYS)
    assert "Generated from SceneAttributes.all" in KEY_TABLE["about"]


def test_text_and_bytes_and_dicts_take_the_same_path():
    text = (CORPUS / "tag-1e30.json").read_text(encoding="utf-8")
    for source in (text, text.encode("utf-8")):
        with pytest.raises(hittest.SceneError, match=r'^window/a: "tag" must be an integer'):
            hittest.parse_scene(source)
    with pytest.raises(hittest.SceneError, match=r'^window/a: "hitTestPriority" must be an integer'):
        hittest.scene.build_scene({"id": "window", "frame": [0, 0, 10, 10],
                                   "children": [{"id": "a", "frame": [0, 0, 1, 1], "hitTestPriority": 10 ** 30}]})
    with pytest.raises(hittest.SceneError, match="not JSON data"):
        hittest.scene.build_scene({"id": "window", "frame": [0, 0, float("nan"), 10]})
