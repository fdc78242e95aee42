"""The refutation-length kernels in C (solvers.core.length): the boundary (every bad
record is a ValueError or TypeError, never a crash, random garbage included), Ctrl-C
inside a kernel, and a golden file of ratings the kernels the C port replaced gave,
which keeps the port honest (test_core_length_golden.py compares the kernels one by one
with theirs).  The sanitizer test (test_core_safety.py) runs this file under ASan and UBSan.

Regenerate the golden file (only for a deliberate change of the ratings, saying why):
    PYTHONPATH=. python tests/solvers/test_core_length.py > tests/solvers/data/length_ratings.tsv
"""

from __future__ import annotations

import contextlib
import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interrupted_child import seconds_to_stop

import solvers.ratings.length as L
from encoder.geometry import make_geometry
from encoder.puzzle_files import read_puzzles
from encoder.status import Status
from solvers.core import length as K
from solvers.ratings.length import RefutationRater

PROJECT = Path(__file__).resolve().parents[2]
GOLDEN = PROJECT / "tests" / "solvers" / "data" / "length_ratings.tsv"
# The golden file's grids: (file of data/sets, how many from its start; None: all).
SAMPLE = (
    ("sudoku4_minimal.txt", None),
    ("sudoku6_minimal.txt", None),
    ("sudoku9_depth0.txt", 100),
    ("sudoku9_depth1.txt", 20),
    ("sudoku9_hyper_minimal.txt", 8),
    ("sudoku9_jigsaw_minimal.txt", 8),
    ("sudoku9_x_minimal.txt", 8),
)
HEADER = """\
# Refutation-length ratings (RefutationRater.rate, max_depth 1) of the first grids of
# data/sets files, first made by the kernels the C port replaced (length_kernels.py at
# commit dc8f910) and made again, byte for byte, by the C kernels; columns: grid, label, length,
# depth, status, steps of the resolution, searches (the work budget's units).  Generated
# by (with the kernels that rate today):
#   PYTHONPATH=. python tests/solvers/test_core_length.py > tests/solvers/data/length_ratings.tsv
"""


# The quick suite's part of it (the whole file: a slow test).
QUICK = (("sudoku6_minimal.txt", 30), ("sudoku9_depth1.txt", 6), ("sudoku9_x_minimal.txt", 2))


def golden_lines(sample=SAMPLE):
    """Yield the golden file's lines (of `sample`), rated by the kernels in use."""
    raters = {}
    for name, count in sample:
        path = PROJECT / "data" / "sets" / name
        for p in itertools.islice(read_puzzles(str(path)), count):
            key = p.geometry
            rater = raters.setdefault(key, RefutationRater(p.geometry))
            a = rater.rate(p.grid, 1)
            where = "data/sets/" + p.source.rsplit("/", 1)[1]
            fields = (where, a.label(), a.length, a.depth, a.status, a.steps, a.searches)
            yield "\t".join(str(f) for f in fields)


def golden_file() -> list[str]:
    return [line for line in GOLDEN.read_text().splitlines() if not line.startswith("#")]


@pytest.mark.slow
def test_the_ratings_are_the_golden_ones():
    assert list(golden_lines()) == golden_file()


def test_the_first_ratings_are_the_golden_ones():
    expected = []
    for name, count in QUICK:
        lines = [line for line in golden_file() if line.startswith(f"data/sets/{name}:")]
        expected += lines[:count]
    assert list(golden_lines(QUICK)) == expected


def test_the_codes_have_one_home():
    """Statuses (status.h's, negated) and reasons come from the core (length.h), read by
    the rating as they are; statuses are negative (never a length or a count) and
    distinct, and so are reasons and NO_CONFLICT (never a pool row)."""
    statuses = ("PAUSED", "SOLVED", "CONTRADICTION", "STUCK", "OUT_OF_TIME", "OUT_OF_BUDGET",
                "BAD_SOLUTION")  # fmt: skip
    reasons = ("REASON_DECISION", "REASON_PROBE", "REASON_UNIT", "BINARY_REASON")
    assert K.NO_CONFLICT < 0
    for names in (statuses, reasons):
        values = [getattr(K, name) for name in names]
        assert all(value < 0 for value in values) and len(set(values)) == len(values)
    for name in ("NO_CONFLICT", "PAUSED", "SOLVED", "CONTRADICTION", "REASON_DECISION",
                 "REASON_PROBE"):  # fmt: skip
        assert getattr(L, name) == getattr(K, name), name


