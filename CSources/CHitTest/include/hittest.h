/*
 * hittest.h - the public C API of HitTestKit's core.
 *
 * An `ht_tree` holds a forest of nodes (views) in structure-of-arrays storage and answers
 * UIKit's hit test (`-[UIView hitTest:withEvent:]`) and coordinate conversion over it, for one
 * point or for millions.
 *
 * Conventions
 * - Every function returns an `ht_status`; results go through out-parameters, which are left
 *   untouched on failure. Nothing here prints, exits, sets errno or keeps global state.
 * - Nodes are `ht_node` handles: a slot number and a generation. A handle of a freed node is
 *   reported as HT_E_STALE_NODE (until its slot has been reused 128 times), a handle that never
 *   existed as HT_E_BAD_NODE. HT_NULL_NODE (-1) means "no node".
 * - Geometry follows UIKit: a node has `center` (in its parent's bounds space), `bounds` (its
 *   own space), `anchor` (unit coordinates, default 0.5, 0.5) and an affine transform applied
 *   about the anchor. Local -> parent: A = bounds.origin + anchor * bounds.size; d = p - A;
 *   p' = center + (a*d.x + c*d.y + tx, b*d.x + d*d.y + ty).
 * - Every double argument must be finite (HT_E_NOT_FINITE otherwise), except the points given
 *   to the hit-test functions: a non-finite point is never inside anything, as in UIKit.
 *
 * Thread safety
 * - A tree is not internally locked. Mutating calls must not run concurrently with any other
 *   call on the same tree.
 * - Queries never write the tree (read-only contract). Hit tests need a prepared tree: after
 *   any mutation, call `ht_tree_prepare` (and `ht_tree_prepare_points` for bulk speed) first;
 *   a hit test on a tree changed since then returns HT_E_NOT_PREPARED and writes nothing.
 *   After preparing and before the next mutation, any number of threads may run
 *   `ht_tree_hit_test*` (without hooks) and `ht_tree_convert_point` on it at once, from any
 *   roots. A query from a root whose answer grid is missing or out of date takes the exact
 *   walk for every point (same answers, slower); it never builds the grid itself.
 * - A query with hooks writes one counter (so that hooks cannot mutate the tree): queries with
 *   hooks must not run concurrently with each other on one tree.
 * - Distinct trees are fully independent.
 */
#ifndef HITTEST_H
#define HITTEST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the library's API: the only symbols the shared library exports (internal code is built
 * with hidden visibility). */
#if defined(__GNUC__) || defined(__clang__)
#define HT_API __attribute__((visibility("default")))
#else
#define HT_API
#endif

/** Status of every call. `ht_status_string` names each one. */
typedef enum ht_status {
    HT_OK = 0,
    /** An allocation failed; the tree is unchanged and still usable. */
    HT_E_NO_MEMORY = 1,
    /** A NULL pointer, a negative count or position, or an unknown flag bit. */
    HT_E_INVALID_ARGUMENT = 2,
    /** A handle that no node of this tree ever had. */
    HT_E_BAD_NODE = 3,
    /** A handle of a node that has been freed. */
    HT_E_STALE_NODE = 4,
    /** A NaN or infinite number where a finite one is required. */
    HT_E_NOT_FINITE = 5,
    /** Attaching would make a node its own ancestor (UIKit raises here). */
    HT_E_CYCLE = 6,
    /** The tree holds HT_MAX_NODES nodes already. */
    HT_E_CAPACITY = 7,
    /** A conversion passes through a singular transform; the result would not be finite. */
    HT_E_SINGULAR = 8,
    /** A hook returned an error; the hit test was abandoned. */
    HT_E_HOOK_FAILED = 9,
    /** Data read from a file or buffer is truncated or corrupt. */
    HT_E_CORRUPT = 10,
    /** A file could not be opened, read or written. */
    HT_E_IO = 11,
    /** A mutation from inside a hook, while a hit test is using the tree. */
    HT_E_BUSY = 12,
    /** A query on a tree changed since the last `ht_tree_prepare`: queries never write. */
    HT_E_NOT_PREPARED = 13,
    /** A hit_test hook answered a node that is not in this tree (it returned HT_HOOK_FOREIGN). */
    HT_E_FOREIGN_ANSWER = 14,
    /** The constraint solver (hittest_solver.h): required constraints conflict; nothing changed. */
    HT_E_UNSATISFIABLE = 15,
    /** A solver variable or constraint handle that was never issued or has been freed. */
    HT_E_BAD_HANDLE = 16,
    /** A solver variable still used by a constraint cannot be freed. */
    HT_E_IN_USE = 17,
    /** A constraint's priority cannot change between required (1000) and optional. */
    HT_E_REQUIRED_PRIORITY = 18,
    /** A caller's buffer is smaller than the result: the size needed was written, nothing else. */
    HT_E_BUFFER_TOO_SMALL = 19
} ht_status;

