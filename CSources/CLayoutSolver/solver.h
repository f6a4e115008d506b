/*
 * solver.h - the constraint solver's one internal header (CSources/CLayoutSolver): its state, its
 * numbers, the inline helpers every file uses and the functions its files share, all hidden from
 * the shared library and prefixed hts_; the tests' hooks (hts_test_) too. The public API is
 * include/hittest_solver.h. Cassowary (Badros, Borning, Stuckey 2001) with lexicographic
 * priorities.
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
 * (a bound as an internal record), see parking.c.
 *
 * Pivot rules: Bland's (the entering symbol is the lowest-numbered improving one, ties in the
 * ratio test go to the lowest-numbered basic symbol), which cannot cycle; the lexicographic
 * objective is a linear objective over an ordered field, where the simplex theory holds as is.
 *
 * Rounding. Hundreds of pivots accumulate rounding error in the cells, and a residue that
 * should be 0 can end above EPS and look like a real cost or pivot. When a pivot row grows past
 * GROWTH, a chosen cost or pivot lies in the gray zone between EPS and GRAY / PIVOT_SMALL, the
 * primal simplex first recomputes the tableau from the constraint records for the current
 * basis (`hts_reinvert`: Gauss-Jordan elimination with partial pivoting), at most once every
 * REINVERT_EVERY pivots, and then decides again on clean numbers.
 *
 * Failure. An allocation failure in the middle of a tableau operation leaves the tableau
 * unusable; the solver marks it broken, the public call leaves its records (the constraints) as
 * they were before the call, and the next call rebuilds the tableau from the records.
 *
 * Files, by concern (as kiwi separates rows, symbols and the solver):
 * - rows.c         symbols, rows and their columns, lazy definitions: the tableau's storage
 * - program.c      the evaluation program: values of the basic symbols, the change list
 * - objective.c    the lexicographic objective and its priority levels
 * - simplex.c      pivoting, the primal simplex (`hts_optimize`) and the dual simplex
 * - tableau.c      one constraint into and out of the tableau, rebuilding, reinversion
 * - constraints.c  handles, constraint records, range bounds, conflict sets
 * - parking.c      parked required inequalities and the range of values, settling (`hts_ensure`)
 * - edits.c        edits: a constraint's constant (incrementally, by the dual simplex), priority
 * - determined.c   ht_solver_is_determined: probes over the optimal solutions
 * - validate.c     ht_solver_validate and the tests' hooks
 * - solver.c       the public API: lifecycle, variables, constraints, values, changes
 */
#ifndef HT_SOLVER_H
#define HT_SOLVER_H

/* First, so that its no-fused-multiply-add pragma covers every function of the solver. */
#include "../shared/fp_contract.h"

#include "include/hittest_solver.h"

/* Every system header the solver uses, before the visibility switch below (declarations made
 * after it would be marked hidden, and the C library's symbols are not ours). */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Everything declared from here on is internal: not exported from the shared library (public
 * functions carry HT_API, declared above with default visibility). */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

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
    double *rval; /* the basic symbol's value (hts_refresh_values) */
    int vals_dirty;     /* every value must be recomputed */
    int32_t *touched;   /* else: rows whose constant alone changed (an edit) */
    int32_t ntouched, touchedcap;
    int pg_ok; /* the evaluation program matches the rows' structure */
    int32_t npg, pgcap, pgrefcap;
    int32_t *pg_row, *pg_off, *pg_ref, *row_pg;
    int32_t *pg_var; /* per program row: the variable slot of its basic symbol, or -1 */
    double *pg_const, *pg_val, *pg_coef;
    /* The program's users, for an edit's evaluation (run_edit): per program row, the first of
     * the references to it (pg_uhead, -1 none), chained through pg_unext; pg_kown[k] is the
     * row that holds reference k; pg_ucount: how many. pg_pend: one bit per program row, all
     * clear between runs. */
    int32_t *pg_uhead, *pg_unext, *pg_kown, *pg_ucount;
    uint64_t *pg_pend;
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
     * out of the tableau (see parking.c) ---- */
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
    double growth;    /* the largest |cell| written by the current hts_tab_add, in growth_row */
    int32_t growth_row, growth_sym; /* growth_sym: a cell too small, or NO_SYM */
    double xmag;      /* the magnitude of the constants combined by the last hts_row_expand */

    /* ---- state ---- */
    int broken;  /* the tableau is unusable: rebuild from the records */
    int pending; /* the tableau is feasible but maybe not optimal */
    long fail_countdown;
    long pivots, rebuilds, work;
};

/* ======================================================================================== */
/* Memory: every allocation goes through xrealloc (the tests fail the n-th one on purpose)   */

static inline void *xrealloc(ht_solver *s, void *p, size_t n) {
    if (s->fail_countdown > 0 && --s->fail_countdown == 0) return NULL;
    return realloc(p, n ? n : 1);
}

/* The index of the lowest set bit of w (w != 0). */
static inline int32_t ctz64(uint64_t w) {
#if defined(__GNUC__) || defined(__clang__)
    return (int32_t)__builtin_ctzll(w);
#else
    int32_t i = 0;
    while (!(w >> i & 1)) i++;
    return i;
#endif
}

