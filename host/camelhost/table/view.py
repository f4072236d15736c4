"""The table's view model: one JSON-serialisable snapshot of everything the shared
screen may show, and nothing hidden (RULES 5; finish cards stay face down, RULES 1.8).

Every display reads this dict and nothing else of the session: the plain mode, the
Textual full screen and the web scoreboard. ``table_view(session)`` builds it; the keys
below are stable (new keys may be added, none renamed). Players are given by name,
never by seat number. Colours are the edition's lowercase names (``camelup.editions``).

Keys and shapes::

    version      int, grows by one (or more) with every event the session takes
    edition      "classic" | "second"
    race         int, race number from 1
    leg          int, leg number from 1 (0 before the setup is complete)
    phase        "setup" | "turn" | "die" | "ink" | "value" | "over" | "unscored"
                 (see camelhost.table.session)
    turn         name of the player to act (or whose pyramid ticket waits), or None
    choices      the words for what ``turn`` may do now, in this order, only the legal
                 ones: "leg" "tile" "win" "lose" "partner" "pyramid" ([] outside the
                 turn phase; "partner" only with partnerships in play, RULES 3.8)
    players      [{"name": str, "coins": int, "bot": bool,
                   "leg_tickets": [{"colour": str, "value": int}, ...] (take order),
                   "pyramid_tickets": int (this leg),
                   "finish_cards_played": int (count only, never which),
                   "partner": str name or None,
                   "tile": {"space": int, "side": "+"|"-"} or None}, ...]  seat order
    track        [{"space": int 1..16,
                   "stack": [{"colour": str, "crazy": bool}, ...] bottom -> top,
                   "tile": {"side": "+"|"-", "name": "oasis"|"mirage"|"cheering"|
                            "booing", "owner": str} or None}, ...]  16 entries
    beyond       [{"space": int, "stack": [...]}]: camels past the finish line (space
                 > 16) or behind the start (space < 1), same stack shape; usually []
    ranking      racing camels first -> last ([] before the setup)
    dice_inside  die names still inside the pyramid (edition order); not the die out
                 whose ink or value is asked (``pending_die``)
    dice_left_inside  dice that stay inside when the leg ends (the edition's: 0 classic,
                 1 second, RULES 2.4, 3.4)
    dice_out     die names revealed this leg, in order ("grey" for the grey die): their
                 camels moved (the die whose ink or value is asked, out too, is
                 ``pending_die``)
    leg_tickets  [{"colour": str, "top": int or None, "left": [int, ...] top first}]
    pyramid_tickets_left  int 0..5 (a ticket waiting for its die counts as taken)
    pyramid_waiting  name of the player whose pyramid ticket waits for its die (phases
                 "die", "ink", "value"; also after a crash and ``--resume``), else None;
                 that player's ``pyramid_tickets`` counts it
    piles        {"winner": int, "loser": int}: sizes only
    setup_rolls  [{"camel": str, "value": int, "space": int}]: dice released so far at
                 setup, each with the space it put its camel on (RULES 2.2, 3.2)
    grey_back    at setup, the crazy camel the grey die comes out again for (its first
                 roll placed the other: back into the pyramid it goes), else None
    dice_typed   True when the dice are typed at the table (no pyramid: ``--pyramid
                 manual``; ``Session.dice_typed``): prompts ask to type the die
    dice_back_by_hand  True when people put the dice back into a pyramid that
                 reports them (real or emulated; ``Session.dice_back_by_hand``)
    line         the line to the pyramid as the link measures it, or None (no link, or
                 nothing measured yet): {"noisy": bool, True from when under 90 % of
                 its last 50 lines arrived whole until over 97 % again; "quality":
                 float 0..1, that share when it last changed} (``Link.quality``,
                 docs/protocol.md); every display shows a noisy line
    pyramid_away the pyramid not answering, or None: {"port": str or None, "virtual":
                 bool} (the table's ``Seam.away``, set while the pyramid is away: dice
                 are typed meanwhile; the web page says it in its header)
    pending_die  {"colour": str, "ink": str or None, "value": int or None} waiting for
                 its ink or value, else None
    last_die     {"colour": die name, "ink": str or None, "value": int, "camel": str,
                  "direction": +1 | -1, "distance": int, "from": int, "to": int,
                  "carrying": [colour, ...], "player": str,
                  "tile": {"space", "side", "name", "owner": str} or None,
                  "path": str, where the unit went in words (``move_path``): "from space
                  3 to 5", "from space 14 to 15 on Bob's booing tile,
                  back 1 to 14",
                  "from space 15 across the finish line",
                  "why": str or None, for the grey die why that crazy camel moved
                  (``CRAZY_WHY``, RULES 3.5 a, b, c), in the table's language as
                  "path" is} or None
    leg_now      [{"name": str, "net": int, "forgiven": int}]: what leg scoring would
                 pay now (empty when not in play); a pyramid ticket waiting for its die
                 counts (it pays 1 whatever the die); ``net`` the coins it would move,
                 the zero floor applied (RULES 1.9: never below 0 coins), ``forgiven``
                 the coins the floor would forgive (0 or more)
    leg_scored   the last leg scoring of this race, or None:
                 {"leg": int, "ranking": [colour, ...],
                  "players": [{"name": str, "before": int, "after": int, "net": int,
                               "items": [{"kind": "leg", "colour": str, "value": int,
                                          "reward": int} |
                                         {"kind": "pyramid", "reward": 1} |
                                         {"kind": "copy", "from": str, "reward": int,
                                          "ticket": {"kind", "colour", "value"}}]}],
                  "latest": bool, True while nothing happened since this scoring (the
                  new leg's first action not yet taken, no pyramid ticket waiting)}
    final        once the race is over, else None:
                 {"winner": colour, "loser": colour,
                  "piles": {"winner": [card...], "loser": [card...]} in play order, card =
                  {"name": str, "colour": str, "correct": bool, "place": int or None,
                   "reward": int, "before": int, "after": int},
                  "standings": [{"name": str, "coins": int}] most coins first,
                  "coins": [int per seat], "winners": [name, ...] (a tie: several)}
    odds         None when there are none (setup, race over, or not asked), else
                 {"leg": [{"colour": str, "first": p, "second": p, "last": p}],
                  "race": {"winner": [{"colour", "p", "hw"}], "loser": [...],
                           "samples": int, "exact": bool} or None,
                  "actions": None while a pyramid ticket waits for its die, else
                             {"player": str,
                              "values": [{"kind": str, "action": str, "ev": float,
                                          "score": float or None, "win": float or None,
                                          "text": str}, ...] in the coach's order,
                                          best first: "ev" the coins expected now,
                                          "score" the coach's value it is ranked by
                                          (the value now less the next players'
                                          replies, a finish card's less "hold"),
                                          "win" the chance (0..1) to win the race
                                          that orders the end-game's best few
                                          first (None elsewhere, and None for all
                                          when they would all read the same: then
                                          "same_win" on every entry is that chance
                                          and the list is by "score" alone,
                                          ``same_chance``); "text" says the
                                          number of the order first, labelled, then
                                          the value now (``action_text``). A
                                          finish entry never names a colour (which
                                          one a player lays is private, RULES 1.8):
                                          its "action" is "finish winner" or
                                          "finish loser", and it also has "pile",
                                          "cards" (cards on the pile) and "hold"
                                          (coins it is worth kept for a later leg,
                                          or None) and "place": the camel its figures
                                          are for, by its place (1-based) in that
                                          pile's race odds, highest first (None
                                          without race odds; ``finish_camel``); a
                                          partner entry also has
                                          "partner": name,
                              "partnership": {"partner": str, "ev": float} when the
                                 player to act is partnered this leg (what copying the
                                 partner's best ticket is worth now, RULES 3.8), else None}}
                 probabilities p are floats 0..1; "hw" the 95 % half-width; action
                 values give finish cards as if the player still held every colour,
                 the best of each pile among the coach's ``coach.FINISH_ADVICE``
                 best, by pile only (the player chooses the colour unseen), and name
                 partners by name.

Odds come from ``camelup.odds`` (exact leg enumeration), ``camelup.odds.race``
(seeded simulation, ``RACE_SAMPLES`` races) and ``camelup.odds.actions``, the advice's
order from the table's bots (``camelhost.table.bots.suggestions``: the coach); they are
cached per position, so calling ``table_view`` after every change stays cheap.
"""

