/* Unit propagation with reasons, for explanations: `Trace(flat, offsets, num_vars)` and
 * its `trace(assumptions)` (solvers.core.engine.Engine.trace).
 *
 * A trace answers "which clause put each literal on the trail, and which clause was
 * falsified".  It is not the clause engine's watched propagation (clauses.c) on
 * purpose: it visits every clause of a literal that becomes false, in the formula's
 * order, so the clause named as a reason depends on the formula and the question
 * alone, never on where earlier queries left the watches, and the hot loop of the
 * clause engine carries no reason bookkeeping.  Explanations ask a few hundred traces
 * of a grid; on the exam's 9x9 formula a trace visits about 40,000 clause slots.
 *
 * Clauses are kept as given but for their duplicate literals (merged) and tautologies
 * (dropped: always satisfied); each keeps its input index, which is what a reason is.
 * The root level (the unit clauses and what they imply) is propagated once and never
 * listed; each trace starts from it and returns to it.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "boundary.h"
#include "codes.h"
#include "trace.h"

typedef struct {
    PyObject_HEAD int32_t nvars;
    int ready;
    int32_t *lits;   /* the kept clauses' literal codes, flat */
    int64_t *cstart; /* nclauses + 1 */
    int64_t *orig;   /* each kept clause's input index */
    int64_t *ostart; /* occ[ostart[x] .. ostart[x + 1]): the kept clauses holding code x */
    int32_t *occ;
    int8_t *value;   /* per code: 1 true, -1 false, 0 unassigned */
    int32_t *trail;
    int64_t *reason; /* per variable: the input index of the clause that implied it, -1 */
    int64_t root;    /* the trail's size at the root level */
    int64_t root_conflict; /* the clause refuting the formula at the root, or -1 */
} TraceObject;


static void trace_free(TraceObject *T) {
    free(T->lits);
    free(T->cstart);
    free(T->orig);
    free(T->ostart);
    free(T->occ);
    free(T->value);
    free(T->trail);
    free(T->reason);
    T->lits = T->occ = T->trail = NULL;
    T->cstart = T->orig = T->ostart = T->reason = NULL;
    T->value = NULL;
}

static void trace_dealloc(TraceObject *self) {
    trace_free(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void assign(TraceObject *T, int64_t *size, int32_t lit, int64_t why) {
    T->value[lit] = 1;
    T->value[lit ^ 1] = -1;
    T->reason[lit >> 1] = why;
    T->trail[(*size)++] = lit;
}

/* Propagate the trail from `head`: -1, or the input index of a falsified clause. */
static int64_t propagate(TraceObject *T, int64_t head, int64_t *size) {
    const int8_t *value = T->value;
    while (head < *size) {
        int32_t false_lit = T->trail[head++] ^ 1;
        for (int64_t o = T->ostart[false_lit]; o < T->ostart[false_lit + 1]; o++) {
            int32_t c = T->occ[o], open = -1, unassigned = 0, satisfied = 0;
            for (int64_t k = T->cstart[c]; k < T->cstart[c + 1] && !satisfied; k++) {
                int32_t lit = T->lits[k];
                if (value[lit] == 1)
                    satisfied = 1;
                else if (value[lit] == 0) {
                    open = lit;
                    unassigned++;
                }
            }
            if (satisfied || unassigned > 1) continue;
            if (unassigned == 0) return T->orig[c];
            assign(T, size, open, T->orig[c]);
        }
    }
    return -1;
}

static void undo(TraceObject *T, int64_t size) {
    for (int64_t i = T->root; i < size; i++) {
        int32_t lit = T->trail[i];
        T->value[lit] = T->value[lit ^ 1] = 0;
    }
}

/* Keep the clauses but tautologies, their literals merged; index the occurrences;
 * propagate the root.  0, or -1 when out of memory. */
static int trace_build(TraceObject *T, const int64_t *flat, const int64_t *offsets,
                       int64_t count, int32_t nvars) {
    int64_t total = offsets[count], nlits = 2 * (int64_t)nvars;
    T->nvars = nvars;
    T->root_conflict = -1;
    T->lits = malloc(sizeof(int32_t) * (size_t)(total + 1));
    T->cstart = malloc(sizeof(int64_t) * (size_t)(count + 1));
    T->orig = malloc(sizeof(int64_t) * (size_t)(count + 1));
    T->ostart = calloc((size_t)nlits + 2, sizeof(int64_t));
    T->occ = malloc(sizeof(int32_t) * (size_t)(total + 1));
    T->value = calloc((size_t)nlits + 1, 1);
    T->trail = malloc(sizeof(int32_t) * (size_t)(nvars + 1));
    T->reason = malloc(sizeof(int64_t) * (size_t)(nvars + 1));
    if (!T->lits || !T->cstart || !T->orig || !T->ostart || !T->occ || !T->value || !T->trail ||
        !T->reason)
        return -1;
    int64_t kept = 0, q = 0;
    T->cstart[0] = 0;
    for (int64_t i = 0; i < count; i++) {
        int64_t a = offsets[i], b = offsets[i + 1], start = q;
        for (int64_t p = a; p < b; p++) T->lits[q++] = lit_code(flat[p]);
        int64_t size = normal_clause(T->lits + start, q - start);
        q = size < 0 ? start : start + size;
        if (size < 0) continue;                                        /* a tautology */
        if (size == 0 && T->root_conflict < 0) T->root_conflict = i; /* an empty clause */
        T->orig[kept++] = i;
        T->cstart[kept] = q;
    }
    for (int64_t p = 0; p < q; p++) T->ostart[T->lits[p] + 1]++;
    for (int64_t x = 0; x < nlits; x++) T->ostart[x + 1] += T->ostart[x];
    int64_t *fill = malloc(sizeof(int64_t) * (size_t)(nlits + 1));
    if (!fill) return -1;
    memcpy(fill, T->ostart, sizeof(int64_t) * (size_t)(nlits + 1));
    for (int64_t c = 0; c < kept; c++) /* in the formula's order: the reasons' order */
        for (int64_t p = T->cstart[c]; p < T->cstart[c + 1]; p++)
            T->occ[fill[T->lits[p]]++] = (int32_t)c;
    free(fill);
    int64_t size = 0;
    for (int64_t c = 0; c < kept && T->root_conflict < 0; c++) {
        if (T->cstart[c + 1] - T->cstart[c] != 1) continue;
        int32_t unit = T->lits[T->cstart[c]];
        if (T->value[unit] == -1) {
            T->root_conflict = T->orig[c];
        } else if (T->value[unit] == 0) {
            int64_t head = size;
            assign(T, &size, unit, T->orig[c]);
            T->root_conflict = propagate(T, head, &size);
        }
    }
    T->root = size;
    return 0;
}

static int trace_init(TraceObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"flat", "offsets", "num_vars", NULL};
    PyObject *fo, *oo;
    long long nvars;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOL", kwlist, &fo, &oo, &nvars)) return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a Trace object is initialised once");
        return -1;
    }
    Py_buffer fv = {0}, ov = {0};
    int r = -1;
    if (get_clause_arrays(fo, oo, nvars, &fv, &ov) < 0) return -1;
    if (trace_build(self, fv.buf, ov.buf, ov.shape[0] - 1, (int32_t)nvars) < 0) {
        trace_free(self);
        PyErr_NoMemory();
        goto out;
    }
    self->ready = 1;
    r = 0;
