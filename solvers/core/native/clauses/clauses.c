/* The clause engine's kernels (clauses.h says the conventions): building the formula,
 * unit propagation with two watched literals (long clauses) and implication lists
 * (binary clauses), backtracking, the failed-literal closure nested to depth k on the
 * trail, the depth loop and batches.  No kernel allocates while it propagates: each watch
 * list has room for every long clause holding its literal.
 *
 * The closure (the exam's `propagation2`, nested).  For an unassigned literal l, if
 * the hypothesis l leads to a contradiction then not-l holds; closure(k) applies the
 * rule until nothing changes, testing each hypothesis with closure(k - 1), and
 * closure(0) is unit propagation.  Depth 1 on the complete Sudoku encoding is
 * Berthier's T&E(1), depth 2 his T&E(2).  The fixpoint is unique (every step only adds
 * consequences of the formula, so the rule is monotone), which is what makes these
 * shortcuts safe whatever the order hypotheses are tried in:
 * - a hypothesis that passes marks every literal of its closure with the frame's stamp,
 *   and a marked literal is skipped (if a passes and a implies b, the closure of b is
 *   inside that of a, so b passes); a fact learnt gives the frame a new stamp, and the
 *   marks stop counting;
 * - candidates are visited round-robin, and a frame stops after a full round in which
 *   nothing was learnt, instead of starting again from the first variable after each
 *   fact.
 * Recursion is an explicit stack of frames (C_* columns), which bounds the nesting
 * exactly: frame d tests hypotheses one level above its own with depth k - d - 1 left,
 * and its facts are enqueued at its own level, so cancelling a hypothesis's level undoes
 * the hypothesis alone.  Stamps only grow, so the marks are never cleared.
 */
#include "clauses.h"
#include "codes.h"
#include "depth_loop.h"
#include "proof_log.h"

#include <stdlib.h>
#include <string.h>


static int cmp_i32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void clauses_free(Clauses *F) {
    free(F->lits);
    free(F->cstart);
    free(F->wl);
    free(F->watches);
    free(F->bstart);
    free(F->bimp);
    free(F->value);
    free(F->trail);
    free(F->trail_lim);
    free(F->frames);
    free(F->marks);
    memset(F, 0, sizeof(*F));
}

static void enqueue(Clauses *F, int32_t lit) {
    F->value[lit] = 1;
    F->value[lit ^ 1] = -1;
    F->trail[F->trail_size++] = lit;
}

static void new_level(Clauses *F) { F->trail_lim[F->dlevel++] = (int32_t)F->trail_size; }

static void cancel_until(Clauses *F, int32_t level) {
    if (F->dlevel <= level) return;
    int64_t start = F->trail_lim[level];
    for (int64_t i = F->trail_size - 1; i >= start; i--) {
        int32_t lit = F->trail[i];
        memset(F->value + (lit & ~1), 0, 2); /* lit and its negation: one store */
    }
    F->trail_size = F->qhead = start;
    F->dlevel = level;
}

#if defined(__GNUC__) && !defined(__clang__)
/* gcc: propagation, the hot loop, with its short loops unrolled (measured about 3%
 * faster per call on the augmented formula than -O2 alone) */
#define PROPAGATE_OPT __attribute__((optimize("O2", "unroll-loops")))
#else
#define PROPAGATE_OPT
#endif

/* Propagate the trail from qhead: return STATUS_OPEN, every implied literal on the trail,
 * or STATUS_CONFLICT (a clause falsified; the trail is left for the caller to cancel).
 * The arrays and counters are read into locals once: stores through `value` (int8)
 * may alias anything, so fields read through F would be reloaded after each one. */
