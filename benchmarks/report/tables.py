"""A benchmark run as text: the Markdown tables of its summaries and depth profiles.

`markdown` writes the run's document (the headline: % solved without search, sets by
solvers; then one table per set, the depth profiles and the finer ratings' tables);
`table` is the one table format of the project's reports (`benchmarks compare` and
`benchmarks speed` print theirs with it).  A figure not available is NA ("n/a"), never
0; a solver that did not run on a set is NOT_RUN in the headline.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from tabulate import tabulate

from benchmarks.report.tallies import (
    DepthProfile,
    Headline,
    Number,
    Summary,
    counts_median,
    headline,
)
from benchmarks.sets import Dataset
from solvers.budgets import OVER_BUDGET
from solvers.results import DEPTH_BUCKETS, NotAvailable

NA = "n/a"


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
            row += [f"{counts_median(settled):g}", f"{mean:.2f}"]
        else:
            row += [NA, NA]
        row += [f"{100 * s / total:.2f}" for s in shares]
        rows.append(row)
    return rows


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


NOT_RUN = "–"  # the headline's cell of a solver that did not run on a set (as the heat map)


def headline_table(top: Headline) -> str:
    """Return the headline as one table: a row per set (and encoding, when the run has
    several), a column per solver, the % of its grids solved without search."""
    several = len(top.encodings) > 1
    headers = ["dataset", *(["encoding"] if several else []), *top.solvers]
    rows = [
        [
            dataset,
            *([encoding] if several else []),
            *(NOT_RUN if v is None else f"{v:.2f}" for v in values),
        ]
        for dataset, encoding, values in top.rows
    ]
    return table(rows, headers, text_columns=2 if several else 1)


def markdown(
    datasets: Sequence[Dataset],
    summaries: Sequence[Summary],
    profiles: Sequence[DepthProfile],
    header: str = "",
) -> str:
    """Return the run's Markdown: one table per set, then the depth profiles."""
    parts = [header] if header else []
    top = headline(summaries)
    if top is not None:
        parts.append("### Solved without search (% of grids; closures: solved at all)")
        parts.append(headline_table(top))
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


def solver_times(summaries: Sequence[Summary]) -> str:
    """Return the table of each solver's grids and seconds in its timed calls, summed
    over every set, encoding and worker."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for s in summaries:
        totals[s.solver][0] += s.grids
        totals[s.solver][1] += s.seconds_total
    rows = [[name, f"{g:,}", f"{sec:,.2f}"] for name, (g, sec) in totals.items()]
    return table(rows, ["solver", "grids", "seconds in solver calls"])
