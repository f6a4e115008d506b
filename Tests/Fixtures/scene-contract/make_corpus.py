"""Writes the scene contract's corpus: one file per case and manifest.json, into this folder.

    python3 Tests/Fixtures/scene-contract/make_corpus.py

The expected outcomes are typed here by hand (they are the contract both loaders must meet:
SceneContractTests in Swift, python/tests/test_scene_contract.py in Python); a new case is one
`ok(...)` or `bad(...)` line. Deterministic: rerunning it rewrites the same bytes.
"""
import json, os, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
cases = []

def dumps(doc):
    return json.dumps(doc, ensure_ascii=False)

def scene(a=None, root_extra=None, children=None, top_extra=None, animations=None):
    root = {"id": "window", "frame": [0, 0, 320, 480]}
    if root_extra: root.update(root_extra)
    if children is not None:
        root["children"] = children
    elif a is not None:
        node = {"id": "a", "frame": [10, 10, 100, 50]}
        node.update(a)
        root["children"] = [node]
    doc = {"format": "hittest-scene", "version": 1, "root": root}
    if animations is not None: doc["animations"] = animations
    if top_extra: doc.update(top_extra)
    return dumps(doc)

def write(name, data):
    if isinstance(data, str): data = data.encode("utf-8")
    with open(os.path.join(OUT, name), "wb") as f: f.write(data)

def ok(name, data, python=None):
    write(name, data)
    c = {"file": name, "accepted": True}
    if python: c["python"] = {"path": python[0], "message": python[1]}
    cases.append(c)

def bad(name, data, path, message, python=None):
    write(name, data)
    c = {"file": name, "path": path, "message": message}
    if python: c["python"] = {"path": python[0], "message": python[1]}
    cases.append(c)

def pos(text, marker, nth=0):
    """line, column (1-based, bytes) of the nth occurrence of marker in text."""
    b = text.encode("utf-8") if isinstance(text, str) else text
    m = marker.encode("utf-8") if isinstance(marker, str) else marker
    i = -1
    for _ in range(nth + 1):
        i = b.index(m, i + 1)
    line = b.count(b"\n", 0, i) + 1
    col = i - (b.rfind(b"\n", 0, i) + 1) + 1
    return f"line {line}, column {col}"

AUTO = '"constraints" (Auto Layout): the frames come from the Swift layout pass, which this package does not run; lay the scene out in Swift (SceneFile.makeWindow) and save it without constraints'
INT = "from -9223372036854775808 to 9223372036854775807"
RECO = '"recognizers": '

# ---- the repository's scene fixtures -------------------------------------------------------
for f in ["Examples/animation/drawer-button.json", "Examples/animation/drawer.json", "Examples/replay/table.json",
          "Tests/Fixtures/dense-overlap.json", "python/tests/fixtures/rotated.json", "python/tests/fixtures/scene.json"]:
    cases.append({"file": "../../../" + f, "accepted": True})

# ---- valid files --------------------------------------------------------------------------
every = {
    "id": "window", "class": "UIWindow", "frame": [0, 0, 390, 844], "safeAreaInsets": [47, 0, 34, 0],
    "children": [
        {"id": "panel", "class": "UIView", "anchorPoint": [0, 0], "frame": [10, 20, 300, 400], "bounds": [0, 5, 300, 400],
         "autoresizingMask": 18, "autoresizesSubviews": False, "layoutMargins": [4, 4, 4, 4],
         "transform": [0.8, 0.6, -0.6, 0.8, 3, -2], "hidden": False, "alpha": 0.5, "interactive": True, "clipsToBounds": True,
         "tag": 9223372036854775807, "hitTestInsets": [-4, -4, -4, -4], "passesTouchesThrough": True,
         "capturesSubviewTouches": False, "allowsSubviewHitsOutsideBounds": True, "hitTestPriority": -9223372036854775808,
         "gestureRecognizers": True,
         "recognizers": [
             {"type": "tap", "name": "double", "numberOfTapsRequired": 2, "numberOfTouchesRequired": 1, "allowableMovement": 0,
              "maximumTapInterval": 0.35, "enabled": True, "cancelsTouchesInView": False, "delaysTouchesBegan": True, "delaysTouchesEnded": False},
             {"type": "longPress", "minimumPressDuration": 0, "allowableMovement": 10, "numberOfTapsRequired": 0, "numberOfTouchesRequired": 2},
             {"type": "pan", "minimumNumberOfTouches": 1, "maximumNumberOfTouches": 1000000, "hysteresis": 0},
             {"type": "swipe", "direction": ["left", "up"], "numberOfTouchesRequired": 1, "minimumDistance": 50, "maximumDuration": 1000000000000000},
             {"type": "pinch", "scaleThreshold": 0.1}, {"type": "rotation", "rotationThreshold": 0}],
         "children": [
             {"id": "table", "kind": "scrollView", "frame": [0, 0, 300, 400], "contentOffset": [0, 40], "contentSize": [300, 2000],
              "contentInset": [10, 0, 20, 0], "scrollEnabled": True, "pagingEnabled": True, "bounces": False,
              "alwaysBounceVertical": True, "alwaysBounceHorizontal": True, "decelerationRate": 0.99,
              "delaysContentTouches": False, "canCancelContentTouches": False,
              "children": [{"id": "button", "kind": "button", "frame": [10, 10, 80, 44], "enabled": False, "selected": True, "highlighted": True},
                           {"id": "switch", "kind": "control", "frame": [100, 10, 50, 30]}]}]}]}
