"""DPLL in the native core (`solvers.core.Clauses.search`, solvers/core/native/search/search.c).

The C search answers what the kernels it was ported from answered (recorded in
data/search.tsv.gz by tests/solvers/make_goldens.py; search_cases.py makes the
questions) on random formulas and Sudoku grids: the same outcome, models, counts and
counters (the branching order is theirs), lemmas and root levels.  The other checks
share nothing with the engine: every model is checked clause by clause, every count
against brute force over all assignments of tiny formulas, every UNSAT search's lemmas
through the independent proof checker (solvers.proofs.check, on PySAT), the root level
against a naive unit propagation, and the boundary's refusals and the time limit and
Ctrl-C through the signal poll.
"""

from __future__ import annotations

import itertools
import json
import signal
import threading
import time

import numpy as np
import pytest
from closure_oracle import unit_propagate
from golden import digest, expected
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from search_cases import (
    EASTER_MONSTER,
    FEWER_GIVENS,
    GOLDEN_FOUND,
    lemma_grids,
    native_solve,
    random_case,
    root_cases,
    sudoku_cases,
)

from encoder.dimacs import Cnf
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import standard
from encoder.grids import parse_cells
from solvers.core import DECISIONS, EXHAUSTED, FOUND, TIME, WORK, Clauses
from solvers.core.proof_log import FIRST, HEAD, new_log
from solvers.limits import TimeLimitReached, alarm_after
from solvers.proofs.check import check_proof, parse_proof
from solvers.proofs.write import lemma_lines

GOLDEN = "search.tsv.gz"


def native(clauses, num_vars: int) -> Clauses:
    cnf = Cnf.from_clauses(clauses, num_vars)
    return Clauses((cnf.literals, cnf.offsets), num_vars)


def satisfies(model, clauses) -> bool:
    true = set(model)
    return all(any(lit in true for lit in clause) for clause in clauses)


def brute_force_models(clauses, num_vars: int) -> list[tuple[int, ...]]:
    """Every model, by trying every assignment (tiny formulas only)."""
    out = []
    for signs in itertools.product((False, True), repeat=num_vars):
        model = tuple(v + 1 if signs[v] else -(v + 1) for v in range(num_vars))
        if satisfies(model, clauses):
            out.append(model)
    return out


tiny = st.integers(1, 9).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.lists(st.integers(1, n) | st.integers(-n, -1), max_size=4),
            max_size=14,
        ),
    )
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny)
def test_counts_and_models_match_brute_force(case):
    num_vars, clauses = case
    expected = brute_force_models(clauses, num_vars)
    search = native(clauses, num_vars)
    found = [tuple(model.tolist()) for model in search.models()]
    assert sorted(found) == sorted(expected)
    assert len(set(found)) == len(found)
    outcome, count, _ = search.search(max_models=None)
    assert outcome == EXHAUSTED and count == len(expected)
    outcome, _, model = search.search()
    assert (outcome == FOUND) == bool(expected)
    if outcome == FOUND:
        assert satisfies(model.tolist(), clauses)


@settings(max_examples=100, deadline=None)
@given(tiny, st.integers(0, 2))
def test_unsat_searches_write_proofs_the_checker_verifies(case, probe_depth):
    num_vars, clauses = case
    search = native(clauses, num_vars)
    log = new_log(4096)
    outcome, _, _ = search.search(probe_depth=probe_depth, log=log)
    if outcome != EXHAUSTED:
        return
    assert log[HEAD] <= log.size
    lemmas = np.concatenate((log[FIRST : log[HEAD]], [0]))  # then the empty clause
    proof = parse_proof(lemma_lines(lemmas), "search", num_vars)
    cnf = Cnf.from_clauses(clauses, num_vars)
    assert check_proof(cnf, proof, "search").claim == "unsatisfiable"


def _sudoku():
    formula = rule_formula(standard(9), "centrale")
    return formula, native(formula.clauses, formula.num_vars)


def test_sudoku_models_and_counts(pysat_models):
    formula, search = _sudoku()
    geometry = standard(9)
    givens = given_literals(parse_cells(EASTER_MONSTER, geometry), geometry)
    outcome, count, model = search.search(givens)
    assert outcome == FOUND and count == 1
    assert satisfies(model.tolist(), formula.clauses) and set(givens) <= set(model.tolist())
    assert search.search(givens, max_models=2)[:2] == (EXHAUSTED, 1)
    fewer = given_literals(parse_cells(FEWER_GIVENS, geometry), geometry)
    expected = list(pysat_models(formula.clauses, formula.num_vars, assumptions=fewer))
    assert len(expected) > 2  # Easter Monster without a given
    assert search.search(fewer, max_models=None)[:2] == (EXHAUSTED, len(expected))
    models = [tuple(m.tolist()) for m in search.models(fewer)]
    assert sorted(models) == sorted(expected)
    assert search.search(fewer, max_models=2)[:2] == (FOUND, 2)
    assert search.search(givens, budget=3)[0] == DECISIONS
    assert search.search(givens, work_budget=10)[0] == WORK
    assert search.search(givens, deadline=time.monotonic() - 1)[0] == TIME
    assert search.search(givens)[0] == FOUND  # every stop leaves the state ready


