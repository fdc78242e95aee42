/* The Python face of DPLL on the clause engine (solvers.core._search): the Search type,
 * one CNF formula with its own propagation state and decision stack, and the checks at
 * its boundary (boundary.h).  A search runs with the GIL released and polls for signals
 * at every node (Ctrl-C, the time limit's SIGALRM: their exception is raised within a
 * few tens of milliseconds); one kernel at a time per object.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "bounds.h"
#include "clause_arrays.h"
#include "clauses.h"
#include "codes.h"
#include "core.h"
#include "proof_log.h"
#include "search.h"


typedef struct {
    PyObject_HEAD Cnf f;
    Search s;
    int ready;
    int busy;
    int at_model; /* the trail holds the model the last search found */
} SearchObject;

static void search_dealloc(SearchObject *self) {
    cnf_free(&self->f);
    search_free(&self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int search_object_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"flat", "offsets", "num_vars", NULL};
    PyObject *fo, *oo;
    long long nvars;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOL", kwlist, &fo, &oo, &nvars)) return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a Search object is initialised once");
        return -1;
    }
    if (cnf_from_arrays(&self->f, fo, oo, nvars) < 0 || search_init(&self->s, &self->f) < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

/* search(assumptions, next_model, max_models, budget, work_budget, deadline_ns,
 * probe_depth, positive_only, log, model) -> (outcome, models). */
static PyObject *search_search(SearchObject *self, PyObject *args) {
    PyObject *lo, *logo, *mo;
    int next_model, probe_depth, positive_only;
    long long max_models, budget, work_budget, deadline_ns;
    if (!PyArg_ParseTuple(args, "OpLLLLipOO", &lo, &next_model, &max_models, &budget,
                          &work_budget, &deadline_ns, &probe_depth, &positive_only, &logo, &mo))
        return NULL;
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "the Search object is not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the formula is running a kernel in another thread");
        return NULL;
    }
    if (probe_depth < 0 || probe_depth > MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "probe_depth must be in 0..%d, not %d", MAX_DEPTH,
                     probe_depth);
        return NULL;
    }
    if (next_model && !self->at_model) {
        PyErr_SetString(PyExc_RuntimeError, "next_model: the last search found no model");
        return NULL;
    }
    Cnf *F = &self->f;
    Search *S = &self->s;
    Py_buffer lv = {0}, gv = {0}, mv = {0};
    PyObject *result = NULL;
    self->busy = 1;
    if (get_ints(lo, &lv, "assumptions", 8, 1, -1, -1, 0) < 0 ||
        get_log(logo, &gv) < 0 ||
        get_ints(mo, &mv, "model", 8, 1, F->nvars, -1, 1) < 0)
        goto out;
    const int64_t *lits = lv.buf;
    if (check_literals(lits, lv.shape[0], F->nvars, "assumption") < 0) goto out;
    int64_t *log = gv.buf;
    if (cnf_room(F, probe_depth) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    SearchAsk ask = {max_models, budget, work_budget, deadline_ns, probe_depth, positive_only};
    int64_t models = 0;
    int outcome = SEARCH_EXHAUSTED;
    Poll poll;
    core_release(&poll);
    if (!next_model && search_start(F, S, lits, lv.shape[0]) != CORE_OK) {
        outcome = SEARCH_EXHAUSTED; /* the assumptions contradict: no model, no lemma */
    } else {
        if (gv.shape[0] > 0) {
            F->log = log;
            F->log_len = gv.shape[0];
            if (!next_model) log[LOG_BASE] = S->base;
        }
        outcome = search_run(F, S, &ask, next_model, &models, &poll);
        F->log = NULL;
        F->log_len = 0;
    }
    self->at_model = outcome == SEARCH_FOUND;
    if (self->at_model) {
        int64_t *model = mv.buf;
        for (int32_t v = 0; v < F->nvars; v++) model[v] = F->value[2 * v] == 1 ? v + 1 : -(v + 1);
    } else {
        cnf_cancel_until(F, 0);
    }
    core_reacquire(&poll);
    if (outcome != SEARCH_INTERRUPT) result = Py_BuildValue("(iL)", outcome, (long long)models);
out:
    self->busy = 0;
    RELEASE(&lv, &gv, &mv);
    return result;
}

/* propagate(assumptions, out) -> how many literals above the root level it wrote to
 * out (num_vars int64), or -1 on a conflict: the assumptions enqueued as a search
 * starts (a level each), so that a search after it finds the watches as it left them. */
