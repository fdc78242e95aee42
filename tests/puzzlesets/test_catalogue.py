"""The catalogue itself: well-formed entries, pinned origins, variants the encoder reads."""

from __future__ import annotations

import re

import pytest

from encoder.variant import Variant
from puzzlesets import catalogue, lookup

ENTRIES = list(catalogue().values())


def test_names_and_files_are_unique_and_lookup_finds_both():
    assert len({e.name for e in ENTRIES}) == len({e.file for e in ENTRIES}) == len(ENTRIES) >= 20
    for entry in ENTRIES:
        assert lookup(entry.name) is entry and lookup(entry.file) is entry
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", entry.name)
    assert lookup("no-such-set") is None


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_entry_is_complete(entry):
    assert re.fullmatch(r"[0-9a-f]{64}", entry.sha256)
    assert entry.puzzles > 0 and entry.title and entry.author and entry.licence and entry.cite
    assert entry.origin and entry.variant
    assert entry.format in ("lines", "jigsaw", "table")
    assert (entry.column is not None) == (entry.format == "table")
    Variant.parse(entry.flags)  # the encoder reads the variant's flags
    if entry.downloadable:
        for part in entry.recipe.parts:
            # pinned to a full commit, so the bytes cannot change under the checksum
            assert re.match(
                r"https://raw\.githubusercontent\.com/[^/]+/[^/]+/[0-9a-f]{40}/", part.url
            )
            assert re.fullmatch(r"[0-9a-f]{64}", part.sha256)
    else:
        assert entry.notes, "an entry without a recipe says why"


def test_the_catalogue_names_the_sets_the_issue_lists():
    wanted = {
        *("royle17", "top95", "hardest", "top1465", "forum-hardest-1106", "kaggle-3m-sample"),
        *("andoku-x", "andoku-hyper", "andoku-jigsaw", "hex16", "serg", "mith-te3-1000"),
    }
    assert wanted <= set(catalogue())
