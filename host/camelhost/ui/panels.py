"""What each part of the full screen says, as Rich ``Text`` built from the table's
view model (``camelhost.table.view.table_view``: public facts only, players by
name). No Textual here: each function is plain data in, text out, so tests read it
without a screen.

Every camel, die and tile is drawn with ``camelhost.ui.palette`` (its colour *and*
its short label, for colour-blind players). Finish cards appear as counts only until
the race is over; then each pile is revealed in play order (RULES 1.8, 5).
"""

from camelup.editions import get_edition
from rich.text import Text

from camelhost.table.narration import name_list
from camelhost.ui import palette

#: Most characters per track space; the fewest is 4 (fits 18 columns in 80).
CELL = 7


def badge(name, text=None):
    """``text`` (default: the piece's label) on the piece's fill, as ``Text``."""
    label = palette.piece(name).label if text is None else text
    return Text(label, palette.style(name))


def track_text(view, width=CELL * 16):
    """Rich ``Text`` of the track: spaces 1..16 left to right, stacks drawn upwards
    (bottom camel on the bottom row), crazy camels marked with ``<`` (they run
    counterclockwise), tiles under the space numbers as ``+Ann`` / ``-Ben`` in the
    tile's colour. Crossed camels show in the columns ``<0`` and ``17>``.
    ``width``: characters available; each space gets 4 to ``CELL`` of them, so 16
    spaces (18 with both crossed columns) fit in 72 characters."""
    low = [c for b in view["beyond"] if b["space"] < 1 for c in b["stack"]]
    high = [c for b in view["beyond"] if b["space"] > 16 for c in b["stack"]]
    columns = [("<0", low, None)] if low else []
    columns += [(str(t["space"]), t["stack"], t["tile"]) for t in view["track"]]
    if high:
        columns.append(("17>", high, None))
    height = max([len(c) for _, c, _ in columns] + [1])
    cell = max(4, min(CELL, width // len(columns)))
    inner = cell - 1  # one blank column between spaces
    text = Text(no_wrap=True, overflow="crop")
    for row in range(height - 1, -1, -1):
        for _, camels, _ in columns:
            if row < len(camels):
                camel = camels[row]
                mark = "<" if camel["crazy"] else ""
                label = mark + palette.piece(camel["colour"]).label[:inner - len(mark)]
                text.append(label.center(inner), palette.style(camel["colour"]))
                text.append(" ")
            else:
                text.append(" " * cell)
        text.append("\n")
    for label, _, _ in columns:
        text.append(label.center(inner), "bold underline")
        text.append(" ")
    text.append("\n")
    for _, _, tile in columns:
        if tile is not None:
            mark = (tile["side"] + tile["owner"])[:inner]
            text.append(mark.ljust(inner), palette.style(tile["side"]))
            text.append(" ")
        else:
            text.append(" " * cell)
    return text


def dice_text(view):
    """``Can still come out: [blu] [gre] [gry] (one stays inside)`` (RULES 5)."""
    text = Text("Can still come out:")
    inside = view["dice_inside"]
    for die in inside:
        text.append(" ")
        text.append_text(badge(die))
    if not inside:
        text.append(" none")
    elif view["edition"] == "second":
        text.append(" (one stays inside)")
    return text


def leaders_text(view):
    """The line under the announcement: race, leg and the first two racing camels
    (RULES 5)."""
    r = view["ranking"]
    if not view["leg"]:
        return Text("Race %d: setup (release each camel's die, type the stacks, or 'draw')"
                    % view["race"])
    text = Text()
    text.append("Race %d, leg %d. " % (view["race"], view["leg"]), "bold")
    if len(r) >= 2:
        text.append("Leading: 1st ")
        text.append(r[0], "bold")
        text.append(", 2nd ")
        text.append(r[1], "bold")
    return text


def _ticket(colour, value):
    return badge(colour, "%s%d" % (palette.piece(colour).letter, value))


def players_text(view, width=80):
    """The players as a table, in seat order: ``▶`` for the player to act, name,
    coins, pyramid tickets, finish cards still in hand, what leg scoring would pay
    now (``now``), then the partner (``&Dee``, second edition, 6-8 players) and the
    leg tickets held (``G5``: the green 5, on green). ``width``: characters
    available; every column keeps its heading (in a narrow panel the first column is
    headed ``name`` and the last ``tickets`` even with partners)."""
    names = [p["name"] for p in view["players"]]
    racing = len(get_edition(view["edition"]).racing)
    room = width
    playing = view["phase"] in ("turn", "die", "ink", "value")
    now = {row["name"]: row["net"] for row in view.get("leg_now") or ()}
    partners = any(p["partner"] is not None for p in view["players"])
    text = Text()
    heads = [("player", "&partner tickets" if partners else "tickets"), ("name", "tickets")]
    for first, last in heads:  # the first heading that fits, else the shortest
        width = max([len(n) for n in names] + [len(first)])
        heading = " %-*s coins pyr cards%s %s" % (width, first, " now" if now else "", last)
        if len(heading) <= room:
            break
    text.append(heading + "\n", "bold")
    for p in view["players"]:
        mine = playing and p["name"] == view["turn"]
        text.append("▶" if mine else " ", "bold")
        text.append("%-*s" % (width, p["name"]), "bold reverse" if mine else "bold")
        text.append(" %5d %3s %5d" % (p["coins"], p["pyramid_tickets"] or "-",
                                      racing - p["finish_cards_played"]))
        if now:
            text.append(" %+3d" % now.get(p["name"], 0))
        text.append(" ")
        if p["partner"] is not None:
            text.append("&%s " % p["partner"], "italic")
        for i, t in enumerate(p["leg_tickets"]):
            if i:
                text.append(" ")
            text.append_text(_ticket(t["colour"], t["value"]))
        if not p["leg_tickets"] and p["partner"] is None:
            text.append("-", "dim")
        if p.get("bot"):
            text.append(" (bot)", "dim")
        text.append("\n")
    text.rstrip()
    return text


def _waiting(view):
    who = view.get("pyramid_waiting")
    return " (%s's waits for its die)" % who if who else ""


def info_text(view):
    """The public counts under the odds and players: dice that can still come out,
    pyramid tickets left (and whose waits for its die), finish-pile sizes (never
    their colours)."""
    if not view["leg"]:
        if view.get("setup_rolls"):
            return Text("Placed so far: " + ", ".join(
                "%s %d" % (r["camel"], r["value"]) for r in view["setup_rolls"]))
        return Text("")
    over = view["phase"] in ("over", "unscored")
    text = Text()
    if not over:
        text.append_text(dice_text(view))
        text.append(". ")
    piles = view["piles"]
    text.append("Pyramid tickets left: %d%s. Finish piles%s: winner %d card%s, loser %d card%s" % (
        view["pyramid_tickets_left"], _waiting(view), "" if over else " (hidden)",
        piles["winner"], "" if piles["winner"] == 1 else "s",
        piles["loser"], "" if piles["loser"] == 1 else "s"))
    return text


def leg_score_text(leg, hint=True):
    """The leg-scoring panel of ``leg`` (the view's ``leg_scored``): the leg's first
    two camels, then per player the coins before -> after (net), and each ticket with
    what it paid (RULES 1.10, 3.8)."""
    r = leg["ranking"]
    text = Text()
    text.append("LEG %d SCORED" % leg["leg"], "bold reverse")
    text.append(" 1st %s, 2nd %s" % (r[0], r[1] if len(r) > 1 else "-"))
    text.append("  (Esc: odds)\n" if hint else "\n", "dim")
    width = max(len(row["name"]) for row in leg["players"])
    for row in leg["players"]:
        text.append("%-*s " % (width, row["name"]), "bold")
        text.append("%2d -> %2d (%+d):" % (row["before"], row["after"], row["net"]))
        if not row["items"]:
            text.append(" no tickets", "dim")
        for it in row["items"]:
            text.append(" ")
            if it["kind"] == "leg":
                text.append_text(_ticket(it["colour"], it["value"]))
            elif it["kind"] == "pyramid":
                text.append("pyramid")
            else:
                text.append("copy of %s" % it["from"])
            text.append(" %+d" % it["reward"], "bold" if it["reward"] > 0 else "")
        text.append("\n")
    text.rstrip()
    return text


def race_over_text(view):
    """The race-over panel (the view's ``final``): overall winner and loser, the final
    order of the racing camels, the scoring of the last leg, each finish pile revealed
    in play order (who, which colour, what it paid), the final coins ranked and the
    player(s) who won (RULES 1.13)."""
    final = view["final"]
    text = Text()
    text.append("RACE %d OVER" % view["race"], "bold reverse")
    text.append("  overall winner ")
    text.append_text(badge(final["winner"], " %s " % final["winner"].upper()))
    text.append(", overall loser ")
    text.append_text(badge(final["loser"], " %s " % final["loser"].upper()))
    text.append("\nFinal order:")
    for i, c in enumerate(view["ranking"], 1):
        text.append(" %d." % i)
        text.append_text(badge(c))
    text.append("\n")
    if view.get("leg_scored") is not None:
        text.append_text(leg_score_text(view["leg_scored"], hint=False))
        text.append("\n")
    for pile in ("winner", "loser"):
        cards = final["piles"][pile]
        text.append("%s pile, in play order:" % pile.capitalize(), "bold")
        if not cards:
            text.append(" empty")
        text.append("\n")
        for i, c in enumerate(cards, 1):
            text.append("  %d. %s " % (i, c["name"]))
            text.append_text(badge(c["colour"]))
            text.append(" %s %+d (%d -> %d)\n" % (
                "correct, place %d" % c["place"] if c["correct"] else "wrong",
                c["reward"], c["before"], c["after"]))
    text.append("Final coins:", "bold")
    for place, row in enumerate(final["standings"], 1):
        text.append(" %d. %s %d" % (place, row["name"], row["coins"]))
    winners = final["winners"]
    text.append("\n")
    text.append("WINNER%s: %s" % ("S" if len(winners) > 1 else "", name_list(winners)),
                "bold reverse")
    text.append("   ('again' starts another race)")
    return text


def tile_names(view):
    """The edition's words for the forward and backward tile side."""
    ed = get_edition(view["edition"])
    return ed.forward_name, ed.backward_name
