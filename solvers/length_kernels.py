"""Shortest refutations: the numba kernels of the refutation-length rating, which
`solvers.core.length` (C) replaces, kept as the oracle the tests compare the C port with
(tests/solvers/test_core_length_numba.py, and BxB's old kernels in
tests/solvers/bxb_numba_oracle.py) while numba exists.  The C module's docstring
describes the method; the records, State, Scratch and Alternatives, are its."""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.core.length import Alternatives, Scratch, State
from solvers.limits import held_around
from solvers.propagate import (
    BINARY_REASON,
    CONTRADICTION,
    DLEVEL,
    NEVER,
    NO_CONFLICT,
    PAUSE_AT,
    PAUSED,
    QHEAD,
    REASON_DECISION,
    REASON_PROBE,
    REASON_UNIT,
    SOLVED,
    STUCK,
    TRAIL_SIZE,
    enqueue,
    implied,
)
from solvers.propagate import NUM_SLOTS as PROPAGATE_SLOTS
from solvers.propagate import new_state as new_assignment

# The records are solvers.core.length's (one definition for both versions).
# Slots of State.st beyond propagate's.
POOL_SIZE = PROPAGATE_SLOTS  # rows of the cone pool in use
TRACK = PROPAGATE_SLOTS + 1  # 1: facts of the state carry cones (nested rating), 0: all empty
NUM_SLOTS = PROPAGATE_SLOTS + 2

EMPTY = 0  # pool row of the empty cone

# Slots of Scratch.st.
STAMP = 0  # the current hypothesis's number
SCRATCH_POOL_SIZE = 1  # rows of Scratch.pool in use
ENTRIES = 2  # entries pushed for this hypothesis
SCRATCH_TRAIL_SIZE = 3  # literals on Scratch.trail
NUM_SCRATCH_SLOTS = 4

# Slots of Alternatives.st.
ALT_POOL_SIZE = 0  # rows of Alternatives.pool in use
ALT_ENTRIES = 1  # entries pushed for this hypothesis
ALT_OVERFLOW = 2  # 1: an array filled (the plain search answers instead)
CONES_PER_LITERAL = 4
ALTERNATIVE_WORDS = 1 << 22  # the cone pool's and entries' cap (32 MB of cones)


@njit(cache=True)
def occurrences(F):
    """Return `occ`: the constraints of each literal, occ[F.wstart[l]:F.wstart[l + 1]]
    (the watch lists have room for every occurrence: the same layout)."""
    wstart, lits, cstart = F.wstart, F.lits, F.cstart
    occ = np.empty(wstart[wstart.shape[0] - 1], np.int32)
    fill = wstart[:-1].copy()
    for c in range(cstart.shape[0] - 1):
        for p in range(cstart[c], cstart[c + 1]):
            lit = lits[p]
            occ[fill[lit]] = c
            fill[lit] += 1
    return occ


@njit(cache=True)
def num_constraints(F):
    return F.cstart.shape[0] - 1


@njit(cache=True)
def num_words(F):
    return (num_constraints(F) + 63) // 64


@njit(cache=True)
def _new_state(F, num_vars, track):
    """Return an empty State: no facts, cones tracked if `track`."""
    S = new_assignment(num_vars)
    m = num_constraints(F)
    st = np.zeros(NUM_SLOTS, np.int64)
    st[:PROPAGATE_SLOTS] = S.st
    st[POOL_SIZE] = 1
    st[TRACK] = 1 if track else 0
    cone = np.zeros(2 * num_vars, np.int32)
    nfalse = np.zeros(m, np.int32)
    ntrue = np.zeros(m, np.int32)
    pool = np.zeros((2 * num_vars + m + 2, num_words(F)), np.uint64)
    return State(S.value, S.level, S.reason, S.trail, S.trail_lim, st, cone, nfalse, ntrue, pool)


