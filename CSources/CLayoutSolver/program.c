/*
 * program.c - the evaluation program: the values of the basic symbols, definitions in
 * creation order; after an edit of constants alone, the rows the edit reaches evaluated again
 * (run_edit); and the change list that ht_solver_changes reads.
 */
#include "solver.h"

/* Notes that row r's constant changed (and nothing else): its value and those of the
 * definitions that refer to it are recomputed alone. Without memory: everything is. */
void hts_touch_row(ht_solver *s, int32_t r) {
    if (s->vals_dirty || !s->pg_ok) {
        s->vals_dirty = 1;
        return;
    }
    if (s->ntouched == s->touchedcap) {
        int32_t cap = next_cap(s->touchedcap, s->ntouched + 1);
        int32_t *p = xrealloc(s, s->touched, sizeof(int32_t) * (size_t)cap);
        if (!p) {
            s->vals_dirty = 1;
            return;
        }
        s->touched = p;
        s->touchedcap = cap;
    }
    s->touched[s->ntouched++] = r;
}

/* Room in the evaluation program for `rows` entries (rows + 1 offsets) and `refs` references;
 * 0 when memory runs out (what was grown stays, with the old capacity recorded). */
static int program_reserve(ht_solver *s, int32_t rows, int32_t refs) {
    if (rows > s->pgcap) {
        int32_t cap = next_cap(s->pgcap, rows);
        int32_t *a = xrealloc(s, s->pg_row, sizeof(int32_t) * (size_t)cap);
        if (!a) return 0;
        s->pg_row = a;
        int32_t *b = xrealloc(s, s->pg_off, sizeof(int32_t) * (size_t)cap);
        if (!b) return 0;
        s->pg_off = b;
        double *c = xrealloc(s, s->pg_const, sizeof(double) * (size_t)cap);
        if (!c) return 0;
        s->pg_const = c;
        double *d = xrealloc(s, s->pg_val, sizeof(double) * (size_t)cap);
        if (!d) return 0;
        s->pg_val = d;
        int32_t *e = xrealloc(s, s->pg_var, sizeof(int32_t) * (size_t)cap);
        if (!e) return 0;
        s->pg_var = e;
        int32_t *f = xrealloc(s, s->pg_uhead, sizeof(int32_t) * (size_t)cap);
        if (!f) return 0;
        s->pg_uhead = f;
        int32_t *u = xrealloc(s, s->pg_ucount, sizeof(int32_t) * (size_t)cap);
        if (!u) return 0;
        s->pg_ucount = u;
        size_t words = ((size_t)cap + 63) / 64, had = s->pgcap > 0 ? ((size_t)s->pgcap + 63) / 64 : 0;
        uint64_t *g = xrealloc(s, s->pg_pend, sizeof(uint64_t) * words);
        if (!g) return 0;
        memset(g + had, 0, sizeof(uint64_t) * (words - had));
        s->pg_pend = g;
        s->pgcap = cap;
    }
    if (refs > s->pgrefcap) {
        int32_t cap = next_cap(s->pgrefcap, refs);
        int32_t *a = xrealloc(s, s->pg_ref, sizeof(int32_t) * (size_t)cap);
        if (!a) return 0;
        s->pg_ref = a;
        double *b = xrealloc(s, s->pg_coef, sizeof(double) * (size_t)cap);
        if (!b) return 0;
        s->pg_coef = b;
        int32_t *c = xrealloc(s, s->pg_unext, sizeof(int32_t) * (size_t)cap);
        if (!c) return 0;
        s->pg_unext = c;
        int32_t *d = xrealloc(s, s->pg_kown, sizeof(int32_t) * (size_t)cap);
        if (!d) return 0;
        s->pg_kown = d;
        s->pgrefcap = cap;
    }
    return 1;
}

/* Reference k (to the older row pg_ref[k]) is held by row p: p is a user of that row. */
static inline void add_user(ht_solver *s, int32_t k, int32_t p) {
    int32_t q = s->pg_ref[k];
    s->pg_kown[k] = p;
    s->pg_unext[k] = s->pg_uhead[q];
    s->pg_uhead[q] = k;
    s->pg_ucount[q]++;
}

/* The evaluation program: the live rows in creation order, flat, with only the cells that
 * refer to other definitions (the other cells are parametric, value 0), and each row's users.
 * Rebuilt after a change of structure; an edit that changes constants alone patches them and
 * evaluates the rows it reaches (run_edit). */
