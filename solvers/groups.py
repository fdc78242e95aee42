"""Exactly-one groups: found when a formula is loaded, propagated with bit sets.

A Sudoku formula is made of "exactly one of these literals" constraints (the cell,
row, column, box, diagonal, window and jigsaw groups of every encoding): an
at-least-one clause whose literals are pairwise excluded by binary clauses.  Watched
literals treat the at-least-one clause like any other: when a watched literal becomes
false the clause is visited, and its other literals are scanned for a replacement
watch, a scan repeated for every literal the clause loses.  Here such a clause is a
group instead: a bit set of its literals not yet false (one 64-bit word per 64
literals) that loses one bit, one `and`, when a literal becomes false; a word with one
bit left names the literal the clause implies (count trailing zeros), no bit left is
the conflict.  "One true => the others false" stays with the binary clauses (their
implication lists already do exactly that, one lookup per literal).  Clauses that no
group covers stay on watched literals, and a formula without groups is propagated
exactly as before.

Equality with clause unit propagation.  A group is propagated when one of its
literals is taken off the queue, as a watched clause is, and it implies what its
clause implies (the last open literal) or fails when its clause fails; so the
fixpoint and whether a conflict is reached are those of clause-by-clause
propagation, which does not depend on the order (tests/solvers/test_groups.py checks
both against PySAT's Minisat22 on random formulas with planted groups and on Sudoku
formulas of every encoding).  The order of the trail, and with it which clause a
conflict names and how many literals were propagated before it, may differ: an
engine built with `groups=False` (the explainer's, whose words follow the trail)
propagates exactly as the watched-literal engine always did.

Backtracking.  Every bit cleared is pushed on an undo log (the word index times 64
plus the bit), and the log's top when trail[i] was taken off the queue is kept for
position i, so undoing the trail from position i pops the log down to it (only
literals already taken off the queue have cleared bits).  The log holds at most one
entry per group literal.  Both live in the state's int32 array `glog` (positions
0..num_vars-1: the tops; then one satisfying literal per group, `gtrue` below; then the
log), the bit sets in its int64 array `gopen`.

Satisfied groups wait.  `gtrue[g]` is a literal of group g (the last one taken off the
queue true, at first its first literal); while it is true the group is satisfied and a
literal of it that becomes false leaves its bit set.  That is safe: the literal being
propagated was assigned at the current level, at or after gtrue[g] (levels only grow
along the trail), so no backtrack undoes gtrue[g] and keeps it; when the group is no
longer satisfied its bits are right again.

Packing.  numba passes every array of the formula and state tuples at every call, and
propagate is called once a hypothesis: so the groups' static arrays are packed in one
array `gs` (sections below) and their state in two.  A formula without groups has
none of them: it is a `Formula`, for which numba compiles kernels without group code
(see "Two compilations" in solvers.propagate).

Memory: the literal-to-group lists (one int per group literal) take the room the watch
lists no longer keep for group clauses; the undo log and the per-group and
per-variable arrays come on top (the exam's formula: 7 % more than the watched-literal
engine's arrays at 9x9, 2 % at 25x25; a formula without groups: a few bytes).

Roads not taken: bit-parallel boards (one bit per cell and value, singles as shifts
and masks, as fsss2 and tdoku do) are faster on the standard geometries but answer
only for them; the engine is a CNF engine that must take any DIMACS file.  Counters
per clause instead of bit sets need the same undo log and a scan to find the last
literal.  At-most-one cliques without an at-least-one clause (the row, column and box
constraints of the minimal encoding) are left to the binary clauses, which already
propagate them with one lookup per implication.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

ONE = np.int64(1)  # bit sets are int64 words


@njit(cache=True)
def find_groups(lits, cstart, bstart, bimp, num_lits):
    """Return a flag per long clause: 1 when its literals are pairwise excluded by the
    binary implications (`bimp[bstart[l]:bstart[l + 1]]`, implied when l is true)."""
    n_long = cstart.shape[0] - 1
    is_group = np.zeros(n_long, np.int8)
    seen = np.full(num_lits, -1, np.int64)  # seen[q] == k: l_k true implies q
    stamp = 0
    for c in range(n_long):
        a, b = cstart[c], cstart[c + 1]
        pairwise = True
        for i in range(a, b):
            x = lits[i]
            stamp += 1
            for t in range(bstart[x], bstart[x + 1]):
                seen[bimp[t]] = stamp
            for j in range(a, b):
                if j != i and seen[lits[j] ^ 1] != stamp:
                    pairwise = False
                    break
            if not pairwise:
                break
        if pairwise:
            is_group[c] = 1
    return is_group


# The groups' arrays are packed in one int32 array `gs` (one argument for every kernel:
# numba passes each array of the formula tuple on every call, and the engine calls
# propagate thousands of times a grid): a header of section starts, then the sections.
GCLAUSE = 0  # per group g: its long clause
GWORD = 1  # per group, and one more: its first word in the bit sets (gword[g]..gword[g+1])
OSTART = 2  # per literal, and one more: where its bits start in OBIT
OBIT = 3  # per group literal: word index * 64 + bit
WGROUP = 4  # per word: its group
HEADER = 6  # the five section starts, and the end


@njit(cache=True)
def group_layout(lits, cstart, is_group, num_lits):
    """Return gs: the packed groups of the long clauses flagged in is_group (group g is
    long clause gs[gs[GCLAUSE] + g], its bit p the p-th literal of the clause)."""
    n_long = cstart.shape[0] - 1
    count = 0
    occurrences = 0
    words = 0
    for c in range(n_long):
        if is_group[c]:
            count += 1
            size = cstart[c + 1] - cstart[c]
            occurrences += size
            words += (size + 63) // 64
    at = np.zeros(HEADER, np.int32)
    at[GCLAUSE] = HEADER
    at[GWORD] = at[GCLAUSE] + count
    at[OSTART] = at[GWORD] + count + 1
    at[OBIT] = at[OSTART] + (num_lits + 1 if count else 0)  # no groups, no memory
    at[WGROUP] = at[OBIT] + occurrences
    at[HEADER - 1] = at[WGROUP] + words
    gs = np.zeros(at[HEADER - 1], np.int32)
    gs[:HEADER] = at
    gclause = gs[at[GCLAUSE] : at[GWORD]]
    gword = gs[at[GWORD] : at[OSTART]]
    ostart = gs[at[OSTART] : at[OBIT]]
    obit = gs[at[OBIT] : at[WGROUP]]
    wgroup = gs[at[WGROUP] :]
    g = 0
    for c in range(n_long):
        if is_group[c]:
            gclause[g] = c
            size = cstart[c + 1] - cstart[c]
            gword[g + 1] = gword[g] + (size + 63) // 64
            for i in range(cstart[c], cstart[c + 1]):
                ostart[lits[i] + 1] += 1
            g += 1
    if count == 0:
        return gs
    for lit in range(num_lits):
        ostart[lit + 1] += ostart[lit]
    fill = ostart[:num_lits].copy()
    for g in range(count):
        c = gclause[g]
        wgroup[gword[g] : gword[g + 1]] = g
        for i in range(cstart[c], cstart[c + 1]):
            p = i - cstart[c]
            lit = lits[i]
            obit[fill[lit]] = (gword[g] + (p >> 6)) * 64 + (p & 63)
            fill[lit] += 1
    return gs


@njit(cache=True)
def group_state(gs, lits, cstart, num_vars):
    """Return (glog, gopen, undo): the groups' state with every literal open (see
    "Backtracking" above for glog's sections) and the undo log's first free index."""
    gclause = gs[gs[GCLAUSE] : gs[GWORD]]
    gword = gs[gs[GWORD] : gs[OSTART]]
    count = gclause.shape[0]
    gopen = np.zeros(gword[count], np.int64)  # one word per 64 literals of each group
    tops = num_vars if count else 0  # a formula without groups keeps no log
    glog = np.zeros(tops + count + gs[WGROUP] - gs[OBIT], np.int32)
    for g in range(count):
        c = gclause[g]
        size = cstart[c + 1] - cstart[c]
        for p in range(size):
            gopen[gword[g] + (p >> 6)] |= ONE << (p & 63)
        # gtrue starts as the clause's first literal (sound: see "Satisfied groups wait").
        glog[tops + g] = lits[cstart[c]]
    return glog, gopen, tops + count


@njit(cache=True)
def last_open(gopen, a, b):
    """Return the position of the only bit set in words gopen[a:b], -1 when none is set,
    or -2 when two or more are."""
    found = -1
    for w in range(a, b):
        m = gopen[w]
        if m == 0:
            continue
        if found >= 0 or (m & (m - 1)) != 0:
            return -2
        found = (w - a) * 64 + np.int64(trailing_zeros(m))
    return found


@njit(cache=True)
def falsify(o, end, gopen, glog, undo, gtrue, obit, wgroup, gword, gclause, lits, cstart, value):
    """Clear the literal that has just become false from its groups' bit sets (words
    gopen[w]), its occurrences o:end of gs's OBIT section, logging each bit in
    glog from index `undo`; gtrue is where glog keeps each group's satisfying literal.
    Stop after the first group that became unit or empty and return (undo, next
    occurrence, c, q): q is the literal its clause c implies (open, or already false:
    the caller enqueues it or reports the conflict), -1 for an empty group; c is -1 when
    no group of the remaining occurrences needs anything."""
    while o < end:
        e = obit[o]
        o += 1
        w = e >> 6
        g = wgroup[w]
        if value[gtrue[g]] == 1:
            continue  # satisfied: its bits can wait (see the module docstring)
        gopen[w] &= ~(ONE << (e & 63))
        glog[undo] = e
        undo += 1
        a, b = gword[g], gword[g + 1]
        if b - a == 1:
            m = gopen[a]
            if m & (m - 1):
                continue  # two literals or more still open
            left = np.int64(trailing_zeros(m)) if m else -1
        else:
            left = last_open(gopen, a, b)
            if left == -2:
                continue
        c = gclause[g]
        if left < 0:
            return undo, o, c, -1
        q = lits[cstart[c] + left]
        if value[q] != 1:
            return undo, o, c, q
    return undo, o, -1, -1


@njit(cache=True)
def restore(gopen, glog, undo, down_to):
    """Set back the bits logged in glog[down_to:undo]; return down_to."""
    for i in range(undo - 1, down_to - 1, -1):
        e = glog[i]
        gopen[e >> 6] |= ONE << (e & 63)
    return down_to
