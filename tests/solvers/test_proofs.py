"""Proofs: every proof the engine, the PySAT solvers and the `cadical` binary write is
verified by the checker (`solvers.proofs.check`, PySAT's propagation, not the engine),
and the checker refuses corrupted proofs: a lemma dropped, a literal flipped, the
empty clause or the last units removed, malformed lines.

Every proof written here goes through `verify`, which checks it; the refusals are
asked of the same checker.
"""

from __future__ import annotations

import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tiny_formulas import TINY, TINY_IDS

from benchmarks.paths import PROJECT
from encoder.check import is_solution
from encoder.dimacs import Cnf, parse_cnf
from encoder.emit import encode_dimacs
from encoder.encodings import given_literals
from encoder.errors import DimacsError
from encoder.geometry import make_geometry, standard
from encoder.grids import format_line, parse_cells
from encoder.status import Status
from solvers import core
from solvers.core.engine import Engine
from solvers.core.proof_log import FIRST, HEAD, new_log
from solvers.core.rules import GridRules
from solvers.explain.steps import Explainer
from solvers.proofs import write as proof
from solvers.proofs.check import ProofRefused, _Keys, check_proof, parse_proof
from solvers.ratings.depth import Rater

EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
SCHOOL = "1.3.5..89..6.89......12...........91.6...1.3489.234....4..78.12..89..3....23...7."
DATA = Path(__file__).resolve().parents[2] / "data" / "sets"
NINE = standard(9)


def grid_of(text: str, geometry=NINE) -> tuple[int, ...]:
    return tuple(parse_cells(text, geometry))


def grid_cnf(grid, geometry=NINE, givens: str = "centrale") -> Cnf:
    return parse_cnf(encode_dimacs(grid, geometry, givens=givens))


def verify(cnf: Cnf, text: str):
    """Check a proof text against a formula; return the verdict (the one gate every
    proof written in this file goes through)."""
    return check_proof(cnf, parse_proof(text, "proof", cnf.num_vars), "proof")


def refused(cnf: Cnf, text: str) -> ProofRefused:
    with pytest.raises(ProofRefused) as caught:
        verify(cnf, text)
    return caught.value


def lemma_list(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("c")]


def wrong_given(grid, solution) -> tuple[int, ...]:
    """Return the grid with one more given that no peer rules out but that is not the
    solution's value: no solution, found only by reasoning (no givens clash)."""
    for c, k in enumerate(grid):
        if k:
            continue
        seen = {grid[p] for p in NINE.peers[c]}
        for value in range(1, 10):
            if value not in seen and value != solution[c]:
                return (*grid[:c], value, *grid[c + 1 :])
    raise AssertionError("no candidate to plant")


# --- the checker on hand-made proofs ---------------------------------------------------

XOR_PAIR = Cnf.from_clauses([[1, 2], [1, -2], [-1, 2], [-1, -2]])


def test_a_refutation_is_verified():
    verdict = verify(XOR_PAIR, "1 0\n0\n")
    assert verdict.claim == "unsatisfiable" and verdict.lemmas == 2


def test_a_dropped_lemma_is_refused_at_its_line():
    error = refused(XOR_PAIR, "c a comment\n0\n")
    assert error.line == 2 and "lemma 1 (0) does not follow" in error.message


def test_a_flipped_literal_is_refused():
    cnf = Cnf.from_clauses([[1, 2], [1, -2]])  # implies 1, so -1 cannot follow
    assert refused(cnf, "c\n-1 0\n").line == 2


def test_a_proof_without_its_empty_clause_is_refused():
    error = refused(XOR_PAIR, "1 0\n")
    assert "without the empty clause" in error.message


def test_units_that_leave_variables_open_claim_nothing():
    cnf = Cnf.from_clauses([[1, 2], [1, -2], [3, 4]])
    error = refused(cnf, "1 0\n")
    assert "open" in error.message


def test_units_that_determine_the_model_are_verified():
    cnf = Cnf.from_clauses([[1, 2], [1, -2], [-1, 3], [-3, -4], [-1, 2]])
    verdict = verify(cnf, "1 0\n")
    assert verdict.claim == "one model" and verdict.model == (1, 2, 3, -4)


