"""``pyramid odds "<position>"``: exact leg odds, tile landings, best tile, ranked
action values and race odds for a position in the project's notation
(docs/notation.md; docs/odds.md for the figures), or written the way the case files
write one (``"2:[R,Y,P] 9:[G] 13:[B] 14:[K,W]" --pyramid G,B --tile "booing 3"``, read
by the scenario parser).

Exit status 0; a position that does not parse is reported as ``pyramid: ...`` with
status 1 (the CLI's ``ValueError`` path).
"""

import time

from camelup.notation import parse_position
from camelup.odds import best_tile, leg_odds
from camelup.odds.actions import action_values
from camelup.odds.game import position_from_game
from camelup.odds.race import race_odds

from camelhost.errors import CliError

HELP = "Exact leg odds, tile landings, best tile, action values and race odds of a position."


def add_arguments(parser):
    parser.add_argument("position", help="position text, as printed by the table or journal "
                        "(quote it: it holds spaces and |), or a board as the case files "
                        "write it: \"2:[R,Y,P] 9:[G] 13:[B] 14:[K,W]\", \"red on 1, yellow "
                        "on 3; die red\"")
    parser.add_argument("--edition", choices=("classic", "second"),
                        help="case-file style: the edition (else from the camels named: "
                        "second with black/grey, red or purple beside them; classic with "
                        "orange or with no crazy camel, as the odds cases are)")
    parser.add_argument("--pyramid", "--dice", dest="pyramid", metavar="DICE",
                        help="case-file style: dice still inside, e.g. G,B or blue,grey "
                        "(second: k inside, k-1 revealed; classic: all rolled)")
    parser.add_argument("--tile", action="append", default=[], metavar="TILE",
                        help="case-file style: a tile, e.g. 'booing 3', 'P2 cheering on 9', "
                        "'mirage on 4' (repeatable)")
    parser.add_argument("--players", type=int, help="case-file style: number of players")
    parser.add_argument("--turn", help="case-file style: seat to act, e.g. P2 or p1")
    parser.add_argument("--seed", type=int, default=1, help="race simulation seed (default 1)")
    parser.add_argument("--samples", type=int, default=10000,
                        help="races to simulate (default 10000: +/-1 point at 95%%)")
    parser.add_argument("--top", type=int, default=12,
                        help="how many ranked actions to show (default 12; 0 = all)")
    parser.add_argument("--timing", action="store_true", help="show how long each part took")


def _pct(x):
    return "%5.1f%%" % (100.0 * x)


def report(game, seed=1, samples=10000, top=12, timing=False):
    """The text ``pyramid odds`` prints for ``game`` (a ``camelup.Game``), as a list of lines."""
    lines = []
    clock = time.perf_counter
    position = position_from_game(game)
    t0 = clock()
    leg = leg_odds(position)
    t1 = clock()
    race = race_odds(position, seed=seed, samples=samples, leg=leg)
    t2 = clock()
    values = action_values(game, race=race, leg=leg)
    t3 = clock()
    tile = best_tile(position, game.turn) if not game.is_over else None
    t4 = clock()

    edition = game.edition
    inside = ", ".join(position.dice) or "none"
    lines.append("%s edition, leg %d, seat to act p%d; dice inside: %s; %d to come out"
                 % (edition.name, game.leg, game.turn, inside, position.reveals))
    lines.append("")
    lines.append("Leg odds (exact, %d outcomes)" % leg.total)
    lines.append("  %-8s %7s %7s %7s   %7s %7s" % ("camel", "1st", "2nd", "last", "win", "lose"))
    order = sorted(leg.first, key=lambda c: (-leg.first[c], c))
    for c in order:
        lines.append("  %-8s %7s %7s %7s   %7s %7s" % (
            c, _pct(leg.first[c] / leg.total), _pct(leg.second[c] / leg.total),
            _pct(leg.last[c] / leg.total), _pct(race.winner[c]), _pct(race.loser[c])))
    if leg.finished:
        lines.append("  the race ends during this leg in %s of outcomes"
                     % _pct(leg.finished / leg.total).strip())
    if race.exact:
        lines.append("  race odds exact (the race ends this leg in every outcome)")
    else:
        lines.append("  race odds: %d simulated races, seed %d, 95%% CI +/- %.1f points"
                     % (race.samples, race.seed, 100 * race.half_width))
    if position.tiles:
        lines.append("")
        lines.append("Tiles on the board (expected landings = expected coins this leg)")
        for space in sorted(position.tiles):
            side = position.tiles[space]
            name = edition.forward_name if side > 0 else edition.backward_name
            owner = position.tile_owners.get(space)
            who = "" if owner is None else " (p%d)" % owner
            lines.append("  %-9s on %2d%s: %.3f" % (name, space, who,
                                                    leg.landings.get(space, 0) / leg.total))
    if tile is not None:
        space, side, expected = tile
        name = edition.forward_name if side > 0 else edition.backward_name
        lines.append("")
        lines.append("Best tile for p%d: %s on %d, %.3f expected landings"
                     % (game.turn, name, space, expected))
        for own in sorted(position.tiles):
            if position.tile_owners.get(own) == game.turn:
                now = leg.landings.get(own, 0) / leg.total
                verdict = "move it" if expected > now else "better left where it is"
                lines.append("  (p%d's tile on %d earns %.3f where it is: %s)"
                             % (game.turn, own, now, verdict))
    lines.append("")
    if values:
        shown = values if top <= 0 else values[:top]
        lines.append("Actions for p%d, best first (EV in coins)" % game.turn)
        for i, v in enumerate(shown):
            lines.append("  %2d. %-22s %s" % (i + 1, v.action, v.reason))
        if len(shown) < len(values):
            lines.append("  ... %d more (--top 0 shows all)" % (len(values) - len(shown)))
    else:
        lines.append("No actions: the race is over.")
    if timing:
        lines.append("")
        lines.append("timing: leg odds %.1f ms, race odds %.1f ms, action values %.1f ms, "
                     "best tile %.1f ms" % (1e3 * (t1 - t0), 1e3 * (t2 - t1),
                                            1e3 * (t3 - t2), 1e3 * (t4 - t3)))
    return lines


