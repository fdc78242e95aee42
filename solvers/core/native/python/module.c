/* The Python face of the native core (solvers.core._core): the Board type, the Clauses
 * type (one formula object per CNF: propagation, closures, depth loops, batches, DPLL
 * search, the root level and the trace, whose arrays it builds at the first trace), the
 * variant table, the outcomes of status.h, and the checks at the boundary.
 *
 * Arrays cross the boundary through the buffer protocol (numpy arrays, no copies):
 * every array is checked for its element size, C contiguity and shape before a kernel
 * sees it, and every value a kernel would index with (sizes, literals, tables) is
 * range-checked here, so bad input becomes a Python exception, never a crash.  The
 * kernels run with the GIL released and take it back briefly to run signal handlers
 * (core_poll_slow): Ctrl-C raises KeyboardInterrupt within a few tens of milliseconds.
 * A Board or Clauses object runs one kernel at a time (its work arrays are its own);
 * a second thread calling it meanwhile gets a RuntimeError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "clause_arrays.h"
#include "clauses.h"
#include "codes.h"
#include "board.h"
#include "proof_log.h"
#include "lrat_write.h"
#include "search.h"
#include "status.h"
#include "trace.h"

#define WITNESS_WORDS (1 << 19) /* witnesses kept per frame when they fit in this */

/* ---- variants ---------------------------------------------------------------- */

static const BoardOps *variant_table[3];
static int variant_count;
static const BoardOps *ops;

static void find_variants(void) {
    variant_count = 0;
    variant_table[variant_count++] = &board_ops_base;
#ifdef CORE_X86_VARIANTS
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
        __builtin_cpu_supports("popcnt"))
        variant_table[variant_count++] = &board_ops_sse41;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
        __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt"))
        variant_table[variant_count++] = &board_ops_avx2;
#endif
    ops = variant_table[variant_count - 1]; /* the best this processor runs */
}

static PyObject *py_variants(PyObject *self, PyObject *unused) {
    PyObject *out = PyList_New(variant_count);
    if (!out) return NULL;
    for (int i = 0; i < variant_count; i++)
        PyList_SET_ITEM(out, i, PyUnicode_FromString(variant_table[i]->name));
    return out;
}

static PyObject *py_variant(PyObject *self, PyObject *unused) {
    return PyUnicode_FromString(ops->name);
}

static PyObject *py_use_variant(PyObject *self, PyObject *arg) {
    const char *name = PyUnicode_AsUTF8(arg);
    if (!name) return NULL;
    for (int i = 0; i < variant_count; i++)
        if (strcmp(variant_table[i]->name, name) == 0) {
            ops = variant_table[i];
            Py_RETURN_NONE;
        }
    PyObject *names = py_variants(NULL, NULL);
    if (names) {
        PyErr_Format(PyExc_ValueError, "no variant %R on this processor; it runs %R", arg,
                     names);
        Py_DECREF(names);
    }
    return NULL;
}

/* ---- arrays (their checks: boundary.h) ---------------------------------------- */

static int check_depth(int depth) {
    if (depth < 0 || depth > MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "depth must be in 0..%d, not %d", MAX_DEPTH, depth);
        return -1;
    }
    return 0;
}

/* An opt-in time limit in ns: >= 0, 0 for none. */
static int check_limit_ns(long long limit_ns) {
    if (limit_ns < 0) {
        PyErr_Format(PyExc_ValueError, "limit_ns must be >= 0 (0: none), not %lld", limit_ns);
        return -1;
    }
    return 0;
}

/* -1 with RuntimeError for an object of `type` whose construction did not complete
 * (`ready` unset): checked first, so that no entry reads its empty geometry or formula
 * to check its arguments. */
static int made(int ready, const char *type) {
    if (ready) return 0;
    PyErr_Format(PyExc_RuntimeError, "the %s is not initialised", type);
    return -1;
}

/* ---- answers as Python lists ---------------------------------------------------- */

/* One Python call propagating a few givens spends most of its time outside the kernel
 * unless the boundary is cheap: the assumptions are read straight from a list or tuple
 * of ints (no numpy array), and the answer is a list of ints taken from a table of the
 * formula's literals made once per object (a new int object per literal per call cost
 * more than the propagation).  Every value is still range-checked before a kernel sees
 * it. */
#define INT_TABLE_VARS (1 << 22) /* larger formulas make their ints per answer */
#define STACK_LITS 256

typedef struct {
    PyObject **ints; /* ints[nvars + lit]: lit as a Python int, made on first use */
    PyObject **by_code; /* by_code[code]: the same int (borrowed from ints) by the clause
                         * engine's literal code (clauses.h), kept on first use */
    int64_t *out;    /* nvars: the kernel's answer */
    int64_t nvars;
} ListFace;

static void list_face_free(ListFace *L) {
    if (L->ints) {
        for (int64_t i = 0; i <= 2 * L->nvars; i++) Py_XDECREF(L->ints[i]);
        free(L->ints);
    }
    free(L->by_code);
    free(L->out);
    L->ints = NULL;
    L->by_code = NULL;
    L->out = NULL;
}

/* Make the face's room for a formula of nvars variables; -1 with MemoryError set. */
static int list_face_room(ListFace *L, int64_t nvars) {
    if (L->out) return 0;
    L->nvars = nvars;
    L->out = malloc(sizeof(int64_t) * (size_t)(nvars + 1));
    if (nvars <= INT_TABLE_VARS) {
        L->ints = calloc(2 * (size_t)nvars + 1, sizeof(PyObject *));
        L->by_code = calloc(2 * (size_t)nvars, sizeof(PyObject *));
    }
    if (!L->out || (nvars <= INT_TABLE_VARS && (!L->ints || !L->by_code))) {
        list_face_free(L);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Return a new list of count literals as Python ints, or NULL: the DIMACS literals
 * out[0 .. count), or, when `codes` is not NULL, the clause engine's literal codes
 * codes[0 .. count) (clauses.h), read straight off its trail. */
static PyObject *literal_list(ListFace *L, const int64_t *out, const int32_t *codes,
                              int64_t count) {
    PyObject *list = PyList_New((Py_ssize_t)count);
    if (!list) return NULL;
    for (int64_t i = 0; i < count; i++) {
        PyObject *item;
        if (codes && L->by_code && (item = L->by_code[codes[i]])) { /* the common case */
            PyList_SET_ITEM(list, (Py_ssize_t)i, Py_NewRef(item));
            continue;
        }
        int64_t lit = codes ? code_lit(codes[i]) : out[i];
        if (L->ints) {
            PyObject **slot = L->ints + L->nvars + lit; /* |lit| <= nvars: the kernel's */
            if (!*slot && !(*slot = PyLong_FromLongLong(lit))) {
                Py_DECREF(list);
                return NULL;
            }
            item = Py_NewRef(*slot);
            if (codes && L->by_code) L->by_code[codes[i]] = *slot;
        } else if (!(item = PyLong_FromLongLong(lit))) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    return list;
}

/* Read a sequence of ints (a list or tuple without a copy) into lits, or into a new
 * malloc'd array when it holds more than `room`; each must be a literal of 1..nvars or
 * its negation (`board`: a cell literal, said so).  Return the count, or -1 with
 * TypeError / ValueError set; *heap is the array to free (NULL when lits was used). */
static Py_ssize_t read_literals(PyObject *seq, int64_t *lits, Py_ssize_t room, int64_t nvars,
                                int board, int64_t **heap) {
    *heap = NULL;
    /* A tuple (anything else copied into one): an item's __index__ may run Python code
     * that changes a list while its borrowed items are read. */
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "assumptions must be a sequence of ints");
        }
        return -1;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    if (count > room) {
        lits = *heap = malloc(sizeof(int64_t) * (size_t)count);
        if (!lits) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (PyBool_Check(items[i])) { /* an int to Python, but no literal the caller meant */
            PyErr_Format(PyExc_TypeError, "assumption %R is a bool, not an integer", items[i]);
            goto bad;
        }
        int overflow;
        long long lit = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (lit == -1 && PyErr_Occurred()) goto bad;
        if (overflow || !dimacs_in_range(lit, nvars)) {
            if (board)
                PyErr_Format(PyExc_ValueError, "assumption %R is no cell literal (1..%lld)",
                             items[i], (long long)nvars);
            else
                PyErr_Format(PyExc_ValueError, "assumption %R is not in 1..%lld or its negation",
                             items[i], (long long)nvars);
            goto bad;
        }
        lits[i] = lit;
    }
    Py_DECREF(fast);
    return count;
bad:
    Py_DECREF(fast);
    free(*heap);
    *heap = NULL;
    return -1;
}

/* Release the GIL for a probe that may poll.  A probe of depth 0 (one propagation,
 * bounded by the formula, that never polls) keeps it: releasing it, reading the clock
 * and taking it back cost a few percent of a short call.  Its poll never fires. */
static void probe_release(Poll *poll, int depth) {
    if (depth > 0) {
        core_release(poll);
        return;
    }
    poll->thread = NULL;
    poll->countdown = UINT32_MAX;
    poll->last_ns = 0;
    poll->interrupted = 0;
}

static void probe_reacquire(Poll *poll, int depth) {
    if (depth > 0) core_reacquire(poll);
}

/* The answer of a probe: (True, [literals]) or (False, []). */
static PyObject *probe_answer(ListFace *L, int r, const int64_t *out, const int32_t *codes,
                              int64_t nout) {
    if (r == STATUS_INTERRUPT) return NULL;
    PyObject *list = literal_list(L, out, codes, r == STATUS_OPEN ? nout : 0);
    if (!list) return NULL;
    PyObject *answer = PyTuple_Pack(2, r == STATUS_OPEN ? Py_True : Py_False, list);
    Py_DECREF(list);
    return answer;
}

/* The arguments (assumptions, depth, positive_only) of probe_list; -1 with the error set. */
static int probe_list_args(PyObject *const *args, Py_ssize_t nargs, int *depth,
                           int *positive_only) {
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError,
                     "probe_list(assumptions, depth, positive_only) takes 3 arguments, not %zd",
                     nargs);
        return -1;
    }
    long d = PyLong_AsLong(args[1]);
    if (d == -1 && PyErr_Occurred()) return -1;
    if ((*positive_only = PyObject_IsTrue(args[2])) < 0) return -1;
    if (d < 0 || d > MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "depth must be in 0..%d, not %ld", MAX_DEPTH, d);
        return -1;
    }
    *depth = (int)d;
    return 0;
}

