"""A headless Chromium driven over the DevTools protocol, for tests that look at pages.

Chromium's `--remote-debugging-pipe` speaks the DevTools protocol on file descriptors 3
(commands in) and 4 (replies and events out), one JSON message per NUL-terminated
chunk: no websocket and no extra package are needed, and no port is opened.  The
browser runs with a fresh profile folder and every background service off, so it never
touches the network.  `Browser` opens a page, evaluates JavaScript in it, takes
screenshots, and keeps every console message, exception and log entry of error level.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)


def find_chromium() -> str | None:
    """Return the path of a Chromium binary, or None."""
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Browser:
    """One headless Chromium with one page; use as a context manager."""

    def __init__(self, binary: str, width: int = 1280, height: int = 900, timeout: float = 60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="chromium-profile-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def wire_pipes() -> None:  # in the child, before exec: the pipes on fds 3 and 4
            # Copies first: the pipes may themselves be fds 3 and 4 (dup2 of an fd onto
            # itself would keep it close-on-exec) or sit on the other one's target.
            commands, replies = os.dup(to_child_r), os.dup(from_child_w)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        self.process = subprocess.Popen(
            [
                binary,
                *FLAGS,
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire_pipes,
            close_fds=False,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.errors: list[str] = []  # console errors, exceptions, error log entries
        self.console: list[str] = []  # every console message, for diagnostics
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send(
            "Target.attachToTarget", {"targetId": page["targetId"], "flatten": True}, session=False
        )["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    # --- the protocol --------------------------------------------------------------

    def send(self, method: str, params: dict | None = None, session: bool = True) -> dict:
        """Send one command and return its result; raise BrowserError on an error."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._note(reply)

    def _receive(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_child], [], [], max(0.0, left))
            if not ready:
                raise BrowserError("no answer from Chromium")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise BrowserError("Chromium closed the pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def _note(self, event: dict) -> None:
        self.events.append(event)
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
            self.console.append(f"{params['type']}: {text}")
            if params["type"] in ("error", "assert"):
                self.errors.append(f"console.{params['type']}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description", details.get("text", ""))
            self.errors.append(f"exception: {text}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"log ({entry['source']}): {entry['text']} {entry.get('url', '')}")

    def wait_for(self, method: str) -> dict:
        """Return the next event `method` (one already received counts)."""
        for event in self.events:
            if event.get("method") == method:
                self.events.remove(event)
                return event
        while True:
            event = self._receive()
            self._note(event)
            if event.get("method") == method:
                self.events.remove(event)
                return event

    # --- what tests use --------------------------------------------------------------

    def open(self, path: Path, fragment: str = "") -> None:
        """Load a local file afresh and wait until it has loaded (through a blank page:
        a navigation that changes only the #fragment would not load it again)."""
        url = path.resolve().as_uri() + (f"#{fragment}" if fragment else "")
        for address in ("about:blank", url):
            self.events.clear()
            self.send("Page.navigate", {"url": address})
            self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str):
        """Return the value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> bytes:
        """Write a PNG of the whole page to `path` and return its bytes."""
        size = self.evaluate("[document.documentElement.scrollWidth, document.body.scrollHeight]")
        clip = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.send(
            "Page.captureScreenshot",
            {"format": "png", "clip": clip, "captureBeyondViewport": True},
        )["data"]
        png = base64.b64decode(data)
        path.write_bytes(png)
        return png

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False)
            self.process.wait(timeout=10)
        except (BrowserError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            os.close(self._to_child)
            os.close(self._from_child)
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def main(argv: list[str] | None = None) -> int:
    """`python tests/browser.py PAGE.html OUT.png [STEP] [WIDTH]`: a screenshot of a page
    (of step STEP, 0-based, of an explain page), as the README's picture was taken."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3, 4):
        print(main.__doc__, file=sys.stderr)
        return 2
    binary = find_chromium()
    if binary is None:
        print("no Chromium found", file=sys.stderr)
        return 1
    width = int(args[3]) if len(args) > 3 else 1280
    with Browser(binary, width=width) as browser:
        browser.open(Path(args[0]), args[2] if len(args) > 2 else "")
        browser.screenshot(Path(args[1]))
        for error in browser.errors:
            print(error, file=sys.stderr)
        return 1 if browser.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
