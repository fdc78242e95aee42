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

Backtracking.  Every bit cleared is pushed on an undo log (`gundo`, the word index
times 64 plus the bit), and `gmark[i]` is the log's size when trail[i] was taken off
the queue, so undoing the trail from position i pops the log down to gmark[i] (only
literals already taken off the queue have cleared bits).  The log holds at most one
entry per group literal.

Satisfied groups wait.  `gtrue[g]` is a literal of group g (the last one taken off the
queue true, at first its first literal); while it is true the group is satisfied and a
literal of it that becomes false leaves its bit set.  That is safe: the literal being
propagated was assigned at the current level, at or after gtrue[g] (levels only grow
along the trail), so no backtrack undoes gtrue[g] and keeps it; when the group is no
longer satisfied its bits are right again.

Memory: the literal-to-group lists (`obit`, one int per group literal) take the room
the watch lists no longer keep for group clauses; the undo log and the per-group and
per-variable arrays come on top (9x9: 3 % more than the watched-literal engine's
arrays, 0.5 % at 25x25).

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

ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


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


@njit(cache=True)
def group_layout(lits, cstart, is_group, num_lits):
    """Return (gclause, gword, ostart, obit, wgroup, full): group g is long clause
    gclause[g], its bit set the words gword[g]:gword[g + 1] (bit p = its p-th literal),
    word w belongs to group wgroup[w], and the bits of a literal l in its groups are
    obit[ostart[l]:ostart[l + 1]] (word index * 64 + bit); `full` is every group's bit
    set with all its literals open."""
    n_long = cstart.shape[0] - 1
    count = 0
    for c in range(n_long):
        count += is_group[c]
    gclause = np.empty(count, np.int32)
    gword = np.zeros(count + 1, np.int32)
    ostart = np.zeros(num_lits + 1, np.int32)
    g = 0
    for c in range(n_long):
        if is_group[c]:
            gclause[g] = c
            size = cstart[c + 1] - cstart[c]
            gword[g + 1] = gword[g] + (size + 63) // 64
            for i in range(cstart[c], cstart[c + 1]):
                ostart[lits[i] + 1] += 1
            g += 1
    for lit in range(num_lits):
        ostart[lit + 1] += ostart[lit]
    obit = np.empty(ostart[num_lits], np.int32)
    wgroup = np.empty(gword[count], np.int32)
    fill = ostart[:num_lits].copy()
    full = np.zeros(gword[count], np.uint64)
    for g in range(count):
        c = gclause[g]
        wgroup[gword[g] : gword[g + 1]] = g
        for i in range(cstart[c], cstart[c + 1]):
            p = i - cstart[c]
            lit = lits[i]
            obit[fill[lit]] = (gword[g] + (p >> 6)) * 64 + (p & 63)
            fill[lit] += 1
            full[gword[g] + (p >> 6)] |= ONE << np.uint64(p & 63)
    return gclause, gword, ostart, obit, wgroup, full


@njit(cache=True)
def last_open(gopen, a, b):
    """Return the position of the only bit set in words gopen[a:b], -1 when none is set,
    or -2 when two or more are."""
    found = -1
    for w in range(a, b):
        m = gopen[w]
        if m == 0:
            continue
        if found >= 0 or (m & (m - ONE)) != 0:
            return -2
        found = (w - a) * 64 + np.int64(trailing_zeros(m))
    return found


@njit(cache=True)
def falsify(o, end, gopen, gundo, undo, gtrue, obit, wgroup, gword, gclause, lits, cstart, value):
    """Clear the literal that has just become false from its groups' bit sets, its
    occurrences o:end (`ostart[f]:ostart[f + 1]`), logging each bit in gundo from index
    `undo`.  Stop after the first group that became unit or empty and return (undo, next
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
        gopen[w] &= ALL ^ (ONE << np.uint64(e & 63))
        gundo[undo] = e
        undo += 1
        a, b = gword[g], gword[g + 1]
        if b - a == 1:
            m = gopen[a]
            if m & (m - ONE):
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
def restore(gopen, gundo, undo, down_to):
    """Set back the bits logged in gundo[down_to:undo]; return down_to."""
    for i in range(undo - 1, down_to - 1, -1):
        e = gundo[i]
        gopen[e >> 6] |= ONE << np.uint64(e & 63)
    return down_to
