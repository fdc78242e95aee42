"""Reading grids: one-line and laid-out grids, files of many puzzles, stdin, every
supported size, other alphabets, jigsaw lines, located errors, and property tests."""

from __future__ import annotations

import contextlib
import re

import pytest
from encoder_oracle import (
    SCHOOL_EXAMPLE,
    SYMBOLS,
    assert_input_error,
    golden_puzzles,
    puzzle_lines,
    run_cli,
    values_of,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from encoder import (
    GridError,
    InputError,
    encode_dimacs,
    format_line,
    format_pretty,
    make_geometry,
    parse_cnf,
    parse_grid,
    parse_model,
    standard,
)
from encoder.grids import expand_symbols, region_ids, size_of_puzzle, split_puzzles
from encoder.puzzle_files import read_puzzles
from encoder.variant import Variant

SCHOOL = puzzle_lines(SCHOOL_EXAMPLE)[0]
# Real puzzles from golden.txt (first lines of public sets, see its header): 9x9
# norvig_top95 line 1, royle17 line 2, forum_hardest_1106 line 1.
REAL = golden_puzzles()

SCHOOL_LAID_OUT = """\
1 . 3 | . 5 . | . 8 9
. . 6 | . 8 9 | . . .
. . . | 1 2 . | . . .
------+-------+------
. . . | . . . | . 9 1
. 6 . | . . 1 | . 3 4
8 9 . | 2 3 4 | . . .
------+-------+------
. 4 . | . 7 8 | . 1 2
. . 8 | 9 . . | 3 . .
. . 2 | 3 . . | . 7 .
"""

# The same grid with `0` and `_` blanks, no spaces, and a comment above it.
SCHOOL_COMPACT = """\
# school example, compact
103|050|089
006|089|000
000|12_|___
---+---+---
000|000|091
060|001|034
890|234|000
---+---+---
040|078|012
008|900|300
002|300|070
"""


def cli_grid_comment(stdout: str) -> str:
    return re.search(r"^c grid: (\S+)$", stdout, re.M).group(1)


@pytest.mark.parametrize("blank", [".", "0", "_"])
def test_one_line_with_each_blank(blank):
    grid = parse_grid(SCHOOL.replace(".", blank), standard(9))
    assert grid == values_of(SCHOOL)
    assert sum(1 for k in grid if k) == 81 - SCHOOL.count(".")


@pytest.mark.parametrize("text", [SCHOOL_LAID_OUT, SCHOOL_COMPACT], ids=["spaced", "compact"])
def test_laid_out_grid_with_separators(text):
    assert parse_grid(text, standard(9)) == values_of(SCHOOL)


@pytest.mark.parametrize("text", [SCHOOL_LAID_OUT, SCHOOL_COMPACT], ids=["spaced", "compact"])
def test_cli_reads_a_laid_out_grid_file(text, tmp_path):
    path = tmp_path / "laid_out.txt"
    path.write_text(text)
    result = run_cli(path)
    assert result.returncode == 0, result.stderr
    assert cli_grid_comment(result.stdout) == SCHOOL


MANY = f"""\
# three real puzzles

{REAL[0]}

{REAL[1]}   # trailing comment
   # an indented comment
{REAL[2]}
"""


def test_file_with_many_puzzles_comments_and_blank_lines():
    puzzles = split_puzzles(MANY, "many.txt")
    assert [p.cells for p in puzzles] == REAL
    assert [p.line for p in puzzles] == [3, 5, 7]
    assert {p.path for p in puzzles} == {"many.txt"}
    assert all(p.regions is None for p in puzzles)


def test_cli_index_picks_one_puzzle_of_a_file(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(MANY)
    result = run_cli(path, "--index", 2)
    assert result.returncode == 0, result.stderr
    assert cli_grid_comment(result.stdout) == REAL[2]
    assert f"c source: {path}:7\n" in result.stdout


@pytest.mark.parametrize(
    ("stdin", "args", "expected"),
    [(REAL[0] + "\n", [], REAL[0]), (MANY, ["--index", "1"], REAL[1])],
    ids=["one", "index"],
)
def test_cli_reads_stdin(stdin, args, expected):
    result = run_cli("-", *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert cli_grid_comment(result.stdout) == expected
    assert "c source: <stdin>:" in result.stdout


def test_cli_reads_stdin_with_out_dir(tmp_path):
    result = run_cli("-", "--out-dir", tmp_path, stdin=MANY)
    assert result.returncode == 0, result.stderr
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["stdin-00000.cnf", "stdin-00001.cnf", "stdin-00002.cnf"]
    assert [cli_grid_comment(f.read_text()) for f in files] == REAL


def some_line(n: int) -> str:
    """A valid one-line n x n grid: the first row filled with the alphabet, rest blank."""
    return SYMBOLS[:n] + "." * (n * n - n)


SIZES = {
    4: golden_puzzles("--size 4")[0],  # vu_kr_4x4 line 1
    6: golden_puzzles("--size 6")[0],  # sudoku6x6_2x3boxes line 1
    9: REAL[0],
    12: some_line(12),
    16: golden_puzzles("--size 16")[0],  # hex16_vu_kr_1G line 1
    25: some_line(25),
}


@pytest.mark.parametrize("n", list(SIZES))
def test_every_supported_size_is_recognised_and_parsed(n):
    line = SIZES[n]
    [puzzle] = split_puzzles(line + "\n")
    assert size_of_puzzle(puzzle) == n
    assert parse_grid(line, standard(n)) == values_of(line)


@pytest.mark.parametrize(
    ("n", "described"),
    [
        (4, "4x4, 2x2 boxes"),
        (6, "6x6, 2x3 boxes"),
        (12, "12x12, 3x4 boxes"),
    ],
)
def test_cli_infers_the_size(n, described):
    result = run_cli(SIZES[n])
    assert result.returncode == 0, result.stderr
    assert f"c geometry: {described}\n" in result.stdout
    assert f"\np cnf {n**3} " in result.stdout


HEX_0F = "0123456789ABCDEF"


def shift_to_0f(line: str) -> str:
    """Rewrite a 1-9A-G line in the 0-F alphabet (value v becomes HEX_0F[v-1])."""
    return "".join(HEX_0F[SYMBOLS.index(ch)] if ch != "." else "." for ch in line)


def test_alphabet_0_to_f():
    hexline = SIZES[16]
    geometry = make_geometry(16, symbols=HEX_0F)
    assert parse_grid(shift_to_0f(hexline), geometry) == parse_grid(hexline, standard(16))
    assert parse_grid("0" + "." * 255, geometry)[0] == 1  # '0' is a symbol here, not a blank
    assert format_line(parse_grid(hexline, standard(16)), geometry) == shift_to_0f(hexline)


def test_expand_symbols_lists_and_ranges():
    assert expand_symbols("1-9A-G") == SYMBOLS[:16]
    assert expand_symbols("0-9A-F") == HEX_0F
    assert expand_symbols("abc") == "abc"
    with pytest.raises(GridError, match="repeats"):
        expand_symbols("1-91")
    with pytest.raises(GridError, match="bad symbol range"):
        expand_symbols("9-1")


def clause_lines_of(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if not ln.startswith("c")]


@pytest.mark.parametrize(
    "spec",
    [
        "0-9A-F",
        pytest.param(
            "0-F",
        ),
    ],
)
def test_cli_symbols_0_to_f_gives_the_same_clauses(spec):
    hexline = SIZES[16]
    other = run_cli(shift_to_0f(hexline), "--symbols", spec)
    assert other.returncode == 0, other.stderr
    assert "symbols 0123456789ABCDEF" in other.stdout
    default = encode_dimacs(parse_grid(hexline, standard(16)), standard(16))
    assert clause_lines_of(other.stdout) == clause_lines_of(default)


JIGSAW = golden_puzzles(jigsaw=True)[0]  # andoku_jigsaw line 1


def test_jigsaw_line_is_split_into_puzzle_and_regions():
    [puzzle] = split_puzzles(JIGSAW, "jig.txt")
    cells, regions = JIGSAW.split("|")
    assert (puzzle.cells, puzzle.regions) == (cells, regions)
    geometry = make_geometry(9, jigsaw=region_ids(puzzle.regions, 9))
    boxes = {frozenset(r.cells) for r in geometry.regions_of("box")}
    expected = {frozenset(c for c in range(81) if regions[c] == rid) for rid in set(regions)}
    assert boxes == expected
    assert parse_grid(puzzle.cells, geometry) == values_of(cells)


def test_cli_jigsaw_line_in_a_file(tmp_path):
    path = tmp_path / "jigsaw.txt"
    path.write_text(JIGSAW + "\n")
    result = run_cli(path)
    assert result.returncode == 0, result.stderr
    assert "c geometry: 9x9, jigsaw\n" in result.stdout
    assert "B1 81, " in result.stdout and "B2 2916, " in result.stdout


def test_cli_jigsaw_line_as_argument():
    result = run_cli(JIGSAW)
    assert result.returncode == 0, result.stderr
    assert "c geometry: 9x9, jigsaw\n" in result.stdout


# ---- errors ----------------------------------------------------------------------


def test_wrong_length_is_located():
    text = f"{REAL[0]}\n# comment\n{REAL[1][:-1]}\n{REAL[2]}\n"
    with pytest.raises(GridError, match="80 cells") as caught:
        split_puzzles(text, "bad.txt")
    assert (caught.value.path, caught.value.line) == ("bad.txt", 3)
    assert str(caught.value).startswith("bad.txt:3: ")


def test_cli_wrong_length_in_a_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{REAL[0]}\n\n{REAL[1]}0\n")
    assert_input_error(run_cli(path, "--index", 0), f"{path}:3", "82 cells")


def test_cli_wrong_length_argument():
    result = run_cli(REAL[0][:-1])
    assert_input_error(result, "<argument>", "80 cells")


def test_bad_symbol_is_located(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"# one\n\n{REAL[0][:10]}x{REAL[0][11:]}\n")
    assert_input_error(run_cli(path), f"{path}:3", "'x'", "(1,1)")


def test_bad_symbol_api():
    with pytest.raises(GridError, match=r"bad symbol 'G' at cell \(0,0\)") as caught:
        parse_grid("G" + REAL[0][1:], standard(9))
    assert caught.value.line == 1


@pytest.mark.parametrize("kind", ["missing", "directory", "not-utf8"])
def test_unreadable_file(kind, tmp_path):
    path = tmp_path / "puzzles.txt"
    if kind == "directory":
        path.mkdir()
    elif kind == "not-utf8":
        path.write_bytes(b"\xff\xfe" + REAL[0].encode())
    if kind == "not-utf8":  # located at the line of the first bad byte
        assert_input_error(run_cli(path), f"{path}:1", "not UTF-8 text: byte 0xff at column 1")
        path.write_bytes(b"# two lines\n" + REAL[0].encode() + b"\xe9\n")
        assert_input_error(run_cli(path), f"{path}:2", "byte 0xe9 at column 82")
        return
    word = "no such file" if kind == "missing" else "cannot read"
    assert_input_error(run_cli(path), str(path), word)


# ---- property tests --------------------------------------------------------------

GEOMETRIES = {
    **{f"{n}x{n}": standard(n) for n in (4, 6, 9, 12, 16)},
    "16x16 0-F": make_geometry(16, symbols="0123456789ABCDEF"),
    "9x9 jigsaw": make_geometry(9, jigsaw=region_ids(JIGSAW.split("|")[1], 9)),
    "9x9 X": make_geometry(9, diagonals=True),
}


@st.composite
def geometry_and_grid(draw, geometries=GEOMETRIES):
    geometry = geometries[draw(st.sampled_from(sorted(geometries)))]
    n = geometry.size
    grid = tuple(draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n)))
    return geometry, grid


@settings(max_examples=60, deadline=None)
@given(geometry_and_grid())
def test_formatted_grids_parse_back(case):
    geometry, grid = case
    line = format_line(grid, geometry)
    pretty = format_pretty(grid, geometry)
    assert len(line) == geometry.size**2
    assert parse_grid(line, geometry) == grid
    assert parse_grid(pretty, geometry) == grid
    assert parse_grid(f"# comment\n\n{pretty}\n\n", geometry) == grid


@settings(max_examples=10, deadline=None)
@given(geometry_and_grid({"25x25": standard(25)}))
def test_formatted_25x25_grids_parse_back(case):
    geometry, grid = case
    assert parse_grid(format_line(grid, geometry), geometry) == grid
    assert parse_grid(format_pretty(grid, geometry), geometry) == grid


@settings(max_examples=60, deadline=None)
@given(geometry_and_grid({k: v for k, v in GEOMETRIES.items() if v.box}))
def test_formatted_grids_parse_back_with_size_inferred(case):
    geometry, grid = case
    for text in (format_line(grid, geometry), format_pretty(grid, geometry)):
        [puzzle] = split_puzzles(text)
        assert size_of_puzzle(puzzle) == geometry.size
        assert parse_grid(puzzle.cells, geometry) == grid


GRID_CHARS = st.sampled_from(list("123456789ABCGP.0_|#-+ \t\nxé²٣\r\x0b\x1c"))
GRID_TEXT = st.one_of(
    st.text(GRID_CHARS, max_size=400),
    st.text(max_size=200),
    st.builds(
        "{}|{}".format,
        st.text(st.sampled_from("123456789."), min_size=14, max_size=84),
        st.text(st.sampled_from("12345678"), min_size=14, max_size=84),
    ),
)


ARGS = {"none": Variant(), "size9": Variant(size=9), "x": Variant(diagonals=True)}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GRID_TEXT, st.sampled_from(sorted(ARGS)), st.booleans())
@example(SCHOOL_LAID_OUT.replace("|", "#"), "none", False)
@example(JIGSAW.replace("1", "9"), "none", True)
def test_arbitrary_text_raises_only_input_errors(text, args, allow):
    with contextlib.suppress(GridError):
        parse_grid(text, standard(9))
    try:
        for _ in read_puzzles("\n" + text, ARGS[args], allow_conflicts=allow):
            pass
    except GridError as error:
        assert error.path == "<argument>"


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from(list("0123456789AFaz-.,")), max_size=12))
def test_arbitrary_symbol_specs_raise_only_grid_errors(spec):
    try:
        alphabet = expand_symbols(spec)
    except GridError:
        return
    assert len(set(alphabet)) == len(alphabet)


