"""The bit-parallel board (solvers/bitboard.py, solvers/board_engine.py) answers exactly
what the CNF engine answers on the centrale rule formula.

The oracle is `Engine.probe` on the clauses of `encoder.encodings.rule_formula` (clause
unit propagation and the failed-literal closure on a trail, sharing no code with the
board): for every grid and depth 0 to 3, the same contradiction or the same set of
literals; and `Engine.ladder`'s statuses, depths and solutions against the board's.
Grids: the project's own sets (every geometry it ships: 4x4 to 16x16, X, windoku,
jigsaw), samples of public sets when present, solved grids of sides 4 to 25 with holes
punched at random, and random partial grids, contradictory ones included.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from encoder.encodings import given_literals
from encoder.geometry import Geometry, make_geometry, standard
from encoder.grids import parse_grid
from encoder.puzzle_files import read_puzzles
from solvers.board_engine import BoardEngine
from solvers.core import applies
from solvers.depth_rating import Rater
from solvers.grid_engine import GridEngine
from solvers.probe import LADDER_BAD, LADDER_SAT, LADDER_TIMEOUT

PROJECT = Path(__file__).resolve().parents[2]
SETS = sorted((PROJECT / "data" / "sets").glob("*.txt"))
JIGSAW = tuple(
    int(r) - 1
    for r in "111222233111222336111252336444553336474555556477566666477888899477889899477889999"
)
VARIANTS = {
    "9x9": make_geometry(9),
    "X": make_geometry(9, diagonals=True),
    "windoku": make_geometry(9, windows=True),
    "jigsaw": make_geometry(9, jigsaw=JIGSAW),
    "4x4": make_geometry(4),
    "6x6": make_geometry(6),
}


@functools.lru_cache(maxsize=16)
def pair(geometry: Geometry) -> tuple[BoardEngine, GridEngine]:
    """The board and the CNF engine of one geometry, built once per test session."""
    return BoardEngine(geometry), GridEngine(geometry)


def assert_same_closures(geometry: Geometry, grids, depths=(0, 1, 2, 3), polarity="both"):
    """Check that the board's closure of each grid's givens is the engine's, per depth."""
    board, engine = pair(geometry)
    for grid in grids:
        givens = given_literals(grid, geometry)
        for depth in depths:
            ok, literals = board.probe(givens, depth, polarity)
            expected_ok, expected = engine.engine.probe(givens, depth, polarity)
            assert ok == expected_ok, (grid, depth, polarity)
            assert len(literals) == len(set(literals))
            assert set(literals) == set(expected), (grid, depth, polarity)


def assert_same_ladder(geometry: Geometry, grids, max_depth: int, polarity="both"):
    """Check the board's depth rating of the grids against the engine's."""
    board, engine = pair(geometry)
    n = geometry.size
    values = np.asarray(grids, dtype=np.int8).reshape(-1, n * n)
    got = board.ladder(values, n, max_depth, polarity)
    expected = engine.engine.ladder(values, n, max_depth, polarity)
    assert got.status.tolist() == expected.status.tolist()
    assert got.depth.tolist() == expected.depth.tolist()
    assert np.array_equal(got.solutions, expected.solutions)


def project_set(path: Path, limit: int | None = None):
    """Return (geometry, grids) runs of a set of data/sets (jigsaw grids bring their own
    geometry, so they come one run per map)."""
    runs: dict[Geometry, list] = {}
    for number, puzzle in enumerate(read_puzzles(str(path), allow_conflicts=True)):
        if limit is not None and number >= limit:
            break
        runs.setdefault(puzzle.geometry, []).append(puzzle.grid)
    return runs.items()