/* ---- Board ------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD Board g;
    int ready; /* set by a construction that succeeded: a half-built Board refuses calls */
    int busy;
    ListFace face;
} BoardObject;

static void board_free_room(Board *G) {
    free(G->boards);
    free(G->passed);
    free(G->frames);
    free(G->wit);
    free(G->witcode);
    G->boards = G->passed = G->wit = NULL;
    G->frames = NULL;
    G->witcode = NULL;
    G->room = -1;
}

static void board_dealloc(BoardObject *self) {
    Board *G = &self->g;
    free(G->peers);
    free(G->hmask);
    free(G->hlo);
    free(G->hhi);
    free(G->chouse);
    free(G->nch);
    free(G->cellmask);
    free(G->allhouses);
    free(G->cellhouses);
    free(G->pair_house);
    free(G->pair_lo);
    free(G->pair_hi);
    free(G->pair_src);
    free(G->pair_dst);
    board_free_room(G);
    free(G->stack);
    free(G->sdec);
    list_face_free(&self->face);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Make room for closures of `depth`; -1 with MemoryError set when it cannot. */
static int board_room(Board *G, int depth) {
    if (depth <= G->room) return 0;
    board_free_room(G);
    size_t d = (size_t)(depth < 1 ? 1 : depth);
    size_t ncand = 2 * (size_t)G->n * G->cells;
    G->keep = depth > 1 && ncand * G->BW <= WITNESS_WORDS ? (int)ncand : 0;
    G->boards = calloc((d + 1) * G->BW, sizeof(word));
    G->passed = calloc(d * 2 * G->n * G->W, sizeof(word));
    G->frames = calloc(d * NUM_COLUMNS, sizeof(int64_t));
    G->wit = calloc(d * G->keep * G->BW + 1, sizeof(word));
    G->witcode = calloc(d * G->keep + 1, sizeof(int32_t));
    if (!G->boards || !G->passed || !G->frames || !G->wit || !G->witcode) {
        board_free_room(G);
        PyErr_NoMemory();
        return -1;
    }
    G->room = (int)d;
    return 0;
}

/* The pairs of full houses sharing two cells or more (board.h, intersections.h); -1
 * with MemoryError set when there is no room. */
static int board_pairs(Board *G) {
    const int W = G->W, nh = G->nh;
    int np = 0;
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        np = 0;
        for (int a = 0; a < nh; a++)
            for (int b = 0; b < nh; b++) {
                if (a == b) continue;
                const word *ha = G->hmask + (size_t)a * W, *hb = G->hmask + (size_t)b * W;
                int both = 0, lo = W, hi = 0;
                for (int y = 0; y < W; y++) {
                    both += __builtin_popcountll(ha[y] & hb[y]);
                    if (ha[y] | hb[y]) {
                        if (y < lo) lo = y;
                        hi = y + 1;
                    }
                }
                if (both < 2 || both == G->n) continue; /* both == n: the same cells */
                if (pass) {
                    G->pair_house[np] = a, G->pair_lo[np] = lo, G->pair_hi[np] = hi;
                    for (int y = 0; y < W; y++) {
                        G->pair_src[(size_t)np * W + y] = ha[y] & ~hb[y];
                        G->pair_dst[(size_t)np * W + y] = hb[y] & ~ha[y];
                    }
                }
                np++;
            }
        if (!pass) {
            G->pair_house = calloc((size_t)np + 1, sizeof(int32_t));
            G->pair_lo = calloc((size_t)np + 1, sizeof(int32_t));
            G->pair_hi = calloc((size_t)np + 1, sizeof(int32_t));
            G->pair_src = calloc((size_t)np * W + 1, sizeof(word));
            G->pair_dst = calloc((size_t)np * W + 1, sizeof(word));
            if (!G->pair_house || !G->pair_lo || !G->pair_hi || !G->pair_src || !G->pair_dst) {
                PyErr_NoMemory();
                return -1;
            }
        }
    }
    G->npairs = np;
    return 0;
}

static int board_init(BoardObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"size", "houses", "peers", NULL};
    int n;
    PyObject *houses_obj, *peers_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOO", kwlist, &n, &houses_obj, &peers_obj))
        return -1;
    if (self->g.cells || self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a Board is initialised once");
        return -1;
    }
    if (n < 1 || n > MAX_SIDE) {
        PyErr_Format(PyExc_ValueError, "size must be in 1..%d (one bit per value), not %d",
                     MAX_SIDE, n);
        return -1;
    }
    int cells = n * n;
    Py_buffer hv = {0}, pv = {0};
    if (get_ints(houses_obj, &hv, "houses", 4, 2, -1, n, 0) < 0) return -1;
    if (get_ints(peers_obj, &pv, "peers", 4, 2, cells, -1, 0) < 0) {
        RELEASE(&hv);
        return -1;
    }
    const int32_t *houses = hv.buf, *peers = pv.buf;
    int nh = (int)hv.shape[0], np_ = (int)pv.shape[1];
    if (nh > MAX_SIDE * MAX_SIDE) {
        RELEASE(&hv, &pv);
        PyErr_Format(PyExc_ValueError, "at most %d full houses, not %d", MAX_SIDE * MAX_SIDE, nh);
        return -1;
    }
    for (Py_ssize_t i = 0; i < (Py_ssize_t)nh * n; i++)
        if (houses[i] < 0 || houses[i] >= cells) {
            RELEASE(&hv, &pv);
            PyErr_Format(PyExc_ValueError, "houses: cell %d outside 0..%d", houses[i], cells - 1);
            return -1;
        }
    for (int c = 0; c < cells; c++)
        for (int i = 0; i < np_; i++) {
            int p = peers[(size_t)c * np_ + i];
            if (p < -1 || p >= cells || p == c) {
                RELEASE(&hv, &pv);
                PyErr_Format(PyExc_ValueError, "peers of cell %d: %d is no other cell", c, p);
                return -1;
            }
        }
    Board *G = &self->g;
    G->n = n;
    G->cells = cells;
    G->nh = nh;
    G->W = (cells + nh + 63) / 64;
    G->BW = (n + 1) * G->W;
    G->room = -1;
    int W = G->W;
    G->nch = calloc(cells, sizeof(int));
    G->cellmask = calloc(W, sizeof(word));
    G->peers = calloc((size_t)cells * W, sizeof(word));
    G->hmask = calloc((size_t)nh * W + 1, sizeof(word));
    G->hlo = calloc(nh + 1, sizeof(int));
    G->hhi = calloc(nh + 1, sizeof(int));
    G->HW = nh ? (nh + 63) / 64 : 1;
    G->allhouses = calloc(G->HW, sizeof(word));
    G->cellhouses = calloc((size_t)cells * G->HW, sizeof(word));
    int ok = G->nch && G->cellmask && G->peers && G->hmask && G->hlo && G->hhi && G->allhouses &&
             G->cellhouses;
    if (ok) {
        for (int h = 0; h < nh; h++)
            for (int i = 0; i < n; i++) G->nch[houses[(size_t)h * n + i]]++;
        G->maxch = 0;
        for (int c = 0; c < cells; c++)
            if (G->nch[c] > G->maxch) G->maxch = G->nch[c];
        G->chouse = calloc((size_t)cells * G->maxch + 1, sizeof(int));
        ok = G->chouse != NULL;
    }
    if (!ok) {
        RELEASE(&hv, &pv);
        PyErr_NoMemory();
        return -1;
    }
    memset(G->nch, 0, cells * sizeof(int));
    for (int c = 0; c < cells; c++) G->cellmask[c >> 6] |= (word)1 << (c & 63);
    for (int h = 0; h < nh; h++) {
        word *hm = G->hmask + (size_t)h * W;
        int lo = W, hi = 0;
        for (int i = 0; i < n; i++) {
            int c = houses[(size_t)h * n + i];
            hm[c >> 6] |= (word)1 << (c & 63);
            if (c >> 6 < lo) lo = c >> 6;
            if ((c >> 6) + 1 > hi) hi = (c >> 6) + 1;
            int hb = cells + h; /* c's peers mask closes house h for the value placed */
            G->peers[(size_t)c * W + (hb >> 6)] |= (word)1 << (hb & 63);
            G->chouse[(size_t)c * G->maxch + G->nch[c]++] = h;
            G->cellhouses[(size_t)c * G->HW + (h >> 6)] |= (word)1 << (h & 63);
        }
        G->allhouses[h >> 6] |= (word)1 << (h & 63);
        G->hlo[h] = lo;
        G->hhi[h] = hi;
    }
    for (int c = 0; c < cells; c++)
        for (int i = 0; i < np_; i++) {
            int p = peers[(size_t)c * np_ + i];
            if (p >= 0) G->peers[(size_t)c * W + (p >> 6)] |= (word)1 << (p & 63);
        }
    RELEASE(&hv, &pv);
    if (board_pairs(G) < 0 || board_room(G, 1) < 0) return -1;
    self->ready = 1;
    return 0;
}

