"""The native clause engine (solvers.core.Clauses): unit propagation, the failed-literal
closures of depth 0 to 3 (both polarities), batches and the depth loop.

Oracles, none of them the core:
- closure_oracle.py: a naive unit propagation in plain Python and the closure the slow
  obvious way, on the tiny formulas (tiny_formulas.py) and random CNFs (hypothesis);
- the golden file data/clauses.tsv.gz, written by the clause engine the core was ported
  from (tests/solvers/make_goldens.py): closures and ladders on the rules of every
  encoding and geometry, batches of closures (statuses, assigned, true variables), a
  batch of propagations and the order of the search's propagation;
- the native board (solvers.core.Board, itself checked in test_core_board.py) on the
  centrale rules, and encoder.check.is_solution for every solution a depth loop gives.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from closure_oracle import closure, unit_propagate
from golden import (
    EASTER_MONSTER,
    GEOMETRIES,
    RULE_GEOMETRIES,
    batch_sets,
    closure_sets,
    closure_value,
    digest,
    expected,
    geometry_key,
    grid_key,
    grid_of,
    ladder_value,
    rule_grids,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiny_formulas import TINY

import solvers.core as core
from encoder.check import is_solution
from encoder.dimacs import Cnf
from encoder.encodings import ENCODINGS, given_literals, rule_formula
from encoder.geometry import Geometry, standard
from encoder.grids import parse_cells

GOLDEN = "clauses.tsv.gz"


@functools.lru_cache(maxsize=32)
def native_rules(geometry: Geometry, encoding: str) -> core.Clauses:
    formula = rule_formula(geometry, encoding)
    return core.Clauses(formula.clauses, formula.num_vars)


def naive_probe(clauses, num_vars, assumptions, depth, polarity):
    """The oracle's answer as the core gives it: the literals above the root level."""
    root_ok, root = unit_propagate(clauses, [])
    if not root_ok:
        return False, set()
    variables = range(1, num_vars + 1)
    ok, lits = closure(lambda a: unit_propagate(clauses, a), assumptions, depth, polarity,
                       variables)  # fmt: skip
    return ok, (lits - root if ok else set())


def assert_probes_are_naive(clauses, num_vars, assumptions, depths, polarity="both"):
    native = core.Clauses(clauses, num_vars)
    assert native.ok == unit_propagate(clauses, [])[0]
    for depth in depths:
        ok, lits = native.probe(assumptions, depth, polarity)
        assert len(lits) == len(set(lits))
        want = naive_probe(clauses, num_vars, assumptions, depth, polarity)
        assert (ok, set(lits)) == want, (clauses, assumptions, depth, polarity)


@pytest.mark.parametrize(("name", "clauses", "num_vars", "status"), TINY, ids=[t[0] for t in TINY])
def test_tiny_formulas(name, clauses, num_vars, status):
    if num_vars == 0:
        with pytest.raises(ValueError, match="empty formula"):
            core.Clauses(clauses, num_vars)
        return
    for v in range(1, num_vars + 1):
        for assumptions in ([], [v], [-v]):
            assert_probes_are_naive(clauses, num_vars, assumptions, (0, 1, 2))


@st.composite
def random_cnfs(draw, most_vars=12, most_clauses=40):
    num_vars = draw(st.integers(1, most_vars))
    literal = st.integers(1, num_vars).flatmap(lambda v: st.sampled_from([v, -v]))
    clauses = draw(st.lists(st.lists(literal, min_size=1, max_size=5), max_size=most_clauses))
    assumptions = draw(st.lists(literal, max_size=3))
    return clauses, num_vars, assumptions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_cnfs(), st.sampled_from(["both", "positive"]))
def test_random_cnfs(case, polarity):
    clauses, num_vars, assumptions = case
    assert_probes_are_naive(clauses, num_vars, assumptions, (0, 1, 2), polarity)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_cnfs(7, 24), st.sampled_from(["both", "positive"]))
def test_random_cnfs_at_depth_3(case, polarity):
    clauses, num_vars, assumptions = case
    assert_probes_are_naive(clauses, num_vars, assumptions, (3,), polarity)


