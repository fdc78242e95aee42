/* The poll that lets a kernel running without the GIL see Ctrl-C and the time limit's
 * signal: linked into every extension of the core.  A kernel releases the GIL
 * (core_release), calls core_poll at its hypothesis boundaries and between grids, and
 * takes the GIL back (core_reacquire); every POLL_EVERY polls the clock is read, and at
 * most every POLL_NS the GIL is taken for PyErr_CheckSignals, so a signal handler that
 * raises ends the kernel within a few tens of milliseconds (STATUS_INTERRUPT, the
 * exception set).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <time.h>

#include "poll.h"

#define POLL_EVERY 64            /* core_poll calls between two looks at the clock */
#define POLL_NS (20 * 1000000LL) /* signals checked at most every 20 ms */

int64_t core_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int core_poll_slow(Poll *poll) {
    poll->countdown = POLL_EVERY;
    int64_t now = core_now_ns();
    if (now - poll->last_ns < POLL_NS) return 0;
    poll->last_ns = now;
    PyEval_RestoreThread((PyThreadState *)poll->thread);
    int raised = PyErr_CheckSignals();
    poll->thread = PyEval_SaveThread();
    if (raised) poll->interrupted = 1;
    return raised != 0;
}

void core_release(Poll *poll) {
    poll->countdown = 1;
    poll->last_ns = core_now_ns() - POLL_NS; /* the first poll looks at signals */
    poll->interrupted = 0;
    poll->thread = PyEval_SaveThread();
}

void core_reacquire(Poll *poll) { PyEval_RestoreThread((PyThreadState *)poll->thread); }
