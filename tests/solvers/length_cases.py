"""The questions length.tsv.gz answers: the refutation-length and BxB kernels, kernel by
kernel, on seeded random states of 9x9 and X grids (random facts, with random cones when
tracked), and what each kernel returns and leaves in the arrays.  The generator of
length.tsv.gz (its header says which) ran `run_case` with the kernels the core was
ported from (its own adapter of them) and with the core (`Core`), checked both agreed,
and wrote the answers; test_core_length_golden.py runs it with the core and compares.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
from golden import PROJECT, digest

from encoder.dimacs import Cnf
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import make_geometry, standard
from encoder.puzzle_files import read_puzzles
from solvers.core import length as C

# name -> (geometry, file of data/sets, grids from its start)
PAIRS = {
    "9x9": (standard(9), "sudoku9_depth1.txt", 40),
    "x": (make_geometry(9, diagonals=True), "sudoku9_x_minimal.txt", 20),
}
SEEDS = range(100)
QUICK_SEEDS = range(20)


def formula_arrays(geometry):
    """(clauses flat, offsets, num_vars) of the centrale rules."""
    formula = rule_formula(geometry, "centrale")
    cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
    return cnf.literals, cnf.offsets, formula.num_vars


def to_codes(lits: np.ndarray) -> np.ndarray:
    """The kernels' literal codes of DIMACS literals: 2v for x_{v+1}, 2v + 1 for its
    negation (written out here so that the generator ran on the commit it needed)."""
    return (2 * (np.abs(lits) - 1) + (lits < 0)).astype(np.int32)


def grid_codes(name: str) -> list[np.ndarray]:
    geometry, file, count = PAIRS[name]
    puzzles = itertools.islice(read_puzzles(str(PROJECT / "data" / "sets" / file), geometry), count)
    return [to_codes(np.asarray(given_literals(p.grid, geometry), np.int64)) for p in puzzles]


class Core:
    """The core's kernels (solvers.core.length) over formula arrays F and units."""

    def __init__(self, F, units, num_vars: int):
        self.f = C.LengthFormula(F, num_vars)
        self.units = units
        self.num_vars = num_vars
        self.num_constraints = self.f.num_constraints

    def new_state(self, track: bool):
        return C.State(self.f, track)

    def new_scratch(self):
        return C.Scratch(self.f)

    def new_alternatives(self):
        return C.Alternatives(self.f)

    def restart(self, S, grid):
        return C.restart(self.f, S, self.units, grid)

    def assert_facts(self, S, lits, rows, why):
        return C.assert_facts(self.f, S, lits, rows, why)

    def shortest_refutation(self, S, X, z, limit):
        return C.shortest_refutation(self.f, S, X, z, limit)

    def refutation_with_alternatives(self, S, X, A, z, limit):
        return C.refutation_with_alternatives(self.f, S, X, A, z, limit)

    def refutation_chain(self, S, cone, z, forced, emptied):
        return tuple(C.refutation_chain(self.f, S, cone, z, forced, emptied))

    def candidate_lengths(self, S, X, n, limit, out):
        return C.candidate_lengths(self.f, S, X, n, limit, out)

    def shorter_lengths(self, S, X, A, n, limit, out):
        return C.shorter_lengths(self.f, S, X, A, n, limit, out)

    def simplest_first(self, S, X, A, n, limit, out, log, budget):
        return tuple(C.simplest_first(self.f, S, X, A, n, limit, out, log, budget))

    def solved(self, S, n):
        return C.solved(self.f, S, n)

    def failed_closure(self, S, X, n):
        return C.failed_closure(self.f, S, X, n)

    def eliminate(self, S, lit):
        return C.eliminate(self.f, S, lit)

    def trial_and_error(self, T, U, X, n, limit, left, true, memo, work):
        return tuple(C.trial_and_error(self.f, T, U, X, n, limit, left, true, memo, work))

    def try_hypothesis(self, T, U, X, n, v, limit, left, memo, work):
        return tuple(C.try_hypothesis(self.f, T, U, X, n, v, limit, left, memo, work))


def core_kernels(name: str) -> Core:
    geometry = PAIRS[name][0]
    flat, offsets, num_vars = formula_arrays(geometry)
    built = C.build(flat, offsets, num_vars)
    return Core(built.F, built.units, num_vars)


