/*
 * check_support.h - what the C core's checks share (scripts/ccheck.sh): a seeded generator, a
 * failure message, building a node, asking a tree single and bulk, and the points on and one ulp
 * around a point of a node (check_*). A check defines CHECK_NAME (its name in messages) before
 * including this; everything here is static inline, so a check uses what it needs.
 */
#ifndef HT_CHECK_SUPPORT_H
#define HT_CHECK_SUPPORT_H

#include <hittest.h>

#include <math.h>
#include <stdio.h>

#ifndef CHECK_NAME
#define CHECK_NAME "check"
#endif

/* The generator's state: a check seeds it (per tree, per scene) and draws from it. */
static unsigned long long rng_state;

static inline double unit(void) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

static inline int below(int n) { return (int)(unit() * n); }

static inline int check_failed(const char *what, ht_status st) {
    fprintf(stderr, CHECK_NAME ": %s: %s\n", what, ht_status_string(st));
    return 1;
}

/* A new node with bounds (0, 0, w, h) at centre (cx, cy), the last child of `parent`;
 * HT_NULL_NODE when it cannot be made. */
static inline ht_node check_add(ht_tree *t, ht_node parent, double cx, double cy, double w, double h) {
    ht_node n;
    if (ht_node_create(t, &n) != HT_OK) return HT_NULL_NODE;
    ht_node_set_bounds(t, n, 0, 0, w, h);
    ht_node_set_center(t, n, cx, cy);
    if (ht_node_attach(t, n, parent, INT32_MAX) != HT_OK) return HT_NULL_NODE;
    return n;
}

/* The answers of `t` from `root` at `xy`: bulk (with the answer grid) and single. */
static inline int check_answers(ht_tree *t, ht_node root, const double *xy, int n, ht_node *bulk, ht_node *single) {
    ht_status st;
    if ((st = ht_tree_prepare(t)) != HT_OK) return check_failed("prepare", st);
    if ((st = ht_tree_hit_test_points(t, root, xy, (size_t)n, NULL, bulk)) != HT_OK) return check_failed("bulk", st);
    for (int i = 0; i < n; i++)
        if ((st = ht_tree_hit_test(t, root, xy[2 * i], xy[2 * i + 1], NULL, &single[i])) != HT_OK)
            return check_failed("single", st);
    return 0;
}

/* Point (x, y) of `node`'s space and its neighbours one ulp away, converted to `root`'s space,
 * appended to `xy` from index `n` (at most `cap` points in all); the new count. */
static inline int check_edge_points(ht_tree *t, ht_node node, ht_node root, double x, double y, double *xy, int n,
                              int cap) {
    double xs[3] = {nextafter(x, -INFINITY), x, nextafter(x, INFINITY)};
    double ys[3] = {nextafter(y, -INFINITY), y, nextafter(y, INFINITY)};
    for (int i = 0; i < 3 && n < cap; i++)
        for (int j = 0; j < 3 && n < cap; j++) {
            double wx, wy;
            if (ht_tree_convert_point(t, node, root, xs[i], ys[j], &wx, &wy) != HT_OK) continue;
            xy[2 * n] = wx;
            xy[2 * n + 1] = wy;
            n++;
        }
    return n;
}

#endif
