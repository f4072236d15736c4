"""The colour calibration profile on the device's filesystem (JSON).

Written atomically: the new profile goes to ``<path>.tmp``, is flushed and
closed, then renamed over ``<path>``. A power cut leaves either the old or the
new file whole; a stray ``.tmp`` is ignored by ``load``. (LittleFS on rp2
replaces the target on rename; on a filesystem that refuses to rename over an
existing file, the old one is removed first, and ``load`` then falls back to
the ``.tmp`` copy, which is complete by then.)

``read_json`` reads the board's JSON files, this one and ``settings.json``
(``pyramid.settings.load_settings``), past an editor's byte order mark; the firmware
forgets this module once it has read the profile at boot (``App.load_classifier``), so
the reader costs no heap after it.
"""

import json
import os

#: Where the firmware keeps its profile on the board's flash.
DEFAULT_PATH = "/profile.json"


def read_json(path):
    """The JSON value in the file at ``path`` (dict, list, ...), parsed from the stream (no
    whole-file string on the heap), a leading UTF-8 byte order mark skipped: an editor
    may write one (Windows Notepad), and MicroPython's ``json`` refuses it (``syntax
    error in JSON``). Raises ``OSError`` when the file cannot be opened, ``ValueError``
    when it is not JSON (or not UTF-8), ``MemoryError`` when it does not fit the heap."""
    with open(path) as f:
        if f.read(1) != "\ufeff":
            f.seek(0)
        return json.load(f)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def save(profile, path=DEFAULT_PATH):
    """Store ``profile`` (a JSON-able dict) at ``path``, atomically.

    Checks it first with ``camelup.board.classifier.check_profile`` (``ValueError``).
    Raises ``OSError`` when the filesystem is full or read-only.
    """
    from camelup.board.classifier import check_profile

    check_profile(profile)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        # json.dump writes piece by piece: no one big string on a fragmented heap
        json.dump(profile, f)
        if hasattr(f, "flush"):
            f.flush()
    try:
        os.rename(tmp, path)
    except OSError:
        # a filesystem that will not rename over an existing file
        os.remove(path)
        os.rename(tmp, path)


def load(path=DEFAULT_PATH):
    """The stored profile (dict), or ``None`` when there is none or it is unusable.

    A file that is not valid JSON, fails ``check_profile`` or does not fit the heap
    counts as none (a leading UTF-8 byte order mark is skipped, ``read_json``), so the firmware falls back to its default profile instead of
    crashing.
    """
    from camelup.board.classifier import check_profile

    for candidate in (path, path + ".tmp"):
        if not _exists(candidate):
            continue
        try:
            # parsed from the stream: no whole-file string (up to 8 KB) on the heap;
            # an editor's byte order mark skipped
            profile = read_json(candidate)
            check_profile(profile)
            return profile
        except (ValueError, OSError, MemoryError):
            # MemoryError: a boot must not fail on it (the default profile still reads dice)
            continue
    return None


def remove(path=DEFAULT_PATH):
    """Delete the stored profile (and any ``.tmp``); no error when there is none."""
    for candidate in (path, path + ".tmp"):
        if _exists(candidate):
            os.remove(candidate)
