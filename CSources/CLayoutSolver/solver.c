/*
 * solver.c - the linear constraint solver: Cassowary (Badros, Borning, Stuckey 2001) with
 * lexicographic priorities.
 *
 * The tableau. Every live constraint contributes one row; a row is sparse (symbol, coefficient)
 * cells plus a constant and reads `basic = constant + sum(coefficient * symbol)`, where the basic
 * symbol appears in no row and every cell's symbol is parametric (value 0). Symbols are the
 * caller's variables (external, unrestricted) and per-constraint markers: a slack (>= 0) for an
 * inequality, a dummy (always 0) for a required equality, error symbols (>= 0) for an optional
 * constraint. Rows are structure-of-arrays (per row: a symbol array, a coefficient array, length,
 * capacity, constant, basic symbol); each symbol keeps the list of rows that may hold it (its
 * column, cleaned lazily), so that a pivot touches only the rows that hold the entering symbol
 * instead of every row.
 *
 * The objective. Each distinct optional priority in use is a level with its own slot; an
 * objective cell holds a vector of coefficients, one per slot, and comparisons read the slots
 * in descending priority (lexicographic order: one unit of violation at a higher priority
 * outweighs any amount at a lower one). Within a level an error symbol weighs its
 * constraint's scale (its largest |coefficient|: rows are divided by it, see "Numbers").
 *
 * Parking and the range. A required inequality that holds when it is added stays out of the
 * tableau and is checked against the values as they change; so are the implicit bounds
 * |value| <= HT_SOLVER_MAX_VALUE of every variable. One that stops holding enters the tableau
 * (a bound as an internal record), see "Parking".
 *
 * Pivot rules: Bland's (the entering symbol is the lowest-numbered improving one, ties in the
 * ratio test go to the lowest-numbered basic symbol), which cannot cycle; the lexicographic
 * objective is a linear objective over an ordered field, where the simplex theory holds as is.
 *
 * Rounding. Hundreds of pivots accumulate rounding error in the cells, and a residue that
 * should be 0 can end above EPS and look like a real cost or pivot. When a pivot row grows past
 * GROWTH, a chosen cost or pivot lies in the gray zone between EPS and GRAY / PIVOT_SMALL, the
 * primal simplex first recomputes the tableau from the constraint records for the current
 * basis (`reinvert`: Gauss-Jordan elimination with partial pivoting), at most once every
 * REINVERT_EVERY pivots, and then decides again on clean numbers.
 *
 * Failure. An allocation failure in the middle of a tableau operation leaves the tableau
 * unusable; the solver marks it broken, the public call leaves its records (the constraints) as
 * they were before the call, and the next call rebuilds the tableau from the records.
 */
#include "solver.h"

/* Numbers. Every constraint's row is divided by its largest |coefficient| (its error symbols
 * weigh that much in the objective instead, so that violations still count in the caller's
 * units): coefficients are at most 1 where rows start, and the tolerances below hold for rows
 * of that scale. Constants are compared relative to the magnitude of what combined into them
 * (REL_CONST) plus EPS_CONST: the numeric contract of hittest_solver.h. */
#define EPS 1e-14      /* a coefficient or cost this small is zero */
#define EPS_CONST 1e-11 /* a required row's constant this small (plus REL_CONST) is zero */
#define EPS_FEAS 1e-9  /* a restricted row's constant this far below 0 is infeasible */
#define REL_EPS 1e-10 /* a sum this small relative to its terms cancelled */
#define REL_CONST 1e-12 /* a sum of constants this small relative to its terms cancelled */
#define GROWTH_LIMIT 1e100 /* a cell this large relates two variables beyond the range */
#define EPS_RATIO 1e-9 /* a restricted row's constant this small is 0 in the ratio test */
#define RATIO_TIE 1e-9 /* ratios this close (relative) tie in the primal ratio test */
#define PIVOT_SMALL 1e-5 /* a pivot this small beside its row's largest cell is avoided */
#define GRAY 1e-5 /* a cost or pivot between EPS and this (relative) may be a rounding residue */
#define GROWTH 1e3 /* a pivot row whose cells grow past this is suspect of lost accuracy */
#define REINVERT_EVERY 32 /* pivots at least between two reinversions */
#define NO_SYM (-1)

enum { K_FREE = 0, K_EXT = 1, K_SLACK = 2, K_ERROR = 3, K_DUMMY = 4 };

/* A handle: the slot in its low 24 bits, the slot's generation in the 39 bits above (the sign
 * bit stays 0). A slot whose generation would wrap is retired instead of reused, so that no
 * handle is ever issued twice. */
#define HANDLE_SLOT(h) ((int32_t)((h) & 0xFFFFFF))
#define GEN_MAX ((UINT64_C(1) << 39) - 1)
#define HANDLE_GEN(h) ((uint64_t)(h) >> 24)
#define MAKE_HANDLE(slot, gen) ((int64_t)(((uint64_t)(gen) << 24) | (uint64_t)(uint32_t)(slot)))

typedef struct hts_obj {
    int32_t len, cap, stride;
    int32_t *sym;
    double *vec; /* len * stride */
    double *cst; /* stride */
    int32_t *pos; /* per symbol: cell index or -1 */
} hts_obj;

struct ht_solver {
    /* ---- symbols ---- */
    int32_t nsym, symcap;
    uint8_t *skind;
    int32_t *srow;   /* row where basic, or -1 */
    int32_t *sowner; /* constraint slot for markers, variable slot for externals */
    int32_t **col;   /* rows that may hold the symbol (lazily cleaned) */
    int32_t *coln, *colcap;
    int32_t *spos; /* scratch: cell index in the row being combined, -1 */
    int32_t *sfree;
    int32_t nsfree;

    /* ---- rows ---- */
    int32_t nrow, rowcap, nlive_rows;
    int32_t **rsym;
    double **rcoef;
    int32_t *rlen, *rcap;
    double *rconst;
    int32_t *rbasic;
    uint8_t *rlive;
    uint32_t *rmark;
    uint32_t epoch;
    int64_t *rseq;          /* creation order: a row refers only to older rows' basics */
    int32_t *rprev, *rnext; /* live rows in creation order */
    int32_t rhead, rtail;
    int64_t seq;
    double *rval; /* the basic symbol's value (refresh_values) */
    int vals_dirty;     /* every value must be recomputed */
    int32_t *touched;   /* else: rows whose constant alone changed (an edit) */
    int32_t ntouched, touchedcap;
    int pg_ok; /* the evaluation program matches the rows' structure */
    int32_t npg, pgcap, pgrefcap;
    int32_t *pg_row, *pg_off, *pg_ref, *row_pg;
    int32_t *pg_var; /* per program row: the variable slot of its basic symbol, or -1 */
    double *pg_const, *pg_val, *pg_coef;
    int32_t *heap; /* expansion: basic symbols by descending row age */
    int32_t nheap, heapcap;
    int32_t *rfree;
    int32_t nrfree;

    /* ---- objectives ---- */
    hts_obj obj; /* stride = level slots */
    hts_obj art; /* stride 1, during an artificial phase */
    int art_active;
    double *vtmp, *vtmp2; /* stride doubles each */

    /* ---- priority levels ---- */
    int32_t nlvl; /* slots in use or free, <= obj.stride */
    float *lprio;
    int32_t *lref;
    int32_t *ord; /* slots in use, descending priority */
    int32_t nord;

    /* ---- variables ---- */
    int32_t nvar, varcap, nlive_vars;
    int32_t *vsym, *vrefs;
    uint64_t *vgen;
    uint8_t *vlive;
    /* changes since the last ht_solver_changes: per slot the value last reported and a flag
     * (in the list); the list has room for every slot (varcap), overflow (stale entries of
     * freed slots) falls back to comparing every variable (chg_all) */
    double *vrep;
    uint8_t *vchg;
    int32_t *chg;
    int32_t nchg;
    int chg_all;
    int32_t *vfree;
    int32_t nvfree;

    /* ---- constraints ---- */
    int32_t ncon, concap, nlive_cons;
    uint64_t *cgen;
    uint8_t *clive;
    int8_t *crel;
    float *cprio;
    double *cconst, *cmu;
    int32_t *cn, *clevel, *cmarker, *cother;
    int32_t **cvars;
    double **ccoef;
    int32_t *cfree;
    int32_t nfree_cons;

    /* ---- work lists ---- */
    int32_t *infeas;
    int32_t ninfeas, infeascap;
    ht_constraint *conf;
    int32_t nconf, confcap;

    /* ---- reinversion (numerical trouble: the tableau recomputed from the records) ---- */
    uint8_t *tbasic;      /* scratch: the basis to recompute, per symbol */
    int32_t tbasiccap;
    int suspect;          /* a pivot or a cost looked like a rounding residue or grew large */
    long reinvert_at;     /* s->pivots at the last reinversion */
    long reinversions;
    int32_t probe_sym, probe_slot; /* the is_determined probe's term in the objective, if any */
    double probe_dir;

    /* ---- parked constraints: required inequalities that hold at the current values, kept
     * out of the tableau (see "Parking") ---- */
    uint8_t *cpark;   /* per constraint: 1 parked, 2 parked and queued to enter the tableau */
    int32_t **cppos;  /* per parked constraint: per term, its entry in the variable's list */
    int32_t **vpk;    /* per variable: (constraint, term) pairs of the parked constraints */
    int32_t *vpkn, *vpkcap;
    int32_t nparked;
    int32_t *chk;     /* variables whose value changed since the last check (vchk marks them) */
    uint8_t *vchk;
    int32_t nchk;
    int chk_all;      /* every variable changed (a full recomputation of the values) */
    int32_t *unp;     /* constraints queued to leave the parking */
    int32_t nunp, unpcap;

    /* ---- the numeric contract ---- */
    double *cscale;   /* per constraint: its largest |coefficient| (its row is divided by it) */
    uint8_t *cbnd;    /* per constraint: 1 for a range bound (internal, no public handle) */
    int32_t *vbnd;    /* per variable: its bound records (value <= max, value >= -max) or -1 */
    int32_t conf_range; /* the variable slot whose range the last conflict involved, or -1 */
    double growth;    /* the largest |cell| written by the current tab_add, in row growth_row */
    int32_t growth_row, growth_sym; /* growth_sym: a cell too small, or NO_SYM */
    double xmag;      /* the magnitude of the constants combined by the last row_expand */

    /* ---- state ---- */
    int broken;  /* the tableau is unusable: rebuild from the records */
    int pending; /* the tableau is feasible but maybe not optimal */
    long fail_countdown;
    long pivots, rebuilds, work;
};

/* ======================================================================================== */
/* Memory                                                                                   */

static void *xrealloc(ht_solver *s, void *p, size_t n) {
    if (s->fail_countdown > 0 && --s->fail_countdown == 0) return NULL;
    return realloc(p, n ? n : 1);
}

#define GROW(s, ptr, n)                                                                        \
    do {                                                                                       \
        void *q_ = xrealloc((s), (ptr), sizeof(*(ptr)) * (size_t)(n));                         \
        if (!q_) return HT_E_NO_MEMORY;                                                        \
        (ptr) = q_;                                                                            \
    } while (0)

static int32_t next_cap(int32_t cap, int32_t need) {
    int64_t c = cap < 8 ? 8 : cap;
    while (c < need) c *= 2;
    if (c > INT32_MAX) c = INT32_MAX;
    return (int32_t)c;
}

void hts_test_fail_allocation(ht_solver *s, long n) {
    if (s) s->fail_countdown = n > 0 ? n : 0;
}

void hts_test_counters(const ht_solver *s, long *pivots, long *rebuilds) {
    if (!s) return;
    if (pivots) *pivots = s->pivots;
    if (rebuilds) *rebuilds = s->rebuilds;
}

long hts_test_reinversions(const ht_solver *s) { return s ? s->reinversions : 0; }

long hts_test_work(const ht_solver *s) { return s ? s->work : 0; }

void hts_test_age_slots(ht_solver *s) {
    for (int32_t i = 0; i < s->nvfree; i++) s->vgen[s->vfree[i]] = GEN_MAX;
    for (int32_t i = 0; i < s->nfree_cons; i++) s->cgen[s->cfree[i]] = GEN_MAX;
}

ht_status ht_solver_conflict_range(const ht_solver *s, ht_var *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t v = s->conf_range;
    *out = v >= 0 && v < s->nvar && s->vlive[v] ? MAKE_HANDLE(v, s->vgen[v]) : -1;
    return HT_OK;
}

static ht_status reinvert(ht_solver *s);
ht_status hts_test_reinvert(ht_solver *s) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    if (s->broken) return HT_OK;
    return reinvert(s);
}

/* ======================================================================================== */
/* Symbols                                                                                  */

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

