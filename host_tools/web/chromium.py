"""Headless Chromium driven over the DevTools protocol, standard library only.

``Chromium()`` starts Debian's ``chromium`` with ``--remote-debugging-pipe``
(JSON messages, NUL-terminated, on file descriptors 3 and 4: no web socket, no
port) and one page; ``goto(url)``, ``evaluate(js)``, ``wait_for(js)``,
``key(name)``, ``reload()``, ``screenshot(path)``.  The tests and the web bench
use it; the profile folder (``profile=``) is where localStorage lives, so two
browsers on one profile see the same saves.
"""

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

from host_tools.core import UserError

EXECUTABLES = ("chromium", "chromium-browser", "google-chrome")
INSTALL_HINT = "install Debian's chromium package (apt-get install chromium)"
# DevTools key descriptions for Input.dispatchKeyEvent
KEYS = {"up": ("ArrowUp", 38), "down": ("ArrowDown", 40), "left": ("ArrowLeft", 37),
        "right": ("ArrowRight", 39), "a": ("z", 90), "b": ("x", 88)}


def find_chromium():
    for name in EXECUTABLES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    """The browser died, timed out, or a page script raised."""


class Chromium:
    def __init__(self, profile=None, width=600, height=700, timeout=60):
        exe = find_chromium()
        if exe is None:
            raise UserError("no Chromium found: " + INSTALL_HINT)
        self.timeout = timeout
        self._own_profile = profile is None
        self.profile = tempfile.mkdtemp(prefix="pocket-chromium-") if profile is None else str(profile)
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        args = [exe, "--headless", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height)]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--no-sandbox")         # Chromium refuses its sandbox as root (CI containers)

        def wire():
            import fcntl

            # via fds above 4 first: either pipe end may itself be 3 or 4
            high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=wire, close_fds=False)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buf = b""
        self._next_id = 0
        self.session = None
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")

    # -- the protocol ------------------------------------------------------------------------
    def send(self, method, params=None, timeout=None):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if self.session is not None and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise BrowserError("%s: %s" % (method, reply["error"].get("message")))
                return reply.get("result", {})

    def _read(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise BrowserError("Chromium exited (code %s)" % self.proc.poll())
                self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\0")
        return json.loads(raw)

    # -- pages -------------------------------------------------------------------------------
    def goto(self, url):
        """Navigate; returns once the new document is there (never the old one's state)."""
        self._leave()
        self.send("Page.navigate", {"url": url})
        self._arrived()

    def reload(self):
        self._leave()
        self.send("Page.reload", {"ignoreCache": True})
        self._arrived()

    def _leave(self):
        self.evaluate("window.__leaving = true")

    def _arrived(self):
        self.wait_for("!window.__leaving")

    def evaluate(self, expression, timeout=None):
        """The value of a JavaScript expression (a promise is awaited)."""
        got = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True}, timeout)
        if "exceptionDetails" in got:
            details = got["exceptionDetails"]
            raise BrowserError(details.get("exception", {}).get("description") or details.get("text"))
        return got["result"].get("value")

    def wait_for(self, expression, timeout=None):
        """Poll until the expression is truthy; returns its value."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            try:
                value = self.evaluate(expression)
            except BrowserError:
                value = None                # the page is between two documents
            if value:
                return value
            if time.monotonic() > deadline:
                raise BrowserError("timed out waiting for %s" % expression)
            time.sleep(0.05)

    def key(self, name, down=True):
        """Press (or release) a handheld button on the keyboard."""
        key, code = KEYS[name]
        self.send("Input.dispatchKeyEvent", {"type": "keyDown" if down else "keyUp", "key": key,
                                             "windowsVirtualKeyCode": code})

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        if self._own_profile:
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
