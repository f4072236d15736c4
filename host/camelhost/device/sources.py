"""The names of the dice sources on the command line (``play --pyramid``, ``doctor
--port``, ``flash --port``): one place for them, below every device module that names
them (``open`` resolves them, ``flash`` refuses the two that are no board)."""

#: the player types every die (no pyramid)
MANUAL = "manual"
#: the simulated pyramid: the checkout's firmware on MicroPython behind a pty
VIRTUAL = "virtual"
#: the first RP2040 board on USB
AUTO = "auto"

#: The RP2040 unique id every emulated Pico reports (``pyramid emulate``): the flash chip
#: hardware/emu/board.cjs models answers its unique-id command with these bytes
#: (docs/emulator.md). A board that names it in its ``HELLO`` is the emulator's, whose
#: terminal takes the emulator's keys (``x`` the reset button, Enter a push); the virtual
#: pyramid's (``hardware/sim``: ``E66141040327582E``) and a real board's are others.
EMULATED_UID = "55565758595A5B5C"
