"""``pyramid calibrate`` interrupted with Ctrl-C says what ``q`` says (nothing was saved,
the board given back the settings it had), still with the interrupt's exit status, 130
(maker2 s42, finding 4: it said only "pyramid: interrupted")."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language
from camelhost.tools.monitor import connect


@pytest.fixture(autouse=True)
def _english():
    set_language("en")
    yield
    set_language("en")


@pytest.mark.process
@pytest.mark.micropython
def test_ctrl_c_says_what_q_says_and_exits_130(virtual_pyramid, capsys, monkeypatch):
    vp = virtual_pyramid("second", 3)
    with connect(vp.port) as pyramid:
        before = pyramid.link.configure()  # what the board runs: 4x, not the session's 1x
    prompts = []

    def person(prompt):
        prompts.append(prompt)
        if len(prompts) == 2:
            raise KeyboardInterrupt  # Ctrl-C at the second prompt
        vp.place("empty" if "empty" in prompt else prompt.split("release the ", 1)[1]
                 .split(" die", 1)[0])
        return ""

    monkeypatch.setattr("builtins.input", person)
    rc = cli.main(["calibrate", "--port", vp.port, "--samples", "3", "--gain", "1"])
    _out, err = capsys.readouterr()
    assert rc == 130
    assert err == "pyramid: calibration stopped; nothing was saved\n", err
    assert len(prompts) == 2
    with connect(vp.port) as pyramid:  # the gain set for the session is given back
        assert pyramid.link.configure() == before


@pytest.mark.process
@pytest.mark.micropython
def test_ctrl_c_while_connecting_says_the_same(virtual_pyramid, capsys, monkeypatch):
    """Ctrl-C while calibrate still waits for the board's hello (nothing touched yet)
    says what q and a session's Ctrl-C say, not only "interrupted" (maker s42,
    finding 3)."""
    vp = virtual_pyramid("second", 3)

    def ctrl_c(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("camelhost.tools.monitor.Pyramid.wait_hello", ctrl_c)
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("asked %r" % prompt))
    rc = cli.main(["calibrate", "--port", vp.port, "--samples", "3"])
    _out, err = capsys.readouterr()
    assert rc == 130
    assert err == "pyramid: calibration stopped; nothing was saved\n", err
