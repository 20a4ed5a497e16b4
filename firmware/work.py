"""Long work in slices, one protocol for every game: an AI's move, a hint,
Klotski's table, the watch mode's search (docs/conventions.md, "Long work").

A *task* is an object with ``step()``: one bounded slice of its work (a few ms
on a Pico; never more than ~45 ms), True once the work is finished, and
``answer``, what it found (a cell, a move; ``NO_ANSWER`` until it has one).
The game prepares a task with a method of the task's own (``begin(...)``: the
inputs differ from game to game) and hands it to its ``Job``, which owns the
rest:

- the deadline: ``job.run(ctx)`` runs slices while the tick's share
  (``budget_ms``) leaves room for the longest slice seen so far, so the tick
  stays under its 33 ms whatever the task;
- a task whose next slice is a long one (``task.alone_next()``) gets a tick
  of its own;
- a MemoryError in a slice ends the job (``FAILED``) with the one
  "NOT ENOUGH MEMORY" toast every game shows (``ctx.out_of_memory()``); the
  game plays on without the answer.

Nothing is allocated per slice or per tick.
"""

from clock import ticks_diff

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_IDLE = const(0)        # no task
RUNNING = const(1)     # a task with slices to go
DONE = const(2)        # finished: the task's answer is ready
FAILED = const(3)      # a slice ran out of memory: no answer
NO_ANSWER = const(-1)
_BUDGET_MS = const(20)  # a tick's share for long work by default (30 ticks/s)


class Task:
    """The defaults of a task (subclasses override ``step``)."""

    answer = NO_ANSWER

    def step(self):
        return True

    def alone_next(self):
        return False


class Job:
    """Runs one task at a time under each tick's deadline (module notes)."""

    def __init__(self, budget_ms=_BUDGET_MS):
        self.task = None
        self.state = _IDLE
        self.budget_ms = budget_ms
        self.slice_ms = 0        # the longest slice seen since the task began

    def start(self, task):
        """``task`` (already prepared) runs from the next ``run``."""
        self.task = task
        self.state = RUNNING
        self.slice_ms = 0

    def cancel(self):
        self.task = None
        self.state = _IDLE

    def running(self):
        return self.state == RUNNING

    def run(self, ctx):
        """This tick's slices; the state after them."""
        if self.state != RUNNING:
            return self.state
        task = self.task
        clock = ctx.ticks_ms
        deadline = ctx.deadline(self.budget_ms)
        first = True
        while True:
            if not first and task.alone_next():
                return RUNNING
            first = False
            t0 = clock()
            try:
                done = task.step()
            except MemoryError:
                self.task = None
                self.state = FAILED
                ctx.out_of_memory()
                return FAILED
            took = ticks_diff(clock(), t0)
            if took > self.slice_ms:
                self.slice_ms = took
            if done:
                self.state = DONE
                return DONE
            if deadline.remaining() <= self.slice_ms:
                return RUNNING
