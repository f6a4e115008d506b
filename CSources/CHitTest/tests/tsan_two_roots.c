/*
 * tsan_two_roots.c - the read-only contract under ThreadSanitizer (scripts/tsan.sh).
 *
 * One tree holds two roots, each with a screen of cells. The tree is prepared once, with the
 * answer grid built for root A only. Then two threads bulk-query at once, one from each root,
 * with batches of HT_BULK_GRID_MIN points and more (the size that used to make a query build
 * or refresh the grid, a write): thread A is answered mostly by the grid, thread B by the
 * exact walk. Every answer must equal the single-threaded one computed before, and TSan must
 * see no race (a query that wrote anything shared would be one).
 */
#include <hittest.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);          \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define POINTS 70000
#define ROUNDS 4

static ht_node add(ht_tree *t, ht_node parent, double x, double y, double w, double h) {
    ht_node n;
    CHECK(ht_node_create(t, &n) == HT_OK);
    CHECK(ht_node_set_bounds(t, n, 0, 0, w, h) == HT_OK);
    CHECK(ht_node_set_center(t, n, x + w / 2, y + h / 2) == HT_OK);
    if (parent != HT_NULL_NODE) CHECK(ht_node_attach(t, n, parent, INT32_MAX) == HT_OK);
    return n;
}

/* A screen: rows of cards with a few controls each, some transformed or passing through. */
static ht_node screen(ht_tree *t, unsigned seed) {
    ht_node root = add(t, HT_NULL_NODE, 0, 0, 390, 844);
    for (int r = 0; r < 40; r++) {
        ht_node card = add(t, root, 8, 8 + r * 21, 374, 19);
        if ((r + seed) % 7 == 0) CHECK(ht_node_set_flags(t, card, HT_FLAG_PASS_THROUGH) == HT_OK);
        for (int k = 0; k < 6; k++) {
            ht_node c = add(t, card, 4 + k * 61, 2, 55, 15);
            if ((k + r + seed) % 5 == 0) {
                ht_affine m = {0.96, 0.28, -0.28, 0.96, 0, 0};
                CHECK(ht_node_set_transform(t, c, &m) == HT_OK);
            }
            if ((k * r + seed) % 11 == 0) CHECK(ht_node_set_alpha(t, c, 0) == HT_OK);
        }
    }
    return root;
}

typedef struct job {
    ht_tree *tree;
    ht_node root;
    const double *xy;
    const ht_node *expected;
    int failures;
} job;

static void *run(void *arg) {
    job *j = arg;
    ht_node *out = malloc(POINTS * sizeof *out);
    CHECK(out);
    for (int round = 0; round < ROUNDS; round++) {
        CHECK(ht_tree_hit_test_points(j->tree, j->root, j->xy, POINTS, NULL, out) == HT_OK);
        for (int i = 0; i < POINTS; i++) j->failures += out[i] != j->expected[i];
        ht_node one;
        for (int i = 0; i < POINTS; i += 997) {
            CHECK(ht_tree_hit_test(j->tree, j->root, j->xy[2 * i], j->xy[2 * i + 1], NULL, &one) == HT_OK);
            j->failures += one != j->expected[i];
        }
    }
    free(out);
    return NULL;
}

int main(void) {
    ht_tree *t;
    CHECK(ht_tree_create(0, &t) == HT_OK);
    ht_node a = screen(t, 1), b = screen(t, 4);
    double *xy = malloc(2 * POINTS * sizeof *xy);
    ht_node *want_a = malloc(POINTS * sizeof *want_a), *want_b = malloc(POINTS * sizeof *want_b);
    CHECK(xy && want_a && want_b);
    unsigned long long s = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 2 * POINTS; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        xy[i] = (double)(s >> 11) / 9007199254740992.0 * (i % 2 ? 860 : 400) - 5;
    }
    /* Unprepared: refused, nothing written. */
    ht_node probe;
    CHECK(ht_tree_hit_test(t, a, 10, 10, NULL, &probe) == HT_E_NOT_PREPARED);
    CHECK(ht_tree_prepare(t) == HT_OK);
    /* The expected answers, without any answer grid (the exact walk). */
    CHECK(ht_tree_hit_test_points(t, a, xy, POINTS, NULL, want_a) == HT_OK);
    CHECK(ht_tree_hit_test_points(t, b, xy, POINTS, NULL, want_b) == HT_OK);
    /* The grid is A's (B's queries walk): first as a bulk query prepares it (sub-grids
     * deferred), then with its sub-grids built (ht_tree_prepare_points). */
    job ja = {t, a, xy, want_a, 0}, jb = {t, b, xy, want_b, 0};
    for (int phase = 0; phase < 2; phase++) {
        CHECK((phase ? ht_tree_prepare_points(t, a) : ht_tree_prepare_points_for(t, a, POINTS)) == HT_OK);
        CHECK(ht_tree_validate(t) == HT_OK);
        pthread_t ta, tb;
        CHECK(pthread_create(&ta, NULL, run, &ja) == 0);
        CHECK(pthread_create(&tb, NULL, run, &jb) == 0);
        CHECK(pthread_join(ta, NULL) == 0);
        CHECK(pthread_join(tb, NULL) == 0);
        CHECK(ht_tree_validate(t) == HT_OK);
    }
    printf("two roots, two threads, two grid states, %d x %d points each: %d + %d differences\n",
           ROUNDS, POINTS, ja.failures, jb.failures);
    free(xy);
    free(want_a);
    free(want_b);
    ht_tree_destroy(t);
    return ja.failures || jb.failures;
}