anims = [{"view": "panel", "at": 0.5, "duration": 0.3, "delay": 0.1, "curve": "easeOut", "allowUserInteraction": True,
          "frame": [0, 0, 280, 844], "center": [140, 422], "transform": [1, 0, 0, 1, 0, 0], "alpha": 1},
         {"view": "panel", "on": "button", "duration": 0}]
ok("valid-every-key.json", json.dumps({"format": "hittest-scene", "version": 1, "root": every, "animations": anims}, indent=2))
ok("valid-defaults-on-a-plain-view.json", scene({"enabled": True, "bounces": True, "contentSize": [0, 0], "decelerationRate": 0.998}))
depth = 5000
deep = '{"format": "hittest-scene", "version": 1, "root": ' + '{"id": "n%d", "frame": [0, 0, 10, 10], "children": [' * 1
parts = ['{"format": "hittest-scene", "version": 1, "root": ']
for k in range(depth):
    parts.append('{"id": "n%d", "frame": [0, 0, 10, 10], "children": [' % k)
parts.append('{"id": "leaf", "frame": [0, 0, 1, 1]}' + "]}" * depth + "}")
ok("valid-5000-deep.json", "".join(parts))
ok("valid-utf8-bom.json", b"\xef\xbb\xbf" + scene({}).encode())
ok("valid-crlf.json", json.dumps(json.loads(scene({"tag": 3})), indent=2).replace("\n", "\r\n"))
ok("valid-unicode-ids.json", '{"format": "hittest-scene", "version": 1, "root": {"id": "fen\\u00eatre \\ud83d\\ude00 caf\u00e9", "frame": [0, 0, 10, 10], "children": [{"id": "\\u0001\\n", "frame": [0, 0, 1, 1]}]}}')
ok("valid-leading-zero-and-negative-zero.json", '{"format": "hittest-scene", "version": 1, "root": {"id": "w", "frame": [-0, 0.0e0, 1E+1, 10], "tag": -0, "autoresizingMask": -0, "hitTestPriority": 007}}')
ok("valid-long-leading-zeros.json", scene({"tag": 1}).replace('"tag": 1', '"tag": -' + "0" * 5000 + "7"))
ok("valid-constraints.json", scene({"constraints": ["leading == superview.leading + 16", "width == 100"]}), python=("window/a", AUTO))
ok("valid-empty-constraints.json", scene({"constraints": [], "recognizers": []}))

# ---- encodings -----------------------------------------------------------------------------
small = scene({})
HINT16 = "a scene file must be UTF-8: convert it (e.g. iconv -f UTF-16 -t UTF-8)"
bad("encoding-utf16le-bom.json", small.encode("utf-16"), "", "the file is UTF-16 (it starts with a UTF-16 byte order mark); " + HINT16)
bad("encoding-utf16be-bom.json", b"\xfe\xff" + small.encode("utf-16-be"), "", "the file is UTF-16 (it starts with a UTF-16 byte order mark); " + HINT16)
bad("encoding-utf16le.json", small.encode("utf-16-le"), "", "the file is UTF-16 (little-endian: NUL bytes between the characters); " + HINT16)
bad("encoding-utf16be.json", small.encode("utf-16-be"), "", "the file is UTF-16 (big-endian: NUL bytes between the characters); " + HINT16)
bad("encoding-utf32-bom.json", small.encode("utf-32"), "", "the file is UTF-32 (it starts with a UTF-32 byte order mark); a scene file must be UTF-8: convert it (e.g. iconv -f UTF-32 -t UTF-8)")
png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"
bad("encoding-binary-png.json", png, "", "not UTF-8 text: line 1, column 1: the byte 0x89 is not valid UTF-8 (a scene file is UTF-8 JSON; is this a binary file?)")
latin1 = scene({}).replace('"a"', '"caf\u00e9"').encode("latin-1")
bad("encoding-latin1.json", latin1, "", "not UTF-8 text: " + pos(latin1, b'\xe9') + f": the byte 0xE9 is not valid UTF-8 (a scene file is UTF-8 JSON; is this a binary file?)")
overlong = scene({}).replace('"a"', '"\x00"').encode().replace(b"\x00", b"\xc0\xaf")
bad("encoding-overlong-utf8.json", overlong, "", "not UTF-8 text: " + pos(overlong, b'\xc0') + f": the byte 0xC0 is not valid UTF-8 (a scene file is UTF-8 JSON; is this a binary file?)")
esc = b'{"format": \x1b[31m"hittest-scene"}'
bad("encoding-escape-sequence.json", esc, "", "not valid JSON: line 1, column 12: expected a value, found '\x1b[31m\"hittes'")
nul = b'{"format"\x00\x00\x01: 1}'
bad("encoding-nul-bytes.json", nul, "", "not valid JSON: line 1, column 10: expected ':', found '\x00\x00\x01: 1}'")

