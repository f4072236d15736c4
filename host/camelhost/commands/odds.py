"""``pyramid odds "<position>"``: exact leg odds, tile landings, best tile, ranked
action values and race odds for a position in the project's notation
(docs/notation.md; docs/odds.md for the figures), or a board in the short form of
docs/notation.md (``"2:[R,Y,P] 9:[G] 13:[B] 14:[K,W] 3:-" --dice G,B``, read by
``camelup.notation.read_board``, as scenario files' boards are).

Exit status 0; a position that does not parse is reported as ``pyramid: ...`` with
status 1 (the CLI's ``ValueError`` path).
"""

import argparse
import gettext
import sys
import time

from camelup.editions import DICE_PER_LEG, get_edition
from camelup.errors import NotationError
from camelup.game import Game, parse_position
from camelup.notation import BOARD_LETTERS, board_edition, read_board
from camelup.odds import best_tile, leg_odds
from camelup.odds.actions import action_values
from camelup.odds.game import position_from_game
from camelup.odds.race import race_odds

from camelhost.coach import finish_value_as_read
from camelhost.commands.options import (
    SEAT_NAMES,
    add_edition_argument,
    add_old_spelling,
    add_seats_argument,
    add_seed_argument,
    metavar,
    seat_names,
)
from camelhost.errors import CliError
from camelhost.i18n import (
    DOMAIN,
    LOCALE_DIR,
    N_,
    _,
    colour_list,
    colour_word,
    colours_in,
    decimal,
    edition_word,
    grouped,
    languages,
    ngettext,
    percent,
    pgettext,
)
from camelhost.table.narration import POSITION_LABEL
from camelhost.table.view import action_text, finish_command, side_word

HELP = N_("Exact leg odds, tile landings, best tile, action values and race odds of a position.")


def add_arguments(parser):
    parser.add_argument("position", metavar=metavar("position"), help=_("position text, as the table prints it (its 'Position:' line, label and all) or the journal holds it "
                                           "(quote it: it holds spaces and |), or a board in the short form "
                                           "of docs/notation.md: \"2:[R,Y,P] 9:[G] 13:[B] 14:[K,W] 3:-\" "
                                           "(a stack also as the position line writes it: 2:R,Y,P)"))
    add_edition_argument(parser, _("short board form: the edition, when the colours do not say "
                                   "it (red, purple, black or the grey die: second; orange: "
                                   "classic)"), default=None, default_words="")
    parser.add_argument("--dice", dest="pyramid", metavar=metavar("DICE"),
                        help=_("short board form: dice still inside, e.g. G,B or blue,grey "
                               "(default: all; second: k inside, k-1 revealed; classic: all rolled)"))
    # the older spelling: in play --pyramid names the device
    add_old_spelling(parser, "--pyramid", "--dice", "pyramid")
    parser.add_argument("--players", type=_players, metavar=metavar("NAMES"),
                        help=_("the players' names in seat order, comma-separated, as in play "
                               "(e.g. Ann,Bob,Cid; default: Ann, Ben, Cy, ... for the seats "
                               "p0, p1, ... of the notation); their number is the short board "
                               "form's number of seats"))
    add_old_spelling(parser, "--names", "--players", "players", type=_players)
    add_seats_argument(parser, default=None, default_words=_(
        "the number of --players, else the edition's fewest, or enough for the tile owners "
        "named"), what=_("short board form: number of seats"))
    parser.add_argument("--turn", metavar=metavar("PLAYER"), help=_("short board form: who is to act, by name or seat "
                                         "(Ben or p1; default the first seat)"))
    add_seed_argument(parser, _("race simulation seed"))
    parser.add_argument("--samples", type=int, default=None, metavar=metavar("N"),
                        help=(_("races to simulate (default: as many as it takes for every "
                                "%(level)s interval of the race odds to be within ±%(points)s "
                                "points)") % {"level": percent(0.95), "points": decimal(0.5, 1)}
                              ).replace("%", "%%"))
    parser.add_argument("--top", type=_top, default=12, metavar=metavar("N"),
                        help=_("how many ranked actions to show (default 12; 0 = all)"))
    parser.add_argument("--timing", action="store_true", help=_("show how long each part took"))
    parser.add_argument("--waiting", action="store_true",
                        help=_("the player to act has taken a pyramid ticket whose die is "
                               "still to come (the table's 'position' adds it while one "
                               "waits): the ticket is counted, the odds are those the die "
                               "and the rest of the leg decide, and no choice is valued "
                               "until the die is out (RULES 1.7)"))
    parser.add_argument("--read", type=_read, default=None, metavar=metavar("PILES"),
                        help=_("the finish cards on the piles as the table's advice reads "
                               "them (its 'position' line adds it): how many cards of each "
                               "pile are read as each colour, e.g. 'winner green 1, blue 1; "
                               "loser yellow 3, red 1'; a finish card is then valued behind "
                               "the cards read as its colour, as the table values it "
                               "(default: each hidden card taken as a card's colour by that "
                               "colour's chance)"))
    parser.add_argument("--later-tiles", action="store_true",
                        help=_("race the later legs with the edition's tiles placed as the bots "
                               "were measured to place them (about 1.5x the time; default: later "
                               "legs without tiles)"))