PROPAGATE_OPT static int propagate(Clauses *F) {
    int8_t *const value = F->value;
    int32_t *const trail = F->trail;
    const int32_t *const bimp = F->bimp;
    int32_t *const all_lits = F->lits;
    WatchList *const wl = F->wl;
    Watch *const watches = F->watches;
    int64_t qhead = F->qhead, size = F->trail_size;
    int result = STATUS_OPEN;
    while (qhead < size) {
        int32_t p = trail[qhead++];
        WatchList *const at = wl + p;
        for (int32_t i = at->imp_start, end = at->imp_end; i < end; i++) {
            int32_t q = bimp[i];
            int8_t v = value[q];
            if (v == 1) continue;
            if (v == -1) {
                result = STATUS_CONFLICT;
                goto done;
            }
            value[q] = 1;
            value[q ^ 1] = -1;
            trail[size++] = q;
        }
        int32_t false_lit = p ^ 1;
        Watch *ws = watches + at->start;
        int32_t n = at->count, j = 0;
        for (int32_t i = 0; i < n; i++) {
            Watch w = ws[i];
            if (value[watch_blocker(w)] == 1) {
                ws[j++] = w;
                continue;
            }
            const int32_t cref = watch_cref(w);
            int32_t *lits = all_lits + cref;
            int32_t csize = lits[-1];
            if (lits[0] == false_lit) {
                lits[0] = lits[1];
                lits[1] = false_lit;
            }
            int32_t first = lits[0];
            w = watch_of(cref, first);
            if (value[first] == 1) {
                ws[j++] = w;
                continue;
            }
            int moved = 0;
            for (int32_t k = 2; k < csize; k++)
                if (value[lits[k]] != -1) {
                    int32_t other = lits[k];
                    lits[k] = false_lit;
                    lits[1] = other;
                    WatchList *const to = wl + (other ^ 1); /* visited when other is false */
                    watches[to->start + to->count++] = w;
                    moved = 1;
                    break;
                }
            if (moved) continue;
            ws[j++] = w;
            if (value[first] == -1) { /* conflict: keep the rest of the list */
                for (i++; i < n; i++) ws[j++] = ws[i];
                at->count = j;
                result = STATUS_CONFLICT;
                goto done;
            }
            value[first] = 1;
            value[first ^ 1] = -1;
            trail[size++] = first;
        }
        at->count = j;
    }
done:
    F->work += (uint64_t)(qhead - F->qhead);
    F->qhead = qhead;
    F->trail_size = size;
    return result;
}

