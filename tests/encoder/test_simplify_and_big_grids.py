"""The givens-simplified formula (--simplify, decode --cnf), grids written in numbers,
and sizes beyond 25 (default boxes, Latin squares, pattern full grids).

Solutions are counted by PySAT enumeration projected on the cell variables (the full
formula) or on the open variables (the simplified one), and every grid is checked by
encoder.check."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from encoder_oracle import golden_puzzles
from pysat_enumeration import pysat_models

from encoder import make_geometry, puzzle_formula
from encoder.check import is_solution
from encoder.decode import grid_from_model
from encoder.dimacs import parse_cnf
from encoder.emit import encode_dimacs
from encoder.errors import GridError
from encoder.geometry import default_box
from encoder.grids import format_line, format_pretty, parse_cells, parse_grid, split_puzzles
from encoder.simplify import original_model, read_map
from puzzles.fullgrid import pattern_full_grid


def run_cli(module: str, *args: object) -> subprocess.CompletedProcess:
    """Run `python -m MODULE ARGS` and return the finished process (text mode)."""
    command = [sys.executable, "-m", module, *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


# A 4x4 puzzle with 3 givens: several solutions to count.
FEW_GIVENS = "1...........2..3"


def simplified_solutions(grid, geometry, encoding, amo):
    text = encode_dimacs(grid, geometry, encoding, amo=amo, simplify=True)
    cnf = parse_cnf(text)
    originals, true_vars = read_map(text, "<test>")
    found = set()
    for model in pysat_models(list(cnf), len(originals)):
        solution = grid_from_model(original_model(model, originals, true_vars), geometry)
        assert is_solution(solution, grid, geometry)
        found.add(solution)
    return found


def full_solutions(grid, geometry, encoding):
    formula = puzzle_formula(grid, geometry, encoding)
    return {
        grid_from_model(model, geometry)
        for model in pysat_models(formula.clauses, geometry.size**3)
    }


@pytest.mark.parametrize("amo", ["pairwise", "sequential", "product", "bimander", "commander"])
@pytest.mark.parametrize("encoding", ["centrale", "minimal", "augmented"])
def test_simplified_formula_has_the_full_formulas_solutions(encoding, amo):
    geometry = make_geometry(4)
    grid = parse_grid(FEW_GIVENS, geometry)
    expected = full_solutions(grid, geometry, encoding)
    assert len(expected) > 1
    assert simplified_solutions(grid, geometry, encoding, amo) == expected


def test_simplified_9x9_is_smaller_and_keeps_the_one_solution():
    geometry = make_geometry(9)
    grid = parse_grid(golden_puzzles()[0], geometry)
    text = encode_dimacs(grid, geometry, simplify=True)
    cnf = parse_cnf(text)
    full = puzzle_formula(grid, geometry)
    assert cnf.num_vars < 729 and len(cnf) < full.num_clauses / 4
    assert "c the full rule formula has 729 variables and 11988 clauses" in text
    assert len(simplified_solutions(grid, geometry, "centrale", "pairwise")) == 1


def test_clashing_givens_simplify_to_an_empty_clause():
    geometry = make_geometry(4)
    grid = (1, 1) + (0,) * 14
    cnf = parse_cnf(encode_dimacs(grid, geometry, simplify=True))
    assert [] in [list(clause) for clause in cnf]


def solve_simplified(puzzle, amo: str, n: int, folder) -> str:
    """Encode `puzzle` (a grid or a file) with --simplify, solve it with CaDiCaL195,
    decode the model through the map, check the grid; return the model's file."""
    cnf, model = folder / "s.cnf", folder / "s.out"
    assert run_cli("encoder", puzzle, "--simplify", "--amo", amo, "-o", cnf).returncode == 0
    solved = run_cli("solvers", "solve", cnf, "--solver", "cadical195")
    assert solved.returncode == 10
    model.write_text(solved.stdout)
    decoded = run_cli("encoder", "decode", model, "--cnf", cnf, "--grid", puzzle)
    assert decoded.returncode == 0, decoded.stderr
    geometry = make_geometry(n)
    text = puzzle.read_text() if hasattr(puzzle, "read_text") else puzzle
    [given], [answer] = split_puzzles(text, size=n), split_puzzles(decoded.stdout, size=n)
    assert is_solution(
        parse_cells(answer.cells, geometry), parse_cells(given.cells, geometry), geometry
    )
    return model


