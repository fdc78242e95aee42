"""`solvers rate --no-length` over a plain file of grids (read whole, `rate_array`) prints
what the grid-by-grid path (`rate_lines`) prints, byte for byte but for the seconds
column: every option that changes a line, notes (no solution, budget) included, and
the exit code.  The other path is reached by the same grids with a comment at the end,
which `grid_array` does not read."""

from __future__ import annotations

from pathlib import Path

import pytest

from encoder.grid_arrays import grid_array
from encoder.puzzle_files import open_source
from solvers.__main__ import main
from solvers.ratings.chunks import RateOptions, SettledLines, rate_array, rate_lines

SETS = Path(__file__).resolve().parents[2] / "data" / "sets"
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
CLASH = "11" + "." * 79
NO_SOLUTION = "12345678." + "." * 71 + "9"  # no clash, yet cell (0,8) has no value left


def grid_lines(name: str, count: int) -> list[str]:
    lines = (SETS / name).read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")][:count]


def without_seconds(text: str) -> list[str]:
    return [line.rsplit("\t", 1)[0] for line in text.splitlines()]


def rate_both(tmp_path, capsys, lines: list[str], *options: str, name: str = "grids.txt"):
    """Return the (stdout without seconds, stderr, exit code) of both paths."""
    plain = tmp_path / name
    plain.write_text("".join(line + "\n" for line in lines))
    other = tmp_path / f"commented_{name}"
    other.write_text(plain.read_text() + "# the end\n")
    assert grid_array(open_source(str(plain))) is not None
    assert grid_array(open_source(str(other))) is None
    runs = []
    for path in (plain, other):
        code = main(["rate", str(path), "--no-length", *options])
        out, err = capsys.readouterr()
        runs.append((without_seconds(out), err.replace(str(path), "FILE"), code))
    return runs


NINE = [*grid_lines("sudoku9_minimal.txt", 12), EASTER_MONSTER, CLASH, NO_SOLUTION]
NINE += grid_lines("sudoku9_depth1.txt", 6)


@pytest.mark.parametrize(
    "options",
    [
        (),
        ("--quiet",),
        ("--max-depth", "0"),
        ("--max-depth", "1"),
        ("--max-depth", "3"),
        ("--polarity", "positive"),
        ("--budget", "work=1000"),
        ("--encoding", "minimal"),
        ("--diagonals",),
    ],
)
def test_both_paths_print_the_same(tmp_path, capsys, options):
    fast, grid_by_grid = rate_both(tmp_path, capsys, NINE, *options)
    assert fast == grid_by_grid
    assert len(fast[0]) == len(NINE)


def test_the_variant_of_the_file_name(tmp_path, capsys):
    fast, grid_by_grid = rate_both(tmp_path, capsys, NINE, name="set_x.txt")
    assert fast == grid_by_grid
    assert "FILE:1: no solution" in fast[1]  # the first grid has none with diagonals


def test_notes_are_kept(tmp_path, capsys):
    fast, grid_by_grid = rate_both(tmp_path, capsys, NINE, "--budget", "work=1000")
    assert fast == grid_by_grid
    notes = fast[1].splitlines()
    assert any("FILE:14: no solution: value 1 given twice in row 0" in note for note in notes)
    assert any("work budget of 1,000 work units" in note for note in notes)
    assert notes[-1].endswith("grids reached their work budget")


@pytest.mark.parametrize(
    ("name", "count"), [("sudoku4_minimal.txt", 40), ("sudoku16_minimal.txt", 8)]
)
def test_other_sizes(tmp_path, capsys, name, count):
    fast, grid_by_grid = rate_both(tmp_path, capsys, grid_lines(name, count))
    assert fast == grid_by_grid


def test_settled_grids_are_joined_between_the_noted_ones(tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text("".join(line + "\n" for line in NINE))
    options = RateOptions(length_depth=None)
    out = list(rate_array(grid_array(open_source(str(path))), options))
    text = "".join(o.text if isinstance(o, SettledLines) else o.line + "\n" for o in out)
    lines = list(rate_lines(open_source(str(path)).puzzles(allow_conflicts=True), options))
    assert without_seconds(text) == without_seconds("\n".join(r.line for r in lines))
    assert sum(o.count if isinstance(o, SettledLines) else 1 for o in out) == len(NINE)
    noted = [(o.line.rsplit("\t", 1)[0], o.note) for o in out if not isinstance(o, SettledLines)]
    unsettled = [(r.line.rsplit("\t", 1)[0], r.note) for r in lines if r.note or ">" in r.line]
    assert noted == unsettled and len(noted) == 2  # the two without solution


@pytest.mark.slow
def test_royle17_both_paths_rate_alike(public):
    """The whole 17-clue list (49,158 grids), in process: a second and a half a path."""
    source = open_source(str(public.set("royle17")))
    options = RateOptions(length_depth=None)
    grids = grid_array(source)
    assert grids is not None
    fast = "".join(
        o.text if isinstance(o, SettledLines) else o.line + "\n" for o in rate_array(grids, options)
    )
    slow = "\n".join(r.line for r in rate_lines(source.puzzles(allow_conflicts=True), options))
    assert without_seconds(fast) == without_seconds(slow)
