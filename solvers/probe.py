"""Failed-literal closure (the exam's `propagation2`), nested to any depth k.

Rule: for an unassigned literal l, if the hypothesis l leads to a contradiction then ¬l
holds.  `closure(k)` applies it until nothing changes, testing each hypothesis with
`closure(k - 1)` instead of plain unit propagation; `closure(0)` is unit propagation.
Depth 1 on the complete Sudoku encoding is Berthier's T&E(1), depth 2 is T&E(2).

The fixpoint is unique (every step only adds consequences of the formula, so the rule
is monotone), which is what makes these optimisations safe, independent of the order
in which hypotheses are tried:
- A hypothesis that passes marks every literal of its closure with the frame's current
  stamp; a marked literal is skipped, because if a passes and a implies b then b passes
  (the closure of b is inside the closure of a).  Learning a fact changes the formula,
  so a mark only keeps counting if its witness a (the hypothesis whose closure C showed
  it) still passes: when every new fact is already in C, the closure of a under the
  new facts is C itself (closures are monotone and idempotent), so a and all of C
  still pass and need no new test; the others are unmarked.  For that the table keeps
  each witness's closure as a bitset, in the frames whose hypotheses are tested with a
  closure (depth >= 1) of a formula of up to WITNESS_LITERALS literals.  Elsewhere the
  test is a single propagation, cheaper than the bookkeeping: learning a fact gives the
  frame a new stamp and every mark stops counting.
  Stamps grow for ever (st[STAMP]), so the mark table is never cleared.
- Candidates are visited round-robin and a frame stops after a full round in which
  nothing was learnt, instead of restarting from the first variable after each fact.

Recursion is an explicit stack of frames (numba compiles no recursive closure with
`cache=True` reliably, and the stack bounds the nesting exactly): frame d tests
hypotheses at decision level frames[d, LEVEL] + 1 with depth k - d - 1 left, and its
derived facts are enqueued at its own level, so cancelling the hypothesis level undoes
only the hypothesis.

The frames live in an array the caller owns, so that the closure can pause between
two hypotheses (st[PAUSE_AT], see propagate.py) and be resumed: at that point the
trail is propagated at frames[top, LEVEL] and everything else is in the frames, the
marks and the state.  A depth-3 closure of one hard grid runs for seconds, and Ctrl-C
must not wait for it.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from solvers.literals import cell_value, cell_var, to_code, to_codes, to_dimacs
from solvers.proof_log import HEAD, forget_hypothesis, log_lemma, mark_hypothesis, set_base
from solvers.propagate import (
    BAD_LITERAL,
    CLOSURE_TOP,
    CONFLICT_CLOSURE,
    CONFLICTS,
    DLEVEL,
    NO_CONFLICT,
    NO_MEMORY,
    PAUSE_AT,
    PAUSED,
    PROBES,
    PROPAGATIONS,
    REASON_DECISION,
    REASON_PROBE,
    STAMP,
    TRAIL_SIZE,
    assume,
    cancel_until,
    check_literals,
    enqueue,
    new_decision_level,
    propagate,
    trail_dimacs,
)

# Columns of the frame stack.
LEVEL = 0  # decision level the frame derives facts at
POS = 1  # next candidate index (round-robin)
QUIET = 2  # candidates looked at since the frame last learnt a fact
FSTAMP = 3  # the frame's current stamp for the passed marks
HYP = 4  # the hypothesis being tested one level up
NUM_COLUMNS = 5

# Rows of the mark table `passed` (one such table per frame): per literal, the stamp of
# its pass, the hypothesis whose closure showed it passes (its witness), and, as a
# hypothesis, its closure as a bitset (64 literals a word), when the table has them.
MARK = 0
OWNER = 1
CLOSURE = 2
WITNESS_LITERALS = 8192  # formulas of more literals keep no closures (memory: n^2 bits)


def mark_rows(num_literals):
    """Return the rows of the mark table for a formula of `num_literals` literals."""
    if num_literals > WITNESS_LITERALS:
        return CLOSURE
    return CLOSURE + (num_literals + 63) // 64


@njit(cache=True)
def _open_frame(frames, d, st):
    frames[d, LEVEL] = st[DLEVEL]
    frames[d, POS] = 0
    frames[d, QUIET] = 0
    st[STAMP] += 1
    frames[d, FSTAMP] = st[STAMP]


@njit(cache=True)
def _keep_witnessed(marks, stamp, trail, start, stop):
    """After facts trail[start:stop] were learnt, unmark every literal whose witness's
    closure lacks one of them (see the module docstring); the others still pass."""
    for lit in range(marks.shape[1]):
        if marks[MARK, lit] != stamp:
            continue
        owner = marks[OWNER, lit]
        for i in range(start, stop):
            fact = trail[i]
            if not (marks[CLOSURE + (fact >> 6), owner] >> (fact & 63)) & 1:
                marks[MARK, lit] = 0
                break


@njit(cache=True)
def closure(F, S, depth, positive_only, passed, frames, resume, log):
    """Close the current level under the failed-literal rule of the given depth.

    Return NO_CONFLICT if no contradiction was found; the derived literals then stay on
    the trail at the current level (reason REASON_PROBE for the failed-literal facts)
    and no unassigned candidate fails at depth `depth`.  Return CONFLICT_CLOSURE on a
    contradiction (the trail is left for the caller to cancel), or PAUSED when the
    slice ran out (call again with resume=True and the same arguments).  Candidates
    are every literal, or the positive ones only if positive_only.  `passed` needs at
    least `depth` rows of 2*num_vars stamps, `frames` `depth` rows of NUM_COLUMNS.
    Each failed literal is written to `log` as a lemma (solvers.proof_log; a log of
    length 0 records nothing)."""
    value, trail, trail_lim, st = S.value, S.trail, S.trail_lim, S.st
    keeps_closures = passed.shape[1] > CLOSURE
    if resume:
        top = st[CLOSURE_TOP]
    else:
        if propagate(F, S) != NO_CONFLICT:
            return CONFLICT_CLOSURE
        if depth <= 0:
            return NO_CONFLICT
        top = 0
        _open_frame(frames, 0, st)
    step = 2 if positive_only else 1
    ncand = value.shape[0] // step
    while True:
        # Here the trail is propagated at level frames[top, LEVEL]: a safe place to pause.
        # Every hypothesis propagates at least itself, so a slice always makes progress.
        if st[PROPAGATIONS] >= st[PAUSE_AT]:
            st[CLOSURE_TOP] = top
            return PAUSED
        # Find the next candidate of frame `top` that is unassigned and not yet known to pass.
        lit = -1
        while frames[top, QUIET] < ncand:
            c = frames[top, POS]
            frames[top, POS] = c + 1 if c + 1 < ncand else 0
            frames[top, QUIET] += 1
            code = c * step
            if value[code] == 0 and passed[top, MARK, code] != frames[top, FSTAMP]:
                lit = code
                break
        if lit < 0:  # a full round learnt nothing: this frame is at its fixpoint
            if top == 0:
                return NO_CONFLICT
            top -= 1
            ok = True  # ... so the hypothesis of the frame below passes
        else:
            st[PROBES] += 1
            frames[top, HYP] = lit
            mark_hypothesis(log, top)
            new_decision_level(S)
            enqueue(S, lit, REASON_DECISION)
            if propagate(F, S) != NO_CONFLICT:
                st[CONFLICTS] += 1  # a failed hypothesis
                ok = False
            elif top + 1 == depth:
                ok = True  # the last frame tests hypotheses with plain propagation
            else:
                top += 1
                _open_frame(frames, top, st)
                continue
        # The hypothesis of frame `top` has been decided; a failure may cascade down.
        while True:
            base = frames[top, LEVEL]
            if ok:
                stamp = frames[top, FSTAMP]
                hyp = frames[top, HYP]
                witnesses = keeps_closures and top + 1 < depth
                if witnesses:
                    for w in range(passed.shape[1] - CLOSURE):
                        passed[top, CLOSURE + w, hyp] = 0
                for i in range(trail_lim[base], st[TRAIL_SIZE]):
                    lit = trail[i]
                    passed[top, MARK, lit] = stamp
                    if witnesses:
                        passed[top, OWNER, lit] = hyp
                        passed[top, CLOSURE + (lit >> 6), hyp] |= np.int64(1) << (lit & 63)
                cancel_until(S, base)
                forget_hypothesis(log, top)
                break
            cancel_until(S, base)
            learnt = st[TRAIL_SIZE]
            enqueue(S, frames[top, HYP] ^ 1, REASON_PROBE)
            log_lemma(log, S, base, frames[top, HYP] ^ 1)
            frames[top, QUIET] = 0
            if propagate(F, S) == NO_CONFLICT:
                if keeps_closures and top + 1 < depth:
                    _keep_witnessed(passed[top], frames[top, FSTAMP], trail, learnt, st[TRAIL_SIZE])
                else:
                    st[STAMP] += 1  # the formula grew: earlier passes no longer prove anything
                    frames[top, FSTAMP] = st[STAMP]
                break
            st[CONFLICTS] += 1  # the frame itself is contradictory
            if top == 0:
                return CONFLICT_CLOSURE
            top -= 1  # this frame is contradictory, so its own hypothesis fails


@njit(cache=True)
def closure_kernel(F, S, dimacs, depth, positive_only, passed, frames, log, resume):
    """Entry point of Engine.probe: return (status, literals above the root level).

    The assumptions are enqueued as by propagate, then an empty base level is opened for
    the derived facts so that they are undone afterwards even without assumptions.
    PAUSED leaves the state as it is, for a call with resume=True.  The lemmas go to
    `log` (solvers.proof_log), the assumptions counting as unit clauses."""
    if resume:
        confl = closure(F, S, depth, positive_only, passed, frames, True, log)
    else:
        num_vars = S.level.shape[0]
        if not check_literals(dimacs, num_vars):
            return BAD_LITERAL, np.empty(0, np.int64)
        if passed.shape[0] < depth or frames.shape[0] < depth:
            return NO_MEMORY, np.empty(0, np.int64)
        confl = assume(F, S, to_codes(dimacs))
        if confl == NO_CONFLICT:
            new_decision_level(S)
            set_base(log, S.st[DLEVEL])
            confl = closure(F, S, depth, positive_only, passed, frames, False, log)
    if confl == PAUSED:
        return PAUSED, np.empty(0, np.int64)
    if confl != NO_CONFLICT:
        cancel_until(S, 0)
        return confl, np.empty(0, np.int64)
    out = trail_dimacs(S, S.trail_lim[0])
    cancel_until(S, 0)
    return NO_CONFLICT, out


@intrinsic
def cycle_counter(typingctx):
    """Return the processor's cycle counter (LLVM's readcyclecounter: rdtsc on x86), a
    clock read in a few nanoseconds from compiled code; `solvers.engine` converts it to
    seconds."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter", fnty=fnty)
        return builder.call(fn, [])

    return types.int64(), codegen


