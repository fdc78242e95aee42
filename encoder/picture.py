"""Grids as pictures: an SVG drawing of any geometry, for notebooks and explain pages.

A grid is drawn the way players draw it: thin lines between cells, thick lines around
each box (so a jigsaw's irregular regions show by their borders alone), the X
diagonals and the Windoku windows lightly shaded.  Givens are dark and bold, values
found later blue, and the candidates still open in a cell small digits laid out like a
numeric keypad.  A step of an explanation adds a highlighted region (yellow), a focus
cell (orange), marked candidates (red: the candidate a hypothesis removes or the
value a single places) and struck ones (faded red: a candidate just removed).  A
jigsaw's regions also get faint tints, no two touching regions the same.  The drawing
depends only on the geometry and the values, not on how they were found: it is the
grid's picture, below every solver.

`grid_svg` returns one self-contained `<svg>` element (its own `<style>`, class names
prefixed `sg-`), so the same text serves `_repr_svg_` in a notebook and an HTML page.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

from encoder.geometry import Geometry
from encoder.numbering import Grid

__all__ = ["GridPicture", "SvgParts", "cell_pixels", "grid_svg", "svg_parts"]

MARGIN = 3  # pixels around the grid, so the outer thick border is not clipped

STYLE = (
    ".sg-bg{fill:#fff}.sg-x{fill:#e3e8f0}.sg-shade{fill:#fff3b0}.sg-focus{fill:#ffc46b}"
    ".sg-thin{stroke:#9aa3ad;stroke-width:1}.sg-thick{stroke:#1f2933;stroke-width:3;"
    "stroke-linecap:square}.sg-g{fill:#1f2933;font-weight:700}.sg-v{fill:#1d5fbf}"
    ".sg-c{fill:#6b7480}.sg-m{fill:#d0312d;font-weight:700}"
    ".sg-s{fill:#d0312d;opacity:.45;text-decoration:line-through}"
    ".sg-r0{fill:#eaf1fb}.sg-r1{fill:#fbf1de}.sg-r2{fill:#e6f4e6}.sg-r3{fill:#f6e8f4}"
    ".sg-r4{fill:#f1f1e4}.sg-r5{fill:#e2f3f3}"
    "text{font-family:'DejaVu Sans',Verdana,sans-serif;text-anchor:middle;"
    "dominant-baseline:central}"
)


def cell_pixels(size: int) -> int:
    """Return the side of a cell in pixels: large for small grids, at least 32 so that
    the candidates of a 25x25 grid stay legible (a 9x9 grid is 9 x 56 pixels)."""
    return max(32, min(80, 504 // size))


def _keypad(size: int) -> tuple[int, int]:
    """Return (rows, columns) of the small grid candidates are laid out in."""
    columns = math.ceil(math.sqrt(size))
    return math.ceil(size / columns), columns


def _box_ids(geometry: Geometry) -> list[int]:
    """Return the box (or jigsaw region) of each cell, -1 where there is none."""
    ids = [-1] * geometry.num_cells
    for region in geometry.regions_of("box"):
        for c in region.cells:
            ids[c] = region.index
    return ids


@dataclass(frozen=True)
class SvgParts:
    """A grid's SVG cut where pictures of the same grid differ: `start` (the element,
    its style, the background and the variant's shading) and `lines` are the same for
    every picture of a geometry; `highlight` (the shaded cells) and `cells` (one piece
    per cell: its value, or its candidates) change from step to step.  A page of many
    pictures keeps each distinct piece once."""

    start: str
    highlight: str
    lines: str
    cells: tuple[str, ...]

    def svg(self) -> str:
        return f"{self.start}{self.highlight}{self.lines}{''.join(self.cells)}</svg>"


def svg_parts(
    geometry: Geometry,
    givens: Sequence[int],
    values: Sequence[int] | None = None,
    candidates: Sequence[Collection[int]] | None = None,
    shade: Iterable[int] = (),
    focus: int | None = None,
    marks: Mapping[int, Collection[int]] | None = None,
    struck: Mapping[int, Collection[int]] | None = None,
    title: str = "",
) -> SvgParts:
    """Return an SVG picture of a grid, in its parts (`grid_svg` joins them).

    `givens` and `values` are N*N values in reading order (0: blank); a value of
    `values` that is not a given is drawn as found (blue).  `candidates[c]` are the
    values still open in cell c, drawn small where the cell has no value.  `shade`
    cells are highlighted, `focus` (a cell) more strongly, and `marks[c]` are values
    of cell c drawn in red (a candidate or a value the step is about), `struck[c]`
    candidates of an open cell drawn faded and struck through (just ruled out).

    >>> from encoder.geometry import standard
    >>> svg = svg_parts(standard(4), (1, 0, 0, 0) + (0,) * 12, candidates=[{2, 3}] * 16).svg()
    >>> svg.startswith("<svg") and svg.count(">1<") == 1 and svg.count(">3<") == 15
    True
    """
    n = geometry.size
    if len(givens) != n * n or (values is not None and len(values) != n * n):
        raise ValueError(f"a {n}x{n} grid needs {n * n} values")
    values = givens if values is None else values
    marks = marks or {}
    struck = struck or {}
    px = cell_pixels(n)
    side = n * px + 2 * MARGIN
    start = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" '
        f'viewBox="0 0 {side} {side}" class="sudoku-grid">',
        f"<style>{STYLE}</style>",
    ]
    if title:
        start.append(f"<title>{escape(title)}</title>")
    start.append(f'<rect class="sg-bg" x="0" y="0" width="{side}" height="{side}"/>')

    def corner(c: int) -> tuple[int, int]:
        i, j = divmod(c, n)
        return MARGIN + j * px, MARGIN + i * px

    def fill(cells: Iterable[int], css: str) -> list[str]:
        rects = []
        for c in sorted(set(cells)):
            x, y = corner(c)
            rects.append(f'<rect class="{css}" x="{x}" y="{y}" width="{px}" height="{px}"/>')
        return rects

    if "jigsaw" in geometry.extras:
        for region, tint in zip(geometry.regions_of("box"), _tints(geometry), strict=True):
            start += fill(region.cells, f"sg-r{tint}")
    extras = [c for r in geometry.regions if r.kind in ("diagonal", "window") for c in r.cells]
    start += fill(extras, "sg-x")
    highlight = fill(shade, "sg-shade") + (fill([focus], "sg-focus") if focus is not None else [])
    big = round(px * 0.62)
    rows, columns = _keypad(n)
    small = max(6, round(min(px / columns * 0.82, px / rows * 0.82, big * 0.5)))
    cells = []
    for c in range(n * n):
        x, y = corner(c)
        marked, gone = marks.get(c, ()), struck.get(c, ())
        if values[c]:
            css = "sg-g" if givens[c] else ("sg-m" if values[c] in marked else "sg-v")
            cells.append(
                f'<text class="{css}" x="{x + px / 2:g}" y="{y + px / 2:g}" '
                f'font-size="{big}">{escape(geometry.symbol(values[c]))}</text>'
            )
            continue
        open_values = set(candidates[c]) if candidates is not None else set()
        piece = []
        for k in sorted(open_values | set(marked) | set(gone)):
            r, s = divmod(k - 1, columns)
            cx = x + (s + 0.5) * px / columns
            cy = y + (r + 0.5) * px / rows
            css = ' class="sg-m"' if k in marked else (' class="sg-s"' if k in gone else "")
            text = escape(geometry.symbol(k))
            piece.append(f'<text{css} x="{cx:.1f}" y="{cy:.1f}">{text}</text>')
        cells.append(f'<g class="sg-c" font-size="{small}">{"".join(piece)}</g>' if piece else "")
    return SvgParts("".join(start), "".join(highlight), _lines(geometry, px), tuple(cells))


def grid_svg(geometry: Geometry, givens: Sequence[int], *args, **kwargs) -> str:
    """Return the SVG text of `svg_parts` (same arguments): a grid's picture."""
    return svg_parts(geometry, givens, *args, **kwargs).svg()