@njit(cache=True)
def restart(F, occ, S, units, givens):
    """Make S (untracked) the state of the formula's units and the givens (literal
    codes), propagated; return NO_CONFLICT or a contradiction's pool row.  One call
    where new_state and two assert_facts would be three: a rater reuses one state for
    every grid it rates, and most grids take a millisecond or two."""
    S.value[:] = 0
    S.cone[:] = EMPTY
    S.nfalse[:] = 0
    S.ntrue[:] = 0
    st = S.st
    st[:] = 0
    st[PAUSE_AT] = NEVER
    st[POOL_SIZE] = 1
    no_cones = np.zeros(max(units.shape[0], givens.shape[0]), np.int32)  # all EMPTY
    conflict = assert_facts(F, occ, S, units, no_cones, REASON_UNIT)
    if conflict != NO_CONFLICT:
        return conflict
    return assert_facts(F, occ, S, givens, no_cones, REASON_DECISION)


@njit(cache=True)
def _copy_state(S):
    return State(
        S.value.copy(),
        S.level.copy(),
        S.reason.copy(),
        S.trail.copy(),
        S.trail_lim.copy(),
        S.st.copy(),
        S.cone.copy(),
        S.nfalse.copy(),
        S.ntrue.copy(),
        S.pool.copy(),
    )


@njit(cache=True)
def copy_facts(T, U):
    """Make the facts of U those of T (same formula), with no cones: U's trail, reasons,
    counts and propagation scalars become T's; its pool and TRACK stay."""
    n = T.st[TRAIL_SIZE]
    U.value[:] = T.value
    U.level[:] = T.level
    U.reason[:] = T.reason
    U.trail[:n] = T.trail[:n]
    U.st[:PROPAGATE_SLOTS] = T.st[:PROPAGATE_SLOTS]
    U.cone[:] = EMPTY
    U.nfalse[:] = T.nfalse
    U.ntrue[:] = T.ntrue


_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True)
def popcount(words):
    total = 0
    for w in range(words.shape[0]):
        x = words[w]  # the classic SWAR bit count
        x = x - ((x >> np.uint64(1)) & _M1)
        x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
        x = (x + (x >> np.uint64(4))) & _M4
        total += int((x * _H01) >> np.uint64(56))
    return total


@njit(cache=True)
def _set_bit(words, c):
    words[c >> 6] |= np.uint64(1) << np.uint64(c & 63)


# --- facts of the state: unit propagation that records cones ---------------------------


@njit(cache=True)
def assert_facts(F, occ, S, lits, cones, why):
    """Make each literal code of `lits` true with its cone (a pool row) and reason `why`
    (REASON_DECISION, REASON_UNIT, REASON_PROBE) and propagate.

    Return NO_CONFLICT, or the pool row of the contradiction's cone (then the state is
    contradictory and should be dropped)."""
    value, cone_of = S.value, S.cone
    for i in range(lits.shape[0]):
        lit = lits[i]
        if value[lit] == 1:
            continue
        if value[lit] == -1:
            return _conflict_pair(S, cones[i], cone_of[lit ^ 1])
        _make_true(F, occ, S, lit, cones[i], why)
    return _propagate_facts(F, occ, S)


@njit(cache=True)
def _make_true(F, occ, S, lit, cone, why):
    enqueue(S, lit, why)
    _count(F, occ, S, lit, cone)


@njit(cache=True)
def _count(F, occ, S, lit, cone):
    """Record the cone of `lit`, just made true, and count it in its constraints."""
    S.cone[lit] = cone
    wstart, nfalse, ntrue = F.wstart, S.nfalse, S.ntrue
    for i in range(wstart[lit], wstart[lit + 1]):
        ntrue[occ[i]] += 1
    f = lit ^ 1
    for i in range(wstart[f], wstart[f + 1]):
        nfalse[occ[i]] += 1


@njit(cache=True)
def _new_cone(S):
    st, pool = S.st, S.pool
    row = st[POOL_SIZE]
    st[POOL_SIZE] += 1
    pool[row, :] = 0
    return row


@njit(cache=True)
def _conflict_pair(S, a, b):
    if S.st[TRACK] == 0:
        return EMPTY
    pool = S.pool
    row = _new_cone(S)
    pool[row, :] = pool[a] | pool[b]
    return row