/** A node handle. Results of hit tests are handles too. */
typedef int32_t ht_node;

/** "No node": a hit test that reaches nothing, a root's parent. */
#define HT_NULL_NODE ((ht_node)-1)
/** Written by a hit test for a point whose answer needs a hook when no hooks were given. */
#define HT_PENDING_NODE ((ht_node)-2)
/** The largest number of live nodes in one tree (slots are 24 bits). */
#define HT_MAX_NODES 16777215

/** Node flags (`ht_node_set_flags`). Everything clear is UIKit's default view. */
enum {
    /** `isHidden`: the node and its subtree are never hit. */
    HT_FLAG_HIDDEN = 1u << 0,
    /** `!isUserInteractionEnabled`: the node and its subtree are never hit. */
    HT_FLAG_NO_INTERACTION = 1u << 1,
    /** `passesTouchesThrough`: the node itself is never the hit; its subtree still is. */
    HT_FLAG_PASS_THROUGH = 1u << 2,
    /** `capturesSubviewTouches`: a hit inside returns the node; children are not searched. */
    HT_FLAG_CAPTURES = 1u << 3,
    /** `allowsSubviewHitsOutsideBounds`: children are searched even outside the region. */
    HT_FLAG_OUTSIDE_HITS = 1u << 4,
    /** The region test of this node lives in the caller: `hooks->point_inside` decides it. */
    HT_FLAG_ASK_POINT_INSIDE = 1u << 5,
    /** The whole hit test of this node lives in the caller: `hooks->hit_test` answers it. */
    HT_FLAG_ASK_HIT_TEST = 1u << 6,
    /** Kept but not interpreted (`clipsToBounds` plays no part in UIKit's hit test). */
    HT_FLAG_CLIPS = 1u << 7,
    /**
     * Not interactive for a reason of the caller's own (a binding's animation in flight): hit
     * tests treat it as HT_FLAG_NO_INTERACTION. Kept apart from that flag so that a binding
     * keeping its objects' state in the tree alone stores its model's flag unchanged.
     */
    HT_FLAG_BLOCKED = 1u << 8
};
/** Every flag bit that `ht_node_set_flags` accepts. */
#define HT_FLAG_ALL 0x1FFu

/** An affine transform in CGAffineTransform order: x' = a*x + c*y + tx, y' = b*x + d*y + ty. */
typedef struct ht_affine {
    double a, b, c, d, tx, ty;
} ht_affine;

/**
 * Callbacks for nodes whose test lives in the caller (HT_FLAG_ASK_*). Points are in the node's
 * own bounds space. A hook may call back into this tree's hit-test functions (for the default
 * behaviour, `ht_tree_hit_test_default`) but must not mutate the tree: mutations return
 * HT_E_BUSY while a hit test with hooks is running. Hit tests with hooks must not run
 * concurrently with each other on one tree (hit tests without hooks may run beside them).
 */
typedef struct ht_hooks {
    /** Passed to both callbacks. */
    void *context;
    /** Returns 1 if (x, y) is inside `node`, 0 if not, negative to abandon the hit test. */
    int (*point_inside)(void *context, ht_node node, double x, double y);
    /**
     * Writes the hit (a node or HT_NULL_NODE) to `*out`; returns 0, HT_HOOK_FOREIGN when the
     * answer is a node of another tree (the query then ends with HT_E_FOREIGN_ANSWER and the
     * caller, which knows that node, has the answer), or another non-zero value to abandon
     * (HT_E_HOOK_FAILED).
     */
    int (*hit_test)(void *context, ht_node node, double x, double y, ht_node *out);
} ht_hooks;

/** What a hit_test hook returns when its answer is a node outside this tree. */
#define HT_HOOK_FOREIGN 2

/** The opaque tree. */
typedef struct ht_tree ht_tree;

/** A short English description of `status` (a static string; never NULL). */
HT_API const char *ht_status_string(ht_status status);

/* ---- Trees ------------------------------------------------------------------------------ */

/**
 * Creates an empty tree with room for `capacity_hint` nodes before it grows (0 is fine).
 * The caller owns the tree and frees it with `ht_tree_destroy`.
 * - Returns: HT_E_INVALID_ARGUMENT (NULL out, negative hint), HT_E_NO_MEMORY.
 * - Limits: at most HT_MAX_NODES live nodes; about 400 bytes per node for the base rows, plus
 *   120 bytes per child in its parent's derived block, plus the answer grid (at most 1 MiB).
 *   When memory runs out, the call that needed it returns HT_E_NO_MEMORY and the tree is left
 *   as it was before that call, still valid and usable.
 */
