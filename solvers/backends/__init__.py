"""The solvers a grid can be given to, behind one interface (`registry`: `Backend`,
`make_backend`, `REGISTRY`): the home-grown engine's closures and DPLL, PySAT's solvers
and DIMACS solver binaries; their names alone (`names`, for front ends that must not
load them), the model check of their answers (`model_check`), the statistics read from
a binary's output (`stats`) and the one-grid API (`solve`)."""
