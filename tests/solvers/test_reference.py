"""Tests of the exam-faithful reference (`solvers.reference`).

The exam's own facts (worked example III.1.4, clause counts, |F_grille| <= 729, block
numbering), then agreement with independent oracles: the encoder's formulas, PySAT's
minisat22 (`propagate`, and a failed-literal closure driven by it), the home-grown
`solvers.core.engine.Engine` (`propagate`, `probe(depth=1)`), and an independent solution
checker for `propagation2`.  Oracles get the rule formula only and the givens as
assumptions, since root-level facts are not listed by `propagate`.

Timing (2-core machine, other jobs running): `propagation` on F_initiale takes about
1.2 s per grid (1-2 s), `propagation2` 1-4 s per norvig top95 grid.  The default run
therefore checks a small sample (8 grids for `propagation`, 3 for `propagation2`); the
few-hundred-grid samples are marked slow.

Public puzzle sets are read inside the tests through the `public` fixture (a test whose
set is absent is skipped); a parameter names a set and a position in its sample.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import random
from pathlib import Path

import pytest
from pysat.solvers import Minisat22

from encoder import grid_groups, rule_formula, standard
from solvers.core.engine import Engine
from solvers.reference import (
    CONTRADICTION,
    Contradiction,
    NonX,
    X,
    ajout,
    appartient,
    bloc1,
    bloc2,
    case1,
    case2,
    colonne1,
    colonne2,
    deduced_grid,
    deduction,
    f1,
    f2,
    formule_grille,
    formule_initiale,
    formule_to_dimacs,
    from_dimacs,
    indice,
    is_contradiction,
    ligne1,
    ligne2,
    non,
    nouveau_lit_isole,
    propagation,
    propagation2,
    regle,
    simplification,
    suppression,
    to_dimacs,
    variables,
)

SETS = Path(__file__).resolve().parents[2] / "data" / "sets"
SEED = 2014


def parse(line: str) -> list[list[int]]:
    """Return the grid of an 81-character line ('.' or '0' for a blank)."""
    return [[0 if ch in ".0" else int(ch) for ch in line[9 * i : 9 * i + 9]] for i in range(9)]


@functools.cache
def sample(public, name: str, n: int) -> list[str]:
    """Return n puzzles of a public set, chosen with a fixed seed (skip if it is absent)."""
    puzzles = public.puzzles(name)
    return random.Random(SEED).sample(puzzles, min(n, len(puzzles)))


def example_grid() -> list[list[int]]:
    """Return a 9x9 puzzle of the project's own data: the first of sudoku9_minimal.txt."""
    lines = (SETS / "sudoku9_minimal.txt").read_text(encoding="utf-8").splitlines()
    return parse(next(line for line in lines if line.strip() and not line.startswith("#")))


def is_valid_solution(solution: list[list[int]], puzzle: list[list[int]]) -> bool:
    """Return True when every row, column and block of solution holds 1..9 and the
    givens of puzzle are kept (independent of the module under test)."""
    digits = set(range(1, 10))
    rows = [set(row) for row in solution]
    cols = [{solution[i][j] for i in range(9)} for j in range(9)]
    blocks = [
        {solution[bi + di][bj + dj] for di in range(3) for dj in range(3)}
        for bi in (0, 3, 6)
        for bj in (0, 3, 6)
    ]
    kept = all(puzzle[i][j] in (0, solution[i][j]) for i in range(9) for j in range(9))
    return kept and all(group == digits for group in rows + cols + blocks)


def givens_as_assumptions(grid: list[list[int]]) -> list[int]:
    """Return one positive DIMACS literal per given."""
    return [to_dimacs(X(i, j, grid[i][j])) for i in range(9) for j in range(9) if grid[i][j]]


@pytest.fixture(scope="module")
def minisat():
    """A minisat22 loaded with the rule formula only (root-level facts are not listed by
    `propagate`, so the givens go in as assumptions)."""
    with Minisat22(bootstrap_with=formule_to_dimacs(regle())) as solver:
        yield solver


@pytest.fixture(scope="module")
def engine():
    """The home-grown engine loaded with the same rule formula."""
    return Engine(formule_to_dimacs(regle()), 729)


# --- the exam's worked example and primitives ---------------------------------------------

EXAMPLE = [[X(0, 0, 1)], [X(2, 2, 4), X(3, 6, 6), X(7, 7, 7)], [NonX(0, 0, 1), NonX(3, 6, 6)]]


