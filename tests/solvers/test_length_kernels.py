"""The refutation-length rating: the kernel's counting on small formulas whose shortest
refutations are known by hand, then the rating on grids against facts that do not
come from it (singles alone rate 0, Berthier's published W on his unbiased puzzles, a
refutation's chain, checked step by step against the clauses, uses exactly its length
of constraints)."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from encoder.check import is_solution
from encoder.dimacs import Cnf
from encoder.encodings import rule_formula
from encoder.geometry import make_geometry, standard
from encoder.grids import parse_grid
from encoder.status import Status
from solvers.core import length as K
from solvers.core.literals import to_code, to_codes, to_dimacs
from solvers.ratings.depth import Rater
from solvers.ratings.length import RefutationRater

GEOMETRY = standard(9)
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
BERTHIER_W2 = "....5.7.9..6.8..2.7.91....62.........37..2..4..8..7....6..91......6..5..9.1.7..38"


def shortest(
    clauses: list[list[int]],
    hypothesis: int,
    facts: tuple[int, ...] = (),
    alternatives: bool = False,
) -> int:
    """Return the kernel's shortest refutation length of `hypothesis` (0: none), by the
    first derivations' search or, with `alternatives`, the search with alternative cones."""
    cnf = Cnf.from_clauses(clauses)
    built = K.build(cnf.literals, cnf.offsets, cnf.num_vars)
    assert built.units.size == 0
    f = K.LengthFormula(built.F, cnf.num_vars)
    S = K.State(f)
    codes = to_codes(np.asarray(facts, np.int64))
    cones = np.zeros(codes.size, np.int32)
    assert K.assert_facts(f, S, codes, cones, K.REASON_DECISION) == K.NO_CONFLICT
    X = K.Scratch(f)
    m = f.num_constraints
    if alternatives:
        A = K.Alternatives(f)
        length = K.refutation_with_alternatives(f, S, X, A, to_code(hypothesis), m)
    else:
        length = K.shortest_refutation(f, S, X, to_code(hypothesis), m)
    return 0 if length > m else int(length)


def test_one_constraint_emptied_by_links_is_length_1():
    # z excludes a, b and c, and a or b or c must hold: a whip[1].
    assert shortest([[1, 2, 3], [-4, -1], [-4, -2], [-4, -3]], 4) == 1


def test_a_forced_value_counts_its_constraint():
    # z removes a and b, so x is forced by (a b x); x and z remove p, q, r of (p q r).
    chain = [[1, 2, 5], [-9, -1], [-9, -2], [6, 7, 8], [-5, -6], [-5, -7], [-9, -8]]
    assert shortest(chain, 9) == 2


def test_the_shortest_of_two_refutations_is_found():
    # z forces c by (a b c), then f by (d e f), then (g h k) has no candidate: length 3 ...
    long_way = [[1, 2, 3], [-9, -1], [-9, -2], [4, 5, 6], [-3, -4], [-9, -5]]
    long_way += [[7, 8, 10], [-6, -7], [-9, -8], [-3, -10]]
    assert shortest(long_way, 9) == 3
    assert shortest(long_way[:-1], 9) == 0  # (without the last link, no contradiction)
    # ... and one constraint alone also does it: the shortest counts.
    assert shortest([*long_way, [13, 14, 15], [-9, -13], [-9, -14], [-9, -15]], 9) == 1
    # The search with alternative cones finds the same where the first derivation is exact.
    assert shortest(long_way, 9, alternatives=True) == 3
    assert shortest(long_way[:-1], 9, alternatives=True) == 0
    assert shortest([[1, 2, 3], [-4, -1], [-4, -2]], 4, facts=(-3,), alternatives=True) == 1
    assert shortest([[4, 1, 2], [-4, -1], [-4, -2]], 4, alternatives=True) == 0


def test_links_and_facts_are_free():
    # The same whip[1] when one of the constraint's candidates is already a fact's loss.
    assert shortest([[1, 2, 3], [-4, -1], [-4, -2]], 4, facts=(-3,)) == 1
    # Two true literals excluding each other through links only need the constraint
    # that forced one of them.
    assert shortest([[1, 2, 3], [-4, -1], [-4, -2], [-3, -4]], 4) == 1


def test_a_satisfied_constraint_is_never_used():
    # The hypothesis satisfies (z a b), so removing a and b breaks nothing.
    assert shortest([[4, 1, 2], [-4, -1], [-4, -2]], 4) == 0


def test_alternative_cones_find_the_union_the_first_derivation_misses(rater, public):
    # Berthier's puzzle 1115 of the unbiased 5,000 (W = B = 2): after its first step,
    # r9c5=3 is refuted with "3 in row 3" and "3 in column 8"; the value the column
    # forces is forced by row 8 first, and the first derivations count row 8 too.
    path = public.set("berthier-cb-5000")
    with open(path, encoding="utf-8") as handle:
        row = list(csv.DictReader(handle, delimiter="\t"))[1115]
    grid = parse_grid(row["puzzle"], GEOMETRY)
    state = rater.start(grid)
    assert rater.apply(state, rater.shortest_elimination(state, max_depth=1))
    z = to_code(8 * 81 + 4 * 9 + 3)  # r9c5=3
    f, X, m = rater.formula, rater.X, rater.num_constraints
    assert K.shortest_refutation(f, state, X, z, m) == 3
    assert K.refutation_with_alternatives(f, state, X, rater.A, z, m) == 2
    cone = rater._bits(X.best_cone)
    forced, broken = rater.chain(state, 8 * 81 + 4 * 9 + 3, cone)
    assert {c for _, c in forced} | ({broken} if isinstance(broken, int) else set()) == set(cone)
    assert rater.rate(grid).length == int(row["W"]) == int(row["B"]) == 2


