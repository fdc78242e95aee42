"""Generation: full grids, the four puzzle methods, jigsaw maps, reproducibility, the CLI.

Every property is checked by something that shares no code with the generator: region
rules by `encoder.check` and `find_clashes`, uniqueness and minimality by PySAT with
blocking clauses, depth by a PySAT-driven failed-literal closure written here.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.solvers import Minisat22

from encoder.check import is_solution
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import make_geometry, standard
from encoder.grids import find_clashes, parse_cells, region_ids, split_puzzles
from puzzles.counting import PysatCounter
from puzzles.fullgrid import GridSampler, random_full_grid, sampler_for
from puzzles.generation import (
    GENERATOR_VERSION,
    Request,
    generate,
    minimal_puzzle,
    random_placement,
    remove_givens,
)
from puzzles.jigsaw import jigsaw_geometry, random_jigsaw, random_region_map

PROJECT = Path(__file__).resolve().parents[2]

GEOMETRIES = {
    "4x4": standard(4),
    "6x6": standard(6),
    "9x9": standard(9),
    "X": make_geometry(9, diagonals=True),
    "hyper": make_geometry(9, windows=True),
    "12x12": standard(12),
    "16x16": standard(16),
}
SMALL = ["4x4", "6x6", "9x9", "X", "hyper"]


def _givens(grid) -> int:
    return sum(1 for v in grid if v)


@pytest.mark.parametrize("name", list(GEOMETRIES))
def test_full_grids_are_valid_and_differ(name):
    geometry = GEOMETRIES[name]
    rng = random.Random(1)
    grids = [random_full_grid(geometry, rng) for _ in range(3)]
    empty = (0,) * geometry.num_cells
    for grid in grids:
        assert is_solution(grid, empty, geometry)
    assert len(set(grids)) == 3


@pytest.mark.slow
def test_full_grid_25x25():
    geometry = standard(25)
    grid = random_full_grid(geometry, random.Random(3))
    assert is_solution(grid, (0,) * 625, geometry)


def test_full_grid_reproducible_from_seed():
    geometry = standard(9)
    first = random_full_grid(geometry, random.Random(42))
    assert random_full_grid(geometry, random.Random(42)) == first
    assert random_full_grid(geometry, random.Random(43)) != first


def test_completion_keeps_the_givens_and_reports_no_solution():
    geometry = standard(9)
    solver = sampler_for(geometry)
    puzzle = parse_cells("1" + "." * 80, geometry)
    grid = solver.random_completion(random.Random(0), puzzle)
    assert grid is not None and is_solution(grid, puzzle, geometry)
    # Row 0 holds 1..8, so cell (0,8) must be 9, but 9 is given in its column.
    blocked = parse_cells("12345678." + "........9" + "." * 63, geometry)
    assert not find_clashes(blocked, geometry)
    assert solver.random_completion(random.Random(0), blocked) is None


def test_solver_literals_are_the_encoders():
    geometry = standard(9)
    grid = random_full_grid(geometry, random.Random(5))
    puzzle = remove_givens(grid, 30, random.Random(5))
    assert sampler_for(geometry).givens(puzzle) == given_literals(puzzle, geometry)


@pytest.mark.parametrize("name", SMALL)
def test_random_placement_obeys_every_region(name):
    geometry = GEOMETRIES[name]
    rng = random.Random(7)
    for k in (0, 1, geometry.num_cells // 3, geometry.num_cells // 2):
        grid, dead_ends = random_placement(geometry, k, rng)
        assert _givens(grid) == k
        assert dead_ends >= 0
        assert not find_clashes(grid, geometry)


def test_random_placement_dead_ends_are_counted():
    geometry = standard(9)
    rng = random.Random(1)
    dead = sum(random_placement(geometry, 50, rng)[1] for _ in range(20))
    assert dead > 0  # 50 givens obeying the rules often paint a cell into a corner
    with pytest.raises(ValueError):
        random_placement(geometry, 82, rng)


@pytest.mark.parametrize("name", SMALL)
def test_remove_keeps_k_givens_of_the_full_grid(name):
    geometry = GEOMETRIES[name]
    rng = random.Random(11)
    full = random_full_grid(geometry, rng)
    k = geometry.num_cells // 2
    puzzle = remove_givens(full, k, rng)
    assert _givens(puzzle) == k
    assert all(v in (0, full[c]) for c, v in enumerate(puzzle))
    assert is_solution(full, puzzle, geometry)


def _assert_minimal(puzzle, geometry):
    """Unique, and emptying any one given allows a second solution (PySAT oracle)."""
    with PysatCounter(geometry) as oracle:
        assert oracle.count(puzzle, 2).unique
        for c, v in enumerate(puzzle):
            if v:
                fewer = (*puzzle[:c], 0, *puzzle[c + 1 :])
                assert oracle.count(fewer, 2).count == 2, f"given at cell {c} is spare"


@pytest.mark.parametrize("name", SMALL)
def test_minimal_puzzles_are_unique_and_minimal(name):
    geometry = GEOMETRIES[name]
    solver = sampler_for(geometry)
    rng = random.Random(13)
    full = random_full_grid(geometry, rng)
    puzzle = minimal_puzzle(solver, full, rng)
    assert is_solution(full, puzzle, geometry)
    _assert_minimal(puzzle, geometry)


def _pysat_depth(puzzle, geometry, max_depth=1) -> int | None:
    """Return 0 when Minisat22's propagation fills every cell, 1 when the depth-1
    failed-literal closure (both polarities, computed here) does, else None."""
    n = geometry.size
    cells = n**3
    with Minisat22(bootstrap_with=rule_formula(geometry).clauses) as solver:
        known = set(given_literals(puzzle, geometry))
        ok, lits = solver.propagate(assumptions=sorted(known))
        assert ok
        known |= set(lits)
        if sum(1 for lit in known if 0 < lit <= cells) == n * n:
            return 0
        if max_depth < 1:
            return None
        changed = True
        while changed:
            changed = False
            for v in range(1, cells + 1):
                for lit in (v, -v):
                    if lit in known or -lit in known:
                        continue
                    ok, _ = solver.propagate(assumptions=[*sorted(known), lit])
                    if not ok:
                        ok, more = solver.propagate(assumptions=[*sorted(known), -lit])
                        assert ok
                        known |= {-lit, *more}
                        changed = True
        return 1 if sum(1 for lit in known if 0 < lit <= cells) == n * n else None


@pytest.mark.parametrize("depth", [0, 1])
def test_depth_method_gives_the_requested_depth(depth):
    geometry = standard(9)
    report = generate(Request("depth", count=2, seed=depth + 20, depth=depth), geometry)
    assert len(report.puzzles) == 2
    for puzzle in report.puzzles:
        assert _pysat_depth(puzzle.grid, geometry) == depth
        with PysatCounter(geometry) as oracle:
            assert oracle.count(puzzle.grid, 2).unique


def test_generate_is_reproducible_and_seed_dependent():
    geometry = standard(9)
    for request in (
        Request("random", count=3, seed=5, givens=25),
        Request("remove", count=3, seed=5, givens=30),
        Request("minimal", count=2, seed=5),
    ):
        lines = [p.line() for p in generate(request, geometry).puzzles]
        assert lines == [p.line() for p in generate(request, geometry).puzzles]
        other = Request(request.method, request.count, 6, request.givens)
        assert lines != [p.line() for p in generate(other, geometry).puzzles]


def test_unique_filter_and_solution_tally():
    geometry = standard(4)
    report = generate(Request("remove", count=5, seed=3, givens=6, unique=True), geometry)
    assert len(report.puzzles) == 5
    assert report.solutions["unique"] == 5
    assert sum(report.solutions.values()) == report.attempts - report.duplicates
    with PysatCounter(geometry) as oracle:
        assert all(oracle.count(p.grid, 2).unique for p in report.puzzles)


def test_attempts_bound_a_rare_target():
    geometry = standard(9)
    report = generate(Request("minimal", count=5, seed=1, givens=17, attempts=3), geometry)
    assert report.attempts == 3 and len(report.puzzles) < 5


def test_small_grids_skip_duplicates():
    report = generate(Request("minimal", count=40, seed=2), standard(4))
    lines = [p.line() for p in report.puzzles]
    assert len(set(lines)) == len(lines) == 40


@pytest.mark.parametrize("name", SMALL)
def test_method_full_writes_valid_full_grids(name):
    geometry = GEOMETRIES[name]
    request = Request("full", count=3, seed=4)
    grids = [p.grid for p in generate(request, geometry).puzzles]
    assert len(set(grids)) == 3
    for grid in grids:
        assert 0 not in grid and is_solution(grid, grid, geometry)
    assert grids == [p.grid for p in generate(request, geometry).puzzles]


def test_request_validation():
    with pytest.raises(ValueError):
        Request("full", count=1, seed=1, givens=30)  # a full grid has every given
    with pytest.raises(ValueError):
        Request("remove", count=1, seed=1)  # no givens
    with pytest.raises(ValueError):
        Request("depth", count=1, seed=1)  # no depth
    with pytest.raises(ValueError):
        Request("shuffle", count=1, seed=1)


def _regions_connected(region_map, n) -> bool:
    for r in range(n):
        cells = {c for c in range(n * n) if region_map[c] == r}
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            c = todo.pop()
            i, j = divmod(c, n)
            for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                d = a * n + b
                if 0 <= a < n and 0 <= b < n and d in cells and d not in seen:
                    seen.add(d)
                    todo.append(d)
        if len(cells) != n or seen != cells:
            return False
    return True


@pytest.mark.parametrize("n", [4, 6, 9])
def test_random_region_maps_are_connected_and_reproducible(n):
    region_map = random_region_map(n, random.Random(4))
    assert _regions_connected(region_map, n)
    assert random_region_map(n, random.Random(4)) == region_map
    assert random_region_map(n, random.Random(5)) != region_map
    boxes = [0] * (n * n)
    for region in standard(n).regions_of("box"):
        for c in region.cells:
            boxes[c] = region.index
    assert region_map != tuple(boxes)


def test_16x16_jigsaw_full_grids_come_quickly_and_reproducibly():
    """From 12x12 on, jigsaw maps are completed by Minisat22 steered by random phases."""
    base = standard(16)
    first = random_jigsaw(base, random.Random(3))
    solver, grid, region_map = first
    assert _regions_connected(region_map, 16)
    assert 0 not in grid and is_solution(grid, grid, solver.geometry)
    again = random_jigsaw(base, random.Random(3))
    assert (again[1], again[2]) == (grid, region_map)
    puzzles = generate(Request("remove", count=2, seed=3, givens=200, jigsaw=True), base)
    assert len(puzzles.puzzles) == 2


def test_large_grids_count_on_the_board_and_agree_with_pysat():
    geometry = standard(16)
    solver = GridSampler(geometry)
    rng = random.Random(8)
    full = random_full_grid(geometry, rng)
    few_blanks = remove_givens(full, 200, rng)  # easy for the engine's search too
    swapped = list(full)
    swapped[0], swapped[1] = swapped[1], swapped[0]  # a row keeps its values: 0 solutions
    grids = (full, few_blanks, tuple(swapped), tuple(swapped[:2]) + (0,) * 254)
    counts = [solver.count(grid, 2) for grid in grids]
    assert [c.count for c in counts] == [1, counts[1].count, 0, 2]
    assert [solver.two_or_fewer(grid) for grid in grids] == counts
    with PysatCounter(geometry) as pysat:
        assert [pysat.count(grid, 2) for grid in grids] == counts


def test_jigsaw_puzzles_round_trip_through_the_reader():
    base = standard(9)
    report = generate(Request("minimal", count=3, seed=8, jigsaw=True), base)
    for puzzle in report.puzzles:
        [text] = split_puzzles(puzzle.line())
        assert text.regions is not None
        geometry = make_geometry(9, jigsaw=region_ids(text.regions, 9))
        assert parse_cells(text.cells, geometry) == puzzle.grid
        _assert_minimal(puzzle.grid, geometry)
    solver, full, region_map = random_jigsaw(base, random.Random(9))
    assert solver.geometry == jigsaw_geometry(region_map, base)
    assert is_solution(full, (0,) * 81, solver.geometry)


def test_grid_solver_count_caps():
    geometry = standard(4)
    solver = GridSampler(geometry)
    empty = (0,) * 16
    assert solver.count(empty, 1000).count == 288  # the 288 4x4 Sudoku grids
    capped = solver.count(empty, 10)
    assert capped.count == 10 and not capped.complete and not capped.unique


def _run(*args, cwd=PROJECT):
    return subprocess.run(
        [sys.executable, "-m", "benchmarks", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_cli_writes_header_and_is_reproducible(tmp_path):
    out = tmp_path / "p.txt"
    args = ["generate", "--method", "remove", "--givens", "30", "--count", "4", "--seed", "9"]
    result = _run(*args, "-o", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    lines = text.splitlines()
    comments = [ln for ln in lines if ln.startswith("#")]
    puzzles = [ln for ln in lines if not ln.startswith("#")]
    assert f"# command: python -m benchmarks {' '.join(args)} -o {out}" in comments
    assert f"# seed: 9; generator version: {GENERATOR_VERSION}" in comments
    assert len(puzzles) == 4 and all(len(p) == 81 and p.count(".") == 51 for p in puzzles)
    assert "candidates:" in result.stderr
    # The same request in-process gives the same lines.
    request = Request("remove", count=4, seed=9, givens=30)
    assert puzzles == [p.line() for p in generate(request, standard(9)).puzzles]


def test_cli_rejects_bad_requests():
    result = _run("generate", "--method", "remove")
    assert result.returncode == 2 and "givens" in result.stderr
    result = _run("generate", "--method", "minimal", "--regions", "123")
    assert result.returncode == 1
    assert result.stderr.startswith("benchmarks: ") and "region map" in result.stderr


def test_fixed_region_map_is_written_on_every_line(tmp_path):
    from puzzles import generate as generate_module

    regions = "".join(str(1 + (c // 9) // 3 * 3 + (c % 9) // 3) for c in range(81))[::-1]
    out = tmp_path / "j.txt"
    argv = ["--method", "minimal", "--regions", regions, "--count", "2", "-o", str(out)]
    assert generate_module.main([*argv, "--quiet"]) == 0
    puzzles = [ln for ln in out.read_text().splitlines() if not ln.startswith("#")]
    assert len(puzzles) == 2 and all(ln.split("|")[1] == regions for ln in puzzles)


def test_cli_writes_nothing_when_nothing_is_found(tmp_path, capsys):
    from puzzles import generate as generate_module

    out = tmp_path / "none.txt"
    argv = ["--method", "minimal", "--givens", "17", "--attempts", "2", "-o", str(out)]
    assert generate_module.main(argv) == 1
    assert not out.exists()
    err = capsys.readouterr().err
    assert "0 of 1 puzzles in 2 attempts" in err and "nothing written" in err
