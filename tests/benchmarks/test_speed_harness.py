"""`benchmarks speed`'s question 13 on tiny inputs: `benchmarks run --solvers up,fl,fl2`
against `solvers rate --max-depth 2` on one file, then over the grids repeated to N
lines, each a figure of the record and a checked target (the ratio, the wall time per
million grids, the growth of the peak memory from the smallest N)."""

from __future__ import annotations

import re

from benchmarks.paths import PROJECT
from benchmarks.speed import harness_speed as harness_speed_module
from benchmarks.speed.harness_speed import harness_speed
from benchmarks.speed.record import Record

NINE = PROJECT / "data" / "sets" / "sudoku9_depth1.txt"


def test_the_harness_is_timed_against_rate_and_over_repeated_grids(tmp_path, capsys, monkeypatch):
    # the memory target of 200,000 grids checked at 12 (a million is not asked here)
    monkeypatch.setattr(harness_speed_module, "MEMORY_TARGETS", {12: "harness-memory-200k"})
    grids = [line for line in NINE.read_text().splitlines() if line and not line.startswith("#")]
    record = Record()
    harness_speed("nine", [grid + "\n" for grid in grids[:5]], tmp_path, record, (7, 12))
    out = capsys.readouterr().out
    assert out.startswith("\n13. the harness at its kernels' speed")
    assert re.search(r"^ {3}nine, 5 grids: benchmarks run [\d.]+ s \(its tables", out, re.M)
    scaled = re.findall(r"^ {3}([\d,]+) grids: [\d.]+ s, [\d,]+ grids/s, peak RSS (\d+) MiB",
                        out, re.M)  # fmt: skip
    assert [count for count, _ in scaled] == ["7", "12"], out
    assert all(20 <= int(peak) < 2000 for _, peak in scaled)  # MiB of a real process
    assert re.search(r"peak RSS \d+ MiB, [+-][\d.]+ MiB from 7$", out, re.M)
    figures = record.figures
    assert {"13.list.rate_wall", "13.list.run_wall"} <= set(figures)
    assert figures["13.scale.12.peak"][1] == "MiB"
    ratio, memory = record.checks  # no million grids: no wall time per million
    assert ratio["id"] == "run-vs-rate" and ratio["where"] == "nine"
    assert ratio["value"] == figures["13.list.run_wall"][0] / figures["13.list.rate_wall"][0]
    assert memory["id"] == "harness-memory-200k" and memory["where"] == "12 against 7 grids"
    assert memory["value"] == figures["13.scale.12.peak"][0] - figures["13.scale.7.peak"][0]
    assert not list(tmp_path.glob("harness_*"))  # the files written are removed