# ---- JSON syntax -----------------------------------------------------------------------------
def syn(name, text, at_marker, what, found, nth=0, at=None):
    where = at if at is not None else pos(text, at_marker, nth)
    bad(name, text, "", "not valid JSON: " + where + ": " + what + ", found " + found)

t = scene({})[:-9]
syn("syntax-truncated.json", t, None, "expected ',' or ']'", "the end of the file", at="line 1, column %d" % (len(t) + 1))
t = scene({"alpha": 1}).replace(": 1}", ": NaN}")
syn("syntax-nan.json", t, "NaN", "expected a value", "'NaN}]}}'")
t = scene({}).replace("50]", "50],")
syn("syntax-trailing-comma.json", t, "}]}}", "expected a string", "'}]}}'")
t = scene({"recognizers": [{"type": "tap"}]}).replace('{"type": "tap"}', '{"type": "tap", "type": "pan"}')
syn("syntax-duplicate-key-in-a-value.json", t, '"type"', 'key "type" appears twice', "'\"type\": \"pan'", nth=1)
t = scene({"class": "x"}).replace('"x"', '"a\\qb"')
syn("syntax-bad-escape.json", t, "\\q", "bad escape", "'\\qb\"}]}}'")
t = scene({"class": "x"}).replace('"x"', '"\\u+041"')
syn("syntax-signed-unicode-escape.json", t, "+041", "bad Unicode escape", "'+041\"}]}}'")
t = scene({"class": "x"}).replace('"x"', '"\\ud800\\u0041"')
syn("syntax-bad-surrogate-pair.json", t, None, "bad surrogate pair", "'\"}]}}'", at="line 1, column %d" % (t.index("\\u0041") + 7))
t = scene({"class": "x"}).replace('"x"', '"a\tb"')
syn("syntax-tab-in-a-string.json", t, "\t", "control character in a string", "'\tb\"}]}}'")
t = scene({"class": "x"}).replace('"x"', '"abc')
t = t[:t.index('"abc') + 4]
syn("syntax-unterminated-string.json", t, '"abc', "unterminated string", "'\"abc'")
t = scene({"class": "x"}).replace('"x"', "[" * 40 + "]" * 40)
col = t.index("[" * 40) + 32 + 1
syn("syntax-values-nested-too-deeply.json", t, None, "values nested too deeply", "'" + "[" * 8 + "]" * 4 + "'", at="line 1, column %d" % col)
t = scene({}) + ' {"more": 1}'
syn("syntax-after-the-end.json", t, None, "expected the end of the file", "'{\"more\": 1}'", at="line 1, column %d" % (len(scene({})) + 2))
t = scene({"alpha": 1}).replace(": 1}", ": 1.}")
syn("syntax-number-without-fraction-digits.json", t, "}]}}", "expected digits after '.'", "'}]}}'")
t = scene({"alpha": 1}).replace(": 1}", ": 1e}")
syn("syntax-number-without-exponent-digits.json", t, "}]}}", "expected digits in the exponent", "'}]}}'")
t = "\n\n  [1, 2]"
syn("syntax-not-an-object.json", t, None, "expected a JSON object (a scene file starts with '{')", "'[1, 2]'", at="line 3, column 3")
syn("syntax-empty.json", "", None, "expected a JSON object (a scene file starts with '{')", "the end of the file", at="line 1, column 1")
t = '{"format": "hittest-scene",\r\n "version": 1,\r\n "root": {"id": "w", "frame": [0, 0, 1, 1],\r\n }}'
syn("syntax-crlf-position.json", t, None, "expected a string", "'}}'", at="line 4, column 2")

