/*
 * patch_check.c - a block patched after one child changed equals a fresh build, and every
 * answer stays exact (scripts/ccheck.sh).
 *
 * A window holds a map of 600 pins (a block with a grid): small pins, wide ones that surely
 * cover grid cells (so that a list ends at them), pins on the edges of the pins' extent (the
 * grid's bounds), rotated, inset, pass-through, hidden ones and ones taking hits outside their
 * bounds (the block's `always` list), some with a child. Each step changes the map through the
 * public setters, mostly one pin in place (moved a little or far, resized, its transform or
 * insets set: prepare patches the map's block, htq_state.patches), sometimes two pins, the same
 * pin twice, a flag or the order (prepare builds the block anew), some steps inside a batch.
 * After each step:
 *   - ht_tree_validate passes (it compares every block with a fresh build, so a patched block
 *     must equal one);
 *   - single and bulk answers (with the answer grid) at random points and at points on and one
 *     ulp around the edges of the pins changed, before and after, equal those of a copy rebuilt
 *     from nothing (saved and loaded);
 * and at the end, at least a third of the steps were patches (the path is taken).
 *   patch_check [steps] [answers-only]    exit 0: all agree; 1: a difference (printed)
 * With a second argument, ht_tree_validate is not consulted, so that only the answers decide.
 * The planted bug scripts/plants/patch-cover.patch (a patched cell's list not continued after
 * the moved pin that covered it) must make it exit 1, with and without ht_tree_validate.
 */
#include <hittest.h>

#define CHECK_NAME "patch_check"
#include "check_support.h"

#include "../internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


#define PINS 600
#define SIDE 1000.0
#define POINTS 4000

/* The corners and edge middles of `node`'s region, each with its neighbours one ulp away, in
 * the window's space, appended to `xy` from index `n`. */
static int region_points(ht_tree *t, ht_node node, ht_node root, double *xy, int n) {
    ht_node_record r;
    if (ht_node_get_record(t, node, &r) != HT_OK) return n;
    double x0 = r.bounds_x - r.inset_left, y0 = r.bounds_y - r.inset_top;
    double x1 = r.bounds_x + r.bounds_w + r.inset_right, y1 = r.bounds_y + r.bounds_h + r.inset_bottom;
    double px[3] = {x0, (x0 + x1) / 2, x1}, py[3] = {y0, (y0 + y1) / 2, y1};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) n = check_edge_points(t, node, root, px[a], py[b], xy, n, POINTS);
    return n;
}

/* One in-place change of `pin`: a move (a little, far, or onto the map's edge), a resize (now
 * and then to nothing), a transform or insets. */
static ht_status change_in_place(ht_tree *t, ht_node pin) {
    ht_node_record r;
    ht_status st = ht_node_get_record(t, pin, &r);
    if (st != HT_OK) return st;
    switch (below(10)) {
    case 0: return ht_node_set_center(t, pin, unit() * SIDE, unit() * SIDE);
    case 1: return ht_node_set_center(t, pin, below(2) ? 0 : SIDE, r.center_y);
    case 2: return ht_node_set_bounds(t, pin, 0, 0, below(8) ? 5 + unit() * 300 : 0, 5 + unit() * 300);
    case 3: {
        double a = unit() * 6.3, s = 0.5 + unit() * 2;
        ht_affine m = below(3) == 0 ? (ht_affine){cos(a), sin(a), -sin(a), cos(a), 0, 0}
                    : below(2)      ? (ht_affine){s, 0, 0, s, 0, 0}
                                    : (ht_affine){1, 0, 0, 1, 0, 0};
        return ht_node_set_transform(t, pin, &m);
    }
    case 4: return ht_node_set_insets(t, pin, -unit() * 8, -unit() * 8, -unit() * 8, -unit() * 8);
    default:
        return ht_node_set_center(t, pin, r.center_x + (unit() - 0.5) * 40, r.center_y + (unit() - 0.5) * 40);
    }
}

