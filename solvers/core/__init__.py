"""The native core: the bit board of the centrale encoding and the clause engine, in C
(solvers/core/*.c, built by the package's own build), with this thin Python face.

`Board(geometry)` answers what the clause engine `Clauses` answers on the exam's rule
formula (unit propagation, the failed-literal closures nested to depth k, the depth
loop; board_impl.h says why they are equal), on fsss2's layout: one bit board per
value over all cells plus a bit per full house still open for the value.  Arrays go in
and come out as numpy arrays, one call for many grids; the kernels run without the GIL,
and Ctrl-C raises KeyboardInterrupt within a few tens of milliseconds.

The kernels are compiled for several instruction sets and the best this processor runs
is used (`variant()`); `variants()` lists those it runs and `use_variant(name)` picks
one (the tests run each).  SUDOKU_SAT_CORE, when set, is a folder of other builds of
the extensions to load instead (the sanitizer test builds them there).

Work budgets.  Each kernel counts its work (cells placed and hypotheses tested); a
depth loop given `budget` gives a grid up (DEPTH_BUDGET, at the depth it was working on)
at the first hypothesis boundary where the work spent on that grid exceeds the budget,
so the same grids and budget give the same answers on every machine.
"""

from __future__ import annotations

import importlib
import math
import os
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_loader

import numpy as np

from encoder.geometry import Geometry


def load_extension(name: str):
    """The compiled extension `solvers.core.<name>` (build.py lists them), or the build of
    it in the folder SUDOKU_SAT_CORE names (the sanitizer test builds one there)."""
    folder = os.environ.get("SUDOKU_SAT_CORE")
    if not folder:
        try:
            return importlib.import_module("solvers.core." + name)
        except ModuleNotFoundError:  # a checkout whose C sources were never compiled
            here = os.path.dirname(__file__)
            raise ImportError(
                f"the native core is not built in {here}: run `pip install -e .` in the "
                "checkout (or `pip install .`), which compiles solvers/core/*.c"
            ) from None
    path = os.path.join(folder, name + sysconfig.get_config_var("EXT_SUFFIX"))
    loader = ExtensionFileLoader("solvers.core." + name, path)
    module = module_from_spec(spec_from_loader("solvers.core." + name, loader))
    loader.exec_module(module)
    return module


_core = load_extension("_core")

Trace = _core.Trace  # Trace(flat, offsets, num_vars).trace(assumptions): see trace.c
variants = _core.variants  # the variants this processor runs, best last
variant = _core.variant  # the variant in use
use_variant = _core.use_variant  # use_variant(name): use that one

POLARITIES = ("both", "positive")
MAX_SIDE = 64  # one bit per value in a 64-bit word

# A grid's outcome in a depth loop: the extension's own constants (core.h), one definition.
DEPTH_OPEN = _core.DEPTH_OPEN  # no depth up to max_depth fills it
DEPTH_SAT = _core.DEPTH_SAT  # the closure of its depth fills the grid
DEPTH_UNSAT = _core.DEPTH_UNSAT  # the closure of its depth is contradictory
DEPTH_BAD = _core.DEPTH_BAD  # a value outside 0..N
DEPTH_TIMEOUT = _core.DEPTH_TIMEOUT  # its opt-in time limit passed (the clause engine's)
DEPTH_BUDGET = _core.DEPTH_BUDGET  # its work budget ran out at its depth
# Clauses.bounded_probe's outcomes: the extension's own constants, one definition.
PROBE_OK = 0  # else the number of literals
PROBE_CONFLICT = _core.PROBE_CONFLICT
PROBE_BUDGET = _core.PROBE_BUDGET
PROBE_TIME = _core.PROBE_TIME
BOARD_ENCODING = "centrale"  # the one rule formula whose propagation the board computes


def applies(geometry: Geometry, encoding: str) -> bool:
    """Return True when the board computes the clause engine's answers for rules of
    `geometry` in `encoding`: the exam's complete encoding (pairwise, by that exact
    name) and a side of at most MAX_SIDE.  Decided from the names the caller loads the
    rules by, never from clauses."""
    return encoding == BOARD_ENCODING and 1 <= geometry.size <= MAX_SIDE


