/*
 * answers_check.c - the bulk path's derived structures against the plain walk (scripts/ccheck.sh).
 *
 * Random scenes of many small overlapping views (a dense map of markers, some rotated or
 * scaled, some with children, insets, flags, alpha, priorities, pass-through and capturing
 * views), and plain random trees (rotations, scales and flips, bounds origins, hits outside
 * bounds). For each: the answer grid (cells, sub-grids, unions of block-cell lists, sub-grid
 * codes), through the bulk call with paired and with
 * separate coordinate arrays (the two lookups of its first pass), and the single call are
 * compared with the exact walk without any grid
 * (ht_tree_hit_test_points_counted with use_answer_grid 0) on random points and on points on,
 * and within 1e-12, 1e-9, 1e-6, 3e-5 or 1e-4 (the candidate lists' margins and float boxes)
 * and one ulp of, every edge (corners and middles) of every view's region,
 * converted to the root's space (and, for two scenes, a root a strip 0.01 pt high, whose
 * grid has too many columns for the paired lookup), first with the sub-grids deferred (ht_tree_prepare_points_for
 * with too few points to pay for them), then with them built late; then after random mutations
 * and a refresh of the grid (the bulk path's, which leaves sub-grids pending, then a whole
 * one). One point in 64 is traced too (ht_tree_hit_test_trace): its trail must end with the
 * walk's answer.
 *   answers_check [scenes [churn steps]]    exit 0: every answer agrees; 1: a difference (printed)
 * Every scene is also checked by ht_tree_validate, which proves each compact test record's
 * thresholds (the walk without the grid uses them too, so no comparison with it can).
 * The candidate lists of UNSURE cells (hitq.h) answer most of the points near edges here,
 * through the bulk and the single call. Before any bulk query, the single queries' lazy grid
 * and its appended lists: a churn of views moved, hidden and shown again with taps on them
 * (churn_lazy), then every point through the caching single call.
 * Planted bugs (scripts/plants/sub-off-by-one, union-missing, zero-margin, tile-short,
 * subgrid-stale, domain-cut, lookup-round, sub-code, threshold-ulp, list-margin, list-cut and memo-stale.patch, applied
 * to a copy of the core's sources) must make it exit 1; so must list-compact.patch, built with
 * a small pool for the lazy grids' lists (-DLIST_APPEND_MIN=8) and run with a long churn.
 */
#include <hittest.h>

#define CHECK_NAME "answers_check"
#include "check_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Multiples of 1/64: exact in binary, so edges are exact numbers and coincide often. */
static double q64(double v) { return floor(v * 64) / 64; }

#define MAX_NODES 4000
#define MAX_POINTS 400000

typedef struct scene {
    ht_tree *t;
    ht_node nodes[MAX_NODES];
    int count;
    ht_node root;
} scene;

static int fail(const char *what, ht_status st) {
    fprintf(stderr, "answers_check: %s: %s\n", what, ht_status_string(st));
    return 1;
}

static ht_node add(scene *s, ht_node parent, double cx, double cy, double w, double h) {
    ht_node n;
    if (s->count == MAX_NODES || ht_node_create(s->t, &n) != HT_OK) return HT_NULL_NODE;
    ht_node_set_bounds(s->t, n, 0, 0, w, h);
    ht_node_set_center(s->t, n, cx, cy);
    if (ht_node_attach(s->t, n, parent, 1 << 30) != HT_OK) {
        ht_node_free(s->t, n);
        return HT_NULL_NODE;
    }
    s->nodes[s->count++] = n;
    return n;
}

static void rotate(ht_tree *t, ht_node n, double a) {
    ht_affine m = {cos(a), sin(a), -sin(a), cos(a), 0, 0};
    ht_node_set_transform(t, n, &m);
}

/* A scale (either axis possibly flipped) and a translation: axis-aligned, so the candidate
 * lists fold it into their rectangles. */
