"""Work budgets: a grid past its budget is given up at a point that depends on the grid
and the budget alone (so every machine, at any load, prints the same labels): the same
statuses, depths and counters from a fresh engine or a used one, the grid alone or in a
batch; under the budget nothing changes."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cli.flags import budget_item
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import standard
from encoder.grids import parse_grid
from encoder.numbering import num_cell_vars
from solvers.backends.registry import make_backend
from solvers.budgets import (
    DEFAULT_BUDGET,
    KINDS,
    OVER_BUDGET,
    Budget,
    BudgetExhausted,
    budget_from,
)
from solvers.core import DEPTH_BUDGET, DEPTH_SAT, Board, Clauses
from solvers.core.engine import Engine
from solvers.ratings.bxb import BXB, LengthColumn
from solvers.ratings.depth import Rater
from solvers.ratings.length import RefutationRater
from solvers.results import Status

GEOMETRY = standard(9)
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
DEPTH_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
DEPTH_0 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _grids() -> np.ndarray:
    rows = [parse_grid(line, GEOMETRY) for line in (EASTER_MONSTER, DEPTH_1, DEPTH_0)]
    return np.array(rows, dtype=np.int8)


def test_the_board_gives_a_grid_up_at_the_same_point_every_time():
    grids = _grids()
    board = Board(GEOMETRY)
    work = int(board.depths(grids[:1], 2).work[0])
    assert work > 1_000  # Easter Monster needs depth 2: thousands of units
    for budget in (1, work // 3, work - 1, work, None):
        answers = set()
        for fresh in (False, True, False):
            rater = Board(GEOMETRY) if fresh else board
            out = rater.depths(grids, 2, budget=budget)
            alone = rater.depths(grids[:1], 2, budget=budget)
            assert alone.work[0] == out.work[0]
            answers.add((tuple(out.status.tolist()), tuple(out.depth.tolist()),
                         tuple(out.work.tolist())))  # fmt: skip
        assert len(answers) == 1, (budget, answers)
        ((status, depth, _),) = answers
        if budget is None or budget >= work:
            assert status[0] == DEPTH_SAT and depth[0] == 2
        else:
            assert status[0] == DEPTH_BUDGET
        assert status[2] == DEPTH_SAT  # propagation alone: no hypothesis, nothing to stop


def test_the_clause_engine_gives_a_grid_up_at_the_same_point_every_time():
    formula = rule_formula(GEOMETRY, "centrale")
    cnf = Clauses(formula.clauses, formula.num_vars)
    grids = _grids()
    work = int(cnf.depths(grids[:1], 2).work[0])
    seen = {}
    for budget in (10, work // 4, work - 1, None):
        answers = set()
        for fresh in (False, True, False):
            engine = Clauses(formula.clauses, formula.num_vars) if fresh else cnf
            out = engine.depths(grids, 2, budget=budget)
            answers.add((tuple(out.status.tolist()), tuple(out.depth.tolist()),
                         tuple(out.work.tolist())))  # fmt: skip
        assert len(answers) == 1, (budget, answers)
        seen[budget] = answers.pop()
    assert seen[10][0][0] == DEPTH_BUDGET and seen[None][0][0] == DEPTH_SAT
    # The closures of the harness: the same sets given up, with the same counters from
    # the same start (propagation moves the watches, and so a used engine's counts).
    sets = [given_literals(tuple(row), GEOMETRY) for row in grids.tolist()]
    outs = set()
    for _ in range(2):
        engine = Clauses(formula.clauses, formula.num_vars)
        out = engine.closures(sets, 2, num_cell_vars(9), budget=work // 4)
        outs.add((tuple(out.status.tolist()), tuple(out.work.tolist())))
    assert len(outs) == 1
    ((status, _),) = outs
    assert status[0] == DEPTH_BUDGET
    used = cnf.closures(sets, 2, num_cell_vars(9), budget=work // 4)
    assert tuple(used.status.tolist()) == status


def test_a_query_past_its_budget_raises_and_leaves_the_engine_ready():
    formula = rule_formula(GEOMETRY, "centrale")
    engine = Engine(formula.clauses, formula.num_vars)
    givens = given_literals(parse_grid(EASTER_MONSTER, GEOMETRY), GEOMETRY)
    with engine.limited(None, work=1_000), pytest.raises(BudgetExhausted):
        engine.probe(givens, depth=2)
    ok, literals = engine.probe(givens, depth=2)  # the same engine, no budget
    assert ok and len([lit for lit in literals if lit > 0]) == 81


def test_rater_labels_a_grid_past_its_budget_the_same_on_the_board_and_in_order():
    grid = parse_grid(EASTER_MONSTER, GEOMETRY)
    tight = Rater(GEOMETRY, budget=Budget(work=10))
    [rating] = tight.rate_many([grid], 2)
    assert rating.over_budget and rating.depth_label().startswith(OVER_BUDGET + "@")
    assert rating.bucket() == ">budget"
    assert Rater(GEOMETRY).rate(grid).depth_label() == "2"


def test_pysat_stops_at_its_conflict_budget_with_the_same_counts_every_time():
    formula = rule_formula(GEOMETRY, "centrale")
    givens = given_literals(parse_grid(EASTER_MONSTER, GEOMETRY), GEOMETRY)
    answers = []
    for _ in range(3):
        backend = make_backend("minisat22", budget=Budget(conflicts=5))
        backend.load(formula.clauses, formula.num_vars, num_cell_vars(9))
        result = backend.solve(givens)
        backend.close()
        answers.append((result.status, result.conflicts, result.decisions, result.reason))
        assert result.over_budget and not result.timed_out
        assert "work budget of 5 conflicts" in result.reason
    assert len(set(answers)) == 1
    with make_backend("minisat22") as backend:  # the default budget: solved
        backend.load(formula.clauses, formula.num_vars, num_cell_vars(9))
        assert backend.solve(givens).status is Status.SAT


def test_the_home_backends_label_a_grid_past_its_budget():
    formula = rule_formula(GEOMETRY, "centrale")
    givens = given_literals(parse_grid(EASTER_MONSTER, GEOMETRY), GEOMETRY)
    for name in ("fl2", "dpll"):
        with make_backend(name, budget=Budget(work=50)) as backend:
            backend.load(formula.clauses, formula.num_vars, num_cell_vars(9))
            [result] = backend.solve_many([givens])
            assert result.status is Status.UNKNOWN and result.over_budget, name
            assert "work budget of 50 work units" in result.reason


@pytest.mark.parametrize(
    ("solver", "budget", "kind"),
    [("dpll", Budget(work=50), "50 work units"),
     ("minisat22", Budget(conflicts=1), "1 conflicts")],
)  # fmt: skip
def test_the_python_api_solve_takes_a_budget_as_the_commands_do(solver, budget, kind):
    from solvers import solve

    stopped = solve(EASTER_MONSTER, solver=solver, budget=budget)
    assert stopped.status is Status.UNKNOWN and stopped.solution == ()
    assert stopped.result.over_budget and not stopped.result.timed_out
    assert f"work budget of {kind} reached" in stopped.result.reason
    assert solve(EASTER_MONSTER, solver=solver, budget=None).status is Status.SAT  # default


def test_length_and_bxb_stop_at_their_search_budget_the_same_every_time():
    depth_1 = parse_grid(DEPTH_1, GEOMETRY)
    monster = parse_grid(EASTER_MONSTER, GEOMETRY)
    column = LengthColumn(GEOMETRY)
    rated = column.rate(depth_1)
    assert rated.label.isdigit() and not rated.over_budget
    spent = column.lengths.spent

    def within(searches: int) -> LengthColumn:
        return LengthColumn(GEOMETRY, RefutationRater(GEOMETRY, searches=searches))

    for searches in (1, spent // 2):
        assert {within(searches).rate(depth_1).label for _ in range(2)} == {OVER_BUDGET}
    assert within(spent).rate(depth_1).label == rated.label
    small = within(2_000).rate(monster, depth=2)
    assert small.rating == BXB and small.over_budget and small.label == OVER_BUDGET


@pytest.mark.parametrize(
    "text", ["work=0", "work=-5", "searches=abc", "conflicts=1.5", "foo=3",
             "work", "searches=nan", "conflicts=inf", "work="],
)  # fmt: skip
def test_a_budget_that_is_not_a_whole_number_of_a_known_kind_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        budget_item(KINDS)(text)


def test_budget_items_override_the_defaults():
    assert budget_item(KINDS)("searches=1e6") == ("searches", 1_000_000)
    assert budget_item(KINDS)("conflicts=1_000") == ("conflicts", 1000)
    budget = budget_from([("searches", 7), ("conflicts", 9)])
    assert budget == Budget(DEFAULT_BUDGET.work, 7, 9)
    with pytest.raises(ValueError, match="positive integer"):
        Budget(work=0)


def _solvers_cli(*args: str, capsys) -> tuple[int, str, str]:
    from solvers.__main__ import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rate_with_a_solver_says_which_bound_stopped_it(tmp_path, capsys):
    """`rate --solver`: a grid past its budget is '>budget' in the status column, as the
    ratings say it, never a bare UNKNOWN; a time limit is said to make the results the
    machine's, before the first line."""
    grids = tmp_path / "grids.txt"
    grids.write_text(f"{EASTER_MONSTER}\n{DEPTH_0}\n", encoding="utf-8")
    code, out, err = _solvers_cli(
        "rate", str(grids), "--solver", "minisat22", "--budget", "conflicts=1", capsys=capsys
    )
    statuses = [line.split("\t")[2] for line in out.splitlines()]
    assert code == 0 and statuses == [OVER_BUDGET, "SAT"], out + err
    assert "no wall-clock limit" not in err and "wall-clock limit" not in err
    code, out, err = _solvers_cli("rate", str(grids), "--timeout", "60", capsys=capsys)
    assert code == 0 and len(out.splitlines()) == 2
    assert err.startswith(
        "solvers: wall-clock limit 60 s a grid (--timeout): the results depend on this machine"
    )


