"""Leg-odds expectations of scenario files, exact (docs/notation.md section 4, "Leg odds").

Values as written (``Value``: ``a/b``, a whole number, or a decimal that the exact
value must round to), checked against ``camelup.odds.leg_odds`` (1st, 2nd, last,
expected landings, and every place with ``places=True``: ``place_weights``). All
integer arithmetic: runs unchanged on MicroPython.
"""

from camelup.errors import Message, NotationError
from camelup.odds import Position, leg_odds
from camelup.odds.game import position_from_game

PLACES = ("1st", "2nd", "3rd", "4th", "5th")


def _fail(msg):
    raise NotationError(msg)


def _digits(text):
    return text != "" and not [c for c in text if c not in "0123456789"]


def _want_got(what, want, got):
    return None if want == got else Message("%(what)s: want %(want)s, got %(got)s",
                                            what=what, want=want, got=got)


class Value:
    """A probability or expected value as written: ``a/b`` (exact, need not be reduced),
    a whole number, or a decimal (``.112003``, ``-0.5``: the exact value must round to it
    at the places written)."""

    def __init__(self, text):
        self.text = text
        word = text[1:] if text[:1] == "-" else text
        sign = -1 if text[:1] == "-" else 1
        if "/" in word:
            a, b = word.split("/", 1)
            if not _digits(a) or not _digits(b) or len(a) + len(b) > 40 or int(b) == 0:
                _fail(Message("a fraction reads a/b with b > 0, got %r", text))
            self.num, self.den, self.places = sign * int(a), int(b), None
        elif "." in word:
            whole, frac = word.split(".", 1)
            if not (whole == "" or _digits(whole)) or not _digits(frac) or len(text) > 40:
                _fail(Message("a decimal reads like .112003 or 0.5, got %r", text))
            self.num, self.den, self.places = sign * int((whole or "0") + frac), 1, len(frac)
        else:
            if not _digits(word) or len(word) > 40:
                _fail(Message("a value reads a/b, a whole number or a decimal, got %r", text))
            self.num, self.den, self.places = sign * int(word), 1, None

    def matches(self, num, den):
        """Does the exact ``num / den`` (den > 0) equal this value (or round to it)?"""
        if self.places is None:
            return num * self.den == self.num * den
        diff = num * 10 ** self.places - self.num * den
        return 2 * (diff if diff >= 0 else -diff) <= den


def show(num, den):
    """``num/den`` reduced, with six decimals done in integers (same on every runtime)."""
    a, b = (num if num >= 0 else -num), den
    while b:
        a, b = b, a % b
    g = a or 1
    n = num if num >= 0 else -num
    micro = (n * 2000000 + den) // (2 * den)
    dec = "%s%d.%06d" % ("-" if num < 0 else "", micro // 1000000, micro % 1000000)
    if den // g == 1:
        return "%d (%s)" % (num // g, dec)
    return "%d/%d = %s" % (num // g, den // g, dec)


def odds_position(game, inside=None):
    """The ``camelup.odds.Position`` of ``game`` for its leg; ``inside``: the dice still
    inside instead of the game's (a scenario's ``inside`` line, start position only)."""
    pos = position_from_game(game)
    if inside is None:
        return pos
    if game.history:
        _fail(Message("the 'inside' line is for the start position; leg odds after an action "
                      "use the game's own dice"))
    tiles = {}
    for s in pos.tiles:
        tiles[s] = (pos.tiles[s], pos.tile_owners[s])
    return Position(pos.edition, pos.stacks, tiles, dice=inside)


def check_odds(game, inside, key, arg, cache):
    """One leg-odds expectation (``key`` odds, landings, ev, reveals or outcomes, ``arg``
    as ``camelup.scenario`` parsed it) on ``game``: ``None`` when it holds, else want /
    got. Exact: ``camelup.odds.leg_odds`` for 1st, 2nd, last and landings,
    ``place_weights`` for 3rd and 4th. ``cache``: a dict kept between calls."""
    pos = odds_position(game, inside)
    if key == "reveals":
        return _want_got(Message("dice revealed this leg"), arg, pos.reveals)
    sig = "%r %r" % (pos, sorted(pos.tiles.items()))
    if cache.get("sig") != sig:
        cache.clear()
        cache["sig"] = sig
        cache["leg"] = leg_odds(pos)
    leg = cache["leg"]
    total = leg.total
    if key == "outcomes":
        return _want_got(Message("equally likely outcomes"), arg, total)
    if key == "landings":
        space, v = arg
        if space not in pos.tiles:
            return Message("landings on %(space)d: there is no tile on space %(space)d",
                           space=space)
        got = leg.landings.get(space, 0)
        return None if v.matches(got, total) else Message("expected landings on %(space)d: want "
                                                          "%(want)s, got %(got)s",
                                                          space=space, want=v.text,
                                                          got=show(got, total))
    if key == "ev":
        colour, ticket, v = arg
        w1, w2 = leg.first[colour], leg.second[colour]
        num = ticket * w1 + w2 - (total - w1 - w2)
        return None if v.matches(num, total) else Message("EV of %(colour)s leg ticket %(ticket)d: "
                                                          "want %(want)s, got %(got)s",
                                                          colour=colour, ticket=ticket, want=v.text,
                                                          got=show(num, total))
    place, pairs = arg
    n = len(pos.racing())
    problems = []
    for colour, v in pairs:
        if place == 0:
            got = leg.first[colour]
        elif place == 1:
            got = leg.second[colour]
        elif place == n - 1:
            got = leg.last[colour]
        else:
            if "places" not in cache:
                cache["places"] = place_weights(pos)
            weights, total = cache["places"]
            got = weights[colour][place]
        if not v.matches(got, total):
            problems.append(Message("P(%(colour)s %(place)s): want %(want)s, got %(got)s",
                                    colour=colour, place=PLACES[place], want=v.text,
                                    got=show(got, total)))
    if not problems:
        return None
    out = problems[0]
    for more in problems[1:]:
        out = Message("%(first)s; %(second)s", first=out, second=more)
    return out


def place_weights(pos):
    """Every racing camel's weight in every place at the end of the leg of ``pos`` (a
    ``camelup.odds.Position``): ``camelup.odds.leg_odds(pos, places=True)``'s, as
    ``({colour: [weight 1st, 2nd, ...]}, total)`` (RULES 1.4, 1.11, 3.4)."""
    leg = leg_odds(pos, places=True)
    return leg.places, leg.total
