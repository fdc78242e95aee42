"""The native core's extension modules and their C sources: one table, read by setup.py
(by path, before the package is importable) and by the sanitizer test, so both build the
same thing.  The sources sit in one folder per concern, beside this file:

    board/     the bit board of the exam's formula (board.h)
    clauses/   the clause engine (propagation, closures, depth loop) and the trace's
               reasons
    search/    DPLL search on the clause engine (the same formula object, _core)
    length/    refutation lengths and BxB
    proof/     the proof log the kernels write, LRAT written from it (_core), and the
               independent checks (_check): the model checker's clauses, LRAT proofs
    boundary/  what every entry point shares: the checks of arrays, offsets, literals
               and logs (boundary.h), DIMACS codes, the bounds, the outcomes, the poll
               and the clock (poll.h), a depth loop's record (depth_run.h)
    python/    the Python types and functions of each extension (module.c: Board,
               Clauses; length_records.c: the length kernels' records)

Each extension is `solvers.core._<name>`, linked with the shared files; the board's
kernels are compiled once per instruction set (board_base.c, board_sse41.c,
board_avx2.c) and chosen at load time, never with -march=native.  Standard library
only: setup.py runs it before numpy is installed."""

NATIVE = "solvers/core/native/"
FOLDERS = ("board", "clauses", "search", "length", "proof", "boundary", "python")
# linked into every extension
SHARED = ("boundary/boundary.c", "boundary/poll.c", "boundary/codes.c")
HEADERS = (
    "board/board.h",
    "board/board_impl.h",
    "board/depth_loop.h",
    "board/board_search.h",
    "board/intersections.h",
    "clauses/clauses.h",
    "clauses/trace.h",
    "search/search.h",
    "length/length.h",
    "proof/proof_log.h",
    "proof/log_layout.h",
    "proof/lrat_write.h",
    "proof/lrat_check.h",
    "proof/clause_check.h",
    "clauses/clause_arrays.h",
    "boundary/boundary.h",
    "boundary/views.h",
    "boundary/codes.h",
    "boundary/status.h",
    "boundary/bounds.h",
    "boundary/poll.h",
    "boundary/depth_run.h",
    "python/length_records.h",
)
FLAGS = ("-std=c11", "-O3", "-fno-strict-aliasing")  # -O3: the 9x9 batch 2% faster than -O2

EXTENSIONS = {
    "_core": (
        "python/module.c",
        "clauses/clause_arrays.c",
        "clauses/clauses.c",
        "clauses/trace.c",
        "search/search.c",
        "board/board_base.c",
        "board/board_sse41.c",
        "board/board_avx2.c",
        "proof/lrat_write.c",
    ),
    "_length": (
        "length/length.c",
        "length/bxb.c",
        "length/length_formula.c",
        "python/length_records.c",
        "python/length_module.c",
    ),
    "_check": ("python/check_module.c", "proof/clause_check.c", "proof/lrat_check.c"),
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
    return [NATIVE + file for file in (*EXTENSIONS[name], *SHARED)]


def include_dirs() -> list[str]:
    """The folders, from the project's root, whose headers every source includes by
    name."""
    return [NATIVE + folder for folder in FOLDERS]


def digest(root: str = ".") -> str:
    """The SHA-256 of every C source and header of the native core under `root` (the
    project's root), by path: compiled into each extension (SOURCES_DIGEST), so that a
    checkout can tell whether a build elsewhere (`pip install .`) was made from its own
    sources."""
    import hashlib
    import os

    total = hashlib.sha256()
    for path in sorted({*(p for name in EXTENSIONS for p in sources(name)), *headers()}):
        total.update(path.encode() + b"\0")
        with open(os.path.join(root, path), "rb") as handle:
            total.update(handle.read() + b"\0")
    return total.hexdigest()


def headers() -> list[str]:
    """The paths, from the project's root, of the headers (a change rebuilds)."""
    return [NATIVE + header for header in HEADERS]