static void scale(ht_tree *t, ht_node n) {
    static const double k[] = {0.5, 2, 1.5, 0.75, -1, 1.0 / 3, 3};
    double sx = k[below(7)], sy = unit() < 0.5 ? sx : k[below(7)];
    ht_affine m = {sx, 0, 0, sy, q64(unit() * 20 - 10), q64(unit() * 20 - 10)};
    ht_node_set_transform(t, n, &m);
}

/* Random customisation of node n (never hooks: those are not in the grid's reach). Hits
 * outside bounds (`outside`) make a view a candidate everywhere, so dense scenes get none. */
static void customise(ht_tree *t, ht_node n, int outside) {
    double u = unit();
    if (u < 0.04) ht_node_set_flags(t, n, HT_FLAG_PASS_THROUGH);
    else if (u < 0.06) ht_node_set_flags(t, n, HT_FLAG_CAPTURES);
    else if (u < 0.08) ht_node_set_flags(t, n, HT_FLAG_HIDDEN);
    else if (u < 0.09 && outside) ht_node_set_flags(t, n, HT_FLAG_OUTSIDE_HITS);
    if (unit() < 0.05) ht_node_set_insets(t, n, q64(unit() * 6 - 3), q64(unit() * 6 - 3), q64(unit() * 6 - 3), q64(unit() * 6 - 3));
    if (unit() < 0.03) ht_node_set_priority(t, n, below(3) - 1);
    if (unit() < 0.02) ht_node_set_alpha(t, n, unit() < 0.5 ? 0 : 0.005);
    if (unit() < 0.01) ht_node_set_flags(t, n, HT_FLAG_NO_INTERACTION);
}

/* A 390 x 844 window, a full-size map and `markers` markers of 12-22 pt (3-10% rotated, some
 * with a child or two), or (dense == 0) a random tree of small overlapping views. */
static void build(scene *s, int dense, int markers) {
    ht_node_create(s->t, &s->root);
    s->nodes[s->count++] = s->root;
    ht_node_set_bounds(s->t, s->root, 0, 0, 390, 844);
    ht_node_set_center(s->t, s->root, 195, 422);
    if (dense) {
        add(s, s->root, 195, 422, 390, 844);
        double rotated = 0.03 + unit() * 0.07;
        for (int i = 0; i < markers; i++) {
            double w = q64(12 + unit() * 10), h = q64(12 + unit() * 10);
            ht_node m = add(s, s->root, q64(unit() * 390), q64(unit() * 844), w, h);
            if (m == HT_NULL_NODE) break;
            if (unit() < rotated) rotate(s->t, m, unit() * 6.283 - 3.1416);
            else if (unit() < 0.05) scale(s->t, m);
            customise(s->t, m, 0);
            if (unit() < 0.1) {
                ht_node c = add(s, m, q64(unit() * w), q64(unit() * h), q64(3 + unit() * 8), q64(3 + unit() * 8));
                if (c != HT_NULL_NODE) customise(s->t, c, 0);
            }
        }
    } else {
        for (int i = 0; i < markers; i++) {
            ht_node p = s->nodes[below(s->count)];
            ht_node n = add(s, p, q64(unit() * 300), q64(unit() * 600), q64(4 + unit() * 60), q64(4 + unit() * 60));
            if (n == HT_NULL_NODE) continue;
            double u = unit();
            if (u < 0.08) rotate(s->t, n, unit() * 6.283);
            else if (u < 0.2) scale(s->t, n);
            if (unit() < 0.05) ht_node_set_bounds(s->t, n, q64(unit() * 10 - 5), q64(unit() * 10 - 5), q64(4 + unit() * 60), q64(4 + unit() * 60));
            customise(s->t, n, 1);
        }
    }
}

static double xy[2 * MAX_POINTS];
static ht_node grid[MAX_POINTS], plain[MAX_POINTS], split[MAX_POINTS];
static double xs[MAX_POINTS], ys[MAX_POINTS];

