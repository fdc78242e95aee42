"""Variants end to end: encode, solve with PySAT Minisat22, prove the solution unique,
decode, and check it twice (encoder.check and the independent oracle).

Uniqueness is checked on the first puzzles of the public sets (skipped when a set is not
on this machine); the command-line round trip needs only one real puzzle per variant,
the set's first line as golden.txt holds it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from encoder_oracle import (
    Layout,
    golden_puzzles,
    grid_by_hand,
    models,
    run_cli,
    solution_errors,
    values_of,
)
from pysat.formula import CNF

from encoder import (
    encode_dimacs,
    format_line,
    grid_from_model,
    is_solution,
    make_geometry,
    parse_grid,
    puzzle_formula,
)
from encoder.grids import region_ids


@dataclass(frozen=True)
class Variant:
    puzzle_set: str  # catalogue name of the public set
    golden: str  # golden.txt's section of the variant (its real puzzle: the set's line 1)
    size: int
    box: tuple[int, int] | None = None
    diagonals: bool = False
    windows: bool = False
    jigsaw: bool = False

    def flags(self) -> list[str]:
        return ["--diagonals"] * self.diagonals + ["--windows"] * self.windows

    def first_line(self) -> str:
        """The set's first puzzle, from golden.txt (no public set needed)."""
        return golden_puzzles(self.golden, self.jigsaw)[0]


VARIANTS = {
    "x": Variant("andoku-x", "--diagonals", 9, (3, 3), diagonals=True),
    "hyper": Variant("andoku-hyper", "--windows", 9, (3, 3), windows=True),
    "jigsaw": Variant("andoku-jigsaw", "", 9, jigsaw=True),
    "4x4": Variant("kr4x4", "--size 4", 4, (2, 2)),
    "6x6": Variant("sudoku6x6", "--size 6", 6, (2, 3)),
    "16x16": Variant("hex16", "--size 16", 16, (4, 4)),
}
# 16x16 in the exam's encoding only: the minimal one adds nothing but time there.
CASES = [
    (name, t, encoding)
    for name in VARIANTS
    for t in range(3)
    for encoding in (("centrale",) if name == "16x16" else ("centrale", "minimal"))
]


def setup(name: str, line: str):
    """Return (cells, encoder geometry, oracle layout) of a puzzle line of the variant."""
    variant = VARIANTS[name]
    cells, regions = line.split("|") if variant.jigsaw else (line, None)
    geometry = make_geometry(
        variant.size,
        diagonals=variant.diagonals,
        windows=variant.windows,
        jigsaw=region_ids(regions, 9) if regions else None,
    )
    layout = Layout(variant.size, variant.box, variant.diagonals, variant.windows, regions)
    return cells, geometry, layout


@pytest.mark.parametrize(
    ("name", "t", "encoding"), CASES, ids=["-".join(map(str, c)) for c in CASES]
)
def test_variant_encode_solve_unique_decode_check(name, t, encoding, public):
    cells, geometry, layout = setup(name, public.puzzles(VARIANTS[name].puzzle_set, 3)[t])
    n = geometry.size
    grid = parse_grid(cells, geometry)
    assert grid == values_of(cells)
    text = encode_dimacs(grid, geometry, encoding)
    cnf = CNF(from_string=text)
    assert cnf.clauses == [list(c) for c in puzzle_formula(grid, geometry, encoding).clauses]
    found = models(cnf.clauses, n, limit=2)
    assert len(found) == 1, "expected exactly one solution (blocking clause must give UNSAT)"
    solution = grid_from_model(found[0], geometry)
    assert solution == grid_by_hand(found[0], n)
    assert is_solution(solution, grid, geometry)
    assert solution_errors(solution, grid, layout) == []


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "16x16" else n for n in VARIANTS]
)
def test_variant_through_the_command_line(name, tmp_path):
    line = VARIANTS[name].first_line()
    cells, geometry, layout = setup(name, line)
    puzzle_file = tmp_path / "puzzle.txt"
    puzzle_file.write_text(line + "\n")
    encoded = run_cli(puzzle_file, *VARIANTS[name].flags(), "-o", tmp_path / "p.cnf")
    assert encoded.returncode == 0, encoded.stderr
    cnf = CNF(from_file=str(tmp_path / "p.cnf"))
    [model] = models(cnf.clauses, geometry.size, limit=1)
    (tmp_path / "model.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    decoded = run_cli(
        "decode", tmp_path / "model.txt", "--grid", puzzle_file, *VARIANTS[name].flags()
    )
    assert decoded.returncode == 0, decoded.stderr
    solution = parse_grid(decoded.stdout, geometry)
    assert decoded.stdout.strip() == format_line(solution, geometry)
    assert solution_errors(solution, values_of(cells), layout) == []


def test_oracle_rejects_a_grid_that_breaks_only_a_diagonal():
    # A classic solution whose main diagonal repeats a value: the X layout must refuse it
    # while the classic layout accepts it (so the oracle does check the extra regions).
    classic = tuple(((3 * (i % 3) + i // 3 + j) % 9) + 1 for i in range(9) for j in range(9))
    assert solution_errors(classic, (0,) * 81, Layout(9, (3, 3))) == []
    assert solution_errors(classic, (0,) * 81, Layout(9, (3, 3), diagonals=True)) != []
    assert not is_solution(classic, (0,) * 81, make_geometry(9, diagonals=True))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIANTS))
def test_variant_first_30_puzzles_unique_in_every_encoding(name, public):
    variant = VARIANTS[name]
    lines = public.puzzles(variant.puzzle_set, 30)
    encodings = ["centrale"] if variant.size == 16 else ["centrale", "natural", "augmented"]
    for line in lines:
        cells, geometry, layout = setup(name, line)
        grid = parse_grid(cells, geometry)
        solutions = set()
        for encoding in encodings:
            formula = puzzle_formula(grid, geometry, encoding)
            found = models(formula.clauses, variant.size, limit=2)
            assert len(found) == 1, (line, encoding)
            solutions.add(grid_from_model(found[0], geometry))
        [solution] = solutions
        assert solution_errors(solution, grid, layout) == []