static ht_status sym_new(ht_solver *s, int kind, int32_t owner, int32_t *out) {
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

static void sym_free(ht_solver *s, int32_t id) {
    if (id < 0 || s->skind[id] == K_FREE) return;
    s->skind[id] = K_FREE;
    s->srow[id] = -1;
    s->sowner[id] = -1;
    s->coln[id] = 0;
    s->sfree[s->nsfree++] = id;
}

static int restricted(const ht_solver *s, int32_t sym) {
    return s->skind[sym] == K_SLACK || s->skind[sym] == K_ERROR;
}

/* x + y, exactly 0 when the two cancel up to rounding (relative to their size): a residue of
 * a cancellation is not a coefficient, and a later pivot could enlarge it. */
static inline double sum_snap(double x, double y) {
    double z = x + y;
    return fabs(z) <= REL_EPS * (fabs(x) + fabs(y)) ? 0.0 : z;
}

/* The same for constants (values): x + y is 0 when it is within REL_CONST of their size. */
static inline double const_snap(double x, double y) {
    double z = x + y;
    return fabs(z) <= REL_CONST * (fabs(x) + fabs(y)) ? 0.0 : z;
}

/* Whether a constant that combined numbers of magnitude mag is 0 (the contract's tolerance). */
static inline int const_zero(double c, double mag) { return fabs(c) <= EPS_CONST + REL_CONST * mag; }

/* Notes the size of a cell just written in row r (an addition whose cells grow beyond
 * GROWTH_LIMIT is refused). */
static inline void note_growth(ht_solver *s, int32_t r, double c) {
    if (fabs(c) <= s->growth) return;
    s->growth = isnan(c) ? INFINITY : fabs(c);
    s->growth_row = r;
    s->growth_sym = NO_SYM;
}

/* A cell of sym in row r came out below EPS where it is not a residue of cancellation (sums
 * are, and are dropped): an input, or in the expansion of a new row, the product of two cells
 * (a chain of small multipliers). Dropping it would make a silent error: the addition is
 * refused as for growth (sym's variable is out of range). Products during pivots are not
 * watched: there, tiny factors are residues too. */
static inline void note_shrink(ht_solver *s, int32_t r, int32_t sym) {
    s->growth = INFINITY;
    s->growth_row = r;
    s->growth_sym = sym;
}

/* ======================================================================================== */
/* Rows                                                                                     */

static int32_t row_find(const ht_solver *s, int32_t r, int32_t sym) {
    const int32_t *a = s->rsym[r];
    for (int32_t i = 0, n = s->rlen[r]; i < n; i++)
        if (a[i] == sym) return i;
    return -1;
}

static double row_coef(const ht_solver *s, int32_t r, int32_t sym) {
    int32_t i = row_find(s, r, sym);
    return i < 0 ? 0.0 : s->rcoef[r][i];
}

static ht_status row_reserve(ht_solver *s, int32_t r, int32_t need) {
    if (need <= s->rcap[r]) return HT_OK;
    int32_t cap = next_cap(s->rcap[r], need);
    GROW(s, s->rsym[r], cap);
    GROW(s, s->rcoef[r], cap);
    s->rcap[r] = cap;
    return HT_OK;
}

static ht_status row_new(ht_solver *s, int32_t *out) {
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

static void row_drop(ht_solver *s, int32_t r) {
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
static int32_t col_clean(ht_solver *s, int32_t sym) {
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

static ht_status col_push(ht_solver *s, int32_t sym, int32_t r) {
    if (s->coln[sym] == s->colcap[sym]) {
        if (s->colcap[sym] >= 16) col_clean(s, sym);
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

static void row_remove_at(ht_solver *s, int32_t r, int32_t i) {
    int32_t last = --s->rlen[r];
    s->rsym[r][i] = s->rsym[r][last];
    s->rcoef[r][i] = s->rcoef[r][last];
}

/* Adds c * sym to row r. */
static ht_status row_add_sym(ht_solver *s, int32_t r, int32_t sym, double c) {
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
static ht_status row_add_row(ht_solver *s, int32_t t, int32_t src, double a) {
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
 * basic symbol: the simplex reads them as they are. `row_expand` turns a row into that reduced
 * form (every basic cell replaced by its definition, newest first, so that each definition is
 * expanded once and cancellations stop the expansion early). */

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

static int has_basic_cell(const ht_solver *s, int32_t r) {
    for (int32_t i = 0, n = s->rlen[r]; i < n; i++)
        if (s->srow[s->rsym[r][i]] >= 0) return 1;
    return 0;
}

/* Replaces every basic cell of row r by its definition, recursively. */
static ht_status row_expand(ht_solver *s, int32_t r) {
    s->xmag = fabs(s->rconst[r]);
    if (!has_basic_cell(s, r)) return HT_OK;
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

/* Notes that row r's constant changed (and nothing else): its value and those of the
 * definitions that refer to it are recomputed alone. Without memory: everything is. */
static void touch_row(ht_solver *s, int32_t r) {
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
        s->pgrefcap = cap;
    }
    return 1;
}

/* The evaluation program: the live rows in creation order, flat, with only the cells that
 * refer to other definitions (the other cells are parametric, value 0). Rebuilt after a change
 * of structure; an edit that changes constants alone patches them and streams through it. */
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
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t q = s->srow[s->rsym[r][i]];
            if (q < 0) continue;
            s->pg_ref[k] = s->row_pg[q]; /* older: numbered already */
            s->pg_coef[k] = s->rcoef[r][i];
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
 * range, it is checked at the next `settle`. */
static inline void note_chk(ht_solver *s, int32_t slot, double v) {
    if (s->vchk[slot] || (s->vpkn[slot] == 0 && fabs(v) <= HT_SOLVER_MAX_VALUE)) return;
    s->vchk[slot] = 1;
    s->chk[s->nchk++] = slot; /* room for every slot, each once */
}

/* Every live variable against the value last reported (after a change of structure). */
static void note_all_vars(ht_solver *s) {
    for (int32_t i = 0; i < s->nvar; i++) {
        if (!s->vlive[i]) continue;
        int32_t r = s->srow[s->vsym[i]];
        note_var(s, i, r >= 0 ? s->rval[r] : 0.0);
    }
}

/* From program row `from` on (the rows before it keep their values: a row refers only to
 * older rows). With track (the program ran before: its values are the previous ones), a
 * variable whose value moved goes into the change list; a new program compares every
 * variable after. */
static void run_program(ht_solver *s, int32_t from, int track) {
    const int32_t *off = s->pg_off, *ref = s->pg_ref, *row = s->pg_row, *var = s->pg_var;
    const double *cst = s->pg_const, *coef = s->pg_coef;
    double *val = s->pg_val, *rval = s->rval;
    for (int32_t p = from, n = s->npg; p < n; p++) {
        double v = cst[p];
        for (int32_t k = off[p], e = off[p + 1]; k < e; k++) v += coef[k] * val[ref[k]];
        if (track && v != val[p] && var[p] >= 0) {
            note_var(s, var[p], v);
            note_chk(s, var[p], v);
        }
        val[p] = v;
        rval[row[p]] = v;
    }
}

/* Values of every basic symbol, definitions in creation order. */
static void refresh_values(ht_solver *s) {
    if (!s->vals_dirty && s->ntouched == 0) return;
    if (!s->vals_dirty && s->pg_ok) {
        /* Only the rows from the oldest touched one on can change. */
        int32_t from = s->npg;
        for (int32_t i = 0; i < s->ntouched; i++) {
            int32_t r = s->touched[i];
            int32_t p = s->row_pg[r];
            s->pg_const[p] = s->rconst[r];
            if (p < from) from = p;
        }
        s->ntouched = 0;
        run_program(s, from, 1);
        return;
    }
    s->ntouched = 0;
    s->chk_all = 1; /* every value may have moved */
    s->pg_ok = build_program(s);
    if (s->pg_ok) {
        run_program(s, 0, 0);
        s->vals_dirty = 0;
        note_all_vars(s); /* a variable may have stopped being basic (value 0) */
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
    note_all_vars(s);
}

/* Appends row r, the newest row, to an up-to-date evaluation program and computes its value:
 * the other rows keep theirs (r refers only to older rows, and no row refers to r's basic
 * symbol yet). 0 when memory runs out (the caller then marks every value stale). */
static int program_append(ht_solver *s, int32_t r) {
    int32_t p = s->npg, k = s->pg_off[p], nref = 0;
    for (int32_t i = 0; i < s->rlen[r]; i++) nref += s->srow[s->rsym[r][i]] >= 0;
    if (!program_reserve(s, p + 2, k + nref)) return 0;
    double v = s->rconst[r];
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t q = s->srow[s->rsym[r][i]];
        if (q < 0) continue;
        s->pg_ref[k] = s->row_pg[q];
        s->pg_coef[k] = s->rcoef[r][i];
        v += s->rcoef[r][i] * s->pg_val[s->row_pg[q]];
        k++;
    }
    int32_t b = s->rbasic[r];
    s->row_pg[r] = p;
    s->pg_row[p] = r;
    s->pg_var[p] = s->skind[b] == K_EXT ? s->sowner[b] : -1;
    s->pg_const[p] = s->rconst[r];
    s->pg_val[p] = v;
    s->pg_off[p + 1] = k;
    s->npg = p + 1;
    s->rval[r] = v;
    if (s->pg_var[p] >= 0) {
        note_var(s, s->pg_var[p], v);
        note_chk(s, s->pg_var[p], v);
    }
    return 1;
}

/* Row r (meaning 0 = constant + cells) solved for sym: afterwards sym = constant + cells. */
static void row_solve_for(ht_solver *s, int32_t r, int32_t sym) {
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

static void row_negate(ht_solver *s, int32_t r) {
    double *c = s->rcoef[r];
    for (int32_t j = 0, n = s->rlen[r]; j < n; j++) c[j] = -c[j];
    s->rconst[r] = -s->rconst[r];
}

static ht_status push_infeasible(ht_solver *s, int32_t r) {
    if (s->ninfeas == s->infeascap) {
        int32_t cap = next_cap(s->infeascap, s->ninfeas + 1);
        GROW(s, s->infeas, cap);
        s->infeascap = cap;
    }
    s->infeas[s->ninfeas++] = r;
    return HT_OK;
}

/* ======================================================================================== */
/* Objectives                                                                               */

static ht_status obj_cell(ht_solver *s, hts_obj *o, int32_t sym, int32_t *out) {
    int32_t i = o->pos[sym];
    if (i < 0) {
        if (o->len == o->cap) {
            int32_t cap = next_cap(o->cap, o->len + 1);
            GROW(s, o->sym, cap);
            GROW(s, o->vec, (size_t)cap * (size_t)o->stride);
            o->cap = cap;
        }
        i = o->len++;
        o->sym[i] = sym;
        for (int32_t j = 0; j < o->stride; j++) o->vec[(size_t)i * o->stride + j] = 0.0;
        o->pos[sym] = i;
    }
    *out = i;
    return HT_OK;
}

static void obj_remove_at(hts_obj *o, int32_t i) {
    int32_t last = --o->len;
    o->pos[o->sym[i]] = -1;
    if (i != last) {
        o->sym[i] = o->sym[last];
        memcpy(o->vec + (size_t)i * o->stride, o->vec + (size_t)last * o->stride,
               sizeof(double) * (size_t)o->stride);
        o->pos[o->sym[i]] = i;
    }
}

/* Snaps components this small to exactly 0 (so that a lexicographic sign never depends on a
 * rounding residue that a later division could enlarge); whether all of them are 0. */
static int vec_snap(double *v, int32_t n) {
    int zero = 1;
    for (int32_t j = 0; j < n; j++) {
        if (fabs(v[j]) > EPS)
            zero = 0;
        else
            v[j] = 0.0;
    }
    return zero;
}

static void obj_prune(hts_obj *o, int32_t i) {
    if (vec_snap(o->vec + (size_t)i * o->stride, o->stride)) obj_remove_at(o, i);
}

/* Objective += v * row r. */
static ht_status obj_add_row(ht_solver *s, hts_obj *o, int32_t r, const double *v) {
    int32_t stride = o->stride;
    for (int32_t j = 0; j < stride; j++) o->cst[j] = const_snap(o->cst[j], v[j] * s->rconst[r]);
    for (int32_t k = 0, n = s->rlen[r]; k < n; k++) {
        int32_t i;
        ht_status st = obj_cell(s, o, s->rsym[r][k], &i);
        if (st != HT_OK) return st;
        double c = s->rcoef[r][k];
        double *d = o->vec + (size_t)i * stride;
        for (int32_t j = 0; j < stride; j++) d[j] = sum_snap(d[j], c * v[j]);
        obj_prune(o, i);
    }
    return HT_OK;
}

/* Objective += v * sym (its row if it is basic). */
static ht_status obj_add_term(ht_solver *s, hts_obj *o, int32_t sym, const double *v) {
    if (s->srow[sym] >= 0) return obj_add_row(s, o, s->srow[sym], v);
    int32_t i;
    ht_status st = obj_cell(s, o, sym, &i);
    if (st != HT_OK) return st;
    double *d = o->vec + (size_t)i * o->stride;
    for (int32_t j = 0; j < o->stride; j++) d[j] = sum_snap(d[j], v[j]);
    obj_prune(o, i);
    return HT_OK;
}

/* Objective += c * sym at level slot `slot` alone. */
static ht_status obj_add_level(ht_solver *s, int32_t sym, int32_t slot, double c) {
    for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
    s->vtmp[slot] = c;
    return obj_add_term(s, &s->obj, sym, s->vtmp);
}

static void obj_clear_slot(hts_obj *o, int32_t slot) {
    o->cst[slot] = 0.0;
    for (int32_t i = o->len - 1; i >= 0; i--) {
        o->vec[(size_t)i * o->stride + slot] = 0.0;
        obj_prune(o, i);
    }
}

static void obj_clear(hts_obj *o) {
    for (int32_t i = 0; i < o->len; i++) o->pos[o->sym[i]] = -1;
    o->len = 0;
    for (int32_t j = 0; j < o->stride; j++) o->cst[j] = 0.0;
}

/* The sign of v in lexicographic order over `ord`. */
static int lex_sign(const double *v, const int32_t *ord, int32_t nord) {
    for (int32_t k = 0; k < nord; k++) {
        double x = v[ord[k]];
        if (x > EPS) return 1;
        if (x < -EPS) return -1;
    }
    return 0;
}

/* Compares v / a with w / b (a, b > 0) lexicographically; NULL is the zero vector. */
static int lex_cmp_ratio(const double *v, double a, const double *w, double b, const int32_t *ord,
                         int32_t nord) {
    for (int32_t k = 0; k < nord; k++) {
        double x = v ? v[ord[k]] / a : 0.0, y = w ? w[ord[k]] / b : 0.0;
        if (x < y - EPS) return -1;
        if (x > y + EPS) return 1;
    }
    return 0;
}

/* ---- levels ---- */

static void levels_sort(ht_solver *s) {
    s->nord = 0;
    for (int32_t i = 0; i < s->nlvl; i++) {
        if (s->lref[i] <= 0) continue;
        int32_t k = s->nord++;
        while (k > 0 && s->lprio[s->ord[k - 1]] < s->lprio[i]) {
            s->ord[k] = s->ord[k - 1];
            k--;
        }
        s->ord[k] = i;
    }
}

static ht_status grow_stride(ht_solver *s, int32_t need) {
    hts_obj *o = &s->obj;
    if (need <= o->stride) return HT_OK;
    int32_t ns = o->stride < 4 ? 4 : o->stride;
    while (ns < need) ns *= 2;
    GROW(s, s->lprio, ns);
    GROW(s, s->lref, ns);
    GROW(s, s->ord, ns);
    GROW(s, s->vtmp, ns);
    GROW(s, s->vtmp2, ns);
    GROW(s, o->cst, ns);
    double *nv = xrealloc(s, NULL, sizeof(double) * (size_t)(o->cap > 0 ? o->cap : 1) * (size_t)ns);
    if (!nv) return HT_E_NO_MEMORY;
    for (int32_t i = 0; i < o->len; i++) {
        for (int32_t j = 0; j < ns; j++)
            nv[(size_t)i * ns + j] = j < o->stride ? o->vec[(size_t)i * o->stride + j] : 0.0;
    }
    for (int32_t j = o->stride; j < ns; j++) {
        o->cst[j] = 0.0;
        s->lref[j] = 0;
        s->lprio[j] = 0.0f;
    }
    free(o->vec);
    o->vec = nv;
    o->stride = ns;
    return HT_OK;
}

/* The level slot for priority p (a new one if none has it), its count incremented. */
static ht_status level_acquire(ht_solver *s, float p, int32_t *out) {
    int32_t free_slot = -1;
    for (int32_t i = 0; i < s->nlvl; i++) {
        if (s->lref[i] > 0 && s->lprio[i] == p) {
            s->lref[i]++;
            *out = i;
            return HT_OK;
        }
        if (s->lref[i] <= 0 && free_slot < 0) free_slot = i;
    }
    if (free_slot < 0) {
        ht_status st = grow_stride(s, s->nlvl + 1);
        if (st != HT_OK) return st;
        free_slot = s->nlvl++;
    }
    s->lprio[free_slot] = p;
    s->lref[free_slot] = 1;
    levels_sort(s);
    *out = free_slot;
    return HT_OK;
}

static void level_release(ht_solver *s, int32_t slot) {
    if (--s->lref[slot] > 0) return;
    s->lref[slot] = 0;
    obj_clear_slot(&s->obj, slot);
    levels_sort(s);
}

/* ======================================================================================== */
/* Pivoting                                                                                 */

/* Replaces sym (now basic in row r) by its row everywhere else: rows and objectives. */
static ht_status substitute(ht_solver *s, int32_t sym, int32_t r) {
    ht_status st = HT_OK;
    int32_t n = col_clean(s, sym);
    const int32_t *c = s->col[sym];
    for (int32_t k = 0; k < n; k++) {
        int32_t t = c[k];
        if (t == r) continue;
        int32_t i = row_find(s, t, sym);
        if (i < 0) continue;
        double a = s->rcoef[t][i];
        row_remove_at(s, t, i);
        st = row_add_row(s, t, r, a);
        if (st != HT_OK) return st;
        touch_row(s, t);
        int32_t b = s->rbasic[t];
        if (b >= 0 && restricted(s, b) && s->rconst[t] < -EPS_FEAS) {
            st = push_infeasible(s, t);
            if (st != HT_OK) return st;
        }
    }
    s->coln[sym] = 0;
    hts_obj *objs[2] = {&s->obj, s->art_active ? &s->art : NULL};
    for (int q = 0; q < 2; q++) {
        hts_obj *o = objs[q];
        if (!o) continue;
        int32_t i = o->pos[sym];
        if (i < 0) continue;
        double *v = s->vtmp2;
        memcpy(v, o->vec + (size_t)i * o->stride, sizeof(double) * (size_t)o->stride);
        obj_remove_at(o, i);
        st = obj_add_row(s, o, r, v);
        if (st != HT_OK) return st;
    }
    return HT_OK;
}

static double row_max(const ht_solver *s, int32_t r) {
    double m = 0.0;
    for (int32_t i = 0; i < s->rlen[r]; i++)
        if (fabs(s->rcoef[r][i]) > m) m = fabs(s->rcoef[r][i]);
    return m;
}

/* Row t (basic b) pivots: `entering` becomes its basic symbol, b parametric. */
static ht_status pivot(ht_solver *s, int32_t t, int32_t entering) {
    int32_t b = s->rbasic[t];
    ht_status st = row_add_sym(s, t, b, -1.0);
    if (st != HT_OK) return st;
    row_solve_for(s, t, entering);
    if (row_max(s, t) > GROWTH) s->suspect = 1;
    s->srow[b] = -1;
    s->rbasic[t] = entering;
    s->srow[entering] = t;
    s->pivots++;
    /* A restricted symbol entering changes constants only (its row is reduced: no definition
     * gains or loses a reference); an external one changes which rows are definitions. */
    if (s->skind[entering] == K_EXT || s->skind[b] == K_EXT)
        s->vals_dirty = 1;
    else
        touch_row(s, t);
    return substitute(s, entering, t);
}

/* A restricted row's constant as the ratio test reads it: negative or a residue of
 * cancellation (at most EPS_RATIO) is 0, so that a residue over a small pivot does not make
 * a degenerate row look like a real step. */
static inline double ratio_const(double c) { return c <= EPS_RATIO ? 0.0 : c; }

/* The primal ratio test for `entering` moving in direction dir: the minimum ratio, ties to
 * the lowest-numbered basic symbol (Bland's). Only when that pivot is small beside its row's
 * largest cell (PIVOT_SMALL: a coefficient that rounding left just above EPS; pivoting on it
 * would blow the numbers up) does it give way to the largest pivot among the rows whose ratio
 * is within RATIO_TIE of the minimum once residues of cancellation in their constants count
 * as 0. Returns the leaving row (-1: unbounded); *small when no acceptable pivot was found.
 * With snap (a long run of pivots: rounding may have broken the ties Bland's rule relies on,
 * and degenerate pivots cycle), the minimum ratio itself reads residues as 0 and ties are
 * relative. */
static int32_t ratio_test(ht_solver *s, int32_t entering, int dir, int snap, int *small) {
    int32_t n = col_clean(s, entering);
    const int32_t *c = s->col[entering];
    int32_t leave = -1;
    double best = 0.0;
    *small = 0;
    for (int32_t k = 0; k < n; k++) {
        int32_t t = c[k];
        int32_t b = s->rbasic[t];
        if (b < 0 || !restricted(s, b)) continue;
        double a = row_coef(s, t, entering) * dir;
        if (a >= -EPS) continue;
        double ratio, tie;
        if (snap) {
            ratio = ratio_const(s->rconst[t]) / -a;
            tie = RATIO_TIE * (1.0 + best);
        } else {
            ratio = s->rconst[t] < 0 ? 0.0 : s->rconst[t] / -a;
            tie = 1e-12;
        }
        if (leave < 0 || ratio < best - tie || (ratio <= best + tie && b < s->rbasic[leave])) {
            leave = t;
            best = ratio;
        }
    }
    if (leave < 0) return -1;
    double a0 = -row_coef(s, leave, entering) * dir;
    if (a0 >= PIVOT_SMALL * row_max(s, leave)) return leave;
    s->suspect = 1;
    /* a small pivot: the largest among the near-ties instead, if that one is not small */
    double lim = ratio_const(s->rconst[leave]) / a0;
    lim += RATIO_TIE * (1.0 + lim);
    int32_t big = leave;
    double amax = a0;
    for (int32_t k = 0; k < n; k++) {
        int32_t t = c[k];
        int32_t b = s->rbasic[t];
        if (b < 0 || !restricted(s, b)) continue;
        double a = row_coef(s, t, entering) * dir;
        if (a >= -EPS || ratio_const(s->rconst[t]) / -a > lim) continue;
        if (-a > amax) {
            amax = -a;
            big = t;
        }
    }
    *small = amax < PIVOT_SMALL * row_max(s, big);
    return big;
}

/* Whether a reinversion may run now: not during an artificial phase, and not again before
 * REINVERT_EVERY pivots (a suspicion that survives a reinversion is not a residue). */
static int may_reinvert(const ht_solver *s) {
    return !s->art_active && s->pivots - s->reinvert_at >= REINVERT_EVERY;
}

/* Whether the deciding component of a cost vector lies between EPS and GRAY: too small to
 * trust after many pivots (a residue of cancellation would look like this). */
static int cost_gray(const double *v, const int32_t *ord, int32_t nord) {
    for (int32_t k = 0; k < nord; k++) {
        double x = fabs(v[ord[k]]);
        if (x > EPS) return x < GRAY;
    }
    return 0;
}

/* Primal simplex on objective o (levels ord): minimizes it. *unbounded when a direction
 * lowers it without end (then nothing was changed in that last step). The entering symbol is
 * Bland's (the lowest-numbered with a lexicographically negative reduced cost), except that
 * one whose pivot would be small (ratio_test) gives way to the next, if any. */
static ht_status optimize(ht_solver *s, hts_obj *o, const int32_t *ord, int32_t nord,
                          int *unbounded) {
    long guard = 0, limit = 1000 + 50L * ((long)s->nlive_rows + (long)s->nsym);
    if (unbounded) *unbounded = 0;
    for (;;) {
        if (++guard > limit) {
            return HT_E_CORRUPT;
        }
        if (s->suspect && o == &s->obj && may_reinvert(s)) {
            ht_status rs = reinvert(s);
            if (rs != HT_OK) return rs;
        }
        s->suspect = 0;
        int32_t entering = -1, leave = -1, after = -1, first = -1, first_leave = -1;
        int dir = 0;
        for (;;) {
            entering = -1;
            for (int32_t i = 0; i < o->len; i++) {
                int32_t sym = o->sym[i];
                int kind = s->skind[sym];
                if (kind == K_DUMMY || sym <= after) continue;
                if (entering >= 0 && sym > entering) continue;
                int sg = lex_sign(o->vec + (size_t)i * o->stride, ord, nord);
                if (kind == K_EXT) {
                    if (sg == 0) continue;
                    entering = sym;
                    dir = -sg;
                } else if (sg < 0) {
                    entering = sym;
                    dir = 1;
                }
            }
            if (entering < 0) break;
            if (o == &s->obj && cost_gray(o->vec + (size_t)o->pos[entering] * o->stride, ord, nord))
                s->suspect = 1;
            int small = 0;
            leave = ratio_test(s, entering, dir, guard > limit / 2, &small);
            if (s->suspect && o == &s->obj && may_reinvert(s)) break; /* recompute, then choose */
            if (leave >= 0 ? !small : first < 0) break; /* unbounded: only as Bland's */
            if (first < 0) {
                first = entering;
                first_leave = leave;
            }
            after = entering;
        }
        if (s->suspect && o == &s->obj && may_reinvert(s)) continue;
        if (entering < 0) {
            if (first < 0) return HT_OK;
            entering = first; /* only small pivots: the first after all */
            leave = first_leave;
            dir = s->skind[entering] == K_EXT
                      ? -lex_sign(o->vec + (size_t)o->pos[entering] * o->stride, ord, nord)
                      : 1;
        }
        if (leave < 0) {
            if (unbounded) *unbounded = 1;
            return HT_OK;
        }
        ht_status st = pivot(s, leave, entering);
        if (st != HT_OK) return st;
    }
}

/* Dual simplex on the real objective: restores feasibility (the rows in s->infeas whose
 * restricted basic went negative) keeping optimality. HT_E_UNSATISFIABLE with *failrow set
 * when a row cannot be made feasible. */
static ht_status dual_optimize(ht_solver *s, int32_t *failrow) {
    long guard = 0, limit = 1000 + 50L * ((long)s->nlive_rows + (long)s->nsym);
    hts_obj *o = &s->obj;
    for (;;) {
        if (++guard > limit) return HT_E_CORRUPT;
        int32_t leave = -1, w = 0;
        for (int32_t k = 0; k < s->ninfeas; k++) {
            int32_t t = s->infeas[k];
            if (!s->rlive[t]) continue;
            int32_t b = s->rbasic[t];
            if (b < 0 || !restricted(s, b) || s->rconst[t] >= -EPS_FEAS) continue;
            s->infeas[w++] = t;
            if (leave < 0 || b < s->rbasic[leave]) leave = t;
        }
        s->ninfeas = w;
        if (leave < 0) return HT_OK;
        int32_t entering = -1;
        double ea = 0.0;
        const double *ev = NULL;
        for (int32_t k = 0, n = s->rlen[leave]; k < n; k++) {
            int32_t sym = s->rsym[leave][k];
            double a = s->rcoef[leave][k];
            int kind = s->skind[sym];
            if (kind == K_DUMMY) continue;
            if (kind == K_EXT) {
                if (fabs(a) <= EPS) continue;
                a = fabs(a);
            } else if (a <= EPS) {
                continue;
            }
            const double *v = o->pos[sym] >= 0 ? o->vec + (size_t)o->pos[sym] * o->stride : NULL;
            int cmp = entering < 0 ? -1 : lex_cmp_ratio(v, a, ev, ea, s->ord, s->nord);
            if (cmp < 0 || (cmp == 0 && sym < entering)) {
                entering = sym;
                ea = a;
                ev = v;
            }
        }
        if (entering < 0) {
            if (failrow) *failrow = leave;
            return HT_E_UNSATISFIABLE;
        }
        ht_status st = pivot(s, leave, entering);
        if (st != HT_OK) return st;
    }
}

/* ======================================================================================== */
/* Conflicts                                                                                */

static ht_constraint con_handle(const ht_solver *s, int32_t k) { return MAKE_HANDLE(k, s->cgen[k]); }

static int is_required(const ht_solver *s, int32_t k) { return s->cprio[k] >= HT_PRIORITY_REQUIRED; }

static void conflict_reset(ht_solver *s) {
    s->nconf = 0;
    s->conf_range = -1;
}

static void conflict_add(ht_solver *s, int32_t k) {
    if (k < 0 || k >= s->ncon || !s->clive[k] || !is_required(s, k)) return;
    if (s->cbnd[k]) { /* a range bound: its variable */
        if (s->conf_range < 0) s->conf_range = s->cvars[k][0];
        return;
    }
    ht_constraint h = con_handle(s, k);
    for (int32_t i = 0; i < s->nconf; i++)
        if (s->conf[i] == h) return;
    if (s->nconf == s->confcap) {
        int32_t cap = next_cap(s->confcap, s->nconf + 1);
        ht_constraint *p = xrealloc(s, s->conf, sizeof(ht_constraint) * (size_t)cap);
        if (!p) return; /* the conflict set is best effort when memory is short */
        s->conf = p;
        s->confcap = cap;
    }
    s->conf[s->nconf++] = h;
}

static void conflict_remove(ht_solver *s, int32_t k) {
    ht_constraint h = con_handle(s, k);
    int32_t w = 0;
    for (int32_t i = 0; i < s->nconf; i++)
        if (s->conf[i] != h) s->conf[w++] = s->conf[i];
    s->nconf = w;
}

/* The required constraints whose markers are in the cells (and the basic symbol). */
static void conflict_from_syms(ht_solver *s, const int32_t *syms, int32_t n, int32_t basic,
                               int32_t skip) {
    for (int32_t i = -1; i < n; i++) {
        int32_t sym = i < 0 ? basic : syms[i];
        if (sym < 0) continue;
        int kind = s->skind[sym];
        if (kind != K_DUMMY && kind != K_SLACK) continue;
        if (s->sowner[sym] != skip) conflict_add(s, s->sowner[sym]);
    }
}

/* ======================================================================================== */
/* The tableau: adding and removing one constraint                                           */

/* Puts constraint k (its record complete) into the tableau. HT_E_UNSATISFIABLE leaves the
 * conflict set and, when the tableau was changed, s->broken set (the caller rebuilds it). */
static ht_status tab_add(ht_solver *s, int32_t k) {
    int32_t r;
    /* Values up to date before the change stay so when the new row changes no other row
     * (a definition, or a subject in no other row): its own value is appended. */
    if (!s->vals_dirty && s->pg_ok) refresh_values(s);
    int clean = !s->vals_dirty && s->pg_ok;
    ht_status st = row_new(s, &r);
    if (st != HT_OK) return st;
    double f = s->cscale[k]; /* the row in units of its largest coefficient */
    s->growth = 0.0;
    s->rconst[r] = s->cconst[k] / f;
    for (int32_t i = 0; i < s->cn[k]; i++) {
        int32_t x = s->vsym[s->cvars[k][i]];
        double c = s->ccoef[k][i];
        if (c == 0.0) continue;
        st = row_add_sym(s, r, x, c / f); /* basic ones too: a definition may refer to them */
        if (st != HT_OK) goto fail_row;
    }
    int rel = s->crel[k];
    int req = is_required(s, k);
    int32_t marker = NO_SYM, other = NO_SYM;
    double mu = 1.0;
    if (rel != HT_REL_EQ) {
        double coeff = rel == HT_REL_LE ? 1.0 : -1.0;
        if ((st = sym_new(s, K_SLACK, k, &marker)) != HT_OK) goto fail_row;
        s->cmarker[k] = marker;
        mu = coeff;
        if ((st = row_add_sym(s, r, marker, coeff)) != HT_OK) goto fail_syms;
        if (!req) {
            if ((st = sym_new(s, K_ERROR, k, &other)) != HT_OK) goto fail_syms;
            s->cother[k] = other;
            if ((st = row_add_sym(s, r, other, -coeff)) != HT_OK) goto fail_syms;
            if ((st = obj_add_level(s, other, s->clevel[k], f)) != HT_OK) goto fail_syms;
        }
    } else if (!req) {
        if ((st = sym_new(s, K_ERROR, k, &marker)) != HT_OK) goto fail_row;
        s->cmarker[k] = marker;
        if ((st = sym_new(s, K_ERROR, k, &other)) != HT_OK) goto fail_syms;
        s->cother[k] = other;
        mu = -1.0;
        if ((st = row_add_sym(s, r, marker, -1.0)) != HT_OK) goto fail_syms;
        if ((st = row_add_sym(s, r, other, 1.0)) != HT_OK) goto fail_syms;
        if ((st = obj_add_level(s, marker, s->clevel[k], f)) != HT_OK) goto fail_syms;
        if ((st = obj_add_level(s, other, s->clevel[k], f)) != HT_OK) goto fail_syms;
    } else {
        if ((st = sym_new(s, K_DUMMY, k, &marker)) != HT_OK) goto fail_row;
        s->cmarker[k] = marker;
        if ((st = row_add_sym(s, r, marker, 1.0)) != HT_OK) goto fail_syms;
    }
    s->cmu[k] = mu * f;

    /* A definition: an external symbol in no other row and not in the objective becomes the
     * row's basic symbol with nothing to substitute; the row keeps its basic cells. */
    int32_t subject = NO_SYM;
    if (!s->art_active) {
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t sym = s->rsym[r][i];
            if (s->skind[sym] != K_EXT || s->srow[sym] >= 0 || s->obj.pos[sym] >= 0) continue;
            if (subject >= 0 && sym > subject) continue;
            if (col_clean(s, sym) == 1) subject = sym; /* r alone */
        }
    }
    if (subject >= 0) {
        row_solve_for(s, r, subject);
        s->rbasic[r] = subject;
        s->srow[subject] = r;
        s->pending = 1;
        s->vals_dirty = !(clean && program_append(s, r));
        return HT_OK;
    }
    if ((st = row_expand(s, r)) != HT_OK) goto fail_syms;
    if (s->rconst[r] < 0) row_negate(s, r);

    /* The subject: the lowest-numbered external symbol, else a marker with a negative
     * coefficient (its value is then the non-negative constant). */
    int all_dummies = 1;
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t sym = s->rsym[r][i];
        if (s->skind[sym] == K_EXT && (subject < 0 || sym < subject)) subject = sym;
        if (s->skind[sym] != K_DUMMY) all_dummies = 0;
    }
    if (subject < 0 && (marker >= 0 && restricted(s, marker)) && row_coef(s, r, marker) < 0)
        subject = marker;
    if (subject < 0 && (other >= 0 && restricted(s, other)) && row_coef(s, r, other) < 0)
        subject = other;
    if (subject < 0 && all_dummies) {
        if (!const_zero(s->rconst[r], s->xmag)) {
            conflict_reset(s);
            conflict_from_syms(s, s->rsym[r], s->rlen[r], NO_SYM, k);
            st = HT_E_UNSATISFIABLE;
            goto fail_syms;
        }
        subject = marker; /* redundant: the row keeps its marker for removal */
    }
    if (subject >= 0) {
        row_solve_for(s, r, subject);
        s->rbasic[r] = subject;
        s->srow[subject] = r;
        /* r is reduced (no basic cell): the rows the subject is replaced in gain parametric
         * cells and a new constant, not a reference, so that the evaluation program stays
         * valid: they are noted as touched (their values follow at the next refresh) and r is
         * appended. */
        if (clean) s->vals_dirty = 0;
        st = substitute(s, subject, r);
        if (st != HT_OK) {
            s->broken = 1;
            return st;
        }
        s->pending = 1;
        s->vals_dirty = !(clean && !s->vals_dirty && program_append(s, r));
        return HT_OK;
    }

    /* No subject: an artificial variable, minimized; the constraint holds iff it reaches 0. */
    int32_t art;
    if ((st = sym_new(s, K_SLACK, -1, &art)) != HT_OK) goto fail_syms;
    s->rbasic[r] = art;
    s->srow[art] = r;
    /* From here on the tableau holds the new row: failures break it. */
    s->art.len = 0;
    s->art.cst[0] = s->rconst[r];
    for (int32_t i = 0; i < s->rlen[r]; i++) {
        int32_t ci;
        if ((st = obj_cell(s, &s->art, s->rsym[r][i], &ci)) != HT_OK) goto broken;
        s->art.vec[ci] = s->rcoef[r][i];
    }
    s->art_active = 1;
    double xmag = s->xmag;
    static const int32_t ord0[1] = {0};
    int unb = 0;
    st = optimize(s, &s->art, ord0, 1, &unb);
    if (st != HT_OK) goto broken;
    int success = const_zero(s->art.cst[0], xmag);
    if (!success) {
        conflict_reset(s);
        conflict_from_syms(s, s->art.sym, s->art.len, NO_SYM, k);
    }
    s->art_active = 0;
    obj_clear(&s->art);
    if (s->srow[art] >= 0) {
        int32_t t = s->srow[art];
        /* art is 0 but basic: pivot it out on a restricted symbol, else on an external one;
         * a row of dummies alone says nothing and goes. */
        int32_t entering = NO_SYM, ext = NO_SYM;
        for (int32_t i = 0; i < s->rlen[t]; i++) {
            int32_t sym = s->rsym[t][i];
            if (restricted(s, sym) && (entering < 0 || sym < entering)) entering = sym;
            if (s->skind[sym] == K_EXT && (ext < 0 || sym < ext)) ext = sym;
        }
        if (entering < 0) entering = ext;
        if (entering < 0) {
            row_drop(s, t); /* art = 0 + dummies: a dependency, nothing to keep */
        } else if ((st = pivot(s, t, entering)) != HT_OK) {
            goto broken;
        }
    }
    {
        int32_t n = col_clean(s, art);
        for (int32_t i = 0; i < n; i++) {
            int32_t t = s->col[art][i];
            int32_t at = row_find(s, t, art);
            if (at >= 0) row_remove_at(s, t, at);
        }
        if (s->obj.pos[art] >= 0) obj_remove_at(&s->obj, s->obj.pos[art]);
        sym_free(s, art);
    }
    if (!success) {
        s->broken = 1; /* the caller removes the record and rebuilds */
        return HT_E_UNSATISFIABLE;
    }
    s->pending = 1;
    return HT_OK;

broken:
    s->art_active = 0;
    s->broken = 1;
    return st;
fail_syms:
    /* The row never entered the tableau; only the objective may hold the new errors. */
    if (s->cother[k] >= 0) {
        if (s->obj.pos[s->cother[k]] >= 0) obj_remove_at(&s->obj, s->obj.pos[s->cother[k]]);
        sym_free(s, s->cother[k]);
        s->cother[k] = NO_SYM;
    }
    if (s->cmarker[k] >= 0) {
        if (s->obj.pos[s->cmarker[k]] >= 0) obj_remove_at(&s->obj, s->obj.pos[s->cmarker[k]]);
        sym_free(s, s->cmarker[k]);
        s->cmarker[k] = NO_SYM;
    }
fail_row:
    row_drop(s, r);
    if (st == HT_E_NO_MEMORY) s->broken = 1; /* column lists may name the dropped row: harmless */
    return st;
}

/* Takes constraint k out of the tableau (its record stays). */
static ht_status tab_remove(ht_solver *s, int32_t k) {
    ht_status st;
    s->vals_dirty = 1;
    int32_t marker = s->cmarker[k], other = s->cother[k];
    if (!is_required(s, k)) {
        int32_t syms[2] = {marker, other};
        for (int q = 0; q < 2; q++) {
            if (syms[q] < 0 || s->skind[syms[q]] != K_ERROR) continue;
            if ((st = obj_add_level(s, syms[q], s->clevel[k], -s->cscale[k])) != HT_OK) goto broken;
        }
    }
    if (marker >= 0) {
        if (s->srow[marker] >= 0) {
            row_drop(s, s->srow[marker]);
        } else {
            /* The row to pivot the marker into: a restricted row it would leave first. */
        again:;
            int32_t n = col_clean(s, marker);
            int32_t first = -1, second = -1, third = -1, dummy = -1;
            double r1 = 0, r2 = 0;
            for (int32_t i = 0; i < n; i++) {
                int32_t t = s->col[marker][i];
                double c = row_coef(s, t, marker);
                int32_t b = s->rbasic[t];
                if (s->skind[b] == K_DUMMY) {
                    /* A redundant required equality that this constraint helped imply: it
                     * binds once this one goes, so its dummy must stay 0 (parametric). Its
                     * constant is 0: the pivot moves no value. Any other row would leave the
                     * dummy basic at a nonzero value when the marker's row is dropped. */
                    if (dummy < 0 || b < s->rbasic[dummy]) dummy = t;
                } else if (s->skind[b] == K_EXT) {
                    if (third < 0 || b < s->rbasic[third]) third = t;
                } else if (c < 0) {
                    double ratio = -s->rconst[t] / c;
                    if (first < 0 || ratio < r1 || (ratio == r1 && b < s->rbasic[first])) {
                        r1 = ratio;
                        first = t;
                    }
                } else {
                    double ratio = s->rconst[t] / c;
                    if (second < 0 || ratio < r2 || (ratio == r2 && b < s->rbasic[second])) {
                        r2 = ratio;
                        second = t;
                    }
                }
            }
            int32_t t = dummy >= 0 ? dummy : first >= 0 ? first : second >= 0 ? second : third;
            if (t >= 0 && t == third && n > 1 && has_basic_cell(s, t)) {
                /* Its definition will be substituted into other rows: reduce it first (the
                 * marker's coefficient may change, so choose again). */
                if ((st = row_expand(s, t)) != HT_OK) goto broken;
                goto again;
            }
            if (t >= 0) {
                if ((st = pivot(s, t, marker)) != HT_OK) goto broken;
                row_drop(s, t);
            }
        }
    }
    /* The other error symbol belongs to this constraint alone: in exact arithmetic it has
     * left the tableau with the marker's row; drop any rounding residue. */
    if (other >= 0) {
        if (s->srow[other] >= 0) row_drop(s, s->srow[other]);
        int32_t n = col_clean(s, other);
        for (int32_t i = 0; i < n; i++) {
            int32_t t = s->col[other][i];
            int32_t at = row_find(s, t, other);
            if (at >= 0) row_remove_at(s, t, at);
        }
        if (s->obj.pos[other] >= 0) obj_remove_at(&s->obj, s->obj.pos[other]);
        sym_free(s, other);
    }
    if (marker >= 0) {
        if (s->obj.pos[marker] >= 0) obj_remove_at(&s->obj, s->obj.pos[marker]);
        sym_free(s, marker);
    }
    s->cmarker[k] = NO_SYM;
    s->cother[k] = NO_SYM;
    s->pending = 1;
    return HT_OK;
broken:
    s->broken = 1;
    return st;
}

/* Rebuilds the tableau from the records. */
static ht_status rebuild(ht_solver *s) {
    s->rebuilds++;
    for (int32_t r = 0; r < s->nrow; r++) {
        if (s->rlive[r]) row_drop(s, r);
    }
    s->nrfree = 0;
    s->nrow = 0;
    s->nlive_rows = 0;
    s->nsfree = 0;
    int32_t keep = 0;
    for (int32_t i = 0; i < s->nsym; i++) {
        s->srow[i] = -1;
        s->coln[i] = 0;
        s->obj.pos[i] = -1;
        s->art.pos[i] = -1;
        if (s->skind[i] == K_EXT) {
            keep = i + 1;
        } else {
            s->skind[i] = K_FREE;
            s->sowner[i] = -1;
        }
    }
    for (int32_t i = keep; i < s->nsym; i++) s->skind[i] = K_FREE;
    s->nsym = keep;
    for (int32_t i = 0; i < keep; i++)
        if (s->skind[i] == K_FREE) s->sfree[s->nsfree++] = i;
    s->obj.len = 0;
    for (int32_t j = 0; j < s->obj.stride; j++) s->obj.cst[j] = 0.0;
    s->art.len = 0;
    s->art_active = 0;
    s->ninfeas = 0;
    s->broken = 0;
    for (int32_t k = 0; k < s->ncon; k++) {
        s->cmarker[k] = NO_SYM;
        s->cother[k] = NO_SYM;
    }
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || s->cpark[k]) continue;
        ht_status st = tab_add(s, k);
        if (st != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
    }
    s->pending = 1;
    return HT_OK;
}

/* Row r (empty, meaning 0 = constant + cells) += constraint k's record: its terms and its
 * markers with the coefficients tab_add gave them. */
static ht_status row_fill(ht_solver *s, int32_t k, int32_t r) {
    ht_status st;
    double f = s->cscale[k];
    s->rconst[r] = s->cconst[k] / f;
    for (int32_t i = 0; i < s->cn[k]; i++) {
        if (s->ccoef[k][i] == 0.0) continue;
        if ((st = row_add_sym(s, r, s->vsym[s->cvars[k][i]], s->ccoef[k][i] / f)) != HT_OK) return st;
    }
    int32_t m = s->cmarker[k], o = s->cother[k];
    if (s->crel[k] != HT_REL_EQ) {
        double coeff = s->crel[k] == HT_REL_LE ? 1.0 : -1.0;
        if ((st = row_add_sym(s, r, m, coeff)) != HT_OK) return st;
        if (o >= 0 && (st = row_add_sym(s, r, o, -coeff)) != HT_OK) return st;
    } else if (o >= 0) {
        if ((st = row_add_sym(s, r, m, -1.0)) != HT_OK) return st;
        if ((st = row_add_sym(s, r, o, 1.0)) != HT_OK) return st;
    } else if ((st = row_add_sym(s, r, m, 1.0)) != HT_OK) {
        return st;
    }
    return HT_OK;
}

/* Reinversion: the tableau recomputed from the constraint records for the current basis (the
 * same basic symbols), by Gauss-Jordan elimination with partial pivoting (each record's row,
 * reduced by the rows before it, is solved for its largest cell among the basis's symbols not
 * placed yet), and the objective rebuilt from the priorities. Every coefficient and constant
 * comes back with the rounding of one elimination instead of the error accumulated over
 * hundreds of pivots; residues of cancellation become exact zeros again. Rows come back fully
 * reduced (no lazy definitions). On any inconsistency (which exact arithmetic excludes) the
 * tableau is rebuilt from the records instead (HT_OK, s->pending set). */
static ht_status reinvert(ht_solver *s) {
    ht_status st;
    s->reinversions++;
    s->reinvert_at = s->pivots;
    s->suspect = 0;
    if (s->nsym > s->tbasiccap) {
        int32_t cap = next_cap(s->tbasiccap, s->nsym);
        GROW(s, s->tbasic, cap);
        s->tbasiccap = cap;
    }
    memset(s->tbasic, 0, (size_t)s->nsym);
    int32_t nbasic = 0;
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r]) {
        s->tbasic[s->rbasic[r]] = 1;
        nbasic++;
    }
    /* Empty the tableau (the records and the symbols stay). */
    while (s->rhead >= 0) row_drop(s, s->rhead);
    for (int32_t i = 0; i < s->nsym; i++) {
        s->coln[i] = 0;
        s->srow[i] = -1;
    }
    obj_clear(&s->obj);
    s->ninfeas = 0;
    s->ntouched = 0;
    s->vals_dirty = 1;
    int32_t placed = 0;
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || s->cmarker[k] < 0) continue;
        int32_t r;
        if ((st = row_new(s, &r)) != HT_OK) goto broken;
        if ((st = row_fill(s, k, r)) != HT_OK || (st = row_expand(s, r)) != HT_OK) goto broken;
        int32_t piv = NO_SYM;
        double best = 0.0;
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t sym = s->rsym[r][i];
            double a = fabs(s->rcoef[r][i]);
            if (s->tbasic[sym] && s->srow[sym] < 0 && a > best) {
                best = a;
                piv = sym;
            }
        }
        if (piv < 0) {
            /* A record implied by the others (its row was dropped as a dependency): it must
             * reduce to nothing but markers fixed at 0. */
            int dependent = const_zero(s->rconst[r], s->xmag);
            for (int32_t i = 0; i < s->rlen[r] && dependent; i++)
                dependent = s->skind[s->rsym[r][i]] == K_DUMMY;
            row_drop(s, r);
            if (!dependent) goto inconsistent;
            continue;
        }
        row_solve_for(s, r, piv);
        s->rbasic[r] = piv;
        s->srow[piv] = r;
        if ((st = substitute(s, piv, r)) != HT_OK) goto broken;
        placed++;
    }
    if (placed != nbasic) goto inconsistent;
    /* The objective: every error symbol at its level, then the probe's term. */
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || s->cmarker[k] < 0 || is_required(s, k)) continue;
        if (s->crel[k] == HT_REL_EQ &&
            (st = obj_add_level(s, s->cmarker[k], s->clevel[k], s->cscale[k])) != HT_OK)
            goto broken;
        if ((st = obj_add_level(s, s->cother[k], s->clevel[k], s->cscale[k])) != HT_OK) goto broken;
    }
    if (s->probe_sym >= 0) {
        for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
        s->vtmp[s->probe_slot] = s->probe_dir;
        if ((st = obj_add_term(s, &s->obj, s->probe_sym, s->vtmp)) != HT_OK) goto broken;
    }
    s->pg_ok = 0;
    return HT_OK;
