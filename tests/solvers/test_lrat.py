"""LRAT: the writer's proofs (solvers.proofs.lrat) are accepted by the core's checker
(solvers.proofs.check_lrat) and by a plain Python checker written here, which shares
nothing with either; the checker refuses each defect at its line: a changed hint, a
hint naming no clause, ids out of order or malformed, a lemma after the empty clause,
a proof in the other format."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoder.dimacs import Cnf, clause_lines, parse_cnf
from encoder.errors import DimacsError
from encoder.geometry import standard
from encoder.grids import parse_cells
from solvers.proofs.beside import formula_beside, formula_cnf, refutation
from solvers.proofs.check import ProofRefused
from solvers.proofs.check_lrat import check_lrat
from solvers.proofs.lrat import lrat_lines
from solvers.ratings.depth import Rater

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
NINE = standard(9)
XOR = Cnf.from_clauses([[1, 2], [-1, 2], [1, -2], [-1, -2]])


def reference_check(clauses, text: str) -> bool:
    """A strict LRAT check in plain Python: no comment line (cake_lpr takes none), ids
    rising, hints live, each unit or falsified in turn, the empty clause reached."""
    db = {i + 1: list(c) for i, c in enumerate(clauses)}
    last, empty = len(db), False
    for line in text.splitlines():
        tokens = line.split()
        assert tokens and tokens[0] != "c", f"not an LRAT line: {line!r}"
        if tokens[1] == "d":
            for token in tokens[2:-1]:
                del db[int(token)]
            continue
        ident = int(tokens[0])
        assert ident > last and not empty
        last = ident
        zero = tokens.index("0", 1)
        lits = [int(t) for t in tokens[1:zero]]
        true = {-lit for lit in lits}
        for hint in map(int, tokens[zero + 1 : -1]):
            clause = db[hint]
            assert not any(lit in true for lit in clause)
            open_ = list({lit for lit in clause if -lit not in true})  # a clause is a set
            if not open_:
                break
            assert len(open_) == 1
            true.add(open_[0])
        else:
            raise AssertionError(f"lemma {ident} reaches no conflict")
        db[ident] = lits
        empty = not lits
    return empty


def write(tmp_path, text: str, name: str = "p.lrat"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def rating_pair(grid_text: str) -> tuple[Cnf, str]:
    grid = tuple(parse_cells(grid_text, NINE))
    out, [proof] = Rater(NINE).depth_proofs([grid], 2)
    solution = tuple(out.solutions[0].tolist()) if out.status[0] == 1 else None
    cnf = parse_cnf(formula_beside(grid, NINE, "centrale", solution))
    flat = formula_cnf(grid, NINE, "centrale", solution)  # what the writer numbers
    assert list(flat) == list(cnf) and flat.num_vars == cnf.num_vars
    return cnf, refutation(proof, flat, "lrat", solution is not None)


def test_a_hand_refutation_is_written_and_checked(tmp_path):
    text = lrat_lines(XOR, np.array([2, 0, 0]))
    assert text == "5 2 0 1 2 0\n6 0 5 3 4 0\n"
    assert reference_check(list(XOR), text)
    assert check_lrat(XOR, write(tmp_path, text)).claim == "unsatisfiable"


def test_a_rating_proof_in_lrat_is_accepted_by_both_checkers(tmp_path):
    cnf, text = rating_pair(EASTER_MONSTER)
    assert reference_check(list(cnf), text)
    verdict = check_lrat(cnf, write(tmp_path, text))
    assert verdict.claim == "unsatisfiable" and verdict.deletions > 0


def test_one_changed_hint_is_refused_at_its_line(tmp_path):
    cnf, text = rating_pair(EASTER_MONSTER)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line[:1].isdigit() and " d " not in line)
    tokens = lines[at].split()
    first_hint = tokens.index("0", 1) + 1
    tokens[first_hint] = str(int(tokens[first_hint]) + 1)
    lines[at] = " ".join(tokens)
    with pytest.raises(ProofRefused) as caught:
        check_lrat(cnf, write(tmp_path, "\n".join(lines) + "\n"))
    assert caught.value.line == at + 1 and "hint" in caught.value.message


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("5 2 0 1 2 0\n5 0 5 3 4 0\n", 2, "ids out of order"),
        ("3 2 0 1 2 0\n", 1, "not above the formula's 4 clauses"),
        ("5 2 0 1 9 0\n", 1, "hint 9 of lemma 5 names no clause"),
        ("5 2 0 1 2 0\n5 d 5 0\n6 0 5 3 4 0\n", 3, "hint 5 of lemma 6 names no clause"),
        ("5 2 0 1 2 0\n6 0 5 3 4 0\n7 1 0 1 0\n", 3, "after the empty clause"),
        ("5 2 0 1 -2 0\n", 1, "RAT hints are not supported"),
        ("5 2 0 3 1 0\n", 1, "neither unit nor falsified"),
        ("5 2 0 1 0\n", 1, "reach no conflict"),
        ("5 x 0 1 2 0\n", 1, "not an integer"),
        ("-5 2 0 1 2 0\n", 1, "ids are positive"),
        ("2 0\n0\n", 1, "a DRUP proof? check it with --proof-format drup"),
        ("5 2 0 1 2 0\n", 2, "ends without the empty clause"),
    ],
)
def test_defects_are_refused_with_their_line(tmp_path, text, line, words):
    with pytest.raises(DimacsError) as caught:
        check_lrat(XOR, write(tmp_path, text))
    assert words in caught.value.message
    if "ends without" not in words:
        assert caught.value.line == line


@st.composite
def unsat_formulas(draw):
    """Random 3-CNF over 5 variables with enough clauses to be unsatisfiable often."""
    clauses = draw(
        st.lists(
            st.lists(st.integers(1, 5) | st.integers(-5, -1), min_size=1,
                     max_size=3, unique_by=abs),
            min_size=8, max_size=40,
        )
    )  # fmt: skip
    return clauses


@settings(max_examples=60, deadline=None)
@given(unsat_formulas())
def test_pysat_refutations_become_lrat_both_checkers_accept(tmp_path_factory, clauses):
    from pysat.solvers import Solver

    with Solver(name="glucose3", bootstrap_with=clauses, with_proof=True) as solver:
        if solver.solve():
            return
        lines = [line for line in solver.get_proof() if not line.startswith("d")]
    flat = [int(t) for line in lines for t in line.split()]
    if flat != [0] and flat[-2:] != [0, 0]:  # Glucose may leave the empty clause out
        flat.append(0)
    cnf = Cnf.from_clauses(clauses, 5)
    text = lrat_lines(cnf, np.array(flat, np.int64))
    assert reference_check(clauses, text)
    path = tmp_path_factory.mktemp("lrat") / "p.lrat"
    path.write_text(text)
    assert check_lrat(cnf, str(path)).claim == "unsatisfiable"


def test_a_lemma_that_does_not_follow_is_refused_by_the_writer():
    with pytest.raises(ValueError, match="lemma 1 does not follow"):
        lrat_lines(Cnf.from_clauses([[1, 2]]), np.array([1, 0, 0]))


def test_the_command_line_checks_lrat_by_its_extension(tmp_path):
    cnf = tmp_path / "x.cnf"
    cnf.write_text("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    good = write(tmp_path, "5 2 0 1 2 0\n6 0 5 3 4 0\n", "good.lrat")
    done = subprocess.run([sys.executable, "-m", "solvers", "check", str(cnf), good],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0 and done.stdout.endswith("s VERIFIED\n")
    bad = write(tmp_path, "5 2 0 1 2 0\n6 0 5 3 1 0\n", "bad.lrat")
    done = subprocess.run([sys.executable, "-m", "solvers", "check", str(cnf), bad],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 1 and done.stdout == "s NOT VERIFIED\n"
    assert done.stderr.startswith(f"solvers: {bad}:2: hint") and done.stderr.count("\n") == 1
    as_drup = subprocess.run(
        [sys.executable, "-m", "solvers", "check", str(cnf), good, "--proof-format", "drup"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert as_drup.returncode == 1 and "--proof-format lrat" in as_drup.stderr


def test_a_uniqueness_proof_of_the_boards_search_in_lrat(tmp_path):
    """The board's DPLL log (board_search.h) as LRAT: both checkers accept it."""
    from solvers.core.rules import GridRules
    from solvers.proofs.write import board_search_lemmas

    grid = tuple(parse_cells(EASTER_MONSTER, NINE))
    rules = GridRules(NINE)
    lemmas = board_search_lemmas(rules, grid)
    solution = tuple(Rater(NINE).rate(grid).solution)
    cnf = parse_cnf(formula_beside(grid, NINE, "centrale", solution))
    text = lrat_lines(cnf, lemmas)
    assert reference_check(list(cnf), text)
    assert check_lrat(cnf, write(tmp_path, text)).claim == "unsatisfiable"


