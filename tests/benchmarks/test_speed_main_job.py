"""`benchmarks speed`'s question 12, the README's main job, on two small sets of
data/sets/: one whole `benchmarks run --out DIR`, its wall time and the workers'
processor time against the solver calls of its own results.json, each a figure and a
checked target of the record."""

from __future__ import annotations

import re

from benchmarks.paths import PROJECT
from benchmarks.speed.main_job import main_job_speed
from benchmarks.speed.record import Record
from benchmarks.speed.runs import results, solver_call_seconds

SETS = [PROJECT / "data" / "sets" / name for name in ("sudoku4_minimal.txt", "sudoku9_depth1.txt")]


def test_the_main_job_is_run_once_and_checked_against_its_own_report(tmp_path, capsys):
    record = Record()
    main_job_speed(tmp_path, record, extra=[*map(str, SETS), "--limit", "3", "--quiet"])
    out = capsys.readouterr().out
    assert out.startswith("\n12. the main job: python -m benchmarks run --out DIR")
    assert re.search(r"^ {3}6 grids, 7 solvers \(42 solver runs\), \d+ worker", out, re.M)
    figures = {key: value for key, (value, _) in record.figures.items()}
    assert set(figures) == {f"12.main_job.{k}" for k in
                            ("wall", "worker_cpu", "solver_calls", "command_cpu")}  # fmt: skip
    document = results(tmp_path / "results")  # the run's own results.json, kept in tmp
    calls = solver_call_seconds(document)
    assert figures["12.main_job.solver_calls"] == calls > 0
    workers = document["metadata"]["worker_cpu_seconds"]
    assert figures["12.main_job.worker_cpu"] == workers >= calls  # the calls are in it
    assert figures["12.main_job.command_cpu"] >= workers  # the workers are its children
    wall, ratio = record.checks
    assert (wall["id"], ratio["id"]) == ("main-job-wall", "main-job-cpu")
    assert wall["value"] == figures["12.main_job.wall"] and wall["unit"] == "s"
    assert ratio["value"] == workers / calls and ratio["unit"] == "x"
    lines = re.findall(r"^ {3}(.*): \S+ \S* ?\(target (<= [^,]+), issue (\d+): (?:met|not met)\)$",
                       out, re.M)  # fmt: skip
    assert [(wanted, issue) for _, wanted, issue in lines] == [("<= 90 s", "32"), ("<= 1.3x", "43")]
    assert "an absolute bound: it depends on the machine" in lines[0][0]
