"""What a benchmark run reports: summaries, depth profiles, Markdown tables, JSON, CSV.

Per set x encoding x solver (`Summary`): grids, % solved without search, % solved,
median and mean decisions and conflicts, median microseconds per grid and grids per
second (one core: grids / summed solver time).  "Solved without search" is, for the
closure solvers (`up`, `fl`, `fl2`, ...), solving the grid at all (they never
branch); for the others, root-level unit propagation of the givens assigning every
cell (`SolverResult.solved_without_search`).  A figure a solver does not report is
NOT_AVAILABLE: "n/a" in tables and CSV, null in JSON, never 0.

Per set x encoding (`DepthProfile`), when the home-grown engine ran: the share of grids
that need depth 0 (unit propagation), 1 (failed literals), 2, 3, more, or are UNSAT.

Both are made from running counters (`SolverTally`, `DepthTally`), fed a grid at a
time: medians come from counts of each value (a solver time kept to 0.1 µs), so memory
does not grow with the number of grids.

`results.json` layout (SCHEMA, version 1): {"schema", "version", "metadata",
"datasets": [...], "summaries": [...], "depth_profiles": [...]}; `compare` reads it.
"""

from __future__ import annotations

import csv
import datetime
import importlib.metadata
import json
import os
import platform
import subprocess
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tabulate import tabulate

from benchmarks.chunks import GridRun
from benchmarks.paths import PROJECT, cpu_model
from benchmarks.sets import Dataset
from encoder.output_files import write_file, write_text
from solvers.budgets import OVER_BUDGET
from solvers.results import DEPTH_BUCKETS, NOT_AVAILABLE, NotAvailable, Status

SCHEMA = "sudoku-sat/benchmark-results"
VERSION = 1
PACKAGES = (
    "sudoku-sat",
    "python-sat",
    "numpy",
    "tabulate",
    "tqdm",
    "matplotlib",
    "dask",
    "distributed",
)
NA = "n/a"

Number = float | NotAvailable


@dataclass(frozen=True)
class Summary:
    """One solver on one set in one encoding."""

    dataset: str
    encoding: str
    solver: str
    grids: int
    without_search: int | NotAvailable
    solved: int
    unsat: int
    unknown: int
    decisions_median: Number
    decisions_mean: Number
    conflicts_median: Number
    conflicts_mean: Number
    seconds_median: float
    seconds_total: float
    # Of the `unknown` grids, those stopped by the time limit and those the solver failed
    # on (a crash, a missing program, output that is no answer): counted apart because a
    # failure is an error of the run, not a figure of the solver; and those stopped by
    # their work budget.
    timed_out: int = 0
    failed: int = 0
    over_budget: int = 0

    @property
    def without_search_pct(self) -> Number:
        if isinstance(self.without_search, NotAvailable) or not self.grids:
            return NOT_AVAILABLE
        return 100.0 * self.without_search / self.grids

    @property
    def solved_pct(self) -> Number:
        return 100.0 * self.solved / self.grids if self.grids else NOT_AVAILABLE

    @property
    def grids_per_second(self) -> Number:
        return self.grids / self.seconds_total if self.seconds_total > 0 else NOT_AVAILABLE


@dataclass(frozen=True)
class DepthProfile:
    """How many grids of a set need each depth, in one encoding."""

    dataset: str
    encoding: str
    grids: int
    max_depth: int
    counts: dict[str, int]  # DEPTH_BUCKETS -> grids
    # The finer ratings, each on its own scale; empty when not rated.
    # refutation-length label ('3', '>budget', ...) -> grids, of the grids rated by length
    lengths: dict[str, int] = field(default_factory=dict)
    # BxB label ('2', '>2', ...) -> grids, of the grids that need two levels (depth 2)
    bxbs: dict[str, int] = field(default_factory=dict)

    def share(self, bucket: str) -> float:
        return 100.0 * self.counts.get(bucket, 0) / self.grids if self.grids else 0.0


