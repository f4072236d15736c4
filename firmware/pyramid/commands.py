"""Host-command handlers: one method per host message, found through ``TABLE``.

Every handler takes the decoded ``protocol.Message`` and answers on the app's port
(docs/protocol.md, "Host -> device"): ``HELLO?`` -> ``HELLO`` (``HELLO? s=1`` -> ``HI``), ``SYNC`` -> the replay
then ``SYNCED``, ``PING`` -> ``PONG``, ``INFO?`` -> ``INFO``, ``STREAM`` -> ``OK``, ``CAL`` -> a ``SAMPLE``
later (from the stream task), ``SET`` -> ``CFG``, ``PROF``/``SAVE``/``OUT`` -> ``OK``; a
refused command -> ``NAK <reason>``, and nothing changes.
"""

import gc
import json

import camelup.board.protocol as protocol

from pyramid.link import nak
from pyramid.settings import EDITIONS, GAINS, INTEGRATION_RANGE, save_settings

#: Largest calibration profile accepted over the wire (bytes of JSON).
MAX_PROFILE = protocol.MAX_PROFILE
PROFILE_FILE = "profile.json"

#: host message name -> handler method name of ``Commands``
TABLE = {
    "HELLO?": "hello",
    "SYNC": "sync",
    "ACK": "ack",
    "PING": "ping",
    "INFO?": "info",
    "STREAM": "stream",
    "CAL": "cal",
    "SET": "set",
    "PROF": "prof",
    "SAVE": "save",
    "OUT": "out",
}


