"""`python -m hittest query SCENE POINTS [-o FILE]`: the `hittest query` command of the Swift CLI.

POINTS is CSV (`x,y` per line, an optional header line starting with `x`) or little-endian
float64 pairs (`.f64`), in the root's superview space. Writes CSV `x,y,id` (an empty id where
nothing is hit) to standard output or FILE: a CSV input's numbers as written, a `.f64` input's
as the Swift CLI formats them (whole numbers without a fraction).
"""
from __future__ import annotations

import re
import sys
from typing import List, Optional, Sequence, TextIO, Tuple

import numpy as np

from . import HitTestError, SceneError, load_scene
from ._scene_json import format_number as _format_number

USAGE = "usage: python -m hittest query SCENE POINTS [-o FILE]"

#: Where a line ends: LF, CRLF or a lone CR (the Swift CLI's `TextLineReader`).
_LINE_END = re.compile(r"\r\n|\r|\n")


class Failure(Exception):
    """A message for standard error and exit status 1."""


def read_csv_points(data: bytes, name: str) -> Tuple[np.ndarray, np.ndarray, List[str]]:
    """The points of a CSV file and each point's `x,y` text as written."""
    try:
        text = data.decode("utf-8-sig", errors="strict")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise Failure(f"{name}:{line}: the byte 0x{data[e.start]:02X} is not UTF-8 text (a points file is CSV "
                      "text, or float64 pairs named .f64)") from None
    xs: List[float] = []
    ys: List[float] = []
    texts: List[str] = []
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # the text ends with a line end: no empty last line
    for number, raw in enumerate(lines, start=1):
        line = raw.strip(" \t")
        if not line:
            continue
        if number == 1 and line[:1] in ("x", "X"):
            continue
        parts = line.split(",")
        if len(parts) != 2:
            raise Failure(f"{name}:{number}: expected x,y, found {line[:60]!r}")
        try:
            x, y = float(parts[0]), float(parts[1])
        except ValueError:
            raise Failure(f"{name}:{number}: {line[:60]!r} is not two numbers") from None
        xs.append(x)
        ys.append(y)
        texts.append(raw)  # repeated as it is, spaces kept (the Swift CLI's rule)
    return np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64), texts


def format_number(x: float) -> str:
    """A number as the Swift CLI writes a `.f64` input's: whole numbers below 1e15 as integers,
    others as Swift's `description` (``9.99e+15``, where ``repr`` writes 9990000000000000.0)."""
    return _format_number(x)  # nan, inf and -inf as Swift writes them too


def query(argv: Sequence[str], out: TextIO) -> None:
    args = list(argv)
    output: Optional[str] = None
    if "-o" in args:
        i = args.index("-o")
        if i + 1 >= len(args):
            raise Failure("-o needs a FILE")
        output = args[i + 1]
        del args[i : i + 2]
    if len(args) != 2:
        raise Failure(USAGE)
    scene_path, points_path = args
    scene = load_scene(scene_path)
    try:
        with open(points_path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Failure(f"cannot read {points_path}: {e.strerror}") from None
    if points_path.endswith(".f64"):
        if len(data) % 16:
            raise Failure(f"{points_path}: {len(data)} bytes is not a whole number of x,y float64 pairs")
        xy = np.frombuffer(data, dtype="<f8").astype(np.float64).reshape(-1, 2)
        xs, ys = xy[:, 0], xy[:, 1]
        texts = [format_number(float(x)) + "," + format_number(float(y)) for x, y in zip(xs, ys)]
    else:
        xs, ys, texts = read_csv_points(data, points_path)
    ids = scene.hit_test_ids(xs, ys)
    lines = ["x,y,id\n"] + [f"{t},{'' if i is None else i}\n" for t, i in zip(texts, ids)]
    if output is None or output == "-":
        out.write("".join(lines))
    else:
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(lines))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    if args[0] != "query":
        print(f"unknown command {args[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    try:
        query(args[1:], sys.stdout)
    except (Failure, SceneError, HitTestError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
