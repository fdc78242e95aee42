"""`python -m benchmarks datasets list | fetch NAME... | path NAME | verify [NAME...]`:
the public puzzle sets of the catalogue (`puzzlesets`), by name.

    list     every set: name, puzzles, variant, where it is on this machine, licence
    show     one set in full: title, origin, recipe, author, licence, how to cite
    fetch    bring sets into the cache (from a local mirror when there is one, else
             downloaded and checked); `--all` for every downloadable set
    path     print the path of a set's verified copy (exit 1 and the fetch command
             when it is not on this machine; nothing is downloaded)
    verify   check every copy present (cache and mirrors) against the catalogue:
             checksum and number of puzzles; exit 1 when one differs

Where things are: `$SUDOKU_SAT_DATA` (cache), `$SUDOKU_SAT_MIRROR` (local mirror; empty
for none; default `../shared/data` beside the checkout), `$SUDOKU_SAT_DOWNLOAD_BASE`
(another host serving GitHub's raw files).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tabulate import tabulate

from encoder.cli_common import Parser
from encoder.output_files import reason
from puzzlesets import (
    PuzzleSet,
    PuzzleSetError,
    cache_dir,
    catalogue,
    copies,
    entry_for,
    fetch,
    locate,
    mirror_dirs,
)
from puzzlesets.normalise import canonical

PROG = "benchmarks"  # messages start `benchmarks: `, as every command's do


def parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m benchmarks datasets",
        description="Public puzzle sets by name: list, fetch, locate, verify.",
    )
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    sub.add_parser("list", help="every catalogued set and where it is on this machine")
    show = sub.add_parser("show", help="one set in full: origin, recipe, attribution")
    show.add_argument("name", metavar="NAME")
    get = sub.add_parser("fetch", help="bring sets into the cache (mirror first, else download)")
    get.add_argument("names", metavar="NAME", nargs="*")
    get.add_argument("--all", action="store_true", help="every set that can be had")
    get.add_argument("--quiet", action="store_true", help="no progress bar")
    path = sub.add_parser("path", help="the path of a set's verified copy")
    path.add_argument("name", metavar="NAME")
    check = sub.add_parser("verify", help="check every copy present against the catalogue")
    check.add_argument("names", metavar="NAME", nargs="*", help="default: every set")
    return p


def where(entry: PuzzleSet) -> str:
    found = copies(entry)
    good = [copy.where for copy in found if copy.problem is None]
    if good:
        return good[0]
    if found:
        return "BAD COPY"
    return "-" if entry.downloadable else "- (mirror only)"


def run_list() -> int:
    rows = [
        (e.name, f"{e.puzzles:,}", e.variant, e.format, where(e), e.licence.split(";")[0][:40])
        for e in catalogue().values()
    ]
    headers = ("name", "puzzles", "variant", "format", "here", "licence")
    print(tabulate(rows, headers=headers, colalign=("left", "right")))
    mirrors = ", ".join(map(str, mirror_dirs())) or "none"
    print(f"\ncache: {cache_dir()}; mirror: {mirrors}")
    print("details: python -m benchmarks datasets show NAME; get one: ... fetch NAME")
    return 0


def run_show(name: str) -> int:
    entry = entry_for(name)
    lines = [
        f"{entry.name}: {entry.title}",
        f"  file      {entry.file} ({entry.puzzles:,} puzzles, format {entry.format}"
        + (f", column {entry.column}" if entry.column else "")
        + ")",
        f"  variant   {entry.variant}" + (f" ({entry.flags})" if entry.flags else ""),
        f"  sha256    {entry.sha256} (of the canonical text)",
        f"  origin    {entry.origin}",
        f"  author    {entry.author}",
        f"  licence   {entry.licence}",
        f"  cite      {entry.cite}",
    ]
    if entry.downloadable:
        recipe = entry.recipe
        steps = [recipe.combine] + (["dedupe"] if recipe.dedupe else [])
        steps += [f"header {recipe.header!r}"] if recipe.header else []
        lines.append(f"  recipe    {len(recipe.parts)} part(s), {', '.join(steps)}")
        for part in recipe.parts:
            lines.append(f"    {part.url}")
    else:
        lines.append(f"  recipe    none: {entry.notes or 'assembled by hand'}")
    if entry.notes and entry.downloadable:
        lines.append(f"  notes     {entry.notes}")
    lines.append(f"  here      {where(entry)}")
    print("\n".join(lines))
    return 0


def run_fetch(names: Sequence[str], everything: bool, quiet: bool) -> int:
    if everything:
        names = [
            e.name for e in catalogue().values() if e.downloadable or not where(e).startswith("-")
        ]
    if not names:
        print(f"{PROG}: fetch: name at least one set, or --all", file=sys.stderr)
        return 2
    entries = [entry_for(name) for name in names]  # every name checked before any work
    failed = 0
    for entry in entries:
        try:
            path = fetch(entry, progress=not quiet and sys.stderr.isatty(), say=_note)
        except PuzzleSetError as error:
            print(f"{PROG}: {error}", file=sys.stderr)
            failed += 1
            continue
        except OSError as error:
            problem = f"cannot write {entry.name} into the cache: {reason(error)}"
            print(f"{PROG}: {cache_dir()}: {problem}", file=sys.stderr)
            failed += 1
            continue
        print(f"{entry.name}\t{path}")
    return 1 if failed else 0


def _note(message: str) -> None:
    print(f"{PROG}: {message}", file=sys.stderr)


def run_path(name: str) -> int:
    print(locate(name))
    return 0


def count_puzzles(entry: PuzzleSet, data: bytes) -> int:
    """Return the number of puzzles of a canonical file: lines, less the header of a
    table, less comment lines."""
    lines = canonical(data).decode("utf-8").splitlines()
    lines = [line for line in lines if not line.lstrip().startswith("#")]
    return len(lines) - (1 if entry.format == "table" else 0)


def run_verify(names: Sequence[str]) -> int:
    entries = [entry_for(name) for name in names] if names else list(catalogue().values())
    bad = checked = 0
    for entry in entries:
        for copy in copies(entry):
            checked += 1
            problem = copy.problem
            if problem is None:
                found = count_puzzles(entry, copy.path.read_bytes())
                if found != entry.puzzles:
                    problem = f"{found:,} puzzles, the catalogue says {entry.puzzles:,}"
            if problem is None:
                print(
                    f"OK    {entry.name:<24} {entry.puzzles:>7,} puzzles  {copy.where}: {copy.path}"
                )
            else:
                bad += 1
                print(f"FAIL  {entry.name:<24} {copy.where}: {problem}")
    absent = sum(1 for entry in entries if not copies(entry))
    print(
        f"{checked} copies checked, {bad} bad; {absent} of {len(entries)} sets not on this machine"
    )
    return 1 if bad else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.action == "list":
        return run_list()
    if args.action == "show":
        return run_show(args.name)
    if args.action == "fetch":
        return run_fetch(args.names, args.all, args.quiet)
    if args.action == "path":
        return run_path(args.name)
    return run_verify(args.names)


if __name__ == "__main__":
    raise SystemExit(main())
