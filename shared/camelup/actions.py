"""Actions: the values ``Game.push`` takes, their canonical text and ``parse_action``.

Canonical texts (docs/interfaces.md):

====================================  ==============================================
``leg red``                           take the top leg ticket of red (RULES 1.6)
``tile 7 +`` / ``tile 7 -``           place or move own tile, forward / backward side (1.5)
``finish winner red``                 red finish card on the overall-winner pile (1.8)
``finish loser red``                  ... on the overall-loser pile
``partner 3``                         partnership with player 3, 0-based (3.8)
``pyramid red 2``                     pyramid ticket; the released die is red 2 (1.7)
``pyramid grey black 3``              ... the grey die, black numeral 3 (3.5)
====================================  ==============================================

``parse_action`` also accepts aliases (case and spacing are free): ``oasis 7``,
``mirage 7``, ``cheer 7``/``cheering 7``, ``boo 7``/``booing 7``, ``tile 7 oasis``,
``winner red``, ``loser red``, ``bet red``, ``pyramid grey-black 3``, a bare die
``red 2`` / ``grey black 3`` / ``grey W 1`` / ``grey 3 black`` (a pyramid ticket with that
die), ``partners 3``, and one-letter colours ``b g y r p o w k`` (``k`` is black).
"""

from camelup.editions import CLASSIC, GREY, INKS, SECOND, split_die_label
from camelup.errors import Message, NotationError

LEG = "leg"
TILE = "tile"
FINISH = "finish"
PARTNER = "partner"
PYRAMID = "pyramid"
KINDS = (LEG, TILE, FINISH, PARTNER, PYRAMID)
PILES = ("winner", "loser")

#: Every camel colour of either edition (parsing is edition-free; legality is not).
_COLOURS = []
for _c in CLASSIC.camels + SECOND.camels:
    if _c not in _COLOURS:
        _COLOURS.append(_c)
COLOURS = tuple(_COLOURS)

#: One-letter colour codes used at the table and in the case files; unambiguous across
#: both editions (K is black, as W is taken by white).
LETTERS = {"b": "blue", "g": "green", "y": "yellow", "r": "red", "p": "purple",
           "o": "orange", "w": "white", "k": "black"}


def colour_name(word):
    """Full lowercase colour for ``word`` (a name in any case or a one-letter code);
    returns ``word`` lowered when it is neither (callers report it)."""
    w = word.strip().lower()
    return LETTERS.get(w, w)


_FORWARD = ("+", "oasis", "cheering", "cheer", "forward", "fwd")
_BACKWARD = ("-", "mirage", "booing", "boo", "backward", "back")


