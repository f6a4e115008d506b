/*
 * hittest_solver.h - a linear constraint solver for Auto Layout (Cassowary with lexicographic
 * priorities).
 *
 * A solver holds variables and linear constraints over them,
 *
 *     sum(coeffs[i] * vars[i]) + constant  REL  0        REL one of <=, ==, >=
 *
 * each at a priority p with 0 < p <= 1000. Priority 1000 is required: every required constraint
 * holds exactly, and a required constraint that conflicts with the others is refused
 * (HT_E_UNSATISFIABLE) and its conflict set is kept (`ht_solver_conflict`). Optional constraints
 * are satisfied as well as possible, strictly by priority: the solution minimizes, in turn, the
 * total violation (the sum of |error|) of the constraints at the highest optional priority in
 * use, then at the next one, and so on. No number of priority-750 constraints outweighs one at
 * 751. Where the constraints leave a variable free (several solutions are equally good), its
 * value is one of them and `ht_solver_is_determined` says false.
 *
 * Numbers (the numeric contract)
 * - Coefficients are 0 or within [HT_SOLVER_MIN_COEFFICIENT, HT_SOLVER_MAX_COEFFICIENT] in
 *   magnitude (1e-7 to 1e7), constants within ±HT_SOLVER_MAX_CONSTANT (1e21): beyond, the call
 *   is refused with HT_E_INVALID_ARGUMENT and nothing changes (NaN and infinities:
 *   HT_E_NOT_FINITE).
 * - Every value lies within ±HT_SOLVER_MAX_VALUE (1e15), as if each variable had the required
 *   constraints -1e15 <= v <= 1e15. Optional constraints yield to the range as to any required
 *   constraint. A required constraint, or constant change, that would need a value beyond it
 *   is refused as a conflict: HT_E_UNSATISFIABLE, with `ht_solver_conflict_range` naming the
 *   variable and `ht_solver_conflict` the required constraints that force it. So is one whose
 *   elimination would relate two variables by a factor above 1e100 or below 1e-14 (a chain of
 *   large or small multipliers): no double resolves what it implies. A value is never
 *   infinite, NaN or beyond the range.
 * - Tolerances are relative to the numbers' size: each constraint is scaled by its largest
 *   |coefficient|; two constants that agree to 1e-12 of their magnitude are equal (a required
 *   `y == x + 0.2` holds at x = 999999999999999.875, y = 1e15; `y == x + 1e5` does not); a
 *   required constraint holds to within 1e-12 of the magnitude of its terms plus 1e-9.
 * - Priorities are exact within the contract: the objective is lexicographic (a component per
 *   priority level, compared in order), so no amount of violation at a lower priority
 *   outweighs any at a higher one, whatever the coefficients, and the order in which
 *   constraints are added does not change the solution.
 *
 * Cost. A required inequality that holds at the current values when it is added is parked: kept
 * out of the tableau and checked against the values, until a change breaks it (then it enters
 * the tableau). An inactive inequality per view (`top >= superview.top` on a chain of views)
 * thus costs O(its terms), and such systems grow linearly.
 *
 * Conventions are hittest.h's: every function returns an `ht_status`, out-parameters are left
 * untouched on failure, no global state, every double must be finite (HT_E_NOT_FINITE), bad or
 * freed handles are HT_E_BAD_HANDLE. When memory runs out, the call returns HT_E_NO_MEMORY and
 * the solver's constraints are as before the call; its internal tableau is rebuilt by the next
 * call that needs it. A solver is not internally locked: calls on one solver must not overlap;
 * distinct solvers are independent.
 */
#ifndef HITTEST_SOLVER_H
#define HITTEST_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hittest.h" /* ht_status and HT_API: the conventions of the C core (CHitTest) */

