"""Puzzle generation for any geometry, reproducible from a seed.

Four ways to make puzzles, after the school papers and beyond them, and the full grids
they start from:

| method    | how a puzzle is made                                         | unique?       |
|-----------|--------------------------------------------------------------|---------------|
| `random`  | paper's first method: K givens placed one by one on random   | rarely        |
|           | empty cells, each a random value not already among its peers;|               |
|           | a cell with no such value is a dead end and the placement    |               |
|           | starts over (dead ends are counted and reported)             |               |
| `remove`  | paper's second method: a fresh random full grid, then all but| from ~30      |
|           | K random givens removed                                      | givens on     |
| `minimal` | a fresh random full grid, then each cell in random order is  | always, and   |
|           | emptied if the solution stays unique: every remaining given  | minimal       |
|           | is necessary (emptying a cell only ever adds solutions, so a |               |
|           | given found necessary stays necessary)                       |               |
| `depth`   | minimal puzzles, kept when their depth rating                | always        |
|           | (`solvers.ratings.depth`) is the one asked for                |               |
| `full`    | the random full grids themselves (solutions, no blank)       | (solved)      |

Full grids come from `puzzles.fullgrid` (randomized search with the engine's
propagation); with `Request.jigsaw` every puzzle gets a fresh random region map
(`puzzles.jigsaw`) and is written as `puzzle|regions`.  One random stream
(`random.Random(seed)`) drives everything in order, so a request and its seed give the
same puzzles; GENERATOR_VERSION changes whenever that stops being true.  Puzzles already
produced are skipped (small grids repeat), and `Request.attempts` bounds the number of
candidate puzzles tried, so a rare target (depth 2) ends with whatever was found; with
jigsaw a region map drawn but not completed (`puzzles.jigsaw.draw_jigsaw`: within a
conflict budget from 12x12 on) is an attempt too.  Ctrl-C ends `generate` with the
puzzles found so far (`Report.interrupted`).

The command `python -m benchmarks generate` (`puzzles.generate`) reads the flags, shows
the progress and writes the file: `header` and `summary` are its texts.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from encoder.errors import GridError, InputError
from encoder.geometry import Geometry
from encoder.grids import format_line
from encoder.numbering import Grid
from encoder.status import Status
from encoder.variant import Variant
from puzzles.fullgrid import SEARCHED_UP_TO, GridSampler, pattern_full_grid, sampler_for
from puzzles.jigsaw import RegionMap, draw_jigsaw, map_text
from solvers.ratings.depth import Rater

GENERATOR_VERSION = 1
METHODS = ("random", "remove", "minimal", "depth", "full")


@dataclass(frozen=True)
class Request:
    """What to generate; with a geometry and a seed it determines the output."""

    method: str
    count: int
    seed: int
    givens: int | None = None  # random/remove: exactly this many; minimal/depth: at most
    depth: int | None = None  # depth: the rating wanted
    unique: bool = False  # random/remove: keep only puzzles with one solution
    attempts: int | None = None  # candidate puzzles to try at most (None: 1000 per puzzle)
    jigsaw: bool = False  # a fresh random region map per puzzle

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}; choose from {', '.join(METHODS)}")
        if self.method in ("random", "remove") and self.givens is None:
            raise ValueError(f"method {self.method} needs a number of givens")
        if self.method == "full" and (self.givens is not None or self.unique):
            raise ValueError("method full makes full grids: --givens and --unique do not apply")
        if self.method == "depth" and (self.depth is None or self.depth < 0):
            raise ValueError("method depth needs a depth >= 0")
        if self.count < 0 or (self.attempts is not None and self.attempts < 0):
            raise ValueError("count and attempts must be >= 0")

    @property
    def max_attempts(self) -> int:
        return 1000 * max(self.count, 1) if self.attempts is None else self.attempts


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A generated puzzle, its geometry, and its region map when it is a jigsaw."""

    grid: Grid
    geometry: Geometry
    region_map: RegionMap = ()  # empty unless the puzzle has its own jigsaw map

    def line(self) -> str:
        """Return the puzzle as one line: N*N symbols, '.' for blanks (+ '|map')."""
        text = format_line(self.grid, self.geometry)
        return f"{text}|{map_text(self.region_map)}" if self.region_map else text

    @property
    def givens(self) -> int:
        return sum(1 for k in self.grid if k)