@pytest.fixture(scope="module")
def rater():
    return RefutationRater(GEOMETRY)


def test_singles_rate_0_and_depth_1_grids_get_a_length(rater, public):
    depth = Rater(GEOMETRY)
    for line in public.puzzles("royle17", 60):
        grid = parse_grid(line, GEOMETRY)
        rating = rater.rate(grid)
        assert rating.status is Status.SAT
        assert (rating.length == 0) == (depth.rate(grid).depth == 0), line
        assert rating.depth == depth.rate(grid).depth


def test_agrees_with_berthier_w_on_his_unbiased_puzzles(rater, public):
    path = public.set("berthier-cb-5000")
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))[:150]
    ours = [rater.rate(parse_grid(row["puzzle"], GEOMETRY)).length for row in rows]
    w = [int(row["W"]) for row in rows]
    assert all(a == 0 for a, b in zip(ours, w, strict=True) if b == 0)
    assert sum(a == b for a, b in zip(ours, w, strict=True)) >= 0.9 * len(rows)


def closed(true: set[int], implications: dict[int, list[int]]) -> set[int]:
    """Return `true` with every literal its links (binary clauses) imply."""
    todo, out = list(true), set(true)
    while todo:
        for q in implications.get(todo.pop(), ()):
            if q not in out:
                out.add(q)
                todo.append(q)
    return out


def check_chain(clauses, facts, hypothesis, forced, emptied, pair) -> set[tuple[int, ...]]:
    """Check a refutation's chain against the clauses themselves (not the kernel): each
    step's constraint has every other literal excluded by what is already true (the
    facts, the hypothesis, the earlier steps, their links), and so has the `emptied`
    constraint (or the two true literals of `pair` share a link); return the
    constraints used."""
    implications: dict[int, list[int]] = {}
    for a, b in (c for c in clauses if len(c) == 2):
        implications.setdefault(-a, []).append(b)
        implications.setdefault(-b, []).append(a)
    true = closed({*facts, hypothesis}, implications)
    for lit, clause in forced:
        assert lit in clause and all(-w in true for w in clause if w != lit), (lit, clause)
        true = closed(true | {lit}, implications)
    used = {tuple(clause) for _, clause in forced}
    if emptied is not None:
        assert all(-w in true for w in emptied), emptied
        return used | {tuple(emptied)}
    a, b = pair
    assert a in true and b in true and -b in implications.get(a, ()), pair
    return used


# berthier-cb-5000's grid 826, W = 7 and B = 6 (the rating counts braids): chains of up
# to six forced values.
LONGER_CHAINS = ".....6..94.6.8.....8.1.........1....5..9.48.28...234...1.....7...53...4194....6.."


@pytest.mark.parametrize(("line", "rating"), [(BERTHIER_W2, 2), (LONGER_CHAINS, 6)])
def test_a_refutation_chain_holds_with_exactly_its_constraints(rater, line, rating):
    clauses = rule_formula(GEOMETRY, "centrale").clauses
    state = rater.start(parse_grid(line, GEOMETRY))
    seen = set()
    while not rater.is_solved(state):
        step = rater.shortest_elimination(state, max_depth=1)
        assert step is not None and step.depth == 1
        seen.add(step.length)
        facts = [to_dimacs(code) for code in np.flatnonzero(state.value == 1).tolist()]
        for lit, cone in zip(step.eliminated, step.cones, strict=True):
            assert len(cone) == step.length
            forced, broken = rater.chain(state, -lit, cone)
            steps = [(x, clauses[rater.constraint_clause[c]]) for x, c in forced]
            if isinstance(broken, int):
                used = check_chain(
                    clauses, facts, -lit, steps, clauses[rater.constraint_clause[broken]], None
                )
            else:
                used = check_chain(clauses, facts, -lit, steps, None, broken)
            assert used == {tuple(clauses[rater.constraint_clause[c]]) for c in cone}
        assert rater.apply(state, step)
    assert max(seen) == rater.rate(parse_grid(line, GEOMETRY)).length == rating
    assert is_solution(rater.values(state), parse_grid(line, GEOMETRY), GEOMETRY)


def test_variants_and_sizes_are_rated():
    four = make_geometry(4)
    grid = parse_grid("1...." + "." * 10 + "2", four)
    rating = RefutationRater(four).rate(grid)
    assert rating.status is Status.UNKNOWN and rating.label() == ">2"  # many solutions
    x = make_geometry(9, diagonals=True)
    empty = (0,) * 81
    assert RefutationRater(x).rate(empty, max_depth=1).label() == ">1"


def test_depth_2_grids_need_a_nested_refutation(rater):
    grid = parse_grid(EASTER_MONSTER, GEOMETRY)
    assert rater.rate(grid, max_depth=1).label() == ">1"
    state = rater.start(grid)
    K.simplest_first(rater.formula, state, rater.X, rater.A, 729, 324, rater._lengths,
                     rater._step_lengths, 1000)  # fmt: skip
    z = next(z for z in rater._open(state) if rater._fails(state, z, 2))
    length = rater.nested_length(state, (z >> 1) + 1, 2)
    assert length is not None and length > 1


def test_time_limit_stops_the_nested_rating():
    rating = RefutationRater(GEOMETRY, time_limit=0.2).rate(parse_grid(EASTER_MONSTER, GEOMETRY))
    assert rating.timed_out and rating.label() == "timeout" and rating.seconds < 2