static int board_made(const BoardObject *self) { return made(self->ready, "Board"); }

/* Enter a kernel: refused (and the flag left as found) on a Board that is not built or
 * that runs a kernel in another thread; the caller clears `busy` once it has entered. */
static int board_enter(BoardObject *self) {
    if (board_made(self) < 0) return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the Board is running a kernel in another thread");
        return -1;
    }
    self->busy = 1;
    return 0;
}

static PyObject *board_batch(BoardObject *self, PyObject *args) {
    PyObject *go, *oo, *vo;
    if (!PyArg_ParseTuple(args, "OOO", &go, &oo, &vo) || board_made(self) < 0) return NULL;
    Py_buffer gv = {0}, ov = {0}, vv = {0};
    int cells = self->g.cells;
    if (get_ints(go, &gv, "grids", 1, 2, -1, cells, 0) < 0) return NULL;
    Py_ssize_t count = gv.shape[0];
    if (get_ints(oo, &ov, "ok", 1, 1, count, -1, 1) < 0 ||
        get_ints(vo, &vv, "values", 1, 2, count, cells, 1) < 0) {
        RELEASE(&gv, &ov, &vv);
        return NULL;
    }
    if (board_enter(self) < 0) {
        RELEASE(&gv, &ov, &vv);
        return NULL;
    }
    Poll poll;
    core_release(&poll);
    int r = ops->batch(&self->g, gv.buf, count, ov.buf, vv.buf, &poll);
    core_reacquire(&poll);
    self->busy = 0;
    RELEASE(&gv, &ov, &vv);
    if (r == STATUS_INTERRUPT) return NULL;
    Py_RETURN_NONE;
}


/* probe(literals, depth, positive_only, out) -> number of literals in out, or -1 when
 * the closure is contradictory */
static PyObject *board_probe(BoardObject *self, PyObject *args) {
    PyObject *lo, *oo;
    int depth, positive_only;
    if (!PyArg_ParseTuple(args, "OipO", &lo, &depth, &positive_only, &oo)) return NULL;
    if (board_made(self) < 0 || check_depth(depth) < 0) return NULL;
    Board *G = &self->g;
    int64_t nvars = (int64_t)G->n * G->cells;
    Py_buffer lv = {0}, ov = {0};
    if (get_ints(lo, &lv, "assumptions", 8, 1, -1, -1, 0) < 0) return NULL;
    if (get_ints(oo, &ov, "out", 8, 1, nvars, -1, 1) < 0) {
        RELEASE(&lv);
        return NULL;
    }
    const int64_t *lits = lv.buf;
    if (check_literals(lits, lv.shape[0], nvars, "assumption") < 0) {
        RELEASE(&lv, &ov);
        return NULL;
    }
    if (board_enter(self) < 0) {
        RELEASE(&lv, &ov);
        return NULL;
    }
    if (board_room(G, depth) < 0) {
        self->busy = 0;
        RELEASE(&lv, &ov);
        return NULL;
    }
    Poll poll;
    int64_t nout = 0;
    core_release(&poll);
    int r = ops->probe(G, lits, lv.shape[0], depth, positive_only, ov.buf, &nout, &poll);
    core_reacquire(&poll);
    self->busy = 0;
    RELEASE(&lv, &ov);
    if (r == STATUS_INTERRUPT) return NULL;
    return PyLong_FromLongLong(r == STATUS_OPEN ? nout : -1);
}

/* probe_list(assumptions, depth, positive_only) -> (True, [literals]) or (False, []):
 * probe's answer for a Python sequence of ints, the path of one call from Python */
static PyObject *board_probe_list(BoardObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int depth, positive_only;
    if (probe_list_args(args, nargs, &depth, &positive_only) < 0 || board_enter(self) < 0)
        return NULL;
    Board *G = &self->g;
    int64_t nvars = (int64_t)G->n * G->cells, stack[STACK_LITS], *heap = NULL;
    Py_ssize_t count = -1;
    if (list_face_room(&self->face, nvars) == 0 && board_room(G, depth) == 0)
        count = read_literals(args[0], stack, STACK_LITS, nvars, 1, &heap);
    if (count < 0) {
        self->busy = 0;
        return NULL;
    }
    Poll poll;
    int64_t nout = 0;
    probe_release(&poll, depth);
    int r = ops->probe(G, heap ? heap : stack, count, depth, positive_only, self->face.out,
                       &nout, &poll);
    probe_reacquire(&poll, depth);
    free(heap);
    self->busy = 0;
    return probe_answer(&self->face, r, self->face.out, NULL, nout);
}

/* depths(grids, max_depth, positive_only, budget, status, depth, solutions, work, ns[,
 * limit_ns[, open, conflicts[, log, log_at]]]): limit_ns, each grid's opt-in time limit
 * (0: none), as the clauses'; open and conflicts (int64 a grid, or None), DepthRun's;
 * log and log_at (or None), the closures' lemmas grid by grid, as the clauses' */
static PyObject *board_depths(BoardObject *self, PyObject *args) {
    PyObject *go, *so, *dO, *solo, *wo, *no, *oo = Py_None, *co = Py_None;
    PyObject *logo = Py_None, *ato = Py_None;
    int max_depth, positive_only;
    long long budget, limit_ns = 0;
    if (!PyArg_ParseTuple(args, "OipLOOOOO|LOOOO", &go, &max_depth, &positive_only, &budget,
                          &so, &dO, &solo, &wo, &no, &limit_ns, &oo, &co, &logo, &ato))
        return NULL;
    if (check_limit_ns(limit_ns) < 0) return NULL;
    if (board_made(self) < 0 || check_depth(max_depth) < 0) return NULL;
    Board *G = &self->g;
    Py_buffer gv = {0}, sv = {0}, dv = {0}, solv = {0}, wv = {0}, nv = {0}, ov = {0}, cv = {0},
              logv = {0}, atv = {0};
    if (get_ints(go, &gv, "grids", 1, 2, -1, G->cells, 0) < 0) return NULL;
    Py_ssize_t count = gv.shape[0];
    if (get_ints(so, &sv, "status", 1, 1, count, -1, 1) < 0 ||
        get_ints(dO, &dv, "depth", 2, 1, count, -1, 1) < 0 ||
        get_ints(solo, &solv, "solutions", 1, 2, count, G->cells, 1) < 0 ||
        get_ints(wo, &wv, "work", 8, 1, count, -1, 1) < 0 ||
        get_ints(no, &nv, "ns", 8, 1, count, -1, 1) < 0 ||
        (oo != Py_None && get_ints(oo, &ov, "open", 8, 1, count, -1, 1) < 0) ||
        (co != Py_None && get_ints(co, &cv, "conflicts", 8, 1, count, -1, 1) < 0) ||
        (logo != Py_None && get_log(logo, &logv) < 0) ||
        (ato != Py_None && get_ints(ato, &atv, "log_at", 8, 1, count + 1, -1, 1) < 0)) {
        RELEASE(&gv, &sv, &dv, &solv, &wv, &nv, &ov, &cv, &logv, &atv);
        return NULL;
    }
    if (board_enter(self) < 0) {
        RELEASE(&gv, &sv, &dv, &solv, &wv, &nv, &ov, &cv, &logv, &atv);
        return NULL;
    }
    if (board_room(G, max_depth) < 0) {
        self->busy = 0;
        RELEASE(&gv, &sv, &dv, &solv, &wv, &nv, &ov, &cv, &logv, &atv);
        return NULL;
    }
    if (logv.obj && logv.shape[0] > 0) { /* the closures' lemmas, grid by grid */
        G->log = logv.buf;
        G->log_len = logv.shape[0];
        G->log_at = atv.obj ? atv.buf : NULL;
    }
    Poll poll;
    core_release(&poll);
    const DepthRun run = {gv.buf, count, max_depth, positive_only, budget, sv.buf, dv.buf,
                          solv.buf, wv.buf, nv.buf, limit_ns, ov.obj ? ov.buf : NULL,
                          cv.obj ? cv.buf : NULL};
    int r = ops->depths(G, &run, &poll);
    core_reacquire(&poll);
    /* on every path: the buffers are released below, so nothing may point into them */
    G->log = G->log_at = NULL;
    G->log_len = 0;
    self->busy = 0;
    RELEASE(&gv, &sv, &dv, &solv, &wv, &nv, &ov, &cv, &logv, &atv);
    if (r == STATUS_INTERRUPT) return NULL;
    Py_RETURN_NONE;
}