class Action:
    """One player action. Build with the class methods, or ``parse_action(text)``.

    Fields (``None`` when not used by the kind): ``kind`` (one of ``KINDS``),
    ``colour`` (leg, finish, pyramid: the die colour or ``"grey"``), ``space``
    (tile: int), ``side`` (tile: ``"+"``/``"-"``), ``pile`` (finish:
    ``"winner"``/``"loser"``), ``player`` (partner: 0-based seat), ``ink`` (grey die:
    ``"black"``/``"white"``), ``value`` (pyramid: 1..3). Actions compare and hash
    by their canonical text; ``str(action)`` gives it.
    """

    def __init__(self, kind, colour=None, space=None, side=None, pile=None,
                 player=None, ink=None, value=None):
        self.kind = kind
        self.colour = colour
        self.space = space
        self.side = side
        self.pile = pile
        self.player = player
        self.ink = ink
        self.value = value
        self._text = None

    @classmethod
    def leg(cls, colour):
        """Take the top leg ticket of ``colour`` (RULES 1.6)."""
        return cls(LEG, colour=colour)

    @classmethod
    def tile(cls, space, side):
        """Place/move own tile on ``space`` with ``side`` ``"+"`` or ``"-"`` up (RULES 1.5)."""
        return cls(TILE, space=int(space), side=side)

    @classmethod
    def finish(cls, pile, colour):
        """Play the ``colour`` finish card on ``pile`` ``"winner"``/``"loser"`` (RULES 1.8)."""
        return cls(FINISH, pile=pile, colour=colour)

    @classmethod
    def partner(cls, player):
        """Form a partnership with seat ``player`` (0-based) (RULES 3.8)."""
        return cls(PARTNER, player=int(player))

    @classmethod
    def pyramid(cls, die, value, ink=None):
        """Take a pyramid ticket; the released die is ``die`` showing ``value`` (1..3);
        for the grey die give ``ink`` ``"black"``/``"white"`` (RULES 1.7, 3.5)."""
        return cls(PYRAMID, colour=die, value=int(value), ink=ink)

    def __str__(self):
        if self._text is None:
            k = self.kind
            if k == LEG:
                t = "leg %s" % self.colour
            elif k == TILE:
                t = "tile %d %s" % (self.space, self.side)
            elif k == FINISH:
                t = "finish %s %s" % (self.pile, self.colour)
            elif k == PARTNER:
                t = "partner %d" % self.player
            elif self.colour == GREY:
                t = "pyramid grey %s %d" % (self.ink, self.value)
            else:
                t = "pyramid %s %d" % (self.colour, self.value)
            self._text = t
        return self._text

    def __repr__(self):
        return "Action(%r)" % str(self)

    def __eq__(self, other):
        return isinstance(other, Action) and str(self) == str(other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(str(self))


def _colour(word, text):
    word = colour_name(word)
    if word not in COLOURS:
        raise NotationError(Message("unknown camel colour %(colour)r in action %(action)r "
                                    "(colours: %(colours)s)",
                                    colour=word, action=text, colours=", ".join(COLOURS)))
    return word


def _int(word, what, text):
    try:
        return int(word)
    except ValueError:
        raise NotationError(Message("%(what)s must be a whole number, got %(word)r in action "
                                    "%(action)r",
                                    what=what, word=word, action=text)) from None


def _side(word, text):
    if word in _FORWARD:
        return "+"
    if word in _BACKWARD:
        return "-"
    raise NotationError(Message("tile side must be + or - (oasis/cheering or mirage/booing), "
                                "got %(side)r in action %(action)r", side=word, action=text))


def _die_value(word, text):
    v = _int(word, Message("die value"), text)
    if v < 1 or v > 3:
        raise NotationError(Message("a die shows 1, 2 or 3, got %(value)d in action %(action)r",
                                    value=v, action=text))
    return v


def validate(action):
    """Raise ``NotationError`` when a hand-built ``Action`` is malformed (unknown kind,
    side other than + or -, die value outside 1..3, grey die without a numeral ink,
    unknown colour or pile, non-integer space or seat). Returns the action."""
    a = action
    bad = None
    if a.kind not in KINDS:
        bad = "unknown action kind %r" % (a.kind,)
    elif a.kind in (LEG, FINISH) and a.colour not in COLOURS:
        bad = "unknown colour %r" % (a.colour,)
    elif a.kind == TILE and (not isinstance(a.space, int) or a.side not in ("+", "-")):
        bad = "a tile needs a space number and side + or -"
    elif a.kind == FINISH and a.pile not in PILES:
        bad = "finish pile must be winner or loser, got %r" % (a.pile,)
    elif a.kind == PARTNER and not isinstance(a.player, int):
        bad = "partner seat must be a number"
    elif a.kind == PYRAMID:
        if a.value not in (1, 2, 3):
            bad = "a die shows 1, 2 or 3, got %r" % (a.value,)
        elif a.colour == GREY and a.ink not in INKS:
            bad = "the grey die needs its numeral ink (black or white), got %r" % (a.ink,)
        elif a.colour != GREY and (a.colour not in COLOURS or a.ink is not None):
            bad = "die %r (ink %r) is not a die" % (a.colour, a.ink)
    if bad is not None:
        raise NotationError("malformed action: " + bad)
    return a


def parse_action(text):
    """Read one action from ``text`` (canonical form or an alias; case-insensitive).

    Returns an ``Action``. Raises ``NotationError`` naming the bad text when it is
    not an action: unknown word or colour, a space or seat that is not a number, a
    die value outside 1..3, a grey die without its numeral ink. Whether the action
    is legal is the game's business (``Game.push`` raises ``IllegalAction``).
    """
    if isinstance(text, Action):
        return validate(text)
    if not isinstance(text, str):
        raise NotationError(Message("an action is text, got %r", text))
    words = []
    for word in text.strip().lower().replace("gray", "grey").split():
        # the grey die by its label (``grey-black``) is its two words (``grey black``)
        colour, ink = split_die_label(word)
        words += [colour, ink] if ink else [colour]
    if not words:
        raise NotationError(Message("empty action text"))
    head = words[0]
    rest = words[1:]
    if head in ("leg", "bet", "ticket") and len(rest) == 1:
        return Action.leg(_colour(rest[0], text))
    if head == "tile" and len(rest) == 2:
        return Action.tile(_int(rest[0], Message("tile space"), text), _side(rest[1], text))
    if head == "tile" and len(rest) == 1 and rest[0][:1] in "+-" and len(rest[0]) > 1:
        return Action.tile(_int(rest[0][1:], Message("tile space"), text), rest[0][0])
    if head in _FORWARD[1:] and len(rest) == 1:
        return Action.tile(_int(rest[0], Message("tile space"), text), "+")
    if head in _BACKWARD[1:] and len(rest) == 1:
        return Action.tile(_int(rest[0], Message("tile space"), text), "-")
    if head == "finish" and len(rest) == 2 and rest[0] in PILES:
        return Action.finish(rest[0], _colour(rest[1], text))
    if head in PILES and len(rest) == 1:
        return Action.finish(head, _colour(rest[0], text))
    if head in ("partner", "partners", "partnership") and len(rest) == 1:
        return Action.partner(_int(rest[0].lstrip("p"), Message("partner seat"), text))
    if head in COLOURS or head in LETTERS or head == GREY:
        # a bare die: "red 2", "grey black 3", "white die 2" (as the case files write dice)
        words = [PYRAMID] + [w for w in words if w != "die"]
        head = words[0]
        rest = words[1:]
    if head == "pyramid" and rest:
        if rest[0] == GREY:
            if len(rest) == 3 and rest[1].isdigit():
                rest = [rest[0], rest[2], rest[1]]  # "grey 2 black"
            if len(rest) == 3:
                rest = [rest[0], colour_name(rest[1]), rest[2]]  # "grey W 1", "grey K 2"
            if len(rest) != 3 or rest[1] not in INKS:
                raise NotationError(Message("grey die needs its numeral ink and value, like "
                                            "'pyramid grey black 3', got %r", text))
            return Action.pyramid(GREY, _die_value(rest[2], text), rest[1])
        if len(rest) == 2:
            return Action.pyramid(_colour(rest[0], text), _die_value(rest[1], text))
    raise NotationError(Message("not an action: %r (try 'leg red', 'tile 7 +', "
                                "'finish winner red', 'partner 3', 'pyramid red 2', "
                                "'pyramid grey black 3')", text))
