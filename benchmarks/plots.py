"""PNG plots of a benchmark run (matplotlib, Agg backend: no display needed).

- `no_search.png`: % of grids solved without search, one group of bars per set, one
  bar per solver (one panel per encoding); solvers that cannot tell are left out.
- `depth_profile.png`: one stacked bar per set (and encoding): the share of grids
  needing depth 0, 1, 2, 3, more, or UNSAT.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.report import DepthProfile, Summary
from puzzles.outputs import write_png
from solvers.results import DEPTH_BUCKETS, NotAvailable


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_no_search(summaries: Sequence[Summary], path: Path) -> bool:
    """Write the no-search bar chart; return False when there is nothing to plot."""
    shown = [s for s in summaries if not isinstance(s.without_search_pct, NotAvailable)]
    if not shown:
        return False
    plt = _pyplot()
    encodings = list(dict.fromkeys(s.encoding for s in shown))
    datasets = list(dict.fromkeys(s.dataset for s in shown))
    solvers = list(dict.fromkeys(s.solver for s in shown))
    width = max(6.0, 1.1 * len(datasets) * max(1, len(solvers)) / 3 + 2)
    fig, axes = plt.subplots(
        len(encodings), 1, figsize=(width, 3.6 * len(encodings)), squeeze=False
    )
    bar = 0.8 / len(solvers)
    for ax, encoding in zip(axes[:, 0], encodings, strict=True):
        for k, solver in enumerate(solvers):
            values = {
                s.dataset: s.without_search_pct
                for s in shown
                if s.encoding == encoding and s.solver == solver
            }
            xs = [i + (k - (len(solvers) - 1) / 2) * bar for i, d in enumerate(datasets)]
            ax.bar(xs, [values.get(d, 0.0) for d in datasets], bar, label=solver)
        ax.set_xticks(range(len(datasets)))
        ax.set_xticklabels(datasets, rotation=20, ha="right", fontsize=8)
        ax.set_ylim(0, 105)
        ax.set_ylabel("% solved without search")
        ax.set_title(f"encoding: {encoding}")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7, ncol=min(len(solvers), 4), loc="upper right")
    fig.tight_layout()
    write_png(fig, path, dpi=110)
    return True


def plot_depth_profile(profiles: Sequence[DepthProfile], path: Path) -> bool:
    """Write the stacked depth-profile bars; return False when there is nothing to plot."""
    if not profiles:
        return False
    plt = _pyplot()
    several = len({p.encoding for p in profiles}) > 1
    labels = [f"{p.dataset} ({p.encoding})" if several else p.dataset for p in profiles]
    max_depth = max(p.max_depth for p in profiles)
    buckets = [b for b in DEPTH_BUCKETS if not b.isdigit() or int(b) <= max_depth]
    names = {"more": f"> {max_depth}", "unsat": "UNSAT", "timeout": "time limit"}
    colours = plt.get_cmap("viridis")
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(profiles) + 1.6))
    left = [0.0] * len(profiles)
    for k, bucket in enumerate(buckets):
        shares = [p.share(bucket) for p in profiles]
        if not any(shares):
            continue
        colour = "lightgrey" if bucket == "unsat" else colours(k / max(1, len(buckets) - 1))
        label = names.get(bucket, f"depth {bucket}")
        ax.barh(range(len(profiles)), shares, left=left, color=colour, label=label)
        left = [a + b for a, b in zip(left, shares, strict=True)]
    ax.set_yticks(range(len(profiles)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of grids")
    ax.set_title("Depth of failed-literal reasoning needed (home-grown engine)")
    ax.legend(fontsize=7, ncol=len(buckets), loc="lower center", bbox_to_anchor=(0.5, 1.08))
    fig.tight_layout()
    write_png(fig, path, dpi=110)
    return True