#ifdef __cplusplus
extern "C" {
#endif

/** The opaque solver. */
typedef struct ht_solver ht_solver;
/**
 * A variable handle: a slot and its generation. A freed variable's handle is HT_E_BAD_HANDLE
 * for good: generations have 39 bits, and a slot whose generation would wrap is retired
 * instead of reused, so that no handle is issued twice. Handles are non-negative.
 */
typedef int64_t ht_var;
/** A constraint handle: a slot and its generation, never issued twice (as `ht_var`). */
typedef int64_t ht_constraint;

/** Relations: the constraint's expression is <= 0, == 0 or >= 0. */
enum { HT_REL_LE = -1, HT_REL_EQ = 0, HT_REL_GE = 1 };

/** The required priority; every priority p must satisfy 0 < p <= HT_PRIORITY_REQUIRED. */
#define HT_PRIORITY_REQUIRED 1000.0f
/** The range of every value: |value| <= HT_SOLVER_MAX_VALUE (the numeric contract). */
#define HT_SOLVER_MAX_VALUE 1e15
/** The largest |coefficient| a constraint may have (the numeric contract). */
#define HT_SOLVER_MAX_COEFFICIENT 1e7
/** The smallest nonzero |coefficient| a constraint may have (the numeric contract). */
#define HT_SOLVER_MIN_COEFFICIENT 1e-7
/** The largest |constant| a constraint may have (the numeric contract). */
#define HT_SOLVER_MAX_CONSTANT 1e21
/** The largest number of live variables, and of live constraints, in one solver. */
#define HT_SOLVER_MAX_HANDLES 16777215

/** Creates an empty solver. Returns HT_E_INVALID_ARGUMENT (NULL out) or HT_E_NO_MEMORY. */
HT_API ht_status ht_solver_create(ht_solver **out);

/** Frees the solver and everything in it. NULL is ignored. */
HT_API void ht_solver_destroy(ht_solver *s);

/** A new variable, in no constraint (its value is 0 and it is not determined). */
HT_API ht_status ht_solver_new_variable(ht_solver *s, ht_var *out);

/** Frees a variable. HT_E_IN_USE while a constraint uses it. */
HT_API ht_status ht_solver_free_variable(ht_solver *s, ht_var v);

/**
 * Adds `sum(coeffs[i] * vars[i]) + constant REL 0` at `priority`. A variable may appear more
 * than once (its coefficients add up); n may be 0 (then the constraint is about the constant).
 * - Returns: HT_E_INVALID_ARGUMENT (NULL pointers with n > 0, NULL out, unknown relation,
 *   priority outside (0, 1000] or NaN, a coefficient or the constant outside the numeric
 *   contract), HT_E_NOT_FINITE, HT_E_BAD_HANDLE (a variable), HT_E_UNSATISFIABLE (a required
 *   constraint that conflicts with the required ones in place or with the range of values: it
 *   is not added, and `ht_solver_conflict` and `ht_solver_conflict_range` say why),
 *   HT_E_CAPACITY, HT_E_NO_MEMORY.
 * - Complexity: amortized O(size of the rows it touches); values are brought up to date by
 *   `ht_solver_solve` (or the first `ht_solver_value` after the change).
 */
HT_API ht_status ht_solver_add_constraint(ht_solver *s, const ht_var *vars, const double *coeffs,
                                          size_t n, double constant, int relation, float priority,
                                          ht_constraint *out);

/**
 * The required constraints in place that the last HT_E_UNSATISFIABLE contradicted: for
 * add_constraint, the ones the refused constraint conflicts with (it is not among them: it was
 * never added); for set_constant, the edited constraint and the ones its new constant conflicts
 * with. Writes at most `cap` handles to `out` (`out` may be NULL when cap is 0) and the full
 * count to `*count`. The set is emptied by the next successful add_constraint or set_constant.
 */
HT_API ht_status ht_solver_conflict(const ht_solver *s, ht_constraint *out, size_t cap,
                                    size_t *count);

/**
 * The variable whose range (±HT_SOLVER_MAX_VALUE) the last HT_E_UNSATISFIABLE involved: the
 * refused constraint (or constant) would have put its value beyond the range. -1 when the
 * conflict was among constraints alone, or when that variable has been freed since. Emptied
 * with the conflict set.
 */
HT_API ht_status ht_solver_conflict_range(const ht_solver *s, ht_var *out);

/** Removes a constraint; its handle becomes invalid. */
HT_API ht_status ht_solver_remove_constraint(ht_solver *s, ht_constraint c);

/**
 * Changes a constraint's constant, incrementally (a dual simplex from the current solution).
 * A required constraint whose new constant conflicts with the other required ones, or with the
 * range of values, keeps its old constant and the call returns HT_E_UNSATISFIABLE (with a
 * conflict set, and `ht_solver_conflict_range`). A constant outside the numeric contract is
 * HT_E_INVALID_ARGUMENT.
 */
HT_API ht_status ht_solver_set_constant(ht_solver *s, ht_constraint c, double constant);

/**
 * Changes an optional constraint's priority to another optional one. Between required and
 * optional is HT_E_REQUIRED_PRIORITY (as UIKit, which raises); the same priority is a no-op.
 */
HT_API ht_status ht_solver_set_priority(ht_solver *s, ht_constraint c, float priority);

/** The constraint's relation, constant and priority as they are now (any out may be NULL). */
HT_API ht_status ht_solver_constraint_info(const ht_solver *s, ht_constraint c, int *relation,
                                           double *constant, float *priority);

/** Brings every value up to date with the constraints (the optimal solution). */
HT_API ht_status ht_solver_solve(ht_solver *s);

/** The variable's value in the current solution (solving first if anything changed). */
HT_API ht_status ht_solver_value(ht_solver *s, ht_var v, double *out);

/**
 * The variables whose value changed since the last call that received its list whole (or
 * since they were created, a new variable counting as 0), with their current values, solving
 * first if anything changed: a caller that mirrors values (a layout layer placing views) reads
 * what an edit moved instead of every variable. *count is the number of changed variables;
 * when it is at most cap, the first *count entries of vars and values are written and the list
 * starts again empty; otherwise nothing is written and the list is kept (call again with room
 * for *count). vars and values may be NULL when cap is 0 (a count alone).
 * - Complexity: O(changed) after an edit that keeps the tableau's structure (a constant
 *   change), plus the solver's own value pass; a change of structure (adding, removing, a
 *   pivot on a variable) compares every variable once.
 * - Returns: HT_E_INVALID_ARGUMENT (NULL s or count, NULL arrays with cap > 0), or the status
 *   of solving.
 */
HT_API ht_status ht_solver_changes(ht_solver *s, ht_var *vars, double *values, size_t cap,
                                   size_t *count);

/**
 * Whether the variable's value is fixed by the constraints: true when every optimal solution
 * (required constraints exact, optional ones lexicographically best) gives it the same value;
 * false when the constraints leave it free (SEMANTICS 10.19), for example a variable in no
 * constraint, or in `x >= 0` alone, or pulled equally hard to two places. Exact: when the
 * solution's rows do not settle it at once, it minimizes and maximizes the variable over the
 * optimal solutions (the other values stay optimal, but a free one may change).
 */
HT_API ht_status ht_solver_is_determined(ht_solver *s, ht_var v, bool *out);

/** Counts: live variables, live constraints, tableau rows (any out may be NULL). */
HT_API ht_status ht_solver_stats(const ht_solver *s, size_t *variables, size_t *constraints,
                                 size_t *rows);

/**
 * Checks the tableau's invariants (basic variables in no row, column lists covering every
 * cell, restricted basics non-negative, the solution satisfying every required constraint,
 * parked ones included, every value within the range).
 * For tests. Returns HT_OK or HT_E_CORRUPT.
 */
HT_API ht_status ht_solver_validate(ht_solver *s);

#ifdef __cplusplus
}
#endif

#endif /* HITTEST_SOLVER_H */
