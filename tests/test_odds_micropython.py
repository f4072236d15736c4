"""The odds code runs unchanged on MicroPython and gives the same numbers as CPython:
exact weights (D7-sized second-edition leg with a booing tile, a classic part-leg with
both tile sides, a whole P2b leg with a booing tile: the last reveal by colour symmetry,
which MicroPython does with ``replace`` where CPython uses ``str.translate``), the tile
table, seeded race simulations (plain, and after the exact
current leg), every place of a leg (3rd, 4th), the action values and the finish cards
advised on the shared screen.
"""

import pytest
from oracles.runtimes import same_on_both

SCRIPT = r'''
from camelup.odds import Position, leg_odds, tile_values
from camelup.odds.race import race_odds, simulate, simulate_after_leg
from camelup.game import Game
from camelup.odds.actions import action_values, finish_values

out = []
p = Position("second", {2: ["yellow", "green", "red", "blue", "purple"], 14: ["black", "white"]},
             tiles={3: -1}, dice=["purple", "red", "blue"])
r = leg_odds(p)
out.append(repr((r.total, sorted(r.first.items()), sorted(r.second.items()),
                 sorted(r.last.items()), sorted(r.landings.items()))))
q = Position("classic", {1: ["blue", "green"], 2: ["orange"], 3: ["yellow", "white"]},
             tiles={4: -1, 6: 1}, dice=["blue", "orange", "white"])
r = leg_odds(q)
out.append(repr((r.total, sorted(r.first.items()), sorted(r.landings.items()))))
t = Position("second", {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                        6: ["black"], 8: ["white"]}, dice=["blue", "red", "grey"])
out.append(repr(["%d %d %.9f" % (s, side, e) for e, s, side in tile_values(t)]))
w, l = simulate(q, seed=5, samples=300)
out.append(repr((sorted(w.items()), sorted(l.items()))))
ew, el, w, l, share = simulate_after_leg(Position("second", {1: ["blue", "green"], 2: ["red"],
    3: ["yellow", "purple"], 15: ["black"], 12: ["white"]}, dice=["red", "grey", "blue"]),
    seed=9, samples=300)
out.append(repr((sorted(ew.items()), sorted(w.items()), sorted(l.items()), "%.9f" % share)))
r = leg_odds(Position("second", {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                                 15: ["black"], 16: ["white"]}, dice=["red", "grey", "blue", "green"]),
             places=True)
out.append(repr((r.total, sorted(r.places.items()))))
r = leg_odds(Position("second", {4: ["blue", "green"], 5: ["red"], 6: ["yellow", "purple"],
                                 7: ["black", "white"]}, tiles={9: -1}))
out.append(repr((r.total, sorted(r.first.items()), sorted(r.last.items()),
                 sorted(r.joint.items()), sorted(r.landings.items()))))
g = Game("second", 6, {1: ["blue", "green"], 2: ["red"], 3: ["yellow", "purple"],
                       15: ["black"], 16: ["white"]})
for text in ("leg purple", "pyramid red 2", "pyramid blue 1", "pyramid grey white 1"):
    g.push(text)
# with the facts each reason is said from (camelhost.table.view.action_text)
out.append(repr(["%s %.9f %r" % (a.action, a.ev, sorted(
    (k, "%.9f" % v if isinstance(v, float) else v) for k, v in a.facts.items()))
    for a in action_values(g, samples=300)]))
g.push("finish winner red")
out.append(repr(["%s %.9f" % (a.action, a.ev) for a in finish_values(
    g, race_odds(g, seed=3, samples=300), g.edition.racing)]))
for line in out:
    print(line)
'''


@pytest.mark.micropython
def test_odds_same_on_micropython_and_cpython(micropython, capsys):
    # RULES 3.4-3.6 (grey die, booing), 1.5, 2.4: same exact weights on both runtimes
    out = same_on_both(micropython, capsys, SCRIPT, "odds_script")
    assert out.count("\n") == 9
    assert "('purple', 108)" in out  # D7: P 108/216
    assert "leg purple " in out and "('colour', 'purple'), ('value', 3)" in out


P2B_SCRIPT = r'''
from camelup.odds import Position, leg_odds

r = leg_odds(Position("second", {4: ["blue", "green"], 5: ["red"], 6: ["yellow", "purple"],
                                 7: ["black", "white"]}))
print(repr((r.total, sorted(r.first.items()), sorted(r.second.items()),
            sorted(r.last.items()), sorted(r.joint.items()), r.finished)))
'''


@pytest.mark.micropython
def test_whole_leg_without_tiles_same_on_micropython(micropython, capsys):
    # P2b with no tile: the last reveal read off string indices (racing dice with the
    # crazy camels on the board, the grey die's outcomes per board shape); MicroPython
    # names the classes with ``replace``. A whole leg needs about 4 MB of heap there.
    out = same_on_both(micropython, capsys, P2B_SCRIPT, "p2b_script", heapsize="8M")
    assert out.startswith("(5598720, [('blue', 449536), ('green', 1401440)")
