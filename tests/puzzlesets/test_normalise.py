"""The canonical text and the recipe steps, on small inline files."""

from __future__ import annotations

import hashlib

import pytest

from puzzlesets.normalise import Part, Recipe, RecipeError, canonical, checksum


def test_canonical_drops_bom_crlf_trailing_spaces_and_final_blank_lines():
    assert canonical(b"\xef\xbb\xbfab  \r\ncd\r\n\r\n\n") == b"ab\ncd\n"
    assert canonical(b"ab\rcd") == b"ab\ncd\n"  # old Mac line ends too
    assert canonical(b"") == b"" and canonical(b"\n\n") == b""


def test_checksum_is_the_same_for_crlf_and_lf_copies():
    lf = b"1.3\n..2\n"
    assert checksum(lf) == checksum(b"1.3\r\n..2\r\n") == hashlib.sha256(lf).hexdigest()
    assert checksum(lf) != checksum(b"1.3\n..3\n")


def part(**steps) -> Part:
    return Part(url="http://example.invalid/f", sha256="0" * 64, **steps)


def test_part_steps_apply_in_their_documented_order():
    original = b"3\n# made by hand\nAB 7\nCD 9\nxx\nEF 1\n"
    kept = part(
        drop_first=1, drop_comments=True, extract=r"^(\S+) \d", replace=(("B", "b"),), head=2
    )
    assert kept.lines(original) == ["Ab", "CD"]
    assert part(prefix="5\t").lines(b"a\nb\n") == ["5\ta", "5\tb"]
    # every: lines 1, 1 + n, ... of what extract kept, before head
    sample = part(extract=r"^(\w)\d", every=2, head=2)
    assert sample.lines(b"a1\n#\nb2\nc3\nd4\ne5\n") == ["a", "c"]


def test_part_sorts_a_table_numerically_then_keeps_one_column():
    table = b"id,puzzle\n10,ten\n9,nine\n100,hundred\n"
    assert part(sort_by="id").lines(table) == ["id,puzzle", "9,nine", "10,ten", "100,hundred"]
    assert part(sort_by="id", column="puzzle").lines(table) == ["nine", "ten", "hundred"]


def test_part_refuses_what_does_not_fit():
    with pytest.raises(RecipeError, match="no column 'grid'"):
        part(column="grid").lines(b"id,puzzle\n1,x\n")
    with pytest.raises(RecipeError, match="not numeric"):
        part(sort_by="id").lines(b"id,puzzle\none,x\n")
    with pytest.raises(RecipeError, match="expected at least 5"):
        part(head=5).lines(b"a\nb\n")
    with pytest.raises(RecipeError, match="every = 0"):
        part(every=0).lines(b"a\n")


def test_recipe_concatenates_dedupes_and_puts_a_header():
    recipe = Recipe(parts=(part(), part(prefix="")), dedupe=True, header="puzzle")
    assert recipe.make([b"a\nb\n", b"b\r\nc\r\n"]) == b"puzzle\na\nb\nc\n"


def test_recipe_pastes_columns_side_by_side():
    recipe = Recipe(parts=(part(), part()), combine="paste", header="puzzle\tlevel")
    assert recipe.make([b"a\nb\n", b"1\n2\n"]) == b"puzzle\tlevel\na\t1\nb\t2\n"
    with pytest.raises(RecipeError, match="differ in length"):
        recipe.make([b"a\nb\n", b"1\n"])
