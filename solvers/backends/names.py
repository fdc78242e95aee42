"""The names of the solver registry (`solvers.backends.registry.REGISTRY` builds a backend for
each), apart from the backends themselves, so that a command line can list them
without importing the adapters (subprocess, PySAT) that a depth rating never uses."""

from __future__ import annotations

# home-grown: the depth of the failed-literal closure, None for the complete search
HOME_DEPTHS = {"up": 0, "fl": 1, "fl2": 2, "fl3": 3, "dpll": None}
PYSAT_NAMES = ("minisat22", "glucose3", "glucose4", "cadical195")
BINARY_NAMES = ("minisat", "picosat", "cadical", "cryptominisat5")
SOLVER_NAMES = (*HOME_DEPTHS, *PYSAT_NAMES, *BINARY_NAMES)  # the registry's order
