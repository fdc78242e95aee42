"""`read_puzzles`, the one way to read puzzles: every kind of source, the variant found
in one place (caller, catalogue, header, file name, in that order), and files read a
block at a time so that memory stays flat."""

from __future__ import annotations

import errno
import io
import os
import re
import subprocess
import sys
import threading
import time

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


# --- sources that can be read only once -------------------------------------------------

STREAM_TIMEOUT = 300  # seconds: a command that hangs on its input fails, never blocks
STREAM_COMMANDS = {  # argv before the input, and what stdout says once the grid is read
    "encoder": (["encoder"], r"(?m)^p cnf 64 "),
    "rate": (["solvers", "rate"], r"\.\.12\.\.\.\.4\.3\.\.\.\.\."),
    "unique": (["benchmarks", "unique"], r"unique"),
}


def _feed_fifo(path, data: bytes, deadline: float) -> None:
    """Write `data` into a FIFO once a reader has opened it (until `deadline`)."""
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as error:
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                return
            time.sleep(0.02)
    os.set_blocking(fd, True)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
@pytest.mark.parametrize("kind", ["fifo", "pipe"])
@pytest.mark.parametrize("command", list(STREAM_COMMANDS))
def test_a_command_reads_a_fifo_or_a_pipe_once(command, kind, tmp_path):
    """A FIFO hung the command (opened once for its header, then again for its grids:
    nobody writes the second time), and a pipe (`<(cat grids.txt)`) was empty by the
    second opening: "no grid found"."""
    argv, expected = STREAM_COMMANDS[command]
    data = f"# a header comment\n{FOUR}\n".encode()
    run = [sys.executable, "-m", *argv]
    if kind == "fifo":
        path = tmp_path / "grids"
        os.mkfifo(path)
        deadline = time.monotonic() + STREAM_TIMEOUT
        writer = threading.Thread(target=_feed_fifo, args=(path, data, deadline), daemon=True)
        writer.start()
        done = subprocess.run(
            [*run, str(path)], capture_output=True, text=True, timeout=STREAM_TIMEOUT
        )
    else:
        read_end, write_end = os.pipe()
        os.write(write_end, data)
        os.close(write_end)
        try:
            done = subprocess.run(
                [*run, f"/dev/fd/{read_end}"],
                capture_output=True,
                text=True,
                timeout=STREAM_TIMEOUT,
                pass_fds=(read_end,),
            )
        finally:
            os.close(read_end)
    assert done.returncode == 0, done.stderr
    assert re.search(expected, done.stdout), done.stdout


@pytest.mark.skipif(not os.path.exists("/dev/fd"), reason="a pipe named by /dev/fd/N")
def test_a_pipe_is_read_once_with_its_header(tmp_path):
    read_end, write_end = os.pipe()
    os.write(write_end, b"# geometry: --diagonals\n" + b"." * 81 + b"\n" + b"." * 81 + b"\n")
    os.close(write_end)
    try:
        opened = open_source(f"/dev/fd/{read_end}")
        assert (opened.variant, opened.variant_from) == (Variant(diagonals=True), "header")
        puzzles = list(opened.puzzles())
    finally:
        os.close(read_end)
    assert [p.source for p in puzzles] == [f"/dev/fd/{read_end}:2", f"/dev/fd/{read_end}:3"]
    assert puzzles[0].geometry.describe() == "9x9, 3x3 boxes, diagonals"
    assert opened.one_pass
    with pytest.raises(RuntimeError, match="can be read once"):
        list(opened.puzzles())


def test_stdin_is_read_once_with_its_header(monkeypatch):
    """'-' honours a `# geometry:` header as a file, a pipe and a FIFO do: the same text
    read the same way, whatever way it comes (it was read as plain 9x9)."""
    text = "# geometry: --diagonals\n" + "." * 81 + "\n" + "." * 81 + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    opened = open_source("-")
    assert (opened.variant, opened.variant_from) == (Variant(diagonals=True), "header")
    puzzles = list(opened.puzzles())
    assert [p.source for p in puzzles] == ["<stdin>:2", "<stdin>:3"]
    assert puzzles[0].geometry.describe() == "9x9, 3x3 boxes, diagonals"
    assert opened.one_pass


@pytest.mark.skipif(not os.path.exists("/dev/fd"), reason="a pipe named by /dev/fd/N")
def test_bytes_that_are_not_utf8_in_a_pipe_are_located(tmp_path):
    read_end, write_end = os.pipe()
    os.write(write_end, f"{FOUR}\n{FOUR}\n# caf\xe9\n".encode("latin-1"))
    os.close(write_end)
    try:
        with pytest.raises(GridError) as caught:
            list(read_puzzles(f"/dev/fd/{read_end}"))
    finally:
        os.close(read_end)
    assert caught.value.line == 3
    assert caught.value.message == "not UTF-8 text: byte 0xe9 at column 6"
