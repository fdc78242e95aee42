"""Engine basics: building, the API's edges, and unit propagation against Minisat22.

`Engine.propagate` promises PySAT's contract, so the main test is differential: on
random CNFs and on the Sudoku formula, with random assumptions, it must return the same
`ok` and, when there is no conflict, the same set of literals as
`Minisat22.propagate`.  PySAT's own result on a conflict is `(False, partial trail)`
(the literals assigned before the conflict), so only `ok` is compared there; the engine
returns `(False, [])`.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Minisat22
from tiny_formulas import TINY, TINY_IDS

from encoder.dimacs import parse_cnf
from encoder.encodings import rule_formula
from encoder.errors import DimacsError
from encoder.geometry import standard
from solvers.core import Clauses
from solvers.core.engine import Engine, EngineAnswer
from solvers.results import SolutionCount, Status, Work


def pysat_propagate(solver: Minisat22, assumptions: list[int]) -> tuple[bool, set[int]]:
    ok, literals = solver.propagate(assumptions=assumptions)
    return ok, set(literals) if ok else set()


@pytest.mark.parametrize(("name", "clauses", "num_vars", "status"), TINY, ids=TINY_IDS)
def test_tiny_formulas_status(name, clauses, num_vars, status, satisfies):
    with Minisat22(bootstrap_with=clauses) as minisat:  # the table itself, checked
        assert minisat.solve() == (status is Status.SAT)
    result = Engine(clauses, num_vars).solve()
    assert result.status is status
    if result.status is Status.SAT:
        assert len(result.model) == num_vars
        assert satisfies(result.model, clauses)


def test_empty_clause_is_unsat_everywhere():
    engine = Engine([[1, 2], []])
    assert not engine.ok
    assert engine.propagate() == (False, [])
    assert engine.probe([1], depth=2) == (False, [])
    assert engine.solve().status is Status.UNSAT
    assert engine.count() == SolutionCount(0, True, Work())
    assert list(engine.enumerate()) == []
    assert engine.trace() == (False, [], 1)


def test_num_vars_defaults_to_highest_variable():
    engine = Engine([[1, -5], [3]])
    assert (engine.num_vars, engine.num_clauses) == (5, 2)
    assert Engine([]).num_vars == 0


def test_free_variables_count_in_models():
    engine = Engine([[1]], num_vars=3)
    assert engine.count().count == 4
    assert sorted(engine.enumerate()) == [(1, -2, -3), (1, -2, 3), (1, 2, -3), (1, 2, 3)]


@pytest.mark.parametrize(("clauses", "num_vars"), [([[1, 4]], 3), ([[1, 0, 2]], 3), ([[1]], -1)])
def test_bad_clauses_raise(clauses, num_vars):
    with pytest.raises(ValueError):
        Engine(clauses, num_vars)


@pytest.mark.parametrize("assumptions", [[0], [4], [-4], [1, 99]])
def test_bad_assumptions_raise(assumptions):
    engine = Engine([[1, 2, 3]])
    for query in (engine.propagate, engine.probe, engine.trace, engine.solve):
        with pytest.raises(ValueError):
            query(assumptions)
    with pytest.raises(ValueError):
        engine.count(assumptions=assumptions)
    with pytest.raises(ValueError):
        list(engine.enumerate(assumptions))
    assert engine.propagate([1]) == (True, [1])  # the state survived


def test_exam_worked_example():
    # x1(0,0) ∧ (x4(2,2) ∨ x6(3,6) ∨ x7(7,7)) ∧ (¬x1(0,0) ∨ ¬x6(3,6)): unit propagation
    # leaves x4(2,2) ∨ x7(7,7) (exam, part III.1.4).
    x1, x4, x6, x7 = 1, 9 * 2 * 9 + 9 * 2 + 4, 9 * 3 * 9 + 9 * 6 + 6, 9 * 7 * 9 + 9 * 7 + 7
    engine = Engine([[x1], [x4, x6, x7], [-x1, -x6]], num_vars=729)
    assert set(engine.fixed()) == {x1, -x6}
    assert engine.propagate([-x4]) == (True, [-x4, x7])
    assert engine.propagate([-x7]) == (True, [-x7, x4])
    assert engine.propagate([-x4, -x7]) == (False, [])


def test_propagate_skips_true_assumptions_and_root_facts():
    engine = Engine([[1], [-1, 2], [-3, 4]])
    assert engine.fixed() == [1, 2]
    assert engine.propagate([1, 2]) == (True, [])
    assert engine.propagate([3, 4, 1]) == (True, [3, 4])
    assert engine.propagate([3, -4]) == (False, [])
    assert engine.propagate([-1]) == (False, [])


def test_trace_reasons_are_input_clauses():
    clauses = [[-1, 2], [1, 1, -1], [-2, 3, 4], [-4], [-3, 5]]
    engine = Engine(clauses)
    assert engine.fixed() == [-4]
    ok, steps, conflict = engine.trace([1])
    assert (ok, conflict) == (True, -1)
    assert steps == [(1, -1), (2, 0), (3, 2), (5, 4)]
    ok, steps, conflict = Engine([*clauses, [-2, -5]]).trace([1])
    assert (ok, conflict) == (False, 4)  # [-3, 5] is falsified
    # each false literal's clauses are visited in the formula's order: [-2, 3, 4] first
    assert steps == [(1, -1), (2, 0), (3, 2), (-5, 5)]
    ok, steps, conflict = engine.trace([2, -2])  # the assumption itself is false
    assert (ok, conflict) == (False, -1) and steps[0] == (2, -1)


def test_trace_explains_every_literal(sudoku_engine, sudoku_formula, givens, public):
    clauses = sudoku_formula.clauses
    for line in public.puzzles("royle17", 5):
        assumptions = givens(line)
        ok, steps, conflict = sudoku_engine.trace(assumptions)
        assert ok and conflict == -1
        assert sorted(lit for lit, _ in steps) == sorted(sudoku_engine.propagate(assumptions)[1])
        true_so_far: set[int] = set()
        for lit, reason in steps:
            if reason == -1:
                assert lit in assumptions
            else:
                clause = clauses[reason]
                assert lit in clause
                assert all(-other in true_so_far for other in clause if other != lit)
            true_so_far.add(lit)


def test_state_is_restored(sudoku_formula, givens, public):
    engine = Engine(sudoku_formula.clauses, sudoku_formula.num_vars)
    line = public.puzzles("forum-hardest-1106", 1)[0]
    first = engine.propagate(givens(line))
    engine.probe(givens(line), depth=2)
    engine.solve(givens(line), probe_depth=1)
    engine.count(assumptions=givens(line))
    engine.trace([*givens(line), -givens(line)[0]])
    assert engine.propagate(givens(line)) == first
    assert engine.propagate() == (True, [])
    assert engine.fixed() == []


def test_results_are_frozen_and_checked():
    result = Engine([[1, 2]]).solve()
    with pytest.raises(AttributeError):
        result.status = Status.UNSAT  # type: ignore[misc]
    with pytest.raises(ValueError):
        EngineAnswer(Status.UNSAT, (1,))
    with pytest.raises(ValueError):
        SolutionCount(-1, True)
    with pytest.raises(ValueError):
        Work(decisions=-1)
    assert Status.SAT.value == 10 and Status.UNSAT.value == 20 and Status.UNKNOWN.value == 0


def test_accum_stats_accumulate():
    engine = Engine([[1, 2], [-1, 2], [1, -2], [-1, -2, 3]])
    assert engine.accum_stats() == dict.fromkeys(
        ("decisions", "backtracks", "conflicts", "propagations", "hypotheses"), 0
    )
    engine.solve()
    engine.probe()
    first = engine.accum_stats()
    assert first["decisions"] >= 1 and first["propagations"] >= 2
    engine.solve()
    assert engine.accum_stats()["decisions"] == 2 * first["decisions"]


def test_from_dimacs(tmp_path):
    path = tmp_path / "small.cnf"
    path.write_text("c a comment\np cnf 4 3\n1 -2 0\n2 3 0\n-1 -3 4 0\n")
    engine = Engine.from_dimacs(str(path))
    assert (engine.num_vars, engine.num_clauses) == (4, 3)
    assert engine.propagate([-1]) == (True, [-1, -2, 3])


def test_from_dimacs_reads_crlf_and_refuses_an_empty_promise(tmp_path):
    path = tmp_path / "windows.cnf"
    path.write_bytes(b"c a comment\r\np cnf 4 3\r\n1 -2 0\r\n2 3 0\r\n-1 -3 4 0\r\n")
    assert Engine.from_dimacs(str(path)).propagate([-1]) == (True, [-1, -2, 3])
    path.write_text("p cnf 200000000 1\n1 0\n")  # arrays per variable: GBs for 20 bytes
    with pytest.raises(DimacsError, match="200000000 variables for 1 literals"):
        Engine.from_dimacs(str(path))


def test_engine_takes_a_flat_cnf_as_it_is():
    cnf = parse_cnf("p cnf 5 4\n1 -2 0\n2 3 0\n-1 -3 4 0\n5 0\n")
    engine = Engine(cnf)
    assert (engine.num_vars, engine.num_clauses) == (5, 4)
    assert engine.propagate([-1]) == Engine(cnf.clauses, 5).propagate([-1])
    assert engine.fixed() == [5]
    assert Engine(cnf, 9).num_vars == 9
    with pytest.raises(ValueError, match="mentions variable 5 but num_vars is 4"):
        Engine(cnf, 4)
    with pytest.raises(ValueError, match=r"num_vars must be in 0\.\.1073741823"):
        Engine([[1]], 1 << 30)
    with pytest.raises(ValueError, match="literal 0 inside a clause"):
        Engine([[1, 0]])


@st.composite
def cnf_and_assumptions(draw):
    num_vars = draw(st.integers(1, 12))
    literal = st.integers(1, num_vars) | st.integers(-num_vars, -1)
    clauses = draw(st.lists(st.lists(literal, min_size=1, max_size=5), max_size=40))
    assumptions = draw(st.lists(literal, max_size=6))
    return num_vars, clauses, assumptions


@settings(max_examples=300, deadline=None)
@given(cnf_and_assumptions())
def test_propagate_matches_minisat_on_random_formulas(case):
    num_vars, clauses, assumptions = case
    engine = Engine(clauses, num_vars)
    with Minisat22(bootstrap_with=clauses) as solver:
        if not engine.ok:  # refuted at the root: Minisat22 rejects every query
            assert not solver.solve()
            return
        ok, literals = engine.propagate(assumptions)
        assert (ok, set(literals)) == pysat_propagate(solver, assumptions)
        assert len(literals) == len(set(literals))


def test_propagate_matches_minisat_on_random_3cnf(random_cnf):
    rng = random.Random(2014)
    for _ in range(200):
        num_vars = rng.randint(5, 40)
        clauses = random_cnf(rng, num_vars, rng.randint(num_vars, 5 * num_vars))
        engine = Engine(clauses, num_vars)
        with Minisat22(bootstrap_with=clauses) as solver:
            for _ in range(10):
                chosen = rng.sample(range(1, num_vars + 1), rng.randint(0, 5))
                assumptions = [v if rng.random() < 0.5 else -v for v in chosen]
                ok, literals = engine.propagate(assumptions)
                assert (ok, set(literals)) == pysat_propagate(solver, assumptions)


def test_propagate_matches_minisat_on_sudoku(sudoku_engine, sudoku_minisat):
    rng = random.Random(9)
    for _ in range(300):  # random partial grids, many of them contradictory
        cells = rng.sample(range(81), rng.randint(1, 30))
        assumptions = [9 * c + rng.randint(1, 9) for c in cells]
        if rng.random() < 0.3:
            assumptions.append(-rng.randint(1, 729))
        ok, literals = sudoku_engine.propagate(assumptions)
        assert (ok, set(literals)) == pysat_propagate(sudoku_minisat, assumptions)


def test_propagate_batch_answers_as_minisat_does(sudoku_engine, sudoku_minisat):
    """Many assumption sets in one call of the core's clause engine: each answer is
    Minisat22's (as sets: the values above the root level, which is empty here)."""
    rng = random.Random(14)
    sets = []
    for _ in range(300):  # random partial grids, many of them contradictory, one empty
        cells = rng.sample(range(81), rng.randint(0, 30))
        sets.append([9 * c + rng.randint(1, 9) for c in cells])
        if rng.random() < 0.3:
            sets[-1].append(-rng.randint(1, 729))
    offsets = np.cumsum([0] + [len(s) for s in sets])
    flat = np.array([lit for s in sets for lit in s], dtype=np.int64)
    formula = rule_formula(standard(9))
    clauses = Clauses(formula.clauses, formula.num_vars)
    ok, values = clauses.propagate_batch((flat, offsets))
    assert not ok.all() and ok.any()
    variables = np.arange(1, clauses.num_vars + 1)
    for i, assumptions in enumerate(sets):
        literals = set(np.where(values[i] > 0, variables, -variables)[values[i] != 0].tolist())
        answer = (bool(ok[i]), literals if ok[i] else set())
        assert answer == pysat_propagate(sudoku_minisat, assumptions)
    assert sudoku_engine.fixed() == []  # back at level 0
    with pytest.raises(ValueError, match=r"not in 1\.\.729"):
        clauses.propagate_batch((np.array([1, 0]), np.array([0, 1, 2])))
    with pytest.raises(ValueError, match="offsets"):
        clauses.propagate_batch((np.array([1, 2]), np.array([0, 3])))


