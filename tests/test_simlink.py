"""Two simulated handhelds linked (host_tools/emulation/simlink.py): the whole
firmware on each (launcher, runtime, hw_machine's UART on the fake machine),
the launcher's "2 Players" line, the meeting, a move shown on both, a pulled
cable, and `sim --link` over a local socket."""

import socket

from host_tools.emulation.sim import Simulator
from host_tools.emulation.simlink import SimCable, SocketLink


def _tap(cable, key, side):
    """Held two ticks, released two (as the key script's taps)."""
    cable.step((key,) if side == 0 else (), (key,) if side == 1 else (), ticks=2)
    cable.step(ticks=2)


def _to_junqi(cable):
    for side in (0, 1):
        _tap(cable, "up", side)                 # UP from the first line: "2 Players"
        _tap(cable, "a", side)
    for side in (0, 1):
        assert type(cable.ends[side].runtime.game).__module__ == "linkplay"   # (loaded per game)
        _tap(cable, "a", side)                  # FLIP JUNQI, a few ticks apart
        cable.step(ticks=3)
    cable.step(ticks=20)


def test_two_simulators_meet_on_the_launchers_2_players_line_and_play():
    a, b = Simulator(), Simulator()
    cable = SimCable(a, b)
    _to_junqi(cable)
    sa, sb = (s.runtime.game for s in (a, b))
    assert sa.screen is sa.play_screen and sb.screen is sb.play_screen
    ma, mb = sa.match, sb.match
    assert bytes(ma.model.kind) == bytes(mb.model.kind) and {ma.me, mb.me} == {0, 1}
    first = (a, b)[0 if ma.me == 0 else 1]
    side = 0 if first is a else 1
    _tap(cable, "a", side)                      # flips the piece under the cursor (F2)
    cable.step(ticks=10)
    assert ma.plies == mb.plies == 1 and ma.state_hash() == mb.state_hash()
    # the cable pulled: LINK LOST on both screens within 2 s, then back
    cable.cut = True
    cable.step(ticks=62)
    for s in (sa, sb):
        assert s.link.status() == "LINK LOST - CHECK CABLE"
    cable.cut = False
    cable.step(ticks=20)
    assert sa.link.status() == sb.link.status() == ""
    # leaving saves the linked game: CONTINUE on the "2 Players" line
    a.step(("b",))
    for _ in range(40):
        a.step(("b",))
    a.step(())
    assert a.runtime.screen is a.runtime.launcher and "link" in a.runtime.resumable


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_sim_link_over_a_local_socket():
    port = _free_port()
    a, b = Simulator(), Simulator()
    la = SocketLink(port).attach(a)
    lb = SocketLink(port).attach(b)
    try:
        assert la.role == "listening on" and lb.role == "connected to"

        class Both:
            ends = (a, b)

            def step(self, ka=(), kb=(), ticks=1):
                for _ in range(ticks):
                    a.step(ka)
                    b.step(kb)

        _to_junqi(Both())
        sa, sb = (s.runtime.game for s in (a, b))
        assert sa.screen is sa.play_screen and sb.screen is sb.play_screen
        assert sa.match.seed == sb.match.seed
    finally:
        la.close()
        lb.close()


def test_the_link_commands_refuse_what_they_cannot_do(capsys):
    from clirun import run_cli

    for argv, words in (
            (["vpico", "--link", "--frontend", "terminal"], "--link runs headless"),
            (["vpico", "--link", "--gif", "x.gif"], "--link runs headless"),
            (["vpico", "--link", "--runtime", "circuitpython"], "MicroPython boards only"),
            (["vpico", "--keys-b", "a"], "add --link"),
            (["sim", "--link", "5050", "--board", "pico-cp-ssd1306", "--ticks", "1"],
             "MicroPython boards only")):
        code, out, err = run_cli(argv, capsys)
        assert code == 2 and words in err, (argv, err)
