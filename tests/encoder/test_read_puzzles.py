"""`read_puzzles`, the one way to read puzzles: every kind of source, the variant found
in one place (caller, catalogue, header, file name, in that order), and files read a
block at a time so that memory stays flat."""

from __future__ import annotations

import io
import sys

import pytest

from encoder import GridError, Variant, read_puzzles, standard
from encoder.puzzle_files import ClashError, open_source

FOUR = "..12....4.3....."  # a 4x4 grid of data/sets/sudoku4_minimal.txt
FOUR_ROWS = ". . 1 2\n. . . .\n4 . 3 .\n. . . .\n"


def test_a_grid_a_laid_out_grid_and_numbers_read_alike():
    texts = [FOUR, FOUR_ROWS, "0,0,1,2, 0,0,0,0, 4,0,3,0, 0,0,0,0"]
    grids = [[p.grid for p in read_puzzles(text)] for text in texts]
    assert grids == [[(0, 0, 1, 2, 0, 0, 0, 0, 4, 0, 3, 0, 0, 0, 0, 0)]] * 3
    assert [p.source for p in read_puzzles(FOUR)] == ["<argument>:1"]


def test_stdin_is_read_with_its_line_numbers(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"# two grids\n{FOUR}\n\n{FOUR}\n"))
    assert [p.source for p in read_puzzles("-")] == ["<stdin>:2", "<stdin>:4"]


def test_the_variant_comes_from_the_caller_then_the_header_then_the_file_name(tmp_path):
    named = tmp_path / "sudoku9_hyper.txt"
    named.write_text("." * 81 + "\n")
    headed = tmp_path / "sudoku9_hyper_headed.txt"
    headed.write_text("# geometry: --diagonals\n" + "." * 81 + "\n")
    assert open_source(str(named)).variant_from == "file name"
    assert next(read_puzzles(str(named))).geometry.describe() == "9x9, 3x3 boxes, windows"
    assert open_source(str(headed)).variant == Variant(diagonals=True)
    assert next(read_puzzles(str(headed))).geometry.describe() == "9x9, 3x3 boxes, diagonals"
    given = open_source(str(headed), Variant(size=9))
    assert (given.variant_from, given.variant) == ("given", Variant(size=9))
    assert next(read_puzzles(str(headed), standard(9))).geometry == standard(9)


def test_a_bad_header_is_located_at_its_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# made by hand\n# geometry: --box 2x3 --no-boxes\n" + "." * 81 + "\n")
    with pytest.raises(GridError) as caught:
        open_source(str(path))
    assert (caught.value.path, caught.value.line) == (str(path), 2)
    assert "contradict each other" in caught.value.message


def test_a_table_is_read_by_its_puzzle_column(tmp_path):
    path = tmp_path / "rated.csv"
    path.write_text(f"id,grid,rating\n1,{FOUR},3\n2,{FOUR},4\n")
    assert [p.source for p in read_puzzles(str(path), column="grid")] == [
        f"{path}:2",
        f"{path}:3",
    ]


def test_clashing_givens_are_refused_unless_allowed():
    clash = "11.............."
    with pytest.raises(ClashError):
        list(read_puzzles(clash))
    assert next(read_puzzles(clash, allow_conflicts=True)).grid[:2] == (1, 1)


def test_variant_flags_as_text_round_trip():
    variant = Variant.parse("--size 16 --box=4x4 --diagonals --symbols 0-F")
    assert variant == Variant(size=16, box="4x4", diagonals=True, symbols="0-F")
    assert Variant.parse(variant.flags()) == variant
    assert Variant.parse("generate --count 3 --windows -o x.txt", known_only=True).flags() == (
        "--windows"
    )
    with pytest.raises(GridError, match="unrecognized geometry flag '--count'"):
        Variant.parse("--count 3")


def test_a_file_is_read_a_block_at_a_time(tmp_path, monkeypatch):
    """A bad line beyond the first block is reported only once the puzzles before it are
    out, at its own line number: the file is not read whole first."""
    import encoder.puzzle_files as reader

    monkeypatch.setattr(reader, "STREAM_LINES", 3)
    path = tmp_path / "long.txt"
    path.write_text("# header\n" + f"{FOUR}\n" * 5 + "not a grid\n")  # blocks of 3 lines
    puzzles = read_puzzles(str(path))
    read = [next(puzzles).source for _ in range(5)]
    assert read == [f"{path}:{line}" for line in range(2, 7)]
    with pytest.raises(GridError) as caught:
        next(puzzles)
    assert (caught.value.path, caught.value.line) == (str(path), 7)
