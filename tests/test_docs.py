"""The README and docs/*.md hold together: every relative Markdown link reaches an
existing file, and a link with a #fragment an existing heading of that file (anchors
made by GitHub's slug rules); the README stays a front door of at most 250 lines."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
README = PROJECT / "README.md"
MAX_README_LINES = 250

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# [text](target) and ![alt](target); the target may carry a "title"
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def markdown_files() -> list[Path]:
    return [README, *sorted((PROJECT / "docs").glob("*.md"))]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """Return (line number, line) for the lines outside fenced code blocks."""
    lines, fence = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """Return GitHub's anchor for a heading's text: markup dropped (code spans keep
    their text, links their label), lower case, every character but letters, digits,
    `_`, `-` and spaces removed, each space a hyphen."""
    text = INLINE_CODE.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("*", "")
    text = text.strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in "_- ")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Return the anchors of a Markdown file's headings, duplicates numbered as GitHub
    numbers them (`name`, `name-1`, `name-2`, ...)."""
    seen: Counter[str] = Counter()
    found = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        found.add(base if seen[base] == 0 else f"{base}-{seen[base]}")
        seen[base] += 1
    return found


def links(path: Path) -> list[tuple[int, str]]:
    """Return (line number, target) for every relative link outside code."""
    found = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(INLINE_CODE.sub("", line)):
            target = match.group(1)
            if not EXTERNAL.match(target):
                found.append((number, target))
    return found


def broken_links(path: Path, root: Path = PROJECT) -> list[str]:
    """Return one line per relative link of `path` that reaches no file or no heading,
    the file named relative to `root`."""
    problems = []
    for number, target in links(path):
        name, _, fragment = target.partition("#")
        destination = (path.parent / name).resolve() if name else path
        where = f"{path.relative_to(root)}:{number}: {target}"
        if not destination.exists():
            problems.append(f"{where}: no such file")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            problems.append(f"{where}: no heading with anchor #{fragment}")
    return problems


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.name)
def test_every_relative_link_reaches_a_file_and_a_heading(path):
    assert broken_links(path) == []


def test_the_readme_is_a_front_door():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines, at most {MAX_README_LINES}"


def test_the_docs_are_linked_from_the_readme():
    linked = {(README.parent / target.partition("#")[0]).resolve() for _, target in links(README)}
    orphans = [p.name for p in sorted((PROJECT / "docs").glob("*.md")) if p not in linked]
    assert orphans == []


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Install and run", "install-and-run"),
        ("`python -m encoder`: grids to DIMACS", "python--m-encoder-grids-to-dimacs"),
        ("Streaming, the journal and `--resume`", "streaming-the-journal-and---resume"),
        ("1. The shared public sets, exam encoding", "1-the-shared-public-sets-exam-encoding"),
        ("BxB against Berthier's classification", "bxb-against-berthiers-classification"),
        ("Résolution d'un sudoku", "résolution-dun-sudoku"),
        ("Time (µs/grid) [see](x.md)", "time-µsgrid-see"),
    ],
)
def test_anchors_follow_github_slugs(heading, anchor):
    assert slug(heading) == anchor


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## A part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[fine](other.md#a-part) [self](#page) [web](https://example.org/x)\n"
        "[gone](missing.md) [no part](other.md#b-part)\n\n"
        "```\n[in code](missing.md)\n```\n`[inline](missing.md)`\n",
        encoding="utf-8",
    )
    assert broken_links(page, root=tmp_path) == [
        "page.md:4: missing.md: no such file",
        "page.md:4: other.md#b-part: no heading with anchor #b-part",
    ]
