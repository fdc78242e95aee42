"""Command line: `python -m benchmarks COMMAND [options]` (like pyperf: small dispatch).

Each command lives in its own module with a `main(argv) -> int`; this file only picks
the module, so a command's start-up cost is paid only when it is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from encoder.cli_common import reader_left
from encoder.errors import InputError
from executors import ExecutorError
from puzzlesets import PuzzleSetError

COMMANDS = {
    "run": ("benchmarks.run", "every solver over puzzle sets: no-search rate, depth, speed"),
    "compare": ("benchmarks.compare", "differences between two results.json files"),
    "generate": ("puzzles.generate", "random full grids and puzzles, reproducible from a seed"),
    "unique": ("puzzles.unique", "check that every puzzle of a file has one solution"),
    "stats": ("benchmarks.stats", "mean number of solutions versus number of givens"),
    "speed": (
        "benchmarks.speed",
        "home-grown engine vs PySAT Minisat22: UP, depth-1, depth-2",
    ),
    "encoder-speed": ("benchmarks.encoder_speed", "time to encode one grid in-process"),
    "datasets": (
        "benchmarks.datasets",
        "public puzzle sets by name: list, show, fetch, path, verify",
    ),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: python -m benchmarks COMMAND [options]   (COMMAND -h for its options)", ""]
    lines += [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    if argv[0] not in COMMANDS:
        print(f"benchmarks: unknown command {argv[0]!r}\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    try:
        return module.main(argv[1:])
    except (InputError, ExecutorError, PuzzleSetError) as error:
        # The one error handler of the benchmarks commands: bad input, a public set not
        # here, an executor that cannot run.  One line, exit 1, never a traceback.
        print(f"benchmarks: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("benchmarks: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # files are written before the tables: nothing is lost
        return reader_left()


if __name__ == "__main__":
    raise SystemExit(main())
