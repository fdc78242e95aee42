"""The running counters behind the tables (`benchmarks.report.tallies`): the same medians and
means as the figures computed from every value, and "not available" kept as such; the
headline (% solved without search, sets by solvers) as the text and results.json give it."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from dataclasses import replace

from benchmarks.__main__ import main as benchmarks_main
from benchmarks.paths import SETS
from benchmarks.report.tables import NOT_RUN, headline_table
from benchmarks.report.tallies import (
    DepthTally,
    SolverTally,
    Summary,
    counts_median,
    headline,
)
from solvers.results import NOT_AVAILABLE, Answers, SolverResult, Status


def test_the_median_of_counted_values_is_the_median_of_the_values():
    draw = random.Random(24)
    for count in range(1, 200):
        values = [draw.randint(0, 30) for _ in range(count)]
        assert counts_median(Counter(values)) == float(statistics.median(values))


def _record(decisions, status=Status.SAT, seconds=1e-5) -> SolverResult:
    return SolverResult("minisat22", status, (), status is Status.SAT, decisions, 3, 9, seconds)


def test_a_tally_gives_the_figures_of_every_grid():
    draw = random.Random(7)
    records = [_record(draw.randint(0, 9), draw.choice(list(Status))) for _ in range(101)]
    tally = SolverTally()
    for chunk in (records[:40], records[40:]):  # counted chunk by chunk, in columns
        tally.add(Answers.from_results("minisat22", chunk))
    summary = tally.summary("set", "centrale", "minisat22")
    decisions = [r.decisions for r in records]
    assert summary.grids == 101
    assert summary.decisions_median == statistics.median(decisions)
    assert summary.decisions_mean == statistics.fmean(decisions)
    assert summary.solved == sum(r.status is Status.SAT for r in records)
    assert summary.unsat == sum(r.status is Status.UNSAT for r in records)
    assert summary.unknown == sum(r.status is Status.UNKNOWN for r in records)
    assert summary.without_search == summary.solved
    assert abs(summary.seconds_median - 1e-5) < 1e-7
    assert abs(summary.seconds_total - 101e-5) < 1e-9
    tally.add(Answers.from_results("minisat22", [_record(NOT_AVAILABLE)]))
    summary = tally.summary("set", "centrale", "minisat22")
    assert summary.decisions_median is NOT_AVAILABLE and summary.decisions_mean is NOT_AVAILABLE
    assert summary.conflicts_mean == 3.0


def test_answers_give_back_their_records():
    draw = random.Random(3)
    records = [
        SolverResult("cadical195", Status.UNKNOWN, (), NOT_AVAILABLE, 4, NOT_AVAILABLE, 7, 0.5,
                     "stopped", over_budget=True),
        SolverResult("cadical195", Status.UNKNOWN, (), False, 0, 1, 2, 0.25, "late", True),
        SolverResult("cadical195", Status.UNKNOWN, (), False, 0, 1, 2, 0.25, "crash", failed=True),
        *(_record(draw.randint(0, 9), draw.choice([Status.SAT, Status.UNSAT])) for _ in range(5)),
    ]  # fmt: skip
    records = [replace(r, solver="cadical195") for r in records]
    answers = Answers.from_results("cadical195", records)
    assert [answers.record(i) for i in range(len(records))] == records
    both = Answers.concatenate([answers, Answers.from_results("cadical195", records[:2])])
    assert [both.record(i) for i in range(len(both))] == [*records, *records[:2]]
    assert both.reasons == {0: "stopped", 1: "late", 2: "crash", 8: "stopped", 9: "late"}


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
