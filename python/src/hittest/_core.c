/*
 * hittest._core: the C core of HitTestKit (CSources/CHitTest) as a CPython extension.
 *
 * A `Tree` owns one `ht_tree`. Mutations run with the GIL held; bulk hit tests release it for
 * the C call, so Python threads querying one prepared tree run in parallel (the C core's
 * read-only contract: after `ht_tree_prepare`, any number of threads may query at once).
 *
 * The GIL also guards the tree's state: `active` counts queries running without the GIL; a
 * mutation (or a prepare) while one runs is refused with HT_E_BUSY instead of racing with it.
 * Queries prepare the tree themselves when it changed (and build the answer grid for large
 * calls) when no other query is running.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#ifndef S_ISDIR
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#endif
#ifndef S_ISREG
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#endif

#include "hittest.h"

typedef struct {
    PyObject_HEAD
    ht_tree *tree;
    int dirty;          /* mutated since the last ht_tree_prepare */
    int grid_fresh;     /* the answer grid of grid_root is up to date */
    ht_node grid_root;  /* the node of the last ht_tree_prepare_points, or HT_NULL_NODE */
    Py_ssize_t active;  /* queries running with the GIL released */
} TreeObject;

static PyObject *HitTestError;

static const char *status_name(int s) {
    static const char *names[] = {
        "HT_OK", "HT_E_NO_MEMORY", "HT_E_INVALID_ARGUMENT", "HT_E_BAD_NODE", "HT_E_STALE_NODE",
        "HT_E_NOT_FINITE", "HT_E_CYCLE", "HT_E_CAPACITY", "HT_E_SINGULAR", "HT_E_HOOK_FAILED",
        "HT_E_CORRUPT", "HT_E_IO", "HT_E_BUSY", "HT_E_NOT_PREPARED", "HT_E_FOREIGN_ANSWER"};
    if (s >= 0 && s < (int)(sizeof names / sizeof names[0])) return names[s];
    return "HT_E_UNKNOWN";
}

/* Raises HitTestError(text) with .status, .status_name, .message (the C description) set. */
static PyObject *raise_status(int status, const char *what) {
    const char *message = ht_status_string((ht_status)status);
    PyObject *exc = PyObject_CallFunction(HitTestError, "s", "");
    if (exc == NULL) return NULL;
    PyObject *text = PyUnicode_FromFormat("%s: %s (%s)", what, message, status_name(status));
    PyObject *args = text ? PyTuple_Pack(1, text) : NULL;
    PyObject *st = PyLong_FromLong(status);
    PyObject *nm = PyUnicode_FromString(status_name(status));
    PyObject *msg = PyUnicode_FromString(message);
    PyObject *wh = PyUnicode_FromString(what);
    if (args && st && nm && msg && wh && PyObject_SetAttrString(exc, "args", args) == 0 &&
        PyObject_SetAttrString(exc, "status", st) == 0 &&
        PyObject_SetAttrString(exc, "status_name", nm) == 0 &&
        PyObject_SetAttrString(exc, "message", msg) == 0 &&
        PyObject_SetAttrString(exc, "what", wh) == 0) {
        PyErr_SetObject(HitTestError, exc);
    }
    Py_XDECREF(text);
    Py_XDECREF(args);
    Py_XDECREF(st);
    Py_XDECREF(nm);
    Py_XDECREF(msg);
    Py_XDECREF(wh);
    Py_DECREF(exc);
    return NULL;
}

#define CHECK(call, what)                                   \
    do {                                                    \
        ht_status s_ = (call);                              \
        if (s_ != HT_OK) return raise_status(s_, (what));   \
    } while (0)

static int tree_ok(TreeObject *self) {
    if (self->tree == NULL) {
        raise_status(HT_E_INVALID_ARGUMENT, "the tree is closed");
        return 0;
    }
    return 1;
}

/* For every mutation and prepare: no query may be running on another thread. */
static int can_write(TreeObject *self, const char *what) {
    if (!tree_ok(self)) return 0;
    if (self->active > 0) {
        raise_status(HT_E_BUSY, what);
        return 0;
    }
    return 1;
}

static void mutated(TreeObject *self) {
    self->dirty = 1;
    self->grid_fresh = 0;
}

static PyObject *wrap(PyTypeObject *type, ht_tree *tree) {
    TreeObject *self = (TreeObject *)type->tp_alloc(type, 0);
    if (self == NULL) {
        ht_tree_destroy(tree);
        return NULL;
    }
    self->tree = tree;
    self->dirty = 1;
    self->grid_fresh = 0;
    self->grid_root = HT_NULL_NODE;
    self->active = 0;
    return (PyObject *)self;
}