static int build_program(ht_solver *s) {
    int32_t n = 0, nref = 0;
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r]) {
        n++;
        for (int32_t i = 0; i < s->rlen[r]; i++) nref += s->srow[s->rsym[r][i]] >= 0;
    }
    if (!program_reserve(s, n + 1, nref)) return 0;
    int32_t p = 0, k = 0;
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r], p++) {
        s->row_pg[r] = p;
        s->pg_row[p] = r;
        s->pg_var[p] = s->skind[s->rbasic[r]] == K_EXT ? s->sowner[s->rbasic[r]] : -1;
        s->pg_const[p] = s->rconst[r];
        s->pg_off[p] = k;
        s->pg_uhead[p] = -1;
        s->pg_ucount[p] = 0;
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t q = s->srow[s->rsym[r][i]];
            if (q < 0) continue;
            s->pg_ref[k] = s->row_pg[q]; /* older: numbered already */
            s->pg_coef[k] = s->rcoef[r][i];
            add_user(s, k, p);
            k++;
        }
    }
    s->pg_off[p] = k;
    s->npg = p;
    return 1;
}

/* Variable slot `slot` has value v now: into the change list if it differs from the value
 * last reported. */
static inline void note_var(ht_solver *s, int32_t slot, double v) {
    if (s->vchg[slot] || v == s->vrep[slot]) return;
    s->vchg[slot] = 1;
    if (s->nchg < s->varcap)
        s->chg[s->nchg++] = slot;
    else
        s->chg_all = 1;
}

/* Variable slot `slot` changed value to v: when parked constraints use it or v is beyond the
 * range, it is checked at the next `hts_settle`. */
static inline void note_chk(ht_solver *s, int32_t slot, double v) {
    if (s->vchk[slot] || (s->vpkn[slot] == 0 && fabs(v) <= HT_SOLVER_MAX_VALUE)) return;
    s->vchk[slot] = 1;
    s->chk[s->nchk++] = slot; /* room for every slot, each once */
}

/* Every live variable against the value last reported (after a change of structure). */
void hts_note_all_vars(ht_solver *s) {
    for (int32_t i = 0; i < s->nvar; i++) {
        if (!s->vlive[i]) continue;
        int32_t r = s->srow[s->vsym[i]];
        note_var(s, i, r >= 0 ? s->rval[r] : 0.0);
    }
}

/* Every row of a new program, in order (a row refers only to older rows); the caller then
 * compares every variable with the value last reported (hts_note_all_vars). */
static void run_program(ht_solver *s) {
    const hts_program g = hts_program_of(s);
    for (int32_t p = 0, n = s->npg; p < n; p++) {
        double v = hts_eval_row(&g, p);
        g.val[p] = v;
        g.rval[g.row[p]] = v;
    }
}

/* Row p of the program takes its new value v after an edit: its variable, if its value moved,
 * is noted for ht_solver_changes and the range check. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void set_row(ht_solver *s, const hts_program *g, int32_t p, double v) {
    int32_t var = g->var[p];
    if (var >= 0 && v != g->val[p]) {
        note_var(s, var, v);
        note_chk(s, var, v);
    }
    g->val[p] = v;
    g->rval[g->row[p]] = v;
}

/* Rows `from` to the end of the program evaluated again after an edit (the rows before `from`
 * are final). */
static void run_rest(ht_solver *s, int32_t from) {
    const hts_program g = hts_program_of(s);
    for (int32_t p = from, n = s->npg; p < n; p++) set_row(s, &g, p, hts_eval_row(&g, p));
}

/* The rows an edit crosses before its evaluation may switch to run_rest. */
#define EDIT_SPARSE_MIN 256

/* After an edit: the rows in pg_pend (the touched ones) are evaluated again, in program order,
 * and so is each user of a row whose value changed. A row none of whose inputs changed would
 * compute its own value again (the same arithmetic on the same inputs), so the values are those
 * of evaluating every row, to the bit. Users are newer rows, later in the order, so one pass
 * over the bits from the first touched row does it; each bit is cleared as its row is taken.
 * Where the edit reaches most of the program, following the lists costs more than it saves:
 * when a changed row's users are more than an eighth of the rows after it, or when, past
 * EDIT_SPARSE_MIN rows, the rows taken are more than half of those crossed, the rest is
 * evaluated in order (run_rest; a row before the pass's position is final), and the bits left
 * are cleared. */
