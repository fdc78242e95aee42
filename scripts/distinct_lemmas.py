"""Write the proof checker's worst cases for memory: proofs of distinct lemmas.

`python scripts/distinct_lemmas.py [--kept] BYTES CNF PROOF` writes the Easter Monster's
formula (the clauses `python -m encoder GRID` writes) to CNF, and to PROOF at least
BYTES of distinct 3-literal lemmas followed by the grid's depth-2 rating proof, so that
`python -m solvers check CNF PROOF` says VERIFIED.  Each lemma is a binary clause of the
formula (-a -b) widened by one literal x of another variable: assuming -x, a and b
propagates to a conflict at once, so every lemma passes and the checker keeps it (none
is added twice, none deleted): its memory grows with the file.

Without --kept, every binary clause is widened by every other literal, as many bytes as
asked (up to about 280 MB): most of those lemmas hold a literal the formula's units
decide, and MiniSat, which checks them, drops them (satisfied) or shortens them.  With
--kept, only the variables the units leave open are used, so MiniSat keeps every lemma
whole: the most memory a byte of proof, but at most about 10 MB of such lemmas.
Used by the slow test of tests/solvers/test_proofs.py and the figures of docs/proofs.md.
One line on stderr: the lemmas and bytes written.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def write_proof(size: int, cnf_path: Path, proof_path: Path, kept: bool = False) -> int:
    """Write the formula and the proof (see the module docstring); return the number of
    lemmas before the rating proof."""
    from encoder.dimacs import parse_cnf
    from encoder.emit import encode_dimacs
    from encoder.geometry import standard
    from encoder.grids import parse_cells
    from solvers.ratings.depth import Rater

    nine = standard(9)
    grid = tuple(parse_cells(EASTER_MONSTER, nine))
    text = encode_dimacs(grid, nine)
    cnf = parse_cnf(text)
    lits, offsets = cnf.literals.tolist(), cnf.offsets.tolist()
    clauses = [lits[start:end] for start, end in itertools.pairwise(offsets)]
    _, proofs = Rater(nine).depth_proofs([grid], 2)
    cnf_path.write_text(text)
    variables = open_variables(clauses) if kept else set(range(1, cnf.num_vars + 1))
    written = lemmas = 0
    with proof_path.open("w") as out:
        for block in widened(clauses, variables):
            if written >= size:
                break
            out.write(block)
            written += len(block)
            lemmas += block.count("\n")
        if written < size:
            raise SystemExit(f"only {written} bytes of such lemmas: asked for {size}")
        out.write(proofs[0])
    return lemmas


def open_variables(clauses: list[list[int]]) -> set[int]:
    """Return the variables that unit propagation from the formula's units leaves open."""
    value: dict[int, bool] = {}
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(value.get(abs(lit)) == (lit > 0) for lit in clause):
                continue
            left = [lit for lit in clause if abs(lit) not in value]
            if len(left) == 1:
                value[abs(left[0])] = left[0] > 0
                changed = True
    return {abs(lit) for clause in clauses for lit in clause} - value.keys()


def widened(clauses: list[list[int]], variables: set[int]) -> Iterator[str]:
    """Yield, per binary clause of the formula over `variables`, the lines of its lemmas:
    the clause and one literal of another of `variables`; a lemma that holds two binary
    clauses of the formula (a b -c, where (a -c) is one too) is written from the first
    only, so no two lemmas are the same clause."""
    binaries = [c for c in clauses if len(c) == 2 and {abs(c[0]), abs(c[1])} <= variables]
    first: dict[frozenset[int], int] = {}  # each binary clause to its first place
    for place, pair in enumerate(binaries):
        first.setdefault(frozenset(pair), place)
    for place, (a, b) in enumerate(binaries):
        if first[frozenset((a, b))] != place:
            continue
        yield "".join(
            f"{a} {b} {x} 0\n"
            for v in sorted(variables - {abs(a), abs(b)})
            for x in (v, -v)
            if all(first.get(frozenset(pair), place) >= place for pair in ((a, x), (b, x)))
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kept", action="store_true", help="only lemmas MiniSat keeps whole")
    parser.add_argument("bytes", type=int, help="the least size of the lemmas, in bytes")
    parser.add_argument("cnf", type=Path, help="where the formula is written")
    parser.add_argument("proof", type=Path, help="where the proof is written")
    args = parser.parse_args(argv)
    lemmas = write_proof(args.bytes, args.cnf, args.proof, args.kept)
    size = args.proof.stat().st_size
    print(f"{lemmas} distinct lemmas, then the rating proof: {size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
