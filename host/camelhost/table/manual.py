"""Dice typed by hand: ``red 2``, ``grey white 3``, ``g w 3``, ``red ?``.

Used in ``--pyramid manual`` mode, when the link reports ``GAP`` (events lost on
the device), and whenever the table prefers to type a die. The result has the
same shape as a die event from the serial link (``docs/interfaces.md``), so the
session treats both alike.

Colours (RULES 2.1, 3.1): classic ``blue green orange yellow white``; second
``blue green yellow red purple`` and the grey die with numeral ink ``black`` or
``white``. Any unambiguous prefix of a colour is accepted (``pu`` = purple), so
is the initial the table uses on the display (``r`` red, ``p`` purple).
"""

from camelup.editions import CLASSIC, INKS, LABEL_JOIN, SECOND, get_edition

from camelhost.i18n import _, colour_list, colour_word, colour_words, colours_in, edition_word

#: Every die colour of either edition (the canonical, English names).
_ALL_DICE = tuple(sorted(set(CLASSIC.dice + SECOND.dice)))

#: Letters a keyboard without them types instead (``gruen``, ``weiss``).
_PLAIN_LETTERS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}


class DieSyntaxError(ValueError):
    """The typed text is not a die for this edition; the message says why."""


def local_colours(lang=None):
    """{a colour word of the table's language, lower case: the canonical colour}: the
    words ``typed_colours`` reads (German ``blau`` and ``grün``/``gruen``: blue, green);
    empty in English. The words are the ones the table reads
    (``camelhost.i18n.colour_words``: one source); the journal and the notation keep the
    canonical (English) colours. ``lang``: another language's words (a code)."""
    words = {}
    for colour, word in colour_words(lang).items():
        word = word.lower()
        plain = "".join(_PLAIN_LETTERS.get(ch, ch) for ch in word)
        for typed in (word, plain):
            if typed != colour and typed not in _ALL_DICE:
                words[typed] = colour
    return words


def typed_label(text):
    """The label (``red``, ``grey-black``, ``empty``; two joined by ``+``: ``red+purple``)
    a maker typed for what lies in the pyramid's head or which die is meant: ``pyramid
    monitor --place`` and the ``pyramid emulate`` console's ``p``, ``in`` and ``out``
    (one source for both). Each colour word in English or in any language the table
    speaks, whatever the language now (``local_colours`` of each of
    ``camelhost.i18n.languages()``, the words ``colour_words`` gives: German ``rot``,
    ``lila``, ``gruen``, ``weiss``), letter case aside; the grey die's colour and ink
    joined by a hyphen or a space (``grey-black``, ``grau schwarz``). The inverse of the
    maker tools' ``camelhost.tools.monitor.shown_label``: a maker is asked in the table's
    language (``pyramid doctor --lang de``: ``p rot``) at a console or a command line that
    may speak another (tester2 s35, findings 13 and 14 e). A word it does not know comes
    back as typed, in lower case, for the caller to refuse; ``""`` for ``""``."""
    from camelhost.i18n import languages

    words = {}
    for lang in languages():
        words.update(local_colours(lang))
    return "+".join(LABEL_JOIN.join(words.get(word, word)
                                    for word in part.lower().replace(LABEL_JOIN, " ").split())
                    for part in text.split("+"))


def colour_hits(word, names):
    """The names of ``names`` (canonical colours, in their order) that ``word`` (lower
    case) is or shortens: by the English name or by the table's own word for it
    (``local_colours``: German ``li`` lila, ``ro`` rot, ``grü``/``gru`` grün), so a table
    abbreviates its own colour words as English ones are. ``[word]`` when ``word`` is a
    whole name; ``[]`` when none fits; several when ``word`` is ambiguous (German ``gr``:
    grün or grau)."""
    local = local_colours()
    if word in names:
        return [word]
    if local.get(word) in names:
        return [local[word]]
    return [n for n in names if n.startswith(word)
            or any(w.startswith(word) for w, c in local.items() if c == n)]


