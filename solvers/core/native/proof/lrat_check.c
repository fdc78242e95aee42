/* The LRAT checker (lrat_check.h): the independent check of `solvers check` on an LRAT
 * proof, sharing no code with the writer (lrat_write.c).
 *
 * A lemma `ID LITERALS 0 HINTS 0` is checked by assigning its literals false, then
 * reading its hints in order: each names a live clause that is unit (all literals but
 * one false: that one becomes true) or falsified (the lemma follows; the rest of the
 * hints are not read).  The assignment is stamped per lemma, so a check costs the
 * lemma's literals and its hints' literals: linear in the proof.  A deletion `ID d IDS
 * 0` frees the clauses named.  Ids rise strictly, from above the formula's m clauses,
 * and each at most MAX_ID_STEP past the one before.  A clause has a slot: the formula's
 * clause i slot i, each lemma the next slot, found from its id by binary search over
 * the lemmas' ids (they rise), so memory follows the clauses read, not the ids' size.
 * A lemma's repeated literals are stored once.
 */
#include "lrat_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ID_STEP = 1 << 20 };

typedef struct Checker {
    int64_t m, nvars;
    int32_t *pool;           /* the clauses' literals */
    int64_t pool_len, pool_cap;
    /* per slot: its literals in pool (where -1: deleted, or no clause), its id */
    int64_t *where, *size, *id_of;
    int64_t slots, slots_cap, last_id;
    uint64_t *stamp;         /* per variable: stamp * 2 + (true) of the current lemma */
    uint64_t now;
    int32_t *lits;           /* the line's numbers */
    int64_t lits_cap;
} Checker;

/* The slot of clause `id` (formula ids are their slots; a lemma's by binary search), or
 * -1 when no clause read has that id. */
static int64_t slot_of(const Checker *C, int64_t id) {
    if (id <= 0) return -1;
    if (id <= C->m) return id;
    int64_t lo = C->m + 1, hi = C->slots - 1;
    while (lo <= hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (C->id_of[mid] == id) return mid;
        if (C->id_of[mid] < id) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Append clause `id` (above every id before it) in the next slot. */
static int add_clause(Checker *C, int64_t id, const int32_t *lits, int64_t n) {
    if (C->slots == C->slots_cap) {
        const int64_t cap = C->slots_cap ? 2 * C->slots_cap : 1024;
        int64_t *w = realloc(C->where, sizeof(int64_t) * (size_t)cap);
        if (!w) return -1;
        C->where = w;
        int64_t *s = realloc(C->size, sizeof(int64_t) * (size_t)cap);
        if (!s) return -1;
        C->size = s;
        int64_t *d = realloc(C->id_of, sizeof(int64_t) * (size_t)cap);
        if (!d) return -1;
        C->id_of = d;
        C->slots_cap = cap;
    }
    if (C->pool_len + n > C->pool_cap) {
        int64_t cap = C->pool_cap ? C->pool_cap : 1 << 16;
        while (cap < C->pool_len + n) cap *= 2;
        int32_t *p = realloc(C->pool, sizeof(int32_t) * (size_t)cap);
        if (!p) return -1;
        C->pool = p, C->pool_cap = cap;
    }
    if (n) memcpy(C->pool + C->pool_len, lits, sizeof(int32_t) * (size_t)n); /* lits may be NULL */
    const int64_t slot = C->slots++;
    C->where[slot] = C->pool_len;
    C->size[slot] = n;
    C->id_of[slot] = id;
    C->pool_len += n;
    return 0;
}

/* The text at q for an error message: at most 20 bytes, not past the line or the end
 * (the proof is a mapped file: nothing after its last byte may be read). */
static int shown(const char *q, const char *end) {
    int n = 0;
    while (n < 20 && q + n < end && q[n] != '\n') n++;
    return n;
}

/* 1 true, -1 false, 0 open under the current lemma's assignment. */
static int value(const Checker *C, int32_t lit) {
    const int64_t v = lit < 0 ? -(int64_t)lit : lit;
    const uint64_t s = C->stamp[v];
    if (s >> 1 != C->now) return 0;
    const int t = (int)(s & 1) ? 1 : -1;
    return lit < 0 ? -t : t;
}

static void set_true(Checker *C, int32_t lit) {
    const int64_t v = lit < 0 ? -(int64_t)lit : lit;
    C->stamp[v] = C->now << 1 | (uint64_t)(lit > 0);
}

/* Read the numbers of one line (from *at to its end) into C->lits; the count, or -1
 * with msg set.  Only signed decimal integers and blanks. */
static int64_t numbers(Checker *C, const char **at, const char *end, char *msg, int *is_d) {
    const char *p = *at;
    int64_t n = 0;
    *is_d = 0;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p >= end || *p == '\n') break;
        if (*p == 'd' && n == 1 && !*is_d) {
            *is_d = 1;
            p++;
            continue;
        }
        int neg = 0;
        if (*p == '-') neg = 1, p++;
        if (p >= end || *p < '0' || *p > '9') {
            snprintf(msg, 200, "not an integer: '%.*s'", shown(p - neg, end), p - neg);
            return -1;
        }
        int64_t x = 0;
        while (p < end && *p >= '0' && *p <= '9') {
            x = x * 10 + (*p - '0');
            if (x > INT32_MAX) {
                snprintf(msg, 200, "a number beyond 2^31 - 1");
                return -1;
            }
            p++;
        }
        if (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            snprintf(msg, 200, "not an integer: '%.*s'", shown(p, end), p);
            return -1;
        }
        if (n == C->lits_cap) {
            int64_t cap = C->lits_cap ? 2 * C->lits_cap : 256;
            int32_t *l = realloc(C->lits, sizeof(int32_t) * (size_t)cap);
            if (!l) {
                snprintf(msg, 200, "out of memory");
                return -1;
            }
            C->lits = l, C->lits_cap = cap;
        }
        C->lits[n++] = (int32_t)(neg ? -x : x);
    }
    while (p < end && *p != '\n') p++;
    *at = p < end ? p + 1 : p;
    return n;
}