/* board_enter, then room for closures of `depth` (a search's lookahead); -1 with the
 * exception set and the Board free again when either fails. */
static int board_enter_room(BoardObject *self, int depth) {
    if (board_enter(self) < 0) return -1;
    if (board_room(&self->g, depth) < 0) {
        self->busy = 0;
        return -1;
    }
    return 0;
}

/* What a search kernel's outcome returns to Python: None, NULL for a signal (its
 * exception set) or for memory that ran out (MemoryError). */
static PyObject *search_answer(int r) {
    if (r < 0) return PyErr_NoMemory();
    return r == STATUS_INTERRUPT ? NULL : Py_NewRef(Py_None);
}

/* A count's or a budget's bound: -1 (none) or 0..MAX_COUNT (`least` the lowest). */
static int check_bound(long long value, long long least, const char *name) {
    if (value != -1 && (value < least || value > MAX_COUNT)) {
        PyErr_Format(PyExc_ValueError, "%s must be -1 (none) or in %lld..%lld, not %lld", name,
                     least, (long long)MAX_COUNT, value);
        return -1;
    }
    return 0;
}

/* count(grids, cap, budget, limit_ns, lookahead, intersections, resume, models, status[,
 * decisions[, conflicts[, work[, ns[, solutions[, out[, exclude]]]]]]]): the models of each
 * grid up to cap (board.h: CountRun);
 * each optional array None or an array of its shape; resume only after a count of one
 * grid that stopped at its cap. */
static PyObject *board_count(BoardObject *self, PyObject *args) {
    PyObject *go, *mo, *so, *dO = Py_None, *co = Py_None, *wo = Py_None, *no = Py_None,
             *solo = Py_None, *outo = Py_None, *xo = Py_None, *logo = Py_None, *ato = Py_None;
    long long cap, budget, limit_ns;
    int lookahead, intersections, resume;
    if (!PyArg_ParseTuple(args, "OLLLippOO|OOOOOOOOO", &go, &cap, &budget, &limit_ns, &lookahead,
                          &intersections, &resume, &mo, &so, &dO, &co, &wo, &no, &solo, &outo,
                          &xo, &logo, &ato))
        return NULL;
    if (logo != Py_None && (lookahead != 0 || intersections || resume || xo != Py_None)) {
        /* an excluded candidate is no clause of the formula: lemmas resting on it would
         * not follow from it; an intersection's removal is no unit step: lemmas resting
         * on it would not be RUP */
        PyErr_SetString(PyExc_ValueError, "a search's proof log takes lookahead 0, no "
                                          "intersections, no resume and no exclude");
        return NULL;
    }
    if (board_made(self) < 0 || check_limit_ns(limit_ns) < 0 || check_depth(lookahead) < 0 ||
        check_bound(cap, 1, "cap") < 0 || check_bound(budget, 0, "budget") < 0)
        return NULL;
    Board *G = &self->g;
    Py_buffer gv = {0}, mv = {0}, sv = {0}, dv = {0}, cv = {0}, wv = {0}, nv = {0}, solv = {0},
              ov = {0}, xv = {0}, logv = {0}, atv = {0};
    PyObject *result = NULL;
    if (get_ints(go, &gv, "grids", 1, 2, -1, G->cells, 0) < 0) return NULL;
    Py_ssize_t count = gv.shape[0];
    if (get_ints(mo, &mv, "models", 8, 1, count, -1, 1) < 0 ||
        get_ints(so, &sv, "status", 1, 1, count, -1, 1) < 0 ||
        (dO != Py_None && get_ints(dO, &dv, "decisions", 8, 1, count, -1, 1) < 0) ||
        (co != Py_None && get_ints(co, &cv, "conflicts", 8, 1, count, -1, 1) < 0) ||
        (wo != Py_None && get_ints(wo, &wv, "work", 8, 1, count, -1, 1) < 0) ||
        (no != Py_None && get_ints(no, &nv, "ns", 8, 1, count, -1, 1) < 0) ||
        (solo != Py_None && get_ints(solo, &solv, "solutions", 1, 2, count, G->cells, 1) < 0) ||
        (outo != Py_None && get_ints(outo, &ov, "out", 1, 2, -1, G->cells, 1) < 0) ||
        (xo != Py_None && get_ints(xo, &xv, "exclude", 4, 1, count, -1, 0) < 0) ||
        (logo != Py_None && get_log(logo, &logv) < 0) ||
        (ato != Py_None && get_ints(ato, &atv, "log_at", 8, 1, count + 1, -1, 1) < 0))
        goto out;
    for (Py_ssize_t g = 0; xv.obj && g < count; g++) {
        const int32_t x = ((const int32_t *)xv.buf)[g];
        if (x != -1 && (x < 0 || (x >> 6) >= G->cells || (x & 63) >= G->n)) {
            PyErr_Format(PyExc_ValueError, "exclude[%zd]: %d is no candidate (cell * 64 + value - 1)",
                         g, x);
            goto out;
        }
    }
    if (resume && !(count == 1 && G->resumable)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "resume: the last count was not of one grid stopped at its cap");
        goto out;
    }
    if (board_enter_room(self, lookahead) < 0) goto out;
    const CountRun run = {gv.buf, count, cap, budget, limit_ns, lookahead, intersections,
                          resume,
                          xv.obj ? xv.buf : NULL,
                          mv.buf, sv.buf, dv.obj ? dv.buf : NULL, cv.obj ? cv.buf : NULL,
                          wv.obj ? wv.buf : NULL,
                          nv.obj ? nv.buf : NULL, solv.obj ? solv.buf : NULL, ov.obj ? ov.buf : NULL,
                          ov.obj ? ov.shape[0] : 0};
    if (logv.obj && logv.shape[0] > 0) { /* the search's lemmas, grid by grid */
        G->log = logv.buf;
        G->log_len = logv.shape[0];
        G->log_at = atv.obj ? atv.buf : NULL;
    }
    Poll poll;
    core_release(&poll);
    int r = ops->count(G, &run, &poll);
    core_reacquire(&poll);
    G->log = G->log_at = NULL; /* the buffers are released below */
    G->log_len = 0;
    self->busy = 0;
    result = search_answer(r);
out:
    RELEASE(&gv, &mv, &sv, &dv, &cv, &wv, &nv, &solv, &ov, &xv, &logv, &atv);
    return result;
}

/* minimal(grids, orders, budget, lookahead, intersections, out, tests, over): each grid's
 * cells emptied in its order (a permutation of the cells) while its puzzle keeps one
 * solution (MinimalRun). */
