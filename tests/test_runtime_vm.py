"""The whole firmware (launcher + Cat & Mouse with its AI) in the MicroPython
VM with the fake ``machine``: a few hundred scripted ticks, no allocation in
idle ticks, no allocation in the drivers' frame path (issue 3), and the game's
modules gone when it exits."""

from host_tools.emulation import runtime_vm

SCRIPT = runtime_vm.SETUP + r"""
idle(5)
emit('launcher_alloc', measure(step, 0)[2])
d = rt.display
d.fb.pixel(3, 3, 1)
emit('show_alloc', measure(d.show)[2])
d.invalidate()
emit('full_alloc', measure(d.show)[2])
tap(buttons.A)
idle(3)
emit('screen', type(rt.screen).__name__)
tap(buttons.A)
idle(8)
g = rt.screen
emit('idle_alloc', [measure(step, 0)[2] for _ in range(5)])
moves = (buttons.LEFT, buttons.UP, buttons.LEFT, buttons.UP, buttons.A, buttons.LEFT, buttons.DOWN)
most = 0                    # the furthest round (the cat may catch the mouse and A start again)
for k in range(50):
    tap(moves[k % 7])
    idle(2)
    most = max(most, g.match.game.round)
emit('played', (rt.ticks, most, type(g.screen).__name__, dev.transactions > 40))
while g.screen is not g.end:
    tap(buttons.A)
tap(buttons.B)
idle(2)
tap(buttons.B)
idle(2)
emit('back', (type(rt.screen).__name__, 'catmouse_game' in __import__('sys').modules, rt.ticks))
import sys
emit('modules', sorted(m for m in ('catmouse_game', 'catmouse_match', 'catmouse_view', 'catmouse_ai',
                                   'catmouse', 'gridpath', 'work', 'games', 'buttons', 'launcher')
                       if m in sys.modules))
tap(buttons.A)
idle(3)
emit('again', type(rt.screen).__name__)
"""


def test_whole_firmware_in_the_micropython_vm(vm):
    with runtime_vm.staged_firmware() as fw:
        from host_tools.emulation import mpvm

        r = mpvm.run(SCRIPT, input_dir=fw)
    assert r["launcher_alloc"] == 0
    assert r["show_alloc"] == 0 and r["full_alloc"] == 0
    assert r["screen"] == "Scene"
    assert r["idle_alloc"] == [0] * 5
    ticks, rounds, state, talked = r["played"]
    assert ticks > 300 and rounds >= 10 and talked
    name, loaded, total = r["back"]
    assert name == "Launcher" and not loaded
    # the game's whole import tree left with it; the launcher's modules stayed,
    # and the game starts again from a fresh import
    assert r["modules"] == ["buttons", "games", "launcher"]
    assert r["again"] == "Scene"


AWAY = runtime_vm.SETUP + r"""
import sys
idle(3)
tap(buttons.DOWN, 2)
emit('sel', rt.launcher.sel)
tap(buttons.B)                      # the how-to pages of the game on that line
idle(2)
emit('away', (type(rt.screen).__name__, rt.launcher is None, 'launcher' in sys.modules))
tap(buttons.B)
idle(3)
emit('back', (type(rt.screen).__name__, rt.screen is rt.launcher, rt.launcher.sel,
              'launcher' in sys.modules))
tap(buttons.DOWN)
idle(2)
emit('moved', rt.launcher.sel)
"""


def test_the_launcher_leaves_while_a_game_runs_and_comes_back_on_its_line(vm):
    """On MicroPython the launcher's module and object leave while a game (here
    the how-to pages) runs, and come back at its end with the cursor on the same line."""
    with runtime_vm.staged_firmware() as fw:
        from host_tools.emulation import mpvm

        r = mpvm.run(AWAY, input_dir=fw)
    assert r["sel"] == 2
    assert r["away"] == ("Scene", True, False)
    assert r["back"] == ("Launcher", True, 2, True)
    assert r["moved"] == 3


def test_node_port_frees_garbage_only_at_top_level(node_vm):
    """Why bench_runtime reads the resident heap in a separate part: in the Node
    port gc.collect() from Python only schedules a collection (the wasm stack
    cannot be scanned); it runs between two ``#@@toplevel`` parts."""
    r = node_vm(r"""
import gc
gc.collect()
#@@toplevel
a = gc.mem_alloc()
x = bytearray(100000)
x = None
gc.collect()
emit('same_part', gc.mem_alloc() - a)
#@@toplevel
emit('next_part', gc.mem_alloc() - a)
""")
    assert r["same_part"] >= 100000
    assert r["next_part"] < 2000


def test_resident_heap_at_the_launcher_is_measured_after_collection():
    from host_tools.emulation import mpnode
    from host_tools.bench.bench_runtime import _HEAP

    with runtime_vm.staged_firmware() as fw:
        resident, total, fake_machine = mpnode.run(_HEAP, firmware_dir=fw)["heap"]
    # boardcfg (~10 KB) is dropped after boot: what stays is clearly less than
    # everything allocated on the way (the figure itself is a bench budget)
    assert 0 < resident < total - 8000
    assert fake_machine > 0
