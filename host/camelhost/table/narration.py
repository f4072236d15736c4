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

from camelup.editions import get_edition
from camelup.errors import Message
from camelup.game import setup_space
from camelup.notation import position_text

from camelhost.i18n import (
    N_,
    _,
    colour_list,
    colour_word,
    colour_words,
    colours_in,
    decimal,
    grouped,
    language,
    ngettext,
    percent,
    pgettext,
)
from camelhost.table.manual import die_text
from camelhost.table.view import CRAZY_WHY, side_word, signed

#: What the table asks for when the dice are typed (no pyramid, or a die it lost).
#: (English here: shown through ``_()``, in the table's language.)
TYPE_DIE = N_("type the die that came out")
INK_QUESTION = N_("grey die: black or white numerals? (b/w, or 'again' to release again)")

_SEAT = re.compile(r"\bp(\d+)\b")
#: A printf conversion in a rules-engine template; group 1 its letter (``s``, ``r``...).
_SPEC = re.compile(r"%[-#0 +]*(?:\d+|\*)?(?:\.\d+)?([a-zA-Z%])")
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
    """``red`` / ``grey black`` / ``grey``: a die without its value."""
    return die_text(die).rsplit(" ", 1)[0]


def die_words(die):
    """A die as the table reads it, its colours in the table's language: ``red 2`` /
    ``rot 2``, ``grey black 3`` / ``grau schwarz 3`` (``die``: a die dict)."""
    return colours_in(die_text(die))


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
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cy``."""
    names = list(names)
    if len(names) <= 2:
        return _(" and ").join(names)
    return ", ".join(names[:-1]) + _(" and ") + names[-1]


#: The counted words the table says, each with its plural forms (``ngettext``).
_COUNTED = {
    "card": lambda n: ngettext("%d card", "%d cards", n),
    "coin": lambda n: ngettext("%d coin", "%d coins", n),
    "finish card": lambda n: ngettext("%d finish card", "%d finish cards", n),
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


def phase_hint(session):
    """What the table waits for now, as the reason a command can't be taken."""
    p = session.phase
    if p == "setup":
        return _("the setup comes first: release or type each camel's die, 'setup ...' or 'draw'")
    if p == "die":
        who = session.names[session.pending_player]
        if session.dice_typed:  # no pyramid: nothing to release
            return _("%s's pyramid ticket waits for its die: %s, like %s (or undo)") % (
                who, _(TYPE_DIE), example_die({
                    "edition": session.edition.name,
                    "dice_inside": list(session.game.dice_in_pyramid())}))
        return _("%s's pyramid ticket waits for its die: release it (or type it, or undo)") % who
    if p == "ink":
        return _(INK_QUESTION)
    if p == "value":
        return _("press 1, 2 or 3 for the value of the %s die") % colours_in(
            die_name(session.pending_die))
    if p == "over":
        return _("the race is over: 'again' starts another race with the same seats")
    if p == "unscored":
        return _("the race was ended unscored: 'again' starts another race")
    return _("it is %s's turn") % session.names[session.current]


def undone_steps(steps, names, edition=None):
    """What one ``undo`` took back, in words: ``steps``, a list of (events of one step,
    holder: the seat that acted), oldest first (a player's step, then the bots' after
    it); the player's step, the bots' moves, then which dice go back in the pyramid.
    Actions in the words the table says them with (``Ann's leg ticket on red``, a
    tile's side in ``edition``'s words: a ``camelup.editions.Edition``, default the
    second edition's). A finish card's colour stays hidden until the final reveal
    (RULES 1.8, 5)."""
    edition = get_edition("second") if edition is None else edition
    parts = [_undone_step(events, names, holder, edition) for events, holder in steps]
    text = parts[0][0]
    if len(parts) > 1:
        text += _(", and the bots' moves after it: %s") % ", ".join(p[0] for p in parts[1:])
    return text + _put_back([die for _, die in parts if die])