static PyObject *board_minimal(BoardObject *self, PyObject *args) {
    PyObject *go, *oo, *outo, *to, *ovo;
    long long budget;
    int lookahead, intersections;
    if (!PyArg_ParseTuple(args, "OOLipOOO", &go, &oo, &budget, &lookahead, &intersections, &outo,
                          &to, &ovo))
        return NULL;
    if (board_made(self) < 0 || check_bound(budget, 0, "budget") < 0 || check_depth(lookahead) < 0)
        return NULL;
    Board *G = &self->g;
    Py_buffer gv = {0}, ordv = {0}, outv = {0}, tv = {0}, overv = {0};
    PyObject *result = NULL;
    if (get_ints(go, &gv, "grids", 1, 2, -1, G->cells, 0) < 0) return NULL;
    Py_ssize_t count = gv.shape[0];
    if (get_ints(oo, &ordv, "orders", 4, 2, count, G->cells, 0) < 0 ||
        get_ints(outo, &outv, "out", 1, 2, count, G->cells, 1) < 0 ||
        get_ints(to, &tv, "tests", 8, 1, count, -1, 1) < 0 ||
        get_ints(ovo, &overv, "over", 8, 1, count, -1, 1) < 0)
        goto out;
    const int32_t *orders = ordv.buf;
    char *seen = calloc((size_t)G->cells, 1);
    if (!seen) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t g = 0; g < count; g++) { /* each order a permutation of the cells */
        memset(seen, 0, (size_t)G->cells);
        for (int i = 0; i < G->cells; i++) {
            int32_t c = orders[(size_t)g * G->cells + i];
            if (c < 0 || c >= G->cells || seen[c]) {
                free(seen);
                PyErr_Format(PyExc_ValueError, "orders[%zd] is no permutation of the %d cells", g,
                             G->cells);
                goto out;
            }
            seen[c] = 1;
        }
    }
    free(seen);
    if (board_enter_room(self, lookahead) < 0) goto out;
    const MinimalRun run = {gv.buf,        orders,   count,  budget,   lookahead,
                            intersections, outv.buf, tv.buf, overv.buf};
    Poll poll;
    core_release(&poll);
    int r = ops->minimal(G, &run, &poll);
    core_reacquire(&poll);
    self->busy = 0;
    result = search_answer(r);
out:
    RELEASE(&gv, &ordv, &outv, &tv, &overv);
    return result;
}

static PyObject *board_counters(BoardObject *self, PyObject *unused) {
    if (board_made(self) < 0) return NULL;
    return Py_BuildValue("KK", (unsigned long long)self->g.work,
                         (unsigned long long)self->g.hypotheses);
}

static PyMethodDef board_methods[] = {
    {"batch", (PyCFunction)board_batch, METH_VARARGS, "batch(grids, ok, values)"},
    {"probe", (PyCFunction)board_probe, METH_VARARGS, "probe(lits, depth, positive_only, out)"},
    {"probe_list", (PyCFunction)(void (*)(void))board_probe_list, METH_FASTCALL,
     "probe_list(assumptions, depth, positive_only) -> (ok, literals)"},
    {"depths", (PyCFunction)board_depths, METH_VARARGS,
     "depths(grids, max_depth, positive_only, budget, status, depth, solutions, work, ns[, "
     "limit_ns[, open, conflicts[, log, log_at]]])"},
    {"count", (PyCFunction)board_count, METH_VARARGS,
     "count(grids, cap, budget, limit_ns, lookahead, intersections, resume, models, status[, "
     "decisions[, conflicts[, work[, ns[, solutions[, out[, exclude[, log, log_at]]]]]]]])"},
    {"minimal", (PyCFunction)board_minimal, METH_VARARGS,
     "minimal(grids, orders, budget, lookahead, intersections, out, tests, over)"},
    {"counters", (PyCFunction)board_counters, METH_NOARGS, "(work, hypotheses)"},
    {NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._core.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Board(size, houses, peers): the bit boards of one geometry",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)board_init,
    .tp_dealloc = (destructor)board_dealloc,
    .tp_methods = board_methods,
};

/* ---- Clauses ----------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD Clauses f;
    Search s;          /* DPLL's decision stack on the same formula */
    Trace trace;       /* the reasons' arrays, built at the first trace */
    PyObject *input;   /* (flat, offsets) as given: what the trace is built from */
    int ready;
    int busy;
    int at_model;      /* the trail holds the model the last search found */
    int traced;
    ListFace face;
} ClausesObject;

static void py_clauses_dealloc(ClausesObject *self) {
    clauses_free(&self->f);
    search_free(&self->s);
    trace_free(&self->trace);
    Py_XDECREF(self->input);
    list_face_free(&self->face);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int py_clauses_init(ClausesObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"flat", "offsets", "num_vars", NULL};
    PyObject *fo, *oo;
    long long nvars;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOL", kwlist, &fo, &oo, &nvars)) return -1;
    if (self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "a Clauses object is initialised once");
        return -1;
    }
    if (clauses_from_arrays(&self->f, fo, oo, nvars) < 0) return -1;
    if (search_init(&self->s, &self->f) < 0 || !(self->input = PyTuple_Pack(2, fo, oo))) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return -1;
    }
    self->ready = 1;
    return 0;
}

static int clauses_made(const ClausesObject *self) {
    return made(self->ready, "Clauses object");
}

static int py_clauses_enter(ClausesObject *self) {
    if (clauses_made(self) < 0) return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the formula is running a kernel in another thread");
        return -1;
    }
    self->busy = 1;
    self->at_model = 0; /* every kernel but a search's next model starts from level 0 */
    return 0;
}

/* probe(lits, depth, positive_only, out[, log, budget, limit_ns]): the number of
 * literals written to out, or -STATUS_CONFLICT, -STATUS_BUDGET, -STATUS_TIME */