HT_API ht_status ht_tree_create(int32_t capacity_hint, ht_tree **out_tree);

/** Frees the tree and everything in it. NULL is ignored. Handles into it become meaningless. */
HT_API void ht_tree_destroy(ht_tree *tree);

/** The number of live nodes. */
HT_API ht_status ht_tree_node_count(const ht_tree *tree, int32_t *out_count);

/**
 * Brings the derived query structures up to date with every mutation so far, rebuilding only
 * what changed. Hit tests need it after any mutation (HT_E_NOT_PREPARED otherwise); they only
 * read the tree (see "Thread safety").
 * - Complexity: O(children of every node whose children changed since the last call).
 */
HT_API ht_status ht_tree_prepare(ht_tree *tree);

/**
 * Checks every internal invariant: links, counts, flags, free list, and the derived
 * structures against the rows (every block not marked dirty equals a rebuild from the rows;
 * the dirty list and marks agree; a sample of the answer grid's sure cells, at most 512, agree
 * with the exact walk at their corners and centers). For tests and fuzzers.
 * - Returns: HT_OK, HT_E_NO_MEMORY, or HT_E_CORRUPT naming nothing more (a bug in this library).
 * - Complexity: O(nodes + children of every node) plus the sampled walks.
 */
HT_API ht_status ht_tree_validate(const ht_tree *tree);

/**
 * Opens a batch of mutations (nestable; the outermost `ht_tree_end_batch` closes it), for a
 * layout pass that moves many nodes at once. Mutations inside a batch are the same calls with
 * the same effects; only the answer grid's invalidation is gathered: each changed node's old
 * reach is invalidated at its first change, its new reach once at the end, and past 256
 * changed nodes the grid is dropped once instead (the next `ht_tree_prepare_points` rebuilds
 * it). While a batch is open, queries do not use the answer grid (they take the exact walk).
 * - Returns: HT_E_BUSY from inside a hook.
 */
HT_API ht_status ht_tree_begin_batch(ht_tree *tree);

/** Closes a batch (see `ht_tree_begin_batch`); HT_E_INVALID_ARGUMENT when none is open. */
HT_API ht_status ht_tree_end_batch(ht_tree *tree);

/* ---- Nodes ------------------------------------------------------------------------------ */
/*
 * Every function in this section mutates the tree (except the getters) and must not run
 * concurrently with any other call on the same tree. Handles stay valid until the node is
 * freed or the tree destroyed; they are plain integers, so they can be stored anywhere and
 * survive a snapshot file round trip.
 */

/**
 * Creates a detached node (a root) with UIKit's defaults for `View(frame: .zero)`: zero center
 * and bounds, anchor (0.5, 0.5), identity transform, alpha 1, no flags, priority 0.
 * - Returns: HT_E_CAPACITY, HT_E_NO_MEMORY (tree unchanged).
 */
HT_API ht_status ht_node_create(ht_tree *tree, ht_node *out_node);

/**
 * Frees `node`: it is detached from its parent and its children become roots.
 * - Complexity: O(children).
 */
HT_API ht_status ht_node_free(ht_tree *tree, ht_node node);

/**
 * Makes `child` the child of `parent` at `position` in back-to-front order (0 is the bottom).
 * A position past the end appends (on top). If `child` already has a parent it is detached
 * first, and the position applies after that removal (UIKit's insertSubview:atIndex:).
 * - Returns: HT_E_CYCLE if `parent` is `child` or one of its descendants;
 *   HT_E_INVALID_ARGUMENT for a negative position.
 * - Complexity: O(depth of parent) for the cycle check, O(position) to find the spot.
 */
HT_API ht_status ht_node_attach(ht_tree *tree, ht_node child, ht_node parent, int32_t position);

/** Detaches `node` from its parent (it becomes a root with its subtree). A root is unchanged. */
HT_API ht_status ht_node_detach(ht_tree *tree, ht_node node);

/** The parent of `node`, or HT_NULL_NODE for a root. */
HT_API ht_status ht_node_parent(const ht_tree *tree, ht_node node, ht_node *out_parent);

/** The number of children of `node`. */
HT_API ht_status ht_node_child_count(const ht_tree *tree, ht_node node, int32_t *out_count);