# ---- the top level ---------------------------------------------------------------------------
bad("top-unknown-key.json", scene({}, top_extra={"colour": 1}), "", 'unknown top-level key "colour"')
t = scene({}).replace('"version": 1,', '"version": 1, "format": "hittest-scene",')
bad("top-duplicate-key.json", t, "", 'key "format" appears twice')
bad("top-version-1.0.json", scene({}).replace('"version": 1', '"version": 1.0'), "", '"version" must be 1')
bad("top-version-1e0.json", scene({}).replace('"version": 1', '"version": 1e0'), "", '"version" must be 1')
bad("top-version-string.json", scene({}).replace('"version": 1', '"version": "1"'), "", '"version" must be 1')
bad("top-version-2.json", scene({}).replace('"version": 1', '"version": 2'), "", '"version" must be 1')
bad("top-format.json", scene({}).replace('"hittest-scene"', '"hittest"'), "", '"format" must be "hittest-scene"')
bad("top-missing-root.json", '{"format": "hittest-scene", "version": 1}', "", 'missing "root"')
bad("top-root-not-an-object.json", '{"format": "hittest-scene", "version": 1, "root": [1]}', "", '"root" must be a node object')
bad("top-root-error-before-format.json", '{"root": {"id": "w", "frame": [0, 0, 1]}, "format": "other"}', "w", '"frame" must have 4 numbers, found 3')

# ---- nodes -----------------------------------------------------------------------------------------
bad("node-missing-id.json", scene(children=[{"id": "a", "frame": [0, 0, 1, 1]}, {"frame": [0, 0, 1, 1]}]), "window/children[1]", 'missing "id"')
bad("node-root-missing-id.json", '{"format": "hittest-scene", "version": 1, "root": {}}', "root", 'missing "id"')
bad("node-empty-id.json", scene({"id": ""}), "window/children[0]", '"id" must be a non-empty string')
bad("node-unknown-key.json", scene({"colour": 1}), "window/a", 'unknown key "colour"')
t = scene({"alpha": 1}).replace('"alpha": 1', '"alpha": 1, "alpha": 0')
bad("node-duplicate-key.json", t, "window/a", 'key "alpha" appears twice')
t = scene({"children": []}).replace('"children": []', '"children": [], "children": []')
bad("node-children-twice.json", t, "window/a", 'key "children" appears twice')
bad("node-children-not-an-array.json", scene({"children": 5}), "window/a", '"children" must be an array of nodes, found 5')
t = scene(children=[{"id": "a", "frame": [0, 0, 1, 1]}, 5, {"id": "c"}])
bad("node-child-not-an-object.json", t, "window", f'"children" must be an array of nodes, found 5 at {pos(t, "5, {")}')
t = scene(children=[{"id": "a", "frame": [0, 0, 1, 1], "hidden": 1}, {"id": "b"}])
bad("node-first-problem-wins.json", t, "window/a", '"hidden" must be true or false, found 1')
t = scene(root_extra={"tag": 1.5}, children=[{"id": "a"}])
bad("node-own-problem-before-children.json", t, "window", f'"tag" must be an integer {INT}, found 1.5')
bad("node-missing-frame.json", scene(children=[{"id": "a"}]), "window/a", 'missing "frame"')
bad("node-anchor-before-frame.json", scene(children=[{"id": "a", "anchorPoint": [1]}]), "window/a", '"anchorPoint" must have 2 numbers, found 1')
bad("node-duplicate-ids.json", scene(children=[{"id": "a", "frame": [0, 0, 1, 1]}, {"id": "b", "frame": [0, 0, 1, 1], "children": [{"id": "a", "frame": [0, 0, 1, 1]}]}]),
    "window/b/a", 'id "a" is used twice (first at window/a)')
t = scene(children=[{"id": "a", "frame": [0, 0, 1e16, 1]}, {"id": "b", "frame": [0, 0, 1, 1], "tag": 0.5}])
bad("node-read-errors-before-range-errors.json", t, "window/b", f'"tag" must be an integer {INT}, found 0.5')

# ---- numbers ---------------------------------------------------------------------------------------
bad("frame-three-numbers.json", scene({"frame": [0, 0, 1]}), "window/a", '"frame" must have 4 numbers, found 3')
bad("frame-not-an-array.json", scene({"frame": "0 0 1 1"}), "window/a", '"frame" must be an array of 4 numbers, found "0 0 1 1"')
bad("frame-a-string-in-it.json", scene({"frame": [0, 0, "1", 1]}), "window/a", '"frame" must be an array of 4 numbers, found "1" in it')
bad("frame-1e16.json", scene({"frame": [0, 0, 1e16, 1]}), "window/a", '"frame": 1e+16 is out of range: coordinates must be within ±1e15 (see the scene format\'s limits)')
bad("frame-1e400.json", scene({"frame": [0, 0, 1, 1]}).replace("[0, 0, 1, 1]", "[0, 0, 1e400, 1]"), "window/a",
    '"frame": 1e400 is out of range (the largest number a scene file can hold is about 1.8e308; coordinates must be within ±1e15)')
