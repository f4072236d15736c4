"""The board's ``settings.json`` (and ``profile.json``) written by an editor that puts a
UTF-8 byte order mark first (Windows Notepad) is read as the settings it holds:
MicroPython's ``json`` refuses the mark (``syntax error in JSON``), and the board then
ran on its defaults. A settings file there but unreadable all the same still does not
stop the board: it runs on config.py and the defaults (the console line once said about
it cost the board 1.5 KB of heap after boot, docs/emulator.md)."""

import json
import os
import sys

import pytest
from camelhost import paths

if paths.FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, paths.FIRMWARE_DIR)

from pyramid import profile as profile_mod  # noqa: E402
from pyramid import settings as settings_mod  # noqa: E402

BOM = b"\xef\xbb\xbf"


def _write(path, text, bom=True):
    with open(path, "wb") as f:
        f.write((BOM if bom else b"") + text.encode())


def test_a_settings_file_with_a_byte_order_mark_is_read_and_a_broken_one_is_the_defaults(tmp_path):
    path = str(tmp_path / "settings.json")
    _write(path, '{"gain": 16, "integration_ms": 48}')
    s = settings_mod.load_settings(None, path)
    assert (s["gain"], s["integration_ms"]) == (16, 48)
    _write(path, '{"gain": 60}', bom=False)  # without a mark, as before
    assert settings_mod.load_settings(None, path)["gain"] == 60
    _write(path, "{broken")
    assert settings_mod.load_settings(None, path) == settings_mod.DEFAULTS
    os.remove(path)
    assert settings_mod.load_settings(None, path) == settings_mod.DEFAULTS


def test_a_profile_with_a_byte_order_mark_is_loaded(tmp_path):
    from camelup.board import classifier

    path = str(tmp_path / "profile.json")
    _write(path, json.dumps(classifier.default_profile("second")))
    assert profile_mod.load(path) == json.loads(json.dumps(classifier.default_profile("second")))


SCRIPT = r"""
from pyramid import settings, profile
s = settings.load_settings(None, "settings.json")
p = profile.load("profile.json")
b = settings.load_settings(None, "broken.json")
print(s["gain"], s["integration_ms"], p is not None and p["edition"], b["gain"])
"""


@pytest.mark.micropython
def test_on_the_micropython_port_the_mark_is_skipped(micropython, tmp_path):
    from camelup.board import classifier

    _write(str(tmp_path / "settings.json"), '{"gain": 16, "integration_ms": 48}')
    _write(str(tmp_path / "profile.json"), json.dumps(classifier.default_profile("second")))
    _write(str(tmp_path / "broken.json"), '{"gain": 60')
    result = micropython(SCRIPT, [paths.FIRMWARE_DIR, paths.SHARED_DIR], cwd=str(tmp_path),
                         heapsize="1M")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == "16 48 second 4", result.stdout


@pytest.mark.micropython
@pytest.mark.process
def test_the_virtual_pyramid_boots_on_its_marked_settings_and_on_the_defaults_past_a_broken_file():
    from camelhost.device.virtual import VirtualPyramid
    from camelhost.tools.monitor import connect

    with VirtualPyramid("second", seed=5, settings={"gain": 16}) as vp:
        path = os.path.join(vp.flash_dir, "settings.json")
        with open(path, "rb") as f:
            text = f.read().decode()
        _write(path, text)
        vp.reboot()
        with connect(vp.port) as pyramid:
            assert pyramid.link.configure()["gain"] == 16  # not the defaults' 4
        _write(path, text[:-3])
        vp.reboot()
        with connect(vp.port) as pyramid:
            assert pyramid.link.configure()["gain"] == 4  # the defaults: the board runs on
