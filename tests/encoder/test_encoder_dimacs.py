"""DIMACS output (comments, header, clause lines, determinism, CLI output options) and
the strict DIMACS readers (a corpus of small defective files, the three model shapes)."""

from __future__ import annotations

import random
import re
import tracemalloc

import numpy as np
import pytest
from encoder_oracle import assert_input_error, assert_usage_error, golden_puzzles, run_cli
from pysat.formula import CNF

import encoder
from encoder import (
    DimacsError,
    dimacs,
    encode_dimacs,
    parse_cnf,
    parse_grid,
    parse_model,
    puzzle_formula,
    rule_formula,
    standard,
)
from encoder.dimacs import MAX_VARS, SPARE_VARS, Cnf, clause_lines, read_cnf, renamed
from encoder.status import Status

# Three real 9x9 puzzles from golden.txt: norvig_top95 line 1, royle17 line 2,
# forum_hardest_1106 line 1.
REAL = golden_puzzles()


def split_dimacs(text: str) -> tuple[list[str], str, list[str]]:
    """Return (comment lines, header line, clause lines); fail if they are interleaved."""
    lines = text.splitlines()
    assert text.endswith("\n")
    header_at = next(t for t, ln in enumerate(lines) if ln.startswith("p "))
    comments, header, clauses = lines[:header_at], lines[header_at], lines[header_at + 1 :]
    assert all(ln == "c" or ln.startswith("c ") for ln in comments)
    assert not any(ln.startswith(("c", "p")) for ln in clauses)
    return comments, header, clauses


@pytest.mark.parametrize("encoding", ["centrale", "minimal", "natural", "augmented"])
def test_document_shape(encoding):
    geometry = standard(9)
    grid = parse_grid(REAL[0], geometry)
    text = encode_dimacs(grid, geometry, encoding, "centrale", "top95.txt:1")
    comments, header, clauses = split_dimacs(text)
    formula = puzzle_formula(grid, geometry, encoding)
    assert header == f"p cnf {formula.num_vars} {len(clauses)}"
    assert len(clauses) == formula.num_clauses
    assert all(re.fullmatch(r"(-?[1-9]\d* )+0", ln) for ln in clauses)
    assert [[int(t) for t in ln.split()[:-1]] for ln in clauses] == [
        list(c) for c in formula.clauses
    ]
    joined = "\n".join(comments)
    assert comments[0] == f"c sudoku-sat encoder {encoder.__version__}"
    assert f"c encoding: {encoding}; givens: centrale" in comments
    assert "81*i + 9*j + k (1..729)" in joined
    assert f"c grid: {REAL[0]}" in comments
    assert "c source: top95.txt:1" in comments
    per_block = ", ".join(f"{name} {len(block)}" for name, block in formula.groups)
    assert f"c clauses per group: {per_block}" in comments
    assert f"c total clauses: {formula.num_clauses}" in comments
    if encoding == "augmented":
        assert "variables 730..1215: segment variables" in joined


def test_comment_order_version_encoding_meaning_grid_counts():
    geometry = standard(9)
    text = encode_dimacs(parse_grid(REAL[1], geometry), geometry)
    comments, _, _ = split_dimacs(text)
    order = [
        next(t for t, ln in enumerate(comments) if ln.startswith(prefix))
        for prefix in ("c sudoku-sat", "c encoding:", "c variable ", "c grid:", "c clauses per")
    ]
    assert order == sorted(order)


def test_pysat_reads_the_output_back():
    geometry = standard(9)
    grid = parse_grid(REAL[2], geometry)
    cnf = CNF(from_string=encode_dimacs(grid, geometry))
    formula = puzzle_formula(grid, geometry)
    assert cnf.nv == 729
    assert cnf.clauses == [list(c) for c in formula.clauses]
    assert "c grid: " + REAL[2] in cnf.comments


def test_our_reader_reads_the_output_back():
    geometry = standard(4)
    [line] = golden_puzzles("--size 4")  # vu_kr_4x4's first line
    grid = parse_grid(line, geometry)
    cnf = parse_cnf(encode_dimacs(grid, geometry, "augmented"))
    formula = puzzle_formula(grid, geometry, "augmented")
    assert cnf.num_vars == formula.num_vars == 128
    assert cnf.clauses == [list(c) for c in formula.clauses]


def test_cli_output_is_deterministic_and_valid():
    first, second = run_cli(REAL[0]), run_cli(REAL[0])
    assert first.returncode == second.returncode == 0
    assert first.stdout.encode() == second.stdout.encode()
    assert first.stderr == ""
    _, header, clauses = split_dimacs(first.stdout)
    assert header == f"p cnf 729 {len(clauses)}"
    assert all(ln.endswith(" 0") for ln in clauses)
    assert CNF(from_string=first.stdout).clauses == [
        [int(t) for t in ln.split()[:-1]] for ln in clauses
    ]


