"""Text to events: what one line typed at the table stands for (docs/table.md).

``parse_command(text, session)`` returns the journal event a typed command stands
for, or raises ``TableError`` with a one-line message; it never changes anything.
It reads the session only through its public state (``phase``, ``edition``,
``names``, ``current``, ``game``, ``pending_die``, ``seed``, ``race_no``).

Every input is total: any string, of any length, with any characters, gives either
an event or a ``TableError``. Numbers are ASCII digits of at most ``NUMBER_MAX``
characters (no ``²``, no other scripts' digits, no 5,000-digit numbers); control
characters and lines longer than ``LINE_MAX`` are refused before anything else;
input quoted back in a message is shortened (``camelhost.table.errors.shown``).
"""

import functools
import re
import unicodedata

import camelup
from camelup.editions import GREY, LABEL_JOIN, get_edition
from camelup.game import random_stacks
from camelup.rng import XorShift32

from camelhost.i18n import (
    N_,
    _,
    catalogue,
    colour_list,
    colour_word,
    colours_in,
    edition_word,
    language_name,
    ngettext,
)
from camelhost.suggest import fold, nearest, ratio
from camelhost.table.errors import TableError, shown
from camelhost.table.manual import (
    DieSyntaxError,
    colour_hits,
    local_colours,
    match_name,
    parse_die,
    parse_value,
)
from camelhost.table.narration import die_name
from camelhost.table.view import side_word

#: Longest command line the table reads (characters); a ``setup`` of every camel fits.
LINE_MAX = 300
#: Longest number the table reads (digits): spaces are 1..16, seats up to 8.
NUMBER_MAX = 3
#: Every colour word of either edition, to tell "a die of the other edition" apart.
ALL_DICE = tuple(sorted(set(camelup.editions.CLASSIC.dice + camelup.editions.SECOND.dice
                            + ("gray",))))
#: The forms a command takes, said when it is typed without what it needs (the
#: command word stays as it is typed; what goes in <> is said in the table's language:
#: ``form_of``).
_LEG, _WIN, _LOSE = N_("leg <colour>"), N_("win <colour>"), N_("lose <colour>")
_TILE = N_("tile <space> + or tile <space> -")
FORMS = {
    "leg": _LEG, "l": _LEG, "bet": _LEG,
    "win": _WIN, "winner": _WIN, "w": _WIN,
    "lose": _LOSE, "loser": _LOSE,
    "finish": N_("finish winner|loser <colour>"),
    "partner": N_("partner <name>"), "partnership": N_("partner <name>"),
    "tile": _TILE, "t": _TILE,
    "oasis": N_("oasis <space>"), "mirage": N_("mirage <space>"),
    "cheer": N_("cheer <space>"), "cheering": N_("cheering <space>"),
    "boo": N_("boo <space>"), "booing": N_("booing <space>"),
    "setup": "setup 1:blue,green 2:red ...", "fix": N_("fix <space>:<colour>,<colour>"),
    "pyramid": "pyramid", "p": "pyramid", "undo": "undo", "redo": "redo", "again": "again",
    "unscored": "unscored", "draw": "draw",
    "rename": N_("rename <old name> <new name>"),
}


def typed_colours(text, names=()):
    """``text`` with each whole word that is a colour in the table's language
    (``local_colours``: German ``leg rot``, ``blau 2``, ``setup 1:blau,grün ...``) made
    the canonical colour (``leg red``); English words stay as they are, so both work.
    A player's name is theirs, kept as typed: a ``partner`` or ``rename`` line is left
    as it is (the rest of it is names: ``rename Ann Anna Rot``), and so is one of
    ``names`` (the players') that starts the line (``Anna Rot: leg rot`` -> ``Anna Rot:
    leg red``), unless that name is itself a lone colour word (a journal's from before
    such names were refused), which there is the die's colour unless the line reads it as
    the name (``_reserved_name_first``: ``Lila: leg rot``, ``Lila leg rot``)."""
    words = local_colours()
    if not words or text.split()[:1] and text.split()[0].lower() in ("partner",
                                                                     "partnership", "rename"):
        return text
    kept = ""
    for name in sorted(names, key=len, reverse=True):
        if text.lower().startswith(name.lower()) and text[len(name):len(name) + 1] in (
                " ", ":", ",") and (name.lower() not in words
                                    or _reserved_name_first(text, [name])):
            kept, text = text[:len(name)], text[len(name):]
            break
    return kept + re.sub(r"[^\W\d_]+", lambda m: words.get(m.group(0).lower(), m.group(0)),
                         text)


def label_as_notation(text, names=()):
    """``text`` (its colours canonical, ``typed_colours``) with a grey die typed by its
    label, as the screens name it (``grey-black 2``, German ``grau-schwarz 2``:
    ``camelup.editions.die_label``), written as the notation types it: ``grey black 2``
    (``gray-white 1`` too; a line as typed keeps the table's words: ``grau schwarz 2``).
    Only the line's first word, and never a player's name (one of ``names``: a line
    that starts with it comes back as it is, as any other line does)."""
    low = text.lstrip().lower()
    if any(low.startswith(name.lower()) and low[len(name):len(name) + 1] in ("", " ", ":", ",")
           for name in names if name):
        return text
    head, space, rest = text.lstrip().partition(" ")
    colour, join, ink = head.partition(LABEL_JOIN)
    if join and ink and colour.lower() in (GREY, "gray", colour_word(GREY).lower()):
        return colour + " " + ink + space + rest
    return text


def form_of(head):
    """The form of command ``head`` in the table's language (``leg <colour>``), or None."""
    form = FORMS.get(head)
    return colours_in(_(form)) if form else None  # setup 1:blau,grün 2:rot ...


#: Words that start a table command (besides the game's own forms, ``FORMS``): a line
#: typed at the private finish-card prompt that starts with one is that command, not a
#: colour (``camelhost.table.controller``).
TABLE_WORDS = ("quit", "exit", "help", "show", "board", "status", "odds", "best", "position",
               "release")
#: The table's commands a misspelt word may be taken for besides the game's (``help``
#: lists them; ``release`` only at a virtual pyramid, which the parser does not know).
_SUGGESTED_TABLE_WORDS = ("help", "show", "quit", "odds", "best", "position")


def local_commands(lang=None):
    """{a command word in the table's language, folded: the command typed}: German
    ``hilfe`` -> ``help``. The commands are typed in English in every language (``help``
    lists them so); these words are only suggested, never taken (``hilfe``: did you mean
    ``help``?). Empty in English. ``lang``: another language's words (a code)."""
    words = catalogue(lang)
    # each the command's word in the table's language (several: a|b), for suggesting it
    said = {"help": words.pgettext("typed command", "help"),
            "show": words.pgettext("typed command", "show"),
            "quit": words.pgettext("typed command", "quit"),
            "odds": words.pgettext("typed command", "odds"),
            "best": words.pgettext("typed command", "best"),
            "position": words.pgettext("typed command", "position"),
            "undo": words.pgettext("typed command", "undo"),
            "redo": words.pgettext("typed command", "redo"),
            "again": words.pgettext("typed command", "again")}
    local = {}
    for word, said_so in said.items():
        for typed in said_so.split("|"):
            if typed and typed != word:
                local[typed.lower()] = word
    return local


def reserved_word(name):
    """What the player's name ``name`` (a string) would read as at some table, or ``None``:
    ``(kind, meaning, lang)``, ``kind`` ``"colour"`` (``meaning`` the canonical colour)
    or ``"command"`` (``meaning`` the command as typed), ``lang`` ``None`` where every
    table reads it so (a colour's English name, which every table takes: ``red``,
    ``gray``; a command, typed in English at every table: ``undo``, ``quit``, ``l``),
    else the code of the catalogue language whose table reads it so (German ``Lila``:
    ``("colour", "purple", "de")``, ``gruen``, ``hilfe``: ``("command", "help", "de")``).
    The whole name, letter case aside; a name that holds such a word among others
    (``Anna Rot``) is none. Every language of ``camelhost.i18n.languages`` is asked, whatever
    the table speaks: a journal reads the same in each (docs/table.md, "Players' names")."""
    from camelhost.i18n import languages
    word = " ".join(name.split()).lower()
    if word in _KNOWN_COLOURS:
        return ("colour", "grey" if word == "gray" else word, None)
    if word in FORMS or word in TABLE_WORDS:
        return ("command", word, None)
    for lang in languages():
        if lang == "en":
            continue
        if word in local_colours(lang):
            return ("colour", local_colours(lang)[word], lang)
        if word in local_commands(lang):
            return ("command", local_commands(lang)[word], lang)
    return None


