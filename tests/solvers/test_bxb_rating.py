"""The BxB rating of depth-2 grids: Berthier's published BxB on a few of eleven's
T&E(2) puzzles, the definition checked level by level from a fresh state (the rating's
shortcut, one growing state for p = 1, 2, ..., must not change it), the solution it
reaches checked independently, the length column's choice between the two ratings, and
the time limit."""

from __future__ import annotations

import csv
import time

import numpy as np
import pytest

from encoder.check import is_solution
from encoder.geometry import standard
from encoder.grids import parse_grid
from encoder.status import Status
from solvers.core import length as K
from solvers.ratings import bxb as B
from solvers.ratings.length import RefutationRater

GEOMETRY = standard(9)
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
BERTHIER_W2 = "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38"
# A depth-2 grid of eleven's list that Berthier classifies BxB = 2 (its line 26,361).
ELEVEN_B2B = "12.4....945.....2...9.......6...58......6...7..19...5.3...78.........3....52...4."


@pytest.fixture(scope="module")
def rater():
    return B.BxbRater(GEOMETRY)


def solves_at(rater: B.BxbRater, grid, p: int) -> tuple[int, tuple[int, ...]]:
    """Run T&E(B_p) alone from the givens (no state carried from smaller p, no
    solution known, no saved hypotheses); return its status and the values placed."""
    r = rater.lengths
    T = r.start(grid)
    nothing_known = np.zeros(r.num_candidates, np.bool_)
    no_memo = (np.zeros((0, 2 * r.num_vars), np.int8), np.zeros(0, np.int64), np.zeros(0, bool))
    status, _ = B.trial_and_error(
        r.formula, T, rater._workspace, r.X, r.num_candidates, p, B.NO_DEADLINE,
        nothing_known, no_memo, B.new_work(),
    )  # fmt: skip
    return status, r.values(T)


def test_the_rating_is_the_smallest_p_that_solves(rater):
    grid = parse_grid(ELEVEN_B2B, GEOMETRY)
    rated = rater.rate(grid)
    assert rated.status is Status.SAT and rated.label() == str(rated.value) == "2"
    below, _ = solves_at(rater, grid, rated.value - 1)
    at, values = solves_at(rater, grid, rated.value)
    assert below == K.STUCK and at == K.SOLVED
    assert is_solution(values, grid, GEOMETRY)


@pytest.mark.slow
def test_agrees_with_berthier_bxb_on_elevens_puzzles(rater, public):
    path = public.set("berthier-eleven-te2")
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    sample = rows[-1::-700][:7]  # the easy end of a list sorted hardest first
    ours = [rater.rate(parse_grid(row["puzzle"], GEOMETRY)).value for row in sample]
    theirs = [int(row["BxB"]) for row in sample]
    assert sum(a == b for a, b in zip(ours, theirs, strict=True)) >= 6, (ours, theirs)


def test_the_length_column_rates_depth_1_grids_by_length_and_depth_2_by_bxb():
    column = B.LengthColumn(GEOMETRY)
    depth_1 = column.rate(parse_grid(BERTHIER_W2, GEOMETRY))
    assert (depth_1.label, depth_1.rating) == ("2", "length")
    assert (
        depth_1.label == RefutationRater(GEOMETRY).rate(parse_grid(BERTHIER_W2, GEOMETRY)).label()
    )
    depth_2 = column.rate(parse_grid(ELEVEN_B2B, GEOMETRY))
    assert (depth_2.label, depth_2.rating) == ("2", "BxB")
    # told the depth, the same answer without the depth-1 attempt
    assert column.rate(parse_grid(ELEVEN_B2B, GEOMETRY), depth=2).label == "2"
    # a larger --length-depth still asks for the nested refutation length
    assert column.rate(parse_grid(BERTHIER_W2, GEOMETRY), length_depth=2).rating == "length"


def test_a_grid_without_solution_is_unsat(rater):
    clash = "11" + "." * 79
    assert rater.rate(parse_grid(clash, GEOMETRY)).label() == "unsat"


def test_the_time_limit_is_checked_between_refutations():
    # Easter Monster takes 0.3 s on an idle AMD EPYC (2026-11-27): the limit is far below
    # it, so that a quick machine still times out.
    rater = B.BxbRater(GEOMETRY, time_limit=0.05)
    rater.rate(parse_grid(ELEVEN_B2B, GEOMETRY))  # compiled before anything is timed
    begin = time.perf_counter()
    rated = rater.rate(parse_grid(EASTER_MONSTER, GEOMETRY))
    took = time.perf_counter() - begin
    assert rated.timed_out and rated.label() == "timeout" and rated.value is None
    assert took < 0.05 + 1.0  # wide: a loaded machine; the speed benchmark measures 10%
