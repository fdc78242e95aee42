"""The native board (solvers.core.Board) answers what the board it was ported from
answered, and what independent oracles answer, on every variant this processor runs.

Oracles:
- the golden file data/board.tsv.gz, written by the board the core was ported from
  (tests/solvers/make_goldens.py): closures, ladders (statuses, depths,
  solutions), batches, and each grid's work units, on the grids of data/sets, samples
  of the public sets, solved grids of sides 4 to 64 with holes;
- the failed-literal closure the slow obvious way (closure_oracle.py) over PySAT's
  propagation of the centrale rules, and the clause engine (solvers.core.Clauses) on
  those rules, for random partial grids of every geometry (hypothesis);
- encoder.check.is_solution for every solution a depth loop gives.
Each test runs on every compiled variant (`variants()`: the baseline and the SIMD
builds the processor has).
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from closure_oracle import closure, minisat_propagate
from golden import (
    EASTER_MONSTER,
    GEOMETRIES,
    SETS,
    batch_grids,
    closure_value,
    digest,
    expected,
    geometry_key,
    grid_key,
    grid_of,
    holed_grids,
    ladder_value,
    large_grids,
    project_set,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.solvers import Minisat22

import solvers.core as core
from encoder.check import is_solution
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import Geometry, make_geometry, standard
from encoder.puzzle_files import read_puzzles
from solvers.ratings.depth import Rater

GOLDEN = "board.tsv.gz"


@functools.lru_cache(maxsize=32)
def board(geometry: Geometry) -> core.Board:
    return core.Board(geometry)


@functools.lru_cache(maxsize=16)
def rules(geometry: Geometry):
    return rule_formula(geometry, "centrale")


@functools.lru_cache(maxsize=16)
def clause_engine(geometry: Geometry) -> core.Clauses:
    formula = rules(geometry)
    return core.Clauses(formula.clauses, formula.num_vars)


def assert_same_closures(geometry, grids, depths=(0, 1, 2, 3), polarity="both"):
    for grid in grids:
        for depth in depths:
            ok, lits = board(geometry).probe(given_literals(grid, geometry), depth, polarity)
            assert len(lits) == len(set(lits))
            key = f"probe|{grid_key(geometry, grid)}|{depth}|{polarity}"
            assert closure_value(ok, lits) == expected(GOLDEN, key), (grid, depth, polarity)


def assert_same_ladder(geometry, grids, max_depth, polarity="both", work=False):
    n = geometry.size
    values = np.asarray(grids, dtype=np.int8).reshape(-1, n * n)
    got = board(geometry).depths(values, max_depth, polarity)
    key = f"{geometry_key(geometry)}|{digest(values)}|{max_depth}|{polarity}"
    assert ladder_value(got.status, got.depth, got.solutions) == expected(GOLDEN, "ladder|" + key)
    if work:
        assert ",".join(map(str, got.work.tolist())) == expected(GOLDEN, "work|" + key)
    for g in np.flatnonzero(got.status == core.DEPTH_SAT):
        assert is_solution(got.solutions[g].tolist(), values[g].tolist(), geometry)
    return got


def assert_same_batch(geometry, grids):
    ok, values = board(geometry).propagate_batch(grids)
    values = np.where(ok[:, None] == 1, values, 0)
    value = ",".join(map(str, ok.tolist())) + "|" + digest(values)
    assert value == expected(GOLDEN, f"batch|{geometry_key(geometry)}|{digest(np.asarray(grids))}")


def test_ladder_codes():
    """The statuses the golden file holds, by number."""
    codes = ("DEPTH_OPEN", "DEPTH_SAT", "DEPTH_UNSAT", "DEPTH_BAD", "DEPTH_TIMEOUT")
    assert [getattr(core, name) for name in codes] == [0, 1, 2, 3, 4]
    assert core.DEPTH_BUDGET == 5


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
        assert_same_ladder(geometry, grids, max(depths), work=True)


@pytest.mark.slow
@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_project_sets_whole(path):
    """Every grid of data/sets: the depth loop to depth 3, closures to depth 2."""
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
    """The depth loop over the public sets the targets use."""
    geometry = standard(9)
    grids = [p.grid for p in read_puzzles(str(public.set(name)), geometry)][::every]
    assert_same_ladder(geometry, grids, max_depth)


@pytest.mark.parametrize("n", [4, 6, 8, 9, 10, 12, 16])
def test_sizes_with_holes(variant, n):
    grids = holed_grids(n)
    depths = (0, 1, 2) if n <= 9 else (0, 1)
    assert_same_closures(standard(n), grids, depths)
    assert_same_ladder(standard(n), grids, max(depths), work=True)


@pytest.mark.parametrize("n", [25, 36, 64])
def test_large_sides_propagate_alike(n):
    grids = large_grids(n)
    assert_same_closures(standard(n), grids, (0,))
    assert_same_batch(standard(n), grids)


@pytest.mark.slow
def test_size_25_depth_1():
    grids = large_grids(25, (0.8, 0.6))
    assert_same_closures(standard(25), grids, (0, 1))
    assert_same_ladder(standard(25), grids, 1)


def test_batch_matches_the_golden_board(variant):
    assert_same_batch(standard(9), batch_grids())


@st.composite
def partial_grids(draw, names=None):
    """A geometry (of `names`, None: every one) and random givens: most often no two
    alike in a house (so the closures have work to do), else allowed to clash."""
    geometry = GEOMETRIES[draw(st.sampled_from(names or sorted(GEOMETRIES)))]
    n = geometry.size
    clash = draw(st.integers(0, 4)) == 0
    most = n * n // 2 if clash else n * n // 3
    cells = draw(st.lists(st.integers(0, n * n - 1), max_size=most, unique=True))
    grid = [0] * (n * n)
    for c in cells:
        value = draw(st.integers(1, n))
        if clash or all(grid[p] != value for p in geometry.peers[c]):
            grid[c] = value
    return geometry, tuple(grid)


def assert_ladder_is_its_closures(geometry, grid, max_depth, polarity):
    """The depth loop settles a grid at the first depth whose closure fills it (SAT, the
    solution the closure's literals) or contradicts (UNSAT), else OPEN at max_depth."""
    n = geometry.size
    out = board(geometry).depths([grid], max_depth, polarity)
    givens = given_literals(grid, geometry)
    for depth in range(max_depth + 1):
        ok, lits = board(geometry).probe(givens, depth, polarity)
        filled = ok and sum(lit > 0 for lit in lits) == n * n
        if not ok or filled:
            assert out.depth[0] == depth
            assert out.status[0] == (core.DEPTH_SAT if filled else core.DEPTH_UNSAT)
            if filled:
                values = [0] * (n * n)
                for lit in lits:
                    if lit > 0:
                        values[(lit - 1) // n] = (lit - 1) % n + 1
                assert out.solutions[0].tolist() == values
                assert is_solution(values, list(grid), geometry)
            return
    assert out.status[0] == core.DEPTH_OPEN and out.depth[0] == max_depth


def assert_board_is_clause_engine(case, polarity, name):
    geometry, grid = case
    best = core.variant()
    core.use_variant(name)
    try:
        depths = (0, 1, 2) if geometry.size <= 9 else (0, 1)
        givens = given_literals(grid, geometry)
        for depth in depths:
            ok, lits = board(geometry).probe(givens, depth, polarity)
            expected_ok, expected_lits = clause_engine(geometry).probe(givens, depth, polarity)
            assert ok == expected_ok
            assert len(lits) == len(set(lits)) and set(lits) == set(expected_lits)
        assert_ladder_is_its_closures(geometry, grid, max(depths), polarity)
    finally:
        core.use_variant(best)


POLARITY = st.sampled_from(["both", "positive"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), POLARITY, st.sampled_from(core.variants()))
def test_random_grids_against_the_clause_engine(case, polarity, name):
    """Random grids of every geometry: closures against the clause engine's on the
    centrale rules (depths 0-2, 0-1 beyond 9x9), and the depth loop against the closures."""
    assert_board_is_clause_engine(case, polarity, name)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), POLARITY, st.sampled_from(core.variants()))
