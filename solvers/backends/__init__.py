"""The solvers a grid can be given to, behind one interface (`base`: `Backend`, and
what a result's fields mean for each): the home-grown engine's closures and DPLL
(`home`), PySAT's solvers (`pysat_solvers`) and DIMACS solver binaries (`binaries`),
named and made by the registry (`registry`: `REGISTRY`, `make_backend`); their names
alone (`names`, for front ends that must not load them), the model check of their
answers (`model_check`), the statistics read from a binary's output (`stats`) and the
one-grid API (`solve`)."""