digits = "1" + "0" * 399
bad("frame-400-digits.json", scene({"frame": [0, 0, 1, 1]}).replace("[0, 0, 1, 1]", f"[0, 0, {digits}, 1]"), "window/a",
    f'"frame": {digits[:40]}… is out of range (the largest number a scene file can hold is about 1.8e308; coordinates must be within ±1e15)')
bad("frame-9.99e15.json", scene({"frame": [0, 0, 9.99e15, 1]}), "window/a", '"frame": 9.99e+15 is out of range: coordinates must be within ±1e15 (see the scene format\'s limits)')
bad("bounds-out-of-range.json", scene({"bounds": [-2e15, 0, 1, 1]}), "window/a", '"bounds": -2000000000000000.0 is out of range: coordinates must be within ±1e15 (see the scene format\'s limits)')
bad("anchor-out-of-range.json", scene({"anchorPoint": [0.5, 2000000]}), "window/a", '"anchorPoint": 2000000.0 is out of range: each number must be within ±1e6 (see the scene format\'s limits)')
bad("transform-scale-out-of-range.json", scene({"transform": [1e7, 0, 0, 1, 0, 0]}), "window/a", '"transform": 10000000.0 is out of range: each number must be within ±1e6 (see the scene format\'s limits)')
bad("hit-test-insets-out-of-range.json", scene({"hitTestInsets": [0, 0, 0, 1.5e15]}), "window/a", '"hitTestInsets": 1500000000000000.0 is out of range: each number must be within ±1e15 (see the scene format\'s limits)')
bad("alpha-a-string.json", scene({"alpha": "0.5"}), "window/a", '"alpha" must be a number, found "0.5"')
bad("alpha-1e999.json", scene({"alpha": 1}).replace('"alpha": 1', '"alpha": -1e999'), "window/a", '"alpha": -1e999 is out of range (the largest number a scene file can hold is about 1.8e308)')

# ---- integers ---------------------------------------------------------------------------------------
bad("tag-1e30.json", scene({"tag": 1}).replace('"tag": 1', '"tag": 1e30'), "window/a", f'"tag" must be an integer {INT}, found 1e30')
bad("tag-1.0.json", scene({"tag": 1}).replace('"tag": 1', '"tag": 1.0'), "window/a", f'"tag" must be an integer {INT}, found 1.0')
bad("tag-2-to-the-63.json", scene({"tag": 1}).replace('"tag": 1', '"tag": 9223372036854775808'), "window/a", f'"tag" must be an integer {INT}, found 9223372036854775808')
bad("tag-400-digits.json", scene({"tag": 1}).replace('"tag": 1', f'"tag": {digits}'), "window/a", f'"tag" must be an integer {INT}, found {digits[:40]}…')
bad("tag-5000-digits.json", scene({"tag": 1}).replace('"tag": 1', '"tag": ' + "9" * 5000), "window/a", f'"tag" must be an integer {INT}, found {"9" * 40}…')
bad("hit-test-priority-1e30.json", scene({"hitTestPriority": 1}).replace('"hitTestPriority": 1', '"hitTestPriority": 1e30'), "window/a", f'"hitTestPriority" must be an integer {INT}, found 1e30')
bad("hit-test-priority-true.json", scene({"hitTestPriority": True}), "window/a", f'"hitTestPriority" must be an integer {INT}, found true')
bad("autoresizing-mask-negative.json", scene({"autoresizingMask": -1}), "window/a", '"autoresizingMask" must be an integer (the option set\'s raw value), found -1')
bad("autoresizing-mask-2-to-the-64.json", scene({"autoresizingMask": 18446744073709551616}), "window/a", '"autoresizingMask" must be an integer (the option set\'s raw value), found 18446744073709551616')

# ---- other types ------------------------------------------------------------------------------------
bad("hidden-1.json", scene({"hidden": 1}), "window/a", '"hidden" must be true or false, found 1')
bad("gesture-recognizers-null.json", scene({"gestureRecognizers": None}), "window/a", '"gestureRecognizers" must be true or false, found null')
bad("autoresizes-subviews-string.json", scene({"autoresizesSubviews": "yes"}), "window/a", '"autoresizesSubviews" must be true or false, found "yes"')
bad("class-a-number.json", scene({"class": 5}), "window/a", '"class" must be a string, found 5')
long_id = "x" * 45 + "\u001b[31m"
bad("string-brief-is-short-and-escaped.json", scene({"kind": "\u001b[2J" + "y" * 50}), "window/a",
    '"kind" must be one of "control", "button", "scrollView", found "\x1b[2J' + "y" * 36 + '"')

