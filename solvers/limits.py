"""Bounds on a solver call that depend on the clock: the opt-in time limit per grid
(`--timeout`; the default bound is a work budget, `solvers.budgets`), and Ctrl-C inside
compiled code.

Every solver of the project runs in compiled code that Python's signal handling cannot
reach while it works: numba kernels (the home engine), the C core (`solvers.core`, which
checks for signals itself) and PySAT's C++ solvers.  So each is made to return to
Python often enough to notice a time limit and a pending Ctrl-C:

- The home engine's kernels pause every slice of work (a number of propagations that
  the engine sizes to about a tenth of a second) and are resumed exactly where they
  stopped (`solvers.engine`); between slices Python raises KeyboardInterrupt or
  `TimeLimitReached`.  Pausing changes no answer and no count.
- The C core (`solvers.core`) runs without the GIL and polls for signals itself, so
  Ctrl-C and `alarm_after`'s timer raise within a few tens of milliseconds; its search
  and its clause engine's ladders and closures also read the opt-in time limit
  themselves (a deadline, a limit per grid) at the start of each node and at each
  hypothesis boundary: `--timeout` no longer needs the numba kernels.
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
  (`solvers.backends`).

A time limit is a deadline on `clock()`, so one limit can cover the several calls a
grid needs (a depth rating tries depth 0, 1, 2, ...).  `clock()` is `time.monotonic()`
less the time numba spent compiling (or loading from its disk cache) the kernels, so
compilation never counts against a limit: in a fresh install the first grid would
otherwise spend its time limit compiling.  Modules that call kernels call
`watch_compilation()` when imported, which also says once on stderr that kernels are
being compiled when that takes more than COMPILE_NOTE_AFTER seconds.  A command whose
work is a long chain of calls, in Python as much as in compiled code (`solvers
explain`: the wording tables of a big formula, then step after step), is bounded as a
whole by `alarm_after`: a timer signal raises `TimeLimitReached` in Python code, which
the kernels return to every slice.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence

SLICE_SECONDS = 0.1  # target length of one slice of compiled work
FIRST_CONFLICT_BUDGET = 20_000


COMPILE_NOTE_AFTER = 1.5  # seconds of compiling before stderr says what is going on
COMPILE_TICK = 10.0  # seconds between two "still compiling" lines after the note
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
        self.active = 0.0  # time.monotonic() of the last compile event
        self.held: _HeldCtrlC | None = None  # while the main thread compiles

    def on_start(self, event) -> None:
        self.depth += 1
        if self.depth == 1:
            self.began = time.monotonic()
            self._hold_ctrl_c()

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.monotonic() - self.began
            self._release_ctrl_c()

    def _hold_ctrl_c(self) -> None:
        """Hold a Ctrl-C while the main thread compiles or loads kernels: raised inside
        llvmlite's ctypes callbacks, the KeyboardInterrupt is printed as "Exception
        ignored" and lost, and the command runs on to its end.  It is raised again once
        the compiler lock is released (`_release_ctrl_c`)."""
        self.held = _HeldCtrlC.start()

    def _release_ctrl_c(self) -> None:
        held, self.held = self.held, None
        if held is not None:
            held.release()

    def on_compile_start(self, event) -> None:
        self.active = time.monotonic()
        self.compiling += 1
        if self.compiling == 1 and not self.noted:
            self.timer = threading.Timer(COMPILE_NOTE_AFTER, self._note)
            self.timer.daemon = True
            self.timer.start()

    def on_compile_end(self, event) -> None:
        self.active = time.monotonic()
        self.compiling -= 1
        if self.compiling == 0 and self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _note(self) -> None:
        if not self.noted:
            self.noted = True
            print(COMPILE_NOTE, file=sys.stderr, flush=True)
            ticker = threading.Thread(target=self._tick, name="compile-ticker", daemon=True)
            ticker.start()

    def _tick(self) -> None:
        """Say every COMPILE_TICK seconds that compiling goes on, while it does (kernels
        compile one after the other: a gap of a tick without a compile event ends it)."""
        began = time.monotonic()
        while True:
            time.sleep(COMPILE_TICK)
            now = time.monotonic()
            if not self.compiling and now - self.active > COMPILE_TICK:
                return
            print(
                f"sudoku-sat: still compiling the engine's kernels ({now - began:.0f} s)",
                file=sys.stderr,
                flush=True,
            )


_WATCH = _CompileWatch()
_WATCHING: list[bool] = []


# The signals that raise in Python code while compiled code is under way: Ctrl-C
# (KeyboardInterrupt) and the timer of `alarm_after` (TimeLimitReached).  Both reach the
# kernels by one path: held where raising is unsafe, raised where it is not.
HELD_SIGNALS = (signal.SIGINT, signal.SIGALRM)


class _HeldCtrlC:
    """A Ctrl-C, or a time limit's timer, noted instead of raised, in the main thread,
    until `release` raises it (see `ctrl_c_held`)."""

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


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold a Ctrl-C during the block and raise it after, for a call into a kernel that
    returns a namedtuple (`propagate.Formula`, `State`, the length kernels' records).

    numba builds the namedtuple for Python by calling Python code (it unpickles the
    class), and when that code raises, which a Ctrl-C pending from the kernel's run
    makes it do, numba calls the missing class anyway: a segmentation fault (seen in
    `benchmarks run --workers 1`, 4 Ctrl-Cs in 364, in `build` and the length
    rater's set-up).  Held, the Ctrl-C only notes itself there."""
    held = _HeldCtrlC.start()
    try:
        yield
    finally:
        if held is not None:
            held.release()


def held_around(kernel):
    """Return a Python entry to `kernel` (one that returns a namedtuple) that holds a
    Ctrl-C during the call (`ctrl_c_held`)."""

    def call(*args):
        with ctrl_c_held():
            return kernel(*args)

    call.__name__ = kernel.__name__.lstrip("_")
    call.__doc__ = kernel.__doc__
    call.kernel = kernel
    return call


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
    _keep_going_when_the_cache_cannot_be_written()
    _WATCHING.append(True)


def _keep_going_when_the_cache_cannot_be_written() -> None:
    """Make a kernel whose compiled code cannot be saved to numba's disk cache (a full
    disk, a folder that became read-only) run anyway, compiled in memory, with one line
    on stderr: the cache only saves the next start its compiling, and its write failing
    must not end the command with a traceback."""
    from numba.core import caching

    save = caching.Cache.save_overload
    if getattr(save, "keeps_going", False):
        return
    said: list[bool] = []

    def save_overload(self, sig, data):
        try:
            save(self, sig, data)
        except OSError as error:
            if not said:
                said.append(True)
                where = getattr(self, "_cache_path", "numba's cache folder")
                print(
                    f"sudoku-sat: cannot save the compiled kernels in {where} "
                    f"({error.strerror or error}): they run, compiled again at the next start",
                    file=sys.stderr,
                    flush=True,
                )

    save_overload.keeps_going = True
    caching.Cache.save_overload = save_overload


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
