/* The poll that lets a kernel running without the GIL see Ctrl-C, and the core's clock
 * (poll.c): every extension's long kernels share it.
 */
#ifndef SUDOKU_POLL_H
#define SUDOKU_POLL_H

#include <stdint.h>

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

#endif
