"""The layout's import rules (docs/architecture.md), checked on the source.

Every module of ``shared/camelup``, ``host/camelhost``, ``firmware`` and
``hardware/sim`` is parsed (not imported); each ``import`` statement, at any depth,
is an edge. The rules: who may import whom (one table); the firmware and what it
ships of ``camelup`` import only ``camelup.board`` and the editions; no import cycle
(a cycle hidden inside a function counts); no ``from m import _private`` (gettext's
``_`` is a public name) and no ``module._private`` of another module (the simulated
hardware's included); no test of an edition's name outside ``camelup.editions`` (an
edition's facts are its fields; the exceptions listed with their reasons); no module of
the web package builds a ``Session`` for the live board; the link's sequencer, and
every module of ours it imports, imports no serial, threading, time or other I/O
module. Each rule was seen to fail on a violation; the checks whose logic is their own
(the edition names, the sans-IO walk) have a test of their own on a made-up source.
"""

import ast
import functools
import os

from camelhost.device import flash

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TREES = {"camelup": "shared/camelup", "camelhost": "host/camelhost",
         "pyramid": "firmware/pyramid"}
#: Folders of top-level modules (no package): the firmware's ``main`` and the simulated
#: hardware (``machine``, ``rp2``, ``sim_*``), imported by their bare names.
FLAT = {"firmware": ("main.py",), "hardware/sim": None}

#: A module in the first group may not import any module in the second (``sim``: the
#: simulated hardware's modules).
FORBIDDEN = (
    ("camelup", ("camelhost", "pyramid", "sim")),
    ("pyramid", ("camelhost", "sim")),
    ("sim", ("camelhost",)),
    ("camelhost.device", ("camelhost.table", "camelhost.ui", "camelhost.web",
                          "camelhost.tools", "camelhost.commands", "camelhost.cli")),
    ("camelhost.tools", ("camelhost.table", "camelhost.ui", "camelhost.web",
                         "camelhost.commands", "camelhost.cli")),
    ("camelhost.table", ("camelhost.ui", "camelhost.web", "camelhost.commands",
                         "camelhost.cli")),
    ("camelhost.ui", ("camelhost.web", "camelhost.commands", "camelhost.cli")),
    ("camelhost.web", ("camelhost.ui.tui", "camelhost.commands", "camelhost.cli")),
    ("camelup.odds", ("camelup.scenario", "camelup.scenario_odds", "camelup.calibration",
                      "camelup.board")),
    ("camelup.calibration", ("camelup.game", "camelup.odds", "camelup.scenario")),
) + tuple(
    # the rules engine reads the editions and itself, never what is built on it
    ("camelup." + engine, ("camelup.odds", "camelup.scenario", "camelup.scenario_odds",
                           "camelup.calibration", "camelup.board"))
    for engine in ("game", "actions", "movement", "scoring", "notation", "transcript", "rng",
                   "randomplay", "editions", "errors"))

#: The one exception: the palette (colours of the pieces; it imports ``camelup`` only)
#: is a leaf any host package may draw with.
PALETTE = "camelhost.ui.palette"