# ---- controls and scroll views ---------------------------------------------------------------------
bad("kind-unknown.json", scene({"kind": "slider"}), "window/a", '"kind" must be one of "control", "button", "scrollView", found "slider"')
bad("kind-on-the-root.json", scene(root_extra={"kind": "scrollView", "contentSize": [320, 900]}), "window",
    'the root is the window and cannot have "kind": "scrollView"; put the scrollView into the root as a child')
bad("kind-needed-for-enabled.json", scene({"enabled": False}), "window/a", '"enabled" needs "kind": "button" or "control"')
bad("kind-needed-for-content-size.json", scene({"kind": "button", "contentSize": [1, 2]}), "window/a", '"contentSize" needs "kind": "scrollView"')
bad("enabled-a-number.json", scene({"kind": "button", "enabled": 0}), "window/a", '"enabled" must be true or false, found 0')
bad("content-size-one-number.json", scene({"kind": "scrollView", "contentSize": [1]}), "window/a", '"contentSize" must be an array of 2 numbers within ±1e15, found an array')
bad("content-inset-out-of-range.json", scene({"kind": "scrollView", "contentInset": [0, 0, 0, 1e16]}), "window/a", '"contentInset" must be an array of 4 numbers within ±1e15, found an array')
bad("content-offset-differs-from-bounds.json", scene({"kind": "scrollView", "bounds": [0, 5, 100, 50], "contentOffset": [0, 6.5]}), "window/a",
    '"contentOffset" [0, 6.5] differs from the bounds origin [0, 5] (they are the same thing)')
bad("content-offset-out-of-range.json", scene({"kind": "scrollView", "contentOffset": [0, 1e16]}), "window/a", '"contentOffset" must be an array of 2 numbers within ±1e15, found an array')
bad("deceleration-rate-1.json", scene({"kind": "scrollView", "decelerationRate": 1}), "window/a", '"decelerationRate" must be a number in (0, 0.9999], found 1')
bad("deceleration-rate-hours-long.json", scene({"kind": "scrollView", "decelerationRate": 0.9999999999999999}), "window/a",
    '"decelerationRate" must be a number in (0, 0.9999], found 0.9999999999999999')
ok("deceleration-rate-slowest.json", scene({"kind": "scrollView", "decelerationRate": 0.9999}))
bad("deceleration-rate-on-a-button.json", scene({"kind": "button", "decelerationRate": 0.9}), "window/a", '"decelerationRate" needs "kind": "scrollView"')

# ---- layout ------------------------------------------------------------------------------------------
bad("layout-margins-three.json", scene({"layoutMargins": [1, 2, 3]}), "window/a", '"layoutMargins" must be an array of 4 numbers [top, left, bottom, right], found an array')
bad("safe-area-insets-a-string.json", scene({"safeAreaInsets": [1, 2, "3", 4]}), "window/a", '"safeAreaInsets" must hold 4 numbers within ±1e15, found "3" in it')
bad("constraints-not-an-array.json", scene({"constraints": "width == 10"}), "window/a", '"constraints" must be an array of strings, found "width == 10"')
bad("constraints-a-number-in-it.json", scene({"constraints": [5]}), "window/a", '"constraints" must be an array of strings, found 5 in it')
bad("constraints-unparsable.json", scene({"constraints": ["width = 10"]}), "window/a", '"constraints": "width = 10": expected ==, <= or >=', python=("window/a", AUTO))
bad("constraints-unknown-id.json", scene({"constraints": ["width == zz.width"]}), "window/a", '"constraints": no node has the id "zz"', python=("window/a", AUTO))
t = scene(children=[{"id": "b", "frame": [0, 0, 1, 1], "children": [{"id": "c", "frame": [0, 0, 1, 1], "constraints": ["top == nobody.top"]}]}])
bad("constraints-unknown-id-deep.json", t, "window/b/c", '"constraints": no node has the id "nobody"', python=("window/b/c", AUTO))
bad("constraints-superview-of-the-root.json", scene(root_extra={"constraints": ["top == superview.top"]}, children=[]), "window", '"constraints": the root has no superview', python=("window", AUTO))

