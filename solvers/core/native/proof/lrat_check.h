/* The LRAT checker (lrat_check.c), independent of the writer. */
#ifndef SUDOKU_LRAT_CHECK_H
#define SUDOKU_LRAT_CHECK_H

#include <stdint.h>

#include "poll.h"

typedef struct LratVerdict {
    int64_t lemmas, deletions, widest;
    int empty; /* the empty clause was derived */
} LratVerdict;

/* Check the LRAT text[0 .. len) against the m clauses flits[offsets[c] .. offsets[c + 1])
 * (ids 1..m, literals within nvars: the caller checked).  0 with *out filled; -1 when
 * the proof is refused at *line (1-based) for the reason in msg (200 bytes); -2 out of
 * memory; -3 when a signal handler raised at a poll (one every few thousand numbers
 * read: the exception is set). */
int lrat_check(const int32_t *flits, const int64_t *offsets, int64_t m, int64_t nvars,
               const char *text, int64_t len, LratVerdict *out, int64_t *line, char *msg,
               Poll *poll);

#endif
