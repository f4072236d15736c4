"""Where the checkout's non-Python-package trees live.

The project is installed editable (``pip install -e .``), so the firmware and the
simulated hardware are found next to the installed ``camelhost`` package.
"""

import os

#: Root of the checkout (the folder holding ``Makefile`` and ``pyproject.toml``).
REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
#: ``shared/``: holds the ``camelup`` package used by host and firmware.
SHARED_DIR = os.path.join(REPO_ROOT, "shared")
#: ``firmware/``: ``main.py`` and the ``pyramid`` firmware package.
FIRMWARE_DIR = os.path.join(REPO_ROOT, "firmware")
#: ``hardware/sim/``: fake ``machine`` module and the optical and table models.
SIM_DIR = os.path.join(REPO_ROOT, "hardware", "sim")
#: ``../shared`` beside the checkout: reference documents and third-party data (may be absent).
REFERENCE_DIR = os.path.abspath(os.path.join(REPO_ROOT, "..", "shared"))
