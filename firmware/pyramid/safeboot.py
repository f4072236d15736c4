"""Safe boot: the way back to the REPL on a board whose firmware ignores Ctrl-C.

Two ways, checked once at boot, before the firmware starts (``app.run``):

* the **slider** held down (or a jumper across the slider switch's two terminals,
  hardware/README.md "Watchdog and safe boot") from power-up until the check: held
  for ``SAMPLES`` reads ``SAMPLE_MS`` apart;
* the **BOOTSEL** button (``rp2.bootsel_button()``) pressed and held for the same
  ``SAMPLES`` reads at any time in the first ``config.SAFE_BOOT_WINDOW_MS`` of the
  check, while the status LED is lit. Only after a power-on reset (a watchdog
  reset skips the window, so it recovers at full speed), and only pressed *after*
  the cable is in: BOOTSEL held while the RP2040 powers up starts its ROM's UF2
  bootloader instead (RP2040 datasheet, section 2.8 "Bootrom").

Returns which one was seen, so ``app.run`` can say so; then no watchdog is started
and Ctrl-C works, so mpremote (``pyramid flash``) can reach the REPL.
"""

from pyramid.compat import sleep_ms, ticks_diff, ticks_ms

#: reads that must all see the button held, and their spacing (ms): 50 ms in all
SAMPLES = 5
SAMPLE_MS = 10


def bootsel_reader():
    """``rp2.bootsel_button`` (1 while pressed), or ``None`` off an rp2 board."""
    try:
        import rp2

        return rp2.bootsel_button
    except (ImportError, AttributeError):
        return None


def _held(read, active, sleep, samples):
    for _ in range(samples):
        if read() != active:
            return False
        sleep(SAMPLE_MS)
    return True


def safe_boot(board, samples=SAMPLES, sleep_ms_=None, bootsel=None, window_ms=0, clock=None):
    """``"slider"``, ``"bootsel"`` or ``None``: which safe-boot request was seen.

    ``board``: ``app.Board`` (its ``slider`` pin, ``slider_active_low`` and
    ``status_led``). ``bootsel``: function returning 1 while BOOTSEL is pressed
    (``bootsel_reader()``), or ``None``. ``window_ms``: how long to watch BOOTSEL
    (0: only the slider, read at once). ``sleep_ms_`` / ``clock``: injected for
    tests (default ``time.sleep_ms`` / ``time.ticks_ms``).
    """
    sleep = sleep_ms_ or sleep_ms
    now = clock or ticks_ms
    active = 0 if board.slider_active_low else 1
    if _held(board.slider.value, active, sleep, samples):
        return "slider"
    if bootsel is None or window_ms <= 0:
        return None
    led = board.status_led
    led.value(1)  # "press BOOTSEL now"
    try:
        start = now()
        while ticks_diff(now(), start) < window_ms:
            if bootsel() and _held(bootsel, 1, sleep, samples):
                return "bootsel"
            sleep(SAMPLE_MS)
    finally:
        led.value(0)
    return None