@njit(cache=True)
def read_cycles():
    """Return the cycle counter (for Python, to calibrate it against perf_counter)."""
    return cycle_counter()


# Columns of the ladder's cursor, an array the caller owns so that a paused ladder
# resumes where it stopped.
CUR_GRID = 0  # the grid being rated (the next one between grids)
CUR_DEPTH = 1  # the depth of the closure paused inside, -1 when paused between grids
CUR_START = 2  # cycle counter when that grid started
CUR_END = 3  # the ladder stops before this grid
CUR_WORK = 4  # the work counter when that grid started (its work budget's origin)
NUM_CURSOR = 5

# A grid's outcome in the ladder.
LADDER_OPEN = 0  # no depth up to max_depth fills it
LADDER_SAT = 1  # the closure of its depth fills the grid
LADDER_UNSAT = 2  # the closure of its depth is contradictory
LADDER_BAD = 3  # a value outside 1..n (no literal to assume)
LADDER_TIMEOUT = 4  # set by the caller or the core: the time limit stopped its depth
LADDER_BUDGET = 5  # set by the caller or the core: its work budget ran out at its depth


@njit(cache=True)
def filled_cells(S, n, out):
    """Write into `out` the value each cell's true literal above the root level gives (0
    for none; the last one on the trail when several) and return True when no cell is
    left at 0: the grid `encoder.decode.filled_grid` would read from the literals that
    propagate_kernel (level 0) or closure_kernel (level >= 1) returns."""
    trail, trail_lim, st = S.trail, S.trail_lim, S.st
    start = trail_lim[0] if st[DLEVEL] > 0 else st[TRAIL_SIZE]
    cell_vars = n * n * n
    out[:] = 0
    for i in range(start, st[TRAIL_SIZE]):
        lit = to_dimacs(trail[i])
        if 0 < lit <= cell_vars:
            c, k = cell_value(lit, n)
            out[c] = k
    open_cells = 0
    for c in range(n * n):
        open_cells += out[c] == 0
    return open_cells == 0


