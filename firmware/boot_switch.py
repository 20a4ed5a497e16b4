"""Finish an interrupted firmware switch, or discard an unfinished upload.

Called first thing from boot.py (``import boot_switch; boot_switch.run()``).
The flasher (host_tools/device/flash.py) works in three phases:

1. upload: changed files go to ``/.stage/NAME``; the live firmware is untouched;
2. commit: the journal is written to ``/.switch.tmp`` and renamed to ``/.switch``
   (a rename is atomic on littlefs, so the journal is either absent or complete);
3. switch: each staged file is renamed over its live name (atomic on littlefs),
   boot files first and the manifest last, then files the new firmware no longer
   has are removed, then the journal is removed and ``/.stage`` cleaned.

At boot, a journal means phase 3 was cut short: it is replayed from the start
(every step is idempotent: a move whose staged file is gone has been done).
No journal means any ``/.stage`` is an unfinished upload: it is deleted, and the
old firmware, which was never touched, stays.  Either way the device ends with
one complete firmware, old or new.  The host runs this same code over its
transport to finish a pending switch before flashing again.

A name may hold one folder (``levels/catmouse.bin``, a level pack): it is staged
flat as ``/.stage/levels%catmouse.bin`` (``staged(name)``), and the flasher makes
the folder before the commit, so the move is still one atomic rename.

``fs`` is anything with exists/isdir/listdir/rename/remove/rmdir/read; on the
device it is the ``os`` adapter below.
"""

import os

STAGE = "/.stage"
JOURNAL = "/.switch"
JOURNAL_TMP = "/.switch.tmp"
MAGIC = "PPSWITCH 1"


class OsFs:
    """The device's own filesystem."""

    def exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def isdir(self, path):
        try:
            return (os.stat(path)[0] & 0x4000) != 0
        except OSError:
            return False

    def listdir(self, path):
        return os.listdir(path)

    def rename(self, old, new):
        os.rename(old, new)

    def remove(self, path):
        os.remove(path)

    def rmdir(self, path):
        os.rmdir(path)

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()


def parse_journal(data):
    """``[(op, name), ...]`` with op "M" (move staged file in) or "D" (delete)."""
    text = data.decode() if isinstance(data, (bytes, bytearray)) else data
    lines = text.split("\n")
    if not lines or lines[0].strip() != MAGIC:
        raise ValueError("not a switch journal")
    steps = []
    for line in lines[1:]:
        line = line.strip()
        if not line:
            continue
        op = line[:1]
        name = line[2:]
        if op not in ("M", "D") or line[1:2] != " " or not name or name[0] == "/" \
                or name[-1] == "/" or ".." in name or "%" in name or name.count("/") > 1:
            raise ValueError("bad journal line %r" % line)
        steps.append((op, name))
    return steps


def staged(name):
    """Where ``name`` waits in the stage (flat: a folder's "/" becomes "%")."""
    return STAGE + "/" + name.replace("/", "%")


def format_journal(steps):
    out = [MAGIC]
    for op, name in steps:
        out.append(op + " " + name)
    return ("\n".join(out) + "\n").encode()


def _clean_stage(fs):
    if fs.exists(STAGE):
        for name in fs.listdir(STAGE):
            fs.remove(STAGE + "/" + name)
        fs.rmdir(STAGE)


def finish(fs, steps):
    """Replay the switch; safe to repeat after a cut at any point."""
    for op, name in steps:
        live = "/" + name
        if op == "M":
            src = staged(name)
            if fs.exists(src):
                fs.rename(src, live)
        elif fs.exists(live):
            fs.remove(live)


def run(fs=None):
    """Returns "clean", "finished" (switch completed) or "discarded" (upload dropped)."""
    if fs is None:
        fs = OsFs()
    result = "clean"
    if fs.exists(JOURNAL):
        try:
            steps = parse_journal(fs.read(JOURNAL))
        except ValueError:
            steps = None  # cannot happen with an atomic rename; keep what is live
        if steps is not None:
            finish(fs, steps)
        fs.remove(JOURNAL)
        result = "finished"
    if fs.exists(JOURNAL_TMP):
        fs.remove(JOURNAL_TMP)
        if result == "clean":
            result = "discarded"
    if fs.exists(STAGE):
        _clean_stage(fs)
        if result == "clean":
            result = "discarded"
    return result
