/*
 * fuzz_api.c - libFuzzer harness for the C API.
 *
 * The input is a program: each op reads its arguments from the bytes that follow (handles
 * chosen among live, freed and made-up ones; numbers among edges, NaN and infinities). Every
 * call must return a status, never crash; the harness keeps its own model of the tree (plain
 * arrays, independent of the library's index) and checks every status it can predict against
 * it, and every hit test: single, bulk and traced answers agree, and the trail of the library's
 * walk (ht_tree_hit_test_trace) is checked step by step against the model (check_trail): each
 * step the next one UIKit's walk takes, its point converted with the model's numbers, its
 * decision the model's for that node. The walk is the library's; the harness has none.
 *
 *   scripts/fuzz.sh api 60
 */
#pragma STDC FP_CONTRACT OFF
#include <hittest.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 48

typedef struct mnode {
    int used;
    ht_node handle;
    int parent;
    int kids[MAX_NODES];
    int nkids;
    double cx, cy, bx, by, bw, bh, ax, ay, m[6], alpha, in[4];
    uint32_t flags;
    int32_t priority;
} mnode;

typedef struct model {
    mnode n[MAX_NODES];
    ht_node freed[16];
    int nfreed;
} model;

typedef struct input {
    const uint8_t *p;
    size_t left;
} input;

static uint8_t byte(input *in) {
    if (!in->left) return 0;
    in->left--;
    return *in->p++;
}

static double number(input *in) {
    static const double special[] = {0, 1, -1, 0.5, 10, 100, 390, 844, -50, 1e-300,
                                     1e300, 0.01, 0.0099, NAN, INFINITY, -INFINITY};
    uint8_t b = byte(in);
    if (b < 16) return special[b];
    return ((double)(int8_t)byte(in)) * 4 + (double)(b & 7) * 0.5;
}

static int find(const model *m, ht_node h) {
    for (int i = 0; i < MAX_NODES; i++)
        if (m->n[i].used && m->n[i].handle == h) return i;
    return -1;
}

/* A handle: usually a live node, sometimes a freed one or a made-up one. */
static ht_node pick(const model *m, input *in) {
    uint8_t b = byte(in);
    if (b < 200) {
        int live[MAX_NODES], k = 0;
        for (int i = 0; i < MAX_NODES; i++)
            if (m->n[i].used) live[k++] = i;
        if (k) return m->n[live[b % k]].handle;
    }
    if (b < 230 && m->nfreed) return m->freed[b % m->nfreed];
    static const ht_node bogus[] = {-1, -2, 12345, INT32_MAX, 0x7F000000};
    return bogus[b % 5];
}

static int finite_all(const double *v, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return 0;
    return 1;
}

/* parent space -> local space of `v`: the arithmetic UIKit and the library use. */
static void to_local(const mnode *v, double x, double y, double *lx, double *ly) {
    double a = v->m[0], b = v->m[1], c = v->m[2], d = v->m[3], tx = v->m[4], ty = v->m[5];
    double offx = v->bx + v->ax * v->bw, offy = v->by + v->ay * v->bh;
    double qx = x - v->cx, qy = y - v->cy, dx, dy;
    if (a == 1 && b == 0 && c == 0 && d == 1 && tx == 0 && ty == 0) {
        dx = qx;
        dy = qy;
    } else {
        double det = a * d - b * c;
        double inv[6] = {d / det, -b / det, -c / det, a / det, (c * ty - d * tx) / det,
                         (b * tx - a * ty) / det};
        if (det == 0 || !finite_all(inv, 6)) {
            *lx = *ly = NAN;
            return;
        }
        dx = inv[0] * qx + inv[2] * qy + inv[4];
        dy = inv[1] * qx + inv[3] * qy + inv[5];
    }
    *lx = dx + offx;
    *ly = dy + offy;
}

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) abort();                                                                  \
    } while (0)

static int singular(const mnode *v) {
    double a = v->m[0], b = v->m[1], c = v->m[2], d = v->m[3];
    double det = a * d - b * c;
    double inv[6] = {d / det, -b / det, -c / det, a / det, (c * v->m[5] - d * v->m[4]) / det,
                     (b * v->m[4] - a * v->m[5]) / det};
    int identity = a == 1 && b == 0 && c == 0 && d == 1 && v->m[4] == 0 && v->m[5] == 0;
    return !identity && (det == 0 || !finite_all(inv, 6));
}

