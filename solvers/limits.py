"""Bounds on a solver call that depend on the clock: the opt-in time limit per grid
(`--timeout`; the default bound is a work budget, `solvers.budgets`), and Ctrl-C inside
compiled code.

Every solver of the project runs in compiled code that Python's signal handling cannot
reach while it works: the C core (`solvers.core`, which checks for signals itself) and
PySAT's C++ solvers.  So each is made to return to Python often enough to notice a time
limit and a pending Ctrl-C:

- The C core (`solvers.core`) runs without the GIL and polls for signals itself, so
  Ctrl-C and `alarm_after`'s timer raise within a few tens of milliseconds; its search
  and its clause engine's probes, depth loops and closures also read the opt-in time limit
  themselves (a deadline, a limit per grid) at the start of each node and at each
  hypothesis boundary.
- PySAT's solvers (MiniSat, Glucose, CaDiCaL) solve in one call bounded by their
  conflict budget, which a thread watching for the signal interrupts
  (`pysat_solve_in_one_call`, `interrupted_by_ctrl_c`): its counts are those of one
  uninterrupted call.  Under a time limit they solve in slices of conflicts instead
  (`pysat_solve`), sized to about SLICE_SECONDS: a slice that runs out restarts the
  search with the clauses learnt so far, so such a call's decision and conflict counts
  depend on where the slices ended.  PySAT is never left to catch Ctrl-C itself
  (`sigint_kept_by_python` says why): Python's handler notes it, and the
  KeyboardInterrupt comes between two slices, or as a propagation returns.
- External binaries run in a process of their own, killed at the time limit
  (`solvers.backends.binaries`).

A time limit is a deadline on `clock()`, so one limit can cover the several calls a
grid needs (a depth rating tries depth 0, 1, 2, ...).  A command whose work is a long
chain of calls, in Python as much as in compiled code (`solvers explain`: the wording
tables of a big formula, then step after step), is bounded as a whole by
`alarm_after`: a timer signal raises `TimeLimitReached` in Python code, and in the core
through its poll."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence

SLICE_SECONDS = 0.1  # target length of one slice of compiled work
FIRST_CONFLICT_BUDGET = 20_000


# The signals that raise in Python code while compiled code is under way: Ctrl-C
# (KeyboardInterrupt) and the timer of `alarm_after` (TimeLimitReached), held while a
# PySAT call is being interrupted (`interrupted_by_ctrl_c`).
HELD_SIGNALS = (signal.SIGINT, signal.SIGALRM)


class _HeldCtrlC:
    """A Ctrl-C, or a time limit's timer, noted instead of raised, in the main thread,
    until `release` raises it (see `interrupted_by_ctrl_c`)."""

    def __init__(self, handlers: dict) -> None:
        self.handlers = handlers  # the handlers put back on release, by signal
        self.signals: list[int] = []

    @classmethod
    def start(cls) -> _HeldCtrlC | None:
        """Hold Ctrl-C and the time limit's timer from now on; None where nothing needs
        holding: outside the main thread (Python runs signal handlers in the main thread
        only), or when neither signal has a Python handler (a worker ignores SIGINT; no
        time limit runs)."""
        if threading.current_thread() is not threading.main_thread():
            return None
        handlers = {n: signal.getsignal(n) for n in HELD_SIGNALS}
        handlers = {n: handler for n, handler in handlers.items() if callable(handler)}
        if not handlers:
            return None
        held = cls(handlers)
        for number in handlers:
            signal.signal(number, lambda number, frame: held.signals.append(number))
        return held

    @property
    def ctrl_c(self) -> bool:
        """True once a Ctrl-C was noted."""
        return signal.SIGINT in self.signals

    def release(self) -> None:
        for number, handler in self.handlers.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(self.signals):  # to the command's handler, as it would have
            signal.raise_signal(number)


def clock() -> float:
    """Return the clock of every time limit and of the times the ratings report:
    `time.monotonic()`, which the core's deadlines read too."""
    return time.monotonic()


class TimeLimitReached(Exception):
    """A call ran past its deadline; what it computed so far is abandoned."""

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        super().__init__(time_limit_reason(seconds))


