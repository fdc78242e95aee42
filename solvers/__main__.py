"""Command line: `python -m solvers rate|explain|solve|check`.

- `rate GRIDS`: one tab-separated line per grid: index, grid, depth needed, refutation
  length (`solvers.ratings.length`), seconds.
  With `--solver NAME` (any registry name) or `--solver-cmd CMD`: index, grid, status,
  whether unit propagation of the givens alone fills the grid (yes/no/n/a: the
  "without search" test of the harness for solvers that branch), decisions,
  conflicts, seconds.
  `--workers K` or `--executor dask [--scheduler ADDRESS]` rate chunks of grids in
  other processes or on a Dask cluster (`solvers.ratings.chunks`); same lines, same order.
- `explain GRID`: the reasoning step by step, in Sudoku words; `--html PAGE` also
  writes it as a page of pictures (`solvers.explain.page`).
- `solve FILE.cnf --solver NAME`: SAT-competition output, exit 10/20/0.
- `check CNF PROOF`: verify a DRUP proof without the engine (`solvers.proofs.check`):
  `s VERIFIED` and exit 0, or the first lemma that fails with its line and exit 1.
`--proof` (rate, explain, solve) writes the answer's proof (`solvers.proofs.write`).
Work budgets bound each grid by default (`--budget KIND=N`, rate and explain; see
`solvers.budgets`): the same labels on every machine.  `--timeout S` is an opt-in
wall-clock limit per grid (rate, solve) or for the whole explanation (explain).
Only argument parsing, I/O and exit codes live here: 1 for bad input (one line
`solvers: FILE:LINE: problem`) and for a solver that failed (crashed, printed no
answer, gave a wrong model: after the output, one line saying so), 2 for usage
errors, 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict

from cli.flags import (
    MAX_DEPTH,
    MAX_WORKERS,
    add_budget_flag,
    add_executor_flags,
    command_line,
    positive,
    settle_executor_flags,
)
from encoder.cli_common import (
    Parser,
    add_geometry_flags,
    one_puzzle,
    run_front_end,
    variant_of,
    write_output,
)
from encoder.errors import DimacsError, InputError
from encoder.grid_arrays import grid_array
from encoder.output_files import OutputError, reason
from encoder.puzzle_files import Puzzle, open_source
from executors import ExecutorError
from solvers.budgets import DEFAULT_BUDGET, BudgetExhausted, budget_from
from solvers.limits import TimeLimitReached, alarm_after, machine_dependence
from solvers.proofs.beside import FORMATS

PROG = "solvers"


def rate_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("rate", help="depth of reasoning each grid needs, or a solver's work")
    p.add_argument("grids", metavar="GRIDS", help="a grid, a file of grids, or '-'")
    p.add_argument(
        "--max-depth",
        type=positive(int, zero=True, most=MAX_DEPTH),
        metavar="D",
        help="depth rating: deepest nesting tried (default 2); deeper grids print >D",
    )
    p.add_argument(
        "--length-depth",
        type=positive(int, zero=True, most=MAX_DEPTH),
        metavar="D",
        help="refutation-length rating: deepest nesting tried (default 1; a depth-2 step "
        "takes seconds); grids beyond it print >D in the length column",
    )
    p.add_argument(
        "--no-length",
        action="store_true",
        help="skip the refutation-length rating (its column prints '-'): the depth alone "
        "is tens of times faster",
    )
    p.add_argument(
        "--encoding", default="centrale", choices=("centrale", "minimal", "natural", "augmented")
    )
    p.add_argument(
        "--polarity",
        choices=("both", "positive"),
        help="depth rating: hypotheses tried, cell=value and cell≠value (both) or cell=value only",
    )
    add_solver_flags(
        p,
        default=None,
        what="instead of the depth rating, run this solver on each grid and print its "
        "status, whether unit propagation of the givens solved it (no search), its "
        "decisions and conflicts",
        timeout=None,
    )
    add_budget_flag(p, asdict(DEFAULT_BUDGET))
    p.add_argument(
        "--fresh",
        action="store_true",
        help="PySAT solvers: build a new solver per grid (timing covers loading the rules) "
        "instead of one incremental solver with the givens as assumptions",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--proof",
        metavar="PATH",
        help="write the depth rating's proof (the closures' failed literals, then the "
        "empty clause) and the CNF it refutes (the grid's formula, and the clause that "
        "excludes the solution found): PATH and PATH.cnf for one grid, PATH/N.drup (or "
        ".lrat) and PATH/N.cnf for grid N when PATH is a folder; several grids into a "
        "file: DRUP sections against the grid's formula (`check --grid N`)",
    )
    p.add_argument(
        "--proof-format",
        choices=FORMATS,
        default="drup",
        help="drup (default), or lrat: each lemma with the ids of the clauses that "
        "propagate it, lemmas deleted after their last use",
    )
    add_geometry_flags(p)
    group = p.add_argument_group("execution")
    group.add_argument(
        "--workers",
        type=positive(int, most=MAX_WORKERS),
        metavar="K",
        help="processes rating chunks of grids (default 1: this process; with --executor "
        "dask and no --scheduler: all cores)",
    )
    add_executor_flags(group)
    group.add_argument(
        "--chunk-size",
        type=positive(int),
        default=500,
        metavar="N",
        help="grids per chunk with --workers K > 1 or --executor dask (default 500); "
        "an incremental PySAT solver's decisions depend on it",
    )
    return p


def add_solver_flags(
    p: argparse.ArgumentParser, default: str | None, what: str, timeout: float | None
) -> None:
    """Declare --solver and --solver-cmd (one or the other) and --timeout (`timeout`: its
    default, None for no limit)."""
    from solvers.backends.names import BINARY_NAMES, HOME_DEPTHS, PYSAT_NAMES, SOLVER_NAMES

    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--solver",
        default=default,
        choices=SOLVER_NAMES,
        metavar="NAME",
        help=f"{what}: up = unit propagation, fl/fl2/fl3 = failed literals at depth 1/2/3, "
        f"dpll = complete search{' (default)' if default == 'dpll' else ''} "
        f"({'/'.join(HOME_DEPTHS)}: home-grown); PySAT: {', '.join(PYSAT_NAMES)}; "
        f"binaries: {', '.join(BINARY_NAMES)}",
    )
    which.add_argument(
        "--solver-cmd",
        type=command_line,
        metavar="CMD",
        help="run this DIMACS solver command instead ({cnf} = input file, appended when "
        "absent; {out} = result file it writes); its output is parsed",
    )
    p.add_argument(
        "--timeout",
        type=positive(float),
        default=timeout,
        metavar="S",
        help="wall-clock limit per grid, for every solver (the depth rating too): the grid "
        "is then UNKNOWN (timeout@d for a depth) and the run goes on; the answers then "
        "depend on the machine's speed and load "
        f"({'default: none' if timeout is None else f'default {timeout:g} s'}; "
        "PySAT's CaDiCaL cannot be stopped)",
    )


def explain_parser(sub) -> None:
    p = sub.add_parser("explain", help="the reasoning step by step")
    p.add_argument("grid", metavar="GRID")
    p.add_argument("--index", type=int, metavar="N", help="puzzle N (0-based) of a file")
    p.add_argument(
        "--max-depth", type=positive(int, zero=True, most=MAX_DEPTH), default=2, metavar="D"
    )
    p.add_argument(
        "--timeout",
        type=positive(float),
        metavar="S",
        help="stop the explanation after S seconds, the steps found so far kept (printed, "
        "and on the --html page); one line on stderr says so (default: no limit)",
    )
    add_budget_flag(p, asdict(DEFAULT_BUDGET))
    p.add_argument(
        "--html",
        metavar="PAGE",
        help="also write the explanation as one self-contained HTML page: the grid before "
        "and after each step, with a control to move through the steps",
    )
    p.add_argument(
        "--zero-based",
        action="store_true",
        help="number rows, columns and regions from 0 (r0c0) instead of players' r1c1",
    )
    p.add_argument(
        "--proof",
        metavar="PROOF",
        help="also write the explanation as a DRUP proof, lemma by lemma in its order "
        "(checked by `python -m solvers check CNF PROOF`)",
    )
    add_geometry_flags(p)


def solve_parser(sub) -> None:
    p = sub.add_parser("solve", help="solve a DIMACS CNF file")
    p.add_argument("cnf", metavar="FILE.cnf", help="DIMACS CNF, or '-' for stdin")
    add_solver_flags(p, default="dpll", what="the solver", timeout=None)
    add_budget_flag(p, asdict(DEFAULT_BUDGET))
    p.add_argument(
        "--proof",
        metavar="PROOF",
        help="for an UNSAT answer, write a DRUP proof (home engines, PySAT's cadical195, "
        "glucose3, glucose4, the cadical binary: the solver is asked again with proof "
        "logging on)",
    )
    p.add_argument(
        "--proof-format",
        choices=FORMATS,
        default="drup",
        help="the proof's format: DRUP as the solver writes it, or LRAT (its lemmas with "
        "their hints against FILE's clauses, in the file's order)",
    )


def check_parser(sub) -> None:
    p = sub.add_parser("check", help="verify a DRUP or LRAT proof without the engine")
    p.add_argument("cnf", metavar="CNF", help="the formula (DIMACS CNF), or '-' for stdin")
    p.add_argument("proof", metavar="PROOF", help="the proof (text), or '-' for stdin")
    p.add_argument(
        "--proof-format",
        choices=FORMATS,
        help="drup (reverse unit propagation at each lemma) or lrat (the hints, in linear "
        "time); default: lrat for a PROOF ending in .lrat, else drup",
    )
    p.add_argument(
        "--grid",
        type=positive(int, zero=True),
        metavar="N",
        help="check the proof of grid N in a file of `rate --proof` proofs of many grids",
    )


# The rating options' defaults, filled in once the parser has checked that the options
# given do not contradict each other (a default cannot contradict anything).
RATE_DEFAULTS = {"max_depth": 2, "polarity": "both", "length_depth": 1}


def settle_rate_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse options that contradict each other (a usage error, exit 2): a solver's lines
    have no depth or length rating (nor its proof), --no-length no length depth, --fresh
    needs a PySAT solver; then fill in the defaults."""
    solver = "--solver" if args.solver else "--solver-cmd" if args.solver_cmd else None
    rating = {"max_depth": "--max-depth", "polarity": "--polarity"}
    rating |= {"length_depth": "--length-depth", "proof": "--proof"}
    for name, flag in rating.items():
        if solver and getattr(args, name) is not None:
            parser.error(f"{flag} is an option of the depth rating, which {solver} replaces")
    if solver and args.no_length:
        parser.error(f"--no-length: {solver} prints no refutation length to skip")
    if args.no_length and args.length_depth is not None:
        parser.error("--length-depth sets the refutation-length rating, which --no-length skips")
    if args.fresh and not solver:
        parser.error("--fresh builds a new PySAT solver per grid: it needs --solver")
    for name, default in RATE_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)


