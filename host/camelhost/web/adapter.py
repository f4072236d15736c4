"""Stand-in for ``camelhost.table.view.table_view`` until that view model lands.

``board_view(session)`` returns the scoreboard's dict built from the session's
public attributes only (its ``view()``, its push reports and the rules engine's
odds). It is the ONE place the web package reads a ``Session`` directly; once
``camelhost.table.view`` exists, ``camelhost.web.follow`` uses that instead and
this module goes.
"""


def _last_die(session):
    """The latest die of this race as the board shows it, or ``None``."""
    count = 0
    last = None
    for report in session.reports:
        if report.get("move"):
            count += 1
            last = report
    if last is None:
        return None
    m = last["move"]
    names = session.names
    tile = m.get("tile")
    return {"n": count, "player": names[last["player"]] if last.get("player") is not None
            else None, "camel": m["camel"], "die": m["die"], "ink": m.get("ink"),
            "value": m["value"], "direction": m["direction"], "distance": m["distance"],
            "from": m["from"], "to": m["to"], "unit": list(m["unit"]),
            "crossed": bool(m["crossed"]),
            "tile": None if not tile else {"space": tile["space"], "side": tile["side"],
                                           "owner": names[tile["owner"]]}}


def _leg_scored(session):
    names = session.names
    for report in reversed(session.reports):
        if report.get("leg_ended"):
            rows = []
            for row in report["leg_scores"]:
                items = []
                for it in row["items"]:
                    item = dict(it)
                    if "from" in item and isinstance(item["from"], int):
                        item["from"] = names[item["from"]]
                    items.append(item)
                rows.append({"player": names[row["player"]], "items": items,
                             "net": row["net"], "before": row["before"],
                             "after": row["after"]})
            leg = session.game.leg if report.get("race_over") else session.game.leg - 1
            return {"leg": leg, "ranking": list(report["leg_ranking"]), "rows": rows}
    return None


def _final(session):
    f = session.result
    if session.phase != "over" or not f:
        return None
    names = session.names
    piles = {"winner": [], "loser": []}
    for c in f["cards"]:
        piles[c["pile"]].append({"player": names[c["player"]], "colour": c["colour"],
                                 "correct": bool(c["correct"]), "place": c.get("place"),
                                 "reward": c["reward"]})
    order = sorted(range(len(names)), key=lambda i: -f["coins"][i])
    return {"winner": f["winner"], "loser": f["loser"], "piles": piles,
            "ranking": [{"player": names[i], "coins": f["coins"][i]} for i in order],
            "winners": [names[i] for i in f["winners"]]}


def _odds(session):
    """Leg odds, race odds and the current player's public action values."""
    g = session.game
    if g is None or session.phase not in ("turn", "die", "ink", "value"):
        return None, None, []
    from camelup import odds
    from camelup.odds.actions import action_values
    from camelup.odds.game import position_from_game
    from camelup.odds.race import race_odds
    leg = odds.leg_odds(position_from_game(g))
    legs = [{"camel": c, "first": leg.p_first(c), "second": leg.p_second(c),
             "last": leg.p_last(c)} for c in g.edition.racing]
    race = race_odds(g, seed=session.seed, leg=leg)
    races = {"winner": dict(race.winner), "loser": dict(race.loser), "exact": race.exact}
    # The screen is shared: finish-card advice would show, by what it leaves out,
    # which cards the player has already played (RULES 1.8, 5).
    actions = [{"action": av.action, "ev": av.ev, "reason": av.reason}
               for av in action_values(g, race=race, leg=leg) if av.kind != "finish"][:4]
    return legs, races, actions


def board_view(session):
    """Every public fact the scoreboard shows, as a JSON-able dict (RULES 5).

    Players by name, never by seat. Finish piles as sizes only until the race is
    over; then ``final`` lists each pile in play order. ``version`` counts the
    session's journal events (0 without a journal).
    """
    v = session.view()
    ed = session.edition
    names = v["names"]
    legs, races, actions = _odds(session)
    tiles = [{"space": s, "owner": names[o], "side": side,
              "name": ed.forward_name if side == "+" else ed.backward_name}
             for s, (o, side) in sorted(v["tiles"].items())]
    current = v["current"]
    return {
        "version": len(session.journal.events) if session.journal is not None else 0,
        "edition": ed.name, "racing": list(ed.racing), "crazy": list(ed.crazy),
        "dice": list(ed.dice), "race": v["race"], "leg": v["leg"], "phase": v["phase"],
        "current": names[current] if current is not None else None,
        "track": [{"space": s, "camels": list(v["stacks"][s])} for s in sorted(v["stacks"])],
        "tiles": tiles, "dice_inside": list(v["dice_inside"]), "dice_out": list(v["dice_out"]),
        "leg_tickets": {c: list(vals) for c, vals in v["leg_tickets"].items()},
        "pyramid_tickets": v["pyramid_tickets"], "piles": dict(v["piles"]),
        "ranking": list(v["ranking"]),
        "players": [{"name": p["name"], "coins": p["coins"],
                     "leg_tickets": [{"colour": c, "value": val} for c, val in p["leg_tickets"]],
                     "pyramid_tickets": p["pyramid_tickets"],
                     "tile": p["tile"][0] if p["tile"] else None,
                     "partner": names[p["partner"]] if p["partner"] is not None else None,
                     "cards_in_hand": p["cards_in_hand"], "bot": p["bot"]}
                    for p in v["players"]],
        "leg_now": [{"player": names[i], "net": net} for i, net in enumerate(v["leg_now"])],
        "last_die": _last_die(session), "leg_odds": legs, "race_odds": races,
        "actions": actions, "leg_scored": _leg_scored(session), "final": _final(session),
    }