/** The child at `index` in back-to-front order. */
HT_API ht_status ht_node_child_at(const ht_tree *tree, ht_node node, int32_t index, ht_node *out_child);

/**
 * The children of `node` in the order a hit test searches them: UIKit's, the last child first,
 * except that among siblings a higher priority (`ht_node_set_priority`) goes first. Writes
 * them to `out` and their number to `*out_count`.
 * - Returns: HT_E_BUFFER_TOO_SMALL when `capacity` is less than the child count (then only
 *   `*out_count` is written: the capacity needed); HT_E_INVALID_ARGUMENT for a NULL
 *   `out_count`, or a NULL `out` with a non-zero capacity; HT_E_NO_MEMORY.
 * - Complexity: O(children), O(children log children) when some have a priority.
 */
HT_API ht_status ht_node_search_order(const ht_tree *tree, ht_node node, ht_node *out,
                                      size_t capacity, size_t *out_count);

/** Sets the center (in the parent's bounds space). */
HT_API ht_status ht_node_set_center(ht_tree *tree, ht_node node, double x, double y);

/**
 * Places children of `parent` at untransformed frames, as a layout pass applies the frames Auto
 * Layout solved: node `nodes[i]` gets the frame `frames[4i]`, `frames[4i + 1]` (origin, in the
 * parent's bounds space), `frames[4i + 2]`, `frames[4i + 3]` (width, height). A node whose bounds
 * size is that width and height gets the center `x + anchor.x * width`, `y + anchor.y * height`
 * (each the write of ht_node_set_center), unless the frame it has, `center - anchor * size`, is
 * that frame already. A node whose size differs is left as it is and its index `i` written to
 * `resize` (room for `count`), `*resize_count` of them, for the caller to set its bounds and
 * center; a node that is not a child of `parent` is left as it is.
 *
 * Checks every node and value before the first write, in this order: `parent` (as any mutator,
 * HT_E_BUSY inside a query with hooks), the pointers (HT_E_INVALID_ARGUMENT), then each entry
 * in turn: HT_E_STALE_NODE or HT_E_BAD_NODE for a node that is not one, HT_E_NOT_FINITE for a
 * NaN or infinite value, or for a child of `parent` whose center would not be finite; a refused
 * call changes nothing and leaves `*resize_count` as it was.
 * - Complexity: O(count), and each moved node's cost in ht_node_set_center.
 */
HT_API ht_status ht_tree_set_layout_frames(ht_tree *tree, ht_node parent, const ht_node *nodes,
                                           const double *frames, size_t count, uint32_t *resize,
                                           size_t *resize_count);

/** Sets the bounds (origin and size, in the node's own space). */
HT_API ht_status ht_node_set_bounds(ht_tree *tree, ht_node node, double x, double y, double width,
                             double height);

/** Sets the anchor point in unit coordinates. */
HT_API ht_status ht_node_set_anchor(ht_tree *tree, ht_node node, double x, double y);

/**
 * Sets the transform (applied about the anchor point). A singular transform is accepted: the
 * node and its subtree can then never be hit, and conversions into it fail with HT_E_SINGULAR.
 */
HT_API ht_status ht_node_set_transform(ht_tree *tree, ht_node node, const ht_affine *transform);

/** Sets the flags (HT_FLAG_*); unknown bits are HT_E_INVALID_ARGUMENT. */
HT_API ht_status ht_node_set_flags(ht_tree *tree, ht_node node, uint32_t flags);

/** Reads the flags. */
HT_API ht_status ht_node_flags(const ht_tree *tree, ht_node node, uint32_t *out_flags);

/**
 * Everything stored for one node, as set (no derived values): what `ht_node_get_record` reads
 * back, so a caller that mirrors its own objects into the tree can check that they agree.
 */
typedef struct ht_node_record {
    double center_x, center_y;
    double bounds_x, bounds_y, bounds_w, bounds_h;
    double anchor_x, anchor_y;
    ht_affine transform;
    double alpha;
    double inset_top, inset_left, inset_bottom, inset_right;
    uint32_t flags;    /* HT_FLAG_* only */
    int32_t priority;
    ht_node parent;    /* HT_NULL_NODE for a root */
    int32_t child_count;
} ht_node_record;

/**
 * Reads the stored values of `node` into `out` (untouched on failure). For consistency checks
 * and debugging; O(1).
 */
HT_API ht_status ht_node_get_record(const ht_tree *tree, ht_node node, ht_node_record *out);

/**
 * Where a node is, as set: the first members of `ht_node_record`, what a caller that keeps its
 * views' geometry in the tree alone reads back on every access.
 */
