/*
 * hitq.h - the hit-query subsystem: everything derived from the base rows to answer hit tests
 * fast. Included by internal.h (which embeds `htq_state` in `struct ht_tree`); its own files are
 * hitq.c (protocol glue, prepare, batch, validation), index.c (blocks), answers.c (answer
 * grid) and hit_test.c (the walk, read-only).
 *
 * - Derived blocks, one per node with children: the children that can possibly be hit, packed
 *   in search order (topmost first) with everything the walk needs, plus a uniform grid over
 *   the parent's space when there are many of them. Rebuilt by ht_tree_prepare, only for the
 *   parents marked dirty. The walk reads only blocks and never the base arrays of children.
 * - The answer grid of one query root (answers.c).
 *
 * The read-only contract: queries (hit_test.c) take a `const ht_tree *` for everything they
 * read; the only write a query makes is the `hooked` counter, and only when it is given hooks.
 * A query never builds or refreshes anything: on a tree with dirty blocks it returns
 * HT_E_NOT_PREPARED, and where the answer grid is missing, stale (another root) or inside an
 * open batch, it takes the exact walk.
 */
#ifndef HT_HITQ_H
#define HT_HITQ_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef struct ht_tree ht_tree;

/*
 * One hit-test candidate, packed for the walk (120 bytes). Everything needed to convert a point
 * from the parent's space and test it: the same arithmetic as the Swift reference, in the same
 * order, so the answers are the same to the last bit.
 */
typedef struct kid {
    int32_t slot;
    uint32_t flags; /* public flags | K_* bits */
    double cx, cy;                   /* center, in the parent's bounds space */
    double offx, offy;               /* bounds.origin + anchor * bounds.size */
    double x0, y0, x1, y1;           /* region: bounds inset by the hit-test insets, min/max */
    double inv[6];                   /* inverse transform a b c d tx ty (NaN when singular) */
} kid;

/*
 * The compact record of one candidate, what the walk reads for a candidate it tests (40 bytes,
 * beside the 120-byte `kid`). For an eligible candidate without hooks whose transform is the
 * identity (K_FAST in `flags`), the region test of the converted point, (x - cx) + offx in
 * [x0, x1) and the same in y, is the test x in [tx0, tx1), y in [ty0, ty1) of the point in the
 * parent's space, exactly: x -> (x - cx) + offx is monotonic (each rounded step is), so the x
 * that pass are all those from the smallest one that does (tx0) up to, and not including, the
 * smallest one whose image reaches x1 (tx1); both found when the block is built (index.c) and
 * proved by ht_tree_validate. Other candidates take the full test from `kid`.
 */
#define TEST_MIN 12
typedef struct kid_test {
    double tx0, tx1, ty0, ty1;
    int32_t slot;
    uint32_t flags; /* the kid's flags | K_FAST */
} kid_test;

/*
 * The derived block of one parent: candidates in search order, then an optional grid. The grid
 * covers [gx0, gx1] x [gy0, gy1] of the parent's space with nx * ny cells; the cell of a point is
 * grid_cell((x - gx0) * sx) (monotonic, so a box and the points in it land in the same cells).
 * Each cell lists candidate indices in ascending order, i.e. topmost first; `always` lists those
 * whose reach cannot be bounded (hooks, hits outside bounds), for points outside the grid.
 */
#define MOVED_NONE ((int32_t)-1)
#define MOVED_MANY ((int32_t)-2)
typedef struct block {
    int32_t count;          /* candidates in kids[] */
    /* While the block is dirty: the one child whose row changed since the block was built, by
     * a change that keeps the candidates and their order (a move, a resize, a transform), so
     * that prepare patches its record and the cells it reaches instead of building the block
     * anew; MOVED_MANY otherwise (internal.h htq_mark_dirty). MOVED_NONE in a clean block. */
    int32_t moved;
    int32_t nx, ny;         /* grid size; 0 when there is no grid */
    int32_t nalways;        /* entries in always[] */
    double gx0, gy0, gx1, gy1;
    double sx, sy;          /* cells per unit */
    uint32_t *cell_start;   /* nx * ny + 1 offsets into items */
    uint32_t *items;
    uint32_t *always;
    void *grid_memory;      /* one allocation behind cell_start, items and always */
    /* count compact records, in the block's allocation after kids, for a block of TEST_MIN
     * candidates or more; NULL for fewer (a chain, a small group), where the walk reads the
     * kids (the records would cost more memory than the tests they save). */
    kid_test *tests;
    kid kids[];
} block;

