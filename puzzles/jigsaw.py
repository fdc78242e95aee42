"""Random jigsaw region maps: N connected regions of N cells each.

We start from the regular boxes and apply random swaps that keep every region's size:
a cell on the border of region A moves into a neighbouring region B while a cell of B
touching A moves into A; the swap is kept only when both regions stay connected
(4-neighbourhood).  After enough swaps the boxes are unrecognisable.  Not every such map
admits a full grid, so `random_jigsaw` draws maps until one is completed, and returns
the map with that grid: by the randomized search of `puzzles.fullgrid` up to 9x9,
by Minisat22 steered by random phases from 12x12 on (the search rarely completes a
16x16 jigsaw map; the solver takes about a second).  Sizes up to 9x9 keep the search,
so the files of generator version 1 are made again identically.

Roads not taken: growing regions from random seeds (breadth-first) often ends with a
region that cannot reach N cells; rejecting those wastes most draws.
"""

from __future__ import annotations

import random

from encoder.errors import GridError
from encoder.geometry import (
    DEFAULT_SYMBOLS,
    Geometry,
    block_cells,
    default_box,
    make_geometry,
    orthogonal_neighbours,
    pieces,
)
from encoder.numbering import Grid
from puzzles.fullgrid import GridSampler, phase_guided_grid

RegionMap = tuple[int, ...]  # region index 0..N-1 of every cell


def random_region_map(n: int, rng: random.Random, swaps: int | None = None) -> RegionMap:
    """Return a random map of N connected regions of N cells (`swaps` kept swaps,
    default 2*N*N)."""
    box = default_box(n)
    if box is None:
        raise GridError(f"a {n}x{n} grid has no boxes to start a jigsaw map from")
    owner = [0] * (n * n)
    for b in range(n):
        for c in block_cells(n, box, b):
            owner[c] = b
    members = [{c for c in range(n * n) if owner[c] == b} for b in range(n)]
    wanted = 2 * n * n if swaps is None else swaps
    done = 0
    for _ in range(50 * wanted):
        if done >= wanted:
            break
        a = rng.randrange(n * n)
        region_a = owner[a]
        others = [d for d in orthogonal_neighbours(n, a) if owner[d] != region_a]
        if not others:
            continue
        region_b = owner[rng.choice(others)]
        touching = sorted(
            c
            for c in members[region_b]
            if any(owner[d] == region_a and d != a for d in orthogonal_neighbours(n, c))
        )
        if not touching:
            continue
        c = rng.choice(touching)
        new_a = members[region_a] - {a} | {c}
        new_b = members[region_b] - {c} | {a}
        if pieces(n, new_a) == 1 and pieces(n, new_b) == 1:
            members[region_a], members[region_b] = new_a, new_b
            owner[a], owner[c] = region_b, region_a
            done += 1
    return tuple(owner)


def map_text(region_map: RegionMap) -> str:
    """Return the map as N*N region symbols (1-9 then A-P), as in `puzzle|regions` lines."""
    return "".join(DEFAULT_SYMBOLS[r] for r in region_map)


def jigsaw_geometry(region_map: RegionMap, base: Geometry) -> Geometry:
    """Return `base` (its size, diagonals, windows, symbols) with the map's regions."""
    return make_geometry(
        base.size,
        diagonals="diagonals" in base.extras,
        windows="windows" in base.extras,
        jigsaw=region_map,
        symbols=base.symbols,
    )


MAX_DRAWS = 100
SOLVER_FROM = 12  # jigsaw sizes completed by phase_guided_grid


def draw_jigsaw(base: Geometry, rng: random.Random) -> tuple[GridSampler, Grid, RegionMap] | None:
    """Return (solver of the jigsaw geometry, a random full grid of it, its region map)
    for one random map, or None when the map was not completed: its grid search
    restarted three times, or the solver found no grid within its conflict budget
    (`puzzles.fullgrid.PHASE_GUIDED_CONFLICTS`).  Generation counts each draw as an
    attempt, so that --attempts bounds them."""
    region_map = random_region_map(base.size, rng)
    geometry = jigsaw_geometry(region_map, base)
    if base.size >= SOLVER_FROM:
        grid = phase_guided_grid(geometry, rng)
        return None if grid is None else (GridSampler(geometry), grid, region_map)
    solver = GridSampler(geometry)
    grid = solver.random_completion(rng, max_restarts=2)
    return None if grid is None else (solver, grid, region_map)


def random_jigsaw(base: Geometry, rng: random.Random) -> tuple[GridSampler, Grid, RegionMap]:
    """Return what `draw_jigsaw` returns for the first map completed; after MAX_DRAWS
    maps GridError is raised (in practice one to three draws up to 16x16)."""
    for _ in range(MAX_DRAWS):
        drawn = draw_jigsaw(base, rng)
        if drawn is not None:
            return drawn
    raise GridError(f"no random jigsaw map of size {base.size} completed in {MAX_DRAWS} draws")
