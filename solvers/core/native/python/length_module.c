/* The Python face of the refutation-length kernels (solvers.core._length): one function a
 * kernel, each checking its arguments at the boundary.  The records a kernel works on
 * (Formula, State, Scratch, Alternatives) are the core's own types (length_records.c):
 * a call takes each for its duration, refusing a record of another formula or one a
 * kernel holds in another thread, and checks only its own arrays and numbers (literal
 * codes, candidate counts, limits).  The long kernels (candidates, the resolution, the
 * closure, BxB) release the GIL and poll for signals between hypotheses.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "length.h"
#include "length_records.h"
#include "views.h"

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
 * for) the scratch X and the alternatives A, each a record taken for the call, and up to
 * EXTRA views of the call's own arrays. */
enum { EXTRA = 6 };
typedef struct {
    const LFormula *f;
    LCall k;
    LState *S;
    LScratch *X;
    LAlternatives *A;
    RecordHead *held[3];
    Py_buffer extra[EXTRA];
} Bound;

/* Bind formula fo and records So, Xo, Ao (Xo, Ao NULL: not taken) into b: 0, or -1
 * with the exception set (unbind gives back what was bound either way). */
static int bind(Bound *b, PyObject *fo, PyObject *So, PyObject *Xo, PyObject *Ao) {
    memset(b, 0, sizeof *b);
    b->f = get_formula(fo);
    if (!b->f) return -1;
    b->k.f = b->f;
    if (!(b->held[0] = take_record(So, &StateType, fo, "S"))) return -1;
    b->S = &((StateObject *)b->held[0])->s;
    if (Xo) {
        if (!(b->held[1] = take_record(Xo, &ScratchType, fo, "X"))) return -1;
        b->X = &((ScratchObject *)b->held[1])->x;
    }
    if (Ao) {
        if (!(b->held[2] = take_record(Ao, &AlternativesType, fo, "A"))) return -1;
        b->A = &((AlternativesObject *)b->held[2])->a;
    }
    return 0;
}

/* Give the records back (a kernel that stopped or overflowed leaves its work arrays
 * half written) and release the views; return result. */
static PyObject *unbind(Bound *b, PyObject *result) {
    for (int i = 0; i < 3; i++) give_record(b->held[i], b->k.stop || b->k.bad);
    release(b->extra, EXTRA);
    return result;
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
    int64_t r = length_restart(&b.k, b.S, units->buf, units->shape[0], givens->buf,
                               givens->shape[0]);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    return unbind(&b, result);
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
        !ints_in(cones->buf, n, 0, b.S->st[ST_POOL_SIZE])) {
        PyErr_SetString(PyExc_ValueError, "lits hold no literal code or cones no pool row in use");
        goto done;
    }
    int64_t r = length_assert_facts(&b.k, b.S, lits->buf, cones->buf, n, why);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    return unbind(&b, result);
}

static PyObject *py_eliminate(PyObject *self, PyObject *args) {
    PyObject *fo, *So;
    long long lit;
    if (!PyArg_ParseTuple(args, "OOL", &fo, &So, &lit)) return NULL;
    Bound b;
    if (bind(&b, fo, So, NULL, NULL) < 0 || check_literal(b.f, lit, "lit") < 0)
        return unbind(&b, NULL);
    int64_t r = length_eliminate(&b.k, b.S, (int32_t)lit);
    return unbind(&b, finish(&b.k, NULL) == 0 ? PyLong_FromLongLong(r) : NULL);
}

static PyObject *py_solved(PyObject *self, PyObject *args) {
    PyObject *fo, *So;
    long long n;
    if (!PyArg_ParseTuple(args, "OOL", &fo, &So, &n)) return NULL;
    Bound b;
    if (bind(&b, fo, So, NULL, NULL) < 0 || check_candidates(b.f, n) < 0) return unbind(&b, NULL);
    return unbind(&b, PyBool_FromLong(length_solved(b.S, n)));
}

static PyObject *py_model_mask(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *co, *mo;
    if (!PyArg_ParseTuple(args, "OOOO", &fo, &So, &co, &mo)) return NULL;
    Bound b;
    Py_buffer *codes = &b.extra[0], *mask = &b.extra[1];
    if (bind(&b, fo, So, NULL, NULL) < 0 ||
        get_view(co, codes, "codes", SIGNED, 4, (Shape){1, -1, 0, 0}, 0) < 0 ||
        get_view(mo, mask, "mask", BOOL, 1, (Shape){1, b.f->nv, 0, 0}, 1) < 0)
        return unbind(&b, NULL);
    int model = length_model_mask(b.f, b.S, codes->buf, codes->shape[0], mask->buf);
    return unbind(&b, PyBool_FromLong(model));
}