def test_pigeons_need_depth_holes_minus_one():
    """n + 1 pigeons in n holes: each hypothesis leaves a smaller pigeonhole problem, so
    the refutation takes exactly n - 1 nested levels (known by hand)."""
    for holes in (2, 3, 4, 5):
        pigeons = holes + 1
        var = lambda p, h, holes=holes: p * holes + h + 1  # noqa: E731
        clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
        for h in range(holes):
            for p in range(pigeons):
                for q in range(p + 1, pigeons):
                    clauses.append([-var(p, h), -var(q, h)])
        native = core.Clauses(clauses, pigeons * holes)
        refuted = [not native.probe([], depth)[0] for depth in range(holes + 1)]
        assert refuted == [depth >= holes - 1 for depth in range(holes + 1)]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", RULE_GEOMETRIES)
def test_rules_of_every_encoding_and_geometry(encoding, name):
    geometry = GEOMETRIES[name]
    n = geometry.size
    native = native_rules(geometry, encoding)
    grids = rule_grids(name, encoding)
    depths = (0, 1, 2) if n <= 6 or encoding == "centrale" else (0, 1)
    for grid in grids[:3]:
        for depth in depths:
            ok, lits = native.probe(given_literals(grid, geometry), depth)
            assert len(lits) == len(set(lits))
            key = f"probe|{encoding}|{grid_key(geometry, grid)}|{depth}|both"
            assert closure_value(ok, lits) == expected(GOLDEN, key), (grid, depth)
    values = np.asarray(grids, np.int8)
    got = native.depths(values, max(depths))
    key = f"ladder|{encoding}|{geometry_key(geometry)}|{digest(values)}|{max(depths)}"
    assert ladder_value(got.status, got.depth, got.solutions) == expected(GOLDEN, key)
    for g in np.flatnonzero(got.status == core.DEPTH_SAT):
        assert is_solution(got.solutions[g].tolist(), values[g].tolist(), geometry)
    if encoding == "centrale":
        board = core.Board(geometry).depths(values, max(depths))
        assert board.status.tolist() == got.status.tolist()
        assert board.depth.tolist() == got.depth.tolist()
        assert np.array_equal(board.solutions, got.solutions)


def test_batch_of_propagations():
    native = native_rules(standard(9), "centrale")
    sets = batch_sets()
    ok, values = native.propagate_batch(sets)
    ok = ok.astype(bool).astype(int)
    values = np.where(ok[:, None] == 1, values, 0)
    flat, offsets = core.literal_sets(sets)
    want = expected(GOLDEN, f"batch|{digest(flat, offsets)}")
    assert ",".join(map(str, ok.tolist())) + "|" + digest(values) == want
    for g, assumptions in enumerate(sets):  # and each set alone
        one_ok, lits = native.propagate(assumptions)
        assert one_ok == bool(ok[g])
        row = np.zeros(729, np.int64)
        for lit in lits:
            row[abs(lit) - 1] = 1 if lit > 0 else -1
        assert np.array_equal(row, values[g])


def test_the_search_propagates_in_the_ported_order():
    """The search's propagation (Clauses.propagate_levels: Engine.propagate's, which
    HomeBackend runs before a search) lists its literals in the order the ported engine
    assigned them: the search's counters follow that order.  The set is
    Clauses.propagate's."""
    formula = rule_formula(standard(9), "centrale")
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    search = core.Clauses((cnf.literals, cnf.offsets), formula.num_vars)
    native = native_rules(standard(9), "centrale")
    for line in (EASTER_MONSTER, EASTER_MONSTER[:-1] + "."):
        givens = given_literals(parse_cells(line, standard(9)), standard(9))
        ok, lits = search.propagate_levels(givens, as_array=True)
        lits = lits.tolist()
        got = f"{int(ok)}|{len(lits)}|{digest(tuple(lits))}"
        assert got == expected(GOLDEN, f"trail|{digest(tuple(givens))}")
        assert (ok, set(lits)) == (lambda a: (a[0], set(a[1])))(native.propagate(givens))


