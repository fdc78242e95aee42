"""The Python side of the core's boundary: the arguments every kernel takes (grids as
int8 rows, literal sets as flat and offsets arrays, budgets, time limits, polarity),
made once here so that each face passes the extension what its C boundary checks; and
the face the board and the clause engine share (`ClosureFace`)."""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence

import numpy as np

POLARITIES = ("both", "positive")


def grid_rows(grids, cells: int) -> np.ndarray:
    """Return grids (rows of `cells` values) as a C-contiguous int8 array, without a copy
    when they are one already; raise ValueError or TypeError naming what is wrong."""
    a = np.asarray(grids)
    if a.size == 0 and a.ndim <= 2 and a.shape[-1:] in ((0,), (cells,)):
        return np.zeros((0, cells), np.int8)
    if a.dtype.kind not in "iu":  # a float, bool or object grid is another grid once cast
        raise TypeError(f"grids must hold integers, not {a.dtype}")
    if a.ndim != 2 or a.shape[1] != cells:
        raise ValueError(f"grids must be rows of {cells} values, not an array of shape {a.shape}")
    if a.dtype != np.int8:
        if a.size and (a.min() < -128 or a.max() > 127):  # int8 would wrap them
            raise ValueError(f"grid values must lie in 0..N, not {a.min()}..{a.max()}")
        a = a.astype(np.int8)
    return np.ascontiguousarray(a)


def literal_sets(sets) -> tuple[np.ndarray, np.ndarray]:
    """Return sets of DIMACS ints as (flat, offsets) int64 arrays: lists of ints, or a
    pair (flat, offsets) of numpy integer arrays, taken as they are.  Only a pair of
    arrays is read as (flat, offsets): ([1], [6]) is two sets.  Exact integers only: a
    float, a string or a uint64 beyond int64 is refused, not cast into another set."""
    if isinstance(sets, tuple) and len(sets) == 2 and all(isinstance(a, np.ndarray) for a in sets):
        return exact_int64(sets[0], "flat"), exact_int64(sets[1], "offsets")
    sets = [list(s) for s in sets]
    offsets = np.zeros(len(sets) + 1, np.int64)
    np.cumsum([len(s) for s in sets], out=offsets[1:])
    if bool in set(map(type, itertools.chain.from_iterable(sets))):  # (index takes True)
        raise TypeError("a literal must be an integer, not a bool")
    literals = map(operator.index, itertools.chain.from_iterable(sets))
    try:
        flat = np.fromiter(literals, np.int64, int(offsets[-1]))
    except TypeError as problem:
        raise TypeError(f"a literal must be an integer: {problem}") from None
    except OverflowError:
        raise OverflowError("a literal beyond int64") from None
    return flat, offsets


def literal_array(assumptions) -> np.ndarray:
    """Assumptions (a sequence of ints, or an integer array) as a 1-D int64 array,
    exact integers only, as the list paths in C take them: 1.9 is refused, not 1."""
    if not isinstance(assumptions, np.ndarray):
        if not isinstance(assumptions, list | tuple):
            assumptions = list(assumptions)
        if bool in set(map(type, assumptions)):  # (numpy would read True as 1)
            raise TypeError("an assumption must be an integer, not a bool")
        try:  # numpy reads ints as int64, and a float or a string as what it is
            assumptions = np.asarray(assumptions)
        except OverflowError:
            raise OverflowError("an assumption beyond int64") from None
        if assumptions.size == 0:
            return np.empty(0, np.int64)
    return exact_int64(assumptions.reshape(-1), "assumptions")


def exact_int64(a: np.ndarray, name: str) -> np.ndarray:
    """`a` as a C-contiguous int64 array, when it holds integers int64 can hold."""
    if a.dtype == np.int64 and a.flags.c_contiguous:  # the common case, at once
        return a
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, not {a.dtype}")
    if a.dtype.kind == "u" and a.size and int(a.max()) > np.iinfo(np.int64).max:
        raise OverflowError(f"{name}: {int(a.max())} is beyond int64")
    return np.ascontiguousarray(a, dtype=np.int64)


def polarity_flag(polarity: str) -> bool:
    """The kernels' flag for `polarity`: True for cell=value hypotheses only."""
    if polarity not in POLARITIES:
        raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
    return polarity == "positive"


