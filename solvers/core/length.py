"""Shortest refutations: the kernels of the refutation-length rating, in C (length.c),
and their records.

A hypothesis (a candidate, cell = value) refuted by unit propagation is one of
Berthier's braids.  Its length is the number of constraints the refutation uses, and
this module finds, for each candidate, a refutation of smallest length.

How a refutation is counted.  Clauses of two literals are *links*: "x excludes y" (the
at-most-one clauses of a cell or of a row/column/box-value place) and they cost
nothing, as Berthier's links cost nothing in a whip or a braid.  Every longer clause is
one *constraint*: in the Sudoku encodings it is the at-least-one clause of a cell or of
a row/column/box-value place (Berthier's CSP variables rc, rn, cn, bn; diagonal and
window places in the variants), the only long clause of that constraint, so counting
long clauses counts constraints.  A constraint is used when it forces a value (it has
one candidate left: a single inside the hypothesis) or when it has none left (the
contradiction).  The *cone* of a literal derived under the hypothesis is the set of
constraints its derivation uses: empty for the hypothesis and for the facts of the
state, the cone of the literal that implies it through a link, and for a literal a
constraint forces, that constraint and the cones of the literals that removed its other
candidates.  The refutation's length is the size of the contradiction's cone: the
constraints of the implication graph that leads to it, which is what conflict analysis
of the propagation reads back from the conflict.  The hypothesis's own constraints are
never counted (they are satisfied by it), as a whip of length n counts its n
CSP-variables and not the target's.

Which refutation.  Unit propagation can derive a literal in several ways; the kernel
propagates in order of cone size, like Dijkstra's algorithm with "size of the union"
as distance: a literal takes the cone of the first (smallest) derivation that reaches
it, and the propagation stops once the cones it would extend are no smaller than the
best contradiction found.  Sets do not add like distances (two derivations can share
constraints), so this is the shortest refutation up to that choice, not a proven
minimum; it is exact for whip-shaped (linear) refutations.

Where the first derivation overcounts.  A braid may use a value forced two ways (say
by its row and by its column) and the contradiction may need that column anyway: the
first derivation's row is then one constraint too many.  `refutation_with_alternatives`
searches the same way but keeps, for each literal, up to CONES_PER_LITERAL cones that
are not supersets of one another (a superset can never give a smaller union), and tries
every combination of them where a constraint forces a value or breaks.  With no cap it
would be exact (every literal of a shortest refutation keeps a cone inside it, by
induction along the derivation); the cap keeps it affordable.  It costs several times
the plain search, so the rating uses it only where a step would raise the rating (see
`simplest_first`).

The engine's vocabulary.  The formula's arrays are made by `build` (length_formula.c:
the clause engine's layout, built without exactly-one groups, so every long clause
stays a constraint of its own) and copied into the core once as a `LengthFormula(F,
num_vars)` (its indices checked then): links are its implication lists (`bstart`,
`bimp`), constraints its long clauses (`cstart`, `lits`); the core adds `occ`, each
literal's constraints, laid out like the watch lists.  The state of the facts
(`State(formula, track)`) is the clause engine's assignment - `value`, `trail` (the
facts in order), `reason` (the constraint or link that forced a fact, or a REASON_
code), `level` - extended with the facts' cones and per-constraint counts.  The work
arrays of one hypothesis (`Scratch(formula)`) use the same words for the hypothesis's
own assignment, and those of the alternative cones' search are `Alternatives(formula)`.
All three are the core's own records (python/length_records.c): made for one formula,
written only by the kernels, read by Python through copies (`State.value`,
`State.pool_row`, `Scratch.best_cone`), so a call checks whose they are, not what they
hold.  Status codes (SOLVED, CONTRADICTION, STUCK, PAUSED, ...:
status.h's Status, negated) and the sentinels NO_CONFLICT and REASON_* are the core's,
read below from the extension.

Cones are bit sets, one bit per constraint (6 words of 64 bits for 9x9).  Facts of the
state may carry cones too (`State.cone` of an assigned literal): the nested rating
(depth 2 and more) runs these kernels on a state whose facts were derived under an
outer hypothesis, so that its refutation counts everything it rests on.

A step's candidates (`candidate_lengths`) are searched by deepening: every candidate
within a bound of 1, then, while none is refuted, again within the least length its
search showed it needs at least, only the candidates that bound reaches.  A search
within a bound is the unbounded one cut off there (values come out in order of cone
size), so the step's least length and its candidates are those of searching every
candidate with no bound; the other entries of `lengths` are only larger.  Within the
bound 1, on an untracked state of a formula whose links reach in one hop (the exam's),
the search reads its answer off the hypothesis's links alone, without cones.

The chain of a refutation (what `solvers.explain.steps` prints) is read from the cone the
kernel counted: `refutation_chain` applies the links, then the lowest-numbered
constraint of the cone that forces a value or has none left, and again, so the chain
uses only the constraints its length counts, in an order that depends on the cone
alone (not on which of several derivations of it the search met first).

Every kernel checks its arguments at the boundary: a record of another type or formula,
or one a kernel holds in another thread, and a bad array or number of the call's own, are
TypeError, ValueError or RuntimeError, never a crash.  The long kernels
(candidate_lengths, shorter_lengths, simplest_first, failed_closure) release the GIL
and poll for signals between hypotheses: Ctrl-C and the opt-in time limit's
TimeLimitReached stop them within a few tens of milliseconds.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from solvers.core.extension import load_extension

_length = load_extension("_length")

# The formula as arrays (`build`'s, length_formula.c): constraints (lits, cstart, corig:
# the input clause of each), each literal's room for its constraints (wstart), links
# (bstart, bimp), all int32, laid out as the clause engine lays out clauses.
ClauseArrays = namedtuple("ClauseArrays", "lits cstart corig wstart bstart bimp")
# What `build` returns: the arrays, the units (literal codes) and their clauses'
# indices, the first empty clause (-1: none).
Built = namedtuple("Built", "F units unit_idx first_empty")
# The formula, copied into the core and checked once: LengthFormula(F, num_vars), F being
# `build`'s ClauseArrays.  Its num_vars, num_constraints, num_words (of a cone), width
# (the longest constraint) and num_links are attributes.
LengthFormula = _length.Formula

# The kernels' records: State(formula, track=False), the facts and, when tracked, their
# cones (its copy(track=None), add_cone(words) -> pool row, pool_row(row), value, track);
# Scratch(formula), one hypothesis's work arrays (best_cone: the last search's best
# contradiction); Alternatives(formula), the alternative cones' search's.
State = _length.State
Scratch = _length.Scratch
Alternatives = _length.Alternatives

EMPTY = _length.EMPTY  # pool row of the empty cone

# Status codes (status.h's Status, negated: the kernels' other results are lengths and
# rows, all >= 0) and reasons, read from the core: one definition for C and Python.
NO_CONFLICT, PAUSED = _length.NO_CONFLICT, _length.PAUSED
SOLVED, CONTRADICTION, STUCK = _length.SOLVED, _length.CONTRADICTION, _length.STUCK
REASON_DECISION, REASON_PROBE = _length.REASON_DECISION, _length.REASON_PROBE
REASON_UNIT, BINARY_REASON = _length.REASON_UNIT, _length.BINARY_REASON

CONES_PER_LITERAL = _length.CONES_PER_LITERAL  # alternative cones a literal keeps

# The kernels (length.c); solvers.core._length's docstrings give their arguments, and
# length.c's comments their contracts.
restart = _length.restart  # (f, S, units, givens): S the state of units and givens
assert_facts = _length.assert_facts  # (f, S, lits, cones, why): facts with their cones
eliminate = _length.eliminate  # (f, S, lit): lit a fact with an empty cone
solved = _length.solved  # (f, S, num_candidates): every candidate assigned
shortest_refutation = _length.shortest_refutation  # (f, S, X, z, limit)
model_mask = _length.model_mask  # (f, S, codes, mask): the candidates of a model of S
# Necessary conditions the step's sweeps test before searching (length.c says why):
conflict_round = _length.conflict_round  # (f, S, X, z, limit)
may_refute_within_two = _length.may_refute_within_two  # (f, S, X, z): bool or None
refutation_with_alternatives = _length.refutation_with_alternatives  # (f, S, X, A, z, limit)
candidate_lengths = _length.candidate_lengths  # (f, S, X, n, limit, lengths)
shorter_lengths = _length.shorter_lengths  # (f, S, X, A, n, limit, lengths)
# (f, S, X, A, n, limit, lengths, step_lengths, budget)
simplest_first = _length.simplest_first
# (f, S, X, A, n, limit, lengths, step_lengths, units, values, solutions, side, searches, out)
rate_many = _length.rate_many
failed_closure = _length.failed_closure  # (f, S, X, n)
refutation_chain = _length.refutation_chain  # (f, S, cone, hypothesis, out_lits, out_cons)

# BxB's kernels (bxb.c): T&E(B_p) over the kernels above (solvers.ratings.bxb), their
# statuses and the slots of their work counters.
braid_closure = _length.braid_closure  # (f, T, X, n, limit, seconds_left, work)
try_hypothesis = _length.try_hypothesis  # (f, T, U, X, n, v, limit, seconds_left, memo, work)
trial_and_error = _length.trial_and_error  # (f, T, U, X, n, limit, left, true, memo, work)
OUT_OF_TIME, OUT_OF_BUDGET, CLOCK_EVERY = (
    _length.OUT_OF_TIME,
    _length.OUT_OF_BUDGET,
    _length.CLOCK_EVERY,
)
BAD_SOLUTION = _length.BAD_SOLUTION  # rate_many: a grid's solution is not one
SEARCHES, HYPOTHESES, SKIPPED = _length.SEARCHES, _length.HYPOTHESES, _length.SKIPPED
ELIMINATED, BUDGET, NUM_COUNTERS = _length.ELIMINATED, _length.BUDGET, _length.NUM_COUNTERS


def build(flat: np.ndarray, offsets: np.ndarray, num_vars: int) -> Built:
    """Return the formula of the DIMACS clauses flat[offsets[i]:offsets[i + 1]] (int32
    literals in 1..num_vars and their negations, int64 offsets rising from 0) as arrays:
    each clause's literals sorted as codes, duplicates merged, tautologies dropped,
    units, links and constraints apart (see length_formula.c).  ValueError on bad input."""
    *arrays, first_empty = _length.build(flat, offsets, num_vars)
    ints = [np.frombuffer(a, np.int32) for a in arrays]
    n = len(ClauseArrays._fields)
    return Built(ClauseArrays(*ints[:n]), ints[n], ints[n + 1], first_empty)
