"""``pyramid flash --port P`` while another program (a ``pyramid play``, ``monitor``)
holds P: refused in the one line every command says of a busy port, before anything
is built, read from P or handed to mpremote (maker2 s42, finding 1: flash listened on
the port, blamed the running firmware, and the game lost its pyramid)."""

import os
import subprocess

import pytest
from camelhost.device import flash
from camelhost.device.open import open_pyramid
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


@pytest.mark.process
@pytest.mark.micropython
def test_flash_refuses_a_port_another_program_holds_and_leaves_it_alone(
        virtual_pyramid, fails_cleanly, tmp_path, monkeypatch):
    real_run = subprocess.run
    started = []

    def recorded(cmd, **kwargs):
        if os.path.basename(cmd[0]).startswith("mpremote"):
            started.append(cmd)
        return real_run(cmd, **kwargs)

    monkeypatch.setattr(flash.subprocess, "run", recorded)
    vp = virtual_pyramid("second", 3)
    build = tmp_path / "build"
    with open_pyramid(vp.port, option="--port") as held:  # as monitor holds it
        assert held.link.state == "connected"
        _out, err = fails_cleanly(["flash", "--port", vp.port, "--build-dir", str(build)])
        assert err == ("pyramid: cannot open %s: %s is in use by another program (another "
                       "'pyramid play' or 'monitor'?): close it first\n" % (vp.port, vp.port))
        assert held.link.state == "connected"
    assert started == [] and not build.exists()