def _reserved_name_first(text, names):
    """Whether ``text`` starts with a player's name that is a command or colour word
    (``reserved_word``: a journal's, from before such names were refused) used as a name:
    followed by ``:`` or ``,``, or by a command word (``Lila: leg rot``, ``Undo leg red``),
    where alone or before a value it is the command or the colour (``undo``, ``lila 2``)."""
    low = text.lower()
    for name in sorted(names, key=len, reverse=True):
        after = text[len(name):len(name) + 1]
        if not (low.startswith(name.lower()) and after in (" ", ":", ",")) or \
                reserved_word(name) is None:
            continue
        rest = text[len(name):].lstrip(" ")
        then = rest.split()[0].lower() if rest.split() else ""
        return rest[:1] in (":", ",") or then in FORMS or then in TABLE_WORDS
    return False


_SIDES = {"+": "+", "-": "-", "oasis": "+", "cheering": "+", "cheer": "+",
          "mirage": "-", "booing": "-", "boo": "-"}
#: The words that start a finish card's line (``win red``, ``lose red``, ``finish winner
#: red``; ``w`` is ``win``), RULES 1.8: the one list the parser and the full screen's
#: mask read (``finish_card_cut``).
FINISH_WORDS = ("win", "winner", "w", "lose", "loser", "finish")
_FINISH = FINISH_WORDS[:5]
#: A run of letters: a word as ``finish_card_cut`` reads it (``lose:green``: ``lose``).
_LETTERS = re.compile(r"[^\W\d_]+")


def _meant_words():
    """Every language's own words a player may type meaning a finish card (context
    ``finish card word``, ``|`` between them: German ``sieger``, ``verlierer``,
    ``wettkarte``; English none besides ``FINISH_WORDS``), folded: never taken as a
    command, only masked and refused as a slip (``finish_card_slip``)."""
    from camelhost.i18n import languages
    return _meant_in(tuple(languages()))


@functools.lru_cache(maxsize=4)
def _meant_in(langs):
    words = set()
    for lang in langs:
        said = catalogue(lang)
        for meant in (said.pgettext("finish card word", "winner"),
                      said.pgettext("finish card word", "loser"),
                      said.pgettext("finish card word", "finish")):
            words.update(fold(w) for w in meant.split("|") if w.strip())
    return words - set(FINISH_WORDS)


def _not_finish_words():
    """The words that are something else at some table, never read as a finish card's
    slip: the commands (``FORMS``, ``TABLE_WORDS``, each language's, ``local_commands``)
    and the colours (either edition's, each language's), folded."""
    from camelhost.i18n import languages
    return _not_finish_in(tuple(languages()))


@functools.lru_cache(maxsize=4)
def _not_finish_in(langs):
    words = set(FORMS) | set(TABLE_WORDS) | set(ALL_DICE)
    words |= set(camelup.editions.CLASSIC.camels + camelup.editions.SECOND.camels)
    for lang in langs:
        words |= set(local_commands(lang)) | set(local_colours(lang))
    return {fold(w) for w in words}


def _is_finish_word(word):
    """``(finish, exact)``: whether ``word`` (letters) reads as a finish card's word, and
    whether it is one of ``FINISH_WORDS`` itself. A finish word is one of those, a
    language's own (``_meant_words``), or two letters or more near one of them
    (``suggest.nearest``: ``winn``, ``wn``, ``loose``, ``lsoe``, ``finsh``), nearer it
    than any other command (``tiel`` is ``tile``'s slip), and no command or colour of its
    own (``_not_finish_words``); letter case and accents aside."""
    folded = fold(word)
    if folded in FINISH_WORDS:
        return True, True
    meant = _meant_words()
    if folded in meant:
        return True, False
    if len(folded) < 2 or folded in _not_finish_words():
        return False, False
    finish = [w for w in FINISH_WORDS if len(w) > 1] + sorted(meant)
    # nearer another command than any finish word: that command's slip ('tiel': tile)
    others = [w for w in list(FORMS) + list(TABLE_WORDS) if len(w) > 1 and w not in finish]
    return nearest(folded, finish + others) in finish, False


def _finish_word_at(text, names):
    """The finish card's word of ``text`` (``_is_finish_word``) as ``(start, end,
    exact)`` indexes in ``text``, else ``None``: the line's first word, or the word after
    a player's name (one of ``names`` as typed, letter case aside, followed by a space,
    ``:`` or ``,``; or a first word near a name: ``Bne win red``). A player's whole
    name is never read as a slip (``Lise leg red`` with a player called Lise)."""
    start = len(text) - len(text.lstrip())
    low = text.lower()
    for name in sorted(names, key=len, reverse=True):
        after = text[start + len(name):start + len(name) + 1]
        if low.startswith(name.lower(), start) and after in ("", " ", ":", ","):
            return _word_at(text, _skip_separators(text, start + len(name)))
    first = _word_at(text, start)
    if first is not None:
        return first
    word = _LETTERS.match(text, start)
    if word is not None and names and nearest(word.group(0), names) is not None:
        return _word_at(text, _skip_separators(text, word.end()))
    return None


def _skip_separators(text, at):
    while at < len(text) and text[at] in " :,":
        at += 1
    return at


def _word_at(text, at):
    """``(start, end, exact)`` of the word at ``at`` in ``text`` when it reads as a finish
    card's (``_is_finish_word``), else ``None``."""
    word = _LETTERS.match(text, at)
    if word is None:
        return None
    finish, exact = _is_finish_word(word.group(0))
    return (word.start(), word.end(), exact) if finish else None


def finish_card_cut(text, names=()):
    """Where the hidden part of a finish card's line begins: the index in ``text`` just
    after its finish-card word (``win red``: 3; ``Ann: lose:green``: 9), once anything
    follows that word; ``None`` for any other line, and for the word alone (``win``,
    whose colour is asked unseen). The word is the first (after an optional player's
    name, ``names``) and reads as a finish card's (``FINISH_WORDS``, a language's own,
    or a slip near one: ``winn``, ``loose``, ``wn``, ``lsoe``): what follows may be a
    finish card's colour, so it is never shown nor said back (RULES 1.8, 5). The one
    test the full screen's mask (``camelhost.ui.tui``) and the parser's refusal
    (``finish_card_slip``) share."""
    found = _finish_word_at(text, names)
    if found is None or found[1] >= len(text):
        return None
    return found[1]


def finish_card_slip(text, names=()):
    """Whether ``text`` reads as a finish card (``finish_card_cut``) typed in no form the
    table takes: a slip of its word (``winn green``, ``lose:green``, ``sieger rot``),
    where ``win green`` and ``Ann win green`` (refused for its name, the colour left
    out) are not."""
    found = _finish_word_at(text, names)
    if found is None:
        return False
    _start, end, exact = found
    return not exact or end < len(text) and not text[end].isspace()


#: The refusal of a finish card's slip (``finish_card_slip``): it never repeats the line.
FINISH_SLIP = N_("that line reads as a finish card, mistyped: it was not played, and is "
                 "not repeated; type 'win' or 'lose' alone, then the colour (not shown) "
                 "(RULES 1.8)")


def check_line(text):
    """Refuse a line the table cannot read at all: too long, or with control
    characters other than a tab or a form feed (``TableError``). Returns the line
    stripped, in Unicode's composed form (NFC, as players' names are kept:
    ``camelhost.table.session.player_name``), so a name pasted with a combining accent
    is the name typed with its one letter."""
    if len(text) > LINE_MAX:
        raise TableError(_("that line is %(length)d characters long; commands are at most "
                           "%(most)d (help lists them)") % {"length": len(text), "most": LINE_MAX})
    for ch in text:
        # a tab, and a form feed (Ctrl-L, a terminal's clear-screen key, typed into the
        # line where the terminal does no line editing), are white space
        if ord(ch) < 32 and ch not in "\t\f" or 127 <= ord(ch) < 160:
            raise TableError(_("%(line)s holds a control character (%(character)r): type the "
                               "command again") % {"line": shown(text), "character": ch})
    return unicodedata.normalize("NFC", text.strip())


