"""Every front end on a stdout that fills up: a file-size limit (`ulimit -f`, the
RLIMIT_FSIZE of the child) makes the writes past it fail with EFBIG, as a full disk fails
them with ENOSPC.  Python ignores SIGXFSZ at start-up, so the limit surfaces as
`OSError: [Errno 27] File too large`, not as a signal.  Each command must say in one line
where its output stops and exit 1: no traceback, no "Exception ignored", no silent
exit 0 with the output cut short.  Run with and without PYTHONUNBUFFERED, since a write
cut short is dropped without a word by Python's buffered writer in both modes.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
SETS = PROJECT / "data" / "sets"
FILES = Path(__file__).parent / "corpus" / "files"
LIMIT = 1024  # bytes of stdout the child may write


def grids(tmp_path: Path, name: str, source: str, count: int) -> str:
    lines = (SETS / source).read_text(encoding="utf-8").splitlines()
    path = tmp_path / name
    kept = [line for line in lines if line and not line.startswith("#")][:count]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return str(path)


def commands(tmp_path: Path) -> dict[str, list[str]]:
    many = grids(tmp_path, "many.txt", "sudoku9_minimal.txt", 200)
    one = grids(tmp_path, "one.txt", "sudoku9_minimal.txt", 1)
    sixteen = grids(tmp_path, "sixteen.txt", "sudoku16_minimal.txt", 1)
    cnf = tmp_path / "sixteen.cnf"
    subprocess.run(
        [sys.executable, "-m", "encoder", sixteen, "-o", str(cnf)],
        check=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )
    return {
        "rate": ["solvers", "rate", many],
        "rate-workers": ["solvers", "rate", many, "--workers", "2"],
        "solve": ["solvers", "solve", str(cnf)],
        "explain": ["solvers", "explain", one],
        "check": [
            "solvers",
            "check",
            str(FILES / "cnf-two-vars-unsat.cnf"),
            str(FILES / "drup-two-vars-refutation.drup"),
        ],
        "unique": ["benchmarks", "unique", many],
        "generate": ["benchmarks", "generate", "--method", "full", "--count", "50"],
        "run": ["benchmarks", "run", str(SETS / "sudoku4_minimal.txt"), "--solvers", "up"],
    }


NAMES = ["rate", "rate-workers", "solve", "explain", "check", "unique", "generate", "run"]


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("name", NAMES)
def test_output_cut_short_is_said(name, unbuffered, tmp_path):
    argv = commands(tmp_path)[name]
    # the check's verdict is one short line: no room at all for it
    limit = 0 if name == "check" else LIMIT
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    out = tmp_path / "out"
    with out.open("wb") as handle:
        process = subprocess.run(
            [sys.executable, "-m", *argv],
            stdout=handle,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=300,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
        )
    err = process.stderr
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert process.returncode == 1, err
    last = err.rstrip("\n").rsplit("\n", 1)[-1]
    said = rf"{argv[0]}: stdout: cannot write: File too large; the output stops after (\d+) bytes"
    found = re.fullmatch(said, last)
    assert found, err
    assert int(found.group(1)) == out.stat().st_size == limit
