"""The compiled extensions of the native core (solvers/core/native, built by the package's
own build) and the constants they define: one definition of each, in C, read here.

SUDOKU_SAT_CORE, when set, is a folder of other builds of the extensions to load
instead (the sanitizer test builds them there).  A checkout installed with `pip install
.` (not `-e`) has no build in place: run from it, its `solvers` loads the installed
extensions, when they were compiled from its own sources (SOURCES_DIGEST).  The
board's kernels are compiled for several instruction sets and the best this processor
runs is used (`variant()`); `variants()` lists those it runs and `use_variant(name)`
picks one (the tests run each).
"""

from __future__ import annotations

import importlib
import os
import runpy
import sysconfig
from dataclasses import dataclass
from importlib.machinery import ExtensionFileLoader
from importlib.util import module_from_spec, spec_from_loader

import numpy as np

__all__ = [
    "DECISIONS", "DEPTH_BAD", "DEPTH_BUDGET", "DEPTH_OPEN", "DEPTH_SAT", "DEPTH_TIMEOUT",
    "DEPTH_UNSAT", "EXHAUSTED", "FOUND", "MAX_COUNT", "MAX_DEPTH", "MAX_SECONDS", "MAX_SIDE",
    "PROBE_BUDGET", "PROBE_CONFLICT", "PROBE_OK", "PROBE_TIME", "STATUS_BAD", "STATUS_BUDGET",
    "STATUS_CONFLICT", "STATUS_DECISIONS", "STATUS_EXHAUSTED", "STATUS_FOUND",
    "STATUS_INTERRUPT", "STATUS_OPEN", "STATUS_SAT", "STATUS_TIME", "TIME", "WORK",
    "Closures", "Depths", "GridClosures", "GridCounts", "load_extension", "use_variant",
    "variant", "variants",
]  # fmt: skip


def load_extension(name: str):
    """The compiled extension `solvers.core.<name>` (build.py lists them), or the build of
    it in the folder SUDOKU_SAT_CORE names (the sanitizer test builds one there)."""
    folder = os.environ.get("SUDOKU_SAT_CORE")
    if folder:
        return _load_file(name, os.path.join(folder, name + sysconfig.get_config_var("EXT_SUFFIX")))
    try:
        return importlib.import_module("solvers.core." + name)
    except ModuleNotFoundError:  # a checkout whose C sources were not compiled in place
        return _installed(name)


def _load_file(name: str, path: str):
    loader = ExtensionFileLoader("solvers.core." + name, path)
    module = module_from_spec(spec_from_loader("solvers.core." + name, loader))
    loader.exec_module(module)
    return module


def _installed(name: str):
    """The extension `pip install .` built from this checkout, run from the checkout
    (whose own `solvers` then comes first on the path): the installed copy, when it was
    compiled from the same native sources (its SOURCES_DIGEST); else an ImportError
    saying how to build the core."""
    from importlib import metadata

    here = os.path.dirname(__file__)
    root = os.path.dirname(os.path.dirname(here))
    build = os.path.join(here, "native", "build.py")
    file = f"solvers/core/{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
    problem = f"the native core is not built in {here}"
    # every copy of the project's metadata (a checkout's own egg-info comes first when
    # run from it: it lists no built file), the installed one among them
    installed = [
        path
        for dist in metadata.distributions(name="sudoku-sat")
        for f in dist.files or ()
        if str(f) == file and os.path.isfile(path := str(dist.locate_file(f)))
    ]
    if installed and os.path.isfile(build):
        module = _load_file(name, installed[0])
        if runpy.run_path(build)["digest"](root) == module.SOURCES_DIGEST:
            return module
        problem += f", and the one installed ({installed[0]}) was built from other sources"
    raise ImportError(
        f"{problem}: run `pip install -e .` in the checkout (or `pip install .` again), "
        "which compiles solvers/core/native"
    ) from None


_core = load_extension("_core")

variants = _core.variants  # the variants this processor runs, best last
variant = _core.variant  # the variant in use
use_variant = _core.use_variant  # use_variant(name): use that one

# The bounds the boundary enforces (bounds.h), one definition: a depth's nesting of
# hypotheses, the board's side, a count or work budget, a time limit in seconds.
MAX_DEPTH = _core.MAX_DEPTH
MAX_SIDE = _core.MAX_SIDE
MAX_COUNT = _core.MAX_COUNT
MAX_SECONDS = _core.MAX_SECONDS

