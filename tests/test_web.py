"""The web page (host_tools/web, docs/web.md) in a real headless Chromium.

One built site, one local server and one browser for the module; each test
loads the page with its own URL parameters, reads ``window.pocket`` (what
app.js exposes) and compares the screen with the simulator's after the same
key script.  Each test takes about a second (not marked slow).  No test is
skipped for a missing browser: `make test` installs Debian's chromium
(.ci/run) and a machine without it fails here.
"""

import json
import re
import time

import pytest
from clirun import run_cli

from host_tools.core.fwpath import ROOT
from host_tools.core.keyscript import parse_keys
from host_tools.emulation.sim import Simulator
from host_tools.web import web_cmd
from host_tools.web.chromium import BrowserError, Chromium

# one key script per game, from the launcher into play (menu order of games.py)
GAME_SCRIPTS = {
    "catmouse": "a wait a wait:20 right*2 wait:30",
    "trapcat": "down a wait a wait:30 up a wait:30",
    "junqi": "down*2 a wait a wait:20 right a wait:30",
    "klotski": "down*3 a wait a wait:40 down a wait:20",
}
SETTINGS_CHANGE = "down*4 a down*2 right b"       # Settings: difficulty up, B stores it
SETTINGS_SCREEN = "down*4 a"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    web_cmd.build_site(out)
    server, url = web_cmd.start_server(out)
    yield out, url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    with Chromium() as chromium:
        yield chromium


def load(browser, url, fresh=True):
    """Open the page (after emptying its storage when ``fresh``) and wait until it
    is running and any key script has played; returns window.pocket's fields."""
    if fresh:
        browser.goto(url.split("index.html")[0] + "firmware/manifest.json")     # same origin, no boot
        browser.wait_for("document.readyState === 'complete'")
        browser.evaluate("localStorage.clear()")
    browser.goto(url)
    state = browser.wait_for(
        "window.pocket && (pocket.error || (pocket.ready && (pocket.done || !location.search.includes('keys='))"
        " && pocket.loadMs)) && JSON.stringify({error: pocket.error, game: pocket.game, final: pocket.final,"
        " frame: pocket.frame, pack: pocket.pack, violations: pocket.violations,"
        " status: document.getElementById('status').textContent})", timeout=120)
    state = json.loads(state)
    assert state["error"] == ""
    assert state["violations"] == []
    return state


def keys_url(base, keys, extra=""):
    from urllib.parse import quote

    return base + "index.html?keys=" + quote(keys) + extra


