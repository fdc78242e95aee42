"""Failed-literal closure: against a naive oracle, on Sudoku sets, and at depths 2 and 3.

The oracle drives the exam's rule from Python through `Minisat22.propagate`, in full
passes over the variables in order, nested by plain recursion.  The engine's closure
visits candidates round-robin and skips literals implied by a passed hypothesis, so
agreeing with the oracle checks that those shortcuts keep the (unique) fixpoint.
"""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.solvers import Minisat22

from encoder.check import is_solution
from encoder.decode import grid_from_model
from encoder.geometry import standard
from solvers.core.engine import Engine

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."
PLATINUM_BLONDE_PREFIX = ".......12........3..23..4....1"


def reference_closure(solver, assumptions, depth, polarity, num_vars):
    """Return (ok, literals) of the depth-k failed-literal closure, the slow obvious way."""
    facts = list(assumptions)
    ok, literals = solver.propagate(assumptions=facts)
    if not ok:
        return False, set()
    if depth == 0:
        return True, set(literals)
    changed = True
    while changed:
        changed = False
        for v in range(1, num_vars + 1):
            for lit in (v, -v) if polarity == "both" else (v,):
                if lit in literals or -lit in literals:
                    continue
                failed = not reference_closure(
                    solver, [*facts, lit], depth - 1, polarity, num_vars
                )[0]
                if failed:
                    facts.append(-lit)
                    changed = True
                    ok, literals = solver.propagate(assumptions=facts)
                    if not ok:
                        return False, set()
    return True, set(literals)


def random_formula(rng: random.Random, num_vars: int) -> list[list[int]]:
    """Return a random mix of 3-clauses and binary clauses, without units."""
    clauses = []
    for _ in range(rng.randint(2 * num_vars, 5 * num_vars)):
        width = 2 if rng.random() < 0.3 else 3
        clauses.append([v if rng.random() < 0.5 else -v
                        for v in rng.sample(range(1, num_vars + 1), width)])  # fmt: skip
    return clauses


@pytest.mark.parametrize(
    ("depth", "polarity", "num_vars", "cases"),
    [(1, "both", 10, 120), (1, "positive", 10, 60), (2, "both", 8, 40), (2, "positive", 8, 30),
     (3, "both", 6, 15)],
)  # fmt: skip
def test_closure_matches_reference(depth, polarity, num_vars, cases):
    rng = random.Random(depth * 100 + num_vars)
    stronger = 0
    for _ in range(cases):
        clauses = random_formula(rng, num_vars)
        engine = Engine(clauses, num_vars)
        with Minisat22(bootstrap_with=clauses) as solver:
            for _ in range(3):
                chosen = rng.sample(range(1, num_vars + 1), rng.randint(0, 2))
                assumptions = [v if rng.random() < 0.5 else -v for v in chosen]
                ok, literals = engine.probe(assumptions, depth=depth, polarity=polarity)
                expected = reference_closure(solver, assumptions, depth, polarity, num_vars)
                assert (ok, set(literals)) == expected, (clauses, assumptions)
                assert len(literals) == len(set(literals))
                shallower = engine.probe(assumptions, depth=depth - 1, polarity=polarity)
                stronger += (shallower[0], set(shallower[1])) != (ok, set(literals))
    if depth < 3:  # random formulas this small never separate depths 2 and 3: see pigeons
        assert stronger > 0  # some cases need this depth: the rule is exercised


def pigeonhole(pigeons: int, holes: int) -> tuple[list[list[int]], int]:
    """Return the clauses "every pigeon has a hole, no hole has two pigeons"."""
    var = lambda pigeon, hole: pigeon * holes + hole + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for hole in range(holes):
        for p, q in itertools.combinations(range(pigeons), 2):
            clauses.append([-var(p, hole), -var(q, hole)])
    return clauses, pigeons * holes


@pytest.mark.parametrize("holes", [2, 3, 4, 5])
def test_pigeonhole_needs_depth_holes_minus_one(holes):
    # n+1 pigeons in n holes: each hypothesis places one pigeon and leaves a smaller
    # pigeonhole problem, so refuting it takes exactly n - 1 nested levels.
    clauses, num_vars = pigeonhole(holes + 1, holes)
    engine = Engine(clauses, num_vars)
    refuted = [not engine.probe([], depth)[0] for depth in range(holes + 1)]
    assert refuted == [depth >= holes - 1 for depth in range(holes + 1)]
    with Minisat22(bootstrap_with=clauses) as solver:
        for depth in range(min(holes, 4)):
            ok, literals = engine.probe([], depth)
            assert (ok, set(literals)) == reference_closure(solver, [], depth, "both", num_vars)


def test_depth_zero_is_propagate(sudoku_engine, givens, public):
    """The same literals; the order is each one's own (propagate enqueues the
    assumptions one level each, as a search starts; a closure all at once)."""
    for line in public.puzzles("top1465", 20):
        ok, literals = sudoku_engine.probe(givens(line), depth=0)
        want_ok, want = sudoku_engine.propagate(givens(line))
        assert (ok, sorted(literals)) == (want_ok, sorted(want))


def test_arguments_are_checked(sudoku_engine):
    with pytest.raises(ValueError):
        sudoku_engine.probe([], depth=1, polarity="negative")
    with pytest.raises(ValueError):
        sudoku_engine.probe([], depth=-1)


def test_closure_is_monotone(sudoku_engine, givens, public):
    for line in public.puzzles("hardest"):
        previous = set(sudoku_engine.propagate(givens(line))[1])
        for depth in (1, 2):
            positive = set(sudoku_engine.probe(givens(line), depth, "positive")[1])
            both = set(sudoku_engine.probe(givens(line), depth, "both")[1])
            assert previous <= positive <= both
            previous = both


