"""Depth rating and step-by-step explanations, through the API and the command line.

The rating is checked against facts that do not come from the rater: the share of the
17-clue list that Minisat22's unit propagation completes, the exam's claim that the
failed-literal rule solves top95, and the three famous depth-2 grids.  Explanations
are checked by replaying them: the final grid must be a solution of the puzzle (by the
independent checker) and every value placed along the way must be in that solution.
"""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.solvers import Minisat22

from encoder.check import is_solution
from encoder.decode import filled_grid
from encoder.encodings import given_literals
from encoder.geometry import make_geometry, standard
from encoder.grids import parse_cells
from encoder.puzzle_files import read_puzzles
from encoder.status import Status
from solvers.core.rules import GridRules
from solvers.explain.steps import Explainer
from solvers.ratings.depth import Rater, Rating
from solvers.ratings.length import RefutationRater, RefutationRating
from solvers.results import depth_bucket

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."
CLASH = "11" + "." * 79
GEOMETRY = standard(9)
SETS = Path(__file__).resolve().parents[2] / "data" / "sets"
# A 4x4 puzzle of the project's own data: the first of data/sets/sudoku4_minimal.txt.
FOUR = next(
    line
    for line in (SETS / "sudoku4_minimal.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)


@pytest.fixture(scope="module")
def rater():
    return Rater(GEOMETRY)


def run_solvers(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "solvers", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_depth_zero_is_exactly_what_minisat_propagation_completes(
    rater, sudoku_formula, givens, grid, public
):
    with Minisat22(bootstrap_with=sudoku_formula.clauses) as minisat:
        for line in public.puzzles("royle17", 300):
            rating = rater.rate(grid(line))
            ok, literals = minisat.propagate(assumptions=givens(line))
            completed = ok and sum(1 for lit in literals if lit > 0) == 81
            assert (rating.depth == 0) == completed, line
            assert rating.status is Status.SAT and rating.depth in (0, 1)
            assert is_solution(rating.solution, grid(line), GEOMETRY)


def test_top95_needs_exactly_depth_1(rater, grid, public):
    for line in public.puzzles("top95"):
        rating = rater.rate(grid(line))
        assert (rating.depth, rating.depth_label()) == (1, "1")
        assert is_solution(rating.solution, grid(line), GEOMETRY)


def test_famous_grids_need_depth_2(rater, grid):
    for line in (EASTER_MONSTER, GOLDEN_NUGGET):
        assert rater.rate(grid(line), max_depth=1).depth_label() == ">1"
        rating = rater.rate(grid(line), max_depth=2)
        assert rating.depth_label() == "2"
        assert is_solution(rating.solution, grid(line), GEOMETRY)


def test_contradiction_is_rated_unsat(rater, grid):
    rating = rater.rate(grid(CLASH))
    assert (rating.status, rating.depth_label(), rating.solution) == (Status.UNSAT, "unsat@0", ())


@pytest.mark.parametrize(
    ("status", "depth", "timed_out", "label", "bucket"),
    [
        (Status.SAT, 0, False, "0", "0"),
        (Status.SAT, 3, False, "3", "3"),
        (Status.SAT, 4, False, "4", "more"),
        (Status.UNKNOWN, 5, False, ">5", "more"),
        (Status.UNSAT, 1, False, "unsat@1", "unsat"),
        (Status.UNKNOWN, 2, True, "timeout@2", "timeout"),
    ],
)
def test_one_label_maker_for_rate_and_the_harness(status, depth, timed_out, label, bucket):
    # rate's label and the harness's bucket of the same rating come from one maker
    rating = Rating(depth, status, 5, 0.0, timed_out=timed_out)
    assert (rating.depth_label(), rating.bucket()) == (label, bucket)
    assert depth_bucket(label) == bucket
    length = RefutationRating(depth, 1, status, 0, 0.0, timed_out=timed_out)
    assert length.label() == label.partition("@")[0].replace(">5", ">1")


def test_positive_polarity_never_rates_lower(grid, public):
    both, positive = Rater(GEOMETRY), Rater(GEOMETRY, polarity="positive")
    for line in public.puzzles("hardest"):
        assert positive.rate(grid(line), 3).depth >= both.rate(grid(line), 3).depth


def test_other_encodings_agree_at_depth_0(grid, public):
    # natural and centrale hold the same clauses up to subsumption for UP on givens,
    # the minimal encoding is weaker: it can only need more depth.
    centrale, minimal = Rater(GEOMETRY), Rater(GEOMETRY, "minimal")
    for line in public.puzzles("royle17", 100):
        assert minimal.rate(grid(line)).depth >= centrale.rate(grid(line)).depth


@pytest.mark.parametrize(
    "encoding",
    ["centrale", "minimal", "natural", pytest.param("centrale+ladder", marks=pytest.mark.slow)],
)
def test_depth_0_is_length_0_and_back(encoding):
    # The length column rates a grid of depth 0 at once (LengthColumn.rate): unit
    # propagation over the same rules fills it, which is the length rating's first step.
    # (The 16x16 set aside: its length ratings take seconds a grid.)
    seen = 0
    for path in sorted(set(SETS.glob("*.txt")) - {SETS / "sudoku16_minimal.txt"}):
        raters = {}
        for puzzle in itertools.islice(read_puzzles(str(path)), 6):
            g = puzzle.geometry
            if g not in raters:
                raters[g] = (Rater(g, encoding), RefutationRater(g, encoding))
            depth, length = raters[g][0].rate(puzzle.grid, 1), raters[g][1].rate(puzzle.grid, 1)
            zero_depth = depth.depth == 0 and depth.status is Status.SAT
            assert zero_depth == (length.length == 0 and length.status is Status.SAT), path.name
            seen += zero_depth
    assert seen > 10


def test_rate_cli_output(tmp_path, public):
    lines = public.puzzles("hardest")[:4]
    path = tmp_path / "grids.txt"
    path.write_text("# four hard grids\n\n" + "\n".join([*lines, EASTER_MONSTER]) + "\n")
    done = run_solvers("rate", str(path), "--max-depth", "1")
    assert done.returncode == 0, done.stderr
    rows = [row.split("\t") for row in done.stdout.splitlines()]
    assert [row[0] for row in rows] == ["0", "1", "2", "3", "4"]
    assert [row[1] for row in rows] == [*lines, EASTER_MONSTER]
    assert rows[-1][2] == ">1"
    assert all(re.fullmatch(r"[01]|>1", row[2]) for row in rows)
    # the length column: the refutation length where depth 1 suffices, BxB where it
    # does not (unless the 10 s limit of a loaded machine stops it)
    assert all(re.fullmatch(r"\d+", row[3]) for row in rows if row[2] != ">1")
    assert all(re.fullmatch(r"\d+|timeout", row[3]) for row in rows if row[2] == ">1")
    assert all(float(row[4]) >= 0 for row in rows)


def test_rate_cli_reports_unsat_and_goes_on(tmp_path):
    path = tmp_path / "grids.txt"
    path.write_text(f"{CLASH}\n{EASTER_MONSTER}\n")
    done = run_solvers("rate", str(path))
    assert done.returncode == 0
    assert [row.split("\t")[2] for row in done.stdout.splitlines()] == ["unsat@0", "2"]
    assert "no solution" in done.stderr and "row 0" in done.stderr.lower()
    assert "Traceback" not in done.stderr


def test_rate_cli_variant_from_stdin():
    done = run_solvers("rate", "-", "--size", "4", stdin=FOUR + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\t")[2] in {"0", "1", "2", ">2"}


@pytest.mark.parametrize(
    ("text", "problem"),
    [("12345", "cells"), ("x" * 81, "symbol")],
)
def test_rate_cli_bad_grid(tmp_path, text, problem):
    path = tmp_path / "bad.txt"
    path.write_text(f"{EASTER_MONSTER}\n{text}\n")
    done = run_solvers("rate", str(path))
    assert done.returncode == 1
    assert done.stderr.startswith(f"solvers: {path}:2:") and problem in done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def final_grid(lines: list[str]) -> tuple[int, ...]:
    """Read the grid printed after 'Solved:' (digits of the boxed layout)."""
    start = lines.index("Solved:") + 1
    digits = "".join(ch for line in lines[start:] for ch in line if ch.isdigit())
    return tuple(int(ch) for ch in digits)


def placements(lines: list[str]) -> list[tuple[int, int, int]]:
    return [
        (int(m[1]) - 1, int(m[2]) - 1, int(m[3]))  # players' r1c1 is cell (0, 0)
        for m in (re.match(r"\s+r(\d+)c(\d+)=(\d)\s", line) for line in lines)
        if m
    ]


@pytest.mark.parametrize("name", ["up", "depth1", "depth2"])
def test_explanation_replays_to_the_solution(name, grid, public, rater, easter_monster):
    line = {
        "up": lambda: next(
            x for x in public.puzzles("royle17", 50) if rater.rate(grid(x)).depth == 0
        ),
        "depth1": lambda: public.puzzles("top95", 1)[0],
        "depth2": lambda: EASTER_MONSTER,
    }[name]()
    if name == "depth2":  # the session's explanation (its lines are Explainer.explain's)
        lines = [text for step in easter_monster[2] for text in step.lines]
    else:
        lines = list(Explainer(GEOMETRY).explain(grid(line), max_depth=2))
    solution = final_grid(lines)
    assert is_solution(solution, grid(line), GEOMETRY)
    placed = placements(lines)
    givens = sum(1 for value in grid(line) if value)
    assert len(placed) == 81 - givens  # every empty cell placed once, with a reason
    assert all(solution[9 * i + j] == k for i, j, k in placed)
    refuted = [x for x in lines if re.match(r"  r\dc\d≠\d  \(length \d+\): if r\dc\d=\d, then ", x)]
    assert (len(refuted) > 0) == (name != "up")
    lengths = [int(re.search(r"length (\d+)", x).group(1)) for x in refuted]
    assert all(length >= 1 for length in lengths)
    hypotheses = [i for i, x in enumerate(lines) if x.startswith("Suppose")]
    if name == "depth2":
        # each nested refutation: the hypothesis and its length bound p, the values
        # refutations of length <= p rule out under it (each with its chain), what breaks
        header = r"Suppose r\dc\d=\d \(nested, braids of length <= (\d+)\):$"
        assert hypotheses and all(re.match(header, lines[i]) for i in hypotheses)
        for i in hypotheses:
            p = int(re.match(header, lines[i]).group(1))
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("    then "))
            assert re.search(r"So r\dc\d≠\d\.$", lines[end])
            for inner in lines[i + 1 : end]:
                found = re.match(r"    r\dc\d≠\d  \(length (\d+)\): if r\dc\d=\d, then ", inner)
                assert found and 1 <= int(found.group(1)) <= p, inner
    else:
        assert not hypotheses


def test_explanation_names_single_kinds(grid, public):
    line = public.puzzles("royle17", 1)[0]
    text = "\n".join(Explainer(GEOMETRY).explain(grid(line)))
    assert "hidden single" in text or "naked single" in text


def test_explanation_stops_where_search_is_needed(grid):
    lines = list(Explainer(GEOMETRY).explain(grid(EASTER_MONSTER), max_depth=1))
    assert "Solved:" not in lines
    assert "search" in lines[-1]


def test_explanation_of_a_contradiction(grid):
    lines = list(Explainer(GEOMETRY).explain(grid(CLASH)))
    assert lines[-1] == (
        "Contradiction in the givens: value 1 given twice in row 0: cells (0,0) and (0,1) "
        "(0-based row,column). The grid has no solution."
    )


def test_explain_zero_based_numbers_from_0(grid):
    line = "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38"
    players = "\n".join(Explainer(GEOMETRY).explain(grid(line), max_depth=1))
    programmers = "\n".join(Explainer(GEOMETRY, zero_based=True).explain(grid(line), max_depth=1))
    assert "r9c" in players and "r0c" not in players and "box 9" in players
    assert "r0c" in programmers and "r9c" not in programmers and "box 9" not in programmers


def test_explanation_follows_the_rating(grid, public):
    """The longest refutation explain prints is the grid's refutation-length rating."""
    rater = RefutationRater(GEOMETRY)
    for line in public.puzzles("top95", 5):
        text = "\n".join(Explainer(GEOMETRY).explain(grid(line), max_depth=1))
        printed = [int(x) for x in re.findall(r"\(length (\d+)\)", text)]
        assert max(printed) == rater.rate(grid(line), max_depth=1).length


def test_explain_cli_on_a_variant():
    done = run_solvers("explain", FOUR)
    assert done.returncode == 0, done.stderr
    assert "Solved:" in done.stdout
    geometry = make_geometry(4)
    solution = final_grid(done.stdout.splitlines())
    assert is_solution(solution, parse_cells(FOUR, geometry), geometry)


def test_explain_cli_file_needs_index(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(f"{EASTER_MONSTER}\n{GOLDEN_NUGGET}\n")
    done = run_solvers("explain", str(path))
    assert done.returncode == 1 and "--index" in done.stderr
    done = run_solvers("explain", str(path), "--index", "1", "--max-depth", "1")
    assert done.returncode == 0 and "search" in done.stdout.splitlines()[-1]


def _rating_depth_by_depth(engine, grid_values, max_depth):
    """The rating computed the plain way: each depth's closure from scratch."""
    assumptions = given_literals(grid_values, GEOMETRY)
    for depth in range(max_depth + 1):
        if depth == 0:
            ok, literals = engine.propagate(assumptions)
        else:
            ok, literals = engine.probe(assumptions, depth=depth)
        if not ok:
            return f"unsat@{depth}", ()
        solution = filled_grid(literals, GEOMETRY)
        if solution is not None:
            return str(depth), solution
    return f">{max_depth}", ()


@pytest.mark.parametrize(
    ("name", "count", "max_depth"),
    [("royle17", 300, 1), ("top1465", 150, 2), ("forum-hardest-1106", 10, 2)],
)
def test_the_ladder_gives_the_depth_of_the_closures_run_one_by_one(
    rater, grid, public, name, count, max_depth
):
    """Many grids in one compiled call, each depth built on the one below, rate every grid
    as the closures of each depth computed from scratch do (same depth, same grid)."""
    lines = public.puzzles(name, count)
    ratings = rater.rate_many([grid(line) for line in lines], max_depth)
    engine = GridRules(GEOMETRY).engine  # the clause engine, beside the board's depth loop
    for line, rating in zip(lines, ratings, strict=True):
        expected = _rating_depth_by_depth(engine, grid(line), max_depth)
        assert (rating.depth_label(), rating.solution) == expected, line
        if rating.solution:
            assert is_solution(rating.solution, grid(line), GEOMETRY)


SOLVED = "174385962293467158586192734451923876928674315367851249719548623635219487842736591"


@pytest.mark.parametrize(
    "first, error, words",
    [(257, ValueError, "0..N, not 1..257"), (1.9, TypeError, "float64"),
     (True, TypeError, "bool")],
)  # fmt: skip
def test_rater_refuses_values_a_cast_would_change(first, error, words):
    """An array grid is checked before it becomes int8: 257 (wrapped to 1) and 1.9
    (truncated to 1) were rated SAT at depth 2, as the grid they are not."""
    import numpy as np

    values = [first] + [int(c) for c in SOLVED[1:]]
    grid = np.array([True] * 81) if first is True else np.array(values)
    with pytest.raises(error, match=words):
        Rater(standard()).rate(grid)


def test_rater_reads_a_flat_array_of_whole_grids():
    import numpy as np

    ratings = Rater(standard()).rate_many(np.array([int(c) for c in SOLVED] * 3))
    assert [r.status for r in ratings] == [Status.SAT] * 3
