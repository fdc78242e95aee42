/* The proof log: where the closures and the search write the lemmas they learn, in the
 * layout of solvers/core/proof_log.py (that module's docstring says why each lemma is a RUP
 * step), so that Python reads a log the same whichever engine wrote it.
 *
 * The log is a flat int64 array the caller owns: log[LOG_HEAD] the next free slot,
 * log[LOG_BASE] the decision level above which levels are hypotheses or decisions (the
 * levels at and below it hold assumptions), log[LOG_MARK + d] where frame d's
 * hypothesis began, and from LOG_FIRST on the lemmas as DIMACS literals, each closed by
 * 0.  A full log keeps counting in log[LOG_HEAD] without writing, so the caller sees
 * that it needs a bigger one.  No log (NULL) records nothing: one test per learnt fact.
 */
#ifndef SUDOKU_PROOF_LOG_H
#define SUDOKU_PROOF_LOG_H

#include "clauses.h"
#include "codes.h"
#include "log_layout.h"

static inline void log_put(Clauses *F, int64_t *head, int64_t value) {
    if (*head >= 0 && *head < F->log_len) F->log[*head] = value; /* head: the caller's */
    (*head)++;
}

/* Append the lemma: the negated first literal (the decision or hypothesis) of each level
 * log[LOG_BASE] + 1 .. upto, then the literal `code` unless it is negative. */
static inline void log_lemma(Clauses *F, int32_t upto, int32_t code) {
    if (!F->log) return;
    int64_t head = F->log[LOG_HEAD];
    /* the base level is the caller's array too: a negative one would index before
     * trail_lim (levels above `upto` are not read at all) */
    int64_t base = F->log[LOG_BASE] > 0 ? F->log[LOG_BASE] : 0;
    for (int64_t level = base + 1; level <= upto; level++) {
        int32_t decision = F->trail[F->trail_lim[level - 1]] ^ 1;
        log_put(F, &head, code_lit(decision));
    }
    if (code >= 0) log_put(F, &head, code_lit(code));
    log_put(F, &head, 0);
    F->log[LOG_HEAD] = head;
}

/* Remember where the lemmas of frame `frame`'s new hypothesis begin. */
static inline void log_mark(Clauses *F, int frame) {
    if (F->log && frame < LOG_MARKED_FRAMES) F->log[LOG_MARK + frame] = F->log[LOG_HEAD];
}

/* Drop the lemmas learnt under frame `frame`'s hypothesis, which passed: they prove
 * nothing the answer needs. */
static inline void log_forget(Clauses *F, int frame) {
    if (F->log && frame < LOG_MARKED_FRAMES) F->log[LOG_HEAD] = F->log[LOG_MARK + frame];
}

#endif
