"""`python -m benchmarks` commands whose reader leaves early (`... | head -1`): no
traceback, exit 0, and the files `--out` asked for are written all the same; `stats`
writes files only when asked.

A reader that leaves only breaks the pipe if the command still has something to write
after it left: output that fits in the pipe's buffer is written in full before `head`
even sees its first line, and nothing breaks.  So each run here makes sure the pipe
breaks, and proves that it did:

- `run` prints its tables before it writes its files (a full disk loses no table), and a
  reader that leaves stops the printing, not the files.
- `run` and `unique` are read as `head -1` reads: one line, then the pipe is closed.
  The pipe's buffer is shrunk to one page (Linux `F_SETPIPE_SZ`, checked with
  `F_GETPIPE_SZ`) and the commands are given inputs whose output is several times that
  size, so the command is still writing when the reader leaves.
- `stats` prints its short tables only once every count is done: its reader closes the
  pipe at once, before the command has written anything.
- The command runs with its BrokenPipeError handler (`encoder.output_files.reader_left`,
  called by the front end's error handler) wrapped so that it also writes a marker to
  stderr: every test asserts the marker, that is, that the pipe did break and the
  handler handled it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
SETS = PROJECT / "data" / "sets"
FOUR = SETS / "sudoku4_minimal.txt"  # 100 grids of 4x4, with a `# geometry:` header
PAGE = 4096  # the smallest pipe buffer Linux allows
HANDLED = "test_cli_pipes: reader_left handled a BrokenPipeError"

# `python -m benchmarks ARGS`, with the BrokenPipeError handler wrapped to say it ran:
# `encoder.output_files.reader_left`, wherever a front end looks it up.
LAUNCHER = f"""\
import sys
import benchmarks.__main__ as front
import encoder.cli_common as common
import encoder.output_files as output_files
import puzzles.outputs as outputs

handler = output_files.reader_left


def reader_left():
    print({HANDLED!r}, file=sys.stderr, flush=True)
    return handler()


for module in (common, front, outputs, output_files):
    if hasattr(module, "reader_left"):
        module.reader_left = reader_left
raise SystemExit(front.main())
"""


def small_pipe() -> tuple[int, int]:
    """Return (read end, write end) of a pipe whose buffer holds one page."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_SETPIPE_SZ"):
        pytest.skip("shrinking a pipe's buffer needs Linux (fcntl F_SETPIPE_SZ)")
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, PAGE)
    assert fcntl.fcntl(write_end, fcntl.F_GETPIPE_SZ) == PAGE
    return read_end, write_end


def leave_early(argv: list[str], cwd: Path, first_line: bool = True) -> tuple[int, str, str]:
    """Run `python -m benchmarks ARGV` (through LAUNCHER) with stdout on a pipe of one
    page, read its first line unbuffered and close the pipe, as `head -1` does (or, with
    `first_line=False`, close it before reading anything); return (exit status, that
    line, stderr)."""
    read_end, write_end = small_pipe()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])),
    }
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, *argv],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=cwd,
            env=env,
        )
    finally:
        os.close(write_end)
    line = b""
    while first_line and not line.endswith(b"\n"):
        byte = os.read(read_end, 1)  # one byte at a time: nothing is read past the line
        if not byte:
            break
        line += byte
    os.close(read_end)
    stderr = process.stderr.read()
    process.stderr.close()
    return process.wait(timeout=300), line.decode(), stderr


def copies_of_four(folder: Path, count: int, grids: int = 10) -> list[str]:
    """Write `count` puzzle files of the first `grids` 4x4 grids; return their paths.
    `run` prints a section of about 700 bytes per file (its name, padded table rows)."""
    lines = FOUR.read_text(encoding="utf-8").splitlines()
    header = [line for line in lines if line.startswith("# geometry:")]
    puzzles = [line for line in lines if line and not line.startswith("#")][:grids]
    folder.mkdir()
    paths = []
    for number in range(count):
        path = folder / f"four_{number:02}_{'x' * 40}.txt"
        path.write_text("\n".join([*header, *puzzles]) + "\n", encoding="utf-8")
        paths.append(str(path))
    return paths


def check_left_early(code: int, stderr: str) -> None:
    assert HANDLED in stderr, f"reader_left never ran (the pipe did not break?): {stderr}"
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr
    assert code == 0, stderr


def test_run_leaves_early(tmp_path):
    sets = copies_of_four(tmp_path / "sets", 10)
    argv = ["run", *sets, "--solvers", "up,fl", "--quiet"]
    code, line, stderr = leave_early(argv, cwd=tmp_path)
    assert line.startswith("_") and line.endswith("\n")  # the report's first line
    check_left_early(code, stderr)


def test_unique_leaves_early(tmp_path):
    lines = FOUR.read_text(encoding="utf-8").splitlines()
    header = [line for line in lines if line.startswith("#")]
    puzzles = [line for line in lines if line and not line.startswith("#")]
    grids = tmp_path / "grids.txt"
    grids.write_text("\n".join([*header, *puzzles * 3]) + "\n", encoding="utf-8")
    code, line, stderr = leave_early(["unique", str(grids)], cwd=tmp_path)
    assert line == f"{grids}:{len(header) + 1}  unique\n"
    check_left_early(code, stderr)


def test_stats_leaves_early(tmp_path):
    argv = ["stats", "--givens", "4-6", "--samples", "3", "--size", "4", "--quiet"]
    code, _, stderr = leave_early(argv, cwd=tmp_path, first_line=False)
    check_left_early(code, stderr)
    assert list(tmp_path.iterdir()) == []  # no --out: no file


def test_run_writes_its_files_when_the_reader_leaves(tmp_path):
    sets = copies_of_four(tmp_path / "sets", 10)
    argv = ["run", *sets, "--solvers", "up", "--quiet", "--out", str(tmp_path / "out")]
    code, _, stderr = leave_early(argv, cwd=tmp_path)
    check_left_early(code, stderr)
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["metadata"]["grids_done"] == 10 * 10
    assert (tmp_path / "out" / "results.csv").exists()


def test_stats_writes_files_only_with_out(tmp_path):
    argv = ["stats", "--givens", "4-5", "--samples", "3", "--size", "4", "--quiet"]
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []
    assert "no --out DIR" in done.stdout
    study = tmp_path / "study"
    code, _, stderr = leave_early([*argv, "--out", str(study)], cwd=tmp_path, first_line=False)
    check_left_early(code, stderr)
    assert sorted(p.name for p in study.iterdir()) == [
        "solutions_vs_givens.csv",
        "solutions_vs_givens.png",
    ]
