"""Narration: the table's English words for what happened (RULES 5).

``notice_lines(notice, view)`` turns one session notice into lines of text; ``view``
is the ``camelhost.table.view.table_view`` snapshot taken after the change (for names
and the edition's words). Players are named, never numbered: ``with_names`` rewrites
the rules engine's seat numbers (``p1``, ``partner 3``) into the players' names.
Finish cards are told as pile sizes only until the final reveal, which lists each pile
in play order (RULES 1.8, 5).
"""

import re
import shlex

from camelup.editions import die_label, get_edition
from camelup.errors import Message
from camelup.game import setup_space
from camelup.notation import position_text

from camelhost.coach import piles_as_read
from camelhost.i18n import (
    N_,
    _,
    answers_named,
    colour_list,
    colour_word,
    colour_words,
    colours_in,
    decimal,
    grouped,
    language_option,
    listed,
    ngettext,
    percent,
    pgettext,
)
from camelhost.table.manual import parse_die
from camelhost.table.view import (
    CRAZY_WHY,
    FROM_TO,
    RACE_SAMPLES,
    finish_camel,
    side_word,
    signed,
    which_way,
)

#: What the table asks for when the dice are typed (no pyramid, or a die it lost).
#: (English here: shown through ``_()``, in the table's language.)
TYPE_DIE = N_("type the die that came out")
#: The label before the position line ``position`` prints (``Position:`` / ``Stellung:``):
#: the one place of its words; ``pyramid odds`` takes the line pasted whole with the
#: label in any language the catalogue has (``camelhost.commands.odds.position_labels``).
POSITION_LABEL = N_("Position:")
INK_QUESTION = N_("grey die: black or white numerals? (b/w, or 'again' to release again)")

_SEAT = re.compile(r"\bp(\d+)\b")
#: A printf conversion in a rules-engine template; group 1 its letter (``s``, ``r``...).
_SPEC = re.compile(r"%[-#0 +]*(?:\d+|\*)?(?:\.\d+)?([a-zA-Z%])")
#: A named printf conversion (``%(space)d``, ``%(sigma).1f``): group 1 its name, group 2
#: the conversion after it (``d``, ``.1f``).
_NAMED_SPEC = re.compile(r"%\((\w+)\)([-#0 +]*\d*(?:\.\d+)?[a-zA-Z])")
_PARTNER = re.compile(r"\bpartner (\d+)\b")
#: A printf conversion of a float with its places (``%.1f``, ``%+.2f``).
_FLOAT_SPEC = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?f$")
#: A decimal the engine writes into a message's text, as a player reads it: the six
#: places of ``camelup.scenario_odds.show`` after ``=`` or ``(``, a calibration pair's
#: ``(4.0 sigma)``. (Only these: a version, a rules section or a value as a scenario
#: writes it keeps its point.)
_DECIMAL = re.compile(r"(?<=[=(] )-?\d+\.\d{6}\b|(?<=\()-?\d+\.\d{6}\b"
                      r"|(?<=\()\d+\.\d(?= sigma\))")


def translated(message):
    """A rules-engine message in the table's language: a ``camelup.errors.Message``
    (or an ``IllegalAction`` / ``NotationError`` raised with one) has its template
    translated through the catalogue and its arguments filled in (an argument that is
    itself a ``Message`` translated the same way); an argument written with ``%s`` that
    is a colour, or a list of colours (``blue, green, ...``), names them in the table's
    language (``camelhost.i18n.colour_word``); an argument quoted with ``%r`` (the input
    as the engine read it: ``'red'``) and other game words (typed actions, seats) stay
    as they are. A number with a fractional part is written as the language writes it
    (``camelhost.i18n.decimal``: German ``9,0 sigma``, ``349/3240 = 0,107716``): an
    argument written with ``%.Nf``, and a decimal the engine wrote into a ``%s`` argument
    (``camelup.scenario_odds.show``'s ``= 0.107716``, a calibration pair's ``(4.0
    sigma)``). Plain text is returned as it is (English: the engine's message had no
    template to translate)."""
    message = getattr(message, "message", message)
    if not isinstance(message, Message):
        return str(message)
    if message.fields:
        return _translated_named(message)
    specs = [m for m in _SPEC.finditer(message.template) if m.group(1) != "%"]
    args = tuple(translated(a) if isinstance(a, Message)
                 else _shown_arg(a, specs[i] if i < len(specs) else None)
                 for i, a in enumerate(message.args))
    template = _(message.template)
    if not args:
        return template
    # a float written with %.Nf is now the text decimal() made: the template takes it as %s
    count = iter(range(len(args)))

    def spec(m):
        if m.group(1) == "%":
            return m.group(0)
        i = next(count, None)
        return "%s" if i is not None and _FLOAT_SPEC.match(m.group(0)) and \
            isinstance(args[i], str) else m.group(0)

    return _SPEC.sub(spec, template) % args


def _translated_named(message):
    """``translated`` for a ``Message`` whose placeholders are named (``%(space)d``):
    each field shown as ``_shown_arg`` shows an argument with its conversion in the
    English template; a float field written with ``%(name).Nf`` is then text, which the
    translated template takes as ``%(name)s``."""
    specs = {m.group(1): _SPEC.match("%" + m.group(2))
             for m in _NAMED_SPEC.finditer(message.template)}
    fields = {name: translated(value) if isinstance(value, Message)
              else _shown_arg(value, specs.get(name))
              for name, value in message.fields.items()}

    def spec(m):
        name = m.group(1)
        return "%%(%s)s" % name if _FLOAT_SPEC.match("%" + m.group(2)) and \
            isinstance(fields.get(name), str) else m.group(0)

    return _NAMED_SPEC.sub(spec, _(message.template)) % fields


def _shown_arg(arg, spec):
    """A rules-engine message's argument as the table's language shows it: with ``%s``
    (``spec``, a ``_SPEC`` match) a colour named (``_colour_arg``) and a decimal the
    engine wrote in it with the language's separator (``_DECIMAL``); with ``%.Nf`` the
    number as ``decimal`` writes it (a string: the template then takes it as ``%s``);
    any other argument as it is."""
    if spec is None:
        return arg
    if _FLOAT_SPEC.match(spec.group(0)) and isinstance(arg, (int, float)):
        places = re.search(r"\.(\d+)", spec.group(0))
        return decimal(arg, int(places.group(1)) if places else 6)
    if spec.group(1) != "s" or not isinstance(arg, str):
        return arg
    arg = _DECIMAL.sub(lambda m: decimal(float(m.group(0)), len(m.group(0).split(".")[1])),
                       arg)
    return _colour_arg(arg)


def _colour_arg(arg):
    """A rules-engine message's argument with a colour, or a list of colours joined by
    ``, ``, named in the table's language; a stack as the notation writes it, its
    colours joined by ``,`` (``red,black``: a scenario's want / got), likewise with
    its commas (German ``rot,schwarz``); any other argument as it is."""
    if not isinstance(arg, str):
        return arg
    words = colour_words()
    parts = arg.split(", ")
    if all(part in words for part in parts):
        return colour_list(parts)
    if "," in arg and all(part in words for part in arg.split(",")):
        return colour_list(arg.split(","), ",")
    return arg


def with_names(text, names):
    """``text`` (a rules-engine message) with seats written as names: ``p1`` -> ``Ben``,
    ``partner 0`` -> ``partner Ann`` (seats are 0-based there); other text unchanged."""
    def seat(match, prefix=""):
        i = int(match.group(1))
        return prefix + names[i] if 0 <= i < len(names) else match.group(0)
    text = _PARTNER.sub(lambda m: seat(m, "partner "), text)
    return _SEAT.sub(seat, text)


def die_name(die):
    """``red`` / ``grey-black`` / ``grey``: a die without its value (``die``: a die dict),
    by its label as the pyramid's sensor and every maker tool name it
    (``camelup.editions.die_label``; shown in the table's language with
    ``colours_in``: ``grau-schwarz``). With its value: ``die_words``."""
    return die_label(die["colour"], die.get("ink") if die["colour"] == "grey" else None)


def die_words(die):
    """A die with the value it showed, as every screen names it (the one wording: the
    die announcement, ``Last die:``, the full screen's detail line, the web page's
    last die, undo and redo, the emulated pyramid's console): its label (``die_name``)
    in the table's language, then the value. ``red 2`` / ``rot 2``; the grey die that
    came out showing 2 in black numerals ``grey-black 2`` / ``grau-schwarz 2`` (RULES
    3.1, 3.5), which the table also reads when typed. ``die``: a dict with ``colour``
    (a die name: ``red``, ``grey``), ``ink`` (``black``/``white`` for the grey die, or
    ``None``: ``grey 2`` at setup, where the ink is ignored, RULES 3.2) and ``value``
    (1..3, or ``None`` while still to be typed: ``red of unknown value`` / ``rot mit
    unbekanntem Wert``, never the notation's ``?``); ``move_die`` makes it of a move.
    Returns a str."""
    label = colours_in(die_name(die))
    if die.get("value") is None:
        return _("%s of unknown value") % label
    # a language may put the value before the die
    return pgettext("a die and the value it showed", "%(die)s %(value)d") % {
        "die": label, "value": die["value"]}


def move_die(move):
    """The die dict ``die_words`` reads of a rules-engine ``move`` (``Game.push``'s
    report: ``die``, ``ink``, ``value``)."""
    return {"colour": move["die"], "ink": move.get("ink"), "value": move["value"]}


def _die_text_words(text, edition):
    """``die_words`` of a die's text (``manual.die_text``'s: ``red 2``, ``grey black 2``,
    ``red ?``) in ``edition`` (a name)."""
    return die_words(parse_die(text, edition, ink_optional=True))


def side_name(view, side):
    """The edition's word for a tile side in the table's language: oasis / mirage,
    cheering / booing (German: Oase / Fata Morgana, Anfeuern / Ausbuhen)."""
    return side_word(get_edition(view["edition"]), side)


def example_die(view):
    """A die to show in hints: one of this edition (classic has no red camel), still
    in the pyramid when the race is on: ``red 2``, ``orange 2``."""
    inside = [d for d in view.get("dice_inside") or () if d != "grey"]
    if inside:
        return "%s 2" % colour_word(inside[0])
    return "%s 2" % colour_word(get_edition(view["edition"]).example_colour)


def name(view, seat):
    """The name of ``seat`` in ``view`` (``?`` for none)."""
    return view["players"][seat]["name"] if seat is not None else "?"


def _setup_how(how):
    """How a race was set up (a setup event's ``how``), in the table's language; a word
    this program never writes, as it is."""
    if how == "typed":
        return pgettext("race set up", "typed")
    if how == "drawn":
        return pgettext("race set up", "drawn")
    if how == "dice":
        return pgettext("race set up", "dice")
    return how


