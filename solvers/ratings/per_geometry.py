"""Work done once per grid geometry: the raters and solver backends kept loaded, and
runs of consecutive grids that share a geometry.

A rater or a backend holds one geometry's rule formula (11,988 clauses for 9x9), so
it is built once and reused for every grid of that geometry (a harness backend, by a
worker process for every chunk it runs: `kept_by_worker`); a jigsaw file brings a new
geometry with each grid, so only the last few stay loaded.  `solvers rate` and the
harness (`benchmarks.chunks`) rate runs of grids of one geometry in one compiled call
each.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

MAX_LOADED = 4  # raters or backends kept loaded (one per geometry; jigsaw files have many)

Item = TypeVar("Item")


def keep_loaded(cache: dict, key, make, limit: int = MAX_LOADED, drop=None):
    """Return cache[key], made by `make(key)` the first time; beyond `limit` entries the
    least recently used is dropped (and handed to `drop`, e.g. to close a solver).  One
    geometry's raters or backends are built once, a jigsaw file's many geometries a few
    at a time.  The one cache of what is loaded per geometry (`solvers rate`, the
    harness's raters and solver backends)."""
    item = cache.pop(key, None)
    if item is None:
        while len(cache) >= limit:
            oldest = cache.pop(next(iter(cache)))
            if drop is not None:
                drop(oldest)
        item = make(key)
    cache[key] = item  # now the most recently used
    return item


# What a worker keeps loaded from one chunk to the next (`kept_by_worker`): one cache
# per thread, since a Dask worker may run chunks in several threads at once, and a kept
# backend answers one call at a time.
_KEPT = threading.local()
WORKER_LOADED = 4 * MAX_LOADED  # a few solvers' backends for a few geometries


def _kept() -> dict:
    if not hasattr(_KEPT, "items"):
        _KEPT.items = {}
    return _KEPT.items


def kept_by_worker(key: Hashable, make: Callable[[], Item]) -> Item:
    """Return what `make()` builds for `key`, built once per worker thread: the
    harness's backends that keep no memory between calls (rewound at each chunk) serve
    every chunk a worker runs, not only the one that built them (building the engine of
    a 9x9 formula costs as much as a few hundred unit propagations).  `key` names
    everything the item depends on (its kind, encoding, time limit, geometry).  Least
    recently used items beyond WORKER_LOADED are dropped, closed first when they can
    be."""
    return keep_loaded(_kept(), key, lambda _: make(), WORKER_LOADED, _close)


def forget_kept() -> None:
    """Drop (and close) everything `kept_by_worker` keeps in this thread: for a test
    that replaced a factory, so that no later test is served what it built."""
    kept = _kept()
    while kept:
        _close(kept.popitem()[1])


def _close(item) -> None:
    close = getattr(item, "close", None)
    if close is not None:
        close()


def geometry_runs(
    items: Iterable[Item], geometry_of: Callable[[Item], Hashable], most: int | None = None
) -> Iterator[list[Item]]:
    """Yield runs of consecutive items of one geometry (`geometry_of(item)`), each of at
    most `most` items (None: no bound)."""
    run: list[Item] = []
    for item in items:
        if run and (
            (most is not None and len(run) >= most) or geometry_of(item) != geometry_of(run[0])
        ):
            yield run
            run = []
        run.append(item)
    if run:
        yield run