inconsistent:
    st = rebuild(s);
    if (st != HT_OK) return st;
    if (s->probe_sym >= 0) {
        for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
        s->vtmp[s->probe_slot] = s->probe_dir;
        if ((st = obj_add_term(s, &s->obj, s->probe_sym, s->vtmp)) != HT_OK) goto broken;
    }
    return HT_OK;
broken:
    s->broken = 1;
    return st;
}


/* ======================================================================================== */
/* Parking                                                                                  */
/*
 * A required inequality that holds at the current values when it is added is parked: kept out
 * of the tableau, indexed by its variables, and checked whenever one of their values changes.
 * The tableau then solves a relaxation of the system, whose optimum is the whole system's as
 * long as every parked constraint holds there (the whole system's feasible set lies inside the
 * relaxation's). One that stops holding is put into the tableau (unparked) and the solve goes
 * on from there. A required addition or constant change checks at once, so that a conflict
 * with a parked constraint is refused then, as any other; the other changes are checked at the
 * next solve. Without parking, an inactive inequality per view on a chain of definitions
 * (`top >= superview.top` on views stacked one below the other) was expanded into the tableau
 * in reduced form, whose length is the chain's: O(N^2) cells for N views.
 */

#define PARK_REL 1e-12 /* a parked constraint holds within this, relative to its terms... */
#define PARK_ABS 1e-9  /* ...plus this */

