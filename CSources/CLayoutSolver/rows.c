/*
 * rows.c - symbols, rows and their columns, and lazy definitions: the tableau's storage.
 * A row is sparse (symbol, coefficient) cells plus a constant; each symbol keeps its column (the
 * rows that may hold it, cleaned lazily).
 */
#include "solver.h"

/* ---- symbols ---- */

static ht_status grow_symbols(ht_solver *s, int32_t need) {
    if (need <= s->symcap) return HT_OK;
    int32_t cap = next_cap(s->symcap, need);
    GROW(s, s->skind, cap);
    GROW(s, s->srow, cap);
    GROW(s, s->sowner, cap);
    GROW(s, s->col, cap);
    GROW(s, s->coln, cap);
    GROW(s, s->colcap, cap);
    GROW(s, s->spos, cap);
    GROW(s, s->sfree, cap);
    GROW(s, s->obj.pos, cap);
    GROW(s, s->art.pos, cap);
    for (int32_t i = s->symcap; i < cap; i++) {
        s->skind[i] = K_FREE;
        s->srow[i] = -1;
        s->sowner[i] = -1;
        s->col[i] = NULL;
        s->coln[i] = 0;
        s->colcap[i] = 0;
        s->spos[i] = -1;
        s->obj.pos[i] = -1;
        s->art.pos[i] = -1;
    }
    s->symcap = cap;
    return HT_OK;
}

ht_status hts_sym_new(ht_solver *s, int kind, int32_t owner, int32_t *out) {
    int32_t id;
    if (s->nsfree > 0) {
        id = s->sfree[--s->nsfree];
    } else {
        if (s->nsym == INT32_MAX) return HT_E_CAPACITY;
        ht_status st = grow_symbols(s, s->nsym + 1);
        if (st != HT_OK) return st;
        id = s->nsym++;
    }
    s->skind[id] = (uint8_t)kind;
    s->srow[id] = -1;
    s->sowner[id] = owner;
    s->coln[id] = 0;
    *out = id;
    return HT_OK;
}

void hts_sym_free(ht_solver *s, int32_t id) {
    if (id < 0 || s->skind[id] == K_FREE) return;
    s->skind[id] = K_FREE;
    s->srow[id] = -1;
    s->sowner[id] = -1;
    s->coln[id] = 0;
    s->sfree[s->nsfree++] = id;
}

/* ---- rows and their columns ---- */

static ht_status row_reserve(ht_solver *s, int32_t r, int32_t need) {
    if (need <= s->rcap[r]) return HT_OK;
    int32_t cap = next_cap(s->rcap[r], need);
    GROW(s, s->rsym[r], cap);
    GROW(s, s->rcoef[r], cap);
    s->rcap[r] = cap;
    return HT_OK;
}

ht_status hts_row_new(ht_solver *s, int32_t *out) {
    int32_t r;
    if (s->nrfree > 0) {
        r = s->rfree[s->nrfree - 1];
    } else {
        if (s->nrow == s->rowcap) {
            int32_t cap = next_cap(s->rowcap, s->nrow + 1);
            GROW(s, s->rsym, cap);
            GROW(s, s->rcoef, cap);
            GROW(s, s->rlen, cap);
            GROW(s, s->rcap, cap);
            GROW(s, s->rconst, cap);
            GROW(s, s->rbasic, cap);
            GROW(s, s->rlive, cap);
            GROW(s, s->rmark, cap);
            GROW(s, s->rfree, cap);
            GROW(s, s->rseq, cap);
            GROW(s, s->rprev, cap);
            GROW(s, s->rnext, cap);
            GROW(s, s->rval, cap);
            GROW(s, s->row_pg, cap);
            for (int32_t i = s->rowcap; i < cap; i++) {
                s->rsym[i] = NULL;
                s->rcoef[i] = NULL;
                s->rlen[i] = 0;
                s->rcap[i] = 0;
                s->rlive[i] = 0;
                s->rmark[i] = 0;
            }
            s->rowcap = cap;
        }
        r = s->nrow;
    }
    /* Every row has room for a few cells before it is live, so a new row never fails later
     * for want of its first cells. */
    ht_status st = row_reserve(s, r, 4);
    if (st != HT_OK) return st;
    if (s->nrfree > 0 && s->rfree[s->nrfree - 1] == r)
        s->nrfree--;
    else
        s->nrow++;
    s->rlen[r] = 0;
    s->rconst[r] = 0;
    s->rbasic[r] = NO_SYM;
    s->rlive[r] = 1;
    s->rval[r] = 0.0;
    s->rseq[r] = ++s->seq;
    s->rprev[r] = s->rtail;
    s->rnext[r] = -1;
    if (s->rtail >= 0)
        s->rnext[s->rtail] = r;
    else
        s->rhead = r;
    s->rtail = r;
    s->nlive_rows++;
    s->vals_dirty = 1;
    *out = r;
    return HT_OK;
}