class Commands:
    """The host commands of one ``App`` (``app``: its settings ``s``, ``log``, ``send``,
    the sensor and classifier it reopens)."""

    def __init__(self, app):
        self.app = app
        # a profile arrives in PROF chunks: one buffer for the largest, taken at boot while
        # the heap is whole (growing a bytearray later needs ever larger free blocks)
        self._profile_buf = bytearray(MAX_PROFILE)
        self._profile_len = 0

    def handle(self, msg):
        """Act on one decoded host message (an unknown name is ignored: the link's
        message table already refused it)."""
        name = TABLE.get(msg.name)
        if name is not None:
            getattr(self, name)(msg)

    # --- the table ---

    def hello(self, msg):
        self.app.send(self.app.hi_line() if msg.get("s") else self.app.hello_line())

    def sync(self, msg):
        if msg.get("boot") is not None:
            self.app.log.acking = True  # a host that acknowledges what it takes
        self.replay(msg["seq"], msg.get("boot"), msg.get("to"))

    def ack(self, msg):
        self.app.log.ack(msg["boot"], msg["seq"])

    def ping(self, msg):
        self.app.send(protocol.encode("PONG", token=msg["token"]))

    def info(self, _msg):
        import sys

        impl = sys.implementation
        version = ".".join(str(v) for v in impl.version[:3])
        gc.collect()
        heap = gc.mem_free() if hasattr(gc, "mem_free") else None  # MicroPython only
        fitted = self.app.fitted  # the stored profile's sensor settings, None without one
        # the floor _report marks a reading dim under, in tenths of a count rounded up
        # (a whole count reaches it just when it reaches the board's); absent without one
        floor = getattr(self.app.classifier, "floor", 0.0)
        self.app.send(
            protocol.encode(
                "INFO", impl=impl.name, mp=version, mpy=getattr(impl, "_mpy", 0), sl=bool(self.app.slider.pushed),
                heap=heap, cal=bool(self.app.calibrated),
                pit=None if fitted is None else int(fitted["integration_ms"] + 0.5),
                pgain=None if fitted is None else fitted["gain"],
                floor=int(floor * 10 + 0.999) if floor > 0 else None,
            )
        )

    def stream(self, msg):
        period = msg["period"]
        if period and (period < 20 or period > 60000):
            self.app.send(nak("range"))
            return
        self.app.stream_ms = period
        self.app.send(protocol.encode("OK", cmd="STREAM", n=period))

    def cal(self, msg):
        self.app.cal_token = msg["token"]
        self.app.cal_wanted = True

    def set(self, msg):
        self.configure(msg)

    def prof(self, msg):
        self.profile_chunk(msg["offset"], msg["chunk"])

    def save(self, msg):
        self.save_profile(msg["length"], msg["crc"])

    def out(self, msg):
        """``OUT <mask>``: the dice out this leg (bit i: the edition's die i); a reading
        refused alone is judged again among the rest (``App.dice_out``). ``NAK range``
        for a mask naming no die of the edition or every one."""
        if not self.app.dice_out(msg["mask"]):
            self.app.send(nak("range"))
            return
        self.app.send(protocol.encode("OK", cmd="OUT", n=msg["mask"]))

    # --- the work behind them ---

    def replay(self, after, boot=None, to=None):
        """``SYNC``: resend the events of ``boot`` (default this one) after ``after`` up
        to ``to``, ``GAP`` for those no longer kept, then ``SYNCED``
        (``pyramid.eventlog.EventLog.replay``: earlier boots from the flash store).
        Done by the ``rx`` task once the host's input is read: a newer ``SYNC``
        waiting behind this one replaces it (``App.sync_wanted``)."""
        app = self.app
        app.sync_wanted = (boot or app.boot, after, to)

    def cfg_line(self):
        s = self.app.s
        return protocol.encode(
            "CFG", ed=s["edition"], it=int(s["integration_ms"] + 0.5), gain=s["gain"], vb=bool(s["value_buttons"])
        )

    def configure(self, msg):
        """``SET``: check every given field first, then apply all and reopen the sensor.

        The settings are kept in RAM, not written to ``settings.json``: the next boot
        runs the saved ones again, unless a ``SAVE`` stored a profile fitted at these
        (tester s36tm finding 7)."""
        app = self.app
        new = {}
        ed = msg.get("ed")
        if ed is not None:
            if ed not in EDITIONS:
                app.send(nak("edition"))
                return
            new["edition"] = ed
        it = msg.get("it")
        if it is not None:
            if it < INTEGRATION_RANGE[0] or it > INTEGRATION_RANGE[1]:
                app.send(nak("it"))
                return
            new["integration_ms"] = it
        gain = msg.get("gain")
        if gain is not None:
            if gain not in GAINS:
                app.send(nak("gain"))
                return
            new["gain"] = gain
        vb = msg.get("vb")
        if vb is not None:
            new["value_buttons"] = vb
        if new:
            # in RAM only: a calibrate session tries settings, and one that ends without
            # its SAVE (terminal closed, cable pulled) must not leave them on the flash,
            # under a profile fitted at others; ``save_profile`` writes them
            for key in new:
                app.s[key] = new[key]
            app.load_classifier()
            if "integration_ms" in new or "gain" in new:
                app.reopen_sensor()
        app.send(self.cfg_line())

    def profile_chunk(self, offset, chunk):
        """``PROF``: append ``chunk`` (text) at byte ``offset`` (0 starts a new profile)."""
        if offset == 0:
            self._profile_len = 0
        n = self._profile_len
        if offset != n:
            self.app.send(nak("offset"))
            return
        raw = chunk.encode()
        if n + len(raw) > MAX_PROFILE:
            self._profile_len = 0
            self.app.send(nak("too_big"))
            return
        self._profile_buf[n : n + len(raw)] = raw
        self._profile_len = n + len(raw)
        self.app.send(protocol.encode("OK", cmd="PROF", n=self._profile_len))

    def save_profile(self, length, crc):
        """``SAVE``: check the received profile (length, CRC-32, JSON, edition, the
        classifier's own check), store it and classify with it from now on; the
        settings in force (edition, integration time, gain, value buttons: those the
        session's ``SET`` chose) are written to ``settings.json`` with it."""
        app = self.app
        n = self._profile_len
        received = memoryview(self._profile_buf)[:n]
        if n != length or "%08X" % protocol.crc32(received) != crc:
            app.send(nak("profile_crc"))
            return
        try:
            try:
                new = json.loads(received)  # type: ignore  # MicroPython parses a memoryview: no copy
            except TypeError:
                new = json.loads(bytes(received))  # CPython wants bytes
            if new.get("edition") != app.s["edition"]:
                raise ValueError("profile is for another edition")
            classifier = app.make_classifier(new, app.s)
        except (ValueError, KeyError, TypeError, AttributeError):
            app.send(nak("bad_profile"))
            return
        self._profile_len = 0
        if app.files:
            try:
                from pyramid import profile

                gc.collect()
                profile.save(new, PROFILE_FILE)
                # the settings the profile was fitted at (the session's SETs) outlive it now
                save_settings(app.s)
            except (OSError, ValueError):
                app.send(nak("flash"))
                return
        app.classifier = classifier
        app.calibrated = True
        app.fitted = new.get("settings")  # INFO's pit/pgain name the new profile's at once
        gc.collect()
        app.send(protocol.encode("OK", cmd="SAVE", n=length))
