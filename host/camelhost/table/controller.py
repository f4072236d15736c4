"""The table driver: joins a session, a display, the pyramid and the bots.

``Table`` is synchronous and single-threaded; whoever runs it (the plain line
loop ``camelhost.ui.loop.run_plain``, or the Textual app in ``camelhost.ui.tui``)
hands it typed lines with ``line(text)`` and pyramid events with
``pyramid_event(event)``, one at a time. After each one it lets bots act while it
is their turn, asks the virtual pyramid to release a die for a bot's pyramid
ticket, and puts the dice back at leg end.

Pyramid events are the link's ``camelhost.device.events.DieEvent`` (kind ``die``,
``nodie``, ``double``, ``unknown``, ``fault`` or ``gap``, docs/interfaces.md), turned
once into the table's own (``camelhost.table.events.from_link``; a die is decoded as
the table's ``Die`` and goes on as it is). A die the game state
makes impossible is journaled as rejected, never applied. An ``unknown`` release whose
``best`` is ``grey-black``/``grey-white`` is taken as the grey die with its ink asked
at the table (one key, ``b``/``w``, or ``again``).
"""

import logging
import re
import time

from camelup.actions import colour_name
from camelup.editions import GREY, get_edition, split_die_label

from camelhost.device.events import fault_text, out_dice, out_mask
from camelhost.device.open import LineQuality, PyramidIdentity, PyramidPresence, PyramidRestarted
from camelhost.i18n import (
    N_,
    _,
    colour_list,
    colour_word,
    colours_in,
    percent,
    port_word,
    yes_or_no,
)
from camelhost.table import bots, events, narration
from camelhost.table.display import Seam
from camelhost.table.errors import TableError, shown
from camelhost.table.journal import behind_pyramid
from camelhost.table.manual import colour_hits, shortened
from camelhost.table.parser import (
    FORMS,
    TABLE_WORDS,
    check_line,
    foreign_colour_hint,
    in_own_words,
    local_colours,
)
from camelhost.table.prior import DiceOut
from camelhost.table.speaker import Speaking
from camelhost.table.view import table_view

#: Ctrl-L, the key that redraws a terminal, which a terminal in line mode hands on
#: inside the next line typed (``Table.line``).
REDRAW = "\f"

#: The table's help, one row a command: ``(command, what it does, when it applies)``;
#: the descriptions go through the translation catalogue, the commands are typed as they are.
#: ``{c}`` is the edition's example colour (``Edition.example_colour``), ``{p}`` a
#: player's name of the table (the second seat's: ``help_text``); the last
#: field says which rows need what: ``"grey"`` a grey die in the edition, ``"partners"``
#: partnerships, ``"virtual"`` a virtual pyramid (its slider), ``"reported"`` a pyramid
#: that reports dice (not typed ones); ``manual`` rows replace them with dice typed.
HELP_ROWS = (
    ("leg {c}", N_("take the top {c} leg ticket"), None),
    ("tile 7 +  tile 7 -", N_("place or move your tile on space 7, forward (+) or backward (-) side"),
     None),
    ("win  lose", N_("a finish card on the overall winner / loser pile, face"), None),
    ("", N_("down: its colour picked next, one key per colour"), "masked"),
    ("", N_("down: its colour typed next, never shown"), "unmasked"),
    ("win {c}  lose {c}", N_("the same, its colour typed with it (masked as it is typed)"),
     "masked"),
    ("win {c}  lose {c}", N_("the same, its colour typed with it: for scripts (input"),
     "piped"),
    ("", N_("piped); refused at a terminal, where it would show"), "piped"),
    ("partner {p}", N_("partnership with {p} (second edition, 6-8 players)"), "partners"),
    ("pyramid", N_("take a pyramid ticket; the next die released completes it"), "reported"),
    ("pyramid", N_("take a pyramid ticket; the next die typed completes it"), "manual"),
    ("{c} 2  grey white 3", N_("a die typed by hand (also for a GAP); '{c} ?' asks the value"),
     "reported grey"),
    ("{c} 2", N_("a die typed by hand (also for a GAP); '{c} ?' asks the value"), "reported plain"),
    ("{c} 2  grey white 3", N_("a die typed by hand; '{c} ?' asks the value"), "manual grey"),
    ("{c} 2", N_("a die typed by hand; '{c} ?' asks the value"), "manual plain"),
    ("1 2 3", N_("value of a die the pyramid reported as ?"), "reported"),
    ("1 2 3", N_("value of a die typed with ? ('{c} ?')"), "manual"),
    ("b  w  again", N_("numeral ink of a grey die the pyramid could not read (again: release again)"),
     "reported grey"),
    ("release", N_("push the virtual pyramid's slider"), "virtual"),
    ("release two  release none", N_("the same with two dice falling together / none (a jam):"),
     "virtual"),
    ("", N_("what the table does when that happens at a real pyramid"), "virtual"),
    ("fix 7:{c},blue", N_("correct the board: space 7 holds {c} then blue on top"), None),
    ("undo", N_("take back the last action (and the bots' moves after it); one that"), None),
    ("", N_("takes back a leg's scoring or the race's end asks first"), None),
    ("redo", N_("give back what the last undo took back, its die too"), None),
    ("unscored", N_("end this race unscored (the board can't be restored)"), None),
    ("again", N_("another race with the same seats (undo takes it back)"), None),
    ("setup 1:blue,green 2:{c} ...", N_("starting stacks typed in; 'draw' draws them"), None),
    ("rename {p} NAME", N_("correct {p}'s name (a typo): NAME from then on, everywhere"), None),
    ("odds  best", N_("leg and race odds; the coach's best actions for the player to act"), None),
    ("best all", N_("every action the coach valued, each with its sum"), None),
    ("position", N_("this position in the project notation, then the 'pyramid odds'"), None),
    ("", N_("command to paste, with the players' names; finish piles as their"), None),
    ("", N_("sizes only until the race is over"), None),
    ("show", N_("the whole table;  help;  quit"), None),
)
log = logging.getLogger("camelhost.table")

#: Where a command's description starts (a longer command is followed by two spaces).
HELP_COLUMN = 21


def help_text(edition, pyramid=None, names=("Ann", "Ben"), cards=None):
    """The table's help (``HELP_ROWS``) for ``edition`` (a name or an ``Edition``): in its
    example colour, its example player the second of ``names`` (the table's players,
    seat order; the first when there is one), with the grey die's rows only when it has a grey die and the
    partnership row only when it has partnerships (RULES 2, 3), and the commands that
    apply to ``pyramid`` (``Table.pyramid_kind``): ``"virtual"`` every one; ``"real"``
    no ``release``; ``"manual"`` (dice typed) no ``release``, no ink key for a grey die
    the pyramid could not read, and dice told as typed; ``None``: every one. ``cards``:
    how a finish card's colour typed with it (``win red``) is taken (RULES 1.8): ``"masked"``
    (the full screen masks it as it is typed: taken), ``"unseen"`` (plain mode at a
    terminal, where it shows: refused, so only a bare ``win``/``lose`` is offered),
    ``"piped"`` or ``None`` (a script's input: taken, said to be for scripts); a bare
    ``win``/``lose`` comes first in every one (tester s39 finding 10)."""
    ed = get_edition(edition)
    has = {"grey": GREY in ed.dice, "plain": GREY not in ed.dice,
           "partners": ed.partnership_min is not None,
           "virtual": pyramid in (None, "virtual"),
           "reported": pyramid != "manual", "manual": pyramid == "manual",
           "masked": cards == "masked", "unmasked": cards != "masked",
           "piped": cards in (None, "piped")}
    lines = [_("Commands (the current player acts; colours may be shortened: %s):")
             % shortened(ed)]
    for command, what, needs in HELP_ROWS:
        if needs and not all(has[need] for need in needs.split()):
            continue
        # the colours in the words the table takes (German 'leg rot', 'fix 7:rot,blau')
        player = names[1] if len(names) > 1 else names[0]
        command = colours_in(command.format(c=ed.example_colour, p=player))
        if len(command) > HELP_COLUMN - 4:  # no two spaces before its column: own line,
            lines.append("  " + command)     # so every description starts in one column
            command = ""
        gap = " " * (HELP_COLUMN - 2 - len(command))
        lines.append("  " + command + gap + _(what).format(c=colour_word(ed.example_colour),
                                                           p=player))
    return "\n".join(lines)




#: How many pushes of the virtual pyramid whose release has not come the table keeps
#: in mind (``Table._late``).
PUSHES_KEPT = 8

#: ``release two`` / ``release none``: the virtual pyramid's faults a table can try
#: (``camelhost.device.virtual``: two dice fall together / the slider jams).
_FAULTS = {"two": "release_double", "none": "release_empty"}