/*
 * The answer grid of one query root: over the root's region, each cell holds the answer that
 * every point of the cell surely gets (a handle, or HT_NULL_NODE), UNSURE where the exact walk
 * must decide, or UNKNOWN where a mutation may have changed the answer and the cell has not
 * been recomputed yet (the walk decides those too). "Surely" is proved by walking the cell's
 * box through the tree with margins far above rounding (answers.c). A mutation marks UNKNOWN
 * only the cells its node can reach; `unknown` says some are, and ht_tree_prepare_points
 * recomputes just those.
 *
 * Cells are stored as 16-bit codes into a palette of answers (a screen has far fewer distinct
 * answers than cells), so the grid is half the size of one of handles and stays in L2 beside
 * the input stream: code 0 is UNSURE, 1 is UNKNOWN, 2 SUBGRID, 3 UNKNOWN and seen once by a
 * single query, the others index `palette`. When the
 * palette is full (65,536 codes), further answers are stored as UNSURE (the walk decides).
 */
#define UNSURE ((int32_t)-3)
#define UNKNOWN ((int32_t)-4)
#define SUBGRID ((int32_t)-5) /* the cell's points are looked up in its sub-grid */
#define CODE_UNSURE 0
#define CODE_UNKNOWN 1
#define CODE_SUBGRID 2
#define CODE_SEEN 3 /* UNKNOWN, and a single query has walked one point of it (answers.c) */
#define FIRST_CODE 4
#define MAX_CODES 65536
/* A cell that is not sure gets a SUB x SUB grid of codes of its own (same palette), each
 * sub-cell proved like a cell: a smaller box straddles fewer edges. */
#define SUB 4
#define SUB_CELLS (SUB * SUB)
/*
 * Candidate lists (issue 26): for a cell the grid cannot answer (UNSURE, or a sub-grid with
 * UNSURE sub-cells), the nodes that can answer one of its points, in the walk's order (the
 * children of a node last-to-first, each child's subtree before the child itself), each as a
 * rectangle in the root's space: where a point reaches the node through every ancestor and is
 * inside it. With no hook on the way and only axis-aligned transforms (translation, scale),
 * that is one rectangle: the intersection of the regions of the node and its ancestors, each
 * mapped into the root's space. The walk converts a point level by level with its own
 * rounding, so an entry keeps two rectangles: `outer`, the rectangle widened by the slack rule
 * of geom.h at every level (a point outside it is surely not taken by the node), and `inner`,
 * shrunk by the same (a point inside it surely is). A point of the cell takes the first entry
 * whose `outer` holds it: its answer when its `inner` holds it too, else the exact walk (the
 * point is within the margin of an edge, or the entry stands for a subtree the lists do not
 * fold: a hook, a rotated view, hits outside bounds; its `inner` is empty). When no entry
 * holds the point, nothing but the root can take it (the list names every other node whose
 * `outer` meets the cell), and the answer is the root's own (`list_default`). A list is cut
 * after the first entry whose `inner` holds the whole cell. A cell whose list leaves only
 * margins to the walk gets no sub-grid (answers.c, list_decides).
 *
 * An entry depends on its node alone (and its ancestors), not on the cell: entries are shared
 * by all the lists that name them (a table, `entries`, and per list the indices of its entries
 * in order), one per node (the latest, found by `entry_hash`). Entry 0 never matches (the
 * lists' padding).
 *
 * Lists follow the cells' protocol: one is read only for a cell that is UNSURE or SUBGRID
 * (never UNKNOWN), and rebuilt when its cell is settled again (htq_refresh_answers). A cell
 * gets a list slot when the grid is built (cells UNSURE then), with room for that many
 * entries, and keeps it for the grid's life; a list that no longer fits is marked LIST_NONE
 * (the walk decides). Slots are the set bits of `listbits`, numbered like sub-grids. A node
 * whose entry changes gets a new entry at the end of the table (the lists of cells that a
 * change did not reach may still name the old one: such a cell is outside both the old and the
 * new reach of the node, so no point of it is inside either entry's `inner`, and skipping or
 * walking it is exact); when the table has grown to twice its size at the last build, the
 * lists are built anew.
 *
 * A lazy grid (htq_start_answers) has lists too: a cell gets a slot (a 16-bit number per cell,
 * `cell_slot`, not the bitmap) when it is first settled not sure (htq_settle_at), and its list
 * once LIST_RENT of its queries have been left undecided (LIST_LATER meanwhile: htq_list_due),
 * and a list made anew that is longer than the cell's last one is appended to the pool instead
 * of kept in a room (`lists_append`; list_start(nlists) is the pool's end). The pool is compacted
 * when most of it is stale, and the lists start over (the cells not sure settled again) when
 * most of the entry table is.
 */
#define LIST_MAX 16
#define LIST_NONE 255 /* list_len of a slot whose list did not fit: the walk decides */
/* list_len of a lazy grid's cell whose list is not made yet (its start counts the queries the
 * cell has left undecided since: htq_list_due); the walk decides meanwhile. */
#define LIST_LATER 254
#define LIST_GROUP 8 /* entries tested together; the index pool has LIST_GROUP - 1 spare zeros */
/* A box of an entry: x0, y0, -x1, -y1 (the upper corner negated, so that one compare of the
 * point and one of its negation test all four sides). */