def chosen(lengths: np.ndarray, best: int, limit: int) -> str:
    """The candidates a step would eliminate, as a digest: those of length `best` when it
    is within `limit`, '-' when none is.  The other entries of `lengths` are only said
    to be larger (the kernels search by deepening, and a candidate that never reaches
    the step's bound keeps a lower bound of its length)."""
    return digest(lengths == best) if best <= limit else "-"


# The goldens hold the states in the layout they were recorded with: the fields value,
# level, reason, trail, trail_lim (num_vars + 8 entries, all 0: no kernel wrote it), st,
# cone, nfalse, ntrue, pool (rows of cones); 18 slots of st, the cones' at 16 and 17,
# slot 9 holding NEVER and the others unused (0).
RECORDED_SLOTS, RECORDED_POOL_SIZE, RECORDED_NEVER_SLOT = 18, 16, 9
PROPAGATE_SLOTS = 3  # (trail size, qhead, level), then the cones' (pool size, track)
NEVER = (1 << 62) - 1
SPARE_LEVELS = 8


def recorded_st(st: np.ndarray) -> np.ndarray:
    """st in the recorded layout: the assignment's slots, NEVER, the cones' slots."""
    out = np.zeros(RECORDED_SLOTS, np.int64)
    out[:PROPAGATE_SLOTS] = st[:PROPAGATE_SLOTS]
    out[RECORDED_NEVER_SLOT] = NEVER
    out[RECORDED_POOL_SIZE:] = st[PROPAGATE_SLOTS:]
    return out


# ... and the kernels' outcomes with the values they were recorded with.
RECORDED_STATUS = {
    C.PAUSED: -6, C.SOLVED: -10, C.CONTRADICTION: -11, C.STUCK: -12, C.OUT_OF_TIME: -13,
    C.OUT_OF_BUDGET: -14, C.BAD_SOLUTION: -15,
}  # fmt: skip


def recorded(answer: tuple) -> tuple:
    """A kernel's (status, ...) answer with its status as recorded."""
    return (RECORDED_STATUS[answer[0]], *answer[1:])


def state_digest(S) -> str:
    a = S.arrays()
    trail_lim = np.zeros(a["trail"].size + SPARE_LEVELS, np.int32)
    pool = a["pool"].reshape(-1, S.formula.num_words)
    arrays = (a["value"], a["level"], a["reason"], a["trail"], trail_lim, recorded_st(a["st"]),
              a["cone"], a["nfalse"], a["ntrue"], pool)  # fmt: skip
    return digest(*arrays)