/* An entry that one shared wrapper serves, with `which` saying which kernel it is. */
#define ENTRY(name, wrapper, which)                                                        \
    static PyObject *name(PyObject *self, PyObject *args) { return wrapper(args, which); }

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
        int r = length_may_refute_within_two(&b.k, b.S, b.X, lit);
        if (finish(&b.k, NULL) == 0) result = r < 0 ? Py_NewRef(Py_None) : PyBool_FromLong(r);
        goto done;
    }
    int64_t r = which == SHORTEST ? length_shortest(&b.k, b.S, b.X, lit, limit)
                : which == CONFLICT_ROUND
                    ? length_conflict_round(&b.k, b.S, b.X, lit, limit)
                    : length_with_alternatives(&b.k, b.S, b.X, b.A, lit, limit);
    if (finish(&b.k, NULL) == 0) result = PyLong_FromLongLong(r);
done:
    return unbind(&b, result);
}

ENTRY(py_shortest_refutation, search_call, SHORTEST)

ENTRY(py_conflict_round, search_call, CONFLICT_ROUND)

ENTRY(py_may_refute_within_two, search_call, WITHIN_TWO)

ENTRY(py_refutation_with_alternatives, search_call, WITH_ALTERNATIVES)

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
    int64_t r = alternatives ? length_shorter(&b.k, b.S, b.X, b.A, n, limit, lengths->buf)
                             : length_candidates(&b.k, b.S, b.X, n, limit, lengths->buf);
    if (finish(&b.k, &poll) == 0) result = PyLong_FromLongLong(r);
done:
    return unbind(&b, result);
}

ENTRY(py_candidate_lengths, lengths_call, 0)

ENTRY(py_shorter_lengths, lengths_call, 1)

/* Bind the rating's arrays (lengths: one a candidate, step_lengths: any length) into
 * b->extra[0], [1] and r: 0, or -1 with the exception set. */
