"""Sudoku grids as propositional logic: grids, geometries, encodings and DIMACS.

The public vocabulary: `make_geometry` / `standard` describe a variant (`Variant`: the
same as options), `read_puzzles` reads puzzles (a grid, a file, '-' or a catalogue
name) as `Puzzle` records, `parse_grid` parses one grid, `rule_formula` /
`puzzle_formula` build the CNF (the Centrale 2014 exam's formula by default),
`encode_dimacs` writes it, `grid_from_model` reads a solution back and `is_solution`
checks it independently; `grid_svg` and `GridPicture` draw a grid.
"""

from encoder.check import is_solution, satisfies, solution_problems
from encoder.decode import ModelError, grid_from_model
from encoder.dimacs import Cnf, Model, parse_cnf, parse_model, read_cnf, read_model
from encoder.emit import encode_dimacs
from encoder.encodings import (
    ENCODINGS,
    GIVEN_STYLES,
    Formula,
    given_literals,
    grid_groups,
    puzzle_formula,
    rule_formula,
)
from encoder.errors import DimacsError, GridError, InputError
from encoder.geometry import Geometry, Region, make_geometry, standard
from encoder.grids import find_clashes, format_line, format_pretty, parse_grid
from encoder.numbering import num_cell_vars, unvar, var
from encoder.picture import GridPicture, grid_svg
from encoder.puzzle_files import Puzzle, read_puzzles
from encoder.variant import Variant
from encoder.version import __version__ as __version__

__all__ = [
    "ENCODINGS",
    "GIVEN_STYLES",
    "Cnf",
    "DimacsError",
    "Formula",
    "Geometry",
    "GridError",
    "GridPicture",
    "InputError",
    "Model",
    "ModelError",
    "Puzzle",
    "Region",
    "Variant",
    "encode_dimacs",
    "find_clashes",
    "format_line",
    "format_pretty",
    "given_literals",
    "grid_from_model",
    "grid_groups",
    "grid_svg",
    "is_solution",
    "make_geometry",
    "num_cell_vars",
    "parse_cnf",
    "parse_grid",
    "parse_model",
    "puzzle_formula",
    "read_cnf",
    "read_model",
    "read_puzzles",
    "rule_formula",
    "satisfies",
    "solution_problems",
    "standard",
    "unvar",
    "var",
]
