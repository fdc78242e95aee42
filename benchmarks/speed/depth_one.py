"""Question 2: the exam's failed-literal closure (depth 1) on the 17-clue list.

`Engine.probe` against the same closure driven from Python through
`Minisat22.propagate` calls, the natural way to build it on PySAT (on the first
`--baseline-limit` grids: the baseline is slow), where UP leaves the grid open (half of
the 17-clue grids are solved by UP, where both sides do the same single propagation),
and the engine's median over all grids.
"""

from __future__ import annotations

from pysat.solvers import Minisat22

from benchmarks.speed.common import PROG, ms, per_grid, solved
from benchmarks.speed.record import Record
from benchmarks.speed.targets import BY_ID
from benchmarks.timing import median


def minisat_closure(solver: Minisat22, givens: list[int], num_vars: int) -> tuple[bool, list[int]]:
    """The depth-1 closure built on Minisat22.propagate: the baseline of question 2.

    Rounds over the unassigned literals: a hypothesis whose propagation fails is
    negated and added to the facts, until a round adds nothing."""
    facts = list(givens)
    ok, assigned = solver.propagate(assumptions=facts)
    if not ok:
        return False, []
    changed = True
    while changed:
        changed = False
        known = {abs(lit) for lit in assigned}
        for var in range(1, num_vars + 1):
            if var in known:
                continue
            for lit in (var, -var):
                if not solver.propagate(assumptions=[*facts, lit])[0]:
                    facts.append(-lit)
                    ok, assigned = solver.propagate(assumptions=facts)
                    if not ok:
                        return False, []
                    known = {abs(x) for x in assigned}
                    changed = True
                    break
    return True, assigned


def depth_one(engine, minisat, formula, seventeen, up_answers, name: str, baseline_limit: int,
              quiet: bool, record: Record) -> None:  # fmt: skip
    """Question 2: the depth-1 closure against the same closure over Minisat22.propagate."""
    sample = seventeen[:baseline_limit]
    fl_engine, fl_answers = per_grid("depth 1 engine", seventeen, engine.probe, quiet)
    fl_baseline, base_answers = per_grid(
        "depth 1 Minisat22", sample, lambda g: minisat_closure(minisat, g, formula.num_vars), quiet
    )
    for (ok, lits), (base_ok, base_lits) in zip(fl_answers, base_answers, strict=False):
        if (ok, set(lits)) != (base_ok, set(base_lits)):
            raise SystemExit(f"{PROG}: engine and baseline closures differ")
    fl_solved = sum(ok and solved(lits) for ok, lits in fl_answers)
    all_median_us = median(fl_engine) * 1e6
    # Half of the 17-clue grids are solved by UP, where both sides do the same single
    # propagation; the closure's own work is on the others, so report them apart.
    open_rows = [i for i in range(len(sample)) if not solved(up_answers[i][1])]
    engine_open = [fl_engine[i] for i in open_rows]
    baseline_open = [fl_baseline[i] for i in open_rows]
    record.figure("2.engine.median", median(fl_engine) * 1e3, "ms")
    record.figure("2.engine.worst", max(fl_engine) * 1e3, "ms")
    record.figure("2.solved_by_depth_1", fl_solved, "grids")
    print(f"\n2. failed-literal closure (depth 1), {len(seventeen)} grids of {name}")
    print(f"   engine.probe(depth=1)  median {ms(median(fl_engine))}, worst {ms(max(fl_engine))}")
    print(f"   solved by depth 1: {fl_solved}/{len(seventeen)} = {fl_solved / len(seventeen):.2%}")
    print(f"   against the baseline, on the first {len(sample)} grids (closures identical):")
    rows = [("all grids", "all", fl_engine[: len(sample)], fl_baseline)]
    if open_rows:  # a sample that UP solves whole leaves the closure nothing to do
        rows.append((f"the {len(open_rows)} grids UP leaves open", "open", engine_open,
                     baseline_open))  # fmt: skip
    for label, key, engine_times, baseline_times in rows:
        speedup = median(baseline_times) / median(engine_times)
        total = sum(baseline_times) / sum(engine_times)
        record.figure(f"2.sample_{key}.engine.median", median(engine_times) * 1e3, "ms")
        record.figure(f"2.sample_{key}.minisat22_closure.median",
                      median(baseline_times) * 1e3, "ms")  # fmt: skip
        record.figure(f"2.sample_{key}.speedup_total", total, "x")
        print(f"     {label}: engine median {ms(median(engine_times))}, "
              f"Python + Minisat22.propagate median {ms(median(baseline_times))}; "
              f"speed-up {speedup:.1f}x on medians, {total:.1f}x on total time")  # fmt: skip
    if open_rows:
        print(record.target("fl-speedup", median(baseline_open) / median(engine_open)))
    else:
        record.skipped("fl-speedup: UP solves every grid of the sample")
        label = BY_ID["fl-speedup"].label
        print(f"   {label}: not measured (UP solves every grid of the sample)")
    print(record.target("fl-median", all_median_us))
