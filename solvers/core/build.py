"""The native core's extension modules and their C sources: one table, read by setup.py
(by path, before the package is importable) and by the sanitizer test, so both build the
same thing.  Each concern is its own extension (`solvers.core._<name>`), linked with the
shared signal poll (poll.c); the board's kernels are compiled once per instruction set
(board_base.c, board_sse41.c, board_avx2.c) and chosen at load time, never with
-march=native.  Standard library only: setup.py runs it before numpy is installed."""

CORE = "solvers/core/"
SHARED = ("poll.c", "codes.c")  # linked into every extension
HEADERS = (
    "core.h",
    "board_impl.h",
    "clauses.h",
    "arrays.h",
    "proof_log.h",
    "search.h",
    "length.h",
    "trace.h",
    "views.h",
    "clause_check.h",
    "codes.h",
)
FLAGS = ("-std=c11", "-O3", "-fno-strict-aliasing")  # -O3: the 9x9 batch 2% faster than -O2

EXTENSIONS = {
    "_core": (
        "module.c",
        "arrays.c",
        "clauses.c",
        "trace.c",
        "board_base.c",
        "board_sse41.c",
        "board_avx2.c",
    ),
    "_search": ("search_module.c", "search.c", "clauses.c", "arrays.c"),
    "_length": ("length.c", "bxb.c", "length_formula.c", "length_module.c", "views.c"),
    "_check": ("check_module.c", "clause_check.c", "views.c"),
}


# Per extension: the searches of the length kernels run short loops a few times each
# (a constraint's literals, a cone's words), and unrolled they take 5% less time over
# royle17's depth-1 grids; the other extensions gain nothing measurable.
EXTRA_FLAGS = {"_length": ("-funroll-loops",)}


def flags(name: str) -> list[str]:
    """The compiler flags of extension `name`."""
    return [*FLAGS, *EXTRA_FLAGS.get(name, ())]


def sources(name: str) -> list[str]:
    """The paths, from the project's root, of extension `name`'s C files."""
    return [CORE + file for file in (*EXTENSIONS[name], *SHARED)]