/* Constraint k's expression (terms and constant) at the current values (fresh), and the
 * magnitude of its terms. */
static double con_residual(const ht_solver *s, int32_t k, double *mag) {
    double sum = s->cconst[k], m = fabs(sum);
    for (int32_t i = 0; i < s->cn[k]; i++) {
        int32_t r = s->srow[s->vsym[s->cvars[k][i]]];
        double t = s->ccoef[k][i] * (r >= 0 ? s->rval[r] : 0.0);
        sum += t;
        m += fabs(t);
    }
    *mag = m;
    return sum;
}

/* Whether inequality k holds at the current values; strict: with room to spare (a constraint
 * that is tight might stop a direction at once). */
static int con_holds(const ht_solver *s, int32_t k, int strict) {
    double mag, r = con_residual(s, k, &mag);
    double tol = PARK_ABS + PARK_REL * mag;
    if (s->crel[k] == HT_REL_LE) r = -r;
    return strict ? r > tol : r >= -tol;
}

/* Parks constraint k (a live record out of the tableau): its terms into their variables'
 * lists. On HT_E_NO_MEMORY nothing is parked. */
static ht_status park(ht_solver *s, int32_t k) {
    int32_t n = s->cn[k];
    int32_t *pos = xrealloc(s, s->cppos[k], sizeof(int32_t) * (size_t)(n ? n : 1));
    if (!pos) return HT_E_NO_MEMORY;
    s->cppos[k] = pos;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = s->cvars[k][i];
        if (s->vpkn[v] + 2 > s->vpkcap[v]) {
            int32_t cap = next_cap(s->vpkcap[v], s->vpkn[v] + 2);
            int32_t *a = xrealloc(s, s->vpk[v], sizeof(int32_t) * (size_t)cap);
            if (!a) {
                while (i-- > 0) s->vpkn[s->cvars[k][i]] -= 2; /* the entries just added: last */
                return HT_E_NO_MEMORY;
            }
            s->vpk[v] = a;
            s->vpkcap[v] = cap;
        }
        pos[i] = s->vpkn[v];
        s->vpk[v][s->vpkn[v]++] = k;
        s->vpk[v][s->vpkn[v]++] = i;
    }
    s->cpark[k] = 1;
    s->nparked++;
    return HT_OK;
}

