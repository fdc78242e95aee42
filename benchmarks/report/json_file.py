"""A benchmark run's results.json: its metadata, data sets, summaries and depth profiles.

Layout (SCHEMA, version VERSION): {"schema", "version", "headline": {"solvers", "rows":
[{"dataset", "encoding", "without_search_pct": {solver: %}}]} (`Headline`, null when no
solver can tell), "metadata", "datasets": [...], "summaries": [...], "depth_profiles":
[...]}; `benchmarks compare` reads it.  A figure not
available is null.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from benchmarks.report.tallies import DepthProfile, Summary, headline
from benchmarks.sets import Dataset
from encoder.output_files import write_text
from solvers.results import DEPTH_BUCKETS, NotAvailable

SCHEMA = "sudoku-sat/benchmark-results"
VERSION = 1


def _json_value(value):
    return None if isinstance(value, NotAvailable) else value


def _headline(summaries: Sequence[Summary]) -> dict | None:
    top = headline(summaries)
    if top is None:
        return None
    return {
        "solvers": list(top.solvers),
        "rows": [
            {
                "dataset": d,
                "encoding": e,
                "without_search_pct": dict(zip(top.solvers, v, strict=True)),
            }
            for d, e, v in top.rows
        ],
    }


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
        # the heat map's numbers: % of grids solved without search, sets by solvers
        "headline": _headline(summaries),
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