void hts_row_drop(ht_solver *s, int32_t r) {
    if (s->rbasic[r] >= 0 && s->srow[s->rbasic[r]] == r) s->srow[s->rbasic[r]] = -1;
    if (s->rprev[r] >= 0)
        s->rnext[s->rprev[r]] = s->rnext[r];
    else
        s->rhead = s->rnext[r];
    if (s->rnext[r] >= 0)
        s->rprev[s->rnext[r]] = s->rprev[r];
    else
        s->rtail = s->rprev[r];
    s->vals_dirty = 1;
    s->rlive[r] = 0;
    s->rlen[r] = 0;
    s->rbasic[r] = NO_SYM;
    s->rfree[s->nrfree++] = r;
    s->nlive_rows--;
}

static uint32_t next_epoch(ht_solver *s) {
    if (++s->epoch == 0) {
        for (int32_t i = 0; i < s->nrow; i++) s->rmark[i] = 0;
        s->epoch = 1;
    }
    return s->epoch;
}

/* Cleans a symbol's column in place: live rows that hold it, each once. Returns its length. */
int32_t hts_col_clean(ht_solver *s, int32_t sym) {
    uint32_t e = next_epoch(s);
    int32_t *c = s->col[sym], w = 0;
    s->work += s->coln[sym];
    for (int32_t i = 0, n = s->coln[sym]; i < n; i++) {
        int32_t r = c[i];
        if (!s->rlive[r] || s->rmark[r] == e || row_find(s, r, sym) < 0) continue;
        s->rmark[r] = e;
        c[w++] = r;
    }
    s->coln[sym] = w;
    return w;
}

/* Takes `sym` out of every row that names it and out of the objective: the rounding residue a
 * symbol can leave once it has left the tableau in exact arithmetic. Its own row, if it is
 * basic, is the caller's to drop; the symbol stays allocated. */
void hts_sym_purge(ht_solver *s, int32_t sym) {
    int32_t n = hts_col_clean(s, sym);
    for (int32_t i = 0; i < n; i++) {
        int32_t t = s->col[sym][i];
        int32_t at = row_find(s, t, sym);
        if (at >= 0) row_remove_at(s, t, at);
    }
    if (s->obj.pos[sym] >= 0) hts_obj_remove_at(&s->obj, s->obj.pos[sym]);
}

static ht_status col_push(ht_solver *s, int32_t sym, int32_t r) {
    if (s->coln[sym] == s->colcap[sym]) {
        if (s->colcap[sym] >= 16) hts_col_clean(s, sym);
        if (s->coln[sym] * 2 > s->colcap[sym] || s->colcap[sym] < 16) {
            int32_t cap = next_cap(s->colcap[sym], s->coln[sym] + 1);
            if (cap < 4) cap = 4;
            GROW(s, s->col[sym], cap);
            s->colcap[sym] = cap;
        }
    }
    s->col[sym][s->coln[sym]++] = r;
    return HT_OK;
}

