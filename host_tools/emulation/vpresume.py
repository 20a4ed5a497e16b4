"""The saved game in progress on the virtual Pico (tests/test_vpico_resume.py and
`make bench`): the flashed firmware, its saves on the real littlefs flash.

``save_costs()``: main.boot with the real clock and the flash file system, the
buttons read from a guest variable; Trap the Cat played move by move (the
runtime's save after each, as ``run()`` makes it) and Klotski with its undo ring
full (the largest snapshot of the four games); the emulated ms of each save and
the longest tick of that play.

``play_and_cut(...)``: main.py's own loop from power-on, Trap the Cat started
and played by the buttons on the GPIO pins, the power cut at a given emulated
time or after a given number of flash operations; ``saved_game(image)`` boots
the flash again and reads what its save holds (and whether the launcher offers
CONTINUE).
"""

import shutil
from contextlib import contextmanager
from pathlib import Path

from host_tools.core.keyscript import parse_keys
from host_tools.emulation import mpvm, vpfirmware, vpico
from host_tools.emulation.vpico import MS

TICK_MS = 1000.0 / 30
BOOT_MS = 1200
BOARD = "pico-ssd1306"

_PRELUDE = r"""
import time, gc
def emit(tag, value):
    print('@@%s\t%r' % (tag, value))
"""

# the firmware as main.py boots it, but stepped here: the real clock, the saves
# on the flash (savestore.Saves()), the buttons from MASK
_BOOT = r"""
import boardcfg, hw_machine, main, buttons, savestore
cfg = boardcfg.load_device()
hw = hw_machine.Hardware(cfg)
MASK = [0]
def _read():
    return MASK[0]
hw.read_buttons = _read
for _n in ('trapcat', 'klotski'):
    savestore.Saves().store(_n, {'won': 5, 'lost': 3})
rt = main.boot(cfg, hw, savestore.Saves())
SAVES = []
ENDS = []           # a game's end (ctx.finish): its two writes, after its tick as a move's save
WORST = [0, 0]      # the longest tick; the longest tick + the save after it
def step(mask=0):
    MASK[0] = mask
    t = time.ticks_us()
    rt.step()
    took = time.ticks_diff(time.ticks_us(), t) / 1000.0
    due = rt.save_due
    ending = rt.ending is not None
    t0 = time.ticks_us()
    rt.save_pending()           # as Runtime.run: the save (after a light tick) or a collection
    ms = time.ticks_diff(time.ticks_us(), t0) / 1000.0
    if due and not rt.save_due:
        (ENDS if ending else SAVES).append(ms)
        if took + ms > WORST[1]:
            WORST[1] = took + ms
    else:
        took += ms              # a collection ahead of need belongs to its tick
    if took > WORST[0]:
        WORST[0] = took
    if took < 33:
        time.sleep_ms(33 - int(took))
def tap(mask):
    step(mask); step(mask); step(0); step(0)
"""

_TRAPCAT = r"""
tap(buttons.DOWN)
tap(buttons.A)
g = rt.game
WORST[0] = WORST[1] = 0
MOVES = [0, 0]      # moves made, games played
while len(SAVES) < %(moves)d and MOVES[1] < 20:
    if g.screen is g.end_screen:     # over: the next game
        tap(buttons.A)
        MOVES[1] += 1
        continue
    b = g.board
    c = 0
    while c < b.n and not (b.can_block(c) and b.is_adjacent(b.cat, c)):
        c += 1
    if c == b.n:
        c = 0
        while not b.can_block(c):
            c += 1
    g.cursor = c
    tap(buttons.A)
    MOVES[0] += 1
    n = 0
    while g.play_screen.cat_turn and n < 300:
        step(0)
        n += 1
emit('trapcat_saves', SAVES)
emit('trapcat_ends', ENDS)
emit('trapcat_worst_tick', tuple(WORST))
emit('trapcat_moves', tuple(MOVES))
"""