def shortened(edition):
    """The help's examples of shortened colours for ``edition`` (an ``Edition``), in the
    table's language: its ``short_colours`` (``r, pu, gre``) in English; elsewhere the
    same colours, each as the fewest letters of the table's own word that name it alone
    among the edition's dice and crazy camels (German ``r, l, grü``)."""
    local = local_colours()
    if not local:
        return edition.short_colours
    names = list(edition.dice) + [c for c in edition.camels if c not in edition.dice]
    words = {c: w for w, c in local.items() if w in colour_words().values()}
    shown = []
    for short in edition.short_colours.split(", "):
        colour = [n for n in names if n.startswith(short)][0]
        word = words.get(colour, colour)
        size = 1
        while size < len(word) and len(colour_hits(word[:size], names)) != 1:
            size += 1
        shown.append(word[:size])
    return ", ".join(shown)


def match_name(word, names, what):
    """Return the one name in ``names`` that ``word`` is, or is the start of (case-free),
    as an English colour or the table's own word for it (``colour_hits``).
    Raises ``DieSyntaxError`` naming the choices when there is none or several;
    ``what`` says what was expected ("die colour", ...)."""
    word = word.lower()
    hits = colour_hits(word, names)
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise DieSyntaxError(_("%(typed)r is not a %(what)s (one of: %(names)s)") % {
            "typed": word, "what": what, "names": colour_list(names)})
    raise DieSyntaxError(_("%(typed)r could be %(dice)s: type more letters")
                         % {"typed": word, "dice": colour_list(hits, _(" or "))})


def parse_value(text):
    """Return 1, 2 or 3 from ``text``; ``None`` for ``?``. Raises ``DieSyntaxError``."""
    text = text.strip()
    if text == "?":
        return None
    if text in ("1", "2", "3"):
        return int(text)
    raise DieSyntaxError(_("a die shows 1, 2 or 3, not %r") % text)


def parse_die(text, edition, ink_optional=False):
    """Parse a typed die for ``edition`` (``classic`` or ``second``).

    Returns a dict ``{"kind": "die", "colour", "ink", "value", "raw", "source":
    "typed"}``; ``ink`` is ``black``/``white`` for the grey die else ``None``;
    ``value`` is 1-3 or ``None`` when typed as ``?`` (asked for afterwards).
    The grey die (second edition only) needs its numeral ink: ``grey black 2``,
    except with ``ink_optional`` (setup, where the ink does not matter: RULES 3.2),
    where ``grey 2`` gives ``ink`` ``None``.
    Raises ``DieSyntaxError`` (a ``ValueError``) with a one-line reason.
    """
    ed = get_edition(edition)  # ValueError for an unknown edition
    words = text.lower().replace(",", " ").split()
    if not words:
        raise DieSyntaxError(_("type a die as colour and value, e.g. '%s 2'")
                             % colour_word(ed.racing[0]))
    names = ed.dice
    if words[0] == "gray":
        words[0] = "grey"
    colour = match_name(words[0], names, _("die colour in the %s edition") % edition_word(ed))
    ink = None
    rest = words[1:]
    if colour == "grey":
        if ink_optional and len(rest) == 1 and rest[0] in ("1", "2", "3", "?"):
            pass  # setup: the numeral colour does not matter
        elif not rest or rest[0] in ("1", "2", "3", "?"):
            value = rest[0] if rest else "2"
            black, white = (colours_in(" ".join(("grey", ink, value))) for ink in INKS)
            raise DieSyntaxError(_("the grey die needs its numeral colour: '%(black)s' or "
                                   "'%(white)s'") % {"black": black, "white": white})
        else:
            ink = match_name(rest[0], INKS, _("numeral colour of the grey die"))
            rest = rest[1:]
    if len(rest) != 1:
        example = "grey white 3" if colour == "grey" else "%s 2" % colour
        raise DieSyntaxError(_("type the die as e.g. '%s'") % colours_in(example))
    value = parse_value(rest[0])
    return {"kind": "die", "colour": colour, "ink": ink, "value": value,
            "raw": text.strip(), "source": "typed"}


def die_text(die):
    """Canonical text of a die dict: ``red 2``, ``grey black 3``, ``red ?``."""
    value = "?" if die.get("value") is None else str(die["value"])
    if die.get("colour") == "grey" and die.get("ink"):
        return "grey %s %s" % (die.get("ink"), value)
    return "%s %s" % (die["colour"], value)
