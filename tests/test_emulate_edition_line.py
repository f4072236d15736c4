"""``pyramid emulate --edition classic`` on a kept image whose board runs the second
edition (s36 tester, finding 12): the console's running line says so and names the
command that switches it. The emulated board is a stand-in (no Node, no rp2040js): the
command's own output is what is checked, for the ``HELLO`` the firmware sends."""

import io

import pytest
from camelhost import cli
from camelhost.device import emulated, uf2
from camelup.board import protocol


class _Board:
    """What ``pyramid emulate`` reads of ``EmulatedPyramid``: a board whose firmware says
    ``HELLO`` with the edition in its settings (``ed``)."""

    ed = "second"

    def __init__(self, uf2=None, edition="second", **_options):
        self.uf2, self.edition, self.port = uf2, edition, "/dev/null"
        self.hello = protocol.decode(protocol.encode(
            "HELLO", proto=1, fw="0.1.0", uid="5556575801020304", boot="958586CF", seq=0,
            oldest=1, ed=self.ed, sensor="ok", vb=False, prev=None, acked=0))
        self.emitted, self.resets = [(0.0, self.hello)], []

    def start(self):
        pass

    def wait_hello(self, timeout):
        return self.hello

    def close(self):
        pass


@pytest.fixture
def console(monkeypatch, capsys):
    monkeypatch.setattr(emulated, "EmulatedPyramid", _Board)
    monkeypatch.setattr(emulated, "node_runner", lambda: None)
    monkeypatch.setattr(emulated, "find_uf2", lambda given: "/tmp/RPI_PICO.uf2")
    monkeypatch.setattr(uf2, "check", lambda image: None)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))

    def run(*options):
        assert cli.main(["emulate", "--flash", "/tmp/b.img"] + list(options)) == 0
        return capsys.readouterr().out.splitlines()
    return run


def test_classic_dice_on_a_board_set_to_the_second_edition_say_so_with_the_fix(console):
    lines = console("--edition", "classic")
    assert lines[1] == ("pyramid firmware 0.1.0 running (second edition; the dice here are "
                        "the classic edition's: pyramid calibrate --port /dev/null --edition "
                        "classic switches it)")


def test_dice_of_the_boards_own_edition_keep_the_short_line(console):
    assert console("--edition", "second")[1] == "pyramid firmware 0.1.0 running (second edition)"