def _top(text):
    """``--top``: a whole number >= 0 (0 = all)."""

    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0 or len(text) > 4:
        raise argparse.ArgumentTypeError(_("give a whole number of actions, 0 or more (0 = all), not %r")
                                         % text)
    return value


def _read(text):
    """``--read``: the piles as the table reads them, ``winner green 1, blue 1; loser
    yellow 3, red 1`` (a pile's name, then colour and count pairs, comma-separated; the
    piles separated by ``;``; counts >= 0, a dot for a fraction: a card the table reads
    as any colour by a chance counts a part of one) -> ``{pile: {colour: count}}``, the
    colours as typed (``run`` checks them against the edition). The table's ``position``
    line writes it (``camelhost.table.narration.read_words``)."""
    out = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        pile, _sep, rest = part.partition(" ")
        if pile not in ("winner", "loser") or pile in out:
            raise argparse.ArgumentTypeError(
                _("each part names a pile once, winner or loser, then its colours and "
                  "counts, like 'winner green 1, blue 1; loser yellow 3': not %r") % part)
        counts = out[pile] = {}
        for pair in rest.split(","):
            words = pair.split()
            try:
                count = float(words[1]) if len(words) == 2 else -1.0
            except ValueError:
                count = -1.0
            if count < 0 or words[0] in counts:
                raise argparse.ArgumentTypeError(
                    _("give each colour once with its count of cards (0 or more), like "
                      "'yellow 3' or 'red 0.5': not %r") % pair.strip())
            counts[words[0]] = count
    return out


def _players(text):
    """``--players``: comma-separated names, as ``pyramid play --players`` takes them
    (each stripped, read without one pair of quotation marks around it, which are read
    before the commas: ``typed_names``; none with a comma,
    none empty, none twice, letter case aside, none a name a new table
    refuses: ``camelhost.table.session.new_name_problem``, a seat, a colour or command
    word in any table language, too wide); a bare number is the count ``--players`` was
    before it took names (an int: ``run`` says it is ``--seats`` now)."""

    from camelhost.table.session import TableError, new_name_problem, typed_names
    if text.strip().isdigit() and len(text.strip()) <= 2:
        return int(text)
    try:
        out = typed_names(text)  # as the table reads new names: quotation marks first
    except TableError as exc:  # a name with a comma
        raise argparse.ArgumentTypeError(str(exc)) from None
    for name in out:
        if not name:
            raise argparse.ArgumentTypeError(_("give names separated by commas, like Ann,Bob,Cid "
                                             "(none empty), not %r") % text)
        if [n.lower() for n in out].count(name.lower()) > 1:
            raise argparse.ArgumentTypeError(_("%s is named twice") % name)
        # the one rule of a new table's names (``pyramid play --players``, ``rename``): a
        # seat ('--turn p1' would read it as one), a colour or command word at any table
        problem = new_name_problem(name, out)
        if problem is not None:
            raise argparse.ArgumentTypeError(problem)
    return out


def position_labels():
    """The label of the table's ``position`` line (``narration.POSITION_LABEL``) in every
    language the catalogue has, lower case, longest first: ``["stellung:", "position:"]``.
    A pasted line may start with any of them, whatever language the odds are read in."""
    labels = {POSITION_LABEL.lower()}
    for code in languages():
        if code != "en":
            catalogue = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
            labels.add(catalogue.gettext(POSITION_LABEL).strip().lower())
    return sorted(labels, key=lambda label: (-len(label), label))