def test_more_random_grids_against_the_clause_engine(case, polarity, name):
    assert_board_is_clause_engine(case, polarity, name)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    partial_grids(("4x4", "6x6", "9x9", "X", "windoku", "jigsaw")),
    st.sampled_from(["both", "positive"]),
)
def test_random_grids_against_the_slow_obvious_closure(case, polarity):
    """Random grids: the board's closures against closure_oracle's over PySAT's
    propagation of the centrale rules (to depth 2 on 4x4, 1 on the others; the oracle's
    cost grows as the square of the candidates at each depth)."""
    geometry, grid = case
    n = geometry.size
    formula = rules(geometry)
    givens = given_literals(grid, geometry)
    variables = range(1, n**3 + 1)
    top = 2 if n == 4 else 1
    with Minisat22(bootstrap_with=formula.clauses) as solver:
        for depth in range(top + 1):
            ok, lits = board(geometry).probe(givens, depth, polarity)
            want = closure(minisat_propagate(solver), givens, depth, polarity, variables)
            assert (ok, set(lits)) == want, (grid, depth, polarity)


@pytest.mark.parametrize(("n", "top"), [(4, 2), (6, 1), (9, 1)])
def test_holed_grids_against_the_slow_obvious_closure(n, top):
    """Solved grids with holes, nearly full to nearly empty: the board's closures are the
    slow obvious ones at every depth, and some depth proves more than the one below (the
    rule is exercised, not only propagation)."""
    geometry = standard(n)
    stronger = 0
    with Minisat22(bootstrap_with=rules(geometry).clauses) as solver:
        for grid in holed_grids(n):
            givens = given_literals(grid, geometry)
            answers = []
            for depth in range(top + 1):
                ok, lits = board(geometry).probe(givens, depth)
                want = closure(minisat_propagate(solver), givens, depth, "both",
                               range(1, n**3 + 1))  # fmt: skip
                assert (ok, set(lits)) == want, (grid, depth)
                answers.append(want)
            stronger += answers[-1] != answers[0]
    assert stronger > 0 or n == 4  # (4x4 grids with holes fall to propagation alone)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(("6x6",)), st.sampled_from(["both", "positive"]))
