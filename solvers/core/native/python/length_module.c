/* The Python face of the refutation-length kernels (solvers.core._length): the Formula
 * type and one function a kernel, each checking its arguments at the boundary.
 *
 * A Formula is the arrays of solvers.core.length.build (length_formula.c) copied into
 * memory of its own, every index in it checked once, and each literal's constraints (occ) added:
 * nobody can change it afterwards, so the kernels trust it.  The state, scratch and
 * alternatives records stay numpy arrays (solvers.core.length's namedtuples, read by
 * Python between calls); at every call each array is checked for its element size,
 * C contiguity and shape against the formula, and every index the state holds (the
 * trail, the cones' pool rows, the scalar slots) for its range, so a bad record is a
 * ValueError or TypeError, never a crash.  The long kernels (candidates, the
 * resolution, the closure) release the GIL and poll for signals between hypotheses.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "length.h"
#include "views.h"

/* The fields of a record (a namedtuple: a tuple of arrays, read by position). */
static PyObject *field(PyObject *record, const char *type, Py_ssize_t fields, Py_ssize_t i) {
    if (!PyTuple_Check(record) || PyTuple_GET_SIZE(record) != fields) {
        PyErr_Format(PyExc_TypeError, "expected a %s (a tuple of %zd arrays), not %R", type,
                     fields, (PyObject *)Py_TYPE(record));
        return NULL;
    }
    return PyTuple_GET_ITEM(record, i);
}

/* ---- Formula -------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD LFormula f;
} FormulaObject;

static void formula_dealloc(FormulaObject *self) {
    LFormula *f = &self->f;
    free(f->lits);
    free(f->cstart);
    free(f->bstart);
    free(f->bimp);
    free(f->wstart);
    free(f->occ);
    free(f->rstart);
    free(f->rimp);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int32_t *copy_ints(const Py_buffer *view) {
    size_t n = (size_t)view->shape[0];
    int32_t *out = malloc(sizeof(int32_t) * (n > 0 ? n : 1));
    if (out) memcpy(out, view->buf, sizeof(int32_t) * n);
    return out;
}

/* Check that start[0..n] rises from 0 to `end`. */
static int offsets_ok(const int32_t *start, int64_t n, int64_t end) {
    if (start[0] != 0 || start[n] != end) return 0;
    for (int64_t i = 0; i < n; i++)
        if (start[i + 1] < start[i]) return 0;
    return 1;
}

static int ints_in(const int32_t *a, int64_t n, int64_t lo, int64_t hi) {
    if (hi <= lo) return n <= 0; /* (every element would fail) */
    /* One unsigned comparison an element: lo <= a[i] < hi. */
    const uint64_t span = (uint64_t)(hi - lo);
    for (int64_t i = 0; i < n; i++)
        if ((uint64_t)((int64_t)a[i] - lo) >= span) return 0;
    return 1;
}

/* rstart, rimp: each literal's links read backwards (the literals that imply it), by
 * counting; and whether the links are shallow: no literal a link implies has links of
 * its own, every link a -> b has its contrapositive not b -> not a (links made of binary
 * clauses have both), and no link joins a literal to itself or its negation.  0, or -1
 * when out of memory. */
static int reverse_links(LFormula *f) {
    int64_t nlits = f->nlits;
    f->rstart = calloc((size_t)nlits + 1, sizeof(int32_t));
    f->rimp = malloc(sizeof(int32_t) * (size_t)(f->nbimp > 0 ? f->nbimp : 1));
    int32_t *fill = malloc(sizeof(int32_t) * (size_t)nlits);
    if (!f->rstart || !f->rimp || !fill) {
        free(fill);
        return -1;
    }
    int shallow = 1;
    for (int64_t i = 0; i < f->nbimp; i++) {
        int32_t b = f->bimp[i];
        f->rstart[b + 1]++;
        if (f->bstart[b + 1] > f->bstart[b]) shallow = 0;
    }
    for (int64_t l = 0; l < nlits; l++) f->rstart[l + 1] += f->rstart[l];
    memcpy(fill, f->rstart, sizeof(int32_t) * (size_t)nlits);
    for (int32_t a = 0; a < nlits; a++)
        for (int32_t i = f->bstart[a]; i < f->bstart[a + 1]; i++) {
            if ((f->bimp[i] ^ a) <= 1) shallow = 0; /* a -> a or a -> not a */
            f->rimp[fill[f->bimp[i]]++] = a;
        }
    /* Contrapositives: with the targets of not b marked, every a with a -> b must be
     * among them as not a.  (fill is reused as the marks: b + 1 where marked.) */
    memset(fill, 0, sizeof(int32_t) * (size_t)nlits);
    for (int32_t b = 0; b < nlits && shallow; b++) {
        int32_t nb = b ^ 1;
        for (int32_t i = f->bstart[nb]; i < f->bstart[nb + 1]; i++) fill[f->bimp[i]] = b + 1;
        for (int32_t i = f->rstart[b]; i < f->rstart[b + 1] && shallow; i++)
            if (fill[f->rimp[i] ^ 1] != b + 1) shallow = 0;
    }
    f->shallow = shallow;
    f->negative = 1;
    for (int64_t i = 0; i < f->nbimp; i++) f->negative &= f->bimp[i] & 1;
    free(fill);
    return 0;
}

/* Formula(F, num_vars): F is build's ClauseArrays (lits cstart corig wstart bstart
 * bimp), built without groups; corig is the explanations' (solvers.ratings.length). */
