"""A Sudoku variant as typed values: the geometry options every reader of grids takes.

`Variant` is what the geometry flags of the command line say (--size, --box,
--diagonals, --windows, --regions, --no-boxes, --symbols), as a frozen record the Python
API takes directly: `Variant(diagonals=True)`.  The same options are also written in
text where no command line is at hand (a file's `# geometry: --diagonals` header, the
catalogue's flags of a public set, a generator's `# command:` line): `Variant.parse`
reads them, `Variant.flags` writes them back.  `Variant.geometry(n)` builds the
geometry for a grid of side n, a jigsaw line's own map included.

A jigsaw map whose regions are not connected still defines a valid formula, but is most
likely a typing mistake: it is reported through the standard `warnings` module (a
`GridWarning`, located at the map), never printed here; the front ends print it.
"""

from __future__ import annotations

import os
import shlex
import warnings
from dataclasses import dataclass, fields, replace

from encoder.errors import GridError, read_text
from encoder.geometry import MAX_SIZE, Geometry, disconnected_regions, make_geometry
from encoder.grids import expand_symbols, looks_like_path, region_ids


class GridWarning(UserWarning):
    """A grid or map that can be read but is most likely a mistake, located like a
    GridError; `key` names what it is about, so that a front end says it once."""

    def __init__(self, problem: str, path: str | None, line: int | None, key: str):
        super().__init__(str(GridError(f"warning: {problem}", path, line)))
        self.key = key


# option name -> takes a value (the others are switches)
_OPTIONS = {
    "size": True,
    "box": True,
    "diagonals": False,
    "windows": False,
    "regions": True,
    "no_boxes": False,
    "symbols": True,
}
_BOXES = ("box", "regions", "no_boxes")  # each replaces or removes the boxes: one at most


