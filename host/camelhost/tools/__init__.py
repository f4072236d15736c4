"""camelhost.tools: maker tools beside the game: ``calibrate`` (fit and store the
colour profile) and ``monitor`` (live sensor readings). Import ``camelup`` and
``camelhost.device``; never ``table``, ``ui`` or ``commands``.
"""
