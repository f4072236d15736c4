"""Full screen on a small terminal: log lines wrapped (never cut), the last error kept
whole in the status line until the next command, the die's distance in large digits
(RULES 5: large clear text)."""

import asyncio

import pytest
import tui_scenes as scenes
from camelhost.table.journal import Journal
from camelhost.table.session import Session
from camelhost.ui.tui import TableApp, wrap_lines
from textual.widgets import Digits, Log

SETUP = "setup 1:blue,green 2:red 3:yellow,purple 15:black 16:white"


def test_wrap_lines_keeps_every_word():
    line = "  Ann: green 5 ticket +5, pyramid ticket +1, copied from Ben +1 => net +7, 3 -> 10"
    pieces = wrap_lines(line, 30)
    assert all(len(p) <= 30 for p in pieces) and len(pieces) > 1
    assert " ".join(p.strip() for p in pieces) == line.strip()


@pytest.mark.screen
def test_small_screen_wraps_the_log_keeps_the_error_and_shows_big_digits():
    session = Session("second", ["Ann", "Ben", "Cy", "Dee"], seed=2, journal=Journal(None))
    app = TableApp(session, odds=scenes.quick_odds)

    async def play():
        async with app.run_test(size=(80, 24)) as pilot:
            async def typed(text):
                app.query_one("#command").value = text
                await pilot.press("enter")
                await pilot.pause()

            await typed(SETUP)
            await typed("leg green")
            await typed("blue 3")
            assert str(app.query_one("#big", Digits).value) == "+3"
            await typed("leg orange")
            error = str(app.query_one("#error").content)
            assert error.startswith("! 'orange' is not") and error.endswith("purple)")
            assert app.query_one("#error").size.height >= 2  # wrapped, not cut
            log = app.query_one("#log", Log)
            width = log.scrollable_content_region.width
            assert all(len(line) <= width for line in log.lines)
            assert any(line.startswith("DIE blue 3") for line in log.lines)
            # the dice still in: in the counts' rows, no longer repeated in the history
            # (tester s33-2 finding 11)
            assert "one stays inside" in str(app.query_one("#info").render())
            assert not any("one stays inside" in line for line in log.lines)
            await typed("show")  # the next command clears it
            assert str(app.query_one("#error").content) == ""
            await pilot.press("ctrl+q")

    asyncio.run(play())


def test_the_styles_file_ships_in_the_wheel_and_textual_reads_it():
    """``TableApp.CSS_PATH`` names a ``.tcss`` beside the module; pyproject ships
    ``camelhost.ui``'s ``*.tcss`` (``.ci/wheel-check`` reads it from the installed
    wheel); Textual parses it, pop-ups included."""
    import os
    import tomllib

    from camelhost.ui import tui
    from textual.app import App
    from textual.css.stylesheet import Stylesheet

    root = os.path.join(os.path.dirname(__file__), "..")
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    assert TableApp.CSS_PATH.endswith(".tcss") and "*.tcss" in data["camelhost.ui"]
    assert not hasattr(TableApp, "CSS") or not TableApp.CSS  # no inline styles
    sheet = Stylesheet(variables=App().get_css_variables())
    sheet.read(os.path.join(os.path.dirname(tui.__file__), TableApp.CSS_PATH))
    sheet.parse()
    selectors = " ".join(rule.selectors for rule in sheet.rules)
    for name in ("#command", "#log", "FinishCardPicker", "#picker", "HelpScreen", "#help-box"):
        assert name in selectors, name


def test_the_runtime_textual_range_holds_the_version_the_tests_run():
    """A user's Textual is the one the full screen is tested with, or a later minor of
    its major release (``textual>=8.2,<9``): the dev pin (what the tests and snapshots
    run) lies inside the runtime range, which has an upper bound."""
    import os
    import tomllib

    import textual
    from packaging.requirements import Requirement

    root = os.path.join(os.path.dirname(__file__), "..")
    with open(os.path.join(root, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    runtime = [Requirement(d) for d in project["dependencies"]
               if Requirement(d).name == "textual"]
    dev = [Requirement(d) for d in project["optional-dependencies"]["dev"]
           if Requirement(d).name == "textual"]
    assert len(runtime) == 1 and len(dev) == 1
    pinned = next(iter(dev[0].specifier)).version
    assert runtime[0].specifier.contains(pinned)
    assert runtime[0].specifier.contains(textual.__version__)  # the one installed here
    major = int(pinned.split(".")[0])
    assert not runtime[0].specifier.contains("%d.0" % (major + 1))  # a bound above
    assert not runtime[0].specifier.contains("0.80")  # the old floor: not tested


def test_a_wrapped_line_never_ends_with_one_word_alone():
    """The coach's reply at 80 columns ended "0.75 ahead of the" / "next" (tester
    s44, by hand at 80x24): the piece before gives its last word to the lone one."""
    line = ("Best for Ann: yellow leg ticket 5 (type 'leg yellow'), 0.75 ahead of the "
            "next")
    pieces = wrap_lines(line, 74)
    assert pieces == ["Best for Ann: yellow leg ticket 5 (type 'leg yellow'), 0.75 ahead of",
                      "  the next"]
    for width in range(20, 90):
        pieces = wrap_lines(line, width)
        assert " ".join(p.strip() for p in pieces) == line
        assert all(len(p) <= width for p in pieces)
        assert len(pieces) == 1 or " " in pieces[-1].strip(), (width, pieces)


def test_a_change_of_coins_is_never_cut_by_a_wrapped_line():
    """A leg's scoring line at 80 columns read "... => net +7, 3" / "-> 10" (tester
    s44b, 3, after the lone-word rule moved the arrow): ``3 -> 10`` stays one piece."""
    line = ("  Ann: green 5 ticket +5, pyramid ticket +1, pyramid ticket +1 => net +7, 3 "
            "-> 10")
    assert wrap_lines(line, 76) == [
        "  Ann: green 5 ticket +5, pyramid ticket +1, pyramid ticket +1 => net +7,",
        "    3 -> 10"]
    for width in range(20, 90):
        pieces = wrap_lines(line, width)
        assert " ".join(p.strip() for p in pieces) == line.strip()
        assert all(len(p) <= width for p in pieces)
        assert any("3 -> 10" in p for p in pieces), (width, pieces)
