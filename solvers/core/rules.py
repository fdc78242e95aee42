"""The rule formula of one geometry loaded once in an engine: the one place that builds
"rules + engine".  A grid's givens are passed as assumptions, so one `GridRules`
serves every grid of its geometry (rating, explaining, counting, generating).

What it answers about a grid is what unit propagation and search give: the candidates
left to each cell, whether a value is forced, and the number of solutions up to a cap
(`SolutionCount`), counted by the board's DPLL (`board`, one per GridRules, made at its
first count) for the rules it computes, else by the engine's search.
"""

from __future__ import annotations

import numpy as np

from encoder.encodings import Formula, given_literals, rule_formula
from encoder.geometry import Geometry
from encoder.numbering import Grid, cell_var, num_cell_vars
from solvers.budgets import DEFAULT_WORK
from solvers.core.engine import Engine
from solvers.results import SolutionCount, Work


class GridRules:
    """The rules of `geometry` in `encoding`, loaded in one engine."""

    def __init__(self, geometry: Geometry, encoding: str = "centrale"):
        self.geometry = geometry
        self.encoding = encoding
        self._board = None
        self.formula: Formula = rule_formula(geometry, encoding)
        self.engine = Engine(self.formula.clauses, self.formula.num_vars)
        n = geometry.size
        self._cell_vars = num_cell_vars(n)
        fixed = self.engine.fixed() if self.engine.ok else []  # not ok: every grid is UNSAT
        self._root_false = [-lit - 1 for lit in fixed if -self._cell_vars <= lit < 0]
        self._root_true = {lit for lit in fixed if 0 < lit <= self._cell_vars}

    def givens(self, grid: Grid) -> list[int]:
        """Return the assumptions stating the givens, one positive literal per given."""
        return given_literals(grid, self.geometry)

    def candidates(self, assumptions: list[int]) -> np.ndarray | None:
        """Return an N*N x N boolean array of the values unit propagation of the
        `assumptions` (cell literals) leaves to each cell, or None on a contradiction."""
        ok, lits = self.engine.propagate(assumptions)
        if not ok:
            return None
        n = self.geometry.size
        alive = np.ones(self._cell_vars, dtype=bool)
        arr = np.asarray(lits, dtype=np.int64)
        negative = -arr[(arr < 0) & (arr >= -self._cell_vars)] - 1
        alive[negative] = False
        alive[self._root_false] = False
        return alive.reshape(n * n, n)  # row c, column k-1: variable cell_var(c, k) - 1

    def forces(self, grid: Grid, c: int, value: int) -> bool:
        """Return True when unit propagation of the givens of `grid` puts `value` in cell c
        (then every solution has it there)."""
        ok, lits = self.engine.propagate(self.givens(grid))
        target = cell_var(c, value, self.geometry.size)
        return not ok or target in lits or target in self._root_true

    @property
    def board(self):
        """The board of the geometry (`solvers.core.board.Board`), or None when the
        board does not compute these rules (another encoding, a side beyond MAX_SIDE)."""
        from solvers.core.board import Board, applies

        if self._board is None and applies(self.geometry, self.encoding):
            self._board = Board(self.geometry)
        return self._board

    def count(
        self, grid: Grid, cap: int | None = 2, work: int | None = DEFAULT_WORK
    ) -> SolutionCount:
        """Return the number of solutions of `grid`, stopping at `cap` (>= 1; None: no
        cap), by the board's DPLL within `work` units (None: no budget; past it the
        count says `over_budget`), or by the engine's search (chronological
        backtracking, no blocking clauses) where the board does not apply."""
        if cap is not None and cap < 1:
            raise ValueError(f"cap must be >= 1, not {cap}")
        board = self.board
        if board is None:
            return self.engine.count(limit=cap, assumptions=self.givens(grid))
        from solvers.core.board import lookahead_for
        from solvers.core.extension import STATUS_BUDGET, STATUS_EXHAUSTED

        out = board.count([grid], cap, budget=work, lookahead=lookahead_for(self.geometry))
        status = int(out.status[0])
        work_done = Work(decisions=int(out.decisions[0]), conflicts=int(out.conflicts[0]))
        return SolutionCount(int(out.models[0]), status == STATUS_EXHAUSTED, work_done,
                             over_budget=status == STATUS_BUDGET)  # fmt: skip
