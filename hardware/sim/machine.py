"""Fake ``machine`` module for running the pyramid firmware off the board.

Put this folder first on the module path (MicroPython unix port:
``MICROPYPATH=.frozen:hardware/sim:...``; CPython: ``sys.path``) and the
firmware's ``import machine`` gets these classes instead of the rp2 ones.

Behaviour copied from the rp2 port (ports/rp2/machine_pin.c, machine_i2c.c):

* ``Pin(id, mode, pull, value=)``: ``value()``, ``value(x)``, ``on()``,
  ``off()``, ``toggle()``, calling the pin. An input pin reads what the
  simulation says (``set_input``), else its pull level (pull-up: 1, pull-down
  and no pull: 0). Output levels are recorded (``output_level``).
* ``I2C(id, scl=, sda=, freq=, timeout=)``: transactions go to the device model
  registered at the address (``register_i2c``). No device there: ``OSError(5)``
  (EIO, the rp2 port's answer to an address NACK). Models raise ``OSError(5)``
  or ``OSError(110)`` (ETIMEDOUT) themselves to inject faults.
* ``unique_id()`` -> 8 bytes (the RP2040 flash's id); ``reset()`` ends the
  process with exit status ``RESET_EXIT`` (a runner may boot it again);
  ``freq()``; ``idle()``; ``reset_cause()``; ``WDT`` that bites (see ``WDT``).
"""

import sys

import sim_clock as _clock

#: ticks_ms() when this board powered up (the process imported ``machine``)
POWER_UP_MS = _clock.ticks_ms()

#: exit status of ``reset()``: the board runner restarts the firmware on it
RESET_EXIT = 75

_inputs = {}  # pin id -> function returning 0/1
_outputs = {}  # pin id -> last level written
_devices = {}  # 7-bit address -> model
_uid = [b"\xe6\x61\x41\x04\x03\x2b\x5c\x2e"]
_freq = [125000000]


def set_input(pin_id, fn):
    """Make input ``pin_id`` read ``fn()`` (0/1); ``fn=None`` goes back to the pull level."""
    if fn is None:
        _inputs.pop(pin_id, None)
    else:
        _inputs[pin_id] = fn


def output_level(pin_id):
    """Last level written to output ``pin_id`` (0/1), ``0`` if never written."""
    return _outputs.get(pin_id, 0)


def register_i2c(address, model):
    """Attach a device model at 7-bit ``address`` (``None`` removes it)."""
    if model is None:
        _devices.pop(address, None)
    else:
        _devices[address] = model


def set_unique_id(uid):
    """Set the id ``unique_id()`` returns (bytes, 8 on the RP2040)."""
    _uid[0] = bytes(uid)


def unique_id():
    return _uid[0]


#: reset causes, as rp2's machine module names them (rp2 has only these two)
PWRON_RESET = 1
WDT_RESET = 3
#: rp2's longest watchdog timeout (ms)
WDT_MAX_MS = 8388
#: file in the current directory (the board's flash) that carries the reset cause
#: to the next boot, as the RP2040's watchdog scratch registers do
RESET_FILE = ".sim_reset_cause"

_wdt = [None]  # the started WDT (one per boot, as on rp2)
_cause = [PWRON_RESET]
_resetting = [False]


def _load_cause():
    try:
        with open(RESET_FILE) as f:
            cause = int(f.read())
    except (OSError, ValueError):
        return PWRON_RESET
    try:
        import os

        os.remove(RESET_FILE)
    except (OSError, ImportError):
        pass
    return cause


_cause[0] = _load_cause()


def _reset(cause):
    if _resetting[0]:  # already going down (cleanup code touching pins on the way out)
        sys.exit(RESET_EXIT)
    _resetting[0] = True
    try:
        with open(RESET_FILE, "w") as f:
            f.write(str(cause))
    except OSError:
        pass
    try:
        print("sim: board reset (%s)" % ("watchdog" if cause == WDT_RESET else "machine.reset"))
    except OSError:
        pass
    sys.exit(RESET_EXIT)