def test_unit_propagation_on_royle17(sudoku_engine, sudoku_minisat, givens, public, solved_cells):
    lines = public.puzzles("royle17", 300)
    solved = 0
    for line in lines:
        ok, literals = sudoku_engine.propagate(givens(line))
        assert (ok, set(literals)) == pysat_propagate(sudoku_minisat, givens(line))
        solved += solved_cells(literals) == 81
    assert 0.35 < solved / len(lines) < 0.55  # 44.56 % over the whole list


@pytest.mark.slow
def test_unit_propagation_on_all_royle17(
    sudoku_engine, sudoku_minisat, givens, public, solved_cells
):
    lines = public.puzzles("royle17")
    solved = 0
    for number, line in enumerate(lines):
        ok, literals = sudoku_engine.propagate(givens(line))
        if number % 10 == 0:
            assert (ok, set(literals)) == pysat_propagate(sudoku_minisat, givens(line))
        solved += solved_cells(literals) == 81
    assert solved == 21_905  # of 49,158 (44.56 %), as Minisat22 finds: docs/results.md


def test_sudoku_clash_is_a_conflict(sudoku_engine, givens):
    clash = "11" + "." * 79  # two 1s in the first row
    assert sudoku_engine.propagate(givens(clash)) == (False, [])
    ok, _, _ = sudoku_engine.trace(givens(clash))
    assert not ok