from camelup.game import setup_space

from camelhost.i18n import N_, _, colour_word, decimal, language, ngettext, percent

#: Races simulated for the overall winner / loser odds shown at the table (95 %
#: half-width under 1.4 points).
RACE_SAMPLES = 5000

_ODDS_CACHE = {}
#: Positions whose odds are kept (``odds_view``), emptied all at once when full: an undo,
#: or a display asking again, finds the odds of a recent position without working them
#: out again (a few kilobytes each).
_ODDS_CACHE_SIZE = 64



def signed(x):
    """An expected value in coins as every screen prints it: ``+1.92``, ``-0.32``, and
    ``0.00`` for anything that rounds to zero (never ``-0.00``, never ``+0.00``); with the
    table's decimal separator (German ``+1,92``, ``0,00``: ``camelhost.i18n.decimal``)."""
    if float("%.2f" % x) == 0:
        return decimal(0, 2)
    return decimal(x, 2, sign=True)

def _name(session, seat):
    return None if seat is None else session.names[seat]


def _stack(edition, camels):
    return [{"colour": c, "crazy": c in edition.crazy} for c in camels]


#: The tile sides' words of both editions, marked for the catalogue: the words
#: themselves live in ``camelup.editions`` (``forward_name`` / ``backward_name``);
#: ``side_word`` shows them in the table's language.
SIDE_WORDS = (N_("oasis"), N_("mirage"), N_("cheering"), N_("booing"))


