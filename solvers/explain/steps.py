"""Step-by-step explanations in Sudoku words.

Unit propagation on the exam's formula places values for two reasons, named by the
clause that became unit: a K1 clause ("cell (i,j) holds some value") gives a naked
single, an L1/C1/B1 clause ("row/column/box holds k somewhere") a hidden single.
When propagation stalls, the explainer follows the simplest-first resolution of
`solvers.ratings.length`: it eliminates the candidates whose refutation is
shortest, each printed with its length and its chain ("r4c7≠5 (length 3): if r4c7=5,
then r4c8=3 (the only value left in the cell), ..., then box 5 has no place left for
3"), then the singles that follow, and so on.  When unit propagation refutes no
candidate, it prints the shortest nested refutation (`solvers.ratings.bxb`): the
hypothesis that braids of the smallest length bound p refute, as T&E(B_p) does, with the
values those braids rule out under it, each with its chain, and the contradiction they
reach; deeper still (depth-3 grids, `--max-depth 3`), the first hypothesis that the
depth-2 rule refutes.  Singles come from
the engine's `trace` (the reason clause of every implied literal); a refutation's chain
is the length kernel's own derivation of it (`RefutationRater.chain`, read from the cone the
kernel counted), so it names only the constraints its length counts.  Cells are named as
players and every published tool name them, r4c7 with rows and columns from 1, boxes
and other regions numbered from 1, values as their symbols; `zero_based` numbers rows,
columns and regions from 0 instead, for programmers.

Each of those lines comes from a `Step` record: what it says, the cell and value it is
about, and the board (values and open candidates) before and after it.  The text
output is the steps' lines in order; the HTML page (`solvers.explain.page`) draws the
boards, so a change of wording or order here reaches both.  On the exam's formula
every negative literal unit propagation derives is a value seen by a peer (K2, L2,
C2, B2 and the variants' regions), so a board is the placed values, their peers'
eliminations, and the hypotheses ruled out: it does not depend on the trace's order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from encoder.decode import known_values
from encoder.encodings import Formula, given_literals
from encoder.geometry import Geometry
from encoder.grids import first_clash, format_pretty
from encoder.numbering import Grid, cell_value
from solvers.budgets import DEFAULT_BUDGET, Budget
from solvers.core.rules import GridRules
from solvers.ratings.bxb import BxbRater
from solvers.ratings.length import RefutationRater

STEP_KINDS = (
    "grid",  # the givens, as the explanation starts
    "note",  # a line of commentary: nothing changes on the board
    "placement",  # unit propagation places a value (naked or hidden single)
    "refutation",  # a shortest refutation rules a value out of a cell (its length said)
    "hypothesis",  # a failed nested hypothesis rules a value out of a cell
    "contradiction",  # the givens, or what follows from them, contradict each other
    "stuck",  # no hypothesis fails up to the depth allowed
    "solved",  # every cell is known
)

REGION_WORDS = {"L": "row", "C": "column", "B": "box", "D": "diagonal", "W": "window"}


@dataclass(frozen=True)
class ClauseInfo:
    """What a clause of the rule formula says, for explanations."""

    group: str  # K1, L1, ..., K2, L2, ...
    cell: int  # the cell of a K clause, else -1
    value: int  # the value of a region clause, else 0
    region: str  # 'row 4', 'box 5', ... (numbered from 1, or 0 if zero_based), else ''
    cells: tuple[int, ...] = ()  # the cells of that region


@dataclass(frozen=True)
class Board:
    """Where an explanation stands: the values known (0: open) and, for each open cell,
    the values still possible (empty for a known cell)."""

    values: Grid
    candidates: tuple[frozenset[int], ...]

    @classmethod
    def start(cls, grid: Grid, geometry: Geometry) -> Board:
        """Return the board of the givens: every open cell keeps the values none of its
        peers holds (what the exam's F_grille states)."""
        everything = frozenset(range(1, geometry.size + 1))
        candidates = tuple(
            frozenset() if k else everything - {grid[p] for p in geometry.peers[c]}
            for c, k in enumerate(grid)
        )
        return cls(tuple(grid), candidates)

    def place(self, c: int, k: int, geometry: Geometry) -> Board:
        """Return the board with value k in cell c, and k gone from its peers."""
        values = list(self.values)
        values[c] = k
        candidates = list(self.candidates)
        candidates[c] = frozenset()
        for p in geometry.peers[c]:
            if k in candidates[p]:
                candidates[p] = candidates[p] - {k}
        return Board(tuple(values), tuple(candidates))

    def rule_out(self, c: int, k: int) -> Board:
        """Return the board with value k no longer possible in cell c."""
        candidates = list(self.candidates)
        candidates[c] = candidates[c] - {k}
        return Board(self.values, tuple(candidates))


@dataclass(frozen=True)
class Step:
    """One step of an explanation: its words, what it is about, and the board around it.

    `lines` are the step as the text explanation prints it (layout included: indents,
    blank lines, the pictures of the grid); `sentence` is the same in one line.
    `cell` and `value` say which value a placement puts where, or which value a failed
    hypothesis rules out of which cell (-1 and 0 for the other kinds); `region` holds
    the cells a hidden single looks at.
    """

    kind: str  # one of STEP_KINDS
    sentence: str
    lines: tuple[str, ...]
    before: Board
    after: Board
    cell: int = -1
    value: int = 0
    region: tuple[int, ...] = ()
    # a nested refutation: the (cell, value) pairs ruled out under the hypothesis
    inner: tuple[tuple[int, int], ...] = ()


@dataclass
class _Walk:
    """Where one explanation stands: the board after its last step and the placements
    already told.  Each `Explainer.steps` call has its own, so that explanations of
    one Explainer advanced in turn do not mix."""

    board: Board
    reported: set[int] = field(default_factory=set)


def grid_step(grid: Grid, geometry: Geometry, board: Board | None = None) -> Step:
    """Return an explanation's first step, the grid itself: its heading and the grid
    printed (`board`: its candidates after the givens, made here when not given).  The
    command prints it even when a time limit stops the explanation before its set-up is
    done."""
    n = geometry.size
    heading = f"Grid ({geometry.describe()}), {sum(1 for k in grid if k)} givens"
    lines = (f"{heading}:", *format_pretty(grid, geometry).splitlines(), "")
    sentence = (
        f"{heading}. Small digits: the values no peer of an open cell holds (the "
        f"exam's F2 clauses rule out the others)."
    )
    printed = Board(tuple(grid), (frozenset(),) * (n * n))  # the grid as printed
    return Step("grid", sentence, lines, printed, board or Board.start(grid, geometry))


class Explainer:
    """Explains grids of one geometry with the exam's (centrale) formula."""

    def __init__(
        self, geometry: Geometry, zero_based: bool = False, budget: Budget = DEFAULT_BUDGET
    ):
        self.geometry = geometry
        self.budget = budget  # its searches bound a whole explanation (BudgetExhausted)
        self.base = 0 if zero_based else 1  # number of the first row, column, region
        rules = GridRules(geometry, "centrale")
        self.formula: Formula = rules.formula
        self.engine = rules.engine
        self._clauses = self.formula.clauses
        self.info = list(self._clause_infos())
        self._nested_rater: BxbRater | None = None  # made at the first depth-2 stall

    def _clause_infos(self) -> Iterator[ClauseInfo]:
        g = self.geometry
        region_of = {}
        for region in g.regions:
            region_of[(region.kind, frozenset(region.cells))] = region
        for name, clauses in self.formula.groups:
            for clause in clauses:
                cells = frozenset(cell_value(abs(lit), g.size)[0] for lit in clause)
                value = cell_value(abs(clause[0]), g.size)[1]
                if name[0] == "K":
                    yield ClauseInfo(name, next(iter(cells)), 0, "")
                    continue
                region = None
                if name[1] == "1":
                    region = region_of.get((REGION_WORDS[name[0]], cells))
                if region is None:
                    yield ClauseInfo(name, -1, value, "")
                else:
                    label = f"{region.kind} {region.index + self.base}"
                    yield ClauseInfo(name, -1, value, label, region.cells)

    # --- wording -----------------------------------------------------------------

    def cell_name(self, c: int) -> str:
        i, j = self.geometry.cell(c)
        return f"r{i + self.base}c{j + self.base}"

    def lit_words(self, lit: int) -> str:
        c, k = cell_value(abs(lit), self.geometry.size)
        symbol = self.geometry.symbol(k)
        return f"{self.cell_name(c)}={symbol}" if lit > 0 else f"{self.cell_name(c)}≠{symbol}"

    def placement_reason(self, reason: int) -> str:
        info = self.info[reason]
        if info.group == "K1":
            return "naked single: the only value left in this cell (clause K1)"
        if info.group[1] == "1":
            symbol = self.geometry.symbol(info.value)
            return (
                f"hidden single: the only place left for {symbol} in {info.region} ({info.group})"
            )
        return f"clause {info.group}"

    def conflict_words(self, reason: int) -> str:
        info = self.info[reason]
        if info.group == "K1":
            return f"cell {self.cell_name(info.cell)} has no value left"
        if info.group[1] == "1":
            symbol = self.geometry.symbol(info.value)
            return f"{info.region} has no place left for {symbol}"
        a, b = (abs(lit) for lit in self.formula_clause(reason))
        (ca, ka), (cb, kb) = (cell_value(v, self.geometry.size) for v in (a, b))
        if ca == cb:
            both = f"{self.geometry.symbol(ka)} and {self.geometry.symbol(kb)}"
            return f"cell {self.cell_name(ca)} would hold both {both}"
        where = REGION_WORDS.get(info.group[0], "region")
        return (
            f"cells {self.cell_name(ca)} and {self.cell_name(cb)} of the same {where} "
            f"would both hold {self.geometry.symbol(ka)} ({info.group})"
        )

    def formula_clause(self, index: int) -> list[int]:
        return self._clauses[index]

    # --- the explanation ---------------------------------------------------------

    def explain(self, grid: Grid, max_depth: int = 2) -> Iterator[str]:
        """Yield the explanation of `grid`, one line per step."""
        for step in self.steps(grid, max_depth):
            yield from step.lines

    def steps(self, grid: Grid, max_depth: int = 2) -> Iterator[Step]:
        """Yield the explanation of `grid` as `Step` records, in order."""
        n = self.geometry.size
        facts = given_literals(grid, self.geometry)
        walk = _Walk(Board.start(grid, self.geometry))
        yield grid_step(grid, self.geometry, walk.board)
        clash = first_clash(grid, self.geometry)
        if clash:  # say it in the givens' own terms, not as a clause found later
            yield self._note(
                walk,
                f"Contradiction in the givens: {clash}. The grid has no solution.",
                kind="contradiction",
            )
            return
        yield self._note(walk, "Unit propagation of the givens:")
        ok, steps, new = yield from self._propagate(walk, facts)
        if not ok:
            return
        if not new:
            yield self._note(walk, "(no value placed)", ("  (no value placed)",))
        placed = self._placed(steps)
        rater = RefutationRater(self.geometry, searches=self.budget.searches)
        state = rater.start(grid)
        announce = True  # say where we stand again only after progress
        while len(placed) < n * n:
            if announce:
                stall = f"{len(placed)} of {n * n} cells known; unit propagation stalls."
                yield self._note(walk, stall, ("", stall))
            rater.charge(rater.open_count(state))  # each step searches every open candidate
            shortest = rater.shortest_elimination(state, max_depth=1) if max_depth >= 1 else None
            if shortest is not None:
                for lit, cone in zip(shortest.eliminated, shortest.cones, strict=True):
                    sentence = self._refutation_words(rater, state, -lit, cone, shortest.length)
                    yield self._ruled_out(walk, "refutation", -lit, sentence, (f"  {sentence}",))
                facts = [*facts, *shortest.eliminated]
                rater.apply(state, shortest)  # a contradiction shows in the propagation below
            elif max_depth >= 2 and (nested := self._bxb(rater).nested_step(state, grid)):
                yield self._nested_step(walk, rater, state, facts, nested)
                facts = [*facts, -nested.hypothesis]
                rater.add_fact(state, -nested.hypothesis)
            else:
                found = None
                for depth in range(3, max_depth + 1):
                    found = self._failed_literal(facts, depth)
                    if found is not None:
                        break
                if found is None:
                    yield self._note(
                        walk,
                        f"No hypothesis fails even with depth-{max_depth} reasoning: from "
                        f"here the grid needs deeper hypotheses or search (backtracking).",
                        kind="stuck",
                    )
                    return
                hypothesis, depth, conflict = found
                nested = rater.nested_length(state, hypothesis, depth)
                length = "" if nested is None else f", length {nested}"
                facts = [*facts, -hypothesis]
                rater.add_fact(state, -hypothesis)
                sentence = (
                    f"Suppose {self.lit_words(hypothesis)} (depth {depth}{length}): {conflict}. "
                    f"So {self.lit_words(-hypothesis)}."
                )
                yield self._ruled_out(walk, "hypothesis", hypothesis, sentence, (sentence,))
            ok, steps, new = yield from self._propagate(walk, facts)
            if not ok:
                return
            placed = self._placed(steps)
            announce = new > 0
        solved = known_values(placed, self.geometry)
        yield self._note(
            walk,
            "Solved.",
            ("", "Solved:", *format_pretty(solved, self.geometry).splitlines()),
            "solved",
        )

    def _bxb(self, rater: RefutationRater) -> BxbRater:
        if self._nested_rater is None:
            self._nested_rater = BxbRater(self.geometry, lengths=rater)
        return self._nested_rater

    def _nested_step(self, walk: _Walk, rater, state, facts: list[int], nested) -> Step:
        """Return the step of a hypothesis refuted by T&E(B_p): the values refutations
        of length at most p rule out under it, each with its chain, then what breaks."""
        hypothesis, p = nested.hypothesis, nested.level
        under = state.copy()
        rater.add_fact(under, hypothesis)
        inner_lines, ruled_out = [], []
        for lit, length, cone in nested.eliminations:
            inner_lines.append(f"    {self._refutation_words(rater, under, -lit, cone, length)}")
            ruled_out.append(lit)
            rater.add_fact(under, lit)
        ok, _, conflict = self.engine.trace([*facts, hypothesis, *ruled_out])
        assert not ok, "a nested refutation ends in a contradiction"
        end = self.conflict_words(conflict)
        shown = ", ".join(self.lit_words(lit) for lit in ruled_out[:4])
        if len(ruled_out) > 4:
            shown += f" and {len(ruled_out) - 4} more"
        under_it = f"refutations of length <= {p} give {shown}; then " if ruled_out else ""
        sentence = (
            f"Suppose {self.lit_words(hypothesis)} (nested, braids of length <= {p}): "
            f"under it, {under_it}{end}. So {self.lit_words(-hypothesis)}."
        )
        header = f"Suppose {self.lit_words(hypothesis)} (nested, braids of length <= {p}):"
        closing = f"    then {end}. So {self.lit_words(-hypothesis)}."
        step = self._ruled_out(
            walk, "hypothesis", hypothesis, sentence, (header, *inner_lines, closing)
        )
        inner = tuple(cell_value(-lit, self.geometry.size) for lit in ruled_out if lit < 0)
        return replace(step, inner=inner)

    def _ruled_out(self, walk: _Walk, kind: str, hypothesis: int, sentence: str, lines) -> Step:
        """Return the step of a refuted hypothesis (a DIMACS literal): 'cell = value'
        refuted takes the value out of the cell, 'cell ≠ value' refuted places it."""
        c, k = cell_value(abs(hypothesis), self.geometry.size)
        before = walk.board
        if hypothesis < 0:
            walk.board = before.place(c, k, self.geometry)
            walk.reported.add(abs(hypothesis))
        else:
            walk.board = before.rule_out(c, k)
        return Step(kind, sentence, tuple(lines), before, walk.board, c, k)

    def _refutation_words(self, rater, state, hypothesis: int, cone, length: int) -> str:
        """Say how the hypothesis (a DIMACS literal) is refuted by its shortest
        refutation, of `length` constraints: the chain of the kernel's cone `cone`."""
        forced, broken = rater.chain(state, hypothesis, cone)
        parts = []
        for lit, c in forced:
            info = self.info[rater.constraint_clause[c]]
            if info.group == "K1":
                why = "the only value left in the cell"
            else:
                symbol = self.geometry.symbol(info.value)
                why = f"the only place left for {symbol} in {info.region}"
            parts.append(f"{self.lit_words(lit)} ({why})")
        if isinstance(broken, int):
            end = self.conflict_words(rater.constraint_clause[broken])
        else:
            end = f"{self.lit_words(broken[0])} and {self.lit_words(broken[1])} exclude each other"
        chain = ", ".join(parts) + (", and " if parts else "") + end
        return (
            f"{self.lit_words(-hypothesis)}  (length {length}): "
            f"if {self.lit_words(hypothesis)}, then {chain}"
        )

    def _note(
        self, walk: _Walk, sentence: str, lines: tuple[str, ...] = (), kind: str = "note"
    ) -> Step:
        """Return a step that changes nothing on the board."""
        return Step(kind, sentence, lines or (sentence,), walk.board, walk.board)

    def _placed(self, steps: list[tuple[int, int]]) -> list[int]:
        n = self.geometry.size
        return [lit for lit, _ in steps if 0 < lit <= n**3]

    def _propagate(self, walk: _Walk, facts: list[int]):
        """Yield a step per new placement UP makes from `facts`; return (ok, trail, how
        many)."""
        ok, steps, conflict = self.engine.trace(facts)
        count = 0
        for lit, reason in steps:
            # The trace restarts from the givens each time: print only new placements.
            if lit > 0 and reason >= 0 and lit not in walk.reported:
                walk.reported.add(lit)
                count += 1
                c, k = cell_value(lit, self.geometry.size)
                sentence = f"{self.lit_words(lit)}  {self.placement_reason(reason)}"
                before = walk.board
                walk.board = before.place(c, k, self.geometry)
                region = self.info[reason].cells
                yield Step(
                    "placement", sentence, (f"  {sentence}",), before, walk.board, c, k, region
                )
        if not ok:
            yield self._note(
                walk,
                f"Contradiction: {self.conflict_words(conflict)}. The grid has no solution.",
                (f"  Contradiction: {self.conflict_words(conflict)}. The grid has no solution.",),
                "contradiction",
            )
        return ok, steps, count

    def _failed_literal(self, facts: list[int], depth: int, chain: bool = True):
        """Return (hypothesis, depth, what went wrong) for the first failed hypothesis at
        this depth, trying 'cell = value' before 'cell ≠ value'.  With chain=False the
        words of a depth > 1 failure are not worked out (an inner step of a chain)."""
        n = self.geometry.size
        ok, closure = self.engine.propagate(facts)
        assigned = {abs(lit) for lit in closure}
        candidates = [v for v in range(1, n**3 + 1) if v not in assigned]
        for lit in [*candidates, *(-v for v in candidates)]:
            if depth == 1:
                ok, steps, conflict = self.engine.trace([*facts, lit])
                if not ok:
                    more = len(steps) - len(closure) - 1  # deductions beyond the hypothesis
                    return (
                        lit,
                        depth,
                        (
                            f"unit propagation makes {more} more deductions, then "
                            f"{self.conflict_words(conflict)}"
                        ),
                    )
            else:
                ok, _ = self.engine.probe([*facts, lit], depth=depth - 1)
                if not ok:
                    why = self._inner_chain([*facts, lit], depth - 1) if chain else ""
                    return lit, depth, why
        return None

    def _inner_chain(self, facts: list[int], depth: int) -> str:
        """Say how the depth-`depth` closure of `facts` (a hypothesis included) reaches
        its contradiction: the values its own failed hypotheses rule out, in order, then
        the clause that breaks.  The closure is monotone, so adding those facts one at a
        time always ends in a unit-propagation conflict."""
        ruled_out: list[int] = []
        while True:
            ok, _, conflict = self.engine.trace(facts)
            if not ok:
                break
            found = self._failed_literal(facts, depth, chain=False)
            if found is None:  # cannot happen: probe said this closure is contradictory
                return f"the depth-{depth} failed-literal rule ends in a contradiction"
            ruled_out.append(-found[0])
            facts = [*facts, -found[0]]
        rule = "failed-literal hypotheses" + (f" of depth {depth}" if depth > 1 else "")
        shown = ", ".join(self.lit_words(lit) for lit in ruled_out[:4])
        if len(ruled_out) > 4:
            shown += f" and {len(ruled_out) - 4} more"
        return f"under it, {rule} give {shown}; then {self.conflict_words(conflict)}"
