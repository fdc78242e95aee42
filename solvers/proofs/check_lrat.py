"""Checking an LRAT proof without trusting the engine (native/proof/lrat_check.c, in the
_check extension, which shares no code with the writer): each lemma's hints are read in
order, each a live clause that is unit or falsified under the lemma's negation and the
units before it, so the check is linear in the proof.  The proof must end in the empty
clause: an LRAT proof is a refutation.  A refused proof is a ProofRefused, and a
malformed one a DimacsError, each naming the line and the problem.

The file is mapped, not read: the checker holds the formula and the clauses added.
"""

from __future__ import annotations

import mmap
import sys
import time

from encoder.dimacs import Cnf
from encoder.errors import DimacsError, unreadable
from solvers.core._check import lrat_check
from solvers.proofs.check import ProofRefused, Verdict

SPARSE_LIMIT = 1 << 24  # declared variables of a sparse header: a stamp each (128 MB)
# problems of the proof's form (the others: a lemma that does not follow)
_MALFORMED = ("not an integer", "a number beyond", "clause id", "the line does not end",
              "one 0 on the line", "zeros on the line", "literal ")  # fmt: skip


def check_lrat(cnf: Cnf, path: str) -> Verdict:
    """Check the LRAT proof in file `path` ('-': stdin) against `cnf`; return the verdict
    ("unsatisfiable") or raise ProofRefused / DimacsError with the line."""
    name = "<stdin>" if path == "-" else path
    start = time.perf_counter()
    if cnf.sparse and cnf.num_vars > SPARSE_LIMIT:
        raise DimacsError(
            f"an LRAT check holds 8 bytes a declared variable: the header's "
            f"{cnf.num_vars:,} variables, of which the clauses use few, are more than "
            f"{SPARSE_LIMIT:,}",
            name,
        )
    data = _data(path, name)
    try:
        lemmas, deletions, widest, empty = lrat_check(cnf.literals, cnf.offsets, cnf.num_vars, data)
    except ValueError as error:
        if len(error.args) != 2 or not isinstance(error.args[0], int):
            raise
        line, problem = error.args
        kind = DimacsError if problem.startswith(_MALFORMED) else ProofRefused
        raise kind(problem, name, line) from None
    finally:
        if isinstance(data, mmap.mmap):
            data.close()
    if not empty:
        raise ProofRefused("the proof ends without the empty clause", name)
    seconds = time.perf_counter() - start
    return Verdict("unsatisfiable", lemmas, deletions, seconds, widest=widest)


def _data(path: str, name: str):
    if path == "-":
        if sys.stdin is None:
            raise DimacsError("cannot read: standard input is closed", name)
        buffer = getattr(sys.stdin, "buffer", None)
        return buffer.read() if buffer is not None else sys.stdin.read().encode()
    try:
        with open(path, "rb") as handle:
            if handle.seek(0, 2) == 0:
                return b""
            return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        raise DimacsError("no such file", path) from None
    except OSError as error:
        raise DimacsError(unreadable(path, error)[0], path) from None