static PyObject *py_clauses_probe(ClausesObject *self, PyObject *args) {
    PyObject *lo, *oo, *logo = NULL;
    int depth, positive_only;
    long long budget = -1, limit_ns = 0;
    if (!PyArg_ParseTuple(args, "OipO|OLL", &lo, &depth, &positive_only, &oo, &logo, &budget,
                          &limit_ns))
        return NULL;
    if (check_limit_ns(limit_ns) < 0) return NULL;
    if (logo == Py_None) logo = NULL;
    if (check_depth(depth) < 0 || py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    Py_buffer lv = {0}, ov = {0}, gv = {0};
    PyObject *result = NULL;
    if (get_ints(lo, &lv, "assumptions", 8, 1, -1, -1, 0) < 0 ||
        get_ints(oo, &ov, "out", 8, 1, F->nvars, -1, 1) < 0 || (logo && get_log(logo, &gv) < 0))
        goto out;
    const int64_t *lits = lv.buf;
    if (check_literals(lits, lv.shape[0], F->nvars, "assumption") < 0) goto out;
    if (clauses_room(F, depth) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    Poll poll;
    int64_t nout = 0;
    if (gv.obj && gv.shape[0] > 0) { /* the closure's lemmas go there (proof_log.h) */
        F->log = gv.buf;
        F->log_len = gv.shape[0];
    }
    F->limit_ns = limit_ns;
    F->grid_t0 = core_now_ns();
    core_release(&poll);
    const Probe q = {lits, lv.shape[0], depth, positive_only, budget < 0 ? -1 : budget};
    int r = clauses_probe(F, &q, ov.buf, &nout, &poll);
    core_reacquire(&poll);
    F->log = NULL;
    F->limit_ns = 0;
    if (r != STATUS_INTERRUPT)
        result = PyLong_FromLongLong(r == STATUS_OPEN ? nout : -(int64_t)r); /* -status */
out:
    self->busy = 0;
    RELEASE(&lv, &ov, &gv);
    return result;
}

/* probe_list(assumptions, depth, positive_only): as Board's, on the clauses */
static PyObject *py_clauses_probe_list(ClausesObject *self, PyObject *const *args,
                                    Py_ssize_t nargs) {
    int depth, positive_only;
    if (probe_list_args(args, nargs, &depth, &positive_only) < 0 || py_clauses_enter(self) < 0)
        return NULL;
    Clauses *F = &self->f;
    int64_t stack[STACK_LITS], *heap = NULL;
    Py_ssize_t count = -1;
    if (list_face_room(&self->face, F->nvars) == 0) {
        if (clauses_room(F, depth) < 0)
            PyErr_NoMemory();
        else
            count = read_literals(args[0], stack, STACK_LITS, F->nvars, 0, &heap);
    }
    if (count < 0) {
        self->busy = 0;
        return NULL;
    }
    Poll poll;
    probe_release(&poll, depth);
    int r = clauses_probe_trail(F, heap ? heap : stack, count, depth, positive_only, &poll, -1);
    probe_reacquire(&poll, depth);
    free(heap);
    /* the answer read off the trail (no copy through the face's array), then undone */
    const int64_t start = r == STATUS_OPEN ? F->trail_lim[0] : 0; /* assume opened level 1 */
    PyObject *answer = probe_answer(&self->face, r, NULL, F->trail + start,
                                    r == STATUS_OPEN ? F->trail_size - start : 0);
    clauses_probe_done(F);
    self->busy = 0;
    return answer;
}

static PyObject *py_clauses_depths(ClausesObject *self, PyObject *args) {
    PyObject *go, *so, *dO, *solo, *wo, *no, *logo = NULL, *ato = NULL;
    int n, max_depth, positive_only;
    long long budget, limit_ns = 0;
    if (!PyArg_ParseTuple(args, "OiipLOOOOO|OOL", &go, &n, &max_depth, &positive_only,
                          &budget, &so, &dO, &solo, &wo, &no, &logo, &ato, &limit_ns))
        return NULL;
    if (logo == Py_None) logo = NULL;
    if (ato == Py_None) ato = NULL;
    if (check_limit_ns(limit_ns) < 0) return NULL;
    if (check_depth(max_depth) < 0) return NULL;
    if (n < 1 || n > 127) {
        PyErr_Format(PyExc_ValueError, "size must be in 1..127 (int8 values), not %d", n);
        return NULL;
    }
    if (py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    PyObject *result = NULL;
    Py_buffer gv = {0}, sv = {0}, dv = {0}, solv = {0}, wv = {0}, nv = {0}, logv = {0},
              atv = {0};
    if (get_ints(go, &gv, "grids", 1, 2, -1, (Py_ssize_t)n * n, 0) < 0) goto out;
    Py_ssize_t count = gv.shape[0];
    if (get_ints(so, &sv, "status", 1, 1, count, -1, 1) < 0 ||
        get_ints(dO, &dv, "depth", 2, 1, count, -1, 1) < 0 ||
        get_ints(solo, &solv, "solutions", 1, 2, count, (Py_ssize_t)n * n, 1) < 0 ||
        get_ints(wo, &wv, "work", 8, 1, count, -1, 1) < 0 ||
        get_ints(no, &nv, "ns", 8, 1, count, -1, 1) < 0 || (logo && get_log(logo, &logv) < 0) ||
        (ato && get_ints(ato, &atv, "log_at", 8, 1, count + 1, -1, 1) < 0))
        goto out;
    if (logv.obj && logv.shape[0] > 0) { /* the closures' lemmas, grid by grid (proof_log.h) */
        F->log = logv.buf;
        F->log_len = logv.shape[0];
        F->log_at = atv.obj ? atv.buf : NULL;
    }
    F->limit_ns = limit_ns;
    if (clauses_room(F, max_depth) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    Poll poll;
    core_release(&poll);
    const DepthRun run = {gv.buf, count, max_depth, positive_only, budget, sv.buf, dv.buf,
                          solv.buf, wv.buf, nv.buf};
    int r = clauses_depths(F, &run, n, &poll);
    core_reacquire(&poll);
    if (r < 0)
        PyErr_NoMemory();
    else if (r != STATUS_INTERRUPT)
        result = Py_NewRef(Py_None);
out: /* on every path: the log's buffer is released below, so nothing may point into it */
    F->log = NULL;
    F->log_at = NULL;
    F->limit_ns = 0;
    self->busy = 0;
    RELEASE(&gv, &sv, &dv, &solv, &wv, &nv, &logv, &atv);
    return result;
}

static PyObject *py_clauses_batch(ClausesObject *self, PyObject *args) {
    PyObject *fo, *oo, *oko, *vo;
    if (!PyArg_ParseTuple(args, "OOOO", &fo, &oo, &oko, &vo)) return NULL;
    if (py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    PyObject *result = NULL;
    Py_buffer fv = {0}, ov = {0}, okv = {0}, vv = {0};
    if (get_ints(fo, &fv, "flat", 8, 1, -1, -1, 0) < 0 ||
        get_ints(oo, &ov, "offsets", 8, 1, -1, -1, 0) < 0 || check_offsets(&ov, fv.shape[0]) < 0 ||
        check_literals(fv.buf, fv.shape[0], F->nvars, "assumption") < 0)
        goto out;
    Py_ssize_t count = ov.shape[0] - 1;
    if (get_ints(oko, &okv, "ok", 1, 1, count, -1, 1) < 0 ||
        get_ints(vo, &vv, "values", 1, 2, count, F->nvars, 1) < 0)
        goto out;
    Poll poll;
    core_release(&poll);
    int r = clauses_batch(F, fv.buf, ov.buf, count, okv.buf, vv.buf, &poll);
    core_reacquire(&poll);
    if (r != STATUS_INTERRUPT) result = Py_NewRef(Py_None);
out:
    self->busy = 0;
    RELEASE(&fv, &ov, &okv, &vv);
    return result;
}


/* closures(flat, offsets, depth, positive_only, cell_vars, budget, status, assigned,
 * conflicts, work, ns, true) */
static PyObject *py_clauses_closures(ClausesObject *self, PyObject *args) {
    PyObject *fo, *oo, *so, *ao, *co, *wo, *no, *to;
    int depth, positive_only;
    long long cell_vars, budget, limit_ns = 0;
    if (!PyArg_ParseTuple(args, "OOipLLOOOOOO|L", &fo, &oo, &depth, &positive_only, &cell_vars,
                          &budget, &so, &ao, &co, &wo, &no, &to, &limit_ns))
        return NULL;
    if (check_limit_ns(limit_ns) < 0) return NULL;
    if (check_depth(depth) < 0 || py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    PyObject *result = NULL;
    Py_buffer fv = {0}, ov = {0}, sv = {0}, av = {0}, cv = {0}, wv = {0}, nv = {0}, tv = {0};
    if (cell_vars < 0 || cell_vars > F->nvars) {
        PyErr_Format(PyExc_ValueError, "cell_vars must be in 0..%d, not %lld", F->nvars,
                     cell_vars);
        goto out;
    }
    if (get_ints(fo, &fv, "flat", 8, 1, -1, -1, 0) < 0 ||
        get_ints(oo, &ov, "offsets", 8, 1, -1, -1, 0) < 0)
        goto out;
    if (check_offsets(&ov, fv.shape[0]) < 0) goto out;
    Py_ssize_t count = ov.shape[0] - 1;
    const int64_t *offsets = ov.buf;
    if (get_ints(so, &sv, "status", 1, 1, count, -1, 1) < 0 ||
        get_ints(ao, &av, "assigned", 8, 1, count, -1, 1) < 0 ||
        get_ints(co, &cv, "conflicts", 8, 1, count, -1, 1) < 0 ||
        get_ints(wo, &wv, "work", 8, 1, count, -1, 1) < 0 ||
        get_ints(no, &nv, "ns", 8, 1, count, -1, 1) < 0 ||
        get_ints(to, &tv, "true", 1, 2, count, F->nvars, 1) < 0)
        goto out;
    if (clauses_room(F, depth) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    Poll poll;
    F->limit_ns = limit_ns;
    core_release(&poll);
    const ClosureRun run = {fv.buf, offsets, count, depth, positive_only, cell_vars, budget,
                            sv.buf, av.buf, cv.buf, wv.buf, nv.buf, tv.buf};
    int r = clauses_closures(F, &run, &poll);
    core_reacquire(&poll);
    F->limit_ns = 0;
    if (r != STATUS_INTERRUPT) result = Py_NewRef(Py_None);
out:
    self->busy = 0;
    RELEASE(&fv, &ov, &sv, &av, &cv, &wv, &nv, &tv);
    return result;
}

/* search(assumptions, next_model, max_models, budget, work_budget, deadline_ns,
 * probe_depth, positive_only, log, model) -> (outcome, models): DPLL (search.h). */
static PyObject *py_clauses_search(ClausesObject *self, PyObject *args) {
    PyObject *lo, *logo, *mo;
    int next_model, probe_depth, positive_only;
    long long max_models, budget, work_budget, deadline_ns;
    if (!PyArg_ParseTuple(args, "OpLLLLipOO", &lo, &next_model, &max_models, &budget,
                          &work_budget, &deadline_ns, &probe_depth, &positive_only, &logo, &mo))
        return NULL;
    if (probe_depth < 0 || probe_depth > MAX_DEPTH) {
        PyErr_Format(PyExc_ValueError, "probe_depth must be in 0..%d, not %d", MAX_DEPTH,
                     probe_depth);
        return NULL;
    }
    int at_model = self->at_model;
    if (py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    Search *S = &self->s;
    Py_buffer lv = {0}, gv = {0}, mv = {0};
    PyObject *result = NULL;
    if (next_model && !at_model) {
        PyErr_SetString(PyExc_RuntimeError, "next_model: the last search found no model");
        goto out;
    }
    if (get_ints(lo, &lv, "assumptions", 8, 1, -1, -1, 0) < 0 || get_log(logo, &gv) < 0 ||
        get_ints(mo, &mv, "model", 8, 1, F->nvars, -1, 1) < 0)
        goto out;
    const int64_t *lits = lv.buf;
    if (check_literals(lits, lv.shape[0], F->nvars, "assumption") < 0) goto out;
    int64_t *log = gv.buf;
    if (clauses_room(F, probe_depth) < 0) {
        PyErr_NoMemory();
        goto out;
    }
    SearchAsk ask = {max_models, budget, work_budget, deadline_ns, probe_depth, positive_only};
    int64_t models = 0;
    int outcome = STATUS_EXHAUSTED;
    Poll poll;
    core_release(&poll);
    if (!next_model && search_start(F, S, lits, lv.shape[0]) != STATUS_OPEN) {
        outcome = STATUS_EXHAUSTED; /* the assumptions contradict: no model, no lemma */
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
    self->at_model = outcome == STATUS_FOUND;
    if (self->at_model) {
        int64_t *model = mv.buf;
        for (int32_t v = 0; v < F->nvars; v++) model[v] = F->value[2 * v] == 1 ? v + 1 : -(v + 1);
    } else {
        clauses_cancel_until(F, 0);
    }
    core_reacquire(&poll);
    if (outcome != STATUS_INTERRUPT) result = Py_BuildValue("(iL)", outcome, (long long)models);
out:
    self->busy = 0;
    RELEASE(&lv, &gv, &mv);
    return result;
}

/* The assumptions enqueued as a search starts them, each at a level of its own and
 * propagated before the next (as PySAT's Minisat22.propagate does, and in the order the
 * search meets the watches after it): STATUS_OPEN or STATUS_CONFLICT, the trail then to be
 * read from trail_lim[0] and undone with clauses_cancel_until(F, 0). */
static int propagate_levels(ClausesObject *self, const int64_t *lits, int64_t count) {
    return search_start(&self->f, &self->s, lits, count);
}

/* propagate(assumptions, out) -> how many literals above the root level it wrote to
 * out (num_vars int64), or -STATUS_CONFLICT. */
static PyObject *py_clauses_propagate(ClausesObject *self, PyObject *args) {
    PyObject *lo, *oo;
    if (!PyArg_ParseTuple(args, "OO", &lo, &oo) || py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    Py_buffer lv = {0}, ov = {0};
    PyObject *result = NULL;
    if (get_ints(lo, &lv, "assumptions", 8, 1, -1, -1, 0) < 0 ||
        get_ints(oo, &ov, "out", 8, 1, F->nvars, -1, 1) < 0 ||
        check_literals(lv.buf, lv.shape[0], F->nvars, "assumption") < 0)
        goto out;
    int64_t count = -STATUS_CONFLICT, *lits = ov.buf;
    if (propagate_levels(self, lv.buf, lv.shape[0]) == STATUS_OPEN) {
        count = 0;
        for (int64_t i = F->trail_lim[0]; i < F->trail_size; i++) lits[count++] = code_lit(F->trail[i]);
    }
    clauses_cancel_until(F, 0);
    result = PyLong_FromLongLong(count);
out:
    self->busy = 0;
    RELEASE(&lv, &ov);
    return result;
}

/* propagate_list(assumptions) -> (True, [literals]) or (False, []): propagate's answer
 * for a Python sequence of ints, read and answered without numpy (Engine.propagate). */
static PyObject *py_clauses_propagate_list(ClausesObject *self, PyObject *assumptions) {
    if (py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    int64_t stack[STACK_LITS], *heap = NULL;
    Py_ssize_t count = -1;
    if (list_face_room(&self->face, F->nvars) == 0)
        count = read_literals(assumptions, stack, STACK_LITS, F->nvars, 0, &heap);
    if (count < 0) {
        self->busy = 0;
        return NULL;
    }
    int r = propagate_levels(self, heap ? heap : stack, count);
    free(heap);
    const int64_t start = r == STATUS_OPEN ? F->trail_lim[0] : 0;
    PyObject *answer = probe_answer(&self->face, r, NULL, F->trail + start,
                                    r == STATUS_OPEN ? F->trail_size - start : 0);
    clauses_cancel_until(F, 0);
    self->busy = 0;
    return answer;
}

/* fixed(out) -> how many literals the root level holds (the formula's units and what
 * they imply, in the order they were assigned), written to out (num_vars int64), or
 * -STATUS_CONFLICT when they are contradictory. */
static PyObject *py_clauses_fixed(ClausesObject *self, PyObject *oo) {
    if (py_clauses_enter(self) < 0) return NULL;
    Clauses *F = &self->f;
    Py_buffer ov = {0};
    PyObject *result = NULL;
    if (get_ints(oo, &ov, "out", 8, 1, F->nvars, -1, 1) == 0) {
        clauses_cancel_until(F, 0); /* (a kept model is given up) */
        int64_t count = -STATUS_CONFLICT, *lits = ov.buf;
        if (!F->root_conflict)
            for (count = 0; count < F->trail_size; count++) lits[count] = code_lit(F->trail[count]);
        result = PyLong_FromLongLong(count);
    }
    self->busy = 0;
    RELEASE(&ov);
    return result;
}

/* Build the trace's arrays from the formula as given, at the first trace: 0, or -1 with
 * the error set. */
static int py_clauses_traced(ClausesObject *self) {
    if (self->traced) return 0;
    Py_buffer fv = {0}, ov = {0};
    PyObject *fo = PyTuple_GET_ITEM(self->input, 0), *oo = PyTuple_GET_ITEM(self->input, 1);
    if (get_clause_arrays(fo, oo, self->f.nvars, &fv, &ov) < 0) return -1;
    int r = trace_build(&self->trace, fv.buf, ov.buf, ov.shape[0] - 1, self->f.nvars);
    RELEASE(&fv, &ov);
    if (r < 0) {
        trace_free(&self->trace);
        PyErr_NoMemory();
        return -1;
    }
    self->traced = 1;
    return 0;
}

/* trace(assumptions) -> (ok, [(literal, reason)], conflict): see trace.c and
 * solvers.core.engine.Engine.trace.  The assumptions are read and checked whole before
 * anything is assigned (an item's __index__ may raise). */
static PyObject *py_clauses_trace(ClausesObject *self, PyObject *assumptions) {
    if (py_clauses_enter(self) < 0) return NULL;
    Trace *T = &self->trace;
    int64_t stack[STACK_LITS], *heap = NULL;
    PyObject *result = NULL;
    Py_ssize_t n = -1;
    if (py_clauses_traced(self) < 0 || list_face_room(&self->face, self->f.nvars) < 0) goto out;
    if (T->root_conflict >= 0) {
        result = Py_BuildValue("(O[]L)", Py_False, (long long)T->root_conflict);
        goto out;
    }
    n = read_literals(assumptions, stack, STACK_LITS, self->f.nvars, 0, &heap);
    if (n < 0) goto out;
    int64_t *lits = heap ? heap : stack;
    int32_t *codes = (int32_t *)lits; /* in place: a code is no wider than its literal */
    for (Py_ssize_t i = 0; i < n; i++) codes[i] = lit_code(lits[i]);
    int64_t size;
    int ok;
    int64_t conflict = trace_assume(T, codes, n, &size, &ok);
    PyObject *steps = PyList_New(size - T->root);
    for (int64_t i = T->root; steps && i < size; i++) {
        int32_t lit = T->trail[i];
        PyObject *step =
            Py_BuildValue("(LL)", (long long)code_lit(lit), (long long)T->reason[lit >> 1]);
        if (!step)
            Py_CLEAR(steps);
        else
            PyList_SET_ITEM(steps, i - T->root, step);
    }
    trace_undo(T, size);
    if (steps) result = Py_BuildValue("(ONL)", ok ? Py_True : Py_False, steps, (long long)conflict);
out:
    free(heap);
    self->busy = 0;
    return result;
}

/* counters() -> (work, hypotheses, root_conflict, conflicts, decisions, backtracks),
 * since the object was made. */
static PyObject *py_clauses_counters(ClausesObject *self, PyObject *unused) {
    if (clauses_made(self) < 0) return NULL;
    return Py_BuildValue("KKiKLL", (unsigned long long)self->f.work,
                         (unsigned long long)self->f.hypotheses, self->f.root_conflict,
                         (unsigned long long)self->f.conflicts, (long long)self->s.decisions,
                         (long long)self->s.backtracks);
}

static PyMethodDef py_clauses_methods[] = {
    {"probe", (PyCFunction)py_clauses_probe, METH_VARARGS, "probe(lits, depth, positive_only, out)"},
    {"probe_list", (PyCFunction)(void (*)(void))py_clauses_probe_list, METH_FASTCALL,
     "probe_list(assumptions, depth, positive_only) -> (ok, literals)"},
    {"propagate", (PyCFunction)py_clauses_propagate, METH_VARARGS,
     "propagate(assumptions, out) -> literals above the root level written, or -CONFLICT"},
    {"propagate_list", (PyCFunction)py_clauses_propagate_list, METH_O,
     "propagate_list(assumptions) -> (ok, literals), each assumption at a level of its own"},
    {"depths", (PyCFunction)py_clauses_depths, METH_VARARGS,
     "depths(grids, n, max_depth, positive_only, budget, status, depth, solutions, work, ns)"},
    {"batch", (PyCFunction)py_clauses_batch, METH_VARARGS, "batch(flat, offsets, ok, values)"},
    {"closures", (PyCFunction)py_clauses_closures, METH_VARARGS,
     "closures(flat, offsets, depth, positive_only, cell_vars, budget, status, assigned, "
     "conflicts, work, ns, true)"},
    {"search", (PyCFunction)py_clauses_search, METH_VARARGS,
     "search(assumptions, next_model, max_models, budget, work_budget, deadline_ns, "
     "probe_depth, positive_only, log, model) -> (outcome, models)"},
    {"fixed", (PyCFunction)py_clauses_fixed, METH_O,
     "fixed(out) -> the root level's literals written, or -CONFLICT when contradictory"},
    {"trace", (PyCFunction)py_clauses_trace, METH_O,
     "trace(assumptions) -> (ok, [(literal, reason clause)], falsified clause or -1)"},
    {"counters", (PyCFunction)py_clauses_counters, METH_NOARGS,
     "(work, hypotheses, root_conflict, conflicts, decisions, backtracks)"},
    {NULL},
};

static PyTypeObject ClausesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "solvers.core._core.Clauses",
    .tp_basicsize = sizeof(ClausesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Clauses(flat, offsets, num_vars): a CNF formula and its propagation state",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)py_clauses_init,
    .tp_dealloc = (destructor)py_clauses_dealloc,
    .tp_methods = py_clauses_methods,
};

/* ---- module ------------------------------------------------------------------ */

/* lemma_text(flat) -> str: flat lemmas (int64 DIMACS literals, each lemma closed by 0)
 * as DRUP lines, "-17 21 0\n" a lemma: the proof log's text without a Python int or
 * str per literal (that formatting took 3 times the rating's time over royle17). */
static PyObject *py_lemma_text(PyObject *self, PyObject *arg) {
    Py_buffer v = {0};
    if (get_ints(arg, &v, "lemmas", 8, 1, -1, -1, 0) < 0) return NULL;
    const int64_t *lits = v.buf;
    const Py_ssize_t n = v.shape[0];
    char *text = malloc((size_t)n * 21 + 1); /* a sign, 19 digits and a blank or newline */
    if (!text) {
        PyBuffer_Release(&v);
        return PyErr_NoMemory();
    }
    char *at = text;
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t x = lits[i];
        if (x == 0) {
            *at++ = '0';
            *at++ = '\n';
            continue;
        }
        char digits[20];
        int k = 0;
        uint64_t m = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
        while (m) {
            digits[k++] = (char)('0' + m % 10);
            m /= 10;
        }
        if (x < 0) *at++ = '-';
        while (k) *at++ = digits[--k];
        *at++ = ' ';
    }
    PyObject *out = PyUnicode_DecodeLatin1(text, at - text, NULL);
    free(text);
    PyBuffer_Release(&v);
    return out;
}

/* lrat_text(literals, offsets, num_vars, lemmas) -> str: the LRAT refutation of the
 * formula (int32 literals, int64 offsets) by the flat lemmas (lrat_write.h); a lemma
 * that does not follow is a ValueError naming it. */
static PyObject *py_lrat_text(PyObject *self, PyObject *args) {
    PyObject *lo, *oo, *mo;
    long long nvars;
    if (!PyArg_ParseTuple(args, "OOLO", &lo, &oo, &nvars, &mo)) return NULL;
    if (nvars < 0 || nvars > INT32_MAX) {
        PyErr_Format(PyExc_ValueError, "num_vars %lld is not in 0..2**31-1", nvars);
        return NULL;
    }
    Py_buffer v[3] = {{0}};
    PyObject *result = NULL;
    if (get_ints(lo, &v[0], "literals", 4, 1, -1, -1, 0) < 0 ||
        get_ints(oo, &v[1], "offsets", 8, 1, -1, -1, 0) < 0 ||
        get_ints(mo, &v[2], "lemmas", 8, 1, -1, -1, 0) < 0)
        goto out;
    if (check_offsets(&v[1], v[0].shape[0]) < 0) goto out;
    for (Py_ssize_t i = 0; i < v[0].shape[0]; i++) {
        const int32_t x = ((const int32_t *)v[0].buf)[i];
        if (x == 0 || x < -nvars || x > nvars) {
            PyErr_Format(PyExc_ValueError, "formula literal %d is 0 or beyond the %lld variables",
                         x, nvars);
            goto out;
        }
    }
    const int64_t *lemmas = v[2].buf;
    const Py_ssize_t nl = v[2].shape[0];
    for (Py_ssize_t i = 0; i < nl; i++)
        if (lemmas[i] < -nvars || lemmas[i] > nvars) {
            PyErr_Format(PyExc_ValueError, "lemma literal %lld beyond the %lld variables",
                         (long long)lemmas[i], nvars);
            goto out;
        }
    if (nl && lemmas[nl - 1] != 0) {
        PyErr_SetString(PyExc_ValueError, "the lemmas must end with 0");
        goto out;
    }
    char *text = NULL;
    int64_t len = 0, failed = -1;
    Poll poll;
    core_release(&poll);
    const int r = lrat_write(v[0].buf, v[1].buf, v[1].shape[0] - 1, nvars, lemmas, nl, &text,
                             &len, &failed, &poll);
    core_reacquire(&poll);
    if (r == -1)
        PyErr_NoMemory();
    else if (r == -2)
        PyErr_Format(PyExc_ValueError,
                     "lemma %lld does not follow by unit propagation (or no empty clause)",
                     (long long)failed + 1);
    else if (r == 0)
        result = PyUnicode_DecodeLatin1(text, len, NULL);
    /* r == -3: the signal handler's exception is set */
    free(text);
out:
    release(v, 3);
    return result;
}

static PyMethodDef module_methods[] = {
    {"lemma_text", py_lemma_text, METH_O, "lemma_text(flat) -> str: flat lemmas as DRUP lines"},
    {"lrat_text", py_lrat_text, METH_VARARGS,
     "lrat_text(literals, offsets, num_vars, lemmas) -> str: the LRAT refutation"},
    {"variants", py_variants, METH_NOARGS, "the variants this processor runs, best last"},
    {"variant", py_variant, METH_NOARGS, "the variant in use"},
    {"use_variant", py_use_variant, METH_O, "use_variant(name): run the board on this variant"},
    {NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The native core of sudoku-sat (see solvers.core).", -1,
    module_methods,
};

/* Add `type` to module `m` as `name`: 0, or -1 with the error set. */
static int add_type(PyObject *m, const char *name, PyTypeObject *type) {
    if (PyType_Ready(type) < 0) return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) == 0) return 0;
    Py_DECREF(type);
    return -1;
}

PyMODINIT_FUNC PyInit__core(void) {
    find_variants();
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    if (add_type(m, "Board", &BoardType) < 0 || add_type(m, "Clauses", &ClausesType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* The outcomes, slots and bounds Python reads from here (one definition: status.h,
     * proof_log.h, bounds.h). */
    static const Constant constants[] = {
        {"STATUS_OPEN", STATUS_OPEN},
        {"STATUS_SAT", STATUS_SAT},
        {"STATUS_CONFLICT", STATUS_CONFLICT},
        {"STATUS_BAD", STATUS_BAD},
        {"STATUS_TIME", STATUS_TIME},
        {"STATUS_BUDGET", STATUS_BUDGET},
        {"STATUS_INTERRUPT", STATUS_INTERRUPT},
        {"STATUS_FOUND", STATUS_FOUND},
        {"STATUS_EXHAUSTED", STATUS_EXHAUSTED},
        {"STATUS_DECISIONS", STATUS_DECISIONS},
        {"STATUS_STUCK", STATUS_STUCK},
        {"STATUS_PAUSED", STATUS_PAUSED},
        {"STATUS_BAD_SOLUTION", STATUS_BAD_SOLUTION},
        {"LOG_HEAD", LOG_HEAD},
        {"LOG_BASE", LOG_BASE},
        {"LOG_MARK", LOG_MARK},
        {"LOG_MARKED_FRAMES", LOG_MARKED_FRAMES},
        {"LOG_FIRST", LOG_FIRST},
        {"MAX_DEPTH", MAX_DEPTH},
        {"MAX_SIDE", MAX_SIDE},
        {"MAX_SECONDS", MAX_SECONDS},
    };
    if (!(m = with_constants(m, constants, sizeof constants / sizeof constants[0]))) return NULL;
    PyObject *max_count = PyLong_FromLongLong(MAX_COUNT); /* wider than a C long may be */
    if (!max_count || PyModule_AddObject(m, "MAX_COUNT", max_count) < 0) {
        Py_XDECREF(max_count);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
