"""`python -m benchmarks compare A.json B.json`: what changed between two runs.

Reads two `results.json` files written by `python -m benchmarks run --out DIR` and
prints, as Markdown: the differences in metadata (commit, machine, Python and package
versions, run options), a warning for every set whose file differs (sha256), one row
per set x encoding x solver present in both runs (% solved without search and % solved
with their change, mean decisions and conflicts, median time per grid and the time
ratio B/A), the rows present in one run only, and the change of each depth profile.
Figures a solver does not report stay "n/a".
"""

from __future__ import annotations

from collections.abc import Sequence

from benchmarks.report.json_file import SCHEMA, VERSION
from benchmarks.report.tables import NA, table
from encoder.cli_common import Parser
from encoder.errors import read_json

PROG = "benchmarks"
KEY = ("dataset", "encoding", "solver")
REQUIRED = (
    *KEY,
    "grids",
    "without_search_pct",
    "solved_pct",
    "decisions_mean",
    "conflicts_mean",
    "us_median",
)
COMPARED_OPTIONS = (
    "solvers",
    "encodings",
    "limit",
    "shuffle",
    "seed",
    "chunk_size",
    "fresh",
    "max_depth",
    "workers",
    "interrupted",
)


# What `render` reads of a document, by kind: anything else in it is ignored.
TEXT, COUNT, FIGURE = "a string", "a whole number", "a number or null"
SUMMARY_FIELDS = {
    **dict.fromkeys(KEY, TEXT),
    "grids": COUNT,
    **dict.fromkeys(REQUIRED[4:], FIGURE),
}
PROFILE_FIELDS = {"dataset": TEXT, "encoding": TEXT, "grids": COUNT, "shares_pct": "an object"}


