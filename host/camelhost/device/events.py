"""What the link hands out: each slider push's outcome (``DieEvent``; a die is a
``Die``, the one die type of the host) and the seqs of a hole in the sequence
(``SeqRange``). Plain values, no I/O: the link (``camelhost.device.link``) decodes each
wire line with ``decode`` (docs/protocol.md), which makes an ``EVT`` line's event at
once: a ``Die`` for a die, a ``DieEvent`` for any other outcome (never a
``protocol.Message`` first). The table (``camelhost.table.events``) takes the ``Die``
as it is (the same value from the wire to ``Game.push``'s door) and journals it; a die
typed at the table, or read back from the journal, is a ``Die`` too. This module
imports nothing of the table: the table imports it."""

from camelup.board import protocol
from camelup.editions import GREY, INKS, die_label

from camelhost.errors import TableError
from camelhost.i18n import N_, _

#: Event kinds handed to the session (docs/interfaces.md).
KINDS = ("die", "nodie", "double", "unknown", "fault", "gap", "foreign")


class SeqRange:
    """Event seqs ``first..last`` of one boot, stored as two numbers whatever the count.

    ``last`` is ``None`` when the count is unknown (the device kept no record):
    then ``len()`` is 0 and iteration yields nothing. Compares equal to the tuple of
    its seqs (``SeqRange(2, 4) == (2, 3, 4)``). ``str()``: ``"2, 3, 4"`` for up to
    eight seqs, ``"2..4000"`` beyond, ``"5 and after (count unknown)"`` (in the table's
    language: the monitor's and the table's lost-events lines show it).
    """

    __slots__ = ("first", "last")

    def __init__(self, first, last=None):
        self.first = first
        self.last = last

    def __len__(self):
        return 0 if self.last is None else self.last - self.first + 1

    def __iter__(self):
        if self.last is not None:
            yield from range(self.first, self.last + 1)

    def __contains__(self, seq):
        return self.last is not None and self.first <= seq <= self.last

    def __eq__(self, other):
        if isinstance(other, SeqRange):
            return (self.first, self.last) == (other.first, other.last)
        if isinstance(other, tuple):
            if self.last is None:
                return other == ()
            return len(other) == len(self) and (not other or (other[0] == self.first and other == tuple(self)))
        return NotImplemented

    def __hash__(self):
        return hash((self.first, self.last))

    def __str__(self):
        if self.last is None:
            return _("%d and after (count unknown)") % self.first
        if len(self) <= 8:
            return ", ".join(str(n) for n in self)
        return "%d..%d" % (self.first, self.last)

    def __repr__(self):
        return "SeqRange(%r, %r)" % (self.first, self.last)


class DieEvent(protocol.Message):
    """One outcome of a slider push, or a hole in the sequence: the decoded ``EVT``
    message itself (``decode`` builds it from the wire line, the sequencer hands that
    same value on), or one the link makes (``gap``, ``foreign``, ``fault``).

    As a ``protocol.Message``: ``name`` ``"EVT"``, ``kind``, ``fields`` (the wire's
    fields, docs/protocol.md: ``msg["seq"]`` reads one). Read as an event:
    ``kind``: ``die``, ``nodie``, ``double``, ``unknown``, ``fault``, ``gap``, or
    ``foreign`` (events another table took since this one's last: never delivered,
    named like a gap).
    ``colour``: die colour (``red``, ``grey``...) for ``die``, else ``None``.
    ``ink``: ``black``/``white`` for the grey die, else ``None``. ``value``: 1..3
    when the pyramid has value buttons, else ``None``. ``boot``: the device's boot
    id (8 hex digits); ``seq``: the event's number in that boot (for ``gap``: the
    first missing one). ``missing``: for ``gap`` (and ``foreign``), a ``SeqRange`` of the missing
    seqs (compares equal to their tuple; length 0 when the count cannot be known:
    events from ``seq`` on *may* be missing).
    ``best``: for ``unknown``, the nearest colour or ``none``. ``code``: for
    ``fault``, ``eio``/``timeout``/``nosensor``. ``reading``: the raw
    ``(c, r, g, b)`` counts when sent. ``margin``: classifier margin in sigma (the
    wire's ``m=`` is in hundredths).
    ``raw``: the wire line (str, without newline; ``""`` for ``gap``).
    ``dim``: True when the pyramid saw too little light for the reading (its clear
    count under the profile's floor, docs/calibration.md); False when not, or not said.
    Compared by identity, as every event is one push.
    """

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def __init__(self, kind, boot, seq, raw="", colour=None, ink=None, value=None, missing=(), best=None, code=None, reading=None, margin=None, dim=False):
        fields = {"boot": boot, "seq": seq}
        for key, given in (("col", colour), ("ink", ink), ("val", value), ("best", best), ("code", code),
                           ("raw", reading), ("dim", True if dim else None)):
            if given is not None:
                fields[key] = given
        protocol.Message.__init__(self, "EVT", fields, kind)
        self.raw = raw
        self.missing = missing if isinstance(missing, SeqRange) else tuple(missing)
        self._margin = margin

    @classmethod
    def wire(cls, fields, kind):
        """The event of a decoded ``EVT`` line (``fields`` as ``protocol.decode_body``
        parsed them); ``raw`` is set by whoever has the line (the sequencer)."""
        event = cls.__new__(cls)
        protocol.Message.__init__(event, "EVT", fields, kind)
        event.raw = ""
        event.missing = ()
        m = fields.get("m")
        event._margin = None if m is None else m / 100.0
        return event

    boot = property(lambda self: self.fields.get("boot"))
    seq = property(lambda self: self.fields.get("seq"))
    colour = property(lambda self: self.fields.get("col"))
    ink = property(lambda self: self.fields.get("ink"))
    value = property(lambda self: self.fields.get("val"))
    best = property(lambda self: self.fields.get("best"))
    code = property(lambda self: self.fields.get("code"))
    reading = property(lambda self: self.fields.get("raw"))
    margin = property(lambda self: self._margin)
    dim = property(lambda self: bool(self.fields.get("dim")))
    #: for ``die``: the dice out this leg that decided it (the ``OUT`` mask the pyramid
    #: judged with, ``out_dice``): refused alone, named among the dice still in the
    #: pyramid; ``None`` when the reading alone named it (or an older firmware)
    out = property(lambda self: self.fields.get("out"))

    def label(self):
        """Classifier-style label: ``red``, ``grey-black``; ``None`` unless kind is ``die``."""
        if self.kind != "die":
            return None
        return die_label(self.colour, self.ink)

    def __repr__(self):
        if self.kind in ("gap", "foreign"):
            return "DieEvent(%s %s missing=%s)" % (self.kind, self.boot, self.missing)
        return "DieEvent(%s %s:%d %s %s %s)" % (self.kind, self.boot, self.seq, self.colour, self.ink, self.value)


