"""Plain line display (``--plain``): every fact of RULES section 5 as short text lines.

For scripts, logs and screen readers. Each notice of ``camelhost.table.session`` becomes
one or more lines; ``status_lines(view)`` prints the public state (track, dice,
tickets, money, pile sizes). Finish cards are shown as pile *sizes* only until
the final reveal, which lists each pile in play order (RULES 1.8, 5).
"""

SIDES = {
    "classic": {"+": "oasis", "-": "mirage"},
    "second": {"+": "cheering", "-": "booing"},
}


def example_die(view):
    """A die to show in hints: one of this edition (classic has no red camel), still
    in the pyramid when the race is on: ``red 2``, ``orange 2``."""
    inside = [d for d in view.get("dice_inside") or () if d != "grey"]
    if inside:
        return "%s 2" % inside[0]
    return "orange 2" if view["edition"] == "classic" else "red 2"


def _name(view, seat):
    return view["names"][seat] if seat is not None else "?"


def _money(n):
    return "%d coin%s" % (n, "" if n == 1 else "s")


def _signed(n):
    return "%+d" % n


def track_line(view):
    """``1:[red,blue] 3:[green] ... | tiles: 7 Ann cheering``; stacks bottom->top."""
    stacks = view["stacks"]
    parts = ["%d:[%s]" % (s, ",".join(stacks[s])) for s in sorted(stacks)]
    line = "Track (bottom->top): " + " ".join(parts)
    tiles = view["tiles"]
    if tiles:
        side = SIDES[view["edition"]]
        line += " | tiles: " + ", ".join(
            "%d %s %s" % (s, _name(view, tiles[s][0]), side[tiles[s][1]]) for s in sorted(tiles))
    return line


def dice_line(view):
    """Dice still inside and those revealed this leg (RULES 5: which dice can still come)."""
    inside = view["dice_inside"]
    line = "Dice in the pyramid: %s" % (", ".join(inside) or "none")
    if view["edition"] == "second" and inside:
        line += " (one of them stays inside this leg)"
    if view["dice_out"]:
        line += "; out this leg: %s" % ", ".join(view["dice_out"])
    return line


def status_lines(view):
    """Every public fact of the current position, one topic per line."""
    if not view["stacks"]:
        lines = ["Race %d setup: release each camel's die (or type '%s'), or type "
                 "'setup 1:blue,green ...' or 'draw'" % (view["race"], example_die(view))]
        if view["setup_rolls"]:
            lines.append("Placed so far: " + ", ".join(
                "%s %d" % (c, v) for c, v in view["setup_rolls"]))
        return lines
    lines = ["Race %d, leg %d" % (view["race"], view["leg"]), track_line(view), dice_line(view)]
    tickets = view["leg_tickets"]
    lines.append("Leg tickets left: " + "; ".join(
        "%s %s" % (c, ",".join(str(v) for v in tickets[c]) or "none") for c in tickets))
    lines.append("Pyramid tickets left: %d" % view["pyramid_tickets"])
    for p in view["players"]:
        held = ", ".join("%s %d" % t for t in p["leg_tickets"]) or "no leg tickets"
        extra = []
        if p["pyramid_tickets"]:
            extra.append("%d pyramid" % p["pyramid_tickets"])
        if p["partner"] is not None:
            extra.append("partner %s" % _name(view, p["partner"]))
        lines.append("%s: %s; %s%s; %d finish card%s in hand" % (
            p["name"], _money(p["coins"]), held, "; " + ", ".join(extra) if extra else "",
            p["cards_in_hand"], "" if p["cards_in_hand"] == 1 else "s"))
    piles = view["piles"]
    lines.append("Finish piles: winner %d card%s, loser %d card%s (hidden until the end)" % (
        piles["winner"], "" if piles["winner"] == 1 else "s",
        piles["loser"], "" if piles["loser"] == 1 else "s"))
    if len(view["ranking"]) >= 2:
        lines.append("Leading: 1st %s, 2nd %s" % (view["ranking"][0], view["ranking"][1]))
    if view.get("leg_now"):
        lines.append("If the leg ended now: " + ", ".join(
            "%s %+d" % (view["names"][i], net) for i, net in enumerate(view["leg_now"])))
    return lines


