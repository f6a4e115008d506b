/*
 * scroll_check.c - a scroll (a bounds-origin change of one view) rebuilds none of that view's
 * derived data, and every answer stays exact (scripts/ccheck.sh).
 *
 * A window holds a scroll view of 200 stacked cells (a block with a grid), some with children,
 * some rotated, inset, pass-through or taking hits outside their bounds (the block's `always`
 * list), under the window's live answer grid. The scroll view's bounds origin is then set to
 * random offsets, far outside the cells' extent and negative included, sometimes inside a batch.
 * After each change:
 *   - the scroll view's block is not marked out of date, and ht_tree_prepare builds only the
 *     window's block (the scroll view's kid moved): the scroll view's block is the same object
 *     and the tree's build counter (htq_state.builds) grew by at most one;
 *   - single and bulk answers (with the answer grid, refreshed or not) at random points and at
 *     points on and one ulp around the edges of the scroll view's region and of every cell,
 *     equal those of a copy rebuilt from nothing (saved and loaded), and ht_tree_validate
 *     passes (it compares every block with a fresh build).
 *   scroll_check [scrolls] [answers-only]    exit 0: all agree; 1: a difference (printed)
 * With a second argument, ht_tree_validate is not consulted, so that only the answers decide.
 * The planted bug scripts/plants/scroll-clip.patch (the block's grid clipped by the view's region
 * again, while a bounds change still leaves the block alone) must make it exit 1, with and
 * without ht_tree_validate.
 */
#include <hittest.h>

#define CHECK_NAME "scroll_check"
#include "check_support.h"

#include "../internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>


#define CELLS 200
#define ROW 44.0
#define POINTS 4000