#: ``best`` words of an ``unknown`` release that name the grey die, only its ink unsure
#: (``grey-black``, ``grey-white``: ``camelup.editions.die_label``, RULES 3.1), each with
#: its ink.
GREY_BEST = {die_label(GREY, ink): ink for ink in INKS}

#: Each fault code a pyramid sends (``EVT <seq> fault code=...``, docs/protocol.md;
#: ``firmware/pyramid/app.py`` emits them) and its words for the players, read through
#: ``fault_text`` (the table and ``pyramid monitor`` say them).
FAULTS = {
    "eio": N_("sensor fault: its I2C bus failed during the read (the pyramid starts the "
              "sensor again)"),
    "timeout": N_("sensor fault: the sensor did not answer in time (I2C timeout; the pyramid "
                  "starts it again)"),
    "nosensor": N_("no colour sensor was working at the push (the pyramid keeps trying to "
                   "start it: check its cable if this repeats)"),
    "memory": N_("the pyramid's memory was too full to read the die (it freed some and goes "
                 "on)"),
}


def is_int(x):
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(x, int) and not isinstance(x, bool)


def need(ok, what, value):
    """The shape check of a table event's field: raise ``TableError`` ``"<what>: <value!r>"``
    unless ``ok``; ``what`` is marked with ``N_()`` where it is written and translated
    here, when it is said."""
    if not ok:
        raise TableError("%s: %r" % (_(what), value))