def reset_cause():
    """``PWRON_RESET`` at a first boot, ``WDT_RESET`` after a watchdog bite or
    ``reset()`` (rp2 resets through the watchdog, so it reports that too)."""
    return _cause[0]


def reset():
    _reset(WDT_RESET)


def soft_reset():
    sys.exit(RESET_EXIT)


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz


def idle():
    _wdt_check()


def bootloader(*args):
    sys.exit(RESET_EXIT)


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None, **kwargs):
        self.id = id
        self._mode = self.IN
        self._pull = None
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, **kwargs):
        if mode != -1:
            self._mode = mode
        if pull != -1:
            self._pull = pull
        if value is not None:
            self.value(value)

    def value(self, x=None):
        _wdt_check()
        if x is None:
            if self._mode == self.OUT:
                return _outputs.get(self.id, 0)
            fn = _inputs.get(self.id)
            if fn is not None:
                return 1 if fn() else 0
            return 1 if self._pull == self.PULL_UP else 0
        _outputs[self.id] = 1 if x else 0
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def toggle(self):
        self.value(0 if _outputs.get(self.id, 0) else 1)

    def irq(self, handler=None, trigger=0, hard=False):
        raise OSError(95)  # EOPNOTSUPP: the firmware polls; the sim has no pin interrupts

    def __repr__(self):
        return "Pin(%r)" % (self.id,)


class I2C:
    """Fake hardware I2C: every transaction is handed to the model at its address."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.freq = freq
        self.timeout = timeout

    def _dev(self, addr):
        _wdt_check()
        dev = _devices.get(addr)
        if dev is None:
            raise OSError(5)  # rp2: no ACK for the address -> EIO
        return dev

    def scan(self):
        found = []
        for addr in range(0x08, 0x78):
            if addr in _devices:
                found.append(addr)
        return found

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        self._dev(addr).readfrom_mem_into(memaddr, buf)

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        return self._dev(addr).readfrom_mem(memaddr, nbytes)

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        self._dev(addr).writeto_mem(memaddr, buf)

    def writeto(self, addr, buf, stop=True):
        self._dev(addr).writeto(buf)
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        self._dev(addr).readfrom_into(buf)

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self._dev(addr).readfrom_into(buf)
        return bytes(buf)


class WDT:
    """Watchdog as on rp2 (ports/rp2/machine_wdt.c): ``timeout`` ms, at most 8388
    (``ValueError`` above), cannot be stopped; ``feed()`` restarts the count.

    It bites: when it has not been fed for ``timeout`` ms the board resets
    (``reset_cause()`` of the next boot is ``WDT_RESET``, process exit status
    ``RESET_EXIT``). The sim has no timer interrupt, so the bite is checked whenever
    the firmware touches the fake hardware (``Pin``, ``I2C``, ``idle``) or feeds;
    the slider task polls its pin every few ms, so a stalled task bites on time. A
    firmware that blocks the whole loop is caught by the runner's own timeouts.
    ``SIM_WDT=0`` in the environment makes it feed-only (never bites).
    """

    def __init__(self, id=0, timeout=5000):
        if timeout > WDT_MAX_MS or timeout < 1:
            raise ValueError("timeout out of range")  # rp2: ValueError above 8388 ms
        self.timeout = timeout
        self.bites = _clock.getenv("SIM_WDT") != "0"
        self._due = _clock.ticks_add(_clock.ticks_ms(), timeout)
        _wdt[0] = self

    def feed(self):
        self._check()
        self._due = _clock.ticks_add(_clock.ticks_ms(), self.timeout)

    def _check(self):
        if self.bites and _clock.ticks_diff(_clock.ticks_ms(), self._due) > 0:
            _reset(WDT_RESET)


def _wdt_check():
    wdt = _wdt[0]
    if wdt is not None:
        wdt._check()
