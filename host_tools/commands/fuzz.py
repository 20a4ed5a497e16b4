"""`python -m host_tools fuzz`: seeded mutation fuzzing of every parser.

Each target takes real inputs (built-in levels, maps/, boards/, saves and packs
built by the firmware's own writers), mutates them (character and byte edits,
truncation, duplication, deep JSON nesting, Unicode look-alikes such as 'ß',
'ſ', 'ı', U+00A0, Arabic digits) and checks the parser's contract:

- it returns or raises its own one-line error type, nothing else (a TypeError
  or RecursionError is a failure);
- whatever it accepts is plain ASCII text (what CPython and MicroPython read
  the same way) and survives a round trip: parse -> format -> parse is equal
  (a save: formatted a second time, it is the first writing byte for byte).

The games' saves (``saves-<game>``) are checked through the firmware itself:
its boot and runtime booted on mutated saves, CONTINUE and random keys; no
exception may pass the runtime, no GAME ERROR may show (a failure gives the
game's traceback).

The same seed gives the same inputs.  `make test` runs a few thousand cases per
target (tests/test_fuzz.py; the games' saves: 2,000 of 30 ticks each in the
tests marked slow, tests/test_fuzz_saves.py, a few dozen in the others); `fuzz
--cases 100000` is the long run.
"""

import importlib.machinery
import io
import json
import random
import time
import traceback
from pathlib import Path

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import asciitext
from host_tools.core import UserError
from host_tools.core.fwpath import ROOT

# characters that CPython and MicroPython treat differently, or that are
# one-to-many under case mapping
TRICKY = "\u00df\u017f\u0131\u212a\ufb00\u00a0\u3000\x1c\x1f\x0b\x0c\t\r\u0663\u00b2\u00e9\x00\ufeff\u0130"


class FuzzFailure(AssertionError):
    """A parser broke its contract on one input."""


def _expect(cond, what):
    if not cond:
        raise FuzzFailure(what)


def _host_ascii(text, what):
    _expect(text.isascii(), "%s accepted non-ASCII text" % what)


def _ascii(text, what):
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode()
    _expect(asciitext.first_bad(text) is None, "%s accepted non-ASCII text" % what)


# -- mutation --------------------------------------------------------------------------
def mutate_text(rng, text, alphabet, json_like=False):
    """1-4 random edits of ``text`` with characters from ``alphabet`` + TRICKY."""
    chars = alphabet + TRICKY
    for _ in range(rng.randint(1, 4)):
        n = len(text)
        op = rng.randrange(10 if json_like else 9)
        pos = rng.randint(0, n)
        if op == 0 and n:                          # replace
            pos = min(pos, n - 1)
            text = text[:pos] + rng.choice(chars) + text[pos + 1:]
        elif op == 1:                              # insert
            text = text[:pos] + rng.choice(chars) + text[pos:]
        elif op == 2 and n:                        # delete a run
            text = text[:pos] + text[pos + rng.randint(1, 3):]
        elif op == 3 and n:                        # swap two characters
            a, b = sorted((rng.randrange(n), rng.randrange(n)))
            if a != b:
                text = text[:a] + text[b] + text[a + 1:b] + text[a] + text[b + 1:]
        elif op == 4:                              # truncate
            text = text[:pos]
        elif op == 5 and n:                        # duplicate a slice
            end = min(n, pos + rng.randint(1, 12))
            text = text[:end] + text[pos:end] + text[end:]
        elif op == 6 and n:                        # case flip
            pos = min(pos, n - 1)
            text = text[:pos] + text[pos].swapcase() + text[pos + 1:]
        elif op == 7:                              # a line dropped or doubled
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                del lines[i]
            else:
                lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif op == 8 and n:                        # a tricky look-alike
            pos = min(pos, n - 1)
            text = text[:pos] + rng.choice(TRICKY) + text[pos + 1:]
        elif op == 9:                              # deep nesting
            k = rng.choice((2, 20, 200, 1200))
            opener = rng.choice(("[", "{\"a\":", "[{\"b\":"))
            text = text[:pos] + opener * k + text[pos:]
    return text