int clauses_build(Clauses *F, const int64_t *flat, const int64_t *offsets, int64_t nclauses,
              int32_t nvars) {
    memset(F, 0, sizeof(*F));
    F->nvars = nvars;
    F->room = -1;
    int64_t nlit = 2 * (int64_t)nvars, total = offsets[nclauses] - offsets[0];
    int32_t *codes = malloc(sizeof(int32_t) * (total + 1));
    int64_t *size = malloc(sizeof(int64_t) * (nclauses + 1));
    int64_t *occ = calloc(nlit + 1, sizeof(int64_t));
    int64_t *bcount = calloc(nlit + 2, sizeof(int64_t));
    int32_t *units = malloc(sizeof(int32_t) * (nclauses + 1));
    F->value = calloc(nlit, sizeof(int8_t));
    F->trail = malloc(sizeof(int32_t) * (nvars + 1));
    F->trail_lim = malloc(sizeof(int32_t) * (nvars + 8));
    int ok = codes && size && occ && bcount && units && F->value && F->trail && F->trail_lim;
    int64_t nunits = 0, nlong = 0, longlits = 0, nbin = 0;
    if (ok) {
        int64_t at = 0;
        for (int64_t i = 0; i < nclauses; i++) {
            int64_t a = offsets[i], b = offsets[i + 1], start = at;
            for (int64_t p = a; p < b; p++) codes[at++] = lit_code(flat[p]);
            size[i] = normal_clause(codes + start, at - start);
            at = size[i] < 0 ? start : start + size[i];
            if (size[i] == 0) F->root_conflict = 1;
            if (size[i] == 1) units[nunits++] = codes[start];
            if (size[i] == 2) {
                bcount[(codes[start] ^ 1) + 1]++;
                bcount[(codes[start + 1] ^ 1) + 1]++;
                nbin++;
            }
            if (size[i] >= 3) {
                nlong++;
                longlits += size[i];
                for (int64_t p = start; p < at; p++) occ[codes[p]]++;
            }
        }
        F->nlong = nlong;
        /* watches and implication lists are indexed in 32 bits: larger formulas are
         * refused (as out of memory) */
        ok = longlits + nlong < INT32_MAX && 2 * nbin < INT32_MAX;
        F->lits = malloc(sizeof(int32_t) * (longlits + nlong + 1));
        F->cstart = malloc(sizeof(int64_t) * (nlong + 1));
        F->wl = calloc(nlit + 1, sizeof(WatchList));
        F->watches = malloc(sizeof(Watch) * (longlits + 1));
        F->bstart = calloc(nlit + 1, sizeof(int64_t));
        F->bimp = malloc(sizeof(int32_t) * (2 * nbin + 1));
        ok = ok && F->lits && F->cstart && F->wl && F->watches && F->bstart && F->bimp;
    }
    if (ok) {
        int64_t w = 0;
        for (int64_t l = 0; l < nlit; l++) {
            F->wl[l ^ 1].start = (int32_t)w;
            w += occ[l];
        }
        for (int64_t l = 0; l < nlit; l++) F->bstart[l + 1] = F->bstart[l] + bcount[l + 1];
        memset(bcount, 0, sizeof(int64_t) * (nlit + 2)); /* fill pointers now */
        int64_t at = 0, c = 0, pos = 0;
        for (int64_t i = 0; i < nclauses; i++) {
            int64_t s = size[i];
            if (s <= 0) continue;
            int32_t *cl = codes + at;
            at += s;
            if (s == 2) {
                int32_t x = cl[0], y = cl[1];
                F->bimp[F->bstart[x ^ 1] + bcount[x ^ 1]++] = y;
                F->bimp[F->bstart[y ^ 1] + bcount[y ^ 1]++] = x;
            } else if (s >= 3) {
                F->lits[pos++] = (int32_t)s; /* the size, then the literals */
                F->cstart[c] = pos;
                memcpy(F->lits + pos, cl, sizeof(int32_t) * s);
                for (int k = 0; k < 2; k++) {
                    int32_t l = cl[k];
                    F->watches[F->wl[l ^ 1].start + F->wl[l ^ 1].count++] =
                        watch_of((int32_t)pos, cl[1 - k]);
                }
                pos += s;
                c++;
            }
        }
        /* duplicate binary clauses (the centrale rules repeat a pair of a row inside a
         * box) would be visited twice: each implication list sorted and made unique */
        int64_t kept = 0;
        for (int64_t l = 0; l < nlit; l++) {
            int64_t a = F->bstart[l], b = F->bstart[l + 1];
            qsort(F->bimp + a, b - a, sizeof(int32_t), cmp_i32);
            F->bstart[l] = kept;
            for (int64_t i = a; i < b; i++)
                if (i == a || F->bimp[i] != F->bimp[i - 1]) F->bimp[kept++] = F->bimp[i];
        }
        F->bstart[nlit] = kept;
        for (int64_t l = 0; l < nlit; l++) {
            F->wl[l].imp_start = (int32_t)F->bstart[l];
            F->wl[l].imp_end = (int32_t)F->bstart[l + 1];
        }
        for (int64_t i = 0; i < nunits && !F->root_conflict; i++) {
            int32_t u = units[i];
            if (F->value[u] == -1)
                F->root_conflict = 1;
            else if (F->value[u] == 0)
                enqueue(F, u);
        }
        if (!F->root_conflict && propagate(F) != STATUS_OPEN) F->root_conflict = 1;
    }
    free(codes);
    free(size);
    free(occ);
    free(bcount);
    free(units);
    if (!ok) clauses_free(F);
    return ok ? 0 : -1;
}

int clauses_room(Clauses *F, int depth) {
    if (depth <= F->room) return 0;
    free(F->frames);
    free(F->marks);
    size_t d = depth < 1 ? 1 : (size_t)depth;
    F->frames = calloc(d * C_COLUMNS, sizeof(int64_t));
    F->marks = calloc(d * 2 * (size_t)F->nvars, sizeof(int64_t));
    if (!F->frames || !F->marks) {
        free(F->frames);
        free(F->marks);
        F->frames = NULL;
        F->marks = NULL;
        F->room = -1;
        return -1;
    }
    F->room = (int)d;
    return 0;
}