def name_list(names):
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cy``: a list inside a sentence, as the
    language ends it (``camelhost.i18n.listed``: German ``Ann, Ben und Cy``)."""
    return listed(names)


#: The counted words the table says, each with its plural forms (``ngettext``).
_COUNTED = {
    "card": lambda n: ngettext("%d card", "%d cards", n),
    "coin": lambda n: ngettext("%d coin", "%d coins", n),
    "finish card": lambda n: ngettext("%d finish card", "%d finish cards", n),
}


#: What a leg's end returns, by the edition's tile (``Edition.tile_name``): its three
#: wordings (the new leg, the dice put back by hand; the new leg, the dice back by
#: themselves; an undo's scoring taken back). Each names its own tile, so German spells
#: out every kind ("Wett-, Pyramiden- und Zuschauerplättchen"), never "andere Plättchen".
_RETURNED = {
    "desert tile": (
        N_("New leg: put all the dice back in the pyramid (%s); tickets and desert tiles "
           "returned"),
        N_("New leg: all dice back in the pyramid (%s); tickets and desert tiles returned"),
        N_("%s (its coins, and the tickets and desert tiles returned)")),
    "spectator tile": (
        N_("New leg: put all the dice back in the pyramid (%s); tickets and spectator "
           "tiles returned"),
        N_("New leg: all dice back in the pyramid (%s); tickets and spectator tiles "
           "returned"),
        N_("%s (its coins, and the tickets and spectator tiles returned)")),
}


def pile_word(pile):
    """A finish pile's name (``"winner"`` / ``"loser"``) in the table's language."""
    return {"winner": _("winner"), "loser": _("loser")}.get(pile, pile)


def plural(n, word):
    """``n`` and ``word``: ``1 card``, ``2 cards`` (in the table's language for the
    words of ``_COUNTED``)."""
    form = _COUNTED.get(word)
    if form is not None:
        return form(n) % n
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _signed(n):
    return "%+d" % n


def after_race(phase, short=False):
    """The two ways on after the race, 'again' and 'quit', in one line: ``phase``
    ``"over"`` (a camel crossed the finish line, RULES 1.13) or ``"unscored"`` (ended
    before that);
    ``short``: the prompt's form (``plain.prompt_line``), else the refusal's
    (``phase_hint``). Raises ``KeyError`` for any other phase."""
    if short:
        return {"over": _("race over: 'again' for another race, 'quit' to leave"),
                "unscored": _("race ended unscored: 'again' for another race, "
                              "'quit' to leave")}[phase]
    return {"over": _("the race is over: 'again' starts another race with the same seats, "
                      "'quit' leaves the table"),
            "unscored": _("the race was ended unscored: 'again' starts another race, 'quit' "
                          "leaves the table")}[phase]


def phase_hint(session):
    """What the table waits for now, as the reason a command can't be taken."""
    p = session.phase
    if p == "setup":
        return _("the setup comes first: release or type each camel's die, 'setup ...' or 'draw'")
    if p == "die":
        who = session.names[session.pending_player]
        if session.dice_typed:  # no pyramid: nothing to release
            return _("%(player)s's pyramid ticket waits for its die: %(ask)s, like %(example)s "
                     "(or undo)") % {
                "player": who, "ask": _(TYPE_DIE), "example": example_die({
                    "edition": session.edition.name,
                    "dice_inside": list(session.game.dice_in_pyramid())})}
        return _("%s's pyramid ticket waits for its die: release it (or type it, or undo)") % who
    if p == "ink":
        return _(INK_QUESTION)
    if p == "value":
        return _("press 1, 2 or 3 for the value of the %s die") % colours_in(
            die_name(session.pending_die))
    if p in ("over", "unscored"):  # every refusal after the race, 'release' too (s35 finding 4)
        return after_race(p)
    return _("it is %s's turn") % session.names[session.current]


def undone_steps(steps, names, edition=None, moves=None, scoring=None, board=None,
                 brief=False, replay=False):
    """What one ``undo`` took back, in words, and the hint that ``redo`` keeps its dice
    (``(text, hint)``; the hint ``""`` when no die was undone, said at the table only,
    never by ``pyramid replay``, which cannot redo): ``steps``, a list of (events of one step,
    holder: the seat that acted[, where that player's tile was before the step: ``(space,
    side)`` or ``None``, for a tile's step]), oldest first (a player's step, then the
    bots' after it); the player's step, the bots' moves, a scoring taken back with them
    named right after the step that scored, before the bots' moves after it, as
    ``undo_question`` names it (``scoring``: ``Session._scoring_since``'s, with ``coins``
    as they are again and ``at``, the index in ``steps`` of the step that scored,
    default the last), then the camels moved back, then what to do with the pyramid's
    dice (``moves``: ``{"back": [...], "out": [...]}``, colours; default: each step's die
    back in the pyramid), in the order a table acts: the coins, tickets and tiles first, then the dice, and how to keep a die
    after all (``redo``). Actions in the words the table says them with (``Ann's leg
    ticket on red``, a tile's side in ``edition``'s words: a ``camelup.editions.Edition``,
    default the second edition's; a tile says where it goes back to). A finish card's
    colour stays hidden until the final reveal (RULES 1.8, 5). ``board``: ``(before,
    after)``, the ``camelup.game.Game`` before the undo and after it (``None``: a setup
    or an ``again`` taken back): the pieces the table puts back are named from the two,
    so that a table can rebuild the board from the words alone (``_pieces_back``,
    ``_camels_back``). ``brief``: the words for watchers (the web page's one notice),
    which a scoring taken back would fill with every player's coins and tickets: the
    scoring in one clause without them, more than two bots' moves counted, not named,
    and camels back on more than two spaces or stacks counted (the page's track shows
    them); the player's step and the dice as in full. ``replay``: the words told as past
    (``pyramid replay``, a resumed table's history: nobody there puts a piece back), the
    camels said as gone back (``the red camel went back to space 5``), not as a table is
    told to move them (the dice: ``moves`` with none to move, ``session.NO_DICE``)."""
    edition = get_edition("second") if edition is None else edition
    parts = [_undone_step(step[0], names, step[1], edition, step[2] if len(step) > 2 else None,
                          waiting=len(step) > 3 and step[3])
             for step in steps]
    # with a scoring, the steps up to the one that scored, then the scoring and what it
    # gives back, then the bots' moves after it: the order the question before named
    # them in (``undo_question``), the order things happened
    at = len(parts) - 1 if scoring is None else scoring.get("at", len(parts) - 1)
    text = parts[0][0]
    if at > 0:
        text += _bots_moves(_(", and the bots' moves after it: %s"), parts[1:at + 1], brief)
    dice = [die for _, die in parts if die]
    if scoring is not None and brief and scoring.get("race"):
        cards = scoring.get("cards", 0)
        if cards:  # only the cards played go back: none is named when none was (s35)
            words = ngettext("; this also takes back the end of race %(race)d and %(legs)s: "
                             "the finish card goes back face down on its pile, every "
                             "player's coins, tickets and tiles as before it",
                             "; this also takes back the end of race %(race)d and %(legs)s: "
                             "the finish cards go back face down on their piles, every "
                             "player's coins, tickets and tiles as before it", cards)
        else:
            words = _("; this also takes back the end of race %(race)d and %(legs)s: every "
                      "player's coins, tickets and tiles as before it")
        text += words % {"race": scoring.get("race_no", 1),
                         "legs": _legs_scored(scoring["legs"])}
    elif scoring is not None and brief:
        text += _("; this also takes back %s: every player's coins, tickets and tiles as "
                  "before it") % _legs_scored(scoring["legs"])
    elif scoring is not None:
        text += _scoring_back(scoring, names)
    if board is not None and not (brief and scoring is not None):
        # a correction or an unscored end pays and takes nothing: said so, as the other
        # undo lines say the coins and tickets that change back
        quiet = any(step[0][0].get("type") in ("correction", "unscored") for step in steps)
        text += _pieces_back(board[0], board[1], names, edition, scoring is not None,
                             quiet=quiet)
    if at < len(parts) - 1:
        text += _bots_moves(_("; and the bots' moves after the scoring: %s"), parts[at + 1:],
                            brief)
    if board is not None:
        text += _camels_back(board[0], board[1], brief, replay)
    if moves is None:
        text += _put_back([die["colour"] for die in dice])
    else:
        text += _dice_back(moves, [die["colour"] for die in dice])
    hint = ""
    if dice:  # a die released again would be another: redo gives this one back
        hint = _(" (or type 'redo' to keep %s)") % name_list(die_words(d) for d in dice)
    return text, hint


def _bots_moves(template, parts, brief):
    """``template`` (one ``%s``) with the bots' moves ``parts`` (``_undone_step``'s) named;
    ``brief``: more than two of them counted (``5 moves``) instead."""
    if brief and len(parts) > 2:
        return template % (ngettext("%d move", "%d moves", len(parts)) % len(parts))
    return template % ", ".join(p[0] for p in parts)


def undo_question(scoring, names, edition=None):
    """The one line the table asks before an ``undo`` that takes back a scoring
    (``scoring``: ``Session.undo_scoring``'s): what it takes back, that ``undo`` typed
    again or a yes does it and a no leaves it (the answers named in the table's language,
    ``camelhost.i18n.answers_named``)."""
    edition = get_edition("second") if edition is None else edition
    steps = scoring["steps"]
    parts = [_undone_step(step[0], names, step[1], edition)[0] for step in steps]
    legs_text = _legs_scored(scoring["legs"])
    if scoring.get("race"):
        cards = scoring.get("cards", 0)
        if cards:  # only the cards played go back: none is named when none was (s35)
            words = ngettext("the end of race %(race)d and %(legs)s (every coin paid; the "
                             "finish card, already seen, goes back face down)",
                             "the end of race %(race)d and %(legs)s (every coin paid; the "
                             "finish cards, already seen, go back face down)", cards)
        else:
            words = _("the end of race %(race)d and %(legs)s (every coin paid)")
        taken = words % {"race": scoring.get("race_no", 1), "legs": legs_text}
    else:
        taken = _(_RETURNED[edition.tile_name][2]) % legs_text
    # the scoring named right after the move that scored, in the order things happened
    at = scoring.get("at", len(parts) - 1)
    parts[at] = _("%(what)s and with it %(taken)s") % {"what": parts[at], "taken": taken}
    what = parts[0]
    if len(parts) > 1:
        what += _(", and the bots' moves after it: %s") % ", ".join(parts[1:])
    yes, no = answers_named()  # the answers the table reads (``Table._undo_asked_first``)
    return _("undo would take back %(what)s: type 'undo' again or %(yes)s to do it; "
             "%(no)s or anything else leaves it") % {"what": what, "yes": yes, "no": no}


def redone_steps(steps, names, edition=None, race_no=None, board=None, moves=None,
                 brief=False):
    """What one ``redo`` applied again, in words: ``steps`` as for ``undone_steps``
    (events of one step, holder), oldest first, then what to do with the pyramid's dice
    so that it holds what the game counts inside (``moves``: ``{"back": [...], "out":
    [...], "stay": [...]}``, colours, as ``Session._dice_moves`` gives them: a redone die
    that ended a leg is not taken out again, the leg's other dice go back in; default:
    each step's die out again, ``dice_of_steps``). The die lines and any scoring follow
    as the table says them when they happen; an ``again`` redone names the race it
    starts (``race_no``: the race number after the redo). ``board``: ``(before, after)``, the games before
    and after the redo (``camelup.game.Game``): a board correction or an unscored end
    among the steps, which name no coins or tickets of their own, then says that no
    coins or tickets change when none do (as their undo says it). ``brief``: the words
    for watchers (the web page), more than two bots' moves counted, not named (as
    ``undone_steps`` says them)."""
    edition = get_edition("second") if edition is None else edition
    parts = [_undone_step(step[0], names, step[1], edition, back=False, race_no=race_no,
                          waiting=len(step) > 3 and step[3])
             for step in steps]
    text = parts[0][0]
    if len(parts) > 1:
        text += _bots_moves(_(", and the bots' moves after it: %s"), parts[1:], brief)
    if board is not None and any(step[0][0].get("type") in ("correction", "unscored")
                                 for step in steps):
        text += _pieces_again(board[0], board[1], names)
    dice = [die["colour"] for _, die in parts if die]
    if moves is None:
        moves = {"back": [], "out": dice}
    return text + _dice_back(moves, dice)


def dice_of_steps(steps, names):
    """The dice out of the pyramid with ``steps`` (as for ``undone_steps``: events of one
    step, holder): each pyramid action's die, by colour, in order (none for a setup die,
    a ticket whose die had not come out, a die the table had returned)."""
    edition = get_edition("second")
    return [die["colour"] for _, die in (_undone_step(step[0], names, step[1], edition)
                                         for step in steps) if die]


