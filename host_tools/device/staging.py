"""What both ways of flashing share (MicroPython over serial: mpflash.py; a
CircuitPython drive: cpflash.py): the level packs of ``--levels``, the plan
(which files to send, which to delete, the room staging needs) and the staged
switch that puts them in place recoverably.

The staged switch: every file to send is uploaded to /.stage and its hash
checked there; then the journal is written and renamed into place (the commit
point), firmware/boot_switch.py moves the staged files over the live ones, and
the live hashes are checked.  A cut before the commit leaves the old firmware
(the boot step drops /.stage); a cut after it is finished by the boot step at
the next boot, or by the next ``flash`` (``finish_pending``).

Level packs (``--levels FILE|DIR``): each pack is checked as ``levels check``
does (core.levelcheck.level_checker: the game's parser and screen limits) and goes to
``/levels/<game>.bin`` through the same staged switch.  Packs are data, not
firmware: they are not in the manifest, so a later flash without ``--levels``
leaves ``/levels`` as it is.
"""

from pathlib import Path

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import boot_switch
from host_tools.core import UserError, plural
from host_tools.core.boards import boards_for_runtime
from host_tools.core.build import MANIFEST, SOURCE_ONLY, parse_manifest
from host_tools.device import devicefs

LEVELS_DIR = "levels"                                   # /levels/<game>.bin on the device
FIRST = ("boot_switch.py", "boot.py")                   # switched in first
RUNTIME_NAMES = {"micropython": "MicroPython", "circuitpython": "CircuitPython",
                 "blinka": "Blinka"}


def board_choice(runtime, boards_dir=None):
    """The board files an error should suggest, as "a CircuitPython board file (a, b)"."""
    names = boards_for_runtime(runtime, boards_dir)
    return "a %s board file (%s)" % (RUNTIME_NAMES[runtime],
                                     ", ".join(names) or "none in boards/")


def level_files(paths):
    """{"levels/<game>.bin": bytes} for the packs given to --levels (files, or
    folders whose *.bin files are taken); each pack validated as the device does."""
    import io

    import levelpack
    from host_tools.core.levelcheck import level_checker

    packs = []
    for p in paths or ():
        p = Path(p)
        if p.is_dir():
            found = sorted(p.glob("*.bin"))
            if not found:
                raise UserError("--levels %s: no level pack (*.bin) in that folder" % p)
            packs.extend(found)
        elif p.is_file():
            packs.append(p)
        else:
            raise UserError("--levels %s: no such file or folder" % p)
    out = {}
    origin = {}
    for p in packs:
        data = p.read_bytes()
        try:
            pack = levelpack.LevelPack(io.BytesIO(data))
            check = level_checker(pack.game)
            if check is not None:
                pack.check_levels(check)
        except levelpack.LevelPackError as exc:
            raise UserError("--levels %s: bad level pack: %s" % (p, exc)) from None
        name = "%s/%s.bin" % (LEVELS_DIR, pack.game)
        if name in out:
            raise UserError("--levels: %s and %s both hold %s levels; the device takes one "
                            "pack per game (/%s)" % (origin[name], p, pack.game, name))
        out[name] = data
        origin[name] = p
    return out


