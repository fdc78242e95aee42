"""Random placement gives up after a bounded number of tries and says so: 81 givens on a
9x9 grid are never placed at random (`benchmarks stats --givens 81-81` ran forever)."""

from __future__ import annotations

import random

import pytest

import benchmarks.__main__ as front
import puzzles.generation as generation
from encoder.geometry import standard


def test_random_placement_gives_up():
    with pytest.raises(generation.PlacementError, match=r"81 givens .* in 50 tries"):
        generation.random_placement(standard(9), 81, random.Random(1), tries=50)


def test_random_placement_within_its_bound_is_unchanged():
    grid, dead_ends = generation.random_placement(standard(9), 30, random.Random(7))
    assert sum(1 for value in grid if value) == 30 and dead_ends < 50


def test_stats_says_when_it_gives_up(monkeypatch, capsys):
    monkeypatch.setattr(generation, "MAX_PLACEMENTS", 50)
    argv = ["--givens", "81-81", "--samples", "2", "--methods", "random", "--quiet"]
    assert front.main(["stats", *argv]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.rstrip("\n").splitlines()[-1].startswith("benchmarks: no random placement of 81")