static int bind_rating(Bound *b, long long n, long long limit, PyObject *lo, PyObject *go,
                       LRating *r) {
    if (check_candidates(b->f, n) < 0 ||
        get_view(lo, &b->extra[0], "lengths", SIGNED, 8, (Shape){1, -2, n, 0}, 1) < 0 ||
        get_view(go, &b->extra[1], "step_lengths", SIGNED, 8, (Shape){1, -1, 0, 0}, 1) < 0)
        return -1;
    *r = (LRating){b->S, b->X, b->A, n, limit, b->extra[0].buf, b->extra[1].buf,
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
    return unbind(&b, result);
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
    return unbind(&b, result);
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
    int64_t r = length_failed_closure(&b.k, b.S, b.X, n);
    if (finish(&b.k, &poll) == 0) result = PyLong_FromLongLong(r);
done:
    return unbind(&b, result);
}

static PyObject *py_refutation_chain(PyObject *self, PyObject *args) {
    PyObject *fo, *So, *co, *lo, *oo;
    long long hypothesis;
    if (!PyArg_ParseTuple(args, "OOOLOO", &fo, &So, &co, &hypothesis, &lo, &oo)) return NULL;
    Bound b;
    PyObject *result = NULL;
    Py_buffer *cone = &b.extra[0], *lits = &b.extra[1], *constraints = &b.extra[2];
    if (bind(&b, fo, So, NULL, NULL) < 0 ||
        get_view(co, cone, "cone", UNSIGNED, 8, (Shape){1, b.f->words, 0, 0}, 0) < 0 ||
        get_view(lo, lits, "out_lits", SIGNED, 8, (Shape){1, -1, 0, 0}, 1) < 0 ||
        get_view(oo, constraints, "out_constraints", SIGNED, 8,
                 (Shape){1, lits->shape[0], 0, 0}, 1) < 0 ||
        check_literal(b.f, hypothesis, "hypothesis") < 0)
        goto done;
    int64_t out[4];
    int status = length_chain(b.f, b.S, cone->buf, (int32_t)hypothesis, lits->buf,
                              constraints->buf, lits->shape[0], out);
    if (status == -1)
        PyErr_NoMemory();
    else if (status == -2)
        PyErr_SetString(PyExc_ValueError, "out_lits has no room for the chain");
    else
        result = Py_BuildValue("LLLL", out[0], out[1], out[2], out[3]);
done:
    return unbind(&b, result);
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

/* What a BxB wrapper binds: the call, the state T, the workspace U, the scratch X (each
 * a record taken for the call), the memo's views, the work counters and true_somewhere. */
typedef struct {
    LCall k;
    RecordHead *held[3];
    LMemo memo;
    Py_buffer m[3], work, truth;
} BxbBound;

static PyObject *bxb_unbind(BxbBound *b, PyObject *result) {
    for (int i = 0; i < 3; i++) give_record(b->held[i], b->k.stop || b->k.bad);
    release(b->m, 3);
    release(&b->work, 1);
    release(&b->truth, 1);
    return result;
}

/* Bind T, X and the work counters, and (Uo not NULL) U and the memo, into b and t: 0,
 * or -1 with the exception set.  U is written while T is read: two States. */
static int bxb_bind(BxbBound *b, PyObject *fo, PyObject *const o[5], long long n, LTrial *t) {
    PyObject *To = o[0], *Uo = o[1], *Xo = o[2], *mo = o[3], *wo = o[4];
    const LFormula *f = b->k.f;
    if (Uo == To) {
        PyErr_SetString(PyExc_ValueError, "the state T and the workspace U must be two States");
        return -1;
    }
    if (check_candidates(f, n) < 0 || !(b->held[0] = take_record(To, &StateType, fo, "T")) ||
        !(b->held[2] = take_record(Xo, &ScratchType, fo, "X")) ||
        get_view(wo, &b->work, "work", SIGNED, 8, (Shape){1, W_NUM_COUNTERS, 0, 0}, 1) < 0)
        return -1;
    if (Uo && (!(b->held[1] = take_record(Uo, &StateType, fo, "U")) ||
               bind_memo(f, mo, n, &b->memo, b->m) < 0))
        return -1;
    LState *T = &((StateObject *)b->held[0])->s;
    LState *U = Uo ? &((StateObject *)b->held[1])->s : NULL;
    LScratch *X = &((ScratchObject *)b->held[2])->x;
    *t = (LTrial){T, U, X, n, 0, NO_DEADLINE, &b->memo, b->work.buf};
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
    if (bxb_bind(&b, fo, o, n, &t) < 0) goto done;
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
        status = bxb_braid_closure(&b.k, &t, t.T, &next);
    else if (which == HYPOTHESIS)
        status = bxb_try_hypothesis(&b.k, &t, v, codes, cones, &next);
    else
        status = bxb_trial_and_error(&b.k, &t, b.truth.buf, &next);
    if (finish(&b.k, &poll) == 0) result = Py_BuildValue("LL", status, next);
done:
    free(codes);
    free(cones);
    return bxb_unbind(&b, result);
}

ENTRY(py_braid_closure, bxb_call, CLOSURE)

ENTRY(py_try_hypothesis, bxb_call, HYPOTHESIS)

ENTRY(py_trial_and_error, bxb_call, TRIAL)

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
    PyObject *m = PyModule_Create(&length_module);
    if (!m) return NULL;
    if (length_records_add(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* The codes the kernels answer with and the slots of BxB's work counters. */
    static const Constant constants[] = {
        {"EMPTY", EMPTY},
        {"NO_CONFLICT", NO_CONFLICT},
        {"PAUSED", -STATUS_PAUSED},
        {"SOLVED", -STATUS_SAT},
        {"CONTRADICTION", -STATUS_CONFLICT},
        {"STUCK", -STATUS_STUCK},
        {"OUT_OF_TIME", -STATUS_TIME},
        {"OUT_OF_BUDGET", -STATUS_BUDGET},
        {"BAD_SOLUTION", -STATUS_BAD_SOLUTION},
        {"REASON_DECISION", REASON_DECISION},
        {"REASON_PROBE", REASON_PROBE},
        {"REASON_UNIT", REASON_UNIT},
        {"BINARY_REASON", BINARY_REASON},
        {"CONES_PER_LITERAL", CONES_PER_LITERAL},
        {"SEARCHES", W_SEARCHES},
        {"HYPOTHESES", W_HYPOTHESES},
        {"SKIPPED", W_SKIPPED},
        {"ELIMINATED", W_ELIMINATED},
        {"BUDGET", W_BUDGET},
        {"NUM_COUNTERS", W_NUM_COUNTERS},
        {"CLOCK_EVERY", CLOCK_EVERY},
    };
    return with_constants(m, constants, sizeof constants / sizeof constants[0]);
}
