"""`solvers rate` prints every line before a bad input line, then names it: a read block
(STREAM_LINES lines) and a batch or chunk being filled when the bad line comes are
rated, not dropped."""

from __future__ import annotations

import contextlib
import io

import pytest

from encoder.puzzle_files import STREAM_LINES
from solvers.__main__ import main

GRID = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_every_line_before_a_bad_one_is_printed(tmp_path, workers):
    good = STREAM_LINES + 100  # past the first read block, inside the second
    path = tmp_path / "grids.txt"
    path.write_text(f"{GRID}\n" * good + "xx\n" + f"{GRID}\n" * 3, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["rate", str(path), "--no-length", "--workers", workers])
    assert code == 1
    lines = out.getvalue().splitlines()
    assert len(lines) == good
    assert lines[-1].startswith(f"{good - 1}\t")
    assert err.getvalue().rstrip("\n").endswith(f"grids.txt:{good + 1}: grid has 2 cells, "
                                                "expected N*N (N from 4 to 35, or numbers "
                                                "separated by spaces or commas)")  # fmt: skip
