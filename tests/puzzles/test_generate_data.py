"""The project's own benchmark sets in data/sets: each file says how to make it again, and
its puzzles are what its name promises (unique; minimal; of the stated depth)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from benchmarks.sets import read_dataset
from encoder.status import Status
from puzzles import generate
from puzzles.counting import is_minimal
from puzzles.fullgrid import GridSampler
from solvers.ratings.depth import Rater

SETS = Path(__file__).resolve().parents[2] / "data" / "sets"
FILES = sorted(SETS.glob("*.txt"))
PREFIX = "python -m benchmarks generate "


def _header(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        out.setdefault(key.strip(), value.strip())
    return out


def _puzzles(path: Path):
    """The puzzles as `benchmarks run` reads them (the variant from the header)."""
    return read_dataset(str(path)).puzzles


def _regenerate(path: Path, tmp_path: Path) -> list[str]:
    argv = shlex.split(_header(path)["command"].removeprefix(PREFIX))
    at = argv.index("-o")
    argv[at + 1] = str(tmp_path / path.name)
    assert generate.main([*argv, "--quiet"]) == 0
    return (tmp_path / path.name).read_text().splitlines()


def test_only_puzzle_files_in_data_sets():
    assert FILES, "data/sets holds the project's default benchmark sets"
    assert sorted(p.name for p in SETS.iterdir()) == [p.name for p in FILES]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_file_says_how_to_make_it_again(path):
    header = _header(path)
    assert header["command"].startswith(PREFIX)
    assert f"-o data/sets/{path.name}" in header["command"]
    assert header["seed"].startswith(header["command"].split("--seed ")[1].split()[0])
    assert "generator version" in header["seed"]
    puzzles = _puzzles(path)
    assert len(puzzles) == int(header["sudoku-sat generated puzzles"].split(",")[0])
    assert len({(p.grid, p.geometry) for p in puzzles}) == len(puzzles)  # no duplicates


def test_a_small_file_regenerates_identically(tmp_path):
    path = SETS / "sudoku4_minimal.txt"
    regenerated = _regenerate(path, tmp_path)
    original = path.read_text().splitlines()
    assert [ln for ln in regenerated if not ln.startswith("# command")] == [
        ln for ln in original if not ln.startswith("# command")
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["sudoku6_minimal.txt", "sudoku9_x_minimal.txt", "sudoku9_hyper_minimal.txt"]
)
def test_more_files_regenerate_identically(name, tmp_path):
    path = SETS / name
    regenerated = _regenerate(path, tmp_path)
    original = path.read_text().splitlines()
    assert [ln for ln in regenerated if not ln.startswith("# command")] == [
        ln for ln in original if not ln.startswith("# command")
    ]


# 16x16: finding the second solution of each one-given-less grid takes a while; a sample.
MINIMALITY_SAMPLE = {"sudoku16_minimal.txt": 10}


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_puzzles_are_unique_minimal_and_of_their_depth(path):
    method = _header(path)["method"]
    depth = int(method.split("depth rating ")[1].split()[0]) if "depth rating" in method else None
    limit = int(method.split("at most ")[1].split()[0]) if "at most" in method else None
    solvers: dict = {}
    for number, puzzle in enumerate(_puzzles(path)):
        if puzzle.geometry not in solvers:
            solvers[puzzle.geometry] = (GridSampler(puzzle.geometry), Rater(puzzle.geometry))
        solver, rater = solvers[puzzle.geometry]
        assert solver.count(puzzle.grid, 2).unique, puzzle.source
        if number < MINIMALITY_SAMPLE.get(path.name, len(FILES) * 10_000):
            assert is_minimal(solver, puzzle.grid), puzzle.source
        if depth is not None:
            rating = rater.rate(puzzle.grid, max_depth=depth)
            assert (rating.status, rating.depth) == (Status.SAT, depth), puzzle.source
        if limit is not None:
            assert sum(1 for v in puzzle.grid if v) <= limit, puzzle.source
        if len(solvers) > 8:  # jigsaw: one geometry per line
            solvers.clear()


def test_the_first_jigsaw_puzzles_regenerate_identically(tmp_path):
    """The random region maps are drawn as when the file was made (the order in which
    `encoder.geometry.orthogonal_neighbours` lists a cell's neighbours is part of that)."""
    path = SETS / "sudoku9_jigsaw_minimal.txt"
    argv = shlex.split(_header(path)["command"].removeprefix(PREFIX))
    argv[argv.index("--count") + 1] = "3"
    argv[argv.index("-o") + 1] = str(tmp_path / "first.txt")
    assert generate.main([*argv, "--quiet"]) == 0
    first = [ln for ln in (tmp_path / "first.txt").read_text().splitlines() if ln[0] != "#"]
    assert first == [ln for ln in path.read_text().splitlines() if ln[0] != "#"][:3]
