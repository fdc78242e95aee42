/* DRUP lemmas to LRAT (lrat_write.c). */
#ifndef SUDOKU_LRAT_WRITE_H
#define SUDOKU_LRAT_WRITE_H

#include <stdint.h>

#include "poll.h"

/* The LRAT text of a refutation of the m clauses flits[offsets[c] .. offsets[c + 1])
 * (ids 1..m; literals within nvars, checked by the caller) by the flat lemmas (each
 * closed by 0, up to the first empty clause): each lemma kept with its hints, ids
 * m + 1 on, the lemmas the empty clause does not rest on left out, each deleted after
 * its last use.  0 with a malloc'd *text of *text_len bytes; -1 out of memory; -2 when
 * lemma *failed (0-based; the number of lemmas when none is empty) does not follow by
 * unit propagation; -3 when a signal handler raised at a poll (one every few thousand
 * literals assigned: the exception is set). */
int lrat_write(const int32_t *flits, const int64_t *offsets, int64_t m, int64_t nvars,
               const int64_t *lemmas, int64_t nlemmas, char **text, int64_t *text_len,
               int64_t *failed, Poll *poll);

#endif
