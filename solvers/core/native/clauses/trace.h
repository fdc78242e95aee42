/* Unit propagation with reasons, for explanations (trace.c): the `Trace` type of the
 * `_core` extension, added to the module by PyInit__core. */
#ifndef SUDOKU_TRACE_H
#define SUDOKU_TRACE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Add the Trace type to `module`: 0, or -1 with a Python exception set. */
int trace_add_type(PyObject *module);

#endif
