/*
 * geom.h - the one box type, the one conversion pair, the one slack rule and the one
 * corner-mapping routine that every derived structure (block grids, the answer grid, reach
 * boxes) uses.
 *
 * The slack rule. The exact walk converts a point level by level with rounding at every step;
 * a derived structure that decides something for a whole box of points (a cell's candidate
 * list, a cell's sure answer, the cells a node can reach) must decide it for a box widened
 * far beyond that rounding. One rule does it everywhere:
 *
 *     slack = HT_SLACK * (magnitude + 1) * conditioning
 *
 * - magnitude: the sum of the absolute values of the mapping's constants (center, anchor
 *   offset, translation) plus the largest absolute coordinate mapped or produced; for a
 *   box that is not mapped (a grid cell, a region used as a clip) the sum of its four edges;
 * - conditioning: 1 for a translation, else 1 + the 1-norm of the matrix applied, times any
 *   extra factor the caller needs (block boxes multiply by the transform's condition number,
 *   because the walk converts points with the computed inverse, not the matrix mapped here).
 * HT_SLACK (1e-9) is about 10^7 ulps of the magnitude: larger than any rounding of a few
 * operations, smaller than anything a screen can show. A bigger slack only makes the derived
 * structures more conservative (fewer sure cells, more candidates), never an answer different.
 */
#ifndef HT_GEOM_H
#define HT_GEOM_H

/* Results must be bit-identical to the Swift reference walk, which never fuses multiply-adds. */
#include "../shared/fp_contract.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define HT_SLACK 1e-9

/* The few helpers on the walk's hot path are always inlined (compilers otherwise may not). */
#if defined(__GNUC__) || defined(__clang__)
#define HT_HOT static inline __attribute__((always_inline))
#else
#define HT_HOT static inline
#endif

/* An axis-aligned box, min and max corners; empty when x0 > x1 or y0 > y1. */
typedef struct ht_box {
    double x0, y0, x1, y1;
} ht_box;

static inline double ht_maxabs(double m, double v) {
    v = fabs(v);
    return v > m ? v : m;
}

static inline int ht_box_finite(ht_box b) {
    return isfinite(b.x0) && isfinite(b.y0) && isfinite(b.x1) && isfinite(b.y1);
}

/* The slack of the rule above for an unmapped box. */
static inline double ht_box_slack(ht_box b) {
    return HT_SLACK * (fabs(b.x0) + fabs(b.x1) + fabs(b.y0) + fabs(b.y1) + 1);
}

static inline ht_box ht_box_widen(ht_box b, double m) {
    return (ht_box){b.x0 - m, b.y0 - m, b.x1 + m, b.y1 + m};
}

/* Every point of `b` lies in the half-open region [x0, x1) x [y0, y1). */
static inline int ht_box_inside(ht_box b, ht_box r) {
    return b.x0 >= r.x0 && b.x1 < r.x1 && b.y0 >= r.y0 && b.y1 < r.y1;
}

/* No point of `b` lies in the half-open region [x0, x1) x [y0, y1). */
static inline int ht_box_outside(ht_box b, ht_box r) {
    return b.x1 < r.x0 || b.x0 >= r.x1 || b.y1 < r.y0 || b.y0 >= r.y1;
}

/* `b` and the closed box `r` share no point. */
static inline int ht_box_disjoint_closed(ht_box b, ht_box r) {
    return b.x1 < r.x0 || b.x0 > r.x1 || b.y1 < r.y0 || b.y0 > r.y1;
}

/* ---- the conversions: one definition, used by the walk, conversion and every box ---- */

/* parent space -> local bounds space of a node whose parameters are given. */
HT_HOT void to_local(double x, double y, double cx, double cy, double offx, double offy,
                            const double inv[6], int identity, double *lx, double *ly) {
    double qx = x - cx, qy = y - cy, dx, dy;
    if (identity) {
        dx = qx;
        dy = qy;
    } else {
        dx = inv[0] * qx + inv[2] * qy + inv[4];
        dy = inv[1] * qx + inv[3] * qy + inv[5];
    }
    *lx = dx + offx;
    *ly = dy + offy;
}

/* local bounds space -> parent space: center + M (p - off) + t. The inverse of to_local. */
HT_HOT void to_parent(double x, double y, double cx, double cy, double offx, double offy,
                             const double m[6], int identity, double *px, double *py) {
    double dx = x - offx, dy = y - offy;
    if (identity) {
        *px = cx + dx;
        *py = cy + dy;
    } else {
        *px = cx + (m[0] * dx + m[2] * dy + m[4]);
        *py = cy + (m[1] * dx + m[3] * dy + m[5]);
    }
}

