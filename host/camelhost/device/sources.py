"""The names of the dice sources on the command line (``play --pyramid``, ``doctor
--port``, ``flash --port``): one place for them, below every device module that names
them (``open`` resolves them, ``flash`` refuses the two that are no board)."""

#: the player types every die (no pyramid)
MANUAL = "manual"
#: the simulated pyramid: the checkout's firmware on MicroPython behind a pty
VIRTUAL = "virtual"
#: the first RP2040 board on USB
AUTO = "auto"

#: The first half of the RP2040 unique id every emulated Pico reports (``pyramid
#: emulate``): the flash chip hardware/emu/board.cjs models answers its unique-id command
#: with these four bytes, then four of the ``--flash`` image's own, drawn at its first use
#: (docs/emulator.md), so two images are two boards. A board whose ``HELLO`` names an id
#: starting so is the emulator's, whose terminal takes the emulator's keys (``x`` the
#: reset button, Enter a push); the virtual pyramid's (``hardware/sim``:
#: ``E66141040327582E``) and a real board's are others (a real flash chip's id starting
#: so is a chance of one in 2**32, and then only costs a hint of keys it has not).
EMULATED_UID_MARK = "55565758"
#: An emulated Pico's id as images made before the per-image ids carry it.
EMULATED_UID = EMULATED_UID_MARK + "595A5B5C"


def pseudo_terminal(spec):
    """True when the dice source ``spec`` (``--pyramid``'s word, or a journal's) is a
    pseudo-terminal's path: ``/dev/pts/N`` (there or gone), or a path that names one
    (``PortIdentity``: a symbolic link to it). An emulated pyramid's port; once that
    emulator ended, its number goes to the next program that asks for a terminal, so a
    resume opens it only when ``--pyramid`` names it again (docs/table.md, "Resuming")."""
    import os

    if spec in (AUTO, MANUAL, VIRTUAL) or "://" in spec:
        return False
    if os.path.realpath(spec).startswith("/dev/pts/"):
        return True
    from camelhost.device.transport import PortIdentity
    try:
        identity = PortIdentity.of(spec)
    except OSError:
        return False
    return identity is not None and identity.kind == "pty"