@dataclass(frozen=True)
class Depths:
    """The depth rating of many grids, one entry per grid: `status` (DEPTH_*), `depth`
    (the depth that settled it, the last one tried when open, the one the budget
    stopped), `solutions` (the cells placed: the filled grid when SAT), `seconds` (the
    kernel's time on the grid) and `work` (the work units it spent)."""

    status: np.ndarray
    depth: np.ndarray
    solutions: np.ndarray
    seconds: np.ndarray
    work: np.ndarray


def engine_for(
    geometry: Geometry,
    encoding: str = BOARD_ENCODING,
    proofs: bool = False,
    time_limit: bool = False,
) -> Board | Clauses:
    """Return the core's engine for the rules of `geometry` in `encoding`: the board
    where it computes the clause engine's answers (`applies`) and neither proofs (the
    closures' lemmas) nor the opt-in time limit are asked, else the clause engine over
    the rule formula.  Both answer `probe`, `propagate`, `depths`, `work` and
    `hypotheses` alike; the caller never asks which it got."""
    if applies(geometry, encoding) and not proofs and not time_limit:
        return Board(geometry)
    from encoder.dimacs import Cnf  # the board never needs the clauses
    from encoder.encodings import rule_formula

    formula = rule_formula(geometry, encoding)
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    return Clauses((cnf.literals, cnf.offsets), formula.num_vars)


def grid_rows(grids, cells: int) -> np.ndarray:
    """Return grids (rows of `cells` values) as a C-contiguous int8 array, without a copy
    when they are one already; raise ValueError or TypeError naming what is wrong."""
    a = np.asarray(grids)
    if a.size == 0 and a.ndim <= 2 and a.shape[-1:] in ((0,), (cells,)):
        return np.zeros((0, cells), np.int8)
    if a.dtype.kind not in "iu" and a.dtype != np.bool_:
        raise TypeError(f"grids must hold integers, not {a.dtype}")
    if a.ndim != 2 or a.shape[1] != cells:
        raise ValueError(f"grids must be rows of {cells} values, not an array of shape {a.shape}")
    if a.dtype != np.int8:
        if a.size and (a.min() < -128 or a.max() > 127):
            raise ValueError("grid values must lie in 0..N")
        a = a.astype(np.int8)
    return np.ascontiguousarray(a)


def _polarity(polarity: str) -> bool:
    if polarity not in POLARITIES:
        raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
    return polarity == "positive"


