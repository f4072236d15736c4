"""The rules engine: ``Game``, one race of Camel Up in either edition.

``Game`` is a single mutable value with python-chess style ``push``/``pop`` undo.
Every action, dice included, goes through ``push``; an illegal one raises
``IllegalAction`` and changes nothing. See docs/api.md for a tour.
"""

import camelup.movement as movement
import camelup.scoring as scoring
from camelup.actions import FINISH, LEG, PARTNER, PILES, PYRAMID, TILE, Action, parse_action
from camelup.editions import (
    DICE_PER_LEG,
    GREY,
    INKS,
    PYRAMID_TICKETS,
    START_COINS,
    TRACK,
    get_edition,
)
from camelup.errors import IllegalAction, Message, NotationError
from camelup.notation import position_text, read_position
from camelup.rng import XorShift32

#: What ``Game._reveal`` returns when its die ended the race / the leg.
_RACE_OVER = "race over"
_LEG_ENDED = "leg ended"

#: Faces of a racing die (RULES 1.4) and of the grey die as (value, ink) (RULES 3.1).
RACING_FACES = (1, 1, 2, 2, 3, 3)
GREY_FACES = ((1, "black"), (2, "black"), (3, "black"), (1, "white"), (2, "white"),
              (3, "white"))


def setup_space(edition, colour, value):
    """The space a setup roll of ``value`` (1..3) puts camel ``colour`` on (RULES 2.2,
    3.2): a racing camel on space ``value`` (1..3); a crazy camel (second edition)
    counted back from the finish: 1 -> 16, 2 -> 15, 3 -> 14. Raises ``NotationError``
    for an unknown edition; the value and colour are not checked (``setup_stacks``)."""
    return TRACK + 1 - value if colour in get_edition(edition).crazy else value


def setup_stacks(edition, racing_rolls, crazy_rolls=()):
    """Build starting stacks from setup rolls (RULES 2.2, 3.2).

    ``racing_rolls``: ``(colour, value)`` for every racing camel, in placement order
    (a camel placed later on the same space goes on top); value 1..3 is the space.
    ``crazy_rolls``: ``(colour, value)`` for every crazy camel in roll order (second
    edition): 1 -> space 16, 2 -> 15, 3 -> 14; the second on top of the first.
    Returns a ``stacks`` dict. Raises ``NotationError`` for a missing, repeated or
    unknown camel or a value outside 1..3.
    """
    ed = get_edition(edition)
    stacks = {}
    seen = []
    for kind, rolls, camels in (("racing", racing_rolls, ed.racing),
                                ("crazy", crazy_rolls, ed.crazy)):
        for colour, value in rolls:
            if colour not in camels:
                raise NotationError(
                    Message("%(colour)r is not a racing camel of the %(edition)s edition",
                            colour=colour, edition=Message(ed.name))
                    if kind == "racing" else
                    Message("%(colour)r is not a crazy camel of the %(edition)s edition",
                            colour=colour, edition=Message(ed.name)))
            if colour in seen:
                raise NotationError(Message("camel %r rolled twice at setup", colour))
            if value not in (1, 2, 3):
                raise NotationError(Message("setup roll for %(colour)s must be 1..3, got %(value)r",
                                            colour=colour, value=value))
            seen.append(colour)
            space = setup_space(ed, colour, value)
            stacks.setdefault(space, []).append(colour)
    for c in ed.camels:
        if c not in seen:
            raise NotationError(Message("setup is missing camel %r", c))
    return stacks


def check_start(edition, stacks):
    """Raise ``NotationError`` unless ``stacks`` is a starting board the setup rolls can
    give (RULES 2.2, 3.2): every camel of ``edition`` once, the racing camels on
    spaces 1..3, the crazy camels (second edition) on 14..16; stacked in any order.

    ``stacks``: ``{space: [colour, ...]}`` bottom first, as ``setup_stacks`` returns.
    """
    ed = get_edition(edition)
    seen = []
    for space in stacks:
        for colour in stacks[space]:
            if colour in seen:
                raise NotationError(Message("camel %s is on the board twice", colour))
            seen.append(colour)
            if colour in ed.racing and not 1 <= space <= 3:
                raise NotationError(Message("the %(colour)s camel starts on space 1, 2 or 3 (RULES "
                                            "2.2), not %(space)d",
                                            colour=colour, space=space))
            if colour in ed.crazy and not TRACK - 2 <= space <= TRACK:
                raise NotationError(Message("the crazy %(colour)s camel starts on space %(first)d, "
                                            "%(second)d or %(third)d (RULES 3.2), not %(space)d",
                                            colour=colour, first=TRACK - 2, second=TRACK - 1,
                                            third=TRACK, space=space))
            if colour not in ed.camels:
                raise NotationError(Message("%(colour)r is not a camel of the %(edition)s edition",
                                            colour=colour, edition=Message(ed.name)))
    for colour in ed.camels:
        if colour not in seen:
            raise NotationError(Message("the %s camel is missing from the setup", colour))