def web_rows(hex_frame):
    buf = bytes.fromhex(hex_frame)
    return [[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]


def sim_rows(keys, saves_dir=None):
    """The glass after ``keys`` in the simulator, run as `sim --keys` runs it."""
    sim = Simulator(saves_dir=saves_dir)
    script = parse_keys(keys)
    for i in range(len(script) + 10):
        sim.step(script[i] if i < len(script) else ())
    return [list(row) for row in sim.oled.pixels()], sim.runtime.ctx.game_id


def cpython_app(tmp_path, **kw):
    """hw_web.App on CPython (the pure framebuf), saves and levels in tmp_path."""
    from host_tools.emulation.pinsim import install_host_modules

    install_host_modules()
    import hw_web

    return hw_web.App(saves_dir=str(tmp_path / "saves"), levels_dir=str(tmp_path / "levels"), **kw)


def test_backend_on_cpython_matches_the_simulator(tmp_path):
    """firmware/hw_web.py without a browser: the same frames as sim on the
    virtual clock, saves through the page's hook, the real clock after go_live."""
    saved, beeps = [], []
    app = cpython_app(tmp_path, virtual_clock=True, on_save=saved.append,
                      play=lambda freq, ms: beeps.append((freq, ms)))
    keys = SETTINGS_CHANGE + " up*3 a wait a wait:30"                 # then into Trap the Cat
    _play(app, keys)
    assert web_rows(app.frame()) == sim_rows(keys)[0]
    assert "_settings.new" in saved and (tmp_path / "saves" / "_settings.new").exists()
    app.go_live()
    before = app.hw.ticks_ms()
    time.sleep(0.05)
    assert 40 <= app.hw.ticks_ms() - before < 1000


def _play(app, keys):
    script = parse_keys(keys)
    for i in range(len(script) + 10):
        mask = 0
        for k, name in enumerate(("up", "down", "left", "right", "a", "b")):
            if i < len(script) and name in script[i]:
                mask |= 1 << k
        app.tick(mask, i * 1000 // 30)


def test_buzzer_reaches_the_page_and_honours_mute(tmp_path):
    junqi_bump = "down*2 a wait a wait:20 a wait:60 a wait:10 a wait:10"   # A twice where no move is
    beeps = []
    _play(cpython_app(tmp_path / "on", virtual_clock=True, play=lambda f, ms: beeps.append((f, ms))),
          junqi_bump)
    assert (220, 30) in beeps
    beeps.clear()
    _play(cpython_app(tmp_path / "off", virtual_clock=True, play=lambda f, ms: beeps.append((f, ms))),
          "down*4 a down a b up*2 " + junqi_bump)                      # Settings: sound off first
    assert beeps == [(1200, 30)]                 # the launcher's, before the sound went off


def test_install_pack_uses_the_firmware_checks(tmp_path):
    import hw_web
    import levelpack

    cpython_app(tmp_path)
    good = tmp_path / "good.bin"
    good.write_bytes(levelpack.build_pack("klotski", [b"VBBV/VBBV/VHHV/VSSV/S..S", b"VBBV/VBBV/SHHS/VSSV/V..V"]))
    levels = str(tmp_path / "levels")
    assert hw_web.install_pack(str(good), levels) == ["klotski", 2, "", "VBBV/VBBV/VHHV/VSSV/S..S"]
    assert (tmp_path / "levels" / "klotski.bin").read_bytes() == good.read_bytes()
    bad = tmp_path / "bad.bin"
    bad.write_bytes(levelpack.build_pack("klotski", [b"VBBV/VBBV/VHHV/VSSV/S.SS"]))
    game, count, reason, _ = hw_web.install_pack(str(bad), levels)
    assert (game, count) == ("klotski", 0) and "empty" in reason
    bad.write_bytes(b"PZLV\x01\x63" + bytes(20))
    assert hw_web.install_pack(str(bad), levels)[:3] == ["", 0, "unknown game id 99 at byte 5 (no game of "
                                                                "this firmware)"]


def test_build_writes_a_static_site(tmp_path, capsys):
    out = tmp_path / "site"
    assert run_cli(["web", "--build", str(out)], capsys)[0] == 0
    for name in web_cmd.SITE_FILES + web_cmd.PORT_FILES:
        assert (out / name).is_file()
    modules = json.loads((out / "firmware" / "manifest.json").read_text())["modules"]
    assert "hw_web.py" in modules and "main.py" in modules and "runtime.py" in modules
    for name in modules:    # the firmware as it is, byte for byte
        assert (out / "firmware" / name).read_bytes() == (ROOT / "firmware" / name).read_bytes()
    html = (out / "index.html").read_text()
    assert "script-src 'self' 'wasm-unsafe-eval'" in html and "default-src 'none'" in html
    assert "<script" not in html.replace('<script type="module" src="app.js"></script>', "")
    assert sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) <= 3 * 1024 * 1024


@pytest.mark.parametrize("game", sorted(GAME_SCRIPTS))
def test_key_script_reaches_each_game_pixel_identical_to_sim(site, browser, game):
    keys = GAME_SCRIPTS[game]
    state = load(browser, keys_url(site[1], keys))
    rows, sim_game = sim_rows(keys)
    assert sim_game == game
    assert state["game"] == game
    assert web_rows(state["final"]) == rows


def _sel(browser):
    return browser.evaluate("pocket.app.runtime.launcher.sel")


def test_key_script_syntax_is_the_simulators(site, browser):
    load(browser, site[1] + "index.html")
    names = ("up", "down", "left", "right", "a", "b")
    for text in ("down a wait right*3", "Z X wait:7, hold:b:40 b+a", "UP+down*2 hold:z:0 wait:0", ""):
        want = [sum(1 << names.index(n) for n in tick) for tick in parse_keys(text)]
        assert browser.evaluate("pocket.parseKeys(%s)" % json.dumps(text)) == want
    for text, message in (("wait:1000001", "count in key token 'wait:1000001' is over 1000000"),
                          ("jump", "unknown key 'jump' in 'jump'"), ("hold:a", "bad key token 'hold:a'"),
                          ("a*x", "bad count in key token 'a*x'"), ("\u212a", "non-ASCII")):
        with pytest.raises(BrowserError, match=re.escape(message)):
            browser.evaluate("pocket.parseKeys(%s)" % json.dumps(text))


def test_keyboard_holds_repeat_and_taps_start_a_game(site, browser):
    load(browser, site[1] + "index.html")
    browser.key("down")                  # held: the firmware's auto-repeat moves on
    time.sleep(0.6)
    browser.key("down", down=False)
    assert _sel(browser) >= 2
    while _sel(browser) != 1:            # taps, one step each
        want = _sel(browser) - 1
        browser.key("up")
        browser.wait_for("pocket.app.runtime.launcher.sel === %d" % want)
        browser.key("up", down=False)
        time.sleep(0.1)
    browser.key("a")
    time.sleep(0.1)
    browser.key("a", down=False)
    assert browser.wait_for("pocket.game") == "trapcat"


def test_touch_on_the_screen_buttons(site, browser):
    browser.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 2})
    try:
        load(browser, site[1] + "index.html")
        box = browser.evaluate("(() => { const r = document.querySelector('#pad .a').getBoundingClientRect();"
                               " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        browser.evaluate("window.kinds = []; addEventListener('pointerdown', (e) => kinds.push(e.pointerType),"
                         " true)")
        browser.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": box[0], "y": box[1]}]})
        time.sleep(0.1)
        browser.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert browser.wait_for("pocket.game") == "catmouse"
        assert browser.evaluate("kinds") == ["touch"]
    finally:
        browser.send("Emulation.setTouchEmulationEnabled", {"enabled": False})


def test_save_survives_a_reload(site, browser, tmp_path):
    load(browser, keys_url(site[1], SETTINGS_CHANGE))
    # the settings are stored as a move's save is: one copy written (.new or .bak)
    stored = browser.evaluate("Object.keys(localStorage).filter((k) => k.startsWith("
                              "'pocket-puzzles/saves/_settings.')).map((k) => localStorage.getItem(k))")
    assert any("difficulty" in __import__("base64").b64decode(s).decode() for s in stored), stored
    state = load(browser, keys_url(site[1], SETTINGS_SCREEN), fresh=False)
    sim_rows(SETTINGS_CHANGE, saves_dir=tmp_path)
    expected, _ = sim_rows(SETTINGS_SCREEN, saves_dir=tmp_path)      # the sim, same saves folder
    fresh, _ = sim_rows(SETTINGS_SCREEN)
    assert expected != fresh
    assert web_rows(state["final"]) == expected
    load(browser, site[1] + "index.html", fresh=False)            # and a reload of the page itself
    browser.reload()
    browser.wait_for("window.pocket && pocket.loadMs")
    assert browser.evaluate("pocket.app.setting('difficulty')") == 2


def test_a_game_in_progress_survives_a_reload(site, browser, tmp_path):
    """A move's save (the game's play save: a folder of its own, catmouse/play.new)
    is copied to the browser's storage and back: after a reload the launcher offers
    CONTINUE, pixel for pixel the simulator's on the same saves."""
    played = "a wait:2 a wait:8 left wait:10 hold:b:20 up a wait:2"   # a move, then QUIT
    load(browser, keys_url(site[1], played))
    keys = browser.evaluate("Object.keys(localStorage).filter((k) => k.includes('catmouse/play'))")
    assert keys, "the play save was not kept"
    state = load(browser, keys_url(site[1], "wait:2"), fresh=False)
    sim_rows(played, saves_dir=tmp_path)
    expected, _ = sim_rows("wait:2", saves_dir=tmp_path)
    fresh, _ = sim_rows("wait:2")
    assert expected != fresh                                      # CONTINUE is on the launcher
    assert web_rows(state["final"]) == expected


def _pack_file(site, name, data):
    (site[0] / name).write_bytes(data)
    return name


def test_bad_pack_shows_the_device_line(site, browser, tmp_path):
    import levelpack
    import userlevels
    import klotski_game

    good = levelpack.build_pack("klotski", [b"VBBV/VBBV/VHHV/VSSV/S..S"])
    bad = good[:-3]                                                  # truncated
    device_file = tmp_path / "klotski.bin"
    device_file.write_bytes(bad)
    with pytest.raises(levelpack.LevelPackError) as exc:
        userlevels.Pack(str(device_file), "klotski", klotski_game.check_level)
    line = userlevels.short_reason(exc.value)
    state = load(browser, site[1] + "index.html?pack=" + _pack_file(site, "bad.bin", bad))
    assert state["pack"]["reason"] == line
    assert state["status"] == "LEVEL PACK BAD (klotski): " + line
    # not a pack at all: the header's line, the game unknown
    junk = _pack_file(site, "junk.bin", b"<html>this is not a level pack</html>")
    state = load(browser, site[1] + "index.html?pack=" + junk)
    assert state["pack"]["game"] == "" and "not a level pack" in state["status"]


def test_pack_text_reaches_the_page_as_text_only(site, browser):
    import catmouse_maps
    import levelpack

    name = "; <script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">"
    level = (name + "\n" + catmouse_maps.LEVELS[1][1]).encode()
    pack = _pack_file(site, "xss.bin", levelpack.build_pack("catmouse", [level]))
    state = load(browser, site[1] + "index.html?pack=" + pack)
    assert state["pack"]["reason"] == "" and state["pack"]["count"] == 1
    assert name in state["status"]                                   # shown, as text
    assert browser.evaluate("typeof window.pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('img').length") == 0
    assert browser.evaluate("document.scripts.length") == 1          # app.js only
    # the policy holds: an inline script added to the page does not run, and is reported
    browser.evaluate("(() => { const s = document.createElement('script');"
                     " s.textContent = 'window.inline = 1'; document.body.append(s); })()")
    assert browser.wait_for("pocket.violations.length") == 1
    assert browser.evaluate("typeof window.inline") == "undefined"
    # the pack is where the game reads it: its level follows the built-in ones (up wraps to it)
    state = load(browser, keys_url(site[1], "a wait up wait", "&pack=" + pack))
    assert state["game"] == "catmouse"
    assert browser.evaluate("pocket.app.runtime.game.level") == len(catmouse_maps.LEVELS)


def test_pack_by_drag_and_drop_and_file_picker(site, browser):
    import levelpack

    pack = _pack_file(site, "two.bin", levelpack.build_pack("klotski", [b"VBBV/VBBV/VHHV/VSSV/S..S",
                                                                        b"VBBV/VBBV/SHHS/VSSV/V..V"]))
    load(browser, site[1] + "index.html")
    browser.evaluate("fetch('%s').then((r) => r.arrayBuffer()).then((bytes) => {"
                     " const drop = new DataTransfer(); drop.items.add(new File([bytes], 'two.bin'));"
                     " dispatchEvent(new DragEvent('drop', {dataTransfer: drop, cancelable: true})); })" % pack)
    assert browser.wait_for("pocket.pack && pocket.pack.count") == 2
    assert browser.evaluate("document.getElementById('status').textContent").startswith(
        "Level pack for klotski: 2 levels")
    load(browser, site[1] + "index.html")
    node = browser.send("DOM.getDocument")["root"]["nodeId"]
    picker = browser.send("DOM.querySelector", {"nodeId": node, "selector": "#packfile"})["nodeId"]
    browser.send("DOM.setFileInputFiles", {"nodeId": picker, "files": [str(site[0] / pack)]})
    assert browser.wait_for("pocket.pack && pocket.pack.game") == "klotski"


def test_game_and_level_parameters_open_a_level(site, browser):
    state = load(browser, site[1] + "index.html?game=klotski&level=2")
    assert state["game"] == "klotski"
    assert browser.evaluate("pocket.app.runtime.game.level") == 1
    state = load(browser, site[1] + "index.html?game=nosuch")
    assert state["status"] == 'no game "nosuch" on this handheld'


def test_bad_parameters_are_reported_as_text(site, browser):
    state = load(browser, site[1] + "index.html?pack=missing.bin")
    assert state["status"] == "cannot load the pack missing.bin: HTTP 404"
    browser.goto(keys_url(site[1], "a <b>jump</b>"))
    error = browser.wait_for("window.pocket && pocket.error")
    assert error == "unknown key '<b>jump</b>' in '<b>jump</b>'"
    assert browser.evaluate("document.getElementById('status').textContent") == \
        "The handheld failed to start: " + error
    assert browser.evaluate("document.querySelectorAll('b').length") == 0


def test_serve_builds_and_serves_the_page(tmp_path):
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "web", "--serve", "--port", "0",
                             "--build", str(tmp_path / "site")], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("built ")
        line = proc.stdout.readline()
        assert line.startswith("serving http://127.0.0.1:")
        url = line.split()[1]
        with urllib.request.urlopen(url + "index.html", timeout=10) as page:
            assert b"Content-Security-Policy" in page.read()
        with urllib.request.urlopen(url + "micropython.wasm", timeout=10) as wasm:
            assert wasm.headers["Content-Type"] == "application/wasm"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_klotski_solver_is_sliced_over_many_ticks(site, browser):
    """Live play keeps the device's slicing: the solver's table takes many ticks
    (~250, `make bench`), each bounded by ctx.deadline, so the page goes on
    ticking while it works."""
    import klotski_game

    load(browser, site[1] + "index.html?game=klotski&level=1")
    browser.wait_for("pocket.tickMs.length >= 15")
    assert browser.evaluate("pocket.app.runtime.game.task.phase") in (klotski_game.S_SETUP, klotski_game.S_BUILD)


