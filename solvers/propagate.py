"""Clause storage and unit propagation: the engine's core, compiled with numba.

Everything the other kernels need lives here: the clause database built once from
DIMACS ints, the assignment state (MiniSat's trail, trail_lim, qhead, reason, level),
`enqueue`, `propagate` (two watched literals for long clauses, static implication
lists for binary clauses) and `cancel_until` (backtracking).  Unit propagation is the
engine's inner loop (depth-1 probing of one 17-clue grid runs it thousands of times),
so the state is a few flat numpy arrays and no kernel allocates while propagating.

Literals.  Inside the kernels a literal is a code `2*v + sign` for the 0-based
variable v (DIMACS variable v+1) and sign 1 for a negation, so `lit ^ 1` is the
negation and `value[lit]` reads a literal directly (`solvers.literals` converts).
DIMACS ints are converted in `build` (clauses) and in the `*_kernel` entry points
(assumptions, results) only.

Clauses.  Tautologies are dropped and duplicate literals merged while building.  Units
become root-level facts, binary clauses become implication lists in CSR form
(`bimp[bstart[l]:bstart[l + 1]]` are the literals implied when l becomes true, with
their clause in `bcls`), and longer clauses are stored flat (`lits[cstart[c]:cstart[c +
1]]`, input position `corig[c]`) with their two watched literals in positions 0 and 1.
Long clauses that are exactly-one groups (built with groups=True) are not watched:
`solvers.groups` propagates them with bit sets (field gs of F, glog and gopen
of S); with groups=False, or in a formula without groups, those fields are empty.

Watch-list convention: `watches[l]` (the slice `wlist[wstart[l]:wstart[l] +
wcount[l]]`, with a blocker literal per entry in `wblock`) lists the long clauses in
which l is one of the two watched literals, and it is visited when l becomes false.
Each list is preallocated with room for every long clause containing l; a clause is
watched at most once by each of its literals, so a list never overflows and
propagation never allocates.  Backtracking leaves the watches alone (as in MiniSat):
the invariant only needs the two watched literals not to be false while the clause is
neither satisfied nor unit, and undoing assignments cannot break that.

State records.  Kernels take `F` (the formula, a `Formula`) and `S` (the assignment, a
`State`): namedtuples of arrays, read by name (`S.trail`, `F.bimp`).  numba compiles a
namedtuple field to the same constant-offset load as a plain tuple's, keeps it in the
on-disk cache (a jitclass cannot be cached), and an entry point from Python stays one
call with two arguments.  Scalar state and counters (qhead, the trail's size, the
decision level) live in the int64 array `st`, at the named slots below.  Other kernels
extend a `State` with fields of their own (`solvers.length_kernels` adds cones) and
call `enqueue` and friends on it: a kernel reads only the fields it names.

Two compilations.  A formula with exactly-one groups is a `GroupFormula` and its state
a `GroupState` (the groups' fields added); any other is a `Formula` and a `State`.
numba compiles each kernel once per type, so the kernels of a formula without groups
take no group array and hold no group code: `propagate` is compiled from one source
with the group branches dropped (`_compiled`), and for a GroupFormula it calls the
version that keeps them; the few group steps elsewhere (`cancel_until`) are helpers
picked by type (`_by_types`).  Propagation calls are short and frequent (one per
hypothesis), so a group array or view made per call showed: 1.3x on the minimal
encoding, which has no groups, when one compiled version served both.

Status codes.  Every kernel's result codes are declared once, below: negative, so that
they never collide with a clause index (a conflict), and distinct, so that one code
means one thing whichever kernel returns it; PAUSED is the same for every resumable
kernel.
"""

from __future__ import annotations

from collections import namedtuple
from types import FunctionType

import numpy as np
from numba import njit, typeof
from numba.extending import overload