def _put_back(dice):
    """The clause that puts ``dice`` (colours) out on the table back in the pyramid."""
    if not dice:
        return ""
    if len(dice) == 1:
        return _("; put the %s die back in the pyramid") % colour_word(dice[0])
    return _("; put the %s and %s dice back in the pyramid") % (colour_list(dice[:-1]),
                                                                 colour_word(dice[-1]))


def _undone_action(action, who, names, edition):
    """An action taken back (its canonical text ``action``) in the table's words."""
    words = action.split()
    if words[0] == "leg" and len(words) == 2:
        return _("%(who)s's leg ticket on %(colour)s") % {"who": who, "colour": colour_word(words[1])}
    if words[0] == "tile" and len(words) == 3 and words[1].isdigit():
        return _("%(who)s's tile on space %(space)d, %(side)s side up") % {
            "who": who, "space": int(words[1]), "side": side_word(edition, words[2])}
    if words[0] == "partner" and len(words) == 2 and words[1].isdigit() and \
            int(words[1]) < len(names):
        return _("%(who)s's partnership with %(partner)s") % {
            "who": who, "partner": names[int(words[1])]}
    return with_names(_("%(who)s's %(action)s") % {"who": who, "action": action}, names)


def _undone_step(events, names, holder, edition):
    """(words, colour of a die it puts back in the pyramid or ``None``) for one step."""
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
        return _("'again' (the new race had not started): the race before is back as it "
                 "ended"), None
    if t == "action":
        words = first["action"].split()
        if words[0] == "finish":
            return _("%s's finish card on the %s pile") % (who, pile_word(words[1])), None
        return _undone_action(first["action"], who, names, edition), None
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
    # the die is out of the pyramid on the table: the undo counts it inside again
    if who is None:
        return _("the pyramid ticket and its die %s") % die_words(die), die["colour"]
    return (_("%(who)s's pyramid ticket and its die %(die)s") % {"who": who,
                                                                 "die": die_words(die)},
            die["colour"])


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
    lines = [_("Race %d set up (%s): %s") % (notice["race"], _setup_how(notice["how"]),
                                            _board_words(notice["stacks"]))]
    if notice["how"] == "dice" and view.get("dice_back_by_hand") and not past:
        lines.append(_("Put all the dice back in the pyramid for leg 1"))
    return lines


def placed_words(view):
    """The camels placed so far at setup, each with its space (RULES 2.2, 3.2):
    ``black on space 15, blue on space 1`` (``""`` before the first)."""
    return ", ".join(_("%s on space %d") % (colour_word(r["camel"]), r["space"]) for r in view["setup_rolls"])


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
    crazy = camel in get_edition(view["edition"]).crazy
    line = _("Setup: %s camel on space %d") % (colour_word(camel),
                                                setup_space(view["edition"], camel, value))
    missing = notice["missing"]
    if missing:
        line += _("; still to place: %s") % colour_list(missing)
    if crazy:  # the numeral colour typed or read is not the camel placed: say why
        line += _(" (at setup the grey die places %s, its numeral colour ignored, RULES "
                  "3.2)") % colour_list(get_edition(view["edition"]).crazy, _(" then "))
    again = grey_back_words(view) if crazy and not past else ""
    if again:
        line += "; " + again
    return [line]


def _pyramid_notice(notice, view, past):
    if notice.get("die"):  # a die released or typed without 'pyramid' first
        return [_("%s takes a pyramid ticket: %s") % (name(view, notice["player"]),
                                                   colours_in(notice["die"]))]
    if past:
        return [_("%s takes a pyramid ticket") % name(view, notice["player"])]
    if view.get("dice_typed"):  # no pyramid (--pyramid manual): the die is typed
        return [_("%s takes a pyramid ticket: %s") % (name(view, notice["player"]),
                                                       _(TYPE_DIE))]
    return [_("%s takes a pyramid ticket: release one die") % name(view, notice["player"])]


