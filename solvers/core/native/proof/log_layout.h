/* The proof log's layout, shared by the clause engine (proof_log.h) and the board
 * (board_impl.h): the slots of the header of the flat int64 array the caller owns, as
 * solvers/core/proof_log.py describes it.  Only the numbers live here, so that the
 * board's kernels need nothing of the clause engine's. */
#ifndef SUDOKU_LOG_LAYOUT_H
#define SUDOKU_LOG_LAYOUT_H

enum { LOG_HEAD = 0, LOG_BASE = 1, LOG_MARK = 2, LOG_MARKED_FRAMES = 16 };
enum { LOG_FIRST = LOG_MARK + LOG_MARKED_FRAMES };

#endif
