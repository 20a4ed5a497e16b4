"""The web page's link cable (host_tools/web/site/app.js, hw_web.LinkPipe): two
handhelds in one headless Chromium, as two frames of one page (the same
origin: a BroadcastChannel carries the bytes between them exactly as between
two tabs).  Both go to the launcher's "2 Players" line, pick Flip Junqi, meet,
and a flip by the first mover shows on both."""

import json
import time

import pytest

from host_tools.web import web_cmd
from host_tools.web.chromium import Chromium

KEYS = {"up": "ArrowUp", "down": "ArrowDown", "a": "a", "b": "b"}
TWO = ('<!doctype html><meta charset="utf-8"><title>two handhelds</title>'
       '<iframe src="index.html?link=test" width="520" height="600"></iframe>'
       '<iframe src="index.html?link=test" width="520" height="600"></iframe>')


@pytest.fixture(scope="module")
def two_tabs(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    web_cmd.build_site(out)
    (out / "two.html").write_text(TWO)
    server, url = web_cmd.start_server(out)
    try:
        with Chromium(width=1100, height=700) as browser:
            browser.goto(url + "two.html")
            browser.wait_for("frames.length === 2 && [0, 1].every(i => frames[i].pocket && "
                             "frames[i].pocket.ready && frames[i].pocket.loadMs)", timeout=180)
            yield browser
    finally:
        server.shutdown()
        server.server_close()


def _tap(browser, frame, key):
    for kind in ("keydown", "keyup"):
        browser.evaluate("frames[%d].dispatchEvent(new KeyboardEvent('%s', {key: '%s'}))"
                         % (frame, kind, KEYS[key]))
        time.sleep(0.12)
    time.sleep(0.15)


def _state(browser, frame):
    """The frame's linked game as the firmware holds it (through the port's proxies)."""
    return json.loads(browser.evaluate(
        "(() => { const g = frames[%d].pocket.app.runtime.game;"
        " if (!g || !g.match) return JSON.stringify(null);"
        " const m = g.match;"
        " return JSON.stringify({plies: m.plies, hash: m.state_hash(), me: m.me, seed: m.seed,"
        " status: g.link.status(), errors: frames[%d].pocket.error}); })()" % (frame, frame)))


def test_two_tabs_meet_over_the_broadcast_channel_and_see_each_others_flip(two_tabs):
    browser = two_tabs
    for frame in (0, 1):
        _tap(browser, frame, "up")           # UP from the first line: "2 Players"
        _tap(browser, frame, "a")
    _tap(browser, 0, "a")                    # FLIP JUNQI, at different moments
    time.sleep(0.4)
    _tap(browser, 1, "a")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        states = [_state(browser, f) for f in (0, 1)]
        if all(states):
            break
        time.sleep(0.3)
    a, b = states
    assert a and b, states
    assert a["seed"] == b["seed"] and {a["me"], b["me"]} == {0, 1}
    first = 0 if a["me"] == 0 else 1
    _tap(browser, first, "a")                # a flip of the piece under the cursor
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        a, b = (_state(browser, f) for f in (0, 1))
        if a["plies"] == b["plies"] == 1:
            break
        time.sleep(0.3)
    assert a["plies"] == b["plies"] == 1 and a["hash"] == b["hash"], (a, b)
    assert a["status"] == b["status"] == ""
