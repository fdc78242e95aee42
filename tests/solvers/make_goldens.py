"""Write the golden files of tests/solvers/data (board.tsv.gz, clauses.tsv.gz,
search.tsv.gz, length.tsv.gz) with the numba kernels the native core was ported from:
the numba board (solvers.board_engine), the numba clause engine (solvers.engine.Engine
before it moved onto the core), the numba DPLL (solvers.search) and the refutation-length
and BxB kernels (solvers.length_kernels, tests/solvers/bxb_numba_oracle.py).  Run by
hand, never by a test: the tests compare the core with these files, so they keep
checking once numba is gone.

    git archive f4c1bad | tar -x -C SRC; (cd SRC; python setup.py build_ext --inplace)
    export PYTHONPATH=SRC:tests/solvers:SRC/tests/solvers:tests
    python tests/solvers/make_goldens.py [PART...]

(PART: board, clauses, search, length; all four by default.  SRC/tests/solvers holds
bxb_numba_oracle.py, BxB's numba kernels, which left the project with numba.)

It was run on commit f4c1bad (numba 0.68.1), whose numba kernels it needs (it imports
modules by their names at that commit, before solvers/ was cut into sub-packages); the
public sets (royle17, forum-hardest-1106, mith-te3-1000) came from /work/shared/data.
Each file's header repeats this.  Every value written is first checked against the core
(the same question asked of solvers.core), so a file holds answers both agreed on.
"""

from __future__ import annotations

import json
import sys

import numpy as np
from golden import (
    EASTER_MONSTER,
    GEOMETRIES,
    RULE_GEOMETRIES,
    SETS,
    batch_grids,
    batch_sets,
    closure_sets,
    closure_value,
    digest,
    geometry_key,
    grid_key,
    holed_grids,
    ladder_value,
    large_grids,
    project_set,
    rule_grids,
    write,
)

import solvers.core as core
from encoder.dimacs import Cnf
from encoder.encodings import ENCODINGS, given_literals, rule_formula
from encoder.geometry import standard
from encoder.grids import parse_cells
from encoder.puzzle_files import read_puzzles
from puzzlesets import locate

COMMIT = "f4c1bad"  # the commit SRC holds


def header(what: str) -> str:
    import numba

    return f"""{what}
Made by the numba kernels at commit {COMMIT} (numba {numba.__version__}), from a clean
export of that commit with its extensions built (git archive | tar -x -C SRC; python
setup.py build_ext --inplace), in /work/main:
  PYTHONPATH=SRC:tests/solvers:SRC/tests/solvers:tests python tests/solvers/make_goldens.py
(SRC/tests/solvers for bxb_numba_oracle.py; tests/solvers/make_goldens.py says what it
asks; tests/solvers/golden.py the format: key<TAB>value, literal sets and arrays as
blake2b digests)."""


# --- the board -----------------------------------------------------------------------------


