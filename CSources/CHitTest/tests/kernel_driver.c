/*
 * kernel_driver.c - the bulk path's costs over the C API alone, for measurements that do not
 * depend on the machine's load: run it under `valgrind --tool=callgrind --toggle-collect=measured`
 * (instructions, simulated branch mispredicts and cache misses of the measured part only), or
 * alone for thread CPU times.
 *
 *   kernel_driver FILE.htsnap ROOT MODE [POINTS] [REPS] [WALKED]
 *
 * FILE: a tree saved by ht_tree_save_file, or "deep" for the benchmark's deep scene (a chain of
 * 100,000 views, each 0.001 pt smaller than its parent; ROOT ignored); ROOT: the query root's
 * handle. POINTS uniform points
 * over the root's bounds (default 1,000,000, seed fixed). MODE:
 *   bulk    ht_tree_hit_test_points (answer grid built in full first);
 *   walk    the exact walk without the grid, on the points the grid leaves to it;
 *   walkg   the bulk call on those points alone (what they cost with the grid: its lookup,
 *           then the walk from where the grid says it can start);
 *   single  ht_tree_hit_test on each point;
 *   share   prints what share of points the grid answers, nodes per walked point;
 *   par     the bulk call on one thread and on two (each half the points, contiguous), wall
 *           time, alternated: the speed-up, and each thread's CPU time;
 *   change  a simulator's step (hittest-bench's "1-view change"): one of the nodes the first
 *           2,000 points reach (each in turn) moved by 1 pt, then one bulk call of the POINTS
 *           (prepared for them, as the Swift bulk call is), beside the same call with nothing changed. Under callgrind,
 *           `--toggle-collect=ht_tree_prepare_points_for` counts what the change costs.
 *   lazy    ht_tree_hit_test_caching on a tree never prepared for points (what the Swift single
 *           call does without prepareHitTesting()): its first 4,096 points, 100,000 new ones,
 *           then REPS rounds over the first min(POINTS, 200,000) points (hittest-bench's "no
 *           prepare" figures), each round's ns per query, and after it the share of those
 *           points the grid's cells, its candidate lists and the walk decide.
 * Prints ns per point (thread CPU time, median of REPS, default 5).
 * WALKED: a file of the points the grid's cells leave (to the candidate lists, then the walk;
 * hittest-bench's walked points) and their node count in the walk without the grid: read
 * when it exists, else written. So that two builds (one whose candidate lists answer some of
 * those points without a walk, one without lists) measure walk and walkg on the same points.
 */
#define _POSIX_C_SOURCE 200809L
#include "hittest.h"

#include <pthread.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_next(uint64_t *s) {
    *s += 0x9E3779B97F4A7C15u;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) * 0x1.0p-53; }

typedef struct job {
    ht_tree *t;
    ht_node root;
    const double *xy;
    size_t n;
    ht_node *out;
    int mode;
} job;

enum { M_BULK, M_WALK, M_SINGLE };

/* The measured part (callgrind: --toggle-collect=measured). */
__attribute__((noinline)) int measured(const job *j) {
    uint64_t tests = 0;
    switch (j->mode) {
    case M_BULK: return ht_tree_hit_test_points(j->t, j->root, j->xy, j->n, NULL, j->out);
    case M_WALK: return ht_tree_hit_test_points_counted(j->t, j->root, j->xy, j->n, 0, j->out, &tests);
    default:
        for (size_t i = 0; i < j->n; i++) {
            ht_status st = ht_tree_hit_test(j->t, j->root, j->xy[2 * i], j->xy[2 * i + 1], NULL, &j->out[i]);
            if (st != HT_OK) return st;
        }
        return HT_OK;
    }
}

static int cmp_double(const void *a, const void *b);

/* The deep scene of hittest-bench (SampleScenes.deep): frames as UIKit sets them. Attached
 * from the bottom up, so that each attach checks a parent of depth 0 for cycles. */
