"""Input at the edges, in-process: a byte-order mark on files and stdin, the odd line of
a file of puzzles or of a laid-out grid, flags that name no geometry (--windows where
windows are not defined, an empty --symbols, --regions or --box, a `puzzle|` line
without its map), the warning for a jigsaw region that is not connected, and `decode`
checking a model against the rules without --grid.  (tests/corpus runs the same
defects through every command.)"""

from __future__ import annotations

import io
import sys
import time

import pytest
from encoder_oracle import x

from encoder import GridError, make_geometry, standard
from encoder.__main__ import main as encoder_main
from encoder.check import solution_problems
from encoder.cli_common import run_front_end
from encoder.errors import read_text
from encoder.geometry import disconnected_regions, pieces
from encoder.grids import expand_symbols, split_puzzles
from encoder.puzzle_files import read_puzzles
from encoder.variant import Variant

GRID4 = "..12....4.3....."
SOLUTION4 = "3412214342311324"  # GRID4's one solution
BOXES4 = "1122112233443344"
# The boxes with cells (0,0) and (3,3) swapped: regions '1' and '4' in two pieces each.
DISCONNECTED4 = "4122112233443341"
PUZZLE_DISCONNECTED4 = ".......2...3.321"  # one solution under DISCONNECTED4


def flags(**given) -> Variant:
    return Variant(**given)


def puzzles_of(source: str, variant: Variant) -> list:
    return list(read_puzzles(source, variant))


def located(error: GridError) -> tuple[str | None, int | None, str]:
    return error.path, error.line, error.message


# ---- byte-order mark ---------------------------------------------------------------


def test_read_text_drops_a_byte_order_mark(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_bytes(b"\xef\xbb\xbf" + GRID4.encode() + b"\n")
    assert read_text(str(path)) == GRID4 + "\n"
    kept_inside = tmp_path / "inside.txt"
    kept_inside.write_bytes(b"a\n\xef\xbb\xbfb\n")  # only a leading mark is dropped
    assert read_text(str(kept_inside)) == "a\n\ufeffb\n"


@pytest.mark.parametrize("newline", [None, ""])
def test_read_text_of_stdin_bytes_drops_the_mark_and_honours_newline(monkeypatch, newline):
    raw = b"\xef\xbb\xbfp cnf 1 1\r\n1 0\r\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="latin-1"))
    text = read_text("-", newline=newline)
    assert text == ("p cnf 1 1\n1 0\n" if newline is None else "p cnf 1 1\r\n1 0\r\n")


def test_read_text_of_stdin_that_is_not_utf8_is_located(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"ok\n\xff\n")))
    with pytest.raises(GridError) as caught:
        read_text("-", GridError)
    assert located(caught.value) == ("<stdin>", 2, "not UTF-8 text: byte 0xff at column 1")


def test_read_text_of_a_text_stream_drops_the_mark(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\ufeff" + GRID4))
    assert read_text("-") == GRID4


# ---- the odd line of a file ----------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "odd"),
    [
        ([GRID4, "." * 81], 2),
        (["." * 81, GRID4], 2),
        (["." * 81, GRID4, GRID4], 1),  # most puzzles are 4x4: the 9x9 one is odd
        ([GRID4, GRID4, "." * 36, GRID4], 3),
    ],
)
def test_puzzles_of_different_sizes_name_the_odd_line(lines, odd):
    with pytest.raises(GridError) as caught:
        split_puzzles("\n".join(lines), "f.txt")
    assert caught.value.line == odd
    assert caught.value.message.startswith("puzzles of different sizes in one file: a ")


