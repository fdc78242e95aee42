"""DPLL's branching heuristic keeps cursors (solvers/core/native/search/search.c), so a
decision costs O(1) amortised: one clause over many variables decides each free
variable once, where a scan from the first variable at each decision was quadratic
(10^5 variables took 25 s, 10^7 gave no answer in 180 s).  The decisions themselves
are pinned by the golden search counts (test_core_search.py)."""

from __future__ import annotations

import subprocess
import sys

from solvers.core.engine import Engine

MANY = 400_000  # the quadratic scan took minutes here; the cursors take well under 1 s


def test_one_long_clause_is_solved_in_linear_time():
    """In a subprocess with a wide limit (a loaded 2-core CI machine): a quadratic
    branch would need about 16 x 10^10 steps for these decisions."""
    code = (
        "from solvers.core.engine import Engine\n"
        f"answer = Engine([list(range(1, {MANY} + 1))]).solve()\n"
        "print(answer.status.name, answer.work.decisions)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["SAT", str(MANY)]


def test_backtracking_restores_the_cursors():
    """Models counted over free variables and binary clauses, each branch's cursors
    restored: all 2^k models of k free variables, and the 3 of exactly-one."""
    assert Engine([[1, -1]], 12).count().count == 2**12
    exactly_one = [[1, 2, 3], [-1, -2], [-1, -3], [-2, -3]]
    models = list(Engine(exactly_one).enumerate())
    assert sorted(models) == sorted([(1, -2, -3), (-1, 2, -3), (-1, -2, 3)])