out:
    RELEASE(&fv, &ov);
    return r;
}

/* trace(assumptions) -> (ok, [(literal, reason)], conflict): see solvers.core.engine. */
static PyObject *trace_trace(TraceObject *self, PyObject *assumptions) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Trace object is not initialised");
        return NULL;
    }
    if (self->root_conflict >= 0)
        return Py_BuildValue("(O[]L)", Py_False, (long long)self->root_conflict);
    PyObject *seq = PySequence_Fast(assumptions, "assumptions must be a sequence of ints");
    if (!seq) return NULL;
    /* read and checked whole before anything is assigned: an __index__ may raise */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int32_t *codes = malloc(sizeof(int32_t) * (size_t)(n + 1));
    if (!codes) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long lit = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (lit == -1 && PyErr_Occurred()) {
            free(codes);
            Py_DECREF(seq);
            return NULL;
        }
        if (!dimacs_in_range(lit, self->nvars)) {
            check_literals((int64_t[]){lit}, 1, self->nvars, "assumption");
            free(codes);
            Py_DECREF(seq);
            return NULL;
        }
        codes[i] = lit_code(lit);
    }
    Py_DECREF(seq);
    int64_t size = self->root, conflict = -1;
    int ok = 1;
    for (Py_ssize_t i = 0; i < n && ok; i++) {
        int8_t v = self->value[codes[i]];
        if (v == 1) continue; /* already true: nothing new */
        if (v == -1) {        /* already false: no clause to blame */
            ok = 0;
            break;
        }
        int64_t head = size;
        assign(self, &size, codes[i], -1);
        conflict = propagate(self, head, &size);
        ok = conflict < 0;
    }
    free(codes);
    PyObject *steps = PyList_New(size - self->root);
    for (int64_t i = self->root; steps && i < size; i++) {
        int32_t lit = self->trail[i];
        PyObject *step = Py_BuildValue("(LL)", (long long)code_lit(lit),
                                       (long long)self->reason[lit >> 1]);
        if (!step) Py_CLEAR(steps);
        else PyList_SET_ITEM(steps, i - self->root, step);
    }
    undo(self, size);
    if (!steps) return NULL;
    PyObject *result = Py_BuildValue("(ONL)", ok ? Py_True : Py_False, steps, (long long)conflict);
    return result;
}

static PyMethodDef trace_methods[] = {
    {"trace", (PyCFunction)trace_trace, METH_O,
     "trace(assumptions) -> (ok, [(literal, reason clause)], falsified clause or -1)"},
    {NULL},
};

static PyTypeObject TraceType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._core.Trace",
    .tp_basicsize = sizeof(TraceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Trace(flat, offsets, num_vars): propagation with reasons, for explanations",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)trace_init,
    .tp_dealloc = (destructor)trace_dealloc,
    .tp_methods = trace_methods,
};

int trace_add_type(PyObject *module) {
    if (PyType_Ready(&TraceType) < 0) return -1;
    Py_INCREF(&TraceType);
    if (PyModule_AddObject(module, "Trace", (PyObject *)&TraceType) < 0) {
        Py_DECREF(&TraceType);
        return -1;
    }
    return 0;
}