def test_deletions_are_read_and_do_not_weaken_the_check():
    verdict = verify(XOR_PAIR, "1 0\nd 1 2 0\n0\n")
    assert verdict.claim == "unsatisfiable" and verdict.deletions == 1


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("1 0\n1 x 0\n", 2, "not a literal"),
        ("1 2\n", 1, "not terminated by 0"),
        ("1 0 2 0\n", 1, "one lemma a line"),
        ("d 0\n", 1, "deletion of the empty clause"),
    ],
)
def test_malformed_proof_lines_are_located(text, line, words):
    with pytest.raises(DimacsError) as caught:
        parse_proof(text, "p.drup", 9)
    assert caught.value.line == line and words in caught.value.message


@pytest.mark.parametrize("literal", ["730", "-1000000000", "4294967414", "-4294967414", "9" * 5000])
def test_a_literal_beyond_the_formula_is_refused_at_its_line(literal):
    with pytest.raises(DimacsError) as caught:  # 2^32 + 118 was read as 118
        parse_proof(f"1 0\n-2 {literal} 0\n0\n", "p.drup", 729)
    assert caught.value.line == 2 and "beyond the formula's 729" in caught.value.message


def test_a_variable_in_no_clause_leaves_two_models():
    cnf = Cnf.from_clauses([[1]], num_vars=2)  # x2 free: two models, not one
    assert "leave 1 of the formula's 2 variables open" in refused(cnf, "").message


MEASURED = (  # run a module, then write its peak resident memory (KiB) to argv[1]
    "import atexit, runpy, sys\n"
    "out = sys.argv[1]\n"
    "def peak():\n"
    "    with open('/proc/self/status') as f:\n"
    "        kib = next(l.split()[1] for l in f if l.startswith('VmHWM:'))\n"
    "    with open(out, 'w') as f:\n"
    "        f.write(kib)\n"
    "atexit.register(peak)\n"
    "sys.argv = sys.argv[2:]\n"
    "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n"
)


def test_the_checkers_key_set_answers_as_a_python_set():
    """Keys of every kind, many sharing one first slot (they run past the last slot and
    wrap around), over several doublings of the array."""
    rng = np.random.default_rng(33)
    wide = rng.integers(-(2**63), 2**63 - 1, 30_000, endpoint=True).tolist()
    crowded = [m * 2**40 - 1 for m in range(1, 3_000)]  # all in the last slot first
    keys = [*wide, *crowded, 0, 1, -1, -(2**63), 2**63 - 1] * 2
    rng.shuffle(keys)
    added, seen = _Keys(), set()
    for key in keys:
        assert added.add(key) == ((key or 1) not in seen), key  # 0 shares 1's place
        seen.add(key or 1)
    assert added.count == len(seen) and len(added.slots) == 2**16


