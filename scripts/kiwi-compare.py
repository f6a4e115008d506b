#!/usr/bin/env python3
"""kiwisolver (kiwi's C++ Cassowary, through Python) on the solver benchmark's systems.

The same chain, ineq, grid and form as Benchmarks/hittest-bench/SolverBench.swift (constraint for
constraint, added in the same order), timed the same way: build+solve is creating the solver,
adding every constraint, updating the variables and reading every value; one edit is changing
one constraint's constant (kiwi's constraints are immutable: remove it and add the new one),
updating the variables and reading a value. The checksum (the sum of every x, y, w, h) must
equal the benchmark's. Not part of CI:

    python3 -m venv /tmp/kiwi-venv && /tmp/kiwi-venv/bin/pip install kiwisolver
    /tmp/kiwi-venv/bin/python scripts/kiwi-compare.py [--sizes 1000,5000] [--edits 50]

Priorities map to kiwi strengths as a plain weight (kiwi has no strict order between levels;
on these systems every optional constraint can hold at once, so the answers agree).
"""
import argparse
import time

import kiwisolver as kiwi


def strength(p):
    return kiwi.strength.required if p >= 1000 else float(p)


class System:
    def __init__(self, edit_vars):
        self.s = kiwi.Solver()
        self.vars = []
        self.edit_vars = edit_vars

    def views(self, n):
        vs = [tuple(kiwi.Variable(f"{k}{i}") for k in "xywh") for i in range(n)]
        self.vars = vs
        return vs

    def add(self, expr, rel, p):
        c = {"==": expr == 0, "<=": expr <= 0, ">=": expr >= 0}[rel] | strength(p)
        self.s.addConstraint(c)
        return [expr, rel, p, c]

    def editable(self, expr, constant, rel, p):
        """expr + constant REL 0, whose constant the benchmark edits. With edit_vars the
        constant is a kiwi edit variable (kiwi's fast path: suggestValue), else a number."""
        if not self.edit_vars:
            return self.add(expr + constant, rel, p)
        k = kiwi.Variable("k")
        self.s.addEditVariable(k, kiwi.strength.strong)
        self.s.suggestValue(k, constant)
        rec = self.add(expr + k, rel, p)
        rec.append(k)
        rec.append(constant)
        return rec

    def set_constant(self, rec, delta):
        if self.edit_vars:
            rec[5] += delta
            self.s.suggestValue(rec[4], rec[5])
            return
        self.s.removeConstraint(rec[3])
        rec[0] = rec[0] + delta
        rec[3] = {"==": rec[0] == 0, "<=": rec[0] <= 0, ">=": rec[0] >= 0}[rec[1]] | strength(rec[2])
        self.s.addConstraint(rec[3])

    def checksum(self):
        self.s.updateVariables()
        return sum(v.value() for view in self.vars for v in view)


def chain(sys, n, inequalities=False):
    v = sys.views(n)
    x, y, w, h = v[0]
    sys.add(x + 0, "==", 1000)
    sys.add(y + 0, "==", 1000)
    sys.add(w - 320, "==", 1000)
    sys.add(h - 44, "==", 1000)
    if inequalities:
        sys.add(y + 0, ">=", 1000)
    edit = None
    for i in range(1, n):
        x, y, w, h = v[i]
        px, py, pw, ph = v[i - 1]
        sys.add(x - px, "==", 1000)
        sys.add(x + w - px - pw, "==", 1000)
        t = sys.editable(y - py - ph, -8, "==", 1000)
        if i == n // 2:
            edit = [t]
        sys.add(h - ph, "==", 1000)
        sys.add(w - pw, "==", 1000)
        if inequalities:
            sys.add(y + 0, ">=", 1000)  # top >= superview.top: inactive but the first
    return edit, 1.0


def ineq(sys, n):
    """The chain with one inactive required inequality per view (issue 24 item 10)."""
    return chain(sys, n, inequalities=True)


def grid(sys, n):
    v = sys.views(n)
    cols = 10
    edit = None
    for i in range(n):
        r, c = divmod(i, cols)
        x, y, w, h = v[i]
        if c == 0:
            sys.add(x + 0, "==", 1000)
        else:
            sys.add(x - v[i - 1][0] - v[i - 1][2] - 4, "==", 1000)
        if i == 0:
            edit = [sys.editable(w + 0, -96, "==", 1000)]
        else:
            sys.add(w - v[0][2], "==", 1000)
        if r == 0:
            sys.add(y + 0, "==", 1000)
        else:
            sys.add(y - v[i - cols][1] - v[i - cols][3] - 4, "==", 1000)
        sys.add(h - w, "==", 1000)
        if c == cols - 1:
            sys.add(x + w - 1000, "<=", 1000)
    return edit, 1.0  # narrower cells (wider ones would not fit the row)


def form(sys, n):
    v = sys.views(n)
    edit = None
    for i in range(0, n - 1, 2):
        lx, ly, lw, lh = v[i]
        fx, fy, fw, fh = v[i + 1]
        iw, ih = 60 + (i * 37) % 80, 20
        sys.add(lx - 20, "==", 1000)
        if i == 0:
            sys.add(ly - 20, "==", 1000)
        else:
            sys.add(ly - v[i - 1][1] - v[i - 1][3] - 12, "==", 1000)
        e1 = sys.editable(lw + 0, -iw, ">=", 750)
        e2 = sys.editable(lw + 0, -iw, "<=", 250)
        sys.add(lh - ih, ">=", 750)
        sys.add(lh - ih, "<=", 250)
        sys.add(fx - lx - lw - 8, "==", 1000)
        sys.add(fx + fw - 355, "==", 1000)
        sys.add(fy + 0.5 * fh - ly - 0.5 * lh, "==", 1000)
        sys.add(fh - 34, ">=", 750)
        sys.add(fh - 34, "<=", 250)
        sys.add(fw - 100, ">=", 750)
        if i == (n // 4) * 2:
            edit = [e1, e2]
    return edit, 1.0  # a narrower label


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,5000")
    ap.add_argument("--edits", type=int, default=50)
    ap.add_argument("--only", default="chain,ineq,grid,form")
    ap.add_argument("--edit-vars", action="store_true",
                    help="edited constants are kiwi edit variables (suggestValue) instead of remove+add")
    a = ap.parse_args()
    for name, build in (("chain", chain), ("ineq", ineq), ("grid", grid), ("form", form)):
        if name not in a.only.split(","):
            continue
        for n in (int(s) for s in a.sizes.split(",")):
            t0 = time.perf_counter()
            sys = System(a.edit_vars)
            edit, delta = build(sys, n)
            total = sys.checksum()
            t1 = time.perf_counter()
            sign = 1.0
            t2 = time.perf_counter()
            for _ in range(a.edits):
                for rec in edit:
                    sys.set_constant(rec, sign * delta)
                sys.s.updateVariables()
                sys.vars[-1][1].value()
                sign = -sign
            t3 = time.perf_counter()
            if a.edits % 2:
                for rec in edit:
                    sys.set_constant(rec, sign * delta)
            mode = "suggestValue" if a.edit_vars else "remove+add"
            print(f"kiwi {name:5s} N={n:5d} build+solve {1e3 * (t1 - t0):9.2f} ms  "
                  f"edit+solve {1e6 * (t3 - t2) / a.edits:10.2f} us ({mode})  checksum {total:.0f}", flush=True)


if __name__ == "__main__":
    main()