/* Takes constraint k out of the parking (its record stays). */
static void unpark(ht_solver *s, int32_t k) {
    for (int32_t i = s->cn[k] - 1; i >= 0; i--) {
        int32_t v = s->cvars[k][i], at = s->cppos[k][i], last = s->vpkn[v] - 2;
        int32_t *a = s->vpk[v];
        if (at != last) {
            a[at] = a[last];
            a[at + 1] = a[last + 1];
            s->cppos[a[at]][a[at + 1]] = at;
        }
        s->vpkn[v] = last;
    }
    s->cpark[k] = 0;
    s->nparked--;
}

static ht_status bound_new(ht_solver *s, int32_t v, int upper, int32_t *out);
static void bound_release(ht_solver *s, int32_t k);

static ht_status unp_push(ht_solver *s, int32_t k) {
    if (s->nunp == s->unpcap) {
        int32_t cap = next_cap(s->unpcap, s->nunp + 1);
        GROW(s, s->unp, cap);
        s->unpcap = cap;
    }
    s->unp[s->nunp++] = k;
    return HT_OK;
}

/* Queues what variable slot v's value breaks: the parked constraints on v that do not hold
 * (strict: that are not satisfied with room to spare), and its range bound (a new record) when
 * the value is beyond HT_SOLVER_MAX_VALUE (strict: or at it). */
static ht_status check_var(ht_solver *s, int32_t v, int strict) {
    ht_status st;
    const int32_t *a = s->vpk[v];
    for (int32_t j = 0, n = s->vpkn[v]; j < n; j += 2) {
        int32_t k = a[j];
        if (s->cpark[k] != 1 || con_holds(s, k, strict)) continue;
        if ((st = unp_push(s, k)) != HT_OK) return st;
        s->cpark[k] = 2;
    }
    int32_t r = s->srow[s->vsym[v]];
    double x = r >= 0 ? s->rval[r] : 0.0;
    double tol = PARK_ABS + PARK_REL * HT_SOLVER_MAX_VALUE;
    for (int upper = 1; upper >= 0; upper--) {
        double beyond = upper ? x - HT_SOLVER_MAX_VALUE : -HT_SOLVER_MAX_VALUE - x;
        if (s->vbnd[2 * v + !upper] >= 0 || (strict ? beyond < -tol : beyond <= tol)) continue;
        int32_t k;
        if ((st = unp_push(s, -1)) != HT_OK || (st = bound_new(s, v, upper, &k)) != HT_OK) {
            if (st != HT_OK && s->nunp > 0 && s->unp[s->nunp - 1] == -1) s->nunp--;
            return st;
        }
        s->unp[s->nunp - 1] = k;
    }
    return HT_OK;
}