def check_solved(literals, line, grid, solved_cells):
    assert solved_cells(literals) == 81
    assert is_solution(grid_from_model(literals, standard(9)), grid(line), standard(9))


def test_depth1_solves_norvig_top95(sudoku_engine, givens, grid, public, solved_cells):
    lines = public.puzzles("top95")
    assert len(lines) == 95
    for line in lines:
        assert solved_cells(sudoku_engine.propagate(givens(line))[1]) < 81
        ok, literals = sudoku_engine.probe(givens(line), depth=1)
        assert ok
        check_solved(literals, line, grid, solved_cells)
        positive_ok, positive_literals = sudoku_engine.probe(givens(line), 1, "positive")
        assert (positive_ok, set(positive_literals)) == (ok, set(literals))


def test_depth1_solves_royle17_sample(sudoku_engine, givens, grid, public, solved_cells):
    for line in public.puzzles("royle17", 300):
        ok, literals = sudoku_engine.probe(givens(line), depth=1)
        assert ok
        check_solved(literals, line, grid, solved_cells)


@pytest.mark.slow
def test_depth1_solves_all_royle17(sudoku_engine, givens, grid, public, solved_cells):
    for line in public.puzzles("royle17"):
        ok, literals = sudoku_engine.probe(givens(line), depth=1)
        assert ok
        check_solved(literals, line, grid, solved_cells)


def test_depth1_matches_reference_on_sudoku(sudoku_engine, sudoku_minisat, givens, public):
    # Hard grids, where depth 1 stops short of a solution: the fixpoint must still match.
    for line in public.puzzles("forum-hardest-1106", 2):
        expected = reference_closure(sudoku_minisat, givens(line), 1, "positive", 729)
        ok, literals = sudoku_engine.probe(givens(line), 1, "positive")
        assert (ok, set(literals)) == expected


def famous_puzzles(public):
    lines = public.puzzles("forum-hardest-1106")
    blonde = [line for line in lines if line.startswith(PLATINUM_BLONDE_PREFIX)]
    assert EASTER_MONSTER in lines and GOLDEN_NUGGET in lines and len(blonde) == 1
    return {"Easter Monster": EASTER_MONSTER, "Golden Nugget": GOLDEN_NUGGET,
            "Platinum Blonde": blonde[0]}  # fmt: skip


def test_famous_puzzles_need_depth_2(sudoku_engine, givens, grid, public, solved_cells):
    for name, line in famous_puzzles(public).items():
        for polarity in ("both", "positive"):
            ok, literals = sudoku_engine.probe(givens(line), depth=1, polarity=polarity)
            assert ok and solved_cells(literals) < 81, name
            ok, literals = sudoku_engine.probe(givens(line), depth=2, polarity=polarity)
            assert ok, name
            check_solved(literals, line, grid, solved_cells)


def test_depth3_contains_depth2(sudoku_engine, givens, grid, public, solved_cells):
    for line in public.puzzles("forum-hardest-1106", 3):
        ok2, depth2 = sudoku_engine.probe(givens(line), depth=2)
        ok3, depth3 = sudoku_engine.probe(givens(line), depth=3)
        assert ok2 and ok3 and set(depth2) <= set(depth3)
        check_solved(depth3, line, grid, solved_cells)


@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_clash_is_a_contradiction(sudoku_engine, givens, depth):
    clash = "1.......1" + "." * 72  # two 1s in the first row
    assert sudoku_engine.probe(givens(clash), depth=depth) == (False, [])


def test_contradiction_found_at_depth_1():
    # UP sees nothing; the hypothesis 1 fails, then ¬1 makes 2 and ¬2 both follow.
    engine = Engine([[1, 2], [1, -2], [-1, 3], [-1, -3]])
    assert engine.propagate() == (True, [])
    assert engine.probe(depth=1) == (False, [])
    assert engine.probe(depth=1, polarity="positive") == (False, [])


def test_wrong_given_found_at_the_right_depth(sudoku_engine, givens, public):
    # Found by scanning wrong candidates cell by cell: norvig top95 #1 with a 9 in cell
    # (0,1) is refuted by depth 1; Easter Monster with a 4 in cell (0,1) needs depth 2.
    top95 = public.puzzles("top95", 1)[0]
    for line, wrong, depth in ((top95, 9 * 1 + 9, 1), (EASTER_MONSTER, 9 * 1 + 4, 2)):
        assumptions = [*givens(line), wrong]
        for shallower in range(depth):
            assert sudoku_engine.probe(assumptions, depth=shallower)[0]
        assert sudoku_engine.probe(assumptions, depth=depth) == (False, [])
        assert not sudoku_engine.solve(assumptions).model


def test_probe_counts_hypotheses(sudoku_formula, givens):
    engine = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    engine.probe(givens(EASTER_MONSTER), depth=1)
    assert engine.accum_stats()["hypotheses"] > 0


def test_failed_hypotheses_are_counted_as_conflicts(sudoku_engine, givens, public):
    # Each failed hypothesis is one conflict; every failure makes the closure learn a
    # literal, and top95 grids are solved by depth 1 but not by propagation alone.
    line = public.puzzles("top95", 1)[0]
    before = sudoku_engine.accum_stats()
    sudoku_engine.propagate(givens(line))
    assert sudoku_engine.accum_stats()["conflicts"] == before["conflicts"]
    sudoku_engine.probe(givens(line), depth=1)
    after = sudoku_engine.accum_stats()
    assert (
        0 < after["conflicts"] - before["conflicts"] <= after["hypotheses"] - before["hypotheses"]
    )
