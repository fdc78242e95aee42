/* The checks at the core's boundary (arrays.h). */
#include "arrays.h"

#include "proof_log.h"

#include <string.h>

int get_array(PyObject *obj, Py_buffer *view, const char *name, int itemsize, int ndim,
              Py_ssize_t d0, Py_ssize_t d1, int writable) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous%s array of int%d, not %R", name,
                     writable ? " writable" : "", itemsize * 8, (PyObject *)Py_TYPE(obj));
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@') f++;
    int integer = f[0] && f[1] == 0 && strchr("bhilq", f[0]) != NULL;
    if (!integer || view->itemsize != itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must hold int%d, not format '%s' of %zd bytes", name,
                     itemsize * 8, view->format ? view->format : "B", view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    Py_ssize_t want[2] = {d0, d1};
    int bad = view->ndim != ndim;
    for (int i = 0; i < ndim && !bad; i++) bad = want[i] >= 0 && view->shape[i] != want[i];
    if (bad) {
        PyErr_Format(PyExc_ValueError,
                     "%s has the wrong shape: %d dimension(s) (%zd, %zd) where (%zd, %zd) "
                     "(-1: any) of %d dimension(s) is expected",
                     name, view->ndim, view->ndim > 0 ? view->shape[0] : 0,
                     view->ndim > 1 ? view->shape[1] : 0, d0, d1, ndim);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

int check_clause_arrays(Py_buffer *fv, Py_buffer *ov, int64_t nvars, const char *what) {
    const int64_t *flat = fv->buf, *offsets = ov->buf;
    Py_ssize_t count = ov->shape[0] - 1, total = fv->shape[0];
    if (count < 0) {
        PyErr_Format(PyExc_ValueError, "offsets must hold at least one entry (0)");
        return -1;
    }
    if (offsets[0] != 0 || offsets[count] != total) {
        PyErr_Format(PyExc_ValueError, "offsets must run from 0 to %zd (the literals), not %lld to %lld",
                     total, (long long)offsets[0], (long long)offsets[count]);
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++)
        if (offsets[i + 1] < offsets[i]) {
            PyErr_Format(PyExc_ValueError, "offsets must not decrease (at %zd)", i);
            return -1;
        }
    for (Py_ssize_t i = 0; i < total; i++)
        if (flat[i] == 0 || flat[i] > nvars || flat[i] < -nvars) {
            PyErr_Format(PyExc_ValueError, "%s: literal %lld is not in 1..%lld or its negation",
                         what, (long long)flat[i], (long long)nvars);
            return -1;
        }
    return 0;
}

int get_log(PyObject *obj, Py_buffer *view) {
    if (get_array(obj, view, "log", 8, 1, -1, -1, 1) < 0) return -1;
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

int cnf_from_arrays(Cnf *F, PyObject *fo, PyObject *oo, long long nvars) {
    if (nvars < 1 || nvars > (1LL << 30)) {
        PyErr_Format(PyExc_ValueError,
                     "num_vars must be in 1..2^30, not %lld (an empty formula has nothing to "
                     "propagate)",
                     nvars);
        return -1;
    }
    Py_buffer fv = {0}, ov = {0};
    if (get_array(fo, &fv, "flat", 8, 1, -1, -1, 0) < 0) return -1;
    if (get_array(oo, &ov, "offsets", 8, 1, -1, -1, 0) < 0 ||
        check_clause_arrays(&fv, &ov, nvars, "clauses") < 0) {
        RELEASE(&fv, &ov);
        return -1;
    }
    int r;
    Py_BEGIN_ALLOW_THREADS r = cnf_build(F, fv.buf, ov.buf, ov.shape[0] - 1, (int32_t)nvars);
    Py_END_ALLOW_THREADS RELEASE(&fv, &ov);
    if (r < 0 || cnf_room(F, 1) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}
