"""Random full grids for any geometry, driven by the home engine.

A generator is "the resolution of an empty grid" (school paper), but the engine's
search is deterministic: it would always give the same full grid.  So the search here
is a small randomized backtracking written on top of `Engine.propagate`: at each node
the decisions taken so far are propagated (unit propagation on the exam's encoding,
which finds naked and hidden singles), the open cell with the fewest candidates is
chosen (ties broken at random) and its candidates are tried in random order.  Only the
*result* of propagation is used, which is a fixed point independent of the engine's
internals, so a seed gives the same grid whatever changes inside the engine.

The grids are random but not uniformly distributed over all full grids (uniform
sampling needs counting); every full grid has a non-zero probability.  A search that
backtracks too often restarts (with the same random stream), which bounds the rare
heavy-tailed runs on 16x16 and 25x25 grids.

`phase_guided_grid` is the other road, for geometries where that search gets lost
(jigsaw maps of 12x12 and more, `puzzles.jigsaw`): one call of PySAT's Minisat22
with a random preferred value per cell (`set_phases`), which CDCL follows wherever the
rules allow, within a budget of conflicts.  A seed still gives the same grid (MiniSat
is deterministic, and a conflict budget does not depend on the machine's speed).

Beyond 25x25 neither search is affordable (the exam's formula alone is 33 million
clauses at 64x64), and `pattern_full_grid` is the third road: the classic pattern of
a box geometry (value (w*(i mod h) + i div h + j) mod N in cell (i,j) for h x w boxes; i + j
mod N for a Latin square), shuffled by the moves that keep the rules: rows within
their band of boxes, the bands, columns within their stack, the stacks, and the values.
Random, seeded and far from uniform (every grid it makes is one of few equivalence
classes), which is all the encoder's big-size benchmarks need.

`GridSampler` is a `GridRules` (solvers.core.rules: the rules loaded once, counting
by the engine's search) with the random completion added; `puzzles.counting` holds
the PySAT counter that tests compare the engine's count with.
"""

from __future__ import annotations

import random
from functools import lru_cache

import numpy as np

from encoder.decode import grid_from_model
from encoder.encodings import rule_formula
from encoder.errors import GridError
from encoder.geometry import Geometry
from encoder.numbering import Grid, cell_var
from solvers.budgets import DEFAULT_WORK
from solvers.core.board import lookahead_for
from solvers.core.rules import GridRules
from solvers.limits import pysat_solve_in_one_call
from solvers.results import SolutionCount

SEARCHED_UP_TO = 25  # larger grids come from pattern_full_grid


class _Restart(Exception):
    """Raised inside the randomized search when it has backtracked too often."""


class GridSampler(GridRules):
    """A `GridRules` (centrale rules) that also completes grids at random, and answers
    generation's "no solution, unique or several?" on the board."""

    def __init__(self, geometry: Geometry):
        super().__init__(geometry, "centrale")
        if not self.engine.ok:
            raise GridError(f"the rules of {geometry.describe()} have no solution")

    def two_or_fewer(self, grid: Grid) -> SolutionCount:
        """Return the number of solutions of `grid` up to 2 (no solution, unique, or
        several), what generation asks: the board's DPLL (every size generation
        searches, up to SEARCHED_UP_TO, is one the board takes)."""
        return self.count(grid, 2)

    def minimal(self, full: Grid, order: list[int]) -> Grid:
        """Return the minimal puzzle of `full` (a full grid, or a puzzle with one
        solution) that emptying its cells in `order` while the solution stays unique
        leaves: every remaining given is necessary.  One call of the board's kernel,
        every uniqueness test in the core (a test the work budget stops keeps its
        given)."""
        board = self.board
        puzzles, _, _ = board.minimal(np.array([full], np.int8), np.array([order], np.int32),
                                      DEFAULT_WORK, lookahead_for(self.geometry))  # fmt: skip
        return tuple(puzzles[0].tolist())

    def random_completion(
        self,
        rng: random.Random,
        grid: Grid | None = None,
        max_backtracks: int | None = None,
        max_restarts: int | None = None,
    ) -> Grid | None:
        """Return a random solution of `grid` (the empty grid by default), or None when it
        has none (or none was found within `max_restarts` restarts, if given).

        A run restarts after `max_backtracks` (default 20*N*N) backtracks, and each
        restart doubles the allowance, so without `max_restarts` the search is complete."""
        n = self.geometry.size
        base = tuple(grid) if grid is not None else (0,) * (n * n)
        limit = max_backtracks if max_backtracks is not None else 20 * n * n
        restarts = 0
        while True:
            try:
                return self._dfs(rng, base, limit)
            except _Restart:
                restarts += 1
                if max_restarts is not None and restarts > max_restarts:
                    return None
                limit *= 2

    def _dfs(self, rng: random.Random, base: Grid, limit: int) -> Grid | None:
        n = self.geometry.size
        givens = self.givens(base)
        decisions: list[int] = []  # one literal per level: cell c holds k
        untried: list[list[int]] = []  # the other values of that level's cell
        backtracks = 0
        while True:
            alive = self.candidates(givens + decisions)
            if alive is not None:
                counts = alive.sum(axis=1)
                assert counts.min() > 0  # a cell without a value is a conflict of its K1 clause
                open_counts = np.where(counts > 1, counts, n + 1)
                fewest = int(open_counts.min())
                if fewest == n + 1:  # every cell has one value left: a full grid
                    return tuple(int(v) + 1 for v in alive.argmax(axis=1))
                cells = np.flatnonzero(open_counts == fewest)
                c = int(cells[rng.randrange(len(cells))])
                values = [int(k) + 1 for k in np.flatnonzero(alive[c])]
                rng.shuffle(values)
                decisions.append(cell_var(c, values.pop(), n))
                untried.append([cell_var(c, k, n) for k in values])
                continue
            # Contradiction: try the next value of the deepest level that has one.
            while untried and not untried[-1]:
                untried.pop()
                decisions.pop()
            if not untried:
                return None
            backtracks += 1
            if backtracks > limit:
                raise _Restart
            decisions[-1] = untried[-1].pop()


