"""The table's events: everything that can change a table, as typed values.

A table changes by one event at a time (``camelhost.table.session.Session.feed``): a
die (from the pyramid or typed), a release the table can't use, a setup, a player's
action, a pyramid ticket, a keyed ink or value, a correction, an undo, a redo, an
unscored end, another race. Each is a frozen value with one ``check()`` of its own shape (types and
the words it may hold); whether it fits the game *now* is the session's business, and a
die is checked for the game once, by ``camelup.game.Game.push``.

A die is one type from the wire to the game's door: ``Die`` (defined beside the link's
events, ``camelhost.device.events``, which imports nothing of the table) is what the
link decodes an ``EVT`` die line into, and what a typed die and a journal line become;
the session hands ``Game.push`` its action (``Die.action()``, the engine's ``Action``).

Two conversions, one each way:

- ``from_link(event)``: the link's event into the table's (``Die``, ``Release``,
  ``Gap``, ``Foreign`` or ``Fault``); a die decoded from its line goes on as it is,
  the other outcomes become the table's own values;
- ``from_json(line)`` / ``event.to_json()``: an event as its journal line
  (``camelhost.table.journal``; the keys are listed in docs/table.md). ``from_json``
  reads every journal written so far (keys an older version left out read as their
  defaults); ``to_json`` writes the keys the table has always written.

Errors: ``TableError`` (a ``ValueError``, one line) naming what is wrong.
"""

from dataclasses import dataclass, fields

from camelhost.device.events import GREY_BEST, Die, is_int, need
from camelhost.i18n import N_, _
from camelhost.table.errors import TableError

__all__ = ["Die", "Release", "Gap", "Fault", "Setup", "Act", "Pyramid", "Ink", "Value",
           "Rejected", "Correction", "Undo", "Redo", "Unscored", "Race", "Board", "Rename",
           "from_link", "from_json",
           "GREY_BEST", "MISSING_SHOWN"]

#: Longest list of missing sequence numbers written out in a gap.
MISSING_SHOWN = 20
#: The link's kinds of a release the table can't use as a die.
UNUSABLE = ("double", "nodie", "unknown")


class _Event:
    """What every table event has: ``TYPE`` (its journal ``type``), ``to_json()``,
    ``check()``. ``_WRITTEN``: keys written even when ``None`` (the journal has always
    had them)."""

    TYPE = None
    _WRITTEN = ()

    @classmethod
    def from_json(cls, line):
        names = [f.name for f in fields(cls)]
        event = cls(**{name: line.get(name) if name in line else _default(cls, name)
                       for name in names})
        event.check()
        return event

    def to_json(self):
        out = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None or f.name in self._WRITTEN:
                out[f.name] = value
        return out

    def check(self):
        """Raise ``TableError`` when a field has a type or word it can't have."""


def _default(cls, name):
    for f in fields(cls):
        if f.name == name:
            return f.default
    return None


@dataclass(frozen=True)
class Release(_Event):
    """A release from the pyramid the table can't take as a die: ``kind`` ``double``
    (two dice), ``nodie`` (none) or ``unknown`` (a colour not read; ``best`` the nearest
    label); ``raw``, ``boot``, ``seq`` as for ``Die``. Never journaled as such: the
    session journals it as ``Rejected``."""

    TYPE = "release"

    kind: str = None
    raw: str = None
    boot: object = None
    seq: int = None
    best: str = None
    #: the pyramid saw too little light (its clear count under the profile's floor)
    dim: bool = False

    def check(self):
        need(self.kind in UNUSABLE, N_("an unusable release is double, nodie or unknown"),
              self.kind)


@dataclass(frozen=True)
class Gap(_Event):
    """Events the pyramid lost (``missing``: their seqs in words, ``"2, 3, 4"``,
    ``"2..4000"``): the table asks for the die typed. Never journaled."""

    TYPE = "gap"

    missing: str = ""
    raw: str = ""


@dataclass(frozen=True)
class Foreign(_Event):
    """Events another table took from this pyramid since this game's last die
    (``missing``: their seqs in words): said once, never pushed. Never journaled."""

    TYPE = "foreign"

    missing: str = ""


@dataclass(frozen=True)
class Fault(_Event):
    """A sensor fault on the pyramid (``code``: ``eio``/``timeout``/``nosensor``) or a
    link that stopped for good (``reason``): the table asks for the die typed. Never
    journaled."""

    TYPE = "fault"

    code: str = None
    reason: str = None


