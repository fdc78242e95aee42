"""Rule formulas: block names, order and clause counts against hand-computed figures,
the exam's clauses rebuilt independently, and the variable numbering."""

from __future__ import annotations

from itertools import combinations

import pytest
from encoder_oracle import x

from encoder import make_geometry, num_cell_vars, rule_formula, standard, unvar, var
from encoder.geometry import block_cells

# The exam's F_regle for 9x9: 81 "at least one" clauses per group, 81 * C(9,2) = 2916
# pairwise "at most one" clauses per group.
CENTRALE_9 = [
    ("K1", 81),
    ("L1", 81),
    ("C1", 81),
    ("B1", 81),
    ("K2", 2916),
    ("L2", 2916),
    ("C2", 2916),
    ("B2", 2916),
]


def counts(formula) -> list[tuple[str, int]]:
    return [(name, len(block)) for name, block in formula.groups]


def test_centrale_9x9_blocks_in_the_exam_order():
    formula = rule_formula(standard(9), "centrale")
    assert counts(formula) == CENTRALE_9
    assert formula.num_clauses == len(formula.clauses) == 11_988
    assert formula.num_vars == 729


def test_minimal_9x9_is_8829_clauses():
    formula = rule_formula(standard(9), "minimal")
    assert counts(formula) == [("K1", 81), ("L2", 2916), ("C2", 2916), ("B2", 2916)]
    assert formula.num_clauses == 8_829
    assert formula.num_vars == 729


def test_natural_9x9_is_11745_clauses():
    formula = rule_formula(standard(9), "natural")
    assert counts(formula) == [("K1", 81), ("K2", 2916), ("L2", 2916), ("C2", 2916), ("B2", 2916)]
    assert formula.num_clauses == 11_745


def test_augmented_9x9_as_documented():
    # 18 lines x 3 boxes met x 9 values = 486 segments of 3 cells.
    # SD: per segment 1 long clause + 3 binary = 4 -> 1944.
    # SL: per line and value, exactly one of 3 segments: 1 + C(3,2) = 4 -> 18*9*4 = 648.
    # SB: per box and value, exactly one of 3 row segments and of 3 column ones -> 81*8 = 648.
    formula = rule_formula(standard(9), "augmented")
    assert formula.num_vars == 729 + 486 == 1_215
    assert counts(formula) == [*CENTRALE_9, ("SD", 1944), ("SL", 648), ("SB", 648)]
    assert formula.num_clauses == 11_988 + 1944 + 648 + 648 == 15_228


def exam_blocks_by_hand(n: int, h: int, w: int) -> dict[str, set[frozenset[int]]]:
    """The exam's eight blocks for an n x n grid with h x w boxes, as sets of clauses."""
    values = range(1, n + 1)
    cells = [(i, j) for i in range(n) for j in range(n)]
    rows = [[(i, j) for j in range(n)] for i in range(n)]
    cols = [[(i, j) for i in range(n)] for j in range(n)]
    boxes = [
        [(top + a, left + b) for a in range(h) for b in range(w)]
        for top in range(0, n, h)
        for left in range(0, n, w)
    ]

    def alo(units):
        return {frozenset(x(i, j, k, n) for i, j in unit) for unit in units for k in values}

    def amo(units):
        return {
            frozenset((-x(*a, k, n), -x(*b, k, n)))
            for unit in units
            for k in values
            for a, b in combinations(unit, 2)
        }

    return {
        "K1": {frozenset(x(i, j, k, n) for k in values) for i, j in cells},
        "L1": alo(rows),
        "C1": alo(cols),
        "B1": alo(boxes),
        "K2": {
            frozenset((-x(i, j, k, n), -x(i, j, m, n)))
            for i, j in cells
            for k, m in combinations(values, 2)
        },
        "L2": amo(rows),
        "C2": amo(cols),
        "B2": amo(boxes),
    }


@pytest.mark.parametrize(("n", "h", "w"), [(4, 2, 2), (6, 2, 3), (9, 3, 3)])
def test_centrale_clauses_equal_the_exam_formula_rebuilt_by_hand(n, h, w):
    formula = rule_formula(make_geometry(n, box=(h, w)), "centrale")
    expected = exam_blocks_by_hand(n, h, w)
    assert [name for name, _ in formula.groups] == list(expected)
    for name, block in formula.groups:
        as_sets = [frozenset(clause) for clause in block]
        assert all(len(s) == len(c) for s, c in zip(as_sets, block, strict=True)), name
        assert len(set(as_sets)) == len(block), f"{name} repeats a clause"
        assert set(as_sets) == expected[name], name