/* One level of the tree as a mapping: `m` is the forward matrix when `up` (local -> parent,
 * to_parent), the inverse when not (parent -> local, to_local). */
typedef struct ht_map {
    double cx, cy, offx, offy;
    const double *m;
    int identity, up;
} ht_map;

/* Corner (x, y) of a box mapped through `map`, taken into the bounding box `r` and the
 * magnitude `corners` of the slack rule. */
HT_HOT void ht_box_corner(const ht_map *map, double x, double y, ht_box *r, double *corners) {
    double px, py;
    if (map->up)
        to_parent(x, y, map->cx, map->cy, map->offx, map->offy, map->m, map->identity, &px, &py);
    else
        to_local(x, y, map->cx, map->cy, map->offx, map->offy, map->m, map->identity, &px, &py);
    r->x0 = px < r->x0 ? px : r->x0;
    r->x1 = px > r->x1 ? px : r->x1;
    r->y0 = py < r->y0 ? py : r->y0;
    r->y1 = py > r->y1 ? py : r->y1;
    *corners = ht_maxabs(ht_maxabs(ht_maxabs(ht_maxabs(*corners, x), y), px), py);
}

/*
 * The one corner-mapping routine: maps the four corners of `b` through `map`, writes their
 * bounding box widened by the slack rule (times `extra`, 1 unless the caller needs more) to
 * `*out`, and returns whether it is finite. The unwidened box goes to `*tight` when not NULL
 * (block boxes keep it to shrink a "surely covered" box inwards by the same slack).
 * A translation keeps the order of coordinates, so two corners, (x0, y0) and (x1, y1), give the
 * same box and magnitude, bit for bit, as all four: each value comes first in the same order,
 * and the minimum, the maximum and the magnitudes skip a NaN in any order.
 */
HT_HOT int ht_box_map(ht_box b, const ht_map *map, double extra, ht_box *out,
                             ht_box *tight, double *slack_out) {
    ht_box r = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    double corners = 0;
    ht_box_corner(map, b.x0, b.y0, &r, &corners);
    if (!map->identity) {
        ht_box_corner(map, b.x1, b.y0, &r, &corners);
        ht_box_corner(map, b.x0, b.y1, &r, &corners);
    }
    ht_box_corner(map, b.x1, b.y1, &r, &corners);
    double mag = fabs(map->cx) + fabs(map->cy) + fabs(map->offx) + fabs(map->offy) + corners;
    double cond = 1;
    if (!map->identity) {
        mag += fabs(map->m[4]) + fabs(map->m[5]);
        cond += fabs(map->m[0]) + fabs(map->m[1]) + fabs(map->m[2]) + fabs(map->m[3]);
    }
    double slack = HT_SLACK * (mag + 1) * cond * extra;
    if (tight) *tight = r;
    if (slack_out) *slack_out = slack;
    *out = ht_box_widen(r, slack);
    return ht_box_finite(*out) && isfinite(slack);
}

/* ---- grids ---- */

/* The grid cell of fractional coordinate `f` (a point's offset times cells per unit), clamped to
 * [0, n). Monotonic, so a box and every point in it land in the same range of cells; the block
 * grids, the answer grid and their lookups all use exactly this. */
HT_HOT int32_t grid_cell(double f, int32_t n) {
    return f > 0 ? (f < (double)n ? (int32_t)f : n - 1) : 0;
}

/* The flat index of the cell of (x, y) in an nx x ny grid at (gx0, gy0) with sx, sy cells per
 * unit, for a point the caller has checked is in the grid's domain: there the offsets are
 * non-negative, so grid_cell's lower clamp is not needed (the cell is the same). */
HT_HOT size_t grid_index(double x, double y, double gx0, double gy0, double sx, double sy,
                         int32_t nx, int32_t ny) {
    double fx = (x - gx0) * sx, fy = (y - gy0) * sy;
    int32_t ix = fx < (double)nx ? (int32_t)fx : nx - 1;
    int32_t iy = fy < (double)ny ? (int32_t)fy : ny - 1;
    return (size_t)iy * (size_t)nx + (size_t)ix;
}

HT_HOT int region_contains(double x0, double y0, double x1, double y1, double x, double y) {
    return x >= x0 && x < x1 && y >= y0 && y < y1;
}

#endif
