"""The table's one error type, and how input is quoted back in an error message."""

from camelup.notation import ECHO_MAX, quoted

from camelhost.errors import TableError  # the one definition: camelhost.errors

__all__ = ["TableError", "one_line", "shown"]


def one_line(exc):
    """The message of ``exc`` (or a string) on one line: runs of whitespace become one space."""
    return " ".join(str(exc).split())


def shown(text, limit=ECHO_MAX):
    """``text`` quoted for an error message (``repr``, so control characters are visible),
    cut to about ``limit`` characters with ``...`` and its full length when longer."""
    return quoted(str(text).strip(), limit)
