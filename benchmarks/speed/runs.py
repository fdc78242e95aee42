"""The project's commands run as whole processes by `benchmarks speed` (questions 4, 5,
6, 9, 12 and 13): their wall time, resource usage and peak memory, and what they print."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.speed.common import PROG
from benchmarks.timing import peak_mb

ONE_WORKER = ("--workers", "1")


def repeated(lines: Sequence[str], size: int, path: Path) -> Path:
    """Write `size` lines into `path`, those of `lines` repeated; return the path."""
    with open(path, "w", encoding="utf-8") as dst:
        for start in range(0, size, len(lines)):
            dst.writelines(lines[: min(len(lines), size - start)])
    return path


def run_command(argv: list[str], stdout) -> tuple[float, float]:
    """Run a command of this project; return (wall seconds, peak RSS of its largest
    process in MiB, read from /proc while it runs: see timing.peak_mb)."""
    wall, _, peak = run_with_usage(argv, stdout)
    return wall, peak


def run_with_usage(
    argv: list[str], stdout, module: bool = True
) -> tuple[float, os.struct_rusage, float]:
    """Run a command of this project (`python -m ARGV`; `python ARGV` when not
    `module`); return (wall seconds, its resource usage, its peak resident set in MiB)."""
    start = time.perf_counter()
    command = [sys.executable, *(["-m"] if module else []), *argv]
    child = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE)
    peak = 0.0
    while True:  # the peak is read between waits: ru_maxrss would carry ours
        peak = peak_mb(child.pid, peak, descendants=True)
        done, status, usage = os.wait4(child.pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"{PROG}: {' '.join(argv)} failed ({child.returncode}): {errors[-500:]}")
    return wall, usage, peak


def _rate_argv(path: Path, length: bool, max_depth: int | None) -> list[str]:
    argv = ["solvers", "rate", str(path), "--quiet"]
    argv += [] if max_depth is None else ["--max-depth", str(max_depth)]
    return argv + ([] if length else ["--no-length"])


def _rate_output(out: Path) -> tuple[float, int]:
    """Return (summed kernel seconds, grids) of the lines `solvers rate` wrote."""
    kernel, grids = 0.0, 0
    with open(out, encoding="utf-8") as handle:
        for line in handle:
            kernel += float(line.rsplit("\t", 1)[1])
            grids += 1
    return kernel, grids


def rate_run(
    path: Path,
    folder: Path,
    where: Sequence[str] = ONE_WORKER,
    length: bool = False,
    max_depth: int | None = 1,
) -> tuple[float, float, float, int]:
    """Run `solvers rate --max-depth 1` (`max_depth` None: its default) on a file, with
    `--no-length` unless `length`, on the workers `where` names (executor flags): (wall,
    peak MiB, summed kernel s, grids)."""
    out = folder / "rate.out"
    with open(out, "wb") as handle:
        wall, peak = run_command([*_rate_argv(path, length, max_depth), *where], handle)
    return wall, peak, *_rate_output(out)


def rate_usage(
    path: Path, folder: Path, length: bool = False, max_depth: int | None = 1
) -> tuple[float, float, float, int]:
    """`rate_run` on one worker, with the processor time of the command (user + system)
    instead of its peak memory: (wall, processor s, summed kernel s, grids)."""
    out = folder / "rate.out"
    with open(out, "wb") as handle:
        argv = [*_rate_argv(path, length, max_depth), *ONE_WORKER]
        wall, usage, _ = run_with_usage(argv, handle)
    return wall, usage.ru_utime + usage.ru_stime, *_rate_output(out)


def harness_run(
    path: Path,
    folder: Path,
    where: Sequence[str] = ONE_WORKER,
    length: bool = False,
    solvers: str = "up,fl,minisat22",
) -> tuple[float, float, float, int]:
    """Run `benchmarks run` with `solvers` on a file, with `--length` when `length`, on
    the workers `where` names: (wall, peak MiB, summed solver-call seconds, grids)."""
    out = folder / "run"
    argv = ["benchmarks", "run", str(path), "--solvers", solvers, "--quiet"]
    argv += ["--length"] if length else []
    wall, peak = run_command([*argv, *where, "--out", str(out)], subprocess.DEVNULL)
    document = results(out)
    grids = max(s["grids"] for s in document["summaries"])
    return wall, peak, solver_call_seconds(document), grids


def results(out: Path) -> dict:
    """Return the results.json a `benchmarks run --out OUT` wrote."""
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


def solver_call_seconds(document: dict) -> float:
    """Return the seconds of solver calls a results.json reports: its summaries'
    `seconds_total` summed (each solver's timed calls on one set and encoding, summed over
    workers, checks not counted), the figures whose sums per solver the report prints
    as its "Time per solver" table."""
    return sum(s["seconds_total"] for s in document["summaries"])


def main_job(folder: Path, extra: Sequence[str] = ()) -> tuple[float, os.struct_rusage, dict]:
    """Run the README's main job, `benchmarks run --out DIR` (DIR in `folder`), once as a
    whole process, with the options `extra` after (none but in tests): return (wall
    seconds, its resource usage, its results.json)."""
    out = folder / "results"
    argv = ["benchmarks", "run", "--out", str(out), *extra]
    wall, usage, _ = run_with_usage(argv, subprocess.DEVNULL)
    return wall, usage, results(out)