def machine_dependence(seconds: float | None, per: str = "a grid") -> str:
    """Return what a report says of its bound: with a time limit (`seconds`), that its
    results depend on this machine; without one, that they depend on the input alone
    (every default bound is a work budget)."""
    if seconds is None:
        return "no wall-clock limit: the results depend on the input alone"
    return (
        f"wall-clock limit {seconds:g} s {per} (--timeout): the results depend on this "
        "machine's speed and load"
    )


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
    For a command's main thread (a timer signal): Python code sees it at once, and the
    core's kernels through their signal poll."""
    if seconds is None:
        yield
        return

    def expire(signum, frame) -> None:
        raise TimeLimitReached(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def sigint_kept_by_python() -> Iterator[None]:
    """Run the PySAT calls of the block with Ctrl-C left to Python's own handler.

    Called from the main thread, PySAT installs for each solve and propagation a C
    handler that leaves the solver on Ctrl-C by a longjmp.  That jump is not safe: it
    can leave from the middle of a malloc or of a vector's growth (the solver's
    propagation grows the vector of implied literals), leaving the heap corrupt for
    whatever allocates next, and a signal landing between the handler's installation
    and its `setjmp` jumps into the frame of a call that has returned.  PySAT installs
    no handler when it believes it runs outside the main thread
    (`pysat._utils.MainThread.check`), so it is told so for the block; Python's handler
    then only notes the signal, and the KeyboardInterrupt comes when the call returns:
    at once for a propagation, and between two slices of a solve (`pysat_solve`)."""
    try:
        from pysat._utils import MainThread
    except ImportError:  # a PySAT without the check: nothing to change
        yield
        return
    check = MainThread.__dict__["check"]
    MainThread.check = staticmethod(_not_the_main_thread)
    try:
        yield
    finally:
        MainThread.check = check


def _not_the_main_thread() -> bool:
    return False


def pysat_solve(
    solver,
    assumptions: Sequence[int] = (),
    deadline: float | None = None,
    conflicts: int | None = None,
) -> bool | None:
    """Solve with a PySAT solver; return True, False, or None when `deadline` (a
    `clock()` value) passed first or `conflicts` conflicts were spent (None: no budget).
    Ctrl-C raises KeyboardInterrupt.

    The solver works in slices of about SLICE_SECONDS of conflicts, told to expect an
    interrupt, with PySAT's own Ctrl-C handler kept out (`sigint_kept_by_python`): a
    Ctrl-C or the deadline is noticed between two slices.  A PySAT too old to bound
    its CaDiCaL ("Limited solve is currently unsupported") solves in one call: a time
    limit is then not kept, and PySAT's handler catches a Ctrl-C as it always did."""
    budget = FIRST_CONFLICT_BUDGET
    left = conflicts
    while True:
        if left is not None:
            if left <= 0:
                return None
            budget = min(budget, left)
            left -= budget
        try:
            solver.conf_budget(budget)
            started = time.monotonic()
            with sigint_kept_by_python():
                answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        except NotImplementedError:
            return pysat_solve_in_one_call(solver, assumptions)
        if answer is not None:
            return answer
        now = time.monotonic()
        if deadline is not None and clock() >= deadline:
            return None
        budget = next_slice(budget, now - started)


def pysat_solve_in_one_call(
    solver, assumptions: Sequence[int] = (), conflicts: int | None = None
) -> bool | None:
    """Solve in one call, within `conflicts` conflicts (None: no limit), for a caller
    whose answer must not depend on where slices end (`puzzles.fullgrid`: a seed gives
    the same grid).  Return None when the budget ran out.  Ctrl-C raises
    KeyboardInterrupt at once: PySAT's own handler is kept out as in `pysat_solve`, and a
    thread that watches for the signal interrupts the solver (`interrupted_by_ctrl_c`)."""
    solver.conf_budget(-1 if conflicts is None else conflicts)  # -1: no budget
    with sigint_kept_by_python(), interrupted_by_ctrl_c(solver) as ctrl_c:
        answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    if ctrl_c.pressed:  # (Python's handler has most often raised it already)
        raise KeyboardInterrupt
    return answer


class _CtrlCWatch:
    """What `interrupted_by_ctrl_c` saw: `pressed` once a Ctrl-C came."""

    def __init__(self) -> None:
        self.pressed = False


@contextlib.contextmanager
def interrupted_by_ctrl_c(solver) -> Iterator[_CtrlCWatch]:
    """Call `solver.interrupt()` when Ctrl-C comes during the block, for a PySAT call
    that runs long in one piece (it must be told `expect_interrupt`, and so releases the
    GIL).

    Python's C-level handler only notes the signal, and the main thread, inside the
    solver, cannot run the Python handler until the call returns.  But that C handler
    also writes the signal's number to the wakeup file descriptor
    (`signal.set_wakeup_fd`), and a thread waiting on it can interrupt the solver at
    once.  (PySAT's own answer to Ctrl-C, a longjmp out of its handler, can leave from
    inside malloc with the allocator's lock held: the command then hangs at its next
    allocation, silent.)  The Ctrl-C is held (`_HeldCtrlC`) until the block's end has
    put the wakeup descriptor back, joined the thread (so it never touches a solver
    that is deleted) and cleared the solver's interrupt, and raised then: raised on the
    way out, it would cut that undoing short.  Outside the main thread, or when SIGINT
    has no Python handler (ignored in a worker), nothing is watched."""
    import socket

    watch = _CtrlCWatch()
    held = _HeldCtrlC.start()
    if held is None:
        yield watch
        return
    reader = writer = thread = previous = None

    def wait_for_ctrl_c() -> None:
        while data := reader.recv(64):  # b"": the writer closed, the block is over
            if previous != -1:  # pass the bytes on to whoever watched before
                with contextlib.suppress(OSError):
                    os.write(previous, data)
            if signal.SIGINT in data and not watch.pressed:
                watch.pressed = True
                _interrupt(solver)

    try:  # whatever fails on the way, the Ctrl-C held is given back below
        reader, writer = socket.socketpair()
        writer.setblocking(False)
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
        thread = threading.Thread(target=wait_for_ctrl_c, name="ctrl-c-watch", daemon=True)
        thread.start()
        if held.ctrl_c and not watch.pressed:  # came before the wakeup fd was set
            watch.pressed = True
            _interrupt(solver)
        yield watch
    finally:
        if previous is not None:
            signal.set_wakeup_fd(previous)
        if writer is not None:
            writer.close()
        if thread is not None:
            thread.join()
        if reader is not None:
            reader.close()
        if watch.pressed:  # a caller that goes on with the solver finds it usable
            with contextlib.suppress(NotImplementedError):
                solver.clear_interrupt()
        held.release()  # the Ctrl-C noted, if any, raised by the command's handler


def _interrupt(solver) -> None:
    """Interrupt a PySAT solve; a solver PySAT cannot interrupt (its CaDiCaL: "Limited
    solve is currently unsupported") finishes its call, bounded by its conflict budget,
    and the Ctrl-C held is raised as it returns."""
    with contextlib.suppress(NotImplementedError):
        solver.interrupt()
