"""The native clause engine (solvers.core.Clauses) answers what the numba engine
(solvers.engine.Engine) answers: unit propagation, the failed-literal closures of depth
0 to 2 (both polarities) and the depth ladder, on the tiny formulas, random CNFs, and the
rule formulas of every encoding and geometry; and on the centrale rules, what the native
board answers."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiny_formulas import TINY

import solvers.core as core
from encoder.encodings import ENCODINGS, given_literals, rule_formula
from encoder.geometry import Geometry, make_geometry, standard
from solvers.engine import Engine

GEOMETRIES = {
    "9x9": make_geometry(9),
    "X": make_geometry(9, diagonals=True),
    "windoku": make_geometry(9, windows=True),
    "4x4": make_geometry(4),
    "6x6": make_geometry(6),
}
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def grid_of(line: str) -> tuple[int, ...]:
    return tuple(0 if ch in ".0" else int(ch) for ch in line)


@functools.lru_cache(maxsize=32)
def pair(geometry: Geometry, encoding: str) -> tuple[core.Clauses, Engine]:
    formula = rule_formula(geometry, encoding)
    return (
        core.Clauses(formula.clauses, formula.num_vars),
        Engine(formula.clauses, formula.num_vars),
    )


def assert_same_probes(native, engine, assumptions, depths=(0, 1, 2), polarity="both"):
    for depth in depths:
        ok, lits = native.probe(assumptions, depth, polarity)
        expected_ok, expected = engine.probe(assumptions, depth, polarity)
        assert ok == expected_ok, (assumptions, depth, polarity)
        assert len(lits) == len(set(lits))
        assert set(lits) == set(expected), (assumptions, depth, polarity)


@pytest.mark.parametrize(("name", "clauses", "num_vars", "status"), TINY, ids=[t[0] for t in TINY])
def test_tiny_formulas(name, clauses, num_vars, status):
    if num_vars == 0:
        with pytest.raises(ValueError, match="empty formula"):
            core.Clauses(clauses, num_vars)
        return
    native, engine = core.Clauses(clauses, num_vars), Engine(clauses, num_vars)
    assert native.ok == engine.ok
    for v in range(1, num_vars + 1):
        for assumptions in ([], [v], [-v]):
            assert_same_probes(native, engine, assumptions)


@st.composite
def random_cnfs(draw):
    num_vars = draw(st.integers(1, 12))
    literal = st.integers(1, num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(literal, min_size=1, max_size=5), max_size=40))
    assumptions = draw(st.lists(literal, max_size=3))
    return clauses, num_vars, assumptions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_cnfs(), st.sampled_from(["both", "positive"]))
def test_random_cnfs(case, polarity):
    clauses, num_vars, assumptions = case
    native, engine = core.Clauses(clauses, num_vars), Engine(clauses, num_vars)
    assert native.ok == engine.ok
    assert_same_probes(native, engine, assumptions, (0, 1, 2, 3), polarity)


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_rules_of_every_encoding_and_geometry(encoding, name):
    geometry = GEOMETRIES[name]
    n = geometry.size
    native, engine = pair(geometry, encoding)
    rng = random.Random(hash((encoding, name)) & 0xFFFF)
    grids = []
    for _ in range(6):
        grid = [0] * (n * n)
        for c in rng.sample(range(n * n), n * n // 4):
            grid[c] = rng.randint(1, n)
        grids.append(tuple(grid))
    if n == 9:
        grids.append(grid_of(EASTER_MONSTER))
    depths = (0, 1, 2) if n <= 6 or encoding == "centrale" else (0, 1)
    for grid in grids[:3]:
        assert_same_probes(native, engine, given_literals(grid, geometry), depths)
    values = np.asarray(grids, np.int8)
    got = native.ladder(values, n, max(depths))
    expected = engine.ladder(values, n, max(depths))
    assert got.status.tolist() == expected.status.tolist()
    assert got.depth.tolist() == expected.depth.tolist()
    assert np.array_equal(got.solutions, expected.solutions)
    if encoding == "centrale":
        board = core.Board(geometry).ladder(values, max(depths))
        assert board.status.tolist() == got.status.tolist()
        assert board.depth.tolist() == got.depth.tolist()


def test_batch_matches_engine_propagate():
    geometry = standard(9)
    native, engine = pair(geometry, "centrale")
    rng = random.Random(3)
    sets = [given_literals(grid_of(EASTER_MONSTER), geometry), [1, 2], []]
    sets += [[rng.choice([-1, 1]) * rng.randint(1, 729) for _ in range(20)] for _ in range(20)]
    ok, values = native.propagate_batch(sets)
    for g, assumptions in enumerate(sets):
        expected_ok, lits = engine.propagate(assumptions)
        assert bool(ok[g]) == expected_ok
        if expected_ok:
            expected = np.zeros(729, np.int8)
            for lit in lits:
                expected[abs(lit) - 1] = 1 if lit > 0 else -1
            assert np.array_equal(values[g], expected)


def test_budget_is_deterministic():
    native, _ = pair(standard(9), "centrale")
    grids = [grid_of(EASTER_MONSTER)] * 2
    free = native.ladder(grids, 9, 2)
    assert free.status.tolist() == [core.LADDER_SAT] * 2 and free.work[0] == free.work[1]
    cut = native.ladder(grids, 9, 2, budget=int(free.work[0]) // 3)
    assert cut.status.tolist() == [core.LADDER_BUDGET] * 2
    assert cut.work[0] == cut.work[1]


@pytest.mark.parametrize(
    ("clauses", "num_vars", "message"),
    [
        ([[1, 2], [0]], 2, "literal 0"),
        ([[1, 3]], 2, "literal 3"),
        ([[1, -7]], 2, "literal -7"),
        ([], 0, "empty formula"),
        ([[1]], -1, "num_vars"),
    ],
)
def test_bad_formulas(clauses, num_vars, message):
    with pytest.raises(ValueError, match=message):
        core.Clauses(clauses, num_vars)


def test_bad_arrays_and_queries():
    flat = np.array([1, 2, -1, -2], np.int64)
    with pytest.raises(ValueError, match="offsets must run from 0 to 4"):
        core.Clauses((flat, np.array([0, 2, 3], np.int64)), 2)
    with pytest.raises(ValueError, match="must not decrease"):
        core.Clauses((flat, np.array([0, 3, 2, 4], np.int64)), 2)
    with pytest.raises(ValueError, match="flat must hold int64"):
        core._core.Clauses(flat.astype(np.int32), np.array([0, 2, 4], np.int64), 2)
    native = core.Clauses([[1, 2], [-1, -2]], 2)
    with pytest.raises(ValueError, match="assumption 3"):
        native.probe([3])
    with pytest.raises(ValueError, match="literal 0"):
        native.propagate_batch([[1], [0]])
    with pytest.raises(ValueError, match="rows of 81"):
        native.ladder(np.zeros((1, 80), np.int8), 9, 1)
    assert native.ladder(np.zeros((1, 4), np.int8), 2, 1).status.tolist() == [core.LADDER_OPEN]
    assert native.ladder(np.full((1, 4), 1, np.int8), 2, 1).status.tolist() == [core.LADDER_BAD]


@pytest.mark.parametrize("encoding", ["centrale", "minimal", "augmented"])
def test_closures_match_engine_closures(encoding):
    geometry = standard(9)
    native, engine = pair(geometry, encoding)
    rng = random.Random(len(encoding))
    sets = [given_literals(grid_of(EASTER_MONSTER), geometry), [1, 2], [], [-5, -14]]
    for _ in range(12):
        grid = [0] * 81
        for c in rng.sample(range(81), rng.randint(10, 40)):
            grid[c] = rng.randint(1, 9)
        sets.append(given_literals(tuple(grid), geometry))
    flat, offsets = core.literal_sets(sets)
    for depth in (0, 1, 2):
        got = native.closures((flat, offsets), depth, 729)
        expected = engine.closures(flat, offsets, depth, 729)
        assert got.status.tolist() == expected.status.tolist()
        assert got.assigned.tolist() == expected.assigned.tolist()
        assert np.array_equal(got.true, expected.true)
    with pytest.raises(ValueError, match="set 1: literals"):
        native.closures([[1], [0]], 1, 729)
    cut = native.closures([sets[0]] * 2, 2, 729, budget=100)
    assert cut.status.tolist() == [core.LADDER_BUDGET] * 2