@pytest.mark.parametrize("seed", range(30))
def test_the_same_decisions_models_and_counters_as_the_golden_search(seed):
    """The branching order is the ported kernels': the same outcome, model or count, and
    decisions, backtracks, conflicts, propagations and hypotheses (data/search.tsv.gz);
    every model satisfies the formula and the assumptions."""
    clauses, num_vars, lits = random_case(seed)
    for probe_depth in (0, 1):
        for limit in (None, 1, 4):
            if limit is not None and probe_depth:
                continue
            got = native_solve(clauses, num_vars, lits, probe_depth, limit)
            assert got == json.loads(expected(GOLDEN, f"solve|{seed}|{probe_depth}|{limit}"))
            if got is not None and limit is None and got[0] == GOLDEN_FOUND:
                assert satisfies(got[1], clauses) and set(lits) <= set(got[1])


@pytest.mark.slow
def test_the_same_counters_as_the_golden_search_on_sudoku():
    for name, clauses, num_vars, lits, limit in sudoku_cases():
        got = native_solve(clauses, num_vars, lits, 0, limit)
        assert got == json.loads(expected(GOLDEN, f"sudoku|{name}|{limit}"))


def test_the_boundary_refuses_what_it_cannot_search():
    search = native([[1, 2], [-1, 2]], 2)
    with pytest.raises(ValueError, match=r"nonzero literals|is not in 1"):
        search.search([3])
    with pytest.raises(ValueError, match=r"nonzero literals|is not in 1"):
        search.search([0])
    with pytest.raises(ValueError, match="proof log"):
        search.search(log=np.zeros(5, np.int64))
    with pytest.raises(ValueError, match=">= 0"):
        search.search(max_models=-1)
    with pytest.raises(ValueError, match="probe_depth"):
        search.search(probe_depth=1000)
    with pytest.raises(RuntimeError, match="no model"):
        native([[1], [-1, 2], [-2]], 2).search(next_model=True)
    raw = search._cnf
    with pytest.raises(ValueError, match="int64"):
        raw.search(np.zeros(1, np.int32), False, 1, -1, -1, -1, 0, False, np.zeros(0, np.int64),
                   np.zeros(2, np.int64))  # fmt: skip
    with pytest.raises(ValueError, match="shape"):
        raw.search(np.zeros(0, np.int64), False, 1, -1, -1, -1, 0, False, np.zeros(0, np.int64),
                   np.zeros(3, np.int64))  # fmt: skip
    with pytest.raises(ValueError, match="num_vars"):
        Clauses((np.zeros(0, np.int64), np.zeros(1, np.int64)), 0)
    with pytest.raises(ValueError, match="literal 5"):
        Clauses((np.array([5], np.int64), np.array([0, 1], np.int64)), 2)
    with pytest.raises(ValueError, match="offsets"):
        Clauses((np.array([1], np.int64), np.array([0, 2], np.int64)), 2)
    assert native([[1], [-1]], 1).search()[0] == EXHAUSTED  # refuted at the root
    assert native([[]], 1).search()[0] == EXHAUSTED


def _pigeons(holes: int) -> tuple[list[list[int]], int]:
    """holes + 1 pigeons in `holes` holes: UNSAT, and DPLL takes exponential time."""
    pigeons = holes + 1
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(pigeons)]
    for h in range(holes):
        for p, q in itertools.combinations(range(pigeons), 2):
            clauses.append([-var(p, h), -var(q, h)])
    return clauses, pigeons * holes


def test_a_time_limit_and_ctrl_c_reach_the_search_through_the_signal_poll():
    clauses, num_vars = _pigeons(11)
    search = native(clauses, num_vars)
    start = time.monotonic()
    with pytest.raises(TimeLimitReached), alarm_after(0.2):
        search.search(max_models=None)
    assert time.monotonic() - start < 2.0  # 0.2 s, and a loaded CI machine's margin
    timer = threading.Timer(0.2, signal.raise_signal, (signal.SIGINT,))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        search.search(max_models=None)
    assert time.monotonic() - start < 2.0
    assert search.search(budget=5)[0] == DECISIONS  # the state is back at the root