def strip_position_label(text):
    """``text`` (a position as pasted) without the ``position`` line's label in front, in
    whichever language the table printed it (``position_labels``); stripped of spaces."""
    text = text.strip()
    for label in position_labels():
        if text[:len(label)].lower() == label:
            return text[len(label):].strip()
    return text


def _pct(x):
    return percent(x, 1)


def report(game, seed=1, samples=None, top=12, timing=False, unowned=(), later_tiles=False,
           names=None, waiting=False, read=None):
    """The text ``pyramid odds`` prints for ``game`` (a ``camelup.game.Game``), as a list of
    lines. ``samples``: races to simulate; ``None``: until every 95 % half-width of the
    race odds is at most half a point (``camelup.odds.race.TARGET``). ``unowned``:
    spaces of tiles given without an owner (shown without one). ``later_tiles``: the
    race odds' later legs carry the measured tiles (``camelup.odds.race.LATER_TILES``).
    ``names``: the players' names by seat (else ``camelhost.commands.options.seat_names``:
    Ann, Ben, ...; never the notation's seat numbers ``p0``, ...). ``waiting``: the
    player to act has taken a pyramid ticket whose die is still to come (the table's
    ``position`` says so while one waits; the notation holds a ticket only with its
    die): the report counts that ticket and values no choice (that player's is made,
    the next player's comes after the die), with the leg and race odds as they are.
    ``read``: the finish piles as the table reads them (``--read``, ``{pile: {colour:
    cards read as it}}``): each finish card is then valued behind the cards read as its
    colour (``camelhost.coach.finish_value_as_read``), as the table's advice values it;
    without it each hidden card counts as a card's colour by that colour's chance
    (``camelup.odds.actions.finish_card_ev``, as the ``ev`` bots value theirs).
    Raises ``CliError`` for ``waiting`` once the race is over (a position before its
    end always has a pyramid ticket left: fewer than five dice are out)."""
    if waiting and game.is_over:
        raise CliError(_("--waiting: the race is over in this position, so no pyramid "
                         "ticket waits for a die"), 2)
    if not names:
        names = seat_names(game.players)

    def who(seat):
        return names[seat]

    lines = []
    clock = time.perf_counter
    position = position_from_game(game)
    t0 = clock()
    leg = leg_odds(position)
    t1 = clock()
    race = race_odds(position, seed=seed, samples=samples, leg=leg, later_tiles=later_tiles)
    t2 = clock()
    values = action_values(game, race=race, leg=leg) if not waiting else None
    if values and read is not None:
        values = _as_read(values, read)
    t3 = clock()
    tile = best_tile(position, game.turn) if not game.is_over and not waiting else None
    t4 = clock()

    edition = game.edition
    inside = colour_list(position.dice) or _("none")
    if game.is_over:  # no die comes out, but the dice are still in the pyramid (RULES 1.13)
        lines.append(_("%(edition)s edition, leg %(leg)d: the race is over, no die comes out "
                       "(dice still inside: %(inside)s)") % {
                           "edition": edition_word(edition), "leg": game.leg,
                           "inside": colour_list(game.dice_in_pyramid()) or _("none")})
    elif waiting:
        lines.append(ngettext(
            "%(edition)s edition, leg %(leg)d, %(player)s's pyramid ticket waits for its die; "
            "dice inside: %(inside)s; %(reveals)d to come out",
            "%(edition)s edition, leg %(leg)d, %(player)s's pyramid ticket waits for its die; "
            "dice inside: %(inside)s; %(reveals)d to come out", position.reveals)
            % {"edition": edition_word(edition), "leg": game.leg, "player": who(game.turn),
               "inside": inside, "reveals": position.reveals})
    else:
        lines.append(ngettext("%(edition)s edition, leg %(leg)d, %(player)s to act; dice "
                              "inside: %(inside)s; %(reveals)d to come out",
                              "%(edition)s edition, leg %(leg)d, %(player)s to act; dice "
                              "inside: %(inside)s; %(reveals)d to come out",
                              position.reveals)
                     % {"edition": edition_word(edition), "leg": game.leg,
                        "player": who(game.turn), "inside": inside,
                        "reveals": position.reveals})
    lines.append("")
    lines.append(_outcomes(leg.total))
    lines.append("  %-8s %7s %7s %7s   %7s %7s" % (_("camel"), _("1st"), _("2nd"), pgettext("odds column", "last"),
                                                    _("win"), _("lose")))
    order = sorted(leg.first, key=lambda c: (-leg.first[c], c))
    for c in order:
        lines.append("  %-8s %7s %7s %7s   %7s %7s" % (
            colour_word(c), _pct(leg.first[c] / leg.total), _pct(leg.second[c] / leg.total),
            _pct(leg.last[c] / leg.total), _pct(race.winner[c]), _pct(race.loser[c])))
    if leg.finished:
        lines.append(_("  the race ends during this leg in %s of outcomes")
                     % _pct(leg.finished / leg.total).strip())
    if race.exact:
        lines.append(_("  race odds exact (the race ends this leg in every outcome)"))
    else:
        lines.append(_("  race odds: %(races)s simulated races, seed %(seed)d, %(level)s CI "
                       "±%(points)s points%(stopped)s%(tiles)s")
                     % {"races": grouped(race.samples), "seed": race.seed,
                        "level": percent(0.95), "points": decimal(100 * race.half_width, 2),
                        "stopped": _(" (stopped at the interval)") if samples is None else "",
                        "tiles": _("; later legs with tiles") if later_tiles else ""})
    lines += _tile_lines(game, position, leg, tile, unowned, who)
    lines.append("")
    if waiting:
        lines.append(_("%(who)s's choice is made: a pyramid ticket, +1 at leg scoring (RULES "
                       "1.7); pyramid tickets left: %(left)d. No choice is valued until its "
                       "die is out: the next is %(next)s's")
                     % {"who": who(game.turn), "left": game.pyramid_tickets_left - 1,
                        "next": who((game.turn + 1) % game.players)})
    else:
        lines += _action_lines(game, values, top, who, read)
    if timing:
        lines.append("")
        lines.append(_("timing: leg odds %(leg)s ms, race odds %(race)s ms, action values "
                       "%(values)s ms, best tile %(tile)s ms") % {
                           "leg": decimal(1e3 * (t1 - t0), 1), "race": decimal(1e3 * (t2 - t1), 1),
                           "values": decimal(1e3 * (t3 - t2), 1),
                           "tile": decimal(1e3 * (t4 - t3), 1)})
    return lines