_KLOTSKI = r"""
import games
g = b = None                     # the trapcat game's references: it goes with them
rt.leave_game()
rt.start_game(games.GAMES[3])
if rt.game is None:
    emit('klotski_error', getattr(rt.screen, 'lines', None))
g = rt.game
g.open_level(0)
step(0)
# two soldiers (cells 13, 14 over the gap at 17, 18) down and up in turn: each a
# step of its own, until the undo ring holds its UNDO layouts
KSAVES = []
for k in range(420):
    a = 13 if k % 2 == 0 else 14
    if (k // 2) % 2:
        a += 4
    g.move_piece(a, -4 if (k // 2) % 2 else 4)
    if k >= 400:                     # the ring full: each move saved as the runtime does
        t0 = time.ticks_us()
        rt.save_game()
        KSAVES.append(time.ticks_diff(time.ticks_us(), t0) / 1000.0)
ms = max(KSAVES)
t0 = time.ticks_us()
snap = g.snapshot()
ms_snap = time.ticks_diff(time.ticks_us(), t0) / 1000.0
t0 = time.ticks_us()
body = savestore.encode({'resume': snap}, 1)     # the play save's file
ms_enc = time.ticks_diff(time.ticks_us(), t0) / 1000.0
emit('klotski_save', (ms, g.undo_ring.count, len(body), ms_snap, ms_enc))
emit('klotski_saves', KSAVES)
emit('records', (savestore.Saves().load('trapcat')[0].get('won'),
                 savestore.Saves().load('klotski')[0].get('won')))
"""


# Datasheet timings of the Pico's flash chip (Winbond W25Q16JV, typical): the
# emulator erases and programs in no time, a real chip does not, and the core
# waits for it (the code runs from that flash).
SECTOR_ERASE_MS = 45.0          # 4 KB sector erase, typ. (max 400 ms)
PAGE_PROGRAM_MS = 0.4           # 256-byte page program, typ. (max 3 ms)
SECTOR = 4096
PAGE = 256


def chip_ms(erased, programmed):
    """What the flash chip itself takes for ``erased``/``programmed`` bytes (typ.)."""
    return erased / SECTOR * SECTOR_ERASE_MS + programmed / PAGE * PAGE_PROGRAM_MS


def _flash_per_save(pico, saves):
    """``saves`` more saves of the game in play, each in an exchange of its own:
    [(emulated ms, bytes erased, bytes programmed), ...]."""
    out = []
    for _ in range(saves):
        pico.query()
        erased, programmed = pico.flash_erased, pico.flash_programmed
        ms = float(pico.exec("t0 = time.ticks_us()\nrt.save_game()\n"
                             "print(time.ticks_diff(time.ticks_us(), t0) / 1000.0)"))
        pico.query()
        out.append((ms, pico.flash_erased - erased, pico.flash_programmed - programmed))
    return out


@contextmanager
def _stepped_runtime():
    """A fresh copy of the firmware image in the REPL, the runtime booted there
    (``_BOOT``: ``rt``, ``step``, ``tap``)."""
    with vpfirmware.firmware_pico() as pico:
        vpfirmware.repl(pico)
        pico.exec(_PRELUDE)
        pico.exec(_BOOT, emulated_ms=60000)
        yield pico


def save_costs(moves=12, flash_saves=12):
    """{'trapcat_saves': [ms per move], 'trapcat_worst_tick': ms, 'klotski_save':
    (ms, undo layouts, file bytes), 'trapcat_flash'/'klotski_flash': [(ms, bytes
    erased, bytes programmed) per save], ...} on the virtual Pico."""
    with _stepped_runtime() as pico:
        out = mpvm._parse_results(pico.exec(_TRAPCAT % {"moves": moves},
                                            emulated_ms=600000, timeout=3600))
        out["trapcat_flash"] = _flash_per_save(pico, flash_saves)
    # Klotski on a boot of its own: after this harness's Trap the Cat games (its
    # REPL-compiled driver code and globals left all over the heap) the largest
    # free block can be too small for klotski_viper's native code (NO MEMORY with
    # 175 KB free); main.py's own loop starts it after the other games
    # (tests/test_vpico_frames.py)
    with _stepped_runtime() as pico:
        out.update(mpvm._parse_results(pico.exec(_KLOTSKI, emulated_ms=600000, timeout=3600)))
        out["klotski_flash"] = _flash_per_save(pico, flash_saves)
    return out


