"""Register model of the AMS TCS34725, for the fake ``machine.I2C`` (address 0x29).

Behaves like the ams TCS3472 datasheet describes the part:

- Command byte (section "Command Register"): bit 7 (0x80) must be set; bits 6:5
  pick the transaction type: 0b00 repeated byte (the address stays put), 0b01
  auto-increment (0xA0 | reg), 0b11 special function (0xE6 clears the RGBC
  interrupt). Bits 4:0 are the register address.
- Power-on values: ENABLE 0x00, ATIME 0xFF, WTIME 0xFF, CONTROL 0x00, ID 0x44
  (0x4D for a TCS34727), STATUS 0x00, data 0.
- ENABLE PON (bit 0) starts the oscillator, AEN (bit 1) the RGBC ADC. The state
  machine spends 2.4 ms initialising, then integrates for ``2.4 ms * (256 -
  ATIME)``; at the end of each cycle the data registers take the new counts and
  STATUS.AVALID (bit 0) goes to 1. Clearing AEN (or PON) stops the ADC and clears
  AVALID; writing ATIME or CONTROL restarts the running cycle.
- Counts come from an optical model (``sim_optics.OpticalModel.counts``) with
  the current integration time and gain (CONTROL.AGAIN 0..3 = 1, 4, 16, 60x),
  clipped at ``min(65535, 1024 * (256 - ATIME))``. The LED state is sampled at
  every bus access, and a cycle that saw the LED change gets the lit fraction.
- Data registers are little-endian words: CDATAL/H 0x14/0x15, RDATA 0x16/17,
  GDATA 0x18/19, BDATA 0x1A/1B.

Faults, like rp2 hardware I2C reports them: ``fail_next(errno, count)`` makes the
next ``count`` transactions raise ``OSError(errno)`` (5 = EIO, a NACK; 110 =
ETIMEDOUT, a stuck bus); ``unplug()`` makes every transaction raise
``OSError(5)`` until ``replug()``, which powers the chip up again with its
power-on register values.

Interface the fake bus uses (the address already matched):
``readfrom_mem_into(memaddr, buf)``, ``readfrom_mem(memaddr, n)``,
``writeto_mem(memaddr, buf)``, and raw ``writeto(buf)`` / ``readfrom_into(buf)``.
"""

try:
    from time import ticks_ms as _ticks_ms

    def _default_clock():
        return float(_ticks_ms())

except ImportError:  # CPython
    import time as _time

    def _default_clock():
        return _time.monotonic() * 1000.0


ADDRESS = 0x29
_ENABLE = 0x00
_ATIME = 0x01
_WTIME = 0x03
_CONTROL = 0x0F
_ID = 0x12
_STATUS = 0x13
_CDATAL = 0x14
_NREGS = 0x20
_PON = 0x01
_AEN = 0x02
_INIT_MS = 2.4
_GAINS = (1, 4, 16, 60)


class ProtocolError(Exception):
    """The driver broke the datasheet's command protocol (a bug, not a bus fault)."""