def _tile_lines(game, position, leg, tile, unowned, who):
    """``report``'s lines of the tiles on the board (expected landings) and of the best
    tile for the player to act (``tile``: ``best_tile``'s, or ``None``)."""
    lines = []
    edition = game.edition
    if position.tiles:
        lines.append("")
        lines.append(_("Tiles on the board (expected landings = expected coins this leg)"))
        for space in sorted(position.tiles):
            side = position.tiles[space]
            name = side_word(edition, side)
            owner = position.tile_owners.get(space)
            held = "" if owner is None or space in unowned else " (%s)" % who(owner)
            lines.append(_("  %(tile)-9s on %(space)2d%(owner)s: %(landings)s") % {
                "tile": name, "space": space, "owner": held,
                "landings": decimal(leg.landings.get(space, 0) / leg.total, 3)})
    if tile is not None:
        space, side, expected = tile
        name = side_word(edition, side)
        lines.append("")
        if expected > 0:
            lines.append(_("Best tile for %(player)s: %(tile)s on %(space)d, %(landings)s "
                           "expected landings") % {"player": who(game.turn), "tile": name,
                                                   "space": space,
                                                   "landings": decimal(expected, 3)})
        else:
            lines.append(_("Best tile for %s: none (no camel lands on a free space in any "
                           "outcome left this leg)") % who(game.turn))
        for own in sorted(position.tiles):
            if position.tile_owners.get(own) == game.turn and own not in unowned:
                now = leg.landings.get(own, 0) / leg.total
                verdict = _("move it") if expected > now else _("better left where it is")
                lines.append(_("  (%(player)s's tile on %(space)d earns %(landings)s where it "
                               "is: %(verdict)s)") % {"player": who(game.turn), "space": own,
                                                      "landings": decimal(now, 3),
                                                      "verdict": verdict})
    return lines


