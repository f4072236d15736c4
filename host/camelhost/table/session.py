"""The table session: a deterministic state machine over journal events.

Everything that can change the game arrives as one *event* (a JSON-able dict, see
``camelhost.table.journal``): a command typed at the table, a die from the pyramid, a
die typed by hand, a bot's choice. ``Session.feed(event)`` checks the event
against the game, applies it, writes it to the journal (``fsync``) and only then
returns the *notices* the display shows. Replaying the journal's events through
the same ``feed`` path (``Session.resume``) rebuilds exactly the same state, so a
crash loses nothing the table has seen.

Bad input never changes anything: ``feed`` and ``command`` raise ``TableError``
(a ``ValueError`` with a one-line message) before touching the game or the journal.

Phases (``Session.phase``):

``setup``  the starting stacks are wanted: typed (``setup 1:blue,green 2:red ...``),
           released die by die (RULES 2.2, 3.2: racing dice, then the grey die for
           black, then for white), or drawn from the seed (``draw``).
``turn``   the current player chooses an action (RULES 1.5-1.8, 3.8).
``die``    a pyramid ticket is taken; the next die completes the action (RULES 1.7).
``ink``    the pyramid could not tell the grey die's numeral ink apart (an ``unknown``
           release whose nearest colour is ``grey-black``/``grey-white``): one key, ``b``
           or ``w`` (RULES 3.5 (c)), or ``again`` to return the dice and release again.
``value``  the die's colour is known but the pyramid reported value ``?``; one key (1-3).
``over``   the race is scored; ``again`` starts another race with the same seats.
``unscored`` the race was ended unscored (board could not be restored, RULES 4).

Notices are dicts with a ``kind``: ``action``, ``die`` (camel, direction, distance:
RULES 5), ``move``, ``leaders`` (first two racing camels), ``dice_left``,
``leg_scored`` (breakdown), ``final`` (piles revealed in play order), ``setup``,
``retry`` (return the dice and release again), ``ask_ink``, ``ask_value``, ``manual`` (type
the die by hand), ``info``.
"""

import camelup
from camelup.editions import get_edition
from camelup.rng import XorShift32

from camelhost.table.journal import FORMAT
from camelhost.table.manual import DieSyntaxError, die_text, match_name, parse_die, parse_value

PHASES = ("setup", "turn", "die", "ink", "value", "over", "unscored")
_REACTIONS = ("double", "nodie", "unknown")
#: ``best`` words of an ``unknown`` release that name the grey die, only its ink unsure.
GREY_BEST = {"grey-black": "black", "grey-white": "white"}
INK_QUESTION = "grey die: black or white numerals? (b/w, or 'again' to release again)"


class TableError(ValueError):
    """Input the table cannot take now; the one-line message says why. Nothing changed."""


def _one_line(exc):
    return " ".join(str(exc).split())


def parse_stacks(text, edition):
    """Parse typed starting stacks ``"1:blue,green 2:red 15:black 16:white"``.

    Spaces 1..16, colours bottom -> top (prefixes allowed). Returns ``{space:
    [colours]}``. Raises ``TableError`` when a camel is missing, repeated or unknown.
    """
    ed = get_edition(edition)
    stacks = {}
    seen = []
    for token in text.replace(";", " ").split():
        if ":" not in token:
            raise TableError("write each space as SPACE:colour,colour (e.g. 1:blue,green), "
                             "not %r" % token)
        space, _, camels = token.partition(":")
        try:
            space = int(space)
        except ValueError:
            raise TableError("%r is not a space number" % space) from None
        if not 1 <= space <= 16:
            raise TableError("space %d is not on the track (1..16)" % space)
        for word in camels.split(","):
            if not word:
                continue
            try:
                colour = match_name(word, ed.camels, "camel of the %s edition" % ed.name)
            except DieSyntaxError as exc:
                raise TableError(str(exc)) from None
            if colour in seen:
                raise TableError("camel %s is placed twice" % colour)
            seen.append(colour)
            stacks.setdefault(space, []).append(colour)
    missing = [c for c in ed.camels if c not in seen]
    if missing:
        raise TableError("setup is missing: %s" % ", ".join(missing))
    return stacks


def _stacks_json(stacks):
    return [[space, list(stacks[space])] for space in sorted(stacks)]


def _stacks_from_json(rows):
    return {int(space): list(camels) for space, camels in rows}


