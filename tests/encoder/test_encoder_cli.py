"""`python -m encoder` and `python -m encoder decode` as a user runs them: exit codes,
one-line located errors, never a traceback, and decoding every accepted model shape."""

from __future__ import annotations

import functools

import pytest
from encoder_oracle import (
    Layout,
    assert_input_error,
    assert_usage_error,
    golden_puzzles,
    grid_by_hand,
    models,
    run_cli,
    solution_errors,
    values_of,
    x,
)

from encoder import (
    ModelError,
    format_line,
    grid_from_model,
    parse_grid,
    puzzle_formula,
    standard,
)

# Two real 9x9 puzzles from golden.txt: norvig_top95 line 1, royle17 line 2.
REAL = golden_puzzles()[:2]
CLASSIC = Layout(9, box=(3, 3))


@functools.cache
def solved(line: str = REAL[0], encoding: str = "centrale") -> tuple[int, ...]:
    """Return the full PySAT model of a 9x9 puzzle (all variables, signed)."""
    geometry = standard(9)
    [model] = models(puzzle_formula(parse_grid(line, geometry), geometry, encoding).clauses, 9, 1)
    return tuple(model)


@functools.cache
def solution_line(line: str = REAL[0]) -> str:
    grid = grid_by_hand(list(solved(line)), 9)
    assert solution_errors(grid, values_of(line), CLASSIC) == []
    return "".join(map(str, grid))


