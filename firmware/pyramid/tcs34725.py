"""Driver for the AMS TCS34725 RGB + clear colour sensor (I2C, fixed address 0x29).

The driver is handed an I2C bus object (``machine.I2C`` on the board, the fake
``machine.I2C`` in the simulation); it never builds one. It checks the chip id in
the constructor, keeps its scratch buffers for the life of the object, reads the
four channels in one auto-increment burst, bounds every wait, and lets ``OSError``
from the bus propagate (rp2 hardware I2C: ``OSError(5)`` EIO on a NACK,
``OSError(110)`` ETIMEDOUT on a stuck bus) so the caller can turn it into a
sensor-fault event and re-initialise.

Source: ams TCS3472 datasheet (TCS34721/3/5/7), sections "Register Set",
"Command Register", "Enable Register (0x00)", "RGBC Timing Register (0x01)",
"Control Register (0x0F)", "ID Register (0x12)", "Status Register (0x13)",
"RGBC Channel Data Registers (0x14 - 0x1B)" and the state diagram of
"System State Machine" (2.4 ms initialisation after PON).

Allowed settings (units):

- integration time: ``2.4 ms * n`` for ``n = 1 .. 256`` (2.4 ms .. 614.4 ms);
  ATIME = 256 - n. Other values are rounded to the nearest step.
- analog gain: 1, 4, 16 or 60 (times).
- full scale of each channel: ``min(65535, 1024 * n)`` counts.

The step, full-scale and saturation arithmetic is ``camelup.board.tcs34725``'s (one
copy for the board, the classifier and the host tools).
"""

import camelup.board.tcs34725 as _math

from pyramid.compat import const, sleep_ms, ticks_diff, ticks_ms

# Command register (datasheet "Command Register"): bit 7 must be set; bits 6:5
# select the transaction type; 0b01 = auto-increment through the registers.
_CMD = const(0x80)
_CMD_AUTO_INC = const(0xA0)

_REG_ENABLE = const(0x00)
_REG_ATIME = const(0x01)
_REG_CONTROL = const(0x0F)
_REG_ID = const(0x12)
_REG_STATUS = const(0x13)
_REG_CDATAL = const(0x14)  # CDATAL..BDATAH: 8 bytes, little-endian words C, R, G, B

_ENABLE_PON = const(0x01)  # power on the oscillator
_ENABLE_AEN = const(0x02)  # run the RGBC ADC
_STATUS_AVALID = const(0x01)  # a whole integration cycle has completed

# Time after PON before the ADC may be enabled (datasheet: "a minimum interval of
# 2.4 ms must pass after PON is asserted before an RGBC can be initiated").
_PON_DELAY_MS = const(3)
# The state machine spends one 2.4 ms initialisation step before integrating;
# add bus and oscillator slack (the internal oscillator is specified +/-10 %).
_INIT_MS = const(3)

#: Chip ids accepted: 0x44 = TCS34721/TCS34725, 0x4D = TCS34723/TCS34727, 0x10 =
#: reported by some TCS34725 modules sold today (the Adafruit drivers accept it too).
CHIP_IDS = (0x44, 0x4D, 0x10)
#: Allowed analog gains (times), index = CONTROL.AGAIN value.
GAINS = _math.GAINS
#: One integration step in ms (ATIME counts down in these steps).
STEP_MS = _math.STEP_MS
#: Integration time limits in ms.
INTEGRATION_MIN_MS = _math.INTEGRATION_MIN_MS
INTEGRATION_MAX_MS = _math.INTEGRATION_MAX_MS


class ChipIdError(OSError):
    """``OSError(19)`` (ENODEV): a chip answered at the address with an id not in
    ``CHIP_IDS``; ``chip_id`` is the id it gave (int)."""

    def __init__(self, address, chip):
        super().__init__(19, "no TCS34725 at 0x%02x (id 0x%02x)" % (address, chip))
        self.chip_id = chip


