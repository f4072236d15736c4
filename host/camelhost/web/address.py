"""The ``--web`` address: its default and how a typed one is read. Apart from the server
(``camelhost.web.server``, which loads aiohttp) so that building a command's options
and reading its address load no web server (a ``pyramid play`` without ``--web``
starts without it)."""

from camelhost.i18n import _

#: Default address of ``--web`` without a value (loopback only).
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def parse_address(text):
    """``"HOST:PORT"``, ``"HOST"``, ``":PORT"`` or ``"PORT"`` -> ``(host, port)``.

    Missing parts take ``DEFAULT_HOST`` / ``DEFAULT_PORT``; ``[::1]:8080`` for IPv6.
    Raises ``ValueError`` (one line) for a port outside 0..65535 or not a number.
    """
    text = (text or "").strip()
    host, port = DEFAULT_HOST, DEFAULT_PORT
    if not text:
        return host, port
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError(_("--web %r: an IPv6 address is written [ADDR]:PORT") % text)
        host = text[1:end]
        rest = text[end + 1:]
        if rest.startswith(":"):
            port = rest[1:]
    elif text.isdigit():
        port = text
    elif text.count(":") == 1:
        host, port = text.split(":")
        host = host or DEFAULT_HOST
        port = port or DEFAULT_PORT
    else:
        host = text
    try:
        port = int(port)
    except ValueError:
        raise ValueError(_("--web %r: the port must be a number") % text) from None
    if not 0 <= port <= 65535:
        raise ValueError(_("--web %r: the port must be 0..65535") % text)
    return host, port