def run_case(k, grids, name: str, seed: int) -> dict[str, str]:
    """Ask kernels `k` the questions of case (name, seed); return key -> answer."""
    rng = random.Random(f"{name}/{seed}")
    out: dict[str, str] = {}
    key = f"{name}|{seed}|"
    n = PAIRS[name][0].size ** 3
    m = k.num_constraints
    track = rng.random() < 0.5
    S = k.new_state(False)  # (the givens' facts without cones, then the state tracked)
    out[key + "restart"] = str(k.restart(S, grids[rng.randrange(len(grids))]))
    S = S.copy(track=track)
    value = S.value
    open_lits = [2 * v + s for v in range(n) for s in (0, 1) if value[2 * v] == 0]
    lits = np.array(rng.sample(open_lits, min(len(open_lits), rng.randint(0, 8))), np.int32)
    rows = np.zeros(lits.size, np.int32)
    if track:
        for i in range(lits.size):  # a random cone for each fact
            cone = np.zeros(k.f.num_words, np.uint64)
            for c in rng.sample(range(m), rng.randint(0, 6)):
                cone[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            rows[i] = S.add_cone(cone)
    why = rng.choice([C.REASON_DECISION, C.REASON_PROBE])
    conflict = k.assert_facts(S, lits, rows, why)
    out[key + "facts"] = f"{conflict}|{state_digest(S)}"
    if conflict != C.NO_CONFLICT:
        return out
    X, A = k.new_scratch(), k.new_alternatives()
    value = S.value
    open_lits = [z for z in range(2 * n) if value[z] == 0]
    for i, z in enumerate(rng.sample(open_lits, min(len(open_lits), 6))):
        limit = rng.randint(-2, m + 3)
        a = k.shortest_refutation(S, X, z, limit)
        cone = digest(X.best_cone) if a <= min(limit, m) else "-"
        b = k.refutation_with_alternatives(S, X, A, z, limit)
        answer = [str(z), str(limit), str(a), cone, str(b)]
        if b <= min(limit, m):
            chain = np.zeros((2, b + 1), np.int64)
            got = k.refutation_chain(S, X.best_cone, z, chain[0], chain[1])
            answer += [digest(X.best_cone), repr(got), digest(chain)]
        out[key + f"refutation{i}"] = "|".join(answer)
    out[key + "after_refutations"] = f"{state_digest(S)}|{digest(X.arrays()['value'])}"
    limit = rng.randint(0, m)
    lengths = np.zeros(n, np.int64)
    a = k.candidate_lengths(S, X, n, limit, lengths)
    out[key + "candidate_lengths"] = f"{limit}|{a}|{chosen(lengths, a, min(limit, m))}"
    a = k.shorter_lengths(S, X, A, n, limit, lengths)
    out[key + "shorter_lengths"] = f"{a}|{chosen(lengths, a, min(limit, m))}"
    limit, budget = rng.randint(0, m), rng.randint(0, 40)
    U = S.copy()
    log = np.zeros(8, np.int64)
    lengths = np.zeros(n, np.int64)
    a = k.simplest_first(U, X, A, n, limit, lengths, log, budget)
    if a[0] == C.STUCK:  # the last step found nothing to eliminate
        last = "-"
    elif a[2] == 0:  # no step: lengths untouched
        last = digest(lengths)
    else:  # the last step's eliminations hold its least length, the others more
        last = chosen(lengths, int(lengths.min()), int(lengths.min()))
    solved = int(k.solved(U, n))
    out[key + "simplest_first"] = (
        f"{limit}|{budget}|{recorded(a)!r}|{state_digest(U)}|{last}|{digest(log)}|{solved}"
    )
    V = S.copy()
    out[key + "failed_closure"] = f"{recorded((k.failed_closure(V, X, n),))[0]}|{state_digest(V)}"
    for i, lit in enumerate(rng.sample(range(2 * k.num_vars), 3)):
        out[key + f"eliminate{i}"] = f"{lit}|{k.eliminate(V, lit)}|{state_digest(V)}"
    if track:
        return out
    # BxB: T&E(B_p) for p = 1, 2, ... on one growing state with the hypotheses' saved
    # states (memo), as BxbRater.rate runs it; then single hypotheses without memo.
    T = S.copy()
    nlits = 2 * k.num_vars
    W = k.new_state(False)
    memo = (np.zeros((n, nlits), np.int8), np.zeros(n, np.int64), np.zeros(n, np.bool_))
    true_somewhere = np.array([rng.random() < 0.5 for _ in range(n)])
    budget = rng.choice([1 << 62, rng.randint(0, 3000)])
    expired = rng.random() < 0.25
    work = np.zeros(C.NUM_COUNTERS, np.int64)
    work[C.BUDGET] = budget
    for limit in range(1, rng.randint(1, 4) + 1):
        left = -1.0 if expired else np.inf
        a = k.trial_and_error(T, W, X, n, limit, left, true_somewhere, memo, work)
        out[key + f"trial_and_error{limit}"] = (
            f"{budget}|{int(expired)}|{recorded(a)!r}|{digest(work)}|{state_digest(T)}|{digest(*memo)}"
        )
        if a[0] != C.STUCK:
            break
    no_memo = (np.zeros((0, nlits), np.int8), np.zeros(0, np.int64), np.zeros(0, np.bool_))
    value = T.value
    open_v = [v for v in range(n) if value[2 * v] == 0]
    for i, v in enumerate(rng.sample(open_v, min(len(open_v), 3))):
        a = k.try_hypothesis(T, W, X, n, v, 2, np.inf, no_memo, work)
        out[key + f"try_hypothesis{i}"] = f"{v}|{recorded(a)!r}|{digest(work)}|{state_digest(W)}"
    return out