def prompt_line(view):
    """What the table is waiting for."""
    phase = view["phase"]
    who = _name(view, view["current"]) if view["current"] is not None else None
    if phase == "setup":
        return "> setup"
    if phase == "turn":
        return "> %s's turn (leg / tile / win / lose / partner / pyramid)" % who
    if phase == "die":
        return "> %s: release a die from the pyramid (or type it, e.g. '%s')" % (
            who, example_die(view))
    if phase == "ink":
        return "> grey die: black or white numerals? (b/w, or 'again' to release again)"
    if phase == "value":
        return "> value of the die? press 1, 2 or 3"
    if phase == "over":
        return "> race over: 'again' for another race"
    return "> race ended unscored: 'again' for another race"


def notice_lines(notice, view):
    """Lines for one session notice (``view`` after the change, for names/edition)."""
    k = notice["kind"]
    if k == "setup":
        stacks = notice["stacks"]
        return ["Race %d set up (%s): %s" % (notice["race"], notice["how"], " ".join(
            "%d:[%s]" % (s, ",".join(stacks[s])) for s in sorted(stacks)))]
    if k == "setup_die":
        line = "Setup: %s camel on its %d roll" % (notice["camel"], notice["value"])
        if notice["missing"]:
            line += "; still to place: %s" % ", ".join(notice["missing"])
        return [line]
    if k == "turn":
        return []
    if k == "action":
        return [_action_line(notice, view)]
    if k == "pyramid":
        if notice.get("die"):  # a die released or typed without 'pyramid' first
            return ["%s takes a pyramid ticket: %s" % (_name(view, notice["player"]),
                                                       notice["die"])]
        return ["%s takes a pyramid ticket: release one die" % _name(view, notice["player"])]
    if k == "ask_ink":
        return ["GREY DIE (%s's pyramid ticket), numerals not read for sure (looked %s): "
                "black or white? press b or w, or type 'again' to release again"
                % (_name(view, notice["player"]), notice["best"])]
    if k == "ask_value":
        return ["%s die is out, value unknown: press 1, 2 or 3" % notice["die"].capitalize()]
    if k == "die":
        return _die_lines(notice, view)
    if k == "leaders":
        r = notice["ranking"]
        return ["Now leading: 1st %s, 2nd %s" % (r[0], r[1])] if len(r) >= 2 else []
    if k == "dice_left":
        dice = notice["dice"]
        if notice["new_leg"]:
            return ["New leg: all dice back in the pyramid (%s); tickets and tiles returned"
                    % ", ".join(dice)]
        line = "Can still come out: %s" % ", ".join(dice)
        if view["edition"] == "second":
            line += " (one stays inside)"
        return [line + "; pyramid tickets left: %d" % view["pyramid_tickets"]]
    if k == "leg_scored":
        return _leg_lines(notice, view)
    if k == "final":
        return _final_lines(notice, view)
    if k == "retry":
        why = notice.get("why") or "the release could not be read"
        return ["RETURN THE DICE AND RELEASE AGAIN (%s); the pyramid ticket already taken "
                "still covers this action" % _why(why)]
    if k == "manual":
        return ["TYPE THE DIE BY HAND: %s" % notice["text"]]
    if k == "correction":
        stacks = notice["stacks"]
        return ["Board corrected: " + " ".join(
            "%d:[%s]" % (s, ",".join(stacks[s])) for s in sorted(stacks))]
    if k == "unscored":
        return ["Race %d ended unscored (board could not be restored)" % notice["race"]]
    if k == "new_race":
        return ["Race %d: everyone back to 3 coins; set up the camels again" % notice["race"]]
    if k == "info":
        return [notice["text"]]
    return [str(notice)]


def _why(kind):
    return {"double": "two dice came out at once", "nodie": "no die came out",
            "unknown": "the colour could not be read",
            "again": "the grey die's numerals could not be read"}.get(kind, kind)


