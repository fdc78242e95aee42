"""Where a public puzzle set is found on this machine, and how it gets there.

A set is looked for, in this order:
1. the cache: `$SUDOKU_SAT_DATA`, or the user's cache folder (platformdirs:
   `~/.cache/sudoku-sat/puzzlesets` on Linux);
2. a local mirror: `$SUDOKU_SAT_MIRROR` when set (set it empty for none), otherwise
   `../shared/data` beside the checkout when that folder exists.
A file is used only when the SHA-256 of its canonical text is the catalogue's.

Nothing is downloaded behind the user's back: `locate` only looks, and says which
command fetches a set it cannot find.  `fetch` copies a verified mirror file into the
cache, or downloads the originals with pooch (progress bar, checked against the
catalogue's hash of each original, written under a temporary name and moved into place
only when complete), applies the recipe, checks the result and writes it atomically.

`$SUDOKU_SAT_LOOKUP_LOG`, when set, names a file to which every look at the cache or the
mirror appends one line: the test suite uses it to know which tests depend on the public
sets (tests/conftest.py), and a user to see whether a command reads them.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from puzzlesets.catalogue import PuzzleSet, lookup
from puzzlesets.normalise import RecipeError, canonical, checksum

CHECKOUT = Path(__file__).resolve().parents[1]
FETCH_COMMAND = "python -m benchmarks datasets fetch"


class PuzzleSetError(Exception):
    """A set that is not in the catalogue, not on this machine, or not as catalogued."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def _note_lookup(where: str) -> None:
    """Append `where` to $SUDOKU_SAT_LOOKUP_LOG when it is set (see the module's notes)."""
    log = os.environ.get("SUDOKU_SAT_LOOKUP_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{where} {os.getpid()}\n")


