"""Every target of `benchmarks speed`, in one table: what each measures, the baseline it
is read against in the same run, its bound and unit, and the issue that set it.

A target's unit is "x" when its figure is a ratio to the baseline (the baseline then
is the denominator, timed in the same run), else the unit of an absolute bound (the
baseline is then a figure printed beside it for scale, also from the same run).  A
target is met when its figure is at most the bound (`at_most`) or at least it.  Targets
that a question checks several times (one per place, list or formula) are told apart by
the `where` of each check (`benchmarks.speed.record`).
"""

from __future__ import annotations

from dataclasses import dataclass

UNITS = ("x", "us", "ms", "s", "grids/s", "solutions/s", "MB")


@dataclass(frozen=True)
class Target:
    """One target: `id` (how records name it), `question` (the question of the module
    docstring that checks it), `label` (the printed line's words), `measures` (what the
    figure is), `baseline` (what it is read against in the same run), `bound` and `unit`,
    `at_most` (met when figure <= bound; else when figure >= bound), `issue` (where it
    was set)."""

    id: str
    question: str
    label: str
    measures: str
    baseline: str
    bound: float
    unit: str
    at_most: bool
    issue: int

    def met(self, value: float) -> bool:
        """Return whether a figure meets the target (a NaN figure never does)."""
        return value <= self.bound if self.at_most else value >= self.bound

    def wanted(self) -> str:
        """Return the target as written on a line: '<= 0.5x', '>= 5000 grids/s'."""
        sign = "<=" if self.at_most else ">="
        space = "" if self.unit == "x" else " "
        return f"{sign} {self.bound:g}{space}{self.unit}"