static int formula_init(FormulaObject *self, PyObject *args, PyObject *kwds) {
    PyObject *F;
    long long nv;
    static char *names[] = {"F", "num_vars", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OL", names, &F, &nv)) return -1;
    if (self->f.lits) {
        PyErr_SetString(PyExc_RuntimeError, "a Formula is made once");
        return -1;
    }
    if (nv < 1 || nv > (1 << 28)) {
        PyErr_Format(PyExc_ValueError, "num_vars %lld is not in 1..2**28", nv);
        return -1;
    }
    int64_t nlits = 2 * nv;
    static const int position[5] = {0, 1, 3, 4, 5}; /* lits cstart wstart bstart bimp */
    static const char *label[5] = {"F.lits", "F.cstart", "F.wstart", "F.bstart", "F.bimp"};
    Py_buffer v[5] = {{0}};
    for (int i = 0; i < 5; i++) {
        PyObject *a = field(F, "Formula", 6, position[i]);
        if (!a) goto fail;
        Py_ssize_t want = (i == 2 || i == 3) ? nlits + 1 : -1;
        if (get_view(a, &v[i], label[i], SIGNED, 4, (Shape){1, want, 0, 0}, 0) < 0) goto fail;
    }
    int64_t nlit = v[0].shape[0], m = v[1].shape[0] - 1, nbimp = v[4].shape[0];
    const int32_t *lits = v[0].buf, *cstart = v[1].buf, *wstart = v[2].buf, *bstart = v[3].buf;
    if (m < 0 || m > (1 << 28) || nlit > INT32_MAX || nbimp > INT32_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "F has too many constraints or links (or none)");
        goto fail;
    }
    if (!offsets_ok(cstart, m, nlit) || !ints_in(lits, nlit, 0, nlits)) {
        PyErr_SetString(PyExc_ValueError, "F.cstart or F.lits is out of range");
        goto fail;
    }
    if (!offsets_ok(bstart, nlits, nbimp) || !ints_in(v[4].buf, nbimp, 0, nlits)) {
        PyErr_SetString(PyExc_ValueError, "F.bstart or F.bimp is out of range");
        goto fail;
    }
    if (!offsets_ok(wstart, nlits, wstart[nlits]) || wstart[nlits] != nlit) {
        PyErr_SetString(PyExc_ValueError,
                        "F.wstart does not give each literal room for its constraints exactly "
                        "(a formula built with groups?)");
        goto fail;
    }
    int32_t width = 1;
    for (int64_t c = 0; c < m; c++) {
        int32_t w = cstart[c + 1] - cstart[c];
        if (w < 1) {
            PyErr_Format(PyExc_ValueError, "constraint %lld is empty", (long long)c);
            goto fail;
        }
        if (w > width) width = w;
    }
    LFormula *f = &self->f;
    f->nv = (int32_t)nv, f->nlits = (int32_t)nlits, f->m = (int32_t)m;
    f->words = (int32_t)((m + 63) / 64), f->width = width, f->nbimp = nbimp;
    f->lits = copy_ints(&v[0]);
    f->cstart = copy_ints(&v[1]);
    f->wstart = copy_ints(&v[2]);
    f->bstart = copy_ints(&v[3]);
    f->bimp = copy_ints(&v[4]);
    f->occ = malloc(sizeof(int32_t) * (size_t)(nlit > 0 ? nlit : 1));
    int32_t *fill = malloc(sizeof(int32_t) * (size_t)nlits);
    if (!f->lits || !f->cstart || !f->wstart || !f->bstart || !f->bimp || !f->occ || !fill) {
        free(fill);
        PyErr_NoMemory();
        goto fail;
    }
    /* occ: the constraints of each literal, laid out like the watch lists. */
    memcpy(fill, f->wstart, sizeof(int32_t) * (size_t)nlits);
    int ok = 1;
    for (int32_t c = 0; c < m && ok; c++)
        for (int32_t p = f->cstart[c]; p < f->cstart[c + 1]; p++) {
            int32_t lit = f->lits[p];
            if (fill[lit] >= f->wstart[lit + 1]) ok = 0;
            else f->occ[fill[lit]++] = c;
        }
    for (int64_t l = 0; l < nlits && ok; l++) ok = fill[l] == f->wstart[l + 1];
    free(fill);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "F.wstart does not count each literal's constraints");
        goto fail;
    }
    if (reverse_links(f) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    release(v, 5);
    return 0;
fail:
    release(v, 5);
    return -1;
}

/* build(flat, offsets, num_vars) -> (lits, cstart, corig, wstart, bstart, bimp, units,
 * unit_idx, first_empty): the arrays Formula takes, made by
 * length_formula.c from DIMACS clauses (flat int32, offsets int64 rising from 0 to
 * len(flat)), each as a bytearray of int32 for the face to view with numpy. */
static PyObject *py_build(PyObject *self, PyObject *args) {
    PyObject *flat_obj, *offsets_obj;
    long long nv;
    if (!PyArg_ParseTuple(args, "OOL", &flat_obj, &offsets_obj, &nv)) return NULL;
    if (nv < 1 || nv > (1 << 28)) {
        PyErr_Format(PyExc_ValueError, "num_vars %lld is not in 1..2**28", nv);
        return NULL;
    }
    Py_buffer v[2] = {{0}};
    if (get_view(flat_obj, &v[0], "flat", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(offsets_obj, &v[1], "offsets", SIGNED, 8, (Shape){1, -2, 1, 0}, 0) < 0) {
        release(v, 2);
        return NULL;
    }
    const int32_t *flat = v[0].buf;
    const int64_t *offsets = v[1].buf;
    int64_t nflat = v[0].shape[0], m = v[1].shape[0] - 1;
    if (nflat >= INT32_MAX || m >= INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many clauses or literals (2**31 - 1 at most)");
        goto fail;
    }
    if (offsets[0] != 0 || offsets[m] != nflat) {
        PyErr_Format(PyExc_ValueError, "offsets must run from 0 to len(flat) = %lld",
                     (long long)nflat);
        goto fail;
    }
    for (int64_t i = 0; i < m; i++)
        if (offsets[i + 1] < offsets[i]) {
            PyErr_Format(PyExc_ValueError, "offsets fall at clause %lld", (long long)i);
            goto fail;
        }
    for (int64_t p = 0; p < nflat; p++)
        if (flat[p] == 0 || flat[p] > nv || flat[p] < -nv) {
            PyErr_Format(PyExc_ValueError, "literal %d at position %lld is not in +-1..%lld",
                         flat[p], (long long)p, nv);
            goto fail;
        }
    LBuilt b;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = length_build(&b, flat, offsets, m, (int32_t)nv);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto fail;
    }
    release(v, 2);
    int64_t nlits = 2 * nv;
    enum { ARRAYS = 8 };
    int32_t *arrays[ARRAYS] = {b.lits,  b.cstart, b.corig,  b.wstart,
                               b.bstart, b.bimp,  b.units, b.unit_idx};
    int64_t sizes[ARRAYS] = {b.nlong_lits, b.nlong + 1, b.nlong,  nlits + 1,
                             nlits + 1,    b.nbimp,     b.nunits, b.nunits};
    PyObject *out = PyTuple_New(ARRAYS + 1);
    for (int i = 0; out && i < ARRAYS; i++) {
        PyObject *a = PyByteArray_FromStringAndSize((const char *)arrays[i],
                                                    (Py_ssize_t)(sizes[i] * 4));
        if (!a) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, a);
    }
    PyObject *first_empty = out ? PyLong_FromLongLong(b.first_empty) : NULL;
    if (first_empty) PyTuple_SET_ITEM(out, ARRAYS, first_empty);
    else Py_CLEAR(out);
    length_built_free(&b);
    return out;
fail:
    release(v, 2);
    return NULL;
}

static PyObject *formula_get(FormulaObject *self, void *which) {
    const LFormula *f = &self->f;
    if (!f->lits) {
        PyErr_SetString(PyExc_RuntimeError, "the Formula was not made");
        return NULL;
    }
    switch ((int)(intptr_t)which) {
        case 0: return PyLong_FromLong(f->nv);
        case 1: return PyLong_FromLong(f->m);
        case 2: return PyLong_FromLong(f->words);
        case 3: return PyLong_FromLong(f->width);
        default: return PyLong_FromLongLong(f->nbimp);
    }
}

static PyGetSetDef formula_getset[] = {
    {"num_vars", (getter)formula_get, NULL, "variables", (void *)0},
    {"num_constraints", (getter)formula_get, NULL, "constraints (long clauses)", (void *)1},
    {"num_words", (getter)formula_get, NULL, "64-bit words of a cone", (void *)2},
    {"width", (getter)formula_get, NULL, "literals of the longest constraint", (void *)3},
    {"num_links", (getter)formula_get, NULL, "links (implication list entries)", (void *)4},
    {NULL},
};