# --- the boundary ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def rater():
    return RefutationRater(make_geometry(6))  # 144 constraints: the cones' last word has room


def records(rater):
    f = rater.formula
    S = rater.start((1, 2, 3) + (0,) * 33)
    return f, S, K.Scratch(f), K.Alternatives(f)


def calls(f, S, X, A):
    """Every kernel once on these records."""
    n = f.num_vars // 2
    lengths, log = np.zeros(n, np.int64), np.zeros(4, np.int64)
    yield lambda: K.shortest_refutation(f, S, X, 0, 10)
    yield lambda: K.refutation_with_alternatives(f, S, X, A, 0, 10)
    yield lambda: K.candidate_lengths(f, S, X, n, 10, lengths)
    yield lambda: K.shorter_lengths(f, S, X, A, n, 10, lengths)
    yield lambda: K.simplest_first(f, S, X, A, n, 10, lengths, log, 5)
    yield lambda: K.failed_closure(f, S, X, n)
    yield lambda: K.solved(f, S, n)
    yield lambda: K.eliminate(f, S, 1)


def test_records_are_the_cores_own(rater):
    # A record is made for one formula; Python reads copies, never the kernels' arrays.
    f, S, X, _ = records(rater)
    value = S.value
    assert value.dtype == np.int8 and value.size == 2 * f.num_vars and not value.flags.writeable
    assert S.formula is f and not S.track and S.num_facts > 0
    T = S.copy(track=True)
    assert T.track and not S.track and np.array_equal(T.value, value)
    K.eliminate(f, T, int(np.flatnonzero(value == 0)[0]))
    assert np.array_equal(S.value, value)  # the copy has arrays of its own
    assert X.best_cone.size == f.num_words and not X.arrays()["value"].any()
    assert set(S.arrays()) == {"value", "level", "reason", "trail", "st", "cone", "nfalse",
                               "ntrue", "pool"}  # fmt: skip
    with pytest.raises(RuntimeError, match="made once"):
        S.__init__(f)
    with pytest.raises(TypeError):
        K.State(rater.F)  # the arrays, not the core's formula
    with pytest.raises(RuntimeError, match="not made"):
        K.shortest_refutation(f, K.State.__new__(K.State), X, 0, 10)


def test_records_of_another_formula_or_type_are_refused(rater):
    f, S, X, A = records(rater)
    other = RefutationRater(make_geometry(6))
    _, T, Y, B = records(other)
    for call in calls(f, T, X, A):  # a State of another formula of the same shape
        with pytest.raises(ValueError, match="another Formula"):
            call()
    with pytest.raises(ValueError, match="another Formula"):
        K.shortest_refutation(f, S, Y, 0, 10)
    with pytest.raises(ValueError, match="another Formula"):
        K.refutation_with_alternatives(f, S, X, B, 0, 10)
    with pytest.raises(TypeError):
        K.shortest_refutation(f, S, A, 0, 10)  # Alternatives for Scratch
    with pytest.raises(TypeError):
        K.shortest_refutation(f, tuple(S.arrays().values()), X, 0, 10)


def test_cones_enter_a_tracked_state_checked(rater):
    f, S, _, _ = records(rater)
    cone = np.zeros(f.num_words, np.uint64)
    with pytest.raises(ValueError, match="untracked"):
        S.add_cone(cone)
    T = S.copy(track=True)
    cone[0] = 5
    row = T.add_cone(cone)
    assert np.array_equal(T.pool_row(row), cone)
    past = cone.copy()
    past[-1] = np.uint64(1) << np.uint64(63)  # (144 constraints: bit 191 is none)
    with pytest.raises(ValueError, match="past the constraints"):
        T.add_cone(past)
    for bad in (cone[:-1], cone.astype(np.int64), cone.tolist()):
        with pytest.raises(ValueError):
            T.add_cone(bad)
    with pytest.raises(ValueError, match="not in use"):
        T.pool_row(row + 1)
    with pytest.raises(TypeError):
        T.pool_row(1.0)
    rows = np.array([row], np.int32)
    assert K.assert_facts(f, T, np.array([0], np.int32), rows, K.REASON_PROBE) in (
        K.NO_CONFLICT, *range(row + 1, 10**6))  # fmt: skip