def _scoring_back(scoring, names):
    """The clause of an undo that takes back a leg's scoring or the race's end
    (``scoring``: ``legs``, the legs' numbers; ``race``: the race's end, ``race_no``;
    ``cards``: the finish cards on the piles, named only when there is one, RULES 1.8;
    ``coins``: every seat's coins again): what the table gives back."""
    legs_text = _legs_scored(scoring["legs"])
    coins = ", ".join("%s %d" % (names[i], c) for i, c in enumerate(scoring["coins"]))
    if scoring.get("race"):
        cards = scoring.get("cards", 0)
        if cards:  # only the cards played go back: none is named when none was (s35)
            words = ngettext("; this also takes back the end of race %(race)d and %(legs)s: "
                             "the finish card, which everyone saw, goes back face down on "
                             "its pile; coins back to %(coins)s",
                             "; this also takes back the end of race %(race)d and %(legs)s: "
                             "the finish cards, which everyone saw, go back face down on "
                             "their piles, each pile in the order its cards were played; "
                             "coins back to %(coins)s", cards)
        else:
            words = _("; this also takes back the end of race %(race)d and %(legs)s: coins "
                      "back to %(coins)s")
        return words % {"race": scoring.get("race_no", 1), "legs": legs_text, "coins": coins}
    return (_("; this also takes back %(legs)s: coins back to %(coins)s")
            % {"legs": legs_text, "coins": coins})


def _pieces_back(before, after, names, edition, scored, quiet=False):
    """The pieces a table puts back after an undo but its camels (``_camels_back``),
    named from the game ``before`` it and ``after`` it (``camelup.game.Game``): with a
    scoring taken back (``scored``), the tickets back to their players, the tiles back
    on their spaces, the partnerships again (the coins are said with the scoring);
    without one, the coins that change (a tile's coin, RULES 3.6), and with ``quiet`` (a
    board correction or an unscored end among the steps, which name no coins or tickets
    of their own) that no coins or tickets change back when none do. ``""`` when none
    changes."""
    text = ""
    seats = range(len(names))
    if scored:
        tickets = []
        for p in seats:
            held = list(before.held_tickets(p))
            back = []
            for ticket in after.held_tickets(p):
                if ticket in held:
                    held.remove(ticket)
                else:
                    back.append("%s %d" % (colour_word(ticket[0]), ticket[1]))
            pyramid = after.pyramid_tickets(p) - before.pyramid_tickets(p)
            if pyramid > 0:
                back.append(ngettext("%d pyramid ticket", "%d pyramid tickets", pyramid)
                            % pyramid)
            if back:
                tickets.append("%s (%s)" % (names[p], ", ".join(back)))
        if tickets:
            text += _("; tickets back: %s") % ", ".join(tickets)
        tiles = [_("%(who)s's tile on space %(space)d, %(side)s side up") % {
            "who": names[owner], "space": space, "side": side_word(edition, side)}
            for space, (owner, side) in sorted(after.tiles.items())
            if before.tile_of(owner) != (space, side)]
        if tiles:
            text += _("; back on the track: %s") % ", ".join(tiles)
        pairs = [(p, after.partner_of(p)) for p in seats
                 if after.partner_of(p) is not None and after.partner_of(p) != before.partner_of(p)
                 and (after.partner_of(after.partner_of(p)) != p or p < after.partner_of(p))]
        if pairs:
            # RULES 3.8: partners exchange their partnership cards; cleanup gave them back
            text += "".join(_("; %(one)s and %(other)s are partners again: they exchange "
                              "their partnership cards again") % {"one": names[p],
                                                                  "other": names[q]}
                            for p, q in pairs)
    else:
        coins = ["%s %d" % (names[p], after.coins[p]) for p in seats
                 if after.coins[p] != before.coins[p]]
        if coins:
            text += _("; coins back to %s") % ", ".join(coins)
        elif quiet and all(after.held_tickets(p) == before.held_tickets(p)
                           and after.pyramid_tickets(p) == before.pyramid_tickets(p)
                           for p in seats):
            text += _("; no coins or tickets change back")
    return text


def _pieces_again(before, after, names):
    """For a redo (``before``, ``after``: the games around it): ``; no coins or tickets
    change`` when no player's coins or tickets change, else ``""`` (what changes them, a
    bot's die on a tile, is said by its own lines after the redo's)."""
    if all(after.coins[p] == before.coins[p] and after.held_tickets(p) == before.held_tickets(p)
           and after.pyramid_tickets(p) == before.pyramid_tickets(p) for p in range(len(names))):
        return _("; no coins or tickets change")
    return ""


def _camels_back(before, after, brief=False, replay=False):
    """The camels an undo moves back (``before``, ``after``: the games, as for
    ``_pieces_back``), each to its space and its place in the stack there, in the words a
    player reads (``; move the red camel back to space 5, on top of blue and under
    purple``: the camels below it named from the nearest down, those above it from the
    nearest up; camels moved back together, one on another, are named as the one
    carrying the others: ``the red camel, carrying yellow, back to space 5``); ``""``
    when none moves, a camel put back in another place of the same stack (a re-ordering
    taken back) too. One clause a space, by space; ``brief`` (``undone_steps``'s): more
    than two such clauses said in one, the camels counted (the track shows where they
    stand); ``replay``: told as past, the camels gone back (``; the red camel went back
    to space 5, on top of blue``: ``undone_steps``'s)."""
    clauses = []
    was, now = before.stacks, after.stacks
    for space in sorted(now):
        stack = list(now[space])
        before_here = list(was.get(space, []))
        # a camel goes back when it was elsewhere, or when it stood on this space in
        # another place in the stack (a correction that only re-ordered it: s38 tester
        # 4), the camels that stay here compared alone (one moved away from under it
        # moves nothing of this stack)
        back = [c not in before_here
                or [d for d in before_here[:before_here.index(c)] if d in stack]
                != [d for d in stack[:k] if d in before_here]
                for k, c in enumerate(stack)]
        i = 0
        while i < len(stack):
            if not back[i]:
                i += 1
                continue
            j = i
            while j < len(stack) and back[j]:
                j += 1
            clauses.append((_camel_back(stack[i:j], space, stack[:i][::-1], stack[j:],
                                        replay), j - i))
            i = j
    if brief and len(clauses) > 2:
        camels = sum(n for _text, n in clauses)
        if replay:
            return ngettext("; %d camel went back to where it stood",
                            "; %d camels went back to where they stood", camels) % camels
        return ngettext("; move %d camel back to where it stood",
                        "; move %d camels back to where they stood", camels) % camels
    return "".join(text for text, _n in clauses)


def _camel_back(group, space, below, above, replay=False):
    """One clause of ``_camels_back``: the camels ``group`` (bottom to top, moved back
    together) back to ``space``, on top of ``below`` (nearest first) and under ``above``
    (nearest first); ``replay``: told as past (they went back)."""
    if replay and len(group) > 1:
        text = _("; the %(camel)s camel, carrying %(others)s, went back to space %(space)d") % {
            "camel": colour_word(group[0]), "space": space,
            "others": name_list(colour_word(c) for c in group[1:])}
    elif replay:
        text = _("; the %(camel)s camel went back to space %(space)d") % {
            "camel": colour_word(group[0]), "space": space}
    elif len(group) > 1:
        text = _("; move the %(camel)s camel, carrying %(others)s, back to space %(space)d") % {
            "camel": colour_word(group[0]), "space": space,
            "others": name_list(colour_word(c) for c in group[1:])}
    else:
        text = _("; move the %(camel)s camel back to space %(space)d") % {
            "camel": colour_word(group[0]), "space": space}
    below_words = name_list(colour_word(c) for c in below)
    above_words = name_list(colour_word(c) for c in above)
    if below and above:
        text += _(", on top of %(below)s and under %(above)s") % {"below": below_words,
                                                                "above": above_words}
    elif below:
        text += _(", on top of %s") % below_words
    elif above:
        text += _(", under %s") % above_words
    return text


def _legs_scored(legs):
    """``the leg 3 scoring``, ``the scoring of legs 3 and 4`` (``legs``: numbers)."""
    if len(legs) == 1:
        return _("the leg %d scoring") % legs[0]
    return _("the scoring of legs %s") % name_list(str(n) for n in legs)


def _dice_back(moves, dice):
    """The clause that makes the pyramid hold what the game counts inside again after an
    undo or a redo (``moves``: ``back``, dice to put back in; ``out``, dice to take out
    again, as after a leg end taken back; ``stay``, every die inside before and after).
    When a die of the undone ``dice`` stays in the pyramid, every die that stays is
    named, that one first: a table rebuilds the pyramid from these words (second
    edition: the die that never came out in the leg stays in too, RULES 3.4)."""
    back, out = moves["back"], moves["out"]
    if not out:
        return _put_back(back)
    staying = [d for d in dice if d not in back and d not in out]
    if staying:
        staying += [d for d in moves.get("stay", ()) if d not in staying]
    if len(out) == 1:
        text = _("; take the %s die out of the pyramid again") % colour_word(out[0])
    else:
        text = _("; take the %(dice)s and %(last)s dice out of the pyramid again") % {
            "dice": colour_list(out[:-1]), "last": colour_word(out[-1])}
    if len(back) == 1:
        text += _(", and put the %s die back in it") % colour_word(back[0])
    elif back:
        text += _(", and put the %(dice)s and %(last)s dice back in it") % {
            "dice": colour_list(back[:-1]), "last": colour_word(back[-1])}
    if staying:
        text += ngettext(", leaving the %s die in it", ", leaving the %s dice in it",
                         len(staying)) % name_list(colour_word(d) for d in staying)
    return text


def _put_back(dice):
    """The clause that puts ``dice`` (colours) out on the table back in the pyramid."""
    if not dice:
        return ""
    if len(dice) == 1:
        return _("; put the %s die back in the pyramid") % colour_word(dice[0])
    return _("; put the %(dice)s and %(last)s dice back in the pyramid") % {
        "dice": colour_list(dice[:-1]), "last": colour_word(dice[-1])}


def _undone_action(action, who, names, edition, tile=None, back=True):
    """An action taken back (its canonical text ``action``) in the table's words; with
    ``back``, a tile says where it goes back to (``tile``: ``(space, side)`` it had
    before, or ``None``: back to its player)."""
    words = action.split()
    if words[0] == "leg" and len(words) == 2:
        return _("%(who)s's leg ticket on %(colour)s") % {"who": who, "colour": colour_word(words[1])}
    if words[0] == "tile" and len(words) == 3 and words[1].isdigit():
        text = _("%(who)s's tile on space %(space)d, %(side)s side up") % {
            "who": who, "space": int(words[1]), "side": side_word(edition, words[2])}
        if not back:
            return text
        if tile is None:
            return text + _(" (back to %s)") % who
        return text + _(" (back on space %(space)d, %(side)s side up)") % {
            "space": tile[0], "side": side_word(edition, tile[1])}
    if words[0] == "partner" and len(words) == 2 and words[1].isdigit() and \
            int(words[1]) < len(names):
        return _("%(who)s's partnership with %(partner)s") % {
            "who": who, "partner": names[int(words[1])]}
    return with_names(_("%(who)s's %(action)s") % {"who": who, "action": action}, names)


