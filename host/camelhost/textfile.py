"""Files a player may have edited by hand: what an editor may add that is no part of
them.

The one place a file's UTF-8 byte-order mark is dropped: an editor that saves "UTF-8
with BOM" (Windows Notepad) writes ``EF BB BF`` before the first line. The host's
readers of such files (a game journal, ``camelhost.table.journal``; a scenario file,
``pyramid check``) read the file as if the mark were not there; the file itself is never
rewritten for it.
"""

import codecs

#: The UTF-8 byte-order mark, as bytes (``EF BB BF``).
BOM = codecs.BOM_UTF8


def without_bom(data):
    """``data`` (``bytes``, or ``str`` already decoded as UTF-8) without one UTF-8
    byte-order mark at its start (``BOM``; as text ``U+FEFF``), else ``data`` itself,
    of the same type. Only the start counts: a mark anywhere else is left as it is.
    Raises nothing."""
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    return data[len(BOM):] if data.startswith(BOM) else data
