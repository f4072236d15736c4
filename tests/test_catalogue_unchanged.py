"""``make catalogue`` run when no message changed leaves the catalogue files byte for
byte as they were: the .po's ``POT-Creation-Date`` (and the .mo compiled from it) moves
only when the extracted messages do (s44 German, item 4: every run stamped the hour of
the run on the .po and the .mo, so every run dirtied the tree). Run on a small copy of
the project's layout (the project's Makefile and babel.cfg, one source file, a German
catalogue) with this checkout's Babel."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.dirname(os.path.dirname(sys.executable))
PO_HEADER = """msgid ""
msgstr ""
"Project-Id-Version: smart-pyramid VERSION\\n"
"POT-Creation-Date: 2026-01-01 00:00+0000\\n"
"PO-Revision-Date: 2026-01-01 00:00+0000\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"

"""
OLD_DATE = "POT-Creation-Date: 2026-01-01 00:00+0000"


def _catalogue(tree):
    """Run ``make catalogue`` in ``tree`` (its setup step skipped: this checkout's venv
    is set up); return the bytes of the template, the German .po and .mo."""
    subprocess.run(["make", "-o", "setup", "catalogue", "VENV=" + VENV], cwd=tree,
                   check=True, capture_output=True)
    locale = os.path.join(tree, "host", "camelhost", "locale")
    files = [os.path.join(locale, "pyramid.pot")] + [
        os.path.join(locale, "de", "LC_MESSAGES", "pyramid." + ext) for ext in ("po", "mo")]
    out = []
    for path in files:
        with open(path, "rb") as fh:
            out.append(fh.read())
    return out


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


@pytest.mark.process
@pytest.mark.slow
def test_make_catalogue_twice_changes_nothing_and_a_new_message_moves_the_date(tmp_path):
    tree = str(tmp_path)
    for name in ("Makefile", "babel.cfg"):
        shutil.copy(os.path.join(ROOT, name), tree)
    source = os.path.join(tree, "host", "camelhost", "words.py")
    _write(source, 'from camelhost.i18n import _\n\nWORD = _("camel")\n')
    po = os.path.join(tree, "host", "camelhost", "locale", "de", "LC_MESSAGES", "pyramid.po")
    _write(po, PO_HEADER + 'msgid "camel"\nmsgstr "Kamel"\n')
    _catalogue(tree)  # the template written, the .po brought up to it
    # as a catalogue made an hour ago: its date is not the one a run would stamp now
    with open(po, encoding="utf-8") as fh:
        text = re.sub(r"POT-Creation-Date: [^\\]*", OLD_DATE, fh.read())
    _write(po, text)
    first = _catalogue(tree)
    assert OLD_DATE in first[1].decode()
    assert _catalogue(tree) == first
    # a message added: the template and the .po's date move
    _write(source, 'from camelhost.i18n import _\n\nWORD = _("camel")\nMORE = _("stack")\n')
    pot, po_bytes, _mo = _catalogue(tree)
    assert b'msgid "stack"' in pot and b'msgid "stack"' in po_bytes
    assert OLD_DATE not in po_bytes.decode()
