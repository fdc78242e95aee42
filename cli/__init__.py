"""The command line's shared flags: what every front end that runs chunks, spends work
budgets or bounds a number declares the same way (`cli.flags`).

The layer sits above `solvers` (its bounds are the C core's) and below the packages
whose front ends use it (`benchmarks`, and `solvers`' own command line,
`solvers/__main__.py`).  It holds flags only: no library code imports it.
"""