/* Random points, and points on and near the edges of every region, in the root's space. */
static int make_points(scene *s) {
    int n = 0;
    for (int i = 0; i < 20000; i++) {
        xy[2 * n] = unit() * 400 - 5;
        xy[2 * n + 1] = unit() * 860 - 8;
        n++;
    }
    /* And within the root's bounds (all of the window but for the thin roots). */
    ht_node_record root;
    if (ht_node_get_record(s->t, s->root, &root) != HT_OK) return n;
    int thin = root.bounds_h < 1;
    for (int i = 0; i < 20000; i++) {
        xy[2 * n] = root.bounds_x + unit() * root.bounds_w;
        xy[2 * n + 1] = root.bounds_y + unit() * root.bounds_h;
        n++;
    }
    /* Beside each edge: at rounding distance, at the candidate lists' margin (1e-9 of the
     * magnitude) and at a float's ulp (the lists' boxes are floats), one distance per view. */
    static const double gaps[] = {1e-12, 1e-12, 1e-9, 1e-6, 3e-5, 1e-4};
    for (int k = 0; k < s->count; k++) {
        double d = gaps[below(6)];
        const double near[] = {0, d, -d};
        ht_node_record r;
        if (ht_node_get_record(s->t, s->nodes[k], &r) != HT_OK) continue;
        double x0 = r.bounds_x + r.inset_left, y0 = r.bounds_y + r.inset_top;
        double x1 = r.bounds_x + r.bounds_w - r.inset_right, y1 = r.bounds_y + r.bounds_h - r.inset_bottom;
        double xs[3] = {x0, (x0 + x1) / 2, x1}, ys[3] = {y0, (y0 + y1) / 2, y1};
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                if (i == 1 && j == 1) continue;
                double px, py;
                if (ht_tree_convert_point(s->t, s->nodes[k], s->root, xs[i], ys[j], &px, &py) != HT_OK) continue;
                for (int a = 0; a < 5; a++) {
                    /* A thin root: the point's x with a y inside the strip too, so that the
                     * strip's cells are asked beside every edge that crosses it. */
                    if (thin && n < MAX_POINTS) {
                        xy[2 * n] = a < 3 ? px + near[a] : nextafter(px, a == 3 ? INFINITY : -INFINITY);
                        xy[2 * n + 1] = root.bounds_y + unit() * root.bounds_h;
                        n++;
                    }
                    for (int b = 0; b < 5; b++) {
                        if (n == MAX_POINTS) return n;
                        double x = a < 3 ? px + near[a] : nextafter(px, a == 3 ? INFINITY : -INFINITY);
                        double y = b < 3 ? py + near[b] : nextafter(py, b == 3 ? INFINITY : -INFINITY);
                        xy[2 * n] = x;
                        xy[2 * n + 1] = y;
                        n++;
                    }
                }
            }
        }
    }
    return n;
}

/* Grid-backed bulk and single answers against the plain walk, the grid prepared whole or, when
 * `deferred`, as a first bulk query prepares it (too few points announced to build its
 * sub-grids). Returns the differences. */