DIMACS_TOKENS = st.sampled_from(["p", "cnf", "c", "s", "v", "0", "1", "-1", "2", "-3", "x", "%"])
DIMACS_TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(DIMACS_TOKENS, st.just("\n"), st.just("\r\n")), max_size=40).map(" ".join),
)


@settings(max_examples=150, deadline=None)
@given(DIMACS_TEXT)
def test_arbitrary_text_to_dimacs_parsers_raises_only_input_errors(text):
    for parse in (parse_cnf, parse_model):
        try:
            parse(text, "fuzz.cnf")
        except InputError as error:
            assert error.path == "fuzz.cnf"


def test_superscript_digit_in_header_is_a_dimacs_error():
    with pytest.raises(InputError):
        parse_cnf("p cnf ² 1\n1 0\n", "odd.cnf")


def test_as_many_lines_as_cells_is_a_laid_out_grid_only_for_a_supported_side():
    """81 lines of 81 cells are 81 puzzles (no 81x81 grid exists; it was an assertion
    error and a traceback); 16 lines of 16 cells stay one 16x16 grid laid out."""
    line = "1234" + "." * 77
    puzzles = split_puzzles("\n".join([line] * 81), "many.txt")
    assert [(p.cells, p.line) for p in puzzles] == [(line, k) for k in range(1, 82)]
    laid_out = split_puzzles("\n".join(["1234" * 4] * 16), "laid.txt")
    assert [(len(p.cells), p.line) for p in laid_out] == [(256, 1)]