def test_random_6x6_grids_against_the_slow_obvious_closure_at_depth_2(case, polarity):
    geometry, grid = case
    givens = given_literals(grid, geometry)
    with Minisat22(bootstrap_with=rules(geometry).clauses) as solver:
        ok, lits = board(geometry).probe(givens, 2, polarity)
        want = closure(minisat_propagate(solver), givens, 2, polarity, range(1, 217))
        assert (ok, set(lits)) == want, (grid, polarity)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_grids(), st.lists(st.integers(1, 1 << 20), max_size=6))
def test_random_assumptions_of_both_signs(case, picks):
    """Assumptions of both signs beside the givens (a negative one removes a value)."""
    geometry, grid = case
    n = geometry.size
    signed = [(p % n**3 + 1) * (1 if p % 2 else -1) for p in picks]
    assumptions = given_literals(grid, geometry) + signed
    for depth in (0, 1):
        ok, lits = board(geometry).probe(assumptions, depth)
        expected_ok, expected_lits = clause_engine(geometry).probe(assumptions, depth)
        assert ok == expected_ok
        assert set(lits) == set(expected_lits)


def test_hand_known_closures():
    """Facts known without any engine: a clash is a contradiction; a solved grid's
    closure is its n*n values and the rest of its candidates false; Easter Monster
    needs depth 2 (T&E(2)), and a grid with one blank cell is filled at depth 0."""
    geometry = standard(9)
    b = board(geometry)
    assert b.probe(given_literals((1, 1) + (0,) * 79, geometry), 0) == (False, [])
    monster = grid_of(EASTER_MONSTER)
    out = b.depths([monster], 3)
    assert out.status.tolist() == [core.DEPTH_SAT] and out.depth.tolist() == [2]
    solution = out.solutions[0].tolist()
    assert is_solution(solution, list(monster), geometry)
    ok, lits = b.propagate(given_literals(tuple(solution), geometry))
    assert ok and len(lits) == 729 and sum(lit > 0 for lit in lits) == 81
    one_blank = (0, *solution[1:])
    assert b.depths([one_blank], 3).depth.tolist() == [0]
    open_at_1 = b.probe(given_literals(monster, geometry), 1)
    assert open_at_1[0] and sum(lit > 0 for lit in open_at_1[1]) < 81


def test_bad_values_and_bad_literals():
    b = board(standard(4))
    grid = np.zeros((2, 16), np.int8)
    grid[0, 3] = 5  # a value beyond N
    out = b.depths(grid, 2)
    assert out.status.tolist()[0] == core.DEPTH_BAD
    assert out.status.tolist() == clause_engine(standard(4)).depths(grid, 2).status.tolist()
    for bad in ([65], [0], [-65]):
        with pytest.raises(ValueError):
            b.probe(bad)
    with pytest.raises(ValueError):
        b.probe([], polarity="negative")