static PyTypeObject FormulaType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._length.Formula",
    .tp_basicsize = sizeof(FormulaObject),
    .tp_dealloc = (destructor)formula_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Formula(F, num_vars): build's ClauseArrays, copied and checked",
    .tp_init = (initproc)formula_init,
    .tp_new = PyType_GenericNew,
    .tp_getset = formula_getset,
};

static const LFormula *get_formula(PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &FormulaType)) {
        PyErr_Format(PyExc_TypeError, "expected a solvers.core._length.Formula, not %R",
                     (PyObject *)Py_TYPE(obj));
        return NULL;
    }
    const LFormula *f = &((FormulaObject *)obj)->f;
    if (!f->lits) {
        PyErr_SetString(PyExc_RuntimeError, "the Formula was not made");
        return NULL;
    }
    return f;
}

/* ---- records ----------------------------------------------------------------------- */

/* A record's fields, and the views a State binds (every field but trail_lim). */
enum { STATE_FIELDS = 10, SCRATCH_FIELDS = 14, ALT_FIELDS = 11, STATE_VIEWS = 9 };

/* View State S (value level reason trail trail_lim st cone nfalse ntrue pool) and check
 * every index it holds. */
static int bind_state(const LFormula *f, PyObject *S, LState *s, Py_buffer *v, int writable) {
    static const struct {
        int pos, kind, size, ndim;
        const char *name;
    } spec[] = {
        {0, SIGNED, 1, 1, "State.value"}, {1, SIGNED, 4, 1, "State.level"},
        {2, SIGNED, 4, 1, "State.reason"}, {3, SIGNED, 4, 1, "State.trail"},
        {5, SIGNED, 8, 1, "State.st"},     {6, SIGNED, 4, 1, "State.cone"},
        {7, SIGNED, 4, 1, "State.nfalse"}, {8, SIGNED, 4, 1, "State.ntrue"},
        {9, UNSIGNED, 8, 2, "State.pool"},
    };
    const Py_ssize_t shape[] = {f->nlits, f->nv, f->nv, f->nv, ST_NUM_SLOTS,
                                f->nlits, f->m,  f->m,  -2};
    for (int i = 0; i < STATE_VIEWS; i++) {
        PyObject *a = field(S, "State", STATE_FIELDS, spec[i].pos);
        if (!a || get_view(a, &v[i], spec[i].name, spec[i].kind, spec[i].size,
                           (Shape){spec[i].ndim, shape[i], 1, f->words}, writable) < 0)
            return -1;
    }
    s->value = v[0].buf, s->level = v[1].buf, s->reason = v[2].buf, s->trail = v[3].buf;
    s->st = v[4].buf, s->cone = v[5].buf, s->nfalse = v[6].buf, s->ntrue = v[7].buf;
    s->pool = v[8].buf, s->rows = v[8].shape[0];
    const int64_t *st = s->st;
    if (st[ST_TRAIL_SIZE] < 0 || st[ST_TRAIL_SIZE] > f->nv || st[ST_QHEAD] < 0 ||
        st[ST_QHEAD] > st[ST_TRAIL_SIZE] || st[ST_DLEVEL] < 0 || st[ST_DLEVEL] > INT32_MAX ||
        st[ST_POOL_SIZE] < 1 || st[ST_POOL_SIZE] > s->rows ||
        (st[ST_TRACK] != 0 && st[ST_TRACK] != 1)) {
        PyErr_SetString(PyExc_ValueError,
                        "State.st is out of range (trail size, qhead, level, pool size, track)");
        return -1;
    }
    if (!ints_in(s->trail, st[ST_TRAIL_SIZE], 0, f->nlits) ||
        !ints_in(s->cone, f->nlits, 0, st[ST_POOL_SIZE])) {
        PyErr_SetString(PyExc_ValueError, "State.trail or State.cone is out of range");
        return -1;
    }
    /* A cone holds constraints only: its size is at most num_constraints. */
    if (f->m % 64)
        for (int64_t r = 0; r < st[ST_POOL_SIZE]; r++)
            if (s->pool[r * f->words + f->words - 1] >> (f->m % 64)) {
                PyErr_SetString(PyExc_ValueError, "State.pool holds a bit past the constraints");
                return -1;
            }
    return 0;
}

/* Every call checks the scratch arrays (thousands of bytes): eight bytes a load. */
static int all_zero(const void *a, size_t bytes) {
    const unsigned char *p = a;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        if (word) return 0;
    }
    for (; i < bytes; i++)
        if (p[i]) return 0;
    return 1;
}

/* View Scratch X (value cone trail stamp nfalse false_cones pool bucket entry_next
 * entry_lit entry_cone best_cone work st). */
static int bind_scratch(const LFormula *f, PyObject *X, LScratch *x, Py_buffer *v) {
    static const struct {
        int kind, size, ndim;
        const char *name;
    } spec[SCRATCH_FIELDS] = {
        {SIGNED, 1, 1, "Scratch.value"},      {SIGNED, 4, 1, "Scratch.cone"},
        {SIGNED, 4, 1, "Scratch.trail"},      {SIGNED, 8, 1, "Scratch.stamp"},
        {SIGNED, 4, 1, "Scratch.nfalse"},     {UNSIGNED, 8, 2, "Scratch.false_cones"},
        {UNSIGNED, 8, 2, "Scratch.pool"},     {SIGNED, 4, 1, "Scratch.bucket"},
        {SIGNED, 4, 1, "Scratch.entry_next"}, {SIGNED, 4, 1, "Scratch.entry_lit"},
        {SIGNED, 4, 1, "Scratch.entry_cone"}, {UNSIGNED, 8, 1, "Scratch.best_cone"},
        {UNSIGNED, 8, 1, "Scratch.work"},     {SIGNED, 8, 1, "Scratch.st"},
    };
    const Py_ssize_t shape[SCRATCH_FIELDS] = {f->nlits, f->nlits, f->nlits, f->m, f->m, f->m, -2,
                                              -2,       -1,       -1,       -1,   f->words,
                                              f->words, X_NUM_SLOTS};
    const Py_ssize_t least[SCRATCH_FIELDS] = {0, 0, 0, 0, 0, 0, 1, f->m + 2};
    for (int i = 0; i < SCRATCH_FIELDS; i++) {
        PyObject *a = field(X, "Scratch", SCRATCH_FIELDS, i);
        if (!a || get_view(a, &v[i], spec[i].name, spec[i].kind, spec[i].size,
                           (Shape){spec[i].ndim, shape[i], least[i], f->words}, 1) < 0)
            return -1;
    }
    x->value = v[0].buf, x->cone = v[1].buf, x->trail = v[2].buf, x->stamp = v[3].buf;
    x->nfalse = v[4].buf, x->false_cones = v[5].buf, x->pool = v[6].buf, x->bucket = v[7].buf;
    x->entry_next = v[8].buf, x->entry_lit = v[9].buf, x->entry_cone = v[10].buf;
    x->best_cone = v[11].buf, x->work = v[12].buf, x->st = v[13].buf;
    x->rows = v[6].shape[0], x->entries = v[8].shape[0];
    if (v[9].shape[0] != x->entries || v[10].shape[0] != x->entries) {
        PyErr_SetString(PyExc_ValueError, "Scratch's entry arrays differ in length");
        return -1;
    }
    if (!all_zero(x->value, (size_t)f->nlits)) {
        PyErr_SetString(PyExc_ValueError, "Scratch.value must be all 0 between calls");
        return -1;
    }
    /* A search takes stamp X_STAMP + 1 and trusts the rows of a constraint already
     * stamped with it (its count of false literals, its cones): no stamp may be ahead. */
    const int64_t now = x->st[X_STAMP];
    if (now < 0 || now == INT64_MAX) {
        PyErr_SetString(PyExc_ValueError, "Scratch.st's stamp is out of range");
        return -1;
    }
    for (int32_t c = 0; c < f->m; c++)
        if (x->stamp[c] > now) {
            PyErr_Format(PyExc_ValueError, "Scratch.stamp[%d] is ahead of Scratch.st's stamp",
                         (int)c);
            return -1;
        }
    return 0;
}

