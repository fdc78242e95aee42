"""The record of one `benchmarks speed` run, and the comparison of two.

While the questions run, a `Record` keeps every figure they print (`figure`: an id, a
value and its unit) and every target they check (`target`: the table's target, the
figure, met or not, and a `where` for a target checked once per place, list or formula);
`target` returns the line the question prints.  `document(meta)` is the JSON record
`--out FILE.json` writes:

    {"schema": SCHEMA, "version": VERSION,
     "metadata": {date, python, packages, cpu, cores, platform, git_commit, ..., argv},
     "figures": [{"id", "value", "unit"}, ...],
     "targets": [{"id", "where", "value", "bound", "unit", "at_most", "issue", "met"}, ...],
     "not_measured": ["why a question or target was skipped", ...]}

A figure that could not be computed (a median of nothing) is null, and its target not
met.  `load` reads a record back, refusing with one `InputError` line a file that is
not one; `render` prints two records' figures and targets side by side with the ratio
B/A, as `benchmarks compare` does for two runs.
"""

from __future__ import annotations

import json
import math

from benchmarks.report.tables import NA, table
from benchmarks.speed.targets import BY_ID, Target
from encoder.errors import read_json

SCHEMA = "sudoku-sat benchmarks speed record"
VERSION = 1


def _number(value: float | int | None) -> float | None:
    """Return a figure as JSON holds it: None for a value that is not a finite number."""
    if value is None or isinstance(value, bool) or not math.isfinite(value):
        return None
    return float(value)


def shown(value: float | None, unit: str) -> str:
    """Return a figure as the lines print it: '0.74x', '5.685 ms'."""
    if value is None or not math.isfinite(value):
        return NA
    return f"{value:.2f}x" if unit == "x" else f"{value:.3f} {unit}"


class Record:
    """The figures and target checks of one run, in the order they were measured."""

    def __init__(self) -> None:
        self.figures: dict[str, tuple[float | None, str]] = {}
        self.checks: list[dict] = []
        self.not_measured: list[str] = []

    def figure(self, key: str, value: float | int | None, unit: str) -> None:
        """Keep a measured figure under `key` (each key once a run)."""
        assert key not in self.figures, f"figure {key} recorded twice"
        self.figures[key] = (_number(value), unit)

    def skipped(self, why: str) -> None:
        """Keep the reason a question or target was not measured."""
        self.not_measured.append(why)

    def target(self, target_id: str, value: float, where: str = "", indent: int = 3) -> str:
        """Check the figure `value` against the target `target_id` (at `where`, when the
        target is checked more than once a run); return the line to print."""
        target: Target = BY_ID[target_id]
        number = _number(value)
        met = number is not None and target.met(number)
        self.checks.append({
            "id": target.id, "where": where, "value": number, "bound": target.bound,
            "unit": target.unit, "at_most": target.at_most, "issue": target.issue, "met": met,
        })  # fmt: skip
        label = f"{target.label}, {where}" if where else target.label
        verdict = "met" if met else "not met"
        return (f"{' ' * indent}{label}: {shown(number, target.unit)} (target "
                f"{target.wanted()}, issue {target.issue}: {verdict})")  # fmt: skip

    def document(self, meta: dict) -> dict:
        """Return the JSON record of the run (see the module docstring)."""
        return {
            "schema": SCHEMA,
            "version": VERSION,
            "metadata": meta,
            "figures": [
                {"id": key, "value": value, "unit": unit}
                for key, (value, unit) in self.figures.items()
            ],
            "targets": self.checks,
            "not_measured": self.not_measured,
        }


# What `render` reads of a record, by kind: anything else in it is ignored.
TEXT, FIGURE, FLAG = "a string", "a number or null", "true or false"
FIGURE_FIELDS = {"id": TEXT, "value": FIGURE, "unit": TEXT}
TARGET_FIELDS = {"id": TEXT, "where": TEXT, "value": FIGURE, "bound": FIGURE, "unit": TEXT,
                 "met": FLAG}  # fmt: skip