TICK = 1e-7  # seconds: a solver time is kept to 0.1 µs for its median (CSV prints 0.1 µs)


def _median(counts: Counter) -> float:
    """Return the median of values given as value -> how many times (`statistics.median`
    of the values written out, as a float)."""
    total = sum(counts.values())
    middle = [(total - 1) // 2, total // 2]  # the one or two middle ranks
    found, seen = [], 0
    for value in sorted(counts):
        seen += counts[value]
        while middle and middle[0] < seen:
            found.append(value)
            middle.pop(0)
        if not middle:
            break
    return (found[0] + found[1]) / 2 if total % 2 == 0 else float(found[0])


class SolverTally:
    """Running counters of one solver on one set in one encoding: what its `Summary`
    needs, in memory bounded by the number of distinct figures (decisions, conflicts,
    times to 0.1 µs), never by the number of grids."""

    def __init__(self) -> None:
        self.grids = self.without = self.timed_out = self.failed = self.over_budget = 0
        self.without_known = True  # False once a grid's "without search" is NOT_AVAILABLE
        self.statuses: Counter = Counter()
        self.decisions: Counter | None = Counter()  # None once a figure is NOT_AVAILABLE
        self.conflicts: Counter | None = Counter()
        self.ticks: Counter = Counter()  # solver time in TICKs -> grids
        self.seconds = 0.0

    def add(self, run: GridRun) -> None:
        result = run.result
        self.grids += 1
        if isinstance(run.without_search, NotAvailable):
            self.without_known = False
        else:
            self.without += bool(run.without_search)
        self.statuses[result.status] += 1
        self.decisions = _count(self.decisions, result.decisions)
        self.conflicts = _count(self.conflicts, result.conflicts)
        self.ticks[round(result.seconds / TICK)] += 1
        self.seconds += result.seconds
        self.timed_out += result.timed_out
        self.failed += result.failed
        self.over_budget += result.over_budget

    def summary(self, dataset: str, encoding: str, solver: str) -> Summary:
        return Summary(
            dataset,
            encoding,
            solver,
            self.grids,
            self.without if self.without_known else NOT_AVAILABLE,
            self.statuses[Status.SAT],
            self.statuses[Status.UNSAT],
            self.statuses[Status.UNKNOWN],
            *_figures(self.decisions),
            *_figures(self.conflicts),
            _median(self.ticks) * TICK if self.grids else 0.0,
            self.seconds,
            self.timed_out,
            self.failed,
            self.over_budget,
        )


def _count(counts: Counter | None, value: int | NotAvailable) -> Counter | None:
    if counts is None or isinstance(value, NotAvailable):
        return None
    counts[value] += 1
    return counts


def _figures(counts: Counter | None) -> tuple[Number, Number]:
    """Return (median, mean) of counted figures, NOT_AVAILABLE if any was."""
    if not counts:
        return NOT_AVAILABLE, NOT_AVAILABLE
    total = sum(value * n for value, n in counts.items())
    return _median(counts), float(total) / sum(counts.values())


class DepthTally:
    """Running counters of the depth, refutation-length and BxB labels of a set in one
    encoding ('' labels, a grid the other rating covers, are not counted)."""

    def __init__(self) -> None:
        self.depths: Counter = Counter()
        self.lengths: Counter = Counter()
        self.bxbs: Counter = Counter()

    def add(self, depths: Sequence[str], lengths: Sequence[str], bxbs: Sequence[str]) -> None:
        self.depths.update(depths)
        self.lengths.update(label for label in lengths if label)
        self.bxbs.update(label for label in bxbs if label)

    def profile(self, dataset: str, encoding: str, max_depth: int) -> DepthProfile:
        counts = {bucket: self.depths[bucket] for bucket in DEPTH_BUCKETS}
        grids = sum(self.depths.values())
        lengths, bxbs = dict(self.lengths), dict(self.bxbs)
        return DepthProfile(dataset, encoding, grids, max_depth, counts, lengths, bxbs)


LENGTH_COLUMNS = 7  # values 0 .. 6 get a column each, larger ones share "7+"


# A finer rating's labels that say what stopped it, each shown in its own column when
# some grid has it (not in "not rated", which is what the rating itself left open).
STOPPED_LABELS = {OVER_BUDGET: ">budget %", "timeout": "timeout %"}


def rating_headers(what: str, stopped: Sequence[str] = ()) -> list[str]:
    """Return the headers of a finer rating's table (`what`: 'length' or 'BxB'), with a
    column for each of the STOPPED_LABELS in `stopped`."""
    return [
        "dataset",
        "encoding",
        "grids",
        f"{what} med",
        f"{what} mean",
        *(f"{k} %" for k in range(LENGTH_COLUMNS)),
        f"{LENGTH_COLUMNS}+ %",
        "not rated %",
        *(STOPPED_LABELS[label] for label in stopped),
    ]


def stopped_labels(profiles: Sequence[DepthProfile], field_name: str) -> list[str]:
    """Return the STOPPED_LABELS that some grid of a finer rating (`field_name`) has."""
    return [
        label
        for label in STOPPED_LABELS
        if any(getattr(p, field_name).get(label) for p in profiles)
    ]


# The finer ratings' tables: (DepthProfile field, name in the headers, heading).
RATING_TABLES = (
    (
        "lengths",
        "length",
        "### Refutation length (grids of depth 0-1: the longest shortest refutation "
        "needed, simplest first)",
    ),
    (
        "bxbs",
        "BxB",
        "### BxB (grids of depth 2: the smallest p for which T&E(B_p) solves them)",
    ),
)


def rating_rows(
    profiles: Sequence[DepthProfile], field_name: str, stopped: Sequence[str] = ()
) -> list[list[str]]:
    """Return the rows of a finer rating's table (`field_name`: 'lengths' or 'bxbs'):
    for the grids it rates, the median and mean of the settled values, the share of
    each, the share it left unrated (deeper, contradictory), and the share of each of
    the `stopped` labels (the work budget, the time limit)."""
    rows = []
    for p in profiles:
        labels = getattr(p, field_name)
        if not labels:
            continue
        settled = Counter({int(label): n for label, n in labels.items() if label.isdigit()})
        total = sum(labels.values())
        shares = [settled[k] for k in range(LENGTH_COLUMNS)]
        shares.append(sum(n for v, n in settled.items() if v >= LENGTH_COLUMNS))
        halted = [labels.get(label, 0) for label in stopped]
        shares.append(total - sum(settled.values()) - sum(halted))
        shares += halted
        row = [p.dataset, p.encoding, f"{total:,}"]
        if settled:
            mean = float(sum(v * n for v, n in settled.items())) / sum(settled.values())
            row += [f"{_median(settled):g}", f"{mean:.2f}"]
        else:
            row += [NA, NA]
        row += [f"{100 * s / total:.2f}" for s in shares]
        rows.append(row)
    return rows


# ---------------------------------------------------------------- formatting


def _pct(value: Number) -> str:
    return NA if isinstance(value, NotAvailable) else f"{value:.2f}"


def _num(value: Number, digits: int = 1) -> str:
    """Return a figure with `digits` decimals, or none when it is a whole number."""
    if isinstance(value, NotAvailable):
        return NA
    if value == int(value) and digits <= 1:
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def table(rows: Sequence[Sequence[str]], headers: Sequence[str], text_columns: int = 1) -> str:
    """Return a Markdown table: the first `text_columns` left-aligned, the rest (already
    formatted numbers) right-aligned and printed as given."""
    align = ["left"] * text_columns + ["right"] * (len(headers) - text_columns)
    return tabulate(rows, headers, tablefmt="github", disable_numparse=True, colalign=align)


SUMMARY_HEADERS = (
    "encoding",
    "solver",
    "grids",
    "% no search",
    "% solved",
    "decisions med",
    "decisions mean",
    "conflicts med",
    "conflicts mean",
    "µs/grid med",
    "grids/s",
)


# Columns shown only when some solver has a grid in them: Summary field -> header.
OPTIONAL_COUNTS = {"over_budget": ">budget", "timed_out": "time limit", "failed": "failed"}


def summary_rows(summaries: Sequence[Summary], optional: Sequence[str] = ()) -> list[list[str]]:
    """Return the solver table's rows; `optional`: the OPTIONAL_COUNTS to show."""
    return [
        [
            s.encoding,
            s.solver,
            f"{s.grids:,}",
            _pct(s.without_search_pct),
            _pct(s.solved_pct),
            _num(s.decisions_median),
            _num(s.decisions_mean, 2),
            _num(s.conflicts_median),
            _num(s.conflicts_mean, 2),
            f"{s.seconds_median * 1e6:,.0f}",
            _num(s.grids_per_second, 0),
            *(f"{getattr(s, field):,}" for field in optional),
        ]
        for s in summaries
    ]


def depth_headers(max_depth: int) -> list[str]:
    shown = [b for b in DEPTH_BUCKETS[:4] if int(b) <= max_depth]
    return ["dataset", "encoding", "grids", *(f"depth {b} %" for b in shown), f"> {max_depth} %"]


# Buckets shown only when some grid falls in them, with their column headers.
OPTIONAL_BUCKETS = {"unsat": "unsat %", OVER_BUDGET: ">budget %", "timeout": "timeout %"}


def depth_rows(profiles: Sequence[DepthProfile], optional: Sequence[str]) -> list[list[str]]:
    """Return the depth table's rows; `optional`: the OPTIONAL_BUCKETS to show."""
    rows = []
    for p in profiles:
        shown = [b for b in DEPTH_BUCKETS[:4] if int(b) <= p.max_depth]
        row = [p.dataset, p.encoding, f"{p.grids:,}"]
        row += [f"{p.share(b):.2f}" for b in shown]
        row.append(f"{p.share('more'):.2f}")
        row += [f"{p.share(b):.2f}" for b in optional]
        rows.append(row)
    return rows


def markdown(
    datasets: Sequence[Dataset],
    summaries: Sequence[Summary],
    profiles: Sequence[DepthProfile],
    header: str = "",
) -> str:
    """Return the run's Markdown: one table per set, then the depth profiles."""
    parts = [header] if header else []
    for d in datasets:
        mine = [s for s in summaries if s.dataset == d.name]
        if not mine:
            continue
        flags = f", flags `{d.flags}` ({d.flags_from})" if d.flags else ""
        parts.append(f"### {d.name}: {mine[0].grids:,} of {d.total:,} grids, {d.variant}{flags}")
        optional = [f for f in OPTIONAL_COUNTS if any(getattr(s, f) for s in mine)]
        headers = [*SUMMARY_HEADERS, *(OPTIONAL_COUNTS[f] for f in optional)]
        parts.append(table(summary_rows(mine, optional), headers, text_columns=2))
    if profiles:
        depth = max(p.max_depth for p in profiles)
        optional = [b for b in OPTIONAL_BUCKETS if any(p.counts.get(b) for p in profiles)]
        headers = depth_headers(depth) + [OPTIONAL_BUCKETS[b] for b in optional]
        parts.append("### Depth profile (home-grown engine: failed-literal depth needed)")
        parts.append(table(depth_rows(profiles, optional), headers, text_columns=2))
        for field_name, what, heading in RATING_TABLES:
            stopped = stopped_labels(profiles, field_name)
            rows = rating_rows(profiles, field_name, stopped)
            if rows:
                parts.append(heading)
                parts.append(table(rows, rating_headers(what, stopped), text_columns=2))
    return "\n\n".join(parts) + "\n"


# ---------------------------------------------------------------- metadata, files


def _git(*args: str) -> str:
    try:
        run = subprocess.run(
            ["git", *args], cwd=PROJECT, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return run.stdout.strip() if run.returncode == 0 else ""


def package_versions() -> dict[str, str]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def metadata(**run: object) -> dict:
    """Return the run's metadata: machine, software, commit, and the run's own options."""
    commit = _git("rev-parse", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "packages": package_versions(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "git_commit": commit or "unknown",
        "git_dirty": dirty,
        **run,
    }


def _json_value(value):
    return None if isinstance(value, NotAvailable) else value


def results_json(
    meta: dict,
    datasets: Sequence[Dataset],
    summaries: Sequence[Summary],
    profiles: Sequence[DepthProfile],
) -> dict:
    """Return the results.json document (see the module docstring)."""
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "metadata": meta,
        "datasets": [
            {
                "name": d.name,
                "path": d.path,
                "sha256": d.sha256,
                "grids_in_file": d.total,
                "grids_run": d.count,
                "variant": d.variant,
                "flags": d.flags,
                "flags_from": d.flags_from,
            }
            for d in datasets
        ],
        "summaries": [
            {
                **{k: _json_value(v) for k, v in asdict(s).items()},
                "without_search_pct": _json_value(s.without_search_pct),
                "solved_pct": _json_value(s.solved_pct),
                "us_median": s.seconds_median * 1e6,
                "grids_per_second": _json_value(s.grids_per_second),
            }
            for s in summaries
        ],
        "depth_profiles": [
            {
                **{k: v for k, v in asdict(p).items() if k not in ("lengths", "bxbs")},
                "shares_pct": {b: p.share(b) for b in DEPTH_BUCKETS},
                # refutation-length label -> grids of depth 0-1 (solvers.ratings.length)
                "length_counts": dict(sorted(p.lengths.items())),
                # BxB label -> grids of depth 2 (solvers.ratings.bxb)
                "bxb_counts": dict(sorted(p.bxbs.items())),
            }
            for p in profiles
        ],
    }


def write_json(path: Path, document: dict) -> None:
    """Write the document, renamed into place when complete (`puzzles.outputs`)."""
    write_text(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")


CSV_COLUMNS = (
    "dataset",
    "encoding",
    "position",
    "line",
    "solver",
    "status",
    "solved_without_search",
    "decisions",
    "conflicts",
    "propagations",
    "microseconds",
    "depth",
    "length",
    "bxb",
    "reason",
)


def _csv_value(value) -> str:
    if isinstance(value, NotAvailable):
        return NA
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def write_csv(path: Path, chunks) -> int:
    """Write one row per grid and solver, chunk by chunk; `chunks` yields (the
    dataset, a `ChunkResult` of it) in run order.  Return the number of rows."""
    rows = 0

    def write(handle) -> None:
        nonlocal rows
        writer = csv.writer(handle)
        writer.writerow(CSV_COLUMNS)
        for dataset, chunk in chunks:
            for r in chunk.runs:
                offset = r.position - chunk.first
                writer.writerow(
                    [
                        dataset.name,
                        chunk.encoding,
                        r.position,
                        dataset.lines[r.position],
                        r.result.solver,
                        r.result.status.name,
                        _csv_value(r.without_search),
                        _csv_value(r.result.decisions),
                        _csv_value(r.result.conflicts),
                        _csv_value(r.result.propagations),
                        f"{r.result.seconds * 1e6:.1f}",
                        chunk.depths[offset] if chunk.depths else "",
                        chunk.lengths[offset] if chunk.lengths else "",
                        chunk.bxbs[offset] if chunk.bxbs else "",
                        r.result.reason,
                    ]
                )
                rows += 1

    write_file(path, write)  # renamed into place when complete (`puzzles.outputs`)
    return rows