def _as_read(values, read):
    """``values`` (``ActionValue``, best first) with each finish card valued behind the
    cards ``read`` (``--read``) gives as its colour (``facts["read"]``, said as ``3 read
    as yellow``), best first again: the table's valuation (``camelhost.coach``)."""
    for av in values:
        if av.kind == "finish":
            ahead = read.get(av.facts["pile"], {}).get(av.facts["colour"], 0.0)
            av.ev = finish_value_as_read(av.facts["p"], ahead)
            av.facts = dict(av.facts, read=ahead)
    return sorted(values, key=lambda av: (-av.ev, av.action))


def _action_lines(game, values, top, who, read=None):
    """``report``'s lines of the actions, best first (``top`` of them; 0: all); ``read``:
    the piles as ``--read`` gave them, or ``None``."""
    if not values:
        return [_("No actions: the race is over.")]
    lines = []
    shown = values if top <= 0 else values[:top]
    lines.append(_("Actions for %s, best first (EV in coins)") % who(game.turn))
    for i, v in enumerate(shown):
        action, reason = v.action, action_text(v, game.edition, who)
        if v.kind == "partner":  # the engine's seat index: the partner by name
            action = "partner %s" % who(v.facts["player"])
            reason = reason.split(": ", 1)[1]  # the reason names the action: say it once
        if v.kind == "finish":  # as the table takes it: win red / lose red
            action = finish_command(v.facts["pile"], v.facts["colour"])
        if v.kind != "partner":  # in the colour words the table takes (German leg lila)
            action = colours_in(action)
        lines.append("  %2d. %-22s %s" % (i + 1, action, reason))
    if any(v.kind == "finish" for v in shown) and (game.pile("winner")
                                                    or game.pile("loser")):
        if read is None:
            lines.append(_("  (the others' finish cards count by number only: hidden, RULES "
                           "1.8)"))
            lines.append(_("  (each hidden card taken as a card's colour by that colour's "
                           "chance; the table's advice reads them from who laid which pile "
                           "and when, and its 'position' line adds that reading as --read: "
                           "with it these figures are the table's)"))
        else:
            lines.append(_("  (the cards on the piles read as --read gives them, the table's "
                           "reading of who laid which pile and when: the table's figures)"))
    if len(shown) < len(values):
        lines.append(_("  ... %d more (--top 0 shows all)") % (len(values) - len(shown)))
    return lines


def leg_report(position, note):
    """Leg odds only (a case-file board that leaves camels out or names labels: the
    race odds and action values need a whole game), as a list of lines."""
    lines = []
    leg = leg_odds(position)
    inside = colour_list(position.dice) or _("none")
    lines.append(ngettext("%(edition)s edition; dice inside: %(inside)s; %(reveals)d to come "
                          "out", "%(edition)s edition; dice inside: %(inside)s; %(reveals)d to "
                          "come out", position.reveals)
                 % {"edition": edition_word(position.edition), "inside": inside,
                    "reveals": position.reveals})
    lines.append(note)
    lines.append("")
    lines.append(_outcomes(leg.total))
    lines.append("  %-8s %7s %7s %7s" % (_("camel"), _("1st"), _("2nd"),
                                           pgettext("odds column", "last")))
    for c in sorted(leg.first, key=lambda c: (-leg.first[c], c)):
        lines.append("  %-8s %7s %7s %7s" % (colour_word(c), _pct(leg.first[c] / leg.total),
                                             _pct(leg.second[c] / leg.total),
                                             _pct(leg.last[c] / leg.total)))
    if leg.finished:
        lines.append(_("  the race ends during this leg in %s of outcomes")
                     % _pct(leg.finished / leg.total).strip())
    ed = get_edition(position.edition)
    names = (side_word(ed, 1), side_word(ed, -1))
    if position.tiles:
        lines.append("")
        lines.append(_("Tiles on the board (expected landings = expected coins this leg)"))
        for space in sorted(position.tiles):
            name = names[0] if position.tiles[space] > 0 else names[1]
            lines.append(_("  %(tile)-9s on %(space)2d: %(landings)s") % {
                "tile": name, "space": space,
                "landings": decimal(leg.landings.get(space, 0) / leg.total, 3)})
    tile = best_tile(position, None)
    if tile is not None:
        space, side, expected = tile
        lines.append("")
        if expected > 0:
            lines.append(_("Best new tile: %(tile)s on %(space)d, %(landings)s expected "
                           "landings") % {"tile": names[0] if side > 0 else names[1],
                                          "space": space, "landings": decimal(expected, 3)})
        else:
            lines.append(_(_NO_TILE_WORTH))
    return lines