def budget_units(budget: int | None) -> int:
    """A limit or budget for the core: a whole number >= 0, or None (-1: none).  A float
    or a bool is refused, not truncated into another limit."""
    if budget is None:
        return -1
    if isinstance(budget, bool) or not isinstance(budget, int | np.integer):
        raise TypeError(f"a limit or budget must be an integer or None, not {budget!r}")
    if budget < 0:
        raise ValueError(f"a limit or budget must be >= 0 or None, not {budget}")
    return int(budget)


def depth_arrays(grids: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays a depth loop over `grids` fills: status, depth, solutions, work, ns."""
    count, cells = grids.shape
    return (np.zeros(count, np.int8), np.zeros(count, np.int16),
            np.zeros((count, cells), np.int8), np.zeros(count, np.int64),
            np.zeros(count, np.int64))  # fmt: skip


def limit_ns(seconds: float | None) -> int:
    """A time limit for the core: nanoseconds, 0 for none."""
    if seconds is None or seconds == math.inf:
        return 0
    if not seconds > 0:
        raise ValueError(f"a time limit must be > 0 seconds or None, not {seconds}")
    return max(1, int(seconds * 1e9))


class ClosureFace:
    """What the board and the clause engine answer alike, on their native object
    `_native` (answers written to `_out`): `probe`, `propagate` and `depths`.  Each type
    reads its grids (`_grid_rows`) and runs its depth loop (`_depth_loop`); both depth
    loops write proof logs, only the clause engine's probe does (`keeps_log`)."""

    keeps_log = False
    _native: object
    _out: np.ndarray

    @property
    def work(self) -> int:
        """Work units spent so far (literals propagated or cells placed, hypotheses
        tested)."""
        return self._native.counters()[0]

    @property
    def hypotheses(self) -> int:
        """Hypotheses tested so far."""
        return self._native.counters()[1]

    def probe(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
        log: np.ndarray | None = None,
    ):
        """Return (True, the literals above the root level of the closure of depth
        `depth` of the assumptions) or (False, []), as Engine.probe; `as_array`: the
        literals as an int64 array; `log`: where the failed literals are written as
        lemmas (`solvers.core.proof_log`; None: nowhere; the clause engine's alone)."""
        if log is not None and not self.keeps_log:
            raise ValueError("the board keeps no proof log: probe on the clause engine")
        if not as_array and log is None:  # read and answered by the extension, no array
            return self._native.probe_list(assumptions, depth, polarity_flag(polarity))
        lits = literal_array(assumptions)
        logged = () if log is None else (log,)
        count = self._native.probe(lits, int(depth), polarity_flag(polarity), self._out, *logged)
        if count < 0:
            return False, np.empty(0, np.int64) if as_array else []
        out = self._out[:count].copy()
        return True, out if as_array else out.tolist()

    def propagate(self, assumptions: Sequence[int] | np.ndarray = (), as_array: bool = False):
        """Return probe's answer at depth 0: unit propagation alone, the assumptions
        enqueued together, as a closure starts."""
        if not as_array:  # probe's path without its checks of depth and polarity
            return self._native.probe_list(assumptions, 0, False)
        return self.probe(assumptions, 0, as_array=True)

    def depths(
        self,
        grids,
        max_depth: int,
        polarity: str = "both",
        budget: int | None = None,
        log: np.ndarray | None = None,
        log_at: np.ndarray | None = None,
        time_limit: float | None = None,
    ):
        """Rate each grid (a row of N*N values, 0 for a blank) at the first depth whose
        closure fills it (SAT) or contradicts (UNSAT), else OPEN at max_depth; `budget`
        (work units, None: none) bounds each grid's work, and `time_limit` (seconds,
        None: none; opt-in, the answers then depend on the machine) its wall time: a
        grid still working past it is DEPTH_TIMEOUT, at the depth it was working on.
        `log` and `log_at` (one entry per grid and one more): where the closures'
        lemmas are written, grid g's from log_at[g] to log_at[g + 1]
        (`solvers.core.proof_log`; None: nowhere)."""
        from solvers.core.extension import Depths

        grids = self._grid_rows(grids)
        arrays = depth_arrays(grids)
        flag, limit = polarity_flag(polarity), budget_units(budget)
        self._depth_loop(grids, int(max_depth), flag, limit, arrays, log, log_at, time_limit)
        status, depth, solutions, work, ns = arrays
        return Depths(status, depth, solutions, ns / 1e9, work)

    def _grid_rows(self, grids) -> np.ndarray:
        raise NotImplementedError

    def _depth_loop(self, grids, max_depth, flag, limit, arrays, log, log_at, time_limit):
        raise NotImplementedError
