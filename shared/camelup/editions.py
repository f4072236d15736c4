"""Rules constants of the two editions, as data (RULES 2 and 3).

An edition is a plain value; the engine reads these fields and never branches on
the edition's name except through them.
"""
#: Track length: spaces 1..16; 17+ and 0- are crossed (RULES 1.1).
TRACK = 16
#: Coins each player starts with (RULES 1.9).
START_COINS = 3
#: Finish-pile rewards for the 1st, 2nd, ... correct card; later correct cards pay
#: ``FINISH_LATER`` and a wrong card costs ``FINISH_WRONG`` (RULES 1.13).
FINISH_LADDER = (8, 5, 3, 2)
FINISH_LATER = 1
FINISH_WRONG = -1
#: What a pyramid ticket pays at the leg's end, in coins, in both editions (RULES 1.10):
#: the one source the scoring, the action values, the coach and the bots read.
PYRAMID_TICKET_REWARD = 1
#: Pyramid tickets per leg, and dice revealed per leg (RULES 2.4, 3.4).
PYRAMID_TICKETS = 5
DICE_PER_LEG = 5
#: The grey die's name and its two numeral inks (RULES 3.1).
GREY = "grey"
INKS = ("black", "white")
#: What joins the grey die's name and its numeral ink in its label (``grey-black``).
LABEL_JOIN = "-"


def die_label(colour, ink=None):
    """The label of a die as the pyramid's colour sensor, the profiles, the maker tools
    and the table's screens name it: ``die_label("grey", "black") == "grey-black"``
    (the grey die split by its numeral ink, RULES 3.1), any other die its colour
    (``die_label("red") == "red"``; an ``ink`` given with it is ignored), and the grey
    die without an ink ``"grey"``. ``colour``, ``ink``: str (``ink`` one of ``INKS`` or
    ``None``); returns a str. The one source of this label: ``Edition.sensor_labels``
    and ``camelup.calibration.die_label`` are this function's; ``split_die_label`` takes
    it apart. Typed notation keeps its words (``grey black 2``, ``camelup.actions``)."""
    return colour + LABEL_JOIN + ink if colour == GREY and ink else colour


def split_die_label(label):
    """The inverse of ``die_label``: ``(colour, ink)`` of a die's label.
    ``split_die_label("grey-white") == ("grey", "white")``, ``split_die_label("red") ==
    ("red", None)``, ``split_die_label("grey") == ("grey", None)`` (RULES 3.1).
    ``label``: str; returns a tuple of two str (the second ``None`` for a label without
    an ink). Any word after the grey die's name and ``LABEL_JOIN`` comes back as the ink
    (``"grey-purple" -> ("grey", "purple")``): whether it is one of ``INKS`` is the
    caller's to check. Never raises for a str."""
    head = GREY + LABEL_JOIN
    if label.startswith(head):
        return (GREY, label[len(head):])
    return (label, None)


def is_grey_label(label):
    """True when ``label`` (str) names the grey die, with its ink or without (``grey``,
    ``grey-black``, ``grey-white``: ``split_die_label``): the grey die's two inks are
    one die (RULES 3.1)."""
    return split_die_label(label)[0] == GREY


class Edition:
    """One rule set. Fields:

    ``name`` ("classic" or "second"); ``racing``: racing camel colours (tuple, the
    order used in notation); ``crazy``: crazy camel colours (empty in classic);
    ``dice``: die names in the pyramid (racing colours, plus "grey" in second);
    ``sensor_labels``: what the pyramid's colour sensor names (the grey die split by ink);
    ``leg_values``: a colour's leg-ticket stack from top to bottom; ``min_players``,
    ``max_players``; ``partnership_min``: fewest players for partnerships (``None``:
    no partnerships); ``tile_name``: what the player tile is called, ``forward_name`` /
    ``backward_name`` its two sides; ``dice_left_inside``: dice still in the pyramid
    when a leg ends (0 classic, 1 second: RULES 2.4, 3.4); ``value_weight``: the
    integer weight of one racing-die value in the odds' outcome counts (1 classic,
    which counts the three values; 2 second, which counts the six faces of every die
    so that the grey die's six faces weigh 1 each: RULES 1.4, 3.4);
    ``example_colour``: the racing colour the help and the table's hints show in
    examples (``red``; classic, which has no red camel, ``orange``);
    ``short_colours``: the help's examples of shortened colour names.
    """

    def __init__(self, name, racing, crazy, leg_values, min_players, max_players,
                 partnership_min, tile_name, forward_name, backward_name, example_colour,
                 short_colours):
        self.name = name
        self.racing = tuple(racing)
        self.crazy = tuple(crazy)
        self.camels = self.racing + self.crazy
        self.dice = self.racing + ((GREY,) if self.crazy else ())
        #: What the colour sensor tells apart: a racing die's colour, and the grey die
        #: split by its numeral ink (``grey-black``, ``grey-white``; RULES 3.1).
        self.sensor_labels = self.racing + tuple(
            die_label(GREY, ink) for ink in (INKS if self.crazy else ()))
        self.leg_values = tuple(leg_values)
        self.min_players = min_players
        self.max_players = max_players
        self.partnership_min = partnership_min
        self.tile_name = tile_name
        self.forward_name = forward_name
        self.backward_name = backward_name
        self.dice_left_inside = len(self.dice) - DICE_PER_LEG
        self.value_weight = 2 if GREY in self.dice else 1
        self.example_colour = example_colour
        self.short_colours = short_colours

    def __repr__(self):
        return "Edition(%r)" % self.name

    def is_racing(self, colour):
        """True when ``colour`` is a racing camel of this edition."""
        return colour in self.racing

    def is_crazy(self, colour):
        """True when ``colour`` is a crazy camel of this edition (second only)."""
        return colour in self.crazy

    def has_partnerships(self, players):
        """True when partnerships are in play with ``players`` seats (RULES 3.8)."""
        return self.partnership_min is not None and players >= self.partnership_min


#: RULES 2: first edition.
CLASSIC = Edition(
    "classic",
    racing=("blue", "green", "orange", "yellow", "white"),
    crazy=(),
    leg_values=(5, 3, 2),
    min_players=2,
    max_players=8,
    partnership_min=None,
    tile_name="desert tile",
    forward_name="oasis",
    backward_name="mirage",
    example_colour="orange",
    short_colours="o, wh, gre",
)

#: RULES 3: second edition.
SECOND = Edition(
    "second",
    racing=("blue", "green", "yellow", "red", "purple"),
    crazy=("black", "white"),
    leg_values=(5, 3, 2, 2),
    min_players=3,
    max_players=8,
    partnership_min=6,
    tile_name="spectator tile",
    forward_name="cheering",
    backward_name="booing",
    example_colour="red",
    short_colours="r, pu, gre",
)

EDITIONS = {"classic": CLASSIC, "second": SECOND}


def get_edition(name):
    """Return the ``Edition`` called ``name`` ("classic" or "second"; an ``Edition``
    passes through). Aliases: "first", "1", "2014" -> classic; "2", "2018", "2024" -> second.

    Raises ``NotationError`` for any other name.
    """
    if isinstance(name, Edition):
        return name
    key = str(name).strip().lower()
    if key in ("first", "1", "2014", "1st"):
        key = "classic"
    elif key in ("2", "2018", "2024", "2nd"):
        key = "second"
    if key not in EDITIONS:
        # imported here: the board loads the editions (its classifier's labels) and
        # never raises this, so camelup.errors stays on its flash, not in its heap
        from camelup.errors import NotationError

        raise NotationError("unknown edition %r (use 'classic' or 'second')" % (name,))
    return EDITIONS[key]