#: What ``number`` and ``_name`` can be asked for, each with its own whole message
#: (a language puts its own article before each noun): ``%(word)s`` the word typed,
#: ``%(low)d``..``%(high)d`` the range, ``%(names)s`` the choices, ``%(edition)s``.
NOT_A = {
    "space": N_("%(word)s is not a space (%(low)d..%(high)d)"),
    "camel": N_("%(word)s is not a camel (one of: %(names)s)"),
    "edition camel": N_("%(word)s is not a camel of the %(edition)s edition "
                        "(one of: %(names)s)"),
    "racing camel": N_("%(word)s is not a racing camel of the %(edition)s edition "
                       "(one of: %(names)s)"),
}
#: A number in range but off the track, per noun (only a space can be).
OFF_TRACK = {"space": N_("space %(value)d is not on the track (%(low)d..%(high)d)")}


def number(word, what, low, high):
    """The whole number ``word`` stands for, ``low``..``high``; ASCII digits only.
    ``what``: a key of ``NOT_A`` (``"space"``). Raises ``TableError`` naming what was
    expected, in the table's language."""
    if not (word.isascii() and word.isdigit()) or len(word) > NUMBER_MAX:
        raise TableError(_(NOT_A[what]) % {"word": shown(word), "low": low, "high": high})
    value = int(word)
    if not low <= value <= high:
        raise TableError(_(OFF_TRACK[what]) % {"value": value, "low": low, "high": high}
                         if what in OFF_TRACK else
                         _(NOT_A[what]) % {"word": shown(word), "low": low, "high": high})
    return value


def _name(names, word, what, edition=None, typed=None):
    """The one name of ``names`` that ``word`` is or starts (case-free); ``what``: a key
    of ``NOT_A``; ``typed``: the word as the player typed it (before ``typed_colours``),
    quoted in a refusal (else ``word``, its colours in the table's words). Raises
    ``TableError`` naming the choices."""
    low = word.lower()
    if not colour_hits(low, names):
        said = colours_in(word) if typed is None else typed  # a name keeps its capitals
        text = _(NOT_A[what]) % {
            "word": repr(said) if len(said) <= 40 else shown(said),
            "names": colour_list(names), "edition": edition}
        near = _near_colour(low, names)
        if near is not None:  # 'leg yelow': did you mean yellow?
            text += _("; did you mean %s?") % colour_word(near)
        raise TableError(text)
    try:
        return match_name(word, names, what)
    except DieSyntaxError as exc:  # several names start so: type more letters
        raise TableError(str(exc)) from None


#: Every colour of a die or camel of either edition, canonical (``orange``, ``black``).
_KNOWN_COLOURS = ALL_DICE + camelup.editions.CLASSIC.camels + camelup.editions.SECOND.camels


def _near_colour(word, colours):
    """The colour of ``colours`` (canonical) nearest to ``word`` by its English name or
    the table's own word for it (German ``gelbb``: yellow), else ``None``
    (``suggest.nearest``)."""
    if len(word) < 3 or word in _KNOWN_COLOURS or word in local_colours():  # 'leg black': no 'blue?'
        return None
    words = list(colours) + [w for w, c in local_colours().items() if c in colours]
    near = nearest(word, words)
    return local_colours().get(near, near) if near is not None else None


def _foreign_colour(word):
    """``(colour, lang)`` when ``word`` (any case) is a colour's word in another language
    the table speaks and not in its own (``local_colours`` of each of
    ``camelhost.i18n.languages()``; English names every table takes): German ``lila``
    at an English table is ``("purple", "de")``; else ``None``."""
    from camelhost.i18n import language, languages
    low = word.lower()
    if low in local_colours():
        return None
    for lang in languages():
        if lang not in ("en", language()) and low in local_colours(lang):
            return local_colours(lang)[low], lang
    return None


def _check_foreign_colours(typed, line):
    """Raise ``TableError`` when a word of ``typed`` (a line or a word as the player typed
    it) is a colour in another language only (``_foreign_colour``: ``leg lila``, ``rot
    2`` at an English table), naming the word in this table's language and the line
    to type: ``line`` (the same line, its colours canonical) in the table's words
    (tester38 finding 13). Those words are not taken as they are: a table reads one
    language's colour words (a start such as ``gr`` stays one colour's, and the echo
    speaks the table's words). Never for a finish card's colour (RULES 1.8)."""
    for word in _LETTERS.findall(typed):
        found = _foreign_colour(word)
        if found is not None:
            colour, lang = found
            # each colour word in its own language, inside a token too ('2:rot,gelb')
            fixed = colours_in(_LETTERS.sub(lambda m: (_foreign_colour(m.group(0)) or
                                                       (m.group(0),))[0], line))
            raise TableError(_("%(word)s is %(lang)s for %(colour)s: type %(line)s (this "
                               "table speaks %(table)s)") % {
                "word": shown(word), "lang": language_name(lang),
                "colour": colour_word(colour), "line": shown(fixed),
                "table": language_name()})


def foreign_colour_hint(word, racing):
    """The words saying that colours are typed in this table's language, listing the
    colours of ``racing`` (canonical names) in it, when ``word`` (a str, any case) is a
    colour's word in another language only (``_foreign_colour``: German ``rot`` at an
    English table); else ``None``. It names neither the word's colour nor its language:
    a finish card's colour is never said back (RULES 1.8), typed with the card or alone
    at the private colour prompt (``Table``)."""
    if _foreign_colour(word) is None:
        return None
    return _("colours are typed in this table's language, %(language)s (%(colours)s)") % {
        "language": language_name(), "colours": colour_list(racing)}


def _unbracketed(camels, token):
    """A space's camels ``blue,green`` or, as the table prints a board,
    ``[blue,green]``: the list without its brackets. Raises ``TableError`` naming
    ``token`` when a bracket has no pair."""
    inner = camels[1:-1] if camels.startswith("[") and camels.endswith("]") else camels
    if "[" in inner or "]" in inner:
        raise TableError(_("%s: a bracket without its pair (write 1:blue,green or "
                           "1:[blue,green])") % shown(token))
    return inner


def parse_stacks(text, edition):
    """Parse typed starting stacks ``"1:blue,green 2:red 15:black 16:white"``.

    Spaces 1..16, colours bottom -> top (prefixes allowed); a space's stack may also be
    written in brackets as the table prints a set-up race, ``1:[blue,green]``
    (docs/notation.md, the short board form). Returns ``{space: [colours]}``. Raises
    ``TableError`` when a camel is missing, repeated or unknown, or a bracket unmatched.
    """
    ed = get_edition(edition)
    stacks = {}
    seen = []
    for token in text.replace(";", " ").split():
        if ":" not in token:
            raise TableError(_("write each space as SPACE:colour,colour (e.g. 1:blue,green), "
                             "not %s") % shown(token))
        space, _colon, camels = token.partition(":")
        space = _space_first(space, camels)
        camels = _unbracketed(camels, token)
        for word in camels.split(","):
            if not word:
                continue
            colour = _name(ed.camels, word, "edition camel", edition_word(ed))
            if colour in seen:
                raise TableError(_("camel %s is placed twice") % colour_word(colour))
            seen.append(colour)
            stacks.setdefault(space, []).append(colour)
    missing = [c for c in ed.camels if c not in seen]
    if missing:
        raise TableError(_("setup is missing: %s") % colour_list(missing))
    return stacks


def _space_first(space, camels):
    """The space (1..16) of a ``SPACE:camels`` token of ``setup`` or ``fix``, split at its
    colon (``space``, ``camels``: str). Raises ``TableError`` naming the order when the
    token is turned around (``blue,green:1``: s46 tester 5), else as ``number`` does."""
    if camels.isdigit() and space and not space.isdigit():
        raise TableError(_("the space comes first, then the camels on it: %s")
                         % shown(colours_in("%s:%s" % (camels, space))))
    return number(space, "space", 1, 16)


def stacks_json(stacks):
    """``{space: [colours]}`` as the journal writes it: ``[[space, [colours]], ...]``."""
    return [[space, list(stacks[space])] for space in sorted(stacks)]


def stacks_from_json(rows):
    """The inverse of ``stacks_json``."""
    return {int(space): list(camels) for space, camels in rows}


