"""camelhost.ui: the displays. ``plain`` (one line per announcement, for logs and
screen readers) and ``tui`` (the Textual full screen). They read the table's view
model; they never change the game themselves.
"""
