"""Speed of the engines and of the commands, each figure measured against a named
baseline in the same run and printed beside its target, "met" or "not met".

Every question is answered on the exam's 9x9 formula (11,988 rule clauses) with the
givens passed as assumptions, so every side does exactly the same logical work; each
question is a module of this package, whose docstring says what it measures:

1. unit propagation of the givens, the clause engine (`solvers.core.engine.Engine`) against
   Minisat22 (unit_propagation);
2. the failed-literal closure (depth 1) against the same closure over Minisat22 (depth_one);
3. the depth-2 and depth-3 closures and the depth ratings that reach them (deeper);
4. `solvers rate` and `benchmarks run` against their kernels, one worker (commands);
5. with `--scale N,...`: rate and run over N grids, grids/s and peak memory (scale);
6. rating with and without proofs, and checking them (proofs);
7. the BxB rating of depth-2 grids (bxb);
9. the native core (`solvers.core`, C) against Minisat22 and absolute bounds, and the
   commands' whole-process targets (native);
10. DPLL search counting to 2 against Minisat22.solve (counting);
11. the project as installed: its dependencies' size, and with
    `--install` the first run after `pip install .` into a fresh environment (install);
12. the README's main job, `benchmarks run --out DIR`, one run: its wall time, and the
    workers' processor time against its solver calls (main_job);
13. the harness at its kernels' speed: `benchmarks run` against `solvers rate` on the same
    file, and over up to a million grids, its wall time and memory (harness_speed);
14. search on the board: counting to 2 against Minisat22.solve, enumeration, and the
    commands that count (`unique`, `generate --method minimal`, `stats --exact`)
    (board_search).

There is no question 8: a question's number is part of its figures' ids, so that two
records compare figure by figure, and a number is never given to another question.

The command line is `benchmarks.speed.command`; `benchmarks.speed.measure` runs the
questions asked, in order. The targets are one table, `benchmarks.speed.targets` (id,
what it measures, baseline, bound and unit, issue). `--out FILE.json` writes the run's
record: metadata (CPU, Python, package versions, git commit, date, options), every
figure measured and every target checked with met / not met (`benchmarks.speed.record`).
`--compare A.json B.json` prints the ratios B/A between two records without measuring
anything; `--compare OLD.json` alone compares a fresh run (the other options say which)
with OLD. A public set that is not on this machine (royle17, forum-hardest-1106,
mith-te3-1000, given by default) skips the questions that need it, with a line saying
so; a file named by an option must be readable.
"""