def cache_dir() -> Path:
    """Return the cache folder (not created here)."""
    _note_lookup("cache")
    if os.environ.get("SUDOKU_SAT_DATA"):
        return Path(os.environ["SUDOKU_SAT_DATA"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("sudoku-sat")) / "puzzlesets"


def mirror_dirs() -> list[Path]:
    """Return the local mirror folders to look in (existing ones only)."""
    _note_lookup("mirror")
    if "SUDOKU_SAT_MIRROR" in os.environ:
        given = os.environ["SUDOKU_SAT_MIRROR"]
        folders = [Path(given)] if given else []
    else:
        folders = [CHECKOUT.parent / "shared" / "data"]
    return [folder for folder in folders if folder.is_dir()]


def entry_for(name: str) -> PuzzleSet:
    """Return the catalogue entry `name`, or raise PuzzleSetError listing the names."""
    entry = lookup(name)
    if entry is None:
        from puzzlesets.catalogue import catalogue

        raise PuzzleSetError(
            name, f"no such puzzle set in the catalogue (names: {', '.join(catalogue())})"
        )
    return entry


@dataclass(frozen=True)
class Copy:
    """A file on this machine that may hold a set, and what checking it found."""

    path: Path
    where: str  # "cache" or "mirror"
    problem: str | None  # None when the file is the catalogued set


_checked: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> checksum


def _checksum_of(path: Path) -> str:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _checked:
        _checked[key] = checksum(path.read_bytes())
    return _checked[key]


def check_file(entry: PuzzleSet, path: Path) -> str | None:
    """Return None when `path` holds the set as catalogued, else what is wrong."""
    try:
        found = _checksum_of(path)
    except (OSError, UnicodeDecodeError) as error:
        return f"cannot read {path}: {getattr(error, 'strerror', None) or error}"
    if found != entry.sha256:
        return (
            f"{path}: checksum {found[:12]}... differs from the catalogue's {entry.sha256[:12]}..."
        )
    return None


def copies(entry: PuzzleSet) -> list[Copy]:
    """Return every file of this machine that should hold the set, checked."""
    found = []
    for folder, where in [(cache_dir(), "cache")] + [(m, "mirror") for m in mirror_dirs()]:
        path = folder / entry.file
        if path.is_file():
            found.append(Copy(path, where, check_file(entry, path)))
    return found


def locate(name: str) -> Path:
    """Return the path of a verified copy of the set, without downloading anything."""
    entry = entry_for(name)
    present = copies(entry)
    for copy in present:
        if copy.problem is None:
            return copy.path
    if present:
        raise PuzzleSetError(
            entry.name, f"{present[0].problem}; `{FETCH_COMMAND} {entry.name}` fetches a good copy"
        )
    raise PuzzleSetError(entry.name, not_here(entry))


def not_here(entry: PuzzleSet) -> str:
    """Return the sentence that says a set is absent and how to get it."""
    if entry.downloadable:
        return f"not on this machine; fetch it with `{FETCH_COMMAND} {entry.name}`"
    return (
        f"not on this machine and not downloadable ({entry.notes or 'assembled by hand'}); "
        f"put {entry.file} in {cache_dir()} or point $SUDOKU_SAT_MIRROR at a folder holding it"
    )


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def fetch(
    entry: PuzzleSet | str,
    progress: bool = False,
    say: Callable[[str], None] = lambda _: None,
) -> Path:
    """Return the path of a verified copy of the set in the cache, copying it from a
    mirror or downloading it when needed (see the module docstring)."""
    entry = entry_for(entry) if isinstance(entry, str) else entry
    present = copies(entry)
    for copy in present:
        if copy.problem is None and copy.where == "cache":
            return copy.path
    target = cache_dir() / entry.file
    for copy in present:
        if copy.problem is None:  # a good mirror copy
            _write_atomically(target, canonical(copy.path.read_bytes()))
            say(f"{entry.name}: copied from {copy.path}")
            return target
    if not entry.downloadable:
        raise PuzzleSetError(entry.name, not_here(entry))
    originals = [_download(entry, part.url, part.sha256, progress) for part in entry.recipe.parts]
    try:
        made = entry.recipe.make(originals)
    except (RecipeError, UnicodeDecodeError) as error:
        raise PuzzleSetError(entry.name, f"the originals do not fit the recipe: {error}") from None
    found = checksum(made)
    if found != entry.sha256:
        raise PuzzleSetError(
            entry.name,
            f"the file made from the originals has checksum {found[:12]}..., not the "
            f"catalogue's {entry.sha256[:12]}...; nothing was written",
        )
    _write_atomically(target, made)
    say(f"{entry.name}: downloaded, checked, written to {target}")
    return target


GITHUB_RAW = "https://raw.githubusercontent.com/"


def download_url(url: str) -> str:
    """Return where to download `url` from: `$SUDOKU_SAT_DOWNLOAD_BASE`, when set, takes
    the place of GitHub's raw-file host (a local copy of the originals, a proxy)."""
    base = os.environ.get("SUDOKU_SAT_DOWNLOAD_BASE")
    if base and url.startswith(GITHUB_RAW):
        return base.rstrip("/") + "/" + url[len(GITHUB_RAW) :]
    return url


def _download(entry: PuzzleSet, url: str, sha256: str, progress: bool) -> bytes:
    """Return the bytes at `url`, checked against `sha256`; nothing is kept on failure."""
    import pooch
    import requests

    url = download_url(url)
    pooch.get_logger().setLevel("WARNING")  # the progress bar says enough

    with tempfile.TemporaryDirectory(prefix="sudoku-sat-download-") as folder:
        try:
            path = pooch.retrieve(
                url,
                known_hash=f"sha256:{sha256}",
                fname="original",
                path=folder,
                progressbar=progress,
            )
        except ValueError as error:  # pooch: hash mismatch (its message names both)
            raise PuzzleSetError(entry.name, f"{url}: refused, {_first_line(error)}") from None
        except requests.HTTPError as error:
            status = error.response.status_code if error.response is not None else "?"
            reason = error.response.reason if error.response is not None else ""
            raise PuzzleSetError(entry.name, f"{url}: HTTP {status} {reason}".rstrip()) from None
        except requests.ConnectionError as error:
            host = urlparse(url).netloc
            raise PuzzleSetError(
                entry.name, f"{url}: cannot download from {host} ({_reason(error)})"
            ) from None
        except requests.RequestException as error:
            raise PuzzleSetError(entry.name, f"{url}: download failed ({_reason(error)})") from None
        return Path(path).read_bytes()


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _reason(error: Exception) -> str:
    """Return the innermost, shortest reason of a requests error (refused, cut, ...)."""
    text = str(error)
    for marker in (
        "Connection refused",
        "Name or service not known",
        "timed out",
        "Connection broken",
        "IncompleteRead",
        "Temporary failure in name resolution",
    ):
        if marker in text:
            return marker[0].lower() + marker[1:]
    return _first_line(error)