def _undone_step(events, names, holder, edition, tile=None, back=True, race_no=None,
                 waiting=False):
    """(words, the die it released, as its journal form, or ``None``) for one step;
    ``back``: an undo's (a tile says where it goes back to), not a redo's (``race_no``:
    the race an ``again`` redone starts). ``waiting``: the step is the die of a pyramid
    ticket taken in an earlier step (a board correction came between the ticket and its
    die), so the ticket itself stays taken and waits for its die again."""
    first = events[0]
    t = first.get("type")
    seat = first.get("player") if first.get("player") is not None else holder
    who = names[seat] if seat is not None else None
    if t == "setup":
        return _("the setup"), None
    if t == "correction":
        return _("the board correction"), None
    if t == "unscored":
        return _("the unscored end of the race"), None
    if t == "race":
        if not back:  # a redo of 'again' starts the new race again
            return _("'again': race %d starts again") % race_no, None
        return _("'again' (the new race had not started): the race before is back as it "
                 "ended"), None
    if t == "action":
        words = first["action"].split()
        if words[0] == "finish":
            return _("%(player)s's finish card on the %(pile)s pile") % {
                "player": who, "pile": pile_word(words[1])}, None
        return _undone_action(first["action"], who, names, edition, tile, back), None
    die = None
    for ev in events:
        if ev["type"] == "die":
            die = dict(ev)
        elif ev["type"] == "value" and die is not None:
            die["value"] = ev.get("value")
        elif ev["type"] == "ink" and die is not None:
            die = None if ev.get("again") else dict(die, ink=ev.get("ink"))
    if t == "die" and holder is None:
        return _("the setup die %s") % die_words(die), None
    if die is None:
        return _("%s's pyramid ticket (no die had come out yet)") % who, None
    if waiting and who is not None:  # the ticket is an earlier step: only its die here
        if back:
            return (_("the die %(die)s of %(who)s's pyramid ticket (the ticket waits for "
                      "its die again)") % {"who": who, "die": die_words(die)}, die)
        return (_("the die %(die)s of %(who)s's pyramid ticket") % {"who": who,
                                                                   "die": die_words(die)},
                die)
    # the die is out of the pyramid on the table: the undo counts it inside again
    if who is None:
        return _("the pyramid ticket and its die %s") % die_words(die), die
    return (_("%(who)s's pyramid ticket and its die %(die)s") % {"who": who,
                                                                 "die": die_words(die)},
            die)


def notice_lines(notice, view, past=False):
    """Lines for one session notice (``view``: ``table_view`` after the change).
    ``past``: told as a past event (``pyramid replay``), so a pyramid ticket, a grey
    die's ink or a die's value asked at the table is not followed by what to press
    (the answer's own line comes next). A notice of an unknown kind is shown as it is."""
    words = _NOTICE_WORDS.get(notice["kind"])
    if words is None:
        return [str(notice)]
    return words(notice, view, past)


def _board_words(stacks):
    return " ".join("%d:[%s]" % (s, colour_list(stacks[s], ",")) for s in sorted(stacks))


def _setup_notice(notice, view, past):
    lines = [_("Race %(race)d set up (%(how)s): %(board)s") % {
        "race": notice["race"], "how": _setup_how(notice["how"]),
        "board": _board_words(notice["stacks"])}]
    if notice["how"] == "dice" and view.get("dice_back_by_hand") and not past:
        lines.append(_("Put all the dice back in the pyramid for leg 1"))
    return lines


def placed_words(view):
    """The camels placed so far at setup, each with its space (RULES 2.2, 3.2):
    ``black on space 15, blue on space 1`` (``""`` before the first)."""
    return ", ".join(_("%(camel)s on space %(space)d") % {"camel": colour_word(r["camel"]),
                                                          "space": r["space"]}
                     for r in view["setup_rolls"])


def grey_back_words(view):
    """The reminder that the grey die goes back into the pyramid (its first setup roll
    placed one crazy camel, it comes out again for the other, RULES 3.2), while it does
    and people put the dice back by hand (``view["grey_back"]``); else ``""``."""
    if view.get("grey_back") and view.get("dice_back_by_hand"):
        return _("put the grey die back in the pyramid: it comes out again for the %s "
                 "camel") % colour_word(view["grey_back"])
    return ""


def _setup_die_notice(notice, view, past):
    camel, value = notice["camel"], notice["value"]
    crazies = get_edition(view["edition"]).crazy
    missing = notice["missing"]
    words = {"camel": colour_word(camel), "space": setup_space(view["edition"], camel, value),
             "missing": colour_list(missing)}
    if camel not in crazies:
        return [(_("Setup: %(camel)s camel on space %(space)d; still to place: %(missing)s")
                 if missing else _("Setup: %(camel)s camel on space %(space)d")) % words]
    # the numeral colour typed or read is not the camel placed: said why, in one sentence
    # TRANSLATORS: the crazy camels the grey die places at setup, in their order (RULES
    # 3.2): "black then white"
    words["order"] = _("%(first)s then %(second)s") % {
        "first": colour_word(crazies[0]), "second": colour_word(crazies[-1])} \
        if len(crazies) > 1 else colour_list(crazies)
    again = grey_back_words(view) if not past else ""
    if again:  # the grey die goes back in for the other crazy camel
        words["again"] = colour_word(view["grey_back"])
        return [(_("Setup: %(camel)s camel on space %(space)d; still to place: %(missing)s "
                   "(at setup the grey die places %(order)s, its numeral colour ignored, "
                   "RULES 3.2); put the grey die back in the pyramid: it comes out again "
                   "for the %(again)s camel") if missing else
                 _("Setup: %(camel)s camel on space %(space)d (at setup the grey die places "
                   "%(order)s, its numeral colour ignored, RULES 3.2); put the grey die back "
                   "in the pyramid: it comes out again for the %(again)s camel")) % words]
    return [(_("Setup: %(camel)s camel on space %(space)d; still to place: %(missing)s (at "
               "setup the grey die places %(order)s, its numeral colour ignored, RULES 3.2)")
             if missing else
             _("Setup: %(camel)s camel on space %(space)d (at setup the grey die places "
               "%(order)s, its numeral colour ignored, RULES 3.2)")) % words]


def _pyramid_notice(notice, view, past):
    if notice.get("die"):  # a die released or typed without 'pyramid' first
        return [_("%(player)s takes a pyramid ticket: %(die)s") % {
            "player": name(view, notice["player"]),
            "die": _die_text_words(notice["die"], view["edition"])}]
    if past:
        return [_("%s takes a pyramid ticket") % name(view, notice["player"])]
    if view.get("dice_typed"):  # no pyramid (--pyramid manual): the die is typed
        return [_("%(player)s takes a pyramid ticket: %(die)s") % {
            "player": name(view, notice["player"]), "die": _(TYPE_DIE)}]
    return [_("%s takes a pyramid ticket: release one die") % name(view, notice["player"])]


def _ask_ink_notice(notice, view, past):
    if past:  # the answer is the next line (the die, or a release again)
        return [_("GREY DIE (%(player)s's pyramid ticket), numerals not read for sure (looked "
                  "%(looked)s): black or white asked at the table") % {
            "player": name(view, notice["player"]), "looked": colour_word(notice["best"])}]
    return [_("GREY DIE (%(player)s's pyramid ticket), numerals not read for sure (looked "
              "%(looked)s): black or white? press b or w, or type 'again' to release again")
            % {"player": name(view, notice["player"]), "looked": colour_word(notice["best"])}]


def _ask_value_notice(notice, view, past):
    # the colour inside the sentence, lower case as in every other line (German:
    # "Würfel rot ist heraus")
    if past:
        return [_("The %s die came out, value not read: asked at the table") % colours_in(
            notice["die"])]
    return [_("The %s die is out, value unknown: press 1, 2 or 3") % colours_in(notice["die"])]


def _leaders_notice(notice, view, past):
    r = notice["ranking"]
    return ([_("Now leading: 1st %(first)s, 2nd %(second)s") % {
                "first": colour_word(r[0]), "second": colour_word(r[1])}]
            if len(r) >= 2 else [])


def _dice_left_notice(notice, view, past):
    dice = notice["dice"]
    shown = colour_list(dice)
    if notice["new_leg"]:
        by_hand = view.get("dice_back_by_hand") and not past  # the virtual one does it itself
        words = _RETURNED[get_edition(view["edition"]).tile_name][0 if by_hand else 1]
        return [_(words) % shown]
    if view["dice_left_inside"]:
        line = ngettext("Can still come out: %s (one stays inside)",
                        "Can still come out: %s (one stays inside)", len(dice)) % shown
    else:
        line = ngettext("Can still come out: %s", "Can still come out: %s", len(dice)) % shown
    # two lines, each within 80 columns in English and German (on one they took 95 and
    # 102: the full screen's history wrapped them)
    return [line, _("Pyramid tickets left: %d") % view["pyramid_tickets_left"]]


def _retry_notice(notice, view, past):
    if past:  # a replay: what happened, no orders to a table that is not there
        return [_retry_past(notice)]
    if notice.get("asked"):  # a die released while another one's value (or ink) is asked
        words = {"back": put_back_words(notice), "asked": colours_in(notice["asked"]),
                 "question": notice["question"]}
        if notice.get("why") == "nodie":
            return [_("No die came out (the %(asked)s die stays out): %(question)s") % words]
        if notice.get("fell") or notice.get("why") != "double":  # one die came out
            return [_("%(back)s (it came out after the %(asked)s die, which stays out): "
                      "%(question)s") % words]
        return [_("%(back)s (they came out after the %(asked)s die, which stays out): "
                  "%(question)s") % words]
    why = notice.get("why") or _("the release could not be read")
    if notice.get("grey_for"):  # setup: the grey die's second release
        camel = colour_word(notice["grey_for"])
        return [_("PUT THE GREY DIE BACK IN THE PYRAMID AND RELEASE AGAIN for the %(camel)s "
                  "camel (%(why)s), or type 'grey %(camel)s 3' with its value") % {
            "camel": camel, "why": _why(why)}]
    if notice.get("setup"):  # no pyramid ticket at setup
        return [_("RETURN THE DICE AND RELEASE AGAIN (%s)") % _why(why)]
    if notice.get("came_out"):  # a die out this leg was back inside: it stays out
        return [_("%(take)s; the dice out this leg stay out of it: %(out)s; the pyramid "
                  "ticket already taken still covers this action") % {
                      "take": came_out_words(notice), "out": colour_list(notice["out"])}]
    return [_("RETURN THE DICE AND RELEASE AGAIN (%s); the pyramid ticket already taken "
            "still covers this action") % _why(why)]


def _retry_past(notice):
    """A ``retry`` notice told as past (``pyramid replay``, a resumed table's history): the
    release that did not count and why, without the table's orders (the dice put back,
    released again: the next line tells what came of it)."""
    why = _why(notice.get("why") or _("the release could not be read"))
    if notice.get("asked"):  # the die asked about stayed out; the answer is a later line
        words = {"asked": colours_in(notice["asked"]),
                 "fell": colour_word(notice.get("fell"))}
        if notice.get("why") == "nodie":
            return _("No die came out (the %(asked)s die stayed out)") % words
        if notice.get("fell"):
            return _("The %(fell)s die came out after the %(asked)s die, which stayed out: "
                     "it did not count") % words
        if notice.get("why") == "double":
            return _("Two dice came out after the %(asked)s die, which stayed out: they did "
                     "not count") % words
        return _("A die came out after the %(asked)s die, which stayed out: it did not "
                 "count (%(why)s)") % dict(words, why=why)
    if notice.get("grey_for"):  # setup: the grey die's second release
        return _("The grey die's release for the %(camel)s camel did not count (%(why)s)") % {
            "camel": colour_word(notice["grey_for"]), "why": why}
    if notice.get("setup"):
        return _("A release at setup did not count (%s)") % why
    if notice.get("came_out"):  # a die out this leg was back inside
        return _("The %(die)s die came out again, though it had come out this leg: it did "
                 "not count (out this leg: %(out)s); the pyramid ticket already taken still "
                 "covered the action") % {"die": colour_word(notice["came_out"]),
                                          "out": colour_list(notice["out"])}
    return _("A release did not count (%s); the pyramid ticket already taken still covered "
             "the action") % why