typedef struct list_entry {
    double outer[4];
    double inner[4]; /* all +infinity when the entry only says "take the walk" */
    int32_t answer;
    int32_t pad;
} list_entry;

typedef struct answer_grid {
    int32_t root; /* slot, -1 when there is no grid */
    int32_t nx, ny, capacity; /* capacity: cells allocated */
    int unknown;  /* some cells are UNKNOWN (or CODE_SEEN), all within the rectangle below */
    /* With `unknown`: the columns ux0..ux1 and rows uy0..uy1 that hold every such cell, so that
     * a refresh after a small change looks at the cells it marked, not the whole grid. */
    int32_t ux0, ux1, uy0, uy1;
    double gx0, gy0, gx1, gy1, sx, sy;
    uint16_t *codes;   /* per cell, row by row */
    int32_t *palette;  /* code -> answer; UNSURE, UNKNOWN, SUBGRID, then answers */
    int32_t npalette, palette_cap;
    uint16_t *hash;    /* answer -> code (open addressing, 0 empty), hash_cap entries */
    int32_t hash_cap;
    /* Sub-grids: the cells that have one are the set bits of `subbits` (64 cells a word);
     * a cell's sub-grid is number subrank[word] + (set bits before it in its word). A cell
     * keeps its sub-grid slot until the sub-grids are built again: a whole refresh recomputes
     * it in place, a bulk call's refresh leaves the cell UNSURE and the slot unread. */
    uint64_t *subbits;
    int32_t *subrank;
    uint16_t *sub;     /* SUB_CELLS codes per sub-grid */
    int32_t nsub;
    /* Codes from sub_base up name sub-grids directly: code 65535 - k is sub-grid k (no rank to
     * compute). Set after the sub-grids are built when they and the palette fit in 16 bits
     * together; MAX_CODES (none) otherwise, and the palette never grows into them. */
    int32_t sub_base;
    /* Sub-grids are built when the grid is, or deferred (ht_tree_prepare_points_for) until the
     * bulk points announced since the grid's build, or since a refresh left cells with a sub-grid
     * UNSURE, pay for them (SUB_PAY_POINTS per cell). */
    int subs_pending;
    uint64_t announced;
    /* Started by the single queries (htq_start_answers): cells are settled where points land,
     * and a change that reaches a wide part of the grid drops it. */
    int lazy;
    /* With `lazy`: the single queries the grid has left to a candidate list or the walk (or
     * that settled a cell) since it started, and how many pay for the full grid (htq_promote). */
    uint64_t rent, rent_due;
    uint32_t *scratch; /* box_candidates' unions when a single query settles a cell */
    /* The lifted regions (answers.c, lift_memo) of the cells single queries settle, kept while
     * htq_state.reach_changes is memo_changes and the grid's root memo_root. */
    struct lift_memo *memo;
    uint64_t memo_changes;
    int32_t memo_root;
    /* Candidate lists (above): slot k of a cell is its rank among the set bits of listbits;
     * its entries are entries[items[list_start(k) + j]] for j < list_len(k), room up to
     * list_start(k + 1). */
    uint64_t *listbits;
    int32_t *listrank;
    /* ... or, for a lazy grid's lists (lists_append), per cell its slot + 1 (0: none), slots
     * given as cells are settled not sure; list_cap heads allocated. */
    uint16_t *cell_slot;
    int32_t list_cap;
    uint32_t *list_head;  /* nlists + 1: start << 8 | length (or LIST_NONE), one load */
    uint32_t *items;      /* list_start(nlists) + LIST_GROUP - 1 (spares: entry 0), items_cap */
    uint32_t items_cap;
    /* The lists of a lazy grid: every cell has a slot, and a list made anew that is longer than
     * the old one is appended to the pool (list_start(nlists) is its end), not kept in a room. */
    int lists_append;
    int32_t nlists;
    list_entry *entries;  /* entry 0 never matches */
    int32_t *entry_node;  /* per entry, its node (slot); -1 for entry 0 */
    uint32_t nentries, entries_cap, entries_built; /* entries_built: at the last build */
    uint32_t *entry_hash; /* node -> its latest entry (open addressing, 0 empty) */
    uint32_t hash_slots, hash_used;
    int32_t list_default; /* the root's own answer: a point no entry holds gets it */
} answer_grid;

/*
 * An open batch (ht_tree_begin_batch): the first change of each node invalidates the cells its
 * old reach covers at once (it must be measured before the change); its new reach is measured
 * once, at the end, for every node changed. Past BATCH_LIMIT nodes the grid is dropped instead.
 */
typedef struct htq_batch {
    int32_t depth;     /* nesting of begin/end */
    int32_t count, cap;
    int32_t *slots;    /* nodes whose new reach is pending */
    int overflow;      /* too many: the grid was dropped */
} htq_batch;

