"""Finding, fetching and verifying sets: a mirror folder, the cache, and real downloads
from a small HTTP server on 127.0.0.1 (good file, wrong checksum, download cut halfway,
404, connection refused).  No test reaches beyond this machine."""

from __future__ import annotations

import hashlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from puzzlesets import Part, PuzzleSet, PuzzleSetError, Recipe, checksum, fetch, locate
from puzzlesets.store import download_url

ORIGINAL = b"2\n1...\r\n..2.\r\n1...\r\n"  # a count line, CRLF, a duplicate
MADE = b"1...\n..2.\n"  # what the recipe keeps
CUT_LENGTH = 10_000


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/good.txt":
            self._send(ORIGINAL)
        elif self.path == "/cut.txt":  # promises 10,000 bytes, sends 100, hangs up
            self.send_response(200)
            self.send_header("Content-Length", str(CUT_LENGTH))
            self.end_headers()
            self.wfile.write(b"1...\n" * 20)
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        else:
            self.send_error(404, "Not Found")

    def _send(self, body: bytes):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # keep the test output clean
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """An empty cache and an empty mirror, used instead of the machine's."""
    cache, mirror = tmp_path / "cache", tmp_path / "mirror"
    mirror.mkdir()
    monkeypatch.setenv("SUDOKU_SAT_DATA", str(cache))
    monkeypatch.setenv("SUDOKU_SAT_MIRROR", str(mirror))
    monkeypatch.delenv("SUDOKU_SAT_DOWNLOAD_BASE", raising=False)
    return cache, mirror


def tiny(url: str, sha256: str | None = None) -> PuzzleSet:
    part = Part(url=url, sha256=sha256 or hashlib.sha256(ORIGINAL).hexdigest(), drop_first=1)
    return PuzzleSet(
        name="tiny",
        file="tiny.txt",
        title="two 4x4 grids",
        variant="4x4",
        puzzles=2,
        format="lines",
        sha256=checksum(MADE),
        recipe=Recipe(parts=(part,), dedupe=True),
        author="the test",
        licence="none",
        cite="-",
        origin="here",
    )


def test_a_good_download_is_checked_made_and_cached(server, folders):
    cache, _ = folders
    path = fetch(tiny(f"{server}/good.txt"))
    assert path == cache / "tiny.txt" and path.read_bytes() == MADE
    assert list(cache.iterdir()) == [path]  # no temporary or raw file left behind


def test_a_wrong_checksum_is_refused_and_nothing_is_cached(server, folders):
    cache, _ = folders
    with pytest.raises(PuzzleSetError, match=r"good\.txt: refused, .*hash") as caught:
        fetch(tiny(f"{server}/good.txt", sha256="0" * 64))
    assert "\n" not in str(caught.value)
    assert not cache.exists() or not any(cache.iterdir())


def test_a_recipe_result_that_differs_from_the_catalogue_is_not_written(server, folders):
    cache, _ = folders
    entry = tiny(f"{server}/good.txt")
    wrong = PuzzleSet(**{**entry.__dict__, "sha256": "1" * 64})
    with pytest.raises(PuzzleSetError, match="nothing was written"):
        fetch(wrong)
    assert not cache.exists() or not any(cache.iterdir())


def test_a_download_cut_halfway_leaves_no_partial_file(server, folders):
    cache, _ = folders
    with pytest.raises(PuzzleSetError) as caught:
        fetch(tiny(f"{server}/cut.txt"))
    message = str(caught.value)
    assert "cut.txt" in message and "\n" not in message
    assert not cache.exists() or not any(cache.rglob("*"))


def test_a_404_is_one_line(server, folders):
    with pytest.raises(PuzzleSetError) as caught:
        fetch(tiny(f"{server}/missing.txt"))
    assert str(caught.value) == f"tiny: {server}/missing.txt: HTTP 404 Not Found"


def test_connection_refused_is_one_line(folders):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(PuzzleSetError) as caught:
        fetch(tiny(f"http://127.0.0.1:{port}/good.txt"))
    message = str(caught.value)
    assert f"cannot download from 127.0.0.1:{port} (connection refused)" in message
    assert "\n" not in message


def test_download_base_replaces_githubs_raw_host_only(monkeypatch):
    monkeypatch.setenv("SUDOKU_SAT_DOWNLOAD_BASE", "http://127.0.0.1:1/raw/")
    assert download_url("https://raw.githubusercontent.com/o/r/c/f.txt") == (
        "http://127.0.0.1:1/raw/o/r/c/f.txt"
    )
    assert download_url("https://example.org/f.txt") == "https://example.org/f.txt"


def test_a_mirror_copy_that_differs_from_the_catalogue_is_refused(folders):
    _, mirror = folders
    (mirror / "norvig_hardest.txt").write_text("1" * 81 + "\n")
    with pytest.raises(PuzzleSetError, match=r"checksum .* differs .*datasets fetch hardest"):
        locate("hardest")


def test_absent_set_names_the_fetch_command(folders):
    with pytest.raises(PuzzleSetError) as caught:
        locate("top95")
    assert str(caught.value) == (
        "top95: not on this machine; fetch it with `python -m benchmarks datasets fetch top95`"
    )
    with pytest.raises(PuzzleSetError, match="no such puzzle set in the catalogue"):
        locate("top96")


@pytest.fixture
def hardest_bytes(public):
    """The bytes of the real `hardest` set, read before `folders` hides the machine's."""
    return public.set("hardest").read_bytes()


def test_crlf_mirror_copy_is_accepted_and_cached_canonical(hardest_bytes, folders):
    original = hardest_bytes
    cache, mirror = folders
    (mirror / "norvig_hardest.txt").write_bytes(original.replace(b"\n", b"\r\n"))
    assert locate("hardest") == mirror / "norvig_hardest.txt"
    path = fetch("hardest")
    assert path == cache / "norvig_hardest.txt" and path.read_bytes() == original
    assert locate("hardest") == path  # the cache comes first
