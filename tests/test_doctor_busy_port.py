"""``pyramid doctor --port P`` while another program (a ``pyramid play``, ``monitor``)
holds P: the connection step fails in the line every command says of a busy port, and
its fix is to close that program, not to flash the board, which would take the pyramid
from it (maker2 s42, finding 2)."""

import pytest
from camelhost import cli
from camelhost.device.open import open_pyramid
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


@pytest.mark.process
@pytest.mark.micropython
def test_doctor_on_a_busy_port_says_to_close_the_other_program(virtual_pyramid, capsys):
    vp = virtual_pyramid("second", 3)
    with open_pyramid(vp.port, option="--port") as held:  # as monitor holds it
        rc = cli.main(["doctor", "--port", vp.port])
        assert held.link.state == "connected"
    out = capsys.readouterr().out
    assert rc == 1
    lines = [line.split(None, 2) for line in out.splitlines()[1:]]
    assert lines == [
        ["FAILED", "connection", "cannot open %s: %s is in use by another program (another "
         "'pyramid play' or 'monitor'?): close it first" % (vp.port, vp.port)],
        ["fix:", "close", "the other program on %s (a pyramid play, monitor or calibrate: "
         "one program at a time reads the pyramid), then run pyramid doctor --port %s again"
         % (vp.port, vp.port)],
    ], out
    assert "flash" not in out