def board() -> None:
    from solvers.board_engine import BoardEngine

    items: dict[str, str] = {}
    numba_boards: dict = {}

    def pair(geometry):
        if geometry not in numba_boards:
            numba_boards[geometry] = (BoardEngine(geometry), core.Board(geometry))
        return numba_boards[geometry]

    def probes(geometry, grids, depths, polarity="both"):
        nb, cb = pair(geometry)
        for grid in grids:
            givens = given_literals(grid, geometry)
            for depth in depths:
                value = closure_value(*nb.probe(givens, depth, polarity))
                assert value == closure_value(*cb.probe(givens, depth, polarity))
                items[f"probe|{grid_key(geometry, grid)}|{depth}|{polarity}"] = value

    def ladder(geometry, grids, max_depth, polarity="both", work=False):
        nb, cb = pair(geometry)
        n = geometry.size
        values = np.asarray(grids, np.int8).reshape(-1, n * n)
        out = nb.ladder(values, n, max_depth, polarity)
        value = ladder_value(out.status, out.depth, out.solutions)
        got = cb.ladder(values, max_depth, polarity)
        assert value == ladder_value(got.status, got.depth, got.solutions)
        items[f"ladder|{geometry_key(geometry)}|{digest(values)}|{max_depth}|{polarity}"] = value
        if work:  # the core's work units (the numba board counted other units)
            spent = [int(cb.ladder(row[None], max_depth, polarity).work[0]) for row in values]
            assert spent == got.work.tolist()
            items[f"work|{geometry_key(geometry)}|{digest(values)}|{max_depth}|{polarity}"] = (
                ",".join(map(str, spent))
            )

    def batch(geometry, grids):
        nb, cb = pair(geometry)
        ok, candidates = nb.propagate_batch(np.asarray(grids, np.int8))
        words = candidates.view(np.uint64)
        single = (words != 0) & ((words & (words - np.uint64(1))) == 0)
        logs = np.log2(np.where(single, words, 1).astype(np.float64))
        values = np.where(single & (ok[:, None] == 1), logs + 1, 0).astype(np.int64)
        got_ok, got = cb.propagate_batch(grids)
        assert ok.tolist() == got_ok.tolist()
        assert np.array_equal(values[ok == 1], got[ok == 1])
        key = f"batch|{geometry_key(geometry)}|{digest(np.asarray(grids))}"
        items[key] = ",".join(map(str, ok.tolist())) + "|" + digest(values)

    for path in SETS:  # the first grids of each set (quick), every grid (slow)
        for geometry, grids in project_set(path, limit=12):
            depths = (0, 1, 2) if geometry.size > 9 else (0, 1, 2, 3)
            probes(geometry, grids, depths)
            probes(geometry, grids[:4], depths[1:], "positive")
            ladder(geometry, grids, max(depths), work=True)
        for geometry, grids in project_set(path):
            ladder(geometry, grids, 3)
            probes(geometry, grids, (0, 1, 2))
        print(path.name, len(items), file=sys.stderr)
    geometry = standard(9)
    public = {"royle17": [], "forum-hardest-1106": [], "mith-te3-1000": []}
    for name in public:
        public[name] = [tuple(p.grid) for p in read_puzzles(str(locate(name)), geometry)]
    for name, every, depths, limit in (
        ("royle17", 997, (0, 1), 50),
        ("forum-hardest-1106", 37, (1, 2), 10),
        ("mith-te3-1000", 211, (2, 3), 5),
    ):
        grids = public[name][::every][:limit]
        probes(geometry, grids, depths)
        ladder(geometry, grids, max(depths))
    for name, every, max_depth in (
        ("royle17", 17, 1),
        ("forum-hardest-1106", 1, 2),
        ("mith-te3-1000", 1, 3),
    ):
        ladder(geometry, public[name][::every], max_depth)
        print(name, len(items), file=sys.stderr)
    for n in (4, 6, 8, 9, 10, 12, 16):
        grids = holed_grids(n)
        depths = (0, 1, 2) if n <= 9 else (0, 1)
        probes(standard(n), grids, depths)
        ladder(standard(n), grids, max(depths), work=True)
    for n in (25, 36, 64):
        probes(standard(n), large_grids(n), (0,))
        batch(standard(n), large_grids(n))
    grids = large_grids(25, (0.8, 0.6))
    probes(standard(25), grids, (0, 1))
    ladder(standard(25), grids, 1)
    batch(standard(9), batch_grids())
    write(
        "board.tsv.gz",
        header(
            "The bit board's answers (solvers.board_engine.BoardEngine, numba): closures\n"
            "(probe|geometry:grid|depth|polarity -> '0' or count:digest of the literals),\n"
            "ladders (ladder|geometry|grids|max_depth|polarity -> statuses|depths|solutions),\n"
            "each grid's work units (work|...: the core's own, made by solvers.core.Board at\n"
            "the same commit, as the numba board counted other units), batches\n"
            "(batch|geometry|grids -> ok|values)."
        ),
        items.items(),
    )


# --- the clause engine ---------------------------------------------------------------------


