/* DRUP lemmas to LRAT (lrat_write.h): the hints of each lemma found by a forward pass
 * of unit propagation over the formula and the lemmas before it, then trimmed to what
 * the empty clause rests on.
 *
 * Propagation watches two literals a clause, as SAT solvers do: a clause is looked at
 * only when one of its watches becomes false, which for the rules' long clauses (a
 * cell's or a unit's N values) is rare; scanning every clause that holds a false
 * literal took 3 times as long on the forum's hardest.  Each literal's watch list has
 * room for every clause that holds it, so propagation allocates nothing.  A lemma is
 * watched from the moment it is proven.  A lemma's negation is assumed on top of
 * the root assignment (the formula's units, the unit lemmas and what they propagate,
 * each with its reason); at the conflict, the trail is walked back from its end,
 * collecting the reason of each variable the conflict rests on: in trail order, then
 * the conflicting clause, each hint is unit or falsified when a checker reaches it.
 * The root's reasons are hints too, since a checker knows nothing but the hints.
 */
#include "lrat_write.h"

#include <stdlib.h>
#include <string.h>

typedef struct Buf {
    char *at;
    int64_t len, cap;
} Buf;

static int put(Buf *b, const char *s, int64_t n) {
    if (b->len + n > b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 1 << 16;
        while (cap < b->len + n) cap *= 2;
        char *m = realloc(b->at, (size_t)cap);
        if (!m) return -1;
        b->at = m, b->cap = cap;
    }
    memcpy(b->at + b->len, s, (size_t)n);
    b->len += n;
    return 0;
}