def _modules():
    out = {}
    for top, rel in TREES.items():
        base = os.path.join(ROOT, rel)
        for folder, _dirs, files in os.walk(base):
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                parts = os.path.relpath(path, base)[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                out[".".join([top] + parts)] = path
    for rel, names in FLAT.items():
        base = os.path.join(ROOT, rel)
        for name in sorted(os.listdir(base)):
            if name.endswith(".py") and (names is None or name in names):
                out[name[:-3]] = os.path.join(base, name)
    return out


MODULES = _modules()
#: The board's own MicroPython modules the simulation stands in for: the firmware
#: imports them by design (on the board they are built in).
STAND_INS = frozenset(("machine", "rp2"))
#: The simulated hardware's other modules (``sim_board``, ``sim_optics``, ...).
SIM = frozenset(m[:-3] for m in os.listdir(os.path.join(ROOT, "hardware", "sim"))
                if m.endswith(".py")) - STAND_INS
#: What the board holds of ``camelup`` besides ``camelup.board``: the one list
#: ``camelhost.device.flash.firmware_modules`` ships (the package, the editions and the
#: errors they raise).
BESIDE_BOARD = frozenset("camelup" if name == "__init__.py" else "camelup." + name[:-3]
                         for name in flash.CAMELUP_BESIDE_BOARD)
#: Modules where an edition's name may still be tested or used as a key outside
#: ``camelup.editions``, each with the reason.
EDITION_NAMES_ALLOWED = {
    "camelup.board.default_profiles": "generated data: the built-in classifier profile of "
                                      "each edition, keyed by its name",
    "camelup.odds.race": "LATER_TILES: the bots' tile play measured per edition, a fit to "
                         "data for the race odds, not a rule",
}


def _is_package(mod):
    return MODULES.get(mod, "").endswith("__init__.py")


@functools.lru_cache(maxsize=None)
def _tree(mod):
    """The syntax tree of ``mod``, parsed once for every test of this file."""
    with open(MODULES[mod]) as f:
        return ast.parse(f.read())


@functools.lru_cache(maxsize=None)
def _imports(mod):
    """``((line, imported module, names taken from it), ...)`` of every import in ``mod``."""
    tree = _tree(mod)
    found = []
    package = mod if _is_package(mod) else mod.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((node.lineno, alias.name, ()))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names = tuple(a.name for a in node.names)
            found.append((node.lineno, base, names))
            for name in names:  # `from camelup import odds` imports camelup.odds
                if base + "." + name in MODULES:
                    found.append((node.lineno, base + "." + name, ()))
    return tuple(found)


def _within(mod, group):
    if group == "sim":
        return mod in SIM
    return mod == group or mod.startswith(group + ".")


def test_the_palette_stays_a_leaf():
    assert {t for _l, t, _n in _imports(PALETTE)} <= {"camelup.editions"}


def test_every_tree_was_found():
    for top in TREES:
        assert any(m.startswith(top + ".") for m in MODULES), top


def test_no_module_imports_what_its_layer_may_not():
    bad = []
    for mod in sorted(MODULES):
        for line, target, _names in _imports(mod):
            for group, banned in FORBIDDEN:
                if target == PALETTE and mod.startswith("camelhost."):
                    continue
                if _within(mod, group) and any(_within(target, b) for b in banned):
                    bad.append("%s:%d imports %s" % (MODULES[mod], line, target))
    assert not bad, "\n" + "\n".join(bad)


def test_no_library_module_imports_a_command_module():
    bad = ["%s:%d imports %s" % (MODULES[mod], line, target)
           for mod in sorted(MODULES)
           if not _within(mod, "camelhost.commands") and mod != "camelhost.cli"
           for line, target, _names in _imports(mod)
           if _within(target, "camelhost.commands")]
    assert not bad, "\n" + "\n".join(bad)


def test_no_import_cycle_even_inside_a_function():
    graph = {}
    for mod in MODULES:
        edges = set()
        for _line, target, _names in _imports(mod):
            # importing a.b.c runs a and a.b first; only our own modules count
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                name = ".".join(parts[:i])
                if name in MODULES and name != mod and not _within(mod, name):
                    edges.add(name)
        graph[mod] = edges
    cycles = []
    state = {}

    def visit(mod, path):
        state[mod] = 1
        for nxt in sorted(graph[mod]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[mod] = 2

    for mod in sorted(graph):
        if mod not in state:
            visit(mod, [mod])
    assert not cycles, "\n" + "\n".join(cycles)


#: ``_`` and ``N_`` of the translation catalogue are public by gettext's convention.
I18N = "camelhost.i18n"
GETTEXT_NAMES = ("_", "N_")


def test_no_module_takes_another_modules_private_names():
    bad = []
    for mod in sorted(MODULES):
        tree = _tree(mod)
        aliases = {}
        for line, target, names in _imports(mod):
            for name in names:
                if target == I18N and name in GETTEXT_NAMES:
                    continue  # the gettext convention, the one way a player's words are written
                if name.startswith("_") and not name.startswith("__"):
                    bad.append("%s:%d takes %s from %s" % (MODULES[mod], line, name, target))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    aliases[a.asname or a.name.split(".")[0]] = a.name
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    full = node.module + "." + a.name
                    if full in MODULES:
                        aliases[a.asname or a.name] = full
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and aliases[node.value.id] in MODULES and aliases[node.value.id] != mod):
                bad.append("%s:%d uses %s.%s" % (MODULES[mod], node.lineno,
                                                 aliases[node.value.id], node.attr))
    assert not bad, "\n" + "\n".join(bad)


def _on_board(mod):
    return mod in BESIDE_BOARD or _within(mod, "camelup.board")


def test_the_firmware_imports_only_the_board_and_the_editions():
    """The firmware (``pyramid``, ``main``) and what it ships of ``camelup`` import
    nothing of ``camelup`` but ``camelup.board`` and the editions: the board never
    loads the rules engine, the odds or the host-only fitting."""
    shipped = [m for m in MODULES if _within(m, "pyramid") or m == "main" or _on_board(m)]
    assert "camelup.board.protocol" in shipped and "pyramid.app" in shipped
    bad = ["%s:%d imports %s" % (MODULES[mod], line, target)
           for mod in sorted(shipped)
           for line, target, _names in _imports(mod)
           if _within(target, "camelup") and not _on_board(target)]
    assert not bad, "\n" + "\n".join(bad)


def _names_an_edition(node):
    """True for the literal ``"classic"``/``"second"``, a tuple or list holding one, or
    the constants ``CLASSIC``/``SECOND``."""
    if isinstance(node, ast.Constant):
        return node.value in ("classic", "second")
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_an_edition(e) for e in node.elts)
    if isinstance(node, ast.Name):
        return node.id in ("CLASSIC", "SECOND")
    if isinstance(node, ast.Attribute):
        return node.attr in ("CLASSIC", "SECOND")
    return False


