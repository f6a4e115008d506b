#!/usr/bin/env python3
"""HitTestKit's C core from Python through ctypes, against the CHitTestShared library.

    swift build --product CHitTestShared
    python3 Examples/python/hittest_ctypes.py .build/debug/libCHitTestShared.so
"""
import ctypes
import sys

lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/libCHitTestShared.so")
node = ctypes.c_int32
lib.ht_status_string.restype = ctypes.c_char_p


def check(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: {lib.ht_status_string(status).decode()}")


tree = ctypes.c_void_p()
check(lib.ht_tree_create(0, ctypes.byref(tree)), "create tree")


def add_view(parent, x, y, w, h):
    n = node()
    check(lib.ht_node_create(tree, ctypes.byref(n)), "create node")
    d = ctypes.c_double
    check(lib.ht_node_set_bounds(tree, n, d(0), d(0), d(w), d(h)), "bounds")
    check(lib.ht_node_set_center(tree, n, d(x + w / 2), d(y + h / 2)), "center")
    if parent is not None:
        check(lib.ht_node_attach(tree, n, parent, 2**31 - 1), "attach")
    return n


window = add_view(None, 0, 0, 390, 844)
row = add_view(window, 0, 100, 390, 60)
button = add_view(row, 300, 10, 80, 40)
names = {window.value: "window", row.value: "row", button.value: "button", -1: "none"}

points = [(310.0, 120.0), (10.0, 120.0), (10.0, 10.0), (-5.0, 0.0)]
xy = (ctypes.c_double * (2 * len(points)))(*[c for p in points for c in p])
out = (node * len(points))()
check(lib.ht_tree_prepare(tree), "prepare")  # queries only read a prepared tree
check(lib.ht_tree_hit_test_points(tree, window, xy, ctypes.c_size_t(len(points)), None, out), "hit test")
for p, h in zip(points, out):
    print(f"{p} -> {names[h]}")
lib.ht_tree_destroy(tree)
answers = [names[h] for h in out]
assert answers == ["button", "row", "window", "none"], answers
print("ok")
