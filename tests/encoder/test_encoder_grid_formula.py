"""F_grille (the exam's F1 and F2 units) against an independent count, the `units`
givens style, and clashing givens (refused, or encoded as an UNSAT formula)."""

from __future__ import annotations

import pytest
from encoder_oracle import (
    SCHOOL_EXAMPLE,
    SETS,
    Layout,
    assert_input_error,
    golden_puzzles,
    puzzle_lines,
    run_cli,
    values_of,
    x,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.formula import CNF
from pysat.solvers import Minisat22

from encoder import (
    find_clashes,
    grid_groups,
    parse_grid,
    puzzle_formula,
    rule_formula,
    standard,
)

# Real puzzles of the project's data: golden.txt's (norvig_top95 line 1, royle17 line 2,
# forum_hardest_1106 line 1), three generated minimal ones, and the school example.
GRIDS = {
    **{f"golden{t}": p for t, p in enumerate(golden_puzzles())},
    **{f"minimal{t}": p for t, p in enumerate(puzzle_lines(SETS / "sudoku9_minimal.txt", 3))},
    "school": puzzle_lines(SCHOOL_EXAMPLE)[0],
}
CLASSIC = Layout(9, box=(3, 3))


def f_grille_by_hand(grid: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """F1: x(i,j,k) and the 8 units not-x(i,j,l) per given; F2: per empty cell, one
    not-x(i,j,k) per distinct value given in its row, column or block."""
    f1, f2 = [], []
    for c, k in enumerate(grid):
        i, j = divmod(c, 9)
        if k:
            f1.append(x(i, j, k))
            f1 += [-x(i, j, other) for other in range(1, 10) if other != k]
        else:
            seen = {grid[9 * a + b] for a, b in CLASSIC.peers((i, j))} - {0}
            f2 += [-x(i, j, v) for v in seen]
    return f1, f2


@pytest.mark.parametrize("line", list(GRIDS.values()), ids=list(GRIDS))
def test_f_grille_matches_the_hand_count(line):
    geometry = standard(9)
    grid = parse_grid(line, geometry)
    assert grid == values_of(line)
    blocks = grid_groups(grid, geometry, "centrale")
    assert [name for name, _ in blocks] == ["F1", "F2"]
    f1, f2 = (block for _, block in blocks)
    assert all(len(clause) == 1 for clause in f1 + f2)
    expected_f1, expected_f2 = f_grille_by_hand(grid)
    givens = sum(1 for k in grid if k)
    assert len(f1) == 9 * givens == len(expected_f1)
    assert sorted(c[0] for c in f1) == sorted(expected_f1)
    assert sorted(c[0] for c in f2) == sorted(expected_f2)
    units = [c[0] for c in f1 + f2]
    assert len(set(units)) == len(units), "duplicate unit clause"
    assert len(units) <= 729


def test_f_grille_of_the_school_example_by_hand():
    # Row 0 of the school example is 1.3.5..89: cell (0,1) is empty and sees 1,3,5,8,9 in
    # its row, 6,9,4 in its column and 1,3,6 in its block: 7 units, 1,3,4,5,6,8,9.
    grid = parse_grid(GRIDS["school"], standard(9))
    f2 = dict(grid_groups(grid, standard(9)))["F2"]
    cell_01 = sorted(-c[0] - 9 for c in f2 if 10 <= -c[0] <= 18)
    assert cell_01 == [1, 3, 4, 5, 6, 8, 9]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=81, max_size=81))
def test_f_grille_hand_count_on_random_grids(values):
    grid = tuple(values)
    f1, f2 = (block for _, block in grid_groups(grid, standard(9), "centrale"))
    expected_f1, expected_f2 = f_grille_by_hand(grid)
    assert sorted(c[0] for c in f1) == sorted(expected_f1)
    assert sorted(c[0] for c in f2) == sorted(expected_f2)
    assert len(f1) + len(f2) <= 729


@pytest.mark.parametrize("line", list(GRIDS.values()), ids=list(GRIDS))
def test_units_style_is_one_positive_unit_per_given(line):
    geometry = standard(9)
    grid = parse_grid(line, geometry)
    expected = [[x(*divmod(c, 9), k)] for c, k in enumerate(grid) if k]
    assert grid_groups(grid, geometry, "units") == [("G", expected)]


def test_puzzle_formula_is_rules_then_grid_units():
    geometry = standard(9)
    grid = parse_grid(GRIDS["golden0"], geometry)
    formula = puzzle_formula(grid, geometry)
    rules = rule_formula(geometry)
    assert formula.groups[:8] == rules.groups
    assert [name for name, _ in formula.groups[8:]] == ["F1", "F2"]
    expected_units = sum(len(b) for _, b in grid_groups(grid, geometry))
    assert formula.num_clauses == 11_988 + expected_units


def test_unknown_givens_style_is_refused():
    with pytest.raises(ValueError, match="givens style"):
        grid_groups((0,) * 81, standard(9), "bogus")


# ---- clashing givens ---------------------------------------------------------------

# Two 7s sharing exactly one region each time.
CLASHES = [((0, 0), (0, 3), "row 0"), ((1, 4), (7, 4), "column 4"), ((3, 3), (5, 5), "box 4")]


def clash_line(a, b) -> str:
    cells = ["."] * 81
    cells[9 * a[0] + a[1]] = cells[9 * b[0] + b[1]] = "7"
    cells[80] = "2"  # an unrelated given
    return "".join(cells)


@pytest.mark.parametrize(("a", "b", "region"), CLASHES, ids=[c[2] for c in CLASHES])
def test_find_clashes_names_both_cells_and_the_region(a, b, region):
    geometry = standard(9)
    [clash] = find_clashes(parse_grid(clash_line(a, b), geometry), geometry)
    assert clash.value == 7
    assert (geometry.cell(clash.first), geometry.cell(clash.second)) == (a, b)
    assert clash.region.name() == region


@pytest.mark.parametrize(("a", "b", "region"), CLASHES, ids=[c[2] for c in CLASHES])
def test_cli_refuses_clashing_givens(a, b, region, tmp_path):
    path = tmp_path / "clash.txt"
    path.write_text("# a bad grid\n" + clash_line(a, b) + "\n")
    result = run_cli(path)
    assert result.stdout == ""
    assert_input_error(
        result,
        f"{path}:2",
        f"({a[0]},{a[1]})",
        f"({b[0]},{b[1]})",
        region,
        "--allow-conflicts",
    )


@pytest.mark.parametrize("givens", ["centrale", "units"])
def test_allow_conflicts_emits_an_unsat_formula(givens):
    a, b, _ = CLASHES[0]
    result = run_cli(clash_line(a, b), "--allow-conflicts", "--givens", givens)
    assert result.returncode == 0, result.stderr
    cnf = CNF(from_string=result.stdout)
    assert len(cnf.clauses) > 11_988
    with Minisat22(bootstrap_with=cnf.clauses) as solver:
        assert solver.solve() is False
