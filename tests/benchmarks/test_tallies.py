"""The running counters behind the tables (`benchmarks.report.tallies`): the same medians and
means as the figures computed from every value, and "not available" kept as such; the
headline (% solved without search, sets by solvers) as the text and results.json give it."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter

from benchmarks.__main__ import main as benchmarks_main
from benchmarks.chunks import GridRun
from benchmarks.paths import SETS
from benchmarks.report.tables import NOT_RUN, headline_table
from benchmarks.report.tallies import (
    DepthTally,
    SolverTally,
    Summary,
    counts_median,
    headline,
)
from solvers.results import NOT_AVAILABLE, SolverResult, Status


def test_the_median_of_counted_values_is_the_median_of_the_values():
    draw = random.Random(24)
    for count in range(1, 200):
        values = [draw.randint(0, 30) for _ in range(count)]
        assert counts_median(Counter(values)) == float(statistics.median(values))


def _run(position: int, decisions, status=Status.SAT, seconds=1e-5) -> GridRun:
    result = SolverResult("minisat22", status, (), True, decisions, 3, 9, seconds)
    return GridRun(position, result, status is Status.SAT)


def test_a_tally_gives_the_figures_of_every_grid():
    draw = random.Random(7)
    runs = [_run(i, draw.randint(0, 9), draw.choice(list(Status))) for i in range(101)]
    tally = SolverTally()
    for run in runs:
        tally.add(run)
    summary = tally.summary("set", "centrale", "minisat22")
    decisions = [r.result.decisions for r in runs]
    assert summary.grids == 101
    assert summary.decisions_median == statistics.median(decisions)
    assert summary.decisions_mean == statistics.fmean(decisions)
    assert summary.solved == sum(r.result.status is Status.SAT for r in runs)
    assert summary.unknown == sum(r.result.status is Status.UNKNOWN for r in runs)
    assert summary.without_search == summary.solved
    assert abs(summary.seconds_median - 1e-5) < 1e-7
    tally.add(_run(101, NOT_AVAILABLE))
    summary = tally.summary("set", "centrale", "minisat22")
    assert summary.decisions_median is NOT_AVAILABLE and summary.decisions_mean is NOT_AVAILABLE
    assert summary.conflicts_mean == 3.0


def test_a_depth_tally_counts_labels():
    tally = DepthTally()
    tally.add(["0", "1", "1", "2"], ["0", "3", "3", ""], ["", "", "", "2"])
    tally.add(["unsat"], [">1"], [""])
    profile = tally.profile("set", "centrale", 3)
    assert profile.grids == 5
    assert profile.counts["1"] == 2 and profile.counts["unsat"] == 1 and profile.counts["2"] == 1
    assert profile.lengths == {"0": 1, "3": 2, ">1": 1}  # each rating's own grids only
    assert profile.bxbs == {"2": 1}


def _summary(dataset: str, solver: str, without) -> Summary:
    return Summary(dataset, "centrale", solver, 4, without, 4, 0, 0, 0, 0, 0, 0, 1e-5, 4e-5)


def test_the_headline_is_the_summaries_percent_without_search_sets_by_solvers():
    summaries = [
        _summary("a", "up", 1),
        _summary("a", "minisat22", 3),
        _summary("b", "up", 4),  # minisat22 did not run on b
        _summary("b", "kissat", NOT_AVAILABLE),  # cannot tell: left out
    ]
    top = headline(summaries)
    assert top.solvers == ("up", "minisat22")
    assert top.rows == (("a", "centrale", (25.0, 75.0)), ("b", "centrale", (100.0, None)))
    lines = headline_table(top).splitlines()
    cells = [[cell.strip() for cell in line.split("|")[1:-1]] for line in lines]
    assert cells[0] == ["dataset", "up", "minisat22"]
    assert cells[2:] == [["a", "25.00", "75.00"], ["b", "100.00", NOT_RUN]]
    assert headline([_summary("a", "kissat", NOT_AVAILABLE)]) is None


def test_a_run_opens_with_the_headline_in_its_text_and_its_json(tmp_path, capsys):
    out = tmp_path / "out"
    sets = [str(SETS / "sudoku4_minimal.txt"), str(SETS / "sudoku9_depth1.txt")]
    args = [*sets, "--limit", "6", "--workers", "1", "--quiet", "--solvers", "up,fl,minisat22"]
    assert benchmarks_main(["run", *args, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    document = json.loads((out / "results.json").read_text())
    assert list(document)[:3] == ["schema", "version", "headline"]
    expected = {(s["dataset"], s["solver"]): s["without_search_pct"] for s in document["summaries"]}
    rows = document["headline"]["rows"]
    assert {(r["dataset"], k): v for r in rows for k, v in r["without_search_pct"].items()} == (
        expected
    )
    # the text's first table after the run's notes is the headline, with the same figures
    first = text.split("\n\n")[2:4]
    assert first[0].startswith("### Solved without search")
    body = [[c.strip() for c in line.split("|")[1:-1]] for line in first[1].splitlines()]
    assert body[0] == ["dataset", *document["headline"]["solvers"]]
    for cells, row in zip(body[2:], rows, strict=True):
        assert cells[0] == row["dataset"]
        assert cells[1:] == [f"{v:.2f}" for v in row["without_search_pct"].values()]
