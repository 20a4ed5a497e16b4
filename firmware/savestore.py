"""Atomic per-game saves that survive a power cut at any byte.

A save is ``<root>/<game_id>.sav``: one header line
``PPS2 <sequence> <length> <crc32>`` and then the JSON body (``PPS1``, with
the pure-Python Fletcher sum of ``checksum``, is still read, and written where
binascii has no crc32: a game in progress is saved after every move, and the
Fletcher loop costs ~2 M fuel per KB, the CRC ~0.04 M).  Storing
writes ``<id>.new`` completely (flushed), then drops the old ``.bak``, renames
``.sav`` to ``.bak`` and ``.new`` to ``.sav``.  Loading reads all three and takes
the valid one (length and checksum match, and a body that ``encode`` writes
back as it reads) with the highest sequence number, so
a cut anywhere (inside the new file, between the renames, or even a truncated
``.sav`` on a file system without atomic rename) loads the last complete save.

``load`` returns ``(data, status)``: status "ok", "new" (nothing saved yet),
"recovered" (the newest file was damaged, an older copy was used) or
"corrupt" (a .sav or a non-empty .bak exists but none is valid: data is {}; a lone
unfinished .new is a first save the power cut short, so that is "new").  The runtime reports
the last two on screen and stores a fresh copy, replacing the damage.

``store_often`` is for a save made after every move (a game in progress):
it writes one file and renames nothing (a littlefs rename or remove costs
~4-12 ms on a Pico, the whole ``store`` ~40 ms): the new save goes into the
older of ``.new`` and ``.bak`` (a missing or damaged one first), so the newest
valid copy is never the one being written, and a cut leaves it or the new
one.  ``load`` reads it like any other (highest valid sequence wins; a
damaged ``.new`` or ``.bak`` is a cut write, not damage).

``make_slots`` (a game's start) creates both, empty, where missing: a
created file costs littlefs a commit more than a rewritten one, so no move's
save makes one (docs/runtime.md).  An empty one is a slot: no copy, no damage.

The file system is pluggable: ``OsFs`` (MicroPython ``os`` or CPython) or
``MemFs`` (a dict, for tests and the VM).  ``Saves.root``: the saves' folder (ctx.cache_dir).
"""

import json

from asciitext import first_bad

try:
    from binascii import crc32
except ImportError:
    crc32 = None
try:
    from micropython import const
except ImportError:
    def const(value):
        return value

MAGIC = "PPS1"
_MOD = const(65521)


def checksum(data):
    """Fletcher/Adler-style checksum as 8 hex digits (no big ints on the device)."""
    a = 1
    b = 0
    for i in range(len(data)):
        a = (a + data[i]) % _MOD
        b = (b + a) % _MOD
    return "%04x%04x" % (b, a)


def crc(data):
    """CRC-32 as 8 hex digits; a bitwise twin where binascii has none."""
    if crc32 is not None:
        return "%08x" % (crc32(data) & 0xFFFFFFFF)
    value = 0xFFFFFFFF
    for i in range(len(data)):
        value ^= data[i]
        for _ in range(8):
            value = (value >> 1) ^ (0xEDB88320 if value & 1 else 0)
    return "%08x" % (value ^ 0xFFFFFFFF)


# compact JSON (no space after "," and ":"): a game in progress is written after
# every move, and a shorter file fills littlefs' folder log later (fewer 4 KB
# erases); a port whose dumps has no separators writes the spaced form
try:
    _SEPARATORS = (",", ":")
    json.dumps([], separators=_SEPARATORS)
except TypeError:
    _SEPARATORS = None


def encode(data, seq):
    if _SEPARATORS is None:
        body = json.dumps(data).encode()
    else:
        body = json.dumps(data, separators=_SEPARATORS).encode()
    if crc32 is None:
        return ("%s %d %d %s\n" % (MAGIC, seq, len(body), checksum(body))).encode() + body
    return ("PPS2 %d %d %s\n" % (seq, len(body), crc(body))).encode() + body