from solvers.groups import (
    GCLAUSE,
    GWORD,
    OBIT,
    OSTART,
    WGROUP,
    falsify,
    find_groups,
    group_layout,
    group_state,
    restore,
)
from solvers.limits import ctrl_c_held, held_around
from solvers.literals import to_code, to_codes, to_dimacs

# The formula: long clauses flat with their watches, binary clauses as implication lists
# (see "Clauses" and "Watch-list convention" above for each field's role).
Formula = namedtuple("Formula", "lits cstart corig wstart wcount wlist wblock bstart bimp bcls")
# The assignment, in MiniSat's words (`new_state` says each field's role); the scalars
# (qhead, the trail's size, the decision level, counters) are the slots of `st` below.
State = namedtuple("State", "value level reason trail trail_lim st")
# A formula with exactly-one groups and its state carry the groups' fields too: gs, the
# groups packed, and glog, gopen, their undo log and bit sets (solvers.groups).  They are
# other types, so numba compiles every kernel twice, and the kernels of a formula without
# groups hold no group code and take no group array (see "Two compilations" above).
GroupFormula = namedtuple("GroupFormula", (*Formula._fields, "gs"))
GroupState = namedtuple("GroupState", (*State._fields, "glog", "gopen"))

# Arrays indexed by decision level (trail_lim, and search's `flipped` in engine.py) have
# num_vars + SPARE_LEVELS slots, because there can be more levels than variables: each
# query starts at level 0, and every level it opens holds a literal of its own (an
# assumption, a decision or a probing hypothesis) except one empty base level, opened by
# closure_kernel or by search's `start` for the facts derived above the assumptions.
# So a query reaches level num_vars + 1 at most; trail_lim is indexed by level - 1 and
# flipped by the level itself, so 2 spare slots suffice and the rest is margin (numba
# does not check bounds: an overflow would silently corrupt memory).
SPARE_LEVELS = 8

# Slots of the scalar array st (S.st).
TRAIL_SIZE = 0  # number of literals on the trail
QHEAD = 1  # next trail index to propagate
DLEVEL = 2  # current decision level (MiniSat's trail_lim.size())
DECISIONS = 3  # cumulative statistics, reported by Engine.accum_stats
BACKTRACKS = 4
CONFLICTS = 5
PROPAGATIONS = 6  # literals taken off the queue by propagate
PROBES = 7  # hypotheses tested by the failed-literal closure
STAMP = 8  # last stamp handed out by the probing kernel (see probe.py)
# Slices of work.  The probing and search kernels pause when st[PROPAGATIONS] reaches
# st[PAUSE_AT] and return PAUSED, with what they need to go on saved in the slots
# below (and in the state arrays); called again with resume=True they continue where
# they stopped, so pausing changes no result.  The engine sets PAUSE_AT before each
# call: between slices Python sees Ctrl-C and the time limit (solvers.limits).
PAUSE_AT = 9
CLOSURE_TOP = 10  # probe.py: the frame the closure paused in
SEARCH_BASE = 11  # search.py: the base level of the paused search, its models found,
SEARCH_MODELS = 12  # decisions made, and whether it paused inside a node's closure
SEARCH_DECISIONS = 13
SEARCH_IN_CLOSURE = 14
UNDO = 15  # top of the groups' undo log in glog (solvers.groups)
NUM_SLOTS = 16
NEVER = (1 << 62) - 1  # a PAUSE_AT no counter reaches: no pausing

# Status codes of every kernel (see "Status codes" above).
NO_CONFLICT = -1  # propagate's result when no clause is falsified
CONFLICT_ASSUMPTION = -2  # an assumption was already false (no clause to blame)
BAD_LITERAL = -3  # an assumption is 0 or names a variable beyond num_vars
CONFLICT_CLOSURE = -4  # probe.closure: the closure (not one clause) is contradictory
NO_MEMORY = -5  # probe.closure_kernel: the mark table or the frames have fewer rows than depth
PAUSED = -6  # a resumable kernel used up its slice (see PAUSE_AT) or its budget of steps
FOUND = -7  # search: max_models models found; the state holds the last one
EXHAUSTED = -8  # search: no further model, the search space is closed (state back at base)
OUT_OF_BUDGET = -9  # search: the decision budget ran out
SOLVED = -10  # length_kernels: every candidate variable is assigned
CONTRADICTION = -11  # length_kernels: the facts contradict each other (no solution)
STUCK = -12  # length_kernels: no candidate is refuted within the limit
OUT_OF_TIME = -13  # bxb_rating: the deadline passed (the clock is read between refutations)
OUT_OF_BUDGET = -14  # bxb_rating: the work budget (work[BUDGET] searches) ran out

