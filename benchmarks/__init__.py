"""Benchmarks: how much reasoning grids need, and how fast each part of the project is.

The public API: `benchmark(*sets, solvers=..., ...)` (`benchmarks.harness`) runs what
`python -m benchmarks run` runs and returns its records (`BenchmarkResults`: a
`Summary` per set and solver, a `DepthProfile` per set, every `GridRun`).  Imported on
first use, so that `import benchmarks` stays cheap.

>>> import benchmarks
>>> sorted(benchmarks.__all__)
['BenchmarkResults', 'benchmark']
"""

from __future__ import annotations

__all__ = ["BenchmarkResults", "benchmark"]


def __getattr__(name: str):
    # The harness pulls in the solvers and PySAT; load it only when asked for.
    if name in __all__:
        from benchmarks import harness

        return getattr(harness, name)
    raise AttributeError(f"module 'benchmarks' has no attribute {name!r}")
