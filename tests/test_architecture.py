"""The layout's import rules (docs/architecture.md), checked on the source.

Every module of ``shared/camelup``, ``host/camelhost``, ``firmware/pyramid`` and
``hardware/sim`` is parsed (not imported); each ``import`` statement, at any depth,
is an edge. The rules: who may import whom (one table), no import cycle (a cycle
hidden inside a function counts), no ``from m import _private`` and no
``module._private`` of another module.
"""

import ast
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TREES = {"camelup": "shared/camelup", "camelhost": "host/camelhost",
         "pyramid": "firmware/pyramid"}

#: A module in the first group may not import any module in the second.
FORBIDDEN = (
    ("camelup", ("camelhost", "pyramid")),
    ("pyramid", ("camelhost",)),
    ("camelhost.device", ("camelhost.table", "camelhost.ui", "camelhost.web",
                          "camelhost.tools", "camelhost.commands", "camelhost.cli")),
    ("camelhost.tools", ("camelhost.table", "camelhost.ui", "camelhost.web",
                         "camelhost.commands", "camelhost.cli")),
    ("camelhost.table", ("camelhost.ui", "camelhost.web", "camelhost.commands",
                         "camelhost.cli")),
    ("camelhost.ui", ("camelhost.web", "camelhost.commands", "camelhost.cli")),
    ("camelhost.web", ("camelhost.ui.tui", "camelhost.commands", "camelhost.cli")),
)

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
    return out


MODULES = _modules()


def _is_package(mod):
    return MODULES.get(mod, "").endswith("__init__.py")


def _imports(mod):
    """``[(line, imported module, names taken from it)]`` of every import in ``mod``."""
    tree = ast.parse(open(MODULES[mod]).read())
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
    return found


def _within(mod, group):
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


#: Public names that look private: gettext's ``_`` (translate a message) is the
#: catalogue's public entry point, by the convention every gettext program follows.
PUBLIC_UNDERSCORE = {("camelhost.i18n", "_")}


def test_no_module_takes_another_modules_private_names():
    bad = []
    for mod in sorted(MODULES):
        tree = ast.parse(open(MODULES[mod]).read())
        aliases = {}
        for line, target, names in _imports(mod):
            for name in names:
                if (target, name) in PUBLIC_UNDERSCORE:
                    continue
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
