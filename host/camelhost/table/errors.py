"""The table's one error type, and how input is quoted back in an error message."""

from camelup.errors import Message
from camelup.notation import ECHO_MAX, quoted

from camelhost.errors import TableError  # the one definition: camelhost.errors
from camelhost.i18n import _

__all__ = ["TableError", "one_line", "shown"]


def one_line(exc):
    """The message of ``exc`` (or a string) on one line: runs of whitespace become one space."""
    return " ".join(str(exc).split())


def shown(text, limit=ECHO_MAX):
    """``text`` quoted for an error message (``repr``, so control characters are visible),
    cut to about ``limit`` characters with ``...`` and its full length when longer, that
    length said in the table's language (``(296 Zeichen)``)."""
    text = quoted(str(text).strip(), limit)
    if isinstance(text, Message):  # cut: its template through the catalogue
        return _(text.template) % text.values()
    return text
