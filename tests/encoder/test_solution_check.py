"""The vectorised solution check (`encoder.check.SolutionCheck`) against the loop it
stands in for (`solution_problems`): the same verdict on valid solutions and on every
kind of wrong one, and the loop's own messages when wrong; its many-rows pass
(`SolutionCheck.valid`) and the decoder of many models (`grids_from_models`) against
the one-row checks."""

from __future__ import annotations

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from encoder import check, make_geometry
from encoder.check import SolutionCheck, solution_problems
from encoder.decode import ModelError, grid_from_model, grids_from_models
from encoder.numbering import cell_var

# Valid under the plain rules (the variants' extra regions make it wrong, also tested).
SOLUTION9 = tuple(int(ch) for ch in (
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
))  # fmt: skip
SOLUTION4 = tuple(int(ch) for ch in "3412214342311324")
GEOMETRIES = {
    9: [make_geometry(9), make_geometry(9, diagonals=True), make_geometry(9, windows=True)],
    4: [make_geometry(4), make_geometry(4, boxes=False)],
}


@settings(max_examples=300, deadline=None)
@given(
    size=st.sampled_from([9, 4]),
    which=st.integers(0, 2),
    changes=st.lists(st.tuples(st.integers(0, 80), st.integers(-1, 10)), max_size=3),
    givens=st.lists(st.tuples(st.integers(0, 80), st.integers(0, 10)), max_size=4),
    drop=st.booleans(),
)
def test_same_verdict_and_messages_as_the_loop(size, which, changes, givens, drop):
    geometry = GEOMETRIES[size][which % len(GEOMETRIES[size])]
    cells = size * size
    solution = list(SOLUTION9 if size == 9 else SOLUTION4)
    puzzle = [0] * cells
    for c, k in givens:
        puzzle[c % cells] = solution[c % cells] if k == 0 else k  # kept, or maybe not
    for c, k in changes:
        solution[c % cells] = k
    if drop:
        solution.pop()
    expected = solution_problems(solution, puzzle, geometry)
    assert SolutionCheck(geometry).problems(solution, puzzle) == expected
    if not drop:  # the many-rows pass: the same verdict, this row beside a valid one
        valid = SOLUTION9 if size == 9 else SOLUTION4
        rows = np.array([solution, valid], dtype=np.int64)
        givens_rows = np.array([puzzle, [0] * cells], dtype=np.int64)
        verdict = SolutionCheck(geometry).valid(rows, givens_rows).tolist()
        assert verdict == [not expected, not solution_problems(valid, [0] * cells, geometry)]
        with mock.patch.object(check, "BIT_SIZES", 0):  # the sort of grids above 48x48
            assert SolutionCheck(geometry).valid(rows, givens_rows).tolist() == verdict


@settings(max_examples=200, deadline=None)
@given(changes=st.lists(st.tuples(st.integers(0, 80), st.integers(-9, 9)), max_size=3))
def test_many_models_decode_as_each_one_does(changes):
    """A model row with a cell emptied or given a second value is not good, and a good
    row decodes to `grid_from_model`'s grid."""
    model = [-v for v in range(1, 730)]
    for c, k in enumerate(SOLUTION9):
        model[cell_var(c, k) - 1] = cell_var(c, k)
    for c, k in changes:  # k > 0: one more true value in cell c; k < 0: one made false
        var = cell_var(c, abs(k) or 1) - 1
        model[var] = abs(model[var]) if k > 0 else -abs(model[var])
    grids, good = grids_from_models(np.array([model, model[::-1]], dtype=np.int64), 9)
    try:
        expected = grid_from_model(model, make_geometry(9))
    except ModelError:
        assert not good[0]
    else:
        assert good[0] and tuple(grids[0].tolist()) == expected
    assert good[1] == good[0]  # the order of the literals in a model does not matter


def test_a_valid_solution_has_no_problem_and_a_swap_is_named():
    check = SolutionCheck(make_geometry(9))
    assert check.problems(SOLUTION9, (0,) * 81) == []
    swapped = list(SOLUTION9)
    swapped[0], swapped[1] = swapped[1], swapped[0]  # rows still fine, columns not
    assert check.problems(swapped, (0,) * 81)[0].startswith("column 0 repeats a value")
