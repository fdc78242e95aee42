"""The refutation-length and BxB kernels in C (solvers.core.length), kernel by kernel,
against the answers of the kernels they were ported from (data/length.tsv.gz, written by
tests/solvers/make_goldens.py): on seeded random states of 9x9 and X grids, with random
facts (with and without cones), each kernel's return value and the arrays it leaves,
statement for statement.  length_cases.py asks the questions; the ratings themselves
are checked in test_core_length.py (a golden file of ratings), test_length_kernels.py
(hand-known refutations, Berthier's published W, chains checked against the clauses)
and test_bxb_rating.py (Berthier's BxB, the definition level by level)."""

from __future__ import annotations

import functools

import pytest
from golden import read
from length_cases import PAIRS, QUICK_SEEDS, SEEDS, core_kernels, grid_codes, run_case


@functools.lru_cache(maxsize=4)
def kernels(name: str):
    return core_kernels(name), grid_codes(name)


def assert_case(name: str, seed: int) -> None:
    k, grids = kernels(name)
    got = run_case(k, grids, name, seed)
    golden = read("length.tsv.gz")
    expected = {key: value for key, value in golden.items() if key.startswith(f"{name}|{seed}|")}
    assert got.keys() == expected.keys()
    for key, value in got.items():
        assert value == expected[key], key


@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("seed", QUICK_SEEDS)
def test_the_kernels_answer_as_the_ported_ones(name, seed):
    assert_case(name, seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_every_case(name):
    for seed in SEEDS:
        assert_case(name, seed)