/* View Alternatives A (ncones cones pool bucket entry_next entry_lit entry_cone others
 * choice partial st). */
static int bind_alternatives(const LFormula *f, PyObject *A, LAlternatives *a, Py_buffer *v) {
    static const struct {
        int kind, ndim;
        const char *name;
    } spec[ALT_FIELDS] = {
        {SIGNED, 1, "Alternatives.ncones"},     {SIGNED, 2, "Alternatives.cones"},
        {UNSIGNED, 2, "Alternatives.pool"},     {SIGNED, 1, "Alternatives.bucket"},
        {SIGNED, 1, "Alternatives.entry_next"}, {SIGNED, 1, "Alternatives.entry_lit"},
        {SIGNED, 1, "Alternatives.entry_cone"}, {SIGNED, 1, "Alternatives.others"},
        {SIGNED, 1, "Alternatives.choice"},     {UNSIGNED, 2, "Alternatives.partial"},
        {SIGNED, 1, "Alternatives.st"},
    };
    const Py_ssize_t shape[ALT_FIELDS] = {f->nlits, f->nlits, -2, -2, -1, -1, -1, -2, -2, -2,
                                          A_NUM_SLOTS};
    const Py_ssize_t least[ALT_FIELDS] = {0, 0, 1, f->m + 2, 0, 0, 0, f->width, f->width,
                                          f->width + 1};
    const Py_ssize_t second[ALT_FIELDS] = {0, CONES_PER_LITERAL, f->words, 0, 0, 0,
                                           0, 0,                 0,        f->words};
    for (int i = 0; i < ALT_FIELDS; i++) {
        PyObject *o = field(A, "Alternatives", ALT_FIELDS, i);
        int size = (i == 2 || i == 9 || i == 10) ? 8 : 4;
        if (!o || get_view(o, &v[i], spec[i].name, spec[i].kind, size,
                           (Shape){spec[i].ndim, shape[i], least[i], second[i]}, 1) < 0)
            return -1;
    }
    a->ncones = v[0].buf, a->cones = v[1].buf, a->pool = v[2].buf, a->bucket = v[3].buf;
    a->entry_next = v[4].buf, a->entry_lit = v[5].buf, a->entry_cone = v[6].buf;
    a->others = v[7].buf, a->choice = v[8].buf, a->partial = v[9].buf, a->st = v[10].buf;
    a->rows = v[2].shape[0], a->entries = v[4].shape[0];
    if (v[5].shape[0] != a->entries || v[6].shape[0] != a->entries) {
        PyErr_SetString(PyExc_ValueError, "Alternatives' entry arrays differ in length");
        return -1;
    }
    if (!all_zero(a->ncones, sizeof(int32_t) * (size_t)f->nlits)) {
        PyErr_SetString(PyExc_ValueError, "Alternatives.ncones must be all 0 between calls");
        return -1;
    }
    return 0;
}

/* The call's end: the GIL back if released, and the error for bad / stop. */
static int finish(LCall *k, Poll *poll) {
    if (poll) core_reacquire(poll);
    if (k->stop) return -1; /* the exception is set */
    if (k->bad == 2) {
        PyErr_NoMemory();
        return -1;
    }
    if (k->bad) {
        PyErr_SetString(PyExc_ValueError,
                        "the state overflowed an array: it is not one the kernels made");
        return -1;
    }
    return 0;
}

static int check_literal(const LFormula *f, long long lit, const char *name) {
    if (lit < 0 || lit >= f->nlits) {
        PyErr_Format(PyExc_ValueError, "%s %lld is no literal code (0..%d)", name, lit,
                     f->nlits - 1);
        return -1;
    }
    return 0;
}

static int check_candidates(const LFormula *f, long long n) {
    if (n < 0 || n > f->nv) {
        PyErr_Format(PyExc_ValueError, "num_candidates %lld is not in 0..%d", n, f->nv);
        return -1;
    }
    return 0;
}

/* ---- the functions --------------------------------------------------------------------- */

/* What a kernel's wrapper binds: the formula, the call, the state S and (when asked
 * for) the scratch X and the alternatives A, each with its views, and up to EXTRA views
 * of the call's own arrays. */
enum { EXTRA = 6 };
typedef struct {
    const LFormula *f;
    LCall k;
    LState S;
    LScratch X;
    LAlternatives A;
    Py_buffer state[STATE_VIEWS], scratch[SCRATCH_FIELDS], alternatives[ALT_FIELDS];
    Py_buffer extra[EXTRA];
} Bound;

/* Bind formula fo and records So, Xo, Ao (Xo, Ao NULL: not taken) into b: 0, or -1
 * with the exception set (unbind releases what was bound either way). */
static int bind(Bound *b, PyObject *fo, PyObject *So, PyObject *Xo, PyObject *Ao) {
    memset(b, 0, sizeof *b);
    b->f = get_formula(fo);
    if (!b->f) return -1;
    b->k.f = b->f;
    if (bind_state(b->f, So, &b->S, b->state, 1) < 0) return -1;
    if (Xo && bind_scratch(b->f, Xo, &b->X, b->scratch) < 0) return -1;
    if (Ao && bind_alternatives(b->f, Ao, &b->A, b->alternatives) < 0) return -1;
    return 0;
}

static void unbind(Bound *b) {
    release(b->state, STATE_VIEWS);
    release(b->scratch, SCRATCH_FIELDS);
    release(b->alternatives, ALT_FIELDS);
    release(b->extra, EXTRA);
}

/* Release the GIL for a long kernel; finish takes it back. */
static void let_go(Bound *b, Poll *poll) {
    b->k.poll = poll;
    core_release(poll);
}

