"""The bit-parallel board's Python face: `BoardEngine`, the depth-rating and closure
queries of `Engine` answered by `solvers.bitboard`'s kernels for one geometry.

It answers what `Engine` answers on the rule formula of the `centrale` encoding
(`solvers.core.applies`), with no trail: no reasons, proofs or propagation counts, only
closures and depth labels.  `solvers.depth_rating.Rater` uses it for the depth rating
when it applies; everything else stays on the engine.

Long queries run in slices as the engine's do: the kernels pause about every tenth of
a second (st[PAUSE_AT]) between two hypotheses, so Python sees Ctrl-C and the time
limit, and are resumed where they stopped.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from encoder.geometry import Geometry
from encoder.numbering import Lit
from solvers.bitboard import (
    NUM_COLUMNS,
    NUM_COUNTERS,
    PAUSE_AT,
    WITNESS_WORDS,
    WORK,
    BoardTables,
    closure_kernel,
    ladder_kernel,
    propagate_batch_kernel,
)
from solvers.engine import (
    POLARITIES,
    GridClock,
    Ladder,
    _call,
    cycles_per_second,
    ladder_arrays,
)
from solvers.limits import next_slice, raised_in_numba, watch_compilation
from solvers.probe import (
    LADDER_BUDGET,
    LADDER_TIMEOUT,
)
from solvers.propagate import BAD_LITERAL, CONFLICT_CLOSURE, NEVER, NO_CONFLICT, PAUSED

watch_compilation()  # compiling the kernels never counts against a time limit

FIRST_SLICE = 1 << 14  # work units (cells propagated, hypotheses) before the first pause


class BoardEngine:
    """The board of one geometry and its reusable work arrays."""

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        self.tables = BoardTables.of(geometry)
        self._T = self.tables.kernel_args()
        cells = geometry.size**2
        houses = self.tables.houses.shape[0]
        self._Q = (np.zeros(cells, np.int32), np.zeros(houses, np.int8))  # queue, dirty houses
        self._st = np.zeros(NUM_COUNTERS, np.int64)
        self._st[PAUSE_AT] = NEVER
        self._frames = np.zeros((0, NUM_COLUMNS), np.int64)
        self._room(1)
        self.slice_size = FIRST_SLICE

    def _room(self, depth: int) -> None:
        """Grow the board stack, marks and frames for closures of `depth`."""
        if self._frames.shape[0] < depth:
            n = self.geometry.size
            cells = n * n
            candidates = 2 * cells * n
            kept = candidates if depth > 1 and candidates * cells <= WITNESS_WORDS else 0
            self._boards = np.zeros((depth + 1, cells), np.int64)
            self._marks = (
                np.zeros((depth, 2, cells), np.int64),  # passed
                np.zeros((depth, kept, cells), np.int64),  # witnesses' closures
                np.zeros((depth, kept), np.int32),  # the witnesses kept
            )
            self._frames = np.zeros((depth, NUM_COLUMNS), np.int64)

    def _sliced(self, kernel, args: tuple, paused: Callable, grids: GridClock | None = None):
        """Call a resumable kernel slice by slice (Python's signal handlers run between
        two slices) until it finishes; for a kernel over many grids, `grids` caps each
        slice at a grid's budget and says whether the next slice resumes."""
        st = self._st
        resume = False
        try:
            while True:
                if grids is None:
                    st[PAUSE_AT] = st[WORK] + self.slice_size
                else:
                    st[PAUSE_AT] = grids.pause_at(int(st[WORK]), self.slice_size)
                began = time.monotonic()
                try:
                    out = _call(kernel, *args, resume)
                except SystemError as error:  # Ctrl-C while numba boxed the result
                    if raised_in_numba(error, KeyboardInterrupt):
                        raise KeyboardInterrupt from None
                    raise
                if not paused(out):
                    return out
                self.slice_size = next_slice(self.slice_size, time.monotonic() - began)
                resume = True if grids is None else grids.between()
        finally:
            st[PAUSE_AT] = NEVER

    def propagate_batch(self, grids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Propagate the givens of each row of `grids` (N*N values, 0 for a blank): return
        (ok, boards), ok[g] 1 at a fixpoint, 0 on a contradiction, -1 for a bad value, and
        boards[g] the candidate words of each cell (bit k-1 for value k)."""
        grids = np.ascontiguousarray(grids, dtype=np.int8)
        ok = np.zeros(grids.shape[0], np.int8)
        out = np.zeros((grids.shape[0], self._boards.shape[1]), np.int64)
        propagate_batch_kernel(self._T, self._boards[0], self._Q, grids, ok, out, self._st)
        return ok, out

    def propagate(self, assumptions: Sequence[Lit] = (), as_array: bool = False):
        """Return Engine.propagate's answer on the rules: (True, every cell literal unit
        propagation of the assumptions implies) or (False, []); `as_array`: the literals
        as an int64 array."""
        return self.probe(assumptions, 0, as_array=as_array)

    def probe(
        self,
        assumptions: Sequence[Lit] = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
    ) -> tuple[bool, list[Lit]]:
        """Return Engine.probe's answer on the rules: (True, every cell literal the
        closure of depth `depth` of the assumptions holds) or (False, []); `as_array`:
        the literals as an int64 array."""
        if polarity not in POLARITIES:
            raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
        if depth < 0:
            raise ValueError(f"depth must be >= 0, not {depth}")
        lits = np.ascontiguousarray(assumptions, dtype=np.int64)
        self._room(max(depth, 1))
        args = (self._T, self._boards, self._Q, lits, int(depth), polarity == "positive")
        args += (self._marks, self._frames, self._st)
        if depth == 0:  # propagation never pauses
            status, out = _call(closure_kernel, *args, False)
        else:
            status, out = self._sliced(closure_kernel, args, _closure_paused)
        if status == BAD_LITERAL:
            cells = self.geometry.size**3
            raise ValueError(f"assumptions must be cell literals 1..{cells}: {lits.tolist()}")
        if status == CONFLICT_CLOSURE:
            return False, out if as_array else []
        assert status == NO_CONFLICT
        return True, out if as_array else out.tolist()

    def ladder(
        self,
        grids: np.ndarray,
        size: int,
        max_depth: int,
        polarity: str = "both",
        time_limit: float | None = None,
        budget: int | None = None,
    ) -> Ladder:
        """Return Engine.ladder's answer for grids of this geometry (`size` is its side):
        each grid rated at the first depth whose closure fills it or is contradictory,
        `budget` (work: cells placed and hypotheses tested, None: none) and `time_limit`
        (seconds, None: none) bounding each grid."""
        if size != self.geometry.size:
            raise ValueError(f"grids of side {size} on a board of side {self.geometry.size}")
        grids, status, depth, solutions, cycles = ladder_arrays(grids, size, max_depth, polarity)
        rate = cycles_per_second()
        self._room(max(max_depth, 1))

        def give_up(g: int, at_depth: int, spent: int, over: bool) -> None:
            status[g] = LADDER_BUDGET if over else LADDER_TIMEOUT
            depth[g], cycles[g] = at_depth, spent

        st = self._st
        clock = GridClock(
            grids.shape[0], budget, lambda: int(st[WORK]), give_up, time_limit=time_limit, rate=rate
        )
        args = (self._T, self._boards, self._Q, grids, max_depth, polarity == "positive")
        args += (self._marks, self._frames, st, clock.cursor, status, depth, solutions, cycles)
        self._sliced(ladder_kernel, args, _ladder_paused, clock)
        return Ladder(status, depth, solutions, cycles / rate)


def _closure_paused(out: tuple) -> bool:
    return out[0] == PAUSED


def _ladder_paused(out: int) -> bool:
    return out == PAUSED