def late_release(kind, colours, name=None, past=False):
    """The words of a release of the virtual pyramid that came after the table moved on
    from the push that let it out (``Table._late``: a move made or taken back since,
    another player to act; s36 tester finding 16): no pyramid ticket asks for it, its
    dice go back into the pyramid and nothing changes. ``kind``: the release's
    (``die``, ``double``, ``nodie``, ``unknown``); ``colours``: the dice that fell
    (``[]`` when not known); ``name``: the player on whose turn it was pushed (``None``:
    at the setup, or not known); ``past``: told as past, for a resumed table's history
    and ``pyramid replay`` (from the journal's ``rejected`` line of kind ``late``, which
    keeps the release's kind and its die's colour). One line."""
    words = {"die": listed(colour_word(c) for c in colours), "name": name}
    die = kind == "die" and colours
    if past and die:
        return _("The %(die)s die came out of the virtual pyramid late, from a push the "
                 "table had moved on from: it went back in the pyramid and changed "
                 "nothing") % words
    if past:
        return _("A release of the virtual pyramid came late, from a push the table had "
                 "moved on from: it changed nothing")
    if die and name is not None:
        return _("the %(die)s die came out of the virtual pyramid late, from a push on "
                 "%(name)s's turn: no pyramid ticket asks for it now, so it is back in "
                 "the pyramid and nothing changed") % words
    if die:
        return _("the %(die)s die came out of the virtual pyramid late, from a push at "
                 "the setup: nothing asks for it now, so it is back in the pyramid and "
                 "nothing changed") % words
    if name is not None:
        return _("a release of the virtual pyramid came late, from a push on %(name)s's "
                 "turn: no pyramid ticket asks for it now, so nothing changed") % words
    return _("a release of the virtual pyramid came late, from a push at the setup: "
             "nothing asks for it now, so nothing changed")


def came_out_words(notice):
    """What to do with a die that came out this leg and was released again (a ``retry``
    notice with ``came_out``: it was back in the pyramid, RULES 1.4): ``TAKE THE GREEN
    DIE OUT OF THE PYRAMID (it came out this leg) AND RELEASE AGAIN``."""
    return _("TAKE THE %s DIE OUT OF THE PYRAMID (it came out this leg) AND RELEASE "
             "AGAIN") % colour_word(notice["came_out"]).upper()


def dice_out_words(view):
    """The dice out of the pyramid this leg, for a pyramid people put the dice back
    into (``dice_back_by_hand``) while a leg is in play: ``the red, blue dice came out
    this leg: keep them out of the pyramid (take out any that is back in it)``, said on a
    resume and when the pyramid answers again (it may hold every die again: a board
    plugged back, an emulator restarted); ``None`` otherwise."""
    out = view.get("dice_out") or []
    if not out or not view.get("dice_back_by_hand") or view.get("phase") not in (
            "turn", "die", "ink", "value"):
        return None
    return ngettext("the %s die came out this leg: keep it out of the pyramid (take it out "
                    "if it is back in it)",
                    "the %s dice came out this leg: keep them out of the pyramid (take out "
                    "any that is back in it)", len(out)) % colour_list(out)


def restart_words(view):
    """What the table says when the pyramid restarted (a new boot in its ``HELLO``: a
    reset, a power dip, a crash) while a die is awaited from it (phase ``die`` or
    ``setup``, dice not typed): a die released during the restart may be lost, as the
    firmware was down. One line, with an example die of the edition still in the
    pyramid: ``the pyramid restarted: if a die came out just now and is not announced,
    type it (e.g. 'green 2'), else release again``. ``None`` when no die is awaited
    (nothing to lose; a resume names the dice out with ``dice_out_words``)."""
    if view.get("phase") not in ("die", "setup") or view.get("dice_typed"):
        return None
    return _("the pyramid restarted: if a die came out just now and is not announced, type "
             "it (e.g. '%s'), else release again") % example_die(view)


def put_back_words(notice):
    """What to do with the dice of a release refused while another die's value or ink
    is asked (a ``retry`` notice with ``asked``): ``PUT THE PURPLE DIE BACK IN THE
    PYRAMID`` when the pyramid read its colour (``fell``), else the die (or the two dice)
    of that release."""
    if notice.get("fell"):
        return _("PUT THE %s DIE BACK IN THE PYRAMID") % colour_word(notice["fell"]).upper()
    if notice.get("why") == "nodie":
        return _("NO DIE CAME OUT: %s") % notice["question"].upper()
    if notice.get("why") == "double":
        return _("PUT THE DICE OF THIS RELEASE BACK IN THE PYRAMID")
    return _("PUT THE DIE OF THIS RELEASE BACK IN THE PYRAMID")  # its colour not read


#: Each notice kind's words: ``(notice, view, past)`` -> list of lines.
_NOTICE_WORDS = {
    "setup": _setup_notice,
    "setup_die": _setup_die_notice,
    "turn": lambda notice, view, past: [],
    "action": lambda notice, view, past: [_action_line(notice, view)],
    "pyramid": _pyramid_notice,
    "ask_ink": _ask_ink_notice,
    "ask_value": _ask_value_notice,
    "die": lambda notice, view, past: die_lines(notice, view),
    "leaders": _leaders_notice,
    "dice_left": _dice_left_notice,
    "leg_scored": lambda notice, view, past: leg_lines(notice, view),
    "final": lambda notice, view, past: final_lines(notice, view),
    "retry": _retry_notice,
    "manual": lambda notice, view, past: [_("TYPE THE DIE BY HAND: %s") % notice["text"]],
    "correction": lambda notice, view, past: [_("Board corrected: %s")
                                              % _board_words(notice["stacks"])],
    "unscored": lambda notice, view, past: [_("Race %d ended unscored ('unscored' was "
                                              "typed)") % notice["race"]],
    "new_race": lambda notice, view, past: _new_race_lines(notice, view),
    # told as past (a replay, a resumed table's history), an undo or a redo in its
    # ``replayed`` words: no dice to put back in a pyramid or take out, no hint to type
    "info": lambda notice, view, past: [notice.get("replayed", notice["text"]) if past
                                        else notice["text"] + notice.get("hint", "")],
}


def _new_race_lines(notice, view):
    """A new race: the coins, who starts it and why (RULES 1.12: the start marker
    passes on), what to do now."""
    line = _("Race %d: everyone back to 3 coins; set up the camels again") % notice["race"]
    start = notice.get("start")
    if start is None:
        return [line]
    after = notice.get("after")
    if after is None:
        why = _("%s starts: the start marker stays where the race before left it") % name(
            view, start)
    else:
        why = (_("%(who)s starts: the start marker passed on to the left of %(ender)s, "
                 "whose die ended the race before (RULES 1.12)")
               % {"who": name(view, start), "ender": name(view, after)})
    return [line, why]


def _why(kind):
    return {"double": _("two dice came out at once"), "nodie": _("no die came out"),
            "unknown": _("the colour could not be read"),
            "dim": _("the sensor saw too little light"),
            "again": _("the grey die's numerals could not be read")}.get(kind, kind)


def _action_line(notice, view):
    r = notice["report"]
    who = name(view, r["player"])
    kind = r["kind"]
    if kind == "leg":
        t = r["ticket"]
        left = [row["left"] for row in view["leg_tickets"] if row["colour"] == t["colour"]]
        left = left[0] if left else []
        return _("%(player)s takes the %(colour)s leg ticket worth %(value)d (%(colour)s left: "
                 "%(left)s)") % {
            "player": who, "colour": colour_word(t["colour"]), "value": t["value"],
            "left": ",".join(str(v) for v in left) or _("none")}
    if kind == "tile":
        t = r["tile"]
        side = side_name(view, t["side"])
        if t.get("from"):
            return _("%(player)s moves the tile from space %(from)d to space %(to)d, %(side)s "
                     "side up") % {"player": who, "from": t["from"], "to": t["space"],
                                   "side": side}
        return _("%(player)s places the tile on space %(space)d, %(side)s side up") % {
            "player": who, "space": t["space"], "side": side}
    if kind == "finish":
        pile = r["action"].split()[1]
        cards = view["piles"][pile]
        words = {"player": who, "cards": cards}
        # each pile its own sentence, its count its own plural
        if pile == "winner":
            return ngettext("%(player)s plays a finish card face down on the overall-winner "
                            "pile (now %(cards)d card)",
                            "%(player)s plays a finish card face down on the overall-winner "
                            "pile (now %(cards)d cards)", cards) % words
        return ngettext("%(player)s plays a finish card face down on the overall-loser pile "
                        "(now %(cards)d card)",
                        "%(player)s plays a finish card face down on the overall-loser pile "
                        "(now %(cards)d cards)", cards) % words
    if kind == "partner":
        return _("%(player)s forms a partnership with %(partner)s") % {
            "player": who, "partner": name(view, int(r["action"].split()[1]))}
    return "%s: %s" % (who, r["action"])


def die_lines(notice, view):
    """The die announcement: the die and its value as every screen names them
    (``die_words``: ``DIE grey-black 2``, ``WÜRFEL grau-schwarz 2``), the camel, which
    way and how far in every screen's one wording (``camelhost.table.view.which_way``:
    ``... the red camel moves forward 2``, German ``... zieht 2 Felder vorwärts``),
    then the path."""
    m = notice["move"]
    who = name(view, notice["player"])
    why = CRAZY_WHY.get(m.get("rule"))
    words = {"die": die_words(move_die(m)), "player": who, "camel": colour_word(m["camel"]),
             "why": _(why) if why else "", "way": which_way(m["direction"], m["distance"])}
    if why:  # a crazy camel moved by the grey die: which one and why, in one sentence
        # TRANSLATORS: %(why)s says why this crazy camel moved (RULES 3.5: "the
        # numeral's colour", "it sits directly on the other crazy camel")
        lines = [_("DIE %(die)s (%(player)s's pyramid ticket): the %(camel)s camel (%(why)s) "
                   "moves %(way)s") % words]
    else:
        lines = [_("DIE %(die)s (%(player)s's pyramid ticket): the %(camel)s camel moves "
                   "%(way)s") % words]
    if m["unit"][1:]:
        lines.append(_("  carrying %s") % colour_list(m["unit"][1:]))
    tile = m.get("tile")
    if tile:  # the move, then the tile, then where the unit ends (RULES 1.5)
        side = side_name(view, tile["side"])
        owner = name(view, tile["owner"])
        lines.append("  " + _(FROM_TO) % {"from": m["from"], "to": tile["space"]})
        lines.append(_("  lands on %(owner)s's %(side)s tile there: %(owner)s +1 coin") % {
            "owner": owner, "side": side})
        # "underneath": under the camels already there (RULES 1.5), said in the sentence
        under = m["under"]
        if m["crossed"]:
            lines.append(_("  then on across the finish line: the race is over"))
        elif m["to"] == m["from"]:
            lines.append((_("  then back to space %(space)d underneath, where it started")
                          if under else _("  then back to space %(space)d, where it started"))
                         % {"space": m["to"]})
        elif tile["side"] == "+":
            lines.append((_("  then on to space %(space)d underneath") if under
                          else _("  then on to space %(space)d")) % {"space": m["to"]})
        else:  # the words of view.move_path: back one space, under what is there
            lines.append((_("  then back 1 to space %(space)d underneath") if under
                          else _("  then back 1 to space %(space)d")) % {"space": m["to"]})
    elif m["crossed"]:
        lines.append(_("  from space %d across the finish line: the race is over") % m["from"])
    else:
        lines.append("  " + _(FROM_TO) % {"from": m["from"], "to": m["to"]})
    return lines