# reason[v] says why v is assigned.  Propagation stores internal references (the hot
# loop must not read the input index): c >= 0 is long clause c, BINARY_REASON - i is
# binary implication slot i.  `reason_clause` turns them into input clause indices.
REASON_DECISION = -1  # an assumption or a search decision
REASON_PROBE = -2  # derived by the failed-literal rule
REASON_UNIT = -3  # a unit clause of the formula (root level only)
BINARY_REASON = -4


@njit(cache=True)
def _build(flat, offsets, num_vars, groups):
    """Return (the Formula, the groups packed (solvers.groups), the units, their clause
    indices, the first empty clause or -1); `load_formula` makes the engine's records of them.

    `flat` holds the DIMACS literals of all clauses, clause i being
    flat[offsets[i]:offsets[i + 1]]; literals were checked to lie in 1..num_vars.
    groups: find the exactly-one groups and propagate them natively (solvers.groups)."""
    m = offsets.shape[0] - 1
    nlits = 2 * num_vars
    codes = np.empty(flat.shape[0], np.int32)
    size = np.zeros(m, np.int32)  # clause length after merging duplicates, -1 = tautology
    first_empty = -1
    n_long = 0
    n_long_lits = 0
    n_bin = 0
    n_unit = 0
    for i in range(m):
        a, b = offsets[i], offsets[i + 1]
        for p in range(a, b):
            codes[p] = to_code(flat[p])
        codes[a:b].sort()  # equal literals become adjacent, and so do l and ¬l (2v, 2v+1)
        k = a
        tautology = False
        for p in range(a, b):
            if p > a and codes[p] == codes[k - 1]:
                continue
            if p > a and codes[p] == (codes[k - 1] ^ 1):
                tautology = True
                break
            codes[k] = codes[p]
            k += 1
        if tautology:
            size[i] = -1
            continue
        size[i] = k - a
        if k == a:
            if first_empty < 0:
                first_empty = i
        elif k - a == 1:
            n_unit += 1
        elif k - a == 2:
            n_bin += 1
        else:
            n_long += 1
            n_long_lits += k - a

    units = np.empty(n_unit, np.int32)
    unit_idx = np.empty(n_unit, np.int32)
    lits = np.empty(n_long_lits, np.int32)
    cstart = np.empty(n_long + 1, np.int32)
    corig = np.empty(n_long, np.int32)
    occ = np.zeros(nlits, np.int32)  # long-clause occurrences: each watch list's capacity
    bcount = np.zeros(nlits, np.int32)
    u = 0
    c = 0
    q = 0
    cstart[0] = 0
    for i in range(m):
        a = offsets[i]
        s = size[i]
        if s == 1:
            units[u] = codes[a]
            unit_idx[u] = i
            u += 1
        elif s == 2:
            bcount[codes[a] ^ 1] += 1  # ¬x implies y ...
            bcount[codes[a + 1] ^ 1] += 1  # ... and ¬y implies x
        elif s >= 3:
            for p in range(a, a + s):
                lits[q] = codes[p]
                occ[codes[p]] += 1
                q += 1
            corig[c] = i
            c += 1
            cstart[c] = q

    bstart = np.zeros(nlits + 1, np.int32)
    for lit in range(nlits):
        bstart[lit + 1] = bstart[lit] + bcount[lit]
    bimp = np.empty(bstart[nlits], np.int32)
    bcls = np.empty(bstart[nlits], np.int32)
    fill = bstart[:nlits].copy()
    for i in range(m):
        if size[i] == 2:
            x, y = codes[offsets[i]], codes[offsets[i] + 1]
            bimp[fill[x ^ 1]] = y
            bcls[fill[x ^ 1]] = i
            fill[x ^ 1] += 1
            bimp[fill[y ^ 1]] = x
            bcls[fill[y ^ 1]] = i
            fill[y ^ 1] += 1

    # Merge duplicate implications (the Sudoku box and row at-most-one clauses overlap),
    # keeping the first clause as the reason.
    order = np.empty(0, np.int64)
    k = 0
    for lit in range(nlits):
        a, b = bstart[lit], bstart[lit + 1]
        keys = bimp[a:b].astype(np.int64) * (m + 1) + bcls[a:b]
        order = np.argsort(keys)
        seg_imp = bimp[a:b][order]
        seg_cls = bcls[a:b][order]
        bstart[lit] = k
        for t in range(b - a):
            if t > 0 and seg_imp[t] == seg_imp[t - 1]:
                continue
            bimp[k] = seg_imp[t]
            bcls[k] = seg_cls[t]
            k += 1
    bstart[nlits] = k
    bimp = bimp[:k].copy()
    bcls = bcls[:k].copy()

    if groups:
        is_group = find_groups(lits, cstart, bstart, bimp, nlits)
    else:
        is_group = np.zeros(n_long, np.int8)
    for c in range(n_long):
        if is_group[c]:
            for p in range(cstart[c], cstart[c + 1]):
                occ[lits[p]] -= 1  # a group clause takes no room in the watch lists
    gs = group_layout(lits, cstart, is_group, nlits)

    wstart = np.zeros(nlits + 1, np.int32)
    for lit in range(nlits):
        wstart[lit + 1] = wstart[lit] + occ[lit]
    wlist = np.empty(wstart[nlits], np.int32)
    wblock = np.empty(wstart[nlits], np.int32)
    wcount = np.zeros(nlits, np.int32)
    for c in range(n_long):
        if is_group[c]:
            continue
        s = cstart[c]
        for w in range(2):
            lit = lits[s + w]
            slot = wstart[lit] + wcount[lit]
            wlist[slot] = c
            wblock[slot] = lits[s + 1 - w]  # the other watch: a cheap "satisfied?" check
            wcount[lit] += 1
    formula = Formula(lits, cstart, corig, wstart, wcount, wlist, wblock, bstart, bimp, bcls)
    return formula, gs, units, unit_idx, first_empty