def _ask_ink_notice(notice, view, past):
    if past:  # the answer is the next line (the die, or a release again)
        return [_("GREY DIE (%s's pyramid ticket), numerals not read for sure (looked %s): "
                "black or white asked at the table") % (name(view, notice["player"]),
                                                        colour_word(notice["best"]))]
    return [_("GREY DIE (%s's pyramid ticket), numerals not read for sure (looked %s): "
            "black or white? press b or w, or type 'again' to release again")
            % (name(view, notice["player"]), colour_word(notice["best"]))]


def _ask_value_notice(notice, view, past):
    # the sentence's first letter up, not the colour's (German: "Würfel red ist heraus")
    if past:
        line = _("%s die came out, value not read: asked at the table") % colours_in(
            notice["die"])
    else:
        line = _("%s die is out, value unknown: press 1, 2 or 3") % colours_in(notice["die"])
    return [line[:1].upper() + line[1:]]


def _leaders_notice(notice, view, past):
    r = notice["ranking"]
    return ([_("Now leading: 1st %s, 2nd %s") % (colour_word(r[0]), colour_word(r[1]))]
            if len(r) >= 2 else [])


def _dice_left_notice(notice, view, past):
    dice = notice["dice"]
    shown = colour_list(dice)
    if notice["new_leg"]:
        if view.get("dice_back_by_hand") and not past:  # the virtual one does it itself
            return [_("New leg: put all the dice back in the pyramid (%s); tickets and "
                      "tiles returned") % shown]
        return [_("New leg: all dice back in the pyramid (%s); tickets and tiles returned")
                % shown]
    line = ngettext("Can still come out: %s", "Can still come out: %s", len(dice)) % shown
    if view["dice_left_inside"]:
        line += _(" (one stays inside)")
    return [line + _("; pyramid tickets left: %d") % view["pyramid_tickets_left"]]


def _retry_notice(notice, view, past):
    why = notice.get("why") or _("the release could not be read")
    if notice.get("grey_for"):  # setup: the grey die's second release
        camel = colour_word(notice["grey_for"])
        return [_("PUT THE GREY DIE BACK IN THE PYRAMID AND RELEASE AGAIN for the %s camel "
                  "(%s), or type 'grey %s 3' with its value") % (camel, _why(why), camel)]
    if notice.get("setup"):  # no pyramid ticket at setup
        return [_("RETURN THE DICE AND RELEASE AGAIN (%s)") % _why(why)]
    return [_("RETURN THE DICE AND RELEASE AGAIN (%s); the pyramid ticket already taken "
            "still covers this action") % _why(why)]


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
    "correction": lambda notice, view, past: [_("Board corrected: ")
                                              + _board_words(notice["stacks"])],
    "unscored": lambda notice, view, past: [_("Race %d ended unscored ('unscored' was "
                                              "typed)") % notice["race"]],
    "new_race": lambda notice, view, past: _new_race_lines(notice, view),
    "info": lambda notice, view, past: [notice["text"]],
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
        return _("%s takes the %s leg ticket worth %d (%s left: %s)") % (
            who, colour_word(t["colour"]), t["value"], colour_word(t["colour"]),
            ",".join(str(v) for v in left) or _("none"))
    if kind == "tile":
        t = r["tile"]
        side = side_name(view, t["side"])
        if t.get("from"):
            return _("%s moves the tile from space %d to space %d, %s side up") % (
                who, t["from"], t["space"], side)
        return _("%s places the tile on space %d, %s side up") % (who, t["space"], side)
    if kind == "finish":
        pile = r["action"].split()[1]
        return _("%s plays a finish card face down on the overall-%s pile (now %s)") % (
            who, pile_word(pile), plural(view["piles"][pile], "card"))
    if kind == "partner":
        return _("%s forms a partnership with %s") % (who, name(view, int(r["action"].split()[1])))
    return "%s: %s" % (who, r["action"])