/* The parked constraints that stopped holding since the last check (every one with strict,
 * or after a full recomputation of the values) into s->unp. */
static ht_status park_check(ht_solver *s, int strict) {
    ht_status st = HT_OK;
    s->nunp = 0;
    refresh_values(s);
    if (strict) {
        for (int32_t v = 0; v < s->nvar && st == HT_OK; v++)
            if (s->vlive[v]) st = check_var(s, v, strict);
    } else if (s->chk_all) {
        for (int32_t v = 0; v < s->nvar && st == HT_OK; v++) {
            if (!s->vlive[v]) continue;
            int32_t r = s->srow[s->vsym[v]];
            if (s->vpkn[v] > 0 || (r >= 0 && !(fabs(s->rval[r]) <= HT_SOLVER_MAX_VALUE))) st = check_var(s, v, strict);
        }
    } else {
        for (int32_t i = 0; i < s->nchk && st == HT_OK; i++)
            if (s->vlive[s->chk[i]]) st = check_var(s, s->chk[i], strict);
    }
    if (st != HT_OK) {
        for (int32_t i = 0; i < s->nunp; i++) {
            int32_t k = s->unp[i];
            if (s->cbnd[k])
                bound_release(s, k);
            else
                s->cpark[k] = 1;
        }
        s->nunp = 0;
        return st; /* the marks stay: checked again next time */
    }
    for (int32_t i = 0; i < s->nchk; i++) s->vchk[s->chk[i]] = 0;
    s->nchk = 0;
    s->chk_all = 0;
    return HT_OK;
}

/* Puts the queued constraints into the tableau. On a failure (HT_E_UNSATISFIABLE: the conflict
 * set is the failed one's), *failed is that constraint, and it and the rest stay parked. */
static ht_status unpark_queued(ht_solver *s, int32_t *failed) {
    ht_status st = HT_OK;
    for (int32_t i = 0; i < s->nunp; i++) {
        int32_t k = s->unp[i];
        int bound = s->cbnd[k];
        if (st == HT_OK) {
            st = tab_add(s, k);
            s->ninfeas = 0;
            if (st == HT_OK) {
                if (!bound) unpark(s, k);
                continue;
            }
            *failed = k;
            if (st == HT_E_UNSATISFIABLE && bound) s->conf_range = s->cvars[k][0];
        }
        if (bound)
            bound_release(s, k); /* not needed after all, or in conflict: it goes */
        else
            s->cpark[k] = 1;
    }
    s->nunp = 0;
    return st;
}

/* Checks the parked constraints against the values and puts those that do not hold into the
 * tableau, until every one holds (strict: with room to spare). *moved when any was. */
static ht_status settle(ht_solver *s, int strict, int *moved, int32_t *failed) {
    for (;;) {
        ht_status st = park_check(s, strict);
        if (st != HT_OK) return st;
        if (s->nunp == 0) return HT_OK;
        if (moved) *moved = 1;
        if ((st = unpark_queued(s, failed)) != HT_OK) return st;
    }
}

/* After a required change the tableau took: the parked constraints settled at once; one that
 * cannot enter joins the conflict set. */
static ht_status settle_required(ht_solver *s) {
    int32_t failed = -1;
    ht_status st = settle(s, 0, NULL, &failed);
    if (st == HT_E_UNSATISFIABLE && failed >= 0 && s->clive[failed] && !s->cbnd[failed])
        conflict_add(s, failed);
    return st;
}

/* Brings the tableau to a usable state; OPTIMAL: optimal; SETTLED: the optimum of the whole
 * system, parked constraints included (the values then satisfy every parked constraint). */
enum { USABLE = 0, OPTIMAL = 1, SETTLED = 2 };
static ht_status ensure(ht_solver *s, int level) {
    ht_status st;
    if (s->broken && (st = rebuild(s)) != HT_OK) return st;
    while (level >= OPTIMAL) {
        if (s->pending) {
            st = optimize(s, &s->obj, s->ord, s->nord, NULL);
            if (st != HT_OK) {
                s->broken = 1;
                return st;
            }
            s->pending = 0;
        }
        if (level < SETTLED) break;
        int moved = 0;
        int32_t failed = -1;
        st = settle(s, 0, &moved, &failed);
        if (st != HT_OK) {
            /* Required constraints were feasible together: only memory (or a numerical
             * breakdown) ends here. */
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
        if (!moved) break;
    }
    return HT_OK;
}

/* ======================================================================================== */
/* Public API                                                                               */

ht_status ht_solver_create(ht_solver **out) {
    if (!out) return HT_E_INVALID_ARGUMENT;
    ht_solver *s = calloc(1, sizeof *s);
    if (!s) return HT_E_NO_MEMORY;
    s->rhead = s->rtail = -1;
    s->probe_sym = NO_SYM;
    s->art.stride = 1;
    s->art.cst = calloc(1, sizeof(double));
    s->obj.stride = 0;
    if (!s->art.cst || grow_stride(s, 4) != HT_OK) {
        ht_solver_destroy(s);
        return HT_E_NO_MEMORY;
    }
    *out = s;
    return HT_OK;
}

void ht_solver_destroy(ht_solver *s) {
    if (!s) return;
    for (int32_t i = 0; i < s->symcap; i++) free(s->col[i]);
    free(s->skind);
    free(s->srow);
    free(s->sowner);
    free(s->col);
    free(s->coln);
    free(s->colcap);
    free(s->spos);
    free(s->sfree);
    for (int32_t r = 0; r < s->rowcap; r++) {
        free(s->rsym[r]);
        free(s->rcoef[r]);
    }
    free(s->rsym);
    free(s->rcoef);
    free(s->rlen);
    free(s->rcap);
    free(s->rconst);
    free(s->rbasic);
    free(s->rlive);
    free(s->rmark);
    free(s->rseq);
    free(s->rprev);
    free(s->rnext);
    free(s->rval);
    free(s->heap);
    free(s->touched);
    free(s->pg_row);
    free(s->pg_off);
    free(s->pg_ref);
    free(s->row_pg);
    free(s->pg_const);
    free(s->pg_val);
    free(s->pg_coef);
    free(s->rfree);
    free(s->tbasic);
    hts_obj *objs[2] = {&s->obj, &s->art};
    for (int q = 0; q < 2; q++) {
        free(objs[q]->sym);
        free(objs[q]->vec);
        free(objs[q]->cst);
        free(objs[q]->pos);
    }
    free(s->vtmp);
    free(s->vtmp2);
    free(s->lprio);
    free(s->lref);
    free(s->ord);
    free(s->vsym);
    free(s->vrefs);
    free(s->vgen);
    free(s->vlive);
    free(s->vfree);
    free(s->vrep);
    free(s->vchg);
    free(s->chg);
    free(s->pg_var);
    for (int32_t k = 0; k < s->concap; k++) {
        free(s->cvars[k]);
        free(s->ccoef[k]);
    }
    free(s->cgen);
    free(s->clive);
    free(s->crel);
    free(s->cprio);
    free(s->cconst);
    free(s->cmu);
    free(s->cn);
    free(s->clevel);
    free(s->cmarker);
    free(s->cother);
    free(s->cvars);
    free(s->ccoef);
    free(s->cfree);
    for (int32_t k = 0; k < s->concap; k++) free(s->cppos[k]);
    free(s->cppos);
    free(s->cpark);
    for (int32_t v = 0; v < s->varcap; v++) free(s->vpk[v]);
    free(s->vpk);
    free(s->vpkn);
    free(s->vpkcap);
    free(s->vchk);
    free(s->chk);
    free(s->unp);
    free(s->cscale);
    free(s->cbnd);
    free(s->vbnd);
    free(s->infeas);
    free(s->conf);
    free(s);
}

static ht_status var_slot(const ht_solver *s, ht_var v, int32_t *out) {
    if (v < 0) return HT_E_BAD_HANDLE;
    int32_t slot = HANDLE_SLOT(v);
    if (slot >= s->nvar || !s->vlive[slot] || s->vgen[slot] != HANDLE_GEN(v)) return HT_E_BAD_HANDLE;
    *out = slot;
    return HT_OK;
}

static ht_status con_slot(const ht_solver *s, ht_constraint c, int32_t *out) {
    if (c < 0) return HT_E_BAD_HANDLE;
    int32_t slot = HANDLE_SLOT(c);
    if (slot >= s->ncon || !s->clive[slot] || s->cbnd[slot] || s->cgen[slot] != HANDLE_GEN(c))
        return HT_E_BAD_HANDLE;
    *out = slot;
    return HT_OK;
}

ht_status ht_solver_new_variable(ht_solver *s, ht_var *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    if (s->nvfree > 0) {
        slot = s->vfree[s->nvfree - 1];
    } else {
        if (s->nvar >= HT_SOLVER_MAX_HANDLES) return HT_E_CAPACITY;
        if (s->nvar == s->varcap) {
            int32_t cap = next_cap(s->varcap, s->nvar + 1);
            GROW(s, s->vsym, cap);
            GROW(s, s->vrefs, cap);
            GROW(s, s->vgen, cap);
            GROW(s, s->vlive, cap);
            GROW(s, s->vfree, cap);
            GROW(s, s->vrep, cap);
            GROW(s, s->vchg, cap);
            GROW(s, s->chg, cap);
            GROW(s, s->vpk, cap);
            GROW(s, s->vpkn, cap);
            GROW(s, s->vpkcap, cap);
            GROW(s, s->vchk, cap);
            GROW(s, s->chk, cap);
            GROW(s, s->vbnd, 2 * (size_t)cap);
            for (int32_t i = s->varcap; i < cap; i++) {
                s->vbnd[2 * i] = s->vbnd[2 * i + 1] = -1;
                s->vpk[i] = NULL;
                s->vpkn[i] = 0;
                s->vpkcap[i] = 0;
                s->vchk[i] = 0;
            }
            s->varcap = cap;
        }
        slot = s->nvar;
        s->vgen[slot] = 0;
    }
    int32_t sym;
    ht_status st = sym_new(s, K_EXT, slot, &sym);
    if (st != HT_OK) return st;
    if (s->nvfree > 0 && s->vfree[s->nvfree - 1] == slot)
        s->nvfree--;
    else
        s->nvar++;
    s->vsym[slot] = sym;
    s->vrefs[slot] = 0;
    s->vlive[slot] = 1;
    s->vrep[slot] = 0.0; /* a new variable is 0 (parametric) */
    s->vchg[slot] = 0;
    s->nlive_vars++;
    *out = MAKE_HANDLE(slot, s->vgen[slot]);
    return HT_OK;
}

ht_status ht_solver_free_variable(ht_solver *s, ht_var v) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    ht_status st = var_slot(s, v, &slot);
    if (st != HT_OK) return st;
    if (s->vrefs[slot] > 0) return HT_E_IN_USE;
    int32_t sym = s->vsym[slot];
    /* Its range bounds go with it. */
    for (int q = 0; q < 2; q++) {
        int32_t k = s->vbnd[2 * slot + q];
        if (k < 0) continue;
        if (!s->broken && tab_remove(s, k) != HT_OK) s->broken = 1;
        bound_release(s, k);
    }
    /* In no constraint: in no row (after a removal's rounding, clean any residue). */
    if (!s->broken) {
        if (s->srow[sym] >= 0) row_drop(s, s->srow[sym]);
        int32_t n = col_clean(s, sym);
        for (int32_t i = 0; i < n; i++) {
            int32_t t = s->col[sym][i];
            int32_t at = row_find(s, t, sym);
            if (at >= 0) row_remove_at(s, t, at);
        }
        if (s->obj.pos[sym] >= 0) obj_remove_at(&s->obj, s->obj.pos[sym]);
    }
    sym_free(s, sym);
    s->vlive[slot] = 0;
    s->vchg[slot] = 0; /* a stale entry in the change list is skipped */
    if (s->vgen[slot] < GEN_MAX) { /* else retired: the slot is never reused */
        s->vgen[slot]++;
        s->vfree[s->nvfree++] = slot;
    }
    s->nlive_vars--;
    return HT_OK;
}

/* Frees constraint record k (its tableau part must be gone). */
static void con_release(ht_solver *s, int32_t k) {
    if (s->cbnd[k]) {
        bound_release(s, k);
        return;
    }
    for (int32_t i = 0; i < s->cn[k]; i++) s->vrefs[s->cvars[k][i]]--;
    if (s->clevel[k] >= 0) level_release(s, s->clevel[k]);
    s->clevel[k] = -1;
    s->clive[k] = 0;
    if (s->cgen[k] < GEN_MAX) { /* else retired: the slot is never reused */
        s->cgen[k]++;
        s->cfree[s->nfree_cons++] = k;
    }
    s->nlive_cons--;
}

/* The numeric contract's input ranges (hittest_solver.h). */
static int coefficient_in_range(double c) {
    return c == 0.0 || (fabs(c) >= HT_SOLVER_MIN_COEFFICIENT && fabs(c) <= HT_SOLVER_MAX_COEFFICIENT);
}
static int constant_in_range(double c) { return fabs(c) <= HT_SOLVER_MAX_CONSTANT; }

static int valid_priority(float p) { return p > 0.0f && p <= HT_PRIORITY_REQUIRED; }

/* Constraint k's row made a cell beyond GROWTH_LIMIT: two variables related by such a factor
 * cannot both be in the range unless one is 0 to within rounding. Refused as a conflict with
 * the range of the variable whose row grew, with the constraints in that row. */