# Python's entry to `_build`, whose Formula numba boxes by calling Python code, which a
# pending Ctrl-C would break (a segmentation fault, see `solvers.limits.ctrl_c_held`).
build = held_around(_build)


def load_formula(flat, offsets, num_vars, groups):
    """Return (F, S, units, unit clause indices, first empty clause or -1): `build`'s
    formula and an empty state, a GroupFormula and a GroupState when groups were asked
    for and found, else a Formula and a State (so that the kernels compiled for them
    carry no group code)."""
    F, gs, units, unit_idx, first_empty = build(flat, offsets, num_vars, groups)
    with ctrl_c_held():  # a State is a record: see build
        S = new_state(num_vars)
    if gs[GWORD] > gs[GCLAUSE]:
        glog, gopen, undo = group_state(gs, F.lits, F.cstart, num_vars)
        F, S = GroupFormula(*F, gs), GroupState(*S, glog, gopen)
        S.st[UNDO] = undo
    return F, S, units, unit_idx, first_empty


@njit(cache=True)
def new_state(num_vars):
    """Return an empty assignment State for num_vars variables, at decision level 0."""
    value = np.zeros(2 * num_vars, np.int8)  # per literal: 1 true, -1 false, 0 unassigned
    level = np.zeros(num_vars, np.int32)  # decision level of each assigned variable
    reason = np.full(num_vars, REASON_DECISION, np.int32)  # why it is assigned (REASON_*)
    trail = np.zeros(num_vars, np.int32)  # assigned literals in assignment order
    # trail_lim[d] = trail index where level d+1 starts (see SPARE_LEVELS for its size).
    trail_lim = np.zeros(num_vars + SPARE_LEVELS, np.int32)
    st = np.zeros(NUM_SLOTS, np.int64)
    st[PAUSE_AT] = NEVER
    return State(value, level, reason, trail, trail_lim, st)