static PyObject *Tree_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"capacity_hint", NULL};
    int capacity = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i:Tree", kw, &capacity)) return NULL;
    ht_tree *tree = NULL;
    CHECK(ht_tree_create(capacity, &tree), "creating a tree");
    return wrap(type, tree);
}

static void Tree_dealloc(TreeObject *self) {
    ht_tree_destroy(self->tree);
    self->tree = NULL;
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Tree_load_file(PyObject *cls, PyObject *arg) {
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
    ht_tree *tree = NULL;
    ht_status s;
    const char *path = PyBytes_AS_STRING(bytes);
    /* Say what is wrong with a path that is no snapshot file before the C core opens it: a
     * directory (which it would size as no memory), a pipe (which would wait for a writer), a
     * path that does not exist. */
    struct stat info;
    const char *problem = NULL;
    if (stat(path, &info) != 0) {
        problem = strerror(errno);
    } else if (S_ISDIR(info.st_mode)) {
        problem = "it is a directory, not a snapshot file";
    } else if (!S_ISREG(info.st_mode)) {
        problem = "it is not a regular file (a snapshot is a file)";
    }
    if (problem != NULL) {
        PyObject *what = PyUnicode_FromFormat("loading the snapshot %s: %s", path, problem);
        Py_DECREF(bytes);
        if (what == NULL) return NULL;
        raise_status(HT_E_IO, PyUnicode_AsUTF8(what));
        Py_DECREF(what);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    s = ht_tree_load_file(path, &tree);
    Py_END_ALLOW_THREADS
    if (s != HT_OK) {
        PyObject *what = PyUnicode_FromFormat("loading the snapshot %s", path);
        Py_DECREF(bytes);
        if (what == NULL) return NULL;
        raise_status(s, PyUnicode_AsUTF8(what));
        Py_DECREF(what);
        return NULL;
    }
    Py_DECREF(bytes);
    return wrap((PyTypeObject *)cls, tree);
}

static PyObject *Tree_from_bytes(PyObject *cls, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) != 0) return NULL;
    ht_tree *tree = NULL;
    ht_status s;
    Py_BEGIN_ALLOW_THREADS
    s = ht_tree_load(view.buf, (size_t)view.len, &tree);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    CHECK(s, "loading a snapshot from bytes");
    return wrap((PyTypeObject *)cls, tree);
}

static PyObject *Tree_save(TreeObject *self, PyObject *arg) {
    if (!tree_ok(self)) return NULL;
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
    ht_status s = ht_tree_save_file(self->tree, PyBytes_AS_STRING(bytes));
    Py_DECREF(bytes);
    CHECK(s, "saving the snapshot");
    Py_RETURN_NONE;
}

static PyObject *Tree_to_bytes(TreeObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!tree_ok(self)) return NULL;
    void *buffer = NULL;
    size_t length = 0;
    CHECK(ht_tree_save(self->tree, &buffer, &length), "saving the snapshot");
    PyObject *out = PyBytes_FromStringAndSize((const char *)buffer, (Py_ssize_t)length);
    ht_free(buffer);
    return out;
}

static PyObject *Tree_prepare(TreeObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!can_write(self, "preparing while another thread queries the tree")) return NULL;
    CHECK(ht_tree_prepare(self->tree), "preparing the tree");
    self->dirty = 0;
    Py_RETURN_NONE;
}

static PyObject *Tree_prepare_points(TreeObject *self, PyObject *args) {
    int root;
    if (!PyArg_ParseTuple(args, "i:prepare_points", &root)) return NULL;
    if (!can_write(self, "preparing while another thread queries the tree")) return NULL;
    CHECK(ht_tree_prepare_points(self->tree, root), "building the answer grid");
    self->dirty = 0;
    self->grid_root = root;
    self->grid_fresh = 1;
    Py_RETURN_NONE;
}

static PyObject *Tree_validate(TreeObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!can_write(self, "validating while another thread queries the tree")) return NULL;
    CHECK(ht_tree_validate(self->tree), "validating the tree");
    Py_RETURN_NONE;
}

static PyObject *Tree_node_count(TreeObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!tree_ok(self)) return NULL;
    int32_t n = 0;
    CHECK(ht_tree_node_count(self->tree, &n), "counting nodes");
    return PyLong_FromLong(n);
}

