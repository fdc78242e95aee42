"""At-most-one encodings (encoder.amo) against pairwise semantics, by model counting.

The oracle is PySAT enumeration with blocking clauses projected on the original
variables (tests/pysat_enumeration.py): an at-most-one of n literals has n + 1 models
on them, whatever auxiliaries an encoding adds; a 4x4 Sudoku has 288 solutions and a
4x4 Latin square 576, in every encoding and every at-most-one."""

from __future__ import annotations

import pytest
from pysat_enumeration import pysat_models

from encoder import make_geometry, rule_formula
from encoder.amo import AMO_ENCODINGS, at_most_one
from encoder.check import is_solution
from encoder.decode import grid_from_model
from encoder.emit import encode_dimacs, rule_size

HAND = ("commander", "product", "bimander")


def count(clauses, num_vars, assumptions=()) -> int:
    return sum(1 for _ in pysat_models(clauses, num_vars, assumptions=assumptions))


@pytest.mark.parametrize("amo", AMO_ENCODINGS)
@pytest.mark.parametrize("n", range(1, 10))
def test_at_most_one_has_the_pairwise_models(amo, n):
    lits = list(range(1, n + 1))
    clauses, next_var = at_most_one(lits, amo, n + 1)
    assert next_var >= n + 1
    assert all(abs(lit) < next_var for clause in clauses for lit in clause)
    assert count(clauses, n) == n + 1


@pytest.mark.parametrize("amo", HAND)
@pytest.mark.parametrize("n", [5, 7, 12])
def test_hand_written_auxiliaries_are_functions_of_the_literals(amo, n):
    """Commander, product and bimander define their auxiliaries (no free ones where
    they matter): the models over all variables, once at most one literal is true,
    are one per choice for commander; never more than one extension for the others
    when a literal is true."""
    lits = list(range(1, n + 1))
    clauses, next_var = at_most_one(lits, amo, n + 1)
    for chosen in lits:
        others = [-x for x in lits if x != chosen]
        models = list(pysat_models(clauses, next_var - 1, assumptions=[chosen, *others]))
        assert models, f"{amo}: literal {chosen} alone is not allowed"
        if amo == "commander":
            assert len(models) == 1


def test_negated_and_scattered_literals():
    lits = [3, -7, 12, -1]
    for amo in AMO_ENCODINGS:
        clauses, _ = at_most_one(lits, amo, 13)
        models = list(pysat_models(clauses, 12))
        true_counts = {sum(1 for lit in lits if m[abs(lit) - 1] == lit) for m in models}
        assert true_counts == {0, 1}
        assert len(models) == 5 * 2**8  # 5 choices for the 4 literals, 8 free variables


@pytest.mark.parametrize("amo", AMO_ENCODINGS)
@pytest.mark.parametrize(
    ("encoding", "boxes", "solutions"),
    [
        ("centrale", True, 288),
        ("minimal", True, 288),
        ("augmented", True, 288),
        ("natural", False, 576),
    ],
)
def test_sudoku_4x4_solutions_in_every_at_most_one(amo, encoding, boxes, solutions):
    geometry = make_geometry(4, boxes=boxes)
    formula = rule_formula(geometry, encoding, amo)
    grids = set()
    for model in pysat_models(formula.clauses, 64):
        grid = grid_from_model(model, geometry)
        assert is_solution(grid, (0,) * 16, geometry)
        grids.add(grid)
    assert len(grids) == solutions


@pytest.mark.parametrize("amo", AMO_ENCODINGS)
def test_rule_size_predicts_the_written_formula(amo):
    geometry = make_geometry(9)
    for encoding in ("centrale", "augmented"):
        formula = rule_formula(geometry, encoding, amo)
        assert rule_size(geometry, encoding, amo) == (formula.num_vars, formula.num_clauses)


def test_pairwise_is_the_default_and_compact_encodings_name_their_auxiliaries():
    geometry = make_geometry(9)
    assert rule_formula(geometry) == rule_formula(geometry, "centrale", "pairwise")
    text = encode_dimacs(None, geometry, amo="sequential")
    assert "c variables 730..1377: sequential auxiliaries of K2\n" in text
    header = next(line for line in text.splitlines() if line.startswith("p cnf"))
    assert header == f"p cnf {rule_formula(geometry, 'centrale', 'sequential').num_vars} 7776"


def test_compact_at_most_one_is_four_times_smaller_at_25x25():
    """25 literals: 300 pairwise clauses against 71 (sequential) and 70 (product); no
    at-most-one needs fewer than about 2n clauses, so 4.3x is near the ceiling."""
    geometry = make_geometry(25)
    _, pairwise_clauses = rule_size(geometry)
    assert pairwise_clauses == 752_500
    for amo in ("sequential", "product"):
        _, compact = rule_size(geometry, amo=amo)
        assert pairwise_clauses >= 4 * compact
