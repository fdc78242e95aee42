"""`encoder.grid_arrays`, the plain case of `read_puzzles` read with numpy: a regular file of
one clean grid line after another gives the grids `read_puzzles` gives; anything else
(a comment, a blank line, CR, a byte-order mark, separators, a jigsaw map, numbers, a
grid of another size, a laid-out grid) gives None, and `read_puzzles` reads it as before;
read block by block the same grids, a block that is not plain refused; clashing givens
refused as `read_puzzles` refuses them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from encoder import read_puzzles
from encoder.grid_arrays import NotPlain, check_clashes, grid_array, plain_file
from encoder.puzzle_files import ClashError, open_source

SETS = Path(__file__).resolve().parents[2] / "data" / "sets"


def grid_lines(name: str) -> list[str]:
    lines = (SETS / name).read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


NINE = grid_lines("sudoku9_minimal.txt")[:20]


def read_whole(path: Path):
    return grid_array(open_source(str(path)))


@pytest.mark.parametrize(
    ("name", "blank"), [("sudoku9_minimal.txt", "."), ("sudoku16_minimal.txt", "0")]
)
def test_a_plain_file_reads_as_read_puzzles_reads_it(tmp_path, name, blank):
    lines = [line.replace(".", blank) for line in grid_lines(name)[:30]]
    path = tmp_path / "grids.txt"
    path.write_text("\n".join(lines) + "\n")
    grids = read_whole(path)
    puzzles = list(read_puzzles(str(path), allow_conflicts=True))
    assert grids is not None and grids.values.dtype == np.int8
    assert grids.geometry == puzzles[0].geometry
    assert [tuple(row) for row in grids.values.tolist()] == [p.grid for p in puzzles]
    assert [grids.puzzle(i) for i in range(len(puzzles))] == puzzles


def test_the_last_newline_may_be_missing_and_the_file_name_gives_the_variant(tmp_path):
    path = tmp_path / "sudoku9_x.txt"
    path.write_text("\n".join(NINE))
    grids = read_whole(path)
    assert grids is not None and len(grids.values) == len(NINE)
    assert grids.geometry == next(read_puzzles(str(path))).geometry
    assert grids.geometry.describe() == "9x9, 3x3 boxes, diagonals"


def test_clashing_givens_are_read_not_judged(tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text("11" + "." * 79 + "\n")
    assert read_whole(path).values[0, :2].tolist() == [1, 1]


@pytest.mark.parametrize(
    "text",
    [
        "# a comment\n" + "\n".join(NINE) + "\n",
        NINE[0] + "\n\n" + NINE[1] + "\n",  # a blank line
        NINE[0] + "  # a note\n",
        "\r\n".join(NINE) + "\r\n",
        "\ufeff" + NINE[0] + "\n",
        NINE[0][:9] + " " + NINE[0][9:] + "\n",  # a separator (read alike, numbered alike)
        NINE[0] + " \n",
        NINE[0] + "\n" + NINE[1][:-1] + "x\n",  # a bad symbol: read_puzzles says so
        NINE[0] + "\n" + "..12....4.3.....\n",  # another size
        NINE[0] + "|" + "1" * 81 + "\n",  # a jigsaw line
        ",".join("0" * 81) + "\n",  # numbers
        NINE[0][:-1] + "é\n",
        "\n".join([NINE[0]] * 81) + "\n",  # 81 lines of 81 cells: a laid-out grid
        "",
    ],
)
def test_anything_but_the_plain_case_is_left_to_read_puzzles(tmp_path, text):
    path = tmp_path / "grids.txt"
    path.write_text(text, encoding="utf-8")
    assert read_whole(path) is None


def test_sources_that_are_not_a_plain_file_are_left_to_read_puzzles(tmp_path):
    table = tmp_path / "grids.csv"
    table.write_text("puzzle\n" + NINE[0] + "\n")
    assert read_whole(table) is None
    assert grid_array(open_source(NINE[0])) is None  # a grid given as text
    assert read_whole(tmp_path / "missing.txt") is None
    assert read_whole(tmp_path) is None  # a folder


def test_a_plain_file_read_block_by_block_is_the_file_read_whole(tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text("\n".join(NINE))  # the last line without its newline
    plain = plain_file(open_source(str(path)))
    assert (plain.count, plain.width) == (20, 82)
    blocks = list(plain.blocks(7))
    assert [first for first, _ in blocks] == [0, 7, 14]
    whole = np.concatenate([values for _, values in blocks])
    assert whole.tolist() == [list(p.grid) for p in read_puzzles(str(path))]


def test_a_block_that_is_not_plain_is_refused(tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text("\n".join([*NINE[:10], "#" + NINE[10][1:], *NINE[11:]]) + "\n")
    plain = plain_file(open_source(str(path)))  # the first line looks plain
    assert plain is not None
    with pytest.raises(NotPlain):
        list(plain.blocks(4))
    assert grid_array(open_source(str(path))) is None


@pytest.mark.parametrize("name", ["sudoku9_minimal.txt", "sudoku9_x_minimal.txt"])
def test_clashes_are_refused_as_read_puzzles_refuses_them(tmp_path, name):
    """A value twice in a region (a diagonal for X): the same ClashError, at the same
    line, as `read_puzzles` raises; none for clean grids."""
    lines = grid_lines(name)[:12]
    geometry = next(read_puzzles(str(SETS / name))).geometry
    bad = list(lines[9])
    second = next(
        c for c in range(81) if bad[c] == "." and c // 9 == 0 and c != geometry.regions[0].cells[0]
    )
    first_given = next(c for c in range(81) if c // 9 == 0 and bad[c] != ".")
    bad[second] = bad[first_given]  # the value of a given of row 0, again in row 0
    lines[9] = "".join(bad)
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ClashError) as expected:
        list(read_puzzles(str(path)))
    values = grid_array(open_source(str(path))).values
    check_clashes(values[:9], geometry, str(path))  # the lines above are clean
    with pytest.raises(ClashError) as found:
        check_clashes(values, geometry, str(path))
    assert str(found.value) == str(expected.value)
    assert (found.value.path, found.value.line) == (str(path), 10)