def solved_grid(n: int, rng: random.Random) -> list[int]:
    """Return a solution of the n x n Sudoku with its default boxes (a pattern grid
    shuffled by value renaming and row swaps inside a band)."""
    geometry = standard(n)
    h, w = geometry.box
    values = list(range(1, n + 1))
    rng.shuffle(values)
    rows = [[values[(w * (i % h) + i // h + j) % n] for j in range(n)] for i in range(n)]
    for band in range(0, n, h):
        block = rows[band : band + h]
        rng.shuffle(block)
        rows[band : band + h] = block
    return [k for row in rows for k in row]


def holes(grid: list[int], keep: float, rng: random.Random) -> tuple[int, ...]:
    return tuple(k if rng.random() < keep else 0 for k in grid)


@pytest.mark.parametrize("path", SETS[:], ids=[p.stem for p in SETS])
def test_project_sets_first_grids(path):
    """The first grids of each set of data/sets, depths 0 to 3 (16x16: 0 to 2)."""
    for geometry, grids in project_set(path, limit=12):
        depths = (0, 1, 2) if geometry.size > 9 else (0, 1, 2, 3)
        assert_same_closures(geometry, grids, depths)
        assert_same_ladder(geometry, grids, max(depths))


@pytest.mark.slow
@pytest.mark.parametrize("path", SETS[:], ids=[p.stem for p in SETS])
def test_project_sets_whole(path):
    """Every grid of data/sets: closures at depths 0 to 2 (both polarities) and the
    depth rating up to 3."""
    for geometry, grids in project_set(path):
        assert_same_closures(geometry, grids, (0, 1, 2))
        assert_same_closures(geometry, grids[:50], (1, 2), polarity="positive")
        assert_same_ladder(geometry, grids, 3)


@pytest.mark.parametrize(
    ("name", "every", "depths", "limit"),
    [
        ("royle17", 997, (0, 1), 50),
        ("forum-hardest-1106", 37, (1, 2), 10),
        ("mith-te3-1000", 211, (2, 3), 5),
    ],
)
def test_public_samples(public, name, every, depths, limit):
    """A sample of each public set the issue's targets use (skipped when absent)."""
    geometry = standard(9)
    path = public.set(name)
    grids = [p.grid for p in read_puzzles(str(path), geometry)][::every][:limit]
    assert_same_closures(geometry, grids, depths)
    assert_same_ladder(geometry, grids, max(depths))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "every", "max_depth"),
    [("royle17", 97, 1), ("forum-hardest-1106", 3, 2), ("mith-te3-1000", 20, 3)],
)
def test_public_sets_rated_alike(public, name, every, max_depth):
    """Larger samples of the public sets: closures of the deepest depth, the ladder,
    and the positive polarity on a few."""
    geometry = standard(9)
    path = public.set(name)
    grids = [p.grid for p in read_puzzles(str(path), geometry)][::every]
    assert_same_ladder(geometry, grids, max_depth)
    assert_same_closures(geometry, grids[:40], (max_depth,))
    assert_same_closures(geometry, grids[:10], (max_depth,), polarity="positive")


@pytest.mark.parametrize("n", [4, 6, 9, 12, 16])
def test_sizes_with_holes(n):
    """Solved grids of each side with holes: from nearly full to nearly empty."""
    rng = random.Random(n)
    geometry = standard(n)
    grids = [holes(solved_grid(n, rng), keep, rng) for keep in (0.9, 0.6, 0.4, 0.25)]
    depths = (0, 1, 2) if n <= 9 else (0, 1)
    assert_same_closures(geometry, grids, depths)
    assert_same_ladder(geometry, grids, max(depths))


@pytest.mark.slow
def test_size_25():
    """25x25 (the engine's rules: 752,500 clauses), depths 0 and 1."""
    rng = random.Random(25)
    geometry = standard(25)
    grids = [holes(solved_grid(25, rng), keep, rng) for keep in (0.8, 0.6)]
    assert_same_closures(geometry, grids, (0, 1))
    assert_same_ladder(geometry, grids, 1)


@st.composite
def partial_grids(draw):
    """A geometry and a grid of random givens, allowed to clash (the closures must then
    find the contradiction the engine finds)."""
    name = draw(st.sampled_from(sorted(VARIANTS)))
    geometry = VARIANTS[name]
    n = geometry.size
    cells = draw(st.lists(st.integers(0, n * n - 1), max_size=n * n // 2, unique=True))
    grid = [0] * (n * n)
    for c in cells:
        grid[c] = draw(st.integers(1, n))
    return geometry, tuple(grid)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), st.sampled_from(["both", "positive"]))
def test_random_partial_grids(case, polarity):
    geometry, grid = case
    assert_same_closures(geometry, [grid], (0, 1), polarity)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), st.sampled_from(["both", "positive"]))