@pytest.mark.parametrize(
    ("rows", "line", "words"),
    [
        (["..12", "....", "4.3..", "...."], 3, "17 cells, not the 16 of a 4x4 grid: this line"),
        (["..12", "....", "4.3."], 1, "12 cells, not the 16 of a 4x4 grid: 3 lines of 4 cells"),
        (["..12", "# a comment", "...", "4.3.", "...."], 3, "this line has 3 cells, most have 4"),
    ],
)
def test_a_laid_out_grid_that_does_not_add_up_names_its_odd_row(rows, line, words):
    with pytest.raises(GridError) as caught:
        split_puzzles("\n".join(rows), "f.txt")
    assert caught.value.line == line
    assert caught.value.message.startswith("a grid laid out over ")
    assert words in caught.value.message


def test_a_short_single_line_still_says_how_many_cells():
    with pytest.raises(GridError, match="grid has 15 cells, expected N"):
        split_puzzles(GRID4[:-1], "f.txt")


# ---- flags that name no geometry -------------------------------------------------------


@pytest.mark.parametrize("size", [4, 6, 12])
def test_windows_are_refused_where_they_are_not_defined(size):
    with pytest.raises(GridError, match=f"defined for 9x9, 16x16 and 25x25 grids, not {size}x"):
        make_geometry(size, windows=True)


@pytest.mark.parametrize(("size", "windows"), [(9, 4), (16, 9), (25, 16)])
def test_windows_are_defined_for_9_16_25(size, windows):
    assert len(make_geometry(size, windows=True).regions_of("window")) == windows


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("", "--symbols '' names no symbol"),
        ("._12", "'.' cannot be a symbol"),
        ("12 34", "' ' cannot be a symbol"),
        ("1234-", "'-' cannot be a symbol"),
        ("#123", "'#' cannot be a symbol"),
    ],
)
def test_alphabets_that_cannot_be_read_back_are_refused(spec, words):
    with pytest.raises(GridError, match=words):
        expand_symbols(spec)


def test_zero_stays_a_symbol_when_the_alphabet_has_it():
    assert expand_symbols("0-3") == "0123"


@pytest.mark.parametrize(
    ("given", "where", "words"),
    [
        ({"symbols": ""}, ("<argument>", 1), "--symbols '' names no symbol"),
        ({"symbols": "1-5"}, ("<argument>", 1), "--symbols '1-5' names 5 symbols; a 4x4 grid"),
        ({"box": ""}, ("<argument>", 1), "--box '': expected RxC"),
        ({"regions": ""}, ("--regions", None), "the region map is empty"),
        ({"regions": "no/map.txt"}, ("no/map.txt", None), "--regions: no such file"),
        ({"windows": True}, ("<argument>", 1), "--windows: Windoku windows are defined"),
    ],
)
def test_empty_or_wrong_flags_are_refused_and_located(given, where, words):
    with pytest.raises(GridError) as caught:
        puzzles_of(GRID4, flags(**given))
    assert (caught.value.path, caught.value.line) == where
    assert caught.value.message.startswith(words)


@pytest.mark.parametrize("line", [f"{GRID4}|", f"{GRID4} | ", f"{GRID4}|\t"])
def test_a_puzzle_line_with_an_empty_map_is_refused(line):
    with pytest.raises(GridError) as caught:
        puzzles_of(line, flags())
    assert located(caught.value) == (
        "<argument>",
        1,
        "the region map is empty: a jigsaw map gives the region of all 16 cells",
    )


# ---- jigsaw regions that are not connected ------------------------------------------------


def test_pieces_counts_orthogonal_pieces():
    assert pieces(4, (0, 1, 4, 5)) == 1
    assert pieces(4, (3, 4)) == 2  # (0,3) and (1,0): no wrap-around from one row to the next
    assert pieces(4, (0, 5, 10, 15)) == 4  # a diagonal touches only at corners
    assert pieces(9, tuple(range(9))) == 1


def test_disconnected_regions_are_the_jigsaw_ones_only():
    ids = tuple(ord(ch) for ch in DISCONNECTED4)
    found = disconnected_regions(make_geometry(4, jigsaw=ids))
    assert [(region.index, count) for region, count in found] == [(0, 2), (3, 2)]
    assert disconnected_regions(make_geometry(4, jigsaw=tuple(map(ord, BOXES4)))) == []
    assert disconnected_regions(make_geometry(4, diagonals=True)) == []