def run_rate(args: argparse.Namespace) -> int:
    from solvers.ratings.chunks import RateOptions, SettledLines, rate_array, rate_lines

    # The plain case, a file of clean grid lines rated by the depth and the length column
    # on one worker (proofs too), is read whole and rated in a few compiled calls
    # (`grid_array`); the rest is read as rated, so that memory stays flat however long
    # the file.  Either way the grids are read before anything else happens, so that a
    # bad file fails at once.
    source = open_source(args.grids, variant_of(args))
    plain = not (args.solver or args.solver_cmd) and args.timeout is None
    plain = plain and args.executor == "local" and args.workers <= 1
    grids = grid_array(source) if plain else None
    if grids is None:
        puzzles = source.puzzles(allow_conflicts=True)
        first = next(puzzles)
        puzzles = itertools.chain([first], puzzles)
    options = RateOptions(
        args.encoding,
        args.polarity,
        args.max_depth,
        args.solver,
        args.solver_cmd,
        args.fresh,
        args.timeout,
        budget_from(args.budget),
        None if args.no_length else args.length_depth,
        args.proof is not None,
    )
    proofs = None
    if args.proof is not None:
        proofs = ProofFiles(args.proof, args.proof_format, args.encoding)
    if args.timeout is not None:  # before the first line: what the lines then depend on
        print(f"{PROG}: {machine_dependence(args.timeout)}", file=sys.stderr)
    show_bar = not args.quiet and sys.stderr.isatty()
    if show_bar:  # tqdm (and the email package it loads) only for a bar on a terminal
        from tqdm import tqdm

        bar = tqdm(unit="grid", file=sys.stderr)
    else:
        bar = NoBar()
    if grids is not None:
        lines = rate_array(grids, options)
    elif args.executor == "local" and args.workers <= 1:
        lines = rate_lines(puzzles, options)
    else:
        lines = _rate_chunks(puzzles, options, args)
    flush = sys.stdout.isatty()
    timed_out = over_budget = failed = rated = 0
    with bar:
        try:
            for rated_line in lines:
                if isinstance(rated_line, SettledLines):  # grids read whole: no note
                    for proven in rated_line.proofs if proofs is not None else ():
                        proofs.write(proven)
                    sys.stdout.write(rated_line.text)
                    if flush:
                        sys.stdout.flush()
                    rated += rated_line.count
                    bar.update(rated_line.count)
                    continue
                if proofs is not None:
                    proofs.write(rated_line)
                print(rated_line.line, flush=flush)
                if rated_line.note:
                    print(f"{PROG}: {rated_line.note}", file=sys.stderr)
                timed_out += rated_line.timed_out
                over_budget += rated_line.over_budget
                failed += rated_line.failed
                rated += 1
                bar.update()
        finally:
            lines.close()  # Ctrl-C: stop the executor, close the solvers
            if proofs is not None:
                proofs.close()
    if over_budget:
        print(f"{PROG}: {over_budget} of {rated} grids reached their work budget", file=sys.stderr)
    if timed_out:
        print(f"{PROG}: {timed_out} of {rated} grids reached the time limit", file=sys.stderr)
    if proofs is not None and proofs.unsettled:
        print(
            f"{PROG}: no proof written for {proofs.unsettled} of {rated} grids: their rating "
            "settled nothing (no depth up to --max-depth filled them, or the time limit)",
            file=sys.stderr,
        )
    if failed:
        print(f"{PROG}: the solver failed on {failed} of {rated} grids", file=sys.stderr)
        return 1
    return 0