@njit(cache=True)
def enqueue(S, lit, why):
    """Assign `lit` true at the current level with reason `why`; it must be unassigned."""
    value, level, reason = S.value, S.level, S.reason
    trail, st = S.trail, S.st
    value[lit] = 1
    value[lit ^ 1] = -1
    v = lit >> 1
    level[v] = st[DLEVEL]
    reason[v] = why
    trail[st[TRAIL_SIZE]] = lit
    st[TRAIL_SIZE] += 1


@njit(cache=True)
def new_decision_level(S):
    """Open a decision level: what is enqueued next belongs to it."""
    trail_lim, st = S.trail_lim, S.st
    trail_lim[st[DLEVEL]] = st[TRAIL_SIZE]
    st[DLEVEL] += 1


@njit(cache=True)
def cancel_until(S, lvl):
    """Backtrack: unassign every literal above decision level `lvl` (no-op if below)."""
    value, trail, trail_lim, st = S.value, S.trail, S.trail_lim, S.st
    if st[DLEVEL] <= lvl:
        return
    start = trail_lim[lvl]
    if start < st[QHEAD]:  # propagated literals cleared group bits: set them back
        _restore_groups(S, start)
    for i in range(st[TRAIL_SIZE] - 1, start - 1, -1):
        lit = trail[i]
        value[lit] = 0
        value[lit ^ 1] = 0
    st[TRAIL_SIZE] = start
    st[QHEAD] = start
    st[DLEVEL] = lvl


@njit(cache=True)
def implied(q, why, lvl, size, value, reason, level, trail):
    """Assign q true at level lvl with reason `why` on top of a trail of `size` literals
    (propagate's own copy of `enqueue`, its scalars in registers); return the new size."""
    value[q] = 1
    value[q ^ 1] = -1
    reason[q >> 1] = why
    level[q >> 1] = lvl
    trail[size] = q
    return size + 1


# --- the groups' part of the kernels, compiled in only for a GroupFormula ---------------
# Each helper is picked by the numba types of its arguments: the group code for a
# GroupFormula or GroupState, nothing at all for a Formula or State.


def _by_types(pick):
    """Return a function that runs the implementation `pick` returns for the numba types
    of its arguments: numba picks it when it compiles a caller (an overload, inlined),
    Python when it is called from Python."""

    def function(*args):
        return pick(*(typeof(a) for a in args))(*args)

    function.__name__ = function.__qualname__ = pick.__name__
    function.__doc__ = pick.__doc__
    overload(function, jit_options={"cache": True}, inline="always")(pick)
    return function


def _has_groups(record_type) -> bool:
    """Whether a numba namedtuple type is a GroupFormula or GroupState."""
    return not {"gs", "glog"}.isdisjoint(record_type.instance_class._fields)


@_by_types
def _restore_groups(S, start):
    """Set back the group bits cleared since trail position `start` was propagated."""
    if not _has_groups(S):
        return lambda S, start: None

    def restore_bits(S, start):
        st, glog = S.st, S.glog
        st[UNDO] = restore(S.gopen, glog, st[UNDO], glog[start])

    return restore_bits