@njit(cache=True)
def ladder_kernel(
    F, S, grids, n, max_depth, positive_only, passed, frames, cursor, status, depths, solutions,
    cycles, log, log_at, resume
):  # fmt: skip
    """Rate grids cursor[CUR_GRID] .. cursor[CUR_END]-1 of `grids` (rows of N*N values, 0
    for a blank, on a formula whose variable `cell_var(c, k, N)` says cell c holds k): the depth
    rating of `solvers.depth_rating` for many grids in one call.

    Each grid's givens are assumed as by propagate_kernel; if unit propagation does not
    fill the grid, the closures of depth 1, 2, ... max_depth are run one on top of the
    other at one base level: the depth-d closure starts from the depth-(d-1) facts,
    which are in it anyway (the fixpoint is unique and grows with the depth), so each
    depth only adds its own work.  Per grid: status (LADDER_*), depth, the filled grid
    when SAT, and the cycles it took.  Return NO_CONFLICT when every grid is rated, or
    PAUSED (between two grids, or inside a closure: cursor says where) when the slice
    ran out; call again with resume=(cursor[CUR_DEPTH] >= 0).  The state is at level 0
    whenever it returns NO_CONFLICT or pauses between grids.  The closures' lemmas go
    to `log` (solvers.proof_log), grid g's from log_at[g] to log_at[g + 1] (both
    arrays of length 0: none recorded)."""
    st = S.st
    num_vars = S.level.shape[0]
    cells = n * n
    codes = np.empty(cells, np.int32)
    rated = 0
    g = cursor[CUR_GRID]
    while g < cursor[CUR_END]:
        if resume:
            d = cursor[CUR_DEPTH]
            confl = closure(F, S, d, positive_only, passed, frames, True, log)
            resume = False
        else:
            if rated > 0 and st[PROPAGATIONS] >= st[PAUSE_AT]:
                cursor[CUR_GRID] = g
                cursor[CUR_DEPTH] = -1
                return PAUSED
            cursor[CUR_START] = cycle_counter()
            cursor[CUR_WORK] = st[PROPAGATIONS]
            if log_at.shape[0] > 0:
                log_at[g] = log[HEAD]
            m = 0
            bad = False
            for c in range(cells):
                k = grids[g, c]
                if k != 0:
                    var = cell_var(c, k, n)
                    if k < 0 or k > n or var > num_vars:
                        bad = True
                        break
                    codes[m] = to_code(var)
                    m += 1
            if bad:
                status[g] = LADDER_BAD
                depths[g] = 0
                cycles[g] = cycle_counter() - cursor[CUR_START]
                g += 1
                rated += 1
                continue
            d = 0
            confl = assume(F, S, codes[:m])
        while True:
            if confl == PAUSED:
                cursor[CUR_GRID] = g
                cursor[CUR_DEPTH] = d
                return PAUSED
            if confl != NO_CONFLICT:
                status[g] = LADDER_UNSAT
                break
            if filled_cells(S, n, solutions[g]):
                status[g] = LADDER_SAT
                break
            if d >= max_depth:
                status[g] = LADDER_OPEN
                break
            if d == 0:
                new_decision_level(S)  # the base level of the derived facts
                set_base(log, st[DLEVEL])
            d += 1
            confl = closure(F, S, d, positive_only, passed, frames, False, log)
        depths[g] = d
        if log_at.shape[0] > 0:
            log_at[g + 1] = log[HEAD]
        cancel_until(S, 0)
        cycles[g] = cycle_counter() - cursor[CUR_START]
        g += 1
        rated += 1
    cursor[CUR_GRID] = g
    cursor[CUR_DEPTH] = -1
    return NO_CONFLICT
