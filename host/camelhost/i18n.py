"""The translation catalogue: every word a player reads goes through here.

``_("text")`` translates a message into the table's language; ``ngettext(one, many, n)``
picks the plural form; ``pgettext(context, "text")`` tells apart one English word with two
meanings; ``N_("text")`` marks a module-level constant for extraction and
returns it unchanged (translate it with ``_()`` where it is shown, so a language chosen
after import still applies).

The catalogues are GNU gettext catalogues (domain ``pyramid``) under
``camelhost/locale/<lang>/LC_MESSAGES/``; English is the source language and needs none.
A message with no translation yet is shown in English.

``set_language(lang)`` chooses the language for the whole process: ``"en"``, ``"de"``, or
``None`` for the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext
reads them).

``edition_word(edition)`` names an edition for people (``second`` / ``Zweitausgabe``); the
``--edition`` value, the journal and the wire keep ``Edition.name``.

``language_name(lang)`` names a language in the table's language (``German`` /
``Deutsch``).

``colour_word(colour)`` names a camel's or a die's colour in the table's language (``red`` /
``rot``): the one source of the words a table reads and types for colours, while the journal,
the wire and the notation keep the edition's English names; ``colour_list(colours)`` joins
several.

``decimal(value, places)`` writes a number with a fractional part as the table's language
writes it (``+2.94`` / ``+2,94``): for what a player reads, never for what a machine or a
player's typing reads back (the journal, the wire, JSON, commands in hints).
``percent(share, places)`` writes a share as a percentage the same way (``37.5%`` /
``37,5 %``): every percentage a player reads goes through it.
``grouped(count)`` writes a whole number with the language's thousands grouping
(``5,598,720`` / ``5.598.720``): for counts a player reads in running text (outcomes,
simulated races), never in a column that must keep its width.
"""

import gettext as _gettext
import operator
import os

DOMAIN = "pyramid"
#: where the compiled catalogues are (``<lang>/LC_MESSAGES/pyramid.mo``)
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

_translation = _gettext.NullTranslations()
_language = "en"


def set_language(lang=None):
    """Choose the table's language; returns the language code in force (``"en"`` when no
    catalogue matches). ``lang``: a code such as ``"de"``, or None for the locale."""
    global _translation, _language
    languages = [lang] if lang else None
    _translation = _gettext.translation(
        DOMAIN, LOCALE_DIR, languages=languages, fallback=True
    )
    info = _translation.info() if hasattr(_translation, "info") else {}
    _language = (info.get("language") or "en").split("_")[0] if info else "en"
    return _language


def languages():
    """The language codes the table speaks: ``"en"`` (the source) and every language
    with a compiled catalogue, sorted."""
    found = ["en"]
    if os.path.isdir(LOCALE_DIR):
        for code in sorted(os.listdir(LOCALE_DIR)):
            if os.path.exists(os.path.join(LOCALE_DIR, code, "LC_MESSAGES", DOMAIN + ".mo")):
                found.append(code)
    return found


def language():
    """The language code in force (``"en"`` until ``set_language`` finds a catalogue)."""
    return _language


def language_option(words=()):
    """The ``--lang`` words (a list of str) that a ``pyramid`` command this program
    advises carries, so that it speaks the language in force: ``["--lang", "de"]`` in
    German, ``[]`` in English or when ``words`` (the command's words) already hold a
    ``--lang`` (tester46c finding 5: doctor's German next step left it out)."""
    if _language == "en" or any(str(w) == "--lang" or str(w).startswith("--lang=")
                                for w in words):
        return []
    return ["--lang", _language]


def language_name(lang=None):
    """The name of language ``lang`` (a code of ``languages()``; ``None``: the table's
    own) in the table's language, from the Unicode CLDR through Babel: ``German`` /
    ``English`` at an English table, ``Deutsch`` / ``Englisch`` at a German one. A code
    Babel does not know is returned as it is."""
    from babel import Locale, UnknownLocaleError

    code = lang or _language
    try:
        return Locale.parse(code).get_display_name(_language) or code
    except (ValueError, UnknownLocaleError):
        return code


def _(message):
    """``message`` in the table's language (English when it has no translation)."""
    return _translation.gettext(message)


