/* The records of the refutation-length kernels as types the core owns (see
 * length_records.h): Formula, State, Scratch and Alternatives.
 *
 * A Formula is the arrays of solvers.core.length.build (length_formula.c) copied into
 * memory of its own, every index in it checked once, and each literal's constraints
 * (occ) and links read backwards (rstart, rimp) added: nobody can change it afterwards,
 * so the kernels trust it.  A State, Scratch or Alternatives is made for one Formula and
 * sized from it; its arrays sit in one block, zeroed and filled as the kernels expect a
 * fresh record, and only the kernels write them afterwards, so the indices they hold are
 * the kernels' own and a call checks none of them.  Python reads a State's values, a pool
 * row or the best cone as read-only numpy copies, and adds a cone to a tracked State's
 * pool through add_cone, which checks it.
 */
#include "length_records.h"

#include <stdlib.h>
#include <string.h>

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

int ints_in(const int32_t *a, int64_t n, int64_t lo, int64_t hi) {
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

PyTypeObject FormulaType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._length.Formula",
    .tp_basicsize = sizeof(FormulaObject),
    .tp_dealloc = (destructor)formula_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Formula(F, num_vars): build's ClauseArrays, copied and checked",
    .tp_init = (initproc)formula_init,
    .tp_new = PyType_GenericNew,
    .tp_getset = formula_getset,
};

