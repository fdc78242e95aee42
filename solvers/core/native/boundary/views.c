/* Views of numpy arrays at the boundary (views.h): the checks shared by length_module.c
 * and check_module.c. */
#include "views.h"

#include <string.h>

static const char *const KIND_NAMES[] = {"int", "uint", "bool"};
static const char *const KIND_FORMATS[] = {"bhilq", "BHILQ", "?"};

int get_view(PyObject *obj, Py_buffer *view, const char *name, int kind, int itemsize, int ndim,
             Py_ssize_t d0, Py_ssize_t min0, Py_ssize_t d1, int writable) {
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
                     KIND_NAMES[kind], itemsize * 8,
                     view->format ? view->format : "B", view->itemsize);
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