def edition_name_tests(source):
    """``[(line, text)]`` of every comparison with an edition's name or constant, and of
    every dict keyed by both editions' names, in ``source`` (Python text)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            if any(_names_an_edition(x) for x in [node.left] + node.comparators):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"classic", "second"} <= keys:
                found.append((node.lineno, "a dict keyed by edition"))
    return found


def test_the_edition_name_check_finds_a_branch():
    assert [t for _l, t in edition_name_tests("if view['edition'] == 'second':\n    x = 1\n")] \
        == ["view['edition'] == 'second'"]
    assert len(edition_name_tests("x = 1 if ed is SECOND else 2\ny = {'classic': 1, 'second': 2}")) == 2
    assert edition_name_tests("ed = get_edition('second')\nn = ed.dice_left_inside\n") == []


def test_no_edition_is_told_apart_by_its_name_outside_the_editions():
    """An edition's facts are fields of ``camelup.editions.Edition`` (dice left inside,
    tile words, letters, help rows, ...): no other module branches on its name."""
    bad = []
    for mod in sorted(MODULES):
        if mod == "camelup.editions" or mod in EDITION_NAMES_ALLOWED:
            continue
        with open(MODULES[mod]) as f:
            for line, text in edition_name_tests(f.read()):
                bad.append("%s:%d %s" % (MODULES[mod], line, text))
    assert not bad, "\n" + "\n".join(bad)
    for mod, reason in EDITION_NAMES_ALLOWED.items():
        assert mod in MODULES and reason, mod
        with open(MODULES[mod]) as f:
            assert edition_name_tests(f.read()), "%s no longer needs its exception" % mod


#: The link's sequencer is sans-IO (issue 27): it gets messages and the time, and
#: hands back events and lines; no port, no thread, no clock of its own.
SANS_IO = "camelhost.device.sequencer"
IO_MODULES = ("serial", "threading", "time", "queue", "select", "socket", "asyncio", "_thread")


def io_imports(start, imports_of, ours):
    """``(["module:line imports target", ...], modules read)``: every I/O import
    (``IO_MODULES``) of ``start`` and of every module of ours (in ``ours``) it imports,
    at any depth; ``imports_of(mod)`` gives ``_imports``' triples."""
    seen, todo, bad = set(), [start], []
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        for line, target, _names in imports_of(mod):
            if target.split(".")[0] in IO_MODULES:
                bad.append("%s:%d imports %s" % (mod, line, target))
            elif target in ours:
                todo.append(target)
    return bad, seen


def test_the_sans_io_check_finds_an_io_import_at_any_depth():
    graph = {"seq": ((1, "events", ()), (2, "logging", ())), "events": ((5, "time", ()),)}
    assert io_imports("seq", lambda m: graph.get(m, ()), graph) == \
        (["events:5 imports time"], {"seq", "events"})
    clean = {"seq": ((1, "events", ()),), "events": ((5, "camelup.board.protocol", ()),)}
    assert io_imports("seq", lambda m: clean.get(m, ()), clean)[0] == []


def test_the_link_sequencer_imports_no_serial_threading_or_time_module():
    bad, seen = io_imports(SANS_IO, _imports, MODULES)
    assert SANS_IO in MODULES and "camelup.board.protocol" in seen
    assert not bad, "\n" + "\n".join(bad)


#: Modules of the web package that may build a ``Session``, each with its reason. The
#: live board is a display of the table's seam (``camelhost.table.display``): it gets
#: the view the table built, never a session of its own.
SESSION_BUILDERS = {
    "camelhost.web.replay": "pyramid replay FILE --web steps through a finished journal: "
                            "it rebuilds that game, step by step, and nothing live reads it",
}


def test_no_web_module_builds_a_session_for_the_live_board():
    assert set(SESSION_BUILDERS) <= set(MODULES)  # the allow-list names real modules
    bad = []
    for mod in sorted(MODULES):
        if not _within(mod, "camelhost.web") or mod in SESSION_BUILDERS:
            continue
        for line, target, names in _imports(mod):
            if _within(target, "camelhost.table.session") or "Session" in names \
                    or _within(target, "camelhost.web.replay") and "shadow_session" in names:
                bad.append("%s:%d imports %s from %s" % (MODULES[mod], line,
                                                         ", ".join(names) or "it", target))
        for node in ast.walk(_tree(mod)):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else \
                    func.attr if isinstance(func, ast.Attribute) else ""
                if name in ("Session", "shadow_session", "from_events"):
                    bad.append("%s:%d calls %s" % (MODULES[mod], node.lineno, name))
    assert not bad, "\n" + "\n".join(bad)


def _top_level_imports(mod):
    """The modules ``mod`` imports when it is loaded (not inside a function)."""
    found = set()
    for node in _tree(mod).body:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_a_commands_options_load_no_web_server():
    """``--web``'s option and address come from ``camelhost.web`` and ``web.address``,
    which load neither aiohttp nor the server: a ``pyramid play`` without ``--web``
    starts without them (the server is imported where a page is served)."""
    for mod in ("camelhost.web", "camelhost.web.address"):
        loaded = _top_level_imports(mod)
        assert not {m for m in loaded if m == "aiohttp" or m.startswith(("aiohttp.", "camelhost.web.server"))}, \
            (mod, sorted(loaded))