def _action_line(notice, view):
    r = notice["report"]
    who = _name(view, r["player"])
    kind = r["kind"]
    if kind == "leg":
        t = r["ticket"]
        left = view["leg_tickets"].get(t["colour"], [])
        return "%s takes the %s leg ticket worth %d (%s left: %s)" % (
            who, t["colour"], t["value"], t["colour"], ",".join(str(v) for v in left) or "none")
    if kind == "tile":
        t = r["tile"]
        side = SIDES[view["edition"]][t["side"]]
        if t.get("from"):
            return "%s moves the tile from space %d to space %d, %s side up" % (
                who, t["from"], t["space"], side)
        return "%s places the tile on space %d, %s side up" % (who, t["space"], side)
    if kind == "finish":
        pile = r["action"].split()[1]
        return "%s plays a finish card face down on the overall-%s pile (now %d card%s)" % (
            who, pile, view["piles"][pile], "" if view["piles"][pile] == 1 else "s")
    if kind == "partner":
        return "%s forms a partnership with %s" % (who, _name(view, int(r["action"].split()[1])))
    return "%s: %s" % (who, r["action"])


def _die_lines(notice, view):
    m = notice["move"]
    who = _name(view, notice["player"])
    die = m["die"] if m["die"] != "grey" else "grey (%s numeral)" % m["ink"]
    direction = "forward" if m["direction"] > 0 else "backward (counterclockwise)"
    why = {"a": " (the only crazy camel carrying racing camels)",
           "b": " (it sits directly on the other crazy camel)",
           "c": " (the numeral's colour)"}.get(m.get("rule"), "")
    lines = ["DIE %s %d (%s's pyramid ticket): the %s camel%s moves %s %d space%s" % (
        die, m["value"], who, m["camel"], why, direction, m["distance"],
        "" if m["distance"] == 1 else "s")]
    if m["unit"][1:]:
        lines.append("  carrying %s" % ", ".join(m["unit"][1:]))
    tile = m.get("tile")
    if tile:  # the move, then the tile, then where the unit ends (RULES 1.5)
        side = SIDES[view["edition"]][tile["side"]]
        owner = _name(view, tile["owner"])
        lines.append("  from space %d to space %d" % (m["from"], tile["space"]))
        lines.append("  lands on %s's %s tile there: %s +1 coin" % (owner, side, owner))
        under = " underneath" if m["under"] else ""
        if m["crossed"]:
            lines.append("  then on across the finish line: the race is over")
        elif m["to"] == m["from"]:
            lines.append("  then back to space %d%s, where it started" % (m["to"], under))
        else:
            lines.append("  then on to space %d%s" % (m["to"], under))
    elif m["crossed"]:
        lines.append("  crosses the finish line: the race is over")
    else:
        lines.append("  from space %d to space %d" % (m["from"], m["to"]))
    return lines


def _leg_lines(notice, view):
    r = notice["ranking"]
    lines = ["LEG %d SCORED: 1st %s, 2nd %s" % (notice["leg"], r[0], r[1] if len(r) > 1 else "-")]
    for row in notice["scores"]:
        items = []
        for it in row["items"]:
            if it["kind"] == "leg":
                items.append("%s %d ticket %s" % (it["colour"], it["value"], _signed(it["reward"])))
            elif it["kind"] == "pyramid":
                items.append("pyramid ticket +1")
            else:
                items.append("copied from %s %s" % (_name(view, it["from"]), _signed(it["reward"])))
        lines.append("  %s: %s => net %s, %d -> %d" % (
            _name(view, row["player"]), ", ".join(items) or "nothing", _signed(row["net"]),
            row["before"], row["after"]))
    return lines


def _final_lines(notice, view):
    f = notice["final"]
    lines = ["RACE %d OVER: overall winner %s, overall loser %s" % (
        notice["race"], f["winner"], f["loser"])]
    for pile in ("winner", "loser"):
        cards = [c for c in f["cards"] if c["pile"] == pile]
        lines.append("%s pile revealed in play order:%s" % (
            pile.capitalize(), "" if cards else " empty"))
        for i, c in enumerate(cards, 1):
            lines.append("  %d. %s %s: %s %s (%d -> %d)" % (
                i, _name(view, c["player"]), c["colour"],
                "correct, place %d" % c["place"] if c["correct"] else "wrong",
                _signed(c["reward"]), c["before"], c["after"]))
    lines.append(final_scores_line(view["names"], f["coins"], f["winners"]))
    return lines


def final_scores_line(names, coins, winners):
    """``FINAL SCORES: Ann 12, Ben 7 | winner: Ann`` (a tie names every winner)."""
    return "FINAL SCORES: %s | winner%s: %s" % (
        ", ".join("%s %d" % (names[i], coins[i]) for i in range(len(names))),
        "s" if len(winners) > 1 else "", " and ".join(names[i] for i in winners))