def clauses() -> None:
    from solvers.engine import Engine

    items: dict[str, str] = {}
    for encoding in ENCODINGS:
        for name in RULE_GEOMETRIES:
            geometry = GEOMETRIES[name]
            n = geometry.size
            formula = rule_formula(geometry, encoding)
            engine = Engine(formula.clauses, formula.num_vars)
            native = core.Clauses(formula.clauses, formula.num_vars)
            grids = rule_grids(name, encoding)
            depths = (0, 1, 2) if n <= 6 or encoding == "centrale" else (0, 1)
            for grid in grids[:3]:
                givens = given_literals(grid, geometry)
                for depth in depths:
                    value = closure_value(*engine.probe(givens, depth))
                    assert value == closure_value(*native.probe(givens, depth))
                    items[f"probe|{encoding}|{grid_key(geometry, grid)}|{depth}|both"] = value
            values = np.asarray(grids, np.int8)
            out = engine.ladder(values, n, max(depths))
            got = native.ladder(values, n, max(depths))
            value = ladder_value(out.status, out.depth, out.solutions)
            assert value == ladder_value(got.status, got.depth, got.solutions)
            key = f"ladder|{encoding}|{geometry_key(geometry)}|{digest(values)}|{max(depths)}"
            items[key] = value
            print(encoding, name, file=sys.stderr)
    for encoding in ("centrale", "minimal", "augmented"):
        formula = rule_formula(standard(9), encoding)
        engine = Engine(formula.clauses, formula.num_vars)
        native = core.Clauses(formula.clauses, formula.num_vars)
        sets = closure_sets(encoding)
        flat, offsets = core.literal_sets(sets)
        for depth in (0, 1, 2):
            out = engine.closures(flat, offsets, depth, 729)
            got = native.closures((flat, offsets), depth, 729)
            value = "|".join(
                (
                    ",".join(map(str, out.status.tolist())),
                    ",".join(map(str, out.assigned.tolist())),
                    digest(out.true),
                )
            )
            assert out.status.tolist() == got.status.tolist()
            assert out.assigned.tolist() == got.assigned.tolist()
            assert np.array_equal(out.true, got.true)
            items[f"closures|{encoding}|{digest(flat, offsets)}|{depth}"] = value
    formula = rule_formula(standard(9), "centrale")
    engine = Engine(formula.clauses, formula.num_vars)
    sets = batch_sets()
    rows = []
    for assumptions in sets:
        ok, lits = engine.propagate(assumptions)
        row = np.zeros(729, np.int8)
        for lit in lits if ok else ():
            row[abs(lit) - 1] = 1 if lit > 0 else -1
        rows.append((ok, row))
    flat, offsets = core.literal_sets(sets)
    ok = [int(r[0]) for r in rows]
    got_ok, got = core.Clauses(formula.clauses, formula.num_vars).propagate_batch(sets)
    assert got_ok.astype(bool).astype(int).tolist() == ok
    values = np.array([r[1] for r in rows])
    assert np.array_equal(got[np.array(ok) == 1], values[np.array(ok) == 1])
    items[f"batch|{digest(flat, offsets)}"] = ",".join(map(str, ok)) + "|" + digest(values)
    for line in (EASTER_MONSTER, EASTER_MONSTER[:-1] + "."):  # the trail, in its order
        givens = given_literals(parse_cells(line, standard(9)), standard(9))
        ok, lits = engine.propagate(givens)
        items[f"trail|{digest(tuple(givens))}"] = f"{int(ok)}|{len(lits)}|{digest(tuple(lits))}"
    write(
        "clauses.tsv.gz",
        header(
            "The clause engine's answers (solvers.engine.Engine on numba): closures of the\n"
            "rules of every encoding and geometry (probe|encoding|geometry:grid|depth|both),\n"
            "ladders (ladder|encoding|geometry|grids|max_depth), batches of closures\n"
            "(closures|encoding|sets|depth -> statuses|assigned|true), a batch of\n"
            "propagations (batch|sets -> ok|values) and trails in order (trail|givens)."
        ),
        items.items(),
    )


# --- the DPLL search -----------------------------------------------------------------------


