"""The backends' model check (solvers.backends.model_check, clause_check.c): many assignments
in one call against the plain-Python check (encoder.check), and its boundary.  (The
one-model call is checked against the same oracle in test_backends.py.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from encoder.check import unsatisfied_clause
from encoder.dimacs import Cnf
from solvers.backends.model_check import falsified_rows, first_falsified


def test_each_row_finds_its_first_falsified_clause(random_cnf):
    rng = random.Random(11)
    for _ in range(100):
        num_vars = rng.randint(3, 15)
        clauses = random_cnf(rng, num_vars, rng.randint(0, 4 * num_vars))
        cnf = Cnf.from_clauses(clauses, num_vars)
        true = np.array([[rng.random() < 0.5 for _ in range(num_vars)] for _ in range(6)])
        found = falsified_rows(cnf.literals, cnf.offsets, true).tolist()
        for row, first in zip(true.tolist(), found, strict=True):
            model = [v if row[v - 1] else -v for v in range(1, num_vars + 1)]
            expected = unsatisfied_clause(model, clauses)
            assert first == (-1 if expected is None else clauses.index(expected))


def test_variables_beyond_the_row_are_false():
    cnf = Cnf.from_clauses([[1, 2], [-3], [3]], 3)
    true = np.array([[False, True], [True, False]])
    assert falsified_rows(cnf.literals, cnf.offsets, true).tolist() == [2, 2]
    assert first_falsified(cnf.literals, cnf.offsets, np.array([2, 3], np.int64), 2) == 2


CNF = Cnf.from_clauses([[1, -2], [2]], 2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((CNF.literals.astype(np.int64), CNF.offsets, np.ones((1, 2), bool)), "literals must"),
        ((CNF.literals, CNF.offsets.astype(np.int32), np.ones((1, 2), bool)), "offsets must"),
        ((CNF.literals, np.array([0, 1, 2], np.int64), np.ones((1, 2), bool)), "run from 0"),
        (
            (CNF.literals, np.array([0, 2, 1, 3], np.int64), np.ones((1, 2), bool)),
            "must not decrease",
        ),
        ((CNF.literals, CNF.offsets, np.ones((1, 2), np.int64)), "true must hold bool8"),
        ((CNF.literals, CNF.offsets, np.ones(2, bool)), "true has the wrong shape"),
        ((CNF.literals, CNF.offsets, np.ones((2, 4), bool)[:, ::2]), "C-contiguous"),
    ],
)
def test_bad_arrays_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        falsified_rows(*args)
    with pytest.raises(ValueError, match="num_vars"):
        first_falsified(CNF.literals, CNF.offsets, np.ones(2, np.int64), -1)
    with pytest.raises(ValueError, match="model must hold int64"):
        first_falsified(CNF.literals, CNF.offsets, np.ones(2, np.int32), 2)
