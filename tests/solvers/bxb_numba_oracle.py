"""BxB's numba kernels as they were before their C port (solvers/core/bxb.c), kept as
the oracle of tests/solvers/test_core_length_numba.py while numba exists: the same
code but the clock, which here has passed when the deadline is negative."""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers import length_kernels as K
from solvers.core.length import (
    BUDGET,
    CLOCK_EVERY,
    CONTRADICTION,
    ELIMINATED,
    HYPOTHESES,
    NO_CONFLICT,
    OUT_OF_BUDGET,
    OUT_OF_TIME,
    REASON_DECISION,
    SEARCHES,
    SKIPPED,
    SOLVED,
    STUCK,
)


@njit(cache=True)
def braid_closure(F, occ, T, X, num_candidates, limit, deadline, work):
    """Apply B_limit to the untracked state T: eliminate every open candidate whose
    shortest refutation has length <= limit, propagating after each, until none is
    left.  Return (status, next): status SOLVED, CONTRADICTION, STUCK, OUT_OF_BUDGET
    (before a search past the budget, work[BUDGET]) or OUT_OF_TIME (the clock is read
    every CLOCK_EVERY refutations; `deadline` is a solvers.limits.clock()
    value, inf for none); next the shortest refutation left, the smallest limit at
    which B would eliminate more (more than all constraints when none is left)."""
    value = T.value
    unbounded = K.num_constraints(F)  # no refutation is longer than all constraints
    # Round and round the candidates until a whole turn since the last elimination
    # eliminated nothing (a candidate is only refuted again after the state changed);
    # the lengths found in that quiet turn are those of the final state (a search
    # bounded by `limit` says limit + 1 for longer ones: the state moves again no
    # sooner than that).
    quiet = 0  # candidates looked at since the last elimination
    shortest_left = unbounded + 1
    v = 0
    while quiet < num_candidates:
        quiet += 1
        if value[2 * v] == 0:
            if work[SEARCHES] >= work[BUDGET]:
                return OUT_OF_BUDGET, shortest_left
            # (the oracle's clock: a negative deadline has passed, any other has not)
            if work[SEARCHES] % CLOCK_EVERY == 0 and deadline < 0:
                return OUT_OF_TIME, shortest_left
            work[SEARCHES] += 1
            length = K.shortest_refutation(F, occ, T, X, 2 * v, limit)
            if length <= limit:
                work[ELIMINATED] += 1
                if K.eliminate(F, occ, T, 2 * v + 1) != NO_CONFLICT:
                    return CONTRADICTION, shortest_left
                quiet = 0
                shortest_left = unbounded + 1
            elif length < shortest_left:
                shortest_left = length
        v = v + 1 if v + 1 < num_candidates else 0
    return (SOLVED if K.solved(T, num_candidates) else STUCK), shortest_left


@njit(cache=True)
def _within(T, saved):
    """Return True when every fact of T is a fact of the saved values."""
    value = T.value
    for lit in range(value.shape[0]):  # noqa: SIM110 (numba compiles no generator in all())
        if value[lit] == 1 and saved[lit] != 1:
            return False
    return True


@njit(cache=True)
def _try_hypothesis(F, occ, T, U, X, num_candidates, v, limit, deadline, memo, codes, cones, work):
    """Apply B_limit under candidate v (open in T) in the workspace U; return (status,
    next) as `braid_closure` (CONTRADICTION: v is refuted).

    With `memo` (rows of a Memo, see BxbRater) the hypothesis's last state is resumed:
    its facts follow from the present T and v too, and B_limit is confluent, so the
    result is the same.  When T has no fact the saved state lacks, the state is the
    saved one, and if its next limit is beyond `limit` nothing is tried at all."""
    saved, next_limit, has_saved = memo
    resume = saved.shape[0] > 0
    if resume and has_saved[v] and next_limit[v] > limit and _within(T, saved[v]):
        work[SKIPPED] += 1
        return STUCK, next_limit[v]
    work[HYPOTHESES] += 1
    K.copy_facts(T, U)
    codes[0] = 2 * v
    k = 1
    if resume and has_saved[v]:
        value = T.value
        for lit in range(value.shape[0]):
            if saved[v, lit] == 1 and value[lit] == 0 and lit != 2 * v:
                codes[k] = lit
                k += 1
    if K.assert_facts(F, occ, U, codes[:k], cones[:k], REASON_DECISION) != NO_CONFLICT:
        return CONTRADICTION, 0
    status, shortest_left = braid_closure(F, occ, U, X, num_candidates, limit, deadline, work)
    if resume and status in (STUCK, SOLVED):
        saved[v, :] = U.value
        next_limit[v] = shortest_left
        has_saved[v] = True
    return status, shortest_left


@njit(cache=True)
def trial_and_error(F, occ, T, U, X, num_candidates, limit, deadline, true_somewhere, memo, work):
    """Apply T&E(B_limit) to the untracked state T, with U (an untracked state of the
    same formula) as the hypotheses' workspace: B_limit on T, then each open candidate
    z as a hypothesis, eliminated from T when B_limit under z reaches a contradiction,
    until the grid is solved or a whole turn eliminates nothing.  Candidates with
    `true_somewhere[v]` (true in a solution) are not tried: sound rules never refute
    them.  `memo` keeps the hypotheses' states between calls for one grid.

    Return (status, next): status SOLVED, CONTRADICTION, STUCK or OUT_OF_TIME; next
    the smallest limit at which T&E would move again (every limit between `limit` and
    it gets STUCK at once)."""
    codes = np.zeros(T.value.shape[0], np.int32)
    cones = np.zeros(T.value.shape[0], np.int32)
    status, outer_next = braid_closure(F, occ, T, X, num_candidates, limit, deadline, work)
    if status != STUCK:
        return status, outer_next
    value = T.value
    # Hypotheses whose saved state is closest to moving first: the sooner the turn's
    # eliminations come, the shorter the quiet turn after the last one.
    saved, _, has_saved = memo
    closeness = np.zeros(num_candidates, np.int64)  # open candidates in the saved state
    if saved.shape[0] > 0:
        for v in range(num_candidates):
            if has_saved[v]:
                for y in range(num_candidates):
                    closeness[v] += saved[v, 2 * y] == 0
    order = np.argsort(closeness, kind="mergesort")
    quiet = 0  # hypotheses looked at since the last elimination
    shortest_left = outer_next
    at = 0
    while quiet < num_candidates:
        quiet += 1
        v = order[at]
        at = at + 1 if at + 1 < num_candidates else 0
        if value[2 * v] == 0 and not true_somewhere[v]:
            inner, inner_next = _try_hypothesis(
                F, occ, T, U, X, num_candidates, v, limit, deadline, memo, codes, cones, work
            )
            if inner in (OUT_OF_TIME, OUT_OF_BUDGET):
                return inner, shortest_left
            if inner == CONTRADICTION:
                if K.eliminate(F, occ, T, 2 * v + 1) != NO_CONFLICT:
                    return CONTRADICTION, shortest_left
                status, outer_next = braid_closure(
                    F, occ, T, X, num_candidates, limit, deadline, work
                )
                if status != STUCK:
                    return status, outer_next
                quiet = 0
                shortest_left = outer_next
            elif inner_next < shortest_left:
                shortest_left = inner_next
    return STUCK, shortest_left