def test_cli_rules_only():
    result = run_cli("--rules-only")
    assert result.returncode == 0, result.stderr
    comments, header, clauses = split_dimacs(result.stdout)
    assert header == "p cnf 729 11988" and len(clauses) == 11_988
    assert not any(ln.startswith("c grid:") for ln in comments)
    assert "c encoding: centrale; givens: none (rules only)" in comments
    assert CNF(from_string=result.stdout).clauses == [
        list(c) for c in rule_formula(standard(9)).clauses
    ]


def test_cli_rules_only_other_size_and_encoding():
    result = run_cli("--rules-only", "--size", "4", "--encoding", "minimal")
    assert result.returncode == 0, result.stderr
    _, header, clauses = split_dimacs(result.stdout)
    assert header == f"p cnf 64 {16 + 3 * 96}" == f"p cnf 64 {len(clauses)}"


def test_cli_output_file(tmp_path):
    out = tmp_path / "grid.cnf"
    result = run_cli(REAL[0], "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert out.read_text() == run_cli(REAL[0]).stdout
    assert [p.name for p in tmp_path.iterdir()] == ["grid.cnf"]


def test_cli_index_and_out_dir(tmp_path):
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("# three\n" + "\n".join(REAL) + "\n")
    picked = run_cli(puzzles, "--index", 1)
    assert picked.returncode == 0, picked.stderr
    assert f"c grid: {REAL[1]}\n" in picked.stdout
    assert f"c source: {puzzles}:3\n" in picked.stdout

    out_dir = tmp_path / "cnf"
    result = run_cli(puzzles, "--out-dir", out_dir)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    files = sorted(out_dir.iterdir())
    assert [f.name for f in files] == [f"three-{t:05d}.cnf" for t in range(3)]
    for t, path in enumerate(files):
        text = path.read_text()
        assert f"c grid: {REAL[t]}\n" in text
        assert f"c source: {puzzles}:{t + 2}\n" in text
    assert files[1].read_text() == picked.stdout


def test_cli_many_puzzles_without_index_names_the_options(tmp_path):
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("\n".join(REAL) + "\n")
    result = run_cli(puzzles)
    assert_input_error(result, str(puzzles), "3 puzzles", "--index", "--out-dir")
    assert result.stdout == ""


def test_cli_index_out_of_range(tmp_path):
    puzzles = tmp_path / "three.txt"
    puzzles.write_text("\n".join(REAL) + "\n")
    assert_input_error(run_cli(puzzles, "--index", 3), str(puzzles), "--index 3", "0..2")


def test_cli_givens_units():
    result = run_cli(REAL[0], "--givens", "units")
    assert result.returncode == 0, result.stderr
    givens = sum(1 for ch in REAL[0] if ch != ".")
    assert f"G {givens}\n" in result.stdout
    _, header, _ = split_dimacs(result.stdout)
    assert header == f"p cnf 729 {11_988 + givens}"


@pytest.mark.parametrize(
    "args",
    [
        ["--rules-only", REAL[0]],
        ["--out-dir", "somewhere", "--index", "0", REAL[0]],
        ["--encoding", "bogus", REAL[0]],
        [],
        ["--no-boxes", "--box", "3x3", REAL[0]],
        ["--regions", "1" * 81, "--box", "3x3", REAL[0]],
        ["--regions", "1" * 81, "--no-boxes", REAL[0]],
        ["decode", "model.txt", "--index", "0"],
    ],
    ids=[
        "rules-only-with-grid",
        "out-dir-with-index",
        "bad-encoding",
        "no-grid",
        "no-boxes-with-box",
        "regions-with-box",
        "regions-with-no-boxes",
        "decode-index-without-grid",
    ],
)
def test_cli_option_conflicts_are_usage_errors(args, tmp_path):
    assert_usage_error(run_cli(*args, cwd=tmp_path))
    assert not (tmp_path / "somewhere").exists()


# ---- reading DIMACS: a corpus of defects -----------------------------------------

DEFECTS = {
    "empty": ("", 1, "empty file"),
    "no-header": ("1 2 0\n", 1, "before the 'p cnf"),
    "only-comments": ("c nothing\n", 1, "no 'p cnf"),
    "bad-header": ("p cnf x 1\n1 0\n", 1, "bad header"),
    "second-header": ("p cnf 2 1\np cnf 2 1\n1 0\n", 2, "second 'p' header"),
    "unterminated": ("p cnf 2 2\n1 0\nc\n-2 1\n", 4, "not terminated by 0"),
    "beyond-vars": ("p cnf 2 1\n1 3 0\n", 2, "beyond the 2 variables"),
    "count-mismatch": ("c x\np cnf 2 3\n1 0\n2 0\n", 2, "announces 3 clauses, file has 2"),
    "not-integer": ("p cnf 2 1\n1 two 0\n", 2, "not an integer"),
    "crlf-not-integer": ("c x\r\np cnf 2 1\r\n1 two 0\r\n", 3, "not an integer: 'two'"),
    "cr-only-not-integer": ("p cnf 2 1\r\r1 - 0\r", 3, "not an integer: '-'"),
    "sign-inside": ("p cnf 2 1\n1 2-1 0\n", 2, "not an integer: '2-1'"),
    "vars-beyond-int64": ("p cnf 99999999999999999999 1\n1 0\n", 1, "at most 1073741823"),
    "vars-int64-max": ("p cnf 9223372036854775807 1\n1 0\n", 1, "32-bit integers"),
    "vars-beyond-int32-codes": ("p cnf 1073741824 1\n1 0\n", 1, "1073741824 variables"),
    "clauses-beyond-int64": ("p cnf 1 99999999999999999999\n1 0\n", 1, "file has 1"),
    "literal-beyond-int64": ("p cnf 3 1\n1 -99999999999999999999 0\n", 2, "beyond the 3"),
    "header-with-p-word": ("px cnf 1 1\n1 0\n", 1, "bad header"),
    "nul-byte": ("p cnf 1 1\n1 \x00 0\n", 2, "not an integer: '\\x00'"),
    "second-header-later": ("p cnf 2 2\n1 0\n" * 2, 3, "the first is on line 1"),
    "unterminated-split": ("p cnf 3 2\n1 0\n2\nc x\n3\n", 3, "not terminated by 0"),
}


@pytest.mark.parametrize("name", list(DEFECTS))
def test_cnf_defects_are_located(name):
    text, line, words = DEFECTS[name]
    with pytest.raises(DimacsError) as caught:
        parse_cnf(text, f"{name}.cnf")
    assert (caught.value.path, caught.value.line) == (f"{name}.cnf", line)
    assert words in caught.value.message


def test_cnf_accepts_satlib_trailer_and_split_clauses():
    cnf = parse_cnf("c satlib\np cnf 3 2\n1 -2\n 3 0 -1 0\n%\n0\n")
    assert (cnf.num_vars, cnf.clauses) == (3, [[1, -2, 3], [-1]])


@pytest.mark.parametrize(
    "text",
    [
        "p cnf 3 2\r\n1 -2\r\n 3 0 -1 0\r\n",  # CR LF, as Windows editors write
        "p cnf 3 2\r1 -2\r 3 0 -1 0\r",  # CR alone
        "\ufeffc bom\np cnf 3 2\n1 -2\n 3 0 -1 0\n",  # a UTF-8 byte-order mark
        "c\tx\n  p  cnf 3 2 \n\t+1 -02\v3 0\f-1 -0\n",  # blanks, signs, leading zeros
    ],
    ids=["crlf", "cr", "bom", "blanks-signs-zeros"],
)
def test_cnf_accepts_every_line_end_and_blank(text):
    cnf = parse_cnf(text)
    assert (cnf.num_vars, cnf.clauses) == (3, [[1, -2, 3], [-1]])


def test_cnf_is_flat_and_reads_as_clauses():
    cnf = parse_cnf("p cnf 5 4\n1 -2 0\n0\n3 0\n-4 5 -1 0\n")
    assert cnf.literals.dtype == np.int32 and cnf.offsets.dtype == np.int64
    assert cnf.offsets.tolist() == [0, 2, 2, 3, 6]
    assert (len(cnf), cnf[1], cnf[-1], list(cnf)) == (4, [], [-4, 5, -1], cnf.clauses)
    assert cnf.highest == 5 and not cnf.sparse
    assert clause_lines(cnf) == "1 -2 0\n0\n3 0\n-4 5 -1 0\n"
    again = Cnf.from_clauses(cnf.clauses, 5)
    assert again.literals.tolist() == cnf.literals.tolist()
    assert again.offsets.tolist() == cnf.offsets.tolist()


def test_sparse_header_is_solved_over_the_variables_used():
    """`p cnf 200000000 1` with one clause: nothing is sized by the header; compact()
    renumbers the used variables 1..k and renamed() maps a model back."""
    cnf = parse_cnf("p cnf 200000000 2\n7 -150000000 0\n150000000 0\n")
    assert cnf.sparse and cnf.highest == 150_000_000
    small, names = cnf.compact()
    assert (small.num_vars, small.clauses, names.tolist()) == (2, [[1, -2], [2]], [7, 150_000_000])
    assert renamed([1, -2], names) == [7, -150_000_000]
    assert not parse_cnf(f"p cnf {2 + SPARE_VARS} 1\n1 2 0\n").sparse
    assert parse_cnf(f"p cnf {3 + SPARE_VARS} 1\n1 2 0\n").sparse
    assert parse_cnf(f"p cnf {MAX_VARS} 1\n{MAX_VARS} 0\n").highest == MAX_VARS


def random_clauses(rng: random.Random, count: int, top: int) -> list[list[int]]:
    return [
        [rng.choice((-1, 1)) * rng.randint(1, top) for _ in range(rng.randint(0, 5))]
        for _ in range(count)
    ]


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_chunked_reading_keeps_clauses_and_error_lines(chunk, monkeypatch):
    """Clause text is read a chunk of lines at a time (numpy where a chunk is plain,
    line by line otherwise): tiny chunks must give the same clauses, and an error the
    same line, wherever chunks end."""
    monkeypatch.setattr(dimacs, "_CHUNK", chunk)
    rng = random.Random(chunk)
    ends = [" 0\n", "\t0\r\n", " 0 ", " 0\r", " 0\nc note\n", "\n0\n\n"]
    for _ in range(60):
        clauses = random_clauses(rng, rng.randint(0, 30), 10 ** rng.randint(0, 9))
        body = "".join(" ".join(map(str, c)) + rng.choice(ends) for c in clauses)
        text = f"p cnf {MAX_VARS} {len(clauses)}\n{body}"
        assert parse_cnf(text).clauses == clauses
        lines = text.split("\n")
        cut = rng.randint(1, len(lines))
        before = "\n".join(lines[:cut]) + "\n"
        with pytest.raises(DimacsError) as caught:
            parse_cnf(before + "1 x 0\n" + "\n".join(lines[cut:]))
        ends_before = before.count("\n") + before.count("\r") - before.count("\r\n")
        assert caught.value.line == ends_before + 1


@pytest.mark.parametrize("block", [1, 2, 5, 64])
def test_streamed_reading_is_reading_whole(block, monkeypatch, tmp_path):
    """read_cnf streams a file in blocks of whole lines: wherever blocks end (inside a
    CR LF too), the clauses, and every error's line and column, are those of the text
    read whole by parse_cnf."""
    monkeypatch.setattr(dimacs, "_BLOCK", block)
    monkeypatch.setattr(dimacs, "_CHUNK", max(1, block // 2))
    rng = random.Random(block)
    ends = [" 0\n", "\t0\r\n", " 0 ", " 0\r", " 0\nc note\n", "\n0\n\n"]
    defects = ["1 x 0\n", "p cnf 3 1\n", "c caf\xe9 \udcff\n", "99999999999 0\n", "%\n0\n", ""]
    path = tmp_path / "f.cnf"
    for _ in range(40):
        clauses = random_clauses(rng, rng.randint(0, 20), 10 ** rng.randint(0, 6))
        body = "".join(" ".join(map(str, c)) + rng.choice(ends) for c in clauses)
        head = rng.choice(["", "\ufeff", "c a comment\r\n", "\n\n"])
        text = f"{head}p cnf {10**6} {len(clauses)}\n{body}"
        lines = text.split("\n")
        cut = rng.randint(1, len(lines))
        for extra in [None, *defects, "1 2"]:
            whole = (
                text
                if extra is None
                else "\n".join(lines[:cut]) + "\n" + extra + "\n".join(lines[cut:])
            )
            if extra == "1 2":
                whole = text + "1 2"
            data = whole.encode("utf-8", "surrogateescape")
            path.write_bytes(data)
            try:
                expected = parse_cnf(data.decode("utf-8", "surrogatepass"))
            except DimacsError as error:
                expected = (str(error), error.line)
            except UnicodeDecodeError:
                expected = None
            try:
                got = read_cnf(str(path))
            except DimacsError as error:
                got = (str(error).replace(str(path), "<input>"), error.line)
            if expected is None:  # not UTF-8: read whole, the same words and place
                from encoder.errors import read_text as read_whole

                with pytest.raises(DimacsError) as whole_error:
                    read_whole(str(path), DimacsError, newline="")
                expected = (
                    str(whole_error.value).replace(str(path), "<input>"),
                    whole_error.value.line,
                )
            elif isinstance(expected, Cnf):
                expected, got = expected.clauses, got.clauses
            assert got == expected


def test_clause_lines_of_a_flat_cnf_match_the_python_ones():
    rng = random.Random(3)
    for _ in range(100):
        clauses = random_clauses(rng, rng.randint(0, 40), 10 ** rng.randint(0, 9))
        fast = clause_lines(Cnf.from_clauses(clauses))
        assert fast.splitlines() == [line.strip() for line in clause_lines(clauses).splitlines()]


def test_reading_a_large_cnf_allocates_a_few_times_its_size():
    """The flat form, measured by tracemalloc (numpy reports its buffers to it): about
    2 MB of random 3-CNF text is read with at most 4 times its size allocated at the
    peak (the text as bytes, one chunk's temporaries, the integers; a list of lists
    took about 30 times)."""
    rng = np.random.default_rng(1)
    lits = rng.integers(1, 100_000, size=(100_000, 3)) * rng.choice([-1, 1], size=(100_000, 3))
    text = "p cnf 100000 100000\n" + clause_lines(Cnf.from_clauses(lits.tolist()))
    tracemalloc.start()
    try:
        cnf = parse_cnf(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(cnf) == 100_000 and cnf.literals.tolist() == lits.reshape(-1).tolist()
    assert peak < 4 * len(text), f"{peak / len(text):.1f} times the text"


# ---- reading models --------------------------------------------------------------

MODEL_SHAPES = {
    "competition": "c solver\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n",
    "minisat": "SAT\n1 -2 3 -4 0\n",
    "bare": "1 -2\n3 -4\n",
}


@pytest.mark.parametrize("shape", list(MODEL_SHAPES))
def test_model_shapes(shape):
    model = parse_model(MODEL_SHAPES[shape])
    assert (model.status, model.literals) == (Status.SAT, (1, -2, 3, -4))


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("s UNSATISFIABLE\n", Status.UNSAT),
        ("UNSAT\n", Status.UNSAT),
        ("s UNKNOWN\n", Status.UNKNOWN),
    ],
)
def test_model_without_a_solution(text, status):
    assert parse_model(text) == encoder.Model(status, ())


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "no model"),
        ("s MAYBE\n", 1, "unknown status"),
        ("SAT\n1 -2 0\n3\n", 3, "after the closing 0"),
        ("c x\nv 1 y 0\n", 2, "not a literal"),
        (
            "s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n",
            3,
            "UNSAT contradicts the status SAT of line 1",
        ),
        ("s UNSATISFIABLE\r\nc x\r\nSAT\r\n", 3, "contradicts"),
        ("s UNKNOWN\ns SATISFIABLE\nv 1 0\n", 2, "contradicts"),
        ("s UNSATISFIABLE\nv 1 -2 0\n", 2, "literals with the UNSATISFIABLE status"),
        ("s SATISFIABLE\nv 1 -2\nv 3\n", 3, "without their closing 0"),
        ("v 99999999999999999999 0\n", 1, "beyond the largest variable 1073741823"),
        ("SAT\n1 -1073741824 0\n", 2, "beyond the largest variable"),
    ],
)
def test_model_defects_are_located(text, line, words):
    with pytest.raises(DimacsError) as caught:
        parse_model(text, "m.txt")
    assert (caught.value.path, caught.value.line) == ("m.txt", line)
    assert words in caught.value.message


