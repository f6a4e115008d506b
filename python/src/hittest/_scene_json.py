"""The scene file's JSON reader: the Swift loader's reader (`SceneJSONReader`,
Sources/HitTestScenes/SceneJSON.swift) in Python, so that both accept and refuse the same bytes
with the same message (the shared corpus Tests/Fixtures/scene-contract checks it).

It reads bytes, refuses UTF-16, UTF-32 and bytes that are not UTF-8 before any JSON, and reads
the node tree without recursion (any depth: nodes nest through ``children``); values inside a
node nest at most ``MAX_VALUE_DEPTH`` levels. Numbers keep the text the file wrote (`Number`),
so integers are told from ``1.0`` and ``1e30``, and a 400-digit number is a number that is out of
range, never an `OverflowError`. Errors are `SceneError` with the node path (``[]`` for the file)
and, for syntax errors, the line and column (counted in bytes, as the Swift reader counts them).
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

#: Values nested deeper than this inside one attribute are refused (`SceneJSON.maxValueDepth`).
MAX_VALUE_DEPTH = 32


class SceneError(ValueError):
    """A problem with a scene file; `path` is the node's path of ids (``window/table/cell-3``),
    empty for the file itself; `message` says what is wrong. The ids and what the message quotes
    from the file are as the file has them; ``str(error)`` is ``"path: message"`` with control
    characters and backslashes escaped once (`escape_controls`), as the Swift loader's
    `SceneError.description`: print it as it is."""

    def __init__(self, path: Sequence[str], message: str) -> None:
        self.path = list(path)
        self.message = message
        super().__init__(escape_controls(f"{'/'.join(self.path)}: {message}" if self.path else message))


class Number:
    """A JSON number: its value (a float; ±inf when out of a double's range) and its text."""

    __slots__ = ("value", "text")

    def __init__(self, value: float, text: str) -> None:
        self.value = value
        self.text = text

    def __repr__(self) -> str:
        return f"Number({self.text})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Number) and other.value == self.value

    def __hash__(self) -> int:
        return hash(self.value)


class _Null:
    """JSON ``null`` (distinct from an absent key)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "null"


NULL = _Null()

#: A JSON value: Number, str, bool, NULL, list, dict (an object: keys unique).
Value = Any


def escape_controls(text: str) -> str:
    """`escapingControlCharacters` of the Swift side (Sources/HitTestKit/Core/TextLines.swift):
    control characters (C0, DEL, C1) and the backslash escaped as ``\\n``, ``\\r``, ``\\t``,
    ``\\\\`` and ``\\u{XX}``."""
    if not _CONTROL.search(text):
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or 0x7F <= o < 0xA0:
            out.append("\\u{%X}" % o)
        else:
            out.append(ch)
    return "".join(out)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\\\\]")


def brief(v: Value) -> str:
    """`SceneJSON.brief`: a value as messages show it."""
    if isinstance(v, Number):
        return v.text[:40] + "…" if len(v.text) > 40 else v.text
    if isinstance(v, str):
        return '"' + v[:40] + '"'
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is NULL:
        return "null"
    if isinstance(v, list):
        return "an array"
    return "an object"


def swift_double(d: float) -> str:
    """A double as Swift's ``"\\(d)"`` prints it: the shortest round-trip digits, as ``repr``,
    except that Swift writes numbers above 2**53 in exponent form (``9.99e+15``) where ``repr``
    waits until 1e16 (``9990000000000000.0``)."""
    if 2.0 ** 53 < abs(d) < 1e16:
        digits = repr(abs(d))[:-2]  # an integer: "9990000000000000.0"
        exponent = len(digits) - 1
        digits = digits.rstrip("0")
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{'-' if d < 0 else ''}{mantissa}e+{exponent:02d}"
    return repr(d)


def format_number(d: float) -> str:
    """`SceneJSON.format`: whole numbers below 1e15 without a fraction, others as Swift prints
    them (`swift_double`)."""
    if d == d and abs(d) < 1e15 and d == round(d):
        return "0" if d == 0 else str(int(d))
    return swift_double(d)


def limit_text(d: float) -> str:
    """`SceneLimits.text`: a power of ten from 1e6 up as ``1e6``, others as `format_number`."""
    m = abs(d)
    if 1e6 <= m < float("inf"):
        e = len(str(int(m))) - 1
        if float(10 ** e) == m:
            return ("-" if d < 0 else "") + f"1e{e}"
    return format_number(d)


class RawNode:
    """A node object as read: its members (`fields`, in file order, ``children`` arrays left
    out), its children (`RawNode`, or `BadChild` for a child that is not an object), and the
    name that stands for it in messages before it has an id (``root``, ``children[2]``)."""

    __slots__ = ("name", "fields", "children", "saw_children")

    def __init__(self, name: str) -> None:
        self.name = name
        self.fields: List[Tuple[str, Value]] = []
        self.children: List[Union["RawNode", "BadChild"]] = []
        self.saw_children = False


class BadChild:
    """An element of ``children`` that is not an object: the message the Swift reader gives."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


_WS = re.compile(rb"[ \t\n\r]*")
_SPACE = frozenset(b" \t\n\r")
_NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NUMBER_ARRAY = re.compile(rb"\[[ \t\n\r]*" + _NUMBER.pattern + rb"(?:[ \t\n\r]*,[ \t\n\r]*" + _NUMBER.pattern
                           + rb")*[ \t\n\r]*\]")
_PLAIN = re.compile(rb'"([^"\\\x00-\x1f]*)"')
_DIGITS = re.compile(rb"[0-9]*")
_HEX4 = re.compile(rb"[0-9A-Fa-f]{4}")
_ESCAPES = {
    ord('"'): b'"', ord("\\"): b"\\", ord("/"): b"/", ord("b"): b"\x08", ord("f"): b"\x0c",
    ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t",
}


class Reader:
    """`SceneJSONReader`: the same checks, the same positions, the same messages."""

    def __init__(self, data: bytes) -> None:
        self.b = data
        self.i = 0

    # -- positions and errors ------------------------------------------------------------

    def position(self, at: int) -> str:
        at = min(at, len(self.b))
        line = self.b.count(b"\n", 0, at) + 1
        column = at - (self.b.rfind(b"\n", 0, at) + 1) + 1
        return f"line {line}, column {column}"

    def syntax(self, message: str, at: Optional[int] = None) -> SceneError:
        at = self.i if at is None else at
        if at >= len(self.b):
            found = "the end of the file"
        else:
            lines = [p for p in re.split(rb"[\n\r]", self.b[at:at + 12]) if p]
            text = lines[0].decode("utf-8", "replace") if lines else ""
            found = f"'{text}'"
        return SceneError([], f"not valid JSON: {self.position(at)}: {message}, found {found}")

    def check_encoding(self) -> None:
        """UTF-16 / UTF-32 and bytes that are not UTF-8 are refused before any JSON."""
        b = self.b
        n = len(b)

        def wide(name: str, why: str) -> SceneError:
            return SceneError([], f"the file is {name} ({why}); a scene file must be UTF-8: "
                                  f"convert it (e.g. iconv -f {name} -t UTF-8)")

        if n >= 4 and (b[:4] == b"\xff\xfe\x00\x00" or b[:4] == b"\x00\x00\xfe\xff"):
            raise wide("UTF-32", "it starts with a UTF-32 byte order mark")
        if n >= 2 and (b[:2] == b"\xff\xfe" or b[:2] == b"\xfe\xff"):
            raise wide("UTF-16", "it starts with a UTF-16 byte order mark")
        if n >= 2 and (b[0] == 0) != (b[1] == 0):
            other = b[1] if b[0] == 0 else b[0]
            if other in (0x09, 0x0A, 0x0D) or 0x20 <= other <= 0x7E:
                order = "big" if b[0] == 0 else "little"
                raise wide("UTF-16", f"{order}-endian: NUL bytes between the characters")
        try:
            b.decode("utf-8")
        except UnicodeDecodeError as e:
            raise SceneError([], f"not UTF-8 text: {self.position(e.start)}: the byte 0x{b[e.start]:02X} is not "
                                 "valid UTF-8 (a scene file is UTF-8 JSON; is this a binary file?)") from None

    # -- tokens ----------------------------------------------------------------------------

    def skip_space(self) -> None:
        i = self.i
        if i < len(self.b) and self.b[i] in _SPACE:
            self.i = _WS.match(self.b, i).end()  # type: ignore[union-attr]

    def peek(self) -> Optional[int]:
        b = self.b
        i = self.i
        if i < len(b):
            c = b[i]
            if c not in _SPACE:
                return c
            self.i = i = _WS.match(b, i).end()  # type: ignore[union-attr]
            if i < len(b):
                return b[i]
        return None

    def expect(self, c: str, what: str) -> None:
        if self.peek() != ord(c):
            raise self.syntax(f"expected {what}")
        self.i += 1

    def take(self, c: str) -> bool:
        if self.peek() == ord(c):
            self.i += 1
            return True
        return False

    def string(self) -> str:
        if self.peek() != ord('"'):
            raise self.syntax("expected a string")
        b = self.b
        m = _PLAIN.match(b, self.i)
        if m:
            self.i = m.end()
            return m.group(1).decode("utf-8")
        start = self.i
        self.i += 1
        out = bytearray()
        plain = self.i
        n = len(b)
        while True:
            if self.i >= n:
                raise self.syntax("unterminated string", at=start)
            c = b[self.i]
            if c == 0x22:
                out += b[plain:self.i]
                self.i += 1
                return out.decode("utf-8")
            if c < 0x20:
                raise self.syntax("control character in a string")
            if c == 0x5C:
                out += b[plain:self.i]
                if self.i + 1 >= n:
                    raise self.syntax("unterminated string", at=start)
                e = b[self.i + 1]
                self.i += 2
                if e in _ESCAPES:
                    out += _ESCAPES[e]
                elif e == ord("u"):
                    scalar = self._hex4()
                    if 0xD800 <= scalar < 0xDC00 and self.i + 1 < n and b[self.i] == 0x5C and b[self.i + 1] == ord("u"):
                        self.i += 2
                        low = self._hex4()
                        if not 0xDC00 <= low < 0xE000:
                            raise self.syntax("bad surrogate pair")
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    if 0xD800 <= scalar < 0xE000:
                        scalar = 0xFFFD  # a lone surrogate is no Unicode scalar
                    out += chr(scalar).encode("utf-8")
                else:
                    raise self.syntax("bad escape", at=self.i - 2)
                plain = self.i
                continue
            self.i += 1

    def _hex4(self) -> int:
        if not _HEX4.match(self.b, self.i):
            raise self.syntax("bad Unicode escape")
        v = int(self.b[self.i:self.i + 4], 16)
        self.i += 4
        return v

    def number(self) -> Number:
        self.skip_space()
        b = self.b
        start = self.i
        if self.i < len(b) and b[self.i] == 0x2D:
            self.i += 1

        def digits() -> int:
            end = _DIGITS.match(b, self.i).end()  # type: ignore[union-attr]
            count = end - self.i
            self.i = end
            return count

        if digits() == 0:
            self.i = start
            raise self.syntax("expected a value")
        if self.i < len(b) and b[self.i] == 0x2E:
            self.i += 1
            if digits() == 0:
                raise self.syntax("expected digits after '.'")
        if self.i < len(b) and b[self.i] in (0x45, 0x65):
            self.i += 1
            if self.i < len(b) and b[self.i] in (0x2B, 0x2D):
                self.i += 1
            if digits() == 0:
                raise self.syntax("expected digits in the exponent")
        text = b[start:self.i].decode("ascii")
        # float() of a long digit string is correctly rounded (inf beyond a double), never an error.
        return Number(float(text), text)

    def literal(self, word: bytes, value: Value) -> Value:
        if self.b[self.i:self.i + len(word)] != word:
            raise self.syntax("expected a value")
        self.i += len(word)
        return value

    def value(self, depth: int = 0) -> Value:
        """Any value, nesting at most `MAX_VALUE_DEPTH` (recursion bounded by that)."""
        if depth >= MAX_VALUE_DEPTH:
            raise self.syntax("values nested too deeply")
        c = self.peek()
        if c == 0x22:
            return self.string()
        if c == 0x74:
            return self.literal(b"true", True)
        if c == 0x66:
            return self.literal(b"false", False)
        if c == 0x6E:
            return self.literal(b"null", NULL)
        if c == 0x5B:
            if depth + 1 < MAX_VALUE_DEPTH:
                # A flat array of numbers (a frame): one regex, the same grammar as `number`.
                m = _NUMBER_ARRAY.match(self.b, self.i)
                if m:
                    self.i = m.end()
                    return [Number(float(t), t) for t in (x.decode("ascii") for x in _NUMBER.findall(m.group()))]
            self.i += 1
            items: List[Value] = []
            if self.take("]"):
                return items
            while True:
                items.append(self.value(depth + 1))
                if not self.take(","):
                    break
            self.expect("]", "',' or ']'")
            return items
        if c == 0x7B:
            self.i += 1
            members: Dict[str, Value] = {}
            if self.take("}"):
                return members
            while True:
                self.peek()
                at = self.i
                k = self.string()
                if k in members:
                    raise self.syntax(f'key "{k}" appears twice', at=at)
                self.expect(":", "':'")
                members[k] = self.value(depth + 1)
                if not self.take(","):
                    break
            self.expect("}", "',' or '}'")
            return members
        return self.number()

    def end(self) -> None:
        self.skip_space()
        if self.i != len(self.b):
            raise self.syntax("expected the end of the file")

    def node(self) -> RawNode:
        """One node object and everything below it, iteratively (`SceneJSONReader.node`).
        Syntax errors are raised here; node errors are left for the loader's checks."""
        if self.peek() != 0x7B:
            raise SceneError([], '"root" must be a node object')
        self.i += 1
        root = RawNode("root")
        stack = [root]
        started = [0]
        in_children = False
        opened = True
        while stack:
            top = stack[-1]
            if in_children:
                if self.take(","):
                    if self.peek() != 0x7B:
                        at = self.i
                        v = self.value()
                        top.children.append(BadChild(
                            f'"children" must be an array of nodes, found {brief(v)} at {self.position(at)}'))
                        started[-1] += 1
                        continue
                    self.i += 1
                    child = RawNode(f"children[{started[-1]}]")
                    started[-1] += 1
                    top.children.append(child)
                    stack.append(child)
                    started.append(0)
                    in_children = False
                    opened = True
                    continue
                self.expect("]", "',' or ']'")
                in_children = False
                opened = False
                continue
            if opened:
                opened = False
                if self.take("}"):
                    stack.pop()
                    started.pop()
                    in_children = True
                    continue
            elif not self.take(","):
                self.expect("}", "',' or '}'")
                stack.pop()
                started.pop()
                in_children = True
                continue
            key = self.string()
            self.expect(":", "':'")
            if key == "children" and not top.saw_children and self.peek() == 0x5B:
                top.saw_children = True
                self.i += 1
                if self.take("]"):
                    continue
                if self.peek() != 0x7B:
                    at = self.i
                    v = self.value()
                    top.children.append(BadChild(
                        f'"children" must be an array of nodes, found {brief(v)} at {self.position(at)}'))
                    started[-1] = 1
                    in_children = True
                    continue
                self.i += 1
                child = RawNode("children[0]")
                started[-1] = 1
                top.children.append(child)
                stack.append(child)
                started.append(0)
                opened = True
                continue
            top.fields.append((key, self.value()))
        return root


# -- The fast path -----------------------------------------------------------------------------
#
# Most files are plain JSON that Python's C scanner reads exactly as the reader above would. It
# is used when it can be trusted to: nesting well below Python's recursion limit (counted first,
# outside strings), no duplicate key, no NaN / Infinity, no surrogate escapes (the Swift reader
# turns a lone one into U+FFFD, and refuses a broken pair), no value nested deeper than
# MAX_VALUE_DEPTH, no child that is not an object (its message gives a position). Anything else,
# including every file with a syntax error, goes to `Reader`, which gives the exact outcome.

FAST_NESTING = 200

_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class _Fallback(Exception):
    """This file is for the exact reader."""


def _pairs(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    d: Dict[str, Any] = {}
    for k, v in pairs:
        if k in d:
            raise _Fallback
        d[k] = v
    return d


def _number(text: str) -> Number:
    if not text.isascii():  # only the pure-Python scanner reads non-ASCII digits
        raise _Fallback
    return Number(float(text), text)


def _constant(name: str) -> Any:
    raise _Fallback


def _plain(v: Any, depth: int) -> Value:
    """A value of the C scanner as the reader's: null as NULL; nesting checked (at most 32)."""
    if depth >= MAX_VALUE_DEPTH:
        raise _Fallback
    if v is None:
        return NULL
    if type(v) is list:
        if depth + 1 < MAX_VALUE_DEPTH and all(type(x) is Number for x in v):
            return v  # the common case: an array of numbers
        return [_plain(x, depth + 1) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x, depth + 1) for k, x in v.items()}
    return v


def _raw_root(d: Dict[str, Any]) -> RawNode:
    root = RawNode("root")
    stack = [(d, root)]
    while stack:
        obj, raw = stack.pop()
        for k, v in obj.items():
            if k == "children" and isinstance(v, list):
                raw.saw_children = True
                for i, c in enumerate(v):
                    if not isinstance(c, dict):
                        raise _Fallback
                    child = RawNode(f"children[{i}]")
                    raw.children.append(child)
                    stack.append((c, child))
            elif type(v) is Number or type(v) is str or type(v) is bool:
                raw.fields.append((k, v))
            else:
                raw.fields.append((k, _plain(v, 0)))
    return root


def fast_members(data: bytes, start: int) -> Optional[List[Tuple[str, Value]]]:
    """The top-level members of a checked-UTF-8 file (from byte `start`, after a byte order
    mark), "root" as a `RawNode`, read by the C scanner; None when the file is for `Reader`."""
    if _SURROGATE_ESCAPE.search(data, start):
        return None
    import numpy as np  # the package depends on it; only needed here

    outside = np.frombuffer(_STRINGS.sub(b"", data[start:]), dtype=np.uint8)
    if outside.size:
        step = (outside == 0x7B).astype(np.int32) + (outside == 0x5B) - (outside == 0x7D) - (outside == 0x5D)
        if int(np.cumsum(step).max()) > FAST_NESTING:
            return None
    try:
        import json

        doc = json.loads(data[start:].decode("utf-8"), object_pairs_hook=_pairs, parse_int=_number,
                         parse_float=_number, parse_constant=_constant)
        if not isinstance(doc, dict) or not isinstance(doc.get("root", {}), dict):
            return None
        return [(k, _raw_root(v) if k == "root" else _plain(v, 0)) for k, v in doc.items()]
    except (ValueError, RecursionError, _Fallback):
        return None