def test_a_disconnected_map_warns_once_per_map(capsys):
    text = "\n".join([f"{PUZZLE_DISCONNECTED4}|{DISCONNECTED4}"] * 3 + [f"{GRID4}|{BOXES4}"])

    def action() -> int:
        assert len(puzzles_of(text, flags())) == 4
        return 0

    assert run_front_end("encoder", action) == 0
    assert run_front_end("solvers", action) == 0  # a new command warns again, under its name
    assert capsys.readouterr().err.splitlines() == [
        f"{prog}: <argument>:1: warning: region '1' is not connected (2 separate pieces of "
        "its 4 cells); region '4' is not connected (2 separate pieces of its 4 cells); "
        "read as given"
        for prog in ("encoder", "solvers")
    ]


def test_a_ctrl_c_caught_in_a_finalizer_still_ends_the_command(capsys):
    """A KeyboardInterrupt raised in `__del__` (as when Ctrl-C lands while a compiled
    kernel's objects are freed) is not printed as "Exception ignored ... Traceback" and
    not lost: the command still ends with one line and status 130."""
    steps = []

    class Finalized:
        def __del__(self):
            raise KeyboardInterrupt

    def action() -> int:
        Finalized()  # freed at once: its __del__ raises
        for step in range(500):  # up to 5 s: the interrupt comes back within 0.01 s
            steps.append(step)
            time.sleep(0.01)
        return 0

    hook = sys.unraisablehook
    assert run_front_end("solvers", action) == 130
    assert len(steps) < 500
    assert capsys.readouterr().err == "solvers: interrupted\n"
    assert sys.unraisablehook is hook


# ---- decode checks the rules without --grid ----------------------------------------------


def model_of(grid: str, n: int = 4) -> str:
    return " ".join(str(x(c // n, c % n, int(k), n)) for c, k in enumerate(grid)) + " 0\n"


def decode(model: str, *args: str, monkeypatch, capsys) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(model))
    code = encoder_main(["decode", "-", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("grid", "args", "problem"),
    [
        ("1" * 16, [], "(4x4, 2x2 boxes): row 0 repeats a value: 1 in cells (0,0) and (0,1)"),
        ("1234234134124123", [], "(4x4, 2x2 boxes): box 0 repeats a value: 2 in cells (0,1)"),
        ("1234341221434321", ["--diagonals"], "diagonals): diagonal 0 repeats a value: 1"),
        (SOLUTION4, ["--regions", DISCONNECTED4], "(4x4, jigsaw): box 0 repeats a value"),
    ],
)
def test_decode_without_grid_refuses_a_model_that_breaks_the_rules(
    grid, args, problem, monkeypatch, capsys
):
    code, out, err = decode(model_of(grid), *args, monkeypatch=monkeypatch, capsys=capsys)
    assert (code, out) == (1, "")
    assert err.splitlines()[-1].startswith("encoder: <stdin>: the model breaks the rules ")
    assert problem in err


def test_decode_without_grid_prints_a_grid_that_keeps_the_rules(monkeypatch, capsys):
    for grid, args in [(SOLUTION4, []), ("1234234134124123", ["--no-boxes"])]:
        code, out, err = decode(model_of(grid), *args, monkeypatch=monkeypatch, capsys=capsys)
        assert (code, out, err) == (0, grid + "\n", "")


def test_solution_problems_name_the_value_and_two_cells():
    grid = tuple(int(ch) for ch in "1" * 81)
    [first, *_] = solution_problems(grid, (0,) * 81, standard(9))
    assert (
        first == "row 0 repeats a value: 1 in cells (0,0) and (0,1) and 7 more (0-based row,column)"
    )