def _kind(value) -> str:
    """Return the JSON name of a value's kind, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return FLAG
    names = {str: TEXT, int: "a number", float: "a number", list: "a list", dict: "an object"}
    return names.get(type(value), type(value).__name__)


def _fits(value, kind: str) -> bool:
    if kind == FLAG:
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if kind == TEXT:
        return isinstance(value, str)
    return value is None or isinstance(value, int | float)


def check(document) -> None:
    """Raise ValueError saying what a record lacks of what `render` reads."""
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise ValueError(f"not a record of `benchmarks speed --out` (schema {SCHEMA!r})")
    if document.get("version") != VERSION:
        raise ValueError(f"record version {document.get('version')!r}, expected {VERSION}")
    meta = document.get("metadata")
    if not isinstance(meta, dict):
        raise ValueError(f"metadata is {_kind(meta)}, not an object")
    for name, fields in (("figures", FIGURE_FIELDS), ("targets", TARGET_FIELDS)):
        rows = document.get(name)
        if not isinstance(rows, list):
            raise ValueError(f"{name} is {_kind(rows)}, not a list")
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise ValueError(f"{name}[{i}] is {_kind(row)}, not an object")
            for field, kind in fields.items():
                if field not in row:
                    raise ValueError(f"{name}[{i}] lacks {field}")
                if not _fits(row[field], kind):
                    raise ValueError(f"{name}[{i}].{field} is {_kind(row[field])}, not {kind}")


def dumps(document: dict) -> str:
    """Return a record as the text of its file."""
    return json.dumps(document, indent=1, allow_nan=False) + "\n"


def load(path: str) -> dict:
    """Return the record in a file, or raise InputError saying what is wrong."""
    return read_json(path, check, "a record")


def _ratio(a: float | None, b: float | None) -> str:
    if a is None or b is None or not a:
        return NA
    return f"{b / a:.2f}"


def _value(value: float | None) -> str:
    return NA if value is None else f"{value:,.4g}"


def metadata_lines(a: dict, b: dict) -> list[str]:
    """Return '- key: A → B' for each metadata item that differs."""
    ma, mb = a["metadata"], b["metadata"]
    lines = [
        f"- {key}: {ma.get(key)} → {mb.get(key)}"
        for key in ("git_commit", "git_dirty", "cpu", "cores", "python", "date", "argv")
        if ma.get(key) != mb.get(key)
    ]
    pa, pb = ma.get("packages", {}), mb.get("packages", {})
    if isinstance(pa, dict) and isinstance(pb, dict):
        lines += [
            f"- {name}: {pa.get(name, 'absent')} → {pb.get(name, 'absent')}"
            for name in sorted(set(pa) | set(pb))
            if pa.get(name) != pb.get(name)
        ]
    return lines


def render(a: dict, b: dict, name_a: str, name_b: str) -> str:
    """Return two records compared, as Markdown: metadata that differs, each figure of
    both with the ratio B/A, each target checked in both with its ratio and met / not
    met, and what one record holds alone."""
    parts = [f"A = {name_a}\nB = {name_b}"]
    meta = metadata_lines(a, b)
    parts.append("### Metadata\n\n" + ("\n".join(meta) if meta else "- the same"))
    fa = {f["id"]: f for f in a["figures"]}
    fb = {f["id"]: f for f in b["figures"]}
    rows = [
        [key, fa[key]["unit"], _value(fa[key]["value"]), _value(fb[key]["value"]),
         _ratio(fa[key]["value"], fb[key]["value"])]
        for key in fa if key in fb
    ]  # fmt: skip
    if rows:
        parts.append("### Figures\n\n" + table(rows, ("figure", "unit", "A", "B", "B/A"), 2))
    ta = {(t["id"], t["where"]): t for t in a["targets"]}
    tb = {(t["id"], t["where"]): t for t in b["targets"]}
    met = {True: "met", False: "not met"}
    rows = [
        [key[0], key[1], f"{tb[key]['bound']:g} {tb[key]['unit']}",
         _value(ta[key]["value"]), _value(tb[key]["value"]),
         _ratio(ta[key]["value"], tb[key]["value"]), met[ta[key]["met"]], met[tb[key]["met"]]]
        for key in ta if key in tb
    ]  # fmt: skip
    if rows:
        headers = ("target", "where", "bound", "A", "B", "B/A", "met A", "met B")
        parts.append("### Targets\n\n" + table(rows, headers, 3))
    alone = [f"- figure only in A: {key}" for key in fa if key not in fb]
    alone += [f"- figure only in B: {key}" for key in fb if key not in fa]
    alone += [f"- target only in A: {' '.join(filter(None, k))}" for k in ta if k not in tb]
    alone += [f"- target only in B: {' '.join(filter(None, k))}" for k in tb if k not in ta]
    if alone:
        parts.append("\n".join(alone))
    return "\n\n".join(parts) + "\n"
