"""Command line: `python -m benchmarks COMMAND [options]` (like pyperf: small dispatch).

Each command lives in its own module with a `main(argv) -> int`; this file only picks
the module, so a command's start-up cost is paid only when it is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from encoder.cli_common import run_front_end
from executors import ExecutorError

COMMANDS = {
    "run": ("benchmarks.run", "every solver over puzzle sets: no-search rate, depth, speed"),
    "compare": ("benchmarks.compare", "differences between two results.json files"),
    "generate": ("puzzles.generate", "random full grids and puzzles, reproducible from a seed"),
    "unique": ("puzzles.unique", "check that every puzzle of a file has one solution"),
    "stats": ("benchmarks.stats", "mean number of solutions versus number of givens"),
    "speed": (
        "benchmarks.speed.command",
        "home-grown engine vs PySAT Minisat22: UP, depth-1, depth-2",
    ),
    "encoder-speed": ("benchmarks.encoder_speed", "time to encode one grid in-process"),
    "agreement": (
        "benchmarks.agreement",
        "refutation-length rating against published ratings (W, B, SER, ...)",
    ),
    "encodings": (
        "benchmarks.encodings",
        "at-most-one encodings compared: writes docs/encodings.md and its plot",
    ),
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
    if not argv:  # a usage error, reported like argparse's: on stderr, status 2
        print(f"{usage()}\nbenchmarks: error: a COMMAND is required", file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if argv[0] not in COMMANDS:
        print(f"benchmarks: unknown command {argv[0]!r}\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    return run_front_end("benchmarks", lambda: _command(module, argv[1:]), (ExecutorError,))


def _command(module, argv: list[str]) -> int:
    # Commands print their tables before writing their files, and keep writing them when
    # the reader of stdout has gone (`puzzles.outputs`).  Compiled code (PySAT, the native
    # core) raises Ctrl-C as a KeyboardInterrupt, which run_front_end reports (exit 130).
    return module.main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