DARK = "00" * 1024                       # the glass with the panel off


def test_the_panel_goes_dark_when_idle_and_a_key_wakes_it(tmp_path):
    """hw_web on CPython at the default "sleep" (1 min): the runtime switches the
    panel off through the display's own poweroff (the page's glass reads blank),
    and the first key brings the same frame back and does nothing else."""
    import runtime

    app = cpython_app(tmp_path, virtual_clock=True)
    _play(app, "wait:20")
    shown = app.frame()
    assert shown != DARK and app.hw.display.powered
    now = 0
    for i in range(30, 61 * 30):        # past 60 s of virtual time, nothing pressed
        now = i * 1000 // 30
        app.tick(0, now)
    assert app.runtime.power == runtime._OFF and not app.hw.display.powered
    assert app.frame() == DARK
    assert app.tick(1 << 4, now + 33) == shown      # A wakes it: the same frame, lit
    for k in range(2, 8):
        app.tick(0, now + 33 * k)
    assert app.runtime.power == runtime._AWAKE and app.runtime.screen is app.runtime.launcher
    assert app.game_id() == "" and app.runtime.launcher.sel == 0


def _canvas_lit(browser):
    """How many of the canvas's pixels are not black."""
    return browser.evaluate("(() => { const c = document.getElementById('screen');"
                            " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
                            " let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] | d[i + 1] | d[i + 2]) n++;"
                            " return n; })()")


def test_the_page_left_idle_goes_dark_and_a_key_wakes_it(site, browser):
    """The page idle past the sleep time (a key script of 62 s on the virtual
    clock, then the real one): the canvas is dark, no error is shown, and a key
    lights it again on the launcher as it was, the key doing nothing else."""
    state = load(browser, keys_url(site[1], "wait:1860"))
    assert state["final"] == DARK and state["frame"] == DARK
    assert browser.evaluate("pocket.app.runtime.power") == 2
    assert _canvas_lit(browser) == 0
    time.sleep(0.2)                      # live ticks while off: still dark, no error
    assert browser.evaluate("pocket.error") == "" and _canvas_lit(browser) == 0
    browser.key("a")
    browser.wait_for("pocket.frame !== '%s'" % DARK)
    browser.key("a", down=False)
    time.sleep(0.2)
    assert _canvas_lit(browser) > 0
    assert browser.evaluate("pocket.app.runtime.power") == 0
    assert browser.evaluate("pocket.error") == "" and browser.evaluate("pocket.game") == ""
    assert _sel(browser) == 0
    assert browser.evaluate("document.getElementById('status').textContent") == ""
