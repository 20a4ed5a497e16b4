"""Driving the flashed firmware on two linked virtual Picos, the steps that
tests/test_vpico_linkplay.py and `make bench`'s link rows (host_tools/bench/bench_link.py)
share: both boards booted from private copies of the firmware image and wired
by the cable (``firmware_pair``), a tap on one side (``tap``), the launcher's
2 Players line to a Trap the Cat match met on both (``meet_trapcat``), and
the seed and player a board's console reported for a met game (``met``).
"""

import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def firmware_pair(seed=1):
    """``(two, picos)``: two VirtualPicos running the flashed firmware from
    power-on (main.py), each on its own copy of the cached image, wired by a
    ``vplink.TwoPicos`` whose cable's RNG is ``seed``; both closed afterwards."""
    from host_tools.emulation import vpfirmware, vpico
    from host_tools.emulation.vplink import TwoPicos

    image = vpfirmware.firmware_image()
    with tempfile.TemporaryDirectory(prefix="vplink-") as tmp:
        picos = []
        try:
            for name in ("a.img", "b.img"):
                path = Path(tmp) / name
                shutil.copyfile(image, path)
                picos.append(vpico.VirtualPico(path))
            for p in picos:
                p.start()
            yield TwoPicos(*picos, seed=seed), picos
        finally:
            for p in picos:
                p.close()


def tap(two, side, key, after=2):
    """``key`` held two ticks on board ``side`` (0 or 1), then ``after`` ticks released."""
    keys = (key,)
    two.step(keys if side == 0 else (), keys if side == 1 else (), ticks=2)
    two.step(ticks=after)


def meet_trapcat(two):
    """From both launchers (booted: 45 ticks): the 2 Players line (UP from the
    first line), its game choice on TRAP THE CAT, A on board 0 then on board 1:
    the two boards meet and the match starts."""
    two.step(ticks=45)
    for side in (0, 1):
        tap(two, side, "up")
        tap(two, side, "a", 6)
        tap(two, side, "down")
    tap(two, 0, "a", 3)
    tap(two, 1, "a", 30)


def met(two, side, game, nth=1):
    """(seed, player) of the ``nth`` ``game`` board ``side`` met in (its
    console's "link: GAME seed N player P" lines); None before that."""
    found = re.findall(r"link: %s seed (\d+) player (\d)" % game, two.console(side))
    if len(found) < nth:
        return None
    seed, me = found[nth - 1]
    return int(seed), int(me)
