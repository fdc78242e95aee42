"""The Python side of the core's boundary: the arguments every kernel takes (grids as
int8 rows, literal sets as flat and offsets arrays, budgets, time limits, polarity),
made once here so that each face passes the extension what its C boundary checks."""

from __future__ import annotations

import math

import numpy as np

POLARITIES = ("both", "positive")


def grid_rows(grids, cells: int) -> np.ndarray:
    """Return grids (rows of `cells` values) as a C-contiguous int8 array, without a copy
    when they are one already; raise ValueError or TypeError naming what is wrong."""
    a = np.asarray(grids)
    if a.size == 0 and a.ndim <= 2 and a.shape[-1:] in ((0,), (cells,)):
        return np.zeros((0, cells), np.int8)
    if a.dtype.kind not in "iu":  # a float, bool or object grid is another grid once cast
        raise TypeError(f"grids must hold integers, not {a.dtype}")
    if a.ndim != 2 or a.shape[1] != cells:
        raise ValueError(f"grids must be rows of {cells} values, not an array of shape {a.shape}")
    if a.dtype != np.int8:
        if a.size and (a.min() < -128 or a.max() > 127):  # int8 would wrap them
            raise ValueError(f"grid values must lie in 0..N, not {a.min()}..{a.max()}")
        a = a.astype(np.int8)
    return np.ascontiguousarray(a)


def literal_sets(sets) -> tuple[np.ndarray, np.ndarray]:
    """Return lists of DIMACS ints as (flat, offsets) int64 arrays."""
    sets = [list(s) for s in sets]
    offsets = np.zeros(len(sets) + 1, np.int64)
    np.cumsum([len(s) for s in sets], out=offsets[1:])
    flat = np.fromiter((lit for s in sets for lit in s), np.int64, int(offsets[-1]))
    return flat, offsets


def polarity_flag(polarity: str) -> bool:
    """The kernels' flag for `polarity`: True for cell=value hypotheses only."""
    if polarity not in POLARITIES:
        raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
    return polarity == "positive"


def budget_units(budget: int | None) -> int:
    """A work budget for the core: -1 for none."""
    if budget is not None and budget < 0:
        raise ValueError(f"budget must be >= 0 or None, not {budget}")
    return -1 if budget is None else int(budget)


def depth_arrays(grids: np.ndarray) -> tuple[np.ndarray, ...]:
    """The arrays a depth loop over `grids` fills: status, depth, solutions, work, ns."""
    count, cells = grids.shape
    return (np.zeros(count, np.int8), np.zeros(count, np.int16),
            np.zeros((count, cells), np.int8), np.zeros(count, np.int64),
            np.zeros(count, np.int64))  # fmt: skip


def limit_ns(seconds: float | None) -> int:
    """A time limit for the core: nanoseconds, 0 for none."""
    if seconds is None or seconds == math.inf:
        return 0
    if not seconds > 0:
        raise ValueError(f"a time limit must be > 0 seconds or None, not {seconds}")
    return max(1, int(seconds * 1e9))