int main(int argc, char **argv) {
    int steps = argc > 1 ? atoi(argv[1]) : 300;
    int validate = argc <= 2; /* with a second argument only the answers decide */
    static double xy[2 * POINTS];
    static ht_node a_bulk[POINTS], a_one[POINTS], b_bulk[POINTS], b_one[POINTS];
    static ht_node pins[PINS];
    ht_tree *t;
    ht_status st;
    rng_state = 0xB10C5ull;
    if ((st = ht_tree_create(0, &t)) != HT_OK) return check_failed("create", st);
    ht_node root;
    ht_node_create(t, &root);
    ht_node_set_bounds(t, root, 0, 0, SIDE, SIDE);
    ht_node_set_center(t, root, SIDE / 2, SIDE / 2);
    ht_node map = check_add(t, root, SIDE / 2, SIDE / 2, SIDE, SIDE);
    if (map == HT_NULL_NODE) return check_failed("build", HT_E_NO_MEMORY);
    for (int i = 0; i < PINS; i++) {
        int wide = below(10) == 0;
        double w = wide ? 150 + unit() * 450 : 6 + unit() * 30, h = wide ? 150 + unit() * 450 : 6 + unit() * 30;
        double cx = unit() * SIDE, cy = unit() * SIDE;
        if (i < 4) cx = i % 2 ? SIDE : 0, cy = i / 2 ? SIDE : 0; /* on the extent's edges */
        ht_node p = pins[i] = check_add(t, map, cx, cy, w, h);
        if (p == HT_NULL_NODE) return check_failed("build", HT_E_NO_MEMORY);
        switch (below(20)) {
        case 0: {
            ht_affine m = {cos(0.5), sin(0.5), -sin(0.5), cos(0.5), 0, 0};
            ht_node_set_transform(t, p, &m);
            break;
        }
        case 1: ht_node_set_insets(t, p, -4, -4, -4, -4); break;
        case 2: ht_node_set_flags(t, p, HT_FLAG_PASS_THROUGH); break;
        case 3: ht_node_set_flags(t, p, HT_FLAG_OUTSIDE_HITS); break;
        case 4: ht_node_set_flags(t, p, HT_FLAG_HIDDEN); break;
        default: break;
        }
        if (below(4) == 0) check_add(t, p, w / 2, h / 2, w / 3, h / 3);
    }
    if ((st = ht_tree_prepare(t)) != HT_OK) return check_failed("prepare", st);
    if ((st = ht_tree_prepare_points(t, root)) != HT_OK) return check_failed("prepare points", st);
    int32_t ms;
    if ((st = resolve(t, map, &ms)) != HT_OK) return check_failed("resolve", st);
    if (!t->hq.blocks[ms] || t->hq.blocks[ms]->nx == 0) {
        fprintf(stderr, "patch_check: the map's block has no grid; this check assumes one\n");
        return 1;
    }
    uint64_t patches0 = t->hq.patches;
    long compared = 0;
    for (int step = 0; step < steps; step++) {
        ht_node changed[2] = {pins[below(PINS)], pins[below(PINS)]};
        int n = region_points(t, changed[0], root, xy, 0);
        n = region_points(t, changed[1], root, xy, n);
        int batch = below(5) == 0;
        if (batch) ht_tree_begin_batch(t);
        int kind = below(20);
        if (kind < 14) {
            st = change_in_place(t, changed[0]);
        } else if (kind < 16) {
            if ((st = change_in_place(t, changed[0])) == HT_OK) st = change_in_place(t, changed[0]);
        } else if (kind < 18) {
            if ((st = change_in_place(t, changed[0])) == HT_OK) st = change_in_place(t, changed[1]);
        } else if (kind == 18) {
            ht_node_record r;
            if ((st = ht_node_get_record(t, changed[0], &r)) == HT_OK)
                st = ht_node_set_flags(t, changed[0], r.flags ^ HT_FLAG_HIDDEN);
        } else {
            st = ht_node_attach(t, changed[0], map, below(PINS)); /* a new place in the order */
        }
        if (st != HT_OK) return check_failed("change", st);
        if (batch) ht_tree_end_batch(t);
        if (below(3) == 0 && (st = ht_tree_prepare_points(t, root)) != HT_OK) return check_failed("prepare points", st);
        if ((st = ht_tree_prepare(t)) != HT_OK) return check_failed("prepare", st);
        if (validate && (st = ht_tree_validate(t)) != HT_OK) {
            fprintf(stderr, "patch_check: step %d: validate: %s\n", step, ht_status_string(st));
            return 1;
        }
        n = region_points(t, changed[0], root, xy, n);
        n = region_points(t, changed[1], root, xy, n);
        while (n < POINTS) {
            xy[2 * n] = unit() * (SIDE + 40) - 20;
            xy[2 * n + 1] = unit() * (SIDE + 40) - 20;
            n++;
        }
        void *buf;
        size_t len;
        ht_tree *fresh;
        if ((st = ht_tree_save(t, &buf, &len)) != HT_OK) return check_failed("save", st);
        if ((st = ht_tree_load(buf, len, &fresh)) != HT_OK) return check_failed("load", st);
        ht_free(buf);
        if (ht_tree_prepare(fresh) != HT_OK || ht_tree_prepare_points(fresh, root) != HT_OK)
            return check_failed("prepare the rebuild", HT_E_NO_MEMORY);
        if (check_answers(t, root, xy, n, a_bulk, a_one) || check_answers(fresh, root, xy, n, b_bulk, b_one)) return 1;
        ht_tree_destroy(fresh);
        for (int i = 0; i < n; i++) {
            if (a_bulk[i] != b_bulk[i] || a_one[i] != b_one[i]) {
                fprintf(stderr, "patch_check: step %d: point (%.17g, %.17g) answers %d (bulk) / %d (single); "
                        "a rebuild answers %d / %d\n", step, xy[2 * i], xy[2 * i + 1], a_bulk[i], a_one[i],
                        b_bulk[i], b_one[i]);
                return 1;
            }
        }
        compared += n;
    }
    uint64_t patched = t->hq.patches - patches0;
    ht_tree_destroy(t);
    if (3 * patched < (uint64_t)steps) {
        fprintf(stderr, "patch_check: only %llu of %d steps patched the map's block\n",
                (unsigned long long)patched, steps);
        return 1;
    }
    printf("patch_check: %d steps, %llu blocks patched in place, the others built anew; "
           "%ld points agree with a from-scratch rebuild\n", steps, (unsigned long long)patched, compared);
    return 0;
}