class TCS34725Model:
    """Simulated TCS34725 registers.

    ``optics``: object with ``counts(content, led_on, integration_ms, gain)``.
    ``content_fn()``: what is in the head now (a label, ``"empty"`` or a tuple).
    ``led_fn()``: truthy when the illumination LED is lit. ``clock_ms()``: time
    in ms (default: the real monotonic clock); inject one to step time by hand.
    ``chip_id``: 0x44 (TCS34725) or 0x4D (TCS34727); anything else makes a
    driver refuse the part. ``strict``: raise ``ProtocolError`` when a command
    byte lacks bit 7 instead of ignoring the transaction like the chip would.
    """

    def __init__(self, optics, content_fn, led_fn, clock_ms=None, chip_id=0x44, strict=True):
        self.optics = optics
        self.content_fn = content_fn
        self.led_fn = led_fn
        self.clock_ms = clock_ms or _default_clock
        self.chip_id = chip_id
        self.strict = strict
        self.transactions = 0  # bus transactions seen (reads and writes)
        self.cycles = 0  # integration cycles completed
        self._fail = []  # errnos to raise on the next transactions
        self._hang_ms = 0  # the next transaction blocks this long (a stuck bus)
        self._unplugged = False
        self._pointer = 0
        self._inc = False
        self.release = 0  # releases begun (begin_release)
        self.reading = 0  # integration restarts since the last begin_release
        self._power_on()

    # --- state ---

    def _power_on(self):
        self.regs = bytearray(_NREGS)
        self.regs[_ATIME] = 0xFF
        self.regs[_WTIME] = 0xFF
        self.regs[_ID] = self.chip_id
        self._cycle_start = None  # ms when the running integration began; None = ADC off
        self._led_base = bool(self.led_fn())  # LED state before the first logged change
        self._led_state = self._led_base
        self._led_log = []  # (ms, lit) changes seen at bus accesses

    @property
    def integration_ms(self):
        """Current integration time in ms, from ATIME."""
        return 2.4 * (256 - self.regs[_ATIME])

    @property
    def gain(self):
        """Current analog gain (times), from CONTROL.AGAIN."""
        return _GAINS[self.regs[_CONTROL] & 0x03]

    @property
    def full_scale(self):
        """Digital full scale in counts: min(65535, 1024 * (256 - ATIME))."""
        return min(65535, 1024 * (256 - self.regs[_ATIME]))

    def _restart(self, now):
        enabled = self.regs[_ENABLE] & (_PON | _AEN) == (_PON | _AEN)
        self.regs[_STATUS] &= 0xFE
        self._cycle_start = now + _INIT_MS if enabled else None
        if enabled:
            self.reading += 1

    def begin_release(self):
        """A new release (or a new placement) starts: readings are numbered from
        here (one number per integration restart, the driver restarts once per
        reading), and an optics with ``begin(release)`` keys its noise by them.
        Every cycle after one restart reads the same counts, so a firmware slowed
        down by the machine's load reads what an idle one would."""
        self.release += 1
        self.reading = 0
        begin = getattr(self.optics, "begin", None)
        if begin is not None:
            begin(self.release)

    def _note_led(self, now):
        lit = bool(self.led_fn())
        if lit != self._led_state:
            self._led_state = lit
            self._led_log.append((now, lit))

    def _lit_fraction(self, begin, end):
        """Fraction of [begin, end] ms the LED was lit, from the logged changes."""
        state = self._led_base
        t = begin
        total = 0.0
        for when, lit in self._led_log:
            if when <= begin:
                state = lit
                continue
            if when >= end:
                break
            if state:
                total += when - t
            t = when
            state = lit
        if state:
            total += end - t
        return total / (end - begin)

    def _forget_led_before(self, t):
        while self._led_log and self._led_log[0][0] <= t:
            self._led_base = self._led_log.pop(0)[1]

    def _advance(self):
        """Complete every integration cycle that has ended by now."""
        now = self.clock_ms()
        self._note_led(now)
        if self._cycle_start is None:
            return
        length = self.integration_ms
        if now < self._cycle_start + length:
            return
        completed = int((now - self._cycle_start) // length)
        last_start = self._cycle_start + (completed - 1) * length
        fraction = self._lit_fraction(last_start, last_start + length)
        counts = self.optics.counts(self.content_fn(), fraction, length, self.gain, index=self.reading)
        full = self.full_scale
        for k in range(4):
            value = min(full, max(0, int(counts[k])))
            self.regs[_CDATAL + 2 * k] = value & 0xFF
            self.regs[_CDATAL + 2 * k + 1] = value >> 8
        self.regs[_STATUS] |= 0x01
        self.cycles += completed
        self._cycle_start = last_start + length
        self._forget_led_before(self._cycle_start)

    # --- faults ---

    def fail_next(self, errno=5, count=1):
        """Make the next ``count`` transactions raise ``OSError(errno)`` (5 or 110)."""
        self._fail.extend([errno] * count)

    def hang_next(self, ms):
        """The next transaction blocks the whole firmware for ``ms`` (a bus held low:
        the hung task the hardware watchdog must reset)."""
        self._hang_ms = ms

    def unplug(self):
        """Every transaction raises ``OSError(5)`` (no ACK) until ``replug()``."""
        self._unplugged = True

    def replug(self):
        """Reconnect: the chip powers up again with its power-on register values."""
        self._unplugged = False
        self._power_on()

    def _transaction(self):
        self.transactions += 1
        if self._hang_ms:
            ms, self._hang_ms = self._hang_ms, 0
            import time

            time.sleep_ms(ms)  # type: ignore  # MicroPython / the sim's CPython shim
        if self._unplugged:
            raise OSError(5)
        if self._fail:
            raise OSError(self._fail.pop(0))

    # --- command byte ---

    def _command(self, cmd):
        """Decode a command byte; returns (register, increment) or None when ignored."""
        if not cmd & 0x80:
            if self.strict:
                raise ProtocolError("command byte 0x%02x lacks bit 7 (0x80)" % cmd)
            return None
        kind = (cmd >> 5) & 0x03
        if kind == 0x03:  # special function: 0x06 clears the RGBC interrupt
            if cmd & 0x1F == 0x06:
                self.regs[_STATUS] &= 0xEF
            return None
        if kind == 0x02:  # reserved
            if self.strict:
                raise ProtocolError("reserved transaction type in 0x%02x" % cmd)
            return None
        return (cmd & 0x1F, kind == 0x01)

    def _write(self, reg, inc, data):
        now = self.clock_ms()
        self._advance()
        restart = False
        for value in data:
            if reg in (_ID, _STATUS) or reg >= _CDATAL:
                pass  # read-only
            elif reg < _NREGS:
                old = self.regs[reg]
                self.regs[reg] = value & 0xFF
                if reg == _ENABLE and (old ^ value) & (_PON | _AEN):
                    restart = True
                elif reg in (_ATIME, _CONTROL):
                    restart = True
            if inc:
                reg = (reg + 1) % _NREGS
        if restart:
            self._restart(now)

    def _read(self, reg, inc, buf):
        self._advance()
        for i in range(len(buf)):
            buf[i] = self.regs[reg] if reg < _NREGS else 0
            if inc:
                reg = (reg + 1) % _NREGS
        return reg

    # --- what the fake machine.I2C calls ---

    def writeto_mem(self, memaddr, buf):
        self._transaction()
        decoded = self._command(memaddr)
        if decoded is not None:
            self._pointer = decoded[0]
            self._write(decoded[0], decoded[1], bytes(buf))

    def readfrom_mem_into(self, memaddr, buf):
        self._transaction()
        decoded = self._command(memaddr)
        if decoded is None:
            for i in range(len(buf)):
                buf[i] = 0
            return
        self._pointer = decoded[0]
        self._read(decoded[0], decoded[1], buf)

    def readfrom_mem(self, memaddr, n):
        buf = bytearray(n)
        self.readfrom_mem_into(memaddr, buf)
        return bytes(buf)

    def writeto(self, buf):
        """Raw write: the first byte is the command byte, the rest register data."""
        self._transaction()
        if not len(buf):
            return 0
        decoded = self._command(buf[0])
        if decoded is not None:
            self._pointer = decoded[0]
            self._inc = decoded[1]
            if len(buf) > 1:
                self._write(decoded[0], decoded[1], bytes(buf[1:]))
        return len(buf)

    def readfrom_into(self, buf):
        """Raw read from the register the last command byte pointed at."""
        self._transaction()
        self._read(self._pointer, self._inc, buf)
