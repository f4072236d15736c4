"""The hint under a scrolling panel (``camelhost.ui.tui.PanelScroll``) follows a new
height Textual sent the panel no ``Resize`` for: the gap commit 3a6222b8 closed for the
history (``HistoryLog``). On a loaded machine a scroll's quick layout (Textual's fast
path: only the visible widgets laid out again) can take the panel's new height first;
when the screen's map is then rebuilt before its full layout, that layout sees no change
of size and sends no ``Resize``. The panel stayed the same text, its scroll the same, so
no other watcher ran either: the hint still counted the lines below its old height
("4 more lines below" with 6 below).

The loaded machine's order of events is made here by calling Textual's own steps in that
order (private names of Textual 8, the version ``pyproject.toml`` pins): the product
itself uses the public API only."""

import asyncio

import pytest
from camelhost.ui.tui import PanelScroll
from test_tui_scroll_hint import _hint, _Panel, _settled

pytestmark = pytest.mark.screen  # a Textual app driven through its Pilot


def _quick_layout_takes_the_height_first(app, box, height):
    """``box`` given ``height`` the way a loaded machine lays it out: a scroll's quick
    layout runs before the box's own layout, and the screen's map is rebuilt at the new
    height before the full layout (which then finds no size changed)."""
    screen = app.screen
    screen._refresh_layout(scroll=True)  # a scroll after the last full layout
    box.styles.height = height
    for widget in (box, *box.ancestors):  # what the box's refresh(layout=True) clears
        getattr(widget, "_clear_arrangement_cache", lambda: None)()
    screen._refresh_layout(scroll=True)  # another scroll, before the box's Layout
    assert screen._compositor.full_map  # a region asked for: the map rebuilt at the new height


@pytest.mark.parametrize("height, said", [(8, "▼ 6 more lines below"),
                                          (12, "▼ 2 more lines below")])
def test_the_hint_follows_a_height_textual_sent_no_resize_for(height, said, monkeypatch):
    app = _Panel(13)
    resized = []  # the Resize events Textual sent the panel
    handler = PanelScroll.on_resize

    def on_resize(self, event):
        if event is not None:
            resized.append(event.size)
        return handler(self, event)
    monkeypatch.setattr(PanelScroll, "on_resize", on_resize)

    async def play():
        async with app.run_test(size=(40, 20)) as pilot:
            await _settled(pilot)
            scroll = app.query_one(PanelScroll)
            assert _hint(app).startswith("▼ 4 more lines below"), _hint(app)  # 13 in 9
            resized.clear()
            _quick_layout_takes_the_height_first(app, app.query_one("#box"), height)
            await _settled(pilot)
            await _settled(pilot)
            assert scroll.size.height == height - 1
            assert resized == []  # the conditions: no Resize came
            assert _hint(app).startswith(said), _hint(app)

    asyncio.run(play())