@pytest.mark.parametrize(("name", "depth"), [("sudoku9_depth1", 1), ("sudoku9_x_depth2", 2)])
def test_ladder_lemmas_are_the_golden_ladders(name, depth):
    """The closures' lemmas in the core are the ported kernels' (the same hypotheses in
    the same order, data/search.tsv.gz); tests/solvers/test_proofs.py checks the proofs
    made of them."""
    from solvers import core

    geometry, grids = lemma_grids(name)
    formula = rule_formula(geometry, "centrale")
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    log, starts = new_log(1 << 16), np.zeros(len(grids) + 1, np.int64)
    clauses = core.Clauses((cnf.literals, cnf.offsets), formula.num_vars)
    out = clauses.depths(grids, depth, log=log, log_at=starts)
    assert log[HEAD] < log.size
    got = "|".join(
        (
            ",".join(map(str, out.status.tolist())),
            ",".join(map(str, out.depth.tolist())),
            ",".join(map(str, starts.tolist())),
            str(int(log[HEAD])),
            digest(log[FIRST : log[HEAD]]),
        )
    )
    assert got == expected(GOLDEN, f"lemmas|{name}|{depth}")


def test_the_clause_engine_gives_a_grid_up_at_its_time_limit():
    """The opt-in time limit of a depth loop's or a batch of closures' grids, read at the
    closures' hypothesis boundaries: a grid past it is DEPTH_TIMEOUT and the next
    grid starts afresh (the empty grid's depth-3 closure runs for many seconds)."""
    from solvers import core

    formula = rule_formula(standard(9), "centrale")
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    clauses = core.Clauses((cnf.literals, cnf.offsets), formula.num_vars)
    geometry = standard(9)
    easy = np.array(parse_cells(EASTER_MONSTER, geometry), np.int8)
    grids = np.stack([np.zeros(81, np.int8), easy])
    start = time.monotonic()
    out = clauses.depths(grids, 3, time_limit=0.1)
    assert time.monotonic() - start < 5
    assert out.status[0] == core.DEPTH_TIMEOUT and out.depth[0] >= 2
    assert 0.1 <= out.seconds[0] < 2
    assert out.status[1] == clauses.depths(easy[None], 3).status[0]  # unchanged
    sets = ([[], [1]], 3, formula.num_vars)
    closures = clauses.closures(sets[0], sets[1], sets[2], time_limit=0.1)
    assert closures.status.tolist() == [core.DEPTH_TIMEOUT, core.DEPTH_TIMEOUT]
    with pytest.raises(ValueError, match="time limit"):
        clauses.depths(grids, 1, time_limit=0)


def test_the_engines_propagation_is_the_searchs():
    """Engine.propagate enqueues the assumptions as a search starts (HomeBackend
    propagates a grid's givens before it searches, on the same formula): as lists and
    as arrays, in the same order, the set a closure of depth 0 assigns."""
    from solvers.core.engine import Engine

    formula = rule_formula(standard(9), "centrale")
    engine = Engine(formula.clauses, formula.num_vars)
    geometry = standard(9)
    for line in (EASTER_MONSTER, FEWER_GIVENS):
        givens = given_literals(parse_cells(line, geometry), geometry)
        ok, literals = engine.propagate(givens, as_array=True)
        want_ok, want = engine.probe(givens, depth=0)  # (the order: test_core_clauses.py)
        assert ok == want_ok and sorted(literals.tolist()) == sorted(want)
        assert engine.propagate(givens) == (ok, literals.tolist())
    assert engine.propagate([1, -1])[0] is False
    assert engine.propagate([1, -1], as_array=True)[0] is False
    for as_array in (False, True):
        with pytest.raises(ValueError, match=r"nonzero literals|is not in 1"):
            engine.propagate([0], as_array=as_array)


def test_the_root_level_is_the_golden_one():
    """The search's root level: the ported kernels', literal for literal in the trail's
    order (data/search.tsv.gz), the naive unit propagation's set (closure_oracle.py),
    and Engine.ok and Engine.fixed's."""
    from solvers.core.engine import Engine

    for key, clauses, num_vars in root_cases():
        cnf = Cnf.from_clauses(clauses, num_vars)
        search = Clauses((cnf.literals, cnf.offsets), num_vars)
        fixed = search.fixed().tolist() if search.ok else []
        assert [search.ok, fixed] == json.loads(expected(GOLDEN, f"root|{key}")), key
        ok, lits = unit_propagate(clauses, [])
        assert search.ok == ok and (set(fixed) == lits or not ok)
        engine = Engine(clauses, num_vars)
        assert engine.ok == ok and set(engine.fixed()) == set(fixed)
        engine.solve()
        engine.count(limit=3)
