"""A bit-parallel Sudoku board: unit propagation and failed-literal closures of the
exam's complete encoding, computed on candidate masks instead of clauses.

A board is one 64-bit word per cell, the set of values still possible there (bit k-1
for value k, so sides up to 64), beside the geometry's region table (`BoardTables`:
every house as a list of cells, and each cell's peers).  `propagate` runs the two
Sudoku rules to their fixpoint: a cell with one candidate takes it out of its peers
(naked single), and a value with one place left in a full house goes there (hidden
single); a cell with no candidate or a full house value with no place is a
contradiction (two cells of a house fixed to the same value empty one of them).
`closure` is solvers.probe's failed-literal closure nested to depth k, with the same
hypotheses: for the cell literal x(c, v), "x true" is "cell c = v" and "x false" is
"v removed from c", both polarities, or the positive ones alone (positive_only, as
probe's polarity "positive"); a hypothesis that contradicts under the closure of depth
k-1 is negated and propagated, until a full round over the open literals learns
nothing.  A nested hypothesis is tested on a copy of the board (N*N words) instead of
on a trail; `ladder` rates grids the way probe.ladder_kernel does (same statuses,
depths, cursor and pausing), for `solvers.board_engine`.

Why the answers are the engine's.  This board applies only to the rule formula of the
`centrale` encoding (K1 L1 C1 B1 ... at least one, K2 L2 C2 B2 ... pairwise at most
one, the at-least-one of a house only when it has N cells, as encoder.encodings writes
it).  Read the board as the assignment "x(c, v) is false when v is no longer a
candidate of c, true when v is c's only candidate".  Each board step is a sequence of
unit-propagation steps on that formula: a naked single is K1's clause becoming unit,
then K2's and the houses' binary clauses removing v from the peers; a hidden single is
a house's at-least-one clause becoming unit, then K2 emptying the cell of its other
values; an empty cell is K1 falsified, a house value with no place its at-least-one
clause falsified.  Conversely, at the board's fixpoint no clause is unit or falsified:
every unit step of those clause kinds is one of the board's rules.  Unit propagation
has a unique result on any formula (its set of implied literals only grows, and a
conflict reached in one order is reached in every order), so the board's fixpoint is
exactly the literals clause propagation implies, and a contradiction exactly a
conflict.  The closures are the unique fixpoints probe.py describes, built from that
same propagation, so they are equal too; the order in which hypotheses are tried
changes no answer.  Every other encoding and any DIMACS file stay on the CNF engine.

A hypothesis that passes marks every literal its closure holds as passing too (for a
literal b in the closure of a, the closure of b lies inside that of a): per frame a
mask per cell and polarity, cleared whenever the frame learns a fact.  In the last frame
(hypotheses tested by propagation alone) a removal "v removed from c" that leaves c two
candidates or more and v two other places or more in each full house of c implies
nothing more, so it passes without a copy of the board (`_quiet_removal`).

Words are int64, not uint64: numba turns a uint64 combined with an integer literal
into a float, and int64 holds the same 64 bits (value 64 is the sign bit).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from encoder.geometry import Geometry
from solvers.probe import (
    CUR_DEPTH,
    CUR_END,
    CUR_GRID,
    CUR_START,
    CUR_WORK,
    LADDER_BAD,
    LADDER_OPEN,
    LADDER_SAT,
    LADDER_UNSAT,
    cycle_counter,
)
from solvers.propagate import BAD_LITERAL, CONFLICT_CLOSURE, NO_CONFLICT, PAUSED

# Slots of the counters array `st`.
WORK = 0  # cells propagated and hypotheses tested, the clock of pausing
PAUSE_AT = 1  # closure and ladder pause between hypotheses once WORK reaches it
HYPOTHESES = 2  # hypotheses tested
TOP = 3  # the frame a paused closure resumes in
NUM_COUNTERS = 4

# Columns of the frame stack of `closure`.
POS = 0  # next candidate (round-robin): N * (2 * cell + negative) + value - 1
QUIET = 1  # candidates looked at since the frame last learnt a fact
HYP = 2  # the hypothesis being tested one level up
WITNESSES = 3  # how many witnesses the frame keeps (see closure)
NUM_COLUMNS = 4
WITNESS_WORDS = 1 << 19  # per frame at most: 9x9 and 12x12 keep witnesses, 16x16 not


@dataclass(frozen=True)
class BoardTables:
    """The geometry as the kernels read it (`kernel_args`, the tuple T): `houses` (the
    cells of each full house, a region of N cells, whose at-least-one clauses the
    encoding writes: the others only forbid repeats, through the peers), `peers` (per
    cell the cells sharing any region with it, `peer_count` of them, padded with -1),
    `cell_houses` (per cell its full houses, `house_count` of them) and `dims` (N)."""

    houses: np.ndarray
    peers: np.ndarray
    peer_count: np.ndarray
    cell_houses: np.ndarray
    house_count: np.ndarray
    dims: np.ndarray

    @classmethod
    def of(cls, geometry: Geometry) -> BoardTables:
        n, cells = geometry.size, geometry.size**2
        full = [region.cells for region in geometry.regions if len(region.cells) == n]
        houses = np.array(full, np.int32).reshape(len(full), n)
        of_cell: list[list[int]] = [[] for _ in range(cells)]
        for h, house in enumerate(full):
            for c in house:
                of_cell[c].append(h)
        return cls(houses, *_ragged(geometry.peers), *_ragged(of_cell), np.array([n], np.int64))

    def kernel_args(self) -> tuple:
        """Return the tables as the kernels take them, `T`."""
        return (
            self.houses, self.peers, self.peer_count, self.cell_houses, self.house_count,
            self.dims,
        )  # fmt: skip


def _ragged(rows) -> tuple[np.ndarray, np.ndarray]:
    """Return lists of ints as a table padded with -1 and the length of each row."""
    most = max((len(row) for row in rows), default=0)
    table = np.full((len(rows), most), -1, np.int32)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    return table, np.array([len(row) for row in rows], np.int32)


@intrinsic
def trailing_zeros(typingctx, word):
    """Return the number of zero bits below the lowest set bit of a nonzero int64 (LLVM's
    cttz, one instruction): the value index of a single candidate."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.cttz", [i64, ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def _single(m):
    return m != 0 and (m & (m - 1)) == 0


@njit(cache=True)
def all_values(n):
    """Return the word of values 1..n."""
    return np.int64(-1) if n == 64 else (np.int64(1) << n) - 1


@njit(cache=True, inline="always")
def _touch(dirty, cell_houses, house_count, c):
    """Mark the full houses of cell c for the next hidden-single scan."""
    for j in range(house_count[c]):
        dirty[cell_houses[c, j]] = 1


@njit(cache=True)
def propagate(T, board, Q, pushed, changed, st):
    """Run naked and hidden singles on `board` to the fixpoint; return False on a
    contradiction (the board is then left half-propagated, for the caller to drop).

    queue[:pushed] (Q's first array) are the cells that became single since the board
    was last at its fixpoint: their value leaves their peers first.  `changed` is the
    one cell whose candidates changed otherwise (-1: any cell may have).  A house is
    scanned for hidden singles only when a cell of it changed since its last scan (Q's
    second array marks them).  At the fixpoint every single cell's value has left its
    peers and every full house value with one place is in a single cell."""
    houses, peers, peer_count, cell_houses, house_count, dims = T
    queue, dirty = Q
    n_all = all_values(dims[0])
    if changed < 0:
        dirty[:] = 1
    else:
        _touch(dirty, cell_houses, house_count, changed)
    head = 0
    tail = pushed
    while True:
        while head < tail:  # naked singles: the value of a single cell leaves its peers
            c = queue[head]
            head += 1
            m = board[c]
            for i in range(peer_count[c]):
                p = peers[c, i]
                pm = board[p]
                if pm & m:
                    pm &= ~m
                    if pm == 0:
                        dirty[:] = 0
                        return False
                    board[p] = pm
                    _touch(dirty, cell_houses, house_count, p)
                    if (pm & (pm - 1)) == 0:
                        queue[tail] = p
                        tail += 1
        st[WORK] += tail
        head = tail = 0
        # Hidden singles: per house, the values with exactly one place (`once`) that
        # is not already a single cell (`placed`).
        for h in range(houses.shape[0]):
            if dirty[h] == 0:
                continue
            dirty[h] = 0
            seen = 0
            twice = 0
            placed = 0
            for i in range(houses.shape[1]):
                m = board[houses[h, i]]
                twice |= seen & m
                seen |= m
                if (m & (m - 1)) == 0:
                    placed |= m
            if seen != n_all:
                dirty[:] = 0
                return False  # a value with no place left in the house
            hidden = seen & ~twice & ~placed
            if hidden == 0:
                continue
            for i in range(houses.shape[1]):
                c = houses[h, i]
                m = board[c]
                x = m & hidden
                if x == 0:
                    continue
                if (x & (x - 1)) != 0:
                    dirty[:] = 0
                    return False  # two values whose only place is this cell
                board[c] = x
                _touch(dirty, cell_houses, house_count, c)
                queue[tail] = c
                tail += 1
        if tail == 0:
            return True


@njit(cache=True)
def start_board(T, board, Q, grid, st):
    """Set `board` to the givens of `grid` (N*N values, 0 for a blank) and propagate:
    return 1 at a fixpoint, 0 on a contradiction, -1 for a value outside 0..N."""
    n = T[5][0]
    board[:] = all_values(n)
    pushed = 0
    for c in range(n * n):
        k = grid[c]
        if k == 0:
            continue
        if k < 0 or k > n:
            return -1
        board[c] = np.int64(1) << (k - 1)
        Q[0][pushed] = c
        pushed += 1
    return 1 if propagate(T, board, Q, pushed, -1, st) else 0


@njit(cache=True)
def assume_literals(T, board, Q, dimacs, st):
    """Apply DIMACS cell literals (x(c, k) is variable N*c + k) to `board` at its
    fixpoint and propagate: return False on a contradiction.  A positive literal is
    "cell c = k", a negative one "k removed from c"; one already false is a
    contradiction, as an assumption already false is for the engine."""
    n = T[5][0]
    pushed = 0
    for i in range(dimacs.shape[0]):
        lit = dimacs[i]
        var = lit if lit > 0 else -lit
        c = (var - 1) // n
        bit = np.int64(1) << ((var - 1) % n)
        m = board[c]
        if lit > 0:
            if not m & bit:
                return False
            if m != bit:
                board[c] = bit
                Q[0][pushed] = c
                pushed += 1
        elif m & bit:
            m &= ~bit
            if m == 0:
                return False
            board[c] = m
            if _single(m):
                Q[0][pushed] = c
                pushed += 1
    return propagate(T, board, Q, pushed, -1, st)


@njit(cache=True)
def _test(T, board, Q, code, n, st):
    """Apply hypothesis `code` (see POS: "cell c = v", or "v removed from c") to
    `board` and propagate: return False on a contradiction."""
    c = code // (2 * n)
    bit = np.int64(1) << (code % n)
    if (code // n) & 1:  # "v removed from c"
        m = board[c] & ~bit
        if m == 0:
            return False
        board[c] = m
        pushed = 0
        if _single(m):
            Q[0][0] = c
            pushed = 1
        return propagate(T, board, Q, pushed, c, st)
    board[c] = bit  # "cell c = v"
    Q[0][0] = c
    return propagate(T, board, Q, 1, c, st)


@njit(cache=True)
def _quiet_removal(T, board, c, bit):
    """Return True when the hypothesis "the value of `bit` removed from cell c", on
    `board` at its fixpoint, propagates nothing and contradicts nothing: c keeps two
    candidates or more, and the value two other places or more in each full house of c.
    Unit propagation then implies no literal beyond the hypothesis, so it passes without
    a copy of the board."""
    houses, _, _, cell_houses, house_count, _ = T
    m = board[c] & ~bit
    if (m & (m - 1)) == 0:
        return False
    for j in range(house_count[c]):
        h = cell_houses[c, j]
        places = 0
        for i in range(houses.shape[1]):
            if board[houses[h, i]] & bit:
                places += 1
        if places < 3:  # c and at most one other place: a hidden single or none
            return False
    return True


@njit(cache=True, inline="always")
def _negation(code, n):
    """Return the code of the hypothesis opposite to `code` (see POS)."""
    return code - n if (code // n) & 1 else code + n


@njit(cache=True)
def _mark_passed(passed, before, after):
    """Mark as passing every literal of the closure `after` of a hypothesis that passed
    on `before`: the cells' single values, and the values it removed."""
    for c in range(before.shape[0]):
        m = after[c]
        if _single(m):
            passed[0, c] |= m
        passed[1, c] |= before[c] & ~m


@njit(cache=True)
def _open_frame(frames, passed, d):
    frames[d, POS] = 0
    frames[d, QUIET] = 0
    frames[d, WITNESSES] = 0
    passed[d, :, :] = 0


@njit(cache=True)
def _keep_witnessed(passed, witnesses, listed, frames, d, board):
    """After frame d learnt facts (its board is now `board`), keep the witnesses whose
    closure holds every fact of `board` (their closure is unchanged, so it still
    passes) and rebuild the frame's marks from them; drop the others."""
    passed[d, :, :] = 0
    kept = 0
    for i in range(frames[d, WITNESSES]):
        w = listed[d, i]
        closure_w = witnesses[d, w]
        holds = True
        for c in range(closure_w.shape[0]):
            if closure_w[c] & ~board[c]:
                holds = False
                break
        if holds:
            listed[d, kept] = w
            kept += 1
            _mark_passed(passed[d], board, closure_w)
    frames[d, WITNESSES] = kept


@njit(cache=True)
def closure(T, boards, Q, depth, positive_only, M, frames, st, resume):
    """Close boards[0] (at its fixpoint) under the failed-literal rule of depth `depth`.

    Return NO_CONFLICT with the closure in boards[0], CONFLICT_CLOSURE, or PAUSED when
    st[WORK] reached st[PAUSE_AT] between two hypotheses (call again with resume=True
    and the same arrays).  Frame d tests its hypotheses on boards[d + 1], a copy of
    boards[d], with the closure of depth depth - d - 1.  `boards` needs depth + 1 rows,
    `frames` depth rows of NUM_COLUMNS, and the marks M = (passed, witnesses, listed)
    depth rows: `passed` of (2, N*N) masks, and, unless `witnesses` has no columns, per
    frame the closure of each passing hypothesis (by its code) and the list of those
    kept (see the module docstring)."""
    passed, witnesses, listed = M
    n = T[5][0]
    cells = n * n
    ncand = 2 * cells * n
    keeps = witnesses.shape[1] > 0
    if resume:
        top = st[TOP]
    else:
        if depth <= 0:
            return NO_CONFLICT
        top = 0
        _open_frame(frames, passed, 0)
    while True:
        if st[WORK] >= st[PAUSE_AT]:
            st[TOP] = top
            return PAUSED
        # The next open literal of frame `top` not known to pass.
        board = boards[top]
        code = -1
        while frames[top, QUIET] < ncand:
            # Slot s holds the literals of one cell and polarity; the slot's open ones
            # not known to pass are a word, so a slot is skipped at once.
            k = frames[top, POS]
            s = k // n
            c = s >> 1
            m = board[c]
            if (m & (m - 1)) == 0 or (s & 1 and positive_only):
                following = 2 * n * (c + 1) if (m & (m - 1)) == 0 else (s + 1) * n
                open_here = 0
            else:
                following = (s + 1) * n
                open_here = m & ~passed[top, s & 1, c] & (np.int64(-1) << (k - s * n))
            if open_here == 0:
                frames[top, QUIET] += following - k
                frames[top, POS] = following if following < ncand else 0
                continue
            code = s * n + trailing_zeros(open_here)
            frames[top, QUIET] += code + 1 - k
            frames[top, POS] = code + 1 if code + 1 < ncand else 0
            break
        if code < 0:  # a full round learnt nothing: frame `top` is at its fixpoint
            if top == 0:
                return NO_CONFLICT
            top -= 1
            ok = True  # ... so the hypothesis of the frame below passes
        else:
            st[HYPOTHESES] += 1
            st[WORK] += 1
            if top + 1 == depth and (code // n) & 1:  # "v removed from c"
                c, bit = code // (2 * n), np.int64(1) << (code % n)
                if _quiet_removal(T, board, c, bit):
                    passed[top, 1, c] |= bit
                    continue  # passes, and its closure is itself
            frames[top, HYP] = code
            boards[top + 1, :] = board
            if not _test(T, boards[top + 1], Q, code, n, st):
                ok = False
            elif top + 1 == depth:
                ok = True  # the last frame tests hypotheses with propagation alone
            else:
                top += 1
                _open_frame(frames, passed, top)
                continue
        # The hypothesis of frame `top` is decided; a failure may cascade down.
        while True:
            witnessing = keeps and top + 1 < depth
            if ok:
                _mark_passed(passed[top], boards[top], boards[top + 1])
                if witnessing:
                    hyp = frames[top, HYP]
                    witnesses[top, hyp, :] = boards[top + 1, :cells]
                    listed[top, frames[top, WITNESSES]] = hyp
                    frames[top, WITNESSES] += 1
                break
            frames[top, QUIET] = 0
            if _test(T, boards[top], Q, _negation(frames[top, HYP], n), n, st):
                if witnessing:
                    _keep_witnessed(passed, witnesses, listed, frames, top, boards[top])
                else:  # the facts grew: earlier passes prove nothing now
                    passed[top, :, :] = 0
                break
            if top == 0:
                return CONFLICT_CLOSURE
            top -= 1  # frame `top` is contradictory, so its own hypothesis fails


@njit(cache=True)
def board_literals(T, board):
    """Return the DIMACS literals the board holds: x(c, k) (variable N*c + k) for a
    cell's single value, -x(c, k) for each value no longer possible."""
    n = T[5][0]
    cells = n * n
    out = np.empty(cells * n, np.int64)
    count = 0
    for c in range(cells):
        m = board[c]
        single = _single(m)
        for k in range(n):
            if m >> k & 1:
                if single:
                    out[count] = n * c + k + 1
                    count += 1
            else:
                out[count] = -(n * c + k + 1)
                count += 1
    return out[:count]


@njit(cache=True)
def closure_kernel(T, boards, Q, dimacs, depth, positive_only, M, frames, st, resume):
    """Entry point of BoardEngine.probe: the closure of depth `depth` of the board of no
    givens under the assumptions `dimacs`; return (status, literals) as the engine's
    closure_kernel does (every literal the closure holds; BAD_LITERAL for an assumption
    that is no cell literal)."""
    if resume:
        status = closure(T, boards, Q, depth, positive_only, M, frames, st, True)
    else:
        n = T[5][0]
        for i in range(dimacs.shape[0]):
            if dimacs[i] == 0 or abs(dimacs[i]) > n * n * n:
                return BAD_LITERAL, np.empty(0, np.int64)
        boards[0, :] = all_values(n)
        if not assume_literals(T, boards[0], Q, dimacs, st):
            return CONFLICT_CLOSURE, np.empty(0, np.int64)
        status = closure(T, boards, Q, depth, positive_only, M, frames, st, False)
    if status != NO_CONFLICT:
        return status, np.empty(0, np.int64)
    return NO_CONFLICT, board_literals(T, boards[0])


@njit(cache=True)
def propagate_batch_kernel(T, board, Q, grids, ok, out, st):
    """Propagate the givens of each row of `grids`: ok[g] (1 fixpoint, 0 contradiction,
    -1 bad value) and out[g] the board at the fixpoint (the candidate words)."""
    for g in range(grids.shape[0]):
        ok[g] = start_board(T, board, Q, grids[g], st)
        out[g, :] = board


@njit(cache=True)
def _filled(board, out):
    """Write each cell's value into `out` (0 when open) and return True when none is open."""
    full = True
    for c in range(out.shape[0]):
        m = board[c]
        if _single(m):
            out[c] = trailing_zeros(m) + 1
        else:
            out[c] = 0
            full = False
    return full


@njit(cache=True)
def ladder_kernel(
    T, boards, Q, grids, max_depth, positive_only, M, frames, st, cursor, status, depths,
    solutions, cycles, resume
):  # fmt: skip
    """Rate grids cursor[CUR_GRID] .. cursor[CUR_END]-1 of `grids` as
    solvers.probe.ladder_kernel does (the same statuses, depths, solutions, cursor and
    pausing between grids or inside a closure; resume=(cursor[CUR_DEPTH] >= 0)), on the
    board: the givens propagated, then the closures of depth 1, 2, ... max_depth each
    on top of the one below."""
    rated = 0
    g = cursor[CUR_GRID]
    while g < cursor[CUR_END]:
        if resume:
            d = cursor[CUR_DEPTH]
            result = closure(T, boards, Q, d, positive_only, M, frames, st, True)
            resume = False
        else:
            if rated > 0 and st[WORK] >= st[PAUSE_AT]:
                cursor[CUR_GRID] = g
                cursor[CUR_DEPTH] = -1
                return PAUSED
            cursor[CUR_START] = cycle_counter()
            cursor[CUR_WORK] = st[WORK]
            started = start_board(T, boards[0], Q, grids[g], st)
            if started < 0:
                status[g] = LADDER_BAD
                depths[g] = 0
                cycles[g] = cycle_counter() - cursor[CUR_START]
                g += 1
                rated += 1
                continue
            d = 0
            result = NO_CONFLICT if started == 1 else CONFLICT_CLOSURE
        while True:
            if result == PAUSED:
                cursor[CUR_GRID] = g
                cursor[CUR_DEPTH] = d
                return PAUSED
            if result != NO_CONFLICT:
                status[g] = LADDER_UNSAT
                break
            if _filled(boards[0], solutions[g]):
                status[g] = LADDER_SAT
                break
            if d >= max_depth:
                status[g] = LADDER_OPEN
                break
            d += 1
            result = closure(T, boards, Q, d, positive_only, M, frames, st, False)
        depths[g] = d
        cycles[g] = cycle_counter() - cursor[CUR_START]
        g += 1
        rated += 1
    cursor[CUR_GRID] = g
    cursor[CUR_DEPTH] = -1
    return NO_CONFLICT