def test_budget_is_deterministic():
    native = native_rules(standard(9), "centrale")
    grids = [grid_of(EASTER_MONSTER)] * 2
    free = native.depths(grids, 2)
    assert free.status.tolist() == [core.DEPTH_SAT] * 2 and free.work[0] == free.work[1]
    cut = native.depths(grids, 2, budget=int(free.work[0]) // 3)
    assert cut.status.tolist() == [core.DEPTH_BUDGET] * 2
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
    with pytest.raises(ValueError, match=r"assumption 0 is not in 1\.\.2"):
        native.propagate_batch([[1], [0]])
    with pytest.raises(ValueError, match=r"rows of N\*N values .*not rows of 80"):
        native.depths(np.zeros((1, 80), np.int8), 1)
    with pytest.raises(ValueError, match=r"N\*\*3 <= 2 .*not rows of 4"):  # 2x2: 8 variables
        native.depths(np.zeros((1, 4), np.int8), 1)
    wide = core.Clauses([[1, 2], [-1, -2], [8]], 8)  # room for a 2x2 grid's 8 variables
    assert wide.depths(np.zeros((1, 4), np.int8), 1).status.tolist() == [core.DEPTH_OPEN]
    assert wide.depths(np.full((1, 4), 3, np.int8), 1).status.tolist() == [core.DEPTH_BAD]


@pytest.mark.parametrize("encoding", ["centrale", "minimal", "augmented"])
def test_batches_of_closures(encoding):
    native = native_rules(standard(9), encoding)
    sets = closure_sets(encoding)
    flat, offsets = core.literal_sets(sets)
    for depth in (0, 1, 2):
        got = native.closures((flat, offsets), depth, 729)
        value = "|".join(
            (
                ",".join(map(str, got.status.tolist())),
                ",".join(map(str, got.assigned.tolist())),
                digest(got.true),
            )
        )
        assert value == expected(GOLDEN, f"closures|{encoding}|{digest(flat, offsets)}|{depth}")
    with pytest.raises(ValueError, match="set 1: literals"):
        native.closures([[1], [0]], 1, 729)
    cut = native.closures([sets[0]] * 2, 2, 729, budget=100)
    assert cut.status.tolist() == [core.DEPTH_BUDGET] * 2


def test_only_a_pair_of_arrays_is_read_as_flat_and_offsets():
    """([1], [6]) is two sets, not flat [1] with offsets [6] (which any pair of
    sequences was read as); and the arrays' values are taken exactly: a float array is
    refused, not truncated (1.9 became 1), a uint64 beyond int64 refused (2^64-1
    became -1)."""
    import numpy as np

    clauses = core.Clauses([[1, 2], [-1, 2], [3]])
    ok, values = clauses.propagate_batch(([1], [-2]))
    assert ok.tolist() == [1, 0] and values[0].tolist() == [1, 1, 1]
    beyond = np.array([2**64 - 1], np.uint64)
    for pair, error in [
        ((np.array([1.9]), np.array([0, 1])), TypeError),
        ((beyond, np.array([0, 1])), OverflowError),
    ]:
        for call in (clauses.propagate_batch, core.Clauses):
            with pytest.raises(error):
                call(pair)
    with pytest.raises(TypeError, match="a literal must be an integer"):
        core.Clauses([[1.9, -2.7]])


def test_assumptions_are_exact_integers_on_every_path():
    """The array paths cast what the list paths refused: Clauses.probe and Board.probe
    with as_array, Engine.probe and Engine.solve with float or uint64 assumptions
    answered for another set of literals (1.9 as 1, 2^64-1 as -1)."""
    import numpy as np

    from encoder.geometry import standard
    from solvers.core.engine import Engine

    engine = Engine([[1, 2], [-1, 2]])
    board = core.Board(standard())
    calls = [
        lambda lits: engine.probe(lits, 1, as_array=True),
        lambda lits: engine.propagate(lits, as_array=True),
        lambda lits: engine.solve(lits),
        lambda lits: engine.clauses.probe(lits, 1, as_array=True),
        lambda lits: board.probe(lits, 1, as_array=True),
    ]
    for call in calls:
        with pytest.raises(TypeError):
            call(np.array([1.9]))
        with pytest.raises(TypeError):
            call([1.9])
        with pytest.raises(OverflowError):
            call(np.array([2**64 - 1], np.uint64))
        with pytest.raises(TypeError, match="bool"):  # an int to Python, no literal
            call([True])
        assert call(np.array([1], np.int16)) is not None


def test_a_bool_is_no_literal_on_any_list_path():
    """True was read as literal 1 by the list paths (the arrays' refused it): clauses,
    the lists the faces hand to C, and Engine's PySAT-shaped calls."""
    from encoder.geometry import standard
    from solvers.core.engine import Engine

    engine = Engine([[1, 2], [-1, 2]])
    board = core.Board(standard())
    calls = [
        lambda: core.Clauses([[True, 2]]),
        lambda: Engine([[1, False]]),
        lambda: engine.propagate([True]),
        lambda: engine.probe([True], 1),
        lambda: engine.clauses.probe([1, True], 1),
        lambda: board.probe([True], 1),
        lambda: board.propagate([True]),
    ]
    for call in calls:
        with pytest.raises(TypeError, match="bool"):
            call()
    assert engine.propagate([1]) == (True, [1, 2])
