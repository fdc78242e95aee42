"""Bounds on a solver call: a time limit per grid, and Ctrl-C inside compiled code.

Every solver of the project runs in compiled code that Python's signal handling cannot
reach while it works: numba kernels (the home engine) and PySAT's C++ solvers.  So each
is made to return to Python often enough to notice a time limit and a pending Ctrl-C:

- The home engine's kernels pause every slice of work (a number of propagations that
  the engine sizes to about a tenth of a second) and are resumed exactly where they
  stopped (`solvers.engine`); between slices Python raises KeyboardInterrupt or
  `TimeLimitReached`.  Pausing changes no answer and no count.
- PySAT's MiniSat and Glucose solve in slices of a conflict budget (`solve_limited`
  with `conf_budget`), sized the same way.  A slice that runs out restarts the search
  with the clauses learnt so far, so a call that needs more than one slice may differ
  in its decision and conflict counts from one uninterrupted call (a Sudoku grid
  needs a few hundred conflicts; the first slice is 20,000).  PySAT catches Ctrl-C
  itself and raises its own `error('Caught keyboard interrupt')`, which becomes
  KeyboardInterrupt here.
- PySAT's CaDiCaL 1.9.5 has neither budgets nor `interrupt` ("Limited solve is
  currently unsupported by CaDiCaL"): its calls honour Ctrl-C but not a time limit.
- External binaries run in a process of their own, killed at the time limit
  (`solvers.backends`).

A time limit is a deadline on `clock()`, so one limit can cover the several calls a
grid needs (a depth rating tries depth 0, 1, 2, ...).  `clock()` is `time.monotonic()`
less the time numba spent compiling (or loading from its disk cache) the kernels, so
compilation never counts against a limit: in a fresh install the first grid would
otherwise spend its 10 seconds compiling.  Modules that call kernels call
`watch_compilation()` when imported, which also says once on stderr that kernels are
being compiled when that takes more than COMPILE_NOTE_AFTER seconds.  A command whose
work is a long chain of calls, in Python as much as in compiled code (`solvers
explain`: the wording tables of a big formula, then step after step), is bounded as a
whole by `alarm_after`: a timer signal raises `TimeLimitReached` in Python code, which
the kernels return to every slice.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence

DEFAULT_TIMEOUT = 10.0  # seconds per grid, for every solver (the commands' --timeout)
SLICE_SECONDS = 0.1  # target length of one slice of compiled work
FIRST_CONFLICT_BUDGET = 20_000


COMPILE_NOTE_AFTER = 1.5  # seconds of compiling before stderr says what is going on
COMPILE_NOTE = (
    "sudoku-sat: compiling the engine's kernels (numba, about a minute once; "
    "they are cached on disk afterwards)"
)


class _CompileWatch:
    """A numba event listener: the seconds spent holding numba's compiler lock (compiling
    or loading cached kernels), and the one stderr note when a compilation runs long.

    The note listens to numba's own "compile" event, which fires only when a kernel is
    really compiled: loading a cached kernel also holds the lock, and on a loaded machine
    may hold it for seconds, but compiles nothing and deserves no note."""

    def __init__(self):
        self.seconds = 0.0
        self.depth = 0  # the lock is re-entrant: only the outermost hold is timed
        self.began = 0.0
        self.compiling = 0  # nested "compile" events under way
        self.timer: threading.Timer | None = None
        self.noted = False

    def on_start(self, event) -> None:
        self.depth += 1
        if self.depth == 1:
            self.began = time.monotonic()

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.monotonic() - self.began

    def on_compile_start(self, event) -> None:
        self.compiling += 1
        if self.compiling == 1 and not self.noted:
            self.timer = threading.Timer(COMPILE_NOTE_AFTER, self._note)
            self.timer.daemon = True
            self.timer.start()

    def on_compile_end(self, event) -> None:
        self.compiling -= 1
        if self.compiling == 0 and self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _note(self) -> None:
        if not self.noted:
            self.noted = True
            print(COMPILE_NOTE, file=sys.stderr, flush=True)


_WATCH = _CompileWatch()
_WATCHING: list[bool] = []


def watch_compilation() -> None:
    """Start counting numba's compilation time (once per process; see `clock`)."""
    if _WATCHING:
        return
    from numba.core import event

    class LockListener(event.Listener):  # numba checks the base class
        on_start = staticmethod(_WATCH.on_start)
        on_end = staticmethod(_WATCH.on_end)

    class CompileListener(event.Listener):
        on_start = staticmethod(_WATCH.on_compile_start)
        on_end = staticmethod(_WATCH.on_compile_end)

    event.register("numba:compiler_lock", LockListener())
    event.register("numba:compile", CompileListener())
    _WATCHING.append(True)


