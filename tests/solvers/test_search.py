"""Complete search: `Engine.solve`, `count` and `enumerate` against PySAT.

Every SAT answer is checked clause by clause by the independent `satisfies` oracle;
every UNSAT answer and every count is checked against Minisat22 (a single call, or
model enumeration with blocking clauses).  Sudoku counts come from
`serg_benchmark.txt`, whose grids have several solutions each (SOURCES.md).
"""

from __future__ import annotations

import random

import pytest
from pysat.solvers import Minisat22

from encoder.check import is_solution
from encoder.decode import grid_from_model
from encoder.geometry import standard
from solvers.engine import Engine
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
        assert result.decisions <= 100  # probing at every node keeps the tree tiny


def sudoku_counts_by_pysat(sudoku_formula, lines, givens, cap):
    counts = []
    with Minisat22(bootstrap_with=sudoku_formula.clauses) as solver:
        for line in lines:
            found, blocks = 0, []
            assumptions = givens(line)
            while found < cap and solver.solve(assumptions=assumptions):
                model = solver.get_model()
                found += 1
                # Block the cell assignment under a fresh selector, dropped afterwards.
                selector = solver.nof_vars() + 1
                solver.add_clause([-selector] + [-lit for lit in model if 0 < lit <= 729])
                assumptions = [*assumptions, selector]
                blocks.append(selector)
            for selector in blocks:
                solver.add_clause([-selector])
            counts.append(found)
    return counts


def check_serg_counts(sudoku_engine, sudoku_formula, givens, grid, lines):
    cap = 200
    expected = sudoku_counts_by_pysat(sudoku_formula, lines, givens, cap)
    for line, want in zip(lines, expected, strict=True):
        counted = sudoku_engine.count(limit=cap, assumptions=givens(line))
        assert counted.count == want, line
        assert counted.complete == (want < cap)
        assert want >= 2  # SOURCES.md: every serg grid has several solutions
        solutions = {solved_grid(m, line, grid) for m in sudoku_engine.enumerate(givens(line))}
        assert len(solutions) == min(want, cap) or want == cap


def test_serg_counts_match_pysat(sudoku_engine, sudoku_formula, givens, grid, public):
    lines = public.puzzles("serg")
    check_serg_counts(sudoku_engine, sudoku_formula, givens, grid, lines[::1000])


@pytest.mark.slow
def test_serg_counts_match_pysat_large_sample(sudoku_engine, sudoku_formula, givens, grid, public):
    lines = public.puzzles("serg")
    check_serg_counts(sudoku_engine, sudoku_formula, givens, grid, lines[7::100])


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
    for cell, value in enumerate(cells):
        if value:
            continue
        for wrong in range(1, 10):
            peers = [cells[peer] for peer in geometry.peers[cell]]
            if wrong != solution[cell] and wrong not in peers:
                line = EASTER_MONSTER[:cell] + str(wrong) + EASTER_MONSTER[cell + 1 :]
                assert sudoku_engine.propagate(givens(line))[0]
                result = sudoku_engine.solve(givens(line))
                assert result.status is Status.UNSAT and result.decisions > 0
                assert sudoku_engine.count(assumptions=givens(line)).count == 0
                return
