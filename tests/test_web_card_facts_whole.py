"""A player card's facts (a leg's net, a spectator tile, a partner, the finish cards
played) each whole on one line, in the real headless browser (tester s37tp finding 4).

Eight German players at 1024x768 read "Partner Gus · 0" / "Wettkarten gespielt": the count
cut from its noun, read as something of the partner's; in English "0 finish" / "cards
played". A fact may only move to the next line whole (or, wider than the card, wrap
inside itself), and the page still fits a TV and a small laptop without scrolling. Each
view is the table's own (``test_web_layout.tiles_partners_cards``: eight seats, each with
a partner and a finish card played, six with a tile)."""

import pytest
from camelhost.i18n import set_language
from test_web_layout import (  # noqa: F401  (tab: the module's browser page, a fixture)
    SEATS,
    Shown,
    extent,
    long_names,
    resize,
    tab,
    tiles_partners_cards,
    view_of,
)

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]

TV = ((1920, 1080), (1280, 720), (1024, 768))
PHONE = ((360, 740), (390, 844), (820, 1180))

#: ``[text, lines, fits]`` of the count of finish cards played on each player card and its
#: noun (the fact but its last word, the verb: "0 Wettkarten", "1 finish card"): the
#: number of lines its words stand on (rects whose vertical middles differ by more than
#: half a line are two lines), and whether it is narrower than its card (only then must
#: it be one line)
FACTS = r"""() => Array.from(document.querySelectorAll('#players .player .player-extra .fact'))
  .filter(f => f.offsetParent !== null && /^\d/.test(f.textContent)).map(f => {
    const text = f.textContent, cut = text.lastIndexOf(' ');
    const range = document.createRange();
    let n = 0, node = null;
    const walk = document.createTreeWalker(f, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let t = walk.nextNode(); t; t = walk.nextNode()) nodes.push(t);
    // the range from the fact's first letter to the end of its noun
    range.setStart(nodes[0], 0);
    for (node of nodes) {
      if (n + node.length >= cut) { range.setEnd(node, cut - n); break; }
      n += node.length;
    }
    const mids = [];
    for (const r of range.getClientRects()) {
      if (r.width < 1) continue;
      const m = (r.top + r.bottom) / 2;
      if (!mids.some(x => Math.abs(x - m) < r.height / 2)) mids.push(m);
    }
    const card = f.closest('.player-extra').getBoundingClientRect();
    const probe = document.createElement('span');
    probe.textContent = text.slice(0, cut);
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    f.parentElement.appendChild(probe);
    const wide = probe.getBoundingClientRect().width;
    probe.remove();
    return [text.slice(0, cut), mids.length, wide <= card.width + 0.5];
  })"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_count_stays_with_its_noun_on_a_player_card(tab, lang):  # noqa: F811
    set_language(lang)
    try:
        for names in (list(SEATS), long_names(8)):
            view = view_of(tiles_partners_cards(names))
            with Shown(tab, view, TV[0]) as page:
                for size in TV + PHONE:
                    resize(page, size)
                    facts = page.evaluate(FACTS)
                    assert len(facts) == 8, (lang, size, facts)
                    split = [f[0] for f in facts if f[2] and f[1] > 1]
                    assert split == [], (lang, size, split)
                    if size in TV:
                        assert extent(page)[1] <= size[1], (lang, size, extent(page))
                    assert extent(page)[0] <= size[0], (lang, size, extent(page))
                    assert page.problems == []
    finally:
        set_language("en")


#: ``[text, lines, fits]`` of each spectator tile and partner fact on the player cards:
#: the number of lines its words stand on (as ``FACTS`` counts them) and whether, on
#: one line, it is narrower than its card (only then must it be one line)
TILE_PARTNER = r"""() => Array.from(document.querySelectorAll(
    '#players .player .player-extra .fact.tile-fact, #players .player .player-extra .fact.partner'))
  .filter(f => f.offsetParent !== null).map(f => {
    const range = document.createRange();
    range.selectNodeContents(f);
    const mids = [];
    for (const r of range.getClientRects()) {
      if (r.width < 1) continue;
      const m = (r.top + r.bottom) / 2;
      if (!mids.some(x => Math.abs(x - m) < r.height / 2)) mids.push(m);
    }
    const card = f.closest('.player-extra').getBoundingClientRect();
    const probe = f.cloneNode(true);
    probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;display:inline';
    f.parentElement.appendChild(probe);
    const wide = probe.getBoundingClientRect().width;
    probe.remove();
    return [f.textContent, mids.length, wide <= card.width + 0.5];
  })"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_tile_and_partner_fact_stays_on_one_line(tab, lang):  # noqa: F811
    """Tester s38 finding 2: a partner ("partner" / "Gus") or a spectator tile
    ("cheering on" / "7") wrapped inside its fact, its words on two lines of the card.
    Each moves to the next line whole, on eight cards of short and long names, at a
    TV's, a laptop's and a phone's sizes (a tile wider than its card alone may wrap; a
    partner's long name is shortened instead)."""
    set_language(lang)
    try:
        for names in (list(SEATS), long_names(8)):
            view = view_of(tiles_partners_cards(names))
            with Shown(tab, view, TV[0]) as page:
                for size in TV + PHONE:
                    resize(page, size)
                    facts = page.evaluate(TILE_PARTNER)
                    # four partners and four tiles (the other four seats' tiles laid
                    # when they took no partner, RULES 3.8)
                    assert len(facts) >= 8, (lang, size, facts)
                    split = [f[0] for f in facts if f[2] and f[1] > 1]
                    assert split == [], (lang, size, split)
                    # a partner's always: a long name is shortened to what the line
                    # leaves it ("Partner" / "Bartholomäus" at 1280x720 before)
                    split = [f[0] for f in facts if f[1] > 1 and "artner" in f[0]]
                    assert split == [], (lang, size, split)
                    if size in TV:
                        assert extent(page)[1] <= size[1], (lang, size, extent(page))
                    assert extent(page)[0] <= size[0], (lang, size, extent(page))
                    assert page.problems == []
    finally:
        set_language("en")
