"""What is kept per geometry (solvers.ratings.per_geometry): the loaded cache and the runs."""

from __future__ import annotations

from solvers.ratings.per_geometry import geometry_runs, keep_loaded


def test_runs_split_where_the_geometry_changes_and_at_the_bound():
    items = ["a1", "a2", "a3", "b1", "a4", "a5"]
    runs = list(geometry_runs(items, lambda item: item[0]))
    assert runs == [["a1", "a2", "a3"], ["b1"], ["a4", "a5"]]
    assert list(geometry_runs(items, lambda item: item[0], most=2)) == [
        ["a1", "a2"],
        ["a3"],
        ["b1"],
        ["a4", "a5"],
    ]
    assert list(geometry_runs([], lambda item: item)) == []


def test_cache_builds_once_and_drops_the_oldest_beyond_its_limit():
    made, dropped = [], []
    cache: dict = {}

    def make(key):
        made.append(key)
        return key.upper()

    for key in "aabcda":
        assert keep_loaded(cache, key, make, limit=3, drop=dropped.append) == key.upper()
    assert made == ["a", "b", "c", "d", "a"]  # 'a' again after it was dropped for 'd'
    assert dropped == ["A", "B"]
    assert list(cache) == ["c", "d", "a"]


def test_cache_drops_the_least_recently_used():
    cache: dict = {}
    dropped: list[str] = []
    for key in "abac":  # 'a' used again after 'b': 'b' is the one dropped for 'c'
        keep_loaded(cache, key, str.upper, limit=2, drop=dropped.append)
    assert dropped == ["B"]
    assert list(cache) == ["a", "c"]
