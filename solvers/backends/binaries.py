"""DIMACS solver binaries as backends: a known one (`minisat`, `picosat`, `cadical`,
`cryptominisat5`) or any command (`--solver-cmd`), run once per call in its own process
group on a temporary file, with a time limit; its output is read, and its model
checked against the clauses before it is believed."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace

from encoder.dimacs import clause_lines, parse_model, write_dimacs
from encoder.errors import DimacsError
from encoder.numbering import Lit
from solvers.backends.base import Backend, assigned_cells, complete
from solvers.backends.stats import read_statistics
from solvers.limits import time_limit_reason
from solvers.results import NOT_AVAILABLE, SolverResult, Status

# How each known binary is called: {cnf} is the input, {out} a result file if it needs
# one.  A command without {cnf} gets the input file as its last argument.
# The verbosity is the one that prints the search statistics (`solvers.backends.stats`).
BINARY_COMMANDS = {
    "minisat": "minisat {cnf} {out}",
    "picosat": "picosat -v {cnf}",
    "cadical": "cadical {cnf}",
    "cryptominisat5": "cryptominisat5 --verb 1 {cnf}",
}
_EXIT_STATUS = {10: Status.SAT, 20: Status.UNSAT}  # the SAT-competition exit codes
TIMED_OUT = "time limit"  # BinaryBackend._run's failure at the time limit


def _kill_group(process: subprocess.Popen) -> None:
    """Kill a command started in its own session, with its children, and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return f": {lines[-1][:200]}" if lines else ""