# -- power cuts during play (main.py's own loop) ------------------------------------------------
_RECORDS = r"""
import savestore
savestore.Saves().store('trapcat', {'won': 5, 'lost': 3})
"""

# after a boot: Trap the Cat's save as the flash holds it, then the game
# CONTINUE starts from it (a runtime of its own, saves on the flash)
_READ = r"""
import savestore, main, games, boardcfg, hw_machine, binascii
_s = savestore.Saves()
d, s = _s.load('trapcat')
p, ps = _s.load('trapcat/play')
r = p.get('resume')
cfg = boardcfg.load_device()
rt = main.boot(cfg, hw_machine.Hardware(cfg), savestore.Saves())
resumable = list(rt.resumable)
rt.start_game(games.GAMES[1], resume=r is not None)
g = rt.game
print(repr((s, ps, _s.seq['trapcat/play'], d.get('won'), d.get('lost'), r and r['moves'], resumable,
            rt._toast, g.board.moves, r is None or bytes(g.board.cells) == binascii.unhexlify(r['cells']))))
"""

# from the launcher: Trap the Cat, then blocks (the cursor starts left of the cat)
PLAY = ("down a wait:3 a wait:20 up a wait:20 up a wait:20 right right a wait:20 "
        "down down down a wait:20 left a wait:20 down a wait:20")


def prepared_image(folder):
    """The firmware image with records in Trap the Cat's save (won 5, lost 3)."""
    path = Path(folder) / "records.img"
    shutil.copyfile(vpfirmware.firmware_image(BOARD), path)
    pico = vpico.VirtualPico(path, board=BOARD)
    try:
        pico.start_at_repl()
        pico.exec(_RECORDS)
    finally:
        pico.close()
    return path


def play_ticks():
    """The per-tick key sets of PLAY."""
    return parse_keys(PLAY)


def play_and_cut(image, cut_ns=None, cut_after_ops=None, arm_at_tick=None):
    """Power ``image`` on, play PLAY in main.py's loop; cut the power at emulated
    ``cut_ns`` (from power-on) or after ``cut_after_ops`` flash operations counted
    from tick ``arm_at_tick`` of the script.  Returns whether the power was
    cut."""
    pico = vpico.VirtualPico(image, board=BOARD)
    try:
        pico.start()
        pico.run_for(BOOT_MS)
        start = pico.now_ns
        if cut_ns is not None:
            pico.cut_at(cut_ns)
        n = 0
        for tick in play_ticks():
            if cut_after_ops is not None and n == arm_at_tick:
                pico.cut_after_flash_ops(cut_after_ops)
            pico.set_buttons(tick)
            n += 1
            try:
                pico.run_until(start + int(n * TICK_MS * MS))
            except vpico.VPicoError:
                if not pico.exited:
                    raise
            if pico.exited:
                pico.wait_off()
                return True
        pico.run_until_off(500)
        return pico.exited
    finally:
        pico.close()


def flash_ops_of_the_script(image):
    """[flash operations so far] after each tick of PLAY (no cut)."""
    pico = vpico.VirtualPico(image, board=BOARD)
    ops = []
    try:
        pico.start()
        pico.run_for(BOOT_MS)
        start = pico.now_ns
        n = 0
        for tick in play_ticks():
            pico.set_buttons(tick)
            n += 1
            pico.run_until(start + int(n * TICK_MS * MS))
            ops.append(pico.query()[1])
        return ops, start
    finally:
        pico.close()


def saved_game(image):
    """Boot ``image`` again (boot.py; main.py in safe mode, B held: the runtime is
    booted in the REPL instead, as main.py does), then in the REPL:
    (the records' load status, the play save's load status and sequence number,
    won, lost, the snapshot's moves or None, the runtime's resumable, its toast,
    then the moves and whether the board is the saved one after CONTINUE), and
    the boot's serial output."""
    pico = vpico.VirtualPico(image, board=BOARD)
    try:
        out = pico.start_at_repl()
        return eval(pico.exec(_READ)), out
    finally:
        pico.close()