static void run_edit(ht_solver *s, int32_t from) {
    const hts_program g = hts_program_of(s);
    const int32_t *uhead = s->pg_uhead, *unext = s->pg_unext, *kown = s->pg_kown;
    uint64_t *pend = s->pg_pend;
    int32_t nw = (s->npg + 63) / 64, w = from / 64;
    int64_t taken = 0;
    for (; w < nw; w++) {
        while (pend[w]) {
            int32_t p = w * 64 + ctz64(pend[w]);
            pend[w] &= pend[w] - 1;
            taken++;
            double v = hts_eval_row(&g, p);
            if (memcmp(&v, &g.val[p], sizeof v) == 0) continue; /* its users are unchanged */
            set_row(s, &g, p, v);
            if (8 * (int64_t)s->pg_ucount[p] > (int64_t)(s->npg - p)) {
                /* Its users are a large share of the rest: the rest in order, without them. */
                memset(pend + w, 0, sizeof(uint64_t) * (size_t)(nw - w));
                run_rest(s, p + 1);
                return;
            }
            for (int32_t k = uhead[p]; k >= 0; k = unext[k]) {
                int32_t u = kown[k];
                pend[u / 64] |= UINT64_C(1) << (u % 64);
            }
        }
        int64_t crossed = (int64_t)(w + 1) * 64 - from;
        if (crossed >= EDIT_SPARSE_MIN && 2 * taken > crossed) break;
    }
    if (w >= nw) return;
    memset(pend + w + 1, 0, sizeof(uint64_t) * (size_t)(nw - w - 1));
    run_rest(s, (w + 1) * 64);
}

/* Values of every basic symbol, definitions in creation order. */
void hts_refresh_values(ht_solver *s) {
    if (!s->vals_dirty && s->ntouched == 0) return;
    if (!s->vals_dirty && s->pg_ok) {
        /* Only the rows from the oldest touched one on can change. */
        int32_t from = s->npg;
        for (int32_t i = 0; i < s->ntouched; i++) {
            int32_t r = s->touched[i];
            int32_t p = s->row_pg[r];
            s->pg_const[p] = s->rconst[r];
            s->pg_pend[p / 64] |= UINT64_C(1) << (p % 64);
            if (p < from) from = p;
        }
        s->ntouched = 0;
        run_edit(s, from);
        return;
    }
    s->ntouched = 0;
    s->chk_all = 1; /* every value may have moved */
    s->pg_ok = build_program(s);
    if (s->pg_ok) {
        run_program(s);
        s->vals_dirty = 0;
        hts_note_all_vars(s); /* a variable may have stopped being basic (value 0) */
        return;
    }
    /* Without memory for the program: row by row. */
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r]) {
        double v = s->rconst[r];
        const int32_t *cs = s->rsym[r];
        const double *cc = s->rcoef[r];
        for (int32_t i = 0, n = s->rlen[r]; i < n; i++) {
            int32_t q = s->srow[cs[i]];
            if (q >= 0) v += cc[i] * s->rval[q];
        }
        s->rval[r] = v;
    }
    s->vals_dirty = 0;
    hts_note_all_vars(s);
}

/* Appends row r, the newest row, to an up-to-date evaluation program and computes its value:
 * the other rows keep theirs (r refers only to older rows, and no row refers to r's basic
 * symbol yet). 0 when memory runs out (the caller then marks every value stale). */
int hts_program_append(ht_solver *s, int32_t r) {
    int32_t p = s->npg, k = s->pg_off[p], nref = 0;
    for (int32_t i = 0; i < s->rlen[r]; i++) nref += s->srow[s->rsym[r][i]] >= 0;
    if (!program_reserve(s, p + 2, k + nref)) return 0;
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t q = s->srow[s->rsym[r][i]];
        if (q < 0) continue;
        s->pg_ref[k] = s->row_pg[q];
        s->pg_coef[k] = s->rcoef[r][i];
        add_user(s, k, p);
        k++;
    }
    s->pg_const[p] = s->rconst[r];
    s->pg_off[p + 1] = k;
    const hts_program g = hts_program_of(s);
    double v = hts_eval_row(&g, p);
    s->pg_uhead[p] = -1;
    s->pg_ucount[p] = 0;
    int32_t b = s->rbasic[r];
    s->row_pg[r] = p;
    s->pg_row[p] = r;
    s->pg_var[p] = s->skind[b] == K_EXT ? s->sowner[b] : -1;
    s->pg_val[p] = v;
    s->npg = p + 1;
    s->rval[r] = v;
    if (s->pg_var[p] >= 0) {
        note_var(s, s->pg_var[p], v);
        note_chk(s, s->pg_var[p], v);
    }
    return 1;
}

double hts_sym_value(ht_solver *s, int32_t sym) {
    hts_refresh_values(s);
    return s->srow[sym] >= 0 ? s->rval[s->srow[sym]] : 0.0;
}