@pytest.mark.parametrize("solver", ["dpll", "cadical195", "cadical"])
@pytest.mark.parametrize("sparse", [False, True])
def test_solve_writes_lrat_refutations_of_the_file_it_read(tmp_path, solver, sparse):
    """`solvers solve FILE --proof P --proof-format lrat`: the solver's DRUP refutation
    with its hints against FILE's clauses; a sparse header (variables 10,000 apart, the
    solver given them renumbered) gets its proof in the file's own variables, DRUP or
    LRAT, and both checkers accept them."""
    if solver == "cadical" and not shutil.which("cadical"):
        pytest.skip("no cadical binary on PATH")
    grid = tuple(parse_cells(EASTER_MONSTER, NINE))
    solution = tuple(Rater(NINE).rate(grid).solution)
    cnf = formula_cnf(grid, NINE, "centrale", solution)
    if sparse:
        cnf = Cnf(cnf.num_vars * 10_000, cnf.literals * 10_000, cnf.offsets)
    path = tmp_path / "f.cnf"
    path.write_text(f"p cnf {cnf.num_vars} {len(cnf)}\n" + clause_lines(cnf))
    for fmt in ("drup", "lrat"):
        proof = tmp_path / f"f.{fmt}"
        argv = ["solve", str(path), "--solver", solver, "--proof", str(proof)]
        done = subprocess.run([sys.executable, "-m", "solvers", *argv, "--proof-format", fmt],
                              capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 20 and f"c proof: written to {proof}" in done.stdout, done
        checked = subprocess.run([sys.executable, "-m", "solvers", "check", str(path), str(proof)],
                                 capture_output=True, text=True)  # fmt: skip
        assert checked.returncode == 0, checked.stderr
        assert checked.stdout.endswith("the formula has no model\ns VERIFIED\n")
    assert reference_check(list(cnf), proof.read_text())


def test_a_sparse_header_is_checked_up_to_its_limit_and_refused_past_it(tmp_path):
    """A header declaring far more variables than the clauses use: checked within
    SPARSE_LIMIT (a stamp a declared variable), refused in one line past it."""
    from solvers.proofs.check_lrat import SPARSE_LIMIT

    proof = write(tmp_path, "3 0 1 2 0\n")
    for num_vars in (SPARSE_LIMIT, SPARSE_LIMIT + 1):
        cnf = Cnf(num_vars, np.array([num_vars, -num_vars], np.int32), np.array([0, 1, 2]))
        if num_vars <= SPARSE_LIMIT:
            assert check_lrat(cnf, proof).claim == "unsatisfiable"
        else:
            with pytest.raises(DimacsError, match="8 bytes a declared variable"):
                check_lrat(cnf, proof)


def test_a_wide_tautology_costs_its_width_not_its_square(tmp_path):
    """A lemma of 400,000 literals (x and -x last): the checker finds the tautology by its
    stamps; comparing literal pairs would take minutes."""
    width = 200_000
    cnf = Cnf(width, np.arange(1, width + 1, dtype=np.int32), np.array([0, width]))
    lits = " ".join(f"{v} {v + 1}" for v in range(2, 2 * width, 2)[: width // 2 - 1])
    proof = write(tmp_path, f"2 {lits} 1 -1 0 0\n")
    start = time.monotonic()
    with pytest.raises(ProofRefused, match="without the empty clause"):
        check_lrat(cnf, proof)
    assert time.monotonic() - start < 10  # linear: a few ms; quadratic: minutes


class _Stop(Exception):
    pass


def _interrupted(call) -> tuple[float, float]:
    """(seconds of `call` run whole, seconds until a SIGALRM raised 20 ms into it ends it)."""
    start = time.monotonic()
    call()
    whole = time.monotonic() - start

    def stop(signum, frame):
        raise _Stop

    previous = signal.signal(signal.SIGALRM, stop)
    try:
        start = time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, 0.02)
        with pytest.raises(_Stop):
            call()
        return whole, time.monotonic() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_signal_ends_the_lrat_writer_and_checker_inside_their_kernels(tmp_path):
    """Both kernels run without the GIL and poll for signals (one poll a lemma, one a
    line): a handler that raises ends them within the poll's 20 ms, not at their end."""
    n = 100_000  # a chain x1 -> x2 -> ... -> xn: each lemma -xi xn propagates most of it
    lits = np.empty(2 * (n - 1), np.int32)
    lits[0::2], lits[1::2] = -np.arange(1, n), np.arange(2, n + 1)
    chain = Cnf(n, lits, np.arange(0, 2 * n - 1, 2, dtype=np.int64))
    lemmas = np.zeros(3 * 300, np.int64)  # -x_i x_n for i = 1..300: no empty clause, refused
    lemmas[0::3], lemmas[1::3] = -np.arange(1, 301), n

    def write_lrat():
        with pytest.raises(ValueError, match="no empty clause"):
            lrat_lines(chain, lemmas)

    whole, stopped = _interrupted(write_lrat)
    assert whole > 0.3 and stopped < whole / 2, (whole, stopped)
    hints = " ".join(map(str, range(1, n))) + " 0\n"
    with open(tmp_path / "chain.lrat", "w") as out:
        for k in range(100):
            out.write(f"{n + k} -1 {n} 0 {hints}")
    path = str(tmp_path / "chain.lrat")

    def check():
        with pytest.raises(ProofRefused, match="without the empty clause"):
            check_lrat(chain, path)

    whole, stopped = _interrupted(check)
    assert whole > 0.1 and stopped < whole / 2, (whole, stopped)


def test_an_error_at_the_end_of_a_mapped_file_quotes_only_its_bytes(tmp_path):
    """A proof of exactly one page ending inside a number: the message quotes what is
    there and nothing after it (the file is mapped: no NUL ends it)."""
    tail = "5 2 0 1 2 0\n6 -"
    path = tmp_path / "page.lrat"
    path.write_text("c " + "x" * (4096 - len(tail) - 3) + "\n" + tail)
    assert path.stat().st_size == 4096
    with pytest.raises(DimacsError) as refused:
        check_lrat(XOR, str(path))
    assert str(refused.value).endswith(":3: not an integer: '-'"), str(refused.value)


def test_ids_far_apart_cost_no_memory_for_the_ids_between():
    """1,500 tautologies, each id 2^20 past the one before: the clauses read, not the
    ids' size, set the memory (a table by id would take 24 GB).  In a child under a 1 GB
    address-space limit (not under the sanitizers, whose shadow memory is reserved
    address space), its peak resident size checked too."""
    script = """
import os, resource, sys
import numpy as np
from encoder.dimacs import Cnf
from solvers.core._check import lrat_check
if "asan" not in os.environ.get("LD_PRELOAD", ""):
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
lines = "".join(f"{5 + k * (1 << 20)} 1 -1 0 0\\n" for k in range(1500))
cnf = Cnf.from_clauses([[1, 2], [-1, 2], [1, -2], [-1, -2]])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(lrat_check(cnf.literals, cnf.offsets, cnf.num_vars, lines.encode()))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    verdict, grown_kb = done.stdout.split("\n")[:2]
    assert verdict == "(1500, 0, 2, 0)"
    assert int(grown_kb) < 100_000  # KB: the table by id touched 24 GB


def test_repeated_literals_count_once_in_the_writer_and_the_checker(tmp_path):
    """A clause `1 1 2` with 2 false is unit, and a lemma `2 2 2` is the clause `2`: both
    the writer and the checker read a clause as the set of its literals."""
    cnf = Cnf.from_clauses([[1, 1, 2], [-2], [-1]])
    text = lrat_lines(cnf, np.array([0]))
    assert reference_check(list(cnf), text)
    assert check_lrat(cnf, write(tmp_path, "4 0 2 1 3 0\n")).claim == "unsatisfiable"
    lemma = "4 -1 -1 -1 0 3 0\n5 0 2 1 4 0\n"  # -1, stored once, then a conflict
    assert check_lrat(cnf, write(tmp_path, lemma, "twice.lrat")).lemmas == 2


def test_a_tautology_among_the_lemmas_is_written_and_left_out():
    """`1 -1` follows at once; no lemma rests on it, so the LRAT refutation drops it."""
    text = lrat_lines(XOR, np.array([1, -1, 0, 2, 0, 0]))
    assert reference_check(list(XOR), text)
    for line in text.splitlines():
        tokens = line.split()
        if tokens[1] != "d":
            assert not {"1", "-1"} <= set(tokens[1 : tokens.index("0", 1)]), line
