"""Studies: questions about Sudoku grids answered by measurement, each with its front end
in `benchmarks` (`python -m benchmarks stats`, `python -m benchmarks agreement`).

- `solutions_vs_givens`: the school paper's study, the mean number of solutions of random
  grids versus the number of givens;
- `rating_agreement`: how well the length column's ratings agree with published ratings
  (Spearman's rho, Kendall's tau-b, confusion tables).

A study takes typed values and returns records; it never sees the command line.
"""