static int same(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* The model's search order of `v`'s children: last first, a higher priority first. */
static int search_order(const model *m, const mnode *v, int *order) {
    int n = v->nkids;
    for (int k = 0; k < n; k++) order[k] = v->kids[n - 1 - k];
    for (int a = 1; a < n; a++) /* stable insertion sort: higher priority first */
        for (int b = a; b > 0 && m->n[order[b]].priority > m->n[order[b - 1]].priority; b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    return n;
}

typedef struct trail {
    const ht_trace_step *s;
    size_t n, pos;
} trail;

/* The next step of the trail: about model node `v` at depth `d` with the point (x, y). */
static const ht_trace_step *next_step(trail *tr, const model *m, int v, int d, double x, double y) {
    CHECK(tr->pos < tr->n);
    const ht_trace_step *st = &tr->s[tr->pos++];
    CHECK(st->node == m->n[v].handle && st->depth == d && same(st->x, x) && same(st->y, y));
    return st;
}

enum { T_NIL, T_ANSWER, T_SEARCH };

/* The steps of a node's own decision, checked against the model: T_NIL, T_ANSWER (*answer set:
 * the node, or HT_PENDING_NODE for a hook) or T_SEARCH (its children come next). */
static int check_decision(trail *tr, const model *m, int v, int d, double x, double y, int *inside,
                          ht_node *answer) {
    const mnode *mv = &m->n[v];
    const ht_trace_step *st = next_step(tr, m, v, d, x, y);
    uint32_t f = mv->flags;
    if (f & HT_FLAG_ASK_HIT_TEST) {
        CHECK(st->decision == HT_TRACE_HOOK && st->answer == HT_PENDING_NODE);
        *answer = HT_PENDING_NODE;
        return T_ANSWER;
    }
    if ((f & (HT_FLAG_HIDDEN | HT_FLAG_NO_INTERACTION)) || mv->alpha < 0.01) {
        CHECK(st->decision == ((f & HT_FLAG_HIDDEN) ? HT_TRACE_HIDDEN
                               : (f & HT_FLAG_NO_INTERACTION) ? HT_TRACE_NO_INTERACTION : HT_TRACE_TRANSPARENT));
        return T_NIL;
    }
    if (f & HT_FLAG_ASK_POINT_INSIDE) {
        CHECK(st->decision == HT_TRACE_HOOK && (st->flags & HT_TRACE_ASKED) && st->answer == HT_PENDING_NODE);
        *answer = HT_PENDING_NODE;
        return T_ANSWER;
    }
    double x0 = mv->bx + mv->in[1], y0 = mv->by + mv->in[0];
    double x1 = x0 + (mv->bw - mv->in[1] - mv->in[3]), y1 = y0 + (mv->bh - mv->in[0] - mv->in[2]);
    *inside = x >= x0 && x < x1 && y >= y0 && y < y1;
    if (!*inside && !(f & HT_FLAG_OUTSIDE_HITS)) {
        CHECK(st->decision == (d > 0 && singular(mv) ? HT_TRACE_SINGULAR : HT_TRACE_OUTSIDE));
        return T_NIL;
    }
    CHECK((st->flags & HT_TRACE_INSIDE) == (*inside ? HT_TRACE_INSIDE : 0u));
    if ((f & HT_FLAG_CAPTURES) || mv->nkids == 0) {
        CHECK(st->decision == ((f & HT_FLAG_CAPTURES) ? HT_TRACE_CAPTURE : HT_TRACE_SEARCH) && st->children == 0);
        return T_SEARCH; /* no children to search: the closing step comes next */
    }
    CHECK(st->decision == HT_TRACE_SEARCH && st->children == mv->nkids);
    return T_SEARCH;
}

/* The closing step of node `v` once no child took the point: the node, or nil. */
static int check_closing(trail *tr, const model *m, int v, int d, double x, double y, int inside,
                         ht_node *answer) {
    const ht_trace_step *st = next_step(tr, m, v, d, x, y);
    int hit = inside && !(m->n[v].flags & HT_FLAG_PASS_THROUGH);
    CHECK(st->decision == (hit ? HT_TRACE_HIT : inside ? HT_TRACE_PASS_THROUGH : HT_TRACE_NIL));
    CHECK(st->answer == (hit ? m->n[v].handle : HT_NULL_NODE));
    if (hit) *answer = m->n[v].handle;
    return hit;
}

/*
 * Checks the library's trail (`n` steps) of a hit test from model node `i` at (x, y) against the
 * model and returns the answer it ends with. The order of the steps is UIKit's: a node's
 * decision; if its children are searched, each child's steps in the model's search order, until
 * one answers; then, if none did, the node's closing step. The trail must end with the answer.
 */
static ht_node check_trail(const model *m, int i, double x, double y, const ht_trace_step *s, size_t n) {
    struct frame {
        int v, inside, order[MAX_NODES], count, next;
        double x, y;
    } stack[MAX_NODES + 1];
    trail tr = {s, n, 0};
    ht_node answer = HT_NULL_NODE;
    int sp = 0, inside = 0;
    int v = i, r = check_decision(&tr, m, i, 0, x, y, &inside, &answer);
    double lx = x, ly = y;
    for (;;) {
        if (r == T_SEARCH) { /* open the frame of `v`: its children, none when it captures */
            CHECK(sp <= MAX_NODES);
            struct frame *g = &stack[sp++];
            g->v = v;
            g->inside = inside;
            g->count = (m->n[v].flags & HT_FLAG_CAPTURES) ? 0 : search_order(m, &m->n[v], g->order);
            g->next = 0;
            g->x = lx;
            g->y = ly;
        }
        if (sp == 0 || answer != HT_NULL_NODE) break;
        struct frame *f = &stack[sp - 1];
        if (f->next == f->count) {
            sp--;
            check_closing(&tr, m, f->v, sp, f->x, f->y, f->inside, &answer);
            r = T_NIL;
            continue;
        }
        v = f->order[f->next++];
        to_local(&m->n[v], f->x, f->y, &lx, &ly);
        r = check_decision(&tr, m, v, sp, lx, ly, &inside, &answer);
    }
    CHECK(tr.pos == n);
    return answer;
}

static void unlink_model(model *m, int i) {
    int p = m->n[i].parent;
    if (p < 0) return;
    mnode *pp = &m->n[p];
    for (int k = 0; k < pp->nkids; k++)
        if (pp->kids[k] == i) {
            memmove(&pp->kids[k], &pp->kids[k + 1], (size_t)(pp->nkids - k - 1) * sizeof(int));
            pp->nkids--;
            break;
        }
    m->n[i].parent = -1;
}

static int is_ancestor(const model *m, int a, int of) {
    for (int p = of; p >= 0; p = m->n[p].parent)
        if (p == a) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ht_tree *t;
    if (ht_tree_create(0, &t) != HT_OK) return 0;
    static model m;
    memset(&m, 0, sizeof m);
    input in = {data, size};
    while (in.left) {
        uint8_t op = byte(&in) % 15;
        ht_node h = pick(&m, &in);
        int i = find(&m, h);
        ht_status st;
        switch (op) {
        case 0: { /* create */
            int slot = -1;
            for (int k = 0; k < MAX_NODES; k++)
                if (!m.n[k].used) {
                    slot = k;
                    break;
                }
            if (slot < 0) break;
            ht_node n;
            CHECK(ht_node_create(t, &n) == HT_OK);
            mnode *v = &m.n[slot];
            memset(v, 0, sizeof *v);
            v->used = 1;
            v->handle = n;
            v->parent = -1;
            v->ax = v->ay = 0.5;
            v->m[0] = v->m[3] = 1;
            v->alpha = 1;
            break;
        }
        case 1: /* free */
            st = ht_node_free(t, h);
            CHECK((st == HT_OK) == (i >= 0));
            if (i >= 0) {
                unlink_model(&m, i);
                for (int k = 0; k < m.n[i].nkids; k++) m.n[m.n[i].kids[k]].parent = -1;
                m.n[i].used = 0;
                if (m.nfreed < 16) m.freed[m.nfreed++] = h;
            }
            break;
        case 2: { /* attach */
            ht_node p = pick(&m, &in);
            int pi = find(&m, p);
            int32_t pos = (int32_t)(int8_t)byte(&in);
            st = ht_node_attach(t, h, p, pos);
            if (i < 0 || pi < 0) {
                CHECK(st != HT_OK);
                break;
            }
            if (pos < 0) {
                CHECK(st == HT_E_INVALID_ARGUMENT);
                break;
            }
            if (is_ancestor(&m, i, pi)) {
                CHECK(st == HT_E_CYCLE);
                break;
            }
            CHECK(st == HT_OK);
            unlink_model(&m, i);
            mnode *pp = &m.n[pi];
            int at = pos > pp->nkids ? pp->nkids : pos;
            memmove(&pp->kids[at + 1], &pp->kids[at], (size_t)(pp->nkids - at) * sizeof(int));
            pp->kids[at] = i;
            pp->nkids++;
            m.n[i].parent = pi;
            break;
        }
        case 3:
            st = ht_node_detach(t, h);
            CHECK((st == HT_OK) == (i >= 0));
            if (i >= 0) unlink_model(&m, i);
            break;
        case 4: { /* center */
            double x = number(&in), y = number(&in);
            st = ht_node_set_center(t, h, x, y);
            if (i >= 0 && isfinite(x) && isfinite(y)) {
                CHECK(st == HT_OK);
                m.n[i].cx = x;
                m.n[i].cy = y;
            } else CHECK(st != HT_OK);
            break;
        }
        case 5: { /* bounds */
            double v[4] = {number(&in), number(&in), number(&in), number(&in)};
            st = ht_node_set_bounds(t, h, v[0], v[1], v[2], v[3]);
            if (i >= 0 && finite_all(v, 4)) {
                CHECK(st == HT_OK);
                m.n[i].bx = v[0];
                m.n[i].by = v[1];
                m.n[i].bw = v[2];
                m.n[i].bh = v[3];
            } else CHECK(st != HT_OK);
            break;
        }
        case 6: { /* anchor */
            double x = number(&in) / 8, y = number(&in) / 8;
            st = ht_node_set_anchor(t, h, x, y);
            if (i >= 0 && isfinite(x) && isfinite(y)) {
                CHECK(st == HT_OK);
                m.n[i].ax = x;
                m.n[i].ay = y;
            } else CHECK(st != HT_OK);
            break;
        }
        case 7: { /* transform */
            ht_affine a = {number(&in) / 16, number(&in) / 16, number(&in) / 16,
                           number(&in) / 16, number(&in), number(&in)};
            double v[6] = {a.a, a.b, a.c, a.d, a.tx, a.ty};
            if (byte(&in) < 128) { /* often a plain scale or identity */
                a.b = a.c = 0;
                v[1] = v[2] = 0;
            }
            st = ht_node_set_transform(t, h, &a);
            if (i >= 0 && finite_all(v, 6)) {
                CHECK(st == HT_OK);
                memcpy(m.n[i].m, v, sizeof v);
            } else CHECK(st != HT_OK);
            break;
        }
        case 8: { /* flags (hooks excluded: the model has none) */
            uint32_t f = byte(&in);
            st = ht_node_set_flags(t, h, f);
            if (i >= 0) {
                CHECK(st == HT_OK);
                m.n[i].flags = f;
            } else CHECK(st != HT_OK);
            break;
        }
        case 9: { /* alpha */
            double a = number(&in);
            st = ht_node_set_alpha(t, h, a);
            if (i >= 0 && isfinite(a)) {
                CHECK(st == HT_OK);
                m.n[i].alpha = a;
            } else CHECK(st != HT_OK);
            break;
        }
        case 10: { /* insets */
            double v[4] = {number(&in), number(&in), number(&in), number(&in)};
            st = ht_node_set_insets(t, h, v[0], v[1], v[2], v[3]);
            if (i >= 0 && finite_all(v, 4)) {
                CHECK(st == HT_OK);
                memcpy(m.n[i].in, v, sizeof v);
            } else CHECK(st != HT_OK);
            break;
        }
        case 11: { /* priority */
            int32_t p = (int8_t)byte(&in) % 3;
            st = ht_node_set_priority(t, h, p);
            CHECK((st == HT_OK) == (i >= 0));
            if (i >= 0) m.n[i].priority = p;
            break;
        }
        case 12: { /* hit tests: single, bulk (with or without an answer grid) and traced, the
                    * trail checked against the model */
            double xy[8];
            for (int k = 0; k < 8; k++) xy[k] = number(&in);
            ht_node out[4], one, traced;
            ht_trace_step steps[2 * MAX_NODES + 2];
            size_t count;
            /* Queries only read: the tree is prepared first (a changed one is refused). */
            CHECK(ht_tree_prepare(t) == HT_OK);
            if (byte(&in) < 64 && i >= 0) CHECK(ht_tree_prepare_points(t, h) == HT_OK);
            st = ht_tree_hit_test_points(t, h, xy, 4, NULL, out);
            CHECK((st == HT_OK) == (i >= 0));
            if (i < 0) break;
            for (int k = 0; k < 4; k++) {
                CHECK(ht_tree_hit_test_trace(t, h, xy[2 * k], xy[2 * k + 1], NULL, steps,
                                             sizeof steps / sizeof *steps, &count, &traced) == HT_OK);
                ht_node want = check_trail(&m, i, xy[2 * k], xy[2 * k + 1], steps, count);
                CHECK(traced == want);
                CHECK(out[k] == want);
                CHECK(ht_tree_hit_test(t, h, xy[2 * k], xy[2 * k + 1], NULL, &one) == HT_OK);
                CHECK(one == want);
            }
            break;
        }
        case 13: { /* convert, validate, save and load */
            ht_node to = pick(&m, &in);
            double ox, oy;
            st = ht_tree_convert_point(t, h, to, number(&in), number(&in), &ox, &oy);
            if (st == HT_OK) CHECK(isfinite(ox) && isfinite(oy));
            CHECK(ht_tree_validate(t) == HT_OK);
            void *buf;
            size_t len;
            CHECK(ht_tree_save(t, &buf, &len) == HT_OK);
            ht_tree *copy;
            CHECK(ht_tree_load(buf, len, &copy) == HT_OK);
            ht_free(buf);
            if (i >= 0) {
                double x = number(&in), y = number(&in);
                ht_node a, b;
                CHECK(ht_tree_prepare(t) == HT_OK && ht_tree_prepare(copy) == HT_OK);
                CHECK(ht_tree_hit_test(t, h, x, y, NULL, &a) == HT_OK);
                CHECK(ht_tree_hit_test(copy, h, x, y, NULL, &b) == HT_OK);
                CHECK(a == b);
            }
            ht_tree_destroy(copy);
            break;
        }
        case 14: { /* a layout pass's frames for children of h (ht_tree_set_layout_frames) */
            ht_node nodes[5], probe;
            double f[20];
            uint32_t resize[5];
            size_t count = byte(&in) % 6, resized = 99;
            /* The status the model predicts, in the function's order: the parent (resolved as
             * any call resolves it), then each entry: its node, its values, a child's center. */
            ht_status want = ht_node_parent(t, h, &probe);
            for (size_t k = 0; k < count; k++) {
                nodes[k] = pick(&m, &in);
                int c = find(&m, nodes[k]);
                int keep = byte(&in) < 192 && c >= 0; /* mostly the size it has: a move */
                for (int j = 0; j < 4; j++) f[4 * k + j] = number(&in);
                if (keep) {
                    f[4 * k + 2] = m.n[c].bw;
                    f[4 * k + 3] = m.n[c].bh;
                }
                if (want != HT_OK) continue;
                ht_status node_st = ht_node_parent(t, nodes[k], &probe);
                CHECK((node_st == HT_OK) == (c >= 0));
                if (node_st != HT_OK) want = node_st;
                else if (!finite_all(&f[4 * k], 4)) want = HT_E_NOT_FINITE;
                else if (m.n[c].parent == i &&
                         !(isfinite(f[4 * k] + m.n[c].ax * f[4 * k + 2]) && isfinite(f[4 * k + 1] + m.n[c].ay * f[4 * k + 3])))
                    want = HT_E_NOT_FINITE;
            }
            st = ht_tree_set_layout_frames(t, h, nodes, f, count, resize, &resized);
            CHECK(st == want);
            if (st != HT_OK) {
                CHECK(resized == 99); /* refused: nothing written */
                break;
            }
            /* The model's writes, in order: a child that keeps its size moves (unless it has
             * that frame already), one that does not is listed back; others are left alone.
             * Every moved child's center is read back. */
            size_t nr = 0;
            for (size_t k = 0; k < count; k++) {
                mnode *v = &m.n[find(&m, nodes[k])];
                const double *q = &f[4 * k];
                if (v->parent != i) continue;
                if (!(v->bw == q[2] && v->bh == q[3])) {
                    CHECK(nr < resized && resize[nr] == k);
                    nr++;
                    continue;
                }
                if (v->cx - v->ax * v->bw == q[0] && v->cy - v->ay * v->bh == q[1]) continue;
                v->cx = q[0] + v->ax * q[2];
                v->cy = q[1] + v->ay * q[3];
            }
            CHECK(nr == resized);
            for (size_t k = 0; k < count; k++) {
                const mnode *v = &m.n[find(&m, nodes[k])];
                ht_node_geometry g;
                CHECK(ht_node_get_geometry(t, nodes[k], &g) == HT_OK);
                CHECK(memcmp(&g.center_x, &v->cx, sizeof v->cx) == 0 && memcmp(&g.center_y, &v->cy, sizeof v->cy) == 0);
            }
            break;
        }
        }
    }
    CHECK(ht_tree_validate(t) == HT_OK);
    ht_tree_destroy(t);
    return 0;
}
