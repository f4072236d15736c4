"""The odds the table screen shows, computed off the UI thread and laid out as text.

``compute_odds(game)`` does the work (exact leg odds, seeded race simulation, the
value of every public action of the player to act: ``camelup.odds``); it only
reads ``game``, so the caller hands it a copy (``copy.deepcopy``) and may go on
changing the real game meanwhile. ``odds_lines(figures, names, edition, width)``
lays the result out: one row per racing camel (leg tickets left, leg 1st / 2nd /
last, overall winner / loser with their 95 % interval, the value of its leg
ticket), then the other actions (pyramid ticket, best tile space and side, best
partnership). Finish cards are never advised: on a shared screen, advice that
leaves out the colours a player already played would reveal them (RULES 1.8, 5).
"""

from rich.text import Text

from camelhost.ui import palette

#: Races simulated for the overall winner / loser odds: 10,000 keep every 95 %
#: half-width under one percentage point (``camelup.odds.race``).
RACE_SAMPLES = 10000
#: Seed of that simulation (the same position always shows the same figures).
RACE_SEED = 1


def compute_odds(game, samples=RACE_SAMPLES, seed=RACE_SEED, actions=True):
    """Every figure of the odds panel for ``game`` (a ``camelup.Game``; only read).

    Returns a dict: ``leg`` {colour: (p_first, p_second, p_last)} (0..1, exact);
    ``race`` {colour: (p_win, half_width, p_lose, half_width)} (0..1; half-widths of
    the 95 % interval, 0 when exact); ``race_exact``; ``seat`` (the player to act);
    ``tickets`` {colour: (top value, ev)} for colours with a leg ticket left;
    ``left`` {colour: leg-ticket values left, top first};
    ``pyramid`` (ev or ``None`` when none is left), ``tile`` ``(space, side, ev)`` or
    ``None``, ``partner`` ``(seat, ev)`` or ``None`` (values in coins, from
    ``camelup.odds.actions``). ``actions=False`` leaves the action values out
    (the race is not waiting for an action). Raises ``ValueError`` for a position
    the odds can't read.
    """
    from camelup import odds
    from camelup.odds.actions import action_values
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds

    position = position_from_game(game)
    leg = odds.leg_odds(position)
    race = race_odds(position, seed=seed, samples=samples, leg=leg)
    out = {"leg": {}, "race": {}, "race_exact": bool(race.exact), "seat": game.turn,
           "tickets": {}, "left": {}, "pyramid": None, "tile": None, "partner": None,
           "actions": bool(actions)}
    for c in game.edition.racing:
        out["leg"][c] = (leg.p_first(c), leg.p_second(c), leg.p_last(c))
        out["race"][c] = (race.winner[c], race.winner_hw[c], race.loser[c], race.loser_hw[c])
        out["left"][c] = tuple(game.leg_tickets_left(c))
    if not actions:
        return out
    for av in action_values(game, race=race, leg=leg):
        if av.kind == "leg":
            colour = av.action.split()[1]
            out["tickets"][colour] = (game.leg_tickets_left(colour)[0], av.ev)
        elif av.kind == "pyramid":
            out["pyramid"] = av.ev
        elif av.kind == "tile" and out["tile"] is None:  # best first
            _, space, side = av.action.split()
            out["tile"] = (int(space), side, av.ev)
        elif av.kind == "partner" and out["partner"] is None:
            out["partner"] = (int(av.action.split()[1]), av.ev)
    return out


def _pct(p):
    return "%3.0f" % (100 * p)


def _interval(p, hw):
    """``23±2`` (percent, 95 % half-width at least 1 when simulated), ``23`` when exact."""
    if hw <= 0:
        return "%3.0f  " % (100 * p)
    return "%3.0f±%-1.0f" % (100 * p, min(9, max(1, round(100 * hw))))


def _signed(x):
    return "%+.2f" % x


#: Widest odds panel laid out in the narrow form (80-column terminals).
NARROW = 56


def odds_lines(figures, names, edition, tile_names=("forward", "backward"), width=80):
    """The odds panel as a Rich ``Text``: one row per racing camel (best leg odds
    first), then the best actions for the player to act.

    ``figures``: what ``compute_odds`` returned (or ``None``: still computing);
    ``names``: player names by seat; ``edition``: a ``camelup.editions.Edition``;
    ``tile_names``: the edition's words for the forward and backward side;
    ``width``: characters available (below ``NARROW`` the leg-ticket stacks left and
    the finish-card note are left out; 46 is enough)."""
    text = Text()
    if figures is None:
        text.append("Leg odds: working them out...", "italic")
        return text
    wide = width >= NARROW
    text.append("Leg odds 1st 2nd last   win±  lose±  ticket%s\n"
                % ("  left" if wide else ""), "bold")
    order = sorted(edition.racing, key=lambda c: (-figures["leg"][c][0], c))
    for c in order:
        p1, p2, pl = figures["leg"][c]
        pw, hw, plo, hl = figures["race"][c]
        text.append(" %-6s " % c, palette.style(c))
        text.append(" %s %s  %s  %s  %s  " % (_pct(p1), _pct(p2), _pct(pl),
                                               _interval(pw, hw), _interval(plo, hl)))
        ticket = figures["tickets"].get(c)
        if ticket is not None:
            text.append("%d %s" % (ticket[0], _signed(ticket[1])))
        elif figures["actions"]:
            text.append("none   ", "dim")
        else:
            text.append("       ")
        if wide and c in figures.get("left", {}):
            text.append("  %s" % (",".join(str(v) for v in figures["left"][c]) or "-"))
        text.append("\n")
    text.append("(%%; win/lose: the whole race, ± its 95%% interval%s)\n" % (
        "" if not figures["race_exact"] else ", exact") if wide else "", "dim")
    if not figures["actions"]:
        text.rstrip()
        return text
    seat = figures["seat"]
    text.append("Best for %s:" % names[seat], "bold")
    parts = []
    best = max(figures["tickets"].items(), key=lambda kv: (kv[1][1], kv[0]), default=None)
    if best is not None:
        parts.append("%s leg ticket %s" % (best[0], _signed(best[1][1])))
    if figures["pyramid"] is not None:
        parts.append("pyramid ticket %s" % _signed(figures["pyramid"]))
    if figures["tile"] is not None:
        space, side, ev = figures["tile"]
        parts.append("%s tile on %d %s" % (tile_names[0] if side == "+" else tile_names[1],
                                          space, _signed(ev)))
    if figures["partner"] is not None:
        partner, ev = figures["partner"]
        parts.append("partner %s %s" % (names[partner], _signed(ev)))
    text.append(" " + "; ".join(parts))
    if wide:
        text.append("\n(finish cards: not advised on the shared screen)", "dim")
    return text
