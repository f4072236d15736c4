"""Where the firmware, the simulated hardware and the shared package are.

The one place locations are resolved. Each tree is found through the installed
packages, never through the current directory:

* an installed wheel carries the firmware as ``camelhost/firmware`` (``main.py``
  and the ``pyramid`` package), the simulated hardware as ``camelhost/sim`` and the
  rules reference as ``camelhost/docs/rules.md`` (``pyproject.toml`` maps
  ``firmware/``, ``hardware/sim/`` and ``docs/`` there);
* an editable install (``pip install -e .``, what ``make setup`` does) has no
  such folders inside ``host/camelhost``: the checkout's ``firmware/``,
  ``hardware/sim/`` and ``docs/`` beside it are the same files.

``camelup`` is an ordinary package; the firmware's camelup modules are its files.
"""

import os

import camelup

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _inside_or_checkout(bundled, *checkout):
    here = os.path.join(_PACKAGE, bundled)
    if os.path.isdir(here):
        return here
    return os.path.join(REPO_ROOT, *checkout)


#: Root of the checkout (the folder holding ``Makefile`` and ``pyproject.toml``) in an
#: editable install; in an installed wheel the folder above the packages.
REPO_ROOT = os.path.abspath(os.path.join(_PACKAGE, "..", ".."))
#: True when running from a checkout (editable install), not from an installed wheel.
IN_CHECKOUT = os.path.exists(os.path.join(REPO_ROOT, "pyproject.toml")) and not os.path.isdir(
    os.path.join(_PACKAGE, "firmware")
)
#: The folder holding the ``camelup`` package (``shared/`` in the checkout), used by host
#: and firmware alike.
SHARED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(camelup.__file__)))
#: The firmware: ``main.py`` and the ``pyramid`` firmware package.
FIRMWARE_DIR = _inside_or_checkout("firmware", "firmware")
#: The simulated hardware: fake ``machine`` module, the optical and table models.
SIM_DIR = _inside_or_checkout("sim", "hardware", "sim")
#: The rules reference the product ships (``docs/rules.md``; in a wheel
#: ``camelhost/docs/rules.md``): the sections cited as ``RULES 1.5``, ``pyramid rules``.
RULES_DOC = os.path.join(_inside_or_checkout("docs", "docs"), "rules.md")
#: ``../shared`` beside the checkout: reference documents and third-party data (may be absent).
REFERENCE_DIR = os.path.abspath(os.path.join(REPO_ROOT, "..", "shared"))


_FIRMWARE_SETTINGS = []


def firmware_settings():
    """The firmware's ``pyramid.settings`` module (a plain module: ``DEFAULTS``,
    ``OLD_KEYS``, ``CONFIG_NAMES``), loaded once from ``FIRMWARE_DIR``."""
    if not _FIRMWARE_SETTINGS:
        import importlib.util

        spec = importlib.util.spec_from_file_location(
            "_pyramid_settings", os.path.join(FIRMWARE_DIR, "pyramid", "settings.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _FIRMWARE_SETTINGS.append(module)
    return _FIRMWARE_SETTINGS[0]


def build_dir(name):
    """A folder for build output ``name`` (e.g. ``firmware``): ``build/<name>`` in a
    checkout, else ``$XDG_CACHE_HOME/smart-pyramid/<name>`` (``~/.cache`` by default),
    since an installed package's folder may not be writable. Not created here."""
    if IN_CHECKOUT:
        return os.path.join(REPO_ROOT, "build", name)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "smart-pyramid", name)
