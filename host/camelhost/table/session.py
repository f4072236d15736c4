"""The table session: a deterministic state machine over journal events.

Everything that can change the game arrives as one *event*, a typed value of
``camelhost.table.events`` (or its journal line, a JSON-able dict, which is read
through ``events.from_json``): a command typed at the table, a die from the pyramid
(``events.from_link``), a die typed by hand, a bot's choice. ``Session.feed(event)``
checks the event against the game, applies it, writes its journal line to the journal
(``fsync``) and only then returns the *notices* the display shows. Applying the journal's events through
the same handlers (``Session.from_events``, ``Session.resume``) rebuilds exactly the
same state, so a crash loses nothing the table has seen.

This module is only the state machine. Typed text becomes events in
``camelhost.table.parser``; notices become words in ``camelhost.table.narration``;
what the screens show is ``camelhost.table.view.table_view``. A die reaches the game
as its action: ``events.Die.action()`` (``camelup.actions.Action.pyramid(colour, value, ink)``)
to ``Game.push``, which is its one legality check (``Game.check`` for a die whose ink
or value is still to be keyed). ``undo`` takes back the last *step* of the race (a pyramid
ticket with its die and any key pressed for it, an action, a setup die, a
correction...): each step keeps a mark of the session before it, and the game goes
back to the mark through ``Game.pop``; nothing is replayed. With bots, a typed ``undo``
takes back the bots' steps since a player's last step too (``Session.undo_steps``).
``redo`` applies what the last undo took back again, its events through the same
handlers (``Session.undone``), until any new step empties it.

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
``over``   the race is scored; ``again`` starts another race with the same seats,
           begun by the seat the start marker passed to (``next_race_start``); ``undo``
           before anything else of the new race brings the race before back, as it ended.
``unscored`` the race was ended unscored (the board could not be restored).

Notices are dicts with a ``kind``: ``action``, ``die`` (camel, direction, distance:
RULES 5), ``move``, ``leaders`` (first two racing camels), ``dice_left``,
``leg_scored`` (breakdown), ``final`` (piles revealed in play order), ``setup``,
``retry`` (return the dice and release again), ``ask_ink``, ``ask_value``, ``manual`` (type
the die by hand), ``info``.
"""

import re
import unicodedata

from camelup.actions import parse_action
from camelup.editions import EDITIONS, get_edition
from camelup.errors import IllegalAction, Message, NotationError
from camelup.game import Game, check_start, setup_stacks
from rich.cells import cell_len

from camelhost.i18n import N_, _, colour_word, edition_word
from camelhost.table import events as ev
from camelhost.table import narration
from camelhost.table.errors import TableError, one_line
from camelhost.table.journal import FORMAT
from camelhost.table.manual import die_text
from camelhost.table.parser import in_own_words, parse_command, seat_of, stacks_from_json

__all__ = ["Session", "StaleEvent", "TableError", "GREY_BEST", "INK_QUESTION", "PHASES"]


class StaleEvent(ValueError):
    """A journal event that no longer applies to the game its earlier lines make (lines
    swapped, duplicated or edited with a new checksum): ``line`` (1-based line of the
    journal) and ``reason`` (one line, why not)."""

    def __init__(self, path, line, reason):
        super().__init__(_("%(path)s: event on line %(line)d no longer applies: %(reason)s")
                         % {"path": path or _("journal"), "line": line, "reason": reason})
        self.line = line
        self.reason = reason

PHASES = ("setup", "turn", "die", "ink", "value", "over", "unscored")
#: The kinds of the pyramid's events that bring no die, journaled only for the record
#: (``Session.dieless``): a sensor fault, events the pyramid lost. (Events another
#: table took, ``foreign``, are never journaled: nothing of them is this game's.)
DIELESS = ("fault", "gap")
#: The ``rejected`` kind of a release of the virtual pyramid that came after the table
#: moved on from its push (``late``, ``Session.late``): said, its dice put back, nothing
#: changed; journaled so that a resume finds what the table said.
LATE = "late"
#: ``best`` words of an ``unknown`` release that name the grey die, only its ink unsure.
GREY_BEST = ev.GREY_BEST
INK_QUESTION = narration.INK_QUESTION
#: ``dice_moves`` with nothing to move: an undo's or redo's words without the pyramid's
#: dice, the ``replayed`` words of its notice (a replay's watchers hold no pyramid).
NO_DICE = {"back": [], "out": [], "stay": []}


class _Step:
    """One undoable step of a race: the events it took (typed, ``camelhost.table.events``:
    a pyramid ticket, its die, the
    value keyed for it...), the session as it was before it (``mark``), and ``bot``:
    True when a bot's seat took it (an action, a pyramid ticket or a die on a bot's
    turn), False for a player's step and for what the table typed (a setup, a
    correction, an unscored end)."""

    def __init__(self, mark, event, bot=False):
        self.mark = mark
        self.events = [event]
        self.bot = bot


#: The longest name a player is given (``--players``, a typed ``rename``), in terminal
#: columns (``name_columns``: a wide character such as 山 or an emoji takes 2): the turn
#: prompt, the line the screens keep on one row to say who acts,
#: then fits an 80-column terminal in every language the table speaks (its longest,
#: German with partnerships: ``> NAME ist am Zug (leg / tile / win / lose / partner /
#: pyramid)``, 59 columns besides the name); a first name and a short family name fit
#: (docs/table.md, "Players' names").
NAME_MAX = 20
#: A name written as a seat is: the notation's ``p0``, ``p1``, ... or a seat's number
#: (``partner 2``), letter case aside.
SEAT_LIKE = re.compile(r"^p?\d+$", re.IGNORECASE)