#: ``draw`` or ``setup ...`` once the race is set up: the camels are set up once, at
#: the start of a race (RULES 2.2, 3.2); a bumped stack is put back with ``fix``.
SETUP_DONE = N_("the setup is already done")


def drawn_stacks(session):
    """Starting stacks drawn from the session's seed and race number (``draw``): the
    first draw of a race is always the same for a seed; a draw taken back (``undo``)
    and drawn again is the next draw of the same random sequence, so a table can
    draw anew (``Session.draws`` counts the race's draws)."""
    if session.phase != "setup":
        raise TableError(_(SETUP_DONE))
    rng = XorShift32(session.seed * 1000 + session.race_no)
    stacks = random_stacks(session.edition, rng)
    for _drawn in range(session.draws):
        stacks = random_stacks(session.edition, rng)
    return stacks


def _typable_start(word, near, names):
    """The start of the name ``near`` typed as ``word`` has it before their first
    difference (``Zo`` of ``Zoe`` for Zoë), when ``word`` is ``near`` but for accents
    and letter case (``suggest.fold``) and that start names ``near`` alone among
    ``names`` (``seat_of`` takes it); else ``None``."""
    if fold(word) != fold(near):
        return None
    low, name = word.lower(), near.lower()
    size = 0
    while size < min(len(low), len(name)) and low[size] == name[size]:
        size += 1
    start = word[:size]
    if not start or [n.lower().startswith(start.lower()) for n in names].count(True) != 1:
        return None
    return start


def seat_of(names, word):
    """Seat index of the player named ``word`` (case-free, a unique prefix, or the seat
    number 1..n). Raises ``TableError`` listing the players, or the players whose names
    ``word`` starts when it starts more than one; a name that is ``word`` but for its
    accents (``Zoe`` for Zoë) is offered with the start of it that can be typed without
    them and names that player alone (``Zo``), for a keyboard without the letter (s37
    tester 13)."""
    low = word.lower()
    for i, n in enumerate(names):
        if n.lower() == low:
            return i
    hits = [i for i, n in enumerate(names) if n.lower().startswith(low)]
    if len(hits) == 1:
        return hits[0]
    if low.isascii() and low.isdigit() and len(low) <= NUMBER_MAX and \
            1 <= int(low) <= len(names):
        return int(low) - 1
    if hits:  # the start of several names: never one of them guessed
        raise TableError(_("%(typed)s could be %(names)s: type more of the name")
                         % {"typed": shown(word), "names": _(" or ").join(names[i] for i in hits)})
    near = nearest(word, names)
    start = _typable_start(word, near, names) if near is not None else None
    if start is not None:  # 'Zoe' for Zoë: said, never taken silently; 'Zo' takes her
        raise TableError(_("no player called %(typed)s (players: %(players)s); did you mean "
                           "%(near)s? (without the letter on the keyboard, type the start of "
                           "the name: %(start)s)")
                         % {"typed": shown(word), "players": ", ".join(names), "near": near,
                            "start": shown(start)})
    if near is not None:  # 'Omer' for Ömer: said, never taken silently
        raise TableError(_("no player called %(typed)s (players: %(players)s); did you mean "
                           "%(near)s?")
                         % {"typed": shown(word), "players": ", ".join(names), "near": near})
    raise TableError(_("no player called %(typed)s (players: %(players)s)") % {
        "typed": shown(word), "players": ", ".join(names)})


def _form(head, why=None):
    form = form_of(head)
    text = _("%(command)s: check the form: %(form)s") % {"command": head, "form": form} if form else \
        _("%s: check the form") % shown(head)
    return TableError(text + ("; " + why if why else _(" ('help' shows every command)")))


def parse_command(text, session):
    """Return the event a typed command stands for (no change). Raises ``TableError``.

    Commands (see docs/table.md): ``leg red``, ``tile 7 +``, ``cheer 7``, ``win red``,
    ``lose red``, ``partner Ben``, ``pyramid``, a die ``red 2`` / ``grey white 3``, a
    value ``1``-``3``, ``setup 1:blue,green ...``, ``draw``, ``fix 7:red,blue``,
    ``undo``, ``redo``, ``unscored``, ``again``.
    """
    text = check_line(text)
    words = text.split()
    if not words:
        raise TableError(_("type a command (help lists them)"))
    typed = text  # as typed, quoted in a refusal: German 'lila', never 'purple'
    text = label_as_notation(typed_colours(text, session.names), session.names)
    words = text.split()
    head = words[0].lower()
    if _reserved_name_first(text, session.names):  # 'Undo leg red': the player, named first
        raise TableError(_unknown_command(text, head, session, typed))
    if finish_card_slip(typed, session.names):  # 'winn green': its colour never said back
        raise TableError(_(FINISH_SLIP))
    if session.phase == "ink" and head not in ("undo", "unscored", "rename"):
        return _parse_ink(text)
    event = _table_command(head, words, session, typed)
    if event is None and session.phase == "value":
        event = _parse_value(text, session)
    if event is None:
        event = _players_action(head, words, session, typed)
    return event if event is not None else _parse_die(text, head, session, typed)


def _table_command(head, words, session, typed=None):
    """The event of a command of the table's, not a player's (``undo``, ``redo``, ``again``,
    ``unscored``, ``draw``, ``setup ...``, ``fix ...``), ``None`` for any other
    ``head``; ``typed``: the line as the player typed it (a colour of another language
    in ``setup`` or ``fix`` is refused naming it: ``_check_foreign_colours``). Raises
    ``TableError``."""
    rest = " ".join(words[1:])
    # (a setup after the setup, a fix before it: refused as such, whatever follows)
    if (head == "setup") == (session.game is None) and head in ("setup", "fix"):
        _check_foreign_colours(typed or " ".join(words), " ".join(words))
    if head in ("undo", "redo", "again", "unscored", "draw") and rest:
        raise _form(head, _("nothing comes after it"))
    if head == "undo":  # with bots: back to the player's turn (``Session.undo_steps``)
        steps = session.undo_steps()
        return {"type": "undo", "steps": steps} if steps > 1 else {"type": "undo"}
    if head == "redo":  # what the last undo took back (``Session.undone``)
        return {"type": "redo"}
    if head == "again":  # the start marker passes on (RULES 1.12): the journal says to whom
        start = session.next_race_start()
        return {"type": "race"} if start is None else {"type": "race", "start": start}
    if head == "unscored":
        return {"type": "unscored"}
    if head == "draw":
        return {"type": "setup", "how": "drawn", "stacks": stacks_json(drawn_stacks(session))}
    if head == "setup":
        if session.game is not None:  # whatever follows: refused as 'draw' is
            raise TableError(_(SETUP_DONE))
        if not rest:
            raise _form(head)
        placed = [c for c, _v in session.setup_rolls]
        if placed:  # not 'setup is missing: ...' naming camels already on the board
            raise TableError(ngettext(
                "setup types the whole board at once, but %s is already placed by its "
                "die: go on with the dice, or undo it first",
                "setup types the whole board at once, but %s are already placed by their "
                "dice: go on with the dice, or undo them first", len(placed))
                % colour_list(placed, _(" and ")))
        return {"type": "setup", "how": "typed",
                "stacks": stacks_json(parse_stacks(rest, session.edition.name))}
    if head == "fix":
        return _parse_fix(rest, session)
    if head == "rename":
        return _parse_rename(words[1:], session)
    return None


def _parse_rename(args, session):
    """``rename OLD NEW``: a player's name corrected. ``OLD`` is a player's name as
    ``partner`` takes it (``seat_of``: letter case aside, or a unique start of it; a
    name with spaces whole); ``NEW`` the rest of the line. Raises ``TableError``."""
    names = session.names
    if len(args) < 2:
        raise _form("rename", _("the player's name, then the new one (players: %s)")
                    % ", ".join(names))
    seat, new = None, None
    for cut in range(len(args) - 1, 0, -1):  # the longest whole name first: 'Ann Marie'
        old = " ".join(args[:cut]).lower()
        hits = [i for i, n in enumerate(names) if n.lower() == old]
        if hits:
            seat, new = hits[0], " ".join(args[cut:])
            break
    if seat is None:
        seat, new = seat_of(names, args[0]), " ".join(args[1:])
    return {"type": "rename", "player": seat, "name": new}