/*
 * A change's edges (answers.c): for a change that keeps the candidates (a move, a resize, a
 * transform), the answers can change only where the region test of a node of the changed
 * subtree changes, i.e. near its old and new edges, not inside both. Before the change the
 * subtree's nodes (up to EDGE_NODES) are measured: where each node's test may hold (`outer`, in
 * the grid root's space) and where it surely holds (`inner`); after it, the cells of each old
 * and new `outer` are marked UNKNOWN but for those inside both `inner`s.
 */
#define EDGE_NODES 256
typedef struct htq_edges {
    int32_t node;  /* the changed node, -1 when nothing is pending */
    int32_t count; /* nodes measured, the node and its descendants in pre-order */
    int32_t slots[EDGE_NODES];
    int kinds[EDGE_NODES]; /* BOX_NEVER or BOX_BOUNDED */
    ht_box outer[EDGE_NODES], inner[EDGE_NODES];
} htq_edges;

/* The hit-query subsystem's state, one per tree. */
typedef struct htq_state {
    /* Rows (one per slot, grown with the base rows). */
    block **blocks;
    int32_t *dirty_list; /* a slot is listed at most once */
    uint8_t *dirty;      /* the block of the slot is out of date */
    uint8_t *batched;    /* the slot is in batch.slots */
    int32_t ndirty;      /* entries in dirty_list; the tree is prepared when 0 */

    answer_grid answers;
    htq_edges *edges; /* allocated at the first change measured (NULL: none yet) */
    htq_batch batch;
    int32_t hooked; /* hit tests with hooks in progress: no mutation, no rebuild of derived data */
    uint32_t calm;  /* single queries (ht_tree_hit_test_caching) since the grid was last made or dropped */
    uint64_t reach_changes; /* changes that may move a node's reach (FX_REACH), since the tree was made */
    uint64_t builds; /* blocks built by ht_tree_prepare since the tree was made (tests read it) */
    uint64_t patches; /* of those, patched in place after one child moved (index.c; tests read it) */
} htq_state;

/* Row arrays of the subsystem, by name (HT_ROW_OP as in internal.h). */
#define HTQ_ROWS(X) X(blocks) X(dirty_list) X(dirty) X(batched)

/* ---- told by the mutation protocol (tree.c); `fx` is fields.h's effects ---- */

ht_status htq_init(ht_tree *t);
void htq_destroy(ht_tree *t);
ht_status htq_grow(ht_tree *t, int32_t capacity);
void htq_node_created(ht_tree *t, int32_t s);
void htq_node_freed(ht_tree *t, int32_t s);
/* htq_before and htq_after (before and after a change of `fx` to `s`) are in internal.h, inline:
 * every setter runs them. Their part for the answer grid, out of line: the old reach of `s`. */
void htq_reach_before(ht_tree *t, int32_t s, uint32_t fx);
/* (hitq.c: the grid's part of htq_after is htq_answers_edges_after and htq_answers_touch.) */
/* Copies the subsystem of `src` (prepared) into `dst` (rows allocated, subsystem empty). */
ht_status htq_clone(ht_tree *dst, const ht_tree *src);
size_t htq_memory(const ht_tree *t);
size_t htq_row_bytes(void);
ht_status htq_validate(const ht_tree *t);
/* Marks every parent's block dirty (a tree loaded from a snapshot). */
void htq_mark_all_dirty(ht_tree *t);

/* ---- blocks (index.c) ---- */

enum { BOX_NEVER = 0, BOX_BOUNDED = 1, BOX_UNBOUNDED = 2 };
/* Where, in its parent's space, `slot` or its subtree can be the answer. */
int htq_reach_box(const ht_tree *t, int32_t slot, ht_box *out);
/* The children of `parent` in UIKit's search order (last first; a higher priority first), all
 * of them, into `out` (t->nkids[parent] entries): blocks keep those that can be hit, in this
 * order, and the traced walk searches them all. */
ht_status htq_search_order(const ht_tree *t, int32_t parent, int32_t *out);
/* The walk's record of node `slot` (its `kid`), from its row. */
void htq_row_kid(const ht_tree *t, int32_t slot, kid *out);
/* Builds the block of `slot` from the rows, not installing it (*out NULL for no children). */
ht_status htq_make_block(const ht_tree *t, int32_t slot, block **out);
/* The same, taking the compact records of candidates unchanged since `old` (the block it
 * replaces, or NULL) from it instead of computing them again. */
ht_status htq_remake_block(const ht_tree *t, int32_t slot, const block *old, block **out);
ht_status htq_build_block(ht_tree *t, int32_t slot);
void htq_free_block(ht_tree *t, int32_t slot);
void htq_release_block(block *b);
ht_status htq_copy_block(const block *b, block **out);
size_t htq_block_bytes(const block *b);
/* Every compact record agrees with its kid, and each threshold is exact (kid_test). */
int htq_block_tests_ok(const block *b);
/* Same candidates, values, order and grid. */
int htq_blocks_equal(const block *a, const block *b);