class Plan:
    def __init__(self):
        self.send = []        # names to upload (hash differs or absent)
        self.same = []        # names already right
        self.delete = []      # live names the new firmware no longer has
        self.need = 0         # bytes of free space staging needs
        self.free = 0
        self.pending = None   # result of finishing an interrupted switch first
        self.old_version = None
        self.new_version = None

    def lines(self, files):
        out = ["firmware %s -> %s" % (self.old_version or "none", self.new_version)]
        for name in self.send:
            out.append("  send    %-22s %6d bytes" % (name, len(files[name])))
        for name in self.delete:
            out.append("  delete  %s" % name)
        out.append("  %s unchanged; staging needs %d KB, %d KB free"
                   % (plural(len(self.same), "file"), self.need // 1024, self.free // 1024))
        return out


def _blocks(size, block):
    return max(1, -(-size // block)) * block


def files_present(dev):
    """``present(name)``: whether the device has ``/name``, the root listed in one
    exchange instead of an exists() per name (a name in a folder still asks)."""
    at_root = set(dev.listdir("/"))

    def present(name):
        return name in at_root if "/" not in name else dev.exists("/" + name)
    return present


def make_plan(dev, files, info):
    plan = Plan()
    block = info.get("fs_block") or 4096
    old = dev.read("/" + MANIFEST) if dev.exists("/" + MANIFEST) else b""
    plan.old_version, _, old_names = parse_manifest(old)
    plan.new_version = parse_manifest(files[MANIFEST])[0]
    names = sorted(files, key=_switch_order)
    for name, digest in zip(names, dev.sha256_many(["/" + n for n in names])):
        if digest == devicefs.sha256_hex(files[name]):
            plan.same.append(name)
        else:
            plan.send.append(name)
    present = files_present(dev)
    stale = set(n for n in old_names if n not in files)
    for name in files:  # a module that changed form: X.py would shadow X.mpy
        for a, b in ((".mpy", ".py"), (".py", ".mpy")):
            if name.endswith(a):
                other = name[: -len(a)] + b
                if other not in files and other not in SOURCE_ONLY and present(other):
                    stale.add(other)
    plan.delete = sorted(n for n in stale if present(n))
    plan.need = sum(_blocks(len(files[n]), block) for n in plan.send) + 3 * block
    plan.free = info.get("fs_free") or 0
    return plan


def _switch_order(name):
    if name in FIRST:
        return (0, FIRST.index(name), name)
    if name == MANIFEST:
        return (2, 0, name)
    return (1, 0, name)


def _discard_stage(dev):
    try:
        boot_switch.run(dev)
    except OSError:
        pass


def deploy(dev, files, plan, log=print):
    """Upload, verify, commit, switch, verify, reset.  Leaves the device with the
    old firmware on any UserError raised before the commit."""
    if not plan.send and not plan.delete:
        log("device already has firmware %s; nothing to send" % plan.new_version)
        dev.reset()
        return
    if plan.need > plan.free:
        raise UserError("not enough room on the device: staging needs %d KB but only %d KB "
                        "are free (delete old files or saves)" % (plan.need // 1024, plan.free // 1024))
    stage = boot_switch.STAGE
    if dev.exists(stage):
        _discard_stage(dev)
    try:
        dev.mkdir(stage)
        for name in plan.send:
            log("  send %s (%s)" % (name, plural(len(files[name]), "byte")))
            dev.write(boot_switch.staged(name), files[name])
        got = dev.sha256_many([boot_switch.staged(name) for name in plan.send])
        for name, digest in zip(plan.send, got):
            if digest != devicefs.sha256_hex(files[name]):
                raise UserError("%s arrived damaged on the device (hash differs); nothing "
                                "was changed, try again" % name)
        for folder in sorted(set("/" + n.rsplit("/", 1)[0] for n in plan.send if "/" in n)):
            if not dev.exists(folder):       # an empty folder is harmless to the old firmware
                dev.mkdir(folder)
        steps = [("M", n) for n in plan.send] + [("D", n) for n in plan.delete]
        dev.write(boot_switch.JOURNAL_TMP, boot_switch.format_journal(steps))
    except OSError as exc:
        _discard_stage(dev)
        if exc.errno == devicefs.ENOSPC:
            raise UserError("the device's filesystem is full: staging the new firmware "
                            "failed; nothing was changed (free some space)") from None
        raise UserError("writing to the device failed (%s); nothing was changed" % exc) from None
    except UserError:
        _discard_stage(dev)
        raise
    dev.rename(boot_switch.JOURNAL_TMP, boot_switch.JOURNAL)  # commit point
    log("  switching %s into place" % plural(len(plan.send), "file"))
    if dev.switch_on_board() is None:
        boot_switch.run(dev)
    got = dev.sha256_many(["/" + n for n in plan.send])
    bad = [n for n, digest in zip(plan.send, got) if digest != devicefs.sha256_hex(files[n])]
    if bad:
        raise UserError("after the switch %s differ(s) from what was sent; run flash again"
                        % ", ".join(bad))
    log("  verified %s; resetting" % plural(len(plan.send), "file"))
    dev.reset()


def finish_pending(dev, log=print):
    """Complete a switch an earlier flash left half-done (before anything else)."""
    if dev.exists(boot_switch.JOURNAL) or dev.exists(boot_switch.STAGE) \
            or dev.exists(boot_switch.JOURNAL_TMP):
        result = boot_switch.run(dev)
        log("an interrupted flash was %s" % ("completed" if result == "finished" else "cleaned up"))
        return result
    return None