def die_lines(notice, view):
    """The die announcement: die, camel, direction and distance, then the path."""
    m = notice["move"]
    who = name(view, notice["player"])
    die = (colour_word(m["die"]) if m["die"] != "grey"
           else _("grey (%s numeral)") % colour_word(m["ink"]))
    direction = _("forward") if m["direction"] > 0 else _("backward (counterclockwise)")
    why = CRAZY_WHY.get(m.get("rule"))
    why = " (%s)" % _(why) if why else ""
    spaces = ngettext("%d space", "%d spaces", m["distance"]) % m["distance"]
    lines = [_("DIE %s %d (%s's pyramid ticket): the %s camel%s moves %s %s") % (
        die, m["value"], who, colour_word(m["camel"]), why, direction, spaces)]
    if m["unit"][1:]:
        lines.append(_("  carrying %s") % colour_list(m["unit"][1:]))
    tile = m.get("tile")
    if tile:  # the move, then the tile, then where the unit ends (RULES 1.5)
        side = side_name(view, tile["side"])
        owner = name(view, tile["owner"])
        lines.append(_("  from space %d to space %d") % (m["from"], tile["space"]))
        lines.append(_("  lands on %s's %s tile there: %s +1 coin") % (owner, side, owner))
        under = _(" underneath") if m["under"] else ""
        if m["crossed"]:
            lines.append(_("  then on across the finish line: the race is over"))
        elif m["to"] == m["from"]:
            lines.append(_("  then back to space %d%s, where it started") % (m["to"], under))
        elif tile["side"] == "+":
            lines.append(_("  then on to space %d%s") % (m["to"], under))
        else:  # the words of view.move_path: back one space, under what is there
            lines.append(_("  then back 1 to space %d%s") % (m["to"], under))
    elif m["crossed"]:
        lines.append(_("  from space %d across the finish line: the race is over") % m["from"])
    else:
        lines.append(_("  from space %d to space %d") % (m["from"], m["to"]))
    return lines


def leg_lines(notice, view):
    """LEG n SCORED, then one line per player: each ticket and what it paid."""
    r = notice["ranking"]
    lines = [_("LEG %d SCORED: 1st %s, 2nd %s") % (
        notice["leg"], colour_word(r[0]), colour_word(r[1]) if len(r) > 1 else "-")]
    for row in notice["scores"]:
        items = []
        for it in row["items"]:
            if it["kind"] == "leg":
                items.append(_("%s %d ticket %s") % (colour_word(it["colour"]), it["value"],
                                                     _signed(it["reward"])))
            elif it["kind"] == "pyramid":
                items.append(_("pyramid ticket +1"))
            else:
                items.append(_("copied from %s %s") % (name(view, it["from"]), _signed(it["reward"])))
        lines.append(_("  %s: %s => net %s, %d -> %d") % (
            name(view, row["player"]), ", ".join(items) or _("nothing"), _signed(row["net"]),
            row["before"], row["after"]) + forgiven(row["before"], row["net"], row["after"]))
    return lines


def forgiven(before, net, after):
    """The clause said after a payment the zero floor cut short (RULES 1.9: a loss that
    can't be paid is forgiven): `` (1 coin forgiven: nobody goes below 0, RULES 1.9)``
    when ``before`` + ``net`` (coins) is below ``after``, else ``""``."""
    lost = after - (before + net)
    if lost <= 0:
        return ""
    return ngettext(" (%d coin forgiven: nobody goes below 0, RULES 1.9)",
                    " (%d coins forgiven: nobody goes below 0, RULES 1.9)", lost) % lost