@njit(cache=True)
def _clause_cone(F, S, c):
    """Return a new pool row: constraint c and the cones of its false literals."""
    if S.st[TRACK] == 0:
        return EMPTY
    value, cone_of, pool = S.value, S.cone, S.pool
    cstart, lits = F.cstart, F.lits
    row = _new_cone(S)
    for p in range(cstart[c], cstart[c + 1]):
        lit = lits[p]
        if value[lit] == -1:
            pool[row, :] |= pool[cone_of[lit ^ 1]]
    _set_bit(pool[row], c)
    return row


@njit(cache=True)
def _propagate_facts(F, occ, S):
    """Propagate the trail from qhead, links first for each fact, then the constraints
    that lose a literal; return NO_CONFLICT or the contradiction's pool row."""
    value, cone_of, trail, st = S.value, S.cone, S.trail, S.st
    level, reason = S.level, S.reason
    nfalse, ntrue = S.nfalse, S.ntrue
    bstart, bimp, wstart = F.bstart, F.bimp, F.wstart
    cstart, lits = F.cstart, F.lits
    # The queue's ends in locals, stored back before any other kernel reads them (st
    # may alias the other arrays as far as LLVM knows: kept in st, every assignment
    # would reload them; as propagate.propagate does).
    qhead = st[QHEAD]
    size = st[TRAIL_SIZE]
    lvl = st[DLEVEL]
    while qhead < size:
        lit = trail[qhead]
        qhead += 1
        for i in range(bstart[lit], bstart[lit + 1]):
            q = bimp[i]
            if value[q] == 1:
                continue
            if value[q] == -1:
                st[QHEAD], st[TRAIL_SIZE] = qhead, size
                return _conflict_pair(S, cone_of[lit], cone_of[q ^ 1])
            size = implied(q, BINARY_REASON - i, lvl, size, value, reason, level, trail)
            _count(F, occ, S, q, cone_of[lit])
        f = lit ^ 1
        for i in range(wstart[f], wstart[f + 1]):
            c = occ[i]
            if ntrue[c] > 0:
                continue
            width = cstart[c + 1] - cstart[c]
            if nfalse[c] == width:
                st[QHEAD], st[TRAIL_SIZE] = qhead, size
                return _clause_cone(F, S, c)
            if nfalse[c] == width - 1:
                for p in range(cstart[c], cstart[c + 1]):
                    r = lits[p]
                    if value[r] == 0:
                        cone = _clause_cone(F, S, c)
                        size = implied(r, c, lvl, size, value, reason, level, trail)
                        _count(F, occ, S, r, cone)
                        break
    st[QHEAD], st[TRAIL_SIZE] = qhead, size
    return NO_CONFLICT


# --- one hypothesis: the shortest refutation -------------------------------------------


@njit(cache=True)
def _new_scratch(F, num_vars):
    """Return the work arrays of `shortest_refutation` (allocated once per rater)."""
    m = num_constraints(F)
    nlits = 2 * num_vars
    words = num_words(F)
    entries = F.bimp.shape[0] + m + 2
    return Scratch(
        np.zeros(nlits, np.int8),
        np.zeros(nlits, np.int32),
        np.zeros(nlits, np.int32),
        np.zeros(m, np.int64),
        np.zeros(m, np.int32),
        np.zeros((m, words), np.uint64),
        np.zeros((m + 2, words), np.uint64),
        np.full(m + 2, -1, np.int32),
        np.zeros(entries, np.int32),
        np.zeros(entries, np.int32),
        np.zeros(entries, np.int32),
        np.zeros(words, np.uint64),
        np.zeros(words, np.uint64),
        np.zeros(NUM_SCRATCH_SLOTS, np.int64),
    )


@njit(cache=True)
def _push(X, lit, row, size, limit):
    if size > limit:
        return
    e = X.st[ENTRIES]
    X.st[ENTRIES] += 1
    X.entry_lit[e] = lit
    X.entry_cone[e] = row
    X.entry_next[e] = X.bucket[size]
    X.bucket[size] = e


