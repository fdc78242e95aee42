"""`benchmarks speed --scale` (question 5) on a tiny count: `rate` and `run` over the
grids repeated to N lines, grids/s and the peak memory read while each command runs.
Without `--scale-length` only the `--no-length` commands run (with it, a million grids
take hours); with it the default commands follow each.
"""

from __future__ import annotations

import re

import pytest

from benchmarks.paths import PROJECT
from benchmarks.speed.scale import ONE_WORKER, at_scale

NINE = PROJECT / "data" / "sets" / "sudoku9_depth1.txt"


@pytest.mark.parametrize("lengths", [(False,), (False, True)])
def test_scale_measures_rate_and_run_over_the_repeated_grids(tmp_path, capsys, lengths):
    grids = [line for line in NINE.read_text().splitlines() if line and not line.startswith("#")]
    lines = [grid + "\n" for grid in grids[:7]]
    at_scale("nine", lines, [20], tmp_path, [("1 worker", ONE_WORKER)], lengths)
    out = capsys.readouterr().out
    measured = re.findall(r"^ {3}(.*): ([\d,]+) grids/s \(([\d.]+) s\), peak RSS ([\d,]+) MiB$",
                          out, re.MULTILINE)  # fmt: skip
    assert len(measured) == 2 * len(lengths), out
    what = [line for line, *_ in measured]
    assert what[0] == "solvers rate --max-depth 1 --no-length, 20 grids, 1 worker"
    assert what[len(lengths)] == "benchmarks run up,fl,minisat22, 20 grids, 1 worker"
    if len(lengths) == 2:
        assert "refutation-length rating" in what[1]
    for _, rate, _, peak in measured:
        assert int(rate.replace(",", "")) > 0
        assert 20 <= int(peak.replace(",", "")) < 2000  # MiB of a real process
    assert not list(tmp_path.glob("scale_*"))  # the repeated file is removed