# The one vocabulary of outcomes (status.h), read from the extension: every kernel of the
# board, the clause engine and the search says how a call or a grid ended with one of
# these (a kernel whose answer is also a count returns -status).
STATUS_OPEN = _core.STATUS_OPEN
STATUS_SAT = _core.STATUS_SAT
STATUS_CONFLICT = _core.STATUS_CONFLICT
STATUS_BAD = _core.STATUS_BAD
STATUS_TIME = _core.STATUS_TIME
STATUS_BUDGET = _core.STATUS_BUDGET
STATUS_INTERRUPT = _core.STATUS_INTERRUPT
STATUS_FOUND = _core.STATUS_FOUND
STATUS_EXHAUSTED = _core.STATUS_EXHAUSTED
STATUS_DECISIONS = _core.STATUS_DECISIONS

# A grid's outcome in a depth loop, by the names its callers use.
DEPTH_OPEN = STATUS_OPEN  # no depth up to max_depth fills it
DEPTH_SAT = STATUS_SAT  # the closure of its depth fills the grid
DEPTH_UNSAT = STATUS_CONFLICT  # the closure of its depth is contradictory
DEPTH_BAD = STATUS_BAD  # a value outside 0..N
DEPTH_TIMEOUT = STATUS_TIME  # its opt-in time limit passed (the clause engine's)
DEPTH_BUDGET = STATUS_BUDGET  # its work budget ran out at its depth
# Clauses.bounded_probe's outcomes: PROBE_OK, else the kernel's -status.
PROBE_OK = 0
PROBE_CONFLICT = -STATUS_CONFLICT
PROBE_BUDGET = -STATUS_BUDGET
PROBE_TIME = -STATUS_TIME
# A search's outcomes (Clauses.search).
FOUND = STATUS_FOUND  # max_models models found
EXHAUSTED = STATUS_EXHAUSTED  # no (further) model
DECISIONS = STATUS_DECISIONS  # the decision budget ran out
WORK = STATUS_BUDGET  # the work budget ran out
TIME = STATUS_TIME  # the deadline passed


@dataclass(frozen=True)
class Depths:
    """The depth rating of many grids, one entry per grid: `status` (DEPTH_*), `depth`
    (the depth that settled it, the last one tried when open, the one the budget
    stopped), `solutions` (the cells placed: the filled grid when SAT), `seconds` (the
    kernel's time on the grid) and `work` (the work units it spent)."""

    status: np.ndarray
    depth: np.ndarray
    solutions: np.ndarray
    seconds: np.ndarray
    work: np.ndarray


@dataclass(frozen=True)
class GridClosures:
    """The closures of one depth of many grids on the board (`Board.closures`), one entry
    per grid: `status` (DEPTH_*: SAT when the closure places every cell, OPEN, UNSAT,
    BAD for a value outside 0..N, BUDGET, TIMEOUT), `depth` (the first depth of the
    loop that settled it: 0 when propagation alone fills or contradicts it),
    `solutions` (the cells placed: the filled grid when SAT), `open` (the cell variables
    an OPEN closure leaves open: each candidate of a cell not placed), `conflicts`
    (failed hypotheses and contradictory frames), `work` (the board's units) and
    `seconds`."""

    status: np.ndarray
    depth: np.ndarray
    solutions: np.ndarray
    open: np.ndarray
    conflicts: np.ndarray
    work: np.ndarray
    seconds: np.ndarray


@dataclass(frozen=True)
class GridCounts:
    """The solutions of many grids counted on the board (`Board.count`), one entry per
    grid: `models` (counted up to the cap), `status` (EXHAUSTED: every solution counted;
    FOUND: the cap reached, `models` a lower bound; WORK or TIME: the work budget or the
    opt-in time limit stopped it, `models` a lower bound; STATUS_BAD: a value outside
    0..N), `decisions`, `conflicts` (branches that failed), `work` (the board's units:
    cells placed and decisions),
    `seconds`, and `solutions` (each grid's first solution, 0s without one; None unless
    asked for)."""

    models: np.ndarray
    status: np.ndarray
    decisions: np.ndarray
    conflicts: np.ndarray
    work: np.ndarray
    seconds: np.ndarray
    solutions: np.ndarray | None

    @property
    def complete(self) -> np.ndarray:
        """True where every solution was counted."""
        return self.status == STATUS_EXHAUSTED

    @property
    def stopped(self) -> np.ndarray:
        """True where the work budget or the time limit stopped the count."""
        return (self.status == STATUS_BUDGET) | (self.status == STATUS_TIME)


@dataclass(frozen=True)
class Closures:
    """The closures of one depth of many assumption sets (`Clauses.closures`), one entry
    per set, `status` (DEPTH_*: SAT when the closure
    assigns every one of the first `cell_vars` variables, OPEN, UNSAT, BAD for a literal
    beyond the formula, BUDGET), `assigned` (of those variables, root level included),
    `conflicts` (failed hypotheses and contradictory frames), `work`, `seconds`, and
    `true` (the variables true in the closure, one row per set; SAT rows only)."""

    status: np.ndarray
    assigned: np.ndarray
    conflicts: np.ndarray
    work: np.ndarray
    seconds: np.ndarray
    true: np.ndarray