def test_random_partial_grids_deeper(case, polarity):
    geometry, grid = case
    assert_same_closures(geometry, [grid], (2,), polarity)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), st.lists(st.integers(1, 729), max_size=6))
def test_random_assumptions_of_both_signs(case, picks):
    """Assumptions of both signs beside the givens (a negative one removes a value)."""
    geometry, grid = case
    n = geometry.size
    signed = [(p % n**3 + 1) * (1 if p % 2 else -1) for p in picks]
    board, engine = pair(geometry)
    assumptions = given_literals(grid, geometry) + signed
    for depth in (0, 1):
        ok, literals = board.probe(assumptions, depth)
        expected_ok, expected = engine.engine.probe(assumptions, depth)
        assert ok == expected_ok
        assert set(literals) == set(expected)


def test_bad_values_and_bad_literals():
    geometry = standard(4)
    board, engine = pair(geometry)
    grid = np.zeros((2, 16), np.int8)
    grid[0, 3] = 5  # a value beyond N
    out = board.ladder(grid, 4, 2)
    assert out.status.tolist()[0] == LADDER_BAD
    assert out.status.tolist() == engine.engine.ladder(grid, 4, 2).status.tolist()
    with pytest.raises(ValueError):
        board.probe([65])
    with pytest.raises(ValueError):
        board.probe([0])
    with pytest.raises(ValueError):
        board.probe([], polarity="negative")


def test_time_limit_stops_a_grid_and_the_next_is_rated(public):
    """A grid over its time limit is given up at the depth it reached (as the engine's
    ladder does) and the next grid is rated as usual."""
    geometry = standard(9)
    path = public.set("mith-te3-1000")
    deep = next(p.grid for p in read_puzzles(str(path), geometry))
    easy = next(p.grid for p in read_puzzles(str(PROJECT / "data/sets/sudoku9_depth1.txt")))
    board = BoardEngine(geometry)  # fresh: its first slice pauses within the deep grid
    out = board.ladder(np.array([deep, easy], np.int8), 9, 3, time_limit=1e-6)
    assert out.status.tolist() == [LADDER_TIMEOUT, LADDER_SAT]
    assert out.depth.tolist()[1] == 1


def test_rater_uses_the_board_for_centrale_only():
    """The board rates the centrale encoding; other encodings and sides beyond 64 stay
    on the engine, with the same labels."""
    nine = standard(9)
    assert applies(nine, "centrale")
    assert not applies(nine, "minimal")
    assert not applies(nine, "centrale+ladder")
    assert not applies(make_geometry(65, boxes=False), "centrale")
    assert Rater(nine).board is not None
    assert Rater(nine, "natural").board is None
    grids = [g for _, run in project_set(PROJECT / "data/sets/sudoku9_depth1.txt", 30) for g in run]
    board_ratings = Rater(nine).rate_many(grids, 2)
    engine_ratings = Rater(nine).engine.ladder(np.array(grids, np.int8), 9, 2)
    assert [r.depth for r in board_ratings] == engine_ratings.depth.tolist()


PAUSED_GRIDS = [  # depths 0, 1, 2 (the exam's and Norvig's examples)
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
]


def _answers(board: BoardEngine, polarity: str = "both"):
    grids = [parse_grid(line, standard(9)) for line in PAUSED_GRIDS]
    out = board.ladder(np.array(grids, np.int8), 9, 3, polarity)
    closures = [board.probe(given_literals(grid, standard(9)), 2, polarity) for grid in grids]
    return out.status.tolist(), out.depth.tolist(), out.solutions.tolist(), closures


