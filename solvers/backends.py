"""Every solver behind one interface, and the registry that names them.

A backend is loaded once with a formula (`load(clauses, num_vars, cell_vars)`) and then
answers `solve(assumptions)` with a `SolverResult`.  For Sudoku the formula is the rule
formula and the assumptions are the givens, so one loaded solver serves a whole puzzle
set.  Unit clauses of a loaded formula are kept aside and passed as assumptions with
each call: the answer is the same, and root-level propagation of them is then visible
to `propagate`, which is how "solved without search" is measured uniformly.

Backends (names as in the registry):
- home-grown: `up`, `fl` (depth-1 failed literals), `fl2`, `fl3`, `dpll`
  (complete search).  `up`/`fl*` are incomplete: SAT when their closure assigns every
  cell (and satisfies every clause), UNSAT on contradiction, else UNKNOWN.
  Decisions: 0 for `up`/`fl*`; `dpll` counts its branching decisions.
- PySAT: `minisat22`, `glucose3`, `glucose4`, `cadical195`.  The rule formula is
  loaded once (incremental mode) unless `fresh=True`, which builds a new solver per
  call: that mode measures loading + solving, as a one-shot solver would.  Decisions:
  the MiniSat family reports 2 for a call that needed no branching (one for PySAT's
  unused variable 0, one final), so 2 is removed; CaDiCaL reports its own count as is,
  which is not a no-search signal (it may decide without ever conflicting).
- external binaries: `minisat`, `picosat`, `cadical`, `cryptominisat5`, or any command
  given with `--solver-cmd`, run on a DIMACS file in a subprocess with a time limit.
  They report no figures (NOT_AVAILABLE); a missing binary, a crash, garbage output
  or the time limit gives UNKNOWN with the reason, and the run goes on.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence

from encoder.dimacs import clause_lines, parse_model, write_dimacs
from encoder.errors import DimacsError
from solvers.results import NOT_AVAILABLE, SolverResult, Status


def _split_units(clauses: Sequence[Sequence[int]]) -> tuple[list[list[int]], list[int]]:
    rest, units = [], []
    for clause in clauses:
        if len(clause) == 1:
            units.append(clause[0])
        else:
            rest.append(list(clause))
    return rest, units


def _covers_cells(literals: Sequence[int], cell_vars: int) -> bool:
    return len({abs(lit) for lit in literals if abs(lit) <= cell_vars}) == cell_vars


class Backend:
    """Base class: holds the loaded formula; subclasses implement `_solve`."""

    name = "backend"

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
        self.units: list[int] = []
        self.num_vars = 0
        self.cell_vars = 0

    def load(self, clauses: Sequence[Sequence[int]], num_vars: int, cell_vars: int | None = None):
        """Load the formula; `cell_vars` (default all) are the variables that must be
        assigned for a grid to count as solved without search."""
        self.clauses, self.units = _split_units(clauses)
        self.num_vars = num_vars
        self.cell_vars = num_vars if cell_vars is None else cell_vars
        self._load()
        return self

    def _load(self) -> None:
        pass

    def solve(self, assumptions: Sequence[int] = ()) -> SolverResult:
        start = time.perf_counter()
        result = self._solve([*self.units, *assumptions])
        return result(time.perf_counter() - start)

    def _solve(self, assumptions: list[int]) -> Callable[[float], SolverResult]:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class HomeBackend(Backend):
    """The home-grown engine: `depth` None = complete search, else closure depth."""

    def __init__(self, name: str, depth: int | None):
        super().__init__()
        self.name = name
        self.depth = depth

    def _load(self) -> None:
        from solvers.engine import Engine

        self.engine = Engine(self.clauses, self.num_vars)  # units come as assumptions

    def _solve(self, assumptions: list[int]):
        engine = self.engine
        name = self.name
        if self.depth is None:
            ok, root = engine.propagate(assumptions)
            before = engine.accum_stats()
            result = engine.solve(assumptions)
            after = engine.accum_stats()
            without = ok and _covers_cells(root, self.cell_vars)
            return lambda seconds: SolverResult(
                name,
                result.status,
                result.model,
                without,
                result.decisions,
                result.conflicts,
                after["propagations"] - before["propagations"],
                seconds,
            )
        before = engine.accum_stats()
        if self.depth == 0:
            ok, literals = engine.propagate(assumptions)
        else:
            ok, literals = engine.probe(assumptions, depth=self.depth)
        after = engine.accum_stats()
        propagations = after["propagations"] - before["propagations"]
        literals = [*engine.fixed(), *literals]
        status, model = Status.UNSAT, ()
        if ok:
            status, model = Status.UNKNOWN, ()
            if _covers_cells(literals, self.cell_vars):
                candidate = _complete(literals, self.num_vars)
                true = set(candidate)
                if all(any(lit in true for lit in clause) for clause in self.clauses):
                    status, model = Status.SAT, candidate
        conflicts = after["conflicts"] - before["conflicts"]  # failed hypotheses
        solved = status is Status.SAT
        return lambda seconds: SolverResult(
            name, status, model, solved, 0, conflicts, propagations, seconds
        )


def _complete(literals: Sequence[int], num_vars: int) -> tuple[int, ...]:
    value = {abs(lit): lit for lit in literals}
    return tuple(value.get(v, -v) for v in range(1, num_vars + 1))


# PySAT's MiniSat family counts 2 decisions for a call solved by propagation alone.
DECISION_BASELINE = {"minisat22": 2, "glucose3": 2, "glucose4": 2, "cadical195": 0}


class PysatBackend(Backend):
    """A PySAT solver, loaded once (incremental) or rebuilt per call (`fresh`)."""

    def __init__(self, name: str, fresh: bool = False):
        super().__init__()
        self.name = name
        self.fresh = fresh
        self.solver = None

    def _new(self):
        from pysat.solvers import Solver

        return Solver(name=self.name, bootstrap_with=self.clauses)

    def _load(self) -> None:
        self.close()
        if not self.fresh:
            self.solver = self._new()

    def _solve(self, assumptions: list[int]):
        solver = self.solver if self.solver is not None else self._new()
        try:
            ok, implied = solver.propagate(assumptions=assumptions)
            without = ok and _covers_cells(implied, self.cell_vars)
            before = solver.accum_stats() or {}
            sat = solver.solve(assumptions=assumptions)
            after = solver.accum_stats() or {}
            model = tuple(solver.get_model() or ()) if sat else ()
        finally:
            if solver is not self.solver:
                solver.delete()
        name = self.name
        baseline = DECISION_BASELINE.get(name, 0)

        def figure(key: str, minus: int = 0):
            if key not in after:
                return NOT_AVAILABLE
            return max(0, after[key] - before.get(key, 0) - minus)

        status = Status.SAT if sat else Status.UNSAT
        model = tuple(lit for lit in model if abs(lit) <= self.num_vars)
        return lambda seconds: SolverResult(
            name,
            status,
            model,
            without,
            figure("decisions", baseline),
            figure("conflicts"),
            figure("propagations"),
            seconds,
        )

    def close(self) -> None:
        if self.solver is not None:
            self.solver.delete()
            self.solver = None


# How each known binary is called: {cnf} is the input, {out} a result file if it needs one.
BINARY_COMMANDS = {
    "minisat": "minisat -verb=0 {cnf} {out}",
    "picosat": "picosat {cnf}",
    "cadical": "cadical -q {cnf}",
    "cryptominisat5": "cryptominisat5 --verb 0 {cnf}",
}


class BinaryBackend(Backend):
    """A DIMACS solver binary run in a subprocess on a temporary file."""

    def __init__(self, name: str, command: str | None = None, timeout: float = 60.0):
        super().__init__()
        self.name = name
        self.command = command or BINARY_COMMANDS[name]
        self.timeout = timeout

    def _unknown(self, reason: str):
        name = self.name
        return lambda seconds: SolverResult(
            name,
            Status.UNKNOWN,
            (),
            NOT_AVAILABLE,
            NOT_AVAILABLE,
            NOT_AVAILABLE,
            NOT_AVAILABLE,
            seconds,
            reason,
        )

    def _solve(self, assumptions: list[int]):
        argv0 = shlex.split(self.command)[0]
        if shutil.which(argv0) is None:
            return self._unknown(f"binary {argv0!r} not found on PATH")
        units = [[lit] for lit in assumptions]
        text = write_dimacs(
            self.num_vars,
            [clause_lines(self.clauses), clause_lines(units)],
            len(self.clauses) + len(units),
        )
        with tempfile.TemporaryDirectory(prefix="sudoku-sat-") as tmp:
            cnf, out = os.path.join(tmp, "in.cnf"), os.path.join(tmp, "out.txt")
            with open(cnf, "w", encoding="utf-8") as handle:
                handle.write(text)
            argv = [part.format(cnf=cnf, out=out) for part in shlex.split(self.command)]
            try:
                run = subprocess.run(
                    argv, capture_output=True, text=True, timeout=self.timeout, check=False
                )
            except subprocess.TimeoutExpired:
                return self._unknown(f"time limit of {self.timeout:g} s reached")
            except OSError as error:
                return self._unknown(f"could not run {argv0}: {error.strerror}")
            if run.returncode not in (0, 10, 20):
                return self._unknown(f"{argv0} exited with code {run.returncode}")
            output = run.stdout
            if "{out}" in self.command:
                try:
                    with open(out, encoding="utf-8") as handle:
                        output = handle.read()
                except OSError:
                    return self._unknown(f"{argv0} wrote no result file")
        try:
            answer = parse_model(output, argv0)
        except DimacsError as error:
            return self._unknown(f"unreadable output: {error.message}")
        status = {"SAT": Status.SAT, "UNSAT": Status.UNSAT}.get(answer.status, Status.UNKNOWN)
        model = _complete(answer.literals, self.num_vars) if status is Status.SAT else ()
        name = self.name
        reason = "" if status is not Status.UNKNOWN else f"{argv0} answered UNKNOWN"
        return lambda seconds: SolverResult(
            name,
            status,
            model,
            NOT_AVAILABLE,
            NOT_AVAILABLE,
            NOT_AVAILABLE,
            NOT_AVAILABLE,
            seconds,
            reason,
        )


HOME_DEPTHS = {"up": 0, "fl": 1, "fl2": 2, "fl3": 3, "dpll": None}
PYSAT_NAMES = ("minisat22", "glucose3", "glucose4", "cadical195")

# The registry: one factory per name; keyword options reach the backends that take them.
REGISTRY: dict[str, Callable[..., Backend]] = {
    **{
        name: (lambda n=name, d=depth, **_: HomeBackend(n, d))
        for name, depth in HOME_DEPTHS.items()
    },
    **{name: (lambda n=name, fresh=False, **_: PysatBackend(n, fresh)) for name in PYSAT_NAMES},
    **{
        name: (lambda n=name, timeout=60.0, **_: BinaryBackend(n, timeout=timeout))
        for name in BINARY_COMMANDS
    },
}


def make_backend(
    name: str, *, fresh: bool = False, timeout: float = 60.0, command: str | None = None
) -> Backend:
    """Return the backend registered under `name`, or a command's (`--solver-cmd`)."""
    if command is not None:
        return BinaryBackend(name or shlex.split(command)[0], command, timeout)
    if name not in REGISTRY:
        raise KeyError(f"unknown solver {name!r}; known: {', '.join(REGISTRY)}")
    return REGISTRY[name](fresh=fresh, timeout=timeout)