class NoBar(contextlib.nullcontext):
    """The progress bar when none is shown."""

    def update(self, count: int = 1) -> None:
        pass


class ProofFiles:
    """Where `rate --proof PATH` writes (solvers.proofs.beside):
    - PATH a folder: PATH/N.cnf and PATH/N.drup (or .lrat) for grid N, each proof a
      refutation of the CNF beside it;
    - PATH a file and one grid: PATH and PATH.cnf, the same pair;
    - PATH a file and several grids (DRUP only): each grid's proof after a line `c proof
      of grid N` (`solvers check --grid N`), against `python -m encoder GRID`'s formula
      as it is (no CNF beside: 49,158 of them would take 7 GB); the first proof is held
      until a second one says which of the two it is."""

    def __init__(self, path: str, proof_format: str, encoding: str):
        from encoder.output_files import check_file, check_folder
        from solvers.proofs.check import PROOF_SECTION

        self.section = PROOF_SECTION
        self.path, self.format, self.encoding = path, proof_format, encoding
        self.folder = os.path.isdir(path)
        (check_folder if self.folder else check_file)(path)
        self.handle = None
        self.held = None  # a file's first proof, until the second one or the end
        self.written = self.unsettled = 0

    def _open(self):
        try:
            self.handle = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 (closed by `close`)
        except OSError as error:
            raise OutputError(f"cannot write: {reason(error)}", self.path) from None

    def write(self, rated) -> None:
        if not rated.proof:  # open, or stopped by the time limit: nothing to prove
            self.unsettled += 1
            return
        if self.folder:  # two small files a grid, written plainly (no temporary file)
            stem = os.path.join(self.path, str(rated.index))
            self._pair(rated, f"{stem}.{self.format}", f"{stem}.cnf")
        elif self.held is None and self.handle is None:
            self.held = rated
            return
        else:
            if self.format != "drup":
                raise OutputError(
                    "--proof names a file, which takes one grid's LRAT proof: give a "
                    "folder for the proofs of many grids",
                    self.path,
                )
            if self.handle is None:
                self._open()
                self._section(self.held)
                self.held = None
            self._section(rated)
        self.written += 1

    def _section(self, rated) -> None:
        self._put(self.handle, self.path, f"{self.section}{rated.index}\n{rated.proof}")

    def _pair(self, rated, proof_path: str, cnf_path: str) -> None:
        from solvers.proofs.beside import formula_beside, formula_cnf, refutation

        grid, geometry, solution = rated.refutes
        formula = formula_beside(grid, geometry, self.encoding, solution)
        cnf = (
            formula_cnf(grid, geometry, self.encoding, solution) if self.format == "lrat" else None
        )
        text = refutation(rated.proof, cnf, self.format, solution is not None)
        for target, content in ((cnf_path, formula), (proof_path, text)):
            self._put(None, target, content)

    @staticmethod
    def _put(handle, target: str, text: str) -> None:
        try:
            if handle is not None:
                handle.write(text)
            else:
                with open(target, "w", encoding="utf-8") as out:
                    out.write(text)
        except OSError as error:
            raise OutputError(f"cannot write: {reason(error)}", target) from None

    def close(self) -> None:
        if self.held is not None:  # one grid: the proof and its CNF
            held, self.held = self.held, None
            self._pair(held, self.path, f"{self.path}.cnf")
            self.written += 1
        if self.handle is not None:
            self.handle.close()