def side_word(edition, side):
    """The word for a tile side in the table's language: oasis / mirage (classic),
    cheering / booing (second edition) (RULES 1.5, 3.6). ``edition``: an ``Edition``;
    ``side``: ``"+"`` / ``"-"`` or a number (> 0 forward)."""
    forward = side == "+" if isinstance(side, str) else side > 0
    return _(edition.forward_name if forward else edition.backward_name)


def _tile_name(edition, side):
    return side_word(edition, side)


def _waiting(session):
    """Seat whose pyramid ticket waits for its die (RULES 1.7: taken, the die still to
    come), or None."""
    if session.game is None or session.phase not in ("die", "ink", "value"):
        return None
    return session.pending_player


def _players(session):
    g = session.game
    ed = session.edition
    waiting = _waiting(session)
    out = []
    for i, name in enumerate(session.names):
        row = {"name": name, "bot": session.is_bot(i), "coins": 3, "leg_tickets": [],
               "pyramid_tickets": 0, "finish_cards_played": 0, "partner": None, "tile": None}
        if g is not None:
            tile = g.tile_of(i)
            row.update(
                coins=g.coins[i],
                leg_tickets=[{"colour": c, "value": v} for c, v in g.held_tickets(i)],
                pyramid_tickets=g.pyramid_tickets(i) + (1 if i == waiting else 0),
                finish_cards_played=len(ed.racing) - len(g.finish_cards_in_hand(i)),
                partner=_name(session, g.partner_of(i)),
                tile=None if tile is None else {"space": tile[0], "side": tile[1]})
        out.append(row)
    return out


def _track(session):
    g = session.game
    ed = session.edition
    stacks = g.stacks if g is not None else {}
    tiles = g.tiles if g is not None else {}
    track = []
    for space in range(1, 17):
        tile = None
        if space in tiles:
            owner, side = tiles[space]
            tile = {"side": side, "name": _tile_name(ed, side), "owner": session.names[owner]}
        track.append({"space": space, "stack": _stack(ed, stacks.get(space, [])),
                      "tile": tile})
    beyond = [{"space": s, "stack": _stack(ed, stacks[s])}
              for s in sorted(stacks) if not 1 <= s <= 16]
    return track, beyond


#: A unit's move from one space to another, in every screen's words (the last die's
#: line, its detail and the history's line under the die).
FROM_TO = N_("from space %(from)d to %(to)d")


def move_path(move, names, edition):
    """Where a die's unit went, in words, the tile it landed on included (RULES 1.5,
    1.13): the one wording of every screen's last die. ``move``: a rules-engine move
    (``movement.move_unit``'s dict, tile owner a seat); ``names``: the players' names
    by seat; ``edition``: a ``camelup.editions`` edition (its tile side names).

    ``from space 3 to 5`` (the words of the history's line,
    ``narration.die_lines``); ``from space 14 to 15 on Bob's booing tile, back 1
    to 14``; ``from space 13 to 15 on Bob's cheering tile, on to 16``; ``from
    space 15 across the finish line``; ``from space 14 to 16 on Bob's cheering
    tile, on across the finish line``."""
    tile = move.get("tile")
    if not tile:
        if move["crossed"]:
            return _("from space %d across the finish line") % move["from"]
        return _(FROM_TO) % {"from": move["from"], "to": move["to"]}
    owner = tile.get("owner")
    whose = _("%s's ") % names[owner] if owner is not None else ""
    where = _(FROM_TO) % {"from": move["from"], "to": tile["space"]}
    if move["crossed"]:
        then = _("on across the finish line")
    elif tile["side"] == "+":
        then = _("on to %d") % move["to"]
    else:
        then = _("back 1 to %d") % move["to"]
    # the tile first, then where it sent the unit: 'back 1 to 9' never reads as the
    # tile's own space
    return _("%(where)s on %(whose)s%(tile)s tile, %(then)s") % {
        "where": where, "whose": whose, "tile": _tile_name(edition, tile["side"]),
        "then": then}