def mutate_bytes(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        n = len(b)
        op = rng.randrange(6)
        pos = rng.randint(0, n)
        if op == 0 and n:
            b[min(pos, n - 1)] = rng.randrange(256)
        elif op == 1 and n:
            b[min(pos, n - 1)] ^= 1 << rng.randrange(8)
        elif op == 2:
            b[pos:pos] = bytes([rng.randrange(256)]) * rng.randint(1, 4)
        elif op == 3:
            del b[pos:pos + rng.randint(1, 8)]
        elif op == 4:
            del b[pos:]
        elif op == 5 and n:
            b[pos:pos] = rng.choice(("\u00df".encode(), b"\xff", b"\n", b"0", b"[" * 50))
    return bytes(b)


# -- targets ------------------------------------------------------------------------------
def _klotski_seeds():
    import klotski_levels
    return [line.split("|")[1] for line in klotski_levels.LEVELS.split("\n")]


def _klotski_input(rng, seeds):
    text = rng.choice(seeds)
    if rng.random() < 0.2:
        text = text.lower() if rng.random() < 0.5 else " " + text + "\n"
    return text if rng.random() < 0.05 else mutate_text(rng, text, "SVHB./ sb")


def _klotski_check(text):
    import klotski
    try:
        cells = klotski.parse(text)
    except klotski.LayoutError:
        return False
    _ascii(text, "klotski.parse")
    canon = "/".join(bytes(cells[i:i + 4]).decode() for i in range(0, 20, 4))
    _expect(canon == text.strip().upper(), "parsed cells %s do not match the text" % canon)
    try:
        klotski.anchors(cells)
    except klotski.LayoutError:
        return False
    _expect(bytes(klotski.parse(canon)) == bytes(cells), "round trip changed the layout")
    return True


def _map_seeds():
    import catmouse_maps
    out = [p.read_text() for p in sorted((ROOT / "maps").glob("*.txt"))]
    out += [catmouse_maps.level_text(i) for i in range(len(catmouse_maps.LEVELS))]
    return out


def _map_input(rng, seeds):
    return mutate_text(rng, rng.choice(seeds), ".gw#CM;\n ")


def _map_check(text):
    import catmouse
    try:
        m = catmouse.parse_map(text)
    except catmouse.MapError:
        return False
    _ascii(text, "catmouse.parse_map")
    again = catmouse.parse_map(m.to_text())
    _expect((again.cols, again.rows, bytes(again.costs), again.cat, again.mouse)
            == (m.cols, m.rows, bytes(m.costs), m.cat, m.mouse), "map round trip differs")
    return True


def _trapcat_seeds():
    import trapcat
    out = []
    rng = trapcat.Rng(7)
    for size in (3, 5, 7, 9, 11, 15):
        b = trapcat.Board(size)
        b.reset(rng, blocks=size + 1)
        out.append("; level %d\n" % size + trapcat.level_text(b))
    return out


def _trapcat_input(rng, seeds):
    text = rng.choice(seeds)
    if rng.random() < 0.3:
        return mutate_text(rng, text, ".#C; \n").encode("utf-8", "surrogatepass")
    return mutate_text(rng, text, ".#C; \n")


def _trapcat_check(text):
    import trapcat
    try:
        size, cells, cat = trapcat.parse_level(text)
    except (trapcat.LevelError, UnicodeError):
        return False
    _ascii(text, "trapcat.parse_level")
    b = trapcat.Board(size)
    b.load(cells, cat)
    again = trapcat.parse_level(trapcat.level_text(b))
    _expect((again[0], bytes(again[1]), again[2]) == (size, bytes(cells), cat),
            "level round trip differs")
    return True


def _junqi_input(rng, seeds):
    import junqi_board
    if rng.random() < 0.5:
        return mutate_text(rng, junqi_board.cell_name(rng.randrange(60)), "ABCLl0459")
    return "".join(rng.choice("AbLlMz049" + TRICKY) for _ in range(rng.randint(0, 3)))


def _junqi_check(name):
    import junqi_board
    try:
        c = junqi_board.parse_cell(name)
    except ValueError:
        return False
    _ascii(name, "junqi_board.parse_cell")
    _expect(junqi_board.cell_name(c) == name.upper(), "cell %d is named %s, not %r"
            % (c, junqi_board.cell_name(c), name))
    return True


_SAVE_SEEDS = ({"best": 12, "level": 3, "name": "cat"}, {"solved": [1, 2, 5], "x": {"y": None}},
               {"scores": {"easy": [3, 4], "hard": []}, "flag": True, "pi": 3.5}, {})


def _saves_seeds():
    import savestore as saves
    return [saves.encode(d, i + 1) for i, d in enumerate(_SAVE_SEEDS)]


def _reseal(body, seq):
    import savestore as saves
    return ("%s %d %d %s\n" % (saves.MAGIC, seq, len(body), saves.checksum(body))).encode() + body


# numbers at the edges of what a float holds: 1e999 reads as infinity (written
# back as Infinity, or inf on MicroPython: no JSON), 2.5e-400 as 0.0, -0 as 0
_EDGE_NUMBERS = ("1e999", "-1e400", "1E309", "1e308", "1e300", "2.5e-400", "4.9e-324", "-0",
                 "-0.0", "123456789012345678901234", "0.1", "1e22", "7", "true")


def _saves_input(rng, seeds):
    raw = rng.choice(seeds)
    if rng.random() < 0.15:
        body = '{"n": %s, "l": [%s, {"x": %s}]}' % tuple(rng.choice(_EDGE_NUMBERS) for _ in range(3))
        return _reseal(body.encode(), rng.randint(2, 9))
    if rng.random() < 0.3:
        return mutate_bytes(rng, raw)
    nl = raw.index(b"\n")
    body = mutate_text(rng, raw[nl + 1:].decode(), "{}[],:\"0123456789.-eE truefalsnul\\",
                       json_like=True)
    return _reseal(body.encode("utf-8", "surrogatepass"), rng.randint(2, 9))


_BAK = {"from": "bak"}


def _saves_check(raw):
    import savestore as saves
    got = saves.decode(raw)
    fs = saves.MemFs()
    fs.files["g.sav"] = raw
    fs.files["g.bak"] = saves.encode(_BAK, 1)
    data, status = saves.Saves(fs).load("g")
    if got is None:
        _expect((data, status) == (_BAK, "recovered"), "a valid .bak was not used: %r"
                % ((data, status),))
        return False
    seq, body = got
    _expect(isinstance(body, dict), "decode returned %r" % type(body))
    _ascii(raw, "saves.decode")
    # what the reader accepts, the writer writes back, and that reads as the
    # same values of the same types (1, 1.0 and true are == in Python: the
    # second writing must be the first byte for byte)
    again = saves.encode(body, seq)
    back = saves.decode(again)
    _expect(back == (seq, body), "save round trip differs")
    _expect(saves.encode(back[1], seq) == again, "save written back differs: %r" % again[:80])
    if seq > 1:
        _expect((data, status) == (body, "ok"), "load did not take the newest save")
    return True


def _board_seeds():
    return [p.read_text() for p in sorted((ROOT / "boards").glob("*.json"))]


def _board_input(rng, seeds):
    text = rng.choice(seeds)
    if rng.random() < 0.5:     # edit the parsed structure: values of the wrong type
        cfg = json.loads(text)
        for _ in range(rng.randint(1, 3)):
            node = cfg
            for _ in range(4):
                if isinstance(node, dict) and node:
                    key = rng.choice(sorted(node))
                    if rng.random() < 0.4 or not isinstance(node[key], (dict, list)):
                        node[key] = rng.choice(([{}, None], {}, [], None, 0, -1, 1.5, "0x3C",
                                                "\u0663", " 7", True, ["up", "down"], "b",
                                                {"pin": 3}, [[]], "x" * 3))
                        break
                    node = node[key]
                elif isinstance(node, list) and node:
                    i = rng.randrange(len(node))
                    node[i] = rng.choice(({}, None, [], "up", 3))
                    break
        text = json.dumps(cfg)
    return mutate_text(rng, text, "{}[],:\"0123456789 abupdownpin", json_like=True)


def _board_check(text):
    import boardcfg
    try:
        cfg = boardcfg.loads(text)
    except boardcfg.BoardError:
        return False
    _expect(boardcfg.loads(json.dumps(cfg)) == cfg, "board round trip differs")
    boardcfg.button_pins(cfg)
    boardcfg.combos(cfg)
    return True


_PACK_GAMES = ("klotski", "catmouse", "trapcat")


def _pack_seeds():
    return [build_pack_for(game) for game in _PACK_GAMES]


def build_pack_for(game):
    import catmouse_maps
    import levelpack
    if game == "klotski":
        levels = [t.encode() for t in _klotski_seeds()[:6]]
    elif game == "catmouse":
        levels = [catmouse_maps.level_text(i).encode() for i in range(2)]
    else:
        levels = [t.encode() for t in _trapcat_seeds()[:3]]
    return levelpack.build_pack(game, levels)


def _pack_input(rng, seeds):
    import levelpack
    if rng.random() < 0.5:      # well-formed packs of mutated levels: the game parsers behind
        game = rng.choice(_PACK_GAMES)
        texts = {"klotski": _klotski_seeds, "catmouse": _map_seeds, "trapcat": _trapcat_seeds}
        levels = []
        for text in rng.sample(texts[game](), 2):
            data = mutate_text(rng, text, ".#CSVHBgwM\n").encode("utf-8", "surrogatepass")
            levels.append(data[:levelpack.MAX_LEVEL_BYTES] or b".")
        return levelpack.build_pack(game, levels)
    blob = bytearray(mutate_bytes(rng, rng.choice(seeds)))
    if rng.random() < 0.5 and len(blob) >= 16:   # reach the checks behind the CRC
        levelpack._put_u32(blob, 12, levelpack.binascii.crc32(bytes(blob[16:])) & 0xFFFFFFFF)
    return bytes(blob)


def _level_parser(game):
    import catmouse
    import klotski
    import trapcat
    if game == "klotski":
        return lambda data: klotski.anchors(klotski.parse(data.decode()))
    if game == "catmouse":
        return lambda data: catmouse.parse_map(data.decode())
    return trapcat.parse_level


def _pack_check(blob):
    import levelpack
    try:
        pack = levelpack.LevelPack(io.BytesIO(blob))
        pack.check_levels(_level_parser(pack.game))
        levels = [pack.level(i) for i in range(pack.count)]
    except levelpack.LevelPackError:
        return False
    _expect(levelpack.build_pack(pack.game, levels) == blob, "pack round trip differs")
    return True


def _journal_seeds():
    import boot_switch
    return [boot_switch.format_journal([("M", "main.py"), ("D", "old.mpy"),
                                        ("M", "levels/klotski.bin")]),
            boot_switch.format_journal([("D", "a.py")])]


def _journal_input(rng, seeds):
    if rng.random() < 0.3:
        return mutate_bytes(rng, rng.choice(seeds))
    return mutate_text(rng, rng.choice(seeds).decode(), "MD /.%pyab\n").encode("utf-8",
                                                                               "surrogatepass")


def _journal_check(data):
    import boot_switch
    try:
        steps = boot_switch.parse_journal(data)
    except ValueError:
        return False
    _expect(boot_switch.parse_journal(boot_switch.format_journal(steps)) == steps,
            "journal round trip differs")
    return True


def _link_seeds():
    import link
    out = bytearray(link.MAX_FRAME)
    frames = []
    for seq, kind, payload in ((1, link.HELLO, b"\x01\x03\x01\x00\x640.3.0"), (1, link.ACK, b"\x01"),
                               (2, link.MOVE, b"\x05\x07\x12\x34"), (0, link.BEAT, b""),
                               (3, link.UNDO_ASK, b""), (4, link.MOVE, bytes(range(32)))):
        n = link.encode(out, seq, kind, payload, len(payload))
        frames.append(bytes(out[:n]))
    return [b"".join(frames), frames[2], frames[0] + frames[5]]


def _link_input(rng, seeds):
    return mutate_bytes(rng, rng.choice(seeds))


class _Wire:
    """A transport that hands over ``data`` in pieces of 1..40 bytes."""

    def __init__(self, data, rng):
        self.data = data
        self.rng = rng

    def readinto(self, buf):
        n = min(len(buf), len(self.data), self.rng.randint(1, 40))
        if not n:
            return None
        buf[:n] = self.data[:n]
        self.data = self.data[n:]
        return n

    def write(self, data):
        pass


def _link_check(data):
    """The parser never raises, every frame it accepts encodes back to the same
    bytes, and a Link fed the same bytes polls to the end (no hang, no raise)."""
    import link
    parser = link.Parser()
    out = bytearray(link.MAX_FRAME)
    accepted = 0
    for i, byte in enumerate(data):
        if parser.feed(byte, i):
            f = parser.frame
            n = link.encode(out, f[2], f[3], f[link.HEADER:], f[1])
            _expect(bytes(out[:n]) == bytes(f[:parser.length]), "link frame round trip differs")
            accepted += 1
    session = link.Link(_Wire(data, random.Random(len(data))), 3, 1, "0.3.0", 7)
    session.start(0)
    for t in range(0, 33 * (len(data) + 2), 33):
        session.poll(t)
        session.take()
    return accepted > 0


class _MemDir:
    """klotski_cache's file access over a dict (one solver table file)."""

    def __init__(self):
        self.files = {}

    def open(self, name, mode):
        if mode == "rb":
            if name not in self.files:
                raise OSError(2, "no such file")
            return io.BytesIO(self.files[name])
        return _Sink(self.files, name)

    def write(self, name, *parts):
        self.files[name] = b"".join(bytes(p) for p in parts)

    def remove(self, name):
        self.files.pop(name, None)

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)

    def sync(self):
        """Nothing to flush: the files are in memory (the save store and
        klotski_cache.Writer call it)."""