static ht_status make_deep(ht_tree **out, ht_node *root, int levels) {
    ht_tree *t = NULL;
    ht_node *nodes = malloc((size_t)(levels + 1) * sizeof *nodes);
    ht_status st = nodes ? ht_tree_create(levels + 1, &t) : HT_E_NO_MEMORY;
    for (int i = 0; i <= levels && st == HT_OK; i++) {
        int k = i - 1; /* views[i] is the chain's level k; level -1 is the window */
        double x = k < 0 ? 0 : (k % 2 == 0 ? 0.5 : -0.5), shrink = k < 0 ? 0 : (double)k * 0.001;
        double w = 390 - shrink, h = 844 - shrink;
        if ((st = ht_node_create(t, &nodes[i])) != HT_OK) break;
        if ((st = ht_node_set_center(t, nodes[i], x + w / 2, h / 2)) != HT_OK) break;
        st = ht_node_set_bounds(t, nodes[i], 0, 0, w, h);
    }
    for (int i = levels; i > 0 && st == HT_OK; i--) st = ht_node_attach(t, nodes[i], nodes[i - 1], 0);
    if (st == HT_OK) *root = nodes[0];
    free(nodes);
    if (st != HT_OK) {
        ht_tree_destroy(t);
        return st;
    }
    *out = t;
    return HT_OK;
}

static double wall(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct half {
    job j;
    double cpu;
    int status;
} half;

static void *run_half(void *p) {
    half *h = p;
    double t0 = now();
    h->status = measured(&h->j);
    h->cpu = now() - t0;
    return NULL;
}

/* One and two threads alternated; prints medians. */
static int par(const job *j, int reps) {
    double one[101], two[101], cpu0[101], cpu1[101], cpu[101];
    for (int k = 0; k < reps; k++) {
        double t0 = wall(), c0 = now();
        if (measured(j) != HT_OK) return 1;
        one[k] = wall() - t0;
        cpu[k] = now() - c0;
        half h[2] = {{*j, 0, 0}, {*j, 0, 0}};
        h[0].j.n = j->n / 2;
        h[1].j.n = j->n - j->n / 2;
        h[1].j.xy = j->xy + 2 * h[0].j.n;
        h[1].j.out = j->out + h[0].j.n;
        pthread_t th[2];
        t0 = wall();
        for (int i = 0; i < 2; i++)
            if (pthread_create(&th[i], NULL, run_half, &h[i]) != 0) return 1;
        for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
        two[k] = wall() - t0;
        if (h[0].status != HT_OK || h[1].status != HT_OK) return 1;
        cpu0[k] = h[0].cpu;
        cpu1[k] = h[1].cpu;
    }
    qsort(one, (size_t)reps, sizeof *one, cmp_double);
    qsort(two, (size_t)reps, sizeof *two, cmp_double);
    qsort(cpu0, (size_t)reps, sizeof *cpu0, cmp_double);
    qsort(cpu1, (size_t)reps, sizeof *cpu1, cmp_double);
    qsort(cpu, (size_t)reps, sizeof *cpu, cmp_double);
    double n = (double)j->n;
    printf("par: one thread %.2f ns/pt wall (%.2f CPU), two %.2f ns/pt wall: %.2fx; each of the two: "
           "%.2f, %.2f ns CPU per own point\n",
           one[reps / 2] / n * 1e9, cpu[reps / 2] / n * 1e9, two[reps / 2] / n * 1e9,
           one[reps / 2] / two[reps / 2], cpu0[reps / 2] / (n / 2) * 1e9, cpu1[reps / 2] / (n / 2) * 1e9);
    return 0;
}

/* Uniform points over the root's bounds (r), from `seed`. */
static void uniform(const ht_node_record *r, double *xy, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        xy[2 * i] = r->bounds_x + rng_unit(&seed) * r->bounds_w;
        xy[2 * i + 1] = r->bounds_y + rng_unit(&seed) * r->bounds_h;
    }
}

