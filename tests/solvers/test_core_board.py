"""The native board (solvers.core.Board) answers what the numba board answers, and so
what the clause engine answers, on every variant this processor runs.

Oracles: solvers.board_engine.BoardEngine (the numba board, kept as the test oracle)
for closures, ladders and batches, and the clause engine (Engine.probe on the rules of
the centrale encoding) for random partial grids of every geometry.  Each test runs on
every compiled variant (`variants()`: the baseline and the SIMD builds the processor
has).
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers.core as core
from encoder.encodings import given_literals
from encoder.geometry import Geometry, make_geometry, standard
from encoder.puzzle_files import read_puzzles
from solvers import probe
from solvers.board_engine import BoardEngine
from solvers.grid_engine import GridEngine

PROJECT = Path(__file__).resolve().parents[2]
SETS = sorted((PROJECT / "data" / "sets").glob("*.txt"))
JIGSAW = tuple(
    int(r) - 1
    for r in "111222233111222336111252336444553336474555556477566666477888899477889899477889999"
)
GEOMETRIES = {
    "9x9": make_geometry(9),
    "X": make_geometry(9, diagonals=True),
    "windoku": make_geometry(9, windows=True),
    "jigsaw": make_geometry(9, jigsaw=JIGSAW),
    "4x4": make_geometry(4),
    "6x6": make_geometry(6),
    "8x8": make_geometry(8),
    "12x12": make_geometry(12),
    "16x16": make_geometry(16),
    "X16": make_geometry(16, diagonals=True),
}
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


@pytest.fixture(params=core.variants())
def variant(request):
    """Run the test on one compiled variant, then go back to the best one."""
    best = core.variant()
    core.use_variant(request.param)
    yield request.param
    core.use_variant(best)


@functools.lru_cache(maxsize=32)
def boards(geometry: Geometry) -> tuple[core.Board, BoardEngine]:
    return core.Board(geometry), BoardEngine(geometry)


@functools.lru_cache(maxsize=16)
def clause_engine(geometry: Geometry):
    return GridEngine(geometry).engine


@functools.lru_cache(maxsize=4096)
def oracle_probe(geometry: Geometry, grid: tuple, depth: int, polarity: str):
    ok, lits = boards(geometry)[1].probe(given_literals(grid, geometry), depth, polarity)
    return ok, frozenset(lits)


def assert_same_closures(geometry, grids, depths=(0, 1, 2, 3), polarity="both"):
    board = boards(geometry)[0]
    for grid in grids:
        grid = tuple(grid)
        for depth in depths:
            ok, lits = board.probe(given_literals(grid, geometry), depth, polarity)
            expected_ok, expected = oracle_probe(geometry, grid, depth, polarity)
            assert ok == expected_ok, (grid, depth, polarity)
            assert len(lits) == len(set(lits))
            assert set(lits) == expected, (grid, depth, polarity)


def assert_same_ladder(geometry, grids, max_depth, polarity="both"):
    board, numba_board = boards(geometry)
    n = geometry.size
    values = np.asarray(grids, dtype=np.int8).reshape(-1, n * n)
    got = board.ladder(values, max_depth, polarity)
    expected = numba_board.ladder(values, n, max_depth, polarity)
    assert got.status.tolist() == expected.status.tolist()
    assert got.depth.tolist() == expected.depth.tolist()
    assert np.array_equal(got.solutions, expected.solutions)
    return got


def project_set(path: Path, limit: int | None = None):
    runs: dict[Geometry, list] = {}
    for number, puzzle in enumerate(read_puzzles(str(path), allow_conflicts=True)):
        if limit is not None and number >= limit:
            break
        runs.setdefault(puzzle.geometry, []).append(puzzle.grid)
    return runs.items()


def solved_grid(n: int, rng: random.Random) -> list[int]:
    """A solution of the n x n Sudoku with its default boxes, shuffled."""
    h, w = standard(n).box
    values = list(range(1, n + 1))
    rng.shuffle(values)
    rows = [[values[(w * (i % h) + i // h + j) % n] for j in range(n)] for i in range(n)]
    for band in range(0, n, h):
        block = rows[band : band + h]
        rng.shuffle(block)
        rows[band : band + h] = block
    return [k for row in rows for k in row]


def holes(grid, keep: float, rng: random.Random) -> tuple[int, ...]:
    return tuple(k if rng.random() < keep else 0 for k in grid)


def grid_of(line: str) -> tuple[int, ...]:
    return tuple(0 if ch in ".0" else int(ch) for ch in line)


def test_ladder_codes_are_probe_codes():
    for name in ("LADDER_OPEN", "LADDER_SAT", "LADDER_UNSAT", "LADDER_BAD"):
        assert getattr(core, name) == getattr(probe, name)
    assert getattr(probe, "LADDER_BUDGET", core.LADDER_BUDGET) == core.LADDER_BUDGET


def test_variants_list_the_baseline_and_the_one_in_use():
    names = core.variants()
    assert names[0] == "base"
    assert core.variant() in names
    with pytest.raises(ValueError, match="no variant"):
        core.use_variant("neon")


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_project_sets_first_grids(variant, path):
    """The first grids of each set of data/sets, depths 0 to 3 (16x16: 0 to 2)."""
    for geometry, grids in project_set(path, limit=12):
        depths = (0, 1, 2) if geometry.size > 9 else (0, 1, 2, 3)
        assert_same_closures(geometry, grids, depths)
        assert_same_closures(geometry, grids[:4], depths[1:], polarity="positive")
        assert_same_ladder(geometry, grids, max(depths))


@pytest.mark.slow
@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_project_sets_whole(path):
    """Every grid of data/sets: the ladder to depth 3, closures to depth 2."""
    for geometry, grids in project_set(path):
        assert_same_ladder(geometry, grids, 3)
        assert_same_closures(geometry, grids, (0, 1, 2))


@pytest.mark.parametrize(
    ("name", "every", "depths", "limit"),
    [
        ("royle17", 997, (0, 1), 50),
        ("forum-hardest-1106", 37, (1, 2), 10),
        ("mith-te3-1000", 211, (2, 3), 5),
    ],
)
def test_public_samples(variant, public, name, every, depths, limit):
    geometry = standard(9)
    grids = [p.grid for p in read_puzzles(str(public.set(name)), geometry)][::every][:limit]
    assert_same_closures(geometry, grids, depths)
    assert_same_ladder(geometry, grids, max(depths))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "every", "max_depth"),
    [("royle17", 17, 1), ("forum-hardest-1106", 1, 2), ("mith-te3-1000", 1, 3)],
)
def test_public_sets_rated_alike(public, name, every, max_depth):
    """The ladder over the public sets the targets use, against the numba board."""
    geometry = standard(9)
    grids = [p.grid for p in read_puzzles(str(public.set(name)), geometry)][::every]
    assert_same_ladder(geometry, grids, max_depth)


@pytest.mark.parametrize("n", [4, 6, 8, 9, 10, 12, 16])
def test_sizes_with_holes(variant, n):
    rng = random.Random(n)
    geometry = standard(n)
    grids = [holes(solved_grid(n, rng), keep, rng) for keep in (0.9, 0.6, 0.4, 0.25)]
    depths = (0, 1, 2) if n <= 9 else (0, 1)
    assert_same_closures(geometry, grids, depths)
    assert_same_ladder(geometry, grids, max(depths))


@pytest.mark.parametrize("n", [25, 36, 64])
def test_large_sides_propagate_alike(n):
    rng = random.Random(n)
    geometry = standard(n)
    grids = [holes(solved_grid(n, rng), keep, rng) for keep in (0.95, 0.7)]
    assert_same_closures(geometry, grids, (0,))
    board, numba_board = boards(geometry)
    ok, values = board.propagate_batch(grids)
    expected_ok, candidates = numba_board.propagate_batch(np.asarray(grids, np.int8))
    assert ok.tolist() == expected_ok.tolist()
    words = candidates.view(np.uint64)
    single = (words != 0) & ((words & (words - np.uint64(1))) == 0)
    expected = np.where(single, np.log2(np.where(single, words, 1).astype(np.float64)) + 1, 0)
    assert np.array_equal(values[ok == 1], expected[ok == 1])


@pytest.mark.slow
def test_size_25_depth_1():
    rng = random.Random(25)
    geometry = standard(25)
    grids = [holes(solved_grid(25, rng), keep, rng) for keep in (0.8, 0.6)]
    assert_same_closures(geometry, grids, (0, 1))
    assert_same_ladder(geometry, grids, 1)


@st.composite
def partial_grids(draw):
    """A geometry and random givens, allowed to clash."""
    geometry = GEOMETRIES[draw(st.sampled_from(sorted(GEOMETRIES)))]
    n = geometry.size
    cells = draw(st.lists(st.integers(0, n * n - 1), max_size=n * n // 2, unique=True))
    grid = [0] * (n * n)
    for c in cells:
        grid[c] = draw(st.integers(1, n))
    return geometry, tuple(grid)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), st.sampled_from(["both", "positive"]), st.sampled_from(core.variants()))
def test_random_grids_against_both_oracles(case, polarity, name):
    """Random grids of every geometry: closures against the numba board (depths 0-2)
    and against clause propagation (depths 0-1); the ladder against the numba board."""
    geometry, grid = case
    best = core.variant()
    core.use_variant(name)
    try:
        depths = (0, 1, 2) if geometry.size <= 9 else (0, 1)
        assert_same_closures(geometry, [grid], depths, polarity)
        board = boards(geometry)[0]
        givens = given_literals(grid, geometry)
        for depth in (0, 1):
            ok, lits = board.probe(givens, depth, polarity)
            expected_ok, expected = clause_engine(geometry).probe(givens, depth, polarity)
            assert ok == expected_ok
            assert set(lits) == set(expected)
        assert_same_ladder(geometry, [grid], max(depths), polarity)
    finally:
        core.use_variant(best)


def test_batch_matches_the_numba_board(variant):
    rng = random.Random(9)
    geometry = standard(9)
    grids = [holes(solved_grid(9, rng), keep, rng) for keep in (0.2, 0.3, 0.4, 0.5) * 25]
    grids.append((1, 1) + (0,) * 79)  # a contradiction
    board, numba_board = boards(geometry)
    ok, values = board.propagate_batch(grids)
    expected_ok, candidates = numba_board.propagate_batch(np.asarray(grids, np.int8))
    assert ok.tolist() == expected_ok.tolist()
    for g in np.flatnonzero(ok == 1):
        for c in range(81):
            m = int(candidates[g, c])
            assert values[g, c] == (m.bit_length() if m & (m - 1) == 0 else 0)


def test_budget_is_deterministic_and_monotone(variant):
    geometry = standard(9)
    board = core.Board(geometry)
    grids = [grid_of(EASTER_MONSTER)] * 3
    free = board.ladder(grids, 2)
    assert free.status.tolist() == [core.LADDER_SAT] * 3 and free.depth.tolist() == [2] * 3
    assert free.work[0] == free.work[1] == free.work[2]
    spent = int(free.work[0])
    unbounded = board.ladder(grids, 2, budget=spent)
    assert unbounded.status.tolist() == free.status.tolist()
    for budget in (0, 10, spent // 2):
        cut = board.ladder(grids, 2, budget=budget)
        again = core.Board(geometry).ladder(grids, 2, budget=budget)
        assert cut.status.tolist() == [core.LADDER_BUDGET] * 3
        assert cut.depth.tolist() == again.depth.tolist()
        assert cut.work.tolist() == again.work.tolist()
        assert (cut.work > budget).all()
    assert board.ladder(grids, 2, budget=0).depth.tolist() == [1] * 3


def test_placements_count_the_positive_hypotheses():
    geometry = standard(9)
    board = core.Board(geometry)
    grid = grid_of(EASTER_MONSTER)
    ok, lits = board.propagate(given_literals(grid, geometry))
    open_literals = 9 * 81 - len(lits)  # each open literal is one positive hypothesis
    assert ok and board.placements(grid, 2) == 2 * open_literals
    assert board.placements((1, 1) + (0,) * 79) == -1
