"""The whole firmware (launcher + Cat & Mouse with its AI) in the MicroPython
VM with the fake ``machine``: a few hundred scripted ticks, no allocation in
idle ticks, no allocation in the drivers' frame path (issue 3)."""

from host_tools import runtime_vm

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
for k in range(50):
    tap(moves[k % 7])
    idle(2)
emit('played', (rt.ticks, g.game.round, g.state, dev.transactions > 40))
while g.state != 2:
    tap(buttons.A)
tap(buttons.B)
idle(2)
tap(buttons.B)
idle(2)
emit('back', (type(rt.screen).__name__, 'catmouse_game' in __import__('sys').modules, rt.ticks))
"""


def test_whole_firmware_in_the_micropython_vm(vm):
    with runtime_vm.staged_firmware() as fw:
        from host_tools import mpvm

        r = mpvm.run(SCRIPT, input_dir=fw)
    assert r["launcher_alloc"] == 0
    assert r["show_alloc"] == 0 and r["full_alloc"] == 0
    assert r["screen"] == "Game"
    assert r["idle_alloc"] == [0] * 5
    ticks, rounds, state, talked = r["played"]
    assert ticks > 300 and rounds >= 10 and talked
    name, loaded, total = r["back"]
    assert name == "Launcher" and not loaded