/* The lazy mode (above): the single queries' grid as it starts, fills and is replaced. */
static int lazy(ht_tree *t, ht_node root, const ht_node_record *r, size_t n, int reps) {
    enum { WARM = 4096, NEW = 100000, ROUND = 200000 };
    n = n < ROUND ? n : ROUND;
    n = n < WARM ? WARM : n;
    double *xy = malloc(n * 2 * sizeof *xy), *fresh = malloc(NEW * 2 * sizeof *fresh);
    if (!xy || !fresh) return 1;
    uniform(r, xy, n, 7);
    uniform(r, fresh, NEW, 8);
    ht_node h;
    uint64_t sink = 0;
    double t0 = now();
    for (size_t i = 0; i < WARM; i++) sink += ht_tree_hit_test_caching(t, root, xy[2 * i], xy[2 * i + 1], &h) == HT_OK && h >= 0;
    double t1 = now();
    for (size_t i = 0; i < NEW; i++) sink += ht_tree_hit_test_caching(t, root, fresh[2 * i], fresh[2 * i + 1], &h) == HT_OK && h >= 0;
    double t2 = now();
    printf("lazy: first %d queries %.1f ns each, then %d new points %.1f ns\n", WARM, (t1 - t0) / WARM * 1e9, NEW,
           (t2 - t1) / NEW * 1e9);
    for (int k = 0; k < reps; k++) {
        double s = now();
        for (size_t i = 0; i < n; i++) sink += ht_tree_hit_test_caching(t, root, xy[2 * i], xy[2 * i + 1], &h) == HT_OK && h >= 0;
        double dt = now() - s;
        size_t cells = 0, bytes = 0, by[3] = {0, 0, 0};
        if (ht_tree_answer_grid_stats(t, root, &bytes, &cells, NULL) != HT_OK) return 1;
        for (size_t i = 0; i < n; i++) {
            int d;
            if (ht_tree_answer_grid_decision(t, root, xy[2 * i], xy[2 * i + 1], &d) != HT_OK) return 1;
            by[d]++;
        }
        printf("round %d: %.1f ns per query; then %zu cells (%zu KiB), decided by a cell %.1f%%, a list %.1f%%, the walk %.1f%%\n",
               k, dt / (double)n * 1e9, cells, bytes / 1024, 100.0 * (double)by[HT_GRID_CELL] / (double)n,
               100.0 * (double)by[HT_GRID_LIST] / (double)n, 100.0 * (double)by[HT_GRID_WALK] / (double)n);
    }
    free(xy);
    free(fresh);
    return sink == UINT64_MAX; /* keeps the queries */
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s FILE.htsnap ROOT bulk|walk|walkg|single|share|par|change|lazy [POINTS] [REPS] [WALKED]\n", argv[0]);
        return 2;
    }
    size_t n = argc > 4 ? (size_t)strtoull(argv[4], NULL, 10) : 1000000;
    int reps = argc > 5 ? atoi(argv[5]) : 5;
    if (reps < 1 || reps > 101 || n == 0) return 2;
    ht_tree *t = NULL;
    ht_node root = (ht_node)atoi(argv[2]);
    ht_status st = strcmp(argv[1], "deep") == 0 ? make_deep(&t, &root, 100000) : ht_tree_load_file(argv[1], &t);
    if (st != HT_OK) {
        fprintf(stderr, "load: %s\n", ht_status_string(st));
        return 1;
    }
    ht_node_record r;
    if (ht_node_get_record(t, root, &r) != HT_OK || ht_tree_prepare(t) != HT_OK) {
        fprintf(stderr, "bad root or prepare failed\n");
        return 1;
    }
    if (strcmp(argv[3], "lazy") == 0) return lazy(t, root, &r, n, reps);
    if (ht_tree_prepare_points(t, root) != HT_OK) {
        fprintf(stderr, "bad root or prepare failed\n");
        return 1;
    }
    double *xy = malloc(n * 2 * sizeof *xy), *walk_xy = malloc(n * 2 * sizeof *walk_xy);
    ht_node *out = malloc(n * sizeof *out);
    if (!xy || !walk_xy || !out) return 1;
    uniform(&r, xy, n, 7);
    /* The points the grid's cells leave (to the candidate lists, then the walk). */
    size_t nw = 0;
    uint64_t walked_tests = 0;
    const char *wfile = argc > 6 ? argv[6] : NULL;
    FILE *wf = wfile ? fopen(wfile, "rb") : NULL;
    if (wf) {
        uint64_t head[2];
        if (fread(head, sizeof head, 1, wf) != 1 || head[0] > n ||
            fread(walk_xy, 2 * sizeof *walk_xy, (size_t)head[0], wf) != (size_t)head[0]) {
            fprintf(stderr, "%s: not a walked-points file of at most %zu points\n", wfile, n);
            return 1;
        }
        fclose(wf);
        nw = (size_t)head[0];
        walked_tests = head[1];
    }
    for (size_t i = 0; i < n && !wf; i++) {
        int decision;
        if (ht_tree_answer_grid_decision(t, root, xy[2 * i], xy[2 * i + 1], &decision) != HT_OK) return 1;
        if (decision != HT_GRID_CELL) {
            uint64_t tests = 0;
            ht_node h;
            if (ht_tree_hit_test_points_counted(t, root, &xy[2 * i], 1, 0, &h, &tests) != HT_OK) return 1;
            walk_xy[2 * nw] = xy[2 * i];
            walk_xy[2 * nw + 1] = xy[2 * i + 1];
            nw++;
            walked_tests += tests;
        }
    }
    if (wfile && !wf) {
        uint64_t head[2] = {nw, walked_tests};
        FILE *o = fopen(wfile, "wb");
        if (!o || fwrite(head, sizeof head, 1, o) != 1 || fwrite(walk_xy, 2 * sizeof *walk_xy, nw, o) != nw ||
            fclose(o) != 0) {
            fprintf(stderr, "%s: cannot write\n", wfile);
            return 1;
        }
    }
    const char *m = argv[3];
    if (strcmp(m, "share") == 0) {
        size_t bytes = 0, cells = 0;
        if (ht_tree_answer_grid_stats(t, root, &bytes, &cells, NULL) != HT_OK) return 1;
        printf("grid cells answer %.2f%% of %zu points; the rest %zu points, %.2f nodes each in the walk without it; grid %zu cells, %zu KiB\n",
               100.0 * (double)(n - nw) / (double)n, n, nw, nw ? (double)walked_tests / (double)nw : 0.0,
               cells, bytes / 1024);
        return 0;
    }
    if (strcmp(m, "change") == 0) {
        /* A simulator's step (hittest-bench's measureChange): one of the nodes the first 2,000
         * points reach (in turn) moved by 1 pt, then one bulk call of the n points (prepared
         * for them, as the Swift bulk call does), beside the same call with nothing changed;
         * medians of reps each. */
        enum { TARGETS = 64 };
        ht_node targets[TARGETS];
        int ntargets = 0;
        for (size_t i = 0; i < n && i < 2000 && ntargets < TARGETS; i++) {
            ht_node h;
            if (ht_tree_hit_test(t, root, xy[2 * i], xy[2 * i + 1], NULL, &h) != HT_OK) return 1;
            if (h == root || h == HT_NULL_NODE) continue;
            int seen = 0;
            for (int k = 0; k < ntargets; k++) seen |= targets[k] == h;
            if (!seen) targets[ntargets++] = h;
        }
        if (ntargets == 0) return 1;
        double changed[101], same[101];
        for (int k = 0; k < reps; k++) {
            ht_node target = targets[k % ntargets];
            ht_node_record tr;
            if (ht_node_get_record(t, target, &tr) != HT_OK) return 1;
            for (int step = 0; step < 2; step++) {
                double t0 = now();
                if (step == 0 && ht_node_set_center(t, target, tr.center_x + ((k / ntargets) % 2 ? -1 : 1), tr.center_y) != HT_OK) return 1;
                if (ht_tree_prepare_points_for(t, root, n) != HT_OK ||
                    ht_tree_hit_test_points(t, root, xy, n, NULL, out) != HT_OK) return 1;
                (step == 0 ? changed : same)[k] = now() - t0;
            }
        }
        qsort(changed, (size_t)reps, sizeof *changed, cmp_double);
        qsort(same, (size_t)reps, sizeof *same, cmp_double);
        printf("change: %d nodes the first points reach, one moved by 1 pt in turn, then %zu points: %.3f ms; unchanged %.3f ms; change / same %.2f (medians of %d, thread CPU time)\n",
               ntargets, n, changed[reps / 2] * 1e3, same[reps / 2] * 1e3, changed[reps / 2] / same[reps / 2], reps);
        return 0;
    }
    job j = {t, root, xy, n, out, M_BULK};
    if (strcmp(m, "walk") == 0) {
        j.mode = M_WALK;
        j.xy = walk_xy;
        j.n = nw;
    } else if (strcmp(m, "walkg") == 0) {
        j.xy = walk_xy;
        j.n = nw;
    } else if (strcmp(m, "single") == 0) {
        j.mode = M_SINGLE;
    } else if (strcmp(m, "par") == 0) {
        return par(&j, reps);
    } else if (strcmp(m, "bulk") != 0) {
        return 2;
    }
    if (j.n == 0) return 0;
    double times[101];
    for (int k = 0; k < reps; k++) {
        double t0 = now();
        if (measured(&j) != HT_OK) return 1;
        times[k] = now() - t0;
    }
    qsort(times, (size_t)reps, sizeof *times, cmp_double);
    printf("%s: %.2f ns per point (%zu points, median of %d, thread CPU time)\n", m,
           times[reps / 2] / (double)j.n * 1e9, j.n, reps);
    free(xy);
    free(walk_xy);
    free(out);
    ht_tree_destroy(t);
    return 0;
}