def leg_lines(notice, view):
    """LEG n SCORED, then one line per player: each ticket and what it paid."""
    r = notice["ranking"]
    lines = [_("LEG %(leg)d SCORED: 1st %(first)s, 2nd %(second)s") % {
        "leg": notice["leg"], "first": colour_word(r[0]),
        "second": colour_word(r[1]) if len(r) > 1 else "-"}]
    for row in notice["scores"]:
        items = []
        for it in row["items"]:
            if it["kind"] == "leg":
                # named: German names the ticket first ("Wettplättchen rot 5: +5")
                items.append(_("%(colour)s %(value)d ticket %(reward)s") % {
                    "colour": colour_word(it["colour"]), "value": it["value"],
                    "reward": _signed(it["reward"])})
            elif it["kind"] == "pyramid":
                items.append(_("pyramid ticket +1"))
            else:
                # TRANSLATORS: a partner's ticket reward added to this player's result
                # at leg scoring (RULES 3.8): %(partner)s is the partner's name,
                # %(reward)s the coins, signed ("+5"). Named: a language may reorder them.
                items.append(_("copied from %(partner)s %(reward)s") % {
                    "partner": name(view, it["from"]), "reward": _signed(it["reward"])})
        words = {"player": name(view, row["player"]), "items": ", ".join(items) or _("nothing"),
                 "net": _signed(row["net"]), "before": row["before"], "after": row["after"],
                 "forgiven": _forgiven_coins(row["before"], row["net"], row["after"])}
        if words["forgiven"]:  # the zero floor cut the payment short: said in the line
            lines.append(ngettext(
                "  %(player)s: %(items)s => net %(net)s, %(before)d -> %(after)d "
                "(%(forgiven)d coin forgiven: nobody goes below 0, RULES 1.9)",
                "  %(player)s: %(items)s => net %(net)s, %(before)d -> %(after)d "
                "(%(forgiven)d coins forgiven: nobody goes below 0, RULES 1.9)",
                words["forgiven"]) % words)
        else:
            lines.append(_("  %(player)s: %(items)s => net %(net)s, %(before)d -> %(after)d")
                         % words)
    return lines


def _forgiven_coins(before, net, after):
    """The coins the zero floor forgave in a payment (RULES 1.9): how far ``before`` +
    ``net`` (coins) is below ``after``; 0 when none."""
    return max(0, after - (before + net))


def final_lines(notice, view):
    """RACE n OVER, each finish pile revealed in play order, the final scores."""
    f = notice["final"]
    lines = [_("RACE %(race)d OVER: overall winner %(winner)s, overall loser %(loser)s") % {
        "race": notice["race"], "winner": colour_word(f["winner"]),
        "loser": colour_word(f["loser"])}]
    if view.get("ranking"):
        lines.append(_("Final order of the camels: %s") % colour_list(view["ranking"]))
    for pile in ("winner", "loser"):
        cards = [c for c in f["cards"] if c["pile"] == pile]
        # each pile its own sentence: a language names the pile in its own words
        # (German "Gesamtsieger-Stapel"), not a pile word put in a frame
        if pile == "winner":
            lines.append(_("Winner pile revealed in play order:") if cards
                         else _("Winner pile revealed in play order: empty"))
        else:
            lines.append(_("Loser pile revealed in play order:") if cards
                         else _("Loser pile revealed in play order: empty"))
        lines += [_revealed_card(i, c, view) for i, c in enumerate(cards, 1)]
    names = [p["name"] for p in view["players"]]
    lines.append(final_scores_line(names, f["coins"], f["winners"]))
    lines.append(final_ranking_line(names, f["coins"]))
    return lines


def _revealed_card(i, card, view):
    """One finish card of the final reveal (``final_lines``), the ``i``-th (1-based) of
    its pile: ``  1. Ann red: correct, place 1 +8 (3 -> 11)``, ``  2. Ben blue: wrong
    -1 (0 -> 0) (1 coin forgiven: ...)``, one message a line (``card``: the engine's
    card dict, ``player``, ``colour``, ``correct``, ``place``, ``reward``, ``before``,
    ``after``)."""
    words = {"n": i, "player": name(view, card["player"]), "camel": colour_word(card["colour"]),
             "place": card.get("place"), "reward": _signed(card["reward"]),
             "before": card["before"], "after": card["after"],
             "forgiven": _forgiven_coins(card["before"], card["reward"], card["after"])}
    if card["correct"]:
        return _("  %(n)d. %(player)s %(camel)s: correct, place %(place)d %(reward)s "
                 "(%(before)d -> %(after)d)") % words
    if words["forgiven"]:  # a wrong card costs a coin: the zero floor may forgive it
        return ngettext("  %(n)d. %(player)s %(camel)s: wrong %(reward)s (%(before)d -> "
                        "%(after)d) (%(forgiven)d coin forgiven: nobody goes below 0, "
                        "RULES 1.9)",
                        "  %(n)d. %(player)s %(camel)s: wrong %(reward)s (%(before)d -> "
                        "%(after)d) (%(forgiven)d coins forgiven: nobody goes below 0, "
                        "RULES 1.9)", words["forgiven"]) % words
    return _("  %(n)d. %(player)s %(camel)s: wrong %(reward)s (%(before)d -> %(after)d)") \
        % words


def final_ranking_line(names, coins):
    """``Final ranking: 1. Ben 38, 2. Ann 37, 3. Cy 33`` (a tie shares its place)."""
    order = sorted(range(len(names)), key=lambda i: (-coins[i], i))
    return _("Final ranking: %s") % ", ".join(
        "%d. %s %d" % (1 + sum(1 for c in coins if c > coins[i]), names[i], coins[i])
        for i in order)


def over_lines(view):
    """The table after the race (``show`` once it is over): the result, the final
    track, both finish piles revealed (RULES 1.13) and the final ranking; no tickets
    or pile sizes any more (they were scored)."""
    f = view["final"]
    names = [p["name"] for p in view["players"]]
    lines = [_("Race %(race)d is over (leg %(leg)d): overall winner %(winner)s, overall loser "
               "%(loser)s") % {"race": view["race"], "leg": view["leg"],
                               "winner": colour_word(f["winner"]),
                               "loser": colour_word(f["loser"])}]
    for pile in ("winner", "loser"):
        cards = ", ".join("%s %s %s" % (c["name"], colour_word(c["colour"]), _signed(c["reward"]))
                          for c in f["piles"][pile])
        # each pile its own sentence, as final_lines says them
        if pile == "winner":
            lines.append(_("Winner pile: %s") % cards if cards else _("Winner pile: empty"))
        else:
            lines.append(_("Loser pile: %s") % cards if cards else _("Loser pile: empty"))
    lines.append(final_ranking_line(names, f["coins"]))
    return lines


def final_scores_line(names, coins, winners):
    """``FINAL SCORES: Ann 12, Ben 7 | winner: Ann`` (a tie names every winner)."""
    return ngettext("FINAL SCORES: %(scores)s | winner: %(winners)s",
                    "FINAL SCORES: %(scores)s | winners: %(winners)s", len(winners)) % {
        "scores": ", ".join("%s %d" % (names[i], coins[i]) for i in range(len(names))),
        "winners": name_list(names[i] for i in winners)}


def last_die_line(view):
    """``Last die: red 2 (Ann): red camel forward 2, from space 3 to 5``, the die as
    every screen names it (``die_words``: ``Last die: grey-black 2 (Ann): ...``); a
    tile landed on is told with its effect (``..., from space 14 to 15 on Bob's booing
    tile, back 1 to 14``,
    the wording of ``camelhost.table.view.move_path``)."""
    d = view["last_die"]
    # which way and how far: every screen's one wording (German "2 Felder vorwärts")
    return _("Last die: %(die)s (%(player)s): %(camel)s camel %(way)s, %(path)s") % {
        "die": die_words(d), "player": d["player"], "camel": colour_word(d["camel"]),
        "way": which_way(d["direction"], d["distance"]), "path": d["path"]}


def resumed_lines(view, path, count):
    """What the table says after ``--resume``: how many events were restored from the
    journal at ``path``, where the race stands (its setup, a leg, or over: after which
    leg it ended, or that it ended unscored), and the last die (so the players can
    check the board); while a die's value is asked, that question again (``The green
    die is out, value unknown: press 1, 2 or 3``)."""
    # no leg before the setup is done: a setup die's value asked is the setup's too
    where = view["phase"] if view["leg"] else "setup"
    # named: German puts the path first ("/tmp/g.jsonl fortgesetzt: ..."); where the race
    # stands is part of each sentence, not a phrase put in one
    if where == "setup":
        said = ngettext("resumed %(path)s: %(count)d event restored (race %(race)d, setup)",
                        "resumed %(path)s: %(count)d events restored (race %(race)d, setup)",
                        count)
    elif where == "over":
        said = ngettext("resumed %(path)s: %(count)d event restored (race %(race)d, over "
                        "after leg %(leg)d)",
                        "resumed %(path)s: %(count)d events restored (race %(race)d, over "
                        "after leg %(leg)d)", count)
    elif where == "unscored":
        said = ngettext("resumed %(path)s: %(count)d event restored (race %(race)d, ended "
                        "unscored in leg %(leg)d)",
                        "resumed %(path)s: %(count)d events restored (race %(race)d, ended "
                        "unscored in leg %(leg)d)", count)
    else:
        said = ngettext("resumed %(path)s: %(count)d event restored (race %(race)d, leg "
                        "%(leg)d)",
                        "resumed %(path)s: %(count)d events restored (race %(race)d, leg "
                        "%(leg)d)", count)
    lines = [said % {"path": path, "count": count, "race": view["race"], "leg": view["leg"]}]
    if view["last_die"]:
        lines.append(last_die_line(view))
    if grey_back_words(view):  # said when the grey die came out: said again
        lines.append(grey_back_words(view)[:1].upper() + grey_back_words(view)[1:])
    out = dice_out_words(view)
    if out:  # the pyramid may hold every die again: which must stay out of it
        lines.append(out[:1].upper() + out[1:])
    if view["phase"] == "value" and view["pending_die"]:
        # the question the table stopped at, asked again: the prompt alone does not
        # name the die whose value it asks (tester s40 finding 13)
        lines += _ask_value_notice({"die": die_name(view["pending_die"])}, view, False)
    return lines


def odds_lines(view):
    """The ``odds`` command: leg odds 1st/2nd/last of every racing camel, then the
    overall winner and loser odds with their 95 % interval's half-width, written ``±``
    as the screens write it (``blue 38% ±1.2``; RULES 1.10, 1.13)."""
    odds = view["odds"]
    if odds is None:
        # the reason true in every phase: mid-race the odds engine refused the position
        # (or nothing worked them out), which is no race over
        why = (_("setup") if view["phase"] == "setup"
               else _("race over") if view["phase"] in ("over", "unscored")
               else _("not worked out for this position"))
        return [_("No odds now (%s)") % why]
    lines = [_("Leg odds: %s") % "; ".join(
        _("%(camel)s 1st %(first)s 2nd %(second)s last %(last)s") % {
            "camel": colour_word(r["colour"]), "first": percent(r["first"]),
            "second": percent(r["second"]), "last": percent(r["last"])}
        for r in sorted(odds["leg"], key=lambda r: -r["first"]))]
    race = odds["race"]
    if race is not None:
        for pile in ("winner", "loser"):
            rows = sorted(race[pile], key=lambda r: -r["p"])
            how = _("exact") if race["exact"] else _(
                "%(races)s races simulated, %(level)s interval") % {
                    "races": grouped(race["samples"]), "level": percent(0.95)}
            lines.append(_("Overall %(pile)s odds (%(how)s): %(odds)s") % {
                "pile": pile_word(pile), "how": how, "odds": "; ".join(
                    "%s %s%s" % (colour_word(r["colour"]), percent(r["p"]),
                                 "" if race["exact"] else " \u00b1%s" % decimal(100 * r["hw"], 1))
                    for r in rows)})
    return lines