class Board:
    """The bit boards of one geometry (side up to MAX_SIDE) and their work arrays; one
    kernel at a time."""

    def __init__(self, geometry: Geometry):
        n = geometry.size
        if not 1 <= n <= MAX_SIDE:
            raise ValueError(f"the board takes sides 1..{MAX_SIDE}, not {n}")
        self.geometry = geometry
        self.cells = n * n
        full = [region.cells for region in geometry.regions if len(region.cells) == n]
        houses = np.array(full, np.int32).reshape(len(full), n)
        most = max((len(p) for p in geometry.peers), default=0)
        peers = np.full((self.cells, most), -1, np.int32)
        for c, row in enumerate(geometry.peers):
            peers[c, : len(row)] = row
        self._board = _core.Board(n, houses, peers)
        self._out = np.empty(n * self.cells, np.int64)

    @property
    def work(self) -> int:
        """Work units spent by this board so far (cells placed, hypotheses tested)."""
        return self._board.counters()[0]

    @property
    def hypotheses(self) -> int:
        """Hypotheses tested by this board so far."""
        return self._board.counters()[1]

    def propagate_batch(self, grids) -> tuple[np.ndarray, np.ndarray]:
        """Propagate the givens of each row of `grids` (N*N values, 0 for a blank): return
        (ok, values), ok[g] 1 at a fixpoint, 0 on a contradiction, -1 for a value outside
        0..N, and values[g] each cell's value at the fixpoint (0 when open)."""
        grids = grid_rows(grids, self.cells)
        ok = np.empty(grids.shape[0], np.int8)
        values = np.empty_like(grids)
        self._board.batch(grids, ok, values)
        return ok, values

    def probe(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
    ):
        """Return (True, every cell literal the closure of depth `depth` of the
        assumptions holds) or (False, []), as BoardEngine.probe; `as_array`: the
        literals as an int64 array."""
        if not as_array:  # read and answered by the extension, no array made
            return self._board.probe_list(assumptions, depth, _polarity(polarity))
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        count = self._board.probe(lits, int(depth), _polarity(polarity), self._out)
        if count < 0:
            return False, np.empty(0, np.int64) if as_array else []
        out = self._out[:count].copy()
        return True, out if as_array else out.tolist()

    def propagate(self, assumptions: Sequence[int] | np.ndarray = (), as_array: bool = False):
        """Return probe's answer at depth 0: unit propagation alone."""
        if not as_array:  # probe's path without its checks of depth and polarity
            return self._board.probe_list(assumptions, 0, False)
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
    ) -> Depths:
        """Rate each grid at the first depth whose closure fills it (SAT) or contradicts
        (UNSAT), else OPEN at max_depth; `budget` (work units, None: none) bounds each
        grid's work.  The board keeps no proof log and no clock: `log` and `time_limit`
        are Clauses.depths' (`engine_for` gives the clause engine when they are asked)."""
        if log is not None or log_at is not None or time_limit is not None:
            raise ValueError(
                "the board keeps no proof log and no clock: rate on the clause engine "
                "(solvers.core.engine_for with proofs or a time limit)"
            )
        grids = grid_rows(grids, self.cells)
        limit = _budget(budget)
        status, depth, solutions, work, ns = _depth_arrays(grids)
        self._board.depths(
            grids, int(max_depth), _polarity(polarity), limit, status, depth, solutions, work, ns
        )
        return Depths(status, depth, solutions, ns / 1e9, work)

    def placements(self, grid, repeats: int = 1) -> int:
        """Test every hypothesis "cell = value" of the grid's propagated givens, each on a
        copy of the board, `repeats` times: return how many were tested (-1 when the
        givens contradict).  For timing one placement test."""
        return self._board.placements(grid_rows([grid], self.cells)[0], int(repeats))


