/*
 * hittest-c-example: HitTestKit's C core from plain C. Builds a small screen, moves a view,
 * bulk hit-tests a row of points, saves the tree to a snapshot buffer and loads it again.
 *
 *   swift build --product hittest-c-example && .build/debug/hittest-c-example
 */
#include <hittest.h>

#include <stdio.h>
#include <stdlib.h>

/* Stops with the library's message when a call fails (an example's error handling). */
static void check(ht_status status, const char *what) {
    if (status != HT_OK) {
        fprintf(stderr, "%s: %s\n", what, ht_status_string(status));
        exit(1);
    }
}

/* A node with a frame (x, y, w, h) in its parent's space, attached on top of `parent`. */
static ht_node add_view(ht_tree *tree, ht_node parent, double x, double y, double w, double h) {
    ht_node n;
    check(ht_node_create(tree, &n), "create");
    check(ht_node_set_bounds(tree, n, 0, 0, w, h), "bounds");
    check(ht_node_set_center(tree, n, x + w / 2, y + h / 2), "center");
    if (parent != HT_NULL_NODE) check(ht_node_attach(tree, n, parent, INT32_MAX), "attach");
    return n;
}

static const char *name(ht_node n, const ht_node *nodes, const char *const *names, int count) {
    for (int i = 0; i < count; i++)
        if (nodes[i] == n) return names[i];
    return n == HT_NULL_NODE ? "none" : "?";
}

int main(void) {
    ht_tree *tree;
    check(ht_tree_create(0, &tree), "tree");
    ht_node window = add_view(tree, HT_NULL_NODE, 0, 0, 390, 844);
    ht_node card = add_view(tree, window, 20, 100, 350, 200);
    ht_node button = add_view(tree, card, 250, 150, 80, 32);
    ht_node label = add_view(tree, card, 16, 16, 200, 24);
    check(ht_node_set_flags(tree, label, HT_FLAG_NO_INTERACTION), "flags");
    ht_node nodes[] = {window, card, button, label};
    const char *names[] = {"window", "card", "button", "label"};

    double xy[] = {300, 265, 40, 120, 30, 60, 500, 10};
    ht_node hits[4];
    /* Queries only read: prepare the tree after changing it (and before going parallel). */
    check(ht_tree_prepare(tree), "prepare");
    check(ht_tree_hit_test_points(tree, window, xy, 4, NULL, hits), "hit test");
    for (int i = 0; i < 4; i++)
        printf("(%g, %g) -> %s\n", xy[2 * i], xy[2 * i + 1], name(hits[i], nodes, names, 4));

    /* Move the button to the card's top-left corner and ask again. */
    check(ht_node_set_center(tree, button, 40, 16), "move");
    check(ht_tree_prepare(tree), "prepare");
    check(ht_tree_hit_test_points(tree, window, xy, 4, NULL, hits), "hit test");
    printf("after moving the button: (%g, %g) -> %s, (%g, %g) -> %s\n", xy[0], xy[1],
           name(hits[0], nodes, names, 4), xy[2], xy[3], name(hits[1], nodes, names, 4));

    double bx, by;
    check(ht_tree_convert_point(tree, window, button, 50, 110, &bx, &by), "convert");
    printf("(50, 110) in the button's space: (%g, %g)\n", bx, by);

    /* A snapshot round trip: the same handles answer in the loaded copy. */
    void *buffer;
    size_t length;
    check(ht_tree_save(tree, &buffer, &length), "save");
    ht_tree *copy;
    check(ht_tree_load(buffer, length, &copy), "load");
    check(ht_tree_prepare(copy), "prepare the copy");
    ht_node again;
    check(ht_tree_hit_test(copy, window, 50, 110, NULL, &again), "hit test the copy");
    printf("snapshot of %zu bytes; the copy answers (50, 110) -> %s\n", length,
           name(again, nodes, names, 4));
    ((unsigned char *)buffer)[length / 2] ^= 0x40; /* one flipped bit */
    ht_tree *broken = NULL;
    printf("a corrupted snapshot: %s\n", ht_status_string(ht_tree_load(buffer, length, &broken)));
    ht_free(buffer);
    ht_tree_destroy(copy);

    printf("a stale handle: %s\n", (ht_node_free(tree, label), ht_status_string(ht_node_set_alpha(tree, label, 1))));
    ht_tree_destroy(tree);
    return 0;
}