#: Actions ``best`` lists: the coach's best, then the next ones behind it (``best all``:
#: every one).
BEST_SHOWN = 4


def _advice_name(entry, view, player, camel=True, head=False):
    """An advice entry (the view's action entry) as words a player reads aloud, and the
    command that takes it (in the table's colour words): ``("purple leg ticket 5", "leg
    purple")``, ``("booing tile on 6 (moved from 4)", "tile 6 -")``, ``("a finish card on
    the loser pile, its colour chosen unseen", "lose")`` (never its colour: the table
    reads the advice, RULES 1.8; once the player has laid a finish card, said to be
    valued as if every colour were still held, since it is, or with ``head`` (the best,
    ``best``'s first line) said to be for a player who still holds its camel's colour,
    else the next action: ``", if you still hold its colour, else take the next"``),
    ``("partnership with Ben", "partner Ben")``, ``("pyramid ticket", "pyramid")``."""
    kind, words = entry["kind"], entry["action"].split()
    if kind == "leg":
        command = colours_in("leg %s" % words[1])
        top = [t["top"] for t in view["leg_tickets"] if t["colour"] == words[1]]
        if top and top[0] is not None:
            return _("%(camel)s leg ticket %(value)d") % {"camel": colour_word(words[1]),
                                                          "value": top[0]}, command
        return _("%s leg ticket") % colour_word(words[1]), command
    if kind == "tile":
        space, side = int(words[1]), words[2]
        mine = [p["tile"]["space"] for p in view["players"]
                if p["name"] == player and p.get("tile")]
        words = {"side": side_name(view, side), "space": space, "from": mine and mine[0]}
        if mine and mine[0] != space:  # moved: it gives up what it earns there (RULES 1.5)
            return _("%(side)s tile on %(space)d (moved from %(from)d)") % words, \
                "tile %d %s" % (space, side)
        return _("%(side)s tile on %(space)d") % words, "tile %d %s" % (space, side)
    if kind == "finish":
        pile = entry.get("pile") or words[1]
        text = _("a finish card on the %s pile, its colour chosen unseen") % pile_word(pile)
        if camel and entry.get("place"):  # the camel its figures are for, by its place
            text += ", " + _("for %s") % finish_camel(pile, entry["place"])
        laid = [p["finish_cards_played"] for p in view["players"] if p["name"] == player]
        if laid and laid[0] and head:
            # the best, which a player follows: the card it needs may be the one laid,
            # and then the next line is the advice (tester s39 finding 7)
            text += _(", if you still hold its colour, else take the next")
        elif laid and laid[0]:
            # valued as if every colour were still held (the hand is private): once the
            # player has laid one, the card it needs may be gone (tester s34, W5)
            text += _(", valued as if you still held every colour")
        return text, "win" if pile == "winner" else "lose"
    if kind == "partner":
        return _("partnership with %s") % entry["partner"], "partner %s" % entry["partner"]
    if kind == "pyramid":
        return _("pyramid ticket"), "pyramid"
    return entry["action"], entry["action"]


def _cents(x):
    """``x`` coins rounded to the hundredth, as ``signed`` shows them."""
    return round(float("%.2f" % x), 2)


def _rank_figure(entry):
    """``(kind, value)``: the number an advice entry is ranked by, ``("win", chance
    0..1)`` in the end-game's best few, ``("score", coins)`` the coach's balance, or
    ``("ev", coins)`` its value now when the advice has no balance."""
    if entry.get("win") is not None:
        return "win", entry["win"]
    if entry.get("score") is not None:
        return "score", entry["score"]
    return "ev", entry["ev"]


def _gap(first, second):
    """How far advice entry ``first`` is ahead of ``second`` on the number both are
    ranked by, from the figures as shown (so the gap can be checked at the table):
    ``("points", n)`` for chances to win (percentage points), ``("coins", x)``
    otherwise; ``None`` when they are ranked by different numbers (the end-game's best
    few by their chance, the rest after them by balance)."""
    kind, a = _rank_figure(first)
    other, b = _rank_figure(second)
    if kind != other:
        return None
    if kind == "win":
        return "points", round(100 * a) - round(100 * b)
    return "coins", round(_cents(a) - _cents(b), 2)


def _gap_words(gap, ahead):
    """A ``_gap`` in words, for the best (``ahead``: against the next action) or for an
    action after it (against the best): ``0.01 ahead of the next`` / ``0.01 behind the
    best``, ``10 points ahead of the next`` (chances to win), ``level with the best to
    the hundredth``, ``as likely to win as the next``."""
    unit, size = gap
    if unit == "points":
        if size <= 0:
            return _("as likely to win as the next") if ahead else _(
                "as likely to win as the best")
        return (ngettext("%d point ahead of the next", "%d points ahead of the next", size)
                if ahead else ngettext("%d point behind the best", "%d points behind the best",
                                       size)) % size
    if size <= 0:
        return _("level with the next to the hundredth") if ahead else _(
            "level with the best to the hundredth")
    return (_("%s ahead of the next") if ahead else _("%s behind the best")) % decimal(size, 2)


def _figure_words(entry, others=2):
    """An advice entry's ranking number said in full, the figures as shown: in the
    end-game ``25% chance to win the race (+1.00 now)``; a balance with what it is made
    of, so the sum can be checked at the table, ``balance -0.93: +5.55 now, -3.41 the
    card's worth in a later leg, -3.07 the others' replies`` (the replies being what is
    left of the coach's score: the value now less the score, for a finish card less its
    value kept too, so the parts add up to the balance); else its value now, ``+1.78
    now``. ``others``: how many players reply before the player's next turn (one: "the
    other player's reply", as ``advice_note`` says it at two seats)."""
    kind, value = _rank_figure(entry)
    if kind == "win":
        return _("%(chance)s chance to win the race (%(coins)s now)") % {
            "chance": percent(value), "coins": signed(entry["ev"])}
    if kind == "ev":
        return _("%s now") % signed(value)
    now, score = _cents(entry["ev"]), _cents(value)
    hold = _cents(entry["hold"]) if entry.get("hold") is not None else 0.0
    parts = [_("%s now") % signed(now)]
    if entry.get("hold") is not None:
        parts.append(_("%s the card's worth in a later leg") % signed(-hold))
    if others == 1:  # two players: one reply, said as the note under it says it
        parts.append(_("%s the other player's reply") % signed(score - now + hold))
    else:
        parts.append(_("%s the others' replies") % signed(score - now + hold))
    return _("balance %(balance)s: %(parts)s") % {"balance": signed(score),
                                                   "parts": ", ".join(parts)}


def _same_win(values):
    """The chance to win (0..1) that the end-game's best few all share as shown, when
    the view ranks them by balance for it (``camelhost.table.view.same_chance``: the
    entries' ``same_win``), else ``None``."""
    for v in values:
        if v.get("same_win") is not None:
            return v["same_win"]
    return None


def _same_win_words(chance):
    """What the advice says when every action played out gives the player the same
    chance to win the race (``chance``, 0..1, as shown): that chance, and that the list
    is ranked by balance instead, since the chance tells nothing between them (tester
    s37tp finding 3: four lines of "0% chance to win" and "as likely to win as the
    best" told a player nothing). At 0% it says the player wins in no play-out, as the
    play-outs count it, not that it can't happen."""
    if round(100 * chance) == 0:
        return _("the race likely ends this leg and you win it in none of the play-outs, "
                 "whatever you do: ranked by balance, the coins you can still gain on the "
                 "others")
    return _("the race likely ends this leg and your chance to win it is %s whatever you "
             "do: ranked by balance") % percent(chance)


def _more_now_below(values):
    """True when of the advice ``values`` (the view's action entries, in their order)
    ranked by their chance to win, one pays more now (to the hundredth, as shown) than
    one listed above it (by a higher or equal chance): ``+5.60 now`` under ``+3.00 now``
    (tester s39 finding 6). The play-outs read the finish piles as the value now does
    (``camelhost.coach.card_guesses``, ``_read_piles``), so such a line is no misreading
    of the pile: a chance to win counts how each play-out ends, the others' coins too,
    and an action paying more on average can win less often."""
    ranked = [v for v in values if v.get("win") is not None]
    for i, above in enumerate(ranked):
        for below in ranked[i + 1:]:
            if _cents(below["ev"]) > _cents(above["ev"]):
                return True
    return False


def now_note(values):
    """The sentence on an action's value now beside its chance to win, for advice
    ``values`` (the view's action entries shown, in their order) in which one ranked by
    its chance to win pays more now than one above it (``_more_now_below``), else "": an
    action paying more on average can win less often. The one source of it: plain
    mode's ``best`` (``advice_note``), the full screen's wide advice
    (``camelhost.ui.odds_view``) and, in a few words, the web page's note
    (``short_advice_note``)."""
    if not _more_now_below(values):
        return ""
    return _("an action's 'now' is the coins it pays you on average; the chance to win "
             "counts how each play-out ends, the others' coins too, so one that pays more "
             "now can win less often")


def advice_note(values, others, more=False):
    """The line under the advice (``values``: the view's action entries shown, in their
    order; ``others``: how many players reply before the player's next turn; ``more``:
    actions left out, which ``best all`` lists): what its numbers are. A balance, the
    coach's score, is the coins now less what the next players gain in reply before the
    player's turn, weighed as the coach weighs them (``camelhost.coach``), a finish
    card's also less what it is worth kept for a later leg; below zero it is no loss of
    coins, and the best is the action furthest ahead. In the end-game the best few are
    ranked by the chance to win; when one of them pays more now than one above it
    (``_more_now_below``), the note says why the chance can still be lower. A finish
    card is named by its pile only, its colour chosen unseen (the table reads the
    advice, RULES 1.8)."""
    notes = []
    if any(v.get("win") is not None for v in values):
        notes.append(_("the race likely ends this leg, so the first are ranked by your "
                       "chance to win, each played out from what the table can see, the "
                       "rest by balance"))
        if now_note(values):
            notes.append(now_note(values))
    same = _same_win(values)
    if same is not None:
        notes.append(_same_win_words(same))
    if any(v.get("win") is None and v.get("score") is not None for v in values):
        if others == 1:  # a sentence of its own, not a count's form: no number in it
            notes.append(_("balance: what an action pays now less what the other player "
                           "gains in reply before your turn, as the coach weighs it; below "
                           "zero it costs you no coins, it only means the other player gains "
                           "more: the best is the one furthest ahead"))
        else:
            notes.append(_("balance: what an action pays now less what the next %d players "
                           "gain in reply before your turn, as the coach weighs them; below "
                           "zero it costs you no coins, it only means the others together "
                           "gain more: the best is the one furthest ahead") % others)
        if any(v["kind"] == "tile" for v in values):
            notes.append(_("a tile's replies also count what it changes for the leg "
                           "tickets held"))
        if any(v["kind"] == "partner" for v in values):
            notes.append(_("a partnership's replies also count what the partner copies "
                           "from you"))
    if not notes:
        notes.append(_("ranked by the value now"))
    if any(v["kind"] == "finish" for v in values):
        notes.append(_("a finish card by its pile only: type 'win' or 'lose' alone and "
                       "choose its colour unseen; its figures are for the camel named by "
                       "its place in the race odds, another colour's are its own"))
    if more:
        notes.append(_("'best all' lists every action"))
    return "(%s)" % "; ".join(notes)


