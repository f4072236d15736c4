"""The table's one error type, and how input is quoted back in an error message."""

from camelup.notation import ECHO_MAX, quoted


class TableError(ValueError):
    """Input the table cannot take now; the one-line message says why. Nothing changed."""


def one_line(exc):
    """The message of ``exc`` (or a string) on one line: runs of whitespace become one space."""
    return " ".join(str(exc).split())


def shown(text, limit=ECHO_MAX):
    """``text`` quoted for an error message (``repr``, so control characters are visible),
    cut to about ``limit`` characters with ``...`` and its full length when longer."""
    return quoted(str(text).strip(), limit)
