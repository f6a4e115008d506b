/*
 * differential.c - the mutation protocol against a from-scratch rebuild (scripts/ccheck.sh).
 *
 * Random trees take random mutations through every mutator (setters, attach, detach, free,
 * create), some inside batches, with the answer grid live. After each step the incrementally
 * maintained tree is prepared and compared with a copy rebuilt from nothing (saved and loaded:
 * the copy's blocks and answer grid are built from the rows alone): the same answers for
 * random and edge points, single and bulk, and ht_tree_validate passes on both. Half the trees
 * are asked through ht_tree_hit_test_caching, whose grid starts and fills itself (and which
 * settles the changed cells of a full grid, built now and then); after its steps each such tree
 * is followed by a static scene whose single queries' rent buys the full grid (promotes). A missing
 * invalidation in fields.h's table (scripts/plants/missing-invalidation.patch drops one) makes
 * the two disagree; the exit status says whether they did. The geometry read back through the
 * record, ht_node_get_geometry and the published rows agrees after every step.
 *   differential [trees] [steps] [answers-only]   exit 0: all agree; 1: a difference (printed)
 * With a third argument, ht_tree_validate is not consulted, so that only the answers decide.
 */
#include <hittest.h>

#define CHECK_NAME "differential"
#include "check_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define MAX_NODES 160
#define POINTS 600

typedef struct world {
    ht_tree *t;
    ht_node nodes[MAX_NODES];
    int count;
    ht_node root;
} world;

static int failed(const char *what, ht_status st) {
    fprintf(stderr, "%s: %s\n", what, ht_status_string(st));
    return 1;
}

static void add_node(world *w) {
    ht_node n;
    if (ht_node_create(w->t, &n) != HT_OK) return;
    ht_node_set_bounds(w->t, n, 0, 0, 5 + unit() * 120, 5 + unit() * 120);
    ht_node_set_center(w->t, n, unit() * 300, unit() * 300);
    ht_node parent = w->nodes[below(w->count)];
    if (ht_node_attach(w->t, n, parent, below(4)) != HT_OK) ht_node_free(w->t, n);
    else w->nodes[w->count++] = n;
}

/* A layout pass's frames for some children of `n`'s parent, in one call: most keep their size
 * (moved or not), some are resized (listed back, not written), some belong elsewhere (left
 * alone), now and then one is not finite (the call is refused and writes nothing). */
static void layout_frames(world *w, ht_node n) {
    ht_tree *t = w->t;
    ht_node parent;
    if (ht_node_parent(t, n, &parent) != HT_OK || parent == HT_NULL_NODE) return;
    ht_node nodes[8];
    double frames[32];
    uint32_t resize[8];
    size_t count = 1 + (size_t)below(8), resized = 0;
    for (size_t i = 0; i < count; i++) {
        nodes[i] = i == 0 ? n : w->nodes[below(w->count)];
        ht_node_geometry g;
        if (ht_node_get_geometry(t, nodes[i], &g) != HT_OK) return;
        double *f = frames + 4 * i;
        int same = unit() < 0.2; /* the frame it has: no write */
        f[0] = same ? g.center_x - g.anchor_x * g.bounds_w : unit() * 300;
        f[1] = same ? g.center_y - g.anchor_y * g.bounds_h : unit() * 300;
        f[2] = unit() < 0.8 ? g.bounds_w : unit() * 130;
        f[3] = g.bounds_h;
        if (unit() < 0.03) f[1] = NAN;
    }
    ht_status st = ht_tree_set_layout_frames(t, parent, nodes, frames, count, resize, &resized);
    if (st != HT_OK && st != HT_E_NOT_FINITE) {
        fprintf(stderr, "layout frames: %s\n", ht_status_string(st));
        exit(1);
    }
}

