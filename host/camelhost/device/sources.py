"""The names of the dice sources on the command line (``play --pyramid``, ``doctor
--port``, ``flash --port``): one place for them, below every device module that names
them (``open`` resolves them, ``flash`` refuses the two that are no board)."""

#: the player types every die (no pyramid)
MANUAL = "manual"
#: the simulated pyramid: the checkout's firmware on MicroPython behind a pty
VIRTUAL = "virtual"
#: the first RP2040 board on USB
AUTO = "auto"
