"""The full screen's pop-ups: the private finish-card picker and the help.

``FinishCardPicker``: a racing colour by its number 1..5 or by the first letters of
its word in the table's language that name it alone (German ``gr`` grün, ``ge``
gelb: never a key that means one colour in one language and another in the next);
the choice is never drawn (no highlight, no echo, the picker closes on the pick), so
the table sees that a card was played on which pile, never its colour (RULES 1.8, 5).
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
from camelhost.table.manual import colour_hits
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
    """``{key: colour}`` for the picker's keys shown: each racing colour of ``edition``
    (an ``Edition``, in its order) as the fewest first letters of its word in the
    table's language that name it alone among the racing colours, lower case
    (``camelhost.table.manual.colour_hits``, the typed colours' one reading: English
    ``b g y r p``, German ``b gr ge r l``, since ``g`` starts both grün and gelb), and
    its position ``"1"``..``"5"``."""
    keys = {}
    for i, colour in enumerate(edition.racing, 1):
        word = colour_word(colour).lower()
        size = 1
        while size < len(word) and colour_hits(word[:size], edition.racing) != [colour]:
            size += 1
        keys[word[:size]] = colour
        keys[str(i)] = colour
    return keys


def picked_colour(typed, edition):
    """The racing colour of ``edition`` the letters ``typed`` (lower case) name alone,
    as the start of its English name or of its word in the table's language
    (``colour_hits``: German ``ge`` gelb, ``gr`` grün or green, ``p`` purple); ``None``
    while they could still be two colours (German ``g``: grün or gelb) or name none."""
    hits = colour_hits(typed, edition.racing)
    return hits[0] if len(hits) == 1 else None


def spelled_rests(typed, colour):
    """The rest of each way of spelling ``colour`` that starts with ``typed``: its
    English name and its words in the table's language (``local_colours``: ``grün``
    and ``gruen``), for the keys of a colour spelled out after the pick."""
    from camelhost.table.manual import local_colours

    words = [colour] + [w for w, c in local_colours().items() if c == colour]
    return [w[len(typed):] for w in words if w.startswith(typed) and len(w) > len(typed)]


def picker_title(name, pile):
    """The finish-card picker's first line: whose card, for which pile (``"winner"`` /
    ``"loser"``, named in the table's language: ``Gesamtsieger``)."""
    return _("%(player)s: finish card on the overall-%(pile)s pile") % {
        "player": name, "pile": pile_word(pile)}


def release_on_the_table(screen):
    """Dismiss ``screen`` (with ``None``), then run the app's ``release`` action (F5:
    a push of the virtual pyramid, or the line saying why not) on the table's screen,
    once back: F5 pressed over a box is the table's F5, not nothing."""
    app = screen.app
    screen.dismiss(None)
    app.call_later(app.run_action, "release")  # on the table's screen, once back


class FinishCardPicker(InLanguage, ModalScreen):
    """Asks ``name`` for a finish card's colour for the overall-``pile`` pile
    (``"winner"``/``"loser"``) of ``edition``; dismisses with the colour, or
    ``None`` on Esc. Every colour is listed whether or not it is still in hand
    (listing only those left would show what was played).

    ``release``: a virtual pyramid is attached. F5 (its slider) then closes the picker
    as Esc does (``None``: no card played) and is the table's F5 (the app's
    ``release`` action): a player who pushes the slider instead of picking plays no
    card, as with a die from a real pyramid (tester46c finding 1)."""

    @classmethod
    def key_bindings(cls):
        return [Binding("escape", "cancel", _("Cancel")),
                Binding("f5", "release", _("Release (virtual)"), show=False)]

    def __init__(self, name, pile, edition, release=False):
        ModalScreen.__init__(self)
        self.release = release
        self.player = name
        self.pile = pile
        self.edition = edition
        self.keys = picker_keys(edition)
        #: the letters typed so far that could still be two colours (German ``g``)
        self.typed = ""
        #: set by the first key that picks a card: the keys typed after it (a player
        #: spelling the whole colour) are swallowed, never a second dismiss
        self.picked = False
        #: ``on_pick(rests)`` at a pick by letters (``spelled_rests``: the keys that
        #: would finish spelling the colour), and ``swallow_key(event)`` for the keys
        #: after it: the table's command line swallows the rest of a spelled colour
        self.on_pick = None
        self.swallow_key = None

    def compose(self) -> ComposeResult:
        text = Text(picker_title(self.player, self.pile) + "\n", "bold")
        text.append(_("Type its letters or number. Nothing you press is shown.\n\n"))
        letters = {c: k for k, c in self.keys.items() if not k.isdigit()}
        width = max(len(k) for k in letters.values())
        for i, colour in enumerate(self.edition.racing, 1):
            text.append(" %-*s " % (width, letters[colour]), "bold reverse")
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
        if key.isdigit() and key in self.keys:
            colour, typed = self.keys[key], ""
        elif len(key) == 1 and key.isalpha():
            # a letter goes on the letters before it while they could still be two
            # colours; a letter that fits none of them starts again from itself
            typed = self.typed + key
            if not colour_hits(typed, self.edition.racing):
                typed = key if colour_hits(key, self.edition.racing) else ""
            colour = picked_colour(typed, self.edition) if typed else None
            self.typed = "" if colour else typed
        else:
            return
        event.stop()
        event.prevent_default()
        if colour is None:
            return  # nothing drawn: the picker stays as it was
        self.picked = True
        if self.on_pick is not None and typed:
            self.on_pick(spelled_rests(typed, colour))
        self.dismiss(colour)

    def action_cancel(self):
        if not self.picked:
            self.picked = True
            self.dismiss(None)

    def action_release(self):
        if self.release and not self.picked:
            self.picked = True
            release_on_the_table(self)


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
    ``release``: F5 is listed (a virtual pyramid is attached). F5 closes it and is then
    the table's F5 (the app's ``release`` action: a push, or the line saying why not):
    a player who opened the help to look up a key gets the push pressed, not nothing."""

    @classmethod
    def key_bindings(cls):
        return [Binding("escape,f1,q", "close", _("Close")),
                Binding("f5", "release", _("Release (virtual)"), show=False)]

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

    def action_release(self):
        release_on_the_table(self)
