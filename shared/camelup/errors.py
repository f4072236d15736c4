"""The two error kinds of the rules engine (both ``ValueError`` subclasses).

``IllegalAction``: the text was understood but the rules forbid the action in this
position; the message says what and why. ``NotationError``: text (an action, a
position line, a transcript or a scenario file) could not be read; the message
quotes the offending text. Neither ever leaves a game half-changed.
"""


class NotationError(ValueError):
    """Text that cannot be read as an action, position, transcript or scenario.

    The message names the offending text (and, for files, the line number).
    """


#: Alias: some callers prefer the python-chess style name.
ParseError = NotationError


class IllegalAction(ValueError):
    """An action the rules forbid in the current position (the game is unchanged).

    ``action``: the offending action (or ``None``); the message gives the reason and
    cites the RULES section.
    """

    def __init__(self, message, action=None):
        super().__init__(message)
        self.action = action