static void growth_conflict(ht_solver *s, int32_t k, int keep) {
    int32_t r = s->growth_row, v = -1, g = s->growth_sym;
    if (!keep) conflict_reset(s); /* else the failed addition's conflict set stays */
    if (g >= 0 && g < s->nsym && s->skind[g] == K_EXT) v = s->sowner[g];
    if (r >= 0 && r < s->nrow && s->rlive[r]) {
        if (!keep) conflict_from_syms(s, s->rsym[r], s->rlen[r], s->rbasic[r], k);
        int32_t b = s->rbasic[r];
        if (b >= 0 && s->skind[b] == K_EXT) v = s->sowner[b];
        for (int32_t i = 0; i < s->rlen[r] && v < 0; i++)
            if (s->skind[s->rsym[r][i]] == K_EXT) v = s->sowner[s->rsym[r][i]];
    }
    if (v < 0 && s->cn[k] > 0) v = s->cvars[k][0];
    conflict_remove(s, k);
    s->conf_range = v;
}

/* A free constraint record slot with room for n terms (con_commit takes it). */
static ht_status con_alloc(ht_solver *s, size_t n, int32_t *out) {
    int32_t k;
    if (s->nfree_cons > 0) {
        k = s->cfree[s->nfree_cons - 1];
    } else {
        if (s->ncon >= HT_SOLVER_MAX_HANDLES) return HT_E_CAPACITY;
        if (s->ncon == s->concap) {
            int32_t cap = next_cap(s->concap, s->ncon + 1);
            GROW(s, s->cgen, cap);
            GROW(s, s->clive, cap);
            GROW(s, s->crel, cap);
            GROW(s, s->cprio, cap);
            GROW(s, s->cconst, cap);
            GROW(s, s->cmu, cap);
            GROW(s, s->cn, cap);
            GROW(s, s->clevel, cap);
            GROW(s, s->cmarker, cap);
            GROW(s, s->cother, cap);
            GROW(s, s->cvars, cap);
            GROW(s, s->ccoef, cap);
            GROW(s, s->cfree, cap);
            GROW(s, s->cpark, cap);
            GROW(s, s->cppos, cap);
            GROW(s, s->cscale, cap);
            GROW(s, s->cbnd, cap);
            for (int32_t i = s->concap; i < cap; i++) {
                s->cvars[i] = NULL;
                s->ccoef[i] = NULL;
                s->clive[i] = 0;
                s->cgen[i] = 0;
                s->cpark[i] = 0;
                s->cppos[i] = NULL;
                s->cbnd[i] = 0;
            }
            s->concap = cap;
        }
        k = s->ncon;
    }
    int32_t *cv = xrealloc(s, s->cvars[k], sizeof(int32_t) * (n ? n : 1));
    if (!cv) return HT_E_NO_MEMORY;
    s->cvars[k] = cv;
    double *cc = xrealloc(s, s->ccoef[k], sizeof(double) * (n ? n : 1));
    if (!cc) return HT_E_NO_MEMORY;
    s->ccoef[k] = cc;
    *out = k;
    return HT_OK;
}

/* Takes the slot con_alloc returned. */
static void con_commit(ht_solver *s, int32_t k) {
    if (s->nfree_cons > 0 && s->cfree[s->nfree_cons - 1] == k)
        s->nfree_cons--;
    else
        s->ncon++;
}

/* A range bound on variable slot v (value <= HT_SOLVER_MAX_VALUE, or >= its negative): a
 * required record, internal (no handle, not counted), not yet in the tableau. */
static ht_status bound_new(ht_solver *s, int32_t v, int upper, int32_t *out) {
    int32_t k;
    ht_status st = con_alloc(s, 1, &k);
    if (st != HT_OK) return st;
    con_commit(s, k);
    s->cvars[k][0] = v;
    s->ccoef[k][0] = 1.0;
    s->cn[k] = 1;
    s->crel[k] = (int8_t)(upper ? HT_REL_LE : HT_REL_GE);
    s->cprio[k] = HT_PRIORITY_REQUIRED;
    s->cconst[k] = upper ? -HT_SOLVER_MAX_VALUE : HT_SOLVER_MAX_VALUE;
    s->cscale[k] = 1.0;
    s->cmu[k] = 1.0;
    s->clevel[k] = -1;
    s->cmarker[k] = NO_SYM;
    s->cother[k] = NO_SYM;
    s->clive[k] = 1;
    s->cpark[k] = 0;
    s->cbnd[k] = 1;
    s->vbnd[2 * v + !upper] = k;
    *out = k;
    return HT_OK;
}

/* Frees range bound record k (its tableau part must be gone). */
static void bound_release(ht_solver *s, int32_t k) {
    int32_t v = s->cvars[k][0];
    s->vbnd[2 * v + (s->crel[k] == HT_REL_GE)] = -1;
    s->cbnd[k] = 0;
    s->clive[k] = 0;
    if (s->cgen[k] < GEN_MAX) {
        s->cgen[k]++;
        s->cfree[s->nfree_cons++] = k;
    }
}

ht_status ht_solver_add_constraint(ht_solver *s, const ht_var *vars, const double *coeffs, size_t n,
                                   double constant, int relation, float priority,
                                   ht_constraint *out) {
    if (!s || !out || (n > 0 && (!vars || !coeffs))) return HT_E_INVALID_ARGUMENT;
    if (relation != HT_REL_LE && relation != HT_REL_EQ && relation != HT_REL_GE)
        return HT_E_INVALID_ARGUMENT;
    if (!valid_priority(priority)) return HT_E_INVALID_ARGUMENT;
    if (n > (size_t)INT32_MAX / 2) return HT_E_INVALID_ARGUMENT;
    if (!isfinite(constant)) return HT_E_NOT_FINITE;
    if (!constant_in_range(constant)) return HT_E_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++) {
        int32_t slot;
        if (!isfinite(coeffs[i])) return HT_E_NOT_FINITE;
        if (!coefficient_in_range(coeffs[i])) return HT_E_INVALID_ARGUMENT;
        ht_status st = var_slot(s, vars[i], &slot);
        if (st != HT_OK) return st;
    }
    ht_status st = ensure(s, USABLE);
    if (st != HT_OK) return st;
    int req = priority >= HT_PRIORITY_REQUIRED;
    if (req && relation != HT_REL_EQ) {
        /* Whether it may be parked is read at the current values, which must then satisfy
         * every required constraint: the parked ones too (an optional change may have moved
         * a value since they were checked). */
        int32_t failed = -1;
        if ((st = settle(s, 0, NULL, &failed)) != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
    }

    /* The record. */
    int32_t k, level = -1;
    if ((st = con_alloc(s, n, &k)) != HT_OK) return st;
    if (priority < HT_PRIORITY_REQUIRED && (st = level_acquire(s, priority, &level)) != HT_OK)
        return st;
    con_commit(s, k);
    double scale = 0.0;
    for (size_t i = 0; i < n; i++) {
        s->cvars[k][i] = HANDLE_SLOT(vars[i]);
        s->ccoef[k][i] = coeffs[i];
        s->vrefs[s->cvars[k][i]]++;
        if (fabs(coeffs[i]) > scale) scale = fabs(coeffs[i]);
    }
    s->cscale[k] = scale > 0.0 ? scale : 1.0;
    s->cn[k] = (int32_t)n;
    s->crel[k] = (int8_t)relation;
    s->cprio[k] = priority;
    s->cconst[k] = constant;
    s->cmu[k] = 1.0;
    s->clevel[k] = level;
    s->cmarker[k] = NO_SYM;
    s->cother[k] = NO_SYM;
    s->clive[k] = 1;
    s->cpark[k] = 0;
    s->cbnd[k] = 0;
    s->nlive_cons++;

    /* A required inequality that holds at the current values is parked (see "Parking"). */
    int parked = 0;
    if (req && relation != HT_REL_EQ) {
        refresh_values(s);
        parked = con_holds(s, k, 0) && park(s, k) == HT_OK;
    }
    st = parked ? HT_OK : tab_add(s, k);
    s->ninfeas = 0;
    if ((st == HT_OK || st == HT_E_UNSATISFIABLE) && !parked && !(s->growth <= GROWTH_LIMIT)) {
        growth_conflict(s, k, st == HT_E_UNSATISFIABLE);
        s->broken = 1;
        st = HT_E_UNSATISFIABLE;
    }
    if (st == HT_OK && req && !parked) {
        /* The values it moved may break parked constraints: those enter the tableau now, and
         * one that cannot is a conflict of this constraint's. */
        conflict_reset(s);
        st = settle_required(s);
        if (st != HT_OK) {
            conflict_remove(s, k);
            if (!s->broken && tab_remove(s, k) != HT_OK) s->broken = 1;
        }
    }
    if (st != HT_OK) {
        con_release(s, k);
        if (st == HT_E_UNSATISFIABLE && s->broken) {
            ht_status rs = rebuild(s);
            if (rs == HT_E_NO_MEMORY) return rs;
        }
        return st;
    }
    conflict_reset(s);
    *out = con_handle(s, k);
    return HT_OK;
}

ht_status ht_solver_conflict(const ht_solver *s, ht_constraint *out, size_t cap, size_t *count) {
    if (!s || !count || (cap > 0 && !out)) return HT_E_INVALID_ARGUMENT;
    for (size_t i = 0; i < cap && i < (size_t)s->nconf; i++) out[i] = s->conf[i];
    *count = (size_t)s->nconf;
    return HT_OK;
}

ht_status ht_solver_remove_constraint(ht_solver *s, ht_constraint c) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (s->cpark[k]) {
        unpark(s, k);
    } else if (!s->broken) {
        st = tab_remove(s, k);
        if (st != HT_OK) return st; /* broken: the record stays, the tableau is rebuilt later */
    }
    con_release(s, k);
    s->ninfeas = 0;
    return HT_OK;
}

/* Shifts constraint k's constant by delta in the tableau (its marker absorbs it). Returns a
 * row of a redundant required equality that the shift made contradictory, or -1. */
static ht_status shift_constant(ht_solver *s, int32_t k, double delta, int32_t *dummy_row) {
    int32_t m = s->cmarker[k];
    double sh = delta / s->cmu[k];
    /* the size of the constraint's constants in the marker's units: what a residue is relative to */
    double size = (fabs(s->cconst[k]) + fabs(s->cconst[k] + delta)) / fabs(s->cmu[k]);
    *dummy_row = -1;
    ht_status st;
    if (s->srow[m] >= 0) {
        int32_t t = s->srow[m];
        double old = s->rconst[t];
        s->rconst[t] = const_snap(old, -sh);
        touch_row(s, t);
        if (restricted(s, m) && s->rconst[t] < -EPS_FEAS && (st = push_infeasible(s, t)) != HT_OK)
            return st;
        if (s->skind[m] == K_DUMMY && !const_zero(s->rconst[t], fabs(old) + size)) *dummy_row = t;
        return HT_OK;
    }
    int32_t n = col_clean(s, m);
    for (int32_t i = 0; i < n; i++) {
        int32_t t = s->col[m][i];
        double a = row_coef(s, t, m), old = s->rconst[t];
        s->rconst[t] = const_snap(old, a * sh);
        touch_row(s, t);
        int32_t b = s->rbasic[t];
        if (restricted(s, b) && s->rconst[t] < -EPS_FEAS && (st = push_infeasible(s, t)) != HT_OK)
            return st;
        if (s->skind[b] == K_DUMMY && !const_zero(s->rconst[t], fabs(old) + fabs(a) * size) && *dummy_row < 0)
            *dummy_row = t;
    }
    return HT_OK;
}

/* After required constraint k's constant changed (from old) in the tableau: the parked
 * constraints settled; when one cannot enter, k gets its old constant back (the tableau is
 * rebuilt) and the call fails with that one and k in the conflict set. */
static ht_status settled_constant(ht_solver *s, int32_t k, double old) {
    ht_status st = settle_required(s);
    if (st == HT_OK) return HT_OK;
    s->cconst[k] = old;
    s->broken = 1;
    if (st != HT_E_UNSATISFIABLE) return st;
    conflict_add(s, k);
    ht_status rs = rebuild(s);
    return rs == HT_E_NO_MEMORY ? rs : HT_E_UNSATISFIABLE;
}

ht_status ht_solver_set_constant(ht_solver *s, ht_constraint c, double constant) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (!isfinite(constant)) return HT_E_NOT_FINITE;
    if (!constant_in_range(constant)) return HT_E_INVALID_ARGUMENT;
    double delta = constant - s->cconst[k];
    if (delta == 0.0) return HT_OK;
    /* The dual simplex needs an optimal tableau; a parked constraint is judged at values that
     * satisfy the other parked ones (settled). */
    if ((st = ensure(s, s->cpark[k] ? SETTLED : OPTIMAL)) != HT_OK) return st;
    double old = s->cconst[k];
    if (s->cpark[k]) {
        /* Parked: it stays so while it holds; else it enters the tableau with its new constant,
         * or keeps the old one when that conflicts. */
        s->cconst[k] = constant;
        if (con_holds(s, k, 0)) {
            conflict_reset(s);
            return HT_OK;
        }
        conflict_reset(s);
        st = tab_add(s, k);
        s->ninfeas = 0;
        if (st == HT_OK) {
            unpark(s, k);
            return settled_constant(s, k, old);
        }
        s->cconst[k] = old;
        if (st == HT_E_UNSATISFIABLE) {
            conflict_add(s, k);
            if (s->broken && (st = rebuild(s)) != HT_OK) return st;
            return HT_E_UNSATISFIABLE;
        }
        s->broken = 1;
        return st;
    }
    s->ninfeas = 0;
    int32_t drow = -1, frow = -1;
    st = shift_constant(s, k, delta, &drow);
    if (st == HT_OK && drow < 0) st = dual_optimize(s, &frow);
    if (st == HT_OK && drow < 0) {
        s->cconst[k] = constant;
        s->ninfeas = 0;
        conflict_reset(s);
        return is_required(s, k) ? settled_constant(s, k, old) : HT_OK;
    }
    if (st == HT_E_UNSATISFIABLE || drow >= 0) {
        int32_t row = drow >= 0 ? drow : frow;
        conflict_reset(s);
        conflict_add(s, k);
        conflict_from_syms(s, s->rsym[row], s->rlen[row], s->rbasic[row], -1);
        /* Back to the old constant: the system was feasible with it. The dual pivots done
         * meanwhile may have left rows infeasible that only the shift back repairs, or not:
         * every restricted row is looked at again (seed 17964 of the edits kept an error
         * at -11.7 when only the marker's rows were). */
        s->ninfeas = 0;
        ht_status rs = shift_constant(s, k, -delta, &drow);
        s->ninfeas = 0;
        for (int32_t r = s->rhead; r >= 0 && rs == HT_OK; r = s->rnext[r])
            if (restricted(s, s->rbasic[r]) && s->rconst[r] < -EPS_FEAS) rs = push_infeasible(s, r);
        if (rs == HT_OK) rs = dual_optimize(s, &frow);
        s->ninfeas = 0;
        if (rs != HT_OK) {
            s->broken = 1;
            if (rs == HT_E_NO_MEMORY) return rs;
        }
        return HT_E_UNSATISFIABLE;
    }
    s->broken = 1;
    s->ninfeas = 0;
    return st;
}