@dataclass(frozen=True)
class Rejected(_Event):
    """A release the table refused, for the record (journal ``rejected``): ``kind``
    (``die`` for an impossible die, else the release's), ``reason`` (one line), and the
    release's ``raw``, ``colour``, ``ink``, ``value``, ``boot``, ``seq``. Changes no
    game; a pyramid ticket taken for it still covers the action."""

    TYPE = "rejected"
    _WRITTEN = ("kind", "reason", "raw", "colour", "ink", "value", "boot", "seq")

    kind: str = None
    reason: str = None
    raw: str = None
    colour: str = None
    ink: str = None
    value: int = None
    boot: object = None
    seq: int = None

    @property
    def key(self):
        if self.boot is None or self.seq is None:
            return None
        return (self.boot, self.seq)


@dataclass(frozen=True)
class Setup(_Event):
    """The starting stacks of a race (RULES 2.2, 3.2): ``stacks`` in the journal's form
    (``camelhost.table.parser.stacks_json``), ``how`` (``typed``/``drawn``/...), ``start``
    (the seat that starts, default 0)."""

    TYPE = "setup"

    stacks: object = None
    how: str = None
    start: int = None

    def check(self):
        need(isinstance(self.stacks, (dict, list)), N_("a setup gives the stacks"), self.stacks)
        need(self.start is None or is_int(self.start), N_("the starting seat is a number"),
              self.start)


@dataclass(frozen=True)
class Act(_Event):
    """A player's action (journal ``action``): ``player`` (seat), ``action`` (canonical
    text: ``leg red``, ``tile 7 +``, ``finish winner blue``, ``partner 2``)."""

    TYPE = "action"

    player: int = None
    action: str = None

    def check(self):
        need(is_int(self.player), N_("a seat is a number"), self.player)
        need(isinstance(self.action, str), N_("an action is text"), self.action)


@dataclass(frozen=True)
class Pyramid(_Event):
    """A pyramid ticket taken by ``player`` (seat); the next die completes it (RULES 1.7)."""

    TYPE = "pyramid"

    player: int = None

    def check(self):
        need(self.player is None or is_int(self.player), N_("a seat is a number"), self.player)


@dataclass(frozen=True)
class Ink(_Event):
    """The grey die's numeral ink keyed at the table (``black``/``white``, RULES 3.5 (c)),
    or ``again``: the dice go back and are released again."""

    TYPE = "ink"
    _WRITTEN = ("ink",)

    ink: str = None
    again: bool = None


@dataclass(frozen=True)
class Value(_Event):
    """The value keyed for a die the pyramid reported as ``?``."""

    TYPE = "value"

    value: int = None


@dataclass(frozen=True)
class Correction(_Event):
    """A board correction (RULES 4): ``stacks`` in the journal's form."""

    TYPE = "correction"

    stacks: object = None

    def check(self):
        need(isinstance(self.stacks, (dict, list)), N_("a correction gives the stacks"),
              self.stacks)


@dataclass(frozen=True)
class Undo(_Event):
    """Take back ``steps`` steps of this race (``None``: one, as older journals say)."""

    TYPE = "undo"

    steps: int = None


@dataclass(frozen=True)
class Redo(_Event):
    """Apply again what the last ``undo`` of this race took back, exactly (the same
    events, a die with its colour, ink and value), while nothing else was done since."""

    TYPE = "redo"


@dataclass(frozen=True)
class Rename(_Event):
    """A player's name corrected (``rename OLD NEW``): ``player`` (seat) is called
    ``name`` from this line on. Changes no game: seats, tickets, tiles, finish cards and
    partnerships belong to the seat, so they follow the player. Journals written before
    it have no such line."""

    TYPE = "rename"

    player: int = None
    name: str = None

    def check(self):
        need(is_int(self.player), N_("a seat is a number"), self.player)
        need(isinstance(self.name, str), N_("a name is text"), self.name)


@dataclass(frozen=True)
class Unscored(_Event):
    """The race ends unscored: the board could not be restored."""

    TYPE = "unscored"


@dataclass(frozen=True)
class Board(_Event):
    """The pyramid the game takes its dice from (journal ``board``), from its first full
    ``HELLO`` (``camelhost.device.link.Link.identity``, docs/protocol.md): ``uid`` (the
    RP2040's unique id, 2..32 hex digits), ``fw`` (firmware version), ``ed`` (the
    edition it was set to), ``boot`` and ``seq`` (the boot id, 8 hex digits, and the
    last event of it before this game's dice: delivery began after it). Changes no
    game; a resume checks the pyramid against it and, with no die journaled, continues
    after ``boot``/``seq``. Written once per journal."""

    TYPE = "board"

    uid: str = None
    fw: str = None
    ed: str = None
    boot: str = None
    seq: int = None

    def check(self):
        need(isinstance(self.uid, str) and self.uid != "", N_("a board has its unique id"),
             self.uid)
        need(isinstance(self.boot, str) and self.boot != "", N_("a board has its boot id"),
             self.boot)
        need(is_int(self.seq) and self.seq >= 0, N_("a board's first seq is a number"),
             self.seq)