def _parse_value(text, session):
    """The value keyed for the die the pyramid reported as ``?`` (the phase ``value``):
    ``1``-``3`` as a ``value`` event. Raises ``TableError`` for anything else."""
    try:
        value = parse_value(text)
    except DieSyntaxError:
        raise TableError(_("press 1, 2 or 3 for the value of the %s die (or undo)")
                         % colours_in(die_name(session.pending_die))) from None
    if value is None:
        raise TableError(_("press 1, 2 or 3 for the value"))
    return {"type": "value", "value": value}


def _players_action(head, words, session, typed=None):
    """The event of a player's action (``pyramid``, ``leg``, a finish card,
    ``partner``, a tile), ``None`` for any other ``head``; ``typed``: the line as the
    player typed it, quoted in a refusal. Raises ``TableError``."""
    if head in ("pyramid", "p"):
        if len(words) > 1:
            raise _form(head, _("nothing comes after it: the die that comes out completes it"))
        return {"type": "pyramid", "player": session.current}
    if head in ("leg", "l", "bet"):
        if len(words) != 2:
            raise _form(head)
        said = typed.split()[1] if typed and len(typed.split()) == 2 else None
        _check_foreign_colours(said or words[1], "%s %s" % (head, words[1]))
        return _action(session, "leg %s" % _name(session.edition.racing, words[1],
                                                 "racing camel", edition_word(session.edition),
                                                 said))
    if head in _FINISH or head == "finish":
        return _finish_card(head, words, session)
    if head in ("partner", "partnership"):
        if len(words) < 2:  # where no partnership can be formed, that first (RULES 3.8)
            refusal = session.partnership_refusal("partner")
            raise TableError(refusal) if refusal is not None else _form(head)
        # the rest of the line is the name: names may hold spaces ('Ann Marie')
        name = " ".join(words[1:])
        return _action(session, "partner %d" % seat_of(session.names, name))
    if head in ("tile", "t", "oasis", "mirage", "cheer", "cheering", "boo", "booing"):
        return _action(session, _tile_text(head, words[1:], session.edition))
    return None


def _finish_card(head, words, session):
    """``finish winner red``, ``win red``, ``lose red``: a finish card (RULES 1.8), its
    colour never echoed in a refusal. Raises ``TableError``."""
    racing = session.edition.racing
    if head == "finish":
        if len(words) == 3 and words[2].lower() in ("winner", "loser") and \
                words[1].lower() not in ("winner", "loser"):
            # 'finish red winner': the order, its colour never said back (s46 tester 5)
            raise TableError(_("%(command)s: the pile comes first, then the colour: "
                               "%(form)s") % {"command": head, "form": form_of(head)})
        if len(words) != 3 or words[1].lower() not in ("winner", "loser"):
            raise _form(head)
        pile, word = words[1].lower(), words[2]
    else:
        if len(words) != 2:
            raise _form(head)
        pile, word = ("winner" if head.startswith("w") else "loser"), words[1]
    hint = foreign_colour_hint(word, racing)
    if hint is not None:  # its colour never said, nor which (RULES 1.8)
        raise TableError("%s: %s" % (form_of(head), hint))
    try:
        colour = match_name(word, racing, "racing camel")
    except DieSyntaxError:
        # never echo a colour nor suggest one: it may be a finish card's (RULES 1.8, 5);
        # the start of several colours ('g') names none of them (s38 tester 9)
        if len(colour_hits(word.lower(), racing)) > 1:
            raise TableError(_("%(form)s: %(typed)s could be more than one camel: type more "
                               "letters") % {"form": form_of(head), "typed": shown(word)}) from None
        said = {"form": form_of(head), "edition": edition_word(session.edition),
                "colours": colour_list(racing)}
        low = word.lower()
        if low in session.edition.crazy or session.edition.crazy and low in (GREY, "gray"):
            # typed in full, and never a card: nothing hidden is told (s46 tester 2)
            raise TableError(_("%(form)s: crazy camels have no finish cards, nor has the grey "
                               "die (RULES 1.8); a finish card is a racing camel's: "
                               "%(colours)s") % said) from None
        if low in _KNOWN_COLOURS:  # a whole colour of the other edition: not a typo
            raise TableError(_("%(form)s: that is not a racing camel of the %(edition)s "
                               "edition (%(colours)s)") % said) from None
        raise TableError(_("%(form)s: that is not a racing camel of the %(edition)s edition "
                           "(%(colours)s): type the colour in full") % said) from None
    return _action(session, "finish %s %s" % (pile, colour))


def _crazy_die(text, head, session, typed=None):
    """``black 2`` / ``white 3``: a crazy camel's name typed as if it were a die.

    Crazy camels have no die of their own: the grey die moves them (RULES 3.1, 3.5).
    At setup the grey die is rolled once for each crazy camel, the ink ignored (RULES
    3.2); the table takes black first, then white (docs/rules-decisions.md 3), so ``black 2`` typed while black is the next to
    place is the grey die with that ink (as ``grey black 2``). Anything else is refused
    with what to type. Returns the die event, or raises ``TableError``."""
    ed = session.edition
    words = text.lower().split()
    value = words[1] if len(words) == 2 else "2"
    if session.phase == "setup":
        done = [c for c, _ in session.setup_rolls if c in ed.crazy]
        if len(done) == len(ed.crazy):
            raise TableError(_("%s: both crazy camels are already placed")
                             % shown(_said(text, typed)))
        first = ed.crazy[len(done)]
        if head != first:
            raise TableError(_("%(typed)s: at setup the grey die's first roll places the "
                               "%(first)s crazy camel, the second the %(second)s one (the "
                               "table's order: RULES 3.2 rolls once for each, "
                               "docs/rules-decisions.md 3): type '%(camel)s %(value)s' (or "
                               "'grey %(value)s') for the %(camel)s camel now, or the whole "
                               "board with 'setup ...'") % {
                "typed": shown(_said(text, typed)), "first": colour_word(ed.crazy[0]),
                "second": colour_word(ed.crazy[1]), "camel": colour_word(first),
                "value": value})
        try:
            die = parse_die("grey %s %s" % (head, " ".join(words[1:])), ed.name)
        except DieSyntaxError:
            raise TableError(_("%(typed)s: type the grey die's roll for the %(camel)s camel "
                               "as '%(camel)s 2' (or 'grey 2')") % {
                "typed": shown(_said(text, typed)), "camel": colour_word(head)}) from None
        die["raw"] = text.strip()
        die["type"] = "die"
        die["source"] = "typed"
        return die
    raise TableError(_("%(typed)s: the %(camel)s crazy camel has no die of its own; the grey "
                       "die moves it: type '%(example)s' (the numerals' colour, then the value)")
                     % {"typed": shown(_said(text, typed)), "camel": colour_word(head),
                        "example": colours_in("grey %s %s" % (head, value))})


def _said(text, typed):
    """A typed line as a refusal quotes it: as the player typed it (``typed``), else
    ``text`` (its colours canonical) in the table's colour words."""
    return typed if typed is not None else colours_in(text)