def test_arguments_are_checked(rater):
    f, S, X, _ = records(rater)
    n = f.num_vars // 2
    with pytest.raises(ValueError):
        K.shortest_refutation(f, S, X, 2 * f.num_vars, 10)  # no such literal
    with pytest.raises(ValueError):
        K.candidate_lengths(f, S, X, f.num_vars + 1, 10, np.zeros(f.num_vars + 1, np.int64))
    with pytest.raises(ValueError):
        K.candidate_lengths(f, S, X, n, 10, np.zeros(n - 1, np.int64))
    with pytest.raises(ValueError):
        K.assert_facts(f, S, np.array([0], np.int32), np.array([5], np.int32), K.REASON_PROBE)
    with pytest.raises(ValueError):
        K.assert_facts(f, S, np.array([0], np.int32), np.array([0], np.int32), 7)
    with pytest.raises(ValueError):
        K.restart(f, S, np.zeros(0, np.int32), np.array([-1], np.int32))
    with pytest.raises(ValueError):
        K.refutation_chain(f, S, np.zeros(f.num_words, np.uint64), 0, np.zeros(0, np.int64),
                           np.zeros(1, np.int64))  # fmt: skip
    with pytest.raises(TypeError):
        K.shortest_refutation(rater.F, S, X, 0, 10)  # the formula, not the core's copy
    with pytest.raises(TypeError):
        K.shortest_refutation(f, S, X, 0.0, 10)


def test_bxb_arguments_are_checked(rater):
    f, T, X, _ = records(rater)
    n = f.num_vars // 2
    U = K.State(f)
    work = np.zeros(K.NUM_COUNTERS, np.int64)
    work[K.BUDGET] = 1 << 40
    memo = (np.zeros((n, 2 * f.num_vars), np.int8), np.zeros(n, np.int64), np.zeros(n, bool))
    true = np.zeros(n, bool)
    assert K.trial_and_error(f, T, U, X, n, 1, np.inf, true, memo, work)[0] in (
        K.SOLVED, K.STUCK, K.CONTRADICTION)  # fmt: skip
    short = (memo[0][:3].copy(), memo[1][:3].copy(), memo[2][:3].copy())
    bad = {
        "memo rows": lambda: K.trial_and_error(f, T, U, X, n, 1, np.inf, true, short, work),
        "memo dtype": lambda: K.trial_and_error(
            f, T, U, X, n, 1, np.inf, true, (memo[0], memo[1], memo[2].astype(np.int32)), work
        ),
        "true dtype": lambda: K.trial_and_error(
            f, T, U, X, n, 1, np.inf, true.astype(np.int64), memo, work
        ),
        "work short": lambda: K.braid_closure(f, T, X, n, 1, np.inf, work[:3].copy()),
        "U is T": lambda: K.trial_and_error(f, T, T, X, n, 1, np.inf, true, memo, work),
        "candidate": lambda: K.try_hypothesis(f, T, U, X, n, n, 1, np.inf, memo, work),
    }
    for name, call in bad.items():
        with pytest.raises(ValueError):
            call()
            pytest.fail(name)
    with pytest.raises(TypeError):
        K.try_hypothesis(f, T, U, X, n, 0, 1, np.inf, memo[:2], work)
    work[:] = 0  # no budget: stopped before the first search
    assert K.braid_closure(f, T, X, n, 1, np.inf, work)[0] == K.OUT_OF_BUDGET
    work[K.BUDGET] = 1 << 40  # a deadline already passed: stopped at the first look at the clock
    assert K.braid_closure(f, T, X, n, 1, -1.0, work)[0] == K.OUT_OF_TIME