class _Sink(io.BytesIO):
    def __init__(self, files, name):
        super().__init__()
        self._files, self._name = files, name

    def close(self):
        self._files[self._name] = self.getvalue()
        super().close()


_CACHE_SET = (0, 0, 14)      # the smallest piece set: a 384-byte table, solved in ~20 ms
_cache_solver = []


def _solved():
    import klotski
    s = klotski.Solver(*_CACHE_SET)
    while not s.step(100000):
        pass
    return s


def _cache_seeds():
    import klotski
    import klotski_cache
    d = _MemDir()
    klotski_cache.save(d, _solved())
    return [d.files[klotski_cache.name_for(klotski.Solver(*_CACHE_SET))]]


def _cache_input(rng, seeds):
    raw = seeds[0]
    if rng.random() < 0.5:
        return mutate_bytes(rng, raw)
    nl = raw.index(b"\n")
    head = mutate_text(rng, raw[:nl].decode(), "0123456789 KTC2.SVHB/")
    return head.encode("utf-8", "surrogatepass") + raw[nl:]


def _cache_check(raw):
    import klotski
    import klotski_cache
    if not _cache_solver:
        _cache_solver.append(klotski.Solver(*_CACHE_SET))
    solver = _cache_solver[0]
    d = _MemDir()
    name = klotski_cache.name_for(solver)
    d.files[name] = raw
    status = klotski_cache.load(d, solver)
    _expect(status in ("ok", "corrupt", "stale"), "load returned %r" % (status,))
    if status != "ok":
        _expect(name not in d.files, "a %s cache file was kept" % status)
        _expect(not any(bytes(solver.table)), "the table is not zero after a failed load")
        return False
    _cache_solver.clear()               # finished: the next case needs a fresh solver
    _ascii(raw[:raw.index(b"\n")], "klotski_cache.load header")
    klotski_cache.save(d, solver)
    fresh = klotski.Solver(*_CACHE_SET)
    _expect(klotski_cache.load(d, fresh) == "ok" and bytes(fresh.table) == bytes(solver.table),
            "cache round trip differs")
    return True