def _parse_die(text, head, session, typed=None):
    """Anything else must be a typed die: ``text`` its colours canonical, ``typed`` the
    line as the player typed it (quoted in a refusal; else ``text`` in the table's
    colour words)."""
    ed = session.edition
    if head in ed.crazy and session.phase in ("setup", "turn", "die"):
        return _crazy_die(text, head, session, typed)
    try:
        die = parse_die(text, ed.name, ink_optional=session.phase == "setup")
    except DieSyntaxError as exc:
        reason = str(exc)
        if typed is not None:  # the reason worded from the words typed ('lila', not purple)
            try:
                parse_die(label_as_notation(typed, session.names), ed.name,
                          ink_optional=session.phase == "setup")
            except DieSyntaxError as mine:
                reason = str(mine)
        if head.isdigit() and session.phase == "setup":
            raise TableError(_setup_value_hint(text, session)) from None
        turned = " ".join(text.split()[1:] + [head])
        if head in ("1", "2", "3") and len(text.split()) > 1 and _is_die(turned, ed):
            # '2 red', '3 grey white': a die, its value typed first (s46 tester 5)
            raise TableError(_("%(typed)s: the die's colour comes first, then its value: "
                               "%(line)s") % {"typed": shown(_said(text, typed)),
                                              "line": shown(colours_in(turned))}) from None
        _colour_first(text, head, session, typed)
        if head.isdigit() and len(text.split()) == 1 and (
                session.phase == "die" or session.phase == "turn" and session.dice_typed):
            # a bare value where a die is awaited, or typed to take a pyramid ticket
            # (dice typed at the table): its colour comes first ('green 2')
            raise TableError(_("%(typed)s: type the die with its colour, e.g. '%(example)s'")
                             % {"typed": shown(_said(text, typed)), "example": colours_in(
                                 "%s %s" % (ed.example_colour,
                                            head if head in ("1", "2", "3") else "2"))}) from None
        if typed is not None and len(typed.split()) > 1 and \
                _foreign_colour(typed.split()[0]) is not None:
            _check_foreign_colours(typed, text)  # 'rot 2' at an English table
        known = ("leg", "tile", "win", "lose", "partner", "pyramid")
        if head not in FORMS and head not in ALL_DICE and _nearest(head, session):
            raise TableError(_unknown_command(text, head, session, typed)) from None
        if any(head.startswith(k[:3]) for k in known) or head.isdigit():
            raise TableError(_("%s: check the form ('help' shows every command)")
                             % shown(_said(text, typed))) from None
        hits = colour_hits(head, ed.dice)
        if len(hits) > 1:
            raise TableError(_("%(typed)s: ambiguous: %(colours)s (type more letters)")
                             % {"typed": shown(_said(text, typed)),
                                "colours": colour_list(hits, _(" or "))}) from None
        try:
            match_name(head, ed.dice, "colour")
        except DieSyntaxError:
            if head in ALL_DICE:  # a die of the other edition
                raise TableError(_("%(typed)s: %(die)r is not a die of the %(edition)s edition "
                                   "(dice: %(dice)s)")
                                 % {"typed": shown(_said(text, typed)), "die": colours_in(head),
                                    "edition": edition_word(ed),
                                    "dice": colour_list(ed.dice)}) from None
            raise TableError(_unknown_command(text, head, session, typed)) from None
        if len(text) > 40:
            raise TableError(_("%(typed)s: type the die as colour and value, e.g. "
                               "'%(colour)s 2'") % {"typed": shown(_said(text, typed)),
                                                    "colour": colour_word(ed.racing[0])}) from None
        raise TableError(" ".join(reason.split())) from None
    die["type"] = "die"
    if session.phase == "turn":
        die["player"] = session.current
    die["source"] = "typed"
    return die


def _colour_first(text, head, session, typed):
    """Raises ``TableError`` naming the order when a line that is no die starts with a
    die's colour and reads plainly as turned around (s46c tester 7; ``text`` its colours
    canonical, ``typed`` as typed): ``red leg`` (the command first: ``'leg red'``),
    ``red win`` / ``red lose`` (its colour never said back: a finish card is private,
    RULES 1.8), ``red 2 pyramid`` (a die alone on its line: ``'red 2'``). Else returns
    None."""
    words = text.split()
    if head not in session.edition.dice or len(words) < 2:
        return
    command = words[1].lower()
    if len(words) == 2 and command in ("win", "winner", "lose", "loser"):
        raise TableError(_("%(command)s: the command comes first, then the colour: type "
                           "'%(command)s' alone, then the colour (not shown) (RULES 1.8)")
                         % {"command": command}) from None
    if len(words) == 2 and FORMS.get(command) == _LEG:
        raise TableError(_("%(typed)s: the command comes first, then the colour: %(line)s")
                         % {"typed": shown(_said(text, typed)),
                            "line": shown(colours_in("%s %s" % (command, head)))}) from None
    die = " ".join(words[:2])
    if len(words) > 2 and _is_die(die, session.edition):
        raise TableError(_("%(typed)s: a die is typed alone on its line: %(die)s")
                         % {"typed": shown(_said(text, typed)),
                            "die": shown(colours_in(die))}) from None


def _is_die(text, edition):
    """Whether ``text`` (its colours canonical) is a die of ``edition`` (an ``Edition``)
    as the notation types it (``red 2``, ``grey white 3``)."""
    try:
        parse_die(text, edition.name)
    except DieSyntaxError:
        return False
    return True


#: A die typed without the space between its colour and its value (``rot2``, ``red3``).
_GLUED_DIE = re.compile(r"^([^\W\d_]{3,})([1-3])$")


def _unknown_command(text, head, session, typed=None):
    """The refusal of a line that starts with no command: with a player's name first
    (``Ben leg red``, ``Ben: leg red``), that commands act for the player to act and
    whose turn it is; else the nearest command this edition and moment accept
    (``accepted_commands``, difflib), if one is near enough. A word near a player's
    command and followed by that command's form is that command (``_command_in_form``:
    ``leeg red``, never the name Leonie), and while the moment refuses it the refusal
    names it and says why, never offering it (``leeg red`` while a die is awaited:
    ``'leeg red' reads as 'leg red', not taken now: ...``). ``text``: the line, its colours
    canonical; ``typed``: the line as the player typed it, quoted as it is (``_said``:
    German ``lge red`` stays ``lge red``), while a suggestion is said in the table's colour
    words (``leg rot``). One line."""
    quoted = _said(text, typed)  # the line as typed, never its colours translated
    text = colours_in(text)  # the suggestions are said in the table's words ('leg rot')
    typed = " ".join(text.split())
    named = typed.split()[0][-1:] in (":", ",")  # 'Emli: ...' is a name, not a command
    near = None
    if not named:  # the nearer of the nearest command and the nearest die colour
        near = local_commands().get(head) or max(
            (w for w in (_nearest(head, session, alone=len(typed.split()) == 1),
                         _nearest_colour(head, session)) if w),
            key=lambda w: ratio(head, w), default=None)
        formed = _command_in_form(head, typed_colours(typed).split()[1:], session)
        if formed is not None and _after_a_name(typed, session.names, fuzzy=False) is None:
            guess = " ".join([formed] + typed.split()[1:])
            if formed not in accepted_commands(session):  # 'leeg red' while a die is awaited
                from camelhost.table.narration import phase_hint
                # named, never offered ('did you mean' is for what this moment takes)
                return _("%(typed)s reads as %(guess)s, not taken now: %(why)s") % {
                    "typed": shown(quoted), "guess": shown(guess), "why": phase_hint(session)}
            if near is None or ratio(head, formed) >= ratio(head, near):
                near = formed
        glued = _GLUED_DIE.match(head)
        if glued and len(typed.split()) == 1:  # 'rot2': a die with its space left out
            colour = _nearest_colour(glued.group(1), session)
            if colour is not None:
                near = "%s %s" % (colour, glued.group(2))
    if near and not _taken(_offered(near, typed), session):
        # 'Omer rot 2' at an English table: never 'loser rot 2', which is refused too
        near = None
    rest = _named_rest(typed, session.names, near, named)
    if rest is not None:
        if session.current is None:
            turn = _("it is nobody's turn now")
        else:
            turn = _("it is %s's turn") % session.names[session.current]
        # a finish card's colour is not said back (RULES 1.8): the line without it
        said = quoted if rest not in ("win", "lose") else "%s %s" % (quoted.split()[0], rest)
        # the line without the name checked as typed: its refusal quotes it so (German
        # 'Ann: lge red' is refused as 'lge red', never 'lge rot': tester46c finding 2)
        why = _refusal(_named_rest(" ".join(quoted.split()), session.names, near, named)
                       or rest, session)
        if why is not None:  # the line without the name is refused too: never offered
            return _("%(typed)s: a command takes no player's name, it acts for the player to "
                     "act (%(turn)s); without the name it is refused too: %(why)s") % {
                "typed": shown(said), "turn": turn, "why": why}
        return _("%(typed)s: a command takes no player's name, it acts for the player to act "
                 "(%(turn)s); type %(command)s") % {"typed": shown(said), "turn": turn,
                                                    "command": shown(rest)}
    if near:
        return _("unknown command %(typed)s; did you mean %(command)s? (help lists the "
                 "commands)") % {"typed": shown(quoted), "command": shown(_offered(near, typed))}
    return _("unknown command %s (help lists the commands)") % shown(quoted)


