"""The coach weighs every tile it may advise by what it does to the leg tickets held
(tester46b finding 1): the three tiles with the most landings were valued with the
tile placed, a 4th was scored as if it moved no ticket and so came first. At the
tester's position (play11) Ann holds green and purple tickets, everyone else blue, red
and yellow: a cheering tile on 4 beats one on 5 both for Ann and against the others,
exactly, and that is what ``best`` advises and what the coach plays; ``pyramid odds``
values Ann's tiles the same way (finding 2)."""

import io

from camelhost import coach
from camelhost.cli import main
from camelhost.table.controller import Table
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.plain import PlainDisplay
from camelup.notation import position_text
from camelup.odds.actions import leg_ticket_ev
from camelup.odds.game import position_from_game
from camelup.odds.leg import leg_odds

NAMES = ["Ann", "Ben", "Cy", "Dee"]
#: tester46b's play11.in up to its ``best all``: Ann to act in leg 1, no die out.
LINES = ["setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"] + [
    "leg " + c for c in ("green blue red yellow purple blue red yellow green blue red "
                         "yellow purple blue red yellow").split()]


def _table():
    out = io.StringIO()
    session = Session("second", NAMES, seed=5, journal=Journal(None))
    table = Table(session, PlainDisplay(out), pyramid=None)
    table.start()
    for text in LINES:
        table.line(text)
    return session, table, out


def _held(leg, held):
    return sum(leg_ticket_ev(v, leg.first[c] / leg.total, leg.second[c] / leg.total)
               for c, v in held)


def _exact(game, space, side):
    """(Ann's landings + change of her tickets, change of the others' tickets) with her
    tile on ``space``/``side``: the exact leg odds with and without it."""
    position = position_from_game(game)
    base = leg_odds(position)
    placed = position.copy()
    placed.tiles[space] = side
    placed.tile_owners[space] = 0
    leg = leg_odds(placed)
    mine = (leg.landings.get(space, 0) / leg.total
            + _held(leg, game.held_tickets(0)) - _held(base, game.held_tickets(0)))
    theirs = sum(_held(leg, game.held_tickets(p)) - _held(base, game.held_tickets(p))
                 for p in range(1, 4))
    return mine, theirs


def _landings(game, space, side):
    position = position_from_game(game)
    placed = position.copy()
    placed.tiles[space] = side
    placed.tile_owners[space] = 0
    leg = leg_odds(placed)
    return leg.landings.get(space, 0) / leg.total


def test_best_advises_the_tile_the_exact_leg_odds_say():
    session, table, out = _table()
    game = session.game
    four, four_theirs = _exact(game, 4, 1)
    five, five_theirs = _exact(game, 5, 1)
    assert four > five and four_theirs < five_theirs  # 4 + beats 5 + on both counts
    before = len(out.getvalue())
    table.line("best")
    said = out.getvalue()[before:]
    assert "Best for Ann: cheering tile on 4 (type 'tile 4 +')" in said, said


def test_the_coach_plays_it_too():
    session, _table_, _out = _table()
    assert coach.choose(session.game)[0] == "tile 4 +"



def test_pyramid_odds_values_a_tile_with_the_tickets_it_moves(capsys):
    # tester46b finding 2: "EV in coins" ranked Ann's tiles by landings alone, booing on
    # 4 (+1.29) and cheering on 4 (+1.22) above the pyramid ticket (+1.00), though they
    # cost her 0.70 and 0.32 on her own green and purple tickets
    session, _table_, _out = _table()
    game = session.game
    four, _theirs = _exact(game, 4, 1)
    boo, _theirs = _exact(game, 4, -1)
    landings = _landings(game, 4, 1)
    assert main(["--lang", "en", "odds", position_text(game), "--players", ",".join(NAMES),
                 "--top", "0"]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    ranked = [line.split()[1:3] for line in listed]
    # both tiles on 4 now below the pyramid ticket, as the exact figures say
    assert 1.0 > four > boo
    assert ranked.index(["pyramid", "pyramid"]) < ranked.index(["tile", "4"])
    cheer = next(line for line in listed if "cheering tile on 4:" in line)
    assert cheer.endswith("cheering tile on 4: %+.2f (%+.2f expected landings, a coin each, "
                          "%+.2f on the leg tickets held)" % (four, landings, four - landings))
    assert ("Best tile for Ann: cheering on 4, %.3f expected landings and %+.3f on the leg "
            "tickets Ann holds" % (landings, four - landings)) in out, out