# saveschema.check on what a save can hold: any JSON value in any place (the
# save as JSON text); accepted: both schemas drop nothing
_SCHEMA_VALUES = (None, True, False, 0, -1, 2, 255, 256, 2 ** 30, 2 ** 62, 1.5, -0.0, "", "x",
                  "00ff", "0g", "a" * 40, [], {}, [1, 2], [3, "ab", True], {"a": 1},
                  {"a": 1, "b": [1]}, [[]], {"ab": {"c": None}})


def _schemas():
    from host_tools.core.fwpath import use_pure_framebuf
    use_pure_framebuf()             # runtime imports gfx, gfx framebuf
    import runtime
    import saveschema as ss
    every_kind = ss.fields(
        ("i", ss.integer(0, 255)), ("b", ss.boolean()), ("t", ss.text(3)),
        ("h", ss.hexbytes(2, 0, 2)), ("o", ss.one_of((0, "a", True))),
        ("m", ss.maybe(ss.row(ss.integer(0, 9), ss.text(2), ss.boolean()))),
        ("l", ss.list_of(ss.maybe(ss.integer(0, 2)), 5)), ("d", ss.dict_of(ss.COUNT, 8, 2)),
        ("f", ss.fields(("a", ss.integer(0, 9)), ("b", ss.list_of(ss.COUNT, 3)))))
    return ss.settings(runtime.SLEEP_CHOICES), every_kind


