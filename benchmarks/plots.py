"""PNG plots of a benchmark run (matplotlib figures drawn by Agg, without pyplot: no
display needed, and none of pyplot's start-up in the main job).

- `no_search.png`: % of grids solved without search as a heatmap, one panel per
  encoding: a row per set, a column per solver, the value written in each cell (a cell
  left blank and marked "–" when the solver did not run on that set, so a missing value
  is never read as 0); solvers that cannot tell are left out.
- `depth_profile.png`: one stacked bar per set (and encoding): the share of grids
  needing depth 0, 1, 2, 3, more, or UNSAT.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.report.tallies import DepthProfile, Summary, headline
from puzzles.outputs import write_png
from solvers.results import DEPTH_BUCKETS


def _figure(**options):
    """Return a figure of its own (no pyplot state: nothing to close, no backend chosen);
    savefig draws it with Agg."""
    from matplotlib.figure import Figure

    return Figure(**options)


def _colours(name: str):
    import matplotlib

    return matplotlib.colormaps[name]


def plot_no_search(summaries: Sequence[Summary], path: Path) -> bool:
    """Write the no-search heatmap; return False when there is nothing to plot."""
    table = headline(summaries)
    if table is None:
        return False
    import numpy as np

    encodings = table.encodings
    datasets = list(dict.fromkeys(dataset for dataset, _, _ in table.rows))
    solvers = table.solvers
    cell_w, cell_h = 0.85, 0.32
    label_w = 0.075 * max(len(d) for d in datasets) + 0.6
    panel_w = label_w + cell_w * len(solvers) + 0.4
    columns = min(len(encodings), max(1, int(16 // panel_w)))
    rows = -(-len(encodings) // columns)
    panel_h = cell_h * len(datasets) + 1.3
    fig = _figure(figsize=(panel_w * columns + 1.2, panel_h * rows), layout="constrained")
    axes = fig.subplots(rows, columns, squeeze=False)
    cmap = _colours("viridis").with_extremes(bad="whitesmoke")  # a cell nothing ran in
    image = None
    for ax, encoding in zip(axes.flat, encodings, strict=False):
        values = np.full((len(datasets), len(solvers)), np.nan)
        for dataset, mine, row in table.rows:
            if mine == encoding:
                values[datasets.index(dataset)] = [np.nan if v is None else v for v in row]
        image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=0, vmax=100, aspect="auto")
        for (i, j), value in np.ndenumerate(values):
            if np.isnan(value):
                text, colour = "–", "grey"
            else:  # viridis is dark below about 60 %, light above
                text = f"{value:.0f}" if value in (0, 100) else f"{value:.1f}"
                colour = "black" if value > 60 else "white"
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
        ax.set_xticks(range(len(solvers)))
        ax.set_xticklabels(solvers, rotation=35, ha="right", fontsize=7)
        ax.set_yticks(range(len(datasets)))
        ax.set_yticklabels(datasets, fontsize=7)
        ax.set_title(f"encoding: {encoding}", fontsize=9)
        ax.tick_params(length=0)
    for ax in list(axes.flat)[len(encodings) :]:
        ax.axis("off")
    fig.suptitle(
        "% of grids solved without search (closures: solved; others: root propagation)", fontsize=9
    )
    if image is not None:
        fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.6, label="% no search")
    write_png(fig, path, dpi=110)
    return True


def plot_depth_profile(profiles: Sequence[DepthProfile], path: Path) -> bool:
    """Write the stacked depth-profile bars; return False when there is nothing to plot."""
    if not profiles:
        return False
    several = len({p.encoding for p in profiles}) > 1
    labels = [f"{p.dataset} ({p.encoding})" if several else p.dataset for p in profiles]
    max_depth = max(p.max_depth for p in profiles)
    buckets = [b for b in DEPTH_BUCKETS if not b.isdigit() or int(b) <= max_depth]
    names = {"more": f"> {max_depth}", "unsat": "UNSAT", "timeout": "time limit"}
    colours = _colours("viridis")
    fig = _figure(figsize=(8, 0.45 * len(profiles) + 1.6))
    ax = fig.subplots()
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
    # the legend sits in a row above the bars: the title above it
    ax.set_title("Depth of failed-literal reasoning needed (home-grown engine)", pad=24)
    ax.legend(fontsize=7, ncol=len(buckets), loc="lower center", bbox_to_anchor=(0.5, 1.08))
    fig.tight_layout()
    write_png(fig, path, dpi=110)
    return True
