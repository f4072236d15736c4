"""camelhost.device: everything that talks to a pyramid.

``open`` (``open_pyramid``: the one way to open manual, virtual, auto or a port),
``link`` (the serial client: protocol lines, dedupe, replay), ``virtual`` (the real
firmware on simulated hardware behind a pseudo-terminal), ``flash`` (mpy-cross and
mpremote onto a board) and ``micropython`` (finding the unix port). Imports
``camelup`` and ``camelhost.errors``/``camelhost.paths`` only; never ``table``, ``ui``
or ``commands``.
"""

