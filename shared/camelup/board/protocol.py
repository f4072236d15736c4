"""The pyramid's serial wire protocol: framing, message table, encode and decode.

One module used unchanged by the firmware (MicroPython) and the host (CPython).
``docs/protocol.md`` is the human version of ``MESSAGES`` below.

Framing: every line is ``BODY*CRC\\n`` where ``CRC`` is the CRC-32 (``binascii.crc32``,
the zlib/IEEE polynomial) of the ASCII bytes of ``BODY``, written as 8 uppercase hex
digits. ``BODY`` holds printable ASCII only (0x20..0x7E), so a line never carries
0x00 or 0x03 (Ctrl-C would interrupt MicroPython on the board). A whole line,
newline included, is at most ``MAX_LINE`` bytes.

Body: a message name, then positional fields separated by single spaces, then
``key=value`` fields. Decoders ignore keys they do not know, so a newer device can
add keyed fields without breaking an older host (each field has a "since" version).

Errors: every decode failure raises ``ProtocolError`` (a ``ValueError``) whose
``reason`` is a short word (``too_long``, ``bad_byte``, ``no_crc``, ``crc``,
``unknown``, ``field``, ...) and whose message names the offending part.
"""

import binascii

#: Protocol version carried in HELLO (``proto=``). Bump when a message changes meaning.
PROTOCOL_VERSION = 1
#: Longest line accepted or produced, in bytes, ``*CRC`` and ``\\n`` included.
MAX_LINE = 200
#: Longest body: ``MAX_LINE`` minus ``*`` + 8 hex digits + newline.
MAX_BODY = MAX_LINE - 10
#: Largest calibration profile a device takes through ``PROF`` (bytes of compact
#: JSON). The board holds one buffer of this size from boot; a fitted profile is
#: about 2.4 KB (second edition), 1.9 KB (classic).
MAX_PROFILE = 4096

#: EVT kinds (the ``kind`` the host link hands to the session).
EVENT_KINDS = ("die", "nodie", "double", "unknown", "fault")
#: Fault codes in ``EVT <seq> fault code=...`` and sensor status words in HELLO/HB.
FAULT_CODES = ("eio", "timeout", "nosensor", "memory")
SENSOR_STATES = ("ok", "fault", "missing")

_HEX = "0123456789ABCDEF"
_WORD_EXTRA = "._:+-"


class ProtocolError(ValueError):
    """A line or message that does not follow the protocol.

    ``reason``: one short word saying what is wrong (see the module docstring);
    the exception text adds the detail (which field, which byte).
    """

    def __init__(self, reason, detail=""):
        super().__init__(reason + (": " + detail if detail else ""))
        self.reason = reason
        self.detail = detail


# --- field types: name -> (check-and-parse, format) ---------------------------


def parse_uint(text):
    """A wire uint: 1..10 ASCII digits, no leading zero, at most 4294967295 (the
    protocol's ``uint``, docs/protocol.md). Raises ``ValueError`` for anything else."""
    if not text or len(text) > 10:
        raise ValueError
    for ch in text:
        if ch < "0" or ch > "9":
            raise ValueError
    if len(text) > 1 and text[0] == "0":
        raise ValueError
    n = int(text)
    if n > 0xFFFFFFFF:
        raise ValueError
    return n