/* The evaluation program's arrays (program.c), read once into a local so that a loop over
 * rows keeps them in registers (a store of a value or of a noted variable cannot move them). */
typedef struct hts_program {
    const int32_t *off, *ref, *row, *var;
    const double *cst, *coef;
    double *val, *rval;
} hts_program;

static inline hts_program hts_program_of(const ht_solver *s) {
    return (hts_program){s->pg_off, s->pg_ref, s->pg_row, s->pg_var, s->pg_const, s->pg_coef, s->pg_val, s->rval};
}

/* Row p of the program from its inputs: its constant plus each coefficient times an older
 * row's value, in the program's order. The one arithmetic every evaluation and
 * ht_solver_validate use, so that their values agree to the bit; always inlined (its callers'
 * loops are the edit's hot path, and a call per row costs more than the row). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline double hts_eval_row(const hts_program *g, int32_t p) {
    double v = g->cst[p];
    for (int32_t k = g->off[p], e = g->off[p + 1]; k < e; k++) v += g->coef[k] * g->val[g->ref[k]];
    return v;
}

static inline int32_t next_cap(int32_t cap, int32_t need) {
    int64_t c = cap < 8 ? 8 : cap;
    while (c < need) c *= 2;
    if (c > INT32_MAX) c = INT32_MAX;
    return (int32_t)c;
}

#define GROW(s, ptr, n)                                                                        \
    do {                                                                                       \
        void *q_ = xrealloc((s), (ptr), sizeof(*(ptr)) * (size_t)(n));                         \
        if (!q_) return HT_E_NO_MEMORY;                                                        \
        (ptr) = q_;                                                                            \
    } while (0)

/* ======================================================================================== */
/* Helpers every file uses                                                                  */