/* One random mutation through any mutator. */
static void mutate(world *w) {
    ht_tree *t = w->t;
    int i = 1 + below(w->count - 1); /* never the root itself */
    ht_node n = w->nodes[i];
    switch (below(13)) {
    case 0: ht_node_set_center(t, n, unit() * 300, unit() * 300); break;
    case 1: ht_node_set_bounds(t, n, unit() * 10 - 5, unit() * 10 - 5, unit() * 130, unit() * 130); break;
    case 2: ht_node_set_anchor(t, n, unit(), unit()); break;
    case 3: {
        double a = unit() * 6.28;
        ht_affine m = {cos(a), sin(a), -sin(a), cos(a), unit() * 10, 0};
        if (unit() < 0.3) m = (ht_affine){1, 0, 0, 1, 0, 0};
        ht_node_set_transform(t, n, &m);
        break;
    }
    case 4: {
        uint32_t r = (uint32_t)below(64); /* bits 0-4 the flags below, bit 5 HT_FLAG_BLOCKED */
        ht_node_set_flags(t, n, (r & (HT_FLAG_HIDDEN | HT_FLAG_NO_INTERACTION | HT_FLAG_PASS_THROUGH | HT_FLAG_CAPTURES | HT_FLAG_OUTSIDE_HITS)) |
                                    ((r & 32) ? HT_FLAG_BLOCKED : 0));
        break;
    }
    case 5: ht_node_set_alpha(t, n, unit() < 0.2 ? 0.005 : unit()); break;
    case 6: ht_node_set_insets(t, n, unit() * 8 - 4, unit() * 8 - 4, unit() * 8 - 4, unit() * 8 - 4); break;
    case 7: ht_node_set_priority(t, n, below(3) - 1); break;
    case 8: ht_node_attach(t, n, w->nodes[below(w->count)], below(5)); break; /* may be a cycle: refused */
    case 9: ht_node_detach(t, n); if (unit() < 0.7) ht_node_attach(t, n, w->root, below(5)); break;
    case 10:
        if (w->count > 8) {
            ht_node_free(t, n);
            w->nodes[i] = w->nodes[--w->count];
        }
        break;
    case 11: layout_frames(w, n); break;
    default:
        if (w->count < MAX_NODES) add_node(w);
        break;
    }
}

/* The stored values of every node of `w` agree however read: the geometry three ways (the
 * record, ht_node_get_geometry and the rows), the rest two (the record and the rows). The rows
 * are read by slot (ht_tree_rows): their addresses must follow the rows as node creations grow
 * them. */
static int rows_agree(const world *w) {
    const ht_rows *r = ht_tree_rows(w->t);
    for (int i = 0; i < w->count; i++) {
        ht_node n = w->nodes[i];
        ht_node_record rec;
        ht_node_geometry g;
        if (ht_node_get_record(w->t, n, &rec) != HT_OK || ht_node_get_geometry(w->t, n, &g) != HT_OK)
            return failed("reading a node back", HT_E_INVALID_ARGUMENT);
        uint32_t s = (uint32_t)n & HT_SLOT_MASK;
        const double want[19] = {rec.center_x, rec.center_y, rec.bounds_x, rec.bounds_y, rec.bounds_w,
                                 rec.bounds_h, rec.anchor_x, rec.anchor_y, rec.transform.a, rec.transform.b,
                                 rec.transform.c, rec.transform.d, rec.transform.tx, rec.transform.ty,
                                 rec.alpha, rec.inset_top, rec.inset_left, rec.inset_bottom, rec.inset_right};
        const double got[14] = {g.center_x, g.center_y, g.bounds_x, g.bounds_y, g.bounds_w, g.bounds_h,
                                g.anchor_x, g.anchor_y, g.transform.a, g.transform.b, g.transform.c,
                                g.transform.d, g.transform.tx, g.transform.ty};
        const double rows[19] = {r->center_x[s], r->center_y[s], r->bounds_x[s], r->bounds_y[s],
                                 r->bounds_w[s], r->bounds_h[s], r->anchor_x[s], r->anchor_y[s],
                                 r->a[s], r->b[s], r->c[s], r->d[s], r->tx[s], r->ty[s],
                                 r->alpha[s], r->inset_top[s], r->inset_left[s], r->inset_bottom[s],
                                 r->inset_right[s]};
        if (memcmp(want, got, sizeof got) || memcmp(want, rows, sizeof want) ||
            (r->flags[s] & HT_FLAG_ALL) != rec.flags || r->priority[s] != rec.priority) {
            fprintf(stderr, "node %d: the stored values read back two or three ways disagree\n", n);
            return 1;
        }
    }
    return 0;
}

