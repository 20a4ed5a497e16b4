"""Reaching a board over USB serial: ``connect`` (the one board plugged in, or
``--port``), ``stops_answering`` (a board that stops answering midway ends the
command with one line) and ``wait_for_board`` (after a reset, until it answers
again).  ``flash``, ``doctor``, ``hwtest`` and ``flash --update-micropython``
share them.

``list_ports`` and ``open_transport`` are the test seams: tests replace them
with fakes (tests/test_flash.py) or a virtual Pico's pty (tests/test_vpico.py).
"""

import contextlib
import time

from host_tools.core import UserError
from host_tools.device import devicefs

BACK_WITHIN_S = 60          # a Pico re-enumerates within seconds of a reset; an emulated one under load takes longer
RESET_SETTLE_S = 1.0        # before the first knock: a Ctrl-C sent while it resets can stop the reset

# Test seams: tests replace these with fakes.
list_ports = devicefs.list_device_ports
open_transport = devicefs.MpremoteTransport


def connect(port=None):
    if port is None:
        ports = list_ports()
        if not ports:
            raise UserError("no device found: plug the handheld in over USB (or give --port); a new "
                            "Pico: hold BOOTSEL while plugging it in, and flash installs MicroPython")
        if len(ports) > 1:
            raise UserError("several devices found (%s): choose one with --port"
                            % ", ".join(p for p, _ in ports))
        port = ports[0][0]
    try:
        return open_transport(port)
    except devicefs.DeviceError as exc:
        raise UserError(str(exc)) from None


def wait_for_board(port, within):
    """After a reset: wait until the board on ``port`` answers again (its USB port
    is back and it enters the raw REPL), then send it back to its game.  True if
    it answered within ``within`` s."""
    deadline = time.monotonic() + within
    time.sleep(RESET_SETTLE_S)
    while True:
        try:
            dev = open_transport(port)
        except devicefs.DeviceError:
            dev = None
        if dev is not None:
            if dev.has_reset():
                dev.restart()
                return True
            dev.reset()                 # the reset did not happen (a Ctrl-C can stop it): again
            dev.close()
            time.sleep(RESET_SETTLE_S)
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)


@contextlib.contextmanager
def stops_answering(port):
    """A board that stops answering midway (mpremote's deadline passed, the cable was
    pulled) ends the command with one line, not a traceback."""
    from mpremote.transport import TransportError
    from serial import SerialException
    try:
        yield
    except (TransportError, SerialException, devicefs.DeviceError) as exc:
        raise UserError("%s stopped answering (%s): press the handheld's reset button or replug "
                        "its USB cable and run the command again (an interrupted flash is "
                        "finished or undone at the next boot)"
                        % (port, str(exc).strip().splitlines()[-1] if str(exc).strip() else
                           exc.__class__.__name__)) from None