def _schema_seeds():
    return [{"difficulty": 2, "contrast": 96, "sound": False, "sleep": 300},
            {"i": 7, "b": True, "t": "abc", "h": "00ff", "o": "a", "m": [3, "ab", False],
             "l": [0, None, 2], "d": {"ab": 3, "c": 0}, "f": {"a": 9, "b": [1, 2]}}]


def _schema_input(rng, seeds):
    data = json.loads(json.dumps(rng.choice(seeds)))
    for _ in range(rng.randint(1, 3)):
        node = data
        while True:                                 # down to a random container
            inner = [k for k in (node if isinstance(node, dict) else range(len(node)))
                     if isinstance(node[k], (dict, list))]
            if not inner or rng.random() < 0.4:
                break
            node = node[rng.choice(inner)]
        value = rng.choice(_SCHEMA_VALUES)
        if isinstance(node, dict):
            keys = sorted(node)
            if keys and rng.random() < 0.2:
                del node[rng.choice(keys)]
            else:
                node[rng.choice(keys + ["zz", "i", "sleep"])] = json.loads(json.dumps(value))
        elif node and rng.random() < 0.7:
            node[rng.randrange(len(node))] = json.loads(json.dumps(value))
        else:
            node.append(json.loads(json.dumps(value)))
    return json.dumps(data)         # as text: the failure report prints a slice of it


def _schema_check(text):
    import saveschema
    data = json.loads(text)
    fits = True
    for schema in _schemas():
        got, dropped = saveschema.check(schema, data)
        _expect(isinstance(got, dict) and set(got) <= set(data) and set(dropped) <= set(data),
                "check kept or dropped what is not there")
        _expect(saveschema.check(schema, got) == (got, []), "what check kept does not fit")
        _expect(not saveschema.whole(schema, data) or (not dropped and len(got) == len(schema[1])),
                "whole() and check() disagree")
        json.dumps(got)
        fits = fits and not dropped
    return fits