def _named_rest(typed, names, near, named):
    """What follows a player's name at the start of ``typed`` (``_after_a_name``), as
    ``_unknown_command`` reads it, else ``None``: ``near`` is the command the line's first
    word could be (``None``: none), ``named`` whether that word ends in ``:`` or ``,``.
    With no command near, a first word near a player's name is the name (``Omer rot 2``);
    with one, a misspelt name nearer a player's name than that command is the name
    (``Omer leg rot``: never ``loser leg rot``). Colour words are kept as in ``typed``."""
    rest = _after_a_name(typed, names, fuzzy=not near)
    if rest is None and not near and not named and len(typed.split()) > 1 and \
            nearest(typed.split()[0], names) is not None:
        rest = typed[len(typed.split()[0]):].strip()  # 'Omer rot 2': the player read
    if rest is None and near and not named:
        # 'Omer leg rot': a misspelt name before a command, nearer a player's name than
        # the command it could be ('loser'): the name, never 'loser leg rot'
        first = typed.split()[0].rstrip(":,")
        name = nearest(first, names)
        if name is not None and ratio(first, name) > ratio(first, near.split()[0]):
            rest = _after_a_name(typed, names)
    return rest


def _offered(near, typed):
    """The line offered for ``typed`` with its first word made ``near``: in the table's
    words (German ``rot 2``, never ``red``) and in the letters the table reads (a
    full-width paste ``ＬＥＧ ｂｌａｕ`` offered as ``leg blau``)."""
    return colours_in(unicodedata.normalize("NFKC", " ".join([near] + typed.split()[1:])))


#: The lines being checked (``_refusal``), innermost last: a check's refusal checks its
#: own suggestion (``Omer leeg red``: is ``leg red`` taken?), to ``_CHECK_DEPTH`` lines
#: deep; deeper, a line counts as refused (never offered unchecked).
_CHECKING = []
_CHECK_DEPTH = 3


def _refusal(line, session):
    """Why ``session`` would refuse ``line`` as typed now (``parse_command``'s one-line
    refusal), or ``None`` when the table takes it: a suggestion is only ever a line the
    table takes (``Omer rot 2`` at an English table: not ``loser rot 2``, whose
    ``lose`` takes a colour). Nothing changes: the line is parsed, not played, so an
    action the rules refuse later (no leg ticket of that colour left) still passes. The
    table's own commands (``TABLE_WORDS``: ``help``, ``odds``...) and a bare ``win`` or
    ``lose`` (its colour asked unseen, RULES 1.8) are taken before the parser: taken."""
    words = line.split()
    if words and (words[0].lower() in TABLE_WORDS or line in ("win", "lose")):
        return None
    if len(_CHECKING) >= _CHECK_DEPTH:
        return _("unknown command %s (help lists the commands)") % shown(line)
    _CHECKING.append(line)
    try:
        parse_command(line, session)
    except TableError as refused:
        return str(refused)
    finally:
        _CHECKING.pop()
    return None


def _taken(line, session):
    """Whether ``session`` takes ``line`` as typed now (``_refusal`` finds no reason)."""
    return _refusal(line, session) is None


#: The command words of ``FORMS`` a player types for their own turn (the rest are the
#: table's), and which of them name a side of the tile (the edition's words only).
_PLAYERS_WORDS = ("leg", "l", "bet", "win", "winner", "w", "lose", "loser", "finish",
                  "partner", "partnership", "tile", "t", "pyramid", "p") + tuple(_SIDES)


def accepted_commands(session):
    """The command words of ``FORMS`` that ``session``'s edition takes at this moment,
    sorted: a player's action only in the turn phase, a tile side only by the edition's
    own names (``oasis``/``mirage`` or ``cheering``/``booing`` and their short forms
    ``cheer``/``boo``), ``partner`` only in an edition with partnerships (with too few
    players it is refused saying so, RULES 3.8), ``setup``/``draw`` only at setup,
    ``again`` only once the race is over; ``undo``, ``redo``, ``unscored`` and ``fix``
    always."""
    ed, phase = session.edition, session.phase
    words = []
    for word in FORMS:
        if word in _SIDES:
            ok = phase == "turn" and (ed.forward_name.startswith(word)
                                      or ed.backward_name.startswith(word))
        elif word in ("partner", "partnership"):
            ok = phase == "turn" and ed.partnership_min is not None
        elif word in _PLAYERS_WORDS:
            ok = phase == "turn"
        elif word in ("setup", "draw"):
            ok = phase == "setup"
        elif word == "again":
            ok = phase in ("over", "unscored")
        else:
            ok = True
        if ok:
            words.append(word)
    return sorted(words)


def _command_in_form(head, rest, session):
    """The player's command word (``_PLAYERS_WORDS``, two letters or more, whatever this
    moment accepts) nearest to ``head`` (``suggest.nearest``) among those whose form the
    line's other words ``rest`` have (``_in_form``), and nearer to it than to any
    player's name; else ``None``. The rule: a word near a command, followed by that
    command's form, is that command misspelt (``leeg red``, ``lgo red``: ``leg red``), not a player's
    misspelt name (``Leonie``), which comes before a whole command (``Leoni leg red``)."""
    fits = [w for w in _PLAYERS_WORDS if len(w) > 1 and _in_form(w, rest, session)]
    formed = nearest(head, fits) if fits else None
    if formed is None:
        # a word followed by its command's form read more freely (``lgo red``: ``leg
        # red``, tester s38 finding 6), never as a finish card's word, whose slips
        # ``finish_card_slip`` reads and whose colour is never said back (``wim red``
        # offered ``win red``: RULES 1.8)
        fits = [w for w in fits if not _is_finish_word(w)[0]]
        formed = nearest(head, fits, formed=True) if fits else None
    if formed is None:
        return None
    name = nearest(head, session.names)
    if name is not None and ratio(head, name) > ratio(head, formed):
        return None
    return formed


def _in_form(word, rest, session):
    """Whether ``rest`` (the words after a command, colours canonical) is command
    ``word``'s form (``FORMS``) in ``session``'s edition: ``leg``/``win``/``lose`` a
    racing camel (``win``/``lose`` also bare), ``tile`` a space and a side, a side's
    own word (the edition's) a space, ``partner`` a player's name, ``pyramid`` nothing."""
    ed = session.edition
    low = [w.lower() for w in rest]
    if word in ("leg", "bet"):
        return len(low) == 1 and low[0] in ed.racing
    if word in ("win", "winner", "lose", "loser"):
        return not low or len(low) == 1 and low[0] in ed.racing
    if word == "tile":
        return len(low) == 2 and low[0].isdigit() and low[1] in _SIDES
    if word in _SIDES:
        return (len(low) == 1 and low[0].isdigit()
                and (ed.forward_name.startswith(word) or ed.backward_name.startswith(word)))
    if word in ("partner", "partnership"):
        return (ed.partnership_min is not None
                and " ".join(low) in [n.lower() for n in session.names])
    if word == "pyramid":
        return not low
    return False


def _after_a_name(typed, names, fuzzy=True):
    """What follows a player's name at the start of ``typed`` (``Ben: leg red``; with
    ``fuzzy``, also a name misspelt before a command word: ``Bne: leg red``, difflib
    0.6), else ``None``. A finish card's colour is not repeated: it is the bare
    ``win``/``lose``, whose colour is asked unseen."""
    rest = None
    for name in sorted(names, key=len, reverse=True):
        after = typed[len(name):len(name) + 1]
        if typed.lower().startswith(name.lower()) and after in (" ", ":", ","):
            rest = typed[len(name):].lstrip(" :,")
            break
    if rest is None and fuzzy and len(typed.split()) > 1:
        first = typed.split()[0].rstrip(":,").lower()
        then = typed_colours(typed.split()[1]).lower()  # German 'Leoni rot' too
        if len(first) > 1 and (then in FORMS or then in ALL_DICE) and \
                nearest(first, names) is not None:
            rest = typed[len(typed.split()[0]):].lstrip(" :,")
    if not rest:
        return None
    word = rest.split()[0].lower()
    if word in _FINISH or word == "finish":
        return "lose" if word.startswith("l") or "loser" in rest.lower() else "win"
    return rest