MINISAT_UP = "Minisat22.propagate of the same givens, per call"
T = Target
TARGETS: tuple[Target, ...] = (
    # 1-4: the clause engine (solvers.core.engine.Engine) and the commands
    T("up-call", "1", "per call, engine / Minisat22 (medians)",
      "unit propagation of royle17's givens, one Engine.propagate call from Python",
      f"{MINISAT_UP} (median)", 0.5, "x", True, 14),
    T("up-batch", "1", "per grid in batch, engine / Minisat22 (means)",
      "unit propagation of royle17's givens, the engine's core in batch "
      "(solvers.core.Clauses.propagate_batch), 1,000 grids a call",
      f"{MINISAT_UP} (mean)", 0.2, "x", True, 23),
    T("fl-speedup", "2", "speed-up where the closure works (open grids, medians)",
      "depth-1 closure, Engine.probe, on the grids of the sample UP leaves open",
      "the same closure in Python over Minisat22.propagate calls", 10, "x", False, 14),
    T("fl-median", "2", "depth-1 closure median, all grids",
      "depth-1 closure of royle17's grids, Engine.probe per call",
      "the closure over Minisat22.propagate (sample medians beside)", 10, "us", True, 23),
    T("d2-closure", "3a", "depth-2 closure median",
      "depth-2 closure of forum-hardest-1106's grids, Engine.probe per call",
      "Minisat22.solve of the same grids (median beside)", 1, "ms", True, 14),
    T("d2-vs-solve", "3a", "depth-2 closure / Minisat22.solve (medians)",
      "depth-2 closure of forum-hardest-1106's grids, Engine.probe per call",
      "Minisat22.solve, a reused solver, each grid's first call", 1, "x", True, 23),
    T("d2-rating", "3a", "depth rating up to 2, median",
      "depth rating up to 2 (Rater.depths) of forum-hardest-1106's grids, kernel time",
      "the depth-2 closure alone (median beside)", 1, "ms", True, 23),
    T("d3-closure", "3b", "depth-3 closure median",
      "depth-3 closure of mith-te3-1000's grids, Engine.probe per call",
      "none: an absolute bound", 15, "ms", True, 14),
    T("d3-rating", "3b", "depth rating up to 3, median",
      "depth rating up to 3 (Rater.depths) of mith-te3-1000's grids, kernel time",
      "the depth-3 closure alone (median beside)", 10, "ms", True, 23),
    T("rate-overhead", "4", "(wall - start-up) / kernel time",
      "solvers rate --max-depth 1 --no-length over royle17, one worker, wall less start-up",
      "the summed kernel time the command prints", 1.5, "x", True, 14),
    T("rate-vs-loop", "4", "rate --no-length wall (start-up included) / that loop",
      "solvers rate --max-depth 1 --no-length over royle17, one worker, whole wall time",
      "a Minisat22.propagate loop over the same grids", 0.5, "x", True, 23),
    T("rate-length-speed", "4", "rate (default) grids/s",
      "solvers rate --max-depth 1 over royle17 with the refutation-length rating",
      "the same command with --no-length (beside)", 5000, "grids/s", False, 23),
    T("run-overhead", "4", "(wall - start-up) / solver-call time",
      "benchmarks run --solvers up,fl,minisat22 over royle17, wall less start-up",
      "the summed solver-call time of its results.json", 1.5, "x", True, 14),
    # 5: at scale (--scale)
    T("scale-million", "5", "rate --no-length wall per million grids",
      "solvers rate --max-depth 1 --no-length over N >= 1,000,000 grids, per place",
      "none: an absolute bound (grids/s beside)", 120, "s", True, 23),
    T("scale-memory", "5", "rate --no-length peak RSS, largest N / smallest N",
      "peak resident memory of rate --no-length over the largest N, per place",
      "the same over the smallest N", 1.25, "x", True, 23),
    # 6: proofs
    T("proof-cost", "6", "with / without --proof (processor time less start-up)",
      "solvers rate --no-length --proof FILE, processor time less start-up, per list",
      "the same command without --proof", 1.5, "x", True, 26),
    T("proof-dir-cost", "6", "with / without --proof FOLDER (each proof beside its CNF)",
      "solvers rate --no-length --proof FOLDER (N.cnf and N.drup a grid), processor time "
      "less start-up, per list", "the same command without --proof", 1.5, "x", True, 45),
    T("lrat-check-speed", "6", "DRUP check / LRAT check of the same refutations",
      "solvers.proofs.check_lrat on each grid's LRAT refutation, per list",
      "solvers.proofs.check (DRUP) on the same refutations, in the same run", 5, "x", False,
      45),
    # 7: BxB
    T("bxb-median", "7", "BxB median a grid",
      "BxB rating of every K-th grid of berthier-eleven-te2, wall per grid",
      "none: an absolute bound (processor time beside)", 1, "s", True, 25),
    T("bxb-easter", "7", "Easter Monster",
      "BxB rating of Easter Monster, wall", "none: an absolute bound", 10, "s", True, 25),
    T("bxb-time-limit", "7", "time limit overshoot",
      "BxB rating of a T&E(3) grid under a 2 s time limit, wall",
      "the time limit, 2 s", 1.1, "x", True, 25),
    # 9: the native core (solvers.core, C) and the commands, issue 34
    T("core-up-batch", "9", "unit propagation in batch, core, per grid",
      "unit propagation of royle17's givens, Board.propagate_batch, 1,000 grids a call",
      "none: an absolute bound (Minisat22.propagate's mean per call beside)", 2, "us", True, 34),
    T("core-up-call", "9", "per call, core / Minisat22 (medians)",
      "unit propagation of royle17's givens, one Board.propagate call from Python",
      f"{MINISAT_UP} (median)", 0.2, "x", True, 34),
    T("core-fl-batch", "9", "depth-1 closure in batch, core (median)",
      "Board.depths to depth 1 over royle17 in one call, each grid's kernel time "
      "(unit propagation, then the depth-1 closure where it leaves the grid open)",
      "none: an absolute bound", 4, "us", True, 34),
    T("core-d2-closure", "9", "depth-2 closure median, core",
      "depth-2 closure of forum-hardest-1106's grids, Board.probe per call",
      "none: an absolute bound (Minisat22.solve's median beside)", 0.8, "ms", True, 34),
    T("core-d2-vs-solve", "9", "depth-2 closure / Minisat22.solve (medians), core",
      "depth-2 closure of forum-hardest-1106's grids, Board.probe per call",
      "Minisat22.solve, a reused solver, each grid's first call", 0.6, "x", True, 34),
    T("core-d3-loop", "9", "depth loop to 3, core (median)",
      "Board.depths to depth 3 over mith-te3-1000 in one call, each grid's kernel time",
      "none: an absolute bound", 3, "ms", True, 34),
    T("core-clauses-up", "9", "per call, clause engine / Minisat22 (medians)",
      "unit propagation per call from Python, solvers.core.Clauses.propagate, per CNF",
      "Minisat22.propagate of the same assumptions on the same CNF", 0.5, "x", True, 34),
    T("rate-royle17", "9", "solvers rate --no-length wall / the loop",
      "solvers rate --no-length over royle17, whole wall time with start-up, "
      "whatever engine `solvers rate` uses",
      "a Minisat22.propagate loop over the same grids", 0.3, "x", True, 34),
    T("rate-one-grid", "9", "python -m solvers rate GRID --no-length, whole process",
      "one grid rated by a whole process, start-up included",
      "the interpreter's own start-up, python -c pass", 0.25, "s", True, 34),
    # issue 35: every kernel in the C core
    T("rate-length-royle17", "4", "solvers rate (its default length rating) grids/s, processor",
      "solvers rate over royle17 as it runs by default (depth and refutation-length "
      "ratings), one worker, grids / processor time (user + system) less start-up's",
      "none: an absolute bound (the same on wall time beside; start-up: the command on "
      "one grid)", 5000,
      "grids/s", False, 35),
    T("bxb-median-cpu", "7", "BxB median a grid, processor time",
      "BxB rating of every K-th grid of berthier-eleven-te2 (berthier_eleven_te2_dev.tsv), "
      "processor time of the process per grid (one thread: an idle machine's wall time)",
      "none: an absolute bound (wall beside)", 0.3, "s", True, 35),
    T("bxb-easter-cpu", "7", "Easter Monster, processor time",
      "BxB rating of Easter Monster, processor time of the process",
      "none: an absolute bound (wall beside)", 1, "s", True, 35),
    T("count-vs-solve", "10", "counting to 2 / Minisat22.solve (medians)",
      "DPLL search counting models up to 2 (Engine.count(limit=2), uniqueness) of "
      "forum-hardest-1106's grids, givens as assumptions, per call",
      "Minisat22.solve, a reused solver, each grid's first call", 1, "x", True, 35),
    T("install-first-rate", "11", "first python -m solvers rate EASTER_MONSTER, whole process",
      "after pip install . (build included) into a fresh virtual environment, the first "
      "python -m solvers rate EASTER_MONSTER, run from another folder, start-up included",
      "none: an absolute bound (the install's time and a second run beside)", 3, "s", True,
      35),
    T("deps-size", "11", "the dependencies' installed size",
      "installed size (the files their distributions' metadata lists) of every distribution "
      "the project's installed distribution requires, directly or not",
      "none: an absolute bound", 273, "MB",
      True, 35),
    # 12: the README's main job, issue 32
    T("main-job-wall", "12", "the main job's wall time (an absolute bound: it depends on the "
      "machine and its load, set for 2 idle cores; unlike the ratios)",
      "python -m benchmarks run --out DIR as the README gives it (every file of data/sets/, "
      "the default solvers and workers), one whole process, start-up included",
      "none: an absolute bound, for two idle cores (the processor times beside)", 90, "s",
      True, 32),
    T("main-job-cpu", "12", "the workers' processor time / solver-call time",
      "the main job's workers' processor time, results.json's worker_cpu_seconds (each "
      "chunk's process_time in its worker, summed)",
      "the same run's solver calls, its summaries' seconds_total summed (the report's "
      "time per solver)", 1.3, "x", True, 43),
    # 13: the harness at its kernels' speed, issue 43
    T("run-vs-rate", "13", "benchmarks run up,fl,fl2 / solvers rate --max-depth 2 (walls)",
      "benchmarks run FILE --solvers up,fl,fl2 --workers 1 over the 17-clue list (its "
      "tables, no --out), whole process, start-up included",
      "solvers rate FILE --no-length --max-depth 2 --workers 1, whole process", 3, "x", True,
      43),
    T("harness-million", "13", "benchmarks run up,fl,fl2 wall per million grids",
      "benchmarks run --solvers up,fl,fl2 --workers 1 over the 17-clue list repeated to "
      "1,000,000 grids, whole process", "none: an absolute bound (grids/s beside)", 60, "s",
      True, 43),
    T("harness-memory-200k", "13", "peak RSS growth, benchmarks run up,fl,fl2",
      "peak resident memory (largest process) of that run over 200,000 grids, less the "
      "same over 20,000", "the run over 20,000 grids (its peak beside)", 15, "MB", True, 43),
    T("harness-memory-million", "13", "peak RSS growth, benchmarks run up,fl,fl2",
      "peak resident memory (largest process) of that run over 1,000,000 grids, less the "
      "same over 20,000", "the run over 20,000 grids (its peak beside)", 30, "MB", True, 43),
    # 14: search on the board, issue 44
    T("count2-vs-solve", "14", "counting to 2 on the board / Minisat22.solve (medians)",
      "Board.count(grids, 2), DPLL in the C core, one call for the list: the kernel's "
      "time on each grid", "Minisat22.solve, a reused solver, each grid's first call",
      0.05, "x", True, 44),
    T("enumerate-rate", "14", "enumeration, solutions per second of kernel time",
      "every solution of 40 random 9x9 grids of 24 givens (Board.count, no cap)",
      "none: an absolute bound", 2_000_000, "solutions/s", False, 44),
    T("unique-list", "14", "benchmarks unique over the 17-clue list, whole process",
      "python -m benchmarks unique FILE, start-up included", "none: an absolute bound", 1,
      "s", True, 44),
    T("generate-minimal-9x9", "14", "generate --method minimal, 1,000 9x9 puzzles",
      "python -m benchmarks generate --method minimal --count 1000 --seed 1, whole process",
      "none: an absolute bound", 5, "s", True, 44),
    T("generate-minimal-25x25", "14", "generate --method minimal, one 25x25 puzzle",
      "python -m benchmarks generate --method minimal --size 25 --count 1 --seed 1, whole "
      "process (stopped after 120 s: then not met)", "none: an absolute bound", 30, "s",
      True, 44),
    T("stats-exact", "14", "the exact study, 2 workers, whole process",
      "python -m benchmarks stats --givens 21-60 --samples 300 --exact --workers 2",
      "none: an absolute bound", 600, "s", True, 44),
)  # fmt: skip
del T

BY_ID: dict[str, Target] = {target.id: target for target in TARGETS}