static PyObject *Tree_create_node(TreeObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!can_write(self, "creating a node while another thread queries the tree")) return NULL;
    ht_node n = HT_NULL_NODE;
    CHECK(ht_node_create(self->tree, &n), "creating a node");
    mutated(self);
    return PyLong_FromLong(n);
}

static PyObject *Tree_free_node(TreeObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i:free_node", &n)) return NULL;
    if (!can_write(self, "freeing a node while another thread queries the tree")) return NULL;
    CHECK(ht_node_free(self->tree, n), "freeing a node");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_attach(TreeObject *self, PyObject *args) {
    int child, parent, position = INT32_MAX;
    if (!PyArg_ParseTuple(args, "ii|i:attach", &child, &parent, &position)) return NULL;
    if (!can_write(self, "attaching a node while another thread queries the tree")) return NULL;
    CHECK(ht_node_attach(self->tree, child, parent, position), "attaching a node");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_detach(TreeObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i:detach", &n)) return NULL;
    if (!can_write(self, "detaching a node while another thread queries the tree")) return NULL;
    CHECK(ht_node_detach(self->tree, n), "detaching a node");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_center(TreeObject *self, PyObject *args) {
    int n;
    double x, y;
    if (!PyArg_ParseTuple(args, "idd:set_center", &n, &x, &y)) return NULL;
    if (!can_write(self, "setting center while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_center(self->tree, n, x, y), "setting center");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_bounds(TreeObject *self, PyObject *args) {
    int n;
    double x, y, w, h;
    if (!PyArg_ParseTuple(args, "idddd:set_bounds", &n, &x, &y, &w, &h)) return NULL;
    if (!can_write(self, "setting bounds while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_bounds(self->tree, n, x, y, w, h), "setting bounds");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_anchor(TreeObject *self, PyObject *args) {
    int n;
    double x, y;
    if (!PyArg_ParseTuple(args, "idd:set_anchor", &n, &x, &y)) return NULL;
    if (!can_write(self, "setting anchor while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_anchor(self->tree, n, x, y), "setting anchor");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_transform(TreeObject *self, PyObject *args) {
    int n;
    ht_affine t;
    if (!PyArg_ParseTuple(args, "idddddd:set_transform", &n, &t.a, &t.b, &t.c, &t.d, &t.tx, &t.ty))
        return NULL;
    if (!can_write(self, "setting transform while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_transform(self->tree, n, &t), "setting transform");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_flags(TreeObject *self, PyObject *args) {
    int n;
    PyObject *value;
    if (!PyArg_ParseTuple(args, "iO:set_flags", &n, &value)) return NULL;
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "set_flags: flags must be an int of HT_FLAG_* bits, got %.100s",
                     Py_TYPE(value)->tp_name);
        return NULL;
    }
    /* Checked, not truncated ("I" would store 2**32 + 1 as 1). */
    unsigned long long f = PyLong_AsUnsignedLongLong(value);
    if ((f == (unsigned long long)-1 && PyErr_Occurred()) || f > 0xFFFFFFFFull) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "set_flags: flags %R is out of range: HT_FLAG_* bits, within 0 ... 0xFFFFFFFF", value);
        return NULL;
    }
    if (!can_write(self, "setting flags while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_flags(self->tree, n, (uint32_t)f), "setting flags");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_alpha(TreeObject *self, PyObject *args) {
    int n;
    double a;
    if (!PyArg_ParseTuple(args, "id:set_alpha", &n, &a)) return NULL;
    if (!can_write(self, "setting alpha while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_alpha(self->tree, n, a), "setting alpha");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_insets(TreeObject *self, PyObject *args) {
    int n;
    double t, l, b, r;
    if (!PyArg_ParseTuple(args, "idddd:set_insets", &n, &t, &l, &b, &r)) return NULL;
    if (!can_write(self, "setting insets while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_insets(self->tree, n, t, l, b, r), "setting insets");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_set_priority(TreeObject *self, PyObject *args) {
    int n, p;
    if (!PyArg_ParseTuple(args, "ii:set_priority", &n, &p)) return NULL;
    if (!can_write(self, "setting priority while another thread queries the tree")) return NULL;
    CHECK(ht_node_set_priority(self->tree, n, p), "setting priority");
    mutated(self);
    Py_RETURN_NONE;
}

static PyObject *Tree_parent(TreeObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i:parent", &n)) return NULL;
    if (!tree_ok(self)) return NULL;
    ht_node p = HT_NULL_NODE;
    CHECK(ht_node_parent(self->tree, n, &p), "reading the parent");
    return PyLong_FromLong(p);
}

static PyObject *Tree_children(TreeObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i:children", &n)) return NULL;
    if (!tree_ok(self)) return NULL;
    int32_t count = 0;
    CHECK(ht_node_child_count(self->tree, n, &count), "counting children");
    PyObject *list = PyList_New(count);
    if (list == NULL) return NULL;
    for (int32_t i = 0; i < count; i++) {
        ht_node c = HT_NULL_NODE;
        ht_status s = ht_node_child_at(self->tree, n, i, &c);
        if (s != HT_OK) {
            Py_DECREF(list);
            return raise_status(s, "reading a child");
        }
        PyObject *v = PyLong_FromLong(c);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyObject *Tree_record(TreeObject *self, PyObject *args) {
    int n;
    if (!PyArg_ParseTuple(args, "i:record", &n)) return NULL;
    if (!tree_ok(self)) return NULL;
    ht_node_record r;
    CHECK(ht_node_get_record(self->tree, n, &r), "reading a node");
    return Py_BuildValue(
        "{s:(dd),s:(dddd),s:(dd),s:(dddddd),s:d,s:(dddd),s:I,s:i,s:i,s:i}",
        "center", r.center_x, r.center_y,
        "bounds", r.bounds_x, r.bounds_y, r.bounds_w, r.bounds_h,
        "anchor", r.anchor_x, r.anchor_y,
        "transform", r.transform.a, r.transform.b, r.transform.c, r.transform.d, r.transform.tx, r.transform.ty,
        "alpha", r.alpha,
        "insets", r.inset_top, r.inset_left, r.inset_bottom, r.inset_right,
        "flags", (unsigned int)r.flags, "priority", (int)r.priority, "parent", (int)r.parent,
        "child_count", (int)r.child_count);
}

/* Prepares what a query needs when nothing else is querying (under the GIL). */
static int ready_for_query(TreeObject *self, ht_node root, size_t count) {
    if (!tree_ok(self)) return 0;
    if (self->dirty) {
        /* No query can be running: mutations are refused while one does. */
        ht_status s = ht_tree_prepare(self->tree);
        if (s != HT_OK) {
            raise_status(s, "preparing the tree");
            return 0;
        }
        self->dirty = 0;
    }
    if (count >= HT_BULK_GRID_MIN && self->active == 0 && (!self->grid_fresh || self->grid_root != root)) {
        ht_status s = ht_tree_prepare_points(self->tree, root);
        if (s != HT_OK) {
            raise_status(s, "building the answer grid");
            return 0;
        }
        self->grid_root = root;
        self->grid_fresh = 1;
    }
    return 1;
}

static PyObject *Tree_hit_test_one(TreeObject *self, PyObject *args) {
    int root;
    double x, y;
    if (!PyArg_ParseTuple(args, "idd:hit_test_one", &root, &x, &y)) return NULL;
    if (!ready_for_query(self, root, 1)) return NULL;
    ht_node out = HT_NULL_NODE;
    CHECK(ht_tree_hit_test(self->tree, root, x, y, NULL, &out), "hit-testing a point");
    return PyLong_FromLong(out);
}

static int is_format(const char *format, char want) {
    if (format == NULL) return want == 'B';
    if (format[0] == '@' || format[0] == '=' || format[0] == '<') format++;
    return format[0] == want && format[1] == '\0';
}

/* _hit_test_strided(root, xs, ys, out): xs and ys 1-D float64 buffers of equal length and equal
 * positive stride (a multiple of 8 bytes), out a writable C-contiguous int32 buffer as long. */
static PyObject *Tree_hit_test_strided(TreeObject *self, PyObject *args) {
    int root;
    PyObject *xo, *yo, *oo;
    if (!PyArg_ParseTuple(args, "iOOO:_hit_test_strided", &root, &xo, &yo, &oo)) return NULL;
    Py_buffer xb, yb, ob;
    if (PyObject_GetBuffer(xo, &xb, PyBUF_STRIDES | PyBUF_FORMAT) != 0) return NULL;
    if (PyObject_GetBuffer(yo, &yb, PyBUF_STRIDES | PyBUF_FORMAT) != 0) {
        PyBuffer_Release(&xb);
        return NULL;
    }
    if (PyObject_GetBuffer(oo, &ob, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
        PyBuffer_Release(&xb);
        PyBuffer_Release(&yb);
        return NULL;
    }
    PyObject *result = NULL;
    const char *problem = NULL;
    Py_ssize_t n = 0, stride = 0;
    if (xb.ndim != 1 || yb.ndim != 1 || ob.ndim != 1) problem = "xs, ys and out must be 1-D";
    else if (xb.itemsize != 8 || yb.itemsize != 8 || !is_format(xb.format, 'd') || !is_format(yb.format, 'd'))
        problem = "xs and ys must hold float64";
    else if (ob.itemsize != 4 || !(is_format(ob.format, 'i') || is_format(ob.format, 'l')))
        problem = "out must hold int32";
    else if (xb.shape[0] != yb.shape[0] || xb.shape[0] != ob.shape[0])
        problem = "xs, ys and out must have the same length";
    else {
        n = xb.shape[0];
        stride = xb.strides[0];
        if (n > 1 && (stride != yb.strides[0] || stride <= 0 || stride % 8 != 0))
            problem = "xs and ys must have the same positive stride, a multiple of 8 bytes";
    }
    if (problem != NULL) {
        PyErr_SetString(PyExc_ValueError, problem);
    } else if (ready_for_query(self, root, (size_t)n)) {
        size_t step = n > 1 ? (size_t)(stride / 8) : 1;
        ht_status s = HT_OK;
        if (n > 0) {
            self->active++;
            Py_BEGIN_ALLOW_THREADS
            s = ht_tree_hit_test_strided(self->tree, root, (const double *)xb.buf, (const double *)yb.buf,
                                         step, (size_t)n, NULL, (ht_node *)ob.buf);
            Py_END_ALLOW_THREADS
            self->active--;
        }
        if (s != HT_OK) raise_status(s, "hit-testing points");
        else {
            result = Py_None;
            Py_INCREF(result);
        }
    }
    PyBuffer_Release(&xb);
    PyBuffer_Release(&yb);
    PyBuffer_Release(&ob);
    return result;
}

static PyObject *Tree_convert_point(TreeObject *self, PyObject *args) {
    int from, to;
    double x, y;
    if (!PyArg_ParseTuple(args, "iidd:convert_point", &from, &to, &x, &y)) return NULL;
    if (!ready_for_query(self, from, 1)) return NULL;
    double ox = 0, oy = 0;
    CHECK(ht_tree_convert_point(self->tree, from, to, x, y, &ox, &oy), "converting a point");
    return Py_BuildValue("(dd)", ox, oy);
}

static PyObject *Tree_close(TreeObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->tree == NULL) Py_RETURN_NONE;
    if (!can_write(self, "closing while another thread queries the tree")) return NULL;
    ht_tree_destroy(self->tree);
    self->tree = NULL;
    Py_RETURN_NONE;
}

static PyMethodDef Tree_methods[] = {
    {"_load_file", (PyCFunction)Tree_load_file, METH_O | METH_CLASS, "Loads a snapshot file."},
    {"_from_bytes", (PyCFunction)Tree_from_bytes, METH_O | METH_CLASS, "Loads a snapshot from a bytes-like object."},
    {"save", (PyCFunction)Tree_save, METH_O, "save(path): writes the tree as a snapshot file."},
    {"to_bytes", (PyCFunction)Tree_to_bytes, METH_NOARGS, "to_bytes() -> bytes: the tree as a snapshot."},
    {"prepare", (PyCFunction)Tree_prepare, METH_NOARGS, "Brings the query structures up to date (queries do it themselves)."},
    {"prepare_points", (PyCFunction)Tree_prepare_points, METH_VARARGS, "prepare_points(root): builds the answer grid of root for bulk queries."},
    {"validate", (PyCFunction)Tree_validate, METH_NOARGS, "Checks every internal invariant (HitTestError when one fails)."},
    {"node_count", (PyCFunction)Tree_node_count, METH_NOARGS, "node_count() -> int: live nodes."},
    {"create_node", (PyCFunction)Tree_create_node, METH_NOARGS, "create_node() -> handle: a detached node with UIKit's defaults."},
    {"free_node", (PyCFunction)Tree_free_node, METH_VARARGS, "free_node(node): frees a node (its handle becomes stale)."},
    {"attach", (PyCFunction)Tree_attach, METH_VARARGS, "attach(child, parent, position=end): makes child a subview of parent."},
    {"detach", (PyCFunction)Tree_detach, METH_VARARGS, "detach(node): removes node from its parent."},
    {"set_center", (PyCFunction)Tree_set_center, METH_VARARGS, "set_center(node, x, y)"},
    {"set_bounds", (PyCFunction)Tree_set_bounds, METH_VARARGS, "set_bounds(node, x, y, width, height)"},
    {"set_anchor", (PyCFunction)Tree_set_anchor, METH_VARARGS, "set_anchor(node, x, y)"},
    {"set_transform", (PyCFunction)Tree_set_transform, METH_VARARGS, "set_transform(node, a, b, c, d, tx, ty)"},
    {"set_flags", (PyCFunction)Tree_set_flags, METH_VARARGS, "set_flags(node, flags): HT_FLAG_* bits."},
    {"set_alpha", (PyCFunction)Tree_set_alpha, METH_VARARGS, "set_alpha(node, alpha)"},
    {"set_insets", (PyCFunction)Tree_set_insets, METH_VARARGS, "set_insets(node, top, left, bottom, right)"},
    {"set_priority", (PyCFunction)Tree_set_priority, METH_VARARGS, "set_priority(node, priority)"},
    {"parent", (PyCFunction)Tree_parent, METH_VARARGS, "parent(node) -> handle or -1."},
    {"children", (PyCFunction)Tree_children, METH_VARARGS, "children(node) -> list of handles, back to front."},
    {"record", (PyCFunction)Tree_record, METH_VARARGS, "record(node) -> dict of the stored values."},
    {"hit_test_one", (PyCFunction)Tree_hit_test_one, METH_VARARGS, "hit_test_one(root, x, y) -> handle or -1 (root's bounds space)."},
    {"_hit_test_strided", (PyCFunction)Tree_hit_test_strided, METH_VARARGS, "The bulk call behind hit_test (GIL released)."},
    {"convert_point", (PyCFunction)Tree_convert_point, METH_VARARGS, "convert_point(from, to, x, y) -> (x, y)."},
    {"close", (PyCFunction)Tree_close, METH_NOARGS, "Frees the C tree now (later calls raise HitTestError)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hittest._core.Tree",
    .tp_doc = "A HitTestKit C tree (ht_tree).",
    .tp_basicsize = sizeof(TreeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = Tree_new,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
};

static PyObject *status_string(PyObject *Py_UNUSED(m), PyObject *arg) {
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(ht_status_string((ht_status)s));
}

static PyMethodDef module_methods[] = {
    {"status_string", status_string, METH_O, "The C core's description of a status code."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "hittest._core", "HitTestKit's C core.", -1, module_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&TreeType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    HitTestError = PyErr_NewExceptionWithDoc(
        "hittest.HitTestError",
        "An error from HitTestKit's C core: .status (the ht_status code), .status_name, .message "
        "(the C description) and .what (what was being done).",
        PyExc_RuntimeError, NULL);
    if (HitTestError == NULL || PyModule_AddObject(m, "HitTestError", HitTestError) < 0) {
        Py_XDECREF(HitTestError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(HitTestError);
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "NULL_NODE", HT_NULL_NODE);
    PyModule_AddIntConstant(m, "PENDING_NODE", HT_PENDING_NODE);
    PyModule_AddIntConstant(m, "BULK_GRID_MIN", HT_BULK_GRID_MIN);
    PyModule_AddIntConstant(m, "FLAG_HIDDEN", HT_FLAG_HIDDEN);
    PyModule_AddIntConstant(m, "FLAG_NO_INTERACTION", HT_FLAG_NO_INTERACTION);
    PyModule_AddIntConstant(m, "FLAG_PASS_THROUGH", HT_FLAG_PASS_THROUGH);
    PyModule_AddIntConstant(m, "FLAG_CAPTURES", HT_FLAG_CAPTURES);
    PyModule_AddIntConstant(m, "FLAG_OUTSIDE_HITS", HT_FLAG_OUTSIDE_HITS);
    PyModule_AddIntConstant(m, "FLAG_ASK_POINT_INSIDE", HT_FLAG_ASK_POINT_INSIDE);
    PyModule_AddIntConstant(m, "FLAG_ASK_HIT_TEST", HT_FLAG_ASK_HIT_TEST);
    PyModule_AddIntConstant(m, "FLAG_CLIPS", HT_FLAG_CLIPS);
    PyModule_AddIntConstant(m, "FLAG_BLOCKED", HT_FLAG_BLOCKED);
    return m;
}
