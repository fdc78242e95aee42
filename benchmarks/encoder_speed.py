"""How long encoding one grid takes in-process, against a named baseline.

The target: encoding one 9x9 grid takes at most 2 ms.  We time three things on the
same grids: building the clause list of F_initiale (`puzzle_formula`), producing the
full DIMACS text (`encode_dimacs`), and, as the baseline, rebuilding the rule formula
from scratch for every grid (what a naive encoder does).  One untimed call of
`encode_dimacs` first fills the rule formula's cache, so the timed calls measure the
per-grid work.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from benchmarks.paths import machine
from benchmarks.speed.common import read_grids
from benchmarks.timing import median, time_calls
from cli.flags import positive
from encoder.cli_common import Parser
from encoder.emit import encode_dimacs
from encoder.encodings import puzzle_formula, rule_formula
from encoder.geometry import standard

DEFAULT_SET = "top95"  # a catalogued public set, or any file of 9x9 grids


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="python -m benchmarks encoder-speed", description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="?", default=DEFAULT_SET)
    parser.add_argument("--limit", type=positive(int), default=95, help="grids (default 95)")
    parser.add_argument(
        "--repeat", type=positive(int), default=5, help="timed calls per grid (default 5)"
    )
    args = parser.parse_args(argv)
    geometry = standard(9)
    grids = read_grids(args.puzzles, args.limit)
    encode_dimacs(grids[0], geometry)  # warm-up: fills the rule caches

    def per_grid(function) -> float:
        return median([median(time_calls(lambda g=g: function(g), args.repeat)) for g in grids])

    formula = per_grid(lambda g: puzzle_formula(g, geometry).clauses)
    dimacs = per_grid(lambda g: encode_dimacs(g, geometry))
    naive = per_grid(lambda g: rule_formula.__wrapped__(geometry, "centrale").clauses)
    print(f"machine: {machine()}")
    print(f"{len(grids)} grids from {args.puzzles}, {args.repeat} timed calls each, medians")
    print(f"  clause list of F_initiale (puzzle_formula):   {formula * 1e3:7.3f} ms")
    print(f"  DIMACS text (encode_dimacs):                  {dimacs * 1e3:7.3f} ms")
    print(f"  baseline: rule formula rebuilt for each grid: {naive * 1e3:7.3f} ms")
    print(
        f"  ratio DIMACS / baseline: {dimacs / naive:.3f}; target DIMACS <= 2 ms: "
        f"{'met' if dimacs <= 2e-3 else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