# -- the games' saves, read by the firmware itself -------------------------------------
# Real saves (the settings, a game's records, its game in progress left by
# scripted play), a decoded value mutated (type, range, length, nesting, a hex
# string's digits), written back by savestore's writer (valid checksum); then
# the firmware boots on them (main.boot and the runtime on hw_web's backend:
# a plain frame buffer, the simulator's virtual clock), CONTINUEs the game and
# plays RUNTIME_TICKS ticks of seeded random keys (undo, B+A, included).  It
# passes when nothing raises past the runtime, no GAME ERROR screen shows and
# the boot does not fall back to the defaults.

RUNTIME_TICKS = 300     # per case; the tests play fewer (TEST_TICKS)
TEST_TICKS = 30
TEST_CASES = 30         # per game in make test-fast (~10-80 ms a case at TEST_TICKS); the
#                         tests marked slow run CASES_SLOW of each
CASES_SLOW = 2000
GAME_TARGETS = ("saves-catmouse", "saves-junqi", "saves-trapcat", "saves-klotski")

# per game: its launcher line, keys that make a few moves, keys that leave it
_GAME_PLAY = {
    "catmouse": (0, "a wait:2 a wait:8 left wait:10 left wait:10 up wait:10", "b wait:2 b wait:2"),
    "trapcat": (1, "a wait:3 left a wait:20 up a wait:20", "hold:b:30 wait:2"),
    "junqi": (2, "a wait:2 a wait:2 a wait:40 right a wait:40", "hold:b:30 wait:2"),
    "klotski": (3, "a wait:2 a wait:3 down down a down wait:2 a up right a down wait:2 a",
                "hold:b:20 up a wait:2 b wait:2"),
}
# records as each game writes them (its keys; the values a few games would give)
_GAME_RECORDS = {
    "catmouse": {"wins_mouse": 3, "wins_cat": 1, "lost_mouse": 2, "lost_cat": 0, "best_catch": 12,
                 "maps": {"Garden": [1, 2, 96, 1, 0, 12] + [0] * 12}},
    "trapcat": {"won": 4, "lost": 2, "best0": 9, "best1": 14},
    "junqi": {"won": 2, "lost": 1, "drawn": 0, "easy_won": 5, "easy_lost": 0, "easy_drawn": 1,
              "pvp": 3},
    "klotski": {"best": {"0": 81, "3": 40}},
}
_RANDOM_KEYS = ((), (), ("a",), ("b",), ("up",), ("down",), ("left",), ("right",), ("b", "a"))
_game_saves = {}


class _Handheld:
    """The firmware's boot and runtime on hw_web's backend (a plain frame
    buffer, no I2C or panel model: the fuzz judges what the runtime does, not
    the pixels on the glass), on the simulator's virtual clock: ``step(keys)``
    is one tick with those buttons down, as ``sim.Simulator.step``."""

    def __init__(self, fs):
        from host_tools.core.fwpath import use_pure_framebuf
        use_pure_framebuf()
        _cache_firmware_code()
        import hw_web
        import main
        import savestore
        self.hw = hw_web.Hardware(virtual_clock=True)
        self.masks = dict(zip(("up", "down", "left", "right", "a", "b"), hw_web.KEY_ORDER))
        self.runtime = main.boot(hw_web.BOARD, self.hw, savestore.Saves(fs))
        self.runtime.collect = _no_collect     # CPython's GC: nothing the firmware sees
        self.tick_index = 0

    def step(self, keys=()):
        hw = self.hw
        mask = 0
        for name in keys:
            mask |= self.masks[name]
        hw.keys = mask
        self.runtime.step()
        self.runtime.save_pending()
        self.tick_index += 1
        hw.now = self.tick_index * 1000 // 30


def _no_collect():
    """The runtime's gc.collect() at each game's start and end: a full
    collection of the fuzzing process (most of a case's time), nothing the
    firmware's behaviour depends on."""


_code_cache = {}


def _cache_firmware_code():
    """The runtime drops a game's scene module at every end and imports it
    again at the next start; with no bytecode cache (PYTHONDONTWRITEBYTECODE)
    CPython compiles it each time.  The firmware's code objects are compiled
    once per process instead (the modules still run afresh at each import)."""
    import sys
    from host_tools.core.fwpath import FIRMWARE_DIR
    root = str(FIRMWARE_DIR)
    if not isinstance(sys.path_importer_cache.get(root), _CachingFinder):
        sys.path_importer_cache[root] = _CachingFinder(
            root, (_CachingLoader, importlib.machinery.SOURCE_SUFFIXES))


class _CachingFinder(importlib.machinery.FileFinder):
    """A FileFinder for firmware/ whose loader keeps compiled code."""


class _CachingLoader(importlib.machinery.SourceFileLoader):
    def source_to_code(self, data, path, **kw):
        key = (path, hash(data))
        if key not in _code_cache:
            _code_cache[key] = super().source_to_code(data, path, **kw)
        return _code_cache[key]