def _rate_chunks(puzzles: Iterable[Puzzle], options, args: argparse.Namespace):
    """Yield the lines of every grid in input order, rated in chunks by an executor; on
    this machine the chunks are cut as the executor asks for them, so the file is never
    held whole."""
    from executors import in_order, make_executor
    from solvers.ratings.chunks import RateChunk, UntilFault, rate_chunk

    reading = UntilFault(puzzles)

    def chunks():
        first = 0
        while part := tuple(itertools.islice(reading, args.chunk_size)):
            yield RateChunk(first, part, options)
            first += len(part)

    executor = make_executor(args.executor, max(1, args.workers), args.scheduler)
    # Every executor takes the chunks as it has room for them (a local pool as its
    # workers free up, a Dask cluster a window at a time): a list of every chunk held a
    # million grids in this process (1.1 GB).
    yield from in_order(executor, rate_chunk, chunks())
    reading.raise_fault()  # once every grid before the bad line is printed


_YES_NO = {True: "yes", False: "no"}


def run_explain(args: argparse.Namespace) -> int:
    from solvers.explain.steps import Explainer, grid_step

    puzzle = one_puzzle(args.grid, args, args.index, allow_conflicts=True)
    if args.html is not None:  # learn now, not after the explanation, that it cannot be kept
        from encoder.output_files import check_file

        check_file(args.html)
    if args.proof is not None:
        from encoder.output_files import check_file

        check_file(args.proof)
    if args.timeout is not None:
        print(f"{PROG}: {machine_dependence(args.timeout, 'in all')}", file=sys.stderr)
    steps = []
    explainer = None
    try:
        with alarm_after(args.timeout):  # the whole explanation, its set-up included
            explainer = Explainer(puzzle.geometry, args.zero_based, budget_from(args.budget))
            for step in explainer.steps(puzzle.grid, args.max_depth):
                steps.append(step)
                for line in step.lines:
                    print(line)
    except (TimeLimitReached, BudgetExhausted) as stop:  # the steps so far stand
        print(f"{PROG}: {puzzle.source}: {stop} after {len(steps)} steps", file=sys.stderr)
        if not steps:  # stopped in the set-up: the grid at least, as the first step says it
            steps.append(grid_step(puzzle.grid, puzzle.geometry))
            print("\n".join(steps[0].lines))
    if args.proof is not None and explainer is not None and steps:  # a proof of the steps
        from solvers.proofs.write import explanation_proof

        write_output(explanation_proof(explainer, puzzle.grid, steps), args.proof)
    if args.html is not None:
        from solvers.explain.page import explain_page, uniqueness_line

        named = not puzzle.source.startswith("<")  # a file's line, not <argument> or <stdin>
        title = f"Explanation of {puzzle.source}" if named else ""
        line = uniqueness_line(puzzle.grid, puzzle.geometry)
        page = explain_page(puzzle.grid, puzzle.geometry, steps, title, line)
        write_output(page, args.html)
    return 0


