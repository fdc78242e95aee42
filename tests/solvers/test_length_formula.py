"""The length rating's formula as arrays (`solvers.core.length.build`, length_formula.c):
against an independent construction in plain Python on random small CNFs, against
digests of the arrays the ratings of the golden files were made with (the golden check),
and its boundary."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoder.dimacs import Cnf
from encoder.encodings import rule_formula
from encoder.geometry import standard
from solvers.core import length as K


def oracle(clauses: list[list[int]], num_vars: int) -> dict[str, list[int] | int]:
    """The arrays `build` must return, made clause by clause with sets and dicts."""
    units, unit_idx, constraints, corig = [], [], [], []
    links: list[dict[int, int]] = [{} for _ in range(2 * num_vars)]  # implied -> 1st clause
    first_empty = -1
    for i, clause in enumerate(clauses):
        codes = sorted({2 * (abs(x) - 1) + (x < 0) for x in clause})
        if any(code ^ 1 in codes for code in codes):
            continue  # a tautology
        if not codes:
            first_empty = i if first_empty < 0 else first_empty
        elif len(codes) == 1:
            units.append(codes[0])
            unit_idx.append(i)
        elif len(codes) == 2:
            x, y = codes
            links[x ^ 1].setdefault(y, i)
            links[y ^ 1].setdefault(x, i)
        else:
            constraints.append(codes)
            corig.append(i)
    out: dict[str, list[int] | int] = {"units": units, "unit_idx": unit_idx}
    out["lits"] = [lit for codes in constraints for lit in codes]
    out["cstart"] = [0, *np.cumsum([len(codes) for codes in constraints]).tolist()]
    out["corig"] = corig
    out["bimp"] = [y for lit_links in links for y in sorted(lit_links)]
    out["bstart"] = [0, *np.cumsum([len(lit_links) for lit_links in links]).tolist()]
    room = [sum(codes.count(lit) for codes in constraints) for lit in range(2 * num_vars)]
    out["wstart"] = [0, *np.cumsum(room).tolist()]
    out["first_empty"] = first_empty
    return out


def built(clauses: list[list[int]], num_vars: int) -> K.Built:
    cnf = Cnf.from_clauses(clauses, num_vars)
    return K.build(cnf.literals, cnf.offsets, num_vars)


clause_lists = st.integers(1, 7).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.lists(st.integers(1, n).map(int) | st.integers(-n, -1).map(int), max_size=6),
            max_size=30,
        ),
    )
)


@settings(max_examples=100, deadline=None)
@given(clause_lists)
def test_the_arrays_are_the_plain_construction(case):
    num_vars, clauses = case
    B = built(clauses, num_vars)
    want = oracle(clauses, num_vars)
    assert B.first_empty == want.pop("first_empty")
    assert B.units.tolist() == want.pop("units")
    assert B.unit_idx.tolist() == want.pop("unit_idx")
    for name, values in want.items():
        array = getattr(B.F, name)
        assert array.dtype == np.int32, name
        assert array.tolist() == values, name
    K.LengthFormula(B.F, num_vars)  # the core accepts them as they are


def digest(B: K.Built) -> str:
    """sha256 of the arrays, the units, their clauses and the first empty clause."""
    h = hashlib.sha256()
    for a in B.F:
        h.update(np.ascontiguousarray(a).tobytes())
    h.update(B.units.tobytes())
    h.update(B.unit_idx.tobytes())
    h.update(str(B.first_empty).encode())
    return h.hexdigest()[:16]


# The arrays of the formulas that made the ratings the golden files hold: this file's
# `digest` on the build of commit 5eb6645, whose arrays (with the watch lists and the
# links' clauses beside these) were checked there against the digests of the first
# build, solvers.propagate.build(cnf.literals, cnf.offsets, num_vars, False) at f4c1bad.
PORTED_DIGESTS = {
    (4, "minimal"): "c1d9b04e27204aeb",
    (9, "centrale"): "7c3b43a0020ba927",
    (9, "augmented"): "cb5ce21ef237f5aa",
    (16, "centrale"): "103b578a482fccb5",
}


@pytest.mark.parametrize(("size", "encoding"), list(PORTED_DIGESTS))
def test_the_rule_formulas_are_the_recorded_ones(size, encoding):
    formula = rule_formula(standard(size), encoding)
    B = built(formula.clauses, formula.num_vars)
    assert digest(B) == PORTED_DIGESTS[size, encoding]


def test_a_tautology_a_duplicate_and_an_empty_clause():
    B = built([[1, -1, 2], [2, 2, -3], [], [3], []], 3)
    assert B.first_empty == 2
    assert B.units.tolist() == [4] and B.unit_idx.tolist() == [3]
    assert B.F.lits.size == 0  # [2, 2, -3] is the binary clause (2 or -3)
    assert B.F.bimp.tolist() == [5, 2]  # x2 false implies x3 false; x3 implies x2


FLAT = np.array([1, -2, 3], np.int32)
OFFSETS = np.array([0, 3], np.int64)


@pytest.mark.parametrize(
    ("flat", "offsets", "num_vars", "message"),
    [
        (FLAT.astype(np.int64), OFFSETS, 3, "flat must hold int32"),
        (FLAT, OFFSETS.astype(np.int32), 3, "offsets must hold int64"),
        (FLAT, np.zeros(0, np.int64), 3, "offsets has the wrong shape"),
        (FLAT.reshape(1, 3), OFFSETS, 3, "flat has the wrong shape"),
        (np.array([1, 9, -2, 9, 3], np.int32)[::2], OFFSETS, 3, "C-contiguous"),
        (FLAT, np.array([1, 3], np.int64), 3, "offsets must run from 0"),
        (FLAT, np.array([0, 2], np.int64), 3, "offsets must run from 0"),
        (FLAT, np.array([0, 2, 1, 3], np.int64), 3, "offsets fall at clause 1"),
        (np.array([1, 0, 3], np.int32), OFFSETS, 3, "literal 0 at position 1"),
        (FLAT, OFFSETS, 2, "literal 3 at position 2"),
        (np.array([1, -4, 3], np.int32), OFFSETS, 3, "literal -4"),
        (FLAT, OFFSETS, 0, "num_vars 0"),
        (FLAT, OFFSETS, 1 << 40, "num_vars"),
        ([1, -2, 3], OFFSETS, 3, "flat must be a C-contiguous"),
    ],
)
def test_bad_input_is_refused(flat, offsets, num_vars, message):
    with pytest.raises(ValueError, match=message):
        K.build(flat, offsets, num_vars)