@lru_cache(maxsize=8)
def sampler_for(geometry: Geometry) -> GridSampler:
    """Return the (cached) GridSampler of a geometry."""
    return GridSampler(geometry)


def random_full_grid(geometry: Geometry, rng: random.Random) -> Grid:
    """Return a random full grid of `geometry`; raise GridError if it has none."""
    grid = sampler_for(geometry).random_completion(rng)
    if grid is None:
        raise GridError(f"{geometry.describe()}: no full grid exists")
    return grid


# Conflicts Minisat22 may spend on one phase-guided grid: a budget, not a time limit,
# so that a seed gives the same grid on any machine.  16x16 jigsaw maps take up to about
# 40,000 (a few seconds); 25x25 maps are seldom completed (20 seconds per 100,000).
PHASE_GUIDED_CONFLICTS = 100_000


def phase_guided_grid(
    geometry: Geometry, rng: random.Random, conflicts: int | None = PHASE_GUIDED_CONFLICTS
) -> Grid | None:
    """Return a random full grid found by Minisat22 steered by random phases (one
    preferred value per cell, drawn from `rng`), or None when the rules have none or
    none was found within `conflicts` conflicts (None: no limit).  Ctrl-C raises
    KeyboardInterrupt."""
    from pysat.solvers import Minisat22

    n = geometry.size
    phases = []
    for c in range(n * n):
        chosen = rng.randrange(1, n + 1)
        phases += [cell_var(c, k, n) * (1 if k == chosen else -1) for k in range(1, n + 1)]
    with Minisat22(bootstrap_with=rule_formula(geometry, "centrale").clauses) as solver:
        solver.set_phases(phases)
        found = pysat_solve_in_one_call(solver, conflicts=conflicts)
        return grid_from_model(solver.get_model(), geometry) if found else None


def pattern_full_grid(geometry: Geometry, rng: random.Random) -> Grid:
    """Return a full grid of a box geometry or a Latin square: the pattern grid shuffled
    (see the module docstring).  GridError for other variants (diagonals, windows,
    jigsaw)."""
    n = geometry.size
    others = [e for e in geometry.extras if e != "no-boxes"]
    if others:
        raise GridError(
            f"{geometry.describe()}: full grids beyond {SEARCHED_UP_TO}x{SEARCHED_UP_TO} are made "
            "for boxes or Latin squares only"
        )
    h, w = geometry.box or (1, n)  # a Latin square: rows and columns shuffle freely

    def shuffled_lines(height: int, groups: int) -> list[int]:
        order = rng.sample(range(groups), groups)
        return [g * height + r for g in order for r in rng.sample(range(height), height)]

    rows = shuffled_lines(h, n // h)
    cols = shuffled_lines(w, n // w) if geometry.box else rng.sample(range(n), n)
    values = rng.sample(range(1, n + 1), n)
    if geometry.box:
        pattern = [[(w * (i % h) + i // h + j) % n for j in range(n)] for i in range(n)]
    else:
        pattern = [[(i + j) % n for j in range(n)] for i in range(n)]
    return tuple(values[pattern[i][j]] for i in rows for j in cols)
