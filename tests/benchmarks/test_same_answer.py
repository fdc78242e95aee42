"""The main job's answer is a function of its input: on a subset of the project's own
sets (every file of data/sets/, the first grids of each, the 16x16 and depth-2 sets
with them, the finer ratings asked for), one worker, two workers, the Dask executor
and a run beside a CPU hog write the same results.csv and results.json, byte for byte
once the times and the facts of how each run ran (its date, command line, workers,
executor, load) are set aside: every rating, count and tally is compared, and the rest
of the metadata too (options, budgets, grids done, machine, code).  Every bound is a
work budget, so the load cannot move a label."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.paths import PROJECT

SETS = sorted((PROJECT / "data" / "sets").glob("*.txt"))
COMMON = ["--limit", "2", "--length", "--chunk-size", "1", "--quiet"]
# The only fields a run may change: its times and how it ran (not what it found).
# In the summaries, every field whose name holds one of these: seconds_median,
# seconds_total, us_median, grids_per_second, all times of the solver calls.
TIMES = ("seconds", "us_", "grids_per_second")
# In the metadata, these keys alone; each must be there (a key renamed fails the test).
HOW_IT_RAN = (
    "date",  # when the run started
    "command",  # the command line: each run's own --workers, --executor and --out
    "workers",  # one or two processes: what the test varies
    "executor",  # local or dask: what the test varies
    "wall_seconds",  # a time: the machine's speed and load
    "worker_cpu_seconds",  # a time: the machine's speed and load
    "load_average",  # the machine's load: the hog's run reads higher
)


def _run(out: Path, *extra: str) -> None:
    argv = [sys.executable, "-m", "benchmarks", "run", *map(str, SETS), *COMMON]
    result = subprocess.run(
        [*argv, *extra, "--out", str(out)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "no wall-clock limit: the results depend on the input alone" in result.stdout


def _json_figures(out: Path) -> str:
    document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    for key in HOW_IT_RAN:
        del document["metadata"][key]
    for summary in document["summaries"]:
        for key in [k for k in summary if any(t in k for t in TIMES)]:
            del summary[key]
    return json.dumps(document, sort_keys=True)


def _csv_without_times(out: Path) -> list[str]:
    lines = (out / "results.csv").read_text(encoding="utf-8").splitlines()
    column = lines[0].split(",").index("microseconds")
    return [",".join(c for i, c in enumerate(line.split(",")) if i != column) for line in lines]


@pytest.mark.slow
def test_one_worker_two_workers_dask_and_a_loaded_machine_write_the_same_results(tmp_path):
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    _run(tmp_path / "one", "--workers", "1")
    _run(tmp_path / "two", "--workers", "2")
    _run(tmp_path / "dask", "--executor", "dask", "--workers", "2")
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # a busy neighbour
    try:
        time.sleep(0.5)
        _run(tmp_path / "hog", "--workers", "2")
    finally:
        hog.kill()
        hog.wait()
    runs = ("one", "two", "dask", "hog")
    rows = {run: _csv_without_times(tmp_path / run) for run in runs}
    figures = {run: _json_figures(tmp_path / run) for run in runs}
    assert len(rows["one"]) == 1 + 2 * len(SETS) * 7  # two grids a set, seven solvers
    with open(tmp_path / "one" / "results.csv", encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert {r["depth"] for r in table} <= {"0", "1", "2"}  # every grid rated
    assert all((r["length"] or r["bxb"]).isdigit() for r in table)  # none stopped short
    assert {r["bxb"] != "" for r in table} == {True, False}  # both scales in the subset
    for run in runs[1:]:
        assert rows[run] == rows["one"], run
        assert figures[run] == figures["one"], run