@njit(cache=True)
def shortest_refutation(F, occ, S, X, z, limit):
    """Return the length of the shortest refutation of the hypothesis `z` (a literal
    code, open in the state) of length <= limit, or limit + 1 when there is none.

    Afterwards X.best_cone holds the best contradiction's cone (`refutation_chain`
    reads a chain from it).  The state S is not changed."""
    value = S.value
    nfalse, ntrue = S.nfalse, S.ntrue
    bstart, bimp, wstart = F.bstart, F.bimp, F.wstart
    cstart, lits = F.cstart, F.lits
    hvalue, hcone, htrail = X.value, X.cone, X.trail
    stamp, hfalse, false_cones, hpool = X.stamp, X.nfalse, X.false_cones, X.pool
    bucket, entry_next, entry_lit, entry_cone = X.bucket, X.entry_next, X.entry_lit, X.entry_cone
    best_cone, work, xst = X.best_cone, X.work, X.st
    track = S.st[TRACK] == 1
    spool, scone = S.pool, S.cone
    limit = min(limit, cstart.shape[0] - 1)  # no cone is larger than all constraints
    xst[STAMP] += 1
    current = xst[STAMP]
    xst[SCRATCH_POOL_SIZE] = 1  # row 0 is the empty cone
    xst[ENTRIES] = 0
    xst[SCRATCH_TRAIL_SIZE] = 0
    hpool[0, :] = 0
    for s in range(limit + 2):
        bucket[s] = -1
    best = limit + 1
    _push(X, z, 0, 0, limit)
    size_now = 0  # the cone size whose bucket is being emptied
    while size_now < best and size_now <= limit:
        e = bucket[size_now]
        if e < 0:
            size_now += 1
            continue
        bucket[size_now] = entry_next[e]
        r = entry_lit[e]
        row = entry_cone[e]
        if hvalue[r] == 1 or value[r] == 1:
            continue
        if hvalue[r] == -1 or value[r] == -1:  # two derivations disagree: a contradiction
            work[:] = hpool[row]
            if hvalue[r] == -1:
                work |= hpool[hcone[r ^ 1]]
            elif track:
                work |= spool[scone[r ^ 1]]
            size = popcount(work)
            if size < best:
                best = size
                best_cone[:] = work
            continue
        hvalue[r] = 1
        hvalue[r ^ 1] = -1
        hcone[r] = row
        htrail[xst[SCRATCH_TRAIL_SIZE]] = r
        xst[SCRATCH_TRAIL_SIZE] += 1
        for i in range(bstart[r], bstart[r + 1]):
            q = bimp[i]
            if hvalue[q] == 1 or value[q] == 1:
                continue
            _push(X, q, row, size_now, limit)
        f = r ^ 1
        for i in range(wstart[f], wstart[f + 1]):
            c = occ[i]
            if ntrue[c] > 0:
                continue
            if stamp[c] != current:
                stamp[c] = current
                hfalse[c] = nfalse[c]
                false_cones[c, :] = 0
                if track:
                    for p in range(cstart[c], cstart[c + 1]):
                        lit = lits[p]
                        if value[lit] == -1:
                            false_cones[c, :] |= spool[scone[lit ^ 1]]
            hfalse[c] += 1
            false_cones[c, :] |= hpool[row]
            size = cstart[c + 1] - cstart[c]
            if hfalse[c] < size - 1:
                continue
            work[:] = false_cones[c]
            _set_bit(work, c)
            cone_size = popcount(work)
            if hfalse[c] == size:
                if cone_size < best:
                    best = cone_size
                    best_cone[:] = work
                continue
            if cone_size > limit or cone_size >= best:
                continue
            for p in range(cstart[c], cstart[c + 1]):
                lit = lits[p]  # the one literal of c not false
                if hvalue[lit] != -1 and value[lit] != -1:
                    if hvalue[lit] == 0:  # (1: c is satisfied under the hypothesis)
                        new = xst[SCRATCH_POOL_SIZE]
                        xst[SCRATCH_POOL_SIZE] += 1
                        hpool[new, :] = work
                        _push(X, lit, new, cone_size, limit)
                    break
    for t in range(xst[SCRATCH_TRAIL_SIZE]):
        lit = htrail[t]
        hvalue[lit] = 0
        hvalue[lit ^ 1] = 0
    return best