static long compare(scene *s, int n, const char *what, int deferred) {
    ht_status st;
    uint64_t tests = 0;
    st = deferred ? ht_tree_prepare_points_for(s->t, s->root, 0) : ht_tree_prepare_points(s->t, s->root);
    if (st != HT_OK) return fail("prepare points", st);
    if ((st = ht_tree_hit_test_points(s->t, s->root, xy, (size_t)n, NULL, grid)) != HT_OK) return fail("bulk", st);
    if ((st = ht_tree_hit_test_points_counted(s->t, s->root, xy, (size_t)n, 0, plain, &tests)) != HT_OK)
        return fail("plain walk", st);
    /* Separate coordinate arrays take the bulk loop's other lookup (not the paired one). */
    for (int i = 0; i < n; i++) {
        xs[i] = xy[2 * i];
        ys[i] = xy[2 * i + 1];
    }
    if ((st = ht_tree_hit_test_xy(s->t, s->root, xs, ys, (size_t)n, NULL, split)) != HT_OK) return fail("bulk xy", st);
    long bad = 0;
    static ht_trace_step *steps;
    static size_t cap;
    for (int i = 0; i < n; i++) {
        ht_node one, traced = plain[i];
        if ((st = ht_tree_hit_test(s->t, s->root, xy[2 * i], xy[2 * i + 1], NULL, &one)) != HT_OK) return fail("single", st);
        /* One point in 64 traced too: the traced walk (every child of each searched node,
         * blocks read beside the rows) ends with the walk's answer. */
        if (i % 64 == 0) {
            size_t count = 0;
            st = ht_tree_hit_test_trace(s->t, s->root, xy[2 * i], xy[2 * i + 1], NULL, steps, cap, &count, &traced);
            if (st == HT_E_BUFFER_TOO_SMALL) {
                free(steps);
                cap = 2 * count;
                if (!(steps = malloc(cap * sizeof *steps))) return fail("trace buffer", HT_E_NO_MEMORY);
                st = ht_tree_hit_test_trace(s->t, s->root, xy[2 * i], xy[2 * i + 1], NULL, steps, cap, &count, &traced);
            }
            if (st != HT_OK) return fail("trace", st);
            if (count == 0 || steps[0].depth != 0 || (traced >= 0) != (steps[count - 1].decision == HT_TRACE_HIT))
                traced = -99;
        }
        if (grid[i] != plain[i] || one != plain[i] || split[i] != plain[i] || traced != plain[i]) {
            if (bad < 5)
                fprintf(stderr, "answers_check: %s: point (%.17g, %.17g): bulk %d, single %d, traced %d, walk %d\n", what,
                        xy[2 * i], xy[2 * i + 1], (int)grid[i], (int)one, (int)traced, (int)plain[i]);
            bad++;
        }
    }
    return bad;
}

/* Single queries that may write (ht_tree_hit_test_caching), as a tree that is never prepared
 * gets them: they start a lazy grid and settle its cells where points land (a cell at its second
 * point), each with its candidate list; every answer, and the plain single call's on the lazy
 * grid, against the plain walk, in `rounds` rounds over the points. Returns the differences. */
static long compare_lazy(scene *s, int n, const char *what, int rounds) {
    uint64_t tests = 0;
    ht_status st = ht_tree_hit_test_points_counted(s->t, s->root, xy, (size_t)n, 0, plain, &tests);
    if (st != HT_OK) return fail("plain walk", st);
    long bad = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < n; i++) {
            ht_node cached, one;
            if ((st = ht_tree_hit_test_caching(s->t, s->root, xy[2 * i], xy[2 * i + 1], &cached)) != HT_OK)
                return fail("caching single", st);
            if ((st = ht_tree_hit_test(s->t, s->root, xy[2 * i], xy[2 * i + 1], NULL, &one)) != HT_OK)
                return fail("single", st);
            if (cached != plain[i] || one != plain[i]) {
                if (bad < 5)
                    fprintf(stderr, "answers_check: %s, round %d: point (%.17g, %.17g): caching %d, single %d, walk %d\n",
                            what, r, xy[2 * i], xy[2 * i + 1], (int)cached, (int)one, (int)plain[i]);
                bad++;
            }
        }
        if ((st = ht_tree_validate(s->t)) != HT_OK) return fail("validate (lazy grid)", st);
    }
    return bad;
}

/* Taps at the corners and centre of `v`'s region and beside them, each TAPS times through
 * ht_tree_hit_test_caching (a cell is settled at its second point, and gets its list once its
 * undecided points pay for it), against the plain walk. Returns the differences. */
#define TAPS 4
static long tap_around(scene *s, ht_node v, const char *what, int step) {
    ht_node_record r;
    if (ht_node_get_record(s->t, v, &r) != HT_OK) return 0;
    static const double fx[3] = {0, 0.5, 1}, gap[3] = {0, 1e-9, -1e-9};
    long bad = 0;
    for (int i = 0; i < 9; i++) {
        double px, py;
        double lx = r.bounds_x + fx[i % 3] * r.bounds_w, ly = r.bounds_y + fx[i / 3] * r.bounds_h;
        if (ht_tree_convert_point(s->t, v, s->root, lx, ly, &px, &py) != HT_OK) continue;
        px += gap[below(3)];
        py += gap[below(3)];
        ht_node walked;
        uint64_t tests = 0;
        const double p[2] = {px, py};
        ht_status st = ht_tree_hit_test_points_counted(s->t, s->root, p, 1, 0, &walked, &tests);
        if (st != HT_OK) return fail("tap", st);
        for (int k = 0; k < TAPS; k++) {
            ht_node cached;
            if ((st = ht_tree_hit_test_caching(s->t, s->root, px, py, &cached)) != HT_OK) return fail("tap", st);
            if (cached != walked) {
                if (bad < 5)
                    fprintf(stderr, "answers_check: %s, step %d: point (%.17g, %.17g), tap %d: caching %d, walk %d\n",
                            what, step, px, py, k, (int)cached, (int)walked);
                bad++;
            }
        }
    }
    return bad;
}