def standard_counts(n: int) -> list[tuple[str, int]]:
    """n*n 'at least one' clauses per group; n*n*C(n,2) = n^3 (n-1) / 2 pairs per block."""
    alo, amo = n * n, n * n * n * (n - 1) // 2
    return [(f"{b}1", alo) for b in "KLCB"] + [(f"{b}2", amo) for b in "KLCB"]


@pytest.mark.parametrize(
    ("n", "alo", "amo", "total"),
    [
        (4, 16, 16 * 6, 448),  # C(4,2) = 6
        (6, 36, 36 * 15, 2_304),  # C(6,2) = 15
        (9, 81, 81 * 36, 11_988),
        (16, 256, 256 * 120, 123_904),  # C(16,2) = 120
    ],
)
def test_centrale_counts_by_size(n, alo, amo, total):
    formula = rule_formula(standard(n), "centrale")
    assert counts(formula) == standard_counts(n)
    assert counts(formula)[0] == ("K1", alo)
    assert counts(formula)[-1] == ("B2", amo)
    assert formula.num_clauses == total
    assert formula.num_vars == n**3


@pytest.mark.parametrize(
    ("n", "minimal", "natural"),
    [(4, 16 + 3 * 96, 16 + 4 * 96), (6, 36 + 3 * 540, 36 + 4 * 540), (16, 256 + 3 * 30_720, None)],
)
def test_minimal_and_natural_by_size(n, minimal, natural):
    assert rule_formula(standard(n), "minimal").num_clauses == minimal
    if natural is not None:
        assert rule_formula(standard(n), "natural").num_clauses == natural


@pytest.mark.parametrize(
    ("n", "segments", "sd", "sl", "sb"),
    [
        # 4x4, 2x2 boxes: 8 lines x 2 boxes x 4 values = 64 segments of 2 cells;
        # SD 64 * 3; SL 8*4 lines-values x (1 + 1); SB 4*4 box-values x 2 x (1 + 1).
        (4, 64, 192, 64, 64),
        # 6x6, 2x3 boxes: rows meet 2 boxes in 3 cells (72 segments), columns meet
        # 3 boxes in 2 cells (108); SD 72*4 + 108*3; SL 36*2 + 36*4; SB 36*(2 + 4).
        (6, 180, 612, 216, 216),
        # 16x16, 4x4 boxes: 32 lines x 4 boxes x 16 values = 2048 segments of 4 cells;
        # SD 2048*5; SL 32*16*(1+6); SB 256*2*(1+6).
        (16, 2048, 10_240, 3_584, 3_584),
    ],
)
def test_augmented_by_size(n, segments, sd, sl, sb):
    formula = rule_formula(standard(n), "augmented")
    assert formula.num_vars == n**3 + segments
    assert counts(formula) == [*standard_counts(n), ("SD", sd), ("SL", sl), ("SB", sb)]


def test_x_sudoku_9x9_adds_d1_and_d2():
    # 2 diagonals x 9 values = 18 'at least one'; 2 x 9 x C(9,2) = 648 pairs.
    formula = rule_formula(make_geometry(9, diagonals=True), "centrale")
    assert counts(formula) == [
        *CENTRALE_9[:4],
        ("D1", 18),
        *CENTRALE_9[4:],
        ("D2", 648),
    ]
    assert formula.num_clauses == 11_988 + 18 + 648


@pytest.mark.parametrize(("n", "d1", "d2"), [(4, 8, 2 * 4 * 6), (16, 32, 2 * 16 * 120)])
def test_x_sudoku_other_sizes(n, d1, d2):
    block = dict(counts(rule_formula(make_geometry(n, diagonals=True), "centrale")))
    assert (block["D1"], block["D2"]) == (d1, d2)
    assert sum(block.values()) == sum(c for _, c in standard_counts(n)) + d1 + d2


def test_hyper_9x9_adds_w1_and_w2():
    # 4 windows x 9 values = 36; 4 x 9 x 36 = 1296 pairs.
    formula = rule_formula(make_geometry(9, windows=True), "centrale")
    assert counts(formula) == [*CENTRALE_9[:4], ("W1", 36), *CENTRALE_9[4:], ("W2", 1296)]
    assert formula.num_clauses == 11_988 + 36 + 1296


def test_hyper_9x9_windows_are_the_documented_cells():
    windows = rule_formula(make_geometry(9, windows=True), "centrale").groups[4][1]
    expected = {
        frozenset(x(top + a, left + b, k) for a in range(3) for b in range(3))
        for top in (1, 5)
        for left in (1, 5)
        for k in range(1, 10)
    }
    assert {frozenset(c) for c in windows} == expected


