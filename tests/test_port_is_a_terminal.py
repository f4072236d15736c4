"""A wrong ``--port`` that is another program's terminal is refused up front (tester s35-2,
finding 4).

A maker who mixes up the two pseudo-terminal numbers of ``pyramid emulate`` (its console
and the emulated Pico's port) gave the console to ``pyramid monitor``: opening it as a
serial line switched it to raw input, so the program reading it got end-of-input (the
emulator powered the Pico off), and the 5 s probe wrote ``HELLO?`` lines onto its screen.
Now ``monitor``, ``calibrate``, ``doctor``, ``play --pyramid`` (the link's transport) and
``flash`` find that the port is a live program's controlling terminal (Linux's
``/proc``) and say so in one line, reading and writing nothing there.
"""

import os
import select
import subprocess
import sys

import pytest
from camelhost import cli
from camelhost.device import transport

#: A line-reading program in its own session, whose controlling terminal is its stdin.
READER = """
import fcntl, sys, termios
fcntl.ioctl(0, termios.TIOCSCTTY, 0)
print("READY", flush=True)
for line in sys.stdin:
    print("READ", repr(line), flush=True)
print("EOF on stdin", flush=True)
"""


def _read_until(fd, word, seen, timeout=10.0):
    """Bytes from the pty master ``fd`` into ``seen`` until ``word`` is among them."""
    import time

    end = time.monotonic() + timeout
    while word not in seen and time.monotonic() < end:
        ready, _w, _x = select.select([fd], [], [], 0.1)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    return seen


@pytest.fixture
def other_program():
    """``(path, pid, master, seen)``: a pseudo-terminal that is the controlling terminal
    of a running line reader (``READER``), as a pane of tmux is a shell's."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    child = subprocess.Popen([sys.executable, "-c", READER], stdin=slave, stdout=slave,
                             stderr=slave, start_new_session=True, close_fds=True)
    os.close(slave)
    seen = bytearray()
    try:
        _read_until(master, b"READY", seen)
        assert b"READY" in seen, bytes(seen)
        yield path, child.pid, master, seen
    finally:
        os.close(master)  # the terminal hangs up: the reader ends
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(timeout=5)


@pytest.mark.process
@pytest.mark.parametrize("argv", [
    ["monitor", "--port", "{port}", "--count", "1"],
    ["calibrate", "--port", "{port}", "--samples", "3"],
    ["flash", "--port", "{port}"],
])
def test_another_programs_terminal_is_refused_and_left_working(other_program, capsys, argv):
    path, pid, master, seen = other_program
    assert cli.main([word.format(port=path) for word in argv]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert ("%s is the terminal of another program (python" % path) in err[0], err
    assert ("process %d), not a pyramid's port: nothing was read or written there" % pid) \
        in err[0], err
    # the program there goes on reading what is typed, and saw nothing of ours
    os.write(master, b"two\n")
    _read_until(master, b"READ 'two\\n'", seen)
    assert b"READ 'two\\n'" in seen, bytes(seen)
    assert b"EOF on stdin" not in seen and b"HELLO" not in seen, bytes(seen)


@pytest.mark.process
def test_doctor_on_another_programs_terminal_says_to_give_the_pyramids_port(other_program,
                                                                          capsys):
    """``pyramid doctor --port P``, P another program's terminal: the connection step's
    fix names the pyramid's own port and the serial ports seen, not "flash it", which
    cannot reach a pyramid that is not there (maker s42, finding 2)."""
    path, pid, _master, _seen = other_program
    assert cli.main(["doctor", "--port", path]) == 1
    out = capsys.readouterr().out
    lines = [line.split(None, 1) for line in out.splitlines()[1:]]
    assert [word for word, _rest in lines] == ["FAILED", "fix:"], out
    assert ("%s is the terminal of another program (python" % path) in lines[0][1], out
    assert lines[1][1] == (
        "give doctor the pyramid's own port, not a program's terminal (serial ports seen: "
        "%s), or run pyramid doctor, which finds it on USB" % transport.ports_seen()), out
    assert "flash" not in out, out


def _fake_proc(tmp_path, rows):
    for pid, name, pgrp, session, tty_nr, tpgid in rows:
        os.makedirs(tmp_path / str(pid))
        (tmp_path / str(pid) / "stat").write_bytes(
            ("%d (%s) S 1 %d %d %d %d 4194560 0 0" % (pid, name, pgrp, session, tty_nr, tpgid))
            .encode())
    return str(tmp_path)


def test_the_owner_is_read_from_proc_and_the_foreground_program_named(tmp_path):
    """/dev/null is character device 1:3, tty_nr 259 in the kernel's encoding (proc(5)):
    of the shell and the program it runs in the foreground, the one reading is named."""
    proc = _fake_proc(tmp_path, [
        (100, "bash", 100, 100, 259, 200),
        (200, "python3 (x)", 200, 100, 259, 200),  # a name with a space and a parenthesis
        (300, "other", 300, 300, 34816, 300),  # /dev/pts/0
        (400, "daemon", 400, 400, 0, -1),  # no terminal
    ])
    assert transport.terminal_owner("/dev/null", proc=proc) == (200, "python3 (x)", False)
    assert transport.terminal_owner("/dev/zero", proc=proc) is None  # 1:5
    assert transport.terminal_owner("socket://localhost:1", proc=proc) is None
    assert transport.terminal_owner(str(tmp_path), proc=proc) is None  # not a device


@pytest.mark.process
def test_the_pyramids_own_ports_have_no_owner(micropython):
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("second", seed=1) as vp:
        assert transport.terminal_owner(vp.port) is None
        assert transport.terminal_owner(os.path.realpath(vp.port)) is None