def test_explain_stopped_before_its_first_step_still_prints_the_grid():
    """A time limit that ends `explain` in its set-up (a 36x36 formula's tables) leaves
    the grid on stdout, and stderr says the limit and that results are the machine's.
    (A process of its own: the limit is a signal of the process, as a user meets it.)"""
    empty = ",".join(["0"] * 36 * 36)
    result = subprocess.run(
        [sys.executable, "-m", "solvers", "explain", empty, "--size", "36", "--timeout", "0.05"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Grid (36x36, 6x6 boxes), 0 givens:"), result.stdout[:200]
    assert "wall-clock limit 0.05 s in all (--timeout): the results depend" in result.stderr
    assert "time limit of 0.05 s reached after 0 steps" in result.stderr


SETS = Path(__file__).resolve().parents[2] / "data" / "sets"


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(SETS.glob("*.txt")), ids=lambda path: path.stem)
def test_the_default_budgets_rate_every_grid_of_the_projects_sets(path, tmp_path):
    """The defaults are chosen so that every grid of data/sets gets its depth and its
    length column (refutation length, BxB) with no flag: none is past its budget.  The
    16x16 set's first 6 grids only (2 s a grid; the main job with --length rates all
    of them, docs/results.md)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = [line for line in lines if line.startswith("#")]
    grids = [line for line in lines if line.strip() and not line.startswith("#")]
    if "16" in path.stem:
        grids = grids[:6]
    rated = tmp_path / path.name  # the header kept: it says the geometry
    rated.write_text("".join(header + grids), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "solvers", "rate", str(rated), "--quiet"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert len(rows) == len(grids)
    unrated = [row[:4] for row in rows if not (row[2].isdigit() and row[3].isdigit())]
    assert not unrated, unrated
    assert "budget" not in result.stderr