/* ---- the answer grid (answers.c) ---- */

ht_status htq_build_answers(ht_tree *t, int32_t root);
/* After a build or refresh: `points` more bulk points are coming; builds the pending sub-grids
 * when `now` or when the points announced since the grid's build pay for them. */
void htq_answers_announce(ht_tree *t, size_t points, int now);
/* Recomputes the UNKNOWN cells (derived blocks prepared); a cell that is not sure and has a
 * sub-grid gets it recomputed when `subgrids`, else stays UNSURE with the sub-grids pending
 * again (what a bulk call's refresh does: a cell between two changes seldom gets the 64 points
 * that pay for its sub-grid). */
void htq_refresh_answers(ht_tree *t, int subgrids);
/* Lays out a grid for `root` with no cell computed yet (every cell UNKNOWN). */
ht_status htq_start_answers(ht_tree *t, int32_t root);

/* The answer of (x, y) after the lazy grid is replaced by the full one (htq_build_answers, with
 * its sub-grids: what ht_tree_prepare_points builds), which
 * the single queries' rent now pays for (htq_answer_at, internal.h): UNSURE when the full grid
 * cannot be had (no memory; the walk answers, and the queries start a grid again later). */
int32_t htq_promote(ht_tree *t, double x, double y);
/* The UNKNOWN cell of (x, y), a point of the grid's domain: settled, and its answer now (as
 * cell_lookup gives it); or UNKNOWN when the walk must answer this point (the cell's first
 * point only marks it seen, and a cell without scratch memory stays as it is). The derived
 * blocks are prepared. (htq_answer_at, internal.h, is the query.) */
int32_t htq_settle_at(ht_tree *t, double x, double y);
/* A query a lazy grid's cell `c` left undecided, at (x, y): counted against the cell's list rent
 * (LIST_LATER), and the list made when it is due; the list's answer then, else UNSURE. */
int32_t htq_list_due(ht_tree *t, size_t c, double x, double y);
/* What a single query that may write learns without a usable grid for `root` (see
 * htq_learned_answer, internal.h): UNSURE, or the answer of a grid it starts once enough
 * queries came since the last was dropped. The tree is prepared. */
int32_t htq_learn_answer(ht_tree *t, int32_t root, double x, double y);
/* `s`'s reach in the grid root's space: BOX_NEVER (none, or not under the root), BOX_BOUNDED
 * with the box, or BOX_UNBOUNDED (the grid must go). */
int htq_reach_in_grid(const ht_tree *t, int32_t s, ht_box *out);
/* Drops the answer grid (the next prepare_points builds one; single queries start one later). */
void htq_drop_answers(ht_tree *t);
/* Marks UNKNOWN the cells `s` can reach, or drops the grid. */
void htq_answers_touch(ht_tree *t, int32_t s);
/* Before a change of `s` that keeps the candidates: measures its subtree's edges (htq_edges);
 * 1 when it did (htq_answers_edges_after then marks the cells), 0 when the caller must mark
 * `s`'s whole reach (htq_answers_touch) before and after, as for any other change. */
int htq_answers_edges_before(ht_tree *t, int32_t s);
/* After that change: marks the cells near the old and new edges; 0 when nothing was measured
 * for `s` (the caller touches its reach). */
int htq_answers_edges_after(ht_tree *t, int32_t s);
/* The answer of cell `c` (as cell_lookup gives it). */
static inline int32_t htq_cell(const answer_grid *g, size_t c) {
    return g->codes[c] >= g->sub_base ? SUBGRID : g->palette[g->codes[c]];
}
void htq_answers_free(answer_grid *g);
size_t htq_answers_bytes(const answer_grid *g);

/* The set bits of `w`, without a branch or a library call (the baseline x86-64 has no
 * popcount instruction, and the compilers' builtin then calls one). */