#: Why the grey die moved the crazy camel it moved (RULES 3.5), by the engine's rule
#: letter (``move["rule"]``): every screen's one wording.
CRAZY_WHY = {"a": N_("the only crazy camel carrying racing camels"),
             "b": N_("it sits directly on the other crazy camel"),
             "c": N_("the numeral's colour")}


def which_way(direction, distance):
    """Which way and how far a die moved its camel: every screen's one wording of it
    (the full screen's banner, upper-cased; the plain die line, ``DIE ...``,
    ``camelhost.table.narration.die_lines``; ``Last die:``; the spoken line,
    ``spoken_die``; the web page's last die, ``camelhost.web.server.with_die_words``).
    ``direction``: +1 (forward) or -1 (backward, counterclockwise); ``distance``: the
    spaces moved, an int from 1. Returns a str in the table's language: ``forward 3``, ``backward 1``;
    German ``3 Felder vorwärts``, ``1 Feld rückwärts`` (the distance first)."""
    # counted and named: a language puts the distance where its grammar wants it
    if direction > 0:
        return ngettext("forward %(distance)d", "forward %(distance)d", distance) % {
            "distance": distance}
    return ngettext("backward %(distance)d", "backward %(distance)d", distance) % {
        "distance": distance}


def spoken_die(camel, direction, distance):
    """The words said aloud for a die (RULES 5, optional speech: ``--speak`` and the web
    page's speech): the ``camel`` it moved (a colour name) and ``which_way``.
    Returns a str in the table's language: ``blue camel, forward 3`` / ``Kamel blau,
    3 Felder vorwärts``."""
    return _("%(camel)s camel, %(way)s") % {"camel": colour_word(camel),
                                            "way": which_way(direction, distance)}


def _last_die(session):
    for report in reversed(session.reports):
        m = report.get("move")
        if m is None:
            continue
        tile = m.get("tile")
        return {"colour": m["die"], "ink": m.get("ink"), "value": m["value"],
                "camel": m["camel"], "direction": m["direction"], "distance": m["distance"],
                "from": m["from"], "to": m["to"], "carrying": list(m["unit"][1:]),
                "player": session.names[report["player"]],
                "tile": None if not tile else {
                    "space": tile["space"], "side": tile["side"],
                    "name": _tile_name(session.edition, tile["side"]),
                    "owner": _name(session, tile.get("owner"))},
                "path": move_path(m, session.names, session.edition),
                "why": _crazy_why(m.get("rule"))}
    return None


def _crazy_why(rule):
    """``CRAZY_WHY``'s words for the engine's rule letter, in the table's language, or
    None (not a grey die)."""
    why = CRAZY_WHY.get(rule)
    return _(why) if why else None


def leg_scored_view(session, scores, ranking, leg):
    """The ``leg_scored`` shape (see the module docstring) of a ``scoring.score_leg``
    breakdown ``scores`` with its camel ``ranking`` and ``leg`` number."""
    players = []
    for row in scores:
        items = []
        for it in row["items"]:
            if it["kind"] == "leg":
                items.append({"kind": "leg", "colour": it["colour"], "value": it["value"],
                              "reward": it["reward"]})
            elif it["kind"] == "pyramid":
                items.append({"kind": "pyramid", "reward": it.get("reward", 1)})
            else:
                t = it.get("ticket") or {}
                items.append({"kind": "copy", "from": _name(session, it.get("from")),
                              "ticket": {"kind": t.get("kind"), "colour": t.get("colour"),
                                         "value": t.get("value")},
                              "reward": it["reward"]})
        players.append({"name": session.names[row["player"]], "before": row["before"],
                        "after": row["after"], "net": row["net"], "items": items})
    return {"leg": leg, "ranking": list(ranking), "players": players}


def _leg_scored(session):
    leg = 0
    for report in session.reports:
        if report.get("leg_ended"):
            leg += 1
    for report in reversed(session.reports):
        if report.get("leg_ended"):
            scored = leg_scored_view(session, report["leg_scores"], report["leg_ranking"], leg)
            # the die that ended the leg is still the last thing that happened: nothing
            # taken in the new leg yet, no pyramid ticket waiting for its die
            scored["latest"] = report is session.reports[-1] and _waiting(session) is None
            return scored
    return None