int main(int argc, char **argv) {
    int scrolls = argc > 1 ? atoi(argv[1]) : 400;
    int validate = argc <= 2; /* with a second argument only the answers decide */
    static double xy[2 * POINTS];
    static ht_node a_bulk[POINTS], a_one[POINTS], b_bulk[POINTS], b_one[POINTS];
    static ht_node cells[CELLS];
    ht_tree *t;
    ht_status st;
    rng_state = 0x5C2011ull;
    if ((st = ht_tree_create(0, &t)) != HT_OK) return check_failed("create", st);
    ht_node root;
    ht_node_create(t, &root);
    ht_node_set_bounds(t, root, 0, 0, 390, 844);
    ht_node_set_center(t, root, 195, 422);
    check_add(t, root, 195, 30, 390, 60); /* a bar above the table */
    ht_node table = check_add(t, root, 195, 452, 390, 744);
    if (table == HT_NULL_NODE) return check_failed("build", HT_E_NO_MEMORY);
    check_add(t, root, 195, 822, 390, 44); /* a bar below */
    for (int i = 0; i < CELLS; i++) {
        ht_node c = cells[i] = check_add(t, table, 195 + (unit() - 0.5) * 20, ROW * i + ROW / 2, 390 - unit() * 40, ROW);
        if (c == HT_NULL_NODE) return check_failed("build", HT_E_NO_MEMORY);
        int kind = below(10);
        if (kind == 0) {
            ht_affine m = {cos(0.3), sin(0.3), -sin(0.3), cos(0.3), 0, 0};
            ht_node_set_transform(t, c, &m);
        } else if (kind == 1) {
            ht_node_set_insets(t, c, -6, -3, -6, -3);
        } else if (kind == 2) {
            ht_node_set_flags(t, c, HT_FLAG_PASS_THROUGH);
        } else if (kind == 3) {
            ht_node_set_flags(t, c, HT_FLAG_OUTSIDE_HITS); /* unbounded: in the block's `always` */
        } else if (kind == 4) {
            ht_node_set_flags(t, c, HT_FLAG_HIDDEN);
        }
        check_add(t, c, 340, ROW / 2, 44, 30); /* a button */
        if (below(3) == 0) check_add(t, c, 60, ROW / 2, 100, 20); /* a label that takes touches */
    }
    if ((st = ht_tree_prepare(t)) != HT_OK) return check_failed("prepare", st);
    if ((st = ht_tree_prepare_points(t, root)) != HT_OK) return check_failed("prepare points", st);
    int32_t ts;
    if ((st = resolve(t, table, &ts)) != HT_OK) return check_failed("resolve", st);
    const block *own = t->hq.blocks[ts];
    if (!own || own->nx == 0) {
        fprintf(stderr, "scroll_check: the table's block has no grid; this check assumes one\n");
        return 1;
    }
    uint64_t extra = 0;
    long compared = 0;
    for (int step = 0; step < scrolls; step++) {
        /* Offsets inside the content, far outside it on every side, and negative. */
        double ox, oy;
        switch (below(4)) {
        case 0: ox = 0; oy = unit() * (CELLS * ROW - 744); break;
        case 1: ox = (unit() - 0.5) * 200; oy = (unit() - 0.2) * CELLS * ROW * 1.5; break;
        case 2: ox = (unit() - 0.5) * 1e5; oy = (unit() - 0.5) * 1e6; break;
        default: ox = floor((unit() - 0.5) * 60) / 4; oy = floor((unit() - 0.3) * CELLS) * ROW; break;
        }
        int batch = below(5) == 0;
        if (batch) ht_tree_begin_batch(t);
        uint64_t before = t->hq.builds;
        if ((st = ht_node_set_bounds(t, table, ox, oy, 390, 744)) != HT_OK) return check_failed("scroll", st);
        if (batch) ht_tree_end_batch(t);
        if (t->hq.dirty[ts]) {
            fprintf(stderr, "scroll_check: step %d: a scroll marked the scrolled view's block out of date\n", step);
            return 1;
        }
        if (below(3) == 0 && (st = ht_tree_prepare_points(t, root)) != HT_OK) return check_failed("prepare points", st);
        if ((st = ht_tree_prepare(t)) != HT_OK) return check_failed("prepare", st);
        if (t->hq.blocks[ts] != own || t->hq.builds - before > 1) {
            fprintf(stderr, "scroll_check: step %d: a scroll rebuilt %llu blocks%s\n", step,
                    (unsigned long long)(t->hq.builds - before),
                    t->hq.blocks[ts] != own ? ", the scrolled view's among them" : "");
            return 1;
        }
        extra += t->hq.builds - before;
        if (validate && (st = ht_tree_validate(t)) != HT_OK) {
            fprintf(stderr, "scroll_check: step %d: validate: %s\n", step, ht_status_string(st));
            return 1;
        }
        /* Points: the table's region's corners and middles, the edges of the cells near the
         * visible part, then random points over the window and around it. */
        int n = 0;
        double fx[3] = {ox, ox + 195, ox + 390}, fy[3] = {oy, oy + 372, oy + 744};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) n = check_edge_points(t, table, root, fx[i], fy[j], xy, n, POINTS);
        int first = (int)floor(oy / ROW) - 1;
        for (int k = first; k <= first + 20; k++) {
            if (k < 0 || k >= CELLS) continue;
            ht_node_record r;
            if (ht_node_get_record(t, cells[k], &r) != HT_OK) continue;
            double x0 = r.bounds_x - r.inset_left, y0 = r.bounds_y - r.inset_top;
            double x1 = r.bounds_x + r.bounds_w + r.inset_right, y1 = r.bounds_y + r.bounds_h + r.inset_bottom;
            n = check_edge_points(t, cells[k], root, x0, y0, xy, n, POINTS);
            n = check_edge_points(t, cells[k], root, x1, y1, xy, n, POINTS);
            n = check_edge_points(t, cells[k], root, (x0 + x1) / 2, y0, xy, n, POINTS);
            n = check_edge_points(t, cells[k], root, x1, (y0 + y1) / 2, xy, n, POINTS);
        }
        while (n < POINTS) {
            xy[2 * n] = unit() * 430 - 20;
            xy[2 * n + 1] = unit() * 900 - 28;
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
                fprintf(stderr, "scroll_check: step %d, offset (%.17g, %.17g): point (%.17g, %.17g) answers %d "
                        "(bulk) / %d (single); a rebuild answers %d / %d\n", step, ox, oy, xy[2 * i],
                        xy[2 * i + 1], a_bulk[i], a_one[i], b_bulk[i], b_one[i]);
                return 1;
            }
        }
        compared += n;
    }
    ht_tree_destroy(t);
    printf("scroll_check: %d scrolls, %llu other blocks rebuilt, the scrolled view's block never; "
           "%ld points agree with a from-scratch rebuild\n", scrolls, (unsigned long long)extra, compared);
    return 0;
}