def run_solve(args: argparse.Namespace) -> int:
    from encoder.dimacs import read_cnf, renamed
    from solvers.backends.registry import make_backend
    from solvers.results import Status

    name = args.solver if args.solver_cmd is None else "command"
    if args.proof is not None:
        from encoder.output_files import check_file
        from solvers.proofs.write import proof_refusal

        refusal = proof_refusal(name)
        if refusal:
            raise InputError(f"--proof: {name} cannot prove its answers: {refusal}", args.cnf)
        check_file(args.proof)
    cnf = read_cnf(args.cnf)
    # A header promising far more variables than the clauses use (encoder.dimacs): the
    # solver gets the used ones, renumbered, and the model lists them.
    formula, names = cnf.compact() if cnf.sparse else (cnf, None)
    # fresh: one call, so the solver is built inside it (its time includes loading the
    # formula) and deleted before anything else is built: the least memory for big files
    backend = make_backend(
        name,
        fresh=True,
        timeout=args.timeout,
        command=args.solver_cmd,
        budget=budget_from(args.budget),
    )
    try:
        # cell_vars: the closures (up, fl) must assign every variable up to the highest
        # one a clause uses; those above it are free.
        with backend.load(formula, formula.num_vars, formula.highest):
            result = backend.solve()
    except MemoryError:
        where = "<stdin>" if args.cnf == "-" else args.cnf
        raise DimacsError(f"not enough memory for {formula.num_vars} variables", where) from None
    if names is not None:
        print(
            f"c the header declares {cnf.num_vars} variables, the clauses use "
            f"{formula.num_vars}: the model lists those, the others may take any value"
        )
    print(f"c sudoku-sat solver {result.solver}: {result.seconds:.6f} s")
    without = _YES_NO.get(result.solved_without_search, result.solved_without_search)
    print(f"c unit propagation alone fills the grid: {without}")
    for key in ("decisions", "conflicts", "propagations"):
        print(f"c {key}: {getattr(result, key)}")
    if result.reason:
        print(f"c reason: {result.reason}")
    words = {Status.SAT: "SATISFIABLE", Status.UNSAT: "UNSATISFIABLE", Status.UNKNOWN: "UNKNOWN"}
    print(f"s {words[result.status]}")
    if result.status is Status.SAT:
        print(model_lines(result.model if names is None else renamed(result.model, names)), end="")
    if args.proof is not None:
        print(f"c proof: {_write_proof(args, name, formula, names, result.status)}")
    if result.failed:  # UNKNOWN because the solver broke: an error, not an answer
        where = "<stdin>" if args.cnf == "-" else args.cnf
        print(f"{PROG}: {where}: {result.solver} failed: {result.reason}", file=sys.stderr)
        return 1
    return result.status.value