def final_view(session, final):
    """The ``final`` shape (see the module docstring) of a ``Game`` final report."""
    piles = {"winner": [], "loser": []}
    for c in final["cards"]:
        piles[c["pile"]].append({"name": session.names[c["player"]], "colour": c["colour"],
                                 "correct": bool(c["correct"]), "place": c.get("place"),
                                 "reward": c["reward"], "before": c["before"],
                                 "after": c["after"]})
    coins = list(final["coins"])
    order = sorted(range(len(coins)), key=lambda i: (-coins[i], i))
    return {"winner": final["winner"], "loser": final["loser"], "piles": piles,
            "standings": [{"name": session.names[i], "coins": coins[i]} for i in order],
            "coins": coins, "winners": [session.names[i] for i in final["winners"]]}


def advice_value(av):
    """The shared advice's number for one action value, the one its order is made on,
    with its label, then its value now: ``62% to win, now +2.04`` in the end-game's best
    few (``av.win``: the chance to win the race played out, ``camelhost.coach.win_chances``),
    ``overall +0.80, now +2.04`` for the coach's score (``av.score``: the coins now less
    the next players' replies, a finish card's less its value kept for a later leg), or
    the value now alone (``+2.04``) when the advice is ranked by it (no score)."""
    now = signed(av.ev)
    if getattr(av, "win", None) is not None:
        return _("%(chance)s to win, now %(now)s") % {"chance": percent(av.win), "now": now}
    if getattr(av, "score", None) is not None:
        return _("overall %(score)s, now %(now)s") % {"score": signed(av.score), "now": now}
    return now


def same_chance(values):
    """The chance to win (0..1) every one of the end-game's best few shares as the
    advice shows it (whole percents, ``percent``), or ``None``: ``values`` are the
    coach's ``ActionValue`` objects in its order (``.win`` set on the best few,
    ``camelhost.coach.win_chances``). When all of them read the same, 0% above all
    (a player too far behind to win in any play-out, tester s37tp finding 3), the
    chance tells nothing between them, and a list of equal chances would hide what
    does: ``by_balance``. ``None`` also when no action carries a chance."""
    wins = [av.win for av in values if getattr(av, "win", None) is not None]
    if not wins or len(set(round(100 * w) for w in wins)) > 1:
        return None
    return wins[0]


def by_balance(values):
    """The coach's ``ActionValue`` list ranked by its balance (``.score``) alone, each
    chance to win dropped (``.win`` ``None``): for advice whose chances are all the same
    (``same_chance``), so that what it is ranked by is the number it shows. The coach
    ranked its best few by the chance with ties kept in balance order, so where the
    chances are exactly equal (0% in every play-out) this is its own order, its choice
    first; where they differ below the percent shown, the balance decides here."""
    for av in values:
        if getattr(av, "win", None) is not None:
            av.win = None
    return sorted(values, key=lambda av: -av.score if getattr(av, "score", None) is not None
                  else float("inf"))


def finish_command(pile, colour=None):
    """The table's command for a finish card on ``pile`` (``"winner"`` / ``"loser"``):
    ``win red`` / ``lose red`` with ``colour``, ``win`` / ``lose`` without it (the colour
    then asked where nobody else sees it, RULES 1.8). Commands are typed as they are, in
    every language."""
    word = "win" if pile == "winner" else "lose"
    return word if colour is None else "%s %s" % (word, colour)


def finish_reason(av, public=False):
    """A finish card's reason, in short words, from an ``ActionValue``
    (``camelup.odds.actions``) of kind ``finish`` (RULES 1.13): the chance its camel ends
    as the pile's camel (``p``, 0..1, ``finish_chance``), the cards on the pile (``cards``)
    and, when the coach valued it, what it is worth kept for a later leg (its value now
    less ``over_hold``, ``camelhost.coach.hold_value``): ``green ends the race last: 82%,
    1 card on the pile, worth +4.20 in a later leg``. ``public``: for the shared screen, which never names the card's
    colour (RULES 1.8), so without the chance, which names it, and with the camel the
    figures are for by its place in the race odds when the view set it
    (``facts["place"]``, ``finish_camel``): ``for the camel most likely to end the race
    last, 1 card on the pile, worth +4.20 in a later leg``. Raises ``KeyError`` when ``p``, ``cards`` or ``pile`` is
    missing."""
    facts = av.facts
    parts = [] if public else [finish_chance(facts)]
    if public and facts.get("place"):
        # which camel the figures are for, by its place in the race odds beside the
        # advice, never by its colour (tester s37tp finding 7; docs/odds.md)
        parts.append(_("for %s") % finish_camel(facts["pile"], facts["place"]))
    parts.append(ngettext("%d card on the pile", "%d cards on the pile", facts["cards"])
                 % facts["cards"])
    if "over_hold" in facts:
        parts.append(_("worth %s in a later leg") % signed(av.ev - facts["over_hold"]))
    return ", ".join(parts)


