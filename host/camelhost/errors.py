"""The host's two error types: ``CliError``, the one the CLI turns into ``pyramid:
message`` and a non-zero exit, and ``TableError``, input the table cannot take now
(defined here, below both the device package and the table, because the one die type,
``camelhost.device.events.Die``, checks its own shape; ``camelhost.table.errors``
hands it on to the table)."""

from camelhost.i18n import _


class CliError(Exception):
    """A user-facing failure: bad arguments, a missing port, a file that can't be read.

    ``exit_code``: process exit status (default 1; 2 for usage errors).
    """

    def __init__(self, message, exit_code=1):
        Exception.__init__(self, message)
        self.exit_code = exit_code


class TableError(ValueError):
    """Input the table cannot take now; the one-line message says why. Nothing changed."""


def port_message(port, exc, hint, meant=None):
    """One line saying why the pyramid's serial port ``port`` did not open.

    ``exc``: the ``OSError`` / ``serial.SerialException`` raised by pyserial; ``hint``:
    how this command finds or replaces the pyramid (its options), shown with a
    missing port; ``meant``: the option's word a missing port is a slip of
    (``--pyramid virtual`` for ``virtua``), asked first. Returns the text for a
    ``CliError``.
    """
    text = " ".join(str(exc).split())
    missing = "No such file" in text or "[Errno 2]" in text
    if missing and meant:
        return slip_message(port, meant)
    if missing:
        return (_("cannot open %(port)s: no such port. Is the pyramid plugged in? (Linux: "
                  "/dev/ttyACM0, macOS: /dev/cu.usbmodem..., Windows: COM3; %(hint)s)")
                % {"port": port, "hint": hint})
    if "Permission denied" in text or "[Errno 13]" in text:
        return (_("cannot open %s: permission denied (on Linux add yourself to the 'dialout' "
                "group and log in again)") % port)
    return _("cannot open %(port)s: %(why)s") % {"port": port, "why": text}


def slip_message(port, meant):
    """One line for a port ``port`` that is not there and is a slip of an option's word:
    ``meant`` (``--port auto``, ``PORT=auto``) is asked about (``sources.meant`` finds
    it). What the opening of every command says, and ``pyramid flash`` before it builds."""
    return _("cannot open %(port)s: no such port; did you mean %(near)s?") % {
        "port": port, "near": meant}
