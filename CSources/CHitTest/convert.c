/* convert.c - convertPoint:toView: between two nodes, through their nearest common ancestor. */
#include "internal.h"

/* local -> parent space of `s`. */
static void up(const ht_tree *t, int32_t s, double *x, double *y) {
    double m[6] = ROW_TRANSFORM(t, s);
    to_parent(*x, *y, t->cx[s], t->cy[s], t->offx[s], t->offy[s], m, (t->flags[s] & K_IDENTITY) != 0, x, y);
}

/* parent space -> local of `s`. */
static void down(const ht_tree *t, int32_t s, double *x, double *y) {
    double inv[6] = ROW_INVERSE(t, s);
    to_local(*x, *y, t->cx[s], t->cy[s], t->offx[s], t->offy[s], inv,
             (t->flags[s] & K_IDENTITY) != 0, x, y);
}

static int32_t depth_of(const ht_tree *t, int32_t s) {
    int32_t d = 0;
    for (int32_t a = t->parent[s]; a >= 0; a = t->parent[a]) d++;
    return d;
}

ht_status ht_tree_convert_point(const ht_tree *t, ht_node from, ht_node to, double x, double y,
                                double *out_x, double *out_y) {
    int32_t a, b;
    ht_status st = resolve(t, from, &a);
    if (st != HT_OK) return st;
    if ((st = resolve(t, to, &b)) != HT_OK) return st;
    if (!out_x || !out_y) return HT_E_INVALID_ARGUMENT;
    if (!isfinite(x) || !isfinite(y)) return HT_E_NOT_FINITE;
    /* Find the common ancestor (-1: none, the roots' parent space) by equalising depths. */
    int32_t da = depth_of(t, a), db = depth_of(t, b);
    int32_t ua = a, ub = b;
    while (da > db) { ua = t->parent[ua]; da--; }
    while (db > da) { ub = t->parent[ub]; db--; }
    while (ua != ub) {
        ua = t->parent[ua];
        ub = t->parent[ub];
    }
    int32_t lca = ua; /* -1 when the roots differ */
    for (int32_t s = a; s != lca; s = t->parent[s]) up(t, s, &x, &y);
    /* Down from the ancestor to `b`: collect the path upwards, then apply it top-down. */
    int32_t n = 0;
    for (int32_t s = b; s != lca; s = t->parent[s]) n++;
    int32_t *path = NULL;
    if (n > 0) {
        path = malloc((size_t)n * sizeof *path);
        if (!path) return HT_E_NO_MEMORY;
        int32_t i = n;
        for (int32_t s = b; s != lca; s = t->parent[s]) path[--i] = s;
    }
    int singular = 0;
    for (int32_t i = 0; i < n; i++) {
        singular |= (t->flags[path[i]] & K_SINGULAR) != 0;
        down(t, path[i], &x, &y);
    }
    free(path);
    if (singular) return HT_E_SINGULAR;
    if (!isfinite(x) || !isfinite(y)) return HT_E_NOT_FINITE;
    *out_x = x;
    *out_y = y;
    return HT_OK;
}
