"""The registry that names the backends and makes them: one factory per solver name
(`REGISTRY`, `make_backend`, a command's backend for `--solver-cmd`), which of them are
complete (`COMPLETE`), and why a registered solver cannot run here (`missing_reason`).
The names alone are in `names`, for front ends that must not load the backends; what a
backend is and what its results mean, in `base`."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from functools import partial

from solvers.backends.base import Backend
from solvers.backends.binaries import BINARY_COMMANDS, BinaryBackend
from solvers.backends.home import HomeBackend
from solvers.backends.names import BINARY_NAMES, HOME_DEPTHS, PYSAT_NAMES
from solvers.backends.pysat_solvers import PysatBackend
from solvers.budgets import DEFAULT_BUDGET, Budget

# Solvers that always answer SAT or UNSAT (given time): all but the closures.
COMPLETE = ("dpll", *PYSAT_NAMES, *BINARY_NAMES)


def _home(name: str, fresh: bool = False, timeout: float | None = None, budget=None) -> Backend:
    return HomeBackend(name, HOME_DEPTHS[name], timeout, budget or DEFAULT_BUDGET)


def _pysat(name: str, fresh: bool = False, timeout: float | None = None, budget=None) -> Backend:
    return PysatBackend(name, fresh, timeout, budget or DEFAULT_BUDGET)


def _binary(name: str, fresh: bool = False, timeout: float | None = None, budget=None) -> Backend:
    return BinaryBackend(name, timeout=timeout)


# The registry: one factory per name, each taking the keyword options fresh, timeout
# (seconds per call, None: no limit) and budget (a Budget, None: the default); a backend
# ignores the option it has no use for.
REGISTRY: dict[str, Callable[..., Backend]] = {
    **{name: partial(_home, name) for name in HOME_DEPTHS},
    **{name: partial(_pysat, name) for name in PYSAT_NAMES},
    **{name: partial(_binary, name) for name in BINARY_NAMES},
}


def make_backend(
    name: str,
    *,
    fresh: bool = False,
    timeout: float | None = None,
    command: str | None = None,
    budget: Budget | None = None,
) -> Backend:
    """Return the backend registered under `name`, or a command's (`--solver-cmd`)."""
    if command is not None:
        return BinaryBackend(name or shlex.split(command)[0], command, timeout)
    if name not in REGISTRY:
        raise KeyError(f"unknown solver {name!r}; known: {', '.join(REGISTRY)}")
    return REGISTRY[name](fresh=fresh, timeout=timeout, budget=budget)


def missing_reason(name: str) -> str:
    """Return why the registered solver `name` cannot run here ("" when it can)."""
    if name in BINARY_COMMANDS:
        return BinaryBackend(name).missing()
    return ""