def _tints(geometry: Geometry) -> list[int]:
    """Return a tint number (0-5) per box region, touching regions told apart (greedy
    colouring in region order: a planar map never needs more than 6 this way)."""
    n = geometry.size
    boxes = geometry.regions_of("box")
    box = _box_ids(geometry)
    tints: list[int] = []
    for region in boxes:
        touching = set()
        for c in region.cells:
            i, j = divmod(c, n)
            for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= a < n and 0 <= b < n and box[n * a + b] < region.index:
                    touching.add(tints[box[n * a + b]])
        tints.append(min(set(range(6)) - touching, default=0))
    return tints


def _lines(geometry: Geometry, px: int) -> str:
    """Return the grid's lines: thin between cells, thick between boxes and outside."""
    n = geometry.size
    box = _box_ids(geometry)
    thin, thick = [], []
    for i in range(n):
        for j in range(n):
            c = n * i + j
            x, y = MARGIN + j * px, MARGIN + i * px
            if j + 1 < n:  # the right side of the cell
                (thick if box[c] != box[c + 1] else thin).append((x + px, y, x + px, y + px))
            if i + 1 < n:  # the bottom side
                (thick if box[c] != box[c + n] else thin).append((x, y + px, x + px, y + px))
    end = MARGIN + n * px
    thick += [
        (MARGIN, MARGIN, end, MARGIN),
        (MARGIN, end, end, end),
        (MARGIN, MARGIN, MARGIN, end),
        (end, MARGIN, end, end),
    ]

    def path(css: str, segments: list[tuple[int, int, int, int]]) -> str:
        d = "".join(f"M{a} {b}L{c} {d}" for a, b, c, d in segments)
        return f'<path class="{css}" d="{d}"/>'

    return path("sg-thin", thin) + path("sg-thick", thick)


@dataclass(frozen=True)
class GridPicture:
    """A grid to look at: a notebook shows it as its SVG (`_repr_svg_`).

    >>> from encoder.geometry import standard
    >>> picture = GridPicture(standard(4), (1, 2, 3, 4) + (0,) * 12)
    >>> picture
    GridPicture(4x4, 2x2 boxes, 4 givens)
    >>> picture._repr_svg_().count("sg-g")  # four givens (and the style rule)
    5
    """

    geometry: Geometry
    givens: Grid
    values: Grid | None = None
    candidates: tuple[frozenset[int], ...] | None = None
    shade: tuple[int, ...] = ()
    focus: int | None = None
    marks: tuple[tuple[int, int], ...] = ()  # (cell, value) pairs drawn in red

    def __repr__(self) -> str:
        givens = sum(1 for v in self.givens if v)
        return f"GridPicture({self.geometry.describe()}, {givens} givens)"

    def _repr_svg_(self) -> str:
        marks: dict[int, set[int]] = {}
        for c, k in self.marks:
            marks.setdefault(c, set()).add(k)
        return grid_svg(
            self.geometry, self.givens, self.values, self.candidates, self.shade, self.focus, marks
        )