def _kind(value) -> str:
    """Return the JSON name of a value's kind, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    names = {str: "a string", int: "a number", float: "a number", list: "a list", dict: "an object"}
    return names[type(value)]


def _fits(value, kind: str) -> bool:
    if isinstance(value, bool):
        return False
    if kind == TEXT:
        return isinstance(value, str)
    if kind == COUNT:
        return isinstance(value, int) and value >= 0
    if kind == FIGURE:
        return value is None or isinstance(value, int | float)
    return isinstance(value, dict)


def _check_rows(document: dict, name: str, fields: dict[str, str], required: bool) -> None:
    """Check that document[name] is a list of objects holding `fields` of their kinds;
    raise ValueError naming the first that is not."""
    if name not in document:
        if required:
            raise ValueError(f"no {name} list")
        return
    rows = document[name]
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
        if name == "depth_profiles":
            for bucket, share in row["shares_pct"].items():
                if share is None or not _fits(share, FIGURE):
                    raise ValueError(
                        f"{name}[{i}].shares_pct.{bucket} is {_kind(share)}, not a number"
                    )


def check(document) -> None:
    """Raise ValueError saying what a results.json document lacks of what `render` reads."""
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise ValueError(f"not a results.json of `benchmarks run` (schema {SCHEMA!r})")
    if document.get("version") != VERSION:
        raise ValueError(f"results version {document.get('version')!r}, expected {VERSION}")
    meta = document.get("metadata", {})
    if not isinstance(meta, dict):
        raise ValueError(f"metadata is {_kind(meta)}, not an object")
    if not isinstance(meta.get("packages", {}), dict):
        raise ValueError(f"metadata.packages is {_kind(meta['packages'])}, not an object")
    _check_rows(document, "summaries", SUMMARY_FIELDS, required=True)
    _check_rows(document, "datasets", {"name": TEXT}, required=False)
    _check_rows(document, "depth_profiles", PROFILE_FIELDS, required=False)


def load(path: str) -> dict:
    """Return a results.json document, or raise InputError saying what is wrong."""
    return read_json(path, check, "a results.json")


def _fmt(value, digits: int = 2) -> str:
    return NA if value is None else f"{value:,.{digits}f}"


def _delta(a, b, digits: int = 2) -> str:
    if a is None or b is None:
        return NA
    return f"{b - a:+,.{digits}f}"


def _ratio(a, b) -> str:
    if a is None or b is None or not a:
        return NA
    return f"{b / a:.2f}"


def metadata_lines(a: dict, b: dict) -> list[str]:
    ma, mb = a.get("metadata", {}), b.get("metadata", {})
    lines = []
    for key in ("git_commit", "cpu", "cores", "python", "date"):
        if ma.get(key) != mb.get(key):
            lines.append(f"- {key}: {ma.get(key)} → {mb.get(key)}")
    pa, pb = ma.get("packages", {}), mb.get("packages", {})
    for name in sorted(set(pa) | set(pb)):
        if pa.get(name) != pb.get(name):
            lines.append(f"- {name}: {pa.get(name, 'absent')} → {pb.get(name, 'absent')}")
    for key in COMPARED_OPTIONS:
        if ma.get(key) != mb.get(key):
            lines.append(f"- option {key}: {ma.get(key)} → {mb.get(key)}")
    return lines


def dataset_lines(a: dict, b: dict) -> list[str]:
    da = {d["name"]: d for d in a.get("datasets", [])}
    db = {d["name"]: d for d in b.get("datasets", [])}
    lines = []
    for name in da.keys() & db.keys():
        if da[name].get("sha256") != db[name].get("sha256"):
            lines.append(f"- WARNING {name}: the files differ (sha256): different grids")
        elif da[name].get("grids_run") != db[name].get("grids_run"):
            lines.append(
                f"- {name}: {da[name].get('grids_run')} → {db[name].get('grids_run')} grids run"
            )
    return sorted(lines)


SUMMARY_HEADERS = (
    "dataset",
    "encoding",
    "solver",
    "grids A",
    "grids B",
    "% no search A",
    "% no search B",
    "Δ",
    "% solved A",
    "% solved B",
    "Δ ",
    "decisions mean A",
    "decisions mean B",
    "conflicts mean A",
    "conflicts mean B",
    "µs/grid med A",
    "µs/grid med B",
    "time B/A",
)


def summary_rows(a: dict, b: dict) -> tuple[list[list[str]], list[str]]:
    ra = {tuple(r[k] for k in KEY): r for r in a["summaries"]}
    rb = {tuple(r[k] for k in KEY): r for r in b["summaries"]}
    rows = []
    for key in [k for k in ra if k in rb]:
        x, y = ra[key], rb[key]
        rows.append(
            [
                *key,
                f"{x['grids']:,}",
                f"{y['grids']:,}",
                _fmt(x["without_search_pct"]),
                _fmt(y["without_search_pct"]),
                _delta(x["without_search_pct"], y["without_search_pct"]),
                _fmt(x["solved_pct"]),
                _fmt(y["solved_pct"]),
                _delta(x["solved_pct"], y["solved_pct"]),
                _fmt(x["decisions_mean"]),
                _fmt(y["decisions_mean"]),
                _fmt(x["conflicts_mean"]),
                _fmt(y["conflicts_mean"]),
                _fmt(x["us_median"], 0),
                _fmt(y["us_median"], 0),
                _ratio(x["us_median"], y["us_median"]),
            ]
        )
    alone = [f"- only in A: {' / '.join(k)}" for k in ra if k not in rb]
    alone += [f"- only in B: {' / '.join(k)}" for k in rb if k not in ra]
    return rows, alone


def depth_rows(a: dict, b: dict) -> tuple[list[str], list[list[str]]]:
    pa = {(p["dataset"], p["encoding"]): p for p in a.get("depth_profiles", [])}
    pb = {(p["dataset"], p["encoding"]): p for p in b.get("depth_profiles", [])}
    keys = [k for k in pa if k in pb]
    buckets: list[str] = []
    for k in keys:
        for bucket in [*pa[k]["shares_pct"], *pb[k]["shares_pct"]]:
            if bucket not in buckets:
                buckets.append(bucket)
    rows = []
    for k in keys:
        sa, sb = pa[k]["shares_pct"], pb[k]["shares_pct"]
        cells = [
            f"{sa.get(x, 0.0):.2f} → {sb.get(x, 0.0):.2f}"
            if abs(sa.get(x, 0.0) - sb.get(x, 0.0)) >= 0.005
            else f"{sa.get(x, 0.0):.2f}"
            for x in buckets
        ]
        rows.append([*k, f"{pa[k]['grids']:,} → {pb[k]['grids']:,}", *cells])
    headers = ["dataset", "encoding", "grids", *(f"depth {x} %" for x in buckets)]
    return headers, rows


def render(a: dict, b: dict, name_a: str, name_b: str) -> str:
    parts = [f"A = {name_a}\nB = {name_b}"]
    meta = metadata_lines(a, b)
    parts.append(
        "### Metadata\n\n"
        + ("\n".join(meta) if meta else "- same commit, machine, software and options")
    )
    data = dataset_lines(a, b)
    if data:
        parts.append("### Data\n\n" + "\n".join(data))
    rows, alone = summary_rows(a, b)
    if rows:
        parts.append("### Solvers\n\n" + table(rows, SUMMARY_HEADERS, text_columns=3))
    if alone:
        parts.append("\n".join(alone))
    headers, drows = depth_rows(a, b)
    if drows:
        parts.append("### Depth profiles (A → B)\n\n" + table(drows, headers, text_columns=2))
    return "\n\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        prog="python -m benchmarks compare",
        description="Show the differences between two results.json files of `benchmarks run`.",
    )
    parser.add_argument("a", metavar="A.json")
    parser.add_argument("b", metavar="B.json")
    args = parser.parse_args(argv)
    a, b = load(args.a), load(args.b)
    print(render(a, b, args.a, args.b), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