static void open_frame(Clauses *F, int d) {
    int64_t *fr = F->frames + (size_t)d * C_COLUMNS;
    fr[C_LEVEL] = F->dlevel;
    fr[C_POS] = fr[C_QUIET] = 0;
    fr[C_STAMP] = ++F->stamp;
}

/* Close the current level under the failed-literal rule of depth `depth` (the trail
 * propagated): STATUS_OPEN (the facts stay on the trail), STATUS_CONFLICT, STATUS_BUDGET or
 * STATUS_INTERRUPT. */
static int closure(Clauses *F, int depth, int positive_only, Poll *poll, uint64_t work0,
                   int64_t budget) {
    if (depth <= 0) return STATUS_OPEN;
    const int step = positive_only ? 2 : 1;
    const int64_t ncand = 2 * (int64_t)F->nvars / step, nlit = 2 * (int64_t)F->nvars;
    int top = 0;
    open_frame(F, 0);
    for (;;) {
        if (core_poll(poll)) return STATUS_INTERRUPT;
        if (budget >= 0 && F->work - work0 > (uint64_t)budget) return STATUS_BUDGET;
        if (F->limit_ns > 0 && core_now_ns() - F->grid_t0 > F->limit_ns) return STATUS_TIME;
        int64_t *fr = F->frames + (size_t)top * C_COLUMNS;
        int64_t *mark = F->marks + (size_t)top * nlit;
        int32_t lit = -1;
        while (fr[C_QUIET] < ncand) {
            int64_t c = fr[C_POS];
            fr[C_POS] = c + 1 < ncand ? c + 1 : 0;
            fr[C_QUIET]++;
            int32_t code = (int32_t)(c * step);
            if (F->value[code] == 0 && mark[code] != fr[C_STAMP]) {
                lit = code;
                break;
            }
        }
        int ok;
        if (lit < 0) {
            if (top == 0) return STATUS_OPEN;
            top--;
            ok = 1;
        } else {
            F->hypotheses++;
            F->work++;
            fr[C_HYP] = lit;
            log_mark(F, top);
            new_level(F);
            enqueue(F, lit);
            if (propagate(F) != STATUS_OPEN) {
                F->conflicts++; /* a failed hypothesis */
                ok = 0;
            } else if (top + 1 == depth) {
                ok = 1;
            } else {
                top++;
                open_frame(F, top);
                continue;
            }
        }
        for (;;) {
            int64_t *ft = F->frames + (size_t)top * C_COLUMNS;
            int32_t base = (int32_t)ft[C_LEVEL];
            if (ok) { /* every literal of the hypothesis's closure passes too */
                int64_t *mt = F->marks + (size_t)top * nlit;
                for (int64_t i = F->trail_lim[base]; i < F->trail_size; i++)
                    mt[F->trail[i]] = ft[C_STAMP];
                cancel_until(F, base);
                log_forget(F, top);
                break;
            }
            cancel_until(F, base);
            enqueue(F, (int32_t)ft[C_HYP] ^ 1);
            log_lemma(F, base, (int32_t)ft[C_HYP] ^ 1);
            ft[C_QUIET] = 0;
            if (propagate(F) == STATUS_OPEN) {
                ft[C_STAMP] = ++F->stamp; /* the facts grew: earlier passes prove nothing */
                break;
            }
            F->conflicts++; /* the frame itself is contradictory */
            if (top == 0) return STATUS_CONFLICT;
            top--;
        }
    }
}

/* Start a query: back to the root, a new level, the assumptions enqueued and
 * propagated. */
static int assume(Clauses *F, const int64_t *lits, int64_t nlits) {
    cancel_until(F, 0);
    if (F->root_conflict) return STATUS_CONFLICT;
    new_level(F);
    for (int64_t i = 0; i < nlits; i++) {
        int32_t code = lit_code(lits[i]);
        if (F->value[code] == -1) return STATUS_CONFLICT;
        if (F->value[code] == 0) enqueue(F, code);
    }
    return propagate(F);
}