/* Adds c * sym to row r. */
ht_status hts_row_add_sym(ht_solver *s, int32_t r, int32_t sym, double c) {
    int32_t i = row_find(s, r, sym);
    if (i >= 0) {
        s->rcoef[r][i] = sum_snap(s->rcoef[r][i], c);
        if (fabs(s->rcoef[r][i]) <= EPS) row_remove_at(s, r, i); /* a residue */
        return HT_OK;
    }
    if (fabs(c) <= EPS) {
        if (c != 0.0) note_shrink(s, r, sym);
        return HT_OK;
    }
    ht_status st = row_reserve(s, r, s->rlen[r] + 1);
    if (st != HT_OK) return st;
    st = col_push(s, sym, r);
    if (st != HT_OK) return st;
    i = s->rlen[r]++;
    s->rsym[r][i] = sym;
    s->rcoef[r][i] = c;
    return HT_OK;
}

/* Row t += a * row src (cells and constant). */
ht_status hts_row_add_row(ht_solver *s, int32_t t, int32_t src, double a) {
    ht_status st = row_reserve(s, t, s->rlen[t] + s->rlen[src]);
    if (st != HT_OK) return st;
    int32_t *ts = s->rsym[t];
    double *tc = s->rcoef[t];
    int32_t n = s->rlen[t];
    for (int32_t i = 0; i < n; i++) s->spos[ts[i]] = i;
    const int32_t *ss = s->rsym[src];
    const double *sc = s->rcoef[src];
    s->work += n + s->rlen[src];
    for (int32_t j = 0, m = s->rlen[src]; j < m; j++) {
        int32_t sym = ss[j];
        int32_t p = s->spos[sym];
        if (p >= 0) {
            tc[p] = sum_snap(tc[p], a * sc[j]);
        } else {
            if (st == HT_OK) st = col_push(s, sym, t);
            p = n++;
            ts[p] = sym;
            tc[p] = a * sc[j];
            s->spos[sym] = p;
        }
    }
    s->rconst[t] = const_snap(s->rconst[t], a * s->rconst[src]);
    note_growth(s, t, s->rconst[t]);
    int32_t w = 0;
    for (int32_t i = 0; i < n; i++) {
        s->spos[ts[i]] = -1;
        if (fabs(tc[i]) > EPS) {
            note_growth(s, t, tc[i]);
            ts[w] = ts[i];
            tc[w] = tc[i];
            w++;
        }
    }
    s->rlen[t] = w;
    return st;
}

/* ---- lazy definitions ----
 * A row whose basic symbol is external may keep other basic external symbols as cells (it is
 * then a definition in terms of older definitions, evaluated in creation order), so that a
 * chain of views defined one after the other costs O(1) per view instead of substituting whole
 * chains of markers into every row. Rows of restricted symbols and the objective never hold a
 * basic symbol: the simplex reads them as they are. `hts_row_expand` turns a row into that
 * reduced form (every basic cell replaced by its definition, newest first, so that each
 * definition is expanded once and cancellations stop the expansion early). */

static ht_status heap_push(ht_solver *s, int32_t sym) {
    if (s->nheap == s->heapcap) {
        int32_t cap = next_cap(s->heapcap, s->nheap + 1);
        GROW(s, s->heap, cap);
        s->heapcap = cap;
    }
    int32_t i = s->nheap++;
    int64_t key = s->rseq[s->srow[sym]];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (s->rseq[s->srow[s->heap[p]]] >= key) break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = sym;
    return HT_OK;
}

static int32_t heap_pop(ht_solver *s) {
    int32_t top = s->heap[0], last = s->heap[--s->nheap], n = s->nheap, i = 0;
    int64_t key = n > 0 ? s->rseq[s->srow[last]] : 0;
    while (n > 0) {
        int32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && s->rseq[s->srow[s->heap[c + 1]]] > s->rseq[s->srow[s->heap[c]]]) c++;
        if (s->rseq[s->srow[s->heap[c]]] <= key) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n > 0) s->heap[i] = last;
    return top;
}

int hts_has_basic_cell(const ht_solver *s, int32_t r) {
    for (int32_t i = 0, n = s->rlen[r]; i < n; i++)
        if (s->srow[s->rsym[r][i]] >= 0) return 1;
    return 0;
}

