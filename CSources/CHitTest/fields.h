/*
 * fields.h - the one list of what a node stores, and what changing it invalidates.
 *
 * HT_STORED_FIELDS(X) has one line per stored per-node value:
 *
 *     X(kind, name, default, record member, effects)
 *
 * - kind: I32, FLAGS (uint32; only HT_FLAG_* is stored, the K_* bits above are derived) or F64;
 * - name: the row array in `struct ht_tree` (`t->name[slot]`);
 * - default: the value of a new node (UIKit's `View(frame: .zero)`);
 * - record member: the member of `ht_node_record` it is read back into;
 * - effects: what a change invalidates (the mutation protocol's table, below).
 *
 * The list drives the row arrays (declaration, growth, clone, memory, destroy), the defaults of
 * `ht_node_create`, the snapshot record (after the links, in this order: the file layout of
 * version 1), `ht_node_get_record` and the setters' invalidation. A new stored attribute is
 * one line here (plus its setter, which names the fields it writes and nothing else).
 */
#ifndef HT_FIELDS_H
#define HT_FIELDS_H

/*
 * Effects of a change (the mutation protocol, tree.c). Re-derivations of the row itself:
 */
#define FX_TRANSFORM (1u << 0) /* inverse transform, identity and singular bits */
#define FX_REGION (1u << 1)    /* anchor offset and region (bounds inset by the insets) */
#define FX_ELIGIBLE (1u << 2)  /* the eligibility bit (hidden, interaction, alpha) */
/* Invalidations of derived data owned by subsystems (today the hit-query one, hitq.c): */
#define FX_PARENT_BLOCK (1u << 3) /* the parent's block packs this node's values and order */
/* This node's own block. Nothing of the node's own row enters it today (its grid lies over the
 * children's extent, not clipped by the node's region: index.c build_grid), so no bounds,
 * anchor or inset change uses it (a scroll, a bounds-origin change, rebuilds no block of the
 * scrolled node); flag changes still name it, conservatively (rare, and one block). */
#define FX_OWN_BLOCK (1u << 4)
#define FX_REACH (1u << 5)        /* where this node can answer: answer-grid cells, before and after */
/* Modifier: the block invalidations above apply only if the derived flags word changed (alpha
 * reaches the blocks only through the eligibility bit). */
#define FX_IF_FLAGS_CHANGED (1u << 6)
/* Modifier of FX_PARENT_BLOCK: the change may alter which children are the parent's candidates
 * or their order (eligibility, priority, links). Without it only the node's own record and
 * boxes in the parent's block change, and prepare patches the block (index.c). */
#define FX_CANDIDATES (1u << 7)

/* The effect classes used in the table. */
#define FX_POSITION (FX_PARENT_BLOCK | FX_REACH)
#define FX_ANCHOR (FX_REGION | FX_PARENT_BLOCK | FX_REACH)
#define FX_XFORM (FX_TRANSFORM | FX_PARENT_BLOCK | FX_REACH)
#define FX_SHAPE (FX_REGION | FX_PARENT_BLOCK | FX_REACH)
#define FX_ALPHA (FX_ELIGIBLE | FX_PARENT_BLOCK | FX_CANDIDATES | FX_REACH | FX_IF_FLAGS_CHANGED)
#define FX_FLAGS (FX_ELIGIBLE | FX_PARENT_BLOCK | FX_CANDIDATES | FX_OWN_BLOCK | FX_REACH | FX_IF_FLAGS_CHANGED)
#define FX_ORDER (FX_PARENT_BLOCK | FX_CANDIDATES | FX_REACH)
/* Links (attach, detach, free): the old and the new parent's blocks, and the reach. */
#define FX_LINKS (FX_PARENT_BLOCK | FX_CANDIDATES | FX_REACH)

/* The order of the F64 lines is the snapshot record's order (file version 1). */
#define HT_STORED_FIELDS(X)                                                                    \
    X(I32, priority, 0, priority, FX_ORDER)                                                    \
    X(FLAGS, flags, 0, flags, FX_FLAGS)                                                        \
    X(F64, cx, 0.0, center_x, FX_POSITION)                                                     \
    X(F64, cy, 0.0, center_y, FX_POSITION)                                                     \
    X(F64, bx, 0.0, bounds_x, FX_SHAPE)                                                        \
    X(F64, by, 0.0, bounds_y, FX_SHAPE)                                                        \
    X(F64, bw, 0.0, bounds_w, FX_SHAPE)                                                        \
    X(F64, bh, 0.0, bounds_h, FX_SHAPE)                                                        \
    X(F64, anx, 0.5, anchor_x, FX_ANCHOR)                                                      \
    X(F64, any, 0.5, anchor_y, FX_ANCHOR)                                                      \
    X(F64, xa, 1.0, transform.a, FX_XFORM)                                                     \
    X(F64, xb, 0.0, transform.b, FX_XFORM)                                                     \
    X(F64, xc, 0.0, transform.c, FX_XFORM)                                                     \
    X(F64, xd, 1.0, transform.d, FX_XFORM)                                                     \
    X(F64, xtx, 0.0, transform.tx, FX_XFORM)                                                   \
    X(F64, xty, 0.0, transform.ty, FX_XFORM)                                                   \
    X(F64, alpha, 1.0, alpha, FX_ALPHA)                                                        \
    X(F64, in_top, 0.0, inset_top, FX_SHAPE)                                                   \
    X(F64, in_left, 0.0, inset_left, FX_SHAPE)                                                 \
    X(F64, in_bottom, 0.0, inset_bottom, FX_SHAPE)                                             \
    X(F64, in_right, 0.0, inset_right, FX_SHAPE)

/* C types of the kinds. */
#define HT_CTYPE_I32 int32_t
#define HT_CTYPE_FLAGS uint32_t
#define HT_CTYPE_F64 double

/* Field ids, for the setters and the effects table. */
typedef enum ht_field {
#define HT_FIELD_ID(kind, name, def, rec, fx) F_##name,
    HT_STORED_FIELDS(HT_FIELD_ID)
#undef HT_FIELD_ID
    F_COUNT
} ht_field;

#endif