def numba_solve(clauses, num_vars, lits, probe_depth, limit=None):
    """The numba kernels' answer (solvers/search.py), in native_solve's terms."""
    from solvers.probe import NUM_COLUMNS, mark_rows
    from solvers.proof_log import NO_LOG
    from solvers.propagate import (
        BACKTRACKS,
        CONFLICTS,
        DECISIONS,
        PROBES,
        PROPAGATIONS,
        SPARE_LEVELS,
        load_formula,
        setup_root,
    )
    from solvers.search import count_kernel, solve_kernel

    cnf = Cnf.from_clauses(clauses, num_vars)
    F, S, units, unit_idx, first_empty = load_formula(cnf.literals, cnf.offsets, num_vars, False)
    if first_empty >= 0 or setup_root(F, S, units, unit_idx) != -1:
        return None
    flipped = np.zeros(num_vars + SPARE_LEVELS, np.int8)
    depth = max(probe_depth, 1)
    passed = np.zeros((depth, mark_rows(2 * num_vars), 2 * num_vars), np.int64)
    frames = np.zeros((depth, NUM_COLUMNS), np.int64)
    lits = np.asarray(lits, np.int64)
    if limit is None:
        _, result, model = solve_kernel(
            F, S, flipped, passed, frames, lits, -1, probe_depth, False, NO_LOG, False
        )
        models = model.tolist()
    else:
        _, result, models = count_kernel(F, S, flipped, passed, frames, lits, limit, -1, False)
    counters = S.st[[DECISIONS, BACKTRACKS, CONFLICTS, PROPAGATIONS, PROBES]].tolist()
    return [int(result), models, counters]


def search() -> None:
    from search_cases import lemma_grids, native_solve, random_case, root_cases, sudoku_cases
    from solvers.engine import Engine
    from solvers.proof_log import FIRST, HEAD, new_log
    from solvers.propagate import NO_CONFLICT, load_formula, setup_root, trail_dimacs

    items: dict[str, str] = {}
    for seed in range(30):
        clauses, num_vars, lits = random_case(seed)
        for probe_depth in (0, 1):
            for limit in (None, 1, 4):
                if limit is not None and probe_depth:
                    continue
                numba = numba_solve(clauses, num_vars, lits, probe_depth, limit)
                assert native_solve(clauses, num_vars, lits, probe_depth, limit) == numba
                items[f"solve|{seed}|{probe_depth}|{limit}"] = json.dumps(numba)
    for name, clauses, num_vars, lits, limit in sudoku_cases():
        numba = numba_solve(clauses, num_vars, lits, 0, limit)
        assert native_solve(clauses, num_vars, lits, 0, limit) == numba
        items[f"sudoku|{name}|{limit}"] = json.dumps(numba)
    for name, depth in (("sudoku9_depth1", 1), ("sudoku9_x_depth2", 2)):
        geometry, grids = lemma_grids(name)
        formula = rule_formula(geometry, "centrale")
        cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
        log, starts = new_log(1 << 16), np.zeros(len(grids) + 1, np.int64)
        out = Engine(cnf).ladder(grids, geometry.size, depth, log=log, log_at=starts)
        lemmas = log[FIRST : log[HEAD]]
        items[f"lemmas|{name}|{depth}"] = "|".join(
            (
                ",".join(map(str, out.status.tolist())),
                ",".join(map(str, out.depth.tolist())),
                ",".join(map(str, starts.tolist())),
                str(int(log[HEAD])),
                digest(lemmas),
            )
        )
    for key, clauses, num_vars in root_cases():
        cnf = Cnf.from_clauses(clauses, num_vars)
        F, S, units, unit_idx, first_empty = load_formula(
            cnf.literals, cnf.offsets, num_vars, False
        )
        ok = first_empty < 0 and setup_root(F, S, units, unit_idx) == NO_CONFLICT
        fixed = trail_dimacs(S, 0).tolist() if ok else []
        items[f"root|{key}"] = json.dumps([ok, fixed])
    write(
        "search.tsv.gz",
        header(
            "The numba DPLL's answers (solvers.search: solve_kernel, count_kernel) on random\n"
            "CNFs and Sudoku: solve|seed|probe_depth|limit and sudoku|grid|limit -> [result\n"
            "(-7 found, -8 exhausted), model or count, [decisions, backtracks, conflicts,\n"
            "propagations, probes]]; the ladders' proof lemmas (lemmas|set|depth ->\n"
            "statuses|depths|log starts|log head|lemmas); root levels (root|seed.i -> [ok,\n"
            "the root trail in order]).  search_cases.py makes the formulas."
        ),
        items.items(),
    )