class Clauses:
    """A CNF formula of DIMACS clauses in the native clause engine (watched literals),
    with its own propagation state; one kernel at a time.  Every query starts and ends
    at the root level (the formula's units and what they imply), whose literals the
    answers leave out, as Engine's do."""

    def __init__(self, clauses, num_vars: int | None = None):
        """`clauses`: lists of DIMACS ints, or a pair (flat, offsets) of int64 arrays,
        clause i being flat[offsets[i]:offsets[i + 1]]; num_vars defaults to the highest
        variable.  A formula of no variable is refused."""
        if isinstance(clauses, tuple) and len(clauses) == 2 and hasattr(clauses[0], "dtype"):
            flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in clauses)
        else:
            flat, offsets = literal_sets(clauses)
        if num_vars is None:
            num_vars = int(np.abs(flat).max()) if flat.size else 0
        self.num_vars = num_vars
        self._cnf = _core.Clauses(flat, offsets, int(num_vars))
        self._out = np.empty(num_vars, np.int64)

    @property
    def work(self) -> int:
        """Work units spent so far (literals propagated, hypotheses tested)."""
        return self._cnf.counters()[0]

    @property
    def hypotheses(self) -> int:
        return self._cnf.counters()[1]

    @property
    def ok(self) -> bool:
        """False when the formula's units (or an empty clause) are contradictory."""
        return not self._cnf.counters()[2]

    @property
    def conflicts(self) -> int:
        """Failed hypotheses and contradictory frames so far."""
        return self._cnf.counters()[3]

    def probe(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
        log: np.ndarray | None = None,
    ):
        """Return (True, the literals above the root level of the closure of depth
        `depth` of the assumptions) or (False, []), as Engine.probe; `log`: where the
        failed literals are written as lemmas (`solvers.core.proof_log`; None: nowhere)."""
        if not as_array and log is None:  # read and answered by the extension, no array
            return self._cnf.probe_list(assumptions, depth, _polarity(polarity))
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        logged = () if log is None else (log,)
        count = self._cnf.probe(lits, int(depth), _polarity(polarity), self._out, *logged)
        if count < 0:
            return False, np.empty(0, np.int64) if as_array else []
        out = self._out[:count].copy()
        return True, out if as_array else out.tolist()

    def bounded_probe(
        self,
        assumptions: np.ndarray,
        depth: int,
        polarity: str = "both",
        log: np.ndarray | None = None,
        budget: int | None = None,
        time_limit: float | None = None,
    ) -> tuple[int, np.ndarray]:
        """`probe` as arrays, bounded: return (PROBE_OK, literals), (PROBE_CONFLICT, []),
        or (PROBE_BUDGET or PROBE_TIME, []) when the query's work passed `budget` (work
        units, None: none) or its time passed `time_limit` (seconds, None: none), both
        seen at a hypothesis boundary."""
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        count = self._cnf.probe(lits, int(depth), _polarity(polarity), self._out, log,
                                _budget(budget), _limit_ns(time_limit))  # fmt: skip
        if count < 0:
            return count, np.empty(0, np.int64)
        return PROBE_OK, self._out[:count].copy()

    def propagate(self, assumptions: Sequence[int] | np.ndarray = (), as_array: bool = False):
        """Return probe's answer at depth 0: unit propagation alone, as Engine.propagate."""
        if not as_array:  # probe's path without its checks of depth and polarity
            return self._cnf.probe_list(assumptions, 0, False)
        return self.probe(assumptions, 0, as_array=True)

    def propagate_batch(self, assumption_sets) -> tuple[np.ndarray, np.ndarray]:
        """Propagate each set of assumptions (lists of DIMACS ints, or a pair (flat,
        offsets)): return (ok, values), ok[g] 1 or 0 on a conflict, values[g] per
        variable 1 true, -1 false, 0 unassigned (root level included)."""
        if isinstance(assumption_sets, tuple) and len(assumption_sets) == 2:
            flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in assumption_sets)
        else:
            flat, offsets = literal_sets(assumption_sets)
        count = max(offsets.shape[0] - 1, 0)
        ok = np.empty(count, np.int8)
        values = np.empty((count, self.num_vars), np.int8)
        self._cnf.batch(flat, offsets, ok, values)
        return ok, values

    def depths(
        self,
        grids,
        max_depth: int,
        polarity: str = "both",
        budget: int | None = None,
        log: np.ndarray | None = None,
        log_at: np.ndarray | None = None,
        time_limit: float | None = None,
    ) -> Depths:
        """Rate grids as Board.depths does, on the clauses: rows of N*N values, N read
        from their length (cell c holding k is variable N * c + k).  `log` and `log_at`
        (one entry per grid and one more): where the closures' lemmas are written, grid
        g's from log_at[g] to log_at[g + 1] (`solvers.core.proof_log`; None: nowhere).
        `time_limit` (seconds, None: none; opt-in, the answers then depend on the
        machine): a grid still working past it is DEPTH_TIMEOUT, at the depth it was
        working on."""
        cells = np.shape(grids)[-1] if np.ndim(grids) == 2 else 0
        size = math.isqrt(cells)
        if size * size != cells or size**3 > self.num_vars:
            raise ValueError(
                f"grids must be rows of N*N values with N**3 <= {self.num_vars} (the "
                f"formula's variables), not rows of {cells}"
            )
        grids = grid_rows(grids, cells)
        limit = _budget(budget)
        status, depth, solutions, work, ns = _depth_arrays(grids)
        self._cnf.depths(
            grids, int(size), int(max_depth), _polarity(polarity), limit, status, depth,
            solutions, work, ns, log, log_at, _limit_ns(time_limit),
        )  # fmt: skip
        return Depths(status, depth, solutions, ns / 1e9, work)

    def closures(
        self,
        assumption_sets,
        depth: int,
        cell_vars: int,
        polarity: str = "both",
        budget: int | None = None,
        time_limit: float | None = None,
    ) -> Closures:
        """The closure of depth `depth` of each set of assumptions (lists of DIMACS ints,
        or a pair (flat, offsets)) in one call, as Engine.closures: the harness's closure
        solvers over a chunk of grids; `budget` (work units, None: none) bounds each, and
        so does `time_limit` (seconds, None: none; DEPTH_TIMEOUT)."""
        if isinstance(assumption_sets, tuple) and len(assumption_sets) == 2:
            flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in assumption_sets)
        else:
            flat, offsets = literal_sets(assumption_sets)
        limit = _budget(budget)
        count = max(offsets.shape[0] - 1, 0)
        status = np.zeros(count, np.int8)
        assigned, conflicts, work, ns = (np.zeros(count, np.int64) for _ in range(4))
        true = np.zeros((count, self.num_vars), np.bool_)
        self._cnf.closures(
            flat, offsets, int(depth), _polarity(polarity), int(cell_vars), limit, status,
            assigned, conflicts, work, ns, true.view(np.int8), _limit_ns(time_limit),
        )  # fmt: skip
        bad = np.flatnonzero(status == DEPTH_BAD)
        if bad.size:
            g = int(bad[0])
            lits = flat[offsets[g] : offsets[g + 1]].tolist()
            raise ValueError(
                f"set {g}: literals must be in 1..{self.num_vars} or their negation: {lits}"
            )
        return Closures(status, assigned, conflicts, work, ns / 1e9, true)


