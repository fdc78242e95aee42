"""Complete search: `Engine.solve`, `count` and `enumerate` against PySAT.

Every SAT answer is checked clause by clause by the independent `satisfies` oracle;
every UNSAT answer and every count is checked against Minisat22 (a single call, or the
tests' enumeration oracle `pysat_models`: blocking clauses).  Sudoku counts come from
the public set `serg`, grids with two or more solutions each, not proper puzzles (its
catalogue entry: `python -m benchmarks datasets show serg`).
"""

from __future__ import annotations

import random

import pytest
from pysat.solvers import Minisat22

from encoder.check import is_solution
from encoder.decode import grid_from_model
from encoder.geometry import standard
from solvers.core.engine import Engine
from solvers.results import Status

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def pysat_status(clauses, assumptions=()) -> Status:
    with Minisat22(bootstrap_with=clauses) as solver:
        return Status.SAT if solver.solve(assumptions=list(assumptions)) else Status.UNSAT


@pytest.mark.parametrize("seed", range(40))
def test_solve_agrees_with_minisat_on_random_3cnf(seed, random_cnf, satisfies):
    # 4.0-4.5 clauses per variable: around the threshold, both answers are frequent.
    rng = random.Random(seed)
    num_vars = rng.randint(10, 40)
    clauses = random_cnf(rng, num_vars, int(num_vars * rng.uniform(3.8, 4.6)))
    engine = Engine(clauses, num_vars)
    for probe_depth in (0, 1):
        result = engine.solve(probe_depth=probe_depth)
        assert result.status is pysat_status(clauses)
        if result.status is Status.SAT:
            assert len(result.model) == num_vars and satisfies(result.model, clauses)
        else:
            assert result.model == ()


@pytest.mark.parametrize("seed", range(20))
def test_solve_under_assumptions(seed, random_cnf, satisfies):
    rng = random.Random(1000 + seed)
    num_vars = 25
    clauses = random_cnf(rng, num_vars, 90)
    engine = Engine(clauses, num_vars)
    for _ in range(5):
        chosen = rng.sample(range(1, num_vars + 1), rng.randint(1, 6))
        assumptions = [v if rng.random() < 0.5 else -v for v in chosen]
        result = engine.solve(assumptions)
        assert result.status is pysat_status(clauses, assumptions)
        if result.status is Status.SAT:
            assert set(assumptions) <= set(result.model)
            assert satisfies(result.model, clauses)


@pytest.mark.parametrize("seed", range(25))
def test_count_and_enumerate_match_pysat(seed, random_cnf, pysat_models):
    rng = random.Random(2000 + seed)
    num_vars = rng.randint(6, 12)
    clauses = random_cnf(rng, num_vars, rng.randint(num_vars, 4 * num_vars))
    expected = set(pysat_models(clauses, num_vars))
    engine = Engine(clauses, num_vars)
    counted = engine.count()
    assert counted.complete and counted.count == len(expected)
    models = list(engine.enumerate())
    assert len(models) == len(set(models)) == len(expected)
    assert set(models) == expected


def test_count_limit_and_budget():
    engine = Engine([], 10)  # 1,024 models
    assert engine.count().count == 1024
    capped = engine.count(limit=5)
    assert (capped.count, capped.complete) == (5, False)
    assert len(list(engine.enumerate(limit=7))) == 7
    starved = engine.count(budget=3)
    assert not starved.complete and starved.count < 1024
    assert engine.count(limit=0).count == 0


def test_budget_gives_unknown(sudoku_engine, givens):
    # Easter Monster needs branching; a budget of one decision cannot finish.
    result = sudoku_engine.solve(givens(EASTER_MONSTER), budget=1)
    assert result.status is Status.UNKNOWN and result.model == ()
    assert sudoku_engine.solve(givens(EASTER_MONSTER)).status is Status.SAT


def test_enumerate_can_be_interleaved_with_queries(sudoku_engine, givens, public):
    line = public.puzzles("serg", 1)[0]
    models = sudoku_engine.enumerate(givens(line))
    first = next(models)
    assert sudoku_engine.propagate(givens(line))[0]  # the engine is free meanwhile
    rest = list(models)
    assert first not in rest
    assert 1 + len(rest) == sudoku_engine.count(assumptions=givens(line)).count


def solved_grid(model, line, grid):
    geometry = standard(9)
    solution = grid_from_model(model, geometry)
    assert is_solution(solution, grid(line), geometry)
    return solution