def player_name(text):
    """``text`` (a string) as a player's name is kept and compared: in Unicode's
    composed form (NFC: ``Zoë`` typed with its one letter and pasted as ``e`` and a
    combining diaeresis are one name), runs of white space one space, stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


#: The quotation marks a name may be given in (``typed_name``), by kind, double and
#: single, straight and typographic: a pair of one kind around the whole name is no
#: part of it (``"Ben Jr"``, ``“Ben Jr”``, ``„Ben Jr“``, ``«Ben Jr»``, ``'Ben Jr'``).
NAME_QUOTES = ('"\u201c\u201d\u201e\u00ab\u00bb', "'\u2018\u2019\u201a\u2039\u203a")


def typed_name(text):
    """``text`` (a string: a name as ``--players`` or a typed ``rename`` gives it) as the
    player's name it gives: its ``player_name``, without one pair of quotation marks
    around the whole of it (``NAME_QUOTES``: ``"Ben Jr"`` and ``„Ben Jr“`` give ``Ben
    Jr``, ``" "`` an empty name, a lone ``"`` stays); a string. Only names given anew
    are read so; a journal's names are kept as they were written."""
    name = player_name(text)
    if len(name) >= 2 and any(name[0] in kind and name[-1] in kind for kind in NAME_QUOTES):
        name = player_name(name[1:-1])
    return name


def typed_names(text):
    """``text`` (a string: names separated by commas, as ``--players`` and ``--bots``
    give them) as the names it gives, a list of strings, each as ``typed_name`` reads
    it. Quotation marks are read before the commas: a name that begins with one of
    ``NAME_QUOTES`` runs to a mark of that kind followed by a comma or the end, commas
    inside it included, so ``"Ann, Ben",Cy`` is two names, not ``"Ann``, ``Ben"`` and
    ``Cy``; a mark never closed so is a character of the name (``O'Brien``, a lone
    ``"``). Raises ``TableError`` (``comma_problem``'s line) when a name holds a comma:
    a name holds none, even quoted, as in a ``rename``."""
    names, pos = [], 0
    while True:
        start = len(text) - len(text[pos:].lstrip())
        end = text.find(",", pos)
        first = text[start:start + 1]  # "" at the end: no mark
        kind = next((k for k in NAME_QUOTES if first and first in k), None)
        if kind is not None:
            closed = re.compile(r"[%s]\s*(,|\Z)" % re.escape(kind)).search(text, start + 1)
            if closed is not None:
                end = closed.start(1)
        if end == -1 or end >= len(text):
            names.append(typed_name(text[pos:]))
            break
        names.append(typed_name(text[pos:end]))
        pos = end + 1
    for name in names:
        if comma_problem(name) is not None:
            raise TableError(comma_problem(name))
    return names


def comma_problem(name):
    """Why ``name`` (a string) can't be a player's name for a comma it holds, one line,
    or ``None`` when it holds none: commas separate the names of ``--players``, and the
    journal's resume line and rebuild give the names so (``typed_names``,
    ``new_name_problem``, a ``rename``)."""
    if "," in name:
        return _("a name holds no comma (commas separate the names of --players)")
    return None


def check_names(edition, names):
    """The players' names ``names`` (a list of strings, seat order) checked for a table
    of the ``edition`` (``"classic"``/``"second"``); returns them as a new list, each
    as ``player_name`` keeps it (NFC).

    Raises ``TableError`` (one line naming what is wrong) for an empty name, a name
    given twice (letter case and Unicode form aside), or a player count the edition
    does not allow (RULES 2.1, 3.1)."""
    ed = get_edition(edition)
    names = list(names)
    n = len(names)
    for i in range(n):
        if not isinstance(names[i], str) or not names[i].strip():
            raise TableError(_("player name %(name)d of %(names)d is empty: give every player "
                               "a name, e.g. Ann,Ben,Cy") % {"name": i + 1, "names": n})
    names = [player_name(name) for name in names]
    seen = {}
    for name in names:
        if name.lower() in seen:
            raise TableError(_("player names must differ: %s is given twice") % name)
        seen[name.lower()] = True
    if not ed.min_players <= n <= ed.max_players:
        raise TableError(_("the %(edition)s edition is for %(fewest)d to %(most)d players, not "
                           "%(players)d") % {"edition": edition_word(ed),
                                             "fewest": ed.min_players, "most": ed.max_players,
                                             "players": n})
    return names



def name_columns(name):
    """The terminal columns ``name`` (a string) takes on a screen, an int >= 0: an East
    Asian wide or fullwidth character (``山``, ``Ａ``) and an emoji 2, a combining mark
    0, any other character 1 (Unicode's East Asian Width, UAX #11), measured as the full
    screen measures its text (Rich's ``cell_len``)."""
    return cell_len(name)


def new_name_problem(name, taken=()):
    """Why ``name`` (a string) can't be given to a player at a new table or in a typed
    ``rename`` (as ``typed_name`` reads it: its quotation marks are no part of it), one
    line, or ``None`` when it can: empty, with no letter or digit (``?!``, a lone ``"``:
    nothing to call a player by), with a comma (``comma_problem``), wider than ``NAME_MAX`` columns
    (``name_columns`` of the name as ``player_name`` keeps it: ``山田太郎山田太郎山田太郎``
    is 12 characters in 24 columns), written as a seat (``p1``, ``2``: ``pyramid odds
    --turn p1`` and ``partner 2`` would read it as the seat), or a word some table reads
    as a colour or a command (``reserved_name_problem``). ``taken``: the other players'
    names, which the variant a refusal offers is none of. Journals that already hold such
    a name are read as they are."""
    name = player_name(name)
    if not name:
        return _("the name is empty: give a name with a letter or a digit")
    if not any(c.isalnum() for c in name):
        return _("a name needs a letter or a digit, and %s has none") % name
    if comma_problem(name) is not None:
        return comma_problem(name)
    if name_columns(name) > NAME_MAX:
        return _("a name takes at most %(most)d columns on a screen (a wide character such as "
                 "山 takes 2), so that the screens show it whole where they name the player "
                 "to act, and %(name)s takes %(columns)d: give a shorter one") % {
                     "most": NAME_MAX, "name": name, "columns": name_columns(name)}
    if SEAT_LIKE.match(name):
        return seat_like_problem(name)
    return reserved_name_problem(name, taken)


def seat_like_problem(name):
    """The refusal of ``name`` written as a seat is (``SEAT_LIKE``: ``p1``, ``2``), one
    line (``--players`` of ``pyramid play`` and ``pyramid odds``, a typed ``rename``)."""
    return _("%s is written as a seat is (p0, p1, ... or a seat's number), and a player "
             "called so would be taken for that seat: give another name") % name


#: Where a language's table reads a word, by the language's code (``reserved_word``'s
#: ``lang``), said in a refusal of a player's name; ``None``: every table.
TABLE_OF_LANGUAGE = {None: N_("at every table"), "de": N_("at a German table")}


def reserved_name_problem(name, taken=()):
    """Why ``name`` (a player's name, a string) can't be a player's name at a new table or
    in a ``rename``, one line, or ``None`` when it can: the whole name is a word some
    table reads as a camel's or die's colour or as a command, in any language the table
    speaks (``camelhost.table.parser.reserved_word``: ``red``, ``undo``, German ``Lila``,
    ``gruen``, ``hilfe``), letter case aside. One rule for every table, so that a journal
    reads the same in every language: a game begun in English and resumed in German
    would read "Lila ist am Zug" of a camel's colour (tester s35 findings 1 and 6). The
    line names the clash, where it reads so, and a variant to give instead, one of no
    name in ``taken`` (``reserved_variant``). Journals that already hold such a name are
    read as they are: only ``--players`` and a typed ``rename`` ask it."""
    from camelhost.table.parser import reserved_word
    name = player_name(name)
    clash = reserved_word(name)
    if clash is None:
        return None
    kind, meaning, lang = clash
    where = _(TABLE_OF_LANGUAGE[lang]) if lang in TABLE_OF_LANGUAGE else lang
    said = {"name": name, "where": where, "variant": reserved_variant(name, taken)}
    if kind == "command":
        return _("%(name)s is the command %(command)s %(where)s, and a player called so would "
                 "read as the command: choose another name, e.g. %(variant)s") % dict(
                     said, command=meaning)
    if any(meaning in ed.camels for ed in EDITIONS.values()):
        return _("%(name)s is the %(colour)s camel's word %(where)s, and a player called so "
                 "would read as the camel: choose another name, e.g. %(variant)s") % dict(
                     said, colour=colour_word(meaning))
    return _("%(name)s is the %(colour)s die's word %(where)s, and a player called so would "
             "read as the die: choose another name, e.g. %(variant)s") % dict(
                 said, colour=colour_word(meaning))


def reserved_variant(name, taken=()):
    """A name to offer instead of ``name`` (a command or colour word): the name with an
    initial, ``Lila A.``, the first letter that makes one of no name in ``taken``
    (letter case aside)."""
    used = set(n.lower() for n in taken)
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        variant = "%s %s." % (name, letter)
        if variant.lower() not in used:
            return variant
    return name + " 1."


def dice_typed(head):
    """True when the journal's ``game`` line ``head`` says the dice were typed at the
    table (``--pyramid manual``): prompts and hints then ask to type the die."""
    return head.get("pyramid") == "manual"


def dice_back_by_hand(head):
    """True when the journal's ``game`` line ``head`` names a pyramid that reports its
    dice and has them put back by hand (a port, ``auto``; a line from before the field
    was written): not the virtual pyramid (it puts them back itself), not typed dice."""
    return head.get("pyramid") not in ("virtual", "manual")

class Session:
    """One table: seats, the current race, the journal.

    ``edition``: ``"classic"``/``"second"``; ``players``: list of names in seat
    order (the first holds the start marker); ``seed``: int for drawn setups and
    bots; ``bots``: seats played by bots; ``journal``: a ``camelhost.table.journal.Journal``
    (a fresh one gets the ``game`` line). Raises ``TableError`` for a player count
    the edition does not allow (RULES 2.1, 3.1).

    Public state (read it, don't set it): ``edition``, ``names``, ``seed``, ``bots``,
    ``race_no``, ``phase``, ``game`` (``camelup.game.Game`` or ``None`` at setup),
    ``current``, ``setup_rolls``, ``pending_die``, ``reports`` (``Game.push`` reports
    of this race), ``result`` (final report), ``scores``, ``version``,
    ``last_pyramid_event``, ``race_start`` (the seat that starts this race), ``undone``
    (what each undo took back, for ``redo``), ``draws``
    (drawn setups taken this race, undone ones too: ``draw`` draws anew). What the screens show: ``camelhost.table.view``.
    ``dice_typed``: True when the dice are typed at the table (no pyramid:
    ``--pyramid manual``), so hints ask to type the die rather than release it; the
    table that drives the session sets it (``camelhost.table.controller.Table``),
    default False.
    """

    def __init__(self, edition, players, seed=1, bots=(), journal=None):
        self.edition = get_edition(edition)
        self.names = check_names(self.edition.name, players)
        self.seed = int(seed)
        self.bots = sorted(set(int(b) for b in bots))
        self.journal = journal
        self.race_no = 1
        self.scores = []  # final coins of finished races
        self.last_pyramid_event = None  # (boot, seq) of the latest, for the link's resume
        #: the journal's ``board`` line (``events.Board``): the pyramid the game took its
        #: dice from, or ``None`` (typed dice, an older journal, none came yet)
        self.board = None
        self.version = 0  # grows with every event applied (camelhost.table.view)
        self.dice_typed = False
        #: True when people put the dice back into a pyramid that reports them (a real
        #: or emulated board; set by ``camelhost.table.controller.Table``): the table
        #: then says to (a new leg; the grey die at setup). The virtual pyramid puts
        #: its dice back itself; typed dice need no pyramid.
        self.dice_back_by_hand = False
        #: the seat that starts the current race: the first seat in race 1, then the
        #: seat the start marker passed to at the end of the race before (RULES 1.12)
        self.race_start = 0
        #: what each ``undo`` took back, newest last (a list of its steps' events, oldest
        #: step first): ``redo`` applies the last again; any new step empties it
        self.undone = []
        #: the renames journaled since the last other event, oldest first, each
        #: ``(old name, new name)``: an ``undo`` right after them says they stay
        #: (``rename_notes``), a rename being no step of the race
        self.renames_since = []
        #: the watchers' words of the last ``undo`` or ``redo`` (the web page's notice),
        #: a function of the players' names giving ``(brief, replayed)``, while only
        #: renames came since (and no resume), else ``None``: a rename says them again
        #: in the new name (its notice's ``undo``), as the notice stays until the next
        #: action (docs/web.md; tester s40 finding 14)
        self._undo_said = None
        self._redoing = False  # a redo applies its events: they empty nothing
        #: the table's language the journal last records (its ``game`` line's ``lang``,
        #: then each ``lang`` line's), or ``None`` (no journal, an older one without it)
        self.lang = None
        self._reset_race()
        if journal is not None and not journal.events:
            journal.append(self.header())
        if journal is not None and journal.header is not None:
            self.dice_typed = dice_typed(journal.header)  # as a resume reads it
            self.dice_back_by_hand = dice_back_by_hand(journal.header)
            self.lang = journal.header.get("lang")

    def header(self):
        """The journal's ``game`` line for this table."""
        return {"type": "game", "format": FORMAT, "edition": self.edition.name,
                "players": self.names, "seed": self.seed, "bots": self.bots}

    # -- construction from events ----------------------------------------------

    @classmethod
    def from_events(cls, events, path=None, each=None):
        """Rebuild a session (without a journal) from a journal's ``events`` (the
        ``game`` line first). ``each(event, notices, session)``, when given, is called
        after every event (``pyramid replay`` shows each notice with the state it
        left). Raises ``StaleEvent`` (a ``ValueError``) naming the line of an event that
        no longer applies (the file was edited by hand), ``ValueError`` for an unusable
        ``game`` line; ``path`` names the file in it."""
        if not events or events[0].get("type") != "game":
            raise ValueError(_("%s: not a game journal") % (path or _("journal")))
        head = events[0]
        try:
            s = cls(head["edition"], head["players"], head.get("seed", 1), head.get("bots", ()))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(_("%(path)s: line 1 is not a usable game line: %(reason)s")
                             % {"path": path or _("journal"), "reason": one_line(exc)}) from None
        s.dice_typed = dice_typed(head)
        s.dice_back_by_hand = dice_back_by_hand(head)
        s.lang = head.get("lang")
        for i, event in enumerate(events[1:], start=2):
            try:
                notices = s._apply(event)
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                # a renamed or missing key reads as a one-line refusal, never a traceback
                raise StaleEvent(path, i, one_line(exc)) from None
            if each is not None:
                each(event, notices, s)
        return s

    @classmethod
    def stale_line(cls, events, built=None):
        """``None`` when every event of a journal's ``events`` applies, else ``(line,
        reason)`` of the first that no longer does: the ``check`` of
        ``camelhost.table.journal.read_events`` and ``Journal.resume``, so that
        ``--upto-damage`` (and ``pyramid replay``) stop there. Raises ``ValueError``
        for an unusable ``game`` line. ``built``: a list that gets ``(events, session)``
        when every event applies, the session they rebuilt (``from_events``), so that a
        caller that wants it too need not replay them again."""
        try:
            session = cls.from_events(events)
        except StaleEvent as exc:
            return exc.line, exc.reason
        if built is not None:
            built.append((events, session))
        return None

    @classmethod
    def resume(cls, journal, notices=None):
        """Rebuild the session from an opened journal (``Journal.resume``) and go on
        writing to it. ``notices``: optional list collecting the replayed notices.
        Raises ``ValueError`` when an event no longer applies."""
        each = None if notices is None else (lambda ev, out, s: notices.extend(out))
        s = cls.from_events(journal.events, journal.path, each)
        s.journal = journal
        s._undo_said = None  # a resumed table's page shows no undo: a rename keeps none
        return s

    # -- state ----------------------------------------------------------------

    def _reset_race(self):
        self.game = None
        self.phase = "setup"
        self.steps = []  # undoable steps of this race (``_Step``)
        self.setup_rolls = []  # (colour, value) from dice released at setup
        self.pending_player = None  # seat whose pyramid ticket waits for a die
        self._pending = None  # the ``events.Die`` waiting for its ink or value
        self.reports = []  # push reports of this race, in order
        self.result = None  # final report of the race
        self.draws = 0  # drawn setups taken this race, undone or not (``draw`` draws anew)

    def _mark(self):
        """What undo restores: the session's fields and the game's history length."""
        g = self.game
        return {"game": g, "history": len(g.history) if g is not None else 0,
                "phase": self.phase, "pending_player": self.pending_player,
                "pending_die": self._pending, "setup_rolls": list(self.setup_rolls),
                "reports": len(self.reports), "result": self.result,
                "scores": len(self.scores), "current": self.current}

    #: what ``again`` leaves behind, kept so that ``undo`` can bring the race back
    _RACE_FIELDS = ("game", "phase", "steps", "setup_rolls", "pending_player", "_pending",
                    "reports", "result", "race_no", "race_start", "draws")

    def _restore(self, mark):
        if "race" in mark:  # the race before 'again', as it ended
            self.__dict__.update(mark["race"])
            return
        g = mark["game"]
        if g is not None:
            while len(g.history) > mark["history"]:
                g.pop()
        self.game = g
        self.phase = mark["phase"]
        self.pending_player = mark["pending_player"]
        self._pending = mark["pending_die"]
        self.setup_rolls = mark["setup_rolls"]
        del self.reports[mark["reports"]:]
        self.result = mark["result"]
        del self.scores[mark["scores"]:]

    @property
    def pending_die(self):
        """The die waiting for its ink or value as its journal form (a dict: ``colour``,
        ``ink``, ``value``...), else ``None``."""
        return None if self._pending is None else self._pending.to_json()

    def _begin(self, mark, event):
        seat = getattr(event, "player", None)
        if seat is None:
            seat = mark["current"]
        bot = (event.TYPE in ("action", "pyramid", "die") and seat is not None
               and self.is_bot(seat))
        self.steps.append(_Step(mark, event, bot))
        if not self._redoing:  # a new step: what was undone can't be redone any more
            self.undone = []

    def undo_steps(self):
        """How many steps a typed ``undo`` takes back now: the last step of a player
        (or of the table: a setup, a correction) and every bot step after it, so the
        table is back at that player's turn and the bots don't play again until the
        player acts (without bots: the last step). 0 when the race has none."""
        count = 0
        for step in reversed(self.steps):
            count += 1
            if not step.bot:
                break
        return count

    def _continue(self, event):
        self.steps[-1].events.append(event)

    def _after_correction(self):
        """True when a pyramid ticket waits for its die and the last step is a board
        correction typed since the ticket (the die then starts a step of its own)."""
        return (self.phase == "die" and bool(self.steps)
                and self.steps[-1].events[0].TYPE == "correction")

    @property
    def current(self):
        """Seat whose turn it is (or whose pyramid ticket waits), ``None`` during setup."""
        if self.pending_player is not None:
            return self.pending_player
        return None if self.game is None else self.game.turn

    def is_bot(self, seat):
        return seat in self.bots

    def no_finish_card_left(self, seat=None):
        """The one-line refusal of a finish card for ``seat`` (default: the player to
        act) when that player has laid all of theirs (RULES 1.8), else ``None``. Public:
        the piles show who laid each card, only the colours are hidden."""
        seat = self.current if seat is None else seat
        if self.game is None or seat is None or self.game.finish_cards_in_hand(seat):
            return None
        count = len(self.edition.racing)
        return _("%(player)s has laid all %(count)s finish cards: none is left to play "
                 "(RULES 1.8)") % {"player": self.names[seat],
                                   "count": {5: _("five")}.get(count, str(count))}

    def next_race_start(self):
        """The seat that starts the next race once this one is over: the start marker
        passes on as at any leg end (RULES 1.12), to the left of the player whose die
        ended the race; after an unscored end, whoever holds the marker. ``None``
        while the race is on."""
        if self.phase == "over" and self.reports:
            return (self.reports[-1]["player"] + 1) % len(self.names)
        if self.phase == "unscored":
            return self.game.start_player if self.game is not None else self.race_start
        return None

    def seat_of(self, name):
        """Seat index of a player named ``name`` (case-free, prefix allowed, or a number)."""
        return seat_of(self.names, name)

    # -- the one entry point for changes --------------------------------------

    def feed(self, event):
        """Check and apply one event, journal it (fsync), return its notices.

        ``event``: a table event (``camelhost.table.events``: a ``Die`` from
        ``events.from_link``...) or its journal form (a dict, as the parser makes).
        Raises ``TableError`` (nothing changed, nothing written) when the event can't
        be taken now. A die from the pyramid comes once: the link de-duplicates on
        (boot, seq) (``camelhost.device.link``), told where the journal ends on resume.
        """
        if isinstance(event, dict) and event.get("type") in ("action", "pyramid") \
                and event.get("player") is None:
            # a player's command while it is nobody's turn (the setup, a race over):
            # what the table waits for, not the shape of a seat
            self._need("turn")
        event = _typed(event)
        notices = self._apply(event)
        if self.journal is not None:
            try:
                self.journal.append(event.to_json())
            except OSError:
                # Not on disk, so not taken: go back to what the journal holds.
                self._reload()
                raise
        return notices

    def apply(self, event):
        """Check and apply one event (typed, or its journal form) *without* journaling
        it (a replay); returns its notices. Raises ``TableError``."""
        return self._apply(_typed(event))

    def _reload(self):
        """Become the session the journal's events make (after a failed write)."""
        again = Session.from_events(self.journal.events, self.journal.path)
        version = self.version
        journal = self.journal
        self.__dict__.update(again.__dict__)
        self.journal = journal
        self.version = version + 1

    def _apply(self, event):
        event = _typed(event)
        notices = self._HANDLERS[event.TYPE](self, event)
        if event.TYPE == "rename":
            self.renames_since.append((notices[0]["old"], notices[0]["new"]))
            if self._undo_said is not None:  # the undo's words stand: in the new name
                brief, replayed = self._undo_said(self.names)
                notices = [dict(notices[0], undo={"brief": brief, "replayed": replayed})]
        elif event.TYPE != "lang":  # the language journaled at a resume: no event of play
            self.renames_since = []
            if event.TYPE not in ("undo", "redo"):  # they set their own words
                self._undo_said = None
        self.version += 1
        key = getattr(event, "key", None)
        if key is not None:
            self.last_pyramid_event = key
        return notices

    # -- typed commands --------------------------------------------------------

    def command(self, text):
        """Turn one typed command into an event (``camelhost.table.parser``) and
        ``feed`` it; returns notices. Raises ``TableError``; nothing changes then."""
        event = self.parse_command(text)
        if isinstance(event, dict) and "player" in event and event["player"] is None:
            # a player's command while no player is to act (the setup, the race over):
            # what the table waits for, not the event's missing seat
            raise TableError(in_own_words(narration.phase_hint(self), text, event))
        try:
            return self.feed(event)
        except TableError as exc:
            raise TableError(in_own_words(str(exc), text, event)) from None

    def parse_command(self, text):
        """The event a typed command stands for (no change). Raises ``TableError``, also
        for a ``rename`` to a name no player is given (``new_name_problem``: empty, no
        letter or digit, too long, a seat, a colour or command word; a typed rename
        only, a journal's stays as it was). A rename's name is read as ``--players``
        reads one (``typed_name``: ``rename Ben "Ben Jr"`` names him ``Ben Jr``)."""
        event = parse_command(text, self)
        if isinstance(event, dict) and event.get("type") == "rename":
            # the name as typed (the parser reads a German colour word as the colour)
            typed = " ".join(text.split()[-len(event["name"].split()):])
            others = [n for i, n in enumerate(self.names) if i != event["player"]]
            problem = new_name_problem(typed_name(typed), others)
            if problem is not None:
                raise TableError(_("rename %(old)s %(new)s: %(problem)s") % {
                    "old": self.names[event["player"]], "new": typed, "problem": problem})
            event = dict(event, name=typed_name(event["name"]))
        return event

    # -- event handlers (same code live and on resume) -------------------------

    def _need(self, *phases):
        if self.phase not in phases:
            raise TableError(narration.phase_hint(self))

    def _on_setup(self, event):
        self._need("setup")
        if self.setup_rolls:
            raise TableError(_("dice are already being rolled for the setup; go on with them "
                             "or undo"))
        mark = self._mark()
        stacks = stacks_from_json(event.stacks)
        try:
            check_start(self.edition, stacks)
        except ValueError as exc:  # the engine's Message, in the table's language
            raise self._engine_error(exc) from None
        start = self.race_start if event.start is None else event.start
        if event.how == "drawn":
            self.draws += 1
        notices = self._started(self._new_game(stacks, start), stacks, event.how or "typed")
        self._begin(mark, event)
        return notices

    def _new_game(self, stacks, start):
        try:
            return Game(self.edition, len(self.names), stacks, turn=start, start=start)
        except ValueError as exc:
            raise self._engine_error(exc) from None

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
        if event.player != self.game.turn:
            raise TableError(_("it is %s's turn") % self.names[self.game.turn])

    def _engine_error(self, exc):
        """The rules engine's refusal (an exception, or its text already translated) in
        the table's language, its seats written as names."""
        return TableError(narration.with_names(one_line(narration.translated(exc)),
                                               self.names))

    def _on_action(self, event):
        self._need("turn")
        self._check_turn(event)
        text = event.action
        try:
            action = parse_action(text)
            if action.kind == "pyramid":
                raise TableError(_("a pyramid ticket is taken with 'pyramid' and a die"))
            mark = self._mark()
            if action.kind == "tile":  # where the tile was: an undo says where it goes back
                mark["tile"] = self.game.tile_of(event.player)
            report = self.game.push(action)
        except (IllegalAction, NotationError) as exc:
            if str(text).split()[:1] == ["finish"]:
                # The engine's reason names the colour of a card already on a pile:
                # hidden until the final reveal (RULES 1.8, 5).
                none_left = self.no_finish_card_left(event.player)
                if none_left is not None:
                    raise TableError(none_left) from None
                raise TableError(_("%s can't play that finish card: each card is played once, "
                                 "on either pile (RULES 1.8)") % self.names[event.player]) \
                    from None
            too_few = self.partnership_refusal(text)
            if too_few is not None:
                raise TableError(too_few) from None
            raise self._engine_error(exc) from None
        self._begin(mark, event)
        self.reports.append(report)
        return [{"kind": "action", "player": report["player"], "action": report["action"],
                 "report": report}] + self._turn_notice()

    def partnership_refusal(self, text):
        """A refused ``partner`` where partnerships are not played: at a table with too
        few players for them, that; in an edition without them, the edition that has
        them; the player counts as the help writes them (RULES 3.8). With partnerships in
        play, a bare ``partner`` (no name: the parser's form refusal otherwise) from a
        player already partnered this leg gets the engine's reason, the one a named
        partner gets (s37 tester 9: "check the form" taught a form that is refused too).
        ``None`` for any other action, or with partnerships in play (the engine's reason
        then)."""
        ed = self.edition
        if str(text).split()[:1] != ["partner"]:
            return None
        if ed.has_partnerships(len(self.names)):
            seat = self.game.turn if self.phase == "turn" and self.game is not None else None
            partner = None if seat is None else self.game.partner_of(seat)
            if str(text).split() != ["partner"] or partner is None:
                return None
            return str(self._engine_error(IllegalAction(Message(
                "%s: p%d is already partnered with p%d this leg (RULES 3.8)", text, seat,
                partner))))
        if ed.partnership_min is not None:
            said = _("%(action)s: partnerships need %(low)d-%(high)d players, and this game "
                     "has %(players)d (RULES 3.8)") % {
                         "action": text, "low": ed.partnership_min, "high": ed.max_players,
                         "players": len(self.names)}
        else:
            other = [e for e in EDITIONS.values() if e.partnership_min is not None][0]
            said = _("%(action)s: partnerships are played in the %(edition)s edition only, "
                     "with %(low)d-%(high)d players (RULES 3.8)") % {
                         "action": text, "edition": edition_word(other),
                         "low": other.partnership_min, "high": other.max_players}
        return narration.with_names(said, self.names)

    def _on_pyramid(self, event, mark=None):
        self._need("turn")
        self._check_turn(event)
        if self.game.pyramid_tickets_left <= 0:
            raise TableError(_("no pyramid ticket left"))
        mark = mark or self._mark()
        self.pending_player = self.game.turn
        self.phase = "die"
        self._begin(mark, event)
        return [{"kind": "pyramid", "player": self.pending_player}]

    def _check_inside(self, die):
        """A die whose ink or value is still to come: could it have come out now? The
        game's own check (``Game.check``, RULES 1.4, 3.4) of its action with any value:
        a complete die is checked by ``Game.push`` alone."""
        try:
            self.game.check(die.keyed(value=1, ink=die.ink or "black").action())
        except (IllegalAction, NotationError) as exc:
            # the game's reason without the stand-in value it was checked with
            raise TableError(one_line(narration.translated(exc)).split(": ", 1)[-1]) from None

    def _on_die(self, event):
        """A die from the pyramid or typed. On a turn, with no pyramid ticket taken
        first (the slider pushed, or a die typed with the dice typed at the table), the
        player to act takes the ticket (RULES 1.7): its notice comes first, naming the
        die, live and in a replay alike."""
        if self.phase == "setup":
            return self._setup_die(event)
        seat = self.current if self.phase == "turn" else None
        notices = self._die_on_turn(event)
        if seat is not None:
            notices = [{"kind": "pyramid", "player": seat,
                        "die": die_text(event.to_json())}] + notices
        return notices

    def _die_on_turn(self, event):
        self._need("turn", "die")
        if self.phase == "turn" and event.player is not None:
            self._check_turn(event)
        unsure = event.ink_unsure
        # a die of a waiting ticket continues the ticket's step; after a board correction
        # typed while it waited, the die is a step of its own (a step's mark is the
        # session before it: the correction stays when the die is undone)
        mark = self._mark() if self.phase == "turn" or self._after_correction() else None
        if unsure or event.value is None:
            if event.colour == "grey" and not unsure and event.ink is None:
                raise TableError(_("the grey die needs its numeral colour (black or white)"))
            self._check_inside(event)
            # A die released without 'pyramid' first: the current player took a ticket.
            self.pending_player = self.current
            self._pending = event
            self.phase = "ink" if unsure else "value"
            self._step(mark, event)
            if unsure:
                return [{"kind": "ask_ink", "player": self.pending_player,
                         "best": GREY_BEST[event.best]}]
            return [{"kind": "ask_value", "player": self.pending_player,
                     "die": narration.die_name(event.to_json())}]
        notices = self._move(event, event.value)
        self._step(mark, event)
        return notices

    def _step(self, mark, event):
        if mark is not None:
            self._begin(mark, event)
        else:
            self._continue(event)

    def _on_ink(self, event):
        """The numeral ink keyed for a grey die the pyramid could not tell apart
        (RULES 3.5 (c)), or ``again``: the dice go back and the ticket already taken
        waits for the next release (seed 001 host remedy)."""
        self._need("ink")
        if event.again:
            self._pending = None
            self.phase = "die"
            self._continue(event)
            # the ticket taken still waits for its die: the retry says so and the prompt
            # asks for the release (a 'pyramid' notice here read as a second ticket)
            return [{"kind": "retry", "why": "again", "raw": None}]
        if event.ink not in ("black", "white"):
            raise TableError(_("the grey die's numerals are black or white"))
        die = self._pending.keyed(ink=event.ink)
        if die.value is None:
            self._pending = die
            self.phase = "value"
            self._continue(event)
            return [{"kind": "ask_value", "player": self.pending_player,
                     "die": narration.die_name(die.to_json())}]
        notices = self._move(die, die.value)
        self._continue(event)
        return notices

    def _on_value(self, event):
        self._need("value")
        value = event.value
        if self.game is None:  # a setup die
            camel = self._setup_camel(self._pending.keyed(value=value))
            notices = self._place(camel, value)
            self._pending = None
            if self.phase == "value":
                self.phase = "setup"
            self._continue(event)
            return notices
        notices = self._move(self._pending, value)  # Game.push checks the value
        self._continue(event)
        return notices

    def _move(self, die, value):
        """Push the pyramid action of ``die`` (an ``events.Die``) showing ``value`` (the
        one check of a complete die is ``Game.push``'s: colour, ink, value 1..3, still
        inside), then the notices. Nothing changes on error."""
        action = die.action(value)
        try:
            report = self.game.push(action)
        except (IllegalAction, NotationError) as exc:
            # the engine names its action ('pyramid red 2: ...'): words the player did
            # not type (a die typed is 'red 2', a die released nothing): its reason alone
            text = one_line(narration.translated(exc))
            if text.startswith("%s: " % action):
                text = text[len("%s: " % action):]
            raise self._engine_error(text) from None
        self.pending_player = None
        self._pending = None
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

    def _setup_camel(self, die):
        """The camel a setup die places (RULES 2.2, 3.2): a racing die its own camel; the
        grey die first black, then white. Raises ``TableError``; changes nothing."""
        colour = die.colour
        value = die.value
        if colour not in self.edition.dice:
            raise TableError(_("%(die)r is not a die of the %(edition)s edition")
                             % {"die": colour, "edition": edition_word(self.edition)})
        if value not in (None, 1, 2, 3):
            raise TableError(_("a die shows 1, 2 or 3"))
        if colour == "grey":
            done = [c for c, _ in self.setup_rolls if c in self.edition.crazy]
            if len(done) == len(self.edition.crazy):
                raise TableError(_("both crazy camels are already placed"))
            return self.edition.crazy[len(done)]
        if any(c == colour for c, _ in self.setup_rolls):
            if self.dice_typed:  # no pyramid to release from (--pyramid manual)
                raise TableError(_("the %s camel is already placed: type the other dice")
                                 % colour_word(colour))
            raise TableError(_("the %s camel is already placed: release the other dice")
                             % colour_word(colour))
        return colour

    def _setup_die(self, event):
        """A die released (or typed) at setup places its camel (RULES 2.2, 3.2): a racing
        die on space 1-3 by its value, on top of camels already there; the grey die
        first for black, then for white, on 16/15/14 by its value."""
        camel = self._setup_camel(event)
        mark = self._mark()
        if event.value is None:  # the pyramid has no value buttons: one key gives it
            self._pending = event
            self.phase = "value"
            self._begin(mark, event)
            return [{"kind": "ask_value", "player": None,
                     "die": narration.die_name(event.to_json())}]
        notices = self._place(camel, event.value)
        self._begin(mark, event)
        return notices

    def _place(self, camel, value):
        rolls = self.setup_rolls + [(camel, value)]
        placed = [c for c, _ in rolls]
        missing = [c for c in self.edition.camels if c not in placed]
        if missing:
            self.setup_rolls = rolls
            return [{"kind": "setup_die", "camel": camel, "value": value, "missing": missing}]
        racing = [r for r in rolls if r[0] in self.edition.racing]
        crazy = [r for r in rolls if r[0] in self.edition.crazy]
        stacks = setup_stacks(self.edition, racing, crazy)
        game = self._new_game(stacks, self.race_start)
        return [{"kind": "setup_die", "camel": camel, "value": value, "missing": []}] + \
            self._started(game, stacks, "dice")

    def _on_rejected(self, event):
        """A release the table can't use (two dice, no die, unknown colour, an impossible
        die): return the dice and release again; the pyramid ticket, once taken, still
        covers that action (seed 001 host remedy). At the start of a turn (the slider
        pushed without 'pyramid' first) the ticket is taken here, and said first: the
        action, then what to do about the release. An event that brought no die (kind
        ``fault`` or ``gap``: ``dieless``) is only a record of the pyramid's
        event, said by the table when it came: nothing changes (no notice). A release
        while the value (or the grey die's numerals) of a die already out is asked, at
        setup or on a turn, keeps that die out and the question: only this release's
        dice go back (the notice's ``asked``, ``fell``, ``question``)."""
        if event.kind in DIELESS:
            return []
        if event.kind == LATE:  # nothing changed: the words a resume tells again (the
            # table says it live with the push's player: ``Table._late``)
            colours = [event.colour] if event.colour is not None else []
            told = narration.late_release(event.reason, colours, past=True)
            return [{"kind": "info", "text": told, "replayed": told}]
        notices = []
        if self.phase == "turn" and self.game.pyramid_tickets_left > 0:
            notices += self._on_pyramid(ev.Pyramid(player=self.game.turn))
        retry = {"kind": "retry", "why": event.reason or event.kind, "raw": event.raw}
        if self.phase in ("value", "ink") and self._pending is not None:
            # released while the table asks about a die already out (its value, or a
            # grey die's numerals), at setup or on a turn: that die stays out and the
            # question stands; only the dice of this release go back (no ticket words:
            # at setup there is none, on a turn it is the asked die's)
            retry["asked"] = narration.die_name(self._pending.to_json())
            retry["fell"] = getattr(event, "colour", None)
            retry["question"] = narration.phase_hint(self)
            retry["setup"] = self.game is None
            return notices + [retry]
        if self.phase == "setup":  # no pyramid ticket: say what setup needs
            retry["setup"] = True
            retry["grey_for"] = self.grey_needed_back()
        elif (self.game is not None and getattr(event, "colour", None) is not None
              and event.colour in self.game.dice_out):
            # a die that came out this leg was back in the pyramid (plugged back, or a
            # resume, with every die inside): it stays out, and so do the others out
            retry["came_out"] = event.colour
            retry["out"] = list(self.game.dice_out)
        return notices + [retry]

    def grey_needed_back(self):
        """At setup, the crazy camel the grey die must come out for again (its first
        release placed the other one, RULES 3.2: once for each crazy camel), so it goes
        back into the pyramid; else ``None``."""
        if self.phase != "setup" or not self.edition.crazy:
            return None
        done = [c for c, _ in self.setup_rolls if c in self.edition.crazy]
        if not done or len(done) == len(self.edition.crazy):
            return None
        return self.edition.crazy[len(done)]

    @property
    def resume_point(self):
        """``(boot, seq)`` the link continues after on ``--resume``: the journal's last
        pyramid event, else where the game's pyramid began delivering (its ``board``
        line), so a journal cut before its first die still takes only dice released
        for it (``None``: neither; the link starts at the pyramid's ``acked=``)."""
        if self.last_pyramid_event is not None:
            return self.last_pyramid_event
        if self.board is not None:
            return (self.board.boot, self.board.seq)
        return None

    def record_board(self, fields):
        """Journal the pyramid the game takes its dice from (``fields``: a dict of
        ``uid``, ``fw``, ``ed``, ``boot``, ``seq``, as ``Link.identity`` gives it), once:
        a journal that already names its board is not written again (the link refused
        another board before this). Returns ``[]``. Raises ``TableError`` for a field of
        the wrong shape (nothing written)."""
        if self.board is not None:
            return []
        return self.feed(ev.Board(**{k: fields.get(k) for k in ("uid", "fw", "ed", "boot", "seq")}))

    def _on_board(self, event):
        if self.board is None:
            self.board = event
        return []

    def record_lang(self, lang):
        """Journal ``lang`` (a language code) as the table's language from here on
        (``events.Lang``), unless it is already the last one the journal records
        (``self.lang``). Returns ``[]``; changes no game."""
        if lang == self.lang:
            return []
        return self.feed(ev.Lang(lang=lang))

    def _on_lang(self, event):
        self.lang = event.lang
        return []

    def reject(self, event, reason):
        """Journal a pyramid release that can't be used (an ``events.Release``: double,
        no die, unknown; or an ``events.Die`` the game refused) as ``rejected``, with
        ``reason`` (one line), and return the notices telling the table to return the
        dice and release again. Never changes the game. Raises ``TableError``."""
        if isinstance(event, ev.Die):
            # as the link reported it: an unread grey die had no colour of its own
            record = ev.Rejected(kind="unknown" if event.best else "die", reason=reason,
                                 raw=event.raw, colour=None if event.best else event.colour,
                                 ink=event.ink,
                                 value=event.value, boot=event.boot, seq=event.seq)
        else:
            record = ev.Rejected(kind=event.kind, reason=reason, raw=event.raw,
                                 boot=event.boot, seq=event.seq)
        return self.feed(record)

    def dieless(self, event):
        """Journal an event of the pyramid's that brings no die, once the table has said
        it (the link's ``DieEvent``: ``fault``, a push the sensor could not read, its
        ``code`` the reason; ``gap``, events the pyramid lost, named by the last seq of
        their range, the range the reason) as ``rejected`` of that kind, so the journal
        holds every event of the pyramid's this table took (its ``last_pyramid_event``,
        what a resume compares with the pyramid's ``acked=``:
        ``camelhost.table.journal.behind_pyramid``) and a resume does not name them
        again. Changes no game, says nothing; returns ``[]``. An event naming
        no pyramid event (a link that stopped; a gap whose count is unknown) is not
        journaled. Raises ``TableError`` for another kind."""
        if event.kind not in DIELESS:
            raise TableError(_("only a sensor fault or a gap is journaled as an event "
                               "without a die, not %r") % (event.kind,))
        if event.kind == "gap":
            seq = getattr(event.missing, "last", None)
            if seq is None and event.missing:
                seq = max(event.missing)
            reason = str(ev.missing_text(event.missing))
        else:
            seq, reason = event.seq, event.code
        if event.boot is None or seq is None:
            return []
        return self.feed(ev.Rejected(kind=event.kind, reason=reason, raw=event.raw or "",
                                     boot=event.boot, seq=seq))

    def late(self, event):
        """Journal a release of the virtual pyramid that came after the table moved on
        from its push (``event``: the link's ``DieEvent``, kind ``die``, ``double``,
        ``nodie`` or ``unknown``; ``Table._late``) as ``rejected`` of kind ``late``, the
        release's kind its ``reason``, its die's colour, ink and value kept: what the
        table said of it (nothing changed) is what a resume finds, and the link goes on
        after it (``resume_point``), never handing it to whoever acts then. Changes no
        game. Returns its notice (one ``info``: ``narration.late_release``, its
        ``replayed`` the words told as past). Raises ``TableError`` for an event of
        another kind (nothing written)."""
        if event.kind not in ("die",) + ev.UNUSABLE:
            raise TableError(_("only a release is journaled as late, not %r")
                             % (event.kind,))
        die = event.kind == "die"
        return self.feed(ev.Rejected(
            kind=LATE, reason=event.kind, raw=event.raw or "",
            colour=event.colour if die else None, ink=event.ink if die else None,
            value=event.value if die else None, boot=event.boot, seq=event.seq))

    def _on_correction(self, event):
        self._need("turn", "die")
        g = self.game
        stacks = stacks_from_json(event.stacks)
        try:
            new = Game(
                g.edition, g.players, stacks, tiles=g.tiles, turn=g.turn, start=g.start_player,
                coins=g.coins, held=[g.held_tickets(p) for p in range(g.players)],
                pyramid=[g.pyramid_tickets(p) for p in range(g.players)], out=g.dice_out,
                partners=[g.partner_of(p) for p in range(g.players)],
                winner_pile=g.pile("winner"), loser_pile=g.pile("loser"), leg=g.leg)
        except ValueError as exc:
            raise self._engine_error(exc) from None
        mark = self._mark()
        self.game = new
        self._begin(mark, event)
        return [{"kind": "correction", "stacks": stacks},
                {"kind": "leaders", "ranking": new.ranking()}]

    def _on_undo(self, event):
        """Take back the last ``steps`` steps of this race (default 1: a journal of an
        older version; ``undo_steps`` counts them for a typed ``undo``): each a whole
        pyramid action (ticket, die and value), an action, a correction, an unscored
        end or a setup step. The game goes back through ``Game.pop``; nothing is
        replayed. The notice names the player's step first, then the bots' after it,
        a leg's or the race's scoring taken back with them right after the step that
        scored (coins as they were), as ``undo_scoring``'s question names it, then the
        dice to put back in the pyramid and to take out of it again, so that the
        pyramid holds what the game counts inside (``dice_moves``: the same for the
        virtual pyramid; ``replayed``: the words without them, for a replay); ``redo``
        gives it all back (``undone``)."""
        count = 1 if event.steps is None else event.steps
        if not self.steps:
            renamed = self.rename_notes()  # a rename at the setup: it stays, and says so
            raise TableError(_("nothing to undo in this race") + (
                "" if renamed is None else "; " + renamed))
        if not isinstance(count, int) or isinstance(count, bool) or \
                not 1 <= count <= len(self.steps):
            raise TableError(_("undo of %(typed)r steps: this race has %(steps)d to undo")
                             % {"typed": count, "steps": len(self.steps)})
        taken = self.steps[-count:]
        in_setup = self.phase == "setup"
        scoring = self._scoring_since(taken[0].mark)
        if scoring is not None:  # named where it happened, as the question names it
            scoring["at"] = self._scored_at(taken, scoring)
        out_before = self._dice_out()
        # the board before, to name every piece the table puts back (not an 'again')
        board = None if "race" in taken[0].mark or self.game is None else \
            self.game.copy(history=False)
        del self.steps[-count:]
        self._restore(taken[0].mark)
        self.undone.append([step.events for step in taken])
        moves = self._dice_moves(out_before, self._dice_out(), self.edition.dice)
        if scoring is not None:
            scoring["coins"] = list(self.game.coins)
        said = [([e.to_json() for e in step.events], step.mark["current"], step.mark.get("tile"),
                 step.mark.get("phase") == "die")
                for step in taken]
        games = None if board is None or self.game is None else (board, self.game)
        text, hint = narration.undone_steps(said, self.names, self.edition, moves=moves,
                                            scoring=scoring, board=games)

        def watched(names):
            # the watchers' words (the web page): a scoring's coins and tickets left to
            # the table; the replay's without the dice
            brief = narration.undone_steps(said, names, self.edition, moves=moves,
                                           scoring=scoring, board=games, brief=True)[0]
            replayed = narration.undone_steps(said, names, self.edition, moves=NO_DICE,
                                              scoring=scoring, board=games, brief=True,
                                              replay=True)[0]
            return _("undone: %s") % brief, _("undone: %s") % replayed

        brief, replayed = watched(self.names)
        self._undo_said = watched
        if self.phase == "setup" and not in_setup:
            # back at the setup: what it takes, as the table said at the race's start (the
            # prompt alone said "setup"; s37 tester 9), and that 'redo' gives it back
            hint += (_("; race %d is at its setup again: type each camel's die, the stacks "
                       "or 'draw' ('redo' gives the setup back)") if self.dice_typed else
                     _("; race %d is at its setup again: release each camel's die, type "
                       "the stacks or 'draw' ('redo' gives the setup back)")) % self.race_no
        notices = [{"kind": "info", "text": _("undone: %s") % text, "hint": hint,
                    "brief": brief, "dice_moves": moves, "replayed": replayed,
                    "scoring_undone": scoring is not None}]
        renamed = self.rename_notes()
        if renamed is not None:  # right after a rename: it stays, and says so
            notices.append({"kind": "info", "text": renamed,
                            "replayed": self.rename_notes(replay=True)})
        if "race" in taken[0].mark:  # 'again' taken back: the race as it ended
            if self.phase == "over":
                notices.append({"kind": "final", "final": self.result, "race": self.race_no})
            else:
                notices.append({"kind": "unscored", "race": self.race_no})
            return notices
        return notices + self._turn_notice()

    def rename_notes(self, replay=False):
        """What an ``undo`` typed right after a ``rename`` says of it, one line, or
        ``None`` after any other event: the rename is no step of the race, so the undo
        leaves it, and another rename corrects it (``rename NEW OLD``, docs/table.md).
        ``replay``: told as past (``pyramid replay``), without what to type."""
        if not self.renames_since:
            return None
        if replay:
            return "; ".join(_("the rename of %(old)s to %(new)s was not undone (a rename is "
                               "no step of the race)") % {"old": old, "new": new}
                             for old, new in self.renames_since)
        return "; ".join(_("the rename of %(old)s to %(new)s is not undone (a rename is no "
                           "step of the race): 'rename %(new)s %(old)s' corrects it")
                         % {"old": old, "new": new} for old, new in self.renames_since)

    def undo_scoring(self):
        """What a typed ``undo`` would take back of the race's scoring, or ``None`` when
        it takes back none: ``{"legs": [leg numbers scored], "race": True when it takes
        back the race's end, "race_no": this race's number, "cards": the finish cards on the
        piles, "steps": [(events of a step,
        holder), ...] it takes back, "at": the index in ``steps`` of the step that scored}`` (the table asks before such an undo:
        ``camelhost.table.controller.Table``). Changes nothing."""
        count = self.undo_steps()
        if not count:
            return None
        taken = self.steps[-count:]
        scoring = self._scoring_since(taken[0].mark)
        if scoring is not None:
            scoring["steps"] = [([e.to_json() for e in step.events], step.mark["current"])
                                for step in taken]
            scoring["at"] = self._scored_at(taken, scoring)
        return scoring

    def _scored_at(self, taken, scoring):
        """The index in ``taken`` (steps, oldest first) of the step whose die scored
        ``scoring`` (``_scoring_since``'s of the first step; the first scoring, when the
        bots' moves after it scored more)."""
        return max(i for i, step in enumerate(taken)
                   if (self._scoring_since(step.mark) or {}).get("legs") == scoring["legs"])

    def _scoring_since(self, mark):
        """The scoring done since ``mark`` (a step's): ``{"legs": [...], "race": bool,
        "race_no": int, "cards": int}`` (the legs scored, by number; the race's end; the
        finish cards on the two piles now, which an undo of the race's end turns face
        down again: 0 when none was played), or ``None`` when none was."""
        if "race" in mark or self.game is None:
            return None
        legs = []
        race = False
        leg = self.game.leg
        for report in reversed(self.reports[mark["reports"]:]):
            if report.get("race_over"):  # the race ends in its leg: that leg is scored too
                race = True
                legs.insert(0, leg)
            elif report.get("leg_ended"):
                leg -= 1
                legs.insert(0, leg)
        if not legs:
            return None
        cards = len(self.game.pile("winner")) + len(self.game.pile("loser"))
        return {"legs": legs, "race": race, "race_no": self.race_no, "cards": cards}

    def _dice_out(self):
        """The dice out of the pyramid on the table now: the game's revealed this leg
        (still out once the race is over) and a die waiting for its ink or value; ``None``
        at setup (the setup's dice are not counted)."""
        if self.game is None:
            return None
        out = self.game.dice_out
        if self._pending is not None and self._pending.colour not in out:
            out.append(self._pending.colour)
        return out

    @staticmethod
    def _dice_moves(before, after, dice):
        """What people do with the pyramid after an undo or a redo so that it holds the
        dice the game counts inside: ``{"back": [dice out before, inside now], "out":
        [dice inside before, out now], "stay": [dice inside before and now]}`` (colours;
        back and out in the order they came out, stay in the order of ``dice``, the
        edition's); ``None`` when either side is a setup."""
        if before is None or after is None:
            return None
        return {"back": [d for d in before if d not in after],
                "out": [d for d in after if d not in before],
                "stay": [d for d in dice if d not in before and d not in after]}

    def _on_redo(self, event):
        """Apply again, exactly, what the last ``undo`` took back (its steps' events, a
        die with its colour, ink and value, through the same handlers: the same
        notices), while nothing else was done since (any new step empties ``undone``).
        Raises ``TableError`` (nothing changed) when there is nothing to redo."""
        if not self.undone:
            raise TableError(_("nothing to redo: 'redo' gives back what the last 'undo' took "
                               "back, until something else is done"))
        redone = self.undone[-1]
        first = len(self.steps)
        # the game before it, to say what a correction or an unscored end changes
        before = None if self.game is None else self.game.copy(history=False)
        out_before = self._dice_out()
        draws = self.draws  # a drawn setup applied again is not a new draw
        notices = []
        holders = []  # the seat each step was taken on (as its mark says for an undo)
        waiting = []  # each step begun while a pyramid ticket waited for its die
        self._redoing = True
        try:
            for events in redone:
                holders.append(self.current)
                waiting.append(self.phase == "die")
                for e in events:
                    notices += self._HANDLERS[e.TYPE](self, e)
        except (ValueError, KeyError, TypeError) as exc:  # never after an undo: kept whole
            if len(self.steps) > first:
                self._restore(self.steps[first].mark)
                del self.steps[first:]
            raise TableError(_("redo: %s") % one_line(exc)) from None
        finally:
            self._redoing = False
        self.undone.pop()
        self.draws = draws
        steps = [([e.to_json() for e in events], holder, None, wait)
                 for events, holder, wait in zip(redone, holders, waiting, strict=True)]
        # the pyramid as the game counts it now: a die that ended a leg is not taken out
        # again, the leg's other dice go back in (as the new leg's line says)
        moves = self._dice_moves(out_before, self._dice_out(), self.edition.dice)
        if moves is None:  # a setup on either side: each step's die out again
            moves = {"back": [], "out": narration.dice_of_steps(steps, self.names)}
        games = None if before is None or self.game is None else (before, self.game)
        text = narration.redone_steps(steps, self.names, self.edition, self.race_no,
                                      board=games, moves=moves)
        race_no = self.race_no

        def watched(names):
            # the watchers' words (the web page): more than two bots' moves counted; the
            # replay's without the dice
            brief = narration.redone_steps(steps, names, self.edition, race_no,
                                           board=games, moves=moves, brief=True)
            replayed = narration.redone_steps(steps, names, self.edition, race_no,
                                              board=games, moves=NO_DICE, brief=True)
            return _("redone: %s") % brief, _("redone: %s") % replayed

        brief, replayed = watched(self.names)
        self._undo_said = watched
        return [{"kind": "info", "text": _("redone: %s") % text, "brief": brief,
                 "replayed": replayed, "dice_moves": moves}] + _answered(notices)

    def _on_unscored(self, event):
        self._need("turn", "die", "ink", "value")
        mark = self._mark()
        self.phase = "unscored"
        self.pending_player = None
        self._pending = None
        self._begin(mark, event)
        return [{"kind": "unscored", "race": self.race_no}]

    def _on_rename(self, event):
        """``rename OLD NEW``: seat ``event.player`` is called ``event.name`` from now
        on, in every phase. The name is checked as ``--players`` checks them
        (``check_names``: not empty, no name twice, letter case aside; no comma, which
        separates ``--players``). It changes no game and is no step of the race: an
        ``undo`` never takes it back (``rename NEW OLD`` does)."""
        seat, new = event.player, player_name(event.name)
        if not 0 <= seat < len(self.names):
            raise TableError(_("rename: there is no seat %d") % (seat + 1))
        old = self.names[seat]
        if new == old:
            raise TableError(_("rename: %s is already called so") % old)
        if comma_problem(new) is not None:
            raise TableError(_("rename %(old)s %(new)s: %(problem)s") % {
                "old": old, "new": new, "problem": comma_problem(new)})
        for i, name in enumerate(self.names):
            if i != seat and name.lower() == new.lower():
                raise TableError(_("rename %(old)s %(new)s: %(name)s is already a player's "
                                   "name; the names must differ") % {
                                       "old": old, "new": new, "name": name})
        names = list(self.names)
        names[seat] = new
        check_names(self.edition.name, names)
        self.names = names  # a new list: the journal's game line keeps the names it had
        return [{"kind": "info", "text": _("%(old)s is called %(new)s from now on") % {
                    "old": old, "new": new},
                 "old": old, "new": new}]

    def _on_race(self, event):
        if self.phase not in ("over", "unscored"):
            raise TableError(_("this race is still on: 'again' comes after its end "
                             "(or after 'unscored')"))
        start = 0 if event.start is None else event.start
        if not 0 <= start < len(self.names):
            raise TableError(_("the starting seat is a number from 1 to %(seats)d, not "
                               "%(typed)d") % {"seats": len(self.names), "typed": start + 1})
        ended = self.reports[-1]["player"] if self.phase == "over" and self.reports else None
        before = {name: getattr(self, name) for name in self._RACE_FIELDS}
        self.race_no += 1
        self._reset_race()
        self.race_start = start
        # one step of the new race: 'undo' brings the race before back as it ended
        self.steps.append(_Step({"race": before, "current": None}, event))
        if not self._redoing:
            self.undone = []
        notice = {"kind": "new_race", "race": self.race_no}
        if event.start is not None:
            notice["start"] = start
            notice["after"] = ended  # whose die ended the race before (None: unscored)
        return [notice]

    _HANDLERS = {
        "setup": _on_setup, "action": _on_action, "pyramid": _on_pyramid, "die": _on_die,
        "ink": _on_ink, "value": _on_value, "rejected": _on_rejected,
        "correction": _on_correction, "undo": _on_undo, "redo": _on_redo,
        "unscored": _on_unscored,
        "race": _on_race, "board": _on_board, "rename": _on_rename,
        "lang": _on_lang,
    }


#: The notices that ask the table for something (a die, its ink or value, a release
#: again): in a redo only the last is said, and only when nothing answers it after.
_ASKING = ("pyramid", "ask_ink", "ask_value", "retry")


def _answered(notices):
    """A redo's ``notices`` without the questions its own events answered (``Ben takes
    a pyramid ticket: release one die`` before the die it applies again); a ticket's
    notice that names its die stays."""
    return [n for i, n in enumerate(notices)
            if n["kind"] not in _ASKING or n.get("die")
            or not any(m["kind"] in _ASKING + ("die", "setup_die") for m in notices[i + 1:])]


def _typed(event):
    """``event`` as a table event: a typed one as it is, a journal line (a dict, as the
    parser makes them and the journal holds them) through ``events.from_json``."""
    if isinstance(event, dict):
        return ev.from_json(event)
    if not hasattr(event, "TYPE") or event.TYPE not in ev.JOURNALED:
        raise TableError(_("an event is a table event or a dict with a type, not %r") % (event,))
    return event