/* The answers of `t` from `root` at `xy`: bulk (with its answer grid) and single; with
 * `caching`, the single ones first, through ht_tree_hit_test_caching (which prepares the tree and
 * starts and fills the grid), and then bulk on the grid those queries left. */
static int answers(ht_tree *t, ht_node root, const double *xy, ht_node *bulk, ht_node *single,
                   int caching) {
    ht_status st;
    if (caching) {
        for (int i = 0; i < POINTS; i++)
            if ((st = ht_tree_hit_test_caching(t, root, xy[2 * i], xy[2 * i + 1], &single[i])) != HT_OK)
                return failed("caching single", st);
    } else if ((st = ht_tree_prepare(t)) != HT_OK) {
        return failed("prepare", st);
    }
    if ((st = ht_tree_hit_test_points(t, root, xy, POINTS, NULL, bulk)) != HT_OK) return failed("bulk", st);
    for (int i = 0; i < POINTS && !caching; i++)
        if ((st = ht_tree_hit_test(t, root, xy[2 * i], xy[2 * i + 1], NULL, &single[i])) != HT_OK)
            return failed("single", st);
    return 0;
}

/* A new world: a 320 x 320 root and `nodes` random nodes under it (fewer when add_node fails). */
static int make_world(world *w, int nodes) {
    if (ht_tree_create(0, &w->t) != HT_OK) return failed("create", HT_E_NO_MEMORY);
    ht_node_create(w->t, &w->root);
    ht_node_set_bounds(w->t, w->root, 0, 0, 320, 320);
    ht_node_set_center(w->t, w->root, 160, 160);
    w->nodes[w->count++] = w->root;
    for (int k = 0; k < nodes && w->count < MAX_NODES; k++) add_node(w);
    return 0;
}

/* A scene that stops changing, asked one point at a time through ht_tree_hit_test_caching: the
 * lazy grid the queries start is replaced by the full one once their rent pays for it
 * (htq_promote; seen as the grid's finer cells), and every answer, before and after, is the
 * walk's (the bulk call without the grid); the promoted grid passes ht_tree_validate. */
static int promotes(int tree) {
    world w = {0};
    if (make_world(&w, MAX_NODES - 1)) return 1; /* enough nodes that the two grids differ in size */
    size_t lazy_cells = 0, cells = 0;
    for (long q = 0; q < 4000000; q++) {
        double p[2] = {unit() * 340 - 10, unit() * 340 - 10};
        ht_node one, walk;
        uint64_t tests;
        ht_status st = ht_tree_hit_test_caching(w.t, w.root, p[0], p[1], &one);
        if (st != HT_OK) return failed("caching single", st);
        if ((st = ht_tree_hit_test_points_counted(w.t, w.root, p, 1, 0, &walk, &tests)) != HT_OK)
            return failed("walk", st);
        if (one != walk) {
            printf("tree %d, static, query %ld: (%g, %g) answers %d; the walk %d\n", tree, q, p[0],
                   p[1], one, walk);
            return 1;
        }
        if ((st = ht_tree_answer_grid_stats(w.t, w.root, NULL, &cells, NULL)) != HT_OK)
            return failed("grid stats", st);
        if (!lazy_cells) {
            lazy_cells = cells;
        } else if (cells > lazy_cells) {
            if ((st = ht_tree_validate(w.t)) != HT_OK) return failed("validate the promoted grid", st);
            ht_tree_destroy(w.t);
            return 0;
        }
    }
    printf("tree %d, static: the caching queries never paid for the full grid (%zu cells)\n", tree, cells);
    return 1;
}

