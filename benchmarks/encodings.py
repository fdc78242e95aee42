"""`python -m benchmarks encodings`: the at-most-one encodings compared, as docs/encodings.md.

    python -m benchmarks encodings --out docs        # writes docs/encodings.md and .png

Four measurements, all made by this command in one run (the document says when, where
and with which commit):

1. Size of the rule formula per side N (9 to 100) and at-most-one encoding: variables
   and clauses, exact (`encoder.emit.rule_size`: one row per block stands for all).
2. Writing the rules to DIMACS (`python -m encoder --rules-only --size N --amo A -o
   FILE`, one process each): bytes, seconds and the encoder's peak memory (the
   process's maximum resident set, from `os.wait4`), for the formulas below
   --max-clauses.  The log-log plot (`encodings.png`) draws clauses and encode time
   against N.
3. The harness (`benchmarks run`) on the project's 9x9 and 16x16 sets with every
   at-most-one encoding of the centrale formula: % solved without search by `up` and
   `fl`, and the median time of Minisat22, Glucose4 and CaDiCaL195 per grid.
4. Big puzzles (`benchmarks generate --method remove`, seeded, a share of the cells
   given), encoded simplified (`--simplify`) per at-most-one encoding: the simplified
   formula's size against the full one, encode time and peak memory, and the time
   `python -m solvers solve --solver S` takes per backend within a time limit; every
   model is decoded through the map and checked (encoder.check).

The document's prose is a template, benchmarks/templates/encodings.md, whose fields
(`{sizes}`, `{harness}`, ...) this command fills in.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection, Sequence
from importlib import resources
from pathlib import Path

from benchmarks.paths import DATA
from benchmarks.report.metadata import metadata
from benchmarks.timing import peak_mb
from cli.flags import positive
from encoder.amo import AMO_ENCODINGS
from encoder.check import is_solution
from encoder.cli_common import Parser
from encoder.decode import grid_from_model
from encoder.dimacs import parse_model
from encoder.emit import rule_size
from encoder.errors import InputError
from encoder.geometry import make_geometry
from encoder.output_files import check_folder, write_text
from encoder.puzzle_files import read_puzzles
from encoder.simplify import original_model, read_map
from puzzles.outputs import write_png

SIDES = (9, 16, 25, 36, 49, 64, 81, 100)
COMPARED = ("pairwise", "sequential", "ladder", "bitwise", "commander", "product", "bimander")
BACKENDS = ("minisat22", "glucose4", "cadical195")
HARNESS_SETS = ("sudoku9_minimal.txt", "sudoku16_minimal.txt")
COMMAND = "python -m benchmarks encodings --out docs"
# the document's prose, with a {field} for every measured table and figure; package data
# (pyproject.toml), so that an installed copy finds it
TEMPLATE = resources.files("benchmarks") / "templates" / "encodings.md"


class ChildFailed(InputError):
    """A measured child process that ended with an exit status it should not have."""


def _child(
    args: Sequence[str], timeout: float, succeeded: Collection[int] = (0,)
) -> tuple[float, float, str, bool]:
    """Run `python ARGS`; return (seconds, peak resident MB, stdout, finished in time).
    A child that finishes with a status not in `succeeded` is a ChildFailed naming the
    command, the status and the last line it wrote on stderr: nothing it left behind
    can be measured."""
    start = time.perf_counter()
    peak = 0.0
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen([sys.executable, *args], stdout=out, stderr=err)
        while process.poll() is None:
            peak = peak_mb(process.pid, peak)
            if time.perf_counter() - start > timeout:
                process.kill()
                process.wait()
                return time.perf_counter() - start, peak, "", False
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        if process.returncode not in succeeded:
            err.seek(0)
            said = [line.strip() for line in err.read().splitlines() if line.strip()]
            last = f": {said[-1]}" if said else ""
            raise ChildFailed(f"failed with exit status {process.returncode}{last}", _shown(args))
        out.seek(0)
        return seconds, peak, out.read(), True


def _shown(args: Sequence[str]) -> str:
    return f"python {' '.join(args)}"


def _run(args: Sequence[str], timeout: float) -> tuple[float, float]:
    """Run `python ARGS` whose output the next step reads; return (seconds, peak MB).
    Unlike a solve, running out of time is a failure here: there is nothing to read."""
    seconds, peak, _, finished = _child(args, timeout)
    if not finished:
        raise ChildFailed(f"still running after {timeout:.0f} s: stopped", _shown(args))
    return seconds, peak


def _mb(nbytes: int) -> str:
    return f"{nbytes / 1e6:,.1f}"


def sizes_table(sides: Sequence[int]) -> tuple[list[str], dict]:
    lines = ["| N | " + " | ".join(AMO_ENCODINGS) + " |", "|---|" + "---|" * len(AMO_ENCODINGS)]
    sizes: dict = {}
    for n in sides:
        geometry = make_geometry(n)
        cells = []
        for amo in AMO_ENCODINGS:
            num_vars, clauses = rule_size(geometry, amo=amo)
            sizes[(n, amo)] = (num_vars, clauses)
            cells.append(f"{clauses:,} ({num_vars:,})")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines, sizes


def encode_table(sides: Sequence[int], sizes: dict, max_clauses: int, tmp: Path) -> tuple:
    lines = [
        "| N | encoding | clauses | DIMACS MB | encode s | peak MB | vs pairwise (bytes, time) |",
        "|---|---|---|---|---|---|---|",
    ]
    measured: dict = {}
    for n in sides:
        for amo in COMPARED:
            clauses = sizes[(n, amo)][1]
            if clauses > max_clauses:
                continue
            path = tmp / f"rules{n}{amo}.cnf"
            args = ["-m", "encoder", "--rules-only", "--size", str(n), "--amo", amo]
            seconds, peak = _run([*args, "-o", str(path)], 3600)
            nbytes = path.stat().st_size
            path.unlink()
            measured[(n, amo)] = (nbytes, seconds, peak)
            base = measured.get((n, "pairwise"))
            ratio = f"{base[0] / nbytes:.1f}x, {base[1] / seconds:.1f}x" if base else "—"
            lines.append(
                f"| {n} | {amo} | {clauses:,} | {_mb(nbytes)} | {seconds:.2f} | {peak:.0f} "
                f"| {ratio} |"
            )
    return lines, measured


def harness_table(tmp: Path, limit: int) -> list[str]:
    encodings = ",".join(["centrale"] + [f"centrale+{a}" for a in COMPARED[1:]])
    solvers = "up,fl," + ",".join(BACKENDS)
    lines = [
        "| set | at most one | up % no search | fl % no search | "
        + " | ".join(f"{b} µs/grid" for b in BACKENDS)
        + " |",
        "|---|---|---|---|" + "---|" * len(BACKENDS),
    ]
    for name in HARNESS_SETS:
        out = tmp / name
        args = ["-m", "benchmarks", "run", str(DATA / "sets" / name), "--solvers", solvers]
        args += ["--encodings", encodings, "--limit", str(limit), "--quiet", "--workers", "1"]
        _run([*args, "--out", str(out)], 3600)
        document = json.loads((out / "results.json").read_text(encoding="utf-8"))
        by_key = {(s["encoding"], s["solver"]): s for s in document["summaries"]}
        for encoding in encodings.split(","):
            row = [name.removesuffix(".txt"), encoding.partition("+")[2] or "pairwise"]
            for solver in ("up", "fl"):
                row.append(f"{by_key[(encoding, solver)]['without_search_pct']:.2f}")
            for solver in BACKENDS:
                row.append(f"{by_key[(encoding, solver)]['us_median']:.0f}")
            lines.append("| " + " | ".join(row) + " |")
    return lines


def _solve_checked(cnf: Path, puzzle: tuple, n: int, backend: str, limit: float) -> str:
    seconds, _, stdout, finished = _child(
        ["-m", "solvers", "solve", str(cnf), "--solver", backend], limit, succeeded=(10,)
    )  # 10: SAT, as a generated puzzle must be
    if not finished:
        return f"> {limit:.0f}"
    geometry = make_geometry(n)
    model = parse_model(stdout)
    originals, true_vars = read_map(cnf.read_text(encoding="ascii"), str(cnf))
    grid = grid_from_model(original_model(model.literals, originals, true_vars), geometry)
    if not is_solution(grid, puzzle, geometry):
        raise AssertionError(f"{backend} gave a wrong solution for {cnf}")
    return f"{seconds:.2f}"


def big_table(sides: Sequence[int], shares: Sequence[float], limit: float, tmp: Path):
    lines = [
        "| N | givens | at most one | variables | clauses | MB | full formula clauses "
        "| encode s | peak MB | " + " | ".join(f"{b} s" for b in BACKENDS) + " |",
        "|---|---|---|---|---|---|---|---|---|" + "---|" * len(BACKENDS),
    ]
    for n in sides:
        for share in shares:
            givens = round(share * n * n)
            puzzles = tmp / f"big{n}-{givens}.txt"
            args = ["-m", "benchmarks", "generate", "--method", "remove", "--size", str(n)]
            args += ["--givens", str(givens), "--seed", "1", "--quiet", "-o", str(puzzles)]
            _run(args, 600)
            [puzzle] = (p.grid for p in read_puzzles(str(puzzles), make_geometry(n)))
            timed_out = False
            for amo in ("pairwise", "sequential", "product", "commander"):
                cnf = tmp / f"big{n}-{givens}-{amo}.cnf"
                args = ["-m", "encoder", str(puzzles), "--simplify", "--amo", amo]
                seconds, peak = _run([*args, "-o", str(cnf)], 3600)
                header = next(
                    line for line in cnf.open(encoding="ascii") if line.startswith("p cnf")
                )
                num_vars, clauses = map(int, header.split()[2:])
                full = rule_size(make_geometry(n), amo=amo)[1]
                times = []
                for backend in BACKENDS:
                    if timed_out and backend != "cadical195":
                        times.append("—")
                        continue
                    times.append(_solve_checked(cnf, puzzle, n, backend, limit))
                timed_out = timed_out or any(t.startswith(">") for t in times)
                lines.append(
                    f"| {n} | {givens:,} ({share:.0%}) | {amo} | {num_vars:,} | {clauses:,} "
                    f"| {_mb(cnf.stat().st_size)} | {full:,} | {seconds:.2f} | {peak:.0f} | "
                    + " | ".join(times)
                    + " |"
                )
                cnf.unlink()
    return lines


def plot(sizes: dict, measured: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for amo in AMO_ENCODINGS:
        sides = sorted(n for n, a in sizes if a == amo)
        style = "-" if amo in COMPARED else ":"
        left.loglog(sides, [sizes[(n, amo)][1] for n in sides], style, marker="o", ms=3, label=amo)
        timed = sorted(n for n, a in measured if a == amo)
        if timed:
            right.loglog(timed, [measured[(n, amo)][1] for n in timed], marker="o", ms=3, label=amo)
    left.set(xlabel="N (grid side)", ylabel="rule clauses", title="Rule formula size")
    right.set(xlabel="N (grid side)", ylabel="seconds", title="Writing the rules (DIMACS)")
    for ax in (left, right):
        ax.grid(which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    write_png(fig, path, dpi=110)


def _sides(text: str) -> list[int]:
    """Parse --big: comma-separated grid sides, each one with default boxes."""
    sides = []
    for part in text.split(","):
        try:
            n = int(part)
            make_geometry(n)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a side: {part!r}") from None
        except InputError as error:
            # the encoder's hint (--box, --no-boxes) is no flag of this command
            raise argparse.ArgumentTypeError(error.message.split(":")[0]) from None
        sides.append(n)
    return sides


def _shares(text: str) -> list[float]:
    """Parse --shares: comma-separated shares of the cells given, each in (0, 1]."""
    shares = []
    for part in text.split(","):
        try:
            share = float(part)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {part!r}") from None
        if not 0 < share <= 1:
            raise argparse.ArgumentTypeError(f"a share is above 0 and at most 1, not {part}")
        shares.append(share)
    return shares


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m benchmarks encodings",
        description="Compare the at-most-one encodings: sizes, encode time and memory, "
        "no-search rates, solve times, big grids; writes OUT/encodings.md and OUT/encodings.png",
    )
    parser.add_argument("--out", default="docs", metavar="DIR", help="output folder (docs)")
    parser.add_argument("--max-clauses", type=positive(int), default=4_000_000, metavar="C")
    parser.add_argument(
        "--limit", type=positive(int), default=100, help="grids per harness set (100)"
    )
    parser.add_argument(
        "--big", type=_sides, default=[36, 64, 100], metavar="N,N,...",
        help="sides of the big puzzles (default 36,64,100)",
    )  # fmt: skip
    parser.add_argument(
        "--shares", type=_shares, default=[0.5, 0.7], metavar="S,S,...",
        help="shares of the cells given (default 0.5,0.7)",
    )  # fmt: skip
    parser.add_argument(
        "--time-limit", type=positive(float), default=15.0,
        help="seconds per solve of a big puzzle (15)",
    )  # fmt: skip
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    check_folder(args.out)  # before the run, not after it: the results could not be kept
    out = Path(args.out)
    start = time.perf_counter()
    info = metadata(command=COMMAND)  # before the outputs change the work tree
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        size_lines, sizes = sizes_table(SIDES)
        encode_lines, measured = encode_table(SIDES, sizes, args.max_clauses, tmp)
        harness_lines = harness_table(tmp, args.limit)
        big_lines = big_table(args.big, args.shares, args.time_limit, tmp)
    plot(sizes, measured, out / "encodings.png")
    wall = time.perf_counter() - start
    text = TEMPLATE.read_text(encoding="utf-8").format(
        command=COMMAND,
        machine=(
            f"{info.get('cpu', '?')}, {info.get('cores', '?')} cores, "
            f"Python {info.get('python', '?')}"
        ),
        date=info["date"][:10],
        commit=info["git_commit"][:10] + (" (modified)" if info["git_dirty"] else ""),
        wall=wall,
        load=os.getloadavg()[0],
        sizes="\n".join(size_lines),
        encode="\n".join(encode_lines),
        max_clauses=args.max_clauses,
        harness="\n".join(harness_lines),
        limit=args.limit,
        big="\n".join(big_lines),
        time_limit=args.time_limit,
    )
    write_text(str(out / "encodings.md"), text)
    print(
        f"wrote {out / 'encodings.md'} and {out / 'encodings.png'} ({wall:.0f} s)", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