# ---- recognizers -------------------------------------------------------------------------------------
def rec(*items): return scene({"recognizers": list(items)})
bad("recognizers-not-an-array.json", scene({"recognizers": {"type": "tap"}}), "window/a", '"recognizers" must be an array of objects, found an object')
bad("recognizers-a-number-in-it.json", rec(5), "window/a", RECO + "each recognizer must be an object, found 5")
TYPES = '"longPress", "pan", "pinch", "rotation", "swipe", "tap"'
bad("recognizers-unknown-type.json", rec({"type": "zoom"}), "window/a", RECO + f'a recognizer\'s "type" must be one of {TYPES}, found "zoom"')
bad("recognizers-no-type.json", rec({"name": "x"}), "window/a", RECO + f'a recognizer\'s "type" must be one of {TYPES} (it has none)')
bad("recognizers-taps-0.json", rec({"type": "tap", "numberOfTapsRequired": 0}), "window/a", RECO + 'recognizer "numberOfTapsRequired" must be an integer from 1 to 1000000, found 0')
bad("recognizers-taps-1e9.json", rec({"type": "tap", "numberOfTapsRequired": 1000000000}), "window/a", RECO + 'recognizer "numberOfTapsRequired" must be an integer from 1 to 1000000, found 1000000000')
bad("recognizers-taps-1.5.json", rec({"type": "tap", "numberOfTapsRequired": 1.5}), "window/a", RECO + 'recognizer "numberOfTapsRequired" must be an integer from 1 to 1000000, found 1.5')
bad("recognizers-taps-2.0.json", rec({"type": "tap", "numberOfTapsRequired": 2.0}), "window/a", RECO + 'recognizer "numberOfTapsRequired" must be an integer from 1 to 1000000, found 2.0')
bad("recognizers-tap-touches-0.json", rec({"type": "tap", "numberOfTouchesRequired": 0}), "window/a", RECO + 'recognizer "numberOfTouchesRequired" must be an integer from 1 to 1000000, found 0')
bad("recognizers-long-press-touches-0.json", rec({"type": "longPress", "numberOfTouchesRequired": 0}), "window/a", RECO + 'recognizer "numberOfTouchesRequired" must be an integer from 1 to 1000000, found 0')
bad("recognizers-long-press-taps-negative.json", rec({"type": "longPress", "numberOfTapsRequired": -1}), "window/a", RECO + 'recognizer "numberOfTapsRequired" must be an integer from 0 to 1000000, found -1')
bad("recognizers-pan-touches-0.json", rec({"type": "pan", "minimumNumberOfTouches": 0}), "window/a", RECO + 'recognizer "minimumNumberOfTouches" must be an integer from 1 to 1000000, found 0')
bad("recognizers-pan-maximum-touches-0.json", rec({"type": "pan", "maximumNumberOfTouches": 0}), "window/a", RECO + 'recognizer "maximumNumberOfTouches" must be an integer from 1 to 1000000, found 0')
bad("recognizers-swipe-touches-0.json", rec({"type": "swipe", "numberOfTouchesRequired": 0}), "window/a", RECO + 'recognizer "numberOfTouchesRequired" must be an integer from 1 to 1000000, found 0')
bad("recognizers-press-duration-1e300.json", rec({"type": "longPress", "minimumPressDuration": 1e300}), "window/a", RECO + 'recognizer "minimumPressDuration" must be a number from 0 to 1e15, found 1e+300')
bad("recognizers-press-duration-negative.json", rec({"type": "longPress", "minimumPressDuration": -0.5}), "window/a", RECO + 'recognizer "minimumPressDuration" must be a number from 0 to 1e15, found -0.5')
bad("recognizers-tap-interval-negative.json", rec({"type": "tap", "maximumTapInterval": -1}), "window/a", RECO + 'recognizer "maximumTapInterval" must be a number from 0 to 1e15, found -1')
bad("recognizers-swipe-duration-string.json", rec({"type": "swipe", "maximumDuration": "1"}), "window/a", RECO + 'recognizer "maximumDuration" must be a number from 0 to 1e15, found "1"')
bad("recognizers-pinch-threshold-negative.json", rec({"type": "pinch", "scaleThreshold": -0.1}), "window/a", RECO + 'recognizer "scaleThreshold" must be a number from 0 to 1e15, found -0.1')
bad("recognizers-name-a-number.json", rec({"type": "tap", "name": 5}), "window/a", RECO + 'recognizer "name" must be a string, found 5')
bad("recognizers-enabled-a-string.json", rec({"type": "tap", "enabled": "yes"}), "window/a", RECO + 'recognizer "enabled" must be true or false, found "yes"')
bad("recognizers-unknown-key.json", rec({"type": "tap", "speed": 1}), "window/a", RECO + 'unknown key "speed" for a tap recognizer')
bad("recognizers-key-of-another-type.json", rec({"type": "pinch", "numberOfTapsRequired": 1}), "window/a", RECO + 'unknown key "numberOfTapsRequired" for a pinch recognizer')
bad("recognizers-direction-empty.json", rec({"type": "swipe", "direction": []}), "window/a", RECO + 'swipe "direction" must be a non-empty array of "right", "left", "up", "down", found an array')
bad("recognizers-direction-unknown.json", rec({"type": "swipe", "direction": ["north"]}), "window/a", RECO + 'swipe "direction" must be a non-empty array of "right", "left", "up", "down", found an array')
bad("recognizers-first-problem-by-key-order.json", rec({"type": "tap", "numberOfTapsRequired": 0, "allowableMovement": -1}), "window/a",
    RECO + 'recognizer "allowableMovement" must be a number from 0 to 1e15, found -1')