# --- the refutation-length and BxB kernels --------------------------------------------------


class Ported:
    """The numba kernels (solvers.length_kernels, and BxB's in bxb_numba_oracle.py) with
    length_cases.Core's methods."""

    def __init__(self, F, num_vars: int, num_constraints: int):
        import bxb_numba_oracle as B

        from solvers import length_kernels as N

        self.N, self.B, self.F, self.occ = N, B, F, N.occurrences(F)
        self.num_vars, self.num_constraints = num_vars, num_constraints
        self.units = None

    def new_state(self, track):
        return self.N.new_state(self.F, self.num_vars, track)

    def new_scratch(self):
        return self.N.new_scratch(self.F, self.num_vars)

    def new_alternatives(self):
        return self.N.new_alternatives(self.F, self.num_vars)

    def restart(self, S, grid):
        return self.N.restart(self.F, self.occ, S, self.units, grid)

    def assert_facts(self, S, lits, rows, why):
        return self.N.assert_facts(self.F, self.occ, S, lits, rows, why)

    def shortest_refutation(self, S, X, z, limit):
        return self.N.shortest_refutation(self.F, self.occ, S, X, z, limit)

    def refutation_with_alternatives(self, S, X, A, z, limit):
        return self.N.refutation_with_alternatives(self.F, self.occ, S, X, A, z, limit)

    def refutation_chain(self, S, cone, z, forced, emptied):
        return tuple(self.N.refutation_chain(self.F, S, cone, z, forced, emptied))

    def candidate_lengths(self, S, X, n, limit, out):
        return self.N.candidate_lengths(self.F, self.occ, S, X, n, limit, out)

    def shorter_lengths(self, S, X, A, n, limit, out):
        return self.N.shorter_lengths(self.F, self.occ, S, X, A, n, limit, out)

    def simplest_first(self, S, X, A, n, limit, out, log, budget):
        return tuple(self.N.simplest_first(self.F, self.occ, S, X, A, n, limit, out, log, budget))

    def solved(self, S, n):
        return self.N.solved(S, n)

    def failed_closure(self, S, X, n):
        return self.N.failed_closure(self.F, self.occ, S, X, n)

    def eliminate(self, S, lit):
        return self.N.eliminate(self.F, self.occ, S, lit)

    def trial_and_error(self, T, U, X, n, limit, left, true, memo, work):
        return tuple(self.B.trial_and_error(self.F, self.occ, T, U, X, n, limit, left, true,
                                            memo, work))  # fmt: skip

    def try_hypothesis(self, T, U, X, n, v, limit, left, memo, work):
        nlits = 2 * self.num_vars
        codes, cones = np.zeros(nlits, np.int32), np.zeros(nlits, np.int32)
        return tuple(self.B._try_hypothesis(self.F, self.occ, T, U, X, n, v, limit, left, memo,
                                            codes, cones, work))  # fmt: skip


def length() -> None:
    from length_cases import PAIRS, SEEDS, Core, formula_arrays, grid_codes, run_case
    from solvers.propagate import build

    items: dict[str, str] = {}
    for name in PAIRS:
        flat, offsets, num_vars = formula_arrays(PAIRS[name][0])
        F, _, units, _, _ = build(flat, offsets, num_vars, False)
        core_k = Core(F, units, num_vars)
        ported = Ported(F, num_vars, core_k.num_constraints)
        ported.units = units
        grids = grid_codes(name)
        for seed in SEEDS:
            answers = run_case(ported, grids, name, seed)
            assert answers == run_case(core_k, grids, name, seed), (name, seed)
            items.update(answers)
        print(name, len(items), file=sys.stderr)
    write(
        "length.tsv.gz",
        header(
            "The refutation-length kernels' answers (solvers.length_kernels, numba) and\n"
            "BxB's (tests/solvers/bxb_numba_oracle.py), kernel by kernel, on the seeded\n"
            "random states of tests/solvers/length_cases.py (name|seed|question -> what\n"
            "the kernel returned, and digests of the arrays it left)."
        ),
        items.items(),
    )


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["board", "clauses", "search", "length"]
    parts = {"board": board, "clauses": clauses, "search": search, "length": length}
    for part in wanted:
        parts[part]()