ht_status ht_solver_set_priority(ht_solver *s, ht_constraint c, float priority) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (!valid_priority(priority)) return HT_E_INVALID_ARGUMENT;
    if (priority == s->cprio[k]) return HT_OK;
    if (is_required(s, k) || priority >= HT_PRIORITY_REQUIRED) return HT_E_REQUIRED_PRIORITY;
    if ((st = ensure(s, USABLE)) != HT_OK) return st;
    int32_t old = s->clevel[k], level;
    if ((st = level_acquire(s, priority, &level)) != HT_OK) return st;
    int32_t syms[2] = {s->cmarker[k], s->cother[k]};
    for (int q = 0; q < 2; q++) {
        if (syms[q] < 0 || s->skind[syms[q]] != K_ERROR) continue;
        if ((st = obj_add_level(s, syms[q], old, -s->cscale[k])) != HT_OK ||
            (st = obj_add_level(s, syms[q], level, s->cscale[k])) != HT_OK) {
            s->broken = 1;
            level_release(s, level);
            return st;
        }
    }
    s->clevel[k] = level;
    s->cprio[k] = priority;
    level_release(s, old);
    s->pending = 1;
    return HT_OK;
}

ht_status ht_solver_constraint_info(const ht_solver *s, ht_constraint c, int *relation,
                                    double *constant, float *priority) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    int32_t k;
    ht_status st = con_slot(s, c, &k);
    if (st != HT_OK) return st;
    if (relation) *relation = s->crel[k];
    if (constant) *constant = s->cconst[k];
    if (priority) *priority = s->cprio[k];
    return HT_OK;
}

ht_status ht_solver_solve(ht_solver *s) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    return ensure(s, SETTLED);
}

static double sym_value(ht_solver *s, int32_t sym) {
    refresh_values(s);
    return s->srow[sym] >= 0 ? s->rval[s->srow[sym]] : 0.0;
}

ht_status ht_solver_value(ht_solver *s, ht_var v, double *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    ht_status st = var_slot(s, v, &slot);
    if (st != HT_OK) return st;
    if ((st = ensure(s, SETTLED)) != HT_OK) return st;
    *out = sym_value(s, s->vsym[slot]);
    return HT_OK;
}

ht_status ht_solver_changes(ht_solver *s, ht_var *vars, double *values, size_t cap,
                            size_t *count) {
    if (!s || !count || (cap > 0 && (!vars || !values))) return HT_E_INVALID_ARGUMENT;
    ht_status st = ensure(s, SETTLED);
    if (st != HT_OK) return st;
    refresh_values(s);
    if (s->chg_all) {
        s->chg_all = 0;
        s->nchg = 0;
        for (int32_t i = 0; i < s->nvar; i++) s->vchg[i] = 0;
        note_all_vars(s); /* one entry per live slot: fits */
    }
    /* Compact: live entries, once each (2 marks an entry kept), whose value still differs. */
    int32_t w = 0;
    for (int32_t i = 0; i < s->nchg; i++) {
        int32_t slot = s->chg[i];
        if (!s->vlive[slot] || s->vchg[slot] != 1) continue;
        int32_t r = s->srow[s->vsym[slot]];
        double v = r >= 0 ? s->rval[r] : 0.0;
        if (v == s->vrep[slot]) {
            s->vchg[slot] = 0;
            continue;
        }
        s->vchg[slot] = 2;
        s->chg[w++] = slot;
    }
    for (int32_t i = 0; i < w; i++) s->vchg[s->chg[i]] = 1;
    s->nchg = w;
    *count = (size_t)w;
    if ((size_t)w > cap) return HT_OK;
    for (int32_t i = 0; i < w; i++) {
        int32_t slot = s->chg[i];
        int32_t r = s->srow[s->vsym[slot]];
        double v = r >= 0 ? s->rval[r] : 0.0;
        vars[i] = MAKE_HANDLE(slot, s->vgen[slot]);
        values[i] = v;
        s->vrep[slot] = v;
        s->vchg[slot] = 0;
    }
    s->nchg = 0;
    return HT_OK;
}

/* One probe: optimizes dir * x at a level below every other; *value, or *unbounded. */
/* A temporary row holding x's value in reduced form (definitions expanded); drop it after. */
static ht_status temp_expanded(ht_solver *s, int32_t x, int32_t *out) {
    int32_t r;
    ht_status st = row_new(s, &r);
    if (st != HT_OK) return st;
    if ((st = row_add_sym(s, r, x, 1.0)) != HT_OK || (st = row_expand(s, r)) != HT_OK) {
        row_drop(s, r);
        return st;
    }
    *out = r;
    return HT_OK;
}

static ht_status probe(ht_solver *s, int32_t x, int32_t slot, double dir, double *value,
                       int *unbounded) {
    int32_t r;
    ht_status st = temp_expanded(s, x, &r);
    if (st != HT_OK) return st;
    for (int32_t j = 0; j < s->obj.stride; j++) s->vtmp[j] = 0.0;
    s->vtmp[slot] = dir;
    st = obj_add_row(s, &s->obj, r, s->vtmp);
    row_drop(s, r);
    s->probe_sym = x; /* a reinversion rebuilds the objective with this term */
    s->probe_slot = slot;
    s->probe_dir = dir;
    if (st == HT_OK) st = optimize(s, &s->obj, s->ord, s->nord, unbounded);
    s->probe_sym = NO_SYM;
    obj_clear_slot(&s->obj, slot);
    if (st != HT_OK) return st;
    *value = sym_value(s, x);
    return HT_OK;
}

ht_status ht_solver_is_determined(ht_solver *s, ht_var v, bool *out) {
    if (!s || !out) return HT_E_INVALID_ARGUMENT;
    int32_t slot;
    ht_status st = var_slot(s, v, &slot);
    if (st != HT_OK) return st;
    if ((st = ensure(s, SETTLED)) != HT_OK) return st;
    if (s->vrefs[slot] == 0) {
        *out = false;
        return HT_OK;
    }
    int32_t x = s->vsym[slot];
    /* Settled at once: a basic variable whose row holds only symbols fixed at 0 in every
     * optimal solution (dummies, and restricted symbols whose cost is positive). */
    if (s->srow[x] >= 0) {
        int32_t r, fixed = 1;
        if ((st = temp_expanded(s, x, &r)) != HT_OK) {
            s->broken = 1;
            return st;
        }
        for (int32_t i = 0; i < s->rlen[r] && fixed; i++) {
            int32_t p = s->rsym[r][i];
            if (s->skind[p] == K_DUMMY) continue;
            if (restricted(s, p) && s->obj.pos[p] >= 0 &&
                lex_sign(s->obj.vec + (size_t)s->obj.pos[p] * s->obj.stride, s->ord, s->nord) > 0)
                continue;
            fixed = 0;
        }
        row_drop(s, r);
        if (fixed) {
            *out = true;
            return HT_OK;
        }
    }
    /* Otherwise: the least and the greatest value over the optimal solutions. Parked
     * constraints are not in the tableau: the probes run with each one holding with room to
     * spare (a tight one enters first), and a probe that ends where one does not hold (or is
     * tight, for a direction without end) puts it in and starts again. */
    double lo = 0, hi = 0;
    int unb = 0;
    for (;;) {
        int moved = 0;
        int32_t failed = -1;
        if (s->nparked > 0 && (st = settle(s, 1, &moved, &failed)) != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
        if (moved) {
            if ((st = ensure(s, SETTLED)) != HT_OK) return st;
            continue;
        }
        int32_t probe_slot;
        if ((st = level_acquire(s, -1.0f, &probe_slot)) != HT_OK) return st;
        unb = 0;
        st = probe(s, x, probe_slot, 1.0, &lo, &unb);
        if (st == HT_OK && s->nparked > 0) st = park_check(s, 1);
        if (st == HT_OK && s->nunp == 0 && !unb) {
            st = probe(s, x, probe_slot, -1.0, &hi, &unb);
            if (st == HT_OK && s->nparked > 0) st = park_check(s, 1);
        }
        level_release(s, probe_slot);
        s->ninfeas = 0;
        if (st != HT_OK) {
            s->broken = 1;
            return st;
        }
        if (s->nunp == 0) break;
        if ((st = unpark_queued(s, &failed)) != HT_OK || (st = ensure(s, SETTLED)) != HT_OK) {
            s->broken = 1;
            return st == HT_E_UNSATISFIABLE ? HT_E_CORRUPT : st;
        }
    }
    *out = !unb && fabs(hi - lo) <= 1e-8 * (1.0 + fabs(lo));
    return HT_OK;
}

ht_status ht_solver_stats(const ht_solver *s, size_t *variables, size_t *constraints,
                          size_t *rows) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    if (variables) *variables = (size_t)s->nlive_vars;
    if (constraints) *constraints = (size_t)s->nlive_cons;
    if (rows) *rows = (size_t)s->nlive_rows;
    return HT_OK;
}

#define CORRUPT return HT_E_CORRUPT

/* Whether live required constraint k fails to hold at the current values, beyond a tolerance
 * relative to the magnitude of its terms (validate and the tests' check). */
static bool required_violated(ht_solver *s, int32_t k) {
    double sum = s->cconst[k], mag = fabs(s->cconst[k]);
    for (int32_t i = 0; i < s->cn[k]; i++) {
        double t = s->ccoef[k][i] * sym_value(s, s->vsym[s->cvars[k][i]]);
        sum += t;
        mag += fabs(t);
    }
    double tol = 1e-6 * (1.0 + mag);
    bool violated = (s->crel[k] == HT_REL_EQ && fabs(sum) > tol) || (s->crel[k] == HT_REL_LE && sum > tol) ||
                    (s->crel[k] == HT_REL_GE && sum < -tol);
    return violated;
}

ht_status ht_solver_validate(ht_solver *s) {
    if (!s) return HT_E_INVALID_ARGUMENT;
    ht_status st = ensure(s, SETTLED);
    if (st != HT_OK) return st;
    for (int32_t r = 0; r < s->nrow; r++) {
        if (!s->rlive[r]) continue;
        int32_t b = s->rbasic[r];
        if (b < 0 || b >= s->nsym || s->skind[b] == K_FREE || s->srow[b] != r) CORRUPT;
        if (restricted(s, b) && s->rconst[r] < -1e-6) {
            CORRUPT;
        }
        if (!isfinite(s->rconst[r])) CORRUPT;
        for (int32_t i = 0; i < s->rlen[r]; i++) {
            int32_t sym = s->rsym[r][i];
            if (sym < 0 || sym >= s->nsym || s->skind[sym] == K_FREE) CORRUPT;
            if (s->srow[sym] >= 0) { /* a definition may refer to older definitions only */
                if (s->skind[b] != K_EXT || s->skind[sym] != K_EXT) CORRUPT;
                if (s->rseq[s->srow[sym]] >= s->rseq[r]) CORRUPT;
            }
            if (!isfinite(s->rcoef[r][i])) CORRUPT;
            int found = 0;
            for (int32_t j = 0; j < s->coln[sym] && !found; j++) found = s->col[sym][j] == r;
            if (!found) CORRUPT;
            for (int32_t j = i + 1; j < s->rlen[r]; j++)
                if (s->rsym[r][j] == sym) CORRUPT;
        }
    }
    for (int32_t i = 0; i < s->obj.len; i++) {
        int32_t sym = s->obj.sym[i];
        if (s->skind[sym] == K_FREE || s->srow[sym] >= 0 || s->obj.pos[sym] != i) CORRUPT;
    }
    /* Every value is in the range. */
    for (int32_t v = 0; v < s->nvar; v++) {
        if (!s->vlive[v]) continue;
        double x = sym_value(s, s->vsym[v]);
        if (!(fabs(x) <= HT_SOLVER_MAX_VALUE * (1.0 + 1e-9))) CORRUPT;
    }
    /* Every required constraint holds; optional ones' errors are non-negative. */
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || !is_required(s, k)) continue;
        if (required_violated(s, k)) CORRUPT;
    }
    return HT_OK;
}

ht_status hts_test_check(ht_solver *s, double *maxcoef) {
    if (!s || s->broken) return HT_E_INVALID_ARGUMENT;
    double m = 0.0;
    ht_status st = HT_OK;
    for (int32_t r = s->rhead; r >= 0; r = s->rnext[r]) {
        double rm = row_max(s, r);
        if (rm > m) m = rm;
        if (restricted(s, s->rbasic[r]) && s->rconst[r] < -1e-6) st = HT_E_CORRUPT;
    }
    if (maxcoef) *maxcoef = m;
    for (int32_t k = 0; k < s->ncon; k++) {
        if (!s->clive[k] || !is_required(s, k)) continue;
        if (required_violated(s, k)) st = HT_E_CORRUPT;
    }
    return st;
}