def test_simplify_and_decode_through_the_map_on_the_command_line(tmp_path):
    puzzle = golden_puzzles()[1]
    model = solve_simplified(puzzle, "ladder", 9, tmp_path)
    # Without the map, the renumbered model is no grid of the puzzle: refused in one line.
    wrong = run_cli("encoder", "decode", model, "--grid", puzzle)
    assert wrong.returncode == 1 and wrong.stderr.count("\n") == 1


def test_simplify_needs_a_grid():
    assert run_cli("encoder", "--rules-only", "--simplify").returncode == 2


@pytest.mark.parametrize(
    ("n", "box"), [(36, (6, 6)), (49, (7, 7)), (64, (8, 8)), (81, (9, 9)), (100, (10, 10))]
)
def test_default_boxes_beyond_25(n, box):
    assert default_box(n) == box
    assert make_geometry(n).box == box


def test_a_prime_side_needs_no_boxes():
    with pytest.raises(GridError, match="--no-boxes"):
        make_geometry(37)
    assert make_geometry(37, boxes=False).describe() == "37x37, no-boxes"


@pytest.mark.parametrize(
    "text",
    [
        "1,0,3,4, 3,4,1,2, 2,1,4,3, 4,3,2,1",
        "1 . 3 4 3 4 1 2 2 1 4 3 4 3 2 10",
        "1 0 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n",
        "1, 0 | 3, 4\n3, 4 | 1, 2\n-----+-----\n2, 1 | 4, 3\n4, 3 | 2, 1\n",
    ],
)
def test_grids_written_in_numbers(text):
    geometry = make_geometry(4)
    if "10" in text:  # a value beyond N: not a 4x4 grid of numbers, nor of symbols
        with pytest.raises(GridError):
            split_puzzles(text)
        return
    [puzzle] = split_puzzles(text)
    assert parse_cells(puzzle.cells, geometry) == (1, 0, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def test_digit_groups_of_a_grid_of_symbols_are_not_numbers():
    rows = ["123 456 789", "456 789 123", "789 123 456"]
    rows += ["234 567 891", "567 891 234", "891 234 567"]
    rows += ["345 678 912", "678 912 345", "912 345 678"]
    [puzzle] = split_puzzles("\n".join(rows))
    assert puzzle.cells == "".join(rows).replace(" ", "")


@pytest.mark.parametrize(("n", "boxes"), [(36, True), (30, True), (37, False)])
def test_pattern_full_grids_obey_the_rules_and_round_trip_as_numbers(n, boxes):
    geometry = make_geometry(n, boxes=boxes)
    grid = pattern_full_grid(geometry, random.Random(5))
    assert is_solution(grid, (0,) * (n * n), geometry)
    assert grid != pattern_full_grid(geometry, random.Random(6))
    line = format_line(grid, geometry)
    [puzzle] = split_puzzles(line, size=n)
    assert parse_cells(puzzle.cells, geometry) == grid
    pretty = format_pretty(grid, geometry)
    assert len(pretty.splitlines()) == n + (n // geometry.box[0] - 1 if geometry.box else 0)
    [laid_out] = split_puzzles(pretty)
    assert parse_cells(laid_out.cells, geometry) == grid


def test_a_36x36_puzzle_generated_encoded_solved_and_checked(tmp_path):
    """A puzzle of 36x36 with 70% of the cells given, through the commands: generate,
    encode (simplified, product at-most-one), CaDiCaL, decode through the map."""
    puzzles = tmp_path / "p.txt"
    made = run_cli(
        "benchmarks", "generate", "--method", "remove", "--size", "36", "--givens", "907",
        "--seed", "3", "--quiet", "-o", puzzles,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    solve_simplified(puzzles, "product", 36, tmp_path)


def test_big_sizes_refuse_methods_that_count_solutions():
    made = run_cli("benchmarks", "generate", "--method", "minimal", "--size", "36")
    assert made.returncode == 2 and "beyond 25x25" in made.stderr