static PyObject *py_restart(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *uo, *go;
    if (!PyArg_ParseTuple(args, "OOOO", &fo, &So, &uo, &go)) return NULL;
    Bound b;
    PyObject *result = NULL;
    Py_buffer *units = &b.extra[0], *givens = &b.extra[1];
    if (bind(&b, fo, So, NULL, NULL) < 0 ||
        get_view(uo, units, "units", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(go, givens, "givens", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0)
        goto done;
    if (!ints_in(units->buf, units->shape[0], 0, b.f->nlits) ||
        !ints_in(givens->buf, givens->shape[0], 0, b.f->nlits)) {
        PyErr_SetString(PyExc_ValueError, "units or givens hold no literal code");
        goto done;
    }
    int64_t r = length_restart(&b.k, &b.S, units->buf, units->shape[0], givens->buf,
                               givens->shape[0]);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    unbind(&b);
    return result;
}

static PyObject *py_assert_facts(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *lo, *co;
    int why;
    if (!PyArg_ParseTuple(args, "OOOOi", &fo, &So, &lo, &co, &why)) return NULL;
    Bound b;
    PyObject *result = NULL;
    Py_buffer *lits = &b.extra[0], *cones = &b.extra[1];
    if (bind(&b, fo, So, NULL, NULL) < 0 ||
        get_view(lo, lits, "lits", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(co, cones, "cones", SIGNED, 4, (Shape){1, -2, lits->shape[0], 0}, 0) < 0)
        goto done;
    if (why != REASON_DECISION && why != REASON_PROBE && why != REASON_UNIT) {
        PyErr_Format(PyExc_ValueError, "why %d is not REASON_DECISION, _PROBE or _UNIT", why);
        goto done;
    }
    int64_t n = lits->shape[0];
    if (!ints_in(lits->buf, n, 0, b.f->nlits) ||
        !ints_in(cones->buf, n, 0, b.S.st[ST_POOL_SIZE])) {
        PyErr_SetString(PyExc_ValueError, "lits hold no literal code or cones no pool row in use");
        goto done;
    }
    int64_t r = length_assert_facts(&b.k, &b.S, lits->buf, cones->buf, n, why);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    unbind(&b);
    return result;
}

static PyObject *py_eliminate(PyObject *self, PyObject *args) {
    PyObject *fo, *So;
    long long lit;
    if (!PyArg_ParseTuple(args, "OOL", &fo, &So, &lit)) return NULL;
    Bound b;
    PyObject *result = NULL;
    if (bind(&b, fo, So, NULL, NULL) < 0 || check_literal(b.f, lit, "lit") < 0) goto done;
    int64_t r = length_eliminate(&b.k, &b.S, (int32_t)lit);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    unbind(&b);
    return result;
}

static PyObject *py_solved(PyObject *self, PyObject *args) {
    PyObject *fo, *So;
    long long n;
    if (!PyArg_ParseTuple(args, "OOL", &fo, &So, &n)) return NULL;
    const LFormula *f = get_formula(fo);
    if (!f || check_candidates(f, n) < 0) return NULL;
    Py_buffer view = {0};
    PyObject *value = field(So, "State", STATE_FIELDS, 0);
    if (!value || get_view(value, &view, "State.value", SIGNED, 1, (Shape){1, f->nlits, 0, 0},
                           0) < 0)
        return NULL;
    LState S = {.value = view.buf};
    int solved = length_solved(&S, n);
    PyBuffer_Release(&view);
    return PyBool_FromLong(solved);
}

static PyObject *py_model_mask(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *co, *mo;
    if (!PyArg_ParseTuple(args, "OOOO", &fo, &So, &co, &mo)) return NULL;
    Bound b;
    PyObject *result = NULL;
    Py_buffer *codes = &b.extra[0], *mask = &b.extra[1];
    if (bind(&b, fo, So, NULL, NULL) < 0 ||
        get_view(co, codes, "codes", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(mo, mask, "mask", BOOL, 1, (Shape){1, b.f->nv, 0, 0}, 1) < 0)
        goto done;
    result = PyBool_FromLong(
        length_model_mask(b.f, &b.S, codes->buf, codes->shape[0], mask->buf));
done:
    unbind(&b);
    return result;
}

/* The searches of one literal z: shortest_refutation, conflict_round,
 * may_refute_within_two, refutation_with_alternatives (`which` says which). */
enum { SHORTEST, CONFLICT_ROUND, WITHIN_TWO, WITH_ALTERNATIVES };

static PyObject *search_call(PyObject *args, int which) {
    PyObject *fo, *So, *Xo, *Ao = NULL;
    long long z, limit = 0;
    int parsed = which == WITH_ALTERNATIVES
                     ? PyArg_ParseTuple(args, "OOOOLL", &fo, &So, &Xo, &Ao, &z, &limit)
                 : which == WITHIN_TWO ? PyArg_ParseTuple(args, "OOOL", &fo, &So, &Xo, &z)
                                       : PyArg_ParseTuple(args, "OOOLL", &fo, &So, &Xo, &z, &limit);
    if (!parsed) return NULL;
    Bound b;
    PyObject *result = NULL;
    if (bind(&b, fo, So, Xo, Ao) < 0 || check_literal(b.f, z, "z") < 0) goto done;
    if (which == CONFLICT_ROUND && (limit < 0 || limit > b.f->m)) {
        PyErr_Format(PyExc_ValueError, "limit %lld is not in 0..%d", limit, b.f->m);
        goto done;
    }
    int32_t lit = (int32_t)z;
    if (which == WITHIN_TWO) {
        int r = length_may_refute_within_two(&b.k, &b.S, &b.X, lit);
        if (finish(&b.k, NULL) == 0) result = r < 0 ? Py_NewRef(Py_None) : PyBool_FromLong(r);
        goto done;
    }
    int64_t r = which == SHORTEST ? length_shortest(&b.k, &b.S, &b.X, lit, limit)
                : which == CONFLICT_ROUND
                    ? length_conflict_round(&b.k, &b.S, &b.X, lit, limit)
                    : length_with_alternatives(&b.k, &b.S, &b.X, &b.A, lit, limit);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    unbind(&b);
    return result;
}

static PyObject *py_shortest_refutation(PyObject *self, PyObject *args) {
    return search_call(args, SHORTEST);
}

static PyObject *py_conflict_round(PyObject *self, PyObject *args) {
    return search_call(args, CONFLICT_ROUND);
}

static PyObject *py_may_refute_within_two(PyObject *self, PyObject *args) {
    return search_call(args, WITHIN_TWO);
}

static PyObject *py_refutation_with_alternatives(PyObject *self, PyObject *args) {
    return search_call(args, WITH_ALTERNATIVES);
}

/* candidate_lengths / shorter_lengths: `alternatives` says which. */
static PyObject *lengths_call(PyObject *args, int alternatives) {
    PyObject *fo, *So, *Xo, *Ao = NULL, *lo;
    long long n, limit;
    int parsed = alternatives
                     ? PyArg_ParseTuple(args, "OOOOLLO", &fo, &So, &Xo, &Ao, &n, &limit, &lo)
                     : PyArg_ParseTuple(args, "OOOLLO", &fo, &So, &Xo, &n, &limit, &lo);
    if (!parsed) return NULL;
    Bound b;
    PyObject *result = NULL;
    Py_buffer *lengths = &b.extra[0];
    if (bind(&b, fo, So, Xo, Ao) < 0 || check_candidates(b.f, n) < 0 ||
        get_view(lo, lengths, "lengths", SIGNED, 8, (Shape){1, -2, n, 0}, 1) < 0)
        goto done;
    Poll poll;
    let_go(&b, &poll);
    int64_t r = alternatives ? length_shorter(&b.k, &b.S, &b.X, &b.A, n, limit, lengths->buf)
                             : length_candidates(&b.k, &b.S, &b.X, n, limit, lengths->buf);
    if (finish(&b.k, &poll) == 0) result = PyLong_FromLongLong(r);
done:
    unbind(&b);
    return result;
}

static PyObject *py_candidate_lengths(PyObject *self, PyObject *args) {
    return lengths_call(args, 0);
}

static PyObject *py_shorter_lengths(PyObject *self, PyObject *args) {
    return lengths_call(args, 1);
}

/* Bind the rating's arrays (lengths: one a candidate, step_lengths: any length) into
 * b->extra[0], [1] and r: 0, or -1 with the exception set. */
static int bind_rating(Bound *b, long long n, long long limit, PyObject *lo, PyObject *go,
                       LRating *r) {
    if (check_candidates(b->f, n) < 0 ||
        get_view(lo, &b->extra[0], "lengths", SIGNED, 8, (Shape){1, -2, n, 0}, 1) < 0 ||
        get_view(go, &b->extra[1], "step_lengths", SIGNED, 8, (Shape){1, -1, 0, 0}, 1) < 0)
        return -1;
    *r = (LRating){&b->S, &b->X, &b->A, n, limit, b->extra[0].buf, b->extra[1].buf,
                   b->extra[1].shape[0]};
    return 0;
}

static PyObject *py_simplest_first(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *Xo, *Ao, *lo, *go, *to = Py_None, *bo = Py_None;
    long long n, limit, budget;
    if (!PyArg_ParseTuple(args, "OOOOLLOOL|OO", &fo, &So, &Xo, &Ao, &n, &limit, &lo, &go, &budget,
                          &to, &bo))
        return NULL;
    Bound b;
    PyObject *result = NULL;
    LRating r;
    if (bind(&b, fo, So, Xo, Ao) < 0 || bind_rating(&b, n, limit, lo, go, &r) < 0) goto done;
    if (to != Py_None) { /* (a candidate true in a solution: no search) */
        if (get_view(to, &b.extra[2], "known_true", BOOL, 1, (Shape){1, -2, n, 0},
                     0) < 0) goto done;
        b.k.known_true = b.extra[2].buf;
    }
    int64_t *searches = NULL; /* [spent, allowed] */
    if (bo != Py_None) {
        if (get_view(bo, &b.extra[3], "searches", SIGNED, 8, (Shape){1, 2, 0, 0}, 1) < 0) goto done;
        searches = b.extra[3].buf;
    }
    Poll poll;
    let_go(&b, &poll);
    int64_t longest, steps;
    int64_t status = length_simplest_first(&b.k, &r, budget, searches, &longest, &steps);
    if (finish(&b.k, &poll) == 0) result = Py_BuildValue("LLL", status, longest, steps);
done:
    unbind(&b);
    return result;
}

/* Bind rate_many's grids (units, values, solutions or None, out) into b->extra[2..5]
 * and g, its scratch allocated: 0, or -1 with the exception set. */
static int bind_grids(Bound *b, long long side, long long allowed, PyObject *const o[4],
                      LGrids *g) {
    const LFormula *f = b->f;
    Py_buffer *units = &b->extra[2], *values = &b->extra[3], *solutions = &b->extra[4];
    if (side < 1 || side > 64 || side * side * side > f->nv) {
        PyErr_Format(PyExc_ValueError, "a side of %lld does not fit the formula's variables", side);
        return -1;
    }
    if (get_view(o[0], units, "units", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(o[1], values, "values", SIGNED, 1, (Shape){2, -1, 0, side * side}, 0) < 0)
        return -1;
    int64_t ngrids = values->shape[0];
    if (o[2] != Py_None &&
        get_view(o[2], solutions, "solutions", SIGNED, 1, (Shape){2, ngrids, 0, side * side},
                 0) < 0)
        return -1;
    if (get_view(o[3], &b->extra[5], "out", SIGNED, 8, (Shape){2, ngrids, 0, 5}, 1) < 0) return -1;
    if (!ints_in(units->buf, units->shape[0], 0, f->nlits)) {
        PyErr_SetString(PyExc_ValueError, "units hold no literal code");
        return -1;
    }
    const int8_t *cells = values->buf;
    for (int64_t i = 0; i < ngrids * side * side; i++)
        if (cells[i] < 0 || cells[i] > side) {
            PyErr_Format(PyExc_ValueError, "grid %lld: a value is not in 0..%lld",
                         (long long)(i / (side * side)), side);
            return -1;
        }
    *g = (LGrids){units->buf, units->shape[0], cells, o[2] == Py_None ? NULL : solutions->buf,
                  ngrids, allowed, (int32_t)side, malloc((size_t)f->nv),
                  malloc(sizeof(int32_t) * (size_t)(side * side))};
    if (!g->mask || !g->codes) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *py_rate_many(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *Xo, *Ao, *lo, *go, *o[4];
    long long n, limit, side, allowed;
    if (!PyArg_ParseTuple(args, "OOOOLLOOOOOLLO", &fo, &So, &Xo, &Ao, &n, &limit, &lo, &go, &o[0],
                          &o[1], &o[2], &side, &allowed, &o[3]))
        return NULL;
    Bound b;
    PyObject *result = NULL;
    LRating r;
    LGrids g = {0};
    if (bind(&b, fo, So, Xo, Ao) < 0 || bind_rating(&b, n, limit, lo, go, &r) < 0 ||
        bind_grids(&b, side, allowed, o, &g) < 0)
        goto done;
    Poll poll;
    let_go(&b, &poll);
    int64_t grids_done = length_rate_many(&b.k, &r, &g, b.extra[5].buf);
    if (finish(&b.k, &poll) == 0) result = PyLong_FromLongLong(grids_done);
done:
    free(g.mask);
    free(g.codes);
    unbind(&b);
    return result;
}

static PyObject *py_failed_closure(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *Xo;
    long long n;
    if (!PyArg_ParseTuple(args, "OOOL", &fo, &So, &Xo, &n)) return NULL;
    Bound b;
    PyObject *result = NULL;
    if (bind(&b, fo, So, Xo, NULL) < 0 || check_candidates(b.f, n) < 0) goto done;
    Poll poll;
    let_go(&b, &poll);
    int64_t r = length_failed_closure(&b.k, &b.S, &b.X, n);
    if (finish(&b.k, &poll) == 0) result = PyLong_FromLongLong(r);
done:
    unbind(&b);
    return result;
}

static PyObject *py_refutation_chain(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *co, *lo, *oo;
    long long hypothesis;
    if (!PyArg_ParseTuple(args, "OOOLOO", &fo, &So, &co, &hypothesis, &lo, &oo)) return NULL;
    const LFormula *f = get_formula(fo);
    if (!f) return NULL;
    Py_buffer v[4] = {{0}};
    PyObject *result = NULL;
    PyObject *value = field(So, "State", STATE_FIELDS, 0);
    if (!value || get_view(value, &v[0], "State.value", SIGNED, 1, (Shape){1, f->nlits, 0, 0},
                           0) < 0 ||
        get_view(co, &v[1], "cone", UNSIGNED, 8, (Shape){1, f->words, 0, 0}, 0) < 0 ||
        get_view(lo, &v[2], "out_lits", SIGNED, 8, (Shape){1, -1, 0, 0}, 1) < 0 ||
        get_view(oo, &v[3], "out_constraints", SIGNED, 8, (Shape){1, v[2].shape[0], 0, 0}, 1) < 0 ||
        check_literal(f, hypothesis, "hypothesis") < 0)
        goto done;
    LState S = {.value = v[0].buf};
    int64_t out[4];
    int status = length_chain(f, &S, v[1].buf, (int32_t)hypothesis, v[2].buf, v[3].buf,
                              v[2].shape[0], out);
    if (status == -1)
        PyErr_NoMemory();
    else if (status == -2)
        PyErr_SetString(PyExc_ValueError, "out_lits has no room for the chain");
    else
        result = Py_BuildValue("LLLL", out[0], out[1], out[2], out[3]);
done:
    release(v, 4);
    return result;
}

/* ---- BxB ------------------------------------------------------------------------ */

/* The deadline in core_now_ns() time: `seconds_left` from now, none when infinite. */
static int64_t deadline_ns(double seconds_left) {
    if (!(seconds_left < 1e9)) return NO_DEADLINE; /* inf (no time limit), or NaN */
    if (seconds_left < -1e9) seconds_left = -1e9;
    return core_now_ns() + (int64_t)(seconds_left * 1e9);
}

/* View a memo (saved values, next limits, whether saved) of 0 rows or one a candidate. */
static int bind_memo(const LFormula *f, PyObject *memo, int64_t ncand, LMemo *m, Py_buffer *v) {
    static const char *names[3] = {"memo[0] (saved values)", "memo[1] (next limits)",
                                   "memo[2] (has saved)"};
    if (!PyTuple_Check(memo) || PyTuple_GET_SIZE(memo) != 3) {
        PyErr_SetString(PyExc_TypeError, "memo must be a tuple of 3 arrays");
        return -1;
    }
    if (get_view(PyTuple_GET_ITEM(memo, 0), &v[0], names[0], SIGNED, 1,
                 (Shape){2, -1, 0, f->nlits}, 1) <
        0)
        return -1;
    Py_ssize_t rows = v[0].shape[0];
    if (get_view(PyTuple_GET_ITEM(memo, 1), &v[1], names[1], SIGNED, 8, (Shape){1, rows, 0, 0},
                 1) < 0 ||
        get_view(PyTuple_GET_ITEM(memo, 2), &v[2], names[2], BOOL, 1, (Shape){1, rows, 0, 0},
                 1) < 0)
        return -1;
    if (rows != 0 && rows < ncand) {
        PyErr_Format(PyExc_ValueError, "memo has %zd rows: 0 or one a candidate (%lld)", rows,
                     (long long)ncand);
        return -1;
    }
    m->saved = v[0].buf, m->next_limit = v[1].buf, m->has_saved = v[2].buf, m->rows = rows;
    return 0;
}

/* The state T, the workspace U and the scratch X must not share memory, in any pair of
 * their arrays: U and X are written while T is read, and each array's indices were
 * checked through its own view alone. */
static int apart(const Py_buffer *a, int na, const Py_buffer *b, int nb, const char *what) {
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            const char *x = a[i].buf, *y = b[j].buf;
            if (a[i].len && b[j].len && x < y + b[j].len && y < x + a[i].len) {
                PyErr_Format(PyExc_ValueError, "%s share memory", what);
                return 0;
            }
        }
    return 1;
}

/* What a BxB wrapper binds: the formula, the call, the state T, the workspace U, the
 * scratch X, the memo, with their views, and the work counters and true_somewhere. */
typedef struct {
    LCall k;
    LState T, U;
    LScratch X;
    LMemo memo;
    Py_buffer t[STATE_VIEWS], u[STATE_VIEWS], x[SCRATCH_FIELDS], m[3], work, truth;
} BxbBound;

static void bxb_unbind(BxbBound *b) {
    release(b->t, STATE_VIEWS);
    release(b->u, STATE_VIEWS);
    release(b->x, SCRATCH_FIELDS);
    release(b->m, 3);
    release(&b->work, 1);
    release(&b->truth, 1);
}

/* Bind T, X and the work counters, and (Uo not NULL) U and the memo, into b and t: 0,
 * or -1 with the exception set. */
static int bxb_bind(BxbBound *b, const LFormula *f, PyObject *const o[5], long long n,
                    LTrial *t) {
    PyObject *To = o[0], *Uo = o[1], *Xo = o[2], *mo = o[3], *wo = o[4];
    if (check_candidates(f, n) < 0 || bind_state(f, To, &b->T, b->t, 1) < 0 ||
        bind_scratch(f, Xo, &b->X, b->x) < 0 ||
        !apart(b->t, STATE_VIEWS, b->x, SCRATCH_FIELDS, "the state T and the scratch X") ||
        get_view(wo, &b->work, "work", SIGNED, 8, (Shape){1, W_NUM_COUNTERS, 0, 0}, 1) < 0)
        return -1;
    if (Uo && (bind_state(f, Uo, &b->U, b->u, 1) < 0 ||
               !apart(b->t, STATE_VIEWS, b->u, STATE_VIEWS, "the workspace U and the state T") ||
               !apart(b->u, STATE_VIEWS, b->x, SCRATCH_FIELDS,
                      "the workspace U and the scratch X") ||
               bind_memo(f, mo, n, &b->memo, b->m) < 0))
        return -1;
    *t = (LTrial){&b->T, Uo ? &b->U : NULL, &b->X, n, 0, NO_DEADLINE, &b->memo, b->work.buf};
    return 0;
}

/* braid_closure, try_hypothesis, trial_and_error: `which` says which. */
enum { CLOSURE, HYPOTHESIS, TRIAL };

static PyObject *bxb_call(PyObject *args, int which) {
    PyObject *fo, *o[5] = {NULL}, *to = NULL; /* T, U, X, memo, work */
    long long n, v = 0, limit;
    double left;
    int parsed;
    if (which == CLOSURE)
        parsed = PyArg_ParseTuple(args, "OOOLLdO", &fo, &o[0], &o[2], &n, &limit, &left, &o[4]);
    else if (which == HYPOTHESIS)
        parsed = PyArg_ParseTuple(args, "OOOOLLLdOO", &fo, &o[0], &o[1], &o[2], &n, &v, &limit,
                                  &left, &o[3], &o[4]);
    else
        parsed = PyArg_ParseTuple(args, "OOOOLLdOOO", &fo, &o[0], &o[1], &o[2], &n, &limit, &left,
                                  &to, &o[3], &o[4]);
    if (!parsed) return NULL;
    const LFormula *f = get_formula(fo);
    if (!f) return NULL;
    BxbBound b;
    memset(&b, 0, sizeof b);
    b.k.f = f;
    PyObject *result = NULL;
    LTrial t;
    int32_t *codes = NULL, *cones = NULL;
    if (bxb_bind(&b, f, o, n, &t) < 0) goto done;
    if (which == HYPOTHESIS && (v < 0 || v >= n)) {
        PyErr_Format(PyExc_ValueError, "candidate %lld is not in 0..%lld", v, n - 1);
        goto done;
    }
    if (which == TRIAL && get_view(to, &b.truth, "true_somewhere", BOOL, 1, (Shape){1, -2, n, 0},
                                   0) < 0)
        goto done;
    if (which == HYPOTHESIS) {
        codes = malloc(sizeof(int32_t) * (size_t)f->nlits);
        cones = calloc((size_t)f->nlits, sizeof(int32_t));
        if (!codes || !cones) {
            PyErr_NoMemory();
            goto done;
        }
    }
    t.limit = limit;
    t.deadline_ns = deadline_ns(left);
    int64_t next = 0, status;
    Poll poll;
    b.k.poll = &poll;
    core_release(&poll);
    if (which == CLOSURE)
        status = bxb_braid_closure(&b.k, &t, &b.T, &next);
    else if (which == HYPOTHESIS)
        status = bxb_try_hypothesis(&b.k, &t, v, codes, cones, &next);
    else
        status = bxb_trial_and_error(&b.k, &t, b.truth.buf, &next);
    if (finish(&b.k, &poll) == 0) result = Py_BuildValue("LL", status, next);
done:
    free(codes);
    free(cones);
    bxb_unbind(&b);
    return result;
}

static PyObject *py_braid_closure(PyObject *self, PyObject *args) {
    return bxb_call(args, CLOSURE);
}

static PyObject *py_try_hypothesis(PyObject *self, PyObject *args) {
    return bxb_call(args, HYPOTHESIS);
}

static PyObject *py_trial_and_error(PyObject *self, PyObject *args) {
    return bxb_call(args, TRIAL);
}

static PyMethodDef module_methods[] = {
    {"braid_closure", py_braid_closure, METH_VARARGS,
     "braid_closure(f, T, X, num_candidates, limit, seconds_left, work) -> (status, next)"},
    {"try_hypothesis", py_try_hypothesis, METH_VARARGS,
     "try_hypothesis(f, T, U, X, num_candidates, v, limit, seconds_left, memo, work)"},
    {"trial_and_error", py_trial_and_error, METH_VARARGS,
     "trial_and_error(f, T, U, X, num_candidates, limit, seconds_left, true_somewhere, memo, "
     "work)"},
    {"build", py_build, METH_VARARGS,
     "build(flat, offsets, num_vars) -> (lits, cstart, corig, wstart, bstart, bimp, units, "
     "unit_idx, first_empty)"},
    {"restart", py_restart, METH_VARARGS, "restart(f, S, units, givens)"},
    {"assert_facts", py_assert_facts, METH_VARARGS, "assert_facts(f, S, lits, cones, why)"},
    {"eliminate", py_eliminate, METH_VARARGS, "eliminate(f, S, lit)"},
    {"solved", py_solved, METH_VARARGS, "solved(f, S, num_candidates)"},
    {"rate_many", py_rate_many, METH_VARARGS,
     "rate_many(f, S, X, A, num_candidates, limit, lengths, step_lengths, units, values, "
     "solutions, "
     "side, searches, out): grids done"},
    {"model_mask", py_model_mask, METH_VARARGS,
     "model_mask(f, S, codes, mask): whether codes (true, the rest false) is a model"},
    {"shortest_refutation", py_shortest_refutation, METH_VARARGS,
     "shortest_refutation(f, S, X, z, limit)"},
    {"conflict_round", py_conflict_round, METH_VARARGS, "conflict_round(f, S, X, z, limit)"},
    {"may_refute_within_two", py_may_refute_within_two, METH_VARARGS,
     "may_refute_within_two(f, S, X, z): None where the test does not apply"},
    {"refutation_with_alternatives", py_refutation_with_alternatives, METH_VARARGS,
     "refutation_with_alternatives(f, S, X, A, z, limit)"},
    {"candidate_lengths", py_candidate_lengths, METH_VARARGS,
     "candidate_lengths(f, S, X, num_candidates, limit, lengths)"},
    {"shorter_lengths", py_shorter_lengths, METH_VARARGS,
     "shorter_lengths(f, S, X, A, num_candidates, limit, lengths)"},
    {"simplest_first", py_simplest_first, METH_VARARGS,
     "simplest_first(f, S, X, A, num_candidates, limit, lengths, step_lengths, budget, "
     "known_true=None, searches=None)"},
    {"failed_closure", py_failed_closure, METH_VARARGS, "failed_closure(f, S, X, num_candidates)"},
    {"refutation_chain", py_refutation_chain, METH_VARARGS,
     "refutation_chain(f, S, cone, hypothesis, out_lits, out_constraints)"},
    {NULL},
};

static struct PyModuleDef length_module = {
    PyModuleDef_HEAD_INIT, "_length",
    "The refutation-length kernels of sudoku-sat (see solvers.core.length).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__length(void) {
    if (PyType_Ready(&FormulaType) < 0) return NULL;
    PyObject *m = PyModule_Create(&length_module);
    if (!m) return NULL;
    Py_INCREF(&FormulaType);
    if (PyModule_AddObject(m, "Formula", (PyObject *)&FormulaType) < 0) {
        Py_DECREF(&FormulaType);
        Py_DECREF(m);
        return NULL;
    }
    /* The codes and slots the kernels use, for the face to check against Python's. */
    static const struct {
        const char *name;
        long long value;
    } constants[] = {
        {"TRAIL_SIZE", ST_TRAIL_SIZE},   {"QHEAD", ST_QHEAD},
        {"DLEVEL", ST_DLEVEL},
        {"POOL_SIZE", ST_POOL_SIZE},     {"TRACK", ST_TRACK},
        {"NUM_SLOTS", ST_NUM_SLOTS},     {"STAMP", X_STAMP},
        {"PROPAGATE_SLOTS", ST_PROPAGATE_SLOTS},
        {"SCRATCH_POOL_SIZE", X_POOL_SIZE}, {"ENTRIES", X_ENTRIES},
        {"SCRATCH_TRAIL_SIZE", X_TRAIL_SIZE}, {"NUM_SCRATCH_SLOTS", X_NUM_SLOTS},
        {"ALT_POOL_SIZE", A_POOL_SIZE},  {"ALT_ENTRIES", A_ENTRIES},
        {"ALT_OVERFLOW", A_OVERFLOW},    {"CONES_PER_LITERAL", CONES_PER_LITERAL},
        {"EMPTY", EMPTY},                {"NO_CONFLICT", NO_CONFLICT},
        {"PAUSED", -STATUS_PAUSED},      {"SOLVED", -STATUS_SAT},
        {"CONTRADICTION", -STATUS_CONFLICT}, {"STUCK", -STATUS_STUCK},
        {"REASON_DECISION", REASON_DECISION}, {"REASON_PROBE", REASON_PROBE},
        {"REASON_UNIT", REASON_UNIT},    {"BINARY_REASON", BINARY_REASON},
        {"OUT_OF_TIME", -STATUS_TIME},   {"OUT_OF_BUDGET", -STATUS_BUDGET},
        {"BAD_SOLUTION", -STATUS_BAD_SOLUTION},
        {"SEARCHES", W_SEARCHES},        {"HYPOTHESES", W_HYPOTHESES},
        {"SKIPPED", W_SKIPPED},          {"ELIMINATED", W_ELIMINATED},
        {"BUDGET", W_BUDGET},            {"NUM_COUNTERS", W_NUM_COUNTERS},
        {"CLOCK_EVERY", CLOCK_EVERY},
        {"NEVER", NEVER},
    };
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++)
        if (PyModule_AddIntConstant(m, constants[i].name, constants[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    return m;
}
