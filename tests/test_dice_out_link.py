"""The dice out this leg reach the board from every table (issue 32, part A; docs/classifier.md
"In play", docs/protocol.md ``OUT``): ``pyramid demo``'s board hears them as ``pyramid play``'s
does (the table tells any link it is given)."""

import pytest
from camelhost.device.events import out_mask
from camelhost.table.journal import read_events
from camelup.editions import get_edition
from camelup.game import Game

SECOND = get_edition("second")


def _subsequence(wanted, got):
    it = iter(got)
    return all(any(g == w for g in it) for w in wanted)


def _masks_after_each_die(events):
    """The mask of the dice out this leg after each die of a journal, by the engine alone."""
    head, game, masks = events[0], None, []
    for ev in events[1:]:
        if ev["type"] == "setup":
            game = Game(head["edition"], len(head["players"]), {int(k): v for k, v in ev["stacks"]})
        elif ev["type"] == "action":
            game.push(ev["action"])
        elif ev["type"] == "die":
            ink = " %s" % ev["ink"] if ev["colour"] == "grey" else ""
            game.push("pyramid %s%s %d" % (ev["colour"], ink, ev["value"]))
            masks.append(out_mask(get_edition(head["edition"]), game.dice_out))
    return masks


@pytest.mark.hil
def test_the_demos_board_hears_the_dice_out_after_every_die(tmp_path, monkeypatch, micropython):
    from camelhost import cli
    from camelhost.device import open as opening
    opened = []
    real = opening.open_pyramid

    def spy(*args, **kwargs):
        opened.append(real(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(opening, "open_pyramid", spy)
    journal = str(tmp_path / "demo.jsonl")
    # the smallest table (two seats, classic): the shortest demo that still plays a race
    assert cli.main(["demo", "--quiet", "--seats", "2", "--edition", "classic",
                     "--journal", journal]) == 0
    told = [m["n"] for _t, m in opened[0].virtual.emitted if m.name == "OK" and m.get("cmd") == "OUT"]
    masks = _masks_after_each_die(read_events(journal))
    assert len(masks) > 5 and any(masks)
    assert _subsequence(masks, told), (masks, told)