static inline int32_t popcount64(uint64_t w) {
    w = w - ((w >> 1) & UINT64_C(0x5555555555555555));
    w = (w & UINT64_C(0x3333333333333333)) + ((w >> 2) & UINT64_C(0x3333333333333333));
    w = (w + (w >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int32_t)((w * UINT64_C(0x0101010101010101)) >> 56);
}

/* The sub-grid number of cell `c` (which has one). */
static inline int32_t htq_sub_index(const answer_grid *g, size_t c) {
    uint64_t w = g->subbits[c >> 6] & ((UINT64_C(1) << (c & 63)) - 1);
    return g->subrank[c >> 6] + popcount64(w);
}

/* The sub-cell (0..SUB-1) of fractional coordinate `f` in cell `i` (f = offset x cells per
 * unit, as grid_index computes it; f * SUB is exact, so the cell of f * SUB / SUB is i). */
static inline int32_t sub_of(double f, int32_t i) {
    double q = f * SUB;
    int32_t j = q < (double)(SUB * (i + 1)) ? (int32_t)q - SUB * i : SUB - 1;
    return j < 0 ? 0 : j;
}

/* The code that names sub-grid k directly. */
static inline uint16_t sub_code(int32_t k) {
    return (uint16_t)(MAX_CODES - 1 - k);
}

/* The sub-grid of cell `c` (which has one): named by its code, or found by rank. */
static inline const uint16_t *sub_of_cell(const answer_grid *g, size_t c) {
    uint16_t code = g->codes[c];
    int32_t k = code >= g->sub_base ? MAX_CODES - 1 - code : htq_sub_index(g, c);
    return g->sub + (size_t)k * SUB_CELLS;
}

/* The answer of a point in cell `c` = (ix, iy) with sub-grid, at fractional (fx, fy). */
static inline int32_t sub_lookup(const answer_grid *g, size_t c, double fx, double fy, int32_t ix,
                                 int32_t iy) {
    const uint16_t *s = sub_of_cell(g, c);
    return g->palette[s[sub_of(fy, iy) * SUB + sub_of(fx, ix)]];
}

/* The cell of (x, y): its answer, or UNSURE outside the grid (NaN included); `*cell` is the
 * cell's index (the same as grid_index), SIZE_MAX outside. */
HT_HOT int32_t cell_lookup_at(const answer_grid *g, double x, double y, size_t *cell) {
    *cell = SIZE_MAX;
    if (!(x >= g->gx0 && x < g->gx1 && y >= g->gy0 && y < g->gy1)) return UNSURE;
    double fx = (x - g->gx0) * g->sx, fy = (y - g->gy0) * g->sy;
    int32_t ix = fx < (double)g->nx ? (int32_t)fx : g->nx - 1;
    int32_t iy = fy < (double)g->ny ? (int32_t)fy : g->ny - 1;
    size_t c = (size_t)iy * (size_t)g->nx + (size_t)ix;
    *cell = c;
    int32_t a = htq_cell(g, c);
    if (a != SUBGRID) return a;
    return sub_lookup(g, c, fx, fy, ix, iy);
}

HT_HOT int32_t cell_lookup(const answer_grid *g, double x, double y) {
    size_t c;
    return cell_lookup_at(g, x, y, &c);
}

/* The answer of (x, y), a point of the grid's domain, from `sub`, the sub-grid of its cell. */
HT_HOT int32_t sub_answer(const answer_grid *g, const uint16_t *sub, double x, double y) {
    double fx = (x - g->gx0) * g->sx, fy = (y - g->gy0) * g->sy;
    int32_t ix = fx < (double)g->nx ? (int32_t)fx : g->nx - 1;
    int32_t iy = fy < (double)g->ny ? (int32_t)fy : g->ny - 1;
    return g->palette[sub[sub_of(fy, iy) * SUB + sub_of(fx, ix)]];
}

/* The list slot of cell `c`, or -1. */
static inline int32_t list_slot(const answer_grid *g, size_t c) {
    if (g->cell_slot) return (int32_t)g->cell_slot[c] - 1;
    if (!g->listbits || !(g->listbits[c >> 6] >> (c & 63) & 1)) return -1;
    return g->listrank[c >> 6] + popcount64(g->listbits[c >> 6] & ((UINT64_C(1) << (c & 63)) - 1));
}

#define LIST_ITEMS_MAX (UINT32_C(1) << 24) /* the start of a list fits list_head's 24 bits */
/* An appended pool's first size, and how many stale items or entries it may keep beyond as
 * many as are in use (a check builds the core with a small one, to reach its compaction and
 * its start over often). */
#ifndef LIST_APPEND_MIN
#define LIST_APPEND_MIN 1024
#endif
#define LAZY_SLOTS_MAX 65535 /* slots a lazy grid gives (cell_slot's 16 bits) */
static inline uint32_t list_start(const answer_grid *g, int32_t k) { return g->list_head[k] >> 8; }
static inline uint32_t list_len(const answer_grid *g, int32_t k) { return g->list_head[k] & 255u; }

/* Is (x, y) in the closed box b of an entry (x0, y0, -x1, -y1)? */
HT_HOT int in_entry_box(const double *b, double x, double y) {
    return (b[0] <= x) & (b[1] <= y) & (b[2] <= -x) & (b[3] <= -y);
}

/* The answer list `k` gives a point (x, y) of its cell: a handle or HT_NULL_NODE, or UNSURE
 * (take the walk). The entries are tested together without a branch per entry; the first
 * whose outer box holds the point decides. */
HT_HOT int32_t list_answer(const answer_grid *g, int32_t k, double x, double y) {
    uint32_t head = g->list_head[k], n = head & 255u;
    if (n > LIST_MAX) return UNSURE; /* LIST_NONE, LIST_LATER */
    const uint32_t *ix = g->items + (head >> 8);
    const list_entry *e = g->entries;
    uint32_t mask = 0;
#if defined(__SSE2__)
    __m128d p = _mm_set_pd(y, x), q = _mm_set_pd(-y, -x);
#define ENTRY_BIT(j) ((uint32_t)(_mm_movemask_pd(_mm_and_pd(_mm_cmple_pd(_mm_loadu_pd(e[ix[j]].outer), p), \
                                                            _mm_cmple_pd(_mm_loadu_pd(e[ix[j]].outer + 2), q))) == 3) << (j))