def test_a_formula_is_checked_once(rater):
    F = rater.F
    with pytest.raises(ValueError):
        K.LengthFormula(F, 0)
    with pytest.raises(ValueError):
        K.LengthFormula(F._replace(bimp=F.bimp + 10**6), rater.num_vars)
    with pytest.raises(ValueError):
        K.LengthFormula(F._replace(lits=-F.lits), rater.num_vars)
    # Watch lists without room for every constraint (as a build with exactly-one groups
    # made them, the groups left unwatched).
    with pytest.raises(ValueError, match="groups"):
        K.LengthFormula(F._replace(wstart=np.zeros_like(F.wstart)), rater.num_vars)
    f = K.LengthFormula(F, rater.num_vars)
    F.lits[:] = 0  # the core keeps its own copy
    assert f.num_constraints == rater.formula.num_constraints


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_states_never_crash(rater, data):
    # Any state the kernels can reach - random facts, random cones on a tracked state,
    # contradictions included: every kernel answers or raises ValueError, nothing else.
    f, S, X, A = records(rater)
    S = S.copy(track=data.draw(st.booleans()))
    for _ in range(data.draw(st.integers(0, 12))):
        lit = data.draw(st.integers(0, 2 * f.num_vars - 1))
        row = K.EMPTY
        if S.track and data.draw(st.booleans()):
            cone = np.zeros(f.num_words, np.uint64)
            for c in data.draw(st.lists(st.integers(0, f.num_constraints - 1), max_size=6)):
                cone[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            row = S.add_cone(cone)
        why = data.draw(st.sampled_from([K.REASON_DECISION, K.REASON_PROBE]))
        if K.assert_facts(f, S, np.array([lit], np.int32), np.array([row], np.int32), why) != (
            K.NO_CONFLICT
        ):
            break
    for call in calls(f, S, X, A):
        with contextlib.suppress(ValueError):
            call()


# --- Ctrl-C ----------------------------------------------------------------------------

INTERRUPTED = """
import sys, time
import numpy as np
from encoder.puzzle_files import read_puzzles
from solvers.core import length as K
from solvers.ratings.length import RefutationRater
puzzle = next(read_puzzles(sys.argv[1]))  # a 16x16 grid: one call lasts seconds
r = RefutationRater(puzzle.geometry)
S0 = r.start(puzzle.grid)
print("ready", flush=True)
try:
    while True:
        S = S0.copy()
        K.simplest_first(r.formula, S, r.X, r.A, r.num_candidates, 10**6, r._lengths,
                         r._step_lengths, 10**6)
except KeyboardInterrupt:
    print(time.monotonic(), flush=True)
    sys.exit(130)
"""


@pytest.mark.slow
def test_ctrl_c_ends_the_resolution_within_half_a_second():
    assert seconds_to_stop(INTERRUPTED, "data/sets/sudoku16_minimal.txt") < 0.5


if __name__ == "__main__":
    print(HEADER, end="")
    for line in golden_lines():
        print(line)


@pytest.mark.parametrize("encoding", ["centrale", "natural", "minimal", "centrale+ladder"])
def test_a_step_chooses_what_unbounded_searches_choose(encoding):
    # candidate_lengths searches by deepening (and, on the exam's formula, reads the
    # bound 1 off the links); its least length and the candidates of that length must
    # be those of searching every open candidate with no bound, one by one.  On grids'
    # states with random candidates removed (untracked and tracked, closed or not).
    rng = np.random.default_rng(5)
    geometry = make_geometry(9)
    rater = RefutationRater(geometry, encoding)
    f, n, m = rater.formula, rater.num_candidates, rater.num_constraints
    puzzles = itertools.islice(
        read_puzzles(str(PROJECT / "data" / "sets" / "sudoku9_depth1.txt")), 8
    )
    checked = 0
    for puzzle in puzzles:
        for track in (0, 1):
            S = rater.start(puzzle.grid).copy(track=bool(track))
            for lit in rng.choice(np.flatnonzero(S.value[0 : 2 * n : 2] == 0), 3, replace=False):
                if K.eliminate(f, S, int(2 * lit + 1)) != K.NO_CONFLICT:
                    break
            else:
                lengths = np.zeros(n, np.int64)
                best = K.candidate_lengths(f, S, rater.X, n, m, lengths)
                each = np.full(n, m + 1, np.int64)
                for v in np.flatnonzero(S.value[0 : 2 * n : 2] == 0):
                    each[v] = K.shortest_refutation(f, S, rater.X, int(2 * v), m)
                assert best == each.min()
                if best <= m:
                    assert np.array_equal(lengths == best, each == best)
                checked += 1
    assert checked >= 8


def test_a_known_solution_changes_no_rating():
    # rate(grid, solution=...) spares the searches of the solution's candidates (none of
    # them can be refuted); every field but the time must be the same as without it.
    from encoder.geometry import standard
    from solvers.core import board_or_clauses

    geometry = standard(9)
    rater, board = RefutationRater(geometry), board_or_clauses(geometry)
    path = PROJECT / "data" / "sets" / "sudoku9_depth1.txt"
    grids = np.array([p.grid for p in itertools.islice(read_puzzles(str(path)), 40)], np.int8)
    out = board.depths(grids, 2)
    for grid, solution in zip(grids.tolist(), out.solutions.tolist(), strict=True):
        plain, helped = rater.rate(grid, 1), rater.rate(grid, 1, solution)
        assert (plain.length, plain.status, plain.steps, plain.searches) == (
            helped.length, helped.status, helped.steps, helped.searches
        )  # fmt: skip
    # Not a solution: two cells swapped (a row keeps its values, a column or box not),
    # a given changed, a grid with holes.
    swapped = list(out.solutions[0])
    swapped[0], swapped[9] = swapped[9], swapped[0]
    given = int(np.flatnonzero(grids[0])[0])
    moved = list(out.solutions[0])
    moved[given] = moved[given] % 9 + 1
    for wrong in (swapped, moved):
        with pytest.raises(ValueError, match="breaks a rule or a given"):
            rater.rate(grids[0].tolist(), 1, wrong)
    with pytest.raises(ValueError, match="not a filled"):
        rater.rate(grids[0].tolist(), 1, [0] * 81)
    # Rules with variables of their own: the solution is not used (nothing checks it).
    ladder = RefutationRater(geometry, "centrale+ladder")
    plain = ladder.rate(grids[1].tolist(), 1)
    assert ladder.rate(grids[1].tolist(), 1, swapped).length == plain.length


@pytest.mark.parametrize(
    "name", ["sudoku9_depth1.txt", "sudoku9_x_minimal.txt", "sudoku9_jigsaw_minimal.txt"]
)
def test_the_sweeps_filters_never_pass_over_a_refutation(name):
    # A step's sweeps skip a candidate whose unit propagation reaches no contradiction
    # by round L (conflict_round), and, within 2, one with no refutation of two
    # constraints (may_refute_within_two).  Both must hold of every refutation the plain
    # search or the search with alternative cones finds, on grids' states with random
    # candidates removed; and both must pass over candidates, or they test nothing.
    rng = np.random.default_rng(11)
    passed_over = {"round": 0, "two": 0}
    raters = {}
    for puzzle in itertools.islice(read_puzzles(str(PROJECT / "data" / "sets" / name)), 12):
        g = puzzle.geometry
        rater = raters.setdefault(g, RefutationRater(g))
        f, n, X, A = rater.formula, rater.num_candidates, rater.X, rater.A
        for removed in (0, 2, 5):
            S = rater.start(puzzle.grid)
            open_now = np.flatnonzero(S.value[0 : 2 * n : 2] == 0)
            if any(
                K.eliminate(f, S, int(2 * v + 1)) != K.NO_CONFLICT
                for v in rng.choice(open_now, removed, replace=False)
            ):
                continue
            for v in np.flatnonzero(S.value[0 : 2 * n : 2] == 0):
                z = int(2 * v)
                two = K.may_refute_within_two(f, S, X, z)
                assert two is not None  # (untracked, closed, the exam's formula)
                for limit in (1, 2, 3):
                    found = K.refutation_with_alternatives(f, S, X, A, z, limit)
                    rounds = K.conflict_round(f, S, X, z, limit)
                    if found <= limit:
                        assert rounds <= limit, (puzzle.grid, z, limit, found)
                        assert limit > 2 or two, (puzzle.grid, z, limit, found)
                    passed_over["round"] += rounds > limit
                passed_over["two"] += not two
    assert min(passed_over.values()) > 100, passed_over


@pytest.mark.parametrize(
    "name, searches",
    [
        ("sudoku9_depth1.txt", None),
        pytest.param("sudoku9_x_minimal.txt", None, marks=pytest.mark.slow),
        ("sudoku6_minimal.txt", None),
        ("sudoku9_jigsaw_depth2.txt", None),
        ("sudoku9_depth1.txt", 150),  # a budget that stops some grids
    ],
)
def test_rate_many_rates_as_rate(name, searches):
    # RefutationRater.rate_many rates the grids one after the other in one kernel call;
    # every field but the time must be rate's, with and without the grids' solutions,
    # with nesting (max_depth 2 sends the stuck grids through rate) and without.
    from solvers.core import DEPTH_SAT, board_or_clauses

    path = PROJECT / "data" / "sets" / name
    puzzles = list(itertools.islice(read_puzzles(str(path)), 16))
    geometry = puzzles[0].geometry
    puzzles = [p for p in puzzles if p.geometry == geometry]
    grids = np.array([p.grid for p in puzzles], np.int8)
    grids[0, :2] = [1, 1]  # a clash: unsat
    kwargs = {} if searches is None else {"searches": searches}
    rater = RefutationRater(geometry, **kwargs)
    out = board_or_clauses(geometry).depths(grids, 1)
    solutions = out.solutions * (out.status == DEPTH_SAT)[:, None]  # where it filled them
    for max_depth in (1, 2) if "depth2" in name else (1,):
        for known in (None, solutions):
            many = rater.rate_many(grids, max_depth, known)
            one = [rater.rate(g, max_depth) for g in grids.tolist()]
            fields = [(r.length, r.depth, r.status, r.steps, r.searches, r.over_budget)
                      for r in (*many, *one)]  # fmt: skip
            assert fields[: len(grids)] == fields[len(grids) :]
    if searches is not None:
        assert any(r.over_budget for r in many)
    filled = np.flatnonzero(np.any(solutions, axis=1))
    if filled.size:  # (a depth-2 set has none within depth 1)
        wrong, row = solutions.copy(), int(filled[0])
        wrong[row, [0, 1]] = wrong[row, [1, 0]]
        with pytest.raises(ValueError, match=f"grid {row}: the solution breaks"):
            rater.rate_many(grids, 1, wrong)


def test_rate_many_sends_the_stuck_grids_through_rate(monkeypatch):
    # With nesting asked (max_depth 2), a grid the kernel leaves stuck at depth 1 is
    # rated again by `rate` (nested refutations are Python), with its solution where a
    # row gives one and None where the row is zeros; the others keep the kernel's answer.
    path = PROJECT / "data" / "sets" / "sudoku9_x_depth2.txt"
    puzzles = list(itertools.islice(read_puzzles(str(path)), 3))
    rater = RefutationRater(puzzles[0].geometry)
    grids = np.array([p.grid for p in puzzles], np.int8)
    asked = []

    def rate(grid, max_depth=2, solution=None):
        asked.append((tuple(grid), max_depth, solution))
        return "nested"

    monkeypatch.setattr(rater, "rate", rate)
    got = rater.rate_many(grids, 2, np.zeros_like(grids))
    assert got == ["nested"] * len(grids)  # (depth-2 grids: every one stuck at depth 1)
    assert asked == [(tuple(g), 2, None) for g in grids.tolist()]
    assert all(r.status is Status.UNKNOWN for r in rater.rate_many(grids, 1))