#define POLL_WORK 16384 /* numbers read between two polls: about 50 us */

int lrat_check(const int32_t *flits, const int64_t *offsets, int64_t m, int64_t nvars,
               const char *text, int64_t len, LratVerdict *out, int64_t *line, char *msg,
               Poll *poll) {
    Checker C = {m, nvars};
    int status = -1;
    C.stamp = calloc((size_t)nvars + 1, sizeof(uint64_t));
    if (!C.stamp || add_clause(&C, 0, NULL, 0) < 0) goto nomem; /* slot 0: no clause */
    C.where[0] = -1;
    for (int64_t c = 0; c < m; c++)
        if (add_clause(&C, c + 1, flits + offsets[c], offsets[c + 1] - offsets[c]) < 0) goto nomem;
    C.last_id = m;
    memset(out, 0, sizeof(*out));
    const char *at = text, *end = text + len;
    *line = 0;
    int64_t work = 0; /* numbers read since the last poll */
    while (at < end) {
        /* Ctrl-C: a proof of gigabytes takes a minute.  One poll every POLL_WORK numbers
         * read, not one a line: a line may hold a million hints, and the poll reads the
         * clock only once in many calls, so its calls must follow the work */
        for (++work; work >= POLL_WORK; work -= POLL_WORK) /* polls in proportion to work */
            if (core_poll(poll)) {
                status = -3;
                goto done;
            }
        ++*line;
        const char *p = at;
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
        if (p >= end || *p == '\n' || *p == 'c') { /* blank or comment */
            while (p < end && *p != '\n') p++;
            at = p < end ? p + 1 : p;
            continue;
        }
        int is_d;
        const int64_t n = numbers(&C, &at, end, msg, &is_d);
        if (n < 0) goto refused;
        work += n;
        int32_t *x = C.lits; /* the lemma's literals are compacted in place */
        int64_t zeros = 0;
        for (int64_t i = 1; i < n; i++) zeros += x[i] == 0;
        if (!is_d && zeros == 1 && x[n - 1] == 0) {
            snprintf(msg, 200,
                     "one 0 on the line, where an LRAT lemma has two (literals, hints): a DRUP "
                     "proof? check it with --proof-format drup");
            goto refused;
        }
        if (n < 2 || x[n - 1] != 0) {
            snprintf(msg, 200, "the line does not end with 0");
            goto refused;
        }
        if (x[0] <= 0) {
            snprintf(msg, 200, "clause id %d: ids are positive", x[0]);
            goto refused;
        }
        if (is_d) {
            for (int64_t i = 1; i < n - 1; i++) {
                const int64_t slot = slot_of(&C, x[i]);
                if (slot < 0 || C.where[slot] < 0) {
                    snprintf(msg, 200, "deletion of %d, which names no clause", x[i]);
                    goto refused;
                }
                C.where[slot] = -1;
            }
            out->deletions++;
            continue;
        }
        int64_t zero = 1;
        while (zero < n && x[zero] != 0) zero++;
        if (zeros != 2) {
            snprintf(msg, 200, "%lld zeros on the line: an LRAT lemma has two (literals, hints)",
                     (long long)zeros);
            goto refused;
        }
        const int64_t id = x[0];
        if (out->empty) {
            snprintf(msg, 200, "lemma %lld after the empty clause", (long long)id);
            goto refused;
        }
        if (id <= C.last_id) {
            snprintf(msg, 200,
                     id <= m ? "id %lld is not above the formula's %lld clauses"
                             : "id %lld is not above the id before it (%lld): ids out of order",
                     (long long)id, (long long)(id <= m ? m : C.last_id));
            goto refused;
        }
        if (id - C.last_id > MAX_ID_STEP) {
            snprintf(msg, 200, "id %lld jumps more than %d past the id before it", (long long)id,
                     MAX_ID_STEP);
            goto refused;
        }
        C.now++;
        int conflict = 0;
        int64_t kept = 1; /* the lemma's distinct literals, compacted into x[1 .. kept) */
        for (int64_t i = 1; i < zero; i++) {
            if (x[i] < -nvars || x[i] > nvars) {
                snprintf(msg, 200, "literal %d names a variable beyond the formula's %lld", x[i],
                         (long long)nvars);
                goto refused;
            }
            /* x[i] true already: an earlier literal was its negation, a tautology, implied
             * at once; false already: a repeat (found by the stamps, so a wide lemma costs
             * its width, not its square) */
            const int v = value(&C, x[i]);
            if (v > 0) {
                conflict = 1;
            } else if (v == 0) {
                set_true(&C, -x[i]);
                x[kept++] = x[i];
            }
        }
        work += zero;
        for (int64_t h = zero + 1; h < n - 1 && !conflict; h++) {
            const int32_t hint = x[h];
            if (hint < 0) {
                snprintf(msg, 200, "hint %d of lemma %lld: RAT hints are not supported", hint,
                         (long long)id);
                goto refused;
            }
            const int64_t slot = hint >= id ? -1 : slot_of(&C, hint);
            if (slot < 0 || C.where[slot] < 0) {
                snprintf(msg, 200, "hint %d of lemma %lld names no clause", hint, (long long)id);
                goto refused;
            }
            /* the hint's literals are work too: a short line may name a wide clause */
            for (work += C.size[slot]; work >= POLL_WORK; work -= POLL_WORK)
                if (core_poll(poll)) {
                    status = -3;
                    goto done;
                }
            const int32_t *c = C.pool + C.where[slot];
            int64_t open = 0;
            int32_t last = 0;
            for (int64_t q = 0; q < C.size[slot]; q++) {
                const int v = value(&C, c[q]);
                if (v > 0) {
                    snprintf(msg, 200, "hint %d of lemma %lld is neither unit nor falsified (a "
                             "literal is true)", hint, (long long)id);
                    goto refused;
                }
                if (v == 0 && (open == 0 || c[q] != last)) open++, last = c[q]; /* distinct */
            }
            if (open == 0)
                conflict = 1;
            else if (open == 1)
                set_true(&C, last);
            else {
                snprintf(msg, 200, "hint %d of lemma %lld is neither unit nor falsified (%lld "
                         "literals open)", hint, (long long)id, (long long)open);
                goto refused;
            }
        }
        if (!conflict) {
            snprintf(msg, 200, "the hints of lemma %lld reach no conflict", (long long)id);
            goto refused;
        }
        if (add_clause(&C, id, x + 1, kept - 1) < 0) goto nomem;
        C.last_id = id;
        out->lemmas++;
        if (zero - 1 > out->widest) out->widest = zero - 1;
        if (zero == 1) out->empty = 1;
    }
    status = 0;
    goto done;
nomem:
    status = -2;
    goto done;
refused:
    status = -1;
done:
    free(C.pool), free(C.where), free(C.size), free(C.id_of), free(C.stamp), free(C.lits);
    return status;
}