static inline int restricted(const ht_solver *s, int32_t sym) {
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
static inline int const_zero(double c, double mag) {
    return fabs(c) <= EPS_CONST + REL_CONST * mag;
}

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

static inline int32_t row_find(const ht_solver *s, int32_t r, int32_t sym) {
    const int32_t *a = s->rsym[r];
    for (int32_t i = 0, n = s->rlen[r]; i < n; i++)
        if (a[i] == sym) return i;
    return -1;
}

static inline double row_coef(const ht_solver *s, int32_t r, int32_t sym) {
    int32_t i = row_find(s, r, sym);
    return i < 0 ? 0.0 : s->rcoef[r][i];
}

static inline void row_remove_at(ht_solver *s, int32_t r, int32_t i) {
    int32_t last = --s->rlen[r];
    s->rsym[r][i] = s->rsym[r][last];
    s->rcoef[r][i] = s->rcoef[r][last];
}

static inline ht_constraint con_handle(const ht_solver *s, int32_t k) {
    return MAKE_HANDLE(k, s->cgen[k]);
}

static inline int is_required(const ht_solver *s, int32_t k) {
    return s->cprio[k] >= HT_PRIORITY_REQUIRED;
}

/* The numeric contract's input ranges (hittest_solver.h). */
static inline int coefficient_in_range(double c) {
    return c == 0.0 || (fabs(c) >= HT_SOLVER_MIN_COEFFICIENT && fabs(c) <= HT_SOLVER_MAX_COEFFICIENT);
}

static inline int constant_in_range(double c) { return fabs(c) <= HT_SOLVER_MAX_CONSTANT; }

static inline int valid_priority(float p) { return p > 0.0f && p <= HT_PRIORITY_REQUIRED; }

/* ======================================================================================== */
/* Functions the files share                                                                */

/* ---- rows.c: symbols, rows and their columns, lazy definitions (the tableau's storage) ---- */
ht_status hts_sym_new(ht_solver *s, int kind, int32_t owner, int32_t *out);
void hts_sym_free(ht_solver *s, int32_t id);
ht_status hts_row_new(ht_solver *s, int32_t *out);
void hts_row_drop(ht_solver *s, int32_t r);
int32_t hts_col_clean(ht_solver *s, int32_t sym);
void hts_sym_purge(ht_solver *s, int32_t sym);
ht_status hts_row_add_sym(ht_solver *s, int32_t r, int32_t sym, double c);
ht_status hts_row_add_row(ht_solver *s, int32_t t, int32_t src, double a);
int hts_has_basic_cell(const ht_solver *s, int32_t r);
ht_status hts_row_expand(ht_solver *s, int32_t r);
void hts_row_solve_for(ht_solver *s, int32_t r, int32_t sym);
void hts_row_negate(ht_solver *s, int32_t r);
double hts_row_max(const ht_solver *s, int32_t r);
ht_status hts_push_infeasible(ht_solver *s, int32_t r);

/* ---- program.c: the evaluation program (values of the basic symbols, the change list) ---- */
void hts_touch_row(ht_solver *s, int32_t r);
void hts_note_all_vars(ht_solver *s);
void hts_refresh_values(ht_solver *s);
int hts_program_append(ht_solver *s, int32_t r);
double hts_sym_value(ht_solver *s, int32_t sym);

/* ---- objective.c: the lexicographic objective and its priority levels ---- */
ht_status hts_obj_cell(ht_solver *s, hts_obj *o, int32_t sym, int32_t *out);
void hts_obj_remove_at(hts_obj *o, int32_t i);
ht_status hts_obj_add_row(ht_solver *s, hts_obj *o, int32_t r, const double *v);
ht_status hts_obj_add_term(ht_solver *s, hts_obj *o, int32_t sym, const double *v);
ht_status hts_obj_add_level(ht_solver *s, int32_t sym, int32_t slot, double c);
void hts_obj_clear_slot(hts_obj *o, int32_t slot);
void hts_obj_clear(hts_obj *o);
int hts_lex_sign(const double *v, const int32_t *ord, int32_t nord);
int hts_lex_cmp_ratio(const double *v, double a, const double *w, double b, const int32_t *ord,
                      int32_t nord);
ht_status hts_grow_stride(ht_solver *s, int32_t need);
ht_status hts_level_acquire(ht_solver *s, float p, int32_t *out);
void hts_level_release(ht_solver *s, int32_t slot);

/* ---- simplex.c: pivoting, the primal simplex and the dual simplex ---- */
ht_status hts_substitute(ht_solver *s, int32_t sym, int32_t r);
ht_status hts_pivot(ht_solver *s, int32_t t, int32_t entering);
ht_status hts_optimize(ht_solver *s, hts_obj *o, const int32_t *ord, int32_t nord, int *unbounded);
ht_status hts_dual_optimize(ht_solver *s, int32_t *failrow);

/* ---- tableau.c: one constraint into and out of the tableau, rebuilding, reinversion ---- */
ht_status hts_tab_add(ht_solver *s, int32_t k);
ht_status hts_tab_remove(ht_solver *s, int32_t k);
ht_status hts_rebuild(ht_solver *s);
ht_status hts_reinvert(ht_solver *s);

/* ---- constraints.c: handles, constraint records, range bounds, conflict sets ---- */
ht_status hts_var_slot(const ht_solver *s, ht_var v, int32_t *out);
ht_status hts_con_slot(const ht_solver *s, ht_constraint c, int32_t *out);
ht_status hts_con_alloc(ht_solver *s, size_t n, int32_t *out);
void hts_con_commit(ht_solver *s, int32_t k);
void hts_con_release(ht_solver *s, int32_t k);
ht_status hts_bound_new(ht_solver *s, int32_t v, int upper, int32_t *out);
void hts_bound_release(ht_solver *s, int32_t k);
void hts_conflict_reset(ht_solver *s);
void hts_conflict_add(ht_solver *s, int32_t k);
void hts_conflict_remove(ht_solver *s, int32_t k);
void hts_conflict_from_syms(ht_solver *s, const int32_t *syms, int32_t n, int32_t basic,
                            int32_t skip);
void hts_growth_conflict(ht_solver *s, int32_t k, int keep);

/* ---- parking.c: parked required inequalities and the range of values, settling ---- */
int hts_con_holds(const ht_solver *s, int32_t k, int strict);
ht_status hts_park(ht_solver *s, int32_t k);
void hts_unpark(ht_solver *s, int32_t k);
ht_status hts_park_check(ht_solver *s, int strict);
ht_status hts_unpark_queued(ht_solver *s, int32_t *failed);
ht_status hts_settle(ht_solver *s, int strict, int *moved, int32_t *failed);
ht_status hts_settle_required(ht_solver *s);
/* Brings the tableau to a usable state; OPTIMAL: optimal; SETTLED: the optimum of the whole
 * system, parked constraints included (the values then satisfy every parked constraint). */
enum { USABLE = 0, OPTIMAL = 1, SETTLED = 2 };
ht_status hts_ensure(ht_solver *s, int level);

/* ======================================================================================== */
/* Tests' hooks (validate.c)                                                                */

/* Tests: the n-th allocation from now fails (n >= 1); 0 turns failures off. */
void hts_test_fail_allocation(ht_solver *s, long n);

/* Tests and benchmarks: pivots done so far, rebuilds of the tableau so far. */
void hts_test_counters(const ht_solver *s, long *pivots, long *rebuilds);

/* Tests: cells and column entries visited by row operations so far (a measure of work). */
long hts_test_work(const ht_solver *s);

/* Tests: every free variable and constraint slot at its last generation. */
void hts_test_age_slots(ht_solver *s);

/* Tests: reinversions of the tableau so far (numerical trouble, tableau.c `hts_reinvert`). */
long hts_test_reinversions(const ht_solver *s);

/* Tests: a reinversion now (the tableau recomputed from the records for its current basis). */
ht_status hts_test_reinvert(ht_solver *s);

/* Tests: checks, without solving, that the current tableau's values satisfy every required
 * constraint (1e-6 relative) and that restricted basics are not negative; *maxcoef is the
 * largest coefficient in any row. HT_OK, HT_E_CORRUPT, or HT_E_INVALID_ARGUMENT (broken). */
ht_status hts_test_check(ht_solver *s, double *maxcoef);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif /* HT_SOLVER_H */