def test_rater_uses_the_board_for_centrale_only():
    """The board rates the centrale encoding; other encodings and sides beyond 64 stay
    on the clause engine, with the same labels."""
    nine = standard(9)
    assert core.applies(nine, "centrale")
    assert not core.applies(nine, "minimal")
    assert not core.applies(nine, "centrale+ladder")
    assert not core.applies(make_geometry(65, boxes=False), "centrale")
    path = next(p for p in SETS if p.name == "sudoku9_depth1.txt")
    grids = [g for _, run in project_set(path, 30) for g in run]
    board_ratings = Rater(nine).rate_many(grids, 2)
    engine_ratings = clause_engine(nine).depths(np.array(grids, np.int8), 2)
    assert [r.depth for r in board_ratings] == engine_ratings.depth.tolist()


def test_budget_is_deterministic_and_monotone(variant):
    geometry = standard(9)
    b = core.Board(geometry)
    grids = [grid_of(EASTER_MONSTER)] * 3
    free = b.depths(grids, 2)
    assert free.status.tolist() == [core.DEPTH_SAT] * 3 and free.depth.tolist() == [2] * 3
    assert free.work[0] == free.work[1] == free.work[2]
    spent = int(free.work[0])
    unbounded = b.depths(grids, 2, budget=spent)
    assert unbounded.status.tolist() == free.status.tolist()
    for budget in (0, 10, spent // 2):
        cut = b.depths(grids, 2, budget=budget)
        again = core.Board(geometry).depths(grids, 2, budget=budget)
        assert cut.status.tolist() == [core.DEPTH_BUDGET] * 3
        assert cut.depth.tolist() == again.depth.tolist()
        assert cut.work.tolist() == again.work.tolist()
        assert (cut.work > budget).all()
    assert b.depths(grids, 2, budget=0).depth.tolist() == [1] * 3


def assert_closures_are_the_clause_engines(geometry, grids, depths):
    """Board.closures (the depth loop up to each depth) against the clause engine's
    closure of that depth: the same status, the same cells placed, the same cell
    variables left open; a closure that found no conflict is the propagation itself."""
    n = geometry.size
    cell_vars = n**3
    values = np.asarray(grids, dtype=np.int8).reshape(-1, n * n)
    sets = [given_literals(grid, geometry) for grid in grids]
    propagated = board(geometry).closures(values, 0)
    for depth in depths:
        got = board(geometry).closures(values, depth)
        want = clause_engine(geometry).closures(sets, depth, cell_vars)
        assert got.status.tolist() == want.status.tolist(), depth
        shut = got.status == core.DEPTH_OPEN
        assert (got.open[shut] == cell_vars - want.assigned[shut]).all(), depth
        assert (got.open[~shut] == 0).all()
        for g in np.flatnonzero(got.status == core.DEPTH_SAT):
            assert is_solution(got.solutions[g].tolist(), values[g].tolist(), geometry)
            true = want.true[g].reshape(n * n, n)
            assert (true.argmax(axis=1) + 1 == got.solutions[g]).all()
        quiet = got.conflicts == 0
        assert (got.status[quiet] == propagated.status[quiet]).all(), depth
        assert (got.open[quiet] == propagated.open[quiet]).all(), depth
        assert ((got.work > 0) | (values == 0).all(axis=1)).all()
        assert (got.seconds >= 0).all()


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_the_closures_of_a_chunk_are_the_clause_engines(variant, path):
    """The first grids of each set of data/sets, depths 1 and 2 (16x16: 1; the clause
    engine's depth 2 on them takes seconds)."""
    for geometry, grids in project_set(path, limit=12):
        assert_closures_are_the_clause_engines(
            geometry, grids, (1,) if geometry.size > 9 else (1, 2)
        )


def test_the_closures_of_grids_with_holes_and_a_bad_value():
    for n in (4, 6, 9, 12):
        assert_closures_are_the_clause_engines(standard(n), holed_grids(n), (1, 2)[: 13 - n])
    grids = np.zeros((3, 16), np.int8)
    grids[1, 0] = 5  # beyond 4x4's values
    grids[2, :2] = 1  # two 1s in a row
    got = board(standard(4)).closures(grids, 1)
    assert got.status.tolist() == [core.DEPTH_OPEN, core.DEPTH_BAD, core.DEPTH_UNSAT]
    assert got.open.tolist() == [64, 0, 0]  # an empty grid leaves every variable open
    with pytest.raises(ValueError, match="rows of 16 values"):
        board(standard(4)).closures(np.zeros((2, 15), np.int8), 1)
    with pytest.raises(ValueError, match="depth"):
        board(standard(4)).closures(grids, -1)