def leg_report(position, note):
    """Leg odds only (a case-file board that leaves camels out or names labels: the
    race odds and action values need a whole game), as a list of lines."""
    from camelup.odds import CLASSIC

    lines = []
    leg = leg_odds(position)
    inside = ", ".join(position.dice) or "none"
    lines.append("%s edition; dice inside: %s; %d to come out"
                 % (position.edition, inside, position.reveals))
    lines.append(note)
    lines.append("")
    lines.append("Leg odds (exact, %d outcomes)" % leg.total)
    lines.append("  %-8s %7s %7s %7s" % ("camel", "1st", "2nd", "last"))
    for c in sorted(leg.first, key=lambda c: (-leg.first[c], c)):
        lines.append("  %-8s %7s %7s %7s" % (c, _pct(leg.first[c] / leg.total),
                                             _pct(leg.second[c] / leg.total),
                                             _pct(leg.last[c] / leg.total)))
    if leg.finished:
        lines.append("  the race ends during this leg in %s of outcomes"
                     % _pct(leg.finished / leg.total).strip())
    names = ("oasis", "mirage") if position.edition == CLASSIC else ("cheering", "booing")
    if position.tiles:
        lines.append("")
        lines.append("Tiles on the board (expected landings = expected coins this leg)")
        for space in sorted(position.tiles):
            name = names[0] if position.tiles[space] > 0 else names[1]
            lines.append("  %-9s on %2d: %.3f" % (name, space,
                                                 leg.landings.get(space, 0) / leg.total))
    tile = best_tile(position, None)
    if tile is not None:
        space, side, expected = tile
        lines.append("")
        lines.append("Best new tile: %s on %d, %.3f expected landings"
                     % (names[0] if side > 0 else names[1], space, expected))
    return lines


def _case_style(args):
    """Game (or ``None``) and odds ``Position`` of a case-file style position."""
    from camelup.errors import NotationError
    from camelup.scenario import build_game, odds_position, parse_scenarios

    text = args.position.strip()
    if not text:
        raise NotationError("empty position")
    lines = []
    if args.edition:
        lines.append("edition " + args.edition)
    if args.players is not None:
        lines.append("players %d" % args.players)
    if args.turn:
        lines.append("turn " + args.turn)
    first = text.split()[0].lower()
    if first not in ("board", "position", "rolls") and ":" not in text.split(";")[0].split()[0] \
            and " on " not in " " + text.split(";")[0]:
        raise NotationError("not a position: %r (give the project's notation, or a board "
                            "like \"2:[R,Y,P] 9:[G] 14:[K,W]\")" % text)
    lines.append(text)
    for tile in args.tile:
        lines.append(tile)
    if args.pyramid:
        lines.append("pyramid {%s}" % args.pyramid.strip("{}"))
    cases = parse_scenarios("\n".join(lines), "position")
    case = cases[0]
    case.odds = True  # no crazy camel and no --edition: classic, as the odds cases are
    if case.steps or case.checks:
        bad = (case.steps or case.checks)[0][2]
        raise NotationError("a position only, not actions or expectations: %r" % bad)
    try:
        game = build_game(case)
    except NotationError as exc:
        if "add an 'edition" in str(exc):
            raise NotationError("which edition? the camels named do not tell: add --edition "
                                "classic or --edition second") from None
        raise
    return game, case, odds_position(game, case)


def run(args):
    if args.samples < 1:
        raise CliError("--samples must be at least 1", 2)
    if "|" in args.position:
        if args.pyramid or args.tile or args.edition or args.players or args.turn:
            raise CliError("--edition, --pyramid, --tile, --players and --turn are for a "
                           "board in the case files' style; the project's notation holds "
                           "them already", 2)
        game = parse_position(args.position)
    else:
        game, case, position = _case_style(args)
        whole = (game is not None and not case.unlisted
                 and sorted(position_from_game(game).dice) == sorted(position.dice))
        if not whole:
            if game is None:
                note = ("(the board's names are labels: %s; the listed camels are the race)"
                        % ", ".join([c for c in position.camels()
                                     if c not in ("black", "white")]))
            elif case.unlisted:
                note = ("(the listed camels only: %s left out; race odds and action values "
                        "need every camel)" % ", ".join(case.unlisted))
            else:
                note = ("(only %d dice inside: more dice out than a leg holds before it is "
                        "scored; race odds and action values need a position the engine can "
                        "hold)" % len(position.dice))
            for line in leg_report(position, note):
                print(line)
            return 0
    for line in report(game, args.seed, args.samples, args.top, args.timing):
        print(line)
    return 0
