"""The firmware's inside: one compat module, a command table covering the protocol,
settings with readable keys (old short keys still read)."""

import json
import os
import re
import sys

from camelhost import paths

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from camelup.board import protocol  # noqa: E402
from pyramid import commands, settings  # noqa: E402

PYRAMID = os.path.join(paths.FIRMWARE_DIR, "pyramid")


def _sources():
    for name in sorted(os.listdir(PYRAMID)):
        if name.endswith(".py"):
            with open(os.path.join(PYRAMID, name), encoding="utf-8") as f:
                yield name, f.read()


def test_the_micropython_fallbacks_live_in_compat_only():
    for name, text in _sources():
        if name == "compat.py":
            continue
        assert "from micropython import const" not in text, name
        assert not re.search(r"def (ticks_ms|ticks_diff|ticks_add|sleep_ms|const)\(", text), name
        assert not re.search(r"^\s*from time import", text, re.M), name


def test_every_host_message_has_a_handler_and_nothing_else_does():
    host = sorted(name for name, row in protocol.MESSAGES.items() if row[0] == "H")
    assert sorted(commands.TABLE) == host
    for method in commands.TABLE.values():
        assert callable(getattr(commands.Commands, method))


def test_settings_keys_are_words_and_old_files_still_load(tmp_path):
    for key in settings.DEFAULTS:
        assert len(key) >= 4 and key not in settings.OLD_KEYS, key
    for old, new in settings.OLD_KEYS.items():
        assert new in settings.DEFAULTS, (old, new)
    path = tmp_path / "settings.json"
    # a file from firmware 0.1 (short keys): read as the readable keys
    path.write_text(json.dumps({"ed": "classic", "it": 48, "hb_ms": 700, "ring": 9}))
    s = settings.load_settings(None, str(path))
    assert (s["edition"], s["integration_ms"], s["heartbeat_ms"], s["replay_ring"]) == ("classic", 48, 700, 9)
    # both spellings in one file: the readable key wins, whatever the order
    path.write_text('{"heartbeat_ms": 900, "hb_ms": 700}')
    assert settings.load_settings(None, str(path))["heartbeat_ms"] == 900
    settings.save_settings(dict(s, gain=16), str(path))
    assert settings.load_settings(None, str(path))["gain"] == 16
    assert not os.path.exists(str(path) + ".tmp")