const LFormula *get_formula(PyObject *obj) {
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

/* ---- the records' blocks ----------------------------------------------------------- */

/* The next `count` items of `size` bytes in a block, at a 64-byte boundary: `*at` moves
 * past them; with no block (base NULL) only the size is counted. */
static void *place(char *base, size_t *at, int64_t count, size_t size) {
    *at = (*at + 63) & ~(size_t)63;
    void *p = base ? base + *at : NULL;
    *at += (size_t)count * size;
    return p;
}

/* Each record's arrays in its block (base NULL: none), sizes from the formula; the
 * block's size in bytes. */
static size_t state_layout(const LFormula *f, LState *s, char *base) {
    size_t at = 0;
    s->rows = 2 * (int64_t)f->nv + f->m + 2; /* a cone per literal and constraint, at most */
    s->value = place(base, &at, f->nlits, 1);
    s->level = place(base, &at, f->nv, 4);
    s->reason = place(base, &at, f->nv, 4);
    s->trail = place(base, &at, f->nv, 4);
    s->st = place(base, &at, ST_NUM_SLOTS, 8);
    s->cone = place(base, &at, f->nlits, 4);
    s->nfalse = place(base, &at, f->m, 4);
    s->ntrue = place(base, &at, f->m, 4);
    s->pool = place(base, &at, s->rows * f->words, 8);
    return at;
}

static size_t scratch_layout(const LFormula *f, LScratch *x, char *base) {
    size_t at = 0;
    x->rows = (int64_t)f->m + 2;
    x->entries = f->nbimp + f->m + 2; /* each link and constraint pushes at most once */
    x->value = place(base, &at, f->nlits, 1);
    x->cone = place(base, &at, f->nlits, 4);
    x->trail = place(base, &at, f->nlits, 4);
    x->stamp = place(base, &at, f->m, 8);
    x->nfalse = place(base, &at, f->m, 4);
    x->false_cones = place(base, &at, (int64_t)f->m * f->words, 8);
    x->pool = place(base, &at, x->rows * f->words, 8);
    x->bucket = place(base, &at, (int64_t)f->m + 2, 4);
    x->entry_next = place(base, &at, x->entries, 4);
    x->entry_lit = place(base, &at, x->entries, 4);
    x->entry_cone = place(base, &at, x->entries, 4);
    x->best_cone = place(base, &at, f->words, 8);
    x->work = place(base, &at, f->words, 8);
    x->st = place(base, &at, X_NUM_SLOTS, 8);
    return at;
}

static size_t alternatives_layout(const LFormula *f, LAlternatives *a, char *base) {
    size_t at = 0;
    /* Sixteen cones a constraint, within ALTERNATIVE_WORDS words: past them the search
     * overflows and the plain search answers (A_OVERFLOW). */
    int64_t rows = ALTERNATIVE_WORDS / (f->words > 0 ? f->words : 1);
    if (rows > 16 * ((int64_t)f->m + 2)) rows = 16 * ((int64_t)f->m + 2);
    a->rows = rows < 2 ? 2 : rows;
    a->entries = CONES_PER_LITERAL * f->nbimp + a->rows + 2;
    if (a->entries > ALTERNATIVE_WORDS) a->entries = ALTERNATIVE_WORDS;
    a->entry_next = place(base, &at, a->entries, 4);
    a->entry_lit = place(base, &at, a->entries, 4);
    a->entry_cone = place(base, &at, a->entries, 4);
    a->bucket = place(base, &at, (int64_t)f->m + 2, 4);
    a->ncones = place(base, &at, f->nlits, 4);
    a->cones = place(base, &at, (int64_t)f->nlits * CONES_PER_LITERAL, 4);
    a->pool = place(base, &at, a->rows * f->words, 8);
    a->others = place(base, &at, f->width, 4);
    a->choice = place(base, &at, f->width, 4);
    a->partial = place(base, &at, ((int64_t)f->width + 1) * f->words, 8);
    a->st = place(base, &at, A_NUM_SLOTS, 8);
    return at;
}

/* Point record r's arrays into its block (allocated here when `allocate`): 0, or -1
 * with MemoryError. */
static int lay_out(RecordHead *r, PyTypeObject *type, const LFormula *f, int allocate) {
    size_t bytes = type == &StateType     ? state_layout(f, &((StateObject *)r)->s, NULL)
                   : type == &ScratchType ? scratch_layout(f, &((ScratchObject *)r)->x, NULL)
                                          : alternatives_layout(f, &((AlternativesObject *)r)->a,
                                                                NULL);
    if (allocate) {
        r->block = malloc(bytes > 0 ? bytes : 1);
        if (!r->block) {
            PyErr_NoMemory();
            return -1;
        }
        r->bytes = bytes;
    }
    if (type == &StateType) state_layout(f, &((StateObject *)r)->s, r->block);
    else if (type == &ScratchType) scratch_layout(f, &((ScratchObject *)r)->x, r->block);
    else alternatives_layout(f, &((AlternativesObject *)r)->a, r->block);
    return 0;
}

/* Make r's arrays those of a fresh record: zeros, but for a State's reasons (none
 * forced) and its pool's row 0 (the empty cone), and the work arrays' empty buckets. */
static void make_fresh(RecordHead *r, PyTypeObject *type, const LFormula *f) {
    memset(r->block, 0, r->bytes);
    if (type == &StateType) {
        LState *s = &((StateObject *)r)->s;
        for (int32_t v = 0; v < f->nv; v++) s->reason[v] = REASON_DECISION;
        s->st[ST_POOL_SIZE] = 1;
    } else {
        int32_t *bucket = type == &ScratchType ? ((ScratchObject *)r)->x.bucket
                                               : ((AlternativesObject *)r)->a.bucket;
        memset(bucket, 0xff, sizeof(int32_t) * ((size_t)f->m + 2)); /* -1: no entry */
    }
}

static const LFormula *formula_of(const RecordHead *r) {
    return &((FormulaObject *)r->formula)->f;
}

/* A record's __init__(formula[, track]): made once, for a made Formula. */
static int record_init(RecordHead *r, PyObject *fo) {
    const LFormula *f = get_formula(fo);
    if (!f) return -1;
    if (r->block) {
        PyErr_Format(PyExc_RuntimeError, "a %s is made once", Py_TYPE(r)->tp_name);
        return -1;
    }
    if (lay_out(r, Py_TYPE(r), f, 1) < 0) return -1;
    make_fresh(r, Py_TYPE(r), f);
    r->formula = Py_NewRef(fo);
    return 0;
}

static void record_dealloc(RecordHead *r) {
    free(r->block);
    Py_XDECREF(r->formula);
    Py_TYPE(r)->tp_free((PyObject *)r);
}

/* The record, made and not held by a kernel, for a read or a copy from Python. */
static int readable(RecordHead *r) {
    if (!r->block) {
        PyErr_Format(PyExc_RuntimeError, "the %s was not made", Py_TYPE(r)->tp_name);
        return -1;
    }
    if (r->busy) {
        PyErr_Format(PyExc_RuntimeError, "the %s is in use by a kernel in another thread",
                     Py_TYPE(r)->tp_name);
        return -1;
    }
    return 0;
}

RecordHead *take_record(PyObject *obj, PyTypeObject *type, PyObject *fo, const char *name) {
    if (!PyObject_TypeCheck(obj, type)) {
        PyErr_Format(PyExc_TypeError, "%s must be a %s, not %R", name, type->tp_name,
                     (PyObject *)Py_TYPE(obj));
        return NULL;
    }
    RecordHead *r = (RecordHead *)obj;
    if (readable(r) < 0) return NULL;
    if (r->formula != fo) {
        PyErr_Format(PyExc_ValueError, "%s was made for another Formula", name);
        return NULL;
    }
    if (r->dirty) { /* (a State is never dirty: its facts are consistent between hypotheses) */
        make_fresh(r, type, formula_of(r));
        r->dirty = 0;
    }
    r->busy = 1;
    return r;
}

void give_record(RecordHead *r, int stopped) {
    if (!r) return;
    r->busy = 0;
    if (stopped && Py_TYPE(r) != &StateType) r->dirty = 1;
}

/* numpy.frombuffer(bytes(p[0:n * size]), dtype): a read-only copy for Python. */
static PyObject *copy_out(const void *p, int64_t n, size_t size, const char *dtype) {
    static PyObject *frombuffer;
    if (!frombuffer) {
        PyObject *numpy = PyImport_ImportModule("numpy");
        if (!numpy) return NULL;
        frombuffer = PyObject_GetAttrString(numpy, "frombuffer");
        Py_DECREF(numpy);
        if (!frombuffer) return NULL;
    }
    PyObject *bytes = PyBytes_FromStringAndSize(p, (Py_ssize_t)((size_t)n * size));
    if (!bytes) return NULL;
    PyObject *out = PyObject_CallFunction(frombuffer, "Os", bytes, dtype);
    Py_DECREF(bytes);
    return out;
}

/* ---- State ------------------------------------------------------------------------- */

/* State(formula, track=False): no facts; `track`: facts carry cones (the nested rating). */
static int state_init(StateObject *self, PyObject *args, PyObject *kwds) {
    PyObject *fo;
    int track = 0;
    static char *names[] = {"formula", "track", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|p", names, &fo, &track)) return -1;
    if (record_init(&self->head, fo) < 0) return -1;
    self->s.st[ST_TRACK] = track;
    return 0;
}

/* S.copy(track=None): a State of the same facts, every array copied; `track` True or
 * False sets the copy's. */
static PyObject *state_copy(StateObject *self, PyObject *args, PyObject *kwds) {
    PyObject *track = Py_None;
    static char *names[] = {"track", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O", names, &track)) return NULL;
    if (readable(&self->head) < 0) return NULL;
    int flag = track == Py_None ? (int)self->s.st[ST_TRACK] : PyObject_IsTrue(track);
    if (flag < 0) return NULL;
    StateObject *out = (StateObject *)StateType.tp_alloc(&StateType, 0);
    if (!out) return NULL;
    out->head.formula = Py_NewRef(self->head.formula);
    if (lay_out(&out->head, &StateType, formula_of(&self->head), 1) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    memcpy(out->head.block, self->head.block, self->head.bytes);
    out->s.st[ST_TRACK] = flag;
    return (PyObject *)out;
}

/* S.pool_row(row): the cone of pool row `row` (in use), its bits the constraints. */
static PyObject *state_pool_row(StateObject *self, PyObject *arg) {
    long long row = PyLong_AsLongLong(arg);
    if (row == -1 && PyErr_Occurred()) return NULL;
    if (readable(&self->head) < 0) return NULL;
    if (row < 0 || row >= self->s.st[ST_POOL_SIZE]) {
        PyErr_Format(PyExc_ValueError, "pool row %lld is not in use (0..%lld)", row,
                     (long long)self->s.st[ST_POOL_SIZE] - 1);
        return NULL;
    }
    int32_t words = formula_of(&self->head)->words;
    return copy_out(self->s.pool + row * words, words, 8, "uint64");
}

/* S.add_cone(words): a new pool row holding the cone `words` (uint64, one bit a
 * constraint), for a fact assert_facts makes; its row. */
static PyObject *state_add_cone(StateObject *self, PyObject *arg) {
    if (readable(&self->head) < 0) return NULL;
    const LFormula *f = formula_of(&self->head);
    if (!self->s.st[ST_TRACK]) {
        PyErr_SetString(PyExc_ValueError, "an untracked State holds no cones");
        return NULL;
    }
    Py_buffer view = {0};
    if (get_view(arg, &view, "cone", UNSIGNED, 8, (Shape){1, f->words, 0, 0}, 0) < 0)
        return NULL;
    const uint64_t *words = view.buf;
    int64_t row = self->s.st[ST_POOL_SIZE];
    PyObject *result = NULL;
    if (f->m % 64 && words[f->words - 1] >> (f->m % 64))
        PyErr_SetString(PyExc_ValueError, "the cone holds a bit past the constraints");
    else if (row >= self->s.rows)
        PyErr_SetString(PyExc_ValueError, "the State's pool is full");
    else {
        memcpy(self->s.pool + row * f->words, words, sizeof(uint64_t) * (size_t)f->words);
        self->s.st[ST_POOL_SIZE] = row + 1;
        result = PyLong_FromLongLong(row);
    }
    PyBuffer_Release(&view);
    return result;
}

static PyObject *state_get(StateObject *self, void *which) {
    if (readable(&self->head) < 0) return NULL;
    switch ((int)(intptr_t)which) {
        case 0: return copy_out(self->s.value, formula_of(&self->head)->nlits, 1, "int8");
        case 1: return PyBool_FromLong((long)self->s.st[ST_TRACK]);
        default: return PyLong_FromLongLong(self->s.st[ST_TRAIL_SIZE]);
    }
}

/* A dict of read-only copies of the arrays named, for tests and inspection. */
typedef struct {
    const char *name;
    const void *p;
    int64_t n;
    size_t size;
    const char *dtype;
} Exposed;

static PyObject *exposed_dict(const Exposed *e, int count) {
    PyObject *out = PyDict_New();
    for (int i = 0; out && i < count; i++) {
        PyObject *a = copy_out(e[i].p, e[i].n, e[i].size, e[i].dtype);
        if (!a || PyDict_SetItemString(out, e[i].name, a) < 0) Py_CLEAR(out);
        Py_XDECREF(a);
    }
    return out;
}

/* S.arrays(): every array of the State, by name (pool: its rows in use, flat). */
static PyObject *state_arrays(StateObject *self, PyObject *unused) {
    if (readable(&self->head) < 0) return NULL;
    const LFormula *f = formula_of(&self->head);
    const LState *s = &self->s;
    const Exposed e[] = {
        {"value", s->value, f->nlits, 1, "int8"},   {"level", s->level, f->nv, 4, "int32"},
        {"reason", s->reason, f->nv, 4, "int32"},   {"trail", s->trail, f->nv, 4, "int32"},
        {"st", s->st, ST_NUM_SLOTS, 8, "int64"},    {"cone", s->cone, f->nlits, 4, "int32"},
        {"nfalse", s->nfalse, f->m, 4, "int32"},    {"ntrue", s->ntrue, f->m, 4, "int32"},
        {"pool", s->pool, s->rows * f->words, 8, "uint64"},
    };
    return exposed_dict(e, sizeof e / sizeof e[0]);
}

/* X.arrays(): the Scratch's per-literal arrays and scalar slots, by name. */
static PyObject *scratch_arrays(ScratchObject *self, PyObject *unused) {
    if (readable(&self->head) < 0) return NULL;
    const LFormula *f = formula_of(&self->head);
    const LScratch *x = &self->x;
    const Exposed e[] = {
        {"value", x->value, f->nlits, 1, "int8"},
        {"cone", x->cone, f->nlits, 4, "int32"},
        {"stamp", x->stamp, f->m, 8, "int64"},
        {"st", x->st, X_NUM_SLOTS, 8, "int64"},
    };
    return exposed_dict(e, sizeof e / sizeof e[0]);
}

static PyObject *record_formula(RecordHead *self, void *unused) {
    if (!self->formula) {
        PyErr_Format(PyExc_RuntimeError, "the %s was not made", Py_TYPE(self)->tp_name);
        return NULL;
    }
    return Py_NewRef(self->formula);
}

/* A record type: its name, object, doc, constructor, methods and attributes (the rest
 * is the same for the three). */
#define RECORD_TYPE(name, object, doc, init, methods, getset)                                \
    {                                                                                        \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._length." name,              \
        .tp_basicsize = sizeof(object), .tp_dealloc = (destructor)record_dealloc,            \
        .tp_flags = Py_TPFLAGS_DEFAULT, .tp_doc = doc, .tp_init = (initproc)init,            \
        .tp_new = PyType_GenericNew, .tp_methods = methods, .tp_getset = getset,             \
    }

static PyMethodDef state_methods[] = {
    {"copy", (PyCFunction)(void (*)(void))state_copy, METH_VARARGS | METH_KEYWORDS,
     "copy(track=None): a State of the same facts (track True/False: the copy's)"},
    {"pool_row", (PyCFunction)state_pool_row, METH_O,
     "pool_row(row): the cone of a pool row in use, as uint64 words (a copy)"},
    {"add_cone", (PyCFunction)state_add_cone, METH_O,
     "add_cone(words): a new pool row holding this cone (a tracked State's); its row"},
    {"arrays", (PyCFunction)state_arrays, METH_NOARGS,
     "arrays(): every array, by name, as read-only copies"},
    {NULL},
};

static PyGetSetDef state_getset[] = {
    {"value", (getter)state_get, NULL, "per literal: 1 true, -1 false, 0 open (int8, a copy)",
     (void *)0},
    {"track", (getter)state_get, NULL, "whether facts carry cones", (void *)1},
    {"num_facts", (getter)state_get, NULL, "literals on the trail", (void *)2},
    {"formula", (getter)record_formula, NULL, "the Formula it was made for", NULL},
    {NULL},
};

PyTypeObject StateType = RECORD_TYPE(
    "State", StateObject, "State(formula, track=False): the facts and their cones, the kernels' own",
    state_init, state_methods, state_getset);

/* ---- Scratch and Alternatives --------------------------------------------------------- */

static int work_init(RecordHead *self, PyObject *args, PyObject *kwds) {
    PyObject *fo;
    static char *names[] = {"formula", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", names, &fo)) return -1;
    return record_init(self, fo);
}

static PyObject *scratch_best_cone(ScratchObject *self, void *unused) {
    if (readable(&self->head) < 0) return NULL;
    return copy_out(self->x.best_cone, formula_of(&self->head)->words, 8, "uint64");
}

static PyGetSetDef scratch_getset[] = {
    {"best_cone", (getter)scratch_best_cone, NULL,
     "the cone of the last search's best contradiction (uint64 words, a copy)", NULL},
    {"formula", (getter)record_formula, NULL, "the Formula it was made for", NULL},
    {NULL},
};

static PyMethodDef scratch_methods[] = {
    {"arrays", (PyCFunction)scratch_arrays, METH_NOARGS,
     "arrays(): the per-literal arrays and slots, by name, as read-only copies"},
    {NULL},
};

static PyGetSetDef alternatives_getset[] = {
    {"formula", (getter)record_formula, NULL, "the Formula it was made for", NULL},
    {NULL},
};

PyTypeObject ScratchType = RECORD_TYPE(
    "Scratch", ScratchObject, "Scratch(formula): the work arrays of one hypothesis's search",
    work_init, scratch_methods, scratch_getset);

PyTypeObject AlternativesType = RECORD_TYPE(
    "Alternatives", AlternativesObject,
    "Alternatives(formula): the work arrays of the alternative cones' search", work_init, NULL,
    alternatives_getset);

int length_records_add(PyObject *m) {
    static const struct {
        PyTypeObject *type;
        const char *name;
    } types[] = {{&FormulaType, "Formula"},
                 {&StateType, "State"},
                 {&ScratchType, "Scratch"},
                 {&AlternativesType, "Alternatives"}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (PyType_Ready(types[i].type) < 0) return -1;
        Py_INCREF(types[i].type);
        if (PyModule_AddObject(m, types[i].name, (PyObject *)types[i].type) < 0) {
            Py_DECREF(types[i].type);
            return -1;
        }
    }
    return 0;
}
