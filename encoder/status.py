"""A SAT answer: satisfiable, unsatisfiable, or unknown.  The one status vocabulary of
the project, from the DIMACS model reader up to the harness; its values are MiniSat's
exit codes (10, 20, 0), its names the words of the SAT competition's `s` line."""

from __future__ import annotations

import enum


class Status(enum.Enum):
    """A solver's answer; the values are MiniSat's exit codes."""

    SAT = 10
    UNSAT = 20
    UNKNOWN = 0

    def __str__(self) -> str:
        return self.name