def checked_with_peak(cnf: Path, proof_path: Path) -> tuple[subprocess.CompletedProcess, float]:
    """Run `python -m solvers check` on the files; return the run and its peak resident
    memory in MiB."""
    peak = proof_path.with_suffix(".peak")
    argv = ["solvers", "check", str(cnf), str(proof_path)]
    done = subprocess.run(
        [sys.executable, "-c", MEASURED, str(peak), *argv],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done, int(peak.read_text()) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_long_proof_is_checked_in_the_memory_of_its_lemmas(tmp_path):
    """12 MB of a lemma added and deleted over and over: the checker held the text, its
    lines and a record a line (about 25 bytes a byte of proof, 300 MB here); now a
    block of the file and the lemmas kept."""
    cnf, proof_path = tmp_path / "f.cnf", tmp_path / "p.drup"
    cnf.write_text("p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n")
    with proof_path.open("w") as out:
        for _ in range(50):
            out.write("1 2 0\nd 1 2 0\n" * 20_000)
        out.write("1 0\n0\n")
    done, peak = checked_with_peak(cnf, proof_path)
    assert done.returncode == 0 and done.stdout.endswith("s VERIFIED\n"), done.stderr
    assert "1000002 lemmas checked" in done.stdout
    assert peak < 150  # MB; about 55 here (the interpreter, PySAT)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_proof_of_distinct_lemmas_is_checked_within_the_memory_target(tmp_path):
    """9 MB of distinct lemmas, each kept by the checker and by MiniSat whole (the most
    memory a byte of proof: scripts/distinct_lemmas.py --kept), then a real proof."""
    generator = runpy.run_path(str(PROJECT / "scripts" / "distinct_lemmas.py"))
    cnf, empty, full = tmp_path / "em.cnf", tmp_path / "empty.drup", tmp_path / "full.drup"
    generator["write_proof"](0, cnf, empty, kept=True)  # the rating proof alone
    lemmas = generator["write_proof"](9_000_000, cnf, full, kept=True)
    size = full.stat().st_size - empty.stat().st_size  # bytes of distinct lemmas
    (base, baseline), (done, peak) = checked_with_peak(cnf, empty), checked_with_peak(cnf, full)
    for run in (base, done):
        assert run.returncode == 0 and run.stdout.endswith("s VERIFIED\n"), run.stderr
    rating = int(base.stdout.split()[1])  # `c N lemmas checked ...`
    assert f"c {lemmas + rating} lemmas checked" in done.stdout
    # The target: a 200 MB proof checked within 1.5 GB, so 7.5 bytes of memory a byte of
    # proof on top of what the checker holds before its first lemma (the interpreter,
    # numpy, PySAT, the formula: `baseline`, measured on the rating proof alone, about
    # 43 MiB).  Measured: 4.5 bytes a byte (38.5 MiB over the baseline, 72 bytes a lemma,
    # most of them MiniSat's clause and its watches); twice the memory a lemma would be 9,
    # over the bound, and the checker's Python set of keys (before the flat array of
    # solvers.proofs.check._Keys) was 7.8, over it too.
    assert peak - baseline <= 7.5 * size / 2**20, f"{peak:.1f} MiB, {baseline:.1f} without lemmas"


# --- the engine's proofs ------------------------------------------------------------------


def test_lemma_lines_turn_a_log_into_drup_lines():
    flat = np.array([-17, -21, 0, 10, 0, 0], np.int64)
    assert proof.lemma_lines(flat) == "-17 -21 0\n10 0\n0\n"


def rating_text(grid, max_depth: int = 2, geometry=NINE):
    rater = Rater(geometry)
    out, proofs = rater.depth_proofs([grid], max_depth)
    return out, proofs[0]


@pytest.mark.parametrize("givens", ["centrale", "units"])
def test_a_depth_2_rating_proof_determines_the_solution(givens):
    grid = grid_of(EASTER_MONSTER)
    out, text = rating_text(grid)
    assert int(out.depth[0]) == 2
    verdict = verify(grid_cnf(grid, givens=givens), text)
    assert verdict.claim == "one model" and verdict.widest == 2
    solution = tuple(out.solutions[0].tolist())
    assert is_solution(solution, grid, NINE)
    assert {lit for lit in verdict.model if 0 < lit <= 729} == {
        81 * (c // 9) + 9 * (c % 9) + k for c, k in enumerate(solution)
    }


def test_a_depth_2_proof_without_the_inner_lemmas_of_a_step_is_refused():
    grid = grid_of(EASTER_MONSTER)
    _, text = rating_text(grid)
    lines = text.splitlines()
    first_inner = next(i for i, line in enumerate(lines) if len(line.split()) == 3)
    unit = next(i for i in range(first_inner, len(lines)) if len(lines[i].split()) == 2)
    cut = lines[:first_inner] + lines[unit:]  # the step's unit without what it rests on
    error = refused(grid_cnf(grid), "\n".join(cut) + "\n")
    assert error.line == first_inner + 1  # where the unit now stands


def test_a_rating_proof_with_a_flipped_literal_is_refused():
    grid = grid_of(EASTER_MONSTER)
    _, text = rating_text(grid)
    lines = text.splitlines()
    unit = next(i for i, line in enumerate(lines) if len(line.split()) == 2 and line[0] != "c")
    lit = int(lines[unit].split()[0])
    lines[unit] = f"{-lit} 0"  # the failed literal asserted instead of refuted
    assert refused(grid_cnf(grid), "\n".join(lines) + "\n").line == unit + 1


def test_a_grid_the_rating_does_not_settle_gets_no_proof():
    grid = grid_of(SCHOOL)  # several solutions: no closure fills it
    out, proofs = Rater(NINE).depth_proofs([grid], 2)
    assert int(out.status[0]) == 0 and proofs == [""]  # DEPTH_OPEN: nothing to prove


def test_depth_1_rating_proofs_of_a_data_set_are_verified():
    lines = (DATA / "sudoku9_minimal.txt").read_text().splitlines()
    grids = [grid_of(line) for line in lines if line and not line.startswith("#")][:40]
    rater = Rater(NINE)
    out, proofs = rater.depth_proofs(grids, 2)
    for grid, text, depth in zip(grids, proofs, out.depth.tolist(), strict=True):
        verdict = verify(grid_cnf(grid), text)
        assert verdict.claim == "one model"
        assert (verdict.widest <= 1) == (depth <= 1)


def test_an_unsatisfiable_grid_proof_ends_in_the_empty_clause():
    grid = grid_of(EASTER_MONSTER)
    solution = Rater(NINE).rate(grid).solution
    planted = wrong_given(grid, solution)
    out, text = rating_text(planted)
    assert int(out.status[0]) == 2  # DEPTH_UNSAT
    assert lemma_list(text)[-1] == "0"
    cnf = grid_cnf(planted)
    assert verify(cnf, text).claim == "unsatisfiable"
    without_end = "\n".join(lemma_list(text)[:-1]) + "\n"
    assert "without the empty clause" in refused(cnf, without_end).message


def test_a_givens_clash_is_refuted_by_the_empty_clause_alone():
    grid = grid_of("11" + "." * 79)
    _, text = rating_text(grid)
    assert lemma_list(text) == ["0"]
    assert verify(grid_cnf(grid), text).claim == "unsatisfiable"


def test_a_small_log_grows_and_gives_the_same_proof(monkeypatch):
    grid = grid_of(EASTER_MONSTER)
    _, text = rating_text(grid)
    monkeypatch.setattr(proof, "START_CAPACITY", 4)
    _, small = rating_text(grid)
    assert small == text
    engine = GridRules(NINE).engine
    ok, _, lemmas = proof.closure_lemmas(engine, given_literals(grid, NINE), 2)
    assert ok and lemmas.size > 4
    assert verify(grid_cnf(grid), proof.lemma_lines(lemmas)).claim == "one model"


def test_x_sudoku_depth_2_proofs_are_verified():
    x = make_geometry(9, diagonals=True)
    lines = (DATA / "sudoku9_x_depth2.txt").read_text().splitlines()
    grids = [grid_of(line, x) for line in lines if line and not line.startswith("#")][:5]
    out, proofs = Rater(x).depth_proofs(grids, 2)
    assert out.depth.tolist() == [2] * 5
    for grid, text in zip(grids, proofs, strict=True):
        assert verify(grid_cnf(grid, x), text).claim == "one model"


@pytest.mark.parametrize("name, clauses, num_vars, status", TINY, ids=TINY_IDS)
def test_dpll_proofs_of_the_tiny_formulas(name, clauses, num_vars, status):
    result, lemmas = proof.search_lemmas(Engine(clauses, num_vars))
    assert result.status is status
    if status is Status.UNSAT:
        cnf = Cnf.from_clauses(clauses, num_vars)
        assert verify(cnf, proof.lemma_lines(lemmas)).claim == "unsatisfiable"


def pigeons(holes: int) -> list[list[int]]:
    """holes + 1 pigeons in `holes` holes: unsatisfiable, and only by search."""
    var = lambda p, h: p * holes + h + 1  # noqa: E731
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p in range(holes + 1):
            clauses += [[-var(p, h), -var(q, h)] for q in range(p + 1, holes + 1)]
    return clauses


@pytest.mark.parametrize("probe_depth", [0, 1])
def test_dpll_proofs_with_and_without_probing_at_each_node(probe_depth):
    clauses = pigeons(5)
    engine = Engine(clauses)
    log = new_log(1 << 16)
    result = engine.solve(log=log, probe_depth=probe_depth)
    assert result.status is Status.UNSAT and result.work.decisions > 0
    text = proof.lemma_lines(log[FIRST : log[HEAD]])
    verdict = verify(Cnf.from_clauses(clauses), text)
    assert verdict.claim == "unsatisfiable" and verdict.widest > 1


def test_a_search_that_finds_a_model_gives_no_proof():
    result, lemmas = proof.search_lemmas(Engine(pigeons(5)[:-1]))
    assert result.status is Status.SAT and lemmas.size == 0


def test_an_explanation_proof_follows_its_steps(easter_monster):
    grid, explainer, steps = easter_monster
    text = proof.explanation_proof(explainer, grid, steps)
    verdict = verify(grid_cnf(grid), text)
    assert verdict.claim == "one model"
    said = []  # the unit each step states, in the explanation's order
    for step in steps:
        if step.kind in ("placement", "refutation", "hypothesis"):
            var = 81 * (step.cell // 9) + 9 * (step.cell % 9) + step.value
            said.append(var if step.after.values[step.cell] == step.value else -var)
    units = [int(line.split()[0]) for line in lemma_list(text) if len(line.split()) == 2]
    assert units == said and any(s.kind == "hypothesis" for s in steps)


def test_an_explanation_of_a_grid_without_solution_proves_it():
    grid = grid_of(EASTER_MONSTER)
    planted = wrong_given(grid, Rater(NINE).rate(grid).solution)
    explainer = Explainer(NINE)
    steps = list(explainer.steps(planted, 2))
    assert steps[-1].kind == "contradiction"
    text = proof.explanation_proof(explainer, planted, steps)
    assert verify(grid_cnf(planted), text).claim == "unsatisfiable"


def test_uniqueness_proof_forbids_the_solution_and_refutes_the_rest():
    from solvers.core.rules import GridRules

    grid = grid_of(EASTER_MONSTER)
    cnf_text, text = proof.uniqueness_proof(GridRules(NINE), grid)
    cnf = parse_cnf(cnf_text)
    assert verify(cnf, text).claim == "unsatisfiable"
    without_block = Cnf.from_clauses(list(cnf)[:-1], cnf.num_vars)
    refused(without_block, text)  # the grid alone has a model: some lemma cannot follow


# --- the command line ------------------------------------------------------------------


def run(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *argv], capture_output=True, text=True, cwd=cwd, timeout=600
    )


def check(cnf: Path, proof_path: Path) -> subprocess.CompletedProcess:
    done = run("solvers", "check", str(cnf), str(proof_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "s VERIFIED"
    return done


@pytest.fixture(scope="module")
def unsat_cnf(tmp_path_factory) -> Path:
    """A grid with a wrong extra given: unsatisfiable, by reasoning rather than a clash."""
    grid = grid_of(EASTER_MONSTER)
    planted = wrong_given(grid, Rater(NINE).rate(grid).solution)
    assert Rater(NINE).rate(planted).depth_label() == "unsat@2"
    path = tmp_path_factory.mktemp("unsat") / "planted.cnf"
    path.write_text(encode_dimacs(planted, NINE))
    return path


SOLVERS_WITH_PROOFS = ["up", "fl", "fl2", "dpll", "cadical195", "glucose3", "glucose4", "cadical"]


@pytest.mark.parametrize("name", SOLVERS_WITH_PROOFS)
def test_solve_writes_a_proof_of_unsat(name, unsat_cnf, tmp_path):
    if name == "cadical" and shutil.which("cadical") is None:
        pytest.skip("the cadical binary is not installed (Debian package cadical)")
    out = tmp_path / f"{name}.drup"
    done = run("solvers", "solve", str(unsat_cnf), "--solver", name, "--proof", str(out))
    if name in ("up", "fl"):  # this grid needs depth 2: UNKNOWN and no proof, said so
        assert done.returncode == 0 and "c proof: none written" in done.stdout
        assert not out.exists()
        return
    assert done.returncode == 20, done.stderr
    assert f"c proof: written to {out}" in done.stdout
    check(unsat_cnf, out)


@pytest.mark.parametrize("name", ["minisat22", "minisat"])
def test_solvers_without_proofs_say_so_in_one_line(name, unsat_cnf, tmp_path):
    out = tmp_path / "p.drup"
    done = run("solvers", "solve", str(unsat_cnf), "--solver", name, "--proof", str(out))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot prove its answers" in done.stderr
    assert not out.exists()


def test_check_refuses_a_corrupted_proof_with_its_line(tmp_path):
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 2 4\n1 2 0\n1 -2 0\n-1 2 0\n-1 -2 0\n")
    good = tmp_path / "good.drup"
    good.write_text("1 0\n0\n")
    check(cnf, good)
    bad = tmp_path / "bad.drup"
    bad.write_text("c dropped the unit\n0\n")
    done = run("solvers", "check", str(cnf), str(bad))
    assert done.returncode == 1 and done.stdout == "s NOT VERIFIED\n"
    assert done.stderr.startswith(f"solvers: {bad}:2: lemma 1 ") and done.stderr.count("\n") == 1
    broken = tmp_path / "broken.drup"
    broken.write_text("1 0\n1 two 0\n")
    done = run("solvers", "check", str(cnf), str(broken))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"solvers: {broken}:2: not a literal: 'two'\n"


def test_rate_and_explain_write_proofs_the_checker_verifies(tmp_path):
    cnf = tmp_path / "em.cnf"
    cnf.write_text(encode_dimacs(grid_of(EASTER_MONSTER), NINE))
    rated = tmp_path / "rate.drup"
    done = run("solvers", "rate", EASTER_MONSTER, "--no-length", "--proof", str(rated))
    assert done.returncode == 0, done.stderr
    beside = tmp_path / "rate.drup.cnf"  # the grid's formula, its solution excluded last
    assert "exactly one solution" in rated.read_text().splitlines()[0]
    assert "exactly one solution" in beside.read_text().splitlines()[0]
    assert "has no model" in check(beside, rated).stdout
    units = parse_cnf(encode_dimacs(grid_of(EASTER_MONSTER), NINE, givens="units"))
    written = parse_cnf(beside.read_text())
    assert list(written)[:-1] == list(units) and len(list(written)[-1]) == 81
    # the command's --proof on a depth-1 grid (the nested proof of Easter Monster's depth-2
    # explanation is checked in-process above, at a fraction of a command's cost)
    [line], _ = minimal_grids_file(tmp_path, 1)
    cnf.write_text(encode_dimacs(grid_of(line), NINE))
    explained = tmp_path / "explain.drup"
    done = run("solvers", "explain", line, "--proof", str(explained))
    assert done.returncode == 0, done.stderr
    check(cnf, explained)


def minimal_grids_file(tmp_path, count: int) -> tuple[list[str], Path]:
    """The first `count` grids of the project's minimal-puzzle set, and a file of them."""
    lines = (DATA / "sudoku9_minimal.txt").read_text().splitlines()
    grids = [line for line in lines if line and not line.startswith("#")][:count]
    source = tmp_path / f"first{count}.txt"
    source.write_text("\n".join(grids) + "\n")
    return grids, source


def test_rate_writes_one_proof_per_grid_into_a_folder(tmp_path):
    grids, source = minimal_grids_file(tmp_path, 3)
    folder = tmp_path / "proofs"
    folder.mkdir()
    done = run("solvers", "rate", str(source), "--no-length", "--proof", str(folder))
    assert done.returncode == 0, done.stderr
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(f"{n}.{kind}" for n in range(3) for kind in ("cnf", "drup"))
    for index, line in enumerate(grids):
        check(folder / f"{index}.cnf", folder / f"{index}.drup")
        (tmp_path / f"{index}.cnf").write_text(encode_dimacs(grid_of(line), NINE))
    workers = tmp_path / "workers"
    workers.mkdir()
    argv = ["--no-length", "--proof", str(workers), "--workers", "2", "--chunk-size", "1"]
    done = run("solvers", "rate", str(source), *argv)
    assert done.returncode == 0, done.stderr
    for index in range(3):  # the same proofs when other processes rate the grids
        name = f"{index}.drup"
        assert (workers / name).read_text() == (folder / name).read_text()
    one_file = tmp_path / "all.drup"  # a file: every proof after its `c proof of grid N`
    done = run("solvers", "rate", str(source), "--no-length", "--proof", str(one_file))
    assert done.returncode == 0, done.stderr
    for index in range(3):
        cnf = tmp_path / f"{index}.cnf"
        done = run("solvers", "check", str(cnf), str(one_file), "--grid", str(index))
        assert done.returncode == 0 and done.stdout.endswith("s VERIFIED\n"), done.stderr
    done = run("solvers", "check", str(tmp_path / "0.cnf"), str(one_file))
    assert done.returncode == 1 and "say which with --grid N" in done.stderr
    done = run("solvers", "check", str(tmp_path / "1.cnf"), str(one_file), "--grid", "0")
    assert done.returncode == 1 and done.stdout == "s NOT VERIFIED\n"  # another grid's proof


def test_unique_writes_formulas_and_proofs(tmp_path):
    _, source = minimal_grids_file(tmp_path, 2)
    folder = tmp_path / "u"
    folder.mkdir()
    done = run("benchmarks", "unique", str(source), "--proof", str(folder))
    assert done.returncode == 0, done.stderr
    for index in range(2):
        verdict = check(folder / f"{index}.cnf", folder / f"{index}.drup")
        assert "no model" in verdict.stdout


def test_unique_writes_lrat_proofs_that_the_lrat_check_verifies(tmp_path):
    _, source = minimal_grids_file(tmp_path, 2)
    folder = tmp_path / "u"
    folder.mkdir()
    argv = ("benchmarks", "unique", str(source), "--proof", str(folder), "--proof-format", "lrat")
    done = run(*argv)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["0.cnf", "0.lrat", "1.cnf", "1.lrat"]
    for index in range(2):
        assert (folder / f"{index}.cnf").read_text().startswith("c sudoku-sat")  # the claim
        assert not any(line.startswith("c") for line in (folder / f"{index}.lrat").open())
        verdict = check(folder / f"{index}.cnf", folder / f"{index}.lrat")
        assert verdict.returncode == 0 and "by their hints" in verdict.stdout, verdict.stdout


@pytest.mark.parametrize("name", core.variants())
def test_the_boards_rating_proofs_are_verified_on_every_variant(name):
    """The board writes the closures' lemmas itself (board_impl.h): the same proof on every
    variant, verified against the grid's formula, for the standard board and the
    geometry's (X-Sudoku, 16x16)."""
    best = core.variant()
    core.use_variant(name)
    try:
        x = make_geometry(9, diagonals=True)
        lines = (DATA / "sudoku9_x_depth2.txt").read_text().splitlines()
        x_grids = [grid_of(line, x) for line in lines if line and not line.startswith("#")][:3]
        sixteen = make_geometry(16)
        lines = (DATA / "sudoku16_minimal.txt").read_text().splitlines()
        sixteens = [grid_of(line.split()[0], sixteen) for line in lines if line[:1] not in "#"][:4]
        cases = [(NINE, [grid_of(EASTER_MONSTER)]), (x, x_grids), (sixteen, sixteens)]
        for geometry, grids in cases:
            rater = Rater(geometry)
            assert isinstance(rater.engine, core.Board)
            out, proofs = rater.depth_proofs(grids, 2)
            assert out.depth.min() >= 1 and all(proofs)  # settled by closures
            for grid, text in zip(grids, proofs, strict=True):
                assert verify(grid_cnf(grid, geometry), text).claim == "one model"
    finally:
        core.use_variant(best)


def test_rate_into_a_folder_writes_each_refutation_beside_its_cnf(tmp_path):
    """--proof FOLDER: N.cnf and N.drup for each grid N, a refutation of the CNF, whether
    the grid has one solution (its solution excluded) or none."""
    grid = grid_of(EASTER_MONSTER)
    planted = wrong_given(grid, Rater(NINE).rate(grid).solution)
    grids = tmp_path / "grids.txt"
    grids.write_text(f"{EASTER_MONSTER}\n{format_line(planted, NINE)}\n")
    folder = tmp_path / "proofs"
    folder.mkdir()
    done = run("solvers", "rate", str(grids), "--no-length", "--proof", str(folder))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["0.cnf", "0.drup", "1.cnf", "1.drup"]
    for n, claim in ((0, "exactly one solution"), (1, "no solution")):
        assert claim in (folder / f"{n}.drup").read_text().splitlines()[0]
        assert claim in (folder / f"{n}.cnf").read_text().splitlines()[0]
        assert "has no model" in check(folder / f"{n}.cnf", folder / f"{n}.drup").stdout
    as_it_is = encode_dimacs(planted, NINE, givens="units").split("p cnf ")[1]
    assert (folder / "1.cnf").read_text().split("p cnf ")[1] == as_it_is  # no solution


def test_rate_of_many_grids_into_a_file_writes_sections(tmp_path):
    grids = tmp_path / "grids.txt"
    grids.write_text(f"{EASTER_MONSTER}\n{EASTER_MONSTER}\n")
    out = tmp_path / "all.drup"
    done = run("solvers", "rate", str(grids), "--no-length", "--proof", str(out))
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "all.drup.cnf").exists()
    cnf = tmp_path / "em.cnf"
    cnf.write_text(encode_dimacs(grid_of(EASTER_MONSTER), NINE))
    done = run("solvers", "check", str(cnf), str(out), "--grid", "1")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "s VERIFIED"
    lrat = run("solvers", "rate", str(grids), "--no-length", "--proof", str(out),
               "--proof-format", "lrat")  # fmt: skip
    assert lrat.returncode != 0 and "give a folder" in lrat.stderr


@pytest.mark.parametrize("name", core.variants())
def test_the_boards_uniqueness_proofs_are_verified_on_every_variant(name):
    """The board's DPLL writes its lemmas (board_search.h): a refutation of the grid's
    formula with its solution excluded, which the checker verifies; without the
    excluding clause the same lemmas are refused (the model's node lemma)."""
    best = core.variant()
    core.use_variant(name)
    try:
        sixteen = make_geometry(16)
        lines = (DATA / "sudoku16_minimal.txt").read_text().splitlines()
        sixteens = [grid_of(line.split()[0], sixteen) for line in lines if line[:1] not in "#"]
        for geometry, grid in ((NINE, grid_of(EASTER_MONSTER)), (sixteen, sixteens[0])):
            rules = GridRules(geometry)
            cnf_text, text = proof.uniqueness_proof(rules, grid)
            assert "the board's DPLL" in text
            cnf = parse_cnf(cnf_text)
            assert verify(cnf, text).claim == "unsatisfiable"
        refused(Cnf.from_clauses(list(cnf)[:-1], cnf.num_vars), text)
    finally:
        core.use_variant(best)


def test_a_search_log_refuses_a_lookahead_and_an_excluded_candidate():
    """Lemmas under a lookahead or resting on an excluded candidate would not follow from
    the formula by unit propagation: the core refuses the log with either."""
    board = GridRules(NINE).board
    with pytest.raises(ValueError, match="lookahead 0"):
        board.count([grid_of(EASTER_MONSTER)], 2, lookahead=1, log=new_log(64))
    with pytest.raises(ValueError, match="no exclude"):
        board.count([grid_of(EASTER_MONSTER)], 2, exclude=[(1, 5)], log=new_log(64))