class BinaryBackend(Backend):
    """A DIMACS solver binary run in a subprocess on a temporary file, with a time limit."""

    def __init__(self, name: str, command: str | None = None, timeout: float | None = None):
        super().__init__(name, timeout)
        self.command = command or BINARY_COMMANDS[name]
        if "{cnf}" not in self.command:
            self.command += " {cnf}"
        self.argv0 = shlex.split(self.command)[0]

    def missing(self) -> str:
        """Return why the command cannot run ("" when its program is found)."""
        if shutil.which(self.argv0) is None:
            return f"binary {self.argv0!r} not found (not on PATH, or not executable)"
        return ""

    def _load(self) -> None:
        from solvers.core.engine import Engine  # "solved without search" asks a propagator

        self.rule_text = clause_lines(self.clauses)  # formatted once, written per call
        self.engine = Engine(self.clauses, self.num_vars)

    def _solve(self, assumptions: list[Lit]) -> SolverResult:
        ok, root = self.engine.propagate(assumptions)
        without = ok and assigned_cells(root, self.cell_vars) == self.cell_vars
        return replace(self._call_binary(assumptions), solved_without_search=without)

    def _call_binary(self, assumptions: list[Lit]) -> SolverResult:
        """Run the binary on the formula and the assumptions as units; read its answer."""
        start = time.perf_counter()
        reason = self.missing()
        if reason:
            return self._unknown(reason, start)
        text = write_dimacs(
            self.num_vars,
            [self.rule_text, clause_lines([lit] for lit in assumptions)],
            len(self.clauses) + len(assumptions),
        )
        with tempfile.TemporaryDirectory(prefix="sudoku-sat-") as tmp:
            cnf, out = os.path.join(tmp, "in.cnf"), os.path.join(tmp, "out.txt")
            with open(cnf, "w", encoding="utf-8") as handle:
                handle.write(text)
            argv = [part.format(cnf=cnf, out=out) for part in shlex.split(self.command)]
            start = time.perf_counter()
            code, stdout, stderr, failure = self._run(argv)
            seconds = time.perf_counter() - start
            if failure is TIMED_OUT:
                reason = time_limit_reason(self.timeout)
                return self._result(Status.UNKNOWN, (), seconds, reason=reason, timed_out=True)
            if failure:
                return self._unknown(failure, start)
            if code < 0:
                name = signal.Signals(-code).name if -code in signal.valid_signals() else ""
                return self._unknown(f"{self.argv0} killed by signal {-code} {name}".strip(), start)
            if code not in (0, 10, 20):
                detail = _last_line(stderr) or _last_line(stdout)
                return self._unknown(f"{self.argv0} exited with code {code}{detail}", start)
            output = stdout
            if "{out}" in self.command:
                try:
                    with open(out, encoding="utf-8", errors="replace") as handle:
                        output = handle.read()
                except OSError:
                    return self._unknown(f"{self.argv0} wrote no result file", start)
        return self._read_answer(output, code, assumptions, seconds, read_statistics(stdout))

    def _run(self, argv: list[str]) -> tuple[int, str, str, str]:
        """Run argv in its own process group; return (exit code, stdout, stderr, failure),
        failure being TIMED_OUT at the time limit.  The process group is killed when the
        limit is reached or when this call is interrupted (Ctrl-C reaches only our own
        process group)."""
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,  # the time limit kills the command's children too
            )
        except OSError as error:
            return 0, "", "", f"could not run {self.argv0}: {error.strerror or error}"
        try:
            stdout, stderr = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return 0, "", "", TIMED_OUT
        except BaseException:
            _kill_group(process)
            raise
        return process.returncode, stdout, stderr, ""

    def _read_answer(
        self,
        output: str,
        code: int,
        assumptions: list[Lit],
        seconds: float,
        printed: tuple[str, dict[str, int | None]],
    ) -> SolverResult:
        try:
            answer = parse_model(output, self.argv0)
        except DimacsError as error:
            return self._unknown(f"unreadable output: {error}", seconds=seconds)
        said = _EXIT_STATUS.get(code)
        if said is not None and answer.status is not said:
            return self._unknown(
                f"exit code {code} says {said} but the output says {answer.status}",
                seconds=seconds,
            )
        if answer.status is Status.UNKNOWN:  # its own limits: an answer, not a failure
            reason = f"{self.argv0} answered UNKNOWN"
            return self._result(Status.UNKNOWN, (), seconds, reason=reason)
        if answer.status is Status.UNSAT:
            return self._counted(Status.UNSAT, (), seconds, printed)
        beyond = [lit for lit in answer.literals if abs(lit) > self.num_vars]
        if beyond:
            return self._unknown(
                f"model literal {beyond[0]} beyond the {self.num_vars} variables", seconds=seconds
            )
        both = set(answer.literals) & {-lit for lit in answer.literals}
        if both:
            return self._unknown(
                f"model sets variable {min(map(abs, both))} both ways", seconds=seconds
            )
        model = complete(answer.literals, self.num_vars)
        true = set(model)
        wrong = self.check.first_falsified(model)
        if wrong >= 0:
            clause = " ".join(map(str, self.clauses[wrong]))
            return self._unknown(f"model falsifies clause {wrong} ({clause} 0)", seconds=seconds)
        missed = [lit for lit in assumptions if lit not in true]
        if missed:
            return self._unknown(f"model falsifies unit clause {missed[0]}", seconds=seconds)
        return self._counted(Status.SAT, model, seconds, printed)

    def _counted(
        self,
        status: Status,
        model: Sequence[Lit],
        seconds: float,
        printed: tuple[str, dict[str, int | None]],
    ) -> SolverResult:
        """The answer with the statistics the binary printed (`read_statistics`; None:
        not available)."""
        layout, counts = printed
        figures = {k: NOT_AVAILABLE if v is None else v for k, v in counts.items()}
        decisions = figures["decisions"]
        if layout == "minisat" and status is Status.SAT and decisions:
            decisions -= 1  # MiniSat counts its final "no variable left" pick
        return self._result(
            status,
            model,
            seconds,
            decisions=decisions,
            conflicts=figures["conflicts"],
            propagations=figures["propagations"],
        )

    def _unknown(
        self, reason: str, start: float | None = None, seconds: float | None = None
    ) -> SolverResult:
        """The UNKNOWN of a solver that failed (see SolverResult.failed)."""
        if seconds is None:
            seconds = time.perf_counter() - start if start is not None else 0.0
        return self._result(Status.UNKNOWN, (), seconds, reason=reason, failed=True)
