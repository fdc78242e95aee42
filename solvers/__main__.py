"""Command line: `python -m solvers rate|explain|solve`.

- `rate GRIDS`: one tab-separated line per grid: index, grid, depth needed, seconds.
  With `--solver NAME` (any registry name) or `--solver-cmd CMD`: index, grid, status,
  solved without search (yes/no/not available), decisions, conflicts, seconds.
- `explain GRID`: the reasoning step by step, in Sudoku words.
- `solve FILE.cnf --solver NAME`: SAT-competition output, exit 10/20/0.
Only argument parsing, I/O and exit codes live here: 1 for bad input (one line
`solvers: FILE:LINE: problem`), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from encoder.cli_common import Puzzle, add_geometry_flags, load_one_puzzle, load_puzzles
from encoder.dimacs import read_cnf
from encoder.errors import DimacsError, InputError
from encoder.grids import describe_clash, find_clashes, format_line

PROG = "solvers"


def rate_parser(sub) -> None:
    p = sub.add_parser("rate", help="depth of reasoning each grid needs, or a solver's work")
    p.add_argument("grids", metavar="GRIDS", help="a grid, a file of grids, or '-'")
    p.add_argument(
        "--max-depth",
        type=int,
        default=2,
        metavar="D",
        help="depth rating: deepest nesting tried (default 2); deeper grids print >D",
    )
    p.add_argument(
        "--encoding", default="centrale", choices=("centrale", "minimal", "natural", "augmented")
    )
    p.add_argument(
        "--polarity",
        choices=("both", "positive"),
        default="both",
        help="depth rating: hypotheses tried, cell=value and cell≠value (both) or cell=value only",
    )
    add_solver_flags(
        p,
        default=None,
        what="instead of the depth rating, run this solver on each grid and print its "
        "status, whether unit propagation of the givens solved it (no search), its "
        "decisions and conflicts",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="PySAT solvers: build a new solver per grid (timing covers loading the rules) "
        "instead of one incremental solver with the givens as assumptions",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_geometry_flags(p)


def add_solver_flags(p: argparse.ArgumentParser, default: str | None, what: str) -> None:
    from solvers.backends import BINARY_NAMES, HOME_DEPTHS, PYSAT_NAMES, REGISTRY

    p.add_argument(
        "--solver",
        default=default,
        choices=list(REGISTRY),
        metavar="NAME",
        help=f"{what}: up = unit propagation, fl/fl2/fl3 = failed literals at depth 1/2/3, "
        f"dpll = complete search{' (default)' if default == 'dpll' else ''} "
        f"({'/'.join(HOME_DEPTHS)}: home-grown); PySAT: {', '.join(PYSAT_NAMES)}; "
        f"binaries: {', '.join(BINARY_NAMES)}",
    )
    p.add_argument(
        "--solver-cmd",
        metavar="CMD",
        help="run this DIMACS solver command instead ({cnf} = input file, appended when "
        "absent; {out} = result file it writes); its output is parsed",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="time limit per call for external binaries (default 60 s)",
    )


def explain_parser(sub) -> None:
    p = sub.add_parser("explain", help="the reasoning step by step")
    p.add_argument("grid", metavar="GRID")
    p.add_argument("--index", type=int, metavar="N", help="puzzle N (0-based) of a file")
    p.add_argument("--max-depth", type=int, default=2, metavar="D")
    add_geometry_flags(p)


def solve_parser(sub) -> None:
    p = sub.add_parser("solve", help="solve a DIMACS CNF file")
    p.add_argument("cnf", metavar="FILE.cnf", help="DIMACS CNF, or '-' for stdin")
    add_solver_flags(p, default="dpll", what="the solver")


def run_rate(args: argparse.Namespace) -> int:
    puzzles = load_puzzles(args.grids, args, allow_conflicts=True)
    show_bar = not args.quiet and sys.stderr.isatty() and len(puzzles) > 1
    from tqdm import tqdm

    bar = tqdm(puzzles, disable=not show_bar, unit="grid", file=sys.stderr)
    if args.solver is None and args.solver_cmd is None:
        return _rate_depth(bar, args, flush=len(puzzles) < 1000)
    return _rate_solver(bar, args, flush=len(puzzles) < 1000)


def _rate_depth(puzzles, args: argparse.Namespace, flush: bool) -> int:
    from solvers.rating import Rater  # numba start-up only when needed

    raters: dict = {}
    for index, puzzle in enumerate(puzzles):
        key = puzzle.geometry
        if key not in raters:
            raters[key] = Rater(puzzle.geometry, args.encoding, args.polarity)
        rating = raters[key].rate(puzzle.grid, args.max_depth)
        print(
            f"{index}\t{format_line(puzzle.grid, puzzle.geometry)}\t{rating.depth_label()}\t"
            f"{rating.seconds:.6f}",
            flush=flush,
        )
        if rating.status == "unsat":
            print(f"{PROG}: {puzzle.source}: no solution: {_why_unsat(puzzle)}", file=sys.stderr)
    return 0


_YES_NO = {True: "yes", False: "no"}
_MAX_LOADED = 4  # backends kept loaded (one per geometry; jigsaw files have many)


def _rate_solver(puzzles, args: argparse.Namespace, flush: bool) -> int:
    from encoder.encodings import given_literals, rule_formula
    from solvers.backends import HOME_DEPTHS, make_backend
    from solvers.results import Status

    name = args.solver if args.solver_cmd is None else "command"
    loaded: dict = {}
    try:
        for index, puzzle in enumerate(puzzles):
            geometry = puzzle.geometry
            if geometry not in loaded:
                if len(loaded) >= _MAX_LOADED:
                    loaded.pop(next(iter(loaded))).close()
                backend = make_backend(
                    name, fresh=args.fresh, timeout=args.timeout, command=args.solver_cmd
                )
                formula = rule_formula(geometry, args.encoding)
                loaded[geometry] = backend.load(formula.clauses, formula.num_vars, geometry.size**3)
            result = loaded[geometry].solve(given_literals(puzzle.grid, geometry))
            without = _YES_NO.get(result.solved_without_search, result.solved_without_search)
            print(
                f"{index}\t{format_line(puzzle.grid, geometry)}\t{result.status.name}\t"
                f"{without}\t{result.decisions}\t{result.conflicts}\t{result.seconds:.6f}",
                flush=flush,
            )
            if result.status is Status.UNSAT:
                why = _why_unsat(puzzle)
                print(f"{PROG}: {puzzle.source}: no solution: {why}", file=sys.stderr)
            elif result.reason and name not in HOME_DEPTHS:  # a closure's UNKNOWN is no fault
                print(f"{PROG}: {puzzle.source}: {result.reason}", file=sys.stderr)
    finally:
        for backend in loaded.values():
            backend.close()
    return 0


def _why_unsat(puzzle: Puzzle) -> str:
    clashes = find_clashes(puzzle.grid, puzzle.geometry)
    if clashes:
        return describe_clash(clashes[0], puzzle.geometry)
    return "the givens lead to a contradiction (see `python -m solvers explain`)"


def run_explain(args: argparse.Namespace) -> int:
    from solvers.explain import explain_lines

    puzzle = load_one_puzzle(args.grid, args, args.index, allow_conflicts=True)
    for line in explain_lines(puzzle.grid, puzzle.geometry, args.max_depth):
        print(line)
    return 0


def run_solve(args: argparse.Namespace) -> int:
    from solvers.backends import make_backend
    from solvers.results import Status

    cnf = read_cnf(args.cnf)
    name = args.solver if args.solver_cmd is None else "command"
    backend = make_backend(name, timeout=args.timeout, command=args.solver_cmd)
    try:
        with backend.load(cnf.clauses, cnf.num_vars):
            result = backend.solve()
    except MemoryError:
        where = "<stdin>" if args.cnf == "-" else args.cnf
        raise DimacsError(f"not enough memory for {cnf.num_vars} variables", where) from None
    print(f"c sudoku-sat solver {result.solver}: {result.seconds:.6f} s")
    without = _YES_NO.get(result.solved_without_search, result.solved_without_search)
    print(f"c solved without search: {without}")
    for key in ("decisions", "conflicts", "propagations"):
        print(f"c {key}: {getattr(result, key)}")
    if result.reason:
        print(f"c reason: {result.reason}")
    words = {Status.SAT: "SATISFIABLE", Status.UNSAT: "UNSATISFIABLE", Status.UNKNOWN: "UNKNOWN"}
    print(f"s {words[result.status]}")
    if result.status is Status.SAT:
        print(model_lines(result.model), end="")
    return result.status.value


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
    parser = argparse.ArgumentParser(
        prog=f"python -m {PROG}", description="The home-grown SAT engine on Sudoku grids."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rate_parser(sub)
    explain_parser(sub)
    solve_parser(sub)
    args = parser.parse_args(argv)
    commands = {"rate": run_rate, "explain": run_explain, "solve": run_solve}
    try:
        return commands[args.command](args)
    except InputError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