def test_solve_hard_sudoku(sudoku_engine, sudoku_formula, givens, grid, public, satisfies):
    for line in [EASTER_MONSTER, *public.puzzles("forum-hardest-1106", 10)]:
        for probe_depth in (0, 1):
            result = sudoku_engine.solve(givens(line), probe_depth=probe_depth)
            assert result.status is Status.SAT
            assert satisfies(result.model, sudoku_formula.clauses)
            solved_grid(result.model, line, grid)
        assert result.work.decisions <= 100  # probing at every node keeps the tree tiny


SERG_CAP = 200


def check_serg_counts(sudoku_engine, sudoku_formula, givens, grid, lines, pysat_models):
    """Count and enumerate each grid's solutions up to a cap, exactly as PySAT does:
    PySAT enumerates up to cap + 1 models, so `want` is the true count, or cap + 1 when
    there are more than cap.  Assert that the lines had grids of both kinds."""
    cap = SERG_CAP
    wants = []
    for line in lines:
        assumptions = givens(line)
        expected = set(
            pysat_models(sudoku_formula.clauses, 729, assumptions=assumptions, limit=cap + 1)
        )
        want = len(expected)
        assert want >= 2, line  # every serg grid has several solutions (see the module doc)
        counted = sudoku_engine.count(limit=cap, assumptions=assumptions)
        assert counted.count == min(want, cap), line
        assert counted.complete == (want < cap), line
        models = list(sudoku_engine.enumerate(assumptions, limit=cap + 1))
        assert len(models) == len(set(models)) == want, line
        assert len({solved_grid(m, line, grid) for m in models}) == want, line
        if want <= cap:  # every solution found, by both: the same ones
            assert set(models) == expected, line
        wants.append(want)
    assert min(wants) <= cap < max(wants), f"counts {wants}: not both below and above the cap"


def test_serg_counts_match_pysat(sudoku_engine, sudoku_formula, givens, grid, public, pysat_models):
    lines = public.puzzles("serg")[7::1000]  # 10 grids, 5 with over 200 solutions
    check_serg_counts(sudoku_engine, sudoku_formula, givens, grid, lines, pysat_models)


@pytest.mark.slow
def test_serg_counts_match_pysat_large_sample(
    sudoku_engine, sudoku_formula, givens, grid, public, pysat_models
):
    lines = public.puzzles("serg")
    check_serg_counts(sudoku_engine, sudoku_formula, givens, grid, lines[7::100], pysat_models)


def test_unique_puzzles_count_one(sudoku_engine, givens, public):
    for line in public.puzzles("top95", 20):
        assert sudoku_engine.count(limit=2, assumptions=givens(line)).count == 1


@pytest.mark.parametrize(
    "line",
    [
        "11" + "." * 79,  # two 1s in a row: propagation sees it
        # The first cell must be 1 (its row holds 2-9) but its column already has a 1.
        ".23456789" + "." * 9 + "1" + "." * 8 + "." * 54,
    ],
)
def test_unsat_grids_are_unsat(sudoku_engine, givens, line):
    result = sudoku_engine.solve(givens(line))
    assert result.status is Status.UNSAT and result.model == ()
    assert sudoku_engine.count(assumptions=givens(line)).count == 0
    assert list(sudoku_engine.enumerate(givens(line))) == []


def test_wrong_extra_given_is_unsat_without_any_clash(sudoku_engine, givens, grid):
    # Easter Monster has one solution: a given that contradicts it, yet repeats no value
    # in any region, makes a grid that only search (not propagation) refutes.
    geometry = standard(9)
    solution = solved_grid(sudoku_engine.solve(givens(EASTER_MONSTER)).model, EASTER_MONSTER, grid)
    cells = grid(EASTER_MONSTER)
    wrong_givens = [
        (cell, wrong)
        for cell, value in enumerate(cells)
        if not value
        for wrong in range(1, 10)
        if wrong != solution[cell] and wrong not in {cells[peer] for peer in geometry.peers[cell]}
    ]
    assert wrong_givens, "no blank cell takes a wrong value that clashes with no given"
    cell, wrong = wrong_givens[0]
    line = EASTER_MONSTER[:cell] + str(wrong) + EASTER_MONSTER[cell + 1 :]
    assert sudoku_engine.propagate(givens(line))[0]
    result = sudoku_engine.solve(givens(line))
    assert result.status is Status.UNSAT and result.work.decisions > 0
    assert sudoku_engine.count(assumptions=givens(line)).count == 0