def test_worked_example_3_1_4():
    assert propagation(EXAMPLE) == [[X(2, 2, 4), X(7, 7, 7)]]


def test_worked_example_3_1_4_step_by_step():
    assert nouveau_lit_isole(EXAMPLE) == X(0, 0, 1)
    step1 = simplification(X(0, 0, 1), EXAMPLE)
    assert step1 == [[X(2, 2, 4), X(3, 6, 6), X(7, 7, 7)], [NonX(3, 6, 6)]]
    assert nouveau_lit_isole(step1) == NonX(3, 6, 6)
    assert simplification(NonX(3, 6, 6), step1) == [[X(2, 2, 4), X(7, 7, 7)]]
    assert nouveau_lit_isole([[X(2, 2, 4), X(7, 7, 7)]]) is None


def test_list_primitives():
    assert appartient(3, [1, 4, 3]) and not appartient(10, [1, 4, 3])
    assert suppression(3, [3, 4, 4, 3, 1]) == [4, 4, 1]
    assert ajout(3, [1, 2, 3]) == [1, 2, 3]
    assert ajout(3, [1, 2]) == [1, 2, 3]


def test_block_cell_3_6_is_cell_5_0():
    assert indice(3, 6) == (5, 0)


def test_indice_numbers_every_cell_once_inside_its_block():
    cells = [indice(b, r) for b in range(9) for r in range(9)]
    assert sorted(cells) == [(i, j) for i in range(9) for j in range(9)]
    for b in range(9):
        assert {3 * (i // 3) + j // 3 for i, j in (indice(b, r) for r in range(9))} == {b}


def test_dimacs_round_trip_over_every_literal():
    lits = [
        make(i, j, k)
        for make in (X, NonX)
        for i in range(9)
        for j in range(9)
        for k in range(1, 10)
    ]
    numbers = [to_dimacs(lit) for lit in lits]
    assert sorted(numbers) == [*range(-729, 0), *range(1, 730)]
    assert all(from_dimacs(n) == lit for n, lit in zip(numbers, lits, strict=True))
    assert to_dimacs(X(0, 0, 1)) == 1 and to_dimacs(NonX(8, 8, 9)) == -729
    assert to_dimacs(X(5, 0, 3)) == 81 * 5 + 3
    assert all(to_dimacs(non(lit)) == -to_dimacs(lit) for lit in lits)


def test_variables_each_once_in_order_of_first_occurrence():
    f = [[NonX(1, 1, 2), X(0, 0, 1)], [X(1, 1, 2), NonX(0, 0, 1), X(2, 2, 3)]]
    assert variables(f) == [X(1, 1, 2), X(0, 0, 1), X(2, 2, 3)]


def test_deduction_codes():
    a, b = X(0, 0, 1), X(0, 0, 2)
    # a ∨ b and ¬a ∨ b: assuming ¬b forces a then ¬a, so b holds.
    assert deduction(b, [[a, b], [non(a), b]]) == 1
    # ¬b ∨ a and ¬b ∨ ¬a: assuming b forces a and ¬a, so ¬b holds.
    assert deduction(b, [[non(b), a], [non(b), non(a)]]) == -1
    assert deduction(b, [[a, b]]) == 0


def test_propagation_reports_the_empty_clause_as_contradiction():
    assert propagation([[X(0, 0, 1)], [NonX(0, 0, 1)]]) == CONTRADICTION
    assert propagation([[X(0, 0, 1)], [NonX(0, 0, 1), X(0, 0, 2)], [NonX(0, 0, 2)]]) == [[]]
    assert is_contradiction([[]]) and not is_contradiction([[X(0, 0, 1)]])


# --- the formulas -------------------------------------------------------------------------

BLOCKS = {
    "K1": (case1, 81, 9),
    "L1": (ligne1, 81, 9),
    "C1": (colonne1, 81, 9),
    "B1": (bloc1, 81, 9),
    "K2": (case2, 2916, 2),
    "L2": (ligne2, 2916, 2),
    "C2": (colonne2, 2916, 2),
    "B2": (bloc2, 2916, 2),
}


@pytest.mark.parametrize("name", list(BLOCKS))
def test_clause_counts_per_block(name):
    builder, count, width = BLOCKS[name]
    clauses = builder()
    assert len(clauses) == count
    assert all(len(set(c)) == len(c) == width for c in clauses)
    assert len({frozenset(c) for c in clauses}) == count
    sign = "X" if width == 9 else "NonX"
    assert all(lit[0] == sign for c in clauses for lit in c)


def test_rule_formula_has_11988_clauses_in_exam_order():
    f = regle()
    assert len(f) == 11_988
    expected = [c for builder, _, _ in BLOCKS.values() for c in builder()]
    assert f == expected


def test_rule_formula_agrees_with_the_encoder_block_by_block():
    encoder_blocks = dict(rule_formula(standard(9), "centrale").groups)
    for name, (builder, _, _) in BLOCKS.items():
        ours = {frozenset(c) for c in formule_to_dimacs(builder())}
        assert ours == {frozenset(c) for c in encoder_blocks[name]}, name


def solved_grid() -> list[list[int]]:
    """Return a complete valid grid (a shifted pattern)."""
    return [[(3 * (i % 3) + i // 3 + j) % 9 + 1 for j in range(9)] for i in range(9)]


GRID_SETS = ["royle17", "top95", "top1465", "kaggle-1m-9999"]


@pytest.mark.parametrize("name", GRID_SETS)
def test_grid_formula_size_and_content(name, public):
    for line in sample(public, name, 20):
        t = parse(line)
        units_1, units_2 = f1(t), f2(t)
        assert formule_grille(t) == units_1 + units_2
        assert len(units_1) + len(units_2) <= 729
        givens = sum(v != 0 for row in t for v in row)
        assert len(units_1) == 9 * givens
        assert len({c[0] for c in units_2}) == len(units_2)  # F2 has no duplicates
        for i in range(9):
            for j in range(9):
                if t[i][j]:
                    continue
                b0i, b0j = 3 * (i // 3), 3 * (j // 3)
                seen = {t[i][c] for c in range(9)} | {t[r][j] for r in range(9)}
                seen |= {t[b0i + di][b0j + dj] for di in range(3) for dj in range(3)}
                expected = {NonX(i, j, k) for k in seen - {0}}
                assert {c[0] for c in units_2 if c[0][1:3] == (i, j)} == expected


def test_grid_formula_of_a_full_grid_has_exactly_729_units():
    t = solved_grid()
    assert is_valid_solution(t, t)
    assert len(formule_grille(t)) == 729 and f2(t) == []


def test_grid_formula_agrees_with_the_encoder(public):
    for line in sample(public, "royle17", 5):
        t = parse(line)
        blocks = dict(grid_groups(tuple(v for row in t for v in row), standard(9)))
        for name, ours in (("F1", f1(t)), ("F2", f2(t))):
            assert sorted(formule_to_dimacs(ours)) == sorted(list(c) for c in blocks[name])


def test_initial_formula_is_grid_then_rules():
    t = example_grid()
    assert formule_initiale(t) == formule_grille(t) + regle()


# --- propagation against minisat22 and the engine -----------------------------------------


def fixed_cells(lits: list[int]) -> set[tuple[int, int, int]]:
    """Return the (i, j, k) of the positive literals among DIMACS lits."""
    return {lit[1:] for lit in map(from_dimacs, lits) if lit[0] == "X"}


def grid_cells(g: list[list[int]]) -> set[tuple[int, int, int]]:
    """Return the (i, j, k) of the filled cells of grid g."""
    return {(i, j, g[i][j]) for i in range(9) for j in range(9) if g[i][j]}


def check_agreement(t, g, f, oracle_lits: list[int]) -> None:
    """Assert that the reference's result (grid g, simplified formula f) assigns exactly
    what an oracle's literal list does: same fixed cells, and the variables left in f
    are exactly the oracle's unassigned ones."""
    assert not is_contradiction(f)
    assert grid_cells(g) == fixed_cells(oracle_lits)
    unassigned = set(range(1, 730)) - {abs(lit) for lit in oracle_lits}
    assert {to_dimacs(x) for x in variables(f)} == unassigned
    if not unassigned:
        assert is_valid_solution(g, t)


def check_propagation(line: str, oracles) -> None:
    """Run the reference's `propagation` once and compare it with each oracle's propagate."""
    t = parse(line)
    g = [row[:] for row in t]
    f = propagation(formule_initiale(g), g)
    for oracle in oracles:
        ok, lits = oracle.propagate(assumptions=givens_as_assumptions(t))
        assert ok
        check_agreement(t, g, f, lits)


def propagation_sample(n: int) -> list[tuple[str, int, int]]:
    """Return n grids, mostly 17-clue ones (UP solves about 45% of them), each as (set,
    size of the set's sample, position in it): the grid is `sample(public, set, size)[k]`."""
    quarter = max(1, n // 4)
    sizes = {
        "royle17": n - 3 * quarter,
        "top1465": quarter,
        "kaggle-3m-sample-lines": quarter,
        "kaggle-1m-9999": quarter,
    }
    return [(name, size, k) for name, size in sizes.items() for k in range(size)]


def case_id(case: tuple[str, int, int]) -> str:
    return f"{case[0]}-{case[2]}"


@pytest.mark.parametrize("case", propagation_sample(8), ids=case_id)
def test_propagation_agrees_with_minisat_and_engine(case, public, minisat, engine):
    name, size, k = case
    check_propagation(sample(public, name, size)[k], [minisat, engine])


def reference_propagation(line: str):
    """Return (grid, simplified formula) after the reference's `propagation` on line."""
    g = parse(line)
    return g, propagation(formule_initiale(g), g)


LARGE_SAMPLE = propagation_sample(100)[8:]  # 92 grids: the reference takes 0.5 s each


@pytest.fixture(scope="module")
def large_sample_results(public):
    """{line: result of the reference} for the grids of LARGE_SAMPLE whose set is here."""
    lines = []
    for name, size, k in LARGE_SAMPLE:
        try:
            lines.append(sample(public, name, size)[k])
        except pytest.skip.Exception:
            continue  # the tests of an absent set skip themselves
    # The list-based propagation takes about half a second per grid: use every core.
    with multiprocessing.get_context("fork").Pool(os.cpu_count()) as pool:
        return dict(zip(lines, pool.map(reference_propagation, lines), strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("case", LARGE_SAMPLE, ids=case_id)
def test_propagation_agrees_with_minisat_and_engine_large_sample(
    case, public, large_sample_results, minisat, engine
):
    name, size, k = case
    line = sample(public, name, size)[k]
    t = parse(line)
    g, f = large_sample_results[line]
    for oracle in (minisat, engine):
        ok, lits = oracle.propagate(assumptions=givens_as_assumptions(t))
        assert ok
        check_agreement(t, g, f, lits)


def test_deduced_grid_solves_a_grid_solved_by_propagation(minisat, public):
    for line in public.puzzles("royle17"):
        t = parse(line)
        _ok, lits = minisat.propagate(assumptions=givens_as_assumptions(t))
        if sum(lit > 0 for lit in lits) == 81:
            break
    g = deduced_grid(t)
    assert is_valid_solution(g, t)
    assert t == parse(line)  # the input grid is not modified


# --- propagation2 -------------------------------------------------------------------------


def minisat_failed_literal_closure(t: list[list[int]], solver) -> list[int]:
    """Return the literals fixed by unit propagation plus the depth-1 failed-literal rule,
    driven by minisat's `propagate` (an oracle independent of the reference and engine)."""
    facts = givens_as_assumptions(t)
    while True:
        ok, lits = solver.propagate(assumptions=facts)
        assert ok
        assigned = {abs(lit) for lit in lits}
        failed = next(
            (
                lit
                for v in range(1, 730)
                if v not in assigned
                for lit in (v, -v)
                if not solver.propagate(assumptions=[*facts, lit])[0]
            ),
            None,
        )
        if failed is None:
            return lits
        facts.append(-failed)


def check_propagation2(line: str, engine) -> None:
    """Assert that `propagation2` solves the grid validly, as the engine's depth-1 probe does."""
    t = parse(line)
    g = [row[:] for row in t]
    f = propagation2(formule_initiale(g), g)
    assert f == [] and all(v != 0 for row in g for v in row)
    assert is_valid_solution(g, t)
    ok, lits = engine.probe(givens_as_assumptions(t), depth=1)
    assert ok
    check_agreement(t, g, f, lits)


def test_norvig_top95_is_not_solved_by_propagation_alone(public):
    t = parse(public.puzzles("top95", 1)[0])
    g = deduced_grid(t)
    assert any(v == 0 for row in g for v in row)


@pytest.mark.parametrize("k", range(3))
def test_propagation2_solves_norvig_top95(k, public, engine):
    check_propagation2(sample(public, "top95", 3)[k], engine)


# The list-based propagation2 takes 3 to 10 s per top95 grid: every 8th grid keeps the
# slow run affordable, the engine covers all 95 in test_probe.
@pytest.mark.slow
@pytest.mark.parametrize("k", range(3, 95, 8))  # every 8th of top95's 95 grids
def test_propagation2_solves_norvig_top95_sample(k, public, engine):
    check_propagation2(public.puzzles("top95")[k], engine)


@pytest.mark.slow
def test_propagation2_agrees_with_minisat_and_engine_on_norvig_hardest(minisat, engine, public):
    solved = 0
    for line in public.puzzles("hardest"):
        t = parse(line)
        g = [row[:] for row in t]
        f = propagation2(formule_initiale(g), g)
        check_agreement(t, g, f, minisat_failed_literal_closure(t, minisat))
        ok, lits = engine.probe(givens_as_assumptions(t), depth=1)
        assert ok
        check_agreement(t, g, f, lits)
        solved += len(grid_cells(g)) == 81
    assert solved == 9  # depth-1 failed literals solve 9 of the 11 (docs/results.md)


# --- contradictions -----------------------------------------------------------------------


def contradictory_grid() -> list[list[int]]:
    """Return a grid with the value 5 twice in row 0."""
    t = example_grid()
    t[0][0] = t[0][1] = 5
    return t


def test_contradictory_grid_is_reported(minisat, engine):
    t = contradictory_grid()
    assert propagation(formule_initiale(t)) == CONTRADICTION
    assert propagation2(formule_initiale(t)) == CONTRADICTION
    with pytest.raises(Contradiction):
        deduced_grid(t)
    with pytest.raises(Contradiction):
        deduced_grid(t, propagation2)
    assumptions = givens_as_assumptions(t)
    assert not minisat.propagate(assumptions=assumptions)[0]
    assert engine.propagate(assumptions) == (False, [])
    assert engine.probe(assumptions, depth=1) == (False, [])


# Where the exam asks for each function: section · question, questions numbered within
# each subsection (the table "where the exam asks for each function" of the shared
# reference notes).  The docstrings must open with these citations.
EXAM_QUESTIONS = {
    "appartient": "1.2 · Q1",
    "suppression": "1.2 · Q2",
    "ajout": "1.2 · Q3",
    "indice": "1.2 · Q4",
    "case1": "2.2 · Q1",
    "ligne1": "2.2 · Q2",
    "colonne1": "2.2 · Q3 (a)",
    "bloc1": "2.2 · Q3 (b)",
    "ligne2": "2.2 · Q4",
    "case2": "2.2 · Q5",
    "colonne2": "2.2 · Q5",
    "bloc2": "2.2 · Q5",
    "regle": "2.2 · Q5",
    "f1": "2.3 · Q1",
    "f2": "2.3 · Q2",
    "formule_grille": "2.3 · Q3",
    "formule_initiale": "after 2.3",
    "nouveau_lit_isole": "3.1 · Q6",
    "simplification": "3.1 · Q7",
    "propagation": "3.1 · Q8",
    "variables": "3.2 · Q2",
    "deduction": "3.2 · Q3",
    "propagation2": "3.2 · Q4",
}
NOT_IN_THE_EXAM = {"X", "NonX", "non", "to_dimacs", "from_dimacs", "formule_to_dimacs",
                   "is_contradiction", "deduced_grid", "_deux_fois"}  # fmt: skip


def test_every_exam_function_cites_its_question():
    import inspect

    from solvers import reference

    functions = {
        name
        for name, value in vars(reference).items()
        if inspect.isfunction(value)
        and value.__module__ == reference.__name__
        and value.__name__ == name  # an alias (the exam's own name) is checked below
    }
    assert functions - NOT_IN_THE_EXAM == set(EXAM_QUESTIONS)
    for name, citation in EXAM_QUESTIONS.items():
        doc = getattr(reference, name).__doc__
        assert doc.replace("Exam, after", "Exam after").startswith(f"Exam {citation}"), name
    # the exam's own names are the same functions
    assert reference.donnees is reference.f1 and reference.interdites is reference.f2
    assert reference.lig1 is reference.ligne1 and reference.col2 is reference.colonne2