def test_hyper_16x16_as_documented():
    # Windows of side 4 one cell in from each box edge: tops and lefts 1, 6, 11 -> 9 windows.
    block = dict(counts(rule_formula(make_geometry(16, windows=True), "centrale")))
    assert (block["W1"], block["W2"]) == (9 * 16, 9 * 16 * 120)


def test_x_minimal_and_natural_count_the_diagonal_pairs_only():
    geometry = make_geometry(9, diagonals=True)
    assert rule_formula(geometry, "minimal").num_clauses == 8_829 + 648
    assert rule_formula(geometry, "natural").num_clauses == 11_745 + 648


def segment_definitions(formula, first: int) -> dict[int, frozenset[int]]:
    """Map each segment variable to the cell variables its long SD clause lists."""
    definitions = dict(formula.groups)["SD"]
    return {-c[0]: frozenset(c[1:]) for c in definitions if len(c) > 2 and -c[0] >= first}


def test_augmented_segments_are_row_and_column_triads():
    formula = rule_formula(standard(9), "augmented")
    defined = segment_definitions(formula, 730)
    triads = {
        frozenset(x(i, 3 * t + s, k) for s in range(3))
        for i in range(9)
        for t in range(3)
        for k in range(1, 10)
    } | {
        frozenset(x(3 * t + s, j, k) for s in range(3))
        for j in range(9)
        for t in range(3)
        for k in range(1, 10)
    }
    assert sorted(defined) == list(range(730, 1216))
    assert set(defined.values()) == triads


def test_augmented_segment_numbering_follows_the_docstring():
    formula = rule_formula(standard(9), "augmented")
    defined = segment_definitions(formula, 730)
    expected = {}
    for kind_offset, along_rows in ((730, True), (730 + 243, False)):
        for line in range(9):
            for t in range(3):
                for k in range(1, 10):
                    s = kind_offset + (line * 3 + t) * 9 + (k - 1)
                    cells = [
                        (line, 3 * t + r) if along_rows else (3 * t + r, line) for r in range(3)
                    ]
                    expected[s] = frozenset(x(i, j, k) for i, j in cells)
    assert defined == expected


# ---- numbering -------------------------------------------------------------------


@pytest.mark.parametrize("n", [4, 9, 16])
def test_var_unvar_round_trip_for_every_variable(n):
    seen = []
    for i in range(n):
        for j in range(n):
            for k in range(1, n + 1):
                v = var(i, j, k, n)
                assert v == n * n * i + n * j + k
                assert unvar(v, n) == (i, j, k)
                seen.append(v)
    assert seen == list(range(1, n**3 + 1))
    assert all(var(*unvar(v, n), n) == v for v in range(1, n**3 + 1))
    assert num_cell_vars(n) == n**3


def test_exam_numbering_9x9():
    assert var(0, 0, 1) == 1
    assert var(8, 8, 9) == 729
    assert var(2, 3, 4) == 81 * 2 + 9 * 3 + 4
    assert unvar(729) == (8, 8, 9)


@pytest.mark.parametrize("n", [4, 9, 16])
@pytest.mark.parametrize(
    "where", ["row-low", "row-high", "col-low", "col-high", "value-low", "value-high"]
)
def test_var_out_of_range(n, where):
    args = {
        "row-low": (-1, 0, 1),
        "row-high": (n, 0, 1),
        "col-low": (0, -1, 1),
        "col-high": (0, n, 1),
        "value-low": (0, 0, 0),
        "value-high": (0, 0, n + 1),
    }[where]
    with pytest.raises(ValueError, match="outside"):
        var(*args, n)


@pytest.mark.parametrize("n", [4, 9, 16])
@pytest.mark.parametrize("offset", ["zero", "negative", "past-end"])
def test_unvar_out_of_range(n, offset):
    v = {"zero": 0, "negative": -1, "past-end": n**3 + 1}[offset]
    with pytest.raises(ValueError, match="not a cell variable"):
        unvar(v, n)


def test_exam_block_cell_example():
    # Exam: block-cell (3, 6) is cell (5, 0).
    assert block_cells(9, (3, 3), 3)[6] == 5 * 9 + 0


def test_block_cells_follow_the_exam_formula_for_every_block():
    for b in range(9):
        for r in range(9):
            i, j = 3 * (b // 3) + r // 3, 3 * (b % 3) + r % 3
            assert block_cells(9, (3, 3), b)[r] == 9 * i + j
            assert 3 * (i // 3) + j // 3 == b


def test_k1_uses_the_shared_numbering():
    formula = rule_formula(standard(9), "centrale")
    k1 = dict(formula.groups)["K1"]
    assert list(k1[9 * 5 + 7]) == [var(5, 7, k) for k in range(1, 10)]
