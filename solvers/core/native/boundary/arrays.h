/* The checks at the core's boundary, shared by its extensions (arrays.c): numpy arrays
 * cross it through the buffer protocol without copies, and each is checked for its
 * element size, C contiguity and shape, and each literal for its range, before a kernel
 * sees it, so bad input becomes a Python exception, never a crash.
 */
#ifndef SUDOKU_ARRAYS_H
#define SUDOKU_ARRAYS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "clauses.h"

/* Get a C-contiguous buffer of integers of `itemsize` bytes, `ndim` dimensions and the
 * given shape (-1: any), writable if asked; on failure set a ValueError naming it. */
int get_array(PyObject *obj, Py_buffer *view, const char *name, int itemsize, int ndim,
              Py_ssize_t d0, Py_ssize_t d1, int writable);

/* Check DIMACS literals flat[offsets[i] .. offsets[i+1]) against nvars; -1 with a
 * ValueError naming the first bad one. */
int check_clause_arrays(Py_buffer *fv, Py_buffer *ov, int64_t nvars, const char *what);

/* Build F from the DIMACS clauses flat[offsets[i] .. offsets[i+1]) (int64 arrays) over
 * nvars variables (1 .. 2^30), every value checked first, the GIL released while it
 * builds: 0, or -1 with a Python exception set. */
int cnf_from_arrays(Cnf *F, PyObject *flat, PyObject *offsets, long long nvars);

/* Get a proof log (proof_log.h): an int64 array, empty (record nothing) or of at least
 * LOG_FIRST entries whose head is at least LOG_FIRST; on failure set a ValueError. */
int get_log(PyObject *obj, Py_buffer *view);

/* Release the views that were taken (a view never taken has no obj). */
#define RELEASE(...)                                                                  \
    do {                                                                              \
        Py_buffer *views_[] = {__VA_ARGS__};                                          \
        for (size_t i_ = 0; i_ < sizeof(views_) / sizeof(views_[0]); i_++)            \
            if (views_[i_]->obj) PyBuffer_Release(views_[i_]);                        \
    } while (0)

#endif