def _keys(s, script):
    from host_tools.core.keyscript import parse_keys
    for k in parse_keys(script):
        s.step(k)


def _game_seeds(game_id):
    """[{save id: data}]: the saves after scripted play (made once)."""
    if game_id not in _game_saves:
        import savestore
        s = _Handheld(savestore.MemFs())
        import runtime
        line, moves, leave = _GAME_PLAY[game_id]
        _keys(s, "wait:2" + " down" * line + " wait:2 " + moves + " " + leave)
        rt = s.runtime
        saves = {runtime.SETTINGS_ID: dict(rt.settings), game_id: _GAME_RECORDS[game_id],
                 runtime.play_id(game_id): rt.saves.load(runtime.play_id(game_id))[0]}
        _expect(runtime.RESUME in saves[runtime.play_id(game_id)], "no game in progress to fuzz")
        _game_saves[game_id] = [saves]
    return _game_saves[game_id]


def _mutate_hex(rng, text):
    """A hex string's contents: digits changed, records' bytes set to edge values."""
    digits = list(text)
    for _ in range(rng.randint(1, 6)):
        if not digits:
            break
        at = rng.randrange(len(digits)) & ~1
        byte = rng.choice((0, 1, 3, 7, 0x3F, 0x40, 0x7F, 0x80, 0xFE, 0xFF, rng.randrange(256)))
        digits[at:at + 2] = "%02x" % byte
    return "".join(digits)


def _save_input(rng, seeds):
    saves = json.loads(json.dumps(rng.choice(seeds)))
    for _ in range(rng.randint(1, 3)):
        node = saves[rng.choice(sorted(saves))]
        while True:                                 # down to a random container
            inner = [k for k in (node if isinstance(node, dict) else range(len(node)))
                     if isinstance(node[k], (dict, list))]
            if not inner or rng.random() < 0.3:
                break
            node = node[rng.choice(inner)]
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            continue
        key = rng.choice(keys)
        value = node[key]
        op = rng.random()
        if isinstance(value, str) and len(value) >= 2 and op < 0.6:
            value = _mutate_hex(rng, value)         # mostly hex: the records inside
        elif isinstance(value, int) and not isinstance(value, bool) and op < 0.6:
            value = rng.choice((value + 1, value - 1, -value, value * 2 + 1, 0, 255, 256,
                                2 ** 30, rng.randrange(-5, 300)))
        elif op < 0.7 and isinstance(node, dict):
            del node[key]
            continue
        else:
            value = json.loads(json.dumps(rng.choice(_SCHEMA_VALUES)))
        node[key] = value
    return json.dumps(saves, sort_keys=True)


def _game_check(game_id):
    def check(text):
        import savestore
        saves = json.loads(text)
        fs = savestore.MemFs()
        store = savestore.Saves(fs)
        for save_id in sorted(saves):
            store.store(save_id, saves[save_id])
        from host_tools.core.fwpath import use_pure_framebuf
        use_pure_framebuf()                 # runtime imports gfx, gfx framebuf
        import errorscreen
        import runtime
        caught = []
        report = runtime.report
        runtime.report = caught.append      # what the runtime caught: its traceback
        try:
            s = _Handheld(fs)
            rt = s.runtime
            _expect(rt._toast != "BOOT ERROR - USING DEFAULTS", "the boot fell back to the defaults")
            rng = random.Random(text)
            line = _GAME_PLAY[game_id][0]
            _keys(s, "wait:2" + " down" * line + " a wait:2")
            resumed = rt.ctx.game_id == game_id and rt._toast != "SAVED GAME LOST"
            for _ in range(RUNTIME_TICKS):
                s.step(rng.choice(_RANDOM_KEYS))
                if isinstance(rt.screen, errorscreen.ErrorScreen):
                    exc = caught[-1]
                    where = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-4:])
                    raise FuzzFailure("%s: %s\n%s" % (rt.screen.title, " ".join(rt.screen.lines), where))
        finally:
            runtime.report = report
        return resumed
    return check


def _host_input(rng, seeds):
    return mutate_text(rng, rng.choice(seeds), "0123456789VHSx,*: ")


def _host_check(module, name, fmt=None):
    """Check of a host option parser (imported on first use): UserError only,
    ASCII acceptance, and ``parse(fmt % result) == result`` when ``fmt`` is given."""
    def check(text):
        import importlib
        parse = getattr(importlib.import_module(module), name)
        try:
            got = parse(text)
        except UserError:
            return False
        _host_ascii(text, name)
        if fmt:
            _expect(parse(fmt % got) == got, "%s round trip differs" % name)
        return True
    return check


