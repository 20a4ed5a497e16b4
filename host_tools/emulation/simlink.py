"""The link cable for the simulator (docs/link.md): the fake ``machine.UART``
that hw_machine opens for the board file's "link" carries its bytes to
another simulated handheld.

- ``SimCable(a, b)``: two ``sim.Simulator`` in one process, stepped together
  (``step(keys_a, keys_b)``), each tick's bytes carried across; ``cut`` drops
  them (a pulled cable).  Used by the tests.
- ``SocketLink(port).attach(sim)``: ``sim --link PORT``: the simulator's UART
  to a local TCP socket on 127.0.0.1:PORT.  The first simulator started
  listens, the second connects, so two terminals (or windows) running the same
  command are two handhelds linked by a cable (each with saves of its own,
  build/sim-saves-link-a and -b).  The bytes are moved after every tick
  (``sim.step`` wraps the simulator's own), never waiting.
"""

import socket


class SimCable:
    def __init__(self, a, b):
        self.ends = (a, b)
        self.uarts = (a.hw.open_link().uart, b.hw.open_link().uart)   # the fake machine.UARTs
        self.cut = False

    def carry(self):
        ua, ub = self.uarts
        ab = ua.take()
        ba = ub.take()
        if not self.cut:
            ub.feed(ab)
            ua.feed(ba)

    def step(self, keys_a=(), keys_b=(), ticks=1):
        a, b = self.ends
        for _ in range(ticks):
            a.step(keys_a)
            b.step(keys_b)
            self.carry()


class SocketLink:
    """``SocketLink(port)`` takes its end of the cable (listens when the port is
    free, else connects to the simulator listening there: ``role``), then
    ``attach(sim)`` wires it to that simulator's UART."""

    def __init__(self, port, host="127.0.0.1"):
        self.server = None
        self.sock = None
        self.uart = None
        self.port = port
        try:
            self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.server.bind((host, port))
            self.server.listen(1)
            self.server.setblocking(False)
            self.role = "listening on"
        except OSError:
            self.server.close()
            self.server = None
            try:
                self.sock = socket.create_connection((host, port), timeout=2)
            except OSError as exc:
                from host_tools.core import UserError
                raise UserError("--link: cannot listen on nor connect to %s:%d (%s)"
                                % (host, port, exc)) from None
            self.sock.setblocking(False)
            self.role = "connected to"

    def attach(self, sim):
        port = sim.hw.open_link()
        if port is None:
            from host_tools.core import UserError
            raise UserError("--link: board %s has no link cable (a \"link\" section)" % sim.cfg["name"])
        self.uart = port.uart                    # the fake machine.UART behind link.UartPort
        inner = sim.step

        def step(keys=()):
            inner(keys)
            self.pump()

        sim.step = step
        return self

    def pump(self):
        """Accept the other simulator once, then move the bytes both ways."""
        if self.sock is None:
            try:
                self.sock, _ = self.server.accept()
                self.sock.setblocking(False)
            except (BlockingIOError, OSError):
                self.uart.take()             # nobody at the other end: the bytes are lost
                return
        out = self.uart.take()
        try:
            if out:
                self.sock.sendall(out)
            while True:
                data = self.sock.recv(4096)
                if not data:                 # the other simulator quit: wait for the next
                    self.sock.close()
                    self.sock = None
                    break
                self.uart.feed(data)
        except BlockingIOError:
            pass
        except OSError:
            self.sock = None

    def close(self):
        for s in (self.sock, self.server):
            if s is not None:
                s.close()
