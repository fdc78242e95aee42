"""The catalogue of public puzzle sets: one entry per file, read from `catalogue.toml`.

Each entry names a set by a short name (`top95`, `royle17`, ...) and says what it is
(file name, number of puzzles, format, the variant's geometry flags), how to check it
(the SHA-256 of its canonical text, see `puzzlesets.normalise`), where it comes from
(the original repository, path and commit, and the recipe that turns the original
files into the project's copy) and whose work it is (author, licence, how to cite).
The table is data, not code, so that adding a set is adding a few lines of TOML.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from puzzlesets.normalise import Part, Recipe

FORMATS = ("lines", "jigsaw", "table")


@dataclass(frozen=True)
class PuzzleSet:
    """One catalogue entry."""

    name: str  # short name used on the command line
    file: str  # file name in the mirror and in the cache
    title: str
    variant: str  # in words: "9x9", "9x9 X", "16x16", "6x6, 2x3 boxes", ...
    puzzles: int  # number of puzzles (table rows, header excluded)
    format: str  # "lines": one grid a line; "jigsaw": `puzzle|regions`; "table": CSV/TSV
    sha256: str  # of the canonical text
    flags: str = ""  # geometry flags of the variant ("" for classic Sudoku)
    column: str | None = None  # table: the column holding the puzzles
    one_variant: bool = True  # False: rows of several layouts, not readable as one set
    author: str = ""
    licence: str = ""
    cite: str = ""
    origin: str = ""  # "owner/repo : path (commit)", as a person would look it up
    recipe: Recipe | None = None  # None: no download (the copy was assembled by hand)
    notes: str = ""

    @property
    def downloadable(self) -> bool:
        return self.recipe is not None and bool(self.recipe.parts)


def _part(table: dict) -> Part:
    table = dict(table)
    table["replace"] = tuple(tuple(pair) for pair in table.get("replace", ()))
    return Part(**table)


def _entry(name: str, table: dict) -> PuzzleSet:
    table = dict(table)
    recipe = table.pop("recipe", None)
    if recipe is not None:
        recipe = dict(recipe)
        recipe["parts"] = tuple(_part(part) for part in recipe.get("parts", ()))
        recipe = Recipe(**recipe)
    entry = PuzzleSet(name=name, recipe=recipe, **table)
    if entry.format not in FORMATS:
        raise ValueError(f"catalogue entry {name}: format {entry.format!r} not in {FORMATS}")
    return entry


@cache
def catalogue() -> dict[str, PuzzleSet]:
    """Return the catalogue's entries by name, in the order of the file."""
    text = resources.files("puzzlesets").joinpath("catalogue.toml").read_text("utf-8")
    return {name: _entry(name, table) for name, table in tomllib.loads(text)["sets"].items()}


def lookup(name: str) -> PuzzleSet | None:
    """Return the entry called `name` (or whose file is `name`), None when there is none."""
    sets = catalogue()
    if name in sets:
        return sets[name]
    return next((entry for entry in sets.values() if entry.file == name), None)