class Session:
    """One table: seats, the current race, the journal.

    ``edition``: ``"classic"``/``"second"``; ``players``: list of names in seat
    order (the first holds the start marker); ``seed``: int for drawn setups and
    bots; ``bots``: seats played by bots; ``journal``: a ``camelhost.table.journal.Journal``
    (a fresh one gets the ``game`` line). Raises ``TableError`` for a player count
    the edition does not allow (RULES 2.1, 3.1).
    """

    def __init__(self, edition, players, seed=1, bots=(), journal=None, _header=True):
        self.edition = get_edition(edition)
        self.names = list(players)
        n = len(self.names)
        if not self.edition.min_players <= n <= self.edition.max_players:
            raise TableError("the %s edition is for %d to %d players, not %d"
                             % (self.edition.name, self.edition.min_players,
                                self.edition.max_players, n))
        if len(set(name.lower() for name in self.names)) != n:
            raise TableError("player names must differ")
        self.seed = int(seed)
        self.bots = sorted(set(int(b) for b in bots))
        self.journal = journal
        self.race_no = 1
        self.scores = []  # final coins of finished races
        self.seen_dice = set()  # (boot, seq) of pyramid events already taken
        self.last_pyramid_event = None  # (boot, seq) of the latest, for the link's resume
        self.version = 0  # grows with every event applied (camelhost.table.view)
        self._reset_race()
        if _header and journal is not None and not journal.events:
            journal.append({"type": "game", "format": FORMAT, "edition": self.edition.name,
                            "players": self.names, "seed": self.seed, "bots": self.bots})

    # -- construction from a journal -----------------------------------------

    @classmethod
    def resume(cls, journal, notices=None):
        """Rebuild the session from an opened journal (``Journal.resume``).

        ``notices``: optional list collecting the notices of the replayed events
        (used by ``pyramid replay``). Raises ``JournalError``-like ``ValueError``
        when an event no longer applies (the file was edited by hand).
        """
        head = journal.events[0]
        s = cls(head["edition"], head["players"], head.get("seed", 1), head.get("bots", ()),
                journal=None, _header=False)
        for i, event in enumerate(journal.events[1:], start=2):
            try:
                out = s._apply(event)
            except (TableError, KeyError, TypeError, ValueError) as exc:
                # a renamed or missing key reads as a one-line refusal, never a traceback
                raise ValueError("%s: event on line %d no longer applies: %s"
                                 % (journal.path, i, exc)) from None
            if notices is not None:
                notices.extend(out)
        s.journal = journal
        return s

    # -- state ----------------------------------------------------------------

    def _reset_race(self):
        self.game = None
        self.phase = "setup"
        self.race_log = []  # events of this race (rebuilt from on undo)
        self.setup_rolls = []  # (colour, value) from dice released at setup
        self.pending_player = None  # seat whose pyramid ticket waits for a die
        self.pending_die = None  # die dict waiting for its value
        self.reports = []  # push reports of this race, in order
        self.result = None  # final report of the race

    @property
    def current(self):
        """Seat whose turn it is (or whose pyramid ticket waits), ``None`` during setup."""
        if self.pending_player is not None:
            return self.pending_player
        return None if self.game is None else self.game.turn

    def is_bot(self, seat):
        return seat in self.bots

    def seat_of(self, name):
        """Seat index of a player named ``name`` (case-free, prefix allowed, or a number)."""
        low = name.lower()
        for i, n in enumerate(self.names):
            if n.lower() == low:
                return i
        hits = [i for i, n in enumerate(self.names) if n.lower().startswith(low)]
        if len(hits) == 1:
            return hits[0]
        if low.isdigit() and 1 <= int(low) <= len(self.names):
            return int(low) - 1
        raise TableError("no player called %r (players: %s)" % (name, ", ".join(self.names)))

    # -- the one entry point for changes --------------------------------------

    def feed(self, event):
        """Check and apply one event, journal it (fsync), return its notices.

        Raises ``TableError`` (nothing changed, nothing written) when the event
        can't be taken now. A pyramid event already taken (same boot id and
        sequence number) is ignored and returns ``[]``.
        """
        key = self._die_key(event)
        if key is not None and key in self.seen_dice:
            return []
        notices = self._apply(event)
        if self.journal is not None:
            try:
                self.journal.append(event)
            except OSError:
                # Not on disk, so not taken: go back to what the journal holds.
                self._reload()
                raise
        return notices

    def _reload(self):
        """Rebuild every race from the journal's events (after a failed write)."""
        events = self.journal.events[1:]
        self.race_no = 1
        self.scores = []
        self.seen_dice = set()
        self.last_pyramid_event = None
        self.version += 1
        self._reset_race()
        for event in events:
            self._apply(event)

    @staticmethod
    def _die_key(event):
        if event.get("boot") is None or event.get("seq") is None:
            return None
        return (event["boot"], event["seq"])

    def _apply(self, event):
        kind = event.get("type")
        handler = getattr(self, "_on_" + str(kind), None)
        if handler is None:
            raise TableError("unknown journal event %r" % (kind,))
        notices = handler(event)
        self.version += 1
        key = self._die_key(event)
        if key is not None:
            self.seen_dice.add(key)
            self.last_pyramid_event = key
        return notices

    # -- typed commands --------------------------------------------------------

    def command(self, text, player=None):
        """Turn one typed command into an event and ``feed`` it; returns notices.

        Commands (see docs/table.md): ``leg red``, ``tile 7 +``, ``cheer 7``,
        ``win red``, ``lose red``, ``partner Ben``, ``pyramid``, a die ``red 2`` /
        ``grey white 3``, a value ``1``-``3``, ``setup 1:blue,green ...``, ``draw``,
        ``fix 7:red,blue``, ``undo``, ``unscored``, ``again``. Raises
        ``TableError`` with a one-line reason for anything else; nothing changes.
        """
        event = self.parse_command(text)
        return self.feed(event)

    def parse_command(self, text):
        """Return the event a typed command stands for (no change). Raises ``TableError``."""
        words = text.strip().split()
        if not words:
            raise TableError("type a command (help lists them)")
        head = words[0].lower()
        rest = " ".join(words[1:])
        if self.phase == "ink" and head not in ("undo", "unscored"):
            return self._parse_ink(text)
        if head == "undo" and not rest:
            return {"type": "undo"}
        if head == "again" and not rest:
            return {"type": "race"}
        if head == "unscored" and not rest:
            return {"type": "unscored"}
        if head == "draw" and not rest:
            return {"type": "setup", "how": "drawn",
                    "stacks": _stacks_json(self._drawn_stacks())}
        if head == "setup":
            return {"type": "setup", "how": "typed",
                    "stacks": _stacks_json(parse_stacks(rest, self.edition.name))}
        if head == "fix":
            return self._parse_fix(rest)
        if self.phase == "value":
            try:
                value = parse_value(text)
            except DieSyntaxError:
                raise TableError("press 1, 2 or 3 for the value of the %s die (or undo)"
                                 % die_text(self.pending_die).rsplit(" ", 1)[0]) from None
            if value is None:
                raise TableError("press 1, 2 or 3 for the value")
            return {"type": "value", "value": value}
        if head in ("pyramid", "p") and not rest:
            return {"type": "pyramid", "player": self.current}
        if head in ("leg", "l", "bet") and len(words) == 2:
            return self._action("leg %s" % self._racing(words[1]))
        if head in ("win", "winner", "w", "lose", "loser") and len(words) == 2:
            pile = "winner" if head.startswith("w") else "loser"
            return self._action("finish %s %s" % (pile, self._racing(words[1])))
        if head == "finish" and len(words) == 3 and words[1].lower() in ("winner", "loser"):
            return self._action("finish %s %s" % (words[1].lower(), self._racing(words[2])))
        if head in ("partner", "partnership") and len(words) == 2:
            return self._action("partner %d" % self.seat_of(words[1]))
        if head in ("tile", "t", "oasis", "mirage", "cheer", "cheering", "boo", "booing"):
            return self._action(self._tile_text(head, words[1:]))
        # anything else must be a typed die
        try:
            die = parse_die(text, self.edition.name, ink_optional=self.phase == "setup")
        except DieSyntaxError as exc:
            first = head
            known = ("leg", "tile", "win", "lose", "partner", "pyramid")
            if any(first.startswith(k[:3]) for k in known) or first.isdigit():
                raise TableError("%r: %s" % (text.strip(), "check the form: 'help' shows "
                                 "every command")) from None
            hits = [d for d in self.edition.dice if d.startswith(first)]
            if len(hits) > 1 and first not in hits:
                raise TableError("%r: ambiguous: %s (type more letters)"
                                 % (text.strip(), " or ".join(hits))) from None
            try:
                match_name(first, self.edition.dice, "colour")
            except DieSyntaxError:
                other = {"blue", "green", "orange", "yellow", "white", "red", "purple",
                         "grey", "gray", "black"}
                if first in other:  # a die of the other edition
                    raise TableError("%r: %r is not a die of the %s edition (dice: %s)"
                                     % (text.strip(), first, self.edition.name,
                                        ", ".join(self.edition.dice))) from None
                raise TableError("unknown command %r (help lists the commands)"
                                 % text.strip()) from None
            raise TableError(_one_line(exc)) from None
        die["type"] = "die"
        if self.phase == "turn":
            die["player"] = self.current
        die["source"] = "typed"
        return die

    def _parse_ink(self, text):
        word = text.strip().lower()
        if word in ("b", "black"):
            return {"type": "ink", "ink": "black"}
        if word in ("w", "white"):
            return {"type": "ink", "ink": "white"}
        if word in ("a", "again"):
            return {"type": "ink", "ink": None, "again": True}
        raise TableError("%r: the grey die's numerals are b (black) or w (white); 'again' "
                         "to release again, 'undo' to take the ticket back" % text.strip())

    def _racing(self, word):
        try:
            return match_name(word, self.edition.racing,
                          "racing camel of the %s edition" % self.edition.name)
        except DieSyntaxError as exc:
            raise TableError(str(exc)) from None

    def _tile_text(self, head, args):
        side = None
        if head in ("oasis", "cheer", "cheering"):
            side = "+"
        elif head in ("mirage", "boo", "booing"):
            side = "-"
        if side is None:
            if len(args) != 2:
                raise TableError("place a tile as 'tile SPACE +' or 'tile SPACE -'")
            space, side = args
            side = {"+": "+", "-": "-", "oasis": "+", "cheering": "+", "cheer": "+",
                    "mirage": "-", "booing": "-", "boo": "-"}.get(side.lower())
            if side is None:
                raise TableError("tile side is + (oasis/cheering) or - (mirage/booing)")
        else:
            if len(args) != 1:
                raise TableError("give the space: '%s 7'" % head)
            space = args[0]
        if not str(space).isdigit():
            raise TableError("%r is not a space number" % (space,))
        return "tile %d %s" % (int(space), side)

    def _action(self, text):
        return {"type": "action", "player": self.current, "action": text}

    def _parse_fix(self, rest):
        if self.game is None:
            raise TableError("nothing to fix before the setup is complete")
        ed = self.edition
        stacks = self.game.stacks
        moved = {}
        for token in rest.split():
            if ":" not in token:
                raise TableError("write the corrected stack as SPACE:colour,colour")
            space, _, camels = token.partition(":")
            if not space.isdigit() or not 1 <= int(space) <= 16:
                raise TableError("%r is not a space on the track" % space)
            row = []
            for word in camels.split(","):
                if word:
                    try:
                        row.append(match_name(word, ed.camels, "camel"))
                    except DieSyntaxError as exc:
                        raise TableError(str(exc)) from None
            moved[int(space)] = row
        if not moved:
            raise TableError("write the corrected stack as SPACE:colour,colour, e.g. "
                             "fix 7:%s,blue" % self.edition.racing[-2])
        named = [c for row in moved.values() for c in row]
        if len(set(named)) != len(named):
            raise TableError("a camel is named twice in the correction")
        new = {}
        for space in stacks:
            keep = [c for c in stacks[space] if c not in named]
            if keep and space not in moved:
                new[space] = keep
        for space, row in moved.items():
            if row:
                new[space] = row
        return {"type": "correction", "stacks": _stacks_json(new)}

    def _drawn_stacks(self):
        if self.phase != "setup":
            raise TableError("the setup is already done")
        return camelup.random_stacks(self.edition, XorShift32(self.seed * 1000 + self.race_no))

    # -- event handlers (same code live and on resume) -------------------------

    def _need(self, *phases):
        if self.phase not in phases:
            raise TableError(self._phase_hint())

    def _phase_hint(self):
        p = self.phase
        if p == "setup":
            return "the setup comes first: release or type each camel's die, 'setup ...' or 'draw'"
        if p == "die":
            return "%s's pyramid ticket waits for its die: release it (or type it, or undo)" \
                % self.names[self.pending_player]
        if p == "ink":
            return INK_QUESTION
        if p == "value":
            return "press 1, 2 or 3 for the value of the %s die" % die_text(
                self.pending_die).rsplit(" ", 1)[0]
        if p == "over":
            return "the race is over: 'again' starts another race with the same seats"
        if p == "unscored":
            return "the race was ended unscored: 'again' starts another race"
        return "it is %s's turn" % self.names[self.current]

    def _on_setup(self, event):
        self._need("setup")
        if self.setup_rolls:
            raise TableError("dice are already being rolled for the setup; go on with them "
                             "or undo")
        stacks = _stacks_from_json(event["stacks"])
        game = self._new_game(stacks, event.get("start", 0))
        self.race_log.append(event)
        return self._started(game, stacks, event.get("how", "typed"))

    def _new_game(self, stacks, start):
        try:
            return camelup.Game(self.edition, len(self.names), stacks, turn=start, start=start)
        except ValueError as exc:
            raise TableError(_one_line(exc)) from None

    def _started(self, game, stacks, how):
        self.game = game
        self.phase = "turn"
        self.setup_rolls = []
        return [{"kind": "setup", "stacks": stacks, "how": how,
                 "race": self.race_no}] + self._turn_notice()

    def _turn_notice(self):
        if self.phase == "turn":
            return [{"kind": "turn", "player": self.game.turn, "leg": self.game.leg}]
        return []

    def _check_turn(self, event):
        if event.get("player") != self.game.turn:
            raise TableError("it is %s's turn" % self.names[self.game.turn])

    def _on_action(self, event):
        self._need("turn")
        self._check_turn(event)
        text = event["action"]
        try:
            action = camelup.parse_action(text)
            if action.kind == "pyramid":
                raise TableError("a pyramid ticket is taken with 'pyramid' and a die")
            report = self.game.push(action)
        except (camelup.IllegalAction, camelup.NotationError) as exc:
            if text.split()[0] == "finish":
                # The engine's reason names the colour of a card already on a pile:
                # hidden until the final reveal (RULES 1.8, 5).
                raise TableError("%s can't play that finish card: each card is played once, "
                                 "on either pile (RULES 1.8)" % self.names[event["player"]]) \
                    from None
            raise TableError(_one_line(exc)) from None
        self.race_log.append(event)
        self.reports.append(report)
        return [{"kind": "action", "player": report["player"], "action": report["action"],
                 "report": report}] + self._turn_notice()

    def _on_pyramid(self, event):
        self._need("turn")
        self._check_turn(event)
        if self.game.pyramid_tickets_left <= 0:
            raise TableError("no pyramid ticket left")
        self.pending_player = self.game.turn
        self.phase = "die"
        self.race_log.append(event)
        return [{"kind": "pyramid", "player": self.pending_player}]

    def _die_action(self, die, value):
        """Canonical pyramid action for ``die`` showing ``value``; raises ``TableError``
        when the game state makes the die impossible (RULES 1.4, 3.4)."""
        colour = die.get("colour")
        if colour not in self.edition.dice:
            raise TableError("%r is not a die of the %s edition" % (colour, self.edition.name))
        if colour not in self.game.dice_in_pyramid():
            raise TableError("the %s die already came out this leg, so it can't be this "
                             "die: check the pyramid and release again" % colour)
        if colour == "grey":
            if die.get("ink") not in ("black", "white"):
                raise TableError("the grey die needs its numeral colour (black or white)")
            text = "pyramid grey %s %s" % (die["ink"], value or 1)
        else:
            text = "pyramid %s %s" % (colour, value or 1)
        try:
            return self.game.check(text)
        except (camelup.IllegalAction, camelup.NotationError) as exc:
            raise TableError(_one_line(exc)) from None

    def _on_die(self, event):
        if self.phase == "setup":
            return self._setup_die(event)
        self._need("turn", "die")
        if self.phase == "turn" and event.get("player") is not None:
            self._check_turn(event)
        value = event.get("value")
        if value not in (None, 1, 2, 3):
            raise TableError("a die shows 1, 2 or 3")
        unsure = self._ink_unsure(event)
        # checks before anything changes (either ink is possible when the ink is unsure)
        self._die_action(dict(event, ink="black") if unsure else event, value)
        # A die released without 'pyramid' first: the current player took a ticket.
        self.pending_player = self.current
        self.race_log.append(event)
        if unsure:
            self.pending_die = dict(event)
            self.phase = "ink"
            return [{"kind": "ask_ink", "player": self.pending_player,
                     "best": GREY_BEST[event["best"]]}]
        if value is None:
            self.pending_die = dict(event)
            self.phase = "value"
            return [{"kind": "ask_value", "player": self.pending_player,
                     "die": die_text(event).rsplit(" ", 1)[0]}]
        return self._move(event, value)

    @staticmethod
    def _ink_unsure(event):
        """A grey die from an ``unknown`` release: colour sure, numeral ink not."""
        return (event.get("colour") == "grey" and event.get("ink") is None
                and event.get("best") in GREY_BEST)

    def _on_ink(self, event):
        """The numeral ink keyed for a grey die the pyramid could not tell apart
        (RULES 3.5 (c)), or ``again``: the dice go back and the ticket already taken
        waits for the next release (seed 001 host remedy)."""
        self._need("ink")
        if event.get("again"):
            self.race_log.pop()  # the unsure die: as if it never came out
            if not (self.race_log and self.race_log[-1]["type"] == "pyramid"):
                self.race_log.append({"type": "pyramid", "player": self.pending_player})
            self.pending_die = None
            self.phase = "die"
            return [{"kind": "retry", "why": "again", "raw": None},
                    {"kind": "pyramid", "player": self.pending_player}]
        ink = event.get("ink")
        if ink not in ("black", "white"):
            raise TableError("the grey die's numerals are black or white")
        die = dict(self.pending_die, ink=ink)
        self._die_action(die, die.get("value"))
        self.race_log.append(event)
        if die.get("value") is None:
            self.pending_die = die
            self.phase = "value"
            return [{"kind": "ask_value", "player": self.pending_player,
                     "die": die_text(die).rsplit(" ", 1)[0]}]
        return self._move(die, die["value"])

    def _on_value(self, event):
        self._need("value")
        value = event.get("value")
        if value not in (1, 2, 3):
            raise TableError("a die shows 1, 2 or 3")
        if self.game is None:  # a setup die
            die = dict(self.pending_die, value=value)
            self.pending_die = None
            self.phase = "setup"
            try:
                notices = self._setup_die(die, log=False)
            except TableError:
                self.pending_die = die
                self.phase = "value"
                raise
            self.race_log.append(event)
            return notices
        self.race_log.append(event)
        return self._move(self.pending_die, value)

    def _move(self, die, value):
        report = self.game.push(self._die_action(die, value))
        self.pending_player = None
        self.pending_die = None
        self.phase = "turn"
        self.reports.append(report)
        notices = [{"kind": "die", "player": report["player"], "move": report["move"],
                    "report": report},
                   {"kind": "leaders", "ranking": report["ranking"]}]
        if report.get("leg_ended"):
            notices.append({"kind": "leg_scored", "scores": report["leg_scores"],
                            "ranking": report["leg_ranking"],
                            "leg": self.game.leg if report.get("race_over")
                            else self.game.leg - 1})
        if report.get("race_over"):
            self.phase = "over"
            self.result = report["final"]
            self.scores.append(list(report["final"]["coins"]))
            notices.append({"kind": "final", "final": report["final"], "race": self.race_no})
        else:
            notices.append({"kind": "dice_left", "dice": list(self.game.dice_in_pyramid()),
                            "new_leg": bool(report.get("leg_ended"))})
            notices += self._turn_notice()
        return notices

    def _setup_die(self, event, log=True):
        """A die released (or typed) at setup places its camel (RULES 2.2, 3.2): a racing
        die on space 1-3 by its value, on top of camels already there; the grey die
        first for black, then for white, on 16/15/14 by its value."""
        colour = event.get("colour")
        value = event.get("value")
        if colour not in self.edition.dice:
            raise TableError("%r is not a die of the %s edition" % (colour, self.edition.name))
        if value not in (None, 1, 2, 3):
            raise TableError("a die shows 1, 2 or 3")
        if colour == "grey":
            done = [c for c, _ in self.setup_rolls if c in self.edition.crazy]
            if len(done) == len(self.edition.crazy):
                raise TableError("both crazy camels are already placed")
            camel = self.edition.crazy[len(done)]
        else:
            if any(c == colour for c, _ in self.setup_rolls):
                raise TableError("the %s camel is already placed: release the other dice"
                                 % colour)
            camel = colour
        if value is None:  # the pyramid has no value buttons: one key gives it
            self.pending_die = dict(event)
            self.phase = "value"
            self.race_log.append(event)
            return [{"kind": "ask_value", "player": None, "die": die_text(event).rsplit(" ", 1)[0]}]
        return self._place(event, camel, value, log)

    def _place(self, event, camel, value, log=True):
        rolls = self.setup_rolls + [(camel, value)]
        placed = [c for c, _ in rolls]
        missing = [c for c in self.edition.camels if c not in placed]
        if missing:
            self.setup_rolls = rolls
            if log:
                self.race_log.append(event)
            return [{"kind": "setup_die", "camel": camel, "value": value, "missing": missing}]
        racing = [r for r in rolls if r[0] in self.edition.racing]
        crazy = [r for r in rolls if r[0] in self.edition.crazy]
        stacks = camelup.setup_stacks(self.edition, racing, crazy)
        game = self._new_game(stacks, 0)
        if log:
            self.race_log.append(event)
        return [{"kind": "setup_die", "camel": camel, "value": value, "missing": []}] + \
            self._started(game, stacks, "dice")

    def _on_rejected(self, event):
        """A release the table can't use (two dice, no die, unknown colour, an impossible
        die): return the dice and release again; the pyramid ticket, once taken, still
        covers that action (seed 001 host remedy)."""
        notices = [{"kind": "retry", "why": event.get("reason") or event.get("kind"),
                    "raw": event.get("raw")}]
        if self.phase == "turn" and self.game.pyramid_tickets_left > 0:
            pending = {"type": "pyramid", "player": self.game.turn}
            notices += self._on_pyramid(pending)
        return notices

    def reject(self, event, reason):
        """Journal a pyramid release that can't be used (``kind`` double / nodie /
        unknown, or an impossible die) and return the notices telling the table to
        return the dice and release again. Never changes the game."""
        record = {"type": "rejected", "kind": event.get("kind"), "reason": reason,
                  "raw": event.get("raw"), "colour": event.get("colour"),
                  "ink": event.get("ink"), "value": event.get("value"),
                  "boot": event.get("boot"), "seq": event.get("seq")}
        return self.feed(record)

    def _on_correction(self, event):
        self._need("turn", "die")
        g = self.game
        stacks = _stacks_from_json(event["stacks"])
        try:
            new = camelup.Game(
                g.edition, g.players, stacks, tiles=g.tiles, turn=g.turn, start=g.start_player,
                coins=g.coins, held=[g.held_tickets(p) for p in range(g.players)],
                pyramid=[g.pyramid_tickets(p) for p in range(g.players)], out=g.dice_out,
                partners=[g.partner_of(p) for p in range(g.players)],
                winner_pile=g.pile("winner"), loser_pile=g.pile("loser"), leg=g.leg)
        except ValueError as exc:
            raise TableError(_one_line(exc)) from None
        self.game = new
        self.race_log.append(event)
        return [{"kind": "correction", "stacks": stacks},
                {"kind": "leaders", "ranking": new.ranking()}]

    def _on_undo(self, event):
        """Take back the last action of this race: a whole pyramid action (ticket, die
        and value), an action, a correction, an unscored end or a setup step."""
        log = list(self.race_log)
        if not log:
            raise TableError("nothing to undo in this race")
        last = log.pop()
        keyed = {}  # a value and/or a grey die's ink keyed after the die
        while last["type"] in ("value", "ink") and log:
            keyed.setdefault(last["type"], last.get(last["type"]))
            last = log.pop()
        if keyed:
            last = dict(last, **keyed)
        holder = last.get("player")
        if last["type"] == "die" and log and log[-1]["type"] == "pyramid":
            holder = log.pop().get("player")
        self._rebuild(log)
        setup_die = last["type"] == "die" and self.game is None
        if last["type"] == "die" and not setup_die and holder is None:
            holder = self.game.turn  # a die released without 'pyramid' first
        if holder is not None:
            last = dict(last, player=holder)
        return [{"kind": "info", "text": "undone: %s" % self._describe(last, setup_die)}] + \
            self._turn_notice()

    def _describe(self, event, setup_die=False):
        """What ``undo`` took back, in words. A finish card's colour stays hidden until
        the final reveal (RULES 1.8, 5)."""
        t = event.get("type")
        who = self.names[event["player"]] if event.get("player") is not None else None
        if t == "action":
            words = event["action"].split()
            if words[0] == "finish":
                return "%s's finish card on the %s pile" % (who, words[1])
            return "%s's %s" % (who, event["action"]) if who else event["action"]
        if t == "die" and setup_die:
            return "the setup die %s" % die_text(event)
        if t == "die":
            return "%s pyramid ticket and its die %s" % (
                "%s's" % who if who else "the", die_text(event))
        if t == "pyramid":
            return "%s's pyramid ticket (no die had come out yet)" % who
        if t == "correction":
            return "the board correction"
        if t == "setup":
            return "the setup"
        if t == "unscored":
            return "the unscored end of the race"
        return t

    def _rebuild(self, log):
        """Replay this race's events ``log`` from a fresh race (no journal writes)."""
        race_no = self.race_no
        scores = self.scores[:race_no - 1]
        self._reset_race()
        self.race_no = race_no
        self.scores = scores
        for ev in log:
            self._apply(ev)

    def _on_unscored(self, event):
        self._need("turn", "die", "ink", "value")
        self.phase = "unscored"
        self.pending_player = None
        self.pending_die = None
        self.race_log.append(event)
        return [{"kind": "unscored", "race": self.race_no}]

    def _on_race(self, event):
        if self.phase not in ("over", "unscored"):
            raise TableError("this race is still on: 'again' comes after its end "
                             "(or after 'unscored')")
        self.race_no += 1
        self._reset_race()
        return [{"kind": "new_race", "race": self.race_no}]

    # -- what the display shows -------------------------------------------------

    def view(self):
        """A snapshot of every public fact for the display (RULES 5), as a dict:

        ``edition``, ``race``, ``leg``, ``phase``, ``current`` (seat or None),
        ``names``, ``stacks`` ``{space: [bottom..top]}``, ``tiles`` ``{space: (seat,
        side)}``, ``dice_out`` (die names this leg), ``dice_inside``,
        ``leg_tickets`` ``{colour: [values top first]}``, ``pyramid_tickets``,
        ``players``: per seat ``{"name", "coins", "leg_tickets" [(colour, value)],
        "pyramid_tickets", "tile", "partner", "cards_in_hand", "bot"}``,
        ``piles`` ``{"winner": n, "loser": n}`` (sizes only), ``ranking``,
        ``leg_now``: per seat, what leg scoring would pay now (empty when the race is over).
        Before the setup is complete, the game fields are empty.
        """
        g = self.game
        view = {"edition": self.edition.name, "race": self.race_no, "phase": self.phase,
                "names": list(self.names), "current": self.current, "setup_rolls":
                list(self.setup_rolls), "pending_die": self.pending_die}
        if g is None:
            view.update(leg=0, stacks={}, tiles={}, dice_out=[], dice_inside=[],
                        leg_tickets={}, pyramid_tickets=0, ranking=[], leg_now=[],
                        piles={"winner": 0, "loser": 0},
                        players=[{"name": n, "coins": 3, "leg_tickets": [],
                                  "pyramid_tickets": 0, "tile": None, "partner": None,
                                  "cards_in_hand": len(self.edition.racing),
                                  "bot": i in self.bots} for i, n in enumerate(self.names)])
            return view
        view.update(
            leg=g.leg, stacks=g.stacks, tiles=g.tiles, dice_out=list(g.dice_out),
            dice_inside=list(g.dice_in_pyramid()),
            leg_tickets={c: list(g.leg_tickets_left(c)) for c in self.edition.racing},
            pyramid_tickets=g.pyramid_tickets_left, ranking=g.ranking(),
            piles={"winner": len(g.pile("winner")), "loser": len(g.pile("loser"))},
            leg_now=[row["net"] for row in g.leg_scores_now()]
            if hasattr(g, "leg_scores_now") and self.phase not in ("over", "unscored") else [],
            players=[{"name": n, "coins": g.coins[i], "leg_tickets": list(g.held_tickets(i)),
                      "pyramid_tickets": g.pyramid_tickets(i), "tile": g.tile_of(i),
                      "partner": g.partner_of(i),
                      "cards_in_hand": len(g.finish_cards_in_hand(i)),
                      "bot": i in self.bots} for i, n in enumerate(self.names)])
        return view