#else
#define ENTRY_BIT(j) ((uint32_t)in_entry_box(e[ix[j]].outer, x, y) << (j))
#endif
    /* Four entries, then four more for a longer list, then groups of LIST_GROUP (rare), each
     * written out (compilers do not all unroll it). Measured (callgrind, kernel_driver walkg):
     * one branch on n > 4 costs fewer cycles than testing eight entries for every list. */
    _Static_assert(LIST_GROUP == 8, "the groups below are written out for 8 entries");
    mask = ENTRY_BIT(0) | ENTRY_BIT(1) | ENTRY_BIT(2) | ENTRY_BIT(3);
    if (n > 4) {
        mask |= ENTRY_BIT(4) | ENTRY_BIT(5) | ENTRY_BIT(6) | ENTRY_BIT(7);
        for (uint32_t j0 = LIST_GROUP; j0 < n; j0 += LIST_GROUP) {
            ix += LIST_GROUP;
            uint32_t m = ENTRY_BIT(0) | ENTRY_BIT(1) | ENTRY_BIT(2) | ENTRY_BIT(3) | ENTRY_BIT(4) | ENTRY_BIT(5) |
                         ENTRY_BIT(6) | ENTRY_BIT(7);
            mask |= m << j0;
        }
    }
#undef ENTRY_BIT
    ix = g->items + (head >> 8);
    mask &= (UINT32_C(1) << n) - 1; /* the spares and the next list's entries */
    if (!mask) return g->list_default;
#if defined(__GNUC__) || defined(__clang__)
    uint32_t j = (uint32_t)__builtin_ctz(mask);
#else
    uint32_t j = 0;
    while (!(mask >> j & 1)) j++;
#endif
    return in_entry_box(e[ix[j]].inner, x, y) ? e[ix[j]].answer : UNSURE;
}

/* The answer the candidate lists give (x, y), a point whose cell (or sub-cell) is UNSURE, or
 * was outside the grid: UNSURE when they cannot say (no list, outside the grid, near an edge).
 * list_lookup_in takes the point's cell `c` (a point of the grid's domain), known already. */
HT_HOT int32_t list_lookup_in(const answer_grid *g, size_t c, double x, double y) {
    int32_t k = g->list_head ? list_slot(g, c) : -1;
    return k < 0 ? UNSURE : list_answer(g, k, x, y);
}

HT_HOT int32_t list_lookup(const answer_grid *g, double x, double y) {
    if (!(x >= g->gx0 && x < g->gx1 && y >= g->gy0 && y < g->gy1)) return UNSURE;
    return list_lookup_in(g, grid_index(x, y, g->gx0, g->gy0, g->sx, g->sy, g->nx, g->ny), x, y);
}

/* The first pass of the bulk loop: the answer grid's fields in locals (the compiler cannot keep
 * them in registers through the stores of the results, which may alias), and a lookup without
 * branches. */
typedef struct cell_pass {
#if defined(__SSE2__)
    __m128d g0, g1, s, m; /* (gx0, gy0), (gx1, gy1), (sx, sy), (nx - 1, ny - 1) */
    __m128i row;          /* 16-bit words 1, nx, 1, nx, ... (cell_pass_lookup_xy2) */
    int pairs;            /* nx and ny are below 2^15: cell_pass_lookup_xy2 may be used */
#endif
    double gx0, gy0, gx1, gy1, sx, sy;
    double mx, my; /* nx - 1, ny - 1 */
    size_t nx;
    uint32_t sub_base;
    const uint16_t *codes;
    const int32_t *palette;
} cell_pass;

static inline cell_pass cell_pass_of(const answer_grid *g) {
    cell_pass p;
    p.gx0 = g->gx0;
    p.gy0 = g->gy0;
    p.gx1 = g->gx1;
    p.gy1 = g->gy1;
    p.sx = g->sx;
    p.sy = g->sy;
    p.mx = (double)(g->nx - 1);
    p.my = (double)(g->ny - 1);
    p.nx = (size_t)g->nx;
    p.sub_base = (uint32_t)g->sub_base;
    p.codes = g->codes;
    p.palette = g->palette;
#if defined(__SSE2__)
    p.g0 = _mm_set_pd(p.gy0, p.gx0);
    p.g1 = _mm_set_pd(p.gy1, p.gx1);
    p.s = _mm_set_pd(p.sy, p.sx);
    p.m = _mm_set_pd(p.my, p.mx);
    p.pairs = g->nx < 32768 && g->ny < 32768;
    p.row = _mm_set1_epi32((int32_t)((uint32_t)(p.pairs ? g->nx : 0) << 16 | 1u));
#endif
    return p;
}

