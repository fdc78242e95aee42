"""The agreement benchmark's rank statistics, against values worked out by hand (and
against scipy where it happens to be installed), and the command on a small table."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.agreement import main
from studies.rating_agreement import average_ranks, kendall_tau_b, spearman


def test_average_ranks_share_ties():
    assert average_ranks(np.array([10.0, 20.0, 20.0, 5.0])).tolist() == [2.0, 3.5, 3.5, 1.0]


def test_perfect_and_reversed_orders():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert kendall_tau_b([1, 2, 3, 4], [9, 8, 7, 1]) == pytest.approx(-1.0)


def test_kendall_by_hand_with_ties():
    # x = 1 1 2 3, y = 1 2 2 3: pairs (6): concordant 4, discordant 0, tied in x 1 (the
    # first two), tied in y 1 (the middle two): tau-b = 4 / sqrt(5 * 5) = 0.8.
    assert kendall_tau_b([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(0.8)
    # Spearman: ranks 1.5 1.5 3 4 against 1 2.5 2.5 4.
    rx, ry = np.array([1.5, 1.5, 3, 4]), np.array([1, 2.5, 2.5, 4])
    assert spearman([1, 1, 2, 3], [1, 2, 2, 3]) == pytest.approx(np.corrcoef(rx, ry)[0, 1])


def test_constant_side_gives_nan():
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    assert math.isnan(kendall_tau_b([1, 2, 3], [5, 5, 5]))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=3, max_size=40))
def test_same_as_scipy(pairs):
    stats = pytest.importorskip("scipy.stats")
    x, y = [a for a, _ in pairs], [b for _, b in pairs]
    ours_rho, ours_tau = spearman(x, y), kendall_tau_b(x, y)
    if math.isnan(ours_rho):
        assert len(set(x)) == 1 or len(set(y)) == 1
        return
    assert ours_rho == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-9)
    assert ours_tau == pytest.approx(stats.kendalltau(x, y).statistic, abs=1e-9)


ROWS = [
    # singles alone (W = 0), then two grids of Berthier's collection (W 2 and 4)
    ("7..1523........92....3.....1....47.8.......6............9...5.6.4.9.7...8....6.1.", 0),
    ("....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38", 2),
    ("..3....8..5.78.1....91....52.......6..7....3.6...1.......2..9....16..3..9725...1.", 4),
]


def _small_table(tmp_path):
    table = tmp_path / "rated.tsv"
    table.write_text(
        "puzzle\tnb_clues\tW\n" + "".join(f"{p}\t0\t{w}\n" for p, w in ROWS), encoding="utf-8"
    )
    return table


def test_command_on_a_small_table(tmp_path, capsys):
    table = _small_table(tmp_path)
    assert main([str(table), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\| W +\| 3 +\| 1\.0000 +\| 1\.0000 +\|", out), out
    assert "rating == W: 3 of 3 (100.00%)" in out
    assert "W = 0: 1 puzzles, 1 rated 0" in out
    assert "nb_clues" not in out
    assert "no wall-clock limit: the results depend on the input alone" in out
    assert "rated 3 (0 unsettled: 0 past the work budget, 0 past the time limit" in out


def test_a_budget_stop_is_told_from_a_time_limit(tmp_path, capsys):
    """The header says what left puzzles unsettled: the work budget (the same on every
    machine) apart from the time limit, and says when the results depend on the machine."""
    table = _small_table(tmp_path)
    assert main([str(table), "--workers", "1", "--budget", "searches=1"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"rated (\d) \((\d) unsettled: (\d) past the work budget, 0 past", out)
    assert found and int(found[2]) == int(found[3]) >= 1 and int(found[1]) + int(found[2]) == 3
    assert "the results depend on the input alone" in out
    assert main([str(table), "--workers", "1", "--timeout", "30"]) == 0
    out = capsys.readouterr().out
    assert "wall-clock limit 30 s a puzzle (--timeout): the results depend on this machine" in out


def test_ratings_are_read_on_the_puzzles_own_lines(tmp_path, capsys):
    # a comment row the puzzle reader skips must not shift the ratings by one row
    table = tmp_path / "rated.tsv"
    table.write_text(
        "puzzle\tW\n"
        "7..1523........92....3.....1....47.8.......6............9...5.6.4.9.7...8....6.1.\t0\n"
        "# a comment row, skipped\t9\n"
        "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38\t2\n",
        encoding="utf-8",
    )
    assert main([str(table), "--workers", "1"]) == 0
    assert "rating == W: 2 of 2 (100.00%)" in capsys.readouterr().out
