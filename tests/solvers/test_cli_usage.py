"""`python -m solvers`: options that cannot mean anything are usage errors (argparse's
exit status 2 and one `error:` line naming the option), never a traceback and never a
run that prints nonsense such as a depth of ">-1" or a time limit "of -1 s"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
GRID = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture(scope="module")
def cnf(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cnf") / "grid.cnf"
    done = subprocess.run(
        [sys.executable, "-m", "encoder", GRID, "-o", str(path)],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["solve", "{cnf}", "--solver-cmd", "'unclosed"], ("--solver-cmd", "No closing quotation")),
        (["solve", "{cnf}", "--solver-cmd", ""], ("--solver-cmd", "names no program")),
        (["solve", "{cnf}", "--solver-cmd", "{out} x"], ("--solver-cmd", "names no program")),
        (["solve", "{cnf}", "--solver", "minisat", "--timeout", "-1"], ("--timeout", "> 0")),
        (["solve", "{cnf}", "--timeout", "soon"], ("--timeout", "not a number")),
        (["rate", GRID, "--max-depth", "-1"], ("--max-depth", ">= 0")),
        (["rate", GRID, "--workers", "0"], ("--workers", "> 0")),
        (["rate", GRID, "--chunk-size", "0"], ("--chunk-size", "> 0")),
        (["rate", GRID, "--solver-cmd", "'x"], ("--solver-cmd",)),
        (["explain", GRID, "--max-depth", "-3"], ("--max-depth", ">= 0")),
        (["rate", GRID, "--no-boxes", "--box", "3x3"], ("--box", "--no-boxes")),
    ],
    ids=[
        "cmd-unclosed-quote",
        "cmd-empty",
        "cmd-no-program",
        "timeout-negative",
        "timeout-not-number",
        "max-depth-negative",
        "workers-zero",
        "chunk-size-zero",
        "rate-cmd-unclosed-quote",
        "explain-max-depth-negative",
        "box-and-no-boxes",
    ],
)
def test_meaningless_options_are_usage_errors(args, words, cnf):
    argv = [arg.replace("{cnf}", str(cnf)) for arg in args]
    done = subprocess.run(
        [sys.executable, "-m", "solvers", *argv],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    error = done.stderr.splitlines()[-1]
    assert "error:" in error
    for word in words:
        assert word in error, (word, error)


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads a file of mode 000"
)
def test_rate_on_a_file_it_may_not_read_is_one_line(tmp_path, capsys):
    """The issue's case: a PermissionError traceback from the reader; now one line and
    exit 1, as every other unreadable file (the corpus tests a folder, which fails as
    root too)."""
    from solvers.__main__ import main

    path = tmp_path / "grids.txt"
    path.write_text(GRID + "\n")
    path.chmod(0)
    try:
        assert main(["rate", str(path)]) == 1
    finally:
        path.chmod(0o644)
    assert capsys.readouterr().err == f"solvers: {path}: cannot read: Permission denied\n"