/* A simulator's loop on the lazy grid: a view moved to a random place, then taps where it was
 * and where it is (tap_around); or a view hidden and shown again, with taps on it each time.
 * `steps` rounds, enough that cells are listed again with longer lists (appended to the pool:
 * a view shown again lengthens its cells' lists without a new entry, so the pool is compacted)
 * and that the entry table starts over (every move gives the view a new entry). Returns the
 * differences. */
static long churn_lazy(scene *s, int steps, const char *what) {
    long bad = 0;
    for (int step = 0; step < steps; step++) {
        ht_node v = s->nodes[1 + below(s->count - 1)];
        bad += tap_around(s, v, what, step);
        uint32_t flags = 0;
        int blink = step % 2 && ht_node_flags(s->t, v, &flags) == HT_OK;
        for (int k = 0; k < (blink ? 2 : 1); k++) {
            if (blink) ht_node_set_flags(s->t, v, flags ^ (k == 0 ? HT_FLAG_HIDDEN : 0));
            else ht_node_set_center(s->t, v, q64(unit() * 390), q64(unit() * 844));
            ht_status st = ht_tree_prepare(s->t);
            if (st != HT_OK) return fail("prepare", st);
            bad += tap_around(s, v, what, step);
        }
    }
    ht_status st = ht_tree_validate(s->t);
    if (st != HT_OK) return fail("validate (lazy grid, churned)", st);
    return bad;
}

/* The answer grid's cells along x, as answers.c sizes them (CELLS_PER_NODE cells per node),
 * checked against its stats: 0 when they disagree (the check then fails: keep them in step). */
static int grid_columns(scene *s) {
    size_t cells = 0;
    if (ht_tree_prepare_points(s->t, s->root) != HT_OK ||
        ht_tree_answer_grid_stats(s->t, s->root, NULL, &cells, NULL) != HT_OK)
        return 0;
    long want = (long)s->count * 64;
    long c = want < 4096 ? 4096 : (want > 262144 ? 262144 : want);
    int nx = (int)ceil(sqrt((double)c * 390 / 844));
    return (size_t)nx * (size_t)(c / nx) == cells ? nx : 0;
}

/*
 * Views whose left or top edge is exactly at, or one ulp beside, a boundary of the answer
 * grid's cells or sub-cells, as answers.c computes those boundaries: points there are where a
 * box without its margin would be wrong. A view with anchor (0, 0) and bounds origin (0, 0)
 * at center e has its left edge exactly at e (x - e >= 0 is exact).
 */
static int align_to_grid(scene *s, int first) {
    int nx = grid_columns(s);
    if (nx == 0) {
        fprintf(stderr, "answers_check: the answer grid is not sized as this check assumes\n");
        return 1;
    }
    long cells = 0;
    size_t got = 0;
    ht_tree_answer_grid_stats(s->t, s->root, NULL, &got, NULL);
    cells = (long)got;
    int ny = (int)(cells / nx);
    for (int k = first; k < s->count; k++) {
        ht_node v = s->nodes[k];
        int sub = unit() < 0.5 ? 4 : 1; /* sub-cell or cell boundaries */
        double cw = 390.0 / ((double)nx * sub), ch = 844.0 / ((double)ny * sub);
        double bx = 0 + (1 + below(nx * sub - 2)) * cw, by = 0 + (1 + below(ny * sub - 2)) * ch;
        double e = below(3) == 0 ? bx : nextafter(bx, unit() < 0.5 ? INFINITY : -INFINITY);
        double f = below(3) == 0 ? by : nextafter(by, unit() < 0.5 ? INFINITY : -INFINITY);
        ht_node_set_anchor(s->t, v, 0, 0);
        ht_node_set_transform(s->t, v, &(ht_affine){1, 0, 0, 1, 0, 0});
        ht_node_set_insets(s->t, v, 0, 0, 0, 0);
        ht_node_set_bounds(s->t, v, 0, 0, 6 + below(12), 6 + below(12));
        if (below(2)) ht_node_set_center(s->t, v, e, q64(unit() * 830));
        else ht_node_set_center(s->t, v, q64(unit() * 380), f);
    }
    return 0;
}