def _propagate_source(F, S):
    """`propagate`'s source, compiled twice: GROUPED is a constant of each compilation
    (see `_compiled`), so the version for a Formula holds no group code.

    Afterwards, if there is no conflict, no clause is unit or falsified under the
    assignment and qhead == trail size.  On a conflict the trail is left as it was when
    the falsified clause was found (the caller backtracks)."""
    if not GROUPED and _has_group_fields(F):  # noqa: F821 (GROUPED: see _compiled)
        return _grouped_version(F, S)
    # One field a line, in the tuples' order: the machine code is then the same as with
    # tuple unpacking (grouping them only permutes a few stores in the epilogue).
    lits = F.lits
    cstart = F.cstart
    corig = F.corig
    wstart = F.wstart
    wcount = F.wcount
    wlist = F.wlist
    wblock = F.wblock
    bstart = F.bstart
    bimp = F.bimp
    bcls = F.bcls
    value = S.value
    level = S.level
    reason = S.reason
    trail = S.trail
    st = S.st
    # Scalars are kept in locals (st may alias the other arrays as far as LLVM knows).
    qhead = st[QHEAD]
    size = st[TRAIL_SIZE]
    lvl = st[DLEVEL]
    undo = st[UNDO]
    if GROUPED:  # noqa: F821 (a global of each compilation, see _compiled)
        # The sections of gs as arrays of their own (views, made once a call).
        gs = F.gs
        gclause = gs[gs[GCLAUSE] : gs[GWORD]]
        gword = gs[gs[GWORD] : gs[OSTART]]
        ostart = gs[gs[OSTART] : gs[OBIT]]
        obit = gs[gs[OBIT] : gs[WGROUP]]
        wgroup = gs[gs[WGROUP] :]
        glog = S.glog
        gopen = S.gopen
        gtrue = glog[trail.shape[0] :]  # each group's satisfying literal
    confl = NO_CONFLICT
    while qhead < size and confl == NO_CONFLICT:
        p = trail[qhead]
        if GROUPED:  # noqa: F821
            glog[qhead] = undo
        qhead += 1
        # Binary clauses first: most of a Sudoku formula, one lookup each.
        for i in range(bstart[p], bstart[p + 1]):
            q = bimp[i]
            val = value[q]
            if val == 1:
                continue
            if val == -1:
                confl = bcls[i]
                break
            v = q >> 1
            value[q] = 1
            value[q ^ 1] = -1
            reason[v] = BINARY_REASON - i  # the clause is looked up only if asked
            level[v] = lvl
            trail[size] = q
            size += 1
        if confl != NO_CONFLICT:
            break
        f = p ^ 1
        if GROUPED:  # noqa: F821
            # The groups of p are satisfied; those of f, now false, lose it.
            for o in range(ostart[p], ostart[p + 1]):
                gtrue[wgroup[obit[o] >> 6]] = p
            o = ostart[f]
            end = ostart[f + 1]
            while o < end:
                undo, o, c, q = falsify(
                    o, end, gopen, glog, undo, gtrue, obit, wgroup, gword, gclause, lits, cstart,
                    value,
                )  # fmt: skip
                if c < 0:
                    break
                if q < 0 or value[q] == -1:
                    confl = corig[c]
                    break
                # The group's clause is unit: its last open literal is implied.
                size = implied(q, c, lvl, size, value, reason, level, trail)
            if confl != NO_CONFLICT:
                break
        # Long clauses watching the literal that just became false.
        base = wstart[f]
        end = base + wcount[f]
        i = base
        j = base
        while i < end:
            blocker = wblock[i]
            c = wlist[i]
            i += 1
            if value[blocker] == 1:  # satisfied: keep the watch, skip the clause
                wlist[j] = c
                wblock[j] = blocker
                j += 1
                continue
            s = cstart[c]
            first = lits[s] ^ lits[s + 1] ^ f  # the other watch, without a branch
            lits[s] = first
            lits[s + 1] = f
            if first != blocker and value[first] == 1:
                wlist[j] = c
                wblock[j] = first
                j += 1
                continue
            moved = False
            for k in range(s + 2, cstart[c + 1]):
                lk = lits[k]
                if value[lk] != -1:  # a new literal to watch
                    lits[s + 1] = lk
                    lits[k] = f
                    slot = wstart[lk] + wcount[lk]
                    wlist[slot] = c
                    wblock[slot] = first
                    wcount[lk] += 1
                    moved = True
                    break
            if moved:
                continue
            wlist[j] = c
            wblock[j] = first
            j += 1
            if value[first] == -1:  # every literal false: keep the rest of the list
                confl = corig[c]
                while i < end:
                    wlist[j] = wlist[i]
                    wblock[j] = wblock[i]
                    i += 1
                    j += 1
                break
            v = first >> 1  # unit: the first watch is implied
            value[first] = 1
            value[first ^ 1] = -1
            reason[v] = c
            level[v] = lvl
            trail[size] = first
            size += 1
        wcount[f] = j - base
    st[PROPAGATIONS] += qhead - st[QHEAD]
    st[QHEAD] = qhead
    st[UNDO] = undo
    st[TRAIL_SIZE] = size
    return confl