def finish_camel(pile, place):
    """The camel a shared screen's finish-card figure is for, named by its ``place``
    (1-based) among the race odds of ``pile`` (``"winner"`` / ``"loser"``), highest
    chance first, never by its colour (the whole table reads the advice; docs/odds.md,
    "What the advice says"): ``the camel most likely to end the race last``, ``the
    camel at place 2 of the overall winner odds``."""
    if place == 1:
        return (_("the camel most likely to win the race") if pile == "winner" else
                _("the camel most likely to end the race last"))
    return (_("the camel at place %d of the overall winner odds") if pile == "winner" else
            _("the camel at place %d of the overall loser odds")) % place


def odds_place(race, pile, colour):
    """``colour``'s place (1-based) among the race odds of ``pile`` (``race``: a
    ``camelup.odds.race.RaceOdds``): 1 + the camels with a higher chance to end as that
    pile's camel (RULES 1.13), so a player finds it in the odds the screen shows."""
    odds = race.winner if pile == "winner" else race.loser
    mine = odds.get(colour, 0.0)
    return 1 + sum(1 for c in odds if odds[c] > mine)


def finish_chance(facts):
    """The chance a finish card's camel ends as its pile's camel, in words, from a finish
    card's ``facts`` (``colour``, ``pile``, ``p`` 0..1): ``green wins 31%``, ``green ends
    last 82%`` (what ``P`` is: RULES 1.13). It names the colour: never on the shared
    screen."""
    if facts["pile"] == "winner":
        return _("%(camel)s wins the race: %(chance)s") % {
            "camel": colour_word(facts["colour"]), "chance": percent(facts["p"])}
    return _("%(camel)s ends the race last: %(chance)s") % {
        "camel": colour_word(facts["colour"]), "chance": percent(facts["p"])}


def action_text(av, edition, who, public=False):
    """The table's one sentence for one action value (``camelup.odds.actions.ActionValue``),
    in the table's language, made from its ``facts``: every display says it this way
    (plain mode's best line, the web page's advice list, ``pyramid odds``).

    ``edition``: the game's ``Edition`` (its tile sides' words); ``who``: seat index ->
    the player's name (a partner is named, never numbered); ``public``: the shared
    screen's advice, where the table reads along (RULES 1.8), so a finish card is named
    by its command and pile, never its colour, with its reason but not its camel's
    chance (``finish_reason``); its number is the one the advice is ordered by, then the
    value now (``advice_value``). E.g. ``purple leg ticket 5: +2.18``, ``oasis tile on 7:
    +0.84 (expected landings, a coin each)``, ``red finish card on the loser pile: +1.40
    (red ends the race last: 27%, 0 cards on the pile)``; public: ``purple leg ticket 5: overall
    +1.02, now +2.18``, ``lose: a finish card on the loser pile, its colour chosen unseen:
    overall -1.03, now +1.52 (0 cards on the pile, kept for a later leg +0.92)``. Raises
    ``KeyError`` when a fact of its kind is missing."""
    f = av.facts
    ev = advice_value(av) if public else signed(av.ev)
    if av.kind == "leg":
        return _("%(colour)s leg ticket %(value)d: %(worth)s") % {
            "colour": colour_word(f["colour"]), "value": f["value"], "worth": ev}
    if av.kind == "pyramid":
        return _("pyramid ticket: %s (pays 1 at leg scoring)") % ev
    if av.kind == "tile":
        name = _tile_name(edition, f["side"])
        if "lost" in f:
            # moving the tile gives up what it earns where it is (RULES 1.5)
            return _("%(tile)s tile on %(space)d: %(worth)s (%(landings)s in landings "
                     "there, %(lost)s lost on %(lost_on)d)") % {
                "tile": name, "space": f["space"], "worth": ev,
                "landings": signed(f["landings"]), "lost": decimal(f["lost"], 2),
                "lost_on": f["lost_on"]}
        return _("%(tile)s tile on %(space)d: %(worth)s (expected landings, a coin "
                 "each)") % {"tile": name, "space": f["space"], "worth": ev}
    if av.kind == "finish":
        if public:
            # the shared screen names the pile, never the colour: the player chooses it
            # unseen ('win' alone), else the table would read it in the advice (RULES 1.8)
            return _("%(command)s: a finish card on the %(pile)s pile, its colour chosen "
                     "unseen: %(worth)s (%(why)s)") % {
                "command": finish_command(f["pile"]), "pile": _(f["pile"]), "worth": ev,
                "why": finish_reason(av, public=True)}
        if "read" in f:
            # the coach's reading of the pile (camelhost.coach): the cards on it read as
            # this colour, then what laying it now gains over keeping it for a later leg
            text = _("%(colour)s finish card on the %(pile)s pile: %(worth)s (%(why)s)") % {
                "colour": colour_word(f["colour"]), "pile": _(f["pile"]), "worth": ev,
                "why": ", ".join((
                    finish_chance(f),
                    ngettext("%d card on the pile", "%d cards on the pile", f["cards"])
                    % f["cards"],
                    _("%(cards)s read as %(colour)s") % {
                        "cards": decimal(f["read"], 0), "colour": colour_word(f["colour"])}))}
            if "over_hold" in f:
                text += "; " + _("%s over keeping it for a later leg") % decimal(f["over_hold"], 2, sign=True)
            return text
        return _("%(colour)s finish card on the %(pile)s pile: %(worth)s (%(why)s)") % {
            "colour": colour_word(f["colour"]), "pile": _(f["pile"]), "worth": ev,
            "why": finish_reason(av)}
    return _("partner %(partner)s: %(worth)s (best of their tickets to copy)") % {
        "partner": who(f["player"]), "worth": ev}