def ngettext(singular, plural, n):
    """The plural form of a message for the count ``n``, in the table's language."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context, message):
    """``message`` in the table's language where the same English word means two things
    (``context`` tells them apart, e.g. ``"odds column"`` for a camel's last place)."""
    return _translation.pgettext(context, message)


def N_(message):
    """Mark ``message`` for the catalogue without translating it now."""
    return message


def npgettext(context, singular, plural, n):
    """The plural form of a message for the count ``n`` where the same English words
    mean two things (``context`` tells them apart), in the table's language."""
    return _translation.npgettext(context, singular, plural, n)


def _answer_words(words):
    """The typed answers ``words`` (a ``"y|yes"`` message, already translated) stands
    for, lower case, the table's language's own first, then the English ones."""
    local = [w.strip().lower() for w in words.split("|")]
    return [w for w in local if w]


def yes_words():
    """The answers that mean yes to a question (lower case): the table's language's own
    first (German ``j``/``ja``; its first word the one a question names), then English
    ``y``/``yes``, which every table takes."""
    local = _answer_words(pgettext("typed answer", "y|yes"))
    return local + [w for w in ("y", "yes") if w not in local]


def no_words():
    """The answers that mean no to a question (lower case): the table's language's own
    first (German ``n``/``nein``), then English ``n``/``no``."""
    local = _answer_words(pgettext("typed answer", "n|no"))
    return local + [w for w in ("n", "no") if w not in local]


def answers_named():
    """``(yes, no)``: the answers a yes/no question names, as the player types them, in
    the table's language (``"y/yes"``, ``"n/no"``; German ``"j/ja"``, ``"n/nein"``): the
    first words ``yes_words`` and ``no_words`` read (``yes_or_no``; English ``y``, ``no``
    are taken at every table too)."""
    return ("/".join(_answer_words(pgettext("typed answer", "y|yes"))),
            "/".join(_answer_words(pgettext("typed answer", "n|no"))))


def yes_or_no(text):
    """``text`` (a typed line, a str) read as the answer to a yes/no question: ``True``
    for a yes (``yes_words``: ``y``, ``yes``, German ``j``, ``ja``), ``False`` for a no
    (``no_words``), ``None`` for anything else (an empty line too). Letter case and
    the spaces around it aside. The one reading of such an answer: ask it only where a
    question waits, since ``y`` elsewhere is a die's colour (yellow)."""
    word = " ".join(text.split()).lower()
    if word in yes_words():
        return True
    if word in no_words():
        return False
    return None


#: The editions' names as a player reads them (``Edition.name``, the ``--edition`` value,
#: is the English word, read inside "the %s edition"; a language gives its own noun, the
#: same in every case of a sentence: German Erstausgabe / Zweitausgabe). The one place an
#: edition is named for people: marked here, translated by ``edition_word``.
EDITION_WORDS = (N_("classic"), N_("second"))


def edition_word(edition):
    """The name of ``edition`` inside a sentence, in the table's language: ``second`` in
    English (as in "the second edition"), ``Zweitausgabe`` in German.

    ``edition``: an ``Edition`` or its name (``"classic"``, ``"second"``, e.g. a board's
    ``HELLO ed=``); a name that is no edition (another firmware's) is returned as it is."""
    from camelup.editions import EDITIONS

    name = getattr(edition, "name", edition)
    return _(name) if name in EDITIONS else str(name)


def port_word():
    """The placeholder for a serial port, in the table's language (German ``ANSCHLUSS``):
    ``--port``'s metavar in ``--help`` and the word a suggested command or an offer
    (``--port PORT``, ``--pyramid PORT``) puts where the port goes: ``metavar("PORT")``."""
    return metavar("PORT")


def _metavars():
    """Every placeholder a command's ``--help`` or a suggested command shows for an
    option's value, in the table's language (context ``metavar``: German ``DATEI``,
    ``STELLUNG``, ...)."""
    return {
        "FILE": pgettext("metavar", "FILE"), "FOLDER": pgettext("metavar", "FOLDER"),
        "N": pgettext("metavar", "N"), "MS": pgettext("metavar", "MS"),
        "SECONDS": pgettext("metavar", "SECONDS"), "PORT": pgettext("metavar", "PORT"),
        "HOST:PORT": pgettext("metavar", "HOST:PORT"),
        "ADDRESS": pgettext("metavar", "ADDRESS"),
        "CONTENT": pgettext("metavar", "CONTENT"), "DICE": pgettext("metavar", "DICE"),
        "NAMES": pgettext("metavar", "NAMES"), "PLAYER": pgettext("metavar", "PLAYER"),
        "POLICIES": pgettext("metavar", "POLICIES"),
        "SECTION": pgettext("metavar", "SECTION"),
        "position": pgettext("metavar", "position"), "LANG": pgettext("metavar", "LANG"),
        "COMMAND": pgettext("metavar", "COMMAND"), "PILES": pgettext("metavar", "PILES"),
        "EDITION": pgettext("metavar", "EDITION"), "SEED": pgettext("metavar", "SEED"),
    }


def metavar(word):
    """The placeholder ``word`` (``"FILE"``, ``"N"``, ``"position"``, ... : the English
    one) in the table's language, as ``--help`` shows an option's value and a suggested
    command leaves a value to give: German ``DATEI``, ``N``, ``STELLUNG``. The one list
    of them; ``KeyError`` for a word not in it."""
    return _metavars()[word]


def catalogue(lang=None):
    """The translations of language ``lang`` (a code of ``languages()``), whatever the
    table speaks; ``None``: the table's own. An object with ``gettext`` and ``pgettext``
    (English, or a code with no catalogue: the messages as they are). For what holds in
    every language, such as the words a player's name must not be
    (``camelhost.table.session.new_name_problem``)."""
    if lang is None:
        return _translation
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def colour_words(lang=None):
    """``{colour: its word in the table's language}`` for every camel and die colour of
    either edition (``camelup.editions``: blue, green, yellow, red, purple, orange, white,
    black, grey): ``{"red": "rot", ...}`` in German, each colour itself in English. The
    words come from the catalogue (context ``colour``); the table reads them
    (``colour_word``) and may type them (``camelhost.table.parser.local_colours``).
    ``lang``: another language's words (a code of ``languages()``)."""
    words = catalogue(lang)
    return {
        "blue": words.pgettext("colour", "blue"), "green": words.pgettext("colour", "green"),
        "yellow": words.pgettext("colour", "yellow"), "red": words.pgettext("colour", "red"),
        "purple": words.pgettext("colour", "purple"),
        "orange": words.pgettext("colour", "orange"),
        "white": words.pgettext("colour", "white"), "black": words.pgettext("colour", "black"),
        "grey": words.pgettext("colour", "grey"),
    }


def colour_word(colour):
    """The name of a camel's or die's colour (``colour``: the edition's English name, as
    the view, the journal and the wire carry it) in the table's language: ``red`` in
    English, ``rot`` in German. A word that is no colour (``None``, a label such as
    ``grey-white``, a player's words) is returned as it is (``str()`` of it)."""
    if _language == "en":
        return "" if colour is None else str(colour)
    return colour_words().get(colour, "" if colour is None else str(colour))


def colours_in(text):
    """``text`` (a die or a board as the table writes them: ``grey black 2``,
    ``1:[blue,green]``) with each whole lower-case word that is a colour named by
    ``colour_word``: ``grau schwarz 2`` in German; English text is returned as it is."""
    if _language == "en":
        return text
    import re
    words = colour_words()
    return re.sub(r"[a-z]+", lambda m: words.get(m.group(0), m.group(0)), text)


def colour_list(colours, sep=", "):
    """Several colours in the table's language, joined by ``sep``: ``blue, green`` /
    ``blau, grün`` (``colour_word`` of each)."""
    return sep.join(colour_word(c) for c in colours)


def listed(words):
    """``words`` (``str`` each, already in the table's language) as one list inside a
    sentence, its last two joined by the language's "and": ``blue``, ``blue and green``,
    ``blue, green and red`` / ``blau, grün und rot``; ``""`` for none."""
    words = [str(word) for word in words]
    if len(words) < 2:
        return "".join(words)
    # TRANSLATORS: the end of a list inside a sentence: %(items)s the items before the
    # last, joined by ", "; %(last)s the last one ("blue, green and red")
    return _("%(items)s and %(last)s") % {"items": ", ".join(words[:-1]), "last": words[-1]}


_numbers = {}


def decimal(value, places, sign=False):
    """``value`` (an int or float) with exactly ``places`` (0 or more) digits after the
    decimal separator, as the table's language writes it: ``decimal(2.943, 2, sign=True)``
    is ``+2.94`` in English and ``+2,94`` in German; ``decimal(37.5, 1)`` is ``37.5`` /
    ``37,5``. No grouping of thousands (``1234.50``), so a column keeps its width.

    It rounds as ``"%.*f" % (places, value)`` does (so English is exactly that string, and
    ``sign=True`` exactly ``"%+.*f"``: ``-0.00`` stays as it is); the separator and the
    signs are the language's (CLDR, through Babel's ``babel.numbers.format_decimal``).
    A language Babel does not know is written as English, and so are ``nan`` and ``inf``.
    Raises ``TypeError`` for a value that is not a number."""
    text = ("%+.*f" if sign else "%.*f") % (places, value)
    if _language == "en" or not text[-1].isdigit():  # nan, inf: as printf writes them
        return text
    fmt = _numbers.get(_language)
    if fmt is None:
        fmt = _numbers[_language] = _number_format(_language)
    return fmt(text, places, sign)


def _number_format(lang):
    """The writer of ``decimal`` for one language: from the text ``%.*f`` made (already
    rounded) to the language's digits, separator and signs."""
    from decimal import Decimal

    from babel import Locale, UnknownLocaleError
    from babel.numbers import format_decimal, get_plus_sign_symbol

    try:
        locale = Locale.parse(lang)
    except (ValueError, UnknownLocaleError):
        return lambda text, places, sign: text
    plus = get_plus_sign_symbol(locale)

    def write(text, places, sign):
        pattern = "0." + "0" * places if places else "0"
        shown = format_decimal(Decimal(text), format=pattern, locale=locale,
                               group_separator=False)
        return plus + shown if sign and text.startswith("+") else shown

    return write


_percent_signs = {}


def percent(share, places=0):
    """``share`` (a fraction, 0..1 for a chance; an int or float) as a percentage with
    ``places`` digits after the separator, as the table's language writes one:
    ``percent(0.375, 1)`` is ``37.5%`` in English and ``37,5\u00a0%`` in German;
    ``percent(0.95)`` is ``95%`` / ``95\u00a0%``. The digits are ``decimal(100 * share,
    places)``'s: the one rounding rule for a figure a player reads, half to even on the
    float's exact value (``percent(0.125)`` is ``12%``, ``percent(0.135)`` ``14%``), as
    Python's ``%.0f`` and CLDR's default rounding do; it leans neither up nor down, so
    shares that sum to 100 % still read about 100 (12.5 and 87.5 read 12 and 88). The web
    page rounds its percentages by the same rule on the same numbers (``halfEven`` in
    ``web/static/board.js``). The sign and where it goes are the language's (CLDR's
    percent pattern, through Babel): English puts none between, German a no-break space
    (U+00A0, CLDR's; a terminal draws it as one column and never breaks a line there).
    A language Babel does not know is written as English. Raises ``TypeError`` for a
    value that is not a number."""
    before, after = _percent_signs.get(_language) or _percent_sign(_language)
    return before + decimal(100 * share, places) + after


def _percent_sign(lang):
    """``(before, after)``: what the language writes before and after a percentage's
    digits (``("", "%")`` in English), cached per language."""
    signs = ("", "%")
    if lang != "en":
        from babel import Locale, UnknownLocaleError
        from babel.numbers import format_percent
        try:
            zero = format_percent(0, locale=Locale.parse(lang))
        except (ValueError, UnknownLocaleError):
            zero = "0%"
        at = zero.index("0")
        signs = (zero[:at], zero[at + 1:])
    _percent_signs[lang] = signs
    return signs


_groupers = {}


def grouped(count):
    """``count`` (an int, any size, negative too) with the thousands grouped as the
    table's language groups them (CLDR, through Babel's ``babel.numbers.format_decimal``):
    ``grouped(5598720)`` is ``5,598,720`` in English and ``5.598.720`` in German;
    ``grouped(1234)`` is ``1,234`` / ``1.234`` (CLDR's German groups four digits too).
    A language Babel does not know is written as English. Raises ``TypeError`` for a
    value that is not an int (a float would hide a fraction)."""
    count = operator.index(count)  # TypeError for a float, a string, None
    write = _groupers.get(_language)
    if write is None:
        write = _groupers[_language] = _grouper(_language)
    return write(count)


def _grouper(lang):
    """The writer of ``grouped`` for one language (English's when Babel has none)."""
    from babel import Locale, UnknownLocaleError
    from babel.numbers import format_decimal

    try:
        locale = Locale.parse(lang)
    except (ValueError, UnknownLocaleError):
        locale = Locale.parse("en")
    return lambda count: format_decimal(count, format="#,##0", locale=locale)
