"""The refutation-length kernels in C (solvers.core.length) against their numba originals
(solvers.length_kernels) on random states: the same answers and the same arrays
afterwards, kernel by kernel, facts with and without cones.  While numba exists; the
golden file of tests/solvers/test_core_length.py keeps the check once it is gone."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.paths import SETS
from encoder.dimacs import Cnf
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import make_geometry, standard
from encoder.puzzle_files import read_puzzles
from solvers.core import length as C
from solvers.literals import to_codes
from solvers.propagate import REASON_DECISION, REASON_PROBE, build

N = pytest.importorskip("solvers.length_kernels")


class Pair:
    """One formula, and the records of both versions over it."""

    def __init__(self, geometry, file: str, count: int):
        formula = rule_formula(geometry, "centrale")
        cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
        self.nv = formula.num_vars
        self.candidates = geometry.size**3
        self.F, _, self.units, _, _ = build(cnf.literals, cnf.offsets, self.nv, False)
        self.occ = N.occurrences(self.F)
        self.f = C.Formula(self.F, self.nv)
        self.Xn, self.An = N.new_scratch(self.F, self.nv), N.new_alternatives(self.F, self.nv)
        self.Xc, self.Ac = C.new_scratch(self.f), C.new_alternatives(self.f)
        puzzles = itertools.islice(read_puzzles(str(SETS / file), geometry), count)
        self.grids = [
            to_codes(np.asarray(given_literals(p.grid, geometry), np.int64)) for p in puzzles
        ]


PAIRS = {}


def pair(name: str) -> Pair:
    if name not in PAIRS:
        if name == "9x9":
            PAIRS[name] = Pair(standard(9), "sudoku9_depth1.txt", 40)
        else:
            PAIRS[name] = Pair(make_geometry(9, diagonals=True), "sudoku9_x_minimal.txt", 20)
    return PAIRS[name]


def same(a, b) -> None:
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


def states(p: Pair, data, track: bool):
    """Return the numba and C states of a random grid of p with random facts asserted
    (random cones when tracked), after checking that both versions agree on them."""
    grid = p.grids[data.draw(st.integers(0, len(p.grids) - 1))]
    Sn, Sc = N.new_state(p.F, p.nv, False), C.new_state(p.f, False)
    assert N.restart(p.F, p.occ, Sn, p.units, grid) == C.restart(p.f, Sc, p.units, grid)
    same(Sn, Sc)
    Sn.st[C.TRACK] = Sc.st[C.TRACK] = 1 if track else 0
    open_lits = [2 * v + s for v in range(p.candidates) for s in (0, 1) if Sn.value[2 * v] == 0]
    chosen = data.draw(st.lists(st.sampled_from(open_lits), max_size=12)) if open_lits else []
    lits = np.array(chosen, np.int32)
    rows = np.zeros(lits.size, np.int32)
    if track:
        for i in range(lits.size):  # a random cone for each fact
            row = int(Sn.st[C.POOL_SIZE])
            Sn.st[C.POOL_SIZE] += 1
            Sc.st[C.POOL_SIZE] += 1
            bits = data.draw(st.lists(st.integers(0, p.f.num_constraints - 1), max_size=6))
            for c in bits:
                Sn.pool[row, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            Sc.pool[row] = Sn.pool[row]
            rows[i] = row
    why = data.draw(st.sampled_from([REASON_DECISION, REASON_PROBE]))
    a = N.assert_facts(p.F, p.occ, Sn, lits, rows, why)
    b = C.assert_facts(p.f, Sc, lits, rows, why)
    assert a == b
    same(Sn, Sc)
    return Sn, Sc, a


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), name=st.sampled_from(["9x9", "x"]), track=st.booleans())
def test_refutations_agree(data, name, track):
    p = pair(name)
    Sn, Sc, conflict = states(p, data, track)
    if conflict != C.NO_CONFLICT:
        return
    m = p.f.num_constraints
    open_lits = [z for z in range(2 * p.candidates) if Sn.value[z] == 0]
    for z in data.draw(st.lists(st.sampled_from(open_lits), max_size=6)) if open_lits else []:
        limit = data.draw(st.integers(-2, m + 3))
        a = N.shortest_refutation(p.F, p.occ, Sn, p.Xn, z, limit)
        b = C.shortest_refutation(p.f, Sc, p.Xc, z, limit)
        assert a == b
        if a <= min(limit, m):
            np.testing.assert_array_equal(p.Xn.best_cone, p.Xc.best_cone)
        a = N.refutation_with_alternatives(p.F, p.occ, Sn, p.Xn, p.An, z, limit)
        b = C.refutation_with_alternatives(p.f, Sc, p.Xc, p.Ac, z, limit)
        assert a == b
        if a <= min(limit, m):
            np.testing.assert_array_equal(p.Xn.best_cone, p.Xc.best_cone)
            out_n = np.zeros((2, a + 1), np.int64)
            out_c = np.zeros((2, a + 1), np.int64)
            chain_n = N.refutation_chain(p.F, Sn, p.Xn.best_cone, z, out_n[0], out_n[1])
            chain_c = C.refutation_chain(p.f, Sc, p.Xc.best_cone, z, out_c[0], out_c[1])
            assert tuple(chain_n) == chain_c
            np.testing.assert_array_equal(out_n, out_c)
    same(Sn, Sc)  # the state is not changed
    same(p.Xn[:1], p.Xc[:1])  # the hypothesis's values are reset
    limit = data.draw(st.integers(0, m))
    ln, lc = np.zeros(p.candidates, np.int64), np.zeros(p.candidates, np.int64)
    a = N.candidate_lengths(p.F, p.occ, Sn, p.Xn, p.candidates, limit, ln)
    assert a == C.candidate_lengths(p.f, Sc, p.Xc, p.candidates, limit, lc)
    np.testing.assert_array_equal(ln, lc)
    a = N.shorter_lengths(p.F, p.occ, Sn, p.Xn, p.An, p.candidates, limit, ln)
    assert a == C.shorter_lengths(p.f, Sc, p.Xc, p.Ac, p.candidates, limit, lc)
    np.testing.assert_array_equal(ln, lc)


@pytest.mark.slow
@SETTINGS
@given(data=st.data(), name=st.sampled_from(["9x9", "x"]), track=st.booleans())
def test_resolutions_agree(data, name, track):
    p = pair(name)
    Sn, Sc, conflict = states(p, data, track)
    if conflict != C.NO_CONFLICT:
        return
    m = p.f.num_constraints
    limit = data.draw(st.integers(0, m))
    budget = data.draw(st.integers(0, 40))
    ln, lc = np.zeros(p.candidates, np.int64), np.zeros(p.candidates, np.int64)
    logn, logc = np.zeros(8, np.int64), np.zeros(8, np.int64)
    Un, Uc = N.copy_state(Sn), C.copy_state(Sc)
    a = N.simplest_first(p.F, p.occ, Un, p.Xn, p.An, p.candidates, limit, ln, logn, budget)
    b = C.simplest_first(p.f, Uc, p.Xc, p.Ac, p.candidates, limit, lc, logc, budget)
    assert tuple(a) == b
    same(Un, Uc)
    np.testing.assert_array_equal(logn, logc)
    assert N.solved(Un, p.candidates) == C.solved(p.f, Uc, p.candidates)
    a = N.failed_closure(p.F, p.occ, Sn, p.Xn, p.candidates)
    assert a == C.failed_closure(p.f, Sc, p.Xc, p.candidates)
    same(Sn, Sc)
    for lit in data.draw(st.lists(st.integers(0, 2 * p.nv - 1), max_size=4)):
        assert N.eliminate(p.F, p.occ, Sn, lit) == C.eliminate(p.f, Sc, lit)
        same(Sn, Sc)


def test_the_records_have_the_numba_shapes():
    p = pair("9x9")
    Sn, Sc = N.new_state(p.F, p.nv, True), C.new_state(p.f, True)
    for a, b in zip((Sn, p.Xn, p.An), (Sc, p.Xc, p.Ac), strict=True):
        for x, y in zip(a, b, strict=True):
            assert x.shape == y.shape and x.dtype == y.dtype
    same(Sn, Sc)


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), name=st.sampled_from(["9x9", "x"]))
def test_bxb_agrees(data, name):
    # T&E(B_p) on a random state of a grid, for p = 1, 2, ... on one growing state with the
    # hypotheses' saved states (memo), as BxbRater.rate runs it; then single hypotheses
    # without memo, as its explanations do; budgets and an expired clock included.
    from bxb_numba_oracle import _try_hypothesis, trial_and_error

    p = pair(name)
    Sn, Sc, conflict = states(p, data, False)
    if conflict != C.NO_CONFLICT:
        return
    nlits, n = 2 * p.nv, p.candidates
    Un, Uc = C.new_state(p.f, False), C.new_state(p.f, False)
    memo_n = (np.zeros((n, nlits), np.int8), np.zeros(n, np.int64), np.zeros(n, np.bool_))
    memo_c = tuple(a.copy() for a in memo_n)
    true_somewhere = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    budget = data.draw(st.sampled_from([1 << 62, data.draw(st.integers(0, 3000))]))
    expired = data.draw(st.booleans()) and data.draw(st.booleans())
    work_n, work_c = np.zeros(C.NUM_COUNTERS, np.int64), np.zeros(C.NUM_COUNTERS, np.int64)
    work_n[C.BUDGET] = work_c[C.BUDGET] = budget
    for limit in range(1, data.draw(st.integers(1, 4)) + 1):
        a = trial_and_error(p.F, p.occ, Sn, Un, p.Xn, n, limit, -1.0 if expired else np.inf,
                            true_somewhere, memo_n, work_n)  # fmt: skip
        b = C.trial_and_error(p.f, Sc, Uc, p.Xc, n, limit, -1.0 if expired else np.inf,
                              true_somewhere, memo_c, work_c)  # fmt: skip
        assert tuple(a) == b
        np.testing.assert_array_equal(work_n, work_c)
        same(Sn, Sc)
        same(memo_n, memo_c)
        if a[0] != C.STUCK:
            break
    no_memo = (np.zeros((0, nlits), np.int8), np.zeros(0, np.int64), np.zeros(0, np.bool_))
    codes, cones = np.zeros(nlits, np.int32), np.zeros(nlits, np.int32)
    open_v = [v for v in range(n) if Sn.value[2 * v] == 0]
    for v in data.draw(st.lists(st.sampled_from(open_v), max_size=3)) if open_v else []:
        a = _try_hypothesis(p.F, p.occ, Sn, Un, p.Xn, n, v, 2, np.inf, no_memo, codes, cones,
                            work_n)  # fmt: skip
        b = C.try_hypothesis(p.f, Sc, Uc, p.Xc, n, v, 2, np.inf, no_memo, work_c)
        assert tuple(a) == b
        np.testing.assert_array_equal(work_n, work_c)
        same(Un, Uc)
