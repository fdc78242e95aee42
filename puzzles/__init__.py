"""Puzzles made and checked: random full grids, jigsaw maps, generation by the school
paper's methods and by depth, solution counting and uniqueness.

    puzzles.fullgrid   random full grids (randomized engine search; Minisat22 phases)
    puzzles.jigsaw     random jigsaw region maps
    puzzles.generation the school paper's methods and more: Request -> Report
    puzzles.generate   `python -m benchmarks generate` (the command of generation)
    puzzles.counting   solutions up to a cap: SolutionCount, PysatCounter
    puzzles.unique     `python -m benchmarks unique`
"""
