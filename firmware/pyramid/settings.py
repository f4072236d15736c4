"""The firmware's settings: readable keys, their defaults, where they come from.

Order of precedence: ``DEFAULTS``, then the board's ``pyramid.config`` (its names in
``CONFIG_NAMES``), then ``settings.json`` on the flash (written by ``SAVE`` with the
profile: a ``SET`` lasts until the next boot unless a profile is saved at it). A file
written by an older firmware uses the short keys of ``OLD_KEYS``; they are read as
the readable key they stand for. The wire names of ``SET``/``CFG`` (``ed``, ``it``,
``gain``, ``vb``, docs/protocol.md) are the protocol's, not these.

Plain module (no ``pyramid`` import at its top; ``load_settings``, on the board, takes
its reader from ``pyramid.profile``): the host's virtual pyramid reads ``OLD_KEYS`` to
write a settings file in the same keys.
"""

import json

#: key -> default. Timings in ms.
DEFAULTS = {
    "edition": "second",  # "classic" or "second": which dice are in the box
    "integration_ms": 24,  # TCS34725 integration time, 2.4 .. 614.4 ms
    "gain": 4,  # TCS34725 analog gain: 1, 4, 16, 60
    "value_buttons": False,  # the three value buttons are fitted
    "debounce_ms": 20,  # slider polling period / debounce
    "settle_ms": 150,  # after a push, time for the die to come to rest in the head
    "release_timeout_ms": 1500,  # no die seen by then: "nodie"
    "stable_readings": 3,  # agreeing readings that make a die
    "value_wait_ms": 5000,  # wait for a value button after a die
    "heartbeat_ms": 2000,  # HB period
    "sensor_retry_ms": 500,  # re-open period of a faulty sensor
    "replay_ring": 16,  # events kept in RAM for SYNC replay (older ones: from flash)
    "watchdog_ms": 0,  # hardware watchdog timeout (0 = off; config.WATCHDOG_MS on the board)
}
#: short key of firmware 0.1 settings files -> readable key
OLD_KEYS = {
    "ed": "edition",
    "it": "integration_ms",
    "vb": "value_buttons",
    "timeout_ms": "release_timeout_ms",
    "stable": "stable_readings",
    "value_ms": "value_wait_ms",
    "hb_ms": "heartbeat_ms",
    "retry_ms": "sensor_retry_ms",
    "ring": "replay_ring",
    "wd_ms": "watchdog_ms",
}
#: readable key -> name in ``pyramid.config``
CONFIG_NAMES = (
    ("integration_ms", "INTEGRATION_MS"),
    ("gain", "GAIN"),
    ("value_buttons", "VALUE_BUTTONS_FITTED"),
    ("debounce_ms", "DEBOUNCE_MS"),
    ("settle_ms", "SETTLE_MS"),
    ("release_timeout_ms", "RELEASE_TIMEOUT_MS"),
    ("heartbeat_ms", "HEARTBEAT_MS"),
    ("watchdog_ms", "WATCHDOG_MS"),
)
EDITIONS = ("classic", "second")
#: TCS34725 gains (datasheet "Control Register (0x0F)")
GAINS = (1, 4, 16, 60)
#: integration times SET accepts (ms)
INTEGRATION_RANGE = (3, 614)
SETTINGS_FILE = "settings.json"


def readable(key):
    """The readable key for ``key`` (itself, or what an old short key stands for)."""
    return OLD_KEYS.get(key, key)


def load_settings(config=None, path=SETTINGS_FILE):
    """Return the settings dict (``DEFAULTS`` keys): defaults, ``config`` module
    values, then the file at ``path``.

    Unknown keys and values of the wrong type in the file are ignored, and an
    unreadable file (damaged, or too big for the heap) counts as absent: a damaged
    file must not stop the board from booting. A leading UTF-8 byte order mark (an
    editor's) is skipped (``pyramid.profile.read_json``).
    """
    s = dict(DEFAULTS)
    if config is not None:
        for key, name in CONFIG_NAMES:
            if hasattr(config, name):
                s[key] = getattr(config, name)
    # the one reader of the board's JSON files, in a module the firmware forgets once it
    # has read the profile at boot (``App.load_classifier``): no heap kept for it
    from pyramid.profile import read_json

    try:
        saved = read_json(path)
    except (OSError, ValueError, MemoryError):  # no file, or not JSON (MicroPython's
        return s  # UnicodeError is a ValueError): the defaults and config.py
    try:
        # old short keys first, so a readable key in the same file wins
        for old in (True, False):
            for key in saved:
                if (key in OLD_KEYS) != old:
                    continue
                name = readable(key)
                if name in DEFAULTS and type(saved[key]) in (type(DEFAULTS[name]), int, float):
                    s[name] = saved[key]
    except (AttributeError, TypeError):  # JSON, but not an object of settings
        pass
    return s


def save_settings(settings, path=SETTINGS_FILE):
    """Write ``settings`` to ``path`` through a temporary file and a rename, so a power
    cut leaves the old file or the new one, never half of one. Raises ``OSError``."""
    import os

    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(settings, f)
    os.rename(tmp, path)