typedef struct ht_node_geometry {
    double center_x, center_y;
    double bounds_x, bounds_y, bounds_w, bounds_h;
    double anchor_x, anchor_y;
    ht_affine transform;
} ht_node_geometry;

/** Reads the center, bounds, anchor point and transform of `node` into `out` (untouched on failure); O(1). */
HT_API ht_status ht_node_get_geometry(const ht_tree *tree, ht_node node, ht_node_geometry *out);

/** The slot of a node handle (its low bits): the index of its values in `ht_rows`. */
#define HT_SLOT_MASK 0xFFFFFFu

/**
 * Read-only pointers to the stored rows of a tree, indexed by the slot of a live node
 * (`node & HT_SLOT_MASK`): for a binding that keeps its objects' stored values in the tree alone
 * and reads them back without a call. Transform `a`..`ty`; `flags` holds internal bits above
 * HT_FLAG_ALL (mask them off). The struct lives as long as the tree, and its members always
 * point at the current rows (creating a node may move the rows; it updates them), so a caller
 * keeps the struct's address, not the members. Write only through the setters.
 */
typedef struct ht_rows {
    const double *center_x, *center_y;
    const double *bounds_x, *bounds_y, *bounds_w, *bounds_h;
    const double *anchor_x, *anchor_y;
    const double *a, *b, *c, *d, *tx, *ty;
    const double *alpha;
    const double *inset_top, *inset_left, *inset_bottom, *inset_right;
    const uint32_t *flags;
    const int32_t *priority;
} ht_rows;

/** The stored rows of `tree` (above), valid until `ht_tree_destroy`; NULL for a NULL tree. */
HT_API const ht_rows *ht_tree_rows(const ht_tree *tree);

/** Sets alpha. Below 0.01 (strictly) the node and its subtree are never hit, as in UIKit. */
HT_API ht_status ht_node_set_alpha(ht_tree *tree, ht_node node, double alpha);

/**
 * Sets the hit-test insets: the region a point must fall in is the bounds inset by these
 * (UIEdgeInsetsInsetRect). Negative insets grow it.
 */
HT_API ht_status ht_node_set_insets(ht_tree *tree, ht_node node, double top, double left,
                             double bottom, double right);

/** Sets the hit-test priority: among siblings, higher is searched first; ties, the later first. */
HT_API ht_status ht_node_set_priority(ht_tree *tree, ht_node node, int32_t priority);

/* ---- Queries ---------------------------------------------------------------------------- */
/*
 * Queries only read a prepared tree (see "Thread safety" at the top): after `ht_tree_prepare`
 * (and `ht_tree_prepare_points` for the answer grid), any number of threads may query at once;
 * on a tree changed since `ht_tree_prepare` every hit test returns HT_E_NOT_PREPARED.
 * Hooks are called on the thread that made the query, synchronously, and may re-enter the
 * query functions for the same tree but must not mutate it. Results are written to caller
 * buffers; nothing a query returns needs freeing.
 */

/**
 * UIKit's `[node hitTest:(x, y) withEvent:]`, with (x, y) in `node`'s bounds space, the ancestors
 * of `node` not consulted. Writes the hit or HT_NULL_NODE to `*out`; HT_PENDING_NODE when the
 * answer needs a hook and `hooks` is NULL. A non-finite point hits nothing (HT_OK).
 * - Complexity: O(1) where the node's answer grid (ht_tree_prepare_points) surely decides the
 *   point; else O(depth of the answer x candidates per level), a node with many children being
 *   searched through a grid of their boxes, so only children near the point are tested.
 */
HT_API ht_status ht_tree_hit_test(ht_tree *tree, ht_node node, double x, double y,
                           const ht_hooks *hooks, ht_node *out);

/**
 * UIKit's `[super hitTest:withEvent:]` for a node with HT_FLAG_ASK_HIT_TEST: the default hit
 * test of `node` without calling its own hit_test hook (children's hooks are still called).
 * Meant for use inside a hit_test hook.
 */
HT_API ht_status ht_tree_hit_test_default(ht_tree *tree, ht_node node, double x, double y,
                                   const ht_hooks *hooks, ht_node *out);