def random_stacks(edition, rng):
    """Random starting stacks from ``rng`` (an ``XorShift32``): roll each racing die,
    stack camels sharing a space in random order, then roll the grey die for black and
    then white (RULES 2.2, 3.2). Returns a ``stacks`` dict."""
    ed = get_edition(edition)
    order = list(ed.racing)
    rng.shuffle(order)  # placement order decides the stacking order on a shared space
    racing = []
    for colour in order:
        racing.append((colour, RACING_FACES[rng.below(6)]))
    crazy = []
    for colour in ed.crazy:
        crazy.append((colour, GREY_FACES[rng.below(6)][0]))
    return setup_stacks(ed, racing, crazy)


def _bad(msg):
    raise NotationError(Message("bad position: %s", msg))


class Game:
    """One race of Camel Up (RULES 1-3) with undo.

    Construct from given stacks (the tracker takes the table's setup) or with
    ``Game.random(edition, players, seed)`` (the virtual pyramid), or from notation
    with ``camelup.game.parse_position(text)``.

    Arguments (all but ``edition``/``players``/``stacks`` default to the start of a leg):

    - ``edition``: ``"classic"`` or ``"second"``; ``players``: seats, 2..8 classic, 3..8 second.
    - ``stacks``: ``{space: [colour, ...bottom to top]}`` holding every camel once.
    - ``tiles``: ``{space: (owner, "+" or "-")}``; ``turn``: seat to act; ``start``:
      start-marker holder (default ``turn``); ``leg``: leg number from 1.
    - ``coins``: per seat (default 3 each); ``held``: per seat list of ``(colour, value)``
      leg tickets; ``pyramid``: per seat pyramid tickets held; ``out``: dice revealed this
      leg in order (``"grey"`` for the grey die); ``partners``: per seat partner or None.
    - ``winner_pile`` / ``loser_pile``: ``[(seat, colour), ...]`` in play order; a
      hidden card (read from the public form, docs/notation.md) is ``(None, None)``:
      it counts for the pile's size and place ladder, is nobody's, and scores nothing.
    - ``legs``: ``{colour: [values left, top first]}`` for colours whose held tickets are
      not the top of the stack (a case that names a blue 3 held but not who holds the
      blue 5); held plus left must make up the colour's stack exactly.

    Leg tickets left per colour otherwise follow from ``held`` (the taken ones are the top
    of the stack). Raises ``NotationError`` (a ``ValueError``) naming what is inconsistent.
    """

    def __init__(self, edition="second", players=3, stacks=None, tiles=None, turn=0,
                 start=None, coins=None, held=None, pyramid=None, out=None, partners=None,
                 winner_pile=None, loser_pile=None, leg=1, legs=None, _copy_of=None):
        if _copy_of is not None:
            # copy(): MicroPython has no object.__new__, so copies come through here.
            self.edition = _copy_of.edition
            self.players = _copy_of.players
            self._restore(_copy_of._fields())  # _restore copies each field
            self._history = []
            return
        ed = get_edition(edition)
        self.edition = ed
        if not isinstance(players, int) or not ed.min_players <= players <= ed.max_players:
            _bad(Message("the %(edition)s edition is for %(least)d..%(most)d players, got "
                         "%(players)r",
                         edition=Message(ed.name), least=ed.min_players, most=ed.max_players,
                         players=players))
        n = players
        self.players = n
        if stacks is None:
            _bad(Message("stacks are required (or use Game.random)"))
        self._stacks = self._check_stacks(stacks)
        self._tiles = self._check_tiles(tiles or {})
        self._coins = self._seat_list(coins, Message("coins"), START_COINS)
        for p in range(n):
            if not isinstance(self._coins[p], int) or self._coins[p] < 0:
                _bad(Message("coins of p%(seat)d must be a whole number >= 0, got %(coins)r",
                             seat=p, coins=self._coins[p]))
        self._held = self._check_held(held, legs or {})
        self._pyramid = self._seat_list(pyramid, Message("pyramid tickets"), 0)
        self._out = self._check_out(out or [])
        self._partners = self._check_partners(partners)
        self._piles = self._check_piles(winner_pile, loser_pile)
        self._turn = self._seat(turn, Message("turn"))
        self._start = self._seat(turn if start is None else start, Message("start marker"))
        if not isinstance(leg, int) or leg < 1:
            _bad(Message("leg number must be >= 1, got %r", leg))
        self._leg = leg
        self._history = []
        self.result = None

    # -- construction helpers -------------------------------------------------

    def _seat(self, p, what):
        if not isinstance(p, int) or not 0 <= p < self.players:
            _bad(Message("%(what)s must be a seat 0..%(last)d, got %(seat)r",
                         what=what, last=self.players - 1, seat=p))
        return p

    def _seat_list(self, values, what, default):
        if values is None:
            return [default] * self.players
        values = list(values)
        if len(values) != self.players:
            _bad(Message("%(what)s: need one entry per seat (%(seats)d), got %(entries)d",
                         what=what, seats=self.players, entries=len(values)))
        for v in values:
            if not isinstance(v, int) or v < 0:
                _bad(Message("%(what)s must be whole numbers >= 0, got %(value)r",
                             what=what, value=v))
        return values

    def _check_stacks(self, stacks):
        ed = self.edition
        out = {}
        seen = {}
        for space in stacks:
            if not isinstance(space, int):
                _bad(Message("space %r is not a number", space))
            camels = list(stacks[space])
            for c in camels:
                if c not in ed.camels:
                    _bad(Message("%(name)r is not a camel of the %(edition)s edition (%(known)s)",
                                 name=c, edition=Message(ed.name), known=", ".join(ed.camels)))
                if c in seen:
                    _bad(Message("camel %s appears twice", c))
                seen[c] = space
            if camels:
                out[space] = camels
        for c in ed.camels:
            if c not in seen:
                _bad(Message("camel %s is missing", c))
        crossed = [s for s in out if not movement.on_track(s)]
        # A finished race has exactly one crossed stack (movement stops at once).
        if len(crossed) > 1:
            _bad(Message("more than one stack past the finish line (%s)",
                         ", ".join([str(x) for x in sorted(crossed)])))
        return out

    def _check_tiles(self, tiles):
        out = {}
        owners = {}
        for space in tiles:
            owner, side = tiles[space]
            self._seat(owner, Message("tile owner"))
            if side not in ("+", "-"):
                _bad(Message("tile side must be + or -, got %r", side))
            if not isinstance(space, int) or not 2 <= space <= TRACK:
                _bad(Message("tile on space %r: tiles go on spaces 2..16", space))
            if space in self._stacks:
                _bad(Message("tile on space %d, which holds camels", space))
            if owner in owners:
                _bad(Message("p%(seat)d has two tiles (spaces %(space)d and %(other_space)d)",
                             seat=owner, space=owners[owner], other_space=space))
            owners[owner] = space
            out[space] = (owner, side)
        for space in out:
            if space + 1 in out:
                _bad(Message("tiles on neighbouring spaces %(space)d and %(next_space)d",
                             space=space, next_space=space + 1))
        return out

    def _check_held(self, held, legs):
        """Check the held tickets (and ``legs``, tickets left for some colours); sets
        ``self._legs`` (colour -> values left, top first). Returns the held lists."""
        ed = self.edition
        if held is None:
            held = [[] for _ in range(self.players)]
        if len(held) != self.players:
            _bad(Message("held tickets: need one list per seat (%(seats)d), got %(lists)d",
                         seats=self.players, lists=len(held)))
        out = []
        taken = {}
        for p in range(self.players):
            mine = []
            for colour, value in held[p]:
                if colour not in ed.racing:
                    _bad(Message("leg ticket %(colour)r%(value)r: not a racing camel of the "
                                 "%(edition)s edition",
                                 colour=colour, value=value, edition=Message(ed.name)))
                mine.append((colour, value))
                taken.setdefault(colour, []).append(value)
            out.append(mine)
        for colour in legs:
            if colour not in ed.racing:
                _bad(Message("legs lists %(colour)r, not a racing camel of the %(edition)s edition",
                             colour=colour, edition=Message(ed.name)))
        self._legs = {}
        for colour in ed.racing:
            values = sorted(taken.get(colour, []))
            n = len(values)
            if colour in legs:
                left = list(legs[colour])
                if (sorted(values + left) != sorted(list(ed.leg_values))
                        or left != sorted(left, reverse=True)):
                    _bad(Message("legs %(colour)s:%(left)s does not match the tickets held "
                                 "%(held)s (the stack is %(stack)s, highest on top)",
                                 colour=colour, left="".join([str(v) for v in left]) or "-",
                                 held=values, stack="".join([str(v) for v in ed.leg_values])))
                self._legs[colour] = left
                continue
            # Tickets are taken from the top, so the taken ones are the top of the stack.
            if n > len(ed.leg_values):
                _bad(Message("%(held)d %(colour)s leg tickets held, only %(exist)d exist",
                             held=n, colour=colour, exist=len(ed.leg_values)))
            want = sorted(list(ed.leg_values[:n]))
            if values != want:
                _bad(Message("held %(colour)s leg tickets %(values)s are not the top %(count)d of "
                             "the stack %(stack)s",
                             colour=colour, values=values, count=n, stack=list(ed.leg_values)))
            self._legs[colour] = list(ed.leg_values[n:])
        return out

    def _check_out(self, out):
        ed = self.edition
        res = []
        for die in out:
            if die not in ed.dice:
                _bad(Message("die %(name)r is not in the %(edition)s pyramid (%(known)s)",
                             name=die, edition=Message(ed.name), known=", ".join(ed.dice)))
            if die in res:
                _bad(Message("die %s revealed twice this leg", die))
            res.append(die)
        over = False
        for s in self._stacks:
            if not movement.on_track(s):
                over = True
        if len(res) >= DICE_PER_LEG and not over:
            _bad(Message("%(out)d dice out: the leg would already be scored (at most %(most)d)",
                         out=len(res), most=DICE_PER_LEG - 1))
        if sum(self._pyramid) != len(res):
            _bad(Message("pyramid tickets held (%(held)d) must equal dice out this leg (%(out)d)",
                         held=sum(self._pyramid), out=len(res)))
        return res

    def _check_piles(self, winner_pile, loser_pile):
        ed = self.edition
        racing = ed.racing
        n = self.players
        piles = {"winner": [], "loser": []}
        used = {}
        for name, pile in (("winner", winner_pile), ("loser", loser_pile)):
            for card in pile or []:
                p, colour = card
                if p is None and colour is None:
                    # a hidden card (a public position line): it counts for the pile's
                    # size only (odds), never for anyone's hand or score
                    piles[name].append((None, None))
                    continue
                if not isinstance(p, int) or not 0 <= p < n:  # the message only if wrong
                    self._seat(p, Message("finish card owner"))
                if colour not in racing:
                    _bad(Message("finish card %(colour)r is not a racing camel of the %(edition)s "
                                 "edition",
                                 colour=colour, edition=Message(ed.name)))
                if (p, colour) in used:
                    _bad(Message("p%(seat)d played the %(colour)s finish card twice",
                                 seat=p, colour=colour))
                used[(p, colour)] = True
                piles[name].append((p, colour))
        return piles

    def _check_partners(self, partners):
        if partners is None:
            return [None] * self.players
        partners = list(partners)
        if len(partners) != self.players:
            _bad(Message("partners: need one entry per seat"))
        for p in range(self.players):
            q = partners[p]
            if q is None:
                continue
            if not self.edition.has_partnerships(self.players):
                _bad(Message("partnerships need the second edition and 6..8 players"))
            self._seat(q, Message("partner"))
            if q == p or partners[q] != p:
                _bad(Message("partnership of p%(seat)d with p%(partner)r is not mutual",
                             seat=p, partner=q))
        return partners

    @classmethod
    def random(cls, edition="second", players=3, seed=1, start=0):
        """A new race with a random setup drawn from ``seed`` (identical on CPython and
        MicroPython, via ``XorShift32``); ``start`` holds the start marker and acts first."""
        stacks = random_stacks(edition, XorShift32(seed))
        return cls(edition, players, stacks, turn=start, start=start)

    @classmethod
    def from_position(cls, text):
        """The ``Game`` of a position line (``camelup.game.parse_position``; docs/notation.md).
        Raises ``NotationError`` naming the bad part."""
        return parse_position(text)

    def new_race(self, seed=None, stacks=None, start=None):
        """Another race with the same seats: new setup, every seat back to 3 coins,
        empty finish piles (seed 001: "repeat the complete setup").

        Give ``stacks`` (the table's setup) or ``seed`` (random setup). ``start``: first
        seat (default: after a finished race, the seat after the one whose action ended
        it; otherwise the seat to act). Returns a new ``Game``. Raises ``ValueError``
        when neither ``stacks`` nor ``seed`` is given.
        """
        if start is None:
            # The race-ending action does not pass the turn on; the next race starts
            # with the seat after it (docs/rules-decisions.md).
            start = (self._turn + 1) % self.players if self.is_over else self._turn
        if stacks is None:
            if seed is None:
                raise ValueError("new_race needs the new setup's stacks or a seed")
            stacks = random_stacks(self.edition, XorShift32(seed))
        return Game(self.edition, self.players, stacks, turn=start, start=start)

    # -- read-only views ------------------------------------------------------

    @property
    def turn(self):
        """Seat whose turn it is (0..players-1)."""
        return self._turn

    current_player = turn

    @property
    def start_player(self):
        """Seat holding the start marker (who began this leg, RULES 1.12)."""
        return self._start

    @property
    def leg(self):
        """Leg number, 1 for the first leg."""
        return self._leg

    @property
    def coins(self):
        """Coins per seat (a new list)."""
        return list(self._coins)

    @property
    def stacks(self):
        """``{space: [colour bottom..top]}`` (a copy)."""
        return movement.copy_stacks(self._stacks)

    @property
    def tiles(self):
        """``{space: (owner, side)}`` of tiles on the track (a copy)."""
        return dict(self._tiles)

    @property
    def dice_out(self):
        """Dice revealed this leg, in order (list of die names)."""
        return list(self._out)

    def dice_in_pyramid(self):
        """Dice still inside the pyramid, in the edition's order (list of names). In the
        second edition one of them stays inside when the leg ends (RULES 3.4)."""
        return [d for d in self.edition.dice if d not in self._out]

    @property
    def pyramid_tickets_left(self):
        """Pyramid tickets still on the board this leg (0..5)."""
        return PYRAMID_TICKETS - len(self._out)

    def leg_tickets_left(self, colour):
        """Leg tickets of ``colour`` still on the board, top first (e.g. ``[3, 2, 2]``).
        Raises ``IllegalAction`` for a colour that has no leg tickets in this edition."""
        if colour not in self.edition.racing:
            raise IllegalAction(Message("%(colour)s has no leg tickets in the %(edition)s edition",
                                        colour=colour, edition=Message(self.edition.name)))
        return list(self._legs[colour])

    def held_tickets(self, player):
        """Leg tickets ``(colour, value)`` held by ``player`` this leg, in take order."""
        return list(self._held[player])

    def pyramid_tickets(self, player):
        """Pyramid tickets held by ``player`` this leg."""
        return self._pyramid[player]

    def partner_of(self, player):
        """Partner seat of ``player`` this leg, or ``None`` (RULES 3.8)."""
        return self._partners[player]

    def tile_of(self, player):
        """``(space, side)`` of ``player``'s tile on the track, or ``None``."""
        for space in self._tiles:
            if self._tiles[space][0] == player:
                return space, self._tiles[space][1]
        return None

    def pile(self, name):
        """Finish pile ``"winner"``/``"loser"`` as ``[(seat, colour)]`` in play order.
        Hidden information at the table: show only ``len()`` until the race is over."""
        return list(self._piles[name])

    def finish_cards_in_hand(self, player):
        """Racing colours whose finish card ``player`` still holds (RULES 1.8)."""
        used = [c for p, c in self._piles["winner"] + self._piles["loser"] if p == player]
        return [c for c in self.edition.racing if c not in used]

    def ranking(self):
        """Racing camels first to last (RULES 1.11, 3.7); crazy camels ignored."""
        return movement.ranking(self._stacks, self.edition.racing)

    def leg_scores_now(self, waiting=None):
        """What leg scoring would pay if the leg ended in the current ranking (RULES
        1.10, 3.8): the ``scoring.score_leg`` breakdown, one dict per seat; nothing
        changes. For the table display ("if the leg ended now"). ``waiting``: the seat
        whose pyramid ticket is taken but waits for its die (the table's, not yet
        pushed), or ``None``: counted as held, since it pays 1 at leg scoring whatever
        the die shows (RULES 1.7, 1.10)."""
        pyramid = list(self._pyramid)
        if waiting is not None:
            pyramid[waiting] += 1
        breakdown, _ = scoring.score_leg(self.ranking(), self._held, pyramid,
                                         self._partners, self._coins)
        return breakdown

    @property
    def is_over(self):
        """True once a camel has crossed the finish line (RULES 1.13, 3.7)."""
        for s in self._stacks:
            if s < 1 or s > TRACK:  # not movement.on_track, inline: asked very often
                return True
        return False

    def winners(self):
        """Seats sharing the victory (highest coins). Raises ``IllegalAction`` while the
        race is still running."""
        if not self.is_over:
            raise IllegalAction(Message("the race is not over yet: no winners"))
        return scoring.winners(self._coins)

    @property
    def history(self):
        """Actions pushed so far (list of ``Action``)."""
        return [h[0] for h in self._history]

    def copy(self, history=True):
        """An independent copy (with the undo history unless ``history=False``)."""
        g = Game(_copy_of=self)
        g._history = list(self._history) if history else []
        return g

    def with_piles(self, winner_pile, loser_pile):
        """A copy (without undo history) whose finish piles are ``winner_pile`` /
        ``loser_pile`` (``[(seat, colour)]`` in play order, as the constructor takes
        them): what a player guesses the others' hidden cards to be (RULES 1.8), played
        out to see what they would score. Raises ``NotationError`` like the
        constructor (a card twice, a colour not racing, a bad seat)."""
        g = self.copy(history=False)
        g._piles = g._check_piles(winner_pile, loser_pile)
        return g

    def position(self):
        """One-line notation of this position (docs/notation.md)."""
        return position_text(self)

    def __str__(self):
        return self.position()

    def __repr__(self):
        return "Game(%r)" % self.position()

    def __eq__(self, other):
        return isinstance(other, Game) and self.position() == other.position()

    def __ne__(self, other):
        return not self.__eq__(other)

    # -- legality -------------------------------------------------------------

    def legal_actions(self):
        """Every legal action for the seat to act, as ``Action`` values (empty once the
        race is over). Pyramid actions list every die inside with every face."""
        if self.is_over:
            return []
        ed = self.edition
        p = self._turn
        acts = []
        for colour in ed.racing:
            if self.leg_tickets_left(colour):
                acts.append(Action.leg(colour))
        for space in range(2, TRACK + 1):
            if self._tile_problem(p, space) is None:
                acts.append(Action.tile(space, "+"))
                acts.append(Action.tile(space, "-"))
        hand = self.finish_cards_in_hand(p)
        for pile in PILES:
            for colour in hand:
                acts.append(Action.finish(pile, colour))
        if ed.has_partnerships(self.players) and self._partners[p] is None:
            for q in range(self.players):
                if q != p and self._partners[q] is None:
                    acts.append(Action.partner(q))
        for die in self.dice_in_pyramid():
            for v in (1, 2, 3):
                if die == GREY:
                    for ink in INKS:
                        acts.append(Action.pyramid(GREY, v, ink))
                else:
                    acts.append(Action.pyramid(die, v))
        return acts

    def is_legal(self, action):
        """True when ``action`` (an ``Action`` or its text) may be pushed now."""
        try:
            self.check(action)
        except (IllegalAction, NotationError):
            return False
        return True

    def _tile_problem(self, p, space):
        if space < 1 or space > TRACK:
            return Message("space %d is not on the track (1..16)", space)
        if space == 1:
            return Message("a tile may never go on space 1")
        if space in self._stacks:
            camels = self._stacks[space]
            if len(camels) == 1:
                return Message("space %(space)d holds the %(camel)s camel",
                               space=space, camel=camels[0])
            return Message("space %(space)d holds camels (%(camels)s)",
                           space=space, camels=", ".join(camels))
        mine = self.tile_of(p)
        if mine is not None and mine[0] == space:
            return Message("p%(seat)d's own tile already lies on space %(space)d; moving it must "
                           "go to a different space (turning it over in place is not an action)",
                           seat=p, space=space)
        if space in self._tiles:
            return Message("there is already p%(seat)d's tile on space %(space)d",
                           seat=self._tiles[space][0], space=space)
        for s in (space - 1, space + 1):
            if s in self._tiles and self._tiles[s][0] != p:
                return Message("space %(space)d is next to p%(seat)d's tile on space "
                               "%(tile_space)d: tiles never lie side by side",
                               space=space, seat=self._tiles[s][0], tile_space=s)
        return None

    def check(self, action):
        """Return ``action`` as an ``Action`` if it is legal now; else raise.

        Raises ``NotationError`` for text that is not an action and ``IllegalAction``
        (message: what and why, with the RULES section) when the rules forbid it.
        """
        a = parse_action(action)
        ed = self.edition
        p = self._turn
        if self.is_over:
            raise IllegalAction(Message("%s: the race is over (RULES 1.13)", a), a)
        k = a.kind
        if k == LEG:
            if a.colour not in ed.racing:
                raise IllegalAction(Message("%(action)s: %(colour)s is not a racing camel in the "
                                            "%(edition)s edition, so it has no leg tickets (RULES "
                                            "1.6, 3.1)",
                                            action=a, colour=a.colour, edition=Message(ed.name)), a)
            if not self.leg_tickets_left(a.colour):
                raise IllegalAction(Message("%(action)s: no %(colour)s leg tickets left this leg "
                                            "(RULES 1.6)",
                                            action=a, colour=a.colour), a)
        elif k == TILE:
            why = self._tile_problem(p, a.space)
            if why is not None:
                raise IllegalAction(Message("%(action)s: %(reason)s (RULES 1.5)",
                                            action=a, reason=why), a)
        elif k == FINISH:
            if a.colour not in ed.racing:
                raise IllegalAction(Message("%(action)s: %(colour)s is not a racing camel in the "
                                            "%(edition)s edition; only racing camels have finish "
                                            "cards (RULES 1.8)",
                                            action=a, colour=a.colour, edition=Message(ed.name)), a)
            if a.colour not in self.finish_cards_in_hand(p):
                raise IllegalAction(Message("%(action)s: p%(seat)d already played the %(colour)s "
                                            "finish card; each card can be played once, on either "
                                            "pile (RULES 1.8)",
                                            action=a, seat=p, colour=a.colour), a)
        elif k == PARTNER:
            q = a.player
            if not ed.has_partnerships(self.players):
                raise IllegalAction(Message("%s: partnerships need the second edition with 6..8 "
                                            "players (RULES 3.8)", a), a)
            if q < 0 or q >= self.players:
                raise IllegalAction(Message("%(action)s: there is no seat %(seat)d (seats "
                                            "0..%(last)d)",
                                            action=a, seat=q, last=self.players - 1), a)
            if q == p:
                raise IllegalAction(Message("%(action)s: p%(seat)d cannot partner themself (RULES "
                                            "3.8)",
                                            action=a, seat=p), a)
            if self._partners[p] is not None:
                raise IllegalAction(Message("%(action)s: p%(seat)d is already partnered with "
                                            "p%(partner)d this leg (RULES 3.8)",
                                            action=a, seat=p, partner=self._partners[p]), a)
            if self._partners[q] is not None:
                raise IllegalAction(Message("%(action)s: p%(seat)d is already partnered with "
                                            "p%(partner)d this leg (RULES 3.8)",
                                            action=a, seat=q, partner=self._partners[q]), a)
        elif k == PYRAMID:
            die = a.colour
            if die == GREY:
                if GREY not in ed.dice:
                    raise IllegalAction(Message("%(action)s: the %(edition)s edition has no grey "
                                                "die (RULES 2.1)",
                                                action=a, edition=Message(ed.name)), a)
            elif die not in ed.racing:
                if die in ed.crazy:
                    raise IllegalAction(Message("%(action)s: %(die)s is a crazy camel; it moves by "
                                                "the grey die (RULES 3.5)",
                                                action=a, die=die), a)
                raise IllegalAction(Message("%(action)s: there is no %(die)s die in the "
                                            "%(edition)s edition (RULES 2.1, 3.1)",
                                            action=a, die=die, edition=Message(ed.name)), a)
            if die in self._out:
                raise IllegalAction(Message("%(action)s: the %(die)s die already came out this "
                                            "leg; it is not in the pyramid (RULES 1.4)",
                                            action=a, die=die), a)
        return a

    # -- push / pop -----------------------------------------------------------

    def _snapshot(self):
        return (
            movement.copy_stacks(self._stacks), dict(self._tiles), list(self._coins),
            [list(h) for h in self._held], self._copy_legs(), list(self._pyramid),
            list(self._out),
            list(self._partners), list(self._piles["winner"]), list(self._piles["loser"]),
            self._turn, self._start, self._leg, self.result,
        )

    def _fields(self):
        """The state ``_snapshot`` copies, uncopied: for ``_restore``, which copies
        every field it is given (a copy made in one pass, not two)."""
        return (
            self._stacks, self._tiles, self._coins, self._held, self._legs, self._pyramid,
            self._out, self._partners, self._piles["winner"], self._piles["loser"],
            self._turn, self._start, self._leg, self.result,
        )

    def _copy_legs(self):
        out = {}
        for c in self._legs:
            out[c] = list(self._legs[c])
        return out

    def _restore(self, s):
        (stacks, tiles, coins, held, legs, pyramid, out, partners, winner, loser,
         turn, start, leg, result) = s
        self._stacks = movement.copy_stacks(stacks)
        self._tiles = dict(tiles)
        self._coins = list(coins)
        self._held = [list(h) for h in held]
        self._legs = {}
        for c in legs:
            self._legs[c] = list(legs[c])
        self._pyramid = list(pyramid)
        self._out = list(out)
        self._partners = list(partners)
        self._piles = {"winner": list(winner), "loser": list(loser)}
        self._turn = turn
        self._start = start
        self._leg = leg
        self.result = result

    def push(self, action):
        """Play ``action`` (an ``Action`` or its text) for the seat to act.

        Raises ``NotationError`` (unreadable text) or ``IllegalAction`` (forbidden now);
        in both cases nothing changes. Returns a report dict:

        - ``action`` (canonical text), ``player`` (seat), ``kind``;
        - ``ticket``: the leg ticket taken ``{"colour", "value"}`` (leg actions);
        - ``tile``: ``{"space", "side", "from"}`` (tile actions; ``from`` the old space or None);
        - ``move``: for pyramid actions, ``movement.move_unit``'s dict plus ``die``,
          ``ink``, ``value``, ``rule`` (grey: "a"/"b"/"c" of RULES 3.5, else None);
          ``move["tile"]`` names the tile landed on; its owner got 1 coin;
        - ``leg_ended``: True when this action ended the leg; ``leg_scores``: the
          ``scoring.score_leg`` breakdown (else None); ``leg_ranking``: ranking used;
        - ``race_over``: True when the race ended; ``final``: ``{"winner", "loser",
          "cards": [...per card...], "coins", "winners"}`` (else None);
        - ``ranking``, ``coins`` after the action; ``next_player``.
        """
        a = self.check(action)
        before = self._snapshot()
        try:
            report = self._apply(a)
        except Exception:
            self._restore(before)
            raise
        self._history.append((a, before, report))
        return report

    def play(self, action):
        """``push`` for a throwaway copy (a play-out): the same check and the same game
        after it, but no undo snapshot, nothing added to ``history`` (``pop`` can't undo
        it) and no report. Raises ``NotationError`` or ``IllegalAction`` as ``push``
        does, before anything changes. Returns ``None``."""
        self._apply(self.check(action), False)

    def pop(self):
        """Undo the last ``push``; returns its ``Action``. Raises ``IndexError`` when
        there is nothing to undo."""
        a, before, _ = self._history.pop()
        self._restore(before)
        return a

    def before(self, index):
        """A copy (without undo history) of the game as it was just before its
        ``index``-th pushed action (0-based, as in ``history``): what ``pop`` would
        give back after undoing that action and every later one, without undoing
        them. Raises ``IndexError`` for an index ``history`` does not have."""
        g = self.copy(history=False)
        g._restore(self._history[index][1])
        return g

    def peek(self):
        """The last pushed ``Action`` (``IndexError`` when none)."""
        return self._history[-1][0]

    def last_report(self):
        """The report of the last ``push`` (``IndexError`` when none)."""
        return self._history[-1][2]

    def _apply(self, a, full=True):
        """Apply the checked action ``a``; returns the report (``push``). ``full``
        False (``play``): the report's ranking, coins and next player are left out."""
        p = self._turn
        n = self.players
        report = {"action": str(a), "player": p, "kind": a.kind, "ticket": None,
                  "tile": None, "move": None, "leg_ended": False, "leg_scores": None,
                  "leg_ranking": None, "race_over": False, "final": None}
        if a.kind == LEG:
            value = self._legs[a.colour].pop(0)
            self._held[p].append((a.colour, value))
            report["ticket"] = {"colour": a.colour, "value": value}
        elif a.kind == TILE:
            old = self.tile_of(p)
            if old is not None:
                del self._tiles[old[0]]
            self._tiles[a.space] = (p, a.side)
            report["tile"] = {"space": a.space, "side": a.side,
                              "from": None if old is None else old[0]}
        elif a.kind == FINISH:
            self._piles[a.pile].append((p, a.colour))
        elif a.kind == PARTNER:
            self._partners[p] = a.player
            self._partners[a.player] = p
        elif self._reveal(p, a.colour, a.value, a.ink, report) == _LEG_ENDED:
            if not full:
                return report
            report["ranking"] = self.ranking()
            report["coins"] = list(self._coins)
            report["next_player"] = self._turn
            return report
        if not report["race_over"]:
            self._turn = (p + 1) % n
        if not full:
            return report
        report["ranking"] = self.ranking()
        report["coins"] = list(self._coins)
        report["next_player"] = self._turn
        return report

    def _reveal(self, p, die, value, ink, report):
        """Seat ``p``'s pyramid ticket releasing ``die`` (a die inside) showing ``value``
        (1..3; ``ink`` the grey die's numeral colour, else ``None``): the ticket, the
        unit's move and a tile's coin (RULES 1.4, 1.5, 1.7, 3.5, 3.6), then the race's
        end (RULES 1.13) or the leg's (RULES 1.9-1.12), written into ``report``
        (``push``'s dict: its ``move``, and what ``_finish_race`` / ``_end_leg`` add).
        Returns ``_RACE_OVER``, ``_LEG_ENDED`` (the turn is already the new start
        player's) or ``None`` (the turn not yet passed on)."""
        ed = self.edition
        self._pyramid[p] += 1
        self._out.append(die)
        rule = None
        if die == GREY:
            camel, rule = movement.select_crazy(self._stacks, ed.crazy, ink)
        else:
            camel = die
        move = movement.move_unit(self._stacks, self._tiles, camel, value, ed.crazy)
        move["die"] = die
        move["ink"] = ink
        move["value"] = value
        move["rule"] = rule
        tile = move["tile"]
        if tile is not None and tile["owner"] is not None:
            self._coins[tile["owner"]] += 1  # once per landing unit (RULES 1.5)
        report["move"] = move
        if move["crossed"]:
            self._finish_race(report)
            return _RACE_OVER
        if len(self._out) >= DICE_PER_LEG:
            self._end_leg(report, p)
            return _LEG_ENDED
        return None

    def release_to_end(self, rng):
        """Reveal dice until the race is over, each the pyramid ticket of the seat to act
        with its die drawn as ``camelup.randomplay.random_release`` draws it from
        ``rng`` (``XorShift32``: a die uniform among those inside, a face 1-3, the grey
        die's ink): the same game, and the same draws from ``rng``, as ``play(
        random_release(game, rng))`` until ``is_over``, without checking each ticket
        (one is always legal while the race runs, RULES 1.4, 1.7) or making its
        ``Action``. Like ``play``, for a throwaway copy (the coach's play-outs):
        nothing is added to ``history``. A race already over is left as it is.
        Returns ``None``."""
        if self.is_over:
            return
        dice = self.edition.dice
        n = self.players
        report = {}
        while True:
            out = self._out
            die = rng.choice([d for d in dice if d not in out])
            value = 1 + rng.below(3)
            ink = INKS[rng.below(2)] if die == GREY else None
            p = self._turn
            ended = self._reveal(p, die, value, ink, report)
            if ended == _RACE_OVER:
                return
            if ended is None:
                self._turn = (p + 1) % n

    def _score_leg(self, report):
        """Leg scoring (RULES 1.10, 3.8) into the coins and ``report``; returns the
        ranking it scored (``ranking()``)."""
        order = self.ranking()
        breakdown, coins = scoring.score_leg(order, self._held, self._pyramid,
                                             self._partners, self._coins)
        self._coins = coins
        report["leg_scores"] = breakdown
        report["leg_ranking"] = order
        return order

    def _end_leg(self, report, p):
        """Leg scoring and cleanup (RULES 1.9, 1.10, 1.12)."""
        self._score_leg(report)
        report["leg_ended"] = True
        n = self.players
        self._held = [[] for _ in range(n)]
        self._legs = {}
        for c in self.edition.racing:
            self._legs[c] = list(self.edition.leg_values)
        self._pyramid = [0] * n
        self._out = []
        self._tiles = {}
        self._partners = [None] * n
        # The marker goes to the left of whoever revealed the last die of the leg.
        self._start = (p + 1) % n
        self._turn = self._start
        self._leg += 1

    def _finish_race(self, report):
        """Race end: score the unfinished leg, then the winner and loser piles (RULES 1.13)."""
        order = self._score_leg(report)  # scoring moves no camel: the race's ranking
        report["leg_ended"] = True
        report["race_over"] = True
        coins = list(self._coins)
        cards = scoring.score_pile("winner", self._piles["winner"], order[0], coins)
        cards += scoring.score_pile("loser", self._piles["loser"], order[-1], coins)
        self._coins = coins
        final = {"winner": order[0], "loser": order[-1], "cards": cards,
                 "coins": list(coins), "winners": scoring.winners(coins)}
        report["final"] = final
        self.result = final


def parse_position(text):
    """Read a position line (as made by ``Game.position``; docs/notation.md) and return
    its ``Game``.

    Raises ``NotationError`` naming the bad part: unknown section, malformed token, or
    an inconsistent position (camel missing or twice, tickets left that do not match
    tickets held, tiles next to each other, ...).
    """
    edition, players, stacks, fields, pyramid_left = read_position(text)
    game = Game(edition, players, stacks, **fields)
    if pyramid_left is not None and pyramid_left != game.pyramid_tickets_left:
        raise NotationError(Message("pyramid %(pyramid)d does not match %(out)d dice out in "
                                    "position %(position)r",
                                    pyramid=pyramid_left, out=len(fields["out"]), position=text))
    return game