def compile_seconds() -> float:
    """Return the seconds numba has spent compiling or loading kernels so far (those of
    a compilation still under way included)."""
    running = time.monotonic() - _WATCH.began if _WATCH.depth > 0 else 0.0
    return _WATCH.seconds + running


def clock() -> float:
    """Return `time.monotonic()` less the time spent compiling: the clock of every time
    limit and of the times the ratings report."""
    return time.monotonic() - compile_seconds()


class TimeLimitReached(Exception):
    """A call ran past its deadline; what it computed so far is abandoned."""

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        super().__init__(time_limit_reason(seconds))


def time_limit_reason(seconds: float | None) -> str:
    """Return the reason an UNKNOWN answer gives when the time limit stopped it."""
    if seconds is None:
        return "time limit reached"
    return f"time limit of {seconds:g} s reached"


def deadline_after(seconds: float | None) -> float | None:
    """Return the `clock()` deadline `seconds` from now (None: no limit)."""
    return None if seconds is None else clock() + seconds


def next_slice(size: int, elapsed: float, smallest: int = 1_000) -> int:
    """Return the size of the next slice of work, scaled so that it takes about
    SLICE_SECONDS given that `size` took `elapsed` seconds (at most 4x larger at once)."""
    if elapsed <= 0:
        return size * 4
    return max(smallest, min(size * 4, int(size * SLICE_SECONDS / elapsed)))


@contextlib.contextmanager
def alarm_after(seconds: float | None) -> Iterator[None]:
    """Raise TimeLimitReached in the block once `seconds` have passed (None: no limit).
    For a command's main thread (a timer signal); an exception a signal raises while
    numba runs Python code of its own comes back as a SystemError whose context is the
    exception: it is turned back into TimeLimitReached."""
    if seconds is None:
        yield
        return

    deadline = clock() + seconds

    def expire(signum, frame) -> None:
        left = deadline - clock()
        if left > 0.001:  # numba compiled meanwhile: that time does not count
            signal.setitimer(signal.ITIMER_REAL, left)
            return
        raise TimeLimitReached(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except SystemError as error:
        if not raised_in_numba(error, TimeLimitReached):
            raise
        raise TimeLimitReached(seconds) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def raised_in_numba(error: SystemError, kind: type[BaseException]) -> bool:
    """True when `error` is how a numba call reports an exception of `kind` raised while
    it ran Python code of its own ("returned a result with an exception set", the
    exception somewhere in its chain of causes)."""
    cause = error.__cause__ or error.__context__
    while cause is not None and not isinstance(cause, kind):
        cause = cause.__cause__ or cause.__context__
    return cause is not None


def _is_pysat_interrupt(error: BaseException) -> bool:
    return type(error).__name__ == "error" and "keyboard interrupt" in str(error).lower()


@contextlib.contextmanager
def pysat_interrupts() -> Iterator[None]:
    """Turn PySAT's own report of Ctrl-C (`pysolvers.error('Caught keyboard
    interrupt')`) into the KeyboardInterrupt every front end handles."""
    try:
        yield
    except Exception as error:
        if _is_pysat_interrupt(error):
            raise KeyboardInterrupt from None
        raise


def supports_budget(solver) -> bool:
    """True for a PySAT solver that can solve within a conflict budget."""
    name = type(getattr(solver, "solver", solver)).__name__.lower()
    return "cadical" not in name


def pysat_solve(
    solver, assumptions: Sequence[int] = (), deadline: float | None = None
) -> bool | None:
    """Solve with a PySAT solver; return True, False, or None when `deadline` (a
    `clock()` value) passed first.  Ctrl-C raises KeyboardInterrupt."""
    with pysat_interrupts():
        if deadline is None or not supports_budget(solver):
            return solver.solve(assumptions=assumptions)
        budget = FIRST_CONFLICT_BUDGET
        while True:
            solver.conf_budget(budget)
            started = time.monotonic()
            answer = solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            now = time.monotonic()
            if clock() >= deadline:
                return None
            budget = next_slice(budget, now - started)