class Die(DieEvent):
    """One die: released from the pyramid (``source`` ``"pyramid"``: ``decode`` builds it
    from the ``EVT`` line, the sequencer hands it on, the table journals that same value;
    ``raw`` the wire line, ``boot`` and ``seq`` its place in the pyramid's sequence), or
    typed at the table (``"typed"``: ``raw`` the words typed, ``player`` the seat whose
    turn it was, ``kind`` ``"die"`` as its journal line says), or read back from the
    journal (``from_json``).

    Fields (its journal keys, ``FIELDS``): ``colour``, a die of the edition (``red``...,
    ``grey``); ``ink``: ``black``/``white`` for the grey die, or ``None`` when still to
    be keyed; ``value``: 1..3, or ``None`` when still to be keyed; ``best``:
    ``grey-black``/``grey-white`` when the pyramid could not tell the grey die's ink
    (its ``unknown`` release). Read as the link's event it is a ``DieEvent`` of kind
    ``die`` (``reading``, ``margin``, ``dim``, ``label()`` when decoded from a line).
    The value range and whether the die can come out now are the game's check
    (``camelup.game.Game.push``); ``check()`` is of its shape only.

    A value: compared and hashed by its fields; ``keyed`` makes the die with its ink or
    value keyed. ``raw`` is set once, by the sequencer that has the line.
    """

    #: its journal ``type`` (``camelhost.table.events``)
    TYPE = "die"
    #: its journal keys, in the order they are written
    FIELDS = ("colour", "ink", "value", "raw", "boot", "seq", "source", "best", "player",
              "kind")
    #: keys written even when ``None`` (the journal has always had them)
    WRITTEN = ("colour", "ink", "value", "raw")

    def __init__(self, colour=None, ink=None, value=None, raw=None, boot=None, seq=None,
                 source=None, best=None, player=None, kind=None):
        DieEvent.__init__(self, "die", boot, seq, raw, colour=colour, ink=ink, value=value,
                          best=best)
        self._source = source
        self._player = player
        self._written_kind = kind  # the journal's kind: "die" for a typed die, else None

    @classmethod
    def wire(cls, fields, kind):
        """The die of a decoded ``EVT ... die`` line (``fields`` as
        ``protocol.decode_body`` parsed them): ``source`` ``"pyramid"``."""
        die = super().wire(fields, kind)
        die._source = "pyramid"
        die._player = None
        die._written_kind = None
        return die

    source = property(lambda self: self._source)
    player = property(lambda self: self._player)

    def _items(self):
        return [(name, self._written_kind if name == "kind" else getattr(self, name))
                for name in self.FIELDS]

    def __eq__(self, other):
        if not isinstance(other, Die):
            return NotImplemented
        return self._items() == other._items()

    def __hash__(self):
        return hash(tuple(self._items()))

    def __repr__(self):
        return "Die(%s)" % ", ".join("%s=%r" % item for item in self._items())

    @classmethod
    def from_json(cls, line):
        """The die of a journal line ``line`` (a dict; keys an older version left out
        read as ``None``). Raises ``TableError`` for a field of the wrong shape."""
        die = cls(**{name: line.get(name) for name in cls.FIELDS})
        die.check()
        return die

    def to_json(self):
        """Its journal line (a dict): ``type`` and the keys the table has always
        written (``WRITTEN`` always, the others when set)."""
        out = {"type": self.TYPE}
        for name, value in self._items():
            if value is not None or name in self.WRITTEN:
                out[name] = value
        return out

    def check(self):
        """Raise ``TableError`` when a field has a type or word it can't have."""
        need(isinstance(self.colour, str), N_("a die's colour is a word"), self.colour)
        need(self.ink in (None, "black", "white"), N_("the grey die's numerals are black or "
                                                      "white"), self.ink)
        need(self.value is None or is_int(self.value), N_("a die's value is a number"),
             self.value)
        need(self.best is None or self.best in GREY_BEST, N_("an unread grey die's best is "
                                                             "grey-black or grey-white"), self.best)
        need(self.player is None or is_int(self.player), N_("a seat is a number"), self.player)

    @property
    def key(self):
        """``(boot, seq)`` of a die from the pyramid, else ``None``."""
        if self.boot is None or self.seq is None:
            return None
        return (self.boot, self.seq)

    @property
    def ink_unsure(self):
        """True for the grey die of an ``unknown`` release: colour sure, ink not."""
        return self.colour == "grey" and self.ink is None and self.best in GREY_BEST

    def keyed(self, **changes):
        """This die with ``ink`` or ``value`` keyed at the table (a new ``Die``)."""
        values = dict(self._items())
        values.update(changes)
        return Die(**values)

    def action(self, value=None):
        """The game's action for this die showing ``value`` (default its own):
        ``camelup.actions.Action.pyramid``; the grey die carries its ink."""
        from camelup.actions import Action
        value = self.value if value is None else value
        return Action.pyramid(self.colour, value, self.ink if self.colour == "grey" else None)


def out_mask(edition, dice):
    """The wire's mask of the dice out this leg (``OUT``, an ``EVT`` die's ``out=``,
    docs/protocol.md): bit i set for the ``edition``'s die i (``Edition.dice``: ``red``,
    ``grey``...) among ``dice`` (die names). An int, 0 for none."""
    return sum(1 << i for i, die in enumerate(edition.dice) if die in dice)


def out_dice(edition, mask):
    """The die names of ``mask`` (``out_mask``'s inverse), in the edition's order."""
    return [die for i, die in enumerate(edition.dice) if mask & (1 << i)]


def fault_text(code):
    """What a pyramid's fault ``code`` (a word: ``eio``, ``timeout``, ``nosensor``,
    ``memory``; ``FAULTS``) means, in the table's language: one line, no full stop. A
    code this program does not know (a newer firmware's) is named, with what to do."""
    words = FAULTS.get(code)
    if words is None:
        return _("fault %s, which this program does not know (update it: pip install "
                 "--upgrade the pyramid host package)") % code
    return _(words)


def message(name, fields, kind=None):
    """The link's value of one decoded message (``protocol.decode_body``'s ``make``):
    a ``Die`` for an ``EVT`` of kind ``die``, a ``DieEvent`` for any other ``EVT``, else
    a ``protocol.Message``."""
    if name == "EVT":
        return (Die if kind == "die" else DieEvent).wire(fields, kind)
    return protocol.Message(name, fields, kind)


def decode(line):
    """Unframe and parse one wire line (bytes, without its newline) as the link does:
    ``protocol.decode`` with ``message``. Raises ``protocol.ProtocolError``."""
    return protocol.decode(line, message)
