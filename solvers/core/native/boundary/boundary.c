/* The checks at the core's boundary (boundary.h), linked into every extension. */
#include "boundary.h"

#include "proof_log.h"

#include <string.h>

static const char *const KIND_NAMES[] = {"int", "uint", "bool"};
static const char *const KIND_FORMATS[] = {"bhilq", "BHILQ", "?"};

int get_view(PyObject *obj, Py_buffer *view, const char *name, int kind, int itemsize,
             Shape shape, int writable) {
    const int ndim = shape.ndim;
    const Py_ssize_t d0 = shape.d0, min0 = shape.min0, d1 = shape.d1;
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous%s array of %s%d, not %R", name,
                     writable ? " writable" : "", KIND_NAMES[kind], itemsize * 8,
                     (PyObject *)Py_TYPE(obj));
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    int ok = f[0] && f[1] == 0 && strchr(KIND_FORMATS[kind], f[0]) != NULL;
    if (!ok || view->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold %s%d, not format '%s' of %zd bytes", name,
                     KIND_NAMES[kind], itemsize * 8, view->format ? view->format : "B",
                     view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    int bad = view->ndim != ndim;
    if (!bad) {
        Py_ssize_t n0 = view->shape[0];
        bad = (d0 >= 0 && n0 != d0) || (d0 == -2 && n0 < min0);
        if (ndim == 2) bad = bad || (d1 >= 0 && view->shape[1] != d1);
    }
    if (bad) {
        PyErr_Format(PyExc_ValueError,
                     "%s has the wrong shape: %d dimension(s) (%zd, %zd) where %d dimension(s) "
                     "of (%zd, %zd) are expected (-1: any; -2: at least %zd)",
                     name, view->ndim, view->ndim > 0 ? view->shape[0] : 0,
                     view->ndim > 1 ? view->shape[1] : 0, ndim, d0, d1, min0);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

void release(Py_buffer *views, int n) {
    for (int i = 0; i < n; i++)
        if (views[i].obj) PyBuffer_Release(&views[i]);
}

int check_literals(const int64_t *lits, Py_ssize_t count, int64_t nvars, const char *what) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (!dimacs_in_range(lits[i], nvars)) {
            PyErr_Format(PyExc_ValueError, "%s %lld is not in 1..%lld or its negation", what,
                         (long long)lits[i], (long long)nvars);
            return -1;
        }
    return 0;
}

int check_offsets(Py_buffer *ov, Py_ssize_t total) {
    const int64_t *offsets = ov->buf;
    Py_ssize_t count = ov->shape[0] - 1;
    if (count < 0) {
        PyErr_Format(PyExc_ValueError, "offsets must hold at least one entry (0)");
        return -1;
    }
    if (offsets[0] != 0 || offsets[count] != total) {
        PyErr_Format(PyExc_ValueError,
                     "offsets must run from 0 to %zd (the literals), not %lld to %lld", total,
                     (long long)offsets[0], (long long)offsets[count]);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i]) {
            PyErr_Format(PyExc_ValueError, "offsets must not decrease (at %zd)", i);
            return -1;
        }
    return 0;
}

int check_num_vars(long long nvars) {
    if (nvars < 1 || nvars > (1LL << 30)) {
        PyErr_Format(PyExc_ValueError,
                     "num_vars must be in 1..2^30, not %lld (an empty formula has nothing to "
                     "propagate)",
                     nvars);
        return -1;
    }
    return 0;
}

int get_clause_arrays(PyObject *fo, PyObject *oo, long long nvars, Py_buffer *fv, Py_buffer *ov) {
    if (check_num_vars(nvars) < 0) return -1;
    if (get_ints(fo, fv, "flat", 8, 1, -1, -1, 0) < 0) return -1;
    if (get_ints(oo, ov, "offsets", 8, 1, -1, -1, 0) < 0 || check_offsets(ov, fv->shape[0]) < 0 ||
        check_literals(fv->buf, fv->shape[0], nvars, "clause literal") < 0) {
        RELEASE(fv, ov);
        return -1;
    }
    return 0;
}

int get_log(PyObject *obj, Py_buffer *view) {
    if (get_ints(obj, view, "log", 8, 1, -1, -1, 1) < 0) return -1;
    const int64_t *log = view->buf;
    if (view->shape[0] > 0 && (view->shape[0] < LOG_FIRST || log[LOG_HEAD] < LOG_FIRST)) {
        PyErr_Format(PyExc_ValueError,
                     "log must be empty or a proof log (solvers.core.proof_log.new_log) of at "
                     "least %d entries whose head is at least %d",
                     LOG_FIRST, LOG_FIRST);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

#ifndef SOURCES_DIGEST
#define SOURCES_DIGEST ""
#endif

PyObject *with_constants(PyObject *m, const Constant *constants, size_t n) {
    if (PyModule_AddStringConstant(m, "SOURCES_DIGEST", SOURCES_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