@dataclass(frozen=True)
class Report:
    """The puzzles of one generation run and what it took to make them."""

    puzzles: tuple[GeneratedPuzzle, ...]
    attempts: int  # candidate puzzles made (accepted, filtered out or duplicates)
    placements: int  # method random: placements started (dead ends included)
    dead_ends: int  # method random: placements abandoned on a cell with no legal value
    duplicates: int
    solutions: dict[str, int] = field(default_factory=dict)  # random/remove: tally
    seconds: float = 0.0
    maps_not_completed: int = 0  # --jigsaw: region maps drawn but not completed
    interrupted: bool = False  # Ctrl-C: the puzzles are those found before it


# Placements tried before random_placement gives up: k = 65 givens on a 9x9 grid meets
# about 30,000 dead ends, k = 70 and beyond practically never succeed.
MAX_PLACEMENTS = 100_000


class PlacementError(InputError):
    """k givens that random placement does not manage to place: one line, no file."""

    def __str__(self) -> str:
        return self.message


def random_placement(
    geometry: Geometry, k: int, rng: random.Random, tries: int | None = None
) -> tuple[Grid, int]:
    """Return (k givens placed at random obeying every region, dead ends met first).

    Cells are taken in random order; each gets a random value not held by a peer.  When
    a cell has no such value the placement is a dead end and starts again, `tries` times
    at most (default MAX_PLACEMENTS): then PlacementError."""
    tries = MAX_PLACEMENTS if tries is None else tries
    n = geometry.size
    if not 0 <= k <= n * n:
        raise ValueError(f"cannot place {k} givens on {n * n} cells")
    for dead_ends in range(tries):
        grid = [0] * (n * n)
        cells = list(range(n * n))
        rng.shuffle(cells)
        for c in cells[:k]:
            used = {grid[p] for p in geometry.peers[c]}
            legal = [v for v in range(1, n + 1) if v not in used]
            if not legal:
                break
            grid[c] = rng.choice(legal)
        else:
            return tuple(grid), dead_ends
    raise PlacementError(
        f"no random placement of {k} givens on the {n}x{n} grid obeys every region "
        f"in {tries:,} tries; fewer givens, or the method 'remove', give grids"
    )


def remove_givens(full: Grid, k: int, rng: random.Random) -> Grid:
    """Return `full` with all but k randomly chosen cells emptied."""
    if not 0 <= k <= len(full):
        raise ValueError(f"cannot keep {k} givens of {len(full)} cells")
    keep = set(rng.sample(range(len(full)), k))
    return tuple(v if c in keep else 0 for c, v in enumerate(full))


def minimal_puzzle(solver: GridSampler, full: Grid, rng: random.Random) -> Grid:
    """Return a minimal unique puzzle of the full grid: cells are emptied in random order
    while the solution stays unique, so every remaining given is necessary (the order
    drawn here, the tests made by the board in one call: `GridSampler.minimal`)."""
    order = list(range(len(full)))
    rng.shuffle(order)
    return solver.minimal(full, order)


@lru_cache(maxsize=8)
def _rater(geometry: Geometry) -> Rater:
    return Rater(geometry)


def rater_for(geometry: Geometry) -> Rater:
    """Return a depth rater for the geometry (cached for fixed geometries)."""
    return _rater(geometry) if "jigsaw" not in geometry.extras else Rater(geometry)


