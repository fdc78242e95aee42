"""`solvers check` reads a proof line that spans many blocks in time linear in its
length: joining each block to the line read so far would make a 25 MB line quadratic
(seconds where a linear reader takes a fraction of one).  A lemma as wide as the header
allows, checked with too little memory, is one line and exit 1, not a traceback."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

import solvers.proofs.check as check


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_a_line_of_many_blocks_is_read_in_linear_time(monkeypatch, end):
    monkeypatch.setattr(check, "BLOCK", 64)  # 16,000 blocks for the one line
    tokens = b" ".join(b"%d" % (v % 9 + 1) for v in range(500_000))
    text = b"c a comment\n" + tokens + b" 0" + end + b"0\n"
    started = time.perf_counter()
    lines = list(check._lines(io.BytesIO(text), "proof", len(text)))
    seconds = time.perf_counter() - started
    assert [number for number, _ in lines] == [1, 2, 3]
    assert lines[1][1] == tokens + b" 0"
    assert seconds < 2.0, f"{seconds:.1f} s for a line of {len(tokens):,} bytes"


def test_a_long_line_beyond_the_limit_is_refused_at_its_line(monkeypatch):
    monkeypatch.setattr(check, "BLOCK", 64)
    text = b"1 0\n" + b"1 " * 10_000 + b"0\n"
    with pytest.raises(check.DimacsError, match="line longer than 4096 bytes") as error:
        list(check._lines(io.BytesIO(text), "proof", 4096))
    assert error.value.line == 2


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="the address-space limit is Linux's")
def test_a_lemma_too_wide_for_memory_is_one_line(tmp_path):
    nv = 4_000_000
    cnf, proof = tmp_path / "wide.cnf", tmp_path / "wide.drup"
    cnf.write_text(f"p cnf {nv} 1\n1 2 0\n")
    lits = random.Random(1).sample(range(1, nv + 1), 3_000_000)  # a 26 MB line
    proof.write_text(" ".join(str(-v) for v in lits) + " 0\n")
    limit = "ulimit -v 900000; exec " + " ".join(
        [sys.executable, "-m", "solvers", "check", str(cnf), str(proof)]
    )  # (a check of a small proof needs less than half of it)
    run = subprocess.run(["bash", "-c", limit], capture_output=True, text=True, timeout=300,
                         cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines()[-1] == (
        f"solvers: {proof}: not enough memory to check this proof (a formula of 4,000,000 "
        "variables)"
    )