int main(int argc, char **argv) {
    int scenes = argc > 1 ? atoi(argv[1]) : 12;
    int churn = argc > 2 ? atoi(argv[2]) : 3000; /* steps of churn_lazy per scene */
    long bad = 0, points = 0;
    for (int k = 0; k < scenes; k++) {
        rng_state = 0xA5C3u + (unsigned long long)k * 104729u;
        static scene s;
        s.count = 0;
        if (ht_tree_create(0, &s.t) != HT_OK) return fail("create", HT_E_NO_MEMORY);
        int dense = k % 3 != 2;
        build(&s, dense, dense ? 1500 + below(2000) : 600 + below(1200));
        if (k % 3 == 1) bad += align_to_grid(&s, 2);
        /* A thin root (a strip 0.01 pt high across the content): its grid has more than 2^15
         * columns, so the bulk loop's first pass takes its one-point lookup, not the paired
         * one whose cell numbers are 16-bit products (hitq.h, cell_pass.pairs). */
        if (k % 4 == 3 && k % 3 != 1) ht_node_set_bounds(s.t, s.root, 0, 420, 390, 0.01);
        ht_status st = ht_tree_prepare(s.t);
        if (st != HT_OK) return fail("prepare", st);
        int n = make_points(&s);
        /* Before any bulk query: the single queries' lazy grid and its lists. */
        bad += churn_lazy(&s, churn, dense ? "dense scene, lazy grid churned" : "random tree, lazy grid churned");
        bad += compare_lazy(&s, n, dense ? "dense scene, lazy grid" : "random tree, lazy grid", 1);
        points += (long)n;
        /* A fresh grid as a first bulk query prepares it (sub-grids deferred: too few points),
         * then the same grid with its sub-grids built late. */
        bad += compare(&s, n, dense ? "dense scene, sub-grids deferred" : "random tree, sub-grids deferred",
                       1);
        bad += compare(&s, n, dense ? "dense scene" : "random tree", 0);
        points += 2 * (long)n;
        /* Mutations, then the grid's refresh: first as the bulk path does it (the cells
         * recomputed, the sub-grids of those not sure left pending), then whole (the sub-grids
         * recomputed in place). */
        for (int step = 0; step < 40; step++) {
            ht_node v = s.nodes[1 + below(s.count - 1)];
            switch (below(4)) {
            case 0: ht_node_set_center(s.t, v, q64(unit() * 390), q64(unit() * 844)); break;
            case 1: ht_node_set_bounds(s.t, v, 0, 0, q64(8 + unit() * 30), q64(8 + unit() * 30)); break;
            case 2: if (unit() < 0.5) rotate(s.t, v, unit() * 6.283); else scale(s.t, v); break;
            default: customise(s.t, v, k % 3 == 2); break;
            }
        }
        if ((st = ht_tree_prepare(s.t)) != HT_OK) return fail("prepare", st);
        n = make_points(&s);
        bad += compare(&s, n, "after mutations, refreshed by the bulk path", 1);
        bad += compare(&s, n, "after mutations", 0);
        points += n;
        if ((st = ht_tree_validate(s.t)) != HT_OK) {
            fprintf(stderr, "answers_check: validate: %s\n", ht_status_string(st));
            bad++;
        }
        ht_tree_destroy(s.t);
    }
    printf("%d scenes: %ld points, %ld differences from the plain walk\n", scenes, points, bad);
    return bad ? 1 : 0;
}