def advice_words(view, count=None, camel=False, caveat=False):
    """The advice of ``view`` (its ``odds.actions``) in words, one dict an action for the
    first ``count`` (``None``: every one), as ``best`` and the web page say them:
    ``name`` (the action read aloud, a finish card by its pile only, RULES 1.8),
    ``command`` (what the table types, in its colour words), ``gap`` (the best: how far
    it is ahead of the next; the others: how far each is behind the best, ``""`` when
    ranked by another number) and ``figure`` (the number it is ranked by, said in full:
    its balance as a sum whose parts add up, or its chance to win). ``[]`` without
    advice. The order and numbers are the view's (the coach's), unchanged. ``camel``: a
    finish card's name says the camel its figures are for (``best``); the web page's
    list, on one screen at 1024x768, leaves it to the entry's ``text``. ``caveat``: the
    best, when a finish card and the player has laid one, is said to be for a player
    still holding its camel's colour, else the next action (``best``'s first line,
    which a player follows: ``_advice_name``'s ``head``)."""
    acts = (view.get("odds") or {}).get("actions")
    if not acts or not acts.get("values"):
        return []
    values = acts["values"] if count is None else acts["values"][:count]
    best = values[0]
    out = []
    for i, entry in enumerate(values):
        name, command = _advice_name(entry, view, acts["player"], camel, head=caveat and i == 0)
        if i == 0:
            gap = _gap(best, values[1]) if len(values) > 1 else None
        else:
            gap = _gap(best, entry)
        out.append({"name": name, "command": command,
                    "gap": "" if gap is None else _gap_words(gap, ahead=i == 0),
                    "figure": _figure_words(entry, len(view["players"]) - 1)})
    return out


def lead_words(values):
    """How far the best of the advice ``values`` (the view's action entries, the coach's
    order) is ahead of the next one, as ``best`` says it (``2.57 ahead of the next``,
    ``28 points ahead of the next``, ``level with the next to the hundredth``); ``""``
    with one action, or when the two are ranked by different numbers."""
    gap = _gap(values[0], values[1]) if len(values) > 1 else None
    return "" if gap is None else _gap_words(gap, ahead=True)


def short_advice_note(values, others=2):
    """The web page's short note under its advice (``values``: the view's action entries
    shown): what a balance is, in a sentence a watcher follows, on one line of the page at
    1024x768 (what the action pays now less what the others gain in reply; below zero no
    coins lost: a best action with a minus sign and only 'costs you no coins' under it
    read as a contradiction on the TV, tester s34 W2); in the end-game that the first are
    ranked by the chance to win, and not by the value now where ``now_note`` applies;
    ``""`` when the numbers are the values now. ``others``: how many players reply
    before the player's next turn (one: the other player's)."""
    notes = []
    if any(v.get("win") is not None for v in values):
        if now_note(values):  # what plain mode's best says, in a few words (tester s40):
            # the page's note is one line at 1024x768, a German game of eight at its edge
            notes.append(_("the first by your chance to win the race, not by 'now'"))
        else:
            notes.append(_("the first by your chance to win the race"))
    same = _same_win(values)
    if same is not None:  # one line of the page, as the rest of its note
        notes.append(_("you win in no play-out: by balance") if round(100 * same) == 0
                     else _("%s to win whatever you do: by balance") % percent(same))
    if any(v.get("win") is None and v.get("score") is not None for v in values):
        if others == 1:
            notes.append(_("balance: now less the other player's gains; below zero costs you "
                           "no coins"))
        else:
            notes.append(_("balance: now less the others' gains; below zero costs you no "
                           "coins"))
    return "(%s)" % "; ".join(notes) if notes else ""


def best_lines(view, count=BEST_SHOWN):
    """The ``best`` command: the coach's advice for the player to act, to be read aloud
    at the table; ``count`` actions (``None``: every one, ``best all``).

    The first line names the best action in words, the command that takes it, and how
    far it is ahead of the next one on the number the coach ranks by (its balance, in
    coins; in the end-game's best few its chance to win the race, in points). The second
    says that number in full: a balance is the coins the action pays now, less the
    others' replies (what the next players gain before the player's next turn, as the
    coach weighs them, ``camelhost.coach``), and for a finish card less what it is
    worth kept for a later leg, the parts adding up as shown. Then the next actions,
    one a line: how far each is behind the best, and its own sum. Then a note on the
    numbers (``advice_note``: a balance below zero is no loss of coins) and, with
    partnerships in play (RULES 3.8), a line valuing each partner on offer by name, or
    the partnership the player already has (a partner holding no leg or pyramid ticket,
    nothing to copy, is said to hold none yet, never valued 0.00). Finish cards as if the player still held
    every colour, by pile only (the screen is shared, RULES 1.8); once the player has
    laid one, a finish card as the best is said to be for a player still holding its
    camel's colour, else the next action (the first line is the one followed, tester
    s39 finding 7); nothing while a die
    is being read. The order and the numbers are the coach's, unchanged
    (``view["odds"]["actions"]``)."""
    odds = view["odds"]
    if view["phase"] in ("die", "value", "ink"):
        # a pyramid ticket is being played out: the die comes first, then the next turn
        return [_("No advice while a die is being read: it comes with the next turn")]
    if odds is None or not odds["actions"] or not odds["actions"]["values"]:
        return [_("No action values now")]
    acts = odds["actions"]
    player = acts["player"]
    shown = acts["values"] if count is None else acts["values"][:count]
    said = advice_words(view, count, camel=True, caveat=True)
    words = {"player": player, "action": said[0]["name"], "command": said[0]["command"],
             "gap": said[0]["gap"]}
    head = (_("Best for %(player)s: %(action)s (type '%(command)s'), %(gap)s") if words["gap"]
            else _("Best for %(player)s: %(action)s (type '%(command)s')")) % words
    lines = [head, "  " + said[0]["figure"]]
    for i, entry in enumerate(said[1:], 2):
        # TRANSLATORS: one of the next actions under the best: %(n)d its place in the
        # list, %(action)s its name, %(command)s what the table types, %(gap)s how far
        # it is behind the best, %(figure)s the number it is ranked by, in full
        lines.append((_("  %(n)d. %(action)s ('%(command)s'): %(gap)s; %(figure)s")
                      if entry["gap"] else _("  %(n)d. %(action)s ('%(command)s'): %(figure)s"))
                     % {"n": i, "action": entry["name"], "command": entry["command"],
                        "gap": entry["gap"], "figure": entry["figure"]})
    lines.append(advice_note(shown, len(view["players"]) - 1,
                             more=len(acts["values"]) > len(shown)))
    # partnerships (second edition, 6-8 players, RULES 3.8): every partner on offer,
    # by name, even when none makes the top of the list
    offers = [v for v in acts["values"] if v["kind"] == "partner"]
    # who holds a ticket a partner copies, a leg or a pyramid ticket (RULES 3.8; None:
    # the view does not say, every value is shown)
    holding = ({p["name"] for p in view["players"]
                if p["leg_tickets"] or p.get("pyramid_tickets")}
               if all("leg_tickets" in p for p in view["players"]) else None)
    if offers and holding is not None and not holding & {v["partner"] for v in offers}:
        # the value now is the partner's best leg ticket copied: at a leg's start nobody
        # holds one, and a row of 0.00 read as "a partnership is worthless" (tester s32-2)
        lines.append(_("Partnership for %s: no partner on offer holds a leg or pyramid ticket "
                       "yet, so there is nothing to copy now; its worth comes with the "
                       "partner's tickets this leg") % player)
    elif offers:
        lines.append(_("Partnership for %(player)s (the partner's best ticket to copy): "
                       "%(offers)s") % {"player": player, "offers": "; ".join(
                           "%s %s" % (v["partner"], signed(v["ev"]))
                           if holding is None or v["partner"] in holding
                           else _("%s no leg or pyramid ticket yet") % v["partner"] for v in offers)})
    mine = acts.get("partnership")
    if mine is not None and holding is not None and mine["partner"] not in holding:
        # copying nothing is worth 0.00, which read as a partnership worth nothing: it
        # copies one of the partner's tickets, and the partner holds none yet
        lines.append(_("Partnership for %(player)s: with %(partner)s this leg, but "
                       "%(partner)s holds no leg or pyramid ticket yet, so it pays "
                       "%(player)s nothing this leg unless %(partner)s takes one "
                       "(RULES 3.8)") % {"player": player, "partner": mine["partner"]})
    elif mine is not None:
        lines.append(_("Partnership for %(player)s: with %(partner)s this leg, copying "
                       "%(partner)s's best ticket is worth %(coins)s now (RULES 3.8)") % {
                           "player": player, "partner": mine["partner"],
                           "coins": signed(mine["ev"])})
    return lines


def read_words(piles):
    """``--read``'s text for ``piles`` (``{pile: {colour: count}}``, as
    ``camelhost.coach.piles_as_read`` gives them): ``winner green 1, blue 1; loser
    yellow 3, red 1``, the counts to the hundredth with a dot (typed back as they are),
    ``""`` for none."""
    parts = []
    for pile in ("winner", "loser"):
        counts = piles.get(pile)
        if counts:
            parts.append("%s %s" % (pile, ", ".join(
                "%s %s" % (c, ("%.2f" % n).rstrip("0").rstrip(".")) for c, n in
                sorted(counts.items(), key=lambda cn: (-cn[1], cn[0])))))
    return "; ".join(parts)



def position_line(session):
    """The ``position`` command: the position in the project notation, ready to paste
    into ``pyramid odds`` (docs/notation.md), then the whole command, quoted for a
    POSIX shell, with the players' names for the notation's seats (``pyramid odds
    '<position>' --players Ann,Ben,Cy``, the names as ``pyramid play`` took them, a name
    with a space quoted: ``--players 'Ann Marie,Ben,Cy'``). Until the race is over the
    finish piles are written as their sizes only (``winner 2 | loser 1``, the public
    form): their colours and owners are hidden (RULES 5). A table speaking another
    language than English adds its ``--lang`` (German ``--lang de``). Two lines, one
    string. While a player's pyramid ticket waits for its die (or its ink or value), the
    line is the position before that ticket (the notation holds a ticket only with its
    die), a line between says so as ``show`` counts it, and the command adds
    ``--waiting``, so that the odds count the ticket and value no choice (that
    player's is made; the next comes after the die, as ``best`` says): three lines."""
    if session.game is None:
        return _("No position yet: the setup comes first")
    text = position_text(session.game, public=not session.game.is_over)
    command = _("pyramid odds %s") % shlex.quote(text)
    game = session.game
    if not game.is_over and (game.pile("winner") or game.pile("loser")):
        # the finish cards as the advice reads them, so the odds value them as it does
        # (tester s37tp finding 5: without it the pasted odds gave other figures)
        read = read_words(piles_as_read(game))
        if read:
            command += " --read %s" % shlex.quote(read)
    if not game.is_over:  # the table's race odds, so the pasted figures are its own
        command += _(" --seed %(seed)d --samples %(samples)d") % {"seed": session.seed,
                                                                  "samples": RACE_SAMPLES}
    command += _(" --players %s") % shlex.quote(",".join(session.names))
    waiting = session.pending_player
    if waiting is not None:
        command += " --waiting"
    # the odds in the table's language, as its quit line resumes
    command += "".join(" " + word for word in language_option())
    if waiting is None:
        return "%s %s\n%s" % (_(POSITION_LABEL), text, command)
    left = session.game.pyramid_tickets_left
    note = (_("%(who)s's pyramid ticket waits for its die: the line above is the position "
              "before it (the notation counts a pyramid ticket with its die: %(line)d left "
              "there, %(table)d at the table); with --waiting the odds count it and value "
              "no choice until the die is out")
            % {"who": session.names[waiting], "line": left, "table": left - 1})
    return "%s %s\n%s" % (_(POSITION_LABEL), text, note + "\n" + command)
