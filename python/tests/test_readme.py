"""The README's Python example, run as it is written: every line executed from the repository's
root, and the value its last line states (in its comment) checked."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_python_example_gives_what_it_says(monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) == 1, "the README has one Python example"
    lines = blocks[0].strip().splitlines()
    *body, last = lines
    code, _, stated = last.partition("#")
    monkeypatch.chdir(ROOT)
    names: dict = {}
    exec("\n".join(body), names)
    assert eval(code, names) == ast.literal_eval(stated.strip())