def _is_command(word, racing):
    """True when ``word`` is a command word of three letters or more that is not (the
    start of) a racing camel's colour: ``undo``, ``quit``, ``pyramid``, ``leg``... The
    finish-card words are not: ``win red`` typed there stays unseen and is asked again."""
    if len(word) < 3 or (word not in FORMS and word not in TABLE_WORDS):
        return False
    if word in ("win", "winner", "lose", "loser", "finish"):
        return False
    return colour_name(word) not in racing and not any(c.startswith(word) for c in racing)


def release_refusal(session):
    """The one line ``release`` is refused with when ``session`` (its ``phase``) wants no
    die: what the table waits for instead, as every other command is refused then
    (``narration.phase_hint``): the race over or ended unscored, what can be done now
    (another race, or leave the table: tester s35 finding 4); a die's ink or value
    awaited, that key."""
    return "release: %s" % narration.phase_hint(session)


class Table:
    """One table: ``session`` (``camelhost.table.session.Session``), ``display`` (a
    ``camelhost.table.display.Display``, e.g. ``camelhost.ui.plain.PlainDisplay``, or
    ``None``), ``seam``: the table's one fan-out to its displays (a
    ``camelhost.table.display.Seam`` of ``session``; default: a new one), to which
    ``display`` is subscribed; ``Table.display`` is the seam, so whatever the table
    says reaches every display subscribed to it (a web board, a speaker...).
    ``pyramid``: the virtual pyramid (an object
    with ``release()`` and ``return_dice()``: ``OpenPyramid.virtual``) or ``None``
    (a real pyramid, whose slider the players push, or typed dice).
    ``auto_setup``: draw the starting stacks from the seed (virtual mode).
    ``manual``: dice are typed at the table (no pyramid); default: ``pyramid is None``.
    Only then does a die typed on a turn take a pyramid ticket by itself; with a
    pyramid (real or virtual) it is refused with a hint, unless the pyramid just
    asked for the die by hand (a gap or a sensor fault). ``speaker``: a
    ``camelhost.table.speaker.Speaker`` that says each die announcement, or ``None``.
    ``resumed``: the session was rebuilt from its journal (``--resume``): ``start``
    says how many events were restored and shows the last die; default: its journal
    is a file that already held events when the table was made.
    ``link``: the pyramid's link (``OpenPyramid.link``, a ``camelhost.device.link.Link``)
    or ``None``: given, the table tells the board the dice out this leg after every
    journal write (``camelhost.table.prior.DiceOut``, ``OUT``), whatever command runs it
    (``play``, ``demo``); the link says it again after the board restarts.
    """

    def __init__(self, session, display, pyramid=None, auto_setup=False, manual=None,
                 speaker=None, resumed=None, seam=None, link=None):
        self.session = session
        journal = session.journal
        if resumed is None:
            resumed = journal is not None and bool(journal.path) and len(journal.events) > 1
        self.resumed = resumed
        self.speaker = speaker
        self.seam = seam if seam is not None else Seam(session)
        if display is not None:
            self.seam.subscribe(display)
        if speaker is not None:  # said after it is shown
            self.seam.subscribe(Speaking(speaker))
        if link is not None:  # the board judges a refused reading among the dice still in
            self.seam.subscribe(DiceOut(link))
        self.display = self.seam
        self.virtual = pyramid
        #: the words of the last line the table took that was no empty line (a
        #: ``release`` right after a ``release``: ``_release_twice``)
        self._previous_words = None
        #: the seat whose die the release before a ``release`` that may be a double
        #: push gave (``_release_twice``), and when the last die was booked (``clock``)
        self._double_push = None
        self._die_booked_at = None
        self.auto_setup = auto_setup
        self.manual = pyramid is None if manual is None else bool(manual)
        session.dice_typed = self.manual  # the hints and prompts ask to type the die
        # a pyramid that reports dice, not the virtual one: people put the dice back
        session.dice_back_by_hand = pyramid is None and not self.manual
        self.hand_die_ok = False  # the pyramid asked for a die typed by hand
        #: True after an ``undo`` that would take back a scoring was asked about: the
        #: next line ``undo`` does it, anything else leaves it (``_undo_asked_first``)
        self.undo_asked = False
        #: the virtual pyramid's dice inside before its last push: a release the table
        #: refuses has them put back (``_virtual_dice``)
        self._inside_before_push = None
        self.waiting_release = False  # a release of the virtual pyramid is on its way
        #: the table's latest moments (``moment``), oldest first: ``(number, _Wait)``
        self._waits = []
        #: the virtual pyramid's pushes whose release has not come yet, oldest first:
        #: ``[_Wait, seat, dice]`` (``dice``: the labels that fell, once known)
        self._pushes = []
        self.quit = False
        #: ``"winner"``/``"loser"`` after a bare ``win``/``lose``: the next line is the
        #: finish card's colour, taken privately (never shown, RULES 1.8, 5).
        self.private = None
        #: a question a screen asks on its own and waits for (the full screen's
        #: finish-card picker): a callable of no arguments that closes it and says so
        #: in one line, called when a pyramid event leaves it (``_questions_left``);
        #: else ``None``. The screen sets it while the question is open.
        self.screen_question = None
        #: True when a finish card's colour typed at the table is masked as it is typed
        #: (the full screen sets it): nobody else reads it, so ``win red`` is checked
        #: as the private paths are. False (the plain mode): the terminal shows it.
        self.colours_masked = False
        #: seats that laid a finish card unseen this game (the private ``win``/``lose``,
        #: the full screen's picker): only their cards typed in view are refused unchecked
        self._laid_unseen = set()
        #: True when people read what this table prints (the plain mode typed at a
        #: terminal; ``pyramid play`` sets it): there every card on a pile is face down, however it
        #: was typed, so any colour typed in view by a player with a card on a pile is
        #: refused unchecked (RULES 1.8). False: a script, whose cards typed in view are
        #: checked as typed.
        self.watched = False
        #: a resumed table until the pyramid's first event: dice it acknowledged past the
        #: journal's last may be lines cut from the journal's end (``_foreign_text``)
        self._just_resumed = resumed
        #: the pyramid's identity is journaled (a ``board`` line) for a new game, and for a
        #: journal that holds no pyramid event yet; a journal of an older version with dice
        #: and no board line is left as it is (its resume says what it can't check)
        self._record_board = session.board is None and (
            not resumed or session.last_pyramid_event is None)
        #: the pyramid does not answer (``PyramidPresence``, or the virtual pyramid's board
        #: stopped): the ``PyramidPresence`` that said so, else ``None``. Meanwhile a die
        #: typed on a turn takes the pyramid ticket, as with dice typed at the table
        self.pyramid_away = None

    @property
    def cards_typed(self):
        """How a finish card's colour typed with it is taken here (``help_text``'s
        ``cards``): ``"masked"`` (the full screen), ``"unseen"`` (plain mode at a
        terminal: refused), ``"piped"`` (a script)."""
        if self.colours_masked:
            return "masked"
        return "unseen" if self.watched else "piped"

    @property
    def pyramid(self):
        """The virtual pyramid (or ``None``)."""
        return self.virtual

    @property
    def pyramid_kind(self):
        """``"virtual"``, ``"manual"`` (dice typed) or ``"real"``: what ``help`` shows."""
        if self.virtual is not None:
            return "virtual"
        return "manual" if self.manual else "real"

    def view(self, odds=False):
        """``camelhost.table.view.table_view`` of the session; with ``odds``, the odds
        the seam works out once per change (``Seam.odds_now``)."""
        view = table_view(self.session, odds=False, line=self.seam.line, away=self.seam.away)
        if odds:
            view["odds"] = self.seam.odds_now()
        return view

    # -- entry points ---------------------------------------------------------

    def start(self):
        """Show the table and let bots (and the drawn setup) go first."""
        self._sync_virtual_dice()  # a resumed game: its dice out lie out as they did
        if self.resumed:
            journal = self.session.journal
            self.display.text("\n".join(narration.resumed_lines(
                self.view(), journal.path, journal.restored) + journal.notes))
        self._auto_setup()
        self.display.status(self.view())
        self.drive()
        self.display.prompt(self.view())

    def line(self, text, moment=None, confirmed=False):
        """One line typed at the table. Returns False once the table should close. A
        line of Ctrl-L alone (form feeds, ``REDRAW``) shows the board and the prompt
        again, a question asked (a finish card's colour, an undo) still open, where an
        empty line would answer it; within a line it is white space.

        ``moment``: the table's ``moment`` when the line was typed (its Enter pressed),
        for a line the table takes later (typed while the screen was busy with the line
        before and the bots' moves, or while a die was on its way); ``None``: typed now.
        A player's action (``leg``, ``tile``, a finish card, ``partner``, ``pyramid``,
        a die, ``release``) is then refused in one line, nothing done, when the table
        has moved on since (another player to act, another player's move, a die that was
        on its way): it is never taken for a turn that began after it was typed
        (s36 tester findings 16, 19). While a release of the virtual pyramid is on its
        way, a player's action is refused too (``release: Ann's die is on its way``).
        The table's own lines (``show``, ``odds``, ``help``, ``undo``, ``fix``, ``quit``...)
        are taken whenever they come; those that only answer (``show``, ``odds``,
        ``best``, ``best all``, ``help``, ``position``) end with the display's
        ``answered``, the table waiting for what it waited for before.

        ``confirmed``: a ``release`` the player confirmed after the screen asked about a
        likely second push (``double_push``: the full screen's F5 asks once): booked
        without the line that says how to take a second push back."""
        if REDRAW in text:
            if not text.replace(REDRAW, "").strip():
                self.display.status(self.view())
                if self.private is not None:
                    self._ask_private()
                else:
                    self.display.prompt(self.view())
                return True
            text = text.replace(REDRAW, " ")
        try:
            text = check_line(text)
        except TableError as exc:
            if self.private is not None:  # the unseen colour: never repeated (RULES 1.8)
                self.display.error(_("that line holds a key the table can't read (an arrow "
                                   "key?); type the colour again (it is not shown), or an "
                                   "empty line to cancel"))
            else:
                self.display.error(str(exc))
            return True
        words = text.lower().split()
        if self.private is not None:
            if words == ["undo"]:  # what a player means there: not this card
                self.private = None
                self.display.text(_("no finish card played (nothing else undone)"))
                self.display.prompt(self.view())
                return True
            if words and _is_command(words[0], self.session.edition.racing):
                # a command, not a colour: the card is not played and the command runs,
                # named, since the prompt didn't show it (a command never names a card)
                self.private = None
                self.display.text(_("no finish card played (%s is a command, not a colour)")
                                  % shown(text))
            else:
                return self._private_card(words)
        if self.undo_asked and yes_or_no(text):  # 'y' answers the question: no die
            text, words = "undo", ["undo"]
        if self._undo_asked_first(words):
            self.answered_aside(text)  # asked or answered: a line between two pushes
            return True
        if not words:
            return True
        refusal = self._not_now(text, words, moment)
        previous, self._previous_words = self._previous_words, words
        self._double_push = None
        if (refusal is None and words == ["release"] and previous == ["release"]
                and not confirmed):
            self._double_push = self._release_twice()
        if refusal is not None:
            self.display.error(refusal)
            return True
        if words == ["best", "all"]:  # every action the coach valued, not the best few
            self.display.text("\n".join(narration.best_lines(self.view(odds=True), count=None)))
            self.display.answered(self.view())
            return True
        if len(words) == 1:
            done = self._table_word(words[0])
            if done is not None:
                return done
        if words[0] == "release" and len(words) == 2 and words[1] in _FAULTS:
            self._release(manual=True, fault=words[1])
            return True
        self._game_line(text)
        return True

    def _undo_asked_first(self, words):
        """An ``undo`` that would take back a leg's scoring or the race's end (coins
        handed out, tickets and tiles returned, the finish piles revealed) is asked about
        first, in one line saying what it takes back: ``undo`` typed again does it, as
        does a yes (``y``, ``yes``, German ``j``, ``ja``: ``camelhost.i18n.yes_or_no``,
        read so only while the question waits, so ``y`` is no yellow die then); an empty
        line or a no (``n``, ``no``, German ``nein``) leaves it and says nothing was undone;
        any other line (an action, a die, ``release``, ``show``, a refused line) leaves it
        too, said in the same words before the line is taken as it is, so the history
        never reads as a question left unanswered (tester46 finding 1). True when the
        line was answered here."""
        asked, self.undo_asked = self.undo_asked, False
        if words == ["undo"] and not asked:
            scoring = self.session.undo_scoring()
            if scoring is not None:
                self.undo_asked = True
                renamed = self.session.rename_notes()  # right after a rename: it stays
                self.display.text(narration.undo_question(scoring, self.session.names,
                                                          self.session.edition)
                                  + ("" if renamed is None else "\n" + renamed))
                self.display.prompt(self.view())
                return True
        elif asked and (not words or yes_or_no(" ".join(words)) is False):
            self.display.text(_("nothing undone"))
            self.display.prompt(self.view())
            return True
        elif asked and words != ["undo"]:  # left: said before what the line does
            self.display.text(_("nothing undone"))
        return False

    def _questions_left(self):
        """An event from the pyramid (a die, a release that brought none, a gap, a
        fault) pre-empts a question the table asked and waits for a typed answer: the
        undo of a scoring (``undo_asked``), a finish card's colour asked unseen
        (``private``) and a screen's own question (``screen_question``: the full
        screen's finish-card picker). Each is left and says so in one line, in the words
        its own "no" gives (``nothing undone``, ``no finish card played``), before the
        event's lines: a real pyramid's push is no typed answer, and a die out of the
        pyramid can't be refused (tester46 finding 1). The colour typed (or picked)
        after it is then never taken for the player to act next."""
        left, self.screen_question = self.screen_question, None
        if left is not None:
            left()
        if self.undo_asked:
            self.undo_asked = False
            self.display.text(_("nothing undone"))
        if self.private is not None:
            self.private = None
            self.display.text(_("no finish card played"))

    #: how many of its latest moments the table remembers (``line``'s ``moment``)
    MOMENTS_KEPT = 64
    #: seconds after a die was booked within which a ``release`` right after the
    #: ``release`` that gave it reads as a double press (``_release_twice``): a player
    #: reads the die and the turn line before pushing on purpose
    DOUBLE_PUSH_S = 3.0
    #: the clock ``DOUBLE_PUSH_S`` is measured with (seconds; a test gives its own)
    clock = staticmethod(time.monotonic)

    @property
    def moment(self):
        """The number of the table's present moment (an int): it grows whenever what the
        table waits for changes: a move made or taken back, another player to act, a
        release of the virtual pyramid on its way or come, another race. A screen that
        takes a line some time after it was typed hands ``line`` the moment it was
        typed in (``camelhost.ui.loop.Moments``)."""
        wait = self._wait_now()
        if not self._waits or not wait.same(self._waits[-1][1]):
            number = self._waits[-1][0] + 1 if self._waits else 0
            self._waits.append((number, wait))
            del self._waits[:-self.MOMENTS_KEPT]
        return self._waits[-1][0]

    def _wait_now(self):
        s = self.session
        return _Wait(s.race_no, _last_move(s), s.current, s.phase, self.waiting_release)

    def _not_now(self, text, words, moment):
        """The one line a player's action (``_for_a_seat``) is refused with when it can't
        be taken now: a release of the virtual pyramid is on its way (the table pushed
        its slider and waits for the die: ``release: Ann's die is on its way``; at setup,
        where nobody acts, ``release: a die is on its way``; a bot's:
        ``leg red: Ben (bot) is playing: wait for your turn``), or the line was typed at
        an earlier ``moment`` and the table has moved on since (``_typed_before``).
        ``None`` when it can be taken (and for every line of the table's own)."""
        typed = self._for_a_seat(text, words)
        if typed is None:
            return None
        s = self.session
        if self.waiting_release and s.current is None:
            # at setup nobody acts: the die on its way sets the next camel (a second
            # push put two dice on their way for one camel: tester finding, s36)
            if words[0] == "release":
                return _("release: a die is on its way")
            return _("%s: a die is on its way: wait for it") % typed
        if self.waiting_release:
            name = s.names[s.current]
            if words[0] == "release":
                return _("release: %s's die is on its way") % name
            if s.is_bot(s.current):
                return _("%(line)s: %(bot)s (bot) is playing: wait for your turn") % {
                    "line": typed, "bot": name}
            return _("%(line)s: %(name)s's die is on its way: wait for it") % {
                "line": typed, "name": name}
        return self._typed_before(typed, moment)

    def _for_a_seat(self, text, words):
        """The line as a refusal quotes it when it is a player's action (``release``, a
        bare ``win``/``lose``, or a line that reads as an action, a pyramid ticket, a die,
        a die's value or ink: ``Session.parse_command``), else ``None``. A finish card is
        quoted by its command word alone: its colour is never said back (RULES 1.8)."""
        head = words[0]
        if head == "release":
            if len(words) == 1 or len(words) == 2 and words[1] in _FAULTS:
                return " ".join(words)
            return None
        if words in (["win"], ["winner"], ["lose"], ["loser"]):
            return head
        if head in ("undo", "redo", "again", "unscored", "draw", "setup", "fix", "rename"):
            return None
        try:
            event = self.session.parse_command(text)
        except TableError:
            return None  # refused as it is, where the table takes it
        kind = event.get("type") if isinstance(event, dict) else getattr(event, "TYPE", None)
        if kind not in ("action", "pyramid", "die", "value", "ink"):
            return None
        if kind == "action" and event.get("action", "").startswith("finish"):
            return head
        return " ".join(text.split())

    def _typed_before(self, typed, moment):
        """The refusal of the player's action ``typed`` (as quoted) typed at the table's
        ``moment`` ``moment`` when the table has moved on since: a die was on its way
        then or a pyramid ticket waited for it, another player is to act now, another
        player moved, a move was taken back, another race began. ``None`` when it can be
        taken: typed now, or on the same player's turn, which goes on (``pyramid`` then
        ``release`` typed at once)."""
        if moment is None or moment == self.moment:
            return None
        s = self.session
        then = dict(self._waits).get(moment)
        movers, moved_on = [], True
        if then is not None and then.race == s.race_no and not then.die_on_way:
            if then.step is None:
                since = list(s.steps)
            else:
                at = [i for i, step in enumerate(s.steps) if step is then.step]
                since = s.steps[at[0] + 1:] if at else None
            if since is not None:
                others = False
                for step in since:
                    kind = step.events[0].TYPE
                    if kind == "correction":  # the board set right: nobody's move
                        continue
                    seat = _step_seat(step) if kind in ("action", "pyramid", "die") else None
                    others = others or seat is None or seat != then.seat
                    if seat is not None and seat not in movers:
                        movers.append(seat)
                moved_on = others or then.seat != s.current
        if not moved_on:
            return None  # the same player's turn goes on
        words = {"line": typed, "now": narration.phase_hint(s),
                 "name": s.names[then.seat] if then is not None and then.seat is not None
                 else None}
        if then is not None and then.die_on_way and words["name"]:
            return _("%(line)s: typed while %(name)s's die was on its way, so nothing is "
                     "done; %(now)s") % words
        if then is not None and then.phase == "die" and words["name"]:
            return _("%(line)s: typed while %(name)s's pyramid ticket waited for its die, so "
                     "nothing is done; %(now)s") % words
        if movers:
            words["who"] = narration.name_list(
                _("%s (bot)") % s.names[seat] if s.is_bot(seat) else s.names[seat]
                for seat in movers)
            return _("%(line)s: typed before %(who)s played, so nothing is done; "
                     "%(now)s") % words
        return _("%(line)s: typed before the table moved on, so nothing is done; %(now)s") % words

    def _table_word(self, head):
        """A one-word command of the table itself (not the game's): what ``line``
        returns for it, or ``None`` when ``head`` is none of them."""
        if head in ("win", "winner", "lose", "loser"):
            self._finish_pile(head)
            return True
        if head in ("quit", "exit"):
            self.quit = True
            return False
        if head == "release":
            self._release(manual=True, fault=None)
            return True
        if head in ("help", "?"):
            self.display.text(help_text(self.session.edition.name, self.pyramid_kind,
                                        self.session.names, self.cards_typed))
        elif head in ("show", "board", "status"):
            self.display.status(self.view())
        elif head == "odds":
            self.display.text("\n".join(narration.odds_lines(self.view(odds=True))))
        elif head == "best":
            self.display.text("\n".join(narration.best_lines(self.view(odds=True))))
        elif head == "position":
            self.display.text(narration.position_line(self.session))
        else:
            return None
        self.display.answered(self.view())  # the table waits for what it waited for
        return True

    def _finish_pile(self, head):
        """A bare ``win``/``lose``: ask for the finish card's colour, unseen (RULES 1.8)."""
        if self.session.phase != "turn":
            self.display.error("%s: %s" % (head, narration.phase_hint(self.session)))
            return
        none_left = self.session.no_finish_card_left()
        if none_left is not None:  # public: no colour to ask for (RULES 1.8)
            self.display.error("%s: %s" % (head, none_left))
            return
        self.private = "winner" if head.startswith("w") else "loser"
        self._ask_private()

    def _ask_private(self):
        """Ask the colour of the finish card for the pile ``self.private``, unseen."""
        self.display.text(_("%(player)s: type the colour of your finish card for the "
                            "%(pile)s pile (it is not shown; an empty line cancels)")
                          % {"player": self.session.names[self.session.current],
                             "pile": narration.pile_word(self.private)})

    def _game_line(self, text):
        """A line for the game (an action, a die, a correction...): parsed, fed to the
        session and shown, or its refusal said in the player's own words."""
        s = self.session
        event = None
        try:
            refuse_die = (s.phase == "turn" and not self.manual and not self.hand_die_ok
                          and self.pyramid_away is None)
            if refuse_die and _reads_as_die(text, s.edition):
                # refused for being typed at all, before what it lacks (grey 2: its
                # numeral colour), so one mistake gets one refusal
                event = {"type": "die"}
            else:
                event = s.parse_command(text)
            self._check_named_card(event)
            if event["type"] == "die" and s.phase == "turn" and not refuse_die:
                self._check_booked_twice(text, event)
            if event["type"] == "die" and refuse_die:
                typed = text if len(text) <= 40 else shown(text)
                if self.virtual is not None:  # its slider is a command: name it
                    raise TableError(_("%(typed)s: a die typed on %(player)s's turn: type "
                                       "'pyramid' first, or 'release' (the virtual pyramid's "
                                       "slider)") % {"typed": typed, "player": s.names[s.current]})
                raise TableError(_("%(typed)s: a die typed on %(player)s's turn: type 'pyramid' "
                                   "first, or push the slider")
                                 % {"typed": typed, "player": s.names[s.current]})
            notices = s.feed(event)
        except TableError as exc:
            message = str(exc)
            if event is not None:
                message = in_own_words(message, text, event)
            elif message == _("unknown command %s (help lists the commands)") % shown(text):
                message = self._release_meant(text) or message
            self.display.error(message)
            return
        if event["type"] == "die":
            self.hand_die_ok = False
        self._shown(notices)

    def _release_twice(self):
        """The seat whose die the ``release`` before this one (the line before, too)
        gave, when that die ended that player's turn and was booked less than
        ``DOUBLE_PUSH_S`` ago (``clock``) on the virtual pyramid; else ``None``
        (s38 tester finding 1). The booking of this release's die as the next player's
        pyramid ticket then says how to take it back (``_say_double_push``).

        Why a word rather than a refusal: a ``release`` on one's own turn is that
        player's pyramid ticket (docs/table.md), and players of the virtual pyramid
        push it turn after turn that way, so a refusal would cost every such turn a
        line; but the keyboard is shared, and a second ``release`` as the very next line
        right after the first die came is almost always the same typist's double
        press (a script's lines, piped, are taken as they come): said on its booking,
        ``undo`` takes it back cleanly. A real pyramid's slider is pushed by the player
        on turn, so there a push is that player's pyramid ticket, as always."""
        s = self.session
        last = _last_move(s)
        if (self.virtual is None or s.phase != "turn" or s.current is None or last is None
                or self._die_booked_at is None
                or self.clock() - self._die_booked_at >= self.DOUBLE_PUSH_S
                or not any(e.TYPE == "die" for e in last.events)):
            return None
        seat = _step_seat(last)
        return None if seat is None or seat == s.current else seat

    def double_push(self):
        """The seat whose die the push before gave, when a ``release`` now reads as a
        second push by mistake (``_release_twice``: the line before was a ``release``
        whose die ended that player's turn less than ``DOUBLE_PUSH_S`` ago, on the
        virtual pyramid), else ``None``. One rule, two answers: a typed ``release`` is
        booked and says how to take it back; the full screen's F5, one key hammered
        more easily than a word typed, asks once first (tester38 finding 10), and only an
        F5 pressed after that question showed pushes (``TableApp.action_release``): one
        pyramid ticket per push meant, however often F5 is hammered."""
        return self._release_twice() if self._previous_words == ["release"] else None

    def answered_aside(self, text):
        """Note ``text`` (a str), a line a screen typed and answered itself without
        ``line`` (the full screen's ``show``, ``help``, a bare ``win`` opening its
        picker; ``line``'s own ``undo`` asked about and its answers), as the last line
        typed: something happened between two pushes, so a
        ``release`` or an F5 after it is no likely second push (``double_push``). An
        empty line is no line (as in ``line``). Changes nothing else."""
        words = text.lower().split()
        if words:
            self._previous_words, self._double_push = words, None

    def _say_double_push(self, notices):
        """When a die is booked, before its lines are said: when it is the pyramid ticket
        of a ``release`` that ``_release_twice`` found right after another, one line
        saying how to take it back, so the die's lines and the scoring of the leg it
        may end come after it. Notes when the die was booked (``clock``)."""
        if not any(n["kind"] == "die" for n in notices):
            return
        self._die_booked_at = self.clock()
        before, self._double_push = self._double_push, None
        s = self.session
        taken = [n for n in notices if n["kind"] == "pyramid" and n.get("die")]
        if before is None or not taken:
            return
        self.display.text(_("%(name)s's pyramid ticket came from a 'release' right after "
                            "the one that gave %(before)s's die: type 'undo' if that was a "
                            "second push by mistake") % {"name": s.names[taken[0]["player"]],
                                                  "before": s.names[before]})

    def _check_booked_twice(self, text, event):
        """Raise ``TableError`` when the die ``event`` (a parsed typed die, as a dict),
        typed on a turn without ``pyramid`` first, is the very die just booked and that
        die ended a leg or the setup (s38 tester finding 8): all dice are back in the
        pyramid then, so the "already out this leg" check can't catch the line typed
        twice, and it would be booked as the next player's pyramid ticket. The one line
        says which die it was and what to type when the player to act really took a
        pyramid ticket (``pyramid`` first, then the die); nothing changes."""
        s = self.session
        last = _last_move(s)
        if last is None or s.current is None:
            return
        booked = last.events[-1]
        if booked.TYPE == "value" and len(last.events) >= 2:  # a die whose value came later
            die, value = last.events[-2], booked.value
        else:
            die, value = booked, getattr(booked, "value", None)
        if die.TYPE != "die" or value is None or die.source == "pyramid":
            return  # a die the pyramid released, not typed: no line typed twice
        same = (event.get("colour") == die.colour and event.get("value") == value
                and (die.colour != "grey" or die.ink is None or event.get("ink") in
                     (None, die.ink)))
        if not same:
            return
        words = {"line": text if len(text) <= 40 else shown(text),
                 "name": s.names[s.current]}
        if last.mark.get("phase") == "setup":
            raise TableError(_("%(line)s: that die was just typed as the setup's last die; "
                               "if %(name)s really took a pyramid ticket and this die came "
                               "out, type 'pyramid' first, then the die") % words)
        if s.reports and s.reports[-1].get("leg_ended") and not s.reports[-1].get("race_over"):
            words["leg"] = s.game.leg - 1
            raise TableError(_("%(line)s: that die was just typed as the last die of leg "
                               "%(leg)d; if %(name)s really took a pyramid ticket and this "
                               "die came out, type 'pyramid' first, then the die") % words)

    def _release_meant(self, text):
        """The refusal of a one-word line the parser knows no command for, when it is
        ``release`` misspelt (``relase``, ``realese``: ``suggest.nearest``) and this
        table's pyramid releases a die now (a virtual pyramid, answering, in the setup,
        a turn or a die awaited): ``release`` is the table's command, which the parser
        does not know (s37 tester 9); else ``None``."""
        from camelhost.suggest import nearest
        words = text.split()
        if (len(words) != 1 or self.virtual is None or self.pyramid_away is not None
                or self.session.phase not in ("setup", "turn", "die")
                or nearest(words[0], ["release"]) is None):
            return None
        return _("unknown command %(typed)s; did you mean %(command)s? (help lists the "
                 "commands)") % {"typed": shown(text), "command": shown("release")}

    def _check_named_card(self, event):
        """A finish card typed with its colour where everyone reads it (``win red`` in
        the plain mode; not ``colours_masked``), at a ``watched`` table (a terminal
        people read), by any player, the first card too: a finish card is laid face
        down (RULES 1.8; the display shows the piles' counts only, never colours, 5),
        so it is refused in one line pointing to the private ``win``/``lose``, and the
        line is the same whatever the colour and whether or not it lies on a pile, so
        the refusal never tells which cards lie face down. The same for a player who
        laid a card unseen earlier (the private ``win``/``lose`` or the picker) at any
        table. A script (not ``watched``) whose cards were all typed in view has
        nothing hidden that a refusal could tell: the card is checked as typed (``win
        red`` every time plays on). Raises ``TableError``."""
        s = self.session
        action = event.get("action", "") if event.get("type") == "action" else ""
        words = action.split()
        if (words[:1] != ["finish"] or s.phase != "turn" or s.game is None
                or self.colours_masked):
            return
        seat = s.current
        held = s.game.finish_cards_in_hand(seat)
        if not held:
            return  # no card left: said by the session, public (RULES 1.8)
        face_down = len(held) < len(s.edition.racing)
        if seat not in self._laid_unseen and not self.watched:
            return  # nothing laid unseen, and nobody watching: checked as typed
        word = "win" if words[1] == "winner" else "lose"
        if not face_down:  # public: the piles show who laid each card
            raise TableError(_("%(player)s: a finish card is laid face down, so one typed "
                               "with its colour in view is not played; type '%(command)s' "
                               "alone, then the colour (not shown) (RULES 1.8)")
                             % {"player": s.names[seat], "command": word})
        raise TableError(_("%(player)s has a finish card face down, so a card typed with its "
                           "colour in view is not played (checking it could tell which colours "
                           "lie face down); type '%(command)s' alone, then the colour (not "
                           "shown) (RULES 1.8)")
                         % {"player": s.names[seat], "command": word})

    def play_unseen(self, pile, colour):
        """The finish card ``colour`` on ``pile`` (``"winner"``/``"loser"``), chosen
        where nobody else sees it (the full screen's picker, the plain mode's colour
        asked after ``win``): played, or refused in one line that names no colour (RULES
        1.8, 5). Returns True when it was played."""
        seat = self.session.current
        try:
            notices = self.session.command("finish %s %s" % (pile, colour))
        except TableError as exc:
            self.display.error(self._masked(str(exc)))
            return False
        self._laid_unseen.add(seat)
        self._shown(notices)
        return True

    def _colourless(self, reason):
        """``reason`` (a refusal) without its head and with every racing colour's name
        replaced by 'that colour'."""
        return self._masked(reason.split(": ", 1)[-1])

    def _masked(self, text):
        """``text`` with every racing colour's name, the edition's and the table's
        language's (``colour_word``: German ``rot``), replaced by 'that colour'."""
        for colour in self.session.edition.racing:
            for word in {colour, colour_word(colour)}:
                text = re.sub(r"\b%s\b" % re.escape(word), _("that colour"), text)
        return text

    def _private_card(self, words):
        """The colour typed after a bare ``win``/``lose``: played, never echoed. A
        colour that can't be played asks again, still unseen (an empty line cancels);
        the refusal never names a colour."""
        pile, self.private = self.private, None
        if not words:
            self.display.text(_("no finish card played"))
            self.display.prompt(self.view())
            return True
        again = _("type the colour again (it is not shown), or an empty line to cancel")
        racing = self.session.edition.racing
        if len(words) != 1:
            self.private = pile
            self.display.error(_("type just the colour of the finish card; %s") % again)
            return True
        seat = self.session.current
        word = words[0].lower()
        # its number in the edition's order, or letters that name it alone, in English or
        # the table's language, as the full screen's picker reads them (German g: grün
        # or gelb, so neither)
        hits = ([racing[int(word) - 1]] if word.isdigit() and 1 <= int(word) <= len(racing)
                else colour_hits(word, racing))
        if len(hits) > 1:
            self.private = pile
            numbered = ", ".join("%d %s" % (i + 1, colour_word(c)) for i, c in enumerate(racing))
            self.display.error(_("those letters begin more than one colour's name: type more "
                                 "of it, or its number (%(numbered)s); %(again)s")
                               % {"numbered": numbered, "again": again})
            return True
        try:
            notices = self.session.command("finish %s %s" % (pile, hits[0] if hits else word))
        except TableError as exc:
            self.private = pile
            foreign = None if hits else foreign_colour_hint(word, racing)
            if foreign is not None:  # German 'rot' at an English table: which, never said
                self.display.error("%s; %s" % (foreign, again))
            elif not hits and colour_name(local_colours().get(word, word)) not in racing:
                self.display.error(_("that is not a racing camel's colour (%(colours)s); "
                                     "%(again)s") % {"colours": colour_list(racing),
                                                     "again": again})
            else:
                self.display.error(_("that finish card can't be played: %(why)s; %(again)s")
                                   % {"why": self._colourless(str(exc)), "again": again})
            return True
        self._laid_unseen.add(seat)
        self._shown(notices)
        return True

    def _board_identity(self, identity):
        """The game's pyramid (a ``PyramidIdentity``), journaled once: a resume checks
        the board against it and, with no die journaled, goes on from where it began
        (``Session.resume_point``)."""
        try:
            if self._record_board:
                self._record_board = False
                self.session.record_board(identity.fields)
        except TableError as exc:
            self.display.error(_("pyramid: %s") % exc)

    def pyramid_event(self, event):
        """One event from the pyramid link: a ``camelhost.device.events.DieEvent`` (the
        link de-duplicated it on (boot, seq)), turned into the table's event once
        (``camelhost.table.events.from_link``: a ``Die`` goes on as it is). A die the game refuses is journaled as
        rejected and said; a gap or a sensor fault asks for the die typed (the fault is
        journaled, as a gap is, as ``rejected`` of its kind: ``Session.dieless``). A
        ``camelhost.device.open.LineQuality`` (the line to the pyramid got noisy, or
        clean again) goes into the view (``line``) and is said in one line. A
        ``camelhost.device.open.PyramidIdentity`` (the pyramid's full ``HELLO``) is
        journaled as the game's ``board`` line, once (``Session.record_board``): for a
        new game, or a resumed journal that holds no pyramid event yet. A
        ``camelhost.device.open.PyramidRestarted`` (a new boot in its ``HELLO``) is said
        while a die is awaited (``_restarted``)."""
        if isinstance(event, LineQuality):
            self._line_quality(event)
            return
        if isinstance(event, PyramidIdentity):
            self._board_identity(event)
            return
        if isinstance(event, PyramidPresence):
            self._presence(event)
            return
        if isinstance(event, PyramidRestarted):
            self._restarted()
            return
        s = self.session
        if self._late(event):
            return
        self.waiting_release = False
        self._questions_left()  # the table changes: a question left says so first
        link_event = event
        try:
            event = events.from_link(event)
        except TableError as exc:
            self.display.error(str(exc))
            return
        if isinstance(event, (events.Die, events.Release)):
            self._just_resumed = False  # the link delivers this table's dice again
        if isinstance(event, events.Die) and event.ink_unsure and s.phase == "value":
            event = events.Release(kind="unknown", raw=event.raw, boot=event.boot,
                                   seq=event.seq, best=event.best)
        event, prior = self._judged_in_play(event, link_event)
        if isinstance(event, events.Die):
            self.hand_die_ok = False
            try:
                notices = s.feed(event)  # the slider pushed without 'pyramid': it says so
                if prior:
                    notices = list(notices) + [{"kind": "info", "text": _(
                        "the pyramid read the %(die)s die among the dice still in it (%(out)s "
                        "already out this leg)") % {"die": colour_word(event.colour),
                                                    "out": colour_list(prior)}}]
                if getattr(link_event, "dim", False):
                    # named, yet under the light floor (the firmware's dim=1): the maker
                    # hears it before such readings become refusals (maker finding 6b)
                    notices = list(notices) + [{"kind": "info", "text": _(
                        "the sensor saw little light on the %s die (it counts; more light "
                        "keeps such readings from being refused: pyramid doctor checks it)")
                        % colour_word(event.colour)}]
            except TableError as exc:
                try:
                    notices = s.reject(event, str(exc))
                except TableError:
                    notices = []
                if not any(n["kind"] == "retry" for n in notices):
                    self.display.error(_("pyramid: %s") % exc)
                # else the retry line says it (why, and what to do), once
            self._shown(notices)
        elif isinstance(event, events.Release):
            try:
                # a colour unread because the sensor saw too little light says so
                notices = s.reject(event, "dim" if event.kind == "unknown" and event.dim
                                   else event.kind)
            except TableError as exc:
                self.display.error(str(exc))
                return
            self._shown(notices)
        elif isinstance(event, events.Gap):
            self.hand_die_ok = True
            view = self.view()
            self.display.notices([{"kind": "manual", "text": _(
                "the pyramid lost events %(events)s; %(ask)s (e.g. '%(example)s')")
                                   % {"events": event.missing, "ask": _(narration.TYPE_DIE),
                                      "example": narration.example_die(view)}}],
                                 view)
            s.dieless(link_event)  # said: a resume does not name them again
        elif isinstance(event, events.Foreign):
            # another table took these since this game's last die (issue 29, item 1), or,
            # on a resume, the journal lost them from its end (item 9)
            self.display.notices([{"kind": "info", "text": self._foreign_text(
                link_event, event)}], self.view())
        else:  # a Fault
            self.hand_die_ok = True
            # the pyramid's event is journaled (no die): a resume does not take it for a
            # die the journal lost (journal.behind_pyramid)
            s.dieless(link_event)
            self.display.notices([{"kind": "manual", "text": self._fault_words(event)}],
                                 self.view())

    def _late(self, event):
        """True when ``event`` is a release of the virtual pyramid (a die, two, none, an
        unread colour) that comes after the table moved on from the push that let it out
        (a move made or taken back since, another player to act: s36 tester finding 16):
        no pyramid ticket asked for it, so it is not taken for whoever acts now (a push
        on one's own turn takes a ticket, docs/table.md, but this push was on another
        turn). Said in one line; its dice go back into the virtual pyramid; nothing else
        changes; journaled (``Session.late``), so that a resume finds it. A release whose
        push was made as the table is now is taken (the oldest such push answered); so is
        any event while no push is known (a resume)."""
        if (self.virtual is None or not self._pushes
                or getattr(event, "kind", None) not in ("die", "nodie", "double", "unknown")):
            return False
        now = self._wait_now()
        for pushed in self._pushes:
            if pushed[0].same(now, die=False):
                self._pushes.remove(pushed)
                return False
        _wait, seat, dice = self._pushes.pop(0)
        if dice is None:
            dice = [] if event.kind != "die" else [(event.colour, None)]
        colours = [split_die_label(label)[0] for label, _value in dice]
        sim = getattr(self.virtual, "table", None)
        if sim is not None:
            for colour in colours:
                if colour not in sim.inside:
                    sim.inside.append(colour)
                if colour in sim.out:
                    sim.out.remove(colour)
        name = None if seat is None else self.session.names[seat]
        # journaled (a resume finds what was said, and the link goes on after it), said
        # with what the table knows now: the push's player, every die that fell
        notices = self.session.late(event)
        text = narration.late_release(event.kind, colours, name)
        self.display.notices([dict(n, text=text) for n in notices], self.view())
        self.display.prompt(self.view())
        return True

    def _judged_in_play(self, event, link_event):
        """``(event, prior)``: a die the pyramid named among the dice still in it (its
        ``out=``, docs/classifier.md "In play") as it is, with ``prior`` the dice out
        this leg that decided it, while that mask is the leg's; judged with another
        mask (a stale ``OUT``: an undo, a resume, a leg that just ended) it is an
        unread colour, so the dice go back and are released again. Any other event:
        ``(event, None)``."""
        out = getattr(link_event, "out", None)
        if not isinstance(event, events.Die) or out is None:
            return event, None
        s = self.session
        g = s.game
        dice = out_dice(s.edition, out)
        if g is None or out != out_mask(s.edition, g.dice_out):
            return events.Release(kind="unknown", raw=event.raw, boot=event.boot, seq=event.seq,
                                  dim=bool(getattr(link_event, "dim", False))), None
        return event, dice

    @staticmethod
    def _fault_words(event):
        """What the table says of a ``events.Fault``: the pyramid's fault code in words
        (``camelhost.device.events.fault_text``), or why the link stopped; then what to
        do. One line."""
        if event.code:
            return _("pyramid: %s; type the die by hand") % fault_text(event.code)
        if event.reason:
            return _("the link to the pyramid stopped (%s); type the die by hand") % event.reason
        return _("the pyramid could not read the die; type the die by hand")

    def _line_quality(self, event):
        """The line to the pyramid fell under the link's threshold, or is back over it:
        the view's ``line`` changes (published to every display: the web board shows it)
        and the table says it in one line, once per change (the link hands over only the
        changes). A die on its way is still waited for."""
        whole = percent(event.quality)
        self.seam.line = {"noisy": event.noisy, "quality": round(event.quality, 2)}
        self.seam.republish()
        if event.noisy:
            text = _("the line to the pyramid is noisy: %s of its lines arrive whole (check "
                     "the USB cable and its plugs); every die still arrives, more slowly") % whole
        else:
            text = _("the line to the pyramid is clean again: %s of its lines arrive "
                     "whole") % whole
        self.display.notices([{"kind": "info", "text": text}], self.view())

    def _presence(self, event):
        """The pyramid stopped answering, or answers again (a ``PyramidPresence``): said
        in one line at each change (nothing on a change of nothing), once: not again at
        each die awaited while it stays away (the prompts ask for the die typed), only
        when a ``release`` is typed for a real port (the virtual pyramid's ``release`` is
        then refused in one line). While it is away no die is waited for from it
        (``waiting_release`` off) and dice are typed."""
        if not event.present:
            was = self.pyramid_away
            self._away(event)
            if was is None or was.other != event.other:
                self._say_away()
                self.display.prompt(self.view())
            return
        if self.pyramid_away is None:
            return
        self.pyramid_away = None
        self.session.dice_typed = self.manual
        self.seam.away = None
        self.seam.republish()  # the web board's header asks for a release again
        text = _("the pyramid answers again: release the dice from it")
        out = narration.dice_out_words(self.view())
        if out:  # plugged back (or an emulator restarted), it may hold every die again
            text = _("%(back)s; %(out)s") % {"back": text, "out": out}
        self.display.notices([{"kind": "info", "text": text}], self.view())
        self.display.prompt(self.view())

    def _restarted(self):
        """The pyramid restarted (a ``PyramidRestarted``): while a die is awaited, said in
        one line (``narration.restart_words``: type the die if one came out, else release
        again; tester2 s35, finding 15: a die released during the restart was lost
        unsaid); nothing otherwise. The game is unchanged either way."""
        text = narration.restart_words(self.view())
        if text is None:
            return
        # a release on its way may be lost: the die is typed or released again
        self.waiting_release = False
        self.display.notices([{"kind": "info", "text": text}], self.view())
        self.display.prompt(self.view())

    def _away(self, event):
        """The pyramid is away (``event``, a ``PyramidPresence``): no die waited for from
        it, and the prompts ask for the die typed (``Session.dice_typed``) until it is back."""
        self.pyramid_away = event
        self.waiting_release = False
        self.session.dice_typed = True
        away = {"port": event.port, "virtual": self.virtual is not None}
        if self.seam.away != away:
            self.seam.away = away
            self.seam.republish()  # the web board says it, and asks for the die typed

    def _say_away(self):
        """The pyramid-away line (``pyramid_away``): what to do, one line. A real port:
        check its USB cable; the virtual pyramid (no cable, never back by itself) and a
        pseudo-terminal that ended (never reopened): quit and resume on it; a
        pseudo-terminal still open but silent (an emulated pyramid: no cable): its
        emulator restarting the board, or a resume; with the
        port's path now another device's, that nothing is written to it and how to point
        the table at the pyramid; a pseudo-terminal lost for good while one emulated Pico
        runs elsewhere that can be this game's board (``PyramidPresence.emulator``): its
        port for the resume; while several can (``PyramidPresence.emulators``): their ports,
        one of these."""
        away = self.pyramid_away
        example = narration.example_die(self.view())
        virtual = self.virtual is not None
        if away.other is None and virtual:
            text = _("the virtual pyramid stopped: type the dice meanwhile, e.g. '%(die)s'; "
                     "for its dice again, quit and resume: %(command)s") % {
                         "die": example, "command": self._resume_on("virtual")}
        elif away.other is None and not away.reopened and away.emulator:
            # an emulated Pico started again on another pseudo-terminal (tester s45b, 3)
            text = _("the pyramid is not answering: its port %(port)s, a pseudo-terminal, "
                     "ended and is not opened again; type the dice meanwhile, e.g. '%(die)s'; "
                     "an emulated Pico runs on %(emulator)s: quit and resume with --pyramid "
                     "%(emulator)s: %(command)s") % {
                         "port": away.port, "die": example, "emulator": away.emulator,
                         "command": self._resume_on(away.emulator)}
        elif away.other is None and not away.reopened and away.emulators:
            # several emulated Picos run, none known to be this game's board: the maker
            # picks among them (tester s45b, finding 3)
            text = _("the pyramid is not answering: its port %(port)s, a pseudo-terminal, "
                     "ended and is not opened again; type the dice meanwhile, e.g. '%(die)s'; "
                     "%(emulators)s") % {"port": away.port, "die": example,
                                         "emulators": self._one_of(away.emulators)}
        elif away.other is None and not away.reopened:
            text = _("the pyramid is not answering: its port %(port)s, a pseudo-terminal, "
                     "ended and is not opened again; type the dice meanwhile, e.g. '%(die)s'; "
                     "for its dice again, quit and resume with its port: %(command)s") % {
                         "port": away.port, "die": example,
                         "command": self._resume_on(port_word())}
        elif away.other is None and away.pty and not away.emulated:
            # a pseudo-terminal still open but silent, not the emulator's (a virtual
            # pyramid's, a bridge's): no cable, and no emulator's keys to name
            text = _("the pyramid is not answering: its port %(port)s is a pseudo-terminal "
                     "(no cable to check), still open; type the dice meanwhile, e.g. "
                     "'%(die)s'; it answers again once the program behind it restarts the "
                     "board, or quit and resume with its port: %(command)s") % {
                         "port": away.port, "die": example, "command": self._resume_on(port_word())}
        elif away.other is None and away.pty:
            # the emulated Pico's pseudo-terminal, open but silent: no cable; its emulator
            # restarts it, with a key of the emulator's terminal
            text = _("the pyramid is not answering: its port %(port)s is a pseudo-terminal "
                     "(an emulated pyramid, no cable to check), still open; type the dice "
                     "meanwhile, e.g. '%(die)s'; it answers again once its emulator restarts "
                     "the board (x in the emulator's terminal), or quit and resume with its "
                     "port: %(command)s") % {"port": away.port, "die": example,
                                             "command": self._resume_on(port_word())}
        elif away.other is None:
            text = _("the pyramid is not answering: check its USB cable; type the dice "
                     "meanwhile, e.g. '%s'") % example
        elif virtual:
            text = _("the pyramid's port %(port)s is now %(what)s: nothing is written to it. "
                     "Type the dice meanwhile, e.g. '%(die)s'; for the virtual pyramid's dice "
                     "again, quit and resume: %(command)s") % {
                         "port": away.port, "what": away.other, "die": example,
                         "command": self._resume_on("virtual")}
        elif not away.reopened and away.emulated:
            # a running pyramid emulate recorded the lost port as its emulated Pico's
            # (the same --flash image plugged back, or another): a resume on it opens it
            text = _("the pyramid's port %(port)s is now %(what)s: nothing is written to it "
                     "until you resume on it. Type the dice meanwhile, e.g. '%(die)s'; for "
                     "its dice, quit and resume on it: %(command)s") % {
                         "port": away.port, "what": away.other, "die": example,
                         "command": self._resume_on(away.port)}
        elif not away.reopened and away.emulator:
            text = _("the pyramid's port %(port)s is now %(what)s: nothing is written to it. "
                     "Type the dice meanwhile, e.g. '%(die)s'; an emulated Pico runs on "
                     "%(emulator)s: quit and resume with --pyramid %(emulator)s: "
                     "%(command)s") % {
                         "port": away.port, "what": away.other, "die": example,
                         "emulator": away.emulator, "command": self._resume_on(away.emulator)}
        elif not away.reopened and away.emulators:
            text = _("the pyramid's port %(port)s is now %(what)s: nothing is written to it. "
                     "Type the dice meanwhile, e.g. '%(die)s'; %(emulators)s") % {
                         "port": away.port, "what": away.other, "die": example,
                         "emulators": self._one_of(away.emulators)}
        elif not away.reopened:
            text = _("the pyramid's port %(port)s is now %(what)s: nothing is written to it. "
                     "Type the dice meanwhile, e.g. '%(die)s'; for the pyramid's dice again, "
                     "quit and resume with its port: %(command)s") % {
                         "port": away.port, "what": away.other, "die": example,
                         "command": self._resume_on(port_word())}
        else:
            text = _("the pyramid's port %(port)s is now %(what)s: nothing is written to it. "
                     "Type the dice meanwhile, e.g. '%(die)s'; for the pyramid's dice again, "
                     "plug it in again, or quit and resume with its port: %(command)s") % {
                         "port": away.port, "what": away.other, "die": example,
                         "command": self._resume_on(port_word())}
        self.display.notices([{"kind": "info", "text": text}], self.view())

    def _one_of(self, ports):
        """The clause of the pyramid-away line naming the running emulated Picos
        ``ports`` (paths), several of which can be this game's board
        (``PyramidPresence.emulators``), with the resume on the one that is."""
        return _("emulated Picos run on %(ports)s: quit and resume with --pyramid and the "
                 "port of this game's board, one of these: %(command)s") % {
                     "ports": ", ".join(ports), "command": self._resume_on(port_word())}

    def _resume_on(self, pyramid):
        """The command that resumes this game with ``--pyramid`` ``pyramid`` (a port's
        placeholder ``PORT``, or ``virtual``): the journal's own resume command
        (``Journal.resume_command``: ``--plain``, ``--lang`` as the table runs)."""
        journal = self.session.journal
        command = getattr(journal, "resume_command", None)
        if not command:
            command = "pyramid play --resume %s" % (getattr(journal, "path", None) or _("FILE"))
        return re.sub(r" --pyramid \S+", "", command) + " --pyramid " + pyramid

    def _foreign_text(self, link_event, event):
        """What the table says of dice the pyramid acknowledged to another host
        (``link_event``: the link's ``foreign`` ``DieEvent``; ``event``: its
        ``events.Foreign``): right after a resume, also that the journal may have been
        cut at its end (``journal.behind_pyramid``, with what to do); later, while this
        table played on, only another table can have taken them."""
        just_resumed, self._just_resumed = self._just_resumed, False
        journal = self.session.journal
        dice = self._dice_inside() if self.session.dice_back_by_hand else []
        if just_resumed and journal is not None:
            last = getattr(link_event.missing, "last", None)
            if last is None and link_event.missing:
                last = max(link_event.missing)
            behind = behind_pyramid(journal.events, link_event.boot, last)
            if behind is not None:
                if dice:  # the other cause: the dice that table let out are still out
                    behind += _(". Else put back in the pyramid any of these dice that are "
                                "out of it: %s") % ", ".join(dice)
                return behind
        text = _("the pyramid served another table since this game's last die: its events %s "
                 "were that table's and are left out") % event.missing
        if dice:  # the dice that table let out are out of the pyramid: this game's go back
            text += _("; put back in the pyramid any of these dice that are out of it: "
                      "%s") % ", ".join(dice)
        return text

    def _dice_inside(self):
        """The dice this game counts inside the pyramid, by name (edition order): in
        play ``Game.dice_in_pyramid``; at setup those of the camels still to place (the
        grey die while a crazy camel is, RULES 2.2, 3.2)."""
        s = self.session
        if s.game is not None:
            return list(s.game.dice_in_pyramid())
        if s.phase != "setup":
            return []
        placed = [c for c, _v in s.setup_rolls]
        crazy_left = any(c not in placed for c in s.edition.crazy)
        return [d for d in s.edition.dice
                if (crazy_left if d == "grey" else d not in placed)]

    @property
    def over(self):
        """True when the race is over (or ended unscored)."""
        return self.session.phase in ("over", "unscored")

    # -- internals ------------------------------------------------------------

    def _show(self, notices):
        self.display.notices(notices, self.view())
        self._virtual_dice(notices)
        if any(n.get("scoring_undone") for n in notices):
            # a scoring taken back: the whole table as it is again (coins, tickets,
            # tiles), as 'show' gives it, for the players to put back
            self.display.status(self.view())

    def _shown(self, notices):
        # the line on a likely second push first: the die's own lines, and the leg's
        # scoring when the die ended the leg, are what the table says last (s44: the
        # line came after the scoring and ended the history)
        self._say_double_push(notices)
        self._show(notices)
        if any(n["kind"] == "new_race" for n in notices):
            notices = list(notices) + self._auto_setup()
        if any(n["kind"] == "setup" for n in notices):
            # the race is set up (typed, drawn, by dice, or drawn by the table itself
            # after 'again'): the whole board, as a resume or 'show' gives it, before
            # the first turn
            self.display.status(self.view())
        self.drive()
        # a die awaited while the pyramid is away: its line is not said again (it was
        # said when the pyramid went away, and the prompt asks for the die typed; tester
        # s41 finding 2: a real or emulated port's line came at every die awaited)
        self.display.prompt(self.view())

    def _return_dice(self):
        if self.virtual is not None:
            self.virtual.return_dice()

    def _virtual_dice(self, notices):
        """The virtual pyramid's dice follow what the table tells people to do with a
        real one, notice by notice, so that it holds what a real pyramid would: all
        back in at a leg end, a new race and a race set up; a die typed by hand is out of
        it; a release the table refuses ("return the dice and release again") puts back
        what that push let out; after an undo or a redo, exactly the dice its line names
        go back in and come out again (``dice_moves``). It is never set to the game's
        own count after the start, so a line that named the wrong dice would show as a
        die the game refuses."""
        if self.virtual is None:
            return
        sim = getattr(self.virtual, "table", None)
        for n in notices:
            kind = n["kind"]
            if kind == "dice_left" and n["new_leg"] or kind == "new_race":
                self._return_dice()
            elif kind == "setup":  # a race set up: leg 1 begins with every die inside
                self._sync_virtual_dice()
            elif sim is None:
                continue
            elif kind == "die":
                colour = n["move"]["die"]
                if colour in sim.inside:  # typed by hand: it is out of the pyramid too
                    sim.inside.remove(colour)
                    sim.out.append(colour)
            elif kind == "retry" and self._inside_before_push is not None:
                sim.inside = list(self._inside_before_push)
                sim.out = [d for d in self.session.edition.dice if d not in sim.inside]
            elif n.get("dice_moves"):
                moves = n["dice_moves"]
                for colour in moves["back"]:
                    if colour not in sim.inside:
                        sim.inside.append(colour)
                for colour in moves["out"]:
                    if colour in sim.inside:
                        sim.inside.remove(colour)
                sim.out = [d for d in self.session.edition.dice if d not in sim.inside]
        if sim is not None and self.session.phase == "setup":
            # at setup (a drawn setup undone, a camel placed by its die): the dice of the
            # camels still to place are inside, as the table's words have them put back
            sim.inside = self._dice_inside()
            sim.out = [d for d in self.session.edition.dice if d not in sim.inside]

    def _auto_setup(self):
        """Draw the race's setup when the table draws it itself (``auto_setup``) and
        it is still to do; show and return its notices ([] when nothing was drawn)."""
        if self.auto_setup and self.session.phase == "setup" and not self.session.setup_rolls:
            notices = self.session.command("draw")
            self._show(notices)
            return notices
        return []

    def _release(self, manual=False, fault=None):
        if self.session.phase not in ("setup", "turn", "die"):  # no die wanted: why, first
            self.display.error(release_refusal(self.session))
            return
        if self.virtual is None:
            if self.manual:
                self.display.error(_("no pyramid is attached (dice are typed): type the die, "
                                   "e.g. '%s 2'") % colour_word(self.session.edition.racing[0]))
            elif self.pyramid_away is not None:  # it can't release: what to do instead
                self._say_away()
            else:
                self.display.error(_("the pyramid here is a real one: release the die from it, "
                                   "or type the die"))
            return
        sim = getattr(self.virtual, "table", None)
        self._inside_before_push = None if sim is None else list(sim.inside)
        push = self.virtual.release
        if fault is not None:
            push = getattr(self.virtual, _FAULTS[fault], None)
            if push is None:
                self.display.error(_("release %s: this pyramid can only release one die") % fault)
                return
        if self.pyramid_away is not None:  # its board stopped: said once, not pushed again
            self.display.error(_("release: the virtual pyramid stopped, so the dice are typed "
                                 "now: type the die, e.g. '%s'") % narration.example_die(
                                     self.view()))
            return
        self.waiting_release = True
        pushed = [self._wait_now(), self.session.current, None]
        self._pushes.append(pushed)  # before the push: a release may come at once
        del self._pushes[:-PUSHES_KEPT]
        try:
            fell = push()
            pushed[2] = getattr(fell, "dice", None)
        except RuntimeError as exc:  # the simulated board stopped or did not answer
            if pushed in self._pushes:
                self._pushes.remove(pushed)
            self.waiting_release = False
            log.info("the virtual pyramid's release failed: %s", exc)  # the detail, logged
            self._away(PyramidPresence(False, getattr(self.virtual, "port", None),
                                       reopened=False))
            self._say_away()

    def _sync_virtual_dice(self):
        """Virtual pyramid only, at the table's start: put exactly the dice the game has
        inside into the simulated pyramid, as they lie at the table a game resumes at
        (the virtual pyramid starts with every die inside). After that its dice follow
        the table's words (``_virtual_dice``)."""
        sim = getattr(self.virtual, "table", None)
        if sim is None or self.session.game is None:
            return
        inside = list(self.session.game.dice_in_pyramid())
        sim.inside = inside
        sim.out = [d for d in self.session.edition.dice if d not in inside]

    def drive(self):
        """Let bots act while it is a bot's turn (at most one pending release). The
        virtual pyramid's die is answered for a bot (released again for an unread ink,
        the seeded value for an unread value); a real pyramid's die lies on the table,
        so its ink or value waits for a player's key, as for a person's die."""
        s = self.session
        for _turn in range(200):  # bounded: a bot never loops on the same state
            seat = s.current
            if seat is None or not s.is_bot(seat) or self.waiting_release:
                return
            if s.phase == "turn":
                text, _why = bots.choose(s.game, s.names)
                self._show(s.command(text))
                continue
            if s.phase == "die":
                if self.virtual is not None and self.pyramid_away is None:
                    self._release()
                return
            if s.phase == "ink":
                if self.virtual is not None:
                    # the virtual pyramid: the bot has the dice released again
                    self._show(s.command("again"))
                    continue
                return  # a real die on the table: the players key its ink
            if s.phase == "value":
                if self.virtual is not None:
                    # the virtual pyramid: no die lies on a table, the seeded value is its face
                    count = len(s.journal.events) if s.journal is not None else 0
                    self._show(s.command(str(bots.value_for_unknown(s.seed, count))))
                    continue
                # a real die on the table shows its face: a player keys it, as for a
                # person's die (tester s35-2 finding 6: an invented value moved the camel)
                return
            return


