"""Counting with a cap: the home engine's search and PySAT's blocking clauses agree;
minimality; the `unique` command's output, exit codes and error messages."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from encoder.geometry import make_geometry, standard
from encoder.grids import format_line, parse_cells
from puzzles.counting import PysatCounter, describe, is_minimal, necessary_givens
from puzzles.fullgrid import GridSampler, SolutionCount, random_full_grid
from puzzles.generation import minimal_puzzle, random_placement, remove_givens
from puzzles.unique import make_counter

PROJECT = Path(__file__).resolve().parents[2]
PAPER_EXAMPLE = PROJECT / "data" / "school_paper_example.txt"

GEOMETRIES = {
    "4x4": standard(4),
    "6x6": standard(6),
    "9x9": standard(9),
    "X": make_geometry(9, diagonals=True),
    "hyper": make_geometry(9, windows=True),
}


def _grids(geometry, rng, how_many):
    """Random grids with 0, 1, a few and very many solutions: placements and removals."""
    cells = geometry.num_cells
    out = []
    for _ in range(how_many):
        k = rng.randrange(cells // 5, cells // 2 + 1)
        out.append(random_placement(geometry, k, rng)[0])
        out.append(remove_givens(random_full_grid(geometry, rng), k, rng))
    solver = GridSampler(geometry)
    out += [minimal_puzzle(solver, random_full_grid(geometry, rng), rng) for _ in range(2)]
    return out


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_engine_and_pysat_counts_agree(name):
    geometry = GEOMETRIES[name]
    rng = random.Random(17)
    engine = GridSampler(geometry)
    kinds = set()
    with PysatCounter(geometry) as pysat:
        for grid in _grids(geometry, rng, 12):
            for cap in (2, 40):
                ours, theirs = engine.count(grid, cap), pysat.count(grid, cap)
                assert ours == theirs, format_line(grid, geometry)
                kinds.add(min(ours.count, 2) if ours.complete else "capped")
    assert {0, 1, "capped"} <= kinds  # the sample covers every case


def test_empty_4x4_has_288_solutions_by_both_counters():
    geometry = standard(4)
    empty = (0,) * 16
    assert GridSampler(geometry).count(empty, 1000) == SolutionCount(288, True)
    with PysatCounter(geometry) as pysat:
        assert pysat.count(empty, 1000) == SolutionCount(288, True)
        assert pysat.count(empty, 288) == SolutionCount(288, False)  # stopped at the cap


def test_pysat_counter_forgets_the_previous_grid():
    geometry = standard(9)
    grid = parse_cells(PAPER_EXAMPLE.read_text().splitlines()[-1], geometry)
    with PysatCounter(geometry) as pysat:
        first = pysat.count(grid, 5)
        assert pysat.count(grid, 5) == first  # blocking clauses of call 1 are retired


def test_school_paper_example_has_several_solutions():
    geometry = standard(9)
    grid = parse_cells(PAPER_EXAMPLE.read_text().splitlines()[-1], geometry)
    for counter in ("engine", "pysat"):
        count = make_counter(geometry, counter).count(grid, 2)
        assert count.count == 2 and not count.complete
        assert describe(count) == ">= 2 solutions (cap)"


def test_minimality_check():
    geometry = standard(9)
    rng = random.Random(3)
    full = random_full_grid(geometry, rng)
    solver = GridSampler(geometry)
    puzzle = minimal_puzzle(solver, full, rng)
    assert is_minimal(solver, puzzle)
    assert all(necessary_givens(solver, puzzle))
    c = puzzle.index(0)
    padded = (*puzzle[:c], full[c], *puzzle[c + 1 :])
    assert solver.count(padded, 2).unique and not is_minimal(solver, padded)
    with PysatCounter(geometry) as pysat:
        assert necessary_givens(pysat, padded) == necessary_givens(solver, padded)


def test_describe():
    assert describe(SolutionCount(1, True)) == "unique"
    assert describe(SolutionCount(0, True)) == "no solution"
    assert describe(SolutionCount(3, True)) == "3 solutions"
    assert describe(SolutionCount(1, False)) == ">= 1 solutions (cap)"


def _unique(*args):
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", "unique", *args],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=300,
    )


def test_unique_command(tmp_path):
    geometry = standard(9)
    rng = random.Random(4)
    solver = GridSampler(geometry)
    minimal = [minimal_puzzle(solver, random_full_grid(geometry, rng), rng) for _ in range(3)]
    good = tmp_path / "good.txt"
    good.write_text(
        "# three minimal puzzles\n" + "".join(format_line(g, geometry) + "\n" for g in minimal)
    )
    result = _unique(str(good), "--minimal")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == [f"{good}:{n}  unique, minimal" for n in (2, 3, 4)]
    assert lines[3].startswith("3 puzzles: 3 unique, 0 no solution, 0 several solutions")

    mixed = tmp_path / "mixed.txt"
    full = random_full_grid(geometry, rng)
    mixed.write_text(
        format_line(minimal[0], geometry) + "\n" + PAPER_EXAMPLE.read_text().splitlines()[-1] + "\n"
        + format_line((*full[:80], 0), geometry) + "\n"
    )  # fmt: skip
    result = _unique(str(mixed), "--counter", "pysat")
    assert result.returncode == 1
    assert result.stdout.splitlines()[:3] == [
        f"{mixed}:1  unique",
        f"{mixed}:2  >= 2 solutions (cap)",
        f"{mixed}:3  unique",
    ]
    assert "3 puzzles: 2 unique, 0 no solution, 1 several solutions" in result.stdout


def test_unique_command_reports_bad_input(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# header\n" + "1" * 81 + "\n")  # nine 1s in a row: clashing givens
    result = _unique(str(bad))
    assert result.returncode == 1  # not every puzzle is unique
    assert result.stdout.startswith(f"{bad}:2  no solution (value 1 given twice in row 0")
    assert "1 no solution" in result.stdout.splitlines()[-1]
    result = _unique(str(tmp_path / "missing.txt"))
    assert result.returncode == 1 and result.stderr.startswith("benchmarks: ")


def test_unique_reads_the_geometry_header_of_generated_files(tmp_path, capsys):
    from puzzles import generate, unique

    out = tmp_path / "x.txt"
    args = ["--method", "remove", "--givens", "30", "--diagonals", "--count", "3", "--unique"]
    assert generate.main([*args, "--seed", "2", "-o", str(out), "--quiet"]) == 0
    assert "# geometry: --size 9 --diagonals" in out.read_text().splitlines()
    capsys.readouterr()
    assert unique.main([str(out)]) == 0  # X rules from the header: unique
    assert "3 puzzles: 3 unique" in capsys.readouterr().out
    unique.main([str(out), "--size", "9"])  # flags given: plain rules, header ignored
    assert "3 puzzles: 3 unique" not in capsys.readouterr().out


def test_unique_reads_files_as_run_does(tmp_path):
    """The variant from the file name, CSV files by their puzzle column."""
    lines = (PROJECT / "data" / "sets" / "sudoku9_x_minimal.txt").read_text().splitlines()
    grids = [ln for ln in lines if ln.strip() and not ln.startswith("#")][:5]  # X-Sudoku
    named = tmp_path / "sample_x.txt"  # "_x": X-Sudoku, as `benchmarks run` reads it
    named.write_text("\n".join(grids) + "\n")
    result = _unique(str(named))
    assert result.returncode == 0, result.stdout
    assert "5 puzzles: 5 unique" in result.stdout
    assert "flags from the file name: --diagonals" in result.stderr
    plain = tmp_path / "sample.txt"  # the same grids under plain rules have more solutions
    plain.write_text(named.read_text())
    assert _unique(str(plain)).returncode == 1

    table = tmp_path / "sample.csv"
    table.write_text("id,quiz\n" + "".join(f"{i},{g}\n" for i, g in enumerate(grids)))
    result = _unique(str(table), "--column", "quiz", "--diagonals")
    assert result.returncode == 0, result.stderr
    assert "5 puzzles: 5 unique" in result.stdout


def test_a_plain_file_on_the_board_says_what_pysat_says(tmp_path):
    """A plain file goes to the board a block a call (its --minimal rows too); PySAT
    with blocking clauses, grid by grid, must print the same lines: minimal, not
    minimal with how many givens can go, several solutions, a clash."""
    monster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    solution = "174385962293467158586192734451923876928674315367851249719548623635219487842736591"
    padded = solution[:3] + monster[3:]  # two givens more, from the solution
    several = "." + monster[1:]
    clash = "11" + monster[2:]
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join([monster, padded, several, clash]) + "\n")
    board = _unique(str(plain), "--minimal")
    pysat = _unique(str(plain), "--minimal", "--counter", "pysat")
    assert board.returncode == pysat.returncode == 1
    assert board.stdout.splitlines()[:4] == pysat.stdout.splitlines()[:4]
    assert "not minimal (" in board.stdout.splitlines()[1]
    assert board.stdout.splitlines()[0].endswith("unique, minimal")