def _compiled(grouped: bool, name: str):
    """Compile `_propagate_source` with GROUPED = grouped: numba freezes a global when it
    compiles and drops the branches a constant decides, so the version for formulas
    without groups is the watched-literal loop alone (no group array, view or test)."""
    source = _propagate_source
    function = FunctionType(source.__code__, {**globals(), "GROUPED": grouped}, name)
    function.__qualname__ = name  # its own entry in numba's disk cache
    function.__doc__ = source.__doc__
    return njit(cache=True)(function)


@_by_types
def _has_group_fields(F):
    """Whether F is a GroupFormula: a constant of each compiled version of propagate."""
    return (lambda F: True) if _has_groups(F) else (lambda F: False)


_propagate_grouped = _compiled(True, "_propagate_grouped")


@_by_types
def _grouped_version(F, S):
    """Call the version of propagate with group code, for a GroupFormula (never called
    with a Formula: `propagate` tests `_has_group_fields` first)."""
    if _has_groups(F):
        return lambda F, S: _propagate_grouped(F, S)
    return lambda F, S: NO_CONFLICT


# The engine's propagate: for a Formula the watched-literal loop, for a GroupFormula a
# call of _propagate_grouped (numba compiles it once per type of F, as every kernel).
propagate = _compiled(False, "propagate")


@njit(cache=True)
def reason_clause(F, r):
    """Return the input index of the clause a reason refers to, or -1 for none."""
    if r >= 0:
        return F.corig[r]
    if r <= BINARY_REASON:
        return F.bcls[BINARY_REASON - r]
    return -1


@njit(cache=True)
def setup_root(F, S, units, unit_idx):
    """Assert the unit clauses at level 0 and propagate; return NO_CONFLICT or a clause index."""
    value = S.value
    for u in range(units.shape[0]):
        lit = units[u]
        if value[lit] == -1:
            return unit_idx[u]
        if value[lit] == 0:
            enqueue(S, lit, REASON_UNIT)
    return propagate(F, S)


@njit(cache=True)
def check_literals(dimacs, num_vars):
    """Return True if every DIMACS literal is nonzero and names a variable <= num_vars."""
    for i in range(dimacs.shape[0]):
        d = dimacs[i]
        if d == 0 or d > num_vars or d < -num_vars:
            return False
    return True


@njit(cache=True)
def assume(F, S, codes):
    """Enqueue each assumption at a new decision level and propagate, as MiniSat does.

    An assumption that is already true opens no level.  Return NO_CONFLICT, the index
    of a falsified clause, or CONFLICT_ASSUMPTION when an assumption is already false;
    the trail keeps what was assigned (the caller backtracks)."""
    value = S.value
    for i in range(codes.shape[0]):
        lit = codes[i]
        if value[lit] == -1:
            return CONFLICT_ASSUMPTION
        if value[lit] == 1:
            continue
        new_decision_level(S)
        enqueue(S, lit, REASON_DECISION)
        confl = propagate(F, S)
        if confl != NO_CONFLICT:
            return confl
    return NO_CONFLICT


