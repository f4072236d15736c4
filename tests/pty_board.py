"""A pyramid firmware's answers on a pseudo-terminal, for tests of what the host says of
a board (``pyramid play``'s first lines, the table mid-game): ``HELLO?`` (a full
``HELLO``), ``SET`` (its ``CFG``), ``INFO?`` (its ``INFO``, with the stored profile's
settings when given), ``OUT`` (``OK``), a heartbeat every ``beat`` s; ``crash()`` sends
what MicroPython's rp2 port sends when the firmware's ``main.py`` raises (the
traceback, the banner, the ``>>> `` prompt) and then answers nothing, counting the bytes
written to it, as a REPL would take them; ``reboot()`` runs the firmware again under a
new boot id (its ``HELLO`` unasked, as the firmware says it at boot)."""

import os
import select
import threading
import time
import tty

from camelhost.device.sources import EMULATED_UID_MARK
from camelup.board import protocol

#: an emulated Pico's unique id (``HELLO``'s ``uid``, ``sources.EMULATED_UID_MARK``
#: first): the one the tests of what is said of an emulated board give it
EMULATED_UID = EMULATED_UID_MARK + "01020304"

#: what the rp2 port sent when the firmware's main.py raised (MicroPython 1.28)
CRASH = (b'Traceback (most recent call last):\r\n  File "main.py", line 4, in <module>\r\n'
         b'  File "pyramid/app.py", line 801, in run\r\nRuntimeError: maximum recursion '
         b'depth exceeded\r\nMicroPython v1.28.0 on 2026-04-06; Raspberry Pi Pico with '
         b'RP2040\r\nType "help()" for more information.\r\n>>> ')


class Board:
    """The board on ``port`` (a pty's path). ``ed``: its edition; ``it``, ``gain``: the
    settings it runs (``CFG``); ``pit``, ``pgain``: those its stored profile was fitted
    at (``INFO``; None: the built-in profile); ``uid``: its unique id."""

    def __init__(self, ed="second", it=24, gain=4, pit=None, pgain=None,
                 uid="E6614103E7452D2F", beat=0.5):
        self.ed, self.it, self.gain, self.pit, self.pgain = ed, it, gain, pit, pgain
        self.uid = uid
        self.boot = "958586CF"
        self.beat = beat
        self.at_prompt = False
        self.written_at_prompt = b""  # what the host wrote to the REPL
        self.asked = []  # the names of the host's lines, in order
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._lock = threading.Lock()
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _send(self, name, **fields):
        with self._lock:
            if not self.at_prompt:
                os.write(self.master, protocol.encode(name, **fields))

    def hello(self):
        self._send("HELLO", proto=1, fw="0.1.0", uid=self.uid, boot=self.boot, seq=0, oldest=1,
                   ed=self.ed, sensor="ok", vb=False, prev=None, acked=0)

    def crash(self):
        with self._lock:
            self.at_prompt = True
            os.write(self.master, CRASH)

    def reboot(self, boot="A1B2C3D4"):
        with self._lock:
            self.at_prompt = False
            self.boot = boot
        self.hello()

    def _answer(self, msg):
        self.asked.append(msg.name)
        if msg.name == "HELLO?":
            self.hello()
        elif msg.name == "SET":
            self._send("CFG", ed=self.ed, it=self.it, gain=self.gain, vb=False)
        elif msg.name == "INFO?":
            extra = {} if self.pit is None else {"pit": self.pit, "pgain": self.pgain}
            self._send("INFO", impl="micropython", mp="1.28.0", mpy=6, sl=False, heap=150000,
                       cal=self.pit is not None, **extra)
        elif msg.name == "OUT":
            self._send("OK", cmd="OUT", n=msg["mask"])

    def _serve(self):
        buf = b""
        up = 0.0
        last = time.monotonic()
        while not self._stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if time.monotonic() - last >= self.beat:
                last = time.monotonic()
                up += self.beat
                self._send("HB", boot=self.boot, seq=0, up=int(up * 1000), sensor="ok")
            if not ready:
                continue
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if self.at_prompt:
                self.written_at_prompt += data
                continue
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    msg = protocol.decode(line)
                except protocol.ProtocolError:
                    continue
                self._answer(msg)

    def close(self):
        self._stop = True
        self._thread.join(2)
        os.close(self.master)
        os.close(self._slave)