def _action_text(session, av):
    """The shared screen's words for one action value: partners by name; a finish card as
    advice for a player whose hand the table can't see."""
    return action_text(av, session.game.edition, lambda seat: session.names[seat], public=True)


def odds_view(session, samples=RACE_SAMPLES):
    """The ``odds`` entry (see the module docstring) for the position in play, or
    ``None`` (setup, race over, a position the odds engine refuses); its ``actions``
    ``None`` while a pyramid ticket waits for its die (phases ``die``, ``ink``,
    ``value``: the player has acted). Cached per position and seed."""
    g = session.game
    if g is None or session.phase in ("setup", "over", "unscored") or g.is_over:
        return None
    if session.phase != "turn":
        # a pyramid ticket waits for its die (its ink, its value): the player has acted,
        # so no action is advised until the next turn; the odds stand
        found = odds_view(_turn_of(session), samples)
        return None if found is None else dict(found, actions=None)
    # the advice's words are in the table's language: one entry per language
    key = (g.position(), session.seed, samples, tuple(session.names), language())
    hit = _ODDS_CACHE.get(key)
    if hit is not None:
        return hit
    from camelup import odds
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds
    try:
        position = position_from_game(g)
        leg = odds.leg_odds(position)
    except (ValueError, TypeError, KeyError, IndexError):
        return None
    racing = g.edition.racing
    out = {"leg": [{"colour": c, "first": leg.p_first(c), "second": leg.p_second(c),
                    "last": leg.p_last(c)} for c in racing],
           "race": None, "actions": None}
    race = None
    try:
        race = race_odds(position, seed=session.seed, samples=samples, leg=leg)
        out["race"] = {
            "winner": [{"colour": c, "p": race.winner[c], "hw": race.winner_hw[c]}
                       for c in racing],
            "loser": [{"colour": c, "p": race.loser[c], "hw": race.loser_hw[c]}
                      for c in racing],
            "samples": race.samples, "exact": bool(race.exact)}
    except (ValueError, TypeError, KeyError, IndexError):
        race = None
    from camelhost.table import bots
    try:
        values = bots.suggestions(g, leg=leg, race=race, seed=session.seed)
    except (ValueError, TypeError, KeyError, IndexError):
        values = []
    same_win = same_chance(values)
    if same_win is not None:
        values = by_balance(values)
    if race is not None:
        for av in values:
            if av.kind == "finish":  # the camel its figures are for (finish_camel)
                av.facts = dict(av.facts, place=odds_place(race, av.facts["pile"],
                                                           av.facts["colour"]))
    shown = []
    piles = {}
    for av in values:
        entry = {"kind": av.kind, "action": av.action, "ev": av.ev,
                 "score": getattr(av, "score", None), "win": getattr(av, "win", None),
                 "text": _action_text(session, av)}
        if same_win is not None and entry["score"] is not None:
            entry["same_win"] = same_win
        if av.kind == "finish":
            # valued as if held, and shown by its pile only: which colour a player lays
            # is private (RULES 1.8), and the camel's chance would name it beside the
            # race odds; a later card for the same pile would read the same, so the best
            # one a pile is shown
            pile = av.facts["pile"]
            if pile in piles:
                continue
            piles[pile] = True
            entry["action"] = "finish %s" % pile
            entry["pile"] = pile
            entry["cards"] = av.facts["cards"]
            entry["hold"] = (av.ev - av.facts["over_hold"] if "over_hold" in av.facts
                             else None)
            entry["place"] = av.facts.get("place")
        if av.kind == "partner":
            entry["partner"] = session.names[int(av.action.split()[1])]
        shown.append(entry)
    out["actions"] = {"player": session.names[g.turn], "values": shown, "partnership": None}
    mate = g.partner_of(g.turn) if g.edition.has_partnerships(g.players) else None
    if mate is not None:
        from camelup.odds.actions import partnership_ev
        out["actions"]["partnership"] = {
            "partner": session.names[mate],
            "ev": partnership_ev(leg, g.held_tickets(mate), g.pyramid_tickets(mate))}
    if len(_ODDS_CACHE) >= _ODDS_CACHE_SIZE:
        _ODDS_CACHE.clear()
    _ODDS_CACHE[key] = out
    return out


