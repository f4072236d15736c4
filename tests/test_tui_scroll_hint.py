"""The hint line under a scrolling panel (``camelhost.ui.tui.PanelScroll``: the
race-over and leg-scoring panels) follows every layout that changes what of the
panel is out of view, not only the one its app's ``fit`` asked for: on a loaded
machine the panel's text can be laid out after the hint was worked out, and the
hint then said "the end of it" with four lines still below (issue 31, seen once in
``test_race_over_ten_finish_cards_80x24``)."""

import asyncio

import pytest
from camelhost.ui.tui import PanelScroll
from textual.app import App
from textual.containers import Vertical
from textual.widgets import Static

pytestmark = pytest.mark.screen  # a Textual app driven through its Pilot


class _Panel(App):
    """A panel and its hint line, as the table lays them out (``TableApp.compose``)."""

    CSS = "#box { height: 10; } #scroll { height: 1fr; } #more { height: 1; }"

    def __init__(self, lines):
        super().__init__()
        self.lines = lines

    def compose(self):
        with Vertical(id="box"):
            with PanelScroll(id="scroll"):
                yield Static(self.text(self.lines), id="body")
            yield Static("", id="more")

    @staticmethod
    def text(lines):
        return "\n".join("line %d" % n for n in range(1, lines + 1))

    def on_mount(self):
        scroll = self.query_one(PanelScroll)
        scroll.hint = self.query_one("#more", Static)
        self.call_after_refresh(scroll.show_hint)  # what TableApp.fit does


def _hint(app):
    return str(app.query_one("#more", Static).content)


async def _settled(pilot):
    await pilot.pause()
    await pilot.pause()


def test_the_hint_counts_the_lines_a_later_layout_puts_below():
    app = _Panel(3)

    async def play():
        async with app.run_test(size=(40, 20)) as pilot:
            await _settled(pilot)
            assert _hint(app).startswith("▲ the end of it")  # 3 lines in 9 rows
            app.query_one("#body", Static).update(_Panel.text(13))  # no fit asked for
            await _settled(pilot)
            assert _hint(app).startswith("▼ 4 more lines below"), _hint(app)
            app.query_one("#body", Static).update(_Panel.text(5))
            await _settled(pilot)
            assert _hint(app).startswith("▲ the end of it"), _hint(app)

    asyncio.run(play())


def test_the_hint_follows_the_panel_made_shorter():
    app = _Panel(8)

    async def play():
        async with app.run_test(size=(40, 20)) as pilot:
            await _settled(pilot)
            assert _hint(app).startswith("▲ the end of it")  # 8 lines in 9 rows
            app.query_one("#box").styles.height = 6  # 5 rows for the panel
            await _settled(pilot)
            assert _hint(app).startswith("▼ 3 more lines below"), _hint(app)
            app.query_one("#body", Static).update(_Panel.text(13))
            await _settled(pilot)
            assert _hint(app).startswith("▼ 8 more lines below"), _hint(app)
            app.query_one("#box").styles.height = 10  # its text still taller than it
            await _settled(pilot)
            assert _hint(app).startswith("▼ 4 more lines below"), _hint(app)

    asyncio.run(play())
