"""At-most-one encodings: "at most one of these literals is true" as clauses.

Every rule formula states, for each cell, row, column, box and extra region, that a
value appears at most once (the exam's K2 L2 C2 B2).  The exam writes it pairwise, one
binary clause per pair: n(n-1)/2 clauses for n literals, which grows as N^4 over a grid
(752,500 rule clauses at 25x25, about 200 million at 100x100).  The compact encodings
add auxiliary variables and need O(n) clauses (bitwise O(n log n)):

| name        | auxiliaries      | clauses         | written by                         |
|-------------|------------------|-----------------|------------------------------------|
| pairwise    | 0                | n(n-1)/2        | here (the exam's K2, the default)  |
| sequential  | n-1              | 3n-4            | PySAT `seqcounter` (Sinz 2005)     |
| ladder      | n-1              | ~4n             | PySAT `ladder` (Gent & Nightingale)|
| bitwise     | log2 n           | n log2 n        | PySAT `bitwise` (binary, Frisch)   |
| commander   | ~n/2             | ~3n             | here (Klieber & Kwon 2007)         |
| product     | ~2 sqrt(n)       | ~2n             | here (Chen 2010)                   |
| bimander    | log2(n/2)        | ~n/2 + n log2 n/2 | here (Nguyen & Mai 2015)         |
| totalizer, sortnet, cardnet, mtotalizer, kmtotalizer | | | PySAT's cardinality networks |

`at_most_one(lits, name, next_var)` returns the clauses and the next free variable:
auxiliaries are numbered from `next_var` on, so a formula numbers them after its N^3
cell variables, one constraint after the other.  Every encoding has the same models on
the original literals as pairwise (tests/encoder/test_amo.py counts them); the
auxiliaries of commander, product and bimander are functions of those literals where
they matter, PySAT's may be left free.

Commander: literals in groups of 3, one commander c per group with c <-> (some literal
of the group) and pairwise at-most-one inside it, then at most one commander
(recursively).  Product: literals placed on a p x q grid (p = ceil(sqrt n)); literal
(i, j) implies row variable r_i and column variable c_j, and at most one r and at most
one c (recursively).  Bimander: literals in pairs (groups of 2) with pairwise at-most-one
inside; group g is named by the binary code of g over ceil(log2 groups) bits, and each
literal of group g implies that code.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from encoder.numbering import Clause

PYSAT_ENCODINGS = {
    "sequential": "seqcounter",
    "ladder": "ladder",
    "bitwise": "bitwise",
    "totalizer": "totalizer",
    "sortnet": "sortnetwrk",
    "cardnet": "cardnetwrk",
    "mtotalizer": "mtotalizer",
    "kmtotalizer": "kmtotalizer",
}
AMO_ENCODINGS = (
    "pairwise",
    "sequential",
    "ladder",
    "bitwise",
    "commander",
    "product",
    "bimander",
    "totalizer",
    "sortnet",
    "cardnet",
    "mtotalizer",
    "kmtotalizer",
)
COMMANDER_GROUP = 3  # Klieber & Kwon's recommended group size
SMALL = 6  # product and commander recurse down to this many literals, then pairwise (fewer clauses)


def pairwise(lits: Sequence[int]) -> list[Clause]:
    """Return the exam's at-most-one: one clause -a ∨ -b per pair, in `combinations` order."""
    return [[-a, -b] for a, b in combinations(lits, 2)]


def at_most_one(lits: Sequence[int], name: str, next_var: int) -> tuple[list[Clause], int]:
    """Return (clauses stating at most one of `lits` is true, the next free variable),
    auxiliaries numbered from `next_var`."""
    lits = list(lits)
    if name == "pairwise" or len(lits) <= 1:
        return pairwise(lits), next_var
    if name in PYSAT_ENCODINGS:
        return _pysat(lits, PYSAT_ENCODINGS[name], next_var)
    if name == "commander":
        return _commander(lits, next_var)
    if name == "product":
        return _product(lits, next_var)
    if name == "bimander":
        return _bimander(lits, next_var)
    choices = ", ".join(AMO_ENCODINGS)
    raise ValueError(f"unknown at-most-one encoding {name!r}; choose from {choices}")


def _pysat(lits: list[int], enc_name: str, next_var: int) -> tuple[list[Clause], int]:
    if len(lits) == 2:  # the networks' two-literal cases are a pairwise clause anyway
        return pairwise(lits), next_var
    from pysat.card import CardEnc, EncType  # only when chosen: `import encoder` stays cheap

    cnf = CardEnc.atmost(lits, bound=1, top_id=next_var - 1, encoding=getattr(EncType, enc_name))
    return cnf.clauses, max(cnf.nv + 1, next_var)


def _commander(lits: list[int], next_var: int) -> tuple[list[Clause], int]:
    if len(lits) <= SMALL:
        return pairwise(lits), next_var
    clauses: list[Clause] = []
    commanders = []
    for start in range(0, len(lits), COMMANDER_GROUP):
        group = lits[start : start + COMMANDER_GROUP]
        c = next_var
        next_var += 1
        commanders.append(c)
        clauses += pairwise(group)
        clauses.append([-c, *group])  # the commander is true only with one of its group
        clauses += [[-x, c] for x in group]  # and true whenever one of them is
    rest, next_var = _commander(commanders, next_var)
    return clauses + rest, next_var


def _product(lits: list[int], next_var: int) -> tuple[list[Clause], int]:
    n = len(lits)
    if n <= SMALL:
        return pairwise(lits), next_var
    p = 1
    while p * p < n:
        p += 1
    q = -(-n // p)
    rows = list(range(next_var, next_var + p))
    cols = list(range(next_var + p, next_var + p + q))
    next_var += p + q
    clauses: list[Clause] = []
    for index, x in enumerate(lits):
        i, j = divmod(index, q)
        clauses += [[-x, rows[i]], [-x, cols[j]]]
    row_amo, next_var = _product(rows, next_var)
    col_amo, next_var = _product(cols, next_var)
    return clauses + row_amo + col_amo, next_var


def _bimander(lits: list[int], next_var: int) -> tuple[list[Clause], int]:
    groups = [lits[start : start + 2] for start in range(0, len(lits), 2)]
    bits = max(1, (len(groups) - 1).bit_length())
    b = list(range(next_var, next_var + bits))
    clauses: list[Clause] = []
    for g, group in enumerate(groups):
        clauses += pairwise(group)
        for x in group:
            clauses += [[-x, b[t] if g >> t & 1 else -b[t]] for t in range(bits)]
    return clauses, next_var + bits