def final_lines(notice, view):
    """RACE n OVER, each finish pile revealed in play order, the final scores."""
    f = notice["final"]
    lines = [_("RACE %d OVER: overall winner %s, overall loser %s") % (
        notice["race"], colour_word(f["winner"]), colour_word(f["loser"]))]
    if view.get("ranking"):
        lines.append(_("Final order of the camels: %s") % colour_list(view["ranking"]))
    for pile in ("winner", "loser"):
        cards = [c for c in f["cards"] if c["pile"] == pile]
        lines.append(_("%s pile revealed in play order:%s") % (
            pile_word(pile).capitalize(), "" if cards else _(" empty")))
        for i, c in enumerate(cards, 1):
            lines.append("  %d. %s %s: %s %s (%d -> %d)" % (
                i, name(view, c["player"]), colour_word(c["colour"]),
                _("correct, place %d") % c["place"] if c["correct"] else _("wrong"),
                _signed(c["reward"]), c["before"], c["after"])
                + forgiven(c["before"], c["reward"], c["after"]))
    names = [p["name"] for p in view["players"]]
    lines.append(final_scores_line(names, f["coins"], f["winners"]))
    lines.append(final_ranking_line(names, f["coins"]))
    return lines


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
    lines = [_("Race %d is over (leg %d): overall winner %s, overall loser %s") % (
        view["race"], view["leg"], colour_word(f["winner"]), colour_word(f["loser"]))]
    for pile in ("winner", "loser"):
        cards = f["piles"][pile]
        lines.append(_("%s pile: %s") % (pile_word(pile).capitalize(), ", ".join(
            "%s %s %s" % (c["name"], colour_word(c["colour"]), _signed(c["reward"]))
            for c in cards)
            or _("empty")))
    lines.append(final_ranking_line(names, f["coins"]))
    return lines


def final_scores_line(names, coins, winners):
    """``FINAL SCORES: Ann 12, Ben 7 | winner: Ann`` (a tie names every winner)."""
    return ngettext("FINAL SCORES: %s | winner: %s", "FINAL SCORES: %s | winners: %s",
                    len(winners)) % (
        ", ".join("%s %d" % (names[i], coins[i]) for i in range(len(names))),
        name_list(names[i] for i in winners))


def last_die_line(view):
    """``Last die: red 2 (Ann): red camel forward 2, space 3 to 5``; a tile landed on is
    told with its effect (``..., space 14 to 15, back 1 to 14 on Bob's booing tile``,
    the wording of ``camelhost.table.view.move_path``)."""
    d = view["last_die"]
    die = (_("grey %s") % colour_word(d["ink"]) if d["colour"] == "grey"
           else colour_word(d["colour"]))
    return _("Last die: %s %d (%s): %s camel %s %d, %s") % (
        die, d["value"], d["player"], colour_word(d["camel"]),
        _("forward") if d["direction"] > 0 else _("backward"), d["distance"], d["path"])


def resumed_lines(view, path, count):
    """What the table says after ``--resume``: how many events were restored from the
    journal at ``path``, and the last die (so the players can check the board)."""
    lines = [ngettext("resumed %s: %d event restored (race %d, %s)",
                      "resumed %s: %d events restored (race %d, %s)", count) % (
        path, count, view["race"],
        _("setup") if view["phase"] == "setup" else _("leg %d") % view["leg"])]
    if view["last_die"]:
        lines.append(last_die_line(view))
    if grey_back_words(view):  # said when the grey die came out: said again
        lines.append(grey_back_words(view)[:1].upper() + grey_back_words(view)[1:])
    return lines


def odds_lines(view):
    """The ``odds`` command: leg odds 1st/2nd/last of every racing camel, then the
    overall winner and loser odds with their 95 % interval's half-width, written ``±``
    as the screens write it (``blue 38% ±1.2``; RULES 1.10, 1.13)."""
    odds = view["odds"]
    if odds is None:
        return [_("No odds now (%s)") % (_("setup") if view["phase"] == "setup"
                                          else _("race over"))]
    lines = [_("Leg odds: ") + "; ".join(
        _("%s 1st %s 2nd %s last %s") % (
            colour_word(r["colour"]), percent(r["first"]), percent(r["second"]),
            percent(r["last"]))
        for r in sorted(odds["leg"], key=lambda r: -r["first"]))]
    race = odds["race"]
    if race is not None:
        for pile in ("winner", "loser"):
            rows = sorted(race[pile], key=lambda r: -r["p"])
            how = _("exact") if race["exact"] else _("%s races simulated, %s interval") % (
                grouped(race["samples"]), percent(0.95))
            lines.append(_("Overall %s odds (%s): %s") % (pile_word(pile), how, "; ".join(
                "%s %s%s" % (colour_word(r["colour"]), percent(r["p"]),
                                 "" if race["exact"] else " \u00b1%s" % decimal(100 * r["hw"], 1))
                for r in rows)))
    return lines


