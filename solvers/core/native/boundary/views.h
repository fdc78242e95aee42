/* Views of numpy arrays at the boundary of the length kernels and the model check
 * (views.c): each array crosses through the buffer protocol without a copy, checked for
 * its element kind and size, C contiguity and shape first, so a bad one is a ValueError
 * naming it, never a crash.
 */
#ifndef SUDOKU_VIEWS_H
#define SUDOKU_VIEWS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

enum { SIGNED = 0, UNSIGNED = 1, BOOL = 2 };

/* Get a C-contiguous buffer (writable if asked) of `kind` items of `itemsize` bytes,
 * `ndim` dimensions, shape (d0, d1) where -1 is any and -2 is "at least min0"; on failure
 * set ValueError naming the array and return -1. */
int get_view(PyObject *obj, Py_buffer *view, const char *name, int kind, int itemsize, int ndim,
             Py_ssize_t d0, Py_ssize_t min0, Py_ssize_t d1, int writable);

/* Release the first n views that were taken (a view never taken has no obj). */
void release(Py_buffer *views, int n);

#endif