/* Replaces every basic cell of row r by its definition, recursively. */
ht_status hts_row_expand(ht_solver *s, int32_t r) {
    s->xmag = fabs(s->rconst[r]);
    if (!hts_has_basic_cell(s, r)) return HT_OK;
    ht_status st = HT_OK;
    s->nheap = 0;
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t sym = s->rsym[r][i];
        s->spos[sym] = i;
        if (s->srow[sym] >= 0 && st == HT_OK) st = heap_push(s, sym);
    }
    while (s->nheap > 0 && st == HT_OK) {
        int32_t v = heap_pop(s);
        int32_t i = s->spos[v];
        double c = s->rcoef[r][i];
        s->rcoef[r][i] = 0.0;
        if (fabs(c) <= EPS) continue;
        int32_t q = s->srow[v];
        s->work += s->rlen[q];
        s->xmag += fabs(c * s->rconst[q]);
        s->rconst[r] = const_snap(s->rconst[r], c * s->rconst[q]);
        st = row_reserve(s, r, s->rlen[r] + s->rlen[q]);
        if (st != HT_OK) break;
        for (int32_t j = 0, m = s->rlen[q]; j < m; j++) {
            int32_t u = s->rsym[q][j];
            double a = c * s->rcoef[q][j];
            int32_t p = s->spos[u];
            if (p >= 0) {
                s->rcoef[r][p] = sum_snap(s->rcoef[r][p], a);
            } else {
                /* a basic symbol is replaced in turn: only the others stay in r's columns */
                if (s->srow[u] < 0 && (st = col_push(s, u, r)) != HT_OK) break;
                p = s->rlen[r]++;
                s->rsym[r][p] = u;
                s->rcoef[r][p] = a;
                if (fabs(a) <= EPS && a != 0.0 && fabs(s->rcoef[q][j]) > EPS) note_shrink(s, r, u);
                s->spos[u] = p;
                if (s->srow[u] >= 0 && (st = heap_push(s, u)) != HT_OK) break;
            }
        }
    }
    s->nheap = 0;
    int32_t w = 0;
    for (int32_t i = 0, n = s->rlen[r]; i < n; i++) {
        int32_t sym = s->rsym[r][i];
        s->spos[sym] = -1;
        if (fabs(s->rcoef[r][i]) > EPS && s->srow[sym] < 0) {
            note_growth(s, r, s->rcoef[r][i]);
            s->rsym[r][w] = sym;
            s->rcoef[r][w] = s->rcoef[r][i];
            w++;
        }
    }
    s->rlen[r] = w;
    s->vals_dirty = 1;
    return st;
}

/* Row r (meaning 0 = constant + cells) solved for sym: afterwards sym = constant + cells. */
void hts_row_solve_for(ht_solver *s, int32_t r, int32_t sym) {
    int32_t i = row_find(s, r, sym);
    double k = -1.0 / s->rcoef[r][i];
    row_remove_at(s, r, i);
    double *c = s->rcoef[r];
    for (int32_t j = 0, n = s->rlen[r]; j < n; j++) {
        c[j] *= k;
        note_growth(s, r, c[j]);
    }
    s->rconst[r] *= k;
    note_growth(s, r, s->rconst[r]);
}

void hts_row_negate(ht_solver *s, int32_t r) {
    double *c = s->rcoef[r];
    for (int32_t j = 0, n = s->rlen[r]; j < n; j++) c[j] = -c[j];
    s->rconst[r] = -s->rconst[r];
}

double hts_row_max(const ht_solver *s, int32_t r) {
    double m = 0.0;
    for (int32_t i = 0; i < s->rlen[r]; i++)
        if (fabs(s->rcoef[r][i]) > m) m = fabs(s->rcoef[r][i]);
    return m;
}

ht_status hts_push_infeasible(ht_solver *s, int32_t r) {
    if (s->ninfeas == s->infeascap) {
        int32_t cap = next_cap(s->infeascap, s->ninfeas + 1);
        GROW(s, s->infeas, cap);
        s->infeascap = cap;
    }
    s->infeas[s->ninfeas++] = r;
    return HT_OK;
}