int clauses_probe_trail(Clauses *F, const int64_t *lits, int64_t nlits, int depth, int positive_only,
                    Poll *poll, int64_t budget) {
    uint64_t work0 = F->work;
    int r = assume(F, lits, nlits);
    if (F->log) F->log[LOG_BASE] = F->dlevel; /* lemmas hold the hypotheses above it */
    if (r == STATUS_OPEN) r = closure(F, depth, positive_only, poll, work0, budget);
    return r;
}

void clauses_probe_done(Clauses *F) { cancel_until(F, 0); }

int clauses_probe(Clauses *F, const Probe *q, int64_t *out, int64_t *nout, Poll *poll) {
    *nout = 0;
    int r = clauses_probe_trail(F, q->lits, q->nlits, q->depth, q->positive_only, poll, q->budget);
    if (r == STATUS_OPEN) { /* the answer: the trail above the root (assume opened a level) */
        int64_t start = F->trail_lim[0], end = F->trail_size;
        for (int64_t i = start; i < end; i++) out[i - start] = code_lit(F->trail[i]);
        *nout = end - start;
    }
    clauses_probe_done(F);
    return r;
}

/* Write the value of each cell's true literal above the root level (0 for none) and
 * return 1 when every cell has one. */
static int filled(const Clauses *F, int n, int8_t *out) {
    int64_t cells = (int64_t)n * n, cell_vars = cells * n;
    memset(out, 0, (size_t)cells);
    for (int64_t i = F->trail_lim[0]; i < F->trail_size; i++) {
        int64_t lit = code_lit(F->trail[i]);
        if (lit > 0 && lit <= cell_vars) out[(lit - 1) / n] = (int8_t)((lit - 1) % n + 1);
    }
    for (int64_t c = 0; c < cells; c++)
        if (!out[c]) return 0;
    return 1;
}

/* The depth loop's steps on the clause engine (depth_loop.h). */
typedef struct CnfClimb {
    Clauses *F;
    int n, positive_only;
    Poll *poll;
    uint64_t work0;
    int64_t budget;
} CnfClimb;

static int climb_filled(void *engine, int8_t *solution) {
    const CnfClimb *c = engine;
    return filled(c->F, c->n, solution);
}

static int climb_closure(void *engine, int depth) {
    const CnfClimb *c = engine;
    return closure(c->F, depth, c->positive_only, c->poll, c->work0, c->budget);
}

int clauses_depths(Clauses *F, const DepthRun *run, int n, Poll *poll) {
    int64_t cells = (int64_t)n * n;
    int64_t *lits = malloc(sizeof(int64_t) * (cells + 1));
    if (!lits) return -1;
    CnfClimb climb = {F, n, run->positive_only, poll, 0, run->budget};
    const DepthSteps steps = {climb_filled, climb_closure, &climb, STATUS_TIME, STATUS_TIME};
    int result = STATUS_OPEN;
    for (int64_t g = 0; g < run->count; g++) {
        if (core_poll(poll)) {
            result = STATUS_INTERRUPT;
            break;
        }
        int64_t t0 = core_now_ns();
        uint64_t w0 = F->work;
        climb.work0 = w0;
        F->grid_t0 = t0;
        if (F->log_at) F->log_at[g] = F->log[LOG_HEAD];
        const int8_t *grid = run->grids + g * cells;
        int64_t m = 0;
        int bad = 0;
        for (int64_t c = 0; c < cells && !bad; c++) {
            int k = grid[c];
            if (k == 0) continue;
            int64_t var = n * c + k;
            if (k < 0 || k > n || var > F->nvars)
                bad = 1;
            else
                lits[m++] = var;
        }
        if (bad) {
            run->status[g] = STATUS_BAD;
            run->depth[g] = 0;
        } else {
            int r = assume(F, lits, m);
            if (F->log) F->log[LOG_BASE] = F->dlevel;
            r = depth_climb(&steps, r, run->max_depth, run->solutions + g * cells,
                            &run->status[g], &run->depth[g]);
            cancel_until(F, 0);
            if (r == STATUS_INTERRUPT) {
                result = r;
                break;
            }
        }
        if (F->log_at) F->log_at[g + 1] = F->log[LOG_HEAD];
        run->work[g] = (int64_t)(F->work - w0);
        run->ns[g] = core_now_ns() - t0;
    }
    free(lits);
    return result;
}