/**
 * `ht_tree_hit_test` without hooks, for a caller that has the tree to itself during the call
 * (no other thread reads or writes it): unlike every other query it may write, so that one
 * point at a time between changes gets the answer grid's speed with nobody preparing it. It
 * prepares a changed tree first (`ht_tree_prepare`); after 64 such queries (since the tree was
 * made, or since a change dropped its grid) it starts an answer grid for `node` (replacing one
 * made for another node only after 1,024) whose cells it computes one by one, each when a
 * second point lands in it. A change marks the cells it reaches to be computed again, and one that reaches more
 * than an eighth of a grid started here drops it (a scroll: started again 64 queries later).
 * Once the queries its cells do not decide have cost about what the full grid costs to build
 * (4 per cell of the full grid), it builds the full grid (what `ht_tree_prepare_points` builds),
 * so that a static scene reaches the prepared speed. Same answers as `ht_tree_hit_test` with
 * `hooks` NULL (HT_PENDING_NODE where a hook would be needed); `ht_tree_prepare_points`
 * completes the grid at once.
 * - Returns: as `ht_tree_hit_test`, or the status of the prepare; HT_E_BUSY inside a query
 *   with hooks (use `ht_tree_hit_test` there).
 * - Complexity: O(1) where the grid's cell is sure; a cell's second point also walks the
 *   cell's box (a few times a point's walk); else as `ht_tree_hit_test`.
 */
HT_API ht_status ht_tree_hit_test_caching(ht_tree *tree, ht_node node, double x, double y,
                                   ht_node *out);

/** What a traced hit test decided at one step (`ht_trace_step.decision`). */
typedef enum ht_trace_decision {
    /** The node is hidden (HT_FLAG_HIDDEN): nil, its subtree is not searched. */
    HT_TRACE_HIDDEN = 1,
    /** The node is not interactive (HT_FLAG_NO_INTERACTION): nil, its subtree not searched. */
    HT_TRACE_NO_INTERACTION = 2,
    /** The node's alpha is below 0.01: nil, its subtree is not searched. */
    HT_TRACE_TRANSPARENT = 3,
    /** The point is outside the node's region (its point_inside hook said so, with
     * HT_TRACE_ASKED), and the node does not search outside it (HT_FLAG_OUTSIDE_HITS): nil. */
    HT_TRACE_OUTSIDE = 4,
    /** As HT_TRACE_OUTSIDE, because the node's transform is singular: the point from its
     * parent has no place in its space (it is NaN). Never the first step's. */
    HT_TRACE_SINGULAR = 5,
    /** The node's children are searched next (`children` of them, in search order; 0 for a
     * node without children), the point inside the region or, with HT_FLAG_OUTSIDE_HITS,
     * outside it (HT_TRACE_INSIDE says which). Their steps follow, one level deeper. */
    HT_TRACE_SEARCH = 6,
    /** The node captures its children's touches (HT_FLAG_CAPTURES): they are not searched. */
    HT_TRACE_CAPTURE = 7,
    /** The node's hit_test hook answered (HT_FLAG_ASK_HIT_TEST): `answer` is its answer, a
     * node or HT_NULL_NODE. HT_PENDING_NODE when the hook answered a node of another tree
     * (HT_E_FOREIGN_ANSWER), or when the node needs a hook and `hooks` has none (then with
     * HT_TRACE_ASKED for a point_inside hook), as the walk answers. */
    HT_TRACE_HOOK = 8,
    /** No child took the point and it is inside: the node is the answer (the last step). */
    HT_TRACE_HIT = 9,
    /** No child took the point; it is inside, but the node passes touches through: nil. */
    HT_TRACE_PASS_THROUGH = 10,
    /** No child took the point, and it is outside (HT_FLAG_OUTSIDE_HITS searched them): nil. */
    HT_TRACE_NIL = 11
} ht_trace_decision;

/** `ht_trace_step.flags`: the point is inside the node's region (or its point_inside hook). */
#define HT_TRACE_INSIDE 1u
/** `ht_trace_step.flags`: the node's point_inside hook decided the region test. */
#define HT_TRACE_ASKED 2u

/**
 * One step of a traced hit test. Each node the walk tests (UIKit calls its hitTest) has one
 * step that decides it (HT_TRACE_HIDDEN to HT_TRACE_HOOK); a node whose children were searched,
 * or that has none or captures them, has a second step once they all answered nil
 * (HT_TRACE_HIT, HT_TRACE_PASS_THROUGH or HT_TRACE_NIL), at the same depth.
 */
typedef struct ht_trace_step {
    ht_node node;
    int32_t depth;    /* levels below the node the query started at (0 for that node) */
    double x, y;      /* the point in the node's bounds space */
    int32_t decision; /* ht_trace_decision */
    uint32_t flags;   /* HT_TRACE_INSIDE, HT_TRACE_ASKED */
    int32_t children; /* HT_TRACE_SEARCH: the children searched; else 0 */
    ht_node answer;   /* HT_TRACE_HOOK: the hook's answer; HT_TRACE_HIT: the node; else HT_NULL_NODE */
} ht_trace_step;