def _nearest_colour(head, session):
    """The die colour of ``session``'s edition nearest to ``head`` (a misspelt die:
    ``grean 1``, ``yelow 2``, German ``blua 2``; difflib 0.6), while a die can be typed (the setup, a
    turn, a pyramid ticket waiting), else ``None``. At the setup a crazy camel's name
    stands for the grey die too; in a leg only the dice still in the pyramid (a die
    already out this leg can't come out again, RULES 1.4: ``bleu 2`` with blue out is
    no ``blue 2``)."""
    ed = session.edition
    if session.phase not in ("setup", "turn", "die") or len(head) < 3:
        return None
    colours = list(ed.dice) + (list(ed.crazy) if session.phase == "setup" else [])
    if session.phase != "setup" and session.game is not None:
        colours = [c for c in colours if c not in session.game.dice_out]
    # the table's own words for them too (German 'blua 2': 'blau 2')
    colours += [word for word, colour in local_colours().items() if colour in colours]
    return nearest(head, colours)


def _nearest(head, session, alone=False):
    """The command of ``accepted_commands(session)`` or of the table's own (``help``,
    ``show``, ``quit``, ``odds``, ``best``, ``position``: one-word commands, so only
    when ``head`` is ``alone`` on its line) nearest to ``head`` (``suggest.nearest``;
    one letter shortcuts left out), or ``None``: a typo is never
    answered with a command of the other edition or one this moment refuses. A command
    word in the table's language is answered with the command it stands for (German
    ``hilfe``: ``help``, as the German help lists it)."""
    local = local_commands().get(head)
    if local is not None or head in TABLE_WORDS:  # 'odds blue': no 'did you mean odds'
        return local
    return nearest(head, [k for k in accepted_commands(session) if len(k) > 1]
                   + (list(_SUGGESTED_TABLE_WORDS) if alone else []))


def _setup_value_hint(text, session):
    """The refusal of a bare number at setup: the die's colour comes first, with the
    camel to place next as the example (``grey white 3`` for the second crazy camel)."""
    placed = [c for c, _v in session.setup_rolls]
    missing = [c for c in session.edition.camels if c not in placed]
    value = text.strip() if text.strip() in ("1", "2", "3") else "2"
    camel = session.grey_needed_back() or (missing[0] if missing else None)
    if camel is None:
        return _("the setup is already done")
    form = "grey %s %s" if camel in session.edition.crazy else "%s %s"
    example = colours_in(form % (camel, value))
    return _("%(typed)s: at setup type the die with its colour, e.g. '%(example)s'") % {
        "typed": shown(text), "example": example}


def _parse_ink(text):
    """The numeral ink the table asked for: ``b``/``black``, ``w``/``white`` (or the
    grey die's label, ``grey-black``, as the screens name the die), ``again``."""
    word = text.strip().lower()
    if word.startswith(GREY + " "):  # 'grey-black' / 'grey black': the ink after it
        word = word[len(GREY) + 1:].strip()
    if word in ("b", "black"):
        return {"type": "ink", "ink": "black"}
    if word in ("w", "white"):
        return {"type": "ink", "ink": "white"}
    if word in ("a", "again"):
        return {"type": "ink", "ink": None, "again": True}
    raise TableError(_("%s: the grey die's numerals are b (black) or w (white); 'again' "
                     "to release again, 'undo' to take the ticket back") % shown(text))


def in_own_words(message, text, event):
    """A refusal of ``event`` (parsed from the typed ``text``) headed with the words the
    player typed: ``cheer 5: ...`` rather than the canonical ``tile 5 +: ...`` that the
    engine names. Other messages come back unchanged."""
    canonical = event.get("action") if event.get("type") == "action" else None
    typed = " ".join(str(text).split())
    if canonical and typed != canonical and message.startswith(canonical + ":"):
        return typed + message[len(canonical):]
    return message


def _tile_text(head, args, edition):
    side = None
    if head in ("oasis", "cheer", "cheering"):
        side = "+"
    elif head in ("mirage", "boo", "booing"):
        side = "-"
    if side is None:
        if len(args) == 1 and re.fullmatch(r"\d+[+-]", args[0]):
            # 'tile 7+': the space and its side run together, read as 'tile 7 +' (a
            # number then a sign reads no other way; s38 tester 6)
            args = [args[0][:-1], args[0][-1]]
        turned = [args[0][1:], args[0][0]] if len(args) == 1 and re.fullmatch(
            r"[+-]\d+", args[0]) else args[::-1]
        if len(turned) == 2 and turned[1].lower() in _SIDES and turned[0].isdigit():
            # 'tile + 5', 'tile +5': the side right, the order not (s46 tester 5)
            raise TableError(_("%(typed)s: the space comes first, then the side: %(line)s")
                             % {"typed": shown(" ".join([head] + args)),
                                "line": shown(" ".join([head] + turned))})
        if len(args) != 2:
            raise _form(head, _("e.g. 'tile 7 +'"))
        space, side = args
        side = _SIDES.get(side.lower())
        if side is None:
            # the edition's own words for the sides (RULES 1.5, 3.6), as the table says them
            raise TableError(_("the tile's side is + (%(forward)s) or - (%(backward)s)")
                             % {"forward": side_word(edition, "+"),
                                "backward": side_word(edition, "-")})
    else:
        if len(args) != 1:
            raise _form(head, _("e.g. '%s 7'") % head)
        space = args[0]
    return "tile %d %s" % (number(space, "space", 1, 16), side)


def _action(session, text):
    return {"type": "action", "player": session.current, "action": text}


def _parse_fix(rest, session):
    game = session.game
    if game is None:
        raise TableError(_("nothing to fix before the setup is complete"))
    ed = session.edition
    example = colours_in("fix 7:%s,blue" % ed.racing[-2])  # the table's words: fix 7:rot,blau
    moved = {}
    for token in rest.split():
        if ":" not in token:
            raise TableError(_("write the corrected stack as SPACE:colour,colour, e.g. %s")
                             % example)
        space, _colon, camels = token.partition(":")
        space = _space_first(space, camels)
        camels = _unbracketed(camels, token)
        row = [_name(ed.camels, word, "camel") for word in camels.split(",") if word]
        if not row:
            raise TableError(_("fix %(space)d: name the camels on space %(space)d, bottom to "
                               "top, e.g. fix %(space)d:%(camel)s")
                             % {"space": space, "camel": colour_word(ed.racing[0])})
        if space in moved:
            raise TableError(_("space %d is named twice in the correction") % space)
        moved[space] = row
    if not moved:
        raise TableError(_("write the corrected stack as SPACE:colour,colour, e.g. %s") % example)
    named = [c for row in moved.values() for c in row]
    given = " ".join("%d:%s" % (sp, ",".join(moved[sp])) for sp in moved)
    twice = [c for i, c in enumerate(named) if c in named[:i] and c not in named[i + 1:]]
    if twice:  # each camel stands in one place: the correction echoed, the camel named
        raise TableError(ngettext("fix %(fix)s: %(camels)s is named twice in the correction",
                                  "fix %(fix)s: %(camels)s are each named twice in the "
                                  "correction", len(twice))
                         % {"fix": colours_in(given), "camels": colour_list(twice, _(" and "))})
    stacks = game.stacks
    for space in moved:
        tile = game.tiles.get(space)
        if tile is not None:
            raise TableError(_("fix %(given)s: space %(space)d holds %(owner)s's tile, and a "
                               "camel never stands on a tile (RULES 1.5): fix that space after "
                               "the tile moves") % {"given": given, "space": space,
                                                    "owner": session.names[tile[0]]})
        left = [c for c in stacks.get(space, ()) if c not in named]
        if left:
            raise TableError(ngettext(
                "fix %(given)s: %(left)s stood on space %(space)d too; list every camel there, "
                "bottom to top (fix %(space)d:%(stack)s), or say where it went (e.g. "
                "%(command)s %(next)d:%(moved)s)",
                "fix %(given)s: %(left)s stood on space %(space)d too; list every camel there, "
                "bottom to top (fix %(space)d:%(stack)s), or say where they went (e.g. "
                "%(command)s %(next)d:%(moved)s)", len(left))
                % {"given": colours_in(given), "left": colour_list(left, _(" and ")),
                   "space": space, "stack": colour_list(stacks[space], ","),
                   "command": colours_in("fix " + given),
                   "next": space + 1 if space < 16 else space - 1,
                   "moved": colour_list(left, ",")})
    new = {}
    for space in stacks:
        keep = [c for c in stacks[space] if c not in named]
        if keep and space not in moved:
            new[space] = keep
    for space, row in moved.items():
        new[space] = row
    return {"type": "correction", "stacks": stacks_json(new)}
