"""Grid pictures: well-formed SVG for every geometry, and each element where it belongs.

The SVG is read back with an XML parser and its parts counted: one text per given and
per candidate, thick lines exactly along box (or jigsaw region) borders, shading on
the X diagonals and Windoku windows, highlights on the cells asked for.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from encoder.geometry import make_geometry, standard
from encoder.grids import parse_cells
from encoder.picture import GridPicture, cell_pixels, grid_svg, svg_parts

SVG = "{http://www.w3.org/2000/svg}"
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


def texts(svg: str, css: str | None = None) -> list[str]:
    root = ET.fromstring(svg)
    found = []
    for element in root.iter(f"{SVG}text"):
        classes = element.get("class") or ""
        if css is None or css in classes.split():
            found.append(element.text)
    return found


def rects(svg: str, css: str) -> list[tuple[int, int]]:
    """Return the (x, y) of every rectangle of class `css`."""
    root = ET.fromstring(svg)
    return [
        (int(r.get("x")), int(r.get("y"))) for r in root.iter(f"{SVG}rect") if r.get("class") == css
    ]


def thick_segments(svg: str) -> int:
    root = ET.fromstring(svg)
    path = next(p for p in root.iter(f"{SVG}path") if p.get("class") == "sg-thick")
    return path.get("d").count("M")


@pytest.mark.parametrize("size", [4, 6, 9, 12, 16, 25])
def test_every_size_draws_its_givens_and_candidates(size):
    geometry = make_geometry(size)
    grid = (1,) + (0,) * (size * size - 1)
    candidates = [set(range(2, size + 1))] * (size * size)
    svg = grid_svg(geometry, grid, candidates=candidates)
    assert texts(svg, "sg-g") == ["1"]
    small = [t for t in texts(svg) if t != "1"]  # every open cell shows its candidates
    assert len(small) == (size * size - 1) * (size - 1)
    assert set(small) == set(geometry.symbols[1:])
    side = int(ET.fromstring(svg).get("width"))
    assert side == size * cell_pixels(size) + 6


def test_thick_lines_follow_the_boxes():
    # 9x9: 2 inner thick lines per direction, 9 cells long: 36 unit segments, + 4 sides
    assert thick_segments(grid_svg(standard(9), (0,) * 81)) == 36 + 4
    # no boxes: only the outside
    latin = make_geometry(9, boxes=False)
    assert thick_segments(grid_svg(latin, (0,) * 81)) == 4


def test_jigsaw_borders_are_where_regions_change():
    # Region r: row r but its last cell, which belongs to region r + 1 (mod 9).
    ids = tuple(((c // 9) + (1 if c % 9 == 8 else 0)) % 9 for c in range(81))
    geometry = make_geometry(9, jigsaw=ids)
    borders = sum(
        1
        for c in range(81)
        for d in ((1,) if c % 9 < 8 else ()) + ((9,) if c < 72 else ())
        if ids[c] != ids[c + d]
    )
    assert thick_segments(grid_svg(geometry, (0,) * 81)) == borders + 4
    svg = grid_svg(geometry, (0,) * 81)
    tints = [rect for css in (f"sg-r{t}" for t in range(6)) for rect in rects(svg, css)]
    assert len(tints) == 81  # every cell tinted by its region


def test_variants_are_shaded():
    x = grid_svg(make_geometry(9, diagonals=True), (0,) * 81)
    assert len(rects(x, "sg-x")) == 17  # two diagonals of 9 sharing the centre
    hyper = grid_svg(make_geometry(9, windows=True), (0,) * 81)
    assert len(rects(hyper, "sg-x")) == 36
    assert rects(grid_svg(standard(9), (0,) * 81), "sg-x") == []


def test_highlights_and_marks():
    grid = parse_cells(EASTER_MONSTER, standard(9))
    values = list(grid)
    values[1] = 7  # a value found
    svg = grid_svg(
        standard(9),
        grid,
        values,
        candidates=[{4, 7}] * 81,
        shade=range(9),
        focus=2,
        marks={2: {4}},
        struck={3: {7}},
    )
    assert len(rects(svg, "sg-shade")) == 9
    assert rects(svg, "sg-focus") == [(3 + 2 * 56, 3)]
    assert texts(svg, "sg-v") == ["7"]
    assert texts(svg, "sg-m") == ["4"]
    assert texts(svg, "sg-s") == ["7"]
    assert len(texts(svg, "sg-g")) == sum(1 for v in grid if v)


def test_parts_join_to_the_picture():
    grid = parse_cells(EASTER_MONSTER, standard(9))
    parts = svg_parts(standard(9), grid, shade=[0])
    assert parts.svg() == grid_svg(standard(9), grid, shade=[0])
    assert len(parts.cells) == 81


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="81 values"):
        grid_svg(standard(9), (0,) * 80)


def test_a_picture_shows_itself_in_a_notebook():
    picture = GridPicture(standard(4), (1, 2, 3, 4) + (0,) * 12)
    assert picture._repr_svg_() == grid_svg(standard(4), picture.givens)