def _probe_counts(engine: Engine, assumptions: list[int]) -> tuple:
    before = engine.accum_stats()
    ok, literals = engine.probe(assumptions, depth=1)
    after = engine.accum_stats()
    return ok, literals, {key: after[key] - before[key] for key in after}


def test_a_rewound_engine_propagates_as_a_fresh_one():
    """Queries move the watch lists, and the propagation count of a closure whose
    hypotheses fail follows their order: after `rewind`, an engine that has answered
    other grids counts exactly as one just built (the harness keeps engines from chunk
    to chunk on that promise); without it, some counts differ."""
    from encoder.encodings import given_literals, rule_formula
    from encoder.geometry import make_geometry
    from encoder.puzzle_files import read_puzzles

    geometry = make_geometry(9)
    formula = rule_formula(geometry, "centrale")
    path = Path(__file__).resolve().parents[2] / "data" / "sets" / "sudoku9_depth1.txt"
    grids = [p.grid for p in read_puzzles(str(path), geometry)]
    sets = [given_literals(grid, geometry) for grid in grids[:40]]
    used = Engine(formula.clauses, formula.num_vars)
    differs = 0
    for history, query in itertools.pairwise(sets):
        _probe_counts(used, history)  # the watch lists move
        unrewound = _probe_counts(used, query)
        used.rewind()
        fresh = _probe_counts(Engine(formula.clauses, formula.num_vars), query)
        assert _probe_counts(used, query) == fresh
        differs += unrewound != fresh
        used.rewind()
    assert differs  # the test can tell: without rewinding, counts drift


@pytest.mark.parametrize("limit, error", [(-1, ValueError), (1.5, TypeError), (True, TypeError)])
def test_enumerate_refuses_the_limits_count_refuses(limit, error):
    """enumerate(limit=-1) yielded nothing where count(limit=-1) raised; both refuse
    it now, at the call."""
    engine = Engine([[1, 2]])
    with pytest.raises(error, match="a limit or budget must be"):
        engine.count(limit=limit)
    with pytest.raises(error, match="a limit or budget must be"):
        engine.enumerate(limit=limit)