/* The answer cell_pass_lookup gives for cell `c`: its palette answer, SUBGRID for a sub-grid's
 * own code, UNKNOWN when the point is not inside the grid (`in` is 0: the walk answers it, and
 * an UNSURE answer always comes from a cell whose list may be read), all without a branch. */
static inline int32_t cell_pass_answer(const cell_pass *p, size_t c, int in) {
    uint32_t code = p->codes[c];
    code = code >= p->sub_base ? CODE_SUBGRID : code; /* a sub-grid's own code: SUBGRID */
    code = in ? code : CODE_UNKNOWN;
    return p->palette[code];
}

/* cell_lookup without its sub-grid step (SUBGRID is returned as is) and without a branch: the
 * same cell for every point of the grid's domain, its number in *cell (grid_index's), UNKNOWN
 * outside it (NaN included). Inside the domain f >= 0, and (int)min(f, n - 1) ==
 * (f < n ? (int)f : n - 1): for f in [n - 1, n) both are n - 1. Outside, the clamped cell is
 * only read, and its answer dropped. */
HT_HOT int32_t cell_pass_lookup(const cell_pass *p, double x, double y, uint32_t *cell) {
    int in = (x >= p->gx0) & (x < p->gx1) & (y >= p->gy0) & (y < p->gy1);
    double fx = (x - p->gx0) * p->sx, fy = (y - p->gy0) * p->sy;
    fx = fx > 0 ? fx : 0; /* NaN too */
    fy = fy > 0 ? fy : 0;
    fx = fx < p->mx ? fx : p->mx;
    fy = fy < p->my ? fy : p->my;
    size_t c = (size_t)(uint32_t)(int32_t)fy * p->nx + (size_t)(uint32_t)(int32_t)fx; /* both >= 0 */
    *cell = (uint32_t)c;
    return cell_pass_answer(p, c, in);
}

#if defined(__SSE2__)
/* The lanes of cell_pass_lookup for the point v = (x, y) in one register: the same operations
 * on each lane (subtract, multiply, compare, max with 0 which gives 0 for NaN, min), so the same
 * cell once truncated; *in is whether the point is inside the grid. */
static inline __m128d cell_pass_lanes(const cell_pass *p, __m128d v, int *in) {
    *in = _mm_movemask_pd(_mm_and_pd(_mm_cmpge_pd(v, p->g0), _mm_cmplt_pd(v, p->g1))) == 3;
    return _mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_sub_pd(v, p->g0), p->s), _mm_setzero_pd()), p->m);
}

/* cell_pass_lookup of the point (xy[0], xy[1]), both coordinates in one register. */
HT_HOT int32_t cell_pass_lookup_xy(const cell_pass *p, const double *xy, uint32_t *cell) {
    int in;
    __m128i i = _mm_cvttpd_epi32(cell_pass_lanes(p, _mm_loadu_pd(xy), &in));
    size_t c = (size_t)(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(i, 1)) * p->nx +
               (size_t)(uint32_t)_mm_cvtsi128_si32(i);
    *cell = (uint32_t)c;
    return cell_pass_answer(p, c, in);
}

/* cell_pass_lookup_xy of the two points xy[0..1] and xy[2..3], into a[0], a[1] and cell[0],
 * cell[1]: both cells' numbers iy * nx + ix from one multiply-add of (ix, iy) as 16-bit words
 * by (1, nx), exact while nx and ny fit in 15 bits (cell_pass.pairs). */
HT_HOT void cell_pass_lookup_xy2(const cell_pass *p, const double *xy, int32_t *a, uint32_t *cell) {
    int in0, in1;
    __m128d f0 = cell_pass_lanes(p, _mm_loadu_pd(xy), &in0), f1 = cell_pass_lanes(p, _mm_loadu_pd(xy + 2), &in1);
    __m128i i = _mm_unpacklo_epi64(_mm_cvttpd_epi32(f0), _mm_cvttpd_epi32(f1)); /* ix0 iy0 ix1 iy1 */
    __m128i c = _mm_madd_epi16(_mm_packs_epi32(i, i), p->row);
    cell[0] = (uint32_t)_mm_cvtsi128_si32(c);
    cell[1] = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(c, 1));
    a[0] = cell_pass_answer(p, cell[0], in0);
    a[1] = cell_pass_answer(p, cell[1], in1);
}
#endif

/* ---- the walk (hit_test.c) ---- */

/* The exact walk from `slot` without hooks and without the answer grid; for validation. */
ht_status htq_walk_plain(const ht_tree *t, int32_t slot, double x, double y, ht_node *out);

#endif
