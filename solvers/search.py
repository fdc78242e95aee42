"""DPLL: complete backtracking search with unit propagation, counting and enumeration.

The search is the exam's closing remark taken to its end: nest hypotheses until every
variable is decided.  It is plain DPLL (chronological backtracking, no clause
learning, no restarts), because what the project measures is how much guessing a grid
needs, and DPLL's decisions and backtracks are easy to interpret.  At each node the
engine runs unit propagation, or the failed-literal closure of depth `probe_depth`, so
search with probing measures how many guesses remain once depth-k reasoning is used.

Branching: the lowest unassigned literal of the first shortest clause that is not yet
satisfied (for Sudoku: the cell, or the row/column/box place of a value, with the
fewest candidates), tried true first; when only binary clauses or free variables are
left, the lowest variable is tried false first, as MiniSat does.  Propagation reorders
literals inside clauses, so the choice never depends on positions: the same question
gets the same decisions whatever the engine answered before.

The decision stack is MiniSat's trail_lim; `flipped[d]` says whether level d's
decision has already been reversed, which is all chronological backtracking needs.
The search keeps its state between calls, so after a model the next call with
`next_model=True` backtracks from it and finds the next one: enumeration without
blocking clauses.  For the same reason it can pause at the start of a node (or inside
a node's closure) when its slice of work runs out (st[PAUSE_AT], see propagate.py) and
be resumed with `resume=True`: the few counters it keeps in locals are saved in st.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.literals import to_codes
from solvers.probe import closure
from solvers.proof_log import log_lemma, set_base
from solvers.propagate import (
    BACKTRACKS,
    BAD_LITERAL,
    CONFLICTS,
    DECISIONS,
    DLEVEL,
    EXHAUSTED,
    FOUND,
    NO_CONFLICT,
    NO_MEMORY,
    OUT_OF_BUDGET,
    PAUSE_AT,
    PAUSED,
    PROPAGATIONS,
    REASON_DECISION,
    SEARCH_BASE,
    SEARCH_DECISIONS,
    SEARCH_IN_CLOSURE,
    SEARCH_MODELS,
    assume,
    cancel_until,
    check_literals,
    enqueue,
    model_dimacs,
    new_decision_level,
    propagate,
)

# What search returns: FOUND, EXHAUSTED, OUT_OF_BUDGET or PAUSED (the slice of work ran
# out, call again with resume=True), status codes declared with every kernel's in
# propagate.py.


@njit(cache=True)
def pick_branch(F, S):
    """Return the literal to decide next, or -1 when every variable is assigned."""
    lits, cstart = F.lits, F.cstart
    bstart, bimp = F.bstart, F.bimp
    value = S.value
    best = -1
    best_size = 1 << 30
    for c in range(cstart.shape[0] - 1):
        size = 0
        first = -1
        satisfied = False
        for k in range(cstart[c], cstart[c + 1]):
            val = value[lits[k]]
            if val == 1:
                satisfied = True
                break
            if val == 0:
                size += 1
                if first < 0 or lits[k] < first:
                    first = lits[k]
        if not satisfied and size < best_size:
            best, best_size = first, size
            if size <= 2:  # after propagation no open clause is shorter
                break
    if best >= 0:
        return best
    nlits = value.shape[0]
    for lit in range(nlits):  # an open binary clause (¬lit ∨ q): try ¬lit first
        if value[lit] == 0:
            for i in range(bstart[lit], bstart[lit + 1]):
                if value[bimp[i]] == 0:
                    return lit ^ 1
    for v in range(nlits // 2):  # free variables, false first
        if value[2 * v] == 0:
            return 2 * v + 1
    return -1


@njit(cache=True)
def search(
    F,
    S,
    flipped,
    passed,
    frames,
    base,
    max_models,
    budget,
    probe_depth,
    positive_only,
    next_model,
    log,
    resume,
):
    """Run DPLL above decision level `base`; return (FOUND | EXHAUSTED | OUT_OF_BUDGET |
    PAUSED, models).

    Stops after max_models models (FOUND, the assignment holds the last model), when
    none is left (EXHAUSTED, state back at `base`), before the decision that would
    exceed `budget`, or when the slice runs out (PAUSED; call again with resume=True
    and the same arguments); max_models < 0 or budget < 0: unlimited.  With
    next_model=True the current assignment (a model returned by the previous call) is
    first backtracked from.  Until a model is found, every conflict and every closed
    branch is written to `log` as a lemma (solvers.proof_log; length 0: nothing
    recorded): the proof that no model lies above `base` when the search is EXHAUSTED."""
    trail, trail_lim, st = S.trail, S.trail_lim, S.st
    in_closure = False
    if resume:
        models = st[SEARCH_MODELS]
        decisions = st[SEARCH_DECISIONS]
        in_closure = st[SEARCH_IN_CLOSURE] != 0
        backtrack = False
    else:
        models = 0
        decisions = 0
        backtrack = next_model
    while True:
        if not backtrack:
            # A node starts here with its literals enqueued: a safe place to pause.
            if st[PROPAGATIONS] >= st[PAUSE_AT] and not in_closure:
                confl = PAUSED
            elif probe_depth > 0:
                confl = closure(F, S, probe_depth, positive_only, passed, frames, in_closure, log)
                in_closure = confl == PAUSED
            else:
                confl = propagate(F, S)
            if confl == PAUSED:
                st[SEARCH_MODELS] = models
                st[SEARCH_DECISIONS] = decisions
                st[SEARCH_IN_CLOSURE] = 1 if in_closure else 0
                return PAUSED, models
            ok = confl == NO_CONFLICT
            if not ok:
                st[CONFLICTS] += 1
                if models == 0:
                    log_lemma(log, S, st[DLEVEL], -1)
                backtrack = True
            else:
                lit = pick_branch(F, S)
                if lit < 0:
                    models += 1
                    if max_models >= 0 and models >= max_models:
                        return FOUND, models
                    backtrack = True  # look for the next model
                else:
                    if budget >= 0 and decisions >= budget:
                        return OUT_OF_BUDGET, models
                    decisions += 1
                    st[DECISIONS] += 1
                    new_decision_level(S)
                    flipped[st[DLEVEL]] = 0
                    enqueue(S, lit, REASON_DECISION)
                    continue
        # Chronological backtracking: reverse the deepest decision not yet reversed.
        backtrack = False
        lvl = st[DLEVEL]
        while lvl > base and flipped[lvl] == 1:
            if models == 0:  # both branches of level lvl failed
                log_lemma(log, S, lvl - 1, -1)
            lvl -= 1
        if lvl <= base:
            cancel_until(S, base)
            return EXHAUSTED, models
        decision = trail[trail_lim[lvl - 1]]
        cancel_until(S, lvl - 1)
        st[BACKTRACKS] += 1
        new_decision_level(S)
        flipped[lvl] = 1
        enqueue(S, decision ^ 1, REASON_DECISION)


@njit(cache=True)
def start(F, S, dimacs):
    """Enqueue the assumptions and open the search's base level; return (status, base).

    status is NO_CONFLICT, BAD_LITERAL or a conflict code (then the state is at level 0)."""
    num_vars = S.level.shape[0]
    if not check_literals(dimacs, num_vars):
        return BAD_LITERAL, 0
    confl = assume(F, S, to_codes(dimacs))
    if confl != NO_CONFLICT:
        cancel_until(S, 0)
        return confl, 0
    new_decision_level(S)  # an empty level: facts derived by probing sit above the root
    return NO_CONFLICT, S.st[DLEVEL]


@njit(cache=True)
def begin(F, S, passed, frames, dimacs, probe_depth, resume):
    """Start a search for an entry point, or find the paused one; return (status, base)."""
    st = S.st
    if resume:
        return NO_CONFLICT, st[SEARCH_BASE]
    if passed.shape[0] < probe_depth or frames.shape[0] < probe_depth:
        return NO_MEMORY, 0
    status, base = start(F, S, dimacs)
    st[SEARCH_BASE] = base
    return status, base


@njit(cache=True)
def solve_kernel(
    F, S, flipped, passed, frames, dimacs, budget, probe_depth, positive_only, log, resume
):  # fmt: skip
    """Entry point of Engine.solve: return (status, search result, model or empty array).

    A PAUSED search keeps its state, for a call with resume=True.  The lemmas of an
    EXHAUSTED search go to `log` (solvers.proof_log), the assumptions counting as unit
    clauses."""
    status, base = begin(F, S, passed, frames, dimacs, probe_depth, resume)
    if status != NO_CONFLICT:
        return status, EXHAUSTED, np.empty(0, np.int64)
    set_base(log, base)
    result, _ = search(
        F, S, flipped, passed, frames, base, 1, budget, probe_depth, positive_only, False, log,
        resume,
    )  # fmt: skip
    if result == PAUSED:
        return status, result, np.empty(0, np.int64)
    model = model_dimacs(S) if result == FOUND else np.empty(0, np.int64)
    cancel_until(S, 0)
    return status, result, model


@njit(cache=True)
def count_kernel(F, S, flipped, passed, frames, dimacs, limit, budget, resume):
    """Entry point of Engine.count: return (status, search result, number of models).

    A PAUSED search keeps its state, for a call with resume=True."""
    status, base = begin(F, S, passed, frames, dimacs, 0, resume)
    if status != NO_CONFLICT:
        return status, EXHAUSTED, 0
    no_log = np.zeros(0, np.int64)  # counting finds models: its lemmas would prove nothing
    result, models = search(
        F, S, flipped, passed, frames, base, limit, budget, 0, False, False, no_log, resume
    )
    if result != PAUSED:
        cancel_until(S, 0)
    return status, result, models