def _fmt_uint(value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 0xFFFFFFFF:
        raise ValueError
    return str(value)


def _parse_hex8(text):
    if len(text) != 8:
        raise ValueError
    for ch in text:
        if ch not in _HEX:
            raise ValueError
    return text


def _fmt_hex8(value):
    return _parse_hex8(value)


def _parse_hexid(text):
    if len(text) < 2 or len(text) > 32 or len(text) % 2:
        raise ValueError
    for ch in text:
        if ch not in _HEX:
            raise ValueError
    return text


def _fmt_hexid(value):
    return _parse_hexid(value)


def _parse_word(text):
    if not text or len(text) > 24:
        raise ValueError
    for ch in text:
        if not (("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("0" <= ch <= "9") or ch in _WORD_EXTRA):
            raise ValueError
    return text


def _fmt_word(value):
    return _parse_word(value)


def _parse_value(text):
    if text == "?":
        return None
    if text in ("1", "2", "3"):
        return int(text)
    raise ValueError


def _fmt_value(value):
    if value is None:
        return "?"
    if value in (1, 2, 3) and not isinstance(value, bool):
        return str(value)
    raise ValueError


def _parse_quad(text):
    parts = text.split(",")
    if len(parts) != 4:
        raise ValueError
    out = []
    for part in parts:
        n = parse_uint(part)
        if n > 65535:
            raise ValueError
        out.append(n)
    return tuple(out)


def _fmt_quad(value):
    if len(value) != 4:
        raise ValueError
    parts = []
    for n in value:
        if parse_uint(_fmt_uint(n)) > 65535:
            raise ValueError
        parts.append(str(n))
    return ",".join(parts)


def _parse_bool(text):
    if text == "1":
        return True
    if text == "0":
        return False
    raise ValueError


def _fmt_bool(value):
    if value is True or value is False:
        return "1" if value else "0"
    raise ValueError


def _parse_prev(text):
    # previous boot's "BOOTID:LASTSEQ", or "-" when there is no record
    if text == "-":
        return None
    parts = text.split(":")
    if len(parts) != 2:
        raise ValueError
    return (_parse_hex8(parts[0]), parse_uint(parts[1]))


def format_prev(value):
    """``(boot, seq)`` as the wire's ``BOOT:SEQ`` (``-`` for ``None``), as HELLO's
    ``prev`` and the flash event store write it."""
    if value is None:
        return "-"
    return _fmt_hex8(value[0]) + ":" + _fmt_uint(value[1])


def _parse_text(text):
    if not text:
        raise ValueError
    return text  # printable ASCII is already checked by unframe


def _fmt_text(value):
    if not value:
        raise ValueError
    for ch in value:
        if ch < " " or ch > "~":
            raise ValueError
    return value


_TYPES = {
    "uint": (parse_uint, _fmt_uint),
    "hex8": (_parse_hex8, _fmt_hex8),
    "hexid": (_parse_hexid, _fmt_hexid),
    "word": (_parse_word, _fmt_word),
    "value": (_parse_value, _fmt_value),
    "quad": (_parse_quad, _fmt_quad),
    "bool": (_parse_bool, _fmt_bool),
    "prev": (_parse_prev, format_prev),
    "text": (_parse_text, _fmt_text),
}

# --- the message table ---------------------------------------------------------
# key -> (direction, positional fields, keyed fields, since)
# A field is (name, type, required). Positional fields are always required.
# "D" = device -> host, "H" = host -> device. EVT rows are keyed "EVT <kind>".

_NONE_OK = ("value", "prev")  # types where None is a value (`?`, `-`)
_P = True  # required
_O = False  # optional

# Fields several rows share, each one tuple on the board's heap (written out in every
# row they took 1.1 KB more of the 64-bit port's heap, about half that on the board).
_AT_SEQ = (("seq", "uint"),)  # the one positional field of EVT, SYNC, SYNCED, ACK
_AT_TOKEN = (("token", "word"),)  # PONG, SAMPLE, PING, CAL
_BOOT = ("boot", "hex8", _P)
_SEQ = ("seq", "uint", _P)
_RAW = ("raw", "quad", _P)
# the reading's clear count was under the profile's floor (enough light,
# camelup.calibration.light_floor); absent = not dim (added within version 1)
_DIM = ("dim", "bool", _O)

MESSAGES = {
    "HELLO": (
        "D",
        (),
        (
            ("proto", "uint", _P),
            ("fw", "word", _P),
            ("uid", "hexid", _P),
            _BOOT,
            _SEQ,
            ("oldest", "uint", _P),
            ("ed", "word", _P),
            ("sensor", "word", _P),
            ("vb", "bool", _P),
            ("prev", "prev", _P),
            ("rst", "word", _O),  # why the board last reset (machine.reset_cause())
            # last seq of this boot a host acknowledged (ACK); its presence says the
            # device keeps unacknowledged events on flash and walks boots on SYNC boot=
            ("acked", "uint", _O),
            ("sid", "hexid", _O),  # colour sensor chip id read, hex: "44" (absent: none read)
        ),
        1,
    ),
    "EVT die": (
        "D",
        _AT_SEQ,
        (
            _BOOT,
            ("col", "word", _P),
            ("ink", "word", _O),
            ("val", "value", _P),
            ("m", "uint", _P),
            _RAW,
            _DIM,
            # the dice out this leg (OUT's mask) decided it: refused alone, named among
            # the dice still in the pyramid (added within version 1, issue 32)
            ("out", "uint", _O),
        ),
        1,
    ),
    "EVT nodie": ("D", _AT_SEQ, (_BOOT,), 1),
    "EVT double": ("D", _AT_SEQ, (_BOOT, _RAW, _DIM), 1),
    "EVT unknown": ("D", _AT_SEQ, (_BOOT, ("best", "word", _P), ("val", "value", _P), _RAW, _DIM), 1),
    "EVT fault": ("D", _AT_SEQ, (_BOOT, ("code", "word", _P)), 1),
    "HB": (
        "D",
        (),
        (_BOOT, _SEQ, ("up", "uint", _P), ("sensor", "word", _P)),
        1,
    ),
    "GAP": ("D", (("first", "uint"), ("last", "uint")), (_BOOT,), 1),
    "SYNCED": (
        "D",
        _AT_SEQ,
        (
            _BOOT,
            ("next", "hex8", _O),  # an earlier boot's replay ends here: the boot that followed it
            ("known", "bool", _O),  # 0: the device holds no record of this boot
        ),
        1,
    ),
    "PONG": ("D", _AT_TOKEN, (), 1),
    "RAW": (
        "D",
        (),
        (
            ("on", "quad", _P),
            ("off", "quad", _P),
            ("label", "word", _P),
            ("m", "uint", _P),
            ("sl", "bool", _O),  # slider pushed at this reading (pyramid monitor)
        ),
        1,
    ),
    # the short HELLO, the answer to HELLO? s=1: only what delivery needs (about 60
    # bytes instead of about 140, so it gets through a noisy line far more often)
    "HI": (
        "D",
        (),
        (("proto", "uint", _P), _BOOT, _SEQ, ("prev", "prev", _P),
         ("acked", "uint", _O)),
        1,
    ),
    "SAMPLE": ("D", _AT_TOKEN, (("on", "quad", _P), ("off", "quad", _P)), 1),
    "CFG": (
        "D",
        (),
        (("ed", "word", _P), ("it", "uint", _P), ("gain", "uint", _P), ("vb", "bool", _P)),
        1,
    ),
    "OK": ("D", (("cmd", "word"),), (("n", "uint", _O),), 1),
    # what runs the firmware: sys.implementation name, version, _mpy; the slider now
    # (debounced): for pyramid doctor; heap: bytes free after a collection; pit/pgain:
    # the integration time (ms, rounded) and gain the stored profile was fitted at;
    # floor: tenths of the clear count the running profile marks a reading dim under
    "INFO": (
        "D",
        (),
        (("impl", "word", _P), ("mp", "word", _P), ("mpy", "uint", _P), ("sl", "bool", _O),
         ("heap", "uint", _O), ("cal", "bool", _O), ("pit", "uint", _O), ("pgain", "uint", _O),
         ("floor", "uint", _O)),
        1,
    ),
    "NAK": ("D", (("reason", "word"),), (), 1),
    # s=1: answer with the short HI instead (a new host on a noisy line; a pyramid of
    # an older firmware ignores the key and answers HELLO)
    "HELLO?": ("H", (), (("s", "bool", _O),), 1),
    "SYNC": ("H", _AT_SEQ, (("boot", "hex8", _O), ("to", "uint", _O)), 1),
    "ACK": ("H", _AT_SEQ, (_BOOT,), 1),
    "PING": ("H", _AT_TOKEN, (), 1),
    "INFO?": ("H", (), (), 1),
    "STREAM": ("H", (("period", "uint"),), (), 1),
    "CAL": ("H", _AT_TOKEN, (), 1),
    "SET": (
        "H",
        (),
        (("ed", "word", _O), ("it", "uint", _O), ("gain", "uint", _O), ("vb", "bool", _O)),
        1,
    ),
    "PROF": ("H", (("offset", "uint"), ("chunk", "text")), (), 1),
    # the dice out this leg, bit i the edition's die i (Edition.dice); 0: none (added
    # within version 1, issue 32: an older firmware answers NAK unknown)
    "OUT": ("H", (("mask", "uint"),), (), 1),
    "SAVE": ("H", (("length", "uint"), ("crc", "hex8")), (), 1),
}


def crc32(body):
    """CRC-32 (zlib/IEEE 802.3 polynomial) of ``body`` (bytes) as an int 0..2**32-1."""
    return binascii.crc32(body) & 0xFFFFFFFF


def _crc_hex(body):
    n = crc32(body)
    out = ""
    for shift in (28, 24, 20, 16, 12, 8, 4, 0):
        out += _HEX[(n >> shift) & 15]
    return out


def frame(body):
    """Return the wire line (bytes, newline included) for ``body`` (str).

    Raises ``ProtocolError`` (``bad_byte``) when the body holds anything but
    printable ASCII, and (``too_long``) when the line would exceed ``MAX_LINE``.
    """
    raw = body.encode()
    if len(raw) > MAX_BODY:
        raise ProtocolError("too_long", "%d > %d body bytes" % (len(raw), MAX_BODY))
    for b in raw:
        if b < 0x20 or b > 0x7E:
            raise ProtocolError("bad_byte", "0x%02X in body" % b)
    return raw + b"*" + _crc_hex(raw).encode() + b"\n"


def unframe(line):
    """Check one received line (bytes, with or without ``\\n`` / ``\\r\\n``) and return its body (str).

    Raises ``ProtocolError`` with reason ``empty``, ``too_long``, ``bad_byte``
    (a byte outside 0x20..0x7E), ``no_crc`` (no ``*`` + 8 hex digits at the end)
    or ``crc`` (the checksum does not match the body).
    """
    if len(line) > MAX_LINE:
        raise ProtocolError("too_long", "%d > %d bytes" % (len(line), MAX_LINE))
    end = len(line)
    if end and line[end - 1] == 10:
        end -= 1
    if end and line[end - 1] == 13:
        end -= 1
    if end == 0:
        raise ProtocolError("empty")
    for i in range(end):
        b = line[i]
        if b < 0x20 or b > 0x7E:
            raise ProtocolError("bad_byte", "0x%02X at %d" % (b, i))
    if end < 10 or line[end - 9] != 42:  # 42 = '*'
        raise ProtocolError("no_crc", "no '*' and 8 hex digits at the end")
    body = bytes(line[: end - 9])
    given = bytes(line[end - 8 : end]).decode()
    for ch in given:
        if ch not in _HEX:
            raise ProtocolError("no_crc", "CRC %r is not 8 uppercase hex digits" % given)
    if _crc_hex(body) != given:
        raise ProtocolError("crc", "CRC %s does not match the body" % given)
    if not body:
        raise ProtocolError("empty")
    return body.decode()


class Message:
    """One decoded message: ``name`` (``HELLO``, ``EVT``, ``SYNC``, ...), ``kind``
    (the EVT kind, else ``None``) and ``fields`` (dict of parsed values: ints,
    strs, ``None`` for value ``?``, 4-tuples for readings, bools for flags).

    ``msg["seq"]`` reads a field; ``msg.get(name, default)`` an optional one.
    """

    def __init__(self, name, fields, kind=None):
        self.name = name
        self.kind = kind
        self.fields = fields

    def __getitem__(self, key):
        return self.fields[key]

    def get(self, key, default=None):
        return self.fields.get(key, default)

    def __eq__(self, other):
        return (
            isinstance(other, Message)
            and self.name == other.name
            and self.kind == other.kind
            and self.fields == other.fields
        )

    def __repr__(self):
        return "Message(%r, %r, kind=%r)" % (self.name, self.fields, self.kind)


def _spec(name, kind):
    key = name if kind is None else name + " " + kind
    spec = MESSAGES.get(key)
    if spec is None:
        raise ProtocolError("unknown", "message %r" % key)
    return spec


def encode_body(name, fields, kind=None):
    """Return the body text of message ``name`` (and EVT ``kind``) from ``fields`` (dict).

    Positional fields come in table order, then keyed fields in table order
    (never dict order); optional keyed fields missing from ``fields`` or ``None``
    are left out. Raises ``ProtocolError`` (``unknown``, ``field``) for an unknown
    message, or a missing or out-of-range field.
    """
    spec = _spec(name, kind)
    parts = [name]
    for fname, ftype in spec[1]:
        if fname not in fields:
            raise ProtocolError("field", "%s needs %s" % (name, fname))
        parts.append(_format(fname, ftype, fields[fname]))
        if kind is not None:
            parts.append(kind)  # EVT <seq> <kind>: the kind follows the one positional seq
    for fname, ftype, required in spec[2]:
        absent = fname not in fields or (fields[fname] is None and ftype not in _NONE_OK)
        if absent:
            if required:
                raise ProtocolError("field", "%s needs %s" % (name, fname))
            continue
        parts.append(fname + "=" + _format(fname, ftype, fields[fname]))
    return " ".join(parts)


def _format(fname, ftype, value):
    try:
        text = _TYPES[ftype][1](value)
    except (ValueError, TypeError, AttributeError, IndexError, KeyError):
        raise ProtocolError("field", "%s=%r is not a valid %s" % (fname, value, ftype)) from None
    if " " in text and ftype != "text":
        raise ProtocolError("field", "%s holds a space" % fname)
    return text


def encode(name, kind=None, **fields):
    """Return the framed wire line (bytes) of one message; see ``encode_body``.

    Example: ``encode("EVT", kind="nodie", seq=7)`` -> ``b"EVT 7 nodie*........\\n"``.
    """
    return frame(encode_body(name, fields, kind))


def decode_body(body, make=None):
    """Parse a body (str, already unframed) into a ``Message``, or into what
    ``make(name, fields, kind)`` builds from the parsed parts (the host's link makes an
    ``EVT`` its die event at once: one value, not a message and then an event).

    Raises ``ProtocolError``: ``unknown`` (message name or EVT kind), ``field``
    (a missing, repeated or malformed field, or a positional field too many).
    Unknown ``key=value`` fields are ignored (forward compatibility).
    """
    tokens = body.split(" ")
    name = tokens[0]
    kind = None
    pos_tokens = tokens[1:]
    if name == "EVT":
        if len(tokens) < 3:
            raise ProtocolError("field", "EVT needs a seq and a kind")
        kind = tokens[2]
        pos_tokens = [tokens[1]] + tokens[3:]
    spec = _spec(name, kind)
    positional, keyed = spec[1], spec[2]
    fields = {}
    i = 0
    for fname, ftype in positional:
        if i >= len(pos_tokens):
            raise ProtocolError("field", "%s needs %s" % (name, fname))
        if ftype == "text":
            token = " ".join(pos_tokens[i:])
            i = len(pos_tokens)
        else:
            token = pos_tokens[i]
            i += 1
        fields[fname] = _parse(fname, ftype, token)
    types = {}
    for fname, ftype, _required in keyed:
        types[fname] = ftype
    seen = {}
    for token in pos_tokens[i:]:
        eq = token.find("=")
        if eq <= 0:
            raise ProtocolError("field", "%r is not key=value" % token)
        key = token[:eq]
        if key in seen:
            raise ProtocolError("field", "%s given twice" % key)
        seen[key] = True
        if key in types:
            fields[key] = _parse(key, types[key], token[eq + 1 :])
    for fname, _ftype, required in keyed:
        if required and fname not in fields:
            raise ProtocolError("field", "%s needs %s" % (name, fname))
    if make is not None:
        return make(name, fields, kind)
    return Message(name, fields, kind)


def _parse(fname, ftype, token):
    try:
        return _TYPES[ftype][0](token)
    except (ValueError, TypeError, IndexError):
        raise ProtocolError("field", "%s=%r is not a valid %s" % (fname, token, ftype)) from None


def decode(line, make=None):
    """Unframe and parse one wire line (bytes) into a ``Message`` (or ``make``'s value,
    see ``decode_body``); raises ``ProtocolError``."""
    return decode_body(unframe(line), make)


class LineAssembler:
    """Bytes in, protocol lines out: the one place both ends cut the byte stream.

    One preallocated buffer of ``size`` bytes (default ``MAX_LINE``), so assembling
    allocates nothing but the finished line. ``feed(byte)`` (an int 0..255) returns
    ``None`` while a line is incomplete, the line (``bytes`` without its newline)
    when a newline ends it, or ``TOO_LONG`` once for a line that overflowed (the rest
    of it, up to the next newline, is discarded). A Ctrl-C byte (0x03) and a CR that
    starts a line are dropped: the protocol carries neither, while terminals and
    mpremote send ``\\r\\x03``. ``feed_many(data)`` feeds a whole chunk and returns
    the list of results that were not ``None``.
    """

    TOO_LONG = -1

    def __init__(self, size=MAX_LINE):
        self._buf = bytearray(size)
        self._mv = memoryview(self._buf)
        self._n = 0
        self._overflow = False

    def reset(self):
        """Forget a partial line (e.g. after the port was reopened)."""
        self._n = 0
        self._overflow = False

    def feed(self, byte):
        if byte == 3 or (byte == 13 and self._n == 0):
            return None
        if byte == 10:
            n = self._n
            self._n = 0
            if self._overflow:
                self._overflow = False
                return None
            return bytes(self._mv[:n])
        if self._overflow:
            return None
        if self._n >= len(self._buf) - 1:
            self._overflow = True
            self._n = 0
            return self.TOO_LONG
        self._buf[self._n] = byte
        self._n += 1
        return None

    def feed_many(self, data):
        out = []
        feed = self.feed
        for b in data:
            got = feed(b)
            if got is not None:
                out.append(got)
        return out