@njit(cache=True)
def trail_dimacs(S, start):
    """Return the DIMACS literals of trail[start:], in assignment order."""
    trail, st = S.trail, S.st
    out = np.empty(st[TRAIL_SIZE] - start, np.int64)
    for i in range(start, st[TRAIL_SIZE]):
        out[i - start] = to_dimacs(trail[i])
    return out


@njit(cache=True)
def propagate_kernel(F, S, dimacs):
    """Entry point of Engine.propagate: return (status, literals above the root level).

    status is NO_CONFLICT, BAD_LITERAL, or a conflict code (then literals is empty).
    The state is back at level 0 afterwards."""
    num_vars = S.level.shape[0]
    if not check_literals(dimacs, num_vars):
        return BAD_LITERAL, np.empty(0, np.int64)
    confl = assume(F, S, to_codes(dimacs))
    if confl != NO_CONFLICT:
        cancel_until(S, 0)
        return confl, np.empty(0, np.int64)
    out = trail_dimacs(S, S.trail_lim[0] if S.st[DLEVEL] > 0 else S.st[TRAIL_SIZE])
    cancel_until(S, 0)
    return NO_CONFLICT, out


@njit(cache=True)
def trace_kernel(F, S, dimacs):
    """Entry point of Engine.trace: return (status, literals, reasons) above the root level.

    Unlike propagate_kernel the literals assigned before a conflict are returned too,
    so that an explainer can show how the contradiction was reached."""
    num_vars = S.level.shape[0]
    if not check_literals(dimacs, num_vars):
        return BAD_LITERAL, np.empty(0, np.int64), np.empty(0, np.int64)
    confl = assume(F, S, to_codes(dimacs))
    start = S.trail_lim[0] if S.st[DLEVEL] > 0 else S.st[TRAIL_SIZE]
    out = trail_dimacs(S, start)
    why = np.empty(out.shape[0], np.int64)
    trail, reason = S.trail, S.reason
    for i in range(out.shape[0]):
        why[i] = reason_clause(F, reason[trail[start + i] >> 1])
    cancel_until(S, 0)
    return confl, out, why


@njit(cache=True)
def model_dimacs(S):
    """Return the current assignment as one signed DIMACS literal per variable."""
    value = S.value
    n = value.shape[0] // 2
    out = np.empty(n, np.int64)
    for v in range(n):
        out[v] = to_dimacs(2 * v if value[2 * v] == 1 else 2 * v + 1)  # x_v true or false
    return out


@njit(cache=True)
def propagate_batch_kernel(F, S, dimacs, offsets, status, found, found_at):
    """Entry point of Engine.propagate_batch: propagate_kernel for many assumption sets.

    Set i is dimacs[offsets[i]:offsets[i + 1]]; its status goes to status[i] and its
    literals above the root level (none on a conflict) to found[found_at[i]:found_at[i
    + 1]], as DIMACS ints.  `found` needs room for num_vars literals per set; `found_at`
    has one more entry than there are sets.  The state is back at level 0 afterwards."""
    num_vars = S.level.shape[0]
    trail, trail_lim, st = S.trail, S.trail_lim, S.st
    k = 0
    found_at[0] = 0
    for i in range(offsets.shape[0] - 1):
        lits = dimacs[offsets[i] : offsets[i + 1]]
        if not check_literals(lits, num_vars):
            status[i] = BAD_LITERAL
        else:
            confl = assume(F, S, to_codes(lits))
            status[i] = confl
            if confl == NO_CONFLICT:
                start = trail_lim[0] if st[DLEVEL] > 0 else st[TRAIL_SIZE]
                for t in range(start, st[TRAIL_SIZE]):
                    found[k] = to_dimacs(trail[t])
                    k += 1
            cancel_until(S, 0)
        found_at[i + 1] = k
    return k