def _turn_of(session):
    """``session``'s fields ``odds_view`` reads, its phase ``turn`` (the same position)."""
    import types
    return types.SimpleNamespace(game=session.game, phase="turn", seed=session.seed,
                                 names=list(session.names))


#: The table's word for each kind of action, in the order the prompt offers them.
CHOICE_WORDS = (("leg", "leg"), ("tile", "tile"), ("win", "finish"), ("lose", "finish"),
                ("partner", "partner"), ("pyramid", "pyramid"))


def _choices(session):
    """The ``choices`` entry: the action words legal for the player to act."""
    g = session.game
    if g is None or session.phase != "turn" or g.is_over:
        return []
    kinds = {}
    for action in g.legal_actions():
        kinds[action.kind] = True
    return [word for word, kind in CHOICE_WORDS if kind in kinds]


def table_view(session, odds=True, line=None, away=None):
    """The snapshot described in the module docstring, for ``session`` (a
    ``camelhost.table.session.Session``). ``odds``: False leaves ``odds`` as None
    (faster, for tests and scripts). ``line`` and ``away``: the ``line`` and
    ``pyramid_away`` entries (the table's seam keeps them: ``Seam.line``, ``Seam.away``),
    not facts of the session. Never changes the session."""
    g = session.game
    ed = session.edition
    track, beyond = _track(session)
    pending = session.pending_die
    view = {
        "version": session.version,
        "edition": ed.name,
        "race": session.race_no,
        "leg": 0 if g is None else g.leg,
        "phase": session.phase,
        "turn": _name(session, session.current),
        "choices": _choices(session),
        "players": _players(session),
        "track": track,
        "beyond": beyond,
        "ranking": [] if g is None else g.ranking(),
        # a die out on the table whose value (or numerals) is asked is no longer inside
        # (tester s40 finding 13: listed inside after a resume at its value's prompt)
        "dice_inside": [] if g is None else [
            d for d in g.dice_in_pyramid() if pending is None or d != pending["colour"]],
        "dice_left_inside": ed.dice_left_inside,
        "dice_out": [] if g is None else list(g.dice_out),
        "leg_tickets": [] if g is None else [
            {"colour": c, "top": (g.leg_tickets_left(c) or [None])[0],
             "left": list(g.leg_tickets_left(c))} for c in ed.racing],
        "pyramid_tickets_left": 0 if g is None else
        g.pyramid_tickets_left - (0 if _waiting(session) is None else 1),
        "pyramid_waiting": _name(session, _waiting(session)),
        "piles": {"winner": 0 if g is None else len(g.pile("winner")),
                  "loser": 0 if g is None else len(g.pile("loser"))},
        "setup_rolls": [{"camel": c, "value": v, "space": setup_space(ed, c, v)}
                        for c, v in session.setup_rolls],
        "grey_back": session.grey_needed_back(),
        "dice_typed": bool(getattr(session, "dice_typed", False)),
        "dice_back_by_hand": bool(getattr(session, "dice_back_by_hand", False)),
        "line": None if line is None else dict(line),
        "pyramid_away": None if away is None else dict(away),
        "pending_die": None if pending is None else {
            "colour": pending.get("colour"), "ink": pending.get("ink"),
            "value": pending.get("value")},
        "last_die": _last_die(session),
        "leg_now": [],
        "leg_scored": _leg_scored(session),
        "final": None if session.result is None else final_view(session, session.result),
        "odds": odds_view(session) if odds else None,
    }
    if g is not None and session.phase not in ("over", "unscored") and not g.is_over:
        # the coins it would move, the zero floor applied as leg scoring applies it
        # (RULES 1.9): a player with 3 coins and a net of -4 loses 3, 1 forgiven
        view["leg_now"] = [{"name": session.names[row["player"]],
                            "net": row["after"] - row["before"],
                            "forgiven": row["after"] - row["before"] - row["net"]}
                           for row in g.leg_scores_now(_waiting(session))]
    return view
