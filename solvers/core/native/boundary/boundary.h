/* The core's boundary, the checks every entry point of every extension makes before a
 * kernel sees its arguments (boundary.c): numpy arrays cross through the buffer
 * protocol without copies, each checked for its element kind and size, C contiguity and
 * shape; offsets for their run; DIMACS literals for their range; a proof log for its
 * head.  Bad input becomes a ValueError naming the argument, never a crash.
 */
#ifndef SUDOKU_BOUNDARY_H
#define SUDOKU_BOUNDARY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "codes.h"

enum { SIGNED = 0, UNSIGNED = 1, BOOL = 2 };

/* The shape an array must have: ndim dimensions (d0, d1), where -1 is any and, for d0,
 * -2 is "at least min0" (d1 is read only when ndim is 2). */
typedef struct Shape {
    int ndim;
    Py_ssize_t d0, min0, d1;
} Shape;

/* Get a C-contiguous buffer (writable if asked) of `kind` items of `itemsize` bytes and
 * that shape; on failure set ValueError naming the array and return -1. */
int get_view(PyObject *obj, Py_buffer *view, const char *name, int kind, int itemsize,
             Shape shape, int writable);

/* get_view of signed integers of any length on the dimensions that are -1. */
static inline int get_ints(PyObject *obj, Py_buffer *view, const char *name, int itemsize,
                           int ndim, Py_ssize_t d0, Py_ssize_t d1, int writable) {
    return get_view(obj, view, name, SIGNED, itemsize, (Shape){ndim, d0, 0, d1}, writable);
}

/* Release the first n views that were taken (a view never taken has no obj). */
void release(Py_buffer *views, int n);

/* Release the views named, those taken (a view never taken has no obj). */
#define RELEASE(...)                                                                  \
    do {                                                                              \
        Py_buffer *views_[] = {__VA_ARGS__};                                          \
        for (size_t i_ = 0; i_ < sizeof(views_) / sizeof(views_[0]); i_++)            \
            if (views_[i_]->obj) PyBuffer_Release(views_[i_]);                        \
    } while (0)

/* -1 with a ValueError "<what> <lit> is not in 1..nvars or its negation" for the first
 * literal of lits[0 .. count) out of range; else 0. */
int check_literals(const int64_t *lits, Py_ssize_t count, int64_t nvars, const char *what);

/* -1 with a ValueError unless offsets (int64, at least one entry) run from 0 to total
 * without decreasing: the sets flat[offsets[i] .. offsets[i + 1]) of a flat array. */
int check_offsets(Py_buffer *offsets, Py_ssize_t total);

/* Get the views of a formula's DIMACS clauses flat[offsets[i] .. offsets[i + 1]) (int64
 * arrays) over nvars variables, every check made (num_vars, offsets, literals): 0, or -1
 * with a ValueError and no view held. */
int get_clause_arrays(PyObject *flat, PyObject *offsets, long long nvars, Py_buffer *fv,
                Py_buffer *ov);

/* -1 with a ValueError unless num_vars is in 1..2^30 (a variable's code fits int32). */
int check_num_vars(long long nvars);

/* A named integer an extension exports, so that Python reads the one definition C has. */
typedef struct {
    const char *name;
    long long value;
} Constant;

/* Module m with the n constants added, and SOURCES_DIGEST (the build's digest of the
 * native sources, build.py's `digest`; "" for a build that does not define it), or NULL
 * with the exception set (m released). */
PyObject *with_constants(PyObject *m, const Constant *constants, size_t n);

/* Get a proof log (proof_log.h): an int64 array, empty (record nothing) or of at least
 * LOG_FIRST entries whose head is at least LOG_FIRST; on failure set a ValueError. */
int get_log(PyObject *obj, Py_buffer *view);

#endif