@dataclass(frozen=True)
class Variant:
    """The geometry options of a grid (None / False: the default for its size)."""

    size: int | None = None  # side N; default: from the grid's length
    box: str | None = None  # 'RxC'; default: the most square box for N
    diagonals: bool = False  # X-Sudoku
    windows: bool = False  # Hyper/Windoku windows
    regions: str | None = None  # jigsaw map: N*N region ids, or a file of them
    no_boxes: bool = False  # Latin square
    symbols: str | None = None  # alphabet spec, e.g. '0-F'

    def __post_init__(self) -> None:
        if self.size is not None and not 4 <= self.size <= MAX_SIZE:
            raise GridError(f"--size {self.size} is not a side from 4 to {MAX_SIZE}")
        given = [f"--{name.replace('_', '-')}" for name in _BOXES if _set(getattr(self, name))]
        if len(given) > 1:
            raise GridError(f"{' and '.join(given)} contradict each other: give one")

    @property
    def given(self) -> bool:
        """True when any option differs from the default (the plain Sudoku of the size)."""
        return any(_set(getattr(self, f.name)) for f in fields(self))

    def flags(self) -> str:
        """Return the options as command-line flags ('' for the default)."""
        parts = []
        for name in _OPTIONS:
            value, flag = getattr(self, name), "--" + name.replace("_", "-")
            if value is True:
                parts.append(flag)
            elif _set(value):
                parts.append(f"{flag} {shlex.quote(str(value))}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str, known_only: bool = False) -> Variant:
        """Return the variant flags written in `text` say ('--diagonals --box 2x3');
        `known_only`: skip every other word (a whole command line) instead of refusing
        it.  A problem is a GridError."""
        try:
            words = shlex.split(text)
        except ValueError as error:  # unbalanced quotes
            raise GridError(f"bad geometry flags {text!r}: {error}") from None
        values: dict[str, object] = {}
        at = 0
        while at < len(words):
            word = words[at]
            at += 1
            flag, equals, inline = word.partition("=")
            name = flag[2:].replace("-", "_") if flag.startswith("--") else ""
            if name not in _OPTIONS:
                if known_only:
                    continue
                raise GridError(f"unrecognized geometry flag {word!r} in {text!r}")
            if not _OPTIONS[name]:
                if equals:
                    raise GridError(f"{flag} takes no value, in {text!r}")
                values[name] = True
                continue
            if not equals:
                if at >= len(words):
                    raise GridError(f"{flag} expects a value, in {text!r}")
                inline, at = words[at], at + 1
            values[name] = inline
        if "size" in values:
            try:
                values["size"] = int(str(values["size"]))
            except ValueError:
                raise GridError(f"--size {values['size']!r} is not an integer") from None
        return cls(**values)  # type: ignore[arg-type]

    def with_size(self, size: int | None) -> Variant:
        return replace(self, size=size)

    def geometry(
        self,
        n: int,
        regions: str | None = None,
        where: tuple[str, int | None] = ("command line", None),
    ) -> Geometry:
        """Return the geometry of a grid of side n (`regions`: the map of a
        `puzzle|regions` line, which --box, --no-boxes or another --regions contradict).
        A problem is a GridError located at `where`."""
        if self.size and self.size != n:
            raise GridError(f"grid has {n * n} cells but --size {self.size} was given", *where)
        try:
            symbols = _alphabet(self.symbols, n) if self.symbols is not None else None
        except GridError as error:
            raise error.located(*where) from None
        if regions is not None:
            flag = "--box" if self.box is not None else "--no-boxes" if self.no_boxes else None
            if (
                flag is None
                and self.regions is not None
                and _strip_map(_regions_map(self.regions)[0]) != _strip_map(regions)
            ):
                flag = "--regions"
            if flag:
                raise GridError(
                    f"this line gives its own jigsaw map (puzzle|regions), which {flag} "
                    "contradicts: drop the option or the map",
                    *where,
                )
        jigsaw, map_text, map_at = None, "", where
        if regions is not None or self.regions is not None:
            map_text, map_at = (
                (regions, where) if regions is not None else _regions_map(str(self.regions))
            )
            jigsaw = region_ids(map_text, n, *map_at)
        try:
            box = _parse_box(self.box) if self.box is not None else None
            geometry = make_geometry(
                n,
                box=box,
                diagonals=self.diagonals,
                windows=self.windows,
                jigsaw=jigsaw,
                boxes=not self.no_boxes,
                symbols=symbols,
            )
        except GridError as error:
            raise error.located(*where) from None
        if jigsaw is not None:
            _warn_disconnected(geometry, jigsaw, map_text, map_at)
        return geometry


def _set(value: object) -> bool:
    """True for an option's value that differs from the default (`--symbols ''` too)."""
    return value is not None and value is not False


def _parse_box(spec: str) -> tuple[int, int]:
    try:
        h, w = (int(part) for part in spec.lower().split("x"))
    except ValueError:
        raise GridError(f"--box {spec!r}: expected RxC such as 3x3 or 2x3") from None
    if h < 1 or w < 1:
        raise GridError(f"--box {spec!r}: box sides must be positive")
    return h, w


def _regions_map(spec: str) -> tuple[str, tuple[str, int | None]]:
    """Return the text of a --regions map (a file, or the map itself) and where its
    problems are: the file, or the option."""
    if os.path.exists(spec):
        try:
            text = read_text(spec, GridError)
        except GridError as error:
            message = f"--regions: cannot read the map: {error.message}"
            raise GridError(message, spec, error.line) from None
        lines = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        return "".join(ln for ln in lines if ln), (spec, None)
    if looks_like_path(spec):
        raise GridError("--regions: no such file", spec)
    return spec, ("--regions", None)


def _alphabet(spec: str, n: int) -> str:
    """Return the symbols a --symbols SPEC names for a grid of side n."""
    symbols = expand_symbols(spec)
    if len(symbols) != n:
        raise GridError(
            f"--symbols {spec!r} names {len(symbols)} symbols; a {n}x{n} grid needs {n}"
        )
    return symbols


def _warn_disconnected(
    geometry: Geometry, jigsaw: tuple[int, ...], map_text: str, where: tuple[str, int | None]
) -> None:
    """Warn about jigsaw regions that are not orthogonally connected (see the module
    docstring)."""
    found = disconnected_regions(geometry)
    if found:
        ids = sorted(set(jigsaw))  # region b of the geometry is the b-th id (a code point)
        listed = "; ".join(
            f"region {chr(ids[region.index])!r} is not connected "
            f"({count} separate pieces of its {len(region.cells)} cells)"
            for region, count in found
        )
        problem = f"{listed}; read as given"
        warnings.warn(GridWarning(problem, *where, key=_strip_map(map_text)), stacklevel=2)


def _strip_map(text: str) -> str:
    return "".join(text.split())
