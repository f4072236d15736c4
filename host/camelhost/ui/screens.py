"""The full screen's pop-ups: the private finish-card picker and the help.

``FinishCardPicker``: one key per racing colour (its first letter, or 1..5); the
choice is never drawn (no highlight, no echo, the picker closes on the key), so the
table sees that a card was played on which pile, never its colour (RULES 1.8, 5).
``HelpScreen``: the commands and keys in a scrollable box sized to the screen.
Their styles are the app's (``table.tcss`` beside this module).
"""

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from camelhost.i18n import N_, _, colour_word, language
from camelhost.table.narration import pile_word
from camelhost.ui import palette

#: The classes ``InLanguage`` made, by (class, language code).
_IN_LANGUAGE = {}


class InLanguage:
    """Mixin for a Textual app or screen whose keys are described in the table's
    language (``--lang``): its ``key_bindings()`` (a classmethod returning the
    ``Binding`` list, the words through ``_``) stands for ``BINDINGS``. Textual reads
    ``BINDINGS`` once, when a class is made: so a new instance is made of a subclass
    with ``BINDINGS = key_bindings()`` in the language in force, made once per
    language (``BINDINGS_LANGUAGE`` names it). Put it first among the bases."""

    #: The language the class's ``BINDINGS`` are in (``None``: not chosen yet).
    BINDINGS_LANGUAGE = None

    @classmethod
    def key_bindings(cls):
        return []

    def __new__(cls, *args, **kwargs):
        if cls.BINDINGS_LANGUAGE is None:
            key = (cls, language())
            made = _IN_LANGUAGE.get(key)
            if made is None:
                made = _IN_LANGUAGE[key] = type(cls.__name__, (cls,), {
                    "BINDINGS": cls.key_bindings(), "BINDINGS_LANGUAGE": key[1],
                    "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                    "__doc__": cls.__doc__})
            cls = made
        return super().__new__(cls)


def picker_keys(edition):
    """``{key: colour}`` for the picker: each racing colour's first letter (lower
    case) and its position 1..5 (``camelup.editions``: the letters differ within an
    edition)."""
    keys = {}
    for i, colour in enumerate(edition.racing, 1):
        keys[palette.piece(colour).letter.lower()] = colour
        keys[str(i)] = colour
    return keys


def picker_title(name, pile):
    """The finish-card picker's first line: whose card, for which pile (``"winner"`` /
    ``"loser"``, named in the table's language: ``Gesamtsieger``)."""
    return _("%s: finish card on the overall-%s pile") % (name, pile_word(pile))


class FinishCardPicker(InLanguage, ModalScreen):
    """Asks ``name`` for a finish card's colour for the overall-``pile`` pile
    (``"winner"``/``"loser"``) of ``edition``; dismisses with the colour, or
    ``None`` on Esc. Every colour is listed whether or not it is still in hand
    (listing only those left would show what was played)."""

    @classmethod
    def key_bindings(cls):
        return [Binding("escape", "cancel", _("Cancel"))]

    def __init__(self, name, pile, edition):
        ModalScreen.__init__(self)
        self.player = name
        self.pile = pile
        self.edition = edition
        self.keys = picker_keys(edition)
        #: set by the first key that picks a card: the keys typed after it (a player
        #: spelling the whole colour) are swallowed, never a second dismiss
        self.picked = False
        #: ``on_pick(colour)`` at the pick, and ``swallow_key(event)`` for the keys
        #: after it: the table's command line swallows the rest of a spelled colour
        self.on_pick = None
        self.swallow_key = None

    def compose(self) -> ComposeResult:
        text = Text(picker_title(self.player, self.pile) + "\n", "bold")
        text.append(_("Press the key of its colour. Nothing you press is shown.\n\n"))
        for i, colour in enumerate(self.edition.racing, 1):
            p = palette.piece(colour)
            text.append(" %s " % p.letter.lower(), "bold reverse")
            text.append(_(" or %d  ") % i)
            text.append(" %-7s" % colour_word(colour), palette.style(colour))
            text.append("\n")
        text.append(_("\nEsc: cancel (no card played)"), "dim")
        with Vertical(id="picker"):
            yield Static(text, id="picker-text")

    def on_key(self, event):
        key = (event.character or "").lower()
        if self.picked:  # the rest of a spelled colour, before this screen is gone
            if self.swallow_key is not None:
                self.swallow_key(event)
            event.stop()
            event.prevent_default()
            return
        if key in self.keys:
            event.stop()
            event.prevent_default()
            self.picked = True
            if self.on_pick is not None and not key.isdigit():
                self.on_pick(self.keys[key])
            self.dismiss(self.keys[key])

    def action_cancel(self):
        if not self.picked:
            self.picked = True
            self.dismiss(None)


#: The help box's command column (characters); a longer cell holding two commands
#: (``win orange  lose orange``) puts each on a row of its own.
HELP_COMMAND_WIDTH = 22


def help_table(text):
    """``text`` (heading lines, then ``  command   what it does`` lines) as Rich
    renderables: each run of command lines a two-column grid whose second column
    wraps under itself, not under the commands, at the width it is drawn in. A line
    with nothing in the command column goes on the description above it (the text's
    own line breaks are for an 80-column terminal, not for the box); a command too long
    for its column stands alone on its line, its description on the next."""
    from rich.console import Group
    from rich.table import Table

    parts = []
    rows = None  # [command, description] of the current run of command lines

    def grid(rows):
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", max_width=HELP_COMMAND_WIDTH)
        table.add_column()
        for command, what in rows:
            if len(command) > HELP_COMMAND_WIDTH:  # two commands: one a row, never cut
                command = "\n".join(command.split("  "))
            table.add_row(command, what)
        return table

    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("  "):
            if rows:
                parts.append(grid(rows))
            rows = None
            parts.append(Text(line, "bold") if line else Text(""))
            continue
        # the command ends at the first double space from column 19 on (a command
        # such as "tile 7 +  tile 7 -" holds one itself), else at column 20
        cut = line.find("  ", 19)
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if cut < 0 and after.startswith(" " * 21) and after.strip():
            cut = len(line)  # a command too long for its column: its description follows
        elif cut < 0:
            cut = 20 if len(line) > 20 and line[20] == " " else len(line)
        command, what = line[:cut].strip(), line[cut:].strip()
        if rows is None:
            rows = []
        if not command and rows:  # (a long command's description starts on its own line)
            rows[-1][1] = (rows[-1][1] + " " + what).strip()
        else:
            rows.append([command, what])
    if rows:
        parts.append(grid(rows))
    return Group(*parts)


class HelpScreen(InLanguage, ModalScreen):
    """The commands (``text``) and the screen's keys, scrollable; Esc, F1 or q closes.
    ``release``: F5 is listed (a virtual pyramid is attached)."""

    @classmethod
    def key_bindings(cls):
        return [Binding("escape,f1,q", "close", _("Close"))]

    KEYS = N_("""Keys:
  F1                 this help (Esc closes it)
  PgUp PgDn          scroll the history (the mouse wheel too)
  End                back to the newest history line (once scrolled back)
  F3                 the last leg's scoring again (Esc: back to the odds)
  Down Up            the race-over (or leg-scoring) panel a page on / back, when a
                     line under it says there is more
  F5                 release the virtual pyramid
  F6                 dark / light screen
  win  lose          (alone) a private finish card: press its colour's key
  Ctrl-Q Ctrl-C Ctrl-D   quit (the journal keeps the game; resume it later)""")

    def __init__(self, text, release=True):
        ModalScreen.__init__(self)
        self.text = text
        keys = _(self.KEYS)  # the F5 line starts with "  F5" in every language
        self.keys = keys if release else "\n".join(
            line for line in keys.splitlines() if not line.startswith("  F5"))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(help_table(self.text + "\n\n" + self.keys), id="help-text")

    def action_close(self):
        self.dismiss(None)