static int put_int(Buf *b, int64_t x, char end) {
    char d[24];
    int k = 23;
    d[k--] = end;
    uint64_t m = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    do {
        d[k--] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (x < 0) d[k--] = '-';
    return put(b, d + k + 1, 23 - k);
}

typedef struct Ints {
    int64_t *at, len, cap;
} Ints;

static int push(Ints *v, int64_t x) {
    if (v->len == v->cap) {
        int64_t cap = v->cap ? 2 * v->cap : 256;
        int64_t *m = realloc(v->at, sizeof(int64_t) * (size_t)cap);
        if (!m) return -1;
        v->at = m, v->cap = cap;
    }
    v->at[v->len++] = x;
    return 0;
}

typedef struct Pass {
    int64_t nvars, nclauses;
    const int64_t *start; /* clause c: lits[start[c] .. start[c + 1]), its watches first */
    int64_t *lits;
    /* per literal code 2v + (l < 0): the clauses watching it, in watch[watch_start[k] ..
     * + watch_len[k]); room for every clause holding the literal, which no list exceeds */
    int64_t *watch_start, *watch, *watch_len;
    int8_t *val;              /* per variable: 1 true, -1 false, 0 open */
    int64_t *reason;          /* per variable: its clause, -1 an assumption */
    int64_t *trail, size;
    uint8_t *assumed;  /* variable of the lemma being checked */
    uint8_t *mark;
} Pass;

static int64_t code(int64_t lit) { return 2 * (lit < 0 ? -lit : lit) + (lit < 0); }
static int value(const Pass *P, int64_t lit) {
    int8_t v = P->val[lit < 0 ? -lit : lit];
    return lit < 0 ? -v : v;
}
static void assign(Pass *P, int64_t lit, int64_t why) {
    int64_t v = lit < 0 ? -lit : lit;
    P->val[v] = (int8_t)(lit < 0 ? -1 : 1);
    P->reason[v] = why;
    P->trail[P->size++] = lit;
}
static void watch(Pass *P, int64_t lit, int64_t c) {
    const int64_t k = code(lit);
    P->watch[P->watch_start[k] + P->watch_len[k]++] = c;
}

/* Propagate the trail from position `from`; return the conflicting clause or -1.  Two
 * watched literals a clause (the first two): a clause is visited only when a watch
 * becomes false, and then looks for another literal not false to watch. */
static int64_t propagate(Pass *P, int64_t from) {
    for (int64_t i = from; i < P->size; i++) {
        const int64_t falsified = -P->trail[i];
        const int64_t k = code(falsified);
        int64_t *w = P->watch + P->watch_start[k];
        const int64_t len = P->watch_len[k];
        int64_t kept = 0;
        for (int64_t r = 0; r < len; r++) {
            const int64_t c = w[r], s = P->start[c], e = P->start[c + 1];
            int64_t *l = P->lits + s;
            if (l[0] == falsified) l[0] = l[1], l[1] = falsified; /* the false watch second */
            if (value(P, l[0]) > 0) {
                w[kept++] = c;
                continue;
            }
            int64_t q = 2;
            while (q < e - s && value(P, l[q]) < 0) q++;
            if (q < e - s) { /* a new watch: c leaves this list */
                l[1] = l[q], l[q] = falsified;
                watch(P, l[1], c);
                continue;
            }
            w[kept++] = c;
            if (value(P, l[0]) == 0) {
                assign(P, l[0], c);
                continue;
            }
            while (++r < len) w[kept++] = w[r]; /* a conflict: the rest stay watched */
            P->watch_len[k] = kept;
            return c;
        }
        P->watch_len[k] = kept;
    }
    return -1;
}

/* The hints of a conflict at clause `conflict`: the reasons it rests on, in trail
 * order, then the clause (ids 1-based). */
static int analyse(Pass *P, int64_t conflict, Ints *hints) {
    int64_t first = hints->len;
    for (int64_t q = P->start[conflict]; q < P->start[conflict + 1]; q++) {
        int64_t v = P->lits[q] < 0 ? -P->lits[q] : P->lits[q];
        P->mark[v] = 1;
    }
    for (int64_t i = P->size - 1; i >= 0; i--) {
        int64_t v = P->trail[i] < 0 ? -P->trail[i] : P->trail[i];
        if (!P->mark[v]) continue;
        P->mark[v] = 0;
        if (P->assumed[v] || P->reason[v] < 0) continue;
        const int64_t r = P->reason[v];
        if (push(hints, r + 1) < 0) return -1;
        for (int64_t q = P->start[r]; q < P->start[r + 1]; q++) {
            int64_t u = P->lits[q] < 0 ? -P->lits[q] : P->lits[q];
            if (u != v) P->mark[u] = 1;
        }
    }
    for (int64_t a = first, b = hints->len - 1; a < b; a++, b--) {
        int64_t t = hints->at[a];
        hints->at[a] = hints->at[b];
        hints->at[b] = t;
    }
    return push(hints, conflict + 1);
}

/* Add clause c at the root: its literals not false first (a true one first of all),
 * the first two watched, then assign or propagate it; return a root conflict or -1. */
static int64_t root_add(Pass *P, int64_t c) {
    const int64_t s = P->start[c], size = P->start[c + 1] - s;
    int64_t *l = P->lits + s, front = 0, satisfied = 0;
    for (int64_t q = 0; q < size; q++) {
        const int x = value(P, l[q]);
        if (x < 0) continue;
        const int64_t t = l[front];
        l[front] = l[q], l[q] = t;
        if (x > 0 && !satisfied) { /* true at the root for ever: watched first */
            const int64_t u = l[0];
            l[0] = l[front], l[front] = u;
            satisfied = 1;
        }
        front++;
    }
    if (size >= 2) watch(P, l[0], c), watch(P, l[1], c);
    if (satisfied) return -1;
    if (front == 0) return c;
    if (front > 1) return -1;
    int64_t from = P->size;
    assign(P, l[0], c);
    return propagate(P, from);
}

#define POLL_WORK 16384 /* literals assigned between two polls */

int lrat_write(const int32_t *flits, const int64_t *offsets, int64_t m, int64_t nvars,
               const int64_t *lemmas, int64_t nlemmas, char **text, int64_t *text_len,
               int64_t *failed, Poll *poll) {
    int status = -1;
    *failed = -1;
    int64_t nl = 0; /* lemmas up to the first empty clause */
    for (int64_t i = 0; i < nlemmas; i++)
        if (lemmas[i] == 0) {
            nl++;
            if (i == 0 || lemmas[i - 1] == 0) break;
        }
    const int64_t n = m + nl, flen = offsets[m];
    int64_t lemma_lits = 0;
    for (int64_t i = 0, k = 0; k < nl; i++) {
        if (lemmas[i] == 0) k++;
        else lemma_lits++;
    }
    Pass P = {nvars, n};
    int64_t *start = malloc(sizeof(int64_t) * (size_t)(n + 1));
    int64_t *lits = malloc(sizeof(int64_t) * (size_t)(flen + lemma_lits + 1));
    P.watch_start = calloc((size_t)(2 * nvars + 3), sizeof(int64_t));
    P.watch_len = calloc((size_t)(2 * nvars + 3), sizeof(int64_t));
    P.watch = malloc(sizeof(int64_t) * (size_t)(flen + lemma_lits + 1));
    P.val = calloc((size_t)nvars + 1, 1);
    P.reason = malloc(sizeof(int64_t) * (size_t)(nvars + 1));
    P.trail = malloc(sizeof(int64_t) * (size_t)(nvars + 1));
    P.assumed = calloc((size_t)nvars + 1, 1);
    P.mark = calloc((size_t)nvars + 1, 1);
    Ints hints = {0}, hint_at = {0}, dying = {0}; /* dying: lemmas last used by lemma k */
    uint8_t *needed = NULL;
    int64_t *last_use = NULL, *newid = NULL, *seen = NULL;
    Buf out = {0};
    if (!start || !lits || !P.watch_start || !P.watch_len || !P.watch || !P.val || !P.reason ||
        !P.trail || !P.assumed || !P.mark)
        goto done;
    /* the clauses copied with each literal once (two watches on one literal would miss
     * its unit): seen[code] is the clause, plus one, that last held the literal */
    seen = calloc((size_t)(2 * nvars + 2), sizeof(int64_t));
    if (!seen) goto done;
    int64_t at = 0;
    for (int64_t c = 0; c < m; c++) {
        start[c] = at;
        for (int64_t q = offsets[c]; q < offsets[c + 1]; q++)
            if (seen[code(flits[q])] != c + 1) seen[code(flits[q])] = c + 1, lits[at++] = flits[q];
    }
    start[m] = at;
    for (int64_t i = 0, c = m; c < m + nl; i++) {
        if (lemmas[i] == 0)
            start[++c] = at;
        else if (seen[code(lemmas[i])] != c + 1)
            seen[code(lemmas[i])] = c + 1, lits[at++] = lemmas[i];
    }
    P.start = start, P.lits = lits;
    /* each literal's watch list has room for every clause holding it */
    for (int64_t q = 0; q < at; q++) P.watch_start[code(lits[q]) + 1]++;
    for (int64_t k = 0; k < 2 * nvars + 2; k++) P.watch_start[k + 1] += P.watch_start[k];
    int64_t root_conflict = -1;
    for (int64_t d = 0; d < m && root_conflict < 0; d++) root_conflict = root_add(&P, d);
    if (push(&hint_at, 0) < 0) goto done;
    int64_t work = 0; /* literals assigned since the last poll */
    for (int64_t k = 0; k < nl; k++) {
        const int64_t d = m + k;
        /* Ctrl-C: a proof of millions of lemmas takes seconds.  One poll every POLL_WORK
         * literals assigned, not one a lemma: a lemma may propagate a whole formula, and
         * the poll reads the clock only once in many calls, so its calls must follow the
         * work */
        for (++work; work >= POLL_WORK; work -= POLL_WORK) /* polls in proportion to work */
            if (core_poll(poll)) {
                status = -3;
                goto done;
            }
        if (root_conflict >= 0) {
            if (analyse(&P, root_conflict, &hints) < 0) goto done;
        } else {
            const int64_t base = P.size;
            int64_t conflict = -1;
            int tautology = 0; /* l and -l: it follows at once, and no lemma rests on it */
            for (int64_t q = start[d]; q < start[d + 1]; q++) {
                int64_t l = lits[q], v = l < 0 ? -l : l;
                int x = value(&P, l);
                if (x > 0 && P.assumed[v]) tautology = 1;
                else if (x > 0 && conflict < 0) conflict = P.reason[v]; /* true at the root */
                else if (x == 0) assign(&P, -l, -1);
                P.assumed[v] = 1;
            }
            if (tautology) {
                for (int64_t q = start[d]; q < start[d + 1]; q++)
                    P.assumed[lits[q] < 0 ? -lits[q] : lits[q]] = 0;
                while (P.size > base) P.val[llabs(P.trail[--P.size])] = 0;
                root_conflict = root_add(&P, d);
                if (push(&hint_at, hints.len) < 0) goto done;
                continue;
            }
            if (conflict < 0) conflict = propagate(&P, base);
            if (conflict < 0) {
                *failed = k;
                status = -2;
                goto done;
            }
            work += P.size - base;
            int r = analyse(&P, conflict, &hints);
            for (int64_t q = start[d]; q < start[d + 1]; q++)
                P.assumed[lits[q] < 0 ? -lits[q] : lits[q]] = 0;
            while (P.size > base) P.val[llabs(P.trail[--P.size])] = 0;
            if (r < 0) goto done;
            root_conflict = root_add(&P, d);
        }
        if (push(&hint_at, hints.len) < 0) goto done;
    }
    if (nl == 0 || start[n] != start[n - 1]) { /* no empty clause: not a refutation */
        *failed = nl;
        status = -2;
        goto done;
    }
    /* keep what the empty clause rests on; delete each lemma after its last use */
    needed = calloc((size_t)nl, 1);
    last_use = malloc(sizeof(int64_t) * (size_t)nl);
    newid = malloc(sizeof(int64_t) * (size_t)nl);
    if (!needed || !last_use || !newid) goto done;
    needed[nl - 1] = 1;
    for (int64_t k = nl - 1; k >= 0; k--) {
        last_use[k] = -1;
        if (!needed[k]) continue;
        for (int64_t h = hint_at.at[k]; h < hint_at.at[k + 1]; h++)
            if (hints.at[h] > m) needed[hints.at[h] - m - 1] = 1;
    }
    int64_t next = m;
    for (int64_t k = 0; k < nl; k++) {
        newid[k] = needed[k] ? ++next : 0;
        if (!needed[k]) continue;
        for (int64_t h = hint_at.at[k]; h < hint_at.at[k + 1]; h++)
            if (hints.at[h] > m) last_use[hints.at[h] - m - 1] = k;
    }
    for (int64_t k = 0; k < nl; k++) {
        if (!needed[k]) continue;
        const int64_t d = m + k;
        if (put_int(&out, newid[k], ' ') < 0) goto done;
        for (int64_t q = start[d]; q < start[d + 1]; q++)
            if (put_int(&out, lits[q], ' ') < 0) goto done;
        if (put(&out, "0 ", 2) < 0) goto done;
        dying.len = 0;
        for (int64_t h = hint_at.at[k]; h < hint_at.at[k + 1]; h++) {
            int64_t id = hints.at[h];
            if (id > m) {
                if (last_use[id - m - 1] == k && push(&dying, newid[id - m - 1]) < 0) goto done;
                id = newid[id - m - 1];
            }
            if (put_int(&out, id, ' ') < 0) goto done;
        }
        if (put(&out, "0\n", 2) < 0) goto done;
        if (dying.len && k < nl - 1) {
            if (put_int(&out, newid[k], ' ') < 0 || put(&out, "d ", 2) < 0) goto done;
            for (int64_t i = 0; i < dying.len; i++)
                if (put_int(&out, dying.at[i], ' ') < 0) goto done;
            if (put(&out, "0\n", 2) < 0) goto done;
        }
    }
    *text = out.at;
    *text_len = out.len;
    out.at = NULL;
    status = 0;
done:
    free(start), free(lits), free(P.watch_start), free(P.watch_len), free(P.watch), free(P.val);
    free(P.reason), free(P.trail), free(P.assumed), free(P.mark), free(hints.at);
    free(hint_at.at), free(dying.at), free(needed), free(last_use), free(newid), free(out.at);
    free(seen);
    return status;
}