#: What the report says instead of a best tile worth nothing: no camel lands on a free
#: space in any outcome left this leg (a tile pays per landing, RULES 1.5).
_NO_TILE_WORTH = N_("Best new tile: none (no camel lands on a free space in any outcome left "
                    "this leg)")


def _outcomes(total):
    """The leg odds' heading: ``Leg odds (exact, 1 outcome)``, ``... 5,598,720 outcomes)``
    (the count grouped as the language groups thousands: ``5.598.720`` in German)."""
    return ngettext("Leg odds (exact, %s outcome)", "Leg odds (exact, %s outcomes)",
                    total) % grouped(total)


def _dice_names(text):
    """``G,B`` / ``blue, grey`` -> die names (letters as in the short board form)."""
    out = []
    for word in text.replace(",", " ").split():
        name = BOARD_LETTERS.get(word, word)
        if name in out:
            raise NotationError(_("--dice: die %s given twice") % name)
        out.append(name)
    return out


def _board_edition(args, stacks, inside):
    """The edition of a short-form board: ``--edition``, or the one its camels and dice
    (``inside``) name; raises ``NotationError`` when they disagree or name none."""
    named = [c for s in stacks for c in stacks[s]] + (inside or [])
    said = board_edition(named)
    if args.edition and said and said != args.edition:
        raise NotationError(_("the board names %(said)s camels or dice, but --edition is "
                              "%(edition)s") % {"said": edition_word(said),
                                                "edition": args.edition})
    name = args.edition or said
    if name is None:
        raise NotationError(_("which edition? the board names only colours both editions "
                              "have (blue, green, yellow, white): add --edition classic or "
                              "second"))
    return get_edition(name)


def _turn(args, names):
    """The seat of ``--turn``: a name of ``names`` (the players by seat, letter case
    aside) or ``p0``, ``p1``, ... (0-based, below ``len(names)``); 0 when not given.
    Raises ``NotationError`` naming the players for anything else."""
    from camelhost.table.session import typed_name
    if not args.turn:
        return 0
    for seat, name in enumerate(names):
        if name.lower() == typed_name(args.turn).lower():  # as --players reads it
            return seat
    if args.turn[:1] == "p" and args.turn[1:].isdigit() and int(args.turn[1:]) < len(names):
        return int(args.turn[1:])
    raise NotationError(_("--turn takes a player's name (%(names)s) or seat p0, p1, ..., not "
                          "%(typed)r") % {"names": ", ".join(names), "typed": args.turn})


def _check_pieces(ed, stacks, inside):
    """Raise ``NotationError`` for a die ``inside`` the edition's pyramid has not, or a
    camel of the edition missing from the board (the short form lists every camel)."""
    for die in inside or ():
        if die not in ed.dice:
            raise NotationError(_("die %(die)r is not in the %(edition)s pyramid (%(dice)s)")
                                % {"die": die, "edition": edition_word(ed),
                                   "dice": colour_list(ed.dice)})
    on_board = [c for s in stacks for c in stacks[s]]
    for camel in ed.camels:
        if camel not in on_board:
            raise NotationError(_("camel %(camel)s is missing: the short board form lists "
                                  "every camel of the %(edition)s edition (%(camels)s)")
                                % {"camel": colour_word(camel), "edition": edition_word(ed),
                                   "camels": colour_list(ed.camels)})