/**
 * `ht_tree_hit_test` with its trail: runs the same walk for one point, with (x, y) in `node`'s
 * bounds space, and writes every step it takes, in order, to `steps` (see `ht_trace_step`),
 * their number to `*out_count` and the answer to `*out` (as `ht_tree_hit_test` answers).
 * Every child of a searched node has its step, in search order, also those the untraced walk
 * skips without testing (children that can never be hit, and those its grids leave out): the
 * trail is UIKit's, one decision per hitTest call. The answer grid is not used. Hooks are
 * called as by `ht_tree_hit_test`; a hit_test hook's own walk (`ht_tree_hit_test_default`) is
 * not traced: its answer is the HT_TRACE_HOOK step's.
 * - Returns: as `ht_tree_hit_test`; HT_E_BUFFER_TOO_SMALL when the trail has more than
 *   `capacity` steps (then only `*out_count` is written: the capacity needed; a call with a
 *   capacity of 0 measures the trail); HT_E_INVALID_ARGUMENT for a NULL `out_count` or `out`,
 *   or NULL `steps` with a non-zero capacity. On HT_E_FOREIGN_ANSWER the steps and their count
 *   are written too, the hook's step last.
 * - Complexity: O(nodes tested), at most two steps per node of the subtree; memory O(depth +
 *   children of the nodes searched) besides the caller's buffer.
 */
HT_API ht_status ht_tree_hit_test_trace(ht_tree *tree, ht_node node, double x, double y,
                                        const ht_hooks *hooks, ht_trace_step *steps,
                                        size_t capacity, size_t *out_count, ht_node *out);

/**
 * Prepares bulk queries from `node`: brings the derived structures up to date and builds the
 * node's answer grid, a grid over its region whose cells hold the answer every point of the
 * cell surely gets (proved at build time with margins far above rounding), so that most points
 * of a bulk query are answered by one lookup and the rest by the exact walk. The answers are
 * those of `ht_tree_hit_test` either way. One grid per tree (for the last node prepared); a
 * mutation invalidates the cells its node can reach (or the whole grid), and this call
 * recomputes them. Queries never build or refresh it: queries from other roots, or over cells
 * a mutation invalidated, take the exact walk.
 * - Complexity: O(cells x depth), with 64 cells per node, between 4,096 and 262,144 (16-bit
 *   codes), and 16 sub-cells for each cell that is not sure (at most 4 MiB in all).
 */
HT_API ht_status ht_tree_prepare_points(ht_tree *tree, ht_node node);

/**
 * As `ht_tree_prepare_points` before a bulk query of `points` points, but builds the grid's
 * sub-grids (the costly part of a build: 16 box walks for each cell that is not sure) only once
 * the points announced through this call since the grid was built reach 64 per cell, so that
 * a first bulk query after a build or a change at the root does not pay for sub-grids its
 * points would not repay. Until then the cells that are not sure are left to the exact walk;
 * the answers are the same either way. `ht_tree_prepare_points` builds any pending sub-grids
 * at once.
 * - Complexity: O(cells x depth) for a new grid; the pending sub-grids as in
 *   `ht_tree_prepare_points` when built.
 */
HT_API ht_status ht_tree_prepare_points_for(ht_tree *tree, ht_node node, size_t points);

/** From this many points on, a bulk query gains from an answer grid prepared first (the Swift
 * layer prepares one for such calls). */
#define HT_BULK_GRID_MIN 65536

/**
 * Hit-tests `count` points given as interleaved x, y doubles (`xy[2*i]`, `xy[2*i+1]`) into
 * `out[i]`. Same answers as `ht_tree_hit_test` for each point.
 */
HT_API ht_status ht_tree_hit_test_points(ht_tree *tree, ht_node node, const double *xy, size_t count,
                                  const ht_hooks *hooks, ht_node *out);

/** As `ht_tree_hit_test_points`, with separate x and y arrays. */
HT_API ht_status ht_tree_hit_test_xy(ht_tree *tree, ht_node node, const double *xs, const double *ys,
                              size_t count, const ht_hooks *hooks, ht_node *out);

/**
 * As `ht_tree_hit_test_points`, with the i-th point at (`xs[i * stride]`, `ys[i * stride]`):
 * one entry point for interleaved points (`ys = xs + 1`, stride 2) and separate arrays
 * (stride 1).
 */
HT_API ht_status ht_tree_hit_test_strided(ht_tree *tree, ht_node node, const double *xs,
                                          const double *ys, size_t stride, size_t count,
                                          const ht_hooks *hooks, ht_node *out);

