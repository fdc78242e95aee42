/* The native core's shared declarations: the board's geometry and work arrays, the
 * clause engine's formula and state, the statuses, and the poll that lets a kernel
 * running without the GIL see Ctrl-C.
 *
 * Board layout (fsss2's idea, for any side N <= 64): one bit board per value, W 64-bit
 * words holding the N*N cells' bits (bit c: the value is still possible in cell c) and
 * then one bit per full house (bit N*N + h: the value is not yet placed in house h,
 * the house is still open for it), followed by one more W-word board `solved` (the
 * cells whose value has been placed, that is taken out of their peers).  A board is
 * BW = (N + 1) * W words; 9x9 is 81 + 27 = 108 bits, W = 2, BW = 20.
 */
#ifndef SUDOKU_CORE_H
#define SUDOKU_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef uint64_t word;

/* A kernel's result and a grid's outcome in a depth loop (solvers.core.DEPTH_*): the
 * names the board's and the clause engine's kernels read, each a value of the one
 * vocabulary (status.h). */
enum {
    CORE_OK = STATUS_OPEN,           /* at a fixpoint, no contradiction */
    CORE_CONFLICT = STATUS_CONFLICT, /* a contradiction */
    CORE_BUDGET = STATUS_BUDGET,     /* the grid's work budget ran out at a hypothesis boundary */
    CORE_TIME = STATUS_TIME,         /* the grid's opt-in time limit passed, seen at a poll */
    CORE_INTERRUPT = STATUS_INTERRUPT, /* a signal handler raised (Ctrl-C): the exception is set */
    DEPTH_OPEN = STATUS_OPEN,
    DEPTH_SAT = STATUS_SAT,
    DEPTH_UNSAT = STATUS_CONFLICT,
    DEPTH_BAD = STATUS_BAD,
    DEPTH_BUDGET = STATUS_BUDGET,
};

/* Signal polling: kernels run with the GIL released and call core_poll at hypothesis
 * boundaries and between grids; every POLL_EVERY calls it reads the clock, and every
 * POLL_NS it takes the GIL back for PyErr_CheckSignals (poll.c). */
typedef struct Poll {
    void *thread;        /* the PyThreadState saved when the GIL was released */
    uint32_t countdown;  /* calls left before the clock is read */
    int64_t last_ns;     /* when signals were last checked */
    int interrupted;     /* a signal handler raised: the exception is set */
} Poll;

int core_poll_slow(Poll *poll);
void core_release(Poll *poll);   /* release the GIL for a kernel (poll.c) */
void core_reacquire(Poll *poll); /* take it back */
static inline int core_poll(Poll *poll) {
    if (--poll->countdown) return 0;
    return core_poll_slow(poll);
}
/* 1 when the next core_poll reads the clock: a kernel with a time limit reads it then
 * too, so that the limit costs a clock reading only on the poll's cadence, and none
 * when no limit is set; core_poll_soon makes the next call read it. */
static inline int core_poll_due(const Poll *poll) { return poll->countdown == 1; }
static inline void core_poll_soon(Poll *poll) { poll->countdown = 1; }
int64_t core_now_ns(void); /* CLOCK_MONOTONIC, in ns */

/* Geometry and work arrays of one board (module.c builds it; the variants read it). */
typedef struct Geo {
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
} Geo;

enum { F_POS = 0, F_QUIET = 1, F_HYP = 2, F_WIT = 3, NUM_COLUMNS = 4 };

/* A depth loop's grids (cells int8 each) and its answers, one entry a grid: status,
 * depth, solutions (cells int8 a grid), work and ns; budget < 0: none; limit_ns, each
 * grid's opt-in time limit (0: none; the board's, the clause engine keeps its own in
 * Cnf). */
typedef struct DepthRun {
    const int8_t *grids;
    int64_t count;
    int max_depth, positive_only;
    int64_t budget;
    int8_t *status;
    int16_t *depth;
    int8_t *solutions;
    int64_t *work, *ns;
    int64_t limit_ns;
} DepthRun;

/* One compiled variant of the board kernels (board_impl.h, per instruction set). */
typedef struct BoardOps {
    const char *name;
    /* propagate the givens of grids[g] (cells int8 each): ok[g] 1 fixpoint, 0
     * contradiction, -1 bad value; values[g] the cells placed (0 open) */
    int (*batch)(Geo *, const int8_t *grids, int64_t count, int8_t *ok, int8_t *values,
                 Poll *);
    /* the closure of depth `depth` of the assumptions (DIMACS cell literals, checked
     * by the caller): CORE_OK with the literals in out[0 .. *nout), CORE_CONFLICT,
     * CORE_INTERRUPT */
    int (*probe)(Geo *, const int64_t *lits, int64_t nlits, int depth, int positive_only,
                 int64_t *out, int64_t *nout, Poll *);
    /* rate grids (a DepthRun's; a grid past its time limit is STATUS_TIME): CORE_OK or
     * CORE_INTERRUPT */
    int (*depths)(Geo *, const DepthRun *, Poll *);
} BoardOps;

extern const BoardOps board_ops_base;
#if defined(__x86_64__) && defined(__GNUC__)
#define CORE_X86_VARIANTS 1
extern const BoardOps board_ops_sse41;
extern const BoardOps board_ops_avx2;
#endif

#endif
