"""Public puzzle sets by name: a catalogue, a verified cache, and fetching.

    >>> from puzzlesets import lookup
    >>> lookup("top95").puzzles
    95

`locate(name)` returns the path of a verified copy on this machine (cache or local
mirror) or raises `PuzzleSetError` naming the command that fetches it; `fetch(name)`
brings it into the cache.  This package sits below every other one: it knows files and
checksums, not grids.
"""

from puzzlesets.catalogue import PuzzleSet, catalogue, lookup
from puzzlesets.normalise import Part, Recipe, canonical, checksum
from puzzlesets.store import (
    PuzzleSetError,
    cache_dir,
    check_file,
    copies,
    entry_for,
    fetch,
    locate,
    mirror_dirs,
)

__all__ = [
    "Part",
    "PuzzleSet",
    "PuzzleSetError",
    "Recipe",
    "cache_dir",
    "canonical",
    "catalogue",
    "check_file",
    "checksum",
    "copies",
    "entry_for",
    "fetch",
    "locate",
    "lookup",
    "mirror_dirs",
]