def advice_note(values):
    """The line under the advice (``values``: the view's action entries shown, in their
    order): what its numbers are and which one orders it (the first, ``view.advice_value``):
    "overall", the coach's score (the coins now less what the next players gain before the
    player's next turn, a finish card's less what it is worth kept for a later leg); in
    the end-game the chance to win, for the best few; "now", the coins expected from the
    action itself. With a finish card listed: it is named by its pile only, and the player
    chooses its colour unseen (the table reads the advice, RULES 1.8)."""
    if any(v.get("win") is not None for v in values):
        note = _("(in the coach's order: the race likely ends this leg, so the first are "
                 "ordered by your chance to win, each played out from what the table can "
                 "see, the rest by overall value: the coins now less what the next "
                 "players gain before your turn; now: what the action pays on its own")
    elif any(v.get("score") is not None for v in values):
        note = _("(in the coach's order: by overall value, the coins now less what the "
                 "next players gain before your turn, and for a finish card less what it "
                 "is worth kept for a later leg; now: what the action pays on its own")
    else:
        note = _("(best value now first")
    if any(v["kind"] == "finish" for v in values):
        note += _("; a finish card by its pile only: type 'win' or 'lose' alone and "
                  "choose its colour unseen")
    return note + ")"


def best_lines(view, count=6):
    """The ``best`` command: the value in coins of the best actions for the player to
    act in the coach's order, best first (finish cards as if the player still held
    every colour, by pile only: the screen is shared; nothing while a die is being
    read); with
    partnerships in
    play, a second line values each partner on offer by name, or the partnership the
    player already has."""
    odds = view["odds"]
    if view["phase"] in ("die", "value", "ink"):
        # a pyramid ticket is being played out: the die comes first, then the next turn
        return [_("No advice while a die is being read: it comes with the next turn")]
    if odds is None or not odds["actions"] or not odds["actions"]["values"]:
        return [_("No action values now")]
    acts = odds["actions"]
    shown = acts["values"][:count]
    lines = [_("Best for %s: %s") % (acts["player"], "; ".join(v["text"] for v in shown)),
             advice_note(shown)]
    # partnerships (second edition, 6-8 players, RULES 3.8): every partner on offer,
    # by name, even when none makes the top of the list
    offers = [v for v in acts["values"] if v["kind"] == "partner"]
    if offers:
        lines.append(_("Partnership for %s (the partner's best ticket to copy): %s") % (
            acts["player"], "; ".join("%s %s" % (v["partner"], signed(v["ev"])) for v in offers)))
    mine = acts.get("partnership")
    if mine is not None:
        lines.append(_("Partnership for %s: with %s this leg, copying %s's best ticket is "
                     "worth %s now (RULES 3.8)") % (acts["player"], mine["partner"],
                                                      mine["partner"], signed(mine["ev"])))
    return lines


def position_line(session):
    """The ``position`` command: the position in the project notation, ready to paste
    into ``pyramid odds`` (docs/notation.md), then the whole command, quoted for a
    POSIX shell, with the players' names for the notation's seats (``pyramid odds
    '<position>' --players Ann,Ben,Cy``, the names as ``pyramid play`` took them, a name
    with a space quoted: ``--players 'Ann Marie,Ben,Cy'``). Until the race is over the
    finish piles are written as their sizes only (``winner 2 | loser 1``, the public
    form): their colours and owners are hidden (RULES 5). A table speaking another
    language than English adds its ``--lang`` (German ``--lang de``). Two lines, one
    string."""
    if session.game is None:
        return _("No position yet: the setup comes first")
    text = position_text(session.game, public=not session.game.is_over)
    command = _("pyramid odds %s") % shlex.quote(text)
    command += _(" --players %s") % shlex.quote(",".join(session.names))
    if language() != "en":  # the odds in the table's language, as its quit line resumes
        command += " --lang %s" % language()
    return _("Position: %s\n%s") % (text, command)