def write_model(tmp_path, text: str, name: str = "model.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def literals(model) -> str:
    return " ".join(map(str, model))


# ---- encode: exit codes and errors ---------------------------------------------


def test_success_exits_0_with_empty_stderr():
    result = run_cli(REAL[0])
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.startswith("c sudoku-sat encoder ")


def test_version_exits_0():
    result = run_cli("--version")
    assert result.returncode == 0
    assert "sudoku-sat 0.1.0" in result.stdout


@pytest.mark.parametrize(
    ("args", "where", "words"),
    [
        (["--size", "4", REAL[0]], "<argument>:1", ("81 cells", "expected 16")),
        (["--box", "2x2", REAL[0]], "<argument>:1", ("2x2", "do not tile")),
        (["--box", "three", REAL[0]], None, ("--box 'three'", "RxC")),
        (["--box", "", REAL[0]], "<argument>:1", ("--box ''", "RxC")),
        (["--windows", "." * 36], "<argument>:1", ("--windows", "9x9, 16x16 and 25x25", "6x6")),
        (["--windows", "." * 16], "<argument>:1", ("--windows", "not 4x4")),
        (["--regions", "1" * 81, REAL[0]], "--regions", ("jigsaw map needs 9 regions",)),
        (["--regions", "2" + "1" * 8 + "2" * 72, REAL[0]], "--regions", ("'1': 8", "'2': 73")),
        (["--regions", "", REAL[0]], "--regions", ("region map is empty",)),
        (["--regions", "no/map.txt", REAL[0]], "no/map.txt", ("--regions: no such file",)),
        (["--symbols", "1-8", REAL[0]], "<argument>:1", ("'1-8' names 8 symbols", "needs 9")),
        (["--symbols", "", REAL[0]], "<argument>:1", ("--symbols '' names no symbol",)),
        (["--symbols", ".1-8", REAL[0]], "<argument>:1", ("'.' cannot be a symbol",)),
        (["--symbols", "1-8#", REAL[0]], "<argument>:1", ("'#' cannot be a symbol",)),
        (["--symbols", "A-I", REAL[0]], "<argument>:1", ("bad symbol '4' at cell (0,0)",)),
        (["no/such/file.txt"], "no/such/file.txt", ("no such file",)),
    ],
    ids=[
        "size",
        "box-tiling",
        "box-syntax",
        "box-empty",
        "windows-6x6",
        "windows-4x4",
        "regions",
        "regions-symbol-sizes",
        "regions-empty",
        "regions-no-file",
        "symbols",
        "symbols-empty",
        "symbols-blank",
        "symbols-comment",
        "alphabet",
        "nofile",
    ],
)
def test_bad_input_is_one_located_line_exit_1(args, where, words):
    result = run_cli(*args)
    assert_input_error(result, where, *words)
    assert result.stdout == ""


MAP = "".join(str(1 + 3 * (i // 27) + (i % 9) // 3) for i in range(81))  # the 3x3 boxes


@pytest.mark.parametrize(
    ("line", "flags", "words"),
    [
        (f"{REAL[0]}|{MAP[1:]}", [], ("region map has 80 cells, expected 81",)),
        (f"{REAL[0]}|", [], ("region map is empty",)),
        (f"{REAL[0]} | ", [], ("region map is empty",)),
        (f"{REAL[0]}|{MAP[:3]}", [], ("region map has 3 cells, expected 81",)),
        (f"{REAL[0]}|{MAP}", ["--box", "3x3"], ("own jigsaw map", "--box")),
        (f"{REAL[0]}|{MAP}", ["--regions", MAP[::-1]], ("own jigsaw map", "--regions")),
    ],
    ids=[
        "line-map-short",
        "line-map-empty",
        "line-map-blank",
        "line-map-3-cells",
        "line-map-and-box",
        "line-map-and-other-map",
    ],
)
def test_jigsaw_map_errors_name_the_map_problem(line, flags, words):
    result = run_cli(*flags, line)
    assert_input_error(result, "<argument>:1", *words)


def test_unreadable_region_map_files_are_one_line(tmp_path):
    binary = tmp_path / "map.bin"
    binary.write_bytes(b"\xff\xfe" * 50)
    for path, where, reason in [
        (tmp_path, str(tmp_path), "Is a directory"),
        (binary, f"{binary}:1", "not UTF-8 text: byte 0xff at column 1"),  # located
    ]:
        result = run_cli("--regions", path, REAL[0])
        assert_input_error(result, where, "--regions: cannot read the map", reason)
    same = run_cli("--regions", MAP, f"{REAL[0]}|{MAP}")
    assert same.returncode == 0, same.stderr  # the same map twice is no contradiction


@pytest.mark.parametrize(
    "args",
    [["--frobnicate", REAL[0]], ["--rules-only", REAL[0]], ["a", "b"], ["--index", "x", "g"]],
    ids=["unknown-flag", "rules-only-with-grid", "two-grids", "index-not-int"],
)
def test_usage_errors_exit_2(args):
    assert_usage_error(run_cli(*args))


def test_out_dir_with_index_exits_2(tmp_path):
    puzzles = write_model(tmp_path, "\n".join(REAL) + "\n", "two.txt")
    result = run_cli(puzzles, "--out-dir", tmp_path / "out", "--index", 0)
    assert_usage_error(result)
    assert "--out-dir" in result.stderr
    assert not (tmp_path / "out").exists()


def test_output_to_an_unwritable_place_is_an_input_error(tmp_path):
    target = tmp_path / "missing-dir" / "grid.cnf"
    assert_input_error(run_cli(REAL[0], "-o", target), str(target), "cannot write")


def test_failed_output_leaves_no_temporary_file(tmp_path):
    (tmp_path / "dir").mkdir()
    assert_input_error(run_cli(REAL[0], "-o", tmp_path / "dir"), str(tmp_path / "dir"))
    assert [p.name for p in tmp_path.iterdir()] == ["dir"]


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            "negative-box",
        ),
        pytest.param(
            "augmented-no-boxes",
        ),
        pytest.param(
            "out-dir-is-a-file",
        ),
    ],
)
def test_no_traceback_on_odd_options(case, tmp_path):
    args = {
        "negative-box": ["--box=-3x-3", REAL[0]],
        "augmented-no-boxes": ["--no-boxes", "--encoding", "augmented", REAL[0]],
        "out-dir-is-a-file": [
            write_model(tmp_path, "\n".join(REAL) + "\n", "two.txt"),
            "--out-dir",
            write_model(tmp_path, "", "a-file"),
        ],
    }[case]
    result = run_cli(*args)
    assert "Traceback" not in result.stderr
    assert result.returncode in (1, 2)
    assert len(result.stderr.splitlines()) == 1 or "usage:" in result.stderr


# ---- decode: API ---------------------------------------------------------------


def test_grid_from_model_api():
    model = solved()
    grid = grid_from_model(model, standard(9))
    assert grid == grid_by_hand(list(model), 9)
    assert "".join(map(str, grid)) == solution_line()
    assert grid_from_model([v for v in model if v > 0], standard(9)) == grid


def test_grid_from_model_ignores_segment_variables():
    model = solved(REAL[0], "augmented")
    assert max(model) > 729
    assert "".join(map(str, grid_from_model(model, standard(9)))) == solution_line()


def test_grid_from_model_two_values():
    model = [*solved(), x(3, 4, 1) if x(3, 4, 1) not in solved() else x(3, 4, 2)]
    with pytest.raises(ModelError, match=r"cell \(3,4\) holds two values"):
        grid_from_model(model, standard(9))


def test_grid_from_model_incomplete():
    model = [v for v in solved() if not (v > 0 and (v - 1) // 9 == 9 * 4 + 4)]
    with pytest.raises(ModelError, match=r"incomplete model: 1 cells .*first \(4,4\)"):
        grid_from_model(model, standard(9))


# ---- decode: command line ------------------------------------------------------

SHAPES = {
    "competition": lambda m: (
        "c by a solver\ns SATISFIABLE\n"
        + "".join(f"v {literals(m[t : t + 20])}\n" for t in range(0, len(m), 20))
        + "v 0\n"
    ),
    "minisat": lambda m: f"SAT\n{literals(m)} 0\n",
    "bare": lambda m: literals(m) + "\n",
    "bare-positive": lambda m: "\n".join(str(v) for v in m if v > 0) + "\n",
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_decode_every_model_shape(shape, tmp_path):
    path = write_model(tmp_path, SHAPES[shape](solved()))
    result = run_cli("decode", path)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert result.stdout == solution_line() + "\n"


def test_decode_stdin_pretty_and_checked_against_the_grid(tmp_path):
    puzzles = write_model(tmp_path, "\n".join(REAL) + "\n", "two.txt")
    result = run_cli(
        "decode",
        "-",
        "--pretty",
        "--grid",
        puzzles,
        "--index",
        0,
        stdin=SHAPES["minisat"](solved()),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 11 and lines[3] == "------+-------+------"
    digits = "".join(ch for ch in result.stdout if ch.isdigit())
    assert digits == solution_line()


def test_decode_grid_of_many_needs_index(tmp_path):
    puzzles = write_model(tmp_path, "\n".join(REAL) + "\n", "two.txt")
    model = write_model(tmp_path, SHAPES["minisat"](solved()))
    assert_input_error(run_cli("decode", model, "--grid", puzzles), str(puzzles), "--index")


@pytest.mark.parametrize("text", ["s UNSATISFIABLE\n", "UNSAT\n"], ids=["competition", "minisat"])
def test_decode_unsat_is_an_error(text, tmp_path):
    path = write_model(tmp_path, text)
    assert_input_error(run_cli("decode", path), str(path), "UNSAT", "no grid")


def test_decode_incomplete_model(tmp_path):
    model = [v for v in solved() if not (v > 0 and (v - 1) // 9 == 9 * 4 + 4)]
    path = write_model(tmp_path, SHAPES["minisat"](model))
    assert_input_error(run_cli("decode", path), str(path), "incomplete", "(4,4)")


def test_decode_two_values_in_one_cell(tmp_path):
    extra = next(x(0, 0, k) for k in range(1, 10) if x(0, 0, k) not in solved())
    path = write_model(tmp_path, SHAPES["bare"]([*solved(), extra]))
    assert_input_error(run_cli("decode", path), str(path), "(0,0)", "two values")


def test_decode_model_that_changes_a_given(tmp_path):
    # Swap the values 1 and 2 everywhere: still a valid grid, but not the puzzle's.
    swap = {1: 2, 2: 1}
    grid = grid_by_hand(list(solved()), 9)
    changed = [x(*divmod(c, 9), swap.get(k, k)) for c, k in enumerate(grid)]
    path = write_model(tmp_path, SHAPES["bare"](changed))
    alone = run_cli("decode", path)
    assert alone.returncode == 0, alone.stderr
    result = run_cli("decode", path, "--grid", REAL[0])
    assert_input_error(result, str(path), "not a solution", "was given")
    assert result.stdout == ""


def test_decode_4x4_infers_the_size(tmp_path):
    [line] = golden_puzzles("--size 4")  # vu_kr_4x4's first line
    geometry = standard(4)
    [model] = models(puzzle_formula(parse_grid(line, geometry), geometry).clauses, 4, 1)
    path = write_model(tmp_path, SHAPES["competition"](model))
    result = run_cli("decode", path, "--grid", line)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == format_line(grid_by_hand(model, 4), geometry)


def test_decode_augmented_model_without_size(tmp_path):
    path = write_model(tmp_path, SHAPES["minisat"](solved(REAL[0], "augmented")))
    result = run_cli("decode", path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == solution_line() + "\n"


def test_decode_augmented_model_with_size(tmp_path):
    path = write_model(tmp_path, SHAPES["minisat"](solved(REAL[0], "augmented")))
    result = run_cli("decode", path, "--size", 9)
    assert result.returncode == 0, result.stderr
    assert result.stdout == solution_line() + "\n"


@pytest.mark.parametrize("args", [["decode"], ["decode", "m.txt", "--frobnicate"]])
def test_decode_usage_errors_exit_2(args):
    assert_usage_error(run_cli(*args))


def test_decode_missing_model_file():
    assert_input_error(run_cli("decode", "no/such/model.txt"), "no/such/model.txt", "no such file")


def test_a_grid_in_numbers_reads_the_same_as_an_argument_and_in_a_file(capsys):
    """The issue's case: a 36x36 grid of numbers given on the command line was read as
    2,592 symbol cells; it now gets the file's own message, located at the argument."""
    from pathlib import Path

    from encoder.__main__ import main

    path = Path(__file__).parents[1] / "corpus" / "files" / "grid-36x36-numbers-value-37.txt"
    text = path.read_text(encoding="utf-8").strip()
    assert main([str(path), "--size", "36"]) == 1
    from_file = capsys.readouterr().err
    assert main([text.replace(" ", ","), "--size", "36"]) == 1
    from_argument = capsys.readouterr().err
    assert from_file == f"encoder: {path}:1: bad value 37 at cell (0,9); allowed: 1..36 or 0 or .\n"
    assert from_argument == from_file.replace(str(path), "<argument>")
