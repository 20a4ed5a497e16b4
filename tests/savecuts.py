"""Power cuts during a save, on CPython (``from savecuts import RecordingFs,
cut_states``): ``RecordingFs`` logs each step a store takes, and ``cut_states``
replays them, yielding every state the flash can be left in by a cut: after
each whole step, and inside each write at every ``every``-th byte."""

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import savestore


class RecordingFs(savestore.MemFs):
    """A MemFs that logs each mutating step as (op, args)."""

    def __init__(self, files):
        super().__init__()
        self.files = dict(files)
        self.log = []

    def write(self, name, data):
        self.log.append(("write", name, bytes(data)))
        super().write(name, data)

    def rename(self, old, new):
        self.log.append(("rename", old, new))
        super().rename(old, new)

    def remove(self, name):
        if name in self.files:
            self.log.append(("remove", name))
        super().remove(name)


def cut_states(files, log, every=1):
    """The files a cut leaves, from ``files`` through ``log``'s steps."""
    state = dict(files)
    yield dict(state)
    for step in log:
        if step[0] == "write":
            for cut in range(0, len(step[2]), every):
                yield dict(state, **{step[1]: step[2][:cut]})
            state[step[1]] = step[2]
        elif step[0] == "rename":
            state[step[2]] = state.pop(step[1])
        else:
            del state[step[1]]
        yield dict(state)