class Generator:
    """Makes candidate puzzles of one request from one random stream."""

    def __init__(self, request: Request, geometry: Geometry):
        self.request = request
        self.geometry = geometry
        self.rng = random.Random(request.seed)
        self.placements = 0
        self.dead_ends = 0
        self.maps_not_completed = 0
        # A fixed jigsaw map (--regions) is written on every line, so files stand alone.
        self.fixed_map: RegionMap = ()
        if "jigsaw" in geometry.extras:
            owner = [0] * geometry.num_cells
            for region in geometry.regions_of("box"):
                for c in region.cells:
                    owner[c] = region.index
            self.fixed_map = tuple(owner)

    def _source(self) -> tuple[GridSampler | None, Grid, RegionMap] | None:
        """Return (solver, a fresh random full grid, region map or ()), or None when the
        region map drawn for it (--jigsaw) was not completed.  Beyond 25x25 the grid is a
        shuffled pattern and there is no solver (nothing is counted)."""
        if self.geometry.size > SEARCHED_UP_TO:
            return None, pattern_full_grid(self.geometry, self.rng), self.fixed_map
        if self.request.jigsaw:
            return self._jigsaw()
        solver = sampler_for(self.geometry)
        full = solver.random_completion(self.rng)
        if full is None:
            raise GridError(f"{self.geometry.describe()}: no full grid exists")
        return solver, full, self.fixed_map

    def _jigsaw(self) -> tuple[GridSampler, Grid, RegionMap] | None:
        drawn = draw_jigsaw(self.geometry, self.rng)
        self.maps_not_completed += drawn is None
        return drawn

    def candidate(self) -> tuple[GeneratedPuzzle, GridSampler | None] | None:
        """Return the next candidate puzzle (before filters) and its geometry's solver,
        or None when the region map drawn for it (--jigsaw) was not completed."""
        req = self.request
        if req.method == "random":
            if req.jigsaw:
                drawn = self._jigsaw()
                if drawn is None:
                    return None
                solver, _, region_map = drawn
            else:
                solver, region_map = sampler_for(self.geometry), self.fixed_map
            grid, dead_ends = random_placement(solver.geometry, req.givens or 0, self.rng)
            self.placements += dead_ends + 1
            self.dead_ends += dead_ends
            return GeneratedPuzzle(grid, solver.geometry, region_map), solver
        source = self._source()
        if source is None:
            return None
        solver, full, region_map = source
        if req.method == "remove":
            grid = remove_givens(full, req.givens or 0, self.rng)
        elif req.method == "full":
            grid = full
        else:
            assert solver is not None
            grid = minimal_puzzle(solver, full, self.rng)
        geometry = self.geometry if solver is None else solver.geometry
        return GeneratedPuzzle(grid, geometry, region_map), solver

    def accept(
        self, puzzle: GeneratedPuzzle, solver: GridSampler | None, tally: dict[str, int]
    ) -> bool:
        """Return True when the candidate passes the request's filters (always beyond
        25x25, where solutions are not counted)."""
        req = self.request
        if solver is None:
            return True
        if req.method in ("random", "remove"):
            count = solver.two_or_fewer(puzzle.grid)
            kind = "unique" if count.unique else "none" if count.count == 0 else "several"
            tally[kind] += 1
            return count.unique or not req.unique
        if req.givens is not None and puzzle.givens > req.givens:
            return False
        if req.method == "depth":
            rating = rater_for(puzzle.geometry).rate(puzzle.grid, max_depth=req.depth or 0)
            return rating.status is Status.SAT and rating.depth == req.depth
        return True


def generate(
    request: Request, geometry: Geometry, progress: Callable[[int, int], None] | None = None
) -> Report:
    """Generate the request's puzzles; `progress(accepted, attempts)` after each attempt.
    Ctrl-C ends the run with the puzzles found before it (`Report.interrupted`)."""
    start = time.perf_counter()
    generator = Generator(request, geometry)
    puzzles: list[GeneratedPuzzle] = []
    seen: set[str] = set()
    tally = {"unique": 0, "several": 0, "none": 0}
    attempts = duplicates = 0
    interrupted = False
    try:
        while len(puzzles) < request.count and attempts < request.max_attempts:
            attempts += 1
            made = generator.candidate()
            if made is not None:  # None: a jigsaw map not completed, an attempt spent
                puzzle, solver = made
                line = puzzle.line()
                if line in seen:
                    duplicates += 1
                elif generator.accept(puzzle, solver, tally):
                    seen.add(line)
                    puzzles.append(puzzle)
            if progress is not None:
                progress(len(puzzles), attempts)
    except KeyboardInterrupt:
        interrupted = True
    return Report(
        puzzles=tuple(puzzles),
        attempts=attempts,
        placements=generator.placements,
        dead_ends=generator.dead_ends,
        duplicates=duplicates,
        solutions=tally
        if request.method in ("random", "remove") and geometry.size <= SEARCHED_UP_TO
        else {},
        seconds=time.perf_counter() - start,
        maps_not_completed=generator.maps_not_completed,
        interrupted=interrupted,
    )