def _write_proof(args: argparse.Namespace, name: str, formula, names, status) -> str:
    """Write the proof of an UNSAT answer to args.proof; return what was done."""
    from solvers.proofs.write import renamed_proof, solver_proof
    from solvers.results import Status

    if status is not Status.UNSAT:
        return f"none written: the answer is {status.name}, and only UNSAT answers have one"
    path = None if names is not None else args.cnf
    text = solver_proof(name, formula, path, args.timeout)
    if text is None:
        return f"none written: {name}, asked again with proof logging, gave no refutation"
    if args.proof_format == "lrat":
        from solvers.proofs.lrat import lrat_of_drup, renamed_lrat

        try:  # the hints number the clauses in the file's order, which compact() keeps
            text = lrat_of_drup(formula, text)
        except ValueError as error:
            return f"none written: {name}'s DRUP proof cannot be put in LRAT ({error})"
        if names is not None:
            text = renamed_lrat(text, names)
    elif names is not None:  # every solver, the binary too, proved the renumbered formula
        text = renamed_proof(text, names)
    write_output(text, args.proof)
    return f"written to {args.proof} (check it: python -m solvers check {args.cnf} {args.proof})"


def run_check(args: argparse.Namespace) -> int:
    from encoder.dimacs import read_cnf
    from solvers.proofs.check import ProofRefused, check_proof, read_proof

    if args.cnf == "-" and args.proof == "-":
        raise InputError("the formula and the proof cannot both come from stdin")
    proof_format = args.proof_format or ("lrat" if args.proof.endswith(".lrat") else "drup")
    if proof_format == "lrat" and args.grid is not None:
        raise InputError("--grid reads the DRUP sections of a file: an LRAT proof is one grid's")
    cnf = read_cnf(args.cnf)
    where = "<stdin>" if args.proof == "-" else args.proof
    try:
        if proof_format == "lrat":
            from solvers.proofs.check_lrat import check_lrat

            verdict = check_lrat(cnf, args.proof)
        else:
            verdict = check_proof(cnf, read_proof(args.proof, args.grid, cnf.num_vars), where)
    except ProofRefused as refused:
        print("s NOT VERIFIED")
        print(f"{PROG}: {refused}", file=sys.stderr)
        return 1
    except MemoryError:  # a lemma as wide as the header allows, in the checker's solver
        message = f"not enough memory to check this proof (a formula of {cnf.num_vars:,} variables)"
        raise InputError(message, where) from None
    how = "their hints" if proof_format == "lrat" else "reverse unit propagation"
    deleted = "deletions" if proof_format == "lrat" else "deletions ignored"
    print(
        f"c {verdict.lemmas} lemmas checked by {how} ({verdict.deletions} {deleted}), the "
        f"widest of {verdict.widest} literals, in {verdict.seconds:.3f} s"
    )
    if verdict.claim == "unsatisfiable":
        print("c the proof ends with the empty clause: the formula has no model")
    else:
        print(
            "c the units of the formula and of the proof, closed under unit propagation, "
            "are a model: the formula has exactly this one"
        )
    print("s VERIFIED")
    return 0


def model_lines(model: Sequence[int], width: int = 78) -> str:
    """Return `v ... 0` lines of at most `width` characters."""
    lines, current = [], "v"
    for token in [*map(str, model), "0"]:
        if len(current) + 1 + len(token) > width:
            lines.append(current)
            current = "v"
        current += " " + token
    lines.append(current)
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog=f"python -m {PROG}", description="The home-grown SAT engine on Sudoku grids."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rate = rate_parser(sub)
    explain_parser(sub)
    solve_parser(sub)
    check_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "rate":
        settle_executor_flags(rate, args)
        settle_rate_flags(rate, args)
    commands = {"rate": run_rate, "explain": run_explain, "solve": run_solve, "check": run_check}
    return run_front_end(PROG, lambda: commands[args.command](args), (ExecutorError,))


if __name__ == "__main__":
    raise SystemExit(main())