@njit(cache=True)
def _new_alternatives(F, num_vars):
    """Return the work arrays of `refutation_with_alternatives` (once per rater)."""
    m = num_constraints(F)
    words = num_words(F)
    rows = max(2, min(16 * (m + 2), ALTERNATIVE_WORDS // words))
    entries = min(CONES_PER_LITERAL * F.bimp.shape[0] + rows + 2, ALTERNATIVE_WORDS)
    width = 1
    for c in range(m):
        width = max(width, F.cstart[c + 1] - F.cstart[c])
    return Alternatives(
        np.zeros(2 * num_vars, np.int32),
        np.zeros((2 * num_vars, CONES_PER_LITERAL), np.int32),
        np.zeros((rows, words), np.uint64),
        np.full(m + 2, -1, np.int32),
        np.zeros(entries, np.int32),
        np.zeros(entries, np.int32),
        np.zeros(entries, np.int32),
        np.zeros(width, np.int32),
        np.zeros(width, np.int32),
        np.zeros((width + 1, words), np.uint64),
        np.zeros(3, np.int64),
    )


@njit(cache=True)
def _dominated(ncones, cones, pool, lit, row):
    """Return True when literal lit keeps a cone that is a subset of pool[row]."""
    for i in range(ncones[lit]):
        a = cones[lit, i]
        subset = True
        for w in range(pool.shape[1]):
            if pool[a, w] & ~pool[row, w]:
                subset = False
                break
        if subset:
            return True
    return False


@njit(cache=True)
def _push_alternative(bucket, entry_next, entry_lit, entry_cone, ast, lit, row, size):
    e = ast[ALT_ENTRIES]
    if e == entry_lit.shape[0]:
        ast[ALT_OVERFLOW] = 1
        return
    ast[ALT_ENTRIES] += 1
    entry_lit[e] = lit
    entry_cone[e] = row
    entry_next[e] = bucket[size]
    bucket[size] = e


@njit(cache=True)
def _better(best_cone, work, best):
    """Make work the best contradiction if it is smaller; return the best size."""
    size = popcount(work)
    if size < best:
        best_cone[:] = work
        return size
    return best


@njit(cache=True)
def refutation_with_alternatives(F, occ, S, X, A, z, limit):
    """Return what `shortest_refutation` returns, searching with up to CONES_PER_LITERAL
    cones per literal (module docstring): shorter where a value's first derivation
    overcounts, and never longer: the plain search runs too, below what this one found
    (the cap, and ties met in another order, can make the first cones differ)."""
    found = _search_alternatives(F, occ, S, X, A, z, limit)
    if A.st[ALT_OVERFLOW]:  # its arrays filled: the plain search alone
        return shortest_refutation(F, occ, S, X, z, limit)
    return min(found, shortest_refutation(F, occ, S, X, z, min(limit, found - 1)))


@njit(cache=True)
def _search_alternatives(F, occ, S, X, A, z, limit):
    value, ntrue = S.value, S.ntrue
    bstart, bimp, wstart = F.bstart, F.bimp, F.wstart
    cstart, lits = F.cstart, F.lits
    hvalue, htrail, stamp, hfalse = X.value, X.trail, X.stamp, X.nfalse
    state_cones, best_cone, work, xst = X.false_cones, X.best_cone, X.work, X.st
    ncones, cones, pool = A.ncones, A.cones, A.pool
    bucket, entry_next, entry_lit, entry_cone = A.bucket, A.entry_next, A.entry_lit, A.entry_cone
    others, choice, partial, ast = A.others, A.choice, A.partial, A.st
    words = work.shape[0]
    track = S.st[TRACK] == 1
    spool, scone = S.pool, S.cone
    limit = min(limit, cstart.shape[0] - 1)
    xst[STAMP] += 1
    current = xst[STAMP]
    xst[SCRATCH_TRAIL_SIZE] = 0
    ast[ALT_POOL_SIZE] = 1  # row 0: the empty cone
    ast[ALT_ENTRIES] = 0
    ast[ALT_OVERFLOW] = 0
    pool[0, :] = 0
    bucket[: limit + 2] = -1
    best = limit + 1
    _push_alternative(bucket, entry_next, entry_lit, entry_cone, ast, z, 0, 0)
    size_now = 0  # the cone size whose bucket is being emptied
    while size_now < best and size_now <= limit:
        e = bucket[size_now]
        if e < 0:
            size_now += 1
            continue
        bucket[size_now] = entry_next[e]
        r = entry_lit[e]
        row = entry_cone[e]
        if value[r] == 1:
            continue
        if value[r] == -1:  # a fact of the state removes it: a contradiction
            work[:] = pool[row]
            if track:
                work |= spool[scone[r ^ 1]]
            best = _better(best_cone, work, best)
            continue
        if hvalue[r] == -1:  # its negation holds: a contradiction with each of its cones
            for i in range(ncones[r ^ 1]):
                a = cones[r ^ 1, i]
                for w in range(words):
                    work[w] = pool[row, w] | pool[a, w]
                best = _better(best_cone, work, best)
            continue
        # Cones come out by size, so a subset of this one came out before it.
        if ncones[r] == CONES_PER_LITERAL or _dominated(ncones, cones, pool, r, row):
            continue
        if hvalue[r] == 0:
            hvalue[r] = 1
            hvalue[r ^ 1] = -1
            htrail[xst[SCRATCH_TRAIL_SIZE]] = r
            xst[SCRATCH_TRAIL_SIZE] += 1
        first = ncones[r] == 0
        cones[r, ncones[r]] = row
        ncones[r] += 1
        for i in range(bstart[r], bstart[r + 1]):
            q = bimp[i]
            if value[q] == 1 or ncones[q] == CONES_PER_LITERAL:
                continue
            if hvalue[q] == 1 and _dominated(ncones, cones, pool, q, row):
                continue
            _push_alternative(bucket, entry_next, entry_lit, entry_cone, ast, q, row, size_now)
        f = r ^ 1
        for i in range(wstart[f], wstart[f + 1]):
            c = occ[i]
            if ntrue[c] > 0:
                continue
            if stamp[c] != current:
                stamp[c] = current
                hfalse[c] = S.nfalse[c]
                state_cones[c, :] = 0
                if track:
                    for p in range(cstart[c], cstart[c + 1]):
                        if value[lits[p]] == -1:
                            state_cones[c, :] |= spool[scone[lits[p] ^ 1]]
            if first:
                hfalse[c] += 1
            if hfalse[c] < cstart[c + 1] - cstart[c] - 1:
                continue
            # c forces its last literal (or breaks): its cone is c, this cone of f's
            # negation and one cone of each other literal the hypothesis removed; the
            # new combinations are those with this cone.
            n_others = 0
            left = -1
            for p in range(cstart[c], cstart[c + 1]):
                lit = lits[p]
                if lit == f or value[lit] == -1:
                    continue
                if hvalue[lit] == -1:
                    others[n_others] = lit ^ 1
                    n_others += 1
                else:
                    left = lit
            if left >= 0 and ncones[left] == CONES_PER_LITERAL:
                continue
            # Depth first over the choices: a partial union already too large cuts all
            # its completions.
            for w in range(words):
                partial[0, w] = state_cones[c, w] | pool[row, w]
            _set_bit(partial[0], c)
            j = 0
            choice[0] = 0
            while j >= 0:
                if j < n_others and choice[j] == ncones[others[j]]:
                    j -= 1  # every cone of others[j] tried: back to the one before
                    if j >= 0:
                        choice[j] += 1
                    continue
                if j < n_others:
                    a = cones[others[j], choice[j]]
                    for w in range(words):
                        partial[j + 1, w] = partial[j, w] | pool[a, w]
                    if popcount(partial[j + 1]) >= min(limit + 1, best):
                        choice[j] += 1
                        continue
                    j += 1
                    if j < n_others:
                        choice[j] = 0
                    continue
                work[:] = partial[n_others]
                if left < 0:
                    best = _better(best_cone, work, best)
                else:
                    new = ast[ALT_POOL_SIZE]
                    if new == pool.shape[0]:
                        ast[ALT_OVERFLOW] = 1
                    else:
                        pool[new, :] = work
                        if not (hvalue[left] == 1 and _dominated(ncones, cones, pool, left, new)):
                            ast[ALT_POOL_SIZE] += 1
                            cone_size = popcount(work)
                            _push_alternative(
                                bucket, entry_next, entry_lit, entry_cone, ast, left, new, cone_size
                            )
                j -= 1
                if j >= 0:
                    choice[j] += 1
    for t in range(xst[SCRATCH_TRAIL_SIZE]):
        lit = htrail[t]
        hvalue[lit] = 0
        hvalue[lit ^ 1] = 0
        ncones[lit] = 0
    return best


@njit(cache=True)
def candidate_lengths(F, occ, S, X, num_candidates, limit, lengths):
    """Fill lengths[v] with the refutation length of the open candidate v+1 (variables
    1..num_candidates) up to the running best, and return that best (the shortest
    length, <= limit) or limit + 1.  Entries of assigned candidates and of candidates
    with no refutation as short as the best so far are set to limit + 1."""
    value = S.value
    limit = min(limit, num_constraints(F))
    best = limit
    found = limit + 1
    for v in range(num_candidates):
        lengths[v] = limit + 1
        z = 2 * v
        if value[z] != 0:
            continue
        length = shortest_refutation(F, occ, S, X, z, best)
        lengths[v] = length
        if length <= best:
            best = length
            found = length
    return found


@njit(cache=True)
def shorter_lengths(F, occ, S, X, A, num_candidates, limit, lengths):
    """Search every open candidate again with `refutation_with_alternatives`, for
    refutations of length <= limit; set lengths[v] of those found (up to the running
    best; other entries are left as they are) and return the best, or limit + 1."""
    best = limit
    found = limit + 1
    for v in range(num_candidates):
        if S.value[2 * v] != 0:
            continue
        length = refutation_with_alternatives(F, occ, S, X, A, 2 * v, best)
        if length <= best:
            lengths[v] = length
            best = length
            found = length
    return found


@njit(cache=True)
def solved(S, num_candidates):
    """Return True when every candidate variable is assigned."""
    value = S.value
    for v in range(num_candidates):  # noqa: SIM110 (numba compiles no generator in all())
        if value[2 * v] == 0:
            return False
    return True


@njit(cache=True)
def eliminate(F, occ, S, lit):
    """Make `lit` (the negation of a refuted hypothesis) a fact with an empty cone and
    propagate; return NO_CONFLICT or the contradiction's pool row.  (assert_facts for
    one literal, without its two arrays: simplest-first eliminates hundreds a grid.)"""
    if S.value[lit] == 1:
        return NO_CONFLICT
    if S.value[lit] == -1:
        return _conflict_pair(S, EMPTY, S.cone[lit ^ 1])
    _make_true(F, occ, S, lit, EMPTY, REASON_PROBE)
    return _propagate_facts(F, occ, S)


@njit(cache=True)
def simplest_first(F, occ, S, X, A, num_candidates, limit, lengths, log, budget):
    """Resolve the state simplest first: while it is not solved, find the shortest
    refutations of candidates (<= limit) and eliminate every candidate refuted by one of
    that length, then propagate (singles).  Return (status, longest step, number of
    steps): SOLVED, CONTRADICTION (the state has no solution), STUCK (no candidate is
    refuted) or PAUSED after `budget` steps (call again to go on); log[s] is the length
    of step s (as many as fit).  A: `new_alternatives`' arrays."""
    limit = min(limit, num_constraints(F))
    longest = 0
    steps = 0
    while not solved(S, num_candidates):
        if steps == budget:
            return PAUSED, longest, steps
        best = candidate_lengths(F, occ, S, X, num_candidates, limit, lengths)
        if best > limit:
            return STUCK, longest, steps
        if best > max(longest, 2):
            # This step would raise the rating: look for shorter refutations the first
            # derivations missed (of length 2 or more: a refutation of length 1 derives
            # nothing).  Only these steps can change the rating: every other step
            # eliminates by refutations no longer than the longest step so far, so the
            # state stays one that steps of that length reach (and any order of such
            # steps reaches the same fixpoint).
            best = min(best, shorter_lengths(F, occ, S, X, A, num_candidates, best - 1, lengths))
        if steps < log.shape[0]:
            log[steps] = best
        steps += 1
        longest = max(longest, best)
        for v in range(num_candidates):
            # (a candidate made true by an earlier elimination: a contradiction)
            if lengths[v] == best and eliminate(F, occ, S, 2 * v + 1) != NO_CONFLICT:
                return CONTRADICTION, longest, steps
    return SOLVED, longest, steps


@njit(cache=True)
def failed_closure(F, occ, S, X, num_candidates):
    """Eliminate every candidate that unit propagation refutes, in any order, until none
    is left (the failed-literal closure of depth 1, positive hypotheses, no cones
    needed); return SOLVED, CONTRADICTION or STUCK."""
    m = num_constraints(F)
    changed = True
    while changed:
        changed = False
        for v in range(num_candidates):
            if S.value[2 * v] != 0:
                continue
            if shortest_refutation(F, occ, S, X, 2 * v, m) <= m:
                if eliminate(F, occ, S, 2 * v + 1) != NO_CONFLICT:
                    return CONTRADICTION
                changed = True
    return SOLVED if solved(S, num_candidates) else STUCK


# --- the chain of a refutation, read from its cone --------------------------------------


@njit(cache=True)
def refutation_chain(F, S, cone, hypothesis, out_lits, out_constraints):
    """Read the chain of a refutation of `hypothesis` (a literal code) from its cone (a
    bit set of constraints, as the kernels computed it) over the facts of S.

    The order is the one a player reads: every link first (as far as they go), then
    the lowest-numbered constraint of the cone that forces a value or has none left,
    and again.  Fill out_lits/out_constraints with the forced literals and their
    constraints, and return (number of steps, the constraint the contradiction empties
    or -1, and else the two true literals that exclude each other); (-1, -1, -1, -1)
    if the cone does not refute the hypothesis.

    Why not the reasons the kernel recorded: the kernel keeps, for each literal, the
    first derivation its cone-size order reaches, and a cone can refute a hypothesis
    in several ways (r9c4=3 in Easter Monster: r9c6=5 by box 8 and then row 9 lacks
    7, or r9c6=7 by row 9 and then box 8 lacks 5); the chain must not depend on which
    one the search met first, so it is read from the cone alone."""
    value = S.value.copy()  # the facts, then the chain's own values
    bstart, bimp, cstart, lits = F.bstart, F.bimp, F.cstart, F.lits
    members = [c for c in range(num_constraints(F)) if (cone[c >> 6] >> np.uint64(c & 63)) & 1]
    value[hypothesis] = 1
    value[hypothesis ^ 1] = -1
    stack = [hypothesis]
    n = 0
    while True:
        while len(stack) > 0:
            x = stack.pop()
            for i in range(bstart[x], bstart[x + 1]):
                q = bimp[i]
                if value[q] == -1:
                    return n, -1, x, q ^ 1
                if value[q] == 0:
                    value[q] = 1
                    value[q ^ 1] = -1
                    stack.append(q)
        progress = False
        for c in members:
            left = -1
            open_lits = 0
            satisfied = False
            for p in range(cstart[c], cstart[c + 1]):
                w = lits[p]
                if value[w] == 1:
                    satisfied = True
                    break
                if value[w] == 0:
                    open_lits += 1
                    left = w
            if satisfied or open_lits > 1:
                continue
            if open_lits == 0:
                return n, c, -1, -1
            value[left] = 1
            value[left ^ 1] = -1
            out_lits[n] = left
            out_constraints[n] = c
            n += 1
            stack.append(left)
            progress = True
            break  # links first again
        if not progress:
            return -1, -1, -1, -1


# Python's entries to the kernels above that return records (namedtuples): numba boxes
# a record by calling Python code, which a pending Ctrl-C would break (a segmentation
# fault, see `solvers.limits.ctrl_c_held`), so the Ctrl-C is held around the call.
new_state = held_around(_new_state)
copy_state = held_around(_copy_state)
new_scratch = held_around(_new_scratch)
new_alternatives = held_around(_new_alternatives)