def describe_request(request: Request) -> str:
    """Return a one-line description of the method and its parameters."""
    if request.method == "random":
        text = f"random placement of {request.givens} givens obeying the rules (method 1)"
    elif request.method == "remove":
        text = f"{request.givens} givens kept from a random full grid (method 2)"
    elif request.method == "minimal":
        text = "minimal puzzles with a unique solution"
    elif request.method == "full":
        text = "random full grids (randomized search on the empty grid)"
    else:
        text = f"minimal unique puzzles of depth rating {request.depth} (centrale encoding)"
    if request.unique and request.method in ("random", "remove"):
        text += ", unique solution only"
    if request.givens is not None and request.method in ("minimal", "depth"):
        text += f", at most {request.givens} givens"
    return text


def geometry_flags(variant: Variant, geometry: Geometry) -> str:
    """Return the geometry flags that read the output back (jigsaw maps are on the lines)."""
    return Variant(
        size=geometry.size,
        box=variant.box,
        diagonals=variant.diagonals,
        windows=variant.windows,
        no_boxes=variant.no_boxes,
        symbols=variant.symbols or None,
    ).flags()


def header(
    request: Request, geometry: Geometry, command: str, flags: str, report: Report
) -> list[str]:
    jigsaw = request.jigsaw or "jigsaw" in geometry.extras
    variant = geometry.describe()
    if request.jigsaw:  # the base geometry's boxes are replaced by each line's map
        extras = [e for e in geometry.extras if e in ("diagonals", "windows")]
        variant = ", ".join([f"{geometry.size}x{geometry.size}", "random jigsaw regions", *extras])
    method = describe_request(request)
    if geometry.size > SEARCHED_UP_TO:
        method += "; full grids: the box pattern shuffled (puzzles.fullgrid.pattern_full_grid)"
    lines = [
        f"# sudoku-sat generated puzzles: {len(report.puzzles)}, {variant}",
        f"# method: {method}",
        f"# command: {command}",
        f"# seed: {request.seed}; generator version: {GENERATOR_VERSION}",
        f"# geometry: {flags}",
    ]
    if jigsaw:
        lines.append("# lines: puzzle|regions (N*N cells, then the region of each cell)")
    if report.interrupted:
        lines.append(
            f"# interrupted (Ctrl-C) after {len(report.puzzles)} of {request.count} puzzles: "
            "the command makes these first"
        )
    return lines


def summary(request: Request, report: Report) -> str:
    """Return the run's report, printed on stderr."""
    parts = [
        f"{len(report.puzzles)} of {request.count} puzzles in {report.attempts} attempts, "
        f"{report.seconds:.2f} s"
    ]
    if report.duplicates:
        parts.append(f"{report.duplicates} duplicates skipped")
    if report.maps_not_completed:
        parts.append(f"{report.maps_not_completed} jigsaw maps not completed")
    if report.solutions:
        tally = report.solutions
        parts.append(
            f"candidates: {tally['unique']} unique, {tally['several']} with several "
            f"solutions, {tally['none']} with none"
        )
    if request.method == "random":
        share = report.dead_ends / report.placements if report.placements else 0.0
        parts.append(
            f"dead ends: {report.dead_ends} of {report.placements} placements ({share:.1%})"
        )
    if report.interrupted:
        parts.append("interrupted")
    elif len(report.puzzles) < request.count:
        parts.append(f"stopped at --attempts {request.max_attempts}")
    return "generate: " + "; ".join(parts)