int main(int argc, char **argv) {
    int trees = argc > 1 ? atoi(argv[1]) : 60, steps = argc > 2 ? atoi(argv[2]) : 150;
    int validate = argc <= 3;
    static double xy[2 * POINTS];
    static ht_node a_bulk[POINTS], a_one[POINTS], b_bulk[POINTS], b_one[POINTS];
    long compared = 0, started = 0, promoted = 0;
    for (int tree = 0; tree < trees; tree++) {
        rng_state = 0x51ED2701ull + (unsigned long long)tree * 7919u;
        world w = {0};
        if (make_world(&w, 40)) return 1;
        /* Odd trees are asked only one point at a time through ht_tree_hit_test_caching, which
         * starts the answer grid itself and fills it cell by cell; even ones have the grid built
         * whole and refreshed by ht_tree_prepare_points. */
        int caching = tree % 2;
        if (!caching) ht_tree_prepare_points(w.t, w.root); /* a live grid, updated incrementally */
        for (int step = 0; step < steps; step++) {
            int batch = unit() < 0.25;
            if (batch) ht_tree_begin_batch(w.t);
            int n = 1 + below(batch ? 12 : 2);
            for (int k = 0; k < n; k++) mutate(&w);
            if (batch) ht_tree_end_batch(w.t);
            /* Refreshes the UNKNOWN cells: whole, or as a bulk call does (the sub-grids of the
             * cells not sure left pending until a whole refresh). */
            if (!caching && unit() < 0.3) {
                if (unit() < 0.5) ht_tree_prepare_points(w.t, w.root);
                else ht_tree_prepare_points_for(w.t, w.root, 0);
            }
            /* A full grid (with its sub-grids and lists) under the caching queries now and then:
             * they settle its changed cells themselves. */
            if (caching && unit() < 0.15) ht_tree_prepare_points(w.t, w.root);
            if (rows_agree(&w)) return 1;
            ht_status st = caching ? HT_OK : ht_tree_prepare(w.t);
            if (st != HT_OK) return failed("prepare", st);
            if (validate && !caching && (st = ht_tree_validate(w.t)) != HT_OK) {
                fprintf(stderr, "tree %d step %d: validate: %s\n", tree, step, ht_status_string(st));
                return 1;
            }
            for (int i = 0; i < POINTS; i++) {
                /* Random points, and points on edges of the grid (a quarter). */
                xy[2 * i] = i % 4 ? unit() * 340 - 10 : floor(unit() * 32) * 10;
                xy[2 * i + 1] = i % 4 ? unit() * 340 - 10 : floor(unit() * 32) * 10;
            }
            void *buf;
            size_t len;
            ht_tree *fresh;
            if ((st = ht_tree_save(w.t, &buf, &len)) != HT_OK) return failed("save", st);
            if ((st = ht_tree_load(buf, len, &fresh)) != HT_OK) return failed("load", st);
            ht_free(buf);
            if (ht_tree_prepare(fresh) != HT_OK || ht_tree_prepare_points(fresh, w.root) != HT_OK)
                return failed("prepare the rebuild", HT_E_NO_MEMORY);
            if (answers(w.t, w.root, xy, a_bulk, a_one, caching) || answers(fresh, w.root, xy, b_bulk, b_one, 0))
                return 1;
            if (caching) {
                size_t cells = 0, sure = 0;
                if ((st = ht_tree_answer_grid_stats(w.t, w.root, NULL, &cells, &sure)) != HT_OK)
                    return failed("grid stats", st);
                started += cells > 0 && sure > 0;
            }
            /* The cells the caching queries settled, checked against the walk. */
            if (validate && caching && (st = ht_tree_validate(w.t)) != HT_OK) {
                fprintf(stderr, "tree %d step %d: validate after caching queries: %s\n", tree, step,
                        ht_status_string(st));
                return 1;
            }
            if ((st = ht_tree_validate(fresh)) != HT_OK) return failed("validate the rebuild", st);
            ht_tree_destroy(fresh);
            for (int i = 0; i < POINTS; i++) {
                if (a_bulk[i] != b_bulk[i] || a_one[i] != b_one[i] || a_one[i] != a_bulk[i]) {
                    printf("tree %d step %d: (%g, %g) answers %d (bulk) / %d (single); a rebuild "
                           "answers %d\n", tree, step, xy[2 * i], xy[2 * i + 1], a_bulk[i],
                           a_one[i], b_bulk[i]);
                    return 1;
                }
            }
            compared += POINTS;
        }
        ht_tree_destroy(w.t);
        if (caching) {
            if (promotes(tree)) return 1;
            promoted++;
        }
    }
    if (trees > 1 && started == 0) {
        printf("the caching queries never started an answer grid\n");
        return 1;
    }
    printf("%d trees x %d steps: %ld points agree with a from-scratch rebuild (%ld steps of "
           "caching queries with an answer grid); %ld static scenes paid for the full grid\n",
           trees, steps, compared, started, promoted);
    return 0;
}