static PyObject *search_propagate(SearchObject *self, PyObject *args) {
    PyObject *lo, *oo;
    if (!PyArg_ParseTuple(args, "OO", &lo, &oo)) return NULL;
    if (!self->ready || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search object is not ready");
        return NULL;
    }
    Cnf *F = &self->f;
    Py_buffer lv = {0}, ov = {0};
    PyObject *result = NULL;
    self->busy = 1;
    if (get_ints(lo, &lv, "assumptions", 8, 1, -1, -1, 0) < 0 ||
        get_ints(oo, &ov, "out", 8, 1, F->nvars, -1, 1) < 0 ||
        check_literals(lv.buf, lv.shape[0], F->nvars, "assumption") < 0)
        goto out;
    int64_t count = -1, *lits = ov.buf;
    if (search_start(F, &self->s, lv.buf, lv.shape[0]) == CORE_OK) {
        count = 0;
        for (int64_t i = F->trail_lim[0]; i < F->trail_size; i++) {
            int32_t code = F->trail[i];
            lits[count++] = code_lit(code);
        }
    }
    cnf_cancel_until(F, 0);
    self->at_model = 0;
    result = PyLong_FromLongLong(count);
out:
    self->busy = 0;
    RELEASE(&lv, &ov);
    return result;
}

/* fixed(out) -> how many literals the root level holds (the formula's units and what
 * they imply, in the order they were assigned), written to out (num_vars int64), or -1
 * when they are contradictory. */
static PyObject *search_fixed(SearchObject *self, PyObject *args) {
    PyObject *oo;
    if (!PyArg_ParseTuple(args, "O", &oo)) return NULL;
    if (!self->ready || self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Search object is not ready");
        return NULL;
    }
    Cnf *F = &self->f;
    Py_buffer ov = {0};
    if (get_ints(oo, &ov, "out", 8, 1, F->nvars, -1, 1) < 0) return NULL;
    cnf_cancel_until(F, 0); /* (a kept model is given up) */
    self->at_model = 0;
    int64_t count = -1, *lits = ov.buf;
    if (!F->root_conflict)
        for (count = 0; count < F->trail_size; count++) {
            int32_t code = F->trail[count];
            lits[count] = code_lit(code);
        }
    RELEASE(&ov);
    return PyLong_FromLongLong(count);
}

/* counters() -> (work, hypotheses, conflicts, decisions, backtracks), since made. */
static PyObject *search_counters(SearchObject *self, PyObject *unused) {
    return Py_BuildValue("(KKKLL)", (unsigned long long)self->f.work,
                         (unsigned long long)self->f.hypotheses,
                         (unsigned long long)self->f.conflicts, (long long)self->s.decisions,
                         (long long)self->s.backtracks);
}

static PyObject *search_ok(SearchObject *self, PyObject *unused) {
    return PyBool_FromLong(self->ready && !self->f.root_conflict);
}

static PyMethodDef search_methods[] = {
    {"search", (PyCFunction)search_search, METH_VARARGS,
     "search(assumptions, next_model, max_models, budget, work_budget, deadline_ns, "
     "probe_depth, positive_only, log, model) -> (outcome, models)"},
    {"propagate", (PyCFunction)search_propagate, METH_VARARGS,
     "propagate(assumptions, out) -> literals above the root level written, or -1"},
    {"fixed", (PyCFunction)search_fixed, METH_VARARGS,
     "fixed(out) -> the root level's literals written, or -1 when contradictory"},
    {"counters", (PyCFunction)search_counters, METH_NOARGS,
     "(work, hypotheses, conflicts, decisions, backtracks) since the object was made"},
    {"ok", (PyCFunction)search_ok, METH_NOARGS,
     "False when the formula's units (or an empty clause) are contradictory"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._search.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(flat, offsets, num_vars): DPLL on a CNF formula",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_object_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
};

static struct PyModuleDef search_module = {
    PyModuleDef_HEAD_INIT, "_search", "DPLL search on the native clause engine.", -1, NULL,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&search_module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0 ||
        PyModule_AddIntConstant(m, "FOUND", SEARCH_FOUND) < 0 ||
        PyModule_AddIntConstant(m, "EXHAUSTED", SEARCH_EXHAUSTED) < 0 ||
        PyModule_AddIntConstant(m, "DECISIONS", SEARCH_DECISIONS) < 0 ||
        PyModule_AddIntConstant(m, "WORK", SEARCH_WORK) < 0 ||
        PyModule_AddIntConstant(m, "TIME", SEARCH_TIME) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