@dataclass(frozen=True)
class Closures:
    """The closures of one depth of many assumption sets (`Clauses.closures`), one entry
    per set, as solvers.core.engine.Closures: `status` (DEPTH_*: SAT when the closure
    assigns every one of the first `cell_vars` variables, OPEN, UNSAT, BAD for a literal
    beyond the formula, BUDGET), `assigned` (of those variables, root level included),
    `conflicts` (failed hypotheses and contradictory frames), `work`, `seconds`, and
    `true` (the variables true in the closure, one row per set; SAT rows only)."""

    status: np.ndarray
    assigned: np.ndarray
    conflicts: np.ndarray
    work: np.ndarray
    seconds: np.ndarray
    true: np.ndarray


def _budget(budget: int | None) -> int:
    """A work budget for the core: -1 for none."""
    if budget is not None and budget < 0:
        raise ValueError(f"budget must be >= 0 or None, not {budget}")
    return -1 if budget is None else int(budget)


def _depth_arrays(grids: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays a depth loop over `grids` fills: status, depth, solutions, work, ns."""
    count, cells = grids.shape
    return (np.zeros(count, np.int8), np.zeros(count, np.int16),
            np.zeros((count, cells), np.int8), np.zeros(count, np.int64),
            np.zeros(count, np.int64))  # fmt: skip


def _limit_ns(seconds: float | None) -> int:
    """A time limit for the core: nanoseconds, 0 for none."""
    if seconds is None or seconds == math.inf:
        return 0
    if not seconds > 0:
        raise ValueError(f"a time limit must be > 0 seconds or None, not {seconds}")
    return max(1, int(seconds * 1e9))


def literal_sets(sets) -> tuple[np.ndarray, np.ndarray]:
    """Return lists of DIMACS ints as (flat, offsets) int64 arrays."""
    sets = [list(s) for s in sets]
    offsets = np.zeros(len(sets) + 1, np.int64)
    np.cumsum([len(s) for s in sets], out=offsets[1:])
    flat = np.fromiter((lit for s in sets for lit in s), np.int64, int(offsets[-1]))
    return flat, offsets