# name -> (seeds(), make_input(rng, seeds), check(input) -> accepted)
TARGETS = {
    "klotski-layout": (_klotski_seeds, _klotski_input, _klotski_check),
    "catmouse-map": (_map_seeds, _map_input, _map_check),
    "trapcat-level": (_trapcat_seeds, _trapcat_input, _trapcat_check),
    "junqi-cell": (lambda: [], _junqi_input, _junqi_check),
    "save": (_saves_seeds, _saves_input, _saves_check),
    "save-schema": (_schema_seeds, _schema_input, _schema_check),
    "saves-catmouse": (lambda: _game_seeds("catmouse"), _save_input, _game_check("catmouse")),
    "saves-junqi": (lambda: _game_seeds("junqi"), _save_input, _game_check("junqi")),
    "saves-trapcat": (lambda: _game_seeds("trapcat"), _save_input, _game_check("trapcat")),
    "saves-klotski": (lambda: _game_seeds("klotski"), _save_input, _game_check("klotski")),
    "board": (_board_seeds, _board_input, _board_check),
    "level-pack": (_pack_seeds, _pack_input, _pack_check),
    "klotski-cache": (_cache_seeds, _cache_input, _cache_check),
    "switch-journal": (_journal_seeds, _journal_input, _journal_check),
    "link": (_link_seeds, _link_input, _link_check),
    "piece-set": (lambda: ["4V1H4S", "4,1,4", "2v3h4s"], _host_input,
                  _host_check("host_tools.commands.klotski_cmd", "parse_piece_set", "%dV%dH%dS")),
    "map-size": (lambda: ["16x8", "4X4", "20x10"], _host_input,
                 _host_check("host_tools.levels.levels_catmouse", "parse_size", "%dx%d")),
    "key-script": (lambda: ["a wait:3 down*2", "hold:b:5, up"], _host_input,
                   _host_check("host_tools.core.keyscript", "parse_keys")),
}


class Result:
    def __init__(self, name):
        self.name = name
        self.cases = 0
        self.accepted = 0
        self.failures = []      # (input, one-line reason)
        self.seconds = 0.0

    @property
    def rejected(self):
        return self.cases - self.accepted


def run(name, cases, seed=1, keep=5, progress=None):
    """Fuzz one target with ``cases`` seeded inputs; a Result (failures kept: ``keep``)."""
    seeds_fn, make_input, check = TARGETS[name]
    rng = random.Random("%s/%d" % (name, seed))
    seeds = seeds_fn()
    res = Result(name)
    start = time.perf_counter()
    for _ in range(cases):
        data = make_input(rng, seeds)
        res.cases += 1
        try:
            if check(data):
                res.accepted += 1
        except Exception as exc:  # noqa: BLE001  (any other exception is the finding)
            if len(res.failures) < keep:
                where = traceback.extract_tb(exc.__traceback__)[-1]
                res.failures.append((data, "%s: %s (%s:%d)" % (
                    type(exc).__name__, str(exc)[:800], Path(where.filename).name, where.lineno)))
            else:
                res.failures.append(None)
        if progress:
            progress(1)
    res.seconds = time.perf_counter() - start
    return res


def register(sub):
    p = sub.add_parser("fuzz", help="seeded mutation fuzzing of every parser (maps, layouts, "
                       "levels, packs, saves, board files, journals, host options)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=10000, metavar="N",
                   help="inputs per target (default 10000; the long run is 100000)")
    p.add_argument("--seed", type=int, default=1, help="seed (same seed, same inputs)")
    p.add_argument("--only", action="append", choices=sorted(TARGETS), metavar="TARGET",
                   help="fuzz only this target (repeatable): %s" % ", ".join(sorted(TARGETS)))
    p.set_defaults(func=main)


def main(args):
    if args.cases < 1:
        raise UserError("--cases must be 1 or more")
    from tqdm import tqdm

    names = args.only or list(TARGETS)
    results = []
    with tqdm(total=args.cases * len(names), unit="case", leave=False) as bar:
        for name in names:
            bar.set_description(name)
            results.append(run(name, args.cases, args.seed, progress=bar.update))
    print("%-16s %8s %9s %9s %9s %8s" % ("target", "cases", "accepted", "rejected", "failures",
                                          "seconds"))
    failed = 0
    for r in results:
        print("%-16s %8d %9d %9d %9d %8.1f" % (r.name, r.cases, r.accepted, r.rejected,
                                                len(r.failures), r.seconds))
        failed += len(r.failures)
    for r in results:
        for item in r.failures:
            if item is not None:
                print("FAIL %s: %s\n     input %r" % (r.name, item[1], item[0][:300]))
    if failed:
        print("%d inputs broke a parser's contract (seed %d)" % (failed, args.seed))
        return 1
    return 0