# ---- animations -------------------------------------------------------------------------------------
def anim(*items, a=None): return scene(a if a is not None else {}, animations=list(items))
A0 = "animations[0]: "
bad("animations-not-an-array.json", scene({}, top_extra={"animations": {"view": "a"}}), "", '"animations" must be an array of objects, found an object')
bad("animations-a-number-in-it.json", anim(5), "", A0 + "must be an object, found 5")
bad("animations-unknown-key.json", anim({"view": "a", "at": 0, "duration": 1, "speed": 2}), "", A0 + 'unknown key "speed" (allowUserInteraction, alpha, at, center, curve, delay, duration, frame, on, transform, view)')
bad("animations-no-view.json", anim({"at": 0, "duration": 1}), "", A0 + '"view" must be the id of a node (a non-empty string)')
bad("animations-unknown-view.json", anim({"view": "nobody", "at": 0, "duration": 1}), "", A0 + 'no node has the id "nobody"')
bad("animations-at-and-on.json", anim({"view": "a", "at": 0, "on": "a", "duration": 1}), "", A0 + 'give exactly one of "at" (the time of the animate call) and "on" (the id of a button whose action starts it)')
bad("animations-on-a-number.json", anim({"view": "a", "on": 3, "duration": 1}), "", A0 + '"on" must be the id of a button or control (a non-empty string)')
bad("animations-on-not-a-control.json", anim({"view": "a", "on": "a", "duration": 1}), "", A0 + '"on": "a" is not the id of a node of kind button or control')
bad("animations-no-duration.json", anim({"view": "a", "at": 0}), "", A0 + '"duration" (seconds, ≥ 0) is required')
bad("animations-duration-negative.json", anim({"view": "a", "at": 0, "duration": -1}), "", A0 + '"duration" must be a number from 0 to 1e15, found -1')
bad("animations-at-1e16.json", anim({"view": "a", "at": 1e16, "duration": 1}), "", A0 + '"at" must be a number from -1e15 to 1e15, found 1e+16')
bad("animations-curve-unknown.json", anim({"view": "a", "at": 0, "duration": 1, "curve": "bouncy"}), "", A0 + '"curve" must be one of easeInOut, easeIn, easeOut, linear, found "bouncy"')
bad("animations-frame-two-numbers.json", anim({"view": "a", "at": 0, "duration": 1, "frame": [1, 2]}), "", A0 + '"frame" must be an array of 4 numbers within ±1e15, found an array')
bad("animations-frame-negative-size.json", anim({"view": "a", "at": 0, "duration": 1, "frame": [0, 0, -1, 1]}), "", A0 + '"frame" must have a non-negative size')
bad("animations-alpha-2.json", anim({"view": "a", "at": 0, "duration": 1, "alpha": 2}), "", A0 + '"alpha" must be in [0, 1]')
bad("animations-transform-scale.json", anim({"view": "a", "at": 0, "duration": 1, "transform": [1e7, 0, 0, 1, 0, 0]}), "", A0 + '"transform": a, b, c, d must be within ±1e6')
bad("animations-allow-user-interaction-1.json", anim({"view": "a", "at": 0, "duration": 1, "allowUserInteraction": 1}), "", A0 + '"allowUserInteraction" must be true or false, found 1')
bad("animations-second-one.json", anim({"view": "a", "at": 0, "duration": 1}, {"view": "a", "at": 0, "duration": 1, "delay": -2}), "", 'animations[1]: "delay" must be a number from 0 to 1e15, found -2')

manifest = {
    "about": ("The scene contract: every file here (and every scene file of the repository) is accepted or refused "
              "alike by the Swift loader (SceneFile(json:), Tests/HitTestScenesTests/SceneContractTests.swift) and the "
              "Python loader (hittest.load_scene, python/tests/test_scene_contract.py): an accepted file has "
              "\"accepted\": true; a refused one the error's node path (\"\" for the file) and message, exactly. "
              "\"python\" gives the Python loader's outcome where it differs on purpose: a scene with Auto Layout "
              "constraints is refused (the package does not run the layout pass). Written by make_corpus.py, where "
              "the cases and their outcomes are typed."),
    "cases": cases,
}
with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
    json.dump(manifest, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(len(cases), "cases")
