"""The table's colours: one RGB value and one short text label per piece, and the
two screen backgrounds (dark and light) they are drawn on.

Every display (the Textual full screen, the web page) takes its colours from here,
so a camel looks the same everywhere. Colour *names* come from
``camelup.editions`` (``Edition.camels``, ``Edition.dice``); this module only says
how each one is drawn.

* ``PIECES``: name -> ``Piece`` for every camel and die colour of every edition
  (blue, green, yellow, red, purple, orange, white, black, grey) and for the two
  sides of the player tile (``"+"`` forward: oasis / cheering, ``"-"`` backward:
  mirage / booing). ``Piece.rgb`` is ``"#rrggbb"`` (sRGB), chosen close to the
  printed piece: the blue is a clear mid blue (not violet), the purple a red-violet,
  red and orange, yellow and orange well apart.
* ``Piece.label``: three lower-case letters (``blu``, ``pur``, ``<bla`` is drawn for
  a crazy camel by the track), ``Piece.letter``: one capital, unique within an
  edition, the English one (the full screen's leg tickets, ``G5``, and compact track
  take the table's language's: ``camelhost.ui.panels.colour_letter``): colour-blind
  players read these, never the colour alone.
* ``label(name, word)``: the label drawn in the table's language, given the colour's
  word there (``camelhost.i18n.colour_word``): ``Piece.label`` when the word is the
  English name, else its first three letters (German ``bla`` blau, ``grü`` grün,
  ``sch`` schwarz).
* ``Piece.ink``: ``"#000000"`` or ``"#ffffff"``, whichever reads better on the fill.
* ``BACKGROUNDS``: ``{"dark": "#rrggbb", "light": "#rrggbb"}``, the screen
  background of the two themes (a dark and a light sand, like the board).

``tests/test_palette.py`` checks, by CIEDE2000, that the pieces of each edition are
pairwise at least ``MIN_DELTA_E`` apart and at least ``MIN_DELTA_E_BACKGROUND``
from each background, and that each label reads on its fill (WCAG contrast at
least ``MIN_LABEL_CONTRAST``).
"""

from camelup.editions import EDITIONS, GREY

#: Perceptual distance (CIEDE2000) asked between any two pieces of one edition
#: (about 2 is "just noticeable"; 20 is "clearly another colour").
MIN_DELTA_E = 20.0
#: ... and between a piece and the screen background of either theme.
MIN_DELTA_E_BACKGROUND = 15.0
#: WCAG 2 contrast ratio asked between a label and its fill (4.5 = level AA text).
MIN_LABEL_CONTRAST = 4.5

#: Screen background of the dark and the light theme (dark sand, light sand).
BACKGROUNDS = {"dark": "#4a3c29", "light": "#e8d8ac"}
#: Text colour on each background.
FOREGROUNDS = {"dark": "#f4ecd8", "light": "#1f1a10"}


class Piece:
    """How one piece is drawn: ``name``, ``rgb`` (``"#rrggbb"`` fill), ``label`` (three
    letters), ``letter`` (one capital), ``ink`` (label colour on the fill)."""

    def __init__(self, name, rgb, label, letter, ink):
        self.name = name
        self.rgb = rgb
        self.label = label
        self.letter = letter
        self.ink = ink

    def __repr__(self):
        return "Piece(%r, %r)" % (self.name, self.rgb)


_BLACK_INK = "#000000"
_WHITE_INK = "#ffffff"

PIECES = {
    "blue": Piece("blue", "#1f6fe0", "blu", "B", _WHITE_INK),
    "green": Piece("green", "#2ea043", "gre", "G", _BLACK_INK),
    "yellow": Piece("yellow", "#f7d117", "yel", "Y", _BLACK_INK),
    "red": Piece("red", "#d9261c", "red", "R", _WHITE_INK),
    "purple": Piece("purple", "#8a3ab9", "pur", "P", _WHITE_INK),
    "orange": Piece("orange", "#f27a0c", "ora", "O", _BLACK_INK),
    "white": Piece("white", "#f6f6f2", "whi", "W", _BLACK_INK),
    "black": Piece("black", "#161616", "bla", "K", _WHITE_INK),
    GREY: Piece(GREY, "#8c8c8c", "gry", "Gy", _BLACK_INK),
    "+": Piece("+", "#33c3c9", "+", "+", _BLACK_INK),
    "-": Piece("-", "#ef7fb2", "-", "-", _BLACK_INK),
}

#: The tile sides, as drawn (RULES 1.5): forward and backward.
TILE_SIDES = ("+", "-")


def piece(name):
    """The ``Piece`` for a colour or tile side. Raises ``KeyError`` for a name no
    edition has."""
    return PIECES[name]


def label(name, word=None):
    """The three-letter label of piece ``name`` in the table's language, given ``word``,
    the colour's name there (``camelhost.i18n.colour_word``): ``Piece.label`` when
    ``word`` is None or the English name itself (``blu``, ``gry``), else the word's first
    three letters, lower case (German ``bla`` for blau, ``gra`` for grau). Raises
    ``KeyError`` for a name no edition has."""
    p = PIECES[name]
    if word is None or word == name:
        return p.label
    return word[:3].lower()


def on_screen(edition):
    """Names of every piece an edition puts on the screen at once: its camels, the
    grey die (second edition) and the two tile sides."""
    ed = EDITIONS[edition] if isinstance(edition, str) else edition
    names = list(ed.camels)
    for die in ed.dice:
        if die not in names:
            names.append(die)
    return names + list(TILE_SIDES)


def style(name, bold=True):
    """A Rich style string drawing ``name``'s label on its fill:
    ``"bold #ffffff on #1f6fe0"``; ``"bold"`` for a name with no piece."""
    p = PIECES.get(name)
    if p is None:
        return "bold" if bold else ""
    return "%s%s on %s" % ("bold " if bold else "", p.ink, p.rgb)