/**
 * Converts (x, y) from `from`'s bounds space to `to`'s (UIKit's convertPoint:toView:), through
 * their nearest common ancestor; nodes under different roots meet in the roots' parent space.
 * - Returns: HT_E_SINGULAR when the path down passes through a singular transform,
 *   HT_E_NOT_FINITE for a non-finite point or result.
 * - Complexity: O(depth).
 */
HT_API ht_status ht_tree_convert_point(const ht_tree *tree, ht_node from, ht_node to, double x,
                                double y, double *out_x, double *out_y);

/* ---- Snapshot files ----------------------------------------------------------------------- */

/**
 * Serialises `tree` into a new buffer (versioned header, FNV-1a 64 checksum, little-endian):
 * every node with its geometry, flags and links, and its handle (slots and generations are
 * kept, so handles stay valid in the process that loads it). Free the buffer with `ht_free`.
 * Derived structures are not stored; prepare the loaded tree before querying it.
 * - Thread safety: reads the tree; may run beside queries, not beside mutations.
 * - Complexity: O(slots); about 188 bytes per slot.
 */
HT_API ht_status ht_tree_save(const ht_tree *tree, void **out_buffer, size_t *out_length);

/**
 * Loads a tree saved by `ht_tree_save`. Every byte is checked before the tree is returned:
 * sizes, magic, version, checksum, ranges, finite numbers, links and acyclicity; a truncated,
 * corrupted or hostile buffer returns HT_E_CORRUPT (never a crash or an out-of-bounds read),
 * and nothing is allocated on failure. The caller owns the new tree.
 */
HT_API ht_status ht_tree_load(const void *buffer, size_t length, ht_tree **out_tree);

/** `ht_tree_save` into a file (HT_E_IO when it cannot be written). */
HT_API ht_status ht_tree_save_file(const ht_tree *tree, const char *path);

/** `ht_tree_load` from a file (HT_E_IO when it cannot be read). */
HT_API ht_status ht_tree_load_file(const char *path, ht_tree **out_tree);

/** Frees a buffer returned by this library (`ht_tree_save`). NULL is ignored. */
HT_API void ht_free(void *buffer);

/* ---- Snapshots and statistics ------------------------------------------------------------ */

/**
 * Makes an independent copy of `tree` (prepared first), with the same handles. A copy that is
 * never mutated can be queried from any number of threads while the original keeps changing.
 * - Returns: HT_E_NO_MEMORY (nothing allocated is left behind).
 * - Complexity: O(nodes).
 */
HT_API ht_status ht_tree_clone(ht_tree *tree, ht_tree **out_copy);

/** Bytes held by the tree: base arrays (at their capacity) and derived blocks. */
HT_API ht_status ht_tree_memory_usage(const ht_tree *tree, size_t *out_bytes);

/**
 * As `ht_tree_hit_test_points` without hooks, and also adds to `*tests` the number of nodes
 * the walk tested (each node whose flags and region were checked). With `use_answer_grid`
 * non-zero, points answered by a valid answer grid count no tests. For measuring.
 */
HT_API ht_status ht_tree_hit_test_points_counted(ht_tree *tree, ht_node node, const double *xy,
                                          size_t count, int use_answer_grid, ht_node *out,
                                          uint64_t *tests);

/**
 * What the answer grid of `node` (ht_tree_prepare_points) holds: its bytes (cells, palette and
 * lookup table), its cell count and how many cells hold a sure answer. All zero when the tree
 * has no usable grid for `node`. Any pointer may be NULL. For measuring.
 */
HT_API ht_status ht_tree_answer_grid_stats(const ht_tree *tree, ht_node node, size_t *out_bytes,
                                           size_t *out_cells, size_t *out_sure_cells);

/** How the answer grid of `node` decides a point (`ht_tree_answer_grid_decision`). */
typedef enum ht_grid_decision {
    HT_GRID_WALK = 0, /**< left to the walk (no usable grid, a cell not sure, outside the grid) */
    HT_GRID_CELL = 1, /**< by its cell, or the cell's sub-grid, alone */
    HT_GRID_LIST = 2  /**< by the cell's candidate list (the cell itself is not sure) */
} ht_grid_decision;

/**
 * How the answer grid of `node` decides (x, y), in `node`'s bounds space, for a bulk query:
 * written to `*out` (an `ht_grid_decision`). Reads only, as queries do. For measuring which
 * points take which path.
 */
HT_API ht_status ht_tree_answer_grid_decision(const ht_tree *tree, ht_node node, double x, double y,
                                              int *out);

#ifdef __cplusplus
}
#endif

#endif /* HITTEST_H */