def _reads_as_die(text, edition):
    """True when ``text`` is a die as typed (``red 2``, ``grey 2``: the grey die's
    numeral colour left out, as at setup): ``camelhost.table.manual.parse_die``."""
    from camelhost.table.manual import parse_die

    try:
        parse_die(text, edition.name, ink_optional=True)
    except ValueError:
        return False
    return True


class _Wait:
    """What the table waited for at one of its moments (``Table.moment``): the race
    (its number), the last move of it (a ``Session`` step, a correction aside: the
    object itself), the seat to act, the phase, and whether a release of the virtual
    pyramid was on its way."""

    __slots__ = ("race", "step", "seat", "phase", "die_on_way")

    def __init__(self, race, step, seat, phase, die_on_way):
        self.race, self.step, self.seat = race, step, seat
        self.phase, self.die_on_way = phase, die_on_way

    def same(self, other, die=True):
        """True when ``other`` is the same wait (``die``: whether a die is on its way
        counts too)."""
        return (self.race == other.race and self.step is other.step
                and self.seat == other.seat and self.phase == other.phase
                and (not die or self.die_on_way == other.die_on_way))


def _last_move(session):
    """The last step of ``session``'s race that is no board correction, or ``None``."""
    for step in reversed(session.steps):
        if step.events[0].TYPE != "correction":
            return step
    return None


def _step_seat(step):
    """The seat a step was taken on (as ``Session._begin`` tells a bot's step)."""
    seat = getattr(step.events[0], "player", None)
    return step.mark.get("current") if seat is None else seat
