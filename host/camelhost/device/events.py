"""What the link hands out: each slider push's outcome (``DieEvent``) and the seqs of a
hole in the sequence (``SeqRange``). Plain values, no I/O: the link
(``camelhost.device.link``) decodes each wire line with ``decode`` (docs/protocol.md),
which makes an ``EVT`` line's ``DieEvent`` at once (one value from the wire to the
table, never a ``protocol.Message`` first), and the table
(``camelhost.device.open``) reads them."""

from camelup.board import protocol

from camelhost.i18n import _

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

    def label(self):
        """Classifier-style label: ``red``, ``grey-black``; ``None`` unless kind is ``die``."""
        if self.kind != "die":
            return None
        return self.colour + ("-" + self.ink if self.ink else "")

    def __repr__(self):
        if self.kind in ("gap", "foreign"):
            return "DieEvent(%s %s missing=%s)" % (self.kind, self.boot, self.missing)
        return "DieEvent(%s %s:%d %s %s %s)" % (self.kind, self.boot, self.seq, self.colour, self.ink, self.value)


def message(name, fields, kind=None):
    """The link's value of one decoded message (``protocol.decode_body``'s ``make``):
    a ``DieEvent`` for an ``EVT``, else a ``protocol.Message``."""
    if name == "EVT":
        return DieEvent.wire(fields, kind)
    return protocol.Message(name, fields, kind)


def decode(line):
    """Unframe and parse one wire line (bytes, without its newline) as the link does:
    ``protocol.decode`` with ``message``. Raises ``protocol.ProtocolError``."""
    return protocol.decode(line, message)
