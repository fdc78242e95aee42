/* The Python face of the model check (solvers.core._check): first_falsified and
 * falsified_rows, each checking its arrays at the boundary (element size and kind,
 * C contiguity, shape, offsets rising within the literals), so that bad input is a
 * ValueError, never a crash.  solvers/backends/model_check.py is their Python face.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "clause_check.h"
#include "lrat_check.h"
#include "boundary.h"

/* The clauses: int32 literals and int64 offsets rising from 0 to len(literals); the
 * number of clauses in *m. */
static int get_clauses(PyObject *lits, PyObject *offsets, Py_buffer v[2], int64_t *m) {
    if (get_view(lits, &v[0], "literals", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(offsets, &v[1], "offsets", SIGNED, 8, (Shape){1, -2, 1, 0}, 0) < 0)
        return -1;
    *m = v[1].shape[0] - 1;
    return check_offsets(&v[1], v[0].shape[0]);
}

/* first_falsified(literals, offsets, model, num_vars) -> int */
static PyObject *py_first_falsified(PyObject *self, PyObject *args) {
    PyObject *lits, *offsets, *model;
    long long nv;
    if (!PyArg_ParseTuple(args, "OOOL", &lits, &offsets, &model, &nv)) return NULL;
    if (nv < 0 || nv > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "num_vars %lld is not in 0..2**31-1", nv);
        return NULL;
    }
    Py_buffer v[3] = {{0}};
    int64_t m;
    if (get_clauses(lits, offsets, v, &m) < 0 ||
        get_view(model, &v[2], "model", SIGNED, 8, (Shape){1, -1, 0, 0}, 0) < 0) {
        release(v, 3);
        return NULL;
    }
    uint8_t *row = calloc((size_t)(3 * nv + 1), 1); /* the row, then the literals' values */
    if (!row) {
        release(v, 3);
        return PyErr_NoMemory();
    }
    const int64_t *given = v[2].buf;
    for (Py_ssize_t i = 0; i < v[2].shape[0]; i++)
        if (given[i] > 0 && given[i] <= nv) row[given[i] - 1] = 1;
    int64_t c = first_falsified_row(v[0].buf, v[1].buf, m, row, nv, row + nv);
    free(row);
    release(v, 3);
    return PyLong_FromLongLong(c);
}

/* falsified_rows(literals, offsets, true) -> bytearray of int64, one a row of `true` (a
 * 2-d array of booleans: column v - 1 is variable v). */
static PyObject *py_falsified_rows(PyObject *self, PyObject *args) {
    PyObject *lits, *offsets, *truth;
    if (!PyArg_ParseTuple(args, "OOO", &lits, &offsets, &truth)) return NULL;
    Py_buffer v[3] = {{0}};
    int64_t m;
    if (get_clauses(lits, offsets, v, &m) < 0 ||
        get_view(truth, &v[2], "true", BOOL, 1, (Shape){2, -1, 0, -1}, 0) < 0) {
        release(v, 3);
        return NULL;
    }
    Py_ssize_t rows = v[2].shape[0], cols = v[2].shape[1];
    PyObject *out = PyByteArray_FromStringAndSize(NULL, rows * (Py_ssize_t)sizeof(int64_t));
    uint8_t *value = malloc((size_t)(2 * cols + 1));
    if (out && value) {
        int64_t *first = (int64_t *)PyByteArray_AS_STRING(out);
        const uint8_t *row = v[2].buf;
        for (Py_ssize_t r = 0; r < rows; r++)
            first[r] = first_falsified_row(v[0].buf, v[1].buf, m, row + r * cols, cols, value);
    } else if (out) {
        Py_CLEAR(out);
        PyErr_NoMemory();
    }
    free(value);
    release(v, 3);
    return out;
}

/* lrat_check(literals, offsets, num_vars, proof) -> (lemmas, deletions, widest, empty):
 * the LRAT proof (a bytes-like object) checked against the formula; a refused proof is
 * a ValueError (line, problem), the caller's to word. */
static PyObject *py_lrat_check(PyObject *self, PyObject *args) {
    PyObject *lits, *offsets, *proof;
    long long nv;
    if (!PyArg_ParseTuple(args, "OOLO", &lits, &offsets, &nv, &proof)) return NULL;
    if (nv < 0 || nv > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "num_vars %lld is not in 0..2**31-1", nv);
        return NULL;
    }
    Py_buffer v[2] = {{0}}, text = {0};
    int64_t m;
    if (get_clauses(lits, offsets, v, &m) < 0) {
        release(v, 2);
        return NULL;
    }
    const int32_t *fl = v[0].buf;
    for (Py_ssize_t i = 0; i < v[0].shape[0]; i++)
        if (fl[i] == 0 || fl[i] < -nv || fl[i] > nv) {
            PyErr_Format(PyExc_ValueError, "formula literal %d is 0 or beyond %lld", fl[i], nv);
            release(v, 2);
            return NULL;
        }
    if (PyObject_GetBuffer(proof, &text, PyBUF_SIMPLE) < 0) {
        release(v, 2);
        return NULL;
    }
    LratVerdict out;
    int64_t line = 0;
    char msg[200] = "";
    Poll poll;
    core_release(&poll);
    const int r = lrat_check(fl, v[1].buf, m, nv, text.buf, text.len, &out, &line, msg, &poll);
    core_reacquire(&poll);
    PyBuffer_Release(&text);
    release(v, 2);
    if (r == -3) return NULL; /* the signal handler's exception is set */
    if (r == -2) return PyErr_NoMemory();
    if (r == -1) {
        PyObject *err = Py_BuildValue("(Ls)", (long long)line, msg);
        if (err) PyErr_SetObject(PyExc_ValueError, err);
        Py_XDECREF(err);
        return NULL;
    }
    return Py_BuildValue("(LLLi)", (long long)out.lemmas, (long long)out.deletions,
                         (long long)out.widest, out.empty);
}

static PyMethodDef module_methods[] = {
    {"lrat_check", py_lrat_check, METH_VARARGS,
     "lrat_check(literals, offsets, num_vars, proof) -> (lemmas, deletions, widest, empty)"},
    {"first_falsified", py_first_falsified, METH_VARARGS,
     "first_falsified(literals, offsets, model, num_vars) -> the first clause model "
     "falsifies, or -1"},
    {"falsified_rows", py_falsified_rows, METH_VARARGS,
     "falsified_rows(literals, offsets, true) -> bytearray of int64: first_falsified of "
     "each row"},
    {NULL},
};

static struct PyModuleDef check_module = {
    PyModuleDef_HEAD_INIT, "_check", "The model check of sudoku-sat (see solvers.backends.model_check).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__check(void) {
    PyObject *m = PyModule_Create(&check_module);
    return m ? with_constants(m, NULL, 0) : NULL; /* the build's digest alone */
}