@dataclass(frozen=True)
class Race(_Event):
    """Another race with the same seats: ``start``, the seat that starts it (the start
    marker passed on at the end of the race before, RULES 1.12; ``None``: the first
    seat, as older journals say)."""

    TYPE = "race"

    start: int = None

    def check(self):
        need(self.start is None or is_int(self.start), N_("the starting seat is a number"),
             self.start)


@dataclass(frozen=True)
class Lang(_Event):
    """The table's language from here on (journal ``lang``): ``lang``, a language code
    such as ``"de"``, written when a resume was given another ``--lang`` than the one
    the journal last recorded (the ``game`` line's ``lang``, or an earlier ``lang``
    line), so that a later resume without ``--lang`` (after a crash) speaks the language
    last used (s38 tester finding 3). Changes no game. A journal without such a line
    (an older version's) speaks its ``game`` line's language, as before."""

    TYPE = "lang"

    lang: str = None

    def check(self):
        need(isinstance(self.lang, str) and 0 < len(self.lang) <= 16,
             N_("a language is a short code such as de"), self.lang)


#: The journal's ``type`` of each event the session takes.
JOURNALED = {cls.TYPE: cls for cls in (Die, Setup, Act, Pyramid, Ink, Value, Rejected,
                                        Correction, Undo, Redo, Unscored, Race, Board,
                                        Rename, Lang)}


def from_json(line):
    """The event a journal line ``line`` (a dict) stands for. Raises ``TableError`` for
    a line that is no dict, of an unknown ``type``, or with a field of a wrong type."""
    if not isinstance(line, dict):
        raise TableError(_("an event is a dict with a type, not %r") % (line,))
    cls = JOURNALED.get(line.get("type"))
    if cls is None:
        raise TableError(_("unknown journal event %r") % (line.get("type"),))
    return cls.from_json(line)


def missing_text(missing):
    """The missing seqs of a gap in words: a ``SeqRange``'s own (``"2, 3, 4"``,
    ``"2..4000"``), or at most ``MISSING_SHOWN`` numbers of a list, then ``and more``."""
    if hasattr(missing, "first"):  # a link SeqRange: two numbers whatever the count
        return str(missing)
    missing = list(missing or ())[:MISSING_SHOWN + 1]
    shown = ", ".join(str(m) for m in missing[:MISSING_SHOWN])
    if len(missing) > MISSING_SHOWN:
        shown += " and more"
    return shown


def from_link(event):
    """The table's event for the link's ``event`` (a
    ``camelhost.device.events.DieEvent``): a die as it is (the link decoded its line into
    a ``Die``: the same value goes on, checked for its shape), a ``Die`` for an
    ``unknown`` release whose nearest colour is the grey die (its ink to be keyed),
    ``Release`` for a double, no die or an unread colour, ``Gap`` for lost events,
    ``Foreign`` for another table's, ``Fault`` for a sensor fault. A ``DieEvent`` of kind
    ``die`` built by hand (not decoded: a test, a tool) becomes a ``Die`` here. Raises
    ``TableError`` for a kind the table does not know. The de-duplication on ``(boot,
    seq)`` is the link's, done before (``camelhost.device.sequencer``)."""
    kind = event.kind
    if kind == "die" and isinstance(event, Die):
        die = event
    elif kind == "die":
        die = Die(colour=event.colour, ink=event.ink, value=event.value, raw=event.raw,
                  boot=event.boot, seq=event.seq, source="pyramid")
    elif kind == "unknown" and event.best in GREY_BEST:
        die = Die(colour="grey", ink=None, value=event.value, raw=event.raw,
                  boot=event.boot, seq=event.seq, source="pyramid", best=event.best)
    else:
        die = None
    if die is not None:
        die.check()
        return die
    if kind in UNUSABLE:
        return Release(kind=kind, raw=event.raw, boot=event.boot, seq=event.seq,
                       best=event.best, dim=bool(getattr(event, "dim", False)))
    if kind == "gap":
        return Gap(missing=missing_text(event.missing), raw=event.raw or "")
    if kind == "foreign":  # another table's dice: said, never pushed (issue 29, item 1)
        return Foreign(missing=missing_text(event.missing))
    if kind == "fault":  # a sensor fault names its code; a link that failed says why in raw
        return Fault(code=event.code, reason=None if event.code else (event.raw or None))
    raise TableError(_("pyramid sent an event the table does not know: %r") % (kind,))
