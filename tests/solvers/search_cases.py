"""The questions search.tsv.gz answers (tests/solvers/make_goldens.py wrote it with the
DPLL kernels the core was ported from), made the same way by the generator and by
tests/solvers/test_core_search.py: random CNFs by seed, Sudoku grids, the depth loops whose
lemmas were logged, and the root levels of small random formulas."""

from __future__ import annotations

import random

import numpy as np

from encoder.dimacs import Cnf
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import standard
from encoder.grids import parse_cells
from encoder.puzzle_files import read_puzzles
from solvers.core import EXHAUSTED, FOUND, Clauses

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
FEWER_GIVENS = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2......"
# The ported kernels' result codes, as the golden file holds them.
GOLDEN_FOUND, GOLDEN_EXHAUSTED = -7, -8


def random_cnf(rng: random.Random, num_vars: int, num_clauses: int) -> list[list[int]]:
    out = []
    for _ in range(num_clauses):
        width = rng.choice((1, 2, 2, 3, 3, 3, 4))
        chosen = rng.sample(range(1, num_vars + 1), min(width, num_vars))
        out.append([v if rng.random() < 0.5 else -v for v in chosen])
    return out


def random_case(seed: int) -> tuple[list[list[int]], int, list[int]]:
    """A random CNF of 5 to 30 variables near the threshold, and two assumptions."""
    rng = random.Random(seed)
    num_vars = rng.randint(5, 30)
    clauses = random_cnf(rng, num_vars, int(num_vars * rng.uniform(2.5, 4.5)))
    lits = [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, num_vars + 1), 2)]
    return clauses, num_vars, lits


def sudoku_cases():
    """(name, clauses, num_vars, givens, limit): Easter Monster and a version of it with
    a given less, solved and counted (limit 3)."""
    formula = rule_formula(standard(9), "centrale")
    for name, line in (("easter_monster", EASTER_MONSTER), ("fewer_givens", FEWER_GIVENS)):
        lits = given_literals(parse_cells(line, standard(9)), standard(9))
        for limit in (None, 3):
            yield name, formula.clauses, formula.num_vars, lits, limit


def lemma_grids(name: str):
    """(geometry, the first 20 grids) of a set of data/sets."""
    from golden import PROJECT

    puzzles = list(read_puzzles(str(PROJECT / "data" / "sets" / f"{name}.txt")))[:20]
    return puzzles[0].geometry, np.array([p.grid for p in puzzles], np.int8)


def root_cases():
    """(key, clauses, num_vars): 40 small random formulas for each of 5 seeds."""
    for seed in range(5):
        rng = random.Random(seed)
        for i in range(40):
            num_vars = rng.randint(1, 12)
            yield f"{seed}.{i}", random_cnf(rng, num_vars, rng.randint(0, 16)), num_vars


def native_solve(clauses, num_vars: int, lits, probe_depth: int, limit=None):
    """The core's answer in the golden file's terms: (result code, the model or the count,
    [decisions, backtracks, conflicts, propagations, hypotheses]); None when the formula is
    refuted at the root."""
    cnf = Cnf.from_clauses(clauses, num_vars)
    search = Clauses((cnf.literals, cnf.offsets), num_vars)
    if not search.ok:
        return None
    outcome, count, model = search.search(
        lits, 1 if limit is None else limit, probe_depth=probe_depth
    )
    result = {FOUND: GOLDEN_FOUND, EXHAUSTED: GOLDEN_EXHAUSTED}[outcome]
    c = search.counters()
    counters = [c.decisions, c.backtracks, c.conflicts, c.work - c.hypotheses, c.hypotheses]
    models = count if limit is not None else (model.tolist() if model is not None else [])
    return [result, models, counters]
