"""`solvers check` reads a proof line that spans many blocks in time linear in its
length: joining each block to the line read so far would make a 25 MB line quadratic
(seconds where a linear reader takes a fraction of one)."""

from __future__ import annotations

import io
import time

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