def _short_board(args):
    """``(game, position, note)`` of a board in the short form (docs/notation.md):
    ``game`` is ``None`` when the dice inside are more than a leg can have out (then
    ``position`` is the odds ``Position`` for the leg odds alone)."""
    stacks, tiles, unowned = read_board(args.position)
    if not stacks:
        raise NotationError(_("not a position: %r (give the project's notation, or a board "
                            "like \"2:[R,Y,P] 9:[G] 14:[K,W]\")") % args.position)
    inside = _dice_names(args.pyramid) if args.pyramid else None
    ed = _board_edition(args, stacks, inside)
    owners = [tiles[s][0] for s in tiles if tiles[s][0] is not None]
    players = (len(args.players) if args.players else args.seats) or max(
        [ed.min_players] + [o + 1 for o in owners])
    turn = _turn(args, args.players or seat_names(min(players, len(SEAT_NAMES))))
    # a tile given without an owner belongs to a seat other than the one to act, from
    # the last seat down (the engine needs an owner; the report shows none)
    free = [p for p in range(players - 1, -1, -1) if p != turn and p not in owners]
    for space in unowned:
        if not free:
            raise NotationError(_("%(tiles)d tiles without an owner, but only %(seats)d seats "
                                  "to hold them: give owners (3:+p1) or --seats")
                                % {"tiles": len(unowned), "seats": players})
        tiles[space] = (free.pop(0), tiles[space][1])
    _check_pieces(ed, stacks, inside)
    out = [d for d in ed.dice if inside is not None and d not in inside]
    if len(out) >= DICE_PER_LEG:
        from camelup.odds import Position

        coded = {}
        for space in tiles:
            coded[space] = (1 if tiles[space][1] == "+" else -1, None)
        note = (ngettext("(only %d die inside: more out than a leg has before it is scored; "
                         "race odds and action values need a position the engine can hold)",
                         "(only %d dice inside: more out than a leg has before it is scored; "
                         "race odds and action values need a position the engine can hold)",
                         len(inside)) % len(inside))
        return None, Position(ed.name, stacks, coded, dice=inside), note
    pyramid = [0] * players
    for j in range(len(out)):
        pyramid[j % players] += 1  # pyramid tickets of the dice out: round from p0
    game = Game(ed, players, stacks, tiles=tiles, turn=turn, out=out, pyramid=pyramid)
    return game, unowned, None


def _check_read(game, read):
    """Raise ``CliError`` (one line, status 2) when ``--read`` names a colour that is
    no racing camel of ``game``'s edition, or reads more cards on a pile than lie there."""
    racing = game.edition.racing
    for pile, counts in read.items():
        for colour in counts:
            if colour not in racing:
                raise CliError(_("--read: %(colour)s is no racing camel of the %(edition)s "
                                 "edition (%(camels)s)")
                               % {"colour": colour, "edition": edition_word(game.edition),
                                  "camels": colour_list(racing)}, 2)
        cards = len(game.pile(pile))
        total = sum(counts.values())
        if total > cards + 0.05:
            raise CliError(ngettext("--read: %(read)s cards read on the %(pile)s pile, which "
                                    "holds %(cards)d",
                                    "--read: %(read)s cards read on the %(pile)s pile, which "
                                    "holds %(cards)d", cards)
                           % {"read": "%d" % total if total == int(total) else decimal(total, 2),
                              "pile": _(pile), "cards": cards}, 2)


def run(args):
    if args.samples is not None and args.samples < 1:
        raise CliError(_("--samples must be at least 1"), 2)
    # the table's 'position' line pasted whole: its label is ours, the rest the notation
    text = strip_position_label(args.position)
    if isinstance(args.players, int):  # a count: --players before it took names
        print(_("pyramid: note: --players N (a number of seats) is now --seats N; --players "
                "takes the names, as in play"), file=sys.stderr)
        args.seats, args.players = args.seats or args.players, None
    if args.players and args.seats and len(args.players) != args.seats:
        raise CliError(ngettext("--players: %(names)d name for --seats %(seats)d (give one per "
                                "seat)",
                                "--players: %(names)d names for --seats %(seats)d (give one per "
                                "seat)", len(args.players))
                       % {"names": len(args.players), "seats": args.seats}, 2)
    if "|" in text:
        if args.pyramid or args.edition or args.seats or args.turn:
            raise CliError(_("--edition, --dice, --seats and --turn are for the short "
                           "board form; the project's notation holds them already"), 2)
        game, unowned = parse_position(text), ()
    else:
        game, unowned, note = _short_board(args)
        if game is None:  # the leg odds of a position no game holds (one die inside)
            for line in leg_report(unowned, note):
                print(line)
            return 0
    if args.players and len(args.players) != game.players:
        raise CliError(ngettext(
            "--players: %(names)d name for %(seats)d seats (give one per seat, in seat order)",
            "--players: %(names)d names for %(seats)d seats (give one per seat, in seat "
            "order)", len(args.players)) % {"names": len(args.players), "seats": game.players},
            2)
    if args.read is not None:
        _check_read(game, args.read)
    for line in report(game, args.seed, args.samples, args.top, args.timing, unowned,
                       args.later_tiles, args.players, waiting=args.waiting, read=args.read):
        print(line)
    return 0