int clauses_batch(Clauses *F, const int64_t *flat, const int64_t *offsets, int64_t count, int8_t *ok,
              int8_t *values, Poll *poll) {
    for (int64_t g = 0; g < count; g++) {
        if (core_poll(poll)) return STATUS_INTERRUPT;
        int r = assume(F, flat + offsets[g], offsets[g + 1] - offsets[g]);
        ok[g] = r == STATUS_OPEN;
        int8_t *row = values + g * (int64_t)F->nvars;
        if (r == STATUS_OPEN)
            for (int32_t v = 0; v < F->nvars; v++) row[v] = F->value[2 * v];
        else
            memset(row, 0, (size_t)F->nvars);
        cancel_until(F, 0);
    }
    return STATUS_OPEN;
}

int clauses_closures(Clauses *F, const ClosureRun *run, Poll *poll) {
    const int64_t cell_vars = run->cell_vars, *offsets = run->offsets;
    int8_t *status = run->status;
    for (int64_t g = 0; g < run->count; g++) {
        if (core_poll(poll)) return STATUS_INTERRUPT;
        int64_t t0 = core_now_ns();
        uint64_t w0 = F->work, c0 = F->conflicts;
        F->grid_t0 = t0;
        const int64_t *lits = run->flat + offsets[g];
        int64_t nlits = offsets[g + 1] - offsets[g];
        int8_t *row = run->truth + g * (int64_t)F->nvars;
        memset(row, 0, (size_t)F->nvars);
        run->assigned[g] = 0;
        int bad = 0;
        for (int64_t i = 0; i < nlits; i++)
            if (!dimacs_in_range(lits[i], F->nvars)) bad = 1;
        if (bad) {
            status[g] = STATUS_BAD;
        } else {
            int r = assume(F, lits, nlits);
            if (r == STATUS_OPEN) r = closure(F, run->depth, run->positive_only, poll, w0, run->budget);
            if (r == STATUS_INTERRUPT) {
                cancel_until(F, 0);
                return r;
            }
            if (r == STATUS_BUDGET || r == STATUS_TIME) {
                status[g] = r == STATUS_BUDGET ? STATUS_BUDGET : STATUS_TIME;
            } else if (r != STATUS_OPEN) {
                status[g] = STATUS_CONFLICT;
            } else {
                int64_t n = 0;
                for (int64_t v = 0; v < cell_vars; v++) n += F->value[2 * v] != 0;
                run->assigned[g] = n;
                status[g] = n == cell_vars ? STATUS_SAT : STATUS_OPEN;
                if (n == cell_vars)
                    for (int32_t v = 0; v < F->nvars; v++) row[v] = F->value[2 * v] == 1;
            }
            cancel_until(F, 0);
        }
        run->conflicts[g] = (int64_t)(F->conflicts - c0);
        run->work[g] = (int64_t)(F->work - w0);
        run->ns[g] = core_now_ns() - t0;
    }
    return STATUS_OPEN;
}

/* The steps above, for search.c (the static versions stay inlined in these kernels). */
void clauses_enqueue(Clauses *F, int32_t lit) { enqueue(F, lit); }
void clauses_new_level(Clauses *F) { new_level(F); }
void clauses_cancel_until(Clauses *F, int32_t level) { cancel_until(F, level); }
int clauses_propagate(Clauses *F) { return propagate(F); }
int clauses_closure(Clauses *F, int depth, int positive_only, Poll *poll, uint64_t work0,
                int64_t budget) {
    return closure(F, depth, positive_only, poll, work0, budget);
}
