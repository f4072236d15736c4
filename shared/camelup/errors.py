"""The two error kinds of the rules engine (both ``ValueError`` subclasses), and the
``Message`` their text is made of.

``IllegalAction``: the text was understood but the rules forbid the action in this
position; the message says what and why. ``NotationError``: text (an action, a
position line, a transcript or a scenario file) could not be read; the message
quotes the offending text. Neither ever leaves a game half-changed.

A message is English. Where it is a ``Message`` (an English template and its
arguments, kept apart), ``str()`` gives the English text and a host with a catalogue
can give the same message in another language: it translates the template (and each
argument that is itself a ``Message``) and fills in the arguments. The templates are
extracted for the catalogue by Babel (``Message`` is a keyword in babel.cfg). A template
with two or more placeholders names them (``%(space)d``), so a translation may put them
in its own order.
"""


class Message:
    """An English message kept as its ``template`` (a ``%``-format string) and its
    arguments: ``fields`` (a dict, keyword arguments, for a template whose placeholders
    are named) or ``args`` (a tuple, for one with a single unnamed placeholder); an
    argument may itself be a ``Message``, formatted with ``%s``.

    ``str(Message("space %(space)d holds the %(camel)s camel", space=4, camel="red"))``
    is ``"space 4 holds the red camel"``; ``str(Message("seat %s", "p2"))`` is ``"seat
    p2"``. Raises ``TypeError`` when given both (a template is one kind or the other).
    """

    def __init__(self, template, *args, **fields):
        if args and fields:
            raise TypeError("a Message takes positional or named arguments, not both")
        self.template = template
        self.args = args
        self.fields = fields

    def values(self):
        """What the template is filled with: ``fields`` (a dict) when named, else
        ``args`` (a tuple, maybe empty)."""
        return self.fields if self.fields else self.args

    def __str__(self):
        if self.fields:
            return self.template % self.fields
        return self.template % self.args if self.args else self.template

    def __repr__(self):
        return "Message(%r)" % (str(self),)


class _RulesError(ValueError):
    def __init__(self, message, *rest):
        # ``message``: the text (str) or a ``Message``; ``str(exc)`` is its English text
        super().__init__(str(message), *rest)
        self.message = message


class NotationError(_RulesError):
    """Text that cannot be read as an action, position, transcript or scenario.

    The message names the offending text (and, for files, the line number);
    ``.message`` is the ``Message`` (or the text) it was raised with.
    """


#: Alias: some callers prefer the python-chess style name.
ParseError = NotationError


class IllegalAction(_RulesError):
    """An action the rules forbid in the current position (the game is unchanged).

    ``action``: the offending action (or ``None``); the message gives the reason and
    cites the RULES section; ``.message`` is the ``Message`` (or the text) it was
    raised with.
    """

    def __init__(self, message, action=None):
        super().__init__(message)
        self.action = action