@pytest.mark.parametrize(
    "text",
    [
        "c x\r\ns SATISFIABLE\r\nv 1 -2 3\r\nv -4 0\r\n",
        "\ufeffs SATISFIABLE\rv 1 -2 3 -4 0\r",
        "s SATISFIABLE\ns SATISFIABLE\nv 1 -2 3 -4 1 0\n",  # agreeing lines, a repeat
    ],
    ids=["crlf", "bom-cr", "agreeing-status-lines"],
)
def test_model_line_ends_and_repeats_are_accepted(text):
    assert parse_model(text).literals[:4] == (1, -2, 3, -4)


@pytest.mark.parametrize("literal", [1.9, -2.7, "3", b"3", None])
def test_from_clauses_takes_exact_integers_only(literal):
    """A float was truncated (1.9 became 1) and a numeric string parsed: a formula
    other than the one given.  numpy integers are integers."""
    with pytest.raises(TypeError, match="a literal must be an integer"):
        Cnf.from_clauses([[1, literal]])
    assert Cnf.from_clauses([[np.int8(-2), np.uint16(3), np.int64(1)]]).clauses == [[-2, 3, 1]]


def test_from_clauses_refuses_a_uint64_beyond_the_variables():
    with pytest.raises(ValueError, match="beyond"):
        Cnf.from_clauses([[np.uint64(2**64 - 1)]])
