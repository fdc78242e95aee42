/* The bit board of the exam's formula: its geometry and work arrays (Board), and the
 * table of one compiled variant of its kernels (BoardOps).
 *
 * Board layout (fsss2's idea, for any side N <= 64): one bit board per value, W 64-bit
 * words holding the N*N cells' bits (bit c: the value is still possible in cell c) and
 * then one bit per full house (bit N*N + h: the value is not yet placed in house h,
 * the house is still open for it), followed by one more W-word board `solved` (the
 * cells whose value has been placed, that is taken out of their peers).  A board is
 * BW = (N + 1) * W words; 9x9 is 81 + 27 = 108 bits, W = 2, BW = 20.
 */
#ifndef SUDOKU_BOARD_H
#define SUDOKU_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "depth_run.h"
#include "poll.h"
#include "status.h"

typedef uint64_t word;

/* Geometry and work arrays of one board (module.c builds it; the variants read it). */
typedef struct Board {
    int n;       /* side: N values, N*N cells */
    int cells;   /* N*N */
    int nh;      /* full houses (N cells each: their at-least-one clauses exist) */
    int W;       /* words per value board */
    int BW;      /* words per board: N value boards and `solved` */
    word *peers; /* cells x W: c's peers, and the bits of c's full houses */
    word *hmask; /* nh x W: the cells of house h */
    int *hlo;    /* nh: the first word of house h */
    int *hhi;    /* nh: one past its last word */
    int *chouse; /* cells x maxch: c's full houses */
    int *nch;    /* cells: how many */
    int maxch;
    word *cellmask; /* W: every cell bit */
    int HW;           /* words of a set of houses */
    word *allhouses;  /* HW: every full house */
    word *cellhouses; /* cells x HW: c's full houses */
    /* the pairs of full houses (a, b) sharing two cells or more (intersections.h):
     * a's number, the words lo .. hi - 1 holding a and b, and W words each of the cells
     * of a outside b (src) and of b outside a (dst) */
    int npairs;
    int32_t *pair_house, *pair_lo, *pair_hi;
    word *pair_src, *pair_dst;
    /* work arrays, grown for the deepest closure asked (core_board_room) */
    int room;          /* closures up to this depth fit */
    word *boards;      /* (room + 1) x BW: frame d tests its hypotheses on board d + 1 */
    word *passed;      /* room x 2 x N x W: literals known to pass, per frame and polarity */
    int64_t *frames;   /* room x NUM_COLUMNS */
    int keep;          /* witnesses kept per frame (0: none, see board_impl.h) */
    word *wit;         /* room x keep x BW: the closures of passing hypotheses */
    int32_t *witcode;  /* room x keep */
    /* counters */
    uint64_t work;        /* cells placed + hypotheses tested: the budget's clock */
    uint64_t hypotheses;  /* hypotheses tested */
    uint64_t conflicts;   /* hypotheses that failed, frames found contradictory, and
                             search branches that failed */
    uint64_t decisions;   /* search decisions */
    /* the search's stack (board_search.h): a board and a decision a level, grown as
     * needed; `stop`, the level of the last model, and `resumable`, set when the last
     * count of one grid stopped at its cap there (enumeration goes on from it) */
    word *stack;
    int32_t *sdec;
    int64_t scap, stop;
    int resumable;
    /* the proof log of a depth loop (log_layout.h; NULL: none): log_len slots, and grid
     * g's lemmas in log[log_at[g] .. log_at[g + 1]) */
    int64_t *log, log_len, *log_at;
} Board;

/* A count of models (board_search.h), one entry a grid: cap (< 0: none), budget (work
 * units a grid, < 0: none), limit_ns (each grid's opt-in time limit, 0: none),
 * lookahead (the depth of the closure at each node, 0: propagation alone),
 * intersections (1: each node also at the fixpoint of intersections.h's rule), resume (go
 * on from the last model of the one grid of the previous count), exclude (NULL, or per
 * grid a candidate removed before the search, c * 64 + v for "value v + 1 of cell c",
 * -1 for none: the solutions counted are those without it).  Answers: models,
 * status (STATUS_EXHAUSTED: every model counted; STATUS_FOUND: the cap reached;
 * STATUS_BUDGET, STATUS_TIME: stopped, a lower bound; STATUS_BAD: a value outside
 * 0..N), and when not NULL decisions, conflicts (branches that failed), work, ns, solutions (each grid's first model, cells
 * int8; 0s without one) and out (the first `room` models of the run, cells int8 each). */
typedef struct CountRun {
    const int8_t *grids;
    int64_t count, cap, budget, limit_ns;
    int lookahead, intersections, resume;
    const int32_t *exclude;
    int64_t *models;
    int8_t *status;
    int64_t *decisions, *conflicts, *work, *ns;
    int8_t *solutions, *out;
    int64_t room;
} CountRun;

/* Minimal puzzles by removal (board_search.h): grids (cells int8 each, a unique
 * puzzle or a full grid), orders (cells int32 each, a permutation of the cells) and a
 * budget per uniqueness test (< 0: none), the lookahead and intersections of its search
 * (CountRun's); out, the puzzles; tests, the counts made; over,
 * those the budget stopped (their given kept). */
typedef struct MinimalRun {
    const int8_t *grids;
    const int32_t *orders;
    int64_t count, budget;
    int lookahead, intersections;
    int8_t *out;
    int64_t *tests, *over;
} MinimalRun;

enum { F_POS = 0, F_QUIET = 1, F_HYP = 2, F_WIT = 3, NUM_COLUMNS = 4 };

/* One compiled variant of the board kernels (board_impl.h, per instruction set). */
typedef struct BoardOps {
    const char *name;
    /* propagate the givens of grids[g] (cells int8 each): ok[g] 1 fixpoint, 0
     * contradiction, -1 bad value; values[g] the cells placed (0 open) */
    int (*batch)(Board *, const int8_t *grids, int64_t count, int8_t *ok, int8_t *values,
                 Poll *);
    /* the closure of depth `depth` of the assumptions (DIMACS cell literals, checked
     * by the caller): STATUS_OPEN with the literals in out[0 .. *nout), STATUS_CONFLICT,
     * STATUS_INTERRUPT */
    int (*probe)(Board *, const int64_t *lits, int64_t nlits, int depth, int positive_only,
                 int64_t *out, int64_t *nout, Poll *);
    /* rate grids (a DepthRun's; a grid past its time limit is STATUS_TIME): STATUS_OPEN or
     * STATUS_INTERRUPT */
    int (*depths)(Board *, const DepthRun *, Poll *);
    /* count the models of grids (CountRun): STATUS_OPEN, STATUS_INTERRUPT or -1 when memory
     * ran out */
    int (*count)(Board *, const CountRun *, Poll *);
    /* minimal puzzles by removal (MinimalRun): as count */
    int (*minimal)(Board *, const MinimalRun *, Poll *);
} BoardOps;

extern const BoardOps board_ops_base;
#if defined(__x86_64__) && defined(__GNUC__)
#define CORE_X86_VARIANTS 1
extern const BoardOps board_ops_sse41;
extern const BoardOps board_ops_avx2;
#endif

#endif