@pytest.mark.parametrize("polarity", ["both", "positive"])
def test_pausing_at_every_point_changes_nothing(polarity, pause_everywhere):
    whole_board = BoardEngine(standard(9))
    whole_board.slice_size = 1 << 60  # one slice: no pause
    whole = _answers(whole_board, polarity)
    assert not pause_everywhere
    sliced_board = BoardEngine(standard(9))
    sliced_board.slice_size = 1
    assert _answers(sliced_board, polarity) == whole
    assert pause_everywhere
    assert whole[0] == [LADDER_SAT] * 3 and whole[1] == [0, 1, 2]


def test_ctrl_c_leaves_the_board_ready(interrupt_at, slice_hook):
    board = BoardEngine(standard(9))
    board.slice_size = 1
    interrupt_at(7)
    with pytest.raises(KeyboardInterrupt):
        _answers(board)
    slice_hook(lambda size, elapsed, smallest=1: 1)
    assert _answers(board) == _answers(BoardEngine(standard(9)))


def test_a_closure_call_skips_numba_type_dispatch_once_compiled():
    """After its first call the board's closure kernel is called through its compiled
    entry point (`engine._call`): numba's dispatcher re-typed the board's tuples of
    arrays at every call, about 10 us of a 20 us propagation.  The answers stay the
    dispatcher's."""
    from solvers.bitboard import closure_kernel
    from solvers.engine import _ENTRY_POINTS

    geometry = standard(9)
    board, engine = BoardEngine(geometry), GridEngine(geometry)
    givens = given_literals(
        holes(solved_grid(9, random.Random(7)), 0.3, random.Random(8)), geometry
    )
    first = board.probe(givens, 1)
    assert (closure_kernel, ()) in _ENTRY_POINTS
    again = board.probe(givens, 1)
    assert again == first
    expected_ok, expected = engine.engine.probe(givens, 1)
    assert (again[0], set(again[1])) == (expected_ok, set(expected))


def _fixpoints():
    """Boards at their fixpoint: solved 9x9 and 16x16 grids with holes, nearly full to
    nearly empty, and the first jigsaw grids of data/sets (their own maps)."""
    rng = random.Random(5)
    for n in (9, 16):
        geometry = standard(n)
        solved = solved_grid(n, rng)
        for keep in (0.7, 0.45, 0.3, 0.15):
            yield geometry, holes(solved, keep, rng)
    for path in SETS:
        for geometry, grids in project_set(path, limit=4):
            if "jigsaw" in geometry.extras:
                yield from ((geometry, grid) for grid in grids)


def test_a_quiet_removal_is_one_that_propagates_nothing():
    """The closure's last frame passes a removal `_quiet_removal` calls quiet without
    propagating it: propagating it must then change nothing but that one candidate.
    The check must also say "not quiet" to some removals, or nothing would test it."""
    from solvers.bitboard import _quiet_removal, _test, start_board

    verdicts = {True: 0, False: 0}
    for geometry, grid in _fixpoints():
        board = BoardEngine(geometry)
        n, cells = geometry.size, geometry.size**2
        fixpoint = np.zeros(cells, np.int64)
        values = np.array(grid, np.int8)
        if start_board(board._T, fixpoint, board._Q, values, board._st) != 1:
            continue
        for code in range(2 * cells * n):
            c, bit = code // (2 * n), 1 << (code % n)
            if not (code // n) & 1 or not fixpoint[c] & bit or fixpoint[c] == bit:
                continue  # a removal of an open candidate only, as the closure asks
            quiet = bool(_quiet_removal(board._T, fixpoint, c, np.int64(bit)))
            verdicts[quiet] += 1
            if quiet:
                after = fixpoint.copy()
                expected = fixpoint.copy()
                expected[c] &= ~bit
                assert _test(board._T, after, board._Q, code, n, board._st), (grid, code)
                assert np.array_equal(after, expected), (grid, code)
    assert verdicts[True] > 0 and verdicts[False] > 0