class TCS34725:
    """One TCS34725 on an I2C bus.

    ``i2c``: an object with ``readfrom_mem_into``, ``writeto_mem`` and
    ``readfrom_mem`` (``machine.I2C``). ``address``: 7-bit address (0x29).
    ``integration_ms``: 2.4 .. 614.4 ms, rounded to 2.4 ms steps. ``gain``: one of
    ``GAINS``.

    The constructor powers the chip up and starts the ADC; ``chip_id`` keeps the id it
    read. Raises ``ChipIdError`` (an ``OSError(19)``, ENODEV, whose ``chip_id`` is the
    id read) when the id register holds an id not in ``CHIP_IDS``, ``ValueError`` on
    a setting out of range, and lets the bus's ``OSError`` (5, 110) through.
    """

    def __init__(self, i2c, address=0x29, integration_ms=24, gain=4):
        self._i2c = i2c
        self._address = address
        self._buf1 = bytearray(1)
        self._buf8 = bytearray(8)
        self._mv8 = memoryview(self._buf8)
        self._cycles = 10
        self._gain = 4
        self._started = ticks_ms()
        chip = self._read_u8(_REG_ID)
        if chip not in CHIP_IDS:
            raise ChipIdError(address, chip)
        self.chip_id = chip
        self.init(integration_ms, gain)

    # --- low-level register access (one scratch buffer, no allocation) ---

    def _read_u8(self, reg):
        self._i2c.readfrom_mem_into(self._address, _CMD | reg, self._buf1)
        return self._buf1[0]

    def _write_u8(self, reg, value):
        self._buf1[0] = value
        self._i2c.writeto_mem(self._address, _CMD | reg, self._buf1)

    # --- set-up ---

    def init(self, integration_ms=None, gain=None):
        """Power-on sequence: PON, wait 2.4 ms, write ATIME and gain, then AEN.

        Used by the constructor and to re-initialise after a bus fault (the chip
        may have lost power). ``None`` keeps the current setting. Raises
        ``OSError`` from the bus, ``ValueError`` for a bad setting.
        """
        if integration_ms is not None:
            self._cycles = self._cycles_for(integration_ms)
        if gain is not None:
            self._gain_index(gain)
            self._gain = gain
        self._write_u8(_REG_ENABLE, _ENABLE_PON)
        sleep_ms(_PON_DELAY_MS)
        self._write_u8(_REG_ATIME, 256 - self._cycles)
        self._write_u8(_REG_CONTROL, self._gain_index(self._gain))
        self.start()

    @staticmethod
    def _cycles_for(integration_ms):
        # nearest whole number of 2.4 ms steps, in integer arithmetic (x10 / 24)
        return _math.steps(_math.check_integration(integration_ms))

    @staticmethod
    def _gain_index(gain):
        return _math.gain_index(gain)

    @property
    def integration_ms(self):
        """Integration time in ms (a multiple of 2.4 ms, 2.4 .. 614.4)."""
        return self._cycles * 24 / 10

    @integration_ms.setter
    def integration_ms(self, ms):
        self._cycles = self._cycles_for(ms)
        self._write_u8(_REG_ATIME, 256 - self._cycles)
        self.start()

    @property
    def gain(self):
        """Analog gain in times: 1, 4, 16 or 60."""
        return self._gain

    @gain.setter
    def gain(self, gain):
        index = self._gain_index(gain)
        self._gain = gain
        self._write_u8(_REG_CONTROL, index)
        self.start()

    @property
    def full_scale(self):
        """Digital full scale of every channel in counts: min(65535, 1024 * steps)."""
        return _math.full_scale_steps(self._cycles)

    def settings(self):
        """The settings a reading was taken with: ``{"integration_ms": float, "gain": int}``."""
        return {"integration_ms": self.integration_ms, "gain": self._gain}

    # --- power ---

    def enable(self):
        """Power up and run the ADC (PON, 2.4 ms, then PON|AEN); restarts integration."""
        self._write_u8(_REG_ENABLE, _ENABLE_PON)
        sleep_ms(_PON_DELAY_MS)
        self.start()

    def disable(self):
        """Sleep state (PON = AEN = 0): about 2.5 uA; the registers keep their values."""
        self._write_u8(_REG_ENABLE, 0)

    def start(self):
        """Restart integration now, so the next reading covers only light from now on.

        Writing AEN = 0 then AEN = 1 aborts the running cycle; AVALID reads 0 until
        a new cycle completes (2.4 ms initialisation + the integration time).
        """
        self._write_u8(_REG_ENABLE, _ENABLE_PON)
        self._write_u8(_REG_ENABLE, _ENABLE_PON | _ENABLE_AEN)
        self._started = ticks_ms()

    # --- reading ---

    def cycle_ms(self):
        """Worst-case ms from ``start()`` to a valid reading (init + integration + 10 %)."""
        return _INIT_MS + (self._cycles * 24 * 11) // 100 + 1

    def remaining_ms(self):
        """ms still expected before the reading started by ``start()`` is ready (>= 0)."""
        left = self.cycle_ms() - ticks_diff(ticks_ms(), self._started)
        return left if left > 0 else 0

    def ready(self):
        """True when STATUS.AVALID is set (a whole cycle completed). Raises OSError."""
        return bool(self._read_u8(_REG_STATUS) & _STATUS_AVALID)

    def read(self, timeout_ms=None):
        """Wait for a valid cycle, then read C, R, G, B in one 8-byte burst.

        Returns ``(clear, red, green, blue)`` in counts, each 0 .. ``full_scale``.
        ``timeout_ms``: longest wait for AVALID (default: twice ``cycle_ms()`` +
        10 ms). Raises ``OSError(110)`` (ETIMEDOUT) when AVALID never comes, and
        the bus's ``OSError``.
        """
        if timeout_ms is None:
            timeout_ms = 2 * self.cycle_ms() + 10
        began = ticks_ms()
        if not self.ready():
            # sleep through the expected rest of the cycle, then poll every 1 ms
            wait = self.remaining_ms()
            if wait > timeout_ms:
                wait = timeout_ms
            if wait:
                sleep_ms(wait)
            while not self.ready():
                if ticks_diff(ticks_ms(), began) >= timeout_ms:
                    # the deadline may have passed while this task was not running (a
                    # GC pause, a busy loop): one last look before calling it a fault
                    if self.ready():
                        break
                    raise OSError(110, "TCS34725: no valid reading in %d ms" % timeout_ms)
                sleep_ms(1)
        return self.read_now()

    def read_now(self):
        """Burst-read the last completed cycle without waiting: ``(c, r, g, b)`` counts.

        One auto-increment read from CDATAL (command 0xA0 | 0x14): the chip latches
        each high byte when its low byte is read, so the four words come from the
        same cycle. Raises the bus's ``OSError``.
        """
        self._i2c.readfrom_mem_into(self._address, _CMD_AUTO_INC | _REG_CDATAL, self._mv8)
        b = self._buf8
        return (
            b[0] | (b[1] << 8),
            b[2] | (b[3] << 8),
            b[4] | (b[5] << 8),
            b[6] | (b[7] << 8),
        )

    def saturation_level(self):
        """Count at or above which a channel is treated as saturated.

        Digital saturation: the counter stops at ``full_scale``. Analog saturation:
        for integration times under 153.6 ms (fewer than 64 steps), the front end
        clips before the counter fills; ams design note DN40 advises treating 75 %
        of the digital full scale as saturated there (``camelup.board.tcs34725``).
        """
        return _math.saturation_steps(self._cycles)

    def saturated(self, clear):
        """True when a clear-channel count (the largest channel) is saturated."""
        return clear >= self.saturation_level()
