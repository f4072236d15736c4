"""s32 polish on the web page: the leg scoring says the coins the zero floor forgave
(RULES 1.9), as the plain and full screens do, and the page still fits a TV and a laptop
with its words big enough to read."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.view import table_view
from test_table_papercuts import floor_session
from test_web_layout import (  # noqa: F401  (tab: the module's browser page, a fixture)
    CONTRAST,
    FLOOR_PX,
    TEXT_REPORT,
    WIDE,
    Shown,
    boxes,
    extent,
    inside,
    resize,
    tab,
)

pytestmark = [pytest.mark.xdist_group("web_browser"), pytest.mark.process]

AFTER = """rs => rs.map(r => {
    const note = r.querySelector('.after .forgiven');
    // the coins before, then after (the after figure in its own span with its unit)
    const after = r.querySelector('.after');
    const coins = after.querySelector('.coins');
    return [r.dataset.name, [after.firstChild.textContent + (coins ? coins.textContent : ''),
                             note ? note.textContent : '', note ? note.title : '']];
})"""


@pytest.mark.parametrize("lang, note", [("en", "1 coin forgiven"), ("de", "1 EP erlassen")])
def test_the_pages_leg_scoring_says_the_coin_the_zero_floor_forgave(tab, lang, note):  # noqa: F811
    set_language(lang)
    try:
        view = table_view(floor_session(), odds=False)
        with Shown(tab, view, WIDE[1]) as page:
            rows = dict(page.eval_on_selector_all("#leg-table tr", AFTER))
            assert rows["Ann"][:2] == ["3 \u2192 0", note]
            assert "RULES 1.9" in rows["Ann"][2]
            assert rows["Ben"] == ["3 \u2192 5", "", ""]  # paid in full: nothing said
            for size in WIDE:
                resize(page, size)
                assert extent(page)[0] <= size[0] and extent(page)[1] <= size[1], size
                assert all(inside(b, size) for b in boxes(page, "#leg-table tr")), size
                said = [r for r in page.evaluate(TEXT_REPORT) if r[1] == note]
                assert said, size
                assert all(px >= FLOOR_PX - 0.05 for _w, _t, px, _c in said), said
                assert all(c is None or c >= CONTRAST for _w, _t, _px, c in said), said
            assert page.problems == []
    finally:
        set_language("en")