def _writable(data):
    """True if ``encode`` writes ``data`` back as a body ``decode`` reads the same:
    every key and string plain ASCII (asciitext's rule; a \\u escape can smuggle
    in what the body's bytes do not show, and MicroPython writes such a string
    back as raw UTF-8 that no decode accepts) and every float finite (1e999
    reads as infinity, which json.dumps writes as Infinity, no JSON).  Iterative."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key in item:
                if first_bad(key):
                    return False
                stack.append(item[key])
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if first_bad(item):
                return False
        elif isinstance(item, float) and item - item != 0:     # inf - inf, nan - nan: nan
            return False
    return True


def decode(raw):
    """(seq, data) of a complete save file, or None.  What it accepts is plain
    ASCII and survives encode -> decode unchanged (a value encode could not
    write back, such as the infinity of 1e999, makes the file damaged)."""
    if raw is None:
        return None
    nl = raw.find(b"\n")
    if nl < 0 or nl > 64 or first_bad(raw[:nl]):     # CPython's int() reads Unicode digits
        return None
    try:
        parts = raw[:nl].decode().split(" ")
        if len(parts) != 4 or parts[0] not in (MAGIC, "PPS2"):
            return None
        seq = int(parts[1])
        length = int(parts[2])
        body = raw[nl + 1:]
        if len(body) != length or first_bad(body):
            return None
        if (checksum(body) if parts[0] == MAGIC else crc(body)) != parts[3]:
            return None
        import strictjson   # here: the Klotski cache's use of this module reads no save
        data = strictjson.loads(body)
    except (ValueError, UnicodeError):
        return None
    if not isinstance(data, dict) or not _writable(data):
        return None
    return seq, data


class OsFs:
    def __init__(self, root="saves"):
        import os

        self.os = os
        self.root = root
        try:
            os.mkdir(root)
        except OSError:
            pass

    def path(self, name):
        return self.root + "/" + name

    def read(self, name):
        try:
            with open(self.path(name), "rb") as f:
                return f.read()
        except OSError:
            return None

    def open(self, name, mode):
        """A name may hold one folder (a game's play save, ``<id>/play``): its own
        littlefs directory, made on its first write, where a move's save is not
        slowed by the other saves' files (the folder's log is compacted with all
        of their inline contents: mean 8.8 ms a 437 B save among 21 files, 2.7 ms
        alone, on the virtual Pico)."""
        try:
            return open(self.path(name), mode)
        except OSError:
            if "w" not in mode or "/" not in name:
                raise
        try:
            self.os.mkdir(self.path(name[:name.find("/")]))
        except OSError:
            pass
        return open(self.path(name), mode)

    def write(self, name, *parts):
        """Write the file completely (the parts one after the other: no joined
        copy), flushed and synced."""
        f = self.open(name, "wb")
        try:
            for data in parts:
                f.write(data)
            f.flush()
        finally:
            f.close()
        self.sync()

    def sync(self):
        sync = getattr(self.os, "sync", None)
        if sync:
            sync()

    def rename(self, old, new):
        self.os.rename(self.path(old), self.path(new))

    def remove(self, name):
        try:
            self.os.remove(self.path(name))
        except OSError:
            pass

    def exists(self, name):
        try:
            self.os.stat(self.path(name))
            return True
        except OSError:
            return False


class MemFs:
    """Files in a dict; ``ops`` logs every step (the tests cut between them)."""

    root = None             # no folder: nothing can be cached beside the saves

    def __init__(self):
        self.files = {}
        self.ops = 0

    def read(self, name):
        return self.files.get(name)

    def write(self, name, data):
        self.files[name] = bytes(data)
        self.ops += 1

    def rename(self, old, new):
        self.files[new] = self.files.pop(old)
        self.ops += 1

    def remove(self, name):
        if name in self.files:
            del self.files[name]
            self.ops += 1

    def exists(self, name):
        return name in self.files

    def sync(self):
        """Nothing is cached here: every step is already "on the flash"."""


class Saves:
    def __init__(self, fs=None):
        self.fs = fs if fs is not None else OsFs()
        # the folder of the save files (its file system's root), None in memory
        self.root = self.fs.root
        self.seq = {}
        self.slots = {}         # game id -> [sequence in .new, in .bak] (-1: none valid)

    def _candidates(self, game_id):
        """(newest valid save, how many .sav/.bak files exist, whether .sav is damaged).
        A damaged .new is a write the power cut short, not damage: it is not
        counted, nor is an empty .bak (make_slots' slot)."""
        best = None
        present = 0
        damaged_sav = False
        slots = [-1, -1]         # what store_often needs to know, read on the way
        # (-1: missing, -2: there but not valid: rewriting a file costs less
        # than making one)
        for suffix in (".sav", ".new", ".bak"):
            raw = self.fs.read(game_id + suffix)
            if raw is None:
                continue
            if suffix == ".sav" or (raw and suffix == ".bak"):
                present += 1
            got = decode(raw)
            if got is None:
                if suffix == ".sav":
                    damaged_sav = True
                else:
                    slots[suffix == ".bak"] = -2
                continue
            if suffix != ".sav":
                slots[suffix == ".bak"] = got[0]
            if best is None or got[0] > best[0]:
                best = got
        self.slots[game_id] = slots
        return best, present, damaged_sav

    def load(self, game_id):
        best, present, damaged = self._candidates(game_id)
        if best is None:
            self.seq[game_id] = 0
            return {}, ("corrupt" if present else "new")
        self.seq[game_id] = best[0]
        return best[1], ("recovered" if damaged else "ok")

    def store(self, game_id, data):
        if game_id not in self.seq:
            best, _, _ = self._candidates(game_id)
            self.seq[game_id] = best[0] if best else 0
        seq = self.seq[game_id] + 1
        fs = self.fs
        if decode(fs.read(game_id + ".new")) is not None:
            self._promote(game_id)           # a complete .new (store_often's): not overwritten
        fs.write(game_id + ".new", encode(data, seq))
        # .bak: the old .sav if there was one (kept, but not tracked)
        self.slots[game_id] = [-1, -2 if self._promote(game_id) else -1]
        self.seq[game_id] = seq

    def _promote(self, game_id):
        """.new becomes .sav, .sav becomes .bak (the old .bak goes); True if
        there is a .bak now."""
        fs = self.fs
        moved = fs.exists(game_id + ".sav")
        if moved:
            fs.remove(game_id + ".bak")
            fs.rename(game_id + ".sav", game_id + ".bak")
        fs.rename(game_id + ".new", game_id + ".sav")
        # CircuitPython caches FAT sectors in RAM and writes them out later: sync so
        # the renames are on the flash when store returns, not only the new file
        fs.sync()
        return moved

    def make_slots(self, game_id):
        """Create store_often's missing files (.new, .bak) empty, so that its
        saves only rewrite files (a game's start, not a move, pays for it)."""
        if game_id not in self.slots:
            self._candidates(game_id)
        slots = self.slots[game_id]
        for k in (0, 1):
            if slots[k] == -1:
                self.fs.write(game_id + (".new", ".bak")[k], b"")
                slots[k] = -2

    def store_often(self, game_id, data):
        """Store ``data`` writing one file: the older of .new and .bak."""
        if game_id not in self.slots or game_id not in self.seq:
            best, _, _ = self._candidates(game_id)       # load() read them already
            self.seq[game_id] = max(best[0] if best else 0, self.seq.get(game_id, 0))
        slots = self.slots[game_id]
        seq = self.seq[game_id] + 1
        k = 0 if slots[0] <= slots[1] else 1
        slots[k] = -2                        # while it is written it is no valid copy
        self.fs.write(game_id + (".new", ".bak")[k], encode(data, seq))
        slots[k] = seq
        self.seq[game_id] = seq
